/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP wire formats of the RNIC's data path.
 *
 * The frame layouts themselves (MPA FPDU framing, the DDP tagged and
 * untagged headers, the RDMAP control octet, Read Request and Terminate
 * Control) are declared once, in iwarp/iwarp.h, which the CM's RTR
 * builder uses too; this header adds what only the data path needs: the
 * Terminate error codes (RFC 5040 section 4.8 and its IANA registry, RFC
 * 5041 section 7.2, RFC 5044 section 8 with RFC 6581's additions), the
 * layout of a whole Terminate message, the header length of each RDMAP
 * message, and the size limits of an FPDU (RFC 5044 section 4.1, MULPDU).
 *
 * tests/kunit/rnic_ddp_test.c checks each value here against the RFCs.
 */
#ifndef _MADCM_RNIC_IWARP_H
#define _MADCM_RNIC_IWARP_H

#include <linux/build_bug.h>
#include <linux/types.h>
#include "iwarp/iwarp.h"

/* ==== MPA, RFC 5044 section 4 ==== */

/* ULPDU_Length in front (PAD and CRC behind: iwarp/fpdu.h). */
#define MADCM_MPA_HDR_SIZE	MPA_ULPDU_LEN_SIZE

/* ==== DDP and RDMAP headers, RFC 5041 section 4, RFC 5040 section 4 ==== */

#define MADCM_DDP_TAGGED_HDR	sizeof(struct ddp_tagged_hdr)		/* 14 */
#define MADCM_DDP_UNTAGGED_HDR	sizeof(struct ddp_untagged_hdr)		/* 18 */
#define MADCM_RDMAP_RREQ_HDR	sizeof(struct rdmap_read_req_hdr)	/* 28 */
#define MADCM_RDMAP_TERM_HDR	sizeof(struct rdmap_terminate_hdr)	/* 4 */

/*
 * The longest header of a DDP segment the data path reads before its
 * payload: an RDMA Read Request (the untagged header and the Read Request
 * fields; it has no payload).
 */
#define MADCM_DDP_HDR_MAX	(MADCM_DDP_UNTAGGED_HDR + MADCM_RDMAP_RREQ_HDR)

/* The opcodes a DDP segment can carry (RFC 5040 section 4.3: 0-7). */
#define MADCM_RDMAP_OPCODE_MAX	RDMAP_TERMINATE

/*
 * ==== Terminate, RFC 5040 section 4.8 ====
 *
 * A Terminate message is one untagged DDP segment on queue 2 (L set, MO
 * 0, MSN counting from 1 on that queue), carrying:
 *
 *   | Terminate Control (32)                                 |
 *   | DDP Segment Length (16) | Terminated DDP header ...    |  when D
 *   | ... Terminated RDMAP header (28, Read Request only)    |  when R
 *
 * HdrCt's D says the terminated segment's DDP header (14 or 18 octets) is
 * included, preceded by the 16-bit DDP Segment Length field, which M says
 * is valid; R says the RDMA Read Request header (28 octets) follows it.
 * The data path passes the terminated segment's headers around in that
 * form: the ULPDU_Length field of its FPDU (which is its DDP Segment
 * Length), the DDP header, and the Read Request header when it is one
 * (struct madcm_ddp_term_hdrs).
 */

/* RFC 5040 section 4.8, the error types of each layer. */
enum madcm_term_etype_rdmap {
	MADCM_TERM_RDMAP_ETYPE_CATASTROPHIC = 0x0,	/* local catastrophic */
	MADCM_TERM_RDMAP_ETYPE_PROTECTION = 0x1,	/* remote protection */
	MADCM_TERM_RDMAP_ETYPE_OPERATION = 0x2,		/* remote operation */
};

enum madcm_term_etype_ddp {
	MADCM_TERM_DDP_ETYPE_CATASTROPHIC = 0x0,	/* local catastrophic */
	MADCM_TERM_DDP_ETYPE_TAGGED = 0x1,		/* tagged buffer */
	MADCM_TERM_DDP_ETYPE_UNTAGGED = 0x2,		/* untagged buffer */
};

/* RFC 5044 section 8: MPA is the only LLP error type. */
enum madcm_term_etype_llp {
	MADCM_TERM_LLP_ETYPE_MPA = 0x0,
};

/* RDMAP error codes (RFC 5040 4.8, IANA "RDMAP Errors"). */
enum madcm_term_ecode_rdmap {
	/* Remote protection (etype 1) */
	MADCM_TERM_RDMAP_INVALID_STAG = 0x00,
	MADCM_TERM_RDMAP_BASE_BOUNDS = 0x01,
	MADCM_TERM_RDMAP_ACCESS = 0x02,
	MADCM_TERM_RDMAP_STAG_NOT_ASSOC = 0x03,
	MADCM_TERM_RDMAP_TO_WRAP = 0x04,
	/* Remote operation (etype 2) */
	MADCM_TERM_RDMAP_VERSION = 0x05,
	MADCM_TERM_RDMAP_OPCODE = 0x06,
	MADCM_TERM_RDMAP_STREAM_CATASTROPHIC = 0x07,
	MADCM_TERM_RDMAP_GLOBAL_CATASTROPHIC = 0x08,
	/* Either etype 1 or 2 */
	MADCM_TERM_RDMAP_CANNOT_INVALIDATE = 0x09,
	MADCM_TERM_RDMAP_UNSPECIFIED = 0xff,
};

/* DDP error codes (RFC 5041 section 7.2). */
enum madcm_term_ecode_ddp {
	/* Local catastrophic (etype 0) */
	MADCM_TERM_DDP_CATASTROPHIC = 0x00,
	/* Tagged buffer (etype 1) */
	MADCM_TERM_DDP_T_INVALID_STAG = 0x00,
	MADCM_TERM_DDP_T_BASE_BOUNDS = 0x01,
	MADCM_TERM_DDP_T_STAG_NOT_ASSOC = 0x02,
	MADCM_TERM_DDP_T_TO_WRAP = 0x03,
	MADCM_TERM_DDP_T_VERSION = 0x04,
	/* Untagged buffer (etype 2) */
	MADCM_TERM_DDP_U_INVALID_QN = 0x01,
	MADCM_TERM_DDP_U_MSN_NO_BUFFER = 0x02,
	MADCM_TERM_DDP_U_MSN_RANGE = 0x03,
	MADCM_TERM_DDP_U_INVALID_MO = 0x04,
	MADCM_TERM_DDP_U_TOO_LONG = 0x05,
	MADCM_TERM_DDP_U_VERSION = 0x06,
};

/* LLP (MPA) error codes (RFC 5044 section 8, RFC 6581 section 9). */
enum madcm_term_ecode_llp {
	MADCM_TERM_LLP_STREAM_LOST = 0x01,
	MADCM_TERM_LLP_CRC = 0x02,
	MADCM_TERM_LLP_MARKER = 0x03,
	MADCM_TERM_LLP_BAD_FRAME = 0x04,
	MADCM_TERM_LLP_CATASTROPHIC = 0x05,
	MADCM_TERM_LLP_IRD = 0x06,
	MADCM_TERM_LLP_NO_RTR = 0x07,
};

/**
 * struct madcm_ddp_term_hdrs - the headers of a terminated segment, as a
 *	Terminate message carries them after its Terminate Control word
 * @seg_len: DDP Segment Length: the ULPDU_Length of the segment's FPDU
 * @hdr: the DDP header (14 or 18 octets), then, for an RDMA Read Request,
 *	its 28-octet header
 */
struct madcm_ddp_term_hdrs {
	__be16 seg_len;
	u8 hdr[MADCM_DDP_HDR_MAX];
} __packed;

/**
 * struct madcm_ddp_term_msg - a Terminate message's ULPDU, up to the
 *	terminated headers
 * @ddp: the untagged header, queue DDP_QN_TERMINATE, L set, MO 0
 * @term: Terminate Control (RDMAP_TERM_* fields)
 * @hdrs: the terminated headers, as many octets as HdrCt says
 */
struct madcm_ddp_term_msg {
	struct ddp_untagged_hdr ddp;
	struct rdmap_terminate_hdr term;
	struct madcm_ddp_term_hdrs hdrs;
} __packed;

/* The longest Terminate ULPDU: 18 + 4 + 2 + 18 + 28. */
#define MADCM_DDP_TERM_MAX	sizeof(struct madcm_ddp_term_msg)

static_assert(sizeof(struct madcm_ddp_term_hdrs) == 2 + 18 + 28);
static_assert(sizeof(struct madcm_ddp_term_msg) == 70);
static_assert(MADCM_DDP_HDR_MAX == 46);

#endif /* _MADCM_RNIC_IWARP_H */
