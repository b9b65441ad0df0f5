/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the two halves of the netdev backend share: wire_netdev.c, the
 * device lifetime (attach, detach, device and address events), and
 * wire_netdev_io.c, the data path (frames out, frames in, steering
 * entries and the ports they reserve).
 */
#ifndef _MADCM_IRDMA_CM_WIRE_NETDEV_PRIV_H
#define _MADCM_IRDMA_CM_WIRE_NETDEV_PRIV_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/qhash.h"

enum nd_counter {
	ND_RX_STOLEN,
	ND_RX_GSO_SEGS,
	ND_RX_CSUM_FIXED,
	ND_RX_DROP_CSUM,
	ND_RX_DROP_GSO,
	ND_RX_DROP_NOMEM,
	ND_RX_DROP_FRAG6,
	ND_TX_FRAMES,
	ND_TX_DROP_NOMEM,
	ND_TX_DROP_DEV,
	ND_TX_LOOPED,
	ND_RESOLVE_PENDING,
	ND_RESOLVE_LOCAL,
	ND_RESOLVE_FAIL,
	ND_PORT_RESERVE_FAIL,
	ND_DEV_DOWN,
	ND_ADDR_GONE,
	ND_COUNTER_MAX
};

/*
 * A port held in the host stack for a steering entry; @dual: a listener
 * on :: whose socket is dual-stack, steering ::ffff:0.0.0.0 as well.
 */
struct nd_reservation {
	struct list_head list;
	struct irdma_cm_qhash qh;
	struct socket *sock;
	bool dual;
};

/**
 * struct irdma_cm_netdev - the CM attached to one net_device
 * @list: in nd_list
 * @dev: the device (a reference is held)
 * @dev_tracker: the reference's tracker
 * @net: its namespace
 * @core: the CM core running on it
 * @qhash: the steering table the receive hook consults
 * @hooks: LOCAL_IN hooks, IPv4 and IPv6
 * @resv_lock: protects @resv
 * @resv: ports held in the host stack
 * @cnt: counters (enum nd_counter)
 */
struct irdma_cm_netdev {
	struct list_head list;
	struct net_device *dev;
	netdevice_tracker dev_tracker;
	struct net *net;
	struct irdma_cm_core *core;
	struct irdma_qhash_table qhash;
	struct nf_hook_ops hooks[2];
	struct mutex resv_lock;	/* protects resv */
	struct list_head resv;
	atomic64_t cnt[ND_COUNTER_MAX];
};

static inline void nd_count(struct irdma_cm_netdev *nd, enum nd_counter c)
{
	atomic64_inc(&nd->cnt[c]);
}

static inline struct irdma_cm_netdev *nd_of(struct irdma_cm_core *core)
{
	return irdma_cm_core_priv(core);
}

/*
 * The steering hook's place at LOCAL_IN, for IPv4 and IPv6 alike: after
 * every filter chain (any nftables priority below it), before conntrack
 * confirms an entry (NF_IP_PRI_CONNTRACK_CONFIRM, INT_MAX).
 */
#define IRDMA_CM_ND_HOOK_PRIO	(INT_MAX - 1)

/* wire_netdev_io.c */
extern const struct irdma_cm_wire_ops irdma_cm_nd_wire_ops;
unsigned int irdma_cm_nd_hook(void *priv, struct sk_buff *skb,
			      const struct nf_hook_state *state);

#endif /* _MADCM_IRDMA_CM_WIRE_NETDEV_PRIV_H */
