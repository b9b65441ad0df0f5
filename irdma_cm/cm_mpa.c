// SPDX-License-Identifier: GPL-2.0-only
/*
 * MPA on top of the CM's TCP (RFC 5044 7.1, RFC 6581): the initiator's
 * request once TCP is established, the responder's reply or reject on the
 * consumer's word, the reassembly of the peer's frame across segments,
 * the peer-to-peer initiator's RTR message, and the TCP context handed
 * over at ESTABLISHED.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/align.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include "madcm_compat.h"
#include "irdma_cm/cm_core.h"
#include "irdma_cm/cm_trace.h"
#include "irdma_cm/tcp_seq.h"

/* Our MPA frame, built in tx_buf, enters the sequence space. */
static void irdma_cm_send_frame(struct irdma_cm_node *node)
{
	trace_madcm_cm_mpa_tx(node, (const struct ietf_mpa_v1 *)node->tx_buf,
			      node->tx_len, 0);
	irdma_cm_send_data(node);
}

/**
 * irdma_send_mpa_request() - the initiator's MPA request
 * @node: the node, locked, TCP just established
 *
 * The request was built into @node->tx_buf at connect time; it now takes
 * its place in the sequence space, and the MPA timeout starts.
 */
void irdma_send_mpa_request(struct irdma_cm_node *node)
{
	irdma_cm_set_state(node, IRDMA_CM_STATE_MPA_REQ_SENT);
	irdma_cm_send_frame(node);
	irdma_cm_arm_mpa(node);
}

/* Build an MPA frame with @pdata into tx_buf; the caller sends it. */
static int irdma_cm_build_frame(struct irdma_cm_node *node, u8 key,
				const void *pdata, u16 len)
{
	struct irdma_kmem_info mpa;
	int hdr;

	/* Too long to fit any frame: no buffer is needed to say so. */
	if (len > IETF_MAX_PRIV_DATA_LEN)
		return -EMSGSIZE;
	hdr = irdma_cm_tx_alloc(node, len);
	if (hdr)
		return hdr;
	mpa.addr = node->tx_buf;
	mpa.size = node->tx_size;
	node->pdata.addr = pdata;
	node->pdata.size = len;
	hdr = irdma_cm_build_mpa_frame(node, &mpa, key);
	if (hdr < 0)
		return hdr;
	if (len)
		memcpy(node->tx_buf + hdr, pdata, len);
	node->tx_len = hdr + len;
	/* @pdata is the caller's; what we sent stays in tx_buf. */
	node->pdata.addr = node->tx_buf + hdr;
	return 0;
}

/**
 * irdma_cm_build_request() - build the initiator's request at connect
 * @node: the node, its MPA parameters set
 * @pdata: the consumer's private data
 * @len: its length
 *
 * Return: 0, -ENOMEM, or irdma_cm_build_mpa_frame()'s error.
 */
int irdma_cm_build_request(struct irdma_cm_node *node, const void *pdata,
			   u16 len)
{
	return irdma_cm_build_frame(node, MPA_KEY_REQUEST, pdata, len);
}

static void irdma_cm_leave_backlog(struct irdma_cm_node *node)
{
	if (test_and_clear_bit(IRDMA_CM_F_IN_BACKLOG, &node->flags))
		atomic_dec(&node->listener->pending);
}

/* RFC 6581's peer-to-peer model with an RTR message is in use. */
static bool irdma_cm_p2p_rtr(const struct irdma_cm_node *node)
{
	return (node->mpa_opts & IRDMA_MPA_OPT_P2P) &&
	       node->send_rdma0_op != IRDMA_RTR_NONE;
}

/*
 * The MPA exchange is over on our side: hand the stream to the offload
 * QP, if there is one, and tell the consumer. A QP that refuses the
 * stream ends the connection with a RST and RESET (the status is the
 * QP's); the consumer then never hears CONNECT_REPLY or ESTABLISHED.
 */
static void irdma_cm_established(struct irdma_cm_node *node)
{
	int ret;

	node->mpa_result = IRDMA_MPA_ACCEPTED;
	irdma_cm_disarm_mpa(node);
	irdma_cm_set_state(node, IRDMA_CM_STATE_ESTABLISHED);
	if (node->oqp) {
		ret = irdma_cm_offload(node);
		if (ret) {
			irdma_cm_dbg(node, "offload refused: %d\n", ret);
			irdma_cm_count(node->core, IRDMA_CM_CNT_OFFLOAD_FAIL);
			irdma_cm_reset_node(node, ret);
			return;
		}
	}
	/* The RTR FPDU is consumed or handed over; the frame we sent. */
	irdma_cm_rx_free(node);
	irdma_cm_tx_done(node);
	irdma_cm_count(node->core, IRDMA_CM_CNT_ESTABLISHED);
	if (node->role == IRDMA_CM_ROLE_INITIATOR)
		irdma_cm_event(node, MADCM_CM_EVENT_CONNECT_REPLY, 0);
	irdma_cm_event(node, MADCM_CM_EVENT_ESTABLISHED, 0);
}

/**
 * irdma_send_mpa_reply() - accept: the responder's MPA reply
 * @node: the node, locked, MPA request received
 * @attr: the consumer's private data and IRD/ORD limits
 *
 * The reply carries the IRD/ORD negotiated from the request, lowered to
 * @attr's when given. The connection is then established (the consumer
 * gets ESTABLISHED with the TCP context) or, in RFC 6581's peer-to-peer
 * model, waits for the initiator's RTR message first (MPA-RTR-WAIT,
 * under the MPA timeout).
 *
 * Return: 0, -EMSGSIZE for private data that does not fit, -ENOMEM.
 */
int irdma_send_mpa_reply(struct irdma_cm_node *node,
			 const struct madcm_cm_accept_attr *attr)
{
	int ret;

	if (attr->ird && attr->ird < node->ird_size)
		node->ird_size = attr->ird;
	if (attr->ord && attr->ord < node->ord_size)
		node->ord_size = attr->ord;
	ret = irdma_cm_build_frame(node, MPA_KEY_REPLY, attr->private_data,
				   attr->private_data_len);
	if (ret)
		return ret;
	if (attr->handler) {
		node->handler = attr->handler;
		node->context = attr->context;
	}
	irdma_cm_leave_backlog(node);
	irdma_cm_send_frame(node);
	if (irdma_cm_p2p_rtr(node)) {
		irdma_cm_set_state(node, IRDMA_CM_STATE_MPA_RTR_WAIT);
		irdma_cm_rx_free(node);
		node->rtr_len = 0;
		irdma_cm_arm_mpa(node);
		return 0;
	}
	irdma_cm_established(node);
	return 0;
}

/**
 * irdma_send_mpa_reject() - reject: a reply with R set, then FIN
 * @node: the node, locked, MPA request received
 * @pdata: private data for the peer
 * @len: its length
 *
 * Return: 0, -EMSGSIZE for private data that does not fit, -ENOMEM.
 */
int irdma_send_mpa_reject(struct irdma_cm_node *node, const void *pdata,
			  u16 len)
{
	int ret;

	ret = irdma_cm_build_frame(node, MPA_KEY_REJECT, pdata, len);
	if (ret)
		return ret;
	irdma_cm_leave_backlog(node);
	irdma_cm_send_frame(node);
	node->mpa_result = IRDMA_MPA_REJECTED;
	irdma_cm_count(node->core, IRDMA_CM_CNT_REJECT_SENT);
	irdma_cm_start_close(node);
	return 0;
}

/*
 * RFC 6581: a peer-to-peer initiator sends the RTR message the
 * negotiation chose after the reply, before anything else; the
 * responder's QP waits for it. There is no QP behind the software CM, so
 * the CM sends it, as an FPDU after the MPA request in the stream.
 */
static int irdma_send_rtr(struct irdma_cm_node *node)
{
	int len;

	/* Markers in what we send are not supported. */
	if (node->mpa_opts & IRDMA_MPA_OPT_PEER_MARKERS)
		return -EOPNOTSUPP;
	len = irdma_build_rtr_fpdu(node->send_rdma0_op,
				   irdma_cm_mpa_crc(node),
				   node->tx_buf + node->tx_len,
				   node->tx_size - node->tx_len);
	if (len < 0)
		return len;
	irdma_cm_send_more(node, len);
	irdma_cm_count(node->core, IRDMA_CM_CNT_RTR_SENT);
	return 0;
}

/*
 * The RTR message goes out from process context, as irdma's does once
 * its event handler has moved the QP to RTS, not from the softirq that
 * took the reply in. A responder may still be finishing its accept when
 * its reply reaches us: siw (Linux 6.1) starts waiting for the RTR only
 * after its reply is sent, and an RTR that arrives before then, which
 * over a veth pair happens within the responder's own send, is never
 * read. The core's rtr_delay_ms holds the RTR back longer where a peer
 * needs it.
 */
static void irdma_cm_rtr_work(struct work_struct *work)
{
	struct irdma_cm_setup *setup = container_of(to_delayed_work(work),
						    struct irdma_cm_setup,
						    rtr_work);
	struct irdma_cm_node *node = setup->node;
	struct irdma_cm_core *core = node->core;
	int ret;

	irdma_cm_node_lock(node);
	/* Anything that ended the connection meanwhile changed its state. */
	if (node->state == IRDMA_CM_STATE_MPA_RTR_WAIT) {
		ret = irdma_send_rtr(node);
		if (ret) {
			irdma_cm_dbg(node, "RTR message not sent: %d\n", ret);
			irdma_cm_count(node->core, IRDMA_CM_CNT_RTR_FAIL);
			irdma_cm_reset_node(node, ret);
		} else {
			irdma_cm_established(node);
		}
	}
	irdma_cm_node_unlock(node);
	/* The node's reference keeps the core's memory until here. */
	if (atomic_dec_and_test(&core->rtr_pending))
		wake_up(&core->drain);
	irdma_cm_node_put(node);
}

/* The peer's frame is complete and well formed. */
static void irdma_cm_mpa_frame_done(struct irdma_cm_node *node, u32 type)
{
	struct irdma_cm_core *core = node->core;

	irdma_cm_disarm_mpa(node);
	if (node->role == IRDMA_CM_ROLE_RESPONDER) {
		irdma_cm_set_state(node, IRDMA_CM_STATE_MPA_REQ_RCVD);
		/* The consumer's reference, given back by madcm_cm_release(). */
		irdma_cm_node_get(node);
		set_bit(IRDMA_CM_F_CONSUMER, &node->flags);
		irdma_cm_count(core, IRDMA_CM_CNT_PASSIVE_OPENS);
		irdma_cm_event(node, MADCM_CM_EVENT_CONNECT_REQUEST, 0);
		return;
	}
	if (type == IRDMA_MPA_REQUEST_REJECT) {
		node->mpa_result = IRDMA_MPA_REJECTED;
		irdma_cm_count(core, IRDMA_CM_CNT_REJECT_RCVD);
		irdma_cm_event(node, MADCM_CM_EVENT_REJECTED, -ECONNREFUSED);
		irdma_cm_start_close(node);
		return;
	}
	if (irdma_cm_p2p_rtr(node)) {
		irdma_cm_set_state(node, IRDMA_CM_STATE_MPA_RTR_WAIT);
		INIT_DELAYED_WORK(&node->setup->rtr_work, irdma_cm_rtr_work);
		irdma_cm_node_get(node);
		atomic_inc(&core->rtr_pending);
		queue_delayed_work(core->event_wq, &node->setup->rtr_work,
				   core->rtr_delay);
		return;
	}
	irdma_cm_established(node);
}

/* RFC 5044 4.1: ULPDU_Length, the ULPDU, PAD to 4 octets, the CRC field. */
static u32 irdma_cm_fpdu_len(const u8 *hdr)
{
	return ALIGN(2 + get_unaligned_be16(hdr), 4) + 4;
}

/**
 * irdma_cm_rtr_rcv() - a peer-to-peer responder reads the RTR message
 * @node: the node, locked, in MPA-RTR-WAIT as the responder
 * @seg: a segment that passed the sequence checks
 *
 * RFC 6581 section 4: the responder may use the connection only once
 * the initiator's RTR message, its first FPDU, has arrived. The FPDU is
 * gathered in @rx_buf; RCV.NXT does not move past it, so a segment
 * continuing it is expected at RCV.NXT + @rx_len. Once it is all in,
 * a CM that keeps the stream takes it (and acknowledges it); one that
 * hands the stream to a QP leaves it to the QP (the offload context's
 * received bytes). Markers are never asked for (the M flag we send is
 * 0), so the FPDU has none. A first FPDU larger than an MPA frame, or
 * one irdma_rtr_fpdu_ok() refuses (its opcode, queue, MSN, length or
 * CRC), is no RTR message: the connection is reset (rtr_bad).
 */
void irdma_cm_rtr_rcv(struct irdma_cm_node *node,
		      const struct irdma_cm_seg *seg)
{
	u32 at = node->rcv_nxt + node->rx_len;
	u32 skip, n;

	if (irdma_seq_lt(at, seg->seq)) {
		irdma_cm_count(node->core, IRDMA_CM_CNT_OOO_DROP);
		return;
	}
	skip = at - seg->seq;
	if (skip >= seg->payload_len)
		return;
	n = min(seg->payload_len - skip,
		(u32)IRDMA_CM_MPA_MAX_FRAME - node->rx_len);
	if (!irdma_cm_rx_room(node, n))
		return;
	memcpy(node->rx_buf + node->rx_len, seg->payload + skip, n);
	node->rx_len += n;
	if (node->rx_len < 2)
		return;
	node->rtr_len = irdma_cm_fpdu_len(node->rx_buf);
	if (node->rtr_len > IRDMA_CM_MPA_MAX_FRAME) {
		irdma_cm_dbg(node, "first FPDU of %u bytes is no RTR\n",
			     node->rtr_len);
		irdma_cm_count(node->core, IRDMA_CM_CNT_MPA_BAD);
		irdma_cm_reset_node(node, -EPROTO);
		return;
	}
	if (node->rx_len < node->rtr_len)
		return;
	if (!irdma_rtr_fpdu_ok(node->rx_buf, node->rtr_len,
			       irdma_cm_mpa_crc(node))) {
		irdma_cm_dbg(node, "first FPDU is no RTR message\n");
		irdma_cm_count(node->core, IRDMA_CM_CNT_RTR_BAD);
		irdma_cm_reset_node(node, -EPROTO);
		return;
	}
	if (node->rx_len > node->rtr_len)
		atomic64_add(node->rx_len - node->rtr_len,
			     &node->core->cnt[IRDMA_CM_CNT_RX_EARLY]);
	irdma_cm_count(node->core, IRDMA_CM_CNT_RTR_RCVD);
	if (!node->oqp)
		node->rcv_nxt += node->rtr_len;
	irdma_cm_established(node);
}

/**
 * irdma_cm_mpa_want() - bytes still missing of the peer's MPA frame
 * @node: the node
 *
 * Until the header is in, the rest of the header; then the rest of the
 * frame its length announces (at most what the buffer holds: a longer
 * one is refused once it is in).
 *
 * Return: the number of bytes, 0 when the frame is complete.
 */
u32 irdma_cm_mpa_want(const struct irdma_cm_node *node)
{
	const struct ietf_mpa_v1 *hdr = (const struct ietf_mpa_v1 *)node->rx_buf;
	u32 total;

	if (node->rx_len < sizeof(*hdr))
		return sizeof(*hdr) - node->rx_len;
	/* A length no frame may have is judged now, not after a wait. */
	if (be16_to_cpu(hdr->priv_data_len) > IETF_MAX_PRIV_DATA_LEN)
		return 0;
	total = sizeof(*hdr) + be16_to_cpu(hdr->priv_data_len);
	total = min_t(u32, total, IRDMA_CM_MPA_MAX_FRAME);
	return total - node->rx_len;
}

/* The header has the wrong key or announces too much private data. */
static bool irdma_cm_mpa_hdr_bad(const struct irdma_cm_node *node)
{
	const struct ietf_mpa_v1 *hdr = (const struct ietf_mpa_v1 *)node->rx_buf;
	const char *key = node->role == IRDMA_CM_ROLE_RESPONDER ?
			  IETF_MPA_KEY_REQ : IETF_MPA_KEY_REP;

	return memcmp(hdr->key, key, IETF_MPA_KEY_SIZE) ||
	       be16_to_cpu(hdr->priv_data_len) > IETF_MAX_PRIV_DATA_LEN;
}

/**
 * irdma_cm_mpa_rcv() - judge the peer's MPA frame once it is complete
 * @node: the node, locked, waiting for the request or the reply
 *
 * The frame may arrive in any number of segments (irdma_cm_mpa_want()
 * says how much is missing). Once all of it is in, irdma_parse_mpa()
 * judges it; a refused frame resets the connection, and so does a frame
 * asking for markers (other than a reject). A header with the
 * wrong key or a private data length above 512 is judged at once, so
 * that a peer sending something else is refused without delay.
 */
void irdma_cm_mpa_rcv(struct irdma_cm_node *node)
{
	u32 type = 0;
	int ret;

	if (node->rx_len < sizeof(struct ietf_mpa_v1))
		return;
	/* A frame that cannot be good is refused without waiting for it. */
	if (irdma_cm_mpa_want(node) && !irdma_cm_mpa_hdr_bad(node))
		return;
	ret = irdma_parse_mpa(node, node->rx_buf, &type, node->rx_len);
	/*
	 * RFC 5044 7.1: a frame with M set asks us to insert markers into
	 * what we send, which we cannot do; neither role goes on (a reject
	 * needs no markers, so it is still reported as such).
	 */
	if (!ret && type != IRDMA_MPA_REQUEST_REJECT &&
	    (node->mpa_opts & IRDMA_MPA_OPT_PEER_MARKERS))
		ret = irdma_mpa_refuse(IRDMA_MPA_REJ_MARKERS);
	trace_madcm_cm_mpa_rx(node, (const struct ietf_mpa_v1 *)node->rx_buf,
			      node->rx_len, ret);
	/* The received private data is read from the frame: keep it. */
	irdma_cm_rx_keep(node);
	if (ret) {
		irdma_cm_dbg(node, "MPA frame refused: %d\n", ret);
		irdma_cm_count(node->core, IRDMA_CM_CNT_MPA_BAD);
		irdma_cm_reset_node(node, ret);
		return;
	}
	irdma_cm_mpa_frame_done(node, type);
}

/**
 * irdma_init_tcp_ctx() - the TCP context a QP takes over
 * @node: the node, locked, established
 * @ctx: filled in
 */
void irdma_init_tcp_ctx(struct irdma_cm_node *node,
			struct madcm_cm_tcp_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->ipv4 = irdma_cm_node_ipv4(node);
	ctx->vlan_id = node->key.vlan_id;
	ctx->tos = node->tos;
	ctx->ttl = node->ttl;
	ctx->flow_label = node->flow_label;
	memcpy(ctx->loc_mac, node->loc_mac, ETH_ALEN);
	memcpy(ctx->rem_mac, node->rem_mac, ETH_ALEN);
	ctx->loc.ip = node->key.loc_ip;
	ctx->loc.port = node->key.loc_port;
	ctx->rem.ip = node->key.rem_ip;
	ctx->rem.port = node->key.rem_port;
	ctx->snd_nxt = node->snd_nxt;
	ctx->snd_una = node->snd_una;
	ctx->snd_wnd = node->snd_wnd;
	ctx->snd_wl1 = node->snd_wl1;
	ctx->snd_wl2 = node->snd_wl2;
	ctx->max_snd_wnd = node->max_snd_wnd;
	ctx->rcv_nxt = node->rcv_nxt;
	/* RCV.WND: what the CM offered; the QP's TCP opens it further */
	ctx->rcv_wnd = node->rcv_wnd;
	ctx->snd_mss = node->snd_mss;
	ctx->snd_wscale = node->snd_wscale;
	ctx->rcv_wscale = node->rcv_wscale;
	ctx->ird = node->ird_size;
	ctx->ord = node->ord_size;
	ctx->mpa_rev = node->mpa_frame_rev;
	ctx->rtr_type = node->send_rdma0_op;
	ctx->peer_to_peer = node->mpa_opts & IRDMA_MPA_OPT_P2P;
	ctx->responder = node->role == IRDMA_CM_ROLE_RESPONDER;
	ctx->crc = irdma_cm_mpa_crc(node);
	ctx->snd_markers = node->mpa_opts & IRDMA_MPA_OPT_PEER_MARKERS;
	ctx->rcv_markers = node->mpa_opts & IRDMA_MPA_OPT_MARKERS;
	ctx->ts = test_bit(IRDMA_CM_F_TS_OK, &node->flags);
	ctx->sack = test_bit(IRDMA_CM_F_SACK_OK, &node->flags);
	ctx->ts_off = ctx->ts ? irdma_cm_ts_off(node) : 0;
	ctx->ts_recent = ctx->ts ? node->ts_recent : 0;
}
