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
#include <madcm/cm.h>
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

/* RFC 9293 3.3.2, without LISTEN (a listener is not a node). */
enum irdma_cm_tcp_state {
	IRDMA_TCP_CLOSED,
	IRDMA_TCP_SYN_SENT,
	IRDMA_TCP_SYN_RCVD,
	IRDMA_TCP_ESTABLISHED,
	IRDMA_TCP_FIN_WAIT1,
	IRDMA_TCP_FIN_WAIT2,
	IRDMA_TCP_CLOSE_WAIT,
	IRDMA_TCP_CLOSING,
	IRDMA_TCP_LAST_ACK,
	IRDMA_TCP_TIME_WAIT,
	IRDMA_TCP_NR_STATES
};

/* Where the MPA exchange on top of TCP stands. */
enum irdma_cm_mpa_state {
	IRDMA_MPA_IDLE,		/* TCP not yet established */
	IRDMA_MPA_REQ_SENT,	/* initiator: waiting for the reply */
	IRDMA_MPA_REQ_WAIT,	/* responder: waiting for the request */
	IRDMA_MPA_REQ_RCVD,	/* responder: the consumer decides */
	IRDMA_MPA_RTR_WAIT,	/* initiator: reply in, RTR message queued */
	IRDMA_MPA_DONE,		/* established; the QP owns the stream */
	IRDMA_MPA_REJECTED,	/* reject sent or received */
	IRDMA_MPA_FAILED,	/* timeout or a bad frame */
};

/* The events a node can deliver: each has its own preallocated slot. */
enum irdma_cm_ev_slot {
	IRDMA_CM_EV_CONNECT,	/* CONNECT_REQUEST or CONNECT_REPLY */
	IRDMA_CM_EV_ESTABLISHED,
	IRDMA_CM_EV_DISCONNECT,
	IRDMA_CM_EV_TERMINAL,	/* REJECTED, RESET or CLOSE */
	IRDMA_CM_EV_NR
};

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
 * @tcp_ctx: the TCP context, for ESTABLISHED
 */
struct irdma_cm_event_slot {
	struct work_struct work;
	struct irdma_cm_node *node;
	madcm_cm_event_handler handler;
	void *context;
	struct madcm_cm_event ev;
	struct madcm_cm_tcp_ctx tcp_ctx;
};

/**
 * struct irdma_cm_node - a connection: MPA parameters and TCP state
 * @role: initiator or responder
 * @mpa_frame_rev: the revision we offer; once a frame is parsed, the one
 *	both sides use
 * @pdata: private data for the next frame we send
 * @rcvd_pdata_len: bytes of private data the peer sent, IRD/ORD excluded
 * @rcvd_pdata: the peer's private data
 * @max_ird: the most inbound RDMA Reads the device can keep in flight
 * @max_ord: the most outbound RDMA Reads the device can issue
 * @ird_size: our inbound RDMA Read queue depth
 * @ord_size: our outbound RDMA Read queue depth
 * @mpav2_ird_ord: IETF_NO_IRD_ORD when no IRD/ORD values are exchanged
 * @rtr_caps: the RTR types (enum irdma_rtr_type) we can send or accept
 * @send_rdma0_op: the RTR type chosen for this connection
 * @peer_to_peer: we use RFC 6581's peer-to-peer model (an RTR message)
 * @mpa_crc: we ask for CRC on FPDUs (the C flag we send)
 * @rcv_mark_en: we ask for markers in what we receive (the M flag we send)
 * @peer_crc: the peer asked for CRC
 * @snd_mark_en: the peer asked for markers in what we send
 *
 * The rest belongs to the connection state machine (cm_core.c, cm_tcp.c,
 * cm_timer.c, cm_mpa.c); @lock guards everything below it unless noted.
 *
 * @core: the cm_core the node belongs to (immutable)
 * @key: the connection table key (immutable once hashed)
 * @hnode: connection table linkage
 * @list: the core's list of all nodes (core->lock)
 * @rcu: deferred free
 * @refcnt: references: the table, a pending timer, each queued event,
 *	the consumer and every caller working on the node
 * @lock: the node lock (BH-safe)
 * @timer: the node's one timer, armed for the earliest of its deadlines
 * @txq: frames built under @lock, sent by irdma_cm_node_unlock()
 * @qh_work: removes the connection's steering entry in process context
 * @rtr_work: sends a peer-to-peer initiator's RTR message in process
 *	context
 * @listener: the listener a passive node came from (a reference), or NULL
 * @ev: the event slots
 * @tcp_state: RFC 9293 state
 * @mpa_state: MPA exchange state
 * @ipv4: an IPv4 connection
 * @hashed: in the connection table
 * @in_backlog: counted in @listener's backlog
 * @qh_added: a connection steering entry was added
 * @consumer: the consumer holds the node (connect or CONNECT_REQUEST)
 * @released: the consumer called madcm_cm_release()
 * @terminal_sent: the terminal event is queued
 * @established_sent: ESTABLISHED is queued
 * @close_requested: the consumer asked for a graceful close
 * @mac_resolved: @rem_mac is known
 * @wscale_ok: both sides sent a window scale option
 * @fin_sent: our FIN is in the sequence space (at @fin_seq)
 * @fin_rcvd: the peer's FIN was received
 * @loc_mac: our MAC address
 * @rem_mac: the next hop's MAC address
 * @tos: TOS / traffic class we send
 * @ttl: TTL / hop limit we send
 * @flow_label: IPv6 flow label we send
 * @iss: initial send sequence number
 * @irs: initial receive sequence number
 * @snd_una: RFC 9293 SND.UNA
 * @snd_nxt: SND.NXT
 * @snd_wnd: SND.WND, scaled
 * @snd_wl1: SND.WL1
 * @snd_wl2: SND.WL2
 * @max_snd_wnd: the largest window the peer offered
 * @rcv_nxt: RCV.NXT
 * @rcv_wnd: RCV.WND
 * @fin_seq: the sequence number of our FIN
 * @loc_mss: the MSS we offered
 * @snd_mss: the most payload we put in a segment
 * @snd_wscale: the peer's shift
 * @rcv_wscale: our shift
 * @tx_buf: the CM data we send (one MPA frame and, for a peer-to-peer
 *	initiator, the RTR FPDU after it), kept until acknowledged
 * @tx_len: bytes in @tx_buf
 * @tx_seq: sequence number of @tx_buf[0]; valid once @tx_queued
 * @tx_queued: @tx_buf has entered the sequence space
 * @rx_buf: reassembly of the peer's MPA frame
 * @rx_len: bytes in @rx_buf
 * @tx_acks: segments with ACK built so far (to spare a redundant ACK)
 * @retrans: retransmissions of the current unacknowledged data
 * @rto: current retransmission timeout, in jiffies
 * @rexmit_at: retransmission deadline, when @rexmit_armed
 * @mpa_at: MPA timeout, when @mpa_armed
 * @close_at: TIME_WAIT or FIN_WAIT2 deadline, when @close_armed
 * @rexmit_armed: something is unacknowledged
 * @mpa_armed: the MPA exchange is running against its timeout
 * @close_armed: a close timer runs
 * @handler: the consumer's event handler
 * @context: its argument
 */
struct irdma_cm_node {
	enum irdma_cm_role role;
	enum mpa_frame_ver mpa_frame_rev;
	struct irdma_mpa_priv_info pdata;
	u16 rcvd_pdata_len;
	u8 rcvd_pdata[IETF_MAX_PRIV_DATA_LEN];
	u16 max_ird;
	u16 max_ord;
	u16 ird_size;
	u16 ord_size;
	u16 mpav2_ird_ord;
	u8 rtr_caps;
	u8 send_rdma0_op;
	bool peer_to_peer;
	bool mpa_crc;
	bool rcv_mark_en;
	bool peer_crc;
	bool snd_mark_en;

	struct irdma_cm_core *core;
	struct irdma_cm_tuple key;
	struct rhash_head hnode;
	struct list_head list;
	struct rcu_head rcu;
	refcount_t refcnt;
	spinlock_t lock;	/* see the kernel-doc above */
	struct timer_list timer;
	struct list_head txq;
	struct work_struct qh_work;
	struct delayed_work rtr_work;
	struct irdma_cm_listener *listener;
	struct irdma_cm_event_slot ev[IRDMA_CM_EV_NR];

	enum irdma_cm_tcp_state tcp_state;
	enum irdma_cm_mpa_state mpa_state;
	bool ipv4;
	bool hashed;
	bool in_backlog;
	bool qh_added;
	bool consumer;
	bool released;
	bool terminal_sent;
	bool established_sent;
	bool close_requested;
	bool mac_resolved;
	bool wscale_ok;
	bool fin_sent;
	bool fin_rcvd;
	u8 loc_mac[ETH_ALEN];
	u8 rem_mac[ETH_ALEN];
	u8 tos;
	u8 ttl;
	u32 flow_label;

	u32 iss;
	u32 irs;
	u32 snd_una;
	u32 snd_nxt;
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

	u8 tx_buf[IRDMA_CM_MPA_MAX_FRAME + IRDMA_RTR_MAX_FPDU];
	u32 tx_len;
	u32 tx_seq;
	bool tx_queued;
	u8 rx_buf[IRDMA_CM_MPA_MAX_FRAME];
	u32 rx_len;

	u32 tx_acks;
	u32 retrans;
	unsigned long rto;
	unsigned long rexmit_at;
	unsigned long mpa_at;
	unsigned long close_at;
	bool rexmit_armed;
	bool mpa_armed;
	bool close_armed;

	madcm_cm_event_handler handler;
	void *context;
};

#endif /* _MADCM_IRDMA_CM_CM_NODE_H */
