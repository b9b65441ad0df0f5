/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software form of irdma's quad hash: the table of steering entries
 * (listeners and connections) that decides which received TCP segments
 * belong to the CM. Lookups are O(1) and run under RCU from the receive
 * path; inserts and removals may sleep.
 */
#ifndef _MADCM_IRDMA_CM_QHASH_H
#define _MADCM_IRDMA_CM_QHASH_H

#include <linux/rhashtable-types.h>
#include "irdma_cm/wire.h"

/**
 * struct irdma_qhash_table - steering entries of one device
 * @ht: entries keyed by type, addresses, ports and VLAN
 * @count: entries in @ht
 * @max: the most entries allowed (module parameter qhash_max)
 */
struct irdma_qhash_table {
	struct rhashtable ht;
	atomic_t count;
	u32 max;
};

int irdma_qhash_init(struct irdma_qhash_table *tbl, u32 max);
void irdma_qhash_destroy(struct irdma_qhash_table *tbl);
int irdma_qhash_insert(struct irdma_qhash_table *tbl,
		       const struct irdma_cm_qhash *qh, gfp_t gfp);
int irdma_qhash_remove(struct irdma_qhash_table *tbl,
		       const struct irdma_cm_qhash *qh);
bool irdma_qhash_has(struct irdma_qhash_table *tbl,
		     const struct irdma_cm_qhash *qh);
size_t irdma_qhash_mem(struct irdma_qhash_table *tbl,
		       const struct irdma_cm_qhash *qh);
bool irdma_qhash_match(struct irdma_qhash_table *tbl,
		       const struct irdma_cm_addr *loc,
		       const struct irdma_cm_addr *rem, u16 vlan_id,
		       enum irdma_qhash_type *type);

#endif /* _MADCM_IRDMA_CM_QHASH_H */
