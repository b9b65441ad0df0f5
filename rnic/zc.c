// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm's software RNIC: the tickets of zero-copy work requests
 * (rnic/zc.h).
 *
 * A ticket's references: the send side's while it builds the work
 * request's FPDUs (dropped when it moves on, madcm_rnic_qp_tx_zc_end()),
 * one per record queued to the stream (dropped when the record is
 * freed, after TCP took its pages), one per skb TCP made from them
 * (dropped by the stack when the skb is freed). The last one puts the
 * ticket on its anchor's list, from any context the stack frees skbs
 * in; the anchor's work then marks the work request sent, under the
 * QP's lock, and it completes in its turn (madcm_rnic_sq_retire()).
 *
 * The anchor outlives its QP: a socket's skbs may outlive the socket.
 * Module exit waits for every anchor to go (madcm_rnic_zc_exit()), so
 * that no skb calls into a module that is gone.
 */
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include "rnic/rnic.h"
#include "rnic/zc.h"

/* Anchors not yet freed, for module exit. */
static atomic_t madcm_rnic_zc_anchors = ATOMIC_INIT(0);

static void zc_anchor_free(struct kref *ref)
{
	struct madcm_rnic_zc_anchor *a =
		container_of(ref, struct madcm_rnic_zc_anchor, ref);

	kfree(a);
	if (atomic_dec_and_test(&madcm_rnic_zc_anchors))
		wake_up_var(&madcm_rnic_zc_anchors);
}

/*
 * A reference to the ticket goes (the ubuf_info's complete callback,
 * and madcm_rnic_zc_put()); the last one hands it to the anchor's work.
 * Any context but hard IRQ; must not take the QP's lock, which the
 * caller may hold.
 */
static void zc_complete(struct sk_buff *skb, struct ubuf_info *ubuf,
			bool zerocopy_success)
{
	struct madcm_rnic_zc *zc = container_of(ubuf, struct madcm_rnic_zc,
						ubuf);
	struct madcm_rnic_zc_anchor *a = zc->anchor;
	unsigned long flags;

	if (!refcount_dec_and_test(&ubuf->refcnt))
		return;
	spin_lock_irqsave(&a->lock, flags);
	list_add_tail(&zc->list, &a->acked);
	spin_unlock_irqrestore(&a->lock, flags);
	queue_work(madcm_rnic_wq, &a->work);
}

#ifdef MADCM_HAVE_UBUF_INFO_OPS
static const struct ubuf_info_ops madcm_rnic_zc_ops = {
	.complete = zc_complete,
};
#endif

static void zc_work(struct work_struct *work)
{
	struct madcm_rnic_zc_anchor *a =
		container_of(work, struct madcm_rnic_zc_anchor, work);
	struct madcm_rnic_zc *zc, *n;
	struct madcm_rnic_qp *qp;
	unsigned long flags;
	LIST_HEAD(acked);

	spin_lock_irqsave(&a->lock, flags);
	list_splice_init(&a->acked, &acked);
	qp = a->qp;
	spin_unlock_irqrestore(&a->lock, flags);
	/* madcm_rnic_zc_destroy() waits for this work before the QP goes */
	if (qp)
		madcm_rnic_qp_tx_zc_sent(qp, &acked);
	list_for_each_entry_safe(zc, n, &acked, list) {
		list_del(&zc->list);
		kfree(zc);
		/* the last may free @a, this work's own: allowed */
		kref_put(&a->ref, zc_anchor_free);
	}
}

/**
 * madcm_rnic_zc_create() - a new QP's anchor for its tickets
 * @qp: the QP being created
 *
 * Context: Process context.
 * Return: 0 or -ENOMEM.
 */
int madcm_rnic_zc_create(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_zc_anchor *a;

	a = kzalloc(sizeof(*a), madcm_rnic_gfp(qp->uctx));
	if (!a)
		return -ENOMEM;
	kref_init(&a->ref);
	spin_lock_init(&a->lock);
	INIT_LIST_HEAD(&a->acked);
	INIT_WORK(&a->work, zc_work);
	a->qp = qp;
	atomic_inc(&madcm_rnic_zc_anchors);
	qp->zc_anchor = a;
	return 0;
}

/**
 * madcm_rnic_zc_destroy() - the QP goes; its tickets may not
 * @qp: the QP being destroyed (its stream released, its send side reset)
 *
 * Tickets still referenced by skbs find no QP when they are done.
 * Context: Process context.
 */
void madcm_rnic_zc_destroy(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_zc_anchor *a = qp->zc_anchor;
	unsigned long flags;

	if (!a)
		return;
	spin_lock_irqsave(&a->lock, flags);
	a->qp = NULL;
	spin_unlock_irqrestore(&a->lock, flags);
	/* a work that saw the QP ends before the QP does */
	flush_work(&a->work);
	qp->zc_anchor = NULL;
	kref_put(&a->ref, zc_anchor_free);
}

/**
 * madcm_rnic_zc_new() - a ticket for a work request's zero-copy FPDUs
 * @qp: the QP (@qp->lock held)
 * @sq_idx: the work request's free-running send queue index
 *
 * The caller holds the one reference; madcm_rnic_zc_put() gives it back.
 * Return: the ticket, or NULL (no memory: the FPDUs are copied).
 */
struct madcm_rnic_zc *madcm_rnic_zc_new(struct madcm_rnic_qp *qp, u32 sq_idx)
{
	struct madcm_rnic_zc_anchor *a = qp->zc_anchor;
	struct madcm_rnic_zc *zc;

	if (!a)
		return NULL;
	zc = kzalloc(sizeof(*zc), GFP_ATOMIC | __GFP_NOWARN);
	if (!zc)
		return NULL;
#ifdef MADCM_HAVE_UBUF_INFO_OPS
	zc->ubuf.ops = &madcm_rnic_zc_ops;
#else
	zc->ubuf.callback = zc_complete;
#endif
	/*
	 * The pages are shared (a checksum over them is not to be trusted
	 * to stay); a forwarding device need not copy them (DONT_ORPHAN),
	 * a local receiver does (the stack's own rule).
	 */
	zc->ubuf.flags = SKBFL_ZEROCOPY_FRAG | SKBFL_DONT_ORPHAN;
	refcount_set(&zc->ubuf.refcnt, 1);
	kref_get(&a->ref);
	zc->anchor = a;
	zc->sq_idx = sq_idx;
	return zc;
}

/**
 * madcm_rnic_zc_put() - give a ticket reference back
 * @zc: the ticket
 *
 * Context: Any but hard IRQ; the QP's lock may be held.
 */
void madcm_rnic_zc_put(struct madcm_rnic_zc *zc)
{
	zc_complete(NULL, &zc->ubuf, true);
}

/**
 * madcm_rnic_zc_exit() - wait for every ticket the stack still holds
 *
 * Module exit, every device gone: the skbs of released sockets are
 * freed once sent or dropped.
 */
void madcm_rnic_zc_exit(void)
{
	wait_var_event(&madcm_rnic_zc_anchors,
		       !atomic_read(&madcm_rnic_zc_anchors));
}
