// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM core: one per link. It owns the connection table (4-tuple and
 * VLAN) and the listener table ((address or any, port, VLAN)), both
 * rhashtables looked up under RCU, the lifetimes of nodes and listeners
 * (refcounted, freed after an RCU grace period), the counters, and the
 * receive entry point irdma_receive_ilq().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/jiffies.h>
#include <linux/in.h>
#include <linux/random.h>
#include <linux/rhashtable.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/tcp_seq.h"

static const struct rhashtable_params irdma_cm_conn_params = {
	.key_len = sizeof(struct irdma_cm_tuple),
	.key_offset = offsetof(struct irdma_cm_node, key),
	.head_offset = offsetof(struct irdma_cm_node, hnode),
	.automatic_shrinking = true,
};

static const struct rhashtable_params irdma_cm_listen_params = {
	.key_len = sizeof(struct irdma_cm_listen_key),
	.key_offset = offsetof(struct irdma_cm_listener, key),
	.head_offset = offsetof(struct irdma_cm_listener, hnode),
	.automatic_shrinking = true,
};

static const char * const irdma_cm_counter_names[IRDMA_CM_CNT_NR] = {
	[IRDMA_CM_CNT_RX_SEGS] = "rx_segs",
	[IRDMA_CM_CNT_RX_NO_CONN] = "rx_no_conn",
	[IRDMA_CM_CNT_RX_DYING] = "rx_dying",
	[IRDMA_CM_CNT_SYN_RCVD] = "syn_rcvd",
	[IRDMA_CM_CNT_BACKLOG_DROP] = "backlog_drop",
	[IRDMA_CM_CNT_SYN_COOKIE_SENT] = "syn_cookies_sent",
	[IRDMA_CM_CNT_SYN_COOKIE_OK] = "syncookie_ok",
	[IRDMA_CM_CNT_SYN_COOKIE_BAD] = "syncookie_bad",
	[IRDMA_CM_CNT_BACKLOG_EVICTED] = "backlog_evicted",
	[IRDMA_CM_CNT_SYN_DUP] = "syn_dup",
	[IRDMA_CM_CNT_BAD_ACK] = "bad_ack",
	[IRDMA_CM_CNT_SEQ_DROP_ACK] = "seq_drop_ack",
	[IRDMA_CM_CNT_SEQ_DROP] = "seq_drop",
	[IRDMA_CM_CNT_CHALLENGE_ACK] = "challenge_ack",
	[IRDMA_CM_CNT_RST_RCVD] = "rst_rcvd",
	[IRDMA_CM_CNT_RST_SENT] = "rst_sent",
	[IRDMA_CM_CNT_OOO_DROP] = "ooo_drop",
	[IRDMA_CM_CNT_RX_EARLY] = "rx_early",
	[IRDMA_CM_CNT_ULP_BYTES] = "ulp_bytes_dropped",
	[IRDMA_CM_CNT_MPA_BAD] = "mpa_bad",
	[IRDMA_CM_CNT_RETRANS] = "retrans",
	[IRDMA_CM_CNT_RETRANS_LIMIT] = "retrans_limit",
	[IRDMA_CM_CNT_MPA_TIMEOUT] = "mpa_timeout",
	[IRDMA_CM_CNT_FIN_WAIT2_TIMEOUT] = "fin_wait2_timeout",
	[IRDMA_CM_CNT_TIME_WAIT] = "time_wait_done",
	[IRDMA_CM_CNT_TX_SEGS] = "tx_segs",
	[IRDMA_CM_CNT_TX_ERR] = "tx_err",
	[IRDMA_CM_CNT_NOMEM] = "nomem",
	[IRDMA_CM_CNT_RESOLVE_WAIT] = "resolve_wait",
	[IRDMA_CM_CNT_ACTIVE_OPENS] = "active_opens",
	[IRDMA_CM_CNT_PASSIVE_OPENS] = "passive_opens",
	[IRDMA_CM_CNT_ESTABLISHED] = "established",
	[IRDMA_CM_CNT_REJECT_SENT] = "reject_sent",
	[IRDMA_CM_CNT_REJECT_RCVD] = "reject_rcvd",
	[IRDMA_CM_CNT_ABORTS] = "aborts",
	[IRDMA_CM_CNT_RTR_SENT] = "rtr_sent",
	[IRDMA_CM_CNT_RTR_FAIL] = "rtr_fail",
	[IRDMA_CM_CNT_RTR_RCVD] = "rtr_rcvd",
	[IRDMA_CM_CNT_RTR_BAD] = "rtr_bad",
	[IRDMA_CM_CNT_OFFLOADS] = "offloads",
	[IRDMA_CM_CNT_OFFLOAD_FAIL] = "offload_fail",
	[IRDMA_CM_CNT_OFFLOAD_RX] = "offload_rx",
	[IRDMA_CM_CNT_OFFLOAD_TW] = "offload_time_wait",
	[IRDMA_CM_CNT_STOP_HELD] = "stop_held",
	[IRDMA_CM_CNT_STOP_HANDLER_STUCK] = "stop_handler_stuck",
	[IRDMA_CM_CNT_CHALLENGE_ACK_LIMITED] = "challenge_ack_limited",
	[IRDMA_CM_CNT_WND_PROBE] = "wnd_probe",
	[IRDMA_CM_CNT_TIME_WAIT_OVERFLOW] = "time_wait_overflow",
	[IRDMA_CM_CNT_TIME_WAIT_REUSED] = "time_wait_reused",
	[IRDMA_CM_CNT_QHASH_TAKEN_OVER] = "qhash_taken_over",
	[IRDMA_CM_CNT_OOW_ACK_LIMITED] = "oow_ack_limited",
	[IRDMA_CM_CNT_OFFLOAD_HOST] = "offload_host_tcp",
	[IRDMA_CM_CNT_PAWS_DROP] = "paws_drop",
	[IRDMA_CM_CNT_TS_MISSING] = "ts_missing",
};

/**
 * irdma_cm_counter_name() - a counter's name
 * @c: the counter
 *
 * Return: its name, as irdma_cm_core_show() prints it.
 */
const char *irdma_cm_counter_name(enum irdma_cm_counter c)
{
	return c < IRDMA_CM_CNT_NR ? irdma_cm_counter_names[c] : "unknown";
}

static u32 cfg_or(u32 v, u32 def)
{
	return v ? v : def;
}

/*
 * Frees the workqueues of cores whose stop gave up on a consumer's
 * handler; destroyed at module exit, when every consumer (which holds a
 * reference to this module) is gone and its handlers have returned.
 */
static struct workqueue_struct *irdma_cm_reap_wq;

/* What is left of a deadline, never negative. */
static unsigned long irdma_cm_until(unsigned long deadline)
{
	return time_before(jiffies, deadline) ? deadline - jiffies : 0;
}

static void irdma_cm_stop_mark(struct work_struct *work)
{
	struct irdma_cm_core *core = container_of(work, struct irdma_cm_core,
						  stop_mark);

	complete(&core->stop_marked);
}

static void irdma_cm_reap(struct work_struct *work)
{
	struct irdma_cm_core *core = container_of(work, struct irdma_cm_core,
						  reap_work);

	/*
	 * The RTR works first: their timers must not queue them on a
	 * workqueue being destroyed. They run behind the handler that
	 * blocked; the destroy then runs whatever is left.
	 */
	wait_event(core->drain, !atomic_read(&core->rtr_pending));
	destroy_workqueue(core->event_wq);
	irdma_cm_core_put(core);
}

/**
 * irdma_cm_reap_init() - the workqueue of stopped cores' leftovers
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_cm_reap_init(void)
{
	irdma_cm_reap_wq = alloc_workqueue("madcm_cm_reap", WQ_UNBOUND, 0);
	return irdma_cm_reap_wq ? 0 : -ENOMEM;
}

/**
 * irdma_cm_reap_exit() - wait for the leftovers of stopped cores
 */
void irdma_cm_reap_exit(void)
{
	destroy_workqueue(irdma_cm_reap_wq);
}

/**
 * irdma_setup_cm_core() - create the CM of one link
 * @ops: the wire's operations
 * @priv: the wire's private data, irdma_cm_core_priv() returns it
 * @cfg: tunables, or NULL for the defaults
 *
 * Context: Process context; may sleep.
 * Return: the core, or an ERR_PTR().
 */
struct irdma_cm_core *irdma_setup_cm_core(const struct irdma_cm_wire_ops *ops,
					  void *priv,
					  const struct madcm_cm_config *cfg)
{
	static const struct madcm_cm_config none;
	struct irdma_cm_core *core;
	int ret;

	if (!ops || !ops->xmit || !ops->resolve || !ops->local_mac ||
	    !ops->mtu)
		return ERR_PTR(-EINVAL);
	if (!cfg)
		cfg = &none;
	core = kzalloc(sizeof(*core), GFP_KERNEL);
	if (!core)
		return ERR_PTR(-ENOMEM);
	refcount_set(&core->handle.refs, 1);
	init_rwsem(&core->api_rwsem);
	core->ops = ops;
	core->priv = priv;
	core->cfg.rto_min_ms = cfg_or(cfg->rto_min_ms, 1000);
	core->cfg.rto_max_ms = max(cfg_or(cfg->rto_max_ms, 60000),
				   core->cfg.rto_min_ms);
	core->cfg.rto_initial_ms = clamp(cfg_or(cfg->rto_initial_ms,
						core->cfg.rto_min_ms),
					 core->cfg.rto_min_ms,
					 core->cfg.rto_max_ms);
	core->cfg.max_retrans = cfg_or(cfg->max_retrans, 6);
	core->cfg.max_time_wait = cfg_or(cfg->max_time_wait, 4096);
	core->cfg.challenge_acks = cfg_or(cfg->challenge_acks,
					  IRDMA_CM_CHALLENGE_ACKS);
	core->cfg.oow_ack_ms = min_t(u32, cfg_or(cfg->oow_ack_ms,
						 IRDMA_CM_OOW_ACK_MS), 60000);
	core->cfg.time_wait_ms = cfg_or(cfg->time_wait_ms, 60000);
	core->cfg.fin_wait2_ms = cfg_or(cfg->fin_wait2_ms, 60000);
	core->cfg.mpa_timeout_ms = cfg_or(cfg->mpa_timeout_ms, 10000);
	core->cfg.backlog = cfg_or(cfg->backlog, 128);
	core->cfg.max_ird = min_t(u16, cfg_or(cfg->max_ird, 127),
				  IETF_MAX_IRD_ORD);
	core->cfg.max_ord = min_t(u16, cfg_or(cfg->max_ord, 127),
				  IETF_MAX_IRD_ORD);
	core->cfg.stop_wait_ms = min_t(u32, cfg_or(cfg->stop_wait_ms, 5000),
				       60000);
	core->cfg.rtr_delay_ms = min_t(u32, cfg->rtr_delay_ms,
				       IRDMA_CM_RTR_DELAY_MAX_MS);
	core->rto_min = max(msecs_to_jiffies(core->cfg.rto_min_ms), 1UL);
	core->rto_max = max(msecs_to_jiffies(core->cfg.rto_max_ms), 1UL);
	core->rto_initial = max(msecs_to_jiffies(core->cfg.rto_initial_ms),
				1UL);
	core->time_wait = msecs_to_jiffies(core->cfg.time_wait_ms);
	core->fin_wait2 = msecs_to_jiffies(core->cfg.fin_wait2_ms);
	core->mpa_timeout = msecs_to_jiffies(core->cfg.mpa_timeout_ms);
	core->rtr_delay = msecs_to_jiffies(core->cfg.rtr_delay_ms);

	get_random_bytes(&core->syncookie_key, sizeof(core->syncookie_key));
	get_random_bytes(&core->isn_key, sizeof(core->isn_key));
	get_random_bytes(&core->ts_key, sizeof(core->ts_key));
	spin_lock_init(&core->lock);
	INIT_LIST_HEAD(&core->nodes);
	INIT_LIST_HEAD(&core->all_nodes);
	INIT_LIST_HEAD(&core->listener_list);
	INIT_LIST_HEAD(&core->qh_dying);
	mutex_init(&core->qh_mutex);
	init_waitqueue_head(&core->drain);
	ret = rhashtable_init(&core->conns, &irdma_cm_conn_params);
	if (ret)
		goto free;
	ret = rhashtable_init(&core->listeners, &irdma_cm_listen_params);
	if (ret)
		goto conns;
	INIT_WORK(&core->stop_mark, irdma_cm_stop_mark);
	init_completion(&core->stop_marked);
	INIT_WORK(&core->reap_work, irdma_cm_reap);
	core->event_wq = alloc_ordered_workqueue("madcm_cm", WQ_MEM_RECLAIM);
	if (!core->event_wq) {
		ret = -ENOMEM;
		goto listeners;
	}
	return core;

listeners:
	rhashtable_destroy(&core->listeners);
conns:
	rhashtable_destroy(&core->conns);
free:
	kfree(core);
	return ERR_PTR(ret);
}

/**
 * irdma_cm_core_priv() - the wire's private data
 * @core: the core
 *
 * Return: what irdma_setup_cm_core() was given.
 */
void *irdma_cm_core_priv(struct irdma_cm_core *core)
{
	return core->priv;
}

/* Abort every node, oldest first; each leaves the list as it closes. */
static void irdma_cm_abort_all(struct irdma_cm_core *core)
{
	struct irdma_cm_node *node;

	for (;;) {
		spin_lock_bh(&core->lock);
		node = list_first_entry_or_null(&core->nodes,
						struct irdma_cm_node, list);
		if (node)
			irdma_cm_node_get(node);
		spin_unlock_bh(&core->lock);
		if (!node)
			break;
		irdma_cm_node_lock(node);
		irdma_cm_abort_node(node, -ECONNABORTED);
		irdma_cm_node_unlock(node);
		irdma_cm_node_put(node);
	}
}

/*
 * Every connection is closed, the removal of its steering entry queued on
 * @event_wq, maybe behind a consumer's handler that blocks: remove them
 * now, and leave the backend alone from here on.
 */
static void irdma_cm_steering_gone(struct irdma_cm_core *core)
{
	struct irdma_cm_node *node, *tmp;
	struct irdma_cm_qhash qh;
	LIST_HEAD(queued);

	mutex_lock(&core->qh_mutex);
	spin_lock_bh(&core->lock);
	list_splice_init(&core->qh_dying, &queued);
	spin_unlock_bh(&core->lock);
	/* Their works take @qh_mutex first, then find @wire_gone set. */
	list_for_each_entry_safe(node, tmp, &queued, qh_dying) {
		list_del_init(&node->qh_dying);
		irdma_cm_node_qhash(node, &qh);
		if (core->ops->qhash_del)
			core->ops->qhash_del(core, &qh);
	}
	core->wire_gone = true;
	mutex_unlock(&core->qh_mutex);
}

/* The stop waited long enough: name the consumers still holding nodes. */
static void irdma_cm_report_held(struct irdma_cm_core *core)
{
	struct irdma_cm_node *node;

	pr_warn("madcm: CM stopped with %d connections and %d listeners still held\n",
		atomic_read(&core->live_nodes),
		atomic_read(&core->live_listeners));
	spin_lock_bh(&core->lock);
	list_for_each_entry(node, &core->all_nodes, all) {
		irdma_cm_count(core, IRDMA_CM_CNT_STOP_HELD);
		pr_warn("madcm: connection %pI6c:%u - %pI6c:%u held by %ps (released %d)\n",
			&node->key.loc_ip, node->key.loc_port,
			&node->key.rem_ip, node->key.rem_port, node->handler,
			test_bit(IRDMA_CM_F_RELEASED, &node->flags));
	}
	spin_unlock_bh(&core->lock);
}

/*
 * Wait until @stop_mark has run: every event queued before it delivered.
 * A handler that has not returned for stop_wait_ms is stuck, and the
 * stop gives up (false). Events that only take long, many of them with
 * each handler returning, are waited for, however long they take: no
 * handler of the core may run after the stop, when the consumer frees
 * what its handler uses.
 */
static bool irdma_cm_stop_wait_events(struct irdma_cm_core *core)
{
	unsigned long wait = msecs_to_jiffies(core->cfg.stop_wait_ms);
	int done;

	do {
		done = atomic_read(&core->events_done);
		if (wait_for_completion_timeout(&core->stop_marked, wait))
			return true;
	} while (atomic_read(&core->events_done) != done);
	return false;
}

/**
 * irdma_cm_core_stop() - end everything on a core
 * @core: the core
 *
 * Refuses new connections and listeners, unhashes the listeners left,
 * resets every connection (each gets its terminal event), delivers the
 * events, and waits until every node and listener is freed: consumers
 * must call madcm_cm_release() on their connections (their terminal
 * event handler is the place) and madcm_cm_destroy_listener() is no
 * longer needed for listeners left here. When it returns no timer or
 * work of the core is left.
 *
 * The waits are bounded by @cfg.stop_wait_ms without progress: a stop
 * runs in netdev notifiers, under RTNL, and a consumer that never
 * releases a connection, or whose event handler does not return, must
 * not hang the host's networking. The steering entries leave the backend
 * first, from here rather than from the workqueue where their removals
 * wait behind the consumers' events. Then the events are delivered, as
 * long as each handler returns within stop_wait_ms (many slow handlers
 * are waited for); a handler that has not is reported and counted
 * (stop_handler_stuck), and the core's workqueue is left to
 * irdma_cleanup_cm_core()'s reaper. Then the consumers have
 * stop_wait_ms to release their connections; each connection still held
 * is reported with its consumer's handler and counted (stop_held); it is
 * closed, has had its terminal event (or has it queued, behind the
 * handler that blocks) and touches neither the backend nor the core's
 * queues again. It keeps, as every node and listener does, a reference
 * to the core's memory, which is freed with the last of them.
 *
 * Context: Process context; sleeps. Not from an event handler.
 */
void irdma_cm_core_stop(struct irdma_cm_core *core)
{
	unsigned long deadline;
	struct irdma_cm_listener *l;

	/* No listener or active open starts after this. */
	down_write(&core->api_rwsem);
	spin_lock_bh(&core->lock);
	core->dying = true;
	spin_unlock_bh(&core->lock);
	up_write(&core->api_rwsem);

	for (;;) {
		spin_lock_bh(&core->lock);
		l = list_first_entry_or_null(&core->listener_list,
					     struct irdma_cm_listener, list);
		spin_unlock_bh(&core->lock);
		if (!l)
			break;
		irdma_destroy_listener(l, false);
	}
	irdma_cm_abort_all(core);
	irdma_cm_steering_gone(core);

	reinit_completion(&core->stop_marked);
	queue_work(core->event_wq, &core->stop_mark);
	if (!irdma_cm_stop_wait_events(core)) {
		core->events_stuck = true;
		irdma_cm_count(core, IRDMA_CM_CNT_STOP_HANDLER_STUCK);
		pr_warn("madcm: CM stopped while the event handler %ps had not returned after %u ms\n",
			READ_ONCE(core->handler_running),
			core->cfg.stop_wait_ms);
	} else {
		/*
		 * A delayed RTR work is not flushed while its timer runs,
		 * and the workqueue goes after this: wait for it (at most
		 * rtr_delay_ms; it finds its connection closed and does
		 * nothing). With a handler stuck, the reaper waits.
		 */
		wait_event(core->drain, !atomic_read(&core->rtr_pending));
	}
	deadline = jiffies + msecs_to_jiffies(core->cfg.stop_wait_ms);
	if (!wait_event_timeout(core->drain,
				!atomic_read(&core->live_nodes) &&
				!atomic_read(&core->live_listeners),
				irdma_cm_until(deadline)))
		irdma_cm_report_held(core);
	/* The frees so far run as RCU callbacks that touch the core. */
	rcu_barrier();
}

/**
 * irdma_cleanup_cm_core() - stop and free a core
 * @core: the core, or NULL
 *
 * Context: Process context; sleeps. Not from an event handler.
 */
void irdma_cleanup_cm_core(struct irdma_cm_core *core)
{
	if (!core)
		return;
	irdma_cm_core_stop(core);
	if (core->events_stuck) {
		/* Its reference keeps the core's memory. */
		refcount_inc(&core->handle.refs);
		queue_work(irdma_cm_reap_wq, &core->reap_work);
	} else {
		destroy_workqueue(core->event_wq);
	}
	rhashtable_destroy(&core->listeners);
	rhashtable_destroy(&core->conns);
	irdma_cm_core_put(core);
}

/**
 * irdma_cm_core_put() - drop a reference to a core's memory
 * @core: the core
 *
 * The backend's reference goes in irdma_cleanup_cm_core(); the others are
 * consumers' (madcm_cm_get_core()). What is left of a stopped core, for
 * its last holders, is only its handle and the @dying flag.
 */
void irdma_cm_core_put(struct irdma_cm_core *core)
{
	if (refcount_dec_and_test(&core->handle.refs))
		kfree(core);
}

/**
 * irdma_cm_core_show() - print a core's counters and tables
 * @core: the core
 * @m: where
 *
 * One "name value" line per counter, then the frames refused by the
 * segment parser, one per reason, then the live object counts.
 */
void irdma_cm_core_show(struct irdma_cm_core *core, struct seq_file *m)
{
	int i;

	for (i = 0; i < IRDMA_CM_CNT_NR; i++)
		seq_printf(m, "%s %llu\n", irdma_cm_counter_names[i],
			   (u64)atomic64_read(&core->cnt[i]));
	for (i = 0; i < IRDMA_SEG_ERR_MAX; i++)
		seq_printf(m, "seg_%s %llu\n", irdma_cm_seg_err_name(i),
			   (u64)atomic64_read(&core->seg_stats.drops[i]));
	seq_printf(m, "live_nodes %d\nlive_listeners %d\ntime_wait_nodes %d\n",
		   atomic_read(&core->live_nodes),
		   atomic_read(&core->live_listeners),
		   atomic_read(&core->time_wait_nodes));
}

/**
 * irdma_make_cm_node() - allocate a connection
 * @core: its core
 * @key: its 4-tuple and VLAN
 * @role: initiator or responder
 * @gfp: allocation flags
 *
 * The node starts CLOSED, unhashed, with one reference (the caller's).
 *
 * Return: the node, or NULL.
 */
struct irdma_cm_node *irdma_make_cm_node(struct irdma_cm_core *core,
					 const struct irdma_cm_tuple *key,
					 enum irdma_cm_role role, gfp_t gfp)
{
	struct irdma_cm_node *node;

	/*
	 * An idle connection is one object of at most 1 KiB, the figure
	 * Documentation/irdma_cm.rst and the CM bench give; lock debugging
	 * (a KUnit kernel) makes every lock and timer larger.
	 */
	BUILD_BUG_ON(!IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC) &&
		     !IS_ENABLED(CONFIG_DEBUG_SPINLOCK) &&
		     !IS_ENABLED(CONFIG_DEBUG_OBJECTS) &&
		     sizeof(*node) > 1024);
	node = kzalloc(sizeof(*node), gfp);
	if (!node) {
		irdma_cm_count(core, IRDMA_CM_CNT_NOMEM);
		return NULL;
	}
	node->core = core;
	/* Every event slot now, so that no event waits for memory later. */
	if (irdma_cm_setup_alloc(node, gfp)) {
		irdma_cm_count(core, IRDMA_CM_CNT_NOMEM);
		kfree(node);
		return NULL;
	}
	node->key = *key;
	node->key.pad = 0;
	node->role = role;
	refcount_set(&node->refcnt, 1);
	spin_lock_init(&node->lock);
	INIT_LIST_HEAD(&node->list);
	INIT_LIST_HEAD(&node->qh_dying);
	INIT_LIST_HEAD(&node->embryo);
	INIT_LIST_HEAD(&node->txq);
	irdma_cm_timer_init(node);
	irdma_cm_event_init(node);
	irdma_cm_offload_init(node);
	node->max_ird = core->cfg.max_ird;
	node->max_ord = core->cfg.max_ord;
	node->mpav2_ird_ord = 0;
	node->rcv_wnd = IRDMA_CM_RCV_WND;
	node->rto = core->rto_initial;
	node->rto_base = core->rto_initial;
	node->chack_start = jiffies;
	node->ttl = IRDMA_CM_DEFAULT_TTL;
	node->state = IRDMA_CM_STATE_CLOSED;
	node->mpa_result = IRDMA_MPA_PENDING;
	core->ops->local_mac(core, node->loc_mac);
	/* The core's memory outlives its nodes (see irdma_cm_core_stop()). */
	refcount_inc(&core->handle.refs);
	atomic_inc(&core->live_nodes);
	spin_lock_bh(&core->lock);
	list_add_tail(&node->all, &core->all_nodes);
	spin_unlock_bh(&core->lock);
	return node;
}

/**
 * irdma_cm_node_hash() - enter a node into the connection table
 * @node: the node, its key set
 *
 * The table takes a reference.
 *
 * Return: 0, -EEXIST when the 4-tuple is taken, -ESHUTDOWN when the core
 * is shutting down, or the table's error.
 */
int irdma_cm_node_hash(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	int ret;

	spin_lock_bh(&core->lock);
	if (core->dying) {
		spin_unlock_bh(&core->lock);
		return -ESHUTDOWN;
	}
	ret = rhashtable_lookup_insert_fast(&core->conns, &node->hnode,
					    irdma_cm_conn_params);
	if (!ret) {
		refcount_inc(&node->refcnt);
		set_bit(IRDMA_CM_F_HASHED, &node->flags);
		list_add_tail(&node->list, &core->nodes);
	}
	spin_unlock_bh(&core->lock);
	return ret;
}

/**
 * irdma_cm_node_unhash() - take a node that never ran back out of the table
 * @node: the node, hashed by irdma_cm_node_hash(), not yet started
 *
 * Drops the table's reference; the caller's keeps the node.
 */
void irdma_cm_node_unhash(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	spin_lock_bh(&core->lock);
	if (test_and_clear_bit(IRDMA_CM_F_HASHED, &node->flags)) {
		rhashtable_remove_fast(&core->conns, &node->hnode,
				       irdma_cm_conn_params);
		list_del_init(&node->list);
		refcount_dec(&node->refcnt);
	}
	spin_unlock_bh(&core->lock);
}

/**
 * irdma_cm_node_get() - take a reference
 * @node: the node
 */
void irdma_cm_node_get(struct irdma_cm_node *node)
{
	refcount_inc(&node->refcnt);
}

static void irdma_cm_node_free_rcu(struct rcu_head *rcu)
{
	struct irdma_cm_node *node = container_of(rcu, struct irdma_cm_node,
						  rcu);
	struct irdma_cm_core *core = node->core;

	irdma_cm_node_free_bufs(node);
	kfree(node);
	if (atomic_dec_and_test(&core->live_nodes))
		wake_up(&core->drain);
	irdma_cm_core_put(core);
}

/**
 * irdma_cm_node_put() - drop a reference; the last frees the node
 * @node: the node
 *
 * Context: Any context; not with @node->lock held unless the caller
 * holds another reference.
 */
void irdma_cm_node_put(struct irdma_cm_node *node)
{
	if (!refcount_dec_and_test(&node->refcnt))
		return;
	WARN_ON_ONCE(test_bit(IRDMA_CM_F_HASHED, &node->flags) ||
		     !list_empty(&node->txq));
	if (node->listener)
		irdma_cm_listener_put(node->listener);
	spin_lock_bh(&node->core->lock);
	list_del(&node->all);
	spin_unlock_bh(&node->core->lock);
	call_rcu(&node->rcu, irdma_cm_node_free_rcu);
}

/**
 * irdma_find_node() - look a connection up by its 4-tuple and VLAN
 * @core: the core
 * @key: the key (its pad zero)
 *
 * Context: Any context.
 * Return: the node with a reference taken, or NULL.
 */
struct irdma_cm_node *irdma_find_node(struct irdma_cm_core *core,
				      const struct irdma_cm_tuple *key)
{
	struct irdma_cm_node *node;

	rcu_read_lock();
	node = rhashtable_lookup(&core->conns, key, irdma_cm_conn_params);
	if (node && !refcount_inc_not_zero(&node->refcnt))
		node = NULL;
	rcu_read_unlock();
	return node;
}

static struct irdma_cm_listener *
irdma_lookup_listener(struct irdma_cm_core *core,
		      const struct irdma_cm_listen_key *key)
{
	struct irdma_cm_listener *l;

	l = rhashtable_lookup(&core->listeners, key, irdma_cm_listen_params);
	if (l && !refcount_inc_not_zero(&l->refcnt))
		l = NULL;
	return l;
}

/**
 * irdma_find_listener() - the listener for a SYN
 * @core: the core
 * @ip: the SYN's destination address
 * @port: its destination port
 * @vlan_id: its VLAN ID or IRDMA_NO_VLAN
 *
 * A listener on the exact address wins over one on "any": for an IPv4
 * destination, ::ffff:0.0.0.0 (any IPv4 address) is tried next, then ::
 * (any address). At most three hash lookups, no walk.
 *
 * Context: Any context.
 * Return: the listener with a reference taken, or NULL.
 */
struct irdma_cm_listener *irdma_find_listener(struct irdma_cm_core *core,
					      const struct in6_addr *ip,
					      u16 port, u16 vlan_id)
{
	struct irdma_cm_listen_key key = {
		.ip = *ip, .port = port, .vlan_id = vlan_id,
	};
	struct irdma_cm_listener *l;

	rcu_read_lock();
	l = irdma_lookup_listener(core, &key);
	if (!l && ipv6_addr_v4mapped(ip)) {
		ipv6_addr_set_v4mapped(htonl(INADDR_ANY), &key.ip);
		l = irdma_lookup_listener(core, &key);
	}
	if (!l) {
		key.ip = in6addr_any;
		l = irdma_lookup_listener(core, &key);
	}
	rcu_read_unlock();
	return l;
}

/**
 * irdma_cm_listener_hash() - enter a listener into the listener table
 * @listener: the listener, its key set
 *
 * Return: 0, -EADDRINUSE when the key is taken, -ESHUTDOWN when the core
 * is shutting down, or the table's error.
 */
int irdma_cm_listener_hash(struct irdma_cm_listener *listener)
{
	struct irdma_cm_core *core = listener->core;
	int ret;

	spin_lock_bh(&core->lock);
	if (core->dying) {
		spin_unlock_bh(&core->lock);
		return -ESHUTDOWN;
	}
	ret = rhashtable_lookup_insert_fast(&core->listeners, &listener->hnode,
					    irdma_cm_listen_params);
	if (ret == -EEXIST)
		ret = -EADDRINUSE;
	if (!ret)
		list_add_tail(&listener->list, &core->listener_list);
	spin_unlock_bh(&core->lock);
	return ret;
}

/**
 * irdma_cm_listener_unhash() - take a listener out of the table
 * @listener: the listener
 *
 * Context: Any context.
 * Return: true for the one call that took it out.
 */
bool irdma_cm_listener_unhash(struct irdma_cm_listener *listener)
{
	struct irdma_cm_core *core = listener->core;
	bool mine = false;

	spin_lock_bh(&core->lock);
	if (!listener->destroyed) {
		listener->destroyed = true;
		rhashtable_remove_fast(&core->listeners, &listener->hnode,
				       irdma_cm_listen_params);
		list_del_init(&listener->list);
		mine = true;
	}
	spin_unlock_bh(&core->lock);
	return mine;
}

static void irdma_cm_listener_free_rcu(struct rcu_head *rcu)
{
	struct irdma_cm_listener *l = container_of(rcu, struct irdma_cm_listener,
						   rcu);
	struct irdma_cm_core *core = l->core;

	kfree(l);
	if (atomic_dec_and_test(&core->live_listeners))
		wake_up(&core->drain);
	irdma_cm_core_put(core);
}

/**
 * irdma_cm_listener_put() - drop a listener reference
 * @listener: the listener
 */
void irdma_cm_listener_put(struct irdma_cm_listener *listener)
{
	if (refcount_dec_and_test(&listener->refcnt))
		call_rcu(&listener->rcu, irdma_cm_listener_free_rcu);
}

/**
 * irdma_cm_node_lock() - lock a node
 * @node: the node, referenced by the caller
 */
void irdma_cm_node_lock(struct irdma_cm_node *node)
	__acquires(&node->lock)
{
	spin_lock_bh(&node->lock);
}

struct irdma_cm_txbuf {
	struct list_head list;
	u32 len;
	u8 data[];
};

/**
 * irdma_cm_node_unlock() - unlock a node and send what was built under
 *	the lock
 * @node: the node, locked
 *
 * Frames are built under the node lock in sequence order and handed to
 * the wire after it is dropped: the wire's xmit runs with no CM lock held.
 */
void irdma_cm_node_unlock(struct irdma_cm_node *node)
	__releases(&node->lock)
{
	struct irdma_cm_core *core = node->core;
	struct irdma_cm_txbuf *tx, *tmp;
	LIST_HEAD(q);

	list_splice_init(&node->txq, &q);
	spin_unlock_bh(&node->lock);
	list_for_each_entry_safe(tx, tmp, &q, list) {
		if (core->ops->xmit(core, tx->data, tx->len))
			irdma_cm_count(core, IRDMA_CM_CNT_TX_ERR);
		else
			irdma_cm_count(core, IRDMA_CM_CNT_TX_SEGS);
		kfree(tx);
	}
}

/**
 * irdma_cm_queue_frame() - build a segment for a node's transmit queue
 * @node: the node, locked
 * @seg: the segment
 *
 * Return: 0 or a negative errno (counted).
 */
int irdma_cm_queue_frame(struct irdma_cm_node *node,
			 const struct irdma_cm_seg *seg)
{
	u32 size = irdma_cm_seg_hdr_len(seg) + seg->payload_len;
	struct irdma_cm_txbuf *tx;
	int len;

	lockdep_assert_held(&node->lock);
	tx = kmalloc(struct_size(tx, data, size), GFP_ATOMIC);
	if (!tx) {
		irdma_cm_count(node->core, IRDMA_CM_CNT_NOMEM);
		return -ENOMEM;
	}
	len = irdma_cm_build_seg(seg, tx->data, size);
	if (len < 0) {
		kfree(tx);
		irdma_cm_count(node->core, IRDMA_CM_CNT_TX_ERR);
		return len;
	}
	tx->len = len;
	list_add_tail(&tx->list, &node->txq);
	return 0;
}

/**
 * irdma_cm_time_wait_begin() - take a TIME-WAIT slot
 * @node: the node, locked, about to enter TIME-WAIT
 *
 * Return: true when the core holds fewer than max_time_wait connections
 * in TIME-WAIT; the node then counts as one until it closes. False (and
 * counted) otherwise: the caller frees the node at once instead.
 */
bool irdma_cm_time_wait_begin(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	if (atomic_inc_return(&core->time_wait_nodes) >
	    core->cfg.max_time_wait) {
		atomic_dec(&core->time_wait_nodes);
		irdma_cm_count(core, IRDMA_CM_CNT_TIME_WAIT_OVERFLOW);
		return false;
	}
	set_bit(IRDMA_CM_F_TW_COUNTED, &node->flags);
	return true;
}

/**
 * irdma_cm_node_qhash() - the connection steering entry of a node
 * @node: the node, its key set
 * @qh: filled in: type CONN, the node's 4-tuple and VLAN
 */
void irdma_cm_node_qhash(const struct irdma_cm_node *node,
			 struct irdma_cm_qhash *qh)
{
	memset(qh, 0, sizeof(*qh));
	qh->type = IRDMA_QHASH_CONN;
	qh->loc.ip = node->key.loc_ip;
	qh->loc.port = node->key.loc_port;
	qh->rem.ip = node->key.rem_ip;
	qh->rem.port = node->key.rem_port;
	qh->vlan_id = node->key.vlan_id;
}

static void irdma_cm_qhash_del_work(struct work_struct *work)
{
	struct irdma_cm_node *node = container_of(work, struct irdma_cm_node,
						  qh_work);
	struct irdma_cm_core *core = node->core;
	struct irdma_cm_qhash qh;
	bool taken;

	irdma_cm_node_qhash(node, &qh);
	mutex_lock(&core->qh_mutex);
	spin_lock_bh(&core->lock);
	list_del_init(&node->qh_dying);
	taken = test_bit(IRDMA_CM_F_QH_TAKEN, &node->flags);
	spin_unlock_bh(&core->lock);
	if (!taken && !core->wire_gone && core->ops->qhash_del)
		core->ops->qhash_del(core, &qh);
	mutex_unlock(&core->qh_mutex);
	irdma_cm_node_put(node);
}

/*
 * Remove the node's steering entry, if it has one, from process context;
 * until then a new connection of its 4-tuple may take it over
 * (irdma_cm_conn_qhash_add()).
 */
static void irdma_cm_node_qhash_del(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	if (test_and_clear_bit(IRDMA_CM_F_QH_ADDED, &node->flags)) {
		INIT_WORK(&node->qh_work, irdma_cm_qhash_del_work);
		irdma_cm_node_get(node);
		spin_lock_bh(&core->lock);
		clear_bit(IRDMA_CM_F_QH_TAKEN, &node->flags);
		list_add_tail(&node->qh_dying, &core->qh_dying);
		spin_unlock_bh(&core->lock);
		queue_work(core->event_wq, &node->qh_work);
	}
}

/**
 * irdma_cm_conn_qhash_add() - add a connection's steering entry
 * @core: the core
 * @qh: the entry (type IRDMA_QHASH_CONN, no target)
 *
 * The entry of a closed connection goes from the event workqueue, after
 * its 4-tuple has left the table, so a new connection of that 4-tuple
 * may come first. The backend then holds one entry for both (an add on a
 * connection's key retargets it), and the old removal would take the new
 * connection's entry. So a queued removal of the same 4-tuple is called
 * off here, and its entry becomes this one; every entry is then added
 * once and removed once.
 *
 * Context: Process context, @core->qh_mutex held (the caller sets
 * IRDMA_CM_F_QH_ADDED on success before it drops it).
 * Return: 0, or the backend's error (no entry then, the old one gone).
 */
int irdma_cm_conn_qhash_add(struct irdma_cm_core *core,
			    const struct irdma_cm_qhash *qh)
{
	struct irdma_cm_qhash old_qh;
	struct irdma_cm_node *old;
	bool taken = false;
	int ret;

	lockdep_assert_held(&core->qh_mutex);
	spin_lock_bh(&core->lock);
	list_for_each_entry(old, &core->qh_dying, qh_dying) {
		irdma_cm_node_qhash(old, &old_qh);
		if (irdma_cm_qhash_equal(&old_qh, qh)) {
			set_bit(IRDMA_CM_F_QH_TAKEN, &old->flags);
			list_del_init(&old->qh_dying);
			taken = true;
			break;
		}
	}
	spin_unlock_bh(&core->lock);
	/* Taken: the entry is still there, and an add only retargets it. */
	ret = core->ops->qhash_add(core, qh);
	if (WARN_ON_ONCE(ret && taken) && core->ops->qhash_del)
		core->ops->qhash_del(core, qh);
	if (taken)
		irdma_cm_count(core, IRDMA_CM_CNT_QHASH_TAKEN_OVER);
	return ret;
}

/**
 * irdma_cm_node_closed() - a connection reached CLOSED
 * @node: the node, locked, referenced by the caller
 *
 * Stops its timers, gives its backlog slot back, takes it out of the
 * connection table (dropping the table's reference) and removes its
 * steering entry from process context. Idempotent.
 */
void irdma_cm_node_closed(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;

	lockdep_assert_held(&node->lock);
	irdma_cm_set_state(node, IRDMA_CM_STATE_CLOSED);
	irdma_cm_disarm_all(node);
	if (test_and_clear_bit(IRDMA_CM_F_TW_COUNTED, &node->flags))
		atomic_dec(&core->time_wait_nodes);
	/* A QP never reached by a terminal event is given back too. */
	irdma_cm_offload_put_qp(node);
	if (test_and_clear_bit(IRDMA_CM_F_IN_BACKLOG, &node->flags))
		atomic_dec(&node->listener->pending);
	if (!test_bit(IRDMA_CM_F_HASHED, &node->flags))
		return;
	spin_lock(&core->lock);
	rhashtable_remove_fast(&core->conns, &node->hnode,
			       irdma_cm_conn_params);
	list_del_init(&node->list);
	clear_bit(IRDMA_CM_F_HASHED, &node->flags);
	spin_unlock(&core->lock);
	irdma_cm_node_qhash_del(node);
	/* The caller's reference keeps the node alive. */
	refcount_dec(&node->refcnt);
}

/**
 * irdma_cm_time_wait_reuse() - take over a 4-tuple one of ours holds in
 *	TIME-WAIT
 * @node: the new active connection, its 4-tuple final, not in the table
 *
 * A connect that names its local port may find the 4-tuple held by one
 * of our connections in TIME-WAIT: rdma_cm picks ports in a space of its
 * own that does not see the CM's TIME-WAITs. As BSD's TIME-WAIT recycling
 * and Linux's tcp_tw_reuse do for the side that closed first, the old
 * connection is ended and the new one starts above it: its ISS lies
 * beyond what the old one sent, plus the largest window the peer offered
 * it and 2, so that no old duplicate of ours can fall into the new
 * connection's window (RFC 9293 3.4.1, 3.6.1). @node enters the table in
 * its place and takes over its steering entry, which has the same key
 * (IRDMA_CM_F_QH_ADDED). Any other state of the 4-tuple is left alone.
 *
 * Context: Any context; does not wait for the event workqueue (the
 * caller may hold a lock its handler takes).
 * Return: 0 when @node is in the table; else irdma_cm_node_hash()'s error
 * (-EEXIST: the 4-tuple is held by a connection not in TIME-WAIT).
 */
int irdma_cm_time_wait_reuse(struct irdma_cm_node *node)
{
	struct irdma_cm_core *core = node->core;
	struct irdma_cm_node *tw;
	bool qh;
	u32 floor;
	int ret;

	tw = irdma_find_node(core, &node->key);
	if (!tw)
		return irdma_cm_node_hash(node);
	irdma_cm_node_lock(tw);
	if (tw->state != IRDMA_CM_STATE_TIME_WAIT) {
		irdma_cm_node_unlock(tw);
		irdma_cm_node_put(tw);
		return -EEXIST;
	}
	qh = test_and_clear_bit(IRDMA_CM_F_QH_ADDED, &tw->flags);
	irdma_cm_count(core, IRDMA_CM_CNT_TIME_WAIT_REUSED);
	irdma_cm_dbg(tw, "TIME-WAIT ended for a new connect\n");
	irdma_cm_node_closed(tw);
	/* Under the old node's lock: no segment finds the 4-tuple empty. */
	ret = irdma_cm_node_hash(node);
	if (!ret) {
		floor = tw->snd_nxt + max_t(u32, tw->max_snd_wnd, U16_MAX) + 2;
		if (irdma_seq_lt(node->iss, floor))
			irdma_cm_set_iss(node, floor);
		if (qh)
			set_bit(IRDMA_CM_F_QH_ADDED, &node->flags);
	} else if (qh) {
		/* Lost the 4-tuple after all: the entry goes as it would have. */
		set_bit(IRDMA_CM_F_QH_ADDED, &tw->flags);
		irdma_cm_node_qhash_del(tw);
	}
	irdma_cm_node_unlock(tw);
	irdma_cm_node_put(tw);
	return ret;
}

/**
 * irdma_receive_ilq() - a frame from the wire
 * @core: the core
 * @frame: the frame, from the Ethernet header on
 * @len: its length
 *
 * Validates the frame, counts a refusal, finds the connection by its
 * 4-tuple and VLAN or, for a SYN, the listener, and runs the state
 * machine. A segment for nothing known is answered with a RST (RFC 9293
 * 3.10.7.1). No pointer into @frame is kept.
 *
 * Context: Any context (softirq or process); does not sleep.
 */
void irdma_receive_ilq(struct irdma_cm_core *core, const u8 *frame, u32 len)
{
	struct irdma_cm_listener *listener;
	struct irdma_cm_tuple key;
	struct irdma_cm_node *node;
	struct irdma_cm_seg seg;
	enum irdma_cm_seg_err err;

	err = irdma_cm_parse_seg(frame, len, &seg);
	irdma_cm_seg_count(&core->seg_stats, err);
	if (err)
		return;
	if (READ_ONCE(core->dying)) {
		irdma_cm_count(core, IRDMA_CM_CNT_RX_DYING);
		return;
	}
	irdma_cm_count(core, IRDMA_CM_CNT_RX_SEGS);
	irdma_cm_tuple_from_seg(&seg, &key);
	node = irdma_find_node(core, &key);
	if (node) {
		irdma_cm_node_lock(node);
		if (test_bit(IRDMA_CM_F_OFFLOADED, &node->flags))
			irdma_cm_offload_rx(node, &seg, frame, len);
		else
			irdma_process_pkt(node, &seg);
		irdma_cm_node_unlock(node);
		irdma_cm_node_put(node);
		return;
	}
	switch (seg.flags & (IRDMA_TCP_SYN | IRDMA_TCP_ACK | IRDMA_TCP_RST)) {
	case IRDMA_TCP_SYN:
		listener = irdma_find_listener(core, &key.loc_ip, key.loc_port,
					       key.vlan_id);
		if (listener) {
			irdma_handle_syn_pkt(listener, &seg);
			irdma_cm_listener_put(listener);
			return;
		}
		break;
	case IRDMA_TCP_ACK:
		/* Perhaps the end of a handshake a SYN cookie began. */
		listener = irdma_find_listener(core, &key.loc_ip, key.loc_port,
					       key.vlan_id);
		if (listener) {
			bool taken = irdma_handle_cookie_ack(listener, &seg);

			irdma_cm_listener_put(listener);
			if (taken)
				return;
		}
		break;
	default:
		break;
	}
	irdma_cm_count(core, IRDMA_CM_CNT_RX_NO_CONN);
	irdma_cm_reply_reset(core, &seg);
}
