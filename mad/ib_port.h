/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ib_core transport: madcm as an ib_client, one madcm port per port
 * of every device with MADs, each on a UD QP of its own (ib_port.c), and
 * the address handles of those ports (ib_ah.c).
 */
#ifndef _MADCM_IB_PORT_H
#define _MADCM_IB_PORT_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "port.h"

#define MADCM_IB_SQ_SIZE	256
/*
 * Receive ring: the ib_recv_queue_size parameter, within these bounds and
 * the device's (its largest queue, and its largest CQ less the send
 * slots: rxe in 6.1 takes 2^20 work requests but 32,767 CQ entries).
 */
#define MADCM_IB_RQ_DEFAULT	2048
#define MADCM_IB_RQ_MIN		256
#define MADCM_IB_RQ_MAX		262144
/*
 * MADs that may wait for a send slot, or for the QP's recovery: this
 * many, or the receive ring's size when that is more, so that an agent
 * may post its whole window (half the ring) at once, and the port as
 * many responses.
 */
#define MADCM_IB_OVERFLOW_MAX	4096
/*
 * QPs of a port: the one on P_Key index 0, and at most this many more,
 * one per other P_Key index in use, each with a receive ring of its own.
 */
#define MADCM_IB_PKEY_QPS_MAX	8
#define MADCM_IB_PKEY_RQ	256

struct madcm_ib_port;

enum madcm_ib_counter {
	MADCM_IB_RX_BAD_NETHDR,
	MADCM_IB_RX_ERROR,
	MADCM_IB_RX_REPOST_FAIL,
	MADCM_IB_TX_OVERFLOW,
	MADCM_IB_TX_POST_FAIL,
	MADCM_IB_TX_OVERFLOW_DROP,
	MADCM_IB_RX_FLUSHED,
	MADCM_IB_QP_ERROR,
	MADCM_IB_QP_RECOVERED,
	MADCM_IB_QP_RECOVER_FAIL,
	MADCM_IB_PKEY_QP_CREATED,
	MADCM_IB_PKEY_QP_FAIL,
	MADCM_IB_TX_PKEY_NO_QP,
	MADCM_IB_TX_PORT_FAILED,
	MADCM_IB_CNT_MAX,
};

/* A send slot: one work request's worth of MAD. */
struct madcm_ib_tx {
	struct ib_cqe cqe;
	struct list_head node;
	struct madcm_ib_port *ip;
	struct madcm_send *send;
	u64 dma;
	void *buf;
};

struct madcm_ib_rx;

/**
 * struct madcm_ib_qp - a UD QP of a port, set up on one P_Key index
 * @ip: the port
 * @qp: the QP; NULL until it is made
 * @pkey_index: the P_Key index of the QP: what it sends and receives with
 * @ready: in RTS, its receive ring posted (under @ip->lock)
 * @failed: it could not be made and the device did not give its
 *	buffers back: sends with its index are refused until the port
 *	goes (under @ip->lock)
 * @rx_posted: receive buffers of @rx the device holds (under @ip->lock)
 * @rq_size: the receive buffers in @rx
 * @rx: its receive ring
 *
 * A UD QP other than QP1 sends with the P_Key of the index it was set up
 * with, whatever a work request says, and takes only packets of that
 * P_Key (IBTA vol. 1 10.9.3, 11.4.1.1): one QP per partition.
 */
struct madcm_ib_qp {
	struct madcm_ib_port *ip;
	struct ib_qp *qp;
	u16 pkey_index;
	bool ready;
	bool failed;
	unsigned int rx_posted;
	unsigned int rq_size;
	struct madcm_ib_rx *rx;
};

/* A receive buffer: the GRH area, then one MAD. */
struct madcm_ib_rx {
	struct ib_cqe cqe;
	struct madcm_ib_qp *q;
	u64 dma;
	void *buf;
};

/* A MAD waiting for a free send slot. */
struct madcm_ib_pending {
	struct list_head node;
	struct madcm_send *send;
	struct madcm_ah *ah;
	u32 remote_qpn;
	u32 remote_qkey;
	u16 pkey_index;
	u32 len;
	u8 mad[] __aligned(8);
};

/* The transport side of an address handle (madcm_ah->priv). */
struct madcm_ib_ah {
	struct list_head node;
	struct ib_ah *ah;
};

/**
 * struct madcm_ib_port - a madcm port on a port of an ib_core device
 * @port: the core's port
 * @device: the device
 * @port_num: the port number on @device
 * @mad_size: the largest MAD of the port (256, or 2048 with OPA)
 * @pd: protection domain of the QP and the address handles
 * @cq: send and receive completions, polled from an unbound workqueue
 * @sink: where the part of a datagram beyond a receive buffer goes
 * @sink_dma: its DMA address
 * @qp: madcm's UD QP on P_Key index 0, @qps[0]
 * @nr_pkeys: the P_Key table of the port: indices 0 to @nr_pkeys - 1
 * @max_qps: the QPs the port may have, @qps[0] included
 * @qp_mutex: serialises making QPs (@pkey_work) and restarting them
 *	(@recover_work)
 * @qps: the port's QPs, one per P_Key index in use, @nr_qps of them;
 *	an entry may be added under @lock, but is removed or freed only
 *	with @qp_mutex held too
 * @nr_qps: the entries in @qps
 * @pkey_work: makes the QPs that sends wait for
 * @lock: protects @dead, @broken, @failed, @tx_free, @overflow, @n_overflow,
 *	@tx_busy, @rx_posted, @qps, @nr_qps and each QP's ready
 * @dead: removal has begun: no more posts
 * @broken: the QP went to the error state; nothing is posted until
 *	@recover_work has brought it back to RTS
 * @failed: @recover_work gave up: every send the port held has failed,
 *	and new posts are refused, until the device is removed
 * @tx_free: idle send slots
 * @overflow: MADs waiting for a send slot (or for the recovery, or for
 *	the QP of their P_Key index), oldest first
 * @n_overflow: MADs on @overflow, at most @overflow_max
 * @overflow_max: MADCM_IB_OVERFLOW_MAX, or @rq_size when that is more
 * @tx_busy: send slots the device holds
 * @rx_posted: receive buffers the device holds
 * @tx_idle: woken when @tx_busy or @rx_posted drops to zero
 * @recover_work: drains the QP in error and restarts it
 * @ah_mutex: protects @ahs and @ah_dead
 * @ahs: live ib_core address handles
 * @ah_dead: the address handles are gone with the device
 * @counters: see enum madcm_ib_counter
 * @tx: the send slots
 * @main: the QP on P_Key index 0
 * @rq_size: the receive buffers in @rx, the depth of the receive queue
 *	of @main (the ib_recv_queue_size parameter, bounded by the device)
 * @rx: the receive buffers of @main
 */
struct madcm_ib_port {
	struct madcm_port *port;
	struct ib_device *device;
	u32 port_num;
	size_t mad_size;
	struct ib_pd *pd;
	struct ib_cq *cq;
	void *sink;
	u64 sink_dma;
	struct ib_qp *qp;
	u16 nr_pkeys;
	unsigned int max_qps;
	struct mutex qp_mutex;	/* making and restarting QPs */
	struct madcm_ib_qp *qps[1 + MADCM_IB_PKEY_QPS_MAX];
	unsigned int nr_qps;
	struct work_struct pkey_work;

	spinlock_t lock;	/* see the kernel-doc above */
	bool dead;
	bool broken;
	bool failed;
	struct list_head tx_free;
	struct list_head overflow;
	unsigned int n_overflow;
	unsigned int overflow_max;
	unsigned int tx_busy;
	unsigned int rx_posted;
	wait_queue_head_t tx_idle;
	struct work_struct recover_work;

	struct mutex ah_mutex;	/* ahs, ah_dead */
	struct list_head ahs;
	bool ah_dead;

	atomic_long_t counters[MADCM_IB_CNT_MAX];
	struct madcm_ib_tx tx[MADCM_IB_SQ_SIZE];
	struct madcm_ib_qp main;
	unsigned int rq_size;
	struct madcm_ib_rx rx[];
};

/* The ib_recv_queue_size parameter. */
extern unsigned int madcm_ib_rq_size;

int madcm_ib_init(void);
void madcm_ib_exit(void);

/* ib_ah.c */
int madcm_ib_create_ah(struct madcm_port *port, struct madcm_ah *ah,
		       gfp_t gfp);
void madcm_ib_destroy_ah(struct madcm_port *port, struct madcm_ah *ah);
void madcm_ib_ahs_release(struct madcm_ib_port *ip);

#endif /* _MADCM_IB_PORT_H */
