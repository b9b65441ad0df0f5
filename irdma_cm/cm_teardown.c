// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tearing down connections when the link under them changes: the device
 * goes down, or one of its addresses is removed (the role of irdma's
 * irdma_cm_teardown_connections and irdma_teardown_list_prep).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/slab.h>
#include <net/ipv6.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/cm_teardown.h"

/*
 * Take a reference on up to @max nodes that use @addr (every node when
 * @addr is NULL) and are not yet in @taken.
 */
static int teardown_list_prep(struct irdma_cm_core *core,
			      const struct in6_addr *addr,
			      struct irdma_cm_node **taken, int max)
{
	struct irdma_cm_node *node;
	int n = 0;

	spin_lock_bh(&core->lock);
	list_for_each_entry(node, &core->nodes, list) {
		if (n == max)
			break;
		if (addr && !ipv6_addr_equal(&node->key.loc_ip, addr))
			continue;
		irdma_cm_node_get(node);
		taken[n++] = node;
	}
	spin_unlock_bh(&core->lock);
	return n;
}

/**
 * irdma_cm_teardown_connections() - reset the connections of an address
 * @core: the core
 * @addr: our address the connections use, or NULL for every connection
 *
 * Each connection is aborted: the peer gets a RST when the link still
 * carries it, the consumer its terminal RESET event (status
 * -ECONNABORTED). Listeners stay: a device that comes back up, or an
 * address that is added again, accepts new connections.
 *
 * Context: Process context.
 * Return: how many connections were aborted.
 */
int irdma_cm_teardown_connections(struct irdma_cm_core *core,
				  const struct in6_addr *addr)
{
	const int batch = 64;
	struct irdma_cm_node **taken;
	int n, i, total = 0, passes;

	taken = kcalloc(batch, sizeof(*taken), GFP_KERNEL);
	if (!taken)
		return -ENOMEM;
	/*
	 * An aborted node leaves core->nodes, so each pass finds new ones;
	 * the bound only guards against a node that would not leave.
	 */
	passes = atomic_read(&core->live_nodes) / batch + 2;
	do {
		n = teardown_list_prep(core, addr, taken, batch);
		for (i = 0; i < n; i++) {
			irdma_cm_node_lock(taken[i]);
			irdma_cm_abort_node(taken[i], -ECONNABORTED);
			irdma_cm_node_unlock(taken[i]);
			irdma_cm_node_put(taken[i]);
		}
		total += n;
	} while (n == batch && --passes > 0);
	kfree(taken);
	return total;
}
