// SPDX-License-Identifier: GPL-2.0-only
/*
 * Passive opens and the listener's backlog under floods.
 *
 * A SYN takes a backlog slot and a node in SYN-RECEIVED. A SYN that finds
 * the backlog full is answered with a SYN cookie (RFC 4987 3.6) and no
 * state; the ACK that brings the cookie back opens the connection, and
 * if the backlog is still full it takes the slot of the oldest connection
 * that has not sent its MPA request yet (SYN-RECEIVED or MPA-REQ-WAIT),
 * which is reset. Connections whose request the consumer holds are never
 * evicted. Documentation/irdma_cm_netdev.rst says why.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/syncookie.h"

/* How long after its last cookie a listener checks ACKs for one. */
#define IRDMA_CM_COOKIE_WINDOW \
	((IRDMA_SYNCOOKIE_MAX_AGE + 1) * IRDMA_SYNCOOKIE_PERIOD_S * HZ)

static void irdma_cm_embryo_add(struct irdma_cm_node *node)
{
	struct irdma_cm_listener *l = node->listener;

	spin_lock_bh(&l->embryo_lock);
	list_add_tail(&node->embryo, &l->embryos);
	spin_unlock_bh(&l->embryo_lock);
}

/**
 * irdma_cm_embryo_del() - a connection is no longer one to evict
 * @node: the node, locked (or not yet hashed)
 *
 * Idempotent; nothing for an active open.
 */
void irdma_cm_embryo_del(struct irdma_cm_node *node)
{
	struct irdma_cm_listener *l = node->listener;

	if (!l || list_empty_careful(&node->embryo))
		return;
	spin_lock_bh(&l->embryo_lock);
	list_del_init(&node->embryo);
	spin_unlock_bh(&l->embryo_lock);
}

/*
 * Reset the oldest connection of @l that has not sent its MPA request,
 * so that its backlog slot is free. False when there is none.
 */
static bool irdma_cm_evict_oldest(struct irdma_cm_listener *l)
{
	struct irdma_cm_node *victim;
	bool done = false;

	spin_lock_bh(&l->embryo_lock);
	victim = list_first_entry_or_null(&l->embryos, struct irdma_cm_node,
					  embryo);
	if (victim) {
		list_del_init(&victim->embryo);
		if (!refcount_inc_not_zero(&victim->refcnt))
			victim = NULL;
	}
	spin_unlock_bh(&l->embryo_lock);
	if (!victim)
		return false;
	irdma_cm_node_lock(victim);
	if (victim->state == IRDMA_CM_STATE_SYN_RCVD ||
	    victim->state == IRDMA_CM_STATE_MPA_REQ_WAIT) {
		irdma_cm_dbg(victim, "evicted from a full backlog\n");
		irdma_cm_count(l->core, IRDMA_CM_CNT_BACKLOG_EVICTED);
		irdma_cm_reset_node(victim, -ECONNABORTED);
		done = true;
	}
	irdma_cm_node_unlock(victim);
	irdma_cm_node_put(victim);
	return done;
}

/*
 * A backlog slot for a connection that completes through a cookie: a free
 * one, else the oldest evictable connection's.
 */
static bool irdma_cm_backlog_take(struct irdma_cm_listener *l)
{
	int tries;

	for (tries = 0; tries < 2; tries++) {
		if (atomic_inc_return(&l->pending) <= l->backlog)
			return true;
		atomic_dec(&l->pending);
		if (!irdma_cm_evict_oldest(l))
			break;
	}
	irdma_cm_count(l->core, IRDMA_CM_CNT_BACKLOG_DROP);
	return false;
}

/*
 * A responder node for @listener from @seg (a SYN, or the ACK of a
 * cookie), its backlog slot already taken. NULL, the slot given back,
 * when none could be allocated.
 */
static struct irdma_cm_node *
irdma_cm_passive_node(struct irdma_cm_listener *listener,
		      const struct irdma_cm_seg *seg)
{
	const struct madcm_cm_listen_attr *attr = &listener->attr;
	struct irdma_cm_node *node;
	struct irdma_cm_tuple key;

	irdma_cm_tuple_from_seg(seg, &key);
	node = irdma_make_cm_node(listener->core, &key,
				  IRDMA_CM_ROLE_RESPONDER, GFP_ATOMIC);
	if (!node) {
		atomic_dec(&listener->pending);
		return NULL;
	}
	refcount_inc(&listener->refcnt);
	node->listener = listener;
	set_bit(IRDMA_CM_F_IN_BACKLOG, &node->flags);
	memcpy(node->rem_mac, seg->src_mac, ETH_ALEN);
	set_bit(IRDMA_CM_F_MAC_RESOLVED, &node->flags);
	node->mpa_frame_rev = attr->mpa_rev;
	irdma_cm_set_mpa_opts(node, attr->peer_to_peer, attr->crc);
	irdma_cm_set_tcp_offer(node, attr->tcp_opts);
	node->rtr_caps = attr->rtr_caps & IRDMA_RTR_ALL;
	irdma_record_ird_ord(node, attr->ird, attr->ord);
	node->handler = attr->handler;
	node->context = attr->context;
	irdma_cm_init_tcp(node);
	return node;
}

/* Into the table and the listener's embryos; false when it lost a race. */
static bool irdma_cm_passive_hash(struct irdma_cm_node *node)
{
	irdma_cm_set_state(node, IRDMA_CM_STATE_SYN_RCVD);
	irdma_cm_embryo_add(node);
	if (irdma_cm_node_hash(node)) {
		/* A twin segment won the race, or the core is going away. */
		irdma_cm_node_lock(node);
		irdma_cm_node_closed(node);
		irdma_cm_node_unlock(node);
		irdma_cm_node_put(node);
		return false;
	}
	return true;
}

/* The MSS a peer's SYN offers, its default when it has none. */
static u16 irdma_cm_peer_mss(const struct irdma_cm_seg *seg)
{
	if (seg->opts.has_mss)
		return max_t(u16, seg->opts.mss, IRDMA_CM_MIN_MSS);
	return seg->ipv4 ? IRDMA_CM_DEFAULT_MSS4 : IRDMA_CM_DEFAULT_MSS6;
}

/*
 * RFC 4987 3.6: answer @syn with a SYN-ACK whose ISN is a cookie, and
 * keep nothing. It offers no window scale option: the ACK could not tell
 * whether the peer had asked for scaling, so neither side scales (RFC
 * 7323 2.2). It is sent once; the peer's SYN retransmission gets another.
 */
static void irdma_send_syncookie(struct irdma_cm_listener *listener,
				 const struct irdma_cm_seg *syn)
{
	struct irdma_cm_core *core = listener->core;
	struct irdma_cm_seg sa = {};
	struct irdma_cm_tuple key;
	u8 idx;
	u32 size;
	u8 *buf;
	int len;

	irdma_cm_tuple_from_seg(syn, &key);
	idx = irdma_syncookie_mss_idx(irdma_cm_peer_mss(syn));
	memcpy(sa.dst_mac, syn->src_mac, ETH_ALEN);
	core->ops->local_mac(core, sa.src_mac);
	sa.ipv4 = syn->ipv4;
	sa.vlan = syn->vlan;
	sa.vlan_tci = syn->vlan_tci;
	sa.ttl = IRDMA_CM_DEFAULT_TTL;
	sa.src = syn->dst;
	sa.dst = syn->src;
	sa.seq = irdma_syncookie_make(&core->syncookie_key, &key, syn->seq,
				      irdma_syncookie_count(), idx);
	sa.ack = syn->seq + 1;
	sa.flags = IRDMA_TCP_SYN | IRDMA_TCP_ACK;
	sa.window = min_t(u32, IRDMA_CM_RCV_WND, U16_MAX);
	sa.opts.has_mss = true;
	sa.opts.mss = irdma_cm_local_mss(core, syn->ipv4);

	size = irdma_cm_seg_hdr_len(&sa);
	buf = kmalloc(size, GFP_ATOMIC);
	if (!buf) {
		irdma_cm_count(core, IRDMA_CM_CNT_NOMEM);
		return;
	}
	WRITE_ONCE(listener->cookie_time, jiffies);
	WRITE_ONCE(listener->cookies, true);
	len = irdma_cm_build_seg(&sa, buf, size);
	if (len > 0 && !core->ops->xmit(core, buf, len)) {
		irdma_cm_count(core, IRDMA_CM_CNT_SYN_COOKIE_SENT);
		irdma_cm_count(core, IRDMA_CM_CNT_TX_SEGS);
	} else {
		irdma_cm_count(core, IRDMA_CM_CNT_TX_ERR);
	}
	kfree(buf);
}

/**
 * irdma_handle_syn_pkt() - a SYN for a listener: passive open
 * @listener: the listener, referenced by the caller
 * @seg: the SYN
 *
 * Counts the new connection against the listener's backlog, creates a
 * node in SYN-RECEIVED and answers with a SYN-ACK. A SYN that finds the
 * backlog full is answered with a SYN cookie instead, and no node.
 */
void irdma_handle_syn_pkt(struct irdma_cm_listener *listener,
			  const struct irdma_cm_seg *seg)
{
	struct irdma_cm_core *core = listener->core;
	struct irdma_cm_node *node;

	if (atomic_inc_return(&listener->pending) > listener->backlog) {
		atomic_dec(&listener->pending);
		irdma_send_syncookie(listener, seg);
		return;
	}
	node = irdma_cm_passive_node(listener, seg);
	if (!node)
		return;
	irdma_cm_take_syn_opts(node, seg);
	if (!irdma_cm_passive_hash(node))
		return;
	irdma_cm_count(core, IRDMA_CM_CNT_SYN_RCVD);
	irdma_cm_node_lock(node);
	if (READ_ONCE(listener->destroyed))
		irdma_cm_abort_node(node, -ECONNABORTED);
	else
		irdma_send_syn(node, true);
	irdma_cm_node_unlock(node);
	irdma_cm_node_put(node);
}

/**
 * irdma_handle_cookie_ack() - an ACK for no connection, to a listener
 * @listener: the listener, referenced by the caller
 * @seg: the segment: ACK set, SYN and RST clear
 *
 * While the listener has sent SYN cookies lately, such an ACK may end a
 * handshake a cookie began: SEG.ACK - 1 must be a good cookie for the
 * tuple and SEG.SEQ - 1. The connection is then created in SYN-RECEIVED,
 * as if its SYN-ACK had been sent with that ISN, the MSS the cookie
 * carries and no window scaling, and the segment (with any MPA request
 * in it) is processed on it. With the backlog full and nothing to evict
 * it is dropped: the peer's next segment (its MPA request) brings the
 * cookie again.
 *
 * Return: true when the segment was taken (or dropped) here; false when
 * it ends no cookie handshake, so that it is answered with a RST.
 */
bool irdma_handle_cookie_ack(struct irdma_cm_listener *listener,
			     const struct irdma_cm_seg *seg)
{
	struct irdma_cm_core *core = listener->core;
	struct irdma_cm_seg syn = *seg;
	struct irdma_cm_node *node;
	struct irdma_cm_tuple key;
	u8 idx;

	if (!READ_ONCE(listener->cookies) ||
	    time_after(jiffies, READ_ONCE(listener->cookie_time) +
			IRDMA_CM_COOKIE_WINDOW))
		return false;
	irdma_cm_tuple_from_seg(seg, &key);
	if (!irdma_syncookie_check(&core->syncookie_key, &key, seg->seq - 1,
				   seg->ack - 1, irdma_syncookie_count(),
				   &idx)) {
		irdma_cm_count(core, IRDMA_CM_CNT_SYN_COOKIE_BAD);
		return false;
	}
	if (READ_ONCE(listener->destroyed))
		return false;
	if (!irdma_cm_backlog_take(listener))
		return true;
	node = irdma_cm_passive_node(listener, seg);
	if (!node)
		return true;
	/* The SYN the cookie stands for: its ISN and MSS, no scaling. */
	syn.seq = seg->seq - 1;
	syn.opts.has_mss = true;
	syn.opts.mss = irdma_syncookie_mss[idx];
	syn.opts.has_wscale = false;
	irdma_cm_take_syn_opts(node, &syn);
	node->iss = seg->ack - 1;
	node->snd_una = node->iss;
	node->snd_nxt = node->iss + 1;
	node->snd_high = node->iss + 1;
	if (!irdma_cm_passive_hash(node))
		return true;
	irdma_cm_count(core, IRDMA_CM_CNT_SYN_COOKIE_OK);
	irdma_cm_node_lock(node);
	if (READ_ONCE(listener->destroyed))
		irdma_cm_abort_node(node, -ECONNABORTED);
	else
		irdma_process_pkt(node, seg);
	irdma_cm_node_unlock(node);
	irdma_cm_node_put(node);
	return true;
}
