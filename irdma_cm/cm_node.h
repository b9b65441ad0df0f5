/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct irdma_cm_node: one iWARP connection as the CM sees it. For now it
 * holds what the MPA exchange needs; the connection state machine adds
 * its TCP state, timers and table linkage.
 */
#ifndef _MADCM_IRDMA_CM_CM_NODE_H
#define _MADCM_IRDMA_CM_CM_NODE_H

#include <linux/bits.h>
#include <linux/types.h>
#include "irdma_cm/mpa.h"

/* Which side of the MPA exchange this node is. */
enum irdma_cm_role {
	IRDMA_CM_ROLE_INITIATOR,	/* sends the request, reads the reply */
	IRDMA_CM_ROLE_RESPONDER,	/* reads the request, sends the reply */
};

/* The RTR message types of RFC 6581, as a mask of what a node can do. */
enum irdma_rtr_type {
	IRDMA_RTR_NONE = 0,
	IRDMA_RTR_SEND = BIT(0),	/* zero-length Send */
	IRDMA_RTR_WRITE = BIT(1),	/* zero-length RDMA Write */
	IRDMA_RTR_READ = BIT(2),	/* zero-length RDMA Read */
};

#define IRDMA_RTR_ALL	(IRDMA_RTR_SEND | IRDMA_RTR_WRITE | IRDMA_RTR_READ)

/**
 * struct irdma_mpa_priv_info - private data to send
 * @addr: the bytes, owned by the caller
 * @size: how many
 */
struct irdma_mpa_priv_info {
	const void *addr;
	u32 size;
};

/**
 * struct irdma_kmem_info - a buffer to build into
 * @addr: where
 * @size: its size in bytes
 */
struct irdma_kmem_info {
	void *addr;
	u32 size;
};

/**
 * struct irdma_cm_node - a connection's MPA parameters
 * @role: initiator or responder
 * @mpa_frame_rev: the revision we offer; once a frame is parsed, the one
 *	both sides use
 * @pdata: private data for the next frame we send
 * @rcvd_pdata_len: bytes of private data the peer sent, IRD/ORD excluded
 * @rcvd_pdata: the peer's private data
 * @max_ird: the most inbound RDMA Reads the device can keep in flight
 * @max_ord: the most outbound RDMA Reads the device can issue
 * @ird_size: our inbound RDMA Read queue depth
 * @ord_size: our outbound RDMA Read queue depth
 * @mpav2_ird_ord: IETF_NO_IRD_ORD when no IRD/ORD values are exchanged
 * @rtr_caps: the RTR types (enum irdma_rtr_type) we can send or accept
 * @send_rdma0_op: the RTR type chosen for this connection
 * @peer_to_peer: we use RFC 6581's peer-to-peer model (an RTR message)
 * @mpa_crc: we ask for CRC on FPDUs (the C flag we send)
 * @rcv_mark_en: we ask for markers in what we receive (the M flag we send)
 * @peer_crc: the peer asked for CRC
 * @snd_mark_en: the peer asked for markers in what we send
 */
struct irdma_cm_node {
	enum irdma_cm_role role;
	enum mpa_frame_ver mpa_frame_rev;
	struct irdma_mpa_priv_info pdata;
	u16 rcvd_pdata_len;
	u8 rcvd_pdata[IETF_MAX_PRIV_DATA_LEN];
	u16 max_ird;
	u16 max_ord;
	u16 ird_size;
	u16 ord_size;
	u16 mpav2_ird_ord;
	u8 rtr_caps;
	u8 send_rdma0_op;
	bool peer_to_peer;
	bool mpa_crc;
	bool rcv_mark_en;
	bool peer_crc;
	bool snd_mark_en;
};

#endif /* _MADCM_IRDMA_CM_CM_NODE_H */
