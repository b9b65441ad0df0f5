/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm ports: the core's side. What a transport provides and gets back
 * (struct madcm_port_ops, madcm_port_register(), ...) is the exported
 * boundary in <madcm/mad_transport.h>; this is the rest of a port.
 */
#ifndef _MADCM_PORT_H
#define _MADCM_PORT_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <madcm/mad_transport.h>

struct madcm_port;
struct madcm_send;

/**
 * enum madcm_port_counter - what a port counts
 * @MADCM_CNT_RX: MADs received
 * @MADCM_CNT_RX_SHORT: dropped: shorter than a MAD header or its format
 * @MADCM_CNT_RX_LONG: dropped: longer than a MAD of its base version
 * @MADCM_CNT_RX_BASE_VERSION: dropped: unknown base version
 * @MADCM_CNT_RX_CLASS_VERSION: dropped: class version out of range
 * @MADCM_CNT_RX_WRONG_QP: dropped: SMP not on QP0 or GMP on QP0
 * @MADCM_CNT_RX_BAD_METHOD: dropped: method not allowed for the class
 * @MADCM_CNT_RX_NO_AGENT: dropped: request nobody registered for
 * @MADCM_CNT_RX_UNMATCHED_RESP: dropped: response to no outstanding send
 * @MADCM_CNT_RX_RMPP: handed to the RMPP engine of a kernel-RMPP agent
 *	(the rmpp_* counters say what became of it)
 * @MADCM_CNT_RX_NOMEM: dropped: no memory to hold it
 * @MADCM_CNT_RX_DISPATCHED: handed to an agent
 * @MADCM_CNT_TX_UNSUPPORTED: "unsupported method/attribute" replies sent
 * @MADCM_CNT_TX_REPLY_FAIL: such replies that could not be sent
 * @MADCM_CNT_TX: MADs handed to the transport
 * @MADCM_CNT_TX_ERR: sends the transport completed with an error
 * @MADCM_CNT_TIMEOUT: sends that ran out of time and retries
 * @MADCM_CNT_RETRY: resends after a timeout
 * @MADCM_CNT_RMPP_TX_SEG: RMPP DATA segments sent, first tries
 * @MADCM_CNT_RMPP_TX_RESEG: RMPP DATA segments sent again
 * @MADCM_CNT_RMPP_TX_ACK: RMPP ACKs sent
 * @MADCM_CNT_RMPP_TX_STOP: RMPP STOPs sent
 * @MADCM_CNT_RMPP_TX_ABORT: RMPP ABORTs sent
 * @MADCM_CNT_RMPP_TX_DONE: RMPP transfers the receiver acknowledged whole
 * @MADCM_CNT_RMPP_RX_SEG: RMPP DATA segments received and kept
 * @MADCM_CNT_RMPP_RX_DUP: RMPP DATA segments received twice, dropped
 * @MADCM_CNT_RMPP_RX_WINDOW: RMPP DATA segments past the window, dropped
 * @MADCM_CNT_RMPP_RX_STRAY: RMPP DATA segments of no transfer, dropped
 * @MADCM_CNT_RMPP_RX_ACK: RMPP ACKs received
 * @MADCM_CNT_RMPP_RX_STOP: RMPP STOPs received
 * @MADCM_CNT_RMPP_RX_ABORT: RMPP ABORTs received
 * @MADCM_CNT_RMPP_RX_UNMATCHED: RMPP ACK, STOP or ABORT of no transfer
 * @MADCM_CNT_RMPP_RX_BAD: RMPP MADs refused with an ABORT (bad version,
 *	type, status, segment number, PayloadLength, window)
 * @MADCM_CNT_RMPP_RX_LIMIT: RMPP transfers refused with a STOP: a limit
 *	of the port would be exceeded
 * @MADCM_CNT_RMPP_RX_SOURCE_LIMIT: RMPP transfers refused or ended with a
 *	STOP: the sender's own budget (per SLID or source GID) would be
 *	exceeded
 * @MADCM_CNT_RMPP_RX_UNSOLICITED: RMPP response DATA of no outstanding
 *	request, dropped before anything was allocated for it
 * @MADCM_CNT_RMPP_RX_TIMEOUT: RMPP reassemblies ended for inactivity
 * @MADCM_CNT_RMPP_RX_DONE: RMPP reassemblies completed and delivered
 * @MADCM_CNT_API_MISUSE: calls refused for breaking the API's rules (a
 *	send buffer freed while the core still holds it)
 * @MADCM_CNT_RMPP_RX_EVICTED: RMPP reassemblies that had made no progress
 *	past their first segment, ended with a STOP to make room for a new
 *	transfer when the port's budget was full
 * @MADCM_CNT_RMPP_CTL_DROP: RMPP ACKs, STOPs and ABORTs dropped because
 *	MADCM_RMPP_CTL_QUEUE_MAX of them already wait for an address handle,
 *	or for want of memory
 * @MADCM_CNT_MAX: the number of counters
 */
enum madcm_port_counter {
	MADCM_CNT_RX,
	MADCM_CNT_RX_SHORT,
	MADCM_CNT_RX_LONG,
	MADCM_CNT_RX_BASE_VERSION,
	MADCM_CNT_RX_CLASS_VERSION,
	MADCM_CNT_RX_WRONG_QP,
	MADCM_CNT_RX_BAD_METHOD,
	MADCM_CNT_RX_NO_AGENT,
	MADCM_CNT_RX_UNMATCHED_RESP,
	MADCM_CNT_RX_RMPP,
	MADCM_CNT_RX_NOMEM,
	MADCM_CNT_RX_DISPATCHED,
	MADCM_CNT_TX_UNSUPPORTED,
	MADCM_CNT_TX_REPLY_FAIL,
	MADCM_CNT_TX,
	MADCM_CNT_TX_ERR,
	MADCM_CNT_TIMEOUT,
	MADCM_CNT_RETRY,
	MADCM_CNT_RMPP_TX_SEG,
	MADCM_CNT_RMPP_TX_RESEG,
	MADCM_CNT_RMPP_TX_ACK,
	MADCM_CNT_RMPP_TX_STOP,
	MADCM_CNT_RMPP_TX_ABORT,
	MADCM_CNT_RMPP_TX_DONE,
	MADCM_CNT_RMPP_RX_SEG,
	MADCM_CNT_RMPP_RX_DUP,
	MADCM_CNT_RMPP_RX_WINDOW,
	MADCM_CNT_RMPP_RX_STRAY,
	MADCM_CNT_RMPP_RX_ACK,
	MADCM_CNT_RMPP_RX_STOP,
	MADCM_CNT_RMPP_RX_ABORT,
	MADCM_CNT_RMPP_RX_UNMATCHED,
	MADCM_CNT_RMPP_RX_BAD,
	MADCM_CNT_RMPP_RX_LIMIT,
	MADCM_CNT_RMPP_RX_SOURCE_LIMIT,
	MADCM_CNT_RMPP_RX_UNSOLICITED,
	MADCM_CNT_RMPP_RX_TIMEOUT,
	MADCM_CNT_RMPP_RX_DONE,
	MADCM_CNT_API_MISUSE,
	MADCM_CNT_RMPP_CTL_DROP,
	MADCM_CNT_RMPP_RX_EVICTED,
	MADCM_CNT_MAX,
};

#define MADCM_REG_HASH_BITS	6
#define MADCM_RMPP_SRC_HASH_BITS	6

/**
 * struct madcm_port - a port MADs are sent and received on
 * @ops: the transport's operations
 * @priv: the transport's data
 * @attr: what the transport said about the port
 * @name: copy of @attr.name
 * @refs: one for the transport until madcm_port_unregister() or
 *	madcm_port_remove(), one per agent, address handle and received MAD
 * @reg_mutex: serialises registration changes
 * @reg_table: registered (class, version, OUI) slots, read under RCU
 * @nr_agents: agents registered
 * @live_recvs: received MADs not yet freed
 * @live_ahs: address handles not yet destroyed
 * @live_replies: port-internal replies not yet completed
 * @ctl_waiting: RMPP control MADs waiting for an address handle on
 *	madcm_mad_ah_wq, at most MADCM_RMPP_CTL_QUEUE_MAX
 * @rmpp_src_lock: protects @rmpp_src and every change of @rmpp_reassemblies
 *	and @rmpp_bytes
 * @rmpp_src: the senders (SLID or source GID) with RMPP reassemblies in
 *	progress, and what each holds; an entry lives while its sender has
 *	one, so there are never more than @rmpp_reassemblies
 * @rmpp_agents: the agents with RMPP reassemblies in progress, where an
 *	eviction looks for its victim when the port's budget is spent
 * @rmpp_reassemblies: RMPP reassemblies in progress
 * @rmpp_bytes: bytes those reassemblies hold
 * @rmpp_peak_reassemblies: the most @rmpp_reassemblies ever was
 * @rmpp_peak_bytes: the most @rmpp_bytes ever was
 * @counters: see enum madcm_port_counter
 * @debugfs: the port's debugfs directory
 */
struct madcm_port {
	const struct madcm_port_ops *ops;
	void *priv;
	struct madcm_port_attr attr;
	char name[32];
	refcount_t refs;

	struct mutex reg_mutex;	/* registration changes */
	DECLARE_HASHTABLE(reg_table, MADCM_REG_HASH_BITS);
	atomic_t nr_agents;

	atomic_t live_recvs;
	atomic_t live_ahs;
	atomic_t live_replies;
	atomic_t ctl_waiting;
	spinlock_t rmpp_src_lock;	/* the RMPP receive budget */
	DECLARE_HASHTABLE(rmpp_src, MADCM_RMPP_SRC_HASH_BITS);
	struct list_head rmpp_agents;
	atomic_t rmpp_reassemblies;
	atomic_long_t rmpp_bytes;
	atomic_t rmpp_peak_reassemblies;
	atomic_long_t rmpp_peak_bytes;
	atomic_long_t counters[MADCM_CNT_MAX];
	struct dentry *debugfs;
};

static inline void madcm_port_count(struct madcm_port *port,
				    enum madcm_port_counter c)
{
	atomic_long_inc(&port->counters[c]);
}

static inline size_t madcm_port_mad_size(const struct madcm_port *port,
					 u8 base_version)
{
	if (port->attr.opa && base_version == OPA_MGMT_BASE_VERSION)
		return sizeof(struct opa_mad);
	return sizeof(struct ib_mad);
}

void madcm_port_remove(struct madcm_port *port);
void madcm_port_flush_agents(struct madcm_port *port);
void madcm_port_get(struct madcm_port *port);
void madcm_port_put(struct madcm_port *port);
struct madcm_ah *madcm_port_ah_create(struct madcm_port *port,
				      const struct rdma_ah_attr *attr,
				      gfp_t gfp);
void madcm_port_ah_destroy(struct madcm_ah *ah);

#endif /* _MADCM_PORT_H */
