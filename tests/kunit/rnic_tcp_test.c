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
};

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

static const struct madcm_rnic_tcp_out fx_out = {
	.xmit = fx_xmit,
	.event = fx_event,
	.qp_state = fx_qp_state,
	.release = fx_release,
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
	fx->qp = &fx->qp_mem;
	fx->qp->dev = fx->dev;
	madcm_rnic_qp_tcp_init(fx->qp);
	fx->qp->tcp.out = &fx_out;
	test->priv = fx;

	fx_ctx(fx, &ctx, vlan_id);
	KUNIT_ASSERT_EQ(test, fx->qp->oqp.ops->offload(&fx->qp->oqp, &ctx), 0);
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

/* In-order data is acknowledged and counted, not delivered. */
static void in_order_data_is_acked_and_counted(struct kunit *test)
{
	struct rnic_tcp_fixture *fx = fx_offload(test, MADCM_CM_NO_VLAN);
	static const u8 data[100];

	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK | IRDMA_TCP_PSH,
		  data, sizeof(data));
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS + 100);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cnt[MADCM_RNIC_TCP_RX_DATA_BYTES],
			100ULL);

	/* the same again: a duplicate, acknowledged, not counted twice */
	peer_send(test, fx, IRS, ISS + UNACKED, IRDMA_TCP_ACK | IRDMA_TCP_PSH,
		  data, sizeof(data));
	KUNIT_ASSERT_EQ(test, fx->nframes, 2);
	expect_pure_ack(test, fx, 1, ISS + UNACKED, IRS + 100);
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cnt[MADCM_RNIC_TCP_RX_DATA_BYTES],
			100ULL);
}

/* Data past a hole: dropped, a duplicate ACK asks for the hole. */
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
	static const u8 rtr[20];
	struct madcm_cm_offload_ctx ctx;

	fx->qp->oqp.ops->detach(&fx->qp->oqp);
	fx->nframes = 0;
	fx_ctx(fx, &ctx, MADCM_CM_NO_VLAN);
	ctx.rcvd = rtr;
	ctx.rcvd_len = sizeof(rtr);
	KUNIT_ASSERT_EQ(test, fx->qp->oqp.ops->offload(&fx->qp->oqp, &ctx), 0);
	fx_settle(fx);
	KUNIT_ASSERT_EQ(test, fx->nframes, 1);
	expect_pure_ack(test, fx, 0, ISS + UNACKED, IRS + sizeof(rtr));
	KUNIT_EXPECT_EQ(test, fx->qp->tcp.cnt[MADCM_RNIC_TCP_RX_DATA_BYTES],
			(u64)sizeof(rtr));
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
	{}
};

static struct kunit_suite rnic_tcp_suite = {
	.name = "madcm_rnic_tcp",
	.init = rnic_tcp_init,
	.exit = fx_exit_action,
	.test_cases = rnic_tcp_cases,
};

kunit_test_suite(rnic_tcp_suite);
