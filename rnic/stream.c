// SPDX-License-Identifier: GPL-2.0-only
/*
 * The QP's side of the offload boundary (<madcm/cm_offload.h>): the CM's
 * offload ops, and the calls the upper layer makes on its stream, both
 * passed to what carries the stream (rnic/stream.h): a socket of the
 * host's TCP (rnic/qp_sock.c). Documentation/rnic_tcp.rst describes it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": rnic: " fmt

#include <linux/minmax.h>
#include <net/tcp.h>
#include "rnic/rnic.h"

static struct madcm_rnic_qp *stream_to_qp(struct madcm_rnic_stream *s)
{
	return container_of(s, struct madcm_rnic_qp, stream);
}

static struct madcm_rnic_stream *oqp_to_stream(struct madcm_cm_offload_qp *oqp)
{
	return &container_of(oqp, struct madcm_rnic_qp, oqp)->stream;
}

/**
 * madcm_rnic_stream_take() - a carrier takes the hand-off's context
 * @s: the stream, not carried
 * @ctx: the hand-off context
 *
 * Records the connection (addresses, sequence numbers, MSS, window
 * shifts) and marks the stream carried. RCV.NXT moves past the bytes the
 * CM received and left to the QP, which the carrier delivers itself.
 *
 * Context: from ->offload of struct madcm_rnic_stream_ops, @s->rx_lock
 * held.
 */
void madcm_rnic_stream_take(struct madcm_rnic_stream *s,
			    const struct madcm_cm_offload_ctx *ctx)
{
	const struct madcm_cm_tcp_ctx *c = &ctx->tcp;
	unsigned long flags;

	lockdep_assert_held(&s->rx_lock);
	spin_lock_irqsave(&s->lock, flags);
	s->addr = *c;
	s->mss = max_t(u16, c->snd_mss, MADCM_RNIC_STREAM_MSS_FLOOR);
	s->snd_wscale = min_t(u8, c->snd_wscale, TCP_MAX_WSCALE);
	s->rcv_wscale = min_t(u8, c->rcv_wscale, TCP_MAX_WSCALE);
	s->snd_una = c->snd_una;
	s->snd_nxt = c->snd_nxt;
	s->rcv_nxt = c->rcv_nxt + ctx->rcvd_len;
	WRITE_ONCE(s->carried, true);
	spin_unlock_irqrestore(&s->lock, flags);
}

static int madcm_rnic_stream_offload(struct madcm_cm_offload_qp *oqp,
				     const struct madcm_cm_offload_ctx *ctx)
{
	struct madcm_rnic_stream *s = oqp_to_stream(oqp);
	const struct madcm_cm_tcp_ctx *c = &ctx->tcp;

	if (ctx->unacked_len > MADCM_RNIC_STREAM_UNACKED_MAX)
		return -EMSGSIZE;
	if (ctx->unacked_len != c->snd_nxt - c->snd_una ||
	    (ctx->unacked_len && !ctx->unacked) ||
	    (ctx->rcvd_len && !ctx->rcvd))
		return -EINVAL;
	if (READ_ONCE(s->carried))
		return -EBUSY;
	return s->ops->offload(s, ctx);
}

static void madcm_rnic_stream_rx(struct madcm_cm_offload_qp *oqp,
				 const u8 *frame, u32 len)
{
	struct madcm_rnic_stream *s = oqp_to_stream(oqp);

	s->ops->rx(s, frame, len);
}

static void madcm_rnic_stream_close(struct madcm_cm_offload_qp *oqp,
				    enum madcm_cm_offload_close how)
{
	struct madcm_rnic_stream *s = oqp_to_stream(oqp);

	if (READ_ONCE(s->carried))
		s->ops->close(s, how);
}

static void madcm_rnic_stream_detach(struct madcm_cm_offload_qp *oqp)
{
	struct madcm_rnic_stream *s = oqp_to_stream(oqp);
	unsigned long flags;
	bool carried;

	s->ops->detach(s);
	spin_lock_irqsave(&s->lock, flags);
	carried = s->carried;
	WRITE_ONCE(s->carried, false);
	spin_unlock_irqrestore(&s->lock, flags);
	/*
	 * A stream the QP carried is over: the QP is in ERROR, also when the
	 * CM ended it first (abort, core stop) and the report that would
	 * have moved it was still queued.
	 */
	if (carried)
		s->out->qp_state(s, IB_QPS_ERR);
	/* the reference rnic/iw.c took for the CM */
	s->out->release(s);
}

const struct madcm_cm_offload_ops madcm_rnic_offload_ops = {
	.offload = madcm_rnic_stream_offload,
	.rx = madcm_rnic_stream_rx,
	.close = madcm_rnic_stream_close,
	.detach = madcm_rnic_stream_detach,
};

/* Contract 1: the upper layer's calls. */

/**
 * madcm_rnic_stream_send() - queue one record (one FPDU) on the stream
 * @s: the stream
 * @vec: where its bytes are, in order
 * @nvec: how many pieces
 * @len: its length: at most madcm_rnic_stream_max_record(), the bytes of
 *	@vec from the first on
 *
 * The record is copied, all or nothing, and leaves whole, after every
 * record queued before it (RFC 5044 5.2 sizes it to one segment).
 *
 * Context: any context.
 * Return: 0; -EAGAIN when the send queue has no room (wait for
 * @tx_room); -ENOTCONN when the stream is not carried, or is ending;
 * -EINVAL for an empty or oversized record, or one @vec does not hold;
 * -ENOMEM.
 */
int madcm_rnic_stream_send(struct madcm_rnic_stream *s,
			   const struct kvec *vec, unsigned int nvec, u32 len)
{
	if (!READ_ONCE(s->carried))
		return -ENOTCONN;
	return s->ops->send(s, vec, nvec, len);
}

/**
 * madcm_rnic_stream_build_buf() - where the upper layer may build its
 *	next record in place
 * @s: the stream
 * @size: the record's octets, at most
 *
 * The carrier may gather the records built in place into runs, which
 * leave together: a run is queued when the next record does not fit it,
 * before any record madcm_rnic_stream_send() or
 * madcm_rnic_stream_send_zc() queues, at a FIN, and at
 * madcm_rnic_stream_flush(), which the builder calls whenever it stops.
 *
 * Context: any context; the QP's lock held (one builder at a time).
 * Return: the buffer, or NULL (build elsewhere and use
 * madcm_rnic_stream_send()).
 */
u8 *madcm_rnic_stream_build_buf(struct madcm_rnic_stream *s, u32 size)
{
	if (!READ_ONCE(s->carried) || !s->ops->build_buf)
		return NULL;
	return s->ops->build_buf(s, size);
}

/**
 * madcm_rnic_stream_send_built() - queue the record built in the buffer
 *	madcm_rnic_stream_build_buf() gave
 * @s: the stream
 * @buf: the buffer
 * @len: the record's octets
 *
 * Context: as madcm_rnic_stream_build_buf().
 * Return: as madcm_rnic_stream_send(); -EINVAL for a buffer not given
 * there.
 */
int madcm_rnic_stream_send_built(struct madcm_rnic_stream *s, u8 *buf,
				 u32 len)
{
	if (!s->ops->send_built)
		return -EINVAL;
	return s->ops->send_built(s, buf, len);
}

/**
 * madcm_rnic_stream_flush() - the records built in place leave now
 * @s: the stream
 * @push: the caller calls madcm_rnic_stream_push() once its locks are
 *	dropped, from process context: the carrier need not wake a context
 *	of its own to write these records
 *
 * The builder stops (no more room, nothing more to send): what it built
 * in place and madcm_rnic_stream_send_built() took is queued for the
 * carrier, after every record queued before it.
 *
 * Context: as madcm_rnic_stream_build_buf().
 */
void madcm_rnic_stream_flush(struct madcm_rnic_stream *s, bool push)
{
	if (s->ops->flush)
		s->ops->flush(s, push && s->ops->push);
}

/**
 * madcm_rnic_stream_push() - write what is queued from the caller's context
 * @s: the stream
 *
 * After madcm_rnic_stream_flush() with @push: the carrier writes the
 * queued records from here where it can (no other writer of the stream
 * at work), and leaves them to its own context where it cannot. A user
 * QP's doorbell calls it, in its process, as siw writes a user QP's send
 * queue in the system call: the FPDUs leave without waking a worker.
 *
 * Context: process context, may sleep; no RNIC lock held.
 */
void madcm_rnic_stream_push(struct madcm_rnic_stream *s)
{
	might_sleep();
	if (s->ops->push)
		s->ops->push(s);
}

/**
 * madcm_rnic_stream_can_zc() - whether the stream takes FPDUs whose
 *	payload stays in its pages (madcm_rnic_stream_send_zc())
 * @s: the stream
 *
 * Context: any context.
 * Return: true when it is carried and its carrier has zero-copy.
 */
bool madcm_rnic_stream_can_zc(struct madcm_rnic_stream *s)
{
	return READ_ONCE(s->carried) && s->ops->send_zc;
}

/**
 * madcm_rnic_stream_send_zc() - queue an FPDU whose payload stays in its
 *	pages
 * @s: the stream
 * @f: the FPDU: its header and trailer are copied, its pieces' page
 *	references taken over, and a reference to its ticket taken, all on
 *	success only; the carrier gives the ticket's reference back once it
 *	no longer holds the pages (rnic/zc.h)
 *
 * Context: as madcm_rnic_stream_build_buf().
 * Return: as madcm_rnic_stream_send(); -EINVAL without zero-copy (see
 * madcm_rnic_stream_can_zc()) or for an FPDU whose parts do not add up.
 */
int madcm_rnic_stream_send_zc(struct madcm_rnic_stream *s,
			      struct madcm_rnic_zc_fpdu *f)
{
	u32 i, len = f->head_len + f->tail_len;

	if (!READ_ONCE(s->carried))
		return -ENOTCONN;
	if (!s->ops->send_zc || !f->zc || !f->nbv ||
	    f->nbv > MADCM_RNIC_ZC_PIECES || f->head_len > sizeof(f->head) ||
	    f->tail_len > sizeof(f->tail))
		return -EINVAL;
	for (i = 0; i < f->nbv; i++)
		len += f->bv[i].bv_len;
	if (len != f->len)
		return -EINVAL;
	return s->ops->send_zc(s, f);
}

/**
 * madcm_rnic_stream_max_record() - the largest record
 *	madcm_rnic_stream_send() takes
 * @s: the stream
 *
 * One record per segment: the MSS of the stream (RFC 5044 5.2 sizes the
 * FPDU from it).
 *
 * Context: any context.
 * Return: bytes; 0 when the stream is not carried.
 */
u32 madcm_rnic_stream_max_record(struct madcm_rnic_stream *s)
{
	if (!READ_ONCE(s->carried))
		return 0;
	return s->ops->max_record(s);
}

/**
 * madcm_rnic_stream_send_room() - how many bytes the send queue takes now
 * @s: the stream
 *
 * Context: any context.
 * Return: the largest record length madcm_rnic_stream_send() would queue
 * now, U32_MAX when the queue is empty (it always takes one record), 0
 * when none.
 */
u32 madcm_rnic_stream_send_room(struct madcm_rnic_stream *s)
{
	return s->ops->send_room(s);
}

/**
 * madcm_rnic_stream_close_after_queue() - FIN once the queue is sent
 * @s: the stream
 *
 * For the upper layer once it queued a Terminate: what is queued goes
 * out, then our FIN; the CM hears CLOSED (or RESET) as for its own
 * graceful close. No record is taken afterwards.
 *
 * Context: any context.
 */
void madcm_rnic_stream_close_after_queue(struct madcm_rnic_stream *s)
{
	if (READ_ONCE(s->carried))
		s->ops->close_after_queue(s);
}

/**
 * madcm_rnic_stream_abort() - reset the stream now
 * @s: the stream
 * @status: what the CM's RESET reports (a negative errno; 0 means
 *	-ECONNABORTED)
 *
 * A RST leaves, nothing queued is sent any more, the QP goes to ERROR and
 * the CM hears RESET. Nothing more is delivered to @rx_data.
 *
 * Context: any context, @rx_data included.
 */
void madcm_rnic_stream_abort(struct madcm_rnic_stream *s, int status)
{
	if (READ_ONCE(s->carried))
		s->ops->abort(s, status);
}

/* Where a real QP's reports go: the CM and the verbs. */

static void qp_out_event(struct madcm_rnic_stream *s,
			 enum madcm_cm_offload_event ev, int status)
{
	struct madcm_rnic_qp *qp = stream_to_qp(s);

	if (ev == MADCM_CM_OFFLOAD_EV_RESET)
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_CONN_RESET);
	/* The stream is CLOSED: its sequence numbers move no more. */
	if (ev == MADCM_CM_OFFLOAD_EV_CLOSED)
		madcm_cm_offload_closed(&qp->oqp, READ_ONCE(s->snd_nxt),
					READ_ONCE(s->rcv_nxt));
	else
		madcm_cm_offload_event(&qp->oqp, ev, status);
}

static int qp_out_state(struct madcm_rnic_stream *s, int state)
{
	struct madcm_rnic_qp *qp = stream_to_qp(s);

	if (state == IB_QPS_RTS) {
		int ret = madcm_rnic_qp_to_rts(qp);

		if (!ret)
			madcm_rnic_count(qp->dev,
					 MADCM_RNIC_CNT_CONN_OFFLOADED);
		return ret;
	}
	madcm_rnic_qp_set_error(qp);
	return 0;
}

static void qp_out_release(struct madcm_rnic_stream *s)
{
	madcm_rnic_qp_put(stream_to_qp(s));
}

static int qp_out_rx_start(struct madcm_rnic_stream *s,
			   const struct madcm_cm_offload_ctx *ctx)
{
	return madcm_rnic_qp_rx_start(stream_to_qp(s), ctx);
}

static const struct madcm_rnic_stream_out madcm_rnic_qp_out = {
	.event = qp_out_event,
	.qp_state = qp_out_state,
	.release = qp_out_release,
	.rx_data = madcm_rnic_qp_rx_data,
	.tx_room = madcm_rnic_qp_tx_room,
	.rx_start = qp_out_rx_start,
	.tx_start = madcm_rnic_qp_tx_start,
};

/**
 * madcm_rnic_stream_init() - set up a stream
 * @s: the stream, zeroed, inside its QP
 * @out: where its reports, bytes and QP state changes go
 *
 * The stream is carried by a host socket (madcm_rnic_ks_ops).
 */
void madcm_rnic_stream_init(struct madcm_rnic_stream *s,
			    const struct madcm_rnic_stream_out *out)
{
	s->out = out;
	s->ops = &madcm_rnic_ks_ops;
	spin_lock_init(&s->lock);
	spin_lock_init(&s->rx_lock);
	madcm_rnic_ks_init(s);
}

/**
 * madcm_rnic_qp_stream_init() - a new QP's side of the offload boundary
 * @qp: the QP, zeroed, being created
 *
 * Sets the offload ops the CM calls and the QP's stream.
 */
void madcm_rnic_qp_stream_init(struct madcm_rnic_qp *qp)
{
	qp->oqp.ops = &madcm_rnic_offload_ops;
	qp->oqp.cm_priv = NULL;
	madcm_rnic_stream_init(&qp->stream, &madcm_rnic_qp_out);
}

/**
 * madcm_rnic_qp_stream_destroy() - a QP's stream stops for good
 * @qp: the QP being destroyed, with no connection left
 *
 * Context: process context.
 */
void madcm_rnic_qp_stream_destroy(struct madcm_rnic_qp *qp)
{
	qp->stream.ops->detach(&qp->stream);
}
