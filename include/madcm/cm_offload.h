/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm's iWARP connection manager: the offload boundary.
 *
 * irdma's CM ends every connection by handing the TCP stream to the RNIC:
 * it uploads the QP's TCP context, points the connection's steering entry
 * (its "quad hash") at the QP, and from then on only hears from the QP
 * when the connection closes or fails. madcm draws the same line with the
 * ops table below. A consumer that wants the stream carried by a QP passes
 * a &struct madcm_cm_offload_qp with madcm_cm_connect() or
 * madcm_cm_accept(); a consumer that passes none keeps today's behaviour
 * (the CM keeps the stream until it closes).
 *
 * The CM's side of the contract:
 *  - it hands off once the MPA exchange is over on its side (the initiator
 *    after the reply and, peer-to-peer, after its RTR message is queued;
 *    the responder after its reply is queued and, peer-to-peer, once the
 *    initiator's RTR message arrived), inside one critical section with the
 *    switch of the connection's state, which the core's receive path
 *    steers by, so no segment is lost in between: a segment the CM still
 *    receives afterwards is passed to @rx (the backend's steering entry
 *    is retargeted at the QP right after, from process context);
 *  - a peer-to-peer responder's context also carries the initiator's RTR
 *    message, received but neither taken nor acknowledged by the CM;
 *  - the context carries the bytes the CM sent and the peer has not
 *    acknowledged yet (the MPA reply, the RTR message), so the QP can
 *    retransmit them: madcm does not require snd_una == snd_nxt at hand-off
 *    as irdma's hardware does;
 *  - after hand-off it does not send, receive or time anything on the
 *    stream; it maps the QP's reports (madcm_cm_offload_event()) to its
 *    consumer's DISCONNECT, CLOSE and RESET events, and it asks the QP to
 *    close or reset when the consumer calls madcm_cm_close() or
 *    madcm_cm_abort().
 *
 * The steering entry's target is in &struct madcm_cm_steer: the CM's own
 * receive path, or a QP (<madcm/cm_backend.h>). The device's IRD/ORD
 * limits are the core's (&struct madcm_cm_config max_ird, max_ord): the
 * RNIC attaches the core with its own limits, and the CM never negotiates
 * more. Documentation/rnic_offload.rst describes how irdma's hardware
 * maps onto each op.
 */
#ifndef _MADCM_CM_OFFLOAD_H
#define _MADCM_CM_OFFLOAD_H

#include <madcm/cm.h>

struct madcm_cm_offload_qp;

/**
 * struct madcm_cm_offload_ctx - what the CM uploads to a QP at hand-off
 * @tcp: the TCP and MPA context (addresses, MACs, sequence numbers,
 *	windows, MSS, scales, IRD/ORD, CRC, markers, RTR type)
 * @unacked: the bytes from @tcp.snd_una up to @tcp.snd_nxt: sent by the
 *	CM, not acknowledged; valid during the call only; the QP copies them
 *	and retransmits them until they are acknowledged
 * @unacked_len: how many (@tcp.snd_nxt - @tcp.snd_una)
 * @rcvd: bytes from @tcp.rcv_nxt on that arrived in order and that the CM
 *	did not take: on a peer-to-peer responder, the initiator's RTR
 *	message (RFC 6581). Not acknowledged by the CM; the QP processes
 *	them as if it had just received them (and acknowledges them). Valid
 *	during the call only; NULL when @rcvd_len is 0.
 * @rcvd_len: how many
 * @rto_ms: the retransmission timeout the CM last used, a hint for the
 *	QP's first one
 */
struct madcm_cm_offload_ctx {
	struct madcm_cm_tcp_ctx tcp;
	const u8 *unacked;
	u32 unacked_len;
	const u8 *rcvd;
	u32 rcvd_len;
	u32 rto_ms;
};

/**
 * enum madcm_cm_offload_close - how the CM asks a QP to end the stream
 * @MADCM_CM_OFFLOAD_CLOSE_FIN: graceful: send what is queued, then FIN
 * @MADCM_CM_OFFLOAD_CLOSE_RST: abortive: send RST, drop what is queued
 */
enum madcm_cm_offload_close {
	MADCM_CM_OFFLOAD_CLOSE_FIN,
	MADCM_CM_OFFLOAD_CLOSE_RST,
};

/**
 * enum madcm_cm_offload_event - what a QP reports about its stream
 * @MADCM_CM_OFFLOAD_EV_FIN_RCVD: the peer's FIN arrived in order (the
 *	CM's DISCONNECT)
 * @MADCM_CM_OFFLOAD_EV_CLOSED: both FINs are sent and acknowledged: the
 *	stream is over (the CM's CLOSE). The CM takes the tuple back for
 *	TIME-WAIT when our FIN went first.
 * @MADCM_CM_OFFLOAD_EV_RESET: the stream failed: a RST arrived or was
 *	sent, retransmissions ran out, or the QP went to ERROR; the status
 *	says which (-ECONNRESET, -ETIMEDOUT, -ECONNABORTED, ...) (the CM's
 *	RESET)
 */
enum madcm_cm_offload_event {
	MADCM_CM_OFFLOAD_EV_FIN_RCVD,
	MADCM_CM_OFFLOAD_EV_CLOSED,
	MADCM_CM_OFFLOAD_EV_RESET,
};

/**
 * struct madcm_cm_offload_ops - what the CM asks of a QP
 * @offload: take the stream: load @ctx, start retransmitting @ctx->unacked,
 *	and own the tuple from now on. Called from the CM with its locks
 *	held, in any context: must not sleep. Returns 0, or a negative errno,
 *	on which the CM resets the connection and reports RESET.
 * @rx: one frame (from the Ethernet header on) of the offloaded stream
 *	that reached the CM: steered before the switch, or by a backend that
 *	steers to the CM only. Softirq or process context, with the CM's
 *	connection lock held; must not sleep. The frame stays the caller's.
 * @close: the consumer closed (FIN) or aborted (RST) an offloaded
 *	connection. Any context, with the CM's connection lock held; must
 *	not sleep. After FIN the QP reports with madcm_cm_offload_event()
 *	once the stream is over; after RST the CM has ended the connection
 *	already and ignores what the QP reports.
 * @detach: the CM is done with the QP: after the terminal event of the
 *	connection (its handler has returned), whether the stream was
 *	handed to the QP or the connection failed first; never after a
 *	connect or accept that returned an error. Process context, no CM
 *	lock held. It must not return while a call of the QP into the CM is
 *	running; after it returns the QP calls no madcm_cm_offload_*()
 *	function for this connection.
 *
 * madcm_cm_offload_event() takes no CM lock, so a QP may call it from
 * @rx and @close; madcm_cm_offload_reset() may be called from @offload,
 * @rx and @close too.
 */
struct madcm_cm_offload_ops {
	int (*offload)(struct madcm_cm_offload_qp *qp,
		       const struct madcm_cm_offload_ctx *ctx);
	void (*rx)(struct madcm_cm_offload_qp *qp, const u8 *frame, u32 len);
	void (*close)(struct madcm_cm_offload_qp *qp,
		      enum madcm_cm_offload_close how);
	void (*detach)(struct madcm_cm_offload_qp *qp);
};

/**
 * struct madcm_cm_offload_qp - a QP as the CM sees it
 * @ops: the QP's side of the boundary
 * @cm_priv: the CM's; zero it before the first use
 *
 * Embedded in the RNIC's own QP structure; the RNIC keeps it alive until
 * @ops->detach returns.
 */
struct madcm_cm_offload_qp {
	const struct madcm_cm_offload_ops *ops;
	void *cm_priv;
};

void madcm_cm_offload_event(struct madcm_cm_offload_qp *qp,
			    enum madcm_cm_offload_event ev, int status);
void madcm_cm_offload_closed(struct madcm_cm_offload_qp *qp, u32 snd_nxt,
			     u32 rcv_nxt);
int madcm_cm_offload_reset(struct madcm_cm_offload_qp *qp, u32 seq, u32 ack);
bool madcm_cm_offload_can_host(struct madcm_cm_offload_qp *qp);
int madcm_cm_offload_unsteer(struct madcm_cm_offload_qp *qp);

#endif /* _MADCM_CM_OFFLOAD_H */
