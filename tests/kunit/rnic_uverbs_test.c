// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: soft-iWARP's user ABI on madcm devices (rnic/uverbs.c): ring
 * entries the process writes are fetched once and checked on the
 * kernel's copy, and completions go into the process's CQ ring with its
 * notification word.
 *
 * Expectations come from include/uapi/rdma/siw-abi.h (opcodes, flags,
 * SIW_MAX_SGE 6, SIW_MAX_INLINE 80, the CQE and status values, the
 * notify flags), from the ring protocol libsiw follows (a slot is the
 * producer's while its flags are 0; the consumer clears them), and from
 * the verbs' completion statuses (IBTA vol. 1 ch. 11.4.2.1: a malformed
 * work request completes with Local QP Operation Error, one over a
 * length limit with Local Length Error).
 *
 * The siw guard (issue 30, item 6) follows siw's own code: its netdev
 * notifier takes any RDMA_DRIVER_SIW device over a net_device for a
 * siw_device, and a siw built into the kernel is always registered.
 * scripts/kunit.sh runs this suite on x86_64 without siw and on i386
 * with CONFIG_RDMA_SIW=y, so the guard case asserts in both builds.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include "rnic/rnic.h"

static struct siw_sqe sqe_write(void)
{
	struct siw_sqe e = {
		.id = 0xabcdef,
		.flags = SIW_WQE_VALID | SIW_WQE_SIGNALLED,
		.num_sge = 1,
		.opcode = SIW_OP_WRITE,
		.rkey = 0x4200,
		.raddr = 0x10000,
	};

	e.sge[0].laddr = 0x2000;
	e.sge[0].length = 100;
	e.sge[0].lkey = 0x300;
	return e;
}

/* ---- fetching ---- */

static void fetch_takes_a_valid_sqe_once(struct kunit *test)
{
	struct siw_sqe slot = sqe_write(), copy;

	KUNIT_ASSERT_TRUE(test, madcm_rnic_sqe_fetch(&slot, &copy));
	/* the slot is the process's again */
	KUNIT_EXPECT_EQ(test, slot.flags, 0);
	KUNIT_EXPECT_EQ(test, copy.flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED);
	KUNIT_EXPECT_EQ(test, copy.id, 0xabcdefULL);
	KUNIT_EXPECT_EQ(test, copy.sge[0].length, 100U);
	/* taken: the same slot is not fetched twice */
	KUNIT_EXPECT_FALSE(test, madcm_rnic_sqe_fetch(&slot, &copy));
}

static void fetch_leaves_an_invalid_slot(struct kunit *test)
{
	struct siw_sqe slot = sqe_write(), copy = {};

	slot.flags = SIW_WQE_SIGNALLED | SIW_WQE_INLINE;	/* not VALID */
	KUNIT_EXPECT_FALSE(test, madcm_rnic_sqe_fetch(&slot, &copy));
	KUNIT_EXPECT_EQ(test, slot.flags, SIW_WQE_SIGNALLED | SIW_WQE_INLINE);
	KUNIT_EXPECT_EQ(test, copy.id, 0ULL);
}

/* What the process writes into the slot after the fetch changes nothing. */
static void flags_flipped_after_fetch_change_nothing(struct kunit *test)
{
	struct siw_sqe slot = sqe_write(), copy;
	struct madcm_rnic_swqe wqe;

	KUNIT_ASSERT_TRUE(test, madcm_rnic_sqe_fetch(&slot, &copy));
	slot.flags = SIW_WQE_VALID | SIW_WQE_INLINE;
	slot.num_sge = 7;
	slot.sge[0].length = 0xffffffff;
	slot.opcode = 200;
	madcm_rnic_sqe_to_wqe(&copy, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IB_WR_RDMA_WRITE);
	KUNIT_EXPECT_FALSE(test, wqe.send_flags & IB_SEND_INLINE);
	KUNIT_EXPECT_EQ(test, wqe.num_sge, 1U);
	KUNIT_EXPECT_EQ(test, wqe.len, 100U);
}

/* ---- an SQE as a send queue entry ---- */

static void sqe_write_becomes_rdma_write(struct kunit *test)
{
	struct siw_sqe e = sqe_write();
	struct madcm_rnic_swqe wqe;

	e.flags |= SIW_WQE_SOLICITED | SIW_WQE_READ_FENCE;
	madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IB_WR_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, wqe.wr_id, 0xabcdefULL);
	KUNIT_EXPECT_EQ(test, wqe.send_flags, IB_SEND_SIGNALED |
			IB_SEND_SOLICITED | IB_SEND_FENCE);
	KUNIT_EXPECT_EQ(test, wqe.remote_addr, 0x10000ULL);
	KUNIT_EXPECT_EQ(test, wqe.rkey, 0x4200U);
	KUNIT_EXPECT_EQ(test, wqe.sge[0].addr, 0x2000ULL);
	KUNIT_EXPECT_EQ(test, wqe.sge[0].lkey, 0x300U);
	KUNIT_EXPECT_FALSE(test, wqe.done);
}

static void sqe_opcodes(struct kunit *test)
{
	static const struct {
		u8 siw;
		enum ib_wr_opcode ib;
	} ok[] = {
		{ SIW_OP_WRITE, IB_WR_RDMA_WRITE },
		{ SIW_OP_READ, IB_WR_RDMA_READ },
		{ SIW_OP_SEND, IB_WR_SEND },
		{ SIW_OP_SEND_REMOTE_INV, IB_WR_SEND_WITH_INV },
	};
	/* atomics, immediate data, kernel-only and provider-internal ones */
	static const u8 bad[] = {
		SIW_OP_READ_LOCAL_INV, SIW_OP_SEND_WITH_IMM,
		SIW_OP_FETCH_AND_ADD, SIW_OP_COMP_AND_SWAP, SIW_OP_RECEIVE,
		SIW_OP_READ_RESPONSE, SIW_OP_INVAL_STAG, SIW_OP_REG_MR,
		SIW_NUM_OPCODES, 200, 255,
	};
	struct siw_sqe e = sqe_write();
	struct madcm_rnic_swqe wqe;
	int i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		e.opcode = ok[i].siw;
		madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
		KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, wqe.opcode, ok[i].ib);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		e.opcode = bad[i];
		madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
		KUNIT_EXPECT_EQ_MSG(test, wqe.status, IB_WC_LOC_QP_OP_ERR,
				    "opcode %u", bad[i]);
		KUNIT_EXPECT_EQ(test, wqe.wr_id, 0xabcdefULL);
	}
}

/* libsiw: a Send with Invalidate names its STag in the SQE's rkey. */
static void sqe_send_with_invalidate_names_its_stag(struct kunit *test)
{
	struct siw_sqe e = sqe_write();
	struct madcm_rnic_swqe wqe;

	e.opcode = SIW_OP_SEND_REMOTE_INV;
	e.rkey = 0x7711;
	madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.inv_rkey, 0x7711U);
}

static void sqe_too_many_sges(struct kunit *test)
{
	struct siw_sqe e = sqe_write();
	struct madcm_rnic_swqe wqe;

	e.num_sge = SIW_MAX_SGE + 1;
	madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_LOC_QP_OP_ERR);
	KUNIT_EXPECT_EQ(test, wqe.num_sge, 0U);
	e.num_sge = 255;
	madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_LOC_QP_OP_ERR);
	/* over the QP's own max_send_sge, within the ABI's */
	e.num_sge = 3;
	madcm_rnic_sqe_to_wqe(&e, 2, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_LOC_QP_OP_ERR);
	e.num_sge = 2;
	madcm_rnic_sqe_to_wqe(&e, 2, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_SUCCESS);
}

static void sqe_inline(struct kunit *test)
{
	struct siw_sqe e = sqe_write();
	struct madcm_rnic_swqe wqe;
	u8 *data = (u8 *)&e.sge[1];
	int i;

	e.opcode = SIW_OP_SEND;
	e.flags |= SIW_WQE_INLINE;
	/* libsiw: num_sge is the consumer's, not the inline data's */
	e.num_sge = 9;
	e.sge[0].length = SIW_MAX_INLINE;
	for (i = 0; i < SIW_MAX_INLINE; i++)
		data[i] = i ^ 0x5a;
	madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, wqe.send_flags & IB_SEND_INLINE);
	KUNIT_EXPECT_EQ(test, wqe.len, (u32)SIW_MAX_INLINE);
	KUNIT_EXPECT_EQ(test, wqe.num_sge, 0U);
	KUNIT_EXPECT_EQ(test, memcmp(wqe.inline_data, data, SIW_MAX_INLINE), 0);

	e.sge[0].length = SIW_MAX_INLINE + 1;
	madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_LOC_LEN_ERR);
	KUNIT_EXPECT_EQ(test, wqe.len, 0U);
	e.sge[0].length = 0xffffffff;
	madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_LOC_LEN_ERR);

	/* a Read has no inline data: it names where the data goes */
	e.opcode = SIW_OP_READ;
	e.sge[0].length = 8;
	madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_LOC_QP_OP_ERR);
}

/* Lengths that add up past 2^32: the message is too long, never short. */
static void sqe_length_overflow(struct kunit *test)
{
	struct siw_sqe e = sqe_write();
	struct madcm_rnic_swqe wqe;
	int i;

	e.num_sge = SIW_MAX_SGE;
	for (i = 0; i < SIW_MAX_SGE; i++)
		e.sge[i].length = 0xffffffff;
	madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.len, U32_MAX);
	/* 2^32 + 1 octets must not look like 1 */
	e.num_sge = 2;
	e.sge[0].length = 0xffffffff;
	e.sge[1].length = 2;
	madcm_rnic_sqe_to_wqe(&e, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.len, U32_MAX);
}

/* ---- an RQE as a receive queue entry ---- */

static void rqe_checks(struct kunit *test)
{
	struct siw_rqe slot = {
		.id = 77, .flags = SIW_WQE_VALID, .num_sge = 2,
	}, copy;
	struct madcm_rnic_rwqe wqe;

	slot.sge[1].laddr = 0x9000;
	slot.sge[1].length = 64;
	slot.sge[1].lkey = 0x500;
	KUNIT_ASSERT_TRUE(test, madcm_rnic_rqe_fetch(&slot, &copy));
	KUNIT_EXPECT_EQ(test, slot.flags, 0);
	madcm_rnic_rqe_to_wqe(&copy, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wqe.wr_id, 77ULL);
	KUNIT_EXPECT_EQ(test, wqe.num_sge, 2U);
	KUNIT_EXPECT_EQ(test, wqe.sge[1].addr, 0x9000ULL);
	KUNIT_EXPECT_EQ(test, wqe.sge[1].length, 64U);
	KUNIT_EXPECT_EQ(test, wqe.sge[1].lkey, 0x500U);

	copy.num_sge = SIW_MAX_SGE + 1;
	madcm_rnic_rqe_to_wqe(&copy, SIW_MAX_SGE, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_LOC_QP_OP_ERR);
	KUNIT_EXPECT_EQ(test, wqe.num_sge, 0U);
	copy.num_sge = 2;
	madcm_rnic_rqe_to_wqe(&copy, 1, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.status, IB_WC_LOC_QP_OP_ERR);
}

/* ---- the fetch loop: bounded by the send queue's room ---- */

static void sq_fetch_bounded_by_room(struct kunit *test)
{
	struct madcm_rnic_qp *qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	unsigned long flags;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->sq.size = 4;
	qp->sq.max_sge = SIW_MAX_SGE;
	qp->usq = kunit_kcalloc(test, 4, sizeof(*qp->usq), GFP_KERNEL);
	qp->swqe = kunit_kcalloc(test, 4, sizeof(*qp->swqe), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp->usq);
	KUNIT_ASSERT_NOT_NULL(test, qp->swqe);
	spin_lock_init(&qp->lock);
	for (i = 0; i < 4; i++) {
		qp->usq[i] = sqe_write();
		qp->usq[i].id = i;
	}
	spin_lock_irqsave(&qp->lock, flags);
	madcm_rnic_usq_fetch_locked(qp);
	spin_unlock_irqrestore(&qp->lock, flags);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 4U);
	KUNIT_EXPECT_EQ(test, qp->swqe[3].wr_id, 3ULL);

	/* the process refills every slot at once: no room, nothing taken */
	for (i = 0; i < 4; i++) {
		qp->usq[i] = sqe_write();
		qp->usq[i].id = 10 + i;
	}
	spin_lock_irqsave(&qp->lock, flags);
	KUNIT_EXPECT_TRUE(test, madcm_rnic_usq_pending(qp));
	madcm_rnic_usq_fetch_locked(qp);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 4U);
	KUNIT_EXPECT_EQ(test, qp->swqe[0].wr_id, 0ULL);
	/* two complete: two more are taken, in ring order */
	qp->sq.head = 2;
	madcm_rnic_usq_fetch_locked(qp);
	spin_unlock_irqrestore(&qp->lock, flags);
	KUNIT_EXPECT_EQ(test, qp->sq.tail, 6U);
	KUNIT_EXPECT_EQ(test, qp->swqe[0].wr_id, 10ULL);
	KUNIT_EXPECT_EQ(test, qp->swqe[1].wr_id, 11ULL);
	KUNIT_EXPECT_EQ(test, qp->usq[2].flags & SIW_WQE_VALID, SIW_WQE_VALID);
}

/* ---- completions into a user CQ ---- */

static void cqe_fields(struct kunit *test)
{
	struct siw_cqe ring[4] = {};
	struct ib_qp qp = { .qp_num = 0x123456 };
	struct ib_wc wc = {
		.wr_id = 0xfeed, .status = IB_WC_SUCCESS,
		.opcode = IB_WC_RECV, .byte_len = 4096, .qp = &qp,
	};

	/* free running index: 5 is slot 1 of 4 */
	KUNIT_ASSERT_TRUE(test, madcm_rnic_ucqe_put(ring, 4, 5, &wc));
	KUNIT_EXPECT_EQ(test, ring[1].flags, SIW_WQE_VALID);
	KUNIT_EXPECT_EQ(test, ring[1].id, 0xfeedULL);
	KUNIT_EXPECT_EQ(test, ring[1].opcode, SIW_OP_RECEIVE);
	KUNIT_EXPECT_EQ(test, ring[1].status, SIW_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, ring[1].bytes, 4096U);
	KUNIT_EXPECT_EQ(test, ring[1].qp_id, 0x123456ULL);
	KUNIT_EXPECT_EQ(test, ring[0].flags, 0);

	/* a Send with Invalidate's STag */
	wc.wc_flags = IB_WC_WITH_INVALIDATE;
	wc.ex.invalidate_rkey = 0x3344;
	KUNIT_ASSERT_TRUE(test, madcm_rnic_ucqe_put(ring, 4, 2, &wc));
	KUNIT_EXPECT_EQ(test, ring[2].flags, SIW_WQE_VALID | SIW_WQE_REM_INVAL);
	KUNIT_EXPECT_EQ(test, ring[2].inval_stag, 0x3344U);
}

static void cqe_opcodes_and_statuses(struct kunit *test)
{
	static const struct {
		enum ib_wc_opcode ib;
		u8 siw;
	} ops[] = {
		{ IB_WC_SEND, SIW_OP_SEND },
		{ IB_WC_RDMA_WRITE, SIW_OP_WRITE },
		{ IB_WC_RDMA_READ, SIW_OP_READ },
		{ IB_WC_RECV, SIW_OP_RECEIVE },
	};
	static const struct {
		enum ib_wc_status ib;
		u16 siw;
	} sts[] = {
		{ IB_WC_SUCCESS, SIW_WC_SUCCESS },
		{ IB_WC_LOC_LEN_ERR, SIW_WC_LOC_LEN_ERR },
		{ IB_WC_LOC_PROT_ERR, SIW_WC_LOC_PROT_ERR },
		{ IB_WC_LOC_QP_OP_ERR, SIW_WC_LOC_QP_OP_ERR },
		{ IB_WC_WR_FLUSH_ERR, SIW_WC_WR_FLUSH_ERR },
		{ IB_WC_BAD_RESP_ERR, SIW_WC_BAD_RESP_ERR },
		{ IB_WC_LOC_ACCESS_ERR, SIW_WC_LOC_ACCESS_ERR },
		{ IB_WC_REM_ACCESS_ERR, SIW_WC_REM_ACCESS_ERR },
		{ IB_WC_REM_INV_REQ_ERR, SIW_WC_REM_INV_REQ_ERR },
		/* no siw value: within the ABI's table, never past it */
		{ IB_WC_REM_OP_ERR, SIW_WC_GENERAL_ERR },
		{ IB_WC_FATAL_ERR, SIW_WC_GENERAL_ERR },
	};
	struct siw_cqe ring[1];
	struct ib_wc wc = {};
	int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		memset(ring, 0, sizeof(ring));
		wc.opcode = ops[i].ib;
		KUNIT_ASSERT_TRUE(test, madcm_rnic_ucqe_put(ring, 1, 0, &wc));
		KUNIT_EXPECT_EQ(test, ring[0].opcode, ops[i].siw);
	}
	for (i = 0; i < ARRAY_SIZE(sts); i++) {
		memset(ring, 0, sizeof(ring));
		wc.status = sts[i].ib;
		KUNIT_ASSERT_TRUE(test, madcm_rnic_ucqe_put(ring, 1, 0, &wc));
		KUNIT_EXPECT_EQ(test, ring[0].status, sts[i].siw);
		KUNIT_EXPECT_LT(test, ring[0].status, (u16)SIW_NUM_WC_STATUS);
	}
}

/* A slot the process has not polled (flags not 0) is never overwritten. */
static void cqe_full_slot_untouched(struct kunit *test)
{
	struct siw_cqe ring[2] = {};
	struct ib_wc wc = { .wr_id = 1 };

	ring[0].flags = SIW_WQE_VALID;
	ring[0].id = 99;
	KUNIT_EXPECT_FALSE(test, madcm_rnic_ucqe_put(ring, 2, 0, &wc));
	KUNIT_EXPECT_EQ(test, ring[0].id, 99ULL);
	/* garbage the process wrote counts as not polled too */
	ring[1].flags = 0xa4;
	KUNIT_EXPECT_FALSE(test, madcm_rnic_ucqe_put(ring, 2, 1, &wc));
	KUNIT_EXPECT_EQ(test, ring[1].id, 0ULL);
}

static void notify_word(struct kunit *test)
{
	struct siw_cq_ctrl ctrl = { .flags = SIW_NOTIFY_NOT };

	KUNIT_EXPECT_FALSE(test, madcm_rnic_ucq_notify(&ctrl, true));

	/* libsiw's ibv_req_notify_cq(cq, 1) */
	ctrl.flags = SIW_NOTIFY_SOLICITED;
	KUNIT_EXPECT_FALSE(test, madcm_rnic_ucq_notify(&ctrl, false));
	KUNIT_EXPECT_EQ(test, ctrl.flags, (u32)SIW_NOTIFY_SOLICITED);
	KUNIT_EXPECT_TRUE(test, madcm_rnic_ucq_notify(&ctrl, true));
	KUNIT_EXPECT_EQ(test, ctrl.flags, (u32)SIW_NOTIFY_NOT);

	/* libsiw's ibv_req_notify_cq(cq, 0): the next completion, once */
	ctrl.flags = SIW_NOTIFY_SOLICITED | SIW_NOTIFY_NEXT_COMPLETION;
	KUNIT_EXPECT_TRUE(test, madcm_rnic_ucq_notify(&ctrl, false));
	KUNIT_EXPECT_EQ(test, ctrl.flags, (u32)SIW_NOTIFY_NOT);
	KUNIT_EXPECT_FALSE(test, madcm_rnic_ucq_notify(&ctrl, false));
	KUNIT_EXPECT_FALSE(test, madcm_rnic_ucq_notify(&ctrl, true));
}

/* ---- siw built into the kernel ---- */

static netdev_tx_t uv_xmit(struct sk_buff *skb, struct net_device *nd)
{
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops uv_netdev_ops = {
	.ndo_start_xmit = uv_xmit,
};

/*
 * rdma link add over @nd; returns newlink's result, and in *@siw and
 * *@any whether @nd then has an ib_device with siw's driver id, or any.
 * Unregisters what it made.
 */
static int uv_newlink(struct net_device *nd, bool *siw, bool *any)
{
	struct ib_device *ibdev;
	int ret;

	ret = madcm_rnic_newlink("mku%d", nd);
	ibdev = ib_device_get_by_netdev(nd, RDMA_DRIVER_SIW);
	*siw = ibdev;
	if (ibdev)
		ib_device_put(ibdev);
	ibdev = ib_device_get_by_netdev(nd, RDMA_DRIVER_UNKNOWN);
	*any = ibdev;
	if (ibdev) {
		ib_device_put(ibdev);
		ib_unregister_device(ibdev);
	}
	return ret;
}

/*
 * With rnic_uverbs=Y a madcm device speaks siw's user ABI (driver id
 * RDMA_DRIVER_SIW). Where siw is built in, `rdma link add` must refuse
 * it with -EBUSY and leave no device (rnic_uverbs.rst); elsewhere (siw
 * neither built in nor loaded: KUnit kernels have no modules) the same
 * call makes a device with siw's driver id. rnic_uverbs=0 makes a device
 * in both builds, never one with siw's driver id.
 */
static void siw_builtin_refuses_user_abi(struct kunit *test)
{
	bool saved = madcm_rnic_uverbs_on;
	struct net_device *nd;
	bool siw, any;
	int ret;

	nd = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, nd);
	nd->netdev_ops = &uv_netdev_ops;
	eth_hw_addr_random(nd);
	ret = register_netdev(nd);
	if (ret) {
		free_netdev(nd);
		KUNIT_FAIL(test, "register_netdev: %d", ret);
		return;
	}

	madcm_rnic_uverbs_on = true;
	ret = uv_newlink(nd, &siw, &any);
	if (IS_BUILTIN(CONFIG_RDMA_SIW)) {
		kunit_info(test, "siw is built in: expect -EBUSY\n");
		KUNIT_EXPECT_EQ(test, ret, -EBUSY);
		KUNIT_EXPECT_FALSE(test, siw);
		KUNIT_EXPECT_FALSE(test, any);
	} else {
		kunit_info(test, "siw is not built in: expect a siw-ABI device\n");
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_TRUE(test, siw);
		KUNIT_EXPECT_TRUE(test, any);
	}

	madcm_rnic_uverbs_on = false;
	ret = uv_newlink(nd, &siw, &any);
	madcm_rnic_uverbs_on = saved;
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_FALSE(test, siw);
	KUNIT_EXPECT_TRUE(test, any);

	unregister_netdev(nd);
	free_netdev(nd);
}

static struct kunit_case rnic_uverbs_cases[] = {
	KUNIT_CASE(fetch_takes_a_valid_sqe_once),
	KUNIT_CASE(fetch_leaves_an_invalid_slot),
	KUNIT_CASE(flags_flipped_after_fetch_change_nothing),
	KUNIT_CASE(sqe_write_becomes_rdma_write),
	KUNIT_CASE(sqe_opcodes),
	KUNIT_CASE(sqe_send_with_invalidate_names_its_stag),
	KUNIT_CASE(sqe_too_many_sges),
	KUNIT_CASE(sqe_inline),
	KUNIT_CASE(sqe_length_overflow),
	KUNIT_CASE(rqe_checks),
	KUNIT_CASE(sq_fetch_bounded_by_room),
	KUNIT_CASE(cqe_fields),
	KUNIT_CASE(cqe_opcodes_and_statuses),
	KUNIT_CASE(cqe_full_slot_untouched),
	KUNIT_CASE(notify_word),
	KUNIT_CASE(siw_builtin_refuses_user_abi),
	{}
};

static struct kunit_suite rnic_uverbs_suite = {
	.name = "madcm_rnic_uverbs",
	.test_cases = rnic_uverbs_cases,
};

kunit_test_suite(rnic_uverbs_suite);
