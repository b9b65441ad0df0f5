/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Zero-copy transmit from registered memory: the send side gives TCP the
 * MR's own pages, and a work request whose payload went that way
 * completes only once TCP is done with those pages (every skb that
 * pointed into them freed: the bytes acknowledged, or copied where the
 * stack had to). A ULP may then reuse its buffer, as the verbs allow,
 * without changing a retransmission under its CRC.
 *
 * One ticket (&struct madcm_rnic_zc) per work request: the socket's
 * ubuf_info, which each skb holding its pages references
 * (msghdr.msg_ubuf, MSG_ZEROCOPY), as io_uring's and vhost-net's zero-copy
 * sends do. Its last reference may go in any context, after the QP is
 * gone; the QP's anchor (&struct madcm_rnic_zc_anchor) outlives the QP
 * for that, and takes the ticket to a work that completes the work
 * request under the QP's lock. Documentation/rnic_tcp.rst describes it.
 */
#ifndef _MADCM_RNIC_ZC_H
#define _MADCM_RNIC_ZC_H

#include <linux/bvec.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct madcm_rnic_qp;

/*
 * Payload pieces (one page each) one zero-copy FPDU may carry: a full
 * 9000-octet MTU's segment spans at most four pages; an FPDU that would
 * need more is cut to what they hold.
 */
#define MADCM_RNIC_ZC_PIECES	4

/**
 * struct madcm_rnic_zc_anchor - what a QP's tickets report to
 * @ref: one for the QP, one per ticket
 * @lock: guards @qp and @acked (IRQ-safe)
 * @qp: the QP; NULL once it is being destroyed
 * @acked: tickets whose last reference went, for @work
 * @work: completes their work requests (on madcm_rnic_wq)
 */
struct madcm_rnic_zc_anchor {
	struct kref ref;
	spinlock_t lock;	/* @qp, @acked */
	struct madcm_rnic_qp *qp;
	struct list_head acked;
	struct work_struct work;
};

/**
 * struct madcm_rnic_zc - a work request's zero-copy ticket
 * @ubuf: what TCP's skbs reference (its refcnt: the send side's while it
 *	builds, one per queued record, one per skb)
 * @anchor: the QP's anchor (a reference)
 * @list: on @anchor->acked
 * @sq_idx: the work request (free-running send queue index)
 */
struct madcm_rnic_zc {
	struct ubuf_info ubuf;
	struct madcm_rnic_zc_anchor *anchor;
	struct list_head list;
	u32 sq_idx;
};

/**
 * struct madcm_rnic_zc_fpdu - an FPDU whose payload stays in its pages
 * @head: ULPDU_Length and the DDP/RDMAP header
 * @head_len: its octets
 * @bv: the payload, a page reference per piece (the stream takes them
 *	over when it takes the FPDU)
 * @nbv: pieces in @bv
 * @tail: PAD and CRC
 * @tail_len: their octets
 * @len: the FPDU's octets
 * @zc: the work request's ticket
 */
struct madcm_rnic_zc_fpdu {
	u8 head[48];
	u32 head_len;
	struct bio_vec bv[MADCM_RNIC_ZC_PIECES];
	u32 nbv;
	u8 tail[8];
	u32 tail_len;
	u32 len;
	struct madcm_rnic_zc *zc;
};

int madcm_rnic_zc_create(struct madcm_rnic_qp *qp);
void madcm_rnic_zc_destroy(struct madcm_rnic_qp *qp);
struct madcm_rnic_zc *madcm_rnic_zc_new(struct madcm_rnic_qp *qp, u32 sq_idx);
void madcm_rnic_zc_put(struct madcm_rnic_zc *zc);
void madcm_rnic_zc_exit(void);

/* A reference for a queued record of the ticket's work request. */
static inline void madcm_rnic_zc_get(struct madcm_rnic_zc *zc)
{
	refcount_inc(&zc->ubuf.refcnt);
}

/* The page references an FPDU's pieces hold, given back. */
static inline void madcm_rnic_zc_fpdu_release(struct madcm_rnic_zc_fpdu *f)
{
	u32 i;

	for (i = 0; i < f->nbv; i++)
		put_page(f->bv[i].bv_page);
	f->nbv = 0;
}

#endif /* _MADCM_RNIC_ZC_H */
