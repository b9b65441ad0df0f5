/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CM core: one per link. Its connection and listener tables, the
 * object lifetimes, the counters, and what the state machine's files
 * (cm_tcp.c, cm_timer.c, cm_mpa.c, cm_api.c) ask of each other.
 */
#ifndef _MADCM_IRDMA_CM_CM_CORE_H
#define _MADCM_IRDMA_CM_CM_CORE_H

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/rhashtable-types.h>
#include <linux/rwsem.h>
#include <linux/siphash.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <madcm/cm.h>
#include <madcm/cm_backend.h>
#include "irdma_cm/cm_node.h"
#include "irdma_cm/tcp_seg.h"
#include "irdma_cm/wire.h"

struct seq_file;

/**
 * enum irdma_cm_counter - per-core event counters (debugfs, logs)
 * @IRDMA_CM_CNT_RX_SEGS: segments that reached the state machine
 * @IRDMA_CM_CNT_RX_NO_CONN: segments for no connection or listener
 * @IRDMA_CM_CNT_RX_DYING: segments dropped while the core shuts down
 * @IRDMA_CM_CNT_SYN_RCVD: SYNs that started a passive open
 * @IRDMA_CM_CNT_BACKLOG_DROP: SYNs dropped, the listener's backlog full
 * @IRDMA_CM_CNT_SYN_DUP: duplicate SYNs answered with the SYN-ACK again
 * @IRDMA_CM_CNT_BAD_ACK: unacceptable ACKs in SYN-SENT/SYN-RECEIVED
 * @IRDMA_CM_CNT_SEQ_DROP_ACK: unacceptable segments answered with an ACK
 * @IRDMA_CM_CNT_SEQ_DROP: segments dropped silently (old duplicates,
 *	RSTs out of the window, segments without ACK)
 * @IRDMA_CM_CNT_CHALLENGE_ACK: challenge ACKs sent (RFC 5961)
 * @IRDMA_CM_CNT_RST_RCVD: acceptable RSTs received
 * @IRDMA_CM_CNT_RST_SENT: RSTs sent
 * @IRDMA_CM_CNT_OOO_DROP: data segments ahead of RCV.NXT dropped
 * @IRDMA_CM_CNT_RX_EARLY: data bytes not taken (so not acknowledged):
 *	what follows the peer's MPA frame in its segment, and data that
 *	arrives while the consumer decides on a request
 * @IRDMA_CM_CNT_ULP_BYTES: bytes after the MPA exchange, acknowledged
 *	and discarded (no QP behind the software CM)
 * @IRDMA_CM_CNT_MPA_BAD: MPA frames refused (connection reset)
 * @IRDMA_CM_CNT_RETRANS: retransmissions
 * @IRDMA_CM_CNT_RETRANS_LIMIT: connections reset at the retry limit
 * @IRDMA_CM_CNT_MPA_TIMEOUT: connections reset by the MPA timeout
 * @IRDMA_CM_CNT_FIN_WAIT2_TIMEOUT: connections dropped in FIN-WAIT-2
 * @IRDMA_CM_CNT_TIME_WAIT: TIME-WAIT periods completed
 * @IRDMA_CM_CNT_TX_SEGS: segments sent
 * @IRDMA_CM_CNT_TX_ERR: segments the wire refused
 * @IRDMA_CM_CNT_NOMEM: frames or nodes not allocated
 * @IRDMA_CM_CNT_RESOLVE_WAIT: sends deferred for neighbour resolution
 * @IRDMA_CM_CNT_ACTIVE_OPENS: connects
 * @IRDMA_CM_CNT_PASSIVE_OPENS: CONNECT_REQUESTs given to consumers
 * @IRDMA_CM_CNT_ESTABLISHED: connections that reached ESTABLISHED
 * @IRDMA_CM_CNT_REJECT_SENT: MPA rejects sent
 * @IRDMA_CM_CNT_REJECT_RCVD: MPA rejects received
 * @IRDMA_CM_CNT_ABORTS: connections aborted (consumer, listener or core)
 * @IRDMA_CM_CNT_RTR_SENT: RTR messages sent (peer-to-peer initiators)
 * @IRDMA_CM_CNT_RTR_FAIL: connections reset because their RTR message
 *	could not be built (markers asked for, which are not supported)
 * @IRDMA_CM_CNT_RTR_RCVD: RTR messages received (peer-to-peer responders)
 * @IRDMA_CM_CNT_RTR_BAD: first FPDUs that were no RTR message (opcode,
 *	queue, MSN, length or CRC), the connection reset
 * @IRDMA_CM_CNT_OFFLOADS: connections handed to an offload QP
 * @IRDMA_CM_CNT_OFFLOAD_FAIL: hand-offs the QP refused (connection reset)
 * @IRDMA_CM_CNT_OFFLOAD_RX: frames of offloaded connections passed to
 *	their QP's ->rx()
 * @IRDMA_CM_CNT_OFFLOAD_TW: TIME-WAITs taken back from a QP
 * @IRDMA_CM_CNT_OFFLOAD_HOST: offloaded streams a QP moved to a socket of
 *	the host's TCP (steering entry removed)
 * @IRDMA_CM_CNT_STOP_HELD: connections a consumer still held when the
 *	core's stop stopped waiting for them
 * @IRDMA_CM_CNT_STOP_HANDLER_STUCK: stops that found a consumer's event
 *	handler still running when their bounded wait ended
 * @IRDMA_CM_CNT_CHALLENGE_ACK_LIMITED: challenge ACKs not sent, over
 *	the connection's rate (RFC 5961 7)
 * @IRDMA_CM_CNT_WND_PROBE: zero-window probes sent
 * @IRDMA_CM_CNT_TIME_WAIT_OVERFLOW: connections freed at once instead of
 *	entering TIME-WAIT, max_time_wait being reached
 * @IRDMA_CM_CNT_SYN_COOKIE_SENT: SYNs past a full backlog answered with a
 *	SYN cookie (no state kept)
 * @IRDMA_CM_CNT_SYN_COOKIE_OK: ACKs that brought a good cookie back and
 *	opened a connection
 * @IRDMA_CM_CNT_SYN_COOKIE_BAD: ACKs for no connection, while cookies
 *	were being sent, whose cookie was wrong or too old (RST)
 * @IRDMA_CM_CNT_BACKLOG_EVICTED: connections that had not sent their MPA
 *	request yet, reset to make room in a full backlog
 * @IRDMA_CM_CNT_TIME_WAIT_REUSED: connections in TIME-WAIT ended early
 *	because a connect asked for their 4-tuple (irdma_cm_time_wait_reuse())
 * @IRDMA_CM_CNT_QHASH_TAKEN_OVER: steering entries a new connection took
 *	from a closed one of its 4-tuple before their removal ran
 * @IRDMA_CM_CNT_OOW_ACK_LIMITED: out-of-window segments and ACKs of
 *	unsent data left unanswered, within oow_ack_ms of the last answer
 * @IRDMA_CM_CNT_PAWS_DROP: segments older than TS.Recent, dropped (and
 *	acknowledged) by PAWS (RFC 7323 5.3)
 * @IRDMA_CM_CNT_TS_MISSING: segments but RSTs without the timestamps the
 *	connection agreed on, dropped (RFC 7323 3.2)
 * @IRDMA_CM_CNT_NR: number of counters
 */
enum irdma_cm_counter {
	IRDMA_CM_CNT_RX_SEGS,
	IRDMA_CM_CNT_RX_NO_CONN,
	IRDMA_CM_CNT_RX_DYING,
	IRDMA_CM_CNT_SYN_RCVD,
	IRDMA_CM_CNT_BACKLOG_DROP,
	IRDMA_CM_CNT_SYN_DUP,
	IRDMA_CM_CNT_BAD_ACK,
	IRDMA_CM_CNT_SEQ_DROP_ACK,
	IRDMA_CM_CNT_SEQ_DROP,
	IRDMA_CM_CNT_CHALLENGE_ACK,
	IRDMA_CM_CNT_RST_RCVD,
	IRDMA_CM_CNT_RST_SENT,
	IRDMA_CM_CNT_OOO_DROP,
	IRDMA_CM_CNT_RX_EARLY,
	IRDMA_CM_CNT_ULP_BYTES,
	IRDMA_CM_CNT_MPA_BAD,
	IRDMA_CM_CNT_RETRANS,
	IRDMA_CM_CNT_RETRANS_LIMIT,
	IRDMA_CM_CNT_MPA_TIMEOUT,
	IRDMA_CM_CNT_FIN_WAIT2_TIMEOUT,
	IRDMA_CM_CNT_TIME_WAIT,
	IRDMA_CM_CNT_TX_SEGS,
	IRDMA_CM_CNT_TX_ERR,
	IRDMA_CM_CNT_NOMEM,
	IRDMA_CM_CNT_RESOLVE_WAIT,
	IRDMA_CM_CNT_ACTIVE_OPENS,
	IRDMA_CM_CNT_PASSIVE_OPENS,
	IRDMA_CM_CNT_ESTABLISHED,
	IRDMA_CM_CNT_REJECT_SENT,
	IRDMA_CM_CNT_REJECT_RCVD,
	IRDMA_CM_CNT_ABORTS,
	IRDMA_CM_CNT_RTR_SENT,
	IRDMA_CM_CNT_RTR_FAIL,
	IRDMA_CM_CNT_RTR_RCVD,
	IRDMA_CM_CNT_RTR_BAD,
	IRDMA_CM_CNT_OFFLOADS,
	IRDMA_CM_CNT_OFFLOAD_FAIL,
	IRDMA_CM_CNT_OFFLOAD_RX,
	IRDMA_CM_CNT_OFFLOAD_TW,
	IRDMA_CM_CNT_STOP_HELD,
	IRDMA_CM_CNT_STOP_HANDLER_STUCK,
	IRDMA_CM_CNT_CHALLENGE_ACK_LIMITED,
	IRDMA_CM_CNT_WND_PROBE,
	IRDMA_CM_CNT_TIME_WAIT_OVERFLOW,
	IRDMA_CM_CNT_SYN_COOKIE_SENT,
	IRDMA_CM_CNT_SYN_COOKIE_OK,
	IRDMA_CM_CNT_SYN_COOKIE_BAD,
	IRDMA_CM_CNT_BACKLOG_EVICTED,
	IRDMA_CM_CNT_TIME_WAIT_REUSED,
	IRDMA_CM_CNT_QHASH_TAKEN_OVER,
	IRDMA_CM_CNT_OOW_ACK_LIMITED,
	IRDMA_CM_CNT_OFFLOAD_HOST,
	IRDMA_CM_CNT_PAWS_DROP,
	IRDMA_CM_CNT_TS_MISSING,
	IRDMA_CM_CNT_NR
};

/**
 * struct irdma_cm_listen_key - a listener's key
 * @ip: local address, or the unspecified address for any
 * @port: local port
 * @vlan_id: VLAN ID or IRDMA_NO_VLAN
 */
struct irdma_cm_listen_key {
	struct in6_addr ip;
	u16 port;
	u16 vlan_id;
};

/**
 * struct irdma_cm_listener - a passive endpoint
 * @core: its core
 * @key: table key
 * @hnode: listener table linkage
 * @list: the core's listener list (core->lock)
 * @rcu: deferred free
 * @refcnt: the consumer's and each passive node's reference
 * @pending: connections counted against @backlog
 * @backlog: the limit
 * @embryo_lock: guards @embryos
 * @embryos: connections in @backlog that have not sent their MPA request
 *	yet (SYN-RECEIVED, MPA-REQ-WAIT), oldest first: the ones a full
 *	backlog evicts
 * @cookies: a SYN cookie was sent (@cookie_time is set)
 * @cookie_time: when the last SYN cookie was sent (jiffies)
 * @attr: what the consumer asked for
 * @qh: its steering entry
 * @destroyed: unhashed; no new connections (core->lock)
 * @handle: what the consumer holds
 */
struct irdma_cm_listener {
	struct irdma_cm_core *core;
	struct irdma_cm_listen_key key;
	struct rhash_head hnode;
	struct list_head list;
	struct rcu_head rcu;
	refcount_t refcnt;
	atomic_t pending;
	u32 backlog;
	spinlock_t embryo_lock;	/* see the kernel-doc above */
	struct list_head embryos;
	bool cookies;
	unsigned long cookie_time;
	struct madcm_cm_listen_attr attr;
	struct irdma_cm_qhash qh;
	bool destroyed;
	struct madcm_cm_listener handle;
};

/**
 * struct madcm_cm_core - what consumers and backends hold of a core
 * @refs: one for the backend that registered the core, one per
 *	madcm_cm_get_core(); the core's memory goes with the last
 * @bops: the backend's ops when it registered through
 *	madcm_cm_backend_register(), else NULL
 * @bpriv: that backend's private data
 */
struct madcm_cm_core {
	refcount_t refs;
	const struct madcm_cm_backend_ops *bops;
	void *bpriv;
};

/**
 * struct irdma_cm_core - the CM of one link
 * @handle: what consumers and the backend hold
 * @api_rwsem: held for reading by the calls that start something on the
 *	core (a listener, an active open); irdma_cm_core_stop() takes it for
 *	writing to set @dying, so none runs on a stopped core
 * @ops: the wire below
 * @priv: the wire's private data
 * @cfg: tunables, defaults filled in
 * @rto_min: @cfg.rto_min_ms in jiffies
 * @rto_max: @cfg.rto_max_ms in jiffies
 * @rto_initial: @cfg.rto_initial_ms in jiffies
 * @time_wait: @cfg.time_wait_ms in jiffies
 * @fin_wait2: @cfg.fin_wait2_ms in jiffies
 * @mpa_timeout: @cfg.mpa_timeout_ms in jiffies
 * @rtr_delay: @cfg.rtr_delay_ms in jiffies
 * @conns: connection table, keyed by struct irdma_cm_tuple
 * @listeners: listener table, keyed by struct irdma_cm_listen_key
 * @lock: guards @nodes, @listener_list and @dying
 * @nodes: every hashed node (teardown only; never walked on a hot path)
 * @all_nodes: every allocated node, hashed or not (the stop's report)
 * @listener_list: every listener
 * @live_nodes: allocated nodes
 * @live_listeners: allocated listeners
 * @time_wait_nodes: nodes in TIME-WAIT (at most @cfg.max_time_wait)
 * @setup_bufs: setup contexts and MPA buffers allocated (cm_buf.c)
 * @fail_rx: KUnit's hook (the KUnit build only): that many reassembly
 *	buffer allocations fail
 * @rtr_pending: RTR messages whose delayed work (cm_mpa.c) is queued on
 *	@event_wq and has not run yet; a stop waits for them, since
 *	flushing @event_wq does not wait for a delayed work's timer
 * @drain: woken when a node or listener is freed, and when
 *	@rtr_pending drops to zero
 * @event_wq: ordered: consumer events and steering updates
 * @qh_mutex: orders the connections' steering entries: their adds
 *	(irdma_cm_conn_qhash_add()) against the updates queued on
 *	@event_wq; guards @wire_gone
 * @wire_gone: set by the stop once it has removed every steering entry
 *	whose removal was queued (it does not wait for @event_wq, where a
 *	consumer's handler may block); a steering update that runs later
 *	leaves the backend alone
 * @handler_running: the consumer's handler @event_wq is running, or
 *	NULL (for the stop's report)
 * @events_done: events @event_wq has delivered (or dropped, for a
 *	released connection): the stop's measure of a handler that still
 *	returns
 * @stop_mark: queued on @event_wq by the stop: every event before it
 *	has been delivered when it runs
 * @stop_marked: completed by @stop_mark
 * @events_stuck: the stop gave up waiting for @event_wq (a handler did
 *	not return); the workqueues then go from @reap_work
 * @reap_work: frees the workqueues of a stopped core once its handlers
 *	have returned, on irdma_cm_reap_wq
 * @qh_dying: nodes whose steering entry's removal is queued, under @lock
 * @dying: shutting down; nothing new is created
 * @syncookie_key: the SYN cookies' secret, drawn when the core is set up
 * @isn_key: the secret of the ISS's hash (RFC 6528), drawn likewise
 * @ts_key: the secret of the timestamp clock's offset, drawn likewise
 * @cnt: enum irdma_cm_counter
 * @seg_stats: frames refused by irdma_cm_parse_seg(), by reason
 */
struct irdma_cm_core {
	struct madcm_cm_core handle;
	struct rw_semaphore api_rwsem;
	const struct irdma_cm_wire_ops *ops;
	void *priv;
	struct madcm_cm_config cfg;
	unsigned long rto_min;
	unsigned long rto_max;
	unsigned long rto_initial;
	unsigned long time_wait;
	unsigned long fin_wait2;
	unsigned long mpa_timeout;
	unsigned long rtr_delay;
	struct rhashtable conns;
	struct rhashtable listeners;
	spinlock_t lock;	/* see the kernel-doc above */
	struct list_head nodes;
	struct list_head all_nodes;
	struct list_head listener_list;
	atomic_t live_nodes;
	atomic_t live_listeners;
	atomic_t time_wait_nodes;
	atomic_t setup_bufs;
	atomic_t rtr_pending;
#ifdef MADCM_FAULT_INJECTION
	atomic_t fail_rx;
#endif
	wait_queue_head_t drain;
	struct workqueue_struct *event_wq;
	struct mutex qh_mutex;	/* see the kernel-doc above */
	bool wire_gone;
	madcm_cm_event_handler handler_running;
	atomic_t events_done;
	struct work_struct stop_mark;
	struct completion stop_marked;
	bool events_stuck;
	struct work_struct reap_work;
	struct list_head qh_dying;
	bool dying;
	siphash_key_t syncookie_key;
	siphash_key_t isn_key;
	siphash_key_t ts_key;
	atomic64_t cnt[IRDMA_CM_CNT_NR];
	struct irdma_cm_seg_stats seg_stats;
};

#define IRDMA_CM_RTR_DELAY_MAX_MS	1000

/*
 * The window shift we offer (RFC 7323): the QP that takes the stream over
 * keeps it, so it bounds the QP's window (65,535 << 2, 256 KiB). While
 * the CM holds the stream it offers only what it takes, one MPA frame
 * (RFC 5044 7.1), so that a blind injection (RFC 5961) has no more room
 * than that; the QP's context carries that window as RCV.WND, and the
 * QP's TCP opens it from there.
 */
#define IRDMA_CM_RCV_WSCALE	2
#define IRDMA_CM_RCV_WND	round_up(IRDMA_CM_MPA_MAX_FRAME, \
					 1U << IRDMA_CM_RCV_WSCALE)
#define IRDMA_CM_DEFAULT_TTL	64

/* RFC 9293 3.7.1 / RFC 8200 5: the MSS assumed without the option. */
#define IRDMA_CM_DEFAULT_MSS4	536
#define IRDMA_CM_DEFAULT_MSS6	1220
#define IRDMA_CM_MIN_MSS	64

/* How often an unresolved next hop is looked at again. */
#define IRDMA_CM_RESOLVE_POLL	max(msecs_to_jiffies(10), 1UL)

/* RFC 6298 5.7: the RTO once a handshake whose SYN timed out is done. */
#define IRDMA_CM_RTO_SYN_FALLBACK_MS	3000

/* RFC 5961 7: challenge ACKs one connection sends per second (default). */
#define IRDMA_CM_CHALLENGE_ACKS	5
/* The least time between two ACKs to invalid segments of one connection. */
#define IRDMA_CM_OOW_ACK_MS	500

static inline struct irdma_cm_core *irdma_cm_core_of(struct madcm_cm_core *h)
{
	return container_of(h, struct irdma_cm_core, handle);
}

static inline struct irdma_cm_listener *
irdma_cm_listener_of(struct madcm_cm_listener *h)
{
	return container_of(h, struct irdma_cm_listener, handle);
}

static inline struct irdma_cm_node *irdma_cm_node_of(struct madcm_cm_conn *h)
{
	return container_of(h, struct irdma_cm_node, handle);
}

/*
 * Debug output about one connection, through dynamic debug: every line
 * starts with the node, its state and its 4-tuple, then the function.
 * The file that uses it defines pr_fmt.
 */
#define irdma_cm_dbg(node, fmt, ...)					\
	do {								\
		const struct irdma_cm_node *__n = (node);		\
									\
		pr_debug("node %p %s %pI6c:%u-%pI6c:%u %s: " fmt, __n,	\
			 irdma_cm_state_name(__n->state),		\
			 &__n->key.loc_ip, __n->key.loc_port,		\
			 &__n->key.rem_ip, __n->key.rem_port, __func__,	\
			 ##__VA_ARGS__);				\
	} while (0)

static inline void irdma_cm_count(struct irdma_cm_core *core,
				  enum irdma_cm_counter c)
{
	atomic64_inc(&core->cnt[c]);
}

static inline u64 irdma_cm_counter_read(struct irdma_cm_core *core,
					enum irdma_cm_counter c)
{
	return atomic64_read(&core->cnt[c]);
}

/* cm_core.c */
struct irdma_cm_core *irdma_setup_cm_core(const struct irdma_cm_wire_ops *ops,
					  void *priv,
					  const struct madcm_cm_config *cfg);
void irdma_cm_core_stop(struct irdma_cm_core *core);
void irdma_cleanup_cm_core(struct irdma_cm_core *core);
int irdma_cm_reap_init(void);
void irdma_cm_reap_exit(void);
void irdma_cm_core_put(struct irdma_cm_core *core);
void *irdma_cm_core_priv(struct irdma_cm_core *core);
void irdma_cm_core_show(struct irdma_cm_core *core, struct seq_file *m);
const char *irdma_cm_counter_name(enum irdma_cm_counter c);
struct irdma_cm_node *irdma_make_cm_node(struct irdma_cm_core *core,
					 const struct irdma_cm_tuple *key,
					 enum irdma_cm_role role, gfp_t gfp);
int irdma_cm_node_hash(struct irdma_cm_node *node);
void irdma_cm_node_unhash(struct irdma_cm_node *node);
void irdma_cm_node_qhash(const struct irdma_cm_node *node,
			 struct irdma_cm_qhash *qh);
void irdma_cm_node_get(struct irdma_cm_node *node);
void irdma_cm_node_put(struct irdma_cm_node *node);
struct irdma_cm_node *irdma_find_node(struct irdma_cm_core *core,
				      const struct irdma_cm_tuple *key);
struct irdma_cm_listener *irdma_find_listener(struct irdma_cm_core *core,
					      const struct in6_addr *ip,
					      u16 port, u16 vlan_id);
int irdma_cm_listener_hash(struct irdma_cm_listener *listener);
bool irdma_cm_listener_unhash(struct irdma_cm_listener *listener);
void irdma_cm_listener_put(struct irdma_cm_listener *listener);
void irdma_cm_node_lock(struct irdma_cm_node *node);
void irdma_cm_node_unlock(struct irdma_cm_node *node);
void irdma_cm_node_closed(struct irdma_cm_node *node);
bool irdma_cm_time_wait_begin(struct irdma_cm_node *node);
int irdma_cm_time_wait_reuse(struct irdma_cm_node *node);
int irdma_cm_conn_qhash_add(struct irdma_cm_core *core,
			    const struct irdma_cm_qhash *qh);
int irdma_cm_queue_frame(struct irdma_cm_node *node,
			 const struct irdma_cm_seg *seg);

/* cm_buf.c: what the connection setup alone needs */
int irdma_cm_setup_alloc(struct irdma_cm_node *node, gfp_t gfp);
void irdma_cm_setup_free(struct irdma_cm_node *node);
int irdma_cm_tx_alloc(struct irdma_cm_node *node, u16 pdata_len);
void irdma_cm_tx_done(struct irdma_cm_node *node);
void irdma_cm_tx_free(struct irdma_cm_node *node);
bool irdma_cm_rx_room(struct irdma_cm_node *node, u32 len);
void irdma_cm_rx_free(struct irdma_cm_node *node);
void irdma_cm_rx_keep(struct irdma_cm_node *node);
void irdma_cm_node_free_bufs(struct irdma_cm_node *node);
size_t irdma_cm_node_mem(const struct irdma_cm_node *node);

/* cm_backlog.c */
void irdma_handle_syn_pkt(struct irdma_cm_listener *listener,
			  const struct irdma_cm_seg *seg);
bool irdma_handle_cookie_ack(struct irdma_cm_listener *listener,
			     const struct irdma_cm_seg *seg);
void irdma_cm_embryo_del(struct irdma_cm_node *node);

/* cm_state.c */
const char *irdma_cm_state_name(enum irdma_cm_state s);
void irdma_cm_set_state(struct irdma_cm_node *node, enum irdma_cm_state s);
void irdma_cm_mpa_failed(struct irdma_cm_node *node);

/* cm_tcp.c */
void irdma_cm_tuple_from_seg(const struct irdma_cm_seg *seg,
			     struct irdma_cm_tuple *key);
int irdma_send_syn(struct irdma_cm_node *node, bool ack);
void irdma_send_ack(struct irdma_cm_node *node);
void irdma_send_reset(struct irdma_cm_node *node);
void irdma_cm_seg_addr(const struct irdma_cm_node *node,
		       struct irdma_cm_seg *seg);
void irdma_send_fin(struct irdma_cm_node *node);
void irdma_cm_send_data(struct irdma_cm_node *node);
void irdma_cm_send_more(struct irdma_cm_node *node, u32 len);
void irdma_cm_retransmit(struct irdma_cm_node *node);
void irdma_cm_resolve(struct irdma_cm_node *node);
bool irdma_cm_window_shut(const struct irdma_cm_node *node);
void irdma_process_pkt(struct irdma_cm_node *node,
		       const struct irdma_cm_seg *seg);
void irdma_cm_take_syn_opts(struct irdma_cm_node *node,
			    const struct irdma_cm_seg *seg);
u16 irdma_cm_local_mss(struct irdma_cm_core *core, bool ipv4);
void irdma_cm_reply_reset(struct irdma_cm_core *core,
			  const struct irdma_cm_seg *seg);
void irdma_cm_abort_node(struct irdma_cm_node *node, int status);
void irdma_cm_reset_node(struct irdma_cm_node *node, int status);
void irdma_cm_init_tcp(struct irdma_cm_node *node);
u32 irdma_cm_ts_off(const struct irdma_cm_node *node);
void irdma_cm_set_tcp_offer(struct irdma_cm_node *node, u8 tcp_opts);
u32 irdma_cm_tsval(const struct irdma_cm_node *node);
void irdma_cm_set_iss(struct irdma_cm_node *node, u32 iss);
u32 irdma_cm_clock_iss(const struct irdma_cm_node *node);
void irdma_cm_start_close(struct irdma_cm_node *node);

/* cm_timer.c */
void irdma_cm_timer_init(struct irdma_cm_node *node);
void irdma_schedule_cm_timer(struct irdma_cm_node *node);
void irdma_cm_arm_rexmit(struct irdma_cm_node *node, bool restart);
void irdma_cm_arm_resolve(struct irdma_cm_node *node);
void irdma_cm_disarm_rexmit(struct irdma_cm_node *node);
void irdma_cm_arm_mpa(struct irdma_cm_node *node);
void irdma_cm_disarm_mpa(struct irdma_cm_node *node);
void irdma_cm_arm_close(struct irdma_cm_node *node, unsigned long delay);
void irdma_cm_disarm_all(struct irdma_cm_node *node);

/* cm_mpa.c */
void irdma_send_mpa_request(struct irdma_cm_node *node);
int irdma_cm_build_request(struct irdma_cm_node *node, const void *pdata,
			   u16 len);
u32 irdma_cm_mpa_want(const struct irdma_cm_node *node);
void irdma_cm_mpa_rcv(struct irdma_cm_node *node);
int irdma_send_mpa_reply(struct irdma_cm_node *node,
			 const struct madcm_cm_accept_attr *attr);
int irdma_send_mpa_reject(struct irdma_cm_node *node, const void *pdata,
			  u16 len);
void irdma_init_tcp_ctx(struct irdma_cm_node *node,
			struct madcm_cm_tcp_ctx *ctx);
void irdma_cm_rtr_rcv(struct irdma_cm_node *node,
		      const struct irdma_cm_seg *seg);

/* cm_offload.c */
void irdma_cm_offload_init(struct irdma_cm_node *node);
bool irdma_cm_offload_qp_ok(const struct madcm_cm_offload_qp *qp);
void irdma_cm_offload_attach(struct irdma_cm_node *node,
			     struct madcm_cm_offload_qp *qp);
void irdma_cm_offload_unattach(struct irdma_cm_node *node);
int irdma_cm_offload(struct irdma_cm_node *node);
void irdma_cm_offload_rx(struct irdma_cm_node *node,
			 const struct irdma_cm_seg *seg, const u8 *frame,
			 u32 len);
void irdma_cm_offload_close(struct irdma_cm_node *node, bool rst);
void irdma_cm_offload_put_qp(struct irdma_cm_node *node);
void irdma_cm_offload_steer(struct irdma_cm_node *node,
			    struct madcm_cm_offload_qp *target);

/* cm_api.c: consumer events, listeners */
void irdma_destroy_listener(struct irdma_cm_listener *listener, bool flush);
void irdma_cm_event_init(struct irdma_cm_node *node);
void irdma_cm_event(struct irdma_cm_node *node, enum madcm_cm_event_type type,
		    int status);

#endif /* _MADCM_IRDMA_CM_CM_CORE_H */
