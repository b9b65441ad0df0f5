// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM on a real net_device.
 *
 * Receive: a netfilter hook at PRE_ROUTING, first in line, looks each TCP
 * segment arriving on the device (or on a VLAN device above it) up in the
 * steering table. A segment the CM owns is taken (NF_STOLEN) and handed
 * to the CM as a whole Ethernet frame; everything else goes on to the
 * host stack untouched. So the host never answers, with a RST or
 * otherwise, on a 4-tuple the CM owns, and the CM never sees a segment
 * that is not its own.
 *
 * Ports: a listener's port, and the local port of an active connection,
 * are reserved in the host stack by a bound (not listening) kernel
 * socket, so that no host application can be given a port the CM uses.
 *
 * Transmit: the CM's frames go out with dev_queue_xmit(), beside the IP
 * stack, as an RNIC's would. Next hops come from the routing and
 * neighbour tables; an unresolved one starts ARP or neighbour discovery
 * and the CM retries from its retransmission timer.
 *
 * Device events: the device going down or an address being removed
 * resets the connections that depend on it; unregistering the device
 * detaches the CM from it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/seq_file.h>
#include <linux/tcp.h>
#include <net/addrconf.h>
#include <net/arp.h>
#include <net/ip6_route.h>
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <net/route.h>
#include <net/sock.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/cm_teardown.h"
#include "irdma_cm/cm_trace.h"
#include "irdma_cm/qhash.h"
#include "irdma_cm/wire_netdev.h"

static unsigned int qhash_max = 65536;
module_param(qhash_max, uint, 0444);
MODULE_PARM_DESC(qhash_max, "Most steering entries (listeners + connections) per device (default 65536)");

enum nd_counter {
	ND_RX_STOLEN,
	ND_RX_GSO_SEGS,
	ND_RX_CSUM_FIXED,
	ND_RX_DROP_CSUM,
	ND_RX_DROP_GSO,
	ND_RX_DROP_NOMEM,
	ND_TX_FRAMES,
	ND_TX_DROP_NOMEM,
	ND_TX_DROP_DEV,
	ND_RESOLVE_PENDING,
	ND_RESOLVE_FAIL,
	ND_PORT_RESERVE_FAIL,
	ND_DEV_DOWN,
	ND_ADDR_GONE,
	ND_COUNTER_MAX
};

static const char * const nd_counter_names[ND_COUNTER_MAX] = {
	[ND_RX_STOLEN] = "rx_stolen",
	[ND_RX_GSO_SEGS] = "rx_gso_segments",
	[ND_RX_CSUM_FIXED] = "rx_csum_completed",
	[ND_RX_DROP_CSUM] = "rx_drop_csum",
	[ND_RX_DROP_GSO] = "rx_drop_gso",
	[ND_RX_DROP_NOMEM] = "rx_drop_nomem",
	[ND_TX_FRAMES] = "tx_frames",
	[ND_TX_DROP_NOMEM] = "tx_drop_nomem",
	[ND_TX_DROP_DEV] = "tx_drop_dev",
	[ND_RESOLVE_PENDING] = "resolve_pending",
	[ND_RESOLVE_FAIL] = "resolve_fail",
	[ND_PORT_RESERVE_FAIL] = "port_reserve_fail",
	[ND_DEV_DOWN] = "dev_down",
	[ND_ADDR_GONE] = "addr_removed",
};

/* A port held in the host stack for a steering entry. */
struct nd_reservation {
	struct list_head list;
	struct irdma_cm_qhash qh;
	struct socket *sock;
};

/**
 * struct irdma_cm_netdev - the CM attached to one net_device
 * @list: in nd_list
 * @dev: the device (a reference is held)
 * @dev_tracker: the reference's tracker
 * @net: its namespace
 * @core: the CM core running on it
 * @qhash: the steering table the receive hook consults
 * @hooks: PRE_ROUTING hooks, IPv4 and IPv6
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

/* Attached devices; attach, detach and device events hold nd_mutex. */
static LIST_HEAD(nd_list);
static DEFINE_MUTEX(nd_mutex);

static void nd_count(struct irdma_cm_netdev *nd, enum nd_counter c)
{
	atomic64_inc(&nd->cnt[c]);
}

static struct irdma_cm_netdev *nd_of(struct irdma_cm_core *core)
{
	return irdma_cm_core_priv(core);
}

/* ---- transmit ---- */

static int nd_xmit(struct irdma_cm_core *core, const u8 *frame, u32 len)
{
	struct irdma_cm_netdev *nd = nd_of(core);
	struct net_device *dev = nd->dev;
	struct sk_buff *skb;
	u32 l2 = ETH_HLEN;
	__be16 proto;

	if (len < ETH_HLEN)
		return -EINVAL;
	proto = *(const __be16 *)(frame + 2 * ETH_ALEN);
	if (proto == htons(ETH_P_8021Q))
		l2 += VLAN_HLEN;
	if (len < l2)
		return -EINVAL;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + len, GFP_ATOMIC);
	if (!skb) {
		nd_count(nd, ND_TX_DROP_NOMEM);
		return -ENOMEM;
	}
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_put_data(skb, frame, len);
	skb->dev = dev;
	skb->protocol = proto;
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, l2);
	if (dev_queue_xmit(skb) != NET_XMIT_SUCCESS) {
		nd_count(nd, ND_TX_DROP_DEV);
		return -EIO;
	}
	nd_count(nd, ND_TX_FRAMES);
	return 0;
}

/* The device frames to @vlan_id leave from; caller holds rcu_read_lock. */
static struct net_device *nd_out_dev(struct irdma_cm_netdev *nd, u16 vlan_id)
{
	if (vlan_id == IRDMA_NO_VLAN)
		return nd->dev;
	return __vlan_find_dev_deep_rcu(nd->dev, htons(ETH_P_8021Q), vlan_id);
}

static int nd_neigh_mac(struct neigh_table *tbl, const void *nexthop,
			struct net_device *dev, u8 *mac)
{
	struct neighbour *n;
	int ret = 0;

	n = neigh_lookup(tbl, nexthop, dev);
	if (!n) {
		n = neigh_create(tbl, nexthop, dev);
		if (IS_ERR(n))
			return PTR_ERR(n);
	}
	if (READ_ONCE(n->nud_state) & NUD_VALID) {
		neigh_ha_snapshot(mac, n, dev);
	} else {
		neigh_event_send(n, NULL);
		ret = -EAGAIN;
	}
	neigh_release(n);
	return ret;
}

static int nd_resolve4(struct net *net, struct net_device *dev, __be32 daddr,
		       u8 *mac)
{
	struct flowi4 fl4 = { .daddr = daddr, .flowi4_oif = dev->ifindex };
	struct rtable *rt;
	__be32 nexthop;

	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return -ENETUNREACH;
	if (rt->dst.dev != dev || rt->rt_type != RTN_UNICAST) {
		ip_rt_put(rt);
		return -ENETUNREACH;
	}
	nexthop = rt_nexthop(rt, daddr);
	ip_rt_put(rt);
	return nd_neigh_mac(&arp_tbl, &nexthop, dev, mac);
}

static int nd_resolve6(struct net *net, struct net_device *dev,
		       const struct in6_addr *daddr, u8 *mac)
{
	struct flowi6 fl6 = { .daddr = *daddr, .flowi6_oif = dev->ifindex };
	const struct in6_addr *nexthop;
	struct in6_addr nh;
	struct dst_entry *dst;

	dst = ip6_route_output(net, NULL, &fl6);
	if (dst->error || dst->dev != dev) {
		dst_release(dst);
		return -ENETUNREACH;
	}
	nexthop = rt6_nexthop(container_of(dst, struct rt6_info, dst), daddr);
	nh = *nexthop;
	dst_release(dst);
	return nd_neigh_mac(&nd_tbl, &nh, dev, mac);
}

static int nd_resolve(struct irdma_cm_core *core, const struct in6_addr *rem,
		      u16 vlan_id, u8 *mac)
{
	struct irdma_cm_netdev *nd = nd_of(core);
	struct net_device *dev;
	int ret;

	rcu_read_lock();
	dev = nd_out_dev(nd, vlan_id);
	if (!dev || !netif_running(dev))
		ret = -ENETDOWN;
	else if (ipv6_addr_v4mapped(rem))
		ret = nd_resolve4(nd->net, dev, rem->s6_addr32[3], mac);
	else
		ret = nd_resolve6(nd->net, dev, rem, mac);
	rcu_read_unlock();
	if (ret == -EAGAIN)
		nd_count(nd, ND_RESOLVE_PENDING);
	else if (ret)
		nd_count(nd, ND_RESOLVE_FAIL);
	return ret;
}

static void nd_local_mac(struct irdma_cm_core *core, u8 *mac)
{
	ether_addr_copy(mac, nd_of(core)->dev->dev_addr);
}

static u32 nd_mtu(struct irdma_cm_core *core)
{
	return READ_ONCE(nd_of(core)->dev->mtu);
}

/* ---- port reservations ---- */

static bool nd_listener_covers(struct irdma_cm_netdev *nd,
			       const struct irdma_cm_qhash *qh)
{
	struct nd_reservation *r;

	lockdep_assert_held(&nd->resv_lock);
	list_for_each_entry(r, &nd->resv, list)
		if (r->qh.type == IRDMA_QHASH_LISTEN &&
		    r->qh.loc.port == qh->loc.port &&
		    (ipv6_addr_any(&r->qh.loc.ip) ||
		     ipv6_addr_equal(&r->qh.loc.ip, &qh->loc.ip)))
			return true;
	return false;
}

static int nd_reserve(struct irdma_cm_netdev *nd,
		      const struct irdma_cm_qhash *qh, struct socket **sockp)
{
	struct sockaddr_storage ss = {};
	bool v4 = ipv6_addr_v4mapped(&qh->loc.ip);
	struct socket *sock;
	int ret, len;

	if (v4) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = qh->loc.ip.s6_addr32[3];
		sin->sin_port = htons(qh->loc.port);
		len = sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = qh->loc.ip;
		sin6->sin6_port = htons(qh->loc.port);
		if (ipv6_addr_type(&qh->loc.ip) & IPV6_ADDR_LINKLOCAL)
			sin6->sin6_scope_id = nd->dev->ifindex;
		len = sizeof(*sin6);
	}
	ret = sock_create_kern(nd->net, v4 ? AF_INET : AF_INET6, SOCK_STREAM,
			       IPPROTO_TCP, &sock);
	if (ret)
		return ret;
	ret = kernel_bind(sock, (struct sockaddr *)&ss, len);
	if (ret) {
		sock_release(sock);
		return ret;
	}
	*sockp = sock;
	return 0;
}

static int nd_qhash_add(struct irdma_cm_core *core,
			const struct irdma_cm_qhash *qh)
{
	struct irdma_cm_netdev *nd = nd_of(core);
	struct nd_reservation *r;
	int ret;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->qh = *qh;

	mutex_lock(&nd->resv_lock);
	/* A passive connection's port is its listener's, already held. */
	if (qh->type == IRDMA_QHASH_LISTEN || !nd_listener_covers(nd, qh)) {
		ret = nd_reserve(nd, qh, &r->sock);
		if (ret) {
			nd_count(nd, ND_PORT_RESERVE_FAIL);
			goto err;
		}
	}
	ret = irdma_qhash_insert(&nd->qhash, qh, GFP_KERNEL);
	if (ret)
		goto err;
	list_add(&r->list, &nd->resv);
	mutex_unlock(&nd->resv_lock);
	trace_madcm_cm_qhash(qh, true, 0);
	return 0;
err:
	mutex_unlock(&nd->resv_lock);
	trace_madcm_cm_qhash(qh, true, ret);
	if (r->sock)
		sock_release(r->sock);
	kfree(r);
	return ret;
}

static bool qh_equal(const struct irdma_cm_qhash *a,
		     const struct irdma_cm_qhash *b)
{
	return a->type == b->type && a->vlan_id == b->vlan_id &&
	       a->loc.port == b->loc.port &&
	       ipv6_addr_equal(&a->loc.ip, &b->loc.ip) &&
	       (a->type == IRDMA_QHASH_LISTEN ||
		(a->rem.port == b->rem.port &&
		 ipv6_addr_equal(&a->rem.ip, &b->rem.ip)));
}

static void nd_qhash_del(struct irdma_cm_core *core,
			 const struct irdma_cm_qhash *qh)
{
	struct irdma_cm_netdev *nd = nd_of(core);
	struct nd_reservation *r, *found = NULL;
	int ret;

	mutex_lock(&nd->resv_lock);
	ret = irdma_qhash_remove(&nd->qhash, qh);
	trace_madcm_cm_qhash(qh, false, ret);
	list_for_each_entry(r, &nd->resv, list) {
		if (qh_equal(&r->qh, qh)) {
			found = r;
			list_del(&r->list);
			break;
		}
	}
	mutex_unlock(&nd->resv_lock);
	if (found) {
		if (found->sock)
			sock_release(found->sock);
		kfree(found);
	}
}

static const struct irdma_cm_wire_ops nd_wire_ops = {
	.xmit = nd_xmit,
	.resolve = nd_resolve,
	.local_mac = nd_local_mac,
	.mtu = nd_mtu,
	.qhash_add = nd_qhash_add,
	.qhash_del = nd_qhash_del,
};

/* ---- receive ---- */

/* Hand one segment to the CM as an Ethernet frame; consumes @skb. */
static void nd_deliver_one(struct irdma_cm_netdev *nd, struct sk_buff *skb,
			   u16 vlan_id)
{
	u32 l2 = vlan_id != IRDMA_NO_VLAN ? VLAN_ETH_HLEN : ETH_HLEN;
	struct ethhdr *eth;
	u8 *frame;

	/* A segment from a local stack (veth) may still owe its checksum. */
	if (skb->ip_summed == CHECKSUM_PARTIAL) {
		if (skb_checksum_help(skb)) {
			nd_count(nd, ND_RX_DROP_CSUM);
			goto out;
		}
		nd_count(nd, ND_RX_CSUM_FIXED);
	}
	frame = kmalloc(l2 + skb->len, GFP_ATOMIC);
	if (!frame) {
		nd_count(nd, ND_RX_DROP_NOMEM);
		goto out;
	}
	eth = (struct ethhdr *)frame;
	if (skb_mac_header_was_set(skb) && skb_mac_header_len(skb) >= ETH_HLEN) {
		memcpy(eth->h_dest, eth_hdr(skb)->h_dest, ETH_ALEN);
		memcpy(eth->h_source, eth_hdr(skb)->h_source, ETH_ALEN);
	} else {
		eth_zero_addr(eth->h_dest);
		eth_zero_addr(eth->h_source);
	}
	if (vlan_id != IRDMA_NO_VLAN) {
		struct vlan_ethhdr *veth = (struct vlan_ethhdr *)frame;

		veth->h_vlan_proto = htons(ETH_P_8021Q);
		veth->h_vlan_TCI = htons(vlan_id);
		veth->h_vlan_encapsulated_proto = skb->protocol;
	} else {
		eth->h_proto = skb->protocol;
	}
	if (skb_copy_bits(skb, 0, frame + l2, skb->len)) {
		kfree(frame);
		nd_count(nd, ND_RX_DROP_NOMEM);
		goto out;
	}
	nd_count(nd, ND_RX_STOLEN);
	irdma_receive_ilq(nd->core, frame, l2 + skb->len);
	kfree(frame);
out:
	consume_skb(skb);
}

static void nd_deliver(struct irdma_cm_netdev *nd, struct sk_buff *skb,
		       u16 vlan_id)
{
	struct sk_buff *segs, *seg, *next;

	if (!skb_is_gso(skb)) {
		nd_deliver_one(nd, skb, vlan_id);
		return;
	}
	/* GRO merged several segments: give the CM each one as sent. */
	segs = skb_gso_segment(skb, 0);
	if (IS_ERR_OR_NULL(segs)) {
		nd_count(nd, ND_RX_DROP_GSO);
		kfree_skb(skb);
		return;
	}
	consume_skb(skb);
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		nd_count(nd, ND_RX_GSO_SEGS);
		nd_deliver_one(nd, seg, vlan_id);
	}
}

/* Read the addresses and ports of a TCP segment; false if it is none. */
static bool nd_tuple(struct sk_buff *skb, u8 pf, struct irdma_cm_addr *loc,
		     struct irdma_cm_addr *rem)
{
	struct tcphdr _th;
	const struct tcphdr *th;
	u32 thoff;

	if (pf == NFPROTO_IPV4) {
		const struct iphdr *iph = ip_hdr(skb);

		if (iph->protocol != IPPROTO_TCP || ip_is_fragment(iph))
			return false;
		thoff = iph->ihl * 4;
		ipv6_addr_set_v4mapped(iph->daddr, &loc->ip);
		ipv6_addr_set_v4mapped(iph->saddr, &rem->ip);
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		if (ip6h->nexthdr != IPPROTO_TCP)
			return false;
		thoff = sizeof(*ip6h);
		loc->ip = ip6h->daddr;
		rem->ip = ip6h->saddr;
	}
	th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
	if (!th)
		return false;
	loc->port = ntohs(th->dest);
	rem->port = ntohs(th->source);
	return true;
}

static unsigned int nd_hook(void *priv, struct sk_buff *skb,
			    const struct nf_hook_state *state)
{
	struct irdma_cm_netdev *nd = priv;
	struct net_device *in = state->in;
	struct irdma_cm_addr loc, rem;
	enum irdma_qhash_type type;
	u16 vlan_id = IRDMA_NO_VLAN;

	if (in != nd->dev) {
		if (!is_vlan_dev(in) || vlan_dev_real_dev(in) != nd->dev)
			return NF_ACCEPT;
		vlan_id = vlan_dev_vlan_id(in);
	}
	if (!nd_tuple(skb, state->pf, &loc, &rem))
		return NF_ACCEPT;
	if (!irdma_qhash_match(&nd->qhash, &loc, &rem, vlan_id, &type)) {
		trace_madcm_cm_steer(&loc, &rem, vlan_id, false, type);
		return NF_ACCEPT;
	}
	trace_madcm_cm_steer(&loc, &rem, vlan_id, true, type);
	nd_deliver(nd, skb, vlan_id);
	return NF_STOLEN;
}

/* ---- attach, detach, device events ---- */

static struct irdma_cm_netdev *nd_find(struct net *net, const char *ifname)
{
	struct irdma_cm_netdev *nd;

	lockdep_assert_held(&nd_mutex);
	list_for_each_entry(nd, &nd_list, list)
		if (net_eq(nd->net, net) && !strcmp(nd->dev->name, ifname))
			return nd;
	return NULL;
}

static void (*nd_gone_cb)(struct irdma_cm_core *core);

/**
 * irdma_cm_netdev_set_gone_cb() - learn when a core goes away by itself
 * @cb: called, in process context, after a core was freed because its
 *	device was unregistered or the module is unloading (not after
 *	irdma_cm_netdev_detach()); the pointer only identifies the core
 */
void irdma_cm_netdev_set_gone_cb(void (*cb)(struct irdma_cm_core *core))
{
	nd_gone_cb = cb;
}

static void nd_free(struct irdma_cm_netdev *nd, bool notify)
{
	struct irdma_cm_core *core = nd->core;
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
	if (notify && nd_gone_cb)
		nd_gone_cb(core);
}

/**
 * irdma_cm_netdev_attach() - run a CM on a net_device
 * @net: the namespace the device is in
 * @ifname: the device's name
 * @cfg: the core's tunables, or NULL for the defaults
 *
 * Creates a cm_core whose wire is the device, and starts stealing the
 * segments the core's steering entries name.
 *
 * Context: Process context; takes the RTNL lock.
 * Return: 0, -ENODEV, -EEXIST when a CM already runs on it, -EINVAL for a
 * device that is not Ethernet, or another negative errno.
 */
int irdma_cm_netdev_attach(struct net *net, const char *ifname,
			   const struct irdma_cm_config *cfg)
{
	struct irdma_cm_netdev *nd;
	struct net_device *dev;
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
	if (nd_find(net, ifname))
		goto err_unlock;
	ret = -ENODEV;
	dev = dev_get_by_name(net, ifname);
	if (!dev)
		goto err_unlock;
	netdev_tracker_alloc(dev, &nd->dev_tracker, GFP_KERNEL);
	nd->dev = dev;
	nd->net = dev_net(dev);
	ret = -EINVAL;
	if (dev->type != ARPHRD_ETHER)
		goto err_put;
	nd->core = irdma_setup_cm_core(&nd_wire_ops, nd, cfg);
	if (IS_ERR(nd->core)) {
		ret = PTR_ERR(nd->core);
		goto err_put;
	}
	for (i = 0; i < ARRAY_SIZE(nd->hooks); i++) {
		nd->hooks[i].hook = nd_hook;
		nd->hooks[i].priv = nd;
		nd->hooks[i].hooknum = NF_INET_PRE_ROUTING;
		nd->hooks[i].priority = INT_MIN;
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
 * @net: the namespace the device is in
 * @ifname: the device's name
 *
 * Resets every connection (their consumers get their terminal events),
 * releases the steering entries and reserved ports and frees the core.
 *
 * Context: Process context.
 * Return: 0 or -ENODEV when no CM runs on such a device.
 */
int irdma_cm_netdev_detach(struct net *net, const char *ifname)
{
	struct irdma_cm_netdev *nd;

	mutex_lock(&nd_mutex);
	nd = nd_find(net, ifname);
	if (nd)
		list_del(&nd->list);
	mutex_unlock(&nd_mutex);
	if (!nd)
		return -ENODEV;
	netdev_info(nd->dev, "madcm: CM detached\n");
	nd_free(nd, false);
	return 0;
}

/**
 * irdma_cm_netdev_core_get() - the CM core running on a device
 * @net: the namespace the device is in
 * @ifname: the device's name
 *
 * The core stays valid until the device is detached; callers (the control
 * interface) serialise with detach through their own lock.
 *
 * Return: the core, or NULL.
 */
struct irdma_cm_core *irdma_cm_netdev_core_get(struct net *net,
					       const char *ifname)
{
	struct irdma_cm_netdev *nd;

	mutex_lock(&nd_mutex);
	nd = nd_find(net, ifname);
	mutex_unlock(&nd_mutex);
	return nd ? nd->core : NULL;
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
		nd_free(nd, true);
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
		nd_free(nd, true);
}
