// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM's TCP: RFC 9293's connection state machine for the few bytes a
 * connection manager sends and receives (one MPA frame each way), with
 * RFC 5961's defences and RFC 7323's window scale option.
 *
 * Every function here runs with the node's lock held; frames are built
 * into the node's transmit queue and leave when the lock is dropped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/if_vlan.h>
#include <linux/minmax.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/timekeeping.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/cm_trace.h"
#include "irdma_cm/tcp_seq.h"

/**
 * irdma_cm_tuple_from_seg() - the connection key of a received segment
 * @seg: the segment
 * @key: filled in, from our side: local is the segment's destination
 */
void irdma_cm_tuple_from_seg(const struct irdma_cm_seg *seg,
			     struct irdma_cm_tuple *key)
{
	memset(key, 0, sizeof(*key));
	key->loc_ip = seg->dst.ip;
	key->rem_ip = seg->src.ip;
	key->loc_port = seg->dst.port;
	key->rem_port = seg->src.port;
	key->vlan_id = seg->vlan ? seg->vlan_tci & VLAN_VID_MASK : IRDMA_NO_VLAN;
}

static bool irdma_cm_synchronized(const struct irdma_cm_node *node)
{
	return node->state != IRDMA_CM_STATE_CLOSED &&
	       node->state != IRDMA_CM_STATE_SYN_SENT;
}

/* irdma_cm_wscale_ok() tells a scaled connection by its shift. */
static_assert(IRDMA_CM_RCV_WSCALE > 0);

/**
 * irdma_cm_local_mss() - the MSS our SYNs offer
 * @core: the core
 * @ipv4: for IPv4, else IPv6
 *
 * Return: the wire's MTU less the minimal IP and TCP headers.
 */
u16 irdma_cm_local_mss(struct irdma_cm_core *core, bool ipv4)
{
	u32 hdrs = (ipv4 ? IRDMA_IPV4_HDR_MIN : IRDMA_IPV6_HDR_LEN) +
		   IRDMA_TCP_HDR_MIN;
	u32 mtu = core->ops->mtu(core);

	return clamp_t(u32, mtu > hdrs ? mtu - hdrs : 0, IRDMA_CM_MIN_MSS,
		       U16_MAX);
}

/**
 * irdma_cm_set_iss() - give a connection its initial send sequence number
 * @node: the node, its 4-tuple final, nothing sent yet
 * @iss: the ISS
 */
void irdma_cm_set_iss(struct irdma_cm_node *node, u32 iss)
{
	node->iss = iss;
	node->snd_una = iss;
	node->snd_nxt = iss + 1;
	node->snd_high = iss;
}

/**
 * irdma_cm_clock_iss() - the ISS RFC 9293 3.4.1 asks for
 * @node: the node, its 4-tuple final
 *
 * RFC 6528: a clock of about 4 microseconds per tick (RFC 9293's M) plus
 * a keyed hash of the 4-tuple (F). Successive incarnations of one 4-tuple
 * so get increasing ISSs, and an off-path host cannot predict them.
 *
 * Return: the ISS.
 */
u32 irdma_cm_clock_iss(const struct irdma_cm_node *node)
{
	u32 f = (u32)siphash(&node->key, sizeof(node->key),
			     &node->core->isn_key);

	return f + (u32)(ktime_get_ns() >> 12);
}

/**
 * irdma_cm_init_tcp() - choose a new connection's ISS and MSS
 * @node: the node
 *
 * An active connection whose local port is not chosen yet gets its ISS
 * again once it is (irdma_cm_set_iss()).
 */
void irdma_cm_init_tcp(struct irdma_cm_node *node)
{
	irdma_cm_set_iss(node, irdma_cm_clock_iss(node));
	node->loc_mss = irdma_cm_local_mss(node->core,
					   irdma_cm_node_ipv4(node));
	node->snd_mss = node->loc_mss;
}

/**
 * irdma_cm_tsval() - our timestamp clock (RFC 7323 5.4)
 * @node: the node
 *
 * Milliseconds, from an offset that a keyed hash of the 4-tuple gives
 * (the core's secret), so that the clock tells nothing of the host's
 * uptime and each connection's starts elsewhere. The host's TCP, which
 * carries the stream after a hand-off to it, ticks in milliseconds too.
 *
 * Return: the TSval a segment sent now carries.
 */
u32 irdma_cm_tsval(const struct irdma_cm_node *node)
{
	return (u32)div_u64(ktime_get_ns(), NSEC_PER_MSEC) +
	       irdma_cm_ts_off(node);
}

/**
 * irdma_cm_set_tcp_offer() - the TCP options a new node offers
 * @node: the node, not yet in the table
 * @tcp_opts: MADCM_CM_TCP_*, from the consumer's connect or listen
 */
void irdma_cm_set_tcp_offer(struct irdma_cm_node *node, u8 tcp_opts)
{
	if (tcp_opts & MADCM_CM_TCP_TS)
		set_bit(IRDMA_CM_F_OFFER_TS, &node->flags);
	if (tcp_opts & MADCM_CM_TCP_SACK)
		set_bit(IRDMA_CM_F_OFFER_SACK, &node->flags);
}

/**
 * irdma_cm_ts_off() - the offset of a connection's timestamp clock
 * @node: the node, its 4-tuple final
 *
 * Return: what irdma_cm_tsval() adds to the monotonic clock's
 * milliseconds.
 */
u32 irdma_cm_ts_off(const struct irdma_cm_node *node)
{
	return (u32)siphash(&node->key, sizeof(node->key),
			    &node->core->ts_key);
}

/* RFC 7323 2.2: the window field; a SYN's is never scaled. */
static u16 irdma_cm_wnd_field(const struct irdma_cm_node *node, bool syn)
{
	u32 wnd = node->rcv_wnd;

	if (!syn && irdma_cm_wscale_ok(node))
		wnd >>= node->rcv_wscale;
	return min_t(u32, wnd, U16_MAX);
}

/*
 * A segment ending at @end leaves. RFC 6298 3: one segment at a time is
 * timed, from its first transmission; one that carries nothing new is a
 * retransmission, and irdma_cm_retransmit() stops the timing (Karn).
 */
static void irdma_cm_sent(struct irdma_cm_node *node, u32 end)
{
	if (!irdma_seq_lt(node->snd_high, end))
		return;
	node->snd_high = end;
	if (!test_and_set_bit(IRDMA_CM_F_RTT_TIMING, &node->flags)) {
		node->rtt_seq = end;
		node->rtt_start = jiffies;
	}
}

/*
 * RFC 6298 2.2, 2.3: take a measurement R into SRTT and RTTVAR, and set
 * RTO = SRTT + max(G, 4 * RTTVAR), G one jiffy, within the core's bounds.
 */
static void irdma_cm_rtt_sample(struct irdma_cm_node *node, u32 r)
{
	struct irdma_cm_core *core = node->core;
	s32 err8;
	u32 rto;

	r = min_t(u32, r, core->rto_max);
	if (!test_and_set_bit(IRDMA_CM_F_RTT_VALID, &node->flags)) {
		node->srtt8 = r << 3;
		node->rttvar4 = r << 1;
	} else {
		/* RTTVAR first: it takes the old SRTT. */
		err8 = (s32)(r << 3) - (s32)node->srtt8;
		node->rttvar4 += ((s32)(abs(err8) >> 1) - (s32)node->rttvar4) / 4;
		node->srtt8 += err8 / 8;
	}
	rto = (node->srtt8 >> 3) + max_t(u32, node->rttvar4, 1);
	node->rto_base = clamp_t(unsigned long, rto, core->rto_min,
				 core->rto_max);
	/* RFC 6298 5: a new measurement collapses a backed-off RTO. */
	node->rto = node->rto_base;
}

/* An ACK of @ack arrived: the timed segment's measurement, if it is in. */
static void irdma_cm_rtt_ack(struct irdma_cm_node *node, u32 ack)
{
	if (test_bit(IRDMA_CM_F_RTT_TIMING, &node->flags) &&
	    irdma_seq_le(node->rtt_seq, ack)) {
		clear_bit(IRDMA_CM_F_RTT_TIMING, &node->flags);
		irdma_cm_rtt_sample(node, jiffies - node->rtt_start);
	}
}

/**
 * irdma_cm_seg_addr() - a segment of this connection: its addresses
 * @node: the node, its next hop resolved
 * @seg: the segment, zeroed: MACs, VLAN, IP and its header fields, ports
 */
void irdma_cm_seg_addr(const struct irdma_cm_node *node,
		       struct irdma_cm_seg *seg)
{
	memcpy(seg->dst_mac, node->rem_mac, ETH_ALEN);
	memcpy(seg->src_mac, node->loc_mac, ETH_ALEN);
	seg->ipv4 = irdma_cm_node_ipv4(node);
	seg->vlan = node->key.vlan_id != IRDMA_NO_VLAN;
	seg->vlan_tci = seg->vlan ? node->key.vlan_id : 0;
	seg->tos = node->tos;
	seg->ttl = node->ttl;
	seg->flow_label = node->flow_label;
	seg->src.ip = node->key.loc_ip;
	seg->src.port = node->key.loc_port;
	seg->dst.ip = node->key.rem_ip;
	seg->dst.port = node->key.rem_port;
}

/* Queue one segment of this connection. */
static int irdma_cm_xmit(struct irdma_cm_node *node, u8 flags, u32 seq,
			 const u8 *data, u32 len)
{
	struct irdma_cm_seg seg = {};

	if (!test_bit(IRDMA_CM_F_MAC_RESOLVED, &node->flags)) {
		/* The retransmission timer retries the resolution. */
		irdma_cm_count(node->core, IRDMA_CM_CNT_RESOLVE_WAIT);
		return -EAGAIN;
	}
	irdma_cm_seg_addr(node, &seg);
	seg.seq = seq;
	seg.ack = node->rcv_nxt;
	seg.flags = flags;
	seg.window = irdma_cm_wnd_field(node, flags & IRDMA_TCP_SYN);
	if (flags & IRDMA_TCP_SYN) {
		bool synack = flags & IRDMA_TCP_ACK;

		seg.opts.has_mss = true;
		seg.opts.mss = node->loc_mss;
		/* A SYN-ACK offers each option only to a peer that did. */
		if (!synack || irdma_cm_wscale_ok(node)) {
			seg.opts.has_wscale = true;
			seg.opts.wscale = IRDMA_CM_RCV_WSCALE;
		}
		seg.opts.has_sack_perm =
			test_bit(synack ? IRDMA_CM_F_SACK_OK :
				 IRDMA_CM_F_OFFER_SACK, &node->flags);
		seg.opts.has_ts = test_bit(synack ? IRDMA_CM_F_TS_OK :
					   IRDMA_CM_F_OFFER_TS, &node->flags);
	} else {
		seg.opts.has_ts = test_bit(IRDMA_CM_F_TS_OK, &node->flags);
	}
	if (seg.opts.has_ts) {
		seg.opts.tsval = irdma_cm_tsval(node);
		/* RFC 7323 3.2: TSecr is zero without ACK. */
		seg.opts.tsecr = flags & IRDMA_TCP_ACK ? node->ts_recent : 0;
	}
	if (flags & IRDMA_TCP_ACK)
		node->last_ack_sent = node->rcv_nxt;
	seg.payload = data;
	seg.payload_len = len;
	if (flags & IRDMA_TCP_ACK)
		node->tx_acks++;
	if (!(flags & IRDMA_TCP_RST))
		irdma_cm_sent(node, seq + len + !!(flags & IRDMA_TCP_SYN) +
			      !!(flags & IRDMA_TCP_FIN));
	return irdma_cm_queue_frame(node, &seg);
}

/**
 * irdma_cm_resolve() - look the next hop's MAC address up, if still unknown
 * @node: the node, locked
 */
void irdma_cm_resolve(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	if (test_bit(IRDMA_CM_F_MAC_RESOLVED, &node->flags))
		return;
	if (!core->ops->resolve(core, &node->key.rem_ip, node->key.vlan_id,
				node->rem_mac))
		set_bit(IRDMA_CM_F_MAC_RESOLVED, &node->flags);
}

/**
 * irdma_send_syn() - send our SYN (active open) or SYN-ACK (passive)
 * @node: the node, locked; ISS chosen
 * @ack: SYN-ACK
 *
 * The SYN carries our MSS and window scale options (RFC 9293 3.7.1, RFC
 * 7323); it is retransmitted until acknowledged.
 *
 * Return: 0, or -EAGAIN while the peer's MAC address is being resolved.
 */
int irdma_send_syn(struct irdma_cm_node *node, bool ack)
{
	int ret;

	irdma_cm_resolve(node);
	ret = irdma_cm_xmit(node, IRDMA_TCP_SYN | (ack ? IRDMA_TCP_ACK : 0),
			    node->iss, NULL, 0);
	/* Unresolved: the SYN leaves once the next hop is known. */
	if (!test_bit(IRDMA_CM_F_MAC_RESOLVED, &node->flags))
		irdma_cm_arm_resolve(node);
	else
		irdma_cm_arm_rexmit(node, false);
	return ret;
}

/**
 * irdma_send_ack() - send an empty ACK for RCV.NXT
 * @node: the node, locked
 */
void irdma_send_ack(struct irdma_cm_node *node)
{
	/* Past what was sent, not past CM data the window holds back. */
	irdma_cm_xmit(node, IRDMA_TCP_ACK, node->snd_high, NULL, 0);
}

/**
 * irdma_send_reset() - send a RST on a synchronized connection
 * @node: the node, locked
 */
void irdma_send_reset(struct irdma_cm_node *node)
{
	/* RFC 5961 3.2: the peer resets only at its RCV.NXT. */
	if (!irdma_cm_xmit(node, IRDMA_TCP_RST | IRDMA_TCP_ACK, node->snd_high,
			   NULL, 0))
		irdma_cm_count(node->core, IRDMA_CM_CNT_RST_SENT);
}

/* The end of the CM data in the sequence space (@from when none). */
static u32 irdma_cm_data_end(const struct irdma_cm_node *node, u32 from)
{
	return test_bit(IRDMA_CM_F_TX_QUEUED, &node->flags) ?
	       node->tx_seq + node->tx_len : from;
}

/**
 * irdma_cm_window_shut() - CM data waits behind the peer's zero window
 * @node: the node, locked
 *
 * Return: true when the peer offers no window and CM data from SND.UNA
 * on is still to be sent or acknowledged: the retransmission timer then
 * sends zero-window probes (RFC 9293 3.8.6.1).
 */
bool irdma_cm_window_shut(const struct irdma_cm_node *node)
{
	return !node->snd_wnd &&
	       irdma_seq_lt(node->snd_una,
			    irdma_cm_data_end(node, node->snd_una));
}

/* The most data in one segment: the MSS, less the timestamps they carry. */
static u32 irdma_cm_seg_max(const struct irdma_cm_node *node)
{
	u32 opts = test_bit(IRDMA_CM_F_TS_OK, &node->flags) ?
		   IRDMA_TCPOLEN_TS_ALIGNED : 0;

	return node->snd_mss > opts ? node->snd_mss - opts : 1;
}

/*
 * Send what is in flight from @from on: the rest of the CM data in MSS
 * sized segments, as far as the peer's window reaches (RFC 9293 3.8.6),
 * and our FIN once all data is out, on the last data segment or alone.
 * With @probe, a shut window gets one octet beyond it, a zero-window
 * probe (3.8.6.1).
 */
static void irdma_cm_output(struct irdma_cm_node *node, u32 from, bool probe)
{
	bool fin = irdma_cm_fin_sent(node);
	u32 end = irdma_cm_data_end(node, from);
	u32 wnd_end = node->snd_una + node->snd_wnd;

	if (probe && irdma_cm_window_shut(node)) {
		wnd_end = from + 1;
		set_bit(IRDMA_CM_F_PROBING, &node->flags);
	}
	while (irdma_seq_lt(from, end) && irdma_seq_lt(from, wnd_end)) {
		u32 n = min3(end - from, irdma_cm_seg_max(node), wnd_end - from);
		u8 flags = IRDMA_TCP_ACK | IRDMA_TCP_PSH;

		/* Freed only once acknowledged (irdma_cm_tx_done()). */
		if (WARN_ON_ONCE(!node->tx_buf))
			break;
		if (fin && from + n == node->fin_seq)
			flags |= IRDMA_TCP_FIN;
		irdma_cm_xmit(node, flags, from,
			      node->tx_buf + (from - node->tx_seq), n);
		from += n;
		if (flags & IRDMA_TCP_FIN)
			return;
	}
	if (fin && !irdma_seq_lt(from, end) &&
	    irdma_seq_le(from, node->fin_seq))
		irdma_cm_xmit(node, IRDMA_TCP_FIN | IRDMA_TCP_ACK,
			      node->fin_seq, NULL, 0);
}

/**
 * irdma_cm_send_data() - put the CM data in tx_buf on the wire
 * @node: the node, locked, synchronized, @tx_buf and @tx_len set
 *
 * The data takes its place in the sequence space and stays in @tx_buf
 * until acknowledged.
 */
void irdma_cm_send_data(struct irdma_cm_node *node)
{
	node->tx_seq = node->snd_nxt;
	set_bit(IRDMA_CM_F_TX_QUEUED, &node->flags);
	node->snd_nxt += node->tx_len;
	irdma_cm_output(node, node->snd_high, false);
	irdma_cm_arm_rexmit(node, false);
}

/**
 * irdma_cm_send_more() - send more CM data after what is in tx_buf
 * @node: the node, locked, its CM data already sent and no FIN sent
 * @len: bytes the caller put at @tx_buf + @tx_len
 *
 * The bytes follow the data sent before in the sequence space and are
 * retransmitted with it until acknowledged.
 */
void irdma_cm_send_more(struct irdma_cm_node *node, u32 len)
{
	node->tx_len += len;
	node->snd_nxt += len;
	irdma_cm_output(node, node->snd_high, false);
	irdma_cm_arm_rexmit(node, false);
}

/**
 * irdma_send_fin() - close our half of the connection
 * @node: the node, locked, just moved to FIN-WAIT-1 or LAST-ACK
 *
 * The FIN follows any CM data and is retransmitted until acknowledged.
 */
void irdma_send_fin(struct irdma_cm_node *node)
{
	node->fin_seq = node->snd_nxt;
	node->snd_nxt++;
	/* Behind any CM data the peer's window still holds back. */
	irdma_cm_output(node, node->snd_high, false);
	irdma_cm_arm_rexmit(node, false);
}

/**
 * irdma_cm_retransmit() - resend everything not acknowledged
 * @node: the node, locked
 *
 * As far as the peer's window reaches; into a shut window, one octet.
 */
void irdma_cm_retransmit(struct irdma_cm_node *node)
{
	/* Karn: what is sent again gives no measurement. */
	clear_bit(IRDMA_CM_F_RTT_TIMING, &node->flags);
	switch (node->state) {
	case IRDMA_CM_STATE_SYN_SENT:
		irdma_send_syn(node, false);
		break;
	case IRDMA_CM_STATE_SYN_RCVD:
		irdma_send_syn(node, true);
		break;
	case IRDMA_CM_STATE_CLOSED:
	case IRDMA_CM_STATE_TIME_WAIT:
		break;
	default:
		irdma_cm_output(node, node->snd_una, true);
		break;
	}
}

/**
 * irdma_cm_reply_reset() - answer a segment nobody owns with a RST
 * @core: the core
 * @seg: the segment
 *
 * RFC 9293 3.10.7.1: <SEQ=SEG.ACK><CTL=RST> for a segment with ACK,
 * else <SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>. A RST is never
 * answered.
 */
void irdma_cm_reply_reset(struct irdma_cm_core *core,
			  const struct irdma_cm_seg *seg)
{
	struct irdma_cm_seg rst = {};
	u32 size;
	u8 *buf;
	int len;

	if (seg->flags & IRDMA_TCP_RST)
		return;
	trace_madcm_cm_reply_rst(seg);
	memcpy(rst.dst_mac, seg->src_mac, ETH_ALEN);
	core->ops->local_mac(core, rst.src_mac);
	rst.ipv4 = seg->ipv4;
	rst.vlan = seg->vlan;
	rst.vlan_tci = seg->vlan_tci;
	rst.ttl = IRDMA_CM_DEFAULT_TTL;
	rst.src = seg->dst;
	rst.dst = seg->src;
	if (seg->flags & IRDMA_TCP_ACK) {
		rst.seq = seg->ack;
		rst.flags = IRDMA_TCP_RST;
	} else {
		rst.ack = seg->seq + seg->payload_len +
			  !!(seg->flags & IRDMA_TCP_SYN) +
			  !!(seg->flags & IRDMA_TCP_FIN);
		rst.flags = IRDMA_TCP_RST | IRDMA_TCP_ACK;
	}
	size = irdma_cm_seg_hdr_len(&rst);
	buf = kmalloc(size, GFP_ATOMIC);
	if (!buf) {
		irdma_cm_count(core, IRDMA_CM_CNT_NOMEM);
		return;
	}
	len = irdma_cm_build_seg(&rst, buf, size);
	if (len > 0 && !core->ops->xmit(core, buf, len))
		irdma_cm_count(core, IRDMA_CM_CNT_RST_SENT);
	else
		irdma_cm_count(core, IRDMA_CM_CNT_TX_ERR);
	kfree(buf);
}

/**
 * irdma_cm_reset_node() - end a connection with a RST
 * @node: the node, locked
 * @status: the RESET event's status
 *
 * Sends a RST when the peer knows the connection (an offloaded one's QP
 * is asked to), gives the consumer its terminal event (RESET, unless one
 * was already given) and closes.
 */
void irdma_cm_reset_node(struct irdma_cm_node *node, int status)
{
	if (node->state == IRDMA_CM_STATE_CLOSED)
		return;
	trace_madcm_cm_reset(node, true, status);
	irdma_cm_dbg(node, "reset, status %d\n", status);
	/* An offloaded stream's sequence numbers are the QP's. */
	if (node->state == IRDMA_CM_STATE_OFFLOADED)
		irdma_cm_offload_close(node, true);
	else if (irdma_cm_synchronized(node) &&
		 node->state != IRDMA_CM_STATE_TIME_WAIT)
		irdma_send_reset(node);
	irdma_cm_mpa_failed(node);
	irdma_cm_event(node, MADCM_CM_EVENT_RESET, status);
	irdma_cm_node_closed(node);
}

/**
 * irdma_cm_abort_node() - abort a connection (consumer, listener, core)
 * @node: the node, locked
 * @status: the RESET event's status
 */
void irdma_cm_abort_node(struct irdma_cm_node *node, int status)
{
	if (node->state == IRDMA_CM_STATE_CLOSED)
		return;
	irdma_cm_count(node->core, IRDMA_CM_CNT_ABORTS);
	irdma_cm_reset_node(node, status);
}

/*
 * Both FINs are through. The consumer hears CLOSE if its connection was
 * established (or it rejected it); a connection that ends before the MPA
 * exchange completed ends with RESET.
 */
static void irdma_cm_close_done(struct irdma_cm_node *node)
{
	if (node->mpa_result == IRDMA_MPA_ACCEPTED ||
	    node->mpa_result == IRDMA_MPA_REJECTED)
		irdma_cm_event(node, MADCM_CM_EVENT_CLOSE, 0);
	else
		irdma_cm_event(node, MADCM_CM_EVENT_RESET, -ECONNRESET);
}

/*
 * Our FIN went first: TIME-WAIT for 2 MSL (RFC 9293 3.6), while the
 * core has room for it. Past max_time_wait the connection ends at once,
 * as Linux does past tcp_max_tw_buckets; @ack_fin: the peer's FIN just
 * came and is acknowledged first.
 */
static void irdma_cm_enter_time_wait(struct irdma_cm_node *node, bool ack_fin)
{
	if (!irdma_cm_time_wait_begin(node)) {
		if (ack_fin)
			irdma_send_ack(node);
		irdma_cm_close_done(node);
		irdma_cm_node_closed(node);
		return;
	}
	irdma_cm_set_state(node, IRDMA_CM_STATE_TIME_WAIT);
	node->armed &= ~(IRDMA_CM_TIMER_REXMIT | IRDMA_CM_TIMER_MPA);
	irdma_cm_close_done(node);
	irdma_cm_arm_close(node, node->core->time_wait);
}

/**
 * irdma_cm_start_close() - close our side gracefully
 * @node: the node, locked
 *
 * TCP ESTABLISHED (the MPA exchange running or done) goes to FIN-WAIT-1,
 * CLOSE-WAIT to LAST-ACK, with a FIN after any CM data still in flight.
 * A connection still opening is reset; one already closing is left
 * alone. An offloaded connection's QP is asked to close.
 */
void irdma_cm_start_close(struct irdma_cm_node *node)
{
	if (irdma_cm_tcp_estab(node)) {
		irdma_cm_set_state(node, IRDMA_CM_STATE_FIN_WAIT1);
		irdma_send_fin(node);
		return;
	}
	switch (node->state) {
	case IRDMA_CM_STATE_CLOSE_WAIT:
		irdma_cm_set_state(node, IRDMA_CM_STATE_LAST_ACK);
		irdma_send_fin(node);
		break;
	case IRDMA_CM_STATE_SYN_SENT:
	case IRDMA_CM_STATE_SYN_RCVD:
		irdma_cm_abort_node(node, -ECONNABORTED);
		break;
	case IRDMA_CM_STATE_OFFLOADED:
		irdma_cm_offload_close(node, false);
		break;
	default:
		break;
	}
}

/**
 * irdma_cm_take_syn_opts() - what the peer's SYN says (RFC 9293 3.7.1,
 *	RFC 7323 2.2)
 * @node: the node
 * @seg: the SYN
 */
void irdma_cm_take_syn_opts(struct irdma_cm_node *node,
			    const struct irdma_cm_seg *seg)
{
	u16 mss = irdma_cm_node_ipv4(node) ? IRDMA_CM_DEFAULT_MSS4 :
					     IRDMA_CM_DEFAULT_MSS6;
	bool wscale = seg->opts.has_wscale;

	if (seg->opts.has_mss)
		mss = max_t(u16, seg->opts.mss, IRDMA_CM_MIN_MSS);
	node->snd_mss = min(mss, node->loc_mss);
	/* RFC 7323 3.2, RFC 2018 2: in use when both SYNs carry them. */
	if (test_bit(IRDMA_CM_F_OFFER_TS, &node->flags) && seg->opts.has_ts) {
		set_bit(IRDMA_CM_F_TS_OK, &node->flags);
		node->ts_recent = seg->opts.tsval;
	}
	if (test_bit(IRDMA_CM_F_OFFER_SACK, &node->flags) &&
	    seg->opts.has_sack_perm)
		set_bit(IRDMA_CM_F_SACK_OK, &node->flags);
	node->snd_wscale = wscale ? seg->opts.wscale : 0;
	node->rcv_wscale = wscale ? IRDMA_CM_RCV_WSCALE : 0;
	node->rcv_wnd = IRDMA_CM_RCV_WND;
	node->irs = seg->seq;
	node->rcv_nxt = seg->seq + 1;
	/* A SYN's window is never scaled. */
	node->snd_wnd = seg->window;
	node->max_snd_wnd = seg->window;
	node->snd_wl1 = seg->seq;
	node->snd_wl2 = seg->ack;
}

/* The handshake is complete: start (or wait for) the MPA exchange. */
static void irdma_cm_tcp_established(struct irdma_cm_node *node)
{
	unsigned long fallback;

	fallback = min(msecs_to_jiffies(IRDMA_CM_RTO_SYN_FALLBACK_MS),
		       node->core->rto_max);

	/*
	 * RFC 6298 5.7: the SYN (or SYN-ACK) timed out with an RTO under
	 * 3 s, so data starts with 3 s: re-initialized, whatever the
	 * handshake's backoff made of it (Linux: tcp_init_metrics()).
	 */
	if (test_bit(IRDMA_CM_F_SYN_TIMED_OUT, &node->flags))
		node->rto = fallback;
	irdma_cm_disarm_rexmit(node);
	if (node->role == IRDMA_CM_ROLE_INITIATOR) {
		irdma_send_mpa_request(node);
	} else {
		irdma_cm_set_state(node, IRDMA_CM_STATE_MPA_REQ_WAIT);
		irdma_cm_arm_mpa(node);
	}
}

/* RFC 9293 3.10.7.3: a segment in SYN-SENT. */
static void irdma_handle_synack_pkt(struct irdma_cm_node *node,
				    const struct irdma_cm_seg *seg)
{
	bool ack = seg->flags & IRDMA_TCP_ACK;

	if (ack && (irdma_seq_le(seg->ack, node->iss) ||
		    irdma_seq_lt(node->snd_nxt, seg->ack))) {
		irdma_cm_count(node->core, IRDMA_CM_CNT_BAD_ACK);
		irdma_cm_reply_reset(node->core, seg);
		return;
	}
	if (seg->flags & IRDMA_TCP_RST) {
		if (!ack) {
			irdma_cm_count(node->core, IRDMA_CM_CNT_SEQ_DROP);
			return;
		}
		irdma_cm_count(node->core, IRDMA_CM_CNT_RST_RCVD);
		trace_madcm_cm_reset(node, false, -ECONNREFUSED);
		irdma_cm_event(node, MADCM_CM_EVENT_RESET, -ECONNREFUSED);
		irdma_cm_node_closed(node);
		return;
	}
	if (!(seg->flags & IRDMA_TCP_SYN)) {
		irdma_cm_count(node->core, IRDMA_CM_CNT_SEQ_DROP);
		return;
	}
	irdma_cm_take_syn_opts(node, seg);
	if (!ack) {
		/* Simultaneous open (RFC 9293 3.5, figure 7). */
		irdma_cm_set_state(node, IRDMA_CM_STATE_SYN_RCVD);
		irdma_send_syn(node, true);
		return;
	}
	irdma_cm_rtt_ack(node, seg->ack);
	node->snd_una = seg->ack;
	node->snd_high = seg->ack;
	irdma_cm_tcp_established(node);
	/* The MPA request carries the ACK; without one, ACK alone. */
	if (!test_bit(IRDMA_CM_F_TX_QUEUED, &node->flags))
		irdma_send_ack(node);
}

/* RFC 9293 3.10.7.4 "fourth, check the RST bit" and RFC 5961 3.2. */
static void irdma_handle_rst_pkt(struct irdma_cm_node *node)
{
	irdma_cm_count(node->core, IRDMA_CM_CNT_RST_RCVD);
	trace_madcm_cm_reset(node, false, -ECONNRESET);
	irdma_cm_mpa_failed(node);
	/* A passive open nobody was told about just goes away. */
	irdma_cm_event(node, MADCM_CM_EVENT_RESET, -ECONNRESET);
	irdma_cm_node_closed(node);
}

/* An acceptable ACK on a synchronized connection ("fifth"). */
/*
 * The peer's window let more through: after zero-window probes, send
 * again from SND.UNA (the probe octet was most likely dropped), else
 * what was held back.
 */
static void irdma_cm_window_opened(struct irdma_cm_node *node)
{
	if (!node->snd_wnd)
		return;
	if (test_and_clear_bit(IRDMA_CM_F_PROBING, &node->flags)) {
		clear_bit(IRDMA_CM_F_RTT_TIMING, &node->flags);
		irdma_cm_output(node, node->snd_una, false);
	} else if (irdma_seq_lt(node->snd_high, node->snd_nxt)) {
		irdma_cm_output(node, node->snd_high, false);
	}
}

static void irdma_handle_ack_pkt(struct irdma_cm_node *node,
				 const struct irdma_cm_seg *seg)
{
	u32 wnd = (u32)seg->window << node->snd_wscale;

	if (irdma_seq_lt(node->snd_una, seg->ack)) {
		irdma_cm_rtt_ack(node, seg->ack);
		node->snd_una = seg->ack;
		/*
		 * Progress: the retry limit counts retransmissions of what is
		 * still unacknowledged (RFC 1122 4.2.3.5). The backed-off RTO
		 * stays until a measurement (Karn's rule, RFC 6298 5): an ACK
		 * of a retransmitted segment gives none.
		 */
		node->retrans = 0;
		irdma_cm_tx_done(node);
		if (node->snd_una == node->snd_nxt)
			irdma_cm_disarm_rexmit(node);
		else
			irdma_cm_arm_rexmit(node, true);
	} else if (test_bit(IRDMA_CM_F_PROBING, &node->flags)) {
		/*
		 * RFC 9293 3.8.6.1: a peer that answers the probes keeps
		 * the connection, however long its window stays shut.
		 */
		node->retrans = 0;
	}
	/* RFC 9293 3.10.7.4: only an ACK in SND.UNA =< SEG.ACK =< SND.NXT. */
	if (irdma_seq_le(node->snd_una, seg->ack) &&
	    (irdma_seq_lt(node->snd_wl1, seg->seq) ||
	     (node->snd_wl1 == seg->seq &&
	      irdma_seq_le(node->snd_wl2, seg->ack)))) {
		node->snd_wnd = wnd;
		node->max_snd_wnd = max(node->max_snd_wnd, wnd);
		node->snd_wl1 = seg->seq;
		node->snd_wl2 = seg->ack;
		irdma_cm_window_opened(node);
	}
	if (!irdma_cm_fin_sent(node) || node->snd_una != node->fin_seq + 1)
		return;
	/* Our FIN is acknowledged. */
	switch (node->state) {
	case IRDMA_CM_STATE_FIN_WAIT1:
		irdma_cm_set_state(node, IRDMA_CM_STATE_FIN_WAIT2);
		irdma_cm_arm_close(node, node->core->fin_wait2);
		break;
	case IRDMA_CM_STATE_CLOSING:
		irdma_cm_enter_time_wait(node, false);
		break;
	case IRDMA_CM_STATE_LAST_ACK:
		irdma_cm_close_done(node);
		irdma_cm_node_closed(node);
		break;
	default:
		break;
	}
}

/*
 * "Seventh, process the segment text", in order only: bytes before
 * RCV.NXT are trimmed and a segment beyond it is dropped (the peer sends
 * it again). While the MPA exchange runs, the CM takes no more than the
 * peer's MPA frame: bytes after it stay unacknowledged, for whoever owns
 * the stream next (the QP). Once the exchange is over, the software CM
 * has no QP behind it: data is acknowledged and dropped, and counted.
 */
static void irdma_cm_rcv_data(struct irdma_cm_node *node,
			      const struct irdma_cm_seg *seg)
{
	struct irdma_cm_core *core = node->core;
	u32 skip, len, want, n;
	const u8 *p;

	if (node->state == IRDMA_CM_STATE_MPA_RTR_WAIT &&
	    node->role == IRDMA_CM_ROLE_RESPONDER) {
		irdma_cm_rtr_rcv(node, seg);
		return;
	}
	if (irdma_seq_lt(node->rcv_nxt, seg->seq)) {
		irdma_cm_count(core, IRDMA_CM_CNT_OOO_DROP);
		return;
	}
	skip = node->rcv_nxt - seg->seq;
	if (skip >= seg->payload_len)
		return;
	p = seg->payload + skip;
	len = seg->payload_len - skip;
	if (node->mpa_result != IRDMA_MPA_PENDING) {
		node->rcv_nxt += len;
		atomic64_add(len, &core->cnt[IRDMA_CM_CNT_ULP_BYTES]);
		return;
	}
	if (node->state != IRDMA_CM_STATE_MPA_REQ_SENT &&
	    node->state != IRDMA_CM_STATE_MPA_REQ_WAIT) {
		atomic64_add(len, &core->cnt[IRDMA_CM_CNT_RX_EARLY]);
		return;
	}
	while (len && (want = irdma_cm_mpa_want(node))) {
		n = min(len, want);
		/* No memory: the octets go unacknowledged, to come again. */
		if (!irdma_cm_rx_room(node, n))
			return;
		memcpy(node->rx_buf + node->rx_len, p, n);
		node->rx_len += n;
		node->rcv_nxt += n;
		p += n;
		len -= n;
	}
	if (len)
		atomic64_add(len, &core->cnt[IRDMA_CM_CNT_RX_EARLY]);
	irdma_cm_mpa_rcv(node);
}

/* "Eighth, check the FIN bit", once everything before it is in. */
static void irdma_handle_fin_pkt(struct irdma_cm_node *node)
{
	node->rcv_nxt++;
	if (irdma_cm_tcp_estab(node)) {
		if (node->mpa_result == IRDMA_MPA_ACCEPTED) {
			irdma_cm_event(node, MADCM_CM_EVENT_DISCONNECT, 0);
		} else if (node->mpa_result != IRDMA_MPA_REJECTED) {
			node->mpa_result = IRDMA_MPA_FAILED;
			irdma_cm_event(node, MADCM_CM_EVENT_RESET, -ECONNRESET);
		}
		irdma_cm_set_state(node, IRDMA_CM_STATE_CLOSE_WAIT);
		irdma_cm_disarm_mpa(node);
		/* No data path here: answer with our FIN at once. */
		irdma_cm_start_close(node);
		return;
	}
	switch (node->state) {
	case IRDMA_CM_STATE_FIN_WAIT1:
		/* Our FIN is not acknowledged yet: simultaneous close. */
		irdma_cm_set_state(node, IRDMA_CM_STATE_CLOSING);
		break;
	case IRDMA_CM_STATE_FIN_WAIT2:
		irdma_cm_enter_time_wait(node, true);
		break;
	default:
		break;
	}
}

/*
 * RFC 5961 7: at most the core's challenge_acks challenge ACKs a second
 * on one connection. The limit is the connection's own, not the host's, so
 * it tells an off-path attacker nothing about other connections.
 */
static bool irdma_cm_challenge_ack_allowed(struct irdma_cm_node *node)
{
	unsigned long now = jiffies;

	if (!time_in_range(now, node->chack_start, node->chack_start + HZ - 1)) {
		node->chack_start = now;
		node->chack_count = 0;
	}
	if (node->chack_count >= node->core->cfg.challenge_acks)
		return false;
	node->chack_count++;
	return true;
}

/*
 * An ACK to an out-of-window segment, or to an ACK of unsent data, at
 * most once per oow_ack_ms on one connection, as Linux's
 * tcp_oow_rate_limited(): two peers that disagree on the sequence space
 * would otherwise answer each other's ACKs forever, and a spoofer would
 * get one ACK for each segment it sends. A segment that carries data or
 * a FIN (and no SYN) is always answered: a lost ACK of it is what its
 * sender repairs with it, and such segments do not loop.
 */
static bool irdma_cm_oow_ack_allowed(struct irdma_cm_node *node,
				     const struct irdma_cm_seg *seg)
{
	u32 now = (u32)jiffies;
	s32 elapsed = (s32)(now - node->oow_ack_at);

	if ((seg->payload_len || (seg->flags & IRDMA_TCP_FIN)) &&
	    !(seg->flags & IRDMA_TCP_SYN))
		return true;
	if (node->oow_ack_at && elapsed >= 0 &&
	    elapsed < (s32)msecs_to_jiffies(node->core->cfg.oow_ack_ms))
		return false;
	/* 0 stands for "none yet". */
	node->oow_ack_at = now ?: 1;
	return true;
}

/*
 * RFC 7323 3.2 and 5.3 (R1), before the sequence number checks of a
 * connection that agreed on timestamps: a segment without them is
 * dropped; one whose TSval is older than TS.Recent is dropped and
 * acknowledged (at the out-of-window answers' rate). Neither rule
 * applies to a RST, which the sequence checks judge. The CM's
 * connections live for the handshake only, far less than the 24 days
 * after which TS.Recent would go stale.
 */
static bool irdma_cm_paws_ok(struct irdma_cm_node *node,
			     const struct irdma_cm_seg *seg)
{
	if (!test_bit(IRDMA_CM_F_TS_OK, &node->flags) ||
	    (seg->flags & IRDMA_TCP_RST))
		return true;
	if (!seg->opts.has_ts) {
		irdma_cm_count(node->core, IRDMA_CM_CNT_TS_MISSING);
		return false;
	}
	if ((s32)(seg->opts.tsval - node->ts_recent) >= 0)
		return true;
	irdma_cm_count(node->core, IRDMA_CM_CNT_PAWS_DROP);
	if (irdma_cm_oow_ack_allowed(node, seg))
		irdma_send_ack(node);
	return false;
}

/* RFC 9293 3.10.7.4: a segment in SYN-RECEIVED or a later state. */
static void irdma_handle_sync_pkt(struct irdma_cm_node *node,
				  const struct irdma_cm_seg *seg)
{
	struct irdma_cm_core *core = node->core;
	struct irdma_tcp_rcv_state st = {
		.rcv_nxt = node->rcv_nxt,
		.rcv_wnd = node->rcv_wnd,
		.snd_una = node->snd_una,
		/* An ACK of CM data still held back acknowledges nothing sent. */
		.snd_nxt = node->snd_high,
		.max_snd_wnd = node->max_snd_wnd,
	};
	u32 rcv_before, acks_before;

	/* Our SYN-ACK was lost and the peer sends its SYN again. */
	if (node->state == IRDMA_CM_STATE_SYN_RCVD &&
	    (seg->flags & (IRDMA_TCP_SYN | IRDMA_TCP_ACK | IRDMA_TCP_RST)) ==
	    IRDMA_TCP_SYN && seg->seq == node->irs) {
		irdma_cm_count(core, IRDMA_CM_CNT_SYN_DUP);
		/* Karn: the ACK may answer either SYN-ACK. */
		clear_bit(IRDMA_CM_F_RTT_TIMING, &node->flags);
		irdma_send_syn(node, true);
		return;
	}
	if (!irdma_cm_paws_ok(node, seg))
		return;
	/*
	 * RFC 9293 3.10.7.4 "fifth": in SYN-RECEIVED an acceptable segment
	 * whose ACK does not acknowledge our SYN (and nothing beyond) is
	 * answered with <SEQ=SEG.ACK><CTL=RST>, not with an ACK.
	 */
	if (node->state == IRDMA_CM_STATE_SYN_RCVD &&
	    (seg->flags & (IRDMA_TCP_SYN | IRDMA_TCP_ACK | IRDMA_TCP_RST)) ==
	    IRDMA_TCP_ACK &&
	    irdma_seq_acceptable(st.rcv_nxt, st.rcv_wnd, seg->seq,
				 seg->payload_len +
				 !!(seg->flags & IRDMA_TCP_FIN)) &&
	    !(irdma_seq_lt(node->snd_una, seg->ack) &&
	      irdma_seq_le(seg->ack, node->snd_nxt))) {
		irdma_cm_count(core, IRDMA_CM_CNT_BAD_ACK);
		irdma_cm_reply_reset(core, seg);
		return;
	}
	switch (irdma_check_seq(&st, seg->seq, seg->ack, seg->flags,
				seg->payload_len)) {
	case IRDMA_SEQ_ACCEPT:
		break;
	case IRDMA_SEQ_DROP_ACK:
		irdma_cm_count(core, IRDMA_CM_CNT_SEQ_DROP_ACK);
		if (node->state == IRDMA_CM_STATE_TIME_WAIT &&
		    (seg->flags & IRDMA_TCP_FIN))
			irdma_cm_arm_close(node, core->time_wait);
		if (!irdma_cm_oow_ack_allowed(node, seg)) {
			irdma_cm_count(core, IRDMA_CM_CNT_OOW_ACK_LIMITED);
			return;
		}
		irdma_send_ack(node);
		return;
	case IRDMA_SEQ_DROP:
		irdma_cm_count(core, IRDMA_CM_CNT_SEQ_DROP);
		return;
	case IRDMA_SEQ_CHALLENGE_ACK:
		if (!irdma_cm_challenge_ack_allowed(node)) {
			irdma_cm_count(core, IRDMA_CM_CNT_CHALLENGE_ACK_LIMITED);
			return;
		}
		irdma_cm_count(core, IRDMA_CM_CNT_CHALLENGE_ACK);
		irdma_send_ack(node);
		return;
	case IRDMA_SEQ_RESET:
		irdma_handle_rst_pkt(node);
		return;
	}
	/* RFC 7323 4.3 (R3): the timestamp to echo from now on. */
	if (test_bit(IRDMA_CM_F_TS_OK, &node->flags) && seg->opts.has_ts &&
	    irdma_seq_le(seg->seq, node->last_ack_sent))
		node->ts_recent = seg->opts.tsval;

	if (node->state == IRDMA_CM_STATE_SYN_RCVD) {
		irdma_cm_rtt_ack(node, seg->ack);
		node->snd_una = seg->ack;
		node->snd_wl1 = seg->seq - 1;
		irdma_cm_tcp_established(node);
	}
	irdma_handle_ack_pkt(node, seg);
	if (node->state == IRDMA_CM_STATE_CLOSED)
		return;

	rcv_before = node->rcv_nxt;
	acks_before = node->tx_acks;
	if (seg->payload_len &&
	    (irdma_cm_tcp_estab(node) ||
	     node->state == IRDMA_CM_STATE_FIN_WAIT1 ||
	     node->state == IRDMA_CM_STATE_FIN_WAIT2))
		irdma_cm_rcv_data(node, seg);
	if (node->state == IRDMA_CM_STATE_CLOSED)
		return;
	/* A stream handed off within this segment is the QP's from here. */
	if ((seg->flags & IRDMA_TCP_FIN) && !irdma_cm_fin_rcvd(node) &&
	    node->state != IRDMA_CM_STATE_OFFLOADED &&
	    seg->seq + seg->payload_len == node->rcv_nxt)
		irdma_handle_fin_pkt(node);
	if (node->state == IRDMA_CM_STATE_CLOSED)
		return;
	/*
	 * Unless a segment sent meanwhile carries the ACK already. Once
	 * offloaded, only what the CM took (the MPA reply) is acknowledged:
	 * bytes left to the QP are the QP's to acknowledge.
	 */
	if ((node->rcv_nxt != rcv_before ||
	     (seg->payload_len && node->state != IRDMA_CM_STATE_OFFLOADED)) &&
	    node->tx_acks == acks_before)
		irdma_send_ack(node);
}

/**
 * irdma_process_pkt() - run the state machine on a segment
 * @node: the connection, locked
 * @seg: the segment, validated
 */
void irdma_process_pkt(struct irdma_cm_node *node,
		       const struct irdma_cm_seg *seg)
{
	switch (node->state) {
	case IRDMA_CM_STATE_CLOSED:
		irdma_cm_count(node->core, IRDMA_CM_CNT_SEQ_DROP);
		return;
	case IRDMA_CM_STATE_SYN_SENT:
		irdma_handle_synack_pkt(node, seg);
		return;
	default:
		irdma_handle_sync_pkt(node, seg);
		return;
	}
}
