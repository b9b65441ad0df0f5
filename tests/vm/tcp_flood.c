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
 */
#include <arpa/inet.h>
#include <errno.h>
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

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	uint8_t seg[20];
	struct pseudo ph;
	int fd, syn, count, i, tries, sent = 0;
	uint16_t sport = 0;
	uint32_t base = 0;
	int near = 0;

	if (argc < 6 || (strcmp(argv[1], "syn") && strcmp(argv[1], "rst")) ||
	    (!strcmp(argv[1], "rst") && argc < 7)) {
		fprintf(stderr, "usage: tcp_flood syn|rst SRC DST DPORT COUNT [SPORT [SEQ]]\n");
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
