// SPDX-License-Identifier: GPL-2.0-only
/*
 * RFC 6581 enhanced connection setup: the IRD/ORD a connection starts
 * with, and their negotiation together with the RTR message type.
 */
#include <linux/bitops.h>
#include <linux/minmax.h>
#include <asm/byteorder.h>
#include "irdma_cm/cm_node.h"
#include "irdma_cm/mpa.h"

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
	    cm_node->peer_to_peer && (cm_node->rtr_caps & IRDMA_RTR_READ))
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
 * The RTR type: when @cm_node->peer_to_peer is set the peer must have set
 * its peer-to-peer flag too. A responder then picks one of the types the
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

	if (cm_node->peer_to_peer) {
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
