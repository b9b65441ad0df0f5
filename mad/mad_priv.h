/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm MAD core: the objects the core's files share. Nothing here is
 * visible to ULPs; include/madcm/mad.h is their whole interface.
 */
#ifndef _MADCM_MAD_PRIV_H
#define _MADCM_MAD_PRIV_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/rhashtable.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <madcm/mad.h>

#include "port.h"

/* Management class versions are 0..0x82 (ib_mad.c's MAX_MGMT_VERSION). */
#define MADCM_MAX_CLASS_VERSION	0x83
/* The last class number that is not an alias or a vendor range 2 class. */
#define MADCM_MAX_MGMT_CLASS	80

/* The workqueue that runs timeouts and port-internal work. */
extern struct workqueue_struct *madcm_mad_wq;
/* Work that makes address handles, which may sleep in resolution. */
extern struct workqueue_struct *madcm_mad_ah_wq;

/**
 * struct madcm_agent - the private side of an agent
 * @agent: what the ULP sees (the kernel's struct ib_mad_agent)
 * @port: the port the agent is registered on
 * @reg_req: a copy of the registration request, or NULL
 * @qpn: 0 (SMI) or 1 (GSI)
 * @refs: references: one for the registration, one per live send buffer,
 *	one per callback in progress
 * @comp: completed when @refs drops to zero
 * @dying: set when unregistration starts; no new sends are accepted
 * @lock: protects every send's state, @sends, @tids and @timeouts
 * @sends: the posted sends not yet returned to the ULP
 * @tids: every posted send not done yet, by (TID, class, address); a key
 *	may be shared by several sends, as with ib_core
 * @tid_pending: posted sends not in @tids yet: posted with IRQs off, where
 *	an insertion into @tids may not run (send.c); searched with @tids
 * @tid_work: moves the sends of @tid_pending into @tids
 * @timeouts: sends waiting for a response, by deadline
 * @timeout_work: runs when the earliest deadline of @timeouts expires
 * @timeout_seq: tie breaker between equal deadlines
 * @post_seq: numbers the posts, oldest first
 * @backlog: posted requests waiting for a free solicited slot
 * @sol_max: requests that may wait for a response at once, 0 for no
 *	limit (from the port)
 * @sol_count: requests sent and waiting for their response now
 * @live_bufs: send buffers created and not yet freed
 * @rmpp_rx: RMPP reassemblies of the agent, by (TID, class, address)
 * @rmpp_lru: the same, least recently active first
 * @rmpp_gc: ends reassemblies that stayed inactive too long
 * @rmpp_done_nr: records of completed transfers in @rmpp_rx
 * @rmpp_charged: reassemblies in progress charged to the port's budget,
 *	under the port's rmpp_src_lock
 * @rmpp_node: on the port's rmpp_agents while @rmpp_charged is not zero,
 *	under the port's rmpp_src_lock
 */
struct madcm_agent {
	struct ib_mad_agent agent;
	struct madcm_port *port;
	struct ib_mad_reg_req *reg_req;
	u32 qpn;
	refcount_t refs;
	struct completion comp;
	bool dying;

	spinlock_t lock;	/* the agent's sends and their state */
	struct list_head sends;
	struct rhltable tids;
	struct list_head tid_pending;
	struct work_struct tid_work;
	struct rb_root_cached timeouts;
	struct delayed_work timeout_work;
	u64 timeout_seq;
	u64 post_seq;
	struct list_head backlog;
	u32 sol_max;
	u32 sol_count;

	atomic_t live_bufs;

	struct rhashtable rmpp_rx;
	struct list_head rmpp_lru;
	struct delayed_work rmpp_gc;
	unsigned int rmpp_done_nr;
	unsigned int rmpp_charged;
	struct list_head rmpp_node;
};

static inline struct madcm_agent *to_madcm_agent(struct ib_mad_agent *agent)
{
	return container_of(agent, struct madcm_agent, agent);
}

/**
 * enum madcm_send_state - where a send is in its life
 * @MADCM_SEND_NEW: in the making: created or returned, not posted
 * @MADCM_SEND_QUEUED: posted, held back until fewer requests of the agent
 *	wait for their response
 * @MADCM_SEND_POSTED: handed to the transport, no completion yet
 * @MADCM_SEND_WAIT_RESP: sent, waiting for its response or its deadline
 * @MADCM_SEND_EARLY_RESP: its response came before the send completion
 * @MADCM_SEND_CANCELLED: cancelled (or ended by an RMPP peer) while the
 *	transport still holds it, or waiting for the agent's worker to
 *	deliver its completion
 * @MADCM_SEND_DONE: its outcome is decided; the send handler runs once
 *	nothing holds it any more, then it is back in the ULP's hands
 */
enum madcm_send_state {
	MADCM_SEND_NEW,
	MADCM_SEND_QUEUED,
	MADCM_SEND_POSTED,
	MADCM_SEND_WAIT_RESP,
	MADCM_SEND_EARLY_RESP,
	MADCM_SEND_CANCELLED,
	MADCM_SEND_DONE,
};

/* What identifies the response to a request (IBTA 13.4.6.4). */
struct madcm_tid_key {
	__be64 tid;
	union ib_gid gid;
	u32 lid;
	u8 mgmt_class;
	u8 reserved[3];
};

/**
 * struct madcm_send - a send buffer and the state of its send
 * @send_buf: what the ULP sees (the kernel's struct ib_mad_send_buf)
 * @agent: the owning agent; NULL for a port's own replies
 * @port: the port it goes out on
 * @state: its lifecycle state, under @agent->lock
 * @status: the status its send handler will see
 * @at_transport: a transport post is outstanding
 * @in_recv: its response is being handed to the recv handler
 * @hashed: in @agent->tids, or on @agent->tid_pending
 * @hash_deferred: on @agent->tid_pending, not yet in @agent->tids
 * @timed: in @agent->timeouts
 * @solicited: counted in @agent->sol_count
 * @key: its key in @agent->tids
 * @hnode: node in @agent->tids
 * @hpend: node on @agent->tid_pending
 * @tnode: node in @agent->timeouts
 * @deadline: when it times out (jiffies), valid while @timed
 * @seq: tie breaker for equal deadlines
 * @post_seq: when it was posted, from @agent->post_seq
 * @node: on @agent->sends while posted, then on a completion list
 * @remote_qpn: the destination QP
 * @pkey_index: the P_Key index to send with
 * @timeout_ms: the timeout that applies to the current try
 * @retries_left: resends still allowed
 * @mad_size: 256 (IB) or 2048 (OPA)
 * @pad: bytes of padding after the data
 * @payload_len: bytes after the header sent in a non-RMPP MAD
 * @rmpp: the buffer holds an RMPP payload in segments
 * @seg_per_page: whole segments in each page of @seg_pages, for RMPP
 * @seg_pages: the pages that hold the segments, for RMPP
 * @seg_used: a bit per segment, set once madcm_get_rmpp_segment() has
 *	handed the segment out (and zeroed it), for RMPP
 * @max_retries: the retries the ULP asked for; an RMPP sender gets them
 *	back each time the receiver acknowledges progress
 * @rmpp_sent: the last segment sent in the current pass
 * @rmpp_hi: the highest segment ever sent
 * @rmpp_last_ack: the last segment the receiver acknowledged
 * @rmpp_newwin: the last segment the receiver's window lets us send
 * @rmpp_ack_ms: how long to wait for an ACK
 * @rmpp_done: the receiver acknowledged every segment
 * @buf: the MAD; for RMPP, the headers, then @seg_used and @seg_pages
 */
struct madcm_send {
	struct ib_mad_send_buf send_buf;
	struct madcm_agent *agent;
	struct madcm_port *port;
	enum madcm_send_state state;
	enum ib_wc_status status;
	bool at_transport;
	bool in_recv;
	bool hashed;
	bool hash_deferred;
	bool timed;
	bool solicited;
	struct madcm_tid_key key;
	struct rhlist_head hnode;
	struct list_head hpend;
	struct rb_node tnode;
	unsigned long deadline;
	u64 seq;
	u64 post_seq;
	struct list_head node;
	u32 remote_qpn;
	u16 pkey_index;
	u32 timeout_ms;
	int retries_left;
	u32 mad_size;
	u32 pad;
	u32 payload_len;
	bool rmpp;
	u32 seg_per_page;
	struct page **seg_pages;
	unsigned long *seg_used;
	int max_retries;
	u32 rmpp_sent;
	u32 rmpp_hi;
	u32 rmpp_last_ack;
	u32 rmpp_newwin;
	u32 rmpp_ack_ms;
	bool rmpp_done;
	u8 buf[] __aligned(8);
};

static inline struct madcm_send *to_madcm_send(struct ib_mad_send_buf *sb)
{
	return container_of(sb, struct madcm_send, send_buf);
}

struct madcm_rmpp_map;

/**
 * struct madcm_recv - a received MAD
 * @recv_wc: what the ULP sees (the kernel's struct ib_mad_recv_wc)
 * @wc: the work completion @recv_wc points at
 * @grh: the GRH @recv_wc points at (zero when the MAD came without one)
 * @port: the port it came in on
 * @rmpp_map: for an RMPP transfer madcm reassembled, the pages of its
 *	segments after the first one (rmpp_recv.c); NULL otherwise
 * @mad: the MAD; for a reassembled transfer, its first segment
 */
struct madcm_recv {
	struct ib_mad_recv_wc recv_wc;
	struct ib_wc wc;
	struct ib_grh grh;
	struct madcm_port *port;
	struct madcm_rmpp_map *rmpp_map;
	u8 mad[] __aligned(8);
};

/* core.c */
void madcm_kvfree_any(void *p);

/* port.c */
int madcm_ports_init(void);
void madcm_ports_exit(void);

/* agent.c */
bool madcm_agent_get(struct madcm_agent *ag);
void madcm_agent_put(struct madcm_agent *ag);
int madcm_agent_live_bufs(struct ib_mad_agent *mad_agent);
struct madcm_agent *madcm_agent_find_request(struct madcm_port *port,
					     const struct ib_mad_hdr *hdr);
struct madcm_agent *madcm_agent_find_response(struct madcm_port *port,
					      const struct ib_mad_hdr *hdr);
int madcm_agents_init(void);
void madcm_agents_exit(void);

/* send.c */
int madcm_send_tids_init(struct madcm_agent *ag);
void madcm_send_tids_destroy(struct madcm_agent *ag);
void madcm_send_flush_agent(struct madcm_agent *ag);
void madcm_send_finish_list(struct list_head *done);
void madcm_send_match_response(struct madcm_agent *ag,
			       struct madcm_recv *rv);
void madcm_send_port_complete(struct madcm_send *ms, enum ib_wc_status st);
void madcm_send_timed_out(struct madcm_agent *ag, struct madcm_send *ms,
			  struct list_head *done);
int madcm_send_state(struct ib_mad_send_buf *send_buf);
bool madcm_send_is_callers(const struct madcm_send *ms);
void madcm_send_misuse(struct madcm_send *ms, const char *what, int state);
void madcm_send_end(struct madcm_agent *ag, struct madcm_send *ms,
		    enum ib_wc_status status, struct list_head *done);
int madcm_send_post_seg(struct madcm_agent *ag, struct madcm_send *ms,
			const void *payload, size_t payload_len);
void madcm_recv_key(const struct madcm_recv *rv, struct madcm_tid_key *key);
/* What a received MAD looks for among the sends with its key. */
enum madcm_lookup {
	MADCM_LOOKUP_RESPONSE,
	MADCM_LOOKUP_RMPP_CTL,
};

struct madcm_send *madcm_send_lookup(struct madcm_agent *ag,
				     const struct madcm_tid_key *key,
				     enum madcm_lookup what);

/* timeout.c */
void madcm_timeout_init(struct madcm_agent *ag);
void madcm_timeout_add(struct madcm_agent *ag, struct madcm_send *ms,
		       u32 timeout_ms);
void madcm_timeout_del(struct madcm_agent *ag, struct madcm_send *ms);
void madcm_timeout_stop(struct madcm_agent *ag);

/* recv.c */
void madcm_recv_unmatched_response(struct madcm_agent *ag,
				   struct madcm_recv *rv);
void madcm_recv_free(struct madcm_recv *rv);
void madcm_recv_dispatch(struct madcm_agent *ag, struct madcm_recv *rv);

/* send_buf.c */
int madcm_send_buf_init(void);
void madcm_send_buf_exit(void);
void madcm_send_buf_release(struct madcm_send *ms);

#endif /* _MADCM_MAD_PRIV_H */
