// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_ibtest: N madcm Gets kept in flight to a QP1 (each answered with
 * "unsupported method/attribute"), every send posted again from its own
 * send handler, until stopped or until the port refuses posts (device
 * removal). Every send must come back through the send handler exactly
 * once: a second completion of a send not in flight is counted as "dup".
 */
#include <linux/slab.h>
#include <linux/wait.h>
#include <madcm/mad.h>

#include "madcm_ibtest.h"

#define IBT_FLOOD_CLASS		0x09
#define IBT_FLOOD_ATTR		0xff02
#define IBT_FLOOD_MAX		4096
#define IBT_FLOOD_WAIT_MS	30000

static struct {
	atomic_t posted, completed, dup, ok, flushed, other, resp, refused;
	bool stop;
	struct ib_ah *ah;
	u32 n;
	struct ib_mad_send_buf **bufs;
	atomic_t *in_flight;
	atomic_t tid;
	wait_queue_head_t wq;
} ibt_f;

/* Post buffer @i again; 0 or the post's error. */
static int ibt_flood_post(u32 i)
{
	struct ib_mad_send_buf *sb = ibt_f.bufs[i];
	int ret;

	ibt_fill_get(sb, IBT_FLOOD_CLASS, IBT_FLOOD_ATTR, NULL,
		     (u64)ibt.m_client->hi_tid << 32 |
		     (u32)atomic_inc_return(&ibt_f.tid));
	sb->timeout_ms = 2000;
	sb->retries = 1;
	atomic_set(&ibt_f.in_flight[i], 1);
	atomic_inc(&ibt_f.posted);
	ret = madcm_post_send_mad(sb, NULL);
	if (ret) {
		atomic_set(&ibt_f.in_flight[i], 0);
		atomic_dec(&ibt_f.posted);
		atomic_inc(&ibt_f.refused);
	}
	return ret;
}

void ibt_flood_done(struct ib_mad_send_wc *wc)
{
	u32 i = (uintptr_t)wc->send_buf->context[1];

	if (!atomic_xchg(&ibt_f.in_flight[i], 0))
		atomic_inc(&ibt_f.dup);
	if (wc->status == IB_WC_SUCCESS)
		atomic_inc(&ibt_f.ok);
	else if (wc->status == IB_WC_WR_FLUSH_ERR)
		atomic_inc(&ibt_f.flushed);
	else
		atomic_inc(&ibt_f.other);
	if (!READ_ONCE(ibt_f.stop))
		ibt_flood_post(i);
	/* Last: once completed == posted, nothing touches the buffers. */
	atomic_inc(&ibt_f.completed);
	wake_up(&ibt_f.wq);
}

void ibt_flood_resp(void)
{
	atomic_inc(&ibt_f.resp);
}

int ibt_flood_start(const union ib_gid *gid, u32 n)
{
	u32 i;
	int ret;

	if (ibt_f.bufs || !n || n > IBT_FLOOD_MAX)
		return -EINVAL;
	memset(&ibt_f, 0, sizeof(ibt_f));
	init_waitqueue_head(&ibt_f.wq);
	ibt_f.bufs = kcalloc(n, sizeof(*ibt_f.bufs), GFP_KERNEL);
	ibt_f.in_flight = kcalloc(n, sizeof(*ibt_f.in_flight), GFP_KERNEL);
	if (!ibt_f.bufs || !ibt_f.in_flight) {
		ret = -ENOMEM;
		goto err;
	}
	ibt_f.ah = ibt_madcm_ah(gid);
	if (IS_ERR(ibt_f.ah)) {
		ret = PTR_ERR(ibt_f.ah);
		ibt_f.ah = NULL;
		goto err;
	}
	for (i = 0; i < n; i++) {
		ibt_f.bufs[i] = madcm_create_send_mad(ibt.m_client, 1, 0, 0,
						      IB_MGMT_VENDOR_HDR,
						      IB_MGMT_VENDOR_DATA,
						      GFP_KERNEL,
						      IB_MGMT_BASE_VERSION);
		if (IS_ERR(ibt_f.bufs[i])) {
			ret = PTR_ERR(ibt_f.bufs[i]);
			ibt_f.bufs[i] = NULL;
			goto err;
		}
		ibt_f.bufs[i]->ah = ibt_f.ah;
		ibt_f.bufs[i]->context[0] = &ibt_f;
		ibt_f.bufs[i]->context[1] = (void *)(uintptr_t)i;
		ibt_f.n = i + 1;
	}
	for (i = 0; i < n; i++) {
		ret = ibt_flood_post(i);
		if (ret)
			goto err;
	}
	pr_info("madcm_ibtest: flood: %u Gets in flight\n", n);
	return 0;
err:
	ibt_flood_stop();
	return ret;
}

/* Stop, wait for every send, free; 0 when each came back exactly once. */
int ibt_flood_finish(void)
{
	bool drained;
	u32 i;

	if (!ibt_f.bufs)
		return -EINVAL;
	WRITE_ONCE(ibt_f.stop, true);
	drained = wait_event_timeout(ibt_f.wq,
				     atomic_read(&ibt_f.completed) ==
				     atomic_read(&ibt_f.posted),
				     msecs_to_jiffies(IBT_FLOOD_WAIT_MS));
	pr_info("madcm_ibtest: flood: posted %d completed %d dup %d ok %d flushed %d other %d responses %d refused %d: %s\n",
		atomic_read(&ibt_f.posted), atomic_read(&ibt_f.completed),
		atomic_read(&ibt_f.dup), atomic_read(&ibt_f.ok),
		atomic_read(&ibt_f.flushed), atomic_read(&ibt_f.other),
		atomic_read(&ibt_f.resp), atomic_read(&ibt_f.refused),
		drained && !atomic_read(&ibt_f.dup) ? "PASS" : "FAIL");
	if (!drained)
		return -EIO;	/* buffers still posted: keep them */
	for (i = 0; i < ibt_f.n; i++)
		madcm_free_send_mad(ibt_f.bufs[i]);
	if (ibt_f.ah)
		madcm_destroy_ah(ibt_f.ah);
	kfree(ibt_f.bufs);
	kfree(ibt_f.in_flight);
	ibt_f.bufs = NULL;
	ibt_f.in_flight = NULL;
	ibt_f.ah = NULL;
	return atomic_read(&ibt_f.dup) ? -EIO : 0;
}

void ibt_flood_stop(void)
{
	if (ibt_f.bufs)
		ibt_flood_finish();
}
