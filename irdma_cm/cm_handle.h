/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A consumer's handles of a listener and of a connection (<madcm/cm.h>):
 * embedded in the CM's own objects (struct irdma_cm_listener, struct
 * irdma_cm_node), which cm_core.h converts them back to. They carry no
 * data of their own; they exist so that the public API names no irdma_*
 * type and a consumer cannot mix a listener up with a connection.
 */
#ifndef _MADCM_IRDMA_CM_CM_HANDLE_H
#define _MADCM_IRDMA_CM_CM_HANDLE_H

struct madcm_cm_listener {
};

struct madcm_cm_conn {
};

#endif /* _MADCM_IRDMA_CM_CM_HANDLE_H */
