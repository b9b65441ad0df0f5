/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MPA (mpa.c): building and checking the request, reply and reject
 * frames of RFC 5044 section 7.1, the IRD/ORD and RTR negotiation of
 * RFC 6581, and the RTR message as an MPA FPDU. The wire layouts are in
 * iwarp.h.
 */
#ifndef _MADCM_IRDMA_CM_MPA_H
#define _MADCM_IRDMA_CM_MPA_H

#include <linux/types.h>
#include <asm/byteorder.h>
#include "iwarp/fpdu.h"
#include "iwarp/iwarp.h"

struct irdma_cm_node;

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
	IRDMA_MPA_REJ_PDATA_TOO_LONG,	/* -EMSGSIZE */
	IRDMA_MPA_REJ_TRUNCATED,	/* -EOVERFLOW */
	IRDMA_MPA_REJ_NO_RTR_MSG,	/* -ENOMSG */
	IRDMA_MPA_REJ_NO_PEER_TO_PEER,	/* -EOPNOTSUPP */
	IRDMA_MPA_REJ_RTR_MISMATCH,	/* -ENOPROTOOPT */
	IRDMA_MPA_REJ_IRD_TOO_SMALL,	/* -ENOBUFS */
	IRDMA_MPA_REJ_MARKERS,		/* -EOPNOTSUPP */
	IRDMA_MPA_REJ_NR
};

struct irdma_kmem_info;

/*
 * The steering tag and offset of a zero-length RTR: it places no data,
 * so no buffer is named (siw, for one, does not look them up for a
 * zero-length Write or Read).
 */
#define IRDMA_RTR_STAG		0
#define IRDMA_RTR_TO		0

/* The longest RTR FPDU: a Read Request, 2 + 18 + 28 + PAD 0 + 4. */
#define IRDMA_RTR_MAX_FPDU	(MPA_ULPDU_LEN_SIZE + \
				 sizeof(struct ddp_untagged_hdr) + \
				 sizeof(struct rdmap_read_req_hdr) + \
				 MPA_CRC_SIZE)

/* Building frames. */
void irdma_build_mpa_v1(struct irdma_cm_node *cm_node, void *start_addr,
			u8 mpa_key);
void irdma_build_mpa_v2(struct irdma_cm_node *cm_node, void *start_addr,
			u8 mpa_key);
int irdma_cm_build_mpa_frame(struct irdma_cm_node *cm_node,
			     struct irdma_kmem_info *mpa, u8 mpa_key);

/* Checking a received frame. */
int irdma_parse_mpa(struct irdma_cm_node *cm_node, const u8 *buf, u32 *type,
		    u32 len);

/* RFC 6581 IRD/ORD and RTR negotiation. */
void irdma_record_ird_ord(struct irdma_cm_node *cm_node, u32 conn_ird,
			  u32 conn_ord);
int irdma_negotiate_mpa_v2_ird_ord(struct irdma_cm_node *cm_node,
				   const struct ietf_rtr_msg *rtr_msg);

/* The RTR message, framed as an MPA FPDU. */
int irdma_build_rtr_fpdu(u8 rtr_type, bool crc, u8 *buf, u32 size);
bool irdma_rtr_fpdu_ok(const u8 *fpdu, u32 len, bool crc);

/*
 * The RFC 6581 words of a frame header, as sent, or 0 and 0 when it
 * carries none. @len: how many bytes of the frame @hdr holds (at least
 * the revision 1 header).
 */
static inline void irdma_mpa_rtr_words(const struct ietf_mpa_v1 *hdr,
				       u32 len, u16 *ird, u16 *ord)
{
	const struct ietf_mpa_v2 *v2 = (const struct ietf_mpa_v2 *)hdr;

	*ird = 0;
	*ord = 0;
	if (hdr->rev != IETF_MPA_V2 ||
	    !(hdr->flags & IETF_MPA_FLAGS_ENHANCED) || len < sizeof(*v2))
		return;
	*ird = be16_to_cpu(v2->rtr_msg.ctrl_ird);
	*ord = be16_to_cpu(v2->rtr_msg.ctrl_ord);
}

/* mpa_stats.c: rejection counters, /sys/kernel/debug/madcm/mpa_rejects. */
int irdma_mpa_refuse(enum irdma_mpa_reject why);
u64 irdma_mpa_reject_count(enum irdma_mpa_reject why);

#endif /* _MADCM_IRDMA_CM_MPA_H */
