/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RNIC's work queue entries, and how an entry of a process's ring
 * (soft-iWARP's user ABI, include/uapi/rdma/siw-abi.h) becomes one
 * (rnic/uwqe.c): pure functions on the ring and the entries, no QP, no
 * lock, no allocation. rnic/uverbs.c calls them on a user QP's rings
 * under the QP's lock; the fuzz harness tests/fuzz/fuzz_uverbs.c calls
 * them on rings of its own.
 */
#ifndef _MADCM_RNIC_UWQE_H
#define _MADCM_RNIC_UWQE_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/siw-abi.h>

/* The most SGEs a work request carries (a device limit, as siw's ABI's). */
#define MADCM_RNIC_MAX_SGE	6
/* A user QP's inline data: siw's ABI carries up to 80 octets in an SQE. */
#define MADCM_RNIC_MAX_UINLINE	SIW_MAX_INLINE

struct madcm_rnic_mr;

/**
 * struct madcm_rnic_swqe - a send queue entry
 * @wr_id: the consumer's wr_id (or wr_cqe)
 * @opcode: IB_WR_*
 * @send_flags: IB_SEND_*
 * @num_sge: entries in @sge
 * @sge: the gather list
 * @remote_addr: RDMA WRITE/READ target
 * @rkey: RDMA WRITE/READ STag
 * @inv_rkey: LOCAL_INV and SEND_WITH_INV STag
 * @mr: REG_MR: the MR
 * @key: REG_MR: the new key byte
 * @access: REG_MR: the access rights
 * @len: tx: the message length (the SGEs' sum, or the inline bytes)
 * @done: tx: the work request is over (success or @status); it
 *	completes when every one before it has (in order)
 * @status: tx: its completion status once @done
 * @zc_wait: tx: some of its payload went to TCP in the MR's own pages
 *	(rnic/zc.h): it completes only once TCP is done with them
 * @reads_left: tx: RDMA READ: Read Requests without their response yet
 * @inline_data: tx: IB_SEND_INLINE: the bytes, copied at post time
 *
 * A user SQE becomes one of these when the kernel fetches it (rnic/
 * uwqe.c); one that failed its checks there keeps the error in @status
 * (not @done) and fails when the send queue reaches it.
 */
struct madcm_rnic_swqe {
	u64 wr_id;
	enum ib_wr_opcode opcode;
	int send_flags;
	u32 num_sge;
	struct ib_sge sge[MADCM_RNIC_MAX_SGE];
	u64 remote_addr;
	u32 rkey;
	u32 inv_rkey;
	struct madcm_rnic_mr *mr;
	u32 key;
	int access;
	u32 len;
	bool done;
	enum ib_wc_status status;
	bool zc_wait;
	u32 reads_left;
	u8 inline_data[MADCM_RNIC_MAX_UINLINE];
};

/**
 * struct madcm_rnic_rwqe - a receive queue entry
 * @wr_id: the consumer's wr_id (or wr_cqe)
 * @num_sge: entries in @sge
 * @sge: the scatter list
 * @status: IB_WC_SUCCESS, or why a user RQE failed its checks at fetch:
 *	the receive completes with it when a Send reaches it
 */
struct madcm_rnic_rwqe {
	u64 wr_id;
	u32 num_sge;
	enum ib_wc_status status;
	struct ib_sge sge[MADCM_RNIC_MAX_SGE];
};

/**
 * struct madcm_rnic_wq - a work queue ring (send or receive)
 * @size: slots: a power of two (or 0), so that slot @count % @size stays
 *	right across the wrap of the free-running counts
 * @head: entries consumed (free running)
 * @tail: entries posted (free running); @tail - @head <= @size
 * @max_sge: the most SGEs a work request may carry
 */
struct madcm_rnic_wq {
	u32 size;
	u32 head;
	u32 tail;
	u32 max_sge;
};

bool madcm_rnic_sqe_fetch(struct siw_sqe *slot, struct siw_sqe *copy);
bool madcm_rnic_rqe_fetch(struct siw_rqe *slot, struct siw_rqe *copy);
void madcm_rnic_sqe_to_wqe(const struct siw_sqe *sqe, u32 max_sge,
			   struct madcm_rnic_swqe *wqe);
void madcm_rnic_rqe_to_wqe(const struct siw_rqe *rqe, u32 max_sge,
			   struct madcm_rnic_rwqe *wqe);
void madcm_rnic_usq_take(struct madcm_rnic_wq *sq, struct siw_sqe *ring,
			 struct madcm_rnic_swqe *swqe);
void madcm_rnic_urq_take(struct madcm_rnic_wq *rq, struct siw_rqe *ring,
			 struct madcm_rnic_rwqe *rwqe);

#endif /* _MADCM_RNIC_UWQE_H */
