// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the TCP options beyond MSS and window scale that the CM offers
 * when its consumer asks (MADCM_CM_TCP_TS, MADCM_CM_TCP_SACK), for the
 * engine that carries the stream afterwards: SACK-permitted (RFC 2018 2)
 * and timestamps (RFC 7323 3, 4.3, 5.3). The expected bytes and numbers
 * come from those sections, not from the CM.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include "tests/kunit/cm_test_util.h"
#include "tests/kunit/mpa_spec.h"

#define LPORT	4400
#define RPORT	36000

/* The peer's timestamp clock, well away from zero and from wrapping. */
#define PEER_TS	0x7000a000U

/* RFC 793 3.1: the TCP header's data offset, in 32-bit words. */
static u32 doff_bytes(const u8 *tcp)
{
	return (tcp[12] >> 4) * 4;
}

/*
 * RFC 7323 appendix A's layout: a SYN with MSS, SACK-permitted,
 * timestamps and window scale takes 20 bytes of options (doff 10); a
 * later segment with timestamps alone, two NOPs and the option (doff 8).
 */
static void tcp_opts_wire_layout(struct kunit *test)
{
	static const u8 syn_opts[20] = {
		2, 4, 0x05, 0xb4,		/* MSS 1460 */
		4, 2,				/* SACK-permitted */
		8, 10, 0x11, 0x22, 0x33, 0x44,	/* TSval */
		0, 0, 0, 0,			/* TSecr */
		1, 3, 3, 7,			/* NOP, window scale 7 */
	};
	static const u8 ack_opts[12] = {
		1, 1, 8, 10, 0xa1, 0xa2, 0xa3, 0xa4, 0x11, 0x22, 0x33, 0x44,
	};
	struct irdma_cm_seg seg = {}, back;
	u8 frame[128];
	const u8 *tcp;
	int n;

	seg.ipv4 = true;
	cm_addr4(&seg.src.ip, 1);
	cm_addr4(&seg.dst.ip, 2);
	seg.src.port = RPORT;
	seg.dst.port = LPORT;
	seg.ttl = 64;
	seg.flags = IRDMA_TCP_SYN;
	seg.opts = (struct irdma_tcp_opts){
		.has_mss = true, .mss = 1460,
		.has_sack_perm = true,
		.has_ts = true, .tsval = 0x11223344,
		.has_wscale = true, .wscale = 7,
	};
	n = irdma_cm_build_seg(&seg, frame, sizeof(frame));
	tcp = frame + ETH_HLEN + 20;
	KUNIT_ASSERT_EQ(test, n, ETH_HLEN + 20 + 20 + 20);
	KUNIT_EXPECT_EQ(test, doff_bytes(tcp), 40);
	KUNIT_EXPECT_EQ(test, memcmp(tcp + 20, syn_opts, sizeof(syn_opts)), 0);
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_seg(frame, n, &back), IRDMA_SEG_OK);
	KUNIT_EXPECT_TRUE(test, back.opts.has_sack_perm);
	KUNIT_EXPECT_TRUE(test, back.opts.has_ts);
	KUNIT_EXPECT_EQ(test, back.opts.tsval, 0x11223344);
	KUNIT_EXPECT_EQ(test, back.opts.tsecr, 0);

	seg.flags = IRDMA_TCP_ACK;
	seg.opts = (struct irdma_tcp_opts){
		.has_ts = true, .tsval = 0xa1a2a3a4, .tsecr = 0x11223344,
	};
	n = irdma_cm_build_seg(&seg, frame, sizeof(frame));
	KUNIT_ASSERT_EQ(test, n, ETH_HLEN + 20 + 20 + 12);
	KUNIT_EXPECT_EQ(test, doff_bytes(tcp), 32);
	KUNIT_EXPECT_EQ(test, memcmp(tcp + 20, ack_opts, sizeof(ack_opts)), 0);
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_seg(frame, n, &back), IRDMA_SEG_OK);
	KUNIT_EXPECT_EQ(test, back.opts.tsval, 0xa1a2a3a4);
	KUNIT_EXPECT_EQ(test, back.opts.tsecr, 0x11223344);
}

/*
 * RFC 2018 2: SACK-permitted counts in a SYN only. RFC 7323 3.2: the
 * timestamps option is 10 bytes long. RFC 2018 3: a SACK option holds
 * 1 to 4 blocks of 8 bytes. Other lengths are malformed headers.
 */
static void tcp_opts_parse_rules(struct kunit *test)
{
	static const u8 sack_perm_late[4] = { 1, 1, 4, 2 };
	static const u8 ts_short[12] = { 1, 1, 8, 9, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const u8 sack_one[12] = { 1, 1, 5, 10, 0, 0, 0, 1, 0, 0, 0, 2 };
	static const u8 sack_odd[12] = { 1, 1, 5, 9, 0, 0, 0, 1, 0, 0, 0, 1 };
	static const u8 sack_none[4] = { 1, 1, 5, 2 };
	struct irdma_tcp_opts o;

	KUNIT_EXPECT_EQ(test, irdma_process_options(sack_perm_late, 4, false,
						    &o), 0);
	KUNIT_EXPECT_FALSE(test, o.has_sack_perm);
	KUNIT_EXPECT_EQ(test, irdma_process_options(sack_perm_late, 4, true,
						    &o), 0);
	KUNIT_EXPECT_TRUE(test, o.has_sack_perm);
	KUNIT_EXPECT_EQ(test, irdma_process_options(ts_short, 12, false, &o),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_process_options(sack_one, 12, false, &o), 0);
	KUNIT_EXPECT_TRUE(test, o.has_sack);
	KUNIT_EXPECT_EQ(test, irdma_process_options(sack_odd, 12, false, &o),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_process_options(sack_none, 4, false, &o),
			-EINVAL);
}

static struct madcm_cm_listener *opts_listen(struct kunit *test,
					     struct cm_fix *fix, u16 port,
					     u8 tcp_opts)
{
	struct madcm_cm_listen_attr attr = {
		.addr = { .ip = in6addr_any, .port = port },
		.vlan_id = MADCM_CM_NO_VLAN,
		.ird = 16,
		.ord = 16,
		.mpa_rev = 1,
		.tcp_opts = tcp_opts,
		.handler = cm_test_handler,
		.context = &fix->side[0],
	};
	struct madcm_cm_listener *l = NULL;

	KUNIT_ASSERT_EQ(test, madcm_cm_create_listener(&fix->core[0]->handle,
						       &attr, &l), 0);
	return l;
}

/* The raw peer's MSS: small, so that CM data needs several segments. */
#define PEER_MSS	300

/* The raw peer's SYN: MSS, window scale 7, and the options given. */
static void peer_syn(struct kunit *test, struct cm_raw *raw, bool ts,
		     bool sack)
{
	raw->tmpl.opts = (struct irdma_tcp_opts){
		.has_mss = true, .mss = PEER_MSS,
		.has_wscale = true, .wscale = 7,
		.has_sack_perm = sack,
		.has_ts = ts, .tsval = PEER_TS,
	};
	cm_raw_send(test, raw, IRDMA_TCP_SYN, raw->iss, 0, NULL, 0, false);
	raw->tmpl.opts.has_mss = false;
	raw->tmpl.opts.has_wscale = false;
	raw->tmpl.opts.has_sack_perm = false;
	raw->snd_nxt = raw->iss + 1;
}

/*
 * A listener that offers both, a peer that offers both: the SYN-ACK
 * carries SACK-permitted and timestamps, echoing the SYN's TSval (RFC
 * 7323 3.2); every later segment carries timestamps, and TS.Recent moves
 * to the TSval of the newest segment at or before Last.ACK.sent (4.3).
 * Data segments leave room for the option: the peer's MSS (300) less 12
 * (RFC 6691 3: the MSS counts no TCP options).
 */
static void tcp_opts_passive_agrees(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	u8 req[64], reply[SPEC_MAX_PD];
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	u32 synack_ts, n;

	/* The test's handler accepts with a reply of 20 + 512 bytes. */
	memset(reply, 0x5a, sizeof(reply));
	fix->side[0].reply_pdata = reply;
	fix->side[0].reply_len = sizeof(reply);
	opts_listen(test, fix, LPORT, MADCM_CM_TCP_TS | MADCM_CM_TCP_SACK);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	peer_syn(test, &raw, true, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_sack_perm);
	KUNIT_ASSERT_TRUE(test, seg.opts.has_ts);
	KUNIT_EXPECT_EQ(test, seg.opts.tsecr, PEER_TS);
	synack_ts = seg.opts.tsval;
	raw.rcv_nxt = seg.seq + 1;

	/* The handshake's ACK, then the MPA request, each a tick later. */
	raw.tmpl.opts.tsval = PEER_TS + 1;
	raw.tmpl.opts.tsecr = synack_ts;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt,
		    NULL, 0, false);
	n = cm_raw_mpa_frame(req, true, false, 1, "hi", 2, 0, 0);
	raw.tmpl.opts.tsval = PEER_TS + 2;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, req, n, false);
	raw.snd_nxt += n;
	/* The ACK of the request echoes the request's TSval. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	KUNIT_ASSERT_TRUE(test, seg.opts.has_ts);
	KUNIT_EXPECT_EQ(test, seg.opts.tsecr, PEER_TS + 2);
	KUNIT_EXPECT_GE(test, (s32)(seg.opts.tsval - synack_ts), 0);

	/* The reply, 532 bytes: segments of 288, then the rest. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_TRUE(test, seg.opts.has_ts);
	KUNIT_EXPECT_EQ(test, seg.payload_len, PEER_MSS - 12);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.payload_len,
			SPEC_HDR_LEN + SPEC_MAX_PD - (PEER_MSS - 12));
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_PAWS_DROP), 0);
}

/*
 * A peer that offers neither gets neither, and no segment of the CM
 * carries timestamps; nor does a listener that was not asked to offer
 * them take them up when the peer offers.
 */
static void tcp_opts_only_when_both(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_seg seg;
	struct cm_raw raw;

	opts_listen(test, fix, LPORT, MADCM_CM_TCP_TS | MADCM_CM_TCP_SACK);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	peer_syn(test, &raw, false, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_FALSE(test, seg.opts.has_sack_perm);
	KUNIT_EXPECT_FALSE(test, seg.opts.has_ts);
	raw.rcv_nxt = seg.seq + 1;
	/* Data the CM acknowledges: still no timestamps. */
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, "MPA ", 4, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt + 4);
	KUNIT_EXPECT_FALSE(test, seg.opts.has_ts);

	cm_raw_init(&raw, fix, 0, true, RPORT + 1, LPORT + 1,
		    MADCM_CM_NO_VLAN);
	opts_listen(test, fix, LPORT + 1, 0);
	peer_syn(test, &raw, true, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_FALSE(test, seg.opts.has_sack_perm);
	KUNIT_EXPECT_FALSE(test, seg.opts.has_ts);
}

/*
 * RFC 7323 5.3 (R1): with timestamps agreed, a segment whose TSval is
 * older than TS.Recent is not acceptable: it is acknowledged and
 * dropped, its data not taken. RFC 7323 3.2: one without timestamps is
 * dropped. A RST is judged by its sequence number alone.
 */
static void tcp_opts_paws(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_seg seg;
	struct cm_raw raw;

	opts_listen(test, fix, LPORT, MADCM_CM_TCP_TS);
	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	peer_syn(test, &raw, true, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_TRUE(test, seg.opts.has_ts);
	KUNIT_EXPECT_FALSE(test, seg.opts.has_sack_perm);
	raw.rcv_nxt = seg.seq + 1;
	raw.tmpl.opts.tsval = PEER_TS + 10;
	raw.tmpl.opts.tsecr = seg.opts.tsval;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt, raw.rcv_nxt,
		    NULL, 0, false);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));

	/* Older than TS.Recent (PEER_TS + 10): an ACK of nothing new. */
	raw.tmpl.opts.tsval = PEER_TS + 9;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, "MPA ", 4, false);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_PAWS_DROP), 1);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
	KUNIT_EXPECT_EQ(test, seg.opts.tsecr, PEER_TS + 10);

	/* No timestamps: dropped without an answer. */
	raw.tmpl.opts.has_ts = false;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, "MPA ", 4, false);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_TS_MISSING), 1);
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));

	/* The same bytes with a current TSval are taken. */
	raw.tmpl.opts.has_ts = true;
	raw.tmpl.opts.tsval = PEER_TS + 11;
	cm_raw_send(test, &raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw.snd_nxt,
		    raw.rcv_nxt, "MPA ", 4, false);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt + 4);
	KUNIT_EXPECT_EQ(test, seg.opts.tsecr, PEER_TS + 11);
	raw.snd_nxt += 4;

	/* A RST without timestamps, at RCV.NXT, resets the connection. */
	raw.tmpl.opts.has_ts = false;
	cm_raw_send(test, &raw, IRDMA_TCP_RST, raw.snd_nxt, 0, NULL, 0, false);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_RST_RCVD), 1);
	KUNIT_EXPECT_EQ(test, cm_cnt(fix->core[0], IRDMA_CM_CNT_TS_MISSING), 1);
}

/*
 * An active open asked to offer both: its SYN carries SACK-permitted
 * and timestamps with TSecr zero (RFC 7323 3.2: no ACK, nothing to
 * echo). A SYN-ACK without timestamps leaves the connection without.
 */
static void tcp_opts_active_offer(struct kunit *test)
{
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct madcm_cm_connect_attr attr;
	struct irdma_cm_seg seg;
	struct cm_raw raw;

	cm_raw_init(&raw, fix, 0, true, RPORT, LPORT, MADCM_CM_NO_VLAN);
	cm_connect_attr(&attr, &fix->v4[0], &fix->v4[1], RPORT,
			MADCM_CM_NO_VLAN, 2, &fix->side[0]);
	attr.loc.port = LPORT;
	attr.tcp_opts = MADCM_CM_TCP_TS | MADCM_CM_TCP_SACK;
	cm_connect(test, fix, 0, &attr);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.flags, IRDMA_TCP_SYN);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_sack_perm);
	KUNIT_ASSERT_TRUE(test, seg.opts.has_ts);
	KUNIT_EXPECT_EQ(test, seg.opts.tsecr, 0);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_mss);
	KUNIT_EXPECT_TRUE(test, seg.opts.has_wscale);

	raw.rcv_nxt = seg.seq + 1;
	raw.snd_nxt = raw.iss + 1;
	/* cm_raw_send()'s options: MSS and window scale only. */
	cm_raw_send(test, &raw, IRDMA_TCP_SYN | IRDMA_TCP_ACK, raw.iss,
		    raw.rcv_nxt, NULL, 0, true);
	/* The MPA request: no timestamps on it. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, &raw, &seg, NULL, 0));
	KUNIT_EXPECT_GT(test, seg.payload_len, 0);
	KUNIT_EXPECT_FALSE(test, seg.opts.has_ts);
}

static struct kunit_case cm_tcp_opts_cases[] = {
	KUNIT_CASE(tcp_opts_wire_layout),
	KUNIT_CASE(tcp_opts_parse_rules),
	KUNIT_CASE(tcp_opts_passive_agrees),
	KUNIT_CASE(tcp_opts_only_when_both),
	KUNIT_CASE(tcp_opts_paws),
	KUNIT_CASE(tcp_opts_active_offer),
	{}
};

static struct kunit_suite cm_tcp_opts_suite = {
	.name = "madcm_cm_tcp_opts",
	.test_cases = cm_tcp_opts_cases,
};

kunit_test_suite(cm_tcp_opts_suite);
