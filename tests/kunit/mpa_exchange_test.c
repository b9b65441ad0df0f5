// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: RFC 6581 IRD/ORD and RTR negotiation through irdma_parse_mpa(),
 * irdma_record_ird_ord(), seeded random request/reply round trips, and the
 * frames that tests/vm/mpa-tshark.sh hands to tshark's MPA dissector.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/prandom.h>
#include <linux/string.h>
#include "irdma_cm/cm_node.h"
#include "irdma_cm/mpa.h"
#include "tests/kunit/mpa_opts.h"
#include "tests/kunit/mpa_spec.h"

#define NOV	0x3fff	/* RFC 6581's 14 bits all set: no IRD/ORD value */
#define ALL	IRDMA_RTR_ALL
#define RD	IRDMA_RTR_READ
#define WR	IRDMA_RTR_WRITE
#define SND	IRDMA_RTR_SEND

/*
 * One negotiation: our side before, the peer's RFC 6581 word, and what
 * the RFC rules (Documentation/irdma_cm.rst) give.
 */
struct nego_case {
	const char *name;
	bool initiator, p2p, no_value;
	u8 caps;
	u16 ird, ord, max_ird;
	bool a, b, c, d;		/* the peer's flags */
	u16 peer_ird, peer_ord;
	int err;
	u16 want_ird, want_ord;
	u8 want_rtr;
};

static const struct nego_case nego_cases[] = {
	/* Responder: picks Read, else Write, else Send; ORD <= peer IRD. */
	{ "resp-picks-read", false, true, false, ALL, 8, 8, 16,
	  true, false, true, true, 4, 2, 0, 8, 4, RD },
	{ "resp-picks-write-without-read", false, true, false, ALL, 8, 8, 16,
	  true, true, true, false, 4, 2, 0, 8, 4, WR },
	{ "resp-picks-send-only-common", false, true, false, SND, 8, 8, 16,
	  true, true, true, true, 9, 2, 0, 8, 8, SND },
	{ "resp-raises-ird-to-peer-ord", false, true, false, WR, 2, 8, 16,
	  true, false, true, false, 8, 6, 0, 6, 8, WR },
	{ "resp-raises-ird-up-to-device", false, true, false, WR, 2, 8, 4,
	  true, false, true, false, 8, 10, 0, 4, 8, WR },
	{ "resp-read-rtr-needs-ird-1", false, true, false, ALL, 0, 0, 16,
	  true, false, false, true, 0, 0, 0, 1, 0, RD },
	{ "resp-no-ird-device-picks-write", false, true, false, ALL, 0, 0, 0,
	  true, false, true, true, 3, 0, 0, 0, 0, WR },
	{ "resp-no-common-rtr", false, true, false, WR, 8, 8, 16,
	  true, false, false, true, 4, 4, -ENOPROTOOPT },
	{ "resp-read-only-no-ird-device", false, true, false, ALL, 0, 0, 0,
	  true, false, false, true, 4, 0, -ENOPROTOOPT },
	{ "resp-peer-not-peer-to-peer", false, true, false, ALL, 8, 8, 16,
	  false, false, true, true, 4, 4, -EOPNOTSUPP },
	{ "resp-client-server", false, false, false, ALL, 8, 8, 16,
	  false, false, false, false, 3, 3, 0, 8, 3, 0 },
	{ "resp-peer-sends-no-value", false, true, false, ALL, 8, 8, 16,
	  true, false, true, false, NOV, NOV, 0, 8, 8, WR },
	{ "resp-peer-ird-no-value-only", false, true, false, ALL, 8, 8, 16,
	  true, false, true, false, NOV, 2, 0, 8, 8, WR },
	{ "resp-we-send-no-value", false, true, true, ALL, 8, 8, 16,
	  true, false, false, true, 4, 9, 0, 8, 8, RD },
	/* Initiator: one RTR type we offered; ORD <= peer IRD; IRD >= ORD. */
	{ "init-write-chosen", true, true, false, ALL, 8, 8, 16,
	  true, false, true, false, 4, 2, 0, 8, 4, WR },
	{ "init-read-chosen", true, true, false, ALL, 8, 8, 16,
	  true, false, false, true, 2, 8, 0, 8, 2, RD },
	{ "init-send-chosen", true, true, false, ALL, 8, 8, 16,
	  true, true, false, false, 9, 8, 0, 8, 8, SND },
	{ "init-ird-below-peer-ord", true, true, false, ALL, 4, 8, 16,
	  true, false, true, false, 4, 5, -ENOBUFS },
	{ "init-reply-two-rtr-types", true, true, false, ALL, 8, 8, 16,
	  true, false, true, true, 4, 4, -ENOPROTOOPT },
	{ "init-reply-no-rtr-type", true, true, false, ALL, 8, 8, 16,
	  true, false, false, false, 4, 4, -ENOPROTOOPT },
	{ "init-reply-rtr-not-offered", true, true, false, WR, 8, 8, 16,
	  true, false, false, true, 4, 4, -ENOPROTOOPT },
	{ "init-read-but-peer-ird-0", true, true, false, ALL, 8, 8, 16,
	  true, false, false, true, 0, 4, -ENOPROTOOPT },
	{ "init-peer-not-peer-to-peer", true, true, false, ALL, 8, 8, 16,
	  false, false, true, false, 4, 4, -EOPNOTSUPP },
	{ "init-peer-sends-no-value", true, true, false, ALL, 2, 8, 16,
	  true, false, false, true, NOV, NOV, 0, 2, 8, RD },
	{ "init-client-server", true, false, false, ALL, 8, 8, 16,
	  false, false, false, false, 3, 3, 0, 8, 3, 0 },
	{ "init-client-server-ird-below-peer-ord", true, false, false, ALL,
	  2, 8, 16, false, false, false, false, 3, 3, -ENOBUFS },
};

static void nego_desc(const struct nego_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nego, nego_cases, nego_desc);

static void mpa_negotiate_follows_rfc6581(struct kunit *test)
{
	const struct nego_case *c = test->param_value;
	struct irdma_cm_node *node, *before;
	struct spec_frame f = {};
	u8 *buf;
	u32 type = 0;
	size_t n;
	int ret;

	node = kunit_kzalloc(test, sizeof(*node), GFP_KERNEL);
	before = kunit_kzalloc(test, sizeof(*before), GFP_KERNEL);
	buf = kunit_kzalloc(test, SPEC_HDR_LEN + SPEC_RTR_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_ASSERT_NOT_NULL(test, before);
	KUNIT_ASSERT_NOT_NULL(test, buf);

	node->role = c->initiator ? IRDMA_CM_ROLE_INITIATOR :
				    IRDMA_CM_ROLE_RESPONDER;
	node->mpa_frame_rev = 2;
	mpa_opt_set(node, IRDMA_MPA_OPT_P2P, c->p2p);
	node->rtr_caps = c->caps;
	node->ird_size = c->ird;
	node->ord_size = c->ord;
	node->max_ird = c->max_ird;
	node->max_ord = 16;
	node->mpav2_ird_ord = c->no_value ? NOV : 0;
	memcpy(before, node, sizeof(*node));

	f.request = !c->initiator;
	f.s = true;
	f.rev = 2;
	f.pd_len = SPEC_RTR_LEN;
	f.rtr_words = true;
	f.a = c->a;
	f.b = c->b;
	f.cc = c->c;
	f.d = c->d;
	f.ird = c->peer_ird;
	f.ord = c->peer_ord;
	n = spec_write(buf, &f);

	ret = irdma_parse_mpa(node, buf, &type, n);
	KUNIT_ASSERT_EQ(test, ret, c->err);
	if (ret) {
		SPEC_EXPECT_MEMEQ(test, node, before, sizeof(*node));
		return;
	}
	KUNIT_EXPECT_EQ(test, type, IRDMA_MPA_REQUEST_ACCEPT);
	KUNIT_EXPECT_EQ(test, node->ird_size, c->want_ird);
	KUNIT_EXPECT_EQ(test, node->ord_size, c->want_ord);
	KUNIT_EXPECT_EQ(test, node->send_rdma0_op, c->want_rtr);
	KUNIT_EXPECT_EQ(test, node->mpav2_ird_ord == NOV,
			c->no_value || c->peer_ird == NOV ||
			c->peer_ord == NOV);
	KUNIT_EXPECT_EQ(test, node->rcvd_pdata_len, 0);
}

/* A reject's IRD/ORD word is not negotiated: the reject is reported. */
static void mpa_reject_skips_negotiation(struct kunit *test)
{
	struct irdma_cm_node *node = kunit_kzalloc(test, sizeof(*node),
						   GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, SPEC_HDR_LEN + 8, GFP_KERNEL);
	static const u8 why[] = { 'b', 'u', 's', 'y' };
	struct spec_frame f = {
		.r = true, .s = true, .rev = 2, .pd_len = SPEC_RTR_LEN + 4,
		.rtr_words = true, .ird = 0, .ord = 100,
		.ulp = why, .ulp_len = sizeof(why),
	};
	u32 type = 0;
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	node->role = IRDMA_CM_ROLE_INITIATOR;
	node->mpa_frame_rev = 2;
	mpa_opt_set(node, IRDMA_MPA_OPT_P2P, true);
	node->rtr_caps = ALL;
	node->ird_size = 1;
	node->ord_size = 1;
	n = spec_write(buf, &f);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(node, buf, &type, n), 0);
	KUNIT_EXPECT_EQ(test, type, IRDMA_MPA_REQUEST_REJECT);
	KUNIT_EXPECT_EQ(test, node->rcvd_pdata_len, sizeof(why));
	SPEC_EXPECT_MEMEQ(test, node->rcvd_pdata, why, sizeof(why));
	KUNIT_EXPECT_EQ(test, node->ird_size, 1);
	KUNIT_EXPECT_EQ(test, node->ord_size, 1);
}

struct record_case {
	const char *name;
	bool initiator, p2p;
	u8 caps;
	u16 max_ird, max_ord;
	u32 ird, ord;
	u16 want_ird, want_ord;
};

static const struct record_case record_cases[] = {
	{ "capped-by-device", true, true, ALL, 4, 4, 10, 10, 4, 4 },
	{ "capped-by-14-bits", false, false, 0, 0xffff, 0xffff, 0x10000,
	  0x3fff, 0x3ffe, 0x3ffe },
	{ "initiator-read-rtr-ord-0-becomes-1", true, true, ALL, 4, 4, 0, 0,
	  0, 1 },
	{ "initiator-write-rtr-ord-0-stays", true, true, WR, 4, 4, 0, 0, 0, 0 },
	{ "initiator-client-server-ord-0-stays", true, false, ALL, 4, 4, 0, 0,
	  0, 0 },
	{ "initiator-read-rtr-no-ord-device", true, true, ALL, 4, 0, 0, 0,
	  0, 0 },
	{ "responder-ord-0-stays", false, true, ALL, 4, 4, 3, 0, 3, 0 },
};

static void record_desc(const struct record_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(record, record_cases, record_desc);

static void mpa_record_ird_ord_caps(struct kunit *test)
{
	const struct record_case *c = test->param_value;
	struct irdma_cm_node *node = kunit_kzalloc(test, sizeof(*node),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, node);
	node->role = c->initiator ? IRDMA_CM_ROLE_INITIATOR :
				    IRDMA_CM_ROLE_RESPONDER;
	mpa_opt_set(node, IRDMA_MPA_OPT_P2P, c->p2p);
	node->rtr_caps = c->caps;
	node->max_ird = c->max_ird;
	node->max_ord = c->max_ord;
	irdma_record_ird_ord(node, c->ird, c->ord);
	KUNIT_EXPECT_EQ(test, node->ird_size, c->want_ird);
	KUNIT_EXPECT_EQ(test, node->ord_size, c->want_ord);
}

/* ---- Exchanges: initiator and responder nodes talking ---- */

struct mpa_peer {
	struct irdma_cm_node *node;
	u8 *pdata;
};

/* Build @key from @from into @wire (header and private data). */
static u32 exchange_build(struct kunit *test, struct irdma_cm_node *from,
			  u8 *wire, u8 key)
{
	struct irdma_kmem_info mpa = { wire, sizeof(struct ietf_mpa_v2) };
	int hdr = irdma_cm_build_mpa_frame(from, &mpa, key);

	KUNIT_ASSERT_GT(test, hdr, 0);
	memcpy(wire + hdr, from->pdata.addr, from->pdata.size);
	return hdr + from->pdata.size;
}

static void peer_init(struct kunit *test, struct mpa_peer *p,
		      enum irdma_cm_role role)
{
	p->node = kunit_kzalloc(test, sizeof(*p->node), GFP_KERNEL);
	p->pdata = kunit_kzalloc(test, SPEC_MAX_PD, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->node);
	KUNIT_ASSERT_NOT_NULL(test, p->pdata);
	p->node->role = role;
	p->node->pdata.addr = p->pdata;
}

static void peer_randomise(struct mpa_peer *p, enum irdma_cm_role role,
			   struct rnd_state *rnd)
{
	struct irdma_cm_node *n = p->node;
	u32 r = prandom_u32_state(rnd);
	u32 max_pd;

	memset(n, 0, sizeof(*n));
	n->role = role;
	n->mpa_frame_rev = 1 + (r & 1);
	mpa_opt_set(n, IRDMA_MPA_OPT_CRC, r & 2);
	mpa_opt_set(n, IRDMA_MPA_OPT_MARKERS, r & 4);
	mpa_opt_set(n, IRDMA_MPA_OPT_P2P, r & 8);
	n->rtr_caps = (r >> 4) & ALL;
	n->mpav2_ird_ord = (r >> 7) % 8 ? 0 : NOV;
	n->max_ird = 32;
	n->max_ord = 32;
	n->ird_size = (r >> 10) % 20;
	n->ord_size = (r >> 15) % 20;
	max_pd = SPEC_MAX_PD - (n->mpa_frame_rev == 2 ? SPEC_RTR_LEN : 0);
	n->pdata.addr = p->pdata;
	n->pdata.size = prandom_u32_state(rnd) % (max_pd + 1);
	prandom_bytes_state(rnd, p->pdata, n->pdata.size);
}

/*
 * Random requests and replies from a fixed seed. Each accepted frame must
 * hand over its private data and flags unchanged; each negotiated pair
 * must agree on the RTR type and keep every ORD within the peer's IRD.
 */
static void mpa_random_round_trips(struct kunit *test)
{
	struct mpa_peer ini, rsp;
	struct rnd_state rnd;
	unsigned int i, accepted = 0, negotiated = 0;
	u8 *wire = kunit_kzalloc(test, sizeof(struct ietf_mpa_v2) + SPEC_MAX_PD,
				 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, wire);
	peer_init(test, &ini, IRDMA_CM_ROLE_INITIATOR);
	peer_init(test, &rsp, IRDMA_CM_ROLE_RESPONDER);
	prandom_seed_state(&rnd, 0x6d706131ULL);

	for (i = 0; i < 2000; i++) {
		u8 rev, key;
		u32 len, type;
		int ret;

		peer_randomise(&ini, IRDMA_CM_ROLE_INITIATOR, &rnd);
		peer_randomise(&rsp, IRDMA_CM_ROLE_RESPONDER, &rnd);
		rev = ini.node->mpa_frame_rev;

		len = exchange_build(test, ini.node, wire, MPA_KEY_REQUEST);
		ret = irdma_parse_mpa(rsp.node, wire, &type, len);
		if (rev > rsp.node->mpa_frame_rev) {
			KUNIT_EXPECT_EQ(test, ret, -EPROTO);
			continue;
		}
		if (ret == -EOPNOTSUPP || ret == -ENOPROTOOPT) {
			KUNIT_EXPECT_TRUE(test, rev == 2 &&
					  mpa_opt(rsp.node, IRDMA_MPA_OPT_P2P));
			continue;
		}
		KUNIT_ASSERT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, type, IRDMA_MPA_REQUEST_ACCEPT);
		KUNIT_EXPECT_EQ(test, rsp.node->mpa_frame_rev, rev);
		KUNIT_EXPECT_EQ(test, rsp.node->rcvd_pdata_len, ini.node->pdata.size);
		SPEC_EXPECT_MEMEQ(test, rsp.node->rcvd_pdata, ini.pdata,
				  ini.node->pdata.size);
		KUNIT_EXPECT_EQ(test, mpa_opt(rsp.node, IRDMA_MPA_OPT_PEER_CRC),
				mpa_opt(ini.node, IRDMA_MPA_OPT_CRC));
		KUNIT_EXPECT_EQ(test,
				mpa_opt(rsp.node, IRDMA_MPA_OPT_PEER_MARKERS),
				mpa_opt(ini.node, IRDMA_MPA_OPT_MARKERS));

		/* The reply's private data must fit the agreed revision. */
		if (rev == 2 && rsp.node->pdata.size > SPEC_MAX_PD - SPEC_RTR_LEN)
			rsp.node->pdata.size = SPEC_MAX_PD - SPEC_RTR_LEN;
		key = prandom_u32_state(&rnd) % 4 ? MPA_KEY_REPLY :
						    MPA_KEY_REJECT;
		len = exchange_build(test, rsp.node, wire, key);
		ret = irdma_parse_mpa(ini.node, wire, &type, len);
		if (ret == -EOPNOTSUPP || ret == -ENOPROTOOPT ||
		    ret == -ENOBUFS) {
			KUNIT_EXPECT_EQ(test, key, MPA_KEY_REPLY);
			continue;
		}
		KUNIT_ASSERT_EQ(test, ret, 0);
		accepted++;
		KUNIT_EXPECT_EQ(test, type, key == MPA_KEY_REJECT ?
				IRDMA_MPA_REQUEST_REJECT :
				IRDMA_MPA_REQUEST_ACCEPT);
		KUNIT_EXPECT_EQ(test, ini.node->rcvd_pdata_len,
				rsp.node->pdata.size);
		SPEC_EXPECT_MEMEQ(test, ini.node->rcvd_pdata, rsp.pdata,
				  rsp.node->pdata.size);
		KUNIT_EXPECT_EQ(test, mpa_opt(ini.node, IRDMA_MPA_OPT_PEER_CRC),
				mpa_opt(rsp.node, IRDMA_MPA_OPT_CRC));
		if (key == MPA_KEY_REJECT || rev == 1)
			continue;

		negotiated++;
		KUNIT_EXPECT_EQ(test, ini.node->send_rdma0_op,
				rsp.node->send_rdma0_op);
		if (ini.node->send_rdma0_op)
			KUNIT_EXPECT_EQ(test, hweight8(ini.node->send_rdma0_op &
						       ini.node->rtr_caps &
						       rsp.node->rtr_caps), 1);
		if (ini.node->mpav2_ird_ord != NOV &&
		    rsp.node->mpav2_ird_ord != NOV) {
			KUNIT_EXPECT_LE(test, ini.node->ord_size,
					rsp.node->ird_size);
			KUNIT_EXPECT_LE(test, rsp.node->ord_size,
					ini.node->ird_size);
		}
	}
	/* Not vacuous: most exchanges complete. */
	KUNIT_EXPECT_GT(test, accepted, 500);
	KUNIT_EXPECT_GT(test, negotiated, 100);
}

/* ---- Frames for tshark (tests/vm/mpa-tshark.sh) ---- */

static const struct dump_case {
	const char *name;
	u8 rev;
	bool crc, markers, p2p, no_value, reject;
	u8 caps;
	u16 req_pd, rep_pd;
} dump_cases[] = {
	{ "v1-plain", 1, false, false, false, false, false, 0, 0, 0 },
	{ "v1-crc-markers", 1, true, true, false, false, false, 0, 17, 3 },
	{ "v1-pd512", 1, true, false, false, false, false, 0, 512, 512 },
	{ "v1-reject", 1, true, false, false, false, true, 0, 8, 5 },
	{ "v2-p2p-read", 2, true, false, true, false, false, ALL, 0, 0 },
	{ "v2-p2p-write-pd508", 2, true, true, true, false, false, WR, 508,
	  508 },
	{ "v2-client-server", 2, false, true, false, false, false, 0, 16, 1 },
	{ "v2-no-ird-ord", 2, true, false, true, true, false, ALL, 3, 0 },
	{ "v2-reject", 2, true, false, true, false, true, ALL, 10, 12 },
};

/*
 * One line per 64 octets: "madcm-mpa-frame: NAME KIND rev=R m=M c=C pd=PD
 * off=OFF HEX", PD being the PD_Length the frame must carry.
 */
static void dump_frame(struct kunit *test, const char *name,
		       const char *kind, const struct irdma_cm_node *n,
		       const u8 *wire, u32 len)
{
	u32 off, pd = len - SPEC_HDR_LEN;

	for (off = 0; off < len; off += 64)
		kunit_info(test,
			   "madcm-mpa-frame: %s %s rev=%u m=%u c=%u pd=%u off=%u %*phN\n",
			   name, kind, n->mpa_frame_rev,
			   mpa_opt(n, IRDMA_MPA_OPT_MARKERS),
			   mpa_opt(n, IRDMA_MPA_OPT_CRC), pd, off,
			   (int)min(64U, len - off),
			   wire + off);
}

static void mpa_frames_for_tshark(struct kunit *test)
{
	u8 *wire = kunit_kzalloc(test, sizeof(struct ietf_mpa_v2) + SPEC_MAX_PD,
				 GFP_KERNEL);
	struct mpa_peer ini, rsp;
	unsigned int i, j;
	u32 len, type;

	KUNIT_ASSERT_NOT_NULL(test, wire);
	peer_init(test, &ini, IRDMA_CM_ROLE_INITIATOR);
	peer_init(test, &rsp, IRDMA_CM_ROLE_RESPONDER);
	for (j = 0; j < SPEC_MAX_PD; j++) {
		ini.pdata[j] = j;
		rsp.pdata[j] = ~j;
	}

	for (i = 0; i < ARRAY_SIZE(dump_cases); i++) {
		const struct dump_case *c = &dump_cases[i];
		struct irdma_cm_node *n;
		u8 key = c->reject ? MPA_KEY_REJECT : MPA_KEY_REPLY;

		for (j = 0; j < 2; j++) {
			n = j ? rsp.node : ini.node;
			n->mpa_frame_rev = c->rev;
			mpa_opt_set(n, IRDMA_MPA_OPT_CRC, c->crc);
			mpa_opt_set(n, IRDMA_MPA_OPT_MARKERS,
				    c->markers && !j);
			mpa_opt_set(n, IRDMA_MPA_OPT_P2P, c->p2p);
			n->rtr_caps = c->caps;
			n->mpav2_ird_ord = c->no_value ? NOV : 0;
			n->max_ird = 16;
			n->max_ord = 16;
			irdma_record_ird_ord(n, 4, 4);
		}
		ini.node->pdata.size = c->req_pd;
		rsp.node->pdata.size = c->rep_pd;

		len = exchange_build(test, ini.node, wire, MPA_KEY_REQUEST);
		dump_frame(test, c->name, "req", ini.node, wire, len);
		KUNIT_ASSERT_EQ(test, irdma_parse_mpa(rsp.node, wire, &type, len),
				0);
		len = exchange_build(test, rsp.node, wire, key);
		dump_frame(test, c->name, c->reject ? "rej" : "rep", rsp.node,
			   wire, len);
		KUNIT_ASSERT_EQ(test, irdma_parse_mpa(ini.node, wire, &type, len),
				0);
		KUNIT_EXPECT_EQ(test, type, c->reject ? IRDMA_MPA_REQUEST_REJECT :
				IRDMA_MPA_REQUEST_ACCEPT);
	}
}

static struct kunit_case mpa_exchange_cases[] = {
	KUNIT_CASE_PARAM(mpa_negotiate_follows_rfc6581, nego_gen_params),
	KUNIT_CASE(mpa_reject_skips_negotiation),
	KUNIT_CASE_PARAM(mpa_record_ird_ord_caps, record_gen_params),
	KUNIT_CASE(mpa_random_round_trips),
	KUNIT_CASE(mpa_frames_for_tshark),
	{}
};

static struct kunit_suite mpa_exchange_suite = {
	.name = "madcm_mpa_exchange",
	.test_cases = mpa_exchange_cases,
};

kunit_test_suite(mpa_exchange_suite);
