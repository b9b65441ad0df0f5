// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: every limit a madcm RNIC states in its attributes is the one it
 * enforces on a kernel consumer (issue 30, item 12; rnic.rst, "Device
 * attributes"). The expectations are the device's own attributes, as
 * ib_core cached them at registration (what ibv_devinfo prints): a
 * consumer gets exactly max_pd PDs, max_cq CQs, max_qp QPs and max_mr MRs,
 * a queue, CQ, SGE list, read depth or page list of the stated size and
 * never one more, and only the page sizes of page_size_cap.
 * tests/vm/62-rnic-limits.sh checks the same from a process.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include "rnic/rnic.h"
#include "tests/kunit/rnic_test_dev.h"

struct rl_fixture {
	struct net_device *nd;
	struct ib_device *ibdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
};

static int rl_init(struct kunit *test)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 4 };
	struct rl_fixture *fx;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx);
	test->priv = fx;
	rnic_test_dev_create(test, "mkl%d", &fx->nd, &fx->ibdev);
	fx->pd = ib_alloc_pd(fx->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fx->pd));
	fx->cq = ib_create_cq(fx->ibdev, NULL, NULL, NULL, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fx->cq));
	return 0;
}

static void rl_exit(struct kunit *test)
{
	struct rl_fixture *fx = test->priv;

	if (!fx)
		return;
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
}

static struct ib_qp *rl_qp(struct rl_fixture *fx, u32 swr, u32 rwr,
			   u32 ssge, u32 rsge)
{
	struct ib_qp_init_attr attr = {
		.send_cq = fx->cq,
		.recv_cq = fx->cq,
		.cap = {
			.max_send_wr = swr,
			.max_recv_wr = rwr,
			.max_send_sge = ssge,
			.max_recv_sge = rsge,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};

	return ib_create_qp(fx->pd, &attr);
}

/* ---- how many of each object: the stated count, never one more ---- */

enum rl_kind { RL_PD, RL_CQ, RL_QP, RL_MR };

struct rl_count {
	enum rl_kind kind;
	const char *name;
};

static const struct rl_count rl_counts[] = {
	{ RL_PD, "max_pd" },
	{ RL_CQ, "max_cq" },
	{ RL_QP, "max_qp" },
	{ RL_MR, "max_mr" },
};

static void rl_count_desc(const struct rl_count *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rl_count, rl_counts, rl_count_desc);

/*
 * The fixture holds one PD (with the DMA MR ib_alloc_pd() makes for it)
 * and one CQ: they count against max_pd, max_mr and max_cq.
 */
static void objects_stop_at_the_stated_count(struct kunit *test)
{
	const struct rl_count *c = test->param_value;
	struct rl_fixture *fx = test->priv;
	const struct ib_device_attr *a = &fx->ibdev->attrs;
	struct ib_cq_init_attr cq_attr = { .cqe = 1 };
	u32 max, held, i, n = 0;
	void **obj;

	switch (c->kind) {
	case RL_PD:
		max = a->max_pd;
		held = 1;
		break;
	case RL_CQ:
		max = a->max_cq;
		held = 1;
		break;
	case RL_QP:
		max = a->max_qp;
		held = 0;
		break;
	default:
		max = a->max_mr;
		held = 1;
		break;
	}
	KUNIT_ASSERT_GT(test, max, held);
	obj = kvcalloc(max + 1, sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	/* one past the limit is asked for; the last must be refused */
	for (i = held; i <= max; i++) {
		void *o;

		switch (c->kind) {
		case RL_PD:
			o = ib_alloc_pd(fx->ibdev, 0);
			break;
		case RL_CQ:
			o = ib_create_cq(fx->ibdev, NULL, NULL, NULL, &cq_attr);
			break;
		case RL_QP:
			o = rl_qp(fx, 1, 1, 1, 1);
			break;
		default:
			o = ib_alloc_mr(fx->pd, IB_MR_TYPE_MEM_REG, 1);
			break;
		}
		if (IS_ERR(o))
			break;
		obj[n++] = o;
	}
	/*
	 * A PD past max_pd may fail in its DMA MR rather than itself: max_mr
	 * is larger, so it does not here.
	 */
	KUNIT_EXPECT_EQ_MSG(test, held + n, max, "%s", c->name);
	while (n--) {
		switch (c->kind) {
		case RL_PD:
			ib_dealloc_pd(obj[n]);
			break;
		case RL_CQ:
			ib_destroy_cq(obj[n]);
			break;
		case RL_QP:
			ib_destroy_qp(obj[n]);
			break;
		default:
			ib_dereg_mr(obj[n]);
			break;
		}
	}
	kvfree(obj);
}

/* ---- the size of each object: the stated one, never one more ---- */

static void cq_of_max_cqe_only(struct kunit *test)
{
	struct rl_fixture *fx = test->priv;
	struct ib_cq_init_attr at = { .cqe = fx->ibdev->attrs.max_cqe };
	struct ib_cq *cq;

	cq = ib_create_cq(fx->ibdev, NULL, NULL, NULL, &at);
	KUNIT_EXPECT_FALSE(test, IS_ERR(cq));
	if (!IS_ERR(cq))
		ib_destroy_cq(cq);
	at.cqe++;
	cq = ib_create_cq(fx->ibdev, NULL, NULL, NULL, &at);
	KUNIT_EXPECT_TRUE(test, IS_ERR(cq));
	if (!IS_ERR(cq))
		ib_destroy_cq(cq);
}

/* A QP with @v[field] at the stated limit is made, one above it is not. */
static void rl_qp_cap(struct kunit *test, int field, u32 max)
{
	struct rl_fixture *fx = test->priv;
	u32 v[4] = { 1, 1, 1, 1 };
	struct ib_qp *qp;

	v[field] = max;
	qp = rl_qp(fx, v[0], v[1], v[2], v[3]);
	KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(qp), "cap %d = %u", field, max);
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
	v[field] = max + 1;
	qp = rl_qp(fx, v[0], v[1], v[2], v[3]);
	KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(qp), "cap %d = %u", field, max + 1);
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
}

static void qp_of_max_wr_and_sge_only(struct kunit *test)
{
	const struct ib_device_attr *a =
		&((struct rl_fixture *)test->priv)->ibdev->attrs;

	rl_qp_cap(test, 0, a->max_qp_wr);
	rl_qp_cap(test, 1, a->max_qp_wr);
	rl_qp_cap(test, 2, a->max_send_sge);
	rl_qp_cap(test, 3, a->max_recv_sge);
}

/* RESET to INIT with a read depth at the stated limit, then one above. */
static void rl_rd_atom(struct kunit *test, int mask, u32 max)
{
	struct rl_fixture *fx = test->priv;
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct ib_qp *qp;
	u32 v;

	for (v = max; v <= max + 1; v++) {
		qp = rl_qp(fx, 1, 1, 1, 1);
		KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
		if (mask == IB_QP_MAX_DEST_RD_ATOMIC)
			attr.max_dest_rd_atomic = v;
		else
			attr.max_rd_atomic = v;
		if (v == max)
			KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr,
							   IB_QP_STATE | mask), 0);
		else
			KUNIT_EXPECT_NE(test, ib_modify_qp(qp, &attr,
							   IB_QP_STATE | mask), 0);
		ib_destroy_qp(qp);
	}
}

static void read_depths_of_max_rd_atom_only(struct kunit *test)
{
	const struct ib_device_attr *a =
		&((struct rl_fixture *)test->priv)->ibdev->attrs;

	rl_rd_atom(test, IB_QP_MAX_DEST_RD_ATOMIC, a->max_qp_rd_atom);
	rl_rd_atom(test, IB_QP_MAX_QP_RD_ATOMIC, a->max_qp_init_rd_atom);
}

static void fast_reg_page_list_of_the_stated_length_only(struct kunit *test)
{
	struct rl_fixture *fx = test->priv;
	u32 max = fx->ibdev->attrs.max_fast_reg_page_list_len;
	struct ib_mr *mr;

	mr = ib_alloc_mr(fx->pd, IB_MR_TYPE_MEM_REG, max);
	KUNIT_EXPECT_FALSE(test, IS_ERR(mr));
	if (!IS_ERR(mr))
		ib_dereg_mr(mr);
	mr = ib_alloc_mr(fx->pd, IB_MR_TYPE_MEM_REG, max + 1);
	KUNIT_EXPECT_TRUE(test, IS_ERR(mr));
	if (!IS_ERR(mr))
		ib_dereg_mr(mr);
}

/* map_mr_sg takes a page size when page_size_cap has it, only then. */
static void page_sizes_of_page_size_cap_only(struct kunit *test)
{
	struct rl_fixture *fx = test->priv;
	u64 cap = fx->ibdev->attrs.page_size_cap;
	struct scatterlist sg;
	struct page *pages;
	unsigned int order;
	struct ib_mr *mr;
	int n;

	/* 16 pages, enough for one page of each size up to PAGE_SIZE << 4 */
	pages = alloc_pages(GFP_KERNEL, 4);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	mr = ib_alloc_mr(fx->pd, IB_MR_TYPE_MEM_REG, 16);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	for (order = 0; order <= 4; order++) {
		unsigned int psize = PAGE_SIZE << order;

		sg_init_table(&sg, 1);
		sg_set_page(&sg, pages, PAGE_SIZE << 4, 0);
		sg_dma_address(&sg) = (u64)(uintptr_t)page_address(pages);
		sg_dma_len(&sg) = PAGE_SIZE << 4;
		n = ib_map_mr_sg(mr, &sg, 1, NULL, psize);
		if (cap & psize)
			KUNIT_EXPECT_EQ_MSG(test, n, 1, "page size %u", psize);
		else
			KUNIT_EXPECT_LT_MSG(test, n, 0,
					    "page size %u, not in the cap 0x%llx",
					    psize, cap);
	}
	ib_dereg_mr(mr);
	__free_pages(pages, 4);
}

/* The identity and the MR size are stated, not left 0 or unbounded. */
static void identity_and_mr_size_are_stated(struct kunit *test)
{
	const struct ib_device_attr *a =
		&((struct rl_fixture *)test->priv)->ibdev->attrs;

	KUNIT_EXPECT_NE(test, a->vendor_id, 0);
	KUNIT_EXPECT_NE(test, a->vendor_part_id, 0);
	/* siw's: a madcm device must not pass for soft-iWARP */
	KUNIT_EXPECT_NE(test, a->vendor_id, 0x626d74);
	KUNIT_EXPECT_NE(test, a->max_mr_size, U64_MAX);
	KUNIT_EXPECT_NE(test, a->max_mr_size, 0);
}

static struct kunit_case rnic_limits_cases[] = {
	KUNIT_CASE_PARAM(objects_stop_at_the_stated_count,
			 rl_count_gen_params),
	KUNIT_CASE(cq_of_max_cqe_only),
	KUNIT_CASE(qp_of_max_wr_and_sge_only),
	KUNIT_CASE(read_depths_of_max_rd_atom_only),
	KUNIT_CASE(fast_reg_page_list_of_the_stated_length_only),
	KUNIT_CASE(page_sizes_of_page_size_cap_only),
	KUNIT_CASE(identity_and_mr_size_are_stated),
	{}
};

static struct kunit_suite rnic_limits_suite = {
	.name = "madcm_rnic_limits",
	.init = rl_init,
	.exit = rl_exit,
	.test_cases = rnic_limits_cases,
};

kunit_test_suite(rnic_limits_suite);
