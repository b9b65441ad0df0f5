// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the receive side of the RNIC's data path (rnic/ddp.c,
 * rnic/qp_rx.c, the data path's part of rnic/mr.c).
 *
 * madcm_rnic_ddp: the codec on its own. CRC32c against RFC 3720 B.4's
 * check values; FPDU framing (ULPDU_Length, PAD, CRC, RFC 5044 4.1) and
 * MULPDU against RFC 5044 4.1's formula; the streaming parser fed the
 * same stream split at every octet; the header checks against a grid of
 * segments written octet by octet from the figures of RFC 5041 4.2-4.4
 * and RFC 5040 4.1-4.8, each failure with the Terminate layer, type and
 * code that the tables of RFC 5040 4.8, RFC 5041 7.2 and RFC 5044 8 give
 * it (typed in here as numbers, not taken from rnic/iwarp.h); a
 * Terminate message against RFC 5040 4.8's figure.
 *
 * madcm_rnic_ddp_qp: a QP of a madcm RNIC in RTS, its receive side
 * started as a hand-off starts it, fed FPDUs built here. Placement into
 * a fast-registered MR over two discontiguous pages and into a receive
 * WQE's SGEs, with guard octets around every registered range; hostile
 * input (a grid of malformed segments, random octets, corrupted FPDUs,
 * every split) must end the stream with the right Terminate code and
 * counter, the QP in ERROR, and no guard octet changed (KASAN is on in
 * the KUnit configuration).
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/prandom.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include "madcm_compat.h"
#include "rnic/ddp.h"
#include "rnic/rnic.h"
#include "tests/kunit/mpa_spec.h"

/* ---- Building FPDUs octet by octet (RFC 5044 4.1, RFC 5041 4) ---- */

/* RFC 5041 4.2: T is bit 0, L bit 1, DV bits 6-7; RFC 5040 4.2: RV 0-1. */
#define T_BIT		0x80
#define L_BIT		0x40
#define DV1		0x01
#define RV1		0x40

/* RFC 5040 4.3's opcodes. */
#define OP_WRITE	0x0
#define OP_RREQ		0x1
#define OP_RRESP	0x2
#define OP_SEND		0x3
#define OP_SEND_INV	0x4
#define OP_SEND_SE	0x5
#define OP_TERM		0x7

#define FPDU_MAX	(2 + 65535 + 3 + 4)

/*
 * The FPDU around a ULPDU: ULPDU_Length (big endian), ULPDU, zero PAD to
 * a multiple of four, then CRC32c over all of that, least significant
 * octet first (RFC 3720 B.4's order), or zero.
 */
static u32 t_fpdu(u8 *out, const u8 *ulpdu, u32 ulen, bool crc)
{
	u32 body = 2 + ulen, pad = (4 - body % 4) % 4, c = 0;

	out[0] = ulen >> 8;
	out[1] = ulen & 0xff;
	memmove(out + 2, ulpdu, ulen);
	memset(out + body, 0, pad);
	if (crc)
		c = ~__crc32c_le(~0U, out, body + pad);
	out[body + pad] = c & 0xff;
	out[body + pad + 1] = (c >> 8) & 0xff;
	out[body + pad + 2] = (c >> 16) & 0xff;
	out[body + pad + 3] = c >> 24;
	return body + pad + 4;
}

/* RFC 5041 4.3 figure: the tagged header, 14 octets. */
static u32 t_tagged(u8 *u, u8 ctrl, u8 rdmap, u32 stag, u64 to)
{
	u[0] = ctrl;
	u[1] = rdmap;
	put_unaligned_be32(stag, u + 2);
	put_unaligned_be64(to, u + 6);
	return 14;
}

/* RFC 5041 4.4 figure: the untagged header, 18 octets. */
static u32 t_untagged(u8 *u, u8 ctrl, u8 rdmap, u32 inv, u32 qn, u32 msn,
		      u32 mo)
{
	u[0] = ctrl;
	u[1] = rdmap;
	put_unaligned_be32(inv, u + 2);
	put_unaligned_be32(qn, u + 6);
	put_unaligned_be32(msn, u + 10);
	put_unaligned_be32(mo, u + 14);
	return 18;
}

/* RFC 5040 4.4 figure: the Read Request fields after it, 28 octets. */
static u32 t_rreq(u8 *u, u32 sink_stag, u64 sink_to, u32 size, u32 src_stag,
		  u64 src_to)
{
	put_unaligned_be32(sink_stag, u);
	put_unaligned_be64(sink_to, u + 4);
	put_unaligned_be32(size, u + 12);
	put_unaligned_be32(src_stag, u + 16);
	put_unaligned_be64(src_to, u + 20);
	return 28;
}

/* A whole tagged FPDU: RDMA Write (or Read Response) of @len octets. */
static u32 t_write(u8 *out, u8 op, bool last, u32 stag, u64 to,
		   const u8 *data, u32 len, bool crc)
{
	u8 *u = out + 2;
	u32 h = t_tagged(u, T_BIT | (last ? L_BIT : 0) | DV1, RV1 | op, stag,
			 to);

	if (len)
		memcpy(u + h, data, len);
	return t_fpdu(out, u, h + len, crc);
}

/* A whole Send FPDU (queue 0). */
static u32 t_send(u8 *out, u8 op, bool last, u32 inv, u32 msn, u32 mo,
		  const u8 *data, u32 len, bool crc)
{
	u8 *u = out + 2;
	u32 h = t_untagged(u, (last ? L_BIT : 0) | DV1, RV1 | op, inv, 0, msn,
			   mo);

	if (len)
		memcpy(u + h, data, len);
	return t_fpdu(out, u, h + len, crc);
}

/* A whole Read Request FPDU (queue 1). */
static u32 t_read_req(u8 *out, u32 msn, u32 sink_stag, u64 sink_to,
		      u32 size, u32 src_stag, u64 src_to, bool crc)
{
	u8 *u = out + 2;
	u32 h = t_untagged(u, L_BIT | DV1, RV1 | OP_RREQ, 0, 1, msn, 0);

	h += t_rreq(u + h, sink_stag, sink_to, size, src_stag, src_to);
	return t_fpdu(out, u, h, crc);
}

/* ---- madcm_rnic_ddp: the codec ---- */

/* RFC 3720 B.4: CRC32c check values, as sent (first octet first). */
static void crc32c_matches_rfc3720_b4(struct kunit *test)
{
	static const u8 read_cmd[48] = {
		0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
		0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18,
		0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	static const struct {
		const char *what;
		u8 want[4];
	} v[] = {
		{ "32 octets of zeros", { 0xaa, 0x36, 0x91, 0x8a } },
		{ "32 octets of ones", { 0x43, 0xab, 0xa8, 0x62 } },
		{ "32 incrementing octets", { 0x4e, 0x79, 0xdd, 0x46 } },
		{ "32 decrementing octets", { 0x5c, 0xdb, 0x3f, 0x11 } },
		{ "an iSCSI read command", { 0x56, 0x3a, 0x96, 0xd9 } },
	};
	u8 buf[48];
	u32 len, c;
	int i, k;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		len = 32;
		for (k = 0; k < 32; k++)
			buf[k] = i == 0 ? 0 : i == 1 ? 0xff : i == 2 ? k :
				 31 - k;
		if (i == 4) {
			memcpy(buf, read_cmd, sizeof(read_cmd));
			len = sizeof(read_cmd);
		}
		/* In two pieces: the running value carries over. */
		c = madcm_mpa_crc(~0U, buf, 5);
		c = ~madcm_mpa_crc(c, buf + 5, len - 5);
		/* Sent least significant octet first. */
		KUNIT_EXPECT_EQ_MSG(test, c, get_unaligned_le32(v[i].want),
				    "%s", v[i].what);
	}
}

/* RFC 5044 4.1: FPDU = ULPDU_Length + ULPDU + PAD to 4 + CRC. */
static void fpdu_len_follows_rfc5044(struct kunit *test)
{
	u32 ulen;

	for (ulen = 0; ulen < 70; ulen++)
		KUNIT_EXPECT_EQ_MSG(test, madcm_mpa_fpdu_len(ulen),
				    (2 + ulen + 3) / 4 * 4 + 4, "ULPDU %u",
				    ulen);
	KUNIT_EXPECT_EQ(test, madcm_mpa_fpdu_len(65535), 2 + 65535 + 3 + 4);
}

/*
 * RFC 5044 4.1, without markers: MULPDU = EMSS - (6 + EMSS mod 4), the
 * largest ULPDU whose FPDU fits one segment.
 */
static void mulpdu_follows_rfc5044(struct kunit *test)
{
	static const u32 emss[] = { 8, 9, 10, 11, 12, 536, 1220, 1440, 1460,
				    1461, 1462, 1463, 1464, 8948, 8960, 9000 };
	int i;

	for (i = 0; i < ARRAY_SIZE(emss); i++) {
		u32 want = emss[i] - (6 + emss[i] % 4);

		KUNIT_EXPECT_EQ_MSG(test, madcm_mpa_mulpdu(emss[i]), want,
				    "EMSS %u", emss[i]);
		KUNIT_EXPECT_LE(test, madcm_mpa_fpdu_len(want), emss[i]);
		KUNIT_EXPECT_GT(test, madcm_mpa_fpdu_len(want + 1), emss[i]);
	}
	/* Below 8 octets no FPDU fits. */
	KUNIT_EXPECT_EQ(test, madcm_mpa_mulpdu(7), 0);
	KUNIT_EXPECT_EQ(test, madcm_mpa_mulpdu(200000), 65535);
}

/*
 * madcm_mpa_frame() (iwarp/fpdu.c, the codec the CM's RTR and the data
 * path share) builds the FPDU RFC 5044 4.1 describes around a ULPDU in
 * place, in exactly its room and not in one octet less; and
 * madcm_mpa_fpdu_crc_ok() takes it whole, and refuses it with any one
 * octet changed.
 */
static void frame_builds_rfc5044_fpdus(struct kunit *test)
{
	u8 *want, *got;
	u32 ulen, k, len;
	int crc;

	want = kunit_kzalloc(test, 256, GFP_KERNEL);
	got = kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, want && got);
	for (crc = 0; crc < 2; crc++) {
		for (ulen = 14; ulen < 30; ulen++) {
			for (k = 0; k < ulen; k++)
				want[2 + k] = 0x30 + k;
			len = t_fpdu(want, want + 2, ulen, crc);

			memset(got, 0xee, 256);
			memcpy(got + 2, want + 2, ulen);
			KUNIT_EXPECT_EQ(test, madcm_mpa_frame(got, len - 1, ulen,
							      crc),
					-ENOSPC);
			KUNIT_EXPECT_EQ(test, got[0], 0xee);
			KUNIT_EXPECT_EQ(test, madcm_mpa_frame(got, len, ulen,
							      crc),
					(int)len);
			SPEC_EXPECT_MEMEQ(test, got, want, len);
			KUNIT_EXPECT_EQ(test, got[len], 0xee);
			if (!crc)
				continue;
			KUNIT_EXPECT_TRUE(test, madcm_mpa_fpdu_crc_ok(got, len));
			for (k = 0; k < len; k++) {
				got[k] ^= 0x01;
				KUNIT_EXPECT_FALSE_MSG(test,
						       madcm_mpa_fpdu_crc_ok(got, len),
						       "ULPDU %u, octet %u", ulen,
						       k);
				got[k] ^= 0x01;
			}
		}
	}
	KUNIT_EXPECT_FALSE(test, madcm_mpa_fpdu_crc_ok(got, 3));
}

/* RFC 5040 4.8: Terminate messages, octet by octet. */
static void terminate_follows_rfc5040(struct kunit *test)
{
	struct madcm_ddp_term_msg m;
	u8 hdrs[48], want[70];
	u32 n;

	/* A tagged segment's headers: M and D, 2 + 14 octets. */
	hdrs[0] = 0x00;
	hdrs[1] = 0x40;
	t_tagged(hdrs + 2, T_BIT | L_BIT | DV1, RV1 | OP_WRITE, 0x1234567f,
		 0x1122334455667788ULL);
	n = madcm_ddp_term_build(&m, 3, 1, 1, 0x01, hdrs, 16);
	KUNIT_EXPECT_EQ(test, n, 18 + 4 + 16);
	t_untagged(want, L_BIT | DV1, RV1 | OP_TERM, 0, 2, 3, 0);
	want[18] = 0x11;	/* layer 1, etype 1 */
	want[19] = 0x01;	/* ecode 1 */
	want[20] = 0xc0;	/* M, D */
	want[21] = 0x00;
	memcpy(want + 22, hdrs, 16);
	SPEC_EXPECT_MEMEQ(test, &m, want, n);

	/* A Read Request's: M, D and R, 2 + 18 + 28 octets. */
	hdrs[1] = 46;
	t_untagged(hdrs + 2, L_BIT | DV1, RV1 | OP_RREQ, 0, 1, 7, 0);
	t_rreq(hdrs + 20, 1, 2, 3, 4, 5);
	n = madcm_ddp_term_build(&m, 1, 0, 1, 0x02, hdrs, 48);
	KUNIT_EXPECT_EQ(test, n, 18 + 4 + 48);
	t_untagged(want, L_BIT | DV1, RV1 | OP_TERM, 0, 2, 1, 0);
	want[18] = 0x01;	/* layer 0, etype 1 */
	want[19] = 0x02;
	want[20] = 0xe0;	/* M, D, R */
	want[21] = 0x00;
	memcpy(want + 22, hdrs, 48);
	SPEC_EXPECT_MEMEQ(test, &m, want, n);

	/* An LLP error: no headers, HdrCt 0. */
	n = madcm_ddp_term_build(&m, 1, 2, 0, 0x02, NULL, 0);
	KUNIT_EXPECT_EQ(test, n, 22);
	want[18] = 0x20;
	want[19] = 0x02;
	want[20] = 0x00;
	SPEC_EXPECT_MEMEQ(test, &m, want, n);
}

/* What a parser reported: headers, payload, ends and CRC verdicts. */
struct t_sink {
	u32 n_hdr;
	u32 n_end;
	u32 n_bad;
	u32 ulen[8];
	u8 *pay;	/* payloads, one after the other */
	u32 pay_len;
	u32 hdr_got[8];
};

static void t_run(struct madcm_mpa_rx *p, const u8 *d, u32 len,
		  struct t_sink *s)
{
	struct madcm_mpa_rx_out out;
	u32 n;

	while (len) {
		n = madcm_mpa_rx_step(p, d, len, &out);
		d += n;
		len -= n;
		switch (out.ev) {
		case MADCM_MPA_RX_HDR:
			if (s->n_hdr < ARRAY_SIZE(s->ulen)) {
				s->ulen[s->n_hdr] = be16_to_cpu(p->h.seg_len);
				s->hdr_got[s->n_hdr] = p->got;
			}
			s->n_hdr++;
			break;
		case MADCM_MPA_RX_DATA:
			memcpy(s->pay + s->pay_len, out.data, out.len);
			s->pay_len += out.len;
			break;
		case MADCM_MPA_RX_END:
			s->n_end++;
			if (!p->crc_ok)
				s->n_bad++;
			break;
		default:
			break;
		}
	}
}

/*
 * The same stream, split at every octet (and fed one octet at a time),
 * gives the same FPDUs, payloads and CRC verdicts.
 */
static void parser_takes_any_split(struct kunit *test)
{
	u8 *stream, *data, *pay;
	struct madcm_mpa_rx p;
	struct t_sink s;
	u32 len = 0, k, i, want_pay;

	stream = kunit_kzalloc(test, 4096, GFP_KERNEL);
	data = kunit_kzalloc(test, 2048, GFP_KERNEL);
	pay = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, stream && data && pay);
	for (i = 0; i < 2048; i++)
		data[i] = i * 7 + 3;
	/*
	 * Write of 5 (PAD 3), empty Send (PAD 0), Read Request, Write of
	 * 1000 (PAD 0), Send of 1 (PAD 1).
	 */
	len += t_write(stream + len, OP_WRITE, true, 0x100, 0, data, 5, true);
	len += t_send(stream + len, OP_SEND, true, 0, 1, 0, NULL, 0, true);
	len += t_read_req(stream + len, 1, 1, 2, 3, 4, 5, true);
	len += t_write(stream + len, OP_WRITE, true, 0x100, 5, data + 5, 1000,
		       true);
	len += t_send(stream + len, OP_SEND, true, 0, 2, 0, data + 1005, 1,
		      true);
	want_pay = 1006;

	for (k = 0; k <= len; k++) {
		memset(&s, 0, sizeof(s));
		s.pay = pay;
		madcm_mpa_rx_init(&p, true);
		t_run(&p, stream, k, &s);
		t_run(&p, stream + k, len - k, &s);
		KUNIT_EXPECT_EQ_MSG(test, s.n_end, 5, "split at %u", k);
		KUNIT_EXPECT_EQ_MSG(test, s.n_bad, 0, "split at %u", k);
		KUNIT_EXPECT_EQ_MSG(test, s.pay_len, want_pay, "split at %u", k);
		KUNIT_EXPECT_EQ(test, s.ulen[0], 14 + 5);
		KUNIT_EXPECT_EQ(test, s.ulen[1], 18);
		KUNIT_EXPECT_EQ(test, s.ulen[2], 18 + 28);
		KUNIT_EXPECT_EQ(test, s.hdr_got[2], 2 + 18 + 28);
		KUNIT_EXPECT_EQ(test, s.ulen[3], 14 + 1000);
		SPEC_EXPECT_MEMEQ(test, pay, data, want_pay);
		if (test->status == KUNIT_FAILURE)
			return;
	}

	memset(&s, 0, sizeof(s));
	s.pay = pay;
	madcm_mpa_rx_init(&p, true);
	for (k = 0; k < len; k++)
		t_run(&p, stream + k, 1, &s);
	KUNIT_EXPECT_EQ(test, s.n_end, 5);
	KUNIT_EXPECT_EQ(test, s.pay_len, want_pay);
	SPEC_EXPECT_MEMEQ(test, pay, data, want_pay);
}

/*
 * A changed octet anywhere fails the CRC; without CRCs the field is not
 * looked at (RFC 5044 4.1, 8).
 */
static void parser_checks_crc(struct kunit *test)
{
	u8 stream[64], data[8] = "payload";
	struct madcm_mpa_rx p;
	struct t_sink s;
	u8 pay[64];
	u32 len, i;

	len = t_write(stream, OP_WRITE, true, 0x100, 0, data, 7, true);
	for (i = 0; i < len; i++) {
		/* Not the length field: that changes the framing. */
		if (i < 2)
			continue;
		memset(&s, 0, sizeof(s));
		s.pay = pay;
		stream[i] ^= 0x10;
		madcm_mpa_rx_init(&p, true);
		t_run(&p, stream, len, &s);
		KUNIT_EXPECT_EQ_MSG(test, s.n_bad, 1, "octet %u changed", i);
		stream[i] ^= 0x10;
	}
	len = t_write(stream, OP_WRITE, true, 0x100, 0, data, 7, false);
	stream[len - 1] = 0x5a;
	memset(&s, 0, sizeof(s));
	s.pay = pay;
	madcm_mpa_rx_init(&p, false);
	t_run(&p, stream, len, &s);
	KUNIT_EXPECT_EQ(test, s.n_end, 1);
	KUNIT_EXPECT_EQ(test, s.n_bad, 0);
}

/*
 * Without CRCs the receiver computes none (the field carries nothing to
 * check): the running CRC stays at its seed through the length field,
 * the headers, the payload and PAD; with them, the same prefix has moved
 * it. The FPDU ends clean either way.
 */
static void parser_without_crc_computes_none(struct kunit *test)
{
	u8 stream[64], data[8] = "payload", pay[64];
	struct madcm_mpa_rx p;
	struct t_sink s;
	bool on;
	u32 len;

	for (on = false; ; on = true) {
		memset(&s, 0, sizeof(s));
		s.pay = pay;
		len = t_write(stream, OP_WRITE, true, 0x100, 0, data, 7, on);
		madcm_mpa_rx_init(&p, on);
		t_run(&p, stream, len - MPA_CRC_SIZE, &s);
		if (on)
			KUNIT_EXPECT_NE(test, p.crc, ~0U);
		else
			KUNIT_EXPECT_EQ(test, p.crc, ~0U);
		t_run(&p, stream + len - MPA_CRC_SIZE, MPA_CRC_SIZE, &s);
		KUNIT_EXPECT_EQ(test, s.n_end, 1);
		KUNIT_EXPECT_EQ(test, s.n_bad, 0);
		KUNIT_EXPECT_EQ(test, s.pay_len, 7);
		if (on)
			break;
	}
}

/*
 * The header grid: each segment built from the RFC figures, with one
 * field wrong, and the Terminate code RFC 5040 4.8 / RFC 5041 7.2 give.
 */
struct hdr_case {
	const char *desc;
	u8 ctrl;
	u8 rdmap;
	u32 qn;
	u32 mo;
	u64 to;
	u32 ulen;	/* 0: the header's own length */
	bool ok;
	u8 layer, etype, ecode;
};

static const struct hdr_case hdr_cases[] = {
	{ "tagged Write", T_BIT | L_BIT | DV1, RV1 | OP_WRITE, 0, 0, 0, 0,
	  true },
	{ "untagged Send", L_BIT | DV1, RV1 | OP_SEND, 0, 0, 0, 0, true },
	{ "Read Request", L_BIT | DV1, RV1 | OP_RREQ, 1, 0, 0, 0, true },
	{ "Terminate", L_BIT | DV1, RV1 | OP_TERM, 2, 0, 0, 0, true },
	{ "tagged, DDP version 0", T_BIT | L_BIT, RV1 | OP_WRITE, 0, 0, 0, 0,
	  false, 1, 1, 0x04 },
	{ "untagged, DDP version 2", L_BIT | 2, RV1 | OP_SEND, 0, 0, 0, 0,
	  false, 1, 2, 0x06 },
	{ "RDMAP version 0", L_BIT | DV1, OP_SEND, 0, 0, 0, 0, false, 0, 2,
	  0x05 },
	{ "RDMAP version 3", T_BIT | DV1, 0xc0 | OP_WRITE, 0, 0, 0, 0, false,
	  0, 2, 0x05 },
	{ "opcode 8", L_BIT | DV1, RV1 | 8, 0, 0, 0, 0, false, 0, 2, 0x06 },
	{ "opcode 15", T_BIT | DV1, RV1 | 15, 0, 0, 0, 0, false, 0, 2, 0x06 },
	{ "Write untagged", L_BIT | DV1, RV1 | OP_WRITE, 0, 0, 0, 0, false,
	  0, 2, 0x06 },
	{ "Send tagged", T_BIT | L_BIT | DV1, RV1 | OP_SEND, 0, 0, 0, 0,
	  false, 0, 2, 0x06 },
	{ "Send on queue 1", L_BIT | DV1, RV1 | OP_SEND, 1, 0, 0, 0, false,
	  1, 2, 0x01 },
	{ "Send on queue 3", L_BIT | DV1, RV1 | OP_SEND_SE, 3, 0, 0, 0, false,
	  1, 2, 0x01 },
	{ "Read Request on queue 0", L_BIT | DV1, RV1 | OP_RREQ, 0, 0, 0, 0,
	  false, 1, 2, 0x01 },
	{ "Terminate on queue 0", L_BIT | DV1, RV1 | OP_TERM, 0, 0, 0, 0,
	  false, 1, 2, 0x01 },
	{ "Read Request at MO 4", L_BIT | DV1, RV1 | OP_RREQ, 1, 4, 0, 0,
	  false, 1, 2, 0x04 },
	{ "tagged offset wraps", T_BIT | L_BIT | DV1, RV1 | OP_WRITE, 0, 0,
	  U64_MAX - 3, 14 + 8, false, 1, 1, 0x03 },
	{ "ULPDU shorter than the tagged header", T_BIT | L_BIT | DV1,
	  RV1 | OP_WRITE, 0, 0, 0, 10, false, 0, 2, 0xff },
	{ "ULPDU shorter than a Read Request", L_BIT | DV1, RV1 | OP_RREQ, 1,
	  0, 0, 30, false, 0, 2, 0xff },
	{ "Read Request with payload", L_BIT | DV1, RV1 | OP_RREQ, 1, 0, 0,
	  46 + 4, false, 0, 2, 0xff },
	{ "Read Request without L", DV1, RV1 | OP_RREQ, 1, 0, 0, 0, false, 0,
	  2, 0xff },
	{ "empty ULPDU", 0, 0, 0, 0, 0, U32_MAX, false, 0, 2, 0xff },
};

static void hdr_desc(const struct hdr_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hdr, hdr_cases, hdr_desc);

static void header_checks_follow_rfcs(struct kunit *test)
{
	const struct hdr_case *c = test->param_value;
	u8 u[128] = {}, stream[160];
	struct madcm_term_code err = {};
	struct madcm_ddp_seg seg;
	struct madcm_mpa_rx p;
	struct t_sink s = {};
	u8 pay[160];
	u32 h, ulen, len;
	int ret;

	if (c->ctrl & T_BIT)
		h = t_tagged(u, c->ctrl, c->rdmap, 0x1234, c->to);
	else
		h = t_untagged(u, c->ctrl, c->rdmap, 0, c->qn, 1, c->mo);
	if ((c->rdmap & 0xf) == OP_RREQ && !(c->ctrl & T_BIT))
		h += t_rreq(u + h, 1, 0, 16, 2, 0);
	if ((c->rdmap & 0xf) == OP_TERM && !(c->ctrl & T_BIT))
		h += 4;
	ulen = c->ulen == U32_MAX ? 0 : c->ulen ?: h;
	len = t_fpdu(stream, u, ulen, true);

	s.pay = pay;
	madcm_mpa_rx_init(&p, true);
	t_run(&p, stream, len, &s);
	KUNIT_ASSERT_EQ(test, s.n_hdr, 1);
	KUNIT_EXPECT_EQ(test, s.n_end, 1);
	KUNIT_EXPECT_EQ(test, s.n_bad, 0);
	ret = madcm_ddp_parse(&p.h, s.hdr_got[0], &seg, &err);
	if (c->ok) {
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, seg.hdr_len, h);
		KUNIT_EXPECT_EQ(test, seg.opcode, c->rdmap & 0xf);
		return;
	}
	KUNIT_EXPECT_EQ(test, ret, -EPROTO);
	KUNIT_EXPECT_EQ(test, err.layer, c->layer);
	KUNIT_EXPECT_EQ(test, err.etype, c->etype);
	KUNIT_EXPECT_EQ(test, err.ecode, c->ecode);
}

/* The fields of a Read Request come out where RFC 5040 4.4 puts them. */
static void read_request_fields(struct kunit *test)
{
	struct madcm_term_code err;
	struct madcm_ddp_seg seg;
	struct madcm_ddp_term_hdrs h = {};

	h.seg_len = cpu_to_be16(46);
	t_untagged(h.hdr, L_BIT | DV1, RV1 | OP_RREQ, 0, 1, 9, 0);
	t_rreq(h.hdr + 18, 0xa1a2a3a4, 0xb1b2b3b4b5b6b7b8ULL, 0xc1c2c3c4,
	       0xd1d2d3d4, 0xe1e2e3e4e5e6e7e8ULL);
	KUNIT_ASSERT_EQ(test, madcm_ddp_parse(&h, 48, &seg, &err), 0);
	KUNIT_EXPECT_EQ(test, seg.msn, 9);
	KUNIT_EXPECT_EQ(test, seg.sink_stag, 0xa1a2a3a4);
	KUNIT_EXPECT_EQ(test, seg.sink_to, 0xb1b2b3b4b5b6b7b8ULL);
	KUNIT_EXPECT_EQ(test, seg.read_size, 0xc1c2c3c4);
	KUNIT_EXPECT_EQ(test, seg.src_stag, 0xd1d2d3d4);
	KUNIT_EXPECT_EQ(test, seg.src_to, 0xe1e2e3e4e5e6e7e8ULL);
	KUNIT_EXPECT_TRUE(test, seg.last);
	KUNIT_EXPECT_EQ(test, seg.pay_len, 0);
}

static struct kunit_case rnic_ddp_cases[] = {
	KUNIT_CASE(crc32c_matches_rfc3720_b4),
	KUNIT_CASE(fpdu_len_follows_rfc5044),
	KUNIT_CASE(mulpdu_follows_rfc5044),
	KUNIT_CASE(frame_builds_rfc5044_fpdus),
	KUNIT_CASE(terminate_follows_rfc5040),
	KUNIT_CASE(parser_takes_any_split),
	KUNIT_CASE(parser_checks_crc),
	KUNIT_CASE(parser_without_crc_computes_none),
	KUNIT_CASE_PARAM(header_checks_follow_rfcs, hdr_gen_params),
	KUNIT_CASE(read_request_fields),
	{}
};

static struct kunit_suite rnic_ddp_suite = {
	.name = "madcm_rnic_ddp",
	.test_cases = rnic_ddp_cases,
};

/* ---- madcm_rnic_ddp_qp: the receive side of a QP ---- */

#define GUARD		0xa5
#define PG0_OFF		64		/* the MR starts this far into page 0 */
#define PG1_LEN		256		/* and ends this far into page 1 */
#define MR_LEN		(PAGE_SIZE - PG0_OFF + PG1_LEN)
#define MR_KEY		0x3c
#define RBUF_GUARD	64
#define RBUF_LEN	512

struct qx {
	struct net_device *nd;
	struct ib_device *ibdev;
	struct madcm_rnic_dev *dev;
	struct ib_pd *pd;
	struct ib_pd *pd2;
	struct ib_cq *cq;
	struct ib_qp *ibqp;
	struct madcm_rnic_qp *qp;
	struct ib_mr *mr;	/* FRMR over two pages, remote write + read */
	struct ib_mr *mr2;	/* the same pages, in @pd2 */
	struct page *pages[2];
	struct scatterlist sg[2];
	u8 *rbuf;		/* receive buffer, guards around RBUF_LEN */
	u8 *stream;		/* FPDU_MAX * 2 */
	u8 *data;
};

static netdev_tx_t qx_xmit(struct sk_buff *skb, struct net_device *nd)
{
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops qx_netdev_ops = {
	.ndo_start_xmit = qx_xmit,
};

static u8 *qx_pg(struct qx *x, int i)
{
	return page_address(x->pages[i]);
}

/* The octet of the MR at @off, where it lives. */
static u8 *qx_mr_octet(struct qx *x, u32 off)
{
	if (off < PAGE_SIZE - PG0_OFF)
		return qx_pg(x, 0) + PG0_OFF + off;
	return qx_pg(x, 1) + off - (PAGE_SIZE - PG0_OFF);
}

/* Nothing changed outside the registered ranges. */
static void qx_expect_guards(struct kunit *test, struct qx *x)
{
	u32 i, bad = 0;

	for (i = 0; i < PG0_OFF; i++)
		bad += qx_pg(x, 0)[i] != GUARD;
	for (i = PG1_LEN; i < PAGE_SIZE; i++)
		bad += qx_pg(x, 1)[i] != GUARD;
	for (i = 0; i < RBUF_GUARD; i++) {
		bad += x->rbuf[i] != GUARD;
		bad += x->rbuf[RBUF_GUARD + RBUF_LEN + i] != GUARD;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "guard octets changed");
}

static struct ib_mr *qx_frmr(struct kunit *test, struct qx *x,
			     struct ib_pd *pd, int access)
{
	struct madcm_rnic_swqe wqe = {};
	struct ib_mr *mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 2);
	struct madcm_rnic_qp *qp;

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, x->sg, 2, NULL, PAGE_SIZE), 2);
	KUNIT_ASSERT_EQ(test, mr->length, (u64)MR_LEN);
	/* The fast-register a REG_MR work request runs, on a QP of @pd. */
	wqe.mr = to_madcm_rnic_mr(mr);
	wqe.key = (mr->rkey & ~0xffU) | MR_KEY;
	wqe.access = access;
	qp = x->qp;
	if (pd != x->pd) {
		/* Only the PD and the device of the QP are looked at. */
		qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, qp);
		qp->dev = x->dev;
		qp->ibqp.pd = pd;
	}
	KUNIT_ASSERT_EQ(test, madcm_rnic_mr_fastreg(qp, &wqe), IB_WC_SUCCESS);
	return mr;
}

/* The rights iw_cm gives the QPs it connects (iw_cm_init_qp_attr()). */
#define QX_RIGHTS	(IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ)

/*
 * RTS and a started receive side, as the hand-off leaves them, the QP
 * given the access rights @rights at INIT.
 */
static void qx_start_rights(struct kunit *test, struct qx *x, bool p2p_rtr,
			    u32 rcvd_len, int rights)
{
	struct madcm_cm_offload_ctx ctx = {};
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RESET };

	KUNIT_ASSERT_EQ(test, ib_modify_qp(x->ibqp, &attr, IB_QP_STATE), 0);
	attr.qp_state = IB_QPS_INIT;
	attr.qp_access_flags = rights;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(x->ibqp, &attr, IB_QP_STATE |
					   IB_QP_ACCESS_FLAGS), 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(x->qp), 0);
	ctx.tcp.crc = true;
	ctx.tcp.peer_to_peer = p2p_rtr;
	ctx.tcp.rtr_type = p2p_rtr ? MADCM_CM_RTR_SEND : 0;
	ctx.rcvd_len = rcvd_len;
	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_rx_start(x->qp, &ctx), 0);
}

/* The same with the rights of a QP that iw_cm connected. */
static void qx_start(struct kunit *test, struct qx *x, bool p2p_rtr,
		     u32 rcvd_len)
{
	qx_start_rights(test, x, p2p_rtr, rcvd_len, QX_RIGHTS);
}

static u64 qx_count(struct qx *x, enum madcm_rnic_counter c)
{
	return atomic64_read(&x->dev->cnt[c]);
}

static void qx_post_recv(struct kunit *test, struct qx *x, u64 wr_id,
			 const struct ib_sge *sge, int n)
{
	struct ib_recv_wr wr = {
		.wr_id = wr_id,
		.sg_list = (struct ib_sge *)sge,
		.num_sge = n,
	};

	KUNIT_ASSERT_EQ(test, ib_post_recv(x->ibqp, &wr, NULL), 0);
}

/* One receive buffer over the whole guarded range. */
static void qx_post_rbuf(struct kunit *test, struct qx *x, u64 wr_id)
{
	struct ib_sge sge = {
		.addr = (u64)(uintptr_t)(x->rbuf + RBUF_GUARD),
		.length = RBUF_LEN,
		.lkey = x->pd->local_dma_lkey,
	};

	qx_post_recv(test, x, wr_id, &sge, 1);
}

static void qx_feed(struct qx *x, const u8 *d, u32 len)
{
	madcm_rnic_qp_rx_data(&x->qp->stream, d, len);
}

static enum ib_qp_state qx_state(struct qx *x)
{
	return READ_ONCE(x->qp->state);
}

static int qx_init(struct kunit *test)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 64 };
	struct ib_qp_init_attr qattr = {
		.cap = {
			.max_send_wr = 8,
			.max_recv_wr = 16,
			.max_send_sge = 2,
			.max_recv_sge = 2,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};
	struct qx *x;
	int i;

	x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	test->priv = x;
	x->stream = kunit_kzalloc(test, 2 * FPDU_MAX, GFP_KERNEL);
	x->data = kunit_kzalloc(test, FPDU_MAX, GFP_KERNEL);
	x->rbuf = kunit_kzalloc(test, RBUF_LEN + 2 * RBUF_GUARD, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, x->stream && x->data && x->rbuf);
	memset(x->rbuf, GUARD, RBUF_LEN + 2 * RBUF_GUARD);
	for (i = 0; i < FPDU_MAX; i++)
		x->data[i] = i * 13 + 1;

	x->nd = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, x->nd);
	x->nd->netdev_ops = &qx_netdev_ops;
	eth_hw_addr_random(x->nd);
	KUNIT_ASSERT_EQ(test, register_netdev(x->nd), 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_newlink("mkd%d", x->nd), 0);
	x->ibdev = ib_device_get_by_netdev(x->nd, RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL(test, x->ibdev);
	ib_device_put(x->ibdev);
	x->dev = to_madcm_rnic(x->ibdev);

	sg_init_table(x->sg, 2);
	for (i = 0; i < 2; i++) {
		x->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, x->pages[i]);
		memset(qx_pg(x, i), GUARD, PAGE_SIZE);
	}
	sg_set_page(&x->sg[0], x->pages[0], PAGE_SIZE - PG0_OFF, PG0_OFF);
	sg_dma_address(&x->sg[0]) = (u64)(uintptr_t)qx_pg(x, 0) + PG0_OFF;
	sg_dma_len(&x->sg[0]) = PAGE_SIZE - PG0_OFF;
	sg_set_page(&x->sg[1], x->pages[1], PG1_LEN, 0);
	sg_dma_address(&x->sg[1]) = (u64)(uintptr_t)qx_pg(x, 1);
	sg_dma_len(&x->sg[1]) = PG1_LEN;

	x->pd = ib_alloc_pd(x->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x->pd));
	x->pd2 = ib_alloc_pd(x->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x->pd2));
	x->cq = ib_create_cq(x->ibdev, NULL, NULL, NULL, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x->cq));
	qattr.send_cq = x->cq;
	qattr.recv_cq = x->cq;
	x->ibqp = ib_create_qp(x->pd, &qattr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x->ibqp));
	x->qp = to_madcm_rnic_qp(x->ibqp);
	x->mr = qx_frmr(test, x, x->pd, IB_ACCESS_LOCAL_WRITE |
			IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ);
	x->mr2 = qx_frmr(test, x, x->pd2, IB_ACCESS_LOCAL_WRITE |
			 IB_ACCESS_REMOTE_WRITE);
	qx_start(test, x, false, 0);
	return 0;
}

static void qx_exit(struct kunit *test)
{
	struct qx *x = test->priv;
	int i;

	if (!x)
		return;
	if (!IS_ERR_OR_NULL(x->ibqp))
		ib_destroy_qp(x->ibqp);
	if (!IS_ERR_OR_NULL(x->mr))
		ib_dereg_mr(x->mr);
	if (!IS_ERR_OR_NULL(x->mr2))
		ib_dereg_mr(x->mr2);
	if (!IS_ERR_OR_NULL(x->cq))
		ib_destroy_cq(x->cq);
	if (!IS_ERR_OR_NULL(x->pd2))
		ib_dealloc_pd(x->pd2);
	if (!IS_ERR_OR_NULL(x->pd))
		ib_dealloc_pd(x->pd);
	if (x->ibdev)
		ib_unregister_device(x->ibdev);
	if (x->nd) {
		if (x->nd->reg_state == NETREG_REGISTERED)
			unregister_netdev(x->nd);
		free_netdev(x->nd);
	}
	for (i = 0; i < 2; i++)
		if (x->pages[i])
			__free_page(x->pages[i]);
}

static u32 qx_stag(struct qx *x)
{
	return x->mr->rkey;
}

/*
 * An outstanding RDMA Read as the send side records it when its Read
 * Request leaves (here the RTR kind, which completes no work request).
 */
static void qx_outstanding_read(struct qx *x, u32 stag, u64 to, u32 len)
{
	struct madcm_rnic_qp *qp = x->qp;
	struct madcm_rnic_oreq *o;
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	o = &qp->orq[qp->orq_tail % MADCM_RNIC_ORQ_SIZE];
	o->wqe = MADCM_RNIC_ORQ_RTR;
	o->sink_stag = stag;
	o->sink_to = to;
	o->len = len;
	qp->orq_tail++;
	spin_unlock_irqrestore(&qp->lock, flags);
}

/*
 * An RDMA Write across the FRMR's two discontiguous pages lands octet
 * for octet where the MR maps them, and nowhere else.
 */
static void write_lands_across_frmr_pages(struct kunit *test)
{
	struct qx *x = test->priv;
	u32 off = PAGE_SIZE - PG0_OFF - 100, len, i, bad = 0;

	len = t_write(x->stream, OP_WRITE, true, qx_stag(x),
		      x->mr->iova + off, x->data, 300, true);
	qx_feed(x, x->stream, len);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_RTS);
	KUNIT_EXPECT_FALSE(test, x->qp->rx.dead);
	for (i = 0; i < MR_LEN; i++) {
		u8 want = i >= off && i < off + 300 ? x->data[i - off] : GUARD;

		bad += *qx_mr_octet(x, i) != want;
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
	qx_expect_guards(test, x);
}

/*
 * A Write and a two-segment Send, the stream split at every octet: each
 * time the same placement and one receive completion.
 */
static void stream_split_at_every_octet(struct kunit *test)
{
	struct qx *x = test->priv;
	u32 len = 0, k, i, bad;
	struct ib_wc wc;

	len += t_write(x->stream + len, OP_WRITE, true, qx_stag(x),
		       x->mr->iova + 10, x->data, 37, true);
	len += t_send(x->stream + len, OP_SEND, false, 0, 1, 0, x->data + 37,
		      30, true);
	len += t_send(x->stream + len, OP_SEND, true, 0, 1, 30, x->data + 67,
		      13, true);
	for (k = 0; k <= len; k++) {
		qx_start(test, x, false, 0);
		memset(qx_pg(x, 0), GUARD, PAGE_SIZE);
		memset(x->rbuf, GUARD, RBUF_LEN + 2 * RBUF_GUARD);
		qx_post_rbuf(test, x, k);
		qx_feed(x, x->stream, k);
		qx_feed(x, x->stream + k, len - k);
		KUNIT_ASSERT_EQ_MSG(test, ib_poll_cq(x->cq, 1, &wc), 1,
				    "split at %u", k);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
		KUNIT_EXPECT_EQ(test, wc.wr_id, k);
		KUNIT_EXPECT_EQ(test, wc.byte_len, 43);
		bad = memcmp(qx_mr_octet(x, 10), x->data, 37) != 0;
		bad += memcmp(x->rbuf + RBUF_GUARD, x->data + 37, 43) != 0;
		for (i = 43; i < RBUF_LEN; i++)
			bad += x->rbuf[RBUF_GUARD + i] != GUARD;
		KUNIT_EXPECT_EQ_MSG(test, bad, 0, "split at %u", k);
		qx_expect_guards(test, x);
		if (test->status == KUNIT_FAILURE)
			return;
	}
}

/*
 * A Send with Solicited Event over two SGEs: the data continues from the
 * first SGE into the second; with Invalidate, the STag named becomes
 * invalid and the completion says so (RFC 5040 6.10, IB_WC_WITH_INVALIDATE).
 */
static void send_scatters_and_invalidates(struct kunit *test)
{
	struct qx *x = test->priv;
	struct ib_sge sge[2] = {
		{ .addr = (u64)(uintptr_t)(x->rbuf + RBUF_GUARD), .length = 10,
		  .lkey = x->pd->local_dma_lkey },
		{ .addr = (u64)(uintptr_t)(x->rbuf + RBUF_GUARD + 100),
		  .length = 100, .lkey = x->pd->local_dma_lkey },
	};
	struct ib_wc wc;
	u32 len;

	qx_post_recv(test, x, 7, sge, 2);
	len = t_send(x->stream, OP_SEND_SE, true, 0, 1, 0, x->data, 50, true);
	qx_feed(x, x->stream, len);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(x->cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 50);
	KUNIT_EXPECT_FALSE(test, wc.wc_flags & IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, memcmp(x->rbuf + RBUF_GUARD, x->data, 10), 0);
	KUNIT_EXPECT_EQ(test, memcmp(x->rbuf + RBUF_GUARD + 100, x->data + 10,
				     40), 0);
	KUNIT_EXPECT_EQ(test, x->rbuf[RBUF_GUARD + 10], GUARD);
	KUNIT_EXPECT_EQ(test, x->rbuf[RBUF_GUARD + 140], GUARD);

	qx_post_rbuf(test, x, 8);
	len = t_send(x->stream, OP_SEND_INV, true, qx_stag(x), 2, 0, x->data,
		     5, true);
	KUNIT_EXPECT_EQ(test, madcm_rnic_mr_check(x->qp, qx_stag(x),
						  x->mr->iova, 1, 0), 0);
	qx_feed(x, x->stream, len);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(x->cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 8);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, wc.ex.invalidate_rkey, qx_stag(x));
	KUNIT_EXPECT_EQ(test, madcm_rnic_mr_check(x->qp, qx_stag(x),
						  x->mr->iova, 1, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_RTS);
	qx_expect_guards(test, x);
}

/*
 * What the consumer's modify_qp(ERROR) does from another CPU between two
 * FPDUs of a Send that one delivery carries: the QP enters ERROR and
 * every receive completes, flushed; the buffer is the consumer's again
 * (here it writes its own pattern there).
 */
struct qx_flush {
	struct qx *x;
	int calls;
};

static struct qx_flush *qx_flush_ctx;

static void qx_flush_after_first_fpdu(struct madcm_rnic_qp *qp)
{
	struct qx_flush *f = qx_flush_ctx;
	struct madcm_rnic_due due = {};
	unsigned long flags;

	if (!f || f->calls++)
		return;
	spin_lock_irqsave(&qp->lock, flags);
	madcm_rnic_qp_error_locked(qp, &due);
	spin_unlock_irqrestore(&qp->lock, flags);
	madcm_rnic_run_due(qp, &due);
	memset(f->x->rbuf + RBUF_GUARD, 0x77, RBUF_LEN);
}

/*
 * A Send in two FPDUs whose receive is flushed between them: the second
 * FPDU places nothing in the buffer the flush gave back (kernel receive
 * SGEs use the DMA MR: the ULP may have reused or freed it), and the
 * receive completes once, flushed.
 */
static void flush_during_a_send_stops_placement(struct kunit *test)
{
	struct qx *x = test->priv;
	struct qx_flush f = { .x = x };
	struct ib_wc wc[2];
	u32 len, i, bad = 0;

	qx_post_rbuf(test, x, 9);
	len = t_send(x->stream, OP_SEND, false, 0, 1, 0, x->data, 100, true);
	len += t_send(x->stream + len, OP_SEND, true, 0, 1, 100,
		      x->data + 100, 100, true);
	qx_flush_ctx = &f;
	x->dev->rx_fpdu_end = qx_flush_after_first_fpdu;
	qx_feed(x, x->stream, len);
	x->dev->rx_fpdu_end = NULL;
	qx_flush_ctx = NULL;
	KUNIT_ASSERT_GE(test, f.calls, 1);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_ERR);
	for (i = 0; i < RBUF_LEN; i++)
		if (x->rbuf[RBUF_GUARD + i] != 0x77 && bad++ < 4)
			KUNIT_FAIL(test, "octet %u of the flushed buffer is %#x",
				   i, x->rbuf[RBUF_GUARD + i]);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(x->cq, 2, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 9);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_WR_FLUSH_ERR);
}

/*
 * A Read Response in two segments fills the sink of the outstanding Read
 * (RFC 5040 4.5: tagged, the Data Sink STag and offsets of the Read
 * Request); its last segment answers the Read.
 */
static void read_response_fills_its_sink(struct kunit *test)
{
	struct qx *x = test->priv;
	u64 sink = x->mr->iova + 1000;
	u32 len;

	qx_outstanding_read(x, qx_stag(x), sink, 300);
	len = t_write(x->stream, OP_RRESP, false, qx_stag(x), sink, x->data,
		      200, true);
	len += t_write(x->stream + len, OP_RRESP, true, qx_stag(x), sink + 200,
		       x->data + 200, 100, true);
	qx_feed(x, x->stream, len);
	KUNIT_EXPECT_FALSE(test, x->qp->rx.dead);
	KUNIT_EXPECT_EQ(test, x->qp->orq_head, x->qp->orq_tail);
	KUNIT_EXPECT_EQ(test, memcmp(qx_mr_octet(x, 1000), x->data, 300), 0);
	KUNIT_EXPECT_EQ(test, *qx_mr_octet(x, 999), GUARD);
	KUNIT_EXPECT_EQ(test, *qx_mr_octet(x, 1300), GUARD);
	qx_expect_guards(test, x);
}

/*
 * RFC 6581: the responder's RTR, a zero-length Send, takes no receive
 * WQE and makes no completion; the next Send has MSN 2.
 */
static void rtr_send_takes_no_receive(struct kunit *test)
{
	struct qx *x = test->priv;
	struct ib_wc wc;
	u32 rtr, len;

	rtr = t_send(x->stream, OP_SEND, true, 0, 1, 0, NULL, 0, true);
	qx_start(test, x, true, rtr);
	qx_feed(x, x->stream, rtr);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(x->cq, 1, &wc), 0);
	KUNIT_EXPECT_FALSE(test, x->qp->rx.dead);

	qx_post_rbuf(test, x, 3);
	len = t_send(x->stream, OP_SEND, true, 0, 2, 0, x->data, 4, true);
	qx_feed(x, x->stream, len);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(x->cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 3);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 4);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
}

/* A Terminate from the peer: the QP goes to ERROR, no Terminate back. */
static void terminate_received_ends_qp(struct kunit *test)
{
	struct qx *x = test->priv;
	u64 rcvd = qx_count(x, MADCM_RNIC_CNT_TERM_RCVD);
	u8 *u = x->stream + 2;
	u32 h, len;

	qx_post_rbuf(test, x, 1);
	h = t_untagged(u, L_BIT | DV1, RV1 | OP_TERM, 0, 2, 1, 0);
	u[h++] = 0x11;
	u[h++] = 0x00;
	u[h++] = 0x00;
	u[h++] = 0x00;
	len = t_fpdu(x->stream, u, h, true);
	qx_feed(x, x->stream, len);
	KUNIT_EXPECT_EQ(test, qx_count(x, MADCM_RNIC_CNT_TERM_RCVD), rcvd + 1);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_ERR);
	KUNIT_EXPECT_TRUE(test, x->qp->rx.dead);
	KUNIT_EXPECT_FALSE(test, x->qp->rx.termed);
}

/*
 * RFC 5040's Terminate for an access the Data Sink does not grant:
 * Layer 0 (RDMAP), Error Type 1 (Remote Protection Error), Error Code
 * 0x02 (Access Rights Violation); IANA "RDMAP Errors" 0x0/0x1/0x02.
 */
static void qx_expect_access_violation(struct kunit *test, struct qx *x,
				       u64 prot_before)
{
	const struct madcm_term_code *t = &x->qp->rx.term;

	KUNIT_EXPECT_TRUE(test, x->qp->rx.dead);
	KUNIT_EXPECT_TRUE(test, x->qp->rx.termed);
	KUNIT_EXPECT_EQ(test, t->layer, 0);
	KUNIT_EXPECT_EQ(test, t->etype, 1);
	KUNIT_EXPECT_EQ(test, t->ecode, 0x02);
	KUNIT_EXPECT_EQ(test, qx_count(x, MADCM_RNIC_CNT_RX_PROT_ERR),
			prot_before + 1);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_ERR);
}

/* Every octet of the MR still holds its guard value. */
static u32 qx_mr_changed(struct qx *x)
{
	u32 i, n = 0;

	for (i = 0; i < MR_LEN; i++)
		n += *qx_mr_octet(x, i) != GUARD;
	return n;
}

/*
 * The QP's own rights (IB_QP_ACCESS_FLAGS) bound what a peer may do
 * through it, whatever the MR grants (IBTA vol. 1 10.2.3: a QP's remote
 * access enables; an RDMA Write to a QP without remote write is refused,
 * as rxe refuses it): an RDMA Write to an MR that grants remote writes,
 * on a QP given remote reads only, places nothing and ends the stream
 * with RFC 5040's access violation. The posted receive is flushed.
 */
static void write_refused_without_the_qps_remote_write(struct kunit *test)
{
	struct qx *x = test->priv;
	u64 before = qx_count(x, MADCM_RNIC_CNT_RX_PROT_ERR);
	struct ib_wc wc;
	u32 len;

	qx_start_rights(test, x, false, 0, IB_ACCESS_REMOTE_READ);
	qx_post_rbuf(test, x, 1);
	len = t_write(x->stream, OP_WRITE, true, qx_stag(x), x->mr->iova + 8,
		      x->data, 40, true);
	qx_feed(x, x->stream, len);
	qx_expect_access_violation(test, x, before);
	KUNIT_EXPECT_EQ(test, qx_mr_changed(x), 0);
	qx_expect_guards(test, x);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(x->cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
}

/*
 * Likewise an RDMA Read Request on a QP given remote writes only: no
 * Read Response is queued, the same Terminate. A zero-length Write or
 * Read Request (RFC 6581's RTR forms) touches no memory and passes.
 */
static void read_refused_without_the_qps_remote_read(struct kunit *test)
{
	struct qx *x = test->priv;
	u64 before = qx_count(x, MADCM_RNIC_CNT_RX_PROT_ERR);
	u32 len;

	qx_start_rights(test, x, false, 0, IB_ACCESS_REMOTE_WRITE);
	/* the hand-off grants an IRD; here, one */
	x->qp->tx_ird = 1;
	len = t_read_req(x->stream, 1, 0x1000, 0, 0, qx_stag(x), x->mr->iova,
			 true);
	qx_feed(x, x->stream, len);
	KUNIT_EXPECT_FALSE(test, x->qp->rx.dead);
	KUNIT_EXPECT_EQ(test, x->qp->irq_tail - x->qp->irq_head, 1);
	x->qp->irq_head = x->qp->irq_tail;

	len = t_read_req(x->stream, 2, 0x1000, 0, 16, qx_stag(x), x->mr->iova,
			 true);
	qx_feed(x, x->stream, len);
	qx_expect_access_violation(test, x, before);
	KUNIT_EXPECT_EQ(test, x->qp->irq_head, x->qp->irq_tail);
	qx_expect_guards(test, x);
}

/* The zero-length Write passes a QP without remote write. */
static void zero_length_write_passes_without_rights(struct kunit *test)
{
	struct qx *x = test->priv;
	u32 len;

	qx_start_rights(test, x, false, 0, 0);
	len = t_write(x->stream, OP_WRITE, true, 0, 0, NULL, 0, true);
	qx_feed(x, x->stream, len);
	KUNIT_EXPECT_FALSE(test, x->qp->rx.dead);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_RTS);
}

/*
 * A real RDMA READ work request of @len octets into the MR at @off, as
 * the send side leaves it once its one Read Request is out: started,
 * its Data Sink outstanding in the ORQ (the QP has no stream here).
 */
static void qx_post_read(struct kunit *test, struct qx *x, u64 wr_id,
			 u32 off, u32 len)
{
	struct ib_sge sge = {
		.addr = x->mr->iova + off,
		.length = len,
		.lkey = x->mr->lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = wr_id,
			.opcode = IB_WR_RDMA_READ,
			.send_flags = IB_SEND_SIGNALED,
			.sg_list = &sge,
			.num_sge = 1,
		},
		.remote_addr = 0x2000,
		.rkey = 0x123456,
	};
	struct madcm_rnic_qp *qp = x->qp;
	struct madcm_rnic_swqe *wqe;
	struct madcm_rnic_oreq *o;
	unsigned long flags;

	KUNIT_ASSERT_EQ(test, ib_post_send(x->ibqp, &wr.wr, NULL), 0);
	spin_lock_irqsave(&qp->lock, flags);
	wqe = &qp->swqe[qp->sq_next % qp->sq.size];
	KUNIT_EXPECT_EQ(test, wqe->wr_id, wr_id);
	KUNIT_EXPECT_EQ(test, qp->sq_next + 1, qp->sq.tail);
	wqe->len = len;
	wqe->reads_left = 1;
	o = &qp->orq[qp->orq_tail % MADCM_RNIC_ORQ_SIZE];
	o->wqe = qp->sq_next;
	o->sink_stag = sge.lkey;
	o->sink_to = sge.addr;
	o->len = len;
	qp->orq_tail++;
	qp->sq_next++;
	qp->tx_off = 0;
	qp->tx_started = false;
	spin_unlock_irqrestore(&qp->lock, flags);
}

/*
 * RFC 5040 5.3: a Read Response carries the RDMA Read Message Size's
 * octets to the Data Sink; its last segment ends the Read. A Read whose
 * response arrived whole completes successfully with the source's
 * octets; one whose last segment came with fewer octets than asked for
 * must not: the work request completes with an error status of its own
 * (not a flush: it is the one that failed, IBTA vol. 1 10.8.3), the
 * stream ends with a Terminate and the QP enters Error.
 */
static void short_read_response_fails_the_read(struct kunit *test)
{
	struct qx *x = test->priv;
	u64 sink = x->mr->iova + 1000;
	struct ib_wc wc;
	u32 len;

	/* whole: 200 + 100 octets of 300 */
	qx_post_read(test, x, 21, 1000, 300);
	len = t_write(x->stream, OP_RRESP, false, qx_stag(x), sink, x->data,
		      200, true);
	len += t_write(x->stream + len, OP_RRESP, true, qx_stag(x), sink + 200,
		       x->data + 200, 100, true);
	qx_feed(x, x->stream, len);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(x->cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 21);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, memcmp(qx_mr_octet(x, 1000), x->data, 300), 0);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_RTS);

	/* short: one last segment of 200 octets of 300 */
	qx_post_read(test, x, 22, 1000, 300);
	len = t_write(x->stream, OP_RRESP, true, qx_stag(x), sink, x->data,
		      200, true);
	qx_feed(x, x->stream, len);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(x->cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 22);
	KUNIT_EXPECT_NE(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_NE(test, wc.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_TRUE(test, x->qp->rx.termed);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(x->cq, 1, &wc), 0);
	qx_expect_guards(test, x);
}

/*
 * The segments of a Read Response follow one another (RFC 5040 5.3,
 * RFC 5041 5.2: in order, on one stream): a second segment that does
 * not start where the first ended leaves a hole; the Read fails so.
 */
static void read_response_with_a_hole_fails_the_read(struct kunit *test)
{
	struct qx *x = test->priv;
	u64 sink = x->mr->iova + 1000;
	struct ib_wc wc;
	u32 len;

	qx_post_read(test, x, 23, 1000, 300);
	len = t_write(x->stream, OP_RRESP, false, qx_stag(x), sink, x->data,
		      100, true);
	len += t_write(x->stream + len, OP_RRESP, true, qx_stag(x), sink + 150,
		       x->data + 150, 150, true);
	qx_feed(x, x->stream, len);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(x->cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 23);
	KUNIT_EXPECT_NE(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, x->qp->rx.termed);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_ERR);
	qx_expect_guards(test, x);
}

/*
 * The ORQ across the wrap of its 32-bit counts: five RDMA Reads
 * outstanding from a count just below 2^32, each into a sink of its own;
 * their responses, in order (RFC 5040 5.3), land each in its Read's sink
 * and complete each Read once, in order.
 */
static void orq_survives_the_u32_wrap(struct kunit *test)
{
	struct qx *x = test->priv;
	struct madcm_rnic_qp *qp = x->qp;
	unsigned long flags;
	struct ib_wc wc;
	u32 i, len = 0;

	spin_lock_irqsave(&qp->lock, flags);
	qp->orq_head = U32_MAX - 1;
	qp->orq_tail = qp->orq_head;
	spin_unlock_irqrestore(&qp->lock, flags);
	for (i = 0; i < 5; i++)
		qx_post_read(test, x, 30 + i, 100 * i, 50);
	for (i = 0; i < 5; i++)
		len += t_write(x->stream + len, OP_RRESP, true, qx_stag(x),
			       x->mr->iova + 100 * i, x->data + 7 * i, 50,
			       true);
	qx_feed(x, x->stream, len);
	for (i = 0; i < 5; i++) {
		KUNIT_ASSERT_EQ_MSG(test, ib_poll_cq(x->cq, 1, &wc), 1,
				    "Read %u", i);
		KUNIT_EXPECT_EQ(test, wc.wr_id, 30 + i);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(qx_mr_octet(x, 100 * i),
						 x->data + 7 * i, 50), 0,
				    "Read %u", i);
	}
	KUNIT_EXPECT_FALSE(test, qp->rx.dead);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_RTS);
	qx_expect_guards(test, x);
}

/*
 * The hostile grid: one bad segment each, its Terminate code (RFC 5040
 * 4.8, RFC 5041 7.2, RFC 5044 8), its counter, the QP in ERROR, nothing
 * written outside a registered range.
 */
enum hostile_kind {
	H_BAD_CRC,
	H_BAD_KEY,
	H_UNKNOWN_STAG,
	H_TO_BEYOND,
	H_TO_BELOW,
	H_LEN_BEYOND,
	H_OTHER_PD,
	H_NO_REMOTE_WRITE,
	H_TO_WRAP,
	H_DDP_VERSION,
	H_RDMAP_VERSION,
	H_OPCODE,
	H_NO_RWQE,
	H_SEND_TOO_LONG,
	H_MSN_AHEAD,
	H_SEND_BAD_QN,
	H_SEND_FIRST_MO,
	H_SEND_MO_GAP,
	H_INVALIDATE_DMA,
	H_RREQ_BEYOND_IRD,
	H_RREQ_BAD_STAG,
	H_RREQ_BEYOND_MR,
	H_RREQ_NO_RIGHT,
	H_RRESP_UNASKED,
	H_RRESP_OTHER_STAG,
	H_RRESP_PAST_SINK,
	H_EMPTY_ULPDU,
	H_OVERSIZE,
};

struct hostile_case {
	const char *desc;
	enum hostile_kind kind;
	enum madcm_rnic_counter cnt;
	u8 layer, etype, ecode;
};

static const struct hostile_case hostile_cases[] = {
	{ "CRC error", H_BAD_CRC, MADCM_RNIC_CNT_RX_CRC_ERR, 2, 0, 0x02 },
	{ "Write, STag with another key", H_BAD_KEY, MADCM_RNIC_CNT_RX_PROT_ERR,
	  1, 1, 0x00 },
	{ "Write, unknown STag", H_UNKNOWN_STAG, MADCM_RNIC_CNT_RX_PROT_ERR, 1,
	  1, 0x00 },
	{ "Write past the MR's end", H_TO_BEYOND, MADCM_RNIC_CNT_RX_PROT_ERR,
	  1, 1, 0x01 },
	{ "Write below the MR's start", H_TO_BELOW,
	  MADCM_RNIC_CNT_RX_PROT_ERR, 1, 1, 0x01 },
	{ "Write longer than the MR", H_LEN_BEYOND, MADCM_RNIC_CNT_RX_PROT_ERR,
	  1, 1, 0x01 },
	{ "Write to another PD's MR", H_OTHER_PD, MADCM_RNIC_CNT_RX_PROT_ERR,
	  1, 1, 0x02 },
	{ "Write to a local-only MR", H_NO_REMOTE_WRITE,
	  MADCM_RNIC_CNT_RX_PROT_ERR, 0, 1, 0x02 },
	{ "Write, tagged offset wraps", H_TO_WRAP, MADCM_RNIC_CNT_RX_HDR_ERR,
	  1, 1, 0x03 },
	{ "DDP version 0", H_DDP_VERSION, MADCM_RNIC_CNT_RX_HDR_ERR, 1, 2,
	  0x06 },
	{ "RDMAP version 2", H_RDMAP_VERSION, MADCM_RNIC_CNT_RX_HDR_ERR, 0, 2,
	  0x05 },
	{ "opcode 12", H_OPCODE, MADCM_RNIC_CNT_RX_HDR_ERR, 0, 2, 0x06 },
	{ "Send, no receive WQE", H_NO_RWQE, MADCM_RNIC_CNT_RX_RQ_ERR, 1, 2,
	  0x02 },
	{ "Send longer than the receive WQE", H_SEND_TOO_LONG,
	  MADCM_RNIC_CNT_RX_RQ_ERR, 1, 2, 0x05 },
	{ "Send, MSN ahead", H_MSN_AHEAD, MADCM_RNIC_CNT_RX_HDR_ERR, 1, 2,
	  0x03 },
	{ "Send on queue 5", H_SEND_BAD_QN, MADCM_RNIC_CNT_RX_HDR_ERR, 1, 2,
	  0x01 },
	{ "Send, first segment at MO 8", H_SEND_FIRST_MO,
	  MADCM_RNIC_CNT_RX_HDR_ERR, 1, 2, 0x04 },
	{ "Send, a gap in MO", H_SEND_MO_GAP, MADCM_RNIC_CNT_RX_HDR_ERR, 1, 2,
	  0x04 },
	{ "Send with Invalidate of a DMA MR", H_INVALIDATE_DMA,
	  MADCM_RNIC_CNT_RX_PROT_ERR, 0, 1, 0x09 },
	{ "Read Request beyond IRD", H_RREQ_BEYOND_IRD,
	  MADCM_RNIC_CNT_RX_IRD_ERR, 0, 2, 0x07 },
	{ "Read Request, bad source STag", H_RREQ_BAD_STAG,
	  MADCM_RNIC_CNT_RX_PROT_ERR, 0, 1, 0x00 },
	{ "Read Request past the source MR", H_RREQ_BEYOND_MR,
	  MADCM_RNIC_CNT_RX_PROT_ERR, 0, 1, 0x01 },
	{ "Read Request, source without remote read", H_RREQ_NO_RIGHT,
	  MADCM_RNIC_CNT_RX_PROT_ERR, 0, 1, 0x02 },
	{ "Read Response nobody asked for", H_RRESP_UNASKED,
	  MADCM_RNIC_CNT_RX_HDR_ERR, 0, 2, 0x06 },
	{ "Read Response to another STag than the Read's",
	  H_RRESP_OTHER_STAG, MADCM_RNIC_CNT_RX_PROT_ERR, 1, 1, 0x00 },
	{ "Read Response past the Read's sink", H_RRESP_PAST_SINK,
	  MADCM_RNIC_CNT_RX_PROT_ERR, 1, 1, 0x01 },
	{ "empty ULPDU", H_EMPTY_ULPDU, MADCM_RNIC_CNT_RX_HDR_ERR, 0, 2, 0xff },
	{ "ULPDU of 65535 octets into a small MR", H_OVERSIZE,
	  MADCM_RNIC_CNT_RX_PROT_ERR, 1, 1, 0x01 },
};

static void hostile_desc(const struct hostile_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hostile, hostile_cases, hostile_desc);

static u32 hostile_stream(struct kunit *test, struct qx *x,
			  enum hostile_kind kind)
{
	u64 iova = x->mr->iova;
	u32 stag = qx_stag(x), len = 0;
	u8 *s = x->stream, *d = x->data;
	u8 *u = s + 2;

	switch (kind) {
	case H_BAD_CRC:
		len = t_write(s, OP_WRITE, true, stag, iova, d, 20, true);
		s[len - 2] ^= 1;
		return len;
	case H_BAD_KEY:
		return t_write(s, OP_WRITE, true, stag ^ 0x01, iova, d, 20,
			       true);
	case H_UNKNOWN_STAG:
		return t_write(s, OP_WRITE, true, 0x00fffe00, iova, d, 20,
			       true);
	case H_TO_BEYOND:
		return t_write(s, OP_WRITE, true, stag, iova + MR_LEN - 10, d,
			       20, true);
	case H_TO_BELOW:
		return t_write(s, OP_WRITE, true, stag, iova - 8, d, 20, true);
	case H_LEN_BEYOND:
		return t_write(s, OP_WRITE, true, stag, iova, d, MR_LEN + 1,
			       true);
	case H_OTHER_PD:
		return t_write(s, OP_WRITE, true, x->mr2->rkey, x->mr2->iova, d,
			       20, true);
	case H_NO_REMOTE_WRITE:
		return t_write(s, OP_WRITE, true, x->pd->local_dma_lkey,
			       (u64)(uintptr_t)(x->rbuf + RBUF_GUARD), d, 20,
			       true);
	case H_TO_WRAP:
		return t_write(s, OP_WRITE, true, stag, U64_MAX - 3, d, 20,
			       true);
	case H_DDP_VERSION:
		len = t_untagged(u, L_BIT, RV1 | OP_SEND, 0, 0, 1, 0);
		return t_fpdu(s, u, len, true);
	case H_RDMAP_VERSION:
		len = t_untagged(u, L_BIT | DV1, 0x80 | OP_SEND, 0, 0, 1, 0);
		return t_fpdu(s, u, len, true);
	case H_OPCODE:
		len = t_untagged(u, L_BIT | DV1, RV1 | 12, 0, 0, 1, 0);
		return t_fpdu(s, u, len, true);
	case H_NO_RWQE:
		return t_send(s, OP_SEND, true, 0, 1, 0, d, 8, true);
	case H_SEND_TOO_LONG:
		qx_post_rbuf(test, x, 1);
		return t_send(s, OP_SEND, true, 0, 1, 0, d, RBUF_LEN + 1, true);
	case H_MSN_AHEAD:
		qx_post_rbuf(test, x, 1);
		return t_send(s, OP_SEND, true, 0, 2, 0, d, 8, true);
	case H_SEND_BAD_QN:
		qx_post_rbuf(test, x, 1);
		len = t_untagged(u, L_BIT | DV1, RV1 | OP_SEND, 0, 5, 1, 0);
		return t_fpdu(s, u, len, true);
	case H_SEND_FIRST_MO:
		qx_post_rbuf(test, x, 1);
		return t_send(s, OP_SEND, true, 0, 1, 8, d, 8, true);
	case H_SEND_MO_GAP:
		qx_post_rbuf(test, x, 1);
		len = t_send(s, OP_SEND, false, 0, 1, 0, d, 8, true);
		return len + t_send(s + len, OP_SEND, true, 0, 1, 9, d, 8,
				    true);
	case H_INVALIDATE_DMA:
		qx_post_rbuf(test, x, 1);
		return t_send(s, OP_SEND_INV, true, x->pd->local_dma_lkey, 1, 0,
			      d, 8, true);
	case H_RREQ_BEYOND_IRD:
		/* An IRD of 0: no inbound Read may be outstanding. */
		x->qp->tx_ird = 0;
		return t_read_req(s, 1, 0x1000, 0, 16, stag, iova, true);
	case H_RREQ_BAD_STAG:
		return t_read_req(s, 1, 0x1000, 0, 16, stag ^ 0x02, iova, true);
	case H_RREQ_BEYOND_MR:
		return t_read_req(s, 1, 0x1000, 0, 16, stag, iova + MR_LEN - 8,
				  true);
	case H_RREQ_NO_RIGHT:
		return t_read_req(s, 1, 0x1000, 0, 16, x->pd->local_dma_lkey,
				  (u64)(uintptr_t)(x->rbuf + RBUF_GUARD),
				  true);
	case H_RRESP_UNASKED:
		return t_write(s, OP_RRESP, true, stag, iova, d, 20, true);
	case H_RRESP_OTHER_STAG:
		/* A valid MR with local write, but not the Read's sink. */
		qx_outstanding_read(x, stag, iova, 64);
		return t_write(s, OP_RRESP, true, x->pd->local_dma_lkey,
			       (u64)(uintptr_t)(x->rbuf + RBUF_GUARD), d, 20,
			       true);
	case H_RRESP_PAST_SINK:
		qx_outstanding_read(x, stag, iova + 64, 64);
		return t_write(s, OP_RRESP, true, stag, iova + 64 + 60, d, 8,
			       true);
	case H_EMPTY_ULPDU:
		return t_fpdu(s, u, 0, true);
	case H_OVERSIZE:
		return t_write(s, OP_WRITE, true, stag, iova, d, 65535 - 14,
			       true);
	}
	return 0;
}

static void hostile_segment_terminates(struct kunit *test)
{
	const struct hostile_case *c = test->param_value;
	struct qx *x = test->priv;
	u64 before = qx_count(x, c->cnt);
	const struct madcm_term_code *t = &x->qp->rx.term;
	struct ib_wc wc;
	u32 len, k;
	int n;

	len = hostile_stream(test, x, c->kind);
	KUNIT_ASSERT_GT(test, len, 0);
	/* In uneven pieces, to cross every part of the FPDU. */
	for (k = 0; k < len; k += 7)
		qx_feed(x, x->stream + k, min(7U, len - k));
	/* Whatever follows is dropped. */
	qx_feed(x, x->stream, len);

	KUNIT_EXPECT_TRUE(test, x->qp->rx.dead);
	KUNIT_EXPECT_TRUE(test, x->qp->rx.termed);
	KUNIT_EXPECT_EQ(test, qx_count(x, c->cnt), before + 1);
	KUNIT_EXPECT_EQ(test, t->layer, c->layer);
	KUNIT_EXPECT_EQ(test, t->etype, c->etype);
	KUNIT_EXPECT_EQ(test, t->ecode, c->ecode);
	KUNIT_EXPECT_EQ(test, qx_state(x), IB_QPS_ERR);
	qx_expect_guards(test, x);
	/* A posted receive completes once, with an error. */
	while ((n = ib_poll_cq(x->cq, 1, &wc)) > 0)
		KUNIT_EXPECT_NE(test, wc.status, IB_WC_SUCCESS);
	if (c->kind == H_SEND_TOO_LONG)
		KUNIT_EXPECT_PTR_EQ(test, memchr_inv(x->rbuf + RBUF_GUARD,
						     GUARD, RBUF_LEN), NULL);
}

/* Counters of every receive error, for "some error was counted". */
static u64 qx_rx_errors(struct qx *x)
{
	return qx_count(x, MADCM_RNIC_CNT_RX_CRC_ERR) +
	       qx_count(x, MADCM_RNIC_CNT_RX_HDR_ERR) +
	       qx_count(x, MADCM_RNIC_CNT_RX_PROT_ERR) +
	       qx_count(x, MADCM_RNIC_CNT_RX_RQ_ERR) +
	       qx_count(x, MADCM_RNIC_CNT_RX_IRD_ERR) +
	       qx_count(x, MADCM_RNIC_CNT_TERM_RCVD);
}

/*
 * Random octets in random pieces, and valid FPDUs with one random octet
 * changed (then a long tail of zeros, so that any FPDU it starts ends):
 * the stream ends with a counted error or waits for more; never a write
 * outside a registered range.
 */
static void random_input_terminates_cleanly(struct kunit *test)
{
	struct qx *x = test->priv;
	struct rnd_state rnd;
	u32 iter, len, k, n, at;
	u64 before;

	prandom_seed_state(&rnd, 0x6d6164636dULL);
	for (iter = 0; iter < 300; iter++) {
		qx_start(test, x, false, 0);
		qx_post_rbuf(test, x, iter);
		before = qx_rx_errors(x);
		if (iter % 2) {
			len = 1 + prandom_u32_state(&rnd) % 3000;
			prandom_bytes_state(&rnd, x->stream, len);
			/* Often a plausible start: version bits right. */
			if (iter % 4 == 1 && len > 4) {
				x->stream[2] = (x->stream[2] & 0xc0) | DV1;
				x->stream[3] = (x->stream[3] & 0x0f) | RV1;
			}
		} else {
			len = t_write(x->stream, OP_WRITE, true, qx_stag(x),
				      x->mr->iova + 100, x->data, 200, true);
			len += t_send(x->stream + len, OP_SEND, true, 0, 1, 0,
				      x->data, 64, true);
			at = prandom_u32_state(&rnd) % len;
			x->stream[at] ^= 1 + prandom_u32_state(&rnd) % 255;
			memset(x->stream + len, 0, FPDU_MAX);
			len += FPDU_MAX;
		}
		for (k = 0; k < len; k += n) {
			n = 1 + prandom_u32_state(&rnd) % 600;
			n = min(n, len - k);
			qx_feed(x, x->stream + k, n);
		}
		if (!(iter % 2)) {
			KUNIT_EXPECT_TRUE_MSG(test, x->qp->rx.dead,
					      "iteration %u", iter);
		}
		if (x->qp->rx.dead)
			KUNIT_EXPECT_GT_MSG(test, qx_rx_errors(x), before,
					    "iteration %u", iter);
		qx_expect_guards(test, x);
		while (ib_poll_cq(x->cq, 1, &(struct ib_wc){}) > 0)
			;
		if (test->status == KUNIT_FAILURE)
			return;
	}
}

static struct kunit_case rnic_ddp_qp_cases[] = {
	KUNIT_CASE(write_lands_across_frmr_pages),
	KUNIT_CASE(stream_split_at_every_octet),
	KUNIT_CASE(send_scatters_and_invalidates),
	KUNIT_CASE(flush_during_a_send_stops_placement),
	KUNIT_CASE(read_response_fills_its_sink),
	KUNIT_CASE(rtr_send_takes_no_receive),
	KUNIT_CASE(terminate_received_ends_qp),
	KUNIT_CASE(write_refused_without_the_qps_remote_write),
	KUNIT_CASE(read_refused_without_the_qps_remote_read),
	KUNIT_CASE(zero_length_write_passes_without_rights),
	KUNIT_CASE(short_read_response_fails_the_read),
	KUNIT_CASE(read_response_with_a_hole_fails_the_read),
	KUNIT_CASE(orq_survives_the_u32_wrap),
	KUNIT_CASE_PARAM(hostile_segment_terminates, hostile_gen_params),
	KUNIT_CASE(random_input_terminates_cleanly),
	{}
};

static struct kunit_suite rnic_ddp_qp_suite = {
	.name = "madcm_rnic_ddp_qp",
	.init = qx_init,
	.exit = qx_exit,
	.test_cases = rnic_ddp_qp_cases,
};

kunit_test_suites(&rnic_ddp_suite, &rnic_ddp_qp_suite);
