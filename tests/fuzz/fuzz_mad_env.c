// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stand-ins of the MAD harnesses (fuzz_mad_env.h): as small as they
 * can be, each doing what its real counterpart promises its callers.
 */
#include "fuzz_mad_env.h"

struct fuzz_mad_env fuzz_env;
struct madcm_port fuzz_port;
struct madcm_agent fuzz_agents[4];
struct workqueue_struct *madcm_mad_wq;
struct workqueue_struct *madcm_mad_ah_wq;

void fuzz_check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_mad: %s\n", what);
		abort();
	}
}

/* ---- fault.c ---- */

bool madcm_fault(enum madcm_fault_site site)
{
	switch (site) {
	case MADCM_FAULT_RECV:
		return fuzz_env.ctl & FUZZ_MAD_NO_RECV;
	case MADCM_FAULT_REPLY:
		return fuzz_env.ctl & FUZZ_MAD_NO_REPLY;
	case MADCM_FAULT_RMPP_RX:
		return fuzz_env.ctl & FUZZ_MAD_NO_RMPP_RX;
	default:
		return false;
	}
}

/* ---- agent.c ---- */

int madcm_mad_kernel_rmpp_agent(const struct ib_mad_agent *agent)
{
	return agent->rmpp_version && !(agent->flags & IB_MAD_USER_RMPP);
}

static struct madcm_agent *fuzz_agent(unsigned int pick)
{
	if (!pick)
		return NULL;
	fuzz_env.agent_refs++;
	return &fuzz_agents[pick];
}

struct madcm_agent *madcm_agent_find_request(struct madcm_port *port,
					     const struct ib_mad_hdr *hdr)
{
	return fuzz_agent(fuzz_env.pick & 3);
}

/*
 * A send-only agent (no recv handler) can wait for responses, never be
 * registered for requests (madcm_reg_check() refuses that): a copy of
 * the agent picked, without its handler, only ever found here.
 */
static struct madcm_agent fuzz_send_only;

struct madcm_agent *madcm_agent_find_response(struct madcm_port *port,
					      const struct ib_mad_hdr *hdr)
{
	struct madcm_agent *ag = fuzz_agent((fuzz_env.pick >> 2) & 3);

	if (ag && (fuzz_env.pick & 0x10)) {
		fuzz_send_only = *ag;
		fuzz_send_only.agent.recv_handler = NULL;
		return &fuzz_send_only;
	}
	return ag;
}

/* The RMPP receiver's eviction holds each agent it looks at. */
bool madcm_agent_get(struct madcm_agent *ag)
{
	fuzz_env.agent_refs++;
	return true;
}

void madcm_agent_put(struct madcm_agent *ag)
{
	fuzz_check(--fuzz_env.agent_refs >= 0,
		   "agent reference given back twice");
}

/* ---- send.c: no send of the agents is waiting for anything ---- */

void madcm_send_match_response(struct madcm_agent *ag, struct madcm_recv *rv)
{
	madcm_recv_unmatched_response(ag, rv);
}

/* ---- port.c ---- */

void madcm_port_get(struct madcm_port *port)
{
	fuzz_env.port_refs++;
}

void madcm_port_put(struct madcm_port *port)
{
	fuzz_check(--fuzz_env.port_refs >= 0,
		   "port reference given back twice");
}

struct madcm_ah *madcm_port_ah_create(struct madcm_port *port,
				      const struct rdma_ah_attr *attr,
				      gfp_t gfp)
{
	struct madcm_ah *ah;

	if (fuzz_env.ctl & FUZZ_MAD_NO_AH)
		return ERR_PTR(-ENOMEM);
	if ((fuzz_env.ctl & FUZZ_MAD_AH_LATER) && gfp != GFP_KERNEL)
		return ERR_PTR(-EAGAIN);
	ah = calloc(1, sizeof(*ah));
	fuzz_check(ah, "out of memory");
	ah->port = port;
	ah->attr = *attr;
	fuzz_env.ahs++;
	return ah;
}

void madcm_port_ah_destroy(struct madcm_ah *ah)
{
	fuzz_env.ahs--;
	free(ah);
}

/* ---- The transport and the work queues ---- */

static int fuzz_post_send(struct madcm_port *port,
			  const struct madcm_port_send *ps)
{
	size_t size = ps->hdr_len + ps->payload_len;

	if (fuzz_env.ctl & FUZZ_MAD_POST_FAILS)
		return -EIO;
	fuzz_check(fuzz_env.nr_sends < ARRAY_SIZE(fuzz_env.sends),
		   "more sends than one input can cause");
	fuzz_check(ps->hdr == ps->send->buf &&
		   ps->payload == ps->send->buf + ps->hdr_len &&
		   size <= sizeof(struct opa_mad),
		   "a send beyond its buffer");
	if (fuzz_env.check_send)
		fuzz_env.check_send(ps);
	fuzz_env.sends[fuzz_env.nr_sends++] = ps->send;
	return 0;
}

static const struct madcm_port_ops fuzz_ops = {
	.post_send = fuzz_post_send,
};

/* The transport completes what the core posted. */
void fuzz_mad_complete_sends(void)
{
	unsigned int i;

	for (i = 0; i < fuzz_env.nr_sends; i++)
		madcm_send_port_complete(fuzz_env.sends[i], IB_WC_SUCCESS);
	fuzz_env.nr_sends = 0;
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	list_add_tail(&work->entry, &fuzz_env.works);
	return true;
}

void fuzz_mad_run_works(void)
{
	struct work_struct *w;

	while (!list_empty(&fuzz_env.works)) {
		w = list_first_entry(&fuzz_env.works, struct work_struct,
				     entry);
		list_del(&w->entry);
		((work_func_t)w->func)(w);
	}
}

/* ---- Set-up and the checks at the end of an input ---- */

void fuzz_mad_setup(u8 ctl, u8 pick)
{
	static const struct {
		u8 rmpp_version;
		u32 flags;
	} kinds[4] = {
		{ 0, 0 }, { 0, 0 }, { 1, 0 }, { 1, IB_MAD_USER_RMPP },
	};
	unsigned int i;

	memset(&fuzz_env, 0, sizeof(fuzz_env));
	fuzz_env.ctl = ctl;
	fuzz_env.pick = pick;
	INIT_LIST_HEAD(&fuzz_env.works);
	memset(&fuzz_port, 0, sizeof(fuzz_port));
	fuzz_port.ops = &fuzz_ops;
	fuzz_port.attr.name = "fuzz0";
	fuzz_port.attr.opa = ctl & FUZZ_MAD_OPA;
	strcpy(fuzz_port.name, "fuzz0");
	INIT_LIST_HEAD(&fuzz_port.rmpp_agents);
	for (i = 0; i < ARRAY_SIZE(fuzz_agents); i++) {
		memset(&fuzz_agents[i], 0, sizeof(fuzz_agents[i]));
		fuzz_agents[i].port = &fuzz_port;
		fuzz_agents[i].agent.rmpp_version = kinds[i].rmpp_version;
		fuzz_agents[i].agent.flags = kinds[i].flags;
		fuzz_agents[i].agent.hi_tid = i;
	}
}

void fuzz_mad_check_end(void)
{
	fuzz_mad_run_works();
	fuzz_mad_complete_sends();
	fuzz_check(!fuzz_env.port_refs && !fuzz_env.agent_refs &&
		   !fuzz_env.ahs, "a reference or address handle left over");
	fuzz_check(!atomic_read(&fuzz_port.live_recvs) &&
		   !atomic_read(&fuzz_port.live_replies) &&
		   !atomic_read(&fuzz_port.ctl_waiting),
		   "a received MAD or a reply left over");
}
