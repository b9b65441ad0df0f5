// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: who holds a send buffer, and where its completion comes from.
 *
 * A posted buffer is the core's until its send handler runs; then it is
 * the ULP's again. Freeing it earlier (from the recv handler of its own
 * response, or while it waits on a completion list) is refused. Cancel
 * and modify(0) may be called with IRQs off and with a lock held that the
 * send handler takes, as ib_cm does with ib_core: the IB_WC_WR_FLUSH_ERR
 * completion comes later from the core's worker, never from inside the
 * call. Every state of a send is cancelled once, from each context.
 */
#include <kunit/test.h>
#include <linux/irqflags.h>
#include <linux/spinlock.h>

#include "mad_test_util.h"

#define LID_A	1
#define LID_B	2

/* What the handlers of a test saw; lives in test-managed memory. */
struct own_ctx {
	struct ib_mad_agent *agent;
	/* A buffer a handler tries to free before it is handed back. */
	struct ib_mad_send_buf *victim;
	/* The core took that free (the buffer is gone). */
	bool victim_freed;
	/* The send handler frees the buffer it is given. */
	bool free_on_send;
	spinlock_t lock;	/* "L": the ULP's own lock */
	atomic_t sends;
	atomic_t recvs;
	atomic_t under_caller;
	atomic_t irqs_off;
	/* A cancel or modify call is in progress in the test. */
	bool in_call;
	atomic_t from_call;
	atomic_t status[IB_WC_GENERAL_ERR + 1];
	struct completion sent;
};

/* Free @sb; tell whether the core took it, from its live buffer count. */
static bool try_free(struct own_ctx *oc, struct ib_mad_send_buf *sb)
{
	int before = madcm_agent_live_bufs(oc->agent);

	madcm_free_send_mad(sb);
	return madcm_agent_live_bufs(oc->agent) != before;
}

static void own_send(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
	struct own_ctx *oc = agent->context;
	unsigned long flags;

	/* ib_cm's send handler takes the lock its cancel is called under. */
	if (spin_trylock_irqsave(&oc->lock, flags))
		spin_unlock_irqrestore(&oc->lock, flags);
	else
		atomic_inc(&oc->under_caller);
	/* Handlers run in process context, never with IRQs off. */
	if (irqs_disabled())
		atomic_inc(&oc->irqs_off);
	/* Nor from inside cancel or modify. */
	if (READ_ONCE(oc->in_call))
		atomic_inc(&oc->from_call);
	if (wc->status < ARRAY_SIZE(oc->status))
		atomic_inc(&oc->status[wc->status]);
	if (oc->victim && oc->victim != wc->send_buf && !oc->victim_freed)
		oc->victim_freed = try_free(oc, oc->victim);
	/* A buffer the core let go of already is not touched again. */
	if (oc->free_on_send &&
	    !(wc->send_buf == oc->victim && oc->victim_freed))
		madcm_free_send_mad(wc->send_buf);
	atomic_inc(&oc->sends);
	complete(&oc->sent);
}

static void own_recv(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *wc)
{
	struct own_ctx *oc = agent->context;

	if (send_buf && send_buf == oc->victim)
		oc->victim_freed = try_free(oc, send_buf);
	atomic_inc(&oc->recvs);
	madcm_free_recv_mad(wc);
}

static struct mt_manual *own_env(struct kunit *test, struct own_ctx **oc,
				 struct mt_agent **ma)
{
	struct mt_manual *mm = mt_manual_port(test, LID_A, false);

	*oc = kunit_kzalloc(test, sizeof(**oc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *oc);
	spin_lock_init(&(*oc)->lock);
	init_completion(&(*oc)->sent);
	*ma = mt_register(test, mm->port, IB_QPT_GSI, NULL, 0, own_send,
			  own_recv, *oc);
	(*ma)->mm = mm;
	(*oc)->agent = (*ma)->agent;
	return mm;
}

static void deliver_response(struct mt_manual *mm, const u8 *req, u32 slid)
{
	u8 resp[sizeof(struct ib_mad)];

	mt_make_response(req, resp);
	mt_manual_deliver(mm, resp, sizeof(resp), 1, slid, 1);
}

/*
 * The recv handler of a response frees the request: refused, the buffer
 * still comes back through the send handler, which may free it.
 */
static void free_in_recv_handler_of_response_refused(struct kunit *test)
{
	struct own_ctx *oc;
	struct mt_agent *ma;
	struct mt_manual *mm = own_env(test, &oc, &ma);
	struct ib_mad_send_buf *sb;
	struct mt_post *p;

	oc->free_on_send = true;
	madcm_fault_expect_misuse(true);
	sb = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 1,
			60000, 0);
	oc->victim = sb;
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	deliver_response(mm, p->mad, LID_B);	/* before the completion */
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->recvs), 1);
	KUNIT_EXPECT_FALSE(test, oc->victim_freed);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_API_MISUSE), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->sends), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->status[IB_WC_SUCCESS]), 1);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(ma->agent), 0);
}

/* The same after the send completion: the request is done, not handed back. */
static void free_in_recv_handler_after_completion_refused(struct kunit *test)
{
	struct own_ctx *oc;
	struct mt_agent *ma;
	struct mt_manual *mm = own_env(test, &oc, &ma);
	u8 req[sizeof(struct ib_mad)];
	struct ib_mad_send_buf *sb;
	struct mt_post *p;

	oc->free_on_send = true;
	madcm_fault_expect_misuse(true);
	sb = mt_get_mad(test, ma->agent, mt_ah(test, mm->port, LID_B), 1,
			60000, 0);
	oc->victim = sb;
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	p = mt_manual_pop(mm);
	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(req, p->mad, sizeof(req));
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	deliver_response(mm, req, LID_B);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->recvs), 1);
	KUNIT_EXPECT_FALSE(test, oc->victim_freed);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_API_MISUSE), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->sends), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->status[IB_WC_SUCCESS]), 1);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(ma->agent), 0);
}

/*
 * Unregistering flushes two sends onto one completion list; the send
 * handler of the first frees the second, still on that list: refused.
 */
static void free_on_flush_done_list_refused(struct kunit *test)
{
	struct own_ctx *oc;
	struct mt_agent *ma;
	struct mt_manual *mm = own_env(test, &oc, &ma);
	struct ib_ah *ah = mt_ah(test, mm->port, LID_B);
	struct ib_mad_send_buf *s1, *s2;

	oc->free_on_send = true;
	madcm_fault_expect_misuse(true);
	s1 = mt_get_mad(test, ma->agent, ah, 1, 60000, 0);
	s2 = mt_get_mad(test, ma->agent, ah, 2, 60000, 0);
	oc->victim = s2;
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(s1, NULL), 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(s2, NULL), 0);
	mt_manual_complete(mm, mt_manual_pop(mm), IB_WC_SUCCESS);
	mt_manual_complete(mm, mt_manual_pop(mm), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(ma->agent), 2);
	mt_unregister(ma);
	KUNIT_EXPECT_FALSE(test, oc->victim_freed);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_API_MISUSE), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->sends), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->status[IB_WC_WR_FLUSH_ERR]), 2);
}

/* The states a send is cancelled in, and the contexts it is cancelled from. */
enum cancel_state {
	CS_NEW, CS_QUEUED, CS_POSTED, CS_WAIT_RESP, CS_EARLY_RESP,
	CS_CANCELLED, CS_DONE, CS_NR
};

enum cancel_ctx {
	CC_PROCESS, CC_LOCK_IRQ, CC_IRQS_OFF, CC_NR
};

struct cancel_param {
	enum cancel_state state;
	enum cancel_ctx ctx;
	bool modify;
};

static const char *const cs_names[CS_NR] = {
	"new", "queued", "posted", "waiting for response", "early response",
	"cancelled", "done",
};

static const char *const cc_names[CC_NR] = {
	"process context", "L held, spin_lock_irq", "hard IRQs off",
};

static struct cancel_param cancel_params[CS_NR * CC_NR * 2];

static const void *cancel_gen_params(const void *prev, char *desc)
{
	const struct cancel_param *p = prev;
	int i = p ? p - cancel_params + 1 : 0;

	if (i >= ARRAY_SIZE(cancel_params))
		return NULL;
	cancel_params[i].state = i % CS_NR;
	cancel_params[i].ctx = (i / CS_NR) % CC_NR;
	cancel_params[i].modify = i >= CS_NR * CC_NR;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s, %s, %s",
		 cancel_params[i].modify ? "modify(0)" : "cancel",
		 cs_names[cancel_params[i].state],
		 cc_names[cancel_params[i].ctx]);
	return &cancel_params[i];
}

static int cancel_call(const struct cancel_param *p,
		       struct ib_mad_send_buf *sb)
{
	if (p->modify)
		return madcm_modify_mad(sb, 0);
	madcm_cancel_mad(sb);
	return 0;
}

/* Call it in the case's context; @irqs_kept: IRQs were still off after. */
static int cancel_in(struct own_ctx *oc, const struct cancel_param *p,
		     struct ib_mad_send_buf *sb, bool *irqs_kept)
{
	unsigned long flags;
	int ret;

	WRITE_ONCE(oc->in_call, true);
	*irqs_kept = true;
	if (p->ctx == CC_LOCK_IRQ) {
		spin_lock_irq(&oc->lock);
		ret = cancel_call(p, sb);
		*irqs_kept = irqs_disabled();
		spin_unlock_irq(&oc->lock);
	} else if (p->ctx == CC_IRQS_OFF) {
		local_irq_save(flags);
		ret = cancel_call(p, sb);
		*irqs_kept = irqs_disabled();
		local_irq_restore(flags);
	} else {
		ret = cancel_call(p, sb);
	}
	WRITE_ONCE(oc->in_call, false);
	return ret;
}

/*
 * Cancel (or modify to 0) a send in each state: a send not yet answered
 * comes back once with IB_WC_WR_FLUSH_ERR; one that has its response, or
 * is back in the ULP's hands, is left alone (ib_cancel_mad(9)). The send
 * handler never runs inside the call.
 */
static void cancel_in_every_state_and_context(struct kunit *test)
{
	const struct cancel_param *p = test->param_value;
	struct ib_mad_send_buf *sb, *filler = NULL;
	struct mt_post *p1 = NULL;
	struct own_ctx *oc;
	struct mt_agent *ma;
	struct mt_manual *mm;
	struct ib_ah *ah;
	int expect_sends, expect_flush, ret;
	bool irqs_kept;

	mm = own_env(test, &oc, &ma);
	ah = mt_ah(test, mm->port, LID_B);
	if (p->state == CS_QUEUED) {
		/* One request may wait for its response at a time. */
		mm->port->attr.max_solicited = 1;
		to_madcm_agent(ma->agent)->sol_max = 1;
		filler = mt_get_mad(test, ma->agent, ah, 99, 60000, 0);
		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(filler, NULL), 0);
	}
	sb = mt_get_mad(test, ma->agent, ah, 1,
			p->state == CS_DONE ? 0 : 60000, 0);
	if (p->state != CS_NEW)
		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	if (p->state == CS_POSTED || p->state == CS_WAIT_RESP ||
	    p->state == CS_EARLY_RESP || p->state == CS_CANCELLED ||
	    p->state == CS_DONE) {
		p1 = mt_manual_pop(mm);
		KUNIT_ASSERT_NOT_NULL(test, p1);
	}
	switch (p->state) {
	case CS_WAIT_RESP:
	case CS_DONE:
		mt_manual_complete(mm, p1, IB_WC_SUCCESS);
		p1 = NULL;
		break;
	case CS_EARLY_RESP:
		deliver_response(mm, p1->mad, LID_B);
		break;
	case CS_CANCELLED:
		madcm_cancel_mad(sb);
		break;
	default:
		break;
	}
	if (p->state == CS_DONE)
		KUNIT_ASSERT_TRUE(test,
				  wait_for_completion_timeout(&oc->sent,
							      30 * HZ));

	ret = cancel_in(oc, p, sb, &irqs_kept);
	/* The call leaves the caller's IRQs as they were. */
	KUNIT_EXPECT_TRUE(test, irqs_kept);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->from_call), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->under_caller), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->irqs_off), 0);

	/* What the transport still holds, it gives back now. */
	if (p1)
		mt_manual_complete(mm, p1, IB_WC_SUCCESS);
	switch (p->state) {
	case CS_NEW:
	case CS_DONE:
	case CS_EARLY_RESP:
	case CS_CANCELLED:
		expect_flush = p->state == CS_CANCELLED;
		break;
	default:
		expect_flush = 1;
		break;
	}
	expect_sends = p->state == CS_NEW ? 0 : 1;
	if (p->modify)
		KUNIT_EXPECT_EQ(test, ret, expect_flush &&
				p->state != CS_CANCELLED ? 0 : -EINVAL);
	if (expect_sends && p->state != CS_DONE)
		KUNIT_EXPECT_TRUE(test,
				  wait_for_completion_timeout(&oc->sent,
							      30 * HZ));
	/* Whatever is still on its way has arrived. */
	flush_workqueue(madcm_mad_wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->sends), expect_sends);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->status[IB_WC_WR_FLUSH_ERR]),
			expect_flush);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->status[IB_WC_SUCCESS]),
			expect_sends - expect_flush);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->under_caller), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&oc->irqs_off), 0);
	KUNIT_EXPECT_EQ(test, madcm_send_state(sb),
			p->state == CS_NEW ? MADCM_SEND_NEW : MADCM_SEND_DONE);
	madcm_free_send_mad(sb);
	if (filler) {
		/* Unregistering waits for every buffer: give this one back. */
		madcm_cancel_mad(filler);
		mt_manual_complete(mm, mt_manual_pop(mm), IB_WC_SUCCESS);
		KUNIT_EXPECT_TRUE(test,
				  wait_for_completion_timeout(&oc->sent,
							      30 * HZ));
		KUNIT_EXPECT_EQ(test, atomic_read(&oc->sends), expect_sends + 1);
		madcm_free_send_mad(filler);
	}
}

static struct kunit_case mad_lifecycle_cases[] = {
	KUNIT_CASE(free_in_recv_handler_of_response_refused),
	KUNIT_CASE(free_in_recv_handler_after_completion_refused),
	KUNIT_CASE_PARAM(cancel_in_every_state_and_context, cancel_gen_params),
	KUNIT_CASE(free_on_flush_done_list_refused),
	{}
};

/* A case that provoked refused calls on purpose stops expecting them. */
static void lifecycle_exit(struct kunit *test)
{
	madcm_fault_expect_misuse(false);
}

static struct kunit_suite mad_lifecycle_suite = {
	.name = "madcm_mad_lifecycle",
	.exit = lifecycle_exit,
	.test_cases = mad_lifecycle_cases,
};

kunit_test_suite(mad_lifecycle_suite);
