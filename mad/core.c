// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MAD core's start and end: its workqueue, its debugfs directory and
 * the ib_core client.
 */
#include <linux/workqueue.h>
#include "ib_port.h"
#include "mad_priv.h"
#include "madcm.h"
#include "rmpp.h"

#define CREATE_TRACE_POINTS
#include "madcm_trace.h"

struct workqueue_struct *madcm_mad_wq;
struct workqueue_struct *madcm_mad_ah_wq;

int madcm_mad_init(void)
{
	int ret;

	madcm_mad_wq = alloc_workqueue("madcm_mad", WQ_UNBOUND, 0);
	if (!madcm_mad_wq)
		return -ENOMEM;
	/*
	 * Address resolution may block for seconds: never in front of the
	 * timeouts and retries of madcm_mad_wq.
	 */
	madcm_mad_ah_wq = alloc_workqueue("madcm_mad_ah", WQ_UNBOUND, 0);
	if (!madcm_mad_ah_wq) {
		destroy_workqueue(madcm_mad_wq);
		madcm_mad_wq = NULL;
		return -ENOMEM;
	}
	madcm_ports_init();
	ret = madcm_ib_init();
	if (ret) {
		madcm_ports_exit();
		destroy_workqueue(madcm_mad_ah_wq);
		madcm_mad_ah_wq = NULL;
		destroy_workqueue(madcm_mad_wq);
		madcm_mad_wq = NULL;
		return ret;
	}
	/* Last: nothing to undo, and the bench runs only on a complete core. */
	madcm_rmpp_bench_init();
	return 0;
}

void madcm_mad_exit(void)
{
	madcm_ib_exit();
	madcm_ports_exit();
	madcm_agents_exit();
	destroy_workqueue(madcm_mad_ah_wq);
	madcm_mad_ah_wq = NULL;
	destroy_workqueue(madcm_mad_wq);
	madcm_mad_wq = NULL;
}
