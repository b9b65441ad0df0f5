/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _MADCM_IRDMA_CM_CM_CTL_H
#define _MADCM_IRDMA_CM_CM_CTL_H

int madcm_cm_ctl_init(void);
void madcm_cm_ctl_exit(void);

#endif /* _MADCM_IRDMA_CM_CM_CTL_H */
