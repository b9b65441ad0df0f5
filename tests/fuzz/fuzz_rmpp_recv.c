// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: RMPP receive (mad/rmpp_recv.c, with mad/rmpp_ctl.c,
 * mad/recv.c and mad/helpers.c, compiled unchanged): sequences of DATA,
 * ACK, STOP and ABORT segments from several senders against live
 * reassemblies, with time passing (the inactivity timer) and allocations
 * failing in between. The rest of mad/ is stood in for by fuzz_mad_env.c:
 * no send of the agents is an RMPP transfer, a response finds a request
 * waiting when the input says so.
 *
 * Input: two control octets (as fuzz_mad_recv's: the environment, the
 * agents), one that sets the limits an administrator can set (module
 * parameters: bits 0-1 the window, 2-3 the port's reassemblies, 4-5 a
 * sender's, bit 6 small byte budgets; 0 keeps the defaults), then steps,
 * each an octet and what it takes:
 *   op & 3 == 0: a MAD: its 24-octet MAD header and 12-octet RMPP header
 *                follow (the rest of the 256 octets is a fixed pattern);
 *                op bit 2: with a GRH, op >> 3 names the sender (its
 *                source GID, or its SLID)
 *   op & 3 == 1: (op >> 2) seconds pass; due timers run
 *   op & 3 == 2: the next octet flips bits of the environment
 *   op & 3 == 3: op bit 2: a request of the agent waits for a response
 *
 * Checked: besides the sanitizers and LeakSanitizer, a reassembled
 * transfer hands over segments that are all there, every ACK sent has
 * NewWindowLast >= SegmentNumber, and once the agents are gone no
 * reassembly, budget charge or sender entry is left.
 */
#include "fuzz_mad_env.h"

#define MAD_HDRS	(sizeof(struct ib_mad_hdr) + sizeof(struct ib_rmpp_hdr))
#define STEP_MAD	0
#define STEP_TIME	1
#define STEP_ENV	2
#define STEP_WAITING	3

static struct madcm_send waiting;
static bool request_waiting;
static u8 sink;

/* ---- send.c, timeout.c, rmpp_send.c, core.c ---- */

void madcm_recv_key(const struct madcm_recv *rv, struct madcm_tid_key *key)
{
	const struct ib_mad_hdr *hdr = (const struct ib_mad_hdr *)rv->mad;

	memset(key, 0, sizeof(*key));
	key->tid = hdr->tid;
	key->mgmt_class = hdr->mgmt_class;
	if (rv->wc.wc_flags & IB_WC_GRH)
		memcpy(key->gid.raw, rv->grh.sgid.raw, sizeof(key->gid.raw));
	else
		key->lid = rv->wc.slid;
}

struct madcm_send *madcm_send_lookup(struct madcm_agent *ag,
				     const struct madcm_tid_key *key,
				     enum madcm_lookup what)
{
	if (!request_waiting || what != MADCM_LOOKUP_RESPONSE)
		return NULL;
	waiting.state = MADCM_SEND_WAIT_RESP;
	waiting.timed = true;
	waiting.key = *key;
	return &waiting;
}

void madcm_timeout_add(struct madcm_agent *ag, struct madcm_send *ms,
		       u32 timeout_ms)
{
	fuzz_check(ms == &waiting, "a timeout for a send nobody made");
}

void madcm_timeout_del(struct madcm_agent *ag, struct madcm_send *ms)
{
	fuzz_check(ms == &waiting, "a timeout for a send nobody made");
}

bool madcm_rmpp_send_ctl(struct madcm_agent *ag, struct madcm_recv *rv)
{
	return false;
}

void madcm_kvfree_any(void *p)
{
	free(p);
}

/* ---- The agents' handler and the transport's check ---- */

static void fuzz_recv_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_buf *send_buf,
			      struct ib_mad_recv_wc *wc)
{
	struct ib_mad_recv_buf *buf;
	size_t i, n = 0;

	fuzz_check(wc->mad_len > 0 && wc->mad_seg_size >= sizeof(struct ib_mad),
		   "a completion without a MAD");
	list_for_each_entry(buf, &wc->rmpp_list, list) {
		const u8 *mad = (const u8 *)buf->mad;

		fuzz_check(mad, "a segment missing from a transfer");
		for (i = 0; i < wc->mad_seg_size; i++)
			sink ^= mad[i];
		n++;
	}
	fuzz_check(n >= 1 && wc->mad_len <= n * wc->mad_seg_size,
		   "mad_len beyond the segments");
	madcm_free_recv_mad(wc);
}

static void fuzz_check_ctl(const struct madcm_port_send *ps)
{
	const struct ib_rmpp_mad *m = (const struct ib_rmpp_mad *)ps->hdr;
	const struct ib_rmpp_hdr *rh = &m->rmpp_hdr;

	if (!(rh->rmpp_rtime_flags & IB_MGMT_RMPP_FLAG_ACTIVE) ||
	    ps->hdr_len < IB_MGMT_RMPP_HDR)
		return;
	fuzz_check(rh->rmpp_type == IB_MGMT_RMPP_TYPE_ACK ||
		   rh->rmpp_type == IB_MGMT_RMPP_TYPE_STOP ||
		   rh->rmpp_type == IB_MGMT_RMPP_TYPE_ABORT,
		   "the receiver sent an RMPP type it never sends");
	if (rh->rmpp_type == IB_MGMT_RMPP_TYPE_ACK)
		fuzz_check(be32_to_cpu(rh->paylen_newwin) >=
			   be32_to_cpu(rh->seg_num),
			   "an ACK with NewWindowLast below SegmentNumber");
}

/* ---- Limits ---- */

static void fuzz_limits(u8 lim)
{
	static const unsigned int window[4] = { 64, 1, 2, 5 };
	static const unsigned int port_rx[4] = { 64, 1, 2, 3 };
	static const unsigned int src_rx[4] = { 16, 1, 2, 3 };
	bool small = lim & 0x40;

	madcm_rmpp_window = window[lim & 3];
	madcm_rmpp_max_reassemblies = port_rx[(lim >> 2) & 3];
	madcm_rmpp_max_source_reassemblies = src_rx[(lim >> 4) & 3];
	madcm_rmpp_max_reassembly_bytes = small ? 3 * PAGE_SIZE : 32UL << 20;
	madcm_rmpp_max_source_bytes = small ? 2 * PAGE_SIZE : 8UL << 20;
}

/* ---- Steps ---- */

static void fuzz_deliver(u8 op, const u8 *hdrs)
{
	struct madcm_port_rx rx = {};
	u8 mad[sizeof(struct ib_mad)];
	struct ib_grh grh = {};
	size_t i;

	memcpy(mad, hdrs, MAD_HDRS);
	for (i = MAD_HDRS; i < sizeof(mad); i++)
		mad[i] = (u8)(i * 7 + 3);
	if (op & 0x04) {
		grh.sgid.raw[0] = 0xfe;
		grh.sgid.raw[1] = 0x80;
		grh.sgid.raw[15] = op >> 3;
		rx.grh = &grh;
	}
	rx.mad = mad;
	rx.len = sizeof(mad);
	rx.qpn = 1;
	rx.src_qp = 1;
	rx.slid = 1 + (op >> 3);
	madcm_port_deliver(&fuzz_port, &rx);
}

static void fuzz_time_passes(unsigned int secs)
{
	unsigned int i;

	jiffies += secs * HZ;
	for (i = 0; i < ARRAY_SIZE(fuzz_agents); i++)
		if (madcm_mad_kernel_rmpp_agent(&fuzz_agents[i].agent))
			fuzz_run_delayed_work(&fuzz_agents[i].rmpp_gc);
}

static void fuzz_end(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fuzz_agents); i++)
		if (madcm_mad_kernel_rmpp_agent(&fuzz_agents[i].agent))
			madcm_rmpp_agent_destroy(&fuzz_agents[i]);
	fuzz_mad_check_end();
	fuzz_check(!atomic_read(&fuzz_port.rmpp_reassemblies) &&
		   !atomic_long_read(&fuzz_port.rmpp_bytes),
		   "RMPP budget charged after the agents are gone");
	for (i = 0; i < HASH_SIZE(fuzz_port.rmpp_src); i++)
		fuzz_check(!fuzz_port.rmpp_src[i].first,
			   "a sender entry left after the agents are gone");
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	unsigned int i;
	u8 op;

	if (size < 3)
		return 0;
	fuzz_mad_setup(data[0] & 0x7f, data[1]);
	fuzz_limits(data[2]);
	fuzz_env.check_send = fuzz_check_ctl;
	request_waiting = false;
	memset(&waiting, 0, sizeof(waiting));
	for (i = 0; i < ARRAY_SIZE(fuzz_agents); i++) {
		fuzz_agents[i].agent.recv_handler = fuzz_recv_handler;
		if (madcm_mad_kernel_rmpp_agent(&fuzz_agents[i].agent))
			fuzz_check(!madcm_rmpp_agent_init(&fuzz_agents[i]),
				   "no RMPP receiver");
	}
	data += 3;
	size -= 3;
	while (size) {
		op = *data++;
		size--;
		switch (op & 3) {
		case STEP_MAD:
			if (size < MAD_HDRS)
				goto out;
			fuzz_deliver(op, data);
			data += MAD_HDRS;
			size -= MAD_HDRS;
			break;
		case STEP_TIME:
			fuzz_time_passes(op >> 2);
			break;
		case STEP_ENV:
			if (!size)
				goto out;
			fuzz_env.ctl ^= *data++ & 0x7f;
			fuzz_port.attr.opa = fuzz_env.ctl & FUZZ_MAD_OPA;
			size--;
			break;
		case STEP_WAITING:
			request_waiting = op & 0x04;
			break;
		}
		fuzz_mad_run_works();
		fuzz_mad_complete_sends();
	}
out:
	fuzz_end();
	return 0;
}
