// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_ibtest: the benchmark of madcm against ib_core's MAD layer on the
 * same rxe port, one command ("bench GID [MAX]"):
 *
 * - create+free of send buffers: 256 bytes, and 64 KiB and 1 MiB RMPP
 *   buffers (only created and freed: no transfer);
 * - random access to the segments of a 1 MiB RMPP buffer (5243
 *   segments): madcm_get_rmpp_segment() against ib_get_rmpp_segment(),
 *   the same random segment numbers for both;
 * - request/response round trips, with 1,000, 10,000, 50,000 and 100,000
 *   requests outstanding (up to MAX): a client posts them all at once to a
 *   service on the same port (madcm: its own UD QP; ib_core: QP1), which
 *   holds them all and answers them in random order (or, when the client
 *   sends no more for IBT_BENCH_IDLE_MS because its agent's window is
 *   full, what it holds then);
 * - RMPP throughput: a 1 MiB Set from a client to a sink on the same port,
 *   madcm to madcm and ib_core to ib_core;
 * - memory: per outstanding 256-byte request (posted to a QP that does not
 *   exist, so that nothing answers, then cancelled), and per 1 MiB RMPP
 *   reassembly that the sink holds, from the free memory before and after.
 *
 * Each figure is one line, "bench NAME MADCM IB_CORE RATIO UNIT", the
 * ratio being madcm/ib_core (below 1 madcm takes less time or memory;
 * for MB/s above 1 madcm is faster); other lines are "bench-info". A
 * figure that was not measured is "-", with a line "bench-none NAME
 * STACK: WHY", and a ratio is only printed from two measured figures.
 * The whole command has a time budget ("bench GID [MAX [SECONDS]]",
 * default IBT_BENCH_BUDGET_S): no round waits past it, and a round that
 * would start after it is not run but said. It is not a test: nothing is
 * asserted about time.
 */
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <madcm/mad.h>

#include "madcm_ibtest.h"

#define IBT_BENCH_CLASS		0x31	/* vendor range 2, RMPP */
#define IBT_BENCH_ATTR		0x0031
#define IBT_BENCH_MAX		100000
#define IBT_BENCH_IDLE_MS	50
#define IBT_BENCH_ROUNDS	3
#define IBT_BENCH_SEG_READS	20000
#define IBT_BENCH_RMPP_LEN	SZ_1M
#define IBT_BENCH_RMPP_WAIT_S	60
/*
 * The whole bench's time unless the command gives one: under the limit
 * of tests/vm/bench/mad-ib-bench.sh ("# vm-timeout:"), with the setup's
 * time to spare, on a loaded TCG host.
 */
#define IBT_BENCH_BUDGET_S	900
/* A figure that was not measured: printed "-", never in a ratio. */
#define IBT_NONE		U64_MAX
/* Requests posted for the memory figure, and reassemblies held. */
#define IBT_BENCH_MEM_SENDS	10000
#define IBT_BENCH_MEM_RMPP	4
/* A QP number rxe does not have: what is sent there gets no answer. */
#define IBT_BENCH_DEAD_QPN	0xabcde

static const u8 ibt_bench_oui[3] = { 0x00, 0x14, 0x07 };

/* The end of this command's time budget, in jiffies, and its length. */
static unsigned long ibt_bench_end;
static u32 ibt_bench_budget_s;

/* Jiffies left of the budget, 0 once it is spent. */
static unsigned long ibt_bench_left(void)
{
	unsigned long now = jiffies;

	return time_before(now, ibt_bench_end) ? ibt_bench_end - now : 0;
}

/* At most @j jiffies, and never past the budget's end. */
static unsigned long ibt_bench_cap(unsigned long j)
{
	return min(j, ibt_bench_left());
}

/* Why @stack has no figure for @name: one "bench-none" line. */
static __printf(3, 4) void ibt_bench_none(const char *name,
					  const char *stack,
					  const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("madcm_ibtest: bench-none %s %s: %pV\n", name, stack, &vaf);
	va_end(args);
}

static void ibt_bench_none_spent(const char *name, const char *stack)
{
	ibt_bench_none(name, stack,
		       "not run: the bench's time budget (%u s) was spent",
		       ibt_bench_budget_s);
}

/* One MAD stack: madcm or ib_core, through the same signatures. */
struct ibt_stack {
	const char *name;
	struct ib_mad_send_buf *(*create)(struct ib_mad_agent *agent,
					  u32 remote_qpn, u16 pkey_index,
					  int rmpp_active, int hdr_len,
					  int data_len, gfp_t gfp,
					  u8 base_version);
	void (*free_send)(struct ib_mad_send_buf *sb);
	void (*cancel)(struct ib_mad_send_buf *sb);
	void *(*segment)(struct ib_mad_send_buf *sb, int seg_num);
	int (*post)(struct ib_mad_send_buf *sb,
		    struct ib_mad_send_buf **bad);
	void (*free_recv)(struct ib_mad_recv_wc *wc);
	struct ib_ah *(*ah_from_wc)(struct ib_mad_agent *agent,
				    struct ib_mad_recv_wc *wc);
	void (*destroy_ah)(struct ib_ah *ah);
	struct ib_ah *(*ah_to)(const union ib_gid *gid);
	u32 (*server_qpn)(void);

	struct ib_mad_agent *client;
	struct ib_mad_agent *server;
	struct ib_mad_agent *sink;
	struct ib_ah *client_ah;
	struct ib_ah *server_ah;

	spinlock_t lock;	/* held, answering, held_cap, nheld, last_rx */
	struct ib_mad_recv_wc **held;
	struct ib_mad_recv_wc **answering;
	u32 held_cap;
	u32 nheld;
	unsigned long last_rx;
	atomic_t completed, responses, errors, answers_out;
	u32 n;
	struct completion all;

	/* The RMPP sink: what it got, and the reassemblies it holds. */
	struct completion rmpp_recvd;
	size_t rmpp_mad_len;
	bool hold_rmpp;
	u32 nheld_rmpp;
	struct ib_mad_recv_wc *held_rmpp[IBT_BENCH_MEM_RMPP];
};

static struct ib_ah *ibt_m_ah_from_wc(struct ib_mad_agent *agent,
				      struct ib_mad_recv_wc *wc)
{
	return madcm_create_ah_from_wc(ibt.mport, wc->wc, wc->recv_buf.grh);
}

static struct ib_ah *ibt_k_ah_from_wc(struct ib_mad_agent *agent,
				      struct ib_mad_recv_wc *wc)
{
	return ib_create_ah_from_wc(agent->qp->pd, wc->wc, wc->recv_buf.grh,
				    agent->port_num);
}

static void ibt_k_destroy_ah(struct ib_ah *ah)
{
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
}

static u32 ibt_m_qpn(void)
{
	return madcm_port_qpn(ibt.mport);
}

static u32 ibt_k_qpn(void)
{
	return 1;
}

static struct ibt_stack ibt_stacks[2] = {
	{
		.name = "madcm",
		.create = madcm_create_send_mad,
		.free_send = madcm_free_send_mad,
		.cancel = madcm_cancel_mad,
		.segment = madcm_get_rmpp_segment,
		.post = madcm_post_send_mad,
		.free_recv = madcm_free_recv_mad,
		.ah_from_wc = ibt_m_ah_from_wc,
		.destroy_ah = madcm_destroy_ah,
		.ah_to = ibt_madcm_ah,
		.server_qpn = ibt_m_qpn,
		.lock = __SPIN_LOCK_UNLOCKED(ibt_stacks[0].lock),
	}, {
		.name = "ib_core",
		.create = ib_create_send_mad,
		.free_send = ib_free_send_mad,
		.cancel = ib_cancel_mad,
		.segment = ib_get_rmpp_segment,
		.post = ib_post_send_mad,
		.free_recv = ib_free_recv_mad,
		.ah_from_wc = ibt_k_ah_from_wc,
		.destroy_ah = ibt_k_destroy_ah,
		.ah_to = ibt_kernel_ah,
		.server_qpn = ibt_k_qpn,
		.lock = __SPIN_LOCK_UNLOCKED(ibt_stacks[1].lock),
	},
};

/*
 * Answer every request the service holds, in random order. Only the
 * thread that runs the round trips calls it; the receive handler fills
 * the other array meanwhile.
 */
static void ibt_bench_answer(struct ibt_stack *st)
{
	struct ib_mad_recv_wc **held, *wc;
	struct ib_mad_send_buf *sb;
	u32 n, i, j;

	spin_lock_bh(&st->lock);
	held = st->held;
	n = st->nheld;
	st->held = st->answering;
	st->answering = held;
	st->nheld = 0;
	spin_unlock_bh(&st->lock);
	if (!held)
		return;
	for (i = n; i > 1; i--) {
		j = get_random_u32() % i;
		swap(held[i - 1], held[j]);
	}
	for (i = 0; i < n; i++) {
		wc = held[i];
		if (!st->server_ah) {
			st->server_ah = st->ah_from_wc(st->server, wc);
			if (IS_ERR(st->server_ah))
				st->server_ah = NULL;
		}
		sb = st->server_ah ?
			st->create(st->server, wc->wc->src_qp,
				   wc->wc->pkey_index, 0, IB_MGMT_VENDOR_HDR,
				   IB_MGMT_VENDOR_DATA, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION) : ERR_PTR(-ENOMEM);
		if (!IS_ERR(sb)) {
			memcpy(sb->mad, wc->recv_buf.mad, sizeof(struct ib_mad));
			((struct ib_mad_hdr *)sb->mad)->method =
				IB_MGMT_METHOD_GET_RESP;
			sb->ah = st->server_ah;
			atomic_inc(&st->answers_out);
			if (st->post(sb, NULL)) {
				atomic_dec(&st->answers_out);
				st->free_send(sb);
			}
		}
		st->free_recv(wc);
		if (!(i % 256))
			cond_resched();
	}
}

static struct ibt_stack *ibt_stack_of(struct ib_mad_agent *agent)
{
	return agent->context;
}

static void ibt_bs_recv(struct ib_mad_agent *agent,
			struct ib_mad_send_buf *send_buf,
			struct ib_mad_recv_wc *wc)
{
	struct ibt_stack *st = ibt_stack_of(agent);

	spin_lock_bh(&st->lock);
	if (st->held && st->nheld < st->held_cap) {
		st->held[st->nheld++] = wc;
		wc = NULL;
	}
	st->last_rx = jiffies;
	spin_unlock_bh(&st->lock);
	if (wc)
		st->free_recv(wc);
}

static void ibt_bs_send(struct ib_mad_agent *agent,
			struct ib_mad_send_wc *wc)
{
	struct ibt_stack *st = ibt_stack_of(agent);

	st->free_send(wc->send_buf);
	atomic_dec(&st->answers_out);
}

static void ibt_bc_recv(struct ib_mad_agent *agent,
			struct ib_mad_send_buf *send_buf,
			struct ib_mad_recv_wc *wc)
{
	struct ibt_stack *st = ibt_stack_of(agent);

	if (send_buf)
		atomic_inc(&st->responses);
	st->free_recv(wc);
}

static void ibt_bc_send(struct ib_mad_agent *agent,
			struct ib_mad_send_wc *wc)
{
	struct ibt_stack *st = ibt_stack_of(agent);

	if (wc->status != IB_WC_SUCCESS)
		atomic_inc(&st->errors);
	/* The memory figure's sends say here that they are gone. */
	if (wc->send_buf->context[1])
		WRITE_ONCE(*(u8 *)wc->send_buf->context[1], 1);
	st->free_send(wc->send_buf);
	if (atomic_inc_return(&st->completed) == st->n)
		complete(&st->all);
}

/* The RMPP sink: keeps what came when asked to, else frees it. */
static void ibt_sink_recv(struct ib_mad_agent *agent,
			  struct ib_mad_send_buf *send_buf,
			  struct ib_mad_recv_wc *wc)
{
	struct ibt_stack *st = ibt_stack_of(agent);

	st->rmpp_mad_len = wc->mad_len;
	if (st->hold_rmpp && st->nheld_rmpp < IBT_BENCH_MEM_RMPP)
		st->held_rmpp[st->nheld_rmpp++] = wc;
	else
		st->free_recv(wc);
	complete(&st->rmpp_recvd);
}

static void ibt_sink_send(struct ib_mad_agent *agent,
			  struct ib_mad_send_wc *wc)
{
	ibt_stack_of(agent)->free_send(wc->send_buf);
}

static int ibt_bench_agents(void)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = IBT_BENCH_CLASS,
		.mgmt_class_version = 1,
	};
	struct ibt_stack *m = &ibt_stacks[0], *k = &ibt_stacks[1];

	struct ib_mad_reg_req sink_req;

	if (m->client)
		return 0;
	memcpy(req.oui, ibt_bench_oui, sizeof(req.oui));
	sink_req = req;
	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	set_bit(IB_MGMT_METHOD_SET, sink_req.method_mask);
	m->server = madcm_register_mad_agent(ibt.mport, IB_QPT_GSI, &req, 0,
					     ibt_bs_send, ibt_bs_recv, m, 0);
	m->client = madcm_register_mad_agent(ibt.mport, IB_QPT_GSI, NULL,
					     IB_MGMT_RMPP_VERSION,
					     ibt_bc_send, ibt_bc_recv, m, 0);
	k->server = ib_register_mad_agent(ibt.dev, 1, IB_QPT_GSI, &req, 0,
					  ibt_bs_send, ibt_bs_recv, k, 0);
	k->client = ib_register_mad_agent(ibt.dev, 1, IB_QPT_GSI, NULL,
					  IB_MGMT_RMPP_VERSION, ibt_bc_send,
					  ibt_bc_recv, k, 0);
	m->sink = madcm_register_mad_agent(ibt.mport, IB_QPT_GSI, &sink_req,
					   IB_MGMT_RMPP_VERSION, ibt_sink_send,
					   ibt_sink_recv, m, 0);
	k->sink = ib_register_mad_agent(ibt.dev, 1, IB_QPT_GSI, &sink_req,
					IB_MGMT_RMPP_VERSION, ibt_sink_send,
					ibt_sink_recv, k, 0);
	if (IS_ERR(m->server) || IS_ERR(m->client) || IS_ERR(k->server) ||
	    IS_ERR(k->client) || IS_ERR(m->sink) || IS_ERR(k->sink)) {
		ibt_bench_close();
		return -EIO;
	}
	return 0;
}

void ibt_bench_close(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ibt_stacks); i++) {
		struct ibt_stack *st = &ibt_stacks[i];
		void (*unreg)(struct ib_mad_agent *agent) =
			i ? ib_unregister_mad_agent : madcm_unregister_mad_agent;

		if (!IS_ERR_OR_NULL(st->client))
			unreg(st->client);
		if (!IS_ERR_OR_NULL(st->server))
			unreg(st->server);
		if (!IS_ERR_OR_NULL(st->sink))
			unreg(st->sink);
		st->client = NULL;
		st->server = NULL;
		st->sink = NULL;
	}
}

/*
 * End every request of @st's client at once: unregistering it flushes
 * them all in one pass (each gets its send handler); a new client takes
 * its place.
 */
static void ibt_bench_flush_client(struct ibt_stack *st)
{
	struct ib_mad_agent *a;

	if (st == &ibt_stacks[1]) {
		ib_unregister_mad_agent(st->client);
		a = ib_register_mad_agent(ibt.dev, 1, IB_QPT_GSI, NULL,
					  IB_MGMT_RMPP_VERSION, ibt_bc_send,
					  ibt_bc_recv, st, 0);
	} else {
		madcm_unregister_mad_agent(st->client);
		a = madcm_register_mad_agent(ibt.mport, IB_QPT_GSI, NULL,
					     IB_MGMT_RMPP_VERSION, ibt_bc_send,
					     ibt_bc_recv, st, 0);
	}
	if (IS_ERR(a)) {
		pr_info("madcm_ibtest: bench-info %s: no new client (%ld)\n",
			st->name, PTR_ERR(a));
		a = NULL;
	}
	st->client = a;
}

/* Nanoseconds per create+free of one buffer of @data_len bytes. */
static u64 ibt_bench_create(struct ibt_stack *st, int rmpp, int data_len,
			    u32 iters)
{
	struct ib_mad_send_buf *sb;
	ktime_t t0 = ktime_get();
	u32 i;

	for (i = 0; i < iters; i++) {
		sb = st->create(st->client, 1, 0, rmpp, IB_MGMT_VENDOR_HDR,
				data_len, GFP_KERNEL, IB_MGMT_BASE_VERSION);
		if (IS_ERR(sb))
			return 0;
		st->free_send(sb);
		if (!(i % 64))
			cond_resched();
	}
	return ktime_to_ns(ktime_sub(ktime_get(), t0)) / iters;
}

/*
 * @v with @decimals digits after the point (0 or 1: @v is in tenths),
 * after @prefix; "-" for IBT_NONE.
 */
static const char *ibt_bench_fmt(char *buf, size_t len, const char *prefix,
				 u64 v, int decimals)
{
	if (v == IBT_NONE)
		snprintf(buf, len, "-");
	else if (decimals)
		snprintf(buf, len, "%s%llu.%llu", prefix, v / 10, v % 10);
	else
		snprintf(buf, len, "%s%llu", prefix, v);
	return buf;
}

/*
 * The ratio m/k after @prefix, to three decimals; "-" unless both were
 * measured and k is not 0.
 */
static const char *ibt_bench_ratio(char *buf, size_t len, const char *prefix,
				   u64 m, u64 k)
{
	u64 r;

	if (m == IBT_NONE || k == IBT_NONE || !k) {
		snprintf(buf, len, "-");
		return buf;
	}
	r = div64_u64(m * 1000, k);
	snprintf(buf, len, "%s%llu.%03llu", prefix, r / 1000, r % 1000);
	return buf;
}

/*
 * One figure: "bench NAME MADCM IB_CORE RATIO UNIT", the values with
 * @decimals digits after the point (0 or 1), the ratio madcm/ib_core;
 * IBT_NONE, a figure not measured, is "-", and so is the ratio then.
 */
static void ibt_bench_row(const char *name, u64 m, u64 k, int decimals,
			  const char *unit)
{
	char mb[24], kb[24], rb[24];

	pr_info("madcm_ibtest: bench %s %s %s %s %s\n", name,
		ibt_bench_fmt(mb, sizeof(mb), "", m, decimals),
		ibt_bench_fmt(kb, sizeof(kb), "", k, decimals),
		ibt_bench_ratio(rb, sizeof(rb), "", m, k), unit);
}

/*
 * A round-trip row: @res, each stack's best finished round (IBT_NONE for
 * none), else @bound, the time per request until the deadline of a
 * round that did not finish: a lower bound, printed ">N", and the ratio
 * then bounded too ("<R" when only ib_core did not finish, ">R" when
 * only madcm did not). "-" for a stack with neither, and for the ratio
 * of two bounds.
 */
static void ibt_bench_rtt_row(const char *name, const u64 *res,
			      const u64 *bound)
{
	bool low[2] = { res[0] == IBT_NONE, res[1] == IBT_NONE };
	char vb[2][24], rb[24];
	u64 v[2];
	int s;

	for (s = 0; s < 2; s++) {
		v[s] = low[s] ? bound[s] : res[s];
		if (low[s] && !v[s])
			v[s] = IBT_NONE;
		ibt_bench_fmt(vb[s], sizeof(vb[s]),
			      low[s] && v[s] != IBT_NONE ? ">" : "", v[s], 0);
	}
	if (low[0] && low[1])
		snprintf(rb, sizeof(rb), "-");
	else
		ibt_bench_ratio(rb, sizeof(rb),
				low[1] ? "<" : low[0] ? ">" : "", v[0], v[1]);
	pr_info("madcm_ibtest: bench %s %s %s %s ns/request\n", name, vb[0],
		vb[1], rb);
}

/*
 * Nanoseconds per access to a segment of a 1 MiB RMPP buffer, at the
 * segment numbers of @segs (1-based, random); 0 when it could not run.
 * Each access reads a byte of the segment, so none is left out.
 */
static u64 ibt_bench_segments(struct ibt_stack *st, const int *segs, u32 n,
			      u32 *sum)
{
	struct ib_mad_send_buf *sb;
	ktime_t t0;
	u64 ns;
	u32 i;
	u8 *p;

	sb = st->create(st->client, 1, 0, 1, IB_MGMT_VENDOR_HDR, 1 << 20,
			GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb))
		return 0;
	for (i = 1; i <= sb->seg_count; i++) {
		p = st->segment(sb, i);
		p[0] = (u8)i;
	}
	*sum = 0;
	t0 = ktime_get();
	for (i = 0; i < n; i++) {
		p = st->segment(sb, segs[i]);
		*sum += p[0];
		if (!(i % 1024))
			cond_resched();
	}
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	st->free_send(sb);
	return div64_u64(ns, n);
}

/* Random segments of a 1 MiB buffer: the same reads from both stacks. */
static void ibt_bench_seg_random(void)
{
	u32 nseg = DIV_ROUND_UP(1 << 20, IB_MGMT_VENDOR_DATA);
	u32 i, sum[2] = {};
	u64 res[2];
	int *segs;
	int s;

	segs = kvmalloc_array(IBT_BENCH_SEG_READS, sizeof(*segs), GFP_KERNEL);
	if (!segs) {
		ibt_bench_none("random-segment-1MiB-rmpp", "both",
			       "no memory for the segment numbers");
		ibt_bench_row("random-segment-1MiB-rmpp", IBT_NONE, IBT_NONE,
			      0, "ns");
		return;
	}
	for (i = 0; i < IBT_BENCH_SEG_READS; i++)
		segs[i] = 1 + get_random_u32_below(nseg);
	for (s = 0; s < 2; s++) {
		res[s] = ibt_bench_segments(&ibt_stacks[s], segs,
					    IBT_BENCH_SEG_READS, &sum[s]);
		if (!res[s]) {
			ibt_bench_none("random-segment-1MiB-rmpp",
				       ibt_stacks[s].name,
				       "no 1 MiB RMPP send buffer");
			res[s] = IBT_NONE;
		}
	}
	if (sum[0] != sum[1])
		pr_info("madcm_ibtest: bench-info random segment: the stacks read different bytes (%u, %u)\n",
			sum[0], sum[1]);
	ibt_bench_row("random-segment-1MiB-rmpp", res[0], res[1], 0, "ns");
	kvfree(segs);
}

/* A request's timeout, and how long all @n may take, in TCG. */
static u32 ibt_bench_rtt_timeout_ms(u32 n)
{
	return 4000 + 2 * n;
}

static u32 ibt_bench_rtt_wait_s(u32 n)
{
	return 60 + 3 * n / 1000;
}

/*
 * Round trips: nanoseconds for all @n; when they did not all finish
 * before the deadline (ibt_bench_rtt_wait_s(), or the budget's end when
 * that comes first), the time until it (a lower bound) and @*done
 * false. 0 when the round could not start.
 */
static u64 ibt_bench_rtt(struct ibt_stack *st, const union ib_gid *gid,
			 u32 n, bool *done)
{
	struct ib_mad_recv_wc **held, **answering;
	struct ib_mad_send_buf *sb;
	unsigned long deadline, wait;
	ktime_t t0;
	u64 ns = 0;
	u32 i;

	*done = false;
	st->n = n;
	atomic_set(&st->completed, 0);
	atomic_set(&st->responses, 0);
	atomic_set(&st->errors, 0);
	init_completion(&st->all);
	st->server_ah = NULL;
	/* The service holds up to all @n, then answers in random order. */
	held = kvcalloc(n, sizeof(*held), GFP_KERNEL);
	answering = kvcalloc(n, sizeof(*answering), GFP_KERNEL);
	st->client_ah = st->ah_to(gid);
	if (!held || !answering || IS_ERR(st->client_ah)) {
		if (!IS_ERR(st->client_ah))
			st->destroy_ah(st->client_ah);
		st->client_ah = NULL;
		kvfree(held);
		kvfree(answering);
		return 0;
	}
	spin_lock_bh(&st->lock);
	st->held = held;
	st->answering = answering;
	st->held_cap = n;
	st->nheld = 0;
	spin_unlock_bh(&st->lock);
	t0 = ktime_get();
	for (i = 0; i < n; i++) {
		sb = st->create(st->client, st->server_qpn(), 0, 0,
				IB_MGMT_VENDOR_HDR, IB_MGMT_VENDOR_DATA,
				GFP_KERNEL, IB_MGMT_BASE_VERSION);
		if (IS_ERR(sb))
			break;
		ibt_fill_get(sb, IBT_BENCH_CLASS, IBT_BENCH_ATTR, ibt_bench_oui,
			     (u64)st->client->hi_tid << 32 | i);
		sb->ah = st->client_ah;
		/* The last answer may come after all the others. */
		sb->timeout_ms = ibt_bench_rtt_timeout_ms(n);
		sb->retries = 3;
		if (st->post(sb, NULL)) {
			st->free_send(sb);
			break;
		}
	}
	if (i < n) {
		/* Count the ones never posted as done with errors. */
		atomic_add(n - i, &st->errors);
		if (atomic_add_return(n - i, &st->completed) == n)
			complete(&st->all);
	}
	wait = ibt_bench_cap(ibt_bench_rtt_wait_s(n) * HZ);
	deadline = jiffies + wait;
	while (!wait_for_completion_timeout(&st->all,
					    msecs_to_jiffies(IBT_BENCH_IDLE_MS))) {
		bool ready;

		if (time_after(jiffies, deadline)) {
			/*
			 * End the rest: nothing may outlive this round. Not
			 * one cancel per request: ib_core's walks its lists
			 * for each, quadratic at 100,000 (it held a CPU for
			 * over ten minutes under TCG).
			 */
			ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
			ibt_bench_flush_client(st);
			goto out;
		}
		/* All of them, or all that came before requests stopped. */
		spin_lock_bh(&st->lock);
		ready = st->nheld &&
			(st->nheld == st->held_cap ||
			 time_after(jiffies, st->last_rx +
				    msecs_to_jiffies(IBT_BENCH_IDLE_MS)));
		spin_unlock_bh(&st->lock);
		if (ready)
			ibt_bench_answer(st);
	}
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	*done = true;
out:
	/* Answer any leftovers so the service holds nothing. */
	ibt_bench_answer(st);
	spin_lock_bh(&st->lock);
	st->held = NULL;
	st->answering = NULL;
	st->held_cap = 0;
	spin_unlock_bh(&st->lock);
	/* A request that came meanwhile was freed by the handler. */
	kvfree(held);
	kvfree(answering);
	for (i = 0; i < 100 && atomic_read(&st->answers_out); i++)
		msleep(50);
	if (st->server_ah)
		st->destroy_ah(st->server_ah);
	/* The client that used it is gone, or done with it. */
	st->destroy_ah(st->client_ah);
	if (!*done)
		pr_info("madcm_ibtest: bench-info %s: %u round trips did not finish in %u s%s\n",
			st->name, n, jiffies_to_msecs(wait) / 1000,
			wait < ibt_bench_rtt_wait_s(n) * HZ ?
			" (the rest of the bench's budget)" : "");
	st->server_ah = NULL;
	st->client_ah = NULL;
	return ns;
}

/* Free memory in bytes, once the per-CPU counters have been folded. */
static s64 ibt_free_bytes(void)
{
	struct sysinfo si;

	/* vmstat folds each CPU's differences once a second. */
	msleep(2500);
	si_meminfo(&si);
	return (s64)si.freeram * si.mem_unit;
}

/*
 * One RMPP Set of @len bytes from the client to the sink: nanoseconds
 * until the sender is done and the sink has the whole of it, or 0 and
 * in @why what went wrong. It waits IBT_BENCH_RMPP_WAIT_S at most, never
 * past the budget; a send still outstanding then is ended by replacing
 * the client (ibt_bench_flush_client()), so that none outlives it.
 */
static u64 ibt_bench_rmpp_xfer(struct ibt_stack *st, u32 len, u32 tid,
			       const char **why)
{
	struct ib_mad_send_buf *sb;
	unsigned long wait, end;
	ktime_t t0;
	u64 ns;
	int i;

	wait = ibt_bench_cap(IBT_BENCH_RMPP_WAIT_S * HZ);
	if (!wait) {
		*why = "not run: the bench's time budget was spent";
		return 0;
	}
	if (!st->client) {
		*why = "no client agent";
		return 0;
	}
	sb = st->create(st->client, st->server_qpn(), 0, 1, IB_MGMT_VENDOR_HDR,
			len, GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		*why = "no send buffer";
		return 0;
	}
	ibt_fill_get(sb, IBT_BENCH_CLASS, IBT_BENCH_ATTR, ibt_bench_oui,
		     (u64)st->client->hi_tid << 32 | tid);
	((struct ib_mad_hdr *)sb->mad)->method = IB_MGMT_METHOD_SET;
	for (i = 1; i <= sb->seg_count; i++)
		memset(st->segment(sb, i), (u8)i, sb->seg_size);
	sb->ah = st->client_ah;
	/* No response: done when every segment is acknowledged. */
	sb->timeout_ms = 0;
	sb->retries = 10;
	st->n = 1;
	st->rmpp_mad_len = 0;
	atomic_set(&st->completed, 0);
	atomic_set(&st->errors, 0);
	reinit_completion(&st->all);
	reinit_completion(&st->rmpp_recvd);
	t0 = ktime_get();
	end = jiffies + wait;
	if (st->post(sb, NULL)) {
		st->free_send(sb);
		*why = "the post failed";
		return 0;
	}
	if (!wait_for_completion_timeout(&st->all, wait)) {
		ibt_bench_flush_client(st);
		*why = "the sender did not finish in time";
		return 0;
	}
	if (!wait_for_completion_timeout(&st->rmpp_recvd,
					 time_before(jiffies, end) ?
					 end - jiffies : 1)) {
		*why = "the receiver did not get the whole transfer in time";
		return 0;
	}
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	if (atomic_read(&st->errors) ||
	    st->rmpp_mad_len < IB_MGMT_VENDOR_HDR + (size_t)len) {
		pr_info("madcm_ibtest: bench-info %s: RMPP transfer failed (%d errors, %zu bytes)\n",
			st->name, atomic_read(&st->errors), st->rmpp_mad_len);
		*why = "the transfer failed";
		return 0;
	}
	return ns;
}

/*
 * 1 MiB RMPP throughput on rxe, best of three each; MB/s in tenths in
 * @tenths, IBT_NONE for a stack that finished none. A stack whose
 * transfer fails is given no more rounds: a transfer that timed out
 * would only time out again, and each takes a minute.
 */
static void ibt_bench_rmpp_rate(const union ib_gid *gid, u64 *tenths)
{
	u64 best[2] = { IBT_NONE, IBT_NONE };
	const char *why[2] = {};
	int i, s;

	for (s = 0; s < 2; s++) {
		ibt_stacks[s].client_ah = ibt_stacks[s].ah_to(gid);
		if (IS_ERR(ibt_stacks[s].client_ah)) {
			ibt_stacks[s].client_ah = NULL;
			why[s] = "no address handle";
		}
	}
	for (i = 0; i < IBT_BENCH_ROUNDS; i++) {
		for (s = 0; s < 2; s++) {
			struct ibt_stack *st = &ibt_stacks[s];
			u64 ns;

			if (why[s])
				continue;
			ns = ibt_bench_rmpp_xfer(st, IBT_BENCH_RMPP_LEN,
						 0x10000 + i, &why[s]);
			if (!ns) {
				pr_info("madcm_ibtest: bench-info %s: 1 MiB RMPP on rxe, round %d: not measured (%s)\n",
					st->name, i + 1, why[s]);
				continue;
			}
			pr_info("madcm_ibtest: bench-info %s: 1 MiB RMPP on rxe: %llu us\n",
				st->name, div64_u64(ns, NSEC_PER_USEC));
			best[s] = min(best[s], ns);
		}
	}
	for (s = 0; s < 2; s++) {
		tenths[s] = best[s] == IBT_NONE ? IBT_NONE :
			    div64_u64((u64)IBT_BENCH_RMPP_LEN * 10000, best[s]);
		if (best[s] == IBT_NONE)
			ibt_bench_none("rmpp-1MiB-rxe", ibt_stacks[s].name,
				       "%s", why[s]);
	}
	ibt_bench_row("rmpp-1MiB-rxe", tenths[0], tenths[1], 1, "MB/s");
	for (s = 0; s < 2; s++) {
		if (ibt_stacks[s].client_ah)
			ibt_stacks[s].destroy_ah(ibt_stacks[s].client_ah);
		ibt_stacks[s].client_ah = NULL;
	}
}

/*
 * Bytes per outstanding request, in @bytes: @n Gets posted to a QP that
 * does not exist, so that all wait for a response; then cancelled. False
 * and in @why what went wrong when not all could be posted.
 */
static bool ibt_bench_mem_sends(struct ibt_stack *st, const union ib_gid *gid,
				u32 n, s64 *bytes, const char **why)
{
	struct ib_mad_send_buf **sbs;
	struct ib_mad_send_buf *sb;
	s64 before, after;
	u8 *gone;
	u32 i, posted;

	sbs = kvmalloc_array(n, sizeof(*sbs), GFP_KERNEL);
	gone = kvzalloc(n, GFP_KERNEL);
	st->client_ah = st->ah_to(gid);
	if (!sbs || !gone || IS_ERR(st->client_ah)) {
		*why = IS_ERR(st->client_ah) ? "no address handle" :
		       "no memory for the list of sends";
		posted = 0;
		goto out;
	}
	st->n = n;
	atomic_set(&st->completed, 0);
	atomic_set(&st->errors, 0);
	reinit_completion(&st->all);
	before = ibt_free_bytes();
	for (posted = 0; posted < n; posted++) {
		sb = st->create(st->client, IBT_BENCH_DEAD_QPN, 0, 0,
				IB_MGMT_VENDOR_HDR, IB_MGMT_VENDOR_DATA,
				GFP_KERNEL, IB_MGMT_BASE_VERSION);
		if (IS_ERR(sb))
			break;
		ibt_fill_get(sb, IBT_BENCH_CLASS, IBT_BENCH_ATTR, ibt_bench_oui,
			     (u64)st->client->hi_tid << 32 | (0x100000 + posted));
		sb->ah = st->client_ah;
		sb->timeout_ms = 600000;
		sb->retries = 0;
		sb->context[1] = &gone[posted];
		if (st->post(sb, NULL)) {
			st->free_send(sb);
			break;
		}
		sbs[posted] = sb;
	}
	after = ibt_free_bytes();
	if (posted < n && atomic_add_return(n - posted, &st->completed) == n)
		complete(&st->all);
	for (i = 0; i < posted; i++) {
		if (!READ_ONCE(gone[i]))
			st->cancel(sbs[i]);
		cond_resched();
	}
	if (!wait_for_completion_timeout(&st->all, 120 * HZ))
		pr_info("madcm_ibtest: bench-info %s: cancelled requests did not all complete\n",
			st->name);
	if (posted < n)
		*why = "not all requests could be posted";
	else
		*bytes = div_s64(before - after, n);
out:
	if (!IS_ERR_OR_NULL(st->client_ah))
		st->destroy_ah(st->client_ah);
	st->client_ah = NULL;
	kvfree(gone);
	kvfree(sbs);
	return posted == n;
}

/*
 * Bytes per 1 MiB RMPP reassembly that the sink holds, in @bytes; false
 * and in @why what went wrong when a transfer did not complete.
 */
static bool ibt_bench_mem_rmpp(struct ibt_stack *st, const union ib_gid *gid,
			       s64 *bytes, const char **why)
{
	s64 before, after = 0;
	u32 i, ok = 0;

	st->client_ah = st->ah_to(gid);
	if (IS_ERR(st->client_ah)) {
		st->client_ah = NULL;
		*why = "no address handle";
		return false;
	}
	/* One first, so that any cache on the way is warm. */
	if (!ibt_bench_rmpp_xfer(st, IBT_BENCH_RMPP_LEN, 0x20000, why))
		goto out;
	st->nheld_rmpp = 0;
	st->hold_rmpp = true;
	before = ibt_free_bytes();
	for (i = 0; i < IBT_BENCH_MEM_RMPP; i++) {
		if (!ibt_bench_rmpp_xfer(st, IBT_BENCH_RMPP_LEN, 0x20001 + i,
					 why))
			break;
		ok++;
	}
	after = ibt_free_bytes();
	st->hold_rmpp = false;
	for (i = 0; i < st->nheld_rmpp; i++)
		st->free_recv(st->held_rmpp[i]);
	st->nheld_rmpp = 0;
out:
	st->destroy_ah(st->client_ah);
	st->client_ah = NULL;
	if (ok != IBT_BENCH_MEM_RMPP)
		return false;
	*bytes = div_s64(before - after, IBT_BENCH_MEM_RMPP);
	return true;
}

/*
 * Round trips per outstanding count up to @max; the stacks alternate,
 * the best round counts (TCG guests are noisy), one round from 50,000
 * up. A round in which a request failed is no figure; after one that
 * did not finish, that stack gets no more rounds of the same count.
 */
static void ibt_bench_rtts(const union ib_gid *gid, u32 max)
{
	static const u32 outstanding[] = { 1000, 10000, 50000, 100000 };
	u64 res[2], bound[2];
	const char *why[2];
	bool spent[2];
	char name[32];
	int i, j, s;

	for (j = 0; j < ARRAY_SIZE(outstanding) && outstanding[j] <= max; j++) {
		u32 n = outstanding[j];
		int rounds = n < 50000 ? IBT_BENCH_ROUNDS : 1;

		snprintf(name, sizeof(name), "rtt-%u-outstanding", n);
		res[0] = IBT_NONE;
		res[1] = IBT_NONE;
		bound[0] = 0;
		bound[1] = 0;
		why[0] = NULL;
		why[1] = NULL;
		spent[0] = false;
		spent[1] = false;
		for (i = 0; i < rounds; i++) {
			for (s = 0; s < 2; s++) {
				struct ibt_stack *st = &ibt_stacks[s];
				bool done;
				u64 ns;

				if (bound[s])
					continue;
				if (!ibt_bench_left()) {
					spent[s] = true;
					continue;
				}
				ns = ibt_bench_rtt(st, gid, n, &done);
				pr_info("madcm_ibtest: bench-info %s: %u round trips, random order: %llu ms, %d responses, %d errors\n",
					st->name, n,
					div64_u64(ns, NSEC_PER_MSEC),
					atomic_read(&st->responses),
					atomic_read(&st->errors));
				if (!ns)
					why[s] = "the round could not start";
				else if (done && atomic_read(&st->errors))
					why[s] = "requests failed in the round";
				else if (done)
					res[s] = min(res[s], div64_u64(ns, n));
				else
					bound[s] = div64_u64(ns, n) ?: 1;
			}
		}
		for (s = 0; s < 2; s++) {
			if (res[s] != IBT_NONE)
				continue;
			if (bound[s])
				ibt_bench_none(name, ibt_stacks[s].name,
					       "did not finish: >%llu ns/request is a lower bound",
					       bound[s]);
			else if (why[s])
				ibt_bench_none(name, ibt_stacks[s].name, "%s",
					       why[s]);
			else if (spent[s])
				ibt_bench_none_spent(name, ibt_stacks[s].name);
		}
		ibt_bench_rtt_row(name, res, bound);
	}
}

/* "bench GID [MAX [SECONDS]]": every figure for both stacks. */
int ibt_bench(int argc, char **argv)
{
	static const struct {
		const char *name;
		int rmpp, len;
		u32 iters;
	} sizes[] = {
		{ "create-free-256B", 0, IB_MGMT_VENDOR_DATA, 20000 },
		{ "create-free-64KiB-rmpp", 1, 64 << 10, 1000 },
		{ "create-free-1MiB-rmpp", 1, 1 << 20, 50 },
	};
	u64 res[2], rate[2];
	u32 max = IBT_BENCH_MAX, budget = IBT_BENCH_BUDGET_S;
	const char *why[2];
	union ib_gid gid;
	int i, j, s, ret;
	bool ok[2];

	if (argc < 2 || ibt_parse_gid(argv[1], &gid))
		return -EINVAL;
	if (argc > 2 && (kstrtou32(argv[2], 0, &max) || !max))
		return -EINVAL;
	if (argc > 3 && (kstrtou32(argv[3], 0, &budget) || !budget ||
			 budget > 24 * 3600))
		return -EINVAL;
	ret = ibt_bench_agents();
	if (ret)
		return ret;
	ibt_bench_budget_s = budget;
	ibt_bench_end = jiffies + (unsigned long)budget * HZ;
	pr_info("madcm_ibtest: bench-info the bench's time budget: %u s\n",
		budget);
	for (s = 0; s < 2; s++) {
		init_completion(&ibt_stacks[s].all);
		init_completion(&ibt_stacks[s].rmpp_recvd);
	}
	/* Alternating stacks, the best of three rounds each. */
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		res[0] = IBT_NONE;
		res[1] = IBT_NONE;
		for (j = 0; j < IBT_BENCH_ROUNDS; j++) {
			for (s = 0; s < 2; s++) {
				u64 ns = ibt_bench_create(&ibt_stacks[s],
							  sizes[i].rmpp,
							  sizes[i].len,
							  sizes[i].iters);

				if (ns)
					res[s] = min(res[s], ns);
			}
		}
		for (s = 0; s < 2; s++)
			if (res[s] == IBT_NONE)
				ibt_bench_none(sizes[i].name, ibt_stacks[s].name,
					       "no send buffer");
		ibt_bench_row(sizes[i].name, res[0], res[1], 0, "ns");
	}
	ibt_bench_seg_random();

	/* Memory first, before the round trips leave deferred frees. */
	/*
	 * Twice each, alternating, the larger figure counting: a free
	 * deferred from an earlier phase can only make one look smaller.
	 */
	res[0] = IBT_NONE;
	res[1] = IBT_NONE;
	for (i = 0; i < 2; i++) {
		for (s = 0; s < 2; s++) {
			s64 b;

			if (!ibt_bench_mem_sends(&ibt_stacks[s], &gid,
						 IBT_BENCH_MEM_SENDS, &b,
						 &why[s])) {
				pr_info("madcm_ibtest: bench-info %s: bytes per outstanding request not measured (%s)\n",
					ibt_stacks[s].name, why[s]);
				continue;
			}
			pr_info("madcm_ibtest: bench-info %s: %lld bytes per outstanding request\n",
				ibt_stacks[s].name, b);
			b = max_t(s64, b, 0);
			res[s] = res[s] == IBT_NONE ? b : max_t(u64, res[s], b);
		}
	}
	for (s = 0; s < 2; s++)
		if (res[s] == IBT_NONE)
			ibt_bench_none("mem-per-outstanding-256B-request",
				       ibt_stacks[s].name, "%s", why[s]);
	ibt_bench_row("mem-per-outstanding-256B-request", res[0], res[1], 0,
		      "bytes");
	for (s = 0; s < 2; s++) {
		s64 b = 0;

		ok[s] = ibt_bench_mem_rmpp(&ibt_stacks[s], &gid, &b, &why[s]);
		res[s] = ok[s] ? max_t(s64, 0, b) : IBT_NONE;
		if (!ok[s])
			ibt_bench_none("mem-per-1MiB-rmpp-reassembly",
				       ibt_stacks[s].name, "%s", why[s]);
	}
	ibt_bench_row("mem-per-1MiB-rmpp-reassembly", res[0], res[1], 0,
		      "bytes");

	/*
	 * RMPP throughput before the round trips: a round that ib_core did
	 * not finish leaves its QP1 answering and flushing for minutes, and
	 * the transfers after it timed out (issue 32).
	 */
	ibt_bench_rmpp_rate(&gid, rate);
	/* For the script: the loopback fabric's row takes ib_core's rate. */
	if (rate[1] == IBT_NONE)
		pr_info("madcm_ibtest: bench-info ib_core rxe 1 MiB RMPP rate - MB/s\n");
	else
		pr_info("madcm_ibtest: bench-info ib_core rxe 1 MiB RMPP rate %llu.%llu MB/s\n",
			rate[1] / 10, rate[1] % 10);

	ibt_bench_rtts(&gid, max);
	if (!ibt_bench_left())
		pr_info("madcm_ibtest: bench-info the bench's %u s were spent before its end\n",
			budget);
	return 0;
}
