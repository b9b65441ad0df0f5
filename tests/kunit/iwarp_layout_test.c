// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the wire layouts of iwarp/iwarp.h against the RFCs' figures.
 *
 * Each case fills a structure through its fields and named masks, the way
 * protocol code does, and compares the bytes with an image written out by
 * hand from the figure of RFC 5044 (sections 4.1, 5 and 7.1), RFC 6581
 * (section 5), RFC 5041 (sections 4.2 to 4.4) or RFC 5040 (sections 4.1
 * to 4.8). Offsets are the figures' octet numbers; bit 0 is the most
 * significant bit of an octet. Sizes are checked at build time.
 */
#include <kunit/test.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include "iwarp/iwarp.h"
#include "tests/kunit/mpa_spec.h"

/* RFC 5044 7.1 and RFC 6581 5: where each field starts. */
static void iwarp_mpa_offsets_follow_rfc(struct kunit *test)
{
	BUILD_BUG_ON(sizeof(struct ietf_mpa_v1) != 20);
	BUILD_BUG_ON(sizeof(struct ietf_rtr_msg) != 4);
	BUILD_BUG_ON(sizeof(struct ietf_mpa_v2) != 24);
	BUILD_BUG_ON(IETF_MPA_KEY_SIZE != 16);

	KUNIT_EXPECT_EQ(test, offsetof(struct ietf_mpa_v1, key), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct ietf_mpa_v1, flags), 16);
	KUNIT_EXPECT_EQ(test, offsetof(struct ietf_mpa_v1, rev), 17);
	KUNIT_EXPECT_EQ(test, offsetof(struct ietf_mpa_v1, priv_data_len), 18);
	KUNIT_EXPECT_EQ(test, offsetof(struct ietf_mpa_v1, priv_data), 20);
	KUNIT_EXPECT_EQ(test, offsetof(struct ietf_mpa_v2, rtr_msg), 20);
	KUNIT_EXPECT_EQ(test, offsetof(struct ietf_mpa_v2, rtr_msg.ctrl_ird), 20);
	KUNIT_EXPECT_EQ(test, offsetof(struct ietf_mpa_v2, rtr_msg.ctrl_ord), 22);
	KUNIT_EXPECT_EQ(test, offsetof(struct ietf_mpa_v2, priv_data), 24);
	KUNIT_EXPECT_EQ(test, sizeof(IETF_MPA_KEY_REQ) - 1, 16);
	KUNIT_EXPECT_EQ(test, sizeof(IETF_MPA_KEY_REP) - 1, 16);
	KUNIT_EXPECT_EQ(test, IETF_MAX_PRIV_DATA_LEN, 512);
}

/*
 * A revision 2 request, M, C and S set, peer-to-peer with every RTR
 * type, IRD 0x0123 and ORD 0x2abc, and three octets of private data.
 */
static void iwarp_mpa_v2_request_image(struct kunit *test)
{
	static const u8 want[27] = {
		'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R',
		'e', 'q', ' ', 'F', 'r', 'a', 'm', 'e',
		0xd0,		/* M (bit 0), C (bit 1), S (bit 3) */
		0x02,		/* Rev 2 */
		0x00, 0x07,	/* PD_Length: 4 + 3 */
		0xc1, 0x23,	/* A, B, IRD 0x0123 */
		0xea, 0xbc,	/* C, D, ORD 0x2abc */
		0xaa, 0xbb, 0xcc,
	};
	u8 buf[sizeof(want)];
	struct ietf_mpa_v2 *f = (struct ietf_mpa_v2 *)buf;

	memset(buf, 0x5a, sizeof(buf));
	memcpy(f->key, IETF_MPA_KEY_REQ, IETF_MPA_KEY_SIZE);
	f->flags = IETF_MPA_FLAGS_MARKERS | IETF_MPA_FLAGS_CRC |
		   IETF_MPA_FLAGS_ENHANCED;
	f->rev = IETF_MPA_V2;
	f->priv_data_len = cpu_to_be16(IETF_RTR_MSG_SIZE + 3);
	f->rtr_msg.ctrl_ird = cpu_to_be16(IETF_PEER_TO_PEER |
					  IETF_RTR_SEND_ZERO |
					  (0x0123 & IETF_IRD_ORD_MASK));
	f->rtr_msg.ctrl_ord = cpu_to_be16(IETF_RDMA0_WRITE | IETF_RDMA0_READ |
					  (0x2abc & IETF_IRD_ORD_MASK));
	f->priv_data[0] = 0xaa;
	f->priv_data[1] = 0xbb;
	f->priv_data[2] = 0xcc;
	SPEC_EXPECT_MEMEQ(test, buf, want, sizeof(want));
}

/* A revision 1 reject: the reply key, R alone, 512 octets announced. */
static void iwarp_mpa_v1_reject_image(struct kunit *test)
{
	static const u8 want[20] = {
		'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R',
		'e', 'p', ' ', 'F', 'r', 'a', 'm', 'e',
		0x20,		/* R (bit 2) */
		0x01,		/* Rev 1 */
		0x02, 0x00,	/* PD_Length 512 */
	};
	struct ietf_mpa_v1 f;

	memcpy(f.key, IETF_MPA_KEY_REP, IETF_MPA_KEY_SIZE);
	f.flags = IETF_MPA_FLAGS_REJECT;
	f.rev = IETF_MPA_V1;
	f.priv_data_len = cpu_to_be16(IETF_MAX_PRIV_DATA_LEN);
	SPEC_EXPECT_MEMEQ(test, &f, want, sizeof(want));
}

/* Each named bit of octets 16, 20 and 22 is where the figures put it. */
static void iwarp_mpa_masks_follow_rfc(struct kunit *test)
{
	struct ietf_rtr_msg m;
	const u8 *b = (const u8 *)&m;

	KUNIT_EXPECT_EQ(test, IETF_MPA_FLAGS_MARKERS, 0x80);
	KUNIT_EXPECT_EQ(test, IETF_MPA_FLAGS_CRC, 0x40);
	KUNIT_EXPECT_EQ(test, IETF_MPA_FLAGS_REJECT, 0x20);
	KUNIT_EXPECT_EQ(test, IETF_MPA_FLAGS_ENHANCED, 0x10);
	KUNIT_EXPECT_EQ(test, IETF_MPA_FLAGS_RESERVED, 0x0f);

	m.ctrl_ird = cpu_to_be16(IETF_PEER_TO_PEER);
	m.ctrl_ord = cpu_to_be16(IETF_RDMA0_WRITE);
	KUNIT_EXPECT_EQ(test, b[0], 0x80);	/* A: bit 0 of octet 20 */
	KUNIT_EXPECT_EQ(test, b[1], 0x00);
	KUNIT_EXPECT_EQ(test, b[2], 0x80);	/* C: bit 0 of octet 22 */
	KUNIT_EXPECT_EQ(test, b[3], 0x00);
	m.ctrl_ird = cpu_to_be16(IETF_RTR_SEND_ZERO);
	m.ctrl_ord = cpu_to_be16(IETF_RDMA0_READ);
	KUNIT_EXPECT_EQ(test, b[0], 0x40);	/* B: bit 1 of octet 20 */
	KUNIT_EXPECT_EQ(test, b[2], 0x40);	/* D: bit 1 of octet 22 */
	/* IRD and ORD: the low 14 bits, all ones for "no value". */
	m.ctrl_ird = cpu_to_be16(IETF_IRD_ORD_MASK);
	KUNIT_EXPECT_EQ(test, b[0], 0x3f);
	KUNIT_EXPECT_EQ(test, b[1], 0xff);
	KUNIT_EXPECT_EQ(test, IETF_NO_IRD_ORD, SPEC_IRD_ORD_MAX);
}

/* RFC 5044 4.1 and 5: ULPDU_Length, the CRC field, a marker. */
static void iwarp_fpdu_framing_follows_rfc(struct kunit *test)
{
	static const u8 want_marker[4] = { 0x00, 0x00, 0x01, 0x2c };
	struct mpa_fpdu_hdr h;
	struct mpa_marker mk;
	const u8 *b = (const u8 *)&h;

	BUILD_BUG_ON(sizeof(struct mpa_fpdu_hdr) != 2);
	BUILD_BUG_ON(sizeof(struct mpa_marker) != 4);
	KUNIT_EXPECT_EQ(test, MPA_CRC_SIZE, 4);
	KUNIT_EXPECT_EQ(test, MPA_FPDU_ALIGN, 4);
	KUNIT_EXPECT_EQ(test, MPA_MARKER_SPACING, 512);

	h.ulpdu_len = cpu_to_be16(0x012e);
	KUNIT_EXPECT_EQ(test, b[0], 0x01);
	KUNIT_EXPECT_EQ(test, b[1], 0x2e);
	KUNIT_EXPECT_EQ(test, offsetof(struct mpa_marker, fpdu_ptr), 2);
	mk.rsvd = 0;
	mk.fpdu_ptr = cpu_to_be16(300);
	SPEC_EXPECT_MEMEQ(test, &mk, want_marker, sizeof(want_marker));
}

/* RFC 5041 4.2 and 4.3: the control octet and the tagged header. */
static void iwarp_ddp_tagged_image(struct kunit *test)
{
	static const u8 want[14] = {
		0xc1,		/* T, L, DV 1 */
		0x42,		/* RV 1, opcode 2: RDMA Read Response */
		0x11, 0x22, 0x33, 0x44,		/* STag */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,	/* TO */
	};
	struct ddp_tagged_hdr h;

	BUILD_BUG_ON(sizeof(struct ddp_tagged_hdr) != 14);
	KUNIT_EXPECT_EQ(test, offsetof(struct ddp_tagged_hdr, rdmap_ctrl), 1);
	KUNIT_EXPECT_EQ(test, offsetof(struct ddp_tagged_hdr, stag), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct ddp_tagged_hdr, to), 6);

	h.ddp_ctrl = DDP_FLAG_TAGGED | DDP_FLAG_LAST |
		     (DDP_VERSION & DDP_MASK_VERSION);
	h.rdmap_ctrl = (RDMAP_VERSION << RDMAP_VERSION_SHIFT) |
		       (RDMAP_RDMA_READ_RESPONSE & RDMAP_MASK_OPCODE);
	h.stag = cpu_to_be32(0x11223344);
	h.to = cpu_to_be64(0x0102030405060708ULL);
	SPEC_EXPECT_MEMEQ(test, &h, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, DDP_MASK_RESERVED, 0x3c);
	KUNIT_EXPECT_EQ(test, RDMAP_MASK_VERSION, 0xc0);
	KUNIT_EXPECT_EQ(test, RDMAP_MASK_RESERVED, 0x30);
}

/*
 * RFC 5041 4.4 with RFC 5040 4.4: an untagged Read Request header, the
 * second message of its queue, and what follows it.
 */
static void iwarp_read_request_image(struct kunit *test)
{
	static const u8 want[18 + 28] = {
		0x41,		/* L, DV 1 */
		0x41,		/* RV 1, opcode 1: RDMA Read Request */
		0x00, 0x00, 0x00, 0x00,		/* RsvdULP */
		0x00, 0x00, 0x00, 0x01,		/* QN 1 */
		0x00, 0x00, 0x00, 0x02,		/* MSN 2 */
		0x00, 0x00, 0x00, 0x00,		/* MO 0 */
		0xa0, 0xa1, 0xa2, 0xa3,		/* Data Sink STag */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, /* Sink TO */
		0x00, 0x01, 0x00, 0x00,		/* RDMA Read Message Size */
		0xb0, 0xb1, 0xb2, 0xb3,		/* Data Source STag */
		0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, /* Source TO */
	};
	struct {
		struct ddp_untagged_hdr ddp;
		struct rdmap_read_req_hdr rr;
	} __packed m;

	BUILD_BUG_ON(sizeof(struct ddp_untagged_hdr) != 18);
	BUILD_BUG_ON(sizeof(struct rdmap_read_req_hdr) != 28);
	KUNIT_EXPECT_EQ(test, offsetof(struct ddp_untagged_hdr, inval_stag), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct ddp_untagged_hdr, qn), 6);
	KUNIT_EXPECT_EQ(test, offsetof(struct ddp_untagged_hdr, msn), 10);
	KUNIT_EXPECT_EQ(test, offsetof(struct ddp_untagged_hdr, mo), 14);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmap_read_req_hdr, sink_to), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmap_read_req_hdr, read_size), 12);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmap_read_req_hdr, src_stag), 16);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmap_read_req_hdr, src_to), 20);

	m.ddp.ddp_ctrl = DDP_FLAG_LAST | DDP_VERSION;
	m.ddp.rdmap_ctrl = (RDMAP_VERSION << RDMAP_VERSION_SHIFT) |
			   RDMAP_RDMA_READ_REQUEST;
	m.ddp.inval_stag = 0;
	m.ddp.qn = cpu_to_be32(DDP_QN_READ_REQUEST);
	m.ddp.msn = cpu_to_be32(DDP_MSN_FIRST + 1);
	m.ddp.mo = 0;
	m.rr.sink_stag = cpu_to_be32(0xa0a1a2a3);
	m.rr.sink_to = cpu_to_be64(0x1000);
	m.rr.read_size = cpu_to_be32(0x10000);
	m.rr.src_stag = cpu_to_be32(0xb0b1b2b3);
	m.rr.src_to = cpu_to_be64(0x8000000000000001ULL);
	SPEC_EXPECT_MEMEQ(test, &m, want, sizeof(want));
}

/* RFC 5040 4.3: the opcode table; RFC 5040 5.1: the untagged queues. */
static void iwarp_rdmap_numbers_follow_rfc(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, RDMAP_RDMA_WRITE, 0x0);
	KUNIT_EXPECT_EQ(test, RDMAP_RDMA_READ_REQUEST, 0x1);
	KUNIT_EXPECT_EQ(test, RDMAP_RDMA_READ_RESPONSE, 0x2);
	KUNIT_EXPECT_EQ(test, RDMAP_SEND, 0x3);
	KUNIT_EXPECT_EQ(test, RDMAP_SEND_INVALIDATE, 0x4);
	KUNIT_EXPECT_EQ(test, RDMAP_SEND_SE, 0x5);
	KUNIT_EXPECT_EQ(test, RDMAP_SEND_SE_INVALIDATE, 0x6);
	KUNIT_EXPECT_EQ(test, RDMAP_TERMINATE, 0x7);
	KUNIT_EXPECT_EQ(test, DDP_QN_SEND, 0);
	KUNIT_EXPECT_EQ(test, DDP_QN_READ_REQUEST, 1);
	KUNIT_EXPECT_EQ(test, DDP_QN_TERMINATE, 2);
	KUNIT_EXPECT_EQ(test, DDP_MSN_FIRST, 1);
	KUNIT_EXPECT_EQ(test, RDMAP_TERM_LAYER_RDMAP, 0);
	KUNIT_EXPECT_EQ(test, RDMAP_TERM_LAYER_DDP, 1);
	KUNIT_EXPECT_EQ(test, RDMAP_TERM_LAYER_LLP, 2);
}

/*
 * RFC 5040 4.8: a Terminate from the DDP layer, error type 1, code 2,
 * with the DDP Segment Length and the DDP header (M and D) but not the
 * RDMAP header, after its untagged header on queue 2.
 */
static void iwarp_terminate_image(struct kunit *test)
{
	static const u8 want[18 + 4] = {
		0x41,		/* L, DV 1 */
		0x47,		/* RV 1, opcode 7: Terminate */
		0x00, 0x00, 0x00, 0x00,		/* RsvdULP */
		0x00, 0x00, 0x00, 0x02,		/* QN 2 */
		0x00, 0x00, 0x00, 0x01,		/* MSN 1 */
		0x00, 0x00, 0x00, 0x00,		/* MO 0 */
		0x11,		/* Layer 1 (DDP), EType 1 */
		0x02,		/* Error Code 2 */
		0xc0,		/* HdrCt: M, D; R clear */
		0x00,		/* Reserved */
	};
	struct {
		struct ddp_untagged_hdr ddp;
		struct rdmap_terminate_hdr term;
	} __packed m;
	u32 ctrl;

	BUILD_BUG_ON(sizeof(struct rdmap_terminate_hdr) != 4);
	m.ddp.ddp_ctrl = DDP_FLAG_LAST | DDP_VERSION;
	m.ddp.rdmap_ctrl = (RDMAP_VERSION << RDMAP_VERSION_SHIFT) |
			   RDMAP_TERMINATE;
	m.ddp.inval_stag = 0;
	m.ddp.qn = cpu_to_be32(DDP_QN_TERMINATE);
	m.ddp.msn = cpu_to_be32(DDP_MSN_FIRST);
	m.ddp.mo = 0;
	ctrl = (RDMAP_TERM_LAYER_DDP << RDMAP_TERM_SHIFT_LAYER) |
	       (1 << RDMAP_TERM_SHIFT_ETYPE) | (2 << RDMAP_TERM_SHIFT_ECODE) |
	       RDMAP_TERM_FLAG_M | RDMAP_TERM_FLAG_D;
	m.term.ctrl = cpu_to_be32(ctrl);
	SPEC_EXPECT_MEMEQ(test, &m, want, sizeof(want));

	/* The masks cover the fields and nothing else. */
	KUNIT_EXPECT_EQ(test, be32_to_cpu(m.term.ctrl) & RDMAP_TERM_MASK_LAYER,
			0x10000000U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(m.term.ctrl) & RDMAP_TERM_MASK_ETYPE,
			0x01000000U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(m.term.ctrl) & RDMAP_TERM_MASK_ECODE,
			0x00020000U);
	KUNIT_EXPECT_EQ(test, RDMAP_TERM_MASK_LAYER | RDMAP_TERM_MASK_ETYPE |
			RDMAP_TERM_MASK_ECODE | RDMAP_TERM_FLAG_M |
			RDMAP_TERM_FLAG_D | RDMAP_TERM_FLAG_R |
			RDMAP_TERM_MASK_RESERVED, 0xffffffffU);
	KUNIT_EXPECT_EQ(test, RDMAP_TERM_FLAG_R, 0x00002000U);
}

static struct kunit_case iwarp_layout_cases[] = {
	KUNIT_CASE(iwarp_mpa_offsets_follow_rfc),
	KUNIT_CASE(iwarp_mpa_v2_request_image),
	KUNIT_CASE(iwarp_mpa_v1_reject_image),
	KUNIT_CASE(iwarp_mpa_masks_follow_rfc),
	KUNIT_CASE(iwarp_fpdu_framing_follows_rfc),
	KUNIT_CASE(iwarp_ddp_tagged_image),
	KUNIT_CASE(iwarp_read_request_image),
	KUNIT_CASE(iwarp_rdmap_numbers_follow_rfc),
	KUNIT_CASE(iwarp_terminate_image),
	{}
};

static struct kunit_suite iwarp_layout_suite = {
	.name = "madcm_mpa_wire_layout",
	.test_cases = iwarp_layout_cases,
};

kunit_test_suite(iwarp_layout_suite);
