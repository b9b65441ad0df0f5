// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the CM's side of the offload boundary (<madcm/cm_offload.h>) and
 * RFC 6581's peer-to-peer responder, which reports ESTABLISHED only once
 * the initiator's RTR message arrived. The peer is played by hand on the
 * software wire; the QP is a fake of this file that records what the CM
 * asks of it. Expected bytes and sequence numbers come from RFC 5044 and
 * RFC 6581 layouts (mpa_spec.h, rtr_spec.h), never from the CM's builders.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <madcm/cm_offload.h>
#include "irdma_cm/tcp_seq.h"
#include "tests/kunit/cm_test_util.h"
#include "tests/kunit/mpa_spec.h"
#include "tests/kunit/rtr_spec.h"

#define LPORT	4400
#define RPORT	36000
#define BUF	600

/**
 * struct fake_qp - a QP that records what the CM asks of it
 * @qp: what the CM sees
 * @side: the consumer's recorder, to see when detach comes
 * @offload_ret: what ->offload() answers
 * @offloads: ->offload() calls
 * @tcp: the TCP context it was given
 * @unacked: the unacknowledged bytes it was given
 * @unacked_len: how many
 * @rcvd: the received bytes it was given
 * @rcvd_len: how many
 * @rto_ms: the RTO hint
 * @rx: ->rx() calls
 * @rx_seq: the TCP sequence number of the last frame ->rx() got
 * @rx_len: the payload length of that frame
 * @close_fin: ->close(FIN) calls
 * @close_rst: ->close(RST) calls
 * @detaches: ->detach() calls
 * @terminals_at_detach: terminal events the consumer had seen then
 */
struct fake_qp {
	struct madcm_cm_offload_qp qp;
	struct cm_side *side;
	int offload_ret;
	int offloads;
	struct madcm_cm_tcp_ctx tcp;
	u8 unacked[BUF];
	u32 unacked_len;
	u8 rcvd[BUF];
	u32 rcvd_len;
	u32 rto_ms;
	int rx;
	u32 rx_seq;
	u32 rx_len;
	int close_fin;
	int close_rst;
	int detaches;
	int terminals_at_detach;
};

static struct fake_qp *fake_of(struct madcm_cm_offload_qp *qp)
{
	return container_of(qp, struct fake_qp, qp);
}

static int fake_offload(struct madcm_cm_offload_qp *qp,
			const struct madcm_cm_offload_ctx *ctx)
{
	struct fake_qp *f = fake_of(qp);

	f->offloads++;
	if (f->offload_ret)
		return f->offload_ret;
	f->tcp = ctx->tcp;
	f->unacked_len = min_t(u32, ctx->unacked_len, BUF);
	memcpy(f->unacked, ctx->unacked, f->unacked_len);
	f->rcvd_len = min_t(u32, ctx->rcvd_len, BUF);
	if (f->rcvd_len)
		memcpy(f->rcvd, ctx->rcvd, f->rcvd_len);
	f->rto_ms = ctx->rto_ms;
	return 0;
}

static void fake_rx(struct madcm_cm_offload_qp *qp, const u8 *frame, u32 len)
{
	struct fake_qp *f = fake_of(qp);
	struct irdma_cm_seg seg;

	f->rx++;
	if (irdma_cm_parse_seg(frame, len, &seg) == IRDMA_SEG_OK) {
		f->rx_seq = seg.seq;
		f->rx_len = seg.payload_len;
	}
}

static void fake_close(struct madcm_cm_offload_qp *qp,
		       enum madcm_cm_offload_close how)
{
	struct fake_qp *f = fake_of(qp);

	if (how == MADCM_CM_OFFLOAD_CLOSE_RST)
		f->close_rst++;
	else
		f->close_fin++;
}

static void fake_detach(struct madcm_cm_offload_qp *qp)
{
	struct fake_qp *f = fake_of(qp);

	f->detaches++;
	f->terminals_at_detach = READ_ONCE(f->side->terminals);
}

static const struct madcm_cm_offload_ops fake_ops = {
	.offload = fake_offload,
	.rx = fake_rx,
	.close = fake_close,
	.detach = fake_detach,
};

static struct fake_qp *fake_qp_new(struct kunit *test, struct cm_side *side)
{
	struct fake_qp *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->qp.ops = &fake_ops;
	f->side = side;
	return f;
}

/* Every event, QP report and detach of core @i has run. */
static void off_settle(struct cm_fix *fix, int i)
{
	madcm_wire_loop_quiesce(fix->loop);
	flush_workqueue(fix->core[i]->event_wq);
}

/* The RTR message as a P2P initiator without CRC sends it: a Write. */
static u32 off_rtr_write(u8 *buf)
{
	memcpy(buf, fpdu_write, sizeof(fpdu_write));
	memset(buf + sizeof(fpdu_write), 0, 4);
	return sizeof(fpdu_write) + 4;
}

/* A peer-to-peer listener (revision 2, RTR Write) on core @i. */
static void off_p2p_listen(struct kunit *test, struct cm_fix *fix, int i)
{
	struct madcm_cm_listen_attr attr = {
		.addr = { .ip = fix->v4[i], .port = LPORT },
		.vlan_id = MADCM_CM_NO_VLAN,
		.ird = 4,
		.ord = 4,
		.mpa_rev = 2,
		.peer_to_peer = true,
		.rtr_caps = MADCM_CM_RTR_WRITE,
		.handler = cm_test_handler,
		.context = &fix->side[i],
	};
	struct madcm_cm_listener *l;

	KUNIT_ASSERT_EQ(test, madcm_cm_create_listener(&fix->core[i]->handle,
						       &attr, &l), 0);
}

/*
 * A raw initiator opens a peer-to-peer connection to core 0 and sends
 * its request; core 0's consumer holds the CONNECT_REQUEST.
 */
static struct cm_rec *off_p2p_request(struct kunit *test, struct cm_fix *fix,
				      struct cm_raw *raw)
{
	struct spec_frame req = {
		.request = true, .s = true, .rev = 2, .pd_len = SPEC_RTR_LEN,
		.rtr_words = true, .a = true, .cc = true, .ird = 4, .ord = 4,
	};
	u8 frame[64];
	u32 n;

	fix->side[0].policy = CM_TEST_HOLD;
	off_p2p_listen(test, fix, 0);
	cm_raw_init(raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_raw_open(test, raw);
	n = spec_write(frame, &req);
	cm_raw_send(test, raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw->snd_nxt,
		    raw->rcv_nxt, frame, n, false);
	raw->snd_nxt += n;
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 1));
	KUNIT_ASSERT_EQ(test, fix->side[0].recs[0].ev[0],
			MADCM_CM_EVENT_CONNECT_REQUEST);
	return &fix->side[0].recs[0];
}

/*
 * RFC 6581 section 4: the responder may not use the connection before
 * the initiator's RTR message arrived; the consumer hears ESTABLISHED
 * only then. Without offload the CM takes the RTR itself and
 * acknowledges it.
 */
static void cm_offload_p2p_responder_waits_for_rtr(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_accept_attr acc = {};
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *p;
	u8 rtr[64];
	u32 n;

	p = off_p2p_request(test, fix, &raw);
	KUNIT_ASSERT_EQ(test, madcm_cm_accept(p->conn, &acc), 0);
	/* The reply: a revision 2 reply naming the Write RTR. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.payload_len, (u32)SPEC_HDR_LEN + SPEC_RTR_LEN);
	raw.rcv_nxt += seg.payload_len;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt,
		    NULL, 0, false);
	madcm_wire_loop_quiesce(fix->loop);
	flush_workqueue(fix->core[0]->event_wq);
	KUNIT_EXPECT_EQ(test, p->nev, 1);
	KUNIT_EXPECT_FALSE(test, cm_rec_has(p, MADCM_CM_EVENT_ESTABLISHED));

	n = off_rtr_write(rtr);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, rtr, n, false);
	raw.snd_nxt += n;
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, p->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, p->ctx.rcv_nxt, raw.snd_nxt);
	KUNIT_EXPECT_EQ(test, p->ctx.snd_nxt, raw.rcv_nxt);
	/* The CM acknowledges the RTR it took. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * The offloaded responder of RFC 6581's peer-to-peer model: the QP gets
 * the stream only once the RTR message arrived, and gets the RTR's bytes
 * with it, unacknowledged by the CM: they are the QP's to process.
 */
static void cm_offload_p2p_responder_hands_off_after_rtr(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct fake_qp *f = fake_qp_new(test, &fix->side[0]);
	struct madcm_cm_accept_attr acc = { .offload_qp = &f->qp };
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *p;
	u32 n, reply_seq;
	u8 rtr[64];

	p = off_p2p_request(test, fix, &raw);
	KUNIT_ASSERT_EQ(test, madcm_cm_accept(p->conn, &acc), 0);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.payload_len, (u32)SPEC_HDR_LEN + SPEC_RTR_LEN);
	reply_seq = seg.seq;
	raw.rcv_nxt += seg.payload_len;
	off_settle(fix, 0);
	KUNIT_EXPECT_EQ(test, f->offloads, 0);
	KUNIT_EXPECT_EQ(test, p->nev, 1);

	/* The RTR also acknowledges the reply. */
	n = off_rtr_write(rtr);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, rtr, n, false);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, p->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, f->offloads, 1);
	KUNIT_EXPECT_EQ(test, f->tcp.rcv_nxt, raw.snd_nxt);
	KUNIT_EXPECT_EQ(test, f->tcp.snd_una, reply_seq + SPEC_HDR_LEN +
			SPEC_RTR_LEN);
	KUNIT_EXPECT_EQ(test, f->tcp.snd_nxt, f->tcp.snd_una);
	KUNIT_EXPECT_EQ(test, f->unacked_len, 0);
	KUNIT_EXPECT_EQ(test, f->tcp.rtr_type, MADCM_CM_RTR_WRITE);
	KUNIT_EXPECT_TRUE(test, f->tcp.peer_to_peer);
	KUNIT_ASSERT_EQ(test, f->rcvd_len, n);
	SPEC_EXPECT_MEMEQ(test, f->rcvd, rtr, n);
	/* The consumer's context is the QP's. */
	KUNIT_EXPECT_EQ(test, p->ctx.rcv_nxt, f->tcp.rcv_nxt);
	/* The RTR is not the CM's to acknowledge. */
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	cm_expect_drained(test, fix->core[0]);
	KUNIT_EXPECT_EQ(test, f->detaches, 1);
}

/* A peer-to-peer responder whose initiator never sends the RTR. */
static void cm_offload_p2p_responder_rtr_timeout(struct kunit *test)
{
	static const struct madcm_cm_config cfg = {
		.rto_min_ms = 600000,
		.rto_max_ms = 600000,
		.time_wait_ms = 600000,
		.fin_wait2_ms = 600000,
		.mpa_timeout_ms = 50,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cfg, 2);
	struct fake_qp *f = fake_qp_new(test, &fix->side[0]);
	struct madcm_cm_accept_attr acc = { .offload_qp = &f->qp };
	struct cm_raw raw;
	struct cm_rec *p;

	p = off_p2p_request(test, fix, &raw);
	KUNIT_ASSERT_EQ(test, madcm_cm_accept(p->conn, &acc), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	off_settle(fix, 0);
	KUNIT_EXPECT_EQ(test, p->nev, 2);
	KUNIT_EXPECT_EQ(test, p->ev[1], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, p->status[1], -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, f->offloads, 0);
	KUNIT_EXPECT_EQ(test, f->detaches, 1);
	KUNIT_EXPECT_EQ(test, f->terminals_at_detach, 1);
	cm_expect_drained(test, fix->core[0]);
}

/* A responder without RTR: the QP gets the MPA reply to retransmit. */
static void cm_offload_responder_hands_off_reply(struct kunit *test)
{
	static const u8 pdata[] = { 'o', 'k' };
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct fake_qp *f = fake_qp_new(test, &fix->side[0]);
	struct madcm_cm_accept_attr acc = {
		.offload_qp = &f->qp,
		.private_data = pdata,
		.private_data_len = sizeof(pdata),
	};
	struct spec_frame rep = {
		.rev = 1, .pd_len = sizeof(pdata), .ulp = pdata,
		.ulp_len = sizeof(pdata),
	};
	struct irdma_cm_seg seg;
	u8 want[64], got[64];
	struct cm_raw raw;
	struct cm_rec *p;
	u32 n;

	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_drive(test, fix, &raw, CM_RAW_REQ_RCVD, RPORT, LPORT);
	p = &fix->side[0].recs[0];
	KUNIT_ASSERT_EQ(test, madcm_cm_accept(p->conn, &acc), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, p->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	n = spec_write(want, &rep);
	KUNIT_ASSERT_EQ(test, f->offloads, 1);
	/* Nothing of the reply is acknowledged yet: all of it is the QP's. */
	KUNIT_EXPECT_EQ(test, f->tcp.snd_una, raw.rcv_nxt);
	KUNIT_EXPECT_EQ(test, f->tcp.snd_nxt, raw.rcv_nxt + n);
	KUNIT_EXPECT_EQ(test, f->tcp.rcv_nxt, raw.snd_nxt);
	KUNIT_ASSERT_EQ(test, f->unacked_len, n);
	SPEC_EXPECT_MEMEQ(test, f->unacked, want, n);
	KUNIT_EXPECT_EQ(test, f->rcvd_len, 0);
	KUNIT_EXPECT_EQ(test, f->rto_ms, cm_test_quiet_cfg.rto_min_ms);
	/* The CM still sends the reply once, as queued before the hand-off. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, got, 64));
	KUNIT_EXPECT_EQ(test, seg.seq, raw.rcv_nxt);
	KUNIT_ASSERT_EQ(test, seg.payload_len, n);
	SPEC_EXPECT_MEMEQ(test, got, want, n);
	off_settle(fix, 0);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_offloaded(fix->port[0]), 1);
	cm_expect_drained(test, fix->core[0]);
	KUNIT_EXPECT_EQ(test, f->detaches, 1);
}

/**
 * struct off_active - an offloaded peer-to-peer initiator on core 0
 * @raw: the responder, played by hand
 * @f: core 0's QP
 * @a: the connection
 * @iss: the initiator's ISS, from its SYN
 */
struct off_active {
	struct cm_raw raw;
	struct fake_qp *f;
	struct cm_rec *a;
	u32 iss;
};

/*
 * Core 0 connects peer-to-peer (Write RTR, no CRC) with a QP to a raw
 * responder, which sends a reply that acknowledges the request; the CM
 * sends its RTR and hands off with the RTR unacknowledged.
 */
static void off_connect(struct kunit *test, struct cm_fix *fix,
			struct off_active *o, int offload_ret)
{
	struct spec_frame rep = {
		.s = true, .rev = 2, .pd_len = SPEC_RTR_LEN, .rtr_words = true,
		.a = true, .cc = true, .ird = 4, .ord = 4,
	};
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	u8 buf[64];
	u32 n;

	o->f = fake_qp_new(test, &fix->side[0]);
	o->f->offload_ret = offload_ret;
	cm_raw_init(&o->raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr.loc.port = LPORT;
	attr.peer_to_peer = true;
	attr.rtr_caps = MADCM_CM_RTR_WRITE;
	attr.ird = 4;
	attr.ord = 4;
	attr.offload_qp = &o->f->qp;
	o->a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &o->raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.flags, IRDMA_TCP_SYN);
	o->iss = seg.seq;
	o->raw.rcv_nxt = seg.seq + 1;
	o->raw.snd_nxt = o->raw.iss + 1;
	cm_raw_send(test, &o->raw, IRDMA_TCP_SYN | IRDMA_TCP_ACK, o->raw.iss,
		    o->raw.rcv_nxt, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &o->raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.payload_len, (u32)SPEC_HDR_LEN + SPEC_RTR_LEN);
	o->raw.rcv_nxt += seg.payload_len;
	n = spec_write(buf, &rep);
	cm_raw_send(test, &o->raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH,
		    o->raw.snd_nxt, o->raw.rcv_nxt, buf, n, false);
	o->raw.snd_nxt += n;
}

/* Wait for CONNECT_REPLY and ESTABLISHED, and take the RTR off the wire. */
static void off_established(struct kunit *test, struct cm_fix *fix,
			    struct off_active *o)
{
	struct irdma_cm_seg seg;

	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_EQ(test, o->a->ev[0], MADCM_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_EQ(test, o->a->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &o->raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.seq, o->raw.rcv_nxt);
	o->raw.rcv_nxt += seg.payload_len;
	off_settle(fix, 0);
}

/* The initiator's context: the RTR it sent is the QP's to retransmit. */
static void cm_offload_initiator_hands_off_unacked_rtr(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct off_active o;
	u8 want[64];
	u32 n, una;

	off_connect(test, fix, &o, 0);
	off_established(test, fix, &o);
	n = off_rtr_write(want);
	/* SYN, then the request: key, flags and length, IRD/ORD word. */
	una = o.iss + 1 + SPEC_HDR_LEN + SPEC_RTR_LEN;
	KUNIT_ASSERT_EQ(test, o.f->offloads, 1);
	KUNIT_EXPECT_EQ(test, o.f->tcp.snd_una, una);
	KUNIT_EXPECT_EQ(test, o.f->tcp.snd_nxt, una + n);
	KUNIT_EXPECT_EQ(test, o.f->tcp.rcv_nxt, o.raw.snd_nxt);
	KUNIT_ASSERT_EQ(test, o.f->unacked_len, n);
	SPEC_EXPECT_MEMEQ(test, o.f->unacked, want, n);
	KUNIT_EXPECT_EQ(test, o.f->tcp.rtr_type, MADCM_CM_RTR_WRITE);
	KUNIT_EXPECT_EQ(test, o.f->tcp.ird, 4);
	KUNIT_EXPECT_EQ(test, o.f->tcp.ord, 4);
	KUNIT_EXPECT_EQ(test, o.f->rto_ms, cm_test_quiet_cfg.rto_min_ms);
	KUNIT_EXPECT_EQ(test, o.a->ctx.snd_nxt, o.f->tcp.snd_nxt);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_offloaded(fix->port[0]), 1);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_OFFLOADS), 1);
	cm_expect_drained(test, fix->core[0]);
}

/* After the hand-off a segment of the stream is the QP's, not the CM's. */
static void cm_offload_segment_after_handoff_reaches_qp(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct off_active o;

	off_connect(test, fix, &o, 0);
	off_established(test, fix, &o);
	cm_raw_send(test, &o.raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, o.raw.snd_nxt,
		    o.raw.rcv_nxt, "hello", 5, false);
	KUNIT_EXPECT_EQ(test, o.f->rx, 1);
	KUNIT_EXPECT_EQ(test, o.f->rx_seq, o.raw.snd_nxt);
	KUNIT_EXPECT_EQ(test, o.f->rx_len, 5);
	/* The CM neither acknowledges nor takes it. */
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&o.raw));
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_ULP_BYTES), 0);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_OFFLOAD_RX), 1);
	cm_expect_drained(test, fix->core[0]);
}

/* The peer closes: the QP's FIN_RCVD, then CLOSED: DISCONNECT, CLOSE. */
static void cm_offload_qp_fin_then_closed(struct kunit *test)
{
	static const enum madcm_cm_event_type want[] = {
		MADCM_CM_EVENT_CONNECT_REPLY, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_DISCONNECT, MADCM_CM_EVENT_CLOSE,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct off_active o;

	off_connect(test, fix, &o, 0);
	off_established(test, fix, &o);
	madcm_cm_offload_event(&o.f->qp, MADCM_CM_OFFLOAD_EV_FIN_RCVD, 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 3));
	off_settle(fix, 0);
	KUNIT_EXPECT_EQ(test, o.f->detaches, 0);
	/* The consumer answers; the QP closes and reports the end. */
	KUNIT_EXPECT_EQ(test, madcm_cm_close(o.a->conn), 0);
	KUNIT_EXPECT_EQ(test, o.f->close_fin, 1);
	madcm_cm_offload_event(&o.f->qp, MADCM_CM_OFFLOAD_EV_CLOSED, 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	off_settle(fix, 0);
	cm_expect_events(test, o.a, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, o.a->status[3], 0);
	KUNIT_EXPECT_EQ(test, o.f->detaches, 1);
	KUNIT_EXPECT_EQ(test, o.f->terminals_at_detach, 1);
	/* The peer's FIN came first: no TIME-WAIT, the tuple is free. */
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->core[0]->live_nodes), 0);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
	KUNIT_EXPECT_EQ(test, o.f->close_rst, 0);
	cm_expect_drained(test, fix->core[0]);
}

/* The QP's stream fails: one RESET with its status, nothing after. */
static void cm_offload_qp_reset(struct kunit *test)
{
	static const enum madcm_cm_event_type want[] = {
		MADCM_CM_EVENT_CONNECT_REPLY, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_RESET,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct off_active o;

	off_connect(test, fix, &o, 0);
	off_established(test, fix, &o);
	madcm_cm_offload_event(&o.f->qp, MADCM_CM_OFFLOAD_EV_RESET, -ETIMEDOUT);
	madcm_cm_offload_event(&o.f->qp, MADCM_CM_OFFLOAD_EV_CLOSED, 0);
	madcm_cm_offload_event(&o.f->qp, MADCM_CM_OFFLOAD_EV_RESET,
			       -ECONNRESET);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	off_settle(fix, 0);
	cm_expect_events(test, o.a, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, o.a->status[2], -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, o.f->detaches, 1);
	KUNIT_EXPECT_EQ(test, o.f->terminals_at_detach, 1);
	KUNIT_EXPECT_EQ(test, o.f->close_rst + o.f->close_fin, 0);
	/* The CM sends nothing for a stream it no longer owns. */
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&o.raw));
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * A QP that lost its stream with nothing left to answer the peer has the
 * CM reset it, at the QP's own numbers, which have moved on from the
 * hand-off's: RFC 9293 3.10.7.4, <SEQ=SND.NXT><ACK=RCV.NXT><CTL=RST,ACK>,
 * from the connection's addresses and ports. The CM's state does not
 * change (no event, no detach) until the QP reports the end. A QP bound
 * to no connection gets -ENOTCONN and nothing is sent.
 */
static void cm_offload_reset_sends_the_qps_rst(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct fake_qp *lone = fake_qp_new(test, &fix->side[0]);
	struct irdma_cm_seg seg;
	struct off_active o;
	u32 seq, ack;

	off_connect(test, fix, &o, 0);
	off_established(test, fix, &o);
	seq = o.f->tcp.snd_nxt + 1000;
	ack = o.f->tcp.rcv_nxt + 77;

	KUNIT_EXPECT_EQ(test, madcm_cm_offload_reset(&lone->qp, seq, ack),
			-ENOTCONN);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&o.raw));

	KUNIT_EXPECT_EQ(test, madcm_cm_offload_reset(&o.f->qp, seq, ack), 0);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &o.raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_RST | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.seq, seq);
	KUNIT_EXPECT_EQ(test, seg.ack, ack);
	KUNIT_EXPECT_EQ(test, seg.payload_len, 0);
	KUNIT_EXPECT_TRUE(test, seg.ipv4);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&seg.src.ip,
						&o.raw.tmpl.dst.ip));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&seg.dst.ip,
						&o.raw.tmpl.src.ip));
	KUNIT_EXPECT_EQ(test, seg.src.port, o.raw.tmpl.dst.port);
	KUNIT_EXPECT_EQ(test, seg.dst.port, o.raw.tmpl.src.port);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(seg.src_mac,
						 o.raw.tmpl.dst_mac));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(seg.dst_mac,
						 o.raw.tmpl.src_mac));
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&o.raw));
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RST_SENT), 1);
	off_settle(fix, 0);
	KUNIT_EXPECT_EQ(test, o.a->nev, 2);
	KUNIT_EXPECT_EQ(test, o.f->detaches, 0);

	/* The QP reports the end: the RESET the consumer hears of. */
	madcm_cm_offload_event(&o.f->qp, MADCM_CM_OFFLOAD_EV_RESET,
			       -ECONNRESET);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	off_settle(fix, 0);
	KUNIT_EXPECT_EQ(test, o.a->ev[2], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, o.f->detaches, 1);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&o.raw));
	cm_expect_drained(test, fix->core[0]);
}

/*
 * We close first: ->close(FIN), and once the QP reports CLOSED the CM
 * keeps the tuple in TIME-WAIT, answering the peer's retransmitted FIN.
 */
static void cm_offload_close_reaches_qp_then_time_wait(struct kunit *test)
{
	static const enum madcm_cm_event_type want[] = {
		MADCM_CM_EVENT_CONNECT_REPLY, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_DISCONNECT, MADCM_CM_EVENT_CLOSE,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_seg seg;
	struct off_active o;
	u32 our_fin = 5000;

	off_connect(test, fix, &o, 0);
	off_established(test, fix, &o);
	KUNIT_EXPECT_EQ(test, madcm_cm_close(o.a->conn), 0);
	KUNIT_EXPECT_EQ(test, madcm_cm_close(o.a->conn), 0);
	KUNIT_EXPECT_EQ(test, o.f->close_fin, 1);
	madcm_cm_offload_event(&o.f->qp, MADCM_CM_OFFLOAD_EV_FIN_RCVD, 0);
	madcm_cm_offload_event(&o.f->qp, MADCM_CM_OFFLOAD_EV_CLOSED, 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	off_settle(fix, 0);
	cm_expect_events(test, o.a, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, o.f->detaches, 1);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_OFFLOAD_TW), 1);
	/* The tuple is the CM's again, steered to it, not to the QP. */
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 1);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_offloaded(fix->port[0]), 0);
	/*
	 * The peer's FIN again (its ACK of ours, at our_fin + 1, was lost
	 * to it): RFC 9293 TIME-WAIT acknowledges it.
	 */
	cm_raw_send(test, &o.raw, IRDMA_TCP_FIN | IRDMA_TCP_ACK, o.raw.snd_nxt,
		    our_fin + 1, NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &o.raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.seq, our_fin + 1);
	KUNIT_EXPECT_EQ(test, seg.ack, o.raw.snd_nxt + 1);
	KUNIT_EXPECT_EQ(test, o.f->rx, 0);
	cm_expect_drained(test, fix->core[0]);
	KUNIT_EXPECT_EQ(test, o.a->after_terminal, 0);
}

/*
 * The QP ends the stream far beyond the hand-off (it sent 10 MB) and
 * reports where (madcm_cm_offload_closed()); our FIN went first, so the
 * CM holds the 4-tuple in TIME-WAIT. A connect from the same port takes
 * it over: its ISS must lie above every sequence number the old stream
 * used (RFC 9293 3.4.1), which only the QP's report can tell the CM.
 */
static void cm_offload_time_wait_reuse_above_qp_stream(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 4);
	struct off_active o, o2;
	u32 our_end, peer_end;
	int events;

	off_connect(test, fix, &o, 0);
	off_established(test, fix, &o);
	our_end = o.f->tcp.snd_nxt + 10000000 + 1;
	peer_end = o.f->tcp.rcv_nxt + 3000 + 1;
	KUNIT_EXPECT_EQ(test, madcm_cm_close(o.a->conn), 0);
	madcm_cm_offload_event(&o.f->qp, MADCM_CM_OFFLOAD_EV_FIN_RCVD, 0);
	madcm_cm_offload_closed(&o.f->qp, our_end, peer_end);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	off_settle(fix, 0);
	KUNIT_ASSERT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_OFFLOAD_TW), 1);

	events = READ_ONCE(fix->side[0].events);
	off_connect(test, fix, &o2, 0);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0],
				     IRDMA_CM_CNT_TIME_WAIT_REUSED), 1);
	KUNIT_EXPECT_TRUE(test, irdma_seq_lt(our_end, o2.iss));
	/* The new connection is established and handed to its own QP. */
	KUNIT_EXPECT_TRUE(test, cm_wait_events(&fix->side[0], events + 2));
	KUNIT_EXPECT_TRUE(test, cm_rec_has(o2.a, MADCM_CM_EVENT_ESTABLISHED));
	off_settle(fix, 0);
	KUNIT_EXPECT_EQ(test, o2.f->offloads, 1);
	KUNIT_EXPECT_EQ(test, madcm_cm_abort(o2.a->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 2));
	off_settle(fix, 0);
	cm_expect_drained(test, fix->core[0]);
}

/* madcm_cm_abort() on an offloaded connection resets it through the QP. */
static void cm_offload_abort_reaches_qp(struct kunit *test)
{
	static const enum madcm_cm_event_type want[] = {
		MADCM_CM_EVENT_CONNECT_REPLY, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_RESET,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct off_active o;

	off_connect(test, fix, &o, 0);
	off_established(test, fix, &o);
	KUNIT_EXPECT_EQ(test, madcm_cm_abort(o.a->conn), 0);
	KUNIT_EXPECT_EQ(test, o.f->close_rst, 1);
	/* What the QP reports on its way out is too late. */
	madcm_cm_offload_event(&o.f->qp, MADCM_CM_OFFLOAD_EV_RESET,
			       -ECONNRESET);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	off_settle(fix, 0);
	cm_expect_events(test, o.a, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, o.a->status[2], -ECONNABORTED);
	KUNIT_EXPECT_EQ(test, o.f->detaches, 1);
	KUNIT_EXPECT_EQ(test, o.f->close_fin, 0);
	/* The RST is the QP's to send: the CM's numbers are stale. */
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&o.raw));
	cm_expect_drained(test, fix->core[0]);
}

/* A QP that refuses the stream: RST, one RESET with its error, detach. */
static void cm_offload_refused_resets(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_seg seg;
	struct off_active o;

	off_connect(test, fix, &o, -ENOMEM);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	off_settle(fix, 0);
	KUNIT_EXPECT_EQ(test, o.a->nev, 1);
	KUNIT_EXPECT_EQ(test, o.a->ev[0], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, o.a->status[0], -ENOMEM);
	KUNIT_EXPECT_EQ(test, o.f->offloads, 1);
	KUNIT_EXPECT_EQ(test, o.f->detaches, 1);
	KUNIT_EXPECT_EQ(test, o.f->terminals_at_detach, 1);
	/* The RTR, then the CM's RST (its numbers are still good). */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &o.raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.payload_len, sizeof(fpdu_write) + 4);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &o.raw, &seg, NULL, 0));
	KUNIT_EXPECT_TRUE(test, seg.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_OFFLOAD_FAIL), 1);
	cm_expect_drained(test, fix->core[0]);
}

/* A core stopped under offloaded connections resets and detaches them. */
static void cm_offload_core_stop(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct off_active o;

	off_connect(test, fix, &o, 0);
	off_established(test, fix, &o);
	irdma_cm_core_stop(fix->core[0]);
	KUNIT_EXPECT_EQ(test, o.f->close_rst, 1);
	KUNIT_EXPECT_EQ(test, o.f->detaches, 1);
	KUNIT_EXPECT_EQ(test, o.f->terminals_at_detach, 1);
	KUNIT_EXPECT_EQ(test, o.a->nev, 3);
	KUNIT_EXPECT_EQ(test, o.a->ev[2], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, o.a->status[2], -ECONNABORTED);
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->core[0]->live_nodes), 0);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
}

/* A connection that fails before the hand-off still gives its QP back. */
static void cm_offload_failed_connect_detaches(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	struct fake_qp *f = fake_qp_new(test, &fix->side[0]);
	struct cm_raw raw;
	struct cm_rec *a;

	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 1, &fix->side[0]);
	attr.loc.port = LPORT;
	attr.offload_qp = &f->qp;
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	/* RFC 9293 3.10.7.3: the port is closed. */
	cm_raw_send(test, &raw, IRDMA_TCP_RST | IRDMA_TCP_ACK, 0, seg.seq + 1,
		    NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	off_settle(fix, 0);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->status[0], -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, f->offloads, 0);
	KUNIT_EXPECT_EQ(test, f->detaches, 1);
	KUNIT_EXPECT_EQ(test, f->terminals_at_detach, 1);
	KUNIT_EXPECT_NULL(test, f->qp.cm_priv);
	cm_expect_drained(test, fix->core[0]);
}

/* A connect that returns an error never touches the QP. */
static void cm_offload_refused_connect_keeps_qp(struct kunit *test)
{
	static const struct madcm_cm_offload_ops no_detach = {
		.offload = fake_offload,
		.rx = fake_rx,
		.close = fake_close,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct fake_qp *f = fake_qp_new(test, &fix->side[0]);
	struct madcm_cm_connect_attr attr;
	struct madcm_cm_conn *conn;

	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 1, &fix->side[0]);
	attr.offload_qp = &f->qp;
	f->qp.ops = &no_detach;
	KUNIT_EXPECT_EQ(test, madcm_cm_connect(&fix->core[0]->handle, &attr,
					       &conn), -EINVAL);
	f->qp.ops = &fake_ops;
	attr.private_data_len = MADCM_CM_MAX_PDATA + 1;
	attr.private_data = f->unacked;
	KUNIT_EXPECT_EQ(test, madcm_cm_connect(&fix->core[0]->handle, &attr,
					       &conn), -EMSGSIZE);
	off_settle(fix, 0);
	KUNIT_EXPECT_NULL(test, f->qp.cm_priv);
	KUNIT_EXPECT_EQ(test, f->detaches, 0);
	cm_expect_drained(test, fix->core[0]);
}

/* Released before its terminal event, an offloaded connection resets. */
static void cm_offload_release_resets(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct off_active o;

	off_connect(test, fix, &o, 0);
	off_established(test, fix, &o);
	madcm_cm_release(o.a->conn);
	off_settle(fix, 0);
	KUNIT_EXPECT_EQ(test, o.f->close_rst, 1);
	KUNIT_EXPECT_EQ(test, o.f->detaches, 1);
	/* Released: the consumer hears nothing more. */
	KUNIT_EXPECT_EQ(test, o.a->nev, 2);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * Two madcm cores, both offloaded, peer-to-peer: what the initiator's QP
 * must retransmit (its RTR) is exactly what the responder's QP gets to
 * process, and each side's sequence numbers are the other's.
 */
static void cm_offload_both_sides_meet(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 2, false, &cm_test_quiet_cfg, 2);
	struct fake_qp *fi = fake_qp_new(test, &fix->side[0]);
	struct fake_qp *fr = fake_qp_new(test, &fix->side[1]);
	struct madcm_cm_accept_attr acc = { .offload_qp = &fr->qp };
	struct madcm_cm_connect_attr attr;
	struct cm_rec *a, *p;
	u8 rtr[64];
	u32 n;

	fix->side[1].policy = CM_TEST_HOLD;
	off_p2p_listen(test, fix, 1);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr.peer_to_peer = true;
	attr.rtr_caps = MADCM_CM_RTR_WRITE;
	attr.ird = 4;
	attr.ord = 4;
	attr.offload_qp = &fi->qp;
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[1], 1));
	p = &fix->side[1].recs[0];
	KUNIT_ASSERT_EQ(test, madcm_cm_accept(p->conn, &acc), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[1], 2));
	off_settle(fix, 0);
	off_settle(fix, 1);
	KUNIT_EXPECT_EQ(test, a->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, p->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, fi->offloads, 1);
	KUNIT_ASSERT_EQ(test, fr->offloads, 1);
	n = off_rtr_write(rtr);
	KUNIT_ASSERT_EQ(test, fi->unacked_len, n);
	SPEC_EXPECT_MEMEQ(test, fi->unacked, rtr, n);
	KUNIT_ASSERT_EQ(test, fr->rcvd_len, n);
	SPEC_EXPECT_MEMEQ(test, fr->rcvd, rtr, n);
	KUNIT_EXPECT_EQ(test, fr->tcp.rcv_nxt, fi->tcp.snd_una);
	KUNIT_EXPECT_EQ(test, fi->tcp.rcv_nxt, fr->tcp.snd_nxt);
	KUNIT_EXPECT_EQ(test, fr->tcp.snd_una, fr->tcp.snd_nxt);
	KUNIT_EXPECT_EQ(test, fi->tcp.ird, fr->tcp.ord);
	KUNIT_EXPECT_EQ(test, fi->tcp.ord, fr->tcp.ird);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
	KUNIT_EXPECT_EQ(test, fi->detaches, 1);
	KUNIT_EXPECT_EQ(test, fr->detaches, 1);
}

static struct kunit_case cm_offload_cases[] = {
	KUNIT_CASE(cm_offload_p2p_responder_waits_for_rtr),
	KUNIT_CASE(cm_offload_p2p_responder_hands_off_after_rtr),
	KUNIT_CASE(cm_offload_p2p_responder_rtr_timeout),
	KUNIT_CASE(cm_offload_responder_hands_off_reply),
	KUNIT_CASE(cm_offload_initiator_hands_off_unacked_rtr),
	KUNIT_CASE(cm_offload_segment_after_handoff_reaches_qp),
	KUNIT_CASE(cm_offload_qp_fin_then_closed),
	KUNIT_CASE(cm_offload_qp_reset),
	KUNIT_CASE(cm_offload_reset_sends_the_qps_rst),
	KUNIT_CASE(cm_offload_close_reaches_qp_then_time_wait),
	KUNIT_CASE(cm_offload_time_wait_reuse_above_qp_stream),
	KUNIT_CASE(cm_offload_abort_reaches_qp),
	KUNIT_CASE(cm_offload_refused_resets),
	KUNIT_CASE(cm_offload_core_stop),
	KUNIT_CASE(cm_offload_failed_connect_detaches),
	KUNIT_CASE(cm_offload_refused_connect_keeps_qp),
	KUNIT_CASE(cm_offload_release_resets),
	KUNIT_CASE(cm_offload_both_sides_meet),
	{}
};

static struct kunit_suite cm_offload_suite = {
	.name = "madcm_cm_offload",
	.test_cases = cm_offload_cases,
};

kunit_test_suite(cm_offload_suite);
