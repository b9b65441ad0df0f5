/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software backend of the CM's wire on a real net_device: frames out
 * through dev_queue_xmit() with ARP/ND resolution, frames in by stealing
 * the steered segments from the host stack at netfilter's LOCAL_IN.
 */
#ifndef _MADCM_IRDMA_CM_WIRE_NETDEV_H
#define _MADCM_IRDMA_CM_WIRE_NETDEV_H

#include <linux/types.h>

struct net_device;
struct seq_file;
struct madcm_cm_config;
struct irdma_cm_core;
struct irdma_cm_netdev;

int irdma_cm_netdev_attach(struct net_device *dev,
			   const struct madcm_cm_config *cfg);
int irdma_cm_netdev_detach(struct net_device *dev);
struct irdma_cm_core *irdma_cm_netdev_core_get(struct net_device *dev);
void irdma_cm_netdev_show(struct seq_file *m);
int irdma_cm_netdev_init(void);
void irdma_cm_netdev_exit(void);

#endif /* _MADCM_IRDMA_CM_WIRE_NETDEV_H */
