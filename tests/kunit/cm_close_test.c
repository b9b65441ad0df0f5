// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: closing (RFC 9293 3.6): graceful close from either side,
 * simultaneous close, TIME-WAIT, FIN with data; every connection ends
 * with exactly one terminal event and nothing is left behind.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include "tests/kunit/cm_test_util.h"

#define LPORT	4100
#define RPORT	33000

/* Long retransmission timers, a short TIME-WAIT. */
static const struct madcm_cm_config close_cfg = {
	.rto_min_ms = 600000,
	.rto_max_ms = 600000,
	.time_wait_ms = 30,
	.fin_wait2_ms = 600000,
	.mpa_timeout_ms = 600000,
};

static void connect_pair(struct kunit *test, struct cm_fix *fix,
			 struct cm_rec **a, struct cm_rec **p)
{
	struct madcm_cm_connect_attr attr;

	cm_listen(test, fix, 1, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	*a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[1], 2));
	*p = &fix->side[1].recs[0];
}

static void cm_close_from_passive(struct kunit *test)
{
	static const enum madcm_cm_event_type want_a[] = {
		MADCM_CM_EVENT_CONNECT_REPLY, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_DISCONNECT, MADCM_CM_EVENT_CLOSE,
	};
	static const enum madcm_cm_event_type want_p[] = {
		MADCM_CM_EVENT_CONNECT_REQUEST, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_CLOSE,
	};
	struct cm_fix *fix;
	struct cm_rec *a, *p;

	fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 2);
	connect_pair(test, fix, &a, &p);
	KUNIT_EXPECT_EQ(test, madcm_cm_close(p->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], 1));
	cm_expect_events(test, a, want_a, ARRAY_SIZE(want_a));
	cm_expect_events(test, p, want_p, ARRAY_SIZE(want_p));
	/* The side that closed first waits in TIME-WAIT, the other not. */
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_TIME_WAIT), 0);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/* Both close at once; each gets exactly one CLOSE. */
static void cm_close_both_at_once(struct kunit *test)
{
	struct madcm_wire_faults slow = { .delay_ms = 5 };
	struct cm_fix *fix;
	struct cm_rec *a, *p;

	fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 2);
	connect_pair(test, fix, &a, &p);
	madcm_wire_loop_set_faults(fix->port[0], &slow);
	madcm_wire_loop_set_faults(fix->port[1], &slow);
	KUNIT_EXPECT_EQ(test, madcm_cm_close(a->conn), 0);
	KUNIT_EXPECT_EQ(test, madcm_cm_close(p->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], 1));
	KUNIT_EXPECT_EQ(test, a->ev[a->nev - 1], MADCM_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, p->ev[p->nev - 1], MADCM_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, a->terminal, 1);
	KUNIT_EXPECT_EQ(test, p->terminal, 1);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/*
 * RFC 9293 figure 13: both FINs cross. FIN-WAIT-1 + FIN -> CLOSING,
 * CLOSING + ACK of our FIN -> TIME-WAIT.
 */
static void cm_close_simultaneous(struct kunit *test)
{
	static const enum madcm_cm_event_type want[] = {
		MADCM_CM_EVENT_CONNECT_REQUEST, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_CLOSE,
	};
	struct cm_fix *fix;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *p;
	u32 fin;

	fix = cm_fix_create(test, 1, true, &close_cfg, 2);
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_established(test, fix, &raw, RPORT, LPORT);
	p = &fix->side[0].recs[0];
	KUNIT_ASSERT_EQ(test, madcm_cm_close(p->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_TRUE(test, seg.flags & IRDMA_TCP_FIN);
	fin = seg.seq;
	KUNIT_EXPECT_EQ(test, fin, raw.rcv_nxt);
	/* Our FIN, crossing theirs: it does not acknowledge theirs. */
	cm_raw_send(test, &raw, IRDMA_TCP_FIN | IRDMA_TCP_ACK, raw.snd_nxt,
		    fin, NULL, 0, false);
	raw.snd_nxt++;
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	KUNIT_EXPECT_EQ(test, fix->side[0].terminals, 0);
	/* Now the ACK of its FIN. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, fin + 1, NULL, 0,
		    false);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	cm_expect_events(test, p, want, ARRAY_SIZE(want));
	cm_expect_drained(test, fix->core[0]);
}

/*
 * TIME-WAIT (RFC 9293 3.10.7.4): a retransmitted FIN is acknowledged
 * again while it lasts; once it is over the 4-tuple is unknown and the
 * same FIN gets a RST.
 */
static void cm_close_time_wait(struct kunit *test)
{
	struct cm_fix *fix;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *p;
	int i;
	u32 fin;

	fix = cm_fix_create(test, 1, true, &close_cfg, 2);
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_established(test, fix, &raw, RPORT, LPORT);
	p = &fix->side[0].recs[0];
	KUNIT_ASSERT_EQ(test, madcm_cm_close(p->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	fin = seg.seq;
	/* ACK its FIN: FIN-WAIT-2. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, fin + 1, NULL, 0,
		    false);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	/* Our FIN: TIME-WAIT, and the CLOSE event. */
	cm_raw_send(test, &raw, IRDMA_TCP_FIN | IRDMA_TCP_ACK, raw.snd_nxt,
		    fin + 1, NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt + 1);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, p->ev[p->nev - 1], MADCM_CM_EVENT_CLOSE);
	/* Wait for TIME-WAIT to end (30 ms here); no clock is asserted. */
	for (i = 0; i < 500 &&
	     !cm_cnt(fix->core[0], IRDMA_CM_CNT_TIME_WAIT); i++)
		msleep(20);
	KUNIT_ASSERT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_TIME_WAIT), 1);
	cm_raw_send(test, &raw, IRDMA_TCP_FIN | IRDMA_TCP_ACK, raw.snd_nxt,
		    fin + 1, NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, seg.seq, fin + 1);
	cm_expect_drained(test, fix->core[0]);
}

/* A retransmitted FIN during TIME-WAIT is acknowledged again. */
static void cm_close_time_wait_reacks(struct kunit *test)
{
	const struct madcm_cm_config cfg = {
		.rto_min_ms = 600000, .rto_max_ms = 600000,
		.time_wait_ms = 600000, .fin_wait2_ms = 600000,
		.mpa_timeout_ms = 600000,
	};
	struct cm_fix *fix;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *p;
	u32 fin;

	fix = cm_fix_create(test, 1, true, &cfg, 2);
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_established(test, fix, &raw, RPORT, LPORT);
	p = &fix->side[0].recs[0];
	KUNIT_ASSERT_EQ(test, madcm_cm_close(p->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	fin = seg.seq;
	cm_raw_send(test, &raw, IRDMA_TCP_FIN | IRDMA_TCP_ACK, raw.snd_nxt,
		    fin + 1, NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt + 1);
	/* The same FIN again: an ACK, not a RST. */
	cm_raw_send(test, &raw, IRDMA_TCP_FIN | IRDMA_TCP_ACK, raw.snd_nxt,
		    fin + 1, NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->core[0]->live_nodes), 1);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	cm_expect_drained(test, fix->core[0]);
}

/*
 * FIN with data after the MPA exchange: the data (the QP's) and the FIN
 * are both acknowledged; DISCONNECT, our FIN, then CLOSE on its ACK.
 */
static void cm_close_fin_with_data(struct kunit *test)
{
	static const enum madcm_cm_event_type want[] = {
		MADCM_CM_EVENT_CONNECT_REQUEST, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_DISCONNECT, MADCM_CM_EVENT_CLOSE,
	};
	static const u8 fpdu[10] = { 0, 6, 1, 2, 3, 4, 5, 6 };
	struct cm_fix *fix;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *p;
	u32 fin;

	fix = cm_fix_create(test, 1, true, &close_cfg, 2);
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_established(test, fix, &raw, RPORT, LPORT);
	p = &fix->side[0].recs[0];
	cm_raw_send(test, &raw, IRDMA_TCP_FIN | IRDMA_TCP_ACK | IRDMA_TCP_PSH,
		    raw.snd_nxt, raw.rcv_nxt, fpdu, sizeof(fpdu), false);
	raw.snd_nxt += sizeof(fpdu) + 1;
	/* Its FIN acknowledges the data and our FIN; nothing else comes. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_FIN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	fin = seg.seq;
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_ULP_BYTES),
			sizeof(fpdu));
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, fin + 1, NULL, 0,
		    false);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	cm_expect_events(test, p, want, ARRAY_SIZE(want));
	cm_expect_drained(test, fix->core[0]);
}

struct cm_stop_ctx {
	struct madcm_wire_loop_port *port;
	struct cm_side *side;
	int terminals;
	struct completion done;
};

static int cm_stop_thread(void *arg)
{
	struct cm_stop_ctx *ctx = arg;

	madcm_wire_loop_detach_core(ctx->port);
	/* What the consumer had heard when the stop returned. */
	if (ctx->side) {
		mutex_lock(&ctx->side->lock);
		ctx->terminals = ctx->side->terminals;
		mutex_unlock(&ctx->side->lock);
	}
	/* Every wait of the test sees it, not only the first. */
	complete_all(&ctx->done);
	return 0;
}

/*
 * Stop @ctx's port in a thread, with a reference of the caller's to
 * @core, so that the core's memory outlives the stop for what the test
 * checks after it (the caller drops it with irdma_cm_core_put()). False,
 * the reference dropped and the test failed, when no thread starts.
 */
static bool cm_stop_keeping_core(struct kunit *test,
				 struct irdma_cm_core *core,
				 struct cm_stop_ctx *ctx)
{
	struct task_struct *t;

	refcount_inc(&core->handle.refs);
	t = kthread_run(cm_stop_thread, ctx, "cm_stop_test");
	if (IS_ERR(t)) {
		irdma_cm_core_put(core);
		KUNIT_FAIL(test, "no stop thread");
		return false;
	}
	return true;
}

/*
 * A consumer that never releases its connection must not hold a core's
 * stop for good: the stop runs in netdev notifiers, under RTNL. The
 * connection gets its terminal event (RESET, -ECONNABORTED); the stop
 * then waits a bounded time (the default, 5 s), reports the consumer
 * and returns. The connection stays valid for its consumer (KASAN
 * watches) until madcm_cm_release(), which frees it and the core.
 */
static void cm_stop_bounded_with_held_connection(struct kunit *test)
{
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_core *core;
	struct cm_stop_ctx *ctx;
	struct task_struct *t;
	struct cm_fix *fix;
	struct cm_rec *a;
	bool stopped;

	fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 4);
	fix->side[0].keep = true;
	cm_listen(test, fix, 1, &fix->v4[1], LPORT, MADCM_CM_NO_VLAN, 2);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_TRUE(test, cm_rec_has(a, MADCM_CM_EVENT_ESTABLISHED));

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->port = fix->port[0];
	init_completion(&ctx->done);
	core = fix->core[0];
	t = kthread_run(cm_stop_thread, ctx, "cm_stop_test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	stopped = wait_for_completion_timeout(&ctx->done, 15 * HZ);
	KUNIT_EXPECT_TRUE(test, stopped);
	KUNIT_EXPECT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_TRUE(test, cm_rec_has(a, MADCM_CM_EVENT_RESET));
	if (stopped)
		KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_STOP_HELD), 1);
	/* The consumer lets go at last; a stop still waiting ends now. */
	madcm_cm_release(a->conn);
	wait_for_completion(&ctx->done);
}

/*
 * Nor may a consumer's event handler that blocks: the stop runs under
 * RTNL (NETDEV_UNREGISTER), and the host's networking must never wait on
 * a consumer without a bound. The stop queues the terminal events, waits
 * for their delivery at most stop_wait_ms, counts the handler that did
 * not return (stop_handler_stuck) and returns. The steering entries are
 * out of the backend by then: their removals never queue behind a
 * consumer. The handler ends later, on a stopped core (KASAN watches).
 */
static void cm_stop_bounded_with_blocked_handler(struct kunit *test)
{
	struct madcm_cm_config cfg = cm_test_fast_cfg;
	struct madcm_cm_connect_attr attr;
	struct completion seen, go;
	struct irdma_cm_core *core;
	struct cm_stop_ctx *ctx;
	struct cm_fix *fix;
	struct cm_rec *a;
	bool stopped;

	cfg.stop_wait_ms = 200;
	fix = cm_fix_create(test, 2, false, &cfg, 4);
	cm_listen(test, fix, 1, &fix->v4[1], LPORT, MADCM_CM_NO_VLAN, 2);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_TRUE(test, cm_rec_has(a, MADCM_CM_EVENT_ESTABLISHED));
	KUNIT_ASSERT_GT(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->port = fix->port[0];
	init_completion(&ctx->done);
	init_completion(&seen);
	init_completion(&go);
	mutex_lock(&fix->side[0].lock);
	fix->side[0].hold_seen = &seen;
	fix->side[0].hold_go = &go;
	mutex_unlock(&fix->side[0].lock);
	core = fix->core[0];
	if (!cm_stop_keeping_core(test, core, ctx))
		return;
	if (!wait_for_completion_timeout(&seen, 10 * HZ)) {
		KUNIT_FAIL(test, "no terminal event reached the handler");
		complete(&go);
		wait_for_completion(&ctx->done);
		flush_work(&core->reap_work);
		irdma_cm_core_put(core);
		return;
	}
	/* The handler is blocked in the core's workqueue from here on. */
	stopped = wait_for_completion_timeout(&ctx->done, 10 * HZ);
	KUNIT_EXPECT_TRUE_MSG(test, stopped,
			      "the stop waited for a blocked handler");
	if (stopped) {
		KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_STOP_HANDLER_STUCK),
				1);
		KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]),
				0);
	}
	KUNIT_EXPECT_TRUE(test, cm_rec_has(a, MADCM_CM_EVENT_RESET));
	complete(&go);
	wait_for_completion(&ctx->done);
	/*
	 * @seen and @go are on this stack: the handler is out of its wait
	 * once the reaper has destroyed the workqueue it ran on.
	 */
	flush_work(&core->reap_work);
	irdma_cm_core_put(core);
}

/*
 * A consumer that is slow is not stuck: when the stop's terminal events
 * take longer than stop_wait_ms to deliver because there are many and
 * each handler takes its time, but every handler returns, the stop waits
 * for all of them. After it returns no handler of the core runs: the
 * consumer frees what its handler uses (a ULP its cm_ids, this fixture
 * its records). Only a handler that has not returned for stop_wait_ms
 * makes the stop give up. Seen on 2026-12-07 under a loaded host: the
 * events of 517 connections outlasted the 5 s, the stop returned, the
 * reaper delivered the rest into the KUnit fixture freed after it
 * (KASAN: use-after-free in cm_test_handler).
 */
static void cm_stop_waits_for_slow_handlers(struct kunit *test)
{
	struct madcm_cm_config cfg = cm_test_fast_cfg;
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_core *core;
	struct cm_stop_ctx *ctx;
	struct cm_fix *fix;
	const int n = 12;
	bool stopped;
	int i;

	/* 12 handlers of 40 ms each: 480 ms, against a bound of 100 */
	cfg.stop_wait_ms = 100;
	fix = cm_fix_create(test, 2, false, &cfg, n);
	cm_listen(test, fix, 1, &fix->v4[1], LPORT, MADCM_CM_NO_VLAN, 2);
	for (i = 0; i < n; i++) {
		cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
				MADCM_CM_NO_VLAN, 2, &fix->side[0]);
		attr.loc.port = 20000 + i;
		cm_connect(test, fix, 0, &attr);
	}
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2 * n));
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_TRUE(test, cm_rec_has(&fix->side[0].recs[i],
						   MADCM_CM_EVENT_ESTABLISHED));

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->port = fix->port[0];
	ctx->side = &fix->side[0];
	init_completion(&ctx->done);
	WRITE_ONCE(fix->side[0].delay_ms, 40);
	core = fix->core[0];
	if (!cm_stop_keeping_core(test, core, ctx))
		return;
	stopped = wait_for_completion_timeout(&ctx->done, 30 * HZ);
	KUNIT_EXPECT_TRUE(test, stopped);
	if (stopped) {
		KUNIT_EXPECT_EQ_MSG(test, ctx->terminals, n,
				    "terminal events delivered when the stop returned");
		KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_STOP_HANDLER_STUCK),
				0);
		KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_STOP_HELD), 0);
	} else {
		wait_for_completion(&ctx->done);
	}
	flush_work(&core->reap_work);
	irdma_cm_core_put(core);
}

struct cm_accept_ctx {
	struct madcm_cm_conn *conn;
	int ret;
	struct completion done;
};

static int cm_accept_thread(void *arg)
{
	struct cm_accept_ctx *ctx = arg;
	struct madcm_cm_accept_attr attr = {};

	ctx->ret = madcm_cm_accept(ctx->conn, &attr);
	complete_all(&ctx->done);
	return 0;
}

/*
 * An accept sleeps in the backend while it adds the connection's
 * steering entry (the netdev backend binds a socket there). A core's
 * stop that runs meanwhile must wait for it, as it waits for connect and
 * listen: otherwise it finishes, the backend goes, and the accept goes
 * on in a backend that is gone (an entry added after the stop, never
 * removed). Once the accept is out, the stop resets the connection and
 * every entry goes with it.
 */
static void cm_stop_waits_for_accept_in_backend(struct kunit *test)
{
	struct madcm_cm_config cfg = cm_test_quiet_cfg;
	struct completion entered, go;
	struct cm_accept_ctx *actx;
	struct cm_stop_ctx *sctx;
	struct task_struct *t;
	struct cm_fix *fix;
	struct cm_raw raw;
	bool early;

	actx = kunit_kzalloc(test, sizeof(*actx), GFP_KERNEL);
	sctx = kunit_kzalloc(test, sizeof(*sctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, actx);
	KUNIT_ASSERT_NOT_NULL(test, sctx);
	init_completion(&entered);
	init_completion(&go);
	init_completion(&actx->done);
	init_completion(&sctx->done);
	/* The stop's wait for held connections is short: it is not why. */
	cfg.stop_wait_ms = 100;
	fix = cm_fix_create(test, 1, true, &cfg, 2);
	fix->side[0].keep = true;
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_drive(test, fix, &raw, CM_RAW_REQ_RCVD, RPORT, LPORT);
	actx->conn = fix->side[0].recs[0].conn;

	madcm_wire_loop_block_conn_steer(fix->port[0], &entered, &go);
	t = kthread_run(cm_accept_thread, actx, "cm_accept_test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&entered, 10 * HZ));

	sctx->port = fix->port[0];
	t = kthread_run(cm_stop_thread, sctx, "cm_stop_test");
	if (IS_ERR(t)) {
		complete(&go);
		KUNIT_FAIL(test, "no stop thread");
		return;
	}
	early = wait_for_completion_timeout(&sctx->done, HZ / 2);
	KUNIT_EXPECT_FALSE_MSG(test, early,
			       "the stop returned while accept was in the backend");
	complete(&go);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&actx->done,
							    10 * HZ));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&sctx->done,
							    15 * HZ));
	KUNIT_EXPECT_EQ(test, actx->ret, 0);
	KUNIT_EXPECT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_TRUE(test, cm_rec_has(&fix->side[0].recs[0],
					   MADCM_CM_EVENT_RESET));
	/* Nothing the accept added outlives the stop. */
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
	madcm_cm_release(actx->conn);
}

/*
 * A client that loops on rejects: the rejecting side closes first, so
 * each connection would hold it in TIME-WAIT for 2 MSL. Past the core's
 * max_time_wait the connection is freed at once instead (counted); the
 * nodes stay at the cap.
 */
static void cm_close_time_wait_bounded(struct kunit *test)
{
	static const struct madcm_cm_config cfg = {
		.rto_min_ms = 20, .rto_max_ms = 160, .max_retrans = 12,
		.time_wait_ms = 600000, .fin_wait2_ms = 600000,
		.mpa_timeout_ms = 600000, .max_time_wait = 4,
	};
	struct madcm_cm_connect_attr attr;
	struct cm_fix *fix;
	int i, n = 24;

	fix = cm_fix_create(test, 2, false, &cfg, n);
	fix->side[1].policy = CM_TEST_REJECT;
	cm_listen(test, fix, 1, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	for (i = 0; i < n; i++) {
		cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
				MADCM_CM_NO_VLAN, 2, &fix->side[0]);
		cm_connect(test, fix, 0, &attr);
		KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], i + 1));
		KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], i + 1));
		/* Releases, steering removals and RCU frees have run. */
		flush_workqueue(fix->core[1]->event_wq);
		rcu_barrier();
		KUNIT_EXPECT_LE(test, atomic_read(&fix->core[1]->live_nodes), 4);
	}
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[1], IRDMA_CM_CNT_REJECT_SENT), n);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[1],
				     IRDMA_CM_CNT_TIME_WAIT_OVERFLOW), n - 4);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/* Long TIME-WAIT, quick retransmissions. */
static const struct madcm_cm_config reuse_cfg = {
	.rto_min_ms = 20, .rto_max_ms = 160, .max_retrans = 12,
	.time_wait_ms = 600000, .fin_wait2_ms = 600000,
	.mpa_timeout_ms = 600000,
};

/* Connect from core 0's port @lport to core 1's listener; wait for both. */
static struct cm_rec *connect_from_port(struct kunit *test,
					struct cm_fix *fix, u16 lport)
{
	struct madcm_cm_connect_attr attr;
	int ev0 = READ_ONCE(fix->side[0].events);
	int ev1 = READ_ONCE(fix->side[1].events);
	struct cm_rec *a;

	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr.loc.port = lport;
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], ev0 + 2));
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[1], ev1 + 2));
	KUNIT_ASSERT_TRUE(test, cm_rec_has(a, MADCM_CM_EVENT_ESTABLISHED));
	KUNIT_ASSERT_TRUE(test, a->has_ctx);
	return a;
}

/*
 * The ISS follows a clock (RFC 9293 3.4.1, RFC 6528): two incarnations of
 * one 4-tuple, closed by the passive side (no TIME-WAIT here), get ISSs
 * that grow by the time between them at about one per 4 microseconds.
 * Both requests are alike, so the difference of the initiators' SND.NXT
 * at ESTABLISHED is the difference of their ISSs.
 */
static void cm_iss_follows_clock(struct kunit *test)
{
	struct cm_rec *a1, *a2;
	struct cm_fix *fix;
	u64 t0, t1;
	u32 d;

	fix = cm_fix_create(test, 2, false, &reuse_cfg, 4);
	cm_listen(test, fix, 1, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	t0 = ktime_get_ns();
	a1 = connect_from_port(test, fix, RPORT);
	KUNIT_ASSERT_EQ(test, madcm_cm_close(fix->side[1].recs[0].conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], 1));
	KUNIT_ASSERT_EQ(test, atomic_read(&fix->core[0]->time_wait_nodes), 0);
	a2 = connect_from_port(test, fix, RPORT);
	t1 = ktime_get_ns();
	d = a2->ctx.snd_nxt - a1->ctx.snd_nxt;
	KUNIT_EXPECT_GT(test, d, 0U);
	KUNIT_EXPECT_LE(test, (u64)d, div_u64(t1 - t0, 4000) + 1);
}

/*
 * A connect that names the local port of one of our connections in
 * TIME-WAIT (rdma_cm chooses ports without seeing the CM's TIME-WAITs)
 * takes the 4-tuple over instead of failing with -EADDRINUSE, and starts
 * above every sequence number the old connection sent (RFC 9293 3.4.1:
 * no segment of the old incarnation may fit the new one). The side that
 * did not close first holds nothing, so the peer takes the new SYN.
 */
static void cm_close_time_wait_reused(struct kunit *test)
{
	struct cm_rec *a1, *a2;
	struct cm_fix *fix;
	u32 new_iss_off;

	fix = cm_fix_create(test, 2, false, &reuse_cfg, 4);
	cm_listen(test, fix, 1, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	a1 = connect_from_port(test, fix, RPORT);
	/* We close first: TIME-WAIT on core 0 for the next ten minutes. */
	KUNIT_ASSERT_EQ(test, madcm_cm_close(a1->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], 1));
	KUNIT_ASSERT_EQ(test, atomic_read(&fix->core[0]->time_wait_nodes), 1);

	a2 = connect_from_port(test, fix, RPORT);
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->core[0]->time_wait_nodes), 0);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_TIME_WAIT_REUSED),
			1);
	/*
	 * The old connection sent its SYN, the request (RFC 5044 7.1: a
	 * 20-octet header; RFC 6581 3: 4 octets of IRD/ORD) and its FIN.
	 * Both requests are alike, so a2's SND.NXT less a1's at ESTABLISHED
	 * is the new ISS less the old; it must pass all of that.
	 */
	new_iss_off = a2->ctx.snd_nxt - a1->ctx.snd_nxt;
	KUNIT_EXPECT_GT(test, (s32)new_iss_off, 1 + 20 + 4 + 1);
	/* Both ends of the new connection work: close it from the peer. */
	KUNIT_EXPECT_EQ(test, madcm_cm_close(fix->side[1].recs[1].conn), 0);
	KUNIT_EXPECT_TRUE(test, cm_wait_terminals(&fix->side[0], 2));
	KUNIT_EXPECT_TRUE(test, cm_wait_terminals(&fix->side[1], 2));
	KUNIT_EXPECT_TRUE(test, cm_rec_has(a2, MADCM_CM_EVENT_DISCONNECT));
}

/*
 * A connection closed by its peer (no TIME-WAIT here) leaves its 4-tuple
 * at once, but its steering entry goes later, from the core's event
 * workqueue. A connect from the same port in between (rdma_cm may pick
 * it at once) adds the entry for the same 4-tuple: the old removal, when
 * it comes, must not take the new connection's entry (whose segments
 * would then go to the host stack, which resets them), and the new
 * connection's own removal must find it. Core 0's handler holds its
 * terminal event for the first connection, so the entry's removal waits
 * behind it while the second connect adds its entry.
 */
static void cm_close_reconnect_keeps_steering(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(seen);
	DECLARE_COMPLETION_ONSTACK(go);
	struct madcm_cm_connect_attr attr;
	struct cm_rec *a2, *p2;
	struct cm_side *s0;
	struct cm_fix *fix;
	int ev0, ev1;
	bool up;

	fix = cm_fix_create(test, 2, false, &reuse_cfg, 4);
	s0 = &fix->side[0];
	cm_listen(test, fix, 1, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	connect_from_port(test, fix, RPORT);
	/* one entry for the connection (the listener's is on core 1) */
	KUNIT_ASSERT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 1);

	mutex_lock(&s0->lock);
	s0->hold_seen = &seen;
	s0->hold_go = &go;
	mutex_unlock(&s0->lock);
	KUNIT_ASSERT_EQ(test, madcm_cm_close(fix->side[1].recs[0].conn), 0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&seen,
							    CM_TEST_WAIT));
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->core[0]->time_wait_nodes), 0);

	ev0 = READ_ONCE(s0->events);
	ev1 = READ_ONCE(fix->side[1].events);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, s0);
	attr.loc.port = RPORT;
	a2 = cm_connect(test, fix, 0, &attr);
	complete(&go);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(s0, ev0 + 2));
	/*
	 * The second connection is a record of its own on side 1, even
	 * when it reuses the first one's freed memory (cm_find_rec(); on a
	 * KCSAN kernel, without KASAN's quarantine, it does).
	 */
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[1], ev1 + 2));
	KUNIT_ASSERT_TRUE(test, cm_wait_nrecs(&fix->side[1], 2));
	p2 = &fix->side[1].recs[1];
	up = wait_event_timeout(fix->side[1].wq,
				cm_rec_has(p2, MADCM_CM_EVENT_ESTABLISHED),
				CM_TEST_WAIT) > 0;
	KUNIT_ASSERT_TRUE(test, up);
	KUNIT_ASSERT_NOT_NULL(test, p2->conn);
	KUNIT_ASSERT_TRUE(test, cm_rec_has(a2, MADCM_CM_EVENT_ESTABLISHED));
	/* the old removal has run by now: the new entry is still there */
	flush_workqueue(fix->core[0]->event_wq);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 1);

	/* and the new connection's end takes it, once */
	KUNIT_ASSERT_EQ(test, madcm_cm_close(p2->conn), 0);
	KUNIT_EXPECT_TRUE(test, cm_wait_terminals(s0, 2));
	KUNIT_EXPECT_TRUE(test, cm_wait_terminals(&fix->side[1], 2));
	flush_workqueue(fix->core[0]->event_wq);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
}

static struct kunit_case cm_close_cases[] = {
	KUNIT_CASE(cm_close_from_passive),
	KUNIT_CASE(cm_close_both_at_once),
	KUNIT_CASE(cm_close_simultaneous),
	KUNIT_CASE(cm_close_time_wait),
	KUNIT_CASE(cm_close_time_wait_reacks),
	KUNIT_CASE(cm_close_time_wait_bounded),
	KUNIT_CASE(cm_close_time_wait_reused),
	KUNIT_CASE(cm_iss_follows_clock),
	KUNIT_CASE(cm_close_reconnect_keeps_steering),
	KUNIT_CASE(cm_close_fin_with_data),
	KUNIT_CASE(cm_stop_bounded_with_held_connection),
	KUNIT_CASE(cm_stop_bounded_with_blocked_handler),
	KUNIT_CASE(cm_stop_waits_for_slow_handlers),
	KUNIT_CASE(cm_stop_waits_for_accept_in_backend),
	{}
};

static struct kunit_suite cm_close_suite = {
	.name = "madcm_cm_close",
	.test_cases = cm_close_cases,
};

kunit_test_suite(cm_close_suite);
