// SPDX-License-Identifier: GPL-2.0-only
/*
 * Response timeouts: each agent keeps the sends waiting for a response in
 * an rbtree ordered by deadline (O(log n) to add or remove, O(1) to find
 * the earliest) and one delayed work armed for the earliest deadline.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/jiffies.h>
#include <linux/rbtree.h>
#include "mad_priv.h"

/* Sends handled per run of the work, so that the lock is not held long. */
#define MADCM_TIMEOUT_BATCH	256

static bool madcm_timeout_less(struct rb_node *a, const struct rb_node *b)
{
	const struct madcm_send *x = rb_entry(a, struct madcm_send, tnode);
	const struct madcm_send *y = rb_entry(b, struct madcm_send, tnode);

	if (x->deadline != y->deadline)
		return time_before(x->deadline, y->deadline);
	return x->seq < y->seq;
}

static void madcm_timeout_arm(struct madcm_agent *ag)
{
	struct rb_node *first = rb_first_cached(&ag->timeouts);
	struct madcm_send *ms;
	long delay;

	if (!first)
		return;
	ms = rb_entry(first, struct madcm_send, tnode);
	delay = (long)(ms->deadline - jiffies);
	mod_delayed_work(madcm_mad_wq, &ag->timeout_work, max(delay, 0L));
}

/* Add a send that waits @timeout_ms for its response; lock held. */
void madcm_timeout_add(struct madcm_agent *ag, struct madcm_send *ms,
		       u32 timeout_ms)
{
	ms->deadline = jiffies + msecs_to_jiffies(timeout_ms);
	ms->seq = ag->timeout_seq++;
	ms->timed = true;
	if (rb_add_cached(&ms->tnode, &ag->timeouts, madcm_timeout_less))
		madcm_timeout_arm(ag);
}

/* Take a send off the queue; lock held. The work re-arms itself. */
void madcm_timeout_del(struct madcm_agent *ag, struct madcm_send *ms)
{
	if (ms->timed) {
		rb_erase_cached(&ms->tnode, &ag->timeouts);
		ms->timed = false;
	}
}

static void madcm_timeout_work(struct work_struct *work)
{
	struct madcm_agent *ag = container_of(to_delayed_work(work),
					      struct madcm_agent,
					      timeout_work);
	unsigned long now = jiffies;
	struct rb_node *first;
	struct madcm_send *ms;
	LIST_HEAD(done);
	int n = 0;

	spin_lock_bh(&ag->lock);
	while ((first = rb_first_cached(&ag->timeouts))) {
		ms = rb_entry(first, struct madcm_send, tnode);
		if (time_before(now, ms->deadline))
			break;
		if (n++ == MADCM_TIMEOUT_BATCH) {
			mod_delayed_work(madcm_mad_wq, &ag->timeout_work, 0);
			first = NULL;
			break;
		}
		madcm_timeout_del(ag, ms);
		madcm_send_timed_out(ag, ms, &done);
	}
	if (first)
		madcm_timeout_arm(ag);
	spin_unlock_bh(&ag->lock);
	/*
	 * Unregistration cancels this work synchronously before it frees the
	 * agent, so the agent outlives the handlers called here.
	 */
	madcm_send_finish_list(&done);
}

void madcm_timeout_init(struct madcm_agent *ag)
{
	ag->timeouts = RB_ROOT_CACHED;
	INIT_DELAYED_WORK(&ag->timeout_work, madcm_timeout_work);
}

void madcm_timeout_stop(struct madcm_agent *ag)
{
	cancel_delayed_work_sync(&ag->timeout_work);
}
