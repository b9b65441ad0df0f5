/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shim: the part of <rdma/ib_verbs.h> that the MAD core's receive path
 * and the kernel's <rdma/ib_mad.h> use: GIDs, the GRH, work completions,
 * address handles and their attributes; and what the RNIC's work queue
 * entries (rnic/uwqe.h) hold: SGEs, work request opcodes and send flags.
 * Values follow ib_verbs.h.
 */
#ifndef _MADCM_FUZZ_IB_VERBS_H
#define _MADCM_FUZZ_IB_VERBS_H

#include "../fuzz_kernel.h"

struct ib_device;
struct ib_qp;
struct ib_pd;
struct ib_uobject;

union ib_gid {
	u8 raw[16];
	struct {
		__be64 subnet_prefix;
		__be64 interface_id;
	} global;
};

struct ib_grh {
	__be32 version_tclass_flow;
	__be16 paylen;
	u8 next_hdr;
	u8 hop_limit;
	union ib_gid sgid;
	union ib_gid dgid;
};

enum ib_qp_type {
	IB_QPT_SMI,
	IB_QPT_GSI,
	IB_QPT_RC = 2,
	IB_QPT_UC,
	IB_QPT_UD,
};

enum ib_wc_status {
	IB_WC_SUCCESS,
	IB_WC_LOC_LEN_ERR,
	IB_WC_LOC_QP_OP_ERR,
	IB_WC_LOC_EEC_OP_ERR,
	IB_WC_LOC_PROT_ERR,
	IB_WC_WR_FLUSH_ERR,
	IB_WC_MW_BIND_ERR,
	IB_WC_BAD_RESP_ERR,
	IB_WC_LOC_ACCESS_ERR,
	IB_WC_REM_INV_REQ_ERR,
	IB_WC_REM_ACCESS_ERR,
	IB_WC_REM_OP_ERR,
	IB_WC_RETRY_EXC_ERR,
	IB_WC_RNR_RETRY_EXC_ERR,
	IB_WC_LOC_RDD_VIOL_ERR,
	IB_WC_REM_INV_RD_REQ_ERR,
	IB_WC_REM_ABORT_ERR,
	IB_WC_INV_EECN_ERR,
	IB_WC_INV_EEC_STATE_ERR,
	IB_WC_FATAL_ERR,
	IB_WC_RESP_TIMEOUT_ERR,
	IB_WC_GENERAL_ERR
};

enum ib_wc_opcode {
	IB_WC_SEND,
	IB_WC_RECV = 1 << 7,
};

enum ib_wc_flags {
	IB_WC_GRH = 1,
	IB_WC_WITH_IMM = 1 << 1,
};

struct ib_wc {
	u64 wr_id;
	enum ib_wc_status status;
	enum ib_wc_opcode opcode;
	u32 vendor_err;
	u32 byte_len;
	struct ib_qp *qp;
	__be32 imm_data;
	u32 src_qp;
	u32 slid;
	int wc_flags;
	u16 pkey_index;
	u8 sl;
	u8 dlid_path_bits;
	u32 port_num;
};

/* Work requests: the opcodes and send flags of a send queue entry. */
enum ib_wr_opcode {
	IB_WR_RDMA_WRITE,
	IB_WR_RDMA_WRITE_WITH_IMM,
	IB_WR_SEND,
	IB_WR_SEND_WITH_IMM,
	IB_WR_RDMA_READ,
	IB_WR_ATOMIC_CMP_AND_SWP,
	IB_WR_ATOMIC_FETCH_AND_ADD,
	IB_WR_LOCAL_INV,
	IB_WR_BIND_MW,
	IB_WR_SEND_WITH_INV,
	IB_WR_LSO,
	IB_WR_RDMA_READ_WITH_INV,
	IB_WR_REG_MR = 0x20,
};

enum ib_send_flags {
	IB_SEND_FENCE = 1,
	IB_SEND_SIGNALED = 1 << 1,
	IB_SEND_SOLICITED = 1 << 2,
	IB_SEND_INLINE = 1 << 3,
	IB_SEND_IP_CSUM = 1 << 4,
};

struct ib_sge {
	u64 addr;
	u32 length;
	u32 lkey;
};

#define IB_QP_SET_QKEY	0x80000000

enum rdma_ah_attr_type {
	RDMA_AH_ATTR_TYPE_UNDEFINED,
	RDMA_AH_ATTR_TYPE_IB,
	RDMA_AH_ATTR_TYPE_ROCE,
	RDMA_AH_ATTR_TYPE_OPA,
};

enum ib_ah_flags {
	IB_AH_GRH = 1,
};

struct ib_global_route {
	union ib_gid dgid;
	u32 flow_label;
	u8 sgid_index;
	u8 hop_limit;
	u8 traffic_class;
};

struct ib_ah_attr {
	u16 dlid;
	u8 src_path_bits;
};

struct rdma_ah_attr {
	struct ib_global_route grh;
	u8 sl;
	u8 static_rate;
	u32 port_num;
	u8 ah_flags;
	enum rdma_ah_attr_type type;
	struct ib_ah_attr ib;
};

struct ib_ah {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_uobject *uobject;
	enum rdma_ah_attr_type type;
};

static inline void rdma_ah_set_dlid(struct rdma_ah_attr *attr, u32 dlid)
{
	attr->ib.dlid = (u16)dlid;
}

static inline void rdma_ah_set_sl(struct rdma_ah_attr *attr, u8 sl)
{
	attr->sl = sl;
}

static inline void rdma_ah_set_ah_flags(struct rdma_ah_attr *attr, u8 flags)
{
	attr->ah_flags = flags;
}

#endif /* _MADCM_FUZZ_IB_VERBS_H */
