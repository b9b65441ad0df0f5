/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software RNIC's TCP engine: one per QP, it carries the stream the
 * CM hands over at the offload boundary (<madcm/cm_offload.h>).
 *
 * It keeps a bounded send queue of records (one FPDU each, one segment
 * each), sends them within the peer's window and the congestion window
 * (RFC 5681), retransmits on timeout (RFC 6298) and on three duplicate
 * ACKs, probes a zero window, reassembles out-of-order data in a bounded
 * queue, delivers the stream in order to the upper layer (@rx_data),
 * delays ACKs, applies RFC 5961, and closes with FIN or RST.
 * Documentation/rnic_tcp.rst describes it.
 *
 * Locking: @lock (IRQ-safe) guards the state; nothing calls out of the
 * engine with it held. Frames and events leave from @tx_work, one
 * context at a time, so the CM is never re-entered from its own calls
 * (offload, rx, close) into the QP; only an abort from the CM sends its
 * RST from the call. Stream bytes go up from the receive path (and from
 * the hand-off) with @rx_lock held: lock order @rx_lock, then the
 * upper layer's locks, then @lock.
 */
#ifndef _MADCM_RNIC_QP_TCP_H
#define _MADCM_RNIC_QP_TCP_H

#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <madcm/cm.h>
#include <madcm/cm_offload.h>
#include "rnic/qp_sock.h"

/*
 * The most bytes the CM may leave unacknowledged at hand-off: an MPA reply
 * or request with the most private data (20 + 512), and an RTR FPDU.
 */
#define MADCM_RNIC_TCP_UNACKED_MAX	640

/* The smallest MSS an engine uses, whatever the peer announced. */
#define MADCM_RNIC_TCP_MSS_FLOOR	64

/* Retransmission (RFC 6298): the first RTO when the CM gives none, the
 * floor (200 ms, our choice: RFC 6298 2.4 asks for 1 s, Linux uses 200
 * ms, see Documentation/rnic_tcp.rst), the ceiling of the backoff, and
 * how many timeouts in a row before RESET.
 */
#define MADCM_RNIC_TCP_RTO_INIT_MS	1000
#define MADCM_RNIC_TCP_RTO_MIN_MS	200
#define MADCM_RNIC_TCP_RTO_MAX_MS	60000
#define MADCM_RNIC_TCP_MAX_RETRIES	8
/* How long FIN-WAIT-2 waits for the peer's FIN. */
#define MADCM_RNIC_TCP_FIN_WAIT2_MS	60000
/* The delayed-ACK timer (RFC 9293 3.8.6.3: less than 0.5 s). */
#define MADCM_RNIC_TCP_DELACK_MS	40
/* RFC 5681 3.2: duplicate ACKs that trigger a fast retransmit. */
#define MADCM_RNIC_TCP_DUPACK_THRESH	3
/* RFC 5961 7: challenge ACKs an engine sends per second, at most. */
#define MADCM_RNIC_TCP_CHALLENGE_PER_SEC	100

/*
 * Memory, whatever the peer does: the send queue (the CM's bytes and the
 * records the upper layer queued, until acknowledged) and the
 * out-of-order queue, each bounded per engine and per device. Each entry
 * is charged its payload plus its header.
 */
#define MADCM_RNIC_TCP_SNDBUF		(256 * 1024)
#define MADCM_RNIC_TCP_DEV_SNDBUF	(32 * 1024 * 1024)
#define MADCM_RNIC_TCP_OOO_MAX		(256 * 1024)
#define MADCM_RNIC_TCP_OOO_SEGS		128
#define MADCM_RNIC_TCP_DEV_OOO		(16 * 1024 * 1024)

/**
 * enum madcm_rnic_tcp_state - RFC 9293's states, as far as a QP sees them
 * @MADCM_RNIC_TCP_IDLE: not offloaded (or detached)
 * @MADCM_RNIC_TCP_ESTABLISHED: carrying the stream
 * @MADCM_RNIC_TCP_CLOSE_WAIT: the peer's FIN is in; the bytes before it
 *	are going up, and what they make the upper layer send is queued
 *	before our FIN (which follows them at once: LAST-ACK)
 * @MADCM_RNIC_TCP_FIN_WAIT_1: our FIN queued or sent, not acknowledged
 * @MADCM_RNIC_TCP_FIN_WAIT_2: our FIN acknowledged, the peer's not in
 * @MADCM_RNIC_TCP_CLOSING: both FINs sent, ours not acknowledged
 * @MADCM_RNIC_TCP_LAST_ACK: the peer closed first; our FIN not acknowledged
 * @MADCM_RNIC_TCP_CLOSED: both FINs done (the CM keeps TIME-WAIT), or reset
 */
enum madcm_rnic_tcp_state {
	MADCM_RNIC_TCP_IDLE,
	MADCM_RNIC_TCP_ESTABLISHED,
	MADCM_RNIC_TCP_CLOSE_WAIT,
	MADCM_RNIC_TCP_FIN_WAIT_1,
	MADCM_RNIC_TCP_FIN_WAIT_2,
	MADCM_RNIC_TCP_CLOSING,
	MADCM_RNIC_TCP_LAST_ACK,
	MADCM_RNIC_TCP_CLOSED,
};

/**
 * enum madcm_rnic_tcp_counter - the engine's counters
 * @MADCM_RNIC_TCP_RX_SEGS: segments taken
 * @MADCM_RNIC_TCP_RX_BAD: frames refused by the parser (checksums, lengths)
 * @MADCM_RNIC_TCP_RX_NOT_OURS: well-formed, but another 4-tuple or VLAN
 * @MADCM_RNIC_TCP_RX_SEQ_DROP: unacceptable sequence number or ACK (RFC
 *	9293 3.10.7.4), dropped (and answered with an ACK where the RFC asks)
 * @MADCM_RNIC_TCP_RX_CHALLENGE: challenge ACKs sent (RFC 5961)
 * @MADCM_RNIC_TCP_RX_OOO: data segments beyond RCV.NXT (queued or dropped)
 * @MADCM_RNIC_TCP_RX_DATA_BYTES: in-order payload taken and delivered
 *	(to @rx_data when there is one)
 * @MADCM_RNIC_TCP_RX_RST: acceptable RSTs taken
 * @MADCM_RNIC_TCP_TX_SEGS: segments sent
 * @MADCM_RNIC_TCP_TX_ERR: segments the CM's xmit refused
 * @MADCM_RNIC_TCP_TX_NOMEM: segments not built for lack of memory (the
 *	retransmission timer recovers)
 * @MADCM_RNIC_TCP_RETRANS: retransmission timeouts
 * @MADCM_RNIC_TCP_RX_OOO_DROP: out-of-order data dropped: the engine's or
 *	the device's out-of-order budget was spent, or no memory
 * @MADCM_RNIC_TCP_RX_WND_DROP: bytes beyond the receive window dropped
 * @MADCM_RNIC_TCP_RX_DUP_BYTES: bytes received again (already in order)
 * @MADCM_RNIC_TCP_RX_DUPACK: duplicate ACKs (RFC 5681 2)
 * @MADCM_RNIC_TCP_FAST_RETRANS: fast retransmits (RFC 5681 3.2)
 * @MADCM_RNIC_TCP_PROBES: zero-window probes (RFC 9293 3.8.6.1)
 * @MADCM_RNIC_TCP_TX_NOROOM: records refused with -EAGAIN (send queue
 *	full, engine or device)
 * @MADCM_RNIC_TCP_TX_DATA_BYTES: payload bytes sent, retransmissions
 *	included
 * @MADCM_RNIC_TCP_RTT_SAMPLES: RTT measurements taken (RFC 6298)
 * @MADCM_RNIC_TCP_DELACK: ACKs sent by the delayed-ACK timer
 * @MADCM_RNIC_TCP_RX_CHALLENGE_LIMITED: challenge ACKs not sent: over
 *	@chal_limit in a second (RFC 5961 7)
 * @MADCM_RNIC_TCP_NR: number of counters
 */
enum madcm_rnic_tcp_counter {
	MADCM_RNIC_TCP_RX_SEGS,
	MADCM_RNIC_TCP_RX_BAD,
	MADCM_RNIC_TCP_RX_NOT_OURS,
	MADCM_RNIC_TCP_RX_SEQ_DROP,
	MADCM_RNIC_TCP_RX_CHALLENGE,
	MADCM_RNIC_TCP_RX_OOO,
	MADCM_RNIC_TCP_RX_DATA_BYTES,
	MADCM_RNIC_TCP_RX_RST,
	MADCM_RNIC_TCP_TX_SEGS,
	MADCM_RNIC_TCP_TX_ERR,
	MADCM_RNIC_TCP_TX_NOMEM,
	MADCM_RNIC_TCP_RETRANS,
	MADCM_RNIC_TCP_RX_OOO_DROP,
	MADCM_RNIC_TCP_RX_WND_DROP,
	MADCM_RNIC_TCP_RX_DUP_BYTES,
	MADCM_RNIC_TCP_RX_DUPACK,
	MADCM_RNIC_TCP_FAST_RETRANS,
	MADCM_RNIC_TCP_PROBES,
	MADCM_RNIC_TCP_TX_NOROOM,
	MADCM_RNIC_TCP_TX_DATA_BYTES,
	MADCM_RNIC_TCP_RTT_SAMPLES,
	MADCM_RNIC_TCP_DELACK,
	MADCM_RNIC_TCP_RX_CHALLENGE_LIMITED,
	MADCM_RNIC_TCP_NR
};

struct madcm_rnic_tcp;

/**
 * struct madcm_rnic_tcp_out - where the engine's output goes
 * @xmit: one frame to the wire (madcm_cm_offload_xmit())
 * @event: a report to the CM (madcm_cm_offload_event())
 * @qp_state: the stream moves the QP: IB_QPS_RTS at hand-off (0 or an
 *	error, which fails the hand-off), IB_QPS_ERR when it fails. Any
 *	context; must not sleep.
 * @release: the CM is done with the QP (after detach): drop the QP
 *	reference rnic/iw.c took for it
 * @rx_data: in-order stream bytes, each exactly once, in stream order,
 *	the hand-off context's @rcvd included. Called with @rx_lock held
 *	(BH off), never with @lock, never twice at once for one engine; it
 *	may call madcm_rnic_tcp_send() and madcm_rnic_tcp_abort(). NULL:
 *	the bytes are acknowledged and counted only.
 * @tx_room: send room was freed (ACKs moved SND.UNA): the upper layer
 *	may queue more. From the engine's work, no engine lock held. May be
 *	NULL.
 * @rx_start: the hand-off begins: the upper layer's receive side takes
 *	the context (MPA options, RTR); an error fails the hand-off (the QP
 *	stays as it was). From the CM's offload op, before @qp_state; must
 *	not sleep. May be NULL.
 * @tx_start: the engine is ESTABLISHED (madcm_rnic_tcp_send() works):
 *	the upper layer's send side starts (RTR, MSNs, IRD/ORD, its queues).
 *	From the CM's offload op with @rx_lock held, before the context's
 *	@rcvd goes to @rx_data; must not sleep. May be NULL.
 *
 * The QP's own table calls the CM and the verbs; the KUnit suite puts
 * its own in front of an engine to see what it sends.
 */
struct madcm_rnic_tcp_out {
	int (*xmit)(struct madcm_rnic_tcp *t, const u8 *frame, u32 len);
	void (*event)(struct madcm_rnic_tcp *t,
		      enum madcm_cm_offload_event ev, int status);
	int (*qp_state)(struct madcm_rnic_tcp *t, int state);
	void (*release)(struct madcm_rnic_tcp *t);
	void (*rx_data)(struct madcm_rnic_tcp *t, const u8 *data, u32 len);
	void (*tx_room)(struct madcm_rnic_tcp *t);
	int (*rx_start)(struct madcm_rnic_tcp *t,
			const struct madcm_cm_offload_ctx *ctx);
	void (*tx_start)(struct madcm_rnic_tcp *t,
			 const struct madcm_cm_offload_ctx *ctx);
};

/**
 * struct madcm_rnic_tcp_rec - one record of the send queue, or one piece
 *	of the out-of-order queue
 * @list: on &madcm_rnic_tcp.sndq or &madcm_rnic_tcp.ooo, in sequence order
 * @seq: the sequence number of its first byte
 * @len: how many bytes
 * @data: the bytes
 *
 * A send record is one FPDU and leaves as one segment (RFC 5044 5.2),
 * unless a zero-window probe or a partial ACK cut it.
 */
struct madcm_rnic_tcp_rec {
	struct list_head list;
	u32 seq;
	u32 len;
	u8 data[];
};

/**
 * struct madcm_rnic_tcp - a QP's TCP engine (in struct madcm_rnic_qp)
 * @out: where frames, events and stream bytes go
 * @lock: guards everything below (IRQ-safe)
 * @rx_lock: serializes the deliveries to @out->rx_data (BH off); taken
 *	before @lock, never inside it
 * @timer: retransmission, zero-window probes, and the FIN-WAIT-2 limit
 * @delack: the delayed-ACK timer
 * @tx_work: sends what is pending and reports events
 * @state: the TCP state
 * @detached: the CM is done with the QP: nothing more leaves
 * @addr: addresses, MACs, VLAN, TOS/TTL and flow label of the stream
 *	(the hand-off context's)
 * @snd_una: SND.UNA
 * @snd_nxt: SND.NXT: the next sequence number to send (pulled back to
 *	@snd_una by a retransmission timeout)
 * @snd_max: the highest sequence number sent, plus one (our FIN counts);
 *	ACKs are judged against it
 * @snd_end: the sequence number after the last queued byte
 * @snd_wnd: SND.WND, scaled, in bytes
 * @snd_wl1: SND.WL1
 * @snd_wl2: SND.WL2
 * @max_snd_wnd: the largest window the peer offered
 * @rcv_nxt: RCV.NXT
 * @rcv_wnd: RCV.WND, in bytes
 * @mss: the most payload per segment (the hand-off context's MSS)
 * @snd_wscale: the peer's window shift
 * @rcv_wscale: ours
 * @fin_queued: we close: FIN after the queued bytes
 * @fin_sent: our FIN is in the sequence space (at @snd_end)
 * @fin_rcvd: the peer's FIN was taken
 * @sndq: the send queue, &struct madcm_rnic_tcp_rec from @snd_una on
 * @unacked_len: the bytes from @snd_una to @snd_end
 * @snd_mem: what @sndq is charged
 * @ooo: the out-of-order queue, disjoint pieces beyond @rcv_nxt
 * @ooo_mem: what @ooo is charged
 * @ooo_segs: how many pieces
 * @cwnd: the congestion window (RFC 5681), bytes
 * @ssthresh: the slow start threshold, bytes
 * @dupacks: duplicate ACKs in a row
 * @in_recovery: in fast recovery (RFC 5681 3.2)
 * @srtt_us: SRTT (RFC 6298), 0 before the first measurement
 * @rttvar_us: RTTVAR
 * @rtt_seq: the sequence number whose ACK ends the running measurement
 * @rtt_start: when that segment left
 * @rtt_timing: a measurement is running
 * @rto_ms: the current retransmission timeout (backed off)
 * @rto_base_ms: the timeout computed from the RTT estimate
 * @rto_min_ms: the floor of the timeout (MADCM_RNIC_TCP_RTO_MIN_MS)
 * @delack_ms: the delayed-ACK timeout (MADCM_RNIC_TCP_DELACK_MS)
 * @retries: retransmission timeouts since the last new ACK
 * @ack_segs: data segments taken in order and not acknowledged yet
 * @last_send: when data last left (jiffies; RFC 5681 4.1)
 * @chal_stamp: when the current second of challenge ACKs began (jiffies)
 * @chal_count: challenge ACKs sent in it
 * @chal_limit: how many it may hold (MADCM_RNIC_TCP_CHALLENGE_PER_SEC)
 * @room: @out->tx_room is due
 * @tx_pending: MADCM_RNIC_TCP_TX_* bits: what @tx_work sends next
 * @ev_pending: MADCM_RNIC_TCP_EV_* bits: what @tx_work reports next
 * @ev_done: the events reported already (each at most once)
 * @reset_status: the status of a pending RESET
 * @cnt: counters, indexed by enum madcm_rnic_tcp_counter
 * @host: the stream is carried by a socket of the host's TCP (@ks), set
 *	at hand-off when rnic_host_tcp is; the calls of contract 1 and the
 *	CM's ops then go to rnic/qp_sock.c
 * @ks: that socket's side
 */
struct madcm_rnic_tcp {
	const struct madcm_rnic_tcp_out *out;
	spinlock_t lock;		/* the engine's state */
	spinlock_t rx_lock;		/* deliveries to @out->rx_data */
	struct timer_list timer;
	struct timer_list delack;
	struct work_struct tx_work;
	enum madcm_rnic_tcp_state state;
	bool detached;
	struct madcm_cm_tcp_ctx addr;
	u32 snd_una;
	u32 snd_nxt;
	u32 snd_max;
	u32 snd_end;
	u32 snd_wnd;
	u32 snd_wl1;
	u32 snd_wl2;
	u32 max_snd_wnd;
	u32 rcv_nxt;
	u32 rcv_wnd;
	u16 mss;
	u8 snd_wscale;
	u8 rcv_wscale;
	bool fin_queued;
	bool fin_sent;
	bool fin_rcvd;
	struct list_head sndq;
	u32 unacked_len;
	u32 snd_mem;
	struct list_head ooo;
	u32 ooo_mem;
	u32 ooo_segs;
	u32 cwnd;
	u32 ssthresh;
	u32 dupacks;
	bool in_recovery;
	u32 srtt_us;
	u32 rttvar_us;
	u32 rtt_seq;
	ktime_t rtt_start;
	bool rtt_timing;
	u32 rto_ms;
	u32 rto_base_ms;
	u32 rto_min_ms;
	u32 delack_ms;
	u32 retries;
	u32 ack_segs;
	unsigned long last_send;
	unsigned long chal_stamp;
	u32 chal_count;
	u32 chal_limit;
	bool room;
	unsigned long tx_pending;
	unsigned long ev_pending;
	unsigned long ev_done;
	int reset_status;
	u64 cnt[MADCM_RNIC_TCP_NR];
	bool host;
	struct madcm_rnic_ks ks;
};

/* tx_pending bits */
#define MADCM_RNIC_TCP_TX_ACK		0	/* an ACK (or challenge ACK) */
#define MADCM_RNIC_TCP_TX_RTX		1	/* the segment at SND.UNA */
#define MADCM_RNIC_TCP_TX_PROBE		2	/* a zero-window probe */
#define MADCM_RNIC_TCP_TX_RST		3	/* a RST, then nothing more */
#define MADCM_RNIC_TCP_TX_DATA		4	/* new data may go */

/* ev_pending / ev_done bits: enum madcm_cm_offload_event values */

void madcm_rnic_tcp_init(struct madcm_rnic_tcp *t,
			 const struct madcm_rnic_tcp_out *out);

/* Contract 1: the upper layer (RDMAP/DDP over MPA) on the engine. */
int madcm_rnic_tcp_send(struct madcm_rnic_tcp *t, const struct kvec *vec,
			unsigned int nvec, u32 len);
u8 *madcm_rnic_tcp_build_buf(struct madcm_rnic_tcp *t, u32 size);
int madcm_rnic_tcp_send_built(struct madcm_rnic_tcp *t, u8 *buf, u32 len);
u32 madcm_rnic_tcp_max_record(struct madcm_rnic_tcp *t);
u32 madcm_rnic_tcp_send_room(struct madcm_rnic_tcp *t);
void madcm_rnic_tcp_close_after_queue(struct madcm_rnic_tcp *t);
void madcm_rnic_tcp_abort(struct madcm_rnic_tcp *t, int status);

/* Pure rules of the engine, exposed for the KUnit suite. */
u32 madcm_rnic_tcp_new_acked(u32 snd_una, u32 snd_nxt, u32 ack);
bool madcm_rnic_tcp_wnd_update(u32 wl1, u32 wl2, u32 seq, u32 ack);
u32 madcm_rnic_tcp_next_rto(u32 rto_ms);
u16 madcm_rnic_tcp_wnd_field(u32 rcv_wnd, u8 rcv_wscale);
u32 madcm_rnic_tcp_rtt_update(u32 *srtt_us, u32 *rttvar_us, u32 r_us,
			      u32 g_us);
u32 madcm_rnic_tcp_initial_cwnd(u32 smss);
u32 madcm_rnic_tcp_cwnd_on_ack(u32 cwnd, u32 ssthresh, u32 acked, u32 smss);
u32 madcm_rnic_tcp_ssthresh_on_loss(u32 flight, u32 smss);

#endif /* _MADCM_RNIC_QP_TCP_H */
