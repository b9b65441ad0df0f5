// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: what a connection holds, and when. The MPA frames (RFC 5044
 * 7.1: a 20-octet header and at most 512 octets of private data, RFC
 * 6581's IRD/ORD words and RTR FPDU in its peer-to-peer model) are
 * needed only while the exchange runs: an idle established connection
 * holds nothing but its own state, a connection failing in any state of
 * the exchange gives every buffer back, the consumer still gets the
 * peer's private data intact, and every event still arrives when the
 * buffers cannot be allocated.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "tests/kunit/cm_test_util.h"
#include "tests/kunit/mpa_spec.h"

#define LPORT	4500
#define RPORT	37000
#define BUF	600

/* The CM's setup state of @conn, read under its lock. */
struct mem_view {
	bool setup, tx, rx;
	size_t mem, node;
};

static void mem_view(struct madcm_cm_conn *conn, struct mem_view *v)
{
	struct irdma_cm_node *node = irdma_cm_node_of(conn);

	irdma_cm_node_lock(node);
	v->setup = node->setup;
	v->tx = node->tx_buf;
	v->rx = node->rx_buf;
	v->node = ksize(node);
	irdma_cm_node_unlock(node);
	v->mem = madcm_cm_conn_memory(conn);
}

/*
 * Wait (up to the guard timeout) until the peer's acknowledgment of our
 * last frame is in: only then may the frame go.
 */
static bool mem_wait_tx_freed(struct madcm_cm_conn *conn)
{
	unsigned long end = jiffies + CM_TEST_WAIT;
	struct mem_view v;

	do {
		mem_view(conn, &v);
		if (!v.tx)
			return true;
		msleep(20);
	} while (time_before(jiffies, end));
	return false;
}

struct pdata_case {
	const char *name;
	u8 rev;
	bool p2p;
	u16 len;
};

/* RFC 5044 7.1: 0 to 512 octets; 508 with RFC 6581's 4 (revision 2). */
static const struct pdata_case pdata_cases[] = {
	{ "rev1-len0", 1, false, 0 },
	{ "rev1-len1", 1, false, 1 },
	{ "rev1-len512", 1, false, 512 },
	{ "rev2-len0", 2, false, 0 },
	{ "rev2-len1", 2, false, 1 },
	{ "rev2-len508", 2, false, 508 },
	{ "rev2-p2p-len508", 2, true, 508 },
};

static void pdata_desc(const struct pdata_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pdata, pdata_cases, pdata_desc);

static void mem_pattern(u8 *buf, u16 len, u8 seed)
{
	u16 i;

	for (i = 0; i < len; i++)
		buf[i] = seed + i * 7;
}

/*
 * Core 0 connects to core 1 with @c->len octets of private data, core 1
 * accepts with as many of its own. Each consumer gets the other's octets
 * intact; once established and idle, each connection holds its node
 * alone: no setup context, no frame buffer.
 */
static void cm_mem_idle_established(struct kunit *test)
{
	const struct pdata_case *c = test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 2);
	struct madcm_cm_listen_attr la = {
		.addr = { .ip = in6addr_any, .port = LPORT },
		.vlan_id = MADCM_CM_NO_VLAN,
		.ird = 4, .ord = 4, .mpa_rev = c->rev,
		.peer_to_peer = c->p2p, .rtr_caps = IRDMA_RTR_ALL,
		.handler = cm_test_handler, .context = &fix->side[1],
	};
	struct madcm_cm_connect_attr attr;
	struct madcm_cm_listener *l = NULL;
	struct cm_rec *a, *p;
	struct mem_view v;
	u8 *req, *rep;
	int i;

	req = kunit_kzalloc(test, IETF_MAX_PRIV_DATA_LEN, GFP_KERNEL);
	rep = kunit_kzalloc(test, IETF_MAX_PRIV_DATA_LEN, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, req && rep);
	mem_pattern(req, c->len, 0x11);
	mem_pattern(rep, c->len, 0xa5);
	KUNIT_ASSERT_EQ(test, madcm_cm_create_listener(&fix->core[1]->handle,
						       &la, &l), 0);
	fix->side[1].reply_pdata = rep;
	fix->side[1].reply_len = c->len;
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, c->rev, &fix->side[0]);
	attr.private_data = req;
	attr.private_data_len = c->len;
	attr.peer_to_peer = c->p2p;
	attr.rtr_caps = IRDMA_RTR_ALL;
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[1], 2));
	p = &fix->side[1].recs[0];
	KUNIT_ASSERT_EQ(test, a->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, p->ev[1], MADCM_CM_EVENT_ESTABLISHED);

	KUNIT_ASSERT_EQ(test, p->pdata_len, c->len);
	SPEC_EXPECT_MEMEQ(test, p->pdata, req, c->len);
	KUNIT_ASSERT_EQ(test, a->pdata_len, c->len);
	SPEC_EXPECT_MEMEQ(test, a->pdata, rep, c->len);

	for (i = 0; i < 2; i++) {
		struct madcm_cm_conn *conn = i ? p->conn : a->conn;

		/* Gone before the consumer heard ESTABLISHED. */
		mem_view(conn, &v);
		KUNIT_EXPECT_FALSE_MSG(test, v.setup, "side %d", i);
		KUNIT_EXPECT_FALSE_MSG(test, v.rx, "side %d", i);
		KUNIT_EXPECT_TRUE_MSG(test, mem_wait_tx_freed(conn), "side %d",
				      i);
		mem_view(conn, &v);
		KUNIT_EXPECT_EQ_MSG(test, v.mem, v.node, "side %d", i);
		/*
		 * The figure Documentation/irdma_cm.rst and the CM bench
		 * give: an idle connection is one object of at most 1 KiB.
		 * Lock debugging, on in .kunitconfig, makes every lock and
		 * timer larger; without it (and in every build of the
		 * module, by a BUILD_BUG_ON in cm_core.c) the bound holds.
		 */
		if (!IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC) &&
		    !IS_ENABLED(CONFIG_DEBUG_SPINLOCK) &&
		    !IS_ENABLED(CONFIG_DEBUG_OBJECTS))
			KUNIT_EXPECT_LE_MSG(test, v.mem, (size_t)1024,
					    "side %d", i);
		else
			KUNIT_EXPECT_LE_MSG(test, v.mem, (size_t)4096,
					    "side %d", i);
		KUNIT_EXPECT_EQ_MSG(test,
				    atomic_read(&fix->core[i]->setup_bufs), 0,
				    "side %d", i);
	}
	madcm_cm_destroy_listener(l);
	for (i = 0; i < 2; i++)
		cm_expect_drained(test, fix->core[i]);
}

/* Where the exchange stands when the peer resets the connection. */
enum mem_fail_at {
	FAIL_REQUEST_PARTIAL,	/* responder, part of the request in */
	FAIL_REQUEST_RCVD,	/* responder, the consumer deciding */
	FAIL_REPLY_UNACKED,	/* responder, reply sent, not acknowledged */
	FAIL_RTR_PARTIAL,	/* peer-to-peer responder, part of the RTR */
	FAIL_REPLY_PARTIAL,	/* initiator, part of the reply in */
};

struct mem_fail_case {
	const char *name;
	enum mem_fail_at at;
	bool consumer;		/* the consumer holds the connection */
};

static const struct mem_fail_case mem_fail_cases[] = {
	{ "responder-request-partial", FAIL_REQUEST_PARTIAL, false },
	{ "responder-request-received", FAIL_REQUEST_RCVD, true },
	{ "responder-reply-unacked", FAIL_REPLY_UNACKED, true },
	{ "responder-rtr-partial", FAIL_RTR_PARTIAL, true },
	{ "initiator-reply-partial", FAIL_REPLY_PARTIAL, true },
};

static void mem_fail_desc(const struct mem_fail_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mem_fail, mem_fail_cases, mem_fail_desc);

static void mem_send(struct kunit *test, struct cm_raw *raw, const u8 *buf,
		     u32 n)
{
	cm_raw_send(test, raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw->snd_nxt,
		    raw->rcv_nxt, buf, n, false);
	raw->snd_nxt += n;
}

/* The raw port, as responder, takes core 0's SYN and MPA request. */
static void mem_raw_responder(struct kunit *test, struct cm_fix *fix,
			      struct cm_raw *raw, u8 *buf)
{
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;

	cm_raw_init(raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 1, &fix->side[0]);
	attr.loc.port = LPORT;
	cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, raw, &seg, NULL, 0));
	raw->rcv_nxt = seg.seq + 1;
	raw->snd_nxt = raw->iss + 1;
	cm_raw_send(test, raw, IRDMA_TCP_SYN | IRDMA_TCP_ACK, raw->iss,
		    raw->rcv_nxt, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, buf, BUF));
	raw->rcv_nxt += seg.payload_len;
}

/*
 * The peer resets the connection in each state of the exchange. The
 * state holds buffers; afterwards none is left (and KASAN sees no use of
 * a freed one), and a consumer holding the connection hears RESET.
 */
static void cm_mem_fail_frees(struct kunit *test)
{
	const struct mem_fail_case *c = test->param_value;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_listen_attr la = {
		.addr = { .ip = in6addr_any, .port = LPORT },
		.vlan_id = MADCM_CM_NO_VLAN,
		.ird = 4, .ord = 4, .mpa_rev = 2,
		.peer_to_peer = c->at == FAIL_RTR_PARTIAL,
		.rtr_caps = IRDMA_RTR_ALL,
		.handler = cm_test_handler, .context = &fix->side[0],
	};
	/* RFC 6581: A asks for the peer-to-peer model, B offers a Send RTR. */
	struct spec_frame req = {
		.request = true, .s = true, .rev = 2,
		.pd_len = SPEC_RTR_LEN + 3, .rtr_words = true,
		.a = c->at == FAIL_RTR_PARTIAL, .b = c->at == FAIL_RTR_PARTIAL,
		.ird = 4, .ord = 4, .ulp = (const u8 *)"abc", .ulp_len = 3,
	};
	struct madcm_cm_listener *l = NULL;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	struct cm_rec *r;
	u8 *buf;
	u32 n;

	buf = kunit_kzalloc(test, BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	if (c->at == FAIL_REPLY_PARTIAL) {
		mem_raw_responder(test, fix, &raw, buf);
		cm_raw_mpa_frame(buf, false, false, 1, "xyz", 3, 0, 0);
		/* The header's first 10 octets (RFC 5044 7.1: 20 in all). */
		mem_send(test, &raw, buf, 10);
	} else {
		KUNIT_ASSERT_EQ(test,
				madcm_cm_create_listener(&fix->core[0]->handle,
							 &la, &l), 0);
		fix->side[0].policy = c->at == FAIL_REQUEST_RCVD ?
				      CM_TEST_HOLD : CM_TEST_ACCEPT;
		cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
		cm_raw_open(test, &raw);
		n = spec_write(buf, &req);
		mem_send(test, &raw, buf, c->at == FAIL_REQUEST_PARTIAL ? 10 : n);
		if (c->at != FAIL_REQUEST_PARTIAL)
			KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 1));
		if (c->at == FAIL_REPLY_UNACKED || c->at == FAIL_RTR_PARTIAL) {
			KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg,
								 buf, BUF));
			raw.rcv_nxt += seg.payload_len;
		}
		if (c->at == FAIL_RTR_PARTIAL) {
			/* One octet of the RTR FPDU's length field. */
			buf[0] = 0;
			mem_send(test, &raw, buf, 1);
		}
	}
	/* Wait for the segment to be taken: the core acknowledges it. */
	if (c->at == FAIL_REQUEST_PARTIAL || c->at == FAIL_REPLY_PARTIAL ||
	    c->at == FAIL_RTR_PARTIAL)
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_GT(test, atomic_read(&fix->core[0]->setup_bufs), 0);

	/*
	 * RFC 5961 3.2: a RST is taken only at RCV.NXT; a partial RTR FPDU
	 * is not acknowledged (RFC 6581 4: the responder's ULP reads it
	 * whole), so RCV.NXT is still before it.
	 */
	if (c->at == FAIL_RTR_PARTIAL)
		raw.snd_nxt--;
	cm_raw_send(test, &raw, IRDMA_TCP_RST | IRDMA_TCP_ACK, raw.snd_nxt,
		    raw.rcv_nxt, NULL, 0, false);
	if (c->consumer) {
		KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
		r = &fix->side[0].recs[0];
		KUNIT_EXPECT_EQ(test, r->ev[r->nev - 1], MADCM_CM_EVENT_RESET);
	}
	if (l)
		madcm_cm_destroy_listener(l);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * No frame buffer can be had for a while: what arrived is dropped
 * unacknowledged and counted, the peer sends it again, and every event
 * of both sides still comes, in order.
 */
static void cm_mem_events_survive_alloc_failure(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 2, false, &cm_test_fast_cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct cm_rec *a, *p;

	cm_listen(test, fix, 1, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	/* The responder's first three, the initiator's first three. */
	atomic_set(&fix->core[1]->fail_rx, 3);
	atomic_set(&fix->core[0]->fail_rx, 3);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_events_progress(&fix->side[0], 2));
	KUNIT_ASSERT_TRUE(test, cm_wait_events_progress(&fix->side[1], 2));
	p = &fix->side[1].recs[0];
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, p->ev[0], MADCM_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, p->ev[1], MADCM_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_GT(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_NOMEM), 0);
	KUNIT_EXPECT_GT(test, cm_cnt(fix->core[1], IRDMA_CM_CNT_NOMEM), 0);

	KUNIT_ASSERT_EQ(test, madcm_cm_close(a->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[1], 1));
	KUNIT_EXPECT_EQ(test, a->ev[a->nev - 1], MADCM_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, p->ev[p->nev - 1], MADCM_CM_EVENT_CLOSE);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

/*
 * No frame buffer at all on the initiator: the reply never gets in.
 * The connection ends on the MPA timeout, and the terminal event, whose
 * slot was set aside with the connection, still reaches the consumer.
 */
static void cm_mem_terminal_without_memory(struct kunit *test)
{
	struct madcm_cm_config cfg = cm_test_fast_cfg;
	struct cm_fix *fix;
	struct madcm_cm_connect_attr attr;
	struct cm_rec *a;

	cfg.mpa_timeout_ms = 200;
	fix = cm_fix_create(test, 2, false, &cfg, 2);
	cm_listen(test, fix, 1, NULL, LPORT, MADCM_CM_NO_VLAN, 2);
	atomic_set(&fix->core[0]->fail_rx, INT_MAX);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], LPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	a = cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0], MADCM_CM_EVENT_RESET);
	KUNIT_EXPECT_GT(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_NOMEM), 0);
	atomic_set(&fix->core[0]->fail_rx, 0);
	cm_expect_drained(test, fix->core[0]);
	cm_expect_drained(test, fix->core[1]);
}

static struct kunit_case cm_mem_cases[] = {
	KUNIT_CASE_PARAM(cm_mem_idle_established, pdata_gen_params),
	KUNIT_CASE_PARAM(cm_mem_fail_frees, mem_fail_gen_params),
	KUNIT_CASE(cm_mem_events_survive_alloc_failure),
	KUNIT_CASE(cm_mem_terminal_without_memory),
	{}
};

static struct kunit_suite cm_mem_suite = {
	.name = "madcm_cm_mem",
	.test_cases = cm_mem_cases,
};

kunit_test_suite(cm_mem_suite);
