// SPDX-License-Identifier: GPL-2.0-only
/*
 * A mock InfiniBand device for KUnit (see mad_ib_mock.h): enough verbs
 * for madcm's ib_core transport and for a peer QP of the test, every
 * packet looped back on the device, P_Keys and Q_Keys checked as a
 * channel adapter checks them.
 */
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <rdma/ib_mad.h>

#include "mad_ib_mock.h"

#define MOCK_GRH	sizeof(struct ib_grh)
#define MOCK_PEER_RX	8
#define MOCK_MAD	256

struct mock_pd {
	struct ib_pd ibpd;
};

struct mock_ah {
	struct ib_ah ibah;
	u32 dlid;
	u8 sl;
};

struct mock_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* wcs, head, count, armed */
	struct ib_wc *wcs;
	int size;
	int head;
	int count;
	bool armed;
};

struct mock_rwqe {
	u64 wr_id;
	struct ib_sge sge[2];
	int num_sge;
};

struct mock_qp {
	struct ib_qp ibqp;
	spinlock_t lock;	/* everything below */
	enum ib_qp_state state;
	u16 pkey_index;
	u32 qkey;
	struct mock_rwqe *rq;
	int rq_size;
	int rq_head;
	int rq_count;
	u16 last_pkey;
};

static struct mock_dev *to_mock_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mock_dev, ibdev);
}

static struct mock_cq *to_mock_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct mock_cq, ibcq);
}

static struct mock_qp *to_mock_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mock_qp, ibqp);
}

static struct mock_ah *to_mock_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct mock_ah, ibah);
}

static void mock_cq_push(struct mock_cq *cq, const struct ib_wc *wc)
{
	unsigned long flags;
	bool notify;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->count < cq->size) {
		cq->wcs[(cq->head + cq->count) % cq->size] = *wc;
		cq->count++;
	}
	notify = cq->armed;
	cq->armed = false;
	spin_unlock_irqrestore(&cq->lock, flags);
	if (notify && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

static int mock_poll_cq(struct ib_cq *ibcq, int n, struct ib_wc *wc)
{
	struct mock_cq *cq = to_mock_cq(ibcq);
	unsigned long flags;
	int i;

	spin_lock_irqsave(&cq->lock, flags);
	for (i = 0; i < n && cq->count; i++) {
		wc[i] = cq->wcs[cq->head];
		cq->head = (cq->head + 1) % cq->size;
		cq->count--;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return i;
}

static int mock_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags f)
{
	struct mock_cq *cq = to_mock_cq(ibcq);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&cq->lock, flags);
	cq->armed = true;
	ret = (f & IB_CQ_REPORT_MISSED_EVENTS) && cq->count ? 1 : 0;
	spin_unlock_irqrestore(&cq->lock, flags);
	return ret;
}

static int mock_cq_init(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr)
{
	struct mock_cq *cq = to_mock_cq(ibcq);

	spin_lock_init(&cq->lock);
	cq->size = attr->cqe;
	cq->wcs = kcalloc(cq->size, sizeof(*cq->wcs), GFP_KERNEL);
	if (!cq->wcs)
		return -ENOMEM;
	ibcq->cqe = cq->size;
	return 0;
}

#ifdef MADCM_HAVE_CREATE_CQ_ATTRS
static int mock_create_cq(struct ib_cq *ibcq,
			  const struct ib_cq_init_attr *attr,
			  struct uverbs_attr_bundle *attrs)
{
	return mock_cq_init(ibcq, attr);
}
#else
static int mock_create_cq(struct ib_cq *ibcq,
			  const struct ib_cq_init_attr *attr,
			  struct ib_udata *udata)
{
	return mock_cq_init(ibcq, attr);
}
#endif

static int mock_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	kfree(to_mock_cq(ibcq)->wcs);
	return 0;
}

static int mock_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			  struct ib_udata *udata)
{
	struct mock_dev *md = to_mock_dev(ibqp->device);
	struct mock_qp *qp = to_mock_qp(ibqp);
	u32 qpn;
	int ret;

	/* QP0 and QP1 stay unmade: ib_core's MAD layer does without. */
	if (init->qp_type != IB_QPT_UD)
		return -EOPNOTSUPP;
	spin_lock_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	qp->rq_size = init->cap.max_recv_wr;
	qp->rq = kcalloc(qp->rq_size, sizeof(*qp->rq), GFP_KERNEL);
	if (!qp->rq)
		return -ENOMEM;
	ret = xa_alloc_bh(&md->qps, &qpn, qp, XA_LIMIT(2, 0xffffff),
			  GFP_KERNEL);
	if (ret) {
		kfree(qp->rq);
		return ret;
	}
	ibqp->qp_num = qpn;
	atomic_inc(&md->live_qps);
	return 0;
}

static int mock_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct mock_dev *md = to_mock_dev(ibqp->device);
	struct mock_qp *qp = to_mock_qp(ibqp);

	xa_erase_bh(&md->qps, ibqp->qp_num);
	kfree(qp->rq);
	atomic_dec(&md->live_qps);
	return 0;
}

static void mock_flush_wc(struct ib_qp *ibqp, u64 wr_id, enum ib_wc_opcode op,
			  struct ib_cq *cq)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = op,
		.qp = ibqp,
	};

	mock_cq_push(to_mock_cq(cq), &wc);
}

/* Complete every posted receive as flushed; the QP's lock is held. */
static void mock_flush_rq(struct mock_qp *qp)
{
	while (qp->rq_count) {
		mock_flush_wc(&qp->ibqp, qp->rq[qp->rq_head].wr_id,
			      IB_WC_RECV, qp->ibqp.recv_cq);
		qp->rq_head = (qp->rq_head + 1) % qp->rq_size;
		qp->rq_count--;
	}
}

static int mock_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			  int mask, struct ib_udata *udata)
{
	struct mock_dev *md = to_mock_dev(ibqp->device);
	struct mock_qp *qp = to_mock_qp(ibqp);
	unsigned long flags;
	int ret;

	if ((mask & IB_QP_STATE) && md->modify_hook) {
		ret = md->modify_hook(md, ibqp, attr->qp_state);
		if (ret)
			return ret;
	}
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= md->nr_pkeys)
		return -EINVAL;
	spin_lock_irqsave(&qp->lock, flags);
	if (mask & IB_QP_PKEY_INDEX)
		qp->pkey_index = attr->pkey_index;
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (mask & IB_QP_STATE) {
		if (attr->qp_state == IB_QPS_ERR) {
			mock_flush_rq(qp);
		} else if (attr->qp_state == IB_QPS_RESET) {
			/* RESET discards work requests without completions. */
			qp->rq_head = 0;
			qp->rq_count = 0;
		}
		qp->state = attr->qp_state;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	return 0;
}

static int mock_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			  const struct ib_recv_wr **bad)
{
	struct mock_qp *qp = to_mock_qp(ibqp);
	struct mock_rwqe *e;
	unsigned long flags;
	int ret = 0, i;

	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		if (qp->state == IB_QPS_RESET || wr->num_sge > 2) {
			ret = -EINVAL;
			break;
		}
		if (qp->state == IB_QPS_ERR) {
			mock_flush_wc(ibqp, wr->wr_id, IB_WC_RECV,
				      ibqp->recv_cq);
			continue;
		}
		if (qp->rq_count == qp->rq_size) {
			ret = -ENOMEM;
			break;
		}
		e = &qp->rq[(qp->rq_head + qp->rq_count) % qp->rq_size];
		e->wr_id = wr->wr_id;
		e->num_sge = wr->num_sge;
		for (i = 0; i < wr->num_sge; i++)
			e->sge[i] = wr->sg_list[i];
		qp->rq_count++;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	if (ret && bad)
		*bad = wr;
	return ret;
}

/* IBTA vol. 1 10.9.3: same key, and not both limited members. */
static bool mock_pkey_match(u16 a, u16 b)
{
	return (a & 0x7fff) == (b & 0x7fff) && ((a | b) & 0x8000);
}

/* Scatter @len bytes from @src into @e's buffers, after @skip bytes. */
static void mock_scatter(const struct mock_rwqe *e, size_t skip,
			 const u8 *src, size_t len)
{
	size_t n;
	int i;

	for (i = 0; i < e->num_sge && len; i++) {
		if (skip >= e->sge[i].length) {
			skip -= e->sge[i].length;
			continue;
		}
		n = min_t(size_t, len, e->sge[i].length - skip);
		memcpy((u8 *)(uintptr_t)e->sge[i].addr + skip, src, n);
		src += n;
		len -= n;
		skip = 0;
	}
}

/* One UD packet, gathered from @sg, to the QP @dqpn of the device. */
static void mock_deliver(struct mock_dev *md, u32 src_qpn, u16 pkey,
			 u32 qkey, u32 dqpn, u8 sl, const struct ib_sge *sg,
			 int num_sge)
{
	struct ib_wc wc = {};
	struct mock_rwqe *e;
	unsigned long flags;
	struct mock_qp *dst;
	size_t len = 0;
	int i;

	/* ib_post_send() may be called with IRQs off, as rxe's may. */
	xa_lock_irqsave(&md->qps, flags);
	dst = xa_load(&md->qps, dqpn);
	if (!dst) {
		atomic_inc(&md->drop_no_qp);
		goto out;
	}
	spin_lock(&dst->lock);
	if (dst->state != IB_QPS_RTR && dst->state != IB_QPS_RTS) {
		atomic_inc(&md->drop_no_qp);
	} else if (!mock_pkey_match(pkey, md->pkeys[dst->pkey_index])) {
		atomic_inc(&md->drop_pkey);
	} else if (qkey != dst->qkey) {
		atomic_inc(&md->drop_qkey);
	} else if (!dst->rq_count) {
		atomic_inc(&md->drop_no_recv);
	} else {
		e = &dst->rq[dst->rq_head];
		dst->rq_head = (dst->rq_head + 1) % dst->rq_size;
		dst->rq_count--;
		/* No GRH: the first 40 bytes stay as they were. */
		for (i = 0; i < num_sge; i++) {
			mock_scatter(e, MOCK_GRH + len,
				     (const u8 *)(uintptr_t)sg[i].addr,
				     sg[i].length);
			len += sg[i].length;
		}
		dst->last_pkey = pkey;
		wc.wr_id = e->wr_id;
		wc.status = IB_WC_SUCCESS;
		wc.opcode = IB_WC_RECV;
		wc.byte_len = MOCK_GRH + len;
		wc.qp = &dst->ibqp;
		wc.src_qp = src_qpn;
		wc.slid = MOCK_LID;
		wc.sl = sl;
		wc.pkey_index = 0;	/* defined for the GSI only */
		wc.port_num = 1;
		mock_cq_push(to_mock_cq(dst->ibqp.recv_cq), &wc);
	}
	spin_unlock(&dst->lock);
out:
	xa_unlock_irqrestore(&md->qps, flags);
}

static int mock_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			  const struct ib_send_wr **bad)
{
	struct mock_dev *md = to_mock_dev(ibqp->device);
	struct mock_qp *qp = to_mock_qp(ibqp);
	const struct ib_ud_wr *ud;
	struct ib_wc wc = {};
	enum ib_qp_state state;
	unsigned long flags;
	struct mock_ah *ah;
	u16 pkey_index;
	u32 qkey;

	for (; wr; wr = wr->next) {
		spin_lock_irqsave(&qp->lock, flags);
		state = qp->state;
		pkey_index = qp->pkey_index;
		qkey = qp->qkey;
		spin_unlock_irqrestore(&qp->lock, flags);
		if (state == IB_QPS_ERR) {
			mock_flush_wc(ibqp, wr->wr_id, IB_WC_SEND,
				      ibqp->send_cq);
			continue;
		}
		if (state != IB_QPS_RTS || wr->opcode != IB_WR_SEND) {
			if (bad)
				*bad = wr;
			return -EINVAL;
		}
		ud = ud_wr(wr);
		/* A UD QP sends with its own P_Key (11.4.1.1). */
		if (ibqp->qp_type == IB_QPT_GSI)
			pkey_index = ud->pkey_index;
		ah = to_mock_ah(ud->ah);
		if (ah->dlid == MOCK_LID)
			mock_deliver(md, ibqp->qp_num, md->pkeys[pkey_index],
				     ud->remote_qkey & 0x80000000 ?
				     qkey : ud->remote_qkey,
				     ud->remote_qpn, ah->sl, wr->sg_list,
				     wr->num_sge);
		else
			atomic_inc(&md->drop_no_qp);
		wc.wr_id = wr->wr_id;
		wc.status = IB_WC_SUCCESS;
		wc.opcode = IB_WC_SEND;
		wc.qp = ibqp;
		spin_lock_irqsave(&md->held_lock, flags);
		if (md->held && md->nheld < md->held_cap) {
			md->held[md->nheld++] = wc;
			wc.qp = NULL;
		}
		spin_unlock_irqrestore(&md->held_lock, flags);
		if (wc.qp)
			mock_cq_push(to_mock_cq(ibqp->send_cq), &wc);
	}
	return 0;
}

void mock_dev_hold_sends(struct kunit *test, struct mock_dev *md, int cap)
{
	struct ib_wc *held = kvcalloc(cap, sizeof(*held), GFP_KERNEL);
	unsigned long flags;

	KUNIT_ASSERT_NOT_NULL(test, held);
	mock_dev_release_sends(md);
	spin_lock_irqsave(&md->held_lock, flags);
	md->held = held;
	md->held_cap = cap;
	md->nheld = 0;
	spin_unlock_irqrestore(&md->held_lock, flags);
}

void mock_dev_release_sends(struct mock_dev *md)
{
	unsigned long flags;
	struct ib_wc *held;
	int i, n;

	spin_lock_irqsave(&md->held_lock, flags);
	held = md->held;
	n = md->nheld;
	md->held = NULL;
	md->nheld = 0;
	spin_unlock_irqrestore(&md->held_lock, flags);
	for (i = 0; i < n; i++)
		mock_cq_push(to_mock_cq(held[i].qp->send_cq), &held[i]);
	kvfree(held);
}

static int mock_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int mock_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int mock_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			  struct ib_udata *udata)
{
	struct mock_ah *ah = to_mock_ah(ibah);

	ah->dlid = rdma_ah_get_dlid(init->ah_attr);
	ah->sl = rdma_ah_get_sl(init->ah_attr);
	atomic_inc(&to_mock_dev(ibah->device)->live_ahs);
	return 0;
}

static int mock_destroy_ah(struct ib_ah *ah, u32 flags)
{
	atomic_dec(&to_mock_dev(ah->device)->live_ahs);
	return 0;
}

static struct ib_mr *mock_get_dma_mr(struct ib_pd *pd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static struct ib_mr *mock_reg_user_mr(struct ib_pd *pd, u64 start, u64 len,
				      u64 virt, int access,
				      struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int mock_dereg_mr(struct ib_mr *mr, struct ib_udata *udata)
{
	return 0;
}

static int mock_query_device(struct ib_device *ibdev,
			     struct ib_device_attr *attr,
			     struct ib_udata *udata)
{
	memset(attr, 0, sizeof(*attr));
	attr->max_qp = 1024;
	attr->max_qp_wr = 16384;
	attr->max_send_sge = 2;
	attr->max_recv_sge = 2;
	attr->max_cq = 1024;
	attr->max_cqe = 65536;
	attr->max_pd = 1024;
	attr->max_ah = 65536;
	attr->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	return 0;
}

static int mock_query_port(struct ib_device *ibdev, u32 port,
			   struct ib_port_attr *attr)
{
	struct mock_dev *md = to_mock_dev(ibdev);

	memset(attr, 0, sizeof(*attr));
	attr->state = IB_PORT_ACTIVE;
	attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_4096;
	attr->lid = MOCK_LID;
	attr->sm_lid = MOCK_LID;
	attr->gid_tbl_len = 1;
	attr->pkey_tbl_len = md->nr_pkeys;
	attr->max_msg_sz = 4096;
	attr->active_width = IB_WIDTH_1X;
	attr->active_speed = IB_SPEED_SDR;
	return 0;
}

static int mock_get_port_immutable(struct ib_device *ibdev, u32 port,
				   struct ib_port_immutable *im)
{
	im->pkey_tbl_len = to_mock_dev(ibdev)->nr_pkeys;
	im->gid_tbl_len = 1;
	/* MADs, and nothing that would bring ib_cm or ib_sa along. */
	im->core_cap_flags = RDMA_CORE_CAP_PROT_IB | RDMA_CORE_CAP_IB_MAD;
	im->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer mock_get_link_layer(struct ib_device *ibdev,
						u32 port)
{
	return IB_LINK_LAYER_INFINIBAND;
}

static int mock_query_gid(struct ib_device *ibdev, u32 port, int index,
			  union ib_gid *gid)
{
	if (index)
		return -EINVAL;
	memset(gid, 0, sizeof(*gid));
	gid->global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	gid->global.interface_id = ibdev->node_guid;
	return 0;
}

static int mock_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			   u16 *pkey)
{
	struct mock_dev *md = to_mock_dev(ibdev);

	if (index >= md->nr_pkeys)
		return -EINVAL;
	*pkey = md->pkeys[index];
	return 0;
}

static const struct ib_device_ops mock_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,

	.alloc_pd = mock_alloc_pd,
	.create_ah = mock_create_ah,
	.create_cq = mock_create_cq,
	.create_qp = mock_create_qp,
	.dealloc_pd = mock_dealloc_pd,
	.dereg_mr = mock_dereg_mr,
	.destroy_ah = mock_destroy_ah,
	.destroy_cq = mock_destroy_cq,
	.destroy_qp = mock_destroy_qp,
	.get_dma_mr = mock_get_dma_mr,
	.get_link_layer = mock_get_link_layer,
	.get_port_immutable = mock_get_port_immutable,
	.modify_qp = mock_modify_qp,
	.poll_cq = mock_poll_cq,
	.post_recv = mock_post_recv,
	.post_send = mock_post_send,
	.query_device = mock_query_device,
	.query_gid = mock_query_gid,
	.query_pkey = mock_query_pkey,
	.query_port = mock_query_port,
	.reg_user_mr = mock_reg_user_mr,
	.req_notify_cq = mock_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, mock_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, mock_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, mock_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, mock_qp, ibqp),
};

struct mock_dev_res {
	struct mock_dev *md;
	bool removed;
};

static int mock_res_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

static void mock_dev_free(struct kunit_resource *res)
{
	struct mock_dev_res *r = res->data;

	/* What a failed test left held, before the device goes. */
	mock_dev_release_sends(r->md);
	if (!r->removed)
		ib_unregister_device(&r->md->ibdev);
	ib_dealloc_device(&r->md->ibdev);
	kfree(r);
}

static bool mock_dev_match(struct kunit *test, struct kunit_resource *res,
			   void *md)
{
	return res->free == mock_dev_free &&
	       ((struct mock_dev_res *)res->data)->md == md;
}

struct mock_dev *mock_dev_add(struct kunit *test, const u16 *pkeys, int n)
{
	return mock_dev_add_hooked(test, pkeys, n, NULL, NULL);
}

struct mock_dev *mock_dev_add_hooked(struct kunit *test, const u16 *pkeys,
				     int n, mock_modify_hook_t hook,
				     void *data)
{
	struct mock_dev_res *r;
	struct mock_dev *md;
	int ret;

	KUNIT_ASSERT_LE(test, n, MOCK_MAX_PKEYS);
	md = ib_alloc_device(mock_dev, ibdev);
	KUNIT_ASSERT_NOT_NULL(test, md);
	memcpy(md->pkeys, pkeys, n * sizeof(*pkeys));
	md->nr_pkeys = n;
	xa_init_flags(&md->qps, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_BH);
	spin_lock_init(&md->held_lock);
	md->modify_hook = hook;
	md->hook_data = data;
	md->ibdev.node_type = RDMA_NODE_IB_CA;
	md->ibdev.phys_port_cnt = 1;
	md->ibdev.num_comp_vectors = 1;
	md->ibdev.node_guid = cpu_to_be64(0x0002c90300000001ULL);
	ib_set_device_ops(&md->ibdev, &mock_ops);
	/* No DMA device: DMA addresses are kernel addresses. */
	ret = ib_register_device(&md->ibdev, "mcmock%d", NULL);
	if (ret) {
		ib_dealloc_device(&md->ibdev);
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->md = md;
	kunit_alloc_resource(test, mock_res_init, mock_dev_free, GFP_KERNEL,
			     r);
	return md;
}

/* Remove the device now; the test's resource only deallocates it. */
void mock_dev_remove_now(struct kunit *test, struct mock_dev *md)
{
	struct kunit_resource *res;

	res = kunit_find_resource(test, mock_dev_match, md);
	KUNIT_ASSERT_NOT_NULL(test, res);
	ib_unregister_device(&md->ibdev);
	((struct mock_dev_res *)res->data)->removed = true;
	kunit_put_resource(res);
}

static void mock_peer_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct mock_peer *p = cq->cq_context;
	int i = wc->wr_cqe - p->rx_cqe;
	u8 *buf = p->buf + i * (MOCK_GRH + MOCK_MAD);
	struct ib_sge sge = {
		.addr = (uintptr_t)buf,
		.length = MOCK_GRH + MOCK_MAD,
		.lkey = p->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_cqe = wc->wr_cqe, .sg_list = &sge,
				 .num_sge = 1 };

	if (wc->status != IB_WC_SUCCESS)
		return;
	p->wc = *wc;
	memcpy(p->mad, buf + MOCK_GRH, MOCK_MAD);
	p->received++;
	ib_post_recv(p->qp, &wr, NULL);
}

static void mock_peer_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
}

static void mock_peer_free(struct kunit_resource *res)
{
	struct mock_peer *p = res->data;

	if (!IS_ERR_OR_NULL(p->ah))
		rdma_destroy_ah(p->ah, RDMA_DESTROY_AH_SLEEPABLE);
	if (!IS_ERR_OR_NULL(p->qp))
		ib_destroy_qp(p->qp);
	if (!IS_ERR_OR_NULL(p->cq))
		ib_free_cq(p->cq);
	if (!IS_ERR_OR_NULL(p->pd))
		ib_dealloc_pd(p->pd);
	p->ah = NULL;
	p->qp = NULL;
	p->cq = NULL;
	p->pd = NULL;
}

struct mock_peer *mock_peer_new(struct kunit *test, struct mock_dev *md,
				u16 pkey_index, enum ib_qp_type type)
{
	struct ib_qp_init_attr init = {
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = {
			.max_send_wr = MOCK_PEER_RX,
			.max_recv_wr = MOCK_PEER_RX,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.port_num = 1,
	};
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = pkey_index,
		.port_num = 1,
		.qkey = IB_QP1_QKEY,
	};
	struct rdma_ah_attr ah_attr = {};
	struct mock_peer *p;
	int i;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->buf = kunit_kzalloc(test, MOCK_PEER_RX * (MOCK_GRH + MOCK_MAD),
			       GFP_KERNEL);
	p->tx = kunit_kzalloc(test, MOCK_MAD, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->buf);
	KUNIT_ASSERT_NOT_NULL(test, p->tx);
	kunit_alloc_resource(test, mock_res_init, mock_peer_free, GFP_KERNEL,
			     p);
	p->pd = ib_alloc_pd(&md->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->pd));
	p->cq = ib_alloc_cq(&md->ibdev, p, 2 * MOCK_PEER_RX, 0,
			    IB_POLL_DIRECT);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->cq));
	init.send_cq = p->cq;
	init.recv_cq = p->cq;
	p->qp = ib_create_qp(p->pd, &init);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->qp));
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p->qp, &attr, IB_QP_STATE |
					   IB_QP_PKEY_INDEX | IB_QP_PORT |
					   IB_QP_QKEY), 0);
	for (i = 0; i < MOCK_PEER_RX; i++) {
		struct ib_sge sge = {
			.addr = (uintptr_t)(p->buf + i * (MOCK_GRH + MOCK_MAD)),
			.length = MOCK_GRH + MOCK_MAD,
			.lkey = p->pd->local_dma_lkey,
		};
		struct ib_recv_wr wr = { .wr_cqe = &p->rx_cqe[i],
					 .sg_list = &sge, .num_sge = 1 };

		p->rx_cqe[i].done = mock_peer_recv_done;
		KUNIT_ASSERT_EQ(test, ib_post_recv(p->qp, &wr, NULL), 0);
	}
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p->qp, &attr, IB_QP_STATE), 0);
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(p->qp, &attr,
					   IB_QP_STATE | IB_QP_SQ_PSN), 0);
	p->tx_cqe.done = mock_peer_send_done;
	ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_port_num(&ah_attr, 1);
	rdma_ah_set_dlid(&ah_attr, MOCK_LID);
	p->ah = rdma_create_ah(p->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->ah));
	return p;
}

void mock_peer_destroy(struct kunit *test, struct mock_peer *p)
{
	struct kunit_resource res = { .data = p };

	mock_peer_free(&res);
}

bool mock_peer_wait(struct mock_peer *p, int n)
{
	int i;

	for (i = 0; i < 250; i++) {
		ib_process_cq_direct(p->cq, 16);
		if (p->received >= n)
			return true;
		msleep(20);
	}
	return false;
}

int mock_peer_send(struct mock_peer *p, const void *mad, u32 qpn)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)p->tx,
		.length = MOCK_MAD,
		.lkey = p->pd->local_dma_lkey,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = &p->tx_cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = p->ah,
		.remote_qpn = qpn,
		.remote_qkey = IB_QP1_QKEY,
	};
	int ret;

	memcpy(p->tx, mad, MOCK_MAD);
	ret = ib_post_send(p->qp, &wr.wr, NULL);
	ib_process_cq_direct(p->cq, 16);
	return ret;
}

u16 mock_last_pkey(struct mock_dev *md, u32 qpn)
{
	struct mock_qp *qp;
	u16 pkey = 0;

	xa_lock_bh(&md->qps);
	qp = xa_load(&md->qps, qpn);
	if (qp) {
		spin_lock(&qp->lock);
		pkey = qp->last_pkey;
		spin_unlock(&qp->lock);
	}
	xa_unlock_bh(&md->qps);
	return pkey;
}

void mock_dev_inject(struct mock_dev *md, u32 dqpn, u32 src_qpn, u32 qkey,
		     const void *mad, u32 len)
{
	struct ib_sge sge = { .addr = (uintptr_t)mad, .length = len };

	mock_deliver(md, src_qpn, md->pkeys[0], qkey, dqpn, 0, &sge, 1);
}

int mock_qp_rq_count(struct ib_qp *ibqp)
{
	struct mock_qp *qp = to_mock_qp(ibqp);
	unsigned long flags;
	int n;

	spin_lock_irqsave(&qp->lock, flags);
	n = qp->rq_count;
	spin_unlock_irqrestore(&qp->lock, flags);
	return n;
}
