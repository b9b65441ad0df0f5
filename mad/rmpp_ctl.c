// SPDX-License-Identifier: GPL-2.0-only
/*
 * RMPP control MADs: the ACK, STOP and ABORT that a receiver sends back
 * to a sender, and the ABORT or turn-around ACK that a sender sends to a
 * receiver (IBTA vol. 1 13.6.2). Each is a port-internal send, like the
 * "unsupported method/attribute" reply: it belongs to no agent and is
 * freed when the transport completes it. They may be sent under an
 * agent's lock, so they allocate atomically; one that cannot be
 * allocated is lost, as it could be on the wire. A transport that cannot
 * make an address handle atomically (ib_core on RoCE) gets them from a
 * workqueue of their own, madcm_mad_ah_wq, so that a resolution that hangs
 * never holds up timeouts; at most MADCM_RMPP_CTL_QUEUE_MAX wait there per
 * port, and the ones beyond are dropped (rmpp_tx_ctl_dropped), as lost on
 * the wire.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <madcm/mad.h>

#include "fault.h"
#include "mad_priv.h"
#include "rmpp.h"

/* Where to answer the sender of @rv: the address it came from. */
void madcm_rmpp_dest_from_recv(const struct madcm_recv *rv,
			       struct madcm_rmpp_dest *dest)
{
	memset(dest, 0, sizeof(*dest));
	dest->attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&dest->attr, rv->wc.slid);
	rdma_ah_set_sl(&dest->attr, rv->wc.sl);
	if (rv->wc.wc_flags & IB_WC_GRH) {
		rdma_ah_set_ah_flags(&dest->attr, IB_AH_GRH);
		dest->attr.grh.dgid = rv->grh.sgid;
		dest->attr.grh.hop_limit = 0xff;
	}
	dest->remote_qpn = rv->wc.src_qp;
	dest->pkey_index = rv->wc.pkey_index;
	dest->src_qpn = 1;
}

/* Where a send goes: its address handle's address. */
void madcm_rmpp_dest_from_send(const struct madcm_send *ms,
			       struct madcm_rmpp_dest *dest)
{
	memset(dest, 0, sizeof(*dest));
	dest->attr = to_madcm_ah(ms->send_buf.ah)->attr;
	dest->remote_qpn = ms->remote_qpn;
	dest->pkey_index = ms->pkey_index;
	dest->src_qpn = ms->agent ? ms->agent->qpn : 1;
}

static enum madcm_port_counter madcm_rmpp_ctl_counter(u8 type)
{
	switch (type) {
	case IB_MGMT_RMPP_TYPE_ACK:
		return MADCM_CNT_RMPP_TX_ACK;
	case IB_MGMT_RMPP_TYPE_STOP:
		return MADCM_CNT_RMPP_TX_STOP;
	default:
		return MADCM_CNT_RMPP_TX_ABORT;
	}
}

/*
 * A control MAD whose address handle could not be made in atomic context
 * (an ib_core port resolves a RoCE destination, which sleeps): it is made
 * and posted from madcm_mad_ah_wq instead. Holds a port reference and
 * counts in live_replies and ctl_waiting until it is posted or given up.
 */
struct madcm_rmpp_ctl_work {
	struct work_struct work;
	struct madcm_port *port;
	struct madcm_send *ms;
	struct madcm_rmpp_dest dest;
	int hdr_len;
	size_t size;
};

/* Post @ms, its headers filled, through @ah; 0 or a negative errno. */
static int madcm_rmpp_ctl_post(struct madcm_port *port, struct madcm_send *ms,
			       struct madcm_ah *ah,
			       const struct madcm_rmpp_dest *dest,
			       int hdr_len, size_t size)
{
	struct madcm_port_send ps = {};

	ms->port = port;
	ms->send_buf.ah = &ah->ibah;
	ms->state = MADCM_SEND_POSTED;
	ps.send = ms;
	ps.ah = ah;
	ps.remote_qpn = dest->remote_qpn;
	ps.remote_qkey = IB_QP_SET_QKEY;
	ps.pkey_index = dest->pkey_index;
	ps.src_qpn = dest->src_qpn;
	ps.hdr = ms->buf;
	ps.hdr_len = hdr_len;
	ps.payload = ms->buf + hdr_len;
	ps.payload_len = size - hdr_len;
	return port->ops->post_send(port, &ps);
}

static void madcm_rmpp_ctl_work_fn(struct work_struct *work)
{
	struct madcm_rmpp_ctl_work *cw =
		container_of(work, struct madcm_rmpp_ctl_work, work);
	struct madcm_port *port = cw->port;
	struct madcm_ah *ah;
	int ret;

	ah = madcm_port_ah_create(port, &cw->dest.attr, GFP_KERNEL);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
	} else {
		local_bh_disable();
		ret = madcm_rmpp_ctl_post(port, cw->ms, ah, &cw->dest,
					  cw->hdr_len, cw->size);
		local_bh_enable();
		if (ret)
			madcm_port_ah_destroy(ah);
	}
	if (ret) {
		/* Lost, as it could be on the wire. */
		madcm_port_count(port, MADCM_CNT_TX_REPLY_FAIL);
		atomic_dec(&port->live_replies);
		kfree(cw->ms);
	}
	kfree(cw);
	atomic_dec(&port->ctl_waiting);
	madcm_port_put(port);
}

/*
 * madcm_rmpp_ctl_send() - send an ACK, STOP or ABORT
 * @port: the port it leaves from
 * @dest: where it goes
 * @tmpl: a MAD of the transfer: its MAD and class headers are copied
 * @tmpl_len: how many bytes of @tmpl are headers that may be read: a whole
 *	MAD for a received one, the send buffer's hdr_len for a send
 * @flip: flip the response bit of the method (a receiver answering the
 *	sender of the DATA does; a sender talking to the receiver does not)
 * @type: IB_MGMT_RMPP_TYPE_ACK, _STOP or _ABORT
 * @status: the RMPP status
 * @seg_num: the SegmentNumber field
 * @paylen_newwin: the PayloadLength/NewWindowLast field
 *
 * Return: 0, or a negative errno when it could not be sent (0 too when
 * it was handed to madcm_mad_ah_wq to be sent from there; -ENOBUFS when
 * too many wait there already).
 */
int madcm_rmpp_ctl_send(struct madcm_port *port,
			const struct madcm_rmpp_dest *dest,
			const void *tmpl, size_t tmpl_len, bool flip, u8 type,
			u8 status, u32 seg_num, u32 paylen_newwin)
{
	const struct ib_mad_hdr *thdr = tmpl;
	size_t size = madcm_port_mad_size(port, thdr->base_version);
	int hdr_len = madcm_get_mad_data_offset(thdr->mgmt_class);
	struct madcm_rmpp_ctl_work *cw;
	struct ib_rmpp_hdr *rh;
	struct madcm_send *ms;
	struct madcm_ah *ah;

	if (hdr_len < IB_MGMT_RMPP_HDR)
		hdr_len = IB_MGMT_RMPP_HDR;
	if (WARN_ON_ONCE(tmpl_len < IB_MGMT_RMPP_HDR))
		return -EINVAL;
	ms = madcm_fault(MADCM_FAULT_RMPP_CTL) ? NULL :
		kzalloc(sizeof(*ms) + size, GFP_ATOMIC);
	if (!ms) {
		/* Lost, as it could be on the wire; the timers recover. */
		madcm_port_count(port, MADCM_CNT_RMPP_CTL_DROP);
		return -ENOMEM;
	}
	/*
	 * The MAD and RMPP headers, and as much of the class header as the
	 * template holds; the rest of the MAD stays zero (reserved). A send
	 * buffer's headers may be shorter than the class's: what lies behind
	 * them is madcm's bookkeeping, never to be read, let alone sent.
	 */
	memcpy(ms->buf, tmpl, min_t(size_t, hdr_len, tmpl_len));
	if (flip)
		((struct ib_mad_hdr *)ms->buf)->method ^= IB_MGMT_METHOD_RESP;
	rh = madcm_rmpp_hdr(ms->buf);
	rh->rmpp_version = IB_MGMT_RMPP_VERSION;
	rh->rmpp_type = type;
	rh->rmpp_rtime_flags = IB_MGMT_RMPP_FLAG_ACTIVE;
	ib_set_rmpp_resptime(rh, IB_MGMT_RMPP_NO_RESPTIME);
	rh->rmpp_status = status;
	rh->seg_num = cpu_to_be32(seg_num);
	rh->paylen_newwin = cpu_to_be32(paylen_newwin);

	ah = madcm_port_ah_create(port, &dest->attr, GFP_ATOMIC);
	if (PTR_ERR_OR_ZERO(ah) == -EAGAIN) {
		if (atomic_inc_return(&port->ctl_waiting) >
		    MADCM_RMPP_CTL_QUEUE_MAX) {
			atomic_dec(&port->ctl_waiting);
			madcm_port_count(port, MADCM_CNT_RMPP_CTL_DROP);
			kfree(ms);
			return -ENOBUFS;
		}
		cw = madcm_fault(MADCM_FAULT_RMPP_CTL) ? NULL :
			kzalloc(sizeof(*cw), GFP_ATOMIC);
		if (!cw) {
			atomic_dec(&port->ctl_waiting);
			madcm_port_count(port, MADCM_CNT_RMPP_CTL_DROP);
			kfree(ms);
			return -ENOMEM;
		}
		INIT_WORK(&cw->work, madcm_rmpp_ctl_work_fn);
		cw->port = port;
		cw->ms = ms;
		cw->dest = *dest;
		cw->hdr_len = hdr_len;
		cw->size = size;
		madcm_port_get(port);
		atomic_inc(&port->live_replies);
		queue_work(madcm_mad_ah_wq, &cw->work);
		madcm_port_count(port, madcm_rmpp_ctl_counter(type));
		return 0;
	}
	if (IS_ERR(ah)) {
		kfree(ms);
		return PTR_ERR(ah);
	}
	atomic_inc(&port->live_replies);
	if (madcm_rmpp_ctl_post(port, ms, ah, dest, hdr_len, size)) {
		atomic_dec(&port->live_replies);
		madcm_port_ah_destroy(ah);
		kfree(ms);
		return -EIO;
	}
	madcm_port_count(port, madcm_rmpp_ctl_counter(type));
	return 0;
}

/*
 * madcm_rmpp_nack() - refuse an RMPP MAD: an ABORT or STOP to its sender
 * @port: the port @rv came in on
 * @rv: the MAD refused
 * @type: IB_MGMT_RMPP_TYPE_ABORT or _STOP
 * @status: why
 */
void madcm_rmpp_nack(struct madcm_port *port, const struct madcm_recv *rv,
		     u8 type, u8 status)
{
	struct madcm_rmpp_dest dest;

	madcm_rmpp_dest_from_recv(rv, &dest);
	madcm_port_count(port, type == IB_MGMT_RMPP_TYPE_STOP ?
			 MADCM_CNT_RMPP_RX_LIMIT : MADCM_CNT_RMPP_RX_BAD);
	madcm_rmpp_ctl_send(port, &dest, rv->mad, rv->recv_wc.mad_seg_size,
			    true, type, status, 0, 0);
}
