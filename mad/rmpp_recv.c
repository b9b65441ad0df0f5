// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RMPP receiver (IBTA vol. 1 13.6.3, 13.6.4) for kernel-RMPP agents,
 * and the dispatch of every RMPP MAD such an agent receives.
 *
 * A transfer starts with segment 1 (flag FIRST), whose PayloadLength
 * gives the transfer's size: the number of segments follows, and one
 * buffer is allocated for all of them at once, after the port's limits
 * (concurrent reassemblies, bytes held) are checked; past a limit the
 * sender gets a STOP (status 1, resources exhausted) and nothing is
 * allocated. Segment n is copied, whole, to slot n of the buffer: O(1)
 * whatever the order. The receiver takes segments up to NewWindowLast;
 * it ACKs (SegmentNumber = the last segment received in order,
 * NewWindowLast = that plus the window) for segment 1, for the window's
 * last segment, when the window fills, for the last segment of the
 * transfer, and for a duplicate (at most once a jiffy), which tells a
 * sender that lost an ACK where to go on. The completed buffer goes to
 * the agent as one receive completion whose rmpp_list holds one
 * ib_mad_recv_buf per segment, as ib_core's does; madcm_free_recv_mad()
 * frees it.
 *
 * A completed transfer leaves a small record (no buffer) for the
 * inactivity time, to ACK a sender that lost the final ACK and to keep a
 * turn-around ACK's window for the response. A reassembly without
 * progress for that time is ended with ABORT (T2L). Bad input gets
 * ABORT: BAD_SEG for a segment number that does not fit, BAD_LEN for a
 * PayloadLength that does not, BADT for an unknown type, UNV for another
 * RMPP version, BAD_STATUS for a DATA with a status.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/rhashtable.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <madcm/mad.h>

#include "fault.h"
#include "mad_priv.h"
#include "rmpp.h"

unsigned int madcm_rmpp_window = 64;
module_param_named(rmpp_window, madcm_rmpp_window, uint, 0644);
MODULE_PARM_DESC(rmpp_window,
		 "RMPP receive window, in segments (default 64)");

unsigned int madcm_rmpp_max_reassemblies = 64;
module_param_named(rmpp_max_reassemblies, madcm_rmpp_max_reassemblies,
		   uint, 0644);
MODULE_PARM_DESC(rmpp_max_reassemblies,
		 "RMPP reassemblies in progress per port at most (default 64)");

unsigned long madcm_rmpp_max_reassembly_bytes = 32UL << 20;
module_param_named(rmpp_max_reassembly_bytes,
		   madcm_rmpp_max_reassembly_bytes, ulong, 0644);
MODULE_PARM_DESC(rmpp_max_reassembly_bytes,
		 "bytes RMPP reassemblies in progress hold per port at most (default 32 MiB)");

unsigned int madcm_rmpp_max_source_reassemblies = 16;
module_param_named(rmpp_max_source_reassemblies,
		   madcm_rmpp_max_source_reassemblies, uint, 0644);
MODULE_PARM_DESC(rmpp_max_source_reassemblies,
		 "RMPP reassemblies in progress per sender (SLID or source GID) and port at most (default 16)");

unsigned long madcm_rmpp_max_source_bytes = 8UL << 20;
module_param_named(rmpp_max_source_bytes, madcm_rmpp_max_source_bytes,
		   ulong, 0644);
MODULE_PARM_DESC(rmpp_max_source_bytes,
		 "bytes the RMPP reassemblies of one sender hold per port at most (default 8 MiB)");

unsigned int madcm_rmpp_recv_timeout_ms = 40000;
module_param_named(rmpp_recv_timeout_ms, madcm_rmpp_recv_timeout_ms, uint,
		   0644);
MODULE_PARM_DESC(rmpp_recv_timeout_ms,
		 "RMPP reassembly inactivity time, ms (default 40000)");

unsigned int madcm_rmpp_ack_timeout_ms = 2000;
module_param_named(rmpp_ack_timeout_ms, madcm_rmpp_ack_timeout_ms, uint,
		   0644);
MODULE_PARM_DESC(rmpp_ack_timeout_ms,
		 "RMPP sender's ACK wait when send_buf->timeout_ms is 0, ms (default 2000)");

/*
 * Records of completed transfers an agent keeps at most; past that the
 * oldest goes, which only costs a re-ACK to a sender that lost its final
 * ACK.
 */
#define MADCM_RMPP_MAX_DONE	1024

/* The MAD and class headers of segment 1 kept for ACKs: SA's is 56. */
#define MADCM_RMPP_TMPL	64

/**
 * struct madcm_rmpp_rx - one transfer being received, or just received
 * @hnode: in the agent's rmpp_rx table
 * @key: TID, class and the sender's address
 * @lru: on the agent's rmpp_lru, least recently active first
 * @active_at: when the transfer last made progress (jiffies)
 * @acked_at: when a duplicate was last answered with an ACK (jiffies)
 * @complete: every segment came; @rv is gone to the agent
 * @mad_size: 256 or 2048
 * @nseg: segments in the transfer
 * @paylen: PayloadLength of segment 1
 * @last_paylen: PayloadLength of the last segment
 * @contig: segments 1 to @contig are here
 * @newwin: the last segment the window takes
 * @repwin: the window a turn-around ACK offered for the response, or 0
 * @charged: bytes charged to the port's limit
 * @rv: the reassembly buffer
 * @bufs: one receive buffer descriptor per segment, inside @rv
 * @seen: the segments received, inside @rv
 * @dest: where ACKs go
 * @tmpl: segment 1's headers, for ACKs
 */
struct madcm_rmpp_rx {
	struct rhash_head hnode;
	struct madcm_tid_key key;
	struct list_head lru;
	unsigned long active_at;
	unsigned long acked_at;
	bool complete;
	u32 mad_size;
	u32 nseg;
	u32 paylen;
	u32 last_paylen;
	u32 contig;
	u32 newwin;
	u32 repwin;
	size_t charged;
	struct madcm_recv *rv;
	struct ib_mad_recv_buf *bufs;
	unsigned long *seen;
	struct madcm_rmpp_dest dest;
	u8 tmpl[MADCM_RMPP_TMPL];
};

static const struct rhashtable_params madcm_rmpp_rx_params = {
	.key_len = sizeof(struct madcm_tid_key),
	.key_offset = offsetof(struct madcm_rmpp_rx, key),
	.head_offset = offsetof(struct madcm_rmpp_rx, hnode),
	.automatic_shrinking = true,
};

static void madcm_rmpp_peak(atomic_long_t *peak, long v)
{
	long old = atomic_long_read(peak);

	while (v > old && !atomic_long_try_cmpxchg(peak, &old, v))
		;
}

/*
 * Take one reassembly of @size bytes from the port's limits. @size is 64
 * bits wide on every architecture: it is compared with the limit before
 * anything narrows it.
 */
static bool madcm_rmpp_charge(struct madcm_port *port, u64 size)
{
	unsigned long max_bytes = READ_ONCE(madcm_rmpp_max_reassembly_bytes);
	int n = atomic_inc_return(&port->rmpp_reassemblies);
	long bytes;
	int old;

	if (n > READ_ONCE(madcm_rmpp_max_reassemblies) || size > max_bytes) {
		atomic_dec(&port->rmpp_reassemblies);
		return false;
	}
	bytes = atomic_long_add_return((long)size, &port->rmpp_bytes);
	if (bytes > max_bytes) {
		atomic_long_sub((long)size, &port->rmpp_bytes);
		atomic_dec(&port->rmpp_reassemblies);
		return false;
	}
	old = atomic_read(&port->rmpp_peak_reassemblies);
	while (n > old &&
	       !atomic_try_cmpxchg(&port->rmpp_peak_reassemblies, &old, n))
		;
	madcm_rmpp_peak(&port->rmpp_peak_bytes, bytes);
	return true;
}

static void madcm_rmpp_uncharge(struct madcm_port *port,
				struct madcm_rmpp_rx *rx)
{
	if (!rx->charged)
		return;
	atomic_long_sub(rx->charged, &port->rmpp_bytes);
	atomic_dec(&port->rmpp_reassemblies);
	rx->charged = 0;
}

static void madcm_rmpp_rx_free(struct madcm_rmpp_rx *rx)
{
	kvfree(rx->rv);
	kfree(rx);
}

/* Take a transfer out of the agent's tables; lock held. */
static void madcm_rmpp_rx_unlink(struct madcm_agent *ag,
				 struct madcm_rmpp_rx *rx)
{
	rhashtable_remove_fast(&ag->rmpp_rx, &rx->hnode, madcm_rmpp_rx_params);
	list_del_init(&rx->lru);
	madcm_rmpp_uncharge(ag->port, rx);
	if (rx->complete)
		ag->rmpp_done_nr--;
}

/* Past the cap on completed records, the oldest one; lock held. */
static struct madcm_rmpp_rx *madcm_rmpp_rx_evict(struct madcm_agent *ag)
{
	struct madcm_rmpp_rx *rx;

	if (ag->rmpp_done_nr <= MADCM_RMPP_MAX_DONE)
		return NULL;
	/* In front of it, at most the reassemblies in progress. */
	list_for_each_entry(rx, &ag->rmpp_lru, lru) {
		if (rx->complete) {
			madcm_rmpp_rx_unlink(ag, rx);
			return rx;
		}
	}
	return NULL;
}

/*
 * The layout of a reassembly of @nseg segments of @mad_size bytes: the
 * receive completion with every segment, then one receive buffer
 * descriptor per segment, then the bitmap of segments received. Return
 * its size. All in 64 bits: a PayloadLength near 2^32 asks for more than
 * a 32-bit size_t holds, and that must be refused, not wrapped around.
 */
static u64 madcm_rmpp_rx_layout(u64 nseg, u32 mad_size, u64 *bufs_off,
				u64 *seen_off)
{
	*bufs_off = ALIGN((u64)sizeof(struct madcm_recv) + nseg * mad_size, 8);
	*seen_off = ALIGN(*bufs_off + nseg * sizeof(struct ib_mad_recv_buf),
			  sizeof(long));
	return *seen_off + (u64)BITS_TO_LONGS(nseg) * sizeof(long);
}

/*
 * A new transfer from its segment 1: check its PayloadLength and the
 * port's limits, allocate its buffer. Return it, or NULL with the type
 * and status of the refusal in @type and @status.
 */
static struct madcm_rmpp_rx *madcm_rmpp_rx_new(struct madcm_agent *ag,
					       const struct madcm_recv *rv,
					       u8 *type, u8 *status)
{
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr((void *)rv->mad);
	u32 mad_size = rv->recv_wc.mad_seg_size;
	u32 data = madcm_rmpp_data_size(mad_size);
	u32 paylen = be32_to_cpu(rh->paylen_newwin);
	u64 nseg, bufs_off, seen_off, size;
	struct madcm_rmpp_rx *rx;
	struct madcm_recv *big;

	*type = IB_MGMT_RMPP_TYPE_ABORT;
	*status = IB_MGMT_RMPP_STATUS_BAD_LEN;
	if (!paylen)
		return NULL;
	if ((ib_get_rmpp_flags(rh) & IB_MGMT_RMPP_FLAG_LAST) && paylen > data)
		return NULL;
	/* In 32 bits: no 64-bit division on 32-bit kernels, no overflow. */
	nseg = paylen / data + !!(paylen % data);
	size = madcm_rmpp_rx_layout(nseg, mad_size, &bufs_off, &seen_off);

	*type = IB_MGMT_RMPP_TYPE_STOP;
	*status = IB_MGMT_RMPP_STATUS_RESX;
	/* Past here @size is within the byte limit, an unsigned long. */
	if (!madcm_rmpp_charge(ag->port, size))
		return NULL;
	rx = kzalloc(sizeof(*rx), GFP_KERNEL);
	big = madcm_fault(MADCM_FAULT_RMPP_RX) ? NULL :
		kvzalloc((size_t)size, GFP_KERNEL | __GFP_NOWARN);
	if (!rx || !big) {
		kfree(rx);
		kvfree(big);
		atomic_long_sub((long)size, &ag->port->rmpp_bytes);
		atomic_dec(&ag->port->rmpp_reassemblies);
		return NULL;
	}
	madcm_recv_key(rv, &rx->key);
	INIT_LIST_HEAD(&rx->lru);
	rx->charged = (size_t)size;
	rx->mad_size = mad_size;
	rx->nseg = nseg;
	rx->paylen = paylen;
	rx->newwin = max(READ_ONCE(madcm_rmpp_window), 1U);
	rx->rv = big;
	rx->bufs = (void *)big + bufs_off;
	rx->seen = (void *)big + seen_off;
	rx->active_at = jiffies;
	rx->acked_at = jiffies - 1;
	madcm_rmpp_dest_from_recv(rv, &rx->dest);
	memcpy(rx->tmpl, rv->mad, MADCM_RMPP_TMPL);
	big->port = ag->port;
	big->wc = rv->wc;
	big->grh = rv->grh;
	return rx;
}

static void madcm_rmpp_rx_ack(struct madcm_agent *ag,
			      struct madcm_rmpp_rx *rx)
{
	madcm_rmpp_ctl_send(ag->port, &rx->dest, rx->tmpl, true,
			    IB_MGMT_RMPP_TYPE_ACK, 0, rx->contig, rx->newwin);
}

/*
 * A duplicate tells of a sender that lost an ACK: ACK again, at most once
 * a jiffy, so that a resent window does not bring an ACK per segment.
 */
static void madcm_rmpp_rx_dup_ack(struct madcm_agent *ag,
				  struct madcm_rmpp_rx *rx)
{
	if (time_after(jiffies, rx->acked_at)) {
		rx->acked_at = jiffies;
		madcm_rmpp_rx_ack(ag, rx);
	}
}

/* Segments the ULP sees: one ib_mad_recv_buf each, in order. */
static struct madcm_recv *madcm_rmpp_rx_finish(struct madcm_agent *ag,
					       struct madcm_rmpp_rx *rx)
{
	struct madcm_recv *big = rx->rv;
	struct ib_mad_recv_wc *wc = &big->recv_wc;
	const struct ib_mad_hdr *hdr = (const struct ib_mad_hdr *)big->mad;
	u32 data = madcm_rmpp_data_size(rx->mad_size);
	int hdr_size = madcm_get_mad_data_offset(hdr->mgmt_class);
	u32 i;

	wc->wc = &big->wc;
	wc->recv_buf.mad = (struct ib_mad *)big->mad;
	wc->recv_buf.grh = &big->grh;
	INIT_LIST_HEAD(&wc->rmpp_list);
	list_add_tail(&wc->recv_buf.list, &wc->rmpp_list);
	for (i = 1; i < rx->nseg; i++) {
		rx->bufs[i].mad = (struct ib_mad *)(big->mad +
						    (size_t)i * rx->mad_size);
		rx->bufs[i].grh = &big->grh;
		list_add_tail(&rx->bufs[i].list, &wc->rmpp_list);
	}
	/* One copy of the headers, then every segment's data (13.6.2.3). */
	wc->mad_len = hdr_size + (size_t)rx->nseg * (rx->mad_size - hdr_size) -
		      (data - rx->last_paylen);
	wc->mad_seg_size = rx->mad_size;
	rx->rv = NULL;
	rx->complete = true;
	ag->rmpp_done_nr++;
	madcm_rmpp_uncharge(ag->port, rx);
	/* Like any received MAD, it holds the port until freed. */
	madcm_port_get(ag->port);
	atomic_inc(&ag->port->live_recvs);
	madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_DONE);
	return big;
}

/*
 * A response segment came: the request it answers keeps waiting for the
 * rest instead of timing out meanwhile.
 */
static void madcm_rmpp_rx_push_request(struct madcm_agent *ag,
				       struct madcm_rmpp_rx *rx)
{
	struct madcm_send *ms;

	if (!madcm_response_mad((const struct ib_mad_hdr *)rx->tmpl))
		return;
	ms = madcm_send_lookup(ag, &rx->key, MADCM_LOOKUP_RESPONSE);
	if (ms && ms->state == MADCM_SEND_WAIT_RESP && ms->timed &&
	    (!ms->rmpp || ms->rmpp_done)) {
		madcm_timeout_del(ag, ms);
		madcm_timeout_add(ag, ms, ms->timeout_ms);
	}
}

/*
 * One DATA segment of a transfer in progress; lock held. Return 0, or
 * the status of the ABORT the transfer ends with. Sets *@done when the
 * transfer is complete.
 */
static u8 madcm_rmpp_rx_segment(struct madcm_agent *ag,
				struct madcm_rmpp_rx *rx,
				const struct madcm_recv *rv, bool *done)
{
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr((void *)rv->mad);
	u32 seg = be32_to_cpu(rh->seg_num);
	u32 paylen = be32_to_cpu(rh->paylen_newwin);
	u32 data = madcm_rmpp_data_size(rx->mad_size);
	bool last = ib_get_rmpp_flags(rh) & IB_MGMT_RMPP_FLAG_LAST;
	struct madcm_port *port = ag->port;
	u32 win = max(READ_ONCE(madcm_rmpp_window), 1U);

	if (seg > rx->nseg)
		return IB_MGMT_RMPP_STATUS_BAD_SEG;
	if (last) {
		/* The last segment's bytes must add up to segment 1's. */
		if (seg != rx->nseg || !paylen || paylen > data ||
		    (u64)(rx->nseg - 1) * data + paylen != rx->paylen)
			return IB_MGMT_RMPP_STATUS_BAD_LEN;
	} else if (seg == rx->nseg) {
		return IB_MGMT_RMPP_STATUS_BAD_LEN;
	}
	if (seg > rx->newwin) {
		madcm_port_count(port, MADCM_CNT_RMPP_RX_WINDOW);
		return 0;
	}
	if (seg <= rx->contig || test_bit(seg - 1, rx->seen)) {
		madcm_port_count(port, MADCM_CNT_RMPP_RX_DUP);
		madcm_rmpp_rx_dup_ack(ag, rx);
		/* The responder resends after losing our ACK: still alive. */
		madcm_rmpp_rx_push_request(ag, rx);
		return 0;
	}
	memcpy(rx->rv->mad + (size_t)(seg - 1) * rx->mad_size, rv->mad,
	       min_t(size_t, rv->recv_wc.mad_len, rx->mad_size));
	__set_bit(seg - 1, rx->seen);
	if (last)
		rx->last_paylen = paylen;
	madcm_port_count(port, MADCM_CNT_RMPP_RX_SEG);
	rx->active_at = jiffies;
	list_move_tail(&rx->lru, &ag->rmpp_lru);
	madcm_rmpp_rx_push_request(ag, rx);

	while (rx->contig < rx->nseg && test_bit(rx->contig, rx->seen))
		rx->contig++;
	if (rx->contig == rx->nseg) {
		rx->newwin = max(rx->newwin, rx->nseg);
		madcm_rmpp_rx_ack(ag, rx);
		*done = true;
		return 0;
	}
	if (seg == 1 || seg == rx->newwin || rx->contig >= rx->newwin) {
		rx->newwin = max(rx->newwin,
				 min_t(u32, rx->contig + win, rx->nseg));
		madcm_rmpp_rx_ack(ag, rx);
	}
	return 0;
}

static void madcm_rmpp_gc_arm(struct madcm_agent *ag)
{
	queue_delayed_work(madcm_mad_wq, &ag->rmpp_gc,
			   msecs_to_jiffies(READ_ONCE(madcm_rmpp_recv_timeout_ms)));
}

/* A DATA segment for a kernel-RMPP agent. Takes over @rv. */
static void madcm_rmpp_recv_data(struct madcm_agent *ag, struct madcm_recv *rv)
{
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr(rv->mad);
	u32 seg = be32_to_cpu(rh->seg_num);
	bool first = ib_get_rmpp_flags(rh) & IB_MGMT_RMPP_FLAG_FIRST;
	struct madcm_rmpp_rx *rx, *gone = NULL, *evicted = NULL, *old;
	struct madcm_recv *big = NULL;
	struct madcm_tid_key key;
	bool done = false;
	u8 type, status = 0;

	if (rh->rmpp_status)
		status = IB_MGMT_RMPP_STATUS_BAD_STATUS;
	else if (!seg || (seg == 1) != first)
		status = IB_MGMT_RMPP_STATUS_BAD_SEG;
	if (status) {
		madcm_rmpp_nack(ag->port, rv, IB_MGMT_RMPP_TYPE_ABORT, status);
		goto out;
	}
	madcm_recv_key(rv, &key);
	spin_lock_bh(&ag->lock);
	rx = rhashtable_lookup_fast(&ag->rmpp_rx, &key, madcm_rmpp_rx_params);
	if (!rx && seg == 1) {
		spin_unlock_bh(&ag->lock);
		rx = madcm_rmpp_rx_new(ag, rv, &type, &status);
		if (!rx) {
			madcm_rmpp_nack(ag->port, rv, type, status);
			goto out;
		}
		spin_lock_bh(&ag->lock);
		old = rhashtable_lookup_get_insert_fast(&ag->rmpp_rx,
							&rx->hnode,
							madcm_rmpp_rx_params);
		if (old) {
			/* Another copy of segment 1 was faster, or no memory. */
			madcm_rmpp_uncharge(ag->port, rx);
			gone = rx;
			rx = IS_ERR(old) ? NULL : old;
		} else {
			list_add_tail(&rx->lru, &ag->rmpp_lru);
			madcm_rmpp_gc_arm(ag);
		}
	}
	if (!rx) {
		madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_STRAY);
	} else if (rx->complete) {
		/*
		 * The sender missed our final ACK, or the fabric delivered a
		 * segment twice: say it again. A new transfer that reuses the
		 * TID of one completed less than rmpp_recv_timeout_ms ago is
		 * taken for a duplicate too, as by ib_core.
		 */
		madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_DUP);
		madcm_rmpp_rx_dup_ack(ag, rx);
	} else {
		status = madcm_rmpp_rx_segment(ag, rx, rv, &done);
		if (status) {
			madcm_rmpp_nack(ag->port, rv, IB_MGMT_RMPP_TYPE_ABORT,
					status);
			madcm_rmpp_rx_unlink(ag, rx);
			gone = rx;
		} else if (done) {
			big = madcm_rmpp_rx_finish(ag, rx);
			evicted = madcm_rmpp_rx_evict(ag);
		}
	}
	spin_unlock_bh(&ag->lock);
	if (gone)
		madcm_rmpp_rx_free(gone);
	if (evicted)
		madcm_rmpp_rx_free(evicted);
	if (big)
		madcm_recv_dispatch(ag, big);
out:
	madcm_recv_free(rv);
}

/* A sender's ABORT for a transfer we receive; lock not held. */
static bool madcm_rmpp_recv_abort(struct madcm_agent *ag,
				  const struct madcm_recv *rv)
{
	struct madcm_rmpp_rx *rx;
	struct madcm_tid_key key;

	madcm_recv_key(rv, &key);
	spin_lock_bh(&ag->lock);
	rx = rhashtable_lookup_fast(&ag->rmpp_rx, &key, madcm_rmpp_rx_params);
	if (rx)
		madcm_rmpp_rx_unlink(ag, rx);
	spin_unlock_bh(&ag->lock);
	if (!rx)
		return false;
	madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_ABORT);
	madcm_rmpp_rx_free(rx);
	return true;
}

/* A turn-around ACK: the window for our response to a transfer. */
static bool madcm_rmpp_recv_turnaround(struct madcm_agent *ag,
				       const struct madcm_recv *rv)
{
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr((void *)rv->mad);
	struct madcm_rmpp_rx *rx;
	struct madcm_tid_key key;
	bool found = false;

	if (rh->seg_num || rh->rmpp_status || !rh->paylen_newwin)
		return false;
	madcm_recv_key(rv, &key);
	spin_lock_bh(&ag->lock);
	rx = rhashtable_lookup_fast(&ag->rmpp_rx, &key, madcm_rmpp_rx_params);
	if (rx && rx->complete) {
		rx->repwin = be32_to_cpu(rh->paylen_newwin);
		found = true;
	}
	spin_unlock_bh(&ag->lock);
	if (found)
		madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_ACK);
	return found;
}

/*
 * The window a turn-around ACK offered for the response to the transfer
 * with @key, or 0; lock held.
 */
u32 madcm_rmpp_repwin(struct madcm_agent *ag, const struct madcm_tid_key *key)
{
	struct madcm_rmpp_rx *rx;

	rx = rhashtable_lookup_fast(&ag->rmpp_rx, key, madcm_rmpp_rx_params);
	return rx && rx->complete ? rx->repwin : 0;
}

/*
 * madcm_rmpp_recv() - an RMPP MAD (flag ACTIVE) for a kernel-RMPP agent
 * @ag: the agent, referenced by the caller
 * @rv: the MAD; taken over
 */
void madcm_rmpp_recv(struct madcm_agent *ag, struct madcm_recv *rv)
{
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr(rv->mad);
	struct madcm_port *port = ag->port;
	bool handled;

	if (rh->rmpp_version != IB_MGMT_RMPP_VERSION) {
		/* Never answer an ABORT: two ends must not ping-pong. */
		if (rh->rmpp_type == IB_MGMT_RMPP_TYPE_ABORT)
			madcm_port_count(port, MADCM_CNT_RMPP_RX_BAD);
		else
			madcm_rmpp_nack(port, rv, IB_MGMT_RMPP_TYPE_ABORT,
					IB_MGMT_RMPP_STATUS_UNV);
		madcm_recv_free(rv);
		return;
	}
	switch (rh->rmpp_type) {
	case IB_MGMT_RMPP_TYPE_DATA:
		madcm_rmpp_recv_data(ag, rv);
		return;
	case IB_MGMT_RMPP_TYPE_ACK:
		handled = madcm_rmpp_send_ctl(ag, rv) ||
			  madcm_rmpp_recv_turnaround(ag, rv);
		break;
	case IB_MGMT_RMPP_TYPE_STOP:
		handled = madcm_rmpp_send_ctl(ag, rv);
		break;
	case IB_MGMT_RMPP_TYPE_ABORT:
		handled = madcm_rmpp_send_ctl(ag, rv) ||
			  madcm_rmpp_recv_abort(ag, rv);
		break;
	default:
		madcm_rmpp_nack(port, rv, IB_MGMT_RMPP_TYPE_ABORT,
				IB_MGMT_RMPP_STATUS_BADT);
		handled = true;
		break;
	}
	if (!handled)
		madcm_port_count(port, MADCM_CNT_RMPP_RX_UNMATCHED);
	madcm_recv_free(rv);
}

/* Ends the transfers that made no progress for the inactivity time. */
static void madcm_rmpp_gc(struct work_struct *work)
{
	struct madcm_agent *ag = container_of(to_delayed_work(work),
					      struct madcm_agent, rmpp_gc);
	unsigned long tmo = msecs_to_jiffies(READ_ONCE(madcm_rmpp_recv_timeout_ms));
	unsigned long now = jiffies;
	struct madcm_rmpp_rx *rx, *tmp;
	LIST_HEAD(dead);

	spin_lock_bh(&ag->lock);
	list_for_each_entry_safe(rx, tmp, &ag->rmpp_lru, lru) {
		if (time_before(now, rx->active_at + tmo)) {
			mod_delayed_work(madcm_mad_wq, &ag->rmpp_gc,
					 rx->active_at + tmo - now);
			break;
		}
		madcm_rmpp_rx_unlink(ag, rx);
		list_add_tail(&rx->lru, &dead);
		if (!rx->complete) {
			madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_TIMEOUT);
			madcm_rmpp_ctl_send(ag->port, &rx->dest, rx->tmpl, true,
					    IB_MGMT_RMPP_TYPE_ABORT,
					    IB_MGMT_RMPP_STATUS_T2L, 0, 0);
		}
	}
	spin_unlock_bh(&ag->lock);
	list_for_each_entry_safe(rx, tmp, &dead, lru)
		madcm_rmpp_rx_free(rx);
}

int madcm_rmpp_agent_init(struct madcm_agent *ag)
{
	INIT_LIST_HEAD(&ag->rmpp_lru);
	INIT_DELAYED_WORK(&ag->rmpp_gc, madcm_rmpp_gc);
	return rhashtable_init(&ag->rmpp_rx, &madcm_rmpp_rx_params);
}

static void madcm_rmpp_rx_destroy(void *ptr, void *arg)
{
	struct madcm_rmpp_rx *rx = ptr;

	madcm_rmpp_uncharge(arg, rx);
	madcm_rmpp_rx_free(rx);
}

/* After the agent's last receive: end and free every transfer. */
void madcm_rmpp_agent_destroy(struct madcm_agent *ag)
{
	cancel_delayed_work_sync(&ag->rmpp_gc);
	rhashtable_free_and_destroy(&ag->rmpp_rx, madcm_rmpp_rx_destroy,
				    ag->port);
}

/* The port's RMPP gauges, for its counters file. */
void madcm_rmpp_port_show(struct seq_file *s, struct madcm_port *port)
{
	seq_printf(s, "rmpp_reassemblies %d\n",
		   atomic_read(&port->rmpp_reassemblies));
	seq_printf(s, "rmpp_reassembly_bytes %ld\n",
		   atomic_long_read(&port->rmpp_bytes));
	seq_printf(s, "rmpp_reassemblies_peak %d\n",
		   atomic_read(&port->rmpp_peak_reassemblies));
	seq_printf(s, "rmpp_reassembly_bytes_peak %ld\n",
		   atomic_long_read(&port->rmpp_peak_bytes));
}
