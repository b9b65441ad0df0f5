/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MPA frame as RFC 5044 section 7.1 and RFC 6581 draw it, written out
 * byte by byte for the KUnit suites. Nothing here comes from the code under
 * test: offsets, bits and keys are the RFCs' own.
 *
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  0|  Key: "MPA ID Req Frame" or "MPA ID Rep Frame", 16 octets    |
 *   ~                                                               ~
 * 16|M|C|R|S| Res   |     Rev       |          PD_Length            |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * 20|A|B|     IRD (RFC 6581)        |C|D|     ORD (RFC 6581)        |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Bit 0 is the most significant bit of an octet. S, and the IRD/ORD word
 * at octet 20, are present in a revision 2 frame that carries RFC 6581
 * data; its PD_Length counts those 4 octets. A: peer-to-peer; B, C, D:
 * the RTR message may be a zero-length Send, RDMA Write, RDMA Read.
 */
#ifndef _MADCM_TESTS_MPA_SPEC_H
#define _MADCM_TESTS_MPA_SPEC_H

#include <kunit/test.h>
#include <linux/string.h>
#include <linux/types.h>

enum {
	SPEC_KEY = 0,
	SPEC_KEY_LEN = 16,
	SPEC_FLAGS = 16,
	SPEC_REV = 17,
	SPEC_PD_LEN = 18,
	SPEC_HDR_LEN = 20,
	SPEC_IRD = 20,
	SPEC_ORD = 22,
	SPEC_RTR_LEN = 4,
	SPEC_MAX_PD = 512,

	SPEC_FLAG_M = 0x80,	/* bit 0 of octet 16 */
	SPEC_FLAG_C = 0x40,	/* bit 1 */
	SPEC_FLAG_R = 0x20,	/* bit 2 */
	SPEC_FLAG_S = 0x10,	/* bit 3, RFC 6581 */
	SPEC_HI_A = 0x80,	/* bit 0 of octet 20: peer-to-peer */
	SPEC_HI_B = 0x40,	/* bit 1 of octet 20: zero-length Send RTR */
	SPEC_HI_C = 0x80,	/* bit 0 of octet 22: zero-length Write RTR */
	SPEC_HI_D = 0x40,	/* bit 1 of octet 22: zero-length Read RTR */
	SPEC_IRD_ORD_MAX = 0x3fff,	/* 14 bits */
};

static const char spec_key_req[SPEC_KEY_LEN] = {
	'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R',
	'e', 'q', ' ', 'F', 'r', 'a', 'm', 'e',
};

static const char spec_key_rep[SPEC_KEY_LEN] = {
	'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R',
	'e', 'p', ' ', 'F', 'r', 'a', 'm', 'e',
};

/* A frame in the RFCs' terms. */
struct spec_frame {
	bool request;
	bool m, c, r, s;
	u8 rev;
	u16 pd_len;		/* the PD_Length field as sent */
	bool rtr_words;		/* octets 20-23 are the RFC 6581 word */
	bool a, b, cc, d;
	u16 ird, ord;
	const u8 *ulp;		/* private data after the RFC 6581 word */
	u16 ulp_len;
};

/* Write @f to @out; return the number of octets written. */
static inline size_t spec_write(u8 *out, const struct spec_frame *f)
{
	size_t at = SPEC_HDR_LEN;

	memcpy(out + SPEC_KEY, f->request ? spec_key_req : spec_key_rep,
	       SPEC_KEY_LEN);
	out[SPEC_FLAGS] = (f->m ? SPEC_FLAG_M : 0) | (f->c ? SPEC_FLAG_C : 0) |
			  (f->r ? SPEC_FLAG_R : 0) | (f->s ? SPEC_FLAG_S : 0);
	out[SPEC_REV] = f->rev;
	out[SPEC_PD_LEN] = f->pd_len >> 8;
	out[SPEC_PD_LEN + 1] = f->pd_len & 0xff;
	if (f->rtr_words) {
		out[SPEC_IRD] = (f->a ? SPEC_HI_A : 0) |
				(f->b ? SPEC_HI_B : 0) | (f->ird >> 8);
		out[SPEC_IRD + 1] = f->ird & 0xff;
		out[SPEC_ORD] = (f->cc ? SPEC_HI_C : 0) |
				(f->d ? SPEC_HI_D : 0) | (f->ord >> 8);
		out[SPEC_ORD + 1] = f->ord & 0xff;
		at += SPEC_RTR_LEN;
	}
	if (f->ulp_len)
		memcpy(out + at, f->ulp, f->ulp_len);
	return at + f->ulp_len;
}

/* The offset of the first octet where @a and @b differ, @n if none. */
static inline size_t spec_first_diff(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;
	size_t i;

	for (i = 0; i < n && x[i] == y[i]; i++)
		;
	return i;
}

/* 6.1's KUnit has no KUNIT_EXPECT_MEMEQ; this names the first difference. */
#define SPEC_EXPECT_MEMEQ(test, got, want, n)				\
	do {								\
		size_t __n = (n);					\
		size_t __at = spec_first_diff(got, want, __n);		\
									\
		KUNIT_EXPECT_EQ_MSG(test, __at, __n,			\
				    "first differing octet: %zu", __at); \
	} while (0)

#endif /* _MADCM_TESTS_MPA_SPEC_H */
