// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: many connections at once, connections over a lossy wire (drop,
 * duplication, reordering, delay, corruption, deterministic from a
 * seed), and cores torn down with connections open: every connection
 * ends with exactly one terminal event and nothing is left allocated.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include "tests/kunit/cm_test_util.h"

#define LPORT	4300

/* Open @n connections from core 0 to core 1 and wait for ESTABLISHED. */
static void open_many(struct kunit *test, struct cm_fix *fix, int n,
		      bool ipv6)
{
	struct madcm_cm_connect_attr attr;
	int i;

	cm_listen(test, fix, 1, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	for (i = 0; i < n; i++) {
		cm_connect_attr(&attr, ipv6 && (i & 1) ? &fix->v6[0] :
							 &fix->v4[0],
				ipv6 && (i & 1) ? &fix->v6[1] : &fix->v4[1],
				LPORT, MADCM_CM_NO_VLAN, 1 + (i & 1),
				&fix->side[0]);
		attr.loc.port = 10000 + i;
		attr.private_data = &i;
		attr.private_data_len = sizeof(i);
		cm_connect(test, fix, 0, &attr);
	}
	if (!cm_wait_events_progress(&fix->side[0], 2 * n) ||
	    !cm_wait_events_progress(&fix->side[1], 2 * n)) {
		for (i = 0; i < 2; i++) {
			kunit_info(test, "side %d: %d events, %d terminal\n", i,
				   READ_ONCE(fix->side[i].events),
				   READ_ONCE(fix->side[i].terminals));
			cm_dump_core(test, fix->core[i], 20);
		}
		KUNIT_ASSERT_FAILURE(test, "%d connections: not all established",
				     n);
	}
}

/* Every connection of both sides: established, then exactly one CLOSE. */
static void expect_all_closed(struct kunit *test, struct cm_fix *fix, int n)
{
	int s, i;

	for (s = 0; s < 2; s++) {
		KUNIT_EXPECT_EQ(test, fix->side[s].nrecs, n);
		for (i = 0; i < fix->side[s].nrecs; i++) {
			const struct cm_rec *r = &fix->side[s].recs[i];
			int last = r->ev[min(r->nev, CM_TEST_MAX_EV) - 1];

			KUNIT_EXPECT_TRUE(test, r->has_ctx);
			KUNIT_EXPECT_EQ(test, r->terminal, 1);
			KUNIT_EXPECT_EQ(test, r->after_terminal, 0);
			KUNIT_EXPECT_EQ_MSG(test, last, MADCM_CM_EVENT_CLOSE,
					    "side %d conn %d: %d events, last status %d",
					    s, i, r->nev,
					    r->status[min(r->nev, CM_TEST_MAX_EV) - 1]);
		}
	}
}

/* Core 1's end of a connection of core 0. */
static struct madcm_cm_conn *peer_of(struct cm_fix *fix,
				     const struct cm_rec *a)
{
	int i;

	for (i = 0; i < fix->side[1].nrecs; i++)
		if (fix->side[1].recs[i].ctx.rem.port == a->ctx.loc.port)
			return fix->side[1].recs[i].conn;
	return NULL;
}

/* Timers long enough that a slow (emulated) machine does not retransmit. */
static const struct madcm_cm_config many_cfg = {
	.rto_min_ms = 1000,
	.rto_max_ms = 4000,
	.max_retrans = 8,
	.time_wait_ms = 50,
	.fin_wait2_ms = 20000,
	.mpa_timeout_ms = 20000,
};

/* 200 connections at once, closed from alternating sides. */
static void cm_stress_many(struct kunit *test)
{
	const int n = 200;
	struct cm_fix *fix = cm_fix_create(test, 2, false, &many_cfg, n);
	int i;

	fix->backlog = n;
	open_many(test, fix, n, true);
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->core[0]->live_nodes), n);
	for (i = 0; i < n; i++)
		madcm_cm_close(i & 1 ? peer_of(fix, &fix->side[0].recs[i]) :
				       fix->side[0].recs[i].conn);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], n));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], n));
	expect_all_closed(test, fix, n);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[1]), 0);
}

struct lossy_case {
	const char *name;
	struct madcm_wire_faults f;
};

static const struct lossy_case lossy_cases[] = {
	{ "drop 5% dup 2% reorder 10%",
	  { .drop_pct = 5, .dup_pct = 2, .reorder_pct = 10, .delay_ms = 2,
	    .reorder_ms = 8 } },
	{ "drop 10%", { .drop_pct = 10 } },
	{ "dup 20% reorder 30%",
	  { .dup_pct = 20, .reorder_pct = 30, .delay_ms = 3, .reorder_ms = 6 } },
	{ "corrupt 5% drop 3%", { .corrupt_pct = 5, .drop_pct = 3 } },
};

static void lossy_desc(const struct lossy_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lossy, lossy_cases, lossy_desc);

/* A TIME-WAIT longer than the backoff, so late FINs find it. */
static const struct madcm_cm_config lossy_cfg = {
	.rto_min_ms = 50,
	.rto_max_ms = 400,
	.max_retrans = 15,
	.time_wait_ms = 2000,
	.fin_wait2_ms = 20000,
	.mpa_timeout_ms = 20000,
};

/* Under faults every connection still opens and closes gracefully. */
static void cm_stress_lossy(struct kunit *test)
{
	const struct lossy_case *c = test->param_value;
	const int n = 40;
	struct cm_fix *fix = cm_fix_create(test, 2, false, &lossy_cfg, n);
	struct madcm_wire_loop_stats st;
	u64 retrans, refused = 0;
	int i;

	/*
	 * Side 0 keeps its connections until the end: one that failed to
	 * connect has had its terminal event, and closing a released handle
	 * would be the test's use after free, not the CM's.
	 */
	fix->side[0].keep = true;
	madcm_wire_loop_set_faults(fix->port[0], &c->f);
	madcm_wire_loop_set_faults(fix->port[1], &c->f);
	open_many(test, fix, n, false);
	for (i = 0; i < fix->side[0].nrecs; i++)
		madcm_cm_close(fix->side[0].recs[i].conn);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], n));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], n));
	expect_all_closed(test, fix, n);
	for (i = 0; i < fix->side[0].nrecs; i++)
		madcm_cm_release(fix->side[0].recs[i].conn);
	madcm_wire_loop_quiesce(fix->loop);
	madcm_wire_loop_stats(fix->loop, &st);
	retrans = cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS) +
		  cm_cnt(fix->core[1], IRDMA_CM_CNT_RETRANS);
	kunit_info(test, "sent %llu dropped %llu dup %llu reordered %llu corrupted %llu retrans %llu\n",
		   st.sent, st.dropped, st.duplicated, st.reordered,
		   st.corrupted, retrans);
	if (st.dropped || st.corrupted)
		KUNIT_EXPECT_GT(test, retrans, 0);
	for (i = IRDMA_SEG_OK + 1; i < IRDMA_SEG_ERR_MAX; i++)
		refused += atomic64_read(&fix->core[0]->seg_stats.drops[i]) +
			   atomic64_read(&fix->core[1]->seg_stats.drops[i]);
	/* A flipped byte is always caught (checksums, or worse). */
	KUNIT_EXPECT_EQ(test, refused, st.corrupted);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/*
 * Timers for a thousand connections on one slow (emulated, sanitized)
 * machine under loss: RFC 6298's initial RTO of one second, backoff to 8 s
 * and 15 retries (about 90 s) before a reset, and a TIME-WAIT longer than
 * the peer's backoff, so that late FINs still find their connection.
 */
/*
 * TIME-WAIT (2 MSL) outlasts the peer's retransmissions of its FIN (RFC
 * 9293 3.6): up to max_retrans copies rto_max apart. Shorter, a FIN whose
 * ACK was lost often enough, under an RTO kept backed off by Karn's rule,
 * finds the tuple gone and is answered with a RST.
 */
static const struct madcm_cm_config thousand_cfg = {
	.rto_min_ms = 1000,
	.rto_max_ms = 8000,
	.max_retrans = 15,
	.time_wait_ms = 15 * 8000,
	.fin_wait2_ms = 60000,
	.mpa_timeout_ms = 60000,
};

/*
 * A thousand connections, IPv4 and IPv6 mixed, MPA v1 and v2 mixed, over
 * a wire that drops 5%, duplicates 2% and reorders 10% of the frames both
 * ways: every one opens, its private data arrives intact, and every one
 * closes gracefully (half from each side) with exactly one CLOSE.
 */
static void cm_stress_thousand_lossy(struct kunit *test)
{
	const struct madcm_wire_faults f = {
		.drop_pct = 5, .dup_pct = 2, .reorder_pct = 10,
		.delay_ms = 2, .reorder_ms = 8,
	};
	const int n = 1000;
	struct cm_fix *fix = cm_fix_create(test, 2, false, &thousand_cfg, n);
	struct madcm_wire_loop_stats st;
	unsigned long *seen;
	u64 retrans;
	int i, v;

	seen = kunit_kcalloc(test, BITS_TO_LONGS(n), sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	fix->backlog = n;
	madcm_wire_loop_set_faults(fix->port[0], &f);
	madcm_wire_loop_set_faults(fix->port[1], &f);
	open_many(test, fix, n, true);

	/* Each connect's private data (its index) came through once. */
	for (i = 0; i < fix->side[1].nrecs; i++) {
		const struct cm_rec *r = &fix->side[1].recs[i];

		KUNIT_ASSERT_EQ(test, (int)r->pdata_len, (int)sizeof(v));
		memcpy(&v, r->pdata, sizeof(v));
		KUNIT_ASSERT_TRUE(test, v >= 0 && v < n);
		KUNIT_EXPECT_FALSE(test, test_and_set_bit(v, seen));
	}
	KUNIT_EXPECT_EQ(test, bitmap_weight(seen, n), n);

	for (i = 0; i < n; i++)
		madcm_cm_close(i & 1 ? peer_of(fix, &fix->side[0].recs[i]) :
				       fix->side[0].recs[i].conn);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals_progress(&fix->side[0], n));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals_progress(&fix->side[1], n));
	expect_all_closed(test, fix, n);

	madcm_wire_loop_quiesce(fix->loop);
	madcm_wire_loop_stats(fix->loop, &st);
	retrans = cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS) +
		  cm_cnt(fix->core[1], IRDMA_CM_CNT_RETRANS);
	kunit_info(test, "sent %llu dropped %llu dup %llu reordered %llu overflowed %llu retrans %llu\n",
		   st.sent, st.dropped, st.duplicated, st.reordered,
		   st.overflowed, retrans);
	/* The faults did happen, and the lost frames were sent again. */
	KUNIT_EXPECT_GT(test, st.dropped, 0);
	KUNIT_EXPECT_GT(test, st.duplicated, 0);
	KUNIT_EXPECT_GT(test, st.reordered, 0);
	KUNIT_EXPECT_GT(test, retrans, 0);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[1]), 0);
}

/* The wire's counters once @n frames were handed to it (or 2 s passed). */
static void wire_sent(struct cm_fix *fix, u64 n, struct madcm_wire_loop_stats *st)
{
	int i;

	for (i = 0; i < 100; i++) {
		madcm_wire_loop_stats(fix->loop, st);
		if (st->sent >= n)
			return;
		msleep(20);
	}
}

/*
 * The wire holds at most a transmit queue's worth of frames for a port,
 * as a net_device's queue (txqueuelen) does, and drops the newest beyond
 * it: held back by 4 s each, 12 SYNs toward a queue of 8 are 8 queued
 * and 4 dropped; the 8 arrive; once the queue drained, a 13th is taken.
 * Unbounded, a slow machine's queue outgrew every RTO in
 * cm_stress_thousand_lossy and the retransmissions fed it.
 */
static void cm_stress_wire_queue_bounded(struct kunit *test)
{
	const struct madcm_wire_faults hold = {
		.reorder_pct = 100, .reorder_ms = 4000,
	};
	const struct madcm_wire_faults none = {};
	const int queue = 8, n = 12;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg,
					   n + 1);
	struct madcm_cm_connect_attr attr;
	struct madcm_wire_loop_stats st;
	int i;

	madcm_wire_loop_set_queue_len(fix->port[1], queue);
	madcm_wire_loop_set_faults(fix->port[0], &hold);
	for (i = 0; i <= n; i++) {
		/* The 8 arrive after their 4 s; the 13th goes at once. */
		if (i == n) {
			wire_sent(fix, n, &st);
			KUNIT_EXPECT_EQ(test, st.sent, n);
			KUNIT_EXPECT_EQ(test, st.overflowed, n - queue);
			KUNIT_EXPECT_EQ(test, st.delivered, 0);
			madcm_wire_loop_quiesce(fix->loop);
			madcm_wire_loop_stats(fix->loop, &st);
			KUNIT_EXPECT_EQ(test, st.delivered, queue);
			madcm_wire_loop_set_faults(fix->port[0], &none);
		}
		cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
				MADCM_CM_NO_VLAN, 2, &fix->side[0]);
		attr.loc.port = 10000 + i;
		cm_connect(test, fix, 0, &attr);
	}
	wire_sent(fix, n + 1, &st);
	madcm_wire_loop_quiesce(fix->loop);
	madcm_wire_loop_stats(fix->loop, &st);
	KUNIT_EXPECT_EQ(test, st.sent, n + 1);
	KUNIT_EXPECT_EQ(test, st.overflowed, n - queue);
	KUNIT_EXPECT_EQ(test, st.delivered, queue + 1);
}

/*
 * Cores stopped with connections in every stage: established, waiting
 * for the consumer, in the handshake. Each connection the consumers hold
 * gets exactly one terminal event; nothing is left on either core.
 */
static void cm_stress_teardown_open(struct kunit *test)
{
	const int n = 24;
	struct cm_fix *fix = cm_fix_create(test, 2, false, &many_cfg,
					   2 * n);
	const struct madcm_wire_faults lose_all = { .drop_pct = 100 };
	struct madcm_cm_connect_attr attr;
	int i, s;

	open_many(test, fix, n, true);
	/* More, that the passive side holds without answering. */
	fix->side[1].policy = CM_TEST_HOLD;
	for (i = 0; i < n / 2; i++) {
		cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
				MADCM_CM_NO_VLAN, 2, &fix->side[0]);
		cm_connect(test, fix, 0, &attr);
	}
	KUNIT_ASSERT_TRUE(test, cm_wait_nrecs(&fix->side[1], n + n / 2));
	/* And some still in the handshake: their SYNs are lost. */
	madcm_wire_loop_set_faults(fix->port[0], &lose_all);
	for (i = 0; i < n / 2; i++) {
		cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
				MADCM_CM_NO_VLAN, 2, &fix->side[0]);
		cm_connect(test, fix, 0, &attr);
	}
	cm_expect_drained(test, fix->core[1]);
	cm_expect_drained(test, fix->core[0]);
	for (s = 0; s < 2; s++) {
		for (i = 0; i < fix->side[s].nrecs; i++) {
			KUNIT_EXPECT_EQ(test, fix->side[s].recs[i].terminal, 1);
			KUNIT_EXPECT_EQ(test, fix->side[s].recs[i].after_terminal,
					0);
		}
	}
	KUNIT_EXPECT_EQ(test, fix->side[0].nrecs, 2 * n);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[1]), 0);
}

struct race_ctx {
	struct cm_fix *fix;
	int id;
	struct completion done;
};

/* Connect from a kthread: no KUNIT_ASSERT outside the test's thread. */
static struct cm_rec *race_connect(struct cm_fix *fix, u16 port, u8 rev)
{
	struct cm_side *side = &fix->side[0];
	struct madcm_cm_connect_attr attr;
	struct madcm_cm_conn *conn;
	struct cm_rec *rec = NULL;

	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], port,
			MADCM_CM_NO_VLAN, rev, side);
	mutex_lock(&side->lock);
	if (side->nrecs < side->max &&
	    !madcm_cm_connect(&fix->core[0]->handle, &attr, &conn)) {
		rec = &side->recs[side->nrecs++];
		rec->conn = conn;
	}
	mutex_unlock(&side->lock);
	return rec;
}

static int race_thread(void *arg)
{
	struct race_ctx *rc = arg;
	struct cm_fix *fix = rc->fix;
	struct madcm_cm_listen_attr la = {
		.addr = { .port = LPORT + 1 },
		.vlan_id = MADCM_CM_NO_VLAN,
		.mpa_rev = 2,
		.handler = cm_test_handler,
		.context = &fix->side[1],
	};
	struct madcm_cm_listener *l;
	struct cm_rec *rec;
	int i;

	for (i = 0; i < 12; i++) {
		switch (rc->id) {
		case 0:
		case 1:
			/* Connect; close every third at once (an abort). */
			rec = race_connect(fix, LPORT, 1 + (i & 1));
			if (rec && i % 3 == 0)
				madcm_cm_close(rec->conn);
			break;
		case 2:
			/* A listener that comes and goes under connects. */
			if (!madcm_cm_create_listener(&fix->core[1]->handle, &la, &l)) {
				usleep_range(500, 1000);
				madcm_cm_destroy_listener(l);
			}
			break;
		default:
			race_connect(fix, LPORT + 1, 2);
			usleep_range(200, 400);
			break;
		}
	}
	complete(&rc->done);
	return 0;
}

/*
 * Connect, close and destroy a listener from several kthreads at once;
 * then close what is left. Every connection ends with exactly one
 * terminal event, and the cores end empty (lockdep and KASAN watching).
 */
static void cm_stress_threads(struct kunit *test)
{
	const int nthreads = 4, n = 4 * 12;
	struct cm_fix *fix = cm_fix_create(test, 2, false, &many_cfg, n);
	struct race_ctx *rc;
	struct task_struct *t;
	int i;

	rc = kunit_kcalloc(test, nthreads, sizeof(*rc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rc);
	/* Side 0 keeps its connections: the test closes them at the end. */
	fix->side[0].keep = true;
	fix->backlog = n;
	cm_listen(test, fix, 1, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	for (i = 0; i < nthreads; i++) {
		rc[i].fix = fix;
		rc[i].id = i;
		init_completion(&rc[i].done);
		t = kthread_run(race_thread, &rc[i], "madcm_cm_race%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	}
	for (i = 0; i < nthreads; i++)
		wait_for_completion(&rc[i].done);
	for (i = 0; i < fix->side[0].nrecs; i++)
		madcm_cm_close(fix->side[0].recs[i].conn);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0],
						  fix->side[0].nrecs));
	for (i = 0; i < fix->side[0].nrecs; i++) {
		KUNIT_EXPECT_EQ(test, fix->side[0].recs[i].terminal, 1);
		KUNIT_EXPECT_EQ(test, fix->side[0].recs[i].after_terminal, 0);
		madcm_cm_release(fix->side[0].recs[i].conn);
	}
	KUNIT_EXPECT_EQ(test, fix->side[0].nrecs, 36);
	cm_expect_drained(test, fix->core[1]);
	cm_expect_drained(test, fix->core[0]);
	for (i = 0; i < fix->side[1].nrecs; i++) {
		KUNIT_EXPECT_EQ(test, fix->side[1].recs[i].terminal, 1);
		KUNIT_EXPECT_EQ(test, fix->side[1].recs[i].after_terminal, 0);
	}
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[1]), 0);
}

static struct kunit_case cm_stress_cases[] = {
	KUNIT_CASE(cm_stress_many),
	KUNIT_CASE_PARAM(cm_stress_lossy, lossy_gen_params),
	KUNIT_CASE(cm_stress_wire_queue_bounded),
	KUNIT_CASE(cm_stress_thousand_lossy),
	KUNIT_CASE(cm_stress_teardown_open),
	KUNIT_CASE(cm_stress_threads),
	{}
};

static struct kunit_suite cm_stress_suite = {
	.name = "madcm_cm_stress",
	.test_cases = cm_stress_cases,
};

kunit_test_suite(cm_stress_suite);
