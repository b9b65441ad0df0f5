// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the QP's side of the offload boundary (rnic/qp_tcp.c).
 *
 * Each case hands a TCP context to a QP through its offload ops, plays
 * the peer by feeding it frames built here, and reads what the QP sends
 * and reports through an output table of the test's own (the CM's
 * madcm_cm_offload_xmit() and madcm_cm_offload_event() need a CM core).
 * The expected numbers come from RFC 9293 (3.10.7.4: acceptability, ACK,
 * FIN; 3.6: closing), RFC 5961 (3.2 RST, 4.2 SYN: challenge ACKs) and RFC
 * 6298 (5.5: backoff), worked out by hand for the context below.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "irdma_cm/tcp_seg.h"
#include "rnic/rnic.h"

/* The QP's end and the peer's: 192.0.2.1:5000 <-> 192.0.2.2:40000. */
#define LOC_IP		0xc0000201
#define REM_IP		0xc0000202
#define LOC_PORT	5000
#define REM_PORT	40000
#define ISS		1000		/* SND.UNA at hand-off */
#define UNACKED		40		/* the CM's bytes not yet ACKed */
#define IRS		7000		/* RCV.NXT at hand-off */
#define RCV_WND		(65535 << 2)
#define SND_WND		29200

#define MAX_FRAMES	32
#define MAX_EVENTS	8

struct captured {
	u8 *frame;
	u32 len;
};

struct rnic_tcp_fixture {
	struct kunit *test;
	struct madcm_rnic_dev *dev;
	struct madcm_rnic_qp *qp;
	struct madcm_rnic_qp qp_mem;
	struct captured frames[MAX_FRAMES];
	int nframes;
	int events[MAX_EVENTS];
	int status[MAX_EVENTS];
	int nevents;
	int qp_states[MAX_EVENTS];
	int nstates;
	int released;
	u8 unacked[UNACKED];
	u8 *rx;			/* what rx_data delivered, in order */
	u32 rx_len;
	int rx_calls;
	int tx_rooms;
	u32 reply_len;		/* rx_data answers with a record this long */
	int reply_ret;
};

#define RX_MAX		(64 * 1024)

static struct rnic_tcp_fixture *fx_of(struct madcm_rnic_tcp *t)
{
	return container_of(t, struct rnic_tcp_fixture, qp_mem.tcp);
}

static int fx_xmit(struct madcm_rnic_tcp *t, const u8 *frame, u32 len)
{
	struct rnic_tcp_fixture *fx = fx_of(t);
	struct captured *c;

	if (fx->nframes >= MAX_FRAMES)
		return -ENOSPC;
	c = &fx->frames[fx->nframes++];
	c->frame = kunit_kmalloc(fx->test, len, GFP_KERNEL);
	if (!c->frame)
		return -ENOMEM;
	memcpy(c->frame, frame, len);
	c->len = len;
	return 0;
}

static void fx_event(struct madcm_rnic_tcp *t, enum madcm_cm_offload_event ev,
		     int status)
{
	struct rnic_tcp_fixture *fx = fx_of(t);

	if (fx->nevents < MAX_EVENTS) {
		fx->events[fx->nevents] = ev;
		fx->status[fx->nevents++] = status;
	}
}

static int fx_qp_state(struct madcm_rnic_tcp *t, int state)
{
	struct rnic_tcp_fixture *fx = fx_of(t);

	if (fx->nstates < MAX_EVENTS)
		fx->qp_states[fx->nstates++] = state;
	return 0;
}

static void fx_release(struct madcm_rnic_tcp *t)
{
	fx_of(t)->released++;
}

static void fx_rx_data(struct madcm_rnic_tcp *t, const u8 *data, u32 len)
{
	struct rnic_tcp_fixture *fx = fx_of(t);

	lockdep_assert_held(&t->rx_lock);
	fx->rx_calls++;
	if (fx->rx && fx->rx_len + len <= RX_MAX)
		memcpy(fx->rx + fx->rx_len, data, len);
	fx->rx_len += len;
	if (fx->reply_len) {
		static u8 reply[64];
		struct kvec v = { .iov_base = reply, .iov_len = fx->reply_len };

		fx->reply_ret = madcm_rnic_tcp_send(t, &v, 1, fx->reply_len);
	}
}

static void fx_tx_room(struct madcm_rnic_tcp *t)
{
	fx_of(t)->tx_rooms++;
}

static const struct madcm_rnic_tcp_out fx_out = {
	.xmit = fx_xmit,
	.event = fx_event,
	.qp_state = fx_qp_state,
	.release = fx_release,
	.rx_data = fx_rx_data,
	.tx_room = fx_tx_room,
};

static void fx_ctx(struct rnic_tcp_fixture *fx, struct madcm_cm_offload_ctx *ctx,
		   u16 vlan_id)
{
	struct madcm_cm_tcp_ctx *c = &ctx->tcp;
	int i;

	memset(ctx, 0, sizeof(*ctx));
	for (i = 0; i < UNACKED; i++)
		fx->unacked[i] = 0xa0 + i;
	c->ipv4 = true;
	c->vlan_id = vlan_id;
	c->ttl = 64;
	memcpy(c->loc_mac, "\x02\x00\x00\x00\x00\x01", ETH_ALEN);
	memcpy(c->rem_mac, "\x02\x00\x00\x00\x00\x02", ETH_ALEN);
	ipv6_addr_set_v4mapped(htonl(LOC_IP), &c->loc.ip);
	ipv6_addr_set_v4mapped(htonl(REM_IP), &c->rem.ip);
	c->loc.port = LOC_PORT;
	c->rem.port = REM_PORT;
	c->snd_una = ISS;
	c->snd_nxt = ISS + UNACKED;
	c->snd_wnd = SND_WND;
	c->snd_wl1 = IRS - 1;
	c->snd_wl2 = ISS;
	c->max_snd_wnd = SND_WND;
	c->rcv_nxt = IRS;
	c->rcv_wnd = RCV_WND;
	c->snd_mss = 1460;
	c->snd_wscale = 0;
	c->rcv_wscale = 2;
	ctx->unacked = fx->unacked;
	ctx->unacked_len = UNACKED;
	/* the largest RTO: the timer never fires by itself during a case */
	ctx->rto_ms = MADCM_RNIC_TCP_RTO_MAX_MS;
}

static void fx_exit_action(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = test->priv;

	if (fx && fx->qp)
		madcm_rnic_qp_tcp_destroy(fx->qp);
}

/* A QP handed a stream with UNACKED bytes outstanding. */
static struct rnic_tcp_fixture *fx_offload(struct kunit *test, u16 vlan_id)
{
	struct madcm_cm_offload_ctx ctx;
	struct rnic_tcp_fixture *fx;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx);
	fx->dev = kunit_kzalloc(test, sizeof(*fx->dev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx->dev);
	fx->test = test;
	fx->rx = kunit_kzalloc(test, RX_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx->rx);
	fx->qp = &fx->qp_mem;
	fx->qp->dev = fx->dev;
	madcm_rnic_qp_tcp_init(fx->qp);
	fx->qp->tcp.out = &fx_out;
	test->priv = fx;

	fx_ctx(fx, &ctx, vlan_id);
	KUNIT_ASSERT_EQ(test, fx->qp->oqp.ops->offload(&fx->qp->oqp, &ctx), 0);
	/* no timer fires by itself during a case: the cases fire them */
	fx->qp->tcp.rto_min_ms = MADCM_RNIC_TCP_RTO_MAX_MS;
	fx->qp->tcp.delack_ms = MADCM_RNIC_TCP_RTO_MAX_MS;
	return fx;
}

static void fx_settle(struct rnic_tcp_fixture *fx)
{
	flush_work(&fx->qp->tcp.tx_work);
}

/* The peer sends: a segment to the QP. */
static void peer_send(struct kunit *test, struct rnic_tcp_fixture *fx,
		      u32 seq, u32 ack, u8 flags, const u8 *data, u32 len)
{
	struct irdma_cm_seg s = {};
	int n;
	u8 *buf;

	buf = kunit_kzalloc(test, IRDMA_CM_MAX_HDR + len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(s.dst_mac, "\x02\x00\x00\x00\x00\x01", ETH_ALEN);
	memcpy(s.src_mac, "\x02\x00\x00\x00\x00\x02", ETH_ALEN);
	s.ipv4 = true;
	s.ttl = 64;
	ipv6_addr_set_v4mapped(htonl(REM_IP), &s.src.ip);
	ipv6_addr_set_v4mapped(htonl(LOC_IP), &s.dst.ip);
	s.src.port = REM_PORT;
	s.dst.port = LOC_PORT;
	s.seq = seq;
	s.ack = ack;
	s.flags = flags;
	s.window = SND_WND;
	s.payload = data;
	s.payload_len = len;
	n = irdma_cm_build_seg(&s, buf, IRDMA_CM_MAX_HDR + len);
	KUNIT_ASSERT_GT(test, n, 0);
	fx->qp->oqp.ops->rx(&fx->qp->oqp, buf, n);
	fx_settle(fx);
}

/* What the QP sent as frame @i, parsed (checksums included). */
static void sent(struct kunit *test, struct rnic_tcp_fixture *fx, int i,
		 struct irdma_cm_seg *s)
{
	KUNIT_ASSERT_LT(test, i, fx->nframes);
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_seg(fx->frames[i].frame,
						 fx->frames[i].len, s),
			IRDMA_SEG_OK);
}

static void fire_rto(struct rnic_tcp_fixture *fx)
{
	fx->qp->tcp.timer.function(&fx->qp->tcp.timer);
	fx_settle(fx);
}

static void fire_delack(struct rnic_tcp_fixture *fx)
{
	fx->qp->tcp.delack.function(&fx->qp->tcp.delack);
	fx_settle(fx);
}

static void expect_pure_ack(struct kunit *test, struct rnic_tcp_fixture *fx,
			    int i, u32 seq, u32 ack)
{
	struct irdma_cm_seg s;

	sent(test, fx, i, &s);
	KUNIT_EXPECT_EQ(test, s.flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, s.seq, seq);
	KUNIT_EXPECT_EQ(test, s.ack, ack);
	KUNIT_EXPECT_EQ(test, s.payload_len, 0U);
}

/* Hand-off: RTS, the RTO armed, nothing sent until it fires. */
static void offload_moves_qp_to_rts_and_arms_rto(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);

	KUNIT_EXPECT_EQ(test, fx->nstates, 1);
	KUNIT_EXPECT_EQ(test, fx->qp_states[0], IB_QPS_RTS);
	KUNIT_EXPECT_TRUE(test, timer_pending(&fx->qp->tcp.timer));
	fx_settle(fx);
	KUNIT_EXPECT_EQ(test, fx->nframes, 0);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);
}

/* The CM's unacknowledged bytes go out again, whole, from SND.UNA. */
static void rto_retransmits_unacked_bytes(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;

	fire_rto(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_TRUE(test, s.ipv4);
	KUNIT_EXPECT_FALSE(test, s.vlan);
	KUNIT_EXPECT_EQ(test, s.src.port, LOC_PORT);
	KUNIT_EXPECT_EQ(test, s.dst.port, REM_PORT);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(s.src.ip.s6_addr32[3]), LOC_IP);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(s.dst.ip.s6_addr32[3]), REM_IP);
	KUNIT_EXPECT_EQ(test, memcmp(s.dst_mac, "\x02\x00\x00\x00\x00\x02",
				     ETH_ALEN), 0);
	KUNIT_EXPECT_EQ(test, s.seq, ISS);
	KUNIT_EXPECT_EQ(test, s.ack, IRS);
	KUNIT_EXPECT_TRUE(test, s.flags & IRDMA_TCP_ACK);
	KUNIT_EXPECT_FALSE(test, s.flags & (IRDMA_TCP_FIN | IRDMA_TCP_RST |
					    IRDMA_TCP_SYN));
	/* RCV.WND 65535 << 2 advertised with our shift of 2 */
	KUNIT_EXPECT_EQ(test, s.window, 65535);
	KUNIT_ASSERT_EQ(test, s.payload_len, (u32)UNACKED);
	KUNIT_EXPECT_EQ(test, memcmp(s.payload, fx->unacked, UNACKED), 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cnt[MADCM_RNIC_TCP_RETRANS], 1ULL);
}

/* A VLAN stream keeps its tag. */
static void retransmission_keeps_the_vlan_tag(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, 42);
	struct irdma_cm_seg s;

	fire_rto(fx);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_TRUE(test, s.vlan);
	KUNIT_EXPECT_EQ(test, s.vlan_tci & VLAN_VID_MASK, 42);
}

/* A partial ACK frees what it covers; the rest goes out from there. */
static void partial_ack_frees_acked_bytes(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;

	peer_send(test, fx, IRS, ISS + 10, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.snd_una, ISS + 10);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.unacked_len, UNACKED - 10U);
	KUNIT_EXPECT_EQ(test, fx->nframes, 0);

	fire_rto(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + 10);
	KUNIT_ASSERT_EQ(test, s.payload_len, UNACKED - 10U);
	KUNIT_EXPECT_EQ(test,
			memcmp(s.payload, fx->unacked + 10, UNACKED - 10), 0);
}

/* All acknowledged: the retransmission timer stops. */
static void full_ack_stops_the_timer(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);

	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.unacked_len, 0U);
	KUNIT_EXPECT_FALSE(test, timer_pending(&fx->qp->tcp.timer));
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);
}

/* RFC 9293: an ACK of something not yet sent is answered with an ACK. */
static void ack_of_unsent_data_is_answered(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);

	peer_send(test, fx, IRS, ISS + UNACKED + 1, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.snd_una, ISS);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS);
}

/* RFC 9293: a window update only from a newer segment (WL1/WL2). */
static void window_update_rules(struct kunit *test)
{
	/* newer sequence number */
	KUNIT_EXPECT_TRUE(test, madcm_rnic_tcp_wnd_update(100, 50, 101, 40));
	/* same sequence number, same or newer ACK */
	KUNIT_EXPECT_TRUE(test, madcm_rnic_tcp_wnd_update(100, 50, 100, 50));
	KUNIT_EXPECT_TRUE(test, madcm_rnic_tcp_wnd_update(100, 50, 100, 51));
	/* same sequence number, older ACK; an older segment */
	KUNIT_EXPECT_FALSE(test, madcm_rnic_tcp_wnd_update(100, 50, 100, 49));
	KUNIT_EXPECT_FALSE(test, madcm_rnic_tcp_wnd_update(100, 50, 99, 60));
	/* across 2^32 */
	KUNIT_EXPECT_TRUE(test, madcm_rnic_tcp_wnd_update(0xfffffff0, 0, 0x10, 0));
}

/* RFC 9293: only SND.UNA < SEG.ACK =< SND.NXT acknowledges anything. */
static void new_ack_rules(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_new_acked(100, 140, 100), 0U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_new_acked(100, 140, 101), 1U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_new_acked(100, 140, 140), 40U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_new_acked(100, 140, 141), 0U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_new_acked(100, 140, 99), 0U);
	KUNIT_EXPECT_EQ(test,
			madcm_rnic_tcp_new_acked(0xfffffff0, 0x10, 0x8), 0x18U);
}

/* RFC 6298 5.5: the RTO doubles, up to the ceiling. */
static void rto_backoff_doubles_to_the_ceiling(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_next_rto(1000), 2000U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_next_rto(20000), 40000U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_next_rto(40000),
			(u32)MADCM_RNIC_TCP_RTO_MAX_MS);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_next_rto(MADCM_RNIC_TCP_RTO_MAX_MS),
			(u32)MADCM_RNIC_TCP_RTO_MAX_MS);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_wnd_field(65535 << 2, 2), 65535);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_wnd_field(1U << 20, 0), 65535);
}

/* The retry limit: RST, RESET -ETIMEDOUT, QP to ERROR, nothing more. */
static void retry_limit_resets_with_etimedout(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;
	int i;

	for (i = 0; i < MADCM_RNIC_TCP_MAX_RETRIES; i++)
		fire_rto(fx);
	KUNIT_EXPECT_EQ(test, fx->nframes, MADCM_RNIC_TCP_MAX_RETRIES);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);

	fire_rto(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, MADCM_RNIC_TCP_MAX_RETRIES + 1);
	sent(test, fx, MADCM_RNIC_TCP_MAX_RETRIES, &s);
	KUNIT_EXPECT_TRUE(test, s.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_ASSERT_EQ(test, fx->nevents, 1);
	KUNIT_EXPECT_EQ(test, fx->events[0], MADCM_CM_OFFLOAD_EV_RESET);
	KUNIT_EXPECT_EQ(test, fx->status[0], -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, fx->qp_states[fx->nstates - 1], IB_QPS_ERR);

	fire_rto(fx);
	KUNIT_EXPECT_EQ(test, fx->nframes, MADCM_RNIC_TCP_MAX_RETRIES + 1);
	KUNIT_EXPECT_EQ(test, fx->nevents, 1);
}

/* RFC 5961 3.2: a RST exactly at RCV.NXT resets; nothing is answered. */
static void rst_at_rcv_nxt_resets(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);

	peer_send(test, fx, IRS, 0, IRDMA_TCP_RST, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->nframes, 0);
	KUNIT_ASSERT_EQ(test, fx->nevents, 1);
	KUNIT_EXPECT_EQ(test, fx->events[0], MADCM_CM_OFFLOAD_EV_RESET);
	KUNIT_EXPECT_EQ(test, fx->status[0], -ECONNRESET);
	KUNIT_EXPECT_EQ(test, fx->qp_states[fx->nstates - 1], IB_QPS_ERR);
	KUNIT_EXPECT_FALSE(test, timer_pending(&fx->qp->tcp.timer));

	/* exactly one terminal event */
	peer_send(test, fx, IRS, 0, IRDMA_TCP_RST, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->nevents, 1);
}

/* RFC 5961 3.2: in the window but not at RCV.NXT: a challenge ACK. */
static void rst_in_window_gets_challenge_ack(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);

	peer_send(test, fx, IRS + 1000, 0, IRDMA_TCP_RST, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cnt[MADCM_RNIC_TCP_RX_CHALLENGE],
			1ULL);
}

/* RFC 5961 3.2: outside the window: dropped, no answer. */
static void rst_outside_window_is_dropped(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);

	peer_send(test, fx, IRS + RCV_WND, 0, IRDMA_TCP_RST, NULL, 0);
	peer_send(test, fx, IRS - 1, 0, IRDMA_TCP_RST, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);
	KUNIT_EXPECT_EQ(test, fx->nframes, 0);
}

/* RFC 5961 4.2: any SYN in a synchronized state: a challenge ACK. */
static void syn_gets_challenge_ack(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);

	peer_send(test, fx, IRS, 0, IRDMA_TCP_SYN, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS);
}

/*
 * In-order data goes up and is acknowledged: one segment alone within
 * the delayed-ACK time (RFC 9293 3.8.6.3), a duplicate at once (3.10.7.4:
 * an unacceptable segment is answered with an ACK).
 */
static void in_order_data_is_acked_and_counted(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	static const u8 data[100];

	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK | IRDMA_TCP_PSH,
		  data, sizeof(data));
	KUNIT_EXPECT_EQ(test, fx->nframes, 0);
	KUNIT_EXPECT_TRUE(test, timer_pending(&fx->qp->tcp.delack));
	fire_delack(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS + 100);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cnt[MADCM_RNIC_TCP_RX_DATA_BYTES],
			100ULL);
	KUNIT_EXPECT_EQ(test, fx->rx_len, 100U);

	/* the same again: a duplicate, acknowledged, not counted twice */
	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK | IRDMA_TCP_PSH,
		  data, sizeof(data));
	KUNIT_ASSERT_EQ(test, fx->nframes, 2);
	expect_pure_ack(test, fx, 1, ISS + UNACKED, IRS + 100);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cnt[MADCM_RNIC_TCP_RX_DATA_BYTES],
			100ULL);
	KUNIT_EXPECT_EQ(test, fx->rx_len, 100U);
}

/* Data past a hole: kept aside, a duplicate ACK asks for the hole. */
static void out_of_order_data_gets_dup_ack(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	static const u8 data[10];

	peer_send(test, fx, IRS + 50, ISS, IRDMA_TCP_ACK, data, sizeof(data));
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.rcv_nxt, IRS);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cnt[MADCM_RNIC_TCP_RX_OOO], 1ULL);
}

/*
 * The peer closes first: its FIN in order gives FIN_RCVD; the QP answers
 * with ACK and its own FIN (SEQ = SND.NXT after the CM's bytes, as
 * irdma's QP in CLOSING does); the ACK of that FIN gives CLOSED.
 */
static void peer_fin_then_our_fin_acked_gives_closed(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;

	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK | IRDMA_TCP_FIN,
		  NULL, 0);
	KUNIT_ASSERT_EQ(test, fx->nevents, 1);
	KUNIT_EXPECT_EQ(test, fx->events[0], MADCM_CM_OFFLOAD_EV_FIN_RCVD);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_EQ(test, s.flags, IRDMA_TCP_ACK | IRDMA_TCP_FIN);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_EXPECT_EQ(test, s.ack, IRS + 1);

	peer_send(test, fx, IRS + 1, ISS + UNACKED + 1, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_ASSERT_EQ(test, fx->nevents, 2);
	KUNIT_EXPECT_EQ(test, fx->events[1], MADCM_CM_OFFLOAD_EV_CLOSED);
	KUNIT_EXPECT_EQ(test, fx->status[1], 0);
	/* iw_cm expects the QP in ERROR by the CLOSE (iwcm.c) */
	KUNIT_EXPECT_EQ(test, fx->qp_states[fx->nstates - 1], IB_QPS_ERR);
	KUNIT_EXPECT_FALSE(test, timer_pending(&fx->qp->tcp.timer));
}

/* A FIN past a hole is not taken: a duplicate ACK, no event. */
static void out_of_order_fin_is_not_taken(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);

	peer_send(test, fx, IRS + 5, ISS, IRDMA_TCP_ACK | IRDMA_TCP_FIN,
		  NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.rcv_nxt, IRS);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS);
}

/*
 * We close first: FIN after the CM's bytes (FIN-WAIT-1), its ACK
 * (FIN-WAIT-2), then the peer's FIN: ACK, FIN_RCVD, CLOSED.
 */
static void close_fin_then_peer_fin_gives_closed(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;

	fx->qp->oqp.ops->close(&fx->qp->oqp, MADCM_CM_OFFLOAD_CLOSE_FIN);
	fx_settle(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_EQ(test, s.flags, IRDMA_TCP_ACK | IRDMA_TCP_FIN);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.state, MADCM_RNIC_TCP_FIN_WAIT_1);

	/* the RTO resends the CM's bytes with the FIN on the last one */
	fire_rto(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 2);
	sent(test, fx, 1, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS);
	KUNIT_EXPECT_EQ(test, s.payload_len, (u32)UNACKED);
	KUNIT_EXPECT_TRUE(test, s.flags & IRDMA_TCP_FIN);

	peer_send(test, fx, IRS, ISS + UNACKED + 1, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.state, MADCM_RNIC_TCP_FIN_WAIT_2);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);

	peer_send(test, fx, IRS, ISS + UNACKED + 1,
		  IRDMA_TCP_ACK | IRDMA_TCP_FIN, NULL, 0);
	KUNIT_ASSERT_EQ(test, fx->nframes, 3);
	expect_pure_ack(test, fx, 2, ISS + UNACKED + 1, IRS + 1);
	KUNIT_ASSERT_EQ(test, fx->nevents, 2);
	KUNIT_EXPECT_EQ(test, fx->events[0], MADCM_CM_OFFLOAD_EV_FIN_RCVD);
	KUNIT_EXPECT_EQ(test, fx->events[1], MADCM_CM_OFFLOAD_EV_CLOSED);
}

/* Both FINs cross (RFC 9293 3.6, simultaneous close): CLOSING, CLOSED. */
static void simultaneous_close_gives_one_closed(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);

	fx->qp->oqp.ops->close(&fx->qp->oqp, MADCM_CM_OFFLOAD_CLOSE_FIN);
	fx_settle(fx);
	/* the peer's FIN acknowledges the CM's bytes, not our FIN */
	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK | IRDMA_TCP_FIN,
		  NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.state, MADCM_RNIC_TCP_CLOSING);
	peer_send(test, fx, IRS + 1, ISS + UNACKED + 1, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_ASSERT_EQ(test, fx->nevents, 2);
	KUNIT_EXPECT_EQ(test, fx->events[0], MADCM_CM_OFFLOAD_EV_FIN_RCVD);
	KUNIT_EXPECT_EQ(test, fx->events[1], MADCM_CM_OFFLOAD_EV_CLOSED);
}

/* An abort: RST at SND.NXT, RESET -ECONNABORTED, QP to ERROR. */
static void close_rst_sends_rst_and_resets(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;

	fx->qp->oqp.ops->close(&fx->qp->oqp, MADCM_CM_OFFLOAD_CLOSE_RST);
	fx_settle(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_TRUE(test, s.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_EXPECT_EQ(test, s.ack, IRS);
	KUNIT_ASSERT_EQ(test, fx->nevents, 1);
	KUNIT_EXPECT_EQ(test, fx->events[0], MADCM_CM_OFFLOAD_EV_RESET);
	KUNIT_EXPECT_EQ(test, fx->status[0], -ECONNABORTED);
	KUNIT_EXPECT_EQ(test, fx->qp_states[fx->nstates - 1], IB_QPS_ERR);
}

/*
 * The CM's abort ends the connection at once and detaches the QP right
 * after (on its event workqueue): the RST is out by the time close
 * returns, and the detach leaves the QP in ERROR.
 */
static void abort_then_detach_still_sends_rst(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;

	fx->qp->oqp.ops->close(&fx->qp->oqp, MADCM_CM_OFFLOAD_CLOSE_RST);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	fx->qp->oqp.ops->detach(&fx->qp->oqp);
	KUNIT_EXPECT_EQ(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_TRUE(test, s.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_EXPECT_EQ(test, fx->qp_states[fx->nstates - 1], IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, fx->released, 1);
}

/* Frames that fail their checksum or belong to another stream: ignored. */
static void foreign_and_corrupt_frames_are_counted(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct madcm_rnic_tcp *t = &fx->qp->tcp;
	struct irdma_cm_seg s = {};
	u8 buf[IRDMA_CM_MAX_HDR];
	int n;

	memcpy(s.dst_mac, "\x02\x00\x00\x00\x00\x01", ETH_ALEN);
	memcpy(s.src_mac, "\x02\x00\x00\x00\x00\x02", ETH_ALEN);
	s.ipv4 = true;
	s.ttl = 64;
	ipv6_addr_set_v4mapped(htonl(REM_IP), &s.src.ip);
	ipv6_addr_set_v4mapped(htonl(LOC_IP), &s.dst.ip);
	s.src.port = REM_PORT + 1;	/* another connection */
	s.dst.port = LOC_PORT;
	s.seq = IRS;
	s.flags = IRDMA_TCP_RST;
	n = irdma_cm_build_seg(&s, buf, sizeof(buf));
	KUNIT_ASSERT_GT(test, n, 0);
	fx->qp->oqp.ops->rx(&fx->qp->oqp, buf, n);
	KUNIT_EXPECT_EQ(test, t->cnt[MADCM_RNIC_TCP_RX_NOT_OURS], 1ULL);

	s.src.port = REM_PORT;
	n = irdma_cm_build_seg(&s, buf, sizeof(buf));
	buf[n - 1] ^= 0xff;		/* the TCP checksum no longer holds */
	fx->qp->oqp.ops->rx(&fx->qp->oqp, buf, n);
	KUNIT_EXPECT_EQ(test, t->cnt[MADCM_RNIC_TCP_RX_BAD], 1ULL);
	fx_settle(fx);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);
	KUNIT_EXPECT_EQ(test, fx->nframes, 0);
}

/* Detach: the timer stops, nothing leaves afterwards, the QP goes back. */
static void detach_stops_everything(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);

	fx->qp->oqp.ops->detach(&fx->qp->oqp);
	KUNIT_EXPECT_EQ(test, fx->released, 1);
	KUNIT_EXPECT_FALSE(test, timer_pending(&fx->qp->tcp.timer));
	peer_send(test, fx, IRS, 0, IRDMA_TCP_SYN, NULL, 0);
	fx->qp->oqp.ops->close(&fx->qp->oqp, MADCM_CM_OFFLOAD_CLOSE_RST);
	fx_settle(fx);
	KUNIT_EXPECT_EQ(test, fx->nframes, 0);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);
}

/*
 * The CM leaves the initiator's RTR message to a peer-to-peer responder's
 * QP: taken at hand-off as just received, so acknowledged at once.
 */
static void bytes_left_by_the_cm_are_acked(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	static const u8 rtr[20] = { 0x00, 0x0e, 0x41, 0x00, 0x01, 0x02 };
	struct madcm_cm_offload_ctx ctx;

	fx->qp->oqp.ops->detach(&fx->qp->oqp);
	fx->nframes = 0;
	fx->rx_calls = 0;
	fx_ctx(fx, &ctx, MADCM_CM_NO_VLAN);
	ctx.rcvd = rtr;
	ctx.rcvd_len = sizeof(rtr);
	KUNIT_ASSERT_EQ(test, fx->qp->oqp.ops->offload(&fx->qp->oqp, &ctx), 0);
	fx_settle(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS + sizeof(rtr));
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cnt[MADCM_RNIC_TCP_RX_DATA_BYTES],
			(u64)sizeof(rtr));
	/* and they go up first, as stream bytes */
	KUNIT_EXPECT_EQ(test, fx->rx_calls, 1);
	KUNIT_ASSERT_EQ(test, fx->rx_len, (u32)sizeof(rtr));
	KUNIT_EXPECT_EQ(test, memcmp(fx->rx, rtr, sizeof(rtr)), 0);
}

/* A context whose byte count and sequence numbers disagree is refused. */
static void inconsistent_context_is_refused(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct madcm_cm_offload_ctx ctx;

	fx->qp->oqp.ops->detach(&fx->qp->oqp);
	fx_ctx(fx, &ctx, MADCM_CM_NO_VLAN);
	ctx.unacked_len = UNACKED - 1;
	KUNIT_EXPECT_EQ(test, fx->qp->oqp.ops->offload(&fx->qp->oqp, &ctx),
			-EINVAL);
	fx_ctx(fx, &ctx, MADCM_CM_NO_VLAN);
	ctx.tcp.snd_nxt = ISS + MADCM_RNIC_TCP_UNACKED_MAX + 1;
	ctx.unacked_len = MADCM_RNIC_TCP_UNACKED_MAX + 1;
	KUNIT_EXPECT_EQ(test, fx->qp->oqp.ops->offload(&fx->qp->oqp, &ctx),
			-EMSGSIZE);
}

/* The peer acknowledges the CM's bytes: nothing outstanding. */
static void peer_acks_cm_bytes(struct kunit *test, struct rnic_tcp_fixture *fx)
{
	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_ASSERT_EQ(test, fx->qp->tcp.snd_una, ISS + UNACKED);
	fx->nframes = 0;
}

static void fill(u8 *buf, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		buf[i] = seed + i * 7;
}

static void send_record(struct kunit *test, struct rnic_tcp_fixture *fx,
			const u8 *data, u32 len)
{
	struct kvec v = { .iov_base = (void *)data, .iov_len = len };

	KUNIT_ASSERT_EQ(test, madcm_rnic_tcp_send(&fx->qp->tcp, &v, 1, len), 0);
}

/*
 * Contract 1: a record gathered from two pieces leaves as one segment
 * right after the CM's bytes (RFC 5044 5.2: one FPDU per segment), and
 * its ACK frees it and tells the upper layer.
 */
static void record_leaves_as_one_segment(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;
	struct kvec v[2];
	u8 rec[1000];

	peer_acks_cm_bytes(test, fx);
	fill(rec, sizeof(rec), 1);
	v[0].iov_base = rec;
	v[0].iov_len = 300;
	v[1].iov_base = rec + 300;
	v[1].iov_len = 700;
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_max_record(&fx->qp->tcp), 1460U);
	KUNIT_ASSERT_EQ(test, madcm_rnic_tcp_send(&fx->qp->tcp, v, 2, 1000), 0);
	fx_settle(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_EXPECT_EQ(test, s.ack, IRS);
	KUNIT_EXPECT_EQ(test, s.flags, IRDMA_TCP_ACK | IRDMA_TCP_PSH);
	KUNIT_ASSERT_EQ(test, s.payload_len, 1000U);
	KUNIT_EXPECT_EQ(test, memcmp(s.payload, rec, 1000), 0);
	KUNIT_EXPECT_TRUE(test, timer_pending(&fx->qp->tcp.timer));

	peer_send(test, fx, IRS, ISS + UNACKED + 1000, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.unacked_len, 0U);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.snd_mem, 0U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fx->dev->tcp_snd_mem), 0L);
	KUNIT_EXPECT_GE(test, fx->tx_rooms, 1);
	KUNIT_EXPECT_FALSE(test, timer_pending(&fx->qp->tcp.timer));
}

/* Records larger than the MSS, empty ones, and any after close: refused. */
static void send_refuses_what_it_cannot_carry(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	static u8 rec[1461];
	struct kvec v = { .iov_base = rec, .iov_len = sizeof(rec) };

	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_send(&fx->qp->tcp, &v, 1, 1461),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_send(&fx->qp->tcp, &v, 1, 0),
			-EINVAL);
	v.iov_len = 10;		/* fewer bytes than the record */
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_send(&fx->qp->tcp, &v, 1, 11),
			-EINVAL);
	madcm_rnic_tcp_close_after_queue(&fx->qp->tcp);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_send(&fx->qp->tcp, &v, 1, 10),
			-ENOTCONN);
	fx_settle(fx);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.state, MADCM_RNIC_TCP_FIN_WAIT_1);
}

/*
 * Segments past a hole are kept; the one that fills it brings all of
 * them up in stream order, acknowledged at once (RFC 5681 4.2: dup ACKs
 * for out-of-order segments, an immediate ACK for the one filling it).
 */
static void out_of_order_data_is_reassembled(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	static u8 stream[300];

	fill(stream, sizeof(stream), 3);
	peer_send(test, fx, IRS + 200, ISS + UNACKED, IRDMA_TCP_ACK,
		  stream + 200, 100);
	peer_send(test, fx, IRS + 100, ISS + UNACKED, IRDMA_TCP_ACK,
		  stream + 100, 100);
	KUNIT_EXPECT_EQ(test, fx->rx_len, 0U);
	KUNIT_ASSERT_EQ(test, fx->nframes, 2);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS);
	expect_pure_ack(test, fx, 1, ISS + UNACKED, IRS);

	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK, stream, 100);
	KUNIT_ASSERT_EQ(test, fx->rx_len, 300U);
	KUNIT_EXPECT_EQ(test, memcmp(fx->rx, stream, 300), 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.rcv_nxt, IRS + 300);
	KUNIT_ASSERT_EQ(test, fx->nframes, 3);
	expect_pure_ack(test, fx, 2, ISS + UNACKED, IRS + 300);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.ooo_segs, 0U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fx->dev->tcp_ooo_mem), 0L);
}

/*
 * A timeout resends from SND.UNA with cwnd = 1 SMSS (RFC 5681 3.1); the
 * ACK of it grows cwnd by min(N, SMSS) to 2460 (slow start: ssthresh =
 * max(3000 / 2, 2 * 1460) = 2920), which lets the next two records go.
 */
static void rto_resends_from_snd_una_within_cwnd(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;
	static u8 rec[3][1000];
	int i;

	peer_acks_cm_bytes(test, fx);
	for (i = 0; i < 3; i++) {
		fill(rec[i], 1000, 10 * i);
		send_record(test, fx, rec[i], 1000);
	}
	fx_settle(fx);
	/* IW for SMSS 1460 is 3 * 1460 = 4380: all three go */
	KUNIT_ASSERT_EQ(test, fx->nframes, 3);

	fire_rto(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 4);
	sent(test, fx, 3, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_ASSERT_EQ(test, s.payload_len, 1000U);
	KUNIT_EXPECT_EQ(test, memcmp(s.payload, rec[0], 1000), 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cwnd, 1460U);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.ssthresh, 2920U);

	peer_send(test, fx, IRS, ISS + UNACKED + 1000, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cwnd, 2460U);
	KUNIT_ASSERT_EQ(test, fx->nframes, 6);
	sent(test, fx, 4, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED + 1000);
	KUNIT_EXPECT_EQ(test, memcmp(s.payload, rec[1], 1000), 0);
	sent(test, fx, 5, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED + 2000);
	KUNIT_EXPECT_EQ(test, memcmp(s.payload, rec[2], 1000), 0);
}

/* The peer sends with a window of its choice. */
static void peer_send_wnd(struct kunit *test, struct rnic_tcp_fixture *fx,
			  u32 seq, u32 ack, u16 window)
{
	struct irdma_cm_seg s = {};
	u8 buf[IRDMA_CM_MAX_HDR];
	int n;

	memcpy(s.dst_mac, "\x02\x00\x00\x00\x00\x01", ETH_ALEN);
	memcpy(s.src_mac, "\x02\x00\x00\x00\x00\x02", ETH_ALEN);
	s.ipv4 = true;
	s.ttl = 64;
	ipv6_addr_set_v4mapped(htonl(REM_IP), &s.src.ip);
	ipv6_addr_set_v4mapped(htonl(LOC_IP), &s.dst.ip);
	s.src.port = REM_PORT;
	s.dst.port = LOC_PORT;
	s.seq = seq;
	s.ack = ack;
	s.flags = IRDMA_TCP_ACK;
	s.window = window;
	n = irdma_cm_build_seg(&s, buf, sizeof(buf));
	KUNIT_ASSERT_GT(test, n, 0);
	fx->qp->oqp.ops->rx(&fx->qp->oqp, buf, n);
	fx_settle(fx);
}

/*
 * RFC 6298 2.2-2.4, worked by hand: R = 100 ms gives SRTT 100, RTTVAR 50,
 * RTO 100 + 4 * 50 = 300 ms; then R = 200 ms gives RTTVAR 3/4 * 50 +
 * 1/4 * 100 = 62.5, SRTT 7/8 * 100 + 1/8 * 200 = 112.5, RTO 362.5 ms.
 * G wins when 4 * RTTVAR is smaller.
 */
static void rtt_estimate_follows_rfc6298(struct kunit *test)
{
	u32 srtt = 0, rttvar = 0;

	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_rtt_update(&srtt, &rttvar,
							100000, 4000),
			300000U);
	KUNIT_EXPECT_EQ(test, srtt, 100000U);
	KUNIT_EXPECT_EQ(test, rttvar, 50000U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_rtt_update(&srtt, &rttvar,
							200000, 4000),
			362500U);
	KUNIT_EXPECT_EQ(test, srtt, 112500U);
	KUNIT_EXPECT_EQ(test, rttvar, 62500U);

	srtt = 0;
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_rtt_update(&srtt, &rttvar,
							1000, 4000),
			1000U + 4000U);
}

/*
 * RFC 5681: IW (3.1, equation 1) is 2 SMSS above 2190 bytes, 3 SMSS
 * above 1095, else 4 SMSS; slow start adds min(N, SMSS) (equation 2),
 * congestion avoidance SMSS * SMSS / cwnd (equation 3); a loss sets
 * ssthresh to max(FlightSize / 2, 2 SMSS) (equation 4).
 */
static void congestion_rules_follow_rfc5681(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_initial_cwnd(1460), 4380U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_initial_cwnd(2190), 6570U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_initial_cwnd(2191), 4382U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_initial_cwnd(1095), 4380U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_initial_cwnd(536), 2144U);

	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_cwnd_on_ack(4380, 65535, 1000,
							 1460), 5380U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_cwnd_on_ack(4380, 65535, 3000,
							 1460), 5840U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_cwnd_on_ack(14600, 10000, 1460,
							 1460), 14746U);

	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_ssthresh_on_loss(20000, 1460),
			10000U);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_ssthresh_on_loss(2000, 1460),
			2920U);
}

/* RFC 9293 3.8.6.2.1: never past SND.UNA + SND.WND. */
static void peer_window_is_never_exceeded(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;
	static u8 rec[1000];
	int i;

	/* the CM's bytes acknowledged, the window now 2000 bytes */
	peer_send_wnd(test, fx, IRS, ISS + UNACKED, 2000);
	fx->nframes = 0;
	for (i = 0; i < 3; i++)
		send_record(test, fx, rec, sizeof(rec));
	fx_settle(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 2);
	sent(test, fx, 1, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED + 1000);

	/* 1000 acknowledged, the same window: 1000 more fit */
	peer_send_wnd(test, fx, IRS, ISS + UNACKED + 1000, 2000);
	KUNIT_ASSERT_EQ(test, fx->nframes, 3);
	sent(test, fx, 2, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED + 2000);
	KUNIT_EXPECT_EQ(test, s.payload_len, 1000U);
}

/*
 * RFC 9293 3.8.6.1: a zero window is probed with one octet of new data
 * after the RTO, backing off; a peer that answers with a zero window
 * keeps the connection (no retry counted); once it opens, the rest goes.
 */
static void zero_window_is_probed(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct madcm_rnic_tcp *t = &fx->qp->tcp;
	struct irdma_cm_seg s;
	static u8 rec[500];

	fill(rec, sizeof(rec), 5);
	peer_send_wnd(test, fx, IRS, ISS + UNACKED, 0);
	fx->nframes = 0;
	send_record(test, fx, rec, sizeof(rec));
	fx_settle(fx);
	KUNIT_EXPECT_EQ(test, fx->nframes, 0);
	KUNIT_EXPECT_TRUE(test, timer_pending(&t->timer));

	t->rto_ms = 20000;
	fire_rto(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_ASSERT_EQ(test, s.payload_len, 1U);
	KUNIT_EXPECT_EQ(test, s.payload[0], rec[0]);
	KUNIT_EXPECT_EQ(test, t->rto_ms, 40000U);
	KUNIT_EXPECT_EQ(test, t->cnt[MADCM_RNIC_TCP_PROBES], 1ULL);

	/* the probe times out again: one octet again, a retry ... */
	fire_rto(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 2);
	sent(test, fx, 1, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_EXPECT_EQ(test, s.payload_len, 1U);
	KUNIT_EXPECT_EQ(test, t->retries, 1U);
	/* ... that the peer's zero-window answer forgives */
	peer_send_wnd(test, fx, IRS, ISS + UNACKED, 0);
	KUNIT_EXPECT_EQ(test, t->retries, 0U);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);

	/* the window opens with the probe octet taken: the rest goes */
	peer_send_wnd(test, fx, IRS, ISS + UNACKED + 1, 29200);
	KUNIT_ASSERT_EQ(test, fx->nframes, 3);
	sent(test, fx, 2, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED + 1);
	KUNIT_ASSERT_EQ(test, s.payload_len, 499U);
	KUNIT_EXPECT_EQ(test, memcmp(s.payload, rec + 1, 499), 0);
}

/*
 * RFC 5681 3.2: the third duplicate ACK retransmits the segment at
 * SND.UNA; ssthresh = max(4000 / 2, 2 * 1460) = 2920, cwnd = 2920 + 3 *
 * 1460 = 7300; a fourth adds 1460; the next new ACK sets cwnd = 2920.
 */
static void three_dup_acks_fast_retransmit(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct madcm_rnic_tcp *t = &fx->qp->tcp;
	struct irdma_cm_seg s;
	static u8 rec[4][1000];
	int i;

	peer_acks_cm_bytes(test, fx);
	for (i = 0; i < 4; i++) {
		fill(rec[i], 1000, 40 * i);
		send_record(test, fx, rec[i], 1000);
	}
	fx_settle(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 4);

	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK, NULL, 0);
	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->nframes, 4);
	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_ASSERT_EQ(test, fx->nframes, 5);
	sent(test, fx, 4, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_ASSERT_EQ(test, s.payload_len, 1000U);
	KUNIT_EXPECT_EQ(test, memcmp(s.payload, rec[0], 1000), 0);
	KUNIT_EXPECT_EQ(test, t->ssthresh, 2920U);
	KUNIT_EXPECT_EQ(test, t->cwnd, 7300U);
	KUNIT_EXPECT_EQ(test, t->cnt[MADCM_RNIC_TCP_FAST_RETRANS], 1ULL);

	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, t->cwnd, 8760U);
	KUNIT_EXPECT_EQ(test, fx->nframes, 5);

	peer_send(test, fx, IRS, ISS + UNACKED + 4000, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, t->cwnd, 2920U);
	KUNIT_EXPECT_FALSE(test, t->in_recovery);
}

/*
 * RFC 6298 3 (Karn): an ACK of a segment sent once gives an RTT sample;
 * one of a retransmitted segment does not.
 */
static void karn_no_sample_from_retransmission(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct madcm_rnic_tcp *t = &fx->qp->tcp;
	static u8 rec[100];

	peer_acks_cm_bytes(test, fx);
	send_record(test, fx, rec, sizeof(rec));
	fx_settle(fx);
	fire_rto(fx);
	peer_send(test, fx, IRS, ISS + UNACKED + 100, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, t->cnt[MADCM_RNIC_TCP_RTT_SAMPLES], 0ULL);
	KUNIT_EXPECT_EQ(test, t->srtt_us, 0U);

	send_record(test, fx, rec, sizeof(rec));
	fx_settle(fx);
	peer_send(test, fx, IRS, ISS + UNACKED + 200, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, t->cnt[MADCM_RNIC_TCP_RTT_SAMPLES], 1ULL);
	KUNIT_EXPECT_GT(test, t->srtt_us, 0U);
	/* RTO = SRTT + max(G, 4 RTTVAR), floored */
	KUNIT_EXPECT_GE(test, t->rto_base_ms, t->rto_min_ms);
}

/*
 * Karn's rule keeps the backoff too (RFC 6298 5, after 5.7): the timeout
 * doubles the RTO (5.5); the ACK of the copy measures nothing, so the
 * doubled RTO stays for the next segment; that one's ACK, a measurement,
 * sets it from the estimate again (RFC 6298 2).
 */
static void backoff_kept_until_a_measurement(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct madcm_rnic_tcp *t = &fx->qp->tcp;
	static u8 rec[100];
	u32 r0;

	peer_acks_cm_bytes(test, fx);
	/*
	 * The fixture keeps timers quiet (RTO and its floor at the
	 * ceiling): here R0 = 1 s over the usual 200 ms floor.
	 */
	r0 = 1000;
	t->rto_min_ms = MADCM_RNIC_TCP_RTO_MIN_MS;
	t->rto_base_ms = r0;
	t->rto_ms = r0;
	send_record(test, fx, rec, sizeof(rec));
	fx_settle(fx);
	fire_rto(fx);
	KUNIT_EXPECT_EQ(test, t->rto_ms, 2 * r0);
	peer_send(test, fx, IRS, ISS + UNACKED + 100, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_ASSERT_EQ(test, t->snd_una, ISS + UNACKED + 100);
	KUNIT_EXPECT_EQ(test, t->rto_ms, 2 * r0);

	send_record(test, fx, rec, sizeof(rec));
	fx_settle(fx);
	peer_send(test, fx, IRS, ISS + UNACKED + 200, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_ASSERT_EQ(test, t->cnt[MADCM_RNIC_TCP_RTT_SAMPLES], 1ULL);
	KUNIT_EXPECT_EQ(test, t->rto_ms, t->rto_base_ms);
	KUNIT_EXPECT_LT(test, t->rto_ms, 2 * r0);
}

/* RFC 5681 4.2: at least every second full segment is acknowledged. */
static void second_segment_is_acked_at_once(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	static u8 data[1460];

	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK, data, 1460);
	KUNIT_EXPECT_EQ(test, fx->nframes, 0);
	peer_send(test, fx, IRS + 1460, ISS + UNACKED, IRDMA_TCP_ACK, data,
		  1460);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS + 2920);
	KUNIT_EXPECT_FALSE(test, timer_pending(&fx->qp->tcp.delack));
	KUNIT_EXPECT_EQ(test, fx->rx_len, 2920U);
}

/*
 * The out-of-order queue holds at most MADCM_RNIC_TCP_OOO_SEGS pieces:
 * the next one is dropped and counted; detach gives the budget back.
 */
static void out_of_order_queue_is_bounded(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct madcm_rnic_tcp *t = &fx->qp->tcp;
	static const u8 b[1] = { 0x55 };
	int i;

	for (i = 1; i <= MADCM_RNIC_TCP_OOO_SEGS + 1; i++)
		peer_send(test, fx, IRS + 2 * i, ISS + UNACKED, IRDMA_TCP_ACK,
			  b, 1);
	KUNIT_EXPECT_EQ(test, t->ooo_segs, (u32)MADCM_RNIC_TCP_OOO_SEGS);
	KUNIT_EXPECT_EQ(test, t->cnt[MADCM_RNIC_TCP_RX_OOO_DROP], 1ULL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fx->dev->tcp_ooo_mem),
			(long)t->ooo_mem);
	KUNIT_EXPECT_EQ(test, fx->rx_len, 0U);

	fx->qp->oqp.ops->detach(&fx->qp->oqp);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fx->dev->tcp_ooo_mem), 0L);
}

/* The send queue is bounded: -EAGAIN past MADCM_RNIC_TCP_SNDBUF. */
static void send_queue_is_bounded(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct madcm_rnic_tcp *t = &fx->qp->tcp;
	static u8 rec[1460];
	struct kvec v = { .iov_base = rec, .iov_len = sizeof(rec) };
	int i, ret = 0;

	peer_send_wnd(test, fx, IRS, ISS + UNACKED, 0);
	for (i = 0; i < 1000; i++) {
		ret = madcm_rnic_tcp_send(t, &v, 1, sizeof(rec));
		if (ret)
			break;
	}
	KUNIT_EXPECT_EQ(test, ret, -EAGAIN);
	KUNIT_EXPECT_LE(test, t->snd_mem, (u32)MADCM_RNIC_TCP_SNDBUF);
	/* refused because the next one would not fit (header < 64) */
	KUNIT_EXPECT_GT(test, t->snd_mem + (u32)sizeof(rec) + 64,
			(u32)MADCM_RNIC_TCP_SNDBUF);
	KUNIT_EXPECT_EQ(test, t->cnt[MADCM_RNIC_TCP_TX_NOROOM], 1ULL);
	KUNIT_EXPECT_EQ(test, madcm_rnic_tcp_send_room(t) < sizeof(rec), true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fx->dev->tcp_snd_mem),
			(long)t->snd_mem);
	madcm_rnic_qp_tcp_destroy(fx->qp);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fx->dev->tcp_snd_mem), 0L);
}

/* Close after a queued record: the FIN rides on it. */
static void close_after_queue_sends_queue_then_fin(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;
	static u8 rec[64];

	peer_acks_cm_bytes(test, fx);
	send_record(test, fx, rec, sizeof(rec));
	madcm_rnic_tcp_close_after_queue(&fx->qp->tcp);
	fx_settle(fx);
	/* with the record, or right after it if the work ran in between */
	KUNIT_ASSERT_GE(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_EXPECT_EQ(test, s.payload_len, 64U);
	sent(test, fx, fx->nframes - 1, &s);
	KUNIT_EXPECT_TRUE(test, s.flags & IRDMA_TCP_FIN);
	KUNIT_EXPECT_EQ(test, s.seq + s.payload_len, ISS + UNACKED + 64);

	peer_send(test, fx, IRS, ISS + UNACKED + 65, IRDMA_TCP_ACK, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.state, MADCM_RNIC_TCP_FIN_WAIT_2);
}

/* The upper layer aborts: RST, RESET with its status, QP to ERROR. */
static void abort_sends_rst_and_reports(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct irdma_cm_seg s;

	madcm_rnic_tcp_abort(&fx->qp->tcp, -EPROTO);
	fx_settle(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_TRUE(test, s.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_ASSERT_EQ(test, fx->nevents, 1);
	KUNIT_EXPECT_EQ(test, fx->events[0], MADCM_CM_OFFLOAD_EV_RESET);
	KUNIT_EXPECT_EQ(test, fx->status[0], -EPROTO);
	KUNIT_EXPECT_EQ(test, fx->qp_states[fx->nstates - 1], IB_QPS_ERR);
}

/* RFC 5961 7: challenge ACKs are throttled (here 2 a second). */
static void challenge_acks_are_throttled(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct madcm_rnic_tcp *t = &fx->qp->tcp;

	t->chal_limit = 2;
	peer_send(test, fx, IRS, 0, IRDMA_TCP_SYN, NULL, 0);
	peer_send(test, fx, IRS, 0, IRDMA_TCP_SYN, NULL, 0);
	peer_send(test, fx, IRS, 0, IRDMA_TCP_SYN, NULL, 0);
	KUNIT_EXPECT_EQ(test, fx->nframes, 2);
	KUNIT_EXPECT_EQ(test, t->cnt[MADCM_RNIC_TCP_RX_CHALLENGE], 2ULL);
	KUNIT_EXPECT_EQ(test, t->cnt[MADCM_RNIC_TCP_RX_CHALLENGE_LIMITED],
			1ULL);
	KUNIT_EXPECT_EQ(test, fx->nevents, 0);
}

/*
 * RFC 5681 4.1: after an idle time longer than the RTO, cwnd starts
 * again from RW = min(IW, cwnd) = 4380 for SMSS 1460.
 */
static void idle_restart_resets_cwnd(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	struct madcm_rnic_tcp *t = &fx->qp->tcp;
	static u8 rec[100];
	unsigned long flags;

	peer_acks_cm_bytes(test, fx);
	spin_lock_irqsave(&t->lock, flags);
	t->cwnd = 20000;
	t->last_send = jiffies - msecs_to_jiffies(t->rto_ms) - 2;
	spin_unlock_irqrestore(&t->lock, flags);
	send_record(test, fx, rec, sizeof(rec));
	fx_settle(fx);
	KUNIT_EXPECT_EQ(test, fx->nframes, 1);
	KUNIT_EXPECT_EQ(test, t->cwnd, 4380U);
}

/*
 * The peer's last bytes and its FIN in one segment (a Read Request, say):
 * what the upper layer sends in answer goes before our FIN (RFC 9293
 * 3.6: CLOSE-WAIT still sends), and our FIN follows at once.
 */
static void answer_to_last_bytes_goes_before_our_fin(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	static const u8 data[100];
	struct irdma_cm_seg s;

	fx->reply_len = 50;
	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK | IRDMA_TCP_FIN,
		  data, sizeof(data));
	KUNIT_EXPECT_EQ(test, fx->rx_len, 100U);
	KUNIT_EXPECT_EQ(test, fx->reply_ret, 0);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.state, MADCM_RNIC_TCP_LAST_ACK);
	KUNIT_ASSERT_GE(test, fx->nframes, 1);
	sent(test, fx, 0, &s);
	KUNIT_EXPECT_EQ(test, s.seq, ISS + UNACKED);
	KUNIT_EXPECT_EQ(test, s.payload_len, 50U);
	sent(test, fx, fx->nframes - 1, &s);
	KUNIT_EXPECT_TRUE(test, s.flags & IRDMA_TCP_FIN);
	KUNIT_EXPECT_EQ(test, s.seq + s.payload_len, ISS + UNACKED + 50);
	KUNIT_EXPECT_EQ(test, s.ack, IRS + 101);
	KUNIT_ASSERT_EQ(test, fx->nevents, 1);
	KUNIT_EXPECT_EQ(test, fx->events[0], MADCM_CM_OFFLOAD_EV_FIN_RCVD);
}

static int rnic_tcp_init(struct kunit *test)
{
	test->priv = NULL;
	return 0;
}

static struct kunit_case rnic_tcp_cases[] = {
	KUNIT_CASE(offload_moves_qp_to_rts_and_arms_rto),
	KUNIT_CASE(rto_retransmits_unacked_bytes),
	KUNIT_CASE(retransmission_keeps_the_vlan_tag),
	KUNIT_CASE(partial_ack_frees_acked_bytes),
	KUNIT_CASE(full_ack_stops_the_timer),
	KUNIT_CASE(ack_of_unsent_data_is_answered),
	KUNIT_CASE(window_update_rules),
	KUNIT_CASE(new_ack_rules),
	KUNIT_CASE(rto_backoff_doubles_to_the_ceiling),
	KUNIT_CASE(retry_limit_resets_with_etimedout),
	KUNIT_CASE(rst_at_rcv_nxt_resets),
	KUNIT_CASE(rst_in_window_gets_challenge_ack),
	KUNIT_CASE(rst_outside_window_is_dropped),
	KUNIT_CASE(syn_gets_challenge_ack),
	KUNIT_CASE(in_order_data_is_acked_and_counted),
	KUNIT_CASE(out_of_order_data_gets_dup_ack),
	KUNIT_CASE(peer_fin_then_our_fin_acked_gives_closed),
	KUNIT_CASE(out_of_order_fin_is_not_taken),
	KUNIT_CASE(close_fin_then_peer_fin_gives_closed),
	KUNIT_CASE(simultaneous_close_gives_one_closed),
	KUNIT_CASE(close_rst_sends_rst_and_resets),
	KUNIT_CASE(abort_then_detach_still_sends_rst),
	KUNIT_CASE(foreign_and_corrupt_frames_are_counted),
	KUNIT_CASE(detach_stops_everything),
	KUNIT_CASE(bytes_left_by_the_cm_are_acked),
	KUNIT_CASE(inconsistent_context_is_refused),
	KUNIT_CASE(record_leaves_as_one_segment),
	KUNIT_CASE(send_refuses_what_it_cannot_carry),
	KUNIT_CASE(out_of_order_data_is_reassembled),
	KUNIT_CASE(rto_resends_from_snd_una_within_cwnd),
	KUNIT_CASE(rtt_estimate_follows_rfc6298),
	KUNIT_CASE(congestion_rules_follow_rfc5681),
	KUNIT_CASE(peer_window_is_never_exceeded),
	KUNIT_CASE(zero_window_is_probed),
	KUNIT_CASE(three_dup_acks_fast_retransmit),
	KUNIT_CASE(karn_no_sample_from_retransmission),
	KUNIT_CASE(backoff_kept_until_a_measurement),
	KUNIT_CASE(second_segment_is_acked_at_once),
	KUNIT_CASE(out_of_order_queue_is_bounded),
	KUNIT_CASE(send_queue_is_bounded),
	KUNIT_CASE(close_after_queue_sends_queue_then_fin),
	KUNIT_CASE(abort_sends_rst_and_reports),
	KUNIT_CASE(challenge_acks_are_throttled),
	KUNIT_CASE(idle_restart_resets_cwnd),
	KUNIT_CASE(answer_to_last_bytes_goes_before_our_fin),
	{}
};

static struct kunit_suite rnic_tcp_suite = {
	.name = "madcm_rnic_tcp",
	.init = rnic_tcp_init,
	.exit = fx_exit_action,
	.test_cases = rnic_tcp_cases,
};

kunit_test_suite(rnic_tcp_suite);
