// SPDX-License-Identifier: GPL-2.0-only
/*
 * Building the RFC 6581 RTR message: the zero-length RDMA Write, RDMA
 * Read Request or Send the MPA negotiation chose, with its DDP/RDMAP
 * header (RFC 5041, RFC 5040), framed as one MPA FPDU (RFC 5044 section
 * 4): its length, padding to four octets and the CRC32c when in use.
 * Markers are not supported.
 */
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include "irdma_cm/cm_node.h"
#include "irdma_cm/rtr.h"
#include "madcm_compat.h"

/**
 * irdma_mpa_fpdu_len() - the length of the FPDU that carries a ULPDU
 * @ulpdu_len: the ULPDU's length (the DDP segment: header and payload)
 *
 * Return: ULPDU_Length field, ULPDU, PAD to a multiple of four octets,
 * and the CRC field.
 */
u32 irdma_mpa_fpdu_len(u32 ulpdu_len)
{
	return ALIGN(MPA_ULPDU_LEN_SIZE + ulpdu_len, MPA_FPDU_ALIGN) +
	       MPA_CRC_SIZE;
}

/**
 * irdma_mpa_frame_fpdu() - frame a ULPDU as an MPA FPDU
 * @fpdu: the FPDU; the ULPDU is already in place at offset 2
 * @size: the room at @fpdu
 * @ulpdu_len: the ULPDU's length
 * @crc: CRCs were negotiated (either side set C in its MPA frame)
 *
 * Writes ULPDU_Length, zero PAD octets up to a multiple of four and the
 * CRC field: CRC32c over everything before it when @crc, else zero.
 *
 * Return: the FPDU's length; -EMSGSIZE when @ulpdu_len does not fit
 * ULPDU_Length, -ENOSPC when @size is too small. Nothing is written on
 * error.
 */
int irdma_mpa_frame_fpdu(u8 *fpdu, u32 size, u32 ulpdu_len, bool crc)
{
	u32 body = MPA_ULPDU_LEN_SIZE + ulpdu_len;
	u32 padded = ALIGN(body, MPA_FPDU_ALIGN);
	u32 check = 0;

	if (ulpdu_len > MPA_ULPDU_LEN_MAX)
		return -EMSGSIZE;
	if (size < padded + MPA_CRC_SIZE)
		return -ENOSPC;

	put_unaligned_be16(ulpdu_len, fpdu);
	memset(fpdu + body, 0, padded - body);
	if (crc)
		check = ~__crc32c_le(~0U, fpdu, padded);
	put_unaligned_le32(check, fpdu + padded);
	return padded + MPA_CRC_SIZE;
}

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
	if (size < irdma_mpa_fpdu_len(len))
		return -ENOSPC;
	memcpy(buf + MPA_ULPDU_LEN_SIZE, ulpdu, len);
	return irdma_mpa_frame_fpdu(buf, size, len, crc);
}
