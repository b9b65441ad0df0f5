/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software RNIC on the host's own TCP: at the offload boundary a QP
 * loads its stream into a kernel TCP socket, repaired into the
 * connection's state (the way CRIU restores a live connection). The
 * upper layer (rnic/qp_tx.c, rnic/qp_rx.c) sees it through
 * rnic/stream.h. Documentation/rnic_tcp.rst describes the hand-off.
 */
#ifndef _MADCM_RNIC_QP_SOCK_H
#define _MADCM_RNIC_QP_SOCK_H

#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <madcm/cm_offload.h>

struct madcm_rnic_stream;
struct socket;
struct sock;

/* The peer's frames kept while the hand-off runs, at most. */
#define MADCM_RNIC_KS_EARLY_MAX		64

/*
 * Frames the CM may still pass after the hand-off, at most: those its
 * steering took just before the entry changed. More means the steering
 * still takes the stream, and reinjecting would loop.
 */
#define MADCM_RNIC_KS_LATE_MAX		256

/* What the send side may queue for the socket (records not yet sent). */
#define MADCM_RNIC_KS_TXQ_MAX		(256 * 1024)

/*
 * What a run of FPDUs built in place (madcm_rnic_stream_build_buf()) may
 * hold, whatever rnic_tx_run_max asks: two runs and their records'
 * heads fill one page of the fragment cache (PAGE_FRAG_CACHE_MAX_SIZE,
 * 32 KiB). A run's FPDUs lie back to back and go to TCP as one record:
 * one piece instead of one an FPDU, one allocation, one queueing.
 */
#define MADCM_RNIC_KS_RUN_MAX		(16 * 1024 - 128)

/*
 * Records written to the socket in one call, at most: TCP then builds
 * its segments (and GSO its super-packets) from many FPDUs at once.
 */
#define MADCM_RNIC_KS_TX_BATCH		32

/* Pieces one call to the socket takes, at most. */
#define MADCM_RNIC_KS_TX_PIECES		64

/* What a record holds (&struct madcm_rnic_ks_rec.kind). */
enum {
	MADCM_RNIC_KS_REC_COPY,	/* kmalloc()ed, copied into TCP's skbs */
	MADCM_RNIC_KS_REC_FRAG,	/* built in a page, taken by reference */
	MADCM_RNIC_KS_REC_ZC,	/* header, MR pages, trailer (rnic/zc.h) */
};

/**
 * struct madcm_rnic_ks_rec - FPDUs queued for the socket
 * @list: on &madcm_rnic_ks.txq
 * @len: its octets
 * @kind: MADCM_RNIC_KS_REC_*: COPY, a copy of the send side's FPDU,
 *	kmalloc()ed; FRAG, a run of FPDUs built in place at @data, in a
 *	page of &madcm_rnic_ks.frags; ZC, in such a page too, one FPDU, its
 *	header and trailer at @glue and its payload in @bv
 * @nbv: ZC: the payload's pieces
 * @head_len: ZC: the header's octets at @glue_off
 * @tail_len: ZC: the trailer's (PAD, CRC), right behind the header
 * @glue_off: ZC: where in @glue the header is
 * @fpdus: how many FPDUs it holds (more than one: FRAG only)
 * @glue: ZC: the page of &madcm_rnic_ks.glue holding its header and
 *	trailer (a reference)
 * @zc: ZC: the work request's ticket (a reference)
 * @bv: ZC: the pieces, each holding a page reference
 * @data: the FPDU (COPY), the run (FRAG)
 */
struct madcm_rnic_ks_rec {
	struct list_head list;
	u32 len;
	u8 kind;
	u8 nbv;
	u8 head_len;
	u8 tail_len;
	u32 glue_off;
	u16 fpdus;
	struct page *glue;
	struct madcm_rnic_zc *zc;
	struct bio_vec *bv;
	u8 data[];
};

/**
 * struct madcm_rnic_ks - a QP's stream on a socket of the host's TCP
 * @sock: the socket, from the hand-off's work on; NULL before
 * @work: the hand-off, then sending, draining the receive queue and
 *	reporting the socket's state changes (process context)
 * @room_work: the send side's tx_room, once @work made room in @txq: an
 *	unbound work, so that the send side builds the next records on
 *	one CPU while @work writes the last ones on another
 * @fin_wait: FIN-WAIT-2's bound: armed when the peer acknowledged our FIN,
 *	it resets the stream if the peer's FIN has not come within the
 *	namespace's tcp_fin_timeout (the bound the host puts on an orphaned
 *	socket's FIN-WAIT-2; ours is not orphaned, and would wait forever)
 * @tx_mutex: held by whoever writes @txq to @sock, or loads @sock: @work,
 *	or a user QP's doorbell that pushes its records itself
 *	(madcm_rnic_stream_push()); detach takes it once to wait for a
 *	pusher to be gone
 * @lock: guards @flags changes that pair with the lists, @txq, @tx_off,
 *	@tx_mem and @early (IRQ-safe)
 * @flags: MADCM_RNIC_KS_* bits
 * @txq: records (&struct madcm_rnic_ks_rec) queued by the send side,
 *	in stream order, not yet all written to the socket
 * @tx_off: how much of the first record the socket took already
 * @tx_mem: what @txq and @build hold, records' heads included
 * @early: frames of the peer that reached the CM before its steering
 *	entry was removed; given to the host's stack once it is
 * @late: frames the CM passed after that, given to the host's stack at
 *	once (at most MADCM_RNIC_KS_LATE_MAX a connection: ks_offload()
 *	starts the count again)
 * @unacked: the CM's bytes the peer has not acknowledged (the hand-off
 *	context's), written into the socket's send queue as sent
 * @unacked_len: how many
 * @rcv_nxt: the socket's RCV.NXT at the hand-off: the context's, after
 *	the bytes the CM left to the QP (delivered by the hand-off itself)
 * @err: the status of the RESET the stream ended with
 * @mss_cache: the socket's MSS as the work last read it (0 before), for
 *	madcm_rnic_ks_max_record(), which runs under the QP's lock and may
 *	race with detach releasing the socket
 * @frags: the pages FPDUs are built in (under @lock, by the send side,
 *	which holds the QP's lock: one builder at a time)
 * @glue: where ZC records' headers and trailers go, one after the other
 *	(under @lock, by the send side): a trailer and the next header are
 *	then one piece for TCP, which merges adjacent pieces of a page, so
 *	that an skb's fragments hold more FPDUs
 * @build: the run the send side builds its FPDUs in (a FRAG record not
 *	yet on @txq), NULL when none: its @len octets are FPDUs
 *	madcm_rnic_stream_send_built() took (and @tx_mem counts), the rest of
 *	its room is the builder's; it joins @txq when full, at the send
 *	side's flush, or before any other record (under @lock)
 * @build_size: the room at @build's data
 * @saved_data_ready: the socket's own callbacks, put back at detach
 * @saved_state_change: see @saved_data_ready
 * @saved_write_space: see @saved_data_ready
 * @saved_error_report: see @saved_data_ready
 */
struct madcm_rnic_ks {
	struct socket *sock;
	struct work_struct work;
	struct work_struct room_work;
	struct delayed_work fin_wait;
	struct mutex tx_mutex;		/* one writer of @txq to @sock */
	spinlock_t lock;		/* @txq, @early, @late, @tx_off, @tx_mem */
	unsigned long flags;
	struct list_head txq;
	u32 tx_off;
	u32 tx_mem;
	struct sk_buff_head early;
	u32 late;
	u8 *unacked;
	u32 unacked_len;
	u32 rcv_nxt;
	int err;
	u32 mss_cache;
	struct page_frag_cache frags;
	struct page_frag glue;
	struct madcm_rnic_ks_rec *build;
	u32 build_size;
	void (*saved_data_ready)(struct sock *sk);
	void (*saved_state_change)(struct sock *sk);
	void (*saved_write_space)(struct sock *sk);
	void (*saved_error_report)(struct sock *sk);
};

/* @flags bits */
#define MADCM_RNIC_KS_HANDOFF	0	/* the work loads the socket next */
#define MADCM_RNIC_KS_LIVE	1	/* the socket carries the stream */
#define MADCM_RNIC_KS_UNSTEERED	2	/* the CM's steering entry is gone */
#define MADCM_RNIC_KS_FIN_DUE	3	/* FIN once @txq is written */
#define MADCM_RNIC_KS_FIN_SENT	4	/* shutdown(SHUT_WR) done */
#define MADCM_RNIC_KS_RST_DUE	5	/* reset the socket */
#define MADCM_RNIC_KS_DEAD	6	/* reset or failed: nothing more */
#define MADCM_RNIC_KS_DETACHED	7	/* the CM is done with the QP */
#define MADCM_RNIC_KS_ROOM	8	/* the send side waits for room */
#define MADCM_RNIC_KS_EV_FIN	9	/* FIN_RCVD reported */
#define MADCM_RNIC_KS_EV_END	10	/* CLOSED or RESET reported */
#define MADCM_RNIC_KS_FIN_WAIT	11	/* @fin_wait armed */

/**
 * struct madcm_rnic_ks_conn - what madcm_rnic_ks_repair() loads
 * @tcp: addresses, family, SND.UNA, the peer's window (SND.WND, SND.WL1,
 *	its largest) and the receive window to offer (the CM's context)
 * @ifindex: the device the socket is bound to (0: none)
 * @rcv_nxt: RCV.NXT: the context's, or beyond it by the bytes the CM
 *	received and left to the QP unacknowledged
 * @mss: the MSS the peer announced (the most we send in a segment; at
 *	least TCP_MIN_MSS)
 * @snd_wscale: the peer's window shift
 * @rcv_wscale: ours, as announced in our SYN
 * @unacked: bytes from SND.UNA on, sent and not acknowledged
 * @unacked_len: how many
 */
struct madcm_rnic_ks_conn {
	const struct madcm_cm_tcp_ctx *tcp;
	int ifindex;
	u32 rcv_nxt;
	u16 mss;
	u8 snd_wscale;
	u8 rcv_wscale;
	const u8 *unacked;
	u32 unacked_len;
};

struct net;

/*
 * The TCP options the CM's SYNs offer for the RNIC's connections: those
 * the host's TCP keeps using after the hand-off, when the peer takes them.
 */
#define MADCM_RNIC_TCP_OPTS	(MADCM_CM_TCP_TS | MADCM_CM_TCP_SACK)

int madcm_rnic_ks_repair(struct net *net, const struct madcm_rnic_ks_conn *k,
			 struct socket **sockp);
int madcm_rnic_ks_start(struct socket *sock,
			const struct madcm_rnic_ks_conn *k);

void madcm_rnic_ks_install(struct madcm_rnic_stream *t, struct sock *sk);
void madcm_rnic_ks_uninstall(struct madcm_rnic_stream *t, struct sock *sk);
void madcm_rnic_ks_init(struct madcm_rnic_stream *t);

#endif /* _MADCM_RNIC_QP_SOCK_H */
