/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MPA suites set a node's MPA options one at a time and read back
 * what a parsed frame left there.
 */
#ifndef _MADCM_TESTS_MPA_OPTS_H
#define _MADCM_TESTS_MPA_OPTS_H

#include "irdma_cm/cm_node.h"

static inline void mpa_opt_set(struct irdma_cm_node *n, u8 bit, bool on)
{
	if (on)
		n->mpa_opts |= bit;
	else
		n->mpa_opts &= ~bit;
}

static inline bool mpa_opt(const struct irdma_cm_node *n, u8 bit)
{
	return n->mpa_opts & bit;
}

#endif /* _MADCM_TESTS_MPA_OPTS_H */
