// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MAD core's start and end: its workqueue, its debugfs directory and
 * the ib_core client.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/workqueue.h>
#include "ib_port.h"
#include "mad_priv.h"
#include "madcm.h"
#include "rmpp.h"

#define CREATE_TRACE_POINTS
#include "madcm_trace.h"

struct workqueue_struct *madcm_mad_wq;

int madcm_mad_init(void)
{
	int ret;

	ret = madcm_send_buf_init();
	if (ret)
		return ret;
	madcm_mad_wq = alloc_workqueue("madcm_mad", WQ_UNBOUND, 0);
	if (!madcm_mad_wq) {
		madcm_send_buf_exit();
		return -ENOMEM;
	}
	madcm_ports_init();
	ret = madcm_ib_init();
	if (ret) {
		madcm_ports_exit();
		destroy_workqueue(madcm_mad_wq);
		madcm_mad_wq = NULL;
		madcm_send_buf_exit();
		return ret;
	}
	return 0;
}

void madcm_mad_exit(void)
{
	madcm_ib_exit();
	madcm_ports_exit();
	madcm_agents_exit();
	destroy_workqueue(madcm_mad_wq);
	madcm_mad_wq = NULL;
	madcm_send_buf_exit();
}
