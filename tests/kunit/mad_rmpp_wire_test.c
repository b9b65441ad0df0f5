// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: RMPP on the wire, one MAD at a time. The "manual" transport shows
 * the test every MAD madcm sends and lets it play the peer: a receiver
 * that ACKs, STOPs and ABORTs, a sender that breaks the rules, a hostile
 * sender that tries to make the receiver hold more than its limits, and
 * both sides of the dual-sided start-up with its turn-around ACK
 * (IBTA vol. 1 13.6.3 to 13.6.5). Every expected field is written from
 * the spec in mad_rmpp_util.h.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "mad/fault.h"
#include "mad/mad_priv.h"
#include "mad/rmpp.h"
#include "mad_rmpp_util.h"
#include "madcm_compat.h"

#define LID_ME		1
#define LID_PEER	2
#define WINDOW		64

struct wire {
	struct mt_manual *mm;
	int seen;
	u8 mad[RT_MAD];
	u8 out[RT_MAD];
};

static int wire_init(struct kunit *test)
{
	return rt_params_init(test, WINDOW, 2000);
}

static struct wire *wire_new(struct kunit *test)
{
	struct wire *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->mm = mt_manual_port(test, LID_ME, false);
	return w;
}

/* Take the next MAD madcm sent into w->out, and complete its send. */
static void take(struct kunit *test, struct wire *w)
{
	struct mt_post *p;

	KUNIT_ASSERT_TRUE(test, mt_wait_posts(w->mm, w->seen + 1));
	p = mt_manual_pop(w->mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	w->seen++;
	memcpy(w->out, p->mad, RT_MAD);
	KUNIT_EXPECT_EQ(test, p->len, RT_MAD);
	KUNIT_EXPECT_EQ(test, p->dlid, LID_PEER);
	mt_manual_complete(w->mm, p, IB_WC_SUCCESS);
}

/* Nothing more was sent. */
static int unsent(struct wire *w)
{
	return READ_ONCE(w->mm->nr_posts) - w->seen;
}

static void deliver(struct wire *w)
{
	mt_manual_deliver(w->mm, w->mad, RT_MAD, 1, LID_PEER, 1);
}

static void expect_rmpp(struct kunit *test, const u8 *m, u8 method, u8 type,
			u8 status, u32 seg)
{
	KUNIT_EXPECT_EQ(test, m[3], method);
	KUNIT_EXPECT_EQ(test, m[RT_OFF_VERSION], 1);
	KUNIT_EXPECT_EQ(test, m[RT_OFF_TYPE], type);
	KUNIT_EXPECT_TRUE(test, m[RT_OFF_FLAGS] & RT_FLAG_ACTIVE);
	KUNIT_EXPECT_EQ(test, m[RT_OFF_STATUS], status);
	KUNIT_EXPECT_EQ(test, rt_get32(m, RT_OFF_SEG), seg);
}

static u64 tid_of(struct mt_agent *ma, u32 lo)
{
	return (u64)ma->agent->hi_tid << 32 | lo;
}

/* The sender: headers of each segment, a window of one, then ACKs. */
static void sender_follows_window_and_acks(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct mt_agent *ma = rt_agent(test, w->mm->port, NULL, 0, 0, log);
	struct ib_mad_send_buf *sb;
	u64 tid = tid_of(ma, 5);
	int j;

	ma->mm = w->mm;
	/* 500 bytes: 3 segments of 200, 100 bytes of padding. */
	sb = rt_send(test, ma->agent, mt_ah(test, w->mm->port, LID_PEER),
		     RT_SET, 5, 500, 1, 0, 3);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET, RT_TYPE_DATA, 0, 1);
	KUNIT_EXPECT_EQ(test, w->out[RT_OFF_FLAGS] & 7,
			RT_FLAG_ACTIVE | RT_FLAG_FIRST);
	KUNIT_EXPECT_EQ(test, rt_get32(w->out, RT_OFF_PAYLEN),
			3 * RT_PAYLOAD - 100);
	for (j = 0; j < RT_DATA; j++)
		KUNIT_EXPECT_EQ(test, w->out[RT_HDR + j], rt_pattern(j, 1));
	/* The first window is segment 1 alone (13.6.3.1). */
	KUNIT_EXPECT_EQ(test, unsent(w), 0);

	rt_mad(w->mad, RT_SET | RT_RESP, tid, RT_TYPE_ACK, RT_FLAG_ACTIVE, 0,
	       1, 2);
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET, RT_TYPE_DATA, 0, 2);
	KUNIT_EXPECT_EQ(test, w->out[RT_OFF_FLAGS] & 7, RT_FLAG_ACTIVE);
	KUNIT_EXPECT_EQ(test, rt_get32(w->out, RT_OFF_PAYLEN), 0);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);

	rt_mad(w->mad, RT_SET | RT_RESP, tid, RT_TYPE_ACK, RT_FLAG_ACTIVE, 0,
	       2, 3);
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET, RT_TYPE_DATA, 0, 3);
	KUNIT_EXPECT_EQ(test, w->out[RT_OFF_FLAGS] & 7,
			RT_FLAG_ACTIVE | RT_FLAG_LAST);
	KUNIT_EXPECT_EQ(test, rt_get32(w->out, RT_OFF_PAYLEN),
			RT_PAYLOAD - 100);
	for (j = 0; j < RT_DATA; j++)
		KUNIT_EXPECT_EQ(test, w->out[RT_HDR + j],
				j < 100 ? rt_pattern(400 + j, 1) : 0);
	KUNIT_EXPECT_EQ(test, log->sends, 0);

	rt_mad(w->mad, RT_SET | RT_RESP, tid, RT_TYPE_ACK, RT_FLAG_ACTIVE, 0,
	       3, 3);
	deliver(w);
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_SUCCESS], 1);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
}

/* No ACK: the segment is resent per retry, then ABORT (TMR). */
static void sender_without_acks_aborts_tmr(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct mt_agent *ma = rt_agent(test, w->mm->port, NULL, 0, 0, log);
	struct ib_mad_send_buf *sb;
	int i;

	ma->mm = w->mm;
	madcm_rmpp_ack_timeout_ms = 20;
	sb = rt_send(test, ma->agent, mt_ah(test, w->mm->port, LID_PEER),
		     RT_SET, 6, 300, 1, 0, 2);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	for (i = 0; i < 3; i++) {
		take(test, w);
		expect_rmpp(test, w->out, RT_SET, RT_TYPE_DATA, 0, 1);
	}
	take(test, w);
	expect_rmpp(test, w->out, RT_SET, RT_TYPE_ABORT, RT_ST_TMR, 0);
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_RESP_TIMEOUT_ERR], 1);
	KUNIT_EXPECT_EQ(test, log->last_retries, 2);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_RMPP_TX_RESEG),
			2);
}

/* A sender cancelled in the middle of its transfer ABORTs it (13.6.3). */
static void sender_cancel_mid_transfer_aborts(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct mt_agent *ma = rt_agent(test, w->mm->port, NULL, 0, 0, log);
	struct ib_mad_send_buf *sb;

	ma->mm = w->mm;
	sb = rt_send(test, ma->agent, mt_ah(test, w->mm->port, LID_PEER),
		     RT_SET, 7, 500, 1, 0, 3);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET, RT_TYPE_DATA, 0, 1);
	madcm_cancel_mad(sb);
	take(test, w);
	/* Sender to receiver: the method of the DATA, status unspecified. */
	expect_rmpp(test, w->out, RT_SET, RT_TYPE_ABORT, 127, 0);
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_WR_FLUSH_ERR], 1);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
}

/* So does one whose agent is unregistered in the middle of it. */
static void sender_unregistered_mid_transfer_aborts(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct mt_agent *ma = rt_agent(test, w->mm->port, NULL, 0, 0, log);
	struct ib_mad_send_buf *sb;

	ma->mm = w->mm;
	sb = rt_send(test, ma->agent, mt_ah(test, w->mm->port, LID_PEER),
		     RT_SET, 8, 500, 1, 0, 3);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w);
	mt_unregister(ma);
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_WR_FLUSH_ERR], 1);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET, RT_TYPE_ABORT, 127, 0);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
}

/*
 * Modifying a transfer that waits for its ACKs changes its ACK time: it
 * still ends when the last segment is acknowledged, and does not start
 * waiting for a response it never asked for. send_buf->timeout_ms
 * follows the call, as with ib_modify_mad().
 */
static void modify_rmpp_send_keeps_waiting_for_acks(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct mt_agent *ma = rt_agent(test, w->mm->port, NULL, 0, 0, log);
	struct ib_mad_send_buf *sb;
	u64 tid = tid_of(ma, 9);

	ma->mm = w->mm;
	sb = rt_send(test, ma->agent, mt_ah(test, w->mm->port, LID_PEER),
		     RT_SET, 9, 500, 1, 0, 3);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w);
	KUNIT_EXPECT_EQ(test, madcm_modify_mad(sb, 50), 0);
	KUNIT_EXPECT_EQ(test, sb->timeout_ms, 50);
	rt_mad(w->mad, RT_SET | RT_RESP, tid, RT_TYPE_ACK, RT_FLAG_ACTIVE, 0,
	       1, 3);
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET, RT_TYPE_DATA, 0, 2);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET, RT_TYPE_DATA, 0, 3);
	rt_mad(w->mad, RT_SET | RT_RESP, tid, RT_TYPE_ACK, RT_FLAG_ACTIVE, 0,
	       3, 3);
	deliver(w);
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_SUCCESS], 1);
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_RESP_TIMEOUT_ERR], 0);
	/* No turn-around ACK: no response is expected. */
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
}

/* As with ib_core, an RMPP agent posts MADs of RMPP classes only. */
static void rmpp_agent_refuses_non_rmpp_class(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct mt_agent *ma = rt_agent(test, w->mm->port, NULL, 0, 0, log);
	struct ib_mad_send_buf *sb;

	ma->mm = w->mm;
	sb = rt_send(test, ma->agent, mt_ah(test, w->mm->port, LID_PEER),
		     RT_SET, 10, 500, 1, 0, 3);
	/* Performance management (0x04) has no RMPP (13.6.1). */
	((struct ib_mad_hdr *)sb->mad)->mgmt_class = 0x04;
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
	madcm_free_send_mad(sb);
}

struct ctl_param {
	const char *name;
	u8 type;
	u8 status;
	u32 seg;
	u32 newwin;
	u8 abort;	/* the ABORT status madcm answers with, 0 for none */
};

static const struct ctl_param ctl_params[] = {
	{ "STOP, resources", RT_TYPE_STOP, RT_ST_RESX, 0, 0, 0 },
	{ "STOP, bad status", RT_TYPE_STOP, 7, 0, 0, RT_ST_BAD_STATUS },
	{ "ABORT T2L", RT_TYPE_ABORT, RT_ST_T2L, 0, 0, 0 },
	{ "ABORT unspecified", RT_TYPE_ABORT, 127, 0, 0, 0 },
	{ "ACK with a status", RT_TYPE_ACK, 5, 1, 2, RT_ST_BAD_STATUS },
	{ "ACK window too small", RT_TYPE_ACK, 0, 1, 0, RT_ST_W2S },
	{ "ACK segment too big", RT_TYPE_ACK, 0, 5, 5, RT_ST_S2B },
	{ "ACK past the window", RT_TYPE_ACK, 0, 2, 3, RT_ST_S2B },
};

static void ctl_desc(const struct ctl_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ctl, ctl_params, ctl_desc);

/* STOP, ABORT and bad ACKs end the send with IB_WC_REM_ABORT_ERR. */
static void sender_ends_on_stop_abort_bad_ack(struct kunit *test)
{
	const struct ctl_param *p = test->param_value;
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct mt_agent *ma = rt_agent(test, w->mm->port, NULL, 0, 0, log);
	struct ib_mad_send_buf *sb;

	ma->mm = w->mm;
	sb = rt_send(test, ma->agent, mt_ah(test, w->mm->port, LID_PEER),
		     RT_SET, 8, 500, 1, 0, 3);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w);
	rt_mad(w->mad, RT_SET | RT_RESP, tid_of(ma, 8), p->type,
	       RT_FLAG_ACTIVE, p->status, p->seg, p->newwin);
	deliver(w);
	if (p->abort) {
		take(test, w);
		expect_rmpp(test, w->out, RT_SET, RT_TYPE_ABORT, p->abort, 0);
	}
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_REM_ABORT_ERR], 1);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
}

static struct mt_agent *receiver(struct kunit *test, struct wire *w,
				 struct rt_agent_log *log, u8 method)
{
	u8 methods[] = { method };
	struct mt_agent *ma = rt_agent(test, w->mm->port, methods, 1, 0, log);

	ma->mm = w->mm;
	return ma;
}

/* Out of order and duplicate segments make one transfer, ACKed. */
static void receiver_reassembles_reordered_duplicates(struct kunit *test)
{
	static const u32 order[] = { 1, 3, 2, 2, 3, 1 };
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 500, 4);
	u64 tid = 0x1234500000001ULL;
	u32 last_ack = 0;
	int i;

	receiver(test, w, log, RT_SET);
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		rt_data_seg(w->mad, RT_SET, tid, order[i], 3, 500, 4);
		deliver(w);
		while (unsent(w)) {
			take(test, w);
			expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_ACK,
				    0, rt_get32(w->out, RT_OFF_SEG));
			/* NewWindowLast never below SegmentNumber (13.6.3.2). */
			KUNIT_EXPECT_GE(test, rt_get32(w->out, RT_OFF_PAYLEN),
					rt_get32(w->out, RT_OFF_SEG));
			KUNIT_EXPECT_GE(test, rt_get32(w->out, RT_OFF_SEG),
					last_ack);
			last_ack = rt_get32(w->out, RT_OFF_SEG);
		}
	}
	KUNIT_EXPECT_EQ(test, last_ack, 3);
	KUNIT_EXPECT_EQ(test, log->transfers, 1);
	KUNIT_EXPECT_EQ(test, log->bad, 0);
	KUNIT_EXPECT_EQ(test, log->nseg, 3);
	KUNIT_EXPECT_EQ(test, log->mad_len, RT_HDR + 500);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_RMPP_RX_DUP),
			3);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->rmpp_reassemblies), 0);
}

/*
 * A transport that cannot make an address handle in atomic context (the
 * ib_core one on RoCE): the receiver's ACKs still go out, in order of
 * their SegmentNumber, and the transfer completes.
 */
static void receiver_acks_when_ah_sleeps(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 500, 4);
	u64 tid = 0x1234500000002ULL;
	u32 seg, seen = 0;
	int i;

	w->mm->ah_sleeps = true;
	receiver(test, w, log, RT_SET);
	for (seg = 1; seg <= 3; seg++) {
		rt_data_seg(w->mad, RT_SET, tid, seg, 3, 500, 4);
		deliver(w);
	}
	/*
	 * An ACK for segment 1 and one for the last segment (13.6.4.2), in
	 * either order: they are posted from the workqueue.
	 */
	for (i = 0; i < 2; i++) {
		take(test, w);
		expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_ACK, 0,
			    rt_get32(w->out, RT_OFF_SEG));
		seen |= BIT(rt_get32(w->out, RT_OFF_SEG) & 31);
	}
	KUNIT_EXPECT_EQ(test, seen, BIT(1) | BIT(3));
	KUNIT_EXPECT_EQ(test, log->transfers, 1);
	KUNIT_EXPECT_EQ(test, log->nseg, 3);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_TX_REPLY_FAIL),
			0);
	for (i = 0; i < 50 && atomic_read(&w->mm->port->live_replies); i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->live_replies), 0);
}

/*
 * Address resolution that hangs (a RoCE neighbour that never answers)
 * while a peer keeps eliciting control MADs: at most
 * MADCM_RMPP_CTL_QUEUE_MAX of them wait for an address handle, the rest
 * are dropped and counted (issue 14, item 6), and a request's timeout still
 * fires meanwhile: timeouts never wait behind address resolution.
 */
static void ctl_queue_bounded_when_ah_hangs(struct kunit *test)
{
	const int n = 4 * MADCM_RMPP_CTL_QUEUE_MAX;
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 500, 4);
	struct rt_agent_log *slog = rt_log(test, 0, 0);
	struct madcm_port *port = w->mm->port;
	struct completion *gate;
	struct ib_mad_send_buf *sb;
	struct mt_agent *ma;
	struct ib_ah *ah;
	bool timed_out;
	int i, queued;

	gate = kunit_kzalloc(test, sizeof(*gate), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, gate);
	init_completion(gate);
	receiver(test, w, log, RT_SET);
	ma = rt_agent(test, port, NULL, 0, 0, slog);
	ma->mm = w->mm;
	/* Made before resolution hangs. */
	ah = mt_ah(test, port, LID_PEER);
	w->mm->ah_gate = gate;
	w->mm->ah_sleeps = true;

	/* Each: RMPP version 2, refused with an ABORT (13.6.2.1). */
	for (i = 0; i < n; i++) {
		rt_mad(w->mad, RT_SET, 0x5500000000ULL + i, RT_TYPE_DATA,
		       RT_FLAG_ACTIVE | RT_FLAG_FIRST, 0, 1, 560);
		w->mad[RT_OFF_VERSION] = 2;
		deliver(w);
	}
	queued = atomic_read(&port->live_replies);

	/*
	 * One segment, no retry, 100 ms for its ACK; the segment leaves (the
	 * wire completes it), nobody answers. Running out of time, the sender
	 * ABORTs (13.6.3.3): one more control MAD, dropped as well.
	 */
	sb = rt_send(test, ma->agent, ah, RT_SET, 7, 100, 1, 100, 0);
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET, RT_TYPE_DATA, 0, 1);
	timed_out = rt_wait(&slog->sent, 10);

	/* Let resolution finish before anything can end the test. */
	complete_all(gate);
	KUNIT_EXPECT_TRUE(test, mt_wait_posts(w->mm, 1 + queued));
	/* What waited went out: the ABORTs, each with its status. */
	while (unsent(w)) {
		take(test, w);
		expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_ABORT,
			    RT_ST_UNV, 0);
	}
	for (i = 0; i < 250 && atomic_read(&port->live_replies); i++)
		msleep(20);

	KUNIT_EXPECT_EQ(test, queued, MADCM_RMPP_CTL_QUEUE_MAX);
	KUNIT_EXPECT_EQ(test, mt_counter(port, MADCM_CNT_RMPP_CTL_DROP),
			n + 1 - MADCM_RMPP_CTL_QUEUE_MAX);
	KUNIT_EXPECT_EQ(test, mt_counter(port, MADCM_CNT_RMPP_RX_BAD), n);
	KUNIT_EXPECT_TRUE(test, timed_out);
	KUNIT_EXPECT_EQ(test, slog->status[IB_WC_RESP_TIMEOUT_ERR], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->live_replies), 0);
	KUNIT_EXPECT_EQ(test, w->seen, 1 + MADCM_RMPP_CTL_QUEUE_MAX);
}

/*
 * Timeouts never wait behind address resolution (issue 14, item 6), even
 * when every port has its full share of control MADs waiting: ports
 * enough that together they hold more work items than a workqueue runs
 * at once (WQ_DFL_ACTIVE), each at its bound, none dropped. A request's
 * 100 ms timeout must fire while all of them hang. On a workqueue shared
 * with the timeouts, bounding each port would not be enough.
 */
#define HANG_PORTS	DIV_ROUND_UP(WQ_DFL_ACTIVE + 1, MADCM_RMPP_CTL_QUEUE_MAX)

static void timeout_fires_while_every_port_resolves(struct kunit *test)
{
	struct rt_agent_log *log = rt_log(test, 500, 4);
	struct rt_agent_log *slog = rt_log(test, 0, 0);
	struct wire *w[HANG_PORTS];
	struct completion *gate;
	struct ib_mad_send_buf *sb;
	struct mt_agent *ma;
	int i, p, queued = 0;
	struct ib_ah *ah;
	bool timed_out;

	gate = kunit_kzalloc(test, sizeof(*gate), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, gate);
	init_completion(gate);
	for (p = 0; p < HANG_PORTS; p++) {
		w[p] = wire_new(test);
		receiver(test, w[p], log, RT_SET);
	}
	ma = rt_agent(test, w[0]->mm->port, NULL, 0, 0, slog);
	ma->mm = w[0]->mm;
	/* Made before resolution hangs. */
	ah = mt_ah(test, w[0]->mm->port, LID_PEER);
	for (p = 0; p < HANG_PORTS; p++) {
		w[p]->mm->ah_gate = gate;
		w[p]->mm->ah_sleeps = true;
	}

	/* Each: RMPP version 2, refused with an ABORT (13.6.2.1). */
	for (p = 0; p < HANG_PORTS; p++) {
		for (i = 0; i < MADCM_RMPP_CTL_QUEUE_MAX; i++) {
			rt_mad(w[p]->mad, RT_SET, 0x5600000000ULL + i,
			       RT_TYPE_DATA, RT_FLAG_ACTIVE | RT_FLAG_FIRST, 0,
			       1, 560);
			w[p]->mad[RT_OFF_VERSION] = 2;
			deliver(w[p]);
		}
		queued += atomic_read(&w[p]->mm->port->live_replies);
	}

	/* One segment, no retry, 100 ms for its ACK; nobody answers. */
	sb = rt_send(test, ma->agent, ah, RT_SET, 7, 100, 1, 100, 0);
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w[0]);
	timed_out = rt_wait(&slog->sent, 10);

	/* Let resolution finish before anything can end the test. */
	complete_all(gate);
	for (p = 0; p < HANG_PORTS; p++) {
		struct madcm_port *port = w[p]->mm->port;

		/* The ABORTs that waited go out, and complete. */
		KUNIT_EXPECT_TRUE(test, mt_wait_posts(w[p]->mm, w[p]->seen +
						      MADCM_RMPP_CTL_QUEUE_MAX));
		while (unsent(w[p]))
			take(test, w[p]);
		for (i = 0; i < 250 && atomic_read(&port->live_replies); i++)
			msleep(20);
		KUNIT_EXPECT_EQ(test, atomic_read(&port->live_replies), 0);
	}

	KUNIT_EXPECT_EQ(test, queued, HANG_PORTS * MADCM_RMPP_CTL_QUEUE_MAX);
	KUNIT_EXPECT_GT(test, queued, WQ_DFL_ACTIVE);
	KUNIT_EXPECT_TRUE(test, timed_out);
	KUNIT_EXPECT_EQ(test, slog->status[IB_WC_RESP_TIMEOUT_ERR], 1);
}

struct bad_mad {
	u32 seg;
	u8 flags;
	u32 paylen;
	u8 version;
	u8 type;
	u8 status;
};

struct bad_param {
	const char *name;
	int n;
	struct bad_mad m[2];
	u8 abort;
};

/* A first segment of a 3-segment transfer of 500 bytes. */
#define SEG1_OF_3 { 1, RT_FLAG_ACTIVE | RT_FLAG_FIRST, 3 * RT_PAYLOAD - 100, \
		    1, RT_TYPE_DATA, 0 }

static const struct bad_param bad_params[] = {
	{ "segment 1 without FIRST", 1,
	  { { 1, RT_FLAG_ACTIVE, 560, 1, RT_TYPE_DATA, 0 } }, RT_ST_BAD_SEG },
	{ "FIRST on segment 2", 1,
	  { { 2, RT_FLAG_ACTIVE | RT_FLAG_FIRST, 560, 1, RT_TYPE_DATA, 0 } },
	  RT_ST_BAD_SEG },
	{ "segment number 0", 1,
	  { { 0, RT_FLAG_ACTIVE | RT_FLAG_FIRST, 560, 1, RT_TYPE_DATA, 0 } },
	  RT_ST_BAD_SEG },
	{ "segment past the transfer", 2,
	  { SEG1_OF_3, { 5, RT_FLAG_ACTIVE, 0, 1, RT_TYPE_DATA, 0 } },
	  RT_ST_BAD_SEG },
	{ "PayloadLength 0", 1,
	  { { 1, RT_FLAG_ACTIVE | RT_FLAG_FIRST, 0, 1, RT_TYPE_DATA, 0 } },
	  RT_ST_BAD_LEN },
	{ "last PayloadLength inconsistent", 2,
	  { SEG1_OF_3, { 3, RT_FLAG_ACTIVE | RT_FLAG_LAST, 200, 1,
			 RT_TYPE_DATA, 0 } }, RT_ST_BAD_LEN },
	{ "LAST on a middle segment", 2,
	  { SEG1_OF_3, { 2, RT_FLAG_ACTIVE | RT_FLAG_LAST, 120, 1,
			 RT_TYPE_DATA, 0 } }, RT_ST_BAD_LEN },
	{ "one segment longer than a MAD", 1,
	  { { 1, RT_FLAG_ACTIVE | RT_FLAG_FIRST | RT_FLAG_LAST, 300, 1,
	      RT_TYPE_DATA, 0 } }, RT_ST_BAD_LEN },
	{ "RMPP version 2", 1,
	  { { 1, RT_FLAG_ACTIVE | RT_FLAG_FIRST, 560, 2, RT_TYPE_DATA, 0 } },
	  RT_ST_UNV },
	{ "RMPP type 5", 1,
	  { { 1, RT_FLAG_ACTIVE | RT_FLAG_FIRST, 560, 1, 5, 0 } },
	  RT_ST_BADT },
	{ "DATA with a status", 1,
	  { { 1, RT_FLAG_ACTIVE | RT_FLAG_FIRST, 560, 1, RT_TYPE_DATA, 5 } },
	  RT_ST_BAD_STATUS },
};

static void bad_desc(const struct bad_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad, bad_params, bad_desc);

/* Bad input: ABORT with the spec's status, nothing kept, nothing given. */
static void receiver_aborts_bad_input(struct kunit *test)
{
	const struct bad_param *p = test->param_value;
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 500, 4);
	u64 tid = 0x777700000009ULL;
	int i;

	receiver(test, w, log, RT_SET);
	for (i = 0; i < p->n; i++) {
		const struct bad_mad *m = &p->m[i];

		rt_mad(w->mad, RT_SET, tid, m->type, m->flags, m->status,
		       m->seg, m->paylen);
		w->mad[RT_OFF_VERSION] = m->version;
		deliver(w);
	}
	KUNIT_ASSERT_GE(test, unsent(w), 1);
	while (unsent(w))
		take(test, w);
	expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_ABORT, p->abort, 0);
	KUNIT_EXPECT_EQ(test, log->transfers, 0);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_RMPP_RX_BAD),
			1);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&w->mm->port->rmpp_bytes), 0);
}

/* Past the port's limits a transfer gets STOP (resources), no memory. */
static void receiver_refuses_past_limits_with_stop(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct mt_agent *ma;
	int i, stops = 0;
	long bytes;

	madcm_rmpp_max_reassemblies = 4;
	ma = receiver(test, w, log, RT_SET);
	for (i = 0; i < 4; i++) {
		rt_mad(w->mad, RT_SET, 0x4400000000ULL + i, RT_TYPE_DATA,
		       RT_FLAG_ACTIVE | RT_FLAG_FIRST, 0, 1, 100 * RT_PAYLOAD);
		deliver(w);
		take(test, w);
		expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_ACK, 0, 1);
		/* Segment 2 too: transfers making progress are not evicted. */
		rt_mad(w->mad, RT_SET, 0x4400000000ULL + i, RT_TYPE_DATA,
		       RT_FLAG_ACTIVE, 0, 2, 0);
		deliver(w);
	}
	for (i = 4; i < 10; i++) {
		rt_mad(w->mad, RT_SET, 0x4400000000ULL + i, RT_TYPE_DATA,
		       RT_FLAG_ACTIVE | RT_FLAG_FIRST, 0, 1, 100 * RT_PAYLOAD);
		deliver(w);
		take(test, w);
		if (w->out[RT_OFF_TYPE] == RT_TYPE_STOP &&
		    w->out[RT_OFF_STATUS] == RT_ST_RESX)
			stops++;
	}
	KUNIT_EXPECT_EQ(test, stops, 6);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->rmpp_reassemblies), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->rmpp_peak_reassemblies),
			4);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_RMPP_RX_LIMIT),
			6);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_RMPP_RX_EVICTED),
			0);

	/* A PayloadLength of 4 GiB asks for more than the byte limit. */
	madcm_rmpp_max_reassemblies = 100;
	bytes = atomic_long_read(&w->mm->port->rmpp_bytes);
	rt_mad(w->mad, RT_SET, 0x4500000000ULL, RT_TYPE_DATA,
	       RT_FLAG_ACTIVE | RT_FLAG_FIRST, 0, 1, 0xffffff00);
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_STOP, RT_ST_RESX, 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&w->mm->port->rmpp_bytes), bytes);
	KUNIT_EXPECT_LE(test, atomic_long_read(&w->mm->port->rmpp_peak_bytes),
			(long)madcm_rmpp_max_reassembly_bytes);

	mt_unregister(ma);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&w->mm->port->rmpp_bytes), 0);
}

/*
 * PayloadLengths whose reassembly needs more than the 32 MiB byte limit:
 * each segment holds 220 bytes of it (13.6.2.3) in a 256-byte MAD. Some
 * make segments * 256 bytes plus the bookkeeping cross 2^32 by less than
 * 32 MiB: a 32-bit kernel that sizes the buffer in a 32-bit size_t sees
 * a small reassembly there.
 */
struct big_len_param {
	u32 paylen;
	const char *what;
};

static const struct big_len_param big_len_params[] = {
	{ (32U << 20) / RT_MAD * RT_PAYLOAD + RT_PAYLOAD, "just past 32 MiB" },
	{ 1U << 31, "2 GiB" },
	{ 3475000000U, "crosses 4 GiB by 3 MiB on 32-bit" },
	{ 3485000000U, "crosses 4 GiB by 15 MiB on 32-bit" },
	{ 3495000000U, "crosses 4 GiB by 27 MiB on 32-bit" },
	{ 0xffffff00U, "near 4 GiB" },
};

static void big_len_desc(const struct big_len_param *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u (%s)", p->paylen, p->what);
}

KUNIT_ARRAY_PARAM(big_len, big_len_params, big_len_desc);

/* A transfer longer than the byte limit gets STOP (resources), no memory. */
static void receiver_refuses_length_past_byte_limit(struct kunit *test)
{
	const struct big_len_param *p = test->param_value;
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);

	madcm_rmpp_max_reassembly_bytes = 32UL << 20;
	receiver(test, w, log, RT_SET);
	rt_mad(w->mad, RT_SET, 0x4600000000ULL, RT_TYPE_DATA,
	       RT_FLAG_ACTIVE | RT_FLAG_FIRST, 0, 1, p->paylen);
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_STOP, RT_ST_RESX, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&w->mm->port->rmpp_bytes), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&w->mm->port->rmpp_peak_bytes),
			0);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_RMPP_RX_LIMIT),
			1);
	/* Segment 2 of it is a segment of no transfer. */
	rt_mad(w->mad, RT_SET, 0x4600000000ULL, RT_TYPE_DATA, RT_FLAG_ACTIVE,
	       0, 2, 0);
	deliver(w);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_RMPP_RX_STRAY),
			1);
	KUNIT_EXPECT_EQ(test, log->transfers, 0);
}

/* A recv handler that keeps what it is given, to free it later. */
struct keep_ctx {
	struct ib_mad_recv_wc *wc;
	struct completion got;
};

static void keep_recv(struct ib_mad_agent *agent,
		      struct ib_mad_send_buf *send_buf,
		      struct ib_mad_recv_wc *wc)
{
	struct keep_ctx *k = agent->context;

	k->wc = wc;
	complete(&k->got);
}

static void keep_send(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
}

/*
 * madcm_free_recv_mad() is for any context: a 1 MiB reassembly (which
 * may be vmalloc'ed) freed under a spinlock must not sleep
 * (DEBUG_ATOMIC_SLEEP reports it if it does).
 */
static void big_transfer_freed_under_spinlock(struct kunit *test)
{
	const size_t len = 1 << 20;
	const u32 nseg = rt_nseg(len);
	struct wire *w = wire_new(test);
	struct keep_ctx *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	struct ib_mad_reg_req req;
	struct mt_agent *ma;
	static DEFINE_SPINLOCK(lock);
	bool vmalloced;
	u32 n;

	KUNIT_ASSERT_NOT_NULL(test, k);
	init_completion(&k->got);
	mt_reg_req(&req, RT_CLASS, RT_VERSION, (const u8[]){ RT_SET }, 1);
	ma = mt_register(test, w->mm->port, IB_QPT_GSI, &req,
			 IB_MGMT_RMPP_VERSION, keep_send, keep_recv, k);
	ma->mm = w->mm;
	for (n = 1; n <= nseg; n++) {
		rt_data_seg(w->mad, RT_SET, 0x7700000001ULL, n, nseg, len, 3);
		deliver(w);
		while (unsent(w))
			take(test, w);
		if (!(n % 256))
			cond_resched();
	}
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&k->got, 30 * HZ));
	KUNIT_EXPECT_EQ(test, k->wc->mad_len, RT_HDR + len);
	vmalloced = is_vmalloc_addr(k->wc->recv_buf.mad);
	spin_lock(&lock);
	madcm_free_recv_mad(k->wc);
	spin_unlock(&lock);
	kunit_info(test, "the reassembly was %s\n",
		   vmalloced ? "vmalloc'ed" : "kmalloc'ed");
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->live_recvs), 0);
}

/* A transfer that stops making progress ends with ABORT (T2L). */
static void receiver_ends_idle_transfer_t2l(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);

	madcm_rmpp_recv_timeout_ms = 100;
	receiver(test, w, log, RT_SET);
	rt_data_seg(w->mad, RT_SET, 0x55500000001ULL, 1, 5, 1000, 1);
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_ACK, 0, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->rmpp_reassemblies), 1);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_ABORT, RT_ST_T2L, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&w->mm->port->rmpp_bytes), 0);
	KUNIT_EXPECT_EQ(test,
			mt_counter(w->mm->port, MADCM_CNT_RMPP_RX_TIMEOUT), 1);
	KUNIT_EXPECT_EQ(test, log->transfers, 0);
}

/*
 * A hostile sender starts thousands of transfers, jumps segment numbers,
 * claims huge lengths and never finishes: the receiver stays within its
 * limits all along and lets everything go after the inactivity time.
 */
static void hostile_sender_stays_within_limits(struct kunit *test)
{
	const unsigned long max_bytes = 2UL << 20;
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct madcm_port *port = w->mm->port;
	int i;

	madcm_rmpp_max_reassemblies = 16;
	madcm_rmpp_max_reassembly_bytes = max_bytes;
	madcm_rmpp_recv_timeout_ms = 200;
	receiver(test, w, log, RT_SET);
	for (i = 0; i < 3000; i++) {
		u64 tid = 0x6600000000ULL + i;

		switch (i % 4) {
		case 0:	/* a plausible start, 500 segments, never ended */
			rt_mad(w->mad, RT_SET, tid, RT_TYPE_DATA,
			       RT_FLAG_ACTIVE | RT_FLAG_FIRST, 0, 1,
			       500 * RT_PAYLOAD);
			break;
		case 1:	/* a segment of no transfer */
			rt_mad(w->mad, RT_SET, tid, RT_TYPE_DATA,
			       RT_FLAG_ACTIVE, 0, 2 + (i * 7919) % 100000, 0);
			break;
		case 2:	/* a huge PayloadLength */
			rt_mad(w->mad, RT_SET, tid, RT_TYPE_DATA,
			       RT_FLAG_ACTIVE | RT_FLAG_FIRST, 0, 1,
			       0xffffffffU - i);
			break;
		default: /* segment numbers jumping in a started transfer */
			rt_mad(w->mad, RT_SET, tid - 3, RT_TYPE_DATA,
			       RT_FLAG_ACTIVE, 0, 2 + (i * 31) % 1000000, 0);
			break;
		}
		deliver(w);
		while (unsent(w))
			take(test, w);
		if (!(i % 128))
			cond_resched();
	}
	KUNIT_EXPECT_LE(test, atomic_read(&port->rmpp_peak_reassemblies), 16);
	KUNIT_EXPECT_LE(test, atomic_long_read(&port->rmpp_peak_bytes),
			(long)max_bytes);
	KUNIT_EXPECT_GT(test, mt_counter(port, MADCM_CNT_RMPP_RX_LIMIT), 0);
	KUNIT_EXPECT_GT(test, mt_counter(port, MADCM_CNT_RMPP_RX_STRAY), 0);
	for (i = 0; i < 250 && atomic_read(&port->rmpp_reassemblies); i++) {
		msleep(20);
		while (unsent(w))
			take(test, w);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&port->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&port->rmpp_bytes), 0);
	KUNIT_EXPECT_EQ(test, log->transfers, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->live_recvs), 0);
}

/* 13.6.5.3, the requester: turn-around ACK, then the response. */
static void requester_offers_window_and_takes_response(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 150, 4);
	struct mt_agent *ma = rt_agent(test, w->mm->port, NULL, 0, 0, log);
	struct ib_mad_send_buf *sb;
	u64 tid = tid_of(ma, 9);

	ma->mm = w->mm;
	sb = rt_send(test, ma->agent, mt_ah(test, w->mm->port, LID_PEER),
		     RT_GET_MULTI, 9, 100, 2, 5000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI, RT_TYPE_DATA, 0, 1);
	KUNIT_EXPECT_EQ(test, w->out[RT_OFF_FLAGS] & 7,
			RT_FLAG_ACTIVE | RT_FLAG_FIRST | RT_FLAG_LAST);

	/* The responder's final ACK: the requester turns the link around. */
	rt_mad(w->mad, RT_GET_MULTI | RT_RESP, tid, RT_TYPE_ACK,
	       RT_FLAG_ACTIVE, 0, 1, 1);
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI, RT_TYPE_ACK, 0, 0);
	KUNIT_EXPECT_EQ(test, rt_get32(w->out, RT_OFF_PAYLEN), WINDOW);
	KUNIT_EXPECT_EQ(test, log->sends, 0);

	rt_data_seg(w->mad, RT_GET_MULTI | RT_RESP, tid, 1, 1, 150, 4);
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI, RT_TYPE_ACK, 0, 1);
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_SUCCESS], 1);
	KUNIT_EXPECT_EQ(test, log->transfers, 1);
	KUNIT_EXPECT_EQ(test, log->with_send, 1);
	KUNIT_EXPECT_EQ(test, log->bad, 0);
}

/* A response before the request's final ACK acknowledges the request. */
static void response_acknowledges_request(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 300, 6);
	struct mt_agent *ma = rt_agent(test, w->mm->port, NULL, 0, 0, log);
	struct ib_mad_send_buf *sb;
	u64 tid = tid_of(ma, 10);
	int i;

	ma->mm = w->mm;
	sb = rt_send(test, ma->agent, mt_ah(test, w->mm->port, LID_PEER),
		     RT_GET_MULTI, 10, 100, 2, 5000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w);
	for (i = 1; i <= 2; i++) {
		rt_data_seg(w->mad, RT_GET_MULTI | RT_RESP, tid, i, 2, 300, 6);
		deliver(w);
		take(test, w);
		expect_rmpp(test, w->out, RT_GET_MULTI, RT_TYPE_ACK, 0, i);
	}
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_SUCCESS], 1);
	KUNIT_EXPECT_EQ(test, log->with_send, 1);
	KUNIT_EXPECT_EQ(test, log->bad, 0);
}

/* The sender's ABORT ends the reassembly: nothing kept, nothing sent. */
static void sender_abort_ends_reassembly(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	u64 tid = 0x5151000000001ULL;

	receiver(test, w, log, RT_SET);
	rt_data_seg(w->mad, RT_SET, tid, 1, 4, 700, 1);
	deliver(w);
	take(test, w);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->rmpp_reassemblies), 1);
	rt_mad(w->mad, RT_SET, tid, RT_TYPE_ABORT, RT_FLAG_ACTIVE, RT_ST_TMR,
	       0, 0);
	deliver(w);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->mm->port->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&w->mm->port->rmpp_bytes), 0);
	KUNIT_EXPECT_EQ(test,
			mt_counter(w->mm->port, MADCM_CNT_RMPP_RX_ABORT), 1);
	/* An ABORT of nothing is counted, and never answered. */
	deliver(w);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
	KUNIT_EXPECT_EQ(test,
			mt_counter(w->mm->port, MADCM_CNT_RMPP_RX_UNMATCHED), 1);
	KUNIT_EXPECT_EQ(test, log->transfers, 0);
}

/* 13.6.5.3, the responder: the response starts with the offered window. */
static void responder_starts_with_turnaround_window(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 100, 2);
	struct mt_agent *ma = receiver(test, w, log, RT_GET_MULTI);
	struct ib_mad_send_buf *sb;
	u64 tid = 0x4242000000aaULL;

	rt_data_seg(w->mad, RT_GET_MULTI, tid, 1, 1, 100, 2);
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI | RT_RESP, RT_TYPE_ACK, 0, 1);
	KUNIT_EXPECT_EQ(test, log->transfers, 1);

	rt_mad(w->mad, RT_GET_MULTI, tid, RT_TYPE_ACK, RT_FLAG_ACTIVE, 0, 0, 2);
	deliver(w);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);

	sb = rt_send(test, ma->agent, mt_ah(test, w->mm->port, LID_PEER),
		     RT_GET_MULTI | RT_RESP, 0, 500, 3, 0, 0);
	((struct ib_mad_hdr *)sb->mad)->tid = cpu_to_be64(tid);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI | RT_RESP, RT_TYPE_DATA, 0, 1);
	/* Window 2 from the turn-around ACK: segment 2 without an ACK. */
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI | RT_RESP, RT_TYPE_DATA, 0, 2);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
	rt_mad(w->mad, RT_GET_MULTI, tid, RT_TYPE_ACK, RT_FLAG_ACTIVE, 0, 2, 3);
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI | RT_RESP, RT_TYPE_DATA, 0, 3);
	rt_mad(w->mad, RT_GET_MULTI, tid, RT_TYPE_ACK, RT_FLAG_ACTIVE, 0, 3, 3);
	deliver(w);
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_SUCCESS], 1);
}

/* IB_MAD_USER_RMPP: the agent gets each segment as it came, no ACK. */
static void user_rmpp_agent_gets_raw_segments(struct kunit *test)
{
	static const u8 set[] = { RT_SET };
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 500, 4);
	struct mt_agent *ma;

	ma = rt_agent(test, w->mm->port, set, 1, IB_MAD_USER_RMPP, log);
	ma->mm = w->mm;
	rt_data_seg(w->mad, RT_SET, 0x99900000001ULL, 1, 3, 500, 4);
	deliver(w);
	KUNIT_EXPECT_EQ(test, log->transfers, 1);
	KUNIT_EXPECT_EQ(test, log->nseg, 1);
	KUNIT_EXPECT_EQ(test, log->mad_len, RT_MAD);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_RX_RMPP), 0);
}

/*
 * The control MADs a sender makes from its own send buffer: its ABORT
 * (13.6.3.3) and its turn-around ACK (13.6.5.3). A control MAD carries
 * the transfer's common MAD header (13.4.2) and the RMPP header
 * (13.6.2.1); the class header is the transfer's where the sender's
 * buffer holds one; everything else, up to the end of the MAD, is
 * reserved and zero. The sender's buffer may have any hdr_len from the
 * RMPP header's end up: the bytes behind its headers (madcm's own
 * bookkeeping) must never reach the wire, nor be read.
 */
struct ctl_bytes_param {
	u8 mgmt_class;
	u8 class_version;
	/* Where the data area starts in a MAD of the class. */
	int data_off;
	const char *name;
};

static const struct ctl_bytes_param ctl_bytes_params[] = {
	/* SA: MAD 24 + RMPP 12 + SM_Key 8, offset 2, rsvd 2, mask 8 (15.2.1.1) */
	{ 0x03, 2, 56, "SA" },
	/* Device Management: MAD 24 + RMPP 12 + 28 reserved (16.3.1) */
	{ 0x06, 1, 64, "DM" },
	/* Device Administration and BIS: the same 64-byte layout */
	{ 0x10, 1, 64, "DA" },
	{ 0x12, 1, 64, "BIS" },
	/* Vendor range 2: MAD 24 + RMPP 12 + reserved 1 + OUI 3 (13.4.9) */
	{ 0x30, 1, 40, "vendor 0x30" },
	{ 0x4f, 1, 40, "vendor 0x4f" },
};

static void ctl_bytes_desc(const struct ctl_bytes_param *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", p->name);
}

KUNIT_ARRAY_PARAM(ctl_bytes, ctl_bytes_params, ctl_bytes_desc);

#define CB_ATTR_ID	0x00b0
#define CB_ATTR_MOD	0x01020304

/* A byte of the class header area a ULP wrote into its send buffer. */
static u8 cb_hdr_byte(int off)
{
	return (u8)(0xa5 ^ (off * 29));
}

/* An RMPP send of class @p with @hdr_len header bytes, all written. */
static struct ib_mad_send_buf *cb_send(struct kunit *test,
				       struct mt_agent *ma, struct ib_ah *ah,
				       const struct ctl_bytes_param *p,
				       int hdr_len, u8 method, u32 tid_lo,
				       size_t len, int timeout_ms)
{
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;
	u8 *b;
	u32 n;
	int j;

	sb = madcm_create_send_mad(ma->agent, 1, 0, 1, hdr_len, len,
				   GFP_KERNEL, IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	b = sb->mad;
	for (j = RT_OFF_PAYLEN + 4; j < hdr_len; j++)
		b[j] = cb_hdr_byte(j);
	hdr = sb->mad;
	hdr->base_version = 1;
	hdr->mgmt_class = p->mgmt_class;
	hdr->class_version = p->class_version;
	hdr->method = method;
	hdr->tid = cpu_to_be64((u64)ma->agent->hi_tid << 32 | tid_lo);
	hdr->attr_id = cpu_to_be16(CB_ATTR_ID);
	hdr->attr_mod = cpu_to_be32(CB_ATTR_MOD);
	/* Every segment handed out, as a ULP filling its data does. */
	for (n = 1; n <= sb->seg_count; n++)
		memset(madcm_get_rmpp_segment(sb, n), 0x5a,
		       RT_MAD - hdr_len);
	sb->ah = ah;
	sb->timeout_ms = timeout_ms;
	sb->retries = 0;
	return sb;
}

/* @m is a control MAD about the transfer of @tid, bytes as above. */
static void expect_ctl_bytes(struct kunit *test, const u8 *m,
			     const struct ctl_bytes_param *p, int hdr_len,
			     u8 method, u64 tid)
{
	int class_end = min(hdr_len, p->data_off);
	int j, bad = 0;

	KUNIT_EXPECT_EQ(test, m[0], 1);
	KUNIT_EXPECT_EQ(test, m[1], p->mgmt_class);
	KUNIT_EXPECT_EQ(test, m[2], p->class_version);
	KUNIT_EXPECT_EQ(test, m[3], method);
	/* Status and class-specific words: 0 in a request (13.4.7). */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(m + 4), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(m + 8), tid);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(m + 16), CB_ATTR_ID);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(m + 18), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(m + 20), CB_ATTR_MOD);
	for (j = RT_OFF_PAYLEN + 4; j < RT_MAD; j++) {
		u8 want = j < class_end ? cb_hdr_byte(j) : 0;

		if (m[j] != want && bad++ < 4)
			KUNIT_FAIL(test, "%s hdr_len %d: byte %d is %#x, not %#x",
				   p->name, hdr_len, j, m[j], want);
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "%s hdr_len %d", p->name, hdr_len);
}

static void sender_ctl_mads_carry_no_memory(struct kunit *test)
{
	const struct ctl_bytes_param *p = test->param_value;
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct mt_agent *ma = rt_agent(test, w->mm->port, NULL, 0, 0, log);
	struct ib_ah *ah = mt_ah(test, w->mm->port, LID_PEER);
	struct ib_mad_send_buf *sb;
	int hdr_len, aborts = 0, acks = 0;
	u32 tid_lo = 100;

	ma->mm = w->mm;
	for (hdr_len = IB_MGMT_RMPP_HDR; hdr_len <= 72; hdr_len++) {
		u64 tid;

		/* A two-segment Set cancelled after segment 1: ABORT. */
		tid = tid_of(ma, ++tid_lo);
		sb = cb_send(test, ma, ah, p, hdr_len, RT_SET, tid_lo,
			     (RT_MAD - hdr_len) + 1, 0);
		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
		take(test, w);
		expect_rmpp(test, w->out, RT_SET, RT_TYPE_DATA, 0, 1);
		madcm_cancel_mad(sb);
		take(test, w);
		expect_rmpp(test, w->out, RT_SET, RT_TYPE_ABORT, 127, 0);
		expect_ctl_bytes(test, w->out, p, hdr_len, RT_SET, tid);
		KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
		aborts++;

		/* A one-segment GetMulti, finally ACKed: turn-around ACK. */
		tid = tid_of(ma, ++tid_lo);
		sb = cb_send(test, ma, ah, p, hdr_len, RT_GET_MULTI, tid_lo,
			     1, 5000);
		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
		take(test, w);
		expect_rmpp(test, w->out, RT_GET_MULTI, RT_TYPE_DATA, 0, 1);
		rt_mad(w->mad, RT_GET_MULTI | RT_RESP, tid, RT_TYPE_ACK,
		       RT_FLAG_ACTIVE, 0, 1, 1);
		w->mad[1] = p->mgmt_class;
		w->mad[2] = p->class_version;
		deliver(w);
		take(test, w);
		expect_rmpp(test, w->out, RT_GET_MULTI, RT_TYPE_ACK, 0, 0);
		KUNIT_EXPECT_EQ(test, rt_get32(w->out, RT_OFF_PAYLEN), WINDOW);
		expect_ctl_bytes(test, w->out, p, hdr_len, RT_GET_MULTI, tid);
		acks++;
		/* It waits for its response: no ABORT when cancelled now. */
		madcm_cancel_mad(sb);
		KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	}
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_WR_FLUSH_ERR], aborts + acks);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_RMPP_TX_ABORT),
			aborts);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
}

/*
 * A buffer posted again starts a new transfer: a cancel before its first
 * segment left has nothing to ABORT, whatever its last transfer reached.
 */
/* Counts completions and hands the buffer back to the test, not freed. */
static void count_send(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
	struct rt_agent_log *log = agent->context;

	spin_lock(&log->lock);
	log->sends++;
	if (wc->status < ARRAY_SIZE(log->status))
		log->status[wc->status]++;
	spin_unlock(&log->lock);
	complete(&log->sent);
}

static void reposted_queued_send_cancels_without_abort(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct ib_ah *ah = mt_ah(test, w->mm->port, LID_PEER);
	struct ib_mad_send_buf *sa, *sb;
	struct mt_agent *ma;

	ma = mt_register_flags(test, w->mm->port, IB_QPT_GSI, NULL,
			       IB_MGMT_RMPP_VERSION, count_send,
			       rt_recv_handler, log, 0);
	ma->mm = w->mm;
	/* One request may wait for its response at a time. */
	w->mm->port->attr.max_solicited = 1;
	to_madcm_agent(ma->agent)->sol_max = 1;

	/* A transfer cancelled after segment 1 of 3: one ABORT. */
	sa = rt_send(test, ma->agent, ah, RT_GET_MULTI, 21, 500, 1, 5000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sa, NULL), 0);
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI, RT_TYPE_DATA, 0, 1);
	madcm_cancel_mad(sa);
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI, RT_TYPE_ABORT, 127, 0);
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));

	/* Another request takes the one slot... */
	sb = rt_send(test, ma->agent, ah, RT_GET_MULTI, 22, 100, 2, 5000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI, RT_TYPE_DATA, 0, 1);

	/* ...so the first, posted again, waits; cancelled, it sent nothing. */
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb), MADCM_SEND_WAIT_RESP);
	/* Cancel set its timeout to 0, as ib_modify_mad() does. */
	sa->timeout_ms = 5000;
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sa, NULL), 0);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sa), MADCM_SEND_QUEUED);
	madcm_cancel_mad(sa);
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
	KUNIT_EXPECT_EQ(test, mt_counter(w->mm->port, MADCM_CNT_RMPP_TX_ABORT),
			1);

	/* The one in its transfer still ABORTs when cancelled. */
	madcm_cancel_mad(sb);
	take(test, w);
	expect_rmpp(test, w->out, RT_GET_MULTI, RT_TYPE_ABORT, 127, 0);
	KUNIT_ASSERT_TRUE(test, rt_wait(&log->sent, 10));
	KUNIT_EXPECT_EQ(test, log->status[IB_WC_WR_FLUSH_ERR], 3);
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
	madcm_free_send_mad(sa);
	madcm_free_send_mad(sb);
}

/*
 * The RMPP allocation sites under the fault-injection framework: a new
 * reassembly whose control block, budget entry or first map cannot be
 * had is refused with a STOP (resources exhausted, 13.6.3.3) and leaves
 * no budget taken; an ACK that cannot be allocated is lost as on the
 * wire, counted, and the transfer still reaches the agent.
 */
static void rmpp_allocation_failures_fail_cleanly(struct kunit *test)
{
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 100, 5);
	struct madcm_port *port = w->mm->port;
	unsigned int nth;

	receiver(test, w, log, RT_SET);
	for (nth = 1; nth <= 3; nth++) {
		madcm_fault_arm(MADCM_FAULT_RMPP_REASM, nth);
		rt_data_seg(w->mad, RT_SET, 0x6600000000ULL + nth, 1, 3, 500,
			    5);
		deliver(w);
		KUNIT_EXPECT_EQ(test, madcm_fault_fired(MADCM_FAULT_RMPP_REASM),
				1);
		madcm_fault_disarm();
		take(test, w);
		expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_STOP,
			    RT_ST_RESX, 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&port->rmpp_reassemblies), 0);
		KUNIT_EXPECT_EQ(test, atomic_long_read(&port->rmpp_bytes), 0);
	}
	KUNIT_EXPECT_EQ(test, log->transfers, 0);

	/* A one-segment transfer whose final ACK cannot be allocated. */
	madcm_fault_arm(MADCM_FAULT_RMPP_CTL, 1);
	rt_data_seg(w->mad, RT_SET, 0x6700000001ULL, 1, 1, 100, 5);
	deliver(w);
	KUNIT_EXPECT_EQ(test, madcm_fault_fired(MADCM_FAULT_RMPP_CTL), 1);
	madcm_fault_disarm();
	KUNIT_EXPECT_EQ(test, unsent(w), 0);
	KUNIT_EXPECT_EQ(test, mt_counter(port, MADCM_CNT_RMPP_CTL_DROP), 1);
	KUNIT_EXPECT_EQ(test, log->transfers, 1);
	KUNIT_EXPECT_EQ(test, log->bad, 0);
	/* The sender, without its ACK, sends again: ACKed now. */
	deliver(w);
	take(test, w);
	expect_rmpp(test, w->out, RT_SET | RT_RESP, RT_TYPE_ACK, 0, 1);
	KUNIT_EXPECT_EQ(test, log->transfers, 1);
}

/* Complete every MAD madcm sent; count the STOPs to @dlid and elsewhere. */
static void drain_all(struct wire *w, u32 dlid, int *stops_peer,
		      int *stops_other)
{
	struct mt_post *p;

	while ((p = mt_manual_pop(w->mm))) {
		w->seen++;
		if (p->mad[RT_OFF_TYPE] == RT_TYPE_STOP)
			(*(p->dlid == dlid ? stops_peer : stops_other))++;
		mt_manual_complete(w->mm, p, IB_WC_SUCCESS);
	}
}

/*
 * Spoofed sources on RoCE: each source address is a sender of its own
 * to the per-source budget, so 1,000 of them, each sending one segment
 * 1, fill the port's reassemblies. When the port's budget is full a new
 * transfer evicts the least recently active one that made no progress
 * past its first segment (a STOP, resources exhausted), so the flood
 * only evicts itself, and a real sender whose transfer progresses (here
 * 5 segments, 2 at once as its first window allows, then one every 100
 * flood segments) completes, its bytes intact. 1,001 transfers are
 * admitted into 8 places and one of them ends by completing: 992 are
 * evicted, none refused.
 *
 * The budget is the port's, so the choice is too: with the flood aimed
 * at one agent (Set) and the real transfer at another on the same port
 * (GetMulti), the newcomer finds none of its own agent's reassemblies to
 * evict and must evict one of the flood's, in the other agent.
 */
static const bool flood_two_agents[] = { false, true };

static void flood_desc(const bool *two, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s",
		 *two ? "flood and sender at two agents" : "one agent");
}

KUNIT_ARRAY_PARAM(flood, flood_two_agents, flood_desc);

static void rmpp_flood_of_sources_cannot_shut_out_a_sender(struct kunit *test)
{
	const bool two = *(const bool *)test->param_value;
	const u8 method = two ? RT_GET_MULTI : RT_SET;
	const u64 tid = 0x7800000001ULL;
	struct wire *w = wire_new(test);
	struct rt_agent_log *log = rt_log(test, 1000, 7);
	struct rt_agent_log *flood_log = log;
	struct madcm_port *port = w->mm->port;
	int i, stops_peer = 0, stops_other = 0;
	u32 seg = 1;

	madcm_rmpp_max_reassemblies = 8;
	receiver(test, w, log, method);
	if (two) {
		flood_log = rt_log(test, 100 * RT_PAYLOAD, 1);
		receiver(test, w, flood_log, RT_SET);
	}
	for (i = 0; i < 1000; i++) {
		rt_mad(w->mad, RT_SET, 0x7700000000ULL + i, RT_TYPE_DATA,
		       RT_FLAG_ACTIVE | RT_FLAG_FIRST, 0, 1, 100 * RT_PAYLOAD);
		mt_manual_deliver(w->mm, w->mad, RT_MAD, 1, 100 + i, 1);
		drain_all(w, LID_PEER, &stops_peer, &stops_other);
		if (i % 100 != 50 || seg > 5)
			continue;
		do {
			rt_data_seg(w->mad, method, tid, seg, 5, 1000, 7);
			deliver(w);
			drain_all(w, LID_PEER, &stops_peer, &stops_other);
		} while (++seg == 2);
	}
	KUNIT_EXPECT_EQ(test, log->transfers, 1);
	KUNIT_EXPECT_EQ(test, log->bad, 0);
	KUNIT_EXPECT_EQ(test, flood_log->transfers, two ? 0 : 1);
	KUNIT_EXPECT_EQ(test, stops_peer, 0);
	KUNIT_EXPECT_EQ(test, stops_other, 992);
	KUNIT_EXPECT_EQ(test, mt_counter(port, MADCM_CNT_RMPP_RX_EVICTED), 992);
	KUNIT_EXPECT_EQ(test, mt_counter(port, MADCM_CNT_RMPP_RX_LIMIT), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->rmpp_reassemblies), 8);
}

static struct kunit_case mad_rmpp_wire_cases[] = {
	KUNIT_CASE(sender_follows_window_and_acks),
	KUNIT_CASE(sender_without_acks_aborts_tmr),
	KUNIT_CASE(sender_cancel_mid_transfer_aborts),
	KUNIT_CASE(sender_unregistered_mid_transfer_aborts),
	KUNIT_CASE(modify_rmpp_send_keeps_waiting_for_acks),
	KUNIT_CASE(rmpp_agent_refuses_non_rmpp_class),
	KUNIT_CASE_PARAM(sender_ends_on_stop_abort_bad_ack, ctl_gen_params),
	KUNIT_CASE(receiver_reassembles_reordered_duplicates),
	KUNIT_CASE(receiver_acks_when_ah_sleeps),
	KUNIT_CASE(ctl_queue_bounded_when_ah_hangs),
	KUNIT_CASE(timeout_fires_while_every_port_resolves),
	KUNIT_CASE_PARAM(receiver_aborts_bad_input, bad_gen_params),
	KUNIT_CASE(receiver_refuses_past_limits_with_stop),
	KUNIT_CASE_PARAM(receiver_refuses_length_past_byte_limit,
			 big_len_gen_params),
	KUNIT_CASE(receiver_ends_idle_transfer_t2l),
	KUNIT_CASE(big_transfer_freed_under_spinlock),
	KUNIT_CASE(hostile_sender_stays_within_limits),
	KUNIT_CASE(requester_offers_window_and_takes_response),
	KUNIT_CASE(responder_starts_with_turnaround_window),
	KUNIT_CASE(response_acknowledges_request),
	KUNIT_CASE(sender_abort_ends_reassembly),
	KUNIT_CASE(user_rmpp_agent_gets_raw_segments),
	KUNIT_CASE_PARAM(sender_ctl_mads_carry_no_memory, ctl_bytes_gen_params),
	KUNIT_CASE(reposted_queued_send_cancels_without_abort),
	KUNIT_CASE(rmpp_allocation_failures_fail_cleanly),
	KUNIT_CASE_PARAM(rmpp_flood_of_sources_cannot_shut_out_a_sender,
			 flood_gen_params),
	{}
};

static struct kunit_suite mad_rmpp_wire_suite = {
	.name = "madcm_mad_rmpp_wire",
	.init = wire_init,
	.exit = rt_params_exit,
	.test_cases = mad_rmpp_wire_cases,
};

kunit_test_suite(mad_rmpp_wire_suite);
