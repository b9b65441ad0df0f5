// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the iw_cm provider (rnic/iw.c) between two CM cores on the
 * software wire.
 *
 * The test plays iw_cm: its cm_ids record the events the provider gives
 * them and count add_ref/rem_ref; a CONNECT_REQUEST is answered from the
 * test's thread (iw_cm answers from its own workqueue, never from the
 * provider's event upcall). Two devices are reduced to what the provider
 * uses (a CM core, a net_device, a QP table) and one QP each.
 * Expectations come from iw_cm's rules (drivers/infiniband/core/iwcm.c:
 * one CONNECT_REPLY per active cm_id, terminal when it carries a status;
 * ESTABLISHED only after an accept that returned 0; no event after a
 * reject or a failed accept; CLOSE as the end of an established one) and
 * the status codes irdma gives (ECONNREFUSED for a reject, ECONNRESET
 * for a peer gone).
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/rtnetlink.h>
#include <linux/in.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include "rnic/rnic.h"
#include "tests/kunit/cm_test_util.h"
#include "tests/kunit/rnic_iw_rec.h"
#include "tests/kunit/rnic_pipe.h"
#ifndef MODULE
/* vlan_setup(), register_vlan_dev(): see iw_vlan_attach() */
#include <../net/8021q/vlan.h>
#endif

#define IW_QPN		7
#define IW_PORT		5000

struct iw_side {
	struct madcm_rnic_dev *dev;
	struct madcm_rnic_qp *qp;
};

struct iw_fix {
	struct cm_fix *cm;
	struct iw_side side[2];
};

static void iw_side_free(struct kunit_resource *res)
{
	struct iw_side *s = res->data;

	if (s->qp) {
		madcm_rnic_qp_stream_destroy(s->qp);
		madcm_rnic_qp_tx_destroy(s->qp);
	}
	xa_destroy(&s->dev->qps);
	if (s->dev->netdev)
		free_netdev(s->dev->netdev);
}

static int iw_side_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

/*
 * The devices and QPs are allocated before the wire, so that they
 * outlive its cores (KUnit frees in reverse order); the pipe that joins
 * the QPs' streams (the CM's loop wire cannot give a stream to a host
 * socket) before them.
 */
static struct iw_fix *iw_fix_create(struct kunit *test)
{
	struct iw_fix *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	struct kunit_resource *res;
	struct rnic_pipe *pipe;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, fx);
	pipe = rnic_pipe_create(test);
	for (i = 0; i < 2; i++) {
		struct iw_side *s = &fx->side[i];

		s->dev = kunit_kzalloc(test, sizeof(*s->dev), GFP_KERNEL);
		s->qp = kunit_kzalloc(test, sizeof(*s->qp), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, s->dev);
		KUNIT_ASSERT_NOT_NULL(test, s->qp);
		xa_init_flags(&s->dev->qps, XA_FLAGS_LOCK_IRQ);
		s->dev->netdev = alloc_etherdev(0);
		KUNIT_ASSERT_NOT_NULL(test, s->dev->netdev);
		res = kunit_alloc_resource(test, iw_side_init, iw_side_free,
					   GFP_KERNEL, s);
		KUNIT_ASSERT_NOT_NULL(test, res);
		s->qp->dev = s->dev;
		s->qp->ibqp.device = &s->dev->ibdev;
		s->qp->ibqp.qp_num = IW_QPN;
		spin_lock_init(&s->qp->lock);
		refcount_set(&s->qp->iw_ref, 1);
		init_completion(&s->qp->iw_free);
		s->qp->state = IB_QPS_INIT;
		madcm_rnic_qp_stream_init(s->qp);
		/* the send side as create_qp makes it (the hold's timer) */
		KUNIT_ASSERT_EQ(test, madcm_rnic_qp_tx_create(s->qp), 0);
		KUNIT_ASSERT_EQ(test, xa_err(xa_store_irq(&s->dev->qps, IW_QPN,
							  s->qp, GFP_KERNEL)),
				0);
	}
	rnic_pipe_join(pipe, &fx->side[0].qp->stream,
		       &fx->side[1].qp->stream);
	fx->cm = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 4);
	for (i = 0; i < 2; i++)
		fx->side[i].dev->core = &fx->cm->core[i]->handle;
	return fx;
}

/* Until the CM detached from the QP, its reference is held. */
static bool iw_qp_idle(struct madcm_rnic_qp *qp)
{
	int i;

	for (i = 0; i < 300 && refcount_read(&qp->iw_ref) != 1; i++)
		msleep(100);
	return refcount_read(&qp->iw_ref) == 1;
}

/* Side 1 listens on its IPv4 or IPv6 address. */
static struct iw_rec *iw_listen(struct kunit *test, struct iw_fix *fx,
				bool v6)
{
	struct iw_rec *l = iw_rec_new(test, &fx->side[1].dev->ibdev);

	iw_sin(&l->id.m_local_addr, v6 ? &fx->cm->v6[1] : &fx->cm->v4[1],
	       IW_PORT);
	KUNIT_ASSERT_EQ(test, madcm_rnic_iw_create_listen(&l->id, 4), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->refs), 1);
	return l;
}

/* Side 0 connects to @port with private data "req". */
static struct iw_rec *iw_connect(struct kunit *test, struct iw_fix *fx,
				 bool v6, u16 port, int expect)
{
	struct iw_rec *a = iw_rec_new(test, &fx->side[0].dev->ibdev);
	struct iw_cm_conn_param param = {
		.private_data = "req",
		.private_data_len = 3,
		.ird = 4,
		.ord = 4,
		.qpn = IW_QPN,
	};

	iw_sin(&a->id.m_local_addr, v6 ? &fx->cm->v6[0] : &fx->cm->v4[0], 0);
	iw_sin(&a->id.m_remote_addr, v6 ? &fx->cm->v6[1] : &fx->cm->v4[1],
	       port);
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_connect(&a->id, &param), expect);
	return a;
}

/* iw_cm's child cm_id for the listener's CONNECT_REQUEST number @i. */
static struct iw_rec *iw_child(struct kunit *test, struct iw_fix *fx,
			       struct iw_rec *l, int i)
{
	struct iw_rec *c = iw_rec_new(test, &fx->side[1].dev->ibdev);

	KUNIT_ASSERT_TRUE(test, iw_wait(l, i + 1));
	KUNIT_ASSERT_EQ(test, l->ev[i], IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, l->status[i], 0);
	KUNIT_EXPECT_EQ(test, l->pdata_len[i], 3);
	KUNIT_EXPECT_EQ(test, memcmp(l->pdata[i], "req", 3), 0);
	KUNIT_ASSERT_NOT_NULL(test, l->provider_data[i]);
	c->id.provider_data = l->provider_data[i];
	c->id.m_local_addr = l->local[i];
	c->id.m_remote_addr = l->remote[i];
	return c;
}

static int iw_accept(struct iw_rec *c)
{
	struct iw_cm_conn_param param = {
		.private_data = "acc",
		.private_data_len = 3,
		.ird = 4,
		.ord = 4,
		.qpn = IW_QPN,
	};

	return madcm_rnic_iw_accept(&c->id, &param);
}

static void connect_accept_close(struct kunit *test, bool v6)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct iw_rec *l, *a, *c;

	l = iw_listen(test, fx, v6);
	a = iw_connect(test, fx, v6, IW_PORT, 0);
	c = iw_child(test, fx, l, 0);
	KUNIT_EXPECT_EQ(test, l->remote[0].ss_family, v6 ? AF_INET6 : AF_INET);

	KUNIT_ASSERT_EQ(test, iw_accept(c), 0);
	/* ESTABLISHED is given before accept returns */
	KUNIT_ASSERT_GE(test, c->nev, 1);
	KUNIT_EXPECT_EQ(test, c->ev[0], IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, c->status[0], 0);

	KUNIT_ASSERT_TRUE(test, iw_wait(a, 1));
	KUNIT_EXPECT_EQ(test, a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->status[0], 0);
	KUNIT_EXPECT_EQ(test, a->pdata_len[0], 3);
	KUNIT_EXPECT_EQ(test, memcmp(a->pdata[0], "acc", 3), 0);
	KUNIT_EXPECT_PTR_EQ(test, fx->side[0].qp->cm_id, &a->id);
	KUNIT_EXPECT_PTR_EQ(test, fx->side[1].qp->cm_id, &c->id);

	/* side 0 closes (iw_cm_disconnect: modify_qp to SQD) */
	madcm_rnic_iw_qp_disconnect(fx->side[0].qp, false);
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 2));
	KUNIT_ASSERT_TRUE(test, iw_wait(c, 3));
	KUNIT_EXPECT_EQ(test, a->ev[1], IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, a->status[1], 0);
	KUNIT_EXPECT_EQ(test, c->ev[1], IW_CM_EVENT_DISCONNECT);
	KUNIT_EXPECT_EQ(test, c->status[1], 0);
	KUNIT_EXPECT_EQ(test, c->ev[2], IW_CM_EVENT_CLOSE);

	/* nothing more, every reference back */
	madcm_wire_loop_quiesce(fx->cm->loop);
	flush_workqueue(fx->cm->core[0]->event_wq);
	flush_workqueue(fx->cm->core[1]->event_wq);
	KUNIT_EXPECT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, c->nev, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->refs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->refs), 0);
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[0].qp));
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[1].qp));
	KUNIT_EXPECT_NULL(test, fx->side[0].qp->ep);

	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->refs), 0);
	KUNIT_EXPECT_EQ(test, l->nev, 1);
}

static void ipv4_connect_accept_close(struct kunit *test)
{
	connect_accept_close(test, false);
}

static void ipv6_connect_accept_close(struct kunit *test)
{
	connect_accept_close(test, true);
}

/*
 * rnic_mpa_crc decides whether the device's connections ask for CRCs in
 * the MPA exchange, as initiator and as listener; with both ends of one
 * mind, the connection carries CRCs exactly when they asked (RFC 5044
 * 7.1.2: either side's C is enough, so none only when neither set it):
 * both QPs' send sides put them in, both receive sides check them.
 */
static int iw_crc_param_init(struct kunit_resource *res, void *context)
{
	res->data = kmalloc(sizeof(bool), GFP_KERNEL);
	if (!res->data)
		return -ENOMEM;
	*(bool *)res->data = READ_ONCE(madcm_rnic_mpa_crc);
	WRITE_ONCE(madcm_rnic_mpa_crc, *(const bool *)context);
	return 0;
}

/* The module's rnic_mpa_crc back as the case found it, however it ends. */
static void iw_crc_param_free(struct kunit_resource *res)
{
	WRITE_ONCE(madcm_rnic_mpa_crc, *(bool *)res->data);
	kfree(res->data);
}

static void rnic_mpa_crc_decides_what_both_ends_ask(struct kunit *test)
{
	const bool *ask = test->param_value;
	struct iw_fix *fx = iw_fix_create(test);
	struct iw_rec *l, *a, *c;
	int i;

	KUNIT_ASSERT_NOT_NULL(test,
			      kunit_alloc_resource(test, iw_crc_param_init,
						   iw_crc_param_free,
						   GFP_KERNEL, (void *)ask));
	l = iw_listen(test, fx, false);
	a = iw_connect(test, fx, false, IW_PORT, 0);
	c = iw_child(test, fx, l, 0);
	KUNIT_ASSERT_EQ(test, iw_accept(c), 0);
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 1));
	KUNIT_ASSERT_EQ(test, a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_EQ(test, a->status[0], 0);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ_MSG(test, fx->side[i].qp->tx_crc, *ask,
				    "side %d sends", i);
		KUNIT_EXPECT_EQ_MSG(test, fx->side[i].qp->rx.mpa.crc_on, *ask,
				    "side %d checks", i);
	}
	madcm_rnic_iw_qp_disconnect(fx->side[0].qp, false);
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 2));
	KUNIT_ASSERT_TRUE(test, iw_wait(c, 3));
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[0].qp));
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[1].qp));
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);
}

static const bool iw_crc_params[] = { true, false };

static void iw_crc_desc(const bool *ask, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "rnic_mpa_crc=%d", *ask);
}

KUNIT_ARRAY_PARAM(iw_crc, iw_crc_params, iw_crc_desc);

/* A reject: CONNECT_REPLY -ECONNREFUSED with its private data; the
 * rejected cm_id gets nothing.
 */
static void reject_gives_econnrefused_with_pdata(struct kunit *test)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct iw_rec *l, *a, *c;

	l = iw_listen(test, fx, false);
	a = iw_connect(test, fx, false, IW_PORT, 0);
	c = iw_child(test, fx, l, 0);
	KUNIT_ASSERT_EQ(test, madcm_rnic_iw_reject(&c->id, "no", 2), 0);

	KUNIT_ASSERT_TRUE(test, iw_wait(a, 1));
	KUNIT_EXPECT_EQ(test, a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->status[0], -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, a->pdata_len[0], 2);
	KUNIT_EXPECT_EQ(test, memcmp(a->pdata[0], "no", 2), 0);

	madcm_wire_loop_quiesce(fx->cm->loop);
	flush_workqueue(fx->cm->core[0]->event_wq);
	flush_workqueue(fx->cm->core[1]->event_wq);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, c->nev, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->refs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->refs), 0);
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[0].qp));
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);
}

/* Nobody listens: the SYN is refused, CONNECT_REPLY -ECONNREFUSED. */
static void refused_connect_gives_one_connect_reply(struct kunit *test)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct iw_rec *a;

	a = iw_connect(test, fx, false, IW_PORT + 1, 0);
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 1));
	KUNIT_EXPECT_EQ(test, a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->status[0], -ECONNREFUSED);
	madcm_wire_loop_quiesce(fx->cm->loop);
	flush_workqueue(fx->cm->core[0]->event_wq);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->refs), 0);
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[0].qp));
}

/* A QP number the device does not have: -EINVAL and no event. */
static void connect_to_unknown_qp_fails_without_events(struct kunit *test)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct iw_rec *a = iw_rec_new(test, &fx->side[0].dev->ibdev);
	struct iw_cm_conn_param param = { .qpn = IW_QPN + 1 };

	iw_sin(&a->id.m_local_addr, &fx->cm->v4[0], 0);
	iw_sin(&a->id.m_remote_addr, &fx->cm->v4[1], IW_PORT);
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_connect(&a->id, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->nev, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->refs), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->side[0].qp->iw_ref), 1);
}

/*
 * The initiator aborts while the request waits for an answer: accept
 * fails with -ECONNRESET and the child gets no event at all (iw_cm
 * BUG()s on a CLOSE in CONN_RECV).
 */
static void accept_after_peer_reset_fails_without_events(struct kunit *test)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct iw_rec *l, *a, *c;

	l = iw_listen(test, fx, false);
	a = iw_connect(test, fx, false, IW_PORT, 0);
	c = iw_child(test, fx, l, 0);

	madcm_rnic_iw_qp_disconnect(fx->side[0].qp, true);
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 1));
	KUNIT_EXPECT_EQ(test, a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->status[0], -ECONNRESET);
	/* the RST reaches side 1 and its CM reports the reset */
	madcm_wire_loop_quiesce(fx->cm->loop);
	flush_workqueue(fx->cm->core[1]->event_wq);

	KUNIT_EXPECT_EQ(test, iw_accept(c), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, c->nev, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->refs), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&fx->side[1].qp->iw_ref), 1);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);
}

/* The listener goes with a request pending: accept fails the same way. */
static void accept_after_destroy_listen_fails(struct kunit *test)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct iw_rec *l, *a, *c;

	l = iw_listen(test, fx, false);
	a = iw_connect(test, fx, false, IW_PORT, 0);
	c = iw_child(test, fx, l, 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->refs), 0);

	KUNIT_EXPECT_EQ(test, iw_accept(c), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, c->nev, 0);
	/* the initiator hears of the reset once */
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 1));
	KUNIT_EXPECT_EQ(test, a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_NE(test, a->status[0], 0);
	madcm_wire_loop_quiesce(fx->cm->loop);
	flush_workqueue(fx->cm->core[0]->event_wq);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->refs), 0);
}

/* The peer resets an established connection: DISCONNECT -ECONNRESET,
 * then CLOSE; our own abort gives CLOSE alone.
 */
static void peer_abort_gives_disconnect_then_close(struct kunit *test)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct iw_rec *l, *a, *c;

	l = iw_listen(test, fx, false);
	a = iw_connect(test, fx, false, IW_PORT, 0);
	c = iw_child(test, fx, l, 0);
	KUNIT_ASSERT_EQ(test, iw_accept(c), 0);
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 1));
	KUNIT_ASSERT_EQ(test, a->status[0], 0);

	/* side 1 aborts (modify_qp to ERROR) */
	madcm_rnic_iw_qp_disconnect(fx->side[1].qp, true);
	KUNIT_ASSERT_TRUE(test, iw_wait(c, 2));
	KUNIT_EXPECT_EQ(test, c->ev[1], IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 3));
	KUNIT_EXPECT_EQ(test, a->ev[1], IW_CM_EVENT_DISCONNECT);
	KUNIT_EXPECT_EQ(test, a->status[1], -ECONNRESET);
	KUNIT_EXPECT_EQ(test, a->ev[2], IW_CM_EVENT_CLOSE);

	madcm_wire_loop_quiesce(fx->cm->loop);
	flush_workqueue(fx->cm->core[0]->event_wq);
	flush_workqueue(fx->cm->core[1]->event_wq);
	KUNIT_EXPECT_EQ(test, a->nev, 3);
	KUNIT_EXPECT_EQ(test, c->nev, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->refs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->refs), 0);
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[0].qp));
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[1].qp));
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);
}

/*
 * The peer closes at once after the accept: the accepting thread, woken
 * by ESTABLISHED, is held in the provider's KUnit hook before it looks at
 * the connection again, and the peer's close runs the child's terminal
 * event to its end in between. iw_cm was given ESTABLISHED, so accept
 * must return 0 (iw_cm handles its queued ESTABLISHED only after accept
 * returned, and a failed accept has taken the cm_id out of CONN_RECV:
 * iwcm.c then BUG()s); the events after it are the ones of any
 * connection the peer closed, and nothing the terminal event let go may
 * be touched by accept afterwards (KASAN is on).
 */
struct iw_race {
	struct kunit *test;
	struct iw_fix *fx;
	struct iw_rec *a;
	bool ran;
	bool closed;
};

/* The provider's hook: the accepting thread, after its wait. */
static void iw_race_close_now(struct iw_cm_id *cm_id)
{
	struct iw_rec *c = container_of(cm_id, struct iw_rec, id);
	struct iw_race *race = c->priv;
	struct kunit *test = race->test;
	struct iw_fix *fx = race->fx;

	race->ran = true;
	/* woken by ESTABLISHED, the only event so far */
	KUNIT_EXPECT_EQ(test, READ_ONCE(c->nev), 1);
	if (READ_ONCE(c->nev) < 1 || c->ev[0] != IW_CM_EVENT_ESTABLISHED) {
		KUNIT_FAIL(test, "accept woke without ESTABLISHED");
		return;
	}
	/* the initiator is connected too, and closes (modify_qp to SQD) */
	if (!iw_wait(race->a, 1)) {
		KUNIT_FAIL(test, "no CONNECT_REPLY for the initiator");
		return;
	}
	KUNIT_EXPECT_EQ(test, race->a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, race->a->status[0], 0);
	madcm_rnic_iw_qp_disconnect(fx->side[0].qp, false);
	/* the child's DISCONNECT and CLOSE, and the handler returned */
	if (!iw_wait(c, 3)) {
		KUNIT_FAIL(test, "no CLOSE for the accepted cm_id");
		return;
	}
	flush_workqueue(fx->cm->core[1]->event_wq);
	race->closed = true;
}

static void accept_returns_0_when_peer_closes_at_once(struct kunit *test)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct iw_race race = { .test = test, .fx = fx };
	struct iw_rec *l, *a, *c;
	int ret;

	l = iw_listen(test, fx, false);
	a = iw_connect(test, fx, false, IW_PORT, 0);
	c = iw_child(test, fx, l, 0);
	race.a = a;
	c->priv = &race;

	fx->side[1].dev->iw_accept_woken = iw_race_close_now;
	ret = iw_accept(c);
	fx->side[1].dev->iw_accept_woken = NULL;
	KUNIT_ASSERT_TRUE(test, race.ran);
	KUNIT_ASSERT_TRUE(test, race.closed);
	KUNIT_EXPECT_EQ(test, ret, 0);

	madcm_wire_loop_quiesce(fx->cm->loop);
	flush_workqueue(fx->cm->core[0]->event_wq);
	flush_workqueue(fx->cm->core[1]->event_wq);
	/* the child: ESTABLISHED, then the peer's close, nothing more */
	KUNIT_ASSERT_EQ(test, c->nev, 3);
	KUNIT_EXPECT_EQ(test, c->ev[0], IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, c->ev[1], IW_CM_EVENT_DISCONNECT);
	KUNIT_EXPECT_EQ(test, c->status[1], 0);
	KUNIT_EXPECT_EQ(test, c->ev[2], IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, c->status[2], 0);
	/*
	 * The initiator's CLOSE waits for the end of its TCP close, which
	 * a quiet wire and flushed queues do not guarantee yet: wait for
	 * it, as an aborted case would leave it to a freed recorder.
	 */
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 2));
	KUNIT_ASSERT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, a->ev[1], IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, a->status[1], 0);

	/* every reference back, the QPs' links gone */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->refs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->refs), 0);
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[0].qp));
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[1].qp));
	KUNIT_EXPECT_NULL(test, fx->side[1].qp->ep);
	KUNIT_EXPECT_NULL(test, fx->side[1].qp->cm_id);
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->refs), 0);
	KUNIT_EXPECT_EQ(test, l->nev, 1);
}

/*
 * The rights a QP connects with. iw_cm gives every QP it connects remote
 * read and write (iw_cm_init_qp_attr()); rdma_cm sets them by modify_qp
 * before iw_connect, except on librdmacm's active side, whose QP keeps
 * the "no rights" rdma_init_qp_attr() told it before the iw_cm_id
 * existed. So a user QP with no remote right gets iw_cm's two at
 * iw_connect, one that has a remote right keeps what it has, and a
 * kernel QP keeps what its consumer set, none included.
 */
struct iw_rights_case {
	const char *desc;
	bool user;
	int before;
	int after;
};

#define IW_REMOTE	(IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ)

static const struct iw_rights_case iw_rights_cases[] = {
	{ "user QP without rights", true, 0, IW_REMOTE },
	{ "user QP with local write only", true, IB_ACCESS_LOCAL_WRITE,
	  IB_ACCESS_LOCAL_WRITE | IW_REMOTE },
	{ "user QP with remote read", true, IB_ACCESS_REMOTE_READ,
	  IB_ACCESS_REMOTE_READ },
	{ "kernel QP without rights", false, 0, 0 },
};

static void iw_rights_desc(const struct iw_rights_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iw_rights, iw_rights_cases, iw_rights_desc);

static void connect_gives_iw_cms_rights_to_a_bare_user_qp(struct kunit *test)
{
	const struct iw_rights_case *c = test->param_value;
	struct iw_fix *fx = iw_fix_create(test);
	struct madcm_rnic_qp *qp = fx->side[0].qp;
	struct iw_rec *a;
	int access;

	/*
	 * a user QP is one with a uverbs object (never looked into); this
	 * one is the calling thread group's own, as for ucma's connect
	 */
	if (c->user) {
		qp->ibqp.uobject = kunit_kzalloc(test, 64, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, qp->ibqp.uobject);
		qp->owner = get_task_pid(current, PIDTYPE_TGID);
	}
	qp->access = c->before;
	/* nobody listens: the rights are set by the time connect returns */
	a = iw_connect(test, fx, false, IW_PORT + 1, 0);
	access = READ_ONCE(qp->access);
	KUNIT_EXPECT_EQ(test, access, c->after);
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 1));
	KUNIT_EXPECT_EQ(test, a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	madcm_wire_loop_quiesce(fx->cm->loop);
	flush_workqueue(fx->cm->core[0]->event_wq);
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(qp));
	qp->ibqp.uobject = NULL;
	put_pid(qp->owner);
	qp->owner = NULL;
}

/*
 * Issue 30, item 8: a QP of another process. A user QP (one with a
 * uverbs object) belongs to the process that created it; a kernel
 * caller (iw_cm's and rdma_cm's work, where in-kernel ULPs connect and
 * accept, and this test's thread) must never get one, and neither may
 * any other process. iw_connect and iw_accept fail as for a QP number
 * the device does not have (-EINVAL), and iw_cm gets no event (iwcm.c:
 * a failed connect or accept is followed by none).
 */
static void iw_foreign_user_qp(struct kunit *test, struct madcm_rnic_qp *qp)
{
	qp->ibqp.uobject = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp->ibqp.uobject);
	/* init's: a process other than this test's kernel thread */
	qp->owner = find_get_pid(1);
	KUNIT_ASSERT_NOT_NULL(test, qp->owner);
	KUNIT_ASSERT_PTR_NE(test, qp->owner, task_tgid(current));
}

static void iw_foreign_user_qp_end(struct madcm_rnic_qp *qp)
{
	qp->ibqp.uobject = NULL;
	put_pid(qp->owner);
	qp->owner = NULL;
}

static u64 iw_not_owner(struct iw_side *s)
{
	return atomic64_read(&s->dev->cnt[MADCM_RNIC_CNT_QP_NOT_OWNER]);
}

static void connect_with_another_owners_qp_fails(struct kunit *test)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct madcm_rnic_qp *qp = fx->side[0].qp;
	struct iw_rec *l, *a;

	l = iw_listen(test, fx, false);
	iw_foreign_user_qp(test, qp);
	a = iw_connect(test, fx, false, IW_PORT, -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_not_owner(&fx->side[0]), 1);
	KUNIT_EXPECT_NULL(test, madcm_rnic_iw_get_qp(&fx->side[0].dev->ibdev,
						     IW_QPN));
	KUNIT_EXPECT_EQ(test, iw_not_owner(&fx->side[0]), 2);
	madcm_wire_loop_quiesce(fx->cm->loop);
	flush_workqueue(fx->cm->core[0]->event_wq);
	flush_workqueue(fx->cm->core[1]->event_wq);
	KUNIT_EXPECT_EQ(test, a->nev, 0);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->refs), 0);
	KUNIT_EXPECT_NULL(test, qp->ep);
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(qp));
	iw_foreign_user_qp_end(qp);
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);
}

static void accept_with_another_owners_qp_fails(struct kunit *test)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct madcm_rnic_qp *qp = fx->side[1].qp;
	struct iw_rec *l, *a, *c;

	l = iw_listen(test, fx, false);
	a = iw_connect(test, fx, false, IW_PORT, 0);
	c = iw_child(test, fx, l, 0);
	iw_foreign_user_qp(test, qp);
	KUNIT_EXPECT_EQ(test, iw_accept(c), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_not_owner(&fx->side[1]), 1);
	KUNIT_EXPECT_EQ(test, c->nev, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->refs), 0);
	KUNIT_EXPECT_NULL(test, qp->ep);
	/* the initiator hears of the refusal once */
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 1));
	KUNIT_EXPECT_EQ(test, a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_NE(test, a->status[0], 0);
	madcm_wire_loop_quiesce(fx->cm->loop);
	flush_workqueue(fx->cm->core[0]->event_wq);
	flush_workqueue(fx->cm->core[1]->event_wq);
	KUNIT_EXPECT_EQ(test, c->nev, 0);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(qp));
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[0].qp));
	iw_foreign_user_qp_end(qp);
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);
}

#ifndef MODULE
/*
 * A real 802.1Q device, made with 8021q's own code as its ioctl makes one
 * (net/8021q/vlan.c, register_vlan_device()): KUnit's kernel has 8021q
 * built in. A madcm.ko built with its suites has no access to it.
 */
#define IW_VID	100

/**
 * struct iw_vlan - a side's net_device replaced by a real one with VLAN
 *	IW_VID above it, the side's address on the VLAN device
 * @dev: the side's device
 * @orig: its net_device before, given back at the end
 * @real: the registered net_device (down: it sends nothing)
 * @vlan: the VLAN device above it
 */
struct iw_vlan {
	struct madcm_rnic_dev *dev;
	struct net_device *orig;
	struct net_device *real;
	struct net_device *vlan;
};

static netdev_tx_t iw_vlan_xmit(struct sk_buff *skb, struct net_device *dev)
{
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops iw_vlan_real_ops = {
	.ndo_start_xmit = iw_vlan_xmit,
};

static int iw_vlan_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

static void iw_vlan_free(struct kunit_resource *res)
{
	struct iw_vlan *v = res->data;

	if (v->dev)
		v->dev->netdev = v->orig;
	/* 8021q frees the VLAN device once it is unregistered */
	rtnl_lock();
	if (v->vlan)
		unregister_vlan_dev(v->vlan, NULL);
	rtnl_unlock();
	unregister_netdev(v->real);
	free_netdev(v->real);
}

static void iw_vlan_attach(struct kunit *test, struct iw_side *s,
			   const struct in6_addr *ip)
{
	struct iw_vlan *v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);
	struct net_device *real, *vlan;
	struct vlan_dev_priv *vp;
	struct sockaddr_in *sin;
	char name[IFNAMSIZ];
	struct ifreq ifr;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, v);
	real = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, real);
	real->netdev_ops = &iw_vlan_real_ops;
	eth_hw_addr_random(real);
	ret = register_netdev(real);
	if (ret)
		free_netdev(real);
	KUNIT_ASSERT_EQ(test, ret, 0);
	v->real = real;
	KUNIT_ASSERT_NOT_NULL(test, kunit_alloc_resource(test, iw_vlan_init,
							 iw_vlan_free,
							 GFP_KERNEL, v));
	snprintf(name, sizeof(name), "%s.%d", real->name, IW_VID);
	vlan = alloc_netdev(sizeof(*vp), name, NET_NAME_UNKNOWN, vlan_setup);
	KUNIT_ASSERT_NOT_NULL(test, vlan);
	vlan->mtu = real->mtu;
	vp = vlan_dev_priv(vlan);
	vp->vlan_proto = htons(ETH_P_8021Q);
	vp->vlan_id = IW_VID;
	vp->real_dev = real;
	vp->flags = VLAN_FLAG_REORDER_HDR;
	vlan->rtnl_link_ops = &vlan_link_ops;
	rtnl_lock();
	ret = register_vlan_dev(vlan, NULL);
	rtnl_unlock();
	if (ret)
		free_netdev(vlan);
	KUNIT_ASSERT_EQ(test, ret, 0);
	v->vlan = vlan;

	memset(&ifr, 0, sizeof(ifr));
	strscpy(ifr.ifr_name, vlan->name, IFNAMSIZ);
	sin = (struct sockaddr_in *)&ifr.ifr_addr;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = ip->s6_addr32[3];
	KUNIT_ASSERT_EQ(test, devinet_ioctl(&init_net, SIOCSIFADDR, &ifr), 0);
	v->dev = s->dev;
	v->orig = s->dev->netdev;
	s->dev->netdev = real;
}

/* A connect from core 0 with VLAN @vid and the private data iw_child wants. */
static void iw_cm_connect_vlan(struct kunit *test, struct cm_fix *cm, u16 vid)
{
	struct madcm_cm_connect_attr attr;

	cm_connect_attr(&attr, &cm->v4[0], &cm->v4[1], IW_PORT, vid, 2,
			&cm->side[0]);
	attr.private_data = "req";
	attr.private_data_len = 3;
	cm_connect(test, cm, 0, &attr);
}

/*
 * rdma_cm gives an iWARP device the addresses of the 802.1Q devices above
 * its net_device: cma_acquire_dev_by_src_ip() matches the GID, which is
 * the net_device's MAC, and a VLAN device has its real device's MAC. So a
 * connect or a listen on such an address runs on that VLAN (IEEE 802.1Q:
 * the VLAN device's VID), and a listen on any address takes the VLAN's
 * connections as well as the untagged ones. The other end of each check
 * is a plain CM consumer whose VLAN is given, so that only the device's
 * choice is under test: a wrong one finds no listener (the SYN is
 * answered with a RST) or no connection.
 */
static void vlan_addresses_run_on_their_vlan(struct kunit *test)
{
	struct iw_fix *fx = iw_fix_create(test);
	struct cm_fix *cm = fx->cm;
	struct madcm_cm_listener *cl;
	struct iw_rec *a, *l, *c;
	struct in6_addr any;
	int i, nrecs;

	iw_vlan_attach(test, &fx->side[0], &cm->v4[0]);
	iw_vlan_attach(test, &fx->side[1], &cm->v4[1]);

	/* a connect from the VLAN address: a listener of VLAN 100 has it */
	cm->side[1].policy = CM_TEST_REJECT;
	cl = cm_listen(test, cm, 1, &cm->v4[1], IW_PORT, IW_VID, 2);
	a = iw_connect(test, fx, false, IW_PORT, 0);
	KUNIT_ASSERT_TRUE(test, iw_wait(a, 1));
	KUNIT_EXPECT_EQ(test, a->ev[0], IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->status[0], -ECONNREFUSED);
	nrecs = READ_ONCE(cm->side[1].nrecs);
	KUNIT_ASSERT_EQ(test, nrecs, 1);
	KUNIT_EXPECT_EQ(test, cm->side[1].recs[0].ev[0],
			MADCM_CM_EVENT_CONNECT_REQUEST);
	madcm_cm_destroy_listener(cl);

	/* a listen on the VLAN address: a connect on VLAN 100 reaches it */
	l = iw_listen(test, fx, false);
	iw_cm_connect_vlan(test, cm, IW_VID);
	c = iw_child(test, fx, l, 0);
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_reject(&c->id, "no", 2), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&cm->side[0], 1));
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);

	/* a listen on any address: VLAN 100's connects and untagged ones */
	l = iw_rec_new(test, &fx->side[1].dev->ibdev);
	ipv6_addr_set_v4mapped(htonl(INADDR_ANY), &any);
	iw_sin(&l->id.m_local_addr, &any, IW_PORT);
	KUNIT_ASSERT_EQ(test, madcm_rnic_iw_create_listen(&l->id, 4), 0);
	for (i = 0; i < 2; i++) {
		iw_cm_connect_vlan(test, cm, i ? MADCM_CM_NO_VLAN : IW_VID);
		c = iw_child(test, fx, l, i);
		KUNIT_EXPECT_EQ(test, madcm_rnic_iw_reject(&c->id, "no", 2), 0);
		KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&cm->side[0], 2 + i));
	}
	KUNIT_EXPECT_EQ(test, madcm_rnic_iw_destroy_listen(&l->id), 0);

	madcm_wire_loop_quiesce(cm->loop);
	flush_workqueue(cm->core[0]->event_wq);
	flush_workqueue(cm->core[1]->event_wq);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->refs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->refs), 0);
	KUNIT_EXPECT_TRUE(test, iw_qp_idle(fx->side[0].qp));
}
#else
static void vlan_addresses_run_on_their_vlan(struct kunit *test)
{
	kunit_skip(test, "8021q's code is not reachable from a module");
}
#endif

static struct kunit_case rnic_iw_cases[] = {
	KUNIT_CASE(ipv4_connect_accept_close),
	KUNIT_CASE(ipv6_connect_accept_close),
	KUNIT_CASE_PARAM(rnic_mpa_crc_decides_what_both_ends_ask,
			 iw_crc_gen_params),
	KUNIT_CASE(reject_gives_econnrefused_with_pdata),
	KUNIT_CASE(refused_connect_gives_one_connect_reply),
	KUNIT_CASE(connect_to_unknown_qp_fails_without_events),
	KUNIT_CASE(connect_with_another_owners_qp_fails),
	KUNIT_CASE(accept_with_another_owners_qp_fails),
	KUNIT_CASE(accept_after_peer_reset_fails_without_events),
	KUNIT_CASE(accept_after_destroy_listen_fails),
	KUNIT_CASE(peer_abort_gives_disconnect_then_close),
	KUNIT_CASE(accept_returns_0_when_peer_closes_at_once),
	KUNIT_CASE_PARAM(connect_gives_iw_cms_rights_to_a_bare_user_qp,
			 iw_rights_gen_params),
	KUNIT_CASE(vlan_addresses_run_on_their_vlan),
	{}
};

static struct kunit_suite rnic_iw_suite = {
	.name = "madcm_rnic_iw",
	.test_cases = rnic_iw_cases,
};

kunit_test_suite(rnic_iw_suite);
