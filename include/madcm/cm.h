/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm's iWARP connection manager: the consumer API.
 *
 * A consumer takes the core of a link with madcm_cm_get_core() (one core
 * per link, counted; madcm_cm_put_core() gives it back), then listens on
 * it or connects through it;
 * the CM runs TCP's handshake and MPA's request/reply exchange (RFC 5044,
 * RFC 6581) and reports progress through one event handler per
 * connection. Documentation/irdma_cm.rst describes the events in order.
 */
#ifndef _MADCM_CM_H
#define _MADCM_CM_H

#include <linux/in6.h>
#include <linux/types.h>

struct net;
struct net_device;
struct sk_buff;

/*
 * The consumer's handles, opaque: the CM of one link (a core), a listener
 * and a connection.
 */
struct madcm_cm_core;
struct madcm_cm_listener;
struct madcm_cm_conn;
struct madcm_cm_offload_qp;

/* No 802.1Q tag (same value as the CM's IRDMA_NO_VLAN). */
#define MADCM_CM_NO_VLAN	0xffff

/* The most private data an MPA frame carries (RFC 5044 7.1). */
#define MADCM_CM_MAX_PDATA	512

/* RTR message types (RFC 6581), a mask. */
#define MADCM_CM_RTR_SEND	0x1
#define MADCM_CM_RTR_WRITE	0x2
#define MADCM_CM_RTR_READ	0x4

/*
 * TCP options the CM offers in its SYN, beyond MSS and window scale, a
 * mask: the ones the engine that carries the stream after the offload
 * can keep using. The connection uses each one both SYNs carried.
 */
#define MADCM_CM_TCP_TS		0x1	/* timestamps, PAWS (RFC 7323) */
#define MADCM_CM_TCP_SACK	0x2	/* SACK-permitted (RFC 2018) */

/**
 * struct madcm_cm_addr - one end of a connection
 * @ip: IPv6 address; IPv4 addresses are written IPv4-mapped
 *	(::ffff:a.b.c.d); the unspecified address (::) means "any" for a
 *	listener, ::ffff:0.0.0.0 any IPv4 address
 * @port: TCP port, host order
 */
struct madcm_cm_addr {
	struct in6_addr ip;
	u16 port;
};

/**
 * enum madcm_cm_event_type - what happened to a connection
 * @MADCM_CM_EVENT_CONNECT_REQUEST: passive side: a peer's MPA request
 *	arrived on a listener; the consumer now holds the connection and
 *	must accept or reject it
 * @MADCM_CM_EVENT_CONNECT_REPLY: active side: the peer's MPA reply
 *	accepted the connection; ESTABLISHED follows
 * @MADCM_CM_EVENT_ESTABLISHED: the MPA exchange is complete; the event
 *	carries the TCP context a queue pair needs
 * @MADCM_CM_EVENT_REJECTED: terminal: the peer rejected our MPA request
 * @MADCM_CM_EVENT_RESET: terminal: the connection failed or was reset;
 *	@status says why (-ECONNRESET, -ETIMEDOUT, -ECONNABORTED,
 *	-ECONNREFUSED, -EPROTO, ...)
 * @MADCM_CM_EVENT_DISCONNECT: the peer closed its side (FIN); CLOSE
 *	follows when both sides are closed
 * @MADCM_CM_EVENT_CLOSE: terminal: the connection closed gracefully
 */
enum madcm_cm_event_type {
	MADCM_CM_EVENT_CONNECT_REQUEST,
	MADCM_CM_EVENT_CONNECT_REPLY,
	MADCM_CM_EVENT_ESTABLISHED,
	MADCM_CM_EVENT_REJECTED,
	MADCM_CM_EVENT_RESET,
	MADCM_CM_EVENT_DISCONNECT,
	MADCM_CM_EVENT_CLOSE,
};

/**
 * struct madcm_cm_tcp_ctx - what a hardware QP needs to carry on the
 *	connection (the role of irdma_init_tcp_ctx)
 * @ipv4: IPv4 (else IPv6)
 * @vlan_id: VLAN ID or MADCM_CM_NO_VLAN
 * @tos: IPv4 TOS / IPv6 traffic class
 * @ttl: IPv4 TTL / IPv6 hop limit
 * @flow_label: IPv6 flow label
 * @loc_mac: our MAC address
 * @rem_mac: the next hop's MAC address
 * @loc: our address and port
 * @rem: the peer's address and port
 * @snd_nxt: next sequence number we send
 * @snd_una: oldest unacknowledged sequence number
 * @snd_wnd: the peer's window, scaled, in bytes
 * @snd_wl1: sequence number of the segment that last updated @snd_wnd
 * @snd_wl2: acknowledgment number of that segment
 * @max_snd_wnd: largest window the peer offered
 * @rcv_nxt: next sequence number we expect
 * @rcv_wnd: RCV.WND, the receive window the CM offered from @rcv_nxt
 *	on, in bytes (only what the CM takes, one MPA frame): the QP's
 *	window may not end before @rcv_nxt plus this (RFC 9293 3.8.6.2.2),
 *	and opens further as the QP's TCP sees fit
 * @snd_mss: largest payload we may send in one segment
 * @snd_wscale: the peer's window shift (applies to windows it sends)
 * @rcv_wscale: our window shift (applies to windows we send)
 * @ird: negotiated inbound RDMA Read depth
 * @ord: negotiated outbound RDMA Read depth
 * @mpa_rev: MPA revision in use
 * @rtr_type: RTR message type in use (MADCM_CM_RTR_*), 0 for none
 * @peer_to_peer: the connection follows RFC 6581's peer-to-peer model
 * @responder: we sent the MPA reply; without @peer_to_peer we send no
 *	FPDU before the initiator's first one arrived (RFC 5044 7.1: an MPA
 *	responder receives and validates one FPDU before it sends any)
 * @crc: FPDUs carry a CRC (either side asked for it)
 * @snd_markers: FPDUs we send carry markers
 * @rcv_markers: FPDUs we receive carry markers
 * @ts: both SYNs carried timestamps: every segment but a RST carries them
 *	(RFC 7323 3.2); @snd_mss does not count them
 * @sack: both SYNs carried SACK-permitted
 * @ts_off: our timestamp clock: a TSval is the kernel's monotonic clock
 *	in milliseconds (ktime_get_ns() / NSEC_PER_MSEC, as the host's
 *	TCP counts) plus this; the QP's clock goes on with the same offset
 * @ts_recent: the peer's timestamp to echo (TS.Recent)
 */
struct madcm_cm_tcp_ctx {
	bool ipv4;
	u16 vlan_id;
	u8 tos;
	u8 ttl;
	u32 flow_label;
	u8 loc_mac[6];
	u8 rem_mac[6];
	struct madcm_cm_addr loc;
	struct madcm_cm_addr rem;
	u32 snd_nxt;
	u32 snd_una;
	u32 snd_wnd;
	u32 snd_wl1;
	u32 snd_wl2;
	u32 max_snd_wnd;
	u32 rcv_nxt;
	u32 rcv_wnd;
	u16 snd_mss;
	u8 snd_wscale;
	u8 rcv_wscale;
	u16 ird;
	u16 ord;
	u8 mpa_rev;
	u8 rtr_type;
	bool peer_to_peer;
	bool responder;
	bool crc;
	bool snd_markers;
	bool rcv_markers;
	bool ts;
	bool sack;
	u32 ts_off;
	u32 ts_recent;
};

/**
 * struct madcm_cm_event - one event of one connection
 * @type: what happened
 * @conn: the connection
 * @listener: the listener it came from (passive side), or NULL
 * @status: 0, or a negative errno for REJECTED and RESET
 * @private_data: the peer's private data (CONNECT_REQUEST,
 *	CONNECT_REPLY, REJECTED), valid during the handler only
 * @private_data_len: its length
 * @ird: negotiated (or, for CONNECT_REQUEST, the peer's offered) IRD
 * @ord: negotiated (or offered) ORD
 * @mpa_rev: the MPA revision of the peer's frame
 * @loc: our address and port
 * @rem: the peer's address and port
 * @vlan_id: VLAN ID or MADCM_CM_NO_VLAN
 * @tcp_ctx: ESTABLISHED only: the TCP context, valid during the handler
 */
struct madcm_cm_event {
	enum madcm_cm_event_type type;
	struct madcm_cm_conn *conn;
	struct madcm_cm_listener *listener;
	int status;
	const void *private_data;
	u16 private_data_len;
	u16 ird;
	u16 ord;
	u8 mpa_rev;
	struct madcm_cm_addr loc;
	struct madcm_cm_addr rem;
	u16 vlan_id;
	const struct madcm_cm_tcp_ctx *tcp_ctx;
};

/*
 * Called in process context (the cm_core's ordered workqueue), one event
 * at a time per cm_core. It may call madcm_cm_accept(), madcm_cm_reject(),
 * madcm_cm_close(), madcm_cm_abort() and madcm_cm_release(), but not
 * madcm_cm_destroy_listener().
 */
typedef void (*madcm_cm_event_handler)(const struct madcm_cm_event *event,
				       void *context);

/**
 * struct madcm_cm_listen_attr - a listener
 * @addr: local address and port (not 0); ::ffff:0.0.0.0 is any IPv4
 *	address, :: any IPv6 address and, unless the link's namespace has
 *	net.ipv6.bindv6only set, any IPv4 address too
 * @vlan_id: VLAN ID or MADCM_CM_NO_VLAN
 * @backlog: most connections pending (handshake begun, not yet accepted
 *	or rejected) at once; 0 means the core's default
 * @ird: IRD offered to initiators
 * @ord: ORD offered to initiators
 * @mpa_rev: highest MPA revision accepted (1 or 2)
 * @peer_to_peer: ask for RFC 6581's peer-to-peer model
 * @rtr_caps: RTR types we can take (MADCM_CM_RTR_*)
 * @crc: ask for FPDU CRCs
 * @tcp_opts: TCP options our SYN-ACK may take up (MADCM_CM_TCP_*)
 * @handler: events of the listener's connections
 * @context: passed to @handler
 */
struct madcm_cm_listen_attr {
	struct madcm_cm_addr addr;
	u16 vlan_id;
	u32 backlog;
	u16 ird;
	u16 ord;
	u8 mpa_rev;
	bool peer_to_peer;
	u8 rtr_caps;
	bool crc;
	u8 tcp_opts;
	madcm_cm_event_handler handler;
	void *context;
};

/**
 * struct madcm_cm_connect_attr - an active open
 * @loc: local address; port 0 picks an ephemeral port
 * @rem: the peer's address and port
 * @vlan_id: VLAN ID or MADCM_CM_NO_VLAN
 * @tos: IPv4 TOS / IPv6 traffic class; its ECN bits are ignored (the CM
 *	does not negotiate ECN, so it sends Not-ECT, RFC 3168 6.1.1)
 * @ttl: IPv4 TTL / IPv6 hop limit; 0 means 64
 * @private_data: sent in the MPA request (copied)
 * @private_data_len: at most 512, 508 with revision 2
 * @ird: inbound RDMA Read depth wanted
 * @ord: outbound RDMA Read depth wanted
 * @mpa_rev: MPA revision offered (1 or 2)
 * @peer_to_peer: ask for RFC 6581's peer-to-peer model (needs @mpa_rev 2)
 * @rtr_caps: RTR types we can send (MADCM_CM_RTR_*)
 * @crc: ask for FPDU CRCs
 * @tcp_opts: TCP options our SYN offers (MADCM_CM_TCP_*)
 * @offload_qp: the QP to hand the stream to once the MPA exchange is over
 *	(<madcm/cm_offload.h>), or NULL: the CM keeps it
 * @handler: the connection's events
 * @context: passed to @handler
 */
struct madcm_cm_connect_attr {
	struct madcm_cm_addr loc;
	struct madcm_cm_addr rem;
	u16 vlan_id;
	u8 tos;
	u8 ttl;
	const void *private_data;
	u16 private_data_len;
	u16 ird;
	u16 ord;
	u8 mpa_rev;
	bool peer_to_peer;
	u8 rtr_caps;
	bool crc;
	u8 tcp_opts;
	struct madcm_cm_offload_qp *offload_qp;
	madcm_cm_event_handler handler;
	void *context;
};

/**
 * struct madcm_cm_accept_attr - the answer to a CONNECT_REQUEST
 * @private_data: sent in the MPA reply (copied)
 * @private_data_len: at most 512, 508 with revision 2
 * @ird: lower the negotiated IRD to this (0: keep)
 * @ord: lower the negotiated ORD to this (0: keep)
 * @offload_qp: the QP to hand the stream to (<madcm/cm_offload.h>), or
 *	NULL: the CM keeps it
 * @handler: the connection's further events (NULL: the listener's)
 * @context: passed to @handler
 */
struct madcm_cm_accept_attr {
	const void *private_data;
	u16 private_data_len;
	u16 ird;
	u16 ord;
	struct madcm_cm_offload_qp *offload_qp;
	madcm_cm_event_handler handler;
	void *context;
};

/**
 * struct madcm_cm_config - a core's tunables (0: the default)
 * @rto_min_ms: the least retransmission timeout (default 1000, RFC 6298
 *	2.4)
 * @rto_max_ms: the backoff's ceiling (default 60000)
 * @max_retrans: retransmissions before the connection is reset
 *	(default 6)
 * @time_wait_ms: TIME-WAIT, 2 * MSL (default 60000)
 * @fin_wait2_ms: how long FIN-WAIT-2 waits for the peer's FIN (default
 *	60000)
 * @mpa_timeout_ms: how long the MPA exchange may take once TCP is
 *	established (default 10000)
 * @backlog: default listener backlog (default 128)
 * @max_ird: the most IRD a connection gets (default 127)
 * @max_ord: the most ORD a connection gets (default 127)
 * @rtr_delay_ms: how long a peer-to-peer initiator waits after the reply
 *	before it sends the RTR message (default 0: as soon as the core's
 *	event workqueue runs; at most 1000, since a core being stopped waits
 *	for its pending RTRs; see Documentation/irdma_cm.rst)
 * @stop_wait_ms: how long stopping the core (detach, device removal)
 *	waits for one event handler to return (it waits for every event as
 *	long as each handler returns within this; one that does not is
 *	counted stuck) and then for consumers to release their connections
 *	once each has had its terminal event (default 5000, at most 60000);
 *	a connection still held after that is reported, and its memory,
 *	with the core's, lives on until the consumer releases it
 * @max_time_wait: the most connections in TIME-WAIT at once (default
 *	4096); past it a connection that would enter TIME-WAIT is freed at
 *	once instead, and counted
 * @challenge_acks: challenge ACKs (RFC 5961) one connection sends per
 *	second at most (default 5); the rest are counted, not sent (RFC
 *	5961 7)
 * @oow_ack_ms: the least time between two ACKs that one connection
 *	sends to an out-of-window segment or to an ACK of data it has not
 *	sent (RFC 9293 3.10.7.4), when the segment carries no data and no
 *	FIN or is a SYN (default 500, at most 60000; Linux's
 *	tcp_invalid_ratelimit). The rest are counted, not answered, so two
 *	desynchronised peers cannot loop and a spoofer gets no reflection.
 * @rto_initial_ms: the retransmission timeout before a connection has
 *	measured its round-trip time (default @rto_min_ms; RFC 6298 2.1
 *	asks 1000); at least @rto_min_ms, at most @rto_max_ms
 */
struct madcm_cm_config {
	u32 rto_min_ms;
	u32 rto_max_ms;
	u32 max_retrans;
	u32 time_wait_ms;
	u32 fin_wait2_ms;
	u32 mpa_timeout_ms;
	u32 backlog;
	u16 max_ird;
	u16 max_ord;
	u32 rtr_delay_ms;
	u32 stop_wait_ms;
	u32 rto_initial_ms;
	u32 max_time_wait;
	u32 challenge_acks;
	u32 oow_ack_ms;
};

/* The way in: a core by its link, counted. */
struct madcm_cm_core *madcm_cm_get_core(struct net_device *netdev);
void madcm_cm_put_core(struct madcm_cm_core *core);

/* The software backend on an Ethernet net_device. */
int madcm_cm_netdev_attach(struct net_device *netdev,
			   const struct madcm_cm_config *cfg);
int madcm_cm_netdev_detach(struct net_device *netdev);
int madcm_cm_netdev_loop_rx(struct net *net, struct sk_buff *skb);

int madcm_cm_create_listener(struct madcm_cm_core *core,
			     const struct madcm_cm_listen_attr *attr,
			     struct madcm_cm_listener **listener);
void madcm_cm_destroy_listener(struct madcm_cm_listener *listener);
int madcm_cm_connect(struct madcm_cm_core *core,
		     const struct madcm_cm_connect_attr *attr,
		     struct madcm_cm_conn **conn);
int madcm_cm_accept(struct madcm_cm_conn *conn,
		    const struct madcm_cm_accept_attr *attr);
int madcm_cm_reject(struct madcm_cm_conn *conn, const void *private_data,
		    u16 private_data_len);
int madcm_cm_close(struct madcm_cm_conn *conn);
int madcm_cm_abort(struct madcm_cm_conn *conn);
void madcm_cm_release(struct madcm_cm_conn *conn);
size_t madcm_cm_conn_memory(struct madcm_cm_conn *conn);
size_t madcm_cm_conn_backend_memory(struct madcm_cm_conn *conn);
const char *madcm_cm_event_name(enum madcm_cm_event_type type);

#endif /* _MADCM_CM_H */
