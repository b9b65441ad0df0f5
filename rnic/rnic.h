/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm's software iWARP RNIC: the structures its parts share.
 *
 * rnic/device.c  rdma_link_ops, the ib_device, port state, netdev events
 * rnic/verbs.c   PD, CQ, QP, MR verbs (the control path)
 * rnic/qp_tcp.c  the QP's side of the offload boundary: the TCP engine
 *		  that carries an offloaded stream (<madcm/cm_offload.h>)
 * rnic/iw.c      the iw_cm provider: iw_cm_verbs mapped onto madcm_cm_*
 *
 * The RNIC reaches the CM only through <madcm/cm.h>, <madcm/cm_offload.h>
 * and the IRD/ORD limits it attaches the core with.
 */
#ifndef _MADCM_RNIC_RNIC_H
#define _MADCM_RNIC_RNIC_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/iw_cm.h>
#include <madcm/cm.h>
#include <madcm/cm_offload.h>

/* The limits the device states in its attributes (and enforces). */
#define MADCM_RNIC_MAX_QP	1024
#define MADCM_RNIC_MAX_CQ	1024
#define MADCM_RNIC_MAX_CQE	4096
#define MADCM_RNIC_MAX_QP_WR	1024
#define MADCM_RNIC_MAX_SGE	6
#define MADCM_RNIC_MAX_PD	1024
#define MADCM_RNIC_MAX_MR	4096
#define MADCM_RNIC_MAX_FR_PAGES	256
#define MADCM_RNIC_MAX_IRD	32
#define MADCM_RNIC_MAX_ORD	32
#define MADCM_RNIC_MAX_INLINE	64

struct madcm_rnic_qp;

/**
 * struct madcm_rnic_dev - one madcm RNIC (rdma link add ... type madcm)
 * @ibdev: the ib_device; first, for ib_alloc_device()
 * @netdev: the Ethernet net_device it runs over (held)
 * @core: the CM core of @netdev (madcm_cm_get_core()), counted
 * @attached: the device attached the core itself (and detaches it)
 * @list: on the module's device list (netdev events)
 * @qps: QPs by number
 * @next_qpn: the next QP number to try (cyclic)
 * @lock: protects @qps allocation
 * @port_state: IB_PORT_ACTIVE or IB_PORT_DOWN, from the netdev
 * @n_pd: PDs allocated
 * @n_cq: CQs allocated
 * @n_qp: QPs allocated
 * @n_mr: MRs allocated
 */
struct madcm_rnic_dev {
	struct ib_device ibdev;
	struct net_device *netdev;
	struct madcm_cm_core *core;
	bool attached;
	struct list_head list;
	struct xarray qps;
	u32 next_qpn;
	spinlock_t lock;
	enum ib_port_state port_state;
	atomic_t n_pd;
	atomic_t n_cq;
	atomic_t n_qp;
	atomic_t n_mr;
};

static inline struct madcm_rnic_dev *to_madcm_rnic(struct ib_device *ibdev)
{
	return container_of(ibdev, struct madcm_rnic_dev, ibdev);
}

/**
 * struct madcm_rnic_qp - an RC QP
 * @ibqp: the ib_qp; first
 * @dev: its device
 * @oqp: the QP as the CM sees it (rnic/qp_tcp.c implements its ops)
 * @iw_ref: iw_cm's references (iw_add_ref/iw_rem_ref), plus the one the
 *	QP holds for itself until destroy
 * @iw_free: completed when @iw_ref reaches zero; destroy waits for it
 * @lock: protects @state, @cm_id, @ep
 * @state: the QP state (IB_QPS_*)
 * @cm_id: the iw_cm_id of the connection, set by rnic/iw.c
 * @ep: rnic/iw.c's endpoint of the connection
 */
struct madcm_rnic_qp {
	struct ib_qp ibqp;
	struct madcm_rnic_dev *dev;
	struct madcm_cm_offload_qp oqp;
	refcount_t iw_ref;
	struct completion iw_free;
	spinlock_t lock;
	enum ib_qp_state state;
	struct iw_cm_id *cm_id;
	void *ep;
};

static inline struct madcm_rnic_qp *to_madcm_rnic_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct madcm_rnic_qp, ibqp);
}

/* rnic/device.c */
int madcm_rnic_init(void);
void madcm_rnic_exit(void);

/* rnic/verbs.c: a QP by number, with an iw reference; NULL if none. */
struct madcm_rnic_qp *madcm_rnic_qp_get(struct madcm_rnic_dev *dev, u32 qpn);
void madcm_rnic_qp_put(struct madcm_rnic_qp *qp);

/* rnic/iw.c: the iw_cm_verbs, and the QP's disconnect hook. */
int madcm_rnic_iw_connect(struct iw_cm_id *cm_id,
			  struct iw_cm_conn_param *param);
int madcm_rnic_iw_accept(struct iw_cm_id *cm_id,
			 struct iw_cm_conn_param *param);
int madcm_rnic_iw_reject(struct iw_cm_id *cm_id, const void *pdata,
			 u8 pdata_len);
int madcm_rnic_iw_create_listen(struct iw_cm_id *cm_id, int backlog);
int madcm_rnic_iw_destroy_listen(struct iw_cm_id *cm_id);
void madcm_rnic_iw_add_ref(struct ib_qp *ibqp);
void madcm_rnic_iw_rem_ref(struct ib_qp *ibqp);
struct ib_qp *madcm_rnic_iw_get_qp(struct ib_device *ibdev, int qpn);
/*
 * Called by modify_qp when the consumer moves a connected QP to SQD
 * (graceful: FIN) or ERROR (abortive: RST), as iw_cm_disconnect() does.
 */
void madcm_rnic_iw_qp_disconnect(struct madcm_rnic_qp *qp, bool abort);

/* rnic/qp_tcp.c: the offload ops of a QP, and flushing its stream. */
extern const struct madcm_cm_offload_ops madcm_rnic_offload_ops;
void madcm_rnic_qp_tcp_destroy(struct madcm_rnic_qp *qp);

#endif /* _MADCM_RNIC_RNIC_H */
