// SPDX-License-Identifier: GPL-2.0-only
/*
 * Building MPA request, reply and reject frame headers (RFC 5044 section
 * 7.1, RFC 6581). Only the header is built here; the private data that
 * cm_node->pdata describes follows it on the wire.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include "irdma_cm/cm_node.h"
#include "irdma_cm/mpa.h"

static u8 irdma_mpa_header_flags(const struct irdma_cm_node *cm_node,
				 u8 mpa_key)
{
	u8 flags = 0;

	if (cm_node->rcv_mark_en)
		flags |= IETF_MPA_FLAGS_MARKERS;
	if (cm_node->mpa_crc)
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
 * the reply key otherwise; M from @cm_node->rcv_mark_en, C from
 * @cm_node->mpa_crc, R for MPA_KEY_REJECT; the revision
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
	if (!cm_node->peer_to_peer)
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
 * @cm_node->peer_to_peer and, in peer-to-peer mode, the RTR types: every
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
	if (cm_node->peer_to_peer)
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
 * revision 2, and room for the header in @mpa.
 *
 * Return: the header length (20 for revision 1, 24 for revision 2); the
 * private data follows it. -EINVAL for an unknown key or revision or
 * private data without an address, -EMSGSIZE for private data that does
 * not fit, -ENOSPC when @mpa is too small. Nothing is written on error.
 */
int irdma_cm_build_mpa_frame(struct irdma_cm_node *cm_node,
			     struct irdma_kmem_info *mpa, u8 mpa_key)
{
	u32 hdr_len, rtr_len;

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

	if (cm_node->pdata.size && !cm_node->pdata.addr)
		return -EINVAL;
	if (cm_node->pdata.size > IETF_MAX_PRIV_DATA_LEN - rtr_len)
		return -EMSGSIZE;
	if (!mpa->addr || mpa->size < hdr_len)
		return -ENOSPC;

	if (cm_node->mpa_frame_rev == IETF_MPA_V2)
		irdma_build_mpa_v2(cm_node, mpa->addr, mpa_key);
	else
		irdma_build_mpa_v1(cm_node, mpa->addr, mpa_key);

	return hdr_len;
}
