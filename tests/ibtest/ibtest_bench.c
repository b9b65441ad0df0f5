// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_ibtest: the benchmark of madcm against ib_core's MAD layer on the
 * same rxe port, one command ("bench [N]"):
 *
 * - create+free of send buffers: 256 bytes, and 64 KiB and 1 MiB RMPP
 *   buffers (only created and freed: no transfer);
 * - random access to the segments of a 1 MiB RMPP buffer (4855
 *   segments): madcm_get_rmpp_segment() against ib_get_rmpp_segment(),
 *   the same random segment numbers for both;
 * - request/response round trips: a client posts N Gets at once to a
 *   service on the same port (madcm: its own UD QP; ib_core: QP1), which
 *   holds the requests and answers them in random order, in batches of up
 *   to IBT_BENCH_BATCH, or whatever it holds once requests stop coming;
 *   three rounds each, alternating, the best one counting.
 *
 * Each figure is printed for both, with the ratio madcm/ib_core (below 1:
 * madcm is faster). It is not a test: nothing is asserted about time.
 */
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <madcm/mad.h>

#include "madcm_ibtest.h"

#define IBT_BENCH_CLASS		0x31	/* vendor range 2, RMPP */
#define IBT_BENCH_ATTR		0x0031
#define IBT_BENCH_BATCH		1000
#define IBT_BENCH_N		4000
#define IBT_BENCH_IDLE_MS	50
#define IBT_BENCH_WAIT_S	120
#define IBT_BENCH_ROUNDS	3
#define IBT_BENCH_SEG_READS	20000

static const u8 ibt_bench_oui[3] = { 0x00, 0x14, 0x07 };

/* One MAD stack: madcm or ib_core, through the same signatures. */
struct ibt_stack {
	const char *name;
	struct ib_mad_send_buf *(*create)(struct ib_mad_agent *agent,
					  u32 remote_qpn, u16 pkey_index,
					  int rmpp_active, int hdr_len,
					  int data_len, gfp_t gfp,
					  u8 base_version);
	void (*free_send)(struct ib_mad_send_buf *sb);
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
	struct ib_ah *client_ah;
	struct ib_ah *server_ah;

	spinlock_t lock;	/* held, nheld, last_rx */
	struct ib_mad_recv_wc **held;
	u32 nheld;
	unsigned long last_rx;
	atomic_t completed, responses, errors, answers_out;
	u32 n;
	struct completion all;
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

/* Answer every request the service holds, in random order. */
static void ibt_bench_answer(struct ibt_stack *st)
{
	struct ib_mad_recv_wc **held, *wc;
	struct ib_mad_send_buf *sb;
	u32 n, i, j;

	spin_lock_bh(&st->lock);
	held = st->held;
	n = st->nheld;
	st->held = NULL;
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
	}
	kfree(held);
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
	bool full = false;

	spin_lock_bh(&st->lock);
	if (!st->held)
		st->held = kcalloc(IBT_BENCH_BATCH, sizeof(*st->held),
				   GFP_ATOMIC);
	if (st->held) {
		st->held[st->nheld++] = wc;
		full = st->nheld == IBT_BENCH_BATCH;
		wc = NULL;
	}
	st->last_rx = jiffies;
	spin_unlock_bh(&st->lock);
	if (wc)
		st->free_recv(wc);
	if (full)
		ibt_bench_answer(st);
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
	st->free_send(wc->send_buf);
	if (atomic_inc_return(&st->completed) == st->n)
		complete(&st->all);
}

static int ibt_bench_agents(void)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = IBT_BENCH_CLASS,
		.mgmt_class_version = 1,
	};
	struct ibt_stack *m = &ibt_stacks[0], *k = &ibt_stacks[1];

	if (m->client)
		return 0;
	memcpy(req.oui, ibt_bench_oui, sizeof(req.oui));
	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
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
	if (IS_ERR(m->server) || IS_ERR(m->client) || IS_ERR(k->server) ||
	    IS_ERR(k->client)) {
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
		st->client = NULL;
		st->server = NULL;
	}
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

static void ibt_bench_print(const char *what, const char *unit, u64 m, u64 k)
{
	u64 r = k ? div64_u64(m * 1000, k) : 0;

	pr_info("madcm_ibtest: bench %s: madcm %llu %s, ib_core %llu %s, madcm/ib_core %llu.%03llu\n",
		what, m, unit, k, unit, r / 1000, r % 1000);
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
	if (!segs)
		return;
	for (i = 0; i < IBT_BENCH_SEG_READS; i++)
		segs[i] = 1 + get_random_u32_below(nseg);
	for (s = 0; s < 2; s++)
		res[s] = ibt_bench_segments(&ibt_stacks[s], segs,
					    IBT_BENCH_SEG_READS, &sum[s]);
	if (sum[0] != sum[1])
		pr_info("madcm_ibtest: bench random segment: the stacks read different bytes (%u, %u)\n",
			sum[0], sum[1]);
	ibt_bench_print("random segment of a 1 MiB RMPP buffer", "ns",
			res[0], res[1]);
	kvfree(segs);
}

/* Round trips: nanoseconds for all @n, 0 when it did not finish. */
static u64 ibt_bench_rtt(struct ibt_stack *st, const union ib_gid *gid,
			 u32 n)
{
	struct ib_mad_send_buf *sb;
	unsigned long deadline;
	ktime_t t0;
	u64 ns = 0;
	u32 i;

	st->n = n;
	atomic_set(&st->completed, 0);
	atomic_set(&st->responses, 0);
	atomic_set(&st->errors, 0);
	init_completion(&st->all);
	st->server_ah = NULL;
	st->client_ah = st->ah_to(gid);
	if (IS_ERR(st->client_ah))
		return 0;
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
		sb->timeout_ms = 4000;
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
	deadline = jiffies + IBT_BENCH_WAIT_S * HZ;
	while (!wait_for_completion_timeout(&st->all,
					    msecs_to_jiffies(IBT_BENCH_IDLE_MS))) {
		bool idle;

		if (time_after(jiffies, deadline))
			goto out;
		spin_lock_bh(&st->lock);
		idle = st->nheld &&
		       time_after(jiffies, st->last_rx +
				  msecs_to_jiffies(IBT_BENCH_IDLE_MS));
		spin_unlock_bh(&st->lock);
		if (idle)
			ibt_bench_answer(st);
	}
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
out:
	/* Answer any leftovers so the service holds nothing. */
	ibt_bench_answer(st);
	for (i = 0; i < 100 && atomic_read(&st->answers_out); i++)
		msleep(50);
	if (st->server_ah)
		st->destroy_ah(st->server_ah);
	if (ns)
		st->destroy_ah(st->client_ah);
	else
		pr_info("madcm_ibtest: bench %s: round trips did not finish\n",
			st->name);
	st->server_ah = NULL;
	st->client_ah = NULL;
	return ns;
}

/* "bench GID [N]": every figure for both stacks. */
int ibt_bench(int argc, char **argv)
{
	static const struct {
		const char *what;
		int rmpp, len;
		u32 iters;
	} sizes[] = {
		{ "create+free 256 B", 0, IB_MGMT_VENDOR_DATA, 20000 },
		{ "create+free 64 KiB RMPP", 1, 64 << 10, 1000 },
		{ "create+free 1 MiB RMPP", 1, 1 << 20, 50 },
	};
	u64 res[2];
	union ib_gid gid;
	u32 n = IBT_BENCH_N;
	int i, s, ret;

	if (argc < 2 || ibt_parse_gid(argv[1], &gid))
		return -EINVAL;
	if (argc > 2 && (kstrtou32(argv[2], 0, &n) || !n))
		return -EINVAL;
	ret = ibt_bench_agents();
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (s = 0; s < 2; s++)
			res[s] = ibt_bench_create(&ibt_stacks[s], sizes[i].rmpp,
						  sizes[i].len,
						  sizes[i].iters);
		ibt_bench_print(sizes[i].what, "ns", res[0], res[1]);
	}
	ibt_bench_seg_random();
	/* Alternate the stacks, keep the best of each: TCG guests are noisy. */
	res[0] = U64_MAX;
	res[1] = U64_MAX;
	for (i = 0; i < IBT_BENCH_ROUNDS; i++) {
		for (s = 0; s < 2; s++) {
			u64 ns = ibt_bench_rtt(&ibt_stacks[s], &gid, n);

			pr_info("madcm_ibtest: bench %s: %u round trips, random order: %llu ms, %d responses, %d errors\n",
				ibt_stacks[s].name, n,
				div64_u64(ns, NSEC_PER_MSEC),
				atomic_read(&ibt_stacks[s].responses),
				atomic_read(&ibt_stacks[s].errors));
			if (ns)
				res[s] = min(res[s], div64_u64(ns, n));
		}
	}
	ibt_bench_print("round trip, thousands outstanding (best of 3)",
			"ns per request", res[0] == U64_MAX ? 0 : res[0],
			res[1] == U64_MAX ? 0 : res[1]);
	return 0;
}
