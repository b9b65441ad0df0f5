// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_rdmacm_test.ko's echo and bench commands on a data connection:
 * the peer answers each receive (echo send: a Send of its length; echo
 * write LEN: a Write of LEN into our target, then that Send), and bench
 * times, from this side, ping-pongs against that echo (lat_send,
 * lat_write: half the round trip is the latency) or ITERS Writes of LEN
 * with RT_BW_WINDOW in flight, ended by an echoed Send (bw: every byte is
 * placed by then). The time is in the data file's bench_ns.
 */
#include <linux/ktime.h>
#include <linux/wait.h>
#include "rdmacm_test_data.h"

void rt_bw_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rt_data *d = container_of(wc->wr_cqe, struct rt_data, bw_cqe);

	if (wc->status) {
		rt_record_wc_err(d, wc);
		if (!d->op_status)
			d->op_status = wc->status;
	}
	atomic_dec(&d->bw_out);
	wake_up(&d->wq);
}

/* Reply to a receive of @len, in echo mode. */
void rt_echo(struct rt_data *d, enum rt_echo how, u32 len, u32 wlen)
{
	struct ib_rdma_wr w;
	struct ib_send_wr s;
	struct ib_sge wsge, ssge;

	rt_send_wr(&s, &ssge, &d->err_cqe, d->sdma, len,
		   d->pd->local_dma_lkey);
	if (how == RT_ECHO_WRITE) {
		rt_rdma_wr(&w, &wsge, &d->err_cqe, IB_WR_RDMA_WRITE, d->sdma,
			   wlen, d->pd->local_dma_lkey, d->peer_addr,
			   d->peer_rkey);
		w.wr.next = &s;
		rt_post_send(d, &w.wr, NULL);
	} else {
		rt_post_send(d, &s, NULL);
	}
}

/* One ping-pong: post @wr, wait for the peer's echo. */
static int rt_bench_rtt(struct rt_data *d, struct ib_send_wr *wr)
{
	int ret;

	reinit_completion(&d->bench_rx);
	ret = rt_post_send(d, wr, NULL);
	if (ret)
		return ret;
	if (!wait_for_completion_timeout(&d->bench_rx,
					 msecs_to_jiffies(RT_OP_TIMEOUT_MS)))
		return -ETIMEDOUT;
	return READ_ONCE(d->dead) ? -ENOTCONN : 0;
}

static int rt_bench_lat(struct rt_data *d, bool write, u32 len, u32 iters)
{
	struct ib_rdma_wr w;
	struct ib_send_wr s;
	struct ib_sge wsge, ssge;
	u32 i;
	int ret = 0;

	rt_pat_fill(d->sbuf, len, 1);
	rt_send_wr(&s, &ssge, &d->err_cqe, d->sdma,
		   write ? RT_NOTICE_LEN : len, d->pd->local_dma_lkey);
	rt_rdma_wr(&w, &wsge, &d->err_cqe, IB_WR_RDMA_WRITE, d->sdma, len,
		   d->pd->local_dma_lkey, d->peer_addr, d->peer_rkey);
	w.wr.next = &s;
	for (i = 0; i < iters && !ret; i++)
		ret = rt_bench_rtt(d, write ? &w.wr : &s);
	return ret;
}

/* @iters Writes of @len, RT_BW_WINDOW in flight, then a ping-pong. */
static int rt_bench_bw(struct rt_data *d, u32 len, u32 iters)
{
	struct ib_rdma_wr w;
	struct ib_send_wr s;
	struct ib_sge wsge, ssge;
	u32 i;
	int ret = 0;

	rt_pat_fill(d->sbuf, len, 1);
	rt_rdma_wr(&w, &wsge, &d->bw_cqe, IB_WR_RDMA_WRITE, d->sdma, len,
		   d->pd->local_dma_lkey, d->peer_addr, d->peer_rkey);
	d->op_status = 0;
	atomic_set(&d->bw_out, 0);
	for (i = 0; i < iters && !ret; i++) {
		if (!wait_event_timeout(d->wq,
					atomic_read(&d->bw_out) < RT_BW_WINDOW ||
					READ_ONCE(d->dead),
					msecs_to_jiffies(RT_OP_TIMEOUT_MS)))
			return -ETIMEDOUT;
		if (d->op_status)
			return -EIO;
		atomic_inc(&d->bw_out);
		ret = rt_post_send(d, &w.wr, NULL);
		if (ret)
			atomic_dec(&d->bw_out);
	}
	if (ret)
		return ret;
	if (!wait_event_timeout(d->wq, !atomic_read(&d->bw_out) ||
				READ_ONCE(d->dead),
				msecs_to_jiffies(RT_OP_TIMEOUT_MS)))
		return -ETIMEDOUT;
	if (d->op_status)
		return -EIO;
	/* Every Write is placed once the Send after them is echoed. */
	rt_send_wr(&s, &ssge, &d->err_cqe, d->sdma, RT_NOTICE_LEN,
		   d->pd->local_dma_lkey);
	return rt_bench_rtt(d, &s);
}

int rt_cmd_bench(struct rt_data *d, const char *what, u32 len,
		 u32 iters)
{
	u64 t0;
	int ret;

	if (!d->peer)
		return -EAGAIN;
	if (len > d->peer_len || !iters)
		return -EINVAL;
	spin_lock_bh(&d->lock);
	d->bench = true;
	d->bench_ns = 0;
	spin_unlock_bh(&d->lock);
	t0 = ktime_get_ns();
	if (!strcmp(what, "lat_send"))
		ret = rt_bench_lat(d, false, len, iters);
	else if (!strcmp(what, "lat_write"))
		ret = rt_bench_lat(d, true, len, iters);
	else if (!strcmp(what, "bw"))
		ret = rt_bench_bw(d, len, iters);
	else
		ret = -EINVAL;
	spin_lock_bh(&d->lock);
	d->bench = false;
	if (!ret) {
		d->bench_ns = ktime_get_ns() - t0;
		d->bench_iters = iters;
		d->bench_bytes = (u64)len * iters;
	}
	spin_unlock_bh(&d->lock);
	return ret;
}

int rt_cmd_echo(struct rt_data *d, char **argv, int argc)
{
	enum rt_echo e;
	u32 len = 0;

	if (!strcmp(argv[0], "off"))
		e = RT_ECHO_OFF;
	else if (!strcmp(argv[0], "send"))
		e = RT_ECHO_SEND;
	else if (!strcmp(argv[0], "write") && argc == 2 &&
		 !kstrtou32(argv[1], 0, &len) && len <= d->peer_len)
		e = RT_ECHO_WRITE;
	else
		return -EINVAL;
	spin_lock_bh(&d->lock);
	d->echo = e;
	d->echo_len = len;
	spin_unlock_bh(&d->lock);
	return 0;
}
