/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CM's start and end (cm_main.c), and what it starts: the MPA refusal
 * counters (mpa_stats.c) and the net_device backend (wire_netdev.c).
 */
#ifndef _MADCM_IRDMA_CM_CM_MAIN_H
#define _MADCM_IRDMA_CM_CM_MAIN_H

int madcm_cm_init(void);
void madcm_cm_exit(void);

int irdma_mpa_stats_init(void);
void irdma_mpa_stats_exit(void);

#endif /* _MADCM_IRDMA_CM_CM_MAIN_H */
