// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the CM's way in. madcm_cm_get_core() finds the core of a
 * net_device the CM runs on and counts the reference; a device without a
 * CM has none; a core whose device is detached or unregistered while held
 * stays a valid handle whose calls fail, until its last holder puts it.
 * The devices are Ethernet devices of the test's own, registered in
 * init_net, that drop what they are asked to send.
 *
 * madcm_cm_netdev_steer: what the netdev backend's steering entries give
 * the CM once a stream is the host's TCP's (madcm_cm_offload_unsteer()).
 *
 * madcm_cm_netdev_loopback: a connection to the host itself (issue 31,
 * item 7). The kernel routes an address of its own through lo, whatever
 * device holds it (RFC 1122 3.3.4.2 leaves local delivery to the host),
 * so the backend must neither look for a next hop on the wire nor send
 * the frame there: the address resolves to the device's own MAC, and a
 * frame to that MAC comes back in through the loopback device.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if.h>
#include <linux/in.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <net/inet_hashtables.h>
#include <net/ipv6.h>
#include <madcm/cm.h>
#include <madcm/cm_backend.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/wire_netdev_priv.h"

/* Frames the test devices were asked to send, all of them. */
static atomic_t get_core_sent = ATOMIC_INIT(0);

static netdev_tx_t get_core_xmit(struct sk_buff *skb, struct net_device *dev)
{
	atomic_inc(&get_core_sent);
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops get_core_netdev_ops = {
	.ndo_start_xmit = get_core_xmit,
};

static struct net_device *get_core_netdev(struct kunit *test)
{
	struct net_device *dev = alloc_etherdev(0);

	KUNIT_ASSERT_NOT_NULL(test, dev);
	dev->netdev_ops = &get_core_netdev_ops;
	eth_hw_addr_random(dev);
	strscpy(dev->name, "mcmtest%d", sizeof(dev->name));
	if (register_netdev(dev)) {
		free_netdev(dev);
		KUNIT_FAIL(test, "register_netdev failed");
		return NULL;
	}
	return dev;
}

static void get_core_netdev_free(struct net_device *dev)
{
	unregister_netdev(dev);
	free_netdev(dev);
}

static unsigned int get_core_refs(struct madcm_cm_core *core)
{
	return refcount_read(&core->refs);
}

/* A registered device nothing is attached to has no core. */
static void cm_get_core_unknown_netdev(struct kunit *test)
{
	struct net_device *dev = get_core_netdev(test);
	struct madcm_cm_core *core;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	core = madcm_cm_get_core(dev);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(core), -ENODEV);
	KUNIT_EXPECT_EQ(test, madcm_cm_netdev_detach(dev), -ENODEV);
	get_core_netdev_free(dev);
}

/*
 * Every get finds the same core and adds one reference to the backend's;
 * every put takes one away.
 */
static void cm_get_core_counts(struct kunit *test)
{
	struct net_device *dev = get_core_netdev(test);
	struct madcm_cm_core *a, *b;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_EQ(test, madcm_cm_netdev_attach(dev, NULL), 0);
	KUNIT_EXPECT_EQ(test, madcm_cm_netdev_attach(dev, NULL), -EEXIST);
	a = madcm_cm_get_core(dev);
	b = madcm_cm_get_core(dev);
	KUNIT_EXPECT_FALSE(test, IS_ERR(a));
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	if (!IS_ERR(a) && a == b) {
		KUNIT_EXPECT_EQ(test, get_core_refs(a), 3);
		madcm_cm_put_core(b);
		KUNIT_EXPECT_EQ(test, get_core_refs(a), 2);
		madcm_cm_put_core(a);
		KUNIT_EXPECT_EQ(test, get_core_refs(a), 1);
	}
	KUNIT_EXPECT_EQ(test, madcm_cm_netdev_detach(dev), 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(madcm_cm_get_core(dev)), -ENODEV);
	get_core_netdev_free(dev);
}

static void get_core_handler(const struct madcm_cm_event *ev, void *context)
{
}

/* What a holder of a stopped core can still do: nothing that starts. */
static void get_core_expect_stopped(struct kunit *test,
				    struct madcm_cm_core *core)
{
	struct madcm_cm_listen_attr la = {
		.addr = { .ip = IN6ADDR_ANY_INIT, .port = 4791 },
		.vlan_id = MADCM_CM_NO_VLAN,
		.mpa_rev = 2,
		.handler = get_core_handler,
	};
	struct madcm_cm_connect_attr ca = {
		.rem = { .port = 4791 },
		.vlan_id = MADCM_CM_NO_VLAN,
		.mpa_rev = 2,
		.handler = get_core_handler,
	};
	struct madcm_cm_listener *l;
	struct madcm_cm_conn *conn;

	ipv6_addr_set_v4mapped(htonl(0xc0000201), &ca.loc.ip);
	ipv6_addr_set_v4mapped(htonl(0xc0000202), &ca.rem.ip);
	KUNIT_EXPECT_EQ(test, madcm_cm_create_listener(core, &la, &l),
			-ESHUTDOWN);
	KUNIT_EXPECT_EQ(test, madcm_cm_connect(core, &ca, &conn), -ESHUTDOWN);
	/* Only the holder's reference is left. */
	KUNIT_EXPECT_EQ(test, get_core_refs(core), 1);
}

/*
 * The device is unregistered while a consumer holds its core: the CM
 * detaches by itself, the core stops, and the handle stays valid (KASAN
 * watches) until the holder puts it.
 */
static void cm_get_core_device_gone(struct kunit *test)
{
	struct net_device *dev = get_core_netdev(test);
	struct madcm_cm_core *core;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_EQ(test, madcm_cm_netdev_attach(dev, NULL), 0);
	core = madcm_cm_get_core(dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(core));
	unregister_netdev(dev);
	get_core_expect_stopped(test, core);
	madcm_cm_put_core(core);
	free_netdev(dev);
}

/* The same after an explicit detach; the device itself stays. */
static void cm_get_core_detached(struct kunit *test)
{
	struct net_device *dev = get_core_netdev(test);
	struct madcm_cm_core *core;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_EQ(test, madcm_cm_netdev_attach(dev, NULL), 0);
	core = madcm_cm_get_core(dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(core));
	KUNIT_EXPECT_EQ(test, madcm_cm_netdev_detach(dev), 0);
	get_core_expect_stopped(test, core);
	madcm_cm_put_core(core);
	/* A new attach makes a new core. */
	KUNIT_EXPECT_EQ(test, madcm_cm_netdev_attach(dev, NULL), 0);
	KUNIT_EXPECT_EQ(test, madcm_cm_netdev_detach(dev), 0);
	get_core_netdev_free(dev);
}

static int get_core_xmit_op(struct madcm_cm_core *core, const u8 *frame,
			    u32 len)
{
	return 0;
}

/* A backend without the required ops gets no core. */
static void cm_backend_register_needs_ops(struct kunit *test)
{
	static const struct madcm_cm_backend_ops partial = {
		.xmit = get_core_xmit_op,
	};

	KUNIT_EXPECT_EQ(test,
			PTR_ERR(madcm_cm_backend_register(&partial, NULL, NULL)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(madcm_cm_backend_register(NULL, NULL, NULL)),
			-EINVAL);
}

static struct kunit_case cm_get_core_cases[] = {
	KUNIT_CASE(cm_get_core_unknown_netdev),
	KUNIT_CASE(cm_get_core_counts),
	KUNIT_CASE(cm_get_core_device_gone),
	KUNIT_CASE(cm_get_core_detached),
	KUNIT_CASE(cm_backend_register_needs_ops),
	{}
};

static struct kunit_suite cm_get_core_suite = {
	.name = "madcm_cm_get_core",
	.test_cases = cm_get_core_cases,
};

/* ---- the netdev backend's steering of a stream the host's TCP carries ---- */

/*
 * A listener's entry and its port reservation, made by hand: the KUnit
 * kernel has no SO_BINDTODEVICE (CONFIG_NETDEVICES is off), which the
 * backend's reservation socket needs. A reservation without a socket is
 * what nd_qhash_del() takes away like any other.
 */
static int steer_resv(struct irdma_cm_netdev *nd,
		      const struct irdma_cm_qhash *lis, struct socket *sock)
{
	struct nd_reservation *r = kzalloc(sizeof(*r), GFP_KERNEL);
	int ret;

	if (!r)
		return -ENOMEM;
	r->qh = *lis;
	r->sock = sock;
	mutex_lock(&nd->resv_lock);
	ret = irdma_qhash_insert(&nd->qhash, lis, GFP_KERNEL);
	if (!ret)
		list_add(&r->list, &nd->resv);
	mutex_unlock(&nd->resv_lock);
	if (ret)
		kfree(r);
	return ret;
}

static int steer_listener(struct irdma_cm_netdev *nd,
			  const struct irdma_cm_qhash *lis)
{
	return steer_resv(nd, lis, NULL);
}

/*
 * A wildcard listener's entry on @lport, and the entry of a connection
 * under it from 192.0.2.2:@rport to 192.0.2.1:@lport.
 */
static void steer_tuples(struct irdma_cm_qhash *lis,
			 struct irdma_cm_qhash *conn, u16 lport, u16 rport)
{
	*lis = (struct irdma_cm_qhash){
		.type = IRDMA_QHASH_LISTEN,
		.loc.port = lport,
		.vlan_id = IRDMA_NO_VLAN,
	};
	*conn = (struct irdma_cm_qhash){
		.type = IRDMA_QHASH_CONN,
		.loc.port = lport,
		.rem.port = rport,
		.vlan_id = IRDMA_NO_VLAN,
	};
	ipv6_addr_set_v4mapped(htonl(INADDR_ANY), &lis->loc.ip);
	ipv6_addr_set_v4mapped(htonl(0xc0000201), &conn->loc.ip);
	ipv6_addr_set_v4mapped(htonl(0xc0000202), &conn->rem.ip);
}

/* Whether the receive hook would give a segment of @qh's 4-tuple to the CM. */
static bool steer_to_cm(struct irdma_cm_netdev *nd,
			const struct irdma_cm_qhash *qh,
			enum irdma_qhash_type *type)
{
	return irdma_qhash_match(&nd->qhash, &qh->loc, &qh->rem, qh->vlan_id,
				 type);
}

/*
 * One backend call, as the core makes it (under qh_mutex); then whether
 * the hook would give the connection's segments to the CM, and as what.
 */
static int steer_op(struct irdma_cm_core *core,
		    int (*op)(struct irdma_cm_core *core,
			      const struct irdma_cm_qhash *qh),
		    const struct irdma_cm_qhash *qh,
		    const struct irdma_cm_qhash *conn, bool *cm,
		    enum irdma_qhash_type *type)
{
	int ret;

	mutex_lock(&core->qh_mutex);
	ret = op(core, qh);
	mutex_unlock(&core->qh_mutex);
	*cm = steer_to_cm(nd_of(core), conn, type);
	return ret;
}

/*
 * A passive stream under a wildcard listener, handed to the host's TCP
 * (->qhash_host()): from then on its segments are the host's, since
 * the CM would only give them back to the QP, which gives them to the
 * host again. The CM aims the entry at the QP from a work item of its
 * own, which may run after the hand-off: that retarget must leave the
 * stream with the host. Only a new connection of the 4-tuple (an add
 * without a target, after the old node closed) takes it back.
 */
static void cm_netdev_retarget_keeps_host_stream(struct kunit *test)
{
	struct net_device *dev = get_core_netdev(test);
	struct irdma_cm_qhash lis, conn, aimed;
	struct madcm_cm_offload_qp *qp;
	enum irdma_qhash_type type;
	struct irdma_cm_netdev *nd;
	struct irdma_cm_core *core;
	struct madcm_cm_core *h;
	bool cm;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	qp = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	steer_tuples(&lis, &conn, 7471, 45071);
	aimed = conn;
	aimed.target = qp;

	KUNIT_ASSERT_EQ(test, madcm_cm_netdev_attach(dev, NULL), 0);
	h = madcm_cm_get_core(dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(h));
	core = irdma_cm_core_of(h);
	nd = nd_of(core);
	KUNIT_ASSERT_NOT_NULL(test, core->ops->qhash_host);

	KUNIT_ASSERT_EQ(test, steer_listener(nd, &lis), 0);
	/* Under the listener: its port is held already, no socket of its own. */
	KUNIT_EXPECT_EQ(test, steer_op(core, core->ops->qhash_add, &conn,
				       &conn, &cm, &type), 0);
	KUNIT_EXPECT_TRUE(test, cm);
	KUNIT_EXPECT_EQ(test, type, IRDMA_QHASH_CONN);

	/* The hand-off: the host's socket is hashed, the stream is its. */
	KUNIT_EXPECT_EQ(test, steer_op(core, core->ops->qhash_host, &conn,
				       &conn, &cm, &type), 0);
	KUNIT_EXPECT_FALSE(test, cm);
	KUNIT_EXPECT_EQ(test, type, IRDMA_QHASH_HOST);

	/* The CM's late retarget at the QP. */
	KUNIT_EXPECT_EQ(test, steer_op(core, core->ops->qhash_add, &aimed,
				       &conn, &cm, &type), 0);
	KUNIT_EXPECT_FALSE(test, cm);
	KUNIT_EXPECT_EQ(test, type, IRDMA_QHASH_HOST);

	/* A new connection of the 4-tuple takes the entry over. */
	KUNIT_EXPECT_EQ(test, steer_op(core, core->ops->qhash_add, &conn,
				       &conn, &cm, &type), 0);
	KUNIT_EXPECT_TRUE(test, cm);
	KUNIT_EXPECT_EQ(test, type, IRDMA_QHASH_CONN);

	mutex_lock(&core->qh_mutex);
	core->ops->qhash_del(core, &conn);
	core->ops->qhash_del(core, &lis);
	mutex_unlock(&core->qh_mutex);
	/* Both entries are gone: nothing steers. */
	KUNIT_EXPECT_FALSE(test, steer_to_cm(nd, &conn, &type));
	madcm_cm_put_core(h);
	KUNIT_EXPECT_EQ(test, madcm_cm_netdev_detach(dev), 0);
	get_core_netdev_free(dev);
}

static size_t steer_mem(struct irdma_cm_core *core,
			const struct irdma_cm_qhash *qh)
{
	size_t n;

	mutex_lock(&core->qh_mutex);
	n = core->ops->qhash_mem(core, qh);
	mutex_unlock(&core->qh_mutex);
	return n;
}

/*
 * What the backend says it holds for a connection (the figure make
 * bench adds to the CM's own): nothing for a connection it does not
 * steer; under a listener, whose socket holds the port, its entry and
 * record only, which together are at least a hash link and the two
 * addresses and ports of the 4-tuple, and less than any TCP socket;
 * the same once the host's TCP carries the stream (the entry becomes
 * a pass entry); and for a connection that holds its own port, a TCP
 * socket more (a tcp_sock and its struct socket), and the two bind
 * buckets of the port once the socket is bound (the host's bhash and
 * bhash2). Bounds from what these objects must hold, not from our
 * sizes.
 */
static void cm_netdev_conn_memory_counts_steering_and_socket(struct kunit *test)
{
	struct net_device *dev = get_core_netdev(test);
	struct irdma_cm_qhash lis, conn, own;
	const size_t tuple = sizeof(struct rhash_head) +
			     2 * (sizeof(struct in6_addr) + sizeof(u16));
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	size_t passive, handed, unbound, bound;
	struct irdma_cm_netdev *nd;
	struct irdma_cm_core *core;
	struct madcm_cm_core *h;
	struct socket *sock;
	bool cm;
	enum irdma_qhash_type type;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	steer_tuples(&lis, &conn, 7472, 45072);
	/* An active open's: a port of its own, not the listener's. */
	own = conn;
	own.loc.port = 45073;
	own.rem.port = 7473;
	KUNIT_ASSERT_EQ(test, madcm_cm_netdev_attach(dev, NULL), 0);
	h = madcm_cm_get_core(dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(h));
	core = irdma_cm_core_of(h);
	nd = nd_of(core);
	KUNIT_ASSERT_NOT_NULL(test, core->ops->qhash_mem);

	KUNIT_EXPECT_EQ(test, steer_mem(core, &conn), 0);
	KUNIT_ASSERT_EQ(test, steer_listener(nd, &lis), 0);
	KUNIT_EXPECT_EQ(test, steer_mem(core, &conn), 0);
	KUNIT_EXPECT_EQ(test, steer_op(core, core->ops->qhash_add, &conn,
				       &conn, &cm, &type), 0);
	passive = steer_mem(core, &conn);
	KUNIT_EXPECT_GE(test, passive, tuple + sizeof(struct list_head));
	KUNIT_EXPECT_LT(test, passive, sizeof(struct tcp_sock));
	KUNIT_EXPECT_EQ(test, steer_op(core, core->ops->qhash_host, &conn,
				       &conn, &cm, &type), 0);
	handed = steer_mem(core, &conn);
	KUNIT_EXPECT_EQ(test, handed, passive);

	/* A connection with a port of its own: a socket reserves it. */
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM,
					       IPPROTO_TCP, &sock), 0);
	KUNIT_ASSERT_EQ(test, steer_resv(nd, &own, sock), 0);
	unbound = steer_mem(core, &own);
	KUNIT_EXPECT_GE(test, unbound, passive + sizeof(struct tcp_sock) +
			sizeof(struct socket));
	sin.sin_port = htons(own.loc.port);
	KUNIT_EXPECT_EQ(test, kernel_bind(sock, (struct sockaddr *)&sin,
					  sizeof(sin)), 0);
	bound = steer_mem(core, &own);
	KUNIT_EXPECT_GE(test, bound, unbound + sizeof(struct inet_bind_bucket) +
			sizeof(struct inet_bind2_bucket));

	mutex_lock(&core->qh_mutex);
	core->ops->qhash_del(core, &own);	/* releases the socket */
	core->ops->qhash_del(core, &conn);
	core->ops->qhash_del(core, &lis);
	mutex_unlock(&core->qh_mutex);
	KUNIT_EXPECT_EQ(test, steer_mem(core, &conn), 0);
	KUNIT_EXPECT_EQ(test, steer_mem(core, &own), 0);
	madcm_cm_put_core(h);
	KUNIT_EXPECT_EQ(test, madcm_cm_netdev_detach(dev), 0);
	get_core_netdev_free(dev);
}

static struct kunit_case cm_netdev_steer_cases[] = {
	KUNIT_CASE(cm_netdev_retarget_keeps_host_stream),
	KUNIT_CASE(cm_netdev_conn_memory_counts_steering_and_socket),
	{}
};

static struct kunit_suite cm_netdev_steer_suite = {
	.name = "madcm_cm_netdev_steer",
	.test_cases = cm_netdev_steer_cases,
};

/* ---- connections to the host itself ---- */

#define LB_ADDR		0xc0000201	/* 192.0.2.1, the test device's */
#define LB_OTHER	0xc0000209	/* 192.0.2.9, on its link, not ours */

/* @dev up, with @addr/24: the host then routes @addr through lo. */
static int lb_dev_up(struct net_device *dev, u32 addr)
{
	struct sockaddr_in *sin;
	struct ifreq ifr = {};
	int ret;

	rtnl_lock();
	ret = 0;
	if (!(init_net.loopback_dev->flags & IFF_UP))
		ret = dev_open(init_net.loopback_dev, NULL);
	if (!ret)
		ret = dev_open(dev, NULL);
	rtnl_unlock();
	if (ret)
		return ret;
	strscpy(ifr.ifr_name, dev->name, sizeof(ifr.ifr_name));
	sin = (struct sockaddr_in *)&ifr.ifr_addr;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(addr);
	ret = devinet_ioctl(&init_net, SIOCSIFADDR, &ifr);
	if (ret)
		return ret;
	sin->sin_addr.s_addr = htonl(0xffffff00);
	return devinet_ioctl(&init_net, SIOCSIFNETMASK, &ifr);
}

/* An Ethernet, IPv4 and TCP (RST) frame from our address to @daddr. */
static void lb_frame(u8 *f, const struct net_device *dev, u32 daddr)
{
	struct ethhdr *eth = (struct ethhdr *)f;
	struct iphdr *iph = (struct iphdr *)(f + ETH_HLEN);
	u8 *th = f + ETH_HLEN + sizeof(*iph);

	memset(f, 0, ETH_HLEN + sizeof(*iph) + 20);
	ether_addr_copy(eth->h_dest, dev->dev_addr);
	ether_addr_copy(eth->h_source, dev->dev_addr);
	eth->h_proto = htons(ETH_P_IP);
	iph->version = 4;
	iph->ihl = 5;
	iph->tot_len = htons(sizeof(*iph) + 20);
	iph->ttl = 64;
	iph->protocol = IPPROTO_TCP;
	iph->saddr = htonl(LB_ADDR);
	iph->daddr = htonl(daddr);
	iph->check = ip_fast_csum(iph, iph->ihl);
	th[1] = 1;		/* source port 1 */
	th[3] = 2;		/* destination port 2 */
	th[12] = 5 << 4;	/* data offset */
	th[13] = 0x04;		/* RST: nothing answers it */
}

static void cm_netdev_loopback_own_address(struct kunit *test)
{
	struct net_device *dev = get_core_netdev(test);
	u8 frame[ETH_HLEN + sizeof(struct iphdr) + 20];
	struct irdma_cm_netdev *nd;
	struct irdma_cm_core *core;
	struct madcm_cm_core *h;
	struct in6_addr rem;
	u8 mac[ETH_ALEN];
	int sent;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_EQ(test, lb_dev_up(dev, LB_ADDR), 0);
	KUNIT_ASSERT_EQ(test, madcm_cm_netdev_attach(dev, NULL), 0);
	h = madcm_cm_get_core(dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(h));
	core = irdma_cm_core_of(h);
	nd = nd_of(core);

	/* The device's own address: no next hop, our own MAC. */
	ipv6_addr_set_v4mapped(htonl(LB_ADDR), &rem);
	eth_zero_addr(mac);
	KUNIT_EXPECT_EQ(test, core->ops->resolve(core, &rem, IRDMA_NO_VLAN,
						 mac), 0);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, dev->dev_addr));
	KUNIT_EXPECT_EQ(test, atomic64_read(&nd->cnt[ND_RESOLVE_LOCAL]), 1);
	/* lo's own address is no peer for an RNIC on this device. */
	ipv6_addr_set_v4mapped(htonl(INADDR_LOOPBACK), &rem);
	KUNIT_EXPECT_EQ(test, core->ops->resolve(core, &rem, IRDMA_NO_VLAN,
						 mac), -ENETUNREACH);

	/* A frame to our MAC comes back in on lo; the wire gets nothing. */
	sent = atomic_read(&get_core_sent);
	lb_frame(frame, dev, LB_ADDR);
	KUNIT_EXPECT_EQ(test, core->ops->xmit(core, frame, sizeof(frame)), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&nd->cnt[ND_TX_LOOPED]), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&nd->cnt[ND_TX_FRAMES]), 0);
	/* One to our MAC but for another host is dropped, counted. */
	lb_frame(frame, dev, LB_OTHER);
	KUNIT_EXPECT_EQ(test, core->ops->xmit(core, frame, sizeof(frame)), -EIO);
	KUNIT_EXPECT_EQ(test, atomic64_read(&nd->cnt[ND_TX_DROP_DEV]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&get_core_sent), sent);
	/* Any other MAC: the wire (its qdisc may send it later), as before. */
	eth_broadcast_addr(((struct ethhdr *)frame)->h_dest);
	KUNIT_EXPECT_EQ(test, core->ops->xmit(core, frame, sizeof(frame)), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&nd->cnt[ND_TX_FRAMES]), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&nd->cnt[ND_TX_LOOPED]), 1);

	madcm_cm_put_core(h);
	KUNIT_EXPECT_EQ(test, madcm_cm_netdev_detach(dev), 0);
	get_core_netdev_free(dev);
}

static struct kunit_case cm_netdev_loopback_cases[] = {
	KUNIT_CASE(cm_netdev_loopback_own_address),
	{}
};

static struct kunit_suite cm_netdev_loopback_suite = {
	.name = "madcm_cm_netdev_loopback",
	.test_cases = cm_netdev_loopback_cases,
};

kunit_test_suites(&cm_get_core_suite, &cm_netdev_steer_suite,
		  &cm_netdev_loopback_suite);
