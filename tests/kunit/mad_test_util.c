// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers shared by the MAD core's KUnit suites (see mad_test_util.h).
 */
#include <kunit/resource.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "mad_test_util.h"

static void mt_free_fabric(struct kunit_resource *res)
{
	madcm_loop_fabric_destroy(res->data);
}

struct madcm_loop_fabric *mt_fabric(struct kunit *test, u64 seed)
{
	struct madcm_loop_fabric *fab = madcm_loop_fabric_create(seed);

	KUNIT_ASSERT_FALSE(test, IS_ERR(fab));
	kunit_alloc_resource(test, NULL, mt_free_fabric, GFP_KERNEL, fab);
	return fab;
}

static int mt_res_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

static void mt_free_loop_port(struct kunit_resource *res)
{
	madcm_loop_port_destroy(res->data);
}

struct madcm_port *mt_loop_port(struct kunit *test,
				struct madcm_loop_fabric *fab, u32 lid,
				bool opa)
{
	struct madcm_port *port = madcm_loop_port_create(fab, lid, opa);

	KUNIT_ASSERT_FALSE(test, IS_ERR(port));
	kunit_alloc_resource(test, mt_res_init, mt_free_loop_port, GFP_KERNEL,
			     port);
	return port;
}

static void mt_free_agent(struct kunit_resource *res)
{
	mt_unregister(res->data);
}

void mt_unregister(struct mt_agent *ma)
{
	struct mt_post *p;

	if (ma->mm)
		while ((p = mt_manual_pop(ma->mm)))
			mt_manual_complete(ma->mm, p, IB_WC_WR_FLUSH_ERR);
	if (ma->agent)
		madcm_unregister_mad_agent(ma->agent);
	ma->agent = NULL;
}

struct mt_agent *mt_register(struct kunit *test, struct madcm_port *port,
			     enum ib_qp_type qp_type,
			     struct ib_mad_reg_req *req, u8 rmpp_version,
			     ib_mad_send_handler sh, ib_mad_recv_handler rh,
			     void *context)
{
	return mt_register_flags(test, port, qp_type, req, rmpp_version, sh,
				 rh, context, 0);
}

struct mt_agent *mt_register_flags(struct kunit *test,
				   struct madcm_port *port,
				   enum ib_qp_type qp_type,
				   struct ib_mad_reg_req *req, u8 rmpp_version,
				   ib_mad_send_handler sh,
				   ib_mad_recv_handler rh, void *context,
				   u32 flags)
{
	struct mt_agent *ma = kunit_kzalloc(test, sizeof(*ma), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ma);
	ma->agent = madcm_register_mad_agent(port, qp_type, req, rmpp_version,
					     sh, rh, context, flags);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ma->agent), "register: %ld",
			       PTR_ERR(ma->agent));
	kunit_alloc_resource(test, mt_res_init, mt_free_agent, GFP_KERNEL, ma);
	return ma;
}

static void mt_free_ah(struct kunit_resource *res)
{
	madcm_destroy_ah(res->data);
}

struct ib_ah *mt_ah(struct kunit *test, struct madcm_port *port, u32 dlid)
{
	struct rdma_ah_attr attr = { .type = RDMA_AH_ATTR_TYPE_IB };
	struct ib_ah *ah;

	rdma_ah_set_dlid(&attr, dlid);
	ah = madcm_create_ah(port, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	kunit_alloc_resource(test, mt_res_init, mt_free_ah, GFP_KERNEL, ah);
	return ah;
}

void mt_reg_req(struct ib_mad_reg_req *req, u8 mgmt_class, u8 version,
		const u8 *methods, int nr_methods)
{
	int i;

	memset(req, 0, sizeof(*req));
	req->mgmt_class = mgmt_class;
	req->mgmt_class_version = version;
	for (i = 0; i < nr_methods; i++)
		set_bit(methods[i], req->method_mask);
}

struct ib_mad_send_buf *mt_get_mad(struct kunit *test,
				   struct ib_mad_agent *agent,
				   struct ib_ah *ah, u32 tid_lo,
				   int timeout_ms, int retries)
{
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;

	sb = madcm_create_send_mad(agent, 1, 0, 0, IB_MGMT_MAD_HDR,
				   IB_MGMT_MAD_DATA, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	hdr = sb->mad;
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = MT_CLASS;
	hdr->class_version = MT_VERSION;
	hdr->method = IB_MGMT_METHOD_GET;
	hdr->tid = cpu_to_be64((u64)agent->hi_tid << 32 | tid_lo);
	hdr->attr_id = cpu_to_be16(0x10);
	sb->ah = ah;
	sb->timeout_ms = timeout_ms;
	sb->retries = retries;
	return sb;
}

/* The manual transport. */

static int mt_manual_post(struct madcm_port *port,
			  const struct madcm_port_send *ps)
{
	struct mt_manual *mm = port->priv;
	unsigned long flags;
	struct mt_post *p;

	if (mm->fail_posts) {
		mm->fail_posts--;
		return -EIO;
	}
	p = kzalloc(sizeof(*p), GFP_ATOMIC);
	if (!p)
		return -ENOMEM;
	p->send = ps->send;
	p->dlid = rdma_ah_get_dlid(&ps->ah->attr);
	p->remote_qpn = ps->remote_qpn;
	p->src_qpn = ps->src_qpn;
	p->pkey_index = ps->pkey_index;
	p->len = ps->hdr_len + ps->payload_len;
	memcpy(p->mad, ps->hdr, ps->hdr_len);
	memcpy(p->mad + ps->hdr_len, ps->payload, ps->payload_len);
	/* A transport's post may be called with IRQs off: keep them so. */
	spin_lock_irqsave(&mm->lock, flags);
	list_add_tail(&p->node, &mm->posts);
	mm->nr_posts++;
	spin_unlock_irqrestore(&mm->lock, flags);
	return 0;
}

/*
 * With ah_sleeps, address handles are made as by the ib_core transport
 * on RoCE: never in atomic context.
 */
static int mt_manual_create_ah(struct madcm_port *port, struct madcm_ah *ah,
			       gfp_t gfp)
{
	struct mt_manual *mm = port->priv;

	struct completion *gate = READ_ONCE(mm->ah_gate);

	if (READ_ONCE(mm->ah_sleeps) && !gfpflags_allow_blocking(gfp))
		return -EAGAIN;
	/* A neighbour that does not answer, until the test lets it. */
	if (READ_ONCE(mm->ah_sleeps) && gate)
		wait_for_completion(gate);
	return 0;
}

static const struct madcm_port_ops mt_manual_ops = {
	.create_ah = mt_manual_create_ah,
	.post_send = mt_manual_post,
};

static void mt_free_manual(struct kunit_resource *res)
{
	struct mt_manual *mm = res->data;
	struct mt_post *p;

	/* Complete what the test left, as a transport being torn down. */
	while ((p = mt_manual_pop(mm)))
		mt_manual_complete(mm, p, IB_WC_WR_FLUSH_ERR);
}

static void mt_free_manual_port(struct kunit_resource *res)
{
	madcm_port_unregister(res->data);
}

struct mt_manual *mt_manual_port(struct kunit *test, u32 lid, bool opa)
{
	return mt_manual_port_pkeys(test, lid, opa, 0);
}

struct mt_manual *mt_manual_port_pkeys(struct kunit *test, u32 lid, bool opa,
				       u16 nr_pkeys)
{
	struct madcm_port_attr attr = {
		.name = "mt-manual", .lid = lid, .opa = opa, .smi = true,
		.nr_pkeys = nr_pkeys,
	};
	struct mt_manual *mm = kunit_kzalloc(test, sizeof(*mm), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mm);
	spin_lock_init(&mm->lock);
	INIT_LIST_HEAD(&mm->posts);
	mm->port = madcm_port_register(&mt_manual_ops, &attr, mm);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mm->port));
	kunit_alloc_resource(test, mt_res_init, mt_free_manual_port,
			     GFP_KERNEL, mm->port);
	kunit_alloc_resource(test, mt_res_init, mt_free_manual, GFP_KERNEL,
			     mm);
	return mm;
}

struct mt_post *mt_manual_pop(struct mt_manual *mm)
{
	struct mt_post *p;

	spin_lock_bh(&mm->lock);
	p = list_first_entry_or_null(&mm->posts, struct mt_post, node);
	if (p)
		list_del(&p->node);
	spin_unlock_bh(&mm->lock);
	return p;
}

void mt_manual_complete(struct mt_manual *mm, struct mt_post *p,
			enum ib_wc_status status)
{
	if (!p)
		return;
	madcm_port_send_complete(mm->port, p->send, status);
	kfree(p);
}

void mt_manual_deliver(struct mt_manual *mm, const void *mad, size_t len,
		       u32 qpn, u32 slid, u32 src_qp)
{
	struct madcm_port_rx rx = {
		.mad = mad, .len = len, .qpn = qpn, .slid = slid,
		.src_qp = src_qp,
	};

	madcm_port_deliver(mm->port, &rx);
}

/* Counting handlers. */

void mt_counts_init(struct mt_counts *c, int target)
{
	memset(c, 0, sizeof(*c));
	atomic_set(&c->target, target);
	init_completion(&c->reached);
}

void mt_count_send_handler(struct ib_mad_agent *agent,
			   struct ib_mad_send_wc *wc)
{
	struct mt_counts *c = agent->context;

	if (wc->status < ARRAY_SIZE(c->status))
		atomic_inc(&c->status[wc->status]);
	/* context[1] marks a send whose send handler ran. */
	if (wc->send_buf->context[1])
		atomic_inc(&c->order_errors);
	wc->send_buf->context[1] = (void *)1UL;
	atomic_set(&c->last_retries, wc->send_buf->retries);
	if (c->free_on_send)
		madcm_free_send_mad(wc->send_buf);
	if (atomic_inc_return(&c->sends) == atomic_read(&c->target))
		complete(&c->reached);
}

void mt_count_recv_handler(struct ib_mad_agent *agent,
			   struct ib_mad_send_buf *send_buf,
			   struct ib_mad_recv_wc *wc)
{
	struct mt_counts *c = agent->context;

	if (send_buf) {
		atomic_inc(&c->resp_with_send);
		/* The response must come before its send's completion. */
		if (send_buf->context[1])
			atomic_inc(&c->order_errors);
	}
	atomic_inc(&c->recvs);
	madcm_free_recv_mad(wc);
}

bool mt_wait(struct mt_counts *c, unsigned long secs)
{
	return wait_for_completion_timeout(&c->reached, secs * HZ) != 0;
}

bool mt_wait_posts(struct mt_manual *mm, int n)
{
	int i;

	for (i = 0; i < 10000; i++) {
		if (READ_ONCE(mm->nr_posts) >= n)
			return true;
		usleep_range(1000, 2000);
	}
	return false;
}

void mt_make_response(const void *req, u8 *resp)
{
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)resp;

	memcpy(resp, req, sizeof(struct ib_mad));
	hdr->method = IB_MGMT_METHOD_GET_RESP;
}

/* The responder. */

static void mt_responder_send(struct ib_mad_agent *agent,
			      struct ib_mad_send_wc *wc)
{
	madcm_destroy_ah(wc->send_buf->ah);
	madcm_free_send_mad(wc->send_buf);
}

static void mt_responder_recv(struct ib_mad_agent *agent,
			      struct ib_mad_send_buf *send_buf,
			      struct ib_mad_recv_wc *wc)
{
	struct madcm_agent *ag = to_madcm_agent(agent);
	const struct ib_mad_hdr *req = &wc->recv_buf.mad->mad_hdr;
	atomic_t *answered = agent->context;
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;
	struct ib_ah *ah;

	ah = madcm_create_ah_from_wc(ag->port, wc->wc, wc->recv_buf.grh);
	if (IS_ERR(ah))
		goto out;
	sb = madcm_create_send_mad(agent, wc->wc->src_qp, wc->wc->pkey_index,
				   0, IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA,
				   GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		madcm_destroy_ah(ah);
		goto out;
	}
	hdr = sb->mad;
	*hdr = *req;
	hdr->method = IB_MGMT_METHOD_GET_RESP;
	sb->ah = ah;
	if (madcm_post_send_mad(sb, NULL)) {
		madcm_free_send_mad(sb);
		madcm_destroy_ah(ah);
		goto out;
	}
	if (answered)
		atomic_inc(answered);
out:
	madcm_free_recv_mad(wc);
}

struct mt_agent *mt_responder(struct kunit *test, struct madcm_port *port,
			      atomic_t *answered)
{
	static const u8 methods[] = { IB_MGMT_METHOD_GET, IB_MGMT_METHOD_SET };
	struct ib_mad_reg_req req;

	mt_reg_req(&req, MT_CLASS, MT_VERSION, methods, ARRAY_SIZE(methods));
	return mt_register(test, port, IB_QPT_GSI, &req, 0, mt_responder_send,
			   mt_responder_recv, answered);
}

long mt_counter(struct madcm_port *port, enum madcm_port_counter c)
{
	return atomic_long_read(&port->counters[c]);
}
