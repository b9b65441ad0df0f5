// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_rdmacm_test.ko: an in-kernel rdma_cm ULP for the VM tests, on the
 * kernel's rdma_cm API only (no madcm symbol), so that it runs the same on
 * any RDMA device: rxe, siw, a madcm RNIC. Control and results are in
 * debugfs under /sys/kernel/debug/madcm_rdmacm_test/:
 *
 *   ctl        write one command per write(2):
 *                listen NAME ADDR PORT [mode=accept|reject] [pdata=HEX]
 *                       [backlog=N]
 *                unlisten NAME
 *                connect NAME ADDR PORT [pdata=HEX] [count=N] [close=0|1]
 *                        [src=ADDR [sport=PORT]]
 *                disconnect CONN
 *                destroy CONN
 *   conns      one line per connection: its events in order, each as
 *              TYPE/STATUS[/PRIVATE_DATA_HEX], and its state
 *   listeners  one line per listener
 *   counters   "name value" lines
 *
 * A listener's connections are NAME.0, NAME.1, ...; connect's are NAME.0
 * to NAME.(N-1), started one after the other: the next when the previous
 * is established (close=0) or, with close=1, when the previous one, which
 * disconnects itself once established, has ended. Every connection owns a
 * PD, a CQ and an RC QP on its id's device. Its terminal event (rejected,
 * unreachable, disconnected, an error, device removal) has a work item
 * destroy the id first, then the QP, CQ and PD: an iWARP provider may hold
 * the QP until iw_cm lets go of it, which it does when the id goes (a
 * destroy_qp that waits for that would never return in the handler).
 * A rejected request has no QP: the handler's return destroys its id.
 * Commands run in the writer's network namespace. Unloading destroys
 * everything. The commands and the output are in rdmacm_test_ctl.c.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_cm.h>
#include "rdmacm_test.h"

DEFINE_MUTEX(rt_mutex);		/* serialises commands */
DEFINE_SPINLOCK(rt_lock);	/* lists, records, rt_stopping */
LIST_HEAD(rt_listeners);
LIST_HEAD(rt_conns);
LIST_HEAD(rt_batches);
bool rt_stopping;
struct rt_counters rt_cnt;

static void rt_conn_destroy_work(struct work_struct *work);

static const char *const rt_event_names[] = {
	[RDMA_CM_EVENT_ADDR_RESOLVED] = "ADDR_RESOLVED",
	[RDMA_CM_EVENT_ADDR_ERROR] = "ADDR_ERROR",
	[RDMA_CM_EVENT_ROUTE_RESOLVED] = "ROUTE_RESOLVED",
	[RDMA_CM_EVENT_ROUTE_ERROR] = "ROUTE_ERROR",
	[RDMA_CM_EVENT_CONNECT_REQUEST] = "CONNECT_REQUEST",
	[RDMA_CM_EVENT_CONNECT_RESPONSE] = "CONNECT_RESPONSE",
	[RDMA_CM_EVENT_CONNECT_ERROR] = "CONNECT_ERROR",
	[RDMA_CM_EVENT_UNREACHABLE] = "UNREACHABLE",
	[RDMA_CM_EVENT_REJECTED] = "REJECTED",
	[RDMA_CM_EVENT_ESTABLISHED] = "ESTABLISHED",
	[RDMA_CM_EVENT_DISCONNECTED] = "DISCONNECTED",
	[RDMA_CM_EVENT_DEVICE_REMOVAL] = "DEVICE_REMOVAL",
	[RDMA_CM_EVENT_MULTICAST_JOIN] = "MULTICAST_JOIN",
	[RDMA_CM_EVENT_MULTICAST_ERROR] = "MULTICAST_ERROR",
	[RDMA_CM_EVENT_ADDR_CHANGE] = "ADDR_CHANGE",
	[RDMA_CM_EVENT_TIMEWAIT_EXIT] = "TIMEWAIT_EXIT",
};

const char *rt_event_name(enum rdma_cm_event_type t)
{
	if (t < ARRAY_SIZE(rt_event_names) && rt_event_names[t])
		return rt_event_names[t];
	return "UNKNOWN";
}

/* The events after which a connection's id is destroyed. */
static bool rt_is_terminal(enum rdma_cm_event_type t)
{
	switch (t) {
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return true;
	default:
		return false;
	}
}

static void rt_count_terminal(enum rdma_cm_event_type t)
{
	switch (t) {
	case RDMA_CM_EVENT_REJECTED:
		atomic_inc(&rt_cnt.rejected);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		atomic_inc(&rt_cnt.disconnected);
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
		atomic_inc(&rt_cnt.unreachable);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		atomic_inc(&rt_cnt.device_removals);
		break;
	default:
		atomic_inc(&rt_cnt.other_terminal);
		break;
	}
}

/* Record @ev on @c, with what the id knows at this point. */
static void rt_record(struct rt_conn *c, struct rdma_cm_id *id,
		      const struct rdma_cm_event *ev)
{
	const struct rdma_conn_param *p = &ev->param.conn;
	struct rt_event *e;

	spin_lock_bh(&rt_lock);
	if (c->nevents < RT_MAX_EVENTS) {
		e = &c->events[c->nevents];
		e->type = ev->event;
		e->status = ev->status;
		e->pdata_len = 0;
		if (p->private_data && p->private_data_len) {
			e->pdata_len = p->private_data_len;
			memcpy(e->pdata, p->private_data, e->pdata_len);
		}
	}
	c->nevents++;
	if (id->device && !c->dev[0])
		strscpy(c->dev, dev_name(&id->device->dev), sizeof(c->dev));
	memcpy(&c->src, &id->route.addr.src_addr, sizeof(c->src));
	memcpy(&c->dst, &id->route.addr.dst_addr, sizeof(c->dst));
	if (ev->event == RDMA_CM_EVENT_ESTABLISHED) {
		c->established = true;
		/* For iWARP, rdma_cm gives IRD as initiator_depth. */
		c->ird = p->initiator_depth;
		c->ord = p->responder_resources;
	}
	spin_unlock_bh(&rt_lock);
}

static void rt_set_error(struct rt_conn *c, const char *step, int err)
{
	spin_lock_bh(&rt_lock);
	c->err_step = step;
	c->err = err;
	spin_unlock_bh(&rt_lock);
	atomic_inc(&rt_cnt.local_errors);
}

/* Have the id of @c destroyed, unless the module is going away. */
static void rt_conn_end(struct rt_conn *c)
{
	c->terminal = true;
	spin_lock_bh(&rt_lock);
	if (!rt_stopping)
		queue_work(system_wq, &c->destroy_work);
	spin_unlock_bh(&rt_lock);
}

/* Wake the batch of @c, unless the module is going away. */
void rt_batch_kick(struct rt_conn *c)
{
	if (!c->batch)
		return;
	spin_lock_bh(&rt_lock);
	if (!rt_stopping)
		queue_work(system_wq, &c->batch->work);
	spin_unlock_bh(&rt_lock);
}

/*
 * A PD, a CQ and an RC QP on the id's device, and what @o asks for data
 * (buffers, MRs, receives posted); c->lock held.
 */
static int rt_conn_resources(struct rt_conn *c, struct rdma_cm_id *id,
			     const struct rt_dopts *o)
{
	u32 depth = o->size ? RT_DATA_WR : RT_QP_WR;
	struct ib_qp_init_attr qa = {};
	int ret;

	c->pd = ib_alloc_pd(id->device, o->size && o->mr == RT_MR_GLOBAL ?
			    IB_PD_UNSAFE_GLOBAL_RKEY : 0);
	if (IS_ERR(c->pd)) {
		ret = PTR_ERR(c->pd);
		c->pd = NULL;
		rt_set_error(c, "alloc_pd", ret);
		return ret;
	}
	atomic_inc(&rt_cnt.pds);
	c->cq = ib_alloc_cq(id->device, c, 2 * depth + 1, 0,
			    IB_POLL_WORKQUEUE);
	if (IS_ERR(c->cq)) {
		ret = PTR_ERR(c->cq);
		c->cq = NULL;
		rt_set_error(c, "alloc_cq", ret);
		return ret;
	}
	atomic_inc(&rt_cnt.cqs);
	qa.send_cq = c->cq;
	qa.recv_cq = c->cq;
	qa.qp_type = IB_QPT_RC;
	qa.sq_sig_type = IB_SIGNAL_REQ_WR;
	qa.cap.max_send_wr = depth;
	qa.cap.max_recv_wr = depth;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	ret = rdma_create_qp(id, c->pd, &qa);
	if (ret) {
		rt_set_error(c, "create_qp", ret);
		return ret;
	}
	c->qp = id->qp;
	atomic_inc(&rt_cnt.qps);
	if (!o->size)
		return 0;
	ret = rt_data_create(c, o);
	if (ret)
		rt_set_error(c, "data", ret);
	return ret;
}

/* Give back the QP, CQ and PD, once the id is gone (or never had them). */
static void rt_conn_release(struct rt_conn *c)
{
	rt_data_stop(c);
	if (c->qp) {
		ib_destroy_qp(c->qp);
		c->qp = NULL;
		atomic_dec(&rt_cnt.qps);
	}
	if (c->cq) {
		ib_free_cq(c->cq);
		c->cq = NULL;
		atomic_dec(&rt_cnt.cqs);
	}
	/* No work request is left to use the buffers or the MRs. */
	rt_data_destroy(c);
	if (c->pd) {
		ib_dealloc_pd(c->pd);
		c->pd = NULL;
		atomic_dec(&rt_cnt.pds);
	}
}

/*
 * A rejected request's id, which has no QP, CQ or PD, is about to be
 * destroyed by rdma_cm (the handler returns non-zero); c->lock held.
 */
static int rt_conn_end_in_handler(struct rt_conn *c)
{
	c->id = NULL;
	spin_lock_bh(&rt_lock);
	c->destroyed = true;
	spin_unlock_bh(&rt_lock);
	atomic_inc(&rt_cnt.ids_destroyed);
	return 1;
}

static void rt_conn_param(struct rdma_conn_param *p, struct ib_device *dev,
			  const u8 *pdata, u8 pdata_len, u8 resp, u8 init)
{
	memset(p, 0, sizeof(*p));
	p->private_data = pdata_len ? pdata : NULL;
	p->private_data_len = pdata_len;
	p->responder_resources = min_t(u32, resp, dev->attrs.max_qp_rd_atom);
	p->initiator_depth = min_t(u32, init, dev->attrs.max_qp_init_rd_atom);
	p->retry_count = 7;
	p->rnr_retry_count = 7;
}

static int rt_conn_event(struct rt_conn *c, struct rdma_cm_id *id,
			 struct rdma_cm_event *ev)
{
	struct rdma_conn_param p;
	int ret = 0;

	mutex_lock(&c->lock);
	if (c->id != id) {
		/* The id is being destroyed; nothing more to do. */
		mutex_unlock(&c->lock);
		return 0;
	}
	/* Recorded even after a terminal event: the scripts must see it. */
	rt_record(c, id, ev);
	if (c->terminal) {
		mutex_unlock(&c->lock);
		return 0;
	}
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		ret = rdma_resolve_route(id, RT_TIMEOUT_MS);
		if (ret)
			rt_set_error(c, "resolve_route", ret);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		ret = rt_conn_resources(c, id, &c->batch->dopts);
		if (ret)
			break;
		rt_conn_param(&p, id->device, c->batch->pdata,
			      c->batch->pdata_len, RT_RD_ATOM, RT_RD_ATOM);
		ret = rdma_connect_locked(id, &p);
		if (ret)
			rt_set_error(c, "connect", ret);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		atomic_inc(&rt_cnt.established);
		rt_data_established(c);
		rt_batch_kick(c);
		break;
	default:
		break;
	}
	if (ret || rt_is_terminal(ev->event)) {
		if (!ret)
			rt_count_terminal(ev->event);
		rt_conn_end(c);
	}
	mutex_unlock(&c->lock);
	return 0;
}

/* A request on listener @l: @id is the new connection's. */
static int rt_conn_request(struct rt_listener *l, struct rdma_cm_id *id,
			   struct rdma_cm_event *ev)
{
	const struct rdma_conn_param *req = &ev->param.conn;
	struct rdma_conn_param p;
	struct rt_conn *c;
	int ret;

	atomic_inc(&rt_cnt.requests);
	atomic_inc(&rt_cnt.ids_created);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		atomic_inc(&rt_cnt.ids_destroyed);
		return -ENOMEM;
	}
	c->ctx.kind = RT_CONN;
	mutex_init(&c->lock);
	INIT_WORK(&c->destroy_work, rt_conn_destroy_work);
	c->id = id;
	id->context = &c->ctx;
	mutex_lock(&c->lock);
	spin_lock_bh(&rt_lock);
	snprintf(c->name, sizeof(c->name), "%s.%u", l->name, l->requests++);
	list_add_tail(&c->list, &rt_conns);
	spin_unlock_bh(&rt_lock);
	rt_record(c, id, ev);

	if (l->reject) {
		ret = rdma_reject(id, l->pdata_len ? l->pdata : NULL,
				  l->pdata_len, IB_CM_REJ_CONSUMER_DEFINED);
		if (ret)
			rt_set_error(c, "reject", ret);
		else
			atomic_inc(&rt_cnt.rejects_sent);
		/* A rejected request's id goes with the handler's return. */
		ret = rt_conn_end_in_handler(c);
		mutex_unlock(&c->lock);
		return ret;
	}
	ret = rt_conn_resources(c, id, &l->dopts);
	if (!ret) {
		rt_conn_param(&p, id->device, l->pdata, l->pdata_len,
			      req->responder_resources, req->initiator_depth);
		ret = rdma_accept(id, &p);
		if (ret)
			rt_set_error(c, "accept", ret);
		else
			atomic_inc(&rt_cnt.accepts);
	}
	if (ret)
		rt_conn_end(c);
	mutex_unlock(&c->lock);
	return 0;
}

static int rt_listener_event(struct rt_listener *l, struct rdma_cm_id *id,
			     struct rdma_cm_event *ev)
{
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return rt_conn_request(l, id, ev);
	if (ev->event != RDMA_CM_EVENT_DEVICE_REMOVAL)
		return 0;
	/* The listener's device is going: rdma_cm destroys the id. */
	spin_lock_bh(&rt_lock);
	l->removed++;
	l->id = NULL;
	spin_unlock_bh(&rt_lock);
	atomic_inc(&rt_cnt.device_removals);
	atomic_inc(&rt_cnt.ids_destroyed);
	return 1;
}

int rt_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rt_ctx *ctx = id->context;

	if (ctx->kind == RT_LISTENER)
		return rt_listener_event(container_of(ctx, struct rt_listener,
						      ctx), id, ev);
	return rt_conn_event(container_of(ctx, struct rt_conn, ctx), id, ev);
}

/* ---- the active side: a batch's connections ---- */

static void rt_batch_start_next(struct rt_batch *b)
{
	struct rdma_cm_id *id;
	struct rt_conn *c;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return;
	c->ctx.kind = RT_CONN;
	c->active = true;
	c->batch = b;
	mutex_init(&c->lock);
	INIT_WORK(&c->destroy_work, rt_conn_destroy_work);
	snprintf(c->name, sizeof(c->name), "%s.%u", b->name, b->started++);
	memcpy(&c->dst, &b->dst, sizeof(c->dst));
	spin_lock_bh(&rt_lock);
	list_add_tail(&c->list, &rt_conns);
	spin_unlock_bh(&rt_lock);
	b->cur = c;

	id = rdma_create_id(b->net, rt_cm_handler, &c->ctx, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id)) {
		rt_set_error(c, "create_id", PTR_ERR(id));
		spin_lock_bh(&rt_lock);
		c->destroyed = true;
		spin_unlock_bh(&rt_lock);
		return;
	}
	atomic_inc(&rt_cnt.ids_created);
	mutex_lock(&c->lock);
	c->id = id;
	ret = rdma_resolve_addr(id, b->has_src ? (struct sockaddr *)&b->src :
				NULL, (struct sockaddr *)&b->dst,
				RT_TIMEOUT_MS);
	if (ret) {
		rt_set_error(c, "resolve_addr", ret);
		c->id = NULL;
	}
	mutex_unlock(&c->lock);
	if (ret) {
		rdma_destroy_id(id);
		spin_lock_bh(&rt_lock);
		c->destroyed = true;
		spin_unlock_bh(&rt_lock);
		atomic_inc(&rt_cnt.ids_destroyed);
	}
}

/*
 * Runs on every event of the current connection that matters: closes it
 * once established (close=1), and starts the next one when it is
 * established (close=0) or gone.
 */
void rt_batch_work(struct work_struct *work)
{
	struct rt_batch *b = container_of(work, struct rt_batch, work);
	struct rt_conn *c = b->cur;
	bool next = !c;

	if (c) {
		mutex_lock(&c->lock);
		if (c->id && b->close && c->established &&
		    !c->local_disconnect) {
			int ret;

			c->local_disconnect = true;
			ret = rdma_disconnect(c->id);
			if (ret)
				rt_set_error(c, "disconnect", ret);
		}
		next = !c->id || (!b->close && c->established);
		mutex_unlock(&c->lock);
	}
	if (next && b->started < b->count && !READ_ONCE(rt_stopping))
		rt_batch_start_next(b);
}

/* Destroy a listener no longer listed. */
void rt_listener_free(struct rt_listener *l)
{
	struct rdma_cm_id *id;

	spin_lock_bh(&rt_lock);
	id = l->id;
	l->id = NULL;
	spin_unlock_bh(&rt_lock);
	/*
	 * A DEVICE_REMOVAL handler destroys the id with its return; it
	 * cannot run any more once the id is destroyed here.
	 */
	if (id) {
		rdma_destroy_id(id);
		atomic_inc(&rt_cnt.ids_destroyed);
	}
	kfree(l);
}

/*
 * Take @c's id away from its handler and destroy it, then the QP, CQ and
 * PD: iw_cm gives its hold on the QP back when the id goes.
 */
void rt_conn_destroy(struct rt_conn *c)
{
	struct rdma_cm_id *id;

	mutex_lock(&c->lock);
	id = c->id;
	c->id = NULL;
	mutex_unlock(&c->lock);
	if (!id)
		return;
	/* Handlers of @id now return at once; the resources are ours. */
	rdma_destroy_id(id);
	rt_conn_release(c);
	spin_lock_bh(&rt_lock);
	c->destroyed = true;
	spin_unlock_bh(&rt_lock);
	atomic_inc(&rt_cnt.ids_destroyed);
}

static void rt_conn_destroy_work(struct work_struct *work)
{
	struct rt_conn *c = container_of(work, struct rt_conn, destroy_work);

	rt_conn_destroy(c);
	rt_batch_kick(c);
}

static int __init rt_init(void)
{
	rt_debugfs_create();
	return 0;
}

/* Stop the batches and the listeners, then destroy every connection. */
static void __exit rt_exit(void)
{
	struct rt_listener *l, *lt;
	struct rt_batch *b, *bt;
	struct rt_conn *c, *ct;

	rt_debugfs_remove();
	mutex_lock(&rt_mutex);
	spin_lock_bh(&rt_lock);
	rt_stopping = true;
	spin_unlock_bh(&rt_lock);
	/* No connection is added to the list after these two. */
	list_for_each_entry(b, &rt_batches, list)
		cancel_work_sync(&b->work);
	list_for_each_entry_safe(l, lt, &rt_listeners, list) {
		list_del(&l->list);
		rt_listener_free(l);
	}
	list_for_each_entry(c, &rt_conns, list) {
		cancel_work_sync(&c->destroy_work);
		rt_conn_destroy(c);
	}
	list_for_each_entry_safe(c, ct, &rt_conns, list) {
		list_del(&c->list);
		rt_data_free(c);
		kfree(c);
	}
	list_for_each_entry_safe(b, bt, &rt_batches, list) {
		list_del(&b->list);
		put_net(b->net);
		kfree(b);
	}
	mutex_unlock(&rt_mutex);
}

module_init(rt_init);
module_exit(rt_exit);

MODULE_DESCRIPTION("madcm test tool: an in-kernel rdma_cm ULP driven from debugfs");
MODULE_LICENSE("GPL");
