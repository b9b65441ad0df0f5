/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software backend of the CM's wire on a real net_device: frames out
 * through dev_queue_xmit() with ARP/ND resolution, frames in by stealing
 * the steered segments from the host stack at netfilter's PRE_ROUTING.
 */
#ifndef _MADCM_IRDMA_CM_WIRE_NETDEV_H
#define _MADCM_IRDMA_CM_WIRE_NETDEV_H

#include <linux/types.h>

struct net;
struct seq_file;
struct irdma_cm_config;
struct irdma_cm_core;
struct irdma_cm_netdev;

int irdma_cm_netdev_attach(struct net *net, const char *ifname,
			   const struct irdma_cm_config *cfg);
int irdma_cm_netdev_detach(struct net *net, const char *ifname);
struct irdma_cm_core *irdma_cm_netdev_core_get(struct net *net,
					       const char *ifname);
void irdma_cm_netdev_show(struct seq_file *m);
void irdma_cm_netdev_set_gone_cb(void (*cb)(struct irdma_cm_core *core));
int irdma_cm_netdev_init(void);
void irdma_cm_netdev_exit(void);

#endif /* _MADCM_IRDMA_CM_WIRE_NETDEV_H */
