// SPDX-License-Identifier: GPL-2.0-only
/*
 * The receive path: every MAD a transport delivers is checked (length,
 * base version, class version, QP, method), then handed to the agent it
 * belongs to: a response to the agent whose hi_tid its TID carries, a
 * request to the agent registered for its class, version and method. A
 * Get or Set nobody registered for is answered "unsupported method or
 * attribute" (IBTA vol. 1 13.4.7), as ib_core does. Every MAD dropped is
 * counted, by reason, in the port's counters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/export.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_smi.h>
#include <madcm/mad.h>

#include "fault.h"
#include "mad_priv.h"
#include "madcm_trace.h"
#include "rmpp.h"

static bool madcm_is_smp_class(u8 mgmt_class)
{
	return mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
	       mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
}

/*
 * Check a MAD from the wire. Return its buffer size (256 or 2048), or 0
 * after counting why it is dropped.
 */
static size_t madcm_recv_check(struct madcm_port *port,
			       const struct madcm_port_rx *rx)
{
	const struct ib_mad_hdr *hdr = rx->mad;
	size_t mad_size;
	bool smp;

	if (rx->len < sizeof(*hdr)) {
		madcm_port_count(port, MADCM_CNT_RX_SHORT);
		return 0;
	}
	if (hdr->base_version == IB_MGMT_BASE_VERSION) {
		mad_size = sizeof(struct ib_mad);
		/* An IB MAD is always exactly 256 bytes (13.4.1). */
		if (rx->len < mad_size) {
			madcm_port_count(port, MADCM_CNT_RX_SHORT);
			return 0;
		}
	} else if (port->attr.opa &&
		   hdr->base_version == OPA_MGMT_BASE_VERSION) {
		mad_size = sizeof(struct opa_mad);
	} else {
		madcm_port_count(port, MADCM_CNT_RX_BASE_VERSION);
		return 0;
	}
	if (rx->len > mad_size) {
		madcm_port_count(port, MADCM_CNT_RX_LONG);
		return 0;
	}
	if (hdr->class_version >= MADCM_MAX_CLASS_VERSION) {
		madcm_port_count(port, MADCM_CNT_RX_CLASS_VERSION);
		return 0;
	}
	/* SMPs on QP0 only, everything else on QP1 only. */
	smp = madcm_is_smp_class(hdr->mgmt_class);
	if (rx->qpn > 1 || smp != !rx->qpn) {
		madcm_port_count(port, MADCM_CNT_RX_WRONG_QP);
		return 0;
	}
	/* The CM class uses Send only, but for ClassPortInfo. */
	if (hdr->mgmt_class == IB_MGMT_CLASS_CM &&
	    hdr->attr_id != IB_MGMT_CLASSPORTINFO_ATTR_ID &&
	    hdr->method != IB_MGMT_METHOD_SEND) {
		madcm_port_count(port, MADCM_CNT_RX_BAD_METHOD);
		return 0;
	}
	return mad_size;
}

static struct madcm_recv *madcm_recv_alloc(struct madcm_port *port,
					   const struct madcm_port_rx *rx,
					   size_t mad_size)
{
	struct madcm_recv *rv;

	rv = madcm_fault(MADCM_FAULT_RECV) ? NULL :
		kzalloc(sizeof(*rv) + mad_size, GFP_KERNEL);
	if (!rv) {
		madcm_port_count(port, MADCM_CNT_RX_NOMEM);
		return NULL;
	}
	rv->port = port;
	memcpy(rv->mad, rx->mad, rx->len);
	if (rx->grh) {
		rv->grh = *rx->grh;
		rv->wc.wc_flags |= IB_WC_GRH;
	}
	rv->wc.status = IB_WC_SUCCESS;
	rv->wc.opcode = IB_WC_RECV;
	rv->wc.byte_len = rx->len + sizeof(struct ib_grh);
	rv->wc.src_qp = rx->src_qp;
	rv->wc.slid = rx->slid;
	rv->wc.sl = rx->sl;
	rv->wc.pkey_index = rx->pkey_index;
	rv->wc.dlid_path_bits = rx->dlid_path_bits;
	rv->wc.port_num = 1;
	rv->recv_wc.wc = &rv->wc;
	rv->recv_wc.recv_buf.mad = (struct ib_mad *)rv->mad;
	rv->recv_wc.recv_buf.grh = &rv->grh;
	rv->recv_wc.mad_len = mad_size == sizeof(struct opa_mad) ?
			      rx->len : mad_size;
	rv->recv_wc.mad_seg_size = mad_size;
	INIT_LIST_HEAD(&rv->recv_wc.rmpp_list);
	list_add(&rv->recv_wc.recv_buf.list, &rv->recv_wc.rmpp_list);
	madcm_port_get(port);
	atomic_inc(&port->live_recvs);
	return rv;
}

/* Free a received MAD: one segment, or a whole RMPP transfer. */
void madcm_recv_free(struct madcm_recv *rv)
{
	struct madcm_port *port = rv->port;

	atomic_dec(&port->live_recvs);
	if (rv->rmpp_map)
		madcm_rmpp_map_free(rv->rmpp_map);
	kfree(rv);
	madcm_port_put(port);
}

/**
 * madcm_free_recv_mad() - free a received MAD
 * @mad_recv_wc: the receive completion the recv handler was given
 *
 * The madcm twin of ib_free_recv_mad(). Every MAD handed to a recv handler
 * is the handler's to free, with this function. For a transfer madcm
 * reassembled (RMPP), this frees the whole transfer, every segment on
 * @mad_recv_wc->rmpp_list. It never sleeps: a transfer's page table, when
 * vmalloc'ed, is freed by a work.
 *
 * Context: Any context but NMI.
 * Return: Nothing.
 */
void madcm_free_recv_mad(struct ib_mad_recv_wc *mad_recv_wc)
{
	if (mad_recv_wc)
		madcm_recv_free(container_of(mad_recv_wc, struct madcm_recv,
					     recv_wc));
}
EXPORT_SYMBOL_GPL(madcm_free_recv_mad);

/* An RMPP class MAD with the RMPP Active flag (13.6.2.1). */
static bool madcm_recv_rmpp_active(const struct madcm_recv *rv)
{
	const struct ib_rmpp_mad *rmpp = (const struct ib_rmpp_mad *)rv->mad;

	return madcm_is_mad_class_rmpp(rmpp->mad_hdr.mgmt_class) &&
	       (rmpp->rmpp_hdr.rmpp_rtime_flags & IB_MGMT_RMPP_FLAG_ACTIVE);
}

/* An RMPP transfer that the kernel-RMPP engine would have to handle. */
static bool madcm_recv_is_rmpp(const struct madcm_agent *ag,
			       const struct madcm_recv *rv)
{
	return madcm_mad_kernel_rmpp_agent(&ag->agent) &&
	       madcm_recv_rmpp_active(rv);
}

/*
 * A response matched no outstanding send. An agent that does RMPP itself
 * (IB_MAD_USER_RMPP) gets active RMPP MADs anyway, as with ib_core;
 * anything else is dropped.
 */
void madcm_recv_unmatched_response(struct madcm_agent *ag,
				   struct madcm_recv *rv)
{
	if (ag->agent.rmpp_version &&
	    !madcm_mad_kernel_rmpp_agent(&ag->agent) &&
	    madcm_recv_rmpp_active(rv)) {
		madcm_port_count(ag->port, MADCM_CNT_RX_DISPATCHED);
		ag->agent.recv_handler(&ag->agent, NULL, &rv->recv_wc);
		return;
	}
	madcm_port_count(ag->port, MADCM_CNT_RX_UNMATCHED_RESP);
	madcm_recv_free(rv);
}

/* A reply of the port itself completed: release it. */
void madcm_send_port_complete(struct madcm_send *ms, enum ib_wc_status st)
{
	struct madcm_port *port = ms->port;

	if (st != IB_WC_SUCCESS)
		madcm_port_count(port, MADCM_CNT_TX_REPLY_FAIL);
	atomic_dec(&port->live_replies);
	/* Last: the address handle may hold the last port reference. */
	madcm_port_ah_destroy(to_madcm_ah(ms->send_buf.ah));
	kfree(ms);
}

/*
 * Answer a Get or Set that no agent takes: the same MAD back to its
 * sender as a GetResp with status "unsupported method/attribute".
 */
static void madcm_recv_reply_unsupported(struct madcm_port *port,
					 const struct madcm_recv *rv,
					 u32 qpn)
{
	const struct ib_mad_hdr *rhdr = (const struct ib_mad_hdr *)rv->mad;
	struct rdma_ah_attr attr = {};
	struct madcm_port_send ps = {};
	size_t size = rv->recv_wc.mad_seg_size;
	struct ib_mad_hdr *hdr;
	struct madcm_send *ms;
	struct madcm_ah *ah;

	ms = madcm_fault(MADCM_FAULT_REPLY) ? NULL :
		kzalloc(sizeof(*ms) + size, GFP_KERNEL);
	if (!ms)
		goto fail;
	attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&attr, rv->wc.slid);
	rdma_ah_set_sl(&attr, rv->wc.sl);
	if (rv->wc.wc_flags & IB_WC_GRH) {
		rdma_ah_set_ah_flags(&attr, IB_AH_GRH);
		attr.grh.dgid = rv->grh.sgid;
		attr.grh.hop_limit = 0xff;
	}
	ah = madcm_port_ah_create(port, &attr, GFP_KERNEL);
	if (IS_ERR(ah)) {
		kfree(ms);
		goto fail;
	}
	ms->port = port;
	ms->send_buf.ah = &ah->ibah;
	ms->state = MADCM_SEND_POSTED;
	memcpy(ms->buf, rv->mad, size);
	hdr = (struct ib_mad_hdr *)ms->buf;
	hdr->method = IB_MGMT_METHOD_GET_RESP;
	hdr->status = cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
	if (rhdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		hdr->status |= IB_SMP_DIRECTION;

	ps.send = ms;
	ps.ah = ah;
	ps.remote_qpn = rv->wc.src_qp;
	ps.remote_qkey = IB_QP_SET_QKEY;
	ps.pkey_index = rv->wc.pkey_index;
	ps.src_qpn = qpn;
	ps.hdr = ms->buf;
	ps.hdr_len = sizeof(*hdr);
	/* An OPA GMP answer is its header alone, as with ib_core. */
	ps.payload = ms->buf + sizeof(*hdr);
	ps.payload_len = size == sizeof(struct opa_mad) &&
			 !madcm_is_smp_class(rhdr->mgmt_class) ?
			 0 : size - sizeof(*hdr);
	atomic_inc(&port->live_replies);
	if (port->ops->post_send(port, &ps)) {
		atomic_dec(&port->live_replies);
		madcm_port_ah_destroy(ah);
		kfree(ms);
		goto fail;
	}
	madcm_port_count(port, MADCM_CNT_TX_UNSUPPORTED);
	return;
fail:
	madcm_port_count(port, MADCM_CNT_TX_REPLY_FAIL);
}

static void madcm_recv_request(struct madcm_port *port, struct madcm_recv *rv,
			       u32 qpn)
{
	const struct ib_mad_hdr *hdr = (const struct ib_mad_hdr *)rv->mad;
	struct madcm_agent *ag;

	ag = madcm_agent_find_request(port, hdr);
	if (!ag) {
		if (hdr->method == IB_MGMT_METHOD_GET ||
		    hdr->method == IB_MGMT_METHOD_SET) {
			trace_madcm_mad_recv(port->name, hdr, U32_MAX,
					     MADCM_CNT_TX_UNSUPPORTED);
			madcm_recv_reply_unsupported(port, rv, qpn);
		} else {
			trace_madcm_mad_recv(port->name, hdr, U32_MAX,
					     MADCM_CNT_RX_NO_AGENT);
			madcm_port_count(port, MADCM_CNT_RX_NO_AGENT);
		}
		madcm_recv_free(rv);
		return;
	}
	if (madcm_recv_is_rmpp(ag, rv)) {
		trace_madcm_mad_recv(port->name, hdr, ag->agent.hi_tid,
				     MADCM_CNT_RX_RMPP);
		madcm_port_count(port, MADCM_CNT_RX_RMPP);
		madcm_rmpp_recv(ag, rv);
	} else {
		trace_madcm_mad_recv(port->name, hdr, ag->agent.hi_tid,
				     MADCM_CNT_RX_DISPATCHED);
		madcm_port_count(port, MADCM_CNT_RX_DISPATCHED);
		ag->agent.recv_handler(&ag->agent, NULL, &rv->recv_wc);
	}
	madcm_agent_put(ag);
}

static void madcm_recv_response(struct madcm_port *port,
				struct madcm_recv *rv)
{
	const struct ib_mad_hdr *hdr = (const struct ib_mad_hdr *)rv->mad;
	struct madcm_agent *ag;

	ag = madcm_agent_find_response(port, hdr);
	if (!ag || !ag->agent.recv_handler) {
		madcm_port_count(port, MADCM_CNT_RX_UNMATCHED_RESP);
		madcm_recv_free(rv);
	} else if (madcm_recv_is_rmpp(ag, rv)) {
		madcm_port_count(port, MADCM_CNT_RX_RMPP);
		madcm_rmpp_recv(ag, rv);
	} else {
		madcm_send_match_response(ag, rv);
	}
	if (ag)
		madcm_agent_put(ag);
}

/*
 * A transfer reassembled for @ag (referenced by the caller): a response
 * goes to the request it answers, anything else to the recv handler.
 * Takes over @rv.
 */
void madcm_recv_dispatch(struct madcm_agent *ag, struct madcm_recv *rv)
{
	const struct ib_mad_hdr *hdr = (const struct ib_mad_hdr *)rv->mad;

	if (madcm_response_mad(hdr)) {
		madcm_send_match_response(ag, rv);
		return;
	}
	trace_madcm_mad_recv(ag->port->name, hdr, ag->agent.hi_tid,
			     MADCM_CNT_RX_DISPATCHED);
	madcm_port_count(ag->port, MADCM_CNT_RX_DISPATCHED);
	ag->agent.recv_handler(&ag->agent, NULL, &rv->recv_wc);
}

/**
 * madcm_port_deliver() - a transport received a MAD
 * @port: the port it came in on
 * @rx: the MAD and where it came from; the core copies what it keeps, so
 *	@rx and its buffers are the caller's again on return
 *
 * Checks the MAD (length, base and class version, the QP its class belongs
 * on, the CM class's methods) and hands a copy to the agent it belongs to:
 * a response to the agent whose hi_tid its TID carries, a request to the
 * agent registered for its class, version and method. That agent's recv
 * handler runs from here (for a response that ends its request, the send
 * handler after it); an RMPP segment goes to the reassembly of its
 * transfer instead. A Get or Set that
 * no agent takes is answered with a GetResp of status "unsupported method
 * or attribute". A MAD that is dropped (malformed, on the wrong QP, no
 * agent, an unmatched response, no memory for the copy) is counted in the
 * port's counters by reason; the transport learns nothing of it.
 *
 * Context: Process context; may sleep (allocates with GFP_KERNEL, and the
 * agents' handlers run from here).
 * Return: Nothing.
 */
void madcm_port_deliver(struct madcm_port *port,
			const struct madcm_port_rx *rx)
{
	const struct ib_mad_hdr *hdr;
	struct madcm_recv *rv;
	size_t mad_size;

	madcm_port_count(port, MADCM_CNT_RX);
	if (!rx->mad) {
		madcm_port_count(port, MADCM_CNT_RX_SHORT);
		return;
	}
	mad_size = madcm_recv_check(port, rx);
	if (!mad_size)
		return;
	rv = madcm_recv_alloc(port, rx, mad_size);
	if (!rv)
		return;
	hdr = (const struct ib_mad_hdr *)rv->mad;
	if (madcm_response_mad(hdr))
		madcm_recv_response(port, rv);
	else
		madcm_recv_request(port, rv, rx->qpn);
}
EXPORT_SYMBOL_GPL(madcm_port_deliver);
