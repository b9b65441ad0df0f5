// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ib_core transport. madcm registers as an ib_client; for every port
 * of a device that carries MADs (InfiniBand, RoCE, OPA) it opens a madcm
 * port on a UD QP of its own (QP0 and QP1 stay with ib_core's MAD layer).
 * The QP's Q_Key is the GSI's (0x80010000), and every MAD leaves with it,
 * so ib_core's QP1 answers madcm's QP as it answers any QP1, and madcm
 * ports on different hosts reach each other by QP number.
 *
 * Sends: a ring of send slots, each with one MAD-sized buffer mapped once;
 * a MAD is copied into a free slot and posted. When every slot is busy the
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
 * Removal (the device goes, or madcm is unloaded): the port stops taking
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
#include <linux/wait.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <madcm/mad.h>

#include "ib_port.h"
#include "mad_priv.h"

/*
 * The receive ring of each port's UD QP, in MADs; read when a port is
 * opened. Requests an agent may have waiting for responses: half of it,
 * so that the responses find room even while the port serves as many
 * requests (a client and a service on one port, as in a loopback).
 */
static unsigned int madcm_ib_rq_size = MADCM_IB_RQ_DEFAULT;
module_param_named(ib_recv_queue_size, madcm_ib_rq_size, uint, 0644);
MODULE_PARM_DESC(ib_recv_queue_size,
		 "receive ring of a port's UD QP in MADs, 256 to 16384, for ports opened afterwards; half of it bounds the requests an agent has waiting for a response (default 2048)");
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
	struct madcm_ib_port *ip = rx->ip;
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
	return ib_post_recv(ip->qp, &wr, NULL);
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
	struct madcm_ib_port *ip = rx->ip;
	struct madcm_port_rx mrx = {};
	struct ib_grh grh;

	if (wc->status != IB_WC_SUCCESS) {
		madcm_ib_count(ip, wc->status == IB_WC_WR_FLUSH_ERR ?
				   MADCM_IB_RX_FLUSHED : MADCM_IB_RX_ERROR);
		/* Reposting into a QP in error would only flush again. */
		spin_lock_bh(&ip->lock);
		madcm_ib_set_broken(ip);
		if (!--ip->rx_posted)
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
	mrx.pkey_index = wc->pkey_index;
	mrx.dlid_path_bits = wc->dlid_path_bits;
	madcm_port_deliver(ip->port, &mrx);
repost:
	/* Under the lock: once removal has set dead, the QP may be gone. */
	spin_lock_bh(&ip->lock);
	ip->rx_posted--;
	if (!ip->dead && !ip->broken) {
		if (!madcm_ib_post_recv(rx)) {
			ip->rx_posted++;
		} else {
			madcm_ib_count(ip, MADCM_IB_RX_REPOST_FAIL);
			madcm_ib_set_broken(ip);
		}
	}
	if (!ip->rx_posted)
		wake_up(&ip->tx_idle);
	spin_unlock_bh(&ip->lock);
}

/* IB_QP_SET_QKEY asks for the Q_Key of our QP: the GSI's. */
static u32 madcm_ib_qkey(u32 qkey)
{
	return qkey == IB_QP_SET_QKEY ? IB_QP1_QKEY : qkey;
}

/* Post the MAD in @tx's buffer; the port's lock is held. */
static int madcm_ib_post_slot(struct madcm_ib_port *ip,
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
	return ib_post_send(ip->qp, &wr.wr, NULL);
}

static int madcm_ib_post_send(struct madcm_port *port,
			      const struct madcm_port_send *ps)
{
	struct madcm_ib_port *ip = port->priv;
	size_t len = ps->hdr_len + ps->payload_len;
	struct madcm_ib_pending *p;
	struct madcm_ib_tx *tx;
	int ret = 0;

	if (len > ip->mad_size)
		return -EINVAL;
	spin_lock_bh(&ip->lock);
	if (ip->dead) {
		ret = -ENODEV;
		goto out;
	}
	if (ip->broken || list_empty(&ip->tx_free)) {
		if (ip->n_overflow >= MADCM_IB_OVERFLOW_MAX) {
			madcm_ib_count(ip, MADCM_IB_TX_OVERFLOW_DROP);
			ret = -ENOBUFS;
			goto out;
		}
		p = kmalloc(struct_size(p, mad, len), GFP_ATOMIC);
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
	ret = madcm_ib_post_slot(ip, tx, ps->ah, ps->remote_qpn,
				 ps->remote_qkey, ps->pkey_index, len);
	if (ret) {
		madcm_ib_count(ip, MADCM_IB_TX_POST_FAIL);
		goto out;
	}
	list_del(&tx->node);
	tx->send = ps->send;
	ip->tx_busy++;
out:
	spin_unlock_bh(&ip->lock);
	return ret;
}

/*
 * Post waiting MADs into free slots, oldest first, while the QP is in RTS.
 * MADs whose post fails go to @failed. The port's lock is held.
 */
static void madcm_ib_kick(struct madcm_ib_port *ip, struct list_head *failed)
{
	struct madcm_ib_pending *p;
	struct madcm_ib_tx *tx;

	while (!ip->dead && !ip->broken && !list_empty(&ip->overflow) &&
	       !list_empty(&ip->tx_free)) {
		p = list_first_entry(&ip->overflow, struct madcm_ib_pending,
				     node);
		tx = list_first_entry(&ip->tx_free, struct madcm_ib_tx, node);
		list_del(&p->node);
		ip->n_overflow--;
		memcpy(tx->buf, p->mad, p->len);
		if (madcm_ib_post_slot(ip, tx, p->ah, p->remote_qpn,
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
	int i;

	seq_printf(s, "device %s\nport %u\nqpn %u\nlid %u\n",
		   dev_name(&ip->device->dev), ip->port_num,
		   ip->port->attr.qpn, ip->port->attr.lid);
	for (i = 0; i < MADCM_IB_CNT_MAX; i++)
		seq_printf(s, "%s %ld\n", madcm_ib_counter_names[i],
			   atomic_long_read(&ip->counters[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(madcm_ib);

/* Release what the device gave us; any of it may be missing. */
static void madcm_ib_free_res(struct madcm_ib_port *ip)
{
	int i;

	if (ip->qp)
		ib_destroy_qp(ip->qp);
	ip->qp = NULL;
	if (!IS_ERR_OR_NULL(ip->cq))
		ib_free_cq(ip->cq);
	ip->cq = NULL;
	for (i = 0; i < MADCM_IB_SQ_SIZE; i++)
		madcm_ib_unmap(ip, &ip->tx[i].buf, ip->tx[i].dma,
			       ip->mad_size, DMA_TO_DEVICE);
	for (i = 0; i < ip->rq_size; i++)
		madcm_ib_unmap(ip, &ip->rx[i].buf, ip->rx[i].dma,
			       madcm_ib_rx_len(ip), DMA_FROM_DEVICE);
	madcm_ib_unmap(ip, &ip->sink, ip->sink_dma, MADCM_IB_SINK_LEN,
		       DMA_FROM_DEVICE);
	if (!IS_ERR_OR_NULL(ip->pd))
		ib_dealloc_pd(ip->pd);
	ip->pd = NULL;
}

static int madcm_ib_alloc_res(struct madcm_ib_port *ip)
{
	struct ib_qp_init_attr init = {
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_UD,
		.cap = {
			.max_send_wr = MADCM_IB_SQ_SIZE,
			.max_recv_wr = ip->rq_size,
			.max_send_sge = 1,
			.max_recv_sge = 2,
		},
		.port_num = ip->port_num,
	};
	struct ib_qp *qp;
	int i, ret;

	ip->pd = ib_alloc_pd(ip->device, 0);
	if (IS_ERR(ip->pd))
		return PTR_ERR(ip->pd);
	/*
	 * One CQ for both queues: one work item drains sends and receives
	 * together, as they come, with fewer wakeups than two.
	 */
	ip->cq = ib_alloc_cq(ip->device, ip,
			     MADCM_IB_SQ_SIZE + ip->rq_size, 0,
			     IB_POLL_UNBOUND_WORKQUEUE);
	if (IS_ERR(ip->cq))
		return PTR_ERR(ip->cq);
	init.send_cq = ip->cq;
	init.recv_cq = ip->cq;
	qp = ib_create_qp(ip->pd, &init);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	ip->qp = qp;
	for (i = 0; i < MADCM_IB_SQ_SIZE; i++) {
		ip->tx[i].ip = ip;
		ip->tx[i].cqe.done = madcm_ib_send_done;
		ret = madcm_ib_map(ip, &ip->tx[i].buf, &ip->tx[i].dma,
				   ip->mad_size, DMA_TO_DEVICE);
		if (ret)
			return ret;
		list_add_tail(&ip->tx[i].node, &ip->tx_free);
	}
	ret = madcm_ib_map(ip, &ip->sink, &ip->sink_dma, MADCM_IB_SINK_LEN,
			   DMA_FROM_DEVICE);
	if (ret)
		return ret;
	for (i = 0; i < ip->rq_size; i++) {
		ip->rx[i].ip = ip;
		ip->rx[i].cqe.done = madcm_ib_recv_done;
		ret = madcm_ib_map(ip, &ip->rx[i].buf, &ip->rx[i].dma,
				   madcm_ib_rx_len(ip), DMA_FROM_DEVICE);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * From RESET: INIT with the GSI's Q_Key, the receive ring posted, then RTR
 * and RTS.
 */
static int madcm_ib_qp_start(struct madcm_ib_port *ip)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.port_num = ip->port_num,
		.qkey = IB_QP1_QKEY,
	};
	int i, ret;

	ret = ib_modify_qp(ip->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_QKEY);
	if (ret)
		return ret;
	for (i = 0; i < ip->rq_size; i++) {
		spin_lock_bh(&ip->lock);
		ret = madcm_ib_post_recv(&ip->rx[i]);
		if (!ret)
			ip->rx_posted++;
		spin_unlock_bh(&ip->lock);
		if (ret)
			return ret;
	}
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(ip->qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(ip->qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
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
 * The QP left RTS (madcm_ib_set_broken()). Move it to the error state so
 * that the device gives everything back, reset it, and start it again.
 * When the device does not give back, or the QP cannot be restarted, the
 * port stays broken: sends wait, then fail, until the device is removed.
 */
static void madcm_ib_recover(struct work_struct *work)
{
	struct madcm_ib_port *ip = container_of(work, struct madcm_ib_port,
						recover_work);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	LIST_HEAD(failed);
	bool dead;
	int ret;

	ret = ib_modify_qp(ip->qp, &attr, IB_QP_STATE);
	if (!ret && !wait_event_timeout(ip->tx_idle, madcm_ib_drained(ip),
					msecs_to_jiffies(MADCM_IB_DRAIN_MS)))
		ret = -ETIMEDOUT;
	spin_lock_bh(&ip->lock);
	dead = ip->dead;
	spin_unlock_bh(&ip->lock);
	if (dead)
		return;
	if (!ret) {
		attr.qp_state = IB_QPS_RESET;
		ret = ib_modify_qp(ip->qp, &attr, IB_QP_STATE);
	}
	if (!ret)
		ret = madcm_ib_qp_start(ip);
	if (ret) {
		madcm_ib_count(ip, MADCM_IB_QP_RECOVER_FAIL);
		pr_warn("madcm: %s: QP %u not recovered from the error state: %d\n",
			ip->port->name, ip->qp->qp_num, ret);
		return;
	}
	madcm_ib_count(ip, MADCM_IB_QP_RECOVERED);
	spin_lock_bh(&ip->lock);
	ip->broken = false;
	madcm_ib_kick(ip, &failed);
	spin_unlock_bh(&ip->lock);
	madcm_ib_complete_failed(ip, &failed);
}

static struct madcm_ib_port *madcm_ib_port_open(struct ib_device *device,
						u32 port_num)
{
	struct madcm_port_attr pattr = {};
	struct ib_port_attr port_attr;
	struct madcm_ib_port *ip;
	struct madcm_port *port;
	unsigned int rq_size;
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
	ip = kvzalloc(struct_size(ip, rx, rq_size), GFP_KERNEL);
	if (!ip)
		return ERR_PTR(-ENOMEM);
	ip->rq_size = rq_size;
	ip->device = device;
	ip->port_num = port_num;
	ip->mad_size = rdma_max_mad_size(device, port_num);
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
	 * The UD QP is set up on P_Key index 0 and, not being QP1, sends
	 * with it whatever a work request says (IBTA vol. 1 11.4.1.1).
	 */
	pattr.nr_pkeys = 1;
	port = madcm_port_register(&madcm_ib_ops, &pattr, ip);
	if (IS_ERR(port)) {
		ret = PTR_ERR(port);
		goto err_res;
	}
	ip->port = port;
	ret = madcm_ib_qp_start(ip);
	if (ret) {
		madcm_ib_free_res(ip);
		madcm_port_unregister(port);	/* frees ip */
		return ERR_PTR(ret);
	}
	if (port->debugfs)
		debugfs_create_file("ib", 0400, port->debugfs, ip,
				    &madcm_ib_fops);
	return ip;

err_res:
	madcm_ib_free_res(ip);
	kvfree(ip);
	return ERR_PTR(ret);
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
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct madcm_port *port = ip->port;
	struct madcm_ib_pending *p, *ptmp;
	LIST_HEAD(pending);
	int i;

	spin_lock_bh(&ip->lock);
	ip->dead = true;
	list_splice_init(&ip->overflow, &pending);
	ip->n_overflow = 0;
	spin_unlock_bh(&ip->lock);
	/* A recovery under way finishes before the QP goes for good. */
	cancel_work_sync(&ip->recover_work);

	/* The device flushes what it holds; wait for those completions. */
	ib_modify_qp(ip->qp, &attr, IB_QP_STATE);
	if (!wait_event_timeout(ip->tx_idle, madcm_ib_tx_idle(ip),
				msecs_to_jiffies(MADCM_IB_DRAIN_MS)))
		pr_info("%s: device did not flush its sends, completing them here\n",
			port->name);
	list_for_each_entry_safe(p, ptmp, &pending, node) {
		madcm_port_send_complete(port, p->send, IB_WC_WR_FLUSH_ERR);
		kfree(p);
	}
	madcm_port_flush_agents(port);

	ib_destroy_qp(ip->qp);
	ip->qp = NULL;
	ib_free_cq(ip->cq);
	ip->cq = NULL;
	/* Nothing polls any more: what the device kept is flushed here. */
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
