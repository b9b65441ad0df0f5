// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm's software RNIC: the MPA/DDP/RDMAP codec.
 *
 * Pure functions on bytes, for both directions of the data path (FPDU
 * framing itself, RFC 5044 section 4, is iwarp/fpdu.c's, which the CM
 * uses too):
 *
 *  - a streaming FPDU parser: stream octets go in split anywhere (one
 *    octet at a time if need be), each FPDU's headers, payload pieces and
 *    end come out, with the CRC verdict at the end;
 *  - the checks of a DDP/RDMAP header that need no QP state, each failure
 *    named with the Terminate layer, error type and code of RFC 5040
 *    section 4.8, RFC 5041 section 7.2 and RFC 5044 section 8;
 *  - building a Terminate message (RFC 5040 section 4.8).
 *
 * Markers (RFC 5044 section 5) are not parsed: the CM never asks for
 * them and the QP refuses a hand-off whose peer would send them.
 */
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include "madcm_compat.h"
#include "rnic/ddp.h"

/* ---- Headers ---- */

static u8 madcm_ddp_opcode(u8 rdmap_ctrl)
{
	return rdmap_ctrl & RDMAP_MASK_OPCODE;
}

/**
 * madcm_ddp_hdr_len() - the header length of a DDP segment
 * @ddp_ctrl: its first octet (T, L, DV)
 * @rdmap_ctrl: its second (RV, opcode)
 *
 * Return: the tagged header (14) when T is set; else the untagged header
 * (18), with the Read Request fields (28 more) or the Terminate Control
 * word (4 more) after it for those opcodes.
 */
u32 madcm_ddp_hdr_len(u8 ddp_ctrl, u8 rdmap_ctrl)
{
	if (ddp_ctrl & DDP_FLAG_TAGGED)
		return MADCM_DDP_TAGGED_HDR;
	switch (madcm_ddp_opcode(rdmap_ctrl)) {
	case RDMAP_RDMA_READ_REQUEST:
		return MADCM_DDP_UNTAGGED_HDR + MADCM_RDMAP_RREQ_HDR;
	case RDMAP_TERMINATE:
		return MADCM_DDP_UNTAGGED_HDR + MADCM_RDMAP_TERM_HDR;
	default:
		return MADCM_DDP_UNTAGGED_HDR;
	}
}

static int madcm_ddp_fail(struct madcm_term_code *err, u8 layer, u8 etype,
			  u8 ecode)
{
	err->layer = layer;
	err->etype = etype;
	err->ecode = ecode;
	return -EPROTO;
}

static bool madcm_ddp_opcode_tagged(u8 opcode)
{
	return opcode == RDMAP_RDMA_WRITE ||
	       opcode == RDMAP_RDMA_READ_RESPONSE;
}

/* RFC 5040 section 5.1: which untagged queue carries an opcode. */
static u32 madcm_ddp_opcode_qn(u8 opcode)
{
	switch (opcode) {
	case RDMAP_RDMA_READ_REQUEST:
		return DDP_QN_READ_REQUEST;
	case RDMAP_TERMINATE:
		return DDP_QN_TERMINATE;
	default:
		return DDP_QN_SEND;
	}
}

static void madcm_ddp_fields(const u8 *p, struct madcm_ddp_seg *seg)
{
	if (seg->tagged) {
		const struct ddp_tagged_hdr *t = (const void *)p;

		seg->stag = be32_to_cpu(t->stag);
		seg->to = be64_to_cpu(t->to);
		return;
	}
	{
		const struct ddp_untagged_hdr *u = (const void *)p;

		seg->inval_stag = be32_to_cpu(u->inval_stag);
		seg->qn = be32_to_cpu(u->qn);
		seg->msn = be32_to_cpu(u->msn);
		seg->mo = be32_to_cpu(u->mo);
	}
	p += MADCM_DDP_UNTAGGED_HDR;
	if (seg->opcode == RDMAP_RDMA_READ_REQUEST) {
		const struct rdmap_read_req_hdr *r = (const void *)p;

		seg->sink_stag = be32_to_cpu(r->sink_stag);
		seg->sink_to = be64_to_cpu(r->sink_to);
		seg->read_size = be32_to_cpu(r->read_size);
		seg->src_stag = be32_to_cpu(r->src_stag);
		seg->src_to = be64_to_cpu(r->src_to);
	} else if (seg->opcode == RDMAP_TERMINATE) {
		const struct rdmap_terminate_hdr *t = (const void *)p;

		seg->term_ctrl = be32_to_cpu(t->ctrl);
	}
}

/**
 * madcm_ddp_parse() - check a DDP segment's header and read its fields
 * @h: ULPDU_Length and the headers, as the parser collected them
 * @got: octets of @h collected (2 + the header, or less when the ULPDU
 *	is shorter than its header)
 * @seg: the fields, filled in on success
 * @err: the Terminate code of the first failed check, on failure
 *
 * Checks, in order: the DDP version (RFC 5041 7.2: tagged or untagged
 * buffer error, invalid DDP version), the RDMAP version and the opcode
 * (RFC 5040 4.8: remote operation error, invalid RDMAP version or
 * unexpected opcode, T not the opcode's model included), that the ULPDU
 * holds its header, the untagged queue number (invalid QN), that Read
 * Request and Terminate are single-segment messages (MO 0, L set, no
 * payload beyond their fields) and that a tagged offset or a message
 * offset does not wrap. The checks that need the QP (MSN, STags, receive
 * buffers) are the QP's.
 *
 * Return: 0, or -EPROTO with @err set.
 */
int madcm_ddp_parse(const struct madcm_ddp_term_hdrs *h, u32 got,
		    struct madcm_ddp_seg *seg, struct madcm_term_code *err)
{
	u32 ulpdu_len = be16_to_cpu(h->seg_len);
	const u8 *p = h->hdr;
	u8 ddp_ctrl, rdmap_ctrl;

	memset(seg, 0, sizeof(*seg));
	if (got < MADCM_MPA_HDR_SIZE + 2)
		return madcm_ddp_fail(err, RDMAP_TERM_LAYER_RDMAP,
				      MADCM_TERM_RDMAP_ETYPE_OPERATION,
				      MADCM_TERM_RDMAP_UNSPECIFIED);
	ddp_ctrl = p[0];
	rdmap_ctrl = p[1];
	seg->tagged = ddp_ctrl & DDP_FLAG_TAGGED;
	seg->last = ddp_ctrl & DDP_FLAG_LAST;
	seg->opcode = madcm_ddp_opcode(rdmap_ctrl);

	if ((ddp_ctrl & DDP_MASK_VERSION) != DDP_VERSION)
		return madcm_ddp_fail(err, RDMAP_TERM_LAYER_DDP,
				      seg->tagged ?
				      MADCM_TERM_DDP_ETYPE_TAGGED :
				      MADCM_TERM_DDP_ETYPE_UNTAGGED,
				      seg->tagged ? MADCM_TERM_DDP_T_VERSION :
				      MADCM_TERM_DDP_U_VERSION);
	if ((rdmap_ctrl & RDMAP_MASK_VERSION) >> RDMAP_VERSION_SHIFT !=
	    RDMAP_VERSION)
		return madcm_ddp_fail(err, RDMAP_TERM_LAYER_RDMAP,
				      MADCM_TERM_RDMAP_ETYPE_OPERATION,
				      MADCM_TERM_RDMAP_VERSION);
	if (seg->opcode > MADCM_RDMAP_OPCODE_MAX ||
	    madcm_ddp_opcode_tagged(seg->opcode) != seg->tagged)
		return madcm_ddp_fail(err, RDMAP_TERM_LAYER_RDMAP,
				      MADCM_TERM_RDMAP_ETYPE_OPERATION,
				      MADCM_TERM_RDMAP_OPCODE);

	seg->hdr_len = madcm_ddp_hdr_len(ddp_ctrl, rdmap_ctrl);
	if (ulpdu_len < seg->hdr_len ||
	    got < MADCM_MPA_HDR_SIZE + seg->hdr_len)
		return madcm_ddp_fail(err, RDMAP_TERM_LAYER_RDMAP,
				      MADCM_TERM_RDMAP_ETYPE_OPERATION,
				      MADCM_TERM_RDMAP_UNSPECIFIED);
	seg->pay_len = ulpdu_len - seg->hdr_len;
	madcm_ddp_fields(p, seg);

	if (seg->tagged) {
		if (seg->to > U64_MAX - seg->pay_len)
			return madcm_ddp_fail(err, RDMAP_TERM_LAYER_DDP,
					      MADCM_TERM_DDP_ETYPE_TAGGED,
					      MADCM_TERM_DDP_T_TO_WRAP);
		return 0;
	}
	if (seg->qn != madcm_ddp_opcode_qn(seg->opcode))
		return madcm_ddp_fail(err, RDMAP_TERM_LAYER_DDP,
				      MADCM_TERM_DDP_ETYPE_UNTAGGED,
				      MADCM_TERM_DDP_U_INVALID_QN);
	if (seg->mo > U32_MAX - seg->pay_len ||
	    (seg->opcode != RDMAP_SEND && seg->opcode != RDMAP_SEND_SE &&
	     seg->opcode != RDMAP_SEND_INVALIDATE &&
	     seg->opcode != RDMAP_SEND_SE_INVALIDATE && seg->mo))
		return madcm_ddp_fail(err, RDMAP_TERM_LAYER_DDP,
				      MADCM_TERM_DDP_ETYPE_UNTAGGED,
				      MADCM_TERM_DDP_U_INVALID_MO);
	if (seg->opcode == RDMAP_RDMA_READ_REQUEST &&
	    (!seg->last || seg->pay_len))
		return madcm_ddp_fail(err, RDMAP_TERM_LAYER_RDMAP,
				      MADCM_TERM_RDMAP_ETYPE_OPERATION,
				      MADCM_TERM_RDMAP_UNSPECIFIED);
	if (seg->opcode == RDMAP_TERMINATE && !seg->last)
		return madcm_ddp_fail(err, RDMAP_TERM_LAYER_RDMAP,
				      MADCM_TERM_RDMAP_ETYPE_OPERATION,
				      MADCM_TERM_RDMAP_UNSPECIFIED);
	return 0;
}

/**
 * madcm_ddp_term_build() - build a Terminate message's ULPDU
 * @m: where
 * @msn: its MSN on the Terminate queue (the first is DDP_MSN_FIRST)
 * @layer: enum rdmap_term_layer
 * @etype: the error type
 * @ecode: the error code
 * @hdrs: the terminated segment's headers (struct madcm_ddp_term_hdrs:
 *	DDP Segment Length, DDP header, Read Request header), or NULL
 * @hdrs_len: octets at @hdrs
 *
 * RFC 5040 section 4.8: an untagged segment on queue 2, L set, MO 0,
 * Terminate Control, then the terminated headers as far as @hdrs_len
 * holds them: with the DDP header (2 + 14 or 18 octets) HdrCt gets M and
 * D; with a Read Request's whole header (2 + 18 + 28), R as well.
 *
 * Return: the ULPDU's length.
 */
u32 madcm_ddp_term_build(struct madcm_ddp_term_msg *m, u32 msn, u8 layer,
			 u8 etype, u8 ecode, const void *hdrs, u32 hdrs_len)
{
	const struct madcm_ddp_term_hdrs *h = hdrs;
	u32 ctrl, take = 0, ddp_len;

	memset(m, 0, sizeof(*m));
	m->ddp.ddp_ctrl = DDP_FLAG_LAST | DDP_VERSION;
	m->ddp.rdmap_ctrl = (RDMAP_VERSION << RDMAP_VERSION_SHIFT) |
			    RDMAP_TERMINATE;
	m->ddp.qn = cpu_to_be32(DDP_QN_TERMINATE);
	m->ddp.msn = cpu_to_be32(msn);
	ctrl = ((u32)layer << RDMAP_TERM_SHIFT_LAYER &
		RDMAP_TERM_MASK_LAYER) |
	       ((u32)etype << RDMAP_TERM_SHIFT_ETYPE &
		RDMAP_TERM_MASK_ETYPE) |
	       ((u32)ecode << RDMAP_TERM_SHIFT_ECODE & RDMAP_TERM_MASK_ECODE);

	if (h && hdrs_len >= MADCM_MPA_HDR_SIZE + 1) {
		ddp_len = h->hdr[0] & DDP_FLAG_TAGGED ? MADCM_DDP_TAGGED_HDR :
			  MADCM_DDP_UNTAGGED_HDR;
		if (hdrs_len >= MADCM_MPA_HDR_SIZE + ddp_len) {
			take = MADCM_MPA_HDR_SIZE + ddp_len;
			ctrl |= RDMAP_TERM_FLAG_M | RDMAP_TERM_FLAG_D;
		}
		if (take && !(h->hdr[0] & DDP_FLAG_TAGGED) &&
		    madcm_ddp_opcode(h->hdr[1]) == RDMAP_RDMA_READ_REQUEST &&
		    hdrs_len >= sizeof(*h)) {
			take = sizeof(*h);
			ctrl |= RDMAP_TERM_FLAG_R;
		}
		memcpy(&m->hdrs, h, take);
	}
	m->term.ctrl = cpu_to_be32(ctrl);
	return MADCM_DDP_UNTAGGED_HDR + MADCM_RDMAP_TERM_HDR + take;
}

/* ---- The streaming parser ---- */

enum {
	MADCM_MPA_PART_LEN,	/* ULPDU_Length */
	MADCM_MPA_PART_HDR,	/* DDP/RDMAP header */
	MADCM_MPA_PART_DATA,	/* payload */
	MADCM_MPA_PART_PAD,
	MADCM_MPA_PART_CRC,
};

/**
 * madcm_mpa_rx_init() - reset a parser to the start of an FPDU
 * @p: the parser
 * @crc_on: CRCs were negotiated
 */
void madcm_mpa_rx_init(struct madcm_mpa_rx *p, bool crc_on)
{
	memset(p, 0, sizeof(*p));
	p->crc_on = crc_on;
	p->part = MADCM_MPA_PART_LEN;
	p->want = MADCM_MPA_HDR_SIZE;
	p->crc = ~0U;
}

/* Takes up to @p->want octets of @p->h; returns how many it took. */
static u32 madcm_mpa_rx_fill(struct madcm_mpa_rx *p, const u8 *d, u32 len)
{
	u32 n = min(len, p->want - p->got);

	memcpy((u8 *)&p->h + p->got, d, n);
	if (p->crc_on)
		p->crc = madcm_mpa_crc(p->crc, d, n);
	p->got += n;
	return n;
}

/* The headers are complete when @want octets are in and they say so. */
static bool madcm_mpa_rx_hdr_done(struct madcm_mpa_rx *p)
{
	u32 hdr_len;

	if (p->got < p->want)
		return false;
	if (p->got == MADCM_MPA_HDR_SIZE + 2 && p->ulpdu_len > 2) {
		hdr_len = madcm_ddp_hdr_len(p->h.hdr[0], p->h.hdr[1]);
		p->want = MADCM_MPA_HDR_SIZE + min(hdr_len, p->ulpdu_len);
		if (p->got < p->want)
			return false;
	}
	p->pay_len = p->ulpdu_len - (p->got - MADCM_MPA_HDR_SIZE);
	p->pay_off = 0;
	p->pad = madcm_mpa_pad(p->ulpdu_len);
	return true;
}

/**
 * madcm_mpa_rx_step() - feed stream octets to the parser
 * @p: the parser
 * @d: the octets
 * @len: how many
 * @out: what was found
 *
 * Takes octets until it has something to report, or until @d is used
 * up (MADCM_MPA_RX_MORE). The caller calls it again with the octets it
 * did not take. @out->data, for a payload piece, points into @d.
 *
 * Return: octets of @d taken.
 */
u32 madcm_mpa_rx_step(struct madcm_mpa_rx *p, const u8 *d, u32 len,
		      struct madcm_mpa_rx_out *out)
{
	u32 used = 0, n;

	out->ev = MADCM_MPA_RX_MORE;
	for (;;) {
		switch (p->part) {
		case MADCM_MPA_PART_LEN:
			used += madcm_mpa_rx_fill(p, d + used, len - used);
			if (p->got < p->want)
				return used;
			p->ulpdu_len = be16_to_cpu(p->h.seg_len);
			p->want += min_t(u32, 2, p->ulpdu_len);
			p->part = MADCM_MPA_PART_HDR;
			fallthrough;
		case MADCM_MPA_PART_HDR:
			used += madcm_mpa_rx_fill(p, d + used, len - used);
			if (!madcm_mpa_rx_hdr_done(p)) {
				/* Another octet may be wanted now. */
				if (used < len && p->got < p->want)
					continue;
				return used;
			}
			p->part = MADCM_MPA_PART_DATA;
			out->ev = MADCM_MPA_RX_HDR;
			return used;
		case MADCM_MPA_PART_DATA:
			if (p->pay_off < p->pay_len) {
				if (used == len)
					return used;
				n = min(len - used, p->pay_len - p->pay_off);
				if (p->crc_on)
					p->crc = madcm_mpa_crc(p->crc, d + used,
							       n);
				out->ev = MADCM_MPA_RX_DATA;
				out->data = d + used;
				out->len = n;
				out->off = p->pay_off;
				p->pay_off += n;
				return used + n;
			}
			p->part = MADCM_MPA_PART_PAD;
			fallthrough;
		case MADCM_MPA_PART_PAD:
			n = min(len - used, p->pad);
			if (p->crc_on)
				p->crc = madcm_mpa_crc(p->crc, d + used, n);
			p->pad -= n;
			used += n;
			if (p->pad)
				return used;
			p->part = MADCM_MPA_PART_CRC;
			fallthrough;
		case MADCM_MPA_PART_CRC:
			n = min(len - used, MPA_CRC_SIZE - p->crc_got);
			memcpy(p->crc_rx + p->crc_got, d + used, n);
			p->crc_got += n;
			used += n;
			if (p->crc_got < MPA_CRC_SIZE)
				return used;
			p->crc_ok = !p->crc_on ||
				    get_unaligned_le32(p->crc_rx) == ~p->crc;
			p->part = MADCM_MPA_PART_LEN;
			p->got = 0;
			p->want = MADCM_MPA_HDR_SIZE;
			p->crc = ~0U;
			p->crc_got = 0;
			out->ev = MADCM_MPA_RX_END;
			return used;
		default:
			WARN_ON_ONCE(1);
			return len;
		}
	}
}
