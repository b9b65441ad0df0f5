// SPDX-License-Identifier: GPL-2.0-only
/*
 * Send buffers: madcm_create_send_mad() with the semantics of
 * ib_create_send_mad(), in one allocation whatever the size.
 *
 * Layout of that allocation: struct madcm_send, then either the whole MAD
 * (256 bytes for IB, 2048 for OPA), or, for an RMPP payload, the header
 * part (hdr_len bytes, rounded up to 8) followed by the segments, each
 * seg_size bytes, back to back. Segment n is at a computed offset: O(1).
 */
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <madcm/mad.h>

#include "fault.h"
#include "mad_priv.h"

/*
 * Padding that fills the last segment: a message is sent in pieces of
 * mad_size - hdr_len data bytes each, and an empty message still fills one.
 */
static int madcm_pad_size(int hdr_len, int data_len, int mad_size)
{
	int seg_size = mad_size - hdr_len;
	int rem;

	if (!data_len || !seg_size)
		return seg_size;
	rem = data_len % seg_size;
	return rem ? seg_size - rem : 0;
}

/**
 * madcm_create_send_mad() - allocate a send buffer for a MAD
 * @mad_agent: the agent that will send it
 * @remote_qpn: the destination QP
 * @pkey_index: the P_Key index to send with (meaningful for QP1 only)
 * @rmpp_active: the MAD is an RMPP transfer (kernel-RMPP agents only)
 * @hdr_len: bytes of headers: common MAD header, RMPP header and class
 *	header
 * @data_len: bytes of data after the headers
 * @gfp_mask: how to allocate
 * @base_version: the MAD's base version: 0x80 on an OPA port makes an OPA
 *	MAD of 2048 bytes, anything else an IB MAD of 256 bytes
 *
 * The madcm twin of ib_create_send_mad(), with its semantics. The data is
 * padded so that it fills a whole number of segments of (MAD size -
 * @hdr_len) bytes, at least one. Without @rmpp_active the headers, data
 * and padding must fit in one MAD; with it the agent must do kernel RMPP,
 * and the buffer holds the headers in send_buf->mad and the data in
 * send_buf->seg_count segments of send_buf->seg_size bytes, reached with
 * madcm_get_rmpp_segment(). The MAD header, the class header and the
 * padding are zeroed (so is the rest of the buffer); with @rmpp_active the
 * RMPP header is set up: the agent's RMPP version, type DATA, flag ACTIVE.
 * The caller fills in the rest, sets send_buf->ah, timeout_ms and retries,
 * then posts it. Whatever its size, a send buffer is one allocation.
 *
 * Context: Any context allowed by @gfp_mask.
 * Return: the send buffer, or an ERR_PTR(): -EINVAL when @hdr_len or
 * @data_len is negative or does not fit the rules above, when the headers
 * are longer than a MAD (or, with @rmpp_active, shorter than the RMPP
 * header or leaving no room for data), or when the agent is being
 * unregistered; -ENOMEM when out of memory.
 */
struct ib_mad_send_buf *
madcm_create_send_mad(struct ib_mad_agent *mad_agent, u32 remote_qpn,
		      u16 pkey_index, int rmpp_active, int hdr_len,
		      int data_len, gfp_t gfp_mask, u8 base_version)
{
	struct madcm_agent *ag;
	struct madcm_send *ms;
	int mad_size, pad, seg_size = 0, seg_count = 0;
	size_t body, size;
	bool opa;

	if (!mad_agent || hdr_len < 0 || data_len < 0)
		return ERR_PTR(-EINVAL);
	ag = to_madcm_agent(mad_agent);
	mad_size = madcm_port_mad_size(ag->port, base_version);
	opa = mad_size == sizeof(struct opa_mad);
	if (hdr_len > mad_size)
		return ERR_PTR(-EINVAL);
	pad = madcm_pad_size(hdr_len, data_len, mad_size);

	if (madcm_mad_kernel_rmpp_agent(mad_agent)) {
		if (!rmpp_active && (size_t)hdr_len + data_len + pad > mad_size)
			return ERR_PTR(-EINVAL);
	} else if (rmpp_active ||
		   (size_t)hdr_len + data_len + pad > mad_size) {
		return ERR_PTR(-EINVAL);
	}

	if (rmpp_active) {
		if (hdr_len < IB_MGMT_RMPP_HDR || hdr_len == mad_size)
			return ERR_PTR(-EINVAL);
		seg_size = mad_size - hdr_len;
		seg_count = ((size_t)data_len + pad) / seg_size;
		body = ALIGN(hdr_len, 8) + (size_t)seg_count * seg_size;
	} else {
		body = mad_size;
	}
	size = size_add(sizeof(*ms), body);
	if (size > INT_MAX)
		return ERR_PTR(-EINVAL);
	if (size > PAGE_SIZE)
		gfp_mask |= __GFP_NOWARN;

	if (!madcm_agent_get(ag))
		return ERR_PTR(-EINVAL);
	if (READ_ONCE(ag->dying)) {
		madcm_agent_put(ag);
		return ERR_PTR(-EINVAL);
	}
	ms = madcm_fault(MADCM_FAULT_SEND_BUF) ? NULL :
		kvzalloc(size, gfp_mask);
	if (!ms) {
		madcm_agent_put(ag);
		return ERR_PTR(-ENOMEM);
	}

	ms->agent = ag;
	ms->port = ag->port;
	ms->state = MADCM_SEND_NEW;
	ms->mad_size = mad_size;
	ms->pad = pad;
	INIT_LIST_HEAD(&ms->node);
	ms->send_buf.mad = ms->buf;
	ms->send_buf.mad_agent = mad_agent;
	ms->send_buf.hdr_len = hdr_len;
	ms->send_buf.data_len = data_len;
	ms->remote_qpn = remote_qpn;
	ms->pkey_index = pkey_index;
	/* OPA MADs may be shorter than 2048 bytes; IB MADs never are. */
	if (opa && data_len < mad_size - hdr_len)
		ms->payload_len = data_len;
	else
		ms->payload_len = mad_size - hdr_len;

	if (rmpp_active) {
		struct ib_rmpp_mad *rmpp_mad = ms->send_buf.mad;

		ms->rmpp = true;
		ms->seg_base = ms->buf + ALIGN(hdr_len, 8);
		ms->send_buf.seg_size = seg_size;
		ms->send_buf.seg_count = seg_count;
		ms->send_buf.seg_rmpp_size = mad_size - IB_MGMT_RMPP_HDR;
		rmpp_mad->rmpp_hdr.rmpp_version = mad_agent->rmpp_version;
		rmpp_mad->rmpp_hdr.rmpp_type = IB_MGMT_RMPP_TYPE_DATA;
		ib_set_rmpp_flags(&rmpp_mad->rmpp_hdr,
				  IB_MGMT_RMPP_FLAG_ACTIVE);
	}
	atomic_inc(&ag->live_bufs);
	return &ms->send_buf;
}
EXPORT_SYMBOL_GPL(madcm_create_send_mad);

/**
 * madcm_get_rmpp_segment() - the data of one segment of an RMPP send buffer
 * @send_buf: a send buffer created with rmpp_active
 * @seg_num: the segment, from 1 to send_buf->seg_count
 *
 * The madcm twin of ib_get_rmpp_segment(), in constant time.
 *
 * Context: Any context.
 * Return: the segment's send_buf->seg_size bytes of data, or NULL when
 * @send_buf has no segments or @seg_num is out of range.
 */
void *madcm_get_rmpp_segment(struct ib_mad_send_buf *send_buf, int seg_num)
{
	struct madcm_send *ms;

	if (!send_buf)
		return NULL;
	ms = to_madcm_send(send_buf);
	if (!ms->rmpp || seg_num < 1 || seg_num > send_buf->seg_count)
		return NULL;
	return ms->seg_base + (size_t)(seg_num - 1) * send_buf->seg_size;
}
EXPORT_SYMBOL_GPL(madcm_get_rmpp_segment);

/* Free the buffer and drop its agent reference. */
void madcm_send_buf_release(struct madcm_send *ms)
{
	struct madcm_agent *ag = ms->agent;

	atomic_dec(&ag->live_bufs);
	kvfree(ms);
	madcm_agent_put(ag);
}

/**
 * madcm_free_send_mad() - free a send buffer
 * @send_buf: the buffer, not posted or already returned through the send
 *	handler
 *
 * The madcm twin of ib_free_send_mad(). A buffer is the caller's to free
 * when it was never posted, or once its send handler has been called for
 * it. Freeing one the core still holds (posted, waiting for its
 * response, handed to the recv handler with its response, or done but
 * still waiting for its send handler) is a caller bug: it is counted
 * (api_misuse in the port's counters), reported once, and the buffer is
 * left alone; it still comes back through the send handler.
 *
 * Context: Any context but hard interrupt context. An RMPP buffer large
 * enough to have been vmalloc'ed is vfree'd, which may sleep: not in
 * atomic process context for those.
 */
void madcm_free_send_mad(struct ib_mad_send_buf *send_buf)
{
	struct madcm_send *ms;
	unsigned long flags;
	bool callers;
	int state;

	if (!send_buf)
		return;
	ms = to_madcm_send(send_buf);
	spin_lock_irqsave(&ms->agent->lock, flags);
	callers = madcm_send_is_callers(ms);
	state = ms->state;
	spin_unlock_irqrestore(&ms->agent->lock, flags);
	if (!callers) {
		madcm_send_misuse(ms, "freeing a send buffer the core holds",
				  state);
		return;
	}
	madcm_send_buf_release(ms);
}
EXPORT_SYMBOL_GPL(madcm_free_send_mad);
