// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: MPA frames built byte for byte as RFC 5044 section 7.1 and RFC 6581
 * draw them (tests/kunit/mpa_spec.h), and every malformed frame refused
 * with its own error and counter.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "irdma_cm/cm_node.h"
#include "irdma_cm/mpa.h"
#include "tests/kunit/mpa_opts.h"
#include "tests/kunit/mpa_spec.h"

/* ---- Building: revision x frame x private data x IRD/ORD x RTR ---- */

static const u16 build_pd_lens[] = { 0, 1, 511, 512 };

/* Our IRD/ORD and what RFC 6581's 14 bits must then carry. */
static const struct {
	const char *name;
	bool no_value;
	u16 ird, ord;		/* in the node */
	u16 wire_ird, wire_ord;	/* on the wire */
} build_ird_ord[] = {
	{ "ird0-ord0", false, 0, 0, 0, 0 },
	{ "ird1-ord2", false, 1, 2, 1, 2 },
	{ "ird100-ord16382", false, 100, 16382, 100, 16382 },
	{ "ird20000-ord16383-capped", false, 20000, 16383, 16382, 16382 },
	{ "no-ird-ord", true, 5, 6, 0x3fff, 0x3fff },
};

/* The RTR types the node offers (request) or chose (reply, reject). */
static const struct {
	const char *name;
	bool p2p;
	u8 rtr;
	bool request_only;
} build_rtr[] = {
	{ "client-server", false, IRDMA_RTR_NONE, false },
	{ "rtr-write", true, IRDMA_RTR_WRITE, false },
	{ "rtr-read", true, IRDMA_RTR_READ, false },
	{ "rtr-send", true, IRDMA_RTR_SEND, false },
	{ "rtr-any", true, IRDMA_RTR_ALL, true },
};

static const char * const build_kind_names[] = { "request", "reply", "reject" };

struct build_case {
	u8 rev, key, pd, ird_ord, rtr;
};

/* Revision 1 frames carry no IRD/ORD: one point per key and length. */
#define BUILD_V1_CASES	(3 * ARRAY_SIZE(build_pd_lens))
#define BUILD_V2_CASES	(ARRAY_SIZE(build_pd_lens) * \
			 ARRAY_SIZE(build_ird_ord) * \
			 (3 * ARRAY_SIZE(build_rtr) - 2))

static struct build_case build_grid[BUILD_V1_CASES + BUILD_V2_CASES];
static unsigned int build_grid_len;

static void build_grid_fill(void)
{
	unsigned int key, pd, io, rtr;

	build_grid_len = 0;
	for (key = 0; key < 3; key++)
		for (pd = 0; pd < ARRAY_SIZE(build_pd_lens); pd++)
			build_grid[build_grid_len++] =
				(struct build_case){ 1, key, pd, 0, 0 };
	for (key = 0; key < 3; key++)
		for (pd = 0; pd < ARRAY_SIZE(build_pd_lens); pd++)
			for (io = 0; io < ARRAY_SIZE(build_ird_ord); io++)
				for (rtr = 0; rtr < ARRAY_SIZE(build_rtr); rtr++) {
					if (key != MPA_KEY_REQUEST &&
					    build_rtr[rtr].request_only)
						continue;
					build_grid[build_grid_len++] =
						(struct build_case){ 2, key, pd,
								     io, rtr };
				}
}

static const void *build_gen(const void *prev, char *desc)
{
	const struct build_case *c = prev;
	unsigned int i;

	if (!c)
		build_grid_fill();
	i = c ? c - build_grid + 1 : 0;
	if (i >= build_grid_len)
		return NULL;
	c = &build_grid[i];
	/* The M and C flags cycle with the private data length. */
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "rev%u-%s-pd%u-%s%s%s%s%s",
		 c->rev, build_kind_names[c->key], build_pd_lens[c->pd],
		 c->pd & 1 ? "C-" : "", c->pd & 2 ? "M-" : "",
		 c->rev == 2 ? build_ird_ord[c->ird_ord].name : "",
		 c->rev == 2 ? "-" : "",
		 c->rev == 2 ? build_rtr[c->rtr].name : "v1");
	return c;
}

static void mpa_build_frame_matches_rfc(struct kunit *test)
{
	const struct build_case *c = test->param_value;
	struct irdma_cm_node *node;
	struct irdma_kmem_info mpa;
	struct spec_frame want = {};
	u16 pd = build_pd_lens[c->pd];
	u8 *pdata, *expect, *got;
	u8 rtr = build_rtr[c->rtr].rtr;
	bool p2p = build_rtr[c->rtr].p2p;
	size_t want_len;
	int hdr;

	node = kunit_kzalloc(test, sizeof(*node), GFP_KERNEL);
	pdata = kunit_kzalloc(test, SPEC_MAX_PD, GFP_KERNEL);
	expect = kunit_kzalloc(test, SPEC_HDR_LEN + SPEC_MAX_PD, GFP_KERNEL);
	/* Exactly the header the revision needs: KASAN sees any overrun. */
	got = kunit_kzalloc(test, SPEC_HDR_LEN + (c->rev == 2 ? SPEC_RTR_LEN : 0),
			    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_ASSERT_NOT_NULL(test, pdata);
	KUNIT_ASSERT_NOT_NULL(test, expect);
	KUNIT_ASSERT_NOT_NULL(test, got);
	memset(pdata, 0xa5, SPEC_MAX_PD);

	node->role = c->key == MPA_KEY_REQUEST ? IRDMA_CM_ROLE_INITIATOR :
						 IRDMA_CM_ROLE_RESPONDER;
	node->mpa_frame_rev = c->rev;
	node->pdata.addr = pdata;
	node->pdata.size = pd;
	mpa_opt_set(node, IRDMA_MPA_OPT_CRC, c->pd & 1);
	mpa_opt_set(node, IRDMA_MPA_OPT_MARKERS, c->pd & 2);
	node->ird_size = build_ird_ord[c->ird_ord].ird;
	node->ord_size = build_ird_ord[c->ird_ord].ord;
	node->mpav2_ird_ord = build_ird_ord[c->ird_ord].no_value ? 0x3fff : 0;
	mpa_opt_set(node, IRDMA_MPA_OPT_P2P, p2p);
	if (c->key == MPA_KEY_REQUEST)
		node->rtr_caps = rtr;
	else
		node->send_rdma0_op = rtr;

	mpa.addr = got;
	mpa.size = SPEC_HDR_LEN + (c->rev == 2 ? SPEC_RTR_LEN : 0);
	hdr = irdma_cm_build_mpa_frame(node, &mpa, c->key);

	/* RFC 5044: at most 512 octets of private data, RFC 6581's 4 included. */
	if (c->rev == 2 && pd + SPEC_RTR_LEN > SPEC_MAX_PD) {
		KUNIT_EXPECT_EQ(test, hdr, -EMSGSIZE);
		return;
	}
	KUNIT_ASSERT_EQ(test, hdr, c->rev == 2 ? 24 : 20);

	want.request = c->key == MPA_KEY_REQUEST;
	want.m = mpa_opt(node, IRDMA_MPA_OPT_MARKERS);
	want.c = mpa_opt(node, IRDMA_MPA_OPT_CRC);
	want.r = c->key == MPA_KEY_REJECT;
	want.rev = c->rev;
	want.pd_len = pd;
	if (c->rev == 2) {
		want.s = true;
		want.pd_len += SPEC_RTR_LEN;
		want.rtr_words = true;
		want.a = p2p;
		want.b = rtr & IRDMA_RTR_SEND;
		want.cc = rtr & IRDMA_RTR_WRITE;
		want.d = rtr & IRDMA_RTR_READ;
		want.ird = build_ird_ord[c->ird_ord].wire_ird;
		want.ord = build_ird_ord[c->ird_ord].wire_ord;
	}
	want_len = spec_write(expect, &want);
	KUNIT_EXPECT_EQ(test, want_len, (size_t)hdr);
	SPEC_EXPECT_MEMEQ(test, got, expect, hdr);
}

static void mpa_build_refuses_bad_parameters(struct kunit *test)
{
	struct irdma_cm_node *node = kunit_kzalloc(test, sizeof(*node),
						   GFP_KERNEL);
	u8 buf[24] = {}, pd[1] = {};
	struct irdma_kmem_info mpa = { buf, sizeof(buf) };

	KUNIT_ASSERT_NOT_NULL(test, node);
	node->mpa_frame_rev = 2;
	KUNIT_EXPECT_EQ(test, irdma_cm_build_mpa_frame(node, &mpa, 3), -EINVAL);
	node->mpa_frame_rev = 0;
	KUNIT_EXPECT_EQ(test, irdma_cm_build_mpa_frame(node, &mpa, 0), -EINVAL);
	node->mpa_frame_rev = 3;
	KUNIT_EXPECT_EQ(test, irdma_cm_build_mpa_frame(node, &mpa, 0), -EINVAL);
	node->mpa_frame_rev = 1;
	node->pdata.size = 1;
	KUNIT_EXPECT_EQ(test, irdma_cm_build_mpa_frame(node, &mpa, 0), -EINVAL);
	node->pdata.addr = pd;
	node->pdata.size = 513;
	KUNIT_EXPECT_EQ(test, irdma_cm_build_mpa_frame(node, &mpa, 0),
			-EMSGSIZE);
	node->pdata.size = 1;
	mpa.size = 19;
	KUNIT_EXPECT_EQ(test, irdma_cm_build_mpa_frame(node, &mpa, 0), -ENOSPC);
	node->mpa_frame_rev = 2;
	mpa.size = 23;
	KUNIT_EXPECT_EQ(test, irdma_cm_build_mpa_frame(node, &mpa, 0), -ENOSPC);
	/* Nothing was written by any refused call. */
	KUNIT_EXPECT_TRUE(test, !memchr_inv(buf, 0, sizeof(buf)));
}

static struct kunit_case mpa_build_cases[] = {
	KUNIT_CASE_PARAM(mpa_build_frame_matches_rfc, build_gen),
	KUNIT_CASE(mpa_build_refuses_bad_parameters),
	{}
};

static struct kunit_suite mpa_build_suite = {
	.name = "madcm_mpa_build",
	.test_cases = mpa_build_cases,
};

/* ---- Parsing: every malformed frame, its exact error and counter ---- */

struct parse_bad_case {
	const char *name;
	bool initiator;		/* the parser expects a reply */
	u8 offered_rev;
	const char *key;	/* NULL: the right key for the role */
	u8 flags, rev;
	u16 pd_len;		/* the PD_Length field */
	u32 len;		/* octets handed to the parser */
	int err;
	enum irdma_mpa_reject why;
};

#define SHORT(n) { "len" #n "-below-header", false, 2, NULL, 0, 1, 0, n, \
		   -ENODATA, IRDMA_MPA_REJ_SHORT_HEADER }

static const struct parse_bad_case parse_bad_cases[] = {
	SHORT(0), SHORT(1), SHORT(2), SHORT(3), SHORT(4), SHORT(5), SHORT(6),
	SHORT(7), SHORT(8), SHORT(9), SHORT(10), SHORT(11), SHORT(12),
	SHORT(13), SHORT(14), SHORT(15), SHORT(16), SHORT(17), SHORT(18),
	SHORT(19),
	{ "responder-gets-reply-key", false, 2, "MPA ID Rep Frame", 0, 1, 0,
	  20, -EBADMSG, IRDMA_MPA_REJ_BAD_KEY },
	{ "initiator-gets-request-key", true, 2, "MPA ID Req Frame", 0, 1, 0,
	  20, -EBADMSG, IRDMA_MPA_REJ_BAD_KEY },
	{ "key-lowercase", false, 2, "mpa id req frame", 0, 1, 0, 20,
	  -EBADMSG, IRDMA_MPA_REJ_BAD_KEY },
	{ "key-last-octet", false, 2, "MPA ID Req FramE", 0, 1, 0, 20,
	  -EBADMSG, IRDMA_MPA_REJ_BAD_KEY },
	{ "key-first-octet", true, 2, "NPA ID Rep Frame", 0, 1, 0, 20,
	  -EBADMSG, IRDMA_MPA_REJ_BAD_KEY },
	{ "rev0", false, 2, NULL, 0, 0, 0, 20, -EPROTONOSUPPORT,
	  IRDMA_MPA_REJ_BAD_REV },
	{ "rev3", false, 2, NULL, 0, 3, 0, 20, -EPROTONOSUPPORT,
	  IRDMA_MPA_REJ_BAD_REV },
	{ "rev255", true, 2, NULL, 0, 255, 0, 20, -EPROTONOSUPPORT,
	  IRDMA_MPA_REJ_BAD_REV },
	{ "rev2-request-to-rev1-responder", false, 1, NULL, 0x10, 2, 4, 24,
	  -EPROTO, IRDMA_MPA_REJ_REV_ABOVE_OFFER },
	{ "rev2-reply-to-rev1-request", true, 1, NULL, 0x10, 2, 4, 24,
	  -EPROTO, IRDMA_MPA_REJ_REV_ABOVE_OFFER },
	{ "pd513", false, 2, NULL, 0, 1, 513, 20 + 513, -EMSGSIZE,
	  IRDMA_MPA_REJ_PDATA_TOO_LONG },
	{ "pd65535", true, 2, NULL, 0, 1, 65535, 20 + 512, -EMSGSIZE,
	  IRDMA_MPA_REJ_PDATA_TOO_LONG },
	{ "pd1-buffer-header-only", false, 2, NULL, 0, 1, 1, 20, -EOVERFLOW,
	  IRDMA_MPA_REJ_TRUNCATED },
	{ "pd10-one-past-buffer", true, 2, NULL, 0, 1, 10, 29, -EOVERFLOW,
	  IRDMA_MPA_REJ_TRUNCATED },
	{ "pd512-one-past-buffer", false, 2, NULL, 0, 1, 512, 531, -EOVERFLOW,
	  IRDMA_MPA_REJ_TRUNCATED },
	{ "rev2-pd7-one-past-buffer", false, 2, NULL, 0x10, 2, 7, 26,
	  -EOVERFLOW, IRDMA_MPA_REJ_TRUNCATED },
	{ "rev2-pd0", false, 2, NULL, 0x10, 2, 0, 20, -ENOMSG,
	  IRDMA_MPA_REJ_NO_RTR_MSG },
	{ "rev2-pd1", true, 2, NULL, 0x10, 2, 1, 21, -ENOMSG,
	  IRDMA_MPA_REJ_NO_RTR_MSG },
	{ "rev2-pd2", false, 2, NULL, 0x10, 2, 2, 22, -ENOMSG,
	  IRDMA_MPA_REJ_NO_RTR_MSG },
	{ "rev2-pd3-reject", true, 2, NULL, 0x30, 2, 3, 23, -ENOMSG,
	  IRDMA_MPA_REJ_NO_RTR_MSG },
};

static void parse_bad_desc(const struct parse_bad_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(parse_bad, parse_bad_cases, parse_bad_desc);

static void mpa_parse_refuses_malformed(struct kunit *test)
{
	const struct parse_bad_case *c = test->param_value;
	struct irdma_cm_node *node, *before;
	u64 counts[IRDMA_MPA_REJ_NR];
	u8 *image, *buf;
	u32 type = 0xdead;
	int i, ret;

	node = kunit_kzalloc(test, sizeof(*node), GFP_KERNEL);
	before = kunit_kzalloc(test, sizeof(*before), GFP_KERNEL);
	image = kunit_kzalloc(test, SPEC_HDR_LEN + SPEC_MAX_PD + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_ASSERT_NOT_NULL(test, before);
	KUNIT_ASSERT_NOT_NULL(test, image);

	memcpy(image, c->key ? c->key : c->initiator ? "MPA ID Rep Frame" :
						       "MPA ID Req Frame",
	       SPEC_KEY_LEN);
	image[SPEC_FLAGS] = c->flags;
	image[SPEC_REV] = c->rev;
	image[SPEC_PD_LEN] = c->pd_len >> 8;
	image[SPEC_PD_LEN + 1] = c->pd_len & 0xff;
	/* A peer-to-peer word in case the private data reaches it. */
	image[SPEC_IRD] = SPEC_HI_A;
	image[SPEC_IRD + 1] = 4;
	image[SPEC_ORD] = SPEC_HI_C | SPEC_HI_D;
	image[SPEC_ORD + 1] = 4;

	/* The parser sees exactly @len octets: KASAN catches any over-read. */
	buf = kunit_kmalloc(test, c->len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	memcpy(buf, image, c->len);

	node->role = c->initiator ? IRDMA_CM_ROLE_INITIATOR :
				    IRDMA_CM_ROLE_RESPONDER;
	node->mpa_frame_rev = c->offered_rev;
	mpa_opt_set(node, IRDMA_MPA_OPT_P2P, true);
	node->rtr_caps = IRDMA_RTR_ALL;
	node->max_ird = 16;
	node->max_ord = 16;
	node->ird_size = 8;
	node->ord_size = 8;
	memcpy(before, node, sizeof(*node));
	for (i = 0; i < IRDMA_MPA_REJ_NR; i++)
		counts[i] = irdma_mpa_reject_count(i);

	ret = irdma_parse_mpa(node, buf, &type, c->len);

	KUNIT_EXPECT_EQ(test, ret, c->err);
	KUNIT_EXPECT_EQ(test, type, 0xdead);
	SPEC_EXPECT_MEMEQ(test, node, before, sizeof(*node));
	for (i = 0; i < IRDMA_MPA_REJ_NR; i++)
		KUNIT_EXPECT_EQ_MSG(test, irdma_mpa_reject_count(i),
				    counts[i] + (i == c->why), "counter %d", i);
}

/* The checks above refuse; these well-formed edges are accepted. */
static void mpa_parse_accepts_edges(struct kunit *test)
{
	struct irdma_cm_node *node = kunit_kzalloc(test, sizeof(*node),
						   GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, SPEC_HDR_LEN + SPEC_MAX_PD + 8,
				GFP_KERNEL);
	struct spec_frame f = { .request = true, .rev = 1 };
	u8 ulp[SPEC_MAX_PD];
	u32 type = 0;
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(ulp, 0x3c, sizeof(ulp));
	node->role = IRDMA_CM_ROLE_RESPONDER;

	/* 512 octets of private data, and octets after the frame. */
	node->mpa_frame_rev = 1;
	f.pd_len = SPEC_MAX_PD;
	f.ulp = ulp;
	f.ulp_len = SPEC_MAX_PD;
	n = spec_write(buf, &f);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(node, buf, &type, n + 8), 0);
	KUNIT_EXPECT_EQ(test, type, IRDMA_MPA_REQUEST_ACCEPT);
	KUNIT_EXPECT_EQ(test, node->rcvd_pdata_len, SPEC_MAX_PD);
	SPEC_EXPECT_MEMEQ(test, node->rcvd_pdata, ulp, SPEC_MAX_PD);

	/* A revision 1 request to a revision 2 responder: it steps down. */
	node->mpa_frame_rev = 2;
	f.pd_len = 0;
	f.ulp_len = 0;
	n = spec_write(buf, &f);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(node, buf, &type, n), 0);
	KUNIT_EXPECT_EQ(test, node->mpa_frame_rev, IETF_MPA_V1);
	KUNIT_EXPECT_EQ(test, node->rcvd_pdata_len, 0);

	/* Revision 2 without S: no RFC 6581 word, all private data is ULP. */
	node->mpa_frame_rev = 2;
	f.rev = 2;
	f.pd_len = 2;
	f.ulp_len = 2;
	n = spec_write(buf, &f);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(node, buf, &type, n), 0);
	KUNIT_EXPECT_EQ(test, node->rcvd_pdata_len, 2);
	KUNIT_EXPECT_EQ(test, node->send_rdma0_op, IRDMA_RTR_NONE);
	KUNIT_EXPECT_EQ(test, node->mpav2_ird_ord, 0x3fff);

	/* Reserved bits are not checked on receipt (RFC 5044). */
	buf[SPEC_FLAGS] |= 0x0f;
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(node, buf, &type, n), 0);

	/*
	 * Nor is R in a request (RFC 5044 7.1.2: "set to zero, and not
	 * checked on reception, in the MPA Request Frame"): no reject.
	 */
	type = 0;
	buf[SPEC_FLAGS] |= SPEC_FLAG_R;
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(node, buf, &type, n), 0);
	KUNIT_EXPECT_EQ(test, type, IRDMA_MPA_REQUEST_ACCEPT);
}

static struct kunit_case mpa_parse_cases[] = {
	KUNIT_CASE_PARAM(mpa_parse_refuses_malformed, parse_bad_gen_params),
	KUNIT_CASE(mpa_parse_accepts_edges),
	{}
};

static struct kunit_suite mpa_parse_suite = {
	.name = "madcm_mpa_parse",
	.test_cases = mpa_parse_cases,
};

kunit_test_suites(&mpa_build_suite, &mpa_parse_suite);
