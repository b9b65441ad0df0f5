/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm ports: what a transport (the loopback fabric, an ib_core UD QP)
 * provides to the MAD core, and what the core gives back to it.
 *
 * A transport creates a port with madcm_port_create() and an ops table. The
 * core calls ->post_send() for every MAD it sends; the transport reports the
 * outcome of each post exactly once, later, from process context, through
 * madcm_port_send_complete(). The transport hands every received MAD to
 * madcm_port_deliver(), from process context.
 */
#ifndef _MADCM_PORT_H
#define _MADCM_PORT_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

struct madcm_port;
struct madcm_send;

/**
 * struct madcm_ah - an address handle
 * @ibah: what ULPs see (send_buf->ah); only its address is meaningful
 * @port: the port the handle belongs to
 * @attr: the address: destination LID, SL, and the GRH when there is one
 * @priv: the transport's own handle (an ib_core ib_ah, for instance)
 */
struct madcm_ah {
	struct ib_ah ibah;
	struct madcm_port *port;
	struct rdma_ah_attr attr;
	void *priv;
};

static inline struct madcm_ah *to_madcm_ah(struct ib_ah *ah)
{
	return container_of(ah, struct madcm_ah, ibah);
}

/**
 * struct madcm_port_send - one MAD handed to a transport
 * @send: the core's handle, passed back to madcm_port_send_complete()
 * @ah: where it goes
 * @remote_qpn: the destination QP
 * @remote_qkey: the destination Q_Key
 * @pkey_index: the P_Key index to send with
 * @src_qpn: the QP it leaves from: 0 (SMI) or 1 (GSI)
 * @hdr: the first part of the MAD (common, RMPP and class headers)
 * @hdr_len: its length
 * @payload: the rest of the MAD
 * @payload_len: its length
 *
 * @hdr and @payload stay valid and unchanged until the transport has
 * reported the send's completion.
 */
struct madcm_port_send {
	struct madcm_send *send;
	struct madcm_ah *ah;
	u32 remote_qpn;
	u32 remote_qkey;
	u16 pkey_index;
	u32 src_qpn;
	const void *hdr;
	size_t hdr_len;
	const void *payload;
	size_t payload_len;
};

/**
 * struct madcm_port_rx - one MAD a transport received
 * @mad: the MAD, without GRH
 * @len: its length in bytes
 * @grh: the GRH that came with it, or NULL
 * @qpn: the local QP it arrived on: 0 (SMI) or 1 (GSI)
 * @src_qp: the sender's QP
 * @slid: the sender's LID
 * @sl: the service level
 * @pkey_index: the P_Key index it arrived with
 * @dlid_path_bits: the path bits of the destination LID
 */
struct madcm_port_rx {
	const void *mad;
	size_t len;
	const struct ib_grh *grh;
	u32 qpn;
	u32 src_qp;
	u32 slid;
	u8 sl;
	u16 pkey_index;
	u8 dlid_path_bits;
};

/**
 * struct madcm_port_ops - what a transport does for the core
 * @create_ah: set up the transport side of @ah (@ah->attr is filled in);
 *	may sleep when @gfp allows
 * @destroy_ah: undo @create_ah
 * @post_send: send one MAD; 0 when it was taken, in which case the
 *	transport calls madcm_port_send_complete() for it exactly once, later
 *	and from process context; a negative errno when it was not. Called
 *	with a spinlock held and bottom halves off: must not sleep.
 * @release: optional; the port is about to be freed: nothing (agent,
 *	address handle, received MAD) refers to it any more. Any context.
 */
struct madcm_port_ops {
	int (*create_ah)(struct madcm_port *port, struct madcm_ah *ah,
			 gfp_t gfp);
	void (*destroy_ah)(struct madcm_port *port, struct madcm_ah *ah);
	int (*post_send)(struct madcm_port *port,
			 const struct madcm_port_send *ps);
	void (*release)(struct madcm_port *port);
};

/**
 * struct madcm_port_attr - what a transport tells the core about a port
 * @name: a name for logs and debugfs
 * @lid: the port's LID
 * @opa: the port carries OPA MADs (base version 0x80, 2048 bytes) too
 * @smi: the port has QP0 (subnet management)
 * @qpn: the QP that peers send GMPs to (1 for a port that owns QP1)
 * @max_solicited: requests an agent may have waiting for a response at
 *	once, more wait in its backlog; 0 for no limit. A transport sets it
 *	from its receive queue, so that the responses find room.
 */
struct madcm_port_attr {
	const char *name;
	u32 lid;
	bool opa;
	bool smi;
	u32 qpn;
	u32 max_solicited;
};

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
 * @MADCM_CNT_RMPP_RX_TIMEOUT: RMPP reassemblies ended for inactivity
 * @MADCM_CNT_RMPP_RX_DONE: RMPP reassemblies completed and delivered
 * @MADCM_CNT_RMPP_CTL_DROP: RMPP ACKs, STOPs and ABORTs dropped because
 *	MADCM_RMPP_CTL_QUEUE_MAX of them already wait for an address handle
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
	MADCM_CNT_RMPP_RX_TIMEOUT,
	MADCM_CNT_RMPP_RX_DONE,
	MADCM_CNT_RMPP_CTL_DROP,
	MADCM_CNT_MAX,
};

#define MADCM_REG_HASH_BITS	6

/**
 * struct madcm_port - a port MADs are sent and received on
 * @ops: the transport's operations
 * @priv: the transport's data
 * @attr: what the transport said about the port
 * @name: copy of @attr.name
 * @refs: one for the transport until madcm_port_destroy() or
 *	madcm_port_remove(), one per agent, address handle and received MAD
 * @reg_mutex: serialises registration changes
 * @reg_table: registered (class, version, OUI) slots, read under RCU
 * @nr_agents: agents registered
 * @live_recvs: received MADs not yet freed
 * @live_ahs: address handles not yet destroyed
 * @live_replies: port-internal replies not yet completed
 * @ctl_waiting: RMPP control MADs waiting for an address handle on
 *	madcm_mad_ah_wq, at most MADCM_RMPP_CTL_QUEUE_MAX
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

struct madcm_port *madcm_port_create(const struct madcm_port_ops *ops,
				     const struct madcm_port_attr *attr,
				     void *priv);
void madcm_port_destroy(struct madcm_port *port);
void madcm_port_remove(struct madcm_port *port);
void madcm_port_flush_agents(struct madcm_port *port);
void madcm_port_get(struct madcm_port *port);
void madcm_port_put(struct madcm_port *port);
void madcm_port_send_complete(struct madcm_port *port,
			      struct madcm_send *send,
			      enum ib_wc_status status);
void madcm_port_deliver(struct madcm_port *port,
			const struct madcm_port_rx *rx);
struct madcm_ah *madcm_port_ah_create(struct madcm_port *port,
				      const struct rdma_ah_attr *attr,
				      gfp_t gfp);
void madcm_port_ah_destroy(struct madcm_ah *ah);

#endif /* _MADCM_PORT_H */
