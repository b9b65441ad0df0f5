// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the MPA exchange against RFC 5044 section 7.1 and RFC 6581, in
 * both roles, with the peer played by hand on the raw port. Every frame
 * the peer sends and every expectation comes from the RFCs' layout in
 * tests/kunit/mpa_spec.h:
 *
 * - RFC 5044 7.1: M asks the receiver of the frame to send markers;
 *   madcm cannot insert markers, so a frame with M set must end the
 *   connection in either role, before the consumer is told of it.
 * - RFC 5044 7.1: the reserved bits are sent as zero and not checked on
 *   receipt (in revision 1 the bit RFC 6581 names S is one of them).
 * - RFC 6581 section 7: the IRD/ORD words are present only in a frame
 *   with S set, and a responder answers with them only when the request
 *   carried them (the request offers, the reply answers; cxgb4 and siw
 *   also reply this way). A responder that speaks only RFC 5044 answers
 *   with revision 1; an initiator not asking for the peer-to-peer model
 *   can go on with that.
 * - RFC 6581 section 4: in the peer-to-peer model the initiator's RTR
 *   message is what lets the responder use the connection; a reply
 *   without RFC 6581 data (revision 1, or S clear) cannot agree to that
 *   model, so a peer-to-peer initiator must not reach ESTABLISHED on it.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include "irdma_cm/mpa.h"
#include "tests/kunit/cm_test_util.h"
#include "tests/kunit/mpa_spec.h"

#define LPORT	4400
#define RPORT	36000
#define BUF	600

/* The raw port (2) opens a connection to core 0's listener on LPORT. */
static struct cm_raw *rfc_passive(struct kunit *test, struct cm_fix *fix,
				  u8 rev, bool p2p)
{
	struct madcm_cm_listen_attr la = {
		.addr = { .ip = in6addr_any, .port = LPORT },
		.vlan_id = MADCM_CM_NO_VLAN,
		.ird = 4, .ord = 4, .mpa_rev = rev,
		.peer_to_peer = p2p, .rtr_caps = IRDMA_RTR_ALL,
		.handler = cm_test_handler, .context = &fix->side[0],
	};
	struct madcm_cm_listener *l = NULL;
	struct cm_raw *raw = kunit_kzalloc(test, sizeof(*raw), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, raw);
	KUNIT_ASSERT_EQ(test, madcm_cm_create_listener(&fix->core[0]->handle,
						       &la, &l), 0);
	cm_raw_init(raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_raw_open(test, raw);
	return raw;
}

static void rfc_send(struct kunit *test, struct cm_raw *raw,
		     const struct spec_frame *f)
{
	u8 *buf = kunit_kzalloc(test, BUF, GFP_KERNEL);
	u32 n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	n = spec_write(buf, f);
	cm_raw_send(test, raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw->snd_nxt,
		    raw->rcv_nxt, buf, n, false);
	raw->snd_nxt += n;
}

/*
 * The peer's frame is refused: the connection is reset (a RST reaches
 * the peer), nothing else is sent, and the frame is counted as @why.
 */
static void rfc_expect_reset(struct kunit *test, struct cm_fix *fix,
			     struct cm_raw *raw, enum irdma_mpa_reject why,
			     u64 before)
{
	struct irdma_cm_seg seg;
	bool rst = false;

	while (cm_raw_recv(test, raw, &seg, NULL, 0)) {
		KUNIT_EXPECT_EQ(test, seg.payload_len, 0);
		if (seg.flags & IRDMA_TCP_RST) {
			rst = true;
			break;
		}
	}
	KUNIT_EXPECT_TRUE(test, rst);
	KUNIT_EXPECT_EQ(test, irdma_mpa_reject_count(why), before + 1);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_MPA_BAD), 1);
}

/* Responder: a revision 2 request with S clear gets a plain reply. */
static void cm_mpa_rfc_responder_plain_request(struct kunit *test)
{
	static const u8 ulp[3] = { 0xde, 0xad, 0x01 };
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame req = {
		.request = true, .rev = 2, .pd_len = sizeof(ulp),
		.ulp = ulp, .ulp_len = sizeof(ulp),
	};
	struct irdma_cm_seg seg;
	struct cm_raw *raw;
	u8 *rep;

	fix->side[0].reply_pdata = "ok";
	fix->side[0].reply_len = 2;
	rep = kunit_kzalloc(test, BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rep);
	raw = rfc_passive(test, fix, 2, false);
	rfc_send(test, raw, &req);

	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, rep, BUF));
	/* 20 octets of header, then only the consumer's two octets. */
	KUNIT_ASSERT_EQ(test, seg.payload_len, (u32)SPEC_HDR_LEN + 2);
	SPEC_EXPECT_MEMEQ(test, rep + SPEC_KEY, spec_key_rep, SPEC_KEY_LEN);
	KUNIT_EXPECT_EQ(test, rep[SPEC_REV], 2);
	KUNIT_EXPECT_EQ(test, rep[SPEC_FLAGS] & SPEC_FLAG_S, 0);
	KUNIT_EXPECT_EQ(test, rep[SPEC_PD_LEN], 0);
	KUNIT_EXPECT_EQ(test, rep[SPEC_PD_LEN + 1], 2);
	SPEC_EXPECT_MEMEQ(test, rep + SPEC_HDR_LEN, "ok", 2);
	raw->rcv_nxt += seg.payload_len;
	cm_raw_send(test, raw, IRDMA_TCP_ACK, raw->snd_nxt, raw->rcv_nxt,
		    NULL, 0, false);

	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ev[0],
			MADCM_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].pdata_len, sizeof(ulp));
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ev[1],
			MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ctx.mpa_rev, 2);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ctx.rtr_type, 0);
}

/* Responder: the reserved bits of a request are not checked (RFC 5044). */
static void cm_mpa_rfc_responder_ignores_reserved(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	u8 *buf = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct spec_frame req = { .request = true, .rev = 1 };
	struct irdma_cm_seg seg;
	struct cm_raw *raw;
	u32 n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	raw = rfc_passive(test, fix, 2, false);
	n = spec_write(buf, &req);
	/* Revision 1: S is reserved too; all five reserved bits set. */
	buf[SPEC_FLAGS] |= SPEC_FLAG_S | 0x0f;
	cm_raw_send(test, raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw->snd_nxt,
		    raw->rcv_nxt, buf, n, false);
	raw->snd_nxt += n;

	memset(buf, 0xff, BUF);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, buf, BUF));
	KUNIT_ASSERT_EQ(test, seg.payload_len, (u32)SPEC_HDR_LEN);
	KUNIT_EXPECT_EQ(test, buf[SPEC_REV], 1);
	/* Sent as zero: everything but M and C (neither asked for here). */
	KUNIT_EXPECT_EQ(test, buf[SPEC_FLAGS], 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ev[1],
			MADCM_CM_EVENT_ESTABLISHED);
}

/* Responder: a request asking for markers never reaches the consumer. */
static void cm_mpa_rfc_responder_refuses_markers(struct kunit *test)
{
	const u8 rev = *(const u8 *)test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame req = {
		.request = true, .m = true, .rev = rev,
		.s = rev == 2, .rtr_words = rev == 2,
		.pd_len = rev == 2 ? SPEC_RTR_LEN : 0, .ird = 4, .ord = 4,
	};
	u64 before = irdma_mpa_reject_count(IRDMA_MPA_REJ_MARKERS);
	struct cm_raw *raw;

	raw = rfc_passive(test, fix, 2, false);
	rfc_send(test, raw, &req);
	rfc_expect_reset(test, fix, raw, IRDMA_MPA_REJ_MARKERS, before);
	KUNIT_EXPECT_EQ(test, fix->side[0].events, 0);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0],
				     IRDMA_CM_CNT_PASSIVE_OPENS), 0);
	cm_expect_drained(test, fix->core[0]);
}

static const u8 rfc_revs[] = { 1, 2 };

static void rfc_rev_desc(const u8 *rev, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "rev%u", *rev);
}

KUNIT_ARRAY_PARAM(rfc_rev, rfc_revs, rfc_rev_desc);

/*
 * Core 0 connects (revision 2) to the raw peer, which answers the SYN;
 * the request is read. Returns the connection's record.
 */
static struct cm_rec *rfc_active(struct kunit *test, struct cm_fix *fix,
				 struct cm_raw *raw, bool p2p)
{
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	u8 *req = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct cm_rec *a;

	KUNIT_ASSERT_NOT_NULL(test, req);
	cm_raw_init(raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr.loc.port = LPORT;
	attr.peer_to_peer = p2p;
	attr.rtr_caps = p2p ? IRDMA_RTR_WRITE : 0;
	attr.ird = 4;
	attr.ord = 4;
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, raw, &seg, NULL, 0));
	raw->rcv_nxt = seg.seq + 1;
	raw->snd_nxt = raw->iss + 1;
	cm_raw_send(test, raw, IRDMA_TCP_SYN | IRDMA_TCP_ACK, raw->iss,
		    raw->rcv_nxt, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, req, BUF));
	/* An initiator offers RFC 6581 data in every revision 2 request. */
	KUNIT_ASSERT_EQ(test, seg.payload_len, (u32)SPEC_HDR_LEN + SPEC_RTR_LEN);
	KUNIT_EXPECT_TRUE(test, req[SPEC_FLAGS] & SPEC_FLAG_S);
	KUNIT_EXPECT_EQ(test, !!(req[SPEC_IRD] & SPEC_HI_A), p2p);
	raw->rcv_nxt += seg.payload_len;
	return a;
}

/*
 * The initiator's only event is RESET -EOPNOTSUPP: no CONNECT_REPLY, no
 * ESTABLISHED, no TCP context for a QP.
 */
static void rfc_expect_refused(struct kunit *test, struct cm_fix *fix,
			       const struct cm_rec *a)
{
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, a->status[0], -EOPNOTSUPP);
	KUNIT_EXPECT_FALSE(test, a->has_ctx);
}

/* Initiator, peer-to-peer: a reply without RFC 6581 data is refused. */
static void cm_mpa_rfc_p2p_initiator_refuses_plain_reply(struct kunit *test)
{
	const u8 rev = *(const u8 *)test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame rep = { .rev = rev };
	u64 before = irdma_mpa_reject_count(IRDMA_MPA_REJ_NO_PEER_TO_PEER);
	struct cm_raw raw;
	struct cm_rec *a;

	a = rfc_active(test, fix, &raw, true);
	rfc_send(test, &raw, &rep);
	rfc_expect_refused(test, fix, a);
	rfc_expect_reset(test, fix, &raw, IRDMA_MPA_REJ_NO_PEER_TO_PEER,
			 before);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RTR_SENT), 0);
	cm_expect_drained(test, fix->core[0]);
}

/* Initiator, client-server: an RFC 5044 responder's reply is taken. */
static void cm_mpa_rfc_initiator_takes_rev1_reply(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame rep = { .rev = 1, .pd_len = 1, .ulp = "x",
				  .ulp_len = 1 };
	struct cm_raw raw;
	struct cm_rec *a;

	a = rfc_active(test, fix, &raw, false);
	rfc_send(test, &raw, &rep);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, a->ctx.mpa_rev, 1);
	KUNIT_EXPECT_EQ(test, a->ctx.rtr_type, 0);
	KUNIT_EXPECT_FALSE(test, a->ctx.peer_to_peer);
	KUNIT_EXPECT_EQ(test, a->pdata_len, 1);
}

/* Initiator: a reply asking for markers ends the connection. */
static void cm_mpa_rfc_initiator_refuses_markers(struct kunit *test)
{
	const u8 rev = *(const u8 *)test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame rep = {
		.m = true, .rev = rev, .s = rev == 2, .rtr_words = rev == 2,
		.pd_len = rev == 2 ? SPEC_RTR_LEN : 0, .ird = 4, .ord = 4,
	};
	u64 before = irdma_mpa_reject_count(IRDMA_MPA_REJ_MARKERS);
	struct cm_raw raw;
	struct cm_rec *a;

	a = rfc_active(test, fix, &raw, false);
	rfc_send(test, &raw, &rep);
	rfc_expect_refused(test, fix, a);
	rfc_expect_reset(test, fix, &raw, IRDMA_MPA_REJ_MARKERS, before);
	cm_expect_drained(test, fix->core[0]);
}

/* Initiator: the reserved bits of a reply are not checked (RFC 5044). */
static void cm_mpa_rfc_initiator_ignores_reserved(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame rep = { .rev = 2, .s = true, .rtr_words = true,
				  .pd_len = SPEC_RTR_LEN, .ird = 4, .ord = 4 };
	u8 *buf = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct cm_raw raw;
	struct cm_rec *a;
	u32 n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	a = rfc_active(test, fix, &raw, false);
	n = spec_write(buf, &rep);
	buf[SPEC_FLAGS] |= 0x0f;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, buf, n, false);
	raw.snd_nxt += n;
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, a->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, a->ctx.ord, 4);
}

/* A caller asking for peer-to-peer over revision 1 gets an error. */
static void cm_mpa_rfc_p2p_needs_rev2(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct madcm_cm_conn *conn = NULL;

	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 1, &fix->side[0]);
	attr.peer_to_peer = true;
	attr.rtr_caps = IRDMA_RTR_WRITE;
	KUNIT_EXPECT_EQ(test, madcm_cm_connect(&fix->core[0]->handle, &attr,
					       &conn), -EINVAL);
	KUNIT_EXPECT_NULL(test, conn);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_ACTIVE_OPENS),
			0);
	cm_expect_drained(test, fix->core[0]);
}

static struct kunit_case cm_mpa_rfc_cases[] = {
	KUNIT_CASE(cm_mpa_rfc_responder_plain_request),
	KUNIT_CASE(cm_mpa_rfc_responder_ignores_reserved),
	KUNIT_CASE_PARAM(cm_mpa_rfc_responder_refuses_markers,
			 rfc_rev_gen_params),
	KUNIT_CASE_PARAM(cm_mpa_rfc_p2p_initiator_refuses_plain_reply,
			 rfc_rev_gen_params),
	KUNIT_CASE(cm_mpa_rfc_initiator_takes_rev1_reply),
	KUNIT_CASE_PARAM(cm_mpa_rfc_initiator_refuses_markers,
			 rfc_rev_gen_params),
	KUNIT_CASE(cm_mpa_rfc_initiator_ignores_reserved),
	KUNIT_CASE(cm_mpa_rfc_p2p_needs_rev2),
	{}
};

static struct kunit_suite cm_mpa_rfc_suite = {
	.name = "madcm_cm_mpa_rfc",
	.test_cases = cm_mpa_rfc_cases,
};

kunit_test_suite(cm_mpa_rfc_suite);
