// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the RNIC's receive side (rnic/ddp.c, compiled
 * unchanged): the streaming MPA FPDU parser madcm_mpa_rx_step() with its
 * CRC32c, madcm_ddp_parse() on every FPDU's headers as the QP calls it,
 * and madcm_ddp_term_build() on the headers it refuses, as a Terminate
 * message would carry them.
 *
 * Input: octet 0 bit 0: CRCs are on; octet 1 seeds the chunk sizes; the
 * rest is the TCP stream. The stream is fed once whole and once in chunks
 * of 1 to 64 octets; both feeds must report the same FPDUs: the same
 * headers and verdicts, the same payload at the same offsets, the same
 * CRC results.
 */
#include <linux/types.h>
#include "rnic/ddp.h"

struct fuzz_transcript {
	u32 crc;	/* of everything reported, in order */
	u32 fpdus;
	u32 pay_expect;	/* the next payload offset */
};

static void fuzz_check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_ddp_rx: %s\n", what);
		abort();
	}
}

static void fuzz_note(struct fuzz_transcript *t, const void *p, u32 len)
{
	t->crc = madcm_mpa_crc(t->crc, p, len);
}

static void fuzz_hdr(struct fuzz_transcript *t, const struct madcm_mpa_rx *p)
{
	struct madcm_ddp_term_msg msg;
	struct madcm_term_code err;
	struct madcm_ddp_seg seg;
	u32 ulen;
	int ret;

	fuzz_check(p->got >= MADCM_MPA_HDR_SIZE && p->got <= sizeof(p->h),
		   "header length out of range");
	fuzz_note(t, &p->got, sizeof(p->got));
	fuzz_note(t, &p->h, p->got);
	ret = madcm_ddp_parse(&p->h, p->got, &seg, &err);
	fuzz_note(t, &ret, sizeof(ret));
	if (ret) {
		fuzz_note(t, &err, sizeof(err));
		ulen = madcm_ddp_term_build(&msg, 1, err.layer, err.etype,
					    err.ecode, &p->h, p->got);
		fuzz_check(ulen <= sizeof(msg), "Terminate beyond its buffer");
		fuzz_note(t, &msg, ulen);
	} else {
		fuzz_check(seg.hdr_len + seg.pay_len == be16_to_cpu(p->h.seg_len),
			   "header and payload do not add up to ULPDU_Length");
		fuzz_check(MADCM_MPA_HDR_SIZE + seg.hdr_len <= p->got,
			   "header longer than what was taken");
		fuzz_note(t, &seg, sizeof(seg));
	}
	t->pay_expect = 0;
}

static void fuzz_feed(struct fuzz_transcript *t, bool crc, const u8 *d,
		      u32 len, u8 seed)
{
	struct madcm_mpa_rx_out out;
	struct madcm_mpa_rx p;
	u32 chunk, n, steps = 0;

	memset(t, 0, sizeof(*t));
	madcm_mpa_rx_init(&p, crc);
	while (len) {
		if (seed) {
			seed = seed * 73 + 41;
			chunk = min_t(u32, len, 1 + seed % 64);
		} else {
			chunk = len;
		}
		while (chunk) {
			fuzz_check(++steps < 64 + 4 * 65536, "no progress");
			n = madcm_mpa_rx_step(&p, d, chunk, &out);
			fuzz_check(n <= chunk, "took more than it was given");
			d += n;
			len -= n;
			chunk -= n;
			switch (out.ev) {
			case MADCM_MPA_RX_HDR:
				fuzz_hdr(t, &p);
				break;
			case MADCM_MPA_RX_DATA:
				fuzz_check(out.off == t->pay_expect &&
					   out.data == d - out.len &&
					   out.len <= n,
					   "payload piece out of place");
				t->pay_expect += out.len;
				fuzz_note(t, out.data, out.len);
				break;
			case MADCM_MPA_RX_END:
				fuzz_note(t, &p.crc_ok, sizeof(p.crc_ok));
				t->fpdus++;
				break;
			default:
				fuzz_check(n == chunk + n,
					   "MORE but octets left over");
				break;
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_transcript whole, chunked;
	bool crc;
	u8 seed;

	if (size < 2)
		return 0;
	crc = data[0] & 1;
	seed = data[1] | 1;
	fuzz_feed(&whole, crc, data + 2, size - 2, 0);
	fuzz_feed(&chunked, crc, data + 2, size - 2, seed);
	fuzz_check(whole.crc == chunked.crc && whole.fpdus == chunked.fpdus,
		   "the chunked feed reports differently");
	return 0;
}
