// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: an RNIC connection end to end on the host's own TCP
 * (madcm_rnic_host_stream): the CM's handshake and MPA exchange, the
 * hand-off to a repaired socket of the host (rnic/qp_sock.c), the data
 * path on it and the close, with nothing of the test in between.
 *
 * One madcm RNIC over an Ethernet device of the test's own, which holds
 * 198.51.100.1/24 (RFC 5737) and drops what it is asked to send. Two
 * kernel RC QPs of the RNIC connect to each other at that address (issue
 * 31, item 7): the host routes an address of its own through lo, and the
 * CM loops its frames there. The test plays iw_cm (tests/kunit/
 * rnic_iw_rec.h) and the consumer: it listens, connects, accepts and
 * disconnects through the iw_cm provider (rnic/iw.c) and posts and polls
 * through ib_core.
 *
 * Expectations come from the verbs and the RFCs: a Send lands in the
 * next receive and completes it with its length, an RDMA Write lands at
 * the address its STag and offset name (RFC 5040); iw_cm's events come
 * as iw_cm gives them (CONNECT_REPLY with status 0 to the active side,
 * ESTABLISHED to the passive one; a graceful disconnect is DISCONNECT
 * then CLOSE on the passive side and CLOSE on the active one); a QP
 * connected once connects again after RESET and INIT (IBTA vol. 1
 * 10.3.1: RESET takes any QP back to its first state). Each connection
 * is one socket of the host per end, ESTABLISHED in its table (what `ss`
 * lists).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/inet_hashtables.h>
#include <net/tcp.h>
#include <rdma/ib_verbs.h>
#include "rnic/rnic.h"
#include "tests/kunit/rnic_iw_rec.h"
#include "tests/kunit/rnic_test_dev.h"

#define HS_ADDR		0xc6336401	/* 198.51.100.1 */
#define HS_PORT		5300
#define HS_BUF		(1024 * 1024)
#define HS_WAIT_MS	15000

struct hs_fix {
	struct net_device *nd;
	struct ib_device *ibdev;
	struct madcm_rnic_dev *dev;
	struct ib_pd *pd;
	struct ib_cq *cq[2];
	struct ib_qp *ibqp[2];
	u8 *buf[2];
	struct iw_rec *listen;
	/* a QP's tx_mutex the case holds: let go first if it fails */
	struct mutex *held;
};

/* @nd up, with HS_ADDR/24; lo up, which carries what goes to HS_ADDR. */
static int hs_dev_up(struct net_device *nd)
{
	struct sockaddr_in *sin;
	struct ifreq ifr = {};
	int ret = 0;

	rtnl_lock();
	if (!(init_net.loopback_dev->flags & IFF_UP))
		ret = dev_open(init_net.loopback_dev, NULL);
	if (!ret)
		ret = dev_open(nd, NULL);
	rtnl_unlock();
	if (ret)
		return ret;
	strscpy(ifr.ifr_name, nd->name, sizeof(ifr.ifr_name));
	sin = (struct sockaddr_in *)&ifr.ifr_addr;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(HS_ADDR);
	ret = devinet_ioctl(&init_net, SIOCSIFADDR, &ifr);
	if (ret)
		return ret;
	sin->sin_addr.s_addr = htonl(0xffffff00);
	return devinet_ioctl(&init_net, SIOCSIFNETMASK, &ifr);
}

static struct ib_qp *hs_create_qp(struct hs_fix *fx, int i)
{
	struct ib_qp_init_attr attr = {
		.send_cq = fx->cq[i],
		.recv_cq = fx->cq[i],
		.cap = {
			.max_send_wr = 64,
			.max_recv_wr = 64,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};

	return ib_create_qp(fx->pd, &attr);
}

/* RESET (from wherever it is), then INIT with the rights iw_cm gives. */
static int hs_qp_init(struct ib_qp *ibqp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RESET };
	int ret;

	ret = ib_modify_qp(ibqp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_INIT;
	attr.qp_access_flags = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ;
	return ib_modify_qp(ibqp, &attr, IB_QP_STATE | IB_QP_ACCESS_FLAGS);
}

static struct hs_fix *hs_fix_create(struct kunit *test)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 256 };
	struct hs_fix *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	struct in6_addr ip;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, fx);
	test->priv = fx;
	rnic_test_dev_create(test, "mhs%d", &fx->nd, &fx->ibdev);
	/* up, with its address, once the RNIC (and the CM) is on it */
	KUNIT_ASSERT_EQ(test, hs_dev_up(fx->nd), 0);
	fx->dev = to_madcm_rnic(fx->ibdev);

	fx->pd = ib_alloc_pd(fx->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fx->pd));
	for (i = 0; i < 2; i++) {
		fx->cq[i] = ib_create_cq(fx->ibdev, NULL, NULL, NULL, &cq_attr);
		KUNIT_ASSERT_FALSE(test, IS_ERR(fx->cq[i]));
		fx->ibqp[i] = hs_create_qp(fx, i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(fx->ibqp[i]));
		KUNIT_ASSERT_EQ(test, hs_qp_init(fx->ibqp[i]), 0);
		fx->buf[i] = kvzalloc(HS_BUF, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, fx->buf[i]);
	}

	/* iw_cm's listener on the device's address */
	fx->listen = iw_rec_new(test, fx->ibdev);
	ipv6_addr_set_v4mapped(htonl(HS_ADDR), &ip);
	iw_sin(&fx->listen->id.m_local_addr, &ip, HS_PORT);
	KUNIT_ASSERT_EQ(test, madcm_rnic_iw_create_listen(&fx->listen->id, 4),
			0);
	return fx;
}

static void hs_exit(struct kunit *test)
{
	struct hs_fix *fx = test->priv;
	int i;

	if (!fx)
		return;
	if (fx->held)
		mutex_unlock(fx->held);
	if (fx->listen && fx->listen->id.provider_data)
		madcm_rnic_iw_destroy_listen(&fx->listen->id);
	for (i = 0; i < 2; i++) {
		if (!IS_ERR_OR_NULL(fx->ibqp[i]))
			ib_destroy_qp(fx->ibqp[i]);
		if (!IS_ERR_OR_NULL(fx->cq[i]))
			ib_destroy_cq(fx->cq[i]);
		kvfree(fx->buf[i]);
	}
	if (!IS_ERR_OR_NULL(fx->pd))
		ib_dealloc_pd(fx->pd);
	if (fx->ibdev)
		ib_unregister_device(fx->ibdev);
	if (fx->nd) {
		if (fx->nd->reg_state == NETREG_REGISTERED)
			unregister_netdev(fx->nd);
		free_netdev(fx->nd);
	}
}

static u64 hs_count(struct hs_fix *fx, enum madcm_rnic_counter c)
{
	return atomic64_read(&fx->dev->cnt[c]);
}

static enum ib_qp_state hs_state(struct ib_qp *ibqp)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	ib_query_qp(ibqp, &attr, IB_QP_STATE, &init);
	return attr.qp_state;
}

/* The iw_cm side of one connection: the active cm_id and the child. */
struct hs_conn {
	struct iw_rec *a;
	struct iw_rec *c;
	u16 aport;
};

/*
 * QP 0 connects to the listener, which QP 1 accepts: both in RTS, each
 * side with its event.
 */
static void hs_connect(struct kunit *test, struct hs_fix *fx,
		       struct hs_conn *hc)
{
	struct iw_rec *l = fx->listen;
	int n = READ_ONCE(l->nev);
	struct iw_cm_conn_param cp = {
		.private_data = "req",
		.private_data_len = 3,
		.ird = 4,
		.ord = 4,
		.qpn = fx->ibqp[0]->qp_num,
	};
	struct iw_cm_conn_param ap = {
		.private_data = "acc",
		.private_data_len = 3,
		.ird = 4,
		.ord = 4,
		.qpn = fx->ibqp[1]->qp_num,
	};
	struct in6_addr ip;

	ipv6_addr_set_v4mapped(htonl(HS_ADDR), &ip);
	hc->a = iw_rec_new(test, fx->ibdev);
	iw_sin(&hc->a->id.m_local_addr, &ip, 0);
	iw_sin(&hc->a->id.m_remote_addr, &ip, HS_PORT);
	KUNIT_ASSERT_EQ(test, madcm_rnic_iw_connect(&hc->a->id, &cp), 0);

	KUNIT_ASSERT_TRUE(test, iw_wait(l, n + 1));
	KUNIT_ASSERT_EQ(test, l->ev[n], IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, l->provider_data[n]);
	hc->c = iw_rec_new(test, fx->ibdev);
	hc->c->id.provider_data = l->provider_data[n];
	hc->c->id.m_local_addr = l->local[n];
	hc->c->id.m_remote_addr = l->remote[n];
	KUNIT_ASSERT_EQ(test, madcm_rnic_iw_accept(&hc->c->id, &ap), 0);
	KUNIT_ASSERT_GE(test, hc->c->nev, 1);
	KUNIT_EXPECT_EQ(test, hc->c->ev[0], IW_CM_EVENT_ESTABLISHED);

	KUNIT_ASSERT_TRUE(test, iw_wait(hc->a, 1));
	KUNIT_ASSERT_EQ(test, hc->a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_EQ(test, hc->a->status[0], 0);
	KUNIT_EXPECT_EQ(test, hc->a->pdata_len[0], 3);
	hc->aport = ntohs(((struct sockaddr_in *)&hc->a->local[0])->sin_port);
	KUNIT_EXPECT_NE(test, hc->aport, 0);
	KUNIT_EXPECT_EQ(test, hs_state(fx->ibqp[0]), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, hs_state(fx->ibqp[1]), IB_QPS_RTS);
}

/* After a close: both QPs through RESET and INIT, then connected again. */
static void hs_reconnect(struct kunit *test, struct hs_fix *fx,
			 struct hs_conn *hc)
{
	int i;

	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, hs_qp_init(fx->ibqp[i]), 0);
	hs_connect(test, fx, hc);
}

/* The host's socket of HS_ADDR:@lport - HS_ADDR:@rport, bound to @nd. */
static int hs_tuple_state(struct hs_fix *fx, u16 lport, u16 rport)
{
	struct inet_hashinfo *h = init_net.ipv4.tcp_death_row.hashinfo;
	struct sock *sk;
	int state;

	rcu_read_lock();
	sk = __inet_lookup_established(&init_net, h, htonl(HS_ADDR),
				       htons(rport), htonl(HS_ADDR), lport,
				       fx->nd->ifindex, 0);
	rcu_read_unlock();
	if (!sk)
		return -1;
	state = sk->sk_state;
	sock_gen_put(sk);
	return state;
}

/* The hand-offs are done once both ends are sockets of the host's. */
static bool hs_wait_sockets(struct hs_fix *fx, u16 aport)
{
	unsigned long end = jiffies + msecs_to_jiffies(HS_WAIT_MS);

	while (time_before(jiffies, end)) {
		if (hs_tuple_state(fx, aport, HS_PORT) == TCP_ESTABLISHED &&
		    hs_tuple_state(fx, HS_PORT, aport) == TCP_ESTABLISHED)
			return true;
		msleep(20);
	}
	return false;
}

static bool hs_poll(struct ib_cq *cq, struct ib_wc *wc)
{
	unsigned long end = jiffies + msecs_to_jiffies(HS_WAIT_MS);

	do {
		if (ib_poll_cq(cq, 1, wc) == 1)
			return true;
		usleep_range(500, 1000);
	} while (time_before(jiffies, end));
	return ib_poll_cq(cq, 1, wc) == 1;
}

static struct ib_sge hs_sge(struct hs_fix *fx, const void *addr, u32 len)
{
	struct ib_sge sge = {
		.addr = (u64)(uintptr_t)addr,
		.length = len,
		.lkey = fx->pd->local_dma_lkey,
	};

	return sge;
}

/*
 * A Send of @len octets from QP @from, at @off of its buffer, lands at
 * @off of the other's, byte for byte, and completes both work requests.
 */
static void hs_send_at(struct kunit *test, struct hs_fix *fx, int from,
		       u32 off, u32 len)
{
	int to = !from;
	struct ib_sge rsge = hs_sge(fx, fx->buf[to] + off, HS_BUF - off);
	struct ib_sge ssge = hs_sge(fx, fx->buf[from] + off, len);
	struct ib_recv_wr rwr = { .wr_id = 2, .sg_list = &rsge, .num_sge = 1 };
	struct ib_send_wr swr = {
		.wr_id = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
		.sg_list = &ssge,
		.num_sge = 1,
	};
	struct ib_wc wc = {};

	get_random_bytes(fx->buf[from] + off, len);
	memset(fx->buf[to] + off, 0, len);
	KUNIT_ASSERT_EQ(test, ib_post_recv(fx->ibqp[to], &rwr, NULL), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(fx->ibqp[from], &swr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, hs_poll(fx->cq[from], &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1ULL);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, hs_poll(fx->cq[to], &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2ULL);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	KUNIT_EXPECT_EQ(test, memcmp(fx->buf[to] + off, fx->buf[from] + off,
				     len), 0);
}

static void hs_send(struct kunit *test, struct hs_fix *fx, int from, u32 len)
{
	hs_send_at(test, fx, from, 0, len);
}

/*
 * An RDMA Write of @len octets (at most HS_BUF / 2) from QP @from to the
 * start of the other's buffer: there byte for byte once a Send behind it
 * (from the buffers' second halves) has landed, since the stream places
 * in order (RFC 5040 5.5).
 */
static void hs_write(struct kunit *test, struct hs_fix *fx, int from, u32 len)
{
	int to = !from;
	struct ib_sge sge = hs_sge(fx, fx->buf[from], len);
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = 3,
			.opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED,
			.sg_list = &sge,
			.num_sge = 1,
		},
		.remote_addr = (u64)(uintptr_t)fx->buf[to],
		.rkey = fx->pd->unsafe_global_rkey,
	};
	struct ib_wc wc = {};

	get_random_bytes(fx->buf[from], len);
	memset(fx->buf[to], 0, len);
	KUNIT_ASSERT_EQ(test, ib_post_send(fx->ibqp[from], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, hs_poll(fx->cq[from], &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 3ULL);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	hs_send_at(test, fx, from, HS_BUF / 2, 4);
	KUNIT_EXPECT_EQ(test, memcmp(fx->buf[to], fx->buf[from], len), 0);
}

/* Until the CM has given both QPs' references back (its detach). */
static bool hs_wait_qps_idle(struct hs_fix *fx)
{
	struct madcm_rnic_qp *q0 = to_madcm_rnic_qp(fx->ibqp[0]);
	struct madcm_rnic_qp *q1 = to_madcm_rnic_qp(fx->ibqp[1]);
	unsigned long end = jiffies + msecs_to_jiffies(HS_WAIT_MS);

	while (refcount_read(&q0->iw_ref) != 1 ||
	       refcount_read(&q1->iw_ref) != 1) {
		if (!time_before(jiffies, end))
			return false;
		msleep(20);
	}
	return true;
}

/* QP 0 closes gracefully (iw_cm_disconnect: SQD): both ends close. */
static void hs_close(struct kunit *test, struct hs_fix *fx,
		     struct hs_conn *hc)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_SQD };

	KUNIT_ASSERT_EQ(test, ib_modify_qp(fx->ibqp[0], &attr, IB_QP_STATE), 0);
	KUNIT_ASSERT_TRUE(test, iw_wait(hc->a, 2));
	KUNIT_ASSERT_TRUE(test, iw_wait(hc->c, 3));
	KUNIT_EXPECT_EQ(test, hc->a->ev[1], IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, hc->a->status[1], 0);
	KUNIT_EXPECT_EQ(test, hc->c->ev[1], IW_CM_EVENT_DISCONNECT);
	KUNIT_EXPECT_EQ(test, hc->c->ev[2], IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, hc->c->status[2], 0);
	/* the CM is done with both QPs: its references are back */
	KUNIT_EXPECT_TRUE(test, hs_wait_qps_idle(fx));
	KUNIT_EXPECT_EQ(test, atomic_read(&hc->a->refs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&hc->c->refs), 0);
}

/*
 * One connection: the stream of each end is a socket of the host's
 * (its 4-tuple ESTABLISHED in the host's table, the device's count of
 * hand-offs to the host's TCP two), Sends both ways from 1 octet to 1 MiB
 * and RDMA Writes of 512 KiB land byte for byte, and a graceful close
 * ends both. No hand-off failed, and no frame of the stream was lost
 * between the CM and the socket.
 */
static void hs_connect_transfer_close(struct kunit *test)
{
	static const u32 sizes[] = { 1, 64, 1460, 65537, HS_BUF };
	struct hs_fix *fx = hs_fix_create(test);
	struct hs_conn hc;
	int i;

	hs_connect(test, fx, &hc);
	KUNIT_EXPECT_TRUE(test, hs_wait_sockets(fx, hc.aport));
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		hs_send(test, fx, 0, sizes[i]);
		hs_send(test, fx, 1, sizes[i]);
	}
	hs_write(test, fx, 0, HS_BUF / 2);
	hs_write(test, fx, 1, HS_BUF / 2);
	KUNIT_EXPECT_EQ(test, hs_count(fx, MADCM_RNIC_CNT_HOST_TCP), 2);
	KUNIT_EXPECT_EQ(test, hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_FAIL), 0);
	KUNIT_EXPECT_EQ(test,
			hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_EARLY_DROP), 0);
	KUNIT_EXPECT_EQ(test,
			hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_LATE_DROP), 0);
	hs_close(test, fx, &hc);
	KUNIT_EXPECT_EQ(test, hs_state(fx->ibqp[0]), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, hs_state(fx->ibqp[1]), IB_QPS_ERR);
}

/*
 * A QP whose connection closed goes back through RESET and INIT and
 * connects again, on a socket of its own: the second connection carries
 * Sends both ways as the first did, and closes as it did.
 */
static void hs_qp_connects_again_after_reset(struct kunit *test)
{
	struct hs_fix *fx = hs_fix_create(test);
	struct hs_conn first, second;

	hs_connect(test, fx, &first);
	KUNIT_EXPECT_TRUE(test, hs_wait_sockets(fx, first.aport));
	hs_send(test, fx, 0, 64);
	hs_send(test, fx, 1, 64);
	hs_close(test, fx, &first);

	hs_reconnect(test, fx, &second);
	KUNIT_EXPECT_NE(test, second.aport, first.aport);
	KUNIT_EXPECT_TRUE(test, hs_wait_sockets(fx, second.aport));
	hs_send(test, fx, 0, 64);
	hs_send(test, fx, 1, 64);
	hs_send(test, fx, 0, HS_BUF);
	hs_send(test, fx, 1, HS_BUF);
	hs_write(test, fx, 0, 65537);
	KUNIT_EXPECT_EQ(test, hs_count(fx, MADCM_RNIC_CNT_HOST_TCP), 4);
	KUNIT_EXPECT_EQ(test, hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_FAIL), 0);
	hs_close(test, fx, &second);
}

/* Until the device counts @n hand-offs to the host's TCP done. */
static bool hs_wait_handoffs(struct hs_fix *fx, u64 n)
{
	unsigned long end = jiffies + msecs_to_jiffies(HS_WAIT_MS);

	while (hs_count(fx, MADCM_RNIC_CNT_HOST_TCP) < n &&
	       time_before(jiffies, end))
		msleep(20);
	return hs_count(fx, MADCM_RNIC_CNT_HOST_TCP) >= n;
}

/*
 * @n frames as the CM passes them to QP 1 (its ->rx()) once the stream is
 * the host socket's: a frame stolen just before the CM's steering entry
 * went. Not the stream's (an EtherType of local experiments, RFC 9542
 * 2.3.2, from another station): the host's stack drops it.
 */
static void hs_late_frames(struct hs_fix *fx, int n)
{
	struct madcm_cm_offload_qp *oqp = &to_madcm_rnic_qp(fx->ibqp[1])->oqp;
	u8 frame[64] = {};
	struct ethhdr *eth = (struct ethhdr *)frame;
	int i;

	ether_addr_copy(eth->h_dest, fx->nd->dev_addr);
	eth_random_addr(eth->h_source);
	eth->h_proto = htons(ETH_P_802_EX1);
	for (i = 0; i < n; i++)
		madcm_rnic_offload_ops.rx(oqp, frame, sizeof(frame));
}

/*
 * The frames the CM still passes to a QP after its steering entry went
 * are given to the host's stack, MADCM_RNIC_KS_LATE_MAX of them a
 * connection (<madcm/...> rnic.h, host_tcp_late), and dropped past that
 * (host_tcp_late_drop): a bound for each connection, so a QP's next
 * connection (after RESET and INIT) has its own.
 */
static void hs_late_frames_bounded_per_connection(struct kunit *test)
{
	struct hs_fix *fx = hs_fix_create(test);
	struct hs_conn first, second;
	u64 late, drop;

	hs_connect(test, fx, &first);
	KUNIT_ASSERT_TRUE(test, hs_wait_handoffs(fx, 2));
	late = hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_LATE);
	drop = hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_LATE_DROP);
	hs_late_frames(fx, MADCM_RNIC_KS_LATE_MAX + 1);
	KUNIT_EXPECT_EQ(test, hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_LATE),
			late + MADCM_RNIC_KS_LATE_MAX);
	KUNIT_EXPECT_EQ(test, hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_LATE_DROP),
			drop + 1);
	/* the stream goes on */
	hs_send(test, fx, 0, 64);
	hs_send(test, fx, 1, 64);
	hs_close(test, fx, &first);

	hs_reconnect(test, fx, &second);
	KUNIT_ASSERT_TRUE(test, hs_wait_handoffs(fx, 4));
	late = hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_LATE);
	drop = hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_LATE_DROP);
	hs_late_frames(fx, 1);
	KUNIT_EXPECT_EQ(test, hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_LATE),
			late + 1);
	KUNIT_EXPECT_EQ(test, hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_LATE_DROP),
			drop);
	hs_send(test, fx, 0, 64);
	hs_close(test, fx, &second);
}

/*
 * The consumer aborts a connection whose passive QP has not had its
 * socket made yet (its hand-off work waits for the QP's tx_mutex, which
 * the case holds): the CM ends the connection at once and asks the QP
 * for the RST (RFC 9293 3.10.7.4: the peer's ESTABLISHED connection is
 * reset), and the QP, having no socket, must still have it sent. The
 * peer hears DISCONNECT with -ECONNRESET, then CLOSE; our side CLOSE
 * (as iw_cm gives them). No socket is made for a stream already ended:
 * its 4-tuple is never in the host's table from our side, and nothing is
 * counted as a failed hand-off (host_tcp_fail), which it is not.
 */
static void hs_abort_before_the_socket_resets_the_peer(struct kunit *test)
{
	struct hs_fix *fx = hs_fix_create(test);
	struct madcm_rnic_ks *ks = &to_madcm_rnic_qp(fx->ibqp[1])->stream.ks;
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	unsigned long end;
	struct hs_conn hc;

	mutex_lock(&ks->tx_mutex);
	fx->held = &ks->tx_mutex;
	hs_connect(test, fx, &hc);
	KUNIT_ASSERT_TRUE(test, hs_wait_handoffs(fx, 1));
	/* QP 1's hand-off work runs, and waits for the lock */
	end = jiffies + msecs_to_jiffies(HS_WAIT_MS);
	while (!(work_busy(&ks->work) & WORK_BUSY_RUNNING) &&
	       time_before(jiffies, end))
		msleep(20);
	KUNIT_ASSERT_TRUE(test, work_busy(&ks->work) & WORK_BUSY_RUNNING);

	KUNIT_EXPECT_EQ(test, ib_modify_qp(fx->ibqp[1], &attr, IB_QP_STATE), 0);
	fx->held = NULL;
	mutex_unlock(&ks->tx_mutex);

	KUNIT_ASSERT_TRUE(test, iw_wait(hc.c, 2));
	KUNIT_EXPECT_EQ(test, hc.c->ev[1], IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_TRUE(test, iw_wait(hc.a, 3));
	KUNIT_EXPECT_EQ(test, hc.a->ev[1], IW_CM_EVENT_DISCONNECT);
	KUNIT_EXPECT_EQ(test, hc.a->status[1], -ECONNRESET);
	KUNIT_EXPECT_EQ(test, hc.a->ev[2], IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_TRUE(test, hs_wait_qps_idle(fx));
	KUNIT_EXPECT_EQ(test, hs_tuple_state(fx, HS_PORT, hc.aport), -1);
	KUNIT_EXPECT_EQ(test, hs_count(fx, MADCM_RNIC_CNT_HOST_TCP), 1);
	KUNIT_EXPECT_EQ(test, hs_count(fx, MADCM_RNIC_CNT_HOST_TCP_FAIL), 0);
	KUNIT_EXPECT_EQ(test, hs_state(fx->ibqp[0]), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, hs_state(fx->ibqp[1]), IB_QPS_ERR);
}

static struct kunit_case hs_cases[] = {
	KUNIT_CASE(hs_connect_transfer_close),
	KUNIT_CASE(hs_qp_connects_again_after_reset),
	KUNIT_CASE(hs_late_frames_bounded_per_connection),
	KUNIT_CASE(hs_abort_before_the_socket_resets_the_peer),
	{}
};

static struct kunit_suite hs_suite = {
	.name = "madcm_rnic_host_stream",
	.exit = hs_exit,
	.test_cases = hs_cases,
};

kunit_test_suite(hs_suite);
