// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm's software RNIC: the receive side of the data path.
 *
 * The stream hands the QP its stream, in order, in pieces of any
 * size (madcm_rnic_qp_rx_data()). The MPA parser (rnic/ddp.c) cuts it
 * into FPDUs; each FPDU's DDP segment is checked, its payload placed as
 * it arrives, and what it asks for is done once its CRC has been
 * checked, at its end:
 *
 *  - RDMA Write (tagged): only on a QP with remote write (its access
 *    flags); placed into the MR its STag names, which must grant remote
 *    write, of the QP's PD, the range inside it;
 *  - Send (Send, with Solicited Event, with Invalidate): untagged queue
 *    0, placed into the receive WQE at the head of the receive queue,
 *    completed on the segment with L set; with Invalidate the STag it
 *    names becomes invalid first (RFC 5040 section 6.10);
 *  - RDMA Read Request: queue 1, only on a QP with remote read; the
 *    source range checked for remote read, then handed to the send side
 *    to answer (IRD enforced there);
 *  - RDMA Read Response (tagged): only into the sink of the oldest
 *    outstanding Read, segment after segment; its last segment completes
 *    that Read once every octet of it arrived, and fails it otherwise;
 *  - Terminate: queue 2; the QP goes to ERROR.
 *
 * Anything else, a CRC error included, is a Terminate to the peer with
 * the layer, type and code the RFCs give it, a device counter, and the
 * QP in ERROR; every octet after it is dropped. Payload is written only
 * through madcm_rnic_mr_copy_to(), which checks the whole range against
 * the MR under the MR table's lock first: nothing lands outside a
 * registered range, whatever arrives. A segment's payload may be placed
 * before its CRC is seen to be bad (it streams through); it lands only
 * where its header was allowed to write, and nothing completes.
 *
 * Context: rx_data runs with the stream's rx_lock held, BH off, one call
 * at a time per QP, and from the CM with its connection lock held; it
 * takes @qp->lock only to look at the receive queue and calls the send
 * side with no QP lock held. What it completes or raises reaches the
 * consumer's handlers later, from madcm_rnic_wq.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>
#include "rnic/rnic.h"

static struct madcm_rnic_qp *madcm_rnic_rx_qp(struct madcm_rnic_stream *t)
{
	return container_of(t, struct madcm_rnic_qp, stream);
}

/**
 * madcm_rnic_qp_rx_start() - get the receive side ready for a stream
 * @qp: the QP
 * @ctx: the hand-off context
 *
 * Called by the offload op before the first octet of the stream (the
 * CM's rcvd octets included) reaches madcm_rnic_qp_rx_data().
 *
 * Return: 0, or -EOPNOTSUPP when markers (RFC 5044 section 5) were
 * negotiated in either direction: the parser does not take them out of
 * what it receives, and the send side does not put them into what it
 * sends. The hand-off then fails.
 */
int madcm_rnic_qp_rx_start(struct madcm_rnic_qp *qp,
			   const struct madcm_cm_offload_ctx *ctx)
{
	struct madcm_rnic_rx *rx = &qp->rx;
	int q;

	if (ctx->tcp.rcv_markers || ctx->tcp.snd_markers)
		return -EOPNOTSUPP;
	memset(rx, 0, sizeof(*rx));
	madcm_mpa_rx_init(&rx->mpa, ctx->tcp.crc);
	for (q = 0; q < ARRAY_SIZE(rx->msn); q++)
		rx->msn[q] = DDP_MSN_FIRST;
	if (ctx->tcp.peer_to_peer && (ctx->tcp.rtr_type & MADCM_CM_RTR_SEND))
		rx->rtr_len = ctx->rcvd_len;
	return 0;
}

/* ---- Failing ---- */

/*
 * Ends the stream: the counter, then a Terminate with the current
 * segment's headers when @hdrs (their layout is known), which puts the
 * QP in ERROR, flushes it and closes the stream after the Terminate.
 * @read_status: IB_WC_SUCCESS, or the error the oldest outstanding RDMA
 * READ completes with (its response was refused) instead of a flush.
 */
static void madcm_rnic_rx_fail_read(struct madcm_rnic_qp *qp,
				    enum madcm_rnic_counter cnt, u8 layer,
				    u8 etype, u8 ecode, bool hdrs,
				    enum ib_wc_status read_status)
{
	struct madcm_rnic_rx *rx = &qp->rx;

	rx->dead = true;
	rx->place = false;
	rx->term.layer = layer;
	rx->term.etype = etype;
	rx->term.ecode = ecode;
	rx->termed = true;
	madcm_rnic_count(qp->dev, cnt);
	madcm_rnic_qp_terminate(qp, read_status, layer, etype, ecode,
				hdrs ? &rx->mpa.h : NULL,
				hdrs ? rx->hdr_got : 0);
}

static void madcm_rnic_rx_fail(struct madcm_rnic_qp *qp,
			       enum madcm_rnic_counter cnt, u8 layer,
			       u8 etype, u8 ecode, bool hdrs)
{
	madcm_rnic_rx_fail_read(qp, cnt, layer, etype, ecode, hdrs,
				IB_WC_SUCCESS);
}

/* The receive WQE of the Send under way ends with an error of its own. */
static void madcm_rnic_rx_fail_rwqe(struct madcm_rnic_qp *qp,
				    enum ib_wc_status status)
{
	struct madcm_rnic_rx *rx = &qp->rx;

	if (rx->msg_open && !rx->msg_rtr)
		madcm_rnic_rq_complete_head(qp, rx->rq_head, status,
					    rx->msg_len, false, 0);
	rx->msg_open = false;
}

/*
 * A tagged buffer the peer named failed madcm_rnic_mr_*(): RFC 5041
 * 7.2's tagged buffer errors; rights are RDMAP's (RFC 5040 4.8).
 */
static void madcm_rnic_rx_fail_tagged(struct madcm_rnic_qp *qp, int err)
{
	u8 ecode;

	switch (err) {
	case -EACCES:
		madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_PROT_ERR,
				   RDMAP_TERM_LAYER_RDMAP,
				   MADCM_TERM_RDMAP_ETYPE_PROTECTION,
				   MADCM_TERM_RDMAP_ACCESS, true);
		return;
	case -EPERM:
		ecode = MADCM_TERM_DDP_T_STAG_NOT_ASSOC;
		break;
	case -ERANGE:
		ecode = MADCM_TERM_DDP_T_BASE_BOUNDS;
		break;
	case -EOVERFLOW:
		ecode = MADCM_TERM_DDP_T_TO_WRAP;
		break;
	default:
		ecode = MADCM_TERM_DDP_T_INVALID_STAG;
		break;
	}
	madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_PROT_ERR, RDMAP_TERM_LAYER_DDP,
			   MADCM_TERM_DDP_ETYPE_TAGGED, ecode, true);
}

/* A Read Request's source failed madcm_rnic_mr_check(): RFC 5040 4.8. */
static void madcm_rnic_rx_fail_source(struct madcm_rnic_qp *qp, int err)
{
	u8 ecode;

	switch (err) {
	case -EACCES:
		ecode = MADCM_TERM_RDMAP_ACCESS;
		break;
	case -EPERM:
		ecode = MADCM_TERM_RDMAP_STAG_NOT_ASSOC;
		break;
	case -ERANGE:
		ecode = MADCM_TERM_RDMAP_BASE_BOUNDS;
		break;
	case -EOVERFLOW:
		ecode = MADCM_TERM_RDMAP_TO_WRAP;
		break;
	default:
		ecode = MADCM_TERM_RDMAP_INVALID_STAG;
		break;
	}
	madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_PROT_ERR,
			   RDMAP_TERM_LAYER_RDMAP,
			   MADCM_TERM_RDMAP_ETYPE_PROTECTION, ecode, true);
}

static void madcm_rnic_rx_fail_untagged(struct madcm_rnic_qp *qp,
					enum madcm_rnic_counter cnt, u8 ecode)
{
	madcm_rnic_rx_fail(qp, cnt, RDMAP_TERM_LAYER_DDP,
			   MADCM_TERM_DDP_ETYPE_UNTAGGED, ecode, true);
}

/* A header refused by madcm_ddp_parse(): are its fields where we think? */
static bool madcm_rnic_rx_layout_known(const struct madcm_term_code *e)
{
	if (e->layer == RDMAP_TERM_LAYER_DDP)
		return e->ecode != MADCM_TERM_DDP_T_VERSION &&
		       e->ecode != MADCM_TERM_DDP_U_VERSION;
	return e->ecode != MADCM_TERM_RDMAP_VERSION &&
	       e->ecode != MADCM_TERM_RDMAP_OPCODE &&
	       e->ecode != MADCM_TERM_RDMAP_UNSPECIFIED;
}

/* ---- Segment headers ---- */

/* The first segment of a Send: take the receive WQE at the ring's head. */
static bool madcm_rnic_rx_open_msg(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_rx *rx = &qp->rx;
	unsigned long flags;
	bool have = false;
	u32 i;

	spin_lock_irqsave(&qp->lock, flags);
	/* a user QP's receives are taken from its ring when needed */
	if (qp->urq && qp->state != IB_QPS_ERR && qp->rq.head == qp->rq.tail)
		madcm_rnic_urq_fetch_locked(qp);
	if (qp->state != IB_QPS_ERR && qp->rq.head != qp->rq.tail) {
		rx->rq_head = qp->rq.head;
		rx->rwqe = qp->rwqe[qp->rq.head % qp->rq.size];
		have = true;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	if (!have)
		return false;
	rx->rwqe.num_sge = min_t(u32, rx->rwqe.num_sge, MADCM_RNIC_MAX_SGE);
	rx->rwqe_len = 0;
	for (i = 0; i < rx->rwqe.num_sge; i++)
		rx->rwqe_len += rx->rwqe.sge[i].length;
	return true;
}

static void madcm_rnic_rx_hdr_send(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_rx *rx = &qp->rx;
	const struct madcm_ddp_seg *seg = &rx->seg;

	if (seg->msn != rx->msn[DDP_QN_SEND]) {
		madcm_rnic_rx_fail_untagged(qp, MADCM_RNIC_CNT_RX_HDR_ERR,
					    MADCM_TERM_DDP_U_MSN_RANGE);
		return;
	}
	if (!rx->msg_open) {
		if (seg->mo) {
			madcm_rnic_rx_fail_untagged(qp,
						    MADCM_RNIC_CNT_RX_HDR_ERR,
						    MADCM_TERM_DDP_U_INVALID_MO);
			return;
		}
		rx->msg_len = 0;
		/* RFC 6581: the RTR Send consumes no receive buffer. */
		rx->msg_rtr = rx->fpdu_pos < rx->rtr_len && seg->last &&
			      !seg->pay_len && seg->opcode == RDMAP_SEND;
		if (!rx->msg_rtr && !madcm_rnic_rx_open_msg(qp)) {
			madcm_rnic_rx_fail_untagged(qp,
						    MADCM_RNIC_CNT_RX_RQ_ERR,
						    MADCM_TERM_DDP_U_MSN_NO_BUFFER);
			return;
		}
		if (rx->msg_rtr)
			rx->rwqe_len = 0;
		rx->msg_open = true;
		if (!rx->msg_rtr && rx->rwqe.status != IB_WC_SUCCESS) {
			/* a user RQE refused at fetch: a local error */
			madcm_rnic_rx_fail_rwqe(qp, rx->rwqe.status);
			madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_RQ_ERR,
					   RDMAP_TERM_LAYER_RDMAP,
					   MADCM_TERM_RDMAP_ETYPE_CATASTROPHIC,
					   0, false);
			return;
		}
	} else if (seg->mo != rx->msg_len) {
		madcm_rnic_rx_fail_untagged(qp, MADCM_RNIC_CNT_RX_HDR_ERR,
					    MADCM_TERM_DDP_U_INVALID_MO);
		return;
	}
	if ((u64)rx->msg_len + seg->pay_len > rx->rwqe_len) {
		madcm_rnic_rx_fail_rwqe(qp, IB_WC_LOC_LEN_ERR);
		madcm_rnic_rx_fail_untagged(qp, MADCM_RNIC_CNT_RX_RQ_ERR,
					    MADCM_TERM_DDP_U_TOO_LONG);
		return;
	}
	rx->place = true;
}

/*
 * The QP's own rights (IB_QP_ACCESS_FLAGS) come before any MR's: a peer
 * reaches memory through a QP only as far as the QP allows it, as an IB
 * responder checks its QP's access flags first. A zero-length Write or
 * Read Request touches no memory (RFC 6581 sends them as its RTR, and
 * an initiator's nudge is one): it passes.
 */
static bool madcm_rnic_rx_qp_grants(struct madcm_rnic_qp *qp, int right,
				    u32 len)
{
	if (!len || (READ_ONCE(qp->access) & right))
		return true;
	madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_PROT_ERR,
			   RDMAP_TERM_LAYER_RDMAP,
			   MADCM_TERM_RDMAP_ETYPE_PROTECTION,
			   MADCM_TERM_RDMAP_ACCESS, true);
	return false;
}

static void madcm_rnic_rx_hdr_write(struct madcm_rnic_qp *qp)
{
	const struct madcm_ddp_seg *seg = &qp->rx.seg;
	int err;

	if (!madcm_rnic_rx_qp_grants(qp, IB_ACCESS_REMOTE_WRITE, seg->pay_len))
		return;
	err = madcm_rnic_mr_check(qp, seg->stag, seg->to, seg->pay_len,
				  IB_ACCESS_REMOTE_WRITE);
	if (err) {
		madcm_rnic_rx_fail_tagged(qp, err);
		return;
	}
	qp->rx.place = true;
}

/*
 * A Read Response that does not bring its Read's bytes in order, each
 * once: the Read completes with IB_WC_BAD_RESP_ERR, not as a success
 * nor as a flush, and the stream ends as for a segment outside its sink
 * (RFC 5041 7.2 has no closer code; siw sends the same).
 */
static void madcm_rnic_rx_fail_rresp(struct madcm_rnic_qp *qp)
{
	madcm_rnic_rx_fail_read(qp, MADCM_RNIC_CNT_RX_PROT_ERR,
				RDMAP_TERM_LAYER_DDP,
				MADCM_TERM_DDP_ETYPE_TAGGED,
				MADCM_TERM_DDP_T_BASE_BOUNDS, true,
				IB_WC_BAD_RESP_ERR);
}

/*
 * A Read Response writes only into the sink the oldest outstanding Read
 * named: same STag, inside its range. Its segments come in order (RFC
 * 5040 5.3; one stream): each starts where the one before ended, and the
 * last ends where the sink does; a short response (the last segment
 * before every octet came) or one with a hole fails the Read.
 */
static void madcm_rnic_rx_hdr_rresp(struct madcm_rnic_qp *qp)
{
	const struct madcm_ddp_seg *seg = &qp->rx.seg;
	u32 off = qp->rx.rresp_off;
	u32 stag, len;
	u64 to;
	int err;

	if (madcm_rnic_qp_read_sink(qp, &stag, &to, &len)) {
		madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_HDR_ERR,
				   RDMAP_TERM_LAYER_RDMAP,
				   MADCM_TERM_RDMAP_ETYPE_OPERATION,
				   MADCM_TERM_RDMAP_OPCODE, true);
		return;
	}
	if (seg->pay_len) {
		if (seg->stag != stag) {
			madcm_rnic_rx_fail_tagged(qp, -ENOENT);
			return;
		}
		if (seg->to < to || seg->to - to > len ||
		    seg->pay_len > len - (seg->to - to)) {
			madcm_rnic_rx_fail_tagged(qp, -ERANGE);
			return;
		}
		if (seg->to - to != off) {
			madcm_rnic_rx_fail_rresp(qp);
			return;
		}
	}
	if (seg->last && (u64)off + seg->pay_len != len) {
		madcm_rnic_rx_fail_rresp(qp);
		return;
	}
	err = madcm_rnic_mr_check(qp, seg->stag, seg->to, seg->pay_len,
				  IB_ACCESS_LOCAL_WRITE);
	if (err) {
		madcm_rnic_rx_fail_tagged(qp, err);
		return;
	}
	qp->rx.place = true;
}

static void madcm_rnic_rx_hdr_rreq(struct madcm_rnic_qp *qp)
{
	const struct madcm_ddp_seg *seg = &qp->rx.seg;
	int err;

	if (seg->msn != qp->rx.msn[DDP_QN_READ_REQUEST]) {
		madcm_rnic_rx_fail_untagged(qp, MADCM_RNIC_CNT_RX_HDR_ERR,
					    MADCM_TERM_DDP_U_MSN_RANGE);
		return;
	}
	if (!madcm_rnic_rx_qp_grants(qp, IB_ACCESS_REMOTE_READ,
				     seg->read_size))
		return;
	if (seg->sink_to > U64_MAX - seg->read_size) {
		madcm_rnic_rx_fail_source(qp, -EOVERFLOW);
		return;
	}
	err = madcm_rnic_mr_check(qp, seg->src_stag, seg->src_to,
				  seg->read_size, IB_ACCESS_REMOTE_READ);
	if (err) {
		madcm_rnic_rx_fail_source(qp, err);
		return;
	}
	qp->rx.place = true;
}

static void madcm_rnic_rx_hdr(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_rx *rx = &qp->rx;
	struct madcm_term_code e;

	rx->hdr_got = rx->mpa.got;
	rx->place = false;
	if (madcm_ddp_parse(&rx->mpa.h, rx->hdr_got, &rx->seg, &e)) {
		madcm_rnic_rx_fail_rwqe(qp, IB_WC_REM_OP_ERR);
		madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_HDR_ERR, e.layer,
				   e.etype, e.ecode,
				   madcm_rnic_rx_layout_known(&e));
		return;
	}
	switch (rx->seg.opcode) {
	case RDMAP_RDMA_WRITE:
		madcm_rnic_rx_hdr_write(qp);
		break;
	case RDMAP_RDMA_READ_RESPONSE:
		madcm_rnic_rx_hdr_rresp(qp);
		break;
	case RDMAP_RDMA_READ_REQUEST:
		madcm_rnic_rx_hdr_rreq(qp);
		break;
	case RDMAP_TERMINATE:
		rx->place = true;
		break;
	default:
		madcm_rnic_rx_hdr_send(qp);
		break;
	}
}

/* ---- Payload ---- */

/* A piece of a Send at message offset @mo, into the receive WQE's SGEs. */
static int madcm_rnic_rx_place_send(struct madcm_rnic_qp *qp, u64 mo,
				    const u8 *data, u32 len)
{
	struct madcm_rnic_rx *rx = &qp->rx;
	const struct ib_sge *sge;
	u32 i, n;
	int err;

	for (i = 0; i < rx->rwqe.num_sge && len; i++) {
		sge = &rx->rwqe.sge[i];
		if (mo >= sge->length) {
			mo -= sge->length;
			continue;
		}
		n = min_t(u64, len, sge->length - mo);
		err = madcm_rnic_mr_copy_to(qp, sge->lkey, sge->addr + mo, data,
					    n, IB_ACCESS_LOCAL_WRITE);
		if (err)
			return err;
		data += n;
		len -= n;
		mo = 0;
	}
	return len ? -ERANGE : 0;
}

/*
 * Place a Send's octets into its receive WQE, fenced by the QP's state:
 * under the QP's lock, and only while that WQE is still the head of the
 * receive queue, not completed. A flush (the QP moved to ERROR by its
 * consumer, on another CPU, between two FPDUs of the Send) completes it
 * and gives its buffer back to the consumer; not one octet may land there
 * afterwards. Return 0, -ESHUTDOWN when the WQE is gone (nothing placed),
 * or madcm_rnic_rx_place_send()'s error.
 */
static int madcm_rnic_rx_place_send_fenced(struct madcm_rnic_qp *qp, u64 mo,
					   const u8 *data, u32 len)
{
	struct madcm_rnic_rx *rx = &qp->rx;
	unsigned long flags;
	int err = -ESHUTDOWN;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state != IB_QPS_ERR && qp->rq.head == rx->rq_head &&
	    qp->rq.head != qp->rq.tail)
		err = madcm_rnic_rx_place_send(qp, mo, data, len);
	spin_unlock_irqrestore(&qp->lock, flags);
	return err;
}

static void madcm_rnic_rx_data(struct madcm_rnic_qp *qp,
			       const struct madcm_mpa_rx_out *out)
{
	struct madcm_rnic_rx *rx = &qp->rx;
	const struct madcm_ddp_seg *seg = &rx->seg;
	int err;

	if (!rx->place)
		return;
	/* ERROR reached meanwhile: nothing more is placed (and flushed). */
	if (READ_ONCE(qp->state) == IB_QPS_ERR) {
		rx->place = false;
		rx->dead = true;
		return;
	}
	switch (seg->opcode) {
	case RDMAP_RDMA_WRITE:
		err = madcm_rnic_mr_copy_to(qp, seg->stag, seg->to + out->off,
					    out->data, out->len,
					    IB_ACCESS_REMOTE_WRITE);
		if (err)
			madcm_rnic_rx_fail_tagged(qp, err);
		break;
	case RDMAP_RDMA_READ_RESPONSE:
		err = madcm_rnic_mr_copy_to(qp, seg->stag, seg->to + out->off,
					    out->data, out->len,
					    IB_ACCESS_LOCAL_WRITE);
		if (err)
			madcm_rnic_rx_fail_tagged(qp, err);
		break;
	case RDMAP_SEND:
	case RDMAP_SEND_SE:
	case RDMAP_SEND_INVALIDATE:
	case RDMAP_SEND_SE_INVALIDATE:
		err = madcm_rnic_rx_place_send_fenced(qp,
						      (u64)seg->mo + out->off,
						      out->data, out->len);
		if (err == -ESHUTDOWN) {
			/* Flushed under way: the QP is in ERROR already. */
			rx->place = false;
			rx->dead = true;
		} else if (err) {
			/* Our own receive buffer failed: a local error. */
			madcm_rnic_rx_fail_rwqe(qp, IB_WC_LOC_PROT_ERR);
			madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_RQ_ERR,
					   RDMAP_TERM_LAYER_RDMAP,
					   MADCM_TERM_RDMAP_ETYPE_CATASTROPHIC,
					   0, false);
		}
		break;
	default:
		/* The terminated headers a Terminate carries: not used. */
		break;
	}
}

/* ---- The end of a segment ---- */

static void madcm_rnic_rx_end_send(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_rx *rx = &qp->rx;
	const struct madcm_ddp_seg *seg = &rx->seg;
	bool inv = seg->opcode == RDMAP_SEND_INVALIDATE ||
		   seg->opcode == RDMAP_SEND_SE_INVALIDATE;
	bool se = seg->opcode == RDMAP_SEND_SE ||
		  seg->opcode == RDMAP_SEND_SE_INVALIDATE;

	rx->msg_len += seg->pay_len;
	if (!seg->last)
		return;
	rx->msn[DDP_QN_SEND]++;
	rx->msg_open = false;
	if (rx->msg_rtr)
		return;
	if (inv && madcm_rnic_mr_remote_invalidate(qp, seg->inval_stag)) {
		rx->msg_open = true;
		madcm_rnic_rx_fail_rwqe(qp, IB_WC_REM_INV_REQ_ERR);
		madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_PROT_ERR,
				   RDMAP_TERM_LAYER_RDMAP,
				   MADCM_TERM_RDMAP_ETYPE_PROTECTION,
				   MADCM_TERM_RDMAP_CANNOT_INVALIDATE, true);
		return;
	}
	madcm_rnic_rq_complete_head(qp, rx->rq_head, IB_WC_SUCCESS,
				    rx->msg_len, se,
				    inv ? seg->inval_stag : 0);
}

static void madcm_rnic_rx_end_rreq(struct madcm_rnic_qp *qp)
{
	const struct madcm_ddp_seg *seg = &qp->rx.seg;
	int ret;

	qp->rx.msn[DDP_QN_READ_REQUEST]++;
	ret = madcm_rnic_qp_read_req(qp, seg->sink_stag, seg->sink_to,
				     seg->src_stag, seg->src_to,
				     seg->read_size);
	if (ret == -ENOSPC)
		madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_IRD_ERR,
				   RDMAP_TERM_LAYER_RDMAP,
				   MADCM_TERM_RDMAP_ETYPE_OPERATION,
				   MADCM_TERM_RDMAP_STREAM_CATASTROPHIC, true);
}

/* The peer terminated: no Terminate back (RFC 5040 section 5.4). */
static void madcm_rnic_rx_end_term(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_rx *rx = &qp->rx;
	u32 ctrl = rx->seg.term_ctrl;

	rx->dead = true;
	madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_TERM_RCVD);
	pr_debug("madcm rnic qp %u: Terminate received: layer %u etype %u ecode %#x\n",
		 qp->ibqp.qp_num,
		 (ctrl & RDMAP_TERM_MASK_LAYER) >> RDMAP_TERM_SHIFT_LAYER,
		 (ctrl & RDMAP_TERM_MASK_ETYPE) >> RDMAP_TERM_SHIFT_ETYPE,
		 (ctrl & RDMAP_TERM_MASK_ECODE) >> RDMAP_TERM_SHIFT_ECODE);
	madcm_rnic_qp_event(qp, IB_EVENT_QP_FATAL);
	madcm_rnic_qp_set_error(qp);
	madcm_rnic_stream_close_after_queue(&qp->stream);
}

static void madcm_rnic_rx_end(struct madcm_rnic_qp *qp)
{
	struct madcm_rnic_rx *rx = &qp->rx;

	if (!rx->mpa.crc_ok) {
		/* RFC 5044 section 8: the headers cannot be trusted. */
		madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_CRC_ERR,
				   RDMAP_TERM_LAYER_LLP,
				   MADCM_TERM_LLP_ETYPE_MPA,
				   MADCM_TERM_LLP_CRC, false);
		return;
	}
	if (!rx->place)
		return;
	rx->place = false;
	/*
	 * A valid FPDU: a responder may send now (RFC 5044 7.1), and an
	 * initiator needs no nudge.
	 */
	if (unlikely(READ_ONCE(qp->tx_hold) || READ_ONCE(qp->tx_nudge)))
		madcm_rnic_qp_tx_release(qp);
	switch (rx->seg.opcode) {
	case RDMAP_RDMA_WRITE:
		break;
	case RDMAP_RDMA_READ_RESPONSE:
		rx->rresp_off += rx->seg.pay_len;
		if (!rx->seg.last)
			break;
		rx->rresp_off = 0;
		if (madcm_rnic_qp_read_done(qp))
			madcm_rnic_rx_fail(qp, MADCM_RNIC_CNT_RX_HDR_ERR,
					   RDMAP_TERM_LAYER_RDMAP,
					   MADCM_TERM_RDMAP_ETYPE_OPERATION,
					   MADCM_TERM_RDMAP_OPCODE, true);
		break;
	case RDMAP_RDMA_READ_REQUEST:
		madcm_rnic_rx_end_rreq(qp);
		break;
	case RDMAP_TERMINATE:
		madcm_rnic_rx_end_term(qp);
		break;
	default:
		madcm_rnic_rx_end_send(qp);
		break;
	}
}

#ifdef MADCM_FAULT_INJECTION
/* KUnit's hook: what another CPU may do between two FPDUs. */
static void madcm_rnic_rx_fpdu_end_hook(struct madcm_rnic_qp *qp)
{
	if (qp->dev->rx_fpdu_end)
		qp->dev->rx_fpdu_end(qp);
}
#else
static void madcm_rnic_rx_fpdu_end_hook(struct madcm_rnic_qp *qp)
{
}
#endif

/**
 * madcm_rnic_qp_rx_data() - the stream's rx_data for a QP
 * @t: the QP's stream
 * @d: stream octets, in order, each once
 * @len: how many
 *
 * Context: the stream's rx_lock held, BH off; never twice at once.
 */
void madcm_rnic_qp_rx_data(struct madcm_rnic_stream *t, const u8 *d, u32 len)
{
	struct madcm_rnic_qp *qp = madcm_rnic_rx_qp(t);
	struct madcm_rnic_rx *rx = &qp->rx;
	struct madcm_mpa_rx_out out;
	u32 n;

	if (READ_ONCE(qp->state) == IB_QPS_ERR)
		rx->dead = true;
	while (len && !rx->dead) {
		n = madcm_mpa_rx_step(&rx->mpa, d, len, &out);
		d += n;
		len -= n;
		rx->pos += n;
		switch (out.ev) {
		case MADCM_MPA_RX_HDR:
			madcm_rnic_rx_hdr(qp);
			break;
		case MADCM_MPA_RX_DATA:
			madcm_rnic_rx_data(qp, &out);
			break;
		case MADCM_MPA_RX_END:
			madcm_rnic_rx_end(qp);
			rx->fpdu_pos = rx->pos;
			madcm_rnic_rx_fpdu_end_hook(qp);
			break;
		default:
			break;
		}
	}
}
