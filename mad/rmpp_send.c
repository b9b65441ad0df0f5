// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RMPP sender (IBTA vol. 1 13.6.3, 13.6.4): a send buffer created with
 * rmpp_active goes out one DATA segment at a time, straight from the
 * buffer's own segments, while the receiver's window allows.
 *
 *   segment 1     FIRST, PayloadLength = every segment's bytes after the
 *                 RMPP header (seg_count * 220 - pad on IB)
 *   segment n     LAST when n == seg_count, PayloadLength = its own bytes
 *                 (220 - pad); 0 in the segments between
 *
 * The window starts at segment 1 alone (13.6.3.1), or at what a
 * turn-around ACK offered when this is the response of a dual-sided
 * transfer. Every ACK (SegmentNumber = last segment received in order,
 * NewWindowLast = the last segment the receiver takes now) slides it and
 * gives the send its retries back. When a window's segments are out and
 * no ACK comes within the ACK time (send_buf->timeout_ms, or the
 * rmpp_ack_timeout_ms parameter when 0, or longer when the receiver
 * announces a response time), the sender goes back to the segment after
 * the last acknowledged one and sends again, one retry used; with no
 * retry left it sends ABORT (TMR) and the send completes with
 * IB_WC_RESP_TIMEOUT_ERR. A STOP or ABORT from the receiver completes it
 * with IB_WC_REM_ABORT_ERR. When the last segment is acknowledged, a send
 * without timeout_ms is done; a request with one waits for its response,
 * and offers the responder a window with a turn-around ACK (SegmentNumber
 * 0). A response that arrives first acknowledges the request implicitly.
 *
 * The send's lifecycle states keep their meaning: POSTED while a segment
 * is with the transport (one at a time: the segment's header lives in
 * the buffer), WAIT_RESP while it waits for an ACK or its response.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <madcm/mad.h>

#include "mad_priv.h"
#include "rmpp.h"

/* The longest ACK time a receiver's RRespTime can ask for. */
#define MADCM_RMPP_MAX_ACK_MS	60000

static u32 madcm_rmpp_window_end(const struct madcm_send *ms)
{
	return min_t(u32, ms->rmpp_newwin, ms->send_buf.seg_count);
}

/* Send segment rmpp_sent + 1; the agent's lock is held. */
int madcm_rmpp_send_next(struct madcm_agent *ag, struct madcm_send *ms)
{
	struct ib_mad_send_buf *sb = &ms->send_buf;
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr(ms->buf);
	u32 n = ms->rmpp_sent + 1;
	u32 count = sb->seg_count;
	u8 flags = IB_MGMT_RMPP_FLAG_ACTIVE;
	u32 paylen = 0;
	int ret;

	if (n == 1) {
		flags |= IB_MGMT_RMPP_FLAG_FIRST;
		paylen = count * sb->seg_rmpp_size - ms->pad;
	}
	if (n == count) {
		flags |= IB_MGMT_RMPP_FLAG_LAST;
		paylen = sb->seg_rmpp_size - ms->pad;
	}
	rh->rmpp_type = IB_MGMT_RMPP_TYPE_DATA;
	rh->rmpp_status = 0;
	ib_set_rmpp_flags(rh, flags);
	rh->seg_num = cpu_to_be32(n);
	rh->paylen_newwin = cpu_to_be32(paylen);
	ret = madcm_send_post_seg(ag, ms, madcm_get_rmpp_segment(sb, n),
				  sb->seg_size);
	if (ret)
		return ret;
	ms->rmpp_sent = n;
	if (n > ms->rmpp_hi) {
		ms->rmpp_hi = n;
		madcm_port_count(ag->port, MADCM_CNT_RMPP_TX_SEG);
	} else {
		madcm_port_count(ag->port, MADCM_CNT_RMPP_TX_RESEG);
	}
	return 0;
}

/*
 * Start a posted RMPP send: the first window, the first segment. The
 * agent's lock is held. Return: 0 or the transport's error.
 */
int madcm_rmpp_send_start(struct madcm_agent *ag, struct madcm_send *ms)
{
	const struct ib_mad_hdr *hdr = ms->send_buf.mad;
	u32 repwin = 0;

	ms->rmpp_sent = 0;
	ms->rmpp_hi = 0;
	ms->rmpp_last_ack = 0;
	ms->rmpp_done = false;
	if (madcm_response_mad(hdr))
		repwin = madcm_rmpp_repwin(ag, &ms->key);
	ms->rmpp_newwin = repwin ?: 1;
	ms->rmpp_ack_ms = ms->timeout_ms ?: READ_ONCE(madcm_rmpp_ack_timeout_ms);
	if (!ms->rmpp_ack_ms)
		ms->rmpp_ack_ms = 1;
	return madcm_rmpp_send_next(ag, ms);
}

/* End a send, or have it end when the transport gives it back. */
static void madcm_rmpp_send_fail(struct madcm_agent *ag,
				 struct madcm_send *ms,
				 enum ib_wc_status status,
				 struct list_head *done)
{
	if (ms->at_transport) {
		ms->status = status;
		ms->state = MADCM_SEND_CANCELLED;
	} else {
		madcm_send_end(ag, ms, status, done);
	}
}

/* Send an ABORT about @ms's transfer to its receiver. */
static void madcm_rmpp_send_abort(struct madcm_agent *ag,
				  struct madcm_send *ms, u8 status)
{
	struct madcm_rmpp_dest dest;

	madcm_rmpp_dest_from_send(ms, &dest);
	madcm_rmpp_ctl_send(ag->port, &dest, ms->buf, ms->send_buf.hdr_len,
			    false, IB_MGMT_RMPP_TYPE_ABORT, status, 0, 0);
}

/*
 * madcm_rmpp_send_cancelled() - a transfer ends by its sender's will
 * @ag: the agent
 * @ms: the send, cancelled or flushed at unregistration
 *
 * A transfer under way (a segment sent, not every one acknowledged) gets
 * an ABORT, so that its receiver lets its reassembly go at once instead
 * of holding it for the inactivity time. The agent's lock is held.
 */
void madcm_rmpp_send_cancelled(struct madcm_agent *ag, struct madcm_send *ms)
{
	if (ms->rmpp && ms->rmpp_hi && !ms->rmpp_done)
		madcm_rmpp_send_abort(ag, ms, IB_MGMT_RMPP_STATUS_UNSPEC);
}

/* Offer the responder a window for the response (13.6.5.3). */
static void madcm_rmpp_send_turnaround(struct madcm_agent *ag,
				       struct madcm_send *ms)
{
	struct madcm_rmpp_dest dest;

	madcm_rmpp_dest_from_send(ms, &dest);
	madcm_rmpp_ctl_send(ag->port, &dest, ms->buf, ms->send_buf.hdr_len,
			    false, IB_MGMT_RMPP_TYPE_ACK, 0, 0,
			    max(READ_ONCE(madcm_rmpp_window), 1U));
}

/*
 * The transport completed a segment of a send still in its transfer
 * (state POSTED, status success): send the next one while the window
 * allows, else wait for an ACK.
 */
void madcm_rmpp_send_completed(struct madcm_agent *ag, struct madcm_send *ms,
			       struct list_head *done)
{
	if (ms->rmpp_sent < madcm_rmpp_window_end(ms) &&
	    !madcm_rmpp_send_next(ag, ms))
		return;
	/* A segment the transport refused is a lost one: the timer resends. */
	ms->state = MADCM_SEND_WAIT_RESP;
	madcm_timeout_add(ag, ms, ms->rmpp_ack_ms);
}

/*
 * No ACK within the ACK time (or, after the whole transfer, no response
 * in time); the send is off the timeout queue and in WAIT_RESP.
 */
void madcm_rmpp_send_timed_out(struct madcm_agent *ag, struct madcm_send *ms,
			       struct list_head *done)
{
	if (ms->rmpp_done) {
		madcm_send_end(ag, ms, IB_WC_RESP_TIMEOUT_ERR, done);
		return;
	}
	if (ms->retries_left <= 0) {
		madcm_rmpp_send_abort(ag, ms, IB_MGMT_RMPP_STATUS_TMR);
		madcm_send_end(ag, ms, IB_WC_RESP_TIMEOUT_ERR, done);
		return;
	}
	ms->retries_left--;
	ms->send_buf.retries++;
	madcm_port_count(ag->port, MADCM_CNT_RETRY);
	ms->rmpp_sent = ms->rmpp_last_ack;
	if (madcm_rmpp_send_next(ag, ms))
		madcm_timeout_add(ag, ms, ms->rmpp_ack_ms);
	else
		ms->state = MADCM_SEND_POSTED;
}

/* The ACK time, stretched to the receiver's RRespTime when it gives one. */
static void madcm_rmpp_send_resptime(struct madcm_send *ms,
				     struct ib_rmpp_hdr *rh)
{
	u8 rt = ib_get_rmpp_resptime(rh);
	u64 ms_needed;

	if (rt >= IB_MGMT_RMPP_NO_RESPTIME)
		return;
	/* 4.096 us * 2^rt (13.4.6.2), in milliseconds, rounded up. */
	ms_needed = DIV_ROUND_UP_ULL(4096ULL << rt, 1000000);
	ms_needed = min_t(u64, ms_needed, MADCM_RMPP_MAX_ACK_MS);
	if (ms_needed > ms->rmpp_ack_ms)
		ms->rmpp_ack_ms = ms_needed;
}

/* The whole transfer is acknowledged. */
static void madcm_rmpp_send_all_acked(struct madcm_agent *ag,
				      struct madcm_send *ms,
				      struct list_head *done)
{
	ms->rmpp_done = true;
	madcm_port_count(ag->port, MADCM_CNT_RMPP_TX_DONE);
	if (ms->timeout_ms)
		madcm_rmpp_send_turnaround(ag, ms);
	if (ms->state != MADCM_SEND_WAIT_RESP)
		return;	/* the transport's completion takes it from here */
	madcm_timeout_del(ag, ms);
	if (ms->timeout_ms)
		madcm_timeout_add(ag, ms, ms->timeout_ms);
	else
		madcm_send_end(ag, ms, IB_WC_SUCCESS, done);
}

static void madcm_rmpp_send_ack(struct madcm_agent *ag, struct madcm_send *ms,
				struct madcm_recv *rv, struct list_head *done)
{
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr(rv->mad);
	u32 seg = be32_to_cpu(rh->seg_num);
	u32 newwin = be32_to_cpu(rh->paylen_newwin);
	u32 count = ms->send_buf.seg_count;
	u8 bad = 0;

	if (rh->rmpp_status)
		bad = IB_MGMT_RMPP_STATUS_BAD_STATUS;
	else if (newwin < seg)
		bad = IB_MGMT_RMPP_STATUS_W2S;
	else if (seg > count || seg > ms->rmpp_newwin)
		bad = IB_MGMT_RMPP_STATUS_S2B;
	if (bad) {
		madcm_rmpp_nack(ag->port, rv, IB_MGMT_RMPP_TYPE_ABORT, bad);
		madcm_rmpp_send_fail(ag, ms, IB_WC_REM_ABORT_ERR, done);
		return;
	}
	if (ms->rmpp_done) {
		/* The receiver missed the turn-around ACK: offer it again. */
		if (seg == count && ms->timeout_ms)
			madcm_rmpp_send_turnaround(ag, ms);
		return;
	}
	if (seg < ms->rmpp_last_ack || newwin < ms->rmpp_newwin)
		return;	/* an old ACK, overtaken */
	madcm_rmpp_send_resptime(ms, rh);
	if (seg > ms->rmpp_last_ack) {
		ms->rmpp_last_ack = seg;
		ms->retries_left = ms->max_retries;
	}
	ms->rmpp_newwin = newwin;
	if (ms->rmpp_sent < seg)
		ms->rmpp_sent = seg;
	if (seg == count) {
		madcm_rmpp_send_all_acked(ag, ms, done);
		return;
	}
	if (ms->state != MADCM_SEND_WAIT_RESP)
		return;	/* a segment is out: its completion goes on */
	madcm_timeout_del(ag, ms);
	if (ms->rmpp_sent < madcm_rmpp_window_end(ms) &&
	    !madcm_rmpp_send_next(ag, ms))
		ms->state = MADCM_SEND_POSTED;
	else
		madcm_timeout_add(ag, ms, ms->rmpp_ack_ms);
}

/*
 * madcm_rmpp_send_ctl() - an ACK, STOP or ABORT for one of our transfers
 * @ag: the agent it came to
 * @rv: the MAD; the caller still owns it
 *
 * Return: true when it concerned a transfer of @ag (and was handled).
 */
bool madcm_rmpp_send_ctl(struct madcm_agent *ag, struct madcm_recv *rv)
{
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr(rv->mad);
	struct madcm_tid_key key;
	struct madcm_send *ms;
	LIST_HEAD(done);
	u8 status = rh->rmpp_status;

	madcm_recv_key(rv, &key);
	spin_lock_bh(&ag->lock);
	ms = madcm_send_lookup(ag, &key, MADCM_LOOKUP_RMPP_CTL);
	if (!ms) {
		spin_unlock_bh(&ag->lock);
		return false;
	}
	switch (rh->rmpp_type) {
	case IB_MGMT_RMPP_TYPE_ACK:
		madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_ACK);
		madcm_rmpp_send_ack(ag, ms, rv, &done);
		break;
	case IB_MGMT_RMPP_TYPE_STOP:
		madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_STOP);
		if (status != IB_MGMT_RMPP_STATUS_RESX)
			madcm_rmpp_nack(ag->port, rv, IB_MGMT_RMPP_TYPE_ABORT,
					IB_MGMT_RMPP_STATUS_BAD_STATUS);
		madcm_rmpp_send_fail(ag, ms, IB_WC_REM_ABORT_ERR, &done);
		break;
	default:
		madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_ABORT);
		if (status < IB_MGMT_RMPP_STATUS_ABORT_MIN ||
		    status > IB_MGMT_RMPP_STATUS_ABORT_MAX)
			madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_BAD);
		madcm_rmpp_send_fail(ag, ms, IB_WC_REM_ABORT_ERR, &done);
		break;
	}
	spin_unlock_bh(&ag->lock);
	madcm_send_finish_list(&done);
	return true;
}
