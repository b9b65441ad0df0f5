/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints of the CM (trace system madcm_cm): each connection's state
 * changes, the MPA frames it sends and receives, its retransmissions and
 * resets, the RSTs answering segments nobody owns, and the steering
 * decisions of the netdev backend. Documentation/irdma_cm.rst says how
 * to read them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM madcm_cm

#if !defined(_MADCM_CM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MADCM_CM_TRACE_H

#include <linux/tracepoint.h>
#include "irdma_cm/cm_node.h"
#include "irdma_cm/wire.h"

TRACE_DEFINE_ENUM(IRDMA_CM_STATE_CLOSED);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_SYN_SENT);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_SYN_RCVD);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_MPA_REQ_SENT);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_MPA_REQ_WAIT);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_MPA_REQ_RCVD);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_MPA_RTR_WAIT);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_ESTABLISHED);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_OFFLOADED);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_FIN_WAIT1);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_FIN_WAIT2);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_CLOSE_WAIT);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_CLOSING);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_LAST_ACK);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_TIME_WAIT);
TRACE_DEFINE_ENUM(IRDMA_MPA_PENDING);
TRACE_DEFINE_ENUM(IRDMA_MPA_ACCEPTED);
TRACE_DEFINE_ENUM(IRDMA_MPA_REJECTED);
TRACE_DEFINE_ENUM(IRDMA_MPA_FAILED);
TRACE_DEFINE_ENUM(IRDMA_QHASH_LISTEN);
TRACE_DEFINE_ENUM(IRDMA_QHASH_CONN);

#define show_cm_state(s)						\
	__print_symbolic(s,						\
		{ IRDMA_CM_STATE_CLOSED, "CLOSED" },			\
		{ IRDMA_CM_STATE_SYN_SENT, "SYN-SENT" },		\
		{ IRDMA_CM_STATE_SYN_RCVD, "SYN-RECEIVED" },		\
		{ IRDMA_CM_STATE_MPA_REQ_SENT, "MPA-REQ-SENT" },	\
		{ IRDMA_CM_STATE_MPA_REQ_WAIT, "MPA-REQ-WAIT" },	\
		{ IRDMA_CM_STATE_MPA_REQ_RCVD, "MPA-REQ-RCVD" },	\
		{ IRDMA_CM_STATE_MPA_RTR_WAIT, "MPA-RTR-WAIT" },	\
		{ IRDMA_CM_STATE_ESTABLISHED, "ESTABLISHED" },		\
		{ IRDMA_CM_STATE_OFFLOADED, "OFFLOADED" },		\
		{ IRDMA_CM_STATE_FIN_WAIT1, "FIN-WAIT-1" },		\
		{ IRDMA_CM_STATE_FIN_WAIT2, "FIN-WAIT-2" },		\
		{ IRDMA_CM_STATE_CLOSE_WAIT, "CLOSE-WAIT" },		\
		{ IRDMA_CM_STATE_CLOSING, "CLOSING" },			\
		{ IRDMA_CM_STATE_LAST_ACK, "LAST-ACK" },		\
		{ IRDMA_CM_STATE_TIME_WAIT, "TIME-WAIT" })

#define show_mpa_result(r)						\
	__print_symbolic(r,						\
		{ IRDMA_MPA_PENDING, "pending" },			\
		{ IRDMA_MPA_ACCEPTED, "accepted" },			\
		{ IRDMA_MPA_REJECTED, "rejected" },			\
		{ IRDMA_MPA_FAILED, "failed" })

#define show_qhash_type(t)						\
	__print_symbolic(t,						\
		{ IRDMA_QHASH_LISTEN, "listen" },			\
		{ IRDMA_QHASH_CONN, "conn" })

/* A connection moves from one state to another. */
TRACE_EVENT(madcm_cm_state,
	    TP_PROTO(const struct irdma_cm_node *node,
		     enum irdma_cm_state old, enum irdma_cm_state new),
	    TP_ARGS(node, old, new),
	    TP_STRUCT__entry(__field(const void *, node)
			     __array(u8, loc, sizeof(struct in6_addr))
			     __array(u8, rem, sizeof(struct in6_addr))
			     __field(u16, loc_port)
			     __field(u16, rem_port)
			     __field(int, old)
			     __field(int, new)
			     __field(int, mpa_result)),
	    TP_fast_assign(__entry->node = node;
			   memcpy(__entry->loc, &node->key.loc_ip,
				  sizeof(__entry->loc));
			   memcpy(__entry->rem, &node->key.rem_ip,
				  sizeof(__entry->rem));
			   __entry->loc_port = node->key.loc_port;
			   __entry->rem_port = node->key.rem_port;
			   __entry->old = old;
			   __entry->new = new;
			   __entry->mpa_result = node->mpa_result;),
	    TP_printk("node=%p %pI6c:%u-%pI6c:%u %s -> %s mpa=%s",
		      __entry->node, __entry->loc, __entry->loc_port,
		      __entry->rem, __entry->rem_port,
		      show_cm_state(__entry->old), show_cm_state(__entry->new),
		      show_mpa_result(__entry->mpa_result))
);

/*
 * An MPA request, reply or reject frame, from its header (which the
 * caller has at least sizeof(struct ietf_mpa_v1) bytes of). ird and ord
 * are the RFC 6581 words as sent, control bits included, or 0 when the
 * frame carries none.
 */
DECLARE_EVENT_CLASS(madcm_cm_mpa_class,
		    TP_PROTO(const struct irdma_cm_node *node,
			     const struct ietf_mpa_v1 *hdr, u32 len,
			     int status),
		    TP_ARGS(node, hdr, len, status),
		    TP_STRUCT__entry(__field(const void *, node)
				     __array(u8, loc, sizeof(struct in6_addr))
				     __array(u8, rem, sizeof(struct in6_addr))
				     __field(u16, loc_port)
				     __field(u16, rem_port)
				     __field(bool, request)
				     __field(u8, flags)
				     __field(u8, rev)
				     __field(u16, pd_len)
				     __field(u16, ird)
				     __field(u16, ord)
				     __field(int, status)),
		    TP_fast_assign(__entry->node = node;
				   memcpy(__entry->loc, &node->key.loc_ip,
					  sizeof(__entry->loc));
				   memcpy(__entry->rem, &node->key.rem_ip,
					  sizeof(__entry->rem));
				   __entry->loc_port = node->key.loc_port;
				   __entry->rem_port = node->key.rem_port;
				   __entry->request =
					!memcmp(hdr->key, IETF_MPA_KEY_REQ,
						IETF_MPA_KEY_SIZE);
				   __entry->flags = hdr->flags;
				   __entry->rev = hdr->rev;
				   __entry->pd_len =
					be16_to_cpu(hdr->priv_data_len);
				   irdma_mpa_rtr_words(hdr, len, &__entry->ird,
						       &__entry->ord);
				   __entry->status = status;),
		    TP_printk("node=%p %pI6c:%u-%pI6c:%u %s rev=%u flags=0x%02x pd_len=%u ird=0x%04x ord=0x%04x status=%d",
			      __entry->node, __entry->loc, __entry->loc_port,
			      __entry->rem, __entry->rem_port,
			      __entry->request ? "request" :
			      (__entry->flags & IETF_MPA_FLAGS_REJECT) ?
			      "reject" : "reply",
			      __entry->rev, __entry->flags, __entry->pd_len,
			      __entry->ird, __entry->ord, __entry->status)
);

/* A frame built to send (status 0). */
DEFINE_EVENT(madcm_cm_mpa_class, madcm_cm_mpa_tx,
	     TP_PROTO(const struct irdma_cm_node *node,
		      const struct ietf_mpa_v1 *hdr, u32 len, int status),
	     TP_ARGS(node, hdr, len, status));

/* The peer's frame, complete; status: irdma_parse_mpa()'s verdict. */
DEFINE_EVENT(madcm_cm_mpa_class, madcm_cm_mpa_rx,
	     TP_PROTO(const struct irdma_cm_node *node,
		      const struct ietf_mpa_v1 *hdr, u32 len, int status),
	     TP_ARGS(node, hdr, len, status));

/* The retransmission timer fired: what is resent, and the new RTO. */
TRACE_EVENT(madcm_cm_retransmit,
	    TP_PROTO(const struct irdma_cm_node *node, unsigned int rto_ms),
	    TP_ARGS(node, rto_ms),
	    TP_STRUCT__entry(__field(const void *, node)
			     __array(u8, loc, sizeof(struct in6_addr))
			     __array(u8, rem, sizeof(struct in6_addr))
			     __field(u16, loc_port)
			     __field(u16, rem_port)
			     __field(int, state)
			     __field(u32, retrans)
			     __field(u32, snd_una)
			     __field(u32, snd_nxt)
			     __field(unsigned int, rto_ms)),
	    TP_fast_assign(__entry->node = node;
			   memcpy(__entry->loc, &node->key.loc_ip,
				  sizeof(__entry->loc));
			   memcpy(__entry->rem, &node->key.rem_ip,
				  sizeof(__entry->rem));
			   __entry->loc_port = node->key.loc_port;
			   __entry->rem_port = node->key.rem_port;
			   __entry->state = node->state;
			   __entry->retrans = node->retrans;
			   __entry->snd_una = node->snd_una;
			   __entry->snd_nxt = node->snd_nxt;
			   __entry->rto_ms = rto_ms;),
	    TP_printk("node=%p %pI6c:%u-%pI6c:%u %s retrans=%u snd_una=%u snd_nxt=%u rto_ms=%u",
		      __entry->node, __entry->loc, __entry->loc_port,
		      __entry->rem, __entry->rem_port, show_cm_state(__entry->state),
		      __entry->retrans, __entry->snd_una, __entry->snd_nxt,
		      __entry->rto_ms)
);

/*
 * A connection ends with a reset: local when this side resets it (an
 * abort, a timeout, a bad frame; a RST goes out if the peer knows the
 * connection), else the peer's RST was accepted. status: what the
 * consumer's RESET event carries.
 */
TRACE_EVENT(madcm_cm_reset,
	    TP_PROTO(const struct irdma_cm_node *node, bool local, int status),
	    TP_ARGS(node, local, status),
	    TP_STRUCT__entry(__field(const void *, node)
			     __array(u8, loc, sizeof(struct in6_addr))
			     __array(u8, rem, sizeof(struct in6_addr))
			     __field(u16, loc_port)
			     __field(u16, rem_port)
			     __field(int, state)
			     __field(bool, local)
			     __field(int, status)),
	    TP_fast_assign(__entry->node = node;
			   memcpy(__entry->loc, &node->key.loc_ip,
				  sizeof(__entry->loc));
			   memcpy(__entry->rem, &node->key.rem_ip,
				  sizeof(__entry->rem));
			   __entry->loc_port = node->key.loc_port;
			   __entry->rem_port = node->key.rem_port;
			   __entry->state = node->state;
			   __entry->local = local;
			   __entry->status = status;),
	    TP_printk("node=%p %pI6c:%u-%pI6c:%u %s %s status=%d",
		      __entry->node, __entry->loc, __entry->loc_port,
		      __entry->rem, __entry->rem_port, show_cm_state(__entry->state),
		      __entry->local ? "local" : "peer", __entry->status)
);

/* A RST answers a segment for no connection or listener. */
TRACE_EVENT(madcm_cm_reply_rst,
	    TP_PROTO(const struct irdma_cm_seg *seg),
	    TP_ARGS(seg),
	    TP_STRUCT__entry(__array(u8, loc, sizeof(struct in6_addr))
			     __array(u8, rem, sizeof(struct in6_addr))
			     __field(u16, loc_port)
			     __field(u16, rem_port)
			     __field(u32, seq)
			     __field(u8, flags)),
	    TP_fast_assign(memcpy(__entry->loc, &seg->dst.ip,
				  sizeof(__entry->loc));
			   memcpy(__entry->rem, &seg->src.ip,
				  sizeof(__entry->rem));
			   __entry->loc_port = seg->dst.port;
			   __entry->rem_port = seg->src.port;
			   __entry->seq = seg->seq;
			   __entry->flags = seg->flags;),
	    TP_printk("%pI6c:%u-%pI6c:%u seq=%u flags=0x%02x",
		      __entry->loc, __entry->loc_port, __entry->rem,
		      __entry->rem_port, __entry->seq, __entry->flags)
);

/*
 * The netdev backend's verdict on a received TCP segment: stolen for the
 * CM (a steering entry of that type matched) or left to the host stack.
 */
TRACE_EVENT(madcm_cm_steer,
	    TP_PROTO(const struct irdma_cm_addr *loc,
		     const struct irdma_cm_addr *rem, u16 vlan_id,
		     bool stolen, enum irdma_qhash_type type),
	    TP_ARGS(loc, rem, vlan_id, stolen, type),
	    TP_STRUCT__entry(__array(u8, loc, sizeof(struct in6_addr))
			     __array(u8, rem, sizeof(struct in6_addr))
			     __field(u16, loc_port)
			     __field(u16, rem_port)
			     __field(u16, vlan_id)
			     __field(bool, stolen)
			     __field(int, type)),
	    TP_fast_assign(memcpy(__entry->loc, &loc->ip,
				  sizeof(__entry->loc));
			   memcpy(__entry->rem, &rem->ip,
				  sizeof(__entry->rem));
			   __entry->loc_port = loc->port;
			   __entry->rem_port = rem->port;
			   __entry->vlan_id = vlan_id;
			   __entry->stolen = stolen;
			   __entry->type = type;),
	    TP_printk("%pI6c:%u-%pI6c:%u vlan=%u %s%s",
		      __entry->loc, __entry->loc_port, __entry->rem,
		      __entry->rem_port, __entry->vlan_id,
		      __entry->stolen ? "cm:" : "host",
		      __entry->stolen ? show_qhash_type(__entry->type) : "")
);

/* A steering entry is added (add true) or removed; ret: the result. */
TRACE_EVENT(madcm_cm_qhash,
	    TP_PROTO(const struct irdma_cm_qhash *qh, bool add, int ret),
	    TP_ARGS(qh, add, ret),
	    TP_STRUCT__entry(__array(u8, loc, sizeof(struct in6_addr))
			     __array(u8, rem, sizeof(struct in6_addr))
			     __field(u16, loc_port)
			     __field(u16, rem_port)
			     __field(u16, vlan_id)
			     __field(int, type)
			     __field(bool, add)
			     __field(int, ret)),
	    TP_fast_assign(memcpy(__entry->loc, &qh->loc.ip,
				  sizeof(__entry->loc));
			   memcpy(__entry->rem, &qh->rem.ip,
				  sizeof(__entry->rem));
			   __entry->loc_port = qh->loc.port;
			   __entry->rem_port = qh->rem.port;
			   __entry->vlan_id = qh->vlan_id;
			   __entry->type = qh->type;
			   __entry->add = add;
			   __entry->ret = ret;),
	    TP_printk("%s %s %pI6c:%u-%pI6c:%u vlan=%u ret=%d",
		      __entry->add ? "add" : "del",
		      show_qhash_type(__entry->type), __entry->loc,
		      __entry->loc_port, __entry->rem, __entry->rem_port,
		      __entry->vlan_id, __entry->ret)
);

#endif /* _MADCM_CM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH irdma_cm
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE cm_trace
#include <trace/define_trace.h>
