// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the CM's TCP details against a peer played by hand: the send
 * window update (RFC 9293 3.10.7.4), the IP TOS / ECN field (RFC 3168,
 * RFC 2873), the first SYN behind neighbour resolution, the receive
 * window offered, challenge ACK throttling (RFC 5961 7), round-trip time
 * estimation and backoff (RFC 6298, Karn's rule) and the peer's window
 * with zero-window probes (RFC 9293 3.8.6.1).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include "tests/kunit/cm_test_util.h"
#include "tests/kunit/mpa_spec.h"

#define LPORT	4300
#define RPORT	35000

/* The shift cm_raw_send() offers in its SYN. */
#define RAW_WSCALE	7

/* RFC 5044 7.1: the largest MPA request, reply or reject. */
#define MAX_MPA_FRAME	(SPEC_HDR_LEN + SPEC_MAX_PD)

static struct irdma_cm_node *rec_node(struct cm_rec *rec)
{
	return irdma_cm_node_of(rec->conn);
}

/*
 * RFC 9293 3.10.7.4, "fifth, check the ACK field": the send window is
 * updated only when SND.UNA =< SEG.ACK =< SND.NXT, and then only by a
 * segment newer than the last update (SND.WL1, SND.WL2). An old
 * duplicate ACK riding on new data does not move it.
 */
static void cm_tcp_wnd_update_needs_current_ack(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_node *node;
	struct cm_raw raw;
	u32 wnd;

	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_established(test, fix, &raw, RPORT, LPORT);
	node = rec_node(&fix->side[0].recs[0]);
	wnd = node->snd_wnd;
	KUNIT_ASSERT_EQ(test, wnd, raw.tmpl.window << RAW_WSCALE);

	/* Data at SND.WL1 that updates nothing: SND.WL1 moves on. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, "abcd", 4, false);
	raw.snd_nxt += 4;
	KUNIT_ASSERT_EQ(test, node->snd_wl1, raw.snd_nxt - 4);
	KUNIT_ASSERT_EQ(test, node->snd_wnd, wnd);

	/* New data (SEG.SEQ > SND.WL1) with SEG.ACK = SND.UNA - 1. */
	raw.tmpl.window = 3;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt - 1, "efgh", 4, false);
	raw.snd_nxt += 4;
	KUNIT_EXPECT_EQ(test, node->snd_wnd, wnd);

	/* The same with SEG.ACK = SND.UNA: the window moves. */
	raw.tmpl.window = 5;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, "ijkl", 4, false);
	raw.snd_nxt += 4;
	KUNIT_EXPECT_EQ(test, node->snd_wnd, 5U << RAW_WSCALE);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * RFC 3168 6.1.1: a TCP that did not negotiate ECN sends Not-ECT (the
 * ECN field zero); RFC 2873: the precedence (TOS) of a received segment
 * is ignored, so the passive side does not take the peer's. An active
 * open sends the consumer's DSCP, without its ECN bits.
 */
static void cm_tcp_tos_not_reflected(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	struct cm_raw raw;

	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	/* DSCP EF (46) and ECT(1). */
	raw.tmpl.tos = (46 << 2) | 1;
	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.tos & 3, 0);
	KUNIT_EXPECT_EQ(test, seg.tos, 0);

	/* DSCP AF11 (10) and CE from the consumer: the DSCP only. */
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT + 1,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr.tos = (10 << 2) | 3;
	cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_SYN);
	KUNIT_EXPECT_EQ(test, seg.tos, 10 << 2);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * The first SYN leaves as soon as the neighbour resolves, not one RTO
 * later (here the RTO is 600 s), and the wait spends no retransmission.
 */
static void cm_tcp_syn_sent_on_resolution(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	struct cm_raw raw;

	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	/* Unresolved at connect and at the first send. */
	madcm_wire_loop_set_resolve_delay(fix->port[0], 2);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr.loc.port = LPORT;
	cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_SYN);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS), 0);
	KUNIT_EXPECT_GE(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RESOLVE_WAIT), 1);
	/* Once: no copy follows. */
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	cm_expect_drained(test, fix->core[0]);
}

/* A neighbour that never resolves still ends at the retry limit. */
static void cm_tcp_unresolved_gives_up(struct kunit *test)
{
	static const struct madcm_cm_config cfg = {
		.rto_min_ms = 10, .rto_max_ms = 40, .max_retrans = 3,
		.time_wait_ms = 600000, .fin_wait2_ms = 600000,
		.mpa_timeout_ms = 600000,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct cm_raw raw;
	struct cm_rec *a;

	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	madcm_wire_loop_set_resolve_delay(fix->port[0], U32_MAX);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, a->status[0], -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS_LIMIT), 1);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	cm_expect_drained(test, fix->core[0]);
}

/*
 * The CM takes one MPA frame from the peer (RFC 5044 7.1: 20 octets and
 * at most 512 of private data); it offers that much window, no more
 * than one unit of its window scale above it, so that a blind injection
 * (RFC 5961) has that much room only. A SYN's window is never scaled
 * (RFC 7323 2.2).
 */
static void cm_tcp_rcv_wnd_what_cm_takes(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	u8 frame[64];
	u32 n, unit;

	fix->side[0].policy = CM_TEST_HOLD;
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_TRUE(test, seg.opts.has_wscale);
	unit = 1U << seg.opts.wscale;
	KUNIT_EXPECT_GE(test, seg.window, MAX_MPA_FRAME);
	KUNIT_EXPECT_LT(test, seg.window, MAX_MPA_FRAME + unit);

	raw.snd_nxt = raw.iss + 1;
	raw.rcv_nxt = seg.seq + 1;
	n = cm_raw_mpa_frame(frame, true, false, 1, NULL, 0, 0, 0);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt,
		    frame, n, false);
	raw.snd_nxt += n;
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	KUNIT_EXPECT_GE(test, (u32)seg.window * unit, MAX_MPA_FRAME);
	KUNIT_EXPECT_LT(test, (u32)seg.window * unit, MAX_MPA_FRAME + unit);

	/* Without window scaling. */
	raw.tmpl.src.port = RPORT + 1;
	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_FALSE(test, seg.opts.has_wscale);
	KUNIT_EXPECT_GE(test, seg.window, MAX_MPA_FRAME);
	KUNIT_EXPECT_LT(test, seg.window, MAX_MPA_FRAME + unit);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * Count what the raw peer (the fixture's second port) received: every
 * frame must be an ACK with no data and no other flag.
 */
static int cm_tcp_take_acks(struct kunit *test, struct cm_fix *fix)
{
	struct irdma_cm_seg seg;
	int n, acks = 0;
	u8 *frame;

	madcm_wire_loop_quiesce(fix->loop);
	frame = kunit_kzalloc(test, 2048, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	while ((n = madcm_wire_loop_take(fix->port[1], frame, 2048, 0)) >= 0) {
		KUNIT_ASSERT_EQ(test, irdma_cm_parse_seg(frame, n, &seg),
				IRDMA_SEG_OK);
		KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_ACK);
		KUNIT_EXPECT_EQ(test, seg.payload_len, 0);
		acks++;
	}
	return acks;
}

/*
 * RFC 5961 7: challenge ACKs are throttled. A burst of 100 RSTs inside
 * the window but off RCV.NXT gets fewer than 100 challenge ACKs, each
 * one counted, and the rest counted as throttled.
 */
static void cm_tcp_challenge_acks_throttled(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_core *core;
	struct cm_raw raw;
	int i, acks;

	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_established(test, fix, &raw, RPORT, LPORT);
	core = fix->core[0];
	for (i = 0; i < 100; i++)
		cm_raw_send(test, &raw, IRDMA_TCP_RST, raw.snd_nxt + 1 + i, 0,
			    NULL, 0, false);
	acks = cm_tcp_take_acks(test, fix);
	KUNIT_EXPECT_GE(test, acks, 1);
	KUNIT_EXPECT_LT(test, acks, 100);
	KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_CHALLENGE_ACK), acks);
	KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_CHALLENGE_ACK_LIMITED),
			100 - acks);
	KUNIT_EXPECT_EQ(test, fix->side[0].terminals, 0);
	cm_expect_drained(test, core);
}

/*
 * RFC 9293 3.10.7.4 answers a segment outside the receive window, and
 * an ACK of data not yet sent, with an ACK. Unlimited, two peers that
 * disagree on the sequence space answer each other forever, and a
 * spoofer gets one ACK per segment it sends. As Linux's
 * tcp_invalid_ratelimit: one such ACK per oow_ack_ms on a connection for
 * segments without data (pure ACKs), the rest counted; a segment that
 * carries data is always answered (its ACK is what repairs its sender).
 */
static void cm_tcp_invalid_acks_rate_limited(struct kunit *test)
{
	struct madcm_cm_config cfg = cm_test_quiet_cfg;
	struct irdma_cm_core *core;
	struct cm_fix *fix;
	struct cm_raw raw;
	u64 drop_ack0;
	int i;

	/* One period covers the whole case, however slow the machine. */
	cfg.oow_ack_ms = 60000;
	fix = cm_fix_create(test, 1, true, &cfg, 2);
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_established(test, fix, &raw, RPORT, LPORT);
	core = fix->core[0];
	KUNIT_ASSERT_EQ(test, cm_tcp_take_acks(test, fix), 0);
	drop_ack0 = cm_cnt(core, IRDMA_CM_CNT_SEQ_DROP_ACK);

	/* 50 pure ACKs far outside the receive window: one answer. */
	for (i = 0; i < 50; i++)
		cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt + (1U << 30),
			    raw.rcv_nxt, NULL, 0, false);
	KUNIT_EXPECT_EQ(test, cm_tcp_take_acks(test, fix), 1);

	/* 20 in-window ACKs of 1000 octets never sent: none. */
	for (i = 0; i < 20; i++)
		cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt,
			    raw.rcv_nxt + 1000, NULL, 0, false);
	KUNIT_EXPECT_EQ(test, cm_tcp_take_acks(test, fix), 0);
	KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_OOW_ACK_LIMITED), 69);

	/* Old data, entirely below RCV.NXT, retransmitted: answered. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt - 8,
		    raw.rcv_nxt, "abcd", 4, false);
	KUNIT_EXPECT_EQ(test, cm_tcp_take_acks(test, fix), 1);
	KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_SEQ_DROP_ACK) - drop_ack0,
			71);
	KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_OOW_ACK_LIMITED), 69);
	KUNIT_EXPECT_EQ(test, fix->side[0].terminals, 0);
	cm_expect_drained(test, core);
}

/*
 * RFC 6298 2.2: the first measurement R gives SRTT = R, RTTVAR = R / 2
 * and RTO = SRTT + max(G, 4 * RTTVAR), about 3R, within the bounds
 * (2.4, 2.5). The peer acknowledges the SYN-ACK after at least 100 ms
 * and at most the time the test measured around it; the initial RTO
 * (10 s) is far outside both.
 */
static void cm_tcp_rto_from_rtt(struct kunit *test)
{
	static const struct madcm_cm_config cfg = {
		.rto_min_ms = 10, .rto_initial_ms = 10000,
		.rto_max_ms = 60000, .max_retrans = 3,
		.time_wait_ms = 600000, .fin_wait2_ms = 600000,
		.mpa_timeout_ms = 600000,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cfg, 2);
	unsigned long t0, t1, lo = msecs_to_jiffies(100);
	struct irdma_cm_node *node;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	u8 frame[64];
	u32 n;

	fix->side[0].policy = CM_TEST_HOLD;
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	t0 = jiffies;
	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	raw.snd_nxt = raw.iss + 1;
	raw.rcv_nxt = seg.seq + 1;
	msleep(100 + jiffies_to_msecs(1));
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt, NULL,
		    0, false);
	t1 = jiffies;
	n = cm_raw_mpa_frame(frame, true, false, 1, NULL, 0, 0, 0);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt,
		    frame, n, false);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 1));
	node = rec_node(&fix->side[0].recs[0]);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS), 0);
	/* 3R, R in [lo, t1 - t0], one jiffy of rounding either way. */
	KUNIT_EXPECT_GE(test, node->rto, 3 * lo - 1);
	KUNIT_EXPECT_LE(test, node->rto, 3 * (t1 - t0) + 1);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * Our SYN-ACK times out once with an RTO of @r0_ms (under 3 s), then the
 * handshake ends and the MPA request arrives: RFC 6298 5.7 wants the RTO
 * at exactly 3 s then, whatever the expiry (5.5: 2 x R0) made of it, and
 * the ACK of the retransmitted SYN-ACK gives no RTT measurement (Karn).
 */
static void cm_tcp_syn_backoff_then_data(struct kunit *test, u32 r0_ms)
{
	struct madcm_cm_config cfg = {
		.rto_min_ms = 10, .rto_initial_ms = r0_ms,
		.rto_max_ms = 60000, .max_retrans = 5,
		.time_wait_ms = 600000, .fin_wait2_ms = 600000,
		.mpa_timeout_ms = 600000,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cfg, 2);
	struct irdma_cm_node *node;
	struct irdma_cm_seg seg, again;
	struct cm_raw raw;
	u8 frame[64];
	u32 n;

	fix->side[0].policy = CM_TEST_HOLD;
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	/* Not acknowledged: the SYN-ACK comes again after R0. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &again, NULL, 0));
	KUNIT_ASSERT_EQ(test, again.seq, seg.seq);
	KUNIT_ASSERT_TRUE(test, again.flags & IRDMA_TCP_SYN);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS), 1);

	raw.snd_nxt = raw.iss + 1;
	raw.rcv_nxt = seg.seq + 1;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt, NULL,
		    0, false);
	n = cm_raw_mpa_frame(frame, true, false, 1, NULL, 0, 0, 0);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt,
		    frame, n, false);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 1));
	node = rec_node(&fix->side[0].recs[0]);
	KUNIT_EXPECT_FALSE(test, test_bit(IRDMA_CM_F_RTT_VALID, &node->flags));
	KUNIT_EXPECT_EQ(test, node->rto, msecs_to_jiffies(3000));
	cm_expect_drained(test, fix->core[0]);
}

/*
 * RFC 6298 5.5 and 5.7 with Karn's rule (RFC 6298 3 and 5, after 5.7):
 * each expiry doubles the RTO; an ACK of a retransmitted segment gives
 * no RTT measurement, so it does not collapse the backed-off RTO (only a
 * new measurement does); and when the SYN (here our SYN-ACK) timed out
 * with an RTO under 3 s, the RTO is 3 s once the handshake is done.
 * R0 = 200 ms: one expiry gives 400 ms; the handshake's end gives 3 s.
 */
static void cm_tcp_backoff_kept_without_sample(struct kunit *test)
{
	cm_tcp_syn_backoff_then_data(test, 200);
}

/*
 * RFC 6298 5.7 once the backoff passed 3 s: R0 = 1.6 s (under 3 s), one
 * expiry gives 3.2 s, and the RTO is re-initialized to 3 s when data
 * transmission begins, not left at 3.2 s. Linux does the same
 * (tcp_init_metrics(): TCP_TIMEOUT_FALLBACK without an RTT sample). A
 * backed-off RTO kept there gave an MPA request two sends in a 10 s MPA
 * timeout instead of three (pair/21 under 5% loss, testing.rst).
 */
static void cm_tcp_syn_backoff_reinitialized_to_3s(struct kunit *test)
{
	cm_tcp_syn_backoff_then_data(test, 1600);
}

/*
 * Karn's rule on data (RFC 6298 5, after 5.7): the MPA reply times out
 * at least once, each time doubling the RTO (5.5) from the one the
 * handshake's measurement gave (RTO base); the peer's ACK of the copy
 * gives no measurement, so the RTO stays at 2 x base or more (up to RTO
 * max) for what follows instead of falling back to the base.
 */
static void cm_tcp_backoff_kept_after_data_retransmit(struct kunit *test)
{
	static const struct madcm_cm_config cfg = {
		.rto_min_ms = 10, .rto_initial_ms = 100,
		.rto_max_ms = 200, .max_retrans = 20,
		.time_wait_ms = 600000, .fin_wait2_ms = 600000,
		.mpa_timeout_ms = 600000,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cfg, 2);
	struct madcm_cm_accept_attr acc = {};
	struct irdma_cm_node *node;
	struct irdma_cm_seg seg;
	unsigned long rto, base, want;
	struct cm_raw raw;
	struct cm_rec *p;
	bool acked;

	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_drive(test, fix, &raw, CM_RAW_REQ_RCVD, RPORT, LPORT);
	p = &fix->side[0].recs[0];
	node = rec_node(p);
	KUNIT_ASSERT_EQ(test, madcm_cm_accept(p->conn, &acc), 0);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.payload_len, SPEC_HDR_LEN);
	/* Not acknowledged: the copy. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.payload_len, SPEC_HDR_LEN);
	KUNIT_ASSERT_GE(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS), 1);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt,
		    raw.rcv_nxt + SPEC_HDR_LEN, NULL, 0, false);
	irdma_cm_node_lock(node);
	acked = node->snd_una == node->snd_nxt;
	rto = node->rto;
	base = node->rto_base;
	irdma_cm_node_unlock(node);
	KUNIT_EXPECT_TRUE(test, acked);
	want = min(2 * base, msecs_to_jiffies(200));
	KUNIT_EXPECT_GE(test, rto, want);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * The next segment with data. With a 10 ms RTO, a slow test thread (a
 * loaded host) may see the SYN-ACK again first (the test makes sure it
 * does), or a probe the timer sent just before the window opened: both
 * are correct, and skipped.
 */
static bool probes_recv_data(struct kunit *test, struct cm_raw *raw,
			     struct irdma_cm_seg *seg, u8 *buf, u32 size,
			     u32 skip_probe_at)
{
	while (cm_raw_recv_data(test, raw, seg, buf, size)) {
		if (seg->flags & IRDMA_TCP_SYN)
			continue;
		if (seg->payload_len == 1 && seg->seq == skip_probe_at)
			continue;
		if (seg->payload_len)
			return true;
	}
	return false;
}

/*
 * RFC 9293 3.8.6 and 3.8.6.1: the CM sends no more than the peer's
 * window; into a zero window it sends a probe of one octet of new data
 * after an RTO, and again with backoff while the window stays shut;
 * once the window opens it sends what fits, then the rest.
 */
static void cm_tcp_peer_window_and_probes(struct kunit *test)
{
	static const struct madcm_cm_config cfg = {
		.rto_min_ms = 10, .rto_max_ms = 80, .max_retrans = 50,
		.time_wait_ms = 600000, .fin_wait2_ms = 600000,
		.mpa_timeout_ms = 600000,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cfg, 2);
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	u8 pd[200], frame[64], *want, *got;
	u32 n, len, base;
	int i;

	for (i = 0; i < sizeof(pd); i++)
		pd[i] = i ^ 0x5a;
	want = kunit_kzalloc(test, 600, GFP_KERNEL);
	got = kunit_kzalloc(test, 600, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, want && got);
	len = cm_raw_mpa_frame(want, false, false, 1, pd, sizeof(pd), 0, 0);
	fix->side[0].reply_pdata = pd;
	fix->side[0].reply_len = sizeof(pd);
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	/*
	 * The handshake, the ACK late: the SYN-ACK is resent (RTO at most
	 * 80 ms) at least once before it, as on a slow host.
	 */
	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	raw.snd_nxt = raw.iss + 1;
	raw.rcv_nxt = seg.seq + 1;
	msleep(200);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt,
		    NULL, 0, false);
	base = raw.rcv_nxt;

	/* The request, with the window shut. */
	raw.tmpl.window = 0;
	n = cm_raw_mpa_frame(frame, true, false, 1, NULL, 0, 0, 0);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, frame, n, false);
	raw.snd_nxt += n;
	/* Two probes of the reply's first octet: not taken, window 0. */
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_TRUE(test, probes_recv_data(test, &raw, &seg, got,
							 600, base - 1));
		KUNIT_EXPECT_EQ(test, seg.seq, base);
		KUNIT_ASSERT_EQ(test, seg.payload_len, 1);
		KUNIT_EXPECT_EQ(test, got[0], want[0]);
		cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, base, NULL,
			    0, false);
	}
	/* One unit of scale open: that many octets, from the first. */
	raw.tmpl.window = 1;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, base, NULL, 0,
		    false);
	KUNIT_ASSERT_TRUE(test, probes_recv_data(test, &raw, &seg, got, 600,
						 base));
	KUNIT_EXPECT_EQ(test, seg.seq, base);
	KUNIT_ASSERT_EQ(test, seg.payload_len, 1U << RAW_WSCALE);
	/* Taken; the window opens wide: the rest, as one segment. */
	raw.tmpl.window = 8192;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt,
		    base + (1U << RAW_WSCALE), NULL, 0, false);
	do {
		KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg,
							 got + (1U << RAW_WSCALE),
							 600 - (1U << RAW_WSCALE)));
	} while (seg.seq != base + (1U << RAW_WSCALE));
	KUNIT_ASSERT_EQ(test, seg.payload_len, len - (1U << RAW_WSCALE));
	KUNIT_EXPECT_EQ(test, memcmp(got, want, len), 0);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, base + len, NULL,
		    0, false);
	KUNIT_EXPECT_EQ(test, fix->side[0].terminals, 0);
	cm_expect_drained(test, fix->core[0]);
}

static struct kunit_case cm_tcp_cases[] = {
	KUNIT_CASE(cm_tcp_wnd_update_needs_current_ack),
	KUNIT_CASE(cm_tcp_tos_not_reflected),
	KUNIT_CASE(cm_tcp_syn_sent_on_resolution),
	KUNIT_CASE(cm_tcp_unresolved_gives_up),
	KUNIT_CASE(cm_tcp_rcv_wnd_what_cm_takes),
	KUNIT_CASE(cm_tcp_challenge_acks_throttled),
	KUNIT_CASE(cm_tcp_invalid_acks_rate_limited),
	KUNIT_CASE(cm_tcp_rto_from_rtt),
	KUNIT_CASE(cm_tcp_backoff_kept_without_sample),
	KUNIT_CASE(cm_tcp_syn_backoff_reinitialized_to_3s),
	KUNIT_CASE(cm_tcp_backoff_kept_after_data_retransmit),
	KUNIT_CASE(cm_tcp_peer_window_and_probes),
	{}
};

static struct kunit_suite cm_tcp_suite = {
	.name = "madcm_cm_tcp",
	.test_cases = cm_tcp_cases,
};

kunit_test_suite(cm_tcp_suite);
