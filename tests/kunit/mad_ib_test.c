// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: madcm's ib_core transport (mad/ib_port.c) on a mock InfiniBand
 * device (mad_ib_mock.c) whose P_Key table has several entries, which
 * rxe's does not. A peer UD QP of the test plays the other end.
 *
 * P_Keys (issue 14, item 12): a UD QP other than QP1 sends with the P_Key
 * of the index it was set up with, and takes only packets of that P_Key
 * (IBTA vol. 1 10.9.3, 11.4.1.1). A GMP madcm sends with P_Key index N
 * must therefore reach a peer on the partition of index N, and no other;
 * answers to what came in on N leave on N (ib_core's GSI does so).
 *
 * Device removal (item 4): the last reference to a removed port may be
 * dropped by madcm_free_recv_mad() with IRQs off; nothing on that path
 * may sleep, not even the release of a vmalloc'ed port (DEBUG_ATOMIC_SLEEP
 * is on in .kunitconfig).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/spinlock.h>

#include "mad_test_util.h"
#include "mad_ib_mock.h"
#include "mad/fault.h"
#include "mad/ib_port.h"

/* Index 3 holds a limited member of partition 2: it reaches full 2. */
static const u16 pkeys4[] = { 0xffff, 0x8001, 0x8002, 0x0002 };

#define IBT_TID_LO	0x5a5a

struct ibt_ctx {
	struct completion sent;
	struct completion got;
	enum ib_wc_status status;
	u16 recv_pkey_index;
	int recvs;
	struct ib_mad_recv_wc *kept;
};

static void ibt_send_handler(struct ib_mad_agent *agent,
			     struct ib_mad_send_wc *wc)
{
	struct ibt_ctx *c = agent->context;

	c->status = wc->status;
	madcm_free_send_mad(wc->send_buf);
	complete(&c->sent);
}

static void ibt_recv_handler(struct ib_mad_agent *agent,
			     struct ib_mad_send_buf *send_buf,
			     struct ib_mad_recv_wc *wc)
{
	struct ibt_ctx *c = agent->context;

	c->recv_pkey_index = wc->wc->pkey_index;
	c->recvs++;
	madcm_free_recv_mad(wc);
	complete(&c->got);
}

/* Keeps what it is given, to be freed by the test. */
static void ibt_keep_handler(struct ib_mad_agent *agent,
			     struct ib_mad_send_buf *send_buf,
			     struct ib_mad_recv_wc *wc)
{
	struct ibt_ctx *c = agent->context;

	c->kept = wc;
	complete(&c->got);
}

static struct ibt_ctx *ibt_ctx(struct kunit *test)
{
	struct ibt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	init_completion(&c->sent);
	init_completion(&c->got);
	return c;
}

static struct madcm_port *ibt_port(struct kunit *test, struct mock_dev *md)
{
	struct madcm_port *port = madcm_ib_get_port(&md->ibdev, 1);

	KUNIT_ASSERT_NOT_NULL(test, port);
	return port;
}

static long ibt_counter(struct madcm_port *port, enum madcm_ib_counter c)
{
	struct madcm_ib_port *ip = madcm_port_priv(port);

	return atomic_long_read(&ip->counters[c]);
}

/* A Get of MT_CLASS, to @qpn with P_Key index @pkey_index. */
static struct ib_mad_send_buf *ibt_get(struct kunit *test,
				       struct ib_mad_agent *agent,
				       struct ib_ah *ah, u32 qpn,
				       u16 pkey_index, int timeout_ms)
{
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;

	sb = madcm_create_send_mad(agent, qpn, pkey_index, 0,
				   IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA,
				   GFP_KERNEL, IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(sb),
			       "send buffer for P_Key index %u: %ld",
			       pkey_index, PTR_ERR(sb));
	hdr = sb->mad;
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = MT_CLASS;
	hdr->class_version = MT_VERSION;
	hdr->method = IB_MGMT_METHOD_GET;
	hdr->tid = cpu_to_be64((u64)agent->hi_tid << 32 | IBT_TID_LO);
	sb->ah = ah;
	sb->timeout_ms = timeout_ms;
	sb->retries = 0;
	return sb;
}

static bool ibt_wait(struct completion *c)
{
	return wait_for_completion_timeout(c, 10 * HZ);
}

/*
 * A request with P_Key index 2 reaches a peer on partition 2 carrying
 * index 2's key; the peer's response comes back into the partition and
 * is matched, reported with index 2; a request nobody takes is answered
 * on index 2 ("unsupported"); the same request with index 1 never
 * reaches the peer (another partition).
 */
static void gmp_leaves_and_returns_on_its_pkey_index(struct kunit *test)
{
	struct mock_dev *md = mock_dev_add(test, pkeys4, ARRAY_SIZE(pkeys4));
	struct madcm_port *port = ibt_port(test, md);
	struct mock_peer *peer = mock_peer_new(test, md, 2, IB_QPT_UD);
	struct ibt_ctx *c = ibt_ctx(test);
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;
	u8 mad[sizeof(struct ib_mad)];
	struct mt_agent *ma;
	struct ib_ah *ah;
	int drops;

	ma = mt_register(test, port, IB_QPT_GSI, NULL, 0, ibt_send_handler,
			 ibt_recv_handler, c);
	ah = mt_ah(test, port, MOCK_LID);

	sb = ibt_get(test, ma->agent, ah, peer->qp->qp_num, 2, 5000);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, mock_peer_wait(peer, 1));
	hdr = (struct ib_mad_hdr *)peer->mad;
	KUNIT_EXPECT_EQ(test, be64_to_cpu(hdr->tid) & 0xffffffff,
			IBT_TID_LO);
	KUNIT_EXPECT_EQ(test, mock_last_pkey(md, peer->qp->qp_num),
			pkeys4[2]);

	/* The response, to the QP the request came from. */
	mt_make_response(peer->mad, mad);
	KUNIT_ASSERT_EQ(test, mock_peer_send(peer, mad, peer->wc.src_qp), 0);
	KUNIT_ASSERT_TRUE(test, ibt_wait(&c->got));
	KUNIT_ASSERT_TRUE(test, ibt_wait(&c->sent));
	KUNIT_EXPECT_EQ(test, c->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, c->recvs, 1);
	KUNIT_EXPECT_EQ(test, c->recv_pkey_index, 2);

	/* A Get nobody registered for: madcm answers it, on index 2. */
	memcpy(mad, peer->mad, sizeof(mad));
	((struct ib_mad_hdr *)mad)->method = IB_MGMT_METHOD_GET;
	((struct ib_mad_hdr *)mad)->tid = cpu_to_be64(0x77);
	KUNIT_ASSERT_EQ(test, mock_peer_send(peer, mad, peer->wc.src_qp), 0);
	KUNIT_ASSERT_TRUE(test, mock_peer_wait(peer, 2));
	KUNIT_EXPECT_EQ(test, hdr->method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(hdr->status),
			IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(hdr->tid), 0x77);
	KUNIT_EXPECT_EQ(test, mock_last_pkey(md, peer->qp->qp_num),
			pkeys4[2]);

	/* Index 1 is another partition: the peer never sees it. */
	reinit_completion(&c->sent);
	drops = atomic_read(&md->drop_pkey);
	sb = ibt_get(test, ma->agent, ah, peer->qp->qp_num, 1, 100);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, ibt_wait(&c->sent));
	KUNIT_EXPECT_EQ(test, c->status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, atomic_read(&md->drop_pkey), drops + 1);
	/* The device delivers as it sends: nothing more can come. */
	ib_process_cq_direct(peer->cq, 16);
	KUNIT_EXPECT_EQ(test, peer->received, 2);
	KUNIT_EXPECT_EQ(test, ibt_counter(port, MADCM_IB_PKEY_QP_CREATED), 2);
}

/*
 * At most MADCM_IB_PKEY_QPS_MAX QPs besides index 0's: a send on one more
 * index fails, counted; removing the device destroys them all.
 */
static void pkey_qps_bounded_and_released(struct kunit *test)
{
	u16 pkeys[MADCM_IB_PKEY_QPS_MAX + 2];
	struct ibt_ctx *c = ibt_ctx(test);
	struct ib_mad_send_buf *sb;
	struct madcm_port *port;
	struct mock_dev *md;
	struct mt_agent *ma;
	struct ib_ah *ah;
	int i;

	pkeys[0] = 0xffff;
	for (i = 1; i < ARRAY_SIZE(pkeys); i++)
		pkeys[i] = 0x8000 | i;
	md = mock_dev_add(test, pkeys, ARRAY_SIZE(pkeys));
	port = ibt_port(test, md);
	ma = mt_register(test, port, IB_QPT_GSI, NULL, 0, ibt_send_handler,
			 ibt_recv_handler, c);
	ah = mt_ah(test, port, MOCK_LID);
	KUNIT_EXPECT_EQ(test, atomic_read(&md->live_qps), 1);

	/* To a QP nobody has: each times out after leaving. */
	for (i = 1; i <= MADCM_IB_PKEY_QPS_MAX; i++) {
		reinit_completion(&c->sent);
		sb = ibt_get(test, ma->agent, ah, 0xabcd, i, 50);
		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
		KUNIT_ASSERT_TRUE(test, ibt_wait(&c->sent));
		KUNIT_EXPECT_EQ(test, c->status, IB_WC_RESP_TIMEOUT_ERR);
	}
	KUNIT_EXPECT_EQ(test, ibt_counter(port, MADCM_IB_PKEY_QP_CREATED),
			MADCM_IB_PKEY_QPS_MAX);
	KUNIT_EXPECT_EQ(test, atomic_read(&md->live_qps),
			1 + MADCM_IB_PKEY_QPS_MAX);
	KUNIT_EXPECT_EQ(test, atomic_read(&md->drop_no_qp),
			MADCM_IB_PKEY_QPS_MAX);

	/* One index more than the bound. */
	sb = ibt_get(test, ma->agent, ah, 0xabcd, MADCM_IB_PKEY_QPS_MAX + 1,
		     50);
	KUNIT_EXPECT_NE(test, madcm_post_send_mad(sb, NULL), 0);
	madcm_free_send_mad(sb);
	KUNIT_EXPECT_EQ(test, ibt_counter(port, MADCM_IB_TX_PKEY_NO_QP), 1);

	/* An index in use again: its QP, no new one. */
	reinit_completion(&c->sent);
	sb = ibt_get(test, ma->agent, ah, 0xabcd, 3, 50);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, ibt_wait(&c->sent));
	KUNIT_EXPECT_EQ(test, atomic_read(&md->live_qps),
			1 + MADCM_IB_PKEY_QPS_MAX);

	mt_unregister(ma);
	mock_dev_remove_now(test, md);
	KUNIT_EXPECT_EQ(test, atomic_read(&md->live_qps), 0);
}

/* A device with one P_Key: any other index is refused at creation. */
static void one_pkey_device_refuses_other_indices(struct kunit *test)
{
	static const u16 one[] = { 0xffff };
	struct mock_dev *md = mock_dev_add(test, one, 1);
	struct madcm_port *port = ibt_port(test, md);
	struct ibt_ctx *c = ibt_ctx(test);
	struct ib_mad_send_buf *sb;
	struct mt_agent *ma;

	ma = mt_register(test, port, IB_QPT_GSI, NULL, 0, ibt_send_handler,
			 ibt_recv_handler, c);
	sb = madcm_create_send_mad(ma->agent, 1, 1, 0, IB_MGMT_MAD_HDR,
				   IB_MGMT_MAD_DATA, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(sb), -EINVAL);
	sb = madcm_create_send_mad(ma->agent, 1, 0, 0, IB_MGMT_MAD_HDR,
				   IB_MGMT_MAD_DATA, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	madcm_free_send_mad(sb);
}

/*
 * A MAD received on an ib port outlives the device: after removal it
 * holds the port's last reference, and freeing it with IRQs off and a
 * spinlock held releases the port without sleeping. The port's data is
 * made to come from vmalloc (kvzalloc()'s fallback when memory is
 * fragmented), whose vfree() may sleep.
 */
static void free_recv_after_removal_releases_port_atomically(struct kunit *test)
{
	static const u16 one[] = { 0xffff };
	static DEFINE_SPINLOCK(lock);
	u8 methods[] = { IB_MGMT_METHOD_GET };
	u8 mad[sizeof(struct ib_mad)] = {};
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)mad;
	struct ib_mad_reg_req req;
	struct madcm_port *port;
	struct mock_peer *peer;
	struct mock_dev *md;
	unsigned long flags;
	struct mt_agent *ma;
	struct ibt_ctx *c;

	madcm_fault_arm(MADCM_FAULT_IB_PORT_CONTIG, 1);
	md = mock_dev_add(test, one, 1);
	madcm_fault_disarm();
	port = ibt_port(test, md);
	KUNIT_ASSERT_EQ(test, madcm_fault_fired(MADCM_FAULT_IB_PORT_CONTIG), 1);
	KUNIT_ASSERT_TRUE(test, is_vmalloc_addr(madcm_port_priv(port)));
	peer = mock_peer_new(test, md, 0, IB_QPT_UD);
	c = ibt_ctx(test);
	mt_reg_req(&req, MT_CLASS, MT_VERSION, methods, 1);
	ma = mt_register(test, port, IB_QPT_GSI, &req, 0, ibt_send_handler,
			 ibt_keep_handler, c);
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = MT_CLASS;
	hdr->class_version = MT_VERSION;
	hdr->method = IB_MGMT_METHOD_GET;
	hdr->tid = cpu_to_be64(0x1234);
	KUNIT_ASSERT_EQ(test, mock_peer_send(peer, mad, madcm_port_qpn(port)),
			0);
	KUNIT_ASSERT_TRUE(test, ibt_wait(&c->got));
	KUNIT_ASSERT_NOT_NULL(test, c->kept);

	mt_unregister(ma);
	mock_peer_destroy(test, peer);
	mock_dev_remove_now(test, md);
	/* The received MAD is all that holds the port. */
	KUNIT_ASSERT_EQ(test, refcount_read(&port->refs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->live_recvs), 1);

	local_irq_save(flags);
	spin_lock(&lock);
	madcm_free_recv_mad(c->kept);
	spin_unlock(&lock);
	local_irq_restore(flags);
}

/* Counts send completions; the last one expected completes @all. */
struct ibt_window {
	atomic_t done;
	int expected;
	struct completion all;
};

static void ibt_window_send_handler(struct ib_mad_agent *agent,
				    struct ib_mad_send_wc *wc)
{
	struct ibt_window *w = agent->context;

	madcm_free_send_mad(wc->send_buf);
	if (atomic_inc_return(&w->done) == READ_ONCE(w->expected))
		complete(&w->all);
}

/*
 * An agent may have max_solicited requests waiting for responses (half
 * the receive ring). Posted all at once while the device completes no
 * send (every send slot busy), each of them waits for a slot: none is
 * refused, whatever the size of the ring. Here the ring is 16,384, so
 * the window (8,192) is larger than the send slots and the overflow list
 * of a default port together.
 */
static void full_window_posted_at_once_waits_for_slots(struct kunit *test)
{
	static const u16 one[] = { 0xffff };
	unsigned int rq_size = madcm_ib_rq_size;
	struct ib_mad_send_buf **sbs, *sb;
	struct madcm_port *port;
	struct ibt_window *w;
	struct mock_dev *md;
	struct mt_agent *ma;
	int i, win, posted = 0, refused = 0;
	struct ib_ah *ah;

	madcm_ib_rq_size = 16384;
	md = mock_dev_add(test, one, 1);
	madcm_ib_rq_size = rq_size;
	port = ibt_port(test, md);
	win = port->attr.max_solicited;
	KUNIT_ASSERT_GT(test, win, MADCM_IB_SQ_SIZE + MADCM_IB_OVERFLOW_MAX);
	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	sbs = kunit_kcalloc(test, win, sizeof(*sbs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, sbs);
	init_completion(&w->all);
	w->expected = INT_MAX;
	ma = mt_register(test, port, IB_QPT_GSI, NULL, 0,
			 ibt_window_send_handler, ibt_recv_handler, w);
	/* Nobody at that LID: the requests wait for their timeouts. */
	ah = mt_ah(test, port, MOCK_LID + 1);

	mock_dev_hold_sends(test, md, win);
	for (i = 0; i < win; i++) {
		sb = ibt_get(test, ma->agent, ah, 1, 0, 60000);
		((struct ib_mad_hdr *)sb->mad)->tid =
			cpu_to_be64((u64)ma->agent->hi_tid << 32 | i);
		if (madcm_post_send_mad(sb, NULL)) {
			madcm_free_send_mad(sb);
			refused++;
			continue;
		}
		sbs[posted++] = sb;
	}
	KUNIT_EXPECT_EQ(test, refused, 0);
	KUNIT_EXPECT_EQ(test, ibt_counter(port, MADCM_IB_TX_OVERFLOW_DROP), 0);

	/* The device gives the slots back; every request ends cancelled. */
	WRITE_ONCE(w->expected, posted);
	mock_dev_release_sends(md);
	for (i = 0; i < posted; i++)
		madcm_cancel_mad(sbs[i]);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&w->all,
							    30 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&w->done), posted);
}

/*
 * ib_cm's locking (drivers/infiniband/core/cm.c): it posts, modifies and
 * cancels MADs under its cm_id's lock taken with spin_lock_irqsave(), and
 * its send handler takes that same lock. ib_core allows every call of
 * the family in any context but hard IRQ; madcm's must too: each returns
 * with the caller's IRQs still off (no softirq may run inside the
 * caller's section), and the send handler never runs from inside a call.
 * Lockdep, on in .kunitconfig, reports any lock the calls take in a way
 * that does not fit.
 */
struct ibt_cm_ctx {
	spinlock_t lock;	/* the caller's lock, as ib_cm's cm_id lock */
	struct completion sent;
	struct completion got;
	bool in_call;
	int from_call;
	int sends;
	enum ib_wc_status status[2];
};

static void ibt_cm_send_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_wc *wc)
{
	struct ibt_cm_ctx *c = agent->context;
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	if (c->in_call)
		c->from_call++;
	if (c->sends < ARRAY_SIZE(c->status))
		c->status[c->sends] = wc->status;
	c->sends++;
	spin_unlock_irqrestore(&c->lock, flags);
	madcm_free_send_mad(wc->send_buf);
	complete(&c->sent);
}

static void ibt_cm_recv_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_buf *send_buf,
				struct ib_mad_recv_wc *wc)
{
	struct ibt_cm_ctx *c = agent->context;
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	spin_unlock_irqrestore(&c->lock, flags);
	madcm_free_recv_mad(wc);
	complete(&c->got);
}

static void post_modify_cancel_under_irqsave_lock(struct kunit *test)
{
	static const u16 one[] = { 0xffff };
	struct mock_dev *md = mock_dev_add(test, one, 1);
	struct madcm_port *port = ibt_port(test, md);
	struct mock_peer *peer = mock_peer_new(test, md, 0, IB_QPT_UD);
	struct ib_mad_send_buf *sb, *spare;
	u8 mad[sizeof(struct ib_mad)];
	struct ibt_cm_ctx *c;
	bool kept[4];
	struct mt_agent *ma;
	unsigned long flags;
	struct ib_ah *ah;
	int ret[3];

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	spin_lock_init(&c->lock);
	init_completion(&c->sent);
	init_completion(&c->got);
	ma = mt_register(test, port, IB_QPT_GSI, NULL, 0,
			 ibt_cm_send_handler, ibt_cm_recv_handler, c);
	ah = mt_ah(test, port, MOCK_LID);

	/* Post, modify and cancel in one section, as ib_cm's REQ path. */
	sb = ibt_get(test, ma->agent, ah, peer->qp->qp_num, 0, 60000);
	spin_lock_irqsave(&c->lock, flags);
	c->in_call = true;
	ret[0] = madcm_post_send_mad(sb, NULL);
	kept[0] = irqs_disabled();
	ret[1] = madcm_modify_mad(sb, 30000);
	kept[1] = irqs_disabled();
	madcm_cancel_mad(sb);
	kept[2] = irqs_disabled();
	c->in_call = false;
	spin_unlock_irqrestore(&c->lock, flags);
	KUNIT_EXPECT_EQ(test, ret[0], 0);
	KUNIT_EXPECT_EQ(test, ret[1], 0);
	KUNIT_EXPECT_TRUE(test, kept[0]);
	KUNIT_EXPECT_TRUE(test, kept[1]);
	KUNIT_EXPECT_TRUE(test, kept[2]);
	KUNIT_ASSERT_TRUE(test, ibt_wait(&c->sent));
	KUNIT_EXPECT_EQ(test, c->status[0], IB_WC_WR_FLUSH_ERR);
	KUNIT_ASSERT_TRUE(test, mock_peer_wait(peer, 1));

	/*
	 * A request posted under the lock and answered: the handlers take
	 * the lock the caller held; a buffer never posted is freed there.
	 */
	sb = ibt_get(test, ma->agent, ah, peer->qp->qp_num, 0, 60000);
	((struct ib_mad_hdr *)sb->mad)->tid =
		cpu_to_be64((u64)ma->agent->hi_tid << 32 | (IBT_TID_LO + 1));
	spare = ibt_get(test, ma->agent, ah, peer->qp->qp_num, 0, 0);
	spin_lock_irqsave(&c->lock, flags);
	c->in_call = true;
	ret[2] = madcm_post_send_mad(sb, NULL);
	madcm_free_send_mad(spare);
	kept[3] = irqs_disabled();
	c->in_call = false;
	spin_unlock_irqrestore(&c->lock, flags);
	KUNIT_EXPECT_EQ(test, ret[2], 0);
	KUNIT_EXPECT_TRUE(test, kept[3]);
	KUNIT_ASSERT_TRUE(test, mock_peer_wait(peer, 2));
	mt_make_response(peer->mad, mad);
	KUNIT_ASSERT_EQ(test, mock_peer_send(peer, mad, peer->wc.src_qp), 0);
	KUNIT_ASSERT_TRUE(test, ibt_wait(&c->got));
	KUNIT_ASSERT_TRUE(test, ibt_wait(&c->sent));
	KUNIT_EXPECT_EQ(test, c->status[1], IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, c->sends, 2);
	KUNIT_EXPECT_EQ(test, c->from_call, 0);
}

/* Counts send completions by status; frees each buffer. */
struct ibt_fail_ctx {
	spinlock_t lock;	/* protects the counts */
	int sends;
	int status[IB_WC_GENERAL_ERR + 1];
	struct completion sent;
};

static void ibt_fail_send_handler(struct ib_mad_agent *agent,
				  struct ib_mad_send_wc *wc)
{
	struct ibt_fail_ctx *c = agent->context;

	spin_lock(&c->lock);
	c->sends++;
	if (wc->status < ARRAY_SIZE(c->status))
		c->status[wc->status]++;
	spin_unlock(&c->lock);
	madcm_free_send_mad(wc->send_buf);
	complete(&c->sent);
}

/* Wait up to 15 s for a port counter to reach @n. */
static bool ibt_wait_counter(struct madcm_port *port,
			     enum madcm_ib_counter cnt, long n)
{
	int i;

	for (i = 0; i < 750 && ibt_counter(port, cnt) < n; i++)
		msleep(20);
	return ibt_counter(port, cnt) >= n;
}

/*
 * The QP goes to the error state and the device never gives back the
 * send it holds, so the recovery gives up. The sends it strands (the one
 * the device holds, one that waited for the recovery) complete with an
 * error then, cancelled or not; new posts are refused with one; the
 * device's late completion of its slot reports nothing twice; and
 * unregistering the agent returns (it waits for every send to be back).
 */
static void failed_recovery_strands_no_send(struct kunit *test)
{
	static const u16 one[] = { 0xffff };
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct mock_dev *md = mock_dev_add(test, one, 1);
	struct madcm_port *port = ibt_port(test, md);
	struct madcm_ib_port *ip = madcm_port_priv(port);
	struct ib_mad_send_buf *held, *waiting, *late;
	struct ibt_fail_ctx *c;
	struct mt_agent *ma;
	struct ib_ah *ah;
	int i, ret;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	spin_lock_init(&c->lock);
	init_completion(&c->sent);
	ma = mt_register(test, port, IB_QPT_GSI, NULL, 0,
			 ibt_fail_send_handler, ibt_recv_handler, c);
	/* Nobody at that LID: a request waits for its timeout. */
	ah = mt_ah(test, port, MOCK_LID + 1);

	/* The device takes a send and keeps its completion. */
	mock_dev_hold_sends(test, md, 4);
	held = ibt_get(test, ma->agent, ah, 1, 0, 60000);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(held, NULL), 0);

	/* The QP fails; a send posted now waits for the recovery. */
	KUNIT_ASSERT_EQ(test, ib_modify_qp(ip->qp, &attr, IB_QP_STATE), 0);
	KUNIT_ASSERT_TRUE(test, ibt_wait_counter(port, MADCM_IB_QP_ERROR, 1));
	waiting = ibt_get(test, ma->agent, ah, 1, 0, 60000);
	((struct ib_mad_hdr *)waiting->mad)->tid =
		cpu_to_be64((u64)ma->agent->hi_tid << 32 | 2);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(waiting, NULL), 0);
	madcm_cancel_mad(held);

	/* The drain times out: the recovery gives up. */
	KUNIT_ASSERT_TRUE(test, ibt_wait_counter(port,
						 MADCM_IB_QP_RECOVER_FAIL, 1));
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_TRUE(test, ibt_wait(&c->sent));
	KUNIT_EXPECT_EQ(test, c->sends, 2);
	/* The cancelled one says so; the other failed with the port. */
	KUNIT_EXPECT_EQ(test, c->status[IB_WC_WR_FLUSH_ERR], 1);
	KUNIT_EXPECT_EQ(test, c->status[IB_WC_GENERAL_ERR], 1);

	late = ibt_get(test, ma->agent, ah, 1, 0, 60000);
	ret = madcm_post_send_mad(late, NULL);
	KUNIT_EXPECT_EQ(test, ret, -EIO);
	if (ret)
		madcm_free_send_mad(late);

	/* The device's completion of the slot, at last: nothing new. */
	mock_dev_release_sends(md);
	msleep(100);
	KUNIT_EXPECT_EQ(test, c->sends, ret ? 2 : 3);

	/* Unregistration returns; on failure, removal unblocks it. */
	if (c->sends < 2)
		mock_dev_remove_now(test, md);
	mt_unregister(ma);
}

/*
 * A MAD that must wait for a send slot is copied onto the port's
 * overflow list; when that copy cannot be allocated (the fault-injection
 * site ib_overflow) the post fails with -ENOMEM and leaves nothing
 * behind. The next post waits as usual, and everything comes back.
 */
static void overflow_allocation_failure_refuses_post(struct kunit *test)
{
	static const u16 one[] = { 0xffff };
	struct mock_dev *md = mock_dev_add(test, one, 1);
	struct madcm_port *port = ibt_port(test, md);
	int n = MADCM_IB_SQ_SIZE + 1, i, posted = 0, ret;
	struct ib_mad_send_buf **sbs, *sb;
	struct ibt_window *w;
	struct mt_agent *ma;
	struct ib_ah *ah;

	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	sbs = kunit_kcalloc(test, n, sizeof(*sbs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, sbs);
	init_completion(&w->all);
	w->expected = INT_MAX;
	ma = mt_register(test, port, IB_QPT_GSI, NULL, 0,
			 ibt_window_send_handler, ibt_recv_handler, w);
	ah = mt_ah(test, port, MOCK_LID + 1);

	/* Every send slot taken and held by the device. */
	mock_dev_hold_sends(test, md, n + 1);
	for (i = 0; i < MADCM_IB_SQ_SIZE; i++) {
		sb = ibt_get(test, ma->agent, ah, 1, 0, 60000);
		((struct ib_mad_hdr *)sb->mad)->tid =
			cpu_to_be64((u64)ma->agent->hi_tid << 32 | i);
		KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
		sbs[posted++] = sb;
	}
	KUNIT_EXPECT_EQ(test, ibt_counter(port, MADCM_IB_TX_OVERFLOW), 0);

	madcm_fault_arm(MADCM_FAULT_IB_OVERFLOW, 1);
	sb = ibt_get(test, ma->agent, ah, 1, 0, 60000);
	ret = madcm_post_send_mad(sb, NULL);
	KUNIT_EXPECT_EQ(test, madcm_fault_fired(MADCM_FAULT_IB_OVERFLOW), 1);
	madcm_fault_disarm();
	KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	KUNIT_EXPECT_EQ(test, ibt_counter(port, MADCM_IB_TX_OVERFLOW), 0);
	if (ret) {
		/* Refused: the caller's again, out of every table. */
		KUNIT_EXPECT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	}
	sbs[posted++] = sb;
	KUNIT_EXPECT_EQ(test, ibt_counter(port, MADCM_IB_TX_OVERFLOW), 1);

	WRITE_ONCE(w->expected, posted);
	mock_dev_release_sends(md);
	for (i = 0; i < posted; i++)
		madcm_cancel_mad(sbs[i]);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&w->all,
							    30 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&w->done), posted);
}

/* What ibt_fail_first_rts() saw while the port started. */
struct ibt_start_fail {
	struct madcm_port *port;	/* a reference of the test's */
	int rts_asked;
	bool answered;
	int replies_waiting;
	long overflowed;
};

/*
 * The first move of a QP of the device to RTS is madcm's port starting
 * (the mock makes no QP0 or QP1 for ib_core). In RTR, with the receive
 * ring posted, a Get that no agent takes arrives; once the port has
 * answered it (its receive buffer is back on the ring), the move fails.
 */
static int ibt_fail_first_rts(struct mock_dev *md, struct ib_qp *qp,
			      enum ib_qp_state to)
{
	struct ibt_start_fail *f = md->hook_data;
	struct madcm_ib_port *ip;
	struct ib_mad *mad;
	int posted, i;

	if (to != IB_QPS_RTS || f->rts_asked++)
		return 0;
	/* The port is not published yet: its CQ's context is its data. */
	ip = qp->recv_cq->cq_context;
	f->port = ip->port;
	madcm_port_get(f->port);
	mad = kzalloc(sizeof(*mad), GFP_KERNEL);
	if (!mad)
		return -ENOMEM;
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = MT_CLASS;
	mad->mad_hdr.class_version = MT_VERSION;
	mad->mad_hdr.method = IB_MGMT_METHOD_GET;
	mad->mad_hdr.tid = cpu_to_be64(IBT_TID_LO);
	posted = mock_qp_rq_count(qp);
	mock_dev_inject(md, qp->qp_num, 1, IB_QP1_QKEY, mad, sizeof(*mad));
	kfree(mad);
	for (i = 0; i < 250 && mock_qp_rq_count(qp) < posted; i++)
		msleep(20);
	f->answered = mock_qp_rq_count(qp) == posted;
	f->replies_waiting = atomic_read(&f->port->live_replies);
	f->overflowed = atomic_long_read(&ip->counters[MADCM_IB_TX_OVERFLOW]);
	return -EIO;
}

/*
 * A port takes MADs from the moment its receive ring is posted, before
 * its QP is in RTS, and the core answers a Get nobody takes with a
 * GetResp "unsupported method/attribute" (IBTA vol. 1 13.4.7): that
 * answer waits for the QP on the overflow list. When the QP does not
 * reach RTS, no port opens, and the waiting answer ends as a reply that
 * could not be sent; its address handle, and the port with it, are
 * released: the test's reference is the last.
 */
static void failed_start_releases_waiting_replies(struct kunit *test)
{
	static const u16 one[] = { 0xffff };
	struct ibt_start_fail *f;
	struct madcm_port *port;
	struct mock_dev *md;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	md = mock_dev_add_hooked(test, one, 1, ibt_fail_first_rts, f);
	KUNIT_ASSERT_EQ(test, f->rts_asked, 1);
	KUNIT_ASSERT_NOT_NULL(test, f->port);
	port = f->port;
	KUNIT_EXPECT_NULL(test, madcm_ib_get_port(&md->ibdev, 1));

	/* The answer was made, and waited for the QP. */
	KUNIT_EXPECT_TRUE(test, f->answered);
	KUNIT_EXPECT_EQ(test, f->replies_waiting, 1);
	KUNIT_EXPECT_EQ(test, f->overflowed, 1);

	/* It is gone, and nothing of the port is left. */
	KUNIT_EXPECT_EQ(test, atomic_read(&port->live_replies), 0);
	KUNIT_EXPECT_EQ(test,
			atomic_long_read(&port->counters[MADCM_CNT_TX_REPLY_FAIL]),
			1);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->live_ahs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&md->live_ahs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&md->live_qps), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&port->refs), 1);
	madcm_port_put(port);
}

static int ibt_init(struct kunit *test)
{
	/* Without it, the mock device would need a DMA device. */
	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		kunit_skip(test, "needs CONFIG_INFINIBAND_VIRT_DMA");
	return 0;
}

static struct kunit_case mad_ib_cases[] = {
	KUNIT_CASE(gmp_leaves_and_returns_on_its_pkey_index),
	KUNIT_CASE(pkey_qps_bounded_and_released),
	KUNIT_CASE(one_pkey_device_refuses_other_indices),
	KUNIT_CASE(free_recv_after_removal_releases_port_atomically),
	KUNIT_CASE(full_window_posted_at_once_waits_for_slots),
	KUNIT_CASE(post_modify_cancel_under_irqsave_lock),
	KUNIT_CASE(failed_recovery_strands_no_send),
	KUNIT_CASE(overflow_allocation_failure_refuses_post),
	KUNIT_CASE(failed_start_releases_waiting_replies),
	{}
};

static struct kunit_suite mad_ib_suite = {
	.name = "madcm_mad_ib",
	.init = ibt_init,
	.test_cases = mad_ib_cases,
};

kunit_test_suite(mad_ib_suite);
