// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_rmpp_bench.ko: RMPP over the MAD test fabric, outside KUnit, for
 * people, on exported API only (<madcm/mad.h>, the fabric's madcm_loop_*):
 *
 *   /sys/kernel/debug/madcm_rmpp_bench/demo   reading it sends one 64 KiB RMPP
 *	transfer between two loopback ports and prints what each side
 *	counted: segments, ACKs, resends, and whether every byte arrived;
 *   /sys/kernel/debug/madcm_rmpp_bench/bench  reading it measures, for 64 KiB
 *	and 1 MiB payloads, the time to create and free a send buffer and
 *	the time of a whole transfer across two loopback ports. A benchmark,
 *	not a test: it prints figures and judges nothing.
 */
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <madcm/mad.h>
#include <madcm/mad_transport.h>

#include "tests/fabric/mad_loop.h"

#define RB_CLASS	IB_MGMT_CLASS_SUBN_ADM
#define RB_VERSION	2
#define RB_LID_A	1
#define RB_LID_B	2

struct rb_ctx {
	struct completion sent;
	struct completion recvd;
	enum ib_wc_status status;
	size_t len;
	bool exact;
	u32 nseg;
	size_t mad_len;
};

struct rb_env {
	struct madcm_loop_fabric *fab;
	struct madcm_port *a;
	struct madcm_port *b;
	struct ib_mad_agent *sender;
	struct ib_mad_agent *receiver;
	struct ib_ah *ah;
	struct rb_ctx ctx;
};

static u8 rb_pattern(size_t off)
{
	return (u8)(off * 13 + (off >> 8));
}

static void rb_send_handler(struct ib_mad_agent *agent,
			    struct ib_mad_send_wc *wc)
{
	struct rb_ctx *ctx = agent->context;

	ctx->status = wc->status;
	madcm_free_send_mad(wc->send_buf);
	complete(&ctx->sent);
}

static void rb_recv_handler(struct ib_mad_agent *agent,
			    struct ib_mad_send_buf *send_buf,
			    struct ib_mad_recv_wc *wc)
{
	int hdr = madcm_get_mad_data_offset(RB_CLASS);
	struct rb_ctx *ctx = agent->context;
	struct ib_mad_recv_buf *rb;
	size_t off = 0;
	bool exact = true;
	u32 n = 0;
	int j;

	list_for_each_entry(rb, &wc->rmpp_list, list) {
		const u8 *data = (const u8 *)rb->mad + hdr;

		n++;
		for (j = 0; j < sizeof(struct ib_mad) - hdr && off < ctx->len;
		     j++, off++)
			exact &= data[j] == rb_pattern(off);
	}
	ctx->exact = exact && off == ctx->len;
	ctx->nseg = n;
	ctx->mad_len = wc->mad_len;
	madcm_free_recv_mad(wc);
	complete(&ctx->recvd);
}

static void rb_env_free(struct rb_env *e)
{
	if (!IS_ERR_OR_NULL(e->ah))
		madcm_destroy_ah(e->ah);
	madcm_unregister_mad_agent(e->sender);
	madcm_unregister_mad_agent(e->receiver);
	madcm_loop_port_destroy(e->a);
	madcm_loop_port_destroy(e->b);
	madcm_loop_fabric_destroy(e->fab);
	kfree(e);
}

static struct rb_env *rb_env_new(void)
{
	struct rdma_ah_attr attr = { .type = RDMA_AH_ATTR_TYPE_IB };
	struct ib_mad_reg_req req = {
		.mgmt_class = RB_CLASS,
		.mgmt_class_version = RB_VERSION,
	};
	struct rb_env *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return NULL;
	set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	e->fab = madcm_loop_fabric_create(1);
	if (IS_ERR(e->fab))
		goto fail;
	e->a = madcm_loop_port_create(e->fab, RB_LID_A, false);
	if (IS_ERR(e->a))
		goto fail;
	e->b = madcm_loop_port_create(e->fab, RB_LID_B, false);
	if (IS_ERR(e->b))
		goto fail;
	e->sender = madcm_register_mad_agent(e->a, IB_QPT_GSI, NULL,
					     IB_MGMT_RMPP_VERSION,
					     rb_send_handler, rb_recv_handler,
					     &e->ctx, 0);
	if (IS_ERR(e->sender))
		goto fail;
	e->receiver = madcm_register_mad_agent(e->b, IB_QPT_GSI, &req,
					       IB_MGMT_RMPP_VERSION,
					       rb_send_handler,
					       rb_recv_handler, &e->ctx, 0);
	if (IS_ERR(e->receiver))
		goto fail;
	rdma_ah_set_dlid(&attr, RB_LID_B);
	e->ah = madcm_create_ah(e->a, &attr);
	if (IS_ERR(e->ah))
		goto fail;
	return e;
fail:
	rb_env_free(e);
	return NULL;
}

static struct ib_mad_send_buf *rb_create(struct ib_mad_agent *agent,
					 size_t len)
{
	return madcm_create_send_mad(agent, 1, 0, 1,
				     madcm_get_mad_data_offset(RB_CLASS), len,
				     GFP_KERNEL, IB_MGMT_BASE_VERSION);
}

/* One transfer of @len bytes; its time in ns, or a negative errno. */
static s64 rb_transfer(struct rb_env *e, size_t len, u32 tid)
{
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;
	ktime_t t0;
	size_t off;
	u32 n;

	sb = rb_create(e->sender, len);
	if (IS_ERR(sb))
		return PTR_ERR(sb);
	hdr = sb->mad;
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = RB_CLASS;
	hdr->class_version = RB_VERSION;
	hdr->method = IB_MGMT_METHOD_SET;
	hdr->tid = cpu_to_be64((u64)e->sender->hi_tid << 32 | tid);
	for (n = 1, off = 0; n <= sb->seg_count; n++) {
		u8 *d = madcm_get_rmpp_segment(sb, n);
		int j;

		for (j = 0; j < sb->seg_size && off < len; j++, off++)
			d[j] = rb_pattern(off);
	}
	sb->ah = e->ah;
	sb->retries = 10;
	reinit_completion(&e->ctx.sent);
	reinit_completion(&e->ctx.recvd);
	e->ctx.len = len;
	e->ctx.exact = false;
	t0 = ktime_get();
	if (madcm_post_send_mad(sb, NULL)) {
		madcm_free_send_mad(sb);
		return -EIO;
	}
	if (!wait_for_completion_timeout(&e->ctx.sent, 120 * HZ) ||
	    !wait_for_completion_timeout(&e->ctx.recvd, 120 * HZ))
		return -ETIMEDOUT;
	return ktime_to_ns(ktime_sub(ktime_get(), t0));
}

static long rb_cnt(struct madcm_port *port, const char *counter)
{
	return madcm_port_counter(port, counter);
}

static int rmpp_demo_show(struct seq_file *m, void *v)
{
	const size_t len = 64 << 10;
	struct rb_env *e = rb_env_new();
	s64 ns;

	if (!e)
		return -ENOMEM;
	init_completion(&e->ctx.sent);
	init_completion(&e->ctx.recvd);
	seq_printf(m, "rmpp demo: %zu bytes, SA class Set, from %s (LID %u) to %s (LID %u)\n",
		   len, madcm_port_name(e->a), RB_LID_A, madcm_port_name(e->b),
		   RB_LID_B);
	ns = rb_transfer(e, len, 1);
	madcm_loop_quiesce(e->fab);
	if (ns < 0) {
		seq_printf(m, "rmpp demo: transfer failed: %lld\n", ns);
		goto out;
	}
	seq_printf(m, "sender   %s: segments %ld, resent %ld, acks received %ld, status %s\n",
		   madcm_port_name(e->a), rb_cnt(e->a, "rmpp_tx_segments"),
		   rb_cnt(e->a, "rmpp_tx_resent_segments"),
		   rb_cnt(e->a, "rmpp_rx_acks"),
		   e->ctx.status == IB_WC_SUCCESS ? "success" : "error");
	seq_printf(m, "receiver %s: segments %ld, duplicates %ld, acks sent %ld, transfers %ld\n",
		   madcm_port_name(e->b), rb_cnt(e->b, "rmpp_rx_segments"),
		   rb_cnt(e->b, "rmpp_rx_drop_duplicate"),
		   rb_cnt(e->b, "rmpp_tx_acks"),
		   rb_cnt(e->b, "rmpp_rx_transfers"));
	seq_printf(m, "delivered: one receive completion, %u segments on rmpp_list, mad_len %zu, byte-exact %s\n",
		   e->ctx.nseg, e->ctx.mad_len, e->ctx.exact ? "yes" : "no");
	seq_printf(m, "time: %lld us\n", div_s64(ns, NSEC_PER_USEC));
out:
	rb_env_free(e);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rmpp_demo);

static void rb_bench_one(struct seq_file *m, struct rb_env *e, size_t len,
			 int creates, int rounds)
{
	long segs0 = rb_cnt(e->a, "rmpp_tx_segments");
	long acks0 = rb_cnt(e->b, "rmpp_tx_acks");
	struct ib_mad_send_buf *sb;
	s64 ns, total = 0;
	ktime_t t0;
	int i;

	t0 = ktime_get();
	for (i = 0; i < creates; i++) {
		sb = rb_create(e->sender, len);
		if (IS_ERR(sb)) {
			seq_printf(m, "%7zu bytes: create failed: %ld\n", len,
				   PTR_ERR(sb));
			return;
		}
		madcm_free_send_mad(sb);
	}
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	seq_printf(m, "%7zu bytes: create+free %lld ns (mean of %d)\n", len,
		   div_s64(ns, creates), creates);
	for (i = 0; i < rounds; i++) {
		ns = rb_transfer(e, len, (u32)len + i);
		if (ns < 0 || !e->ctx.exact) {
			seq_printf(m, "%7zu bytes: transfer %d failed: %lld\n",
				   len, i, ns);
			return;
		}
		total += ns;
	}
	madcm_loop_quiesce(e->fab);
	ns = div_s64(total, rounds);
	seq_printf(m, "%7zu bytes: transfer %lld us (mean of %d), %llu KiB/s, %ld segments and %ld ACKs each\n",
		   len, div_s64(ns, NSEC_PER_USEC), rounds,
		   div64_u64((u64)len * NSEC_PER_SEC, max_t(s64, ns, 1)) >> 10,
		   (rb_cnt(e->a, "rmpp_tx_segments") - segs0) / rounds,
		   (rb_cnt(e->b, "rmpp_tx_acks") - acks0) / rounds);
}

static int rmpp_bench_show(struct seq_file *m, void *v)
{
	struct rb_env *e = rb_env_new();

	if (!e)
		return -ENOMEM;
	init_completion(&e->ctx.sent);
	init_completion(&e->ctx.recvd);
	seq_puts(m, "rmpp bench: loopback ports, SA class (200 data bytes a segment)\n");
	rb_bench_one(m, e, 64 << 10, 200, 10);
	rb_bench_one(m, e, 1 << 20, 20, 3);
	rb_env_free(e);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rmpp_bench);

static struct dentry *rb_dir;

static int __init rb_init(void)
{
	rb_dir = debugfs_create_dir("madcm_rmpp_bench", NULL);
	debugfs_create_file("demo", 0400, rb_dir, NULL, &rmpp_demo_fops);
	debugfs_create_file("bench", 0400, rb_dir, NULL, &rmpp_bench_fops);
	return 0;
}

static void __exit rb_exit(void)
{
	debugfs_remove_recursive(rb_dir);
}

module_init(rb_init);
module_exit(rb_exit);

MODULE_DESCRIPTION("madcm test tool: RMPP demo and benchmark over the MAD test fabric");
MODULE_LICENSE("GPL");
