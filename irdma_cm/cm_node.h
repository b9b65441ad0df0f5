/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct irdma_cm_node: one iWARP connection as the CM sees it: what the
 * MPA exchange needs, and the connection state machine's TCP state,
 * timers, buffers, events and table linkage.
 */
#ifndef _MADCM_IRDMA_CM_CM_NODE_H
#define _MADCM_IRDMA_CM_CM_NODE_H

#include <linux/bits.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/rhashtable-types.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <madcm/cm.h>
#include "irdma_cm/cm_handle.h"
#include "irdma_cm/mpa.h"
#include "irdma_cm/tcp_seg.h"

/* Which side of the MPA exchange this node is. */
enum irdma_cm_role {
	IRDMA_CM_ROLE_INITIATOR,	/* sends the request, reads the reply */
	IRDMA_CM_ROLE_RESPONDER,	/* reads the request, sends the reply */
};

/* The RTR message types of RFC 6581, as a mask of what a node can do. */
enum irdma_rtr_type {
	IRDMA_RTR_NONE = 0,
	IRDMA_RTR_SEND = BIT(0),	/* zero-length Send */
	IRDMA_RTR_WRITE = BIT(1),	/* zero-length RDMA Write */
	IRDMA_RTR_READ = BIT(2),	/* zero-length RDMA Read */
};

#define IRDMA_RTR_ALL	(IRDMA_RTR_SEND | IRDMA_RTR_WRITE | IRDMA_RTR_READ)

/**
 * struct irdma_mpa_priv_info - private data to send
 * @addr: the bytes, owned by the caller
 * @size: how many
 */
struct irdma_mpa_priv_info {
	const void *addr;
	u32 size;
};

/**
 * struct irdma_kmem_info - a buffer to build into
 * @addr: where
 * @size: its size in bytes
 */
struct irdma_kmem_info {
	void *addr;
	u32 size;
};

/* The largest MPA request/reply/reject frame: header and private data. */
#define IRDMA_CM_MPA_MAX_FRAME	(sizeof(struct ietf_mpa_v1) + \
				 IETF_MAX_PRIV_DATA_LEN)

/**
 * enum irdma_cm_state - a connection's lifecycle
 * @IRDMA_CM_STATE_CLOSED: not yet opened, or over
 * @IRDMA_CM_STATE_SYN_SENT: RFC 9293 SYN-SENT
 * @IRDMA_CM_STATE_SYN_RCVD: RFC 9293 SYN-RECEIVED
 * @IRDMA_CM_STATE_MPA_REQ_SENT: TCP ESTABLISHED; initiator: the MPA
 *	request is out, the reply awaited
 * @IRDMA_CM_STATE_MPA_REQ_WAIT: TCP ESTABLISHED; responder: the request
 *	awaited
 * @IRDMA_CM_STATE_MPA_REQ_RCVD: TCP ESTABLISHED; responder: the consumer
 *	decides on the request
 * @IRDMA_CM_STATE_MPA_RTR_WAIT: TCP ESTABLISHED; initiator: the reply is
 *	in, the RTR message queued; peer-to-peer responder: the reply is
 *	sent, the initiator's RTR message awaited (RFC 6581)
 * @IRDMA_CM_STATE_ESTABLISHED: TCP ESTABLISHED, MPA done: the CM keeps
 *	the stream (no offload QP)
 * @IRDMA_CM_STATE_OFFLOADED: TCP ESTABLISHED, MPA done, the stream
 *	handed to an offload QP (cm_offload.c): the CM sends, receives and
 *	times nothing on it
 * @IRDMA_CM_STATE_FIN_WAIT1: RFC 9293 FIN-WAIT-1
 * @IRDMA_CM_STATE_FIN_WAIT2: RFC 9293 FIN-WAIT-2
 * @IRDMA_CM_STATE_CLOSE_WAIT: RFC 9293 CLOSE-WAIT
 * @IRDMA_CM_STATE_CLOSING: RFC 9293 CLOSING
 * @IRDMA_CM_STATE_LAST_ACK: RFC 9293 LAST-ACK
 * @IRDMA_CM_STATE_TIME_WAIT: RFC 9293 TIME-WAIT
 * @IRDMA_CM_STATE_NR: number of states
 *
 * RFC 9293's states without LISTEN (a listener is not a node), with
 * ESTABLISHED split by where the MPA exchange on top of it stands: the
 * exchange runs entirely within TCP ESTABLISHED. Whether our FIN is sent
 * or the peer's received follows from the state (irdma_cm_fin_sent(),
 * irdma_cm_fin_rcvd()).
 */
enum irdma_cm_state {
	IRDMA_CM_STATE_CLOSED,
	IRDMA_CM_STATE_SYN_SENT,
	IRDMA_CM_STATE_SYN_RCVD,
	IRDMA_CM_STATE_MPA_REQ_SENT,
	IRDMA_CM_STATE_MPA_REQ_WAIT,
	IRDMA_CM_STATE_MPA_REQ_RCVD,
	IRDMA_CM_STATE_MPA_RTR_WAIT,
	IRDMA_CM_STATE_ESTABLISHED,
	IRDMA_CM_STATE_OFFLOADED,
	IRDMA_CM_STATE_FIN_WAIT1,
	IRDMA_CM_STATE_FIN_WAIT2,
	IRDMA_CM_STATE_CLOSE_WAIT,
	IRDMA_CM_STATE_CLOSING,
	IRDMA_CM_STATE_LAST_ACK,
	IRDMA_CM_STATE_TIME_WAIT,
	IRDMA_CM_STATE_NR
};

/**
 * enum irdma_cm_mpa_result - how the MPA exchange ended
 * @IRDMA_MPA_PENDING: not over (always so before ESTABLISHED or a close)
 * @IRDMA_MPA_ACCEPTED: reply sent or received (always so in ESTABLISHED)
 * @IRDMA_MPA_REJECTED: reject sent or received
 * @IRDMA_MPA_FAILED: timeout, a bad frame, a RST or FIN in the middle
 *
 * It decides how a closing connection ends (CLOSE or RESET) and what a
 * close asked for by the consumer does.
 */
enum irdma_cm_mpa_result {
	IRDMA_MPA_PENDING,
	IRDMA_MPA_ACCEPTED,
	IRDMA_MPA_REJECTED,
	IRDMA_MPA_FAILED,
};

/**
 * enum irdma_cm_node_flag - the bits of &irdma_cm_node.flags
 * @IRDMA_CM_F_HASHED: in the connection table
 * @IRDMA_CM_F_IN_BACKLOG: counted in the listener's backlog
 * @IRDMA_CM_F_QH_ADDED: a connection steering entry was added
 * @IRDMA_CM_F_CONSUMER: the consumer holds the node (connect or
 *	CONNECT_REQUEST)
 * @IRDMA_CM_F_RELEASED: the consumer called madcm_cm_release()
 * @IRDMA_CM_F_TERMINAL_SENT: the terminal event is queued
 * @IRDMA_CM_F_MAC_RESOLVED: the next hop's MAC address is known
 * @IRDMA_CM_F_TX_QUEUED: the CM data in tx_buf has entered the sequence
 *	space
 * @IRDMA_CM_F_OFFLOADED: the stream was handed to the offload QP (stays
 *	set in the TIME-WAIT the CM may take back afterwards)
 * @IRDMA_CM_F_OFF_FIN_RCVD: the QP reported the peer's FIN
 * @IRDMA_CM_F_OFF_CLOSING: the QP was asked to close (FIN)
 * @IRDMA_CM_F_OFF_ACTIVE_CLOSE: ... before the peer's FIN was reported:
 *	our FIN went first, the CM takes the tuple back for TIME-WAIT
 * @IRDMA_CM_F_RTT_TIMING: a segment is being timed (@rtt_seq, @rtt_start)
 * @IRDMA_CM_F_RTT_VALID: @srtt8 and @rttvar4 hold a measurement
 * @IRDMA_CM_F_PROBING: the peer's window is shut and a zero-window probe
 *	went out
 * @IRDMA_CM_F_ACCEPTING: madcm_cm_accept() adds the steering entry
 * @IRDMA_CM_F_TW_COUNTED: in TIME-WAIT, counted in the core's
 *	time_wait_nodes
 * @IRDMA_CM_F_OFF_FIN_SEQ: the QP reported the stream's last sequence
 *	numbers (@qp_fin_snd_nxt, @qp_fin_rcv_nxt) with its CLOSED
 * @IRDMA_CM_F_QH_TAKEN: the steering entry whose removal is queued
 *	(@qh_work) went to a new connection of the same 4-tuple; the work
 *	leaves it
 * @IRDMA_CM_F_SYN_TIMED_OUT: our SYN or SYN-ACK was retransmitted after a
 *	timeout of an RTO under 3 s: the RTO is 3 s when the handshake
 *	completes (RFC 6298 5.7)
 * @IRDMA_CM_F_OFF_HOST: the QP carries the stream on a socket of the
 *	host's TCP (madcm_cm_offload_unsteer()): the steering entry is gone
 *	and the host keeps the TIME-WAIT
 * @IRDMA_CM_F_OFFER_TS: our SYN offers timestamps (MADCM_CM_TCP_TS)
 * @IRDMA_CM_F_OFFER_SACK: ... and SACK-permitted (MADCM_CM_TCP_SACK)
 * @IRDMA_CM_F_TS_OK: both SYNs carried timestamps: every segment but a
 *	RST carries them from then on, and PAWS applies (RFC 7323 3.2, 5)
 * @IRDMA_CM_F_SACK_OK: both SYNs carried SACK-permitted (RFC 2018 2)
 *
 * Set and cleared with the atomic bitops: @IRDMA_CM_F_RELEASED and
 * @IRDMA_CM_F_IN_BACKLOG are read without the node lock.
 */
enum irdma_cm_node_flag {
	IRDMA_CM_F_HASHED,
	IRDMA_CM_F_IN_BACKLOG,
	IRDMA_CM_F_QH_ADDED,
	IRDMA_CM_F_CONSUMER,
	IRDMA_CM_F_RELEASED,
	IRDMA_CM_F_TERMINAL_SENT,
	IRDMA_CM_F_MAC_RESOLVED,
	IRDMA_CM_F_TX_QUEUED,
	IRDMA_CM_F_OFFLOADED,
	IRDMA_CM_F_OFF_FIN_RCVD,
	IRDMA_CM_F_OFF_CLOSING,
	IRDMA_CM_F_OFF_ACTIVE_CLOSE,
	IRDMA_CM_F_RTT_TIMING,
	IRDMA_CM_F_RTT_VALID,
	IRDMA_CM_F_PROBING,
	IRDMA_CM_F_ACCEPTING,
	IRDMA_CM_F_TW_COUNTED,
	IRDMA_CM_F_OFF_FIN_SEQ,
	IRDMA_CM_F_QH_TAKEN,
	IRDMA_CM_F_SYN_TIMED_OUT,
	IRDMA_CM_F_OFF_HOST,
	IRDMA_CM_F_OFFER_TS,
	IRDMA_CM_F_OFFER_SACK,
	IRDMA_CM_F_TS_OK,
	IRDMA_CM_F_SACK_OK,
};

/* The deadlines of &irdma_cm_node.armed, one timer for all. */
enum irdma_cm_timer_bits {
	IRDMA_CM_TIMER_REXMIT = BIT(0),	/* something is unacknowledged */
	IRDMA_CM_TIMER_MPA = BIT(1),	/* the MPA exchange's timeout */
	IRDMA_CM_TIMER_CLOSE = BIT(2),	/* TIME-WAIT or FIN-WAIT-2 */
};

/* The MPA options of &irdma_cm_node.mpa_opts: what each side asked for. */
enum irdma_mpa_opt_bits {
	IRDMA_MPA_OPT_P2P = BIT(0),	/* RFC 6581 peer-to-peer: an RTR */
	IRDMA_MPA_OPT_CRC = BIT(1),	/* the C flag we send */
	IRDMA_MPA_OPT_MARKERS = BIT(2),	/* the M flag we send */
	IRDMA_MPA_OPT_PEER_CRC = BIT(3),	/* the C flag the peer sent */
	IRDMA_MPA_OPT_PEER_MARKERS = BIT(4),	/* the M flag the peer sent */
	/* A responder answering a revision 2 request that had S clear. */
	IRDMA_MPA_OPT_PLAIN_V2 = BIT(5),
};

/*
 * The events a node can deliver: each has its own slot, allocated with
 * the node. The slots of the connection setup (CONNECT, ESTABLISHED) are
 * in &struct irdma_cm_setup, freed once ESTABLISHED is delivered; those
 * an established connection may still need are in the node.
 */
enum irdma_cm_ev_slot {
	IRDMA_CM_EV_CONNECT,	/* CONNECT_REQUEST or CONNECT_REPLY */
	IRDMA_CM_EV_ESTABLISHED,
	IRDMA_CM_EV_DISCONNECT,
	IRDMA_CM_EV_TERMINAL,	/* REJECTED, RESET or CLOSE */
	IRDMA_CM_EV_NR
};

#define IRDMA_CM_EV_SETUP_NR	(IRDMA_CM_EV_ESTABLISHED + 1)

struct irdma_cm_node;
struct irdma_cm_core;
struct irdma_cm_listener;

/**
 * struct irdma_cm_tuple - a connection's key in the connection table
 * @loc_ip: our address (IPv4-mapped for IPv4)
 * @rem_ip: the peer's address
 * @loc_port: our port
 * @rem_port: the peer's port
 * @vlan_id: VLAN ID or IRDMA_NO_VLAN
 * @pad: zero
 */
struct irdma_cm_tuple {
	struct in6_addr loc_ip;
	struct in6_addr rem_ip;
	u16 loc_port;
	u16 rem_port;
	u16 vlan_id;
	u16 pad;
};

/**
 * struct irdma_cm_event_slot - one preallocated consumer event
 * @work: runs on the core's ordered event workqueue
 * @node: the connection (a reference is held while queued)
 * @handler: whom to tell, captured when queued
 * @context: its argument
 * @ev: the event
 */
struct irdma_cm_event_slot {
	struct work_struct work;
	struct irdma_cm_node *node;
	madcm_cm_event_handler handler;
	void *context;
	struct madcm_cm_event ev;
};

/**
 * struct irdma_cm_setup - what only the connection setup needs
 * @ev: the CONNECT and ESTABLISHED event slots
 * @tcp_ctx: the TCP context ESTABLISHED carries
 * @rtr_work: sends a peer-to-peer initiator's RTR message in process
 *	context
 * @rx_frame: the peer's MPA frame once complete: &irdma_cm_node.rcvd_pdata
 *	points into it
 * @node: the node (for @rtr_work)
 *
 * Allocated with the node, so that no event of the setup waits for an
 * allocation; freed (irdma_cm_setup_free()) by the work that delivers
 * ESTABLISHED, or with the node when the connection never gets there.
 */
struct irdma_cm_setup {
	struct irdma_cm_event_slot ev[IRDMA_CM_EV_SETUP_NR];
	struct madcm_cm_tcp_ctx tcp_ctx;
	struct delayed_work rtr_work;
	u8 *rx_frame;
	struct irdma_cm_node *node;
};

/**
 * struct irdma_cm_node - a connection: MPA parameters and TCP state
 * @role: initiator or responder
 * @mpa_frame_rev: the revision we offer; once a frame is parsed, the one
 *	both sides use
 * @pdata: private data for the next frame we send
 * @rcvd_pdata_len: bytes of private data the peer sent, IRD/ORD excluded
 * @rcvd_pdata: the peer's private data, in the frame irdma_parse_mpa()
 *	read (for the CM, &irdma_cm_setup.rx_frame)
 * @max_ird: the most inbound RDMA Reads the device can keep in flight
 * @max_ord: the most outbound RDMA Reads the device can issue
 * @ird_size: our inbound RDMA Read queue depth
 * @ord_size: our outbound RDMA Read queue depth
 * @mpav2_ird_ord: IETF_NO_IRD_ORD when no IRD/ORD values are exchanged
 * @rtr_caps: the RTR types (enum irdma_rtr_type) we can send or accept
 * @send_rdma0_op: the RTR type chosen for this connection
 * @mpa_opts: enum irdma_mpa_opt_bits: peer-to-peer (RFC 6581), and the
 *	CRC and markers we ask for and the peer asked for
 *
 * The rest belongs to the connection state machine (cm_core.c, cm_tcp.c,
 * cm_timer.c, cm_mpa.c); @lock guards everything below it unless noted.
 *
 * @core: the cm_core the node belongs to (immutable)
 * @key: the connection table key (immutable once hashed)
 * @hnode: connection table linkage
 * @list: the core's list of hashed nodes (core->lock)
 * @all: the core's list of every allocated node (core->lock), for the
 *	stop's report of what consumers still hold
 * @embryo: its listener's list of connections a full backlog may evict
 *	(listener->embryo_lock)
 * @rcu: deferred free
 * @refcnt: references: the table, a pending timer, each queued event,
 *	the consumer and every caller working on the node
 * @lock: the node lock (BH-safe)
 * @timer: the node's one timer, armed for the earliest of its deadlines
 * @txq: frames built under @lock, sent by irdma_cm_node_unlock()
 * @qh_work: removes the connection's steering entry in process context
 * @qh_dying: on the core's @qh_dying while @qh_work is queued
 * @listener: the listener a passive node came from (a reference), or NULL
 * @setup: what only the connection setup needs, until ESTABLISHED is
 *	delivered; NULL after
 * @ev: the DISCONNECT and TERMINAL event slots
 * @state: the lifecycle, enum irdma_cm_state (irdma_cm_set_state())
 * @mpa_result: how the MPA exchange ended
 * @flags: enum irdma_cm_node_flag
 * @loc_mac: our MAC address
 * @rem_mac: the next hop's MAC address
 * @tos: TOS / traffic class we send
 * @ttl: TTL / hop limit we send
 * @flow_label: IPv6 flow label we send
 * @iss: initial send sequence number
 * @irs: initial receive sequence number
 * @snd_una: RFC 9293 SND.UNA
 * @snd_nxt: SND.NXT, past everything queued: the CM data enters the
 *	sequence space at once, and leaves as the peer's window allows
 * @snd_high: past the last octet (or SYN or FIN) actually sent
 * @snd_wnd: SND.WND, scaled
 * @snd_wl1: SND.WL1
 * @snd_wl2: SND.WL2
 * @max_snd_wnd: the largest window the peer offered
 * @rcv_nxt: RCV.NXT
 * @rcv_wnd: RCV.WND
 * @fin_seq: the sequence number of our FIN, once irdma_cm_fin_sent()
 * @loc_mss: the MSS we offered
 * @snd_mss: the most payload we put in a segment
 * @snd_wscale: the peer's shift
 * @rcv_wscale: our shift; not zero when both sides sent a window scale
 *	option (irdma_cm_wscale_ok())
 * @tx_buf: the CM data we send (one MPA frame and, for a peer-to-peer
 *	initiator, the RTR FPDU after it), allocated when the frame is
 *	built, freed once the exchange is over and all of it acknowledged
 *	(irdma_cm_tx_done())
 * @tx_size: the size of @tx_buf
 * @tx_len: bytes of CM data (they stay counted once @tx_buf is freed)
 * @tx_seq: sequence number of @tx_buf[0]; valid once IRDMA_CM_F_TX_QUEUED
 * @rx_buf: reassembly of the peer's MPA frame or RTR FPDU, allocated and
 *	grown as its bytes arrive (irdma_cm_rx_room()), NULL in between
 * @rx_size: the size of @rx_buf
 * @rx_len: bytes in @rx_buf
 * @tx_acks: segments with ACK built so far (to spare a redundant ACK)
 * @retrans: retransmissions of the current unacknowledged data
 * @ts_recent: TS.Recent, the peer's timestamp we echo (RFC 7323 4.3), with
 *	IRDMA_CM_F_TS_OK
 * @rto: current retransmission timeout, in jiffies
 * @rto_base: the RTO without backoff: RFC 6298's SRTT + 4 * RTTVAR once
 *	measured, the core's initial RTO before
 * @srtt8: RFC 6298 SRTT, in jiffies, times 8
 * @rttvar4: RFC 6298 RTTVAR, in jiffies, times 4
 * @rtt_seq: the segment being timed is acknowledged by an ACK of this
 * @last_ack_sent: Last.ACK.sent, RCV.NXT as our last ACK carried it
 * @rtt_start: when it was sent
 * @resolve_until: while the next hop is unresolved, when the wait counts
 *	as a retransmission (one RTO after the send that found it so)
 * @chack_start: start of the current challenge ACK period (RFC 5961 7)
 * @chack_count: challenge ACKs sent in it
 * @oow_ack_at: the low 32 bits of jiffies when the last ACK to an
 *	out-of-window segment or to an ACK of unsent data left; 0 for none
 *	yet (rate limit, as Linux's tcp_invalid_ratelimit)
 * @rexmit_at: retransmission deadline, when IRDMA_CM_TIMER_REXMIT is armed
 * @mpa_at: MPA timeout, when IRDMA_CM_TIMER_MPA is armed
 * @close_at: TIME_WAIT or FIN_WAIT2 deadline, when IRDMA_CM_TIMER_CLOSE
 *	is armed
 * @armed: enum irdma_cm_timer_bits: the deadlines that are set
 * @rtr_len: peer-to-peer responder: the length of the initiator's RTR
 *	FPDU once all of it is in @rx_buf
 * @oqp: the offload QP the stream goes to, from connect or accept until
 *	the terminal event (cm_offload.c)
 * @detach_qp: the QP @detach_work detaches
 * @steer_target: the target @steer_work gives the steering entry
 * @qp_ev: the QP's reports not yet handled (bits of enum
 *	madcm_cm_offload_event), set without @lock
 * @qp_ev_status: the status of the first RESET the QP reported
 * @qp_fin_snd_nxt: with IRDMA_CM_F_OFF_FIN_SEQ: the sequence number after
 *	the QP's FIN
 * @qp_fin_rcv_nxt: ... and after the peer's
 * @qp_ev_work: handles @qp_ev in process context
 * @steer_work: retargets the steering entry in process context
 * @detach_work: calls the QP's ->detach() in process context
 * @handler: the consumer's event handler
 * @context: its argument
 * @handle: what the consumer holds
 */
struct irdma_cm_node {
	enum irdma_cm_role role;
	enum mpa_frame_ver mpa_frame_rev;
	struct irdma_mpa_priv_info pdata;
	u16 rcvd_pdata_len;
	const u8 *rcvd_pdata;
	u16 max_ird;
	u16 max_ord;
	u16 ird_size;
	u16 ord_size;
	u16 mpav2_ird_ord;
	u8 rtr_caps;
	u8 send_rdma0_op;
	u8 mpa_opts;

	struct irdma_cm_core *core;
	struct irdma_cm_tuple key;
	struct rhash_head hnode;
	struct list_head list;
	struct list_head all;
	struct list_head embryo;
	struct rcu_head rcu;
	refcount_t refcnt;
	spinlock_t lock;	/* see the kernel-doc above */
	struct timer_list timer;
	struct list_head txq;
	struct work_struct qh_work;
	struct list_head qh_dying;
	struct irdma_cm_listener *listener;
	struct irdma_cm_setup *setup;
	struct irdma_cm_event_slot ev[IRDMA_CM_EV_NR - IRDMA_CM_EV_SETUP_NR];

	enum irdma_cm_state state;
	enum irdma_cm_mpa_result mpa_result;
	unsigned long flags;
	u8 loc_mac[ETH_ALEN];
	u8 rem_mac[ETH_ALEN];
	u8 tos;
	u8 ttl;
	u32 flow_label;

	u32 iss;
	u32 irs;
	u32 snd_una;
	u32 snd_nxt;
	u32 snd_high;
	u32 snd_wnd;
	u32 snd_wl1;
	u32 snd_wl2;
	u32 max_snd_wnd;
	u32 rcv_nxt;
	u32 rcv_wnd;
	u32 fin_seq;
	u16 loc_mss;
	u16 snd_mss;
	u8 snd_wscale;
	u8 rcv_wscale;

	u8 *tx_buf;
	u16 tx_size;
	u16 rx_size;
	u32 tx_len;
	u32 tx_seq;
	u8 *rx_buf;
	u32 rx_len;

	u32 tx_acks;
	u32 retrans;
	u32 ts_recent;
	unsigned long rto;
	unsigned long rto_base;
	u32 srtt8;
	u32 rttvar4;
	u32 rtt_seq;
	u32 last_ack_sent;
	unsigned long rtt_start;
	unsigned long resolve_until;
	unsigned long chack_start;
	u32 chack_count;
	u32 oow_ack_at;
	unsigned long rexmit_at;
	unsigned long mpa_at;
	unsigned long close_at;
	u8 armed;

	u32 rtr_len;
	struct madcm_cm_offload_qp *oqp;
	struct madcm_cm_offload_qp *detach_qp;
	struct madcm_cm_offload_qp *steer_target;
	unsigned long qp_ev;
	int qp_ev_status;
	u32 qp_fin_snd_nxt;
	u32 qp_fin_rcv_nxt;
	struct work_struct qp_ev_work;
	struct work_struct steer_work;
	struct work_struct detach_work;

	madcm_cm_event_handler handler;
	void *context;
	struct madcm_cm_conn handle;
};

/* An IPv4 connection: its addresses are IPv4-mapped. */
static inline bool irdma_cm_node_ipv4(const struct irdma_cm_node *node)
{
	return ipv6_addr_v4mapped(&node->key.rem_ip);
}

/* TCP is ESTABLISHED: the MPA exchange runs, or is done. */
static inline bool irdma_cm_tcp_estab(const struct irdma_cm_node *node)
{
	return node->state >= IRDMA_CM_STATE_MPA_REQ_SENT &&
	       node->state <= IRDMA_CM_STATE_ESTABLISHED;
}

/* Our FIN is in the sequence space (at @fin_seq). */
static inline bool irdma_cm_fin_sent(const struct irdma_cm_node *node)
{
	switch (node->state) {
	case IRDMA_CM_STATE_FIN_WAIT1:
	case IRDMA_CM_STATE_FIN_WAIT2:
	case IRDMA_CM_STATE_CLOSING:
	case IRDMA_CM_STATE_LAST_ACK:
	case IRDMA_CM_STATE_TIME_WAIT:
		return true;
	default:
		return false;
	}
}

/* The peer's FIN was received. */
static inline bool irdma_cm_fin_rcvd(const struct irdma_cm_node *node)
{
	switch (node->state) {
	case IRDMA_CM_STATE_CLOSE_WAIT:
	case IRDMA_CM_STATE_CLOSING:
	case IRDMA_CM_STATE_LAST_ACK:
	case IRDMA_CM_STATE_TIME_WAIT:
		return true;
	default:
		return false;
	}
}

/* A new node's MPA options: what the consumer asked for. */
static inline void irdma_cm_set_mpa_opts(struct irdma_cm_node *node,
					 bool peer_to_peer, bool crc)
{
	node->mpa_opts = (peer_to_peer ? IRDMA_MPA_OPT_P2P : 0) |
			 (crc ? IRDMA_MPA_OPT_CRC : 0);
}

/* FPDUs carry a CRC: either side set C in its MPA frame. */
static inline bool irdma_cm_mpa_crc(const struct irdma_cm_node *node)
{
	return node->mpa_opts & (IRDMA_MPA_OPT_CRC | IRDMA_MPA_OPT_PEER_CRC);
}

/* Both sides sent a window scale option (RFC 7323). */
static inline bool irdma_cm_wscale_ok(const struct irdma_cm_node *node)
{
	return node->rcv_wscale != 0;
}

#endif /* _MADCM_IRDMA_CM_CM_NODE_H */
