// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: what an RMPP receiver may be made to hold (issue 14, item 5).
 * The "manual" transport lets the test play several remote senders, each
 * with its own LID: one that takes all it may and stalls, one that asks
 * for 32 MiB and sends a window, one that answers a request nobody made.
 * A receiver must keep each sender within its own budget, hold only what
 * has arrived, and hold nothing for a response it did not ask for (a
 * response matches a request by TID, class and address, IBTA vol. 1
 * 13.4.6.4). Refusals for resources are a STOP with status 1 (13.6.3.3).
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "mad/rmpp.h"
#include "mad_rmpp_util.h"
#include "madcm_compat.h"

#define LID_ME		1
#define LID_A		2
#define LID_B		3
#define WINDOW		64

struct bt_wire {
	struct mt_manual *mm;
	int seen;
	u8 mad[RT_MAD];
};

/* A MAD the receiver sent, and where to. */
struct bt_out {
	u32 dlid;
	u8 mad[RT_MAD];
};

static int bt_init(struct kunit *test)
{
	return rt_params_init(test, WINDOW, 2000);
}

static struct bt_wire *bt_wire(struct kunit *test)
{
	struct bt_wire *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->mm = mt_manual_port(test, LID_ME, false);
	return w;
}

static int bt_unsent(struct bt_wire *w)
{
	return READ_ONCE(w->mm->nr_posts) - w->seen;
}

/* Take the next MAD the receiver sent, and complete its send. */
static void bt_take(struct kunit *test, struct bt_wire *w, struct bt_out *o)
{
	struct mt_post *p;

	KUNIT_ASSERT_TRUE(test, mt_wait_posts(w->mm, w->seen + 1));
	p = mt_manual_pop(w->mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	w->seen++;
	o->dlid = p->dlid;
	memcpy(o->mad, p->mad, RT_MAD);
	mt_manual_complete(w->mm, p, IB_WC_SUCCESS);
}

static u64 bt_tid(const u8 *mad)
{
	return get_unaligned_be64(mad + 8);
}

/*
 * Send segments @from to @to of a transfer of @nseg segments (@len data
 * bytes) from @lid, in order, as a sender that follows the receiver's
 * window does. Return the type of the first STOP or ABORT the receiver
 * sent for it (and stop there), or 0.
 */
static u8 bt_feed(struct kunit *test, struct bt_wire *w, u32 lid, u8 method,
		  u64 tid, u32 nseg, size_t len, u8 seed, u32 from, u32 to)
{
	struct bt_out o;
	u32 seg;

	for (seg = from; seg <= to; seg++) {
		rt_data_seg(w->mad, method, tid, seg, nseg, len, seed);
		mt_manual_deliver(w->mm, w->mad, RT_MAD, 1, lid, 1);
		while (bt_unsent(w)) {
			bt_take(test, w, &o);
			if (bt_tid(o.mad) != tid ||
			    o.mad[RT_OFF_TYPE] == RT_TYPE_ACK)
				continue;
			KUNIT_EXPECT_EQ(test, o.dlid, lid);
			return o.mad[RT_OFF_TYPE];
		}
		if (!(seg % 64))
			cond_resched();
	}
	return 0;
}

/*
 * Sender A starts transfers and stalls each one mid-way, until the
 * receiver refuses it: A then holds all its budget allows. Sender B's
 * transfer still goes through, byte for byte, while A's stay stalled.
 */
static void stalled_sender_leaves_room_for_others(struct kunit *test)
{
	const unsigned long src_bytes = 128UL << 10;
	const u32 a_nseg = 400, a_sent = 100, b_nseg = 300;
	const size_t b_len = b_nseg * RT_DATA - 7;
	struct bt_wire *w = bt_wire(test);
	struct rt_agent_log *log = rt_log(test, b_len, 9);
	struct madcm_port *port = w->mm->port;
	u8 methods[] = { RT_SET };
	struct mt_agent *ma;
	u8 refused = 0;
	int i, held;

	madcm_rmpp_max_reassemblies = 64;
	madcm_rmpp_max_reassembly_bytes = 2UL << 20;
	madcm_rmpp_max_source_reassemblies = 16;
	madcm_rmpp_max_source_bytes = src_bytes;
	ma = rt_agent(test, port, methods, 1, 0, log);
	ma->mm = w->mm;

	for (i = 0; i < 64 && !refused; i++)
		refused = bt_feed(test, w, LID_A, RT_SET, 0xa00000000ULL + i,
				  a_nseg, a_nseg * RT_DATA, 1, 1, a_sent);
	KUNIT_EXPECT_EQ(test, refused, RT_TYPE_STOP);
	KUNIT_EXPECT_EQ(test,
			mt_counter(port, MADCM_CNT_RMPP_RX_SOURCE_LIMIT), 1);
	KUNIT_EXPECT_EQ(test, mt_counter(port, MADCM_CNT_RMPP_RX_LIMIT), 0);
	KUNIT_EXPECT_LE(test, atomic_long_read(&port->rmpp_bytes),
			(long)src_bytes);
	KUNIT_EXPECT_LE(test, atomic_long_read(&port->rmpp_peak_bytes),
			(long)src_bytes);
	held = atomic_read(&port->rmpp_reassemblies);
	KUNIT_EXPECT_GE(test, held, 1);
	kunit_info(test, "A: %d transfers started, %d held, %ld bytes\n", i,
		   held, atomic_long_read(&port->rmpp_bytes));

	KUNIT_EXPECT_EQ(test, bt_feed(test, w, LID_B, RT_SET, 0xb00000001ULL,
				      b_nseg, b_len, 9, 1, b_nseg), 0);
	KUNIT_EXPECT_EQ(test, log->transfers, 1);
	KUNIT_EXPECT_EQ(test, log->bad, 0);
	KUNIT_EXPECT_EQ(test, log->nseg, b_nseg);
	KUNIT_EXPECT_EQ(test, log->mad_len, RT_HDR + b_len);
	/* A's transfers are still there: B did not wait for them to end. */
	KUNIT_EXPECT_EQ(test, atomic_read(&port->rmpp_reassemblies), held);

	mt_unregister(ma);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&port->rmpp_bytes), 0);
}

/*
 * A sender may not start more transfers than its own count allows, even
 * tiny ones: the next one is refused with a STOP, another sender's is not.
 */
static void source_reassembly_count_is_capped(struct kunit *test)
{
	struct bt_wire *w = bt_wire(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct madcm_port *port = w->mm->port;
	u8 methods[] = { RT_SET };
	struct mt_agent *ma;
	int i;

	madcm_rmpp_max_reassemblies = 64;
	madcm_rmpp_max_source_reassemblies = 3;
	ma = rt_agent(test, port, methods, 1, 0, log);
	ma->mm = w->mm;
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, bt_feed(test, w, LID_A, RT_SET,
					      0xa10000000ULL + i, 5,
					      5 * RT_DATA, 1, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, bt_feed(test, w, LID_A, RT_SET, 0xa10000003ULL,
				      5, 5 * RT_DATA, 1, 1, 1), RT_TYPE_STOP);
	KUNIT_EXPECT_EQ(test, bt_feed(test, w, LID_B, RT_SET, 0xb10000000ULL,
				      5, 5 * RT_DATA, 1, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->rmpp_reassemblies), 4);
	KUNIT_EXPECT_EQ(test,
			mt_counter(port, MADCM_CNT_RMPP_RX_SOURCE_LIMIT), 1);
	mt_unregister(ma);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&port->rmpp_bytes), 0);
}

/*
 * Segment 1 of a transfer that announces 32 MiB: the receiver holds what
 * came, one segment, then one window, never the announced size.
 */
static void announced_length_is_not_allocated(struct kunit *test)
{
	const u32 nseg = (32U << 20) / RT_MAD;
	const size_t len = (size_t)nseg * RT_DATA;
	/* What a window of segments takes, with room for bookkeeping. */
	const long window_bytes = 2L * WINDOW * RT_MAD + 2 * PAGE_SIZE;
	struct bt_wire *w = bt_wire(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct madcm_port *port = w->mm->port;
	u8 methods[] = { RT_SET };
	struct mt_agent *ma;
	u64 tid = 0xc00000001ULL;
	struct bt_out o;

	/* Limits that let the announced size through, old code or new. */
	madcm_rmpp_max_reassembly_bytes = 64UL << 20;
	madcm_rmpp_max_source_bytes = 64UL << 20;
	ma = rt_agent(test, port, methods, 1, 0, log);
	ma->mm = w->mm;

	KUNIT_ASSERT_EQ(test, bt_feed(test, w, LID_A, RT_SET, tid, nseg, len,
				      1, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->rmpp_reassemblies), 1);
	KUNIT_EXPECT_GT(test, atomic_long_read(&port->rmpp_bytes), 0);
	kunit_info(test, "segment 1 of %u: %ld bytes held\n", nseg,
		   atomic_long_read(&port->rmpp_bytes));
	KUNIT_EXPECT_LE(test, atomic_long_read(&port->rmpp_bytes),
			2L * PAGE_SIZE);
	KUNIT_EXPECT_LE(test, atomic_long_read(&port->rmpp_peak_bytes),
			2L * PAGE_SIZE);

	/* The rest of the first window: held, and no more than that. */
	KUNIT_ASSERT_EQ(test, bt_feed(test, w, LID_A, RT_SET, tid, nseg, len,
				      1, 2, WINDOW), 0);
	KUNIT_EXPECT_EQ(test, mt_counter(port, MADCM_CNT_RMPP_RX_SEG), WINDOW);
	kunit_info(test, "segments 1-%d: %ld bytes held\n", WINDOW,
		   atomic_long_read(&port->rmpp_bytes));
	KUNIT_EXPECT_GE(test, atomic_long_read(&port->rmpp_bytes),
			(long)WINDOW * RT_MAD);
	KUNIT_EXPECT_LE(test, atomic_long_read(&port->rmpp_bytes),
			window_bytes);
	KUNIT_EXPECT_LE(test, atomic_long_read(&port->rmpp_peak_bytes),
			window_bytes);

	/* The sender gives up: everything is given back. */
	rt_mad(w->mad, RT_SET, tid, RT_TYPE_ABORT, RT_FLAG_ACTIVE, RT_ST_TMR,
	       0, 0);
	mt_manual_deliver(w->mm, w->mad, RT_MAD, 1, LID_A, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&port->rmpp_bytes), 0);
	while (bt_unsent(w))
		bt_take(test, w, &o);
	KUNIT_EXPECT_EQ(test, log->transfers, 0);
}

/* Where a response comes from, and whether a request of ours awaits it. */
struct unsol_param {
	const char *what;
	bool post;		/* a request is outstanding */
	u32 req_tid_lo;		/* its TID */
	u32 resp_tid_lo;	/* the response's TID */
	u32 resp_lid;		/* who the response comes from */
	bool solicited;		/* it answers the request */
};

static const struct unsol_param unsol_params[] = {
	{ "no request at all", false, 0, 7, LID_A, false },
	{ "a request of another TID", true, 6, 7, LID_A, false },
	{ "the TID of a request to another LID", true, 7, 7, LID_B, false },
	{ "the request it answers (control)", true, 7, 7, LID_A, true },
};

static void unsol_desc(const struct unsol_param *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", p->what);
}

KUNIT_ARRAY_PARAM(unsol, unsol_params, unsol_desc);

/*
 * A response DATA segment 1 that answers no request of ours: dropped and
 * counted, nothing allocated, no ACK; its later segments are strays.
 */
static void unsolicited_response_allocates_nothing(struct kunit *test)
{
	const struct unsol_param *p = test->param_value;
	struct bt_wire *w = bt_wire(test);
	struct rt_agent_log *log = rt_log(test, 0, 0);
	struct madcm_port *port = w->mm->port;
	struct ib_mad_send_buf *sb = NULL;
	struct mt_agent *ma;
	struct bt_out o;
	u64 tid;
	u8 stop;

	ma = rt_agent(test, port, NULL, 0, 0, log);
	ma->mm = w->mm;
	tid = (u64)ma->agent->hi_tid << 32 | p->resp_tid_lo;
	if (p->post) {
		sb = rt_send(test, ma->agent, mt_ah(test, port, LID_A),
			     RT_GET_MULTI, p->req_tid_lo, 100, 2, 5000, 0);
		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
		bt_take(test, w, &o);
		KUNIT_EXPECT_EQ(test, o.mad[RT_OFF_TYPE], RT_TYPE_DATA);
	}
	stop = bt_feed(test, w, p->resp_lid, RT_GET_MULTI | RT_RESP, tid,
		       100, 100 * RT_DATA, 3, 1, 1);
	KUNIT_EXPECT_EQ(test, stop, 0);
	if (p->solicited) {
		/* Taken: a reassembly, ACKed (the ACK went by bt_feed). */
		KUNIT_EXPECT_EQ(test, w->seen, 2);
		KUNIT_EXPECT_EQ(test, atomic_read(&port->rmpp_reassemblies),
				1);
		KUNIT_EXPECT_EQ(test,
				mt_counter(port, MADCM_CNT_RMPP_RX_UNSOLICITED),
				0);
		goto cancel;
	}
	KUNIT_EXPECT_EQ(test, bt_unsent(w), 0);
	KUNIT_EXPECT_EQ(test, w->seen, p->post ? 1 : 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&port->rmpp_bytes), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&port->rmpp_peak_bytes), 0);
	KUNIT_EXPECT_EQ(test, mt_counter(port, MADCM_CNT_RMPP_RX_UNSOLICITED),
			1);
	KUNIT_EXPECT_EQ(test, mt_counter(port, MADCM_CNT_RMPP_RX_SEG), 0);
	/* Its segment 2 belongs to no transfer. */
	KUNIT_EXPECT_EQ(test, bt_feed(test, w, p->resp_lid,
				      RT_GET_MULTI | RT_RESP, tid, 100,
				      100 * RT_DATA, 3, 2, 2), 0);
	KUNIT_EXPECT_EQ(test, mt_counter(port, MADCM_CNT_RMPP_RX_STRAY), 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&port->rmpp_peak_bytes), 0);
	KUNIT_EXPECT_EQ(test, log->transfers, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->live_recvs), 0);
cancel:
	/* The request ends before its address handle goes (test cleanup). */
	if (sb) {
		madcm_cancel_mad(sb);
		KUNIT_EXPECT_TRUE(test, rt_wait(&log->sent, 10));
	}
}

static struct kunit_case mad_rmpp_budget_cases[] = {
	KUNIT_CASE(stalled_sender_leaves_room_for_others),
	KUNIT_CASE(source_reassembly_count_is_capped),
	KUNIT_CASE(announced_length_is_not_allocated),
	KUNIT_CASE_PARAM(unsolicited_response_allocates_nothing,
			 unsol_gen_params),
	{}
};

static struct kunit_suite mad_rmpp_budget_suite = {
	.name = "madcm_mad_rmpp_budget",
	.init = bt_init,
	.exit = rt_params_exit,
	.test_cases = mad_rmpp_budget_cases,
};

kunit_test_suite(mad_rmpp_budget_suite);
