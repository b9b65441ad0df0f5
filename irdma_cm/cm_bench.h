/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _MADCM_IRDMA_CM_CM_BENCH_H
#define _MADCM_IRDMA_CM_CM_BENCH_H

struct dentry;

void madcm_cm_bench_init(struct dentry *dir);

#endif /* _MADCM_IRDMA_CM_CM_BENCH_H */
