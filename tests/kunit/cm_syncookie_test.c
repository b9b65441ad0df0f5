// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: a listener under SYN and idle-handshake floods. A full backlog
 * answers a SYN with a SYN cookie (RFC 4987 3.6): a stateless SYN-ACK
 * whose ISN the final ACK must bring back; a connection that completes
 * through a cookie takes the slot of the oldest connection that has not
 * sent its MPA request yet, which is reset.
 */
#include <kunit/test.h>
#include <linux/siphash.h>
#include <linux/string.h>
#include "irdma_cm/syncookie.h"
#include "tests/kunit/cm_test_util.h"

#define LPORT	4300
#define RPORT	35000

static const siphash_key_t test_key = {
	{ 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL }
};

static void test_tuple(struct irdma_cm_tuple *t)
{
	memset(t, 0, sizeof(*t));
	ipv6_addr_set_v4mapped(htonl(0xc0000201), &t->loc_ip);
	ipv6_addr_set_v4mapped(htonl(0xc0000202), &t->rem_ip);
	t->loc_port = 4791;
	t->rem_port = 40000;
	t->vlan_id = IRDMA_NO_VLAN;
}

/*
 * The cookie from its definition (syncookie.h, irdma_cm_netdev.rst): the
 * low 32 bits of SipHash-2-4 over the 48-byte input, bits 31..8 kept, then
 * the counter modulo 32 in bits 7..3 and the MSS index in bits 2..0.
 */
static u32 cookie_by_definition(const struct irdma_cm_tuple *t, u32 peer_isn,
				u32 count, u8 idx)
{
	u8 in[48] = {};
	u16 v16;
	u32 h;

	memcpy(in, &t->loc_ip, 16);
	memcpy(in + 16, &t->rem_ip, 16);
	memcpy(in + 32, &t->loc_port, 2);
	memcpy(in + 34, &t->rem_port, 2);
	memcpy(in + 36, &t->vlan_id, 2);
	v16 = idx;
	memcpy(in + 38, &v16, 2);
	memcpy(in + 40, &peer_isn, 4);
	memcpy(in + 44, &count, 4);
	h = (u32)siphash(in, sizeof(in), &test_key);
	return (h & 0xffffff00) | ((count % 32) << 3) | idx;
}

static void cm_syncookie_encodes(struct kunit *test)
{
	struct irdma_cm_tuple t;
	u32 count;
	u8 idx;

	test_tuple(&t);
	for (count = 1000; count < 1040; count += 7)
		for (idx = 0; idx < IRDMA_SYNCOOKIE_NR_MSS; idx++)
			KUNIT_EXPECT_EQ(test,
					irdma_syncookie_make(&test_key, &t,
							     0x12345678, count,
							     idx),
					cookie_by_definition(&t, 0x12345678,
							     count, idx));
}

/* Good in its own period and the next one; the MSS index comes back. */
static void cm_syncookie_validates(struct kunit *test)
{
	struct irdma_cm_tuple t;
	u32 c, count = 77777;
	u8 idx = 0xff;

	test_tuple(&t);
	c = cookie_by_definition(&t, 0xfffffff0, count, 6);
	KUNIT_EXPECT_TRUE(test, irdma_syncookie_check(&test_key, &t, 0xfffffff0,
						      c, count, &idx));
	KUNIT_EXPECT_EQ(test, idx, 6);
	idx = 0xff;
	KUNIT_EXPECT_TRUE(test, irdma_syncookie_check(&test_key, &t, 0xfffffff0,
						      c, count + 1, &idx));
	KUNIT_EXPECT_EQ(test, idx, 6);
	/* Across the wrap of the 5-bit counter field. */
	c = cookie_by_definition(&t, 1, 31, 2);
	KUNIT_EXPECT_TRUE(test, irdma_syncookie_check(&test_key, &t, 1, c, 32,
						      &idx));
	KUNIT_EXPECT_EQ(test, idx, 2);
}

enum cookie_fault {
	WRONG_LOC_IP, WRONG_REM_IP, WRONG_LOC_PORT, WRONG_REM_PORT, WRONG_VLAN,
	WRONG_PEER_ISN, EXPIRED, EXPIRED_LONG_AGO, FROM_FUTURE, WRONG_MSS_IDX,
	HASH_BIT,
};

struct cookie_refusal {
	enum cookie_fault fault;
	const char *desc;
};

static const struct cookie_refusal cookie_refusals[] = {
	{ WRONG_LOC_IP, "another local address" },
	{ WRONG_REM_IP, "another peer address" },
	{ WRONG_LOC_PORT, "another local port" },
	{ WRONG_REM_PORT, "another peer port" },
	{ WRONG_VLAN, "another VLAN" },
	{ WRONG_PEER_ISN, "another peer ISN" },
	{ EXPIRED, "counter two periods old" },
	{ EXPIRED_LONG_AGO, "counter 32 periods old (field wraps)" },
	{ FROM_FUTURE, "counter one period ahead" },
	{ WRONG_MSS_IDX, "MSS index bits changed" },
	{ HASH_BIT, "one hash bit flipped" },
};

static void cookie_refusal_desc(const struct cookie_refusal *r, char *desc)
{
	strscpy(desc, r->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cookie_refusal, cookie_refusals, cookie_refusal_desc);

static void cm_syncookie_refuses(struct kunit *test)
{
	const struct cookie_refusal *r = test->param_value;
	struct irdma_cm_tuple t, made;
	u32 count = 5000, now = 5000, isn = 42, c;
	u8 idx = 0xff;

	test_tuple(&t);
	made = t;
	c = cookie_by_definition(&made, isn, count, 3);
	switch (r->fault) {
	case WRONG_LOC_IP:
		t.loc_ip.s6_addr[15] ^= 1;
		break;
	case WRONG_REM_IP:
		t.rem_ip.s6_addr[15] ^= 1;
		break;
	case WRONG_LOC_PORT:
		t.loc_port++;
		break;
	case WRONG_REM_PORT:
		t.rem_port++;
		break;
	case WRONG_VLAN:
		t.vlan_id = 5;
		break;
	case WRONG_PEER_ISN:
		isn++;
		break;
	case EXPIRED:
		now = count + 2;
		break;
	case EXPIRED_LONG_AGO:
		now = count + 32;
		break;
	case FROM_FUTURE:
		now = count - 1;
		break;
	case WRONG_MSS_IDX:
		c = (c & ~7u) | 4;
		break;
	case HASH_BIT:
		c ^= BIT(20);
		break;
	}
	KUNIT_EXPECT_FALSE(test, irdma_syncookie_check(&test_key, &t, isn, c,
						       now, &idx));
	KUNIT_EXPECT_EQ(test, idx, 0xff);
}

/* The largest MSS of the table not above the peer's. */
static void cm_syncookie_mss_index(struct kunit *test)
{
	static const struct { u16 peer, want; } grid[] = {
		{ 64, 64 }, { 535, 64 }, { 536, 536 }, { 1219, 536 },
		{ 1220, 1220 }, { 1459, 1440 }, { 1460, 1460 },
		{ 8959, 1460 }, { 8960, 8960 }, { 65535, 8960 },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(grid); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    irdma_syncookie_mss[irdma_syncookie_mss_idx(grid[i].peer)],
				    grid[i].want, "peer MSS %u", grid[i].peer);
}

static struct madcm_cm_listener *listen_backlog(struct kunit *test,
						struct cm_fix *fix, u32 backlog)
{
	struct madcm_cm_listen_attr la = {
		.addr = { .port = LPORT },
		.vlan_id = MADCM_CM_NO_VLAN,
		.backlog = backlog,
		.mpa_rev = 1,
		.handler = cm_test_handler,
		.context = &fix->side[0],
	};
	struct madcm_cm_listener *l;

	KUNIT_ASSERT_EQ(test, madcm_cm_create_listener(&fix->core[0]->handle,
						       &la, &l), 0);
	return l;
}

/* A SYN from @port; returns the SYN-ACK's sequence number (its ISN). */
static u32 syn_from(struct kunit *test, struct cm_raw *raw, u16 port)
{
	struct irdma_cm_seg seg;

	raw->tmpl.src.port = port;
	cm_raw_send(test, raw, IRDMA_TCP_SYN, raw->iss, 0, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_ASSERT_EQ(test, seg.dst.port, port);
	KUNIT_EXPECT_EQ(test, seg.ack, raw->iss + 1);
	return seg.seq;
}

/* The MPA request from @port; the reply must come back. */
static void request_from(struct kunit *test, struct cm_raw *raw, u16 port,
			 u32 rcv_nxt)
{
	struct irdma_cm_seg seg;
	u8 frame[64], reply[64];
	u32 n;

	raw->tmpl.src.port = port;
	n = cm_raw_mpa_frame(frame, true, false, 1, "hi", 2, 0, 0);
	cm_raw_send(test, raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw->iss + 1,
		    rcv_nxt, frame, n, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, reply,
						 sizeof(reply)));
	KUNIT_EXPECT_EQ(test, seg.dst.port, port);
	KUNIT_EXPECT_GT(test, seg.payload_len, 0);
	/* RFC 5044 7.1: the reply's key. */
	KUNIT_EXPECT_EQ(test, memcmp(reply, "MPA ID Rep Frame", 16), 0);
}

/*
 * Backlog 2, two SYNs hold it. The third SYN still gets a SYN-ACK, but
 * no state: the node count stays at two. RFC 4987 3.6: the cookie
 * SYN-ACK can carry no option the CM could not rebuild from the ACK, so
 * it offers no window scaling (RFC 7323 2.2: neither side then scales),
 * but it does carry an MSS.
 */
static void cm_syncookie_full_backlog_answers(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 8);
	struct madcm_cm_listener *l = listen_backlog(test, fix, 2);
	struct irdma_cm_seg seg;
	struct cm_raw raw;

	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	syn_from(test, &raw, RPORT);
	syn_from(test, &raw, RPORT + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->core[0]->live_nodes), 2);

	raw.tmpl.src.port = RPORT + 2;
	cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.iss, 0, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.dst.port, RPORT + 2);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.iss + 1);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_mss);
	KUNIT_EXPECT_FALSE(test, seg.opts.has_wscale);
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->core[0]->live_nodes), 2);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_BACKLOG_DROP), 0);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_SYN_COOKIE_SENT),
			1);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	madcm_cm_destroy_listener(l);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * The ACK of a cookie SYN-ACK creates the connection, in the slot of the
 * oldest half-open one (reset), and the MPA exchange runs on it.
 */
static void cm_syncookie_ack_connects(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 8);
	struct madcm_cm_listener *l = listen_backlog(test, fix, 2);
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	u32 cookie;

	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	syn_from(test, &raw, RPORT);
	syn_from(test, &raw, RPORT + 1);
	cookie = syn_from(test, &raw, RPORT + 2);

	/* RFC 9293 3.10.7.1: an ACK of no cookie of ours gets a RST. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.iss + 1, cookie + 2, NULL, 0,
		    false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, seg.seq, cookie + 2);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_SYN_COOKIE_BAD),
			1);
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->core[0]->live_nodes), 2);

	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.iss + 1, cookie + 1, NULL, 0,
		    false);
	/* The oldest half-open connection (RPORT) makes room. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_TRUE(test, seg.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, seg.dst.port, RPORT);
	/* The evicted node may await its (unreported) event: count slots. */
	KUNIT_EXPECT_EQ(test, atomic_read(&irdma_cm_listener_of(l)->pending), 2);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_SYN_COOKIE_OK), 1);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_BACKLOG_EVICTED),
			1);

	request_from(test, &raw, RPORT + 2, cookie + 1);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ev[0],
			MADCM_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, fix->side[0].recs[0].ev[1],
			MADCM_CM_EVENT_ESTABLISHED);
	madcm_cm_destroy_listener(l);
	cm_expect_drained(test, fix->core[0]);
}

/*
 * Idle handshakes (no MPA request) fill the backlog. A connection that
 * completes through a cookie evicts the oldest of them, not a younger
 * one, and the younger one still gets its MPA exchange.
 */
static void cm_syncookie_evicts_oldest_idle(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 8);
	struct madcm_cm_listener *l = listen_backlog(test, fix, 2);
	u32 isn0, isn1, cookie;
	struct irdma_cm_seg seg;
	struct cm_raw raw;

	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	isn0 = syn_from(test, &raw, RPORT);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.iss + 1, isn0 + 1, NULL, 0,
		    false);
	isn1 = syn_from(test, &raw, RPORT + 1);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.iss + 1, isn1 + 1, NULL, 0,
		    false);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));

	cookie = syn_from(test, &raw, RPORT + 2);
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.iss + 1, cookie + 1, NULL, 0,
		    false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_TRUE(test, seg.flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, seg.dst.port, RPORT);
	/* RFC 9293 3.10.7.4: the RST carries the evicted one's SND.NXT. */
	KUNIT_EXPECT_EQ(test, seg.seq, isn0 + 1);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_BACKLOG_EVICTED),
			1);

	request_from(test, &raw, RPORT + 1, isn1 + 1);
	request_from(test, &raw, RPORT + 2, cookie + 1);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 4));
	KUNIT_EXPECT_EQ(test, fix->side[0].nrecs, 2);
	madcm_cm_destroy_listener(l);
	cm_expect_drained(test, fix->core[0]);
}

static struct kunit_case cm_syncookie_cases[] = {
	KUNIT_CASE(cm_syncookie_encodes),
	KUNIT_CASE(cm_syncookie_validates),
	KUNIT_CASE_PARAM(cm_syncookie_refuses, cookie_refusal_gen_params),
	KUNIT_CASE(cm_syncookie_mss_index),
	KUNIT_CASE(cm_syncookie_full_backlog_answers),
	KUNIT_CASE(cm_syncookie_ack_connects),
	KUNIT_CASE(cm_syncookie_evicts_oldest_idle),
	{}
};

static struct kunit_suite cm_syncookie_suite = {
	.name = "madcm_cm_syncookie",
	.test_cases = cm_syncookie_cases,
};

kunit_test_suite(cm_syncookie_suite);
