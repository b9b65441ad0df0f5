// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MAD core's start and end: its workqueue and debugfs directory.
 */
#include <linux/workqueue.h>
#include "mad_priv.h"
#include "madcm.h"
#include "rmpp.h"

#define CREATE_TRACE_POINTS
#include "madcm_trace.h"

struct workqueue_struct *madcm_mad_wq;

int madcm_mad_init(void)
{
	madcm_mad_wq = alloc_workqueue("madcm_mad", WQ_UNBOUND, 0);
	if (!madcm_mad_wq)
		return -ENOMEM;
	madcm_ports_init();
	madcm_rmpp_bench_init();
	return 0;
}

void madcm_mad_exit(void)
{
	madcm_ports_exit();
	madcm_agents_exit();
	destroy_workqueue(madcm_mad_wq);
	madcm_mad_wq = NULL;
}
