// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_rnic_verbs.ko: the software RNIC's kernel verbs, seen from a
 * consumer, for the VM tests (tests/vm/50-rnic-link.sh). It uses ib_core's
 * API only, no madcm symbol, so it loads before madcm.ko: its ib_client is
 * then removed after madcm's own, and it sees what removing a device does
 * to a QP that still holds work requests.
 *
 * When the device named by the parameter "dev" (default m0) appears, it
 * runs its checks (results in /sys/kernel/debug/madcm_rnic_verbs/log, one
 * "ok:" or "FAIL:" line each) and leaves one QP in INIT with receive and
 * fast-registration work requests posted. When the device goes away it
 * polls that QP's CQ and logs whether each work request completed exactly
 * once with IB_WC_WR_FLUSH_ERR. /sys/kernel/debug/madcm_rnic_verbs/port
 * shows the port as ib_query_port() reports it.
 *
 * Expectations come from the verbs' definitions (IBTA vol. 1 ch. 10-11,
 * the RDMAC verbs for iWARP), not from madcm's code.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

static char *dev = "m0";
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "the ib_device to test (default m0)");
static char *netdev = "veth0";
module_param(netdev, charp, 0444);
MODULE_PARM_DESC(netdev, "its net_device (default veth0)");

#define LOG_SIZE	8192
#define LIVE_RECV	4
#define LIVE_SEND	2

static DEFINE_MUTEX(rv_lock);
static char *rv_log;
static size_t rv_log_len;
static struct ib_device *rv_dev;
static struct dentry *rv_dir;

/* The QP left live for the removal check. */
static struct {
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_mr *mr;
	atomic_t handler_calls;
} live;

static __printf(1, 2) void rv_printf(const char *fmt, ...)
{
	va_list ap;

	if (rv_log_len >= LOG_SIZE - 1)
		return;
	va_start(ap, fmt);
	rv_log_len += vscnprintf(rv_log + rv_log_len, LOG_SIZE - rv_log_len,
				 fmt, ap);
	va_end(ap);
}

#define expect(cond, what, ...) \
	rv_printf("%s: " what "\n", (cond) ? "ok" : "FAIL", ##__VA_ARGS__)

struct rv_cq_ctx {
	atomic_t handler_calls;
	atomic_t cq_err_events;
};

static void rv_comp_handler(struct ib_cq *cq, void *ctx)
{
	struct rv_cq_ctx *c = ctx;

	atomic_inc(&c->handler_calls);
}

static void rv_cq_event(struct ib_event *ev, void *ctx)
{
	struct rv_cq_ctx *c = ctx;

	if (ev->event == IB_EVENT_CQ_ERR)
		atomic_inc(&c->cq_err_events);
}

static void rv_live_handler(struct ib_cq *cq, void *ctx)
{
	atomic_inc(&live.handler_calls);
}

/*
 * The device calls handlers from its own workqueue, after the call that
 * made them due has returned (Documentation/rnic.rst, "Consumers'
 * handlers"): a count of handler calls is read once they had a second
 * to run.
 */
static int rv_calls(atomic_t *calls, int want)
{
	int i;

	for (i = 0; i < 50 && atomic_read(calls) < want; i++)
		msleep(20);
	/* one more moment, for a call that should not come */
	msleep(20);
	return atomic_read(calls);
}

static struct ib_cq *rv_cq(struct ib_device *ibdev, int cqe,
			   struct rv_cq_ctx *ctx)
{
	struct ib_cq_init_attr attr = { .cqe = cqe };

	return ib_create_cq(ibdev, rv_comp_handler, rv_cq_event, ctx, &attr);
}

static struct ib_qp *rv_qp(struct ib_pd *pd, struct ib_cq *cq, u32 wr,
			   u32 sge, enum ib_qp_type type)
{
	struct ib_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = wr,
			.max_recv_wr = wr,
			.max_send_sge = sge,
			.max_recv_sge = sge,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = type,
	};

	return ib_create_qp(pd, &attr);
}

static int rv_to_state(struct ib_qp *qp, enum ib_qp_state state)
{
	struct ib_qp_attr attr = {
		.qp_state = state,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				   IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ,
	};

	return ib_modify_qp(qp, &attr, IB_QP_STATE |
			    (state == IB_QPS_INIT ? IB_QP_ACCESS_FLAGS : 0));
}

static int rv_post_recv(struct ib_qp *qp, u64 wr_id)
{
	struct ib_recv_wr wr = { .wr_id = wr_id };

	return ib_post_recv(qp, &wr, NULL);
}

static int rv_post_reg(struct ib_qp *qp, struct ib_mr *mr, u64 wr_id,
		       int flags)
{
	struct ib_reg_wr wr = {
		.wr = {
			.wr_id = wr_id,
			.opcode = IB_WR_REG_MR,
			.send_flags = flags,
		},
		.mr = mr,
		.key = mr->rkey,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};

	return ib_post_send(qp, &wr.wr, NULL);
}

/*
 * Polls every completion; counts those with each wr_id below @n (seen[]),
 * how many there were, and how many did not have @status.
 */
static int rv_drain(struct ib_cq *cq, int *seen, int n,
		    enum ib_wc_status status, int *bad)
{
	struct ib_wc wc;
	int total = 0;

	*bad = 0;
	while (ib_poll_cq(cq, 1, &wc) == 1) {
		total++;
		if (wc.wr_id < n)
			seen[wc.wr_id]++;
		if (wc.status != status)
			(*bad)++;
	}
	return total;
}

static bool rv_once(const int *seen, int from, int to)
{
	int i;

	for (i = from; i < to; i++)
		if (seen[i] != 1)
			return false;
	return true;
}

static void rv_check_device(struct ib_device *ibdev)
{
	struct net_device *nd = dev_get_by_name(&init_net, netdev);
	union ib_gid gid;
	int ret;

	expect(ibdev->node_type == RDMA_NODE_RNIC, "node type RNIC");
	expect(rdma_protocol_iwarp(ibdev, 1), "port 1 speaks iWARP");
	expect(ibdev->attrs.device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS,
	       "memory management extensions (fast registration)");
	expect(ibdev->attrs.max_fast_reg_page_list_len > 0 &&
	       ibdev->attrs.max_qp > 0 && ibdev->attrs.max_cqe > 0 &&
	       ibdev->attrs.max_qp_wr > 0 && ibdev->attrs.max_send_sge > 0,
	       "device limits stated");
	ret = rdma_query_gid(ibdev, 1, 0, &gid);
	expect(!ret && nd && ether_addr_equal(gid.raw, nd->dev_addr),
	       "GID 0 holds %s's MAC (%d)", netdev, ret);
	dev_put(nd);
}

static void rv_check_limits(struct ib_device *ibdev, struct ib_pd *pd,
			    struct ib_cq *cq)
{
	struct ib_cq_init_attr big = { .cqe = ibdev->attrs.max_cqe + 1 };
	struct ib_qp *qp;
	struct ib_cq *bad;

	bad = ib_create_cq(ibdev, NULL, NULL, NULL, &big);
	expect(IS_ERR(bad), "CQ above max_cqe refused (%ld)",
	       IS_ERR(bad) ? PTR_ERR(bad) : 0);
	if (!IS_ERR(bad))
		ib_destroy_cq(bad);

	qp = rv_qp(pd, cq, ibdev->attrs.max_qp_wr + 1, 1, IB_QPT_RC);
	expect(PTR_ERR_OR_ZERO(qp) == -EINVAL, "QP above max_qp_wr: -EINVAL (%d)",
	       PTR_ERR_OR_ZERO(qp));
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
	qp = rv_qp(pd, cq, 4, ibdev->attrs.max_send_sge + 1, IB_QPT_RC);
	expect(PTR_ERR_OR_ZERO(qp) == -EINVAL, "QP above max_sge: -EINVAL (%d)",
	       PTR_ERR_OR_ZERO(qp));
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
	qp = rv_qp(pd, cq, 4, 1, IB_QPT_UD);
	expect(IS_ERR(qp), "UD QP refused (%d)", PTR_ERR_OR_ZERO(qp));
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
}

/* Entering ERROR completes each queued WR once; notification rules. */
static void rv_check_flush(struct ib_device *ibdev, struct ib_pd *pd)
{
	struct rv_cq_ctx ctx = {};
	const struct ib_send_wr *bad_wr;
	struct ib_rdma_wr write = {
		.wr = { .wr_id = 20, .opcode = IB_WR_RDMA_WRITE },
	};
	struct ib_qp_attr attr;
	struct ib_qp_init_attr init;
	int seen[32] = {}, bad, n, ret, i;
	struct ib_wc wc;
	struct ib_mr *mr;
	struct ib_cq *cq;
	struct ib_qp *qp;

	cq = rv_cq(ibdev, 16, &ctx);
	if (IS_ERR(cq)) {
		expect(false, "create CQ (%ld)", PTR_ERR(cq));
		return;
	}
	qp = rv_qp(pd, cq, 8, 2, IB_QPT_RC);
	mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	if (IS_ERR(qp) || IS_ERR(mr)) {
		expect(false, "create QP and MR (%d, %d)", PTR_ERR_OR_ZERO(qp),
		       PTR_ERR_OR_ZERO(mr));
		goto out;
	}
	ret = ib_query_qp(qp, &attr, IB_QP_STATE, &init);
	expect(!ret && attr.qp_state == IB_QPS_RESET, "a new QP is in RESET");
	expect(rv_post_recv(qp, 30) == -EINVAL, "no receive posted in RESET");
	expect(!rv_to_state(qp, IB_QPS_INIT), "RESET -> INIT");
	expect(rv_to_state(qp, IB_QPS_RTS) == -EINVAL,
	       "INIT -> RTS refused without a connection");
	expect(rv_to_state(qp, IB_QPS_SQD) == -EINVAL,
	       "INIT -> SQD (Closing) refused without a connection");
	ret = ib_query_qp(qp, &attr, IB_QP_STATE, &init);
	expect(!ret && attr.qp_state == IB_QPS_INIT, "still INIT");

	/* iWARP verbs take send WRs before RTS; they wait for the stream. */
	ret = ib_post_send(qp, &write.wr, &bad_wr);
	expect(!ret, "RDMA WRITE queued in INIT (%d)", ret);
	for (i = 1; i <= 3; i++)
		expect(!rv_post_recv(qp, i), "receive %d queued in INIT", i);
	expect(!rv_post_reg(qp, mr, 4, IB_SEND_SIGNALED),
	       "signaled REG_MR queued in INIT");
	expect(!rv_post_reg(qp, mr, 5, 0), "unsignaled REG_MR queued in INIT");
	expect(ib_poll_cq(cq, 1, &wc) == 0, "nothing completes in INIT");

	/* Armed for solicited only: flush completions are not solicited. */
	ib_req_notify_cq(cq, IB_CQ_SOLICITED);
	expect(!rv_to_state(qp, IB_QPS_ERR), "INIT -> ERROR");
	n = rv_drain(cq, seen, ARRAY_SIZE(seen), IB_WC_WR_FLUSH_ERR, &bad);
	expect(n == 6 && !bad && rv_once(seen, 1, 6) && seen[20] == 1,
	       "ERROR flushed each of the 6 WRs once (%d completions, %d not FLUSH_ERR)",
	       n, bad);
	expect(rv_calls(&ctx.handler_calls, 0) == 0,
	       "no handler call when armed for solicited only");

	ib_req_notify_cq(cq, IB_CQ_NEXT_COMP);
	expect(!rv_post_recv(qp, 6), "receive posted in ERROR");
	expect(!ib_post_send(qp, &write.wr, &bad_wr),
	       "RDMA WRITE posted in ERROR");
	n = rv_drain(cq, seen, ARRAY_SIZE(seen), IB_WC_WR_FLUSH_ERR, &bad);
	expect(n == 2 && !bad && seen[6] == 1 && seen[20] == 2,
	       "WRs posted in ERROR complete at once, flushed (%d)", n);
	n = rv_calls(&ctx.handler_calls, 1);
	expect(n == 1, "one handler call for the armed CQ (%d)", n);
	expect(ib_req_notify_cq(cq, IB_CQ_NEXT_COMP |
				IB_CQ_REPORT_MISSED_EVENTS) == 0,
	       "empty CQ: no missed events");
	expect(!rv_to_state(qp, IB_QPS_RESET), "ERROR -> RESET");
	expect(!rv_to_state(qp, IB_QPS_INIT), "RESET -> INIT again");
out:
	if (!IS_ERR_OR_NULL(qp))
		ib_destroy_qp(qp);
	if (!IS_ERR_OR_NULL(mr))
		ib_dereg_mr(mr);
	ib_destroy_cq(cq);
}

/* A full CQ: the surplus is lost and IB_EVENT_CQ_ERR reported once. */
static void rv_check_overflow(struct ib_device *ibdev, struct ib_pd *pd)
{
	struct rv_cq_ctx ctx = {};
	int seen[8] = {}, bad, n, i;
	struct ib_cq *cq;
	struct ib_qp *qp;

	cq = rv_cq(ibdev, 2, &ctx);
	if (IS_ERR(cq))
		return;
	qp = rv_qp(pd, cq, 4, 1, IB_QPT_RC);
	if (!IS_ERR(qp)) {
		rv_to_state(qp, IB_QPS_INIT);
		for (i = 0; i < 4; i++)
			rv_post_recv(qp, i);
		rv_to_state(qp, IB_QPS_ERR);
		n = rv_drain(cq, seen, ARRAY_SIZE(seen), IB_WC_WR_FLUSH_ERR,
			     &bad);
		expect(n == 2, "a CQ of 2 holds 2 completions (%d)", n);
		n = rv_calls(&ctx.cq_err_events, 1);
		expect(n == 1,
		       "CQ overflow reported once as IB_EVENT_CQ_ERR (%d)", n);
		ib_destroy_qp(qp);
	}
	ib_destroy_cq(cq);
}

static void rv_check_mr(struct ib_device *ibdev, struct ib_pd *pd)
{
	u32 max = ibdev->attrs.max_fast_reg_page_list_len;
	struct scatterlist sg[5];
	struct page *pages[5] = {};
	struct ib_mr *mr;
	int i, n;

	mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, max + 1);
	expect(IS_ERR(mr), "MR above max_fast_reg_page_list_len refused");
	if (!IS_ERR(mr))
		ib_dereg_mr(mr);
	mr = ib_alloc_mr(pd, IB_MR_TYPE_SG_GAPS, 4);
	expect(IS_ERR(mr), "SG_GAPS MR refused");
	if (!IS_ERR(mr))
		ib_dereg_mr(mr);

	mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	expect(!IS_ERR(mr), "fast-registration MR of 4 pages");
	if (IS_ERR(mr))
		return;
	expect(mr->lkey == mr->rkey, "an iWARP STag: lkey == rkey");
	sg_init_table(sg, ARRAY_SIZE(sg));
	for (i = 0; i < ARRAY_SIZE(sg); i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i])
			goto out;
		sg_set_page(&sg[i], pages[i], PAGE_SIZE, 0);
		sg_dma_address(&sg[i]) = (u64)(uintptr_t)page_address(pages[i]);
		sg_dma_len(&sg[i]) = PAGE_SIZE;
	}
	n = ib_map_mr_sg(mr, sg, 3, NULL, PAGE_SIZE);
	expect(n == 3 && mr->length == 3 * PAGE_SIZE,
	       "map_mr_sg maps 3 pages (%d)", n);
	n = ib_map_mr_sg(mr, sg, 5, NULL, PAGE_SIZE);
	expect(n == 4, "map_mr_sg stops at the MR's 4 pages (%d of 5)", n);
out:
	for (i = 0; i < ARRAY_SIZE(pages); i++)
		if (pages[i])
			__free_page(pages[i]);
	expect(!ib_dereg_mr(mr), "dereg_mr");
}

/* The QP the device's removal must flush. */
static void rv_setup_live(struct ib_device *ibdev)
{
	struct ib_cq_init_attr cattr = { .cqe = 16 };
	int i, ret = 0;

	live.pd = ib_alloc_pd(ibdev, 0);
	if (IS_ERR(live.pd))
		goto fail;
	live.cq = ib_create_cq(ibdev, rv_live_handler, NULL, NULL, &cattr);
	if (IS_ERR(live.cq))
		goto fail;
	live.qp = rv_qp(live.pd, live.cq, 8, 1, IB_QPT_RC);
	live.mr = ib_alloc_mr(live.pd, IB_MR_TYPE_MEM_REG, 4);
	if (IS_ERR(live.qp) || IS_ERR(live.mr))
		goto fail;
	ret |= rv_to_state(live.qp, IB_QPS_INIT);
	for (i = 0; i < LIVE_RECV; i++)
		ret |= rv_post_recv(live.qp, i);
	for (i = 0; i < LIVE_SEND; i++)
		ret |= rv_post_reg(live.qp, live.mr, LIVE_RECV + i, 0);
	ib_req_notify_cq(live.cq, IB_CQ_NEXT_COMP);
	expect(!ret, "live QP %u with %d WRs posted", live.qp->qp_num,
	       LIVE_RECV + LIVE_SEND);
	return;
fail:
	expect(false, "live QP set up");
}

static void rv_teardown_live(void)
{
	if (!IS_ERR_OR_NULL(live.qp))
		ib_destroy_qp(live.qp);
	if (!IS_ERR_OR_NULL(live.mr))
		ib_dereg_mr(live.mr);
	if (!IS_ERR_OR_NULL(live.cq))
		ib_destroy_cq(live.cq);
	if (!IS_ERR_OR_NULL(live.pd))
		ib_dealloc_pd(live.pd);
	memset(&live, 0, sizeof(live));
}

static int rv_add(struct ib_device *ibdev)
{
	struct rv_cq_ctx ctx = {};
	struct ib_pd *pd;
	struct ib_cq *cq;

	if (strcmp(dev_name(&ibdev->dev), dev))
		return -EOPNOTSUPP;
	mutex_lock(&rv_lock);
	rv_log_len = 0;
	rv_printf("device %s\n", dev_name(&ibdev->dev));
	rv_check_device(ibdev);
	pd = ib_alloc_pd(ibdev, 0);
	expect(!IS_ERR(pd), "alloc PD");
	if (!IS_ERR(pd)) {
		cq = rv_cq(ibdev, 8, &ctx);
		expect(!IS_ERR(cq), "create CQ");
		if (!IS_ERR(cq)) {
			rv_check_limits(ibdev, pd, cq);
			ib_destroy_cq(cq);
		}
		rv_check_flush(ibdev, pd);
		rv_check_overflow(ibdev, pd);
		rv_check_mr(ibdev, pd);
		ib_dealloc_pd(pd);
	}
	rv_setup_live(ibdev);
	rv_dev = ibdev;
	mutex_unlock(&rv_lock);
	return 0;
}

static void rv_remove(struct ib_device *ibdev, void *data)
{
	int seen[LIVE_RECV + LIVE_SEND] = {}, bad, n;

	mutex_lock(&rv_lock);
	rv_dev = NULL;
	if (!IS_ERR_OR_NULL(live.cq)) {
		n = rv_drain(live.cq, seen, ARRAY_SIZE(seen),
			     IB_WC_WR_FLUSH_ERR, &bad);
		expect(n == LIVE_RECV + LIVE_SEND && !bad &&
		       rv_once(seen, 0, ARRAY_SIZE(seen)),
		       "removal flushed each of the live QP's %d WRs once (%d completions, %d not FLUSH_ERR)",
		       LIVE_RECV + LIVE_SEND, n, bad);
		n = rv_calls(&live.handler_calls, 1);
		expect(n >= 1, "removal called the armed CQ's handler (%d)",
		       n);
	}
	rv_teardown_live();
	rv_printf("removed\n");
	mutex_unlock(&rv_lock);
}

static struct ib_client rv_client = {
	.name = "madcm_rnic_verbs",
	.add = rv_add,
	.remove = rv_remove,
};

static int rv_log_show(struct seq_file *m, void *v)
{
	mutex_lock(&rv_lock);
	seq_write(m, rv_log, rv_log_len);
	mutex_unlock(&rv_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rv_log);

static int rv_port_show(struct seq_file *m, void *v)
{
	struct ib_port_attr attr;
	int ret = -ENODEV;

	mutex_lock(&rv_lock);
	if (rv_dev)
		ret = ib_query_port(rv_dev, 1, &attr);
	if (!ret)
		seq_printf(m, "state %d active_mtu %d max_mtu %d speed %u width %u gid_tbl_len %d\n",
			   attr.state, ib_mtu_enum_to_int(attr.active_mtu),
			   ib_mtu_enum_to_int(attr.max_mtu), attr.active_speed,
			   attr.active_width, attr.gid_tbl_len);
	else
		seq_printf(m, "error %d\n", ret);
	mutex_unlock(&rv_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rv_port);

static int __init rv_init(void)
{
	int ret;

	rv_log = kzalloc(LOG_SIZE, GFP_KERNEL);
	if (!rv_log)
		return -ENOMEM;
	rv_dir = debugfs_create_dir("madcm_rnic_verbs", NULL);
	debugfs_create_file("log", 0400, rv_dir, NULL, &rv_log_fops);
	debugfs_create_file("port", 0400, rv_dir, NULL, &rv_port_fops);
	ret = ib_register_client(&rv_client);
	if (ret) {
		debugfs_remove_recursive(rv_dir);
		kfree(rv_log);
	}
	return ret;
}

static void __exit rv_exit(void)
{
	ib_unregister_client(&rv_client);
	debugfs_remove_recursive(rv_dir);
	kfree(rv_log);
}

module_init(rv_init);
module_exit(rv_exit);
MODULE_DESCRIPTION("madcm test: the software RNIC's kernel verbs");
MODULE_LICENSE("GPL");
