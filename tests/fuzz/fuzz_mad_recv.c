// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the MAD core's receive path, madcm_port_deliver()
 * (mad/recv.c and mad/helpers.c, compiled unchanged): the checks of a MAD
 * from the wire and the decision where it goes (an agent's recv handler,
 * RMPP reassembly, the response matcher, the "unsupported" reply, or a
 * counted drop).
 *
 * What recv.c calls in other files of mad/ is stood in for by
 * fuzz_mad_env.c; RMPP reassembly here takes the MAD and frees it
 * (fuzz_rmpp_recv is the harness of the real one).
 *
 * Input: two control octets, an optional GRH, then the MAD.
 *   octet 0: the environment (FUZZ_MAD_* of fuzz_mad_env.h, bits 0-5)
 *            and bit 6: a GRH (40 octets) comes first
 *   octet 1: bits 0-4 the agents the tables hand out (fuzz_mad_env.h),
 *            bits 5-6 the QP the MAD came in on
 *
 * Checked: every MAD copy is freed once (LeakSanitizer, ASan), a recv
 * handler gets a completion that describes its buffer, every port and
 * agent reference taken is given back, every reply is released.
 */
#include "fuzz_mad_env.h"

#define CTL_ENV		0x3f
#define CTL_GRH		0x40
#define PICK_QPN_SHIFT	5

static u8 sink;

void madcm_rmpp_recv(struct madcm_agent *ag, struct madcm_recv *rv)
{
	fuzz_check(madcm_mad_kernel_rmpp_agent(&ag->agent),
		   "RMPP reassembly for an agent without kernel RMPP");
	madcm_recv_free(rv);
}

void madcm_rmpp_map_free(struct madcm_rmpp_map *map)
{
	fuzz_check(false, "an RMPP map on a single MAD");
}

static void fuzz_recv_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_buf *send_buf,
			      struct ib_mad_recv_wc *wc)
{
	const u8 *mad = (const u8 *)wc->recv_buf.mad;
	size_t i;

	fuzz_check(wc->mad_seg_size == sizeof(struct ib_mad) ||
		   wc->mad_seg_size == sizeof(struct opa_mad),
		   "a segment size of neither IB nor OPA");
	fuzz_check(wc->mad_len > 0 && wc->mad_len <= wc->mad_seg_size,
		   "mad_len beyond the segment");
	fuzz_check(wc->wc && wc->recv_buf.grh, "no work completion or GRH");
	for (i = 0; i < wc->mad_seg_size; i++)
		sink ^= mad[i];
	madcm_free_recv_mad(wc);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct madcm_port_rx rx = {};
	struct ib_grh grh;
	unsigned int i;
	u8 ctl, pick;

	if (size < 2)
		return 0;
	ctl = data[0];
	pick = data[1];
	data += 2;
	size -= 2;
	fuzz_mad_setup(ctl & CTL_ENV, pick);
	for (i = 0; i < ARRAY_SIZE(fuzz_agents); i++)
		fuzz_agents[i].agent.recv_handler = fuzz_recv_handler;
	if (ctl & CTL_GRH) {
		if (size < sizeof(grh))
			return 0;
		memcpy(&grh, data, sizeof(grh));
		rx.grh = &grh;
		data += sizeof(grh);
		size -= sizeof(grh);
	}
	rx.qpn = (pick >> PICK_QPN_SHIFT) & 3;
	rx.src_qp = 1;
	rx.slid = 7;
	/* An empty MAD is a NULL one: the transport found no buffer. */
	rx.mad = size ? data : NULL;
	rx.len = size;
	madcm_port_deliver(&fuzz_port, &rx);
	fuzz_mad_check_end();
	return 0;
}
