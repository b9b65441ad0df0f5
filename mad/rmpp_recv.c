// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RMPP receiver (IBTA vol. 1 13.6.3, 13.6.4) for kernel-RMPP agents,
 * and the dispatch of every RMPP MAD such an agent receives.
 *
 * A transfer starts with segment 1 (flag FIRST), whose PayloadLength
 * gives the number of segments. Nothing is allocated on its word: a
 * length that could never fit a limit is refused at once, and otherwise
 * the reassembly holds what has come, the receive completion with
 * segment 1, then order-0 pages for the other segments (each page holds
 * PAGE_SIZE / (mad_size + descriptor) segments and their receive buffer
 * descriptors), added as segments arrive, one window at a time, with a
 * page table that doubles when the window moves past it. Segment n is at
 * a computed page and offset: O(1) whatever the order.
 *
 * Every byte a reassembly holds is charged to two budgets: the port's
 * (rmpp_max_reassemblies, rmpp_max_reassembly_bytes) and its sender's
 * (rmpp_max_source_reassemblies, rmpp_max_source_bytes; the sender is
 * its SLID, or its source GID when it comes with a GRH), so that one
 * sender cannot take what others need. A new transfer past a limit, or a
 * transfer whose next page does not fit, gets a STOP (status 1,
 * resources exhausted, 13.6.3.3), which ends it on both sides; the
 * refusal is counted as the port's limit or the sender's. Before a new
 * transfer is refused for the port's budget, it evicts the reassembly
 * of the port (whichever agent's) that made the least progress, none
 * past its first segment, if there is one. A response
 * segment 1 that answers no request of the agent still waiting for it
 * (same TID, class and address, 13.4.6.4) is dropped and counted before
 * anything is allocated for it.
 *
 * The receiver takes segments up to NewWindowLast;
 * it ACKs (SegmentNumber = the last segment received in order,
 * NewWindowLast = that plus the window) for segment 1, for the window's
 * last segment, when the window fills, for the last segment of the
 * transfer, and for a duplicate (at most once a jiffy), which tells a
 * sender that lost an ACK where to go on. The completed transfer goes to
 * the agent as one receive completion whose rmpp_list holds one
 * ib_mad_recv_buf per segment, as ib_core's does; madcm_free_recv_mad()
 * frees it, pages included.
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
#include <linux/hashtable.h>
#include <linux/jhash.h>
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
 * struct madcm_rmpp_map - where the segments of a reassembly are
 * @npages: slots in @pages
 * @per_page: segments in one page
 * @mad_size: 256 or 2048
 * @seen: the segments received, one bit per segment from segment 1 on,
 *	1 + @npages * @per_page bits, right after @pages
 * @pages: order-0 pages, NULL where nothing came yet. Page i holds
 *	segments 2 + i * @per_page onwards, then one receive buffer
 *	descriptor for each of them; segment 1 is in the receive completion
 *	itself.
 */
struct madcm_rmpp_map {
	u32 npages;
	u32 per_page;
	u32 mad_size;
	unsigned long *seen;
	struct page *pages[];
};

/**
 * struct madcm_rmpp_src - a sender with reassemblies in progress on a port
 * @node: in the port's rmpp_src table
 * @gid: its source GID, when its MADs come with a GRH
 * @lid: its SLID, when they do not
 * @reassemblies: its reassemblies in progress (at least one)
 * @bytes: what they hold
 */
struct madcm_rmpp_src {
	struct hlist_node node;
	union ib_gid gid;
	u32 lid;
	u32 reassemblies;
	unsigned long bytes;
};

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
 * @src: the sender's budget entry while the reassembly is in progress
 * @charged: bytes charged to @src and to the port
 * @rv: the receive completion, with segment 1
 * @map: the other segments
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
	struct madcm_rmpp_src *src;
	unsigned long charged;
	struct madcm_recv *rv;
	struct madcm_rmpp_map *map;
	struct madcm_rmpp_dest dest;
	u8 tmpl[MADCM_RMPP_TMPL];
};

/**
 * struct madcm_rmpp_grow - memory a segment needs, allocated while the
 *	agent's lock is dropped
 * @mad_size: of the transfer
 * @want_npages: a map of that many pages is wanted, or 0
 * @want_page: a page is wanted
 * @failed: an allocation failed: the transfer ends
 * @map: a new, larger map without pages, or NULL
 * @page: a page, or NULL
 * @old: a map @map replaced, to free once the lock is dropped
 */
struct madcm_rmpp_grow {
	u32 mad_size;
	u32 want_npages;
	bool want_page;
	bool failed;
	struct madcm_rmpp_map *map;
	struct page *page;
	struct madcm_rmpp_map *old;
};

static const struct rhashtable_params madcm_rmpp_rx_params = {
	.key_len = sizeof(struct madcm_tid_key),
	.key_offset = offsetof(struct madcm_rmpp_rx, key),
	.head_offset = offsetof(struct madcm_rmpp_rx, hnode),
	.automatic_shrinking = true,
};

/* Segments of @mad_size bytes, with their descriptors, in one page. */
static u32 madcm_rmpp_per_page(u32 mad_size)
{
	return PAGE_SIZE / (mad_size + sizeof(struct ib_mad_recv_buf));
}

/* Pages for segments 2 to @nseg. */
static u32 madcm_rmpp_pages_for(u32 nseg, u32 per_page)
{
	return nseg > 1 ? DIV_ROUND_UP(nseg - 1, per_page) : 0;
}

static size_t madcm_rmpp_map_size(u32 npages, u32 per_page)
{
	return sizeof(struct madcm_rmpp_map) +
	       (size_t)npages * sizeof(struct page *) +
	       BITS_TO_LONGS(1 + (size_t)npages * per_page) * sizeof(long);
}

static struct madcm_rmpp_map *madcm_rmpp_map_alloc(u32 npages, u32 mad_size)
{
	u32 per_page = madcm_rmpp_per_page(mad_size);
	struct madcm_rmpp_map *map;

	map = kvzalloc(madcm_rmpp_map_size(npages, per_page),
		       GFP_KERNEL | __GFP_NOWARN);
	if (!map)
		return NULL;
	map->npages = npages;
	map->per_page = per_page;
	map->mad_size = mad_size;
	map->seen = (unsigned long *)&map->pages[npages];
	return map;
}

/*
 * madcm_rmpp_map_free() - free the segments of a reassembly
 * @map: the map, or NULL
 *
 * Never sleeps: a vmalloc'ed map is freed by a work.
 */
void madcm_rmpp_map_free(struct madcm_rmpp_map *map)
{
	u32 i;

	if (!map)
		return;
	for (i = 0; i < map->npages; i++)
		if (map->pages[i])
			__free_page(map->pages[i]);
	madcm_kvfree_any(map);
}

/* Whether segment @seg came. */
static bool madcm_rmpp_map_seen(const struct madcm_rmpp_map *map, u32 seg)
{
	return seg - 1 <= map->npages * map->per_page &&
	       test_bit(seg - 1, map->seen);
}

/*
 * Segment @seg (2 or more): where it goes, and its descriptor in @rb if
 * asked; NULL while its page is not there.
 */
static void *madcm_rmpp_map_seg(const struct madcm_rmpp_map *map, u32 seg,
				struct ib_mad_recv_buf **rb)
{
	u32 j = seg - 2, p = j / map->per_page, k = j % map->per_page;
	void *base;

	if (p >= map->npages || !map->pages[p])
		return NULL;
	base = page_address(map->pages[p]);
	if (rb)
		*rb = base + map->per_page * map->mad_size + k * sizeof(**rb);
	return base + k * map->mad_size;
}

/* Move what @from holds into the larger, empty @to. */
static void madcm_rmpp_map_move(struct madcm_rmpp_map *to,
				struct madcm_rmpp_map *from)
{
	memcpy(to->pages, from->pages, from->npages * sizeof(from->pages[0]));
	bitmap_copy(to->seen, from->seen, 1 + from->npages * from->per_page);
	from->npages = 0;
}

static void madcm_rmpp_peak(atomic_long_t *peak, long v)
{
	long old = atomic_long_read(peak);

	while (v > old && !atomic_long_try_cmpxchg(peak, &old, v))
		;
}

static void madcm_rmpp_peak_int(atomic_t *peak, int v)
{
	int old = atomic_read(peak);

	while (v > old && !atomic_try_cmpxchg(peak, &old, v))
		;
}

/* Who sent @rv: its source GID with a GRH, its SLID without. */
static void madcm_rmpp_src_of(const struct madcm_recv *rv, union ib_gid *gid,
			      u32 *lid)
{
	memset(gid, 0, sizeof(*gid));
	*lid = 0;
	if (rv->wc.wc_flags & IB_WC_GRH)
		*gid = rv->grh.sgid;
	else
		*lid = rv->wc.slid;
}

/* The budget entry of a sender; the port's rmpp_src_lock held. */
static struct madcm_rmpp_src *madcm_rmpp_src_find(struct madcm_port *port,
						  const union ib_gid *gid,
						  u32 lid, u32 hash)
{
	struct madcm_rmpp_src *s;

	hash_for_each_possible(port->rmpp_src, s, node, hash)
		if (s->lid == lid && !memcmp(s->gid.raw, gid->raw,
					     sizeof(gid->raw)))
			return s;
	return NULL;
}

/*
 * Charge @bytes to @s (NULL: a sender with nothing yet) and to the port,
 * if both budgets allow; otherwise say in @why whose does not. The port's
 * rmpp_src_lock held.
 */
static bool madcm_rmpp_src_fits(struct madcm_port *port,
				struct madcm_rmpp_src *s, unsigned long bytes,
				enum madcm_port_counter *why)
{
	unsigned long src_bytes = s ? s->bytes : 0;
	long total;

	if (atomic_long_read(&port->rmpp_bytes) + bytes >
	    READ_ONCE(madcm_rmpp_max_reassembly_bytes)) {
		*why = MADCM_CNT_RMPP_RX_LIMIT;
		return false;
	}
	if (src_bytes + bytes > READ_ONCE(madcm_rmpp_max_source_bytes)) {
		*why = MADCM_CNT_RMPP_RX_SOURCE_LIMIT;
		return false;
	}
	if (s)
		s->bytes += bytes;
	total = atomic_long_add_return(bytes, &port->rmpp_bytes);
	madcm_rmpp_peak(&port->rmpp_peak_bytes, total);
	return true;
}

/*
 * A new reassembly of @ag from the sender of @rv that holds @bytes now:
 * take it from the port's budget and the sender's, and put @ag on the
 * port's rmpp_agents if it had none. Return the sender's entry, or NULL
 * with the counter of the limit in @why. @spare becomes the entry of a
 * sender new to the port (and is then set to NULL).
 */
static struct madcm_rmpp_src *
madcm_rmpp_src_start(struct madcm_agent *ag, const struct madcm_recv *rv,
		     unsigned long bytes, struct madcm_rmpp_src **spare,
		     enum madcm_port_counter *why, bool *port_full)
{
	struct madcm_port *port = ag->port;
	struct madcm_rmpp_src *s;
	union ib_gid gid;
	u32 lid, hash;
	int n;

	madcm_rmpp_src_of(rv, &gid, &lid);
	hash = jhash(gid.raw, sizeof(gid.raw), lid);
	spin_lock_bh(&port->rmpp_src_lock);
	s = madcm_rmpp_src_find(port, &gid, lid, hash);
	if (atomic_read(&port->rmpp_reassemblies) >=
	    READ_ONCE(madcm_rmpp_max_reassemblies)) {
		*why = MADCM_CNT_RMPP_RX_LIMIT;
		*port_full = true;
		goto refuse;
	}
	if ((s ? s->reassemblies : 0) >=
	    READ_ONCE(madcm_rmpp_max_source_reassemblies)) {
		*why = MADCM_CNT_RMPP_RX_SOURCE_LIMIT;
		goto refuse;
	}
	if (!madcm_rmpp_src_fits(port, s, bytes, why)) {
		*port_full = *why == MADCM_CNT_RMPP_RX_LIMIT;
		goto refuse;
	}
	if (!s) {
		s = *spare;
		*spare = NULL;
		s->gid = gid;
		s->lid = lid;
		s->bytes = bytes;
		hash_add(port->rmpp_src, &s->node, hash);
	}
	s->reassemblies++;
	if (!ag->rmpp_charged++)
		list_add_tail(&ag->rmpp_node, &port->rmpp_agents);
	n = atomic_inc_return(&port->rmpp_reassemblies);
	spin_unlock_bh(&port->rmpp_src_lock);
	madcm_rmpp_peak_int(&port->rmpp_peak_reassemblies, n);
	return s;
refuse:
	spin_unlock_bh(&port->rmpp_src_lock);
	return NULL;
}

/* More memory for a reassembly in progress, if the budgets allow. */
static bool madcm_rmpp_charge(struct madcm_port *port,
			      struct madcm_rmpp_rx *rx, unsigned long bytes,
			      enum madcm_port_counter *why)
{
	bool ok;

	spin_lock_bh(&port->rmpp_src_lock);
	ok = madcm_rmpp_src_fits(port, rx->src, bytes, why);
	spin_unlock_bh(&port->rmpp_src_lock);
	if (ok)
		rx->charged += bytes;
	return ok;
}

/* The reassembly ends, or goes to the agent: give back its budget. */
static void madcm_rmpp_uncharge(struct madcm_agent *ag,
				struct madcm_rmpp_rx *rx)
{
	struct madcm_port *port = ag->port;
	struct madcm_rmpp_src *s = rx->src;

	if (!s)
		return;
	spin_lock_bh(&port->rmpp_src_lock);
	atomic_long_sub(rx->charged, &port->rmpp_bytes);
	atomic_dec(&port->rmpp_reassemblies);
	if (!--ag->rmpp_charged)
		list_del(&ag->rmpp_node);
	s->bytes -= rx->charged;
	if (!--s->reassemblies)
		hash_del(&s->node);
	else
		s = NULL;
	spin_unlock_bh(&port->rmpp_src_lock);
	kfree(s);
	rx->src = NULL;
	rx->charged = 0;
}

static void madcm_rmpp_rx_free(struct madcm_rmpp_rx *rx)
{
	madcm_rmpp_map_free(rx->map);
	kfree(rx->rv);
	kfree(rx);
}

/* Take a transfer out of the agent's tables; lock held. */
static void madcm_rmpp_rx_unlink(struct madcm_agent *ag,
				 struct madcm_rmpp_rx *rx)
{
	rhashtable_remove_fast(&ag->rmpp_rx, &rx->hnode, madcm_rmpp_rx_params);
	list_del_init(&rx->lru);
	madcm_rmpp_uncharge(ag, rx);
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
 * How many of an agent's least recently active transfers (records of
 * completed ones included) an eviction looks at, and how many agents
 * with reassemblies in progress: the choice is O(1), whatever the number
 * of reassemblies and agents.
 */
#define MADCM_RMPP_EVICT_SCAN	32
#define MADCM_RMPP_EVICT_AGENTS	8

/*
 * The agent's best victim: among the first MADCM_RMPP_EVICT_SCAN of its
 * LRU, the reassembly in progress with the fewest segments in order and
 * at most its first, the least recently active of those. NULL when
 * there is none. Lock held.
 */
static struct madcm_rmpp_rx *madcm_rmpp_idle_pick(struct madcm_agent *ag)
{
	struct madcm_rmpp_rx *rx, *victim = NULL;
	int seen = 0;

	list_for_each_entry(rx, &ag->rmpp_lru, lru) {
		if (++seen > MADCM_RMPP_EVICT_SCAN)
			break;
		if (rx->complete)
			continue;
		if (rx->contig <= 1 && (!victim || rx->contig < victim->contig))
			victim = rx;
	}
	return victim;
}

/*
 * End @ag's best victim with a STOP (resources exhausted, 13.6.3.3).
 * Return it, unlinked, to free once the lock is dropped, or NULL. Lock
 * held.
 */
static struct madcm_rmpp_rx *madcm_rmpp_rx_evict_idle(struct madcm_agent *ag)
{
	struct madcm_rmpp_rx *victim = madcm_rmpp_idle_pick(ag);

	if (!victim)
		return NULL;
	madcm_port_count(ag->port, MADCM_CNT_RMPP_RX_EVICTED);
	madcm_rmpp_ctl_send(ag->port, &victim->dest, victim->tmpl,
			    sizeof(victim->tmpl), true, IB_MGMT_RMPP_TYPE_STOP,
			    IB_MGMT_RMPP_STATUS_RESX, 0, 0);
	madcm_rmpp_rx_unlink(ag, victim);
	return victim;
}

/*
 * The port's budget is spent and a new transfer wants in: end the
 * reassembly that made the least progress (none past its first
 * segment), the least recently active of those, whichever agent of the
 * port it belongs to: the budget is the port's. MADCM_RMPP_EVICT_AGENTS
 * agents are looked at, and the port's list is turned so that the next
 * eviction starts past them. A flood of first segments from many
 * sources (spoofed source addresses on RoCE) then only evicts itself,
 * at whichever agent it aims, and a sender that keeps making progress is
 * never shut out. Return the reassembly, unlinked, to free, or NULL. No
 * lock held: each agent's lock is taken in turn, never two at once.
 */
static struct madcm_rmpp_rx *madcm_rmpp_rx_evict_port(struct madcm_port *port)
{
	struct madcm_agent *cand[MADCM_RMPP_EVICT_AGENTS], *a, *best = NULL;
	struct madcm_rmpp_rx *rx, *victim = NULL;
	unsigned long best_at = 0;
	u32 best_contig = 0;
	int i, n = 0;

	spin_lock_bh(&port->rmpp_src_lock);
	list_for_each_entry(a, &port->rmpp_agents, rmpp_node) {
		if (n == MADCM_RMPP_EVICT_AGENTS)
			break;
		/* An agent whose last reference is gone is being freed. */
		if (madcm_agent_get(a))
			cand[n++] = a;
	}
	if (n && !list_is_last(&cand[n - 1]->rmpp_node, &port->rmpp_agents))
		list_rotate_to_front(cand[n - 1]->rmpp_node.next,
				     &port->rmpp_agents);
	spin_unlock_bh(&port->rmpp_src_lock);

	for (i = 0; i < n; i++) {
		a = cand[i];
		spin_lock_bh(&a->lock);
		rx = madcm_rmpp_idle_pick(a);
		if (rx && (!best || rx->contig < best_contig ||
			   (rx->contig == best_contig &&
			    time_before(rx->active_at, best_at)))) {
			best = a;
			best_contig = rx->contig;
			best_at = rx->active_at;
		}
		spin_unlock_bh(&a->lock);
	}
	if (best) {
		/* Its choice again: the one seen may have moved on since. */
		spin_lock_bh(&best->lock);
		victim = madcm_rmpp_rx_evict_idle(best);
		spin_unlock_bh(&best->lock);
	}
	for (i = 0; i < n; i++)
		madcm_agent_put(cand[i]);
	return victim;
}

/* What a reassembly holds besides its pages and its map. */
static size_t madcm_rmpp_rx_fixed(u32 mad_size)
{
	return sizeof(struct madcm_rmpp_rx) + sizeof(struct madcm_recv) +
	       mad_size;
}

/*
 * A new transfer from its segment 1: check its PayloadLength against the
 * limits, take the sender's budget for what segment 1 holds (the
 * receive completion, the map of the first window), nothing more. Return
 * it, or NULL with the type and status of the refusal in @type and
 * @status, and for a STOP the counter of the limit in @why; @port_full
 * is set when it is the port's budget (count or bytes) that is spent.
 */
static struct madcm_rmpp_rx *madcm_rmpp_rx_new(struct madcm_agent *ag,
					       const struct madcm_recv *rv,
					       u8 *type, u8 *status,
					       enum madcm_port_counter *why,
					       bool *port_full)
{
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr((void *)rv->mad);
	u32 mad_size = rv->recv_wc.mad_seg_size;
	u32 data = madcm_rmpp_data_size(mad_size);
	u32 paylen = be32_to_cpu(rh->paylen_newwin);
	u32 per_page = madcm_rmpp_per_page(mad_size);
	u32 nseg, npages, win = max(READ_ONCE(madcm_rmpp_window), 1U);
	struct madcm_rmpp_src *spare;
	struct madcm_rmpp_map *map;
	struct madcm_rmpp_rx *rx;
	struct madcm_recv *big;
	unsigned long bytes;
	u64 whole;

	*type = IB_MGMT_RMPP_TYPE_ABORT;
	*status = IB_MGMT_RMPP_STATUS_BAD_LEN;
	if (!paylen)
		return NULL;
	if ((ib_get_rmpp_flags(rh) & IB_MGMT_RMPP_FLAG_LAST) && paylen > data)
		return NULL;
	/* In 32 bits: no 64-bit division on 32-bit kernels, no overflow. */
	nseg = paylen / data + !!(paylen % data);

	*type = IB_MGMT_RMPP_TYPE_STOP;
	*status = IB_MGMT_RMPP_STATUS_RESX;
	/*
	 * A transfer that could never complete within a limit is refused
	 * now. Nothing else is taken on the word of PayloadLength: memory
	 * comes as segments do. In 64 bits on every architecture.
	 */
	npages = madcm_rmpp_pages_for(nseg, per_page);
	whole = (u64)npages * PAGE_SIZE + madcm_rmpp_map_size(npages, per_page) +
		madcm_rmpp_rx_fixed(mad_size);
	*why = MADCM_CNT_RMPP_RX_LIMIT;
	if (whole > READ_ONCE(madcm_rmpp_max_reassembly_bytes))
		return NULL;
	*why = MADCM_CNT_RMPP_RX_SOURCE_LIMIT;
	if (whole > READ_ONCE(madcm_rmpp_max_source_bytes))
		return NULL;

	*why = MADCM_CNT_RMPP_RX_LIMIT;
	npages = madcm_rmpp_pages_for(min(nseg, win), per_page);
	rx = madcm_fault(MADCM_FAULT_RMPP_REASM) ? NULL :
		kzalloc(sizeof(*rx), GFP_KERNEL);
	spare = madcm_fault(MADCM_FAULT_RMPP_REASM) ? NULL :
		kzalloc(sizeof(*spare), GFP_KERNEL);
	big = madcm_fault(MADCM_FAULT_RMPP_RX) ? NULL :
		kzalloc(sizeof(*big) + mad_size, GFP_KERNEL);
	map = madcm_fault(MADCM_FAULT_RMPP_REASM) ? NULL :
		madcm_rmpp_map_alloc(npages, mad_size);
	if (!rx || !spare || !big || !map)
		goto fail;
	bytes = madcm_rmpp_rx_fixed(mad_size) +
		madcm_rmpp_map_size(npages, per_page);
	rx->src = madcm_rmpp_src_start(ag, rv, bytes, &spare, why,
				       port_full);
	if (!rx->src)
		goto fail;
	kfree(spare);
	madcm_recv_key(rv, &rx->key);
	INIT_LIST_HEAD(&rx->lru);
	rx->charged = bytes;
	rx->mad_size = mad_size;
	rx->nseg = nseg;
	rx->paylen = paylen;
	rx->newwin = win;
	rx->rv = big;
	rx->map = map;
	rx->active_at = jiffies;
	rx->acked_at = jiffies - 1;
	madcm_rmpp_dest_from_recv(rv, &rx->dest);
	memcpy(rx->tmpl, rv->mad, MADCM_RMPP_TMPL);
	big->port = ag->port;
	big->wc = rv->wc;
	big->grh = rv->grh;
	return rx;
fail:
	madcm_rmpp_map_free(map);
	kfree(big);
	kfree(spare);
	kfree(rx);
	return NULL;
}

/*
 * Tell the sender of @rv that its transfer cannot go on for want of
 * resources (STOP, status 1), and count why.
 */
static void madcm_rmpp_rx_refuse(struct madcm_port *port,
				 const struct madcm_recv *rv,
				 enum madcm_port_counter why)
{
	struct madcm_rmpp_dest dest;

	madcm_port_count(port, why);
	madcm_rmpp_dest_from_recv(rv, &dest);
	madcm_rmpp_ctl_send(port, &dest, rv->mad, rv->recv_wc.mad_seg_size,
			    true, IB_MGMT_RMPP_TYPE_STOP,
			    IB_MGMT_RMPP_STATUS_RESX, 0, 0);
}

static void madcm_rmpp_rx_ack(struct madcm_agent *ag,
			      struct madcm_rmpp_rx *rx)
{
	madcm_rmpp_ctl_send(ag->port, &rx->dest, rx->tmpl, sizeof(rx->tmpl),
			    true, IB_MGMT_RMPP_TYPE_ACK, 0, rx->contig,
			    rx->newwin);
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
	struct ib_mad_recv_buf *rb;
	u32 seg;

	wc->wc = &big->wc;
	wc->recv_buf.mad = (struct ib_mad *)big->mad;
	wc->recv_buf.grh = &big->grh;
	INIT_LIST_HEAD(&wc->rmpp_list);
	list_add_tail(&wc->recv_buf.list, &wc->rmpp_list);
	for (seg = 2; seg <= rx->nseg; seg++) {
		void *mad = madcm_rmpp_map_seg(rx->map, seg, &rb);

		rb->mad = mad;
		rb->grh = &big->grh;
		list_add_tail(&rb->list, &wc->rmpp_list);
	}
	/* One copy of the headers, then every segment's data (13.6.2.3). */
	wc->mad_len = hdr_size + (size_t)rx->nseg * (rx->mad_size - hdr_size) -
		      (data - rx->last_paylen);
	wc->mad_seg_size = rx->mad_size;
	big->rmpp_map = rx->map;
	rx->map = NULL;
	rx->rv = NULL;
	rx->complete = true;
	ag->rmpp_done_nr++;
	madcm_rmpp_uncharge(ag, rx);
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
 * Where segment @seg (2 or more) of @rx goes: its page, added from @g if
 * the budgets allow. NULL with *@err -EAGAIN when @g must bring memory
 * first, -ENOSPC (and the counter of the limit in @why) when it cannot
 * be had. Lock held.
 */
static void *madcm_rmpp_rx_room(struct madcm_port *port,
				struct madcm_rmpp_rx *rx, u32 seg,
				struct madcm_rmpp_grow *g, int *err,
				enum madcm_port_counter *why)
{
	struct madcm_rmpp_map *map = rx->map;
	u32 p = (seg - 2) / map->per_page;
	void *dst = madcm_rmpp_map_seg(map, seg, NULL);
	size_t old_size, new_size;

	if (dst)
		return dst;
	*err = -ENOSPC;
	*why = MADCM_CNT_RMPP_RX_LIMIT;
	if (g->failed)
		return NULL;
	*err = -EAGAIN;
	g->mad_size = rx->mad_size;
	if (p >= map->npages) {
		if (!g->map || g->map->npages <= p ||
		    g->map->mad_size != rx->mad_size) {
			/* Doubling: a transfer of n pages copies O(n). */
			g->want_npages = min(max(2 * map->npages, p + 1),
					     madcm_rmpp_pages_for(rx->nseg,
								  map->per_page));
			g->want_page = true;
			return NULL;
		}
		old_size = madcm_rmpp_map_size(map->npages, map->per_page);
		new_size = madcm_rmpp_map_size(g->map->npages, map->per_page);
		if (!madcm_rmpp_charge(port, rx, new_size - old_size, why)) {
			*err = -ENOSPC;
			return NULL;
		}
		madcm_rmpp_map_move(g->map, map);
		g->old = map;
		map = g->map;
		rx->map = map;
		g->map = NULL;
	}
	if (!g->page) {
		g->want_page = true;
		return NULL;
	}
	if (!madcm_rmpp_charge(port, rx, PAGE_SIZE, why)) {
		*err = -ENOSPC;
		return NULL;
	}
	map->pages[p] = g->page;
	g->page = NULL;
	return madcm_rmpp_map_seg(map, seg, NULL);
}

/* Bring what madcm_rmpp_rx_room() asked for; lock not held. */
static void madcm_rmpp_grow_alloc(struct madcm_rmpp_grow *g)
{
	madcm_rmpp_map_free(g->old);
	g->old = NULL;
	if (g->want_npages && (!g->map || g->map->npages < g->want_npages ||
			       g->map->mad_size != g->mad_size)) {
		madcm_rmpp_map_free(g->map);
		g->map = madcm_rmpp_map_alloc(g->want_npages, g->mad_size);
		if (!g->map)
			g->failed = true;
	}
	if (g->want_page && !g->page) {
		g->page = madcm_fault(MADCM_FAULT_RMPP_RX) ? NULL :
			alloc_page(GFP_KERNEL | __GFP_NOWARN);
		if (!g->page)
			g->failed = true;
	}
	g->want_npages = 0;
	g->want_page = false;
}

static void madcm_rmpp_grow_release(struct madcm_rmpp_grow *g)
{
	madcm_rmpp_map_free(g->old);
	madcm_rmpp_map_free(g->map);
	if (g->page)
		__free_page(g->page);
}

/*
 * One DATA segment of a transfer in progress; lock held. Return 0, the
 * status of the ABORT the transfer ends with, -EAGAIN when @g must bring
 * memory first (then call again), or -ENOSPC when the transfer ends with
 * a STOP for the limit counted in @why. Sets *@done when the transfer is
 * complete.
 */
static int madcm_rmpp_rx_segment(struct madcm_agent *ag,
				 struct madcm_rmpp_rx *rx,
				 const struct madcm_recv *rv,
				 struct madcm_rmpp_grow *g, bool *done,
				 enum madcm_port_counter *why)
{
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr((void *)rv->mad);
	u32 seg = be32_to_cpu(rh->seg_num);
	u32 paylen = be32_to_cpu(rh->paylen_newwin);
	u32 data = madcm_rmpp_data_size(rx->mad_size);
	bool last = ib_get_rmpp_flags(rh) & IB_MGMT_RMPP_FLAG_LAST;
	size_t len = min_t(size_t, rv->recv_wc.mad_len, rx->mad_size);
	struct madcm_port *port = ag->port;
	u32 win = max(READ_ONCE(madcm_rmpp_window), 1U);
	int err = 0;
	u8 *dst;

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
	if (seg <= rx->contig || madcm_rmpp_map_seen(rx->map, seg)) {
		madcm_port_count(port, MADCM_CNT_RMPP_RX_DUP);
		madcm_rmpp_rx_dup_ack(ag, rx);
		/* The responder resends after losing our ACK: still alive. */
		madcm_rmpp_rx_push_request(ag, rx);
		return 0;
	}
	dst = seg == 1 ? rx->rv->mad :
		madcm_rmpp_rx_room(port, rx, seg, g, &err, why);
	if (!dst)
		return err;
	memcpy(dst, rv->mad, len);
	/* A short OPA segment: no stale bytes behind it. */
	memset(dst + len, 0, rx->mad_size - len);
	__set_bit(seg - 1, rx->map->seen);
	if (last)
		rx->last_paylen = paylen;
	madcm_port_count(port, MADCM_CNT_RMPP_RX_SEG);
	rx->active_at = jiffies;
	list_move_tail(&rx->lru, &ag->rmpp_lru);
	madcm_rmpp_rx_push_request(ag, rx);

	while (rx->contig < rx->nseg &&
	       madcm_rmpp_map_seen(rx->map, rx->contig + 1))
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

/*
 * Whether a response's segment 1 answers a request of the agent that
 * still waits for it (13.4.6.4); lock held. Nothing is allocated for one
 * that does not: ib_core drops it too once reassembled.
 */
static bool madcm_rmpp_rx_solicited(struct madcm_agent *ag,
				    const struct madcm_recv *rv,
				    const struct madcm_tid_key *key)
{
	return !madcm_response_mad((const struct ib_mad_hdr *)rv->mad) ||
	       madcm_send_lookup(ag, key, MADCM_LOOKUP_RESPONSE);
}

/* A DATA segment for a kernel-RMPP agent. Takes over @rv. */
static void madcm_rmpp_recv_data(struct madcm_agent *ag, struct madcm_recv *rv)
{
	struct ib_rmpp_hdr *rh = madcm_rmpp_hdr(rv->mad);
	u32 seg = be32_to_cpu(rh->seg_num);
	bool first = ib_get_rmpp_flags(rh) & IB_MGMT_RMPP_FLAG_FIRST;
	struct madcm_rmpp_rx *rx, *gone = NULL, *evicted = NULL, *old;
	struct madcm_port *port = ag->port;
	struct madcm_rmpp_grow g = {};
	struct madcm_recv *big = NULL;
	enum madcm_port_counter why;
	struct madcm_tid_key key;
	bool done = false, full = false;
	int ret, tries = 0;
	u8 type, status = 0;

	if (rh->rmpp_status)
		status = IB_MGMT_RMPP_STATUS_BAD_STATUS;
	else if (!seg || (seg == 1) != first)
		status = IB_MGMT_RMPP_STATUS_BAD_SEG;
	if (status) {
		madcm_rmpp_nack(port, rv, IB_MGMT_RMPP_TYPE_ABORT, status);
		goto out;
	}
	madcm_recv_key(rv, &key);
again:
	spin_lock_bh(&ag->lock);
	rx = rhashtable_lookup_fast(&ag->rmpp_rx, &key, madcm_rmpp_rx_params);
	if (!rx && seg == 1) {
		if (!madcm_rmpp_rx_solicited(ag, rv, &key)) {
			spin_unlock_bh(&ag->lock);
			madcm_port_count(port, MADCM_CNT_RMPP_RX_UNSOLICITED);
			goto out;
		}
		spin_unlock_bh(&ag->lock);
		rx = madcm_rmpp_rx_new(ag, rv, &type, &status, &why, &full);
		if (!rx && full) {
			/* Room made by an idle one, once: then again. */
			evicted = madcm_rmpp_rx_evict_port(port);
			if (evicted) {
				madcm_rmpp_rx_free(evicted);
				evicted = NULL;
				full = false;
				rx = madcm_rmpp_rx_new(ag, rv, &type, &status,
						       &why, &full);
			}
		}
		if (!rx) {
			if (type == IB_MGMT_RMPP_TYPE_STOP)
				madcm_rmpp_rx_refuse(port, rv, why);
			else
				madcm_rmpp_nack(port, rv, type, status);
			goto out;
		}
		spin_lock_bh(&ag->lock);
		old = rhashtable_lookup_get_insert_fast(&ag->rmpp_rx,
							&rx->hnode,
							madcm_rmpp_rx_params);
		if (old) {
			/* Another copy of segment 1 was faster, or no memory. */
			madcm_rmpp_uncharge(ag, rx);
			gone = rx;
			rx = IS_ERR(old) ? NULL : old;
		} else {
			list_add_tail(&rx->lru, &ag->rmpp_lru);
			madcm_rmpp_gc_arm(ag);
		}
	}
	if (!rx) {
		madcm_port_count(port, MADCM_CNT_RMPP_RX_STRAY);
	} else if (rx->complete) {
		/*
		 * The sender missed our final ACK, or the fabric delivered a
		 * segment twice: say it again. A new transfer that reuses the
		 * TID of one completed less than rmpp_recv_timeout_ms ago is
		 * taken for a duplicate too, as by ib_core.
		 */
		madcm_port_count(port, MADCM_CNT_RMPP_RX_DUP);
		madcm_rmpp_rx_dup_ack(ag, rx);
	} else {
		ret = madcm_rmpp_rx_segment(ag, rx, rv, &g, &done, &why);
		if (ret == -EAGAIN && ++tries < 4) {
			/* Its page (or a larger map): allocate, then again. */
			spin_unlock_bh(&ag->lock);
			if (gone)
				madcm_rmpp_rx_free(gone);
			gone = NULL;
			madcm_rmpp_grow_alloc(&g);
			goto again;
		}
		if (ret < 0) {
			madcm_rmpp_rx_refuse(port, rv, ret == -ENOSPC ? why :
					     MADCM_CNT_RMPP_RX_LIMIT);
			madcm_rmpp_rx_unlink(ag, rx);
			gone = rx;
		} else if (ret) {
			madcm_rmpp_nack(port, rv, IB_MGMT_RMPP_TYPE_ABORT, ret);
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
	madcm_rmpp_grow_release(&g);
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
			madcm_rmpp_ctl_send(ag->port, &rx->dest, rx->tmpl,
					    sizeof(rx->tmpl), true,
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
	INIT_LIST_HEAD(&ag->rmpp_node);
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
	rhashtable_free_and_destroy(&ag->rmpp_rx, madcm_rmpp_rx_destroy, ag);
}

/* The port's RMPP gauges, for its counters file. */
void madcm_rmpp_port_show(struct seq_file *s, struct madcm_port *port)
{
	struct madcm_rmpp_src *src;
	unsigned int bkt, nr = 0;

	spin_lock_bh(&port->rmpp_src_lock);
	hash_for_each(port->rmpp_src, bkt, src, node)
		nr++;
	spin_unlock_bh(&port->rmpp_src_lock);
	seq_printf(s, "rmpp_sources %u\n", nr);
	seq_printf(s, "rmpp_reassemblies %d\n",
		   atomic_read(&port->rmpp_reassemblies));
	seq_printf(s, "rmpp_reassembly_bytes %ld\n",
		   atomic_long_read(&port->rmpp_bytes));
	seq_printf(s, "rmpp_reassemblies_peak %d\n",
		   atomic_read(&port->rmpp_peak_reassemblies));
	seq_printf(s, "rmpp_reassembly_bytes_peak %ld\n",
		   atomic_long_read(&port->rmpp_peak_bytes));
}
