/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SYN cookies (RFC 4987 3.6): the ISN of a stateless SYN-ACK, a keyed
 * hash of the connection's 4-tuple, the peer's ISN, a coarse time counter
 * and an MSS index, so that the final ACK alone can rebuild the
 * connection. Pure functions; the listener's use of them is in
 * cm_backlog.c.
 */
#ifndef _MADCM_IRDMA_CM_SYNCOOKIE_H
#define _MADCM_IRDMA_CM_SYNCOOKIE_H

#include <linux/bits.h>
#include <linux/siphash.h>
#include <linux/types.h>
#include "irdma_cm/cm_node.h"

/* The time counter advances every 64 seconds. */
#define IRDMA_SYNCOOKIE_PERIOD_S	64
/* A cookie is good while the counter is its own or the next one. */
#define IRDMA_SYNCOOKIE_MAX_AGE		1
/* Cookie layout, from bit 0: MSS index, counter modulo 32, hash. */
#define IRDMA_SYNCOOKIE_MSS_BITS	3
#define IRDMA_SYNCOOKIE_COUNT_BITS	5
#define IRDMA_SYNCOOKIE_MSS_MASK	GENMASK(2, 0)
#define IRDMA_SYNCOOKIE_COUNT_MASK	GENMASK(7, 3)
#define IRDMA_SYNCOOKIE_HASH_MASK	GENMASK(31, 8)
#define IRDMA_SYNCOOKIE_NR_MSS		BIT(IRDMA_SYNCOOKIE_MSS_BITS)

/**
 * struct irdma_syncookie_in - what the cookie's hash covers
 * @loc_ip: our address
 * @rem_ip: the peer's address
 * @loc_port: our port (host order)
 * @rem_port: the peer's port (host order)
 * @vlan_id: VLAN ID or IRDMA_NO_VLAN
 * @mss_idx: index into irdma_syncookie_mss[]
 * @peer_isn: the peer's ISN (its SYN's sequence number)
 * @count: the full time counter
 *
 * The hash is the low 32 bits of siphash() over this structure, as laid
 * out here (48 bytes, no holes), with the core's key.
 */
struct irdma_syncookie_in {
	struct in6_addr loc_ip;
	struct in6_addr rem_ip;
	u16 loc_port;
	u16 rem_port;
	u16 vlan_id;
	u16 mss_idx;
	u32 peer_isn;
	u32 count;
};

extern const u16 irdma_syncookie_mss[IRDMA_SYNCOOKIE_NR_MSS];

u8 irdma_syncookie_mss_idx(u16 peer_mss);
u32 irdma_syncookie_count(void);
u32 irdma_syncookie_make(const siphash_key_t *key,
			 const struct irdma_cm_tuple *t, u32 peer_isn,
			 u32 count, u8 mss_idx);
bool irdma_syncookie_check(const siphash_key_t *key,
			   const struct irdma_cm_tuple *t, u32 peer_isn,
			   u32 cookie, u32 now, u8 *mss_idx);

#endif /* _MADCM_IRDMA_CM_SYNCOOKIE_H */
