// SPDX-License-Identifier: GPL-2.0-only
/*
 * Send buffers: madcm_create_send_mad() with the semantics of
 * ib_create_send_mad().
 *
 * A MAD without RMPP is one object of a kmem_cache: struct madcm_send,
 * then the whole MAD (256 bytes for IB, 2048 for OPA), all of it zeroed.
 *
 * An RMPP buffer is a control block (struct madcm_send, the headers, a
 * bitmap with a bit per segment, a table of pages), and the data in
 * order-0 pages, each holding PAGE_SIZE / seg_size whole segments: no
 * segment straddles a page, nothing is vmalloc'ed, and segment n is at a
 * computed page and offset: O(1). The data pages are not zeroed when the
 * buffer is created; a segment is zeroed the first time
 * madcm_get_rmpp_segment() hands it out, to the ULP that fills it or to
 * the sender that copies it to the wire. So every byte still reads as zero
 * until the ULP writes it, as if the whole buffer had been zeroed, and no
 * stale kernel memory is ever sent, while creating a buffer costs nothing
 * in proportion to its size but the page allocation.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/bitmap.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <madcm/mad.h>

#include "fault.h"
#include "mad_priv.h"

static struct kmem_cache *madcm_send_cache_ib;
static struct kmem_cache *madcm_send_cache_opa;

/*
 * Padding that fills the last segment: a message is sent in pieces of
 * mad_size - hdr_len data bytes each, and an empty message still fills one.
 */
static int madcm_pad_size(int hdr_len, int data_len, int mad_size)
{
	int seg_size = mad_size - hdr_len;
	int rem;

	if (!data_len || !seg_size)
		return seg_size;
	rem = data_len % seg_size;
	return rem ? seg_size - rem : 0;
}

/*
 * The data pages come in chunks of up to 2^MADCM_SEG_CHUNK_ORDER pages:
 * fewer calls to the page allocator, and no order above what it deems
 * cheap. A chunk is a compound page, so freeing finds its order.
 */
#define MADCM_SEG_CHUNK_ORDER	PAGE_ALLOC_COSTLY_ORDER

/*
 * Whole chunks of freed buffers wait in a small pool for the next buffer.
 * On a kernel with init_on_alloc (Debian's default) the page allocator
 * zeroes each page it hands out, which costs more than everything else
 * in a large buffer together; madcm zeroes a segment itself before anyone
 * sees it, so a recycled chunk is as clean, to the ULP and to the wire, as
 * a new one. The pool keeps at most MADCM_SEG_POOL_CHUNKS chunks (2 MiB
 * with 4 KiB pages), given back when the module is unloaded.
 */
#define MADCM_SEG_POOL_CHUNKS	64

static LIST_HEAD(madcm_seg_pool);
static unsigned int madcm_seg_pool_len;
static DEFINE_SPINLOCK(madcm_seg_pool_lock);

static struct page *madcm_seg_pool_get(void)
{
	struct page *page = NULL;
	unsigned long flags;

	spin_lock_irqsave(&madcm_seg_pool_lock, flags);
	if (madcm_seg_pool_len) {
		page = list_first_entry(&madcm_seg_pool, struct page, lru);
		list_del(&page->lru);
		madcm_seg_pool_len--;
	}
	spin_unlock_irqrestore(&madcm_seg_pool_lock, flags);
	return page;
}

/* Keep a whole chunk for the next buffer, or give it back. */
static void madcm_seg_chunk_put(struct page *page, unsigned int order)
{
	unsigned long flags;
	bool kept = false;

	if (order == MADCM_SEG_CHUNK_ORDER) {
		spin_lock_irqsave(&madcm_seg_pool_lock, flags);
		if (madcm_seg_pool_len < MADCM_SEG_POOL_CHUNKS) {
			list_add(&page->lru, &madcm_seg_pool);
			madcm_seg_pool_len++;
			kept = true;
		}
		spin_unlock_irqrestore(&madcm_seg_pool_lock, flags);
	}
	if (!kept)
		__free_pages(page, order);
}

static void madcm_seg_pool_drain(void)
{
	struct page *page;

	while ((page = madcm_seg_pool_get()))
		__free_pages(page, MADCM_SEG_CHUNK_ORDER);
}

/* The kmem_caches of MADs without RMPP. */
int madcm_send_buf_init(void)
{
	madcm_send_cache_ib =
		kmem_cache_create("madcm_send_ib",
				  sizeof(struct madcm_send) +
				  sizeof(struct ib_mad),
				  __alignof__(struct madcm_send), 0, NULL);
	madcm_send_cache_opa =
		kmem_cache_create("madcm_send_opa",
				  sizeof(struct madcm_send) +
				  sizeof(struct opa_mad),
				  __alignof__(struct madcm_send), 0, NULL);
	if (!madcm_send_cache_ib || !madcm_send_cache_opa) {
		madcm_send_buf_exit();
		return -ENOMEM;
	}
	return 0;
}

void madcm_send_buf_exit(void)
{
	madcm_seg_pool_drain();
	kmem_cache_destroy(madcm_send_cache_opa);
	kmem_cache_destroy(madcm_send_cache_ib);
	madcm_send_cache_opa = NULL;
	madcm_send_cache_ib = NULL;
}

/* Free the data pages of an RMPP buffer, and its control block. */
static void madcm_send_rmpp_free(struct madcm_send *ms)
{
	u32 npages = DIV_ROUND_UP(ms->send_buf.seg_count, ms->seg_per_page);
	u32 i = 0;

	while (i < npages && ms->seg_pages[i]) {
		unsigned int order = compound_order(ms->seg_pages[i]);

		madcm_seg_chunk_put(ms->seg_pages[i], order);
		i += 1U << order;
	}
	madcm_kvfree_any(ms);
}

/* Fill @pages with @npages pages, in chunks as large as will come. */
static int madcm_seg_pages_alloc(struct page **pages, u32 npages, gfp_t gfp)
{
	struct page *page;
	unsigned int order;
	u32 i = 0, k;

	while (i < npages) {
		order = min_t(unsigned int, MADCM_SEG_CHUNK_ORDER,
			      ilog2(npages - i));
		page = order == MADCM_SEG_CHUNK_ORDER ? madcm_seg_pool_get() :
			NULL;
		while (!page) {
			page = alloc_pages(order ? gfp | __GFP_COMP |
					   __GFP_NORETRY : gfp, order);
			if (page || !order)
				break;
			order--;
		}
		if (!page)
			return -ENOMEM;
		for (k = 0; k < 1U << order; k++)
			pages[i + k] = nth_page(page, k);
		i += 1U << order;
	}
	return 0;
}

/*
 * The control block of an RMPP buffer, zeroed: struct madcm_send, the
 * headers (rounded up to a long), the bitmap of segments handed out, the
 * page table; then the data pages, not zeroed. NULL when out of memory.
 */
static struct madcm_send *madcm_send_rmpp_alloc(int hdr_len, int seg_size,
						int seg_count, gfp_t gfp)
{
	u32 per_page = PAGE_SIZE / seg_size;
	u32 npages = DIV_ROUND_UP(seg_count, per_page);
	size_t bitmap_off = ALIGN(hdr_len, sizeof(long));
	size_t pages_off = bitmap_off + BITS_TO_LONGS(seg_count) *
			   sizeof(long);
	struct madcm_send *ms;

	ms = kvzalloc(struct_size(ms, buf, pages_off +
				  npages * sizeof(struct page *)),
		      gfp | __GFP_NOWARN);
	if (!ms)
		return NULL;
	ms->rmpp = true;
	ms->seg_per_page = per_page;
	ms->seg_used = (unsigned long *)(ms->buf + bitmap_off);
	ms->seg_pages = (struct page **)(ms->buf + pages_off);
	/* seg_count is read back when the pages are freed. */
	ms->send_buf.seg_count = seg_count;
	/* Low memory only: the segments are reached by page_address(). */
	gfp &= ~(__GFP_HIGHMEM | __GFP_ZERO);
	if (madcm_seg_pages_alloc(ms->seg_pages, npages, gfp | __GFP_NOWARN)) {
		madcm_send_rmpp_free(ms);
		return NULL;
	}
	return ms;
}

/**
 * madcm_create_send_mad() - allocate and initialize a buffer for sending a MAD
 * @mad_agent: the registered MAD agent (from madcm_register_mad_agent())
 *	to associate with the MAD: its port sends it, its send handler gets
 *	the completion and its recv handler any response
 * @remote_qpn: the QP number of the receiving node: 0 for an SMP, 1 for a
 *	GMP to a port's GSI, or the QP that madcm_port_qpn() gives for a
 *	madcm peer on an ib_core device
 * @pkey_index: the index of the P_Key to send the MAD with; valid only
 *	when @remote_qpn is QP1. A port that cannot send with that index
 *	refuses the buffer (on an ib_core device, madcm's UD QP sends on
 *	index 0 only: a UD QP other than QP1 ignores the index of a work
 *	request)
 * @rmpp_active: non-zero to send the MAD as an RMPP transfer; the agent
 *	must do kernel RMPP (see madcm_mad_kernel_rmpp_agent())
 * @hdr_len: the size of the headers of the MAD: the common MAD header,
 *	the RMPP header and any class-specific header, all three
 * @data_len: the size of the data that follows the headers; the
 *	allocation is rounded up for any padding that is needed
 * @gfp_mask: the GFP mask of the memory allocation
 * @base_version: the base version of the MAD: OPA_MGMT_BASE_VERSION (0x80)
 *	on an OPA port makes an OPA MAD of 2048 bytes, anything else an IB
 *	MAD of 256 bytes
 *
 * The madcm twin of ib_create_send_mad(), with its semantics. The send
 * buffer returned references a data buffer usable for sending a MAD
 * (send_buf->mad) and carries what the send needs besides the MAD:
 * send_buf->ah, timeout_ms, retries and context[], which the caller sets.
 * The caller may modify the data buffer as it likes until it posts the
 * send with madcm_post_send_mad().
 *
 * The common MAD header, the class-specific header and any padding of the
 * returned MAD are cleared. The caller is responsible for initializing the
 * common MAD header, any class-specific header and the data area. The one
 * exception: with @rmpp_active, the RMPP header is initialized for sending
 * (the agent's RMPP version, type DATA, flag ACTIVE); madcm fills in its
 * segment number and length as it sends.
 *
 * The data is padded so that it fills a whole number of segments of (MAD
 * size - @hdr_len) bytes, at least one. Without @rmpp_active, the headers,
 * data and padding must fit in one MAD. With it, the buffer holds the
 * headers in send_buf->mad and the data in send_buf->seg_count segments of
 * send_buf->seg_size bytes, reached with madcm_get_rmpp_segment(). A buffer
 * that is not posted, or that came back through the send handler, is freed
 * with madcm_free_send_mad().
 *
 * What reads as zero: without @rmpp_active, the whole MAD (256 or 2048
 * bytes), data area included. With it, the headers, and every byte of
 * every data segment until the caller writes it: a segment is zeroed the
 * first time madcm_get_rmpp_segment() returns it, to the caller or to the
 * sender that puts it on the wire, so a segment never filled is sent as
 * zeros and no earlier kernel memory is ever sent. Only the seg_size
 * bytes madcm_get_rmpp_segment() returns belong to a segment: segments
 * lie whole in pages, contiguous within a page only.
 *
 * Context: Any context allowed by @gfp_mask (GFP_ATOMIC from atomic
 * context).
 * Return: the send buffer, or an ERR_PTR(): -EINVAL when @hdr_len or
 * @data_len is negative or does not fit the rules above, when the headers
 * are longer than a MAD (or, with @rmpp_active, shorter than the RMPP
 * header or leaving no room for data), when the agent's port cannot send
 * with @pkey_index, or when the agent is being unregistered; -ENOMEM when
 * out of memory.
 */
struct ib_mad_send_buf *
madcm_create_send_mad(struct ib_mad_agent *mad_agent, u32 remote_qpn,
		      u16 pkey_index, int rmpp_active, int hdr_len,
		      int data_len, gfp_t gfp_mask, u8 base_version)
{
	struct madcm_agent *ag;
	struct madcm_send *ms;
	int mad_size, pad, seg_size = 0, seg_count = 0;
	size_t size;
	bool opa;

	if (!mad_agent || hdr_len < 0 || data_len < 0)
		return ERR_PTR(-EINVAL);
	ag = to_madcm_agent(mad_agent);
	/* Never a send on another partition than the one asked for. */
	if (ag->port->attr.nr_pkeys && pkey_index >= ag->port->attr.nr_pkeys)
		return ERR_PTR(-EINVAL);
	mad_size = madcm_port_mad_size(ag->port, base_version);
	opa = mad_size == sizeof(struct opa_mad);
	if (hdr_len > mad_size)
		return ERR_PTR(-EINVAL);
	pad = madcm_pad_size(hdr_len, data_len, mad_size);

	if (madcm_mad_kernel_rmpp_agent(mad_agent)) {
		if (!rmpp_active && (size_t)hdr_len + data_len + pad > mad_size)
			return ERR_PTR(-EINVAL);
	} else if (rmpp_active ||
		   (size_t)hdr_len + data_len + pad > mad_size) {
		return ERR_PTR(-EINVAL);
	}

	if (rmpp_active) {
		if (hdr_len < IB_MGMT_RMPP_HDR || hdr_len == mad_size)
			return ERR_PTR(-EINVAL);
		seg_size = mad_size - hdr_len;
		seg_count = ((size_t)data_len + pad) / seg_size;
		/* The message's size, whatever the layout, is bounded. */
		size = size_add(sizeof(*ms), ALIGN(hdr_len, 8) +
				(size_t)seg_count * seg_size);
		if (size > INT_MAX)
			return ERR_PTR(-EINVAL);
	}

	if (!madcm_agent_get(ag))
		return ERR_PTR(-EINVAL);
	if (READ_ONCE(ag->dying)) {
		madcm_agent_put(ag);
		return ERR_PTR(-EINVAL);
	}
	if (madcm_fault(MADCM_FAULT_SEND_BUF))
		ms = NULL;
	else if (rmpp_active)
		ms = madcm_send_rmpp_alloc(hdr_len, seg_size, seg_count,
					   gfp_mask);
	else
		ms = kmem_cache_zalloc(opa ? madcm_send_cache_opa :
				       madcm_send_cache_ib, gfp_mask);
	if (!ms) {
		madcm_agent_put(ag);
		return ERR_PTR(-ENOMEM);
	}

	ms->agent = ag;
	ms->port = ag->port;
	ms->state = MADCM_SEND_NEW;
	ms->mad_size = mad_size;
	ms->pad = pad;
	INIT_LIST_HEAD(&ms->node);
	ms->send_buf.mad = ms->buf;
	ms->send_buf.mad_agent = mad_agent;
	ms->send_buf.hdr_len = hdr_len;
	ms->send_buf.data_len = data_len;
	ms->remote_qpn = remote_qpn;
	ms->pkey_index = pkey_index;
	/* OPA MADs may be shorter than 2048 bytes; IB MADs never are. */
	if (opa && data_len < mad_size - hdr_len)
		ms->payload_len = data_len;
	else
		ms->payload_len = mad_size - hdr_len;

	if (rmpp_active) {
		struct ib_rmpp_mad *rmpp_mad = ms->send_buf.mad;

		ms->send_buf.seg_size = seg_size;
		ms->send_buf.seg_count = seg_count;
		ms->send_buf.seg_rmpp_size = mad_size - IB_MGMT_RMPP_HDR;
		rmpp_mad->rmpp_hdr.rmpp_version = mad_agent->rmpp_version;
		rmpp_mad->rmpp_hdr.rmpp_type = IB_MGMT_RMPP_TYPE_DATA;
		ib_set_rmpp_flags(&rmpp_mad->rmpp_hdr,
				  IB_MGMT_RMPP_FLAG_ACTIVE);
	}
	atomic_inc(&ag->live_bufs);
	return &ms->send_buf;
}
EXPORT_SYMBOL_GPL(madcm_create_send_mad);

/**
 * madcm_get_rmpp_segment() - the data of one segment of an RMPP send buffer
 * @send_buf: a send buffer created with rmpp_active
 * @seg_num: the segment, from 1 to send_buf->seg_count
 *
 * The madcm twin of ib_get_rmpp_segment(), in constant time: a page and
 * an offset computed from @seg_num. The first call for a segment zeroes
 * it (see madcm_create_send_mad()); later calls return what was written.
 *
 * Context: Any context.
 * Return: the segment's send_buf->seg_size bytes of data, or NULL when
 * @send_buf has no segments or @seg_num is out of range.
 */
void *madcm_get_rmpp_segment(struct ib_mad_send_buf *send_buf, int seg_num)
{
	struct madcm_send *ms;
	u32 i, seg_size;
	u8 *seg;

	if (!send_buf)
		return NULL;
	ms = to_madcm_send(send_buf);
	if (!ms->rmpp || seg_num < 1 || seg_num > send_buf->seg_count)
		return NULL;
	i = seg_num - 1;
	seg_size = send_buf->seg_size;
	seg = page_address(ms->seg_pages[i / ms->seg_per_page]) +
	      (i % ms->seg_per_page) * seg_size;
	/* First hand-out: zero it, before the ULP or the wire sees it. */
	if (!test_bit(i, ms->seg_used) && !test_and_set_bit(i, ms->seg_used))
		memset(seg, 0, seg_size);
	return seg;
}
EXPORT_SYMBOL_GPL(madcm_get_rmpp_segment);

/* Free the buffer and drop its agent reference. */
void madcm_send_buf_release(struct madcm_send *ms)
{
	struct madcm_agent *ag = ms->agent;

	atomic_dec(&ag->live_bufs);
	if (ms->rmpp)
		madcm_send_rmpp_free(ms);
	else if (ms->mad_size == sizeof(struct opa_mad))
		kmem_cache_free(madcm_send_cache_opa, ms);
	else
		kmem_cache_free(madcm_send_cache_ib, ms);
	madcm_agent_put(ag);
}

/**
 * madcm_free_send_mad() - free a send buffer
 * @send_buf: the buffer, from madcm_create_send_mad(), not posted or
 *	already returned through the send handler; NULL is ignored
 *
 * The madcm twin of ib_free_send_mad(). A buffer is the caller's to free
 * when it was never posted, or once its send handler has been called for
 * it. Freeing one the core still holds (posted, waiting for its
 * response, handed to the recv handler with its response, or done but
 * still waiting for its send handler) is a caller bug: it is counted
 * (api_misuse in the port's counters), reported once, and the buffer is
 * left alone; it still comes back through the send handler.
 *
 * Context: Any context but hard interrupt context (a vmalloc'ed control
 * block of a very large RMPP buffer is handed to a work to be vfree'd).
 * Return: Nothing.
 */
void madcm_free_send_mad(struct ib_mad_send_buf *send_buf)
{
	struct madcm_send *ms;
	unsigned long flags;
	bool callers;
	int state;

	if (!send_buf)
		return;
	ms = to_madcm_send(send_buf);
	spin_lock_irqsave(&ms->agent->lock, flags);
	callers = madcm_send_is_callers(ms);
	state = ms->state;
	spin_unlock_irqrestore(&ms->agent->lock, flags);
	if (!callers) {
		madcm_send_misuse(ms, "freeing a send buffer the core holds",
				  state);
		return;
	}
	madcm_send_buf_release(ms);
}
EXPORT_SYMBOL_GPL(madcm_free_send_mad);
