// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM's consumer API (madcm_cm_*) and the delivery of its events.
 *
 * Every event a connection can deliver has a slot preallocated in its
 * node, so delivering one never fails and the terminal event (REJECTED,
 * RESET or CLOSE) is given exactly once. Events run on the core's
 * ordered workqueue.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/if_vlan.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>
#include "irdma_cm/cm_core.h"

static_assert(MADCM_CM_RTR_SEND == IRDMA_RTR_SEND);
static_assert(MADCM_CM_RTR_WRITE == IRDMA_RTR_WRITE);
static_assert(MADCM_CM_RTR_READ == IRDMA_RTR_READ);
static_assert(MADCM_CM_NO_VLAN == IRDMA_NO_VLAN);
static_assert(MADCM_CM_MAX_PDATA == IETF_MAX_PRIV_DATA_LEN);

/* RFC 6335: the dynamic port range, for a connect without a port. */
#define IRDMA_CM_EPHEMERAL_LO	49152
#define IRDMA_CM_EPHEMERAL_NR	16384
#define IRDMA_CM_PORT_TRIES	32

static const char * const madcm_cm_event_names[] = {
	[MADCM_CM_EVENT_CONNECT_REQUEST] = "CONNECT_REQUEST",
	[MADCM_CM_EVENT_CONNECT_REPLY] = "CONNECT_REPLY",
	[MADCM_CM_EVENT_ESTABLISHED] = "ESTABLISHED",
	[MADCM_CM_EVENT_REJECTED] = "REJECTED",
	[MADCM_CM_EVENT_RESET] = "RESET",
	[MADCM_CM_EVENT_DISCONNECT] = "DISCONNECT",
	[MADCM_CM_EVENT_CLOSE] = "CLOSE",
};

/**
 * madcm_cm_event_name() - the name of an event type
 * @type: the event type
 *
 * For log messages and debugfs: the name of a MADCM_CM_EVENT_* value
 * without its prefix. The string is static; the caller does not free it.
 *
 * Context: Any context.
 * Return: its name ("CONNECT_REQUEST", ...), or "UNKNOWN".
 */
const char *madcm_cm_event_name(enum madcm_cm_event_type type)
{
	if ((unsigned int)type >= ARRAY_SIZE(madcm_cm_event_names))
		return "UNKNOWN";
	return madcm_cm_event_names[type];
}
EXPORT_SYMBOL_GPL(madcm_cm_event_name);

static void irdma_cm_event_work(struct work_struct *work)
{
	struct irdma_cm_event_slot *slot =
		container_of(work, struct irdma_cm_event_slot, work);
	madcm_cm_event_handler handler = slot->handler;
	struct irdma_cm_node *node = slot->node;
	void *context = slot->context;
	const struct madcm_cm_event *evp = &slot->ev;
	struct madcm_cm_tcp_ctx tcp_ctx;
	struct madcm_cm_event ev;

	if (slot->ev.type == MADCM_CM_EVENT_ESTABLISHED) {
		/*
		 * The setup is over: what only it needed (@slot among it)
		 * goes before the consumer hears of it; CONNECT_REQUEST or
		 * CONNECT_REPLY, on the same ordered workqueue, has run.
		 * The event and its TCP context are delivered from a copy.
		 */
		ev = slot->ev;
		tcp_ctx = node->setup->tcp_ctx;
		ev.tcp_ctx = &tcp_ctx;
		evp = &ev;
		irdma_cm_node_lock(node);
		irdma_cm_setup_free(node);
		irdma_cm_node_unlock(node);
	}
	if (!test_bit(IRDMA_CM_F_RELEASED, &node->flags) && handler) {
		WRITE_ONCE(node->core->handler_running, handler);
		handler(evp, context);
		WRITE_ONCE(node->core->handler_running, NULL);
	}
	atomic_inc(&node->core->events_done);
	irdma_cm_node_put(node);
}

/* The slot of event @i: in the setup context or in the node. */
static struct irdma_cm_event_slot *irdma_cm_ev_slot(struct irdma_cm_node *node,
						    enum irdma_cm_ev_slot i)
{
	if (i < IRDMA_CM_EV_SETUP_NR)
		return node->setup ? &node->setup->ev[i] : NULL;
	return &node->ev[i - IRDMA_CM_EV_SETUP_NR];
}

/**
 * irdma_cm_event_init() - set up a node's event slots
 * @node: a new node, its setup context allocated
 */
void irdma_cm_event_init(struct irdma_cm_node *node)
{
	struct irdma_cm_event_slot *slot;
	int i;

	node->setup->node = node;
	for (i = 0; i < IRDMA_CM_EV_NR; i++) {
		slot = irdma_cm_ev_slot(node, i);
		INIT_WORK(&slot->work, irdma_cm_event_work);
		slot->node = node;
	}
}

static enum irdma_cm_ev_slot irdma_cm_ev_slot_of(enum madcm_cm_event_type t)
{
	switch (t) {
	case MADCM_CM_EVENT_CONNECT_REQUEST:
	case MADCM_CM_EVENT_CONNECT_REPLY:
		return IRDMA_CM_EV_CONNECT;
	case MADCM_CM_EVENT_ESTABLISHED:
		return IRDMA_CM_EV_ESTABLISHED;
	case MADCM_CM_EVENT_DISCONNECT:
		return IRDMA_CM_EV_DISCONNECT;
	default:
		return IRDMA_CM_EV_TERMINAL;
	}
}

/**
 * irdma_cm_event() - tell the consumer
 * @node: the node, locked
 * @type: the event
 * @status: its status
 *
 * Nothing is delivered for a connection the consumer does not hold yet
 * (a passive open before its MPA request) or after its terminal event.
 */
void irdma_cm_event(struct irdma_cm_node *node, enum madcm_cm_event_type type,
		    int status)
{
	enum irdma_cm_ev_slot i = irdma_cm_ev_slot_of(type);
	struct irdma_cm_event_slot *slot = irdma_cm_ev_slot(node, i);
	struct madcm_cm_event *ev;

	lockdep_assert_held(&node->lock);
	if (!test_bit(IRDMA_CM_F_CONSUMER, &node->flags) ||
	    test_bit(IRDMA_CM_F_TERMINAL_SENT, &node->flags))
		return;
	/* Each setup event comes once, before its slots are freed. */
	if (WARN_ON_ONCE(!slot))
		return;
	ev = &slot->ev;
	if (i == IRDMA_CM_EV_TERMINAL)
		set_bit(IRDMA_CM_F_TERMINAL_SENT, &node->flags);
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->conn = &node->handle;
	ev->listener = node->listener ? &node->listener->handle : NULL;
	ev->status = status;
	if (type == MADCM_CM_EVENT_CONNECT_REQUEST ||
	    type == MADCM_CM_EVENT_CONNECT_REPLY ||
	    type == MADCM_CM_EVENT_REJECTED) {
		/* The peer's one frame: rcvd_pdata never changes again. */
		ev->private_data = node->rcvd_pdata;
		ev->private_data_len = node->rcvd_pdata_len;
	}
	ev->ird = node->ird_size;
	ev->ord = node->ord_size;
	ev->mpa_rev = node->mpa_frame_rev;
	ev->loc.ip = node->key.loc_ip;
	ev->loc.port = node->key.loc_port;
	ev->rem.ip = node->key.rem_ip;
	ev->rem.port = node->key.rem_port;
	ev->vlan_id = node->key.vlan_id;
	if (type == MADCM_CM_EVENT_ESTABLISHED) {
		irdma_init_tcp_ctx(node, &node->setup->tcp_ctx);
		ev->tcp_ctx = &node->setup->tcp_ctx;
	}
	slot->handler = node->handler;
	slot->context = node->context;
	irdma_cm_node_get(node);
	if (WARN_ON_ONCE(!queue_work(node->core->event_wq, &slot->work)))
		refcount_dec(&node->refcnt);
	/* The QP is given back after the terminal event (cm_offload.c). */
	if (i == IRDMA_CM_EV_TERMINAL)
		irdma_cm_offload_put_qp(node);
}

static bool irdma_cm_addr_any(const struct in6_addr *ip)
{
	return ipv6_addr_any(ip) ||
	       (ipv6_addr_v4mapped(ip) && !ip->s6_addr32[3]);
}

static int irdma_create_listen(struct irdma_cm_core *core,
			       const struct madcm_cm_listen_attr *attr,
			       struct madcm_cm_listener **listener);

/**
 * madcm_cm_create_listener() - listen for connections
 * @core: the CM of the link to listen on
 * @attr: address, port, VLAN, backlog, MPA parameters and event handler
 * @listener: set to the new listener
 *
 * SYNs to @attr->addr (any of the link's addresses when unspecified:
 * :: for IPv4 and IPv6, ::ffff:0.0.0.0 for IPv4 only) and port on
 * @attr->vlan_id start passive opens. At most @attr->backlog connections
 * are pending at once (handshake begun, not yet accepted or rejected);
 * SYNs past that are dropped and counted. Each connection's events go to
 * @attr->handler, starting with CONNECT_REQUEST once its MPA request has
 * arrived.
 *
 * Context: Process context; may sleep.
 * Return: 0; -EINVAL for a missing handler, port 0 or an unknown MPA
 * revision; -EADDRINUSE when the address, port and VLAN are taken;
 * -ENOMEM; -ESHUTDOWN when the core is going away; or the wire's error
 * when the steering entry cannot be added.
 */
int madcm_cm_create_listener(struct madcm_cm_core *core,
			     const struct madcm_cm_listen_attr *attr,
			     struct madcm_cm_listener **listener)
{
	struct irdma_cm_core *cm = irdma_cm_core_of(core);
	int ret;

	if (!attr->handler || !attr->addr.port ||
	    (attr->mpa_rev != IETF_MPA_V1 && attr->mpa_rev != IETF_MPA_V2))
		return -EINVAL;
	down_read(&cm->api_rwsem);
	if (READ_ONCE(cm->dying))
		ret = -ESHUTDOWN;
	else
		ret = irdma_create_listen(cm, attr, listener);
	up_read(&cm->api_rwsem);
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_cm_create_listener);

/*
 * irdma_create_listen() - madcm_cm_create_listener() on a core that is
 * not stopping (api_rwsem held for reading)
 */
static int irdma_create_listen(struct irdma_cm_core *core,
			       const struct madcm_cm_listen_attr *attr,
			       struct madcm_cm_listener **listener)
{
	struct irdma_cm_listener *l;
	int ret;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->core = core;
	l->attr = *attr;
	l->key.ip = attr->addr.ip;
	l->key.port = attr->addr.port;
	l->key.vlan_id = attr->vlan_id;
	l->backlog = attr->backlog ? attr->backlog : core->cfg.backlog;
	refcount_set(&l->refcnt, 1);
	INIT_LIST_HEAD(&l->list);
	spin_lock_init(&l->embryo_lock);
	INIT_LIST_HEAD(&l->embryos);
	l->qh.type = IRDMA_QHASH_LISTEN;
	l->qh.loc.ip = attr->addr.ip;
	l->qh.loc.port = attr->addr.port;
	l->qh.vlan_id = attr->vlan_id;
	refcount_inc(&core->handle.refs);
	atomic_inc(&core->live_listeners);

	if (core->ops->qhash_add) {
		ret = core->ops->qhash_add(core, &l->qh);
		if (ret) {
			l->destroyed = true;
			irdma_cm_listener_put(l);
			return ret;
		}
	}
	ret = irdma_cm_listener_hash(l);
	if (ret) {
		if (core->ops->qhash_del)
			core->ops->qhash_del(core, &l->qh);
		l->destroyed = true;
		irdma_cm_listener_put(l);
		return ret;
	}
	*listener = &l->handle;
	return 0;
}

/* The next connection of @l still pending, with a reference, or NULL. */
static struct irdma_cm_node *irdma_cm_next_pending(struct irdma_cm_listener *l)
{
	struct irdma_cm_core *core = l->core;
	struct irdma_cm_node *node, *found = NULL;

	spin_lock_bh(&core->lock);
	list_for_each_entry(node, &core->nodes, list) {
		if (node->listener == l &&
		    test_bit(IRDMA_CM_F_IN_BACKLOG, &node->flags)) {
			irdma_cm_node_get(node);
			found = node;
			break;
		}
	}
	spin_unlock_bh(&core->lock);
	return found;
}

/*
 * @node was rejected by the consumer of @l and has not had its terminal
 * event. Read without the node's lock by irdma_cm_next_rejected(), again
 * under it before acting: none of these ever turns back.
 */
static bool irdma_cm_rejected_untold(const struct irdma_cm_node *node,
				     const struct irdma_cm_listener *l)
{
	return node->listener == l &&
	       READ_ONCE(node->mpa_result) == IRDMA_MPA_REJECTED &&
	       test_bit(IRDMA_CM_F_CONSUMER, &node->flags) &&
	       !test_bit(IRDMA_CM_F_TERMINAL_SENT, &node->flags);
}

/* A connection of @l irdma_cm_rejected_untold() holds for, referenced. */
static struct irdma_cm_node *irdma_cm_next_rejected(struct irdma_cm_listener *l)
{
	struct irdma_cm_core *core = l->core;
	struct irdma_cm_node *node, *found = NULL;

	spin_lock_bh(&core->lock);
	list_for_each_entry(node, &core->nodes, list) {
		if (irdma_cm_rejected_untold(node, l)) {
			irdma_cm_node_get(node);
			found = node;
			break;
		}
	}
	spin_unlock_bh(&core->lock);
	return found;
}

/**
 * madcm_cm_destroy_listener() - stop listening
 * @listener: the listener
 *
 * No new connection starts. Connections still pending (not yet accepted
 * or rejected) are reset; those the consumer was told about get their
 * RESET event. Rejected connections still closing get their terminal
 * event (CLOSE) now and finish their close without the consumer. All
 * events for the listener's handler are delivered before this returns,
 * so the listener's context may be freed then; only accepted connections
 * carry on, with the handler given at accept (the listener's unless
 * another was given).
 *
 * Context: Process context; sleeps. Not from an event handler.
 * Return: Nothing.
 */
void madcm_cm_destroy_listener(struct madcm_cm_listener *listener)
{
	irdma_destroy_listener(irdma_cm_listener_of(listener), true);
}
EXPORT_SYMBOL_GPL(madcm_cm_destroy_listener);

/**
 * irdma_destroy_listener() - stop listening, for the consumer or the core
 * @listener: the listener
 * @flush: wait for the events queued for the listener's handler (the
 *	consumer's call); the core's stop waits for them itself, bounded
 *
 * See madcm_cm_destroy_listener(); a second call does nothing.
 */
void irdma_destroy_listener(struct irdma_cm_listener *listener, bool flush)
{
	struct irdma_cm_core *core = listener->core;
	struct irdma_cm_node *node;

	/* Only one caller (the consumer or the core's teardown) goes on. */
	if (!irdma_cm_listener_unhash(listener))
		return;
	if (core->ops->qhash_del)
		core->ops->qhash_del(core, &listener->qh);
	while ((node = irdma_cm_next_pending(listener))) {
		irdma_cm_node_lock(node);
		if (test_bit(IRDMA_CM_F_IN_BACKLOG, &node->flags))
			irdma_cm_abort_node(node, -ECONNABORTED);
		irdma_cm_node_unlock(node);
		irdma_cm_node_put(node);
	}
	/*
	 * A rejected connection has left the backlog but still closes, and
	 * its terminal event would reach the listener's handler after this
	 * returns: it gets that event now (CLOSE, as its close would end),
	 * and finishes its close without the consumer.
	 */
	while ((node = irdma_cm_next_rejected(listener))) {
		irdma_cm_node_lock(node);
		if (irdma_cm_rejected_untold(node, listener))
			irdma_cm_event(node, MADCM_CM_EVENT_CLOSE, 0);
		irdma_cm_node_unlock(node);
		irdma_cm_node_put(node);
	}
	if (flush)
		flush_workqueue(core->event_wq);
	irdma_cm_listener_put(listener);
}

static int irdma_cm_check_connect(const struct madcm_cm_connect_attr *attr)
{
	bool v4 = ipv6_addr_v4mapped(&attr->rem.ip);

	if (!attr->handler || !attr->rem.port ||
	    irdma_cm_addr_any(&attr->rem.ip) ||
	    irdma_cm_addr_any(&attr->loc.ip) ||
	    v4 != ipv6_addr_v4mapped(&attr->loc.ip))
		return -EINVAL;
	if (attr->mpa_rev != IETF_MPA_V1 && attr->mpa_rev != IETF_MPA_V2)
		return -EINVAL;
	/* Only RFC 6581's revision 2 frames can ask for peer-to-peer. */
	if (attr->peer_to_peer && attr->mpa_rev != IETF_MPA_V2)
		return -EINVAL;
	if (attr->private_data_len && !attr->private_data)
		return -EINVAL;
	if (attr->vlan_id != IRDMA_NO_VLAN && attr->vlan_id >= VLAN_N_VID)
		return -EINVAL;
	if (attr->offload_qp && !irdma_cm_offload_qp_ok(attr->offload_qp))
		return -EINVAL;
	return 0;
}

/*
 * The ports an active open picks from: the backend's (the namespace's
 * ip_local_port_range), else the IANA dynamic range; as @lo and a count.
 */
static void irdma_cm_local_ports(struct irdma_cm_core *core, u32 *lo,
				 u32 *range)
{
	u16 low = IRDMA_CM_EPHEMERAL_LO;
	u16 high = IRDMA_CM_EPHEMERAL_LO + IRDMA_CM_EPHEMERAL_NR - 1;

	if (core->ops->local_ports)
		core->ops->local_ports(core, &low, &high);
	if (!low || high < low) {
		low = IRDMA_CM_EPHEMERAL_LO;
		high = IRDMA_CM_EPHEMERAL_LO + IRDMA_CM_EPHEMERAL_NR - 1;
	}
	*lo = low;
	*range = (u32)high - low + 1;
}

/*
 * Hash @node under its port, or under a free ephemeral one (and give it
 * the ISS of that 4-tuple). A named port held by one of our TIME-WAITs is
 * taken over.
 */
static int irdma_cm_hash_active(struct irdma_cm_node *node)
{
	u32 i, start, lo, range;
	int ret;

	if (node->key.loc_port) {
		ret = irdma_cm_node_hash(node);
		if (ret == -EEXIST)
			ret = irdma_cm_time_wait_reuse(node);
		return ret;
	}
	irdma_cm_local_ports(node->core, &lo, &range);
	/* A random start, then the ports after it, as the host's connect(). */
	start = get_random_u32();
	ret = -EADDRNOTAVAIL;
	for (i = 0; i < IRDMA_CM_PORT_TRIES && i < range; i++) {
		node->key.loc_port = lo + (start + i) % range;
		if (node->core->ops->port_reserved &&
		    node->core->ops->port_reserved(node->core,
						   node->key.loc_port))
			continue;
		ret = irdma_cm_node_hash(node);
		if (!ret)
			irdma_cm_set_iss(node, irdma_cm_clock_iss(node));
		if (ret != -EEXIST)
			return ret;
	}
	node->key.loc_port = 0;
	return -EADDRNOTAVAIL;
}

static void irdma_cm_fail_new(struct irdma_cm_node *node)
{
	clear_bit(IRDMA_CM_F_CONSUMER, &node->flags);
	irdma_cm_node_lock(node);
	irdma_cm_node_closed(node);
	irdma_cm_node_unlock(node);
	irdma_cm_node_put(node);
}

static int irdma_connect(struct irdma_cm_core *core,
			 const struct madcm_cm_connect_attr *attr,
			 struct madcm_cm_conn **conn);

/**
 * madcm_cm_connect() - open a connection
 * @core: the CM of the link to connect through
 * @attr: addresses, VLAN, private data, IRD/ORD, MPA revision, handler
 * @conn: set to the connection
 *
 * Sends a SYN (with MSS and window scale options) to @attr->rem, then,
 * once TCP is established, the MPA request with @attr->private_data. The
 * connection ends in CONNECT_REPLY and ESTABLISHED, or in REJECTED or
 * RESET; later in DISCONNECT and CLOSE, or RESET. The caller holds the
 * connection until it calls madcm_cm_release(). With
 * @attr->offload_qp the stream is handed to that QP before
 * CONNECT_REPLY (<madcm/cm_offload.h>); a failed connect leaves the QP
 * untouched.
 *
 * Context: Process context; may sleep.
 * Return: 0; -EINVAL for bad attributes (an offload QP without all of its
 * ops among them); -EMSGSIZE for private data
 * beyond 512 bytes (508 for revision 2); -EADDRINUSE or -EADDRNOTAVAIL
 * when the 4-tuple or every tried ephemeral port is taken; -ENOMEM;
 * -ESHUTDOWN; -EHOSTUNREACH when the peer cannot be resolved; or the
 * wire's error when the steering entry cannot be added.
 */
int madcm_cm_connect(struct madcm_cm_core *core,
		     const struct madcm_cm_connect_attr *attr,
		     struct madcm_cm_conn **conn)
{
	struct irdma_cm_core *cm = irdma_cm_core_of(core);
	int ret;

	ret = irdma_cm_check_connect(attr);
	if (ret)
		return ret;
	down_read(&cm->api_rwsem);
	if (READ_ONCE(cm->dying))
		ret = -ESHUTDOWN;
	else
		ret = irdma_connect(cm, attr, conn);
	up_read(&cm->api_rwsem);
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_cm_connect);

/*
 * irdma_connect() - madcm_cm_connect() on a core that is not stopping
 * (api_rwsem held for reading)
 */
static int irdma_connect(struct irdma_cm_core *core,
			 const struct madcm_cm_connect_attr *attr,
			 struct madcm_cm_conn **conn)
{
	struct irdma_cm_tuple key = {
		.loc_ip = attr->loc.ip, .rem_ip = attr->rem.ip,
		.loc_port = attr->loc.port, .rem_port = attr->rem.port,
		.vlan_id = attr->vlan_id,
	};
	struct irdma_cm_qhash qh;
	struct irdma_cm_node *node;
	int ret, tries;

	node = irdma_make_cm_node(core, &key, IRDMA_CM_ROLE_INITIATOR,
				  GFP_KERNEL);
	if (!node)
		return -ENOMEM;
	node->mpa_frame_rev = attr->mpa_rev;
	irdma_cm_set_mpa_opts(node, attr->peer_to_peer, attr->crc);
	irdma_cm_set_tcp_offer(node, attr->tcp_opts);
	node->rtr_caps = attr->rtr_caps & IRDMA_RTR_ALL;
	irdma_record_ird_ord(node, attr->ird, attr->ord);
	ret = irdma_cm_build_request(node, attr->private_data,
				     attr->private_data_len);
	if (ret) {
		irdma_cm_node_put(node);
		return ret;
	}
	node->handler = attr->handler;
	node->context = attr->context;
	/* RFC 3168 6.1.1: no ECN negotiated, so Not-ECT. */
	node->tos = attr->tos & ~INET_ECN_MASK;
	if (attr->ttl)
		node->ttl = attr->ttl;
	irdma_cm_init_tcp(node);
	ret = core->ops->resolve(core, &key.rem_ip, key.vlan_id, node->rem_mac);
	if (!ret) {
		set_bit(IRDMA_CM_F_MAC_RESOLVED, &node->flags);
	} else if (ret != -EAGAIN) {
		irdma_cm_node_put(node);
		return -EHOSTUNREACH;
	}

	for (tries = 0;; tries++) {
		ret = irdma_cm_hash_active(node);
		if (ret) {
			irdma_cm_node_put(node);
			return ret == -EEXIST ? -EADDRINUSE : ret;
		}
		/* No steering entry to add: none, or a TIME-WAIT's taken over. */
		if (!core->ops->qhash_add ||
		    test_bit(IRDMA_CM_F_QH_ADDED, &node->flags))
			break;
		irdma_cm_node_qhash(node, &qh);
		mutex_lock(&core->qh_mutex);
		ret = irdma_cm_conn_qhash_add(core, &qh);
		mutex_unlock(&core->qh_mutex);
		if (!ret)
			break;
		/*
		 * An ephemeral port free in the table may still be held by
		 * the link: the steering entry of a connection just closed
		 * goes from process context, after the table entry. Another
		 * port then, as the host stack's connect() would.
		 */
		if (ret != -EADDRINUSE || attr->loc.port ||
		    tries + 1 >= IRDMA_CM_PORT_TRIES) {
			irdma_cm_fail_new(node);
			return ret;
		}
		irdma_cm_node_unhash(node);
		node->key.loc_port = 0;
	}
	irdma_cm_count(core, IRDMA_CM_CNT_ACTIVE_OPENS);
	irdma_cm_node_lock(node);
	if (core->ops->qhash_add)
		set_bit(IRDMA_CM_F_QH_ADDED, &node->flags);
	if (attr->offload_qp)
		irdma_cm_offload_attach(node, attr->offload_qp);
	/* The creation reference becomes the consumer's. */
	set_bit(IRDMA_CM_F_CONSUMER, &node->flags);
	irdma_cm_set_state(node, IRDMA_CM_STATE_SYN_SENT);
	irdma_send_syn(node, false);
	irdma_cm_node_unlock(node);
	*conn = &node->handle;
	return 0;
}

/* A connection that can still be answered, or why not. */
static int irdma_cm_answerable(const struct irdma_cm_node *node)
{
	if (node->state == IRDMA_CM_STATE_CLOSED ||
	    test_bit(IRDMA_CM_F_TERMINAL_SENT, &node->flags))
		return -ECONNRESET;
	if (node->state != IRDMA_CM_STATE_MPA_REQ_RCVD)
		return -EINVAL;
	return 0;
}

/**
 * madcm_cm_accept() - accept a connection request
 * @conn: the connection of a CONNECT_REQUEST
 * @attr: private data for the reply, IRD/ORD limits, the handler for
 *	the connection's further events
 *
 * Steers the connection's 4-tuple to the core on its own (the listener
 * may go before the connection does), then sends the MPA reply with the
 * negotiated IRD/ORD; the consumer then gets ESTABLISHED with the TCP
 * context, at once or, in RFC 6581's peer-to-peer model, once the
 * initiator's RTR message has arrived. With @attr->offload_qp the stream
 * is handed to that QP first (<madcm/cm_offload.h>). A failed accept
 * sends nothing and leaves the QP untouched; unless the connection is
 * gone, the request still waits for an answer (accept again, reject or
 * abort).
 *
 * Context: Process context (an event handler included); may sleep.
 * Return: 0; -EINVAL when @conn is not waiting for an answer; -EBUSY
 * while another accept of @conn runs; -EMSGSIZE for private data that
 * does not fit; -ENOMEM when the reply cannot be allocated; -ECONNRESET
 * when the connection is already gone; -ESHUTDOWN when the core is going
 * away (a stop waits for an accept already under way); or the backend's
 * error for the steering entry (-ENOMEM, -ENOSPC, -EADDRINUSE).
 */
int madcm_cm_accept(struct madcm_cm_conn *conn,
		    const struct madcm_cm_accept_attr *attr)
{
	struct irdma_cm_node *node = irdma_cm_node_of(conn);
	struct irdma_cm_core *core = node->core;
	struct irdma_cm_qhash qh;
	bool steered = false;
	int ret;

	if (attr->private_data_len && !attr->private_data)
		return -EINVAL;
	if (attr->offload_qp && !irdma_cm_offload_qp_ok(attr->offload_qp))
		return -EINVAL;
	/*
	 * Fenced like connect and listen: a stop waits for an accept that
	 * is in the backend (its add may sleep), and none starts after it.
	 */
	down_read(&core->api_rwsem);
	if (READ_ONCE(core->dying)) {
		up_read(&core->api_rwsem);
		return -ESHUTDOWN;
	}
	irdma_cm_node_lock(node);
	ret = irdma_cm_answerable(node);
	if (!ret && test_and_set_bit(IRDMA_CM_F_ACCEPTING, &node->flags))
		ret = -EBUSY;
	irdma_cm_node_unlock(node);
	if (ret)
		goto out;

	/* The entry first: a refusal is the caller's to hear (it may sleep). */
	irdma_cm_node_qhash(node, &qh);
	if (core->ops->qhash_add) {
		mutex_lock(&core->qh_mutex);
		ret = irdma_cm_conn_qhash_add(core, &qh);
		mutex_unlock(&core->qh_mutex);
		if (ret) {
			clear_bit(IRDMA_CM_F_ACCEPTING, &node->flags);
			goto out;
		}
		steered = true;
	}

	irdma_cm_node_lock(node);
	clear_bit(IRDMA_CM_F_ACCEPTING, &node->flags);
	ret = irdma_cm_answerable(node);
	if (!ret) {
		if (steered)
			set_bit(IRDMA_CM_F_QH_ADDED, &node->flags);
		if (attr->offload_qp)
			irdma_cm_offload_attach(node, attr->offload_qp);
		ret = irdma_send_mpa_reply(node, attr);
		if (ret) {
			if (attr->offload_qp)
				irdma_cm_offload_unattach(node);
			clear_bit(IRDMA_CM_F_QH_ADDED, &node->flags);
		}
	}
	irdma_cm_node_unlock(node);
	/* Not used after all: the entry goes again. */
	if (ret && steered && core->ops->qhash_del) {
		mutex_lock(&core->qh_mutex);
		core->ops->qhash_del(core, &qh);
		mutex_unlock(&core->qh_mutex);
	}
out:
	up_read(&core->api_rwsem);
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_cm_accept);

/**
 * madcm_cm_reject() - reject a connection request
 * @conn: the connection of a CONNECT_REQUEST
 * @private_data: for the peer (copied), or NULL
 * @private_data_len: its length
 *
 * Sends an MPA reply with R set, then closes gracefully; the consumer
 * gets CLOSE when the close completes (RESET if it fails).
 *
 * Context: Process context (an event handler included).
 * Return: 0; -EINVAL when @conn is not waiting for an answer; -EMSGSIZE;
 * -ENOMEM when the reject cannot be allocated; -ECONNRESET when the
 * connection is already gone.
 */
int madcm_cm_reject(struct madcm_cm_conn *conn, const void *private_data,
		    u16 private_data_len)
{
	struct irdma_cm_node *node = irdma_cm_node_of(conn);
	int ret;

	if (private_data_len && !private_data)
		return -EINVAL;
	irdma_cm_node_lock(node);
	if (node->state == IRDMA_CM_STATE_CLOSED ||
	    test_bit(IRDMA_CM_F_TERMINAL_SENT, &node->flags))
		ret = -ECONNRESET;
	else if (node->state != IRDMA_CM_STATE_MPA_REQ_RCVD)
		ret = -EINVAL;
	else
		ret = irdma_send_mpa_reject(node, private_data,
					    private_data_len);
	irdma_cm_node_unlock(node);
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_cm_reject);

/**
 * madcm_cm_close() - close a connection gracefully
 * @conn: the connection
 *
 * An established connection sends its FIN; CLOSE follows once both
 * sides are closed. A connection not yet established is aborted instead
 * (RESET, -ECONNABORTED).
 *
 * Context: Process or softirq context, hard IRQs enabled: the
 * connection's lock is taken with softirqs off, and a frame may leave
 * through dev_queue_xmit() from here.
 * Return: 0, or -ENOTCONN after the terminal event.
 */
int madcm_cm_close(struct madcm_cm_conn *conn)
{
	struct irdma_cm_node *node = irdma_cm_node_of(conn);
	int ret = 0;

	irdma_cm_node_lock(node);
	if (test_bit(IRDMA_CM_F_TERMINAL_SENT, &node->flags) ||
	    node->state == IRDMA_CM_STATE_CLOSED)
		ret = -ENOTCONN;
	else if (node->mpa_result != IRDMA_MPA_ACCEPTED)
		irdma_cm_abort_node(node, -ECONNABORTED);
	else
		irdma_cm_start_close(node);
	irdma_cm_node_unlock(node);
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_cm_close);

/**
 * madcm_cm_abort() - reset a connection
 * @conn: the connection
 *
 * Sends a RST; the consumer gets RESET with -ECONNABORTED unless it had
 * its terminal event already.
 *
 * Context: Process or softirq context, hard IRQs enabled: the
 * connection's lock is taken with softirqs off, and a frame may leave
 * through dev_queue_xmit() from here.
 * Return: 0, or -ENOTCONN when the connection is already closed.
 */
int madcm_cm_abort(struct madcm_cm_conn *conn)
{
	struct irdma_cm_node *node = irdma_cm_node_of(conn);
	int ret = 0;

	irdma_cm_node_lock(node);
	if (node->state == IRDMA_CM_STATE_CLOSED)
		ret = -ENOTCONN;
	else
		irdma_cm_abort_node(node, -ECONNABORTED);
	irdma_cm_node_unlock(node);
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_cm_abort);

/**
 * madcm_cm_release() - let go of a connection
 * @conn: the connection, from madcm_cm_connect() or a CONNECT_REQUEST
 *
 * Every connection the consumer was given is released exactly once,
 * normally from or after its terminal event. Released earlier, the
 * connection is aborted and no further event is delivered. A connection
 * in TIME-WAIT lives on inside the CM until the period ends.
 *
 * Context: Process or softirq context, hard IRQs enabled: the
 * connection's lock is taken with softirqs off, and a frame may leave
 * through dev_queue_xmit() from here.
 * Return: Nothing.
 */
void madcm_cm_release(struct madcm_cm_conn *conn)
{
	struct irdma_cm_node *node = irdma_cm_node_of(conn);

	irdma_cm_node_lock(node);
	set_bit(IRDMA_CM_F_RELEASED, &node->flags);
	if (!test_bit(IRDMA_CM_F_TERMINAL_SENT, &node->flags))
		irdma_cm_abort_node(node, -ECONNABORTED);
	irdma_cm_node_unlock(node);
	irdma_cm_node_put(node);
}
EXPORT_SYMBOL_GPL(madcm_cm_release);

/**
 * madcm_cm_conn_memory() - the memory the CM holds for a connection
 * @conn: the connection, held by the caller
 *
 * What the allocator gave for the connection: the slab objects of its
 * state and of every buffer its setup still holds (the MPA frames, the
 * setup's event slots), not the sizes asked for. An established
 * connection that is idle holds its state alone. For benchmarks and
 * tests; what the link's backend keeps for the connection is
 * madcm_cm_conn_backend_memory().
 *
 * Context: Process or softirq context.
 * Return: the number of octets.
 */
size_t madcm_cm_conn_memory(struct madcm_cm_conn *conn)
{
	struct irdma_cm_node *node = irdma_cm_node_of(conn);
	size_t n;

	irdma_cm_node_lock(node);
	n = irdma_cm_node_mem(node);
	irdma_cm_node_unlock(node);
	return n;
}
EXPORT_SYMBOL_GPL(madcm_cm_conn_memory);

/**
 * madcm_cm_conn_backend_memory() - what the link's backend holds for a
 *	connection
 * @conn: the connection, held by the caller
 *
 * The other part of a connection's memory, beside
 * madcm_cm_conn_memory(): what the backend of its link allocated for it.
 * On a net_device (madcm_cm_netdev_attach()): the slab objects of its
 * steering entry and of the record that holds it, and, when its local
 * port is its own rather than a listener's, the socket that reserves the
 * port in the host stack (its sock, its socket and inode, the port's
 * bind buckets). 0 for a connection without a steering entry (not yet
 * accepted, or ended), on a link whose backend does not say, or on a
 * core that is stopping. For benchmarks and tests.
 *
 * Context: Process context; may sleep.
 * Return: the number of octets.
 */
size_t madcm_cm_conn_backend_memory(struct madcm_cm_conn *conn)
{
	struct irdma_cm_node *node = irdma_cm_node_of(conn);
	struct irdma_cm_core *core = node->core;
	struct irdma_cm_qhash qh;
	size_t n = 0;
	bool steered;

	might_sleep();
	if (!core->ops->qhash_mem)
		return 0;
	down_read(&core->api_rwsem);
	if (READ_ONCE(core->dying))
		goto out;
	irdma_cm_node_lock(node);
	steered = test_bit(IRDMA_CM_F_QH_ADDED, &node->flags);
	irdma_cm_node_qhash(node, &qh);
	irdma_cm_node_unlock(node);
	if (steered) {
		mutex_lock(&core->qh_mutex);
		if (!core->wire_gone)
			n = core->ops->qhash_mem(core, &qh);
		mutex_unlock(&core->qh_mutex);
	}
out:
	up_read(&core->api_rwsem);
	return n;
}
EXPORT_SYMBOL_GPL(madcm_cm_conn_backend_memory);
