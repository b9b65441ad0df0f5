// SPDX-License-Identifier: GPL-2.0-only
/*
 * The QP's side of the offload boundary (<madcm/cm_offload.h>): a small
 * TCP engine per QP that carries the stream once the CM hands it over,
 * as irdma's hardware does after irdma_cm_init_tsa_conn().
 *
 * What it does (RFC 9293 unless said): it loads the CM's context and the
 * bytes the CM left unacknowledged, first in its send queue; queues the
 * upper layer's records (one FPDU each, RFC 5044 5.2) behind them and
 * sends each as one segment within min(SND.WND, cwnd); retransmits on
 * timeout (RFC 6298: SRTT/RTTVAR, Karn, backoff; RESET -ETIMEDOUT after
 * MADCM_RNIC_TCP_MAX_RETRIES) and on three duplicate ACKs (RFC 5681 fast
 * retransmit and recovery); probes a zero window; judges each segment
 * with the CM's own acceptability and RFC 5961 rules (irdma_check_seq());
 * delivers the stream in order to the upper layer, keeping out-of-order
 * data in a bounded queue; delays ACKs (at most every second segment, at
 * most @delack_ms); takes the peer's FIN in order and answers with its
 * own after what is queued, as irdma's QP does when it goes to CLOSING;
 * and closes with FIN or RST. Frames leave only through
 * madcm_cm_offload_xmit(), events only through madcm_cm_offload_event(),
 * both from the engine's work item (see rnic/qp_tcp.h for the locking).
 * Documentation/rnic_tcp.rst describes it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": rnic: " fmt

#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "irdma_cm/tcp_seg.h"
#include "irdma_cm/tcp_seq.h"
#include "rnic/rnic.h"

/* The smallest MSS the engine uses, whatever the context says (RFC 9293
 * 3.7.1 puts the IPv4 default at 536; 64 keeps the retransmission of the
 * CM's bytes to a few frames).
 */

static struct madcm_rnic_qp *tcp_to_qp(struct madcm_rnic_tcp *t)
{
	return container_of(t, struct madcm_rnic_qp, tcp);
}

static struct madcm_rnic_tcp *oqp_to_tcp(struct madcm_cm_offload_qp *oqp)
{
	return &container_of(oqp, struct madcm_rnic_qp, oqp)->tcp;
}

/**
 * madcm_rnic_tcp_new_acked() - how much a segment's ACK acknowledges
 * @snd_una: SND.UNA
 * @snd_nxt: SND.NXT
 * @ack: SEG.ACK
 *
 * RFC 9293 3.10.7.4: SND.UNA < SEG.ACK =< SND.NXT acknowledges new data;
 * anything else acknowledges nothing.
 *
 * Return: the octets newly acknowledged (SYN and FIN count one each).
 */
u32 madcm_rnic_tcp_new_acked(u32 snd_una, u32 snd_nxt, u32 ack)
{
	if (irdma_seq_lt(snd_una, ack) && irdma_seq_le(ack, snd_nxt))
		return ack - snd_una;
	return 0;
}

/**
 * madcm_rnic_tcp_wnd_update() - whether a segment may update SND.WND
 * @wl1: SND.WL1
 * @wl2: SND.WL2
 * @seq: SEG.SEQ
 * @ack: SEG.ACK
 *
 * RFC 9293 3.10.7.4: only a segment newer than the one that last updated
 * the window (SND.WL1 < SEG.SEQ, or SND.WL1 = SEG.SEQ and SND.WL2 =<
 * SEG.ACK) does; the caller has checked SND.UNA =< SEG.ACK =< SND.NXT.
 *
 * Return: true when it does.
 */
bool madcm_rnic_tcp_wnd_update(u32 wl1, u32 wl2, u32 seq, u32 ack)
{
	return irdma_seq_lt(wl1, seq) ||
	       (wl1 == seq && irdma_seq_le(wl2, ack));
}

/**
 * madcm_rnic_tcp_next_rto() - the retransmission timeout after a timeout
 * @rto_ms: the one that expired
 *
 * RFC 6298 5.5: doubled, up to MADCM_RNIC_TCP_RTO_MAX_MS.
 *
 * Return: the next timeout in milliseconds.
 */
u32 madcm_rnic_tcp_next_rto(u32 rto_ms)
{
	if (rto_ms >= MADCM_RNIC_TCP_RTO_MAX_MS / 2)
		return MADCM_RNIC_TCP_RTO_MAX_MS;
	return max_t(u32, rto_ms * 2, MADCM_RNIC_TCP_RTO_MIN_MS);
}

/**
 * madcm_rnic_tcp_wnd_field() - the window field of a segment we send
 * @rcv_wnd: RCV.WND in octets
 * @rcv_wscale: our window shift (RFC 7323 2.3)
 *
 * Return: @rcv_wnd shifted right by @rcv_wscale, at most 65535.
 */
u16 madcm_rnic_tcp_wnd_field(u32 rcv_wnd, u8 rcv_wscale)
{
	return min_t(u32, rcv_wnd >> min_t(u8, rcv_wscale, IRDMA_TCP_MAX_WSCALE),
		     U16_MAX);
}

/**
 * madcm_rnic_tcp_rtt_update() - take one RTT measurement (RFC 6298 2)
 * @srtt_us: SRTT, 0 before the first measurement; updated
 * @rttvar_us: RTTVAR; updated
 * @r_us: the measurement R, microseconds
 * @g_us: the clock granularity G, microseconds
 *
 * The first measurement sets SRTT = R, RTTVAR = R/2 (2.2); later ones
 * RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'|, then SRTT = 7/8 SRTT + 1/8 R'
 * (2.3, alpha = 1/8, beta = 1/4).
 *
 * Return: RTO = SRTT + max(G, 4 * RTTVAR), microseconds, before the
 * floor and the ceiling the caller applies (2.4, 2.5).
 */
u32 madcm_rnic_tcp_rtt_update(u32 *srtt_us, u32 *rttvar_us, u32 r_us,
			      u32 g_us)
{
	u32 r = clamp_t(u32, r_us, 1, MADCM_RNIC_TCP_RTO_MAX_MS * 1000U);

	if (!*srtt_us) {
		*srtt_us = r;
		*rttvar_us = r / 2;
	} else {
		u32 d = *srtt_us > r ? *srtt_us - r : r - *srtt_us;

		*rttvar_us = (3 * *rttvar_us + d) / 4;
		*srtt_us = (7 * *srtt_us + r) / 8;
	}
	return *srtt_us + max(g_us, 4 * *rttvar_us);
}

/**
 * madcm_rnic_tcp_initial_cwnd() - the initial congestion window
 * @smss: the sender's MSS
 *
 * RFC 5681 3.1, equation (1): 2 * SMSS above 2190 bytes, 3 * SMSS above
 * 1095, 4 * SMSS otherwise.
 *
 * Return: IW in bytes.
 */
u32 madcm_rnic_tcp_initial_cwnd(u32 smss)
{
	if (smss > 2190)
		return 2 * smss;
	if (smss > 1095)
		return 3 * smss;
	return 4 * smss;
}

/* A congestion window never grows past the largest window TCP can offer. */
#define MADCM_RNIC_TCP_WND_MAX		(65535U << IRDMA_TCP_MAX_WSCALE)

/**
 * madcm_rnic_tcp_cwnd_on_ack() - the congestion window after a new ACK
 * @cwnd: cwnd
 * @ssthresh: ssthresh
 * @acked: the bytes the ACK acknowledged (N)
 * @smss: the sender's MSS
 *
 * RFC 5681 3.1: in slow start (cwnd < ssthresh), cwnd += min(N, SMSS)
 * (equation 2); in congestion avoidance, cwnd += SMSS * SMSS / cwnd
 * (equation 3), at least one byte.
 *
 * Return: the new cwnd.
 */
u32 madcm_rnic_tcp_cwnd_on_ack(u32 cwnd, u32 ssthresh, u32 acked, u32 smss)
{
	u32 inc;

	if (cwnd < ssthresh)
		inc = min(acked, smss);
	else
		inc = max_t(u32, 1, smss * smss / max(cwnd, 1U));
	return min(cwnd + inc, MADCM_RNIC_TCP_WND_MAX);
}

/**
 * madcm_rnic_tcp_ssthresh_on_loss() - ssthresh after a loss
 * @flight: FlightSize, the bytes sent and not acknowledged
 * @smss: the sender's MSS
 *
 * RFC 5681 equation (4): max(FlightSize / 2, 2 * SMSS).
 *
 * Return: the new ssthresh.
 */
u32 madcm_rnic_tcp_ssthresh_on_loss(u32 flight, u32 smss)
{
	return max(flight / 2, 2 * smss);
}

/* The engine's state, everything below with t->lock held. */

static struct madcm_rnic_dev *tcp_dev(struct madcm_rnic_tcp *t)
{
	return tcp_to_qp(t)->dev;
}

static void tcp_kick(struct madcm_rnic_tcp *t)
{
	if (!t->detached && (t->tx_pending || t->ev_pending || t->room))
		queue_work(system_wq, &t->tx_work);
}

static void tcp_arm(struct madcm_rnic_tcp *t, u32 ms)
{
	if (!t->detached)
		mod_timer(&t->timer, jiffies + msecs_to_jiffies(ms));
}

static bool tcp_outstanding(const struct madcm_rnic_tcp *t)
{
	return t->snd_una != t->snd_max;
}

static bool tcp_synchronized(const struct madcm_rnic_tcp *t)
{
	return t->state != MADCM_RNIC_TCP_IDLE &&
	       t->state != MADCM_RNIC_TCP_CLOSED;
}

/* Unsent bytes in the send queue. */
static bool tcp_unsent(const struct madcm_rnic_tcp *t)
{
	return irdma_seq_lt(t->snd_nxt, t->snd_end);
}

static u32 tcp_charge(u32 len)
{
	return sizeof(struct madcm_rnic_tcp_rec) + len;
}

/* An ACK goes out now (it also goes with any segment we send). */
static void tcp_ack_now(struct madcm_rnic_tcp *t)
{
	set_bit(MADCM_RNIC_TCP_TX_ACK, &t->tx_pending);
}

/* The stream is over: one terminal event, nothing more to send. */
static void tcp_terminal(struct madcm_rnic_tcp *t,
			 enum madcm_cm_offload_event ev, int status)
{
	t->state = MADCM_RNIC_TCP_CLOSED;
	t->tx_pending &= BIT(MADCM_RNIC_TCP_TX_ACK);
	t->reset_status = status;
	set_bit(ev, &t->ev_pending);
	timer_delete(&t->timer);
	timer_delete(&t->delack);
}

/* Reset: with a RST of ours (@send_rst) or because of the peer's. */
static void tcp_reset(struct madcm_rnic_tcp *t, int status, bool send_rst)
{
	tcp_terminal(t, MADCM_CM_OFFLOAD_EV_RESET, status);
	t->tx_pending = send_rst ? BIT(MADCM_RNIC_TCP_TX_RST) : 0;
}

static bool tcp_resetting(const struct madcm_rnic_tcp *t)
{
	return test_bit(MADCM_CM_OFFLOAD_EV_RESET, &t->ev_pending) ||
	       test_bit(MADCM_CM_OFFLOAD_EV_RESET, &t->ev_done);
}

/* Our FIN goes after everything queued; the work item sends it. */
static void tcp_queue_fin(struct madcm_rnic_tcp *t)
{
	if (t->fin_queued)
		return;
	t->fin_queued = true;
	set_bit(MADCM_RNIC_TCP_TX_DATA, &t->tx_pending);
}

/* The peer answered: an RTT measurement (RFC 6298 3, Karn's rule). */
static void tcp_rtt_sample(struct madcm_rnic_tcp *t)
{
	s64 us = ktime_us_delta(ktime_get(), t->rtt_start);
	u32 rto_us;

	t->rtt_timing = false;
	rto_us = madcm_rnic_tcp_rtt_update(&t->srtt_us, &t->rttvar_us,
					   clamp_t(s64, us, 1, U32_MAX),
					   jiffies_to_usecs(1));
	t->rto_base_ms = clamp_t(u32, DIV_ROUND_UP(rto_us, 1000),
				 t->rto_min_ms, MADCM_RNIC_TCP_RTO_MAX_MS);
	/* RFC 6298 5: a new measurement collapses a backed-off RTO */
	t->rto_ms = t->rto_base_ms;
	t->cnt[MADCM_RNIC_TCP_RTT_SAMPLES]++;
}

/* Octets up to SND.UNA + @acked are acknowledged (0 < @acked). */
static void tcp_take_ack(struct madcm_rnic_tcp *t, u32 acked)
{
	struct madcm_rnic_dev *dev = tcp_dev(t);
	struct madcm_rnic_tcp_rec *r, *n;
	u32 ack = t->snd_una + acked;

	list_for_each_entry_safe(r, n, &t->sndq, list) {
		if (!irdma_seq_le(r->seq + r->len, ack))
			break;
		list_del(&r->list);
		t->snd_mem -= tcp_charge(r->len);
		atomic_long_sub(tcp_charge(r->len), &dev->tcp_snd_mem);
		kfree(r);
		t->room = true;
	}
	t->unacked_len -= min(acked, t->unacked_len);
	t->snd_una = ack;
	if (irdma_seq_lt(t->snd_nxt, ack))
		t->snd_nxt = ack;
	if (t->rtt_timing && irdma_seq_le(t->rtt_seq, ack))
		tcp_rtt_sample(t);
	if (t->in_recovery) {
		/* RFC 5681 3.2 step 6: deflate */
		t->cwnd = t->ssthresh;
		t->in_recovery = false;
	} else {
		t->cwnd = madcm_rnic_tcp_cwnd_on_ack(t->cwnd, t->ssthresh,
						     acked, t->mss);
	}
	t->dupacks = 0;
	/*
	 * The retries start over; the RTO keeps any backoff until a
	 * measurement (Karn's rule, RFC 6298 5): tcp_rtt_sample().
	 */
	t->retries = 0;
	set_bit(MADCM_RNIC_TCP_TX_DATA, &t->tx_pending);

	if (t->fin_sent && !tcp_outstanding(t)) {
		switch (t->state) {
		case MADCM_RNIC_TCP_FIN_WAIT_1:
			t->state = MADCM_RNIC_TCP_FIN_WAIT_2;
			tcp_arm(t, MADCM_RNIC_TCP_FIN_WAIT2_MS);
			return;
		case MADCM_RNIC_TCP_CLOSING:
		case MADCM_RNIC_TCP_LAST_ACK:
			tcp_terminal(t, MADCM_CM_OFFLOAD_EV_CLOSED, 0);
			return;
		default:
			break;
		}
	}
	/* RFC 6298 5.2, 5.3: stop, or restart, the timer */
	if (tcp_outstanding(t))
		tcp_arm(t, t->rto_ms);
	else
		timer_delete(&t->timer);
}

/* RFC 5681 2 (duplicate ACK) and 3.2 (fast retransmit and recovery). */
static void tcp_dupack(struct madcm_rnic_tcp *t)
{
	t->cnt[MADCM_RNIC_TCP_RX_DUPACK]++;
	t->dupacks++;
	if (t->in_recovery) {
		/* step 4: each further one inflates cwnd by SMSS */
		t->cwnd = min(t->cwnd + t->mss, MADCM_RNIC_TCP_WND_MAX);
		set_bit(MADCM_RNIC_TCP_TX_DATA, &t->tx_pending);
		return;
	}
	if (t->dupacks != MADCM_RNIC_TCP_DUPACK_THRESH)
		return;
	/* steps 2 and 3 */
	t->ssthresh = madcm_rnic_tcp_ssthresh_on_loss(t->snd_max - t->snd_una,
						      t->mss);
	t->cwnd = t->ssthresh + MADCM_RNIC_TCP_DUPACK_THRESH * t->mss;
	t->in_recovery = true;
	t->rtt_timing = false;
	t->cnt[MADCM_RNIC_TCP_FAST_RETRANS]++;
	madcm_rnic_count(tcp_dev(t), MADCM_RNIC_CNT_RETRANSMITS);
	set_bit(MADCM_RNIC_TCP_TX_RTX, &t->tx_pending);
}

/* In-order data and the out-of-order pieces it lets through. */
struct tcp_rx {
	const u8 *data;
	u32 len;
	struct list_head ready;
};

static void tcp_ooo_unlink(struct madcm_rnic_tcp *t,
			   struct madcm_rnic_tcp_rec *r)
{
	list_del(&r->list);
	t->ooo_mem -= tcp_charge(r->len);
	t->ooo_segs--;
	atomic_long_sub(tcp_charge(r->len), &tcp_dev(t)->tcp_ooo_mem);
}

static void tcp_ooo_drop(struct madcm_rnic_tcp *t,
			 struct madcm_rnic_tcp_rec *r)
{
	tcp_ooo_unlink(t, r);
	kfree(r);
}

/*
 * Data beyond RCV.NXT: kept, within the window, without the bytes other
 * pieces hold already, as far as the engine's and the device's budgets
 * allow; dropped (and counted) beyond. The peer sends it again anyway.
 */
static void tcp_ooo_insert(struct madcm_rnic_tcp *t,
			   const struct irdma_cm_seg *seg)
{
	struct madcm_rnic_dev *dev = tcp_dev(t);
	struct list_head *pos = &t->ooo;
	struct madcm_rnic_tcp_rec *r, *n;
	u32 s = seg->seq, e = seg->seq + seg->payload_len;
	u32 wnd_end = t->rcv_nxt + t->rcv_wnd;
	u32 len, charge;

	if (irdma_seq_lt(wnd_end, e)) {
		t->cnt[MADCM_RNIC_TCP_RX_WND_DROP] += e - wnd_end;
		e = wnd_end;
	}
	list_for_each_entry_safe(r, n, &t->ooo, list) {
		u32 re = r->seq + r->len;

		if (irdma_seq_le(re, s))
			continue;
		if (irdma_seq_le(e, r->seq)) {
			pos = &r->list;
			break;
		}
		if (irdma_seq_le(r->seq, s)) {
			if (irdma_seq_le(e, re)) {
				t->cnt[MADCM_RNIC_TCP_RX_DUP_BYTES] += e - s;
				return;
			}
			s = re;
			continue;
		}
		if (irdma_seq_le(re, e)) {
			/* the new piece covers this one */
			tcp_ooo_drop(t, r);
			continue;
		}
		e = r->seq;
		pos = &r->list;
		break;
	}
	if (!irdma_seq_lt(s, e))
		return;
	len = e - s;
	charge = tcp_charge(len);
	if (t->ooo_segs >= MADCM_RNIC_TCP_OOO_SEGS ||
	    t->ooo_mem + charge > MADCM_RNIC_TCP_OOO_MAX)
		goto drop;
	if (atomic_long_add_return(charge, &dev->tcp_ooo_mem) >
	    MADCM_RNIC_TCP_DEV_OOO) {
		atomic_long_sub(charge, &dev->tcp_ooo_mem);
		goto drop;
	}
	r = kmalloc(charge, GFP_ATOMIC);
	if (!r) {
		atomic_long_sub(charge, &dev->tcp_ooo_mem);
		goto drop;
	}
	r->seq = s;
	r->len = len;
	memcpy(r->data, seg->payload + (s - seg->seq), len);
	list_add_tail(&r->list, pos);
	t->ooo_mem += charge;
	t->ooo_segs++;
	return;
drop:
	t->cnt[MADCM_RNIC_TCP_RX_OOO_DROP]++;
}

/* RCV.NXT moved: the pieces it reached go up, in order. */
static bool tcp_ooo_pull(struct madcm_rnic_tcp *t, struct tcp_rx *rx)
{
	struct madcm_rnic_tcp_rec *r, *n;
	bool pulled = false;

	list_for_each_entry_safe(r, n, &t->ooo, list) {
		u32 re = r->seq + r->len;

		if (irdma_seq_lt(t->rcv_nxt, r->seq))
			break;
		tcp_ooo_unlink(t, r);
		if (!irdma_seq_lt(t->rcv_nxt, re)) {
			t->cnt[MADCM_RNIC_TCP_RX_DUP_BYTES] += r->len;
			kfree(r);
			continue;
		}
		if (r->seq != t->rcv_nxt) {
			u32 skip = t->rcv_nxt - r->seq;

			t->cnt[MADCM_RNIC_TCP_RX_DUP_BYTES] += skip;
			memmove(r->data, r->data + skip, r->len - skip);
			r->len -= skip;
			r->seq = t->rcv_nxt;
		}
		t->rcv_nxt = re;
		t->cnt[MADCM_RNIC_TCP_RX_DATA_BYTES] += r->len;
		list_add_tail(&r->list, &rx->ready);
		pulled = true;
	}
	return pulled;
}

static void tcp_ooo_purge(struct madcm_rnic_tcp *t)
{
	struct madcm_rnic_tcp_rec *r, *n;

	list_for_each_entry_safe(r, n, &t->ooo, list)
		tcp_ooo_drop(t, r);
}

/*
 * An in-order segment is acknowledged at once when it fills (part of) a
 * gap (RFC 5681 4.2) or is the second one not acknowledged yet (RFC 9293
 * 3.8.6.3); otherwise within @delack_ms.
 */
static void tcp_ack_data(struct madcm_rnic_tcp *t, bool gap)
{
	if (gap || ++t->ack_segs >= 2) {
		tcp_ack_now(t);
		return;
	}
	if (!timer_pending(&t->delack) && !t->detached)
		mod_timer(&t->delack,
			  jiffies + msecs_to_jiffies(t->delack_ms));
}

/* Payload of an acceptable segment. Return: all of it is in order. */
static bool tcp_take_data(struct madcm_rnic_tcp *t,
			  const struct irdma_cm_seg *seg, struct tcp_rx *rx)
{
	u32 len = seg->payload_len, skip = 0, take;
	bool gap = !list_empty(&t->ooo);

	if (irdma_seq_lt(t->rcv_nxt, seg->seq)) {
		/* a hole before it: kept if we can; a duplicate ACK at once */
		t->cnt[MADCM_RNIC_TCP_RX_OOO]++;
		tcp_ooo_insert(t, seg);
		tcp_ack_now(t);
		return false;
	}
	if (irdma_seq_lt(seg->seq, t->rcv_nxt))
		skip = t->rcv_nxt - seg->seq;
	if (skip >= len) {
		t->cnt[MADCM_RNIC_TCP_RX_DUP_BYTES] += len;
		tcp_ack_now(t);
		return true;
	}
	t->cnt[MADCM_RNIC_TCP_RX_DUP_BYTES] += skip;
	take = min(len - skip, t->rcv_wnd);
	t->cnt[MADCM_RNIC_TCP_RX_WND_DROP] += len - skip - take;
	rx->data = seg->payload + skip;
	rx->len = take;
	t->rcv_nxt += take;
	t->cnt[MADCM_RNIC_TCP_RX_DATA_BYTES] += take;
	if (gap)
		tcp_ooo_pull(t, rx);
	tcp_ack_data(t, gap);
	return take == len - skip;
}

/* The peer's FIN, in order. */
static void tcp_take_fin(struct madcm_rnic_tcp *t)
{
	t->rcv_nxt++;
	t->fin_rcvd = true;
	tcp_ooo_purge(t);
	tcp_ack_now(t);
	set_bit(MADCM_CM_OFFLOAD_EV_FIN_RCVD, &t->ev_pending);

	switch (t->state) {
	case MADCM_RNIC_TCP_ESTABLISHED:
		/*
		 * As irdma's QP in CLOSING, our FIN follows at once: right
		 * after this segment's bytes went up (tcp_close_wait_done()),
		 * so what they make the upper layer send goes before it.
		 */
		t->state = MADCM_RNIC_TCP_CLOSE_WAIT;
		break;
	case MADCM_RNIC_TCP_FIN_WAIT_1:
		t->state = MADCM_RNIC_TCP_CLOSING;
		break;
	case MADCM_RNIC_TCP_FIN_WAIT_2:
		tcp_terminal(t, MADCM_CM_OFFLOAD_EV_CLOSED, 0);
		break;
	default:
		break;
	}
}

static bool tcp_matches(const struct madcm_rnic_tcp *t,
			const struct irdma_cm_seg *seg)
{
	const struct madcm_cm_tcp_ctx *a = &t->addr;

	if (seg->src.port != a->rem.port || seg->dst.port != a->loc.port ||
	    !ipv6_addr_equal(&seg->src.ip, &a->rem.ip) ||
	    !ipv6_addr_equal(&seg->dst.ip, &a->loc.ip))
		return false;
	if (a->vlan_id == MADCM_CM_NO_VLAN)
		return !seg->vlan;
	return seg->vlan && (seg->vlan_tci & VLAN_VID_MASK) == a->vlan_id;
}

/* RFC 5961 7: at most @chal_limit challenge ACKs a second. */
static void tcp_challenge_ack(struct madcm_rnic_tcp *t)
{
	if (time_after(jiffies, t->chal_stamp + HZ)) {
		t->chal_stamp = jiffies;
		t->chal_count = 0;
	}
	if (t->chal_count >= t->chal_limit) {
		t->cnt[MADCM_RNIC_TCP_RX_CHALLENGE_LIMITED]++;
		return;
	}
	t->chal_count++;
	t->cnt[MADCM_RNIC_TCP_RX_CHALLENGE]++;
	tcp_ack_now(t);
}

/* One well-formed segment of our 4-tuple, in a synchronized state. */
static void tcp_segment(struct madcm_rnic_tcp *t,
			const struct irdma_cm_seg *seg, struct tcp_rx *rx)
{
	struct irdma_tcp_rcv_state st = {
		.rcv_nxt = t->rcv_nxt, .rcv_wnd = t->rcv_wnd,
		.snd_una = t->snd_una, .snd_nxt = t->snd_max,
		.max_snd_wnd = t->max_snd_wnd,
	};
	u32 wnd = (u32)seg->window << t->snd_wscale;
	u32 old_wnd = t->snd_wnd;
	bool in_order = true;
	u32 acked;

	t->cnt[MADCM_RNIC_TCP_RX_SEGS]++;
	switch (irdma_check_seq(&st, seg->seq, seg->ack, seg->flags,
				seg->payload_len)) {
	case IRDMA_SEQ_ACCEPT:
		break;
	case IRDMA_SEQ_DROP_ACK:
		t->cnt[MADCM_RNIC_TCP_RX_SEQ_DROP]++;
		if (seg->payload_len && irdma_seq_lt(seg->seq, t->rcv_nxt))
			t->cnt[MADCM_RNIC_TCP_RX_DUP_BYTES] +=
				seg->payload_len;
		tcp_ack_now(t);
		return;
	case IRDMA_SEQ_CHALLENGE_ACK:
		tcp_challenge_ack(t);
		return;
	case IRDMA_SEQ_RESET:
		t->cnt[MADCM_RNIC_TCP_RX_RST]++;
		tcp_reset(t, -ECONNRESET, false);
		return;
	case IRDMA_SEQ_DROP:
	default:
		t->cnt[MADCM_RNIC_TCP_RX_SEQ_DROP]++;
		return;
	}

	/* the ACK field: the window, then what it acknowledges */
	if (irdma_seq_le(t->snd_una, seg->ack) &&
	    madcm_rnic_tcp_wnd_update(t->snd_wl1, t->snd_wl2, seg->seq,
				      seg->ack)) {
		if (wnd > t->snd_wnd)
			set_bit(MADCM_RNIC_TCP_TX_DATA, &t->tx_pending);
		/* the window opens: the probes' backoff is over */
		if (!t->snd_wnd && wnd)
			t->rto_ms = t->rto_base_ms;
		t->snd_wnd = wnd;
		t->snd_wl1 = seg->seq;
		t->snd_wl2 = seg->ack;
		t->max_snd_wnd = max(t->max_snd_wnd, t->snd_wnd);
	}
	acked = madcm_rnic_tcp_new_acked(t->snd_una, t->snd_max, seg->ack);
	if (acked)
		tcp_take_ack(t, acked);
	else if (seg->ack == t->snd_una && !seg->payload_len &&
		 !(seg->flags & (IRDMA_TCP_SYN | IRDMA_TCP_FIN)) &&
		 tcp_outstanding(t) && wnd == old_wnd)
		tcp_dupack(t);
	/* a live peer that keeps its window shut is no timeout (3.8.6.1) */
	if (!wnd && seg->ack == t->snd_una)
		t->retries = 0;
	if (!tcp_synchronized(t))
		return;

	/* data and FIN count until the peer's FIN, not after */
	if (t->fin_rcvd)
		return;
	if (seg->payload_len)
		in_order = tcp_take_data(t, seg, rx);
	if (!in_order || !(seg->flags & IRDMA_TCP_FIN))
		return;
	if (seg->seq + seg->payload_len == t->rcv_nxt) {
		tcp_take_fin(t);
	} else if (!seg->payload_len) {
		/* a FIN past a hole: the peer sends it again */
		t->cnt[MADCM_RNIC_TCP_RX_OOO]++;
		tcp_ack_now(t);
	}
}

/* The sender: one frame at a time, built with t->lock held. */

static void tcp_seg_init(const struct madcm_rnic_tcp *t,
			 struct irdma_cm_seg *s, u32 seq, u8 flags)
{
	const struct madcm_cm_tcp_ctx *a = &t->addr;

	memset(s, 0, sizeof(*s));
	memcpy(s->dst_mac, a->rem_mac, ETH_ALEN);
	memcpy(s->src_mac, a->loc_mac, ETH_ALEN);
	s->ipv4 = a->ipv4;
	s->vlan = a->vlan_id != MADCM_CM_NO_VLAN;
	s->vlan_tci = s->vlan ? a->vlan_id : 0;
	s->tos = a->tos;
	s->ttl = a->ttl ?: 64;
	s->flow_label = a->flow_label;
	s->src.ip = a->loc.ip;
	s->src.port = a->loc.port;
	s->dst.ip = a->rem.ip;
	s->dst.port = a->rem.port;
	s->seq = seq;
	s->ack = t->rcv_nxt;
	s->window = madcm_rnic_tcp_wnd_field(t->rcv_wnd, t->rcv_wscale);
	s->flags = flags;
}

/* A counter bumped outside the engine's lock (the senders). */
static void tcp_count(struct madcm_rnic_tcp *t, enum madcm_rnic_tcp_counter c)
{
	unsigned long flags;

	spin_lock_irqsave(&t->lock, flags);
	t->cnt[c]++;
	spin_unlock_irqrestore(&t->lock, flags);
}

/* Builds @s into @buf; every segment acknowledges RCV.NXT. */
static int tcp_emit(struct madcm_rnic_tcp *t, struct irdma_cm_seg *s,
		    u8 *buf, u32 size)
{
	int len = irdma_cm_build_seg(s, buf, size);

	if (len < 0) {
		t->cnt[MADCM_RNIC_TCP_TX_ERR]++;
		return 0;
	}
	if (s->flags & IRDMA_TCP_ACK) {
		clear_bit(MADCM_RNIC_TCP_TX_ACK, &t->tx_pending);
		t->ack_segs = 0;
		timer_delete(&t->delack);
	}
	return len;
}

static struct madcm_rnic_tcp_rec *tcp_rec_at(struct madcm_rnic_tcp *t,
					     u32 seq)
{
	struct madcm_rnic_tcp_rec *r;

	list_for_each_entry(r, &t->sndq, list)
		if (irdma_seq_in(seq, r->seq, r->len))
			return r;
	return NULL;
}

/*
 * Up to @max bytes from @seq to the end of its record, and our FIN if it
 * is queued and they end the queue; or the FIN alone at SND.END. @rtx: a
 * retransmission (no RTT measurement runs across it, Karn).
 */
static int tcp_emit_data(struct madcm_rnic_tcp *t, u32 seq, u32 max,
			 bool rtx, u8 *buf, u32 size, u32 *payload)
{
	struct madcm_rnic_tcp_rec *r = tcp_rec_at(t, seq);
	bool idle = !tcp_outstanding(t);
	struct irdma_cm_seg s;
	u32 n = 0, end;

	tcp_seg_init(t, &s, seq, IRDMA_TCP_ACK);
	if (r) {
		n = min(r->seq + r->len - seq, max);
		s.flags |= IRDMA_TCP_PSH;
		s.payload = r->data + (seq - r->seq);
		s.payload_len = n;
	} else if (seq != t->snd_end || !t->fin_queued) {
		return 0;
	}
	end = seq + n;
	if (end == t->snd_end && t->fin_queued) {
		s.flags |= IRDMA_TCP_FIN;
		t->fin_sent = true;
		end++;
	}
	if (rtx) {
		t->rtt_timing = false;
	} else if (!t->rtt_timing && irdma_seq_le(t->snd_max, seq) && n) {
		t->rtt_timing = true;
		t->rtt_seq = end;
		t->rtt_start = ktime_get();
	}
	if (irdma_seq_lt(t->snd_max, end))
		t->snd_max = end;
	if (irdma_seq_lt(t->snd_nxt, end))
		t->snd_nxt = end;
	if (n)
		t->last_send = jiffies;
	/* RFC 6298 5.1; a persist timer becomes the retransmission timer */
	if (idle || !timer_pending(&t->timer))
		tcp_arm(t, t->rto_ms);
	t->cnt[MADCM_RNIC_TCP_TX_DATA_BYTES] += n;
	*payload = n;
	return tcp_emit(t, &s, buf, size);
}

/*
 * The next frame to send, built into @buf: a RST; a retransmission;
 * a zero-window probe; new data within min(SND.WND, cwnd); our FIN; an
 * ACK. Return: its length, 0 for none.
 */
static int tcp_next_frame(struct madcm_rnic_tcp *t, u8 *buf, u32 size,
			  u32 *payload)
{
	struct irdma_cm_seg s;

	*payload = 0;
	if (test_bit(MADCM_RNIC_TCP_TX_RST, &t->tx_pending)) {
		t->tx_pending = 0;
		tcp_seg_init(t, &s, t->snd_max, IRDMA_TCP_RST | IRDMA_TCP_ACK);
		return tcp_emit(t, &s, buf, size);
	}
	if (tcp_synchronized(t)) {
		int len = 0;

		if (test_and_clear_bit(MADCM_RNIC_TCP_TX_RTX, &t->tx_pending) &&
		    tcp_outstanding(t)) {
			/* a shut or shrunk window cuts it (a probe) */
			len = tcp_emit_data(t, t->snd_una,
					    max(t->snd_wnd, 1U), true, buf,
					    size, payload);
			if (len)
				return len;
		}
		if (test_and_clear_bit(MADCM_RNIC_TCP_TX_PROBE,
				       &t->tx_pending) &&
		    !tcp_outstanding(t) && tcp_unsent(t)) {
			len = tcp_emit_data(t, t->snd_nxt,
					    max(t->snd_wnd, 1U), false, buf,
					    size, payload);
			if (len)
				return len;
		}
		if (tcp_unsent(t)) {
			struct madcm_rnic_tcp_rec *r = tcp_rec_at(t, t->snd_nxt);
			u32 flight = t->snd_nxt - t->snd_una;
			u32 n = r ? r->seq + r->len - t->snd_nxt : 0;

			/* RFC 5681 4.1: idle longer than an RTO: cwnd <= IW */
			if (!tcp_outstanding(t) &&
			    time_after(jiffies, t->last_send +
					       msecs_to_jiffies(t->rto_ms)))
				t->cwnd = min(t->cwnd,
					      madcm_rnic_tcp_initial_cwnd(t->mss));

			if (n && flight + n <= min(t->snd_wnd, t->cwnd))
				return tcp_emit_data(t, t->snd_nxt, n, false,
						     buf, size, payload);
			/* shut out by the peer's window: probe it later */
			if (!tcp_outstanding(t) && !timer_pending(&t->timer))
				tcp_arm(t, t->rto_ms);
		} else if (t->fin_queued && t->snd_nxt == t->snd_end) {
			len = tcp_emit_data(t, t->snd_end, 0, false, buf, size,
					    payload);
			if (len)
				return len;
		}
	}
	clear_bit(MADCM_RNIC_TCP_TX_DATA, &t->tx_pending);
	if (test_bit(MADCM_RNIC_TCP_TX_ACK, &t->tx_pending)) {
		tcp_seg_init(t, &s, t->snd_max, IRDMA_TCP_ACK);
		return tcp_emit(t, &s, buf, size);
	}
	return 0;
}

static void tcp_xmit(struct madcm_rnic_tcp *t, const u8 *buf, int len,
		     u32 payload)
{
	struct madcm_rnic_dev *dev = tcp_dev(t);

	if (t->out->xmit(t, buf, len)) {
		tcp_count(t, MADCM_RNIC_TCP_TX_ERR);
		return;
	}
	tcp_count(t, MADCM_RNIC_TCP_TX_SEGS);
	madcm_rnic_count(dev, MADCM_RNIC_CNT_TX_FRAMES);
	madcm_rnic_count_add(dev, MADCM_RNIC_CNT_TX_BYTES, payload);
}

static void tcp_report(struct madcm_rnic_tcp *t, unsigned long events,
		       int status)
{
	if (events & BIT(MADCM_CM_OFFLOAD_EV_FIN_RCVD))
		t->out->event(t, MADCM_CM_OFFLOAD_EV_FIN_RCVD, 0);
	/* over either way: the QP goes to ERROR, its WRs are flushed */
	if (events & BIT(MADCM_CM_OFFLOAD_EV_CLOSED)) {
		t->out->qp_state(t, IB_QPS_ERR);
		t->out->event(t, MADCM_CM_OFFLOAD_EV_CLOSED, 0);
	}
	if (events & BIT(MADCM_CM_OFFLOAD_EV_RESET)) {
		t->out->qp_state(t, IB_QPS_ERR);
		t->out->event(t, MADCM_CM_OFFLOAD_EV_RESET, status);
	}
}

static void tcp_tx_work(struct work_struct *work)
{
	struct madcm_rnic_tcp *t = container_of(work, struct madcm_rnic_tcp,
						tx_work);
	unsigned long flags, events;
	u32 size, payload;
	bool room, live;
	int status, len;
	u8 *buf;

	spin_lock_irqsave(&t->lock, flags);
	size = IRDMA_CM_MAX_HDR + t->mss;
	spin_unlock_irqrestore(&t->lock, flags);
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		tcp_count(t, MADCM_RNIC_TCP_TX_NOMEM);

	for (;;) {
		spin_lock_irqsave(&t->lock, flags);
		if (t->detached) {
			spin_unlock_irqrestore(&t->lock, flags);
			break;
		}
		len = buf ? tcp_next_frame(t, buf, size, &payload) : 0;
		if (len > 0) {
			spin_unlock_irqrestore(&t->lock, flags);
			tcp_xmit(t, buf, len, payload);
			continue;
		}
		/* each event once; FIN_RCVD before the terminal one */
		events = t->ev_pending & ~t->ev_done;
		t->ev_done |= t->ev_pending;
		t->ev_pending = 0;
		status = t->reset_status;
		room = t->room;
		t->room = false;
		live = tcp_synchronized(t) && !t->fin_queued;
		spin_unlock_irqrestore(&t->lock, flags);

		if (!events && !room)
			break;
		tcp_report(t, events, status);
		if (room && live && t->out->tx_room)
			t->out->tx_room(t);
		if (!buf)
			break;
	}
	kfree(buf);
}

/* Retransmission timeout, zero-window probe, or FIN-WAIT-2 limit. */
static void tcp_timer(struct timer_list *timer)
{
	struct madcm_rnic_tcp *t = from_timer(t, timer, timer);
	unsigned long flags;

	spin_lock_irqsave(&t->lock, flags);
	if (t->detached || !tcp_synchronized(t))
		goto out;
	if (!tcp_outstanding(t)) {
		if (tcp_unsent(t)) {
			/* RFC 9293 3.8.6.1: probe, backing off */
			t->cnt[MADCM_RNIC_TCP_PROBES]++;
			set_bit(MADCM_RNIC_TCP_TX_PROBE, &t->tx_pending);
			t->rto_ms = madcm_rnic_tcp_next_rto(t->rto_ms);
			tcp_arm(t, t->rto_ms);
		} else if (t->state == MADCM_RNIC_TCP_FIN_WAIT_2) {
			tcp_reset(t, -ETIMEDOUT, true);
		}
		goto out;
	}
	if (t->retries >= MADCM_RNIC_TCP_MAX_RETRIES) {
		tcp_reset(t, -ETIMEDOUT, true);
		goto out;
	}
	/* RFC 5681 3.1: ssthresh once per loss, then a loss window */
	if (!t->retries)
		t->ssthresh = madcm_rnic_tcp_ssthresh_on_loss(t->snd_max -
							      t->snd_una,
							      t->mss);
	t->cwnd = t->mss;
	t->in_recovery = false;
	t->dupacks = 0;
	t->rtt_timing = false;
	/* everything from SND.UNA goes again, as cwnd lets it */
	t->snd_nxt = t->snd_una;
	t->retries++;
	t->cnt[MADCM_RNIC_TCP_RETRANS]++;
	madcm_rnic_count(tcp_dev(t), MADCM_RNIC_CNT_RETRANSMITS);
	t->rto_ms = madcm_rnic_tcp_next_rto(t->rto_ms);
	set_bit(MADCM_RNIC_TCP_TX_RTX, &t->tx_pending);
	tcp_arm(t, t->rto_ms);
out:
	tcp_kick(t);
	spin_unlock_irqrestore(&t->lock, flags);
}

/* The delayed ACK is due. */
static void tcp_delack_timer(struct timer_list *timer)
{
	struct madcm_rnic_tcp *t = from_timer(t, timer, delack);
	unsigned long flags;

	spin_lock_irqsave(&t->lock, flags);
	if (!t->detached && t->ack_segs) {
		t->cnt[MADCM_RNIC_TCP_DELACK]++;
		tcp_ack_now(t);
		tcp_kick(t);
	}
	spin_unlock_irqrestore(&t->lock, flags);
}

/* Both queues emptied, their budgets given back (no timer, no work). */
static void tcp_purge(struct madcm_rnic_tcp *t)
{
	struct madcm_rnic_dev *dev = tcp_dev(t);
	struct madcm_rnic_tcp_rec *r, *n;
	unsigned long flags;
	LIST_HEAD(snd);
	LIST_HEAD(ooo);

	spin_lock_irqsave(&t->lock, flags);
	list_splice_init(&t->sndq, &snd);
	list_splice_init(&t->ooo, &ooo);
	atomic_long_sub(t->snd_mem, &dev->tcp_snd_mem);
	atomic_long_sub(t->ooo_mem, &dev->tcp_ooo_mem);
	t->snd_mem = 0;
	t->ooo_mem = 0;
	t->ooo_segs = 0;
	t->unacked_len = 0;
	spin_unlock_irqrestore(&t->lock, flags);
	list_for_each_entry_safe(r, n, &snd, list)
		kfree(r);
	list_for_each_entry_safe(r, n, &ooo, list)
		kfree(r);
}

/* The bytes before the peer's FIN went up: our FIN after the queue. */
static void tcp_close_wait_done(struct madcm_rnic_tcp *t)
{
	if (t->state != MADCM_RNIC_TCP_CLOSE_WAIT)
		return;
	t->state = MADCM_RNIC_TCP_LAST_ACK;
	tcp_queue_fin(t);
}

/* We close (the CM, or the upper layer after a Terminate). */
static void tcp_close_fin(struct madcm_rnic_tcp *t)
{
	if (t->state == MADCM_RNIC_TCP_ESTABLISHED)
		t->state = MADCM_RNIC_TCP_FIN_WAIT_1;
	else if (t->state == MADCM_RNIC_TCP_CLOSE_WAIT)
		t->state = MADCM_RNIC_TCP_LAST_ACK;
	tcp_queue_fin(t);
}

/* Stream bytes up (@rx_lock held). */
static void tcp_deliver(struct madcm_rnic_tcp *t, const u8 *data, u32 len)
{
	if (len && t->out->rx_data)
		t->out->rx_data(t, data, len);
}

/* The offload ops. */

/* The CM's unacknowledged bytes, as records of at most @mss bytes. */
static int tcp_load_unacked(struct madcm_rnic_tcp *t,
			    const struct madcm_cm_offload_ctx *ctx, u16 mss,
			    struct list_head *recs, u32 *mem)
{
	u32 off, n;

	*mem = 0;
	for (off = 0; off < ctx->unacked_len; off += n) {
		struct madcm_rnic_tcp_rec *r;

		n = min_t(u32, ctx->unacked_len - off, mss);
		r = kmalloc(tcp_charge(n), GFP_ATOMIC);
		if (!r)
			return -ENOMEM;
		r->seq = ctx->tcp.snd_una + off;
		r->len = n;
		memcpy(r->data, ctx->unacked + off, n);
		list_add_tail(&r->list, recs);
		*mem += tcp_charge(n);
	}
	return 0;
}

static int madcm_rnic_tcp_offload(struct madcm_cm_offload_qp *oqp,
				  const struct madcm_cm_offload_ctx *ctx)
{
	struct madcm_rnic_tcp *t = oqp_to_tcp(oqp);
	const struct madcm_cm_tcp_ctx *c = &ctx->tcp;
	u16 mss = max_t(u16, c->snd_mss, MADCM_RNIC_TCP_MSS_FLOOR);
	struct madcm_rnic_tcp_rec *r, *n;
	unsigned long flags;
	LIST_HEAD(recs);
	u32 take, mem;
	int ret;

	if (ctx->unacked_len > MADCM_RNIC_TCP_UNACKED_MAX)
		return -EMSGSIZE;
	if (ctx->unacked_len != c->snd_nxt - c->snd_una ||
	    (ctx->unacked_len && !ctx->unacked) ||
	    (ctx->rcvd_len && !ctx->rcvd))
		return -EINVAL;

	spin_lock_irqsave(&t->lock, flags);
	if (t->state != MADCM_RNIC_TCP_IDLE || t->detached) {
		spin_unlock_irqrestore(&t->lock, flags);
		return -EBUSY;
	}
	spin_unlock_irqrestore(&t->lock, flags);
	/* A stream agreed with the host's options stays with the host. */
	if ((READ_ONCE(madcm_rnic_host_tcp) || c->ts || c->sack) &&
	    madcm_cm_offload_can_host(oqp))
		return madcm_rnic_ks_offload(t, ctx);

	ret = tcp_load_unacked(t, ctx, mss, &recs, &mem);
	if (!ret && t->out->rx_start)
		ret = t->out->rx_start(t, ctx);
	if (!ret)
		ret = t->out->qp_state(t, IB_QPS_RTS);
	if (ret) {
		list_for_each_entry_safe(r, n, &recs, list)
			kfree(r);
		return ret;
	}

	spin_lock_bh(&t->rx_lock);
	spin_lock_irqsave(&t->lock, flags);
	t->addr = *c;
	t->snd_una = c->snd_una;
	t->snd_nxt = c->snd_nxt;
	t->snd_max = c->snd_nxt;
	t->snd_end = c->snd_nxt;
	t->snd_wnd = c->snd_wnd;
	t->snd_wl1 = c->snd_wl1;
	t->snd_wl2 = c->snd_wl2;
	t->max_snd_wnd = max(c->max_snd_wnd, c->snd_wnd);
	t->rcv_nxt = c->rcv_nxt;
	t->rcv_wnd = c->rcv_wnd;
	t->mss = mss;
	t->snd_wscale = min_t(u8, c->snd_wscale, IRDMA_TCP_MAX_WSCALE);
	t->rcv_wscale = min_t(u8, c->rcv_wscale, IRDMA_TCP_MAX_WSCALE);
	t->fin_queued = false;
	t->fin_sent = false;
	t->fin_rcvd = false;
	list_splice_tail_init(&recs, &t->sndq);
	t->unacked_len = ctx->unacked_len;
	t->snd_mem = mem;
	atomic_long_add(mem, &tcp_dev(t)->tcp_snd_mem);
	t->cwnd = madcm_rnic_tcp_initial_cwnd(mss);
	t->ssthresh = MADCM_RNIC_TCP_WND_MAX;
	t->dupacks = 0;
	t->in_recovery = false;
	t->srtt_us = 0;
	t->rttvar_us = 0;
	t->rtt_timing = false;
	t->rto_base_ms = clamp_t(u32, ctx->rto_ms ?: MADCM_RNIC_TCP_RTO_INIT_MS,
				 MADCM_RNIC_TCP_RTO_MIN_MS,
				 MADCM_RNIC_TCP_RTO_MAX_MS);
	t->rto_ms = t->rto_base_ms;
	t->retries = 0;
	t->ack_segs = 0;
	t->last_send = jiffies;
	t->chal_stamp = jiffies;
	t->chal_count = 0;
	t->room = false;
	t->tx_pending = 0;
	t->ev_pending = 0;
	t->ev_done = 0;
	t->reset_status = 0;
	t->state = MADCM_RNIC_TCP_ESTABLISHED;
	if (tcp_outstanding(t))
		tcp_arm(t, t->rto_ms);
	/*
	 * What the CM received and left to us (a peer-to-peer initiator's
	 * RTR message): taken as if it had just arrived, and acknowledged.
	 */
	take = min(ctx->rcvd_len, t->rcv_wnd);
	t->rcv_nxt += take;
	t->cnt[MADCM_RNIC_TCP_RX_DATA_BYTES] += take;
	if (take)
		tcp_ack_now(t);
	tcp_kick(t);
	spin_unlock_irqrestore(&t->lock, flags);
	/* the upper layer's send side starts before any byte goes up */
	if (t->out->tx_start)
		t->out->tx_start(t, ctx);
	tcp_deliver(t, ctx->rcvd, take);
	spin_unlock_bh(&t->rx_lock);
	return 0;
}

static void madcm_rnic_tcp_rx(struct madcm_cm_offload_qp *oqp,
			      const u8 *frame, u32 len)
{
	struct madcm_rnic_tcp *t = oqp_to_tcp(oqp);
	struct madcm_rnic_dev *dev = tcp_dev(t);
	struct tcp_rx rx = { .ready = LIST_HEAD_INIT(rx.ready) };
	struct madcm_rnic_tcp_rec *r, *n;
	struct irdma_cm_seg seg;
	unsigned long flags;
	bool dead, fin;

	if (READ_ONCE(t->host)) {
		madcm_rnic_ks_rx(t, frame, len);
		return;
	}
	madcm_rnic_count(dev, MADCM_RNIC_CNT_RX_FRAMES);
	if (irdma_cm_parse_seg(frame, len, &seg) != IRDMA_SEG_OK) {
		tcp_count(t, MADCM_RNIC_TCP_RX_BAD);
		return;
	}
	spin_lock_bh(&t->rx_lock);
	spin_lock_irqsave(&t->lock, flags);
	if (t->detached || !tcp_synchronized(t)) {
		spin_unlock_irqrestore(&t->lock, flags);
		spin_unlock_bh(&t->rx_lock);
		return;
	}
	if (!tcp_matches(t, &seg)) {
		t->cnt[MADCM_RNIC_TCP_RX_NOT_OURS]++;
	} else {
		madcm_rnic_count_add(dev, MADCM_RNIC_CNT_RX_BYTES,
				     seg.payload_len);
		tcp_segment(t, &seg, &rx);
	}
	dead = tcp_resetting(t);
	fin = t->state == MADCM_RNIC_TCP_CLOSE_WAIT;
	/* with the peer's FIN, the work goes after our FIN is queued */
	if (!fin)
		tcp_kick(t);
	spin_unlock_irqrestore(&t->lock, flags);

	/* in stream order: this segment's bytes, then the queue's */
	if (!dead)
		tcp_deliver(t, rx.data, rx.len);
	list_for_each_entry_safe(r, n, &rx.ready, list) {
		/* the upper layer may have aborted meanwhile */
		if (!dead)
			dead = tcp_resetting(t);
		if (!dead)
			tcp_deliver(t, r->data, r->len);
		kfree(r);
	}
	if (fin) {
		spin_lock_irqsave(&t->lock, flags);
		tcp_close_wait_done(t);
		tcp_kick(t);
		spin_unlock_irqrestore(&t->lock, flags);
	}
	spin_unlock_bh(&t->rx_lock);
}

/*
 * The CM's abort ends the connection at once and detaches the QP soon
 * after: the RST leaves here, from the call (which the CM allows), not
 * from the work item, which might run only after the detach.
 */
static void tcp_close_rst(struct madcm_rnic_tcp *t, unsigned long flags)
	__releases(&t->lock)
{
	u8 buf[IRDMA_CM_MAX_HDR];
	struct irdma_cm_seg s;
	int len;

	tcp_reset(t, -ECONNABORTED, false);
	tcp_seg_init(t, &s, t->snd_max, IRDMA_TCP_RST | IRDMA_TCP_ACK);
	len = tcp_emit(t, &s, buf, sizeof(buf));
	tcp_kick(t);
	spin_unlock_irqrestore(&t->lock, flags);
	if (len)
		tcp_xmit(t, buf, len, 0);
}

static void madcm_rnic_tcp_close(struct madcm_cm_offload_qp *oqp,
				 enum madcm_cm_offload_close how)
{
	struct madcm_rnic_tcp *t = oqp_to_tcp(oqp);
	unsigned long flags;

	if (READ_ONCE(t->host)) {
		madcm_rnic_ks_close(t, how);
		return;
	}
	spin_lock_irqsave(&t->lock, flags);
	if (t->detached || !tcp_synchronized(t))
		goto out;
	if (how == MADCM_CM_OFFLOAD_CLOSE_RST) {
		tcp_close_rst(t, flags);
		return;
	}
	tcp_close_fin(t);
out:
	tcp_kick(t);
	spin_unlock_irqrestore(&t->lock, flags);
}

/* Stop everything that could still call out; process context. */
static void tcp_quiesce(struct madcm_rnic_tcp *t)
{
	unsigned long flags;

	spin_lock_irqsave(&t->lock, flags);
	t->detached = true;
	t->tx_pending = 0;
	t->ev_pending = 0;
	t->room = false;
	spin_unlock_irqrestore(&t->lock, flags);
	timer_delete_sync(&t->timer);
	timer_delete_sync(&t->delack);
	cancel_work_sync(&t->tx_work);
}

static void madcm_rnic_tcp_detach(struct madcm_cm_offload_qp *oqp)
{
	struct madcm_rnic_tcp *t = oqp_to_tcp(oqp);
	unsigned long flags;
	bool carried;

	if (READ_ONCE(t->host))
		madcm_rnic_ks_detach(t);
	tcp_quiesce(t);
	tcp_purge(t);
	spin_lock_irqsave(&t->lock, flags);
	carried = t->state != MADCM_RNIC_TCP_IDLE;
	t->state = MADCM_RNIC_TCP_IDLE;
	t->detached = false;
	WRITE_ONCE(t->host, false);
	spin_unlock_irqrestore(&t->lock, flags);
	/*
	 * A stream the QP carried is over: the QP is in ERROR, also when the
	 * CM ended it first (abort, core stop) and the report that would
	 * have moved it was still queued.
	 */
	if (carried)
		t->out->qp_state(t, IB_QPS_ERR);
	/* the reference rnic/iw.c took for the CM */
	t->out->release(t);
}

const struct madcm_cm_offload_ops madcm_rnic_offload_ops = {
	.offload = madcm_rnic_tcp_offload,
	.rx = madcm_rnic_tcp_rx,
	.close = madcm_rnic_tcp_close,
	.detach = madcm_rnic_tcp_detach,
};

/* Contract 1: the upper layer's calls. */

/**
 * madcm_rnic_tcp_send() - queue one record (one FPDU) on the stream
 * @t: the engine
 * @vec: where its bytes are, in order
 * @nvec: how many pieces
 * @len: its length: at most madcm_rnic_tcp_max_record(), the bytes of
 *	@vec from the first on
 *
 * The record is copied, all or nothing, and leaves as one segment (RFC
 * 5044 5.2) within the peer's and the congestion window; the engine
 * retransmits its copy until it is acknowledged.
 *
 * Context: any context; takes the engine's lock (IRQ-safe).
 * Return: 0; -EAGAIN when the send queue (the engine's or the device's
 * budget) has no room (wait for @tx_room); -ENOTCONN when the stream is
 * not ESTABLISHED (or CLOSE-WAIT) or is closing; -EINVAL for an empty or oversized
 * record, or one @vec does not hold; -ENOMEM.
 */
int madcm_rnic_tcp_send(struct madcm_rnic_tcp *t, const struct kvec *vec,
			unsigned int nvec, u32 len)
{
	struct madcm_rnic_dev *dev = tcp_dev(t);
	struct madcm_rnic_tcp_rec *r;
	u32 charge = tcp_charge(len), off = 0;
	unsigned long flags;
	unsigned int i;
	int ret = 0;

	if (READ_ONCE(t->host))
		return madcm_rnic_ks_send(t, vec, nvec, len);
	if (!len || len > U16_MAX)
		return -EINVAL;
	r = kmalloc(charge, GFP_ATOMIC);
	if (!r)
		return -ENOMEM;
	for (i = 0; i < nvec && off < len; i++) {
		u32 n = min_t(size_t, vec[i].iov_len, len - off);

		memcpy(r->data + off, vec[i].iov_base, n);
		off += n;
	}
	if (off != len) {
		kfree(r);
		return -EINVAL;
	}
	r->len = len;

	spin_lock_irqsave(&t->lock, flags);
	if (t->detached || t->fin_queued ||
	    (t->state != MADCM_RNIC_TCP_ESTABLISHED &&
	     t->state != MADCM_RNIC_TCP_CLOSE_WAIT)) {
		ret = -ENOTCONN;
		goto out;
	}
	if (len > t->mss) {
		ret = -EINVAL;
		goto out;
	}
	/* an empty queue always takes one record: nobody waits forever */
	if (!list_empty(&t->sndq)) {
		if (t->snd_mem + charge > MADCM_RNIC_TCP_SNDBUF) {
			ret = -EAGAIN;
			goto out;
		}
		if (atomic_long_read(&dev->tcp_snd_mem) + charge >
		    MADCM_RNIC_TCP_DEV_SNDBUF) {
			ret = -EAGAIN;
			goto out;
		}
	}
	atomic_long_add(charge, &dev->tcp_snd_mem);
	t->snd_mem += charge;
	r->seq = t->snd_end;
	t->snd_end += len;
	t->unacked_len += len;
	list_add_tail(&r->list, &t->sndq);
	set_bit(MADCM_RNIC_TCP_TX_DATA, &t->tx_pending);
	tcp_kick(t);
	r = NULL;
out:
	if (ret == -EAGAIN)
		t->cnt[MADCM_RNIC_TCP_TX_NOROOM]++;
	spin_unlock_irqrestore(&t->lock, flags);
	kfree(r);
	return ret;
}

/**
 * madcm_rnic_tcp_build_buf() - where the upper layer may build its next
 *	record in place
 * @t: the engine
 * @size: the record's octets, at most
 *
 * Only a stream on the host's TCP has such a buffer
 * (madcm_rnic_ks_build_buf()); this engine copies every record.
 *
 * Context: any context; the QP's lock held.
 * Return: the buffer, or NULL (build elsewhere, madcm_rnic_tcp_send()).
 */
u8 *madcm_rnic_tcp_build_buf(struct madcm_rnic_tcp *t, u32 size)
{
	if (READ_ONCE(t->host))
		return madcm_rnic_ks_build_buf(t, size);
	return NULL;
}

/**
 * madcm_rnic_tcp_send_built() - queue the record built in the buffer
 *	madcm_rnic_tcp_build_buf() gave
 * @t: the engine
 * @buf: the buffer
 * @len: the record's octets
 *
 * Context: as madcm_rnic_tcp_build_buf().
 * Return: as madcm_rnic_tcp_send(); -EINVAL for a buffer not given here.
 */
int madcm_rnic_tcp_send_built(struct madcm_rnic_tcp *t, u8 *buf, u32 len)
{
	if (READ_ONCE(t->host))
		return madcm_rnic_ks_send_built(t, buf, len);
	return -EINVAL;
}

/**
 * madcm_rnic_tcp_max_record() - the largest record madcm_rnic_tcp_send()
 *	takes
 * @t: the engine
 *
 * One record per segment: the MSS of the stream (EMSS, from the hand-off
 * context; RFC 5044 5.2 sizes the FPDU from it).
 *
 * Context: any context.
 * Return: bytes; 0 before the hand-off.
 */
u32 madcm_rnic_tcp_max_record(struct madcm_rnic_tcp *t)
{
	if (READ_ONCE(t->host))
		return madcm_rnic_ks_max_record(t);
	return READ_ONCE(t->state) == MADCM_RNIC_TCP_IDLE ? 0 : READ_ONCE(t->mss);
}

/**
 * madcm_rnic_tcp_send_room() - how many bytes the send queue takes now
 * @t: the engine
 *
 * Context: any context.
 * Return: the largest record length madcm_rnic_tcp_send() would queue
 * now as far as the engine's own budget goes (the device's may still
 * refuse), 0 when none.
 */
u32 madcm_rnic_tcp_send_room(struct madcm_rnic_tcp *t)
{
	unsigned long flags;
	u32 room = 0;

	if (READ_ONCE(t->host))
		return madcm_rnic_ks_send_room(t);
	spin_lock_irqsave(&t->lock, flags);
	if (list_empty(&t->sndq))
		room = U32_MAX;
	else if (t->snd_mem + tcp_charge(0) < MADCM_RNIC_TCP_SNDBUF)
		room = MADCM_RNIC_TCP_SNDBUF - t->snd_mem - tcp_charge(0);
	spin_unlock_irqrestore(&t->lock, flags);
	return room;
}

/**
 * madcm_rnic_tcp_close_after_queue() - FIN once the queue is sent
 * @t: the engine
 *
 * For the upper layer once it queued a Terminate: what is queued goes
 * out, then our FIN; the CM hears CLOSED (or RESET) as for its own
 * graceful close. No record is taken afterwards.
 *
 * Context: any context.
 */
void madcm_rnic_tcp_close_after_queue(struct madcm_rnic_tcp *t)
{
	unsigned long flags;

	if (READ_ONCE(t->host)) {
		madcm_rnic_ks_close_after_queue(t);
		return;
	}
	spin_lock_irqsave(&t->lock, flags);
	if (!t->detached && tcp_synchronized(t)) {
		tcp_close_fin(t);
		tcp_kick(t);
	}
	spin_unlock_irqrestore(&t->lock, flags);
}

/**
 * madcm_rnic_tcp_abort() - reset the stream now
 * @t: the engine
 * @status: what the CM's RESET reports (a negative errno; 0 means
 *	-ECONNABORTED)
 *
 * A RST leaves (from the engine's work), the queues are dropped from
 * sending, the QP goes to ERROR and the CM hears RESET. Nothing more is
 * delivered to @rx_data.
 *
 * Context: any context, @rx_data included.
 */
void madcm_rnic_tcp_abort(struct madcm_rnic_tcp *t, int status)
{
	unsigned long flags;

	if (READ_ONCE(t->host)) {
		madcm_rnic_ks_abort(t, status);
		return;
	}
	spin_lock_irqsave(&t->lock, flags);
	if (!t->detached && tcp_synchronized(t)) {
		tcp_reset(t, status ?: -ECONNABORTED, true);
		tcp_kick(t);
	}
	spin_unlock_irqrestore(&t->lock, flags);
}

/* Where a real QP's output goes: the CM and the verbs. */

static int qp_out_xmit(struct madcm_rnic_tcp *t, const u8 *frame, u32 len)
{
	struct madcm_rnic_qp *qp = tcp_to_qp(t);

	return madcm_cm_offload_xmit(&qp->oqp, frame, len);
}

static void qp_out_event(struct madcm_rnic_tcp *t,
			 enum madcm_cm_offload_event ev, int status)
{
	struct madcm_rnic_qp *qp = tcp_to_qp(t);

	if (ev == MADCM_CM_OFFLOAD_EV_RESET)
		madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_CONN_RESET);
	/* The stream is CLOSED: its sequence numbers move no more. */
	if (ev == MADCM_CM_OFFLOAD_EV_CLOSED)
		madcm_cm_offload_closed(&qp->oqp, READ_ONCE(t->snd_nxt),
					READ_ONCE(t->rcv_nxt));
	else
		madcm_cm_offload_event(&qp->oqp, ev, status);
}

static int qp_out_state(struct madcm_rnic_tcp *t, int state)
{
	struct madcm_rnic_qp *qp = tcp_to_qp(t);

	if (state == IB_QPS_RTS) {
		int ret = madcm_rnic_qp_to_rts(qp);

		if (!ret)
			madcm_rnic_count(qp->dev,
					 MADCM_RNIC_CNT_CONN_OFFLOADED);
		return ret;
	}
	madcm_rnic_qp_set_error(qp);
	return 0;
}

static void qp_out_release(struct madcm_rnic_tcp *t)
{
	madcm_rnic_qp_put(tcp_to_qp(t));
}

static int qp_out_rx_start(struct madcm_rnic_tcp *t,
			   const struct madcm_cm_offload_ctx *ctx)
{
	return madcm_rnic_qp_rx_start(tcp_to_qp(t), ctx);
}

static const struct madcm_rnic_tcp_out madcm_rnic_qp_out = {
	.xmit = qp_out_xmit,
	.event = qp_out_event,
	.qp_state = qp_out_state,
	.release = qp_out_release,
	.rx_data = madcm_rnic_qp_rx_data,
	.tx_room = madcm_rnic_qp_tx_room,
	.rx_start = qp_out_rx_start,
	.tx_start = madcm_rnic_qp_tx_start,
};

/**
 * madcm_rnic_tcp_init() - set up a TCP engine
 * @t: the engine, zeroed, inside its QP
 * @out: where its frames, events and QP state changes go
 */
void madcm_rnic_tcp_init(struct madcm_rnic_tcp *t,
			 const struct madcm_rnic_tcp_out *out)
{
	t->out = out;
	spin_lock_init(&t->lock);
	spin_lock_init(&t->rx_lock);
	timer_setup(&t->timer, tcp_timer, 0);
	timer_setup(&t->delack, tcp_delack_timer, 0);
	INIT_WORK(&t->tx_work, tcp_tx_work);
	INIT_LIST_HEAD(&t->sndq);
	INIT_LIST_HEAD(&t->ooo);
	t->rto_min_ms = MADCM_RNIC_TCP_RTO_MIN_MS;
	t->delack_ms = MADCM_RNIC_TCP_DELACK_MS;
	t->chal_limit = MADCM_RNIC_TCP_CHALLENGE_PER_SEC;
	t->state = MADCM_RNIC_TCP_IDLE;
	madcm_rnic_ks_init(t);
}

/**
 * madcm_rnic_qp_tcp_init() - a new QP's side of the offload boundary
 * @qp: the QP, zeroed, being created
 *
 * Sets the offload ops the CM calls and the QP's TCP engine.
 */
void madcm_rnic_qp_tcp_init(struct madcm_rnic_qp *qp)
{
	qp->oqp.ops = &madcm_rnic_offload_ops;
	qp->oqp.cm_priv = NULL;
	madcm_rnic_tcp_init(&qp->tcp, &madcm_rnic_qp_out);
}

/**
 * madcm_rnic_qp_tcp_destroy() - a QP's engine stops for good
 * @qp: the QP being destroyed, with no connection left
 *
 * Context: process context.
 */
void madcm_rnic_qp_tcp_destroy(struct madcm_rnic_qp *qp)
{
	if (READ_ONCE(qp->tcp.host))
		madcm_rnic_ks_detach(&qp->tcp);
	tcp_quiesce(&qp->tcp);
	tcp_purge(&qp->tcp);
}
