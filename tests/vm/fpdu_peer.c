// SPDX-License-Identifier: GPL-2.0
/*
 * fpdu_peer: a hostile iWARP peer on a plain Linux TCP socket, for madcm's
 * VM tests (issue 18, 6). It connects to an RNIC's listener, completes the
 * MPA exchange itself (RFC 5044 section 7.1, RFC 6581: revision 2, CRC,
 * no markers, no RTR), takes the ULP's 16-octet advertisement (address,
 * STag, length, big endian) from the first Send, Sends its own, then
 * sends the FPDUs of one CASE and reports the Terminate it gets back
 * (RFC 5040 section 4.8) and how the connection ended. Written from RFCs
 * 5040, 5041, 5044 and 6581, not from madcm's code.
 *
 *   fpdu_peer ADDR PORT CASE [-t SECONDS] [-s SEED] [-q QUIET]
 *
 * CASE: good (a Write, then a Read of it back, byte-exact: the control),
 * crc, stag, bounds, wrap, qn, msn, mo, opcode, rdmap_version,
 * ddp_version, rreq_stag, ird, random, garbage; stall: read nothing for
 * SECONDS (a small receive buffer, so a closed window), then read what
 * comes, count the RDMA Write payload, and close once QUIET seconds
 * (default 5) pass without an FPDU; it prints the longest gap.
 * Prints "peer: ..." lines the scripts grep:
 *   peer: adv addr=0x.. stag=0x.. len=N
 *   peer: terminate layer=L etype=T ecode=0xCC
 *   peer: end eof|reset|timeout
 * Exits 0 when the exchange went through, 2-3 on a local or MPA error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define KEY_REQ "MPA ID Req Frame"
#define KEY_REP "MPA ID Rep Frame"
#define KEY_LEN 16
#define F_MARKERS 0x80
#define F_CRC 0x40
#define F_REJECT 0x20
#define F_ENHANCED 0x10

/* RFC 5041 4.2-4.3, RFC 5040 4.2-4.7: header sizes and fields. */
#define T_HDR 14		/* control, STag, TO */
#define U_HDR 18		/* control, RDMAP/reserved, QN, MSN, MO */
#define RREQ_HDR 28		/* sink STag, sink TO, size, source STag, TO */
#define DDP_T 0x80
#define DDP_L 0x40
#define DDP_DV 0x01
#define RDMAP_RV 0x40
enum { OP_WRITE, OP_RREQ, OP_RRESP, OP_SEND, OP_SEND_INV, OP_SEND_SE,
	OP_SEND_SE_INV, OP_TERMINATE };
enum { QN_SEND, QN_RREQ, QN_TERM };

#define MAX_FPDU 70000

static int timeout_s = 20, quiet_s = 5;
static unsigned int seed = 1;
static int fd;
static uint32_t msn[3] = { 1, 1, 1 };	/* our next MSN per queue */
static uint64_t adv_addr;
static uint32_t adv_stag, adv_len;
static unsigned int peer_ird = 1;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void die(const char *what)
{
	printf("peer: error %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint32_t crc32c(uint32_t crc, const unsigned char *p, size_t n)
{
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82f63b78 : crc >> 1;
	}
	return crc;
}

static void put16(unsigned char *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v);
}

static unsigned int get16(const unsigned char *p)
{
	return p[0] << 8 | p[1];
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

/* 0, -ETIMEDOUT, or -ECONNRESET for EOF (n == 0 then) or a reset. */
static int read_full(void *buf, size_t len, int *eof)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	*eof = 0;
	while (got < len) {
		ssize_t n;

		if (poll(&p, 1, timeout_s * 1000) <= 0)
			return -ETIMEDOUT;
		n = read(fd, (char *)buf + got, len - got);
		if (n == 0) {
			*eof = 1;
			return -ECONNRESET;
		}
		if (n < 0)
			return errno == ECONNRESET ? -ECONNRESET : -errno;
		got += n;
	}
	return 0;
}

static void send_all(const void *b, size_t n)
{
	if (write(fd, b, n) != (ssize_t)n)
		die("write");
}

/*
 * One FPDU (RFC 5044 section 4): ULPDU_Length, the ULPDU, PAD to a
 * multiple of four, CRC32c over all of that, sent least significant octet
 * first as the field's complement. @crc_xor spoils it.
 */
static size_t frame(unsigned char *f, const unsigned char *ulpdu, size_t len,
		    uint32_t crc_xor)
{
	size_t n = 2 + len, pad = (4 - n % 4) % 4;
	uint32_t crc;

	put16(f, len);
	memcpy(f + 2, ulpdu, len);
	memset(f + n, 0, pad);
	n += pad;
	crc = ~crc32c(~0u, f, n) ^ crc_xor;
	f[n] = crc;
	f[n + 1] = crc >> 8;
	f[n + 2] = crc >> 16;
	f[n + 3] = crc >> 24;
	return n + 4;
}

static void send_ulpdu(const unsigned char *u, size_t len, uint32_t crc_xor)
{
	static unsigned char f[MAX_FPDU + 8];

	send_all(f, frame(f, u, len, crc_xor));
}

/* An untagged header, L set: @ctl0/@ctl1 override the control octets. */
static size_t untagged(unsigned char *u, int op, uint32_t qn, uint32_t m,
		       uint32_t mo)
{
	memset(u, 0, U_HDR);
	u[0] = DDP_L | DDP_DV;
	u[1] = RDMAP_RV | op;
	put32(u + 6, qn);
	put32(u + 10, m);
	put32(u + 14, mo);
	return U_HDR;
}

static size_t tagged(unsigned char *u, int op, uint32_t stag, uint64_t to)
{
	u[0] = DDP_T | DDP_L | DDP_DV;
	u[1] = RDMAP_RV | op;
	put32(u + 2, stag);
	put64(u + 6, to);
	return T_HDR;
}

static size_t send_msg(unsigned char *u, const void *data, size_t len)
{
	size_t h = untagged(u, OP_SEND, QN_SEND, msn[QN_SEND]++, 0);

	memcpy(u + h, data, len);
	return h + len;
}

static size_t rreq(unsigned char *u, uint32_t sink_stag, uint64_t sink_to,
		   uint32_t size, uint32_t src_stag, uint64_t src_to)
{
	size_t h = untagged(u, OP_RREQ, QN_RREQ, msn[QN_RREQ]++, 0);

	put32(u + h, sink_stag);
	put64(u + h + 4, sink_to);
	put32(u + h + 12, size);
	put32(u + h + 16, src_stag);
	put64(u + h + 20, src_to);
	return h + RREQ_HDR;
}

/* The next FPDU's ULPDU into @u: its length, or a negative end. */
static int recv_fpdu(unsigned char *u, int crc_on)
{
	unsigned char f[MAX_FPDU + 8];
	unsigned int len, n;
	uint32_t crc;
	int eof, ret;

	ret = read_full(f, 2, &eof);
	if (ret)
		return ret;
	len = get16(f);
	n = 2 + len;
	n += (4 - n % 4) % 4;
	ret = read_full(f + 2, n - 2 + 4, &eof);
	if (ret)
		return ret;
	crc = f[n] | f[n + 1] << 8 | f[n + 2] << 16 | (uint32_t)f[n + 3] << 24;
	if (crc_on && crc != ~crc32c(~0u, f, n)) {
		printf("peer: bad CRC from the RNIC\n");
		exit(3);
	}
	memcpy(u, f + 2, len);
	return len;
}

/* How the connection ended: EOF, reset or nothing. */
static void wait_end(void)
{
	unsigned char b[4096];
	int eof, ret;

	for (;;) {
		ret = read_full(b, 1, &eof);
		if (ret)
			break;
	}
	printf("peer: end %s\n", eof ? "eof" : ret == -ECONNRESET ? "reset" :
	       ret == -ETIMEDOUT ? "timeout" : strerror(-ret));
}

/*
 * Read FPDUs until a Terminate (printed), skipping Read Responses and
 * Sends; then how the connection ended. Returns 1 on a Terminate.
 */
static int expect_terminate(int crc_on)
{
	static unsigned char u[MAX_FPDU];
	int len, got = 0;

	for (;;) {
		len = recv_fpdu(u, crc_on);
		if (len < 0)
			break;
		if (len < 2 || (u[1] & 0x0f) != OP_TERMINATE || (u[0] & DDP_T))
			continue;
		if (len < U_HDR + 4) {
			printf("peer: short Terminate (%d octets)\n", len);
			continue;
		}
		printf("peer: terminate layer=%u etype=%u ecode=0x%02x qn=%u\n",
		       u[U_HDR] >> 4, u[U_HDR] & 0x0f, u[U_HDR + 1],
		       get32(u + 6));
		fflush(stdout);
		got = 1;
		break;
	}
	if (!got) {
		printf("peer: no terminate (%s)\n",
		       len == -ETIMEDOUT ? "timeout" : "connection ended");
		printf("peer: end %s\n", len == -ETIMEDOUT ? "timeout" : "eof");
		return 0;
	}
	wait_end();
	return 1;
}

static void mpa_exchange(int *crc_on)
{
	unsigned char f[64 + 512];
	unsigned int len;
	int eof;

	memset(f, 0, 24);
	memcpy(f, KEY_REQ, KEY_LEN);
	f[16] = F_CRC | F_ENHANCED;
	f[17] = 2;
	put16(f + 18, 4);
	put16(f + 20, 8);	/* our IRD, no P flag: no RTR */
	put16(f + 22, 8);	/* our ORD */
	send_all(f, 24);
	if (read_full(f, 20, &eof)) {
		printf("peer: no MPA reply\n");
		exit(3);
	}
	if (memcmp(f, KEY_REP, KEY_LEN)) {
		printf("peer: bad reply key\n");
		exit(3);
	}
	len = get16(f + 18);
	if (len > 512 || read_full(f + 20, len, &eof)) {
		printf("peer: bad reply\n");
		exit(3);
	}
	printf("peer: reply flags=0x%02x rev=%u pd_len=%u\n", f[16], f[17], len);
	if (f[16] & (F_REJECT | F_MARKERS)) {
		printf("peer: rejected or markers asked\n");
		exit(3);
	}
	*crc_on = 1;	/* we asked for CRCs: RFC 5044 7.1 */
	if ((f[16] & F_ENHANCED) && len >= 4) {
		peer_ird = get16(f + 20) & 0x3fff;
		printf("peer: ird=%u ord=%u p2p=%u\n", peer_ird,
		       get16(f + 22) & 0x3fff, f[20] >> 7);
		if (f[20] >> 7) {
			printf("peer: an RTR asked for, not wanted\n");
			exit(3);
		}
	}
}

static void take_adv(int crc_on)
{
	unsigned char u[MAX_FPDU];
	int len = recv_fpdu(u, crc_on);

	if (len != U_HDR + 16 || (u[1] & 0x0f) != OP_SEND) {
		printf("peer: no advertisement (%d)\n", len);
		exit(3);
	}
	adv_addr = get64(u + U_HDR);
	adv_stag = get32(u + U_HDR + 8);
	adv_len = get32(u + U_HDR + 12);
	printf("peer: adv addr=0x%llx stag=0x%08x len=%u\n",
	       (unsigned long long)adv_addr, adv_stag, adv_len);
	if (adv_len < 4096) {
		printf("peer: target too small\n");
		exit(3);
	}
}

static void fill(unsigned char *p, size_t n)
{
	while (n--)
		*p++ = rand_r(&seed);
}

int main(int argc, char **argv)
{
	static unsigned char u[MAX_FPDU], r[MAX_FPDU];
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *c;
	unsigned char my_adv[16];
	unsigned long long wbytes = 0, gap_at = 0;
	long long t0, t, last, gap = 0;
	int opt, crc_on = 0, one = 1, i, len;
	size_t n;

	if (argc < 4)
		goto usage;
	c = argv[3];
	optind = 4;
	while ((opt = getopt(argc, argv, "t:s:q:")) != -1) {
		if (opt == 't')
			timeout_s = atoi(optarg);
		else if (opt == 'q')
			quiet_s = atoi(optarg);
		else if (opt == 's')
			seed = atoi(optarg);
		else
			goto usage;
	}
	sa.sin_port = htons(atoi(argv[2]));
	if (inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1)
		goto usage;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (!strcmp(c, "ird") || !strcmp(c, "stall")) {
		int small = 4096;

		/* A small window: the RNIC's answers wait in its queue. */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect");
	printf("peer: connected\n");
	mpa_exchange(&crc_on);
	take_adv(crc_on);
	/* Ours: 1 MiB the RNIC may Write into; we place nothing. */
	put64(my_adv, 0x10000);
	put32(my_adv + 8, 0xdead00ab);
	put32(my_adv + 12, 1 << 20);
	send_ulpdu(u, send_msg(u, my_adv, 16), 0);
	fflush(stdout);

	if (!strcmp(c, "stall")) {
		/* Read nothing more; the script makes the RNIC send. */
		printf("peer: stalled\n");
		fflush(stdout);
		sleep(timeout_s);
		printf("peer: reading again\n");
		fflush(stdout);
		/*
		 * Everything queued comes, in order; once nothing came for 5 s
		 * we close.
		 */
		timeout_s = quiet_s;
		t0 = now_ms();
		last = t0;
		for (i = 0; (len = recv_fpdu(u, crc_on)) >= 0; i++) {
			t = now_ms();
			if (t - last > gap) {
				gap = t - last;
				gap_at = wbytes;
			}
			last = t;
			if ((u[0] & DDP_T) && (u[1] & 0x0f) == OP_WRITE)
				wbytes += len - T_HDR;
		}
		printf("peer: %d FPDUs after the stall, write bytes %llu\n", i,
		       wbytes);
		printf("peer: %lld ms from reading again to the last FPDU\n",
		       last - t0);
		printf("peer: longest gap %lld ms, after %llu write bytes\n",
		       gap, gap_at);
		printf("peer: end %s\n", len == -ETIMEDOUT ? "quiet, closing" : "eof");
		close(fd);
		return 0;
	}
	n = tagged(u, OP_WRITE, adv_stag, adv_addr);
	fill(u + n, 64);
	if (!strcmp(c, "good")) {
		/* RFC 5040 4.3/4.4: Write 64 octets, Read them back. */
		memcpy(r, u + n, 64);
		send_ulpdu(u, n + 64, 0);
		send_ulpdu(u, rreq(u, 0x5151, 0, 64, adv_stag, adv_addr), 0);
		len = recv_fpdu(u, crc_on);
		if (len != T_HDR + 64 || (u[1] & 0x0f) != OP_RRESP ||
		    get32(u + 2) != 0x5151 || memcmp(u + T_HDR, r, 64)) {
			printf("peer: good: bad Read Response (%d)\n", len);
			return 4;
		}
		printf("peer: good: the Write read back\n");
		shutdown(fd, SHUT_WR);
		wait_end();
		return 0;
	}
	if (!strcmp(c, "crc")) {
		send_ulpdu(u, n + 64, 0x1);
	} else if (!strcmp(c, "stag")) {
		put32(u + 2, adv_stag ^ 0x00ab0000);	/* another index */
		send_ulpdu(u, n + 64, 0);
	} else if (!strcmp(c, "bounds")) {
		put64(u + 6, adv_addr + adv_len - 32);	/* 32 octets past */
		send_ulpdu(u, n + 64, 0);
	} else if (!strcmp(c, "wrap")) {
		put64(u + 6, ~0ull - 31);		/* TO + 64 wraps */
		send_ulpdu(u, n + 64, 0);
	} else if (!strcmp(c, "qn")) {
		n = untagged(u, OP_SEND, 5, 1, 0);
		send_ulpdu(u, n + 16, 0);
	} else if (!strcmp(c, "msn")) {
		n = untagged(u, OP_SEND, QN_SEND, msn[QN_SEND] + 1000, 0);
		send_ulpdu(u, n + 16, 0);
	} else if (!strcmp(c, "mo")) {
		n = untagged(u, OP_SEND, QN_SEND, msn[QN_SEND], 8);
		send_ulpdu(u, n + 16, 0);
	} else if (!strcmp(c, "opcode")) {
		n = untagged(u, 12, QN_SEND, msn[QN_SEND], 0);
		send_ulpdu(u, n + 16, 0);
	} else if (!strcmp(c, "rdmap_version")) {
		n = send_msg(u, my_adv, 16);
		u[1] = 0x80 | OP_SEND;			/* RV 2 */
		send_ulpdu(u, n, 0);
	} else if (!strcmp(c, "ddp_version")) {
		n = send_msg(u, my_adv, 16);
		u[0] = DDP_L;				/* DV 0 */
		send_ulpdu(u, n, 0);
	} else if (!strcmp(c, "rreq_stag")) {
		send_ulpdu(u, rreq(u, 0x5151, 0, 64, adv_stag ^ 0x00ab0000,
				   adv_addr), 0);
	} else if (!strcmp(c, "ird")) {
		/*
		 * IRD + 1 Reads of the whole target in one write: the first
		 * answers fill our small window, the last is beyond IRD.
		 */
		static unsigned char all[(U_HDR + RREQ_HDR + 8) * 130];
		size_t off = 0;

		if (peer_ird > 128)
			peer_ird = 128;
		for (i = 0; i <= (int)peer_ird; i++)
			off += frame(all + off, r, rreq(r, 0x5151, 0, adv_len,
							adv_stag, adv_addr), 0);
		send_all(all, off);
	} else if (!strcmp(c, "random")) {
		/* Well-framed FPDUs with random headers and lengths. */
		for (i = 0; i < 200; i++) {
			n = 2 + rand_r(&seed) % 200;
			fill(u, n);
			u[0] = (u[0] & ~0x03) | DDP_DV;
			send_ulpdu(u, n, 0);
		}
	} else if (!strcmp(c, "garbage")) {
		fill(u, 4096);
		send_all(u, 4096);
	} else {
		goto usage;
	}
	fflush(stdout);
	expect_terminate(crc_on);
	return 0;
usage:
	fprintf(stderr, "usage: fpdu_peer ADDR PORT CASE [-t SECONDS] [-s SEED] [-q QUIET]\n");
	return 2;
}
