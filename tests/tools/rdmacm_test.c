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
 *                        [src=ADDR]
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
 * everything.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nsproxy.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#define RT_NAME_LEN	32
#define RT_CONN_NAME	(RT_NAME_LEN + sizeof(".4294967295"))
#define RT_CMD_MAX	2048
#define RT_PDATA_MAX	255
#define RT_MAX_EVENTS	8
#define RT_TIMEOUT_MS	5000
#define RT_RD_ATOM	4
#define RT_QP_WR	8
#define RT_MAX_COUNT	10000

enum rt_kind { RT_LISTENER, RT_CONN };

/* The first member of every id's context: what the context is. */
struct rt_ctx {
	enum rt_kind kind;
};

struct rt_event {
	enum rdma_cm_event_type type;
	int status;
	u8 pdata_len;
	u8 pdata[RT_PDATA_MAX];
};

struct rt_listener {
	struct rt_ctx ctx;
	struct list_head list;
	char name[RT_NAME_LEN];
	struct sockaddr_storage addr;
	struct rdma_cm_id *id;		/* NULL once destroyed */
	bool reject;
	u8 pdata_len;
	u8 pdata[RT_PDATA_MAX];
	unsigned int requests;		/* under rt_lock */
	unsigned int removed;		/* DEVICE_REMOVAL seen */
};

/* One connect command: its connections, one after the other. */
struct rt_batch {
	struct list_head list;
	char name[RT_NAME_LEN];
	struct net *net;
	struct sockaddr_storage dst, src;
	bool has_src;
	bool close;
	u8 pdata_len;
	u8 pdata[RT_PDATA_MAX];
	unsigned int count, started;
	struct rt_conn *cur;		/* the work's own */
	struct work_struct work;
};

struct rt_conn {
	struct rt_ctx ctx;
	struct list_head list;
	char name[RT_CONN_NAME];
	bool active;
	struct rt_batch *batch;		/* active side */
	/* @lock: owns @id and the resources while @id is set. */
	struct mutex lock;
	struct rdma_cm_id *id;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	bool terminal;			/* a terminal event came */
	bool local_disconnect;
	struct work_struct destroy_work;
	/* The record, under rt_lock. */
	char dev[IB_DEVICE_NAME_MAX];
	struct sockaddr_storage src, dst;
	unsigned int nevents;
	struct rt_event events[RT_MAX_EVENTS];
	bool established;
	bool destroyed;
	u8 ird, ord;
	const char *err_step;
	int err;
};

static DEFINE_MUTEX(rt_mutex);		/* serialises commands */
static DEFINE_SPINLOCK(rt_lock);	/* lists, records, rt_stopping */
static LIST_HEAD(rt_listeners);
static LIST_HEAD(rt_conns);
static LIST_HEAD(rt_batches);
static bool rt_stopping;
static struct dentry *rt_dir;

static struct {
	atomic_t ids_created, ids_destroyed;
	atomic_t pds, cqs, qps;
	atomic_t requests, accepts, rejects_sent;
	atomic_t established, rejected, disconnected, unreachable;
	atomic_t other_terminal, local_errors, device_removals;
} rt_cnt;

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

static const char *rt_event_name(enum rdma_cm_event_type t)
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
static void rt_batch_kick(struct rt_conn *c)
{
	if (!c->batch)
		return;
	spin_lock_bh(&rt_lock);
	if (!rt_stopping)
		queue_work(system_wq, &c->batch->work);
	spin_unlock_bh(&rt_lock);
}

/* A PD, a CQ and an RC QP on the id's device; c->lock held. */
static int rt_conn_resources(struct rt_conn *c, struct rdma_cm_id *id)
{
	struct ib_qp_init_attr qa = {};
	int ret;

	c->pd = ib_alloc_pd(id->device, 0);
	if (IS_ERR(c->pd)) {
		ret = PTR_ERR(c->pd);
		c->pd = NULL;
		rt_set_error(c, "alloc_pd", ret);
		return ret;
	}
	atomic_inc(&rt_cnt.pds);
	c->cq = ib_alloc_cq(id->device, c, 2 * RT_QP_WR, 0, IB_POLL_WORKQUEUE);
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
	qa.cap.max_send_wr = RT_QP_WR;
	qa.cap.max_recv_wr = RT_QP_WR;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	ret = rdma_create_qp(id, c->pd, &qa);
	if (ret) {
		rt_set_error(c, "create_qp", ret);
		return ret;
	}
	c->qp = id->qp;
	atomic_inc(&rt_cnt.qps);
	return 0;
}

/* Give back the QP, CQ and PD, once the id is gone (or never had them). */
static void rt_conn_release(struct rt_conn *c)
{
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
		ret = rt_conn_resources(c, id);
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
	ret = rt_conn_resources(c, id);
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

static int rt_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
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
static void rt_batch_work(struct work_struct *work)
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

/* ---- commands ---- */

struct rt_opts {
	bool reject;
	bool close;
	u32 backlog;
	u32 count;
	u8 pdata_len;
	u8 pdata[RT_PDATA_MAX];
	const char *src;
};

static int rt_parse_opts(char **argv, int argc, struct rt_opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->backlog = 16;
	o->count = 1;
	for (i = 0; i < argc; i++) {
		char *val = strchr(argv[i], '=');

		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(argv[i], "pdata")) {
			size_t n = strlen(val);

			if (n % 2 || n / 2 > RT_PDATA_MAX ||
			    hex2bin(o->pdata, val, n / 2))
				return -EINVAL;
			o->pdata_len = n / 2;
		} else if (!strcmp(argv[i], "mode")) {
			if (!strcmp(val, "reject"))
				o->reject = true;
			else if (strcmp(val, "accept"))
				return -EINVAL;
		} else if (!strcmp(argv[i], "close")) {
			if (kstrtobool(val, &o->close))
				return -EINVAL;
		} else if (!strcmp(argv[i], "backlog")) {
			if (kstrtou32(val, 0, &o->backlog))
				return -EINVAL;
		} else if (!strcmp(argv[i], "count")) {
			if (kstrtou32(val, 0, &o->count) || !o->count ||
			    o->count > RT_MAX_COUNT)
				return -EINVAL;
		} else if (!strcmp(argv[i], "src")) {
			o->src = val;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

static bool rt_valid_name(const char *name)
{
	size_t n = strlen(name);

	return n && n < RT_NAME_LEN && !strchr(name, '.');
}

/* ADDR (IPv4, or IPv6 with an optional %scope) and PORT. */
static int rt_parse_addr(struct net *net, const char *addr, const char *port,
			 struct sockaddr_storage *ss)
{
	return inet_pton_with_scope(net, AF_UNSPEC, addr, port, ss);
}

static struct rt_listener *rt_listener_find(const char *name)
{
	struct rt_listener *l;

	list_for_each_entry(l, &rt_listeners, list)
		if (!strcmp(l->name, name))
			return l;
	return NULL;
}

static struct rt_batch *rt_batch_find(const char *name)
{
	struct rt_batch *b;

	list_for_each_entry(b, &rt_batches, list)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

/* Under rt_mutex: connections leave the list only at unload. */
static struct rt_conn *rt_conn_find(const char *name)
{
	struct rt_conn *c, *found = NULL;

	spin_lock_bh(&rt_lock);
	list_for_each_entry(c, &rt_conns, list)
		if (!strcmp(c->name, name)) {
			found = c;
			break;
		}
	spin_unlock_bh(&rt_lock);
	return found;
}

static int cmd_listen(struct net *net, char **argv, int argc)
{
	struct rdma_cm_id *id;
	struct rt_listener *l;
	struct rt_opts *o;
	int ret;

	if (argc < 4 || !rt_valid_name(argv[1]))
		return -EINVAL;
	if (rt_listener_find(argv[1]))
		return -EEXIST;
	o = kmalloc(sizeof(*o), GFP_KERNEL);
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	ret = -ENOMEM;
	if (!o || !l)
		goto out;
	ret = rt_parse_opts(argv + 4, argc - 4, o);
	if (!ret)
		ret = rt_parse_addr(net, argv[2], argv[3], &l->addr);
	if (ret)
		goto out;
	l->ctx.kind = RT_LISTENER;
	strscpy(l->name, argv[1], sizeof(l->name));
	l->reject = o->reject;
	l->pdata_len = o->pdata_len;
	memcpy(l->pdata, o->pdata, o->pdata_len);

	id = rdma_create_id(net, rt_cm_handler, &l->ctx, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id);
		goto out;
	}
	atomic_inc(&rt_cnt.ids_created);
	ret = rdma_bind_addr(id, (struct sockaddr *)&l->addr);
	if (!ret)
		ret = rdma_listen(id, o->backlog);
	if (ret) {
		rdma_destroy_id(id);
		atomic_inc(&rt_cnt.ids_destroyed);
		goto out;
	}
	l->id = id;
	spin_lock_bh(&rt_lock);
	list_add_tail(&l->list, &rt_listeners);
	spin_unlock_bh(&rt_lock);
	l = NULL;
out:
	kfree(l);
	kfree(o);
	return ret;
}

/* Destroy a listener no longer listed. */
static void rt_listener_free(struct rt_listener *l)
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

static int cmd_unlisten(char **argv, int argc)
{
	struct rt_listener *l;

	if (argc != 2)
		return -EINVAL;
	l = rt_listener_find(argv[1]);
	if (!l)
		return -ENOENT;
	spin_lock_bh(&rt_lock);
	list_del(&l->list);
	spin_unlock_bh(&rt_lock);
	rt_listener_free(l);
	return 0;
}

static int cmd_connect(struct net *net, char **argv, int argc)
{
	struct rt_batch *b;
	struct rt_opts *o;
	int ret;

	if (argc < 4 || !rt_valid_name(argv[1]))
		return -EINVAL;
	if (rt_batch_find(argv[1]))
		return -EEXIST;
	o = kmalloc(sizeof(*o), GFP_KERNEL);
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	ret = -ENOMEM;
	if (!o || !b)
		goto out;
	ret = rt_parse_opts(argv + 4, argc - 4, o);
	if (!ret)
		ret = rt_parse_addr(net, argv[2], argv[3], &b->dst);
	if (!ret && o->src) {
		ret = rt_parse_addr(net, o->src, "0", &b->src);
		b->has_src = true;
	}
	if (ret)
		goto out;
	strscpy(b->name, argv[1], sizeof(b->name));
	b->net = get_net(net);
	b->close = o->close;
	b->count = o->count;
	b->pdata_len = o->pdata_len;
	memcpy(b->pdata, o->pdata, o->pdata_len);
	INIT_WORK(&b->work, rt_batch_work);
	spin_lock_bh(&rt_lock);
	list_add_tail(&b->list, &rt_batches);
	if (!rt_stopping)
		queue_work(system_wq, &b->work);
	spin_unlock_bh(&rt_lock);
	b = NULL;
out:
	kfree(b);
	kfree(o);
	return ret;
}

static int cmd_disconnect(char **argv, int argc)
{
	struct rt_conn *c;
	int ret;

	if (argc != 2)
		return -EINVAL;
	c = rt_conn_find(argv[1]);
	if (!c)
		return -ENOENT;
	mutex_lock(&c->lock);
	if (c->id) {
		c->local_disconnect = true;
		ret = rdma_disconnect(c->id);
	} else {
		ret = -ENOTCONN;
	}
	mutex_unlock(&c->lock);
	return ret;
}

/*
 * Take @c's id away from its handler and destroy it, then the QP, CQ and
 * PD: iw_cm gives its hold on the QP back when the id goes.
 */
static void rt_conn_destroy(struct rt_conn *c)
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

static int cmd_destroy(char **argv, int argc)
{
	struct rt_conn *c;

	if (argc != 2)
		return -EINVAL;
	c = rt_conn_find(argv[1]);
	if (!c)
		return -ENOENT;
	rt_conn_destroy(c);
	rt_batch_kick(c);
	return 0;
}

static int rt_exec(struct net *net, char *line)
{
	char *argv[16], *p = line, *tok;
	int argc = 0;

	while ((tok = strsep(&p, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		if (argc == ARRAY_SIZE(argv))
			return -E2BIG;
		argv[argc++] = tok;
	}
	if (!argc)
		return 0;
	if (!strcmp(argv[0], "listen"))
		return cmd_listen(net, argv, argc);
	if (!strcmp(argv[0], "unlisten"))
		return cmd_unlisten(argv, argc);
	if (!strcmp(argv[0], "connect"))
		return cmd_connect(net, argv, argc);
	if (!strcmp(argv[0], "disconnect"))
		return cmd_disconnect(argv, argc);
	if (!strcmp(argv[0], "destroy"))
		return cmd_destroy(argv, argc);
	return -EINVAL;
}

static ssize_t rt_ctl_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char *line;
	int ret;

	if (count >= RT_CMD_MAX)
		return -E2BIG;
	line = memdup_user_nul(ubuf, count);
	if (IS_ERR(line))
		return PTR_ERR(line);
	mutex_lock(&rt_mutex);
	ret = rt_exec(current->nsproxy->net_ns, line);
	mutex_unlock(&rt_mutex);
	kfree(line);
	return ret ?: count;
}

static const struct file_operations rt_ctl_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = rt_ctl_write,
	.llseek = noop_llseek,
};

/* ---- output ---- */

/* %*ph prints at most 64 bytes at a time. */
static void rt_seq_hex(struct seq_file *m, const u8 *data, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i += 64)
		seq_printf(m, "%*phN", min(len - i, 64U), data + i);
}

static void rt_seq_addr(struct seq_file *m, const char *what,
			const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET || ss->ss_family == AF_INET6)
		seq_printf(m, " %s=%pISpc", what, ss);
	else
		seq_printf(m, " %s=-", what);
}

static int conns_show(struct seq_file *m, void *v)
{
	const struct rt_event *e;
	struct rt_conn *c;
	unsigned int i;

	spin_lock_bh(&rt_lock);
	list_for_each_entry(c, &rt_conns, list) {
		seq_printf(m, "%s role=%s dev=%s id=%s", c->name,
			   c->active ? "active" : "passive",
			   c->dev[0] ? c->dev : "-",
			   c->destroyed ? "destroyed" : "live");
		rt_seq_addr(m, "src", &c->src);
		rt_seq_addr(m, "dst", &c->dst);
		seq_puts(m, " events=");
		for (i = 0; i < min_t(unsigned int, c->nevents, RT_MAX_EVENTS);
		     i++) {
			e = &c->events[i];
			seq_printf(m, "%s%s/%d", i ? "," : "",
				   rt_event_name(e->type), e->status);
			if (e->pdata_len) {
				seq_putc(m, '/');
				rt_seq_hex(m, e->pdata, e->pdata_len);
			}
		}
		if (c->nevents > RT_MAX_EVENTS)
			seq_puts(m, ",...");
		seq_printf(m, " nevents=%u established=%d ird=%u ord=%u",
			   c->nevents, c->established, c->ird, c->ord);
		seq_printf(m, " local_disconnect=%d err=%s:%d\n",
			   c->local_disconnect, c->err_step ?: "-", c->err);
	}
	spin_unlock_bh(&rt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(conns);

static int listeners_show(struct seq_file *m, void *v)
{
	struct rt_listener *l;

	spin_lock_bh(&rt_lock);
	list_for_each_entry(l, &rt_listeners, list) {
		seq_puts(m, l->name);
		rt_seq_addr(m, "addr", &l->addr);
		seq_printf(m, " mode=%s pdata=", l->reject ? "reject" : "accept");
		rt_seq_hex(m, l->pdata, l->pdata_len);
		seq_printf(m, " requests=%u id=%s removed=%u\n", l->requests,
			   l->id ? "live" : "destroyed", l->removed);
	}
	spin_unlock_bh(&rt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(listeners);

static int counters_show(struct seq_file *m, void *v)
{
	int created = atomic_read(&rt_cnt.ids_created);
	int destroyed = atomic_read(&rt_cnt.ids_destroyed);

#define RT_SHOW(f) seq_printf(m, "%s %d\n", #f, atomic_read(&rt_cnt.f))
	RT_SHOW(ids_created);
	RT_SHOW(ids_destroyed);
	seq_printf(m, "ids_live %d\n", created - destroyed);
	RT_SHOW(pds);
	RT_SHOW(cqs);
	RT_SHOW(qps);
	RT_SHOW(requests);
	RT_SHOW(accepts);
	RT_SHOW(rejects_sent);
	RT_SHOW(established);
	RT_SHOW(rejected);
	RT_SHOW(disconnected);
	RT_SHOW(unreachable);
	RT_SHOW(other_terminal);
	RT_SHOW(local_errors);
	RT_SHOW(device_removals);
#undef RT_SHOW
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(counters);

static int __init rt_init(void)
{
	rt_dir = debugfs_create_dir("madcm_rdmacm_test", NULL);
	debugfs_create_file("ctl", 0200, rt_dir, NULL, &rt_ctl_fops);
	debugfs_create_file("conns", 0400, rt_dir, NULL, &conns_fops);
	debugfs_create_file("listeners", 0400, rt_dir, NULL, &listeners_fops);
	debugfs_create_file("counters", 0400, rt_dir, NULL, &counters_fops);
	return 0;
}

/* Stop the batches and the listeners, then destroy every connection. */
static void __exit rt_exit(void)
{
	struct rt_listener *l, *lt;
	struct rt_batch *b, *bt;
	struct rt_conn *c, *ct;

	debugfs_remove_recursive(rt_dir);
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
