// SPDX-License-Identifier: GPL-2.0
/*
 * pcap_dump: capture every frame on one interface into a pcap file, for
 * madcm's VM tests (the initramfs has no tcpdump). Stops after SECONDS or
 * on SIGTERM/SIGINT.
 *
 *   pcap_dump IFNAME SECONDS FILE
 */
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct { uint32_t magic; uint16_t major, minor; int32_t zone;
		 uint32_t sigfigs, snaplen, linktype; } gh = {
		0xa1b2c3d4, 2, 4, 0, 0, 65535, 1 };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	static unsigned char buf[65536];
	struct timespec start, now;
	int fd, frames = 0;
	FILE *out;

	if (argc != 4) {
		fprintf(stderr, "usage: pcap_dump IFNAME SECONDS FILE\n");
		return 2;
	}
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0) {
		perror("socket");
		return 2;
	}
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = if_nametoindex(argv[1]);
	if (!sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("bind");
		return 2;
	}
	out = fopen(argv[3], "w");
	if (!out) {
		perror("fopen");
		return 2;
	}
	fwrite(&gh, sizeof(gh), 1, out);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	clock_gettime(CLOCK_MONOTONIC, &start);
	printf("pcap_dump: capturing on %s\n", argv[1]);
	fflush(stdout);
	while (!stop) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct { uint32_t sec, usec, incl, orig; } ph;
		struct timespec ts;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= atoi(argv[2]))
			break;
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			continue;
		clock_gettime(CLOCK_REALTIME, &ts);
		ph.sec = ts.tv_sec;
		ph.usec = ts.tv_nsec / 1000;
		ph.incl = n;
		ph.orig = n;
		fwrite(&ph, sizeof(ph), 1, out);
		fwrite(buf, n, 1, out);
		fflush(out);
		frames++;
	}
	fclose(out);
	printf("pcap_dump: %d frames\n", frames);
	return 0;
}
