/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A QP's stream: what carries its RDMAP/DDP/MPA bytes once the CM hands
 * the connection over at the offload boundary (<madcm/cm_offload.h>), as
 * irdma's hardware carries it after irdma_cm_init_tsa_conn().
 *
 * The carrier is a socket of the host's own TCP, loaded in repair mode
 * with the connection's state (rnic/qp_sock.c). The upper layer
 * (rnic/qp_tx.c, rnic/qp_rx.c) sees it only through the calls below
 * (contract 1), and the CM only through the offload ops (contract 2);
 * both go through @ops, which the KUnit suites may point at a test
 * transport of their own. Documentation/rnic_tcp.rst describes it.
 *
 * Locking: @lock (IRQ-safe) guards the fields below it; @rx_lock
 * serializes deliveries to @out->rx_data (BH off): lock order @rx_lock,
 * then the upper layer's locks, then @lock.
 */
#ifndef _MADCM_RNIC_STREAM_H
#define _MADCM_RNIC_STREAM_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <madcm/cm.h>
#include <madcm/cm_offload.h>
#include "rnic/qp_sock.h"
#include "rnic/zc.h"

/*
 * The most bytes the CM may leave unacknowledged at hand-off: an MPA reply
 * or request with the most private data (20 + 512), and an RTR FPDU.
 */
#define MADCM_RNIC_STREAM_UNACKED_MAX	640

/*
 * The smallest MSS a stream uses, whatever the peer announced (RFC 9293
 * 3.7.1 puts IPv4's default at 536; 64 still carries every header of an
 * FPDU with payload).
 */
#define MADCM_RNIC_STREAM_MSS_FLOOR	64

struct madcm_rnic_stream;

/**
 * struct madcm_rnic_stream_out - where a stream's reports go
 * @event: a report to the CM (madcm_cm_offload_event())
 * @qp_state: the stream moves the QP: IB_QPS_RTS at hand-off (0 or an
 *	error, which fails the hand-off), IB_QPS_ERR when it fails. Any
 *	context; must not sleep.
 * @release: the CM is done with the QP (after detach): drop the QP
 *	reference rnic/iw.c took for it
 * @rx_data: in-order stream bytes, each exactly once, in stream order,
 *	the hand-off context's @rcvd included. Called with @rx_lock held
 *	(BH off), never twice at once for one stream; it may call
 *	madcm_rnic_stream_send() and madcm_rnic_stream_abort(). NULL: the
 *	bytes are dropped.
 * @tx_room: send room was freed: the upper layer may queue more. Process
 *	context, no stream lock held. May be NULL.
 * @rx_start: the hand-off begins: the upper layer's receive side takes
 *	the context (MPA options, RTR); an error fails the hand-off (the QP
 *	stays as it was). From the CM's offload op, before @qp_state; must
 *	not sleep. May be NULL.
 * @tx_start: the stream is carried (madcm_rnic_stream_send() works): the
 *	upper layer's send side starts (RTR, MSNs, IRD/ORD, its queues).
 *	From the CM's offload op with @rx_lock held, before the context's
 *	@rcvd goes to @rx_data; must not sleep. May be NULL.
 *
 * The QP's own table calls the CM and the verbs; a KUnit suite may put
 * its own in front of a stream to see what it reports.
 */
struct madcm_rnic_stream_out {
	void (*event)(struct madcm_rnic_stream *s,
		      enum madcm_cm_offload_event ev, int status);
	int (*qp_state)(struct madcm_rnic_stream *s, int state);
	void (*release)(struct madcm_rnic_stream *s);
	void (*rx_data)(struct madcm_rnic_stream *s, const u8 *data, u32 len);
	void (*tx_room)(struct madcm_rnic_stream *s);
	int (*rx_start)(struct madcm_rnic_stream *s,
			const struct madcm_cm_offload_ctx *ctx);
	void (*tx_start)(struct madcm_rnic_stream *s,
			 const struct madcm_cm_offload_ctx *ctx);
};

/**
 * struct madcm_rnic_stream_ops - what carries a stream
 * @offload: take the stream the CM hands over (@ctx checked already):
 *	call @out->rx_start, @out->qp_state(IB_QPS_RTS), then with
 *	@rx_lock held set @carried, call @out->tx_start and deliver
 *	@ctx->rcvd. Any context, must not sleep. Return: 0 or a negative
 *	errno, the QP as it was.
 * @rx: a frame of the stream the CM still received (the CM's ->rx())
 * @close: the CM closes (FIN after what is queued) or aborts (RST now,
 *	and nothing more is reported)
 * @detach: the CM is done with the stream, or the QP goes: stop every
 *	work, free every queue, release the carrier. Process context.
 * @send: madcm_rnic_stream_send(), the stream carried
 * @build_buf: madcm_rnic_stream_build_buf(); may be NULL
 * @send_built: madcm_rnic_stream_send_built(); with @build_buf
 * @flush: madcm_rnic_stream_flush(); with @build_buf; @push set: the
 *	caller calls @push once its locks are dropped, nothing need be woken
 *	for these records
 * @push: madcm_rnic_stream_push(); may be NULL
 * @send_zc: madcm_rnic_stream_send_zc(), the FPDU checked; may be NULL
 * @max_record: madcm_rnic_stream_max_record(), the stream carried
 * @send_room: madcm_rnic_stream_send_room()
 * @close_after_queue: madcm_rnic_stream_close_after_queue(), carried
 * @abort: madcm_rnic_stream_abort(), carried
 *
 * The host socket's (madcm_rnic_ks_ops) is the only one the module
 * uses.
 */
struct madcm_rnic_stream_ops {
	int (*offload)(struct madcm_rnic_stream *s,
		       const struct madcm_cm_offload_ctx *ctx);
	void (*rx)(struct madcm_rnic_stream *s, const u8 *frame, u32 len);
	void (*close)(struct madcm_rnic_stream *s,
		      enum madcm_cm_offload_close how);
	void (*detach)(struct madcm_rnic_stream *s);
	int (*send)(struct madcm_rnic_stream *s, const struct kvec *vec,
		    unsigned int nvec, u32 len);
	u8 *(*build_buf)(struct madcm_rnic_stream *s, u32 size);
	int (*send_built)(struct madcm_rnic_stream *s, u8 *buf, u32 len);
	void (*flush)(struct madcm_rnic_stream *s, bool push);
	void (*push)(struct madcm_rnic_stream *s);
	int (*send_zc)(struct madcm_rnic_stream *s,
		       struct madcm_rnic_zc_fpdu *f);
	u32 (*max_record)(struct madcm_rnic_stream *s);
	u32 (*send_room)(struct madcm_rnic_stream *s);
	void (*close_after_queue)(struct madcm_rnic_stream *s);
	void (*abort)(struct madcm_rnic_stream *s, int status);
};

/**
 * struct madcm_rnic_stream - a QP's stream (in struct madcm_rnic_qp)
 * @out: where its reports and bytes go
 * @ops: what carries it (madcm_rnic_ks_ops)
 * @lock: guards the fields below (IRQ-safe)
 * @rx_lock: serializes the deliveries to @out->rx_data (BH off); taken
 *	before @lock, never inside it
 * @carried: handed over and not detached
 * @addr: addresses, MACs, VLAN, TOS/TTL and flow label of the stream
 *	(the hand-off context's)
 * @snd_una: SND.UNA at the hand-off
 * @snd_nxt: SND.NXT at the hand-off
 * @rcv_nxt: RCV.NXT after the bytes the CM left to the QP
 * @mss: the most payload per segment (the hand-off context's MSS, at
 *	least MADCM_RNIC_STREAM_MSS_FLOOR)
 * @snd_wscale: the peer's window shift
 * @rcv_wscale: ours
 * @ks: the host socket's side
 */
struct madcm_rnic_stream {
	const struct madcm_rnic_stream_out *out;
	const struct madcm_rnic_stream_ops *ops;
	spinlock_t lock;		/* the fields below */
	spinlock_t rx_lock;		/* deliveries to @out->rx_data */
	bool carried;
	struct madcm_cm_tcp_ctx addr;
	u32 snd_una;
	u32 snd_nxt;
	u32 rcv_nxt;
	u16 mss;
	u8 snd_wscale;
	u8 rcv_wscale;
	struct madcm_rnic_ks ks;
};

extern const struct madcm_rnic_stream_ops madcm_rnic_ks_ops;

void madcm_rnic_stream_init(struct madcm_rnic_stream *s,
			    const struct madcm_rnic_stream_out *out);
void madcm_rnic_stream_take(struct madcm_rnic_stream *s,
			    const struct madcm_cm_offload_ctx *ctx);

/* Contract 1: the upper layer (RDMAP/DDP over MPA) on the stream. */
int madcm_rnic_stream_send(struct madcm_rnic_stream *s,
			   const struct kvec *vec, unsigned int nvec, u32 len);
u8 *madcm_rnic_stream_build_buf(struct madcm_rnic_stream *s, u32 size);
int madcm_rnic_stream_send_built(struct madcm_rnic_stream *s, u8 *buf,
				 u32 len);
void madcm_rnic_stream_flush(struct madcm_rnic_stream *s, bool push);
void madcm_rnic_stream_push(struct madcm_rnic_stream *s);
bool madcm_rnic_stream_can_zc(struct madcm_rnic_stream *s);
int madcm_rnic_stream_send_zc(struct madcm_rnic_stream *s,
			      struct madcm_rnic_zc_fpdu *f);
u32 madcm_rnic_stream_max_record(struct madcm_rnic_stream *s);
u32 madcm_rnic_stream_send_room(struct madcm_rnic_stream *s);
void madcm_rnic_stream_close_after_queue(struct madcm_rnic_stream *s);
void madcm_rnic_stream_abort(struct madcm_rnic_stream *s, int status);

#endif /* _MADCM_RNIC_STREAM_H */
