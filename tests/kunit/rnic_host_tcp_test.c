// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the hand-off of a stream to a socket of the host's TCP
 * (rnic/qp_sock.c, madcm_rnic_ks_repair()). Two sockets are repaired on
 * the loopback device into the two ends of one connection that "a CM"
 * set up: each end has sent bytes the other has not received, which is
 * what a hand-off leaves behind (an MPA request or reply, an RTR message,
 * not yet acknowledged). RFC 9293 3.10 (and 3.4, the sequence space) says
 * what must follow: the bytes each end sent from SND.UNA on reach the
 * other exactly once, in order, followed by whatever it sends next; and
 * the sequence numbers may wrap. A load that cannot be done unwinds and
 * leaves the port free. A TIME-WAIT the host keeps of the 4-tuple does
 * not stop a load.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <net/inet_hashtables.h>
#include <net/ip.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <net/tcp.h>
#include "madcm_compat_net.h"
#include "rnic/rnic.h"

/* The loopback device up: its addresses (127.0.0.1, ::1) come with it. */
static int ht_init(struct kunit *test)
{
	int ret = 0;

	rtnl_lock();
	if (!(init_net.loopback_dev->flags & IFF_UP))
		ret = dev_open(init_net.loopback_dev, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	return 0;
}

static void ht_addr(struct madcm_cm_addr *a, bool ipv4, u16 port)
{
	memset(a, 0, sizeof(*a));
	if (ipv4)
		ipv6_addr_set_v4mapped(htonl(INADDR_LOOPBACK), &a->ip);
	else
		a->ip = in6addr_loopback;
	a->port = port;
}

/*
 * One end: it sent @sent (from @snd_una on) that the other end has not
 * received, and has received everything the other end sent before
 * @rcv_nxt.
 */
static void ht_ctx(struct madcm_cm_tcp_ctx *c, bool ipv4, u16 lport,
		   u16 rport, u32 snd_una, u32 sent_len, u32 rcv_nxt)
{
	memset(c, 0, sizeof(*c));
	c->ipv4 = ipv4;
	c->vlan_id = MADCM_CM_NO_VLAN;
	ht_addr(&c->loc, ipv4, lport);
	ht_addr(&c->rem, ipv4, rport);
	c->snd_una = snd_una;
	c->snd_nxt = snd_una + sent_len;
	c->snd_wnd = 65535;
	c->max_snd_wnd = 65535;
	c->snd_wl1 = rcv_nxt;
	c->snd_wl2 = snd_una;
	c->rcv_nxt = rcv_nxt;
	c->rcv_wnd = 65535;
	c->snd_mss = 1460;
}

static int ht_setint(struct socket *sock, int opt, int val)
{
	return sock->ops->setsockopt(sock, SOL_TCP, opt, KERNEL_SOCKPTR(&val),
				     sizeof(val));
}

/* Read exactly @len bytes within 10 s (the first retransmission). */
static int ht_read(struct socket *sock, u8 *buf, size_t len)
{
	size_t got = 0;

	sock->sk->sk_rcvtimeo = 10 * HZ;
	while (got < len) {
		struct msghdr msg = {};
		struct kvec vec = { .iov_base = buf + got,
				    .iov_len = len - got };
		int n = kernel_recvmsg(sock, &msg, &vec, 1, vec.iov_len, 0);

		if (n <= 0)
			return n ? n : -ECONNRESET;
		got += n;
	}
	return got;
}

static int ht_write(struct socket *sock, const void *buf, size_t len)
{
	struct msghdr msg = {};
	struct kvec vec = { .iov_base = (void *)buf, .iov_len = len };

	return kernel_sendmsg(sock, &msg, &vec, 1, len);
}

static void ht_release(struct socket *sock)
{
	if (!sock)
		return;
	sock_no_linger(sock->sk);
	sock_release(sock);
}

/*
 * Both ends repaired with bytes in flight both ways; A's sequence
 * numbers wrap inside its bytes.
 */
static void ht_unacked_both_ways(struct kunit *test, bool ipv4, u16 pa,
				 u16 pb)
{
	static const u8 a_sent[] = "MPA request, 0123456789abcdef";
	static const u8 b_sent[] = "MPA reply+RTR";
	static const u8 a_next[] = "first FPDU";
	const u32 a_una = 0xfffffff0, b_una = 5000;
	struct madcm_cm_tcp_ctx ca, cb;
	struct madcm_rnic_ks_conn ka = {
		.tcp = &ca, .mss = 1460, .rcv_nxt = b_una,
		.unacked = a_sent, .unacked_len = sizeof(a_sent),
	};
	struct madcm_rnic_ks_conn kb = {
		.tcp = &cb, .mss = 1460, .rcv_nxt = a_una,
		.unacked = b_sent, .unacked_len = sizeof(b_sent),
	};
	struct socket *sa = NULL, *sb = NULL;
	u8 buf[64];

	ht_ctx(&ca, ipv4, pa, pb, a_una, sizeof(a_sent), b_una);
	ht_ctx(&cb, ipv4, pb, pa, b_una, sizeof(b_sent), a_una);
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &ka, &sa), 0);
	KUNIT_ASSERT_EQ_MSG(test, madcm_rnic_ks_repair(&init_net, &kb, &sb), 0,
			    "second end");
	/* hashed and ESTABLISHED before anything was sent */
	KUNIT_EXPECT_EQ(test, sa->sk->sk_state, TCP_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, sb->sk->sk_state, TCP_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ht_setint(sa, TCP_REPAIR, TCP_REPAIR_OFF), 0);
	KUNIT_EXPECT_EQ(test, ht_setint(sb, TCP_REPAIR, TCP_REPAIR_OFF), 0);

	/* what each end had in flight reaches the other, once, in order */
	KUNIT_ASSERT_EQ(test, ht_read(sb, buf, sizeof(a_sent)),
			(int)sizeof(a_sent));
	KUNIT_EXPECT_EQ(test, memcmp(buf, a_sent, sizeof(a_sent)), 0);
	KUNIT_ASSERT_EQ(test, ht_read(sa, buf, sizeof(b_sent)),
			(int)sizeof(b_sent));
	KUNIT_EXPECT_EQ(test, memcmp(buf, b_sent, sizeof(b_sent)), 0);
	/* and the stream goes on right after them */
	KUNIT_ASSERT_EQ(test, ht_write(sa, a_next, sizeof(a_next)),
			(int)sizeof(a_next));
	KUNIT_ASSERT_EQ(test, ht_read(sb, buf, sizeof(a_next)),
			(int)sizeof(a_next));
	KUNIT_EXPECT_EQ(test, memcmp(buf, a_next, sizeof(a_next)), 0);
	/* B took A's bytes across the wrap: RCV.NXT = ISS + all of them */
	KUNIT_EXPECT_EQ(test, READ_ONCE(tcp_sk(sb->sk)->rcv_nxt),
			a_una + (u32)sizeof(a_sent) + (u32)sizeof(a_next));
	ht_release(sa);
	ht_release(sb);
}

static void ht_unacked_ipv4(struct kunit *test)
{
	ht_unacked_both_ways(test, true, 41001, 41002);
}

static void ht_unacked_ipv6(struct kunit *test)
{
	ht_unacked_both_ways(test, false, 41003, 41004);
}

/*
 * Both SYNs carried SACK-permitted and timestamps: the repaired sockets
 * use them (RFC 2018, RFC 7323), and each end's timestamp clock is its
 * CM's, the monotonic milliseconds plus the context's offset (RFC 7323
 * 5.3: the peer's PAWS drops any segment whose TSval is older than the
 * last one it took, which the CM sent). So the TSval B took from A lies
 * at or after what A's CM clock read before the hand-off (the last TSval
 * A's CM could have sent), within the seconds the test takes. Not "before
 * A sent": the socket's clock is set from a reading of the milliseconds
 * and the kernel takes its own a moment later, so when a millisecond
 * ends between the two, the socket's TSvals run one behind a reading
 * taken after the hand-off, while never below the CM's last (RFC 7323
 * 5.4: TSvals do not go back).
 */
static void ht_ts_and_sack(struct kunit *test)
{
	static const u8 msg[] = "FPDU after the hand-off";
	const u32 a_off = 0x12345678, b_off = 0xfffff000;
	struct madcm_cm_tcp_ctx ca, cb;
	struct madcm_rnic_ks_conn ka = { .tcp = &ca, .mss = 1460 };
	struct madcm_rnic_ks_conn kb = { .tcp = &cb, .mss = 1460 };
	struct socket *sa = NULL, *sb = NULL;
	u8 buf[64];
	u32 t0;
	s32 d;

	t0 = (u32)div_u64(ktime_get_ns(), NSEC_PER_MSEC);
	ht_ctx(&ca, true, 41007, 41008, 7000, 0, 9000);
	ht_ctx(&cb, true, 41008, 41007, 9000, 0, 7000);
	ka.rcv_nxt = 9000;
	kb.rcv_nxt = 7000;
	ca.ts = true;
	ca.sack = true;
	ca.ts_off = a_off;
	cb.ts = true;
	cb.sack = true;
	cb.ts_off = b_off;
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &ka, &sa), 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &kb, &sb), 0);
	KUNIT_EXPECT_EQ(test, ht_setint(sa, TCP_REPAIR, TCP_REPAIR_OFF), 0);
	KUNIT_EXPECT_EQ(test, ht_setint(sb, TCP_REPAIR, TCP_REPAIR_OFF), 0);
	KUNIT_EXPECT_TRUE(test, tcp_sk(sa->sk)->rx_opt.tstamp_ok);
	KUNIT_EXPECT_TRUE(test, tcp_sk(sa->sk)->rx_opt.sack_ok);
	KUNIT_EXPECT_TRUE(test, tcp_sk(sb->sk)->rx_opt.tstamp_ok);

	KUNIT_ASSERT_EQ(test, ht_write(sa, msg, sizeof(msg)), (int)sizeof(msg));
	KUNIT_ASSERT_EQ(test, ht_read(sb, buf, sizeof(msg)), (int)sizeof(msg));
	KUNIT_EXPECT_EQ(test, memcmp(buf, msg, sizeof(msg)), 0);
	d = (s32)(READ_ONCE(tcp_sk(sb->sk)->rx_opt.ts_recent) - (t0 + a_off));
	KUNIT_EXPECT_GE(test, d, 0);
	KUNIT_EXPECT_LT(test, d, 60 * MSEC_PER_SEC);
	/* and B's clock, whose offset wraps its 32 bits */
	KUNIT_ASSERT_EQ(test, ht_write(sb, msg, sizeof(msg)), (int)sizeof(msg));
	KUNIT_ASSERT_EQ(test, ht_read(sa, buf, sizeof(msg)), (int)sizeof(msg));
	d = (s32)(READ_ONCE(tcp_sk(sa->sk)->rx_opt.ts_recent) - (t0 + b_off));
	KUNIT_EXPECT_GE(test, d, 0);
	KUNIT_EXPECT_LT(test, d, 60 * MSEC_PER_SEC);
	ht_release(sa);
	ht_release(sb);
}

/*
 * A context the host's TCP refuses (RFC 9293 3.10.7.4: the window the
 * peer last sent was in a segment at or before RCV.NXT; here SND.WL1 lies
 * beyond RCV.NXT + RCV.WND) fails the load with no socket left: the same
 * port loads at once with a sound context.
 */
static void ht_bad_context_unwinds(struct kunit *test)
{
	struct madcm_cm_tcp_ctx c;
	struct madcm_rnic_ks_conn k = { .tcp = &c, .mss = 1460 };
	struct socket *sock = (struct socket *)1;

	ht_ctx(&c, true, 41005, 41006, 100, 0, 200);
	c.snd_wl1 = 200 + 65535 + 1;
	k.rcv_nxt = 200;
	KUNIT_EXPECT_EQ(test, madcm_rnic_ks_repair(&init_net, &k, &sock),
			-EINVAL);
	KUNIT_EXPECT_NULL(test, sock);

	c.snd_wl1 = 200;
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &k, &sock), 0);
	KUNIT_EXPECT_EQ(test, sock->sk->sk_state, TCP_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, READ_ONCE(tcp_sk(sock->sk)->rcv_nxt), 200U);
	KUNIT_EXPECT_EQ(test, READ_ONCE(tcp_sk(sock->sk)->snd_nxt), 100U);
	/* still in repair mode: released without a word to the peer */
	sock_release(sock);
}

static struct socket *ht_sock(struct kunit *test, u16 port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
		.sin_port = htons(port),
	};
	struct socket *sock;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM,
					       IPPROTO_TCP, &sock), 0);
	KUNIT_ASSERT_EQ(test, kernel_bind(sock, (struct sockaddr *)&sin,
					  sizeof(sin)), 0);
	return sock;
}

/*
 * B's CM received bytes it left to the QP without acknowledging them (a
 * peer-to-peer responder's RTR, RFC 6581): B's RCV.NXT lies beyond its
 * context's. A is a peer that sends nothing when B takes up the stream
 * (a socket that never was in repair, as siw's). B's window probe lies
 * below A's window, and A drops it unread (RFC 9293 3.10.7.4); what tells
 * A of its bytes must be an acceptable segment from B, at once, not A's
 * own retransmission at its first timeout (1 s, RFC 6298 2.1): A's
 * SND.UNA moves past them with nothing retransmitted.
 */
static void ht_rcvd_bytes_acked(struct kunit *test)
{
	static const u8 rtr[] = "RTR FPDU";
	const u32 a_una = 20000, b_una = 30000;
	struct madcm_cm_tcp_ctx ca, cb;
	struct madcm_rnic_ks_conn ka = {
		.tcp = &ca, .mss = 1460, .rcv_nxt = b_una,
		.unacked = rtr, .unacked_len = sizeof(rtr),
	};
	struct madcm_rnic_ks_conn kb = {
		.tcp = &cb, .mss = 1460, .rcv_nxt = a_una + sizeof(rtr),
	};
	struct socket *sa = NULL, *sb = NULL;
	u32 una, retrans;
	int i;

	ht_ctx(&ca, true, 41032, 41033, a_una, sizeof(rtr), b_una);
	/* B's CM acknowledged up to the RTR, not past it */
	ht_ctx(&cb, true, 41033, 41032, b_una, 0, a_una);
	/* B first: A's retransmission timer runs from A's load on */
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &kb, &sb), 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &ka, &sa), 0);
	KUNIT_EXPECT_EQ(test, ht_setint(sa, TCP_REPAIR, TCP_REPAIR_OFF_NO_WP),
			0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_ks_start(sb, &kb), 0);
	for (i = 0; i < 250; i++) {
		una = READ_ONCE(tcp_sk(sa->sk)->snd_una);
		if (una == a_una + sizeof(rtr))
			break;
		msleep(20);
	}
	retrans = READ_ONCE(tcp_sk(sa->sk)->total_retrans);
	KUNIT_EXPECT_EQ(test, una, a_una + (u32)sizeof(rtr));
	KUNIT_EXPECT_EQ_MSG(test, retrans, 0U,
			    "A learned of its bytes by retransmitting them");
	ht_release(sa);
	ht_release(sb);
}

/*
 * MSSes a CM connection may carry and the host's TCP_MAXSEG does not
 * take (TCP_MIN_MSS 88 to MAX_TCP_WINDOW 32,767). Over the range, from a
 * link whose MTU is over 32 KiB (the loopback's is 65,536): the stream
 * loads, and its segments stay within the MSS the peer announced (RFC
 * 9293 3.7.1): 48 KiB cross in order. Under it (the CM takes a peer's
 * from 64 on): refused before any socket is made; the port stays free.
 */
static void ht_mss_outside_maxseg(struct kunit *test)
{
	const u32 len = 48 * 1024, mss = 40000;
	struct madcm_cm_tcp_ctx ca, cb;
	struct madcm_rnic_ks_conn ka = { .tcp = &ca, .mss = mss,
					 .rcv_nxt = 3000 };
	struct madcm_rnic_ks_conn kb = { .tcp = &cb, .mss = mss,
					 .rcv_nxt = 1000 };
	struct socket *sa = NULL, *sb = NULL, *sock = (struct socket *)1;
	u8 *out, *in;
	u32 i, seg;

	out = kunit_kmalloc(test, len, GFP_KERNEL);
	in = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, in);
	for (i = 0; i < len; i++)
		out[i] = i * 7 + (i >> 8);
	ht_ctx(&ca, true, 41034, 41035, 1000, 0, 3000);
	ht_ctx(&cb, true, 41035, 41034, 3000, 0, 1000);
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &ka, &sa), 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &kb, &sb), 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_ks_start(sa, &ka), 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_ks_start(sb, &kb), 0);
	KUNIT_ASSERT_EQ(test, ht_write(sa, out, len), (int)len);
	KUNIT_ASSERT_EQ(test, ht_read(sb, in, len), (int)len);
	KUNIT_EXPECT_EQ(test, memcmp(in, out, len), 0);
	seg = READ_ONCE(tcp_sk(sa->sk)->mss_cache);
	KUNIT_EXPECT_GT(test, seg, 0U);
	KUNIT_EXPECT_LE(test, seg, mss);
	ht_release(sa);
	ht_release(sb);

	ht_ctx(&ca, true, 41036, 41037, 1000, 0, 3000);
	ka.mss = TCP_MIN_MSS - 8;
	KUNIT_EXPECT_EQ(test, madcm_rnic_ks_repair(&init_net, &ka, &sock),
			-EINVAL);
	KUNIT_EXPECT_NULL(test, sock);
	sock_release(ht_sock(test, 41036));
}

/*
 * A plain loopback connection of the host's TCP: a listener on @rport
 * (*@l), a client from @lport (*@c) and the listener's accepted end (*@a).
 */
static void ht_loop_conn(struct kunit *test, u16 lport, u16 rport,
			 struct socket **l, struct socket **c, struct socket **a)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
		.sin_port = htons(rport),
	};

	*a = NULL;
	*l = ht_sock(test, rport);
	KUNIT_ASSERT_EQ(test, kernel_listen(*l, 1), 0);
	*c = ht_sock(test, lport);
	KUNIT_ASSERT_EQ(test, kernel_connect(*c, (struct sockaddr *)&sin,
					     sizeof(sin), 0), 0);
	KUNIT_ASSERT_EQ(test, kernel_accept(*l, a, 0), 0);
}

/*
 * @rounds exchanges of one 84-octet message (the FPDU of a 64-octet Send)
 * each way, one at a time; how many of the segments the host's TCP took
 * on its fast path (header prediction: TcpExt TCPHPHits) meanwhile.
 */
static unsigned long ht_ping_pong(struct kunit *test, struct socket *a,
				  struct socket *b, int rounds)
{
	unsigned long hits;
	u8 msg[84], buf[84];
	int i;

	memset(msg, 0x5a, sizeof(msg));
	hits = snmp_fold_field(init_net.mib.net_statistics, LINUX_MIB_TCPHPHITS);
	for (i = 0; i < rounds; i++) {
		KUNIT_ASSERT_EQ(test, ht_write(a, msg, sizeof(msg)),
				(int)sizeof(msg));
		KUNIT_ASSERT_EQ(test, ht_read(b, buf, sizeof(msg)),
				(int)sizeof(msg));
		KUNIT_ASSERT_EQ(test, ht_write(b, msg, sizeof(msg)),
				(int)sizeof(msg));
		KUNIT_ASSERT_EQ(test, ht_read(a, buf, sizeof(msg)),
				(int)sizeof(msg));
	}
	return snmp_fold_field(init_net.mib.net_statistics,
			       LINUX_MIB_TCPHPHITS) - hits;
}

/*
 * After the hand-off the socket's receive side is in the state of a
 * connection the host made itself: a context whose RCV.WND is what the
 * CM offered (one MPA frame, 532 octets, window shift 2, timestamps, as
 * the CM's SYNs negotiate) loads, and the socket opens its own window
 * from there. So small messages one at a time take TCP's fast path as
 * often as on a plain loopback connection of the host's in the same run
 * (the reference), short of the first few segments. A window loaded
 * larger than the socket's own (the 256 KiB the CM's contexts carried)
 * would shrink by each segment's length at every window the socket sent
 * until the two met, and each change of the window field misses the
 * prediction.
 */
static void ht_small_window_takes_the_fast_path(struct kunit *test)
{
	const int rounds = 100;
	struct madcm_cm_tcp_ctx ca, cb;
	struct madcm_rnic_ks_conn ka = { .tcp = &ca, .mss = 1460,
					 .snd_wscale = 2, .rcv_wscale = 2,
					 .rcv_nxt = 9000 };
	struct madcm_rnic_ks_conn kb = { .tcp = &cb, .mss = 1460,
					 .snd_wscale = 2, .rcv_wscale = 2,
					 .rcv_nxt = 7000 };
	struct socket *sa = NULL, *sb = NULL, *l, *c, *a;
	unsigned long plain, repaired;

	ht_loop_conn(test, 41041, 41040, &l, &c, &a);
	plain = ht_ping_pong(test, c, a, rounds);
	ht_release(c);
	ht_release(a);
	sock_release(l);

	ht_ctx(&ca, true, 41038, 41039, 7000, 0, 9000);
	ht_ctx(&cb, true, 41039, 41038, 9000, 0, 7000);
	ca.ts = true;
	cb.ts = true;
	ca.sack = true;
	cb.sack = true;
	ca.rcv_wnd = 532;
	cb.rcv_wnd = 532;
	ca.snd_wnd = 532;
	cb.snd_wnd = 532;
	ca.max_snd_wnd = 532;
	cb.max_snd_wnd = 532;
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &ka, &sa), 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &kb, &sb), 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_ks_start(sa, &ka), 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_ks_start(sb, &kb), 0);
	repaired = ht_ping_pong(test, sa, sb, rounds);
	ht_release(sa);
	ht_release(sb);

	kunit_info(test, "fast path: plain %lu, repaired %lu of %d segments",
		   plain, repaired, 2 * rounds);
	KUNIT_EXPECT_GE(test, plain, (unsigned long)rounds);
	KUNIT_EXPECT_GE(test, repaired + 4, plain);
}

/*
 * Once TCP has room again, the stream's write_space takes SOCK_NOSPACE off
 * the socket, as the socket's own write_space does (net/core/stream.c,
 * sk_stream_write_space()). TCP sets the bit when a write finds the send
 * buffer full; while it stays set, TCP calls write_space at every ACK
 * (tcp_check_space()), keeps an application-limited congestion window
 * from shrinking (RFC 2861 section 3) and counts the time as limited by
 * the send buffer (tcpi_sndbuf_limited).
 */
static void ht_write_space_clears_nospace(struct kunit *test)
{
	const size_t chunk = 64 * 1024;
	struct madcm_cm_tcp_ctx ca, cb;
	struct madcm_rnic_ks_conn ka = { .tcp = &ca, .mss = 1460,
					 .rcv_nxt = 9000 };
	struct madcm_rnic_ks_conn kb = { .tcp = &cb, .mss = 1460,
					 .rcv_nxt = 7000 };
	struct socket *sa = NULL, *sb = NULL;
	struct madcm_rnic_stream *t;
	size_t sent = 0, got = 0;
	unsigned long end;
	bool nospace;
	int n = 0, i;
	u8 *buf;

	buf = kunit_kzalloc(test, chunk, GFP_KERNEL);
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, t);
	madcm_rnic_ks_init(t);
	/* no QP behind it: its work, should a state change kick it, stops */
	set_bit(MADCM_RNIC_KS_DETACHED, &t->ks.flags);

	ht_ctx(&ca, true, 41042, 41043, 7000, 0, 9000);
	ht_ctx(&cb, true, 41043, 41042, 9000, 0, 7000);
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &ka, &sa), 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &kb, &sb), 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_ks_start(sa, &ka), 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_ks_start(sb, &kb), 0);
	madcm_rnic_ks_install(t, sa->sk);

	/* B reads nothing: A's writes fill B's window, then A's buffer */
	for (i = 0; i < 1024; i++) {
		struct msghdr msg = { .msg_flags = MSG_DONTWAIT };
		struct kvec vec = { .iov_base = buf, .iov_len = chunk };

		n = kernel_sendmsg(sa, &msg, &vec, 1, chunk);
		if (n <= 0)
			break;
		sent += n;
	}
	KUNIT_EXPECT_EQ(test, n, -EAGAIN);
	KUNIT_EXPECT_GT(test, sent, (size_t)0);
	/* TCP's own part: a write that found no room */
	nospace = test_bit(SOCK_NOSPACE, &sa->flags);
	KUNIT_EXPECT_TRUE(test, nospace);

	/* B reads it all; A's queue drains as B's ACKs come */
	while (got < sent) {
		n = ht_read(sb, buf, min(chunk, sent - got));
		if (n <= 0)
			break;
		got += n;
	}
	KUNIT_EXPECT_EQ(test, got, sent);
	end = jiffies + 10 * HZ;
	while (READ_ONCE(tcp_sk(sa->sk)->snd_una) !=
	       READ_ONCE(tcp_sk(sa->sk)->write_seq) && time_before(jiffies, end))
		msleep(20);
	KUNIT_EXPECT_EQ(test, READ_ONCE(tcp_sk(sa->sk)->snd_una),
			READ_ONCE(tcp_sk(sa->sk)->write_seq));
	KUNIT_EXPECT_TRUE(test, sk_stream_is_writeable(sa->sk));
	nospace = test_bit(SOCK_NOSPACE, &sa->flags);
	KUNIT_EXPECT_FALSE(test, nospace);

	madcm_rnic_ks_uninstall(t, sa->sk);
	cancel_work_sync(&t->ks.work);
	ht_release(sa);
	ht_release(sb);
}

/* The state of the host's socket for 127.0.0.1:@lport - 127.0.0.1:@rport. */
static int ht_tuple_state(u16 lport, u16 rport)
{
	struct inet_hashinfo *h = init_net.ipv4.tcp_death_row.hashinfo;
	struct sock *sk;
	int state;

	rcu_read_lock();
	sk = __inet_lookup_established(&init_net, h, htonl(INADDR_LOOPBACK),
				       htons(rport), htonl(INADDR_LOOPBACK),
				       lport, 0, 0);
	rcu_read_unlock();
	if (!sk)
		return -1;
	state = sk->sk_state;
	sock_gen_put(sk);
	return state;
}

/*
 * The host keeps a TIME-WAIT of the 4-tuple (a connection closed from
 * this side a moment ago, no timestamps: the host's connect would refuse
 * it, tcp_twsk_unique()). A CM connection set up again on that 4-tuple
 * (RFC 9293 3.4.1 lets it: the CM checked its ISS) is loaded all the
 * same, and the TIME-WAIT is gone.
 */
static void ht_time_wait_taken(struct kunit *test)
{
	const u16 lport = 41011, rport = 41010;
	u8 ts = READ_ONCE(init_net.ipv4.sysctl_tcp_timestamps);
	struct socket *l, *c, *a, *sock;
	struct madcm_cm_tcp_ctx ctx;
	struct madcm_rnic_ks_conn k = { .tcp = &ctx, .mss = 1460 };
	int i;

	WRITE_ONCE(init_net.ipv4.sysctl_tcp_timestamps, 0);
	ht_loop_conn(test, lport, rport, &l, &c, &a);
	/* our side closes first: its end goes to TIME-WAIT */
	sock_release(c);
	for (i = 0; i < 50 && ht_tuple_state(lport, rport) != TCP_FIN_WAIT2; i++)
		msleep(20);
	sock_release(a);
	sock_release(l);
	for (i = 0; i < 50 && ht_tuple_state(lport, rport) != TCP_TIME_WAIT; i++)
		msleep(20);
	WRITE_ONCE(init_net.ipv4.sysctl_tcp_timestamps, ts);
	KUNIT_ASSERT_EQ(test, ht_tuple_state(lport, rport), TCP_TIME_WAIT);

	ht_ctx(&ctx, true, lport, rport, 7000, 0, 9000);
	k.rcv_nxt = 9000;
	KUNIT_ASSERT_EQ(test, madcm_rnic_ks_repair(&init_net, &k, &sock), 0);
	KUNIT_EXPECT_EQ(test, ht_tuple_state(lport, rport), TCP_ESTABLISHED);
	sock_release(sock);
}

/*
 * madcm_sock_send_pages() (madcm_compat_net.h, the RNIC's transmit of FPDUs
 * built in pages) hands TCP the pages themselves, not a copy: three
 * pieces of one page, apart from each other, sent over a loopback
 * connection; the receiver's queue then holds skbs that point into that
 * page, so bytes changed in the page after the send (before the read)
 * are the bytes read. A copy (kernel_sendmsg()) would read the bytes of
 * the send. The pieces arrive whole and in order.
 */
static void ht_send_pages_by_reference(struct kunit *test)
{
	static const struct { u32 off, len; } piece[] = {
		{ 0, 500 }, { 1000, 1448 }, { 3000, 200 },
	};
	const u16 lport = 41021, rport = 41020;
	struct bio_vec bv[ARRAY_SIZE(piece)];
	struct socket *l, *c, *a;
	u32 total = 0, i, at;
	struct page *page;
	u8 *va, *buf;
	int ret;

	page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	va = page_address(page);
	memset(va, 0xa5, PAGE_SIZE);
	for (i = 0; i < ARRAY_SIZE(piece); i++) {
		bv[i].bv_page = page;
		bv[i].bv_offset = piece[i].off;
		bv[i].bv_len = piece[i].len;
		total += piece[i].len;
	}

	ht_loop_conn(test, lport, rport, &l, &c, &a);

	ret = madcm_sock_send_pages(c, bv, ARRAY_SIZE(bv), total,
				    MSG_DONTWAIT);
	KUNIT_EXPECT_EQ(test, ret, (int)total);
	/* everything in the receiver's queue, not yet read */
	for (i = 0; i < 100 && tcp_inq(a->sk) < total; i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, tcp_inq(a->sk), (int)total);
	/* the sender's page changes now: the queued skbs point into it */
	memset(va, 0x3c, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ht_read(a, buf, total), (int)total);
	for (at = 0; at < total; at++)
		if (buf[at] != 0x3c)
			break;
	KUNIT_EXPECT_EQ_MSG(test, at, total,
			    "octet %u was read as sent (0x%02x): TCP copied the page",
			    at, at < total ? buf[at] : 0);

	sock_release(a);
	sock_release(c);
	sock_release(l);
	/* the skbs go with the sockets: ours is then the last reference */
	for (i = 0; i < 100 && page_count(page) != 1; i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, page_count(page), 1);
	__free_page(page);
}

struct ht_ticket {
	struct ubuf_info ubuf;
	atomic_t done;
};

static void ht_ticket_complete(struct sk_buff *skb, struct ubuf_info *ubuf,
			       bool zerocopy_success)
{
	if (refcount_dec_and_test(&ubuf->refcnt))
		atomic_set(&container_of(ubuf, struct ht_ticket, ubuf)->done, 1);
}

#ifdef MADCM_HAVE_UBUF_INFO_OPS
static const struct ubuf_info_ops ht_ticket_ops = {
	.complete = ht_ticket_complete,
};
#endif

/*
 * madcm_sock_send_zc() (the RNIC's zero-copy transmit from an MR's pages,
 * rnic/zc.h) hands TCP the pages with a ticket that TCP lets go only
 * once no skb holds them: not while the bytes wait in the send queue
 * (here behind 64 KiB the receiver's closed window holds back), only
 * after the receiver took them and acknowledged them (RFC 9293 3.8.6: a
 * window that opens lets the queued bytes go). The bytes arrive as the
 * page held them, after the ones queued before.
 */
static void ht_send_zc_ticket_waits_for_the_ack(struct kunit *test)
{
	const u16 lport = 41031, rport = 41030;
	const u32 fill = 64 * 1024, zlen = 3000, zoff = 700;
	struct ht_ticket *tk;
	struct socket *l, *c, *a;
	struct bio_vec bv;
	struct page *page;
	u8 *buf, *fillbuf;
	u32 i;
	int ret;

	tk = kunit_kzalloc(test, sizeof(*tk), GFP_KERNEL);
	buf = kunit_kzalloc(test, fill + zlen, GFP_KERNEL);
	fillbuf = kunit_kzalloc(test, fill, GFP_KERNEL);
	page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tk);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, fillbuf);
	KUNIT_ASSERT_NOT_NULL(test, page);
	memset(page_address(page), 0x5a, PAGE_SIZE);
	memset(fillbuf, 0xc3, fill);
#ifdef MADCM_HAVE_UBUF_INFO_OPS
	tk->ubuf.ops = &ht_ticket_ops;
#else
	tk->ubuf.callback = ht_ticket_complete;
#endif
	tk->ubuf.flags = SKBFL_ZEROCOPY_FRAG | SKBFL_DONT_ORPHAN;
	refcount_set(&tk->ubuf.refcnt, 1);

	ht_loop_conn(test, lport, rport, &l, &c, &a);
	/* a receive window of a few KiB, a send buffer for all of it */
	lock_sock(a->sk);
	WRITE_ONCE(a->sk->sk_rcvbuf, SOCK_MIN_RCVBUF);
	a->sk->sk_userlocks |= SOCK_RCVBUF_LOCK;
	release_sock(a->sk);
	lock_sock(c->sk);
	WRITE_ONCE(c->sk->sk_sndbuf, 4 << 20);
	c->sk->sk_userlocks |= SOCK_SNDBUF_LOCK;
	release_sock(c->sk);

	KUNIT_ASSERT_EQ(test, ht_write(c, fillbuf, fill), (int)fill);
	bv.bv_page = page;
	bv.bv_offset = zoff;
	bv.bv_len = zlen;
	ret = madcm_sock_send_zc(c, &bv, 1, zlen, MSG_DONTWAIT, &tk->ubuf);
	KUNIT_EXPECT_EQ(test, ret, (int)zlen);
	/* ours: the send queue's skbs hold the page, and the ticket */
	ht_ticket_complete(NULL, &tk->ubuf, true);
	msleep(200);
	KUNIT_EXPECT_EQ(test, atomic_read(&tk->done), 0);
	KUNIT_EXPECT_GT(test, page_count(page), 1);

	KUNIT_EXPECT_EQ(test, ht_read(a, buf, fill + zlen), (int)(fill + zlen));
	KUNIT_EXPECT_EQ(test, memcmp(buf, fillbuf, fill), 0);
	for (i = 0; i < zlen; i++)
		if (buf[fill + i] != 0x5a)
			break;
	KUNIT_EXPECT_EQ(test, i, zlen);
	for (i = 0; i < 250 && !atomic_read(&tk->done); i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&tk->done), 1);
	for (i = 0; i < 100 && page_count(page) != 1; i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, page_count(page), 1);

	sock_release(a);
	sock_release(c);
	sock_release(l);
	for (i = 0; i < 100 && page_count(page) != 1; i++)
		msleep(20);
	__free_page(page);
}

static struct kunit_case ht_cases[] = {
	KUNIT_CASE(ht_unacked_ipv4),
	KUNIT_CASE(ht_unacked_ipv6),
	KUNIT_CASE(ht_ts_and_sack),
	KUNIT_CASE(ht_bad_context_unwinds),
	KUNIT_CASE(ht_rcvd_bytes_acked),
	KUNIT_CASE(ht_mss_outside_maxseg),
	KUNIT_CASE(ht_small_window_takes_the_fast_path),
	KUNIT_CASE(ht_write_space_clears_nospace),
	KUNIT_CASE(ht_time_wait_taken),
	KUNIT_CASE(ht_send_pages_by_reference),
	KUNIT_CASE(ht_send_zc_ticket_waits_for_the_ack),
	{}
};

static struct kunit_suite ht_suite = {
	.name = "madcm_rnic_host_tcp",
	.init = ht_init,
	.test_cases = ht_cases,
};

kunit_test_suite(ht_suite);
