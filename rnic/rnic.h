/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm's software iWARP RNIC: the structures its parts share.
 *
 * rnic/device.c  rdma_link_ops, the ib_device, port state, netdev events
 * rnic/verbs.c   PD, CQ, QP, MR verbs (the control path)
 * rnic/stream.c  the QP's side of the offload boundary: its stream
 *		  (<madcm/cm_offload.h>), carried by a host socket
 *		  (rnic/qp_sock.c)
 * rnic/iw.c      the iw_cm provider: iw_cm_verbs mapped onto madcm_cm_*
 *
 * The RNIC reaches the CM only through <madcm/cm.h>, <madcm/cm_offload.h>
 * and the IRD/ORD limits it attaches the core with.
 */
#ifndef _MADCM_RNIC_RNIC_H
#define _MADCM_RNIC_RNIC_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/pid.h>
#include <linux/refcount.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/iw_cm.h>
#include <rdma/siw-abi.h>
#include <madcm/cm.h>
#include <madcm/cm_offload.h>
#include "rnic/ddp.h"
#include "rnic/stream.h"
#include "rnic/uwqe.h"

/*
 * The limits the device states in its attributes (and enforces). The
 * queue and CQ limits are powers of two: rings are sized to one
 * (madcm_rnic_ring_size()).
 */
#define MADCM_RNIC_MAX_QP	1024
#define MADCM_RNIC_MAX_CQ	1024
#define MADCM_RNIC_MAX_CQE	4096
#define MADCM_RNIC_MAX_QP_WR	1024
/* MADCM_RNIC_MAX_SGE: rnic/uwqe.h */
#define MADCM_RNIC_MAX_PD	1024
#define MADCM_RNIC_MAX_MR	4096
#define MADCM_RNIC_MAX_FR_PAGES	256
#define MADCM_RNIC_MAX_IRD	32
#define MADCM_RNIC_MAX_ORD	32
#define MADCM_RNIC_MAX_INLINE	64
/*
 * The longest MR reg_user_mr takes (max_mr_size); a fast-registration MR
 * is bounded by its pages (MADCM_RNIC_MAX_FR_PAGES of PAGE_SIZE).
 */
#define MADCM_RNIC_MAX_MR_SIZE	SZ_4G
/*
 * The device's identity in its attributes: not an IEEE OUI (siw's is not
 * either), ASCII "mdc"; part 1 is the software RNIC.
 */
#define MADCM_RNIC_VENDOR_ID	0x6d6463
#define MADCM_RNIC_VENDOR_PART	1

struct madcm_rnic_qp;
struct madcm_rnic_swqe;
struct madcm_rnic_zc;
struct madcm_rnic_zc_anchor;

/* QP numbers and STag indices: 24 bits, 0 unused. */
#define MADCM_RNIC_ID_MAX	((1U << 24) - 1)

/* The access rights an iWARP QP or MR can grant. */
#define MADCM_RNIC_ACCESS	(IB_ACCESS_LOCAL_WRITE | \
				 IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_REMOTE_READ)

/**
 * enum madcm_rnic_counter - the device's counters (rdma statistic)
 * @MADCM_RNIC_CNT_CONN_OFFLOADED: connections the CM handed to a QP
 * @MADCM_RNIC_CNT_CONN_RESET: offloaded streams reset (RST sent or
 *	received, retransmissions exhausted)
 * @MADCM_RNIC_CNT_TX_FRAMES: FPDUs the QPs' sockets took (each of a run
 *	built in place), and RSTs the CM sent for a hand-off that made no
 *	socket
 * @MADCM_RNIC_CNT_RX_FRAMES: frames the CM still passed to QPs
 * @MADCM_RNIC_CNT_TX_BYTES: stream octets the QPs' sockets took
 * @MADCM_RNIC_CNT_RX_BYTES: stream octets read from the QPs' sockets
 * @MADCM_RNIC_CNT_RETRANSMITS: segments the QPs' sockets sent again
 *	(their total_retrans, added when each socket is released)
 * @MADCM_RNIC_CNT_TERM_SENT: TERMINATE messages sent
 * @MADCM_RNIC_CNT_TERM_RCVD: TERMINATE messages received
 * @MADCM_RNIC_CNT_QP_ERROR: QPs moved to the ERROR state
 * @MADCM_RNIC_CNT_WR_FLUSHED: work requests completed with
 *	IB_WC_WR_FLUSH_ERR
 * @MADCM_RNIC_CNT_CQ_OVERFLOW: completions lost to a full CQ
 * @MADCM_RNIC_CNT_FASTREG: fast-registration work requests executed
 * @MADCM_RNIC_CNT_LOCAL_INV: local-invalidate work requests executed
 * @MADCM_RNIC_CNT_WR_ERROR: work requests completed with an error other
 *	than a flush
 * @MADCM_RNIC_CNT_RX_CRC_ERR: FPDUs received with a bad CRC (terminated)
 * @MADCM_RNIC_CNT_RX_HDR_ERR: DDP segments refused for their header:
 *	versions, opcode, queue number, MSN, MO, lengths (terminated)
 * @MADCM_RNIC_CNT_RX_PROT_ERR: DDP segments refused by the STag checks:
 *	unknown or invalid STag, other PD, access rights, bounds, wrap, a
 *	Read Response that matches no outstanding Read, an STag that cannot
 *	be invalidated (terminated)
 * @MADCM_RNIC_CNT_RX_RQ_ERR: Sends with no receive WQE posted, or longer
 *	than it (terminated)
 * @MADCM_RNIC_CNT_RX_IRD_ERR: RDMA Read Requests beyond the IRD
 * @MADCM_RNIC_CNT_TX_HOLD: streams whose send queue an MPA responder held
 *	for the initiator's first FPDU (RFC 5044 7.1)
 * @MADCM_RNIC_CNT_TX_HOLD_EXPIRED: ... and let go at the end of
 *	rnic_responder_hold_ms, no FPDU having come
 * @MADCM_RNIC_CNT_TX_NUDGE: zero-length RDMA Writes an MPA initiator sent
 *	rnic_initiator_nudge_ms after the hand-off, no FPDU having come
 * @MADCM_RNIC_CNT_USER_LIMIT: PDs, CQs, QPs and MRs refused to a process
 *	for its share (rnic_user_share) of the device's limits
 * @MADCM_RNIC_CNT_QP_NOT_OWNER: iw_get_qp, iw_connect or iw_accept calls
 *	refused because the QP is not the caller's (a user QP of another
 *	process, or a user QP for a kernel caller)
 * @MADCM_RNIC_CNT_HOST_TCP: streams handed to a socket of the host's TCP
 *	(rnic/qp_sock.c)
 * @MADCM_RNIC_CNT_HOST_TCP_FAIL: hand-offs to a host socket that failed
 *	(the stream was reset)
 * @MADCM_RNIC_CNT_HOST_TCP_EARLY: the peer's frames the CM passed to a QP
 *	during its hand-off to a host socket, given to the host's stack
 * @MADCM_RNIC_CNT_HOST_TCP_EARLY_DROP: ... dropped instead (more than
 *	MADCM_RNIC_KS_EARLY_MAX waiting, or no memory): the peer resends
 * @MADCM_RNIC_CNT_HOST_TCP_LATE: frames the CM still passed to a QP after
 *	its steering entry became a pass entry (taken before the change),
 *	given to the host's stack at once
 * @MADCM_RNIC_CNT_HOST_TCP_LATE_DROP: ... dropped instead, past
 *	MADCM_RNIC_KS_LATE_MAX for the stream: the steering still gives its
 *	frames to the CM, and giving them to the host again would loop
 * @MADCM_RNIC_CNT_TX_MR_ZC_BYTES: payload octets of Sends and RDMA
 *	Writes given to a host socket in their MR's own pages (rnic/zc.h):
 *	neither copied nor built into a page of the stream
 * @MADCM_RNIC_CNT_TX_MR_ZC_COPIED: FPDUs of such work requests (at least
 *	rnic_tx_zcopy_min octets) copied after all: a page a socket may not
 *	hold a reference to (slab memory), or no memory for the ticket
 * @MADCM_RNIC_CNT_TX_ZC_BYTES: of @MADCM_RNIC_CNT_TX_BYTES, those given
 *	to a host socket by reference: FPDUs built in place in pages, not
 *	copied into its skbs
 * @MADCM_RNIC_CNT_CONN_NO_CRC: streams started without MPA CRCs: neither
 *	side asked for them (rnic_mpa_crc off, and a peer such as siw)
 * @MADCM_RNIC_CNT_HOST_TCP_FIN_WAIT_TIMEOUT: streams on a host socket
 *	reset in FIN-WAIT-2: the peer acknowledged our FIN and sent none of
 *	its own within the namespace's tcp_fin_timeout
 * @MADCM_RNIC_CNT_MAX: how many
 */
enum madcm_rnic_counter {
	MADCM_RNIC_CNT_CONN_OFFLOADED,
	MADCM_RNIC_CNT_CONN_RESET,
	MADCM_RNIC_CNT_TX_FRAMES,
	MADCM_RNIC_CNT_RX_FRAMES,
	MADCM_RNIC_CNT_TX_BYTES,
	MADCM_RNIC_CNT_RX_BYTES,
	MADCM_RNIC_CNT_RETRANSMITS,
	MADCM_RNIC_CNT_TERM_SENT,
	MADCM_RNIC_CNT_TERM_RCVD,
	MADCM_RNIC_CNT_QP_ERROR,
	MADCM_RNIC_CNT_WR_FLUSHED,
	MADCM_RNIC_CNT_CQ_OVERFLOW,
	MADCM_RNIC_CNT_FASTREG,
	MADCM_RNIC_CNT_LOCAL_INV,
	MADCM_RNIC_CNT_WR_ERROR,
	MADCM_RNIC_CNT_RX_CRC_ERR,
	MADCM_RNIC_CNT_RX_HDR_ERR,
	MADCM_RNIC_CNT_RX_PROT_ERR,
	MADCM_RNIC_CNT_RX_RQ_ERR,
	MADCM_RNIC_CNT_RX_IRD_ERR,
	MADCM_RNIC_CNT_TX_HOLD,
	MADCM_RNIC_CNT_TX_HOLD_EXPIRED,
	MADCM_RNIC_CNT_TX_NUDGE,
	MADCM_RNIC_CNT_USER_LIMIT,
	MADCM_RNIC_CNT_QP_NOT_OWNER,
	MADCM_RNIC_CNT_HOST_TCP,
	MADCM_RNIC_CNT_HOST_TCP_FAIL,
	MADCM_RNIC_CNT_HOST_TCP_EARLY,
	MADCM_RNIC_CNT_HOST_TCP_EARLY_DROP,
	MADCM_RNIC_CNT_HOST_TCP_LATE,
	MADCM_RNIC_CNT_HOST_TCP_LATE_DROP,
	MADCM_RNIC_CNT_TX_ZC_BYTES,
	MADCM_RNIC_CNT_TX_MR_ZC_BYTES,
	MADCM_RNIC_CNT_TX_MR_ZC_COPIED,
	MADCM_RNIC_CNT_CONN_NO_CRC,
	MADCM_RNIC_CNT_HOST_TCP_FIN_WAIT_TIMEOUT,
	MADCM_RNIC_CNT_MAX
};

/**
 * enum madcm_rnic_res - the objects a process is charged for
 * @MADCM_RNIC_RES_PD: protection domains (of MADCM_RNIC_MAX_PD)
 * @MADCM_RNIC_RES_CQ: completion queues (of MADCM_RNIC_MAX_CQ)
 * @MADCM_RNIC_RES_QP: queue pairs (of MADCM_RNIC_MAX_QP)
 * @MADCM_RNIC_RES_MR: memory regions (of MADCM_RNIC_MAX_MR)
 * @MADCM_RNIC_RES_MAX: how many
 */
enum madcm_rnic_res {
	MADCM_RNIC_RES_PD,
	MADCM_RNIC_RES_CQ,
	MADCM_RNIC_RES_QP,
	MADCM_RNIC_RES_MR,
	MADCM_RNIC_RES_MAX
};

/**
 * struct madcm_rnic_ucontext - a process's context on a device
 * @ibuc: the ib_ucontext; first
 * @n_res: the objects it holds, by enum madcm_rnic_res (at most its
 *	share of each limit, rnic_user_share)
 */
struct madcm_rnic_ucontext {
	struct ib_ucontext ibuc;
	atomic_t n_res[MADCM_RNIC_RES_MAX];
};

/**
 * struct madcm_rnic_dev - one madcm RNIC (rdma link add ... type madcm)
 * @ibdev: the ib_device; first, for ib_alloc_device()
 * @netdev: the Ethernet net_device it runs over (held)
 * @core: the CM core of @netdev (madcm_cm_get_core()), counted
 * @attached: the device attached the core itself (and detaches it)
 * @list: on the module's device list (netdev events)
 * @qps: QPs by number
 * @next_qpn: the next QP number to try (cyclic)
 * @lock: protects @port_state
 * @port_state: IB_PORT_ACTIVE or IB_PORT_DOWN, from the netdev
 * @n_pd: PDs allocated
 * @n_cq: CQs allocated
 * @n_qp: QPs allocated
 * @n_mr: MRs allocated
 * @mrs: MRs by STag index (the STag's upper 24 bits, drawn at random)
 * @dying: the device is being removed: no new QP, every QP flushed
 * @netdev_tracker: the reference on @netdev
 * @cnt: the counters, enum madcm_rnic_counter
 * @uverbs: the device speaks soft-iWARP's user ABI (rnic/uverbs.c)
 * @n_ures: the objects all processes hold together, by enum
 *	madcm_rnic_res (at most rnic_user_share of each limit: the rest is
 *	kept for kernel consumers)
 * @iw_accept_woken: KUnit builds only (MADCM_FAULT_INJECTION): if set,
 *	called by iw_accept in the accepting thread once its wait for
 *	ESTABLISHED ended and before it looks at the endpoint again, so a
 *	test can run the connection's later events in between
 * @rx_fpdu_end: KUnit builds only: if set, called by the receive side
 *	after each FPDU it took, within one delivery of stream octets, so a
 *	test can do what another CPU may do between two FPDUs
 */
struct madcm_rnic_dev {
	struct ib_device ibdev;
	struct net_device *netdev;
	struct madcm_cm_core *core;
	bool attached;
	struct list_head list;
	struct xarray qps;
	u32 next_qpn;
	spinlock_t lock;	/* protects @port_state */
	enum ib_port_state port_state;
	atomic_t n_pd;
	atomic_t n_cq;
	atomic_t n_qp;
	atomic_t n_mr;
	struct xarray mrs;
	bool dying;
	netdevice_tracker netdev_tracker;
	atomic64_t cnt[MADCM_RNIC_CNT_MAX];
	bool uverbs;
	atomic_t n_ures[MADCM_RNIC_RES_MAX];
#ifdef MADCM_FAULT_INJECTION
	void (*iw_accept_woken)(struct iw_cm_id *cm_id);
	void (*rx_fpdu_end)(struct madcm_rnic_qp *qp);
#endif
};

static inline struct madcm_rnic_dev *to_madcm_rnic(struct ib_device *ibdev)
{
	return container_of(ibdev, struct madcm_rnic_dev, ibdev);
}

static inline void madcm_rnic_count_add(struct madcm_rnic_dev *dev,
					enum madcm_rnic_counter c, u64 n)
{
	atomic64_add(n, &dev->cnt[c]);
}

static inline void madcm_rnic_count(struct madcm_rnic_dev *dev,
				    enum madcm_rnic_counter c)
{
	atomic64_inc(&dev->cnt[c]);
}

/**
 * struct madcm_rnic_pd - a protection domain
 * @ibpd: the ib_pd; first
 * @uctx: a process's PD: the context it is charged to; NULL for a kernel one
 */
struct madcm_rnic_pd {
	struct ib_pd ibpd;
	struct madcm_rnic_ucontext *uctx;
};

/**
 * struct madcm_rnic_cq - a kernel completion queue: a ring of ib_wc
 * @ibcq: the ib_cq; first
 * @lock: protects everything below
 * @ring: @size entries
 * @size: entries in @ring (the CQE count asked for, rounded up to a
 *	power of two; ibcq.cqe says it)
 * @head: completions taken by poll_cq (free running)
 * @tail: completions added (free running); @tail - @head <= @size
 * @notify: the armed notification: 0, IB_CQ_SOLICITED or IB_CQ_NEXT_COMP
 * @overflow: a completion was lost to a full ring (the CQ overran)
 * @work: runs the consumer's handlers for the CQ, on madcm_rnic_wq, once
 *	every RNIC and CM lock is dropped
 * @comp_due: @work is to call the completion handler
 * @err_due: @work is to handle the overrun (IB_EVENT_CQ_ERR)
 * @uring: a user CQ: the ring of siw_cqe the process maps (@ring unused);
 *	a slot belongs to the kernel while its flags are 0
 * @uctrl: a user CQ: the notification word after the ring
 * @umap: a user CQ: the mmap entry of @uring
 * @uctx: a user CQ: the context it is charged to
 */
struct madcm_rnic_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* the ring, @notify, @overflow, the dues */
	struct ib_wc *ring;
	u32 size;
	u32 head;
	u32 tail;
	u8 notify;
	bool overflow;
	struct work_struct work;
	bool comp_due;
	bool err_due;
	struct siw_cqe *uring;
	struct siw_cq_ctrl *uctrl;
	struct rdma_user_mmap_entry *umap;
	struct madcm_rnic_ucontext *uctx;
};

static inline struct madcm_rnic_cq *to_madcm_rnic_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct madcm_rnic_cq, ibcq);
}

/**
 * struct madcm_rnic_mr - a memory region: a DMA MR or a fast-registration
 *	MR; its STag is its lkey and rkey (index << 8 | key)
 * @ibmr: the ib_mr
 * @index: the STag index (its upper 24 bits), the MR's key in @dev->mrs
 * @dma: a DMA MR (all of memory, always valid)
 * @valid: the STag is valid (registered, not invalidated); changed under
 *	the lock of @dev->mrs
 * @access: the access rights of the last registration (IB_ACCESS_*)
 * @pages: the page list map_mr_sg built (@max_pages entries)
 * @npages: pages in @pages
 * @max_pages: the most pages (alloc_mr's max_num_sg)
 * @umem: a user MR (reg_user_mr): its pinned memory; NULL otherwise
 * @upages: a user MR: its pages, in order (@npages of them)
 * @uoff: a user MR: where ibmr.iova lies in its first page
 * @uctx: a user MR: the context it is charged to
 */
struct madcm_rnic_mr {
	struct ib_mr ibmr;
	u32 index;
	bool dma;
	bool valid;
	int access;
	u64 *pages;
	u32 npages;
	u32 max_pages;
	struct ib_umem *umem;
	struct page **upages;
	u32 uoff;
	struct madcm_rnic_ucontext *uctx;
};

static inline struct madcm_rnic_mr *to_madcm_rnic_mr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct madcm_rnic_mr, ibmr);
}

/**
 * struct madcm_rnic_rresp - tx: an inbound RDMA Read being answered
 * @sink_stag: the requester's Data Sink STag
 * @sink_to: its Tagged Offset
 * @src_stag: our Data Source STag
 * @src_to: its Tagged Offset
 * @len: the RDMA Read Message Size
 * @off: octets of the response queued to TCP so far
 */
struct madcm_rnic_rresp {
	u32 sink_stag;
	u64 sink_to;
	u32 src_stag;
	u64 src_to;
	u32 len;
	u32 off;
};

/**
 * struct madcm_rnic_oreq - tx: an outbound Read Request awaiting its
 *	response
 * @wqe: the SQ index (free running) of its RDMA READ, or
 *	MADCM_RNIC_ORQ_RTR for the CM's RTR Read (it completes no WR)
 * @sink_stag: the Data Sink STag it named
 * @sink_to: the Data Sink Tagged Offset
 * @len: the RDMA Read Message Size
 */
struct madcm_rnic_oreq {
	u32 wqe;
	u32 sink_stag;
	u64 sink_to;
	u32 len;
};

#define MADCM_RNIC_ORQ_RTR	U32_MAX
/*
 * tx: the ORQ holds the CM's RTR Read and ORD Read Requests; indexed by
 * free-running u32 counts, so its size is a power of two (as the IRQ's,
 * MADCM_RNIC_MAX_IRD), which keeps slots apart across the counts' wrap.
 */
#define MADCM_RNIC_ORQ_SIZE	64
static_assert(MADCM_RNIC_MAX_ORD < MADCM_RNIC_ORQ_SIZE);
static_assert(!(MADCM_RNIC_ORQ_SIZE & (MADCM_RNIC_ORQ_SIZE - 1)));
static_assert(!(MADCM_RNIC_MAX_IRD & (MADCM_RNIC_MAX_IRD - 1)));
static_assert(!(MADCM_RNIC_MAX_QP_WR & (MADCM_RNIC_MAX_QP_WR - 1)));
static_assert(!(MADCM_RNIC_MAX_CQE & (MADCM_RNIC_MAX_CQE - 1)));
/* tx: the Terminate message's longest FPDU. */
#define MADCM_RNIC_TERM_HDR_MAX	(2 + 18 + 28)
#define MADCM_RNIC_TERM_FPDU_MAX	(2 + 18 + 4 + MADCM_RNIC_TERM_HDR_MAX + 3 + 4)

/**
 * struct madcm_rnic_rx - the receive side of a QP's data path
 *	(rnic/qp_rx.c); touched only from the stream's rx_data, one call at
 *	a time, and from madcm_rnic_qp_rx_start() before the first
 * @mpa: the FPDU parser
 * @seg: the current segment's header, once accepted
 * @hdr_got: octets of @mpa.h the current segment's headers filled
 * @place: the current segment's payload is placed (its header passed)
 * @dead: the stream was terminated: everything after is dropped
 * @term: the Terminate this side sent, when @termed (for the record)
 * @termed: this side terminated the stream
 * @pos: stream octets taken since hand-off
 * @fpdu_pos: where in the stream the current FPDU began
 * @rtr_len: the hand-off's RTR octets (ctx->rcvd of a peer-to-peer
 *	responder): a zero-length Send among them consumes no receive WQE
 * @msn: the next MSN expected on each untagged queue
 * @msg_open: a Send message is under way in @rwqe
 * @msg_rtr: the Send under way is the RTR message: no receive WQE
 * @msg_len: octets of it placed so far
 * @rq_head: the receive ring's head it consumes
 * @rwqe: a copy of that receive WQE
 * @rwqe_len: the sum of its SGE lengths
 * @rresp_off: octets of the oldest outstanding Read's response placed so
 *	far: where its next segment must start
 */
struct madcm_rnic_rx {
	struct madcm_mpa_rx mpa;
	struct madcm_ddp_seg seg;
	u32 hdr_got;
	bool place;
	bool dead;
	struct madcm_term_code term;
	bool termed;
	u64 pos;
	u64 fpdu_pos;
	u32 rtr_len;
	u32 msn[DDP_QN_TERMINATE + 1];
	bool msg_open;
	bool msg_rtr;
	u32 msg_len;
	u32 rq_head;
	struct madcm_rnic_rwqe rwqe;
	u64 rwqe_len;
	u32 rresp_off;
};

/**
 * struct madcm_rnic_qp - an RC QP
 * @ibqp: the ib_qp; first
 * @dev: its device
 * @oqp: the QP as the CM sees it (rnic/stream.c implements its ops)
 * @iw_ref: iw_cm's references (iw_add_ref/iw_rem_ref), plus the one the
 *	QP holds for itself until destroy
 * @iw_free: completed when @iw_ref reaches zero; destroy waits for it
 * @lock: protects @state, @cm_id, @ep
 * @state: the QP state (IB_QPS_*)
 * @cm_id: the iw_cm_id of the connection, set by rnic/iw.c
 * @ep: rnic/iw.c's endpoint of the connection
 * @sq: the send queue ring (under @lock)
 * @rq: the receive queue ring (under @lock)
 * @swqe: @sq's slots
 * @rwqe: @rq's slots
 * @sq_sig_all: every send work request is signaled
 * @access: IB_QP_ACCESS_FLAGS: the remote rights a peer has through the
 *	QP (rx refuses a Write without IB_ACCESS_REMOTE_WRITE, a Read
 *	Request without IB_ACCESS_REMOTE_READ); written under @lock, read
 *	by rx without it
 * @ird: inbound RDMA Read depth (IB_QP_MAX_DEST_RD_ATOMIC)
 * @ord: outbound RDMA Read depth (IB_QP_MAX_QP_RD_ATOMIC)
 * @max_inline: the inline data limit create_qp granted
 * @owner: the thread group (tgid) of the task that created the QP: the
 *	process whose uverbs command made a user QP, or whose context a
 *	kernel consumer created a kernel QP from (rnic/iw.c's owner rule)
 * @ev_work: runs the consumer's QP event handler, on madcm_rnic_wq
 * @ev_fatal: @ev_work is to raise IB_EVENT_QP_FATAL (under @lock)
 * @stream: the offloaded stream (rnic/stream.c)
 * @sq_next: tx: the next SQ entry to start (free running, between
 *	@sq.head and @sq.tail: the entries before it are started, the
 *	ones from @sq.head on not yet completed)
 * @tx_off: tx: octets (RDMA READ: Read Requests) of the entry at
 *	@sq_next already queued to TCP
 * @tx_started: tx: the entry at @sq_next passed its checks
 * @tx_zc: tx: the zero-copy ticket of the entry at @sq_next (the send
 *	side's reference), NULL while none of its FPDUs went zero-copy
 * @zc_anchor: where its tickets report (rnic/zc.c)
 * @msn: tx: the next MSN of each untagged queue (RFC 5041 5.1)
 * @tx_ird: tx: inbound RDMA Read depth in use (@irq's bound)
 * @tx_ord: tx: outbound RDMA Read depth in use
 * @tx_crc: tx: FPDUs carry a CRC (the hand-off context's)
 * @tx_live: tx: the stream was handed over (madcm_rnic_qp_tx_start())
 * @tx_hold: tx: an MPA responder without peer-to-peer waits for the
 *	initiator's first FPDU before it sends one (RFC 5044 7.1); rx
 *	clears it (madcm_rnic_qp_tx_release()), or @tx_hold_timer does
 * @tx_nudge: tx: an MPA initiator sends one zero-length RDMA Write when
 *	@tx_hold_timer fires before rx had an FPDU; rx clears it
 * @tx_hold_timer: tx: ends @tx_hold after rnic_responder_hold_ms, or
 *	fires @tx_nudge after rnic_initiator_nudge_ms
 * @orq: tx: the outstanding Read Requests, oldest first
 * @orq_head: tx: responses taken (free running)
 * @orq_tail: tx: requests sent (free running)
 * @irq: tx: inbound RDMA Reads being answered, oldest first
 * @irq_head: tx: responses fully queued (free running)
 * @irq_tail: tx: requests taken (free running)
 * @term_len: tx: a Terminate message is built in @term_fpdu, not queued
 *	to TCP yet (0: none)
 * @term_done: tx: a Terminate was sent (or given up): no second one
 * @tx_buf: tx: where an FPDU is built (@tx_buf_size octets)
 * @tx_buf_size: tx: its size
 * @term_fpdu: tx: the Terminate message's FPDU
 * @rx: rx: the receive side of the data path (rnic/qp_rx.c)
 * @usq: a user QP: the SQ ring of siw_sqe the process maps (@sq.size
 *	slots; slot @sq.tail % @sq.size is the next to fetch)
 * @urq: a user QP: the RQ ring of siw_rqe (@rq.size slots)
 * @usq_map: the mmap entry of @usq
 * @urq_map: the mmap entry of @urq
 * @uctx: a user QP: the context it is charged to (its buffers are charged
 *	to the process's memory cgroup)
 */
struct madcm_rnic_qp {
	struct ib_qp ibqp;
	struct madcm_rnic_dev *dev;
	struct madcm_cm_offload_qp oqp;
	refcount_t iw_ref;
	struct completion iw_free;
	spinlock_t lock;	/* protects @state, @cm_id, @ep and both rings */
	enum ib_qp_state state;
	struct iw_cm_id *cm_id;
	void *ep;
	struct madcm_rnic_wq sq;
	struct madcm_rnic_wq rq;
	struct madcm_rnic_swqe *swqe;
	struct madcm_rnic_rwqe *rwqe;
	bool sq_sig_all;
	int access;
	u8 ird;
	u8 ord;
	u32 max_inline;
	struct pid *owner;
	struct work_struct ev_work;
	bool ev_fatal;
	struct madcm_rnic_stream stream;
	/* tx: rnic/qp_tx.c, under @lock */
	u32 sq_next;
	u32 tx_off;
	bool tx_started;
	struct madcm_rnic_zc *tx_zc;
	struct madcm_rnic_zc_anchor *zc_anchor;
	u32 msn[3];
	u32 tx_ird;
	u32 tx_ord;
	bool tx_crc;
	bool tx_live;
	bool tx_hold;
	bool tx_nudge;
	struct timer_list tx_hold_timer;
	struct madcm_rnic_oreq orq[MADCM_RNIC_ORQ_SIZE];
	u32 orq_head;
	u32 orq_tail;
	struct madcm_rnic_rresp irq[MADCM_RNIC_MAX_IRD];
	u32 irq_head;
	u32 irq_tail;
	u32 term_len;
	bool term_done;
	u8 *tx_buf;
	u32 tx_buf_size;
	u8 term_fpdu[MADCM_RNIC_TERM_FPDU_MAX];
	/* rx: rnic/qp_rx.c, from the stream's rx_data only */
	struct madcm_rnic_rx rx;
	/* user QPs: rnic/uverbs.c */
	struct siw_sqe *usq;
	struct siw_rqe *urq;
	struct rdma_user_mmap_entry *usq_map;
	struct rdma_user_mmap_entry *urq_map;
	struct madcm_rnic_ucontext *uctx;
};

static inline struct madcm_rnic_qp *to_madcm_rnic_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct madcm_rnic_qp, ibqp);
}

/* rnic/device.c */
int madcm_rnic_init(void);
void madcm_rnic_exit(void);
int madcm_rnic_newlink(const char *name, struct net_device *netdev);

/* rnic/verbs.c: a QP by number, with an iw reference; NULL if none. */
struct madcm_rnic_qp *madcm_rnic_qp_get(struct madcm_rnic_dev *dev, u32 qpn);
void madcm_rnic_qp_put(struct madcm_rnic_qp *qp);
/*
 * rnic/verbs.c: the QP state changes the stream drives. Any context;
 * they do not sleep and take @qp->lock (irqsave) themselves.
 * madcm_rnic_qp_to_rts(): the CM handed the stream off (INIT/RTR -> RTS);
 * 0 or -EINVAL from another state. madcm_rnic_qp_set_error(): the stream
 * failed or ended: ERROR, every outstanding WR flushed exactly once.
 */
int madcm_rnic_qp_to_rts(struct madcm_rnic_qp *qp);
void madcm_rnic_qp_set_error(struct madcm_rnic_qp *qp);
void madcm_rnic_dev_flush(struct madcm_rnic_dev *dev);
u32 madcm_rnic_ring_size(u32 n);
extern const struct ib_device_ops madcm_rnic_verbs_ops;

/* rnic/mr.c: the MR verbs, and the local operations the SQ runs. */
extern const struct ib_device_ops madcm_rnic_mr_ops;
enum ib_wc_status madcm_rnic_mr_fastreg(struct madcm_rnic_qp *qp,
					const struct madcm_rnic_swqe *wqe);
enum ib_wc_status madcm_rnic_mr_invalidate(struct madcm_rnic_qp *qp, u32 stag);

/*
 * rnic/mr.c: the data path's access to registered memory, by STag (lkey
 * or rkey alike), under the MR table's lock; an FRMR's page list is
 * followed page by page. @access: the IB_ACCESS_* rights needed (0: any
 * valid MR of the QP's PD, as a local read). Nothing is touched outside
 * [@addr, @addr + @len), which must lie inside the MR. 0, or -ENOENT (no
 * such STag, invalid, or its key differs), -EPERM (another PD), -EACCES
 * (rights), -ERANGE (bounds), -EOVERFLOW (@addr + @len wraps). @len 0:
 * 0, no lookup.
 */
int madcm_rnic_mr_check(struct madcm_rnic_qp *qp, u32 stag, u64 addr,
			u32 len, int access);
int madcm_rnic_mr_copy_to(struct madcm_rnic_qp *qp, u32 stag, u64 addr,
			  const void *buf, u32 len, int access);
int madcm_rnic_mr_get_pages(struct madcm_rnic_qp *qp, u32 stag, u64 addr,
			    u32 len, struct bio_vec *bv, u32 max, u32 *nbv);
int madcm_rnic_mr_copy_from(struct madcm_rnic_qp *qp, u32 stag, u64 addr,
			    void *buf, u32 len, int access);
int madcm_rnic_mr_remote_invalidate(struct madcm_rnic_qp *qp, u32 stag);

/*
 * rnic/qp_rx.c (H-rx): the receive side. madcm_rnic_qp_rx_start() at
 * hand-off, before the first rx_data (the CM's rcvd octets included):
 * -EOPNOTSUPP when the peer would send markers, else 0.
 * madcm_rnic_qp_rx_data() is the stream's rx_data for a QP.
 */
int madcm_rnic_qp_rx_start(struct madcm_rnic_qp *qp,
			   const struct madcm_cm_offload_ctx *ctx);
void madcm_rnic_qp_rx_data(struct madcm_rnic_stream *t, const u8 *d, u32 len);

/* rnic/iw.c: the iw_cm_verbs, and the QP's disconnect hook. */
int madcm_rnic_iw_connect(struct iw_cm_id *cm_id,
			  struct iw_cm_conn_param *param);
int madcm_rnic_iw_accept(struct iw_cm_id *cm_id,
			 struct iw_cm_conn_param *param);
int madcm_rnic_iw_reject(struct iw_cm_id *cm_id, const void *pdata,
			 u8 pdata_len);
int madcm_rnic_iw_create_listen(struct iw_cm_id *cm_id, int backlog);
int madcm_rnic_iw_destroy_listen(struct iw_cm_id *cm_id);
void madcm_rnic_iw_add_ref(struct ib_qp *ibqp);
void madcm_rnic_iw_rem_ref(struct ib_qp *ibqp);
struct ib_qp *madcm_rnic_iw_get_qp(struct ib_device *ibdev, int qpn);
/*
 * Called by modify_qp when the consumer moves a connected QP to SQD
 * (graceful: FIN) or ERROR (abortive: RST), as iw_cm_disconnect() does.
 */
void madcm_rnic_iw_qp_disconnect(struct madcm_rnic_qp *qp, bool abort);

/* rnic/stream.c: the offload ops of a QP, and its stream's set-up and end. */
extern const struct madcm_cm_offload_ops madcm_rnic_offload_ops;
void madcm_rnic_qp_stream_init(struct madcm_rnic_qp *qp);
void madcm_rnic_qp_stream_destroy(struct madcm_rnic_qp *qp);

/*
 * rnic/verbs.c: completions and events. The consumer's handlers (a CQ's
 * completion and event handlers, a QP's event handler) run from
 * madcm_rnic_wq, never from the path that completes or fails: that path
 * holds the QP's lock, or the stream's rx_lock and the CM's
 * connection lock, and a handler may post, poll, modify the QP to ERROR
 * (which calls into the CM) or sleep. madcm_rnic_qp_event() raises a QP
 * event from any context.
 */
extern struct workqueue_struct *madcm_rnic_wq;
void madcm_rnic_qp_event(struct madcm_rnic_qp *qp, enum ib_event_type type);
bool madcm_rnic_rq_complete_head(struct madcm_rnic_qp *qp, u32 head,
				 enum ib_wc_status status, u32 byte_len,
				 bool solicited, u32 inv_rkey);

/*
 * rnic/verbs.c, for rnic/qp_tx.c: what is due once @qp->lock is dropped,
 * done by madcm_rnic_run_due(). @close: a Terminate was queued: close the
 * stream after it. @push: the caller is a user QP's doorbell, in its
 * process: the records the send side queued are written to the stream
 * from there (madcm_rnic_stream_push()). (The CQs' handlers are queued
 * to madcm_rnic_wq.)
 */
struct madcm_rnic_due {
	bool close;
	bool push;
};

void madcm_rnic_run_due(struct madcm_rnic_qp *qp, struct madcm_rnic_due *due);
void madcm_rnic_sq_retire(struct madcm_rnic_qp *qp, struct madcm_rnic_due *due);
void madcm_rnic_qp_error_locked(struct madcm_rnic_qp *qp,
				struct madcm_rnic_due *due);

/* rnic/qp_tx.c: the send side of the data path (RDMAP/DDP over MPA). */
int madcm_rnic_qp_tx_create(struct madcm_rnic_qp *qp);
void madcm_rnic_qp_tx_reset(struct madcm_rnic_qp *qp);
void madcm_rnic_qp_tx_destroy(struct madcm_rnic_qp *qp);
void madcm_rnic_qp_tx_start(struct madcm_rnic_stream *t,
			    const struct madcm_cm_offload_ctx *ctx);
void madcm_rnic_qp_tx_room(struct madcm_rnic_stream *t);
void madcm_rnic_qp_tx_run(struct madcm_rnic_qp *qp);
void madcm_rnic_qp_tx_run_locked(struct madcm_rnic_qp *qp,
				 struct madcm_rnic_due *due);
int madcm_rnic_qp_read_sink(struct madcm_rnic_qp *qp, u32 *stag, u64 *to,
			    u32 *len);
void madcm_rnic_qp_tx_release(struct madcm_rnic_qp *qp);
void madcm_rnic_qp_tx_zc_end(struct madcm_rnic_qp *qp);
void madcm_rnic_qp_tx_zc_sent(struct madcm_rnic_qp *qp, struct list_head *acked);
extern unsigned int madcm_rnic_tx_zcopy_min;
extern bool madcm_rnic_mpa_crc;
extern unsigned int madcm_rnic_responder_hold_ms;
extern unsigned int madcm_rnic_initiator_nudge_ms;
int madcm_rnic_qp_read_req(struct madcm_rnic_qp *qp, u32 sink_stag,
			   u64 sink_to, u32 src_stag, u64 src_to, u32 len);
int madcm_rnic_qp_read_done(struct madcm_rnic_qp *qp);
void madcm_rnic_qp_terminate(struct madcm_rnic_qp *qp,
			     enum ib_wc_status read_status, u8 layer, u8 etype,
			     u8 ecode, const void *hdr, u32 hdr_len);
void madcm_rnic_qp_local_error_locked(struct madcm_rnic_qp *qp,
				      struct madcm_rnic_due *due);

/*
 * rnic/uverbs.c: soft-iWARP's user ABI (include/uapi/rdma/siw-abi.h) on a
 * madcm device, with the module parameter rnic_uverbs. The rings live in
 * vmalloc_user memory the process maps and may change at any time: each
 * entry is read once into a kernel copy, then checked (rnic/uwqe.c).
 */
extern bool madcm_rnic_uverbs_on;
extern const struct ib_device_ops madcm_rnic_uverbs_ops;
int madcm_rnic_uverbs_init(void);
void madcm_rnic_uverbs_exit(void);
int madcm_rnic_uverbs_claim(void);
void madcm_rnic_uverbs_unclaim(struct madcm_rnic_dev *dev);
bool madcm_rnic_ucqe_put(struct siw_cqe *ring, u32 size, u32 idx,
			 const struct ib_wc *wc);
bool madcm_rnic_ucq_notify(struct siw_cq_ctrl *ctrl, bool solicited);
void madcm_rnic_usq_fetch_locked(struct madcm_rnic_qp *qp);
bool madcm_rnic_usq_pending(struct madcm_rnic_qp *qp);
void madcm_rnic_urq_fetch_locked(struct madcm_rnic_qp *qp);
int madcm_rnic_ucq_create(struct madcm_rnic_cq *cq, struct ib_udata *udata);
void madcm_rnic_ucq_destroy(struct madcm_rnic_cq *cq);
int madcm_rnic_uqp_create(struct madcm_rnic_qp *qp, struct ib_udata *udata);
void madcm_rnic_uqp_destroy(struct madcm_rnic_qp *qp);

/*
 * rnic/uverbs.c: a process's share of the device (rnic_user_share).
 * madcm_rnic_user_charge(): 0 for a kernel object (@udata NULL, *@uctx
 * NULL) or a user object within the share (*@uctx its context, to give
 * back with madcm_rnic_user_uncharge()); -ENOMEM, counted (user_limit),
 * beyond it.
 */
int madcm_rnic_user_charge(struct madcm_rnic_dev *dev, struct ib_udata *udata,
			   enum madcm_rnic_res res,
			   struct madcm_rnic_ucontext **uctx);
void madcm_rnic_user_uncharge(struct madcm_rnic_dev *dev,
			      struct madcm_rnic_ucontext *uctx,
			      enum madcm_rnic_res res);
/* GFP flags for an object's memory: a process's is charged to its memcg. */
static inline gfp_t madcm_rnic_gfp(const struct madcm_rnic_ucontext *uctx)
{
	return uctx ? GFP_KERNEL_ACCOUNT : GFP_KERNEL;
}

#endif /* _MADCM_RNIC_RNIC_H */
