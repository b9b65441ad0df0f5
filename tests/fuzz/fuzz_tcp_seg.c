// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: irdma_cm_parse_seg() and irdma_process_options()
 * (irdma_cm/tcp_seg.c, compiled unchanged).
 *
 * Input: one control octet, then the bytes.
 *   bit 0: the checksums count as right (fuzz_csum_ignore), so that the
 *          fuzzer reaches what lies behind them;
 *   bit 1: the bytes are a bare TCP option list, given to
 *          irdma_process_options() with SYN from bit 2;
 *   else:  the bytes are an Ethernet frame for irdma_cm_parse_seg().
 *
 * A frame the parser accepts is built again with irdma_cm_build_seg() and
 * parsed once more with real checksums: the second parse must accept it
 * and read back the same segment.
 */
#include <linux/types.h>
#include "irdma_cm/tcp_seg.h"
#include "fuzz_net.h"

#define CTL_CSUM_IGNORE	0x01
#define CTL_OPTIONS	0x02
#define CTL_SYN		0x04

static u8 sink;

static void fuzz_check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_tcp_seg: %s\n", what);
		abort();
	}
}

static void fuzz_same_seg(const struct irdma_cm_seg *a,
			  const struct irdma_cm_seg *b)
{
	struct irdma_tcp_opts ao = a->opts;

	fuzz_check(!memcmp(a->dst_mac, b->dst_mac, ETH_ALEN) &&
		   !memcmp(a->src_mac, b->src_mac, ETH_ALEN) &&
		   a->ipv4 == b->ipv4 && a->vlan == b->vlan &&
		   a->vlan_tci == b->vlan_tci && a->tos == b->tos &&
		   a->ttl == b->ttl && a->flow_label == b->flow_label,
		   "rebuilt frame: link or IP fields differ");
	fuzz_check(!memcmp(&a->src, &b->src, sizeof(a->src)) &&
		   !memcmp(&a->dst, &b->dst, sizeof(a->dst)),
		   "rebuilt frame: addresses differ");
	fuzz_check(a->seq == b->seq && a->flags == b->flags &&
		   a->window == b->window &&
		   (!(a->flags & IRDMA_TCP_ACK) || a->ack == b->ack),
		   "rebuilt frame: TCP header differs");
	/*
	 * A SACK option is read for its form only and never built (the CM
	 * sends no SACK blocks): has_sack does not survive the rebuild.
	 */
	ao.has_sack = false;
	fuzz_check(!memcmp(&ao, &b->opts, sizeof(ao)),
		   "rebuilt frame: options differ");
	fuzz_check(a->payload_len == b->payload_len &&
		   !memcmp(a->payload, b->payload, a->payload_len),
		   "rebuilt frame: payload differs");
}

static void fuzz_rebuild(const struct irdma_cm_seg *seg)
{
	u32 size = irdma_cm_seg_hdr_len(seg) + seg->payload_len;
	struct irdma_cm_seg again;
	u8 *buf = malloc(size);
	int len;

	fuzz_check(buf, "out of memory");
	fuzz_csum_ignore = false;
	len = irdma_cm_build_seg(seg, buf, size);
	fuzz_check(len == (int)size, "a parsed segment does not build");
	fuzz_check(irdma_cm_parse_seg(buf, len, &again) == IRDMA_SEG_OK,
		   "a rebuilt frame is refused");
	fuzz_same_seg(seg, &again);
	free(buf);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct irdma_tcp_opts opts;
	struct irdma_cm_seg seg;
	u8 ctl;
	u32 i;

	if (size < 1)
		return 0;
	ctl = data[0];
	data++;
	size--;

	if (ctl & CTL_OPTIONS) {
		if (!irdma_process_options(data, size, ctl & CTL_SYN, &opts))
			fuzz_check(opts.wscale <= IRDMA_TCP_MAX_WSCALE &&
				   (!opts.has_mss || opts.mss),
				   "options out of range");
		return 0;
	}

	fuzz_csum_ignore = ctl & CTL_CSUM_IGNORE;
	if (irdma_cm_parse_seg(data, size, &seg) != IRDMA_SEG_OK)
		return 0;
	/* The payload lies inside the frame (ASan checks each octet). */
	fuzz_check(seg.payload >= data &&
		   seg.payload + seg.payload_len <= data + size,
		   "payload outside the frame");
	for (i = 0; i < seg.payload_len; i++)
		sink ^= seg.payload[i];
	fuzz_rebuild(&seg);
	return 0;
}
