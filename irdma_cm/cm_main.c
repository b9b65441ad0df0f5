// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM's start and end, and its way in for consumers: the core of a
 * link by its net_device, counted (madcm_cm_get_core()), and the software
 * backend attached to or detached from a net_device.
 *
 * The CM owns, from madcm_cm_init() to madcm_cm_exit(): the net_device
 * backend with its device and address notifiers, the MPA refusal
 * counters (debugfs mpa_rejects) and the backend's counters (debugfs
 * cm/stats).
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/seq_file.h>
#include <madcm/cm.h>
#include "madcm.h"
#include "irdma_cm/cm_core.h"
#include "irdma_cm/cm_main.h"
#include "irdma_cm/wire_netdev.h"

static struct dentry *madcm_cm_debugfs;

/**
 * madcm_cm_get_core() - take the CM core of a link
 * @netdev: the link's net_device
 *
 * Finds the core that the software backend runs on @netdev after
 * madcm_cm_netdev_attach(); a core that another backend registered
 * (madcm_cm_backend_register()) is that backend's to hand out and is not
 * found here. The reference keeps the handle valid, not the core
 * running: when the link is detached or its device goes away, the core
 * stops (its listeners are destroyed and its connections reset, with their
 * events) and the holder's further madcm_cm_create_listener() and
 * madcm_cm_connect() calls fail with -ESHUTDOWN. Every reference is given
 * back with madcm_cm_put_core().
 *
 * Context: Process context; may sleep.
 * Return: the core, or ERR_PTR(-ENODEV) when the software backend does
 * not run on @netdev.
 */
struct madcm_cm_core *madcm_cm_get_core(struct net_device *netdev)
{
	struct irdma_cm_core *core = irdma_cm_netdev_core_get(netdev);

	return core ? &core->handle : ERR_PTR(-ENODEV);
}
EXPORT_SYMBOL_GPL(madcm_cm_get_core);

/**
 * madcm_cm_put_core() - give back a core taken with madcm_cm_get_core()
 * @core: the core, or NULL (then nothing happens)
 *
 * Drops the reference; @core must not be used after this. The last
 * reference, once the core has stopped, frees what is left of it. Putting
 * a core does not stop it, nor release the caller's listeners and
 * connections on it: those are destroyed and released first.
 *
 * Context: Any context.
 * Return: Nothing.
 */
void madcm_cm_put_core(struct madcm_cm_core *core)
{
	if (core)
		irdma_cm_core_put(irdma_cm_core_of(core));
}
EXPORT_SYMBOL_GPL(madcm_cm_put_core);

/**
 * madcm_cm_netdev_attach() - run the CM on an Ethernet net_device
 * @netdev: the device
 * @cfg: the core's tunables, or NULL for the defaults
 *
 * Creates the link's core with the software backend: frames leave through
 * dev_queue_xmit(), next hops come from the neighbour tables, and the TCP
 * segments of the core's listeners and connections are taken from the
 * host stack at netfilter's LOCAL_IN, after the host's own filtering
 * (Documentation/irdma_cm_netdev.rst).
 * The CM detaches by itself when the device is unregistered.
 *
 * Context: Process context; may sleep.
 * Return: 0; -EEXIST when a CM already runs on @netdev; -EINVAL for a
 * device that is not Ethernet; -ENOMEM; or another negative errno.
 */
int madcm_cm_netdev_attach(struct net_device *netdev,
			   const struct madcm_cm_config *cfg)
{
	return irdma_cm_netdev_attach(netdev, cfg);
}
EXPORT_SYMBOL_GPL(madcm_cm_netdev_attach);

/**
 * madcm_cm_netdev_detach() - stop the CM on a net_device
 * @netdev: the device
 *
 * Destroys the core's listeners, resets its connections (their consumers
 * get their terminal events), and gives the host stack back its ports.
 * Holders of the core (madcm_cm_get_core()) keep a stopped handle.
 *
 * Context: Process context; sleeps. Not from a CM event handler.
 * Return: 0, or -ENODEV when no CM runs on @netdev.
 */
int madcm_cm_netdev_detach(struct net_device *netdev)
{
	return irdma_cm_netdev_detach(netdev);
}
EXPORT_SYMBOL_GPL(madcm_cm_netdev_detach);

static int madcm_cm_stats_show(struct seq_file *m, void *v)
{
	irdma_cm_netdev_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(madcm_cm_stats);

/**
 * madcm_cm_init() - start the CM: its counters and the net_device backend
 *
 * Return: 0 or a negative errno.
 */
int madcm_cm_init(void)
{
	int ret;

	ret = irdma_mpa_stats_init();
	if (ret)
		return ret;
	ret = irdma_cm_reap_init();
	if (ret) {
		irdma_mpa_stats_exit();
		return ret;
	}
	ret = irdma_cm_netdev_init();
	if (ret) {
		irdma_cm_reap_exit();
		irdma_mpa_stats_exit();
		return ret;
	}
	madcm_cm_debugfs = debugfs_create_dir("cm", madcm_debugfs_root);
	debugfs_create_file("stats", 0400, madcm_cm_debugfs, NULL,
			    &madcm_cm_stats_fops);
	return 0;
}

/**
 * madcm_cm_exit() - detach from every device, remove the counters
 */
void madcm_cm_exit(void)
{
	debugfs_remove_recursive(madcm_cm_debugfs);
	madcm_cm_debugfs = NULL;
	irdma_cm_netdev_exit();
	irdma_cm_reap_exit();
	irdma_mpa_stats_exit();
}
