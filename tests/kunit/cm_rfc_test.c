// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the CM against a peer played by hand, segment by segment, with
 * every expectation taken from the RFCs: options in SYN and SYN-ACK (RFC
 * 9293 3.7.1, RFC 7323), RFC 5961's challenge ACKs, RST in every state,
 * the listener backlog, retransmission to the retry limit, MPA frames
 * split across segments and sharing one, out-of-order data, the MPA
 * timeout and a malformed MPA frame.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/string.h>
#include "tests/kunit/cm_test_util.h"
#include "tests/kunit/mpa_spec.h"

#define LPORT	4200
#define RPORT	34000

static const struct madcm_cm_config short_rto_cfg = {
	.rto_min_ms = 10,
	.rto_max_ms = 40,
	.max_retrans = 3,
	.time_wait_ms = 600000,
	.fin_wait2_ms = 600000,
	.mpa_timeout_ms = 600000,
};

/* RFC 9293 3.7.1 and RFC 7323 2.2: options of SYN-ACK and SYN. */
static void cm_rfc_syn_options(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	struct cm_raw raw;

	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);

	/* A SYN with window scale: the SYN-ACK offers it back. */
	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.iss + 1);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_mss);
	KUNIT_EXPECT_EQ(test, seg.opts.mss, 1460);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_wscale);
	KUNIT_EXPECT_GT(test, seg.window, 0);

	/* Without it, the SYN-ACK must not carry one (RFC 7323 1.3). */
	raw.tmpl.src.port = RPORT + 1;
	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_mss);
	KUNIT_EXPECT_FALSE(test, seg.opts.has_wscale);

	/* An active open's SYN: MSS and window scale, no ACK. */
	cm_connect_attr(&attr, &fix->v6[0], &fix->v6[1], 7777,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_SYN);
	KUNIT_EXPECT_FALSE(test, seg.ipv4);
	KUNIT_EXPECT_EQ(test, seg.dst.port, 7777);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_mss);
	KUNIT_EXPECT_EQ(test, seg.opts.mss, 1500 - 40 - 20);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_wscale);
	KUNIT_EXPECT_EQ(test, seg.payload_len, 0);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * RFC 5961 3.2 and 4.2 on an established connection: a RST inside the
 * window but not at RCV.NXT and any SYN get a challenge ACK; a RST
 * outside the window is dropped silently; a RST at RCV.NXT resets.
 */
static void cm_rfc_challenge_acks(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_core *core;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *p;

	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_established(test, fix, &raw, RPORT, LPORT);
	core = fix->core[0];
	p = &fix->side[0].recs[0];

	cm_raw_send(test, &raw, IRDMA_TCP_RST, raw.snd_nxt + 100, 0, NULL, 0,
		    false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.seq, raw.rcv_nxt);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_CHALLENGE_ACK), 1);

	cm_raw_send(test, &raw, IRDMA_TCP_RST, raw.snd_nxt - 5000, 0, NULL, 0,
		    false);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));

	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.snd_nxt + 7, 0, NULL, 0,
		    true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_CHALLENGE_ACK), 2);

	/* A stale duplicate of data is acknowledged, not taken (3.10.7.4). */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt - 10, raw.rcv_nxt,
		    "0123456789", 10, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	KUNIT_EXPECT_EQ(test, cm_cnt(core, IRDMA_CM_CNT_SEQ_DROP_ACK), 1);
	KUNIT_EXPECT_EQ(test, fix->side[0].terminals, 0);

	cm_raw_send(test, &raw, IRDMA_TCP_RST, raw.snd_nxt, 0, NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, p->ev[p->nev - 1], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, p->status[p->nev - 1], -ECONNRESET);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	cm_expect_drained(test, core);
}

struct rst_case {
	const char *name;
	enum cm_raw_state state;
	/* The consumer's last event after the RST, or -1 for none at all. */
	int last;
	int status;
};

static const struct rst_case rst_cases[] = {
	{ "SYN-SENT", CM_RAW_SYN_SENT, MADCM_CM_EVENT_RESET, -ECONNREFUSED },
	{ "SYN-RECEIVED", CM_RAW_SYN_RCVD, -1, 0 },
	{ "ESTABLISHED waiting for the request", CM_RAW_WAIT_REQUEST, -1, 0 },
	{ "ESTABLISHED request with the consumer", CM_RAW_REQ_RCVD,
	  MADCM_CM_EVENT_RESET, -ECONNRESET },
	{ "ESTABLISHED after MPA", CM_RAW_ESTABLISHED, MADCM_CM_EVENT_RESET,
	  -ECONNRESET },
	{ "FIN-WAIT-1", CM_RAW_FIN_WAIT1, MADCM_CM_EVENT_RESET, -ECONNRESET },
	{ "FIN-WAIT-2", CM_RAW_FIN_WAIT2, MADCM_CM_EVENT_RESET, -ECONNRESET },
	{ "LAST-ACK", CM_RAW_LAST_ACK, MADCM_CM_EVENT_RESET, -ECONNRESET },
	{ "TIME-WAIT", CM_RAW_TIME_WAIT, MADCM_CM_EVENT_CLOSE, 0 },
};

static void rst_desc(const struct rst_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rst, rst_cases, rst_desc);

/* RFC 9293 3.10.7: an acceptable RST in each state. */
static void cm_rfc_rst_in_state(struct kunit *test)
{
	const struct rst_case *c = test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *rec = NULL;
	int before;

	if (c->state == CM_RAW_SYN_SENT) {
		cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
		cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
				MADCM_CM_NO_VLAN, 2, &fix->side[0]);
		attr.loc.port = LPORT;
		rec = cm_connect(test, fix, 0, &attr);
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
		/* RFC 9293 3.10.7.3: a RST with an acceptable ACK. */
		cm_raw_send(test, &raw, IRDMA_TCP_RST | IRDMA_TCP_ACK, 0,
			    seg.seq + 1, NULL, 0, false);
	} else {
		cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
		cm_raw_drive(test, fix, &raw, c->state, RPORT, LPORT);
		if (fix->side[0].nrecs)
			rec = &fix->side[0].recs[0];
		cm_raw_send(test, &raw, IRDMA_TCP_RST, raw.snd_nxt, 0, NULL, 0,
			    false);
	}
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RST_RCVD), 1);
	if (c->last < 0) {
		KUNIT_EXPECT_EQ(test, fix->side[0].nrecs, 0);
	} else {
		KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
		KUNIT_ASSERT_NOT_NULL(test, rec);
		KUNIT_EXPECT_EQ(test, rec->ev[rec->nev - 1], c->last);
		KUNIT_EXPECT_EQ(test, rec->status[rec->nev - 1], c->status);
		KUNIT_EXPECT_EQ(test, rec->terminal, 1);
	}
	/* The connection is gone: the next segment gets a RST. */
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	before = cm_cnt(fix->core[0], IRDMA_CM_CNT_RST_SENT);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt, NULL,
		    0, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_TRUE(test, seg.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RST_SENT),
			before + 1);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * A SYN past the backlog gets a SYN cookie and no node (the cookie cases
 * are in cm_syncookie_test.c); room comes back.
 */
static void cm_rfc_backlog(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 4);
	struct madcm_cm_listen_attr la = {
		.addr = { .port = LPORT },
		.vlan_id = MADCM_CM_NO_VLAN,
		.backlog = 2,
		.mpa_rev = 2,
		.handler = cm_test_handler,
		.context = &fix->side[0],
	};
	struct madcm_cm_listener *l;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	int i;

	KUNIT_ASSERT_EQ(test, madcm_cm_create_listener(&fix->core[0]->handle, &la, &l),
			0);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	for (i = 0; i < 3; i++) {
		raw.tmpl.src.port = RPORT + i;
		cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0,
			    true);
	}
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
		KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
		KUNIT_EXPECT_EQ(test, seg.dst.port, RPORT + i);
		/* The cookie SYN-ACK offers no window scaling. */
		KUNIT_EXPECT_EQ(test, seg.opts.has_wscale, i < 2);
	}
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_BACKLOG_DROP), 0);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_SYN_COOKIE_SENT),
			1);
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->core[0]->live_nodes), 2);

	/* One pending connection is reset: the third SYN now gets in. */
	raw.tmpl.src.port = RPORT;
	cm_raw_send(test, &raw, IRDMA_TCP_RST, raw.iss + 1, 0, NULL, 0, false);
	raw.tmpl.src.port = RPORT + 2;
	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.dst.port, RPORT + 2);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_wscale);
	KUNIT_EXPECT_EQ(test, atomic_read(&irdma_cm_listener_of(l)->pending), 2);
	madcm_cm_destroy_listener(l);
	cm_expect_drained(test, fix->core[0]);
}

/* The SYN is sent 1 + max_retrans times, then RESET -ETIMEDOUT. */
static void cm_rfc_retrans_limit(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &short_rto_cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *a;
	u32 iss = 0;
	int i;

	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	for (i = 0; i < 1 + 3; i++) {
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
		KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_SYN);
		if (!i)
			iss = seg.seq;
		KUNIT_EXPECT_EQ(test, seg.seq, iss);
	}
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, a->status[0], -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS), 3);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS_LIMIT), 1);
	/* Nothing after the last SYN: no RST for an unsynchronized peer. */
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	cm_expect_drained(test, fix->core[0]);
}

/* Wait until a counter of @core reaches @n; false after 10 s. */
static bool wait_cnt(struct irdma_cm_core *core, enum irdma_cm_counter c,
		     u64 n)
{
	int i;

	for (i = 0; i < 10000 && cm_cnt(core, c) < n; i++)
		usleep_range(500, 1000);
	return cm_cnt(core, c) >= n;
}

/*
 * The retry limit counts retransmissions of what is still unacknowledged
 * (RFC 1122 4.2.3.5, R2): the reply and the FIN after it go unanswered
 * twice, then an ACK covers the reply only. The FIN alone then gets the
 * full budget, max_retrans more copies, before the RST.
 */
static void cm_rfc_partial_ack_restarts_budget(struct kunit *test)
{
	const struct madcm_cm_config cfg = {
		/* No backoff: 300 ms between copies, room to answer in. */
		.rto_min_ms = 300, .rto_max_ms = 300, .max_retrans = 3,
		.time_wait_ms = 600000, .fin_wait2_ms = 600000,
		.mpa_timeout_ms = 600000,
	};
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cfg, 2);
	struct madcm_cm_accept_attr acc = {};
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *p;

	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_drive(test, fix, &raw, CM_RAW_REQ_RCVD, RPORT, LPORT);
	p = &fix->side[0].recs[0];
	KUNIT_ASSERT_EQ(test, madcm_cm_accept(p->conn, &acc), 0);
	madcm_cm_close(p->conn);
	/* The reply (a bare MPA header: no private data, revision 1). */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.seq, raw.rcv_nxt);
	KUNIT_ASSERT_EQ(test, seg.payload_len, SPEC_HDR_LEN);

	KUNIT_ASSERT_TRUE(test, wait_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS, 2));
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt,
		    raw.rcv_nxt + SPEC_HDR_LEN, NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, p->ev[p->nev - 1], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, p->status[p->nev - 1], -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS), 2 + 3);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS_LIMIT), 1);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * Active side against the raw peer: the MPA request is retransmitted
 * unchanged until acknowledged; the reply comes in two segments, the
 * second also holding the start of the next frame (the QP's). The CM
 * takes the reply only: the QP's bytes stay unacknowledged, and the TCP
 * context hands over at the end of the reply.
 */
static void cm_rfc_request_retrans_reply_split(struct kunit *test)
{
	const struct madcm_cm_config cfg = {
		.rto_min_ms = 10, .rto_max_ms = 40, .max_retrans = 50,
		.time_wait_ms = 600000, .fin_wait2_ms = 600000,
		.mpa_timeout_ms = 600000,
	};
	static const char pd[] = "active private data";
	static const u8 next[6] = { 0, 4, 0xc0, 0xff, 0xee, 0x01 };
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *a;
	u8 *req1, *req2, *rep;
	u32 n, len1;

	req1 = kunit_kzalloc(test, 600, GFP_KERNEL);
	req2 = kunit_kzalloc(test, 600, GFP_KERNEL);
	rep = kunit_kzalloc(test, 600, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, req1 && req2 && rep);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr.loc.port = LPORT;
	attr.private_data = pd;
	attr.private_data_len = sizeof(pd);
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	raw.rcv_nxt = seg.seq + 1;
	raw.snd_nxt = raw.iss + 1;
	cm_raw_send(test, &raw, IRDMA_TCP_SYN | IRDMA_TCP_ACK, raw.iss,
		    raw.rcv_nxt, NULL, 0, true);

	/* The request, as RFC 5044 and 6581 lay it out (SYN copies skipped). */
	do {
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, req1, 600));
	} while (!seg.payload_len);
	len1 = seg.payload_len;
	KUNIT_EXPECT_EQ(test, seg.seq, raw.rcv_nxt);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	KUNIT_ASSERT_EQ(test, len1, SPEC_HDR_LEN + SPEC_RTR_LEN + sizeof(pd));
	KUNIT_EXPECT_EQ(test, memcmp(req1, spec_key_req, SPEC_KEY_LEN), 0);
	KUNIT_EXPECT_EQ(test, req1[SPEC_REV], 2);
	KUNIT_EXPECT_TRUE(test, req1[SPEC_FLAGS] & SPEC_FLAG_S);
	KUNIT_EXPECT_EQ(test, (req1[SPEC_PD_LEN] << 8) | req1[SPEC_PD_LEN + 1],
			SPEC_RTR_LEN + sizeof(pd));
	KUNIT_EXPECT_EQ(test, memcmp(req1 + SPEC_HDR_LEN + SPEC_RTR_LEN, pd,
				     sizeof(pd)), 0);
	/* Not acknowledged: it comes again, the same bytes at the same seq. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, req2, 600));
	KUNIT_EXPECT_EQ(test, seg.seq, raw.rcv_nxt);
	KUNIT_EXPECT_EQ(test, seg.payload_len, len1);
	KUNIT_EXPECT_EQ(test, memcmp(req1, req2, len1), 0);
	KUNIT_EXPECT_GE(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS), 1);
	raw.rcv_nxt += len1;

	/* The reply: 10 bytes, then the rest with 6 bytes of the next frame. */
	n = cm_raw_mpa_frame(rep, false, false, 2, "ok", 2, 8, 8);
	memcpy(rep + n, next, sizeof(next));
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt, rep,
		    10, false);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt + 10,
		    raw.rcv_nxt, rep + 10, n - 10 + sizeof(next), false);
	raw.snd_nxt += n;
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, a->pdata_len, 2);
	KUNIT_EXPECT_EQ(test, a->ctx.rcv_nxt, raw.snd_nxt);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RX_EARLY),
			sizeof(next));
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_ULP_BYTES), 0);
	/* Sent again, they are past the exchange: acknowledged, dropped. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, next, sizeof(next), false);
	/* (Skipping the copies of the request and the earlier ACKs.) */
	do {
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	} while (seg.ack != raw.snd_nxt + sizeof(next));
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_ULP_BYTES),
			sizeof(next));
	cm_expect_drained(test, fix->core[0]);
}

/*
 * Passive side: the request in three segments, the second arriving
 * first (dropped, duplicate ACK), the last with bytes of the next frame
 * (not taken, not acknowledged).
 */
static void cm_rfc_request_split_out_of_order(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *p;
	u8 pd[100], *req;
	u32 n, base;
	int i;

	for (i = 0; i < sizeof(pd); i++)
		pd[i] = i * 7;
	req = kunit_kzalloc(test, 600, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	fix->side[0].policy = CM_TEST_HOLD;
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_raw_open(test, &raw);
	n = cm_raw_mpa_frame(req, true, false, 2, pd, sizeof(pd), 4, 4);
	memset(req + n, 0xab, 8);
	base = raw.snd_nxt;

	/* Bytes 7..29 first: ahead of RCV.NXT, dropped, ACK of base. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, base + 7, raw.rcv_nxt, req + 7,
		    23, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, base);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_OOO_DROP), 1);
	/* Bytes 0..6: ACK of base + 7. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, base, raw.rcv_nxt, req, 7, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, base + 7);
	/* 7..29 again, overlapping 0..6 is fine too: start at 3. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, base + 3, raw.rcv_nxt, req + 3,
		    27, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, base + 30);
	KUNIT_EXPECT_EQ(test, fix->side[0].events, 0);
	/* The rest and 8 bytes of the next frame. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, base + 30,
		    raw.rcv_nxt, req + 30, n - 30 + 8, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, base + n);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 1));
	p = &fix->side[0].recs[0];
	KUNIT_EXPECT_EQ(test, p->ev[0], MADCM_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_EQ(test, p->pdata_len, sizeof(pd));
	KUNIT_EXPECT_EQ(test, memcmp(p->pdata, pd, sizeof(pd)), 0);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RX_EARLY), 8);
	KUNIT_EXPECT_EQ(test, madcm_cm_reject(p->conn, NULL, 0), 0);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, req, 600));
	KUNIT_EXPECT_TRUE(test, req[SPEC_FLAGS] & SPEC_FLAG_R);
	cm_expect_drained(test, fix->core[0]);
}

/* No request within the MPA timeout: RST, counted, nobody told. */
static void cm_rfc_mpa_timeout(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true,
					   &cm_test_mpa_timeout_cfg, 2);
	struct irdma_cm_seg seg;
	struct cm_raw raw;

	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_raw_open(test, &raw);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_TRUE(test, seg.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, seg.seq, raw.rcv_nxt);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_MPA_TIMEOUT), 1);
	KUNIT_EXPECT_EQ(test, fix->side[0].events, 0);
	cm_expect_drained(test, fix->core[0]);
}

/* Bytes that are no MPA request: RST, counted, nobody told. */
static void cm_rfc_bad_request(struct kunit *test)
{
	static const char junk[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_seg seg;
	struct cm_raw raw;

	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_raw_open(test, &raw);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt, junk,
		    sizeof(junk), false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_TRUE(test, seg.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_MPA_BAD), 1);
	KUNIT_EXPECT_EQ(test, fix->side[0].events, 0);
	cm_expect_drained(test, fix->core[0]);
}

/* Destroying a listener resets what is pending; the consumer hears it. */
static void cm_rfc_destroy_listener_pending(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_listener *l;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *p;
	u8 frame[32];
	u32 n;

	fix->side[0].policy = CM_TEST_HOLD;
	l = cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_raw_open(test, &raw);
	n = cm_raw_mpa_frame(frame, true, false, 1, NULL, 0, 0, 0);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt, frame,
		    n, false);
	raw.snd_nxt += n;
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 1));
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	madcm_cm_destroy_listener(l);
	p = &fix->side[0].recs[0];
	/* Delivered before destroy returned. */
	KUNIT_EXPECT_EQ(test, p->terminal, 1);
	KUNIT_EXPECT_EQ(test, p->ev[1], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, p->status[1], -ECONNABORTED);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_TRUE(test, seg.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
	cm_expect_drained(test, fix->core[0]);
}

static struct kunit_case cm_rfc_cases[] = {
	KUNIT_CASE(cm_rfc_syn_options),
	KUNIT_CASE(cm_rfc_challenge_acks),
	KUNIT_CASE_PARAM(cm_rfc_rst_in_state, rst_gen_params),
	KUNIT_CASE(cm_rfc_backlog),
	KUNIT_CASE(cm_rfc_retrans_limit),
	KUNIT_CASE(cm_rfc_partial_ack_restarts_budget),
	KUNIT_CASE(cm_rfc_request_retrans_reply_split),
	KUNIT_CASE(cm_rfc_request_split_out_of_order),
	KUNIT_CASE(cm_rfc_mpa_timeout),
	KUNIT_CASE(cm_rfc_bad_request),
	KUNIT_CASE(cm_rfc_destroy_listener_pending),
	{}
};

static struct kunit_suite cm_rfc_suite = {
	.name = "madcm_cm_rfc",
	.test_cases = cm_rfc_cases,
};

kunit_test_suite(cm_rfc_suite);
