// SPDX-License-Identifier: GPL-2.0-only
/*
 * The QP's side of the offload boundary (<madcm/cm_offload.h>): a small
 * TCP engine per QP that carries the stream once the CM hands it over,
 * as irdma's hardware does after irdma_cm_init_tsa_conn().
 *
 * What it does (RFC 9293 unless said): it loads the CM's context and
 * keeps retransmitting the bytes the CM left unacknowledged (backoff from
 * the CM's RTO, RESET -ETIMEDOUT after MADCM_RNIC_TCP_MAX_RETRIES);
 * judges each segment with the CM's own acceptability and RFC 5961 rules
 * (irdma_check_seq()); takes ACKs and window updates; acknowledges and
 * counts in-order data (the data path is not there yet: nothing is
 * delivered); takes the peer's FIN in order and answers with its own, as
 * irdma's QP does when it goes to CLOSING; and closes with FIN or RST when
 * the CM asks. Frames leave only through madcm_cm_offload_xmit(), events
 * only through madcm_cm_offload_event(), both from the engine's work item
 * (see rnic/qp_tcp.h for the locking).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": rnic: " fmt

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
#define MADCM_RNIC_TCP_MSS_FLOOR	64

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

/* The engine's state, everything below with t->lock held. */

static void tcp_kick(struct madcm_rnic_tcp *t)
{
	if (!t->detached && (t->tx_pending || t->ev_pending))
		queue_work(system_wq, &t->tx_work);
}

static void tcp_arm(struct madcm_rnic_tcp *t, u32 ms)
{
	if (!t->detached)
		mod_timer(&t->timer, jiffies + msecs_to_jiffies(ms));
}

static bool tcp_outstanding(const struct madcm_rnic_tcp *t)
{
	return t->snd_una != t->snd_nxt;
}

static bool tcp_synchronized(const struct madcm_rnic_tcp *t)
{
	return t->state != MADCM_RNIC_TCP_IDLE &&
	       t->state != MADCM_RNIC_TCP_CLOSED;
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
}

/* Reset: with a RST of ours (@send_rst) or because of the peer's. */
static void tcp_reset(struct madcm_rnic_tcp *t, int status, bool send_rst)
{
	tcp_terminal(t, MADCM_CM_OFFLOAD_EV_RESET, status);
	t->tx_pending = send_rst ? BIT(MADCM_RNIC_TCP_TX_RST) : 0;
}

/* Our FIN goes after everything queued (today: the CM's bytes). */
static void tcp_send_fin(struct madcm_rnic_tcp *t)
{
	if (t->fin_sent)
		return;
	t->fin_sent = true;
	t->snd_nxt++;
	set_bit(MADCM_RNIC_TCP_TX_FIN, &t->tx_pending);
	if (!timer_pending(&t->timer))
		tcp_arm(t, t->rto_ms);
}

/* Octets up to SEG.ACK are acknowledged (0 < @acked). */
static void tcp_take_ack(struct madcm_rnic_tcp *t, u32 acked)
{
	u32 data = min(acked, t->unacked_len);

	memmove(t->unacked, t->unacked + data, t->unacked_len - data);
	t->unacked_len -= data;
	t->snd_una += acked;
	t->retries = 0;
	t->rto_ms = t->rto_base_ms;

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
	if (tcp_outstanding(t))
		tcp_arm(t, t->rto_ms);
	else
		timer_delete(&t->timer);
}

/* In-order payload: acknowledged and counted; not delivered (yet). */
static bool tcp_take_data(struct madcm_rnic_tcp *t,
			  const struct irdma_cm_seg *seg)
{
	u32 len = seg->payload_len, skip = 0, take;

	if (irdma_seq_lt(t->rcv_nxt, seg->seq)) {
		/* a hole before it: the peer sends it again */
		t->cnt[MADCM_RNIC_TCP_RX_OOO]++;
		set_bit(MADCM_RNIC_TCP_TX_ACK, &t->tx_pending);
		return false;
	}
	if (irdma_seq_lt(seg->seq, t->rcv_nxt))
		skip = t->rcv_nxt - seg->seq;
	if (skip >= len)
		return true;
	take = min(len - skip, t->rcv_wnd);
	t->rcv_nxt += take;
	t->cnt[MADCM_RNIC_TCP_RX_DATA_BYTES] += take;
	set_bit(MADCM_RNIC_TCP_TX_ACK, &t->tx_pending);
	return take == len - skip;
}

/*
 * Bytes the CM received in order and left to the QP at hand-off (the
 * initiator's RTR message on a peer-to-peer responder): taken as if they
 * had just arrived, so acknowledged and, until the data path, counted.
 */
static void tcp_take_rcvd(struct madcm_rnic_tcp *t, u32 len)
{
	u32 take = min(len, t->rcv_wnd);

	if (!take)
		return;
	t->rcv_nxt += take;
	t->cnt[MADCM_RNIC_TCP_RX_DATA_BYTES] += take;
	set_bit(MADCM_RNIC_TCP_TX_ACK, &t->tx_pending);
}

/* The peer's FIN, in order. */
static void tcp_take_fin(struct madcm_rnic_tcp *t)
{
	t->rcv_nxt++;
	t->fin_rcvd = true;
	set_bit(MADCM_RNIC_TCP_TX_ACK, &t->tx_pending);
	set_bit(MADCM_CM_OFFLOAD_EV_FIN_RCVD, &t->ev_pending);

	switch (t->state) {
	case MADCM_RNIC_TCP_ESTABLISHED:
		/* as irdma's QP in CLOSING: our FIN follows at once */
		t->state = MADCM_RNIC_TCP_LAST_ACK;
		tcp_send_fin(t);
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

/* One well-formed segment of our 4-tuple, in a synchronized state. */
static void tcp_segment(struct madcm_rnic_tcp *t,
			const struct irdma_cm_seg *seg)
{
	struct irdma_tcp_rcv_state st = {
		.rcv_nxt = t->rcv_nxt, .rcv_wnd = t->rcv_wnd,
		.snd_una = t->snd_una, .snd_nxt = t->snd_nxt,
		.max_snd_wnd = t->max_snd_wnd,
	};
	bool in_order = true;
	u32 acked;

	t->cnt[MADCM_RNIC_TCP_RX_SEGS]++;
	switch (irdma_check_seq(&st, seg->seq, seg->ack, seg->flags,
				seg->payload_len)) {
	case IRDMA_SEQ_ACCEPT:
		break;
	case IRDMA_SEQ_DROP_ACK:
		t->cnt[MADCM_RNIC_TCP_RX_SEQ_DROP]++;
		set_bit(MADCM_RNIC_TCP_TX_ACK, &t->tx_pending);
		return;
	case IRDMA_SEQ_CHALLENGE_ACK:
		t->cnt[MADCM_RNIC_TCP_RX_CHALLENGE]++;
		set_bit(MADCM_RNIC_TCP_TX_ACK, &t->tx_pending);
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
		t->snd_wnd = (u32)seg->window << t->snd_wscale;
		t->snd_wl1 = seg->seq;
		t->snd_wl2 = seg->ack;
		t->max_snd_wnd = max(t->max_snd_wnd, t->snd_wnd);
	}
	acked = madcm_rnic_tcp_new_acked(t->snd_una, t->snd_nxt, seg->ack);
	if (acked)
		tcp_take_ack(t, acked);
	if (!tcp_synchronized(t))
		return;

	/* data and FIN count until the peer's FIN, not after */
	if (t->fin_rcvd)
		return;
	if (seg->payload_len)
		in_order = tcp_take_data(t, seg);
	if (!in_order || !(seg->flags & IRDMA_TCP_FIN))
		return;
	if (seg->seq + seg->payload_len == t->rcv_nxt) {
		tcp_take_fin(t);
	} else if (!seg->payload_len) {
		/* a FIN past a hole: the peer sends both again */
		t->cnt[MADCM_RNIC_TCP_RX_OOO]++;
		set_bit(MADCM_RNIC_TCP_TX_ACK, &t->tx_pending);
	}
}

/* What one run of the work item sends and reports. */
struct tcp_tx_plan {
	bool rst, rtx, fin, ack;
	u32 snd_una, snd_nxt, rcv_nxt;
	u16 window;
	u16 mss;
	bool fin_sent;
	u32 data_len;
	unsigned long events;
	int status;
};

static void tcp_seg_init(const struct madcm_rnic_tcp *t,
			 const struct tcp_tx_plan *p, struct irdma_cm_seg *s)
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
	s->ack = p->rcv_nxt;
	s->window = p->window;
}

/* A counter bumped outside the engine's lock (the senders). */
static void tcp_count(struct madcm_rnic_tcp *t, enum madcm_rnic_tcp_counter c)
{
	unsigned long flags;

	spin_lock_irqsave(&t->lock, flags);
	t->cnt[c]++;
	spin_unlock_irqrestore(&t->lock, flags);
}

static void tcp_send(struct madcm_rnic_tcp *t, struct irdma_cm_seg *s,
		     u8 *buf, u32 size)
{
	struct madcm_rnic_dev *dev = tcp_to_qp(t)->dev;
	int len = irdma_cm_build_seg(s, buf, size);

	if (len < 0 || t->out->xmit(t, buf, len)) {
		tcp_count(t, MADCM_RNIC_TCP_TX_ERR);
		return;
	}
	tcp_count(t, MADCM_RNIC_TCP_TX_SEGS);
	madcm_rnic_count(dev, MADCM_RNIC_CNT_TX_FRAMES);
	madcm_rnic_count_add(dev, MADCM_RNIC_CNT_TX_BYTES, s->payload_len);
}

/* Everything from SND.UNA: the CM's bytes in MSS pieces, then the FIN. */
static void tcp_send_from_una(struct madcm_rnic_tcp *t,
			      const struct tcp_tx_plan *p, const u8 *data,
			      u8 *buf, u32 size)
{
	struct irdma_cm_seg s;
	u32 off = 0;

	do {
		u32 n = min_t(u32, p->data_len - off, p->mss);
		bool last = off + n == p->data_len;

		tcp_seg_init(t, p, &s);
		s.seq = p->snd_una + off;
		s.flags = IRDMA_TCP_ACK;
		if (n)
			s.flags |= IRDMA_TCP_PSH;
		if (last && p->fin_sent)
			s.flags |= IRDMA_TCP_FIN;
		s.payload = data + off;
		s.payload_len = n;
		tcp_send(t, &s, buf, size);
		off += n;
	} while (off < p->data_len);
}

static void tcp_plan(struct madcm_rnic_tcp *t, struct tcp_tx_plan *p)
{
	unsigned long tx = t->tx_pending;

	memset(p, 0, sizeof(*p));
	t->tx_pending = 0;
	p->rst = tx & BIT(MADCM_RNIC_TCP_TX_RST);
	p->rtx = tx & BIT(MADCM_RNIC_TCP_TX_RTX);
	p->fin = tx & BIT(MADCM_RNIC_TCP_TX_FIN);
	p->ack = tx & BIT(MADCM_RNIC_TCP_TX_ACK);
	p->snd_una = t->snd_una;
	p->snd_nxt = t->snd_nxt;
	p->rcv_nxt = t->rcv_nxt;
	p->window = madcm_rnic_tcp_wnd_field(t->rcv_wnd, t->rcv_wscale);
	p->mss = t->mss;
	p->fin_sent = t->fin_sent;
	if (p->rtx) {
		p->data_len = t->unacked_len;
		memcpy(t->tx_copy, t->unacked, t->unacked_len);
	}
	/* each event once; FIN_RCVD before the terminal one */
	p->events = t->ev_pending & ~t->ev_done;
	t->ev_done |= t->ev_pending;
	t->ev_pending = 0;
	p->status = t->reset_status;
}

static void tcp_execute(struct madcm_rnic_tcp *t, const struct tcp_tx_plan *p,
			u8 *buf, u32 size)
{
	struct irdma_cm_seg s;

	if (p->rst) {
		tcp_seg_init(t, p, &s);
		s.seq = p->snd_nxt;
		s.flags = IRDMA_TCP_RST | IRDMA_TCP_ACK;
		tcp_send(t, &s, buf, size);
	} else if (p->rtx) {
		tcp_send_from_una(t, p, t->tx_copy, buf, size);
	} else if (p->fin) {
		/* the FIN alone: the bytes before it are out already */
		tcp_seg_init(t, p, &s);
		s.seq = p->snd_nxt - 1;
		s.flags = IRDMA_TCP_FIN | IRDMA_TCP_ACK;
		tcp_send(t, &s, buf, size);
	} else if (p->ack) {
		tcp_seg_init(t, p, &s);
		s.seq = p->snd_nxt;
		s.flags = IRDMA_TCP_ACK;
		tcp_send(t, &s, buf, size);
	}

	if (p->events & BIT(MADCM_CM_OFFLOAD_EV_FIN_RCVD))
		t->out->event(t, MADCM_CM_OFFLOAD_EV_FIN_RCVD, 0);
	/* over either way: the QP goes to ERROR, its WRs are flushed */
	if (p->events & BIT(MADCM_CM_OFFLOAD_EV_CLOSED)) {
		t->out->qp_state(t, IB_QPS_ERR);
		t->out->event(t, MADCM_CM_OFFLOAD_EV_CLOSED, 0);
	}
	if (p->events & BIT(MADCM_CM_OFFLOAD_EV_RESET)) {
		t->out->qp_state(t, IB_QPS_ERR);
		t->out->event(t, MADCM_CM_OFFLOAD_EV_RESET, p->status);
	}
}

static void tcp_tx_work(struct work_struct *work)
{
	struct madcm_rnic_tcp *t = container_of(work, struct madcm_rnic_tcp,
						tx_work);
	struct tcp_tx_plan plan;
	unsigned long flags;
	u32 size;
	u8 *buf;

	for (;;) {
		spin_lock_irqsave(&t->lock, flags);
		if (t->detached || (!t->tx_pending && !t->ev_pending)) {
			spin_unlock_irqrestore(&t->lock, flags);
			return;
		}
		tcp_plan(t, &plan);
		spin_unlock_irqrestore(&t->lock, flags);

		size = IRDMA_CM_MAX_HDR + plan.mss;
		buf = kmalloc(size, GFP_KERNEL);
		if (!buf) {
			/* the retransmission timer sends it again */
			tcp_count(t, MADCM_RNIC_TCP_TX_NOMEM);
			plan.rst = false;
			plan.rtx = false;
			plan.fin = false;
			plan.ack = false;
		}
		tcp_execute(t, &plan, buf, size);
		kfree(buf);
	}
}

static void tcp_timer(struct timer_list *timer)
{
	struct madcm_rnic_tcp *t = from_timer(t, timer, timer);
	unsigned long flags;

	spin_lock_irqsave(&t->lock, flags);
	if (t->detached || !tcp_synchronized(t))
		goto out;
	if (!tcp_outstanding(t)) {
		if (t->state == MADCM_RNIC_TCP_FIN_WAIT_2)
			tcp_reset(t, -ETIMEDOUT, true);
		goto out;
	}
	if (t->retries >= MADCM_RNIC_TCP_MAX_RETRIES) {
		tcp_reset(t, -ETIMEDOUT, true);
		goto out;
	}
	t->retries++;
	t->cnt[MADCM_RNIC_TCP_RETRANS]++;
	madcm_rnic_count(tcp_to_qp(t)->dev, MADCM_RNIC_CNT_RETRANSMITS);
	t->rto_ms = madcm_rnic_tcp_next_rto(t->rto_ms);
	set_bit(MADCM_RNIC_TCP_TX_RTX, &t->tx_pending);
	tcp_arm(t, t->rto_ms);
out:
	tcp_kick(t);
	spin_unlock_irqrestore(&t->lock, flags);
}

/* The offload ops. */

static int madcm_rnic_tcp_offload(struct madcm_cm_offload_qp *oqp,
				  const struct madcm_cm_offload_ctx *ctx)
{
	struct madcm_rnic_tcp *t = oqp_to_tcp(oqp);
	const struct madcm_cm_tcp_ctx *c = &ctx->tcp;
	unsigned long flags;
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

	ret = t->out->qp_state(t, IB_QPS_RTS);
	if (ret)
		return ret;

	spin_lock_irqsave(&t->lock, flags);
	t->addr = *c;
	t->snd_una = c->snd_una;
	t->snd_nxt = c->snd_nxt;
	t->snd_wnd = c->snd_wnd;
	t->snd_wl1 = c->snd_wl1;
	t->snd_wl2 = c->snd_wl2;
	t->max_snd_wnd = max(c->max_snd_wnd, c->snd_wnd);
	t->rcv_nxt = c->rcv_nxt;
	t->rcv_wnd = c->rcv_wnd;
	t->mss = max_t(u16, c->snd_mss, MADCM_RNIC_TCP_MSS_FLOOR);
	t->snd_wscale = min_t(u8, c->snd_wscale, IRDMA_TCP_MAX_WSCALE);
	t->rcv_wscale = min_t(u8, c->rcv_wscale, IRDMA_TCP_MAX_WSCALE);
	t->fin_queued = false;
	t->fin_sent = false;
	t->fin_rcvd = false;
	memcpy(t->unacked, ctx->unacked, ctx->unacked_len);
	t->unacked_len = ctx->unacked_len;
	t->rto_base_ms = clamp_t(u32, ctx->rto_ms ?: MADCM_RNIC_TCP_RTO_INIT_MS,
				 MADCM_RNIC_TCP_RTO_MIN_MS,
				 MADCM_RNIC_TCP_RTO_MAX_MS);
	t->rto_ms = t->rto_base_ms;
	t->retries = 0;
	t->tx_pending = 0;
	t->ev_pending = 0;
	t->ev_done = 0;
	t->reset_status = 0;
	t->state = MADCM_RNIC_TCP_ESTABLISHED;
	if (tcp_outstanding(t))
		tcp_arm(t, t->rto_ms);
	tcp_take_rcvd(t, ctx->rcvd_len);
	tcp_kick(t);
	spin_unlock_irqrestore(&t->lock, flags);
	return 0;
}

static void madcm_rnic_tcp_rx(struct madcm_cm_offload_qp *oqp,
			      const u8 *frame, u32 len)
{
	struct madcm_rnic_tcp *t = oqp_to_tcp(oqp);
	struct madcm_rnic_dev *dev = tcp_to_qp(t)->dev;
	struct irdma_cm_seg seg;
	unsigned long flags;

	madcm_rnic_count(dev, MADCM_RNIC_CNT_RX_FRAMES);
	if (irdma_cm_parse_seg(frame, len, &seg) != IRDMA_SEG_OK) {
		spin_lock_irqsave(&t->lock, flags);
		t->cnt[MADCM_RNIC_TCP_RX_BAD]++;
		spin_unlock_irqrestore(&t->lock, flags);
		return;
	}
	spin_lock_irqsave(&t->lock, flags);
	if (t->detached || !tcp_synchronized(t)) {
		spin_unlock_irqrestore(&t->lock, flags);
		return;
	}
	if (!tcp_matches(t, &seg)) {
		t->cnt[MADCM_RNIC_TCP_RX_NOT_OURS]++;
	} else {
		madcm_rnic_count_add(dev, MADCM_RNIC_CNT_RX_BYTES,
				     seg.payload_len);
		tcp_segment(t, &seg);
	}
	tcp_kick(t);
	spin_unlock_irqrestore(&t->lock, flags);
}

/*
 * The CM's abort ends the connection at once and detaches the QP soon
 * after: the RST leaves here, from the call (which the CM allows), not
 * from the work item, which might run only after the detach.
 */
static void tcp_close_rst(struct madcm_rnic_tcp *t, unsigned long flags)
	__releases(&t->lock)
{
	struct tcp_tx_plan p = {
		.snd_nxt = t->snd_nxt,
		.rcv_nxt = t->rcv_nxt,
		.window = madcm_rnic_tcp_wnd_field(t->rcv_wnd, t->rcv_wscale),
	};
	u8 buf[IRDMA_CM_MAX_HDR];
	struct irdma_cm_seg s;

	tcp_reset(t, -ECONNABORTED, false);
	tcp_kick(t);
	spin_unlock_irqrestore(&t->lock, flags);

	tcp_seg_init(t, &p, &s);
	s.seq = p.snd_nxt;
	s.flags = IRDMA_TCP_RST | IRDMA_TCP_ACK;
	tcp_send(t, &s, buf, sizeof(buf));
}

static void madcm_rnic_tcp_close(struct madcm_cm_offload_qp *oqp,
				 enum madcm_cm_offload_close how)
{
	struct madcm_rnic_tcp *t = oqp_to_tcp(oqp);
	unsigned long flags;

	spin_lock_irqsave(&t->lock, flags);
	if (t->detached || !tcp_synchronized(t))
		goto out;
	if (how == MADCM_CM_OFFLOAD_CLOSE_RST) {
		tcp_close_rst(t, flags);
		return;
	}
	if (!t->fin_queued) {
		t->fin_queued = true;
		if (t->state == MADCM_RNIC_TCP_ESTABLISHED) {
			t->state = MADCM_RNIC_TCP_FIN_WAIT_1;
			tcp_send_fin(t);
		}
	}
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
	spin_unlock_irqrestore(&t->lock, flags);
	timer_delete_sync(&t->timer);
	cancel_work_sync(&t->tx_work);
}

static void madcm_rnic_tcp_detach(struct madcm_cm_offload_qp *oqp)
{
	struct madcm_rnic_tcp *t = oqp_to_tcp(oqp);
	unsigned long flags;
	bool carried;

	tcp_quiesce(t);
	spin_lock_irqsave(&t->lock, flags);
	carried = t->state != MADCM_RNIC_TCP_IDLE;
	t->state = MADCM_RNIC_TCP_IDLE;
	t->unacked_len = 0;
	t->detached = false;
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

static const struct madcm_rnic_tcp_out madcm_rnic_qp_out = {
	.xmit = qp_out_xmit,
	.event = qp_out_event,
	.qp_state = qp_out_state,
	.release = qp_out_release,
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
	timer_setup(&t->timer, tcp_timer, 0);
	INIT_WORK(&t->tx_work, tcp_tx_work);
	t->state = MADCM_RNIC_TCP_IDLE;
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
	tcp_quiesce(&qp->tcp);
}
