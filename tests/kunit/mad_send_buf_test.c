// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: send buffers. madcm_create_send_mad() over a grid of header
 * lengths, data lengths, RMPP on or off, base versions, agents with and
 * without RMPP and ports with and without OPA. The expectations come from
 * the rules of IBTA vol. 1 13.4 and 13.6 (and OPA's 2048-byte MADs), as
 * the ib_create_send_mad() documentation states them, worked out below
 * on their own.
 */
#include <kunit/test.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "mad_test_util.h"

/* IBTA: an IB MAD is 256 bytes; OPA: a MAD of base version 0x80 2048. */
#define SPEC_IB_MAD		256
#define SPEC_OPA_MAD		2048
#define SPEC_OPA_BASE		0x80
#define SPEC_IB_BASE		0x01
/* RMPP header: bytes 24 to 35; version 24, type 25, flags 26 bits 0-2. */
#define SPEC_RMPP_END		36
#define SPEC_RMPP_VERSION_OFF	24
#define SPEC_RMPP_TYPE_OFF	25
#define SPEC_RMPP_FLAGS_OFF	26
#define SPEC_RMPP_TYPE_DATA	1
#define SPEC_RMPP_FLAG_ACTIVE	1

struct size_case {
	int hdr_len;
	int data_len;
	bool rmpp_active;
	u8 base_version;
	u8 agent_rmpp;
	bool opa_port;
};

static const int grid_hdr[] = { 24, 36, 40, 56, 255, 256 };
static const int grid_data[] = { 0, 1, 200, 216, 232, 1000, 2024, 5000 };

#define GRID_N (ARRAY_SIZE(grid_hdr) * ARRAY_SIZE(grid_data) * 16)

static struct size_case size_cases[GRID_N];

static void size_grid_fill(void)
{
	int i = 0, h, d, combo;

	for (h = 0; h < ARRAY_SIZE(grid_hdr); h++)
		for (d = 0; d < ARRAY_SIZE(grid_data); d++)
			for (combo = 0; combo < 16; combo++) {
				struct size_case *c = &size_cases[i++];

				c->hdr_len = grid_hdr[h];
				c->data_len = grid_data[d];
				c->rmpp_active = combo & 1;
				c->base_version = combo & 2 ? SPEC_OPA_BASE :
							      SPEC_IB_BASE;
				c->agent_rmpp = combo & 4 ? 1 : 0;
				c->opa_port = combo & 8;
			}
}

static void size_case_desc(const struct size_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE,
		 "hdr %d data %d rmpp_active %d base 0x%02x agent_rmpp %d %s port",
		 c->hdr_len, c->data_len, c->rmpp_active, c->base_version,
		 c->agent_rmpp, c->opa_port ? "opa" : "ib");
}

static const void *size_gen_params(const void *prev, char *desc)
{
	const struct size_case *c = prev;

	if (!c) {
		size_grid_fill();
		c = size_cases;
	} else {
		c++;
	}
	if (c >= size_cases + GRID_N)
		return NULL;
	size_case_desc(c, desc);
	return c;
}

/* What the rules say about a case. */
struct size_expect {
	int err;
	int mad_size;
	int seg_size;	/* data bytes per segment */
	int pad;
	int seg_count;	/* with RMPP */
};

static struct size_expect spec_expect(const struct size_case *c)
{
	struct size_expect e = {};
	bool kernel_rmpp = c->agent_rmpp;	/* registered without USER_RMPP */
	int total;

	e.mad_size = c->opa_port && c->base_version == SPEC_OPA_BASE ?
		     SPEC_OPA_MAD : SPEC_IB_MAD;
	if (c->hdr_len > e.mad_size) {
		e.err = -EINVAL;
		return e;
	}
	e.seg_size = e.mad_size - c->hdr_len;
	/*
	 * The data fills whole segments, and even no data fills one: pad
	 * up to the next multiple of the segment's data size.
	 */
	if (c->data_len == 0 || e.seg_size == 0)
		e.pad = e.seg_size;
	else
		e.pad = (e.seg_size - c->data_len % e.seg_size) % e.seg_size;
	total = c->hdr_len + c->data_len + e.pad;

	/* RMPP needs an agent that has madcm do RMPP for it. */
	if (c->rmpp_active && !kernel_rmpp)
		e.err = -EINVAL;
	/* Without RMPP, everything must fit in a single MAD. */
	else if (!c->rmpp_active && total > e.mad_size)
		e.err = -EINVAL;
	/* RMPP needs room for its header and for data in each segment. */
	else if (c->rmpp_active &&
		 (c->hdr_len < SPEC_RMPP_END || e.seg_size == 0))
		e.err = -EINVAL;
	if (!e.err && c->rmpp_active)
		e.seg_count = (c->data_len + e.pad) / e.seg_size;
	return e;
}

struct sb_env {
	struct madcm_port *port;
	struct mt_agent *agent;
};

static void sb_nop_send(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
}

static struct ib_mad_agent *sb_agent(struct kunit *test, bool opa, u8 rmpp)
{
	struct madcm_loop_fabric *fab = mt_fabric(test, 1);
	struct madcm_port *port = mt_loop_port(test, fab, 1, opa);

	return mt_register(test, port, IB_QPT_GSI, NULL, rmpp, sb_nop_send,
			   NULL, NULL)->agent;
}

static bool all_zero(const u8 *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

static void create_send_mad_size_grid(struct kunit *test)
{
	const struct size_case *c = test->param_value;
	struct size_expect e = spec_expect(c);
	struct ib_mad_agent *agent = sb_agent(test, c->opa_port, c->agent_rmpp);
	struct ib_mad_send_buf *sb;
	u8 *mad;
	int n;

	sb = madcm_create_send_mad(agent, 1, 0, c->rmpp_active, c->hdr_len,
				   c->data_len, GFP_KERNEL, c->base_version);
	if (e.err) {
		KUNIT_EXPECT_TRUE(test, IS_ERR(sb));
		if (IS_ERR(sb))
			KUNIT_EXPECT_EQ(test, PTR_ERR(sb), (long)e.err);
		else
			madcm_free_send_mad(sb);
		KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(agent), 0);
		return;
	}
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(sb), "err %ld", PTR_ERR(sb));
	KUNIT_EXPECT_PTR_EQ(test, sb->mad_agent, agent);
	KUNIT_EXPECT_EQ(test, sb->hdr_len, c->hdr_len);
	KUNIT_EXPECT_EQ(test, sb->data_len, c->data_len);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(agent), 1);
	mad = sb->mad;
	if (!c->rmpp_active) {
		/* One MAD, zeroed: headers, data area and padding. */
		KUNIT_EXPECT_EQ(test, sb->seg_count, 0);
		KUNIT_EXPECT_TRUE(test, all_zero(mad, e.mad_size));
		KUNIT_EXPECT_NULL(test, madcm_get_rmpp_segment(sb, 1));
		/* The whole MAD is writable. */
		memset(mad, 0x5a, e.mad_size);
	} else {
		KUNIT_EXPECT_EQ(test, sb->seg_size, e.seg_size);
		KUNIT_EXPECT_EQ(test, sb->seg_count, e.seg_count);
		KUNIT_EXPECT_EQ(test, sb->seg_rmpp_size,
				e.mad_size - SPEC_RMPP_END);
		/* The RMPP header is set up, the rest of the headers zero. */
		KUNIT_EXPECT_TRUE(test, all_zero(mad, SPEC_RMPP_VERSION_OFF));
		KUNIT_EXPECT_EQ(test, mad[SPEC_RMPP_VERSION_OFF], 1);
		KUNIT_EXPECT_EQ(test, mad[SPEC_RMPP_TYPE_OFF],
				SPEC_RMPP_TYPE_DATA);
		KUNIT_EXPECT_EQ(test, mad[SPEC_RMPP_FLAGS_OFF] & 7,
				SPEC_RMPP_FLAG_ACTIVE);
		KUNIT_EXPECT_TRUE(test, all_zero(mad + SPEC_RMPP_FLAGS_OFF + 1,
						 c->hdr_len - SPEC_RMPP_FLAGS_OFF - 1));
		/* The padding at the end of the last segment is zero. */
		if (e.pad) {
			u8 *last = madcm_get_rmpp_segment(sb, e.seg_count);

			KUNIT_ASSERT_NOT_NULL(test, last);
			KUNIT_EXPECT_TRUE(test, all_zero(last + e.seg_size -
							    e.pad, e.pad));
		}
		/* Segments 1..n exist, are writable, and do not overlap. */
		for (n = 1; n <= e.seg_count; n++) {
			u8 *seg = madcm_get_rmpp_segment(sb, n);

			KUNIT_ASSERT_NOT_NULL(test, seg);
			memset(seg, n, e.seg_size);
		}
		for (n = 1; n <= e.seg_count; n++) {
			u8 *seg = madcm_get_rmpp_segment(sb, n);

			KUNIT_EXPECT_EQ(test, seg[0], (u8)n);
			KUNIT_EXPECT_EQ(test, seg[e.seg_size - 1], (u8)n);
		}
		KUNIT_EXPECT_NULL(test, madcm_get_rmpp_segment(sb, 0));
		KUNIT_EXPECT_NULL(test,
				  madcm_get_rmpp_segment(sb, e.seg_count + 1));
		/* The headers survived the segments being written. */
		KUNIT_EXPECT_EQ(test, mad[SPEC_RMPP_TYPE_OFF],
				SPEC_RMPP_TYPE_DATA);
	}
	madcm_free_send_mad(sb);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(agent), 0);
}

/* Bad caller arguments get -EINVAL, never a buffer. */
static void create_send_mad_rejects_bad_lengths(struct kunit *test)
{
	struct ib_mad_agent *agent = sb_agent(test, false, 1);
	static const int bad[][2] = {
		{ -1, 0 }, { 24, -1 }, { 257, 0 }, { INT_MIN, 8 }, { 24, INT_MIN },
	};
	struct ib_mad_send_buf *sb;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		sb = madcm_create_send_mad(agent, 1, 0, 0, bad[i][0],
					   bad[i][1], GFP_KERNEL,
					   IB_MGMT_BASE_VERSION);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(sb), -EINVAL,
				    "hdr %d data %d", bad[i][0], bad[i][1]);
	}
	sb = madcm_create_send_mad(NULL, 1, 0, 0, 24, 0, GFP_KERNEL, 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(sb), -EINVAL);
	/* An RMPP payload whose buffer would pass INT_MAX bytes. */
	sb = madcm_create_send_mad(agent, 1, 0, 1, IB_MGMT_SA_HDR, INT_MAX,
				   GFP_KERNEL, 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(sb), -EINVAL);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(agent), 0);
}

/* Megabytes of RMPP payload: one buffer, its first and last segments. */
static void create_send_mad_large_rmpp_payload(struct kunit *test)
{
	struct ib_mad_agent *agent = sb_agent(test, false, 1);
	const int hdr = IB_MGMT_SA_HDR, data = 4 << 20;
	const int per_seg = SPEC_IB_MAD - hdr;
	const int segs = DIV_ROUND_UP(data, per_seg);
	struct ib_mad_send_buf *sb;
	u8 *first, *last;

	sb = madcm_create_send_mad(agent, 1, 0, 1, hdr, data, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	KUNIT_EXPECT_EQ(test, sb->seg_count, segs);
	first = madcm_get_rmpp_segment(sb, 1);
	last = madcm_get_rmpp_segment(sb, segs);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_ASSERT_NOT_NULL(test, last);
	/* Each lies in a page of its own (madcm_mad_send_buf_layout). */
	KUNIT_EXPECT_LE(test, offset_in_page(first) + per_seg, PAGE_SIZE);
	KUNIT_EXPECT_LE(test, offset_in_page(last) + per_seg, PAGE_SIZE);
	KUNIT_EXPECT_PTR_NE(test, first, last);
	memset(last, 0xee, per_seg);
	memset(first, 0xee, per_seg);
	madcm_free_send_mad(sb);
}

/* An allocation that fails gives -ENOMEM and leaves nothing behind. */
static void create_send_mad_enomem(struct kunit *test)
{
	struct ib_mad_agent *agent = sb_agent(test, false, 0);
	struct ib_mad_send_buf *sb;

	madcm_fault_arm(MADCM_FAULT_SEND_BUF, 1);
	sb = madcm_create_send_mad(agent, 1, 0, 0, 24, 232, GFP_KERNEL, 1);
	madcm_fault_disarm();
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(sb), -ENOMEM);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(agent), 0);
	/* GFP_ATOMIC works too, for the small buffers. */
	sb = madcm_create_send_mad(agent, 1, 0, 0, 24, 232, GFP_ATOMIC, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	madcm_free_send_mad(sb);
}

static void free_send_mad_null_is_noop(struct kunit *test)
{
	madcm_free_send_mad(NULL);
	KUNIT_EXPECT_NULL(test, madcm_get_rmpp_segment(NULL, 1));
}

static struct kunit_case mad_send_buf_cases[] = {
	KUNIT_CASE_PARAM(create_send_mad_size_grid, size_gen_params),
	KUNIT_CASE(create_send_mad_rejects_bad_lengths),
	KUNIT_CASE(create_send_mad_large_rmpp_payload),
	KUNIT_CASE(create_send_mad_enomem),
	KUNIT_CASE(free_send_mad_null_is_noop),
	{}
};

static struct kunit_suite mad_send_buf_suite = {
	.name = "madcm_mad_send_buf",
	.test_cases = mad_send_buf_cases,
};

kunit_test_suite(mad_send_buf_suite);
