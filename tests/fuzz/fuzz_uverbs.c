// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: what the kernel takes from a process's SQ and RQ
 * rings (soft-iWARP's user ABI): madcm_rnic_usq_take() and
 * madcm_rnic_urq_take() with the fetch and the SQE/RQE to WQE conversion
 * under them (rnic/uwqe.c, compiled unchanged).
 *
 * Input: four control octets, then the ring's entries.
 *   octet 0: bit 0: the RQ (else the SQ); bits 1-3: the ring's size,
 *            0 or 1 << (n - 1) slots (0 .. 64);
 *   octet 1: the QP's max_sge, any value (the ABI's SIW_MAX_SGE must
 *            bound the SGEs whatever the QP says);
 *   octet 2: where the free-running counts stand (head = 2^32 - 64 +
 *            octet: they wrap within the first ring's worth);
 *   octet 3: entries in flight (tail - head), modulo size + 1;
 *   then:    the slots from the one at tail on, sizeof(siw_sqe) or
 *            sizeof(siw_rqe) octets each; what the input does not cover
 *            is zero (an empty slot).
 *
 * Checked: the counts stay within the ring (head unchanged, tail - head
 * <= size, at most one ring's worth taken); only slots marked valid are
 * taken, in ring order, and each taken slot is handed back (flags 0, the
 * rest as the process wrote it); the taking stops at the first slot not
 * valid or when the queue is full; every entry taken says what its SQE
 * or RQE said, or carries the error status the ABI's rules give it, and
 * no more SGEs than the QP's and the ABI's limits; no other slot of the
 * ring or the queue changes; a second call right after takes nothing.
 * ASan sees every slot as an allocation of its own size.
 */
#include <linux/types.h>
#include "rnic/uwqe.h"

#define CTL_RQ		0x01
#define CTL_SIZE_SHIFT	1
#define CTL_SIZE_MASK	0x07

/* What an entry the harness never wrote holds. */
#define POISON		0xa5

static void fuzz_check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_uverbs: %s\n", what);
		abort();
	}
}

static bool fuzz_poisoned(const void *p, size_t len)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != POISON)
			return false;
	return true;
}

static u32 fuzz_sge_limit(u32 max_sge)
{
	return min_t(u32, max_sge, min_t(u32, SIW_MAX_SGE, MADCM_RNIC_MAX_SGE));
}

static void fuzz_check_sges(const struct ib_sge *w, const struct siw_sge *e,
			    u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		fuzz_check(w[i].addr == e[i].laddr &&
			   w[i].length == e[i].length &&
			   w[i].lkey == e[i].lkey, "an SGE changed on the way");
}

/* @e as the process wrote it (with its flags); @w what the kernel made. */
static void fuzz_check_swqe(const struct siw_sqe *e, u32 max_sge,
			    const struct madcm_rnic_swqe *w)
{
	const u8 *inl = (const u8 *)e->sge + sizeof(e->sge[0]);
	int flags = 0;
	u64 len = 0;
	bool inline_ok = false;
	enum ib_wr_opcode op;
	u32 i;

	fuzz_check(w->wr_id == e->id, "wr_id is not the SQE's id");
	fuzz_check(!w->done && !w->mr && !w->reads_left,
		   "a fresh entry carries tx state");
	if (e->flags & SIW_WQE_SIGNALLED)
		flags |= IB_SEND_SIGNALED;
	if (e->flags & SIW_WQE_SOLICITED)
		flags |= IB_SEND_SOLICITED;
	if (e->flags & SIW_WQE_READ_FENCE)
		flags |= IB_SEND_FENCE;
	fuzz_check(w->num_sge <= fuzz_sge_limit(max_sge),
		   "more SGEs than the QP or the ABI allow");

	switch (e->opcode) {
	case SIW_OP_WRITE:
		op = IB_WR_RDMA_WRITE;
		break;
	case SIW_OP_READ:
		op = IB_WR_RDMA_READ;
		break;
	case SIW_OP_SEND:
		op = IB_WR_SEND;
		break;
	case SIW_OP_SEND_REMOTE_INV:
		op = IB_WR_SEND_WITH_INV;
		fuzz_check(w->inv_rkey == e->rkey,
			   "Send with Invalidate lost its STag");
		break;
	default:
		fuzz_check(w->status == IB_WC_LOC_QP_OP_ERR &&
			   w->opcode == IB_WR_SEND,
			   "an opcode outside the ABI's SQ set is taken");
		fuzz_check(!w->num_sge && !w->len, "a refused SQE has data");
		return;
	}
	fuzz_check(w->opcode == op, "the opcode changed on the way");
	fuzz_check(w->remote_addr == e->raddr && w->rkey == e->rkey,
		   "the remote address or STag changed on the way");

	if (e->flags & SIW_WQE_INLINE) {
		len = e->sge[0].length;
		if (op == IB_WR_RDMA_READ)
			fuzz_check(w->status == IB_WC_LOC_QP_OP_ERR,
				   "a Read with inline data is taken");
		else if (len > SIW_MAX_INLINE)
			fuzz_check(w->status == IB_WC_LOC_LEN_ERR,
				   "inline data over SIW_MAX_INLINE is taken");
		else
			inline_ok = true;
		if (!inline_ok) {
			fuzz_check(!w->num_sge && !w->len &&
				   w->send_flags == flags,
				   "a refused inline SQE has data");
			return;
		}
		fuzz_check(w->status == IB_WC_SUCCESS &&
			   w->send_flags == (flags | IB_SEND_INLINE),
			   "a good inline SQE is refused");
		fuzz_check(w->len == len && !w->num_sge,
			   "inline data of the wrong length");
		fuzz_check(!memcmp(w->inline_data, inl, len),
			   "inline data changed on the way");
		return;
	}

	fuzz_check(w->send_flags == flags, "the send flags changed on the way");
	if (e->num_sge > fuzz_sge_limit(max_sge)) {
		fuzz_check(w->status == IB_WC_LOC_QP_OP_ERR && !w->num_sge &&
			   !w->len, "an SQE over the SGE limit is taken");
		return;
	}
	fuzz_check(w->status == IB_WC_SUCCESS && w->num_sge == e->num_sge,
		   "a good SQE is refused or lost SGEs");
	fuzz_check_sges(w->sge, e->sge, w->num_sge);
	for (i = 0; i < e->num_sge; i++)
		len += e->sge[i].length;
	fuzz_check(w->len == min_t(u64, len, U32_MAX),
		   "the message length is not the SGEs' sum (or U32_MAX)");
}

static void fuzz_check_rwqe(const struct siw_rqe *e, u32 max_sge,
			    const struct madcm_rnic_rwqe *w)
{
	fuzz_check(w->wr_id == e->id, "wr_id is not the RQE's id");
	if (e->num_sge > fuzz_sge_limit(max_sge)) {
		fuzz_check(w->status == IB_WC_LOC_QP_OP_ERR && !w->num_sge,
			   "an RQE over the SGE limit is taken");
		return;
	}
	fuzz_check(w->status == IB_WC_SUCCESS && w->num_sge == e->num_sge,
		   "a good RQE is refused or lost SGEs");
	fuzz_check_sges(w->sge, e->sge, w->num_sge);
}

/*
 * One ring: @esize octets per slot, @wsize per queue entry. @take runs
 * the kernel's side; @check looks at one entry taken.
 */
struct fuzz_ring {
	size_t esize;
	size_t wsize;
	size_t flags_off;
	void (*take)(struct madcm_rnic_wq *wq, void *ring, void *wqe);
	void (*check)(const void *e, u32 max_sge, const void *w);
};

static void fuzz_take_sq(struct madcm_rnic_wq *wq, void *ring, void *wqe)
{
	madcm_rnic_usq_take(wq, ring, wqe);
}

static void fuzz_take_rq(struct madcm_rnic_wq *wq, void *ring, void *wqe)
{
	madcm_rnic_urq_take(wq, ring, wqe);
}

static void fuzz_check_sq(const void *e, u32 max_sge, const void *w)
{
	fuzz_check_swqe(e, max_sge, w);
}

static void fuzz_check_rq(const void *e, u32 max_sge, const void *w)
{
	fuzz_check_rwqe(e, max_sge, w);
}

static const struct fuzz_ring fuzz_sq = {
	.esize = sizeof(struct siw_sqe),
	.wsize = sizeof(struct madcm_rnic_swqe),
	.flags_off = offsetof(struct siw_sqe, flags),
	.take = fuzz_take_sq,
	.check = fuzz_check_sq,
};

static const struct fuzz_ring fuzz_rq = {
	.esize = sizeof(struct siw_rqe),
	.wsize = sizeof(struct madcm_rnic_rwqe),
	.flags_off = offsetof(struct siw_rqe, flags),
	.take = fuzz_take_rq,
	.check = fuzz_check_rq,
};

static u16 fuzz_flags(const struct fuzz_ring *r, const u8 *slot)
{
	u16 flags;

	memcpy(&flags, slot + r->flags_off, sizeof(flags));
	return flags;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const struct fuzz_ring *r;
	struct madcm_rnic_wq wq;
	u8 *ring = NULL, *before = NULL, *wqe = NULL;
	u32 slots, head0, tail0, max_sge, n, i, s, sz;

	if (size < 4)
		return 0;
	r = data[0] & CTL_RQ ? &fuzz_rq : &fuzz_sq;
	sz = (data[0] >> CTL_SIZE_SHIFT) & CTL_SIZE_MASK;
	slots = sz ? 1U << (sz - 1) : 0;
	max_sge = data[1];
	head0 = (u32)-64 + data[2];
	tail0 = head0 + data[3] % (slots + 1);
	wq.size = slots;
	wq.max_sge = max_sge;
	wq.head = head0;
	wq.tail = tail0;
	data += 4;
	size -= 4;

	if (slots) {
		/* exactly the ring's size: ASan catches anything beyond */
		ring = calloc(slots, r->esize);
		before = calloc(slots, r->esize);
		wqe = malloc(slots * r->wsize);
		fuzz_check(ring && before && wqe, "out of memory");
		memset(wqe, POISON, slots * r->wsize);
		for (i = 0; i < slots && size; i++) {
			n = min_t(size_t, size, r->esize);
			memcpy(ring + ((tail0 + i) % slots) * r->esize, data, n);
			data += n;
			size -= n;
		}
		memcpy(before, ring, slots * r->esize);
	}

	r->take(&wq, ring, wqe);

	n = wq.tail - tail0;
	fuzz_check(wq.size == slots && wq.max_sge == max_sge,
		   "the queue's size or SGE limit changed");
	fuzz_check(wq.head == head0, "head moved");
	fuzz_check(wq.tail - wq.head <= slots, "more in flight than slots");
	fuzz_check(n <= slots, "more than a ring's worth taken");
	if (n < slots && wq.tail - wq.head < slots)
		fuzz_check(!(fuzz_flags(r, before + (wq.tail % slots) *
					r->esize) & SIW_WQE_VALID),
			   "stopped before a valid slot with room left");

	for (i = 0; i < slots; i++) {
		const u8 *b = before + i * r->esize;
		const u8 *a = ring + i * r->esize;
		const u8 *w = wqe + i * r->wsize;

		s = (i - tail0) % slots;	/* its place from tail0 on */
		if (s >= n) {
			fuzz_check(!memcmp(a, b, r->esize),
				   "a slot not taken changed");
			fuzz_check(fuzz_poisoned(w, r->wsize),
				   "a queue entry not taken into changed");
			continue;
		}
		fuzz_check(fuzz_flags(r, b) & SIW_WQE_VALID,
			   "a slot not marked valid is taken");
		fuzz_check(!fuzz_flags(r, a), "a taken slot is not handed back");
		fuzz_check(!memcmp(a, b, r->flags_off) &&
			   !memcmp(a + r->flags_off + sizeof(u16),
				   b + r->flags_off + sizeof(u16),
				   r->esize - r->flags_off - sizeof(u16)),
			   "the kernel wrote into a slot's body");
		r->check(b, max_sge, w);
	}

	/* the taking stopped at a slot not valid, or a full queue */
	tail0 = wq.tail;
	r->take(&wq, ring, wqe);
	fuzz_check(wq.tail == tail0, "a second call takes more");

	free(ring);
	free(before);
	free(wqe);
	return 0;
}
