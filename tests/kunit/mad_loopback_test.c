// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the loopback fabric. Ports are reached by LID and QP; links drop,
 * duplicate, reorder and delay MADs as configured, with decisions that
 * depend only on the fabric's seed; sends complete whatever the link does.
 */
#include <kunit/test.h>
#include <linux/delay.h>

#include "mad_test_util.h"

#define LID_A	1
#define LID_B	2

/* Records the low TID bits of every request B receives, in order. */
struct sink {
	spinlock_t lock;	/* protects n and tids */
	int n;
	u32 tids[64];
};

static void sink_recv(struct ib_mad_agent *agent,
		      struct ib_mad_send_buf *send_buf,
		      struct ib_mad_recv_wc *wc)
{
	struct sink *s = agent->context;

	spin_lock(&s->lock);
	if (s->n < ARRAY_SIZE(s->tids))
		s->tids[s->n] = be64_to_cpu(wc->recv_buf.mad->mad_hdr.tid);
	s->n++;
	spin_unlock(&s->lock);
	madcm_free_recv_mad(wc);
}

static void nop_send(struct ib_mad_agent *a, struct ib_mad_send_wc *wc)
{
}

struct loop_env {
	struct madcm_loop_fabric *fab;
	struct madcm_port *a, *b;
	struct mt_counts *c;
	struct mt_agent *client;
	struct sink *sink;
	struct ib_ah *ah;
};

static struct loop_env *loop_env(struct kunit *test, u64 seed)
{
	static const u8 get[] = { IB_MGMT_METHOD_GET };
	struct loop_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	struct ib_mad_reg_req req;

	KUNIT_ASSERT_NOT_NULL(test, e);
	e->c = kunit_kzalloc(test, sizeof(*e->c), GFP_KERNEL);
	e->sink = kunit_kzalloc(test, sizeof(*e->sink), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->c);
	KUNIT_ASSERT_NOT_NULL(test, e->sink);
	spin_lock_init(&e->sink->lock);
	e->fab = mt_fabric(test, seed);
	e->a = mt_loop_port(test, e->fab, LID_A, false);
	e->b = mt_loop_port(test, e->fab, LID_B, false);
	mt_counts_init(e->c, 0);
	e->c->free_on_send = true;
	e->client = mt_register(test, e->a, IB_QPT_GSI, NULL, 0,
				mt_count_send_handler, mt_count_recv_handler,
				e->c);
	mt_reg_req(&req, MT_CLASS, MT_VERSION, get, 1);
	mt_register(test, e->b, IB_QPT_GSI, &req, 0, nop_send, sink_recv,
		    e->sink);
	e->ah = mt_ah(test, e->a, LID_B);
	return e;
}

/* Send @n Gets with TIDs 1..n, no response expected, and settle. */
static void send_gets(struct kunit *test, struct loop_env *e, int n)
{
	int i;

	for (i = 1; i <= n; i++)
		KUNIT_ASSERT_EQ(test,
				madcm_post_send_mad(mt_get_mad(test,
							       e->client->agent,
							       e->ah, i, 0, 0),
						    NULL), 0);
	madcm_loop_quiesce(e->fab);
}

static void port_lids_are_unique_unicast(struct kunit *test)
{
	struct madcm_loop_fabric *fab = mt_fabric(test, 1);
	struct madcm_port *p;

	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(madcm_loop_port_create(fab, 0,
								     false)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			PTR_ERR_OR_ZERO(madcm_loop_port_create(fab, 0xc000,
							       false)),
			-EINVAL);
	p = madcm_loop_port_create(fab, 7, false);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p));
	KUNIT_EXPECT_EQ(test, madcm_port_lid(p), 7);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(madcm_loop_port_create(fab, 7,
								     false)),
			-EEXIST);
	madcm_loop_port_destroy(p);
	p = madcm_loop_port_create(fab, 7, false);
	KUNIT_EXPECT_FALSE(test, IS_ERR(p));
	madcm_loop_port_destroy(p);
}

static void perfect_link_delivers_in_order(struct kunit *test)
{
	struct loop_env *e = loop_env(test, 1);
	int i;

	send_gets(test, e, 8);
	KUNIT_ASSERT_EQ(test, e->sink->n, 8);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, e->sink->tids[i] & 0xff, i + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->c->status[IB_WC_SUCCESS]), 8);
}

static void mad_to_other_qp_is_lost(struct kunit *test)
{
	struct loop_env *e = loop_env(test, 1);
	struct ib_mad_send_buf *sb;

	sb = madcm_create_send_mad(e->client->agent, 5, 0, 0, IB_MGMT_MAD_HDR,
				   IB_MGMT_MAD_DATA, GFP_KERNEL, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	sb->ah = e->ah;
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	madcm_loop_quiesce(e->fab);
	KUNIT_EXPECT_EQ(test, mt_counter(e->b, MADCM_CNT_RX), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->c->status[IB_WC_SUCCESS]), 1);
}

static void dropping_link_loses_mads_not_completions(struct kunit *test)
{
	struct loop_env *e = loop_env(test, 1);
	struct madcm_loop_faults f = { .drop = 1000 };

	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(e->a, LID_B, &f), 0);
	send_gets(test, e, 5);
	KUNIT_EXPECT_EQ(test, e->sink->n, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->c->status[IB_WC_SUCCESS]), 5);
	/* Back to a perfect link. */
	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(e->a, LID_B, NULL), 0);
	send_gets(test, e, 1);
	KUNIT_EXPECT_EQ(test, e->sink->n, 1);
}

static void duplicating_link_delivers_twice(struct kunit *test)
{
	struct loop_env *e = loop_env(test, 1);
	struct madcm_loop_faults f = { .duplicate = 1000 };

	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(e->a, LID_B, &f), 0);
	send_gets(test, e, 3);
	KUNIT_EXPECT_EQ(test, e->sink->n, 6);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->c->sends), 3);
}

/* Every MAD held back is overtaken by the next one: pairs swap. */
static void reordering_link_swaps_neighbours(struct kunit *test)
{
	struct loop_env *e = loop_env(test, 1);
	struct madcm_loop_faults f = { .reorder = 1000 };
	static const u32 expect[] = { 2, 1, 4, 3, 6, 5 };
	int i;

	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(e->a, LID_B, &f), 0);
	send_gets(test, e, ARRAY_SIZE(expect));
	KUNIT_ASSERT_EQ(test, e->sink->n, ARRAY_SIZE(expect));
	for (i = 0; i < ARRAY_SIZE(expect); i++)
		KUNIT_EXPECT_EQ(test, e->sink->tids[i] & 0xff, expect[i]);
}

/* A held-back MAD with no successor still arrives. */
static void reordered_last_mad_still_arrives(struct kunit *test)
{
	struct loop_env *e = loop_env(test, 1);
	struct madcm_loop_faults f = { .reorder = 1000 };

	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(e->a, LID_B, &f), 0);
	send_gets(test, e, 1);
	KUNIT_EXPECT_EQ(test, e->sink->n, 1);
}

static void delaying_link_still_delivers(struct kunit *test)
{
	struct loop_env *e = loop_env(test, 1);
	struct madcm_loop_faults f = { .delay = 1000, .delay_max_ms = 5 };

	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(e->a, LID_B, &f), 0);
	send_gets(test, e, 10);
	KUNIT_EXPECT_EQ(test, e->sink->n, 10);
}

/* The same seed makes the same decisions. */
static void faults_follow_the_seed(struct kunit *test)
{
	struct madcm_loop_faults f = { .drop = 500 };
	struct loop_env *e1 = loop_env(test, 99);
	struct loop_env *e2;
	int n1;

	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(e1->a, LID_B, &f), 0);
	send_gets(test, e1, 60);
	n1 = e1->sink->n;
	KUNIT_EXPECT_GT(test, n1, 0);
	KUNIT_EXPECT_LT(test, n1, 60);
	/* A second fabric with the same seed, same LIDs, same traffic. */
	e2 = loop_env(test, 99);
	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(e2->a, LID_B, &f), 0);
	send_gets(test, e2, 60);
	KUNIT_EXPECT_EQ(test, e2->sink->n, n1);
}

static void set_faults_rejects_bad_arguments(struct kunit *test)
{
	struct loop_env *e = loop_env(test, 1);
	struct madcm_loop_faults f = { .drop = 1001 };
	struct mt_manual *mm = mt_manual_port(test, 5, false);

	KUNIT_EXPECT_EQ(test, madcm_loop_set_faults(e->a, LID_B, &f), -EINVAL);
	f.drop = 0;
	KUNIT_EXPECT_EQ(test, madcm_loop_set_faults(mm->port, LID_B, &f),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, madcm_loop_set_faults(NULL, LID_B, &f), -EINVAL);
}

/* A response arriving after unregistration reaches no handler. */
static void no_callback_after_unregister(struct kunit *test)
{
	struct madcm_loop_faults slow = { .delay = 1000, .delay_max_ms = 20 };
	struct madcm_loop_fabric *fab = mt_fabric(test, 1);
	struct madcm_port *a = mt_loop_port(test, fab, LID_A, false);
	struct madcm_port *b = mt_loop_port(test, fab, LID_B, false);
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct ib_mad_send_buf *sb;
	struct mt_agent *client;
	int sends, recvs;

	KUNIT_ASSERT_NOT_NULL(test, c);
	mt_counts_init(c, 0);
	c->free_on_send = true;
	client = mt_register(test, a, IB_QPT_GSI, NULL, 0,
			     mt_count_send_handler, mt_count_recv_handler, c);
	mt_responder(test, b, NULL);
	/* The responses from B to A take up to 20 ms. */
	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(b, LID_A, &slow), 0);
	sb = mt_get_mad(test, client->agent, mt_ah(test, a, LID_B), 1, 60000,
			0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	mt_unregister(client);
	sends = atomic_read(&c->sends);
	recvs = atomic_read(&c->recvs);
	KUNIT_EXPECT_EQ(test, sends, 1);
	madcm_loop_quiesce(fab);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), sends);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->recvs), recvs);
	/* The response came in time, or found nobody to take it. */
	KUNIT_EXPECT_EQ(test, mt_counter(a, MADCM_CNT_RX_UNMATCHED_RESP) +
			atomic_read(&c->resp_with_send), 1);
}

/*
 * Destroying a port while Gets nobody takes are still on their way to it:
 * its work answers them "unsupported method/attribute" while the port is
 * being destroyed. Nothing of those replies, their address handles or
 * the port may be left.
 */
static void destroy_port_with_queued_replies(struct kunit *test)
{
	struct madcm_loop_fabric *fab = mt_fabric(test, 1);
	struct madcm_port *a = madcm_loop_port_create(fab, LID_A, false);
	struct madcm_port *b = mt_loop_port(test, fab, LID_B, false);
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct ib_mad_send_buf *sb[8];
	struct mt_agent *client;
	struct ib_ah *ah;
	int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_ASSERT_NOT_NULL(test, c);
	mt_counts_init(c, ARRAY_SIZE(sb));
	c->free_on_send = true;
	client = mt_register(test, b, IB_QPT_GSI, NULL, 0,
			     mt_count_send_handler, mt_count_recv_handler, c);
	ah = mt_ah(test, b, LID_A);
	for (i = 0; i < ARRAY_SIZE(sb); i++)
		sb[i] = mt_get_mad(test, client->agent, ah, i + 1, 0, 0);
	/* Nothing here sleeps: the Gets wait in A's queue, unprocessed. */
	for (i = 0; i < ARRAY_SIZE(sb); i++)
		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb[i], NULL), 0);
	/* Keep the port object to look at it after its destruction. */
	madcm_port_get(a);
	madcm_loop_port_destroy(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->live_replies), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->live_ahs), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&a->refs), 1);
	madcm_port_put(a);
	KUNIT_ASSERT_TRUE(test, mt_wait(c, 30));
	madcm_loop_quiesce(fab);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 8);
}

static struct kunit_case mad_loopback_cases[] = {
	KUNIT_CASE(port_lids_are_unique_unicast),
	KUNIT_CASE(perfect_link_delivers_in_order),
	KUNIT_CASE(mad_to_other_qp_is_lost),
	KUNIT_CASE(dropping_link_loses_mads_not_completions),
	KUNIT_CASE(duplicating_link_delivers_twice),
	KUNIT_CASE(reordering_link_swaps_neighbours),
	KUNIT_CASE(reordered_last_mad_still_arrives),
	KUNIT_CASE(delaying_link_still_delivers),
	KUNIT_CASE(faults_follow_the_seed),
	KUNIT_CASE(set_faults_rejects_bad_arguments),
	KUNIT_CASE(no_callback_after_unregister),
	KUNIT_CASE(destroy_port_with_queued_replies),
	{}
};

static struct kunit_suite mad_loopback_suite = {
	.name = "madcm_mad_loopback",
	.test_cases = mad_loopback_cases,
};

kunit_test_suite(mad_loopback_suite);
