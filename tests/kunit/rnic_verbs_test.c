// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the software RNIC's send queue in RTS (rnic/verbs.c, rnic/mr.c).
 *
 * Each case registers a madcm RNIC over an Ethernet net_device of its own
 * (madcm_rnic_newlink(), what `rdma link add` calls), makes a kernel QP
 * through ib_core, and moves it to RTS as the CM's hand-off does
 * (madcm_rnic_qp_to_rts()), so the fast-registration work requests run.
 * The expectations come from RFC 5040 (STags: a Fast-Register makes an
 * invalid STag valid, an Invalidate makes it invalid, a request on an
 * STag of another PD or of the wrong key fails) and the verbs' completion
 * rules (IBTA vol. 1 ch. 10.8, 11.4: an unsignaled success completes
 * nothing, an error completes even unsignaled and moves the QP to Error,
 * which flushes the rest).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <linux/netdevice.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include "rnic/rnic.h"
#include "tests/kunit/rnic_test_dev.h"

#define FR_KEY		0x5a
#define FR_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE)

struct rv_fixture {
	struct net_device *nd;
	struct ib_device *ibdev;
	struct madcm_rnic_dev *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_mr *mr;
	struct page *pages[2];
	struct scatterlist sg[2];
};

static struct ib_qp *rv_create_qp(struct ib_pd *pd, struct ib_cq *cq)
{
	struct ib_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = 8,
			.max_recv_wr = 8,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};

	return ib_create_qp(pd, &attr);
}

static int rv_modify(struct ib_qp *qp, enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };

	return ib_modify_qp(qp, &attr, IB_QP_STATE);
}

static enum ib_qp_state rv_state(struct ib_qp *qp)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	ib_query_qp(qp, &attr, IB_QP_STATE, &init);
	return attr.qp_state;
}

static int rv_post_reg(struct ib_qp *qp, struct ib_mr *mr, u64 wr_id,
		       bool signaled)
{
	struct ib_reg_wr wr = {
		.wr = {
			.wr_id = wr_id,
			.opcode = IB_WR_REG_MR,
			.send_flags = signaled ? IB_SEND_SIGNALED : 0,
		},
		.mr = mr,
		.key = mr->rkey,
		.access = FR_ACCESS,
	};

	return ib_post_send(qp, &wr.wr, NULL);
}

static int rv_post_inv(struct ib_qp *qp, u32 stag, u64 wr_id)
{
	struct ib_send_wr wr = {
		.wr_id = wr_id,
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = stag,
	};

	return ib_post_send(qp, &wr, NULL);
}

static int rv_post_recv(struct ib_qp *qp, u64 wr_id)
{
	struct ib_recv_wr wr = { .wr_id = wr_id };

	return ib_post_recv(qp, &wr, NULL);
}

/* One completion, which must be there. */
static struct ib_wc rv_poll_one(struct kunit *test, struct ib_cq *cq)
{
	struct ib_wc wc = {};

	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 1, &wc), 1);
	return wc;
}

static struct ib_mr *rv_mapped_mr(struct kunit *test, struct rv_fixture *fx,
				  struct ib_pd *pd)
{
	struct ib_mr *mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);

	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, fx->sg, 2, NULL, PAGE_SIZE), 2);
	return mr;
}

static u64 rv_count(struct rv_fixture *fx, enum madcm_rnic_counter c)
{
	return atomic64_read(&fx->dev->cnt[c]);
}

static int rv_init(struct kunit *test)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 32 };
	struct rv_fixture *fx;
	int i;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx);
	test->priv = fx;

	/* ours until the exit unregisters it; no reference kept */
	rnic_test_dev_create(test, "mkt%d", &fx->nd, &fx->ibdev);
	fx->dev = to_madcm_rnic(fx->ibdev);

	sg_init_table(fx->sg, ARRAY_SIZE(fx->sg));
	for (i = 0; i < ARRAY_SIZE(fx->pages); i++) {
		fx->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, fx->pages[i]);
		sg_set_page(&fx->sg[i], fx->pages[i], PAGE_SIZE, 0);
		sg_dma_address(&fx->sg[i]) =
			(u64)(uintptr_t)page_address(fx->pages[i]);
		sg_dma_len(&fx->sg[i]) = PAGE_SIZE;
	}

	fx->pd = ib_alloc_pd(fx->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fx->pd));
	fx->cq = ib_create_cq(fx->ibdev, NULL, NULL, NULL, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fx->cq));
	fx->qp = rv_create_qp(fx->pd, fx->cq);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fx->qp));
	fx->mr = rv_mapped_mr(test, fx, fx->pd);
	KUNIT_ASSERT_EQ(test, rv_modify(fx->qp, IB_QPS_INIT), 0);
	return 0;
}

static void rv_exit(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	int i;

	if (!fx)
		return;
	if (!IS_ERR_OR_NULL(fx->qp))
		ib_destroy_qp(fx->qp);
	if (!IS_ERR_OR_NULL(fx->mr))
		ib_dereg_mr(fx->mr);
	if (!IS_ERR_OR_NULL(fx->cq))
		ib_destroy_cq(fx->cq);
	if (!IS_ERR_OR_NULL(fx->pd))
		ib_dealloc_pd(fx->pd);
	if (fx->ibdev)
		ib_unregister_device(fx->ibdev);
	if (fx->nd) {
		if (fx->nd->reg_state == NETREG_REGISTERED)
			unregister_netdev(fx->nd);
		free_netdev(fx->nd);
	}
	for (i = 0; i < ARRAY_SIZE(fx->pages); i++)
		if (fx->pages[i])
			__free_page(fx->pages[i]);
}

static void rts_only_from_init_or_rtr(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct madcm_rnic_qp *qp = to_madcm_rnic_qp(fx->qp);

	KUNIT_EXPECT_EQ(test, rv_modify(fx->qp, IB_QPS_RESET), 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_qp_to_rts(qp), -EINVAL);
	KUNIT_EXPECT_EQ(test, rv_modify(fx->qp, IB_QPS_INIT), 0);
	KUNIT_EXPECT_EQ(test, rv_modify(fx->qp, IB_QPS_RTR), 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_qp_to_rts(qp), 0);
	KUNIT_EXPECT_EQ(test, rv_state(fx->qp), IB_QPS_RTS);
	/* The consumer may say RTS once the QP is there. */
	KUNIT_EXPECT_EQ(test, rv_modify(fx->qp, IB_QPS_RTS), 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_qp_to_rts(qp), -EINVAL);
	KUNIT_EXPECT_EQ(test, rv_modify(fx->qp, IB_QPS_INIT), -EINVAL);
}

static void fast_register_then_invalidate(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct madcm_rnic_mr *mr = to_madcm_rnic_mr(fx->mr);
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(to_madcm_rnic_qp(fx->qp)),
			0);
	KUNIT_EXPECT_FALSE(test, mr->valid);
	ib_update_fast_reg_key(fx->mr, FR_KEY);
	KUNIT_ASSERT_EQ(test, rv_post_reg(fx->qp, fx->mr, 1, true), 0);
	wc = rv_poll_one(test, fx->cq);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_REG_MR);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_PTR_EQ(test, wc.qp, fx->qp);
	KUNIT_EXPECT_TRUE(test, mr->valid);
	KUNIT_EXPECT_EQ(test, mr->ibmr.rkey & 0xff, FR_KEY);
	KUNIT_EXPECT_EQ(test, mr->ibmr.lkey, mr->ibmr.rkey);
	KUNIT_EXPECT_EQ(test, mr->access, FR_ACCESS);

	KUNIT_ASSERT_EQ(test, rv_post_inv(fx->qp, fx->mr->rkey, 2), 0);
	wc = rv_poll_one(test, fx->cq);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_FALSE(test, mr->valid);
	KUNIT_EXPECT_EQ(test, rv_count(fx, MADCM_RNIC_CNT_FASTREG), 1);
	KUNIT_EXPECT_EQ(test, rv_count(fx, MADCM_RNIC_CNT_LOCAL_INV), 1);
	KUNIT_EXPECT_EQ(test, rv_state(fx->qp), IB_QPS_RTS);
}

static void unsignaled_success_completes_nothing(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(to_madcm_rnic_qp(fx->qp)),
			0);
	KUNIT_ASSERT_EQ(test, rv_post_reg(fx->qp, fx->mr, 1, false), 0);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(fx->cq, 1, &wc), 0);
	KUNIT_EXPECT_TRUE(test, to_madcm_rnic_mr(fx->mr)->valid);
}

/* Posted before RTS, run at the hand-off, in order. */
static void queued_in_init_runs_at_rts(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, rv_post_reg(fx->qp, fx->mr, 1, true), 0);
	KUNIT_ASSERT_EQ(test, rv_post_inv(fx->qp, fx->mr->rkey, 2), 0);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(fx->cq, 1, &wc), 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(to_madcm_rnic_qp(fx->qp)),
			0);
	wc = rv_poll_one(test, fx->cq);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	wc = rv_poll_one(test, fx->cq);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_FALSE(test, to_madcm_rnic_mr(fx->mr)->valid);
}

/*
 * A Fast-Register of a valid STag fails: its error completes although
 * unsignaled, the QP goes to Error, and what was queued is flushed, each
 * work request once.
 */
static void fast_register_of_valid_stag_fails_and_flushes(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct ib_reg_wr wr[3];
	int seen[4] = {}, n = 0, i;
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(to_madcm_rnic_qp(fx->qp)),
			0);
	KUNIT_ASSERT_EQ(test, rv_post_recv(fx->qp, 0), 0);
	for (i = 0; i < 3; i++) {
		wr[i] = (struct ib_reg_wr) {
			.wr = {
				.wr_id = i + 1,
				.opcode = IB_WR_REG_MR,
				.send_flags = i == 1 ? 0 : IB_SEND_SIGNALED,
				.next = i < 2 ? &wr[i + 1].wr : NULL,
			},
			.mr = fx->mr,
			.key = fx->mr->rkey,
			.access = FR_ACCESS,
		};
	}
	KUNIT_ASSERT_EQ(test, ib_post_send(fx->qp, &wr[0].wr, NULL), 0);
	while (ib_poll_cq(fx->cq, 1, &wc) == 1) {
		n++;
		KUNIT_ASSERT_LT(test, wc.wr_id, 4);
		seen[wc.wr_id]++;
		switch (wc.wr_id) {
		case 0:
			KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
			KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
			break;
		case 1:
			KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
			break;
		case 2:
			KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_PROT_ERR);
			break;
		case 3:
			KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
			break;
		}
	}
	KUNIT_EXPECT_EQ(test, n, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, seen[i], 1, "wr_id %d", i);
	KUNIT_EXPECT_EQ(test, rv_state(fx->qp), IB_QPS_ERR);
	KUNIT_EXPECT_TRUE(test, to_madcm_rnic_mr(fx->mr)->valid);
	KUNIT_EXPECT_EQ(test, rv_count(fx, MADCM_RNIC_CNT_WR_ERROR), 1);
	KUNIT_EXPECT_EQ(test, rv_count(fx, MADCM_RNIC_CNT_WR_FLUSHED), 2);
}

static void invalidate_needs_the_current_key(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(to_madcm_rnic_qp(fx->qp)),
			0);
	ib_update_fast_reg_key(fx->mr, FR_KEY);
	KUNIT_ASSERT_EQ(test, rv_post_reg(fx->qp, fx->mr, 1, false), 0);
	KUNIT_ASSERT_EQ(test, rv_post_inv(fx->qp, fx->mr->rkey ^ 1, 2), 0);
	wc = rv_poll_one(test, fx->cq);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_PROT_ERR);
	KUNIT_EXPECT_TRUE(test, to_madcm_rnic_mr(fx->mr)->valid);
	KUNIT_EXPECT_EQ(test, rv_state(fx->qp), IB_QPS_ERR);
}

static void fast_register_of_another_pds_mr_fails(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct ib_mr *mr2;
	struct ib_pd *pd2;
	struct ib_wc wc;

	pd2 = ib_alloc_pd(fx->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd2));
	mr2 = rv_mapped_mr(test, fx, pd2);
	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(to_madcm_rnic_qp(fx->qp)),
			0);
	KUNIT_EXPECT_EQ(test, rv_post_reg(fx->qp, mr2, 7, false), 0);
	wc = rv_poll_one(test, fx->cq);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 7);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_PROT_ERR);
	KUNIT_EXPECT_FALSE(test, to_madcm_rnic_mr(mr2)->valid);
	ib_dereg_mr(mr2);
	ib_dealloc_pd(pd2);
}

/* iw_get_qp's lookup: a QP by number, counted, until it is destroyed. */
static void qp_by_number(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	u32 qpn = fx->qp->qp_num;
	struct madcm_rnic_qp *qp;

	KUNIT_EXPECT_NE(test, qpn, 0);
	qp = madcm_rnic_qp_get(fx->dev, qpn);
	KUNIT_EXPECT_PTR_EQ(test, qp, to_madcm_rnic_qp(fx->qp));
	if (qp)
		madcm_rnic_qp_put(qp);
	KUNIT_EXPECT_NULL(test, madcm_rnic_qp_get(fx->dev, qpn + 1));
	ib_destroy_qp(fx->qp);
	fx->qp = NULL;
	KUNIT_EXPECT_NULL(test, madcm_rnic_qp_get(fx->dev, qpn));
}

struct rv_destroyer {
	struct ib_qp *qp;
	struct completion done;
};

static int rv_destroy_fn(void *arg)
{
	struct rv_destroyer *d = arg;

	ib_destroy_qp(d->qp);
	complete(&d->done);
	return 0;
}

/* destroy_qp emptied the queues (and waits for iw_cm's references). */
static bool rv_emptied(struct madcm_rnic_qp *qp)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&qp->lock, flags);
	ret = qp->state == IB_QPS_ERR && qp->sq.head == qp->sq.tail;
	spin_unlock_irqrestore(&qp->lock, flags);
	return ret;
}

/*
 * No completion follows a destroyed QP, also when the stream's end (the
 * CM's detach work: madcm_rnic_qp_set_error(), which retires the send
 * queue) reaches the QP while destroy_qp waits for iw_cm's references:
 * the send queue was emptied, and nothing before its new head may be
 * completed again (its slots hold old, finished work requests).
 */
static void destroyed_qp_completes_nothing(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct madcm_rnic_qp *qp = to_madcm_rnic_qp(fx->qp);
	struct ib_send_wr send = {
		.wr_id = 100, .opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct madcm_rnic_due due = {};
	struct rv_destroyer d;
	struct ib_wc wc;
	unsigned long flags;
	int i;

	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(qp), 0);
	/* every slot but the last: signaled, run (no stream needed), polled */
	for (i = 0; i < 7; i++) {
		KUNIT_ASSERT_EQ(test, rv_post_inv(fx->qp, fx->mr->rkey, i), 0);
		wc = rv_poll_one(test, fx->cq);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	}
	/* a Send waits for the stream in the last slot */
	KUNIT_ASSERT_EQ(test, ib_post_send(fx->qp, &send, NULL), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(fx->cq, 1, &wc), 0);

	/* iw_cm's reference holds destroy_qp after it emptied the queues */
	KUNIT_ASSERT_PTR_EQ(test, madcm_rnic_qp_get(fx->dev, fx->qp->qp_num),
			    qp);
	d.qp = fx->qp;
	init_completion(&d.done);
	fx->qp = NULL;
	KUNIT_ASSERT_FALSE(test, IS_ERR(kthread_run(rv_destroy_fn, &d,
						    "rv_destroy")));
	for (i = 0; i < 5000 && !rv_emptied(qp); i++)
		usleep_range(1000, 2000);
	/* what the stream's end does then */
	spin_lock_irqsave(&qp->lock, flags);
	madcm_rnic_sq_retire(qp, &due);
	KUNIT_EXPECT_EQ(test, qp->sq.head, qp->sq.tail);
	spin_unlock_irqrestore(&qp->lock, flags);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(fx->cq, 1, &wc), 0);

	madcm_rnic_qp_put(qp);
	wait_for_completion(&d.done);
}

#define RV_NMR		64
#define RV_NPD		16

/* How often the most frequent value of @v[0..n) occurs. */
static u32 rv_max_repeat(const u32 *v, u32 n)
{
	u32 i, j, c, most = 0;

	for (i = 0; i < n; i++) {
		for (c = 0, j = 0; j < n; j++)
			c += v[j] == v[i];
		most = max(most, c);
	}
	return most;
}

/*
 * RFC 5042 5.1.2: a peer must not be able to predict the STag of an MR
 * it was not given. Registered one after another, 64 fast-registration
 * MRs and the DMA MRs of 16 PDs (ib_alloc_pd() makes one for each) get
 * STags whose 24-bit indices follow no constant step (each step is a
 * difference of two random draws from 2^24 values: even three equal
 * steps out of 63 are vanishingly unlikely) and whose key bytes vary
 * (64 draws from 256 values: about 57 distinct ones). Each STag still
 * finds its MR, the key byte included: the same index with another key
 * finds nothing.
 */
static void stags_are_not_predictable(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct madcm_rnic_qp *qp = to_madcm_rnic_qp(fx->qp);
	struct ib_mr **mr = kunit_kcalloc(test, RV_NMR, sizeof(*mr),
					  GFP_KERNEL);
	struct ib_pd **pd = kunit_kcalloc(test, RV_NPD, sizeof(*pd),
					  GFP_KERNEL);
	u32 *step = kunit_kcalloc(test, RV_NMR, sizeof(u32), GFP_KERNEL);
	u32 *key = kunit_kcalloc(test, RV_NMR, sizeof(u32), GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	u64 addr = (u64)(uintptr_t)buf;
	u32 i, stag;

	KUNIT_ASSERT_TRUE(test, mr && pd && step && key && buf);
	for (i = 0; i < RV_NMR; i++) {
		mr[i] = ib_alloc_mr(fx->pd, IB_MR_TYPE_MEM_REG, 1);
		if (IS_ERR(mr[i])) {
			KUNIT_FAIL(test, "ib_alloc_mr %u: %ld", i,
				   PTR_ERR(mr[i]));
			mr[i] = NULL;
			goto out;
		}
		/* a fast-registration STag is its lkey and its rkey */
		KUNIT_EXPECT_EQ(test, mr[i]->lkey, mr[i]->rkey);
		key[i] = mr[i]->rkey & 0xff;
		if (i)
			step[i - 1] = ((mr[i]->rkey >> 8) -
				       (mr[i - 1]->rkey >> 8)) & 0xffffff;
	}
	KUNIT_EXPECT_LE_MSG(test, rv_max_repeat(step, RV_NMR - 1), 2,
			    "STag indices %#x, %#x, %#x, ... follow a step",
			    mr[0]->rkey >> 8, mr[1]->rkey >> 8,
			    mr[2]->rkey >> 8);
	KUNIT_EXPECT_LE_MSG(test, rv_max_repeat(key, RV_NMR), 8,
			    "key bytes %#x, %#x, %#x, ... barely vary",
			    key[0], key[1], key[2]);

	for (i = 0; i < RV_NPD; i++) {
		pd[i] = ib_alloc_pd(fx->ibdev, 0);
		if (IS_ERR(pd[i])) {
			KUNIT_FAIL(test, "ib_alloc_pd %u: %ld", i,
				   PTR_ERR(pd[i]));
			pd[i] = NULL;
			goto out;
		}
		key[i] = pd[i]->local_dma_lkey & 0xff;
		if (i)
			step[i - 1] = ((pd[i]->local_dma_lkey >> 8) -
				       (pd[i - 1]->local_dma_lkey >> 8)) &
				      0xffffff;
	}
	KUNIT_EXPECT_LE(test, rv_max_repeat(step, RV_NPD - 1), 2);
	/* 16 draws from 256 values: all alike once in 2^120 */
	KUNIT_EXPECT_LT_MSG(test, rv_max_repeat(key, RV_NPD), RV_NPD,
			    "every DMA MR has the key byte %#x", key[0]);

	/* the lookup by STag: index and key */
	stag = fx->pd->local_dma_lkey;
	KUNIT_EXPECT_EQ(test, madcm_rnic_mr_check(qp, stag, addr, 64,
						  IB_ACCESS_LOCAL_WRITE), 0);
	for (i = 1; i < 0x100; i++)
		if (madcm_rnic_mr_check(qp, stag ^ i, addr, 64, 0) != -ENOENT)
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, 0x100,
			    "STag %#x with key byte %#x found an MR",
			    stag ^ i, (stag ^ i) & 0xff);
	/* an STag of another PD's DMA MR is not this QP's */
	KUNIT_EXPECT_EQ(test, madcm_rnic_mr_check(qp, pd[0]->local_dma_lkey,
						  addr, 64, 0), -EPERM);
out:
	for (i = 0; i < RV_NMR; i++)
		if (mr[i])
			ib_dereg_mr(mr[i]);
	for (i = 0; i < RV_NPD; i++)
		if (pd[i])
			ib_dealloc_pd(pd[i]);
}

/*
 * A fast-registration MR's key byte is the consumer's (ib_update_fast_reg_key(),
 * carried by IB_WR_REG_MR): registered with it, the STag is found with it;
 * invalidated and registered again with the next key (ib_inc_rkey()), the
 * stale STag, its index unchanged, is refused, and the new one found.
 */
static void fast_register_keeps_the_consumers_key(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct madcm_rnic_qp *qp = to_madcm_rnic_qp(fx->qp);
	u64 iova = fx->mr->iova;
	u32 old;
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(qp), 0);
	ib_update_fast_reg_key(fx->mr, FR_KEY);
	KUNIT_EXPECT_EQ(test, fx->mr->rkey & 0xff, FR_KEY);
	KUNIT_ASSERT_EQ(test, rv_post_reg(fx->qp, fx->mr, 1, true), 0);
	wc = rv_poll_one(test, fx->cq);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	old = fx->mr->rkey;
	KUNIT_EXPECT_EQ(test, old & 0xff, FR_KEY);
	KUNIT_EXPECT_EQ(test, madcm_rnic_mr_check(qp, old, iova, 16,
						  IB_ACCESS_REMOTE_WRITE), 0);

	KUNIT_ASSERT_EQ(test, rv_post_inv(fx->qp, old, 2), 0);
	wc = rv_poll_one(test, fx->cq);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	ib_update_fast_reg_key(fx->mr, ib_inc_rkey(old));
	KUNIT_ASSERT_EQ(test, rv_post_reg(fx->qp, fx->mr, 3, true), 0);
	wc = rv_poll_one(test, fx->cq);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, fx->mr->rkey, (old & ~0xffU) | (FR_KEY + 1));
	KUNIT_EXPECT_EQ(test, madcm_rnic_mr_check(qp, old, iova, 16, 0),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, madcm_rnic_mr_check(qp, fx->mr->rkey, iova, 16,
						  IB_ACCESS_REMOTE_WRITE), 0);
}

/* Queue and CQ sizes that divide no power of two (nvme-rdma's are such). */
#define RV_ODD_WR	5
#define RV_ODD_CQE	13

/*
 * Starts @qp's send and receive rings (empty) and @cq's ring (empty) at
 * the free-running count @at, as if that much work had gone through.
 */
static void rv_rings_at(struct madcm_rnic_qp *qp, struct madcm_rnic_cq *cq,
			u32 at)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	qp->sq.head = at;
	qp->sq.tail = at;
	qp->sq_next = at;
	qp->rq.head = at;
	qp->rq.tail = at;
	spin_unlock_irqrestore(&qp->lock, flags);
	spin_lock_irqsave(&cq->lock, flags);
	cq->head = at;
	cq->tail = at;
	spin_unlock_irqrestore(&cq->lock, flags);
}

/*
 * Work requests and completions across the wrap of the rings' 32-bit
 * counts: a QP and a CQ asked for sizes that are no power of two get at
 * least what they asked for, and report what they have
 * (ib_create_qp()'s cap, the CQ's cqe, query_qp). With the counts
 * started just below 2^32, the send queue filled to the size reported
 * runs its work requests in order, each completing once with its own
 * wr_id; the receive queue filled likewise and flushed completes each
 * receive once, in order: no slot is used twice while live.
 */
static void rings_survive_the_u32_wrap(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct ib_cq_init_attr cq_attr = { .cqe = RV_ODD_CQE };
	struct ib_qp_init_attr attr = {
		.cap = {
			.max_send_wr = RV_ODD_WR,
			.max_recv_wr = RV_ODD_WR,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_RC,
	};
	struct ib_qp_init_attr qinit;
	struct ib_qp_attr qattr;
	struct ib_qp *ibqp = NULL;
	struct ib_cq *cq;
	struct ib_wc wc;
	u32 nsq, nrq, i, start;

	cq = ib_create_cq(fx->ibdev, NULL, NULL, NULL, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	KUNIT_EXPECT_GE(test, cq->cqe, RV_ODD_CQE);
	attr.send_cq = cq;
	attr.recv_cq = cq;
	ibqp = ib_create_qp(fx->pd, &attr);
	if (IS_ERR(ibqp)) {
		KUNIT_FAIL(test, "ib_create_qp: %ld", PTR_ERR(ibqp));
		goto out_cq;
	}
	nsq = attr.cap.max_send_wr;
	nrq = attr.cap.max_recv_wr;
	KUNIT_EXPECT_GE(test, nsq, RV_ODD_WR);
	KUNIT_EXPECT_GE(test, nrq, RV_ODD_WR);
	KUNIT_EXPECT_EQ(test, ib_query_qp(ibqp, &qattr, IB_QP_CAP, &qinit), 0);
	KUNIT_EXPECT_EQ(test, qattr.cap.max_send_wr, nsq);
	KUNIT_EXPECT_EQ(test, qattr.cap.max_recv_wr, nrq);
	if (nsq > cq->cqe || nrq > cq->cqe) {
		KUNIT_FAIL(test, "queues of %u and %u for a CQ of %d", nsq,
			   nrq, cq->cqe);
		goto out;
	}
	KUNIT_ASSERT_EQ(test, rv_modify(ibqp, IB_QPS_INIT), 0);

	/* the send queue: local invalidates queued in INIT, run at RTS */
	start = U32_MAX - nsq / 2;
	rv_rings_at(to_madcm_rnic_qp(ibqp), to_madcm_rnic_cq(cq), start);
	for (i = 0; i < nsq; i++)
		KUNIT_ASSERT_EQ(test, rv_post_inv(ibqp, fx->mr->rkey, 100 + i),
				0);
	KUNIT_EXPECT_EQ(test, rv_post_inv(ibqp, fx->mr->rkey, 999), -ENOMEM);
	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(to_madcm_rnic_qp(ibqp)), 0);
	for (i = 0; i < nsq; i++) {
		if (ib_poll_cq(cq, 1, &wc) != 1) {
			KUNIT_FAIL(test, "send completion %u of %u missing", i,
				   nsq);
			goto out;
		}
		KUNIT_EXPECT_EQ_MSG(test, wc.wr_id, 100 + i,
				    "send completion %u (count %#x)", i,
				    start + i);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	}
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 1, &wc), 0);

	/* the receive queue, flushed by the move to Error */
	start = U32_MAX - nrq / 2;
	rv_rings_at(to_madcm_rnic_qp(ibqp), to_madcm_rnic_cq(cq), start);
	for (i = 0; i < nrq; i++)
		KUNIT_ASSERT_EQ(test, rv_post_recv(ibqp, 200 + i), 0);
	KUNIT_EXPECT_NE(test, rv_post_recv(ibqp, 999), 0);
	KUNIT_ASSERT_EQ(test, rv_modify(ibqp, IB_QPS_ERR), 0);
	for (i = 0; i < nrq; i++) {
		if (ib_poll_cq(cq, 1, &wc) != 1) {
			KUNIT_FAIL(test, "receive completion %u of %u missing",
				   i, nrq);
			goto out;
		}
		KUNIT_EXPECT_EQ_MSG(test, wc.wr_id, 200 + i,
				    "receive completion %u (count %#x)", i,
				    start + i);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	}
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 1, &wc), 0);
out:
	ib_destroy_qp(ibqp);
out_cq:
	ib_destroy_cq(cq);
}

/*
 * What an asynchronous event handler saw: how often it ran, the last
 * event, and whether it ran where it may sleep with no lock held (the
 * RNIC's rule for every consumer handler, Documentation/rnic.rst).
 */
struct rv_async {
	struct ib_qp *qp;
	atomic_t calls;
	enum ib_event_type event;
	void *element;
	bool could_sleep;
	int locks_held;
};

/*
 * The RNIC's locks the CQ's handler could be called under: the CQ's own
 * and its QP's (lockdep knows which this task holds; a workqueue's own
 * lockdep maps are none of them).
 */
static int rv_rnic_locks_held(struct ib_cq *cq, struct ib_qp *qp)
{
	int n = 0;

#ifdef CONFIG_LOCKDEP
	n += lockdep_is_held(&to_madcm_rnic_cq(cq)->lock);
	if (qp)
		n += lockdep_is_held(&to_madcm_rnic_qp(qp)->lock);
#endif
	return n;
}

static void rv_cq_event(struct ib_event *ev, void *ctx)
{
	struct rv_async *a = ctx;

	a->event = ev->event;
	a->element = ev->element.cq;
	a->could_sleep = preemptible();
	a->locks_held = rv_rnic_locks_held(ev->element.cq, READ_ONCE(a->qp));
	atomic_inc(&a->calls);
}

/* Waits until @qp is in @state (what the RNIC does later, in its work). */
static bool rv_wait_state(struct ib_qp *qp, enum ib_qp_state state)
{
	int i;

	for (i = 0; i < 250 && rv_state(qp) != state; i++)
		msleep(20);
	return rv_state(qp) == state;
}

/*
 * A CQ overrun (IBTA vol. 1 11.4.2.1, as rxe does it): the completion
 * that finds the CQ full is lost, the CQ's event handler hears
 * IB_EVENT_CQ_ERR once, and every QP that completes into the CQ goes to
 * the Error state, the one whose completion was lost and an idle one
 * alike, instead of running on with a CQ that drops its completions.
 */
static void cq_overrun_raises_cq_err_and_errors_its_qps(struct kunit *test)
{
	struct rv_fixture *fx = test->priv;
	struct ib_cq_init_attr cq_attr = { .cqe = 2 };
	struct rv_async async = { .locks_held = -1 };
	struct ib_qp *qp = NULL, *idle = NULL;
	u64 lost = rv_count(fx, MADCM_RNIC_CNT_CQ_OVERFLOW);
	struct ib_cq *cq;
	struct ib_wc wc;
	int i, n;

	cq = ib_create_cq(fx->ibdev, NULL, rv_cq_event, &async, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	qp = rv_create_qp(fx->pd, cq);
	idle = rv_create_qp(fx->pd, cq);
	if (IS_ERR(qp) || IS_ERR(idle)) {
		KUNIT_FAIL(test, "ib_create_qp failed");
		goto out;
	}
	KUNIT_ASSERT_EQ(test, rv_modify(qp, IB_QPS_INIT), 0);
	KUNIT_ASSERT_EQ(test, rv_modify(idle, IB_QPS_INIT), 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_qp_to_rts(to_madcm_rnic_qp(qp)), 0);
	WRITE_ONCE(async.qp, qp);

	/* one signaled completion more than the CQ holds */
	for (i = 0; i <= cq->cqe; i++)
		KUNIT_ASSERT_EQ(test, rv_post_inv(qp, fx->mr->rkey, 1 + i), 0);

	KUNIT_EXPECT_TRUE(test, rv_wait_state(qp, IB_QPS_ERR));
	KUNIT_EXPECT_TRUE(test, rv_wait_state(idle, IB_QPS_ERR));
	KUNIT_EXPECT_EQ(test, atomic_read(&async.calls), 1);
	KUNIT_EXPECT_EQ(test, async.event, IB_EVENT_CQ_ERR);
	KUNIT_EXPECT_PTR_EQ(test, async.element, (void *)cq);
	KUNIT_EXPECT_TRUE(test, async.could_sleep);
	KUNIT_EXPECT_EQ(test, async.locks_held, 0);
	KUNIT_EXPECT_GT(test, rv_count(fx, MADCM_RNIC_CNT_CQ_OVERFLOW), lost);

	/* what the CQ kept is there, in order */
	for (n = 0; ib_poll_cq(cq, 1, &wc) == 1; n++)
		KUNIT_EXPECT_EQ(test, wc.wr_id, n + 1);
	KUNIT_EXPECT_EQ(test, n, cq->cqe);
out:
	if (!IS_ERR_OR_NULL(idle))
		ib_destroy_qp(idle);
	if (!IS_ERR_OR_NULL(qp))
		ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

static struct kunit_case rnic_verbs_cases[] = {
	KUNIT_CASE(rts_only_from_init_or_rtr),
	KUNIT_CASE(fast_register_then_invalidate),
	KUNIT_CASE(unsignaled_success_completes_nothing),
	KUNIT_CASE(queued_in_init_runs_at_rts),
	KUNIT_CASE(fast_register_of_valid_stag_fails_and_flushes),
	KUNIT_CASE(invalidate_needs_the_current_key),
	KUNIT_CASE(fast_register_of_another_pds_mr_fails),
	KUNIT_CASE(qp_by_number),
	KUNIT_CASE(destroyed_qp_completes_nothing),
	KUNIT_CASE(stags_are_not_predictable),
	KUNIT_CASE(fast_register_keeps_the_consumers_key),
	KUNIT_CASE(rings_survive_the_u32_wrap),
	KUNIT_CASE(cq_overrun_raises_cq_err_and_errors_its_qps),
	{}
};

static struct kunit_suite rnic_verbs_suite = {
	.name = "madcm_rnic_verbs",
	.init = rv_init,
	.exit = rv_exit,
	.test_cases = rnic_verbs_cases,
};

kunit_test_suite(rnic_verbs_suite);
