// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: irdma_parse_mpa() with the RFC 6581 IRD/ORD and RTR
 * negotiation, as responder (a request) and as initiator (a reply);
 * irdma_cm/mpa.c and irdma_cm/mpa_stats.c compiled unchanged.
 *
 * Input: 9 octets that set up the connection, then the received frame.
 *   octet 0: bit 0 responder, bit 1 we offer revision 2 (else 1),
 *            bit 2 peer-to-peer, bit 3 CRC, bit 4 markers,
 *            bit 5 IRD/ORD not exchanged (IETF_NO_IRD_ORD),
 *            bits 6-7 with octet 1 bit 0: the RTR types we can do
 *   octets 1-2: the device's max IRD (big endian, octet 1 bit 0 excluded)
 *   octets 3-4: the device's max ORD
 *   octets 5-6, 7-8: the consumer's IRD and ORD (irdma_record_ird_ord())
 *
 * Checked: on error the connection is unchanged (the function promises
 * it); on success the private data lies in the frame, the IRD and ORD
 * stay within what the device can do, and the RTR type is one we can do.
 */
#include <linux/types.h>
#include "irdma_cm/cm_node.h"
#include "irdma_cm/mpa.h"

#define CFG_LEN	9

static u8 sink;

static void fuzz_check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_mpa: %s\n", what);
		abort();
	}
}

static void fuzz_setup(struct irdma_cm_node *node, const u8 *cfg)
{
	u8 ctl = cfg[0];

	memset(node, 0, sizeof(*node));
	node->role = ctl & 0x01 ? IRDMA_CM_ROLE_RESPONDER :
				  IRDMA_CM_ROLE_INITIATOR;
	node->mpa_frame_rev = ctl & 0x02 ? IETF_MPA_V2 : IETF_MPA_V1;
	irdma_cm_set_mpa_opts(node, ctl & 0x04, ctl & 0x08);
	if (ctl & 0x10)
		node->mpa_opts |= IRDMA_MPA_OPT_MARKERS;
	if (ctl & 0x20)
		node->mpav2_ird_ord = IETF_NO_IRD_ORD;
	node->rtr_caps = ((ctl >> 6) | (cfg[1] & 0x01) << 2) & IRDMA_RTR_ALL;
	node->max_ird = get_unaligned_be16(cfg + 1) >> 1;
	node->max_ord = get_unaligned_be16(cfg + 3);
	irdma_record_ird_ord(node, get_unaligned_be16(cfg + 5),
			     get_unaligned_be16(cfg + 7));
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct irdma_cm_node node, before;
	u16 ird_cap, ord_cap, ird, ord;
	u32 type = 0xdead, i;
	const u8 *frame;
	int ret;

	if (size < CFG_LEN)
		return 0;
	fuzz_setup(&node, data);
	frame = data + CFG_LEN;
	size -= CFG_LEN;
	ird_cap = min_t(u16, node.max_ird, IETF_MAX_IRD_ORD);
	ord_cap = min_t(u16, node.max_ord, IETF_MAX_IRD_ORD);
	fuzz_check(node.ird_size <= ird_cap && node.ord_size <= ord_cap,
		   "irdma_record_ird_ord() above the device's limits");

	if (size >= sizeof(struct ietf_mpa_v1))
		irdma_mpa_rtr_words((const struct ietf_mpa_v1 *)frame, size,
				    &ird, &ord);

	/*
	 * The same octets as a responder's first FPDU (RFC 6581 4): an RTR
	 * message is never longer than an MPA frame, and what it accepts
	 * must be one of the three forms.
	 */
	if (irdma_rtr_fpdu_ok(frame, size, data[0] & 1))
		fuzz_check(size >= 20 && size <= 52 &&
			   (frame[3] & 0x0f) <= RDMAP_SEND,
			   "irdma_rtr_fpdu_ok() took no RTR message");

	before = node;
	ret = irdma_parse_mpa(&node, frame, &type, size);
	if (ret) {
		fuzz_check(ret < 0 && type == 0xdead,
			   "a refused frame set the type");
		fuzz_check(!memcmp(&node, &before, sizeof(node)),
			   "a refused frame changed the connection");
		return 0;
	}

	fuzz_check(type == IRDMA_MPA_REQUEST_ACCEPT ||
		   type == IRDMA_MPA_REQUEST_REJECT, "unknown frame type");
	fuzz_check(node.rcvd_pdata >= frame &&
		   node.rcvd_pdata + node.rcvd_pdata_len <= frame + size,
		   "private data outside the frame");
	for (i = 0; i < node.rcvd_pdata_len; i++)
		sink ^= node.rcvd_pdata[i];
	fuzz_check(node.ird_size <= ird_cap && node.ord_size <= ord_cap,
		   "negotiated IRD/ORD above the device's limits");
	fuzz_check(node.send_rdma0_op == IRDMA_RTR_NONE ||
		   (hweight8(node.send_rdma0_op) == 1 &&
		    (node.send_rdma0_op & node.rtr_caps)),
		   "an RTR type we cannot do");
	fuzz_check(node.mpa_frame_rev <= before.mpa_frame_rev,
		   "a revision above our offer");
	return 0;
}
