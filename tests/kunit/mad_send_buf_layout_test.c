// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the layout of RMPP send buffers and what madcm zeroes in them.
 *
 * The layout: every segment of every RMPP buffer comes from
 * madcm_get_rmpp_segment() at the same address whatever the order of the
 * calls (no cursor to walk), lies inside one page, is not vmalloc'ed and
 * overlaps no other segment.
 *
 * The zeroing guarantee (Documentation/mad.rst): every byte of a segment
 * reads as zero until the ULP writes it, and a segment the ULP never
 * touched goes on the wire as zeros, even when the memory under it held
 * another buffer's data before.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mad_rmpp_util.h"

/* IBTA: IB MADs are 256 bytes, OPA MADs (base version 0x80) 2048. */
#define LT_IB_MAD	256
#define LT_OPA_MAD	2048
#define LT_OPA_BASE	0x80
/* The RMPP header ends at byte 36 (13.6.2.1). */
#define LT_RMPP_END	36

struct layout_case {
	int hdr_len;
	int data_len;
	bool opa;
};

static const struct layout_case layout_cases[] = {
	{ LT_RMPP_END, 1, false },
	{ 56, 200, false },		/* SA: one full segment */
	{ 56, 4096, false },
	{ 56, 64 << 10, false },
	{ 56, 1 << 20, false },
	{ 128, 1 << 20, false },	/* 128-byte segments: 32 to a page */
	{ 220, 100000, false },		/* 36-byte segments */
	{ 255, 5000, false },		/* 1-byte segments */
	{ 56, 1 << 20, true },		/* 1992-byte segments: 2 to a page */
	{ LT_RMPP_END, 100000, true },
};

static void layout_desc(const struct layout_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s hdr %d data %d",
		 c->opa ? "opa" : "ib", c->hdr_len, c->data_len);
}

KUNIT_ARRAY_PARAM(layout, layout_cases, layout_desc);

static void lt_nop_send(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
}

static struct ib_mad_agent *lt_agent(struct kunit *test, bool opa)
{
	struct madcm_loop_fabric *fab = mt_fabric(test, 1);
	struct madcm_port *port = mt_loop_port(test, fab, 1, opa);

	return mt_register(test, port, IB_QPT_GSI, NULL, 1, lt_nop_send,
			   NULL, NULL)->agent;
}

static struct ib_mad_send_buf *lt_create(struct kunit *test,
					 struct ib_mad_agent *agent,
					 int hdr_len, int data_len, bool opa)
{
	struct ib_mad_send_buf *sb;

	sb = madcm_create_send_mad(agent, 1, 0, 1, hdr_len, data_len,
				   GFP_KERNEL, opa ? LT_OPA_BASE :
				   IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(sb), "err %ld", PTR_ERR(sb));
	return sb;
}

static bool lt_all(const u8 *p, u8 v, size_t len)
{
	return !memchr_inv(p, v, len);
}

/*
 * Every segment: in one page, not vmalloc'ed, first seen zeroed, at the
 * same address in ascending and in scattered order, overlapping no other.
 */
static void rmpp_segments_whole_in_pages(struct kunit *test)
{
	const struct layout_case *c = test->param_value;
	int mad = c->opa ? LT_OPA_MAD : LT_IB_MAD;
	int seg_size = mad - c->hdr_len;
	int nseg = DIV_ROUND_UP(c->data_len, seg_size);
	struct ib_mad_agent *agent = lt_agent(test, c->opa);
	struct ib_mad_send_buf *sb;
	u8 **segs;
	int n, k, bad = 0;

	sb = lt_create(test, agent, c->hdr_len, c->data_len, c->opa);
	KUNIT_ASSERT_EQ(test, sb->seg_size, seg_size);
	KUNIT_ASSERT_EQ(test, sb->seg_count, nseg);
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(sb->mad));
	segs = kunit_kmalloc_array(test, nseg + 1, sizeof(*segs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, segs);

	for (n = 1; n <= nseg; n++) {
		u8 *seg = madcm_get_rmpp_segment(sb, n);

		KUNIT_ASSERT_NOT_NULL(test, seg);
		segs[n] = seg;
		bad += is_vmalloc_addr(seg);
		bad += offset_in_page(seg) + seg_size > PAGE_SIZE;
		bad += !lt_all(seg, 0, seg_size);
		memset(seg, (u8)n, seg_size);
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0,
			    "segments vmalloc'ed, straddling a page or dirty");
	/* Scattered order: a stride prime to nothing small. */
	for (k = 0, n = 1; k < nseg; k++, n = 1 + (n - 1 + 7919) % nseg)
		bad += madcm_get_rmpp_segment(sb, n) != segs[n];
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "a segment moved");
	/* No overlap: each still holds its own byte, end to end. */
	for (n = 1; n <= nseg; n++)
		bad += !lt_all(segs[n], (u8)n, seg_size);
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "segments overlap");
	/* The headers are apart from the data too. */
	KUNIT_EXPECT_EQ(test, ((u8 *)sb->mad)[25], 1);	/* RMPP type DATA */
	madcm_free_send_mad(sb);
	KUNIT_EXPECT_EQ(test, madcm_agent_live_bufs(agent), 0);
}

/*
 * A buffer made right after another one was filled and freed (its pages
 * may come back dirty): still every segment reads as zero the first time,
 * and what the ULP wrote stays when it asks again.
 */
static void rmpp_segment_zero_until_written(struct kunit *test)
{
	struct ib_mad_agent *agent = lt_agent(test, false);
	const int len = 1 << 20, hdr = 56, seg_size = LT_IB_MAD - hdr;
	struct ib_mad_send_buf *sb;
	int n, dirty = 0, lost = 0;

	sb = lt_create(test, agent, hdr, len, false);
	for (n = 1; n <= sb->seg_count; n++)
		memset(madcm_get_rmpp_segment(sb, n), 0x5a, seg_size);
	madcm_free_send_mad(sb);

	sb = lt_create(test, agent, hdr, len, false);
	for (n = 1; n <= sb->seg_count; n++) {
		u8 *seg = madcm_get_rmpp_segment(sb, n);

		dirty += !lt_all(seg, 0, seg_size);
		if (n % 3 == 0)
			memset(seg, 0xc3, seg_size);
	}
	for (n = 3; n <= sb->seg_count; n += 3)
		lost += !lt_all(madcm_get_rmpp_segment(sb, n), 0xc3, seg_size);
	KUNIT_EXPECT_EQ(test, dirty, 0);
	KUNIT_EXPECT_EQ(test, lost, 0);
	madcm_free_send_mad(sb);
}

/* What the receiver of the half-filled transfer saw. */
struct lt_wire {
	struct completion received;
	struct completion sent;
	enum ib_wc_status status;
	u32 nseg;
	int bad_filled;
	int bad_untouched;
};

static void lt_wire_recv(struct ib_mad_agent *agent,
			 struct ib_mad_send_buf *send_buf,
			 struct ib_mad_recv_wc *wc)
{
	struct lt_wire *w = agent->context;
	const struct ib_mad_recv_buf *rb;
	u32 i = 0;

	list_for_each_entry(rb, &wc->rmpp_list, list) {
		const u8 *d = (const u8 *)rb->mad + RT_HDR;
		size_t off = (size_t)i * RT_DATA;
		int j;

		i++;
		if (i % 2) {
			for (j = 0; j < RT_DATA; j++)
				w->bad_filled += d[j] != rt_pattern(off + j, 9);
		} else {
			w->bad_untouched += !lt_all(d, 0, RT_DATA);
		}
	}
	w->nseg = i;
	madcm_free_recv_mad(wc);
	complete(&w->received);
}

static void lt_wire_send(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
	struct lt_wire *w = agent->context;

	w->status = wc->status;
	madcm_free_send_mad(wc->send_buf);
	complete(&w->sent);
}

/*
 * A ULP fills only the odd segments of a 64 KiB SA transfer, over memory
 * that held a filled buffer a moment before; the receiver gets the odd
 * segments as written and the even ones as zeros.
 */
static void rmpp_untouched_segments_sent_as_zeros(struct kunit *test)
{
	static const u8 set[] = { RT_SET };
	const u32 nseg = 328, len = nseg * RT_DATA;
	struct madcm_loop_fabric *fab = mt_fabric(test, 7);
	struct madcm_port *a = mt_loop_port(test, fab, 1, false);
	struct madcm_port *b = mt_loop_port(test, fab, 2, false);
	struct lt_wire *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct ib_mad_send_buf *sb;
	struct ib_mad_reg_req req;
	struct ib_mad_agent *tx;
	struct ib_mad_hdr *hdr;
	u32 n;
	int j;

	KUNIT_ASSERT_NOT_NULL(test, w);
	init_completion(&w->received);
	init_completion(&w->sent);
	mt_reg_req(&req, RT_CLASS, RT_VERSION, set, 1);
	tx = mt_register(test, a, IB_QPT_GSI, NULL, 1, lt_wire_send,
			 lt_wire_recv, w)->agent;
	mt_register(test, b, IB_QPT_GSI, &req, 1, lt_wire_send, lt_wire_recv,
		    w);

	/* Leave the memory of a filled buffer behind. */
	sb = lt_create(test, tx, RT_HDR, len, false);
	for (n = 1; n <= sb->seg_count; n++)
		memset(madcm_get_rmpp_segment(sb, n), 0xa5, RT_DATA);
	madcm_free_send_mad(sb);

	sb = lt_create(test, tx, RT_HDR, len, false);
	KUNIT_ASSERT_EQ(test, sb->seg_count, nseg);
	hdr = sb->mad;
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = RT_CLASS;
	hdr->class_version = RT_VERSION;
	hdr->method = RT_SET;
	hdr->tid = cpu_to_be64((u64)tx->hi_tid << 32 | 1);
	for (n = 1; n <= nseg; n += 2) {
		u8 *d = madcm_get_rmpp_segment(sb, n);

		for (j = 0; j < RT_DATA; j++)
			d[j] = rt_pattern((size_t)(n - 1) * RT_DATA + j, 9);
	}
	sb->ah = mt_ah(test, a, 2);
	sb->retries = 10;
	KUNIT_ASSERT_EQ(test, madcm_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, rt_wait(&w->sent, 120));
	KUNIT_ASSERT_TRUE(test, rt_wait(&w->received, 30));
	madcm_loop_quiesce(fab);
	KUNIT_EXPECT_EQ(test, w->status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w->nseg, nseg);
	KUNIT_EXPECT_EQ(test, w->bad_filled, 0);
	KUNIT_EXPECT_EQ(test, w->bad_untouched, 0);
}

static struct kunit_case mad_send_buf_layout_cases[] = {
	KUNIT_CASE_PARAM(rmpp_segments_whole_in_pages, layout_gen_params),
	KUNIT_CASE(rmpp_segment_zero_until_written),
	KUNIT_CASE(rmpp_untouched_segments_sent_as_zeros),
	{}
};

static struct kunit_suite mad_send_buf_layout_suite = {
	.name = "madcm_mad_send_buf_layout",
	.test_cases = mad_send_buf_layout_cases,
};

kunit_test_suite(mad_send_buf_layout_suite);
