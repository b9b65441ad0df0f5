/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _MADCM_IRDMA_CM_CM_TEARDOWN_H
#define _MADCM_IRDMA_CM_CM_TEARDOWN_H

#include <linux/in6.h>

struct irdma_cm_core;

int irdma_cm_teardown_connections(struct irdma_cm_core *core,
				  const struct in6_addr *addr);

#endif /* _MADCM_IRDMA_CM_CM_TEARDOWN_H */
