// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm's software RNIC: the send side of the data path.
 *
 * The send queue's work requests become RDMAP messages (RFC 5040), cut
 * into DDP segments (RFC 5041) of at most the MULPDU, each framed as one
 * MPA FPDU (RFC 5044: ULPDU_Length, PAD, CRC) and queued to the QP's
 * stream (rnic/stream.h) as one record. With rnic_tx_zcopy_min set (off
 * by default), a Send or RDMA Write of at least that many octets goes
 * zero-copy where the stream can take it (rnic/zc.h): its payload stays
 * in the MR's pages, which the stream holds (the CRC computed over
 * them), and the work request completes once the stream let them go.
 * Otherwise, on the host's TCP
 * (rnic/qp_sock.c), the FPDU is built in place in a record in a page,
 * the payload copied once from the MR and the CRC computed once over
 * that copy, and the socket takes the page by reference; a record
 * without a page (no page to be had, or a test transport) takes a copy
 * of what was built in @qp->tx_buf:
 *
 *  Send, Send with SE,          untagged, queue 0, MSN per message, MO
 *  with Invalidate (and SE)     per segment; L on the last
 *  RDMA Write                   tagged: the remote STag, TO per segment
 *  RDMA Read                    one Read Request per gather entry
 *                               (queue 1), each naming that entry as its
 *                               Data Sink; at most ORD outstanding
 *  Read Response                tagged, to the requester's Data Sink,
 *                               for each Read Request rx took (IRD)
 *  Terminate                    queue 2, then the stream closes
 *
 * Work requests complete in the order posted: a Send or Write once its
 * last FPDU is queued to TCP (a zero-copy one: and TCP let its pages
 * go, madcm_rnic_qp_tx_zc_sent()), a Read once the last segment of its last
 * response is placed (madcm_rnic_qp_read_done()); a successful one only
 * when signaled. A local error (an SGE outside its MR, a bad lkey, a
 * message over 2^31 octets) completes the work request with its status,
 * moves the QP to ERROR, which flushes the rest once, and ends the
 * stream with a Terminate (Local Catastrophic Error).
 *
 * IB_SEND_FENCE holds a work request until every RDMA Read before it has
 * completed. A full TCP send queue (-EAGAIN) holds the send side until
 * the stream's tx_room. The CM's RTR message (RFC 6581) is the first on
 * its queue: an initiator's MSNs start after it, and its zero-length
 * Read's response completes no work request.
 *
 * An MPA responder without RFC 6581's peer-to-peer model sends nothing
 * before the initiator's first FPDU (RFC 5044 7.1: the initiator may not
 * yet read FPDUs right behind its reply; siw's reads the reply and fails
 * the connection on any byte behind it). Such a connection has no RTR,
 * so a ULP whose server speaks first would wait for good: the hold ends
 * after rnic_responder_hold_ms (0: no hold), counted in tx_hold_expired.
 *
 * The initiator side of the same gap: siw's accept sends its MPA reply
 * before its QP takes the socket's receive callback, and drops the
 * wake-up of an FPDU arriving in between; the FPDU waits in its socket
 * until another segment comes, and a ULP that then waits for the server
 * stalls. So an initiator that had no FPDU from the peer
 * rnic_initiator_nudge_ms after the hand-off sends one zero-length RDMA
 * Write (RFC 6581's RTR form: placed nowhere, completing nothing),
 * counted in tx_nudge; it also ends a madcm responder's hold early.
 *
 * Locking: everything here runs under @qp->lock (irqsave); the stream
 * is called with it held (its locks nest inside); completion handlers
 * and closing the stream run after it is dropped (madcm_rnic_run_due()).
 */
#include <linux/highmem.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include "madcm_compat.h"
#include "rnic/ddp.h"
#include "rnic/iwarp.h"
#include "rnic/rnic.h"
#include "rnic/zc.h"

/*
 * How long an MPA responder without peer-to-peer holds its first FPDU
 * for the initiator's (RFC 5044 7.1); 0 sends at once.
 */
unsigned int madcm_rnic_responder_hold_ms = 250;
module_param_named(rnic_responder_hold_ms, madcm_rnic_responder_hold_ms,
		   uint, 0644);
MODULE_PARM_DESC(rnic_responder_hold_ms,
		 "ms an MPA responder without peer-to-peer waits for the initiator's first FPDU before it sends (RFC 5044 7.1; 0: no wait)");

/*
 * How long after the hand-off an MPA initiator that has had no FPDU from
 * the peer sends one zero-length RDMA Write; 0 never does.
 */
unsigned int madcm_rnic_initiator_nudge_ms = 100;
module_param_named(rnic_initiator_nudge_ms, madcm_rnic_initiator_nudge_ms,
		   uint, 0644);
MODULE_PARM_DESC(rnic_initiator_nudge_ms,
		 "ms after the hand-off an MPA initiator that had no FPDU from the peer sends one zero-length RDMA Write, for a peer that missed its first FPDU's wake-up (0: never)");

/*
 * The smallest Send or RDMA Write whose payload goes to TCP in the MR's
 * own pages (rnic/zc.h); 0: always copied. Off by default: each
 * zero-copy FPDU takes two of an skb's fragments (payload, then trailer
 * and next header), so TCP's skbs carry about 8 FPDUs instead of up to
 * 44, and on the links measured (veth, virtio-net under TCG) the extra
 * packets cost more than the copy saves (Documentation/performance.rst).
 */
unsigned int madcm_rnic_tx_zcopy_min;
module_param_named(rnic_tx_zcopy_min, madcm_rnic_tx_zcopy_min, uint, 0644);
MODULE_PARM_DESC(rnic_tx_zcopy_min,
		 "octets from which a Send or RDMA Write goes to TCP in the MR's own pages, completing once TCP is done with them (0, the default: always copy)");

/* An FPDU is built here: at most this long, whatever the MSS. */
#define MADCM_RNIC_TX_BUF_SIZE	(16 * 1024)

/* The largest message (the device's max_msg_sz). */
#define MADCM_RNIC_MSG_MAX	BIT(31)

/* What one step of the send side did. */
enum tx_step {
	TX_GO,		/* something was queued or changed: go on */
	TX_WAIT,	/* no TCP room, ORD, fence, no stream: wait */
};

static u8 tx_rdmap_ctrl(u8 opcode)
{
	return (RDMAP_VERSION << RDMAP_VERSION_SHIFT) |
	       (opcode & RDMAP_MASK_OPCODE);
}

static u8 tx_ddp_ctrl(bool tagged, bool last)
{
	return (tagged ? DDP_FLAG_TAGGED : 0) | (last ? DDP_FLAG_LAST : 0) |
	       DDP_VERSION;
}

/*
 * The most ULPDU octets one FPDU may carry: the FPDU (ULPDU_Length,
 * ULPDU, PAD, CRC) fills at most one TCP segment (RFC 5044 5.2), and the
 * build buffer.
 */
static u32 tx_mulpdu(struct madcm_rnic_qp *qp)
{
	return madcm_mpa_mulpdu(min(madcm_rnic_stream_max_record(&qp->stream),
				    qp->tx_buf_size));
}

/* Whether TCP takes an FPDU of @ulpdu_len now (before it is built). */
static bool tx_room(struct madcm_rnic_qp *qp, u32 ulpdu_len)
{
	return madcm_rnic_stream_send_room(&qp->stream) >=
	       madcm_mpa_fpdu_len(ulpdu_len);
}

/*
 * Where the FPDU of a ULPDU of @ulpdu_len is built: in place in a record
 * of the stream's queue when it has one (the host's TCP then takes
 * it by reference: the payload is copied once, from the MR, and the CRC
 * computed once, over that copy), else in @qp->tx_buf.
 */
static u8 *tx_fpdu_buf(struct madcm_rnic_qp *qp, u32 ulpdu_len)
{
	u8 *buf = madcm_rnic_stream_build_buf(&qp->stream,
					   madcm_mpa_fpdu_len(ulpdu_len));

	return buf ?: qp->tx_buf;
}

/* Frames the ULPDU built at @fpdu + 2 (tx_fpdu_buf()) and queues it. */
static int tx_queue(struct madcm_rnic_qp *qp, u8 *fpdu, u32 ulpdu_len)
{
	struct kvec vec;
	int len;

	len = madcm_mpa_frame(fpdu, fpdu == qp->tx_buf ? qp->tx_buf_size :
			      madcm_mpa_fpdu_len(ulpdu_len), ulpdu_len,
			      qp->tx_crc);
	if (len < 0)
		return len;
	if (fpdu != qp->tx_buf)
		return madcm_rnic_stream_send_built(&qp->stream, fpdu, len);
	vec.iov_base = fpdu;
	vec.iov_len = len;
	return madcm_rnic_stream_send(&qp->stream, &vec, 1, len);
}

/* A local MR check's errno as the work request's status. */
static enum ib_wc_status tx_mr_status(int err)
{
	return err == -EOVERFLOW ? IB_WC_LOC_LEN_ERR : IB_WC_LOC_PROT_ERR;
}

/*
 * A remote MR check's errno (our Data Source of a Read Response) as the
 * Terminate's error code (RFC 5040 4.8, Remote Protection Error).
 */
static u8 tx_mr_ecode(int err)
{
	switch (err) {
	case -ERANGE:
	case -EOVERFLOW:
		return MADCM_TERM_RDMAP_BASE_BOUNDS;
	case -EACCES:
		return MADCM_TERM_RDMAP_ACCESS;
	case -EPERM:
		return MADCM_TERM_RDMAP_STAG_NOT_ASSOC;
	default:
		return MADCM_TERM_RDMAP_INVALID_STAG;
	}
}

/*
 * Builds the Terminate message (RFC 5040 4.8) once; the send loop queues
 * it ahead of everything and closes the stream after it. @hdr is cut
 * when the FPDU would not fit one segment.
 */
static void tx_term_build(struct madcm_rnic_qp *qp, u8 layer, u8 etype,
			  u8 ecode, const void *hdr, u32 hdr_len)
{
	struct madcm_ddp_term_msg *m;
	u32 ulen;
	int len;

	lockdep_assert_held(&qp->lock);
	/* one per stream, and only on a stream */
	if (qp->term_done || qp->term_len || !qp->tx_live)
		return;
	if (!hdr)
		hdr_len = 0;
	hdr_len = min_t(u32, hdr_len, MADCM_RNIC_TERM_HDR_MAX);
	if (offsetof(struct madcm_ddp_term_msg, hdrs) + hdr_len >
	    tx_mulpdu(qp))
		hdr_len = 0;
	m = (struct madcm_ddp_term_msg *)(qp->term_fpdu + MPA_ULPDU_LEN_SIZE);
	ulen = madcm_ddp_term_build(m, qp->msn[DDP_QN_TERMINATE], layer, etype,
				    ecode, hdr, hdr_len);
	len = madcm_mpa_frame(qp->term_fpdu, sizeof(qp->term_fpdu), ulen,
			      qp->tx_crc);
	if (WARN_ON_ONCE(len <= 0)) {
		qp->term_done = true;
		return;
	}
	qp->msn[DDP_QN_TERMINATE]++;
	qp->term_len = len;
}

/* Queues the Terminate, then the stream closes (after what is queued). */
static enum tx_step tx_term_send(struct madcm_rnic_qp *qp,
				 struct madcm_rnic_due *due)
{
	struct kvec vec = {
		.iov_base = qp->term_fpdu,
		.iov_len = qp->term_len,
	};
	int ret;

	ret = madcm_rnic_stream_send(&qp->stream, &vec, 1, qp->term_len);
	if (ret == -EAGAIN)
		return TX_WAIT;
	if (!ret)
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_TERM_SENT);
	qp->term_len = 0;
	qp->term_done = true;
	due->close = true;
	return TX_WAIT;
}

/*
 * A work request failed here: it completes with @status (in its turn),
 * the QP enters ERROR and flushes the rest, and the peer is told.
 */
static void tx_fail(struct madcm_rnic_qp *qp, struct madcm_rnic_swqe *wqe,
		    enum ib_wc_status status, struct madcm_rnic_due *due)
{
	wqe->done = true;
	wqe->status = status;
	madcm_rnic_qp_local_error_locked(qp, due);
}

/**
 * madcm_rnic_qp_local_error_locked() - a local error ends the QP
 * @qp: the QP, @qp->lock held
 * @due: what is due once the lock is dropped
 *
 * The QP enters ERROR (madcm_rnic_qp_error_locked()) and the peer is
 * told with a Terminate (Local Catastrophic Error), once per stream.
 */
void madcm_rnic_qp_local_error_locked(struct madcm_rnic_qp *qp,
				      struct madcm_rnic_due *due)
{
	tx_term_build(qp, RDMAP_TERM_LAYER_RDMAP, MADCM_TERM_RDMAP_ETYPE_CATASTROPHIC,
		      MADCM_TERM_RDMAP_UNSPECIFIED, NULL, 0);
	madcm_rnic_qp_error_locked(qp, due);
}

/* Copies @n octets of @wqe's message from offset @off to @dst. */
static int tx_gather(struct madcm_rnic_qp *qp,
		     const struct madcm_rnic_swqe *wqe, u32 off, u8 *dst,
		     u32 n)
{
	u32 i;

	if (wqe->send_flags & IB_SEND_INLINE) {
		memcpy(dst, wqe->inline_data + off, n);
		return 0;
	}
	for (i = 0; i < wqe->num_sge && n; i++) {
		const struct ib_sge *sge = &wqe->sge[i];
		u32 take;
		int ret;

		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		take = min(sge->length - off, n);
		ret = madcm_rnic_mr_copy_from(qp, sge->lkey, sge->addr + off,
					      dst, take, 0);
		if (ret)
			return ret;
		dst += take;
		n -= take;
		off = 0;
	}
	return 0;
}

/*
 * The checks a work request passes before its first FPDU: its length,
 * and each gather entry inside a valid MR of the QP's PD (an RDMA Read's
 * entries are its Data Sinks: local write access).
 */
static enum ib_wc_status tx_check(struct madcm_rnic_qp *qp,
				  struct madcm_rnic_swqe *wqe)
{
	bool read = wqe->opcode == IB_WR_RDMA_READ ||
		    wqe->opcode == IB_WR_RDMA_READ_WITH_INV;
	u32 i;

	/* a user SQE refused at fetch (rnic/uverbs.c) fails in its turn */
	if (wqe->status != IB_WC_SUCCESS)
		return wqe->status;
	switch (wqe->opcode) {
	case IB_WR_REG_MR:
	case IB_WR_LOCAL_INV:
		return IB_WC_SUCCESS;
	default:
		break;
	}
	if (wqe->len > MADCM_RNIC_MSG_MAX)
		return IB_WC_LOC_LEN_ERR;
	if (read && !qp->tx_ord)
		return IB_WC_LOC_QP_OP_ERR;
	for (i = 0; i < wqe->num_sge; i++) {
		const struct ib_sge *sge = &wqe->sge[i];
		int ret;

		ret = madcm_rnic_mr_check(qp, sge->lkey, sge->addr, sge->length,
					  read ? IB_ACCESS_LOCAL_WRITE : 0);
		if (ret)
			return tx_mr_status(ret);
	}
	if (read)
		wqe->reads_left = wqe->num_sge ?: 1;
	return IB_WC_SUCCESS;
}

/**
 * madcm_rnic_qp_tx_zc_end() - the send side is done with its ticket
 * @qp: the QP, @qp->lock held (or not visible)
 *
 * The work request at @qp->sq_next queued its last FPDU, or is given up:
 * the send side's reference to its ticket goes.
 */
void madcm_rnic_qp_tx_zc_end(struct madcm_rnic_qp *qp)
{
	if (qp->tx_zc) {
		madcm_rnic_zc_put(qp->tx_zc);
		qp->tx_zc = NULL;
	}
}

/* The work request at @qp->sq_next is over (or, a Read, all sent). */
static void tx_next(struct madcm_rnic_qp *qp)
{
	madcm_rnic_qp_tx_zc_end(qp);
	qp->sq_next++;
	qp->tx_off = 0;
	qp->tx_started = false;
}

static u8 tx_send_opcode(const struct madcm_rnic_swqe *wqe)
{
	bool se = wqe->send_flags & IB_SEND_SOLICITED;

	if (wqe->opcode == IB_WR_SEND_WITH_INV)
		return se ? RDMAP_SEND_SE_INVALIDATE : RDMAP_SEND_INVALIDATE;
	return se ? RDMAP_SEND_SE : RDMAP_SEND;
}

/* The DDP/RDMAP header of a Send's or RDMA Write's segment, at @ulpdu. */
static void tx_data_hdr(struct madcm_rnic_qp *qp,
			const struct madcm_rnic_swqe *wqe, u8 *ulpdu,
			bool tagged, bool last)
{
	if (tagged) {
		struct ddp_tagged_hdr *h = (struct ddp_tagged_hdr *)ulpdu;

		h->ddp_ctrl = tx_ddp_ctrl(true, last);
		h->rdmap_ctrl = tx_rdmap_ctrl(RDMAP_RDMA_WRITE);
		h->stag = cpu_to_be32(wqe->rkey);
		h->to = cpu_to_be64(wqe->remote_addr + qp->tx_off);
	} else {
		struct ddp_untagged_hdr *h = (struct ddp_untagged_hdr *)ulpdu;

		h->ddp_ctrl = tx_ddp_ctrl(false, last);
		h->rdmap_ctrl = tx_rdmap_ctrl(tx_send_opcode(wqe));
		h->inval_stag = cpu_to_be32(wqe->opcode == IB_WR_SEND_WITH_INV ?
					    wqe->inv_rkey : 0);
		h->qn = cpu_to_be32(DDP_QN_SEND);
		h->msn = cpu_to_be32(qp->msn[DDP_QN_SEND]);
		h->mo = cpu_to_be32(qp->tx_off);
	}
}

/* Whether @wqe's payload goes to TCP in its MR's pages (rnic/zc.h). */
static bool tx_zc_wanted(struct madcm_rnic_qp *qp,
			 const struct madcm_rnic_swqe *wqe)
{
	u32 min = READ_ONCE(madcm_rnic_tx_zcopy_min);

	return min && wqe->len >= min &&
	       !(wqe->send_flags & IB_SEND_INLINE) &&
	       madcm_rnic_stream_can_zc(&qp->stream);
}

/*
 * The pages under @n octets of @wqe's message from @qp->tx_off, into
 * @f->bv (a reference each): returns the octets they cover from there
 * on (fewer when the pieces run out or a page cannot go by reference; 0:
 * copy this FPDU), or a negative errno (an SGE outside its MR).
 */
static int tx_zc_pages(struct madcm_rnic_qp *qp,
		       const struct madcm_rnic_swqe *wqe, u32 n,
		       struct madcm_rnic_zc_fpdu *f)
{
	u32 off = qp->tx_off, got = 0, i;

	f->nbv = 0;
	for (i = 0; i < wqe->num_sge && got < n; i++) {
		const struct ib_sge *sge = &wqe->sge[i];
		u32 take, nbv;
		int ret;

		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		if (f->nbv == MADCM_RNIC_ZC_PIECES)
			break;
		take = min(sge->length - off, n - got);
		ret = madcm_rnic_mr_get_pages(qp, sge->lkey, sge->addr + off,
					      take, f->bv + f->nbv,
					      MADCM_RNIC_ZC_PIECES - f->nbv,
					      &nbv);
		if (ret < 0) {
			madcm_rnic_zc_fpdu_release(f);
			return ret;
		}
		f->nbv += nbv;
		got += ret;
		if (ret < take)
			break;
		off = 0;
	}
	return got;
}

/*
 * ULPDU_Length before the header in @f->head, then PAD and CRC in
 * @f->tail (RFC 5044 4.1, 4.3, 4.4): the CRC over the header, the pages
 * and the PAD, as madcm_mpa_frame() computes it over one buffer.
 */
static void tx_zc_frame(struct madcm_rnic_qp *qp,
			struct madcm_rnic_zc_fpdu *f, u32 hlen, u32 n)
{
	u32 pad = madcm_mpa_pad(hlen + n), crc = ~0U, i;

	put_unaligned_be16(hlen + n, f->head);
	f->head_len = MPA_ULPDU_LEN_SIZE + hlen;
	memset(f->tail, 0, pad);
	if (qp->tx_crc) {
		crc = madcm_mpa_crc(crc, f->head, f->head_len);
		for (i = 0; i < f->nbv; i++) {
			u8 *va = kmap_local_page(f->bv[i].bv_page);

			crc = madcm_mpa_crc(crc, va + f->bv[i].bv_offset,
					    f->bv[i].bv_len);
			kunmap_local(va);
		}
		crc = ~madcm_mpa_crc(crc, f->tail, pad);
	} else {
		crc = 0;
	}
	put_unaligned_le32(crc, f->tail + pad);
	f->tail_len = pad + MPA_CRC_SIZE;
	f->len = f->head_len + n + f->tail_len;
}

/*
 * One segment of a Send or an RDMA Write whose payload stays in its MR's
 * pages. Returns the payload octets queued; 0 when this segment is to be
 * copied instead (no page to take, no ticket, the stream refused it);
 * -EAGAIN when the stream has no room; another negative errno: the work request failed (an SGE
 * outside its MR).
 */
static int tx_zc_seg(struct madcm_rnic_qp *qp, struct madcm_rnic_swqe *wqe,
		     u32 hlen, u32 n, bool tagged)
{
	struct madcm_rnic_zc_fpdu f;
	int got, ret;
	bool last;

	got = tx_zc_pages(qp, wqe, n, &f);
	if (got <= 0)
		return got;
	if (!qp->tx_zc)
		qp->tx_zc = madcm_rnic_zc_new(qp, qp->sq_next);
	if (!qp->tx_zc) {
		madcm_rnic_zc_fpdu_release(&f);
		return 0;
	}
	last = qp->tx_off + got == wqe->len;
	tx_data_hdr(qp, wqe, f.head + MPA_ULPDU_LEN_SIZE, tagged, last);
	tx_zc_frame(qp, &f, hlen, got);
	f.zc = qp->tx_zc;
	ret = madcm_rnic_stream_send_zc(&qp->stream, &f);
	if (ret) {
		madcm_rnic_zc_fpdu_release(&f);
		/* no room: wait; anything else: the copy path decides */
		return ret == -EAGAIN ? ret : 0;
	}
	wqe->zc_wait = true;
	madcm_rnic_count_add(qp->dev, MADCM_RNIC_CNT_TX_MR_ZC_BYTES, got);
	return got;
}

/* One segment of a Send or an RDMA Write. */
static enum tx_step tx_data_seg(struct madcm_rnic_qp *qp,
				struct madcm_rnic_swqe *wqe,
				struct madcm_rnic_due *due)
{
	bool tagged = wqe->opcode == IB_WR_RDMA_WRITE;
	u32 hlen = tagged ? sizeof(struct ddp_tagged_hdr) :
			    sizeof(struct ddp_untagged_hdr);
	u32 mulpdu = tx_mulpdu(qp), n;
	u8 *fpdu, *ulpdu;
	bool last;
	int ret;

	if (mulpdu <= hlen)
		return TX_WAIT;
	n = min(wqe->len - qp->tx_off, mulpdu - hlen);
	if (!tx_room(qp, hlen + n))
		return TX_WAIT;
	if (n && tx_zc_wanted(qp, wqe)) {
		ret = tx_zc_seg(qp, wqe, hlen, n, tagged);
		if (ret == -EAGAIN)
			return TX_WAIT;
		if (ret < 0) {
			tx_fail(qp, wqe, tx_mr_status(ret), due);
			return TX_GO;
		}
		if (ret) {
			n = ret;
			goto queued;
		}
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_TX_MR_ZC_COPIED);
	}
	last = qp->tx_off + n == wqe->len;
	fpdu = tx_fpdu_buf(qp, hlen + n);
	ulpdu = fpdu + MPA_ULPDU_LEN_SIZE;
	ret = tx_gather(qp, wqe, qp->tx_off, ulpdu + hlen, n);
	if (ret) {
		tx_fail(qp, wqe, tx_mr_status(ret), due);
		return TX_GO;
	}
	tx_data_hdr(qp, wqe, ulpdu, tagged, last);
	if (tx_queue(qp, fpdu, hlen + n))
		return TX_WAIT;
queued:
	qp->tx_off += n;
	if (qp->tx_off == wqe->len) {
		if (!tagged)
			qp->msn[DDP_QN_SEND]++;
		wqe->done = true;
		tx_next(qp);
	}
	return TX_GO;
}

/* The next Read Request of an RDMA Read: one per gather entry. */
static enum tx_step tx_read_req(struct madcm_rnic_qp *qp,
				struct madcm_rnic_swqe *wqe)
{
	u32 hlen = sizeof(struct ddp_untagged_hdr) +
		   sizeof(struct rdmap_read_req_hdr);
	struct rdmap_read_req_hdr *rr;
	struct ddp_untagged_hdr *h;
	struct madcm_rnic_oreq *o;
	u8 *fpdu;
	struct ib_sge none = {};
	const struct ib_sge *sge;
	u64 src_to = wqe->remote_addr;
	u32 i;

	if (qp->orq_tail - qp->orq_head >= qp->tx_ord)
		return TX_WAIT;
	if (tx_mulpdu(qp) < hlen || !tx_room(qp, hlen))
		return TX_WAIT;
	fpdu = tx_fpdu_buf(qp, hlen);
	h = (struct ddp_untagged_hdr *)(fpdu + MPA_ULPDU_LEN_SIZE);
	rr = (struct rdmap_read_req_hdr *)(h + 1);
	sge = wqe->num_sge ? &wqe->sge[qp->tx_off] : &none;
	for (i = 0; i < qp->tx_off; i++)
		src_to += wqe->sge[i].length;

	h->ddp_ctrl = tx_ddp_ctrl(false, true);
	h->rdmap_ctrl = tx_rdmap_ctrl(RDMAP_RDMA_READ_REQUEST);
	h->inval_stag = 0;
	h->qn = cpu_to_be32(DDP_QN_READ_REQUEST);
	h->msn = cpu_to_be32(qp->msn[DDP_QN_READ_REQUEST]);
	h->mo = 0;
	rr->sink_stag = cpu_to_be32(sge->lkey);
	rr->sink_to = cpu_to_be64(sge->addr);
	rr->read_size = cpu_to_be32(sge->length);
	rr->src_stag = cpu_to_be32(wqe->rkey);
	rr->src_to = cpu_to_be64(src_to);
	if (tx_queue(qp, fpdu, hlen))
		return TX_WAIT;

	qp->msn[DDP_QN_READ_REQUEST]++;
	o = &qp->orq[qp->orq_tail % MADCM_RNIC_ORQ_SIZE];
	o->wqe = qp->sq_next;
	o->sink_stag = sge->lkey;
	o->sink_to = sge->addr;
	o->len = sge->length;
	qp->orq_tail++;
	if (++qp->tx_off == (wqe->num_sge ?: 1))
		tx_next(qp);
	return TX_GO;
}

/* One step of the send queue: the work request at @qp->sq_next. */
static enum tx_step tx_sq_step(struct madcm_rnic_qp *qp,
			       struct madcm_rnic_due *due)
{
	struct madcm_rnic_swqe *wqe = &qp->swqe[qp->sq_next % qp->sq.size];
	enum ib_wc_status status;

	if (!qp->tx_started) {
		/*
		 * data waits for the stream (and, on a responder, for the
		 * initiator's first FPDU); local operations do not
		 */
		if ((!qp->tx_live || qp->tx_hold) &&
		    wqe->opcode != IB_WR_REG_MR &&
		    wqe->opcode != IB_WR_LOCAL_INV)
			return TX_WAIT;
		if ((wqe->send_flags & IB_SEND_FENCE) &&
		    qp->orq_head != qp->orq_tail)
			return TX_WAIT;
		wqe->zc_wait = false;
		status = tx_check(qp, wqe);
		if (status != IB_WC_SUCCESS) {
			tx_fail(qp, wqe, status, due);
			return TX_GO;
		}
		qp->tx_started = true;
	}
	switch (wqe->opcode) {
	case IB_WR_REG_MR:
	case IB_WR_LOCAL_INV:
		if (wqe->opcode == IB_WR_REG_MR)
			status = madcm_rnic_mr_fastreg(qp, wqe);
		else
			status = madcm_rnic_mr_invalidate(qp, wqe->inv_rkey);
		if (status != IB_WC_SUCCESS) {
			tx_fail(qp, wqe, status, due);
			return TX_GO;
		}
		wqe->done = true;
		tx_next(qp);
		return TX_GO;
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		return tx_read_req(qp, wqe);
	default:
		return tx_data_seg(qp, wqe, due);
	}
}

/* One segment of the oldest Read Response. */
static enum tx_step tx_read_resp(struct madcm_rnic_qp *qp,
				 struct madcm_rnic_due *due)
{
	struct madcm_rnic_rresp *r = &qp->irq[qp->irq_head % MADCM_RNIC_MAX_IRD];
	u32 hlen = sizeof(struct ddp_tagged_hdr);
	u32 mulpdu = tx_mulpdu(qp), n;
	struct ddp_tagged_hdr *h;
	u8 *fpdu, *ulpdu;
	bool last;
	int ret;

	if (mulpdu <= hlen)
		return TX_WAIT;
	n = min(r->len - r->off, mulpdu - hlen);
	last = r->off + n == r->len;
	if (!tx_room(qp, hlen + n))
		return TX_WAIT;
	fpdu = tx_fpdu_buf(qp, hlen + n);
	ulpdu = fpdu + MPA_ULPDU_LEN_SIZE;
	h = (struct ddp_tagged_hdr *)ulpdu;
	ret = madcm_rnic_mr_copy_from(qp, r->src_stag, r->src_to + r->off,
				      ulpdu + hlen, n, IB_ACCESS_REMOTE_READ);
	if (ret) {
		/* the source changed since rx checked the request */
		tx_term_build(qp, RDMAP_TERM_LAYER_RDMAP,
			      MADCM_TERM_RDMAP_ETYPE_PROTECTION, tx_mr_ecode(ret),
			      NULL, 0);
		madcm_rnic_qp_error_locked(qp, due);
		return TX_GO;
	}
	h->ddp_ctrl = tx_ddp_ctrl(true, last);
	h->rdmap_ctrl = tx_rdmap_ctrl(RDMAP_RDMA_READ_RESPONSE);
	h->stag = cpu_to_be32(r->sink_stag);
	h->to = cpu_to_be64(r->sink_to + r->off);
	if (tx_queue(qp, fpdu, hlen + n))
		return TX_WAIT;
	r->off += n;
	if (last)
		qp->irq_head++;
	return TX_GO;
}

/**
 * madcm_rnic_qp_tx_run_locked() - queue what the send side can
 * @qp: the QP, @qp->lock held
 * @due: what is due once the lock is dropped
 *
 * A Terminate first (then nothing more); in RTS, Read Responses before
 * the send queue; until TCP has no room, ORD or a fence holds the send
 * queue, or nothing is left. Completes what is over, in order.
 *
 * A user QP's SQEs are fetched from its ring first, and again while
 * completing made room and the ring holds more: libsiw rings the
 * doorbell only when the kernel took its previous SQE, so the kernel
 * must not leave one behind when it has room. Each round completes work
 * (bounded by TCP's room and the ORD) or fetches into free slots, so
 * the loop ends however the process fills the ring.
 */
void madcm_rnic_qp_tx_run_locked(struct madcm_rnic_qp *qp,
				 struct madcm_rnic_due *due)
{
	enum tx_step step;
	u32 head, tail;

	lockdep_assert_held(&qp->lock);
	do {
		head = qp->sq.head;
		tail = qp->sq.tail;
		if (qp->usq && qp->state != IB_QPS_ERR)
			madcm_rnic_usq_fetch_locked(qp);
		for (;;) {
			if (qp->term_len)
				step = tx_term_send(qp, due);
			else if (qp->state != IB_QPS_RTS)
				step = TX_WAIT;
			else if (qp->irq_head != qp->irq_tail)
				step = tx_read_resp(qp, due);
			else if (qp->sq_next != qp->sq.tail)
				step = tx_sq_step(qp, due);
			else
				step = TX_WAIT;
			if (step == TX_WAIT)
				break;
		}
		madcm_rnic_sq_retire(qp, due);
	} while (qp->usq && qp->state != IB_QPS_ERR &&
		 (qp->sq.head != head || qp->sq.tail != tail) &&
		 qp->sq.tail - qp->sq.head < qp->sq.size &&
		 madcm_rnic_usq_pending(qp));
	/* what was built in place leaves: nothing more follows it now */
	madcm_rnic_stream_flush(&qp->stream, due->push);
}

/**
 * madcm_rnic_qp_tx_run() - queue what the send side can
 * @qp: the QP (@qp->lock not held)
 *
 * Context: Any.
 */
void madcm_rnic_qp_tx_run(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_due due = {};
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	madcm_rnic_qp_tx_run_locked(qp, &due);
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
}

/**
 * madcm_rnic_qp_tx_room() - the stream has room again
 * @t: the QP's stream
 *
 * The stream's tx_room: the send side goes on where it waited.
 * Context: Any; no lock held.
 */
void madcm_rnic_qp_tx_room(struct madcm_rnic_stream *t)
{
	madcm_rnic_qp_tx_run(container_of(t, struct madcm_rnic_qp, stream));
}

/**
 * madcm_rnic_qp_tx_start() - the send side takes the stream
 * @t: the QP's stream, carried (the QP in RTS)
 * @ctx: the CM's hand-off context
 *
 * Takes the negotiated IRD, ORD and CRC, and the RTR message: on the
 * peer-to-peer initiator (the side that received none in @ctx) the
 * queue of the RTR's type starts at MSN 2, and an RTR Read is outstanding
 * (its zero-length response completes no work request). An MPA responder
 * without peer-to-peer holds its send queue until the initiator's first
 * FPDU arrived (RFC 5044 7.1: the initiator may not be ready for an FPDU
 * right after its reply; RFC 6581's RTR is for the responder that sends
 * first). Then queues what the consumer posted already. The stream's
 * tx_start: called before @ctx->rcvd is delivered (a responder answers the RTR Read with the IRD
 * set here).
 * Context: Any; the QP's lock not held.
 */
void madcm_rnic_qp_tx_start(struct madcm_rnic_stream *t,
			    const struct madcm_cm_offload_ctx *ctx)
{
	struct madcm_rnic_qp *qp = container_of(t, struct madcm_rnic_qp, stream);
	const struct madcm_cm_tcp_ctx *c = &ctx->tcp;
	struct madcm_rnic_due due = {};
	struct madcm_rnic_oreq *o;
	unsigned int hold_ms, nudge_ms;
	unsigned long flags;
	bool hold, nudge;

	spin_lock_irqsave(&qp->lock, flags);
	qp->msn[DDP_QN_SEND] = DDP_MSN_FIRST;
	qp->msn[DDP_QN_READ_REQUEST] = DDP_MSN_FIRST;
	qp->msn[DDP_QN_TERMINATE] = DDP_MSN_FIRST;
	qp->tx_ird = min_t(u32, c->ird, MADCM_RNIC_MAX_IRD);
	qp->tx_ord = min_t(u32, c->ord, MADCM_RNIC_MAX_ORD);
	qp->tx_crc = c->crc;
	if (!c->crc)
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_CONN_NO_CRC);
	qp->tx_live = true;
	hold_ms = READ_ONCE(madcm_rnic_responder_hold_ms);
	hold = c->responder && !c->peer_to_peer && hold_ms;
	WRITE_ONCE(qp->tx_hold, hold);
	if (hold) {
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_TX_HOLD);
		mod_timer(&qp->tx_hold_timer,
			  jiffies + msecs_to_jiffies(hold_ms));
	}
	nudge_ms = READ_ONCE(madcm_rnic_initiator_nudge_ms);
	nudge = !c->responder && nudge_ms;
	WRITE_ONCE(qp->tx_nudge, nudge);
	if (nudge)
		mod_timer(&qp->tx_hold_timer,
			  jiffies + msecs_to_jiffies(nudge_ms));
	if (c->peer_to_peer && !ctx->rcvd_len) {
		switch (c->rtr_type) {
		case MADCM_CM_RTR_SEND:
			qp->msn[DDP_QN_SEND]++;
			break;
		case MADCM_CM_RTR_READ:
			qp->msn[DDP_QN_READ_REQUEST]++;
			o = &qp->orq[qp->orq_tail % MADCM_RNIC_ORQ_SIZE];
			memset(o, 0, sizeof(*o));
			o->wqe = MADCM_RNIC_ORQ_RTR;
			qp->orq_tail++;
			break;
		default:
			break;
		}
	}
	madcm_rnic_qp_tx_run_locked(qp, &due);
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
}

/*
 * Ends a responder's hold, or calls off an initiator's nudge; true if
 * there was one.
 */
static bool tx_hold_end(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_due due = {};
	unsigned long flags;
	bool held, nudge;

	spin_lock_irqsave(&qp->lock, flags);
	held = qp->tx_hold;
	nudge = qp->tx_nudge;
	WRITE_ONCE(qp->tx_nudge, false);
	if (held) {
		WRITE_ONCE(qp->tx_hold, false);
		madcm_rnic_qp_tx_run_locked(qp, &due);
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
	return held || nudge;
}

/**
 * madcm_rnic_qp_tx_release() - the peer's first FPDU arrived
 * @qp: the QP (@qp->lock not held)
 *
 * rx validated an FPDU: a responder's held send queue may go, and an
 * initiator sends no nudge.
 * Context: Any.
 */
void madcm_rnic_qp_tx_release(struct madcm_rnic_qp *qp)
{
	if (tx_hold_end(qp))
		timer_delete(&qp->tx_hold_timer);
}

/*
 * The nudge: one zero-length RDMA Write (STag and TO 0: RFC 6581 uses
 * the same message as its RTR, which places nothing), between messages
 * only, and only while the stream is ours and TCP has room; otherwise
 * the FPDUs under way will do.
 */
static void tx_nudge_send(struct madcm_rnic_qp *qp)
{
	const u32 hlen = sizeof(struct ddp_tagged_hdr);
	struct ddp_tagged_hdr *h;
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	if (!qp->tx_nudge)
		goto out;
	WRITE_ONCE(qp->tx_nudge, false);
	if (qp->state != IB_QPS_RTS || !qp->tx_live || qp->term_len ||
	    qp->term_done || qp->tx_off || qp->irq_head != qp->irq_tail ||
	    !tx_room(qp, hlen))
		goto out;
	h = (struct ddp_tagged_hdr *)(qp->tx_buf + MPA_ULPDU_LEN_SIZE);
	memset(h, 0, hlen);
	h->ddp_ctrl = tx_ddp_ctrl(true, true);
	h->rdmap_ctrl = tx_rdmap_ctrl(RDMAP_RDMA_WRITE);
	if (!tx_queue(qp, qp->tx_buf, hlen))
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_TX_NUDGE);
out:
	spin_unlock_irqrestore(&qp->lock, flags);
}

/*
 * A responder's hold ran out: no FPDU came within rnic_responder_hold_ms,
 * and the consumer may speak first on a connection without RFC 6581's
 * RTR (a ULP whose server sends first); a hold without end would stall
 * it for good. Or an initiator had no FPDU within rnic_initiator_nudge_ms.
 */
static void tx_hold_expired(struct timer_list *timer)
{
	struct madcm_rnic_qp *qp = from_timer(qp, timer, tx_hold_timer);

	if (READ_ONCE(qp->tx_nudge)) {
		tx_nudge_send(qp);
		return;
	}
	if (tx_hold_end(qp))
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_TX_HOLD_EXPIRED);
}

/**
 * madcm_rnic_qp_read_req() - answer an inbound RDMA Read Request
 * @qp: the QP (@qp->lock not held)
 * @sink_stag: the requester's Data Sink STag
 * @sink_to: its Tagged Offset
 * @src_stag: our Data Source STag (rx checked it against the MR)
 * @src_to: its Tagged Offset
 * @len: the RDMA Read Message Size
 *
 * Queues the Read Response (RFC 5040 5.3: responses go in the order of
 * their requests), segmented to the MULPDU, ahead of the send queue.
 * Context: Any.
 * Return: 0; -ENOSPC when IRD Read Requests are being answered already
 * (rx terminates: the peer exceeded the IRD it was granted); -ENOTCONN
 * outside RTS.
 */
int madcm_rnic_qp_read_req(struct madcm_rnic_qp *qp, u32 sink_stag,
			   u64 sink_to, u32 src_stag, u64 src_to, u32 len)
{
	struct madcm_rnic_due due = {};
	struct madcm_rnic_rresp *r;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state != IB_QPS_RTS) {
		ret = -ENOTCONN;
		goto out;
	}
	if (qp->irq_tail - qp->irq_head >= qp->tx_ird) {
		ret = -ENOSPC;
		goto out;
	}
	r = &qp->irq[qp->irq_tail % MADCM_RNIC_MAX_IRD];
	r->sink_stag = sink_stag;
	r->sink_to = sink_to;
	r->src_stag = src_stag;
	r->src_to = src_to;
	r->len = len;
	r->off = 0;
	qp->irq_tail++;
	madcm_rnic_qp_tx_run_locked(qp, &due);
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
	return ret;
}

/**
 * madcm_rnic_qp_read_sink() - the Data Sink of the oldest outstanding Read
 * @qp: the QP (@qp->lock not held)
 * @stag: its STag
 * @to: its Tagged Offset
 * @len: its length (the RDMA Read Message Size)
 *
 * rx places a Read Response only there.
 * Context: Any.
 * Return: 0, or -ENOENT when no Read Request is outstanding.
 */
int madcm_rnic_qp_read_sink(struct madcm_rnic_qp *qp, u32 *stag, u64 *to,
			    u32 *len)
{
	const struct madcm_rnic_oreq *o;
	unsigned long flags;
	int ret = -ENOENT;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->orq_head != qp->orq_tail) {
		o = &qp->orq[qp->orq_head % MADCM_RNIC_ORQ_SIZE];
		*stag = o->sink_stag;
		*to = o->sink_to;
		*len = o->len;
		ret = 0;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	return ret;
}

/**
 * madcm_rnic_qp_read_done() - the oldest outstanding Read was answered
 * @qp: the QP (@qp->lock not held)
 *
 * The last segment of its Read Response was placed: the Read Request
 * leaves the ORQ (a fenced or ORD-held work request may go on); its
 * RDMA READ is over once all of its Read Requests are (RDMA READ with
 * Invalidate: then its STag is invalidated). The CM's RTR Read completes
 * nothing.
 * Context: Any.
 * Return: 0, or -EPROTO when no Read is outstanding (rx terminates).
 */
int madcm_rnic_qp_read_done(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_due due = {};
	struct madcm_rnic_swqe *wqe;
	enum ib_wc_status status;
	unsigned long flags;
	u32 idx;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->orq_head == qp->orq_tail) {
		spin_unlock_irqrestore(&qp->lock, flags);
		return -EPROTO;
	}
	idx = qp->orq[qp->orq_head % MADCM_RNIC_ORQ_SIZE].wqe;
	qp->orq_head++;
	if (idx != MADCM_RNIC_ORQ_RTR) {
		wqe = &qp->swqe[idx % qp->sq.size];
		if (!--wqe->reads_left) {
			status = IB_WC_SUCCESS;
			if (wqe->opcode == IB_WR_RDMA_READ_WITH_INV)
				status = madcm_rnic_mr_invalidate(qp,
								  wqe->inv_rkey);
			if (status != IB_WC_SUCCESS)
				tx_fail(qp, wqe, status, &due);
			else
				wqe->done = true;
		}
	}
	madcm_rnic_qp_tx_run_locked(qp, &due);
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
	return 0;
}

/*
 * The oldest outstanding Read's response was refused: its RDMA READ is
 * over with @status (it completes so, in its turn, not flushed).
 */
static void tx_read_failed(struct madcm_rnic_qp *qp, enum ib_wc_status status)
{
	struct madcm_rnic_swqe *wqe;
	u32 idx;

	lockdep_assert_held(&qp->lock);
	if (qp->orq_head == qp->orq_tail)
		return;
	idx = qp->orq[qp->orq_head % MADCM_RNIC_ORQ_SIZE].wqe;
	if (idx == MADCM_RNIC_ORQ_RTR)
		return;
	wqe = &qp->swqe[idx % qp->sq.size];
	wqe->done = true;
	wqe->status = status;
}

/**
 * madcm_rnic_qp_terminate() - end the stream with a Terminate message
 * @qp: the QP (@qp->lock not held)
 * @read_status: IB_WC_SUCCESS, or the error status the RDMA READ of the
 *	oldest outstanding Read Request completes with (rx refused its
 *	response) where it would otherwise be flushed
 * @layer: the Terminate's Layer (RFC 5040 4.8)
 * @etype: its Error Type
 * @ecode: its Error Code
 * @hdr: the offending FPDU from its ULPDU_Length field on (the DDP
 *	Segment Length, then the DDP and RDMAP headers), or NULL
 * @hdr_len: the octets at @hdr (at most MADCM_RNIC_TERM_HDR_MAX are sent)
 *
 * The QP enters ERROR (every outstanding work request completes once,
 * flushed), the Terminate is queued behind what TCP holds, and the stream
 * closes after it. Only the first Terminate of a stream is sent.
 * Context: Any.
 */
void madcm_rnic_qp_terminate(struct madcm_rnic_qp *qp,
			     enum ib_wc_status read_status, u8 layer, u8 etype,
			     u8 ecode, const void *hdr, u32 hdr_len)
{
	struct madcm_rnic_due due = {};
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state != IB_QPS_RESET) {
		if (read_status != IB_WC_SUCCESS)
			tx_read_failed(qp, read_status);
		tx_term_build(qp, layer, etype, ecode, hdr, hdr_len);
		madcm_rnic_qp_error_locked(qp, &due);
		madcm_rnic_qp_tx_run_locked(qp, &due);
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
}

/**
 * madcm_rnic_qp_tx_reset() - the send side forgets its stream
 * @qp: the QP, @qp->lock held (or not yet visible), its rings emptied
 */
void madcm_rnic_qp_tx_reset(struct madcm_rnic_qp *qp)
{
	madcm_rnic_qp_tx_zc_end(qp);
	qp->sq_next = qp->sq.tail;
	qp->tx_off = 0;
	qp->tx_started = false;
	qp->msn[DDP_QN_SEND] = DDP_MSN_FIRST;
	qp->msn[DDP_QN_READ_REQUEST] = DDP_MSN_FIRST;
	qp->msn[DDP_QN_TERMINATE] = DDP_MSN_FIRST;
	qp->orq_head = qp->orq_tail;
	qp->irq_head = qp->irq_tail;
	qp->term_len = 0;
	qp->term_done = false;
	qp->tx_live = false;
	WRITE_ONCE(qp->tx_hold, false);
	WRITE_ONCE(qp->tx_nudge, false);
	/* not _sync: @qp->lock may be held; the callback finds no hold */
	timer_delete(&qp->tx_hold_timer);
}

/**
 * madcm_rnic_qp_tx_create() - a new QP's send side
 * @qp: the QP being created (zeroed)
 *
 * Context: Process context.
 * Return: 0 or -ENOMEM.
 */
int madcm_rnic_qp_tx_create(struct madcm_rnic_qp *qp)
{
	qp->tx_buf = kmalloc(MADCM_RNIC_TX_BUF_SIZE, madcm_rnic_gfp(qp->uctx));
	if (!qp->tx_buf)
		return -ENOMEM;
	if (madcm_rnic_zc_create(qp)) {
		kfree(qp->tx_buf);
		qp->tx_buf = NULL;
		return -ENOMEM;
	}
	qp->tx_buf_size = MADCM_RNIC_TX_BUF_SIZE;
	timer_setup(&qp->tx_hold_timer, tx_hold_expired, 0);
	madcm_rnic_qp_tx_reset(qp);
	return 0;
}

/**
 * madcm_rnic_qp_tx_destroy() - a QP's send side goes
 * @qp: the QP being destroyed (its stream is over)
 */
void madcm_rnic_qp_tx_destroy(struct madcm_rnic_qp *qp)
{
	timer_delete_sync(&qp->tx_hold_timer);
	madcm_rnic_qp_tx_zc_end(qp);
	madcm_rnic_zc_destroy(qp);
	kfree(qp->tx_buf);
	qp->tx_buf = NULL;
}

/**
 * madcm_rnic_qp_tx_zc_sent() - TCP is done with work requests' pages
 * @qp: the QP (its lock not held)
 * @acked: tickets (&struct madcm_rnic_zc) whose last reference went
 *
 * Each ticket's work request, if the send queue still has it (a flush
 * completed it already otherwise), no longer waits for its pages; the
 * send queue's finished head completes.
 * Context: process context (the anchor's work).
 */
void madcm_rnic_qp_tx_zc_sent(struct madcm_rnic_qp *qp, struct list_head *acked)
{
	struct madcm_rnic_due due = {};
	struct madcm_rnic_zc *zc;
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	list_for_each_entry(zc, acked, list) {
		/* started, not yet completed: [sq.head, sq_next) */
		if (zc->sq_idx - qp->sq.head < qp->sq_next - qp->sq.head)
			qp->swqe[zc->sq_idx % qp->sq.size].zc_wait = false;
	}
	madcm_rnic_sq_retire(qp, &due);
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
}
