// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ib_core transport. madcm registers as an ib_client; for every port
 * of a device that carries MADs (InfiniBand, RoCE, OPA) it opens a madcm
 * port on a UD QP of its own (QP0 and QP1 stay with ib_core's MAD layer).
 * The QP's Q_Key is the GSI's (0x80010000), and every MAD leaves with it,
 * so ib_core's QP1 answers madcm's QP as it answers any QP1, and madcm
 * ports on different hosts reach each other by QP number.
 *
 * P_Keys: a UD QP other than QP1 sends with the P_Key of the index it
 * was set up with and takes only packets of that P_Key, so the port has
 * one QP per P_Key index in use: the one on index 0, made with the port,
 * and, at the first send with another index, one on that index, made by a
 * work while the MAD waits (at most MADCM_IB_PKEY_QPS_MAX more, each with
 * a receive ring of MADCM_IB_PKEY_RQ). A MAD received on a QP is reported
 * with that QP's index, so that answers leave on the partition the
 * request came from, as ib_core's GSI does. Indices beyond the device's
 * P_Key table are refused when the send buffer is made.
 *
 * Sends: a ring of send slots, each with one MAD-sized buffer mapped once;
 * a MAD is copied into a free slot and posted on the QP of its index. When every slot is busy the
 * MAD waits, copied, in an overflow list and goes out from the completion
 * that frees a slot. Every post taken is completed to the core exactly
 * once, with the device's status.
 *
 * Receives: a ring of buffers of the 40-byte GRH area plus one MAD, polled
 * from an unbound workqueue, handed to madcm_port_deliver() and posted
 * again. RoCE v2 over IPv4 puts an IPv4 header, not a GRH, in the last 20
 * bytes of the GRH area (wc->network_hdr_type says which); it is turned
 * into a GRH with IPv4-mapped GIDs, so that the core, response matching
 * and replies see one address format. A header that is neither is dropped
 * and counted.
 *
 * Errors: a completion in error (anything but success on a live port)
 * means the QP has left RTS. Then nothing is posted any more, not even the
 * buffers that come back flushed: the port is "broken", and sends wait on
 * the overflow list (bounded, MADCM_IB_OVERFLOW_MAX; beyond it a post
 * fails with -ENOBUFS). A work item moves the QP to the error state, waits
 * until the device has given back every buffer and slot, resets the QP,
 * brings it back to RTS with the receive ring posted, and sends what
 * waited. The counters qp_error, qp_recovered and qp_recover_failed say
 * what happened.
 *
 * Address handles are in ib_ah.c.
 *
 * Removal (the device goes, or madcm is unloaded, or the port's QP does
 * not start, when MADs may have come in already): the port stops taking
 * sends, its QP goes to the error state and every send it held completes
 * with IB_WC_WR_FLUSH_ERR; every agent's other outstanding sends are
 * flushed through their send handlers; every ib_core object is released.
 * The madcm port lives on, dead, until its users have let go of it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/debugfs.h>
#include <linux/export.h>
#include <linux/ip.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <madcm/mad.h>

#include "fault.h"
#include "ib_port.h"
#include "mad_priv.h"

/*
 * The receive ring of each port's UD QP, in MADs; read when a port is
 * opened. Requests an agent may have waiting for responses: half of it,
 * so that the responses find room even while the port serves as many
 * requests (a client and a service on one port, as in a loopback).
 */
unsigned int madcm_ib_rq_size = MADCM_IB_RQ_DEFAULT;
module_param_named(ib_recv_queue_size, madcm_ib_rq_size, uint, 0644);
MODULE_PARM_DESC(ib_recv_queue_size,
		 "receive ring of a port's UD QP in MADs, 256 to 262144 and what the device takes, for ports opened afterwards; half of it bounds the requests an agent has waiting for a response (default 2048)");
#define MADCM_IB_GRH_AREA	sizeof(struct ib_grh)
/* The largest UD payload: one packet of the largest MTU. */
#define MADCM_IB_SINK_LEN	4096
/* How long removal waits for the device to give back flushed sends. */
#define MADCM_IB_DRAIN_MS	5000

static const char *const madcm_ib_counter_names[MADCM_IB_CNT_MAX] = {
	[MADCM_IB_RX_BAD_NETHDR] = "rx_drop_bad_network_header",
	[MADCM_IB_RX_ERROR] = "rx_error_completion",
	[MADCM_IB_RX_REPOST_FAIL] = "rx_repost_failed",
	[MADCM_IB_TX_OVERFLOW] = "tx_overflow_queued",
	[MADCM_IB_TX_POST_FAIL] = "tx_post_failed",
	[MADCM_IB_TX_OVERFLOW_DROP] = "tx_overflow_full",
	[MADCM_IB_RX_FLUSHED] = "rx_flushed",
	[MADCM_IB_QP_ERROR] = "qp_error",
	[MADCM_IB_QP_RECOVERED] = "qp_recovered",
	[MADCM_IB_QP_RECOVER_FAIL] = "qp_recover_failed",
	[MADCM_IB_PKEY_QP_CREATED] = "pkey_qp_created",
	[MADCM_IB_PKEY_QP_FAIL] = "pkey_qp_failed",
	[MADCM_IB_TX_PKEY_NO_QP] = "tx_pkey_no_qp",
	[MADCM_IB_TX_PORT_FAILED] = "tx_refused_port_failed",
};

/* The client data of a device: its ports by port number. */
struct madcm_ib_dev {
	u32 end_port;
	struct madcm_ib_port *ports[];
};

static struct ib_client madcm_ib_client;

static void madcm_ib_count(struct madcm_ib_port *ip, enum madcm_ib_counter c)
{
	atomic_long_inc(&ip->counters[c]);
}

/* Send slots and receive buffers: one kmalloc'ed buffer each, mapped once. */
static int madcm_ib_map(struct madcm_ib_port *ip, void **buf, u64 *dma,
			size_t len, enum dma_data_direction dir)
{
	*buf = kzalloc(len, GFP_KERNEL);
	if (!*buf)
		return -ENOMEM;
	*dma = ib_dma_map_single(ip->device, *buf, len, dir);
	if (ib_dma_mapping_error(ip->device, *dma)) {
		kfree(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void madcm_ib_unmap(struct madcm_ib_port *ip, void **buf, u64 dma,
			   size_t len, enum dma_data_direction dir)
{
	if (!*buf)
		return;
	ib_dma_unmap_single(ip->device, dma, len, dir);
	kfree(*buf);
	*buf = NULL;
}

static size_t madcm_ib_rx_len(const struct madcm_ib_port *ip)
{
	return MADCM_IB_GRH_AREA + ip->mad_size;
}

/*
 * A receive buffer takes the GRH area and one MAD; whatever a datagram has
 * beyond that lands in the port's sink, shared by every buffer and never
 * read. A datagram larger than the buffer would otherwise be an error of
 * the QP (rxe in 6.1 moves the QP to the error state for it): with the
 * sink it arrives, with its true length, and the core drops it as too
 * long.
 */
static int madcm_ib_post_recv(struct madcm_ib_rx *rx)
{
	struct madcm_ib_port *ip = rx->q->ip;
	struct ib_sge sge[2] = {
		{
			.addr = rx->dma,
			.length = madcm_ib_rx_len(ip),
			.lkey = ip->pd->local_dma_lkey,
		}, {
			.addr = ip->sink_dma,
			.length = MADCM_IB_SINK_LEN,
			.lkey = ip->pd->local_dma_lkey,
		},
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &rx->cqe,
		.sg_list = sge,
		.num_sge = ARRAY_SIZE(sge),
	};

	ib_dma_sync_single_for_device(ip->device, rx->dma, sge[0].length,
				      DMA_FROM_DEVICE);
	return ib_post_recv(rx->q->qp, &wr, NULL);
}

/*
 * The network header of a received MAD as a GRH: a GRH as it came, or an
 * IPv4 header (RoCE v2) turned into a GRH with IPv4-mapped GIDs. Returns
 * -EINVAL for a header that is neither.
 */
static int madcm_ib_read_nethdr(struct madcm_ib_port *ip,
				const struct ib_wc *wc, const void *area,
				struct ib_grh *grh)
{
	const union rdma_network_hdr *hdr = area;
	enum rdma_network_type type = RDMA_NETWORK_IB;
	const struct iphdr *iph;

	if (wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE)
		type = wc->network_hdr_type;
	else if (rdma_protocol_roce(ip->device, ip->port_num) &&
		 ib_get_rdma_header_version(hdr) == 4)
		type = RDMA_NETWORK_IPV4;

	if (type != RDMA_NETWORK_IPV4) {
		if (be32_to_cpu(hdr->ibgrh.version_tclass_flow) >> 28 != 6)
			return -EINVAL;
		*grh = hdr->ibgrh;
		return 0;
	}
	iph = &hdr->roce4grh;
	if (iph->version != 4 || iph->ihl != 5)
		return -EINVAL;
	memset(grh, 0, sizeof(*grh));
	grh->version_tclass_flow = cpu_to_be32(6 << 28 | iph->tos << 20);
	grh->next_hdr = IPPROTO_UDP;
	grh->hop_limit = iph->ttl;
	ipv6_addr_set_v4mapped(iph->saddr, (struct in6_addr *)grh->sgid.raw);
	ipv6_addr_set_v4mapped(iph->daddr, (struct in6_addr *)grh->dgid.raw);
	return 0;
}

/*
 * The QP left RTS: stop posting and have it recovered, once. The port's
 * lock is held.
 */
static void madcm_ib_set_broken(struct madcm_ib_port *ip)
{
	if (ip->dead || ip->broken)
		return;
	ip->broken = true;
	madcm_ib_count(ip, MADCM_IB_QP_ERROR);
	queue_work(system_unbound_wq, &ip->recover_work);
}

static void madcm_ib_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct madcm_ib_rx *rx = container_of(wc->wr_cqe, struct madcm_ib_rx,
					      cqe);
	struct madcm_ib_port *ip = rx->q->ip;
	struct madcm_port_rx mrx = {};
	struct ib_grh grh;

	if (wc->status != IB_WC_SUCCESS) {
		madcm_ib_count(ip, wc->status == IB_WC_WR_FLUSH_ERR ?
				   MADCM_IB_RX_FLUSHED : MADCM_IB_RX_ERROR);
		/*
		 * Reposting into a QP in error would only flush again. A QP
		 * not in use yet is being given up: the port is fine.
		 */
		spin_lock_bh(&ip->lock);
		if (rx->q->ready)
			madcm_ib_set_broken(ip);
		ip->rx_posted--;
		if (!--rx->q->rx_posted || !ip->rx_posted)
			wake_up(&ip->tx_idle);
		spin_unlock_bh(&ip->lock);
		return;
	}
	ib_dma_sync_single_for_cpu(ip->device, rx->dma, madcm_ib_rx_len(ip),
				   DMA_FROM_DEVICE);
	if (wc->wc_flags & IB_WC_GRH) {
		if (madcm_ib_read_nethdr(ip, wc, rx->buf, &grh)) {
			madcm_ib_count(ip, MADCM_IB_RX_BAD_NETHDR);
			goto repost;
		}
		mrx.grh = &grh;
	}
	/* The length as claimed: the core drops anything over one MAD. */
	if (wc->byte_len >= MADCM_IB_GRH_AREA) {
		mrx.mad = rx->buf + MADCM_IB_GRH_AREA;
		mrx.len = wc->byte_len - MADCM_IB_GRH_AREA;
	}
	mrx.qpn = 1;	/* the port's GSI */
	mrx.src_qp = wc->src_qp;
	mrx.slid = wc->slid;
	mrx.sl = wc->sl;
	/*
	 * The QP's own index: a UD QP other than QP1 takes only packets of
	 * its P_Key, and wc->pkey_index is defined for GSI QPs only.
	 */
	mrx.pkey_index = rx->q->pkey_index;
	mrx.dlid_path_bits = wc->dlid_path_bits;
	madcm_port_deliver(ip->port, &mrx);
repost:
	/* Under the lock: once removal has set dead, the QP may be gone. */
	spin_lock_bh(&ip->lock);
	ip->rx_posted--;
	rx->q->rx_posted--;
	if (!ip->dead && !ip->broken) {
		if (!madcm_ib_post_recv(rx)) {
			ip->rx_posted++;
			rx->q->rx_posted++;
		} else {
			madcm_ib_count(ip, MADCM_IB_RX_REPOST_FAIL);
			madcm_ib_set_broken(ip);
		}
	}
	if (!ip->rx_posted || !rx->q->rx_posted)
		wake_up(&ip->tx_idle);
	spin_unlock_bh(&ip->lock);
}

/* IB_QP_SET_QKEY asks for the Q_Key of our QP: the GSI's. */
static u32 madcm_ib_qkey(u32 qkey)
{
	return qkey == IB_QP_SET_QKEY ? IB_QP1_QKEY : qkey;
}

/* Post the MAD in @tx's buffer on @q; the port's lock is held. */
static int madcm_ib_post_slot(struct madcm_ib_port *ip, struct madcm_ib_qp *q,
			      struct madcm_ib_tx *tx, struct madcm_ah *ah,
			      u32 remote_qpn, u32 remote_qkey, u16 pkey_index,
			      u32 len)
{
	struct madcm_ib_ah *iah = ah->priv;
	struct ib_sge sge = {
		.addr = tx->dma,
		.length = len,
		.lkey = ip->pd->local_dma_lkey,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = &tx->cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_qpn = remote_qpn,
		.remote_qkey = madcm_ib_qkey(remote_qkey),
		.pkey_index = pkey_index,
	};

	if (!iah || !iah->ah)
		return -ENODEV;
	wr.ah = iah->ah;
	ib_dma_sync_single_for_device(ip->device, tx->dma, len,
				      DMA_TO_DEVICE);
	return ib_post_send(q->qp, &wr.wr, NULL);
}

/* The QP of a P_Key index, or NULL; the port's lock is held. */
static struct madcm_ib_qp *madcm_ib_qp_find(struct madcm_ib_port *ip,
					    u16 pkey_index)
{
	unsigned int i;

	for (i = 0; i < ip->nr_qps; i++)
		if (ip->qps[i]->pkey_index == pkey_index)
			return ip->qps[i];
	return NULL;
}

/*
 * The QP of a P_Key index; when the port has none yet, one to be made by
 * pkey_work, which sends what waits for it. The port's lock is held.
 */
static struct madcm_ib_qp *madcm_ib_qp_get(struct madcm_ib_port *ip,
					   u16 pkey_index)
{
	struct madcm_ib_qp *q = madcm_ib_qp_find(ip, pkey_index);

	if (q)
		return q->failed ? ERR_PTR(-EIO) : q;
	if (pkey_index >= ip->nr_pkeys)
		return ERR_PTR(-EINVAL);
	if (ip->nr_qps >= ip->max_qps)
		return ERR_PTR(-ENOSPC);
	q = kzalloc(sizeof(*q), GFP_ATOMIC);
	if (!q)
		return ERR_PTR(-ENOMEM);
	q->ip = ip;
	q->pkey_index = pkey_index;
	ip->qps[ip->nr_qps++] = q;
	queue_work(system_unbound_wq, &ip->pkey_work);
	return q;
}

static int madcm_ib_post_send(struct madcm_port *port,
			      const struct madcm_port_send *ps)
{
	struct madcm_ib_port *ip = port->priv;
	size_t len = ps->hdr_len + ps->payload_len;
	struct madcm_ib_pending *p;
	struct madcm_ib_tx *tx;
	struct madcm_ib_qp *q;
	unsigned long flags;
	int ret = 0;

	if (len > ip->mad_size)
		return -EINVAL;
	/* The core may post with IRQs off (madcm_post_send_mad()). */
	spin_lock_irqsave(&ip->lock, flags);
	if (ip->dead) {
		ret = -ENODEV;
		goto out;
	}
	if (ip->failed) {
		madcm_ib_count(ip, MADCM_IB_TX_PORT_FAILED);
		ret = -EIO;
		goto out;
	}
	q = madcm_ib_qp_get(ip, ps->pkey_index);
	if (IS_ERR(q)) {
		madcm_ib_count(ip, MADCM_IB_TX_PKEY_NO_QP);
		ret = PTR_ERR(q);
		goto out;
	}
	if (ip->broken || !q->ready || list_empty(&ip->tx_free)) {
		if (ip->n_overflow >= ip->overflow_max) {
			madcm_ib_count(ip, MADCM_IB_TX_OVERFLOW_DROP);
			ret = -ENOBUFS;
			goto out;
		}
		p = madcm_fault(MADCM_FAULT_IB_OVERFLOW) ? NULL :
			kmalloc(struct_size(p, mad, len), GFP_ATOMIC);
		if (!p) {
			ret = -ENOMEM;
			goto out;
		}
		p->send = ps->send;
		p->ah = ps->ah;
		p->remote_qpn = ps->remote_qpn;
		p->remote_qkey = ps->remote_qkey;
		p->pkey_index = ps->pkey_index;
		p->len = len;
		memcpy(p->mad, ps->hdr, ps->hdr_len);
		memcpy(p->mad + ps->hdr_len, ps->payload, ps->payload_len);
		list_add_tail(&p->node, &ip->overflow);
		ip->n_overflow++;
		madcm_ib_count(ip, MADCM_IB_TX_OVERFLOW);
		goto out;
	}
	tx = list_first_entry(&ip->tx_free, struct madcm_ib_tx, node);
	memcpy(tx->buf, ps->hdr, ps->hdr_len);
	memcpy(tx->buf + ps->hdr_len, ps->payload, ps->payload_len);
	ret = madcm_ib_post_slot(ip, q, tx, ps->ah, ps->remote_qpn,
				 ps->remote_qkey, ps->pkey_index, len);
	if (ret) {
		madcm_ib_count(ip, MADCM_IB_TX_POST_FAIL);
		goto out;
	}
	list_del(&tx->node);
	tx->send = ps->send;
	ip->tx_busy++;
out:
	spin_unlock_irqrestore(&ip->lock, flags);
	return ret;
}

/*
 * Post waiting MADs into free slots, oldest first, while the QPs are in
 * RTS; a MAD whose QP is still being made waits on. MADs whose post fails
 * go to @failed. The port's lock is held.
 */
static void madcm_ib_kick(struct madcm_ib_port *ip, struct list_head *failed)
{
	struct madcm_ib_pending *p, *next;
	struct madcm_ib_tx *tx;
	struct madcm_ib_qp *q;

	list_for_each_entry_safe(p, next, &ip->overflow, node) {
		if (ip->dead || ip->broken || list_empty(&ip->tx_free))
			break;
		q = madcm_ib_qp_find(ip, p->pkey_index);
		if (q && !q->ready)
			continue;
		list_del(&p->node);
		ip->n_overflow--;
		if (!q) {	/* its QP could not be made */
			list_add_tail(&p->node, failed);
			continue;
		}
		tx = list_first_entry(&ip->tx_free, struct madcm_ib_tx, node);
		memcpy(tx->buf, p->mad, p->len);
		if (madcm_ib_post_slot(ip, q, tx, p->ah, p->remote_qpn,
				       p->remote_qkey, p->pkey_index, p->len)) {
			madcm_ib_count(ip, MADCM_IB_TX_POST_FAIL);
			list_add_tail(&p->node, failed);
			madcm_ib_set_broken(ip);
			continue;
		}
		list_del(&tx->node);
		tx->send = p->send;
		ip->tx_busy++;
		kfree(p);
	}
}

static void madcm_ib_complete_failed(struct madcm_ib_port *ip,
				     struct list_head *failed)
{
	struct madcm_ib_pending *p, *tmp;

	list_for_each_entry_safe(p, tmp, failed, node) {
		madcm_port_send_complete(ip->port, p->send, IB_WC_GENERAL_ERR);
		kfree(p);
	}
}

/*
 * A send completed: give its slot to the oldest waiting MAD (or back to
 * the free list), then report it and any waiting MAD that failed to post.
 */
static void madcm_ib_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct madcm_ib_tx *tx = container_of(wc->wr_cqe, struct madcm_ib_tx,
					      cqe);
	struct madcm_ib_port *ip = tx->ip;
	struct madcm_send *send;
	LIST_HEAD(failed);

	/*
	 * The poster names the slot's send only after ib_post_send()
	 * returns, under ip->lock; the completion can already be here on
	 * another CPU, so read it under the same lock.
	 */
	spin_lock_bh(&ip->lock);
	send = tx->send;
	tx->send = NULL;
	list_add(&tx->node, &ip->tx_free);
	ip->tx_busy--;
	if (wc->status != IB_WC_SUCCESS)
		madcm_ib_set_broken(ip);
	madcm_ib_kick(ip, &failed);
	if (!ip->tx_busy)
		wake_up(&ip->tx_idle);
	spin_unlock_bh(&ip->lock);

	/* None when a recovery that gave up has completed it already. */
	if (send)
		madcm_port_send_complete(ip->port, send, wc->status);
	madcm_ib_complete_failed(ip, &failed);
}

/* The last port reference may go from madcm_free_recv_mad(), any context. */
static void madcm_ib_release(struct madcm_port *port)
{
	madcm_kvfree_any(port->priv);
}

static const struct madcm_port_ops madcm_ib_ops = {
	.create_ah = madcm_ib_create_ah,
	.destroy_ah = madcm_ib_destroy_ah,
	.post_send = madcm_ib_post_send,
	.release = madcm_ib_release,
};

static int madcm_ib_show(struct seq_file *s, void *unused)
{
	struct madcm_ib_port *ip = s->private;
	unsigned int i;

	seq_printf(s, "device %s\nport %u\nqpn %u\nlid %u\npkeys %u\n",
		   dev_name(&ip->device->dev), ip->port_num,
		   ip->port->attr.qpn, ip->port->attr.lid, ip->nr_pkeys);
	seq_printf(s, "recv_queue_size %u\nmax_solicited %u\noverflow_max %u\n",
		   ip->rq_size, ip->port->attr.max_solicited,
		   ip->overflow_max);
	spin_lock_bh(&ip->lock);
	for (i = 0; i < ip->nr_qps; i++)
		if (ip->qps[i]->ready)
			seq_printf(s, "pkey_index %u qpn %u\n",
				   ip->qps[i]->pkey_index,
				   ip->qps[i]->qp->qp_num);
	spin_unlock_bh(&ip->lock);
	for (i = 0; i < MADCM_IB_CNT_MAX; i++)
		seq_printf(s, "%s %ld\n", madcm_ib_counter_names[i],
			   atomic_long_read(&ip->counters[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(madcm_ib);

/* Destroy a QP of the port and unmap its ring; either may be missing. */
static void madcm_ib_qp_free(struct madcm_ib_qp *q)
{
	struct madcm_ib_port *ip = q->ip;
	unsigned int i;

	if (q->qp)
		ib_destroy_qp(q->qp);
	q->qp = NULL;
	for (i = 0; q->rx && i < q->rq_size; i++)
		madcm_ib_unmap(ip, &q->rx[i].buf, q->rx[i].dma,
			       madcm_ib_rx_len(ip), DMA_FROM_DEVICE);
}

/* Free a QP made for a P_Key index other than 0. */
static void madcm_ib_qp_destroy(struct madcm_ib_qp *q)
{
	madcm_ib_qp_free(q);
	kfree(q->rx);
	kfree(q);
}

/* Release what the device gave us; any of it may be missing. */
static void madcm_ib_free_res(struct madcm_ib_port *ip)
{
	unsigned int i;

	for (i = 1; i < ip->nr_qps; i++)
		madcm_ib_qp_destroy(ip->qps[i]);
	ip->nr_qps = 1;
	madcm_ib_qp_free(&ip->main);
	ip->qp = NULL;
	if (!IS_ERR_OR_NULL(ip->cq))
		ib_free_cq(ip->cq);
	ip->cq = NULL;
	for (i = 0; i < MADCM_IB_SQ_SIZE; i++)
		madcm_ib_unmap(ip, &ip->tx[i].buf, ip->tx[i].dma,
			       ip->mad_size, DMA_TO_DEVICE);
	madcm_ib_unmap(ip, &ip->sink, ip->sink_dma, MADCM_IB_SINK_LEN,
		       DMA_FROM_DEVICE);
	if (!IS_ERR_OR_NULL(ip->pd))
		ib_dealloc_pd(ip->pd);
	ip->pd = NULL;
}

/*
 * Make @q's UD QP, with room for every send slot, and map its receive
 * ring (@q->rx, @q->rq_size buffers).
 */
static int madcm_ib_qp_alloc(struct madcm_ib_qp *q)
{
	struct madcm_ib_port *ip = q->ip;
	struct ib_qp_init_attr init = {
		.send_cq = ip->cq,
		.recv_cq = ip->cq,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_UD,
		.cap = {
			.max_send_wr = MADCM_IB_SQ_SIZE,
			.max_recv_wr = q->rq_size,
			.max_send_sge = 1,
			.max_recv_sge = 2,
		},
		.port_num = ip->port_num,
	};
	struct ib_qp *qp;
	unsigned int i;
	int ret;

	qp = ib_create_qp(ip->pd, &init);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	q->qp = qp;
	for (i = 0; i < q->rq_size; i++) {
		q->rx[i].q = q;
		q->rx[i].cqe.done = madcm_ib_recv_done;
		ret = madcm_ib_map(ip, &q->rx[i].buf, &q->rx[i].dma,
				   madcm_ib_rx_len(ip), DMA_FROM_DEVICE);
		if (ret)
			return ret;
	}
	return 0;
}

static int madcm_ib_alloc_res(struct madcm_ib_port *ip)
{
	int i, ret;

	ip->pd = ib_alloc_pd(ip->device, 0);
	if (IS_ERR(ip->pd))
		return PTR_ERR(ip->pd);
	/*
	 * One CQ for every queue: one work item drains sends and receives
	 * together, as they come, with fewer wakeups. Sends share the
	 * slots, wherever they are posted; each QP has its receive ring.
	 */
	ip->cq = ib_alloc_cq(ip->device, ip,
			     MADCM_IB_SQ_SIZE + ip->rq_size +
			     (ip->max_qps - 1) * MADCM_IB_PKEY_RQ, 0,
			     IB_POLL_UNBOUND_WORKQUEUE);
	if (IS_ERR(ip->cq))
		return PTR_ERR(ip->cq);
	ret = madcm_ib_qp_alloc(&ip->main);
	if (ret)
		return ret;
	ip->qp = ip->main.qp;
	for (i = 0; i < MADCM_IB_SQ_SIZE; i++) {
		ip->tx[i].ip = ip;
		ip->tx[i].cqe.done = madcm_ib_send_done;
		ret = madcm_ib_map(ip, &ip->tx[i].buf, &ip->tx[i].dma,
				   ip->mad_size, DMA_TO_DEVICE);
		if (ret)
			return ret;
		list_add_tail(&ip->tx[i].node, &ip->tx_free);
	}
	return madcm_ib_map(ip, &ip->sink, &ip->sink_dma, MADCM_IB_SINK_LEN,
			    DMA_FROM_DEVICE);
}

/*
 * From RESET: INIT on @q's P_Key index with the GSI's Q_Key, the receive
 * ring posted, then RTR and RTS.
 */
static int madcm_ib_qp_start(struct madcm_ib_qp *q)
{
	struct madcm_ib_port *ip = q->ip;
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = q->pkey_index,
		.port_num = ip->port_num,
		.qkey = IB_QP1_QKEY,
	};
	int i, ret;

	ret = ib_modify_qp(q->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_QKEY);
	if (ret)
		return ret;
	for (i = 0; i < q->rq_size; i++) {
		spin_lock_bh(&ip->lock);
		ret = madcm_ib_post_recv(&q->rx[i]);
		if (!ret) {
			ip->rx_posted++;
			q->rx_posted++;
		}
		spin_unlock_bh(&ip->lock);
		if (ret)
			return ret;
	}
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(q->qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(q->qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

/* The device holds no buffer and no slot of the port. */
static bool madcm_ib_drained(struct madcm_ib_port *ip)
{
	bool drained;

	spin_lock_bh(&ip->lock);
	drained = !ip->tx_busy && !ip->rx_posted;
	spin_unlock_bh(&ip->lock);
	return drained;
}

/*
 * The port's QPs as they are now. madcm_ib_qp_get() appends under the
 * port's lock from any post, so the table is read under it too; an entry
 * is removed or freed only with qp_mutex held, which the caller holds,
 * so the pointers stay good after the lock is dropped.
 */
static unsigned int madcm_ib_qps_snapshot(struct madcm_ib_port *ip,
					  struct madcm_ib_qp **qs)
{
	unsigned int n;

	lockdep_assert_held(&ip->qp_mutex);
	spin_lock_bh(&ip->lock);
	n = ip->nr_qps;
	memcpy(qs, ip->qps, n * sizeof(*qs));
	spin_unlock_bh(&ip->lock);
	return n;
}

/*
 * Move every QP of the port to @state; the first error is returned.
 * qp_mutex is held.
 */
static int madcm_ib_qps_modify(struct madcm_ib_port *ip,
			       enum ib_qp_state state)
{
	struct madcm_ib_qp *qs[ARRAY_SIZE(ip->qps)];
	struct ib_qp_attr attr = { .qp_state = state };
	unsigned int i, n;
	int ret = 0;

	n = madcm_ib_qps_snapshot(ip, qs);
	for (i = 0; i < n; i++)
		if (qs[i]->qp)
			ret = ib_modify_qp(qs[i]->qp, &attr, IB_QP_STATE) ?: ret;
	return ret;
}

/*
 * The recovery gave up: fail what waited for it and what the device
 * still holds (its slot keeps its own copy of the MAD, so the send may
 * end now; the device's late completion finds the slot empty), and
 * refuse new posts, so that no cancel and no unregistration waits for a
 * completion that may never come. qp_mutex is held.
 */
static void madcm_ib_fail(struct madcm_ib_port *ip)
{
	struct madcm_send *send;
	LIST_HEAD(failed);
	int i;

	spin_lock_bh(&ip->lock);
	ip->failed = true;
	list_splice_init(&ip->overflow, &failed);
	ip->n_overflow = 0;
	spin_unlock_bh(&ip->lock);
	madcm_ib_complete_failed(ip, &failed);
	for (i = 0; i < MADCM_IB_SQ_SIZE; i++) {
		spin_lock_bh(&ip->lock);
		send = ip->tx[i].send;
		ip->tx[i].send = NULL;
		spin_unlock_bh(&ip->lock);
		if (send)
			madcm_port_send_complete(ip->port, send,
						 IB_WC_GENERAL_ERR);
	}
}

/*
 * A QP left RTS (madcm_ib_set_broken()). Move every QP to the error state
 * so that the device gives everything back, reset them, and start them
 * again. When the device does not give back, or a QP cannot be
 * restarted, the port has failed (madcm_ib_fail()) until the device is
 * removed.
 */
static void madcm_ib_recover(struct work_struct *work)
{
	struct madcm_ib_port *ip = container_of(work, struct madcm_ib_port,
						recover_work);
	struct madcm_ib_qp *qs[ARRAY_SIZE(ip->qps)];
	LIST_HEAD(failed);
	unsigned int i, n;
	bool dead;
	int ret;

	mutex_lock(&ip->qp_mutex);
	ret = madcm_ib_qps_modify(ip, IB_QPS_ERR);
	if (!ret && !wait_event_timeout(ip->tx_idle, madcm_ib_drained(ip),
					msecs_to_jiffies(MADCM_IB_DRAIN_MS)))
		ret = -ETIMEDOUT;
	spin_lock_bh(&ip->lock);
	dead = ip->dead;
	spin_unlock_bh(&ip->lock);
	if (dead)
		goto out;
	if (!ret)
		ret = madcm_ib_qps_modify(ip, IB_QPS_RESET);
	n = madcm_ib_qps_snapshot(ip, qs);
	for (i = 0; !ret && i < n; i++)
		if (qs[i]->qp && !qs[i]->failed)
			ret = madcm_ib_qp_start(qs[i]);
	if (ret) {
		madcm_ib_count(ip, MADCM_IB_QP_RECOVER_FAIL);
		pr_warn("madcm: %s: QPs not recovered from the error state: %d\n",
			ip->port->name, ret);
		madcm_ib_fail(ip);
		goto out;
	}
	madcm_ib_count(ip, MADCM_IB_QP_RECOVERED);
	spin_lock_bh(&ip->lock);
	ip->broken = false;
	madcm_ib_kick(ip, &failed);
	spin_unlock_bh(&ip->lock);
	madcm_ib_complete_failed(ip, &failed);
out:
	mutex_unlock(&ip->qp_mutex);
}

/* The next QP that sends wait for and that is not made yet, or NULL. */
static struct madcm_ib_qp *madcm_ib_qp_unmade(struct madcm_ib_port *ip)
{
	struct madcm_ib_qp *q = NULL;
	unsigned int i;

	spin_lock_bh(&ip->lock);
	for (i = 1; !ip->dead && i < ip->nr_qps; i++) {
		if (!ip->qps[i]->qp && !ip->qps[i]->failed) {
			q = ip->qps[i];
			break;
		}
	}
	spin_unlock_bh(&ip->lock);
	return q;
}

/* Make, and start, a QP that sends wait for; qp_mutex is held. */
static int madcm_ib_qp_make(struct madcm_ib_qp *q)
{
	int ret;

	q->rq_size = MADCM_IB_PKEY_RQ;
	q->rx = kcalloc(q->rq_size, sizeof(*q->rx), GFP_KERNEL);
	if (!q->rx)
		return -ENOMEM;
	ret = madcm_ib_qp_alloc(q);
	if (!ret)
		ret = madcm_ib_qp_start(q);
	return ret;
}

static bool madcm_ib_qp_drained(struct madcm_ib_qp *q)
{
	bool drained;

	spin_lock_bh(&q->ip->lock);
	drained = !q->rx_posted;
	spin_unlock_bh(&q->ip->lock);
	return drained;
}

/*
 * A QP that failed to be made (or to start) leaves the port, and the MADs
 * that waited for it fail. When the device keeps buffers of it, it stays,
 * failed, until the port goes. qp_mutex is held.
 */
static void madcm_ib_qp_drop(struct madcm_ib_qp *q, int err)
{
	struct madcm_ib_port *ip = q->ip;
	struct madcm_ib_pending *p, *next;
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	bool drained = true;
	LIST_HEAD(failed);
	unsigned int i;

	madcm_ib_count(ip, MADCM_IB_PKEY_QP_FAIL);
	pr_warn("madcm: %s: no QP for P_Key index %u: %d\n", ip->port->name,
		q->pkey_index, err);
	/* The device gives back what was posted on it; wait for that. */
	if (q->qp) {
		ib_modify_qp(q->qp, &attr, IB_QP_STATE);
		drained = wait_event_timeout(ip->tx_idle,
					     madcm_ib_qp_drained(q),
					     msecs_to_jiffies(MADCM_IB_DRAIN_MS));
	}
	spin_lock_bh(&ip->lock);
	if (drained) {
		for (i = 1; i < ip->nr_qps; i++)
			if (ip->qps[i] == q)
				break;
		ip->qps[i] = ip->qps[--ip->nr_qps];
	} else {
		q->failed = true;
	}
	list_for_each_entry_safe(p, next, &ip->overflow, node) {
		if (p->pkey_index != q->pkey_index)
			continue;
		list_move_tail(&p->node, &failed);
		ip->n_overflow--;
	}
	spin_unlock_bh(&ip->lock);
	if (drained)
		madcm_ib_qp_destroy(q);
	madcm_ib_complete_failed(ip, &failed);
}

/* Make the QPs that sends wait for, and send what waited. */
static void madcm_ib_pkey_work(struct work_struct *work)
{
	struct madcm_ib_port *ip = container_of(work, struct madcm_ib_port,
						pkey_work);
	struct madcm_ib_qp *q;
	LIST_HEAD(failed);
	int ret;

	mutex_lock(&ip->qp_mutex);
	while ((q = madcm_ib_qp_unmade(ip))) {
		ret = madcm_ib_qp_make(q);
		if (ret) {
			madcm_ib_qp_drop(q, ret);
			continue;
		}
		madcm_ib_count(ip, MADCM_IB_PKEY_QP_CREATED);
		spin_lock_bh(&ip->lock);
		q->ready = true;
		madcm_ib_kick(ip, &failed);
		spin_unlock_bh(&ip->lock);
		madcm_ib_complete_failed(ip, &failed);
		INIT_LIST_HEAD(&failed);
	}
	mutex_unlock(&ip->qp_mutex);
}

/* The QPs the port may have: bounded, and within the device's means. */
static unsigned int madcm_ib_max_qps(struct ib_device *device, u16 nr_pkeys,
				     unsigned int rq_size)
{
	unsigned int n = min_t(unsigned int, nr_pkeys - 1,
			       MADCM_IB_PKEY_QPS_MAX);
	int cqe = device->attrs.max_cqe;

	if (cqe > 0)
		n = min_t(unsigned int, n,
			  max(cqe - MADCM_IB_SQ_SIZE - (int)rq_size, 0) /
			  MADCM_IB_PKEY_RQ);
	if (device->attrs.max_qp_wr > 0 &&
	    device->attrs.max_qp_wr < MADCM_IB_PKEY_RQ)
		n = 0;
	return 1 + n;
}

static bool madcm_ib_tx_idle(struct madcm_ib_port *ip)
{
	bool idle;

	spin_lock_bh(&ip->lock);
	idle = !ip->tx_busy;
	spin_unlock_bh(&ip->lock);
	return idle;
}

static void madcm_ib_port_close(struct madcm_ib_port *ip)
{
	struct madcm_port *port = ip->port;
	struct madcm_ib_pending *p, *ptmp;
	LIST_HEAD(pending);
	int i;

	spin_lock_bh(&ip->lock);
	ip->dead = true;
	list_splice_init(&ip->overflow, &pending);
	ip->n_overflow = 0;
	spin_unlock_bh(&ip->lock);
	/* A recovery or a QP being made finishes before the QPs go. */
	cancel_work_sync(&ip->recover_work);
	cancel_work_sync(&ip->pkey_work);

	/* The device flushes what it holds; wait for those completions. */
	mutex_lock(&ip->qp_mutex);
	madcm_ib_qps_modify(ip, IB_QPS_ERR);
	mutex_unlock(&ip->qp_mutex);
	if (!wait_event_timeout(ip->tx_idle, madcm_ib_tx_idle(ip),
				msecs_to_jiffies(MADCM_IB_DRAIN_MS)))
		pr_info("%s: device did not flush its sends, completing them here\n",
			port->name);
	list_for_each_entry_safe(p, ptmp, &pending, node) {
		madcm_port_send_complete(port, p->send, IB_WC_WR_FLUSH_ERR);
		kfree(p);
	}
	madcm_port_flush_agents(port);

	for (i = 0; i < ip->nr_qps; i++) {
		if (ip->qps[i]->qp)
			ib_destroy_qp(ip->qps[i]->qp);
		ip->qps[i]->qp = NULL;
	}
	ip->qp = NULL;
	/* Nothing polls once the CQ is gone: the rings can go after it. */
	ib_free_cq(ip->cq);
	ip->cq = NULL;
	/* What the device kept is flushed here. */
	for (i = 0; i < MADCM_IB_SQ_SIZE; i++) {
		if (ip->tx[i].send) {
			madcm_port_send_complete(port, ip->tx[i].send,
						 IB_WC_WR_FLUSH_ERR);
			ip->tx[i].send = NULL;
		}
	}

	madcm_ib_ahs_release(ip);

	madcm_ib_free_res(ip);
	madcm_port_remove(port);	/* may free ip */
}

static struct madcm_ib_port *madcm_ib_port_open(struct ib_device *device,
						u32 port_num)
{
	struct madcm_port_attr pattr = {};
	struct ib_port_attr port_attr;
	struct madcm_ib_port *ip;
	struct madcm_port *port;
	unsigned int rq_size;
	LIST_HEAD(failed);
	char name[32];
	int ret;

	rq_size = clamp(READ_ONCE(madcm_ib_rq_size), MADCM_IB_RQ_MIN,
			MADCM_IB_RQ_MAX);
	/* Within what the device takes, too. */
	if (device->attrs.max_qp_wr > 0)
		rq_size = min_t(u32, rq_size, device->attrs.max_qp_wr);
	if (device->attrs.max_cqe > MADCM_IB_SQ_SIZE)
		rq_size = min_t(u32, rq_size,
				device->attrs.max_cqe - MADCM_IB_SQ_SIZE);
	/* The fault stands for kvzalloc() finding no contiguous memory. */
	if (madcm_fault(MADCM_FAULT_IB_PORT_CONTIG))
		ip = vzalloc(struct_size(ip, rx, rq_size));
	else
		ip = kvzalloc(struct_size(ip, rx, rq_size), GFP_KERNEL);
	if (!ip)
		return ERR_PTR(-ENOMEM);
	ip->rq_size = rq_size;
	ip->overflow_max = max_t(unsigned int, MADCM_IB_OVERFLOW_MAX, rq_size);
	ip->device = device;
	ip->port_num = port_num;
	ip->mad_size = rdma_max_mad_size(device, port_num);
	ip->nr_pkeys = clamp_t(unsigned int,
			       device->port_data[port_num].immutable.pkey_tbl_len,
			       1, U16_MAX);
	ip->max_qps = madcm_ib_max_qps(device, ip->nr_pkeys, rq_size);
	ip->main.ip = ip;
	ip->main.rq_size = rq_size;
	ip->main.rx = ip->rx;
	ip->qps[0] = &ip->main;
	ip->nr_qps = 1;
	mutex_init(&ip->qp_mutex);
	INIT_WORK(&ip->pkey_work, madcm_ib_pkey_work);
	spin_lock_init(&ip->lock);
	INIT_LIST_HEAD(&ip->tx_free);
	INIT_LIST_HEAD(&ip->overflow);
	init_waitqueue_head(&ip->tx_idle);
	INIT_WORK(&ip->recover_work, madcm_ib_recover);
	mutex_init(&ip->ah_mutex);
	INIT_LIST_HEAD(&ip->ahs);

	ret = madcm_ib_alloc_res(ip);
	if (ret)
		goto err_res;
	snprintf(name, sizeof(name), "%s-%u", dev_name(&device->dev),
		 port_num);
	pattr.name = name;
	if (!rdma_protocol_roce(device, port_num) &&
	    !ib_query_port(device, port_num, &port_attr))
		pattr.lid = port_attr.lid;
	pattr.opa = rdma_cap_opa_mad(device, port_num);
	pattr.qpn = ip->qp->qp_num;
	pattr.max_solicited = ip->rq_size / 2;
	/*
	 * Every index of the P_Key table: a send on one other than 0 goes
	 * out on a QP of that index (madcm_ib_qp_get()).
	 */
	pattr.nr_pkeys = ip->max_qps > 1 ? ip->nr_pkeys : 1;
	port = madcm_port_register(&madcm_ib_ops, &pattr, ip);
	if (IS_ERR(port)) {
		ret = PTR_ERR(port);
		goto err_res;
	}
	ip->port = port;
	ret = madcm_ib_qp_start(&ip->main);
	if (ret) {
		/*
		 * The port has taken MADs since its receive ring was posted,
		 * and the core's replies to them wait for the QP: close it
		 * as a removal does, so that they complete and go.
		 */
		madcm_ib_port_close(ip);	/* may free ip */
		return ERR_PTR(ret);
	}
	/* A reply to what arrived while the QP started may be waiting. */
	spin_lock_bh(&ip->lock);
	ip->main.ready = true;
	madcm_ib_kick(ip, &failed);
	spin_unlock_bh(&ip->lock);
	madcm_ib_complete_failed(ip, &failed);
	if (port->debugfs)
		debugfs_create_file("ib", 0400, port->debugfs, ip,
				    &madcm_ib_fops);
	return ip;

err_res:
	madcm_ib_free_res(ip);
	kvfree(ip);
	return ERR_PTR(ret);
}

static int madcm_ib_add_one(struct ib_device *device)
{
	struct madcm_ib_port *ip;
	struct madcm_ib_dev *idev;
	unsigned int opened = 0;
	u32 p;

	idev = kzalloc(struct_size(idev, ports, rdma_end_port(device) + 1),
		       GFP_KERNEL);
	if (!idev)
		return -ENOMEM;
	idev->end_port = rdma_end_port(device);
	rdma_for_each_port(device, p) {
		if (!rdma_cap_ib_mad(device, p))
			continue;
		ip = madcm_ib_port_open(device, p);
		if (IS_ERR(ip)) {
			dev_info(&device->dev, "madcm: port %u: no MAD port: %pe\n",
				 p, ip);
			continue;
		}
		idev->ports[p] = ip;
		opened++;
	}
	if (!opened) {
		kfree(idev);
		return -EOPNOTSUPP;
	}
	ib_set_client_data(device, &madcm_ib_client, idev);
	return 0;
}

static void madcm_ib_remove_one(struct ib_device *device, void *data)
{
	struct madcm_ib_dev *idev = data;
	u32 p;

	for (p = 0; p <= idev->end_port; p++)
		if (idev->ports[p])
			madcm_ib_port_close(idev->ports[p]);
	kfree(idev);
}

static struct ib_client madcm_ib_client = {
	.name = "madcm",
	.add = madcm_ib_add_one,
	.remove = madcm_ib_remove_one,
};

/**
 * madcm_ib_get_port() - the madcm port of a port of an ib_core device
 * @device: the device
 * @port_num: the port number on @device
 *
 * madcm opens a port, with a UD QP of its own, on every port of every
 * ib_core device that carries MADs. Agents live on it as on any other
 * madcm port; madcm_port_qpn() gives the QP number peers send to (the
 * port's Q_Key is the GSI's, 0x80010000). Address handles for it take a
 * LID on InfiniBand, and a GID (IPv6 or IPv4-mapped) with IB_AH_GRH on
 * RoCE; the local GID is chosen to match the destination's.
 *
 * The port is valid until @device is removed from madcm: a ULP that is
 * an ib_client registered after madcm looks it up in its add callback and
 * stops using it in its remove callback, which runs first. When the
 * device goes, every send still outstanding on the port comes back
 * through its send handler with IB_WC_WR_FLUSH_ERR, later posts fail with
 * -ENODEV, and the agents still registered stay valid until their owners
 * unregister them.
 *
 * Context: Process context.
 * Return: the port, or NULL when madcm has no port there.
 */
struct madcm_port *madcm_ib_get_port(struct ib_device *device, u32 port_num)
{
	struct madcm_ib_dev *idev;

	if (!device)
		return NULL;
	idev = ib_get_client_data(device, &madcm_ib_client);
	if (!idev || port_num > idev->end_port || !idev->ports[port_num])
		return NULL;
	return idev->ports[port_num]->port;
}
EXPORT_SYMBOL_GPL(madcm_ib_get_port);

int madcm_ib_init(void)
{
	return ib_register_client(&madcm_ib_client);
}

void madcm_ib_exit(void)
{
	ib_unregister_client(&madcm_ib_client);
}
