// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the MAD core's receive path, madcm_port_deliver()
 * (mad/recv.c and mad/helpers.c, compiled unchanged): the checks of a MAD
 * from the wire and the decision where it goes (an agent's recv handler,
 * RMPP reassembly, the response matcher, the "unsupported" reply, or a
 * counted drop).
 *
 * What recv.c calls in other files of mad/ is stubbed here, as small as
 * possible: the agent tables return the agents the input picks, RMPP
 * reassembly and the response matcher take the MAD over (the matcher as
 * if no send matched: madcm_recv_unmatched_response()), address handles
 * are plain allocations, the transport completes a reply after
 * madcm_port_deliver() returns. Allocation faults come from the input.
 *
 * Input: two control octets, an optional GRH, then the MAD.
 *   octet 0: bit 0 an OPA port; bit 1 a GRH (40 octets) comes first;
 *            bits 2-3 the QP it arrived on; bit 4 the copy's allocation
 *            fails; bit 5 the reply's allocation fails; bit 6 the
 *            transport refuses the reply; bit 7 no address handle
 *   octet 1: bits 0-1 the agent a request finds, bits 2-3 the one a
 *            response finds (0 none, 1 no RMPP, 2 kernel RMPP, 3 user
 *            RMPP); bit 4 the response's agent has no recv handler
 *
 * Checked: every MAD copy is freed once (LeakSanitizer, ASan), a recv
 * handler gets a completion that describes its buffer, every port and
 * agent reference taken is given back, every reply is released.
 */
#include <linux/types.h>
#include "mad/mad_priv.h"
#include "mad/fault.h"
#include "mad/rmpp.h"

#define CTL_OPA		0x01
#define CTL_GRH		0x02
#define CTL_QPN_SHIFT	2
#define CTL_NO_RECV	0x10
#define CTL_NO_REPLY	0x20
#define CTL_POST_FAILS	0x40
#define CTL_NO_AH	0x80

static struct fuzz_mad_state {
	u8 ctl;
	u8 pick;
	int port_refs;
	int agent_refs;
	int ahs;
	struct madcm_send *reply;
} st;

static struct madcm_port port;
static struct madcm_agent agents[4];
static u8 sink;

static void fuzz_check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_mad_recv: %s\n", what);
		abort();
	}
}

/* ---- Stubs of the rest of mad/ ---- */

bool madcm_fault(enum madcm_fault_site site)
{
	if (site == MADCM_FAULT_RECV)
		return st.ctl & CTL_NO_RECV;
	if (site == MADCM_FAULT_REPLY)
		return st.ctl & CTL_NO_REPLY;
	return false;
}

int madcm_mad_kernel_rmpp_agent(const struct ib_mad_agent *agent)
{
	return agent->rmpp_version && !(agent->flags & IB_MAD_USER_RMPP);
}

void madcm_port_get(struct madcm_port *p)
{
	st.port_refs++;
}

void madcm_port_put(struct madcm_port *p)
{
	fuzz_check(--st.port_refs >= 0, "port reference given back twice");
}

struct madcm_ah *madcm_port_ah_create(struct madcm_port *p,
				      const struct rdma_ah_attr *attr,
				      gfp_t gfp)
{
	struct madcm_ah *ah;

	if (st.ctl & CTL_NO_AH)
		return ERR_PTR(-ENOMEM);
	ah = calloc(1, sizeof(*ah));
	fuzz_check(ah, "out of memory");
	ah->port = p;
	ah->attr = *attr;
	st.ahs++;
	return ah;
}

void madcm_port_ah_destroy(struct madcm_ah *ah)
{
	st.ahs--;
	free(ah);
}

static struct madcm_agent *fuzz_agent(unsigned int pick)
{
	if (!pick)
		return NULL;
	st.agent_refs++;
	return &agents[pick];
}

struct madcm_agent *madcm_agent_find_request(struct madcm_port *p,
					     const struct ib_mad_hdr *hdr)
{
	return fuzz_agent(st.pick & 3);
}

struct madcm_agent *madcm_agent_find_response(struct madcm_port *p,
					      const struct ib_mad_hdr *hdr)
{
	struct madcm_agent *ag = fuzz_agent((st.pick >> 2) & 3);

	if (ag && (st.pick & 0x10))
		ag->agent.recv_handler = NULL;
	return ag;
}

void madcm_agent_put(struct madcm_agent *ag)
{
	fuzz_check(--st.agent_refs >= 0, "agent reference given back twice");
}

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

void madcm_send_match_response(struct madcm_agent *ag, struct madcm_recv *rv)
{
	madcm_recv_unmatched_response(ag, rv);
}

/* ---- The agents' handler and the transport ---- */

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

static int fuzz_post_send(struct madcm_port *p,
			  const struct madcm_port_send *ps)
{
	size_t size;

	if (st.ctl & CTL_POST_FAILS)
		return -EIO;
	fuzz_check(!st.reply, "two replies to one MAD");
	size = ps->hdr_len + ps->payload_len;
	fuzz_check(ps->hdr == ps->send->buf &&
		   ps->payload == ps->send->buf + ps->hdr_len &&
		   size <= sizeof(struct opa_mad),
		   "a reply beyond its buffer");
	st.reply = ps->send;
	return 0;
}

static const struct madcm_port_ops fuzz_ops = {
	.post_send = fuzz_post_send,
};

static void fuzz_setup(u8 ctl, u8 pick)
{
	static const struct {
		u8 rmpp_version;
		u32 flags;
	} kinds[4] = {
		{ 0, 0 }, { 0, 0 }, { 1, 0 }, { 1, IB_MAD_USER_RMPP },
	};
	unsigned int i;

	memset(&st, 0, sizeof(st));
	st.ctl = ctl;
	st.pick = pick;
	memset(&port, 0, sizeof(port));
	port.ops = &fuzz_ops;
	port.attr.name = "fuzz0";
	port.attr.opa = ctl & CTL_OPA;
	strcpy(port.name, "fuzz0");
	for (i = 0; i < ARRAY_SIZE(agents); i++) {
		memset(&agents[i], 0, sizeof(agents[i]));
		agents[i].port = &port;
		agents[i].agent.rmpp_version = kinds[i].rmpp_version;
		agents[i].agent.flags = kinds[i].flags;
		agents[i].agent.recv_handler = fuzz_recv_handler;
		agents[i].agent.hi_tid = i;
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct madcm_port_rx rx = {};
	struct ib_grh grh;
	u8 ctl, pick;

	if (size < 2)
		return 0;
	ctl = data[0];
	pick = data[1];
	data += 2;
	size -= 2;
	fuzz_setup(ctl, pick);
	if (ctl & CTL_GRH) {
		if (size < sizeof(grh))
			return 0;
		memcpy(&grh, data, sizeof(grh));
		rx.grh = &grh;
		data += sizeof(grh);
		size -= sizeof(grh);
	}
	rx.qpn = (ctl >> CTL_QPN_SHIFT) & 3;
	rx.src_qp = 1;
	rx.slid = 7;
	/* An empty MAD is a NULL one: the transport found no buffer. */
	rx.mad = size ? data : NULL;
	rx.len = size;
	madcm_port_deliver(&port, &rx);

	if (st.reply)
		madcm_send_port_complete(st.reply, IB_WC_SUCCESS);
	fuzz_check(!st.port_refs && !st.agent_refs && !st.ahs,
		   "a reference or address handle left over");
	fuzz_check(!atomic_read(&port.live_recvs) &&
		   !atomic_read(&port.live_replies),
		   "a received MAD or reply left over");
	return 0;
}
