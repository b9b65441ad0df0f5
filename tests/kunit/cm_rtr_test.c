// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: a peer-to-peer initiator sends its RTR message (RFC 6581) after
 * the reply, as one FPDU that follows the MPA request in the stream. The
 * responder is a peer played by hand; the FPDU it must receive is the one
 * tests/kunit/rtr_spec.h writes out from RFC 5040, 5041 and 5044.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/string.h>
#include "tests/kunit/cm_test_util.h"
#include "tests/kunit/mpa_spec.h"
#include "tests/kunit/rtr_spec.h"

#define LPORT	4300
#define RPORT	35000
#define BUF	600

struct rtr_cm_case {
	const char *name;
	u8 offer;		/* rtr_caps of the initiator */
	u8 chosen;		/* what the responder's reply names */
	bool crc;		/* the initiator asks for CRCs */
	const u8 *body;
	u32 body_len;
	const u8 *crc_octets;	/* NULL: zero */
};

static const struct rtr_cm_case rtr_cm_cases[] = {
	{ "write", IRDMA_RTR_WRITE, IRDMA_RTR_WRITE, false, fpdu_write,
	  sizeof(fpdu_write), NULL },
	{ "write-crc", IRDMA_RTR_WRITE | IRDMA_RTR_SEND, IRDMA_RTR_WRITE, true,
	  fpdu_write, sizeof(fpdu_write), fpdu_write_crc },
	{ "read-crc", IRDMA_RTR_ALL, IRDMA_RTR_READ, true, fpdu_read,
	  sizeof(fpdu_read), fpdu_read_crc },
	{ "send-crc", IRDMA_RTR_SEND, IRDMA_RTR_SEND, true, fpdu_send,
	  sizeof(fpdu_send), fpdu_send_crc },
};

static void rtr_cm_desc(const struct rtr_cm_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rtr_cm, rtr_cm_cases, rtr_cm_desc);

/*
 * A peer-to-peer active open from core 0 offering the RTR types @caps
 * (and CRCs with @crc), IRD/ORD 4, to the raw peer, which answers the
 * SYN and reads the MPA request into @req (BUF octets).
 */
static struct cm_rec *rtr_connect(struct kunit *test, struct cm_fix *fix,
				  struct cm_raw *raw, u8 caps, bool crc,
				  u8 *req)
{
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	struct cm_rec *a;

	cm_raw_init(raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr.loc.port = LPORT;
	attr.peer_to_peer = true;
	attr.rtr_caps = caps;
	attr.crc = crc;
	attr.ird = 4;
	attr.ord = 4;
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, raw, &seg, NULL, 0));
	raw->rcv_nxt = seg.seq + 1;
	raw->snd_nxt = raw->iss + 1;
	cm_raw_send(test, raw, IRDMA_TCP_SYN | IRDMA_TCP_ACK, raw->iss,
		    raw->rcv_nxt, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, req, BUF));
	KUNIT_ASSERT_EQ(test, seg.payload_len, (u32)SPEC_HDR_LEN + SPEC_RTR_LEN);
	raw->rcv_nxt += seg.payload_len;
	return a;
}

static void cm_rtr_follows_the_reply(struct kunit *test)
{
	static const u8 zero[4];
	const struct rtr_cm_case *c = test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame rep = {
		.c = c->crc, .s = true, .rev = 2, .pd_len = SPEC_RTR_LEN,
		.rtr_words = true, .a = true, .ird = 4, .ord = 4,
		.b = c->chosen == IRDMA_RTR_SEND,
		.cc = c->chosen == IRDMA_RTR_WRITE,
		.d = c->chosen == IRDMA_RTR_READ,
	};
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *a;
	u8 *req, *buf;
	u32 n, i;

	req = kunit_kzalloc(test, BUF, GFP_KERNEL);
	buf = kunit_kzalloc(test, BUF, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, req && buf);
	a = rtr_connect(test, fix, &raw, c->offer, c->crc, req);
	KUNIT_EXPECT_EQ(test, !!(req[SPEC_FLAGS] & SPEC_FLAG_C), c->crc);
	KUNIT_EXPECT_TRUE(test, req[SPEC_IRD] & SPEC_HI_A);

	/* The reply names the RTR type; the RTR comes next, nothing else. */
	n = spec_write(buf, &rep);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, buf, n, false);
	raw.snd_nxt += n;
	memset(buf, 0, BUF);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, buf, BUF));
	KUNIT_EXPECT_EQ(test, seg.seq, raw.rcv_nxt);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	KUNIT_ASSERT_EQ(test, seg.payload_len, c->body_len + 4);
	for (i = 0; i < c->body_len; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], c->body[i], "octet %u", i);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[c->body_len + i],
				    (c->crc_octets ?: zero)[i], "CRC octet %u", i);
	raw.rcv_nxt += seg.payload_len;

	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	/* The QP takes over after the RTR. */
	KUNIT_EXPECT_EQ(test, a->ctx.snd_nxt, raw.rcv_nxt);
	KUNIT_EXPECT_EQ(test, a->ctx.rtr_type, c->chosen);
	KUNIT_EXPECT_EQ(test, a->ctx.crc, c->crc);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RTR_SENT), 1);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RTR_FAIL), 0);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * A peer-to-peer initiator's RTR waits rtr_delay_ms (a delayed work on
 * the core's event workqueue) after the reply. A core stopped meanwhile,
 * with a shorter stop_wait_ms, must not free that workqueue under the
 * pending work: the work's timer would later queue it on freed memory
 * (KASAN and the workqueue code report it in the kernel log, which fails
 * the run). The stop waits for it; it finds its connection reset and
 * sends nothing.
 */
static void cm_rtr_pending_at_stop(struct kunit *test)
{
	struct madcm_cm_config cfg = cm_test_quiet_cfg;
	struct spec_frame rep = {
		.s = true, .rev = 2, .pd_len = SPEC_RTR_LEN,
		.rtr_words = true, .a = true, .ird = 4, .ord = 4, .cc = true,
	};
	struct irdma_cm_seg seg;
	struct cm_fix *fix;
	struct cm_raw raw;
	u8 *req, *buf;
	u32 n;
	int len;

	cfg.rtr_delay_ms = 1000;
	cfg.stop_wait_ms = 1;
	fix = cm_fix_create(test, 1, true, &cfg, 2);
	req = kunit_kzalloc(test, BUF, GFP_KERNEL);
	buf = kunit_kzalloc(test, BUF, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, req && buf);
	rtr_connect(test, fix, &raw, IRDMA_RTR_WRITE, false, req);
	n = spec_write(buf, &rep);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, buf, n, false);
	raw.snd_nxt += n;
	madcm_wire_loop_quiesce(fix->loop);

	/* The RTR's work waits its second: stop the core now. */
	madcm_wire_loop_detach_core(fix->port[0]);
	KUNIT_EXPECT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	/* Past the RTR's time: the work ran, or was never left behind. */
	msleep(1500);
	madcm_wire_loop_quiesce(fix->loop);
	/* The stop's RST, maybe an ACK of the reply; never an FPDU. */
	while ((len = madcm_wire_loop_take(fix->port[1], buf, BUF, 0)) >= 0) {
		KUNIT_ASSERT_EQ(test, irdma_cm_parse_seg(buf, len, &seg),
				IRDMA_SEG_OK);
		KUNIT_EXPECT_EQ(test, seg.payload_len, 0);
	}
}

/*
 * A reply asking for markers (RFC 5044 7.1: markers in what we send) is
 * refused when it arrives: no RTR is attempted, the connection resets.
 */
static void cm_rtr_refused_with_markers(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct spec_frame rep = {
		.m = true, .s = true, .rev = 2, .pd_len = SPEC_RTR_LEN,
		.rtr_words = true, .a = true, .cc = true, .ird = 4, .ord = 4,
	};
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *a;
	u8 *buf;
	u32 n;

	buf = kunit_kzalloc(test, BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr.loc.port = LPORT;
	attr.peer_to_peer = true;
	attr.rtr_caps = IRDMA_RTR_WRITE;
	attr.ird = 4;
	attr.ord = 4;
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	raw.rcv_nxt = seg.seq + 1;
	raw.snd_nxt = raw.iss + 1;
	cm_raw_send(test, &raw, IRDMA_TCP_SYN | IRDMA_TCP_ACK, raw.iss,
		    raw.rcv_nxt, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	raw.rcv_nxt += seg.payload_len;
	n = spec_write(buf, &rep);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, buf, n, false);
	raw.snd_nxt += n;

	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, a->status[0], -EOPNOTSUPP);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_TRUE(test, seg.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RTR_SENT), 0);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_MPA_BAD), 1);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * RFC 6581 4: the responder's ULP may use the connection once the RTR
 * message, the first FPDU, has arrived: a zero-length RDMA Write, Read
 * Request or Send (RFC 5040 4.1-4.4, RFC 5041 4.2-4.4: L set, DDP and
 * RDMAP version 1, the untagged queue of its kind, MSN 1, MO 0), with
 * its CRC (RFC 5044 4.1) when CRCs were negotiated. Anything else in its
 * place is no RTR: the connection is reset (rtr_bad), never established.
 */
struct rtr_rx_case {
	const char *name;
	bool crc;		/* the initiator asks for CRCs */
	const u8 *body;		/* rtr_spec.h's FPDU, before its CRC field */
	u32 body_len;
	const u8 *crc_octets;	/* NULL: zero */
	int patch_at;		/* -1: as written; else this octet XOR 0xff */
	bool good;
};

static const struct rtr_rx_case rtr_rx_cases[] = {
	{ "send", false, fpdu_send, sizeof(fpdu_send), NULL, -1, true },
	{ "send-crc", true, fpdu_send, sizeof(fpdu_send), fpdu_send_crc, -1,
	  true },
	{ "write-crc", true, fpdu_write, sizeof(fpdu_write), fpdu_write_crc,
	  -1, true },
	{ "read-crc", true, fpdu_read, sizeof(fpdu_read), fpdu_read_crc, -1,
	  true },
	/* The CRC field of an FPDU whose body is right. */
	{ "send-bad-crc", true, fpdu_send, sizeof(fpdu_send), NULL, -1, false },
	/* RDMAP control octet 0x43 (Send) becomes 0xbc: RV 2, opcode 0xc. */
	{ "send-bad-rdmap", false, fpdu_send, sizeof(fpdu_send), NULL, 3,
	  false },
	/* The QN's last octet: queue 0xff, no queue of a Send. */
	{ "send-bad-queue", false, fpdu_send, sizeof(fpdu_send), NULL, 11,
	  false },
	/* The MSN's last octet: 0xfe, not the first message. */
	{ "send-bad-msn", false, fpdu_send, sizeof(fpdu_send), NULL, 15,
	  false },
	/* A Write's DDP control octet 0xc1 becomes 0x3e: untagged, DV 2. */
	{ "write-bad-ddp", false, fpdu_write, sizeof(fpdu_write), NULL, 2,
	  false },
};

static void rtr_rx_desc(const struct rtr_rx_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rtr_rx, rtr_rx_cases, rtr_rx_desc);

static void cm_rtr_checked_at_responder(struct kunit *test)
{
	const struct rtr_rx_case *c = test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_listen_attr la = {
		.addr = { .ip = in6addr_any, .port = LPORT },
		.vlan_id = MADCM_CM_NO_VLAN,
		.ird = 4, .ord = 4, .mpa_rev = 2, .peer_to_peer = true,
		.rtr_caps = IRDMA_RTR_ALL,
		.handler = cm_test_handler, .context = &fix->side[0],
	};
	/* RFC 6581 10: enhanced (S), peer-to-peer, every RTR type offered. */
	struct spec_frame req = {
		.request = true, .c = c->crc, .s = true, .rev = 2,
		.pd_len = SPEC_RTR_LEN, .rtr_words = true,
		.a = true, .b = true, .cc = true, .d = true, .ird = 4, .ord = 4,
	};
	struct madcm_cm_listener *l;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *r;
	u8 *buf;
	u32 n;

	buf = kunit_kzalloc(test, BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, madcm_cm_create_listener(&fix->core[0]->handle,
						       &la, &l), 0);
	fix->side[0].policy = CM_TEST_ACCEPT;
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_raw_open(test, &raw);
	n = spec_write(buf, &req);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, buf, n, false);
	raw.snd_nxt += n;
	/* The reply. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, buf, BUF));
	KUNIT_ASSERT_GT(test, seg.payload_len, 0);
	raw.rcv_nxt += seg.payload_len;

	memcpy(buf, c->body, c->body_len);
	if (c->crc_octets)
		memcpy(buf + c->body_len, c->crc_octets, 4);
	else
		memset(buf + c->body_len, 0, 4);
	if (c->patch_at >= 0)
		buf[c->patch_at] ^= 0xff;
	n = c->body_len + 4;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, buf, n, false);
	raw.snd_nxt += n;

	r = &fix->side[0].recs[0];
	if (c->good) {
		KUNIT_EXPECT_TRUE(test, cm_wait_events(&fix->side[0], 2));
		KUNIT_EXPECT_TRUE(test, cm_rec_has(r, MADCM_CM_EVENT_ESTABLISHED));
		KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RTR_RCVD),
				1);
		KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RTR_BAD),
				0);
	} else {
		KUNIT_EXPECT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
		KUNIT_EXPECT_FALSE(test, cm_rec_has(r, MADCM_CM_EVENT_ESTABLISHED));
		KUNIT_EXPECT_TRUE(test, cm_rec_has(r, MADCM_CM_EVENT_RESET));
		KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RTR_RCVD),
				0);
		KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RTR_BAD),
				1);
		KUNIT_EXPECT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL,
							 0) &&
				  (seg.flags & IRDMA_TCP_RST));
	}
	madcm_cm_destroy_listener(l);
	cm_expect_drained(test, fix->core[0]);
}

static struct kunit_case cm_rtr_cases[] = {
	KUNIT_CASE_PARAM(cm_rtr_follows_the_reply, rtr_cm_gen_params),
	KUNIT_CASE(cm_rtr_refused_with_markers),
	KUNIT_CASE(cm_rtr_pending_at_stop),
	KUNIT_CASE_PARAM(cm_rtr_checked_at_responder, rtr_rx_gen_params),
	{}
};

static struct kunit_suite cm_rtr_suite = {
	.name = "madcm_cm_rtr",
	.test_cases = cm_rtr_cases,
};

kunit_test_suite(cm_rtr_suite);
