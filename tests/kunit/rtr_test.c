// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the RTR message as an MPA FPDU, byte for byte.
 *
 * Every expected octet below was written out by hand from the RFCs, not
 * taken from the code under test:
 *
 *   MPA   RFC 5044 4.1: ULPDU_Length (16 bits), ULPDU, PAD to a multiple
 *         of four octets counted from ULPDU_Length, CRC (32 bits) over
 *         ULPDU_Length, ULPDU and PAD; zero when CRCs are not in use.
 *   DDP   RFC 5041 4.2-4.4: control octet T|L|Rsvd(4)|DV(2), version 1;
 *         tagged: STag (32), TO (64); untagged: QN, MSN, MO (32 each),
 *         first MSN of a queue 1 (5.1).
 *   RDMAP RFC 5040 4.1-4.4: control octet RV(2)|Rsv(2)|Opcode(4),
 *         version 1; Write 0, Read Request 1, Send 3; Send on queue 0,
 *         Read Request on queue 1; the Read Request header (28 octets).
 *
 * So: Write   c1 40, then 12 octets of STag and TO: ULPDU 14, FPDU 20.
 *     Send    41 43, 4 octets RsvdULP, QN 0, MSN 1, MO 0: ULPDU 18,
 *             FPDU 24.
 *     Read    41 41, 4 octets RsvdULP, QN 1, MSN 1, MO 0, 28 octets of
 *             zero-length Read Request header: ULPDU 46, FPDU 52.
 *
 * The CRC values are CRC32c (reflected polynomial 0x82f63b78, initial
 * and final XOR 0xffffffff), computed with a bit-by-bit implementation
 * of RFC 3385's definition that reproduces the three iSCSI vectors of
 * RFC 3720 B.4, and written in that appendix's octet order.
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "irdma_cm/cm_node.h"
#include "irdma_cm/mpa.h"
#include "tests/kunit/rtr_spec.h"
#include "madcm_compat.h"

#define POISON	0xee
#define BUF_LEN	96

/* Octet by octet, so a failure names the offset (6.1 has no MEMEQ). */
static void expect_octets(struct kunit *test, const u8 *got, const u8 *want,
			  u32 len, const char *what)
{
	u32 i;

	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], want[i], "%s, octet %u", what,
				    i);
}

struct rtr_case {
	const char *name;
	u8 type;
	bool crc;
	const u8 *body;		/* ULPDU_Length through PAD */
	u32 body_len;
	const u8 *crc_octets;	/* NULL: the field is zero */
};

static const struct rtr_case rtr_cases[] = {
	{ "write", IRDMA_RTR_WRITE, false, fpdu_write, sizeof(fpdu_write),
	  NULL },
	{ "write-crc", IRDMA_RTR_WRITE, true, fpdu_write, sizeof(fpdu_write),
	  fpdu_write_crc },
	{ "send", IRDMA_RTR_SEND, false, fpdu_send, sizeof(fpdu_send), NULL },
	{ "send-crc", IRDMA_RTR_SEND, true, fpdu_send, sizeof(fpdu_send),
	  fpdu_send_crc },
	{ "read", IRDMA_RTR_READ, false, fpdu_read, sizeof(fpdu_read), NULL },
	{ "read-crc", IRDMA_RTR_READ, true, fpdu_read, sizeof(fpdu_read),
	  fpdu_read_crc },
};

static void rtr_case_desc(const struct rtr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rtr, rtr_cases, rtr_case_desc);

static void rtr_fpdu_is_byte_exact(struct kunit *test)
{
	static const u8 zero[MPA_CRC_SIZE];
	const struct rtr_case *c = test->param_value;
	u32 len = c->body_len + MPA_CRC_SIZE;
	u8 *buf = kunit_kmalloc(test, BUF_LEN, GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, POISON, BUF_LEN);
	ret = irdma_build_rtr_fpdu(c->type, c->crc, buf, BUF_LEN);
	KUNIT_ASSERT_EQ(test, ret, (int)len);
	expect_octets(test, buf, c->body, c->body_len, "FPDU");
	expect_octets(test, buf + c->body_len, c->crc_octets ?: zero,
		      MPA_CRC_SIZE, "CRC");
	/* Nothing past the FPDU. */
	KUNIT_EXPECT_EQ(test, buf[len], (u8)POISON);
	KUNIT_EXPECT_EQ(test, buf[BUF_LEN - 1], (u8)POISON);
}

/* The FPDU fits exactly the room it needs, and not one octet less. */
static void rtr_fpdu_needs_exact_room(struct kunit *test)
{
	const struct rtr_case *c = test->param_value;
	u32 len = c->body_len + MPA_CRC_SIZE;
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, POISON, len);
	KUNIT_EXPECT_EQ(test, irdma_build_rtr_fpdu(c->type, c->crc, buf,
						   len - 1), -ENOSPC);
	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ(test, buf[i], (u8)POISON);
	/* A buffer of exactly @len: KASAN sees any write past it. */
	KUNIT_EXPECT_EQ(test, irdma_build_rtr_fpdu(c->type, c->crc, buf, len),
			(int)len);
}

/* ---- MPA framing: ULPDU lengths around the four-octet boundary ---- */

struct pad_case {
	u32 ulpdu_len;	/* octets of 0xa5 */
	u32 pad;	/* (2 + len + pad) % 4 == 0 */
	u8 crc_octets[MPA_CRC_SIZE];
};

static const struct pad_case pad_cases[] = {
	{ 13, 1, { 0x8c, 0xc0, 0x25, 0xb0 } },
	{ 14, 0, { 0x35, 0x66, 0x0c, 0x8f } },
	{ 15, 3, { 0xc0, 0x57, 0x73, 0xb2 } },
	{ 16, 2, { 0xb3, 0xb8, 0x7f, 0xab } },
	{ 17, 1, { 0x04, 0x14, 0x24, 0xcb } },
};

static void pad_case_desc(const struct pad_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "ulpdu-%u-pad-%u", c->ulpdu_len,
		 c->pad);
}

KUNIT_ARRAY_PARAM(pad, pad_cases, pad_case_desc);

static void mpa_fpdu_pads_to_four_and_crcs_it_all(struct kunit *test)
{
	const struct pad_case *c = test->param_value;
	u32 body = MPA_ULPDU_LEN_SIZE + c->ulpdu_len + c->pad;
	u8 *buf = kunit_kmalloc(test, BUF_LEN, GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, POISON, BUF_LEN);
	memset(buf + MPA_ULPDU_LEN_SIZE, 0xa5, c->ulpdu_len);
	KUNIT_EXPECT_EQ(test, madcm_mpa_fpdu_len(c->ulpdu_len),
			body + MPA_CRC_SIZE);
	KUNIT_ASSERT_EQ(test, madcm_mpa_frame(buf, BUF_LEN, c->ulpdu_len, true),
			(int)(body + MPA_CRC_SIZE));
	KUNIT_EXPECT_EQ(test, buf[0], (u8)(c->ulpdu_len >> 8));
	KUNIT_EXPECT_EQ(test, buf[1], (u8)c->ulpdu_len);
	for (i = 0; i < c->ulpdu_len; i++)
		KUNIT_EXPECT_EQ(test, buf[MPA_ULPDU_LEN_SIZE + i], 0xa5);
	for (i = 0; i < c->pad; i++)
		KUNIT_EXPECT_EQ(test, buf[MPA_ULPDU_LEN_SIZE + c->ulpdu_len + i],
				0);
	expect_octets(test, buf + body, c->crc_octets, MPA_CRC_SIZE, "CRC");
	KUNIT_EXPECT_EQ(test, buf[body + MPA_CRC_SIZE], (u8)POISON);

	/* Without CRC the field is there, and zero. */
	KUNIT_ASSERT_EQ(test, madcm_mpa_frame(buf, BUF_LEN, c->ulpdu_len, false),
			(int)(body + MPA_CRC_SIZE));
	for (i = 0; i < MPA_CRC_SIZE; i++)
		KUNIT_EXPECT_EQ(test, buf[body + i], 0);
}

/*
 * The octet order the builder writes its CRC in, checked against the
 * first vector of RFC 3720 B.4: 32 octets of zero give aa 36 91 8a.
 */
static void mpa_crc_octet_order_is_iscsi(struct kunit *test)
{
	static const u8 zeros[32];
	static const u8 want[] = { 0xaa, 0x36, 0x91, 0x8a };
	u8 got[4];

	put_unaligned_le32(~__crc32c_le(~0U, zeros, sizeof(zeros)), got);
	expect_octets(test, got, want, sizeof(want), "RFC 3720 B.4");
}

/* ---- refusals ---- */

static void rtr_refuses_anything_but_one_type(struct kunit *test)
{
	static const u8 bad[] = {
		IRDMA_RTR_NONE, IRDMA_RTR_WRITE | IRDMA_RTR_READ,
		IRDMA_RTR_SEND | IRDMA_RTR_WRITE, IRDMA_RTR_ALL, 0x08, 0xff,
	};
	u8 buf[BUF_LEN];
	u32 i, j;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(buf, POISON, sizeof(buf));
		KUNIT_EXPECT_EQ_MSG(test, irdma_build_rtr_fpdu(bad[i], true, buf,
							       sizeof(buf)),
				    -EINVAL, "type %#x", bad[i]);
		for (j = 0; j < sizeof(buf); j++)
			KUNIT_EXPECT_EQ(test, buf[j], (u8)POISON);
	}
}

static void mpa_frame_refuses_oversized_ulpdu(struct kunit *test)
{
	u8 buf[8];

	memset(buf, POISON, sizeof(buf));
	KUNIT_EXPECT_EQ(test, madcm_mpa_frame(buf, U32_MAX, 0x10000, true),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, madcm_mpa_frame(buf, sizeof(buf), 3, true),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, buf[0], (u8)POISON);
	/* The largest ULPDU_Length is fine as far as the field goes. */
	KUNIT_EXPECT_EQ(test, madcm_mpa_fpdu_len(0xffff), 0x10000U + 4 + 4);
}

static struct kunit_case rtr_test_cases[] = {
	KUNIT_CASE_PARAM(rtr_fpdu_is_byte_exact, rtr_gen_params),
	KUNIT_CASE_PARAM(rtr_fpdu_needs_exact_room, rtr_gen_params),
	KUNIT_CASE_PARAM(mpa_fpdu_pads_to_four_and_crcs_it_all, pad_gen_params),
	KUNIT_CASE(mpa_crc_octet_order_is_iscsi),
	KUNIT_CASE(rtr_refuses_anything_but_one_type),
	KUNIT_CASE(mpa_frame_refuses_oversized_ulpdu),
	{}
};

static struct kunit_suite rtr_suite = {
	.name = "madcm_rtr",
	.test_cases = rtr_test_cases,
};

kunit_test_suite(rtr_suite);
