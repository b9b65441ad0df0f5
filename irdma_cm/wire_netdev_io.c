// SPDX-License-Identifier: GPL-2.0-only
/*
 * The netdev backend's data path (the device lifetime is wire_netdev.c).
 *
 * Receive: a netfilter hook at LOCAL_IN, last in line before conntrack's
 * confirmation, looks each TCP segment arriving on the device (or on a
 * VLAN device above it) up in the steering table. By then the host has
 * routed the packet to itself (a forwarded or bridged packet never gets
 * here, so a wildcard listener takes nothing addressed to another
 * machine), applied rp_filter and its firewall's input chains (a rule
 * that drops a port drops it for the CM too), and reassembled IPv4
 * fragments. A segment the CM owns is taken (NF_STOLEN) and handed to the
 * CM as a whole Ethernet frame; everything else goes on to the host stack
 * untouched. So the host never answers, with a RST or otherwise, on a
 * 4-tuple the CM owns, and the CM never sees a segment that is not its
 * own. IPv6 fragments are the exception: the host reassembles them after
 * LOCAL_IN and hands the whole to TCP without passing LOCAL_IN again, so
 * the hook drops (and counts) the first fragment of a segment the CM owns,
 * the one that holds its ports. The host's reassembly then never
 * completes, and it stays silent: RFC 8200 4.5 sends no Time Exceeded for
 * a datagram whose first fragment never came.
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
 * Connections to the host itself: an address of this host (of the
 * device, or of another device, such as a second madcm device's) resolves
 * to the device's own MAC, and a frame to that MAC is looped back, as an
 * RNIC loops such a connection in the adapter: netif_rx() delivers it on
 * the loopback device, as the host's packets to itself come in, so that
 * routing accepts its local source and the firewall and the LOCAL_IN hook
 * see it as any other. The hook takes a looped segment for a steering
 * entry of its own whose local address is its device's: the connection's
 * other end, on this core or on the core of the device it is addressed
 * to. Not on a VLAN. Once the QP takes a stream on the host's TCP, its
 * socket reaches the other end through the loopback as any host socket
 * does; the pass entry lets those segments by.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/tcp.h>
#include <net/addrconf.h>
#include <net/arp.h>
#include <net/inet_connection_sock.h>
#include <net/inet_hashtables.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <net/route.h>
#include <net/sock.h>
#include "madcm_compat.h"
#include "irdma_cm/cm_trace.h"
#include "irdma_cm/wire_netdev_priv.h"

/* ---- transmit ---- */

/*
 * The device of this host that holds @addr in @net (an IPv4-mapped
 * address for IPv4), or NULL. Caller holds rcu_read_lock.
 */
static struct net_device *nd_addr_owner(struct net *net,
					const struct in6_addr *addr)
{
	struct net_device *dev;

	if (ipv6_addr_v4mapped(addr))
		return __ip_dev_find(net, addr->s6_addr32[3], false);
	/* the host's hash first: most addresses are not its own */
	if (!ipv6_chk_addr(net, addr, NULL, 0))
		return NULL;
	for_each_netdev_rcu(net, dev)
		if (ipv6_chk_addr(net, addr, dev, 1))
			return dev;
	return NULL;
}

/**
 * madcm_cm_netdev_loop_rx() - receive a frame of this host to itself
 * @net: the namespace whose loopback device takes it
 * @skb: a whole Ethernet frame (skb->data at its Ethernet header, no
 *	802.1Q tag), of a connection between two addresses of this host
 *
 * The frame comes in on @net's loopback device, as the host's own packets
 * to itself do: routing takes its local source (a device would drop it as
 * a martian), and the firewall's input chains and the CM's LOCAL_IN hook
 * see it as any other; the hook takes it for the connection's end whose
 * local address is its device's. The backlog's softirq delivers it, never
 * the caller's stack. Its checksums must be whole. The netdev backend
 * loops the CM's frames to this host this way, and an RNIC gives back to
 * the host the frames of such a connection the CM passed it. @skb is
 * consumed.
 *
 * Context: Any context.
 * Return: 0, or a negative errno when the frame was dropped (an IPv4 or
 * IPv6 destination that is not this host's: -ENETUNREACH; a backlog that
 * is full: -ENOBUFS).
 */
int madcm_cm_netdev_loop_rx(struct net *net, struct sk_buff *skb)
{
	skb->protocol = eth_type_trans(skb, net->loopback_dev);
	skb->pkt_type = PACKET_HOST;
	skb->ip_summed = CHECKSUM_NONE;
	/*
	 * IPv4's input route takes a local source for a martian, on lo too:
	 * the host's own packets come with the route their output took, and
	 * so does this one.
	 */
	if (skb->protocol == htons(ETH_P_IP)) {
		const struct iphdr *iph = (const struct iphdr *)skb->data;
		struct flowi4 fl4 = {};
		struct rtable *rt;

		if (skb->len < sizeof(*iph)) {
			kfree_skb(skb);
			return -ENETUNREACH;
		}
		fl4.daddr = iph->daddr;
		fl4.saddr = iph->saddr;
		rt = ip_route_output_key(net, &fl4);
		if (IS_ERR(rt) || rt->rt_type != RTN_LOCAL) {
			if (!IS_ERR(rt))
				ip_rt_put(rt);
			kfree_skb(skb);
			return -ENETUNREACH;
		}
		skb_dst_set(skb, &rt->dst);
	}
	/*
	 * IPv6 takes the input device from the route the packet carries
	 * (IP6CB()->iif), else from lo: the host's own packets carry the
	 * local route of their address, whose device is the address's, and
	 * a socket bound to that device takes them. Without the route such
	 * a socket (the RNIC's, bound to its device) was not found, and
	 * TCP reset the stream (66-rnic-loopback's IPv6 rping).
	 */
	if (skb->protocol == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *ip6h = (const struct ipv6hdr *)skb->data;
		struct flowi6 fl6 = {};
		struct dst_entry *dst;

		if (skb->len < sizeof(*ip6h)) {
			kfree_skb(skb);
			return -ENETUNREACH;
		}
		fl6.daddr = ip6h->daddr;
		fl6.saddr = ip6h->saddr;
		dst = ip6_route_output(net, NULL, &fl6);
		if (dst->error ||
		    !(dst_rt6_info(dst)->rt6i_flags & RTF_LOCAL)) {
			dst_release(dst);
			kfree_skb(skb);
			return -ENETUNREACH;
		}
		skb_dst_set(skb, dst);
	}
	return netif_rx(skb) == NET_RX_SUCCESS ? 0 : -ENOBUFS;
}
EXPORT_SYMBOL_GPL(madcm_cm_netdev_loop_rx);

/* A frame to this host (nd_resolve() gave it our own MAC): loop it back. */
static int nd_loop(struct irdma_cm_netdev *nd, struct sk_buff *skb)
{
	int ret = madcm_cm_netdev_loop_rx(nd->net, skb);

	nd_count(nd, ret ? ND_TX_DROP_DEV : ND_TX_LOOPED);
	return ret ? -EIO : 0;
}

static int nd_xmit(struct irdma_cm_core *core, const u8 *frame, u32 len)
{
	struct irdma_cm_netdev *nd = nd_of(core);
	struct net_device *dev = nd->dev;
	struct sk_buff *skb;
	u32 l2 = ETH_HLEN;
	__be16 proto;

	if (len < ETH_HLEN)
		return -EINVAL;
	proto = get_unaligned(&((const struct ethhdr *)frame)->h_proto);
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
	/* To this host (nd_resolve() gave our own MAC): loop it back. */
	if (proto != htons(ETH_P_8021Q) &&
	    ether_addr_equal(((const struct ethhdr *)frame)->h_dest,
			     dev->dev_addr))
		return nd_loop(nd, skb);
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

/*
 * @rem is an address of this host, on @owner: its frames go to our own
 * MAC, which nd_xmit() loops back. Not for a connection on a VLAN (its
 * tag would not survive the loopback device), nor to the loopback
 * device's own addresses. Caller holds rcu_read_lock.
 */
static int nd_resolve_local(struct irdma_cm_netdev *nd,
			    struct net_device *owner, u16 vlan_id, u8 *mac)
{
	if (vlan_id != IRDMA_NO_VLAN || owner->flags & IFF_LOOPBACK)
		return -ENETUNREACH;
	ether_addr_copy(mac, nd->dev->dev_addr);
	nd_count(nd, ND_RESOLVE_LOCAL);
	return 0;
}

static int nd_resolve(struct irdma_cm_core *core, const struct in6_addr *rem,
		      u16 vlan_id, u8 *mac)
{
	struct irdma_cm_netdev *nd = nd_of(core);
	struct net_device *dev, *owner;
	int ret;

	rcu_read_lock();
	dev = nd_out_dev(nd, vlan_id);
	owner = dev ? nd_addr_owner(nd->net, rem) : NULL;
	if (!dev || !netif_running(dev))
		ret = -ENETDOWN;
	else if (owner)
		ret = nd_resolve_local(nd, owner, vlan_id, mac);
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

static bool nd_ipv4_any(const struct in6_addr *ip)
{
	return ipv6_addr_v4mapped(ip) && !ip->s6_addr32[3];
}

/* Does listener reservation @r hold the local address and port of @qh? */
static bool nd_resv_covers(const struct nd_reservation *r,
			   const struct irdma_cm_qhash *qh)
{
	const struct in6_addr *ip = &qh->loc.ip;

	if (r->qh.type != IRDMA_QHASH_LISTEN ||
	    r->qh.loc.port != qh->loc.port || r->qh.vlan_id != qh->vlan_id)
		return false;
	if (ipv6_addr_equal(&r->qh.loc.ip, ip))
		return true;
	if (nd_ipv4_any(&r->qh.loc.ip))
		return ipv6_addr_v4mapped(ip);
	if (ipv6_addr_any(&r->qh.loc.ip))
		return !ipv6_addr_v4mapped(ip) || r->dual;
	return false;
}

static bool nd_listener_covers(struct irdma_cm_netdev *nd,
			       const struct irdma_cm_qhash *qh)
{
	struct nd_reservation *r;

	lockdep_assert_held(&nd->resv_lock);
	list_for_each_entry(r, &nd->resv, list)
		if (nd_resv_covers(r, qh))
			return true;
	return false;
}

/*
 * The device a reservation is bound to, as SO_BINDTODEVICE binds a
 * socket: the attached device, or the VLAN device of @vlan_id above it.
 * Return: its ifindex, or 0 when that VLAN device does not exist.
 */
static int nd_resv_ifindex(struct irdma_cm_netdev *nd, u16 vlan_id)
{
	struct net_device *dev;
	int ifindex = 0;

	rcu_read_lock();
	dev = nd_out_dev(nd, vlan_id);
	if (dev)
		ifindex = dev->ifindex;
	rcu_read_unlock();
	return ifindex;
}

/*
 * Hold @qh's local address and port in the host stack with a bound, not
 * listening, socket bound to the device the entry steers from (the VLAN
 * device for a VLAN entry), so the port is taken there only: a host
 * socket bound to another device may use it, an unbound one may not.
 * An entry on :: is reserved by an AF_INET6 socket that takes its
 * IPV6_V6ONLY from net.ipv6.bindv6only, as a host socket would.
 */
static int nd_reserve(struct irdma_cm_netdev *nd,
		      const struct irdma_cm_qhash *qh, struct socket **sockp)
{
	struct sockaddr_storage ss = {};
	bool v4 = ipv6_addr_v4mapped(&qh->loc.ip);
	struct socket *sock;
	int ret, len, ifindex;

	ifindex = nd_resv_ifindex(nd, qh->vlan_id);
	if (!ifindex)
		return -ENODEV;
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
			sin6->sin6_scope_id = ifindex;
		len = sizeof(*sin6);
	}
	ret = sock_create_kern(nd->net, v4 ? AF_INET : AF_INET6, SOCK_STREAM,
			       IPPROTO_TCP, &sock);
	if (ret)
		return ret;
	/*
	 * SO_REUSEADDR: a connection the host's TCP carries for the RNIC
	 * (rnic/qp_sock.c) holds the port too, with SO_REUSEADDR, while
	 * ESTABLISHED and in its TIME-WAIT; a listener made again on the
	 * port meanwhile must still bind. A host socket without it still
	 * cannot bind, and none can listen on the port (listen checks
	 * again, without reuse).
	 */
	sock_set_reuseaddr(sock->sk);
	ret = sock_bindtoindex(sock->sk, ifindex, true);
	if (!ret)
		ret = kernel_bind(sock, (struct sockaddr *)&ss, len);
	if (ret) {
		sock_release(sock);
		return ret;
	}
	*sockp = sock;
	return 0;
}

/* The IPv4 wildcard entry of a dual-stack listener on ::. */
static const struct irdma_cm_qhash *nd_ipv4_twin(const struct irdma_cm_qhash *qh,
						 struct irdma_cm_qhash *twin)
{
	*twin = *qh;
	ipv6_addr_set_v4mapped(htonl(INADDR_ANY), &twin->loc.ip);
	return twin;
}

/*
 * A connection handed to an offload QP, or taken back for TIME-WAIT:
 * this backend steers to the core either way (the core passes an
 * offloaded connection's frames to its QP), so only the target recorded
 * changes.
 */
static int nd_qhash_retarget(struct irdma_cm_netdev *nd,
			     const struct irdma_cm_qhash *qh)
{
	struct nd_reservation *r;
	int ret = -ENOENT;

	mutex_lock(&nd->resv_lock);
	list_for_each_entry(r, &nd->resv, list) {
		if (irdma_cm_qhash_equal(&r->qh, qh)) {
			r->qh.target = qh->target;
			ret = 0;
			break;
		}
	}
	mutex_unlock(&nd->resv_lock);
	return ret;
}

/*
 * An entry taken over by a new connection of its 4-tuple
 * (irdma_cm_conn_qhash_add()) that the host's TCP had (nd_qhash_host()):
 * it steers to the core again.
 */
static int nd_qhash_unhost(struct irdma_cm_netdev *nd,
			   const struct irdma_cm_qhash *qh)
{
	struct irdma_cm_qhash host = *qh;
	int ret = 0;

	host.type = IRDMA_QHASH_HOST;
	mutex_lock(&nd->resv_lock);
	if (irdma_qhash_has(&nd->qhash, &host)) {
		ret = irdma_qhash_insert(&nd->qhash, qh, GFP_KERNEL);
		if (!ret)
			irdma_qhash_remove(&nd->qhash, &host);
	}
	mutex_unlock(&nd->resv_lock);
	return ret;
}

static int nd_qhash_add(struct irdma_cm_core *core,
			const struct irdma_cm_qhash *qh)
{
	struct irdma_cm_netdev *nd = nd_of(core);
	struct irdma_cm_qhash twin;
	struct nd_reservation *r;
	int ret;

	/*
	 * Aimed at a QP, the entry stays as it is, a pass entry too: the
	 * CM's retarget may come after the host's TCP took the stream.
	 * Without a target, a new connection of the 4-tuple takes it over.
	 */
	if (qh->type == IRDMA_QHASH_CONN && !nd_qhash_retarget(nd, qh))
		return qh->target ? 0 : nd_qhash_unhost(nd, qh);
	if (qh->target)
		return -ENOENT;
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
	/* A dual-stack reservation on :: steers IPv4 too. */
	r->dual = qh->type == IRDMA_QHASH_LISTEN &&
		  ipv6_addr_any(&qh->loc.ip) && !ipv6_only_sock(r->sock->sk);
	if (r->dual) {
		ret = irdma_qhash_insert(&nd->qhash, nd_ipv4_twin(qh, &twin),
					 GFP_KERNEL);
		if (ret) {
			irdma_qhash_remove(&nd->qhash, qh);
			goto err;
		}
	}
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

/*
 * The connection's segments go to the host's stack from now on: its
 * entry becomes a pass entry (irdma_qhash_match() answers "not the CM's"
 * before it looks at the listeners). The port reservation stays until
 * nd_qhash_del(), which removes both entries.
 */
static int nd_qhash_host(struct irdma_cm_core *core,
			 const struct irdma_cm_qhash *qh)
{
	struct irdma_cm_netdev *nd = nd_of(core);
	struct irdma_cm_qhash host = *qh;
	int ret;

	if (qh->type != IRDMA_QHASH_CONN)
		return -EINVAL;
	host.type = IRDMA_QHASH_HOST;
	mutex_lock(&nd->resv_lock);
	ret = irdma_qhash_insert(&nd->qhash, &host, GFP_KERNEL);
	if (!ret)
		irdma_qhash_remove(&nd->qhash, qh);
	mutex_unlock(&nd->resv_lock);
	return ret;
}

static void nd_qhash_del(struct irdma_cm_core *core,
			 const struct irdma_cm_qhash *qh)
{
	struct irdma_cm_netdev *nd = nd_of(core);
	struct nd_reservation *r, *found = NULL;
	struct irdma_cm_qhash twin;
	int ret;

	mutex_lock(&nd->resv_lock);
	ret = irdma_qhash_remove(&nd->qhash, qh);
	if (qh->type == IRDMA_QHASH_CONN) {
		twin = *qh;
		twin.type = IRDMA_QHASH_HOST;
		if (!irdma_qhash_remove(&nd->qhash, &twin))
			ret = 0;
	}
	trace_madcm_cm_qhash(qh, false, ret);
	list_for_each_entry(r, &nd->resv, list) {
		if (irdma_cm_qhash_equal(&r->qh, qh)) {
			found = r;
			list_del(&r->list);
			break;
		}
	}
	if (found && found->dual)
		irdma_qhash_remove(&nd->qhash, nd_ipv4_twin(qh, &twin));
	mutex_unlock(&nd->resv_lock);
	if (found) {
		if (found->sock)
			sock_release(found->sock);
		kfree(found);
	}
}

/*
 * What a reservation socket takes: its sock, from its protocol's cache
 * (a tcp_sock or tcp6_sock), the socket and inode allocated with it (a
 * socket_alloc from the cache-line aligned sock_inode_cache), and the
 * two bind buckets of the port it holds in the host's tables (the
 * connection's own ephemeral port: a socket on it shares them later,
 * but they were made for the reservation).
 */
static size_t nd_sock_mem(const struct socket *sock)
{
	const struct sock *sk = sock->sk;
	const struct inet_connection_sock *icsk = inet_csk(sk);
	const struct inet_hashinfo *hinfo = tcp_or_dccp_get_hashinfo(sk);
	const struct proto *prot = sk->sk_prot_creator;
	size_t n = ALIGN(sizeof(struct socket_alloc), L1_CACHE_BYTES);

	n += prot->slab ? kmem_cache_size(prot->slab) : prot->obj_size;
	if (icsk->icsk_bind_hash)
		n += kmem_cache_size(hinfo->bind_bucket_cachep);
	if (icsk->icsk_bind2_hash)
		n += kmem_cache_size(hinfo->bind2_bucket_cachep);
	return n;
}

/*
 * The memory the backend holds for a connection: its steering entry
 * (the CM's, or the pass entry once the host's TCP carries the stream),
 * its reservation record, and the reservation socket when its port is
 * not a listener's.
 */
static size_t nd_qhash_mem(struct irdma_cm_core *core,
			   const struct irdma_cm_qhash *qh)
{
	struct irdma_cm_netdev *nd = nd_of(core);
	struct irdma_cm_qhash host = *qh;
	struct nd_reservation *r;
	size_t n;

	host.type = IRDMA_QHASH_HOST;
	mutex_lock(&nd->resv_lock);
	n = irdma_qhash_mem(&nd->qhash, qh) + irdma_qhash_mem(&nd->qhash, &host);
	list_for_each_entry(r, &nd->resv, list) {
		if (irdma_cm_qhash_equal(&r->qh, qh)) {
			n += ksize(r);
			if (r->sock)
				n += nd_sock_mem(r->sock);
			break;
		}
	}
	mutex_unlock(&nd->resv_lock);
	return n;
}

/* The range and the reserved ports of the device's namespace, as connect(). */
static void nd_local_ports(struct irdma_cm_core *core, u16 *lo, u16 *hi)
{
	int low, high;

	inet_get_local_port_range(nd_of(core)->net, &low, &high);
	*lo = low;
	*hi = high;
}

static bool nd_port_reserved(struct irdma_cm_core *core, u16 port)
{
	return inet_is_local_reserved_port(nd_of(core)->net, port);
}

const struct irdma_cm_wire_ops irdma_cm_nd_wire_ops = {
	.xmit = nd_xmit,
	.resolve = nd_resolve,
	.local_mac = nd_local_mac,
	.mtu = nd_mtu,
	.qhash_add = nd_qhash_add,
	.qhash_del = nd_qhash_del,
	.qhash_host = nd_qhash_host,
	.local_ports = nd_local_ports,
	.port_reserved = nd_port_reserved,
	.qhash_mem = nd_qhash_mem,
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

/*
 * The offset of the TCP header behind the IPv6 header and its extension
 * headers, with the rules of the CM's parser (irdma_cm_parse_seg()):
 * Hop-by-Hop first only, Destination Options, a Routing header with no
 * segments left. A Fragment header of offset 0 (RFC 8200 4.5: the first
 * fragment, which holds the TCP header) sets @frag; a later fragment
 * has no ports to read. False if the packet is no such segment.
 */
static bool nd_ipv6_tcp(struct sk_buff *skb, u8 next, u32 *thoff,
			bool *frag)
{
	u32 off = skb_network_offset(skb) + sizeof(struct ipv6hdr);
	bool first = true;
	u8 _h[4];
	const u8 *h;

	while (next != IPPROTO_TCP) {
		if ((next == NEXTHDR_HOP && !first) ||
		    (next != NEXTHDR_HOP && next != NEXTHDR_DEST &&
		     next != NEXTHDR_ROUTING && next != NEXTHDR_FRAGMENT))
			return false;
		h = skb_header_pointer(skb, off, sizeof(_h), _h);
		if (!h || (next == NEXTHDR_ROUTING && h[3]))
			return false;
		if (next == NEXTHDR_FRAGMENT) {
			/* Offset: the 13 high bits of octets 2 and 3. */
			if (get_unaligned_be16(h + 2) & ~7)
				return false;
			*frag = true;
			next = h[0];
			off += 8;	/* a Fragment header's fixed length */
		} else {
			next = h[0];
			off += ((u32)h[1] + 1) * 8;
		}
		first = false;
	}
	*thoff = off - skb_network_offset(skb);
	return true;
}

/*
 * Read the addresses and ports of a TCP segment; false if it is none.
 * @frag: set for the first fragment of an IPv6 segment.
 */
static bool nd_tuple(struct sk_buff *skb, u8 pf, struct irdma_cm_addr *loc,
		     struct irdma_cm_addr *rem, bool *frag)
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

		if (!nd_ipv6_tcp(skb, ip6h->nexthdr, &thoff, frag))
			return false;
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

/**
 * irdma_cm_nd_hook() - the LOCAL_IN hook: steal the CM's segments
 * @priv: the struct irdma_cm_netdev
 * @skb: the packet
 * @state: the hook's state
 *
 * Return: NF_STOLEN for a TCP segment a steering entry matches (it goes
 * to the CM), NF_DROP for the first IPv6 fragment of one (counted:
 * rx_drop_frag6), NF_ACCEPT for anything else.
 */
unsigned int irdma_cm_nd_hook(void *priv, struct sk_buff *skb,
			      const struct nf_hook_state *state)
{
	struct irdma_cm_netdev *nd = priv;
	struct net_device *in = state->in;
	struct irdma_cm_addr loc, rem;
	enum irdma_qhash_type type;
	u16 vlan_id = IRDMA_NO_VLAN;
	bool looped = false;
	bool frag = false;

	if (in != nd->dev) {
		looped = in == nd->net->loopback_dev;
		if (!looped &&
		    (!is_vlan_dev(in) || vlan_dev_real_dev(in) != nd->dev))
			return NF_ACCEPT;
		if (!looped)
			vlan_id = vlan_dev_vlan_id(in);
	}
	if (!nd_tuple(skb, state->pf, &loc, &rem, &frag))
		return NF_ACCEPT;
	if (!irdma_qhash_match(&nd->qhash, &loc, &rem, vlan_id, &type)) {
		if (!looped)
			trace_madcm_cm_steer(&loc, &rem, vlan_id, false, type);
		return NF_ACCEPT;
	}
	/*
	 * From the loopback device: a connection to this host (nd_loop()),
	 * if it is to an address of our device; the host's own traffic to
	 * itself otherwise (127.0.0.1, another device's address).
	 */
	if (looped && nd_addr_owner(nd->net, &loc.ip) != nd->dev)
		return NF_ACCEPT;
	trace_madcm_cm_steer(&loc, &rem, vlan_id, true, type);
	if (frag) {
		nd_count(nd, ND_RX_DROP_FRAG6);
		return NF_DROP;
	}
	nd_deliver(nd, skb, vlan_id);
	return NF_STOLEN;
}
