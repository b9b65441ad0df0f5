// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the software RNIC's data path end to end (madcm_rnic_rdmap).
 *
 * Two madcm RNICs, each over an Ethernet net_device of its own
 * (madcm_rnic_newlink(), as `rdma link add` does), one kernel RC QP each
 * made through ib_core, handed a TCP stream each as the CM hands one
 * over (the offload op with a context that mirrors the other side's).
 * The QPs' streams are joined back to back by the test's pipe
 * (tests/kunit/rnic_pipe.c): what one sends, the other receives, in
 * order, from a work item of the pipe (the wire).
 * Everything the consumer sees goes through ib_core: post_send,
 * post_recv, poll_cq, modify_qp.
 *
 * Expectations come from the RFCs and the verbs, not from the code:
 * RFC 5040 (a Send lands in the next receive and completes it with its
 * length; an RDMA Write lands at the STag and offset named; an RDMA Read
 * brings the source's bytes; a Send with Invalidate invalidates the STag
 * it names and the receive says so; an access to an STag without the
 * right makes the Data Sink send a Terminate and end the stream) and the
 * verbs (IBTA vol. 1 ch. 10.8, 11.4: send completions in order, an
 * unsignaled success makes no CQE, an error always does and moves the
 * QP to Error, which completes every other outstanding work request once
 * with IB_WC_WR_FLUSH_ERR; inline data is taken at post time).
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include "irdma_cm/mpa.h"
#include "rnic/rnic.h"
#include "tests/kunit/rnic_pipe.h"
#include "tests/kunit/rnic_test_dev.h"

#define RD_BUF		(1024 * 1024)
#define RD_MSS		1460
#define RD_WND		(256 * 1024)
#define RD_WSCALE	4
#define RD_DEPTH	8
#define RD_WAIT_MS	15000
#define RD_PORT		4000

struct rd_fix;

struct rd_side {
	struct rd_fix *fx;
	int id;
	struct net_device *nd;
	struct ib_device *ibdev;
	struct madcm_rnic_dev *dev;
	struct ib_pd *pd;
	struct ib_cq *scq;
	struct ib_cq *rcq;
	/* @rcq came from ib_alloc_cq(): ib_core polls it */
	bool rcq_alloc;
	struct ib_qp *ibqp;
	struct madcm_rnic_qp *qp;
	u8 *buf;
	u8 *buf2;
	struct ib_mr *mr;
	/* calls of the receive CQ's completion handler */
	atomic_t rcq_calls;
	/* the engine's reports to the CM */
	atomic_t ev_reset;
	atomic_t ev_closed;
};

struct rd_fix {
	struct rd_side s[2];
	struct rnic_pipe *pipe;
};

/* The fixture of the running case (cases run one at a time). */
static struct rd_fix *rd_cur;

/*
 * How rd_side_init() makes the receive CQs: ib_create_cq() (-1, a
 * consumer that polls them itself) or ib_alloc_cq() with this polling
 * context. rd_exit() sets it back.
 */
static int rd_rcq_poll = -1;

static void rd_comp(struct ib_cq *cq, void *ctx)
{
	atomic_inc(ctx);
}

static struct rd_side *rd_side_of(struct madcm_rnic_stream *t)
{
	struct madcm_rnic_qp *qp = container_of(t, struct madcm_rnic_qp,
						stream);
	struct rd_fix *fx = rd_cur;

	return fx->s[0].qp == qp ? &fx->s[0] : &fx->s[1];
}

static void rd_event(struct madcm_rnic_stream *t, enum madcm_cm_offload_event ev,
		     int status)
{
	struct rd_side *s = rd_side_of(t);

	if (ev == MADCM_CM_OFFLOAD_EV_RESET)
		atomic_inc(&s->ev_reset);
	else if (ev == MADCM_CM_OFFLOAD_EV_CLOSED)
		atomic_inc(&s->ev_closed);
}

static int rd_qp_state(struct madcm_rnic_stream *t, int state)
{
	struct madcm_rnic_qp *qp = container_of(t, struct madcm_rnic_qp, stream);

	if (state == IB_QPS_RTS)
		return madcm_rnic_qp_to_rts(qp);
	madcm_rnic_qp_set_error(qp);
	return 0;
}

static void rd_release(struct madcm_rnic_stream *t)
{
}

static int rd_rx_start(struct madcm_rnic_stream *t,
		       const struct madcm_cm_offload_ctx *ctx)
{
	return madcm_rnic_qp_rx_start(container_of(t, struct madcm_rnic_qp,
						   stream), ctx);
}

static const struct madcm_rnic_stream_out rd_out = {
	.event = rd_event,
	.qp_state = rd_qp_state,
	.release = rd_release,
	.rx_data = madcm_rnic_qp_rx_data,
	.tx_room = madcm_rnic_qp_tx_room,
	.rx_start = rd_rx_start,
	.tx_start = madcm_rnic_qp_tx_start,
};

static struct ib_qp *rd_create_qp(struct rd_side *s)
{
	struct ib_qp_init_attr attr = {
		.send_cq = s->scq,
		.recv_cq = s->rcq,
		.cap = {
			.max_send_wr = 64,
			.max_recv_wr = 64,
			.max_send_sge = MADCM_RNIC_MAX_SGE,
			.max_recv_sge = MADCM_RNIC_MAX_SGE,
			.max_inline_data = MADCM_RNIC_MAX_INLINE,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};

	return ib_create_qp(s->pd, &attr);
}

static void rd_side_init(struct kunit *test, struct rd_fix *fx, int i)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 256 };
	/* at INIT, the rights iw_cm gives (iw_cm_init_qp_attr()) */
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ,
	};
	struct rd_side *s = &fx->s[i];

	s->fx = fx;
	s->id = i;
	rnic_test_dev_create(test, "mkd%d", &s->nd, &s->ibdev);
	s->dev = to_madcm_rnic(s->ibdev);

	/* one STag for all of memory: local and remote access */
	s->pd = ib_alloc_pd(s->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s->pd));
	s->scq = ib_create_cq(s->ibdev, NULL, NULL, NULL, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s->scq));
	s->rcq_alloc = rd_rcq_poll >= 0;
	if (s->rcq_alloc)
		s->rcq = ib_alloc_cq(s->ibdev, NULL, cq_attr.cqe, 0,
				     rd_rcq_poll);
	else
		s->rcq = ib_create_cq(s->ibdev, rd_comp, NULL, &s->rcq_calls,
				      &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s->rcq));
	s->ibqp = rd_create_qp(s);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s->ibqp));
	s->qp = to_madcm_rnic_qp(s->ibqp);
	s->qp->stream.out = &rd_out;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(s->ibqp, &attr, IB_QP_STATE |
					   IB_QP_ACCESS_FLAGS), 0);
	s->buf = kvzalloc(RD_BUF, GFP_KERNEL);
	s->buf2 = kvzalloc(RD_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->buf);
	KUNIT_ASSERT_NOT_NULL(test, s->buf2);
}

/* Side @i's view of the stream: its sequence numbers and the other's. */
static void rd_ctx(struct rd_fix *fx, int i, struct madcm_cm_offload_ctx *ctx)
{
	static const u32 iss[2] = { 0x10000000, 0xf0000000 };
	struct madcm_cm_tcp_ctx *c = &ctx->tcp;
	int o = !i;

	memset(ctx, 0, sizeof(*ctx));
	c->ipv4 = true;
	c->vlan_id = MADCM_CM_NO_VLAN;
	c->ttl = 64;
	memcpy(c->loc_mac, fx->s[i].nd->dev_addr, ETH_ALEN);
	memcpy(c->rem_mac, fx->s[o].nd->dev_addr, ETH_ALEN);
	ipv6_addr_set_v4mapped(htonl(0x0a000001 + i), &c->loc.ip);
	ipv6_addr_set_v4mapped(htonl(0x0a000001 + o), &c->rem.ip);
	c->loc.port = RD_PORT + i;
	c->rem.port = RD_PORT + o;
	c->snd_una = iss[i];
	c->snd_nxt = iss[i];
	c->snd_wnd = RD_WND;
	c->snd_wl1 = iss[o];
	c->snd_wl2 = iss[i];
	c->max_snd_wnd = RD_WND;
	c->rcv_nxt = iss[o];
	c->rcv_wnd = RD_WND;
	c->snd_mss = RD_MSS;
	c->snd_wscale = RD_WSCALE;
	c->rcv_wscale = RD_WSCALE;
	c->ird = RD_DEPTH;
	c->ord = RD_DEPTH;
	c->mpa_rev = 2;
	c->crc = true;
	ctx->rto_ms = 200;
}

static void rd_offload(struct kunit *test, struct rd_side *s,
		       const struct madcm_cm_offload_ctx *ctx)
{
	KUNIT_ASSERT_EQ(test, madcm_rnic_offload_ops.offload(&s->qp->oqp, ctx),
			0);
}

static void rd_wire_live(struct rd_fix *fx)
{
	rnic_pipe_live(fx->pipe, true);
}

static struct rd_fix *rd_fix_create(struct kunit *test)
{
	struct rd_fix *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fx);
	test->priv = fx;
	rd_cur = fx;
	fx->pipe = rnic_pipe_create(test);
	rnic_pipe_live(fx->pipe, false);
	rd_side_init(test, fx, 0);
	rd_side_init(test, fx, 1);
	rnic_pipe_join(fx->pipe, &fx->s[0].qp->stream, &fx->s[1].qp->stream);
	return fx;
}

/* Both QPs in RTS on one stream, no RTR message. */
static struct rd_fix *rd_connect(struct kunit *test)
{
	struct rd_fix *fx = rd_fix_create(test);
	struct madcm_cm_offload_ctx ctx;

	rd_ctx(fx, 0, &ctx);
	rd_offload(test, &fx->s[0], &ctx);
	rd_ctx(fx, 1, &ctx);
	rd_offload(test, &fx->s[1], &ctx);
	rd_wire_live(fx);
	return fx;
}

/* The module's hold and nudge, as the suite found them (cases change them). */
static unsigned int rd_hold_ms_saved = UINT_MAX;
static unsigned int rd_nudge_ms_saved = UINT_MAX;
static unsigned int rd_zcopy_min_saved = UINT_MAX;

static void rd_set_hold_ms(unsigned int ms)
{
	if (rd_hold_ms_saved == UINT_MAX)
		rd_hold_ms_saved = madcm_rnic_responder_hold_ms;
	WRITE_ONCE(madcm_rnic_responder_hold_ms, ms);
}

static void rd_set_nudge_ms(unsigned int ms)
{
	if (rd_nudge_ms_saved == UINT_MAX)
		rd_nudge_ms_saved = madcm_rnic_initiator_nudge_ms;
	WRITE_ONCE(madcm_rnic_initiator_nudge_ms, ms);
}

static void rd_set_zcopy_min(unsigned int octets)
{
	if (rd_zcopy_min_saved == UINT_MAX)
		rd_zcopy_min_saved = madcm_rnic_tx_zcopy_min;
	WRITE_ONCE(madcm_rnic_tx_zcopy_min, octets);
}

static void rd_exit(struct kunit *test)
{
	struct rd_fix *fx = test->priv;
	int i;

	if (rd_zcopy_min_saved != UINT_MAX) {
		WRITE_ONCE(madcm_rnic_tx_zcopy_min, rd_zcopy_min_saved);
		rd_zcopy_min_saved = UINT_MAX;
	}

	if (rd_hold_ms_saved != UINT_MAX) {
		WRITE_ONCE(madcm_rnic_responder_hold_ms, rd_hold_ms_saved);
		rd_hold_ms_saved = UINT_MAX;
	}
	if (rd_nudge_ms_saved != UINT_MAX) {
		WRITE_ONCE(madcm_rnic_initiator_nudge_ms, rd_nudge_ms_saved);
		rd_nudge_ms_saved = UINT_MAX;
	}
	if (!fx)
		return;
	if (fx->pipe)
		rnic_pipe_live(fx->pipe, false);
	for (i = 0; i < 2; i++) {
		struct rd_side *s = &fx->s[i];

		if (!IS_ERR_OR_NULL(s->ibqp))
			ib_destroy_qp(s->ibqp);
		if (!IS_ERR_OR_NULL(s->mr))
			ib_dereg_mr(s->mr);
		if (!IS_ERR_OR_NULL(s->scq))
			ib_destroy_cq(s->scq);
		if (!IS_ERR_OR_NULL(s->rcq) && s->rcq_alloc)
			ib_free_cq(s->rcq);
		else if (!IS_ERR_OR_NULL(s->rcq))
			ib_destroy_cq(s->rcq);
		if (!IS_ERR_OR_NULL(s->pd))
			ib_dealloc_pd(s->pd);
		if (s->ibdev)
			ib_unregister_device(s->ibdev);
		if (s->nd) {
			if (s->nd->reg_state == NETREG_REGISTERED)
				unregister_netdev(s->nd);
			free_netdev(s->nd);
		}
		kvfree(s->buf);
		kvfree(s->buf2);
	}
	rd_cur = NULL;
	rd_rcq_poll = -1;
}

/* One completion from @cq, waiting for it (the wire is asynchronous). */
static bool rd_poll(struct ib_cq *cq, struct ib_wc *wc)
{
	unsigned long end = jiffies + msecs_to_jiffies(RD_WAIT_MS);

	do {
		if (ib_poll_cq(cq, 1, wc) == 1)
			return true;
		usleep_range(500, 1000);
	} while (time_before(jiffies, end));
	return ib_poll_cq(cq, 1, wc) == 1;
}

/* Nothing more on @cq once the wire is quiet. */
static bool rd_cq_empty(struct rd_fix *fx, struct ib_cq *cq)
{
	struct ib_wc wc;

	rnic_pipe_flush(fx->pipe);
	msleep(20);
	rnic_pipe_flush(fx->pipe);
	return ib_poll_cq(cq, 1, &wc) == 0;
}

static enum ib_qp_state rd_state(struct rd_side *s)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	ib_query_qp(s->ibqp, &attr, IB_QP_STATE, &init);
	return attr.qp_state;
}

/* Waits until @s's QP is in @state (a Terminate or a reset reached it). */
static bool rd_wait_state(struct rd_side *s, enum ib_qp_state state)
{
	unsigned long end = jiffies + msecs_to_jiffies(RD_WAIT_MS);

	while (rd_state(s) != state && time_before(jiffies, end))
		usleep_range(500, 1000);
	return rd_state(s) == state;
}

static u64 rd_count(struct rd_side *s, enum madcm_rnic_counter c)
{
	return atomic64_read(&s->dev->cnt[c]);
}

static struct ib_sge rd_sge(struct rd_side *s, const void *addr, u32 len)
{
	struct ib_sge sge = {
		.addr = (u64)(uintptr_t)addr,
		.length = len,
		.lkey = s->pd->local_dma_lkey,
	};

	return sge;
}

static int rd_post_recv(struct rd_side *s, u64 wr_id, void *addr, u32 len)
{
	struct ib_sge sge = rd_sge(s, addr, len);
	struct ib_recv_wr wr = {
		.wr_id = wr_id,
		.sg_list = &sge,
		.num_sge = 1,
	};

	return ib_post_recv(s->ibqp, &wr, NULL);
}

static int rd_post_send(struct rd_side *s, u64 wr_id, const void *addr,
			u32 len, int flags)
{
	struct ib_sge sge = rd_sge(s, addr, len);
	struct ib_send_wr wr = {
		.wr_id = wr_id,
		.opcode = IB_WR_SEND,
		.send_flags = flags,
		.sg_list = &sge,
		.num_sge = 1,
	};

	return ib_post_send(s->ibqp, &wr, NULL);
}

static int rd_post_rdma(struct rd_side *s, enum ib_wr_opcode op, u64 wr_id,
			const void *addr, u32 len, u64 raddr, u32 rkey,
			int flags)
{
	struct ib_sge sge = rd_sge(s, addr, len);
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = wr_id,
			.opcode = op,
			.send_flags = flags,
			.sg_list = &sge,
			.num_sge = 1,
		},
		.remote_addr = raddr,
		.rkey = rkey,
	};

	return ib_post_send(s->ibqp, &wr.wr, NULL);
}

static void rd_expect_wc(struct kunit *test, struct ib_cq *cq, u64 wr_id,
			 enum ib_wc_opcode op, enum ib_wc_status status)
{
	struct ib_wc wc = {};

	KUNIT_ASSERT_TRUE(test, rd_poll(cq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, wr_id);
	KUNIT_EXPECT_EQ(test, wc.status, status);
	if (status == IB_WC_SUCCESS)
		KUNIT_EXPECT_EQ(test, wc.opcode, op);
}

static const u32 rd_sizes[] = {
	1, 2, 3, 4, 5, 100, 1419, 1420, 1421, 1460, 4096, 65537, RD_BUF,
};

/* A Send of each size from @a to @b lands in @b's receive, byte-exact. */
static void rd_send_sizes(struct kunit *test, struct rd_fix *fx, int from)
{
	struct rd_side *a = &fx->s[from], *b = &fx->s[!from];
	int i;

	for (i = 0; i < ARRAY_SIZE(rd_sizes); i++) {
		u32 len = rd_sizes[i];
		struct ib_wc wc = {};

		get_random_bytes(a->buf, len);
		memset(b->buf, 0, RD_BUF);
		KUNIT_ASSERT_EQ(test, rd_post_recv(b, 100 + i, b->buf, RD_BUF),
				0);
		KUNIT_ASSERT_EQ(test, rd_post_send(a, i, a->buf, len,
						   IB_SEND_SIGNALED), 0);
		rd_expect_wc(test, a->scq, i, IB_WC_SEND, IB_WC_SUCCESS);
		KUNIT_ASSERT_TRUE(test, rd_poll(b->rcq, &wc));
		KUNIT_EXPECT_EQ(test, wc.wr_id, 100 + i);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
		KUNIT_EXPECT_EQ(test, wc.byte_len, len);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(a->buf, b->buf, len), 0,
				    "Send of %u octets", len);
		/* nothing past the message */
		if (len < RD_BUF)
			KUNIT_EXPECT_EQ(test, b->buf[len], 0);
	}
}

static void send_1_byte_to_1_mib_both_ways(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);

	rd_send_sizes(test, fx, 0);
	rd_send_sizes(test, fx, 1);
	KUNIT_EXPECT_EQ(test, rd_state(&fx->s[0]), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, rd_state(&fx->s[1]), IB_QPS_RTS);
}

/*
 * The FPDUs side 0 sends, as the tap sees them: each one's CRC field
 * checked against RFC 5044 4.1's rule (CRC32c over ULPDU_Length, ULPDU
 * and PAD, least significant octet first, as RFC 3720 B.4 gives it; zero
 * when no side asked for CRCs), with the kernel's table CRC32c.
 */
#define RD_FPDU_MAX	(2 + 65535 + 3 + 4)

struct rd_fpdus {
	bool crc;		/* negotiated */
	u32 got;		/* octets of the FPDU being walked */
	u32 fpdus;
	u32 crc_right;
	u32 crc_wrong;
	u32 crc_zero;
	u8 cur[RD_FPDU_MAX];
};

static void rd_fpdus_tap(void *arg, int from, const u8 *d, u32 len)
{
	struct rd_fpdus *w = arg;

	if (from)
		return;
	while (len) {
		u32 need = 2, n, body, total, field, want;

		if (w->got >= 2) {
			body = 2 + ((w->cur[0] << 8) | w->cur[1]);
			need = round_up(body, 4) + 4;
		}
		n = min(len, need - w->got);
		memcpy(w->cur + w->got, d, n);
		w->got += n;
		d += n;
		len -= n;
		if (w->got < 2 || w->got < need || need == 2)
			continue;
		total = need;
		field = get_unaligned_le32(w->cur + total - 4);
		want = w->crc ? ~__crc32c_le(~0U, w->cur, total - 4) : 0;
		w->fpdus++;
		if (!field)
			w->crc_zero++;
		if (field == want)
			w->crc_right++;
		else
			w->crc_wrong++;
		w->got = 0;
	}
}

/*
 * Whether FPDUs carry a CRC is what the MPA exchange negotiated
 * (madcm_cm_tcp_ctx.crc: either side asked), in both directions: with
 * it, every FPDU's CRC field is the CRC32c of the FPDU; without it, zero
 * (RFC 5044 4.1), and the receiver takes them; the Sends land either way.
 */
static void fpdus_carry_the_crc_negotiated(struct kunit *test)
{
	const bool *crc = test->param_value;
	struct rd_fpdus *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct madcm_cm_offload_ctx ctx;
	struct rd_fix *fx;

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->crc = *crc;
	fx = rd_fix_create(test);
	rnic_pipe_tap(fx->pipe, rd_fpdus_tap, w);
	rd_ctx(fx, 0, &ctx);
	ctx.tcp.crc = *crc;
	rd_offload(test, &fx->s[0], &ctx);
	rd_ctx(fx, 1, &ctx);
	ctx.tcp.crc = *crc;
	rd_offload(test, &fx->s[1], &ctx);
	rd_wire_live(fx);
	rd_send_sizes(test, fx, 0);
	rd_send_sizes(test, fx, 1);
	rnic_pipe_flush(fx->pipe);
	KUNIT_EXPECT_EQ(test, rd_state(&fx->s[0]), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, rd_state(&fx->s[1]), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, rd_count(&fx->s[1], MADCM_RNIC_CNT_RX_CRC_ERR), 0);
	KUNIT_EXPECT_EQ(test, rd_count(&fx->s[0], MADCM_RNIC_CNT_CONN_NO_CRC),
			*crc ? 0 : 1);
	KUNIT_EXPECT_EQ(test, rd_count(&fx->s[1], MADCM_RNIC_CNT_CONN_NO_CRC),
			*crc ? 0 : 1);
	/* at least one FPDU per Send, each walked to its end */
	KUNIT_EXPECT_GE(test, w->fpdus, ARRAY_SIZE(rd_sizes));
	KUNIT_EXPECT_EQ(test, w->got, 0);
	KUNIT_EXPECT_EQ(test, w->crc_wrong, 0);
	KUNIT_EXPECT_EQ(test, w->crc_right, w->fpdus);
	/* a CRC32c of an FPDU is zero about once in 2^32 */
	if (*crc)
		KUNIT_EXPECT_LE(test, w->crc_zero, 1);
}

static const bool rd_crc_params[] = { true, false };

static void rd_crc_desc(const bool *crc, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "crc=%d", *crc);
}

KUNIT_ARRAY_PARAM(rd_crc, rd_crc_params, rd_crc_desc);

/*
 * An RDMA Write of each size lands at the remote offset named; a Send
 * after it is placed after it (RFC 5040 5.5: messages are placed in
 * order for the Data Sink's ULP), so its receive says the Write is in.
 */
static void rd_write_sizes(struct kunit *test, struct rd_fix *fx, int from)
{
	struct rd_side *a = &fx->s[from], *b = &fx->s[!from];
	u32 off = 3;
	int i;

	for (i = 0; i < ARRAY_SIZE(rd_sizes); i++) {
		u32 len = min_t(u32, rd_sizes[i], RD_BUF - off);

		get_random_bytes(a->buf, len);
		memset(b->buf2, 0, RD_BUF);
		KUNIT_ASSERT_EQ(test, rd_post_recv(b, 200 + i, b->buf, 16), 0);
		KUNIT_ASSERT_EQ(test,
				rd_post_rdma(a, IB_WR_RDMA_WRITE, i, a->buf, len,
					     (u64)(uintptr_t)b->buf2 + off,
					     b->pd->unsafe_global_rkey,
					     IB_SEND_SIGNALED), 0);
		KUNIT_ASSERT_EQ(test, rd_post_send(a, 1000 + i, a->buf2, 0, 0),
				0);
		rd_expect_wc(test, a->scq, i, IB_WC_RDMA_WRITE, IB_WC_SUCCESS);
		rd_expect_wc(test, b->rcq, 200 + i, IB_WC_RECV, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(a->buf, b->buf2 + off, len), 0,
				    "RDMA Write of %u octets", len);
		KUNIT_EXPECT_EQ(test, b->buf2[off - 1], 0);
		if (off + len < RD_BUF)
			KUNIT_EXPECT_EQ(test, b->buf2[off + len], 0);
	}
	/* a Write consumes no receive and completes nothing at the sink */
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, b->rcq));
}

static void write_1_byte_to_1_mib_both_ways(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);

	rd_write_sizes(test, fx, 0);
	rd_write_sizes(test, fx, 1);
}

/* An RDMA Read of each size brings the remote bytes, byte-exact. */
static void rd_read_sizes(struct kunit *test, struct rd_fix *fx, int from)
{
	struct rd_side *a = &fx->s[from], *b = &fx->s[!from];
	int i;

	for (i = 0; i < ARRAY_SIZE(rd_sizes); i++) {
		u32 len = rd_sizes[i];

		get_random_bytes(b->buf, len);
		memset(a->buf2, 0, RD_BUF);
		KUNIT_ASSERT_EQ(test,
				rd_post_rdma(a, IB_WR_RDMA_READ, i, a->buf2, len,
					     (u64)(uintptr_t)b->buf,
					     b->pd->unsafe_global_rkey,
					     IB_SEND_SIGNALED), 0);
		rd_expect_wc(test, a->scq, i, IB_WC_RDMA_READ, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(b->buf, a->buf2, len), 0,
				    "RDMA Read of %u octets", len);
		if (len < RD_BUF)
			KUNIT_EXPECT_EQ(test, a->buf2[len], 0);
	}
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, b->rcq));
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, b->scq));
}

static void read_1_byte_to_1_mib_both_ways(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);

	rd_read_sizes(test, fx, 0);
	rd_read_sizes(test, fx, 1);
}

/*
 * More Reads than ORD at once: each completes, in order, with its bytes
 * (the requester holds the ones beyond ORD: the responder's IRD is not
 * exceeded, which would end the stream).
 */
static void reads_beyond_ord_wait_and_complete_in_order(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	const u32 n = 3 * RD_DEPTH, len = 3000;
	u32 i;

	get_random_bytes(b->buf, n * len);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test,
				rd_post_rdma(a, IB_WR_RDMA_READ, i,
					     a->buf2 + i * len, len,
					     (u64)(uintptr_t)b->buf + i * len,
					     b->pd->unsafe_global_rkey,
					     IB_SEND_SIGNALED), 0);
	for (i = 0; i < n; i++)
		rd_expect_wc(test, a->scq, i, IB_WC_RDMA_READ, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(a->buf2, b->buf, n * len), 0);
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, rd_state(b), IB_QPS_RTS);
}

/*
 * IB_SEND_FENCE: a Send fenced behind an RDMA Read into its own buffer
 * carries what the Read brought; both posted in one call, so without
 * the fence the Send would gather the buffer before the response is in.
 */
static void fenced_send_waits_for_the_read_before_it(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	const u32 len = 5000;
	struct ib_sge rsge = rd_sge(a, a->buf2, len);
	struct ib_sge ssge = rd_sge(a, a->buf2, len);
	struct ib_send_wr swr = {
		.wr_id = 2,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED | IB_SEND_FENCE,
		.sg_list = &ssge,
		.num_sge = 1,
	};
	struct ib_rdma_wr rwr = {
		.wr = {
			.next = &swr,
			.wr_id = 1,
			.opcode = IB_WR_RDMA_READ,
			.send_flags = IB_SEND_SIGNALED,
			.sg_list = &rsge,
			.num_sge = 1,
		},
		.remote_addr = (u64)(uintptr_t)b->buf2,
		.rkey = b->pd->unsafe_global_rkey,
	};
	struct ib_wc wc = {};

	get_random_bytes(b->buf2, len);
	memset(a->buf2, 0, len);
	memset(b->buf, 0, len);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf, RD_BUF), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &rwr.wr, NULL), 0);
	rd_expect_wc(test, a->scq, 1, IB_WC_RDMA_READ, IB_WC_SUCCESS);
	rd_expect_wc(test, a->scq, 2, IB_WC_SEND, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, rd_poll(b->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	KUNIT_EXPECT_EQ(test, memcmp(b->buf, b->buf2, len), 0);
}

/*
 * A peer that asks for more Reads than the IRD it was granted (RFC 5040
 * 5.3: the responder terminates the stream): here the requester's ORD is
 * above the responder's IRD and the responses are large enough to stay
 * queued. Every Read completes once, the QPs end in Error, one Terminate.
 */
static void reads_beyond_the_peers_ird_terminate(struct kunit *test)
{
	struct rd_fix *fx = rd_fix_create(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct madcm_cm_offload_ctx ctx;
	int i, n_ok = 0, n_flush = 0;
	struct ib_wc wc;

	rd_ctx(fx, 0, &ctx);
	ctx.tcp.ord = RD_DEPTH;
	rd_offload(test, a, &ctx);
	rd_ctx(fx, 1, &ctx);
	ctx.tcp.ird = 2;
	rd_offload(test, b, &ctx);
	/* the requests are all on the wire before b answers any */
	for (i = 0; i < RD_DEPTH; i++)
		KUNIT_ASSERT_EQ(test,
				rd_post_rdma(a, IB_WR_RDMA_READ, i, a->buf2,
					     RD_BUF / 2, (u64)(uintptr_t)b->buf,
					     b->pd->unsafe_global_rkey,
					     IB_SEND_SIGNALED), 0);
	rd_wire_live(fx);
	for (i = 0; i < RD_DEPTH; i++) {
		KUNIT_ASSERT_TRUE(test, rd_poll(a->scq, &wc));
		KUNIT_EXPECT_EQ(test, wc.wr_id, i);
		if (wc.status == IB_WC_SUCCESS)
			n_ok++;
		else if (wc.status == IB_WC_WR_FLUSH_ERR)
			n_flush++;
	}
	KUNIT_EXPECT_EQ(test, n_ok + n_flush, RD_DEPTH);
	KUNIT_EXPECT_LE(test, n_ok, 2);
	KUNIT_EXPECT_TRUE(test, rd_wait_state(a, IB_QPS_ERR));
	KUNIT_EXPECT_TRUE(test, rd_wait_state(b, IB_QPS_ERR));
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TERM_SENT), 1);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TERM_RCVD), 1);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->scq));
}

/*
 * Send with Solicited Event: a CQ armed with IB_CQ_SOLICITED calls its
 * handler for the receive of a solicited Send only (IBTA 11.4.2.2).
 */
static void solicited_send_wakes_a_solicited_cq(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_cq *cq = b->rcq;
	atomic_t *calls = &b->rcq_calls;

	KUNIT_ASSERT_EQ(test, ib_req_notify_cq(cq, IB_CQ_SOLICITED), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 11, b->buf, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(a, 1, a->buf, 8, 0), 0);
	rd_expect_wc(test, cq, 10, IB_WC_RECV, IB_WC_SUCCESS);
	/* the handler runs from the RNIC's workqueue: let it have run */
	flush_workqueue(madcm_rnic_wq);
	KUNIT_EXPECT_EQ(test, atomic_read(calls), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(a, 2, a->buf, 8, IB_SEND_SOLICITED),
			0);
	rd_expect_wc(test, cq, 11, IB_WC_RECV, IB_WC_SUCCESS);
	flush_workqueue(madcm_rnic_wq);
	KUNIT_EXPECT_EQ(test, atomic_read(calls), 1);
}

/* Gather lists: a Send, a Write and a Read of three pieces each. */
static void multi_sge_send_write_read(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	static const u32 piece[3] = { 1, 5000, 77 };
	const u32 total = 1 + 5000 + 77;
	struct ib_sge sge[3];
	struct ib_send_wr swr = {
		.wr_id = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
		.sg_list = sge,
		.num_sge = 3,
	};
	struct ib_rdma_wr rwr = {
		.wr = {
			.wr_id = 2,
			.sg_list = sge,
			.num_sge = 3,
			.send_flags = IB_SEND_SIGNALED,
		},
	};
	struct ib_wc wc = {};
	u32 i, off;

	/* the pieces are apart in memory, 100 octets between them */
	get_random_bytes(a->buf, RD_BUF);
	for (i = 0, off = 0; i < 3; off += piece[i] + 100, i++)
		sge[i] = rd_sge(a, a->buf + off, piece[i]);

	memset(b->buf, 0, RD_BUF);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf, RD_BUF), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &swr, NULL), 0);
	rd_expect_wc(test, a->scq, 1, IB_WC_SEND, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, rd_poll(b->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.byte_len, total);
	for (i = 0, off = 0; i < 3; off += piece[i] + 100, i++)
		KUNIT_EXPECT_EQ(test, memcmp(b->buf + off - 100 * i,
					     a->buf + off, piece[i]), 0);

	/* Write: the pieces land one after the other at the remote offset */
	memset(b->buf2, 0, RD_BUF);
	rwr.wr.opcode = IB_WR_RDMA_WRITE;
	rwr.remote_addr = (u64)(uintptr_t)b->buf2 + 8;
	rwr.rkey = b->pd->unsafe_global_rkey;
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 11, b->buf, 16), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &rwr.wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(a, 3, a->buf, 0, 0), 0);
	rd_expect_wc(test, a->scq, 2, IB_WC_RDMA_WRITE, IB_WC_SUCCESS);
	rd_expect_wc(test, b->rcq, 11, IB_WC_RECV, IB_WC_SUCCESS);
	for (i = 0, off = 0; i < 3; off += piece[i] + 100, i++)
		KUNIT_EXPECT_EQ(test, memcmp(b->buf2 + 8 + off - 100 * i,
					     a->buf + off, piece[i]), 0);

	/* Read: consecutive remote octets scatter into the three pieces */
	get_random_bytes(b->buf2, total);
	memset(a->buf, 0, RD_BUF);
	rwr.wr.wr_id = 4;
	rwr.wr.opcode = IB_WR_RDMA_READ;
	rwr.remote_addr = (u64)(uintptr_t)b->buf2;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &rwr.wr, NULL), 0);
	rd_expect_wc(test, a->scq, 4, IB_WC_RDMA_READ, IB_WC_SUCCESS);
	for (i = 0, off = 0; i < 3; off += piece[i] + 100, i++)
		KUNIT_EXPECT_EQ(test, memcmp(a->buf + off,
					     b->buf2 + off - 100 * i,
					     piece[i]), 0);
	/* nothing between the pieces was written */
	KUNIT_EXPECT_EQ(test, a->buf[1], 0);
	KUNIT_EXPECT_EQ(test, a->buf[101 + 5000], 0);
}

/* Inline data is taken at post time: the buffer is free on return. */
static void inline_send_and_write_take_the_bytes_at_post(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	u8 data[MADCM_RNIC_MAX_INLINE], sent[MADCM_RNIC_MAX_INLINE];
	struct ib_sge sge = {
		.addr = (u64)(uintptr_t)data,
		.length = sizeof(data),
		.lkey = 0xdeadbe00,	/* not an STag: inline has none */
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = 2,
			.opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_INLINE | IB_SEND_SIGNALED,
			.sg_list = &sge,
			.num_sge = 1,
		},
		.remote_addr = (u64)(uintptr_t)b->buf2,
		.rkey = b->pd->unsafe_global_rkey,
	};
	struct ib_send_wr swr = {
		.wr_id = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_INLINE | IB_SEND_SIGNALED,
		.sg_list = &sge,
		.num_sge = 1,
	};
	struct ib_wc wc = {};

	get_random_bytes(data, sizeof(data));
	memcpy(sent, data, sizeof(data));
	memset(b->buf, 0, RD_BUF);
	memset(b->buf2, 0, RD_BUF);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf, RD_BUF), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 11, b->buf, RD_BUF), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &swr, NULL), 0);
	memset(data, 0xee, sizeof(data));
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &wr.wr, NULL), 0);
	memset(data, 0xdd, sizeof(data));
	rd_expect_wc(test, a->scq, 1, IB_WC_SEND, IB_WC_SUCCESS);
	rd_expect_wc(test, a->scq, 2, IB_WC_RDMA_WRITE, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, rd_poll(b->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 10);
	KUNIT_EXPECT_EQ(test, wc.byte_len, sizeof(sent));
	KUNIT_EXPECT_EQ(test, memcmp(b->buf, sent, sizeof(sent)), 0);
	/* the Write is placed before this Send */
	KUNIT_ASSERT_EQ(test, rd_post_send(a, 3, a->buf, 0, 0), 0);
	rd_expect_wc(test, b->rcq, 11, IB_WC_RECV, IB_WC_SUCCESS);
	memset(sent, 0xee, sizeof(sent));
	KUNIT_EXPECT_EQ(test, memcmp(b->buf2, sent, sizeof(sent)), 0);

	/* over max_inline: refused at post */
	sge.length = MADCM_RNIC_MAX_INLINE + 1;
	KUNIT_EXPECT_EQ(test, ib_post_send(a->ibqp, &swr, NULL), -EINVAL);
}

/* Unsignaled successes complete nothing; completions stay in order. */
static void unsignaled_sends_make_no_completion(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	int i;

	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10 + i, b->buf + i * 64,
						   64), 0);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, rd_post_send(a, i, a->buf, 10,
						   i == 2 ? IB_SEND_SIGNALED :
						   0), 0);
	for (i = 0; i < 4; i++)
		rd_expect_wc(test, b->rcq, 10 + i, IB_WC_RECV, IB_WC_SUCCESS);
	rd_expect_wc(test, a->scq, 2, IB_WC_SEND, IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->scq));
}

/*
 * A fast-registered STag of @s's PD over the first page of @buf with
 * @access (the REG_MR work request, unsignaled, on @s's QP).
 */
static struct ib_mr *rd_frmr(struct kunit *test, struct rd_side *s, u8 *buf,
			     int access)
{
	struct scatterlist sg;
	struct ib_reg_wr reg = {
		.wr = { .wr_id = 999, .opcode = IB_WR_REG_MR },
		.access = access,
	};

	s->mr = ib_alloc_mr(s->pd, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s->mr));
	/* addresses are kernel virtual (the device has no DMA) */
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = (u64)(uintptr_t)buf;
	sg_dma_len(&sg) = PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(s->mr, &sg, 1, NULL, PAGE_SIZE), 1);
	reg.mr = s->mr;
	reg.key = s->mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(s->ibqp, &reg.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, to_madcm_rnic_mr(s->mr)->valid);
	return s->mr;
}

/*
 * Send with Invalidate (RFC 5040 5.1): the receive completes with
 * IB_WC_WITH_INVALIDATE and the STag, which is invalid afterwards.
 */
static void send_with_invalidate_invalidates_the_stag(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_sge sge = rd_sge(a, a->buf, 33);
	struct ib_send_wr wr = {
		.wr_id = 1,
		.opcode = IB_WR_SEND_WITH_INV,
		.send_flags = IB_SEND_SIGNALED,
		.sg_list = &sge,
		.num_sge = 1,
	};
	struct ib_wc wc = {};
	struct ib_mr *mr;

	mr = rd_frmr(test, b, b->buf2,
		     IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE);

	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf, 64), 0);
	wr.ex.invalidate_rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &wr, NULL), 0);
	rd_expect_wc(test, a->scq, 1, IB_WC_SEND, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, rd_poll(b->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 33);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, wc.ex.invalidate_rkey, mr->rkey);
	KUNIT_EXPECT_FALSE(test, to_madcm_rnic_mr(mr)->valid);

	/* a Write to the invalidated STag is refused by the Data Sink */
	KUNIT_ASSERT_EQ(test, rd_post_rdma(a, IB_WR_RDMA_WRITE, 2, a->buf, 8,
					   (u64)(uintptr_t)b->buf2, mr->rkey,
					   0), 0);
	KUNIT_EXPECT_TRUE(test, rd_wait_state(b, IB_QPS_ERR));
	KUNIT_EXPECT_TRUE(test, rd_wait_state(a, IB_QPS_ERR));
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TERM_SENT), 1);
}

/*
 * RDMA Read with Local Invalidate (the RDMAC verbs' Read with Invalidate;
 * iWARP RNICs only, rdma_cap_read_inv()): the STag invalidated when the
 * Read completes is the Read's own Data Sink, the STag of its gather
 * entry. Posted as ib_core's rdma_rw posts it for an iWARP target's RDMA
 * READ (nvmet-rdma, isert): REG_MR with a key one above the MR's former
 * one, chained with the Read, whose ex.invalidate_rkey still names the
 * former key. The Read completes, the bytes are placed, the Sink is
 * invalid afterwards.
 */
static void read_with_invalidate_invalidates_the_data_sink(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct scatterlist sg;
	struct ib_reg_wr reg = {
		.wr = { .wr_id = 1, .opcode = IB_WR_REG_MR },
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	struct ib_rdma_wr rd = {
		.wr = {
			.wr_id = 2,
			.opcode = IB_WR_RDMA_READ_WITH_INV,
			.send_flags = IB_SEND_SIGNALED,
			.num_sge = 1,
		},
		.remote_addr = (u64)(uintptr_t)b->buf,
		.rkey = b->pd->unsafe_global_rkey,
	};
	struct ib_sge sge;
	struct ib_mr *mr;

	get_random_bytes(b->buf, 3000);
	memset(a->buf2, 0, PAGE_SIZE);
	a->mr = ib_alloc_mr(a->pd, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a->mr));
	mr = a->mr;
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = (u64)(uintptr_t)a->buf2;
	sg_dma_len(&sg) = 3000;
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE), 1);
	rd.wr.ex.invalidate_rkey = mr->lkey;
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->lkey));
	reg.mr = mr;
	reg.key = mr->lkey;
	sge.addr = mr->iova;
	sge.length = mr->length;
	sge.lkey = mr->lkey;
	rd.wr.sg_list = &sge;
	reg.wr.next = &rd.wr;

	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &reg.wr, NULL), 0);
	rd_expect_wc(test, a->scq, 2, IB_WC_RDMA_READ, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(a->buf2, b->buf, 3000), 0);
	KUNIT_EXPECT_FALSE(test, to_madcm_rnic_mr(mr)->valid);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TERM_SENT), 0);
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_RTS);

	/* the Sink's STag is registered again with the next key */
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->lkey));
	reg.key = mr->lkey;
	reg.wr.next = NULL;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &reg.wr, NULL), 0);
	rd_expect_wc(test, a->scq, 1, IB_WC_REG_MR, IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, to_madcm_rnic_mr(mr)->valid);
}

/*
 * A Write to an STag without remote write rights: the Data Sink writes
 * nothing, sends a Terminate and enters Error, flushing its receive; the
 * Data Source takes the Terminate and enters Error too: what it posts
 * afterwards is flushed.
 */
static void write_without_access_gives_terminate_and_flush(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	u32 stag;

	/* an STag of b's PD that grants remote reads, not writes */
	stag = rd_frmr(test, b, b->buf2,
		       IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ)->rkey;
	memset(b->buf2, 0, RD_BUF);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf, 64), 0);
	get_random_bytes(a->buf, 100);
	KUNIT_ASSERT_EQ(test, rd_post_rdma(a, IB_WR_RDMA_WRITE, 1, a->buf, 100,
					   (u64)(uintptr_t)b->buf2, stag,
					   IB_SEND_SIGNALED), 0);
	/* queued to TCP: the Write itself completes */
	rd_expect_wc(test, a->scq, 1, IB_WC_RDMA_WRITE, IB_WC_SUCCESS);

	rd_expect_wc(test, b->rcq, 10, IB_WC_RECV, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_TRUE(test, rd_wait_state(b, IB_QPS_ERR));
	KUNIT_EXPECT_TRUE(test, rd_wait_state(a, IB_QPS_ERR));
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TERM_SENT), 1);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TERM_RCVD), 1);
	KUNIT_EXPECT_NULL(test, memchr_inv(b->buf2, 0, RD_BUF));

	KUNIT_ASSERT_EQ(test, rd_post_send(a, 2, a->buf, 1, 0), 0);
	rd_expect_wc(test, a->scq, 2, IB_WC_SEND, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, b->rcq));
}

/* @s's QP keeps only the remote rights @rights (RTS to RTS). */
static void rd_set_rights(struct kunit *test, struct rd_side *s, int rights)
{
	struct ib_qp_attr attr = { .qp_access_flags = rights };

	KUNIT_ASSERT_EQ(test, ib_modify_qp(s->ibqp, &attr, IB_QP_ACCESS_FLAGS),
			0);
}

/*
 * RFC 5040's Terminate for an access the Data Sink's QP does not grant,
 * as the side that sent it recorded it: Layer 0 (RDMAP), Error Type 1
 * (Remote Protection Error), Error Code 0x02 (Access Rights Violation).
 */
static void rd_expect_access_violation(struct kunit *test, struct rd_side *a,
				       struct rd_side *b)
{
	const struct madcm_term_code *t = &b->qp->rx.term;

	KUNIT_EXPECT_TRUE(test, rd_wait_state(b, IB_QPS_ERR));
	KUNIT_EXPECT_TRUE(test, rd_wait_state(a, IB_QPS_ERR));
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TERM_SENT), 1);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TERM_RCVD), 1);
	KUNIT_EXPECT_TRUE(test, b->qp->rx.termed);
	KUNIT_EXPECT_EQ(test, t->layer, 0);
	KUNIT_EXPECT_EQ(test, t->etype, 1);
	KUNIT_EXPECT_EQ(test, t->ecode, 0x02);
}

/*
 * The QP's rights end to end: b's QP keeps remote reads only; a's RDMA
 * Write to b's global STag, which grants remote writes, places nothing,
 * and b ends the stream with the access violation (as rxe refuses an
 * RDMA Write to a QP without IB_ACCESS_REMOTE_WRITE).
 */
static void write_to_a_qp_without_remote_write_terminates(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];

	rd_set_rights(test, b, IB_ACCESS_REMOTE_READ);
	memset(b->buf2, 0, RD_BUF);
	get_random_bytes(a->buf, 100);
	KUNIT_ASSERT_EQ(test, rd_post_rdma(a, IB_WR_RDMA_WRITE, 1, a->buf, 100,
					   (u64)(uintptr_t)b->buf2,
					   b->pd->unsafe_global_rkey,
					   IB_SEND_SIGNALED), 0);
	/* queued to TCP: the Write itself completes */
	rd_expect_wc(test, a->scq, 1, IB_WC_RDMA_WRITE, IB_WC_SUCCESS);
	rd_expect_access_violation(test, a, b);
	KUNIT_EXPECT_NULL(test, memchr_inv(b->buf2, 0, RD_BUF));
}

/*
 * b's QP keeps remote writes only: a's RDMA Read of b's memory fails
 * (its work request completes with an error), nothing reaches a's
 * sink, and b ends the stream with the access violation.
 */
static void read_from_a_qp_without_remote_read_fails(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_wc wc = {};

	rd_set_rights(test, b, IB_ACCESS_REMOTE_WRITE);
	get_random_bytes(b->buf, 100);
	memset(a->buf2, 0, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, rd_post_rdma(a, IB_WR_RDMA_READ, 2, a->buf2, 100,
					   (u64)(uintptr_t)b->buf,
					   b->pd->unsafe_global_rkey,
					   IB_SEND_SIGNALED), 0);
	KUNIT_ASSERT_TRUE(test, rd_poll(a->scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_NE(test, wc.status, IB_WC_SUCCESS);
	rd_expect_access_violation(test, a, b);
	KUNIT_EXPECT_NULL(test, memchr_inv(a->buf2, 0, PAGE_SIZE));
}

/*
 * A local protection error (an lkey of no MR): the work request
 * completes with IB_WC_LOC_PROT_ERR although unsignaled, the ones after
 * it are flushed, the QP enters Error and the peer gets a Terminate.
 */
static void bad_lkey_completes_loc_prot_err_and_flushes(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_sge sge = rd_sge(a, a->buf, 10);
	struct ib_send_wr wr[3] = {};
	int i;

	KUNIT_ASSERT_EQ(test, rd_post_recv(a, 20, a->buf2, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 11, b->buf, 64), 0);
	for (i = 0; i < 3; i++) {
		wr[i].wr_id = i;
		wr[i].opcode = IB_WR_SEND;
		wr[i].sg_list = &sge;
		wr[i].num_sge = 1;
		wr[i].send_flags = IB_SEND_SIGNALED;
	}
	/* the first goes, the second names a bad lkey, unsignaled */
	wr[1].send_flags = 0;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &wr[0], NULL), 0);
	rd_expect_wc(test, a->scq, 0, IB_WC_SEND, IB_WC_SUCCESS);
	rd_expect_wc(test, b->rcq, 10, IB_WC_RECV, IB_WC_SUCCESS);

	sge.lkey = 0x00fffe00;
	wr[1].next = &wr[2];
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &wr[1], NULL), 0);
	rd_expect_wc(test, a->scq, 1, IB_WC_SEND, IB_WC_LOC_PROT_ERR);
	rd_expect_wc(test, a->scq, 2, IB_WC_SEND, IB_WC_WR_FLUSH_ERR);
	rd_expect_wc(test, a->rcq, 20, IB_WC_RECV, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_ERR);
	/* the peer is told and flushes its receive */
	rd_expect_wc(test, b->rcq, 11, IB_WC_RECV, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_TRUE(test, rd_wait_state(b, IB_QPS_ERR));
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TERM_SENT), 1);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TERM_RCVD), 1);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->scq));
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->rcq));
}

/* An SGE past the end of its MR: IB_WC_LOC_PROT_ERR as well. */
static void sge_outside_its_mr_is_loc_prot_err(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0];
	struct ib_mr *mr;
	struct ib_sge sge;
	struct ib_send_wr wr = {
		.wr_id = 7,
		.opcode = IB_WR_SEND,
		.sg_list = &sge,
		.num_sge = 1,
	};

	mr = rd_frmr(test, a, a->buf, IB_ACCESS_LOCAL_WRITE);

	sge.addr = (u64)(uintptr_t)a->buf + PAGE_SIZE - 4;
	sge.length = 8;
	sge.lkey = mr->lkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, &wr, NULL), 0);
	rd_expect_wc(test, a->scq, 7, IB_WC_SEND, IB_WC_LOC_PROT_ERR);
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_ERR);
	/* the same SGE inside the MR would have gone */
	KUNIT_EXPECT_EQ(test, madcm_rnic_mr_check(a->qp, mr->lkey,
						  sge.addr - 4, 8, 0), 0);
}

/*
 * The consumer moves the QP to Error: every outstanding work request,
 * send and receive, completes once with IB_WC_WR_FLUSH_ERR (Reads
 * waiting for their response included), and one posted afterwards at
 * once.
 */
static void error_flushes_both_queues_once(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	int i, n_s = 0, n_r = 0;
	struct ib_wc wc;

	/* hold the wire: nothing reaches b, the Reads stay outstanding */
	rnic_pipe_live(fx->pipe, false);
	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, rd_post_recv(a, 100 + i, a->buf2, 64), 0);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test,
				rd_post_rdma(a, IB_WR_RDMA_READ, i,
					     a->buf2 + i * 10, 10,
					     (u64)(uintptr_t)b->buf,
					     b->pd->unsafe_global_rkey,
					     IB_SEND_SIGNALED), 0);
	/* unsignaled: a flush completes it all the same */
	KUNIT_ASSERT_EQ(test, rd_post_send(a, 4, a->buf, 10, 0), 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a->ibqp, &attr, IB_QP_STATE), 0);
	while (ib_poll_cq(a->scq, 1, &wc) == 1) {
		KUNIT_EXPECT_EQ(test, wc.wr_id, n_s);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
		n_s++;
	}
	while (ib_poll_cq(a->rcq, 1, &wc) == 1) {
		KUNIT_EXPECT_EQ(test, wc.wr_id, 100 + n_r);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
		n_r++;
	}
	KUNIT_EXPECT_EQ(test, n_s, 5);
	KUNIT_EXPECT_EQ(test, n_r, 5);
	KUNIT_ASSERT_EQ(test, rd_post_send(a, 9, a->buf, 10, 0), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(a, 109, a->buf2, 64), 0);
	rd_expect_wc(test, a->scq, 9, IB_WC_SEND, IB_WC_WR_FLUSH_ERR);
	rd_expect_wc(test, a->rcq, 109, IB_WC_RECV, IB_WC_WR_FLUSH_ERR);
	/* the responses that arrive later complete nothing */
	rd_wire_live(fx);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->scq));
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->rcq));
}

/*
 * Side 1 (the responder) took the initiator's RTR message of @rtr_type in
 * the CM; side 0 (the initiator) sent it, unacknowledged still.
 */
static struct rd_fix *rd_connect_rtr(struct kunit *test, u8 rtr_type)
{
	struct rd_fix *fx = rd_fix_create(test);
	struct madcm_cm_offload_ctx ctx;
	u8 rtr[IRDMA_RTR_MAX_FPDU];
	int len;

	/* the CM's RTR types are madcm_cm's (MADCM_CM_RTR_*) */
	len = irdma_build_rtr_fpdu(rtr_type, true, rtr, sizeof(rtr));
	KUNIT_ASSERT_GT(test, len, 0);
	rd_ctx(fx, 1, &ctx);
	ctx.tcp.rtr_type = rtr_type;
	ctx.tcp.peer_to_peer = true;
	ctx.tcp.rcv_nxt -= len;
	ctx.tcp.snd_wl1 -= len;
	ctx.rcvd = rtr;
	ctx.rcvd_len = len;
	rd_offload(test, &fx->s[1], &ctx);
	rd_ctx(fx, 0, &ctx);
	ctx.tcp.rtr_type = rtr_type;
	ctx.tcp.peer_to_peer = true;
	ctx.tcp.snd_una -= len;
	ctx.unacked = rtr;
	ctx.unacked_len = len;
	rd_offload(test, &fx->s[0], &ctx);
	rd_wire_live(fx);
	return fx;
}

/*
 * An RTR Send or Write (RFC 6581) consumes no receive: the first Send
 * after it (MSN 2 on queue 0 for the Send RTR) lands in the first receive
 * posted, and Sends go both ways.
 */
static void rd_rtr_then_sends(struct kunit *test, u8 rtr_type)
{
	struct rd_fix *fx = rd_connect_rtr(test, rtr_type);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_wc wc = {};

	get_random_bytes(a->buf, 300);
	get_random_bytes(b->buf, 300);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf2, 300), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(a, 20, a->buf2, 300), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(a, 1, a->buf, 300, 0), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(b, 2, b->buf, 300, 0), 0);
	KUNIT_ASSERT_TRUE(test, rd_poll(b->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 10);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 300);
	KUNIT_EXPECT_EQ(test, memcmp(b->buf2, a->buf, 300), 0);
	KUNIT_ASSERT_TRUE(test, rd_poll(a->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 20);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(a->buf2, b->buf, 300), 0);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->scq));
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, b->rcq));
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, rd_state(b), IB_QPS_RTS);
}

static void rtr_send_consumes_no_receive(struct kunit *test)
{
	rd_rtr_then_sends(test, MADCM_CM_RTR_SEND);
}

static void rtr_write_consumes_no_receive(struct kunit *test)
{
	rd_rtr_then_sends(test, MADCM_CM_RTR_WRITE);
}

/*
 * The CM's RTR (RFC 6581) is a zero-length Read Request from the
 * initiator: its response completes no work request, and the first
 * real Read after it (MSN 2 on queue 1) works.
 */
static void rtr_read_completes_nothing(struct kunit *test)
{
	struct rd_fix *fx = rd_connect_rtr(test, MADCM_CM_RTR_READ);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];

	get_random_bytes(b->buf, 500);
	KUNIT_ASSERT_EQ(test, rd_post_rdma(a, IB_WR_RDMA_READ, 1, a->buf2, 500,
					   (u64)(uintptr_t)b->buf,
					   b->pd->unsafe_global_rkey,
					   IB_SEND_SIGNALED), 0);
	rd_expect_wc(test, a->scq, 1, IB_WC_RDMA_READ, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(a->buf2, b->buf, 500), 0);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->scq));
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, b->rcq));
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, rd_state(b), IB_QPS_RTS);
}

/*
 * Both QPs in RTS on one stream, no RTR message, side 1 the MPA responder
 * of a connection without peer-to-peer (RFC 5044 7.1's startup rules).
 */
static void rd_connect_responder(struct kunit *test, struct rd_fix *fx)
{
	struct madcm_cm_offload_ctx ctx;

	rd_ctx(fx, 0, &ctx);
	rd_offload(test, &fx->s[0], &ctx);
	rd_ctx(fx, 1, &ctx);
	ctx.tcp.responder = true;
	rd_offload(test, &fx->s[1], &ctx);
	rd_wire_live(fx);
}

/*
 * RFC 5044 7.1: an MPA responder receives and validates at least one
 * FPDU before it sends any (RFC 6581's RTR exists for the responder that
 * must send first). Side 1 is the responder of a connection without
 * peer-to-peer: a Send posted there before the initiator sent anything
 * stays queued (nothing of it reaches TCP); the initiator's first Send
 * releases it, and both arrive.
 */
static void responder_sends_nothing_before_the_initiators_first_fpdu(struct kunit *test)
{
	struct rd_fix *fx = rd_fix_create(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_wc wc = {};
	unsigned long flags;
	u32 next, tail;

	/* far longer than the case: only the initiator's FPDU may end it */
	rd_set_hold_ms(RD_WAIT_MS);
	rd_set_nudge_ms(0);
	rd_connect_responder(test, fx);

	get_random_bytes(a->buf, 200);
	get_random_bytes(b->buf, 200);
	KUNIT_ASSERT_EQ(test, rd_post_recv(a, 20, a->buf2, 200), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf2, 200), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(b, 2, b->buf, 200, 0), 0);
	spin_lock_irqsave(&b->qp->lock, flags);
	next = b->qp->sq_next;
	tail = b->qp->sq.tail;
	spin_unlock_irqrestore(&b->qp->lock, flags);
	KUNIT_EXPECT_NE(test, next, tail);
	KUNIT_EXPECT_EQ(test, rnic_pipe_records(fx->pipe, 1), 0);

	KUNIT_ASSERT_EQ(test, rd_post_send(a, 1, a->buf, 200, 0), 0);
	KUNIT_ASSERT_TRUE(test, rd_poll(b->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 10);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(b->buf2, a->buf, 200), 0);
	KUNIT_ASSERT_TRUE(test, rd_poll(a->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 20);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(a->buf2, b->buf, 200), 0);
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, rd_state(b), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TX_HOLD), 1);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TX_HOLD_EXPIRED), 0);
}

/*
 * Without RFC 6581's RTR nothing obliges the initiator to send first: a
 * ULP whose server speaks first (rdma-core's cmatose) would wait for
 * good behind an endless hold. Side 1, the responder, holds its Send for
 * rnic_responder_hold_ms and no longer; the initiator sends nothing.
 * The Send arrives, not before the hold's end, and counts as expired.
 */
static void responder_hold_ends_when_the_initiator_stays_silent(struct kunit *test)
{
	const unsigned int hold_ms = 300;
	struct rd_fix *fx = rd_fix_create(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_wc wc = {};
	unsigned long t0, t1;

	rd_set_hold_ms(hold_ms);
	rd_set_nudge_ms(0);
	t0 = jiffies;
	rd_connect_responder(test, fx);

	get_random_bytes(b->buf, 100);
	KUNIT_ASSERT_EQ(test, rd_post_recv(a, 20, a->buf2, 100), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(b, 2, b->buf, 100, 0), 0);
	KUNIT_ASSERT_TRUE(test, rd_poll(a->rcq, &wc));
	t1 = jiffies;
	KUNIT_EXPECT_EQ(test, wc.wr_id, 20);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 100);
	KUNIT_EXPECT_EQ(test, memcmp(a->buf2, b->buf, 100), 0);
	/* jiffies of the timer: the hold's own length, less one tick */
	KUNIT_EXPECT_GE(test, t1 - t0, msecs_to_jiffies(hold_ms) - 1);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TX_HOLD), 1);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TX_HOLD_EXPIRED), 1);
	KUNIT_EXPECT_EQ(test, rd_state(b), IB_QPS_RTS);
}

/*
 * The hold is the responder's alone, and rnic_responder_hold_ms=0 turns
 * it off: then a responder's first Send leaves before the initiator
 * sent anything, as does an initiator's (which never holds).
 */
static void no_hold_on_the_initiator_nor_with_zero_ms(struct kunit *test)
{
	struct rd_fix *fx = rd_fix_create(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_wc wc = {};

	rd_set_hold_ms(0);
	rd_set_nudge_ms(0);
	rd_connect_responder(test, fx);

	KUNIT_ASSERT_EQ(test, rd_post_recv(a, 20, a->buf2, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(b, 2, b->buf, 64, 0), 0);
	KUNIT_ASSERT_TRUE(test, rd_poll(a->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 20);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TX_HOLD), 0);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TX_HOLD), 0);
}

/* Waits until @s's counter @c reaches @n. */
static bool rd_wait_count(struct rd_side *s, enum madcm_rnic_counter c, u64 n)
{
	unsigned long end = jiffies + msecs_to_jiffies(RD_WAIT_MS);

	while (rd_count(s, c) < n && time_before(jiffies, end))
		usleep_range(500, 1000);
	return rd_count(s, c) >= n;
}

/*
 * Waits until side @from queued @n records on its stream, then until the
 * pipe delivered what it holds.
 */
static bool rd_wait_records(struct rd_fix *fx, int from, u32 n)
{
	unsigned long end = jiffies + msecs_to_jiffies(RD_WAIT_MS);

	while (rnic_pipe_records(fx->pipe, from) < n &&
	       time_before(jiffies, end))
		usleep_range(500, 1000);
	rnic_pipe_flush(fx->pipe);
	return rnic_pipe_records(fx->pipe, from) >= n;
}

/*
 * siw's accept (6.1, 6.12) sends its MPA reply before its QP takes the
 * socket's receive callback, and drops the wake-up of an FPDU arriving
 * in between. An initiator that had no FPDU from the peer
 * rnic_initiator_nudge_ms after the hand-off sends one zero-length RDMA
 * Write (RFC 6581's RTR form), once: the peer takes it without a
 * completion or an error (RFC 5040: a zero-length Write places nothing),
 * and what it missed is read with it. Side 0 initiates, nobody posts.
 */
static void initiator_nudges_a_silent_peer_once(struct kunit *test)
{
	const unsigned int nudge_ms = 50;
	struct rd_fix *fx = rd_fix_create(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	unsigned long t0;

	rd_set_hold_ms(0);
	rd_set_nudge_ms(nudge_ms);
	t0 = jiffies;
	rd_connect_responder(test, fx);
	KUNIT_ASSERT_TRUE(test, rd_wait_count(a, MADCM_RNIC_CNT_TX_NUDGE, 1));
	KUNIT_EXPECT_GE(test, jiffies - t0, msecs_to_jiffies(nudge_ms) - 1);
	/* one FPDU left a, and reached b */
	KUNIT_ASSERT_TRUE(test, rd_wait_records(fx, 0, 1));
	/* three times the delay later: still the one nudge */
	msleep(3 * nudge_ms);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TX_NUDGE), 1);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TX_NUDGE), 0);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, b->rcq));
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, b->scq));
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->scq));
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_RX_HDR_ERR), 0);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_RX_PROT_ERR), 0);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TERM_SENT), 0);
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, rd_state(b), IB_QPS_RTS);
}

/* The nudge is for a silent peer only: an FPDU from the peer calls it off. */
static void no_nudge_once_the_peer_spoke(struct kunit *test)
{
	struct rd_fix *fx = rd_fix_create(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_wc wc = {};

	rd_set_hold_ms(0);
	rd_set_nudge_ms(RD_WAIT_MS);
	rd_connect_responder(test, fx);
	KUNIT_ASSERT_EQ(test, rd_post_recv(a, 20, a->buf2, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(b, 2, b->buf, 64, 0), 0);
	KUNIT_ASSERT_TRUE(test, rd_poll(a->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	/* the Send called the nudge off, long before its time */
	KUNIT_EXPECT_FALSE(test, timer_pending(&a->qp->tx_hold_timer));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(a->qp->tx_nudge));
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TX_NUDGE), 0);
}

/* rnic_initiator_nudge_ms=0 turns the nudge off. */
static void no_nudge_with_zero_ms(struct kunit *test)
{
	struct rd_fix *fx = rd_fix_create(test);
	struct rd_side *a = &fx->s[0];

	rd_set_hold_ms(0);
	rd_set_nudge_ms(0);
	rd_connect_responder(test, fx);
	msleep(150);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(a->qp->tx_nudge));
	KUNIT_EXPECT_FALSE(test, timer_pending(&a->qp->tx_hold_timer));
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TX_NUDGE), 0);
	KUNIT_EXPECT_EQ(test, rnic_pipe_records(fx->pipe, 0), 0);
}

/*
 * With a madcm responder, the nudge is the initiator's first FPDU: it
 * ends the responder's hold (RFC 5044 7.1) long before the hold's own
 * end, and the responder's Send follows it.
 */
static void nudge_ends_a_responders_hold(struct kunit *test)
{
	struct rd_fix *fx = rd_fix_create(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct ib_wc wc = {};

	rd_set_hold_ms(RD_WAIT_MS * 4);
	rd_set_nudge_ms(50);
	rd_connect_responder(test, fx);
	get_random_bytes(b->buf, 100);
	KUNIT_ASSERT_EQ(test, rd_post_recv(a, 20, a->buf2, 100), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(b, 2, b->buf, 100, 0), 0);
	KUNIT_ASSERT_TRUE(test, rd_poll(a->rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 20);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(a->buf2, b->buf, 100), 0);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TX_NUDGE), 1);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TX_HOLD), 1);
	KUNIT_EXPECT_EQ(test, rd_count(b, MADCM_RNIC_CNT_TX_HOLD_EXPIRED), 0);
}

/*
 * A consumer's handler, as a ULP writes one: it may sleep and call any
 * verb, modify_qp included (ib_modify_qp() may sleep; moving the QP to
 * Error from a handler is the usual answer to an error completion or a
 * fatal event). It records whether it ran where it may (preemptible,
 * no lock held); only then does it move @qp to Error, since where it
 * may not that call would deadlock or sleep in atomic context.
 */
struct rd_upcall {
	struct ib_qp *qp;
	atomic_t calls;
	enum ib_event_type event;
	bool could_sleep;
	int locks_held;
	int modify_ret;
};

/*
 * The RNIC's locks a handler of @qp could be called under: the QP's, its
 * CQs', and its TCP engine's (the receive path's rx_lock). Lockdep knows
 * which the running task holds; a workqueue's own lockdep maps, which a
 * work item always holds, are none of them.
 */
static int rd_rnic_locks_held(struct madcm_rnic_qp *qp)
{
	int n = 0;

#ifdef CONFIG_LOCKDEP
	n += lockdep_is_held(&qp->lock);
	n += lockdep_is_held(&qp->stream.lock);
	n += lockdep_is_held(&qp->stream.rx_lock);
	n += lockdep_is_held(&to_madcm_rnic_cq(qp->ibqp.send_cq)->lock);
	n += lockdep_is_held(&to_madcm_rnic_cq(qp->ibqp.recv_cq)->lock);
#endif
	return n;
}

static void rd_upcall_run(struct rd_upcall *u)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	u->could_sleep = preemptible();
	u->locks_held = rd_rnic_locks_held(to_madcm_rnic_qp(u->qp));
	if (u->could_sleep && !u->locks_held)
		u->modify_ret = ib_modify_qp(u->qp, &attr, IB_QP_STATE);
	else
		u->modify_ret = -EDEADLK;
	/* the record before the count */
	atomic_inc_return_release(&u->calls);
}

static void rd_upcall_comp(struct ib_cq *cq, void *ctx)
{
	struct rd_upcall *u = ctx;

	if (atomic_read(&u->calls))
		return;
	rd_upcall_run(u);
}

static void rd_upcall_qp_event(struct ib_event *ev, void *ctx)
{
	struct rd_upcall *u = ctx;

	if (atomic_read(&u->calls))
		return;
	u->event = ev->event;
	rd_upcall_run(u);
}

static bool rd_upcall_wait(struct rd_upcall *u)
{
	unsigned long end = jiffies + msecs_to_jiffies(RD_WAIT_MS);

	while (!atomic_read_acquire(&u->calls) && time_before(jiffies, end))
		usleep_range(500, 1000);
	return atomic_read_acquire(&u->calls) > 0;
}

static void rd_upcall_expect(struct kunit *test, struct rd_upcall *u)
{
	KUNIT_ASSERT_TRUE(test, rd_upcall_wait(u));
	KUNIT_EXPECT_TRUE_MSG(test, u->could_sleep,
			      "the handler ran where it may not sleep");
	KUNIT_EXPECT_EQ_MSG(test, u->locks_held, 0,
			    "the handler ran with RNIC locks held");
	KUNIT_EXPECT_EQ(test, u->modify_ret, 0);
}

/*
 * Issue 30, item 9: a receive completion's handler moves its QP to
 * Error. The verbs (IBTA vol. 1 11.4.2.1, 10.3.1) then complete every
 * other outstanding receive once with IB_WC_WR_FLUSH_ERR, after the
 * successful one.
 */
static void recv_handler_moves_its_qp_to_error(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct rd_upcall u = { .qp = b->ibqp, .locks_held = -1 };

	b->rcq->comp_handler = rd_upcall_comp;
	b->rcq->cq_context = &u;
	KUNIT_ASSERT_EQ(test, ib_req_notify_cq(b->rcq, IB_CQ_NEXT_COMP), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 11, b->buf, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 12, b->buf, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(a, 1, a->buf, 8, IB_SEND_SIGNALED),
			0);
	rd_upcall_expect(test, &u);
	KUNIT_EXPECT_TRUE(test, rd_wait_state(b, IB_QPS_ERR));
	rd_expect_wc(test, b->rcq, 10, IB_WC_RECV, IB_WC_SUCCESS);
	rd_expect_wc(test, b->rcq, 11, IB_WC_RECV, IB_WC_WR_FLUSH_ERR);
	rd_expect_wc(test, b->rcq, 12, IB_WC_RECV, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, b->rcq));
	b->rcq->comp_handler = NULL;
}

/*
 * The same from IB_EVENT_QP_FATAL, which a Terminate brings (RFC 5040
 * 5.4: the peer ends the stream; the verbs: an affiliated asynchronous
 * error): a's Write to a QP without remote write.
 */
static void fatal_event_handler_moves_its_qp_to_error(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct rd_upcall u = { .qp = a->ibqp, .locks_held = -1 };

	a->ibqp->event_handler = rd_upcall_qp_event;
	a->ibqp->qp_context = &u;
	rd_set_rights(test, b, IB_ACCESS_REMOTE_READ);
	KUNIT_ASSERT_EQ(test, rd_post_recv(a, 20, a->buf2, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_rdma(a, IB_WR_RDMA_WRITE, 1, a->buf, 100,
					   (u64)(uintptr_t)b->buf2,
					   b->pd->unsafe_global_rkey, 0), 0);
	rd_upcall_expect(test, &u);
	KUNIT_EXPECT_EQ(test, u.event, IB_EVENT_QP_FATAL);
	KUNIT_EXPECT_TRUE(test, rd_wait_state(a, IB_QPS_ERR));
	rd_expect_wc(test, a->rcq, 20, IB_WC_RECV, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->rcq));
	a->ibqp->event_handler = NULL;
}

/*
 * Where a receive CQ's completion handler is called from. @poll: the
 * CQ is ib_core's (ib_alloc_cq()), polled in that context. The handler
 * is wrapped: each call counts, and so does each call from the RNIC's
 * own work of that CQ; then ib_core's handler runs, which polls the CQ
 * and calls the receive's done. Two Sends of 64 octets, one at a time:
 * each lands in its receive and completes it with its length (RFC 5040
 * 5.3; the verbs, IBTA vol. 1 11.4.2.1), through ib_core's poll.
 */
struct rd_where {
	void (*orig)(struct ib_cq *cq, void *ctx);
	struct work_struct *rnic_work;
	atomic_t calls;
	atomic_t from_rnic_work;
	struct ib_cqe cqe;
	struct completion done;
	enum ib_wc_status status;
	u32 byte_len;
};

static struct rd_where *rd_where_cur;

static void rd_where_handler(struct ib_cq *cq, void *ctx)
{
	struct rd_where *w = rd_where_cur;

	if (current_work() == w->rnic_work)
		atomic_inc(&w->from_rnic_work);
	atomic_inc(&w->calls);
	w->orig(cq, ctx);
}

static void rd_where_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rd_where *w = container_of(wc->wr_cqe, struct rd_where, cqe);

	w->status = wc->status;
	w->byte_len = wc->byte_len;
	complete(&w->done);
}

static struct rd_where *rd_handler_where(struct kunit *test,
					 enum ib_poll_context poll)
{
	struct rd_where *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct rd_fix *fx;
	struct rd_side *a, *b;
	unsigned long left;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, w);
	rd_rcq_poll = poll;
	fx = rd_connect(test);
	a = &fx->s[0];
	b = &fx->s[1];
	KUNIT_ASSERT_NOT_NULL(test, b->rcq->comp_handler);
	w->orig = b->rcq->comp_handler;
	w->rnic_work = &to_madcm_rnic_cq(b->rcq)->work;
	w->cqe.done = rd_where_done;
	init_completion(&w->done);
	rd_where_cur = w;
	b->rcq->comp_handler = rd_where_handler;
	for (i = 0; i < 2; i++) {
		struct ib_sge sge = rd_sge(b, b->buf, 64);
		struct ib_recv_wr wr = {
			.wr_cqe = &w->cqe,
			.sg_list = &sge,
			.num_sge = 1,
		};

		reinit_completion(&w->done);
		w->status = IB_WC_GENERAL_ERR;
		KUNIT_ASSERT_EQ(test, ib_post_recv(b->ibqp, &wr, NULL), 0);
		get_random_bytes(a->buf, 64);
		KUNIT_ASSERT_EQ(test, rd_post_send(a, 1, a->buf, 64, 0), 0);
		left = wait_for_completion_timeout(&w->done,
						   msecs_to_jiffies(RD_WAIT_MS));
		KUNIT_ASSERT_GT(test, left, 0);
		KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, w->byte_len, 64);
		KUNIT_EXPECT_EQ(test, memcmp(b->buf, a->buf, 64), 0);
	}
	flush_workqueue(madcm_rnic_wq);
	b->rcq->comp_handler = w->orig;
	/* the second may have been found by ib_core's re-arm instead */
	KUNIT_EXPECT_GE(test, atomic_read(&w->calls), 1);
	return w;
}

/*
 * A CQ that ib_core polls from its workqueue (IB_POLL_WORKQUEUE: nvmet-rdma,
 * rdma_cm's kernel ULPs) has a handler that only queues that poll: the
 * RNIC calls it where the receive completes, never from its own work
 * first, which would cost a second switch before ib_core's.
 */
static void workqueue_cq_handler_runs_where_the_receive_completes(struct kunit *test)
{
	struct rd_where *w = rd_handler_where(test, IB_POLL_WORKQUEUE);

	KUNIT_EXPECT_EQ(test, atomic_read(&w->from_rnic_work), 0);
}

/*
 * A CQ that ib_core polls in softirq (IB_POLL_SOFTIRQ: nvme-rdma's host)
 * keeps its handler on the RNIC's work, as every CQ with a consumer's
 * own handler does: raising ib_core's IRQ_POLL from within the receive's
 * NET_RX cost NVMe reads at depth 1 (performance.rst).
 */
static void softirq_cq_handler_runs_from_the_rnic_work(struct kunit *test)
{
	struct rd_where *w = rd_handler_where(test, IB_POLL_SOFTIRQ);

	KUNIT_EXPECT_EQ(test, atomic_read(&w->from_rnic_work),
			atomic_read(&w->calls));
}

/*
 * A user QP's doorbell (libsiw's post without a work request, its SQEs
 * in the ring the process maps) writes its FPDUs to the stream from the
 * process itself, as siw writes a user QP's send queue in the system
 * call: the stream's push comes once per doorbell, after the QP's lock
 * is dropped, where the caller may sleep (the socket's sendmsg may). A
 * kernel consumer's post, which may come from any context, leaves the
 * writing to the carrier's own context: no push.
 */
static void user_doorbell_pushes_from_the_process(struct kunit *test)
{
	static const u8 msg[8] = "doorbel";
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	struct siw_sqe *ring, *e;
	u32 atomic = 0, locked = 0;

	ring = kunit_kcalloc(test, a->qp->sq.size, sizeof(*ring), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ring);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 10, b->buf, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 11, b->buf2, 64), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(a, 1, a->buf, 8, IB_SEND_SIGNALED),
			0);
	rd_expect_wc(test, a->scq, 1, IB_WC_SEND, IB_WC_SUCCESS);
	rd_expect_wc(test, b->rcq, 10, IB_WC_RECV, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rnic_pipe_pushes(fx->pipe, 0, &atomic, &locked),
			0U);

	/* the process's SQE: an inline Send of 8 octets, then the doorbell */
	e = &ring[a->qp->sq.tail % a->qp->sq.size];
	e->id = 2;
	e->opcode = SIW_OP_SEND;
	e->num_sge = 1;
	e->sge[0].length = sizeof(msg);
	memcpy((u8 *)e->sge + sizeof(e->sge[0]), msg, sizeof(msg));
	e->flags = SIW_WQE_VALID | SIW_WQE_INLINE | SIW_WQE_SIGNALLED;
	a->qp->usq = ring;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->ibqp, NULL, NULL), 0);
	rd_expect_wc(test, a->scq, 2, IB_WC_SEND, IB_WC_SUCCESS);
	rd_expect_wc(test, b->rcq, 11, IB_WC_RECV, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(b->buf2, msg, sizeof(msg)), 0);
	KUNIT_EXPECT_EQ(test, rnic_pipe_pushes(fx->pipe, 0, &atomic, &locked),
			1U);
	KUNIT_EXPECT_EQ(test, atomic, 0U);
	KUNIT_EXPECT_EQ(test, locked, 0U);
	a->qp->usq = NULL;
}

/*
 * The offload boundary's checks, before anything carries the stream
 * (Documentation/rnic_iw.rst, "The QP's stream"): more unacknowledged
 * bytes than an MPA frame with the most private data and an RTR FPDU
 * (640) is -EMSGSIZE; a count that is not SND.NXT - SND.UNA, or bytes
 * announced and not given, -EINVAL; a QP whose CM backend cannot pass
 * segments to the host's stack (none here: no CM) cannot give its stream
 * to a host socket, -EOPNOTSUPP. Each leaves the QP in INIT, its stream
 * not carried (nothing can be sent, no record size). A second hand-off
 * of a carried stream is -EBUSY.
 */
/*
 * Side 0's hand-off with @unacked_len bytes left unacknowledged, SND.UNA
 * @una_back before SND.NXT, and @rcvd_len bytes announced as received
 * (none given).
 */
static int rd_offload_with(struct rd_fix *fx, u32 unacked_len, u32 una_back,
			   u32 rcvd_len)
{
	static const u8 bytes[MADCM_RNIC_STREAM_UNACKED_MAX + 1];
	struct madcm_cm_offload_ctx ctx;

	rd_ctx(fx, 0, &ctx);
	ctx.unacked = unacked_len ? bytes : NULL;
	ctx.unacked_len = unacked_len;
	ctx.tcp.snd_una -= una_back;
	ctx.rcvd_len = rcvd_len;
	return madcm_rnic_offload_ops.offload(&fx->s[0].qp->oqp, &ctx);
}

static void refused_hand_offs_leave_the_qp_as_it_was(struct kunit *test)
{
	static const u8 bytes[8];
	struct rd_fix *fx = rd_fix_create(test);
	struct rd_side *a = &fx->s[0];
	struct madcm_cm_offload_ctx ctx;
	struct kvec vec = { .iov_base = (void *)bytes, .iov_len = 8 };

	KUNIT_EXPECT_EQ(test, rd_offload_with(fx, 641, 641, 0), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rd_offload_with(fx, 40, 39, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rd_offload_with(fx, 0, 0, 10), -EINVAL);
	/* the module's own carrier, the host socket */
	a->qp->stream.ops = &madcm_rnic_ks_ops;
	KUNIT_EXPECT_EQ(test, rd_offload_with(fx, 0, 0, 0), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_INIT);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(a->qp->stream.carried));
	KUNIT_EXPECT_EQ(test, madcm_rnic_stream_send(&a->qp->stream, &vec, 1, 8),
			-ENOTCONN);
	KUNIT_EXPECT_EQ(test, madcm_rnic_stream_max_record(&a->qp->stream), 0);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_CONN_OFFLOADED), 0);

	/* carried by the pipe: a second hand-off is refused */
	rnic_pipe_join(fx->pipe, &fx->s[0].qp->stream, &fx->s[1].qp->stream);
	rd_ctx(fx, 0, &ctx);
	rd_offload(test, a, &ctx);
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, madcm_rnic_stream_max_record(&a->qp->stream),
			RD_MSS);
	KUNIT_EXPECT_EQ(test, madcm_rnic_offload_ops.offload(&a->qp->oqp, &ctx),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_RTS);
}

/*
 * madcm_rnic_stream_detach() detaches the carrier first, and only then
 * marks the stream not carried: a sender in between saw the stream
 * carried and reaches the carrier. The host socket's carrier has nothing
 * more to send with once the CM is done with the QP (its work does
 * nothing after detach), so it refuses the record as it refuses one for
 * a stream not carried (-ENOTCONN) and holds nothing for it; a record
 * taken there would stay until the QP is destroyed, and its work
 * request would never complete.
 */
static void detached_host_socket_stream_takes_no_record(struct kunit *test)
{
	static const u8 bytes[8];
	struct rd_fix *fx = rd_fix_create(test);
	struct madcm_rnic_stream *t = &fx->s[0].qp->stream;
	struct kvec vec = { .iov_base = (void *)bytes, .iov_len = 8 };
	struct madcm_cm_offload_ctx ctx;

	/* the stream as the host socket's carrier takes it at the hand-off */
	t->ops = &madcm_rnic_ks_ops;
	rd_ctx(fx, 0, &ctx);
	spin_lock_bh(&t->rx_lock);
	madcm_rnic_stream_take(t, &ctx);
	spin_unlock_bh(&t->rx_lock);
	KUNIT_ASSERT_TRUE(test, READ_ONCE(t->carried));

	/* madcm_rnic_stream_detach()'s first step */
	t->ops->detach(t);
	KUNIT_EXPECT_EQ(test, madcm_rnic_stream_send(t, &vec, 1, 8), -ENOTCONN);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->ks.txq));
	KUNIT_EXPECT_EQ(test, t->ks.tx_mem, 0);
	KUNIT_EXPECT_NULL(test, madcm_rnic_stream_build_buf(t, 64));
	/* and its second: no carrier any more */
	WRITE_ONCE(t->carried, false);
	KUNIT_EXPECT_EQ(test, madcm_rnic_stream_send(t, &vec, 1, 8), -ENOTCONN);
}

/*
 * The ULPDU octets of an FPDU that fills one segment of RD_MSS (RFC 5044
 * 4.1, 5.2: ULPDU_Length, ULPDU and PAD a multiple of four, then the
 * CRC), less the tagged DDP/RDMAP header (RFC 5041 4.2: control, RDMAP
 * control, STag, TO: 14 octets): an RDMA Write's payload per FPDU.
 */
#define RD_WRITE_PER_FPDU	(round_down(RD_MSS - 4, 4) - 2 - 14)

static int rd_pages_init(struct kunit_resource *res, void *context)
{
	res->data = (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO | __GFP_COMP,
					     get_order(RD_BUF));
	return res->data ? 0 : -ENOMEM;
}

static void rd_pages_free(struct kunit_resource *res)
{
	free_pages((unsigned long)res->data, get_order(RD_BUF));
}

/*
 * RD_BUF octets in a compound page of their own (not slab memory; each
 * page with a reference count, as a socket needs), for the case.
 */
static u8 *rd_page_buf(struct kunit *test)
{
	u8 *va = kunit_alloc_resource(test, rd_pages_init, rd_pages_free,
				      GFP_KERNEL, NULL);

	KUNIT_ASSERT_NOT_NULL(test, va);
	return va;
}

/*
 * With zero-copy on and the pipe keeping its tickets: a signaled Write of
 * @len octets from pages (wr_id 1) and a signaled empty Send behind it
 * (wr_id 2), from side 0; returns once side 1's receive shows the Write
 * placed, byte-exact, with nothing completed at side 0 yet.
 */
static void rd_zc_write_held(struct kunit *test, struct rd_fix *fx, u8 *src,
			     u32 len)
{
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];

	rd_set_zcopy_min(4096);
	rnic_pipe_hold_zc(fx->pipe, true);
	get_random_bytes(src, len);
	memset(b->buf2, 0, RD_BUF);
	KUNIT_ASSERT_EQ(test, rd_post_recv(b, 300, b->buf, 16), 0);
	KUNIT_ASSERT_EQ(test, rd_post_rdma(a, IB_WR_RDMA_WRITE, 1, src, len,
					   (u64)(uintptr_t)b->buf2,
					   b->pd->unsafe_global_rkey,
					   IB_SEND_SIGNALED), 0);
	KUNIT_ASSERT_EQ(test, rd_post_send(a, 2, a->buf2, 0, IB_SEND_SIGNALED),
			0);
	rd_expect_wc(test, b->rcq, 300, IB_WC_RECV, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(src, b->buf2, len), 0);
	/* placed at the peer, and still not complete */
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->scq));
}

/*
 * An RDMA Write of at least rnic_tx_zcopy_min octets from pages goes to
 * the stream in those pages (rnic/zc.h, counted in tx_mr_zc_bytes), and
 * completes only once the carrier lets them go: the verbs let the ULP
 * reuse a buffer once its work request completed (IBTA vol. 1 10.8.3),
 * and the carrier (TCP) may still resend from it until the peer's ACK.
 * Here the peer has placed the Write (the Send behind it arrived), but
 * the pipe keeps the pages, as a socket does until the ACK: nothing
 * completes; when it lets them go, both complete, in order.
 */
static void zero_copy_write_completes_once_its_pages_are_free(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0];
	const u32 len = 65536 + 3;
	u8 *src = rd_page_buf(test);
	u64 zc0 = rd_count(a, MADCM_RNIC_CNT_TX_MR_ZC_BYTES);

	rd_zc_write_held(test, fx, src, len);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TX_MR_ZC_BYTES) - zc0,
			(u64)len);

	rnic_pipe_hold_zc(fx->pipe, false);
	rd_expect_wc(test, a->scq, 1, IB_WC_RDMA_WRITE, IB_WC_SUCCESS);
	rd_expect_wc(test, a->scq, 2, IB_WC_SEND, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rd_state(a), IB_QPS_RTS);
}

/*
 * What does not go zero-copy completes as soon as it is queued: a Write
 * from slab memory (a socket may not hold a reference to its page) is
 * copied, one count in tx_mr_zc_copied per FPDU; with rnic_tx_zcopy_min
 * 0, or under it, nothing tries. Either way the bytes land.
 */
static void zero_copy_is_not_tried_where_it_cannot_be(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0], *b = &fx->s[1];
	const u32 slab_len = 8000, page_len = 65536;
	u8 *slab = kunit_kmalloc(test, slab_len, GFP_KERNEL);
	u8 *pages = rd_page_buf(test);
	u64 zc0 = rd_count(a, MADCM_RNIC_CNT_TX_MR_ZC_BYTES);
	u64 copied0 = rd_count(a, MADCM_RNIC_CNT_TX_MR_ZC_COPIED);
	static const struct { unsigned int min; bool from_slab; } run[] = {
		{ 4096, true }, { 0, false }, { 2 * 65536, false },
	};
	int i;

	KUNIT_ASSERT_NOT_NULL(test, slab);
	rnic_pipe_hold_zc(fx->pipe, true);
	for (i = 0; i < ARRAY_SIZE(run); i++) {
		u8 *src = run[i].from_slab ? slab : pages;
		u32 len = run[i].from_slab ? slab_len : page_len;

		rd_set_zcopy_min(run[i].min);
		get_random_bytes(src, len);
		memset(b->buf2, 0, RD_BUF);
		KUNIT_ASSERT_EQ(test,
				rd_post_rdma(a, IB_WR_RDMA_WRITE, 10 + i, src,
					     len, (u64)(uintptr_t)b->buf2,
					     b->pd->unsafe_global_rkey,
					     IB_SEND_SIGNALED), 0);
		/* the pipe keeps no page of it: it completes */
		rd_expect_wc(test, a->scq, 10 + i, IB_WC_RDMA_WRITE,
			     IB_WC_SUCCESS);
		KUNIT_ASSERT_EQ(test, rd_post_recv(b, 400 + i, b->buf, 16), 0);
		KUNIT_ASSERT_EQ(test, rd_post_send(a, 20 + i, a->buf2, 0, 0), 0);
		rd_expect_wc(test, b->rcq, 400 + i, IB_WC_RECV, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(src, b->buf2, len), 0,
				    "run %d", i);
	}
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TX_MR_ZC_BYTES), zc0);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TX_MR_ZC_COPIED) -
			copied0,
			(u64)DIV_ROUND_UP(slab_len, RD_WRITE_PER_FPDU));
	rnic_pipe_hold_zc(fx->pipe, false);
}

/*
 * The sizes of the two cases above again, both ways, with every Send and
 * Write of 4 KiB or more zero-copy (rnic_tx_zcopy_min, off by default):
 * the FPDUs framed around the pages (the CRC over header, pages and PAD,
 * which the receiver checks) land byte-exact and complete in order.
 */
static void send_and_write_sizes_zero_copy(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0];
	u64 zc0 = rd_count(a, MADCM_RNIC_CNT_TX_MR_ZC_BYTES);

	rd_set_zcopy_min(4096);
	rd_send_sizes(test, fx, 0);
	rd_send_sizes(test, fx, 1);
	rd_write_sizes(test, fx, 0);
	rd_write_sizes(test, fx, 1);
	/* the buffers are one kmalloc_large() each: every page can go */
	KUNIT_EXPECT_GT(test, rd_count(a, MADCM_RNIC_CNT_TX_MR_ZC_BYTES), zc0);
	KUNIT_EXPECT_EQ(test, rd_count(a, MADCM_RNIC_CNT_TX_MR_ZC_COPIED), 0);
}

/*
 * A zero-copy work request whose pages TCP still holds is flushed like
 * any other when the QP enters Error (IBTA vol. 1 10.3.1, 11.4.2.4:
 * every outstanding work request completes with a flush error); its
 * ticket, let go after the QP was destroyed, completes nothing more and
 * touches nothing of it (KASAN watches): the QP's anchor outlives it.
 */
static void zero_copy_tickets_outlive_their_qp(struct kunit *test)
{
	struct rd_fix *fx = rd_connect(test);
	struct rd_side *a = &fx->s[0];
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	const u32 len = 3 * 4096;
	u8 *src = rd_page_buf(test);

	rd_zc_write_held(test, fx, src, len);

	KUNIT_ASSERT_EQ(test, ib_modify_qp(a->ibqp, &attr, IB_QP_STATE), 0);
	rd_expect_wc(test, a->scq, 1, IB_WC_RDMA_WRITE, IB_WC_WR_FLUSH_ERR);
	rd_expect_wc(test, a->scq, 2, IB_WC_SEND, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(a->ibqp), 0);
	a->ibqp = NULL;
	rnic_pipe_hold_zc(fx->pipe, false);
	flush_workqueue(madcm_rnic_wq);
	KUNIT_EXPECT_TRUE(test, rd_cq_empty(fx, a->scq));
}

static struct kunit_case rnic_rdmap_cases[] = {
	KUNIT_CASE(refused_hand_offs_leave_the_qp_as_it_was),
	KUNIT_CASE(detached_host_socket_stream_takes_no_record),
	KUNIT_CASE(responder_sends_nothing_before_the_initiators_first_fpdu),
	KUNIT_CASE(responder_hold_ends_when_the_initiator_stays_silent),
	KUNIT_CASE(no_hold_on_the_initiator_nor_with_zero_ms),
	KUNIT_CASE(initiator_nudges_a_silent_peer_once),
	KUNIT_CASE(no_nudge_once_the_peer_spoke),
	KUNIT_CASE(no_nudge_with_zero_ms),
	KUNIT_CASE(nudge_ends_a_responders_hold),
	KUNIT_CASE(send_1_byte_to_1_mib_both_ways),
	KUNIT_CASE_PARAM(fpdus_carry_the_crc_negotiated, rd_crc_gen_params),
	KUNIT_CASE(write_1_byte_to_1_mib_both_ways),
	KUNIT_CASE(send_and_write_sizes_zero_copy),
	KUNIT_CASE(zero_copy_write_completes_once_its_pages_are_free),
	KUNIT_CASE(zero_copy_is_not_tried_where_it_cannot_be),
	KUNIT_CASE(zero_copy_tickets_outlive_their_qp),
	KUNIT_CASE(read_1_byte_to_1_mib_both_ways),
	KUNIT_CASE(reads_beyond_ord_wait_and_complete_in_order),
	KUNIT_CASE(fenced_send_waits_for_the_read_before_it),
	KUNIT_CASE(reads_beyond_the_peers_ird_terminate),
	KUNIT_CASE(solicited_send_wakes_a_solicited_cq),
	KUNIT_CASE(multi_sge_send_write_read),
	KUNIT_CASE(inline_send_and_write_take_the_bytes_at_post),
	KUNIT_CASE(unsignaled_sends_make_no_completion),
	KUNIT_CASE(send_with_invalidate_invalidates_the_stag),
	KUNIT_CASE(read_with_invalidate_invalidates_the_data_sink),
	KUNIT_CASE(write_without_access_gives_terminate_and_flush),
	KUNIT_CASE(write_to_a_qp_without_remote_write_terminates),
	KUNIT_CASE(read_from_a_qp_without_remote_read_fails),
	KUNIT_CASE(bad_lkey_completes_loc_prot_err_and_flushes),
	KUNIT_CASE(sge_outside_its_mr_is_loc_prot_err),
	KUNIT_CASE(error_flushes_both_queues_once),
	KUNIT_CASE(recv_handler_moves_its_qp_to_error),
	KUNIT_CASE(fatal_event_handler_moves_its_qp_to_error),
	KUNIT_CASE(workqueue_cq_handler_runs_where_the_receive_completes),
	KUNIT_CASE(softirq_cq_handler_runs_from_the_rnic_work),
	KUNIT_CASE(user_doorbell_pushes_from_the_process),
	KUNIT_CASE(rtr_read_completes_nothing),
	KUNIT_CASE(rtr_send_consumes_no_receive),
	KUNIT_CASE(rtr_write_consumes_no_receive),
	{}
};

static struct kunit_suite rnic_rdmap_suite = {
	.name = "madcm_rnic_rdmap",
	.exit = rd_exit,
	.test_cases = rnic_rdmap_cases,
};

kunit_test_suite(rnic_rdmap_suite);
