// SPDX-License-Identifier: GPL-2.0
/*
 * mpa_peer: an MPA endpoint on a plain Linux TCP socket, for madcm's VM
 * tests. Written from RFC 5044 section 7.1 and RFC 6581 section 3, not
 * from madcm's code: it is the peer nobody here wrote the CM for.
 *
 *   mpa_peer server PORT [opts]          accept one connection, answer it
 *   mpa_peer client ADDR PORT [opts]     connect, send a request
 *
 * opts: -r REV (1|2)  -i IRD  -o ORD  -p HEX (private data to send)
 *       -P (peer-to-peer, RTR zero-length write)  -j (reject)
 *       -c (close first after the exchange; default: wait for EOF)
 *       -H (after the EOF, send no FIN: hold the connection half-closed
 *       until the other end resets it, exit 0, or the timeout, exit 4)
 *       -6 (IPv6)  -D (IPv6: a Destination Options header, RFC 8200
 *       4.6, with one PadN option, in every segment we send)
 *       -t SECONDS (timeout, default 20)
 *       -x MODE (hostile: badkey, bigpd, rev3, stall, garbage; rst: a
 *       good request, then a RST a second later)
 *       -w MS (soft-iWARP's windows after the exchange, as siw 6.1 and
 *       6.12 open them: a client waits MS ms after the reply, then looks
 *       for octets behind it, which siw_recv_mpa_rr() refuses as "peer
 *       sent extra data": exit 0 when there are none, 5 when there are;
 *       a server reads nothing for MS ms after its reply, then waits
 *       edge-triggered for a segment, as siw_accept() hands the socket's
 *       sk_data_ready to its QP only after the reply, so that an FPDU
 *       that came in between waits unread: exit 0 when a segment comes
 *       within the timeout, 5 when none does)
 * Prints "peer: ..." lines the scripts grep, exits 0 when the exchange
 * went as asked.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define KEY_REQ "MPA ID Req Frame"
#define KEY_REP "MPA ID Rep Frame"
#define KEY_LEN 16
#define HDR_LEN 20	/* key, flags, revision, private data length */
#define F_MARKERS 0x80
#define F_CRC 0x40
#define F_REJECT 0x20
#define F_ENHANCED 0x10	/* RFC 6581: IRD/ORD words lead the private data */
#define MAX_PD 512

static int rev = 2, ird = 8, ord = 8, p2p, reject, close_first, v6, dstopts;
static int hold_half_closed;
static int peer_ird = -1, peer_ord = -1;	/* from the request we received */
static int timeout_s = 20;
static unsigned char pd[MAX_PD];
static int pd_len;
static const char *hostile;
static int window_ms = -1;

static void die(const char *what)
{
	printf("peer: error %s: %s\n", what, strerror(errno));
	exit(2);
}

static int read_full(int fd, void *buf, size_t len)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	while (got < len) {
		ssize_t n;

		if (poll(&p, 1, timeout_s * 1000) <= 0)
			return -ETIMEDOUT;
		n = read(fd, (char *)buf + got, len - got);
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			return -ECONNRESET;
		if (n < 0)
			return -errno;
		got += n;
	}
	return 0;
}

static void put16(unsigned char *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static unsigned int get16(const unsigned char *p)
{
	return p[0] << 8 | p[1];
}

static void hex(const char *tag, const unsigned char *p, int n)
{
	int i;

	printf("peer: %s=", tag);
	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* Build a frame: key, flags, rev, length, [IRD, ORD], private data. */
static int build(unsigned char *f, const char *key, int rej)
{
	int off = HDR_LEN, plen = pd_len;

	memcpy(f, key, KEY_LEN);
	f[16] = rej ? F_REJECT : 0;
	f[17] = rev;
	if (rev == 2) {
		/* IRD word: P flag (0x8000); ORD word: zero-length Write RTR. */
		f[16] |= F_ENHANCED;
		put16(f + 20, (p2p ? 0x8000 : 0) | (ird & 0x3fff));
		put16(f + 22, (p2p ? 0x8000 : 0) | (ord & 0x3fff));
		off += 4;
		plen += 4;
	}
	put16(f + 18, plen);
	memcpy(f + off, pd, pd_len);
	return off + pd_len;
}

/* Read a frame with @key; print what it holds. Returns its flags. */
static int receive(int fd, const char *key)
{
	unsigned char h[HDR_LEN], body[MAX_PD + 4];
	unsigned int len;
	int ret, off = 0;

	ret = read_full(fd, h, HDR_LEN);
	if (ret) {
		printf("peer: no frame (%s)\n", strerror(-ret));
		exit(3);
	}
	if (memcmp(h, key, KEY_LEN)) {
		printf("peer: bad key\n");
		exit(3);
	}
	len = get16(h + 18);
	printf("peer: frame key=%.4s flags=0x%02x rev=%u pd_len=%u\n",
	       (const char *)h + 7, h[16], h[17], len);
	if (len > MAX_PD || (h[16] & 0x0f)) {
		printf("peer: bad frame\n");
		exit(3);
	}
	if (read_full(fd, body, len)) {
		printf("peer: short private data\n");
		exit(3);
	}
	if (h[17] == 2 && (h[16] & F_ENHANCED)) {
		if (len < 4) {
			printf("peer: rev 2 without IRD/ORD\n");
			exit(3);
		}
		peer_ird = get16(body) & 0x3fff;
		peer_ord = get16(body + 2) & 0x3fff;
		printf("peer: ird=%u ord=%u p2p=%u rtr_send=%u rtr_write=%u rtr_read=%u\n",
		       get16(body) & 0x3fff, get16(body + 2) & 0x3fff,
		       body[0] >> 7, (body[0] >> 6) & 1, body[2] >> 7,
		       (body[2] >> 6) & 1);
		off = 4;
	}
	hex("pdata", body + off, len - off);
	return h[16];
}

/*
 * -H: the other end's FIN came (CLOSE-WAIT) and ours never goes, so the
 * other end waits in FIN-WAIT-2 (RFC 9293 3.6) until it gives up with a
 * RST, which closes this socket.
 */
static void hold_open(int fd)
{
	struct tcp_info ti;
	socklen_t len;
	int ms;

	for (ms = 0; ms < timeout_s * 1000; ms += 50) {
		len = sizeof(ti);
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
			die("TCP_INFO");
		if (ms == 0 && ti.tcpi_state != TCP_CLOSE_WAIT) {
			printf("peer: no FIN came (state %u)\n", ti.tcpi_state);
			exit(4);
		}
		if (ti.tcpi_state == TCP_CLOSE) {
			printf("peer: reset %d ms after eof, no FIN\n", ms);
			exit(0);
		}
		usleep(50000);
	}
	printf("peer: still half-closed %d s after eof\n", timeout_s);
	exit(4);
}

static void finish(int fd)
{
	char c;
	int ret;

	if (close_first) {
		shutdown(fd, SHUT_WR);
		printf("peer: sent FIN\n");
	}
	ret = read_full(fd, &c, 1);
	if (hold_half_closed && ret == -ECONNRESET) {
		printf("peer: eof\n");
		fflush(stdout);
		hold_open(fd);
	}
	printf("peer: %s\n", ret == -ECONNRESET ? "eof" :
	       ret == -ETIMEDOUT ? "timeout waiting for eof" : "data after exchange");
	close(fd);
	exit(ret == -ECONNRESET ? 0 : 4);
}

static void send_all(int fd, const void *b, size_t n)
{
	if (write(fd, b, n) != (ssize_t)n)
		die("write");
}

/* siw's initiator: octets behind the reply @window_ms ms after it. */
static void siw_client_window(int fd)
{
	char buf[256];
	ssize_t n;

	usleep(window_ms * 1000);
	n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_PEEK);
	if (n > 0) {
		printf("peer: %zd octets behind the reply after %d ms (siw: extra data)\n",
		       n, window_ms);
		exit(5);
	}
	printf("peer: nothing behind the reply after %d ms\n", window_ms);
	close(fd);
	exit(0);
}

/*
 * siw's responder: nothing is read for @window_ms ms after the reply,
 * and the wake-ups of what came meanwhile go to a callback that ignores
 * them; only a segment that comes after that wakes the reader. Here an
 * edge-triggered epoll registered before the window, whose edges of the
 * window are taken and dropped at its end.
 */
static void siw_server_window(int fd)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };
	char buf[4096];
	int ep, n;
	ssize_t got;

	ep = epoll_create1(0);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
		die("epoll");
	usleep(window_ms * 1000);
	while (epoll_wait(ep, &ev, 1, 0) > 0)
		;
	n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_PEEK);
	printf("peer: %d octets came in the first %d ms, unread\n",
	       n > 0 ? n : 0, window_ms);
	n = epoll_wait(ep, &ev, 1, timeout_s * 1000);
	if (n > 0) {
		got = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		printf("peer: woken by a segment after the window (%zd octets to read)\n",
		       got);
		close(fd);
		exit(0);
	}
	printf("peer: no segment after the window in %d s: stalled\n", timeout_s);
	exit(5);
}

/* Hostile clients: each misbehaves in one way and reports what it saw. */
static void hostile_client(int fd)
{
	unsigned char f[HDR_LEN + MAX_PD + 64];
	int n;

	memset(f, 0, sizeof(f));
	if (!strcmp(hostile, "badkey")) {
		n = build(f, "MPA ID Bad Frame", 0);
		send_all(fd, f, n);
	} else if (!strcmp(hostile, "bigpd")) {
		n = build(f, KEY_REQ, 0);
		put16(f + 18, MAX_PD + 1);
		send_all(fd, f, HDR_LEN + MAX_PD + 1);
	} else if (!strcmp(hostile, "rev3")) {
		n = build(f, KEY_REQ, 0);
		f[17] = 3;
		send_all(fd, f, n);
	} else if (!strcmp(hostile, "stall")) {
		n = build(f, KEY_REQ, 0);
		send_all(fd, f, 10);	/* half a header, then nothing */
	} else if (!strcmp(hostile, "garbage")) {
		memset(f, 'x', 100);
		send_all(fd, f, 100);
	} else if (!strcmp(hostile, "rst")) {
		/* A good request, unanswered for a second, then a RST. */
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };

		n = build(f, KEY_REQ, 0);
		send_all(fd, f, n);
		sleep(1);
		if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)))
			die("SO_LINGER");
		close(fd);
		printf("peer: hostile rst sent\n");
		exit(0);
	} else {
		printf("peer: unknown hostile mode\n");
		exit(2);
	}
	/*
	 * The CM must end the connection, by EOF or RST, before the timeout;
	 * it may send a reject frame first.
	 */
	for (n = 0;;) {
		int r = read_full(fd, f, 1);

		if (r) {
			printf("peer: hostile %s -> %s after %d bytes\n", hostile,
			       r == -ECONNRESET ? "closed" :
			       r == -ETIMEDOUT ? "timeout" : strerror(-r), n);
			exit(r == -ECONNRESET ? 0 : 4);
		}
		n++;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_storage ss = {};
	unsigned char f[HDR_LEN + MAX_PD + 4];
	int fd, opt, n, one = 1, server;
	socklen_t sl;

	if (argc < 3)
		goto usage;
	server = !strcmp(argv[1], "server");
	optind = server ? 3 : 4;
	while ((opt = getopt(argc, argv, "r:i:o:p:Pjc6Dt:x:w:H")) != -1) {
		switch (opt) {
		case 'r':
			rev = atoi(optarg);
			break;
		case 'i':
			ird = atoi(optarg);
			break;
		case 'o':
			ord = atoi(optarg);
			break;
		case 'P':
			p2p = 1;
			break;
		case 'j':
			reject = 1;
			break;
		case 'c':
			close_first = 1;
			break;
		case 'H':
			hold_half_closed = 1;
			break;
		case '6':
			v6 = 1;
			break;
		case 'D':
			dstopts = 1;
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		case 'x':
			hostile = optarg;
			break;
		case 'w':
			window_ms = atoi(optarg);
			break;
		case 'p':
			for (pd_len = 0; optarg[2 * pd_len] && pd_len < MAX_PD; pd_len++)
				if (sscanf(optarg + 2 * pd_len, "%2hhx", &pd[pd_len]) != 1)
					goto usage;
			break;
		default:
			goto usage;
		}
	}

	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (dstopts) {
		/* Next Header (the kernel's), Hdr Ext Len 0, PadN of 4 octets. */
		static const unsigned char dst[8] = { 0, 0, 1, 4 };

		if (setsockopt(fd, IPPROTO_IPV6, IPV6_DSTOPTS, dst, sizeof(dst)))
			die("IPV6_DSTOPTS");
	}
	if (v6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(atoi(argv[server ? 2 : 3]));
		if (!server && inet_pton(AF_INET6, argv[2], &s6->sin6_addr) != 1)
			goto usage;
		sl = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons(atoi(argv[server ? 2 : 3]));
		if (!server && inet_pton(AF_INET, argv[2], &s4->sin_addr) != 1)
			goto usage;
		sl = sizeof(*s4);
	}

	if (server) {
		struct pollfd p = { .events = POLLIN };
		int lfd = fd;

		if (bind(lfd, (struct sockaddr *)&ss, sl) || listen(lfd, 8))
			die("listen");
		printf("peer: listening\n");
		fflush(stdout);
		p.fd = lfd;
		if (poll(&p, 1, timeout_s * 1000) <= 0) {
			printf("peer: no connection\n");
			return 3;
		}
		fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			die("accept");
		close(lfd);
		printf("peer: accepted\n");
		receive(fd, KEY_REQ);
		/*
		 * RFC 6581: the responder's ORD may not exceed the initiator's
		 * IRD, and it reads no more than the initiator's ORD asks for.
		 */
		if (peer_ird >= 0 && ord > peer_ird)
			ord = peer_ird;
		if (peer_ord >= 0 && ird > peer_ord)
			ird = peer_ord;
		n = build(f, KEY_REP, reject);
		send_all(fd, f, n);
		printf("peer: sent %s\n", reject ? "reject" : "reply");
		fflush(stdout);
		if (window_ms >= 0 && !reject)
			siw_server_window(fd);
		finish(fd);
	}

	if (connect(fd, (struct sockaddr *)&ss, sl))
		die("connect");
	printf("peer: connected\n");
	if (hostile)
		hostile_client(fd);
	n = build(f, KEY_REQ, 0);
	send_all(fd, f, n);
	printf("peer: sent request\n");
	n = receive(fd, KEY_REP);
	printf("peer: %s\n", n & F_REJECT ? "rejected" : "accepted by responder");
	fflush(stdout);
	if (window_ms >= 0 && !(n & F_REJECT))
		siw_client_window(fd);
	finish(fd);
usage:
	fprintf(stderr, "usage: mpa_peer server PORT [opts] | client ADDR PORT [opts]\n");
	return 2;
}
