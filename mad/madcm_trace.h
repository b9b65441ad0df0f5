/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints of the MAD core: each send posted and finished, each
 * timeout, each received MAD and what became of it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM madcm_mad

#if !defined(_MADCM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MADCM_TRACE_H

#include <linux/tracepoint.h>
#include <rdma/ib_mad.h>

#include "madcm_compat.h"

DECLARE_EVENT_CLASS(madcm_mad_send_class,
		    TP_PROTO(const char *port, const struct ib_mad_hdr *hdr,
			     u32 hi_tid, int value),
		    TP_ARGS(port, hdr, hi_tid, value),
		    TP_STRUCT__entry(__string(port, port)
				     __field(u64, tid)
				     __field(u32, hi_tid)
				     __field(u8, mgmt_class)
				     __field(u8, method)
				     __field(u16, attr_id)
				     __field(int, value)),
		    TP_fast_assign(madcm_assign_str(port, port);
				   __entry->tid = be64_to_cpu(hdr->tid);
				   __entry->hi_tid = hi_tid;
				   __entry->mgmt_class = hdr->mgmt_class;
				   __entry->method = hdr->method;
				   __entry->attr_id = be16_to_cpu(hdr->attr_id);
				   __entry->value = value;),
		    TP_printk("port=%s agent=%u tid=0x%llx class=0x%02x method=0x%02x attr=0x%04x value=%d",
			      __get_str(port), __entry->hi_tid, __entry->tid,
			      __entry->mgmt_class, __entry->method,
			      __entry->attr_id, __entry->value)
);

/* A send posted; value: its timeout in ms. */
DEFINE_EVENT(madcm_mad_send_class, madcm_mad_post,
	     TP_PROTO(const char *port, const struct ib_mad_hdr *hdr,
		      u32 hi_tid, int value),
	     TP_ARGS(port, hdr, hi_tid, value));

/* A send handed back through the send handler; value: its status. */
DEFINE_EVENT(madcm_mad_send_class, madcm_mad_send_done,
	     TP_PROTO(const char *port, const struct ib_mad_hdr *hdr,
		      u32 hi_tid, int value),
	     TP_ARGS(port, hdr, hi_tid, value));

/* A send ran out of time; value: the retries it still has. */
DEFINE_EVENT(madcm_mad_send_class, madcm_mad_timeout,
	     TP_PROTO(const char *port, const struct ib_mad_hdr *hdr,
		      u32 hi_tid, int value),
	     TP_ARGS(port, hdr, hi_tid, value));

/*
 * A received MAD that passed the checks; value: the port counter it ended
 * in (rx_dispatched, a drop reason, or tx_unsupported_reply for a Get or
 * Set answered by the port). hi_tid: the agent it went to, or U32_MAX.
 */
DEFINE_EVENT(madcm_mad_send_class, madcm_mad_recv,
	     TP_PROTO(const char *port, const struct ib_mad_hdr *hdr,
		      u32 hi_tid, int value),
	     TP_ARGS(port, hdr, hi_tid, value));

#endif /* _MADCM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH mad
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE madcm_trace
#include <trace/define_trace.h>
