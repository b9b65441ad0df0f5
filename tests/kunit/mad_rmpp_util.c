// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers of the RMPP suites (see mad_rmpp_util.h).
 */
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "mad/rmpp.h"
#include "mad_rmpp_util.h"
#include "madcm_compat.h"

u8 rt_pattern(size_t off, u8 seed)
{
	return (u8)(off * 131 + (off >> 9) * 7 + seed);
}

u32 rt_get32(const u8 *mad, int off)
{
	return get_unaligned_be32(mad + off);
}

void rt_mad(u8 *mad, u8 method, u64 tid, u8 type, u8 flags, u8 status,
	    u32 seg, u32 paylen_newwin)
{
	memset(mad, 0, RT_MAD);
	mad[0] = 1;			/* base version */
	mad[1] = RT_CLASS;
	mad[2] = RT_VERSION;
	mad[3] = method;
	put_unaligned_be64(tid, mad + 8);
	mad[RT_OFF_VERSION] = 1;
	mad[RT_OFF_TYPE] = type;
	mad[RT_OFF_FLAGS] = flags;
	mad[RT_OFF_STATUS] = status;
	put_unaligned_be32(seg, mad + RT_OFF_SEG);
	put_unaligned_be32(paylen_newwin, mad + RT_OFF_PAYLEN);
}

void rt_data_seg(u8 *mad, u8 method, u64 tid, u32 seg, u32 nseg,
		 size_t len, u8 seed)
{
	u8 flags = RT_FLAG_ACTIVE;
	u32 paylen = 0;
	size_t off = (size_t)(seg - 1) * RT_DATA;
	int j;

	/* 13.6.2.3: the whole payload in segment 1, its own in the last. */
	if (seg == 1) {
		flags |= RT_FLAG_FIRST;
		paylen = nseg * RT_PAYLOAD - (nseg * RT_DATA - len);
	}
	if (seg == nseg) {
		flags |= RT_FLAG_LAST;
		paylen = RT_PAYLOAD - (nseg * RT_DATA - len);
	}
	rt_mad(mad, method, tid, RT_TYPE_DATA, flags, 0, seg, paylen);
	for (j = 0; j < RT_DATA && off + j < len; j++)
		mad[RT_HDR + j] = rt_pattern(off + j, seed);
}

void rt_log_init(struct rt_agent_log *log, size_t expect_len, u8 seed)
{
	memset(log, 0, sizeof(*log));
	spin_lock_init(&log->lock);
	log->expect_len = expect_len;
	log->seed = seed;
	init_completion(&log->received);
	init_completion(&log->sent);
}

struct rt_agent_log *rt_log(struct kunit *test, size_t expect_len, u8 seed)
{
	struct rt_agent_log *log = kunit_kzalloc(test, sizeof(*log),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, log);
	rt_log_init(log, expect_len, seed);
	return log;
}

/*
 * Count what differs between a reassembled transfer and what the spec
 * says a sender of @len bytes with pattern @seed puts on the wire.
 */
int rt_check_recv(const struct ib_mad_recv_wc *wc, size_t len, u8 seed)
{
	u32 nseg = rt_nseg(len), pad = rt_pad(len), i = 0;
	const struct ib_mad_recv_buf *rb;
	size_t off = 0;
	int bad = 0;

	list_for_each_entry(rb, &wc->rmpp_list, list) {
		const u8 *m = (const u8 *)rb->mad;
		u8 flags = RT_FLAG_ACTIVE;
		u32 paylen = 0;
		int j;

		i++;
		if (i == 1) {
			flags |= RT_FLAG_FIRST;
			paylen = nseg * RT_PAYLOAD - pad;
		}
		if (i == nseg) {
			flags |= RT_FLAG_LAST;
			paylen = RT_PAYLOAD - pad;
		}
		bad += m[RT_OFF_TYPE] != RT_TYPE_DATA;
		bad += rt_get32(m, RT_OFF_SEG) != i;
		bad += (m[RT_OFF_FLAGS] & 7) != flags;
		bad += rt_get32(m, RT_OFF_PAYLEN) != paylen;
		for (j = 0; j < RT_DATA && off < len; j++, off++)
			bad += m[RT_HDR + j] != rt_pattern(off, seed);
	}
	bad += i != nseg;
	bad += wc->mad_len != RT_HDR + len;
	return bad;
}

/* Answer a request with an RMPP response of log->respond_len bytes. */
static void rt_respond(struct ib_mad_agent *agent,
		       const struct ib_mad_recv_wc *wc,
		       struct rt_agent_log *log)
{
	const struct ib_mad_hdr *req = &wc->recv_buf.mad->mad_hdr;
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;
	struct ib_ah *ah;
	int ret = -ENOMEM;
	u32 n;

	ah = madcm_create_ah_from_wc(to_madcm_agent(agent)->port, wc->wc,
				     wc->recv_buf.grh);
	if (IS_ERR(ah))
		goto fail;
	sb = madcm_create_send_mad(agent, wc->wc->src_qp, wc->wc->pkey_index,
				   1, RT_HDR, log->respond_len, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		madcm_destroy_ah(ah);
		goto fail;
	}
	hdr = sb->mad;
	hdr->base_version = 1;
	hdr->mgmt_class = RT_CLASS;
	hdr->class_version = RT_VERSION;
	hdr->method = req->method | RT_RESP;
	hdr->tid = req->tid;
	for (n = 1; n <= sb->seg_count; n++) {
		u8 *d = madcm_get_rmpp_segment(sb, n);
		size_t off = (size_t)(n - 1) * sb->seg_size;
		int j;

		for (j = 0; j < sb->seg_size && off + j < log->respond_len; j++)
			d[j] = rt_pattern(off + j, log->respond_seed);
	}
	sb->ah = ah;
	sb->retries = log->respond_retries;
	sb->context[0] = ah;
	ret = madcm_post_send_mad(sb, NULL);
	if (!ret)
		return;
	madcm_free_send_mad(sb);
	madcm_destroy_ah(ah);
fail:
	spin_lock(&log->lock);
	log->respond_err = ret;
	spin_unlock(&log->lock);
}

void rt_recv_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *wc)
{
	struct rt_agent_log *log = agent->context;
	const struct ib_mad_recv_buf *rb;
	int bad = rt_check_recv(wc, log->expect_len, log->seed);
	u32 n = 0;

	list_for_each_entry(rb, &wc->rmpp_list, list)
		n++;
	if (log->respond_len && !send_buf)
		rt_respond(agent, wc, log);
	spin_lock(&log->lock);
	log->transfers++;
	log->with_send += !!send_buf;
	log->bad += bad;
	log->nseg = n;
	log->mad_len = wc->mad_len;
	spin_unlock(&log->lock);
	madcm_free_recv_mad(wc);
	complete(&log->received);
}

void rt_send_handler(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc)
{
	struct rt_agent_log *log = agent->context;

	spin_lock(&log->lock);
	log->sends++;
	if (wc->status < ARRAY_SIZE(log->status))
		log->status[wc->status]++;
	log->last_retries = wc->send_buf->retries;
	spin_unlock(&log->lock);
	if (wc->send_buf->context[0])
		madcm_destroy_ah(wc->send_buf->ah);
	madcm_free_send_mad(wc->send_buf);
	complete(&log->sent);
}

bool rt_wait(struct completion *c, unsigned long secs)
{
	return wait_for_completion_timeout(c, secs * HZ) != 0;
}

struct mt_agent *rt_agent(struct kunit *test, struct madcm_port *port,
			  const u8 *methods, int nr, u32 flags,
			  struct rt_agent_log *log)
{
	struct ib_mad_reg_req req;

	mt_reg_req(&req, RT_CLASS, RT_VERSION, methods, nr);
	return mt_register_flags(test, port, IB_QPT_GSI, methods ? &req : NULL,
				 1, rt_send_handler, rt_recv_handler, log,
				 flags);
}

struct ib_mad_send_buf *rt_send(struct kunit *test, struct ib_mad_agent *ag,
				struct ib_ah *ah, u8 method, u32 tid_lo,
				size_t len, u8 seed, int timeout_ms,
				int retries)
{
	struct ib_mad_send_buf *sb;
	struct ib_mad_hdr *hdr;
	u32 n;

	sb = madcm_create_send_mad(ag, 1, 0, 1, RT_HDR, len, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	KUNIT_ASSERT_EQ(test, sb->seg_count, rt_nseg(len));
	hdr = sb->mad;
	hdr->base_version = 1;
	hdr->mgmt_class = RT_CLASS;
	hdr->class_version = RT_VERSION;
	hdr->method = method;
	hdr->tid = cpu_to_be64((u64)ag->hi_tid << 32 | tid_lo);
	for (n = 1; n <= sb->seg_count; n++) {
		u8 *d = madcm_get_rmpp_segment(sb, n);
		size_t off = (size_t)(n - 1) * RT_DATA;
		int j;

		for (j = 0; j < RT_DATA && off + j < len; j++)
			d[j] = rt_pattern(off + j, seed);
	}
	sb->ah = ah;
	sb->timeout_ms = timeout_ms;
	sb->retries = retries;
	return sb;
}

void rt_params_save(struct rt_params *p)
{
	p->window = madcm_rmpp_window;
	p->max_reassemblies = madcm_rmpp_max_reassemblies;
	p->max_bytes = madcm_rmpp_max_reassembly_bytes;
	p->max_source_reassemblies = madcm_rmpp_max_source_reassemblies;
	p->max_source_bytes = madcm_rmpp_max_source_bytes;
	p->recv_timeout_ms = madcm_rmpp_recv_timeout_ms;
	p->ack_timeout_ms = madcm_rmpp_ack_timeout_ms;
}

void rt_params_restore(const struct rt_params *p)
{
	madcm_rmpp_window = p->window;
	madcm_rmpp_max_reassemblies = p->max_reassemblies;
	madcm_rmpp_max_reassembly_bytes = p->max_bytes;
	madcm_rmpp_max_source_reassemblies = p->max_source_reassemblies;
	madcm_rmpp_max_source_bytes = p->max_source_bytes;
	madcm_rmpp_recv_timeout_ms = p->recv_timeout_ms;
	madcm_rmpp_ack_timeout_ms = p->ack_timeout_ms;
}

/**
 * rt_params_init() - a suite's init: save the RMPP parameters, set some
 * @test: the case; its priv holds what was saved
 * @window: the receive window the case runs with
 * @ack_timeout_ms: the ACK timeout the case runs with
 *
 * Return: 0, or -ENOMEM.
 */
int rt_params_init(struct kunit *test, unsigned int window,
		   unsigned int ack_timeout_ms)
{
	struct rt_params *saved = kunit_kzalloc(test, sizeof(*saved),
						GFP_KERNEL);

	if (!saved)
		return -ENOMEM;
	rt_params_save(saved);
	test->priv = saved;
	madcm_rmpp_window = window;
	madcm_rmpp_ack_timeout_ms = ack_timeout_ms;
	return 0;
}

/**
 * rt_params_exit() - a suite's exit: put the saved parameters back
 * @test: the case
 */
void rt_params_exit(struct kunit *test)
{
	rt_params_restore(test->priv);
}
