// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_ibtest: put madcm's QP on the device under test into the error
 * state, as a device fault would, so that a VM script can check that the
 * port stops reposting, recovers and carries MADs again.
 *
 * madcm exports no way to reach its QP, and should not. A kprobe on the
 * completion handler of madcm's sends (madcm_ib_send_done(cq, wc)) reads
 * the QP from the work completion of the next send madcm makes on the
 * device; the caller makes that send, then the QP is moved to IB_QPS_ERR
 * with ib_core's own verb.
 */
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <rdma/ib_verbs.h>

#include "madcm_ibtest.h"

static struct ib_qp *ibt_qperr_qp;

static int ibt_qperr_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct ib_wc *wc = (struct ib_wc *)regs_get_kernel_argument(regs, 1);

	if (!READ_ONCE(ibt_qperr_qp) && wc->qp && wc->qp->device == ibt.dev)
		WRITE_ONCE(ibt_qperr_qp, wc->qp);
	return 0;
}

static struct kprobe ibt_qperr_kp = {
	.symbol_name = "madcm_ib_send_done",
	.pre_handler = ibt_qperr_pre,
};

/* Watch madcm's send completions until ibt_qperr_fire(). */
int ibt_qperr_arm(void)
{
	WRITE_ONCE(ibt_qperr_qp, NULL);
	ibt_qperr_kp.addr = NULL;
	ibt_qperr_kp.flags = 0;
	return register_kprobe(&ibt_qperr_kp);
}

/*
 * @sent: the result of the send made since ibt_qperr_arm(). Stops
 * watching; moves the QP seen to the error state.
 */
int ibt_qperr_fire(int sent)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_qp *qp;

	unregister_kprobe(&ibt_qperr_kp);
	qp = READ_ONCE(ibt_qperr_qp);
	if (sent)
		return sent;
	if (!qp)
		return -ENOENT;
	pr_info("madcm_ibtest: moving madcm's QP %u on %s to the error state\n",
		qp->qp_num, dev_name(&ibt.dev->dev));
	return ib_modify_qp(qp, &attr, IB_QP_STATE);
}
