// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the send path. Requests and responses across loopback ports,
 * timeouts and retries, early responses, cancel and modify, and the
 * lifecycle rule that each posted send comes back exactly once through
 * the send handler, after the response (when there is one) went to the
 * recv handler. The "manual" transport lets a test decide when a send
 * completes and what arrives.
 */
#include <kunit/test.h>
#include <rdma/ib_smi.h>

#include "mad_test_util.h"

#define LID_A	1
#define LID_B	2
#define LID_NOBODY	9

struct send_env {
	struct mt_counts c;
	struct madcm_port *a;
	struct madcm_port *b;
	struct mt_agent *client;
};

/* A client agent on @port that counts what comes back, frees on send. */
static struct mt_agent *client(struct kunit *test, struct madcm_port *port,
			       struct mt_counts *c, int target)
{
	mt_counts_init(c, target);
	c->free_on_send = true;
	return mt_register(test, port, IB_QPT_GSI, NULL, 0,
			   mt_count_send_handler, mt_count_recv_handler, c);
}

static struct send_env *loop_env(struct kunit *test, int target)
{
	struct send_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	struct madcm_loop_fabric *fab;

	KUNIT_ASSERT_NOT_NULL(test, env);
	fab = mt_fabric(test, 42);
	env->a = mt_loop_port(test, fab, LID_A, false);
	env->b = mt_loop_port(test, fab, LID_B, false);
	env->client = client(test, env->a, &env->c, target);
	return env;
}

static void request_gets_response_across_loopback(struct kunit *test)
{
	struct send_env *env = loop_env(test, 1);
	atomic_t answered = ATOMIC_INIT(0);
	struct ib_mad_send_buf *sb;

	mt_responder(test, env->b, &answered);
	sb = mt_get_mad(test, env->client->agent, mt_ah(test, env->a, LID_B),
			1, 5000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, mt_wait(&env->c, 30));
	KUNIT_EXPECT_EQ(test, atomic_read(&env->c.status[IB_WC_SUCCESS]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->c.resp_with_send), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->c.order_errors), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&answered), 1);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(env->client->agent), 0);
}

/*
 * A UD send to a LID nobody has: nothing tells the sender (UD has no
 * acknowledgment), so the send itself completes with IB_WC_SUCCESS, as
 * on a real fabric; a request to it times out (the case below).
 */
static void send_without_timeout_completes_on_send(struct kunit *test)
{
	struct send_env *env = loop_env(test, 1);
	struct ib_mad_send_buf *sb;

	sb = mt_get_mad(test, env->client->agent,
			mt_ah(test, env->a, LID_NOBODY), 1, 0, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, mt_wait(&env->c, 30));
	KUNIT_EXPECT_EQ(test, atomic_read(&env->c.status[IB_WC_SUCCESS]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->c.recvs), 0);
}

/* No answer: the MAD goes out 1 + retries times, then times out. */
static void unanswered_send_retries_then_times_out(struct kunit *test)
{
	struct send_env *env = loop_env(test, 1);
	struct ib_mad_send_buf *sb;

	sb = mt_get_mad(test, env->client->agent,
			mt_ah(test, env->a, LID_NOBODY), 1, 20, 2);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, mt_wait(&env->c, 30));
	KUNIT_EXPECT_EQ(test,
			atomic_read(&env->c.status[IB_WC_RESP_TIMEOUT_ERR]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->c.last_retries), 2);
	KUNIT_EXPECT_EQ(test, mt_counter(env->a, MADCM_CNT_TX), 3);
	KUNIT_EXPECT_EQ(test, mt_counter(env->a, MADCM_CNT_RETRY), 2);
	KUNIT_EXPECT_EQ(test, mt_counter(env->a, MADCM_CNT_TIMEOUT), 1);
}

/* A manual port with a counting client on it. */
/*
 * The counts live in test-managed memory: handlers may still run while
 * the test's resources are released, after the test function returned.
 */
static struct mt_manual *manual_env(struct kunit *test, struct mt_counts **c,
				    struct mt_agent **ma, bool free_on_send)
{
	struct mt_manual *mm = mt_manual_port(test, LID_A, false);

	*c = kunit_kzalloc(test, sizeof(**c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *c);
	*ma = client(test, mm->port, *c, 1);
	(*ma)->mm = mm;
	(*c)->free_on_send = free_on_send;
	return mm;
}

static void deliver_response(struct mt_manual *mm, const u8 *req, u32 slid)
{
	u8 resp[sizeof(struct ib_mad)];

	mt_make_response(req, resp);
	mt_manual_deliver(mm, resp, sizeof(resp), 1, slid, 1);
}

static void retry_is_answered(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, true);
	struct ib_mad_send_buf *sb;
	u8 req[sizeof(struct ib_mad)];
	struct mt_post *p;

	sb = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 7, 10,
			3);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	/* The timeout resends it. */
	KUNIT_ASSERT_TRUE(test, mt_wait_posts(mm, 2));
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(req, p->mad, sizeof(req));
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	deliver_response(mm, req, LID_B);
	KUNIT_ASSERT_TRUE(test, mt_wait(c, 30));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 1);
	KUNIT_EXPECT_GE(test, atomic_read(&c->last_retries), 1);
}

/* A response before the send completion: recv handler first, then send. */
static void early_response_before_completion(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, false);
	struct ib_mad_send_buf *sb;
	struct mt_post *p;

	sb = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 1,
			5000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	deliver_response(mm, p->mad, LID_B);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), 0);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb), MADCM_SEND_EARLY_RESP);
	/* A second copy of the response matches nothing any more. */
	deliver_response(mm, p->mad, LID_B);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 1);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX_UNMATCHED_RESP),
			1);
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->order_errors), 0);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb), MADCM_SEND_DONE);
	madcm_free_send_mad(sb);
}

/* Cancelled: the completion comes from the core's worker, not the call. */
static void cancel_waiting_send_flushes_from_worker(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, true);
	struct ib_mad_send_buf *sb;

	sb = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 1,
			60000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	mt_manual_complete(mm, mt_manual_pop(mm), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), 0);
	madcm_cancel_mad(sb);
	KUNIT_ASSERT_TRUE(test, mt_wait(c, 30));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_WR_FLUSH_ERR]), 1);
}

static void cancel_posted_send_waits_for_transport(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, false);
	struct ib_mad_send_buf *sb;
	struct mt_post *p;

	sb = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 1,
			60000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	p = mt_manual_pop(mm);
	madcm_cancel_mad(sb);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb), MADCM_SEND_CANCELLED);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), 0);
	/* Its response, arriving now, belongs to nobody. */
	deliver_response(mm, p->mad, LID_B);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->recvs), 0);
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_WR_FLUSH_ERR]), 1);
	/* Done: cancelling or modifying again does nothing. */
	madcm_cancel_mad(sb);
	KUNIT_EXPECT_EQ(test, madcm_modify_mad(sb, 100), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), 1);
	madcm_free_send_mad(sb);
}

static void modify_sets_new_deadline(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, true);
	struct ib_mad_send_buf *sb;

	sb = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 1,
			600000, 0);
	KUNIT_EXPECT_EQ(test, madcm_modify_mad(sb, 10), -EINVAL);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	mt_manual_complete(mm, mt_manual_pop(mm), IB_WC_SUCCESS);
	/* Ten minutes become 10 ms: it times out while the test waits. */
	KUNIT_EXPECT_EQ(test, madcm_modify_mad(sb, 10), 0);
	KUNIT_ASSERT_TRUE(test, mt_wait(c, 30));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_RESP_TIMEOUT_ERR]),
			1);
}

/*
 * A second send with the TID, class and address of one still outstanding
 * is accepted, as by ib_core. A response goes to the one whose send
 * completed, the next one to the other, still at the transport.
 */
static void duplicate_outstanding_tid_accepted(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, true);
	struct ib_mad_send_buf *a, *b, *d;
	u8 req[sizeof(struct ib_mad)];
	struct mt_post *pa, *pb;
	int ret;

	a = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 5,
		       60000, 0);
	b = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 5,
		       60000, 0);
	d = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, 3), 5, 60000,
		       0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(a, NULL), 0);
	ret = madcm_post_send_mad(b, NULL);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (ret) {
		madcm_free_send_mad(b);
		return;
	}
	/* The same TID to another address is another transaction. */
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(d, NULL), 0);
	pa = mt_manual_pop(mm);
	pb = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, pa);
	KUNIT_ASSERT_NOT_NULL(test, pb);
	memcpy(req, pa->mad, sizeof(req));
	mt_manual_complete(mm, pa, IB_WC_SUCCESS);
	deliver_response(mm, req, LID_B);
	/* a had completed: it took the response and is done. */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 1);
	KUNIT_EXPECT_EQ(test, madcm_send_state(b), MADCM_SEND_POSTED);
	deliver_response(mm, req, LID_B);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 2);
	KUNIT_EXPECT_EQ(test, madcm_send_state(b), MADCM_SEND_EARLY_RESP);
	mt_manual_complete(mm, pb, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->order_errors), 0);
	/* A third copy has nobody left at LID_B. */
	deliver_response(mm, req, LID_B);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 2);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX_UNMATCHED_RESP),
			1);
}

static void response_from_other_address_not_matched(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, true);
	struct ib_mad_send_buf *sb;
	u8 req[sizeof(struct ib_mad)];
	struct mt_post *p;

	sb = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 1,
			60000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(req, p->mad, sizeof(req));
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	deliver_response(mm, req, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->recvs), 0);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX_UNMATCHED_RESP),
			1);
	deliver_response(mm, req, LID_B);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 1);
}

/* A response of another class with the request's TID is not its response. */
static void response_of_other_class_not_matched(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, true);
	u8 req[sizeof(struct ib_mad)], resp[sizeof(struct ib_mad)];
	struct ib_mad_send_buf *sb;
	struct mt_post *p;

	sb = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 1,
			60000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(req, p->mad, sizeof(req));
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	mt_make_response(req, resp);
	/* Baseboard management (0x05) instead of performance (0x04). */
	((struct ib_mad_hdr *)resp)->mgmt_class = IB_MGMT_CLASS_BM;
	mt_manual_deliver(mm, resp, sizeof(resp), 1, LID_B, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->recvs), 0);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX_UNMATCHED_RESP),
			1);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb), MADCM_SEND_WAIT_RESP);
	deliver_response(mm, req, LID_B);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 1);
}

/*
 * A directed-route SMP's response is matched by TID and class alone: it
 * comes back along the reversed path, from whatever LID the responder has
 * (the request went to the permissive LID), so the source address says
 * nothing (IBTA vol. 1 14.2.2; ib_core skips the address compare for
 * class 0x81).
 */
static void dr_smp_response_matched_without_address(struct kunit *test)
{
	struct mt_manual *mm = mt_manual_port(test, LID_A, false);
	u8 req[sizeof(struct ib_mad)], resp[sizeof(struct ib_mad)];
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;
	struct mt_counts *c;
	struct mt_agent *ma;
	struct mt_post *p;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	mt_counts_init(c, 1);
	c->free_on_send = true;
	/* A client on QP0: it sends requests, registers no method. */
	ma = mt_register(test, mm->port, IB_QPT_SMI, NULL, 0,
			 mt_count_send_handler, mt_count_recv_handler, c);
	KUNIT_ASSERT_NOT_NULL(test, ma);

	sb = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, 0xffff), 9,
			60000, 0);
	hdr = sb->mad;
	hdr->mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	hdr->class_version = 1;
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(req, p->mad, sizeof(req));
	mt_manual_complete(mm, p, IB_WC_SUCCESS);

	mt_make_response(req, resp);
	/* The D bit: a returning directed-route SMP (14.2.2.1). */
	((struct ib_mad_hdr *)resp)->status |= IB_SMP_DIRECTION;
	mt_manual_deliver(mm, resp, sizeof(resp), 0, LID_B, 0);
	KUNIT_ASSERT_TRUE(test, mt_wait(c, 30));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 1);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX_UNMATCHED_RESP),
			0);
}

/*
 * The P_Key index a GMP is created with is the one it leaves with, or the
 * buffer is refused: a port that can send on indices 0-3 only takes 3 and
 * hands the transport 3, and refuses 4 (never another partition,
 * silently); a port without a limit takes any index.
 */
static void pkey_index_honoured_or_refused(struct kunit *test)
{
	struct mt_manual *mm = mt_manual_port_pkeys(test, LID_A, false, 4);
	struct mt_manual *any = mt_manual_port(test, LID_B, false);
	struct ib_mad_send_buf *sb;
	struct mt_counts *c;
	struct mt_agent *ma;
	struct mt_post *p;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	ma = client(test, mm->port, c, 1);
	sb = madcm_create_send_mad(ma->agent, 1, 3, 0, IB_MGMT_MAD_HDR,
				   IB_MGMT_MAD_DATA, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	sb->ah = mt_ah(test, mm->port, LID_B);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p->pkey_index, 3);
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, mt_wait(c, 30));

	sb = madcm_create_send_mad(ma->agent, 1, 4, 0, IB_MGMT_MAD_HDR,
				   IB_MGMT_MAD_DATA, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(sb), -EINVAL);

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	ma = client(test, any->port, c, 1);
	sb = madcm_create_send_mad(ma->agent, 1, 0xffff, 0, IB_MGMT_MAD_HDR,
				   IB_MGMT_MAD_DATA, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	madcm_free_send_mad(sb);
}

/*
 * What the transport is given: an IB MAD is always 256 bytes (13.4.1); an
 * OPA MAD only its headers and data (the "short" send).
 */
static void sends_have_their_wire_length(struct kunit *test)
{
	struct mt_manual *mm = mt_manual_port(test, LID_A, true);
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct ib_ah *ah = mt_ah(test, mm->port, LID_B);
	struct ib_mad_send_buf *ib, *opa;
	struct mt_agent *ma;
	struct mt_post *p;

	KUNIT_ASSERT_NOT_NULL(test, c);
	ma = client(test, mm->port, c, 2);
	ma->mm = mm;
	ib = madcm_create_send_mad(ma->agent, 1, 0, 0, IB_MGMT_MAD_HDR, 100,
				   GFP_KERNEL, IB_MGMT_BASE_VERSION);
	opa = madcm_create_send_mad(ma->agent, 1, 0, 0, IB_MGMT_MAD_HDR, 100,
				    GFP_KERNEL, OPA_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ib));
	KUNIT_ASSERT_FALSE(test, IS_ERR(opa));
	((struct ib_mad_hdr *)ib->mad)->base_version = IB_MGMT_BASE_VERSION;
	((struct ib_mad_hdr *)opa->mad)->base_version = OPA_MGMT_BASE_VERSION;
	ib->ah = ah;
	opa->ah = ah;
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(ib, NULL), 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(opa, NULL), 0);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p->len, 256);
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p->len, 24 + 100);
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 2);
}

static void post_chain_reports_bad_buffer(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, true);
	struct ib_ah *ah = mt_ah(test, mm->port, LID_B);
	struct ib_mad_send_buf *s1, *s2, *s3, *bad = NULL;

	s1 = mt_get_mad(test, ma->agent, ah, 1, 0, 0);
	s2 = mt_get_mad(test, ma->agent, NULL, 2, 0, 0);
	s3 = mt_get_mad(test, ma->agent, ah, 3, 0, 0);
	s1->next = s2;
	s2->next = s3;
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(s1, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, s2);
	KUNIT_EXPECT_EQ(test, mm->nr_posts, 1);
	madcm_free_send_mad(s2);
	madcm_free_send_mad(s3);
}

static void post_rejects_bad_arguments(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, true);
	struct madcm_port *other = mt_loop_port(test, mt_fabric(test, 1), 5,
						false);
	struct ib_mad_send_buf *sb;

	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(NULL, NULL), -EINVAL);
	sb = mt_get_mad(test, ma->agent, NULL, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), -EINVAL);
	sb->ah = mt_ah(test, other, LID_B);
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), -EINVAL);
	sb->ah = mt_ah(test, mm->port, LID_B);
	sb->timeout_ms = -1;
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), -EINVAL);
	sb->timeout_ms = 0;
	sb->retries = -1;
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), -EINVAL);
	sb->retries = 0;
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	/* Posted twice. */
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mm->nr_posts, 1);
}

static void transport_errors_reach_handler(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, true);
	struct ib_ah *ah = mt_ah(test, mm->port, LID_B);
	struct ib_mad_send_buf *sb;

	/* Refused by the transport: the caller keeps the buffer. */
	mm->fail_posts = 1;
	sb = mt_get_mad(test, ma->agent, ah, 1, 100, 0);
	KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb), MADCM_SEND_NEW);
	/* Failed later: the send handler sees the transport's status. */
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	mt_manual_complete(mm, mt_manual_pop(mm), IB_WC_GENERAL_ERR);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_GENERAL_ERR]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), 1);
}

static void unregister_flushes_outstanding_sends(struct kunit *test)
{
	struct send_env *env = loop_env(test, 50);
	struct ib_ah *ah = mt_ah(test, env->a, LID_NOBODY);
	int i;

	for (i = 0; i < 50; i++)
		KUNIT_ASSERT_EQ(test,
				madcm_post_send_mad(mt_get_mad(test,
							       env->client->agent,
							       ah, i, 600000, 0),
						    NULL), 0);
	mt_unregister(env->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->c.sends), 50);
	/* Requests to nobody: no response, so none can succeed. */
	KUNIT_EXPECT_EQ(test, atomic_read(&env->c.status[IB_WC_WR_FLUSH_ERR]),
			50);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->a->nr_agents), 0);
}

/* Sent with a GRH: the response is matched by GID, not by LID. */
static void grh_response_matched_by_gid(struct kunit *test)
{
	struct mt_agent *ma;
	struct mt_counts *c;
	struct mt_manual *mm = manual_env(test, &c, &ma, true);
	struct rdma_ah_attr attr = { .type = RDMA_AH_ATTR_TYPE_IB };
	struct madcm_port_rx rx = {};
	u8 req[sizeof(struct ib_mad)], resp[sizeof(struct ib_mad)];
	struct ib_grh grh = {};
	struct ib_mad_send_buf *sb;
	struct mt_post *p;
	struct ib_ah *ah;

	rdma_ah_set_dlid(&attr, LID_B);
	rdma_ah_set_ah_flags(&attr, IB_AH_GRH);
	memset(attr.grh.dgid.raw, 0xab, sizeof(attr.grh.dgid.raw));
	ah = madcm_create_ah(mm->port, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	sb = mt_get_mad(test, ma->agent, ah, 1, 60000, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(req, p->mad, sizeof(req));
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	mt_make_response(req, resp);
	rx.mad = resp;
	rx.len = sizeof(resp);
	rx.qpn = 1;
	rx.src_qp = 1;
	rx.slid = LID_B;
	rx.grh = &grh;
	/* Right LID, other GID: not the response. */
	memset(grh.sgid.raw, 0xcd, sizeof(grh.sgid.raw));
	madcm_port_deliver(mm->port, &rx);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->recvs), 0);
	/* The GID the request went to. */
	memset(grh.sgid.raw, 0xab, sizeof(grh.sgid.raw));
	madcm_port_deliver(mm->port, &rx);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 1);
	madcm_destroy_ah(ah);
}

/* OPA MADs: 2048-byte buffers, short ones sent short, both ways. */
static void opa_mads_cross_loopback(struct kunit *test)
{
	struct madcm_loop_fabric *fab = mt_fabric(test, 1);
	struct madcm_port *a = mt_loop_port(test, fab, LID_A, true);
	struct madcm_port *b = mt_loop_port(test, fab, LID_B, true);
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct mt_agent *ma;
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;

	KUNIT_ASSERT_NOT_NULL(test, c);
	ma = client(test, a, c, 1);
	mt_responder(test, b, NULL);
	sb = madcm_create_send_mad(ma->agent, 1, 0, 0, IB_MGMT_MAD_HDR, 100,
				   GFP_KERNEL, OPA_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	hdr = sb->mad;
	hdr->base_version = OPA_MGMT_BASE_VERSION;
	hdr->mgmt_class = MT_CLASS;
	hdr->class_version = MT_VERSION;
	hdr->method = IB_MGMT_METHOD_GET;
	hdr->tid = cpu_to_be64((u64)ma->agent->hi_tid << 32 | 1);
	sb->ah = mt_ah(test, a, LID_B);
	sb->timeout_ms = 5000;
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, mt_wait(c, 30));
	/* The responder answers with an IB MAD: still the response. */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->resp_with_send), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_SUCCESS]), 1);
	KUNIT_EXPECT_EQ(test, mt_counter(b, MADCM_CNT_RX_DISPATCHED), 1);
}

/* Beyond the port's limit, requests wait in the agent's backlog. */
static void requests_beyond_limit_wait_in_backlog(struct kunit *test)
{
	struct mt_manual *mm = mt_manual_port(test, LID_A, false);
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct ib_mad_send_buf *sb[5];
	struct mt_agent *ma;
	struct ib_ah *ah;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	mm->port->attr.max_solicited = 2;
	ma = client(test, mm->port, c, 0);
	ma->mm = mm;
	ah = mt_ah(test, mm->port, LID_B);
	for (i = 0; i < 4; i++) {
		sb[i] = mt_get_mad(test, ma->agent, ah, i, 60000, 0);
		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb[i], NULL), 0);
	}
	/* A send that expects no response is not limited. */
	sb[4] = mt_get_mad(test, ma->agent, ah, 4, 0, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb[4], NULL), 0);
	KUNIT_EXPECT_EQ(test, mm->nr_posts, 3);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb[0]), MADCM_SEND_POSTED);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb[1]), MADCM_SEND_POSTED);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb[2]), MADCM_SEND_QUEUED);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb[3]), MADCM_SEND_QUEUED);
	/* A queued send cancelled: back from the worker, never sent. */
	madcm_cancel_mad(sb[3]);
	flush_workqueue(madcm_mad_wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_WR_FLUSH_ERR]), 1);
	KUNIT_EXPECT_EQ(test, mm->nr_posts, 3);
	/* The first request fails: the next queued one goes out. */
	mt_manual_complete(mm, mt_manual_pop(mm), IB_WC_GENERAL_ERR);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->status[IB_WC_GENERAL_ERR]), 1);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb[2]), MADCM_SEND_POSTED);
	KUNIT_EXPECT_EQ(test, mm->nr_posts, 4);
	/* The rest comes back flushed when the agent goes. */
	mt_unregister(ma);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sends), 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->order_errors), 0);
}

static struct kunit_case mad_send_cases[] = {
	KUNIT_CASE(request_gets_response_across_loopback),
	KUNIT_CASE(send_without_timeout_completes_on_send),
	KUNIT_CASE(unanswered_send_retries_then_times_out),
	KUNIT_CASE(retry_is_answered),
	KUNIT_CASE(early_response_before_completion),
	KUNIT_CASE(cancel_waiting_send_flushes_from_worker),
	KUNIT_CASE(cancel_posted_send_waits_for_transport),
	KUNIT_CASE(modify_sets_new_deadline),
	KUNIT_CASE(duplicate_outstanding_tid_accepted),
	KUNIT_CASE(response_from_other_address_not_matched),
	KUNIT_CASE(response_of_other_class_not_matched),
	KUNIT_CASE(dr_smp_response_matched_without_address),
	KUNIT_CASE(pkey_index_honoured_or_refused),
	KUNIT_CASE(sends_have_their_wire_length),
	KUNIT_CASE(post_chain_reports_bad_buffer),
	KUNIT_CASE(post_rejects_bad_arguments),
	KUNIT_CASE(transport_errors_reach_handler),
	KUNIT_CASE(unregister_flushes_outstanding_sends),
	KUNIT_CASE(grh_response_matched_by_gid),
	KUNIT_CASE(opa_mads_cross_loopback),
	KUNIT_CASE(requests_beyond_limit_wait_in_backlog),
	{}
};

static struct kunit_suite mad_send_suite = {
	.name = "madcm_mad_send",
	.test_cases = mad_send_cases,
};

kunit_test_suite(mad_send_suite);
