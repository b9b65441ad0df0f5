// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the MAD core under load and under failure. Cancels racing
 * responses and timeouts from several kthreads; unregistering with 10,000
 * sends outstanding; 100,000 sends outstanding answered in random order;
 * every allocation site failing in turn during a request/response
 * exchange. Each send must come back through its send handler exactly
 * once, and nothing may be left allocated.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mad_test_util.h"

#define LID_A		1
#define LID_B		2
#define LID_NOBODY	9

/* Send handler for the race: counts per send, never frees. */
struct race_ctx {
	atomic_t handled;
	atomic_t twice;
	atomic_t status[IB_WC_GENERAL_ERR + 1];
};

static void race_send_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_wc *wc)
{
	struct race_ctx *rc = agent->context;

	if (wc->status < ARRAY_SIZE(rc->status))
		atomic_inc(&rc->status[wc->status]);
	/* context[0] counts the handler calls of this one send. */
	if (atomic_inc_return((atomic_t *)&wc->send_buf->context[0]) != 1)
		atomic_inc(&rc->twice);
	atomic_inc(&rc->handled);
}

static void race_recv_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_buf *send_buf,
			      struct ib_mad_recv_wc *wc)
{
	madcm_free_recv_mad(wc);
}

#define RACE_THREADS	3
#define RACE_ROUNDS	15
#define RACE_BATCH	24

struct race_thread {
	struct kunit *test;
	struct ib_mad_agent *agent;
	struct ib_ah *ah;
	u32 id;
	int posted;
	int bad;
	struct completion done;
};

static int race_fn(void *arg)
{
	struct race_thread *t = arg;
	struct ib_mad_send_buf *sbs[RACE_BATCH];
	struct rnd_state rnd;
	int r, i, n, spins;

	prandom_seed_state(&rnd, 1000 + t->id);
	for (r = 0; r < RACE_ROUNDS; r++) {
		n = 0;
		for (i = 0; i < RACE_BATCH; i++) {
			struct ib_mad_send_buf *sb;
			struct ib_mad_hdr *hdr;

			sb = madcm_create_send_mad(t->agent, 1, 0, 0,
						   IB_MGMT_MAD_HDR,
						   IB_MGMT_MAD_DATA,
						   GFP_KERNEL, 1);
			if (IS_ERR(sb)) {
				t->bad++;
				continue;
			}
			hdr = sb->mad;
			hdr->base_version = 1;
			hdr->mgmt_class = MT_CLASS;
			hdr->class_version = MT_VERSION;
			hdr->method = IB_MGMT_METHOD_GET;
			hdr->tid = cpu_to_be64((u64)t->agent->hi_tid << 32 |
					       t->id << 24 | r << 8 | i);
			sb->ah = t->ah;
			/* Short timeouts so that some expire in the race. */
			sb->timeout_ms = 1 + prandom_u32_state(&rnd) % 3;
			sb->retries = prandom_u32_state(&rnd) % 2;
			if (madcm_post_send_mad(sb, NULL)) {
				madcm_free_send_mad(sb);
				t->bad++;
				continue;
			}
			sbs[n++] = sb;
			t->posted++;
		}
		/* Cancel or shorten some, while responses come in. */
		for (i = 0; i < n; i++) {
			switch (prandom_u32_state(&rnd) % 4) {
			case 0:
				madcm_cancel_mad(sbs[i]);
				break;
			case 1:
				madcm_modify_mad(sbs[i], 1);
				break;
			default:
				break;
			}
		}
		for (i = 0; i < n; i++) {
			for (spins = 0; spins < 20000; spins++) {
				if (atomic_read((atomic_t *)&sbs[i]->context[0]))
					break;
				usleep_range(500, 1000);
			}
			if (atomic_read((atomic_t *)&sbs[i]->context[0]) != 1)
				t->bad++;
			madcm_free_send_mad(sbs[i]);
		}
	}
	complete(&t->done);
	return 0;
}

static void cancel_races_response_and_timeout(struct kunit *test)
{
	struct madcm_loop_fabric *fab = mt_fabric(test, 7);
	struct madcm_port *a = mt_loop_port(test, fab, LID_A, false);
	struct madcm_port *b = mt_loop_port(test, fab, LID_B, false);
	struct race_thread *th;
	struct race_ctx *rc;
	struct mt_agent *ma;
	int i, posted = 0;

	th = kunit_kcalloc(test, RACE_THREADS, sizeof(*th), GFP_KERNEL);
	rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, th);
	KUNIT_ASSERT_NOT_NULL(test, rc);
	mt_responder(test, b, NULL);
	ma = mt_register(test, a, IB_QPT_GSI, NULL, 0, race_send_handler,
			 race_recv_handler, rc);
	for (i = 0; i < RACE_THREADS; i++) {
		struct task_struct *task;

		th[i].test = test;
		th[i].agent = ma->agent;
		th[i].ah = mt_ah(test, a, LID_B);
		th[i].id = i;
		init_completion(&th[i].done);
		task = kthread_run(race_fn, &th[i], "madcm_race%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	}
	for (i = 0; i < RACE_THREADS; i++) {
		wait_for_completion(&th[i].done);
		KUNIT_EXPECT_EQ(test, th[i].bad, 0);
		posted += th[i].posted;
	}
	KUNIT_EXPECT_EQ(test, posted, RACE_THREADS * RACE_ROUNDS * RACE_BATCH);
	KUNIT_EXPECT_EQ(test, atomic_read(&rc->handled), posted);
	KUNIT_EXPECT_EQ(test, atomic_read(&rc->twice), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rc->status[IB_WC_SUCCESS]) +
			atomic_read(&rc->status[IB_WC_WR_FLUSH_ERR]) +
			atomic_read(&rc->status[IB_WC_RESP_TIMEOUT_ERR]),
			posted);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(ma->agent), 0);
	madcm_loop_quiesce(fab);
}

static void unregister_with_10000_outstanding(struct kunit *test)
{
	struct madcm_loop_fabric *fab = mt_fabric(test, 3);
	struct madcm_port *a = mt_loop_port(test, fab, LID_A, false);
	struct ib_ah *ah = mt_ah(test, a, LID_NOBODY);
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const int n = 10000;
	struct mt_agent *ma;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	mt_counts_init(c, n);
	c->free_on_send = true;
	ma = mt_register(test, a, IB_QPT_GSI, NULL, 0, mt_count_send_handler,
			 mt_count_recv_handler, c);
	for (i = 0; i < n; i++) {
		struct ib_mad_send_buf *sb = mt_get_mad(test, ma->agent, ah, i,
							600000, 3);

		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	}
	mt_unregister(ma);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_WR_FLUSH_ERR]), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->order_errors), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->nr_agents), 0);
	madcm_loop_quiesce(fab);
}

static void many_outstanding_answered_in_random_order(struct kunit *test)
{
	struct mt_manual *mm = mt_manual_port(test, LID_A, false);
	struct ib_ah *ah = mt_ah(test, mm->port, LID_B);
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const u32 n = 100000;
	struct ib_mad_hdr *hdr;
	struct rnd_state rnd;
	struct mt_agent *ma;
	struct mt_post *p;
	u8 resp[256] = {};
	u32 *order, i, j;

	order = vmalloc(array_size(n, sizeof(*order)));
	KUNIT_ASSERT_NOT_NULL(test, order);
	KUNIT_ASSERT_NOT_NULL(test, c);
	mt_counts_init(c, n);
	c->free_on_send = true;
	ma = mt_register(test, mm->port, IB_QPT_GSI, NULL, 0,
			 mt_count_send_handler, mt_count_recv_handler, c);
	ma->mm = mm;
	for (i = 0; i < n; i++) {
		struct ib_mad_send_buf *sb = mt_get_mad(test, ma->agent, ah, i,
							600000, 0);

		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
		mt_manual_complete(mm, mt_manual_pop(mm), IB_WC_SUCCESS);
		order[i] = i;
		if (!(i % 1024))
			cond_resched();
	}
	/* Fisher-Yates with a fixed seed: the same order every run. */
	prandom_seed_state(&rnd, 2024);
	for (i = n - 1; i > 0; i--) {
		j = prandom_u32_state(&rnd) % (i + 1);
		swap(order[i], order[j]);
	}
	hdr = (struct ib_mad_hdr *)resp;
	hdr->base_version = 1;
	hdr->mgmt_class = MT_CLASS;
	hdr->class_version = MT_VERSION;
	hdr->method = IB_MGMT_METHOD_GET_RESP;
	for (i = 0; i < n; i++) {
		hdr->tid = cpu_to_be64((u64)ma->agent->hi_tid << 32 | order[i]);
		mt_manual_deliver(mm, resp, sizeof(resp), 1, LID_B, 1);
		if (!(i % 1024))
			cond_resched();
	}
	vfree(order);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->order_errors), 0);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX_UNMATCHED_RESP),
			0);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(ma->agent), 0);
	p = mt_manual_pop(mm);
	KUNIT_EXPECT_NULL(test, p);
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
}

static const enum madcm_fault_site exchange_sites[] = {
	MADCM_FAULT_AGENT, MADCM_FAULT_REG_REQ, MADCM_FAULT_HI_TID,
	MADCM_FAULT_TID_TABLE, MADCM_FAULT_REG_SLOT, MADCM_FAULT_SEND_BUF,
	MADCM_FAULT_AH, MADCM_FAULT_RECV, MADCM_FAULT_REPLY,
	MADCM_FAULT_LOOP_PKT,
};

static const char *const exchange_site_names[] = {
	"agent", "reg_req", "hi_tid", "tid_table", "reg_slot", "send_buf",
	"ah", "recv", "reply", "loop_pkt",
};

static void exchange_site_desc(const enum madcm_fault_site *s, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s fails",
		 exchange_site_names[s - exchange_sites]);
}

KUNIT_ARRAY_PARAM(exchange_site, exchange_sites, exchange_site_desc);

/* How an exchange ended. */
struct exchange_outcome {
	int err;	/* the first error a call returned, or 0 */
	bool posted;	/* the request was posted */
	int sends;	/* send handler calls for it */
};

static void exchange_failed(struct exchange_outcome *o, long err)
{
	if (!o->err)
		o->err = err;
}

static void exchange_run(struct kunit *test, struct madcm_port *a,
			 struct madcm_port *b, struct exchange_outcome *o)
{
	struct ib_mad_reg_req req;
	static const u8 get[] = { IB_MGMT_METHOD_GET };
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct ib_mad_agent *responder, *client;
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;
	struct rdma_ah_attr attr = { .type = RDMA_AH_ATTR_TYPE_IB };
	struct ib_ah *ah;
	int ret;

	memset(o, 0, sizeof(*o));
	KUNIT_ASSERT_NOT_NULL(test, c);
	mt_counts_init(c, 1);
	c->free_on_send = true;
	mt_reg_req(&req, MT_CLASS, MT_VERSION, get, 1);
	/*
	 * The responder: the helper's, but without asserting success. The
	 * exchange goes on without it: the port answers the Set.
	 */
	responder = madcm_register_mad_agent(b, IB_QPT_GSI, &req, 0,
					     mt_count_send_handler,
					     mt_count_recv_handler, c, 0);
	if (IS_ERR(responder))
		exchange_failed(o, PTR_ERR(responder));
	client = madcm_register_mad_agent(a, IB_QPT_GSI, NULL, 0,
					  mt_count_send_handler,
					  mt_count_recv_handler, c, 0);
	if (IS_ERR(client)) {
		exchange_failed(o, PTR_ERR(client));
		goto out;
	}
	rdma_ah_set_dlid(&attr, madcm_port_lid(b));
	ah = madcm_create_ah(a, &attr);
	if (IS_ERR(ah)) {
		exchange_failed(o, PTR_ERR(ah));
		goto out;
	}
	sb = madcm_create_send_mad(client, 1, 0, 0, IB_MGMT_MAD_HDR,
				   IB_MGMT_MAD_DATA, GFP_KERNEL, 1);
	if (IS_ERR(sb)) {
		exchange_failed(o, PTR_ERR(sb));
	} else {
		hdr = sb->mad;
		hdr->base_version = 1;
		hdr->mgmt_class = MT_CLASS;
		hdr->class_version = MT_VERSION;
		/* A Set: answered by the port when nobody registered it. */
		hdr->method = IB_MGMT_METHOD_SET;
		hdr->tid = cpu_to_be64((u64)client->hi_tid << 32 | 1);
		sb->ah = ah;
		/*
		 * No retry, and a timeout no answer misses: a retry, or an
		 * answer landing after the client left, would change how
		 * many times the exchange uses a site from one run to the
		 * next (the dry run counted a retry's reply AH under load,
		 * and the armed run then never reached its third use).
		 */
		sb->timeout_ms = 1000;
		sb->retries = 0;
		ret = madcm_post_send_mad(sb, NULL);
		if (ret) {
			exchange_failed(o, ret);
			madcm_free_send_mad(sb);
		} else {
			o->posted = true;
			KUNIT_EXPECT_TRUE(test, mt_wait(c, 30));
		}
	}
	madcm_destroy_ah(ah);
out:
	if (!IS_ERR(client))
		madcm_unregister_mad_agent(client);
	if (!IS_ERR(responder))
		madcm_unregister_mad_agent(responder);
	o->sends = atomic_read(&c->sends);
}

/*
 * Each allocation site failing at its 1st, 2nd, 3rd use in turn, as far
 * as the exchange uses it (a dry run counts the uses). Each fault must
 * fire, and be handled: the call that met it returns -ENOMEM, or the
 * request still comes back through its send handler exactly once.
 */
static void exchange_survives_allocation_failure(struct kunit *test)
{
	const enum madcm_fault_site *site = test->param_value;
	struct madcm_loop_fabric *fab = mt_fabric(test, 5);
	struct madcm_port *a = mt_loop_port(test, fab, LID_A, false);
	struct madcm_port *b = mt_loop_port(test, fab, LID_B, false);
	struct exchange_outcome o;
	unsigned int nth, passes;

	madcm_fault_disarm();
	madcm_fault_reset_counts();
	exchange_run(test, a, b, &o);
	madcm_loop_quiesce(fab);
	passes = madcm_fault_passes(*site);
	KUNIT_EXPECT_EQ(test, o.err, 0);
	KUNIT_EXPECT_EQ(test, o.sends, 1);
	KUNIT_ASSERT_GE_MSG(test, passes, 1U,
			    "the exchange never uses this site");
	kunit_info(test, "the exchange uses the site %u times\n", passes);
	for (nth = 1; nth <= min(passes, 3U); nth++) {
		madcm_fault_arm(*site, nth);
		exchange_run(test, a, b, &o);
		madcm_loop_quiesce(fab);
		madcm_fault_disarm();
		KUNIT_EXPECT_EQ_MSG(test, madcm_fault_fired(*site), 1U,
				    "use %u of %u", nth, passes);
		KUNIT_EXPECT_EQ(test, madcm_fault_hits(), 1U);
		KUNIT_EXPECT_TRUE_MSG(test, o.err || o.posted,
				      "use %u: nothing failed, nothing sent",
				      nth);
		if (o.err)
			KUNIT_EXPECT_EQ_MSG(test, o.err, -ENOMEM, "use %u",
					    nth);
		if (o.posted)
			KUNIT_EXPECT_EQ_MSG(test, o.sends, 1, "use %u", nth);
		KUNIT_EXPECT_EQ(test, atomic_read(&a->live_recvs), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->live_recvs), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&a->live_ahs), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->live_ahs), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->live_replies), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&a->nr_agents), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->nr_agents), 0);
	}
}

/*
 * Requests over links that drop, duplicate, reorder and delay in both
 * directions: each send still comes back exactly once, answered or
 * timed out, and duplicate responses find nobody.
 */
static void lossy_links_each_send_once(struct kunit *test)
{
	struct madcm_loop_faults f = {
		.drop = 200, .duplicate = 200, .reorder = 200, .delay = 200,
		.delay_max_ms = 3,
	};
	struct madcm_loop_fabric *fab = mt_fabric(test, 11);
	struct madcm_port *a = mt_loop_port(test, fab, LID_A, false);
	struct madcm_port *b = mt_loop_port(test, fab, LID_B, false);
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const int n = 300;
	struct mt_agent *ma;
	struct ib_ah *ah;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(a, LID_B, &f), 0);
	KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(b, LID_A, &f), 0);
	mt_counts_init(c, n);
	c->free_on_send = true;
	ma = mt_register(test, a, IB_QPT_GSI, NULL, 0, mt_count_send_handler,
			 mt_count_recv_handler, c);
	mt_responder(test, b, NULL);
	ah = mt_ah(test, a, LID_B);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test,
				madcm_post_send_mad(mt_get_mad(test, ma->agent,
							       ah, i, 10, 3),
						    NULL), 0);
	KUNIT_ASSERT_TRUE(test, mt_wait(c, 120));
	madcm_loop_quiesce(fab);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->order_errors), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]) +
			atomic_read(&c->status[IB_WC_RESP_TIMEOUT_ERR]), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send),
			atomic_read(&c->status[IB_WC_SUCCESS]));
	KUNIT_EXPECT_GT(test, atomic_read(&c->status[IB_WC_SUCCESS]), 0);
	/* Every received response was matched once or counted unmatched. */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->recvs) +
			mt_counter(a, MADCM_CNT_RX_UNMATCHED_RESP),
			mt_counter(a, MADCM_CNT_RX));
}

static struct kunit_case mad_stress_cases[] = {
	KUNIT_CASE(cancel_races_response_and_timeout),
	KUNIT_CASE(unregister_with_10000_outstanding),
	KUNIT_CASE(many_outstanding_answered_in_random_order),
	KUNIT_CASE(lossy_links_each_send_once),
	KUNIT_CASE_PARAM(exchange_survives_allocation_failure,
			 exchange_site_gen_params),
	{}
};

static struct kunit_suite mad_stress_suite = {
	.name = "madcm_mad_stress",
	.test_cases = mad_stress_cases,
};

kunit_test_suite(mad_stress_suite);
