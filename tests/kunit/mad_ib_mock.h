/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A mock InfiniBand device for KUnit: one port, UD QPs only, every packet
 * delivered on the device itself (a port that talks to itself). It gives
 * the ib_core transport (mad/ib_port.c) a device with a P_Key table of
 * any size, which rxe in 6.1 does not (its table has one entry). What
 * it does with P_Keys and Q_Keys follows IBTA vol. 1, not madcm:
 *
 * - a UD QP sends with the P_Key of the index it was set up with; only
 *   the GSI QP (QP1) takes the index from the work request (11.4.1.1);
 * - a packet reaches a UD QP only when its P_Key matches the QP's: the
 *   same key (low 15 bits), not both limited members (10.9.3); the GSI
 *   takes any key of the table, and reports its index in the work
 *   completion; other QPs report index 0, which is undefined for them;
 * - a packet reaches a QP only with the QP's Q_Key; a work request's
 *   Q_Key with the high bit set means the sending QP's own (10.2.4).
 *
 * Send completions succeed whether or not the packet arrived, as on a
 * wire. Dropped packets are counted.
 */
#ifndef _MADCM_MAD_IB_MOCK_H
#define _MADCM_MAD_IB_MOCK_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <rdma/ib_verbs.h>

#define MOCK_LID	1
#define MOCK_MAX_PKEYS	32

struct mock_dev;

/*
 * Asked before a QP of the device changes state (ib_modify_qp() with
 * IB_QP_STATE), before anything changes: a nonzero return fails the call
 * with that error and leaves the QP as it was. Process context.
 */
typedef int (*mock_modify_hook_t)(struct mock_dev *md, struct ib_qp *qp,
				  enum ib_qp_state to);

struct mock_dev {
	struct ib_device ibdev;
	u16 pkeys[MOCK_MAX_PKEYS];
	u16 nr_pkeys;
	struct xarray qps;
	atomic_t live_qps;
	atomic_t live_ahs;
	mock_modify_hook_t modify_hook;
	void *hook_data;
	atomic_t drop_pkey;
	atomic_t drop_qkey;
	atomic_t drop_no_qp;
	atomic_t drop_no_recv;
	/* Send completions held back (mock_dev_hold_sends()), under held_lock. */
	spinlock_t held_lock;
	struct ib_wc *held;
	int nheld;
	int held_cap;
};

struct mock_qp;

/*
 * A mock device with the P_Key table @pkeys (@n entries), registered
 * with ib_core, so that madcm opens its port; unregistered when the test
 * ends, or earlier with mock_dev_remove_now().
 */
struct mock_dev *mock_dev_add(struct kunit *test, const u16 *pkeys, int n);
/*
 * The same, with @hook asked at every change of a QP's state from the
 * start, madcm's port opening included; @data goes to md->hook_data.
 */
struct mock_dev *mock_dev_add_hooked(struct kunit *test, const u16 *pkeys,
				     int n, mock_modify_hook_t hook,
				     void *data);
/* Unregister the device now (madcm's port goes); every peer is gone. */
void mock_dev_remove_now(struct kunit *test, struct mock_dev *md);

/*
 * Hold back the completions of the next @cap sends posted on the device,
 * as a device whose send queue is busy does; the packets still go out.
 */
void mock_dev_hold_sends(struct kunit *test, struct mock_dev *md, int cap);
/* Complete the held sends now, and hold no more (also when the test ends). */
void mock_dev_release_sends(struct mock_dev *md);

/* A peer: a UD QP on @pkey_index with a few receive buffers posted. */
struct mock_peer {
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_ah *ah;
	void *buf;		/* receive buffers: GRH area + one MAD each */
	void *tx;		/* one send buffer */
	struct ib_cqe rx_cqe[8];
	struct ib_cqe tx_cqe;
	int received;
	struct ib_wc wc;	/* of the last receive */
	u8 mad[256];		/* the last MAD received */
};

struct mock_peer *mock_peer_new(struct kunit *test, struct mock_dev *md,
				u16 pkey_index, enum ib_qp_type type);
/* Destroy the peer's verbs objects now, before the device goes. */
void mock_peer_destroy(struct kunit *test, struct mock_peer *p);
/* Poll the peer's CQ until @n MADs arrived in all, or about 5 s passed. */
bool mock_peer_wait(struct mock_peer *p, int n);
/* Send @mad (256 bytes) to @qpn on the device, from the peer's QP. */
int mock_peer_send(struct mock_peer *p, const void *mad, u32 qpn);
/* The P_Key of the last packet the QP numbered @qpn took, or 0. */
u16 mock_last_pkey(struct mock_dev *md, u32 qpn);
/*
 * A UD packet of P_Key index 0 carrying @len bytes of @mad, from QP
 * @src_qpn at MOCK_LID with Q_Key @qkey, to the QP numbered @dqpn; it
 * arrives as any packet does (or is dropped and counted).
 */
void mock_dev_inject(struct mock_dev *md, u32 dqpn, u32 src_qpn, u32 qkey,
		     const void *mad, u32 len);
/* The receive work requests a QP of the device holds. */
int mock_qp_rq_count(struct ib_qp *ibqp);

#endif /* _MADCM_MAD_IB_MOCK_H */
