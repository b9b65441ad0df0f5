// SPDX-License-Identifier: GPL-2.0-only
/*
 * TEMPORARY: stand-ins for the CM's side of the offload boundary until
 * the CM's implementation (madcm_cm_offload_xmit() and
 * madcm_cm_offload_event() in irdma_cm/) is merged. Removed then.
 */
#include <linux/errno.h>
#include <madcm/cm_offload.h>

void madcm_cm_offload_event(struct madcm_cm_offload_qp *qp,
			    enum madcm_cm_offload_event ev, int status)
{
}

int madcm_cm_offload_xmit(struct madcm_cm_offload_qp *qp, const u8 *frame,
			  u32 len)
{
	return -EOPNOTSUPP;
}
