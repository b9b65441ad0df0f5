/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RFC 6581 ready-to-receive (RTR) message: a zero-length RDMA Write,
 * RDMA Read Request or Send, framed as one MPA FPDU. Wire layouts of the
 * three layers it crosses, with a name for every field and bit:
 *
 *   MPA   (RFC 5044 section 4): ULPDU_Length, ULPDU, PAD, CRC
 *   DDP   (RFC 5041 section 4): the tagged or untagged header
 *   RDMAP (RFC 5040 section 4): the control octet, the Read Request header
 *
 * Bit 0 is the most significant bit of an octet, as the RFCs draw them;
 * multi-octet fields are big endian, except the CRC (see below).
 */
#ifndef _MADCM_IRDMA_CM_RTR_H
#define _MADCM_IRDMA_CM_RTR_H

#include <linux/build_bug.h>
#include <linux/types.h>

/* ---- MPA framing, RFC 5044 section 4.1 ---- */

/* The ULPDU_Length field in front of every FPDU. */
#define MPA_ULPDU_LEN_SIZE	2
/* An FPDU, from ULPDU_Length through PAD, is a multiple of four octets. */
#define MPA_FPDU_ALIGN		4
/*
 * The CRC field closes every FPDU, CRC or not: CRC32c (the Castagnoli
 * polynomial of RFC 3385, as iSCSI uses it) over ULPDU_Length, ULPDU and
 * PAD, sent in iSCSI's octet order (the least significant octet of the
 * final value first: RFC 3720 B.4's 32 zero octets give aa 36 91 8a).
 * Without CRC the field is sent as zero and not checked.
 */
#define MPA_CRC_SIZE		4
/* The largest ULPDU_Length the field can carry. */
#define MPA_ULPDU_LEN_MAX	0xffff

/* ---- DDP, RFC 5041 sections 4.2 to 4.4 ---- */

/* The first octet of every DDP header: |T|L| Rsvd  |DV | */
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

/* ---- RDMAP, RFC 5040 section 4 ---- */

/*
 * The RDMAP control octet, the first octet of DDP's RsvdULP field:
 * | RV |Rsv| Opcode |
 */
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
 * @inval_stag: the rest of RsvdULP: RDMAP's Invalidate STag, zero for
 *	the messages built here
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

static_assert(sizeof(struct ddp_tagged_hdr) == 14);
static_assert(sizeof(struct ddp_untagged_hdr) == 18);
static_assert(sizeof(struct rdmap_read_req_hdr) == 28);

/*
 * The steering tag and offset of a zero-length RTR: it places no data,
 * so no buffer is named (siw, for one, does not look them up for a
 * zero-length Write or Read).
 */
#define IRDMA_RTR_STAG		0
#define IRDMA_RTR_TO		0

/* The longest RTR FPDU: a Read Request, 2 + 18 + 28 + PAD 0 + 4. */
#define IRDMA_RTR_MAX_FPDU	(MPA_ULPDU_LEN_SIZE + \
				 sizeof(struct ddp_untagged_hdr) + \
				 sizeof(struct rdmap_read_req_hdr) + \
				 MPA_CRC_SIZE)

u32 irdma_mpa_fpdu_len(u32 ulpdu_len);
int irdma_mpa_frame_fpdu(u8 *fpdu, u32 size, u32 ulpdu_len, bool crc);
int irdma_build_rtr_fpdu(u8 rtr_type, bool crc, u8 *buf, u32 size);

#endif /* _MADCM_IRDMA_CM_RTR_H */
