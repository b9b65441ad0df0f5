/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software RNIC's TCP engine: one per QP, it carries the stream the
 * CM hands over at the offload boundary (<madcm/cm_offload.h>).
 *
 * This first version does what connection setup and teardown need: it
 * retransmits the bytes the CM left unacknowledged, takes ACKs, window
 * updates, RST (RFC 5961) and FIN, acknowledges (and counts, but does not
 * deliver) data, and closes with FIN or RST. DDP/RDMAP over MPA FPDUs
 * (the data path) builds on it: the send side then queues FPDUs behind
 * the CM's bytes, the receive side hands in-order payload to the FPDU
 * parser instead of counting it.
 *
 * Locking: @lock (IRQ-safe) guards the state; nothing calls out of the
 * engine with it held. Frames and events leave from @tx_work, one
 * context at a time, so the CM is never re-entered from its own calls
 * (offload, rx, close) into the QP.
 */
#ifndef _MADCM_RNIC_QP_TCP_H
#define _MADCM_RNIC_QP_TCP_H

#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <madcm/cm.h>
#include <madcm/cm_offload.h>

/*
 * The most bytes the CM may leave unacknowledged at hand-off: an MPA reply
 * or request with the most private data (20 + 512), and an RTR FPDU.
 */
#define MADCM_RNIC_TCP_UNACKED_MAX	640

/* Retransmission: the first RTO when the CM gives none, the ceiling and
 * the floor of the backoff, and how many retransmissions before RESET.
 */
#define MADCM_RNIC_TCP_RTO_INIT_MS	1000
#define MADCM_RNIC_TCP_RTO_MIN_MS	200
#define MADCM_RNIC_TCP_RTO_MAX_MS	60000
#define MADCM_RNIC_TCP_MAX_RETRIES	8
/* How long FIN-WAIT-2 waits for the peer's FIN. */
#define MADCM_RNIC_TCP_FIN_WAIT2_MS	60000

/**
 * enum madcm_rnic_tcp_state - RFC 9293's states, as far as a QP sees them
 * @MADCM_RNIC_TCP_IDLE: not offloaded (or detached)
 * @MADCM_RNIC_TCP_ESTABLISHED: carrying the stream
 * @MADCM_RNIC_TCP_FIN_WAIT_1: our FIN sent, not acknowledged
 * @MADCM_RNIC_TCP_FIN_WAIT_2: our FIN acknowledged, the peer's not in
 * @MADCM_RNIC_TCP_CLOSING: both FINs sent, ours not acknowledged
 * @MADCM_RNIC_TCP_LAST_ACK: the peer closed first; our FIN not acknowledged
 * @MADCM_RNIC_TCP_CLOSED: both FINs done (the CM keeps TIME-WAIT), or reset
 */
enum madcm_rnic_tcp_state {
	MADCM_RNIC_TCP_IDLE,
	MADCM_RNIC_TCP_ESTABLISHED,
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
 * @MADCM_RNIC_TCP_RX_OOO: data beyond RCV.NXT, dropped (duplicate ACK)
 * @MADCM_RNIC_TCP_RX_DATA_BYTES: in-order payload taken and acknowledged,
 *	not delivered (no data path yet)
 * @MADCM_RNIC_TCP_RX_RST: acceptable RSTs taken
 * @MADCM_RNIC_TCP_TX_SEGS: segments sent
 * @MADCM_RNIC_TCP_TX_ERR: segments the CM's xmit refused
 * @MADCM_RNIC_TCP_TX_NOMEM: segments not built for lack of memory (the
 *	retransmission timer recovers)
 * @MADCM_RNIC_TCP_RETRANS: retransmission timeouts
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
};

/**
 * struct madcm_rnic_tcp - a QP's TCP engine (in struct madcm_rnic_qp)
 * @out: where frames and events go
 * @lock: guards everything below
 * @timer: retransmission, and the FIN-WAIT-2 limit
 * @tx_work: sends what is pending and reports events
 * @state: the TCP state
 * @detached: the CM is done with the QP: nothing more leaves
 * @addr: addresses, MACs, VLAN, TOS/TTL and flow label of the stream
 *	(the hand-off context's)
 * @snd_una: SND.UNA
 * @snd_nxt: SND.NXT (the next new sequence number; our FIN counts)
 * @snd_wnd: SND.WND, scaled, in bytes
 * @snd_wl1: SND.WL1
 * @snd_wl2: SND.WL2
 * @max_snd_wnd: the largest window the peer offered
 * @rcv_nxt: RCV.NXT
 * @rcv_wnd: RCV.WND, in bytes
 * @mss: the most payload per segment
 * @snd_wscale: the peer's window shift
 * @rcv_wscale: ours
 * @fin_queued: the consumer closed: FIN after the queued bytes
 * @fin_sent: our FIN is in the sequence space (at @snd_nxt - 1)
 * @fin_rcvd: the peer's FIN was taken
 * @unacked: the bytes from @snd_una on, not acknowledged
 * @unacked_len: how many
 * @tx_copy: @tx_work's copy of @unacked, sent without @lock held
 * @rto_ms: the current retransmission timeout
 * @rto_base_ms: the timeout the backoff starts from again on new ACKs
 * @retries: retransmissions since the last new ACK
 * @tx_pending: MADCM_RNIC_TCP_TX_* bits: what @tx_work sends next
 * @ev_pending: MADCM_RNIC_TCP_EV_* bits: what @tx_work reports next
 * @ev_done: the events reported already (each at most once)
 * @reset_status: the status of a pending RESET
 * @cnt: counters, indexed by enum madcm_rnic_tcp_counter
 */
struct madcm_rnic_tcp {
	const struct madcm_rnic_tcp_out *out;
	spinlock_t lock;		/* the engine's state */
	struct timer_list timer;
	struct work_struct tx_work;
	enum madcm_rnic_tcp_state state;
	bool detached;
	struct madcm_cm_tcp_ctx addr;
	u32 snd_una;
	u32 snd_nxt;
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
	u8 unacked[MADCM_RNIC_TCP_UNACKED_MAX];
	u32 unacked_len;
	u8 tx_copy[MADCM_RNIC_TCP_UNACKED_MAX];
	u32 rto_ms;
	u32 rto_base_ms;
	u32 retries;
	unsigned long tx_pending;
	unsigned long ev_pending;
	unsigned long ev_done;
	int reset_status;
	u64 cnt[MADCM_RNIC_TCP_NR];
};

/* tx_pending bits */
#define MADCM_RNIC_TCP_TX_ACK		0	/* an ACK (or challenge ACK) */
#define MADCM_RNIC_TCP_TX_RTX		1	/* everything from SND.UNA */
#define MADCM_RNIC_TCP_TX_FIN		2	/* our FIN, first time */
#define MADCM_RNIC_TCP_TX_RST		3	/* a RST, then nothing more */

/* ev_pending / ev_done bits: enum madcm_cm_offload_event values */

void madcm_rnic_tcp_init(struct madcm_rnic_tcp *t,
			 const struct madcm_rnic_tcp_out *out);

/* Pure rules of the engine, exposed for the KUnit suite. */
u32 madcm_rnic_tcp_new_acked(u32 snd_una, u32 snd_nxt, u32 ack);
bool madcm_rnic_tcp_wnd_update(u32 wl1, u32 wl2, u32 seq, u32 ack);
u32 madcm_rnic_tcp_next_rto(u32 rto_ms);
u16 madcm_rnic_tcp_wnd_field(u32 rcv_wnd, u8 rcv_wscale);

#endif /* _MADCM_RNIC_QP_TCP_H */
