// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM on a real net_device: its lifetime. Attaching creates a cm_core
 * whose wire is the device and hooks the data path (wire_netdev_io.c)
 * into netfilter; detaching undoes it.
 *
 * Device events: the device going down or an address being removed
 * resets the connections that depend on it; unregistering the device
 * detaches the CM from it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/debugfs.h>
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/seq_file.h>
#include <net/addrconf.h>
#include <net/sock.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/cm_teardown.h"
#include "irdma_cm/qhash.h"
#include "irdma_cm/wire_netdev.h"
#include "irdma_cm/wire_netdev_priv.h"

static unsigned int qhash_max = 65536;
module_param(qhash_max, uint, 0444);
MODULE_PARM_DESC(qhash_max, "Most steering entries (listeners + connections) per device (default 65536)");

static const char * const nd_counter_names[ND_COUNTER_MAX] = {
	[ND_RX_STOLEN] = "rx_stolen",
	[ND_RX_GSO_SEGS] = "rx_gso_segments",
	[ND_RX_CSUM_FIXED] = "rx_csum_completed",
	[ND_RX_DROP_CSUM] = "rx_drop_csum",
	[ND_RX_DROP_GSO] = "rx_drop_gso",
	[ND_RX_DROP_NOMEM] = "rx_drop_nomem",
	[ND_RX_DROP_FRAG6] = "rx_drop_frag6",
	[ND_TX_FRAMES] = "tx_frames",
	[ND_TX_DROP_NOMEM] = "tx_drop_nomem",
	[ND_TX_DROP_DEV] = "tx_drop_dev",
	[ND_TX_LOOPED] = "tx_looped",
	[ND_RESOLVE_PENDING] = "resolve_pending",
	[ND_RESOLVE_LOCAL] = "resolve_local",
	[ND_RESOLVE_FAIL] = "resolve_fail",
	[ND_PORT_RESERVE_FAIL] = "port_reserve_fail",
	[ND_DEV_DOWN] = "dev_down",
	[ND_ADDR_GONE] = "addr_removed",
};

/* Attached devices; attach, detach and device events hold nd_mutex. */
static LIST_HEAD(nd_list);
static DEFINE_MUTEX(nd_mutex);

/* ---- attach, detach, device events ---- */

static struct irdma_cm_netdev *nd_find(struct net_device *dev)
{
	struct irdma_cm_netdev *nd;

	lockdep_assert_held(&nd_mutex);
	list_for_each_entry(nd, &nd_list, list)
		if (nd->dev == dev)
			return nd;
	return NULL;
}

static void nd_free(struct irdma_cm_netdev *nd)
{
	struct nd_reservation *r, *tmp;

	nf_unregister_net_hooks(nd->net, nd->hooks, ARRAY_SIZE(nd->hooks));
	/* No hook runs any more: the core can go, then what it left. */
	irdma_cleanup_cm_core(nd->core);
	list_for_each_entry_safe(r, tmp, &nd->resv, list) {
		list_del(&r->list);
		if (r->sock)
			sock_release(r->sock);
		kfree(r);
	}
	irdma_qhash_destroy(&nd->qhash);
	netdev_put(nd->dev, &nd->dev_tracker);
	mutex_destroy(&nd->resv_lock);
	kfree(nd);
}

/**
 * irdma_cm_netdev_attach() - run a CM on a net_device
 * @dev: the device
 * @cfg: the core's tunables, or NULL for the defaults
 *
 * Creates a cm_core whose wire is the device, and starts stealing the
 * segments the core's steering entries name.
 *
 * Context: Process context; takes the RTNL lock.
 * Return: 0, -ENODEV, -EEXIST when a CM already runs on it, -EINVAL for a
 * device that is not Ethernet, or another negative errno.
 */
int irdma_cm_netdev_attach(struct net_device *dev,
			   const struct madcm_cm_config *cfg)
{
	struct irdma_cm_netdev *nd;
	int ret, i;

	nd = kzalloc(sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return -ENOMEM;
	INIT_LIST_HEAD(&nd->resv);
	mutex_init(&nd->resv_lock);
	ret = irdma_qhash_init(&nd->qhash, qhash_max);
	if (ret)
		goto err_free;

	mutex_lock(&nd_mutex);
	ret = -EEXIST;
	if (nd_find(dev))
		goto err_unlock;
	netdev_hold(dev, &nd->dev_tracker, GFP_KERNEL);
	nd->dev = dev;
	nd->net = dev_net(dev);
	ret = -EINVAL;
	if (dev->type != ARPHRD_ETHER)
		goto err_put;
	nd->core = irdma_setup_cm_core(&irdma_cm_nd_wire_ops, nd, cfg);
	if (IS_ERR(nd->core)) {
		ret = PTR_ERR(nd->core);
		goto err_put;
	}
	for (i = 0; i < ARRAY_SIZE(nd->hooks); i++) {
		nd->hooks[i].hook = irdma_cm_nd_hook;
		nd->hooks[i].priv = nd;
		nd->hooks[i].hooknum = NF_INET_LOCAL_IN;
		nd->hooks[i].priority = IRDMA_CM_ND_HOOK_PRIO;
		nd->hooks[i].pf = i ? NFPROTO_IPV6 : NFPROTO_IPV4;
	}
	ret = nf_register_net_hooks(nd->net, nd->hooks, ARRAY_SIZE(nd->hooks));
	if (ret)
		goto err_core;
	list_add(&nd->list, &nd_list);
	mutex_unlock(&nd_mutex);
	netdev_info(dev, "madcm: CM attached\n");
	return 0;

err_core:
	irdma_cleanup_cm_core(nd->core);
err_put:
	netdev_put(dev, &nd->dev_tracker);
err_unlock:
	mutex_unlock(&nd_mutex);
	irdma_qhash_destroy(&nd->qhash);
err_free:
	mutex_destroy(&nd->resv_lock);
	kfree(nd);
	return ret;
}

/**
 * irdma_cm_netdev_detach() - stop the CM running on a net_device
 * @dev: the device
 *
 * Resets every connection (their consumers get their terminal events),
 * releases the steering entries and reserved ports and frees the core.
 *
 * Context: Process context.
 * Return: 0 or -ENODEV when no CM runs on such a device.
 */
int irdma_cm_netdev_detach(struct net_device *dev)
{
	struct irdma_cm_netdev *nd;

	mutex_lock(&nd_mutex);
	nd = nd_find(dev);
	if (nd)
		list_del(&nd->list);
	mutex_unlock(&nd_mutex);
	if (!nd)
		return -ENODEV;
	netdev_info(nd->dev, "madcm: CM detached\n");
	nd_free(nd);
	return 0;
}

/**
 * irdma_cm_netdev_core_get() - the CM core running on a device, counted
 * @dev: the device
 *
 * The reference keeps the core's memory, not the core running: the core
 * stops when the device is detached or goes away, and its holders' calls
 * then fail. irdma_cm_core_put() drops the reference.
 *
 * Return: the core, or NULL when no CM runs on @dev.
 */
struct irdma_cm_core *irdma_cm_netdev_core_get(struct net_device *dev)
{
	struct irdma_cm_core *core = NULL;
	struct irdma_cm_netdev *nd;

	mutex_lock(&nd_mutex);
	nd = nd_find(dev);
	if (nd) {
		core = nd->core;
		refcount_inc(&core->handle.refs);
	}
	mutex_unlock(&nd_mutex);
	return core;
}

/**
 * irdma_cm_netdev_show() - print every attached device and its counters
 * @m: the seq_file
 */
void irdma_cm_netdev_show(struct seq_file *m)
{
	struct irdma_cm_netdev *nd;
	int i;

	mutex_lock(&nd_mutex);
	list_for_each_entry(nd, &nd_list, list) {
		seq_printf(m, "dev %s ifindex %d steering_entries %d\n",
			   nd->dev->name, nd->dev->ifindex,
			   atomic_read(&nd->qhash.count));
		for (i = 0; i < ND_COUNTER_MAX; i++)
			seq_printf(m, "  %s %lld\n", nd_counter_names[i],
				   atomic64_read(&nd->cnt[i]));
		irdma_cm_core_show(nd->core, m);
	}
	mutex_unlock(&nd_mutex);
}

static int nd_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct irdma_cm_netdev *nd, *tmp;
	LIST_HEAD(gone);

	if (event != NETDEV_DOWN && event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	mutex_lock(&nd_mutex);
	list_for_each_entry_safe(nd, tmp, &nd_list, list) {
		if (nd->dev != dev)
			continue;
		if (event == NETDEV_DOWN) {
			nd_count(nd, ND_DEV_DOWN);
			irdma_cm_teardown_connections(nd->core, NULL);
		} else {
			list_move(&nd->list, &gone);
		}
	}
	mutex_unlock(&nd_mutex);
	list_for_each_entry_safe(nd, tmp, &gone, list) {
		netdev_info(dev, "madcm: device going away, CM detached\n");
		nd_free(nd);
	}
	return NOTIFY_DONE;
}

static void nd_addr_gone(struct net_device *dev, const struct in6_addr *addr)
{
	struct irdma_cm_netdev *nd;

	mutex_lock(&nd_mutex);
	list_for_each_entry(nd, &nd_list, list) {
		if (nd->dev != dev &&
		    !(is_vlan_dev(dev) && vlan_dev_real_dev(dev) == nd->dev))
			continue;
		nd_count(nd, ND_ADDR_GONE);
		irdma_cm_teardown_connections(nd->core, addr);
	}
	mutex_unlock(&nd_mutex);
}

static int nd_inetaddr_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct in_ifaddr *ifa = ptr;
	struct in6_addr a;

	if (event != NETDEV_DOWN)
		return NOTIFY_DONE;
	ipv6_addr_set_v4mapped(ifa->ifa_local, &a);
	nd_addr_gone(ifa->ifa_dev->dev, &a);
	return NOTIFY_DONE;
}

/* IPv6 address events come in atomic context: the teardown is deferred. */
struct nd_addr_work {
	struct work_struct work;
	struct net_device *dev;
	netdevice_tracker tracker;
	struct in6_addr addr;
};

static struct workqueue_struct *nd_wq;

static void nd_addr_work_fn(struct work_struct *work)
{
	struct nd_addr_work *w = container_of(work, struct nd_addr_work, work);

	nd_addr_gone(w->dev, &w->addr);
	netdev_put(w->dev, &w->tracker);
	kfree(w);
}

static int nd_inet6addr_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct inet6_ifaddr *ifa = ptr;
	struct nd_addr_work *w;

	if (event != NETDEV_DOWN)
		return NOTIFY_DONE;
	w = kzalloc(sizeof(*w), GFP_ATOMIC);
	if (!w)
		return NOTIFY_DONE;
	INIT_WORK(&w->work, nd_addr_work_fn);
	w->dev = ifa->idev->dev;
	netdev_hold(w->dev, &w->tracker, GFP_ATOMIC);
	w->addr = ifa->addr;
	queue_work(nd_wq, &w->work);
	return NOTIFY_DONE;
}

static struct notifier_block nd_netdev_nb = { .notifier_call = nd_netdev_event };
static struct notifier_block nd_inetaddr_nb = { .notifier_call = nd_inetaddr_event };
static struct notifier_block nd_inet6addr_nb = { .notifier_call = nd_inet6addr_event };

/**
 * irdma_cm_netdev_init() - register for device and address events
 *
 * Return: 0 or a negative errno.
 */
int irdma_cm_netdev_init(void)
{
	int ret;

	nd_wq = alloc_workqueue("madcm_cm_nd", 0, 0);
	if (!nd_wq)
		return -ENOMEM;
	ret = register_netdevice_notifier(&nd_netdev_nb);
	if (ret)
		goto err_wq;
	ret = register_inetaddr_notifier(&nd_inetaddr_nb);
	if (ret)
		goto err_netdev;
	ret = register_inet6addr_notifier(&nd_inet6addr_nb);
	if (ret)
		goto err_inet;
	return 0;
err_inet:
	unregister_inetaddr_notifier(&nd_inetaddr_nb);
err_netdev:
	unregister_netdevice_notifier(&nd_netdev_nb);
err_wq:
	destroy_workqueue(nd_wq);
	return ret;
}

/**
 * irdma_cm_netdev_exit() - detach from every device, stop listening to events
 */
void irdma_cm_netdev_exit(void)
{
	struct irdma_cm_netdev *nd, *tmp;
	LIST_HEAD(gone);

	unregister_inet6addr_notifier(&nd_inet6addr_nb);
	unregister_inetaddr_notifier(&nd_inetaddr_nb);
	unregister_netdevice_notifier(&nd_netdev_nb);
	destroy_workqueue(nd_wq);	/* runs what is queued */
	mutex_lock(&nd_mutex);
	list_splice_init(&nd_list, &gone);
	mutex_unlock(&nd_mutex);
	list_for_each_entry_safe(nd, tmp, &gone, list)
		nd_free(nd);
}
