// SPDX-License-Identifier: GPL-2.0
/*
 * frag_peer: send one TCP SYN to ADDR:PORT as two IP fragments (IPv4 or
 * IPv6, by the address), then report what comes back to that port within
 * two seconds: "reply SYN-ACK", "reply RST" or "reply none".
 *
 * The SYN carries 20 octets of options (a 40-octet TCP header); the first
 * fragment holds the fixed TCP header and 4 octets of options (24 octets,
 * a multiple of 8 as RFC 791 and RFC 8200 want of every fragment but the
 * last), the second the 16 octets left. Both fragments are built here,
 * checksums included, and sent on a raw socket that takes the IP header
 * as given.
 *
 * Usage: frag_peer ADDR PORT SRCADDR SRCPORT
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define TCP_HDR_LEN	40
#define FRAG1_LEN	24

static uint32_t csum_add(uint32_t sum, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len > 1) {
		sum += (uint32_t)b[0] << 8 | b[1];
		b += 2;
		len -= 2;
	}
	if (len)
		sum += (uint32_t)b[0] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

/* A SYN with MSS, window scale, SACK-permitted and NOPs (RFC 9293, 7323, 2018). */
static void build_syn(uint8_t *t, uint16_t sport, uint16_t dport)
{
	static const uint8_t opts[20] = {
		2, 4, 0x05, 0xa0,	/* MSS 1440 */
		1, 3, 3, 7,		/* NOP, window scale 7 */
		1, 1, 4, 2,		/* NOP, NOP, SACK permitted */
		1, 1, 1, 1, 1, 1, 1, 1,	/* padding */
	};
	struct tcphdr *th = (struct tcphdr *)t;

	memset(t, 0, TCP_HDR_LEN);
	th->source = htons(sport);
	th->dest = htons(dport);
	th->seq = htonl(0x1badcafe);
	th->doff = TCP_HDR_LEN / 4;
	th->syn = 1;
	th->window = htons(65535);
	memcpy(t + sizeof(*th), opts, sizeof(opts));
}

static int send_v4(const char *dst, uint16_t dport, const char *src,
		   uint16_t sport)
{
	uint8_t tcp[TCP_HDR_LEN], pkt[sizeof(struct iphdr) + 32];
	struct iphdr *ip = (struct iphdr *)pkt;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	uint32_t sum;
	int fd, off, len;

	struct in_addr d, s;

	if (inet_pton(AF_INET, dst, &d) != 1 || inet_pton(AF_INET, src, &s) != 1)
		return -1;
	build_syn(tcp, sport, dport);
	sum = csum_add(0, &s, 4);
	sum = csum_add(sum, &d, 4);
	sum += IPPROTO_TCP + TCP_HDR_LEN;
	sum = csum_add(sum, tcp, TCP_HDR_LEN);
	((struct tcphdr *)tcp)->check = csum_fold(sum);

	fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		perror("socket");
		return -1;
	}
	sin.sin_addr = d;
	for (off = 0; off < TCP_HDR_LEN; off += len) {
		len = off ? TCP_HDR_LEN - off : FRAG1_LEN;
		memset(pkt, 0, sizeof(pkt));
		ip->version = 4;
		ip->ihl = 5;
		ip->tot_len = htons(sizeof(*ip) + len);
		ip->id = htons(0x4242);
		ip->frag_off = htons((off / 8) | (off ? 0 : IP_MF));
		ip->ttl = 64;
		ip->protocol = IPPROTO_TCP;
		ip->saddr = s.s_addr;
		ip->daddr = d.s_addr;
		ip->check = csum_fold(csum_add(0, ip, sizeof(*ip)));
		memcpy(pkt + sizeof(*ip), tcp + off, len);
		if (sendto(fd, pkt, sizeof(*ip) + len, 0, (struct sockaddr *)&sin,
			   sizeof(sin)) < 0) {
			perror("sendto");
			return -1;
		}
	}
	close(fd);
	return 0;
}

static int send_v6(const char *dst, uint16_t dport, const char *src,
		   uint16_t sport)
{
	uint8_t tcp[TCP_HDR_LEN], pkt[sizeof(struct ip6_hdr) + 8 + 32];
	struct ip6_hdr *ip6 = (struct ip6_hdr *)pkt;
	struct ip6_frag *fh = (struct ip6_frag *)(pkt + sizeof(*ip6));
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct in6_addr d, s;
	uint32_t sum;
	int fd, off, len;

	if (inet_pton(AF_INET6, dst, &d) != 1 || inet_pton(AF_INET6, src, &s) != 1)
		return -1;
	build_syn(tcp, sport, dport);
	/* RFC 8200 8.1: the pseudo-header of the whole, unfragmented segment. */
	sum = csum_add(0, &s, 16);
	sum = csum_add(sum, &d, 16);
	sum += TCP_HDR_LEN + IPPROTO_TCP;
	sum = csum_add(sum, tcp, TCP_HDR_LEN);
	((struct tcphdr *)tcp)->check = csum_fold(sum);

	/* IPPROTO_RAW on an IPv6 raw socket: the IPv6 header is ours. */
	fd = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		perror("socket");
		return -1;
	}
	sin6.sin6_addr = d;
	for (off = 0; off < TCP_HDR_LEN; off += len) {
		len = off ? TCP_HDR_LEN - off : FRAG1_LEN;
		memset(pkt, 0, sizeof(pkt));
		ip6->ip6_flow = htonl(6u << 28);
		ip6->ip6_plen = htons(sizeof(*fh) + len);
		ip6->ip6_nxt = IPPROTO_FRAGMENT;
		ip6->ip6_hlim = 64;
		ip6->ip6_src = s;
		ip6->ip6_dst = d;
		fh->ip6f_nxt = IPPROTO_TCP;
		fh->ip6f_offlg = htons(off | (off ? 0 : 1));	/* offset << 3, M */
		fh->ip6f_ident = htonl(0x42424242);
		memcpy(pkt + sizeof(*ip6) + sizeof(*fh), tcp + off, len);
		if (sendto(fd, pkt, sizeof(*ip6) + sizeof(*fh) + len, 0,
			   (struct sockaddr *)&sin6, sizeof(sin6)) < 0) {
			perror("sendto");
			return -1;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	uint16_t dport, sport;
	struct timespec t0, t;
	struct pollfd pfd;
	uint8_t buf[2048];
	bool v6;
	int fd, ms, n, hl;

	if (argc != 5) {
		fprintf(stderr, "usage: %s ADDR PORT SRCADDR SRCPORT\n", argv[0]);
		return 2;
	}
	v6 = strchr(argv[1], ':');
	dport = atoi(argv[2]);
	sport = atoi(argv[4]);
	/* Every TCP segment this host receives, copied here. */
	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_RAW, IPPROTO_TCP);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	if ((v6 ? send_v6 : send_v4)(argv[1], dport, argv[3], sport))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		const struct tcphdr *th;

		clock_gettime(CLOCK_MONOTONIC, &t);
		ms = 2000 - (int)((t.tv_sec - t0.tv_sec) * 1000 +
				  (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (ms <= 0)
			break;
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, ms) <= 0)
			break;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			break;
		/* IPv4 raw sockets give the IP header, IPv6 ones do not. */
		hl = v6 ? 0 : (buf[0] & 0xf) * 4;
		if (n < hl + (int)sizeof(*th))
			continue;
		th = (const struct tcphdr *)(buf + hl);
		if (ntohs(th->source) != dport || ntohs(th->dest) != sport)
			continue;
		if (th->rst) {
			printf("reply RST\n");
			return 0;
		}
		if (th->syn && th->ack) {
			printf("reply SYN-ACK\n");
			return 0;
		}
	}
	printf("reply none\n");
	return 0;
}
