/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The three RTR messages as FPDUs, octet by octet, written out by hand
 * from RFC 5044 4.1 (MPA framing), RFC 5041 4.2-4.4 and 5.1 (DDP) and
 * RFC 5040 4.1-4.4 (RDMAP); tests/kunit/rtr_test.c says how. The CRC
 * field follows each body: zero without CRC, else the value below.
 */
#ifndef _MADCM_TESTS_RTR_SPEC_H
#define _MADCM_TESTS_RTR_SPEC_H

#include <linux/compiler.h>
#include <linux/types.h>

static const u8 fpdu_write[] __maybe_unused = {
	0x00, 0x0e,			/* ULPDU_Length 14 */
	0xc1,				/* T, L, DV 1 */
	0x40,				/* RV 1, Write */
	0x00, 0x00, 0x00, 0x00,		/* STag */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* TO */
	/* 16 octets: no PAD */
};

static const u8 fpdu_send[] __maybe_unused = {
	0x00, 0x12,			/* ULPDU_Length 18 */
	0x41,				/* L, DV 1 */
	0x43,				/* RV 1, Send */
	0x00, 0x00, 0x00, 0x00,		/* RsvdULP (Invalidate STag) */
	0x00, 0x00, 0x00, 0x00,		/* QN 0 */
	0x00, 0x00, 0x00, 0x01,		/* MSN 1 */
	0x00, 0x00, 0x00, 0x00,		/* MO 0 */
	/* 20 octets: no PAD */
};

static const u8 fpdu_read[] __maybe_unused = {
	0x00, 0x2e,			/* ULPDU_Length 46 */
	0x41,				/* L, DV 1 */
	0x41,				/* RV 1, Read Request */
	0x00, 0x00, 0x00, 0x00,		/* RsvdULP */
	0x00, 0x00, 0x00, 0x01,		/* QN 1 */
	0x00, 0x00, 0x00, 0x01,		/* MSN 1 */
	0x00, 0x00, 0x00, 0x00,		/* MO 0 */
	0x00, 0x00, 0x00, 0x00,		/* Data Sink STag */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* Data Sink TO */
	0x00, 0x00, 0x00, 0x00,		/* RDMA Read Message Size 0 */
	0x00, 0x00, 0x00, 0x00,		/* Data Source STag */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* Data Source TO */
	/* 48 octets: no PAD */
};

/* CRC32c of each body above, in RFC 3720 B.4's octet order. */
static const u8 fpdu_write_crc[4] __maybe_unused = { 0xa3, 0x05, 0x72, 0xab };
static const u8 fpdu_send_crc[4] __maybe_unused = { 0x58, 0x7b, 0xe8, 0xc4 };
static const u8 fpdu_read_crc[4] __maybe_unused = { 0xf2, 0xc6, 0xdd, 0x3d };

#endif /* _MADCM_TESTS_RTR_SPEC_H */
