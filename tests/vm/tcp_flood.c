// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_flood: send many bare TCP segments (SYN or RST) from a raw socket,
 * for madcm's hostile-peer VM tests. IPv4 only.
 *
 *   tcp_flood syn SRC DST DPORT COUNT        SYNs from random source ports
 *   tcp_flood rst SRC DST DPORT COUNT SPORT  RSTs with random sequence numbers
 *   tcp_flood rst SRC DST DPORT COUNT SPORT SEQ
 *                                            RSTs at SEQ + 1 .. SEQ + 256 in
 *                                            turn: inside a receive window
 *                                            that starts at SEQ, never at it
 *   tcp_flood spoof SRC DST DPORT COUNT USEC SYNs from SRC (any address, not
 *                                            necessarily ours: the IP header
 *                                            is built here), random ports,
 *                                            USEC microseconds apart
 *   tcp_flood idle SRC DST DPORT COUNT USEC  COUNT real connections from SRC,
 *                                            USEC apart, that never send a
 *                                            byte; all held until 2 s after
 *                                            the last one is opened
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/ip.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct pseudo {
	uint32_t src, dst;
	uint8_t zero, proto;
	uint16_t len;
};

static uint16_t csum(const void *a, size_t alen, const void *b, size_t blen)
{
	const uint8_t *p;
	uint32_t sum = 0;
	size_t i;

	for (p = a, i = 0; i + 1 < alen; i += 2)
		sum += p[i] << 8 | p[i + 1];
	for (p = b, i = 0; i + 1 < blen; i += 2)
		sum += p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons(~sum & 0xffff);
}

/* Connections that complete their handshake and then say nothing. */
static int idle_flood(const char *src, const char *dst, int port, int count,
		      int usec)
{
	struct sockaddr_in la = { .sin_family = AF_INET };
	struct sockaddr_in ra = { .sin_family = AF_INET };
	int i, fd, opened = 0;

	inet_pton(AF_INET, src, &la.sin_addr);
	inet_pton(AF_INET, dst, &ra.sin_addr);
	ra.sin_port = htons(port);
	for (i = 0; i < count; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0) {
			perror("socket");
			break;
		}
		if (bind(fd, (struct sockaddr *)&la, sizeof(la)) < 0) {
			perror("bind");
			close(fd);
			break;
		}
		fcntl(fd, F_SETFL, O_NONBLOCK);
		if (connect(fd, (struct sockaddr *)&ra, sizeof(ra)) < 0 &&
		    errno != EINPROGRESS) {
			perror("connect");
			close(fd);
			continue;
		}
		opened++;
		usleep(usec);
	}
	sleep(2);
	printf("flood: opened %d idle\n", opened);
	return opened == count ? 0 : 1;
}

/* A SYN from any source address: the IP header is ours (IP_HDRINCL). */
static int spoof_flood(const char *src, const char *dst, int port, int count,
		       int usec)
{
	struct sockaddr_in da = { .sin_family = AF_INET };
	uint8_t pkt[sizeof(struct iphdr) + 20];
	struct iphdr *ip = (struct iphdr *)pkt;
	uint8_t *seg = pkt + sizeof(*ip);
	struct pseudo ph;
	int fd, i, one = 1, sent = 0;

	inet_pton(AF_INET, src, &ph.src);
	inet_pton(AF_INET, dst, &ph.dst);
	da.sin_addr.s_addr = ph.dst;
	ph.zero = 0;
	ph.proto = IPPROTO_TCP;
	ph.len = htons(20);
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0 || setsockopt(fd, IPPROTO_IP, IP_HDRINCL, &one,
				 sizeof(one)) < 0) {
		perror("raw socket");
		return 2;
	}
	srand(getpid());
	for (i = 0; i < count; i++) {
		memset(pkt, 0, sizeof(pkt));
		ip->version = 4;
		ip->ihl = 5;
		ip->tot_len = htons(sizeof(pkt));
		ip->ttl = 64;
		ip->protocol = IPPROTO_TCP;
		ip->saddr = ph.src;
		ip->daddr = ph.dst;
		/* The kernel fills in the IP checksum (and an ID of 0). */
		*(uint16_t *)seg = htons(20000 + rand() % 40000);
		*(uint16_t *)(seg + 2) = htons(port);
		*(uint32_t *)(seg + 4) = htonl((uint32_t)rand() << 1 ^ rand());
		seg[12] = 5 << 4;
		seg[13] = 0x02;
		*(uint16_t *)(seg + 14) = htons(65535);
		*(uint16_t *)(seg + 16) = csum(&ph, sizeof(ph), seg, 20);
		if (sendto(fd, pkt, sizeof(pkt), 0, (struct sockaddr *)&da,
			   sizeof(da)) == sizeof(pkt))
			sent++;
		usleep(usec);
	}
	printf("flood: sent %d spoofed syn\n", sent);
	return sent == count ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	uint8_t seg[20];
	struct pseudo ph;
	int fd, syn, count, i, tries, sent = 0;
	uint16_t sport = 0;
	uint32_t base = 0;
	int near = 0;

	if (argc == 7 && !strcmp(argv[1], "idle"))
		return idle_flood(argv[2], argv[3], atoi(argv[4]),
				  atoi(argv[5]), atoi(argv[6]));
	if (argc == 7 && !strcmp(argv[1], "spoof"))
		return spoof_flood(argv[2], argv[3], atoi(argv[4]),
				   atoi(argv[5]), atoi(argv[6]));
	if (argc < 6 || (strcmp(argv[1], "syn") && strcmp(argv[1], "rst")) ||
	    (!strcmp(argv[1], "rst") && argc < 7)) {
		fprintf(stderr, "usage: tcp_flood syn|rst SRC DST DPORT COUNT [SPORT [SEQ]]\n"
				"       tcp_flood spoof|idle SRC DST DPORT COUNT USEC\n");
		return 2;
	}
	syn = !strcmp(argv[1], "syn");
	inet_pton(AF_INET, argv[2], &ph.src);
	inet_pton(AF_INET, argv[3], &ph.dst);
	dst.sin_addr.s_addr = ph.dst;
	count = atoi(argv[5]);
	if (!syn)
		sport = atoi(argv[6]);
	if (!syn && argc > 7) {
		near = 1;
		base = strtoul(argv[7], NULL, 0);
	}
	ph.zero = 0;
	ph.proto = IPPROTO_TCP;
	ph.len = htons(sizeof(seg));

	fd = socket(AF_INET, SOCK_RAW, IPPROTO_TCP);
	if (fd < 0) {
		perror("socket");
		return 2;
	}
	srand(getpid());
	for (i = 0; i < count; i++) {
		uint16_t sp = syn ? 20000 + rand() % 40000 : sport;
		uint32_t seq = near ? base + 1 + i % 256 :
				      (uint32_t)rand() << 1 ^ rand();

		memset(seg, 0, sizeof(seg));
		*(uint16_t *)seg = htons(sp);
		*(uint16_t *)(seg + 2) = htons(atoi(argv[4]));
		*(uint32_t *)(seg + 4) = htonl(seq);
		seg[12] = 5 << 4;
		seg[13] = syn ? 0x02 : 0x04;
		*(uint16_t *)(seg + 14) = htons(65535);
		*(uint16_t *)(seg + 16) = csum(&ph, sizeof(ph), seg, sizeof(seg));
		/*
		 * A loaded guest's device queue may be full for a moment
		 * (ENOBUFS): wait a millisecond and send the segment again.
		 */
		for (tries = 0; tries < 1000; tries++) {
			if (sendto(fd, seg, sizeof(seg), 0,
				   (struct sockaddr *)&dst,
				   sizeof(dst)) == sizeof(seg)) {
				sent++;
				break;
			}
			if (errno != ENOBUFS && errno != EAGAIN &&
			    errno != EINTR) {
				perror("sendto");
				break;
			}
			usleep(1000);
		}
	}
	printf("flood: sent %d %s\n", sent, argv[1]);
	return sent == count ? 0 : 1;
}
