// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: RMPP transfers across two loopback ports, on clean links and on
 * links that drop 10%, duplicate 5% and reorder 5% of the MADs both ways:
 * one segment, exactly one window, and 1 MiB arrive byte for byte, with
 * the segment headers the spec prescribes; a request answered by an RMPP
 * response; an agent unregistered in the middle of a transfer.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/ktime.h>

#include "mad/rmpp.h"
#include "mad_rmpp_util.h"

#define LID_A	1
#define LID_B	2
#define WINDOW	64

struct xfer_param {
	const char *name;
	size_t len;
	bool lossy;
};

static const struct xfer_param xfer_params[] = {
	{ "one segment, clean", 150, false },
	{ "one window, clean", WINDOW * RT_DATA, false },
	{ "1 MiB, clean", 1 << 20, false },
	{ "one segment, lossy", 150, true },
	{ "one window, lossy", WINDOW * RT_DATA, true },
	{ "1 MiB, lossy", 1 << 20, true },
};

static void xfer_desc(const struct xfer_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(xfer, xfer_params, xfer_desc);

static const struct madcm_loop_faults lossy = {
	.drop = 100, .duplicate = 50, .reorder = 50,
};

struct rmpp_env {
	struct madcm_loop_fabric *fab;
	struct madcm_port *a;
	struct madcm_port *b;
};

static int rmpp_init(struct kunit *test)
{
	return rt_params_init(test, WINDOW, 40);
}

static struct rmpp_env *env_new(struct kunit *test, bool faulty)
{
	struct rmpp_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, env);
	env->fab = mt_fabric(test, 4242);
	env->a = mt_loop_port(test, env->fab, LID_A, false);
	env->b = mt_loop_port(test, env->fab, LID_B, false);
	if (faulty) {
		KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(env->a, LID_B,
							    &lossy), 0);
		KUNIT_ASSERT_EQ(test, madcm_loop_set_faults(env->b, LID_A,
							    &lossy), 0);
	}
	return env;
}

static void transfer_arrives_byte_exact(struct kunit *test)
{
	const struct xfer_param *p = test->param_value;
	static const u8 set[] = { RT_SET };
	struct rmpp_env *env = env_new(test, p->lossy);
	struct rt_agent_log *tx = rt_log(test, 0, 0);
	struct rt_agent_log *rx = rt_log(test, p->len, 7);
	struct mt_agent *sender;
	struct ib_mad_send_buf *sb;
	u32 nseg = rt_nseg(p->len);
	ktime_t t0;

	/* Clean links: a timer long enough that nothing is resent. */
	madcm_rmpp_ack_timeout_ms = p->lossy ? 40 : 2000;
	sender = rt_agent(test, env->a, NULL, 0, 0, tx);
	rt_agent(test, env->b, set, 1, 0, rx);
	sb = rt_send(test, sender->agent, mt_ah(test, env->a, LID_B), RT_SET,
		     1, p->len, 7, 0, 40);
	t0 = ktime_get();
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, rt_wait(&tx->sent, 240));
	KUNIT_ASSERT_TRUE(test, rt_wait(&rx->received, 30));
	madcm_loop_quiesce(env->fab);
	/* For the log only: nothing is asserted about time. */
	kunit_info(test, "%u segments in %lld ms: %ld resent, %d retries, %ld ACKs\n",
		   nseg, ktime_ms_delta(ktime_get(), t0),
		   mt_counter(env->a, MADCM_CNT_RMPP_TX_RESEG), tx->last_retries,
		   mt_counter(env->b, MADCM_CNT_RMPP_TX_ACK));

	KUNIT_EXPECT_EQ(test, tx->status[IB_WC_SUCCESS], 1);
	KUNIT_EXPECT_EQ(test, tx->sends, 1);
	KUNIT_EXPECT_EQ(test, rx->transfers, 1);
	KUNIT_EXPECT_EQ(test, rx->bad, 0);
	KUNIT_EXPECT_EQ(test, rx->nseg, nseg);
	KUNIT_EXPECT_EQ(test, rx->mad_len, RT_HDR + p->len);
	/* Every segment was kept exactly once, however often it came. */
	KUNIT_EXPECT_EQ(test, mt_counter(env->b, MADCM_CNT_RMPP_RX_SEG), nseg);
	KUNIT_EXPECT_EQ(test, mt_counter(env->a, MADCM_CNT_RMPP_TX_SEG), nseg);
	KUNIT_EXPECT_EQ(test, mt_counter(env->b, MADCM_CNT_RMPP_RX_DONE), 1);
	KUNIT_EXPECT_EQ(test, mt_counter(env->a, MADCM_CNT_RMPP_TX_DONE), 1);
	KUNIT_EXPECT_GE(test, mt_counter(env->b, MADCM_CNT_RMPP_TX_ACK),
			DIV_ROUND_UP(nseg, WINDOW));
	if (!p->lossy) {
		KUNIT_EXPECT_EQ(test,
				mt_counter(env->a, MADCM_CNT_RMPP_TX_RESEG), 0);
		KUNIT_EXPECT_EQ(test,
				mt_counter(env->b, MADCM_CNT_RMPP_RX_DUP), 0);
		KUNIT_EXPECT_EQ(test, tx->last_retries, 0);
	} else if (nseg > 1) {
		KUNIT_EXPECT_GT(test,
				mt_counter(env->a, MADCM_CNT_RMPP_TX_RESEG), 0);
	}
	KUNIT_EXPECT_EQ(test, mt_counter(env->b, MADCM_CNT_RMPP_RX_BAD), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->b->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&env->b->rmpp_bytes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->b->live_recvs), 0);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(sender->agent), 0);
}

struct dual_param {
	const char *name;
	bool lossy;
};

static const struct dual_param dual_params[] = {
	{ "clean", false },
	{ "lossy", true },
};

static void dual_desc(const struct dual_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dual, dual_params, dual_desc);

/* 13.6.5.3: a request sent with RMPP, answered with RMPP. */
static void request_answered_by_rmpp_response(struct kunit *test)
{
	static const u8 getmulti[] = { RT_GET_MULTI };
	const struct dual_param *p = test->param_value;
	struct rmpp_env *env = env_new(test, p->lossy);
	struct rt_agent_log *req = rt_log(test, 20000, 9);
	struct rt_agent_log *srv = rt_log(test, 3000, 5);
	struct mt_agent *client, *server;
	struct ib_mad_send_buf *sb;

	srv->respond_len = 20000;
	srv->respond_seed = 9;
	srv->respond_retries = 40;
	client = rt_agent(test, env->a, NULL, 0, 0, req);
	server = rt_agent(test, env->b, getmulti, 1, 0, srv);
	/*
	 * The request waits for its response timeout_ms after each response
	 * segment; the response (timeout_ms 0) resends a lost window after
	 * rmpp_ack_timeout_ms (2000). A request timeout below that ended the
	 * request while the responder was still waiting to resend, now and
	 * then on the lossy links, and the rest of the response went unasked.
	 */
	sb = rt_send(test, client->agent, mt_ah(test, env->a, LID_B),
		     RT_GET_MULTI, 77, 3000, 5,
		     READ_ONCE(madcm_rmpp_ack_timeout_ms) + 1000, 40);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, rt_wait(&req->sent, 120));
	KUNIT_ASSERT_TRUE(test, rt_wait(&srv->sent, 60));
	madcm_loop_quiesce(env->fab);

	KUNIT_EXPECT_EQ(test, srv->transfers, 1);
	KUNIT_EXPECT_EQ(test, srv->bad, 0);
	KUNIT_EXPECT_EQ(test, srv->respond_err, 0);
	KUNIT_EXPECT_EQ(test, srv->status[IB_WC_SUCCESS], 1);
	/* The response reached the request's recv handler, whole. */
	KUNIT_EXPECT_EQ(test, req->status[IB_WC_SUCCESS], 1);
	KUNIT_EXPECT_EQ(test, req->transfers, 1);
	KUNIT_EXPECT_EQ(test, req->with_send, 1);
	KUNIT_EXPECT_EQ(test, req->bad, 0);
	KUNIT_EXPECT_EQ(test, req->nseg, rt_nseg(20000));
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(server->agent), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->a->live_recvs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->b->live_recvs), 0);
}

/*
 * Unregistering the sender mid-transfer: it ABORTs the transfer, and the
 * receiver lets it go at once, without waiting for its inactivity time.
 */
static void unregister_mid_transfer_leaves_nothing(struct kunit *test)
{
	static const u8 set[] = { RT_SET };
	struct rmpp_env *env = env_new(test, false);
	struct rt_agent_log *tx = rt_log(test, 0, 0);
	struct rt_agent_log *rx = rt_log(test, 1 << 20, 3);
	struct mt_agent *sender;
	struct ib_mad_send_buf *sb;
	int i;

	madcm_rmpp_recv_timeout_ms = 300;
	sender = rt_agent(test, env->a, NULL, 0, 0, tx);
	rt_agent(test, env->b, set, 1, 0, rx);
	sb = rt_send(test, sender->agent, mt_ah(test, env->a, LID_B), RT_SET,
		     2, 1 << 20, 3, 0, 5);
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	for (i = 0; i < 2000 &&
	     mt_counter(env->b, MADCM_CNT_RMPP_RX_SEG) < 100; i++)
		usleep_range(1000, 2000);
	KUNIT_ASSERT_GE(test, mt_counter(env->b, MADCM_CNT_RMPP_RX_SEG), 100);
	mt_unregister(sender);
	KUNIT_EXPECT_EQ(test, tx->sends, 1);
	KUNIT_EXPECT_EQ(test, tx->status[IB_WC_WR_FLUSH_ERR], 1);
	madcm_loop_quiesce(env->fab);
	KUNIT_EXPECT_EQ(test, mt_counter(env->b, MADCM_CNT_RMPP_RX_ABORT), 1);
	KUNIT_EXPECT_EQ(test, mt_counter(env->b, MADCM_CNT_RMPP_RX_TIMEOUT), 0);
	KUNIT_EXPECT_EQ(test, rx->transfers, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->b->rmpp_reassemblies), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&env->b->rmpp_bytes), 0);
}

static struct kunit_case mad_rmpp_cases[] = {
	KUNIT_CASE_PARAM(transfer_arrives_byte_exact, xfer_gen_params),
	KUNIT_CASE_PARAM(request_answered_by_rmpp_response, dual_gen_params),
	KUNIT_CASE(unregister_mid_transfer_leaves_nothing),
	{}
};

static struct kunit_suite mad_rmpp_suite = {
	.name = "madcm_mad_rmpp",
	.init = rmpp_init,
	.exit = rt_params_exit,
	.test_cases = mad_rmpp_cases,
};

kunit_test_suite(mad_rmpp_suite);
