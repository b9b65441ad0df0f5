// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MAD core's start and end: its workqueue, its debugfs directory and
 * the ib_core client.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/llist.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include "ib_port.h"
#include "fault.h"
#include "mad_priv.h"
#include "madcm.h"
#include "rmpp.h"

#define CREATE_TRACE_POINTS
#include "madcm_trace.h"

struct workqueue_struct *madcm_mad_wq;
struct workqueue_struct *madcm_mad_ah_wq;

/*
 * vmalloc'ed blocks waiting to be freed, each carrying itself on the list
 * with its first bytes (vfree_atomic() is not exported to modules).
 */
static LLIST_HEAD(madcm_vfree_list);

static void madcm_vfree_work_fn(struct work_struct *work)
{
	struct llist_node *n, *next;

	llist_for_each_safe(n, next, llist_del_all(&madcm_vfree_list))
		vfree(n);
}

static DECLARE_WORK(madcm_vfree_work, madcm_vfree_work_fn);

/*
 * madcm_kvfree_any() - kvfree() that never sleeps
 * @p: from kvmalloc() and friends, or NULL
 *
 * vfree() may sleep; a received RMPP transfer (and the last reference of
 * a removed port) may be freed from any context. A vmalloc'ed block is
 * freed by a work instead.
 */
void madcm_kvfree_any(void *p)
{
	if (!is_vmalloc_addr(p)) {
		kfree(p);
		return;
	}
	if (llist_add(p, &madcm_vfree_list))
		schedule_work(&madcm_vfree_work);
}

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
	/*
	 * Address resolution may block for seconds: never in front of the
	 * timeouts and retries of madcm_mad_wq.
	 */
	madcm_mad_ah_wq = alloc_workqueue("madcm_mad_ah", WQ_UNBOUND, 0);
	if (!madcm_mad_ah_wq) {
		destroy_workqueue(madcm_mad_wq);
		madcm_mad_wq = NULL;
		madcm_send_buf_exit();
		return -ENOMEM;
	}
	madcm_ports_init();
	madcm_fault_init();
	ret = madcm_ib_init();
	if (ret) {
		madcm_fault_exit();
		madcm_ports_exit();
		destroy_workqueue(madcm_mad_ah_wq);
		madcm_mad_ah_wq = NULL;
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
	madcm_fault_exit();
	madcm_ports_exit();
	madcm_agents_exit();
	destroy_workqueue(madcm_mad_ah_wq);
	madcm_mad_ah_wq = NULL;
	flush_work(&madcm_vfree_work);
	destroy_workqueue(madcm_mad_wq);
	madcm_mad_wq = NULL;
	madcm_send_buf_exit();
}
