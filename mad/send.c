// SPDX-License-Identifier: GPL-2.0-only
/*
 * The send path: posting, the transport's completions, responses matched
 * to their requests, cancel and modify, and the send handler.
 *
 * Every send moves through enum madcm_send_state under its agent's lock:
 *
 *   NEW --post--> POSTED --completion--> WAIT_RESP --response--> DONE
 *                   |  \                    | \--timeout, no retry left-->
 *                   |   \--response--> EARLY_RESP --completion--> DONE
 *                   \--cancel--> CANCELLED --completion--> DONE
 *
 * (and POSTED --completion, no response expected--> DONE, WAIT_RESP
 * --timeout with a retry left--> POSTED, WAIT_RESP --cancel--> DONE).
 * When the port limits how many requests an agent may have waiting for a
 * response, a request beyond the limit is QUEUED in the agent's backlog
 * at post and becomes POSTED when an earlier request is done (QUEUED
 * --cancel--> DONE).
 * A send in DONE is handed to its send handler exactly once, as soon as
 * neither the transport nor a running recv handler holds it.
 *
 * Posted sends are in the agent's rhltable keyed by (TID, class,
 * address): a response finds its request in O(1). Two sends may share a
 * key, as with ib_core (a responder's RMPP response to a request that is
 * retried with the same TID, for instance); see madcm_send_lookup().
 *
 * Post, cancel, modify and free may be called with IRQs off and with a
 * lock held that the send handler takes (ib_cm does both): they take the
 * agent's lock irqsave, and the transports' post paths take theirs so
 * too. rhashtable's bucket locks disable softirqs (on 6.1), so a send
 * posted with IRQs off is not inserted into the table there: it waits on
 * the agent's tid_pending list, which every lookup searches too, until
 * tid_work moves it in. Cancel and modify only change the state. A cancelled send the transport
 * still holds ends at its completion; any other goes to the head of the
 * timeout queue, and the agent's timeout work ends it and calls its send
 * handler with IB_WC_WR_FLUSH_ERR, as ib_core's timeout work does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/export.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <madcm/mad.h>

#include "fault.h"
#include "mad_priv.h"
#include "madcm_trace.h"
#include "rmpp.h"

static const struct rhashtable_params madcm_tid_params = {
	.key_len = sizeof(struct madcm_tid_key),
	.key_offset = offsetof(struct madcm_send, key),
	.head_offset = offsetof(struct madcm_send, hnode),
	.automatic_shrinking = true,
};

/* Move the sends posted with IRQs off into the TID table. */
static void madcm_send_tid_work(struct work_struct *work)
{
	struct madcm_agent *ag = container_of(work, struct madcm_agent,
					      tid_work);
	struct madcm_send *ms;
	bool again = false;

	spin_lock_bh(&ag->lock);
	while ((ms = list_first_entry_or_null(&ag->tid_pending,
					      struct madcm_send, hpend))) {
		if (rhltable_insert(&ag->tids, &ms->hnode, madcm_tid_params)) {
			/* Still found on the list; tried again soon. */
			again = true;
			break;
		}
		list_del_init(&ms->hpend);
		ms->hash_deferred = false;
	}
	spin_unlock_bh(&ag->lock);
	if (again)
		queue_work(madcm_mad_wq, &ag->tid_work);
}

int madcm_send_tids_init(struct madcm_agent *ag)
{
	INIT_LIST_HEAD(&ag->tid_pending);
	INIT_WORK(&ag->tid_work, madcm_send_tid_work);
	if (madcm_fault(MADCM_FAULT_TID_TABLE))
		return -ENOMEM;
	return rhltable_init(&ag->tids, &madcm_tid_params);
}

void madcm_send_tids_destroy(struct madcm_agent *ag)
{
	cancel_work_sync(&ag->tid_work);
	WARN_ON_ONCE(!list_empty(&ag->tid_pending));
	rhltable_destroy(&ag->tids);
}

/*
 * Whether a response of @mgmt_class is matched by its sender's address as
 * well as by TID and class. Not a directed-route SMP's: it goes to the
 * permissive LID and comes back along the reversed path from whatever LID
 * its responder has (IBTA vol. 1 14.2.2), so ib_core does not compare
 * addresses for it either. Its key leaves the address zero on both sides.
 */
static bool madcm_key_has_addr(u8 mgmt_class)
{
	return mgmt_class != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
}

/* The key of a request, from its header and the address it goes to. */
static void madcm_send_key(struct madcm_send *ms)
{
	const struct ib_mad_hdr *hdr = ms->send_buf.mad;
	struct madcm_ah *ah = to_madcm_ah(ms->send_buf.ah);

	memset(&ms->key, 0, sizeof(ms->key));
	ms->key.tid = hdr->tid;
	ms->key.mgmt_class = hdr->mgmt_class;
	if (!madcm_key_has_addr(hdr->mgmt_class))
		return;
	if (rdma_ah_get_ah_flags(&ah->attr) & IB_AH_GRH)
		memcpy(ms->key.gid.raw, rdma_ah_read_grh(&ah->attr)->dgid.raw,
		       sizeof(ms->key.gid.raw));
	else
		ms->key.lid = rdma_ah_get_dlid(&ah->attr);
}

/* The key a response looks for: its TID and class, and who sent it. */
void madcm_recv_key(const struct madcm_recv *rv, struct madcm_tid_key *key)
{
	const struct ib_mad_hdr *hdr = (const struct ib_mad_hdr *)rv->mad;

	memset(key, 0, sizeof(*key));
	key->tid = hdr->tid;
	key->mgmt_class = hdr->mgmt_class;
	if (!madcm_key_has_addr(hdr->mgmt_class))
		return;
	if (rv->wc.wc_flags & IB_WC_GRH)
		memcpy(key->gid.raw, rv->grh.sgid.raw, sizeof(key->gid.raw));
	else
		key->lid = rv->wc.slid;
}

/* @a is a better match than @b for what a received MAD looks for. */
static bool madcm_send_before(const struct madcm_send *a,
			      const struct madcm_send *b, enum madcm_lookup what)
{
	/* As ib_core: a send that completed before one still at transport. */
	if (what == MADCM_LOOKUP_RESPONSE && a->state != b->state)
		return a->state == MADCM_SEND_WAIT_RESP;
	return a->post_seq < b->post_seq;
}

/* @ms may be what a received MAD looking for @what belongs to. */
static bool madcm_send_candidate(const struct madcm_send *ms,
				 enum madcm_lookup what)
{
	if (ms->state != MADCM_SEND_POSTED &&
	    ms->state != MADCM_SEND_WAIT_RESP)
		return false;
	return what == MADCM_LOOKUP_RMPP_CTL ? ms->rmpp : ms->timeout_ms;
}

/*
 * madcm_send_lookup() - the send a received MAD with @key belongs to
 * @ag: the agent; its lock is held
 * @key: TID, class and the sender's address of the MAD
 * @what: a response (it goes to a request, one that waits for a
 *	response), or an RMPP ACK, STOP or ABORT (to an RMPP transfer)
 *
 * Only a posted send, sent or still at the transport, and not cancelled,
 * qualifies. When several sends share @key, a response goes to one whose
 * send completed before one still at the transport, then to the oldest;
 * an RMPP control MAD to the oldest transfer.
 */
struct madcm_send *madcm_send_lookup(struct madcm_agent *ag,
				     const struct madcm_tid_key *key,
				     enum madcm_lookup what)
{
	struct madcm_send *ms, *best = NULL;
	struct rhlist_head *list, *pos;

	rcu_read_lock();
	list = rhltable_lookup(&ag->tids, key, madcm_tid_params);
	rhl_for_each_entry_rcu(ms, pos, list, hnode) {
		if (madcm_send_candidate(ms, what) &&
		    (!best || madcm_send_before(ms, best, what)))
			best = ms;
	}
	rcu_read_unlock();
	/* Posted with IRQs off a moment ago: not in the table yet. */
	list_for_each_entry(ms, &ag->tid_pending, hpend) {
		if (!memcmp(&ms->key, key, sizeof(*key)) &&
		    madcm_send_candidate(ms, what) &&
		    (!best || madcm_send_before(ms, best, what)))
			best = ms;
	}
	return best;
}

/* The agent's lock is held, maybe with IRQs off (a failed post). */
static void madcm_send_unhash(struct madcm_agent *ag, struct madcm_send *ms)
{
	if (!ms->hashed)
		return;
	if (ms->hash_deferred) {
		list_del_init(&ms->hpend);
		ms->hash_deferred = false;
	} else {
		rhltable_remove(&ag->tids, &ms->hnode, madcm_tid_params);
	}
	ms->hashed = false;
}

/*
 * Make a posted send findable by its key; the agent's lock is held. With
 * IRQs off, the rhashtable may not be touched (its bucket lock would
 * enable them again on its way out): the send waits on tid_pending.
 */
static int madcm_send_hash(struct madcm_agent *ag, struct madcm_send *ms)
{
	int ret;

	if (irqs_disabled()) {
		list_add_tail(&ms->hpend, &ag->tid_pending);
		ms->hash_deferred = true;
		ms->hashed = true;
		queue_work(madcm_mad_wq, &ag->tid_work);
		return 0;
	}
	ret = rhltable_insert(&ag->tids, &ms->hnode, madcm_tid_params);
	if (!ret)
		ms->hashed = true;
	return ret;
}

static void madcm_send_promote(struct madcm_agent *ag, struct list_head *done);

/* Decide the outcome of a send, without releasing its solicited slot. */
static void __madcm_send_end(struct madcm_agent *ag, struct madcm_send *ms,
			     enum ib_wc_status status, struct list_head *done)
{
	if (status == IB_WC_WR_FLUSH_ERR)
		madcm_rmpp_send_cancelled(ag, ms);
	madcm_send_unhash(ag, ms);
	madcm_timeout_del(ag, ms);
	ms->status = status;
	ms->state = MADCM_SEND_DONE;
	if (!ms->at_transport && !ms->in_recv)
		list_move_tail(&ms->node, done);
}

/*
 * Decide the outcome of a send: out of the TID table and the timeout
 * queue, state DONE. When nothing holds it any more, it moves to @done
 * for its send handler. A request that was waiting for its response
 * gives its place to the first one of the backlog.
 */
void madcm_send_end(struct madcm_agent *ag, struct madcm_send *ms,
		    enum ib_wc_status status, struct list_head *done)
{
	__madcm_send_end(ag, ms, status, done);
	if (ms->solicited) {
		ms->solicited = false;
		ag->sol_count--;
		madcm_send_promote(ag, done);
	}
}

/*
 * Hand the MAD of a send to the transport, its headers followed by
 * @payload; the agent's lock is held.
 */
int madcm_send_post_seg(struct madcm_agent *ag, struct madcm_send *ms,
			const void *payload, size_t payload_len)
{
	struct madcm_port *port = ag->port;
	struct madcm_port_send ps = {
		.send = ms,
		.ah = to_madcm_ah(ms->send_buf.ah),
		.remote_qpn = ms->remote_qpn,
		.remote_qkey = IB_QP_SET_QKEY,
		.pkey_index = ms->pkey_index,
		.src_qpn = ag->qpn,
		.hdr = ms->buf,
		.hdr_len = ms->send_buf.hdr_len,
		.payload = payload,
		.payload_len = payload_len,
	};
	int ret;

	ms->at_transport = true;
	ret = port->ops->post_send(port, &ps);
	if (ret)
		ms->at_transport = false;
	else
		madcm_port_count(port, MADCM_CNT_TX);
	return ret;
}

/* Send a MAD, or start an RMPP transfer; the agent's lock is held. */
static int madcm_send_transmit(struct madcm_agent *ag, struct madcm_send *ms)
{
	if (ms->rmpp)
		return madcm_rmpp_send_start(ag, ms);
	return madcm_send_post_seg(ag, ms, ms->buf + ms->send_buf.hdr_len,
				   ms->payload_len);
}

/* Send backlogged requests while there is room; the agent's lock is held. */
static void madcm_send_promote(struct madcm_agent *ag, struct list_head *done)
{
	struct madcm_send *ms;

	while (ag->sol_count < ag->sol_max && !list_empty(&ag->backlog)) {
		ms = list_first_entry(&ag->backlog, struct madcm_send, node);
		list_move_tail(&ms->node, &ag->sends);
		if (madcm_send_transmit(ag, ms)) {
			__madcm_send_end(ag, ms, IB_WC_GENERAL_ERR, done);
			continue;
		}
		ms->state = MADCM_SEND_POSTED;
		ms->solicited = true;
		ag->sol_count++;
	}
}

/*
 * madcm_send_is_callers() - the buffer is in its ULP's hands
 * @ms: the send; its agent's lock is held
 *
 * New, or done and handed back: no transport post, no recv handler of its
 * response and no completion list holds it any more. Post and free take
 * a buffer in exactly these states.
 */
bool madcm_send_is_callers(const struct madcm_send *ms)
{
	if (ms->state == MADCM_SEND_NEW)
		return true;
	return ms->state == MADCM_SEND_DONE && !ms->in_recv &&
	       !ms->at_transport && list_empty(&ms->node);
}

/*
 * madcm_send_misuse() - a ULP called the API on a buffer the core holds
 * @ms: the send buffer
 * @what: what was refused
 * @state: its state at the time
 *
 * Counted on the port and reported once; the call is refused.
 */
void madcm_send_misuse(struct madcm_send *ms, const char *what, int state)
{
	madcm_port_count(ms->port, MADCM_CNT_API_MISUSE);
	if (!madcm_fault_misuse_expected())
		WARN_ONCE(1, "madcm: %s (state %d)\n", what, state);
}

static int madcm_post_one(struct madcm_send *ms)
{
	struct ib_mad_send_buf *sb = &ms->send_buf;
	struct madcm_agent *ag = ms->agent;
	unsigned long flags;
	struct madcm_ah *ah;
	int ret;

	if (!ag || sb->mad_agent != &ag->agent || !sb->ah)
		return -EINVAL;
	ah = to_madcm_ah(sb->ah);
	if (ah->port != ag->port || sb->timeout_ms < 0 || sb->retries < 0)
		return -EINVAL;
	if (!ag->agent.send_handler ||
	    (sb->timeout_ms && !ag->agent.recv_handler))
		return -EINVAL;
	/* As ib_core: an RMPP agent sends MADs of RMPP classes only. */
	if (ag->agent.rmpp_version &&
	    !madcm_is_mad_class_rmpp(((struct ib_mad_hdr *)sb->mad)->mgmt_class))
		return -EINVAL;
	spin_lock_irqsave(&ag->lock, flags);
	if (ag->dying) {
		ret = -ENODEV;
		goto out;
	}
	/* Only a buffer that is the caller's: new, or done and returned. */
	if (!madcm_send_is_callers(ms)) {
		ret = -EINVAL;
		goto out;
	}
	ms->timeout_ms = sb->timeout_ms;
	ms->retries_left = sb->retries;
	ms->max_retries = sb->retries;
	sb->retries = 0;
	ms->status = IB_WC_SUCCESS;
	/*
	 * A buffer posted again starts a new transfer: until its first
	 * segment leaves, a cancel has nothing to ABORT.
	 */
	ms->rmpp_sent = 0;
	ms->rmpp_hi = 0;
	ms->rmpp_last_ack = 0;
	ms->rmpp_done = false;
	madcm_send_key(ms);
	ms->post_seq = ag->post_seq++;
	/*
	 * Every posted send is in the TID table: an RMPP sender finds its
	 * ACKs there, and a send modified later to wait for a response needs
	 * no insertion, which IRQs off would not allow.
	 */
	ret = madcm_send_hash(ag, ms);
	if (ret)
		goto out;
	if (ms->timeout_ms) {
		/* A request beyond the agent's limit waits its turn. */
		if (ag->sol_max && ag->sol_count >= ag->sol_max) {
			ms->state = MADCM_SEND_QUEUED;
			list_add_tail(&ms->node, &ag->backlog);
			goto out;
		}
	}
	ret = madcm_send_transmit(ag, ms);
	if (ret) {
		madcm_send_unhash(ag, ms);
		goto out;
	}
	ms->state = MADCM_SEND_POSTED;
	list_add_tail(&ms->node, &ag->sends);
	if (ms->timeout_ms) {
		ms->solicited = true;
		ag->sol_count++;
	}
	trace_madcm_mad_post(ag->port->name, sb->mad, ag->agent.hi_tid,
			     ms->timeout_ms);
out:
	spin_unlock_irqrestore(&ag->lock, flags);
	return ret;
}

/**
 * madcm_post_send_mad() - post MADs to be sent
 * @send_buf: the first send buffer; more follow through send_buf->next
 * @bad_send_buf: set to the buffer that could not be posted, on error
 *
 * The madcm twin of ib_post_send_mad(). Each buffer needs send_buf->ah
 * (an address handle of the agent's port). With send_buf->timeout_ms set,
 * the send waits that long for its response after the transport completes
 * it, and is resent up to send_buf->retries times (send_buf->retries then
 * counts the resends); the response is the MAD whose TID, management class
 * and source address match the request's. Every buffer posted comes back
 * exactly once through the agent's send handler: IB_WC_SUCCESS when it was
 * sent (and answered, when a response was expected),
 * IB_WC_RESP_TIMEOUT_ERR, IB_WC_WR_FLUSH_ERR when cancelled, or the
 * transport's error. A response that arrives before the transport's
 * completion is handed to the recv handler first. Buffers before the bad
 * one stay posted.
 *
 * A buffer created with rmpp_active is sent as an RMPP transfer
 * (IBTA vol. 1 13.6): its segments go out as the receiver's window
 * allows; send_buf->timeout_ms (or the rmpp_ack_timeout_ms module
 * parameter when 0) is the time to wait for each ACK, and
 * send_buf->retries the resends allowed without progress. It completes
 * with IB_WC_SUCCESS once every segment is acknowledged (and the
 * response came, with timeout_ms), IB_WC_RESP_TIMEOUT_ERR when retries
 * run out, or IB_WC_REM_ABORT_ERR when the receiver sent STOP or ABORT.
 * Documentation/mad.rst, section RMPP, has the details.
 *
 * Another send with the same TID, class and address may be outstanding,
 * as with ib_core; a response then goes to the one whose send completed
 * first, else to the oldest.
 *
 * Context: Any context but hard interrupt context; IRQs may be off, and
 * the caller may hold a lock its send handler takes (the send handler
 * never runs from inside this call).
 * Return: 0 when every buffer was posted. -EINVAL for no buffer, for a
 * buffer without an address handle or with one of another port, for a
 * negative timeout or retry count, for a response expected by an agent
 * without recv handler, for an agent without send handler, for a MAD of
 * a class without RMPP from an agent registered with an RMPP version, or
 * for a buffer already posted;
 * -ENODEV when the agent is being unregistered; or the transport's error.
 */
int madcm_post_send_mad(struct ib_mad_send_buf *send_buf,
			struct ib_mad_send_buf **bad_send_buf)
{
	struct ib_mad_send_buf *next;
	int ret = 0;

	if (!send_buf)
		return -EINVAL;
	for (; send_buf; send_buf = next) {
		next = send_buf->next;
		ret = madcm_post_one(to_madcm_send(send_buf));
		if (ret)
			break;
	}
	if (ret && bad_send_buf)
		*bad_send_buf = send_buf;
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_post_send_mad);

/* Call the send handler of each send on @done; no lock is held. */
void madcm_send_finish_list(struct list_head *done)
{
	struct madcm_send *ms, *tmp;

	list_for_each_entry_safe(ms, tmp, done, node) {
		struct madcm_agent *ag = ms->agent;
		struct ib_mad_send_wc wc = {
			.send_buf = &ms->send_buf,
			.status = ms->status,
		};

		list_del_init(&ms->node);
		/* The buffer holds a reference: this one outlives it. */
		refcount_inc(&ag->refs);
		if (ms->status != IB_WC_SUCCESS &&
		    ms->status != IB_WC_WR_FLUSH_ERR)
			madcm_port_count(ag->port,
					 ms->status == IB_WC_RESP_TIMEOUT_ERR ?
					 MADCM_CNT_TIMEOUT : MADCM_CNT_TX_ERR);
		trace_madcm_mad_send_done(ag->port->name, ms->send_buf.mad,
					  ag->agent.hi_tid, ms->status);
		ag->agent.send_handler(&ag->agent, &wc);
		madcm_agent_put(ag);
	}
}

/**
 * madcm_port_send_complete() - a transport finished a send
 * @port: the port the send was posted on
 * @send: the core's handle, &madcm_port_send.send of the post
 * @status: IB_WC_SUCCESS, or why the MAD could not be sent
 *
 * A transport calls this exactly once for every post its ->post_send()
 * accepted, and never for one it refused. A reply the port sent on its own
 * (an "unsupported method/attribute" answer) is released. A send of an
 * agent moves on: a failed one ends with @status; a successful one goes on
 * to its next RMPP segment, waits for its response when it has a timeout,
 * or ends. A send that was cancelled or already answered while at the
 * transport ends now. Every send that ends is reported to its agent's send
 * handler, which runs from here, with no lock of the core held.
 *
 * Context: Process context, no spinlock held: the agent's send handler
 * runs from here.
 * Return: Nothing.
 */
void madcm_port_send_complete(struct madcm_port *port,
			      struct madcm_send *send,
			      enum ib_wc_status status)
{
	struct madcm_agent *ag = send->agent;
	LIST_HEAD(done);

	if (!ag) {
		madcm_send_port_complete(send, status);
		return;
	}
	spin_lock_bh(&ag->lock);
	send->at_transport = false;
	switch (send->state) {
	case MADCM_SEND_POSTED:
		if (status != IB_WC_SUCCESS) {
			madcm_send_end(ag, send, status, &done);
		} else if (send->rmpp && !send->rmpp_done) {
			madcm_rmpp_send_completed(ag, send, &done);
		} else if (send->timeout_ms) {
			send->state = MADCM_SEND_WAIT_RESP;
			madcm_timeout_add(ag, send, send->timeout_ms);
		} else {
			madcm_send_end(ag, send, IB_WC_SUCCESS, &done);
		}
		break;
	case MADCM_SEND_EARLY_RESP:
		madcm_send_end(ag, send, IB_WC_SUCCESS, &done);
		break;
	case MADCM_SEND_CANCELLED:
		madcm_send_end(ag, send, send->status, &done);
		break;
	default:
		WARN_ONCE(1, "madcm: completion of a send in state %d\n",
			  send->state);
		break;
	}
	spin_unlock_bh(&ag->lock);
	madcm_send_finish_list(&done);
}
EXPORT_SYMBOL_GPL(madcm_port_send_complete);

/*
 * A send ran out of time; the agent's lock is held. Resend it when it has
 * retries left, else end it.
 */
void madcm_send_timed_out(struct madcm_agent *ag, struct madcm_send *ms,
			  struct list_head *done)
{
	if (ms->state == MADCM_SEND_CANCELLED) {
		/* Cancelled by the ULP: its completion is delivered now. */
		madcm_send_end(ag, ms, ms->status, done);
		return;
	}
	trace_madcm_mad_timeout(ag->port->name, ms->send_buf.mad,
				ag->agent.hi_tid, ms->retries_left);
	if (ms->rmpp) {
		madcm_rmpp_send_timed_out(ag, ms, done);
		return;
	}
	if (ms->retries_left > 0) {
		ms->retries_left--;
		ms->send_buf.retries++;
		if (!madcm_send_transmit(ag, ms)) {
			ms->state = MADCM_SEND_POSTED;
			madcm_port_count(ag->port, MADCM_CNT_RETRY);
			return;
		}
	}
	madcm_send_end(ag, ms, IB_WC_RESP_TIMEOUT_ERR, done);
}

/*
 * Cancel one send for madcm_cancel_mad() or madcm_modify_mad(0); the
 * agent's lock is held, maybe with IRQs off, so only the state changes
 * here. A send the transport holds ends at its completion; any other
 * goes to the head of the timeout queue, whose work ends it and calls
 * its send handler.
 */
static bool madcm_send_cancel_locked(struct madcm_agent *ag,
				     struct madcm_send *ms)
{
	switch (ms->state) {
	case MADCM_SEND_QUEUED:
		list_move_tail(&ms->node, &ag->sends);
		break;
	case MADCM_SEND_POSTED:
	case MADCM_SEND_WAIT_RESP:
		break;
	default:
		return false;
	}
	madcm_timeout_del(ag, ms);
	ms->status = IB_WC_WR_FLUSH_ERR;
	ms->state = MADCM_SEND_CANCELLED;
	if (!ms->at_transport)
		madcm_timeout_add(ag, ms, 0);
	return true;
}

/* End one send of an agent being flushed, now; the agent's lock is held. */
static void madcm_send_flush_locked(struct madcm_agent *ag,
				    struct madcm_send *ms,
				    struct list_head *done)
{
	switch (ms->state) {
	case MADCM_SEND_QUEUED:
		__madcm_send_end(ag, ms, IB_WC_WR_FLUSH_ERR, done);
		break;
	case MADCM_SEND_POSTED:
		ms->status = IB_WC_WR_FLUSH_ERR;
		ms->state = MADCM_SEND_CANCELLED;
		break;
	case MADCM_SEND_WAIT_RESP:
		madcm_send_end(ag, ms, IB_WC_WR_FLUSH_ERR, done);
		break;
	case MADCM_SEND_CANCELLED:
		/* Cancelled earlier, its completion not delivered yet. */
		if (!ms->at_transport)
			madcm_send_end(ag, ms, ms->status, done);
		break;
	default:
		break;
	}
}

/* Cancel every send of an agent that is being unregistered. */
void madcm_send_flush_agent(struct madcm_agent *ag)
{
	struct madcm_send *ms, *tmp;
	LIST_HEAD(done);

	spin_lock_bh(&ag->lock);
	/* The backlog first, so that nothing is promoted meanwhile. */
	list_for_each_entry_safe(ms, tmp, &ag->backlog, node)
		madcm_send_flush_locked(ag, ms, &done);
	list_for_each_entry_safe(ms, tmp, &ag->sends, node)
		madcm_send_flush_locked(ag, ms, &done);
	spin_unlock_bh(&ag->lock);
	madcm_send_finish_list(&done);
}

/* A new timeout for a posted send; the agent's lock is held. */
static void madcm_send_retime_locked(struct madcm_agent *ag,
				     struct madcm_send *ms, u32 timeout_ms)
{
	bool acking = ms->rmpp && !ms->rmpp_done &&
		      ms->state != MADCM_SEND_QUEUED;

	/*
	 * An RMPP transfer under way waits that long for each ACK now; it
	 * waits for a response afterwards only if it was posted to.
	 */
	if (acking)
		ms->rmpp_ack_ms = timeout_ms;
	if (!ms->rmpp || ms->timeout_ms)
		ms->timeout_ms = timeout_ms;
	if (ms->state == MADCM_SEND_WAIT_RESP) {
		madcm_timeout_del(ag, ms);
		madcm_timeout_add(ag, ms, timeout_ms);
	}
}

/**
 * madcm_modify_mad() - change the timeout of a posted send
 * @send_buf: the posted send buffer
 * @timeout_ms: the new timeout in milliseconds; 0 cancels the send
 *
 * The madcm twin of ib_modify_mad(). A send waiting for its response gets
 * a new deadline @timeout_ms from now; a send the transport still holds,
 * or one queued behind the agent's limit, will wait @timeout_ms for its
 * response once it is sent. An RMPP transfer still under way waits
 * @timeout_ms for each ACK from now on (and for its response afterwards,
 * if it was posted to wait for one). send_buf->timeout_ms becomes
 * @timeout_ms. With @timeout_ms 0 this is madcm_cancel_mad(): the send
 * handler is called later with IB_WC_WR_FLUSH_ERR, never from inside
 * this call.
 *
 * Context: Any context but hard interrupt context; IRQs may be off, and
 * the caller may hold a lock its send handler takes.
 * Return: 0 on success; -EINVAL when @send_buf is not posted, already has
 * its response or is cancelled.
 */
int madcm_modify_mad(struct ib_mad_send_buf *send_buf, u32 timeout_ms)
{
	struct madcm_send *ms;
	struct madcm_agent *ag;
	unsigned long flags;
	int ret = 0;

	if (!send_buf)
		return -EINVAL;
	ms = to_madcm_send(send_buf);
	ag = ms->agent;
	if (!ag)
		return -EINVAL;
	spin_lock_irqsave(&ag->lock, flags);
	if (!timeout_ms) {
		if (!madcm_send_cancel_locked(ag, ms))
			ret = -EINVAL;
	} else if (ms->state == MADCM_SEND_QUEUED ||
		   ms->state == MADCM_SEND_POSTED ||
		   ms->state == MADCM_SEND_WAIT_RESP) {
		madcm_send_retime_locked(ag, ms, timeout_ms);
	} else {
		ret = -EINVAL;
	}
	if (!ret)
		send_buf->timeout_ms = timeout_ms;
	spin_unlock_irqrestore(&ag->lock, flags);
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_modify_mad);

/**
 * madcm_cancel_mad() - cancel an outstanding send MAD operation
 * @send_buf: indicates the MAD to cancel: a send buffer posted with
 *	madcm_post_send_mad()
 *
 * The madcm twin of ib_cancel_mad(). The cancelled MAD is returned to
 * its owner through the agent's send handler (the ib_mad_send_handler
 * given to madcm_register_mad_agent()), with the status
 * IB_WC_WR_FLUSH_ERR, later and from the core's own worker, never from
 * inside this call: soon if it was queued or waiting for its response;
 * if the transport still holds it, as soon as the transport gives it
 * back. A send that is already done or already has its response, a
 * buffer that was never posted, and NULL are left alone. Either way the
 * send handler runs exactly once per posted send. Same as
 * madcm_modify_mad() with a timeout of 0.
 *
 * Context: Any context but hard interrupt context; IRQs may be off, and
 * the caller may hold a lock its send handler takes.
 * Return: Nothing; the outcome reaches the send handler.
 */
void madcm_cancel_mad(struct ib_mad_send_buf *send_buf)
{
	madcm_modify_mad(send_buf, 0);
}
EXPORT_SYMBOL_GPL(madcm_cancel_mad);

/*
 * A response for agent @ag came in: find its request, hand both to the
 * recv handler, then finish the request. Takes over @rv.
 */
void madcm_send_match_response(struct madcm_agent *ag, struct madcm_recv *rv)
{
	struct madcm_tid_key key;
	struct madcm_send *ms;
	LIST_HEAD(done);

	madcm_recv_key(rv, &key);
	spin_lock_bh(&ag->lock);
	/*
	 * Not a send queued and not sent yet, nor one expecting no response
	 * (an RMPP transfer may expect ACKs only), nor a cancelled one.
	 */
	ms = madcm_send_lookup(ag, &key, MADCM_LOOKUP_RESPONSE);
	if (ms && ms->state == MADCM_SEND_POSTED) {
		madcm_send_unhash(ag, ms);
		ms->state = MADCM_SEND_EARLY_RESP;
		ms->in_recv = true;
	} else if (ms) {
		ms->in_recv = true;
		madcm_send_end(ag, ms, IB_WC_SUCCESS, &done);
	}
	spin_unlock_bh(&ag->lock);

	if (!ms) {
		trace_madcm_mad_recv(ag->port->name,
				     &rv->recv_wc.recv_buf.mad->mad_hdr,
				     ag->agent.hi_tid,
				     MADCM_CNT_RX_UNMATCHED_RESP);
		madcm_recv_unmatched_response(ag, rv);
		return;
	}
	trace_madcm_mad_recv(ag->port->name, &rv->recv_wc.recv_buf.mad->mad_hdr,
			     ag->agent.hi_tid, MADCM_CNT_RX_DISPATCHED);
	madcm_port_count(ag->port, MADCM_CNT_RX_DISPATCHED);
	/* The response goes to the recv handler before the send handler. */
	ag->agent.recv_handler(&ag->agent, &ms->send_buf, &rv->recv_wc);

	spin_lock_bh(&ag->lock);
	ms->in_recv = false;
	if (ms->state == MADCM_SEND_DONE && !ms->at_transport)
		list_move_tail(&ms->node, &done);
	spin_unlock_bh(&ag->lock);
	madcm_send_finish_list(&done);
}

/**
 * madcm_send_state() - the lifecycle state of a send buffer
 * @send_buf: the send buffer
 *
 * For tests and debugging: the state may change as soon as it is read.
 *
 * Context: Any context but hard interrupt context.
 * Return: its enum madcm_send_state.
 */
int madcm_send_state(struct ib_mad_send_buf *send_buf)
{
	struct madcm_send *ms = to_madcm_send(send_buf);
	unsigned long flags;
	int state;

	spin_lock_irqsave(&ms->agent->lock, flags);
	state = ms->state;
	spin_unlock_irqrestore(&ms->agent->lock, flags);
	return state;
}
