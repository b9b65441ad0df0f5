// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_ibtest: malformed MADs on the wire. A UD QP of the test's own
 * sends, to a QP at a GID, one datagram of each kind a MAD layer must
 * reject, with the GSI's Q_Key; the receiver's counters must show each
 * one rejected for its reason (tests/vm/42-mad-ib-hostile.sh reads them):
 *
 *   100 bytes, and 0 bytes             rx_drop_short (2)
 *   base version 2                     rx_drop_base_version
 *   class version 0x90                 rx_drop_class_version
 *   an SMP (class 0x01) to a GSI       rx_drop_wrong_qp
 *   a CM Get of an attribute           rx_drop_bad_method
 *   a response nobody asked for        rx_drop_unmatched_response
 *   a Send of a class nobody has       rx_drop_no_agent
 *   a Get of a class nobody has        tx_unsupported_reply
 *   300 bytes (more than a MAD)        rx_drop_long
 */
#include <linux/slab.h>
#include <madcm/mad.h>

#include "madcm_ibtest.h"

#define IBT_RAW_BUF	512
#define IBT_RAW_N	10

static const struct {
	u32 len;
	u8 base_version, mgmt_class, class_version, method;
	u16 attr;
} ibt_raw_mads[IBT_RAW_N] = {
	{ 100, 1, 0x09, 1, IB_MGMT_METHOD_GET, 0x10 },
	{ 0, 1, 0x09, 1, IB_MGMT_METHOD_GET, 0x10 },
	{ 256, 2, 0x09, 1, IB_MGMT_METHOD_GET, 0x10 },
	{ 256, 1, 0x09, 0x90, IB_MGMT_METHOD_GET, 0x10 },
	{ 256, 1, IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, IB_MGMT_METHOD_GET, 0x10 },
	{ 256, 1, IB_MGMT_CLASS_CM, 2, IB_MGMT_METHOD_GET, 0x10 },
	{ 256, 1, 0x09, 1, IB_MGMT_METHOD_GET_RESP, 0x10 },
	{ 256, 1, 0x09, 1, IB_MGMT_METHOD_SEND, 0x10 },
	{ 256, 1, 0x09, 1, IB_MGMT_METHOD_GET, 0x10 },
	{ 300, 1, 0x09, 1, IB_MGMT_METHOD_GET, 0x10 },
};

struct ibt_raw_ctx {
	struct ib_cqe cqe;
	struct completion done;
	enum ib_wc_status status;
};

static void ibt_raw_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ibt_raw_ctx *ctx = container_of(wc->wr_cqe, struct ibt_raw_ctx,
					       cqe);

	ctx->status = wc->status;
	complete(&ctx->done);
}

/* Bring a UD QP to RTS with the GSI's Q_Key. */
static int ibt_raw_start(struct ib_qp *qp)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qkey = IB_QP1_QKEY,
	};
	int ret;

	ret = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_QKEY);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

static int ibt_raw_send(struct ib_qp *qp, struct ib_ah *ah, u32 qpn,
			u8 *buf, u64 dma, u32 len)
{
	struct ibt_raw_ctx ctx = { .cqe.done = ibt_raw_done };
	struct ib_sge sge = {
		.addr = dma,
		.length = len,
		.lkey = qp->pd->local_dma_lkey,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = &ctx.cqe,
			.sg_list = &sge,
			.num_sge = len ? 1 : 0,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = ah,
		.remote_qpn = qpn,
		.remote_qkey = IB_QP1_QKEY,
	};
	int ret;

	init_completion(&ctx.done);
	ib_dma_sync_single_for_device(qp->device, dma, IBT_RAW_BUF,
				      DMA_TO_DEVICE);
	ret = ib_post_send(qp, &wr.wr, NULL);
	if (ret)
		return ret;
	if (!wait_for_completion_timeout(&ctx.done, 5 * HZ))
		return -ETIMEDOUT;	/* ctx is on the stack: cannot go on */
	return ctx.status == IB_WC_SUCCESS ? 0 : -EIO;
}

int ibt_raw(const union ib_gid *gid, u32 qpn)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_UD,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 4, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.port_num = 1,
	};
	struct ib_device *dev = ibt.dev;
	struct ib_ah *ah = NULL;
	struct ib_qp *qp = NULL;
	struct ib_cq *cq;
	struct ib_pd *pd;
	struct ib_mad_hdr *hdr;
	u8 *buf;
	u64 dma;
	int i, ret;

	buf = kzalloc(IBT_RAW_BUF, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(pd)) {
		kfree(buf);
		return PTR_ERR(pd);
	}
	dma = ib_dma_map_single(dev, buf, IBT_RAW_BUF, DMA_TO_DEVICE);
	cq = ib_alloc_cq(dev, NULL, 8, 0, IB_POLL_UNBOUND_WORKQUEUE);
	if (IS_ERR(cq)) {
		ret = PTR_ERR(cq);
		cq = NULL;
		goto out;
	}
	init.send_cq = cq;
	init.recv_cq = cq;
	qp = ib_create_qp(pd, &init);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		qp = NULL;
		goto out;
	}
	ret = ibt_raw_start(qp);
	if (ret)
		goto out;
	ah = ibt_kernel_ah_pd(pd, gid);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		ah = NULL;
		goto out;
	}
	hdr = (struct ib_mad_hdr *)buf;
	for (i = 0; i < IBT_RAW_N; i++) {
		memset(buf, 0, IBT_RAW_BUF);
		hdr->base_version = ibt_raw_mads[i].base_version;
		hdr->mgmt_class = ibt_raw_mads[i].mgmt_class;
		hdr->class_version = ibt_raw_mads[i].class_version;
		hdr->method = ibt_raw_mads[i].method;
		hdr->attr_id = cpu_to_be16(ibt_raw_mads[i].attr);
		hdr->tid = cpu_to_be64(0xdead000000000000ULL | i);
		ret = ibt_raw_send(qp, ah, qpn, buf, dma,
				   ibt_raw_mads[i].len);
		pr_info("madcm_ibtest: raw MAD %d: %u bytes, base version %u, class 0x%02x version 0x%02x method 0x%02x: sent (%d)\n",
			i, ibt_raw_mads[i].len, hdr->base_version,
			hdr->mgmt_class, hdr->class_version, hdr->method, ret);
		if (ret)
			goto out;
	}
out:
	if (ah)
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	if (qp)
		ib_destroy_qp(qp);
	if (cq)
		ib_free_cq(cq);
	ib_dma_unmap_single(dev, dma, IBT_RAW_BUF, DMA_TO_DEVICE);
	ib_dealloc_pd(pd);
	kfree(buf);
	return ret;
}
