/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP wire formats, declared once: MPA connection setup frames
 * (RFC 5044 section 7.1) with the enhanced connection setup words of
 * RFC 6581, MPA framing of FPDUs (RFC 5044 section 4), the DDP tagged
 * and untagged headers (RFC 5041 section 4) and the RDMAP control
 * field, Read Request and Terminate headers (RFC 5040 section 4).
 *
 * Every structure is packed and has the RFCs' size; multi-octet fields
 * are big endian and typed so (__be16, __be32, __be64), so sparse finds
 * a missing conversion. Bit fields are read and written through the
 * named masks below, in host order after the field's conversion; no
 * protocol code needs a literal bit value. The RFCs number bit 0 as the
 * most significant bit of an octet; the masks follow that.
 *
 * Both cores use them: the CM builds and checks the MPA frames and the
 * RTR message, the RNIC's data path its FPDUs (iwarp/fpdu.h frames them
 * for both). tests/kunit/iwarp_layout_test.c checks every offset and
 * size here against the RFCs' figures.
 */
#ifndef _MADCM_IWARP_IWARP_H
#define _MADCM_IWARP_IWARP_H

#include <linux/build_bug.h>
#include <linux/types.h>

/* ==== MPA connection setup, RFC 5044 section 7.1 ==== */

/*
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  0|                    Key (16 octets)                            |
 *   ~                                                               ~
 * 16|M|C|R|S| Res   |     Rev       |          PD_Length            |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * 20|A|B|          IRD              |C|D|          ORD              |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Octets 20-23 (RFC 6581) are the first four octets of the private data
 * of a revision 2 frame with S set; PD_Length counts them.
 */

/* The 16-octet keys, sent without a terminating NUL. */
#define IETF_MPA_KEY_SIZE	16
#define IETF_MPA_KEY_REQ	"MPA ID Req Frame"
#define IETF_MPA_KEY_REP	"MPA ID Rep Frame"

/* Private data (PD_Length) is at most 512 octets. */
#define IETF_MAX_PRIV_DATA_LEN	512

/*
 * Octet 16. M, C and R are RFC 5044's; S ("enhanced RDMA connection
 * establishment data present") is RFC 6581's and takes the highest of
 * RFC 5044's reserved bits. The rest stays reserved: sent as zero, not
 * checked on receipt.
 */
enum ietf_mpa_flags {
	IETF_MPA_FLAGS_MARKERS = 0x80,
	IETF_MPA_FLAGS_CRC = 0x40,
	IETF_MPA_FLAGS_REJECT = 0x20,
	IETF_MPA_FLAGS_ENHANCED = 0x10,
	IETF_MPA_FLAGS_RESERVED = 0x0f,
};

/* Octet 17: the revisions this CM speaks. */
enum mpa_frame_ver {
	IETF_MPA_V1 = 1,
	IETF_MPA_V2 = 2,
};

/*
 * RFC 6581 section 5: the two 16-bit words. A: peer-to-peer (an RTR
 * message follows the reply); B, C, D: the RTR message may be a
 * zero-length Send, RDMA Write or RDMA Read.
 */
#define IETF_RTR_MSG_SIZE	4

enum ietf_rtr_ird_bits {
	IETF_PEER_TO_PEER = 0x8000,	/* A */
	IETF_RTR_SEND_ZERO = 0x4000,	/* B */
};

enum ietf_rtr_ord_bits {
	IETF_RDMA0_WRITE = 0x8000,	/* C */
	IETF_RDMA0_READ = 0x4000,	/* D */
};

/*
 * The 14-bit IRD/ORD field. All ones is what the Linux iWARP drivers
 * (cxgb4, i40iw, irdma) send when they have no value to negotiate; the
 * largest real value is one less.
 */
#define IETF_IRD_ORD_MASK	0x3fff
#define IETF_NO_IRD_ORD		IETF_IRD_ORD_MASK
#define IETF_MAX_IRD_ORD	(IETF_NO_IRD_ORD - 1)

/**
 * struct ietf_mpa_v1 - RFC 5044 MPA request/reply frame header
 * @key: IETF_MPA_KEY_REQ or IETF_MPA_KEY_REP
 * @flags: enum ietf_mpa_flags
 * @rev: enum mpa_frame_ver
 * @priv_data_len: PD_Length, octets of private data that follow
 * @priv_data: the private data
 */
struct ietf_mpa_v1 {
	u8 key[IETF_MPA_KEY_SIZE];
	u8 flags;
	u8 rev;
	__be16 priv_data_len;
	u8 priv_data[];
} __packed;

/**
 * struct ietf_rtr_msg - RFC 6581 IRD/ORD and RTR control words
 * @ctrl_ird: enum ietf_rtr_ird_bits and the 14-bit IRD
 * @ctrl_ord: enum ietf_rtr_ord_bits and the 14-bit ORD
 */
struct ietf_rtr_msg {
	__be16 ctrl_ird;
	__be16 ctrl_ord;
} __packed;

/**
 * struct ietf_mpa_v2 - a revision 2 frame header with its RFC 6581 data
 * @key: IETF_MPA_KEY_REQ or IETF_MPA_KEY_REP
 * @flags: enum ietf_mpa_flags, IETF_MPA_FLAGS_ENHANCED set
 * @rev: IETF_MPA_V2
 * @priv_data_len: PD_Length, @rtr_msg included
 * @rtr_msg: the IRD/ORD and RTR control words
 * @priv_data: the consumer's private data
 */
struct ietf_mpa_v2 {
	u8 key[IETF_MPA_KEY_SIZE];
	u8 flags;
	u8 rev;
	__be16 priv_data_len;
	struct ietf_rtr_msg rtr_msg;
	u8 priv_data[];
} __packed;

static_assert(sizeof(struct ietf_mpa_v1) == 20);
static_assert(sizeof(struct ietf_rtr_msg) == IETF_RTR_MSG_SIZE);
static_assert(sizeof(struct ietf_mpa_v2) == 24);

/* ==== MPA framing of FPDUs, RFC 5044 section 4 ==== */

/*
 * | ULPDU_Length (16) | ULPDU ... | PAD (0-3) | CRC (32) |
 *
 * An FPDU, from ULPDU_Length through PAD, is a multiple of four octets.
 * The CRC field closes every FPDU, CRC or not: CRC32c (the Castagnoli
 * polynomial of RFC 3385, as iSCSI uses it) over ULPDU_Length, ULPDU and
 * PAD, sent in iSCSI's octet order (the least significant octet of the
 * final value first: RFC 3720 B.4's 32 zero octets give aa 36 91 8a).
 * Without CRC the field is sent as zero and not checked.
 */

/**
 * struct mpa_fpdu_hdr - what precedes the ULPDU in an FPDU
 * @ulpdu_len: ULPDU_Length, octets of ULPDU (PAD and CRC excluded)
 */
struct mpa_fpdu_hdr {
	__be16 ulpdu_len;
} __packed;

/**
 * struct mpa_marker - RFC 5044 section 5: a marker, when markers are used
 * @rsvd: reserved, zero
 * @fpdu_ptr: FPDUPTR, octets back from the marker to the FPDU's
 *	ULPDU_Length field
 */
struct mpa_marker {
	__be16 rsvd;
	__be16 fpdu_ptr;
} __packed;

#define MPA_ULPDU_LEN_SIZE	sizeof(struct mpa_fpdu_hdr)
#define MPA_FPDU_ALIGN		4
#define MPA_CRC_SIZE		4
/* The largest ULPDU_Length the field can carry. */
#define MPA_ULPDU_LEN_MAX	0xffff
/* Markers sit every 512 octets of the TCP stream. */
#define MPA_MARKER_SPACING	512

static_assert(sizeof(struct mpa_fpdu_hdr) == 2);
static_assert(sizeof(struct mpa_marker) == 4);

/* ==== DDP, RFC 5041 section 4 ==== */

/*
 * The first octet of every DDP header: |T|L| Rsvd  |DV |
 * The second octet (RsvdULP's first) is RDMAP's control field, below.
 */
enum ddp_ctrl_bits {
	DDP_FLAG_TAGGED = 0x80,		/* T: tagged buffer model */
	DDP_FLAG_LAST = 0x40,		/* L: last segment of the message */
	DDP_MASK_RESERVED = 0x3c,	/* sent as zero */
	DDP_MASK_VERSION = 0x03,	/* DV */
};

#define DDP_VERSION		1

/*
 * RFC 5040 section 5.1: the untagged queues. RFC 5041 section 5.1: the
 * first message on each queue has MSN 1.
 */
enum ddp_untagged_qn {
	DDP_QN_SEND = 0,
	DDP_QN_READ_REQUEST = 1,
	DDP_QN_TERMINATE = 2,
};

#define DDP_MSN_FIRST		1

/* ==== RDMAP, RFC 5040 section 4 ==== */

/* The RDMAP control octet: | RV |Rsv| Opcode | */
enum rdmap_ctrl_bits {
	RDMAP_MASK_VERSION = 0xc0,	/* RV */
	RDMAP_MASK_RESERVED = 0x30,	/* sent as zero */
	RDMAP_MASK_OPCODE = 0x0f,
};

#define RDMAP_VERSION		1
#define RDMAP_VERSION_SHIFT	6

/* RFC 5040 section 4.3, the opcodes. */
enum rdmap_opcode {
	RDMAP_RDMA_WRITE = 0,
	RDMAP_RDMA_READ_REQUEST = 1,
	RDMAP_RDMA_READ_RESPONSE = 2,
	RDMAP_SEND = 3,
	RDMAP_SEND_INVALIDATE = 4,
	RDMAP_SEND_SE = 5,
	RDMAP_SEND_SE_INVALIDATE = 6,
	RDMAP_TERMINATE = 7,
};

/**
 * struct ddp_tagged_hdr - DDP tagged header with its RDMAP control octet
 * @ddp_ctrl: enum ddp_ctrl_bits, T set
 * @rdmap_ctrl: enum rdmap_ctrl_bits
 * @stag: Data Sink STag
 * @to: Data Sink Tagged Offset
 *
 * RDMA Write and RDMA Read Response (RFC 5040 sections 4.2, 4.5) carry
 * nothing more.
 */
struct ddp_tagged_hdr {
	u8 ddp_ctrl;
	u8 rdmap_ctrl;
	__be32 stag;
	__be64 to;
} __packed;

/**
 * struct ddp_untagged_hdr - DDP untagged header with its RDMAP fields
 * @ddp_ctrl: enum ddp_ctrl_bits, T clear
 * @rdmap_ctrl: enum rdmap_ctrl_bits
 * @inval_stag: the rest of RsvdULP: RDMAP's Invalidate STag for the
 *	Send with Invalidate opcodes, else zero
 * @qn: Queue Number, enum ddp_untagged_qn
 * @msn: Message Sequence Number
 * @mo: Message Offset
 */
struct ddp_untagged_hdr {
	u8 ddp_ctrl;
	u8 rdmap_ctrl;
	__be32 inval_stag;
	__be32 qn;
	__be32 msn;
	__be32 mo;
} __packed;

/**
 * struct rdmap_read_req_hdr - RFC 5040 section 4.4, after the DDP header
 * @sink_stag: Data Sink STag
 * @sink_to: Data Sink Tagged Offset
 * @read_size: RDMA Read Message Size
 * @src_stag: Data Source STag
 * @src_to: Data Source Tagged Offset
 */
struct rdmap_read_req_hdr {
	__be32 sink_stag;
	__be64 sink_to;
	__be32 read_size;
	__be32 src_stag;
	__be64 src_to;
} __packed;

/*
 * RFC 5040 section 4.8, the Terminate Control word that follows the DDP
 * untagged header (queue DDP_QN_TERMINATE) of a Terminate message:
 *
 *   | Layer | EType | Error Code    |HdrCt|       Reserved          |
 *
 * HdrCt is three bits: M (the DDP Segment Length field is valid), D
 * (the terminated DDP header is included), R (the terminated RDMAP
 * header is included).
 */
#define RDMAP_TERM_MASK_LAYER		0xf0000000
#define RDMAP_TERM_SHIFT_LAYER		28
#define RDMAP_TERM_MASK_ETYPE		0x0f000000
#define RDMAP_TERM_SHIFT_ETYPE		24
#define RDMAP_TERM_MASK_ECODE		0x00ff0000
#define RDMAP_TERM_SHIFT_ECODE		16
#define RDMAP_TERM_FLAG_M		0x00008000
#define RDMAP_TERM_FLAG_D		0x00004000
#define RDMAP_TERM_FLAG_R		0x00002000
#define RDMAP_TERM_MASK_RESERVED	0x00001fff

/* RFC 5040 section 4.8: the layer that found the error. */
enum rdmap_term_layer {
	RDMAP_TERM_LAYER_RDMAP = 0,
	RDMAP_TERM_LAYER_DDP = 1,
	RDMAP_TERM_LAYER_LLP = 2,	/* MPA, or TCP below it */
};

/**
 * struct rdmap_terminate_hdr - RFC 5040 section 4.8
 * @ctrl: Terminate Control, RDMAP_TERM_* fields
 *
 * The DDP Segment Length (16 bits) of the terminated segment and its
 * headers follow, as HdrCt says.
 */
struct rdmap_terminate_hdr {
	__be32 ctrl;
} __packed;

static_assert(sizeof(struct ddp_tagged_hdr) == 14);
static_assert(sizeof(struct ddp_untagged_hdr) == 18);
static_assert(sizeof(struct rdmap_read_req_hdr) == 28);
static_assert(sizeof(struct rdmap_terminate_hdr) == 4);

#endif /* _MADCM_IWARP_IWARP_H */
