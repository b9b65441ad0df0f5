/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ib_core transport: madcm as an ib_client, one madcm port per port
 * of every device with MADs, each on a UD QP of its own.
 */
#ifndef _MADCM_IB_PORT_H
#define _MADCM_IB_PORT_H

int madcm_ib_init(void);
void madcm_ib_exit(void);

#endif /* _MADCM_IB_PORT_H */
