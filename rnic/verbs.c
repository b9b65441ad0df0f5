// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm's software RNIC: the control-path verbs.
 *
 * PDs, kernel CQs (a ring of ib_wc) and RC QPs whose send and receive
 * queues are kernel rings (the MRs are in mr.c). A QP moves through
 * the iWARP states (Documentation/rnic.rst): RESET, INIT (Idle), RTR, RTS
 * (only when the CM hands the stream over, madcm_rnic_qp_to_rts()), SQD
 * (Closing) and ERR (Error). Every work request sits in exactly one ring
 * slot until it completes; entering ERROR completes each one with
 * IB_WC_WR_FLUSH_ERR, and a work request posted in ERROR completes the
 * same way at once, so none is lost and none completes twice.
 *
 * Locking: @qp->lock (irqsave: the stream's softirq and timer paths change
 * the state) covers the QP's state and both rings, then a CQ's lock nests
 * inside it; STag state changes under the lock of the device's MR table.
 * Consumers' handlers run from madcm_rnic_wq, with no RNIC or CM lock
 * held: the paths that complete work requests hold @qp->lock, or the
 * stream's rx_lock and the CM's connection lock. The exception is
 * ib_core's handler of a CQ it polls from its workqueue, which only
 * queues work (madcm_rnic_cq_direct()).
 */
#include <linux/log2.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/workqueue.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include "madcm_compat.h"
#include "rnic/rnic.h"

/* Where the consumers' handlers run (madcm_rnic_init() makes it). */
struct workqueue_struct *madcm_rnic_wq;

/* The QP attributes modify_qp takes. */
#define MADCM_RNIC_QP_ATTR_MASK	(IB_QP_STATE | IB_QP_CUR_STATE | \
				 IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX | \
				 IB_QP_PORT | IB_QP_MAX_QP_RD_ATOMIC | \
				 IB_QP_MAX_DEST_RD_ATOMIC | \
				 IB_QP_EN_SQD_ASYNC_NOTIFY)

/* ---- protection domains ---- */

static int madcm_rnic_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(ibpd->device);
	struct madcm_rnic_pd *pd = container_of(ibpd, struct madcm_rnic_pd,
						ibpd);
	int ret;

	ret = madcm_rnic_user_charge(dev, udata, MADCM_RNIC_RES_PD, &pd->uctx);
	if (ret)
		return ret;
	if (atomic_inc_return(&dev->n_pd) > MADCM_RNIC_MAX_PD) {
		atomic_dec(&dev->n_pd);
		madcm_rnic_user_uncharge(dev, pd->uctx, MADCM_RNIC_RES_PD);
		return -ENOMEM;
	}
	return 0;
}

static int madcm_rnic_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(ibpd->device);
	struct madcm_rnic_pd *pd = container_of(ibpd, struct madcm_rnic_pd,
						ibpd);

	madcm_rnic_user_uncharge(dev, pd->uctx, MADCM_RNIC_RES_PD);
	atomic_dec(&dev->n_pd);
	return 0;
}

/* ---- completion queues ---- */

/*
 * A ring of at least @n slots whose count of slots divides 2^32: the
 * rings index slots by a free-running u32 modulo their size, which
 * stays in step across the counter's wrap only then (2^32 mod 385, say,
 * is 81: after the wrap, a new entry would take the slot of one still
 * live). The limits (MADCM_RNIC_MAX_QP_WR, MADCM_RNIC_MAX_CQE) are
 * powers of two, so the rounded size stays within them.
 */
u32 madcm_rnic_ring_size(u32 n)
{
	return n ? roundup_pow_of_two(n) : 0;
}

static int madcm_rnic_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
				int mask, struct ib_udata *udata);

/*
 * The CQ overran (IBTA vol. 1 11.4.2.1): a completion was lost, so the
 * CQ's event handler hears IB_EVENT_CQ_ERR, and every QP that completes
 * into it goes to ERROR (its stream reset, its work flushed), as rxe
 * does, rather than run on with completions missing. A rare event: the
 * device's QPs are walked. Process context (the CQ's work).
 */
static void madcm_rnic_cq_overrun(struct madcm_rnic_cq *cq)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(cq->ibcq.device);
	struct ib_event ev = {
		.device = cq->ibcq.device,
		.element.cq = &cq->ibcq,
		.event = IB_EVENT_CQ_ERR,
	};
	unsigned long index = 0;

	if (cq->ibcq.event_handler)
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
	while (xa_find(&dev->qps, &index, ULONG_MAX, XA_PRESENT)) {
		struct madcm_rnic_qp *qp = madcm_rnic_qp_get(dev, index);

		if (qp && (qp->ibqp.send_cq == &cq->ibcq ||
			   qp->ibqp.recv_cq == &cq->ibcq)) {
			struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

			madcm_rnic_modify_qp(&qp->ibqp, &attr, IB_QP_STATE,
					     NULL);
		}
		if (qp)
			madcm_rnic_qp_put(qp);
		index++;
	}
}

/*
 * The consumer's handlers of a CQ, with no RNIC or CM lock held: they may
 * poll, post, modify or destroy QPs, and sleep. One at a time per CQ (a
 * work item never runs twice at once).
 */
static void madcm_rnic_cq_work(struct work_struct *work)
{
	struct madcm_rnic_cq *cq = container_of(work, struct madcm_rnic_cq,
						work);
	unsigned long flags;
	bool comp, err;

	spin_lock_irqsave(&cq->lock, flags);
	comp = cq->comp_due;
	err = cq->err_due;
	cq->comp_due = false;
	cq->err_due = false;
	spin_unlock_irqrestore(&cq->lock, flags);
	if (err)
		madcm_rnic_cq_overrun(cq);
	if (comp && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

/* A kernel CQ is a ring of ib_wc; a user CQ (@udata) one of siw_cqe. */
static int madcm_rnic_cq_init(struct ib_cq *ibcq,
			      const struct ib_cq_init_attr *attr,
			      struct ib_udata *udata)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(ibcq->device);
	struct madcm_rnic_cq *cq = to_madcm_rnic_cq(ibcq);
	int ret = -ENOMEM;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (!attr->cqe || attr->cqe > MADCM_RNIC_MAX_CQE ||
	    attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;
	ret = madcm_rnic_user_charge(dev, udata, MADCM_RNIC_RES_CQ, &cq->uctx);
	if (ret)
		return ret;
	ret = -ENOMEM;
	if (atomic_inc_return(&dev->n_cq) > MADCM_RNIC_MAX_CQ)
		goto err_count;
	spin_lock_init(&cq->lock);
	INIT_WORK(&cq->work, madcm_rnic_cq_work);
	cq->size = madcm_rnic_ring_size(attr->cqe);
	ibcq->cqe = cq->size;
	if (udata) {
		ret = madcm_rnic_ucq_create(cq, udata);
		if (ret)
			goto err_count;
		return 0;
	}
	cq->ring = kvcalloc(cq->size, sizeof(*cq->ring), GFP_KERNEL);
	if (!cq->ring)
		goto err_count;
	return 0;

err_count:
	atomic_dec(&dev->n_cq);
	madcm_rnic_user_uncharge(dev, cq->uctx, MADCM_RNIC_RES_CQ);
	return ret;
}

#ifdef MADCM_HAVE_CREATE_CQ_ATTRS
static int madcm_rnic_create_cq(struct ib_cq *ibcq,
				const struct ib_cq_init_attr *attr,
				struct uverbs_attr_bundle *attrs)
{
	return madcm_rnic_cq_init(ibcq, attr,
				  attrs ? &attrs->driver_udata : NULL);
}
#else
static int madcm_rnic_create_cq(struct ib_cq *ibcq,
				const struct ib_cq_init_attr *attr,
				struct ib_udata *udata)
{
	return madcm_rnic_cq_init(ibcq, attr, udata);
}
#endif

static int madcm_rnic_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct madcm_rnic_cq *cq = to_madcm_rnic_cq(ibcq);

	/* no QP completes into it any more: a last handler may be due */
	cancel_work_sync(&cq->work);
	if (cq->uring)
		madcm_rnic_ucq_destroy(cq);
	kvfree(cq->ring);
	atomic_dec(&to_madcm_rnic(ibcq->device)->n_cq);
	madcm_rnic_user_uncharge(to_madcm_rnic(ibcq->device), cq->uctx,
				 MADCM_RNIC_RES_CQ);
	return 0;
}

/*
 * A CQ that ib_core polls from its own workqueue (ib_alloc_cq() and
 * ib_cq_pool_get() with IB_POLL_WORKQUEUE or IB_POLL_UNBOUND_WORKQUEUE,
 * the only CQs that have a comp_wq) has ib_core's handler, which only
 * queues the CQ's poll work on that workqueue: safe in any context.
 */
static bool madcm_rnic_cq_direct(const struct madcm_rnic_cq *cq)
{
	return !cq->uring && cq->ibcq.comp_wq;
}

/*
 * Adds one completion. When the CQ was armed for it, its completion
 * handler is due: the CQ's work calls it, or for a CQ that ib_core polls
 * from its workqueue (madcm_rnic_cq_direct()) this call does, which
 * spares a switch to our work before ib_core's. A full CQ loses the
 * completion: it is counted, and the first loss is the CQ's overrun,
 * which the CQ's work handles (madcm_rnic_cq_overrun()). Any context,
 * any lock held.
 */
static void madcm_rnic_cq_add(struct madcm_rnic_cq *cq, const struct ib_wc *wc,
			      bool solicited)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(cq->ibcq.device);
	bool due = false, lost = false, first_loss = false, direct = false;
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->uring) {
		/* the process polls: a slot is free once it cleared it */
		if (madcm_rnic_ucqe_put(cq->uring, cq->size, cq->tail, wc)) {
			cq->tail++;
			due = madcm_rnic_ucq_notify(cq->uctrl, solicited);
		} else {
			lost = true;
		}
	} else if (cq->tail - cq->head == cq->size) {
		lost = true;
	} else {
		cq->ring[cq->tail % cq->size] = *wc;
		cq->tail++;
		if (cq->notify == IB_CQ_NEXT_COMP ||
		    (cq->notify == IB_CQ_SOLICITED && solicited)) {
			cq->notify = 0;
			due = true;
		}
	}
	if (lost) {
		first_loss = !cq->overflow;
		cq->overflow = true;
		cq->err_due |= first_loss;
	}
	if (due && madcm_rnic_cq_direct(cq)) {
		direct = true;
		due = false;
	}
	cq->comp_due |= due;
	if (due || first_loss)
		queue_work(madcm_rnic_wq, &cq->work);
	spin_unlock_irqrestore(&cq->lock, flags);

	if (direct)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	if (lost)
		madcm_rnic_count(dev, MADCM_RNIC_CNT_CQ_OVERFLOW);
}

static int madcm_rnic_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct madcm_rnic_cq *cq = to_madcm_rnic_cq(ibcq);
	unsigned long flags;
	int n = 0;

	/* a user CQ is polled in the process's own mapping */
	if (cq->uring)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&cq->lock, flags);
	while (n < num && cq->head != cq->tail) {
		wc[n++] = cq->ring[cq->head % cq->size];
		cq->head++;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

static int madcm_rnic_req_notify_cq(struct ib_cq *ibcq,
				    enum ib_cq_notify_flags flags)
{
	struct madcm_rnic_cq *cq = to_madcm_rnic_cq(ibcq);
	unsigned long irqflags;
	int missed = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	if ((flags & IB_CQ_SOLICITED_MASK) == IB_CQ_NEXT_COMP)
		cq->notify = IB_CQ_NEXT_COMP;
	else if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = IB_CQ_SOLICITED;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq->head != cq->tail)
		missed = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return missed;
}

/* ---- completions of a QP's work requests ---- */

/*
 * What is due once @qp->lock is dropped: a user QP's doorbell writes what
 * it queued to the stream (process context, the doorbell's); closing the
 * stream after a Terminate (any context).
 */
void madcm_rnic_run_due(struct madcm_rnic_qp *qp, struct madcm_rnic_due *due)
{
	if (due->push)
		madcm_rnic_stream_push(&qp->stream);
	if (due->close)
		madcm_rnic_stream_close_after_queue(&qp->stream);
}

static enum ib_wc_opcode madcm_rnic_wc_opcode(enum ib_wr_opcode op)
{
	switch (op) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		return IB_WC_RDMA_READ;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	default:
		return IB_WC_SEND;
	}
}

static void madcm_rnic_sq_complete(struct madcm_rnic_qp *qp,
				   const struct madcm_rnic_swqe *wqe,
				   enum ib_wc_status status,
				   struct madcm_rnic_due *due)
{
	struct ib_wc wc = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = madcm_rnic_wc_opcode(wqe->opcode),
		.qp = &qp->ibqp,
	};

	if (status == IB_WC_WR_FLUSH_ERR)
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_WR_FLUSHED);
	else if (status != IB_WC_SUCCESS)
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_WR_ERROR);
	madcm_rnic_cq_add(to_madcm_rnic_cq(qp->ibqp.send_cq), &wc, false);
}

static void madcm_rnic_rq_complete(struct madcm_rnic_qp *qp,
				   const struct madcm_rnic_rwqe *wqe,
				   enum ib_wc_status status,
				   struct madcm_rnic_due *due)
{
	struct ib_wc wc = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
	};

	if (status == IB_WC_WR_FLUSH_ERR)
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_WR_FLUSHED);
	madcm_rnic_cq_add(to_madcm_rnic_cq(qp->ibqp.recv_cq), &wc, false);
}

/**
 * madcm_rnic_rq_complete_head() - complete the receive queue's head
 * @qp: the QP (@qp->lock not held)
 * @head: the @qp->rq.head the caller found its receive at
 * @status: the completion status
 * @byte_len: the octets placed
 * @solicited: a Send with Solicited Event
 * @inv_rkey: the STag a Send with Invalidate invalidated, 0 for none
 *
 * The receive completes only when it is still the head of the ring (a
 * flush may have completed it meanwhile).
 * Context: Any.
 * Return: true when it completed it.
 */
bool madcm_rnic_rq_complete_head(struct madcm_rnic_qp *qp, u32 head,
				 enum ib_wc_status status, u32 byte_len,
				 bool solicited, u32 inv_rkey)
{
	struct madcm_rnic_cq *cq = to_madcm_rnic_cq(qp->ibqp.recv_cq);
	struct ib_wc wc = {
		.status = status,
		.opcode = IB_WC_RECV,
		.byte_len = byte_len,
		.qp = &qp->ibqp,
	};
	unsigned long flags;

	if (inv_rkey) {
		wc.wc_flags = IB_WC_WITH_INVALIDATE;
		wc.ex.invalidate_rkey = inv_rkey;
	}
	spin_lock_irqsave(&qp->lock, flags);
	if (qp->rq.head != head || qp->rq.head == qp->rq.tail) {
		spin_unlock_irqrestore(&qp->lock, flags);
		return false;
	}
	wc.wr_id = qp->rwqe[head % qp->rq.size].wr_id;
	qp->rq.head++;
	if (status != IB_WC_SUCCESS && status != IB_WC_WR_FLUSH_ERR)
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_WR_ERROR);
	madcm_rnic_cq_add(cq, &wc, solicited);
	spin_unlock_irqrestore(&qp->lock, flags);
	return true;
}

static bool madcm_rnic_sq_signaled(const struct madcm_rnic_qp *qp,
				   const struct madcm_rnic_swqe *wqe)
{
	return qp->sq_sig_all || wqe->send_flags & IB_SEND_SIGNALED ||
	       wqe->status != IB_WC_SUCCESS;
}

/**
 * madcm_rnic_sq_retire() - complete the send queue's finished head
 * @qp: the QP, @qp->lock held
 * @due: what is due once the lock is dropped
 *
 * Send work requests complete in the order they were posted: from the
 * head on, each one that is over completes (a success only when
 * signaled, an error always) until one that is not.
 */
void madcm_rnic_sq_retire(struct madcm_rnic_qp *qp, struct madcm_rnic_due *due)
{
	lockdep_assert_held(&qp->lock);
	while (qp->sq.head != qp->sq_next) {
		struct madcm_rnic_swqe *wqe =
			&qp->swqe[qp->sq.head % qp->sq.size];

		/* a zero-copy one waits until TCP is done with its pages */
		if (!wqe->done || wqe->zc_wait)
			break;
		if (madcm_rnic_sq_signaled(qp, wqe))
			madcm_rnic_sq_complete(qp, wqe, wqe->status, due);
		qp->sq.head++;
	}
}

/*
 * Completes every queued work request once, in order, with
 * IB_WC_WR_FLUSH_ERR (signaled or not), but a send work request that
 * failed already, which completes with its own status. The send side
 * forgets its outstanding Reads and Read Responses.
 */
static void madcm_rnic_flush_locked(struct madcm_rnic_qp *qp,
				    struct madcm_rnic_due *due)
{
	lockdep_assert_held(&qp->lock);
	/* a user QP: what its rings hold is flushed too */
	if (qp->usq)
		madcm_rnic_usq_fetch_locked(qp);
	if (qp->urq)
		madcm_rnic_urq_fetch_locked(qp);
	while (qp->sq.head != qp->sq.tail) {
		struct madcm_rnic_swqe *wqe =
			&qp->swqe[qp->sq.head % qp->sq.size];

		madcm_rnic_sq_complete(qp, wqe, wqe->done &&
				       wqe->status != IB_WC_SUCCESS ?
				       wqe->status : IB_WC_WR_FLUSH_ERR, due);
		qp->sq.head++;
	}
	madcm_rnic_qp_tx_zc_end(qp);
	qp->sq_next = qp->sq.tail;
	qp->tx_off = 0;
	qp->tx_started = false;
	qp->orq_head = qp->orq_tail;
	qp->irq_head = qp->irq_tail;
	while (qp->rq.head != qp->rq.tail) {
		madcm_rnic_rq_complete(qp, &qp->rwqe[qp->rq.head % qp->rq.size],
				       IB_WC_WR_FLUSH_ERR, due);
		qp->rq.head++;
	}
}

/**
 * madcm_rnic_qp_error_locked() - the QP enters ERROR
 * @qp: the QP, @qp->lock held
 * @due: what is due once the lock is dropped
 *
 * The send work requests over already at the head of the queue complete
 * first with their own status (madcm_rnic_sq_retire()), then every
 * other outstanding one once (madcm_rnic_flush_locked()).
 */
void madcm_rnic_qp_error_locked(struct madcm_rnic_qp *qp,
				struct madcm_rnic_due *due)
{
	lockdep_assert_held(&qp->lock);
	madcm_rnic_sq_retire(qp, due);
	if (qp->state != IB_QPS_ERR) {
		qp->state = IB_QPS_ERR;
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_QP_ERROR);
	}
	madcm_rnic_flush_locked(qp, due);
}

/* ---- queue pairs ---- */

/* The consumer's QP event handler, with no RNIC or CM lock held. */
static void madcm_rnic_qp_ev_work(struct work_struct *work)
{
	struct madcm_rnic_qp *qp = container_of(work, struct madcm_rnic_qp,
						ev_work);
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = IB_EVENT_QP_FATAL,
	};
	unsigned long flags;
	bool fatal;

	spin_lock_irqsave(&qp->lock, flags);
	fatal = qp->ev_fatal;
	qp->ev_fatal = false;
	spin_unlock_irqrestore(&qp->lock, flags);
	/* the handler may destroy the QP: nothing of it is touched after */
	if (fatal && qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

/**
 * madcm_rnic_qp_event() - raise an affiliated asynchronous event
 * @qp: the QP
 * @type: the event; IB_EVENT_QP_FATAL only
 *
 * The QP's event handler runs later from madcm_rnic_wq, with no lock
 * held, once however often the event is raised before it runs.
 * Context: Any; any lock but @qp->lock held.
 */
void madcm_rnic_qp_event(struct madcm_rnic_qp *qp, enum ib_event_type type)
{
	unsigned long flags;

	if (WARN_ON_ONCE(type != IB_EVENT_QP_FATAL))
		return;
	spin_lock_irqsave(&qp->lock, flags);
	qp->ev_fatal = true;
	queue_work(madcm_rnic_wq, &qp->ev_work);
	spin_unlock_irqrestore(&qp->lock, flags);
}

/*
 * Before a QP goes: its pending event is dropped (its consumer destroys
 * it), and its CQs' handlers that are due run now. Otherwise a handler
 * could run after ib_free_cq() cancelled its own poll work (it does so
 * before destroy_cq) and queue that work again on a CQ being freed. Not
 * from the handler that destroys the QP itself.
 */
static void madcm_rnic_qp_flush_handlers(struct madcm_rnic_qp *qp)
{
	struct work_struct *self = current_work();
	struct madcm_rnic_cq *cq;

	if (self != &qp->ev_work)
		cancel_work_sync(&qp->ev_work);
	cq = to_madcm_rnic_cq(qp->ibqp.send_cq);
	if (self != &cq->work)
		flush_work(&cq->work);
	cq = to_madcm_rnic_cq(qp->ibqp.recv_cq);
	if (self != &cq->work)
		flush_work(&cq->work);
}

static int madcm_rnic_check_cap(const struct ib_qp_cap *cap, bool user)
{
	if (cap->max_send_wr > MADCM_RNIC_MAX_QP_WR ||
	    cap->max_recv_wr > MADCM_RNIC_MAX_QP_WR ||
	    cap->max_send_sge > MADCM_RNIC_MAX_SGE ||
	    cap->max_recv_sge > MADCM_RNIC_MAX_SGE ||
	    cap->max_inline_data > (user ? MADCM_RNIC_MAX_UINLINE :
					   MADCM_RNIC_MAX_INLINE))
		return -EINVAL;
	return 0;
}

static int madcm_rnic_create_qp(struct ib_qp *ibqp,
				struct ib_qp_init_attr *attr,
				struct ib_udata *udata)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(ibqp->device);
	struct madcm_rnic_qp *qp = to_madcm_rnic_qp(ibqp);
	struct ib_qp_cap *cap = &attr->cap;
	u32 qpn;
	int ret;

	/* no SRQ (for user QPs neither) */
	if (attr->qp_type != IB_QPT_RC || attr->create_flags || attr->srq)
		return -EOPNOTSUPP;
	if (!attr->send_cq || !attr->recv_cq)
		return -EINVAL;
	ret = madcm_rnic_check_cap(cap, udata);
	if (ret)
		return ret;
	if (udata) {
		/* a user ring has a slot at least; libsiw maps both */
		cap->max_send_wr = max(cap->max_send_wr, 1U);
		cap->max_recv_wr = max(cap->max_recv_wr, 1U);
		cap->max_inline_data = MADCM_RNIC_MAX_UINLINE;
	}
	/* ring sizes are powers of two, told back in @cap (as siw, rxe) */
	cap->max_send_wr = madcm_rnic_ring_size(cap->max_send_wr);
	cap->max_recv_wr = madcm_rnic_ring_size(cap->max_recv_wr);
	if (READ_ONCE(dev->dying))
		return -ENODEV;
	ret = madcm_rnic_user_charge(dev, udata, MADCM_RNIC_RES_QP, &qp->uctx);
	if (ret)
		return ret;
	if (atomic_inc_return(&dev->n_qp) > MADCM_RNIC_MAX_QP) {
		ret = -ENOMEM;
		goto err_count;
	}
	ret = -ENOMEM;
	qp->swqe = kvcalloc(cap->max_send_wr, sizeof(*qp->swqe),
			    madcm_rnic_gfp(qp->uctx));
	qp->rwqe = kvcalloc(cap->max_recv_wr, sizeof(*qp->rwqe),
			    madcm_rnic_gfp(qp->uctx));
	if (!qp->swqe || !qp->rwqe)
		goto err_free;

	qp->dev = dev;
	/* who may connect it (rnic/iw.c): the creating thread group */
	qp->owner = get_task_pid(current, PIDTYPE_TGID);
	INIT_WORK(&qp->ev_work, madcm_rnic_qp_ev_work);
	spin_lock_init(&qp->lock);
	refcount_set(&qp->iw_ref, 1);
	init_completion(&qp->iw_free);
	qp->state = IB_QPS_RESET;
	qp->sq.size = cap->max_send_wr;
	qp->sq.max_sge = cap->max_send_sge;
	qp->rq.size = cap->max_recv_wr;
	qp->rq.max_sge = cap->max_recv_sge;
	qp->sq_sig_all = attr->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->max_inline = cap->max_inline_data;
	madcm_rnic_qp_stream_init(qp);
	ret = madcm_rnic_qp_tx_create(qp);
	if (ret)
		goto err_tcp;

	/* Last: from here on iw_get_qp() finds it. */
	ret = xa_alloc_cyclic_irq(&dev->qps, &qpn, qp,
				  XA_LIMIT(1, MADCM_RNIC_ID_MAX),
				  &dev->next_qpn, GFP_KERNEL);
	if (ret < 0)
		goto err_tx;
	ibqp->qp_num = qpn;
	if (udata) {
		ret = madcm_rnic_uqp_create(qp, udata);
		if (ret)
			goto err_xa;
	}
	return 0;

err_xa:
	xa_erase_irq(&dev->qps, qpn);
	madcm_rnic_qp_put(qp);
	wait_for_completion(&qp->iw_free);
err_tx:
	madcm_rnic_qp_tx_destroy(qp);
err_tcp:
	madcm_rnic_qp_stream_destroy(qp);
err_free:
	put_pid(qp->owner);
	kvfree(qp->swqe);
	kvfree(qp->rwqe);
err_count:
	atomic_dec(&dev->n_qp);
	madcm_rnic_user_uncharge(dev, qp->uctx, MADCM_RNIC_RES_QP);
	return ret;
}

static bool madcm_rnic_connected(enum ib_qp_state state)
{
	return state == IB_QPS_RTS || state == IB_QPS_SQD;
}

/* The consumer's state changes (iWARP: IB_QPS_RTS and SQE are the RNIC's). */
static int madcm_rnic_check_transition(enum ib_qp_state cur,
				       enum ib_qp_state new)
{
	switch (new) {
	case IB_QPS_RESET:
	case IB_QPS_ERR:
		return 0;
	case IB_QPS_INIT:
		return cur == IB_QPS_RESET || cur == IB_QPS_INIT ? 0 : -EINVAL;
	case IB_QPS_RTR:
		return cur == IB_QPS_INIT || cur == IB_QPS_RTR ? 0 : -EINVAL;
	case IB_QPS_RTS:
		/* Only the CM's hand-off enters RTS (as irdma needs a cm_id). */
		return cur == IB_QPS_RTS ? 0 : -EINVAL;
	case IB_QPS_SQD:
		return madcm_rnic_connected(cur) ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

static int madcm_rnic_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
				int mask, struct ib_udata *udata)
{
	struct madcm_rnic_qp *qp = to_madcm_rnic_qp(ibqp);
	struct madcm_rnic_due due = {};
	enum ib_qp_state cur, new;
	bool disconnect = false, abort = false;
	unsigned long flags;
	int ret;

	if (mask & ~MADCM_RNIC_QP_ATTR_MASK)
		return -EOPNOTSUPP;
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~MADCM_RNIC_ACCESS))
		return -EOPNOTSUPP;
	if (((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	     attr->max_rd_atomic > MADCM_RNIC_MAX_ORD) ||
	    ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	     attr->max_dest_rd_atomic > MADCM_RNIC_MAX_IRD) ||
	    ((mask & IB_QP_PORT) && attr->port_num != 1))
		return -EINVAL;

	spin_lock_irqsave(&qp->lock, flags);
	cur = qp->state;
	new = mask & IB_QP_STATE ? attr->qp_state : cur;
	ret = -EINVAL;
	if ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != cur)
		goto out;
	ret = madcm_rnic_check_transition(cur, new);
	if (ret)
		goto out;
	/* read by rx without the lock */
	if (mask & IB_QP_ACCESS_FLAGS)
		WRITE_ONCE(qp->access, attr->qp_access_flags);
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->ord = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->ird = attr->max_dest_rd_atomic;
	if (new == cur)
		goto out;

	/* Leaving RTS or Closing other than for Closing ends the stream. */
	disconnect = madcm_rnic_connected(cur) && new != IB_QPS_RTS;
	abort = new != IB_QPS_SQD;
	switch (new) {
	case IB_QPS_RESET:
		/* Leaving the QP: its work requests go without completions. */
		qp->sq.head = qp->sq.tail;
		qp->rq.head = qp->rq.tail;
		madcm_rnic_qp_tx_reset(qp);
		qp->state = IB_QPS_RESET;
		break;
	case IB_QPS_ERR:
		madcm_rnic_qp_error_locked(qp, &due);
		break;
	default:
		qp->state = new;
		break;
	}
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
	if (disconnect)
		madcm_rnic_iw_qp_disconnect(qp, abort);
	return ret;
}

static int madcm_rnic_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			       int mask, struct ib_qp_init_attr *init)
{
	struct madcm_rnic_qp *qp = to_madcm_rnic_qp(ibqp);
	unsigned long flags;

	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	spin_lock_irqsave(&qp->lock, flags);
	attr->qp_state = qp->state;
	attr->qp_access_flags = qp->access;
	attr->max_rd_atomic = qp->ord;
	attr->max_dest_rd_atomic = qp->ird;
	spin_unlock_irqrestore(&qp->lock, flags);
	attr->cur_qp_state = attr->qp_state;
	attr->port_num = 1;
	attr->cap.max_send_wr = qp->sq.size;
	attr->cap.max_recv_wr = qp->rq.size;
	attr->cap.max_send_sge = qp->sq.max_sge;
	attr->cap.max_recv_sge = qp->rq.max_sge;
	attr->cap.max_inline_data = qp->max_inline;

	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->qp_type = IB_QPT_RC;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR :
					     IB_SIGNAL_REQ_WR;
	init->cap = attr->cap;
	return 0;
}

static int madcm_rnic_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct madcm_rnic_qp *qp = to_madcm_rnic_qp(ibqp);
	struct madcm_rnic_dev *dev = qp->dev;
	enum ib_qp_state cur;
	unsigned long flags;

	/*
	 * No completion follows a destroyed QP: what is queued goes away.
	 * A connected stream is reset.
	 */
	spin_lock_irqsave(&qp->lock, flags);
	cur = qp->state;
	qp->sq.head = qp->sq.tail;
	qp->rq.head = qp->rq.tail;
	/*
	 * The send side forgets its work too: the stream's end may still
	 * reach the QP (the CM's detach work, madcm_rnic_qp_set_error()),
	 * and nothing before the new head may run or complete again.
	 */
	madcm_rnic_qp_tx_reset(qp);
	qp->state = IB_QPS_ERR;
	/* a user QP's rings leave the data path (their memory goes later) */
	qp->usq = NULL;
	qp->urq = NULL;
	spin_unlock_irqrestore(&qp->lock, flags);
	if (madcm_rnic_connected(cur))
		madcm_rnic_iw_qp_disconnect(qp, true);

	/* iw_cm's references go when its cm_id is done with the QP. */
	madcm_rnic_qp_put(qp);
	wait_for_completion(&qp->iw_free);
	xa_erase_irq(&dev->qps, ibqp->qp_num);
	madcm_rnic_qp_stream_destroy(qp);
	madcm_rnic_qp_tx_destroy(qp);
	/* nothing completes or raises more: the handlers' work is done */
	madcm_rnic_qp_flush_handlers(qp);
	madcm_rnic_uqp_destroy(qp);
	put_pid(qp->owner);
	kvfree(qp->swqe);
	kvfree(qp->rwqe);
	atomic_dec(&dev->n_qp);
	madcm_rnic_user_uncharge(dev, qp->uctx, MADCM_RNIC_RES_QP);
	return 0;
}

/**
 * madcm_rnic_qp_get() - a QP by number, with an iw reference
 * @dev: the device
 * @qpn: the QP number
 *
 * Return: the QP, or NULL when there is none or it is being destroyed.
 * madcm_rnic_qp_put() gives the reference back.
 */
struct madcm_rnic_qp *madcm_rnic_qp_get(struct madcm_rnic_dev *dev, u32 qpn)
{
	struct madcm_rnic_qp *qp;
	unsigned long flags;

	xa_lock_irqsave(&dev->qps, flags);
	qp = xa_load(&dev->qps, qpn);
	if (qp && !refcount_inc_not_zero(&qp->iw_ref))
		qp = NULL;
	xa_unlock_irqrestore(&dev->qps, flags);
	return qp;
}

/**
 * madcm_rnic_qp_put() - give back a reference of madcm_rnic_qp_get()
 * @qp: the QP
 *
 * The last one lets a waiting destroy_qp go on.
 */
void madcm_rnic_qp_put(struct madcm_rnic_qp *qp)
{
	if (refcount_dec_and_test(&qp->iw_ref))
		complete(&qp->iw_free);
}

/**
 * madcm_rnic_qp_to_rts() - the CM handed the QP its stream
 * @qp: the QP, in INIT or RTR
 *
 * Enters RTS and runs what the consumer queued on the send queue.
 * Context: Any; does not sleep.
 * Return: 0, or -EINVAL from another state.
 */
int madcm_rnic_qp_to_rts(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_due due = {};
	unsigned long flags;
	int ret = -EINVAL;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state == IB_QPS_INIT || qp->state == IB_QPS_RTR) {
		qp->state = IB_QPS_RTS;
		madcm_rnic_qp_tx_run_locked(qp, &due);
		ret = 0;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
	return ret;
}

/*
 * The QP's stream failed or is over: ERROR from any state but RESET, and
 * every queued work request completes with IB_WC_WR_FLUSH_ERR. Any
 * context; does not sleep.
 */
void madcm_rnic_qp_set_error(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_due due = {};
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state != IB_QPS_RESET)
		madcm_rnic_qp_error_locked(qp, &due);
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
}

/**
 * madcm_rnic_dev_flush() - the device is going away: stop its QPs
 * @dev: the device
 *
 * Refuses new QPs, resets every connected stream and puts every QP in
 * ERROR, which completes each outstanding work request once with
 * IB_WC_WR_FLUSH_ERR. Work requests posted afterwards complete the same
 * way at once.
 * Context: Process context.
 */
void madcm_rnic_dev_flush(struct madcm_rnic_dev *dev)
{
	unsigned long index = 0;

	WRITE_ONCE(dev->dying, true);
	while (xa_find(&dev->qps, &index, ULONG_MAX, XA_PRESENT)) {
		struct madcm_rnic_qp *qp = madcm_rnic_qp_get(dev, index);

		if (qp) {
			struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

			madcm_rnic_modify_qp(&qp->ibqp, &attr, IB_QP_STATE,
					     NULL);
			madcm_rnic_qp_put(qp);
		}
		index++;
	}
}

/* ---- posting work requests ---- */

/* The octets a work request's gather list names (wider than a message). */
static u64 madcm_rnic_sge_sum(const struct ib_send_wr *wr)
{
	u64 len = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	return len;
}

/*
 * What post_send refuses outright (ib_post_send() fails, the work
 * request and those after it are not queued): too many SGEs, an opcode
 * an iWARP RNIC does not have, inline data over the QP's limit or on an
 * operation that has none.
 */
static int madcm_rnic_check_send_wr(const struct madcm_rnic_qp *qp,
				    const struct ib_send_wr *wr)
{
	if (wr->num_sge < 0 || wr->num_sge > qp->sq.max_sge)
		return -EINVAL;
	switch (wr->opcode) {
	case IB_WR_REG_MR:
	case IB_WR_LOCAL_INV:
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		if (wr->send_flags & IB_SEND_INLINE)
			return -EINVAL;
		return 0;
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_INV:
	case IB_WR_RDMA_WRITE:
		if ((wr->send_flags & IB_SEND_INLINE) &&
		    madcm_rnic_sge_sum(wr) > qp->max_inline)
			return -EINVAL;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static void madcm_rnic_copy_send_wr(struct madcm_rnic_swqe *wqe,
				    const struct ib_send_wr *wr)
{
	u64 len = madcm_rnic_sge_sum(wr);
	int i;

	memset(wqe, 0, offsetof(struct madcm_rnic_swqe, inline_data));
	wqe->wr_id = wr->wr_id;
	wqe->opcode = wr->opcode;
	wqe->send_flags = wr->send_flags;
	wqe->status = IB_WC_SUCCESS;
	/* over the largest message: LOC_LEN_ERR when it runs */
	wqe->len = len > U32_MAX ? U32_MAX : len;
	if (wr->send_flags & IB_SEND_INLINE) {
		u32 off = 0;

		/* kernel virtual addresses, copied now; no lkey */
		for (i = 0; i < wr->num_sge; i++) {
			memcpy(wqe->inline_data + off,
			       (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			off += wr->sg_list[i].length;
		}
	} else {
		wqe->num_sge = wr->num_sge;
		memcpy(wqe->sge, wr->sg_list,
		       wr->num_sge * sizeof(*wr->sg_list));
	}
	switch (wr->opcode) {
	case IB_WR_REG_MR:
		wqe->mr = to_madcm_rnic_mr(reg_wr(wr)->mr);
		wqe->key = reg_wr(wr)->key;
		wqe->access = reg_wr(wr)->access;
		break;
	case IB_WR_LOCAL_INV:
	case IB_WR_SEND_WITH_INV:
		wqe->inv_rkey = wr->ex.invalidate_rkey;
		break;
	case IB_WR_RDMA_READ_WITH_INV:
		/*
		 * The STag invalidated is the Read's Data Sink (RDMAC verbs,
		 * Read with Local Invalidate), its gather entry's: rdma_rw
		 * fills ex.invalidate_rkey before it moves the MR's key on.
		 */
		wqe->inv_rkey = wr->num_sge ? wr->sg_list[0].lkey :
					      wr->ex.invalidate_rkey;
		fallthrough;
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_READ:
		wqe->remote_addr = rdma_wr(wr)->remote_addr;
		wqe->rkey = rdma_wr(wr)->rkey;
		break;
	default:
		break;
	}
}

static int madcm_rnic_post_send(struct ib_qp *ibqp,
				const struct ib_send_wr *wr,
				const struct ib_send_wr **bad_wr)
{
	struct madcm_rnic_qp *qp = to_madcm_rnic_qp(ibqp);
	struct madcm_rnic_due due = {};
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&qp->lock, flags);
	switch (qp->state) {
	case IB_QPS_INIT:
	case IB_QPS_RTR:
	case IB_QPS_RTS:
	case IB_QPS_ERR:
		break;
	default:
		ret = -EINVAL;
		goto out;
	}
	if (qp->usq) {
		/*
		 * A user QP's doorbell (libsiw): no work request, the SQ ring
		 * holds them. Work requests from the kernel's command (their
		 * addresses are the process's) are refused.
		 */
		if (wr) {
			ret = -EINVAL;
			goto out;
		}
		if (qp->state == IB_QPS_ERR)
			madcm_rnic_flush_locked(qp, &due);
		/* the process writes its FPDUs to the socket itself */
		due.push = true;
	}
	for (; wr; wr = wr->next) {
		ret = madcm_rnic_check_send_wr(qp, wr);
		if (ret)
			break;
		if (qp->sq.tail - qp->sq.head == qp->sq.size) {
			ret = -ENOMEM;
			break;
		}
		madcm_rnic_copy_send_wr(&qp->swqe[qp->sq.tail % qp->sq.size],
					wr);
		qp->sq.tail++;
		if (qp->state == IB_QPS_ERR)
			madcm_rnic_flush_locked(qp, &due);
	}
	/* in RTS, what was queued runs (INIT/RTR: once the stream is in) */
	madcm_rnic_qp_tx_run_locked(qp, &due);
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
	if (ret)
		*bad_wr = wr;
	return ret;
}

static int madcm_rnic_post_recv(struct ib_qp *ibqp,
				const struct ib_recv_wr *wr,
				const struct ib_recv_wr **bad_wr)
{
	struct madcm_rnic_qp *qp = to_madcm_rnic_qp(ibqp);
	struct madcm_rnic_due due = {};
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&qp->lock, flags);
	/* a user QP's receives are in its RQ ring */
	if (qp->state == IB_QPS_RESET || qp->urq) {
		ret = -EINVAL;
		goto out;
	}
	for (; wr; wr = wr->next) {
		struct madcm_rnic_rwqe *wqe;

		if (wr->num_sge > qp->rq.max_sge) {
			ret = -EINVAL;
			break;
		}
		if (qp->rq.tail - qp->rq.head == qp->rq.size) {
			ret = -ENOMEM;
			break;
		}
		wqe = &qp->rwqe[qp->rq.tail % qp->rq.size];
		wqe->wr_id = wr->wr_id;
		wqe->num_sge = wr->num_sge;
		wqe->status = IB_WC_SUCCESS;
		memcpy(wqe->sge, wr->sg_list,
		       wr->num_sge * sizeof(*wr->sg_list));
		qp->rq.tail++;
		if (qp->state == IB_QPS_ERR)
			madcm_rnic_flush_locked(qp, &due);
	}
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
	if (ret)
		*bad_wr = wr;
	return ret;
}

const struct ib_device_ops madcm_rnic_verbs_ops = {
	.alloc_pd = madcm_rnic_alloc_pd,
	.create_cq = madcm_rnic_create_cq,
	.create_qp = madcm_rnic_create_qp,
	.dealloc_pd = madcm_rnic_dealloc_pd,
	.destroy_cq = madcm_rnic_destroy_cq,
	.destroy_qp = madcm_rnic_destroy_qp,
	.modify_qp = madcm_rnic_modify_qp,
	.poll_cq = madcm_rnic_poll_cq,
	.post_recv = madcm_rnic_post_recv,
	.post_send = madcm_rnic_post_send,
	.query_qp = madcm_rnic_query_qp,
	.req_notify_cq = madcm_rnic_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, madcm_rnic_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, madcm_rnic_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, madcm_rnic_qp, ibqp),
};
