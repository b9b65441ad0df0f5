// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_rdmacm_test.ko's rping: rdma-core's rping protocol
 * (librdmacm/examples/rping.c) on a data connection (rping=client|server,
 * data=SIZE), so the in-kernel ULP talks to "rping -s -V" and
 * "rping -c -V". Every message is a 16-octet advertisement (struct
 * rt_adv); the client's ping data is rping's text.
 *   client: advertise the source (mbuf), wait for the go-ahead; advertise
 *           the sink (lbuf), wait for the go-ahead; compare; again, or
 *           disconnect after pings=N.
 *   server: on the source's advertisement Read it into lbuf (and check
 *           it against rping's text), Send a go-ahead; on the sink's
 *           Write what was read, Send a go-ahead.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include "rdmacm_test_data.h"

/* rping's ping data (rping_test_client): "rdma-ping-N: ", then A-z. */
void rt_rping_fill(u8 *buf, u32 size, u32 ping)
{
	u8 c = 65 + ping % 58;
	int cc;
	u32 i;

	if (!size)
		return;
	cc = snprintf(buf, size, "rdma-ping-%u: ", ping);
	for (i = cc; i < size; i++) {
		buf[i] = c;
		if (++c > 122)
			c = 65;
	}
	buf[size - 1] = 0;
}

void rt_rping_ping(struct rt_data *d)
{
	rt_rping_fill(d->mbuf, d->size, d->rp_done);
	memset(d->lbuf, 0, d->size);
	int ret;

	d->rp_state = RP_WAIT_GO1;
	ret = rt_ctl_send(d, d->maddr, d->mkey, d->size);
	if (ret) {
		d->rp_state = RP_DONE;
		rt_set_post_err(d, ret);
	}
}

static void rt_rping_disconnect(struct rt_conn *c)
{
	mutex_lock(&c->lock);
	if (c->id && !c->local_disconnect) {
		c->local_disconnect = true;
		rdma_disconnect(c->id);
	}
	mutex_unlock(&c->lock);
}

/* rping's client on a go-ahead. */
void rt_rping_client_recv(struct rt_data *d)
{
	bool bye = false, bad;

	switch (d->rp_state) {
	case RP_WAIT_GO1:
		d->rp_state = RP_WAIT_GO2;
		if (rt_ctl_send(d, d->laddr, d->lkey, d->size))
			d->rp_state = RP_DONE;
		return;
	case RP_WAIT_GO2:
		bad = memcmp(d->mbuf, d->lbuf, d->size);
		spin_lock_bh(&d->lock);
		d->rp_bad += bad;
		d->rp_done++;
		spin_unlock_bh(&d->lock);
		if (d->rp_done < d->pings)
			rt_rping_ping(d);
		else
			bye = true;
		break;
	default:
		spin_lock_bh(&d->lock);
		d->unexpected++;
		spin_unlock_bh(&d->lock);
		bye = true;
		break;
	}
	if (bye) {
		d->rp_state = RP_DONE;
		rt_rping_disconnect(d->c);
	}
}

/* rping's server on an advertisement of the client's source or sink. */
void rt_rping_server_recv(struct rt_data *d, const struct rt_adv *a,
			  u32 len)
{
	u64 raddr = be64_to_cpu(a->addr);
	u32 rkey = be32_to_cpu(a->rkey), rlen = be32_to_cpu(a->len);
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	int ret;

	if (len != sizeof(*a) || (d->rp_state != RP_WAIT_SRC &&
				  d->rp_state != RP_WAIT_SINK)) {
		spin_lock_bh(&d->lock);
		d->unexpected++;
		spin_unlock_bh(&d->lock);
		return;
	}
	if (rt_data_register(d))
		return;
	if (d->rp_state == RP_WAIT_SRC) {
		d->rp_len = min(rlen, d->size);
		/* The sink of a Read is lbuf's STag (iWARP). */
		rt_rdma_wr(&wr, &sge, &d->rp_read_cqe, IB_WR_RDMA_READ,
			   d->ldma, d->rp_len, d->lkey, raddr, rkey);
		d->rp_state = RP_READING;
	} else {
		rt_rdma_wr(&wr, &sge, &d->rp_write_cqe, IB_WR_RDMA_WRITE,
			   d->ldma, min(d->rp_len, rlen), d->lkey, raddr, rkey);
		d->rp_state = RP_WRITING;
	}
	ret = rt_post_send(d, &wr.wr, NULL);
	if (ret)
		rt_set_post_err(d, ret);
}

static struct rt_data *rt_rping_wc(struct rt_data *d, struct ib_wc *wc)
{
	if (wc->status) {
		rt_record_wc_err(d, wc);
		return NULL;
	}
	return READ_ONCE(d->dead) ? NULL : d;
}

void rt_rping_read_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rt_data *d = rt_rping_wc(container_of(wc->wr_cqe, struct rt_data,
						     rp_read_cqe), wc);
	bool bad = true;
	u8 *want;

	if (!d)
		return;
	/* What rping's client sends for this ping, byte for byte. */
	want = kvmalloc(d->rp_len, GFP_KERNEL);
	if (want) {
		rt_rping_fill(want, d->rp_len, d->rp_done);
		bad = memcmp(want, d->lbuf, d->rp_len);
		kvfree(want);
	}
	spin_lock_bh(&d->lock);
	d->reads++;
	d->rp_bad += bad;
	spin_unlock_bh(&d->lock);
	d->rp_state = RP_WAIT_SINK;
	rt_ctl_send(d, 0, 0, 0);
}

void rt_rping_write_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rt_data *d = rt_rping_wc(container_of(wc->wr_cqe, struct rt_data,
						     rp_write_cqe), wc);

	if (!d)
		return;
	spin_lock_bh(&d->lock);
	d->writes++;
	d->rp_done++;
	spin_unlock_bh(&d->lock);
	d->rp_state = RP_WAIT_SRC;
	rt_ctl_send(d, 0, 0, 0);
}

static const char *const rt_rp_names[] = {
	[RP_IDLE] = "idle", [RP_WAIT_GO1] = "wait-go1",
	[RP_WAIT_GO2] = "wait-go2", [RP_DONE] = "done",
	[RP_WAIT_SRC] = "wait-src", [RP_READING] = "reading",
	[RP_WAIT_SINK] = "wait-sink", [RP_WRITING] = "writing",
};

const char *rt_rping_state_name(enum rt_rp_state s)
{
	return s < ARRAY_SIZE(rt_rp_names) ? rt_rp_names[s] : "?";
}
