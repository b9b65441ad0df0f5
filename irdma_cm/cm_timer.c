// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM's timers. Each node has one timer_list, armed for the earliest
 * of its deadlines: retransmission (exponential backoff up to a retry
 * limit), the MPA exchange's timeout, and the close timers (TIME-WAIT,
 * FIN-WAIT-2). Arming and expiry are O(1); nothing scans a list. A
 * pending timer holds a reference on its node.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/jiffies.h>
#include <linux/minmax.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/cm_trace.h"

/* The earliest armed deadline; false when none is armed. */
static bool irdma_cm_next_deadline(const struct irdma_cm_node *node,
				   unsigned long *when)
{
	bool any = false;

	if (node->armed & IRDMA_CM_TIMER_REXMIT) {
		*when = node->rexmit_at;
		any = true;
	}
	if ((node->armed & IRDMA_CM_TIMER_MPA) &&
	    (!any || time_before(node->mpa_at, *when))) {
		*when = node->mpa_at;
		any = true;
	}
	if ((node->armed & IRDMA_CM_TIMER_CLOSE) &&
	    (!any || time_before(node->close_at, *when))) {
		*when = node->close_at;
		any = true;
	}
	return any;
}

/**
 * irdma_schedule_cm_timer() - set the node's timer for its next deadline
 * @node: the node, locked
 *
 * A timer that becomes pending takes a reference; one that stops being
 * pending gives its reference back (the caller holds another).
 */
void irdma_schedule_cm_timer(struct irdma_cm_node *node)
{
	unsigned long when;

	lockdep_assert_held(&node->lock);
	if (!irdma_cm_next_deadline(node, &when)) {
		if (del_timer(&node->timer))
			refcount_dec(&node->refcnt);
		return;
	}
	if (!mod_timer(&node->timer, when))
		irdma_cm_node_get(node);
}

/**
 * irdma_cm_arm_rexmit() - run the retransmission timer
 * @node: the node, locked
 * @restart: start a new timeout even when one is running
 */
void irdma_cm_arm_rexmit(struct irdma_cm_node *node, bool restart)
{
	if ((node->armed & IRDMA_CM_TIMER_REXMIT) && !restart)
		return;
	node->armed |= IRDMA_CM_TIMER_REXMIT;
	node->rexmit_at = jiffies + node->rto;
	irdma_schedule_cm_timer(node);
}

/**
 * irdma_cm_arm_resolve() - wait for the next hop to resolve
 * @node: the node, locked, its first send deferred for resolution
 *
 * The retransmission timer polls the resolution at a short interval and
 * sends as soon as it completes; only a wait of a whole RTO counts as a
 * retransmission (irdma_retrans_expired()).
 */
void irdma_cm_arm_resolve(struct irdma_cm_node *node)
{
	node->armed |= IRDMA_CM_TIMER_REXMIT;
	node->resolve_until = jiffies + node->rto;
	node->rexmit_at = jiffies + IRDMA_CM_RESOLVE_POLL;
	irdma_schedule_cm_timer(node);
}

/**
 * irdma_cm_disarm_rexmit() - everything is acknowledged
 * @node: the node, locked
 *
 * The retry count starts over. The RTO keeps any backoff until an RTT
 * measurement replaces it (Karn's rule, RFC 6298 5: irdma_cm_rtt_sample()).
 */
void irdma_cm_disarm_rexmit(struct irdma_cm_node *node)
{
	node->retrans = 0;
	if (!(node->armed & IRDMA_CM_TIMER_REXMIT))
		return;
	node->armed &= ~IRDMA_CM_TIMER_REXMIT;
	irdma_schedule_cm_timer(node);
}

/**
 * irdma_cm_arm_mpa() - start the MPA exchange's timeout
 * @node: the node, locked
 */
void irdma_cm_arm_mpa(struct irdma_cm_node *node)
{
	node->armed |= IRDMA_CM_TIMER_MPA;
	node->mpa_at = jiffies + node->core->mpa_timeout;
	irdma_schedule_cm_timer(node);
}

/**
 * irdma_cm_disarm_mpa() - the MPA exchange is over
 * @node: the node, locked
 */
void irdma_cm_disarm_mpa(struct irdma_cm_node *node)
{
	if (!(node->armed & IRDMA_CM_TIMER_MPA))
		return;
	node->armed &= ~IRDMA_CM_TIMER_MPA;
	irdma_schedule_cm_timer(node);
}

/**
 * irdma_cm_arm_close() - start (or restart) a close timer
 * @node: the node, locked, in TIME-WAIT or FIN-WAIT-2
 * @delay: jiffies from now
 */
void irdma_cm_arm_close(struct irdma_cm_node *node, unsigned long delay)
{
	node->armed |= IRDMA_CM_TIMER_CLOSE;
	node->close_at = jiffies + delay;
	irdma_schedule_cm_timer(node);
}

/**
 * irdma_cm_disarm_all() - stop every timer of a closed node
 * @node: the node, locked
 */
void irdma_cm_disarm_all(struct irdma_cm_node *node)
{
	node->armed = 0;
	irdma_schedule_cm_timer(node);
}

/*
 * The retransmission timeout: back off and resend everything from
 * SND.UNA (into a shut window, a zero-window probe), or give up at the
 * retry limit with a RST and a RESET event. While the next hop is
 * unresolved it polls the resolution instead, and sends once resolved.
 */
static void irdma_retrans_expired(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	bool probe;

	if (!test_bit(IRDMA_CM_F_MAC_RESOLVED, &node->flags)) {
		irdma_cm_resolve(node);
		if (test_bit(IRDMA_CM_F_MAC_RESOLVED, &node->flags)) {
			/* The deferred send: a first transmission. */
			irdma_cm_retransmit(node);
			node->rexmit_at = jiffies + node->rto;
			return;
		}
		if (time_before(jiffies, node->resolve_until)) {
			node->rexmit_at = jiffies + IRDMA_CM_RESOLVE_POLL;
			return;
		}
		/* A whole RTO unresolved: as if the segment had been lost. */
	}
	probe = irdma_cm_window_shut(node);
	if (node->retrans >= core->cfg.max_retrans) {
		irdma_cm_dbg(node, "%u retransmissions, giving up\n",
			     node->retrans);
		irdma_cm_count(core, IRDMA_CM_CNT_RETRANS_LIMIT);
		irdma_cm_reset_node(node, -ETIMEDOUT);
		return;
	}
	node->retrans++;
	/*
	 * RFC 6298 5.7 (an RTO under 3 s expired), applied when the
	 * handshake completes
	 */
	if ((node->state == IRDMA_CM_STATE_SYN_SENT ||
	     node->state == IRDMA_CM_STATE_SYN_RCVD) &&
	    node->rto < msecs_to_jiffies(IRDMA_CM_RTO_SYN_FALLBACK_MS))
		set_bit(IRDMA_CM_F_SYN_TIMED_OUT, &node->flags);
	node->rto = min(node->rto * 2, core->rto_max);
	irdma_cm_count(core, probe ? IRDMA_CM_CNT_WND_PROBE :
				     IRDMA_CM_CNT_RETRANS);
	trace_madcm_cm_retransmit(node, jiffies_to_msecs(node->rto));
	irdma_cm_retransmit(node);
	/* Still unresolved: irdma_send_syn() armed the next poll. */
	if (test_bit(IRDMA_CM_F_MAC_RESOLVED, &node->flags))
		node->rexmit_at = jiffies + node->rto;
}

/* TIME-WAIT is over, or FIN-WAIT-2 waited long enough for the peer. */
static void irdma_handle_close_entry(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	node->armed &= ~IRDMA_CM_TIMER_CLOSE;
	if (node->state == IRDMA_CM_STATE_TIME_WAIT) {
		irdma_cm_count(core, IRDMA_CM_CNT_TIME_WAIT);
		irdma_cm_node_closed(node);
	} else if (node->state == IRDMA_CM_STATE_FIN_WAIT2) {
		irdma_cm_count(core, IRDMA_CM_CNT_FIN_WAIT2_TIMEOUT);
		irdma_cm_reset_node(node, -ETIMEDOUT);
	}
}

static void irdma_cm_mpa_expired(struct irdma_cm_node *node)
{
	irdma_cm_dbg(node, "MPA exchange timed out\n");
	node->armed &= ~IRDMA_CM_TIMER_MPA;
	node->mpa_result = IRDMA_MPA_FAILED;
	irdma_cm_count(node->core, IRDMA_CM_CNT_MPA_TIMEOUT);
	irdma_cm_reset_node(node, -ETIMEDOUT);
}

/* The node's timer: run what is due, then re-arm for what is left. */
static void irdma_cm_timer_tick(struct timer_list *t)
{
	struct irdma_cm_node *node = from_timer(node, t, timer);
	unsigned long now = jiffies;

	irdma_cm_node_lock(node);
	if ((node->armed & IRDMA_CM_TIMER_CLOSE) &&
	    time_after_eq(now, node->close_at))
		irdma_handle_close_entry(node);
	if ((node->armed & IRDMA_CM_TIMER_MPA) &&
	    time_after_eq(now, node->mpa_at))
		irdma_cm_mpa_expired(node);
	if ((node->armed & IRDMA_CM_TIMER_REXMIT) &&
	    time_after_eq(now, node->rexmit_at))
		irdma_retrans_expired(node);
	irdma_schedule_cm_timer(node);
	irdma_cm_node_unlock(node);
	/* The reference this expiry's arming took. */
	irdma_cm_node_put(node);
}

/**
 * irdma_cm_timer_init() - set up a new node's timer
 * @node: the node
 */
void irdma_cm_timer_init(struct irdma_cm_node *node)
{
	timer_setup(&node->timer, irdma_cm_timer_tick, 0);
}
