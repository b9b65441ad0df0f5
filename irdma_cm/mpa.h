/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MPA connection setup frames: the request, reply and reject frames of
 * RFC 5044 section 7.1 and the enhanced connection setup of RFC 6581.
 * Wire layouts, their bits, and the functions that build and parse them.
 */
#ifndef _MADCM_IRDMA_CM_MPA_H
#define _MADCM_IRDMA_CM_MPA_H

#include <linux/build_bug.h>
#include <linux/types.h>

struct irdma_cm_node;

/* RFC 5044 section 7.1: the 16-byte keys, without a terminating NUL. */
#define IETF_MPA_KEY_SIZE	16
#define IETF_MPA_KEY_REQ	"MPA ID Req Frame"
#define IETF_MPA_KEY_REP	"MPA ID Rep Frame"

/* RFC 5044 section 7.1: private data is at most 512 bytes. */
#define IETF_MAX_PRIV_DATA_LEN	512

/*
 * Byte 16 of the frame. M, C and R are RFC 5044's; S ("enhanced RDMA
 * connection establishment data present") is RFC 6581's and takes the
 * highest of RFC 5044's reserved bits. The rest stays reserved: sent as
 * zero, not checked on receipt.
 */
enum ietf_mpa_flags {
	IETF_MPA_FLAGS_MARKERS = 0x80,
	IETF_MPA_FLAGS_CRC = 0x40,
	IETF_MPA_FLAGS_REJECT = 0x20,
	IETF_MPA_FLAGS_ENHANCED = 0x10,
	IETF_MPA_FLAGS_RESERVED = 0x0f,
};

/* Byte 17 of the frame: the revisions this CM speaks. */
enum mpa_frame_ver {
	IETF_MPA_V1 = 1,
	IETF_MPA_V2 = 2,
};

/*
 * RFC 6581: the enhanced connection setup data, the first four bytes of a
 * revision 2 frame's private data when S is set:
 *
 *   |A|B|     IRD (14 bits)     |C|D|     ORD (14 bits)     |
 *
 * A: peer-to-peer (an RTR message follows the reply); B, C, D: the RTR
 * message may be a zero-length Send, RDMA Write or RDMA Read.
 */
#define IETF_RTR_MSG_SIZE	4

enum ietf_rtr_ird_bits {
	IETF_PEER_TO_PEER = 0x8000,
	IETF_RTR_SEND_ZERO = 0x4000,
};

enum ietf_rtr_ord_bits {
	IETF_RDMA0_WRITE = 0x8000,
	IETF_RDMA0_READ = 0x4000,
};

/*
 * The 14-bit IRD/ORD field. All ones is what the Linux iWARP drivers
 * (cxgb4, i40iw, irdma) send when they have no value to negotiate; the
 * largest real value is one less.
 */
#define IETF_IRD_ORD_MASK	0x3fff
#define IETF_NO_IRD_ORD		IETF_IRD_ORD_MASK
#define IETF_MAX_IRD_ORD	(IETF_NO_IRD_ORD - 1)

/**
 * struct ietf_mpa_v1 - RFC 5044 MPA request/reply frame header
 * @key: IETF_MPA_KEY_REQ or IETF_MPA_KEY_REP
 * @flags: enum ietf_mpa_flags
 * @rev: enum mpa_frame_ver
 * @priv_data_len: bytes of private data that follow, big endian
 * @priv_data: the private data
 */
struct ietf_mpa_v1 {
	u8 key[IETF_MPA_KEY_SIZE];
	u8 flags;
	u8 rev;
	__be16 priv_data_len;
	u8 priv_data[];
} __packed;

/**
 * struct ietf_rtr_msg - RFC 6581 IRD/ORD and RTR control words
 * @ctrl_ird: enum ietf_rtr_ird_bits and the 14-bit IRD, big endian
 * @ctrl_ord: enum ietf_rtr_ord_bits and the 14-bit ORD, big endian
 */
struct ietf_rtr_msg {
	__be16 ctrl_ird;
	__be16 ctrl_ord;
} __packed;

/**
 * struct ietf_mpa_v2 - a revision 2 frame header with its RFC 6581 data
 * @key: IETF_MPA_KEY_REQ or IETF_MPA_KEY_REP
 * @flags: enum ietf_mpa_flags, IETF_MPA_FLAGS_ENHANCED set
 * @rev: IETF_MPA_V2
 * @priv_data_len: bytes of private data, @rtr_msg included, big endian
 * @rtr_msg: the IRD/ORD and RTR control words
 * @priv_data: the consumer's private data
 */
struct ietf_mpa_v2 {
	u8 key[IETF_MPA_KEY_SIZE];
	u8 flags;
	u8 rev;
	__be16 priv_data_len;
	struct ietf_rtr_msg rtr_msg;
	u8 priv_data[];
} __packed;

static_assert(sizeof(struct ietf_mpa_v1) == 20);
static_assert(sizeof(struct ietf_rtr_msg) == IETF_RTR_MSG_SIZE);
static_assert(sizeof(struct ietf_mpa_v2) == 24);

/* Which frame to build. A reject is a reply with R set. */
enum mpa_frame_key {
	MPA_KEY_REQUEST,
	MPA_KEY_REPLY,
	MPA_KEY_REJECT,
};

/* What irdma_parse_mpa() found in a well-formed frame. */
#define IRDMA_MPA_REQUEST_ACCEPT	1
#define IRDMA_MPA_REQUEST_REJECT	2

/*
 * Why a frame was refused: one counter and one errno each (mpa_stats.c,
 * Documentation/irdma_cm.rst).
 */
enum irdma_mpa_reject {
	IRDMA_MPA_REJ_SHORT_HEADER,	/* -ENODATA */
	IRDMA_MPA_REJ_BAD_KEY,		/* -EBADMSG */
	IRDMA_MPA_REJ_BAD_REV,		/* -EPROTONOSUPPORT */
	IRDMA_MPA_REJ_REV_ABOVE_OFFER,	/* -EPROTO */
	IRDMA_MPA_REJ_REJECT_IN_REQUEST, /* -EBADRQC */
	IRDMA_MPA_REJ_PDATA_TOO_LONG,	/* -EMSGSIZE */
	IRDMA_MPA_REJ_TRUNCATED,	/* -EOVERFLOW */
	IRDMA_MPA_REJ_NO_RTR_MSG,	/* -ENOMSG */
	IRDMA_MPA_REJ_NO_PEER_TO_PEER,	/* -EOPNOTSUPP */
	IRDMA_MPA_REJ_RTR_MISMATCH,	/* -ENOPROTOOPT */
	IRDMA_MPA_REJ_IRD_TOO_SMALL,	/* -ENOBUFS */
	IRDMA_MPA_REJ_NR
};

/* mpa.c: building frames. */
struct irdma_kmem_info;
void irdma_build_mpa_v1(struct irdma_cm_node *cm_node, void *start_addr,
			u8 mpa_key);
void irdma_build_mpa_v2(struct irdma_cm_node *cm_node, void *start_addr,
			u8 mpa_key);
int irdma_cm_build_mpa_frame(struct irdma_cm_node *cm_node,
			     struct irdma_kmem_info *mpa, u8 mpa_key);

/* mpa_parse.c: checking a received frame. */
int irdma_parse_mpa(struct irdma_cm_node *cm_node, const u8 *buf, u32 *type,
		    u32 len);

/* mpa_ird_ord.c: RFC 6581 IRD/ORD and RTR negotiation. */
void irdma_record_ird_ord(struct irdma_cm_node *cm_node, u32 conn_ird,
			  u32 conn_ord);
int irdma_negotiate_mpa_v2_ird_ord(struct irdma_cm_node *cm_node,
				   const struct ietf_rtr_msg *rtr_msg);

/* mpa_stats.c: rejection counters, /sys/kernel/debug/madcm/mpa_rejects. */
int irdma_mpa_refuse(enum irdma_mpa_reject why);
u64 irdma_mpa_reject_count(enum irdma_mpa_reject why);

#endif /* _MADCM_IRDMA_CM_MPA_H */
