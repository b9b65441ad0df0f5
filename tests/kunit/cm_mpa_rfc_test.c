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
 *   receipt (in revision 1 the bit RFC 6581 names S is one of them); so
 *   is R in a request. R in a reply is a reject.
 * - RFC 5044 7.1: a receiver checks the key and the revision, and closes
 *   the connection with a local error on a bad one, or on more than 512
 *   octets of private data; C from either side turns CRCs on.
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
 *
 * Documentation/irdma_cm.rst lists the rules with the case for each.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include "irdma_cm/mpa.h"
#include "tests/kunit/cm_test_util.h"
#include "tests/kunit/mpa_spec.h"

#define LPORT	4400
#define RPORT	36000
#define BUF	600

/*
 * The raw port (2) opens a connection to core 0's listener on LPORT,
 * which offers MPA revision @rev and asks for CRCs when @crc.
 */
static struct cm_raw *rfc_passive_crc(struct kunit *test, struct cm_fix *fix,
				      u8 rev, bool p2p, bool crc)
{
	struct madcm_cm_listen_attr la = {
		.addr = { .ip = in6addr_any, .port = LPORT },
		.vlan_id = MADCM_CM_NO_VLAN,
		.ird = 4, .ord = 4, .mpa_rev = rev,
		.peer_to_peer = p2p, .rtr_caps = IRDMA_RTR_ALL, .crc = crc,
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

static struct cm_raw *rfc_passive(struct kunit *test, struct cm_fix *fix,
				  u8 rev, bool p2p)
{
	return rfc_passive_crc(test, fix, rev, p2p, false);
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

/* A frame of revision @rev; revision 2 with the RFC 6581 words, IRD/ORD 4. */
static struct spec_frame rfc_frame(bool request, u8 rev)
{
	struct spec_frame f = { .request = request, .rev = rev };

	if (rev == 2) {
		f.s = true;
		f.rtr_words = true;
		f.pd_len = SPEC_RTR_LEN;
		f.ird = 4;
		f.ord = 4;
	}
	return f;
}

/* The peer acknowledges the reply in @seg: the responder is ESTABLISHED. */
static void rfc_take_reply(struct kunit *test, struct cm_fix *fix,
			   struct cm_raw *raw, const struct irdma_cm_seg *seg)
{
	raw->rcv_nxt += seg->payload_len;
	cm_raw_send(test, raw, IRDMA_TCP_ACK, raw->snd_nxt, raw->rcv_nxt,
		    NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_EQ(test, fix->side[0].recs[0].ev[1],
			MADCM_CM_EVENT_ESTABLISHED);
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
	/* RFC 5044 7.1.3: the responder waits for the request. */
	KUNIT_EXPECT_TRUE(test, cm_raw_none(raw));
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
	rfc_take_reply(test, fix, raw, &seg);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ev[0],
			MADCM_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].pdata_len, sizeof(ulp));
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
	struct spec_frame req = rfc_frame(true, rev);
	u64 before = irdma_mpa_reject_count(IRDMA_MPA_REJ_MARKERS);
	struct cm_raw *raw;

	req.m = true;
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

/* Core 0's connect to the raw peer: revision 2, IRD/ORD 4, no CRC. */
static void rfc_active_attr(struct cm_fix *fix,
			    struct madcm_cm_connect_attr *attr, bool p2p)
{
	cm_connect_attr(attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr->loc.port = LPORT;
	attr->peer_to_peer = p2p;
	attr->rtr_caps = p2p ? IRDMA_RTR_WRITE : 0;
	attr->ird = 4;
	attr->ord = 4;
}

/*
 * Core 0 connects with @attr to the raw peer, which answers the SYN; the
 * request is read into @req (BUF octets) and its length returned in
 * @req_len. Returns the connection's record.
 */
static struct cm_rec *rfc_active_with(struct kunit *test, struct cm_fix *fix,
				      struct cm_raw *raw,
				      const struct madcm_cm_connect_attr *attr,
				      u8 *req, u32 *req_len)
{
	struct irdma_cm_seg seg;
	struct cm_rec *a;

	cm_raw_init(raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	a = cm_connect(test, fix, 0, attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, raw, &seg, NULL, 0));
	raw->rcv_nxt = seg.seq + 1;
	raw->snd_nxt = raw->iss + 1;
	cm_raw_send(test, raw, IRDMA_TCP_SYN | IRDMA_TCP_ACK, raw->iss,
		    raw->rcv_nxt, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, req, BUF));
	KUNIT_ASSERT_LE(test, seg.payload_len, (u32)BUF);
	*req_len = seg.payload_len;
	raw->rcv_nxt += seg.payload_len;
	return a;
}

/*
 * Core 0 connects (revision 2) to the raw peer, which answers the SYN;
 * the request is read. Returns the connection's record.
 */
static struct cm_rec *rfc_active(struct kunit *test, struct cm_fix *fix,
				 struct cm_raw *raw, bool p2p)
{
	struct madcm_cm_connect_attr attr;
	u8 *req = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct cm_rec *a;
	u32 n;

	KUNIT_ASSERT_NOT_NULL(test, req);
	rfc_active_attr(fix, &attr, p2p);
	a = rfc_active_with(test, fix, raw, &attr, req, &n);
	/* An initiator offers RFC 6581 data in every revision 2 request. */
	KUNIT_ASSERT_EQ(test, n, (u32)SPEC_HDR_LEN + SPEC_RTR_LEN);
	KUNIT_EXPECT_TRUE(test, req[SPEC_FLAGS] & SPEC_FLAG_S);
	KUNIT_EXPECT_EQ(test, !!(req[SPEC_IRD] & SPEC_HI_A), p2p);
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
	struct spec_frame rep = rfc_frame(false, rev);
	u64 before = irdma_mpa_reject_count(IRDMA_MPA_REJ_MARKERS);
	struct cm_raw raw;
	struct cm_rec *a;

	rep.m = true;
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

/*
 * The core ends the connection: a FIN or a RST reaches the peer. A FIN
 * is answered with the peer's own, so that the close completes.
 */
static bool rfc_closed(struct kunit *test, struct cm_raw *raw,
		       const struct irdma_cm_seg *last)
{
	struct irdma_cm_seg seg = *last;

	while (!(seg.flags & (IRDMA_TCP_FIN | IRDMA_TCP_RST)))
		if (!cm_raw_recv(test, raw, &seg, NULL, 0))
			return false;
	if (seg.flags & IRDMA_TCP_FIN) {
		raw->rcv_nxt = seg.seq + seg.payload_len + 1;
		cm_raw_send(test, raw, IRDMA_TCP_ACK | IRDMA_TCP_FIN,
			    raw->snd_nxt, raw->rcv_nxt, NULL, 0, false);
		raw->snd_nxt++;
	}
	return true;
}

/*
 * RFC 5044 7.1.2, R: "set to zero, and not checked on reception" in a
 * request. A request with R set is a request like any other: accepted,
 * and the reply (R clear) leads to ESTABLISHED.
 */
static void cm_mpa_rfc_responder_ignores_r_in_request(struct kunit *test)
{
	const u8 rev = *(const u8 *)test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame req = rfc_frame(true, rev);
	u8 *rep = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct irdma_cm_seg seg;
	struct cm_raw *raw;

	KUNIT_ASSERT_NOT_NULL(test, rep);
	req.r = true;
	raw = rfc_passive(test, fix, 2, false);
	rfc_send(test, raw, &req);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, rep, BUF));
	KUNIT_ASSERT_FALSE(test, seg.flags & IRDMA_TCP_RST);
	KUNIT_ASSERT_GE(test, seg.payload_len, (u32)SPEC_HDR_LEN);
	SPEC_EXPECT_MEMEQ(test, rep + SPEC_KEY, spec_key_rep, SPEC_KEY_LEN);
	KUNIT_EXPECT_EQ(test, rep[SPEC_FLAGS] & SPEC_FLAG_R, 0);
	KUNIT_EXPECT_EQ(test, rep[SPEC_REV], rev);
	rfc_take_reply(test, fix, raw, &seg);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ev[0],
			MADCM_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_MPA_BAD), 0);
}

/*
 * A frame RFC 5044 7.1.2 tells its receiver to refuse ("close the
 * connection and report an error locally"): the wrong key for the
 * receiver's role, a revision it cannot interoperate with, a private
 * data length above 512.
 */
struct rfc_bad_case {
	const char *name;
	bool wrong_key;		/* the key of the other role */
	u8 our_rev;		/* the revision we offer */
	u8 rev;			/* the frame's */
	bool s;			/* revision 2 with the RFC 6581 words */
	u16 pd_len;
	enum irdma_mpa_reject why;
};

static const struct rfc_bad_case rfc_bad_cases[] = {
	{ "other-roles-key", true, 2, 1, false, 0, IRDMA_MPA_REJ_BAD_KEY },
	{ "rev0", false, 2, 0, false, 0, IRDMA_MPA_REJ_BAD_REV },
	{ "rev3", false, 2, 3, false, 0, IRDMA_MPA_REJ_BAD_REV },
	{ "rev2-to-rev1", false, 1, 2, true, SPEC_RTR_LEN,
	  IRDMA_MPA_REJ_REV_ABOVE_OFFER },
	{ "pd513", false, 2, 1, false, SPEC_MAX_PD + 1,
	  IRDMA_MPA_REJ_PDATA_TOO_LONG },
};

static void rfc_bad_desc(const struct rfc_bad_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rfc_bad, rfc_bad_cases, rfc_bad_desc);

static struct spec_frame rfc_bad_frame(const struct rfc_bad_case *c,
				       bool request, const u8 *zeros)
{
	struct spec_frame f = {
		.request = c->wrong_key ? !request : request,
		.rev = c->rev, .s = c->s, .rtr_words = c->s,
		.pd_len = c->pd_len, .ird = 4, .ord = 4,
	};

	if (!c->s && c->pd_len) {
		f.ulp = zeros;
		f.ulp_len = c->pd_len;
	}
	return f;
}

/* Responder: a bad request is refused before the consumer hears of it. */
static void cm_mpa_rfc_responder_refuses_bad_request(struct kunit *test)
{
	const struct rfc_bad_case *c = test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	u8 *zeros = kunit_kzalloc(test, BUF, GFP_KERNEL);
	u64 before = irdma_mpa_reject_count(c->why);
	struct spec_frame req;
	struct cm_raw *raw;

	KUNIT_ASSERT_NOT_NULL(test, zeros);
	req = rfc_bad_frame(c, true, zeros);
	raw = rfc_passive(test, fix, c->our_rev, false);
	rfc_send(test, raw, &req);
	rfc_expect_reset(test, fix, raw, c->why, before);
	KUNIT_EXPECT_EQ(test, fix->side[0].events, 0);
	cm_expect_drained(test, fix->core[0]);
}

/* Initiator: a bad reply ends the connection with a local error. */
static void cm_mpa_rfc_initiator_refuses_bad_reply(struct kunit *test)
{
	const struct rfc_bad_case *c = test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	u8 *buf = kunit_kzalloc(test, BUF, GFP_KERNEL);
	u64 before = irdma_mpa_reject_count(c->why);
	struct madcm_cm_connect_attr attr;
	struct spec_frame rep;
	struct cm_raw raw;
	struct cm_rec *a;
	u32 n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	rfc_active_attr(fix, &attr, false);
	attr.mpa_rev = c->our_rev;
	a = rfc_active_with(test, fix, &raw, &attr, buf, &n);
	KUNIT_EXPECT_EQ(test, buf[SPEC_REV], c->our_rev);
	memset(buf, 0, BUF);
	rep = rfc_bad_frame(c, false, buf);
	rfc_send(test, &raw, &rep);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_LT(test, a->status[0], 0);
	KUNIT_EXPECT_FALSE(test, a->has_ctx);
	rfc_expect_reset(test, fix, &raw, c->why, before);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * RFC 5044 7.1.2, R in a reply: set by the responder to reject. The
 * responder's reject reply, then the end of the connection; the
 * consumer never hears ESTABLISHED.
 */
static void cm_mpa_rfc_responder_reject_sets_r(struct kunit *test)
{
	const u8 rev = *(const u8 *)test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	/* Revision 2 without S: a reply without the RFC 6581 words. */
	struct spec_frame req = { .request = true, .rev = rev };
	struct spec_frame want = {
		.r = true, .rev = rev, .pd_len = 2, .ulp = "no", .ulp_len = 2,
	};
	u8 *rep = kunit_kzalloc(test, BUF, GFP_KERNEL);
	u8 *img = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct irdma_cm_seg seg;
	struct cm_raw *raw;
	bool closed;
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, rep);
	KUNIT_ASSERT_NOT_NULL(test, img);
	fix->side[0].policy = CM_TEST_REJECT;
	fix->side[0].reply_pdata = "no";
	fix->side[0].reply_len = 2;
	n = spec_write(img, &want);
	raw = rfc_passive(test, fix, 2, false);
	rfc_send(test, raw, &req);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, rep, BUF));
	KUNIT_ASSERT_EQ(test, seg.payload_len, (u32)n);
	SPEC_EXPECT_MEMEQ(test, rep, img, n);
	raw->rcv_nxt += seg.payload_len;
	if (!(seg.flags & IRDMA_TCP_FIN))
		cm_raw_send(test, raw, IRDMA_TCP_ACK, raw->snd_nxt,
			    raw->rcv_nxt, NULL, 0, false);
	closed = rfc_closed(test, raw, &seg);
	KUNIT_EXPECT_TRUE(test, closed);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ev[0],
			MADCM_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_FALSE(test, cm_rec_has(&fix->side[0].recs[0],
					    MADCM_CM_EVENT_ESTABLISHED));
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_REJECT_SENT), 1);
}

/*
 * madcm_cm_destroy_listener() promises that every event for the
 * listener's handler is delivered before it returns, so that a consumer
 * may free the listener's context right after. A connection the consumer
 * rejected has left the backlog but is still closing (its reject went
 * out, then its FIN, unacknowledged here): its terminal event must come
 * before destroy returns, and nothing may reach the handler once the
 * peer completes the close.
 */
static void cm_mpa_rfc_destroy_listener_ends_rejected(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame req = rfc_frame(true, 1);
	u8 *rep = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct madcm_cm_listener *l;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	int events;

	KUNIT_ASSERT_NOT_NULL(test, rep);
	fix->side[0].policy = CM_TEST_REJECT;
	l = cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_raw_open(test, &raw);
	rfc_send(test, &raw, &req);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, rep, BUF));
	/* RFC 5044 7.1.2: the reply has R set; the consumer saw one event. */
	KUNIT_ASSERT_TRUE(test, rep[SPEC_FLAGS] & SPEC_FLAG_R);
	KUNIT_ASSERT_EQ(test, fix->side[0].events, 1);
	KUNIT_ASSERT_EQ(test, fix->side[0].terminals, 0);

	madcm_cm_destroy_listener(l);
	mutex_lock(&fix->side[0].lock);
	events = fix->side[0].events;
	mutex_unlock(&fix->side[0].lock);
	KUNIT_EXPECT_EQ(test, fix->side[0].terminals, 1);
	KUNIT_EXPECT_EQ(test, events, 2);

	/* The peer acknowledges the reject and the FIN, and closes too. */
	KUNIT_EXPECT_TRUE(test, rfc_closed(test, &raw, &seg));
	madcm_wire_loop_quiesce(fix->loop);
	flush_workqueue(fix->core[0]->event_wq);
	KUNIT_EXPECT_EQ(test, fix->side[0].events, events);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].after_terminal, 0);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_REJECT_SENT), 1);
}

/*
 * Initiator: a reply with R set is the responder's reject; the consumer
 * gets it with the reply's private data (never the RFC 6581 words), and
 * the connection ends.
 */
static void cm_mpa_rfc_initiator_takes_reject(struct kunit *test)
{
	const u8 rev = *(const u8 *)test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame rep = rfc_frame(false, rev);
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *a;

	rep.r = true;
	rep.pd_len += 2;
	rep.ulp = "no";
	rep.ulp_len = 2;
	a = rfc_active(test, fix, &raw, false);
	rfc_send(test, &raw, &rep);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_REJECTED);
	KUNIT_EXPECT_EQ(test, a->status[0], -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, a->pdata_len, 2);
	SPEC_EXPECT_MEMEQ(test, a->pdata, "no", 2);
	KUNIT_EXPECT_FALSE(test, a->has_ctx);
	seg.flags = 0;
	KUNIT_EXPECT_TRUE(test, rfc_closed(test, &raw, &seg));
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_REJECT_RCVD), 1);
}

/*
 * RFC 5044 7.1.2, C: each frame declares its sender's preference; CRCs
 * are used when either frame has C set, and not when neither has.
 */
struct rfc_crc_case {
	bool ours, peers;
};

static const struct rfc_crc_case rfc_crc_cases[] = {
	{ false, false }, { false, true }, { true, false }, { true, true },
};

static void rfc_crc_desc(const struct rfc_crc_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "ours%u-peers%u", c->ours,
		 c->peers);
}

KUNIT_ARRAY_PARAM(rfc_crc, rfc_crc_cases, rfc_crc_desc);

static void cm_mpa_rfc_responder_crc_either_side(struct kunit *test)
{
	const struct rfc_crc_case *c = test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame req = { .request = true, .c = c->peers, .rev = 1 };
	u8 *rep = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct irdma_cm_seg seg;
	struct cm_raw *raw;
	bool rep_c;

	KUNIT_ASSERT_NOT_NULL(test, rep);
	raw = rfc_passive_crc(test, fix, 2, false, c->ours);
	rfc_send(test, raw, &req);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, rep, BUF));
	KUNIT_ASSERT_EQ(test, seg.payload_len, (u32)SPEC_HDR_LEN);
	rep_c = rep[SPEC_FLAGS] & SPEC_FLAG_C;
	/* Our preference is declared; nobody asked: nobody declares it. */
	if (c->ours)
		KUNIT_EXPECT_TRUE(test, rep_c);
	if (!c->ours && !c->peers)
		KUNIT_EXPECT_FALSE(test, rep_c);
	rfc_take_reply(test, fix, raw, &seg);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ctx.crc, c->peers || rep_c);
}

static void cm_mpa_rfc_initiator_crc_either_side(struct kunit *test)
{
	const struct rfc_crc_case *c = test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame rep = {
		.c = c->peers, .rev = 2, .s = true, .rtr_words = true,
		.pd_len = SPEC_RTR_LEN, .ird = 4, .ord = 4,
	};
	u8 *req = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct madcm_cm_connect_attr attr;
	struct cm_raw raw;
	struct cm_rec *a;
	bool req_c;
	u32 n;

	KUNIT_ASSERT_NOT_NULL(test, req);
	rfc_active_attr(fix, &attr, false);
	attr.crc = c->ours;
	a = rfc_active_with(test, fix, &raw, &attr, req, &n);
	KUNIT_ASSERT_EQ(test, n, (u32)SPEC_HDR_LEN + SPEC_RTR_LEN);
	req_c = req[SPEC_FLAGS] & SPEC_FLAG_C;
	KUNIT_EXPECT_EQ(test, req_c, c->ours);
	rfc_send(test, &raw, &rep);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_EQ(test, a->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, a->ctx.crc, req_c || c->peers);
}

/*
 * Initiator: the request, octet for octet as RFC 5044 7.1.2 and RFC 6581
 * draw it: the request key, M, C, R and Res clear, the revision offered,
 * PD_Length counting the RFC 6581 words (revision 2) and the consumer's
 * private data, which follows unchanged.
 */
struct rfc_req_case {
	const char *name;
	u8 rev;
	bool p2p;
};

static const struct rfc_req_case rfc_req_cases[] = {
	{ "rev1", 1, false },
	{ "rev2", 2, false },
	{ "rev2-peer-to-peer-write-rtr", 2, true },
};

static void rfc_req_desc(const struct rfc_req_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rfc_req, rfc_req_cases, rfc_req_desc);

static void cm_mpa_rfc_initiator_request_octets(struct kunit *test)
{
	static const u8 ulp[3] = { 'h', 'i', 0x00 };
	const struct rfc_req_case *c = test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame want = {
		.request = true, .rev = c->rev, .s = c->rev == 2,
		.rtr_words = c->rev == 2,
		.pd_len = (c->rev == 2 ? SPEC_RTR_LEN : 0) + sizeof(ulp),
		/* A and, for the one RTR type offered, C (a Write). */
		.a = c->p2p, .cc = c->p2p, .ird = 4, .ord = 4,
		.ulp = ulp, .ulp_len = sizeof(ulp),
	};
	u8 *req = kunit_kzalloc(test, BUF, GFP_KERNEL);
	u8 *img = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct madcm_cm_connect_attr attr;
	struct cm_raw raw;
	size_t len;
	u32 n;

	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_ASSERT_NOT_NULL(test, img);
	rfc_active_attr(fix, &attr, c->p2p);
	attr.mpa_rev = c->rev;
	attr.private_data = ulp;
	attr.private_data_len = sizeof(ulp);
	len = spec_write(img, &want);
	rfc_active_with(test, fix, &raw, &attr, req, &n);
	KUNIT_EXPECT_EQ(test, n, (u32)len);
	SPEC_EXPECT_MEMEQ(test, req, img, min_t(size_t, n, len));
	/* RFC 5044 7.1.3: nothing more before the reply. */
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
}

/*
 * RFC 6581: IRD/ORD in both roles. A responder's ORD stays within the
 * initiator's IRD, and what the consumer is told is what the frames said.
 */
static void cm_mpa_rfc_responder_ord_within_initiators_ird(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame req = {
		.request = true, .rev = 2, .s = true, .rtr_words = true,
		.pd_len = SPEC_RTR_LEN, .ird = 2, .ord = 8,
	};
	u8 *rep = kunit_kzalloc(test, BUF, GFP_KERNEL);
	struct irdma_cm_seg seg;
	struct cm_raw *raw;
	u16 rep_ird, rep_ord;

	KUNIT_ASSERT_NOT_NULL(test, rep);
	raw = rfc_passive(test, fix, 2, false);
	rfc_send(test, raw, &req);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, rep, BUF));
	KUNIT_ASSERT_EQ(test, seg.payload_len, (u32)SPEC_HDR_LEN + SPEC_RTR_LEN);
	KUNIT_EXPECT_TRUE(test, rep[SPEC_FLAGS] & SPEC_FLAG_S);
	rep_ird = (rep[SPEC_IRD] & 0x3f) << 8 | rep[SPEC_IRD + 1];
	rep_ord = (rep[SPEC_ORD] & 0x3f) << 8 | rep[SPEC_ORD + 1];
	KUNIT_EXPECT_LE(test, rep_ord, 2);
	KUNIT_EXPECT_GE(test, rep_ird, 1);
	rfc_take_reply(test, fix, raw, &seg);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ctx.ord, rep_ord);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ctx.ird, rep_ird);
}

static void cm_mpa_rfc_initiator_ord_within_responders_ird(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct spec_frame rep = {
		.rev = 2, .s = true, .rtr_words = true,
		.pd_len = SPEC_RTR_LEN, .ird = 2, .ord = 3,
	};
	struct cm_raw raw;
	struct cm_rec *a;

	a = rfc_active(test, fix, &raw, false);
	rfc_send(test, &raw, &rep);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_EQ(test, a->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	/* We asked for 4; the responder takes 2 at a time. */
	KUNIT_EXPECT_EQ(test, a->ctx.ord, 2);
	/* Our IRD (4) still covers the responder's ORD (3). */
	KUNIT_EXPECT_GE(test, a->ctx.ird, 3);
}

/*
 * RFC 5044 7.1: an initiator waits for the reply a bounded time, then
 * closes the connection and reports the error.
 */
static void cm_mpa_rfc_initiator_reply_timeout(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true,
					   &cm_test_mpa_timeout_cfg, 2);
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *a;
	bool rst = false;

	a = rfc_active(test, fix, &raw, false);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt,
		    NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, a->status[0], -ETIMEDOUT);
	while (!rst && cm_raw_recv(test, &raw, &seg, NULL, 0))
		rst = seg.flags & IRDMA_TCP_RST;
	KUNIT_EXPECT_TRUE(test, rst);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_MPA_TIMEOUT), 1);
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
	KUNIT_CASE_PARAM(cm_mpa_rfc_responder_ignores_r_in_request,
			 rfc_rev_gen_params),
	KUNIT_CASE_PARAM(cm_mpa_rfc_responder_refuses_bad_request,
			 rfc_bad_gen_params),
	KUNIT_CASE_PARAM(cm_mpa_rfc_initiator_refuses_bad_reply,
			 rfc_bad_gen_params),
	KUNIT_CASE_PARAM(cm_mpa_rfc_responder_reject_sets_r,
			 rfc_rev_gen_params),
	KUNIT_CASE_PARAM(cm_mpa_rfc_initiator_takes_reject,
			 rfc_rev_gen_params),
	KUNIT_CASE_PARAM(cm_mpa_rfc_responder_crc_either_side,
			 rfc_crc_gen_params),
	KUNIT_CASE_PARAM(cm_mpa_rfc_initiator_crc_either_side,
			 rfc_crc_gen_params),
	KUNIT_CASE_PARAM(cm_mpa_rfc_initiator_request_octets,
			 rfc_req_gen_params),
	KUNIT_CASE(cm_mpa_rfc_responder_ord_within_initiators_ird),
	KUNIT_CASE(cm_mpa_rfc_initiator_ord_within_responders_ird),
	KUNIT_CASE(cm_mpa_rfc_initiator_reply_timeout),
	KUNIT_CASE(cm_mpa_rfc_destroy_listener_ends_rejected),
	{}
};

static struct kunit_suite cm_mpa_rfc_suite = {
	.name = "madcm_cm_mpa_rfc",
	.test_cases = cm_mpa_rfc_cases,
};

kunit_test_suite(cm_mpa_rfc_suite);
