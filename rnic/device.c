// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm's software RNIC: the device.
 *
 * `rdma link add NAME type madcm netdev DEV` creates an iWARP ib_device
 * over any Ethernet net_device, with the CM core of that net_device under
 * it; `rdma link delete NAME`, or the net_device going away, removes it.
 * The port follows the net_device: its state (running with carrier), its
 * MTU (what an FPDU carries in one frame) and its speed (ethtool), and
 * GID 0 is its MAC address. The device's counters are the ones
 * `rdma statistic` shows.
 *
 * Removal, however it comes, puts every QP in ERROR: its connection is
 * reset and each outstanding work request completes once with
 * IB_WC_WR_FLUSH_ERR (an ib_client of our own). ib_core removes clients
 * in the reverse order of their registration, so ours goes before
 * ib_uverbs' whatever the load order (madcm needs ib_uverbs' ib_umem_get(),
 * so ib_uverbs is always there first), and may go after rdma_cm's, which
 * is harmless: rdma_cm's consumers destroy their ids, and iw_cm resets an
 * id's connected QP (ERROR: flushed) as it does so.
 */
#include <linux/ethtool.h>
#include <linux/crc32c.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/tcp.h>
#include <crypto/hash.h>
#include <net/addrconf.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include "rnic/rnic.h"
#include "rnic/zc.h"

/*
 * What one frame spends before the ULP's payload: IPv6 (the larger
 * header), TCP without options, the MPA length and CRC, and the untagged
 * DDP/RDMAP header (RFC 5041, 5040).
 */
#define MADCM_RNIC_FPDU_OVERHEAD	(sizeof(struct ipv6hdr) + \
					 sizeof(struct tcphdr) + 2 + 4 + 18)

/* Devices, for the net_device events; newlink adds, dealloc removes. */
static LIST_HEAD(madcm_rnic_devs);
static DEFINE_MUTEX(madcm_rnic_devs_lock);
/* One newlink at a time: the one-device-per-net_device check. */
static DEFINE_MUTEX(madcm_rnic_link_lock);

static const struct rdma_stat_desc madcm_rnic_stats[] = {
	[MADCM_RNIC_CNT_CONN_OFFLOADED].name = "conn_offloaded",
	[MADCM_RNIC_CNT_CONN_RESET].name = "conn_reset",
	[MADCM_RNIC_CNT_TX_FRAMES].name = "tx_frames",
	[MADCM_RNIC_CNT_RX_FRAMES].name = "rx_frames",
	[MADCM_RNIC_CNT_TX_BYTES].name = "tx_bytes",
	[MADCM_RNIC_CNT_RX_BYTES].name = "rx_bytes",
	[MADCM_RNIC_CNT_RETRANSMITS].name = "retransmits",
	[MADCM_RNIC_CNT_TERM_SENT].name = "terminate_sent",
	[MADCM_RNIC_CNT_TERM_RCVD].name = "terminate_rcvd",
	[MADCM_RNIC_CNT_QP_ERROR].name = "qp_error",
	[MADCM_RNIC_CNT_WR_FLUSHED].name = "wr_flushed",
	[MADCM_RNIC_CNT_CQ_OVERFLOW].name = "cq_overflow",
	[MADCM_RNIC_CNT_FASTREG].name = "fastreg_wr",
	[MADCM_RNIC_CNT_LOCAL_INV].name = "local_inv_wr",
	[MADCM_RNIC_CNT_WR_ERROR].name = "wr_error",
	[MADCM_RNIC_CNT_RX_CRC_ERR].name = "rx_crc_err",
	[MADCM_RNIC_CNT_RX_HDR_ERR].name = "rx_hdr_err",
	[MADCM_RNIC_CNT_RX_PROT_ERR].name = "rx_prot_err",
	[MADCM_RNIC_CNT_RX_RQ_ERR].name = "rx_rq_err",
	[MADCM_RNIC_CNT_RX_IRD_ERR].name = "rx_ird_err",
	[MADCM_RNIC_CNT_TX_HOLD].name = "tx_hold",
	[MADCM_RNIC_CNT_TX_HOLD_EXPIRED].name = "tx_hold_expired",
	[MADCM_RNIC_CNT_TX_NUDGE].name = "tx_nudge",
	[MADCM_RNIC_CNT_USER_LIMIT].name = "user_limit",
	[MADCM_RNIC_CNT_QP_NOT_OWNER].name = "qp_not_owner",
	[MADCM_RNIC_CNT_HOST_TCP].name = "host_tcp",
	[MADCM_RNIC_CNT_HOST_TCP_FAIL].name = "host_tcp_fail",
	[MADCM_RNIC_CNT_HOST_TCP_EARLY].name = "host_tcp_early",
	[MADCM_RNIC_CNT_HOST_TCP_EARLY_DROP].name = "host_tcp_early_drop",
	[MADCM_RNIC_CNT_HOST_TCP_LATE].name = "host_tcp_late",
	[MADCM_RNIC_CNT_HOST_TCP_LATE_DROP].name = "host_tcp_late_drop",
	[MADCM_RNIC_CNT_TX_ZC_BYTES].name = "tx_zc_bytes",
	[MADCM_RNIC_CNT_TX_MR_ZC_BYTES].name = "tx_mr_zc_bytes",
	[MADCM_RNIC_CNT_TX_MR_ZC_COPIED].name = "tx_mr_zc_copied",
	[MADCM_RNIC_CNT_CONN_NO_CRC].name = "conn_no_crc",
	[MADCM_RNIC_CNT_HOST_TCP_FIN_WAIT_TIMEOUT].name =
		"host_tcp_fin_wait_timeout",
};

static_assert(ARRAY_SIZE(madcm_rnic_stats) == MADCM_RNIC_CNT_MAX);

static struct rdma_hw_stats *madcm_rnic_alloc_port_stats(struct ib_device *ibdev,
							 u32 port)
{
	return rdma_alloc_hw_stats_struct(madcm_rnic_stats,
					  ARRAY_SIZE(madcm_rnic_stats),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int madcm_rnic_get_hw_stats(struct ib_device *ibdev,
				   struct rdma_hw_stats *stats, u32 port,
				   int index)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(ibdev);
	int i;

	for (i = 0; i < MADCM_RNIC_CNT_MAX; i++)
		stats->value[i] = atomic64_read(&dev->cnt[i]);
	return MADCM_RNIC_CNT_MAX;
}

static enum ib_port_state madcm_rnic_link_state(struct net_device *netdev)
{
	return netif_running(netdev) && netif_carrier_ok(netdev) ?
	       IB_PORT_ACTIVE : IB_PORT_DOWN;
}

/* An Ethernet speed (Mb/s) as IB lanes times a per-lane rate. */
static void madcm_rnic_ib_speed(u32 mbps, u16 *speed, u8 *width)
{
	static const struct {
		u32 mbps;
		u16 speed;
		u8 width;
	} map[] = {
		{ SPEED_2500, IB_SPEED_SDR, IB_WIDTH_1X },
		{ SPEED_5000, IB_SPEED_DDR, IB_WIDTH_1X },
		{ SPEED_10000, IB_SPEED_QDR, IB_WIDTH_1X },
		{ SPEED_20000, IB_SPEED_DDR, IB_WIDTH_4X },
		{ SPEED_25000, IB_SPEED_EDR, IB_WIDTH_1X },
		{ SPEED_40000, IB_SPEED_QDR, IB_WIDTH_4X },
		{ SPEED_50000, IB_SPEED_HDR, IB_WIDTH_1X },
		{ SPEED_100000, IB_SPEED_EDR, IB_WIDTH_4X },
		{ SPEED_200000, IB_SPEED_HDR, IB_WIDTH_4X },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		if (mbps <= map[i].mbps) {
			*speed = map[i].speed;
			*width = map[i].width;
			return;
		}
	}
	*speed = IB_SPEED_NDR;
	*width = IB_WIDTH_4X;
}

static int madcm_rnic_query_port(struct ib_device *ibdev, u32 port,
				 struct ib_port_attr *attr)
{
	struct net_device *netdev = to_madcm_rnic(ibdev)->netdev;
	struct ethtool_link_ksettings ks;
	u32 mbps = SPEED_UNKNOWN;
	unsigned int mtu;

	rtnl_lock();
	if (netdev->reg_state == NETREG_REGISTERED) {
		attr->state = madcm_rnic_link_state(netdev);
		if (!__ethtool_get_link_ksettings(netdev, &ks))
			mbps = ks.base.speed;
	} else {
		attr->state = IB_PORT_DOWN;
	}
	mtu = netdev->mtu;
	rtnl_unlock();

	attr->phys_state = attr->state == IB_PORT_ACTIVE ?
			   IB_PORT_PHYS_STATE_LINK_UP :
			   IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = ib_mtu_int_to_enum(mtu > MADCM_RNIC_FPDU_OVERHEAD ?
					      mtu - MADCM_RNIC_FPDU_OVERHEAD :
					      0);
	attr->gid_tbl_len = 1;
	attr->port_cap_flags = IB_PORT_CM_SUP | IB_PORT_DEVICE_MGMT_SUP;
	attr->max_msg_sz = 1U << 31;
	/* No speed reported (a virtual link): the slowest rate. */
	madcm_rnic_ib_speed(mbps == SPEED_UNKNOWN ? 0 : mbps,
			    &attr->active_speed, &attr->active_width);
	return 0;
}

static int madcm_rnic_query_device(struct ib_device *ibdev,
				   struct ib_device_attr *attr,
				   struct ib_udata *udata)
{
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->sys_image_guid = ibdev->node_guid;
	attr->vendor_id = MADCM_RNIC_VENDOR_ID;
	attr->vendor_part_id = MADCM_RNIC_VENDOR_PART;
	attr->hw_ver = 1;
	/* what reg_user_mr takes; an FRMR is bounded by its page list */
	attr->max_mr_size = MADCM_RNIC_MAX_MR_SIZE;
	/* the one page size map_mr_sg and reg_user_mr take */
	attr->page_size_cap = PAGE_SIZE;
	attr->max_qp = MADCM_RNIC_MAX_QP;
	attr->max_qp_wr = MADCM_RNIC_MAX_QP_WR;
	attr->device_cap_flags = IB_DEVICE_MEM_MGT_EXTENSIONS;
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	attr->max_send_sge = MADCM_RNIC_MAX_SGE;
	attr->max_recv_sge = MADCM_RNIC_MAX_SGE;
	attr->max_sge_rd = MADCM_RNIC_MAX_SGE;
	attr->max_cq = MADCM_RNIC_MAX_CQ;
	attr->max_cqe = MADCM_RNIC_MAX_CQE;
	attr->max_mr = MADCM_RNIC_MAX_MR;
	attr->max_pd = MADCM_RNIC_MAX_PD;
	attr->max_qp_rd_atom = MADCM_RNIC_MAX_IRD;
	attr->max_qp_init_rd_atom = MADCM_RNIC_MAX_ORD;
	attr->max_res_rd_atom = MADCM_RNIC_MAX_QP * MADCM_RNIC_MAX_IRD;
	attr->atomic_cap = IB_ATOMIC_NONE;
	attr->max_fast_reg_page_list_len = MADCM_RNIC_MAX_FR_PAGES;
	return 0;
}

static int madcm_rnic_query_gid(struct ib_device *ibdev, u32 port, int index,
				union ib_gid *gid)
{
	struct net_device *netdev = to_madcm_rnic(ibdev)->netdev;

	if (index)
		return -EINVAL;
	memset(gid, 0, sizeof(*gid));
	ether_addr_copy(gid->raw, netdev->dev_addr);
	return 0;
}

static int madcm_rnic_get_port_immutable(struct ib_device *ibdev, u32 port,
					 struct ib_port_immutable *immutable)
{
	immutable->core_cap_flags = RDMA_CORE_PORT_IWARP;
	immutable->gid_tbl_len = 1;
	return 0;
}

static void madcm_rnic_port_event(struct madcm_rnic_dev *dev,
				  enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &dev->ibdev,
		.element.port_num = 1,
		.event = type,
	};

	ib_dispatch_event(&ev);
}

/* What the device leaves behind, once ib_core is done with it. */
static void madcm_rnic_release(struct madcm_rnic_dev *dev)
{
	struct madcm_cm_core *core;

	if (dev->attached) {
		/* Stop the CM only if the core is still the one we started. */
		core = madcm_cm_get_core(dev->netdev);
		if (!IS_ERR(core)) {
			if (core == dev->core)
				madcm_cm_netdev_detach(dev->netdev);
			madcm_cm_put_core(core);
		}
	}
	madcm_cm_put_core(dev->core);
	if (dev->uverbs)
		madcm_rnic_uverbs_unclaim(dev);
	WARN_ON(!xa_empty(&dev->qps));
	WARN_ON(!xa_empty(&dev->mrs));
	xa_destroy(&dev->qps);
	xa_destroy(&dev->mrs);
	netdev_put(dev->netdev, &dev->netdev_tracker);
}

static void madcm_rnic_dealloc_driver(struct ib_device *ibdev)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(ibdev);

	mutex_lock(&madcm_rnic_devs_lock);
	list_del_init(&dev->list);
	mutex_unlock(&madcm_rnic_devs_lock);
	madcm_rnic_release(dev);
}

static const struct ib_device_ops madcm_rnic_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,

	.alloc_hw_port_stats = madcm_rnic_alloc_port_stats,
	.dealloc_driver = madcm_rnic_dealloc_driver,
	.get_hw_stats = madcm_rnic_get_hw_stats,
	.get_port_immutable = madcm_rnic_get_port_immutable,
	.query_device = madcm_rnic_query_device,
	.query_gid = madcm_rnic_query_gid,
	.query_port = madcm_rnic_query_port,

	.iw_accept = madcm_rnic_iw_accept,
	.iw_add_ref = madcm_rnic_iw_add_ref,
	.iw_connect = madcm_rnic_iw_connect,
	.iw_create_listen = madcm_rnic_iw_create_listen,
	.iw_destroy_listen = madcm_rnic_iw_destroy_listen,
	.iw_get_qp = madcm_rnic_iw_get_qp,
	.iw_reject = madcm_rnic_iw_reject,
	.iw_rem_ref = madcm_rnic_iw_rem_ref,
};

/* The CM core of @netdev: ours if none runs there yet, else the one that does. */
static int madcm_rnic_take_core(struct madcm_rnic_dev *dev)
{
	const struct madcm_cm_config cfg = {
		.max_ird = MADCM_RNIC_MAX_IRD,
		.max_ord = MADCM_RNIC_MAX_ORD,
	};
	int ret;

	ret = madcm_cm_netdev_attach(dev->netdev, &cfg);
	if (ret && ret != -EEXIST)
		return ret;
	dev->attached = !ret;
	dev->core = madcm_cm_get_core(dev->netdev);
	if (IS_ERR(dev->core)) {
		ret = PTR_ERR(dev->core);
		dev->core = NULL;
		if (dev->attached)
			madcm_cm_netdev_detach(dev->netdev);
		dev->attached = false;
		return ret;
	}
	return 0;
}

/*
 * Which crc32c driver the data path's CRC (iwarp/fpdu.h, libcrc32c) runs:
 * a user wants to know whether it is the CPU's instruction or the table
 * code. libcrc32c says so itself up to 6.11; later, the crypto API's
 * choice for a new crc32c transform is the same one.
 */
static void madcm_rnic_crc_name(char *buf, size_t size)
{
#ifdef MADCM_HAVE_CRC32C_IMPL
	strscpy(buf, crc32c_impl(), size);
#else
	struct crypto_shash *tfm = crypto_alloc_shash("crc32c", 0, 0);

	if (IS_ERR(tfm)) {
		strscpy(buf, "unknown", size);
		return;
	}
	strscpy(buf, crypto_shash_driver_name(tfm), size);
	crypto_free_shash(tfm);
#endif
}

static struct madcm_rnic_dev *madcm_rnic_find(struct net_device *netdev)
{
	struct madcm_rnic_dev *dev;

	lockdep_assert_held(&madcm_rnic_devs_lock);
	list_for_each_entry(dev, &madcm_rnic_devs, list)
		if (dev->netdev == netdev)
			return dev;
	return NULL;
}

/**
 * madcm_rnic_newlink() - create a madcm RNIC over a net_device
 * @name: the ib_device's name (may hold %d)
 * @netdev: an Ethernet net_device
 *
 * What `rdma link add NAME type madcm netdev DEV` calls (and the KUnit
 * suites, which have no rdma tool).
 *
 * Context: Process context; takes the RTNL lock.
 * With rnic_uverbs=Y the device speaks soft-iWARP's user ABI (driver
 * RDMA_DRIVER_SIW, rnic/uverbs.c), which it cannot while siw.ko is loaded.
 *
 * Return: 0; -EINVAL for a net_device that is not Ethernet; -EEXIST when a
 * madcm RNIC runs over @netdev already; -EBUSY while siw.ko is loaded
 * (rnic_uverbs=Y); or another negative errno.
 */
int madcm_rnic_newlink(const char *name, struct net_device *netdev)
{
	struct madcm_rnic_dev *dev;
	struct ib_device *ibdev;
	char crc[CRYPTO_MAX_ALG_NAME];
	bool exists;
	int ret;

	if (netdev->type != ARPHRD_ETHER)
		return -EINVAL;
	madcm_rnic_crc_name(crc, sizeof(crc));
	mutex_lock(&madcm_rnic_link_lock);
	mutex_lock(&madcm_rnic_devs_lock);
	exists = madcm_rnic_find(netdev);
	mutex_unlock(&madcm_rnic_devs_lock);
	ret = -EEXIST;
	if (exists)
		goto out;

	ret = -ENOMEM;
	dev = ib_alloc_device(madcm_rnic_dev, ibdev);
	if (!dev)
		goto out;
	ibdev = &dev->ibdev;
	dev->netdev = netdev;
	netdev_hold(netdev, &dev->netdev_tracker, GFP_KERNEL);
	xa_init_flags(&dev->qps, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&dev->mrs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	spin_lock_init(&dev->lock);
	INIT_LIST_HEAD(&dev->list);
	dev->port_state = madcm_rnic_link_state(netdev);
	ret = madcm_rnic_take_core(dev);
	if (ret)
		goto err_dev;

	ibdev->node_type = RDMA_NODE_RNIC;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = 1;
	addrconf_addr_eui48((u8 *)&ibdev->node_guid, netdev->dev_addr);
	strscpy(ibdev->node_desc, "madcm", sizeof(ibdev->node_desc));
	memcpy(ibdev->iw_ifname, netdev->name, sizeof(ibdev->iw_ifname));
	/* The CM owns its ports itself: no iwpmd port mapping. */
	ibdev->iw_driver_flags = IW_F_NO_PORT_MAP;
	ib_set_device_ops(ibdev, &madcm_rnic_verbs_ops);
	ib_set_device_ops(ibdev, &madcm_rnic_mr_ops);
	ib_set_device_ops(ibdev, &madcm_rnic_dev_ops);
	if (madcm_rnic_uverbs_on) {
		/* soft-iWARP's user ABI: never next to siw.ko */
		ret = madcm_rnic_uverbs_claim();
		if (ret)
			goto err_core;
		dev->uverbs = true;
		ib_set_device_ops(ibdev, &madcm_rnic_uverbs_ops);
		/* libsiw's doorbell: POST_SEND with no work request */
		ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND);
	}
	ret = ib_device_set_netdev(ibdev, netdev, 1);
	if (ret)
		goto err_core;
	/* No DMA device: consumers' DMA addresses are kernel addresses. */
	ret = ib_register_device(ibdev, name, NULL);
	if (ret)
		goto err_core;

	mutex_lock(&madcm_rnic_devs_lock);
	list_add(&dev->list, &madcm_rnic_devs);
	mutex_unlock(&madcm_rnic_devs_lock);
	/* The net_device may have gone while we were not on the list. */
	if (READ_ONCE(netdev->reg_state) != NETREG_REGISTERED)
		ib_unregister_device_queued(ibdev);
	netdev_info(netdev, "madcm: RNIC %s created (crc32c: %s)\n",
		    dev_name(&ibdev->dev), crc);
	ret = 0;
	goto out;

err_core:
	/* Calls madcm_rnic_dealloc_driver(), which releases the rest. */
	ib_dealloc_device(ibdev);
	goto out;
err_dev:
	xa_destroy(&dev->qps);
	xa_destroy(&dev->mrs);
	netdev_put(netdev, &dev->netdev_tracker);
	ib_dealloc_device(ibdev);
out:
	mutex_unlock(&madcm_rnic_link_lock);
	return ret;
}

static struct rdma_link_ops madcm_rnic_link_ops = {
	.type = "madcm",
	.newlink = madcm_rnic_newlink,
};

/* The port follows the net_device; the device goes with it. */
static int madcm_rnic_netdev_event(struct notifier_block *nb,
				   unsigned long event, void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);
	enum ib_port_state state, old;
	struct madcm_rnic_dev *dev;

	mutex_lock(&madcm_rnic_devs_lock);
	dev = madcm_rnic_find(netdev);
	if (!dev)
		goto out;
	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		state = madcm_rnic_link_state(netdev);
		spin_lock(&dev->lock);
		old = dev->port_state;
		dev->port_state = state;
		spin_unlock(&dev->lock);
		if (state != old)
			madcm_rnic_port_event(dev, state == IB_PORT_ACTIVE ?
					      IB_EVENT_PORT_ACTIVE :
					      IB_EVENT_PORT_ERR);
		break;
	case NETDEV_CHANGEADDR:
		madcm_rnic_port_event(dev, IB_EVENT_GID_CHANGE);
		break;
	case NETDEV_UNREGISTER:
		ib_unregister_device_queued(&dev->ibdev);
		break;
	default:
		break;
	}
out:
	mutex_unlock(&madcm_rnic_devs_lock);
	return NOTIFY_DONE;
}

static struct notifier_block madcm_rnic_netdev_nb = {
	.notifier_call = madcm_rnic_netdev_event,
};

/*
 * Every QP to ERROR on removal. Removed before ib_uverbs' client, always
 * registered before ours (a dependency), so a process waiting on a QP's
 * completions sees them flushed before ib_uverbs waits for it to close
 * the device; before rdma_cm's only if rdma_cm was loaded first (when
 * not, iw_cm resets the connected QPs of the ids rdma_cm's consumers
 * destroy). madcm_rnic_exit() flushes first whatever the order.
 */
static int madcm_rnic_client_add(struct ib_device *ibdev)
{
	return ibdev->ops.dealloc_driver == madcm_rnic_dealloc_driver ?
	       0 : -EOPNOTSUPP;
}

static void madcm_rnic_client_remove(struct ib_device *ibdev, void *data)
{
	madcm_rnic_dev_flush(to_madcm_rnic(ibdev));
}

static struct ib_client madcm_rnic_client = {
	.name = "madcm_rnic",
	.add = madcm_rnic_client_add,
	.remove = madcm_rnic_client_remove,
};

/**
 * madcm_rnic_init() - offer `rdma link add ... type madcm`
 *
 * Return: 0 or a negative errno.
 */
int madcm_rnic_init(void)
{
	int ret;

	/* consumers' handlers (rnic/verbs.c); ULPs may be in reclaim */
	madcm_rnic_wq = alloc_workqueue("madcm_rnic", WQ_MEM_RECLAIM, 0);
	if (!madcm_rnic_wq)
		return -ENOMEM;
	ret = madcm_rnic_uverbs_init();
	if (ret)
		goto err_wq;
	ret = ib_register_client(&madcm_rnic_client);
	if (ret)
		goto err_uverbs;
	ret = register_netdevice_notifier(&madcm_rnic_netdev_nb);
	if (ret)
		goto err_client;
	rdma_link_register(&madcm_rnic_link_ops);
	return 0;

err_client:
	ib_unregister_client(&madcm_rnic_client);
err_uverbs:
	madcm_rnic_uverbs_exit();
err_wq:
	destroy_workqueue(madcm_rnic_wq);
	return ret;
}

/**
 * madcm_rnic_exit() - remove every madcm RNIC and the link type
 */
void madcm_rnic_exit(void)
{
	struct madcm_rnic_dev *dev;

	rdma_link_unregister(&madcm_rnic_link_ops);
	for (;;) {
		mutex_lock(&madcm_rnic_devs_lock);
		dev = list_first_entry_or_null(&madcm_rnic_devs,
					       struct madcm_rnic_dev, list);
		if (dev)
			get_device(&dev->ibdev.dev);
		mutex_unlock(&madcm_rnic_devs_lock);
		if (!dev)
			break;
		/* before any client is told, whatever their order */
		madcm_rnic_dev_flush(dev);
		/* Waits for a removal already under way, then is a no-op. */
		ib_unregister_device(&dev->ibdev);
		put_device(&dev->ibdev.dev);
	}
	unregister_netdevice_notifier(&madcm_rnic_netdev_nb);
	ib_unregister_client(&madcm_rnic_client);
	madcm_rnic_uverbs_exit();
	/* skbs of released sockets may still hold zero-copy tickets */
	madcm_rnic_zc_exit();
	destroy_workqueue(madcm_rnic_wq);
}

MODULE_ALIAS_RDMA_LINK("madcm");
