// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: agent registration and unregistration. The rules are those of
 * ib_register_mad_agent(), restated from IBTA vol. 1 13.4.4 (management
 * classes), 13.4.5 (vendor classes, OUI) and 13.6 (RMPP) and written out
 * below case by case.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

#include "mad_test_util.h"

struct reg_case {
	const char *name;
	enum ib_qp_type qp_type;
	bool with_req;
	u8 mgmt_class;
	u8 version;
	u8 oui0;
	u8 rmpp_version;
	bool send_handler;
	bool recv_handler;
	u32 flags;
	int err;
};

static const struct reg_case reg_cases[] = {
	{ "GSI perf class", IB_QPT_GSI, true, 0x04, 1, 0, 0, 1, 1, 0, 0 },
	{ "GSI SA with RMPP", IB_QPT_GSI, true, 0x03, 2, 0, 1, 1, 1, 0, 0 },
	{ "GSI SA user RMPP", IB_QPT_GSI, true, 0x03, 2, 0, 1, 1, 1,
	  IB_MAD_USER_RMPP, 0 },
	{ "SMI LID routed SMP", IB_QPT_SMI, true, 0x01, 1, 0, 0, 1, 1, 0, 0 },
	{ "SMI directed route SMP", IB_QPT_SMI, true, 0x81, 1, 0, 0, 1, 1,
	  0, 0 },
	{ "SMP class on GSI", IB_QPT_GSI, true, 0x01, 1, 0, 0, 1, 1, 0,
	  -EINVAL },
	{ "GMP class on SMI", IB_QPT_SMI, true, 0x04, 1, 0, 0, 1, 1, 0,
	  -EINVAL },
	{ "class 0 reserved", IB_QPT_GSI, true, 0x00, 1, 0, 0, 1, 1, 0,
	  -EINVAL },
	{ "class 0x50 out of range", IB_QPT_GSI, true, 0x50, 1, 0, 0, 1, 1,
	  0, -EINVAL },
	{ "class 0x80 out of range", IB_QPT_GSI, true, 0x80, 1, 0, 0, 1, 1,
	  0, -EINVAL },
	{ "class version 0x82 last valid", IB_QPT_GSI, true, 0x04, 0x82, 0,
	  0, 1, 1, 0, 0 },
	{ "class version 0x83", IB_QPT_GSI, true, 0x04, 0x83, 0, 0, 1, 1, 0,
	  -EINVAL },
	{ "vendor range 2 with OUI", IB_QPT_GSI, true, 0x30, 1, 0x11, 0, 1,
	  1, 0, 0 },
	{ "vendor range 2 without OUI", IB_QPT_GSI, true, 0x4f, 1, 0, 0, 1,
	  1, 0, -EINVAL },
	{ "vendor range 1 without OUI", IB_QPT_GSI, true, 0x09, 1, 0, 0, 1,
	  1, 0, 0 },
	{ "RMPP on non-RMPP class", IB_QPT_GSI, true, 0x04, 1, 0, 1, 1, 1, 0,
	  -EINVAL },
	{ "RMPP version 2", IB_QPT_GSI, true, 0x03, 2, 0, 2, 1, 1, 0,
	  -EINVAL },
	{ "registration without recv handler", IB_QPT_GSI, true, 0x04, 1, 0,
	  0, 1, 0, 0, -EINVAL },
	{ "registration without send handler", IB_QPT_GSI, true, 0x04, 1, 0,
	  0, 0, 1, 0, 0 },
	{ "no registration, send handler", IB_QPT_GSI, false, 0, 0, 0, 0, 1,
	  0, 0, 0 },
	{ "no registration, no send handler", IB_QPT_GSI, false, 0, 0, 0, 0,
	  0, 1, 0, -EINVAL },
	{ "no registration, user RMPP", IB_QPT_GSI, false, 0, 0, 0, 1, 1, 1,
	  IB_MAD_USER_RMPP, -EINVAL },
	{ "no registration, kernel RMPP", IB_QPT_GSI, false, 0, 0, 0, 1, 1, 1,
	  0, 0 },
	{ "UD QP type", IB_QPT_UD, false, 0, 0, 0, 0, 1, 1, 0, -EINVAL },
	{ "unknown flag", IB_QPT_GSI, false, 0, 0, 0, 0, 1, 1, 0x1000,
	  -EINVAL },
};

static void reg_case_desc(const struct reg_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reg, reg_cases, reg_case_desc);

static void nop_send(struct ib_mad_agent *a, struct ib_mad_send_wc *wc)
{
}

static void nop_recv(struct ib_mad_agent *a, struct ib_mad_send_buf *sb,
		     struct ib_mad_recv_wc *wc)
{
	madcm_free_recv_mad(wc);
}

static void register_follows_kernel_rules(struct kunit *test)
{
	const struct reg_case *c = test->param_value;
	struct madcm_port *port = mt_loop_port(test, mt_fabric(test, 1), 1,
					       false);
	struct ib_mad_reg_req req = {};
	struct ib_mad_agent *agent;

	req.mgmt_class = c->mgmt_class;
	req.mgmt_class_version = c->version;
	req.oui[0] = c->oui0;
	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	agent = madcm_register_mad_agent(port, c->qp_type,
					 c->with_req ? &req : NULL,
					 c->rmpp_version,
					 c->send_handler ? nop_send : NULL,
					 c->recv_handler ? nop_recv : NULL,
					 NULL, c->flags);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(agent), c->err);
	if (IS_ERR(agent))
		return;
	KUNIT_EXPECT_EQ(test, agent->rmpp_version, c->rmpp_version);
	KUNIT_EXPECT_EQ(test, madcm_mad_kernel_rmpp_agent(agent),
			c->rmpp_version && !(c->flags & IB_MAD_USER_RMPP));
	KUNIT_EXPECT_EQ(test, agent->flags, c->flags);
	madcm_unregister_mad_agent(agent);
}

static struct ib_mad_agent *reg(struct madcm_port *port, u8 cls, u8 ver,
				u8 oui0, u8 method)
{
	struct ib_mad_reg_req req = {};

	req.mgmt_class = cls;
	req.mgmt_class_version = ver;
	req.oui[0] = oui0;
	set_bit(method, req.method_mask);
	return madcm_register_mad_agent(port, IB_QPT_GSI, &req, 0, nop_send,
					nop_recv, NULL, 0);
}

/* One method of one class, version (and OUI) has one agent at most. */
static void register_conflicting_method_refused(struct kunit *test)
{
	struct madcm_port *port = mt_loop_port(test, mt_fabric(test, 1), 1,
					       false);
	struct ib_mad_agent *a, *b, *c, *d, *e, *f;

	a = reg(port, 0x04, 1, 0, IB_MGMT_METHOD_GET);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	/* Same method: refused. */
	b = reg(port, 0x04, 1, 0, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -EINVAL);
	/* Other method, other version, other class: accepted. */
	c = reg(port, 0x04, 1, 0, IB_MGMT_METHOD_SET);
	d = reg(port, 0x04, 2, 0, IB_MGMT_METHOD_GET);
	e = reg(port, 0x05, 1, 0, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_FALSE(test, IS_ERR(c));
	KUNIT_EXPECT_FALSE(test, IS_ERR(d));
	KUNIT_EXPECT_FALSE(test, IS_ERR(e));
	/* After unregistering, the method is free again. */
	madcm_unregister_mad_agent(a);
	f = reg(port, 0x04, 1, 0, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_FALSE(test, IS_ERR(f));
	if (!IS_ERR(c))
		madcm_unregister_mad_agent(c);
	if (!IS_ERR(d))
		madcm_unregister_mad_agent(d);
	if (!IS_ERR(e))
		madcm_unregister_mad_agent(e);
	if (!IS_ERR(f))
		madcm_unregister_mad_agent(f);
}

/* Vendor range 2 classes are told apart by OUI. */
static void register_vendor_oui_distinguishes(struct kunit *test)
{
	struct madcm_port *port = mt_loop_port(test, mt_fabric(test, 1), 1,
					       false);
	struct ib_mad_agent *a, *b, *c;

	a = reg(port, 0x30, 1, 0x11, IB_MGMT_METHOD_GET);
	b = reg(port, 0x30, 1, 0x22, IB_MGMT_METHOD_GET);
	c = reg(port, 0x30, 1, 0x11, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_FALSE(test, IS_ERR(a));
	KUNIT_EXPECT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(c), -EINVAL);
	if (!IS_ERR(a))
		madcm_unregister_mad_agent(a);
	if (!IS_ERR(b))
		madcm_unregister_mad_agent(b);
}

/* Every agent gets its own hi_tid, within 24 bits. */
static void register_hi_tids_unique(struct kunit *test)
{
	struct madcm_port *port = mt_loop_port(test, mt_fabric(test, 1), 1,
					       false);
	struct ib_mad_agent *agents[16];
	int i, j;

	for (i = 0; i < ARRAY_SIZE(agents); i++) {
		agents[i] = madcm_register_mad_agent(port, IB_QPT_GSI, NULL, 0,
						     nop_send, NULL, NULL, 0);
		KUNIT_ASSERT_FALSE(test, IS_ERR(agents[i]));
		KUNIT_EXPECT_LT(test, agents[i]->hi_tid, 1U << 24);
	}
	for (i = 0; i < ARRAY_SIZE(agents); i++)
		for (j = i + 1; j < ARRAY_SIZE(agents); j++)
			KUNIT_EXPECT_NE(test, agents[i]->hi_tid,
					agents[j]->hi_tid);
	for (i = 0; i < ARRAY_SIZE(agents); i++)
		madcm_unregister_mad_agent(agents[i]);
}

static void register_null_port_refused(struct kunit *test)
{
	struct ib_mad_agent *agent;

	agent = madcm_register_mad_agent(NULL, IB_QPT_GSI, NULL, 0, nop_send,
					 NULL, NULL, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(agent), -EINVAL);
}

/* Each allocation of registration failing in turn: an error, no leak. */
static void register_allocation_failures(struct kunit *test)
{
	static const enum madcm_fault_site sites[] = {
		MADCM_FAULT_AGENT, MADCM_FAULT_REG_REQ, MADCM_FAULT_TID_TABLE,
		MADCM_FAULT_HI_TID, MADCM_FAULT_REG_SLOT,
	};
	struct madcm_port *port = mt_loop_port(test, mt_fabric(test, 1), 1,
					       false);
	struct ib_mad_agent *agent;
	int i;

	for (i = 0; i < ARRAY_SIZE(sites); i++) {
		madcm_fault_arm(sites[i], 1);
		agent = reg(port, 0x04, 1, 0, IB_MGMT_METHOD_GET);
		KUNIT_EXPECT_EQ(test, madcm_fault_hits(), 1U);
		madcm_fault_disarm();
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(agent), -ENOMEM,
				    "site %d", sites[i]);
		if (!IS_ERR(agent))
			madcm_unregister_mad_agent(agent);
		KUNIT_EXPECT_EQ(test, atomic_read(&port->nr_agents), 0);
		/* The method was not left claimed. */
		agent = reg(port, 0x04, 1, 0, IB_MGMT_METHOD_GET);
		KUNIT_EXPECT_FALSE(test, IS_ERR(agent));
		if (!IS_ERR(agent))
			madcm_unregister_mad_agent(agent);
	}
}

/* The same failures for an agent whose RMPP madcm does (SA, version 2). */
static void register_rmpp_agent_allocation_failures(struct kunit *test)
{
	static const enum madcm_fault_site sites[] = {
		MADCM_FAULT_AGENT, MADCM_FAULT_REG_REQ, MADCM_FAULT_TID_TABLE,
		MADCM_FAULT_HI_TID, MADCM_FAULT_REG_SLOT,
	};
	struct madcm_port *port = mt_loop_port(test, mt_fabric(test, 1), 1,
					       false);
	struct ib_mad_reg_req req = {
		.mgmt_class = IB_MGMT_CLASS_SUBN_ADM,
		.mgmt_class_version = 2,
	};
	struct ib_mad_agent *agent;
	int i;

	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	for (i = 0; i < ARRAY_SIZE(sites); i++) {
		madcm_fault_arm(sites[i], 1);
		agent = madcm_register_mad_agent(port, IB_QPT_GSI, &req, 1,
						 nop_send, nop_recv, NULL, 0);
		KUNIT_EXPECT_EQ(test, madcm_fault_hits(), 1U);
		madcm_fault_disarm();
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(agent), -ENOMEM,
				    "site %d", sites[i]);
		if (!IS_ERR(agent))
			madcm_unregister_mad_agent(agent);
		KUNIT_EXPECT_EQ(test, atomic_read(&port->nr_agents), 0);
		agent = madcm_register_mad_agent(port, IB_QPT_GSI, &req, 1,
						 nop_send, nop_recv, NULL, 0);
		KUNIT_EXPECT_FALSE(test, IS_ERR(agent));
		if (!IS_ERR(agent)) {
			KUNIT_EXPECT_EQ(test,
					madcm_mad_kernel_rmpp_agent(agent), 1);
			madcm_unregister_mad_agent(agent);
		}
	}
}

/* A recv handler in progress: unregistration waits until it returns. */
struct slow_ctx {
	struct completion entered;
	atomic_t returned;
};

static void slow_recv(struct ib_mad_agent *a, struct ib_mad_send_buf *sb,
		      struct ib_mad_recv_wc *wc)
{
	struct slow_ctx *sc = a->context;

	complete(&sc->entered);
	msleep(50);
	atomic_set(&sc->returned, 1);
	madcm_free_recv_mad(wc);
}

static void unregister_waits_for_running_handler(struct kunit *test)
{
	struct madcm_loop_fabric *fab = mt_fabric(test, 1);
	struct madcm_port *a = mt_loop_port(test, fab, 1, false);
	struct madcm_port *b = mt_loop_port(test, fab, 2, false);
	struct slow_ctx *sc = kunit_kzalloc(test, sizeof(*sc), GFP_KERNEL);
	static const u8 get[] = { IB_MGMT_METHOD_GET };
	struct ib_mad_reg_req req;
	struct ib_mad_agent *slow;
	struct ib_mad_send_buf *sb;
	struct mt_agent *client;

	KUNIT_ASSERT_NOT_NULL(test, sc);
	init_completion(&sc->entered);
	mt_reg_req(&req, MT_CLASS, MT_VERSION, get, 1);
	slow = madcm_register_mad_agent(b, IB_QPT_GSI, &req, 0, nop_send,
					slow_recv, sc, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(slow));
	client = mt_register(test, a, IB_QPT_GSI, NULL, 0, nop_send, NULL,
			     NULL);
	sb = mt_get_mad(test, client->agent, mt_ah(test, a, 2), 1, 0, 0);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test,
			  wait_for_completion_timeout(&sc->entered, 30 * HZ));
	madcm_unregister_mad_agent(slow);
	KUNIT_EXPECT_EQ(test, atomic_read(&sc->returned), 1);
	madcm_loop_quiesce(fab);
	madcm_free_send_mad(sb);
}

/* A registration made by another thread. */
struct reg_thread {
	struct madcm_port *port;
	struct ib_mad_agent *agent;
	struct completion done;
};

static int reg_thread_fn(void *arg)
{
	struct reg_thread *rt = arg;

	rt->agent = reg(rt->port, 0x04, 1, 0, IB_MGMT_METHOD_GET);
	complete(&rt->done);
	return 0;
}

/* A response as a peer would send it, to TID @hi:1 of class 0x04. */
static void response_hdr(struct ib_mad_hdr *hdr, u32 hi)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = 0x04;
	hdr->class_version = 1;
	hdr->method = IB_MGMT_METHOD_GET_RESP;
	hdr->tid = cpu_to_be64((u64)hi << 32 | 1);
}

/*
 * A registration that fails on a method conflict is never seen: while it
 * waits to register its methods, a response to the hi_tid it got finds
 * no agent (hi_tids are handed out in turn, so a peer can guess it).
 */
static void register_conflict_never_visible(struct kunit *test)
{
	struct madcm_port *port = mt_loop_port(test, mt_fabric(test, 1), 1,
					       false);
	struct reg_thread *rt = kunit_kzalloc(test, sizeof(*rt), GFP_KERNEL);
	struct madcm_agent *seen;
	struct task_struct *task;
	struct ib_mad_agent *a;
	struct ib_mad_hdr hdr;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, rt);
	a = reg(port, 0x04, 1, 0, IB_MGMT_METHOD_GET);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	rt->port = port;
	init_completion(&rt->done);

	/* Hold registrations back: the thread stops before its methods. */
	mutex_lock(&port->reg_mutex);
	task = kthread_create(reg_thread_fn, rt, "madcm_reg");
	if (IS_ERR(task)) {
		mutex_unlock(&port->reg_mutex);
		madcm_unregister_mad_agent(a);
		KUNIT_FAIL(test, "kthread_create: %ld", PTR_ERR(task));
		return;
	}
	get_task_struct(task);
	wake_up_process(task);
	for (i = 0; i < 5000; i++) {
		if (READ_ONCE(task->__state) == TASK_UNINTERRUPTIBLE)
			break;
		usleep_range(1000, 2000);
	}
	KUNIT_EXPECT_EQ(test, READ_ONCE(task->__state), TASK_UNINTERRUPTIBLE);
	response_hdr(&hdr, a->hi_tid + 1);
	seen = madcm_agent_find_response(port, &hdr);
	mutex_unlock(&port->reg_mutex);
	KUNIT_EXPECT_NULL(test, seen);

	KUNIT_EXPECT_TRUE(test,
			  wait_for_completion_timeout(&rt->done, 30 * HZ));
	put_task_struct(task);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(rt->agent), -EINVAL);
	if (seen)
		madcm_agent_put(seen);
	madcm_unregister_mad_agent(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->nr_agents), 0);
}

/* Floods responses to the hi_tid the next registration gets. */
struct flood_thread {
	struct madcm_port *port;
	u32 hi;
	unsigned long sent;
	atomic_t ghost_recvs;
};

/* An SA GetResp with the RMPP Active flag (IBTA vol. 1 13.6.2.1). */
static void rmpp_response(u8 *mad, u32 hi)
{
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)mad;

	memset(mad, 0, sizeof(struct ib_mad));
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = IB_MGMT_CLASS_SUBN_ADM;
	hdr->class_version = 2;
	hdr->method = IB_MGMT_METHOD_GET_RESP;
	hdr->tid = cpu_to_be64((u64)hi << 32 | 1);
	mad[24] = 1;		/* RMPPVersion */
	mad[25] = 1;		/* RMPPType DATA */
	mad[26] = 0x7;		/* Active, First, Last */
	mad[31] = 1;		/* SegmentNumber 1 */
	mad[35] = 200;		/* PayloadLength */
}

static int flood_fn(void *arg)
{
	struct flood_thread *ft = arg;
	u8 mad[sizeof(struct ib_mad)];
	struct madcm_port_rx rx = {
		.mad = mad, .len = sizeof(mad), .qpn = 1, .src_qp = 1,
		.slid = 2,
	};
	int i;

	while (!kthread_should_stop()) {
		/*
		 * Sleep with registrations held back: the next one stops
		 * right before its methods, then the responses come.
		 */
		mutex_lock(&ft->port->reg_mutex);
		usleep_range(20, 50);
		for (i = 0; i < 4; i++) {
			rmpp_response(mad, READ_ONCE(ft->hi));
			madcm_port_deliver(ft->port, &rx);
			ft->sent++;
		}
		mutex_unlock(&ft->port->reg_mutex);
		usleep_range(20, 50);
	}
	return 0;
}

static void ghost_recv(struct ib_mad_agent *a, struct ib_mad_send_buf *sb,
		       struct ib_mad_recv_wc *wc)
{
	struct flood_thread *ft = a->context;

	atomic_inc(&ft->ghost_recvs);
	madcm_free_recv_mad(wc);
}

static struct ib_mad_agent *reg_user_rmpp(struct madcm_port *port,
					  struct flood_thread *ft)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = IB_MGMT_CLASS_SUBN_ADM,
		.mgmt_class_version = 2,
	};

	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	return madcm_register_mad_agent(port, IB_QPT_GSI, &req,
					IB_MGMT_RMPP_VERSION, nop_send,
					ghost_recv, ft, IB_MAD_USER_RMPP);
}

/*
 * Stress: conflicting registrations loop while a thread floods responses
 * to the hi_tid each of them gets. An agent that does RMPP itself is
 * handed even unmatched RMPP responses, so a failed registration that was
 * visible for a moment shows as a call of its recv handler. None may come,
 * nothing may leak.
 */
static void register_conflicts_under_response_flood(struct kunit *test)
{
	struct madcm_port *port = mt_loop_port(test, mt_fabric(test, 1), 1,
					       false);
	struct flood_thread *ft = kunit_kzalloc(test, sizeof(*ft), GFP_KERNEL);
	struct ib_mad_agent *a, *b;
	struct task_struct *task;
	int i, refused = 0;

	KUNIT_ASSERT_NOT_NULL(test, ft);
	a = reg_user_rmpp(port, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	ft->port = port;
	ft->hi = a->hi_tid + 1;
	task = kthread_run(flood_fn, ft, "madcm_flood");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	get_task_struct(task);
	for (i = 0; i < 500; i++) {
		b = reg_user_rmpp(port, ft);
		if (PTR_ERR_OR_ZERO(b) == -EINVAL)
			refused++;
		else if (!IS_ERR(b))
			madcm_unregister_mad_agent(b);
		/* The next registration gets the next hi_tid. */
		WRITE_ONCE(ft->hi, READ_ONCE(ft->hi) + 1);
		/* Let the flood take the registration lock now and then. */
		usleep_range(50, 100);
	}
	kthread_stop(task);
	put_task_struct(task);
	KUNIT_EXPECT_EQ(test, refused, 500);
	KUNIT_EXPECT_GT(test, ft->sent, 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&ft->ghost_recvs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->nr_agents), 1);
	madcm_unregister_mad_agent(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->nr_agents), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&port->live_recvs), 0);
}

static struct kunit_case mad_agent_cases[] = {
	KUNIT_CASE_PARAM(register_follows_kernel_rules, reg_gen_params),
	KUNIT_CASE(register_conflicting_method_refused),
	KUNIT_CASE(register_vendor_oui_distinguishes),
	KUNIT_CASE(register_hi_tids_unique),
	KUNIT_CASE(register_null_port_refused),
	KUNIT_CASE(register_allocation_failures),
	KUNIT_CASE(register_rmpp_agent_allocation_failures),
	KUNIT_CASE(unregister_waits_for_running_handler),
	KUNIT_CASE(register_conflict_never_visible),
	KUNIT_CASE(register_conflicts_under_response_flood),
	{}
};

static struct kunit_suite mad_agent_suite = {
	.name = "madcm_mad_agent",
	.test_cases = mad_agent_cases,
};

kunit_test_suite(mad_agent_suite);
