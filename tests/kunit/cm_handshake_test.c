// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: connections between two cm_cores over the software wire: the
 * TCP handshake and the MPA exchange (RFC 9293, RFC 5044, RFC 6581) over
 * IPv4, IPv6 and 802.1Q, accept and reject with private data, what the
 * consumer gets, and teardown with nothing left behind.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include "tests/kunit/cm_test_util.h"

#define LPORT	4000

struct hs_case {
	const char *name;
	bool ipv4;
	u16 vlan;
	u8 rev;
};

static const struct hs_case hs_cases[] = {
	{ "ipv4 mpa1", true, MADCM_CM_NO_VLAN, 1 },
	{ "ipv4 mpa2", true, MADCM_CM_NO_VLAN, 2 },
	{ "ipv6 mpa1", false, MADCM_CM_NO_VLAN, 1 },
	{ "ipv6 mpa2", false, MADCM_CM_NO_VLAN, 2 },
	{ "ipv4 vlan7 mpa2", true, 7, 2 },
	{ "ipv6 vlan4094 mpa1", false, 4094, 1 },
};

static void hs_desc(const struct hs_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hs, hs_cases, hs_desc);

static const char req_pdata[] = "request private data";
static const char rep_pdata[] = "reply private data, a little longer";
static const char rej_pdata[] = "go away";

static const struct in6_addr *addr_of(struct cm_fix *fix, int i, bool v4)
{
	return v4 ? &fix->v4[i] : &fix->v6[i];
}

/* Both sides established; close from the active side; both drained. */
static void cm_connect_accept_close(struct kunit *test)
{
	const struct hs_case *c = test->param_value;
	static const enum madcm_cm_event_type want_a[] = {
		MADCM_CM_EVENT_CONNECT_REPLY, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_CLOSE,
	};
	static const enum madcm_cm_event_type want_p[] = {
		MADCM_CM_EVENT_CONNECT_REQUEST, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_DISCONNECT, MADCM_CM_EVENT_CLOSE,
	};
	struct madcm_cm_connect_attr attr;
	struct cm_fix *fix;
	struct cm_rec *a, *p;
	u16 hdrs = (c->ipv4 ? 20 : 40) + 20;

	fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 4);
	fix->side[1].reply_pdata = rep_pdata;
	fix->side[1].reply_len = sizeof(rep_pdata);
	cm_listen(test, fix, 1, NULL, LPORT, c->vlan, 2);
	cm_connect_attr(&attr, addr_of(fix, 0, c->ipv4),
			addr_of(fix, 1, c->ipv4), LPORT, c->vlan, c->rev,
			&fix->side[0]);
	attr.loc.port = 5001;
	attr.private_data = req_pdata;
	attr.private_data_len = sizeof(req_pdata);
	a = cm_connect(test, fix, 0, &attr);

	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[1], 2));
	p = &fix->side[1].recs[0];

	/* Private data crossed intact both ways. */
	KUNIT_EXPECT_EQ(test, p->pdata_len, sizeof(req_pdata));
	KUNIT_EXPECT_STREQ(test, (char *)p->pdata, req_pdata);
	KUNIT_EXPECT_EQ(test, a->pdata_len, sizeof(rep_pdata));
	KUNIT_EXPECT_STREQ(test, (char *)a->pdata, rep_pdata);

	/* Each side's TCP context mirrors the other's. */
	KUNIT_ASSERT_TRUE(test, a->has_ctx && p->has_ctx);
	KUNIT_EXPECT_EQ(test, a->ctx.snd_nxt, p->ctx.rcv_nxt);
	KUNIT_EXPECT_EQ(test, a->ctx.rcv_nxt, p->ctx.snd_nxt);
	KUNIT_EXPECT_EQ(test, a->ctx.loc.port, 5001);
	KUNIT_EXPECT_EQ(test, a->ctx.rem.port, LPORT);
	KUNIT_EXPECT_EQ(test, p->ctx.loc.port, LPORT);
	KUNIT_EXPECT_EQ(test, p->ctx.rem.port, 5001);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&a->ctx.loc.ip, &p->ctx.rem.ip));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&a->ctx.rem.ip, &p->ctx.loc.ip));
	KUNIT_EXPECT_EQ(test, a->ctx.ipv4, c->ipv4);
	KUNIT_EXPECT_EQ(test, a->ctx.vlan_id, c->vlan);
	KUNIT_EXPECT_EQ(test, p->ctx.vlan_id, c->vlan);
	KUNIT_EXPECT_EQ(test, a->ctx.mpa_rev, c->rev);
	KUNIT_EXPECT_EQ(test, p->ctx.mpa_rev, c->rev);
	/* MSS: the MTU less the IP and TCP headers (RFC 9293 3.7.1). */
	KUNIT_EXPECT_EQ(test, a->ctx.snd_mss, 1500 - hdrs);
	KUNIT_EXPECT_EQ(test, p->ctx.snd_mss, 1500 - hdrs);
	/* Both offered window scaling, so each uses the other's shift. */
	KUNIT_EXPECT_EQ(test, a->ctx.snd_wscale, p->ctx.rcv_wscale);
	KUNIT_EXPECT_EQ(test, p->ctx.snd_wscale, a->ctx.rcv_wscale);
	/*
	 * RCV.WND is the window a side offered (RFC 9293 3.3.1), which the
	 * other side holds as its SND.WND once the last segment between
	 * them arrived: not less (3.8.6.2.2: no shrinking), and not more,
	 * or the QP's TCP would take as offered a window the peer never
	 * saw; the QP's TCP opens the window further on its own.
	 */
	KUNIT_EXPECT_GT(test, a->ctx.snd_wnd, 0);
	KUNIT_EXPECT_EQ(test, p->ctx.rcv_wnd, a->ctx.snd_wnd);
	KUNIT_EXPECT_EQ(test, a->ctx.rcv_wnd, p->ctx.snd_wnd);
	KUNIT_EXPECT_EQ(test, a->ctx.ttl, 64);
	if (c->rev == 2) {
		/* RFC 6581: each side's ORD within the other's IRD. */
		KUNIT_EXPECT_LE(test, a->ctx.ord, p->ctx.ird);
		KUNIT_EXPECT_LE(test, p->ctx.ord, a->ctx.ird);
		KUNIT_EXPECT_GT(test, a->ctx.ord, 0);
	}

	KUNIT_EXPECT_EQ(test, madcm_cm_close(a->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], 1));
	cm_expect_events(test, a, want_a, ARRAY_SIZE(want_a));
	cm_expect_events(test, p, want_p, ARRAY_SIZE(want_p));
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[1]), 0);
}

/* A reject carries its private data back and ends both sides cleanly. */
static void cm_connect_reject(struct kunit *test)
{
	const struct hs_case *c = test->param_value;
	static const enum madcm_cm_event_type want_a[] = {
		MADCM_CM_EVENT_REJECTED,
	};
	static const enum madcm_cm_event_type want_p[] = {
		MADCM_CM_EVENT_CONNECT_REQUEST, MADCM_CM_EVENT_CLOSE,
	};
	struct madcm_cm_connect_attr attr;
	struct cm_fix *fix;
	struct cm_rec *a, *p;

	fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 4);
	fix->side[1].policy = CM_TEST_REJECT;
	fix->side[1].reply_pdata = rej_pdata;
	fix->side[1].reply_len = sizeof(rej_pdata);
	cm_listen(test, fix, 1, NULL, LPORT, c->vlan, 2);
	cm_connect_attr(&attr, addr_of(fix, 0, c->ipv4),
			addr_of(fix, 1, c->ipv4), LPORT, c->vlan, c->rev,
			&fix->side[0]);
	attr.private_data = req_pdata;
	attr.private_data_len = sizeof(req_pdata);
	a = cm_connect(test, fix, 0, &attr);

	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], 1));
	p = &fix->side[1].recs[0];
	cm_expect_events(test, a, want_a, ARRAY_SIZE(want_a));
	cm_expect_events(test, p, want_p, ARRAY_SIZE(want_p));
	KUNIT_EXPECT_EQ(test, a->status[0], -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, a->pdata_len, sizeof(rej_pdata));
	KUNIT_EXPECT_STREQ(test, (char *)a->pdata, rej_pdata);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[1], IRDMA_CM_CNT_REJECT_SENT), 1);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_REJECT_RCVD), 1);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/* Port 0 gets an ephemeral port from RFC 6335's dynamic range. */
static void cm_connect_ephemeral_port(struct kunit *test)
{
	struct madcm_cm_connect_attr attr;
	struct cm_fix *fix;
	struct cm_rec *a;

	fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 4);
	cm_listen(test, fix, 1, &fix->v4[1], LPORT, MADCM_CM_NO_VLAN, 2);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_TRUE(test, a->has_ctx);
	KUNIT_EXPECT_GE(test, a->ctx.loc.port, 49152);
	madcm_cm_abort(a->conn);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, a->status[a->nev - 1], -ECONNABORTED);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/*
 * The link may still hold an ephemeral port the connection table has
 * free: the steering entry of a connection just closed goes after its
 * table entry. A connect without a local port then takes another port,
 * as the host stack's connect() does, instead of failing with
 * -EADDRINUSE.
 */
static void cm_connect_ephemeral_port_busy_on_link(struct kunit *test)
{
	struct madcm_cm_connect_attr attr;
	struct cm_fix *fix;
	struct cm_rec *a;

	fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 4);
	cm_listen(test, fix, 1, &fix->v4[1], LPORT, MADCM_CM_NO_VLAN, 2);
	madcm_wire_loop_set_conn_steer_busy(fix->port[0], 3);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_TRUE(test, cm_rec_has(a, MADCM_CM_EVENT_ESTABLISHED));
	madcm_cm_abort(a->conn);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/*
 * An accept whose connection steering entry the link refuses fails with
 * that error and sends nothing: the request still waits for an answer,
 * and a later accept, with room on the link, goes through.
 */
static void cm_accept_reports_steering_failure(struct kunit *test)
{
	struct madcm_cm_accept_attr acc = {};
	struct irdma_cm_seg seg;
	struct cm_fix *fix;
	struct cm_raw raw;
	struct cm_rec *p;
	u32 entries;

	fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_drive(test, fix, &raw, CM_RAW_REQ_RCVD, 33500, LPORT);
	p = &fix->side[0].recs[0];
	entries = madcm_wire_loop_qhash_count(fix->port[0]);

	madcm_wire_loop_set_conn_steer_busy(fix->port[0], 1);
	KUNIT_EXPECT_EQ(test, madcm_cm_accept(p->conn, &acc), -EADDRINUSE);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), entries);
	KUNIT_EXPECT_EQ(test, fix->side[0].terminals, 0);

	KUNIT_ASSERT_EQ(test, madcm_cm_accept(p->conn, &acc), 0);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_GT(test, seg.payload_len, 0);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]),
			entries + 1);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * A SYN to an address or port nobody listens on is answered with a RST
 * (RFC 9293 3.10.7.1): the connect ends in RESET, -ECONNREFUSED.
 */
static void cm_connect_refused(struct kunit *test)
{
	struct madcm_cm_connect_attr attr;
	struct cm_fix *fix;
	struct cm_rec *a, *b;

	fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 4);
	/* Listening on IPv4 10.0.0.2 only. */
	cm_listen(test, fix, 1, &fix->v4[1], LPORT, MADCM_CM_NO_VLAN, 2);
	cm_connect_attr(&attr, &fix->v6[0], &fix->v6[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT + 1,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	b = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, a->status[0], -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, b->ev[0], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_EQ(test, b->status[0], -ECONNREFUSED);
	/*
	 * RFC 9293 3.10.7.1: every SYN to a CLOSED port draws a RST, the
	 * SYNs the connector sent again before the RST reached it (its RTO
	 * fired under load) included: two first SYNs, and each one
	 * retransmitted. The count depends on timing; the relation does not.
	 */
	madcm_wire_loop_quiesce(fix->loop);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[1], IRDMA_CM_CNT_RX_NO_CONN),
			2 + cm_cnt(fix->core[0], IRDMA_CM_CNT_RETRANS));
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/* One listener per (address, port, VLAN); the same port on another VLAN. */
static void cm_listener_keys(struct kunit *test)
{
	struct madcm_cm_listen_attr attr = {
		.addr = { .port = LPORT },
		.vlan_id = MADCM_CM_NO_VLAN,
		.mpa_rev = 2,
		.handler = cm_test_handler,
	};
	struct madcm_cm_listener *l1, *l2, *l3;
	struct cm_fix *fix;

	fix = cm_fix_create(test, 1, false, &cm_test_fast_cfg, 1);
	attr.context = &fix->side[0];
	KUNIT_ASSERT_EQ(test, madcm_cm_create_listener(&fix->core[0]->handle, &attr,
						       &l1), 0);
	KUNIT_EXPECT_EQ(test, madcm_cm_create_listener(&fix->core[0]->handle, &attr,
						       &l2), -EADDRINUSE);
	attr.vlan_id = 5;
	KUNIT_EXPECT_EQ(test, madcm_cm_create_listener(&fix->core[0]->handle, &attr,
						       &l2), 0);
	attr.vlan_id = MADCM_CM_NO_VLAN;
	attr.addr.ip = fix->v4[0];
	KUNIT_EXPECT_EQ(test, madcm_cm_create_listener(&fix->core[0]->handle, &attr,
						       &l3), 0);
	attr.addr.port = 0;
	KUNIT_EXPECT_EQ(test, madcm_cm_create_listener(&fix->core[0]->handle, &attr,
						       &l3), -EINVAL);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 3);
	madcm_cm_destroy_listener(l1);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 2);
	/* The rest go with the core. */
	cm_expect_drained(test, fix->core[0]);
	KUNIT_EXPECT_EQ(test, madcm_wire_loop_qhash_count(fix->port[0]), 0);
}

/* While the neighbour is unresolved the SYN waits for the retry timer. */
static void cm_connect_waits_for_resolution(struct kunit *test)
{
	struct madcm_cm_connect_attr attr;
	struct cm_fix *fix;
	struct cm_rec *a;

	fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 4);
	madcm_wire_loop_set_resolve_delay(fix->port[0], 3);
	cm_listen(test, fix, 1, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_TRUE(test, cm_rec_has(a, MADCM_CM_EVENT_ESTABLISHED));
	KUNIT_EXPECT_GE(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RESOLVE_WAIT), 1);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/* The passive core connects out too: either core plays either role. */
static void cm_connect_other_way(struct kunit *test)
{
	struct madcm_cm_connect_attr attr;
	struct cm_fix *fix;
	struct cm_rec *a, *p;

	fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 4);
	cm_listen(test, fix, 0, &fix->v6[0], LPORT, 12, 2);
	cm_connect_attr(&attr, &fix->v6[1], &fix->v6[0], LPORT, 12, 2,
			&fix->side[1]);
	attr.private_data = req_pdata;
	attr.private_data_len = sizeof(req_pdata);
	a = cm_connect(test, fix, 1, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[1], 2));
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	p = &fix->side[0].recs[0];
	KUNIT_EXPECT_TRUE(test, cm_rec_has(a, MADCM_CM_EVENT_ESTABLISHED));
	KUNIT_EXPECT_TRUE(test, cm_rec_has(p, MADCM_CM_EVENT_ESTABLISHED));
	KUNIT_EXPECT_STREQ(test, (char *)p->pdata, req_pdata);
	KUNIT_EXPECT_EQ(test, p->ctx.vlan_id, 12);
	KUNIT_EXPECT_EQ(test, madcm_cm_close(p->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], 1));
	KUNIT_EXPECT_EQ(test, a->ev[a->nev - 1], MADCM_CM_EVENT_CLOSE);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/*
 * Loopback (the role of irdma_ipv4_is_lpb/irdma_ipv6_is_lpb): both ends on
 * one core, to another of its addresses or to its own address. The two
 * ends are two entries of one connection table, keyed from each side.
 */
static void cm_connect_loopback(struct kunit *test)
{
	static const enum madcm_cm_event_type want_a[] = {
		MADCM_CM_EVENT_CONNECT_REPLY, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_CLOSE,
	};
	static const enum madcm_cm_event_type want_p[] = {
		MADCM_CM_EVENT_CONNECT_REQUEST, MADCM_CM_EVENT_ESTABLISHED,
		MADCM_CM_EVENT_DISCONNECT, MADCM_CM_EVENT_CLOSE,
	};
	struct madcm_cm_connect_attr attr;
	struct in6_addr second;
	struct cm_fix *fix;
	struct cm_rec *a, *p;
	int round, base;

	fix = cm_fix_create(test, 1, false, &cm_test_fast_cfg, 4);
	cm_addr4(&second, 11);
	KUNIT_ASSERT_EQ(test, madcm_wire_loop_add_addr(fix->port[0], &second),
			0);
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	for (round = 0; round < 2; round++) {
		cm_connect_attr(&attr, &fix->v4[0], round ? &fix->v4[0] : &second,
				LPORT, MADCM_CM_NO_VLAN, 2, &fix->side[0]);
		base = READ_ONCE(fix->side[0].events);
		a = cm_connect(test, fix, 0, &attr);
		KUNIT_ASSERT_TRUE(test, cm_wait_nrecs(&fix->side[0], 2 * round + 2));
		p = &fix->side[0].recs[2 * round + 1];
		KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], base + 4));
		KUNIT_EXPECT_TRUE(test, a->has_ctx && p->has_ctx);
		KUNIT_EXPECT_EQ(test, a->ctx.snd_nxt, p->ctx.rcv_nxt);
		KUNIT_EXPECT_EQ(test, a->ctx.rcv_nxt, p->ctx.snd_nxt);
		KUNIT_EXPECT_EQ(test, madcm_cm_close(a->conn), 0);
		KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0],
							  2 * round + 2));
		cm_expect_events(test, a, want_a, ARRAY_SIZE(want_a));
		cm_expect_events(test, p, want_p, ARRAY_SIZE(want_p));
	}
	cm_expect_drained(test, fix->core[0]);
}

/*
 * An active open without a local port picks one as the host's connect()
 * does: within the link's ip_local_port_range, never one of its
 * ip_local_reserved_ports (the wire backend reports both). With the range
 * 40000-40001 and 40001 reserved, the first connection gets 40000 and
 * the second finds no port at all.
 */
static void cm_connect_ephemeral_follows_local_range(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 2, false, &cm_test_quiet_cfg, 4);
	struct madcm_cm_connect_attr attr;
	struct madcm_cm_conn *conn = NULL;
	struct cm_rec *a;
	int ret;

	madcm_wire_loop_set_local_ports(fix->port[0], 40000, 40001, 40001);
	cm_listen(test, fix, 1, &fix->v4[1], LPORT, MADCM_CM_NO_VLAN, 2);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_EXPECT_EQ(test, irdma_cm_node_of(a->conn)->key.loc_port, 40000);
	ret = madcm_cm_connect(&fix->core[0]->handle, &attr, &conn);
	KUNIT_EXPECT_EQ(test, ret, -EADDRNOTAVAIL);
	if (!ret)
		madcm_cm_abort(conn);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_TRUE(test, cm_rec_has(a, MADCM_CM_EVENT_ESTABLISHED));
}

static struct kunit_case cm_handshake_cases[] = {
	KUNIT_CASE_PARAM(cm_connect_accept_close, hs_gen_params),
	KUNIT_CASE_PARAM(cm_connect_reject, hs_gen_params),
	KUNIT_CASE(cm_connect_ephemeral_port),
	KUNIT_CASE(cm_connect_ephemeral_port_busy_on_link),
	KUNIT_CASE(cm_accept_reports_steering_failure),
	KUNIT_CASE(cm_connect_refused),
	KUNIT_CASE(cm_listener_keys),
	KUNIT_CASE(cm_connect_waits_for_resolution),
	KUNIT_CASE(cm_connect_other_way),
	KUNIT_CASE(cm_connect_loopback),
	KUNIT_CASE(cm_connect_ephemeral_follows_local_range),
	{}
};

static struct kunit_suite cm_handshake_suite = {
	.name = "madcm_cm_handshake",
	.test_cases = cm_handshake_cases,
};

kunit_test_suite(cm_handshake_suite);
