// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the RNIC suites' device (tests/kunit/rnic_test_dev.h).
 */
#include <linux/etherdevice.h>
#include "rnic/rnic.h"
#include "tests/kunit/rnic_test_dev.h"

static netdev_tx_t rnic_test_xmit(struct sk_buff *skb, struct net_device *nd)
{
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops rnic_test_netdev_ops = {
	.ndo_start_xmit = rnic_test_xmit,
};

/*
 * An Ethernet device (random MAC, registered, down) in *@ndp, set as soon
 * as it exists so that the suite's exit frees it whatever fails after;
 * then the madcm RNIC @name (may hold %d) over it, in *@ibdevp once
 * registered. The suite's exit unregisters both: no reference is kept.
 */
void rnic_test_dev_create(struct kunit *test, const char *name,
			  struct net_device **ndp, struct ib_device **ibdevp)
{
	struct net_device *nd = alloc_etherdev(0);

	*ndp = nd;
	KUNIT_ASSERT_NOT_NULL(test, nd);
	nd->netdev_ops = &rnic_test_netdev_ops;
	eth_hw_addr_random(nd);
	KUNIT_ASSERT_EQ(test, register_netdev(nd), 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_newlink(name, nd), 0);
	*ibdevp = ib_device_get_by_netdev(nd, RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL(test, *ibdevp);
	ib_device_put(*ibdevp);
}
