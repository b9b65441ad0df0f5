// SPDX-License-Identifier: GPL-2.0-only
/*
 * MPA connection setup (RFC 5044 section 7.1, RFC 6581): building the
 * request, reply and reject frame headers, checking a received frame,
 * negotiating IRD/ORD and the RTR message type, and building the RTR
 * message as an MPA FPDU (RFC 5044 section 4) with its DDP/RDMAP header
 * (RFC 5041, RFC 5040). The wire layouts are iwarp.h's; the state
 * machine that sends and receives these frames is cm_mpa.c.
 *
 * A received frame comes from the wire: every field is checked against
 * the buffer length before it is read, every refusal is counted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include "madcm_compat.h"
#include "irdma_cm/cm_node.h"
#include "irdma_cm/mpa.h"

/* ---- Building frame headers ---- */

static u8 irdma_mpa_header_flags(const struct irdma_cm_node *cm_node,
				 u8 mpa_key)
{
	u8 flags = 0;

	if (cm_node->mpa_opts & IRDMA_MPA_OPT_MARKERS)
		flags |= IETF_MPA_FLAGS_MARKERS;
	if (cm_node->mpa_opts & IRDMA_MPA_OPT_CRC)
		flags |= IETF_MPA_FLAGS_CRC;
	if (mpa_key == MPA_KEY_REJECT)
		flags |= IETF_MPA_FLAGS_REJECT;
	return flags;
}

/**
 * irdma_build_mpa_v1 - build an MPA revision 1 frame header
 * @cm_node: the connection whose parameters go into the frame
 * @start_addr: where to build the header
 * @mpa_key: MPA_KEY_REQUEST, MPA_KEY_REPLY or MPA_KEY_REJECT
 *
 * Writes the 20-byte RFC 5044 header: the request key for MPA_KEY_REQUEST,
 * the reply key otherwise; M and C from IRDMA_MPA_OPT_MARKERS and
 * IRDMA_MPA_OPT_CRC in @cm_node->mpa_opts, R for MPA_KEY_REJECT; the revision
 * @cm_node->mpa_frame_rev; the length of @cm_node->pdata. The caller has
 * checked the parameters (irdma_cm_build_mpa_frame() does) and provides
 * at least sizeof(struct ietf_mpa_v1) bytes at @start_addr.
 */
void irdma_build_mpa_v1(struct irdma_cm_node *cm_node, void *start_addr,
			u8 mpa_key)
{
	struct ietf_mpa_v1 *mpa_frame = start_addr;
	const char *key = mpa_key == MPA_KEY_REQUEST ? IETF_MPA_KEY_REQ :
						      IETF_MPA_KEY_REP;

	memcpy(mpa_frame->key, key, IETF_MPA_KEY_SIZE);
	mpa_frame->flags = irdma_mpa_header_flags(cm_node, mpa_key);
	mpa_frame->rev = cm_node->mpa_frame_rev;
	mpa_frame->priv_data_len = cpu_to_be16(cm_node->pdata.size);
}

/*
 * The RTR types a frame announces: all we can do in a request, the one
 * chosen in a reply or reject.
 */
static u8 irdma_mpa_rtr_to_send(const struct irdma_cm_node *cm_node,
				u8 mpa_key)
{
	if (!(cm_node->mpa_opts & IRDMA_MPA_OPT_P2P))
		return IRDMA_RTR_NONE;
	if (mpa_key == MPA_KEY_REQUEST)
		return cm_node->rtr_caps & IRDMA_RTR_ALL;
	return cm_node->send_rdma0_op & IRDMA_RTR_ALL;
}

/**
 * irdma_build_mpa_v2 - build an MPA revision 2 frame header
 * @cm_node: the connection whose parameters go into the frame
 * @start_addr: where to build the header
 * @mpa_key: MPA_KEY_REQUEST, MPA_KEY_REPLY or MPA_KEY_REJECT
 *
 * Writes the header of irdma_build_mpa_v1() with S set and the private
 * data length grown by the RFC 6581 IRD/ORD words, then those words: our
 * IRD and ORD (IETF_NO_IRD_ORD for both when @cm_node->mpav2_ird_ord says
 * so, else capped at IETF_MAX_IRD_ORD), the peer-to-peer flag from
 * IRDMA_MPA_OPT_P2P and, in peer-to-peer mode, the RTR types: every
 * one of @cm_node->rtr_caps in a request, @cm_node->send_rdma0_op in a
 * reply or reject. The caller provides at least sizeof(struct ietf_mpa_v2)
 * bytes at @start_addr.
 */
void irdma_build_mpa_v2(struct irdma_cm_node *cm_node, void *start_addr,
			u8 mpa_key)
{
	struct ietf_mpa_v2 *mpa_frame = start_addr;
	u8 rtr = irdma_mpa_rtr_to_send(cm_node, mpa_key);
	u16 ctrl_ird, ctrl_ord;

	irdma_build_mpa_v1(cm_node, start_addr, mpa_key);
	mpa_frame->flags |= IETF_MPA_FLAGS_ENHANCED;
	mpa_frame->priv_data_len = cpu_to_be16(cm_node->pdata.size +
					       IETF_RTR_MSG_SIZE);

	if (cm_node->mpav2_ird_ord == IETF_NO_IRD_ORD) {
		ctrl_ird = IETF_NO_IRD_ORD;
		ctrl_ord = IETF_NO_IRD_ORD;
	} else {
		ctrl_ird = min_t(u16, cm_node->ird_size, IETF_MAX_IRD_ORD);
		ctrl_ord = min_t(u16, cm_node->ord_size, IETF_MAX_IRD_ORD);
	}
	if (cm_node->mpa_opts & IRDMA_MPA_OPT_P2P)
		ctrl_ird |= IETF_PEER_TO_PEER;
	if (rtr & IRDMA_RTR_SEND)
		ctrl_ird |= IETF_RTR_SEND_ZERO;
	if (rtr & IRDMA_RTR_WRITE)
		ctrl_ord |= IETF_RDMA0_WRITE;
	if (rtr & IRDMA_RTR_READ)
		ctrl_ord |= IETF_RDMA0_READ;

	mpa_frame->rtr_msg.ctrl_ird = cpu_to_be16(ctrl_ird);
	mpa_frame->rtr_msg.ctrl_ord = cpu_to_be16(ctrl_ord);
}

/**
 * irdma_cm_build_mpa_frame - build the MPA header for the node's revision
 * @cm_node: the connection whose parameters go into the frame
 * @mpa: where to build the header, and its size
 * @mpa_key: MPA_KEY_REQUEST, MPA_KEY_REPLY or MPA_KEY_REJECT
 *
 * Builds the header for @cm_node->mpa_frame_rev after checking that the
 * frame can be built: a known key and revision, private data that fits
 * the 512 bytes of RFC 5044 together with the 4 bytes of IRD/ORD for
 * revision 2, and room for the header in @mpa. A reply or reject to a
 * revision 2 request without RFC 6581 data (S clear; IRDMA_MPA_OPT_PLAIN_V2)
 * is a revision 2 frame without them too: the request offers the enhanced
 * connection setup, the reply only answers an offer.
 *
 * Return: the header length (20 for revision 1 and for a plain revision 2
 * reply, 24 for revision 2); the
 * private data follows it. -EINVAL for an unknown key or revision or
 * private data without an address, -EMSGSIZE for private data that does
 * not fit, -ENOSPC when @mpa is too small. Nothing is written on error.
 */
int irdma_cm_build_mpa_frame(struct irdma_cm_node *cm_node,
			     struct irdma_kmem_info *mpa, u8 mpa_key)
{
	u32 hdr_len, rtr_len;
	bool plain;

	if (mpa_key != MPA_KEY_REQUEST && mpa_key != MPA_KEY_REPLY &&
	    mpa_key != MPA_KEY_REJECT)
		return -EINVAL;

	switch (cm_node->mpa_frame_rev) {
	case IETF_MPA_V1:
		hdr_len = sizeof(struct ietf_mpa_v1);
		rtr_len = 0;
		break;
	case IETF_MPA_V2:
		hdr_len = sizeof(struct ietf_mpa_v2);
		rtr_len = IETF_RTR_MSG_SIZE;
		break;
	default:
		return -EINVAL;
	}
	/* RFC 6581: a reply carries IRD/ORD only when the request did. */
	plain = cm_node->mpa_frame_rev == IETF_MPA_V2 &&
		mpa_key != MPA_KEY_REQUEST &&
		(cm_node->mpa_opts & IRDMA_MPA_OPT_PLAIN_V2);
	if (plain) {
		hdr_len = sizeof(struct ietf_mpa_v1);
		rtr_len = 0;
	}

	if (cm_node->pdata.size && !cm_node->pdata.addr)
		return -EINVAL;
	if (cm_node->pdata.size > IETF_MAX_PRIV_DATA_LEN - rtr_len)
		return -EMSGSIZE;
	if (!mpa->addr || mpa->size < hdr_len)
		return -ENOSPC;

	if (cm_node->mpa_frame_rev == IETF_MPA_V2 && !plain)
		irdma_build_mpa_v2(cm_node, mpa->addr, mpa_key);
	else
		irdma_build_mpa_v1(cm_node, mpa->addr, mpa_key);

	return hdr_len;
}

/* ---- RFC 6581 IRD/ORD and RTR negotiation ---- */

/* The most IRD and ORD the wire can carry and the device can do. */
static u16 irdma_mpa_ird_cap(const struct irdma_cm_node *cm_node)
{
	return min_t(u16, cm_node->max_ird, IETF_MAX_IRD_ORD);
}

static u16 irdma_mpa_ord_cap(const struct irdma_cm_node *cm_node)
{
	return min_t(u16, cm_node->max_ord, IETF_MAX_IRD_ORD);
}

/**
 * irdma_record_ird_ord - take the consumer's IRD and ORD for a connection
 * @cm_node: the connection
 * @conn_ird: the inbound RDMA Read depth asked for
 * @conn_ord: the outbound RDMA Read depth asked for
 *
 * Caps both at what the device can do (@cm_node->max_ird, max_ord) and
 * at the largest value RFC 6581's 14 bits carry besides IETF_NO_IRD_ORD.
 * An initiator that may send a zero-length RDMA Read as its RTR message
 * needs an ORD of at least one, so an ORD of zero becomes one then.
 */
void irdma_record_ird_ord(struct irdma_cm_node *cm_node, u32 conn_ird,
			  u32 conn_ord)
{
	u16 ird_cap = irdma_mpa_ird_cap(cm_node);
	u16 ord_cap = irdma_mpa_ord_cap(cm_node);

	conn_ird = min_t(u32, conn_ird, ird_cap);
	conn_ord = min_t(u32, conn_ord, ord_cap);
	if (!conn_ord && ord_cap && cm_node->role == IRDMA_CM_ROLE_INITIATOR &&
	    (cm_node->mpa_opts & IRDMA_MPA_OPT_P2P) &&
	    (cm_node->rtr_caps & IRDMA_RTR_READ))
		conn_ord = 1;

	cm_node->ird_size = conn_ird;
	cm_node->ord_size = conn_ord;
}

/* A responder's choice among the RTR types both sides can do. */
static u8 irdma_mpa_choose_rtr(u8 common)
{
	if (common & IRDMA_RTR_READ)
		return IRDMA_RTR_READ;
	if (common & IRDMA_RTR_WRITE)
		return IRDMA_RTR_WRITE;
	if (common & IRDMA_RTR_SEND)
		return IRDMA_RTR_SEND;
	return IRDMA_RTR_NONE;
}

/**
 * irdma_negotiate_mpa_v2_ird_ord - negotiate IRD/ORD and the RTR type
 * @cm_node: the connection; its role says which side of RFC 6581 we are
 * @rtr_msg: the peer's IRD/ORD words, from a frame irdma_parse_mpa()
 *	has checked to hold them
 *
 * The RTR type: in peer-to-peer mode (IRDMA_MPA_OPT_P2P) the peer must
 * have set its peer-to-peer flag too. A responder then picks one of the types the
 * request offers and we can do: RDMA Read, else RDMA Write, else Send (a
 * Read only if we can accept one, an IRD of at least one). An initiator
 * needs the reply to name exactly one type, and one we offered. Without
 * peer-to-peer on our side no RTR message is used.
 *
 * IRD and ORD, unless either side sent IETF_NO_IRD_ORD (then both keep
 * what they have and the connection records IETF_NO_IRD_ORD): a responder
 * lowers its ORD to the initiator's IRD and raises its IRD towards the
 * initiator's ORD as far as the device allows, and to one if the RTR is a
 * Read; the reply tells the initiator the result. An initiator lowers its
 * ORD to the responder's IRD, and fails if the responder's ORD exceeds
 * its IRD, or if the chosen RTR is a Read the responder has no IRD for.
 *
 * @cm_node changes only on success.
 *
 * Return: 0; -EOPNOTSUPP when we need peer-to-peer and the peer did not
 * set it; -ENOPROTOOPT when no RTR type fits (none in common, a reply
 * naming none, several or one we did not offer, or a Read the responder
 * cannot take); -ENOBUFS when our IRD is below the responder's ORD.
 */
int irdma_negotiate_mpa_v2_ird_ord(struct irdma_cm_node *cm_node,
				   const struct ietf_rtr_msg *rtr_msg)
{
	u16 ctrl_ird = be16_to_cpu(rtr_msg->ctrl_ird);
	u16 ctrl_ord = be16_to_cpu(rtr_msg->ctrl_ord);
	u16 peer_ird = ctrl_ird & IETF_IRD_ORD_MASK;
	u16 peer_ord = ctrl_ord & IETF_IRD_ORD_MASK;
	bool responder = cm_node->role == IRDMA_CM_ROLE_RESPONDER;
	u16 ird = cm_node->ird_size, ord = cm_node->ord_size;
	u8 peer_rtr = IRDMA_RTR_NONE, rtr = IRDMA_RTR_NONE;
	bool no_values;

	no_values = peer_ird == IETF_NO_IRD_ORD ||
		    peer_ord == IETF_NO_IRD_ORD ||
		    cm_node->mpav2_ird_ord == IETF_NO_IRD_ORD;

	if (ctrl_ird & IETF_RTR_SEND_ZERO)
		peer_rtr |= IRDMA_RTR_SEND;
	if (ctrl_ord & IETF_RDMA0_WRITE)
		peer_rtr |= IRDMA_RTR_WRITE;
	if (ctrl_ord & IETF_RDMA0_READ)
		peer_rtr |= IRDMA_RTR_READ;

	if (cm_node->mpa_opts & IRDMA_MPA_OPT_P2P) {
		u8 common = peer_rtr & cm_node->rtr_caps;

		if (!(ctrl_ird & IETF_PEER_TO_PEER))
			return irdma_mpa_refuse(IRDMA_MPA_REJ_NO_PEER_TO_PEER);
		if (responder) {
			if (!irdma_mpa_ird_cap(cm_node))
				common &= ~IRDMA_RTR_READ;
			rtr = irdma_mpa_choose_rtr(common);
			if (rtr == IRDMA_RTR_NONE)
				return irdma_mpa_refuse(IRDMA_MPA_REJ_RTR_MISMATCH);
		} else {
			if (hweight8(peer_rtr) != 1 || !common)
				return irdma_mpa_refuse(IRDMA_MPA_REJ_RTR_MISMATCH);
			if (!no_values && peer_rtr == IRDMA_RTR_READ && !peer_ird)
				return irdma_mpa_refuse(IRDMA_MPA_REJ_RTR_MISMATCH);
			rtr = peer_rtr;
		}
	}

	if (!no_values) {
		if (responder) {
			ord = min(ord, peer_ird);
			if (peer_ord > ird)
				ird = min(peer_ord, irdma_mpa_ird_cap(cm_node));
		} else {
			if (ird < peer_ord)
				return irdma_mpa_refuse(IRDMA_MPA_REJ_IRD_TOO_SMALL);
			ord = min(ord, peer_ird);
		}
	}
	if (responder && rtr == IRDMA_RTR_READ && !ird)
		ird = 1;

	cm_node->ird_size = ird;
	cm_node->ord_size = ord;
	cm_node->send_rdma0_op = rtr;
	if (no_values)
		cm_node->mpav2_ird_ord = IETF_NO_IRD_ORD;
	return 0;
}

/* ---- Checking a received frame ---- */

/**
 * irdma_parse_mpa - check a received MPA frame and take in its parameters
 * @cm_node: the connection; its role says which key is expected
 * @buf: the received bytes, starting at the frame's key
 * @type: set to IRDMA_MPA_REQUEST_ACCEPT or IRDMA_MPA_REQUEST_REJECT
 * @len: how many bytes @buf holds
 *
 * A responder expects the request key, an initiator the reply key. The
 * revision must be 1 or 2 and not above @cm_node->mpa_frame_rev (what we
 * offered, or the most we speak); R is ignored in a request; the private
 * data length must be at most 512 and within @len; a revision 2 frame with
 * S set must carry the 4 bytes of IRD/ORD at the start of its private
 * data. Bytes of @buf after the frame are not looked at.
 *
 * A well-formed reply with R set is a reject: its private data is taken,
 * no IRD/ORD is negotiated. Otherwise, with RFC 6581 data present,
 * irdma_negotiate_mpa_v2_ird_ord() runs; without it (revision 1, or
 * revision 2 with S clear) no RTR message is used and IRD/ORD are not
 * exchanged; an initiator that asked for the peer-to-peer model refuses
 * such a reply (it cannot agree to the model), and a responder answers
 * such a revision 2 request without RFC 6581 data too.
 *
 * On success @cm_node takes the frame's revision, the peer's private data
 * (the IRD/ORD words excluded: @cm_node->rcvd_pdata points into @buf,
 * which the caller keeps while it is read), its M and C flags and the
 * negotiated IRD/ORD and RTR type. On error neither @cm_node nor @type
 * is changed.
 *
 * Return: 0, or the error of the first check that failed (each is also
 * counted, see enum irdma_mpa_reject): -ENODATA when @len is shorter
 * than the header; -EBADMSG for a key not expected in our role;
 * -EPROTONOSUPPORT for a revision other than 1 or 2; -EPROTO for a
 * revision above @cm_node->mpa_frame_rev; -EMSGSIZE for a private data
 * length above 512; -EOVERFLOW for a private data length beyond @len;
 * -ENOMSG for a revision 2 frame with S set and less than 4 bytes of
 * private data; or the errors of irdma_negotiate_mpa_v2_ird_ord().
 */
int irdma_parse_mpa(struct irdma_cm_node *cm_node, const u8 *buf, u32 *type,
		    u32 len)
{
	const struct ietf_mpa_v1 *mpa_frame = (const struct ietf_mpa_v1 *)buf;
	const u32 hdr_len = sizeof(*mpa_frame);
	bool responder = cm_node->role == IRDMA_CM_ROLE_RESPONDER;
	u32 priv_data_len, ulp_off;
	bool enhanced, rejected;
	int ret;

	if (len < hdr_len)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_SHORT_HEADER);

	if (memcmp(mpa_frame->key, responder ? IETF_MPA_KEY_REQ :
					       IETF_MPA_KEY_REP,
		   IETF_MPA_KEY_SIZE))
		return irdma_mpa_refuse(IRDMA_MPA_REJ_BAD_KEY);

	if (mpa_frame->rev != IETF_MPA_V1 && mpa_frame->rev != IETF_MPA_V2)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_BAD_REV);
	if (mpa_frame->rev > cm_node->mpa_frame_rev)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_REV_ABOVE_OFFER);

	/* RFC 5044 7.1.2: R is not checked on reception in a request. */
	rejected = !responder && (mpa_frame->flags & IETF_MPA_FLAGS_REJECT);

	priv_data_len = be16_to_cpu(mpa_frame->priv_data_len);
	if (priv_data_len > IETF_MAX_PRIV_DATA_LEN)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_PDATA_TOO_LONG);
	if (priv_data_len > len - hdr_len)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_TRUNCATED);

	enhanced = mpa_frame->rev == IETF_MPA_V2 &&
		   (mpa_frame->flags & IETF_MPA_FLAGS_ENHANCED);
	if (enhanced && priv_data_len < IETF_RTR_MSG_SIZE)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_NO_RTR_MSG);

	/* The last check that can fail; it changes @cm_node only on success. */
	if (!rejected) {
		if (enhanced) {
			const struct ietf_mpa_v2 *v2 =
				(const struct ietf_mpa_v2 *)buf;

			ret = irdma_negotiate_mpa_v2_ird_ord(cm_node,
							     &v2->rtr_msg);
			if (ret)
				return ret;
		} else {
			/*
			 * A reply without RFC 6581 data cannot agree to the
			 * peer-to-peer model (RFC 6581 section 4) we asked for.
			 */
			if (!responder && (cm_node->mpa_opts & IRDMA_MPA_OPT_P2P))
				return irdma_mpa_refuse(IRDMA_MPA_REJ_NO_PEER_TO_PEER);
			cm_node->send_rdma0_op = IRDMA_RTR_NONE;
			cm_node->mpav2_ird_ord = IETF_NO_IRD_ORD;
		}
	}

	/* The IRD/ORD words belong to the CM, the rest to the consumer. */
	ulp_off = enhanced ? IETF_RTR_MSG_SIZE : 0;
	cm_node->rcvd_pdata_len = priv_data_len - ulp_off;
	cm_node->rcvd_pdata = mpa_frame->priv_data + ulp_off;

	cm_node->mpa_frame_rev = mpa_frame->rev;
	cm_node->mpa_opts &= ~(IRDMA_MPA_OPT_PEER_CRC |
			       IRDMA_MPA_OPT_PEER_MARKERS |
			       IRDMA_MPA_OPT_PLAIN_V2);
	if (responder && mpa_frame->rev == IETF_MPA_V2 && !enhanced)
		cm_node->mpa_opts |= IRDMA_MPA_OPT_PLAIN_V2;
	if (mpa_frame->flags & IETF_MPA_FLAGS_CRC)
		cm_node->mpa_opts |= IRDMA_MPA_OPT_PEER_CRC;
	if (mpa_frame->flags & IETF_MPA_FLAGS_MARKERS)
		cm_node->mpa_opts |= IRDMA_MPA_OPT_PEER_MARKERS;
	*type = rejected ? IRDMA_MPA_REQUEST_REJECT : IRDMA_MPA_REQUEST_ACCEPT;
	return 0;
}

/* ---- The RTR message as an MPA FPDU ---- */

static u8 irdma_ddp_ctrl(bool tagged)
{
	return (tagged ? DDP_FLAG_TAGGED : 0) | DDP_FLAG_LAST | DDP_VERSION;
}

static u8 irdma_rdmap_ctrl(enum rdmap_opcode opcode)
{
	return (RDMAP_VERSION << RDMAP_VERSION_SHIFT) |
	       (opcode & RDMAP_MASK_OPCODE);
}

/* A zero-length RDMA Write: one tagged segment, L set. */
static u32 irdma_rtr_write(u8 *ulpdu)
{
	struct ddp_tagged_hdr *hdr = (struct ddp_tagged_hdr *)ulpdu;

	hdr->ddp_ctrl = irdma_ddp_ctrl(true);
	hdr->rdmap_ctrl = irdma_rdmap_ctrl(RDMAP_RDMA_WRITE);
	hdr->stag = cpu_to_be32(IRDMA_RTR_STAG);
	hdr->to = cpu_to_be64(IRDMA_RTR_TO);
	return sizeof(*hdr);
}

/* The first message of an untagged queue, in one segment. */
static void irdma_rtr_untagged(struct ddp_untagged_hdr *hdr,
			       enum rdmap_opcode opcode, enum ddp_untagged_qn qn)
{
	hdr->ddp_ctrl = irdma_ddp_ctrl(false);
	hdr->rdmap_ctrl = irdma_rdmap_ctrl(opcode);
	hdr->inval_stag = 0;
	hdr->qn = cpu_to_be32(qn);
	hdr->msn = cpu_to_be32(DDP_MSN_FIRST);
	hdr->mo = 0;
}

/* A zero-length Send: the first message of the Send queue. */
static u32 irdma_rtr_send(u8 *ulpdu)
{
	irdma_rtr_untagged((struct ddp_untagged_hdr *)ulpdu, RDMAP_SEND,
			   DDP_QN_SEND);
	return sizeof(struct ddp_untagged_hdr);
}

/* A zero-length RDMA Read Request: the first of its queue. */
static u32 irdma_rtr_read(u8 *ulpdu)
{
	struct rdmap_read_req_hdr *rr;

	irdma_rtr_untagged((struct ddp_untagged_hdr *)ulpdu,
			   RDMAP_RDMA_READ_REQUEST, DDP_QN_READ_REQUEST);
	rr = (struct rdmap_read_req_hdr *)(ulpdu + sizeof(struct ddp_untagged_hdr));
	rr->sink_stag = cpu_to_be32(IRDMA_RTR_STAG);
	rr->sink_to = cpu_to_be64(IRDMA_RTR_TO);
	rr->read_size = 0;
	rr->src_stag = cpu_to_be32(IRDMA_RTR_STAG);
	rr->src_to = cpu_to_be64(IRDMA_RTR_TO);
	return sizeof(struct ddp_untagged_hdr) + sizeof(*rr);
}

/**
 * irdma_build_rtr_fpdu() - build the RTR message as an MPA FPDU
 * @rtr_type: exactly one of IRDMA_RTR_WRITE, IRDMA_RTR_READ and
 *	IRDMA_RTR_SEND: the type the MPA negotiation chose
 * @crc: CRCs were negotiated
 * @buf: where to build the FPDU
 * @size: the room at @buf
 *
 * The message is the first on its connection: a zero-length RDMA Write
 * (tagged, STag and offset 0), RDMA Read Request (queue 1, MSN 1, a Read
 * Message Size of 0) or Send (queue 0, MSN 1), one DDP segment with L
 * set, DDP and RDMAP version 1.
 *
 * Return: the FPDU's length; -EINVAL when @rtr_type is not exactly one
 * type, -ENOSPC when @size is below its length. Nothing is written on
 * error.
 */
int irdma_build_rtr_fpdu(u8 rtr_type, bool crc, u8 *buf, u32 size)
{
	u8 ulpdu[IRDMA_RTR_MAX_FPDU];
	u32 len;

	switch (rtr_type) {
	case IRDMA_RTR_WRITE:
		len = irdma_rtr_write(ulpdu);
		break;
	case IRDMA_RTR_READ:
		len = irdma_rtr_read(ulpdu);
		break;
	case IRDMA_RTR_SEND:
		len = irdma_rtr_send(ulpdu);
		break;
	default:
		return -EINVAL;
	}
	if (size < madcm_mpa_fpdu_len(len))
		return -ENOSPC;
	memcpy(buf + MPA_ULPDU_LEN_SIZE, ulpdu, len);
	return madcm_mpa_frame(buf, size, len, crc);
}

/**
 * irdma_rtr_fpdu_ok() - is a received first FPDU an RTR message?
 * @fpdu: the FPDU, from its ULPDU_Length on
 * @len: its length, PAD and CRC field included (as ULPDU_Length says)
 * @crc: CRCs were negotiated
 *
 * RFC 6581 4: a zero-length RDMA Write (tagged), RDMA Read Request
 * (queue 1, a Read Message Size of 0) or Send (queue 0), each one DDP
 * segment with L set, DDP and RDMAP version 1 (RFC 5041 4.2-4.4, RFC
 * 5040 4.1-4.4), an untagged one the first message of its queue (MSN 1,
 * MO 0), and its CRC (RFC 5044 4.1) right when CRCs were negotiated. The
 * type is not matched against the negotiation: a peer may send any of
 * the three, and a QP that takes the stream over answers a Read Request
 * itself. Reserved bits are not checked, as the RFCs ask of a receiver.
 *
 * Return: true for an RTR message.
 */
bool irdma_rtr_fpdu_ok(const u8 *fpdu, u32 len, bool crc)
{
	const struct ddp_untagged_hdr *u;
	const struct rdmap_read_req_hdr *rr;
	u32 ulpdu_len, want;
	u8 ddp, rdmap;

	if (len < MPA_ULPDU_LEN_SIZE + sizeof(struct ddp_tagged_hdr) +
		  MPA_CRC_SIZE)
		return false;
	ulpdu_len = get_unaligned_be16(fpdu);
	if (madcm_mpa_fpdu_len(ulpdu_len) != len)
		return false;
	if (crc && !madcm_mpa_fpdu_crc_ok(fpdu, len))
		return false;
	ddp = fpdu[MPA_ULPDU_LEN_SIZE];
	rdmap = fpdu[MPA_ULPDU_LEN_SIZE + 1];
	if (!(ddp & DDP_FLAG_LAST) || (ddp & DDP_MASK_VERSION) != DDP_VERSION ||
	    (rdmap & RDMAP_MASK_VERSION) >> RDMAP_VERSION_SHIFT != RDMAP_VERSION)
		return false;
	if (ddp & DDP_FLAG_TAGGED)
		return (rdmap & RDMAP_MASK_OPCODE) == RDMAP_RDMA_WRITE &&
		       ulpdu_len == sizeof(struct ddp_tagged_hdr);

	if (ulpdu_len < sizeof(*u))
		return false;
	u = (const struct ddp_untagged_hdr *)(fpdu + MPA_ULPDU_LEN_SIZE);
	if (get_unaligned_be32(&u->msn) != DDP_MSN_FIRST ||
	    get_unaligned_be32(&u->mo))
		return false;
	switch (rdmap & RDMAP_MASK_OPCODE) {
	case RDMAP_SEND:
		return get_unaligned_be32(&u->qn) == DDP_QN_SEND &&
		       ulpdu_len == sizeof(*u);
	case RDMAP_RDMA_READ_REQUEST:
		want = sizeof(*u) + sizeof(*rr);
		if (get_unaligned_be32(&u->qn) != DDP_QN_READ_REQUEST ||
		    ulpdu_len != want)
			return false;
		rr = (const struct rdmap_read_req_hdr *)(u + 1);
		return !get_unaligned_be32(&rr->read_size);
	default:
		return false;
	}
}
