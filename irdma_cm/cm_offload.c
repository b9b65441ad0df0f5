// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM's side of the offload boundary (<madcm/cm_offload.h>), the role
 * of irdma's irdma_cm_init_tsa_conn(), irdma_cm_disconn() and
 * irdma_cm_disconn_true(): the hand-off of an established stream to a
 * QP, the frames that still reach the CM afterwards, the QP's reports
 * turned into the consumer's events, and the QP given back (->detach())
 * after the connection's terminal event. Documentation/rnic_offload.rst
 * describes the rules.
 *
 * Locking: the node lock covers the hand-off, ->offload(), ->rx() and
 * ->close(). The QP's reports (madcm_cm_offload_event()) take no CM lock
 * where they are made: they are recorded in the node and handled on the
 * core's ordered event workqueue, so a QP may report from anywhere,
 * including from its ->rx() or ->close(). ->detach() runs on the same
 * workqueue, after the terminal event's handler.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <madcm/cm_offload.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/tcp_seq.h"

static void irdma_cm_qp_ev_work(struct work_struct *work);
static void irdma_cm_steer_work(struct work_struct *work);
static void irdma_cm_detach_work(struct work_struct *work);

/**
 * irdma_cm_offload_init() - set up a new node's offload work
 * @node: the node
 */
void irdma_cm_offload_init(struct irdma_cm_node *node)
{
	INIT_WORK(&node->qp_ev_work, irdma_cm_qp_ev_work);
	INIT_WORK(&node->steer_work, irdma_cm_steer_work);
	INIT_WORK(&node->detach_work, irdma_cm_detach_work);
}

/**
 * irdma_cm_offload_qp_ok() - a consumer's QP has every op
 * @qp: the QP
 *
 * Return: true when it can be used.
 */
bool irdma_cm_offload_qp_ok(const struct madcm_cm_offload_qp *qp)
{
	const struct madcm_cm_offload_ops *ops = qp->ops;

	return ops && ops->offload && ops->rx && ops->close && ops->detach;
}

/**
 * irdma_cm_offload_attach() - bind a QP to a connection
 * @node: the node, locked, held by the consumer
 * @qp: the QP from connect or accept
 *
 * The QP holds a node reference (through @qp->cm_priv) until its
 * ->detach() returns.
 */
void irdma_cm_offload_attach(struct irdma_cm_node *node,
			     struct madcm_cm_offload_qp *qp)
{
	lockdep_assert_held(&node->lock);
	irdma_cm_node_get(node);
	node->oqp = qp;
	WRITE_ONCE(qp->cm_priv, node);
}

/**
 * irdma_cm_offload_unattach() - undo irdma_cm_offload_attach() for an
 *	accept that failed before anything was sent
 * @node: the node, locked, held by the consumer
 */
void irdma_cm_offload_unattach(struct irdma_cm_node *node)
{
	lockdep_assert_held(&node->lock);
	WRITE_ONCE(node->oqp->cm_priv, NULL);
	node->oqp = NULL;
	/* The consumer's reference keeps the node. */
	refcount_dec(&node->refcnt);
}

/* Queue one of the node's works with a reference of its own. */
static void irdma_cm_offload_queue(struct irdma_cm_node *node,
				   struct work_struct *work)
{
	irdma_cm_node_get(node);
	if (!queue_work(node->core->event_wq, work))
		refcount_dec(&node->refcnt);
}

/**
 * irdma_cm_offload_steer() - aim the connection's steering entry
 * @node: the node, locked
 * @target: the QP, or NULL for the CM
 *
 * The backend is told from process context (its ->qhash_add() may
 * sleep); until then it keeps steering to the core, whose receive path
 * passes an offloaded stream's frames to the QP, so nothing is lost in
 * between.
 */
void irdma_cm_offload_steer(struct irdma_cm_node *node,
			    struct madcm_cm_offload_qp *target)
{
	lockdep_assert_held(&node->lock);
	node->steer_target = target;
	if (node->core->ops->qhash_add)
		irdma_cm_offload_queue(node, &node->steer_work);
}

static void irdma_cm_steer_work(struct work_struct *work)
{
	struct irdma_cm_node *node = container_of(work, struct irdma_cm_node,
						  steer_work);
	struct irdma_cm_core *core = node->core;
	struct irdma_cm_qhash qh;
	bool aim;

	irdma_cm_node_qhash(node, &qh);
	/*
	 * Under qh_mutex, which madcm_cm_offload_unsteer() takes after it
	 * sets OFF_HOST: a stream the host's TCP took stays the host's.
	 */
	mutex_lock(&core->qh_mutex);
	irdma_cm_node_lock(node);
	/* The entry exists until the node closes (its removal comes later). */
	aim = test_bit(IRDMA_CM_F_QH_ADDED, &node->flags) &&
	      test_bit(IRDMA_CM_F_HASHED, &node->flags) &&
	      !test_bit(IRDMA_CM_F_OFF_HOST, &node->flags);
	qh.target = node->steer_target;
	irdma_cm_node_unlock(node);
	if (aim && !core->wire_gone && core->ops->qhash_add(core, &qh))
		irdma_cm_dbg(node, "steering entry not retargeted\n");
	mutex_unlock(&core->qh_mutex);
	irdma_cm_node_put(node);
}

/**
 * irdma_cm_offload() - hand an established stream to its QP
 * @node: the node, locked, ESTABLISHED, with a QP
 *
 * Builds the context (irdma_init_tcp_ctx(), the bytes from SND.UNA to
 * SND.NXT still in the CM's transmit buffer, the RTR message a
 * peer-to-peer responder received and left to the QP, the RTO in use)
 * and calls ->offload() in the same critical section that moves the node
 * to OFFLOADED: a frame the CM receives before it is the CM's, one after
 * it goes to ->rx(). The CM's timers stop; the backend's steering entry
 * is aimed at the QP afterwards.
 *
 * Return: 0, or the QP's error (the node is left ESTABLISHED).
 */
int irdma_cm_offload(struct irdma_cm_node *node)
{
	struct madcm_cm_offload_qp *qp = node->oqp;
	struct madcm_cm_offload_ctx ctx = {};
	u32 off;
	int ret;

	lockdep_assert_held(&node->lock);
	irdma_init_tcp_ctx(node, &ctx.tcp);
	if (irdma_seq_lt(node->snd_una, node->snd_nxt)) {
		off = node->snd_una - node->tx_seq;
		/* Only CM data can be in flight here: no FIN, no SYN. */
		if (WARN_ON_ONCE(!test_bit(IRDMA_CM_F_TX_QUEUED, &node->flags) ||
				 off + node->snd_nxt - node->snd_una !=
				 node->tx_len))
			return -EPROTO;
		ctx.unacked = node->tx_buf + off;
		ctx.unacked_len = node->snd_nxt - node->snd_una;
	}
	if (node->rtr_len && node->role == IRDMA_CM_ROLE_RESPONDER) {
		ctx.rcvd = node->rx_buf;
		ctx.rcvd_len = node->rtr_len;
	}
	ctx.rto_ms = jiffies_to_msecs(node->rto);
	ret = qp->ops->offload(qp, &ctx);
	if (ret)
		return ret;
	irdma_cm_disarm_all(node);
	/* The QP holds what is unacknowledged now. */
	irdma_cm_tx_free(node);
	irdma_cm_set_state(node, IRDMA_CM_STATE_OFFLOADED);
	set_bit(IRDMA_CM_F_OFFLOADED, &node->flags);
	irdma_cm_count(node->core, IRDMA_CM_CNT_OFFLOADS);
	irdma_cm_dbg(node, "offloaded, %u bytes unacknowledged\n",
		     ctx.unacked_len);
	irdma_cm_offload_steer(node, qp);
	return 0;
}

/*
 * TIME-WAIT taken back from a QP. The CM no longer knows the stream's
 * sequence numbers; the peer's retransmitted FIN tells them (RFC 9293
 * 3.10.7.4: TIME-WAIT answers it with an ACK and restarts the 2 MSL
 * timeout). Anything else is dropped.
 */
static void irdma_cm_offload_time_wait_rx(struct irdma_cm_node *node,
					  const struct irdma_cm_seg *seg)
{
	if ((seg->flags & (IRDMA_TCP_SYN | IRDMA_TCP_RST | IRDMA_TCP_FIN |
			   IRDMA_TCP_ACK)) != (IRDMA_TCP_FIN | IRDMA_TCP_ACK)) {
		irdma_cm_count(node->core, IRDMA_CM_CNT_SEQ_DROP);
		return;
	}
	node->snd_nxt = seg->ack;
	node->snd_high = seg->ack;
	node->rcv_nxt = seg->seq + seg->payload_len + 1;
	irdma_send_ack(node);
	irdma_cm_arm_close(node, node->core->time_wait);
}

/**
 * irdma_cm_offload_rx() - a frame for a connection that was handed off
 * @node: the node, locked, IRDMA_CM_F_OFFLOADED
 * @seg: the frame, parsed
 * @frame: the frame, from the Ethernet header on
 * @len: its length
 *
 * While the QP owns the stream the frame is the QP's; in the TIME-WAIT
 * the CM took back, the CM answers the peer's FIN; after that, nothing.
 */
void irdma_cm_offload_rx(struct irdma_cm_node *node,
			 const struct irdma_cm_seg *seg, const u8 *frame,
			 u32 len)
{
	lockdep_assert_held(&node->lock);
	switch (node->state) {
	case IRDMA_CM_STATE_OFFLOADED:
		irdma_cm_count(node->core, IRDMA_CM_CNT_OFFLOAD_RX);
		node->oqp->ops->rx(node->oqp, frame, len);
		break;
	case IRDMA_CM_STATE_TIME_WAIT:
		irdma_cm_offload_time_wait_rx(node, seg);
		break;
	default:
		irdma_cm_count(node->core, IRDMA_CM_CNT_SEQ_DROP);
		break;
	}
}

/**
 * irdma_cm_offload_close() - ask an offloaded connection's QP to end it
 * @node: the node, locked, OFFLOADED
 * @rst: abortive (RST), else graceful (FIN)
 *
 * A graceful close is asked for once; it answers later with the QP's
 * reports. A RST is asked for by irdma_cm_reset_node(), which ends the
 * connection in the CM at once: whatever the QP reports afterwards is
 * ignored.
 */
void irdma_cm_offload_close(struct irdma_cm_node *node, bool rst)
{
	struct madcm_cm_offload_qp *qp = node->oqp;

	lockdep_assert_held(&node->lock);
	if (rst) {
		qp->ops->close(qp, MADCM_CM_OFFLOAD_CLOSE_RST);
		return;
	}
	if (test_and_set_bit(IRDMA_CM_F_OFF_CLOSING, &node->flags))
		return;
	if (!test_bit(IRDMA_CM_F_OFF_FIN_RCVD, &node->flags))
		set_bit(IRDMA_CM_F_OFF_ACTIVE_CLOSE, &node->flags);
	qp->ops->close(qp, MADCM_CM_OFFLOAD_CLOSE_FIN);
}

/**
 * irdma_cm_offload_put_qp() - give the connection's QP back
 * @node: the node, locked
 *
 * Called when the terminal event is queued (and, for safety, when the
 * node closes): ->detach() runs after the event's handler, on the same
 * ordered workqueue. The CM calls no other op of the QP from here on.
 */
void irdma_cm_offload_put_qp(struct irdma_cm_node *node)
{
	lockdep_assert_held(&node->lock);
	if (!node->oqp)
		return;
	node->detach_qp = node->oqp;
	node->oqp = NULL;
	/* The QP's reference, given back by the work. */
	if (WARN_ON_ONCE(!queue_work(node->core->event_wq,
				     &node->detach_work)))
		refcount_dec(&node->refcnt);
}

static void irdma_cm_detach_work(struct work_struct *work)
{
	struct irdma_cm_node *node = container_of(work, struct irdma_cm_node,
						  detach_work);
	struct madcm_cm_offload_qp *qp = node->detach_qp;

	WRITE_ONCE(qp->cm_priv, NULL);
	qp->ops->detach(qp);
	irdma_cm_node_put(node);
}

/*
 * Both FINs are through on the QP. When ours went first the connection
 * ends in TIME-WAIT (RFC 9293 3.6); the QP is given back now and the CM
 * keeps the 4-tuple for the core's time_wait_ms, answering the peer's
 * retransmitted FIN, before it lets go of it. Otherwise it is over.
 */
static void irdma_cm_offload_closed(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	irdma_cm_event(node, MADCM_CM_EVENT_CLOSE, 0);
	if (test_bit(IRDMA_CM_F_OFF_ACTIVE_CLOSE, &node->flags) &&
	    !test_bit(IRDMA_CM_F_OFF_HOST, &node->flags) &&
	    core->time_wait && irdma_cm_time_wait_begin(node)) {
		/* Where the QP's stream ended, when it said so. */
		if (test_bit(IRDMA_CM_F_OFF_FIN_SEQ, &node->flags)) {
			/* Pairs with madcm_cm_offload_closed()'s smp_wmb(). */
			smp_rmb();
			node->snd_nxt = READ_ONCE(node->qp_fin_snd_nxt);
			node->snd_una = node->snd_nxt;
			node->snd_high = node->snd_nxt;
			node->rcv_nxt = READ_ONCE(node->qp_fin_rcv_nxt);
		}
		irdma_cm_set_state(node, IRDMA_CM_STATE_TIME_WAIT);
		irdma_cm_count(core, IRDMA_CM_CNT_OFFLOAD_TW);
		irdma_cm_arm_close(node, core->time_wait);
		irdma_cm_offload_steer(node, NULL);
		return;
	}
	irdma_cm_node_closed(node);
}

static void irdma_cm_qp_ev_work(struct work_struct *work)
{
	struct irdma_cm_node *node = container_of(work, struct irdma_cm_node,
						  qp_ev_work);
	unsigned long ev;

	irdma_cm_node_lock(node);
	ev = xchg(&node->qp_ev, 0);
	/* A connection the CM ended already (abort, core stop) ignores it. */
	if (node->state == IRDMA_CM_STATE_OFFLOADED) {
		if ((ev & BIT(MADCM_CM_OFFLOAD_EV_FIN_RCVD)) &&
		    !test_and_set_bit(IRDMA_CM_F_OFF_FIN_RCVD, &node->flags))
			irdma_cm_event(node, MADCM_CM_EVENT_DISCONNECT, 0);
		if (ev & BIT(MADCM_CM_OFFLOAD_EV_RESET)) {
			irdma_cm_event(node, MADCM_CM_EVENT_RESET,
				       READ_ONCE(node->qp_ev_status));
			irdma_cm_node_closed(node);
		} else if (ev & BIT(MADCM_CM_OFFLOAD_EV_CLOSED)) {
			irdma_cm_offload_closed(node);
		}
	}
	irdma_cm_node_unlock(node);
	irdma_cm_node_put(node);
}

/**
 * madcm_cm_offload_event() - a QP reports what became of its stream
 * @qp: the QP, handed a stream by the CM and not yet detached
 * @ev: what happened
 * @status: for @ev MADCM_CM_OFFLOAD_EV_RESET, why (a negative errno:
 *	-ECONNRESET for a RST received, -ETIMEDOUT when retransmissions ran
 *	out, ...; 0 is taken as -ECONNRESET; the first RESET's counts);
 *	ignored otherwise
 *
 * The CM turns the reports into its consumer's events: FIN_RCVD into
 * DISCONNECT, CLOSED into CLOSE, RESET into RESET with @status; CLOSE and
 * RESET are terminal, so the first of them ends the connection and what
 * the QP reports later is ignored, as is anything reported for a
 * connection the CM already ended itself (madcm_cm_abort(), a core being
 * stopped). After the terminal event the CM calls the QP's ->detach().
 * The reports are recorded here and handled in process context, in the
 * order FIN_RCVD, then RESET or CLOSED; the call takes no lock of the
 * CM, so the QP may make it from its ->rx() and ->close() too.
 *
 * Context: Any context.
 * Return: Nothing.
 */
void madcm_cm_offload_event(struct madcm_cm_offload_qp *qp,
			    enum madcm_cm_offload_event ev, int status)
{
	struct irdma_cm_node *node = READ_ONCE(qp->cm_priv);

	if (!node || (unsigned int)ev > MADCM_CM_OFFLOAD_EV_RESET)
		return;
	/* The first RESET is the one the consumer hears of. */
	if (ev == MADCM_CM_OFFLOAD_EV_RESET)
		cmpxchg(&node->qp_ev_status, 0,
			status < 0 ? status : -ECONNRESET);
	/* The status is written before the bit that announces it. */
	smp_mb__before_atomic();
	set_bit(ev, &node->qp_ev);
	irdma_cm_offload_queue(node, &node->qp_ev_work);
}
EXPORT_SYMBOL_GPL(madcm_cm_offload_event);

/**
 * madcm_cm_offload_closed() - report CLOSED with the stream's last
 *	sequence numbers
 * @qp: the QP, handed a stream by the CM and not yet detached
 * @snd_nxt: the sequence number after the QP's FIN
 * @rcv_nxt: the sequence number after the peer's FIN
 *
 * madcm_cm_offload_event(@qp, MADCM_CM_OFFLOAD_EV_CLOSED, 0), for a QP
 * that knows where its stream ended; it should use this one. When our
 * FIN went first the CM keeps the 4-tuple in TIME-WAIT with these
 * numbers: it acknowledges the peer's retransmitted FIN with them, and a
 * connect that takes the TIME-WAIT over starts its ISS above @snd_nxt
 * (RFC 9293 3.4.1). Without them the CM knows only the numbers of the
 * hand-off.
 *
 * Context: Any context.
 * Return: Nothing.
 */
void madcm_cm_offload_closed(struct madcm_cm_offload_qp *qp, u32 snd_nxt,
			     u32 rcv_nxt)
{
	struct irdma_cm_node *node = READ_ONCE(qp->cm_priv);

	if (!node)
		return;
	if (!test_bit(IRDMA_CM_F_OFF_FIN_SEQ, &node->flags)) {
		WRITE_ONCE(node->qp_fin_snd_nxt, snd_nxt);
		WRITE_ONCE(node->qp_fin_rcv_nxt, rcv_nxt);
		/* The numbers before the flag; the event orders both. */
		smp_wmb();
		set_bit(IRDMA_CM_F_OFF_FIN_SEQ, &node->flags);
	}
	madcm_cm_offload_event(qp, MADCM_CM_OFFLOAD_EV_CLOSED, 0);
}
EXPORT_SYMBOL_GPL(madcm_cm_offload_closed);

/**
 * madcm_cm_offload_reset() - reset the peer of a stream the QP lost
 * @qp: the QP, handed a stream by the CM and not yet detached
 * @seq: the RST's sequence number: the QP's SND.NXT
 * @ack: its acknowledgment number: the QP's RCV.NXT
 *
 * For a QP whose stream failed where nothing else will answer the peer
 * (a hand-off to the host's TCP that made no socket): the CM sends the
 * peer a RST with ACK (RFC 9293 3.10.7.4, which the peer takes at its
 * RCV.NXT, RFC 5961 3.2) from the connection's addresses, on its link,
 * whose steering still holds the 4-tuple. The CM's state does not
 * change: the QP reports the end as it would otherwise
 * (madcm_cm_offload_event() with MADCM_CM_OFFLOAD_EV_RESET).
 *
 * Context: Any context; does not sleep. The backend's ->xmit() is called
 * with no CM lock held unless the QP calls from its own ->offload(),
 * ->rx() or ->close().
 * Return: 0; -ENOTCONN when @qp is bound to no connection or the
 * connection has no next hop; -EINVAL when the segment could not be
 * built (a bug: it warns); the backend's error.
 */
int madcm_cm_offload_reset(struct madcm_cm_offload_qp *qp, u32 seq, u32 ack)
{
	struct irdma_cm_node *node = READ_ONCE(qp->cm_priv);
	struct irdma_cm_seg seg = {};
	struct irdma_cm_core *core;
	u8 buf[IRDMA_CM_MAX_HDR];
	int len, ret;

	if (!node || !test_bit(IRDMA_CM_F_MAC_RESOLVED, &node->flags))
		return -ENOTCONN;
	core = node->core;
	irdma_cm_seg_addr(node, &seg);
	seg.seq = seq;
	seg.ack = ack;
	seg.flags = IRDMA_TCP_RST | IRDMA_TCP_ACK;
	len = irdma_cm_build_seg(&seg, buf, sizeof(buf));
	if (WARN_ON_ONCE(len <= 0))
		return -EINVAL;
	ret = core->ops->xmit(core, buf, len);
	irdma_cm_count(core, ret ? IRDMA_CM_CNT_TX_ERR : IRDMA_CM_CNT_TX_SEGS);
	if (!ret)
		irdma_cm_count(core, IRDMA_CM_CNT_RST_SENT);
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_cm_offload_reset);

/**
 * madcm_cm_offload_can_host() - can the host's TCP take this stream?
 * @qp: the QP, attached to a connection (from its ->offload())
 *
 * Whether the connection's backend can pass its segments to the host's
 * stack (madcm_cm_offload_unsteer()): the netdev backend can; a test
 * wire or an external backend steers to the CM only, and a QP there
 * carries the stream itself.
 *
 * Context: Any context; from ->offload(), with the CM's lock held.
 * Return: true when it can.
 */
bool madcm_cm_offload_can_host(struct madcm_cm_offload_qp *qp)
{
	struct irdma_cm_node *node = READ_ONCE(qp->cm_priv);

	return node && node->core->ops->qhash_host;
}
EXPORT_SYMBOL_GPL(madcm_cm_offload_can_host);

/**
 * madcm_cm_offload_unsteer() - let the host's TCP have the stream
 * @qp: the QP, handed a stream by the CM and not yet detached
 *
 * For a QP that carries its stream on a socket of the host's own TCP
 * (repaired at the hand-off into the connection's state): once that
 * socket is in the host's connection table, the CM removes the
 * connection's steering entry, so that the peer's segments reach the
 * socket from now on. The CM then keeps no part of the stream: it does
 * not take the 4-tuple back for TIME-WAIT when the QP reports CLOSED,
 * since the host's socket keeps its own. Frames the CM still passes to
 * ->rx() afterwards were stolen before the removal; the QP hands them to
 * the host's stack too.
 *
 * Context: Process context; sleeps (the backend's steering lock). Not
 * from ->offload(), ->rx() or ->close().
 * Return: 0; -ENOTCONN when the CM no longer hands the stream to @qp
 * (detached, or the connection ended first); the backend's error (the
 * CM's steering of the connection is then as it was).
 */
int madcm_cm_offload_unsteer(struct madcm_cm_offload_qp *qp)
{
	struct irdma_cm_node *node = READ_ONCE(qp->cm_priv);
	struct irdma_cm_core *core;
	struct irdma_cm_qhash qh;
	bool del = false;
	int ret = 0;

	might_sleep();
	if (!node)
		return -ENOTCONN;
	core = node->core;
	irdma_cm_node_qhash(node, &qh);
	irdma_cm_node_lock(node);
	if (node->state != IRDMA_CM_STATE_OFFLOADED || node->oqp != qp) {
		irdma_cm_node_unlock(node);
		return -ENOTCONN;
	}
	set_bit(IRDMA_CM_F_OFF_HOST, &node->flags);
	/*
	 * A backend that can pass a connection to its host keeps the entry,
	 * as a pass entry, until the node closes; otherwise it goes here,
	 * once, and closing the node leaves it.
	 */
	if (test_bit(IRDMA_CM_F_HASHED, &node->flags)) {
		if (core->ops->qhash_host)
			del = test_bit(IRDMA_CM_F_QH_ADDED, &node->flags);
		else
			del = test_and_clear_bit(IRDMA_CM_F_QH_ADDED,
						 &node->flags);
	}
	irdma_cm_node_unlock(node);
	mutex_lock(&core->qh_mutex);
	if (del && !core->wire_gone) {
		if (core->ops->qhash_host)
			ret = core->ops->qhash_host(core, &qh);
		else if (core->ops->qhash_del)
			core->ops->qhash_del(core, &qh);
	}
	mutex_unlock(&core->qh_mutex);
	if (ret)
		return ret;
	irdma_cm_count(core, IRDMA_CM_CNT_OFFLOAD_HOST);
	return 0;
}
EXPORT_SYMBOL_GPL(madcm_cm_offload_unsteer);
