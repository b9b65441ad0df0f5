// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm's software RNIC: the entries of a process's SQ and RQ rings
 * (soft-iWARP's user ABI) as the RNIC's work queue entries.
 *
 * The rings are the process's to change at any time, also while the
 * kernel reads them. An entry is taken by reading its flags once, copying
 * it once, then handing the slot back (flags 0); every check after that
 * looks at the kernel's copy only. Nothing here knows a QP, a lock or an
 * allocator: rnic/uverbs.c calls it on a user QP's rings under the QP's
 * lock, tests/fuzz/fuzz_uverbs.c on rings of its own.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/barrier.h>
#include "rnic/uwqe.h"

/*
 * Takes the entry in @slot when the process marked it valid: @copy gets
 * one copy of it, with the flags read before it; then the slot goes back
 * to the process. Whatever the process writes meanwhile, @copy is what
 * the kernel checks and uses.
 */
static bool madcm_rnic_fetch(void *slot, u16 *slot_flags, void *copy,
			     u16 *copy_flags, size_t size)
{
	u16 flags = READ_ONCE(*slot_flags);

	if (!(flags & SIW_WQE_VALID))
		return false;
	/* the body is read after the flags that said it is there */
	smp_rmb();
	memcpy(copy, slot, size);
	*copy_flags = flags;
	/* the copy is done before the process may reuse the slot */
	smp_mb();
	/*
	 * and the slot is free before the next one is looked at: libsiw
	 * rings the doorbell only when it sees this one taken
	 */
	smp_store_mb(*slot_flags, 0);
	return true;
}

/**
 * madcm_rnic_sqe_fetch() - take an SQE from a user send queue ring
 * @slot: the ring slot
 * @copy: the kernel's copy
 *
 * Context: Any.
 * Return: true when @slot held a valid SQE (now in @copy, @slot free).
 */
bool madcm_rnic_sqe_fetch(struct siw_sqe *slot, struct siw_sqe *copy)
{
	return madcm_rnic_fetch(slot, &slot->flags, copy, &copy->flags,
				sizeof(*copy));
}

/**
 * madcm_rnic_rqe_fetch() - take an RQE from a user receive queue ring
 * @slot: the ring slot
 * @copy: the kernel's copy
 *
 * Context: Any.
 * Return: true when @slot held a valid RQE (now in @copy, @slot free).
 */
bool madcm_rnic_rqe_fetch(struct siw_rqe *slot, struct siw_rqe *copy)
{
	return madcm_rnic_fetch(slot, &slot->flags, copy, &copy->flags,
				sizeof(*copy));
}

static void madcm_rnic_copy_sges(struct ib_sge *dst, const struct siw_sge *src,
				 u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		dst[i].addr = src[i].laddr;
		dst[i].length = src[i].length;
		dst[i].lkey = src[i].lkey;
	}
}

/**
 * madcm_rnic_sqe_to_wqe() - a fetched SQE as a send queue entry
 * @sqe: the kernel's copy of the SQE (madcm_rnic_sqe_fetch())
 * @max_sge: the QP's gather limit
 * @wqe: the send queue entry to fill
 *
 * The opcodes of libsiw's SQ (SIW_OP_WRITE, READ, SEND, SEND_REMOTE_INV;
 * its Invalidate STag is in @sqe->rkey). An SQE that cannot run keeps
 * its error in @wqe->status, and the send queue fails it in its turn:
 * another opcode, inline data on a Read, more SGEs than @max_sge,
 * inline data over SIW_MAX_INLINE octets. The SGEs' lkeys, addresses and
 * lengths are checked when the work request runs, as a kernel one's.
 * Context: Any.
 */
void madcm_rnic_sqe_to_wqe(const struct siw_sqe *sqe, u32 max_sge,
			   struct madcm_rnic_swqe *wqe)
{
	u16 flags = sqe->flags;
	u64 len = 0;
	u32 i;

	memset(wqe, 0, offsetof(struct madcm_rnic_swqe, inline_data));
	wqe->wr_id = sqe->id;
	wqe->status = IB_WC_SUCCESS;
	if (flags & SIW_WQE_SIGNALLED)
		wqe->send_flags |= IB_SEND_SIGNALED;
	if (flags & SIW_WQE_SOLICITED)
		wqe->send_flags |= IB_SEND_SOLICITED;
	if (flags & SIW_WQE_READ_FENCE)
		wqe->send_flags |= IB_SEND_FENCE;
	wqe->remote_addr = sqe->raddr;
	wqe->rkey = sqe->rkey;
	switch (sqe->opcode) {
	case SIW_OP_WRITE:
		wqe->opcode = IB_WR_RDMA_WRITE;
		break;
	case SIW_OP_READ:
		wqe->opcode = IB_WR_RDMA_READ;
		break;
	case SIW_OP_SEND:
		wqe->opcode = IB_WR_SEND;
		break;
	case SIW_OP_SEND_REMOTE_INV:
		wqe->opcode = IB_WR_SEND_WITH_INV;
		wqe->inv_rkey = sqe->rkey;
		break;
	default:
		/* completes as a Send: its wr_id is all the process knows */
		wqe->opcode = IB_WR_SEND;
		wqe->status = IB_WC_LOC_QP_OP_ERR;
		return;
	}
	if (flags & SIW_WQE_INLINE) {
		/* the octets follow sge[0], whose length is their count */
		len = sqe->sge[0].length;
		if (wqe->opcode == IB_WR_RDMA_READ) {
			wqe->status = IB_WC_LOC_QP_OP_ERR;
			return;
		}
		if (len > SIW_MAX_INLINE) {
			wqe->status = IB_WC_LOC_LEN_ERR;
			return;
		}
		wqe->send_flags |= IB_SEND_INLINE;
		memcpy(wqe->inline_data,
		       (const u8 *)sqe->sge + sizeof(sqe->sge[0]), len);
		wqe->len = len;
		return;
	}
	if (sqe->num_sge > max_sge || sqe->num_sge > SIW_MAX_SGE) {
		wqe->status = IB_WC_LOC_QP_OP_ERR;
		return;
	}
	wqe->num_sge = sqe->num_sge;
	madcm_rnic_copy_sges(wqe->sge, sqe->sge, wqe->num_sge);
	for (i = 0; i < wqe->num_sge; i++)
		len += wqe->sge[i].length;
	/* over the largest message: LOC_LEN_ERR when it runs */
	wqe->len = len > U32_MAX ? U32_MAX : len;
}

/**
 * madcm_rnic_rqe_to_wqe() - a fetched RQE as a receive queue entry
 * @rqe: the kernel's copy of the RQE (madcm_rnic_rqe_fetch())
 * @max_sge: the QP's scatter limit
 * @wqe: the receive queue entry to fill
 *
 * An RQE with more SGEs than @max_sge keeps IB_WC_LOC_QP_OP_ERR in
 * @wqe->status (and no SGE): the Send that reaches it fails with it.
 * Context: Any.
 */
void madcm_rnic_rqe_to_wqe(const struct siw_rqe *rqe, u32 max_sge,
			   struct madcm_rnic_rwqe *wqe)
{
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = rqe->id;
	wqe->status = IB_WC_SUCCESS;
	if (rqe->num_sge > max_sge || rqe->num_sge > SIW_MAX_SGE) {
		wqe->status = IB_WC_LOC_QP_OP_ERR;
		return;
	}
	wqe->num_sge = rqe->num_sge;
	madcm_rnic_copy_sges(wqe->sge, rqe->sge, wqe->num_sge);
}

/**
 * madcm_rnic_usq_take() - take what a process posted on its SQ ring
 * @sq: the send queue (@sq->size slots, a power of two, or 0)
 * @ring: the SQ ring of @sq->size siw_sqe, the process's
 * @swqe: the send queue's @sq->size entries
 *
 * Valid SQEs from slot @sq->tail on, in order, while the send queue has
 * room, each into the entry of its slot (@sq->tail moves past it): at
 * most one ring's worth per call, however fast the process refills it.
 * Context: Any; the caller keeps @sq, @ring's consumer side and @swqe
 * to itself.
 */
void madcm_rnic_usq_take(struct madcm_rnic_wq *sq, struct siw_sqe *ring,
			 struct madcm_rnic_swqe *swqe)
{
	struct siw_sqe sqe;
	u32 n;

	for (n = 0; n < sq->size; n++) {
		if (sq->tail - sq->head >= sq->size)
			break;
		if (!madcm_rnic_sqe_fetch(&ring[sq->tail % sq->size], &sqe))
			break;
		madcm_rnic_sqe_to_wqe(&sqe, sq->max_sge,
				      &swqe[sq->tail % sq->size]);
		sq->tail++;
	}
}

/**
 * madcm_rnic_urq_take() - take what a process posted on its RQ ring
 * @rq: the receive queue (@rq->size slots, a power of two, or 0)
 * @ring: the RQ ring of @rq->size siw_rqe, the process's
 * @rwqe: the receive queue's @rq->size entries
 *
 * As madcm_rnic_usq_take(), for receives.
 * Context: Any; the caller keeps @rq, @ring's consumer side and @rwqe
 * to itself.
 */
void madcm_rnic_urq_take(struct madcm_rnic_wq *rq, struct siw_rqe *ring,
			 struct madcm_rnic_rwqe *rwqe)
{
	struct siw_rqe rqe;
	u32 n;

	for (n = 0; n < rq->size; n++) {
		if (rq->tail - rq->head >= rq->size)
			break;
		if (!madcm_rnic_rqe_fetch(&ring[rq->tail % rq->size], &rqe))
			break;
		madcm_rnic_rqe_to_wqe(&rqe, rq->max_sge,
				      &rwqe[rq->tail % rq->size]);
		rq->tail++;
	}
}
