// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_rdmacm_test.ko's data: what a connection opened with data=SIZE
 * carries once established, on kernel verbs only.
 *
 * Buffers, each SIZE bytes, physically contiguous and DMA-mapped:
 *   sbuf  the source of Sends and Writes (the PD's local DMA lkey);
 *   mbuf  the peer's target: its Writes land there, its Reads take from
 *         there; remote access through an FRMR (mr=frmr, the default,
 *         registered with REG_MR as nvme-rdma and rpcrdma do) or the
 *         PD's unsafe global rkey (mr=global, ib_get_dma_mr style);
 *   lbuf  the sink of this side's Reads: on iWARP a Read's sink is an
 *         STag the peer writes into, so it is registered like mbuf,
 *         with remote write (as rdma_rw does for iWARP);
 *   recv  RT_RECVS receive buffers, posted before connect or accept.
 *
 * The data protocol: once ESTABLISHED each side registers its MRs and
 * Sends a 16-octet advertisement (mbuf's address, rkey and length, big
 * endian, rping's layout); the first receive on a connection is the
 * peer's. Then the commands (rdmacm_test_ctl.c) move data: every byte is
 * rt_pat(SEED, offset), so a receiver checks it knowing SEED and the
 * length: "expect" queues what the next receive must be (a Send of LEN
 * with SEED, or the 4-octet notice that follows a Write of LEN with SEED
 * into mbuf: on iWARP a Send is placed after every Write before it).
 *
 * rping=client|server speaks rdma-core's rping protocol instead (no
 * advertisement), so the in-kernel side talks to "rping -s -V" and
 * "rping -c -V": the client advertises its source, the server Reads it,
 * Sends a go-ahead; the client advertises its sink, the server Writes
 * what it read back, Sends a go-ahead; the client compares.
 *
 * echo and bench measure: the peer echoes each receive (a Send of the
 * same length, or a Write then a Send), and bench times round trips or
 * a window of Writes, from this side's command (rdmacm_test_bench.c).
 * rping: rdmacm_test_rping.c.
 */
#include <linux/gfp.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include "rdmacm_test_data.h"

static void rt_recv_done(struct ib_cq *cq, struct ib_wc *wc);

/* Byte @off of the pattern @seed: each 32-bit word differs by offset. */
static u32 rt_pat_word(u32 seed, u32 word)
{
	u32 x = seed * 0x9e3779b1U + word * 0x85ebca77U;

	x ^= x >> 15;
	x *= 0x2c1b3c6dU;
	x ^= x >> 12;
	return x;
}

void rt_pat_fill(u8 *buf, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		buf[i] = rt_pat_word(seed, i >> 2) >> (8 * (i & 3));
}

/* The offset of the first byte of @buf unlike the pattern, or -1. */
static int rt_pat_check(const u8 *buf, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (buf[i] != (u8)(rt_pat_word(seed, i >> 2) >> (8 * (i & 3))))
			return i;
	return -1;
}

void rt_record_wc_err(struct rt_data *d, const struct ib_wc *wc)
{
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	if (wc->status == IB_WC_WR_FLUSH_ERR) {
		d->flushed++;
	} else if (!d->wc_err) {
		d->wc_err = wc->status;
		d->wc_err_op = wc->opcode;
	}
	spin_unlock_irqrestore(&d->lock, flags);
}

/* Unsignalled work requests and echoes: only their errors matter. */
static void rt_err_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rt_data *d = container_of(wc->wr_cqe, struct rt_data, err_cqe);

	if (wc->status)
		rt_record_wc_err(d, wc);
}

static void rt_op_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rt_data *d = container_of(wc->wr_cqe, struct rt_data, op_cqe);

	if (wc->status) {
		rt_record_wc_err(d, wc);
		if (!d->op_status)
			d->op_status = wc->status;
	}
	if (atomic_dec_and_test(&d->op_left))
		complete(&d->op_done);
}

/*
 * Every post goes through these two: nothing is posted once the
 * connection's QP is about to go (rt_data_stop), and handlers finish
 * before its CQ is freed.
 */
int rt_post_send(struct rt_data *d, const struct ib_send_wr *wr,
		 const struct ib_send_wr **bad)
{
	int ret;

	spin_lock_bh(&d->lock);
	ret = d->dead ? -ENOTCONN : ib_post_send(d->c->qp, wr, bad);
	spin_unlock_bh(&d->lock);
	return ret;
}

/* A post that failed where no command waits: the first error stays. */
void rt_set_post_err(struct rt_data *d, int err)
{
	spin_lock_bh(&d->lock);
	if (!d->adv_err)
		d->adv_err = err;
	spin_unlock_bh(&d->lock);
}

static int rt_post_recv(struct rt_data *d, struct rt_recv *r)
{
	struct ib_sge sge = {
		.addr = r->dma, .length = d->size,
		.lkey = d->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_cqe = &r->cqe, .sg_list = &sge,
				 .num_sge = 1 };
	int ret;

	spin_lock_bh(&d->lock);
	ret = d->dead ? -ENOTCONN : ib_post_recv(d->c->qp, &wr, NULL);
	spin_unlock_bh(&d->lock);
	return ret;
}

/* One Send of @len bytes at @dma (lkey), completing on @cqe. */
void rt_send_wr(struct ib_send_wr *wr, struct ib_sge *sge,
		struct ib_cqe *cqe, u64 dma, u32 len, u32 lkey)
{
	sge->addr = dma;
	sge->length = len;
	sge->lkey = lkey;
	memset(wr, 0, sizeof(*wr));
	wr->wr_cqe = cqe;
	wr->opcode = IB_WR_SEND;
	wr->send_flags = IB_SEND_SIGNALED;
	wr->sg_list = sge;
	wr->num_sge = 1;
}

void rt_rdma_wr(struct ib_rdma_wr *wr, struct ib_sge *sge,
		struct ib_cqe *cqe, enum ib_wr_opcode op, u64 dma,
		u32 len, u32 lkey, u64 raddr, u32 rkey)
{
	sge->addr = dma;
	sge->length = len;
	sge->lkey = lkey;
	memset(wr, 0, sizeof(*wr));
	wr->wr.wr_cqe = cqe;
	wr->wr.opcode = op;
	wr->wr.send_flags = IB_SEND_SIGNALED;
	wr->wr.sg_list = sge;
	wr->wr.num_sge = 1;
	wr->remote_addr = raddr;
	wr->rkey = rkey;
}

static void *rt_buf_alloc(struct rt_data *d, u32 size, u64 *dma,
			  enum dma_data_direction dir)
{
	void *buf = alloc_pages_exact(PAGE_ALIGN(size), GFP_KERNEL | __GFP_ZERO);

	if (!buf)
		return NULL;
	*dma = ib_dma_map_single(d->dev, buf, size, dir);
	if (ib_dma_mapping_error(d->dev, *dma)) {
		free_pages_exact(buf, PAGE_ALIGN(size));
		return NULL;
	}
	return buf;
}

static void rt_buf_free(struct rt_data *d, void *buf, u32 size, u64 dma,
			enum dma_data_direction dir)
{
	if (!buf)
		return;
	ib_dma_unmap_single(d->dev, dma, size, dir);
	free_pages_exact(buf, PAGE_ALIGN(size));
}

/* An FRMR over @dma..+@size (mapped, not yet registered). */
static struct ib_mr *rt_frmr(struct rt_data *d, u64 dma, u32 size)
{
	u32 pages = DIV_ROUND_UP(size, PAGE_SIZE);
	struct scatterlist sg;
	struct ib_mr *mr;
	int n;

	mr = ib_alloc_mr(d->pd, IB_MR_TYPE_MEM_REG, pages);
	if (IS_ERR(mr))
		return mr;
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = dma;
	sg_dma_len(&sg) = size;
	n = ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE);
	if (n != 1) {
		ib_dereg_mr(mr);
		return ERR_PTR(n < 0 ? n : -EINVAL);
	}
	return mr;
}

int rt_data_create(struct rt_conn *c, const struct rt_dopts *o)
{
	struct rt_data *d;
	int i, ret;

	if (!o->size || o->size > RT_DATA_MAX)
		return -EINVAL;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->c = c;
	d->dev = c->pd->device;
	d->pd = c->pd;
	d->size = o->size;
	d->mr_mode = o->mr;
	d->rping = o->rping;
	d->pings = o->pings;
	d->bad_off = -1;
	d->err_cqe.done = rt_err_done;
	d->op_cqe.done = rt_op_done;
	d->bw_cqe.done = rt_bw_done;
	d->rp_read_cqe.done = rt_rping_read_done;
	d->rp_write_cqe.done = rt_rping_write_done;
	mutex_init(&d->reg_mutex);
	spin_lock_init(&d->lock);
	init_completion(&d->op_done);
	init_completion(&d->bench_rx);
	init_waitqueue_head(&d->wq);
	d->rp_state = o->rping == RT_RPING_SERVER ? RP_WAIT_SRC : RP_IDLE;
	spin_lock_bh(&rt_lock);
	c->data = d;
	spin_unlock_bh(&rt_lock);
	d->live = true;

	ret = -ENOMEM;
	d->sbuf = rt_buf_alloc(d, d->size, &d->sdma, DMA_BIDIRECTIONAL);
	d->mbuf = rt_buf_alloc(d, d->size, &d->mdma, DMA_BIDIRECTIONAL);
	d->lbuf = rt_buf_alloc(d, d->size, &d->ldma, DMA_BIDIRECTIONAL);
	d->ctl = rt_buf_alloc(d, sizeof(*d->ctl), &d->ctl_dma,
			      DMA_BIDIRECTIONAL);
	if (!d->sbuf || !d->mbuf || !d->lbuf || !d->ctl)
		return ret;
	for (i = 0; i < RT_RECVS; i++) {
		struct rt_recv *r = &d->recv[i];

		r->d = d;
		r->buf = rt_buf_alloc(d, d->size, &r->dma, DMA_FROM_DEVICE);
		if (!r->buf)
			return ret;
	}
	if (d->mr_mode == RT_MR_GLOBAL) {
		d->mkey = d->pd->unsafe_global_rkey;
		d->lkey = d->pd->unsafe_global_rkey;
		d->maddr = d->mdma;
		d->laddr = d->ldma;
		d->registered = true;
	} else {
		d->mmr = rt_frmr(d, d->mdma, d->size);
		if (IS_ERR(d->mmr)) {
			ret = PTR_ERR(d->mmr);
			d->mmr = NULL;
			return ret;
		}
		d->lmr = rt_frmr(d, d->ldma, d->size);
		if (IS_ERR(d->lmr)) {
			ret = PTR_ERR(d->lmr);
			d->lmr = NULL;
			return ret;
		}
		d->mkey = d->mmr->rkey;
		d->lkey = d->lmr->rkey;
		d->maddr = d->mmr->iova;
		d->laddr = d->lmr->iova;
	}
	for (i = 0; i < RT_RECVS; i++) {
		d->recv[i].cqe.done = rt_recv_done;
		ret = rt_post_recv(d, &d->recv[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Post the REG_MRs of mbuf and lbuf, once, before anything uses them. */
int rt_data_register(struct rt_data *d)
{
	struct ib_reg_wr reg[2] = {};
	int i, ret = 0;

	mutex_lock(&d->reg_mutex);
	if (d->registered)
		goto out;
	for (i = 0; i < 2; i++) {
		struct ib_mr *mr = i ? d->lmr : d->mmr;

		reg[i].wr.wr_cqe = &d->err_cqe;
		reg[i].wr.opcode = IB_WR_REG_MR;
		reg[i].wr.next = i ? NULL : &reg[1].wr;
		reg[i].mr = mr;
		reg[i].key = mr->rkey;
		reg[i].access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
				(i ? 0 : IB_ACCESS_REMOTE_READ);
	}
	ret = rt_post_send(d, &reg[0].wr, NULL);
	if (!ret)
		d->registered = true;
out:
	mutex_unlock(&d->reg_mutex);
	return ret;
}

/* Stop reacting to completions and let every handler finish. */
static void rt_data_quiesce(struct rt_data *d)
{
	spin_lock_bh(&d->lock);
	d->dead = true;
	spin_unlock_bh(&d->lock);
	complete_all(&d->op_done);
	complete_all(&d->bench_rx);
	wake_up_all(&d->wq);
}

void rt_data_destroy(struct rt_conn *c)
{
	struct rt_data *d = c->data;
	int i;

	if (!d || !d->live)
		return;
	rt_data_quiesce(d);
	if (d->mmr)
		ib_dereg_mr(d->mmr);
	if (d->lmr)
		ib_dereg_mr(d->lmr);
	d->mmr = NULL;
	d->lmr = NULL;
	for (i = 0; i < RT_RECVS; i++)
		rt_buf_free(d, d->recv[i].buf, d->size, d->recv[i].dma,
			    DMA_FROM_DEVICE);
	rt_buf_free(d, d->ctl, sizeof(*d->ctl), d->ctl_dma, DMA_BIDIRECTIONAL);
	rt_buf_free(d, d->lbuf, d->size, d->ldma, DMA_BIDIRECTIONAL);
	rt_buf_free(d, d->mbuf, d->size, d->mdma, DMA_BIDIRECTIONAL);
	rt_buf_free(d, d->sbuf, d->size, d->sdma, DMA_BIDIRECTIONAL);
	d->live = false;
}

/* Before the QP goes: nothing is posted on it once this returns. */
void rt_data_stop(struct rt_conn *c)
{
	if (c->data && c->data->live)
		rt_data_quiesce(c->data);
}

/* The record stays for the scripts until the module goes. */
void rt_data_free(struct rt_conn *c)
{
	kfree(c->data);
	c->data = NULL;
}

/* Send our advertisement of @addr/@rkey/@len (zeros: a go-ahead). */
int rt_ctl_send(struct rt_data *d, u64 addr, u32 rkey, u32 len)
{
	struct ib_send_wr wr;
	struct ib_sge sge;

	d->ctl->addr = cpu_to_be64(addr);
	d->ctl->rkey = cpu_to_be32(rkey);
	d->ctl->len = cpu_to_be32(len);
	rt_send_wr(&wr, &sge, &d->err_cqe, d->ctl_dma, sizeof(*d->ctl),
		   d->pd->local_dma_lkey);
	return rt_post_send(d, &wr, NULL);
}

/* The peer's advertisement: the first receive of the data protocol. */
static void rt_take_adv(struct rt_data *d, const struct rt_adv *a, u32 len)
{
	spin_lock_bh(&d->lock);
	if (len == sizeof(*a)) {
		d->peer_addr = be64_to_cpu(a->addr);
		d->peer_rkey = be32_to_cpu(a->rkey);
		d->peer_len = be32_to_cpu(a->len);
		d->peer = true;
	} else {
		d->unexpected++;
	}
	spin_unlock_bh(&d->lock);
}

/*
 * Check a receive of @len against the oldest expectation, which stays
 * queued (drain waits) until its verdict is counted.
 */
static void rt_check_recv(struct rt_data *d, const u8 *buf, u32 len)
{
	struct rt_expect e;
	bool have;
	int off;

	spin_lock_bh(&d->lock);
	d->recvs++;
	have = d->exp_head != d->exp_tail;
	if (have)
		e = d->exp[d->exp_head % RT_EXPECT_MAX];
	else
		d->unexpected++;
	spin_unlock_bh(&d->lock);
	if (!have)
		return;
	if (e.kind == RT_EXP_SEND)
		off = len == e.len ? rt_pat_check(buf, len, e.seed) :
				     min(len, e.len);
	else
		off = len == RT_NOTICE_LEN ?
		      rt_pat_check(d->mbuf, min(e.len, d->size), e.seed) : 0;
	spin_lock_bh(&d->lock);
	if (off >= 0) {
		if (e.kind == RT_EXP_SEND)
			d->recv_bad++;
		else
			d->write_bad++;
		d->bad_off = off;
	}
	d->exp_head++;
	spin_unlock_bh(&d->lock);
}

static void rt_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rt_recv *r = container_of(wc->wr_cqe, struct rt_recv, cqe);
	struct rt_data *d = r->d;
	enum rt_echo echo;
	u32 len = wc->byte_len, elen;
	bool bench;

	if (wc->status) {
		rt_record_wc_err(d, wc);
		return;
	}
	if (READ_ONCE(d->dead))
		return;
	if (d->rping == RT_RPING_SERVER) {
		struct rt_adv a;

		memcpy(&a, r->buf, min_t(u32, len, sizeof(a)));
		rt_post_recv(d, r);
		rt_rping_server_recv(d, &a, len);
		return;
	}
	if (d->rping == RT_RPING_CLIENT) {
		rt_post_recv(d, r);
		rt_rping_client_recv(d);
		return;
	}
	if (!d->peer) {
		rt_take_adv(d, r->buf, len);
		rt_post_recv(d, r);
		wake_up(&d->wq);
		return;
	}
	spin_lock_bh(&d->lock);
	bench = d->bench;
	echo = d->echo;
	elen = d->echo_len;
	spin_unlock_bh(&d->lock);
	if (!bench && echo == RT_ECHO_OFF)
		rt_check_recv(d, r->buf, len);
	rt_post_recv(d, r);
	if (bench)
		complete(&d->bench_rx);
	else if (echo != RT_ECHO_OFF)
		rt_echo(d, echo, len, elen);
	wake_up(&d->wq);
}

/* ESTABLISHED: register, then advertise (or start rping's client). */
void rt_data_established(struct rt_conn *c)
{
	struct rt_data *d = c->data;
	int ret;

	if (!d || d->rping == RT_RPING_SERVER)
		return;
	ret = rt_data_register(d);
	if (!ret && d->rping == RT_RPING_CLIENT) {
		rt_rping_ping(d);
		return;
	}
	if (!ret)
		ret = rt_ctl_send(d, d->maddr, d->mkey, d->size);
	if (ret)
		rt_set_post_err(d, ret);
}

/* Post @wr (a chain of @n signalled requests on op_cqe) and wait. */
static int rt_op(struct rt_data *d, struct ib_send_wr *wr, int n)
{
	const struct ib_send_wr *bad = NULL;
	struct ib_send_wr *w;
	int posted = 0, ret;

	reinit_completion(&d->op_done);
	d->op_status = 0;
	atomic_set(&d->op_left, n);
	ret = rt_post_send(d, wr, &bad);
	if (ret) {
		for (w = wr; w && w != bad; w = w->next)
			posted++;
		if (!posted || atomic_sub_return(n - posted, &d->op_left) == 0)
			return ret;
	}
	if (!wait_for_completion_timeout(&d->op_done,
					 msecs_to_jiffies(RT_OP_TIMEOUT_MS)))
		return -ETIMEDOUT;
	if (ret)
		return ret;
	if (READ_ONCE(d->dead) && atomic_read(&d->op_left))
		return -ENOTCONN;
	return d->op_status ? -EIO : 0;
}

static int rt_cmd_send(struct rt_data *d, u32 len, u32 seed)
{
	struct ib_send_wr wr;
	struct ib_sge sge;
	int ret;

	rt_pat_fill(d->sbuf, len, seed);
	rt_send_wr(&wr, &sge, &d->op_cqe, d->sdma, len,
		   d->pd->local_dma_lkey);
	ret = rt_op(d, &wr, 1);
	if (!ret) {
		spin_lock_bh(&d->lock);
		d->sends++;
		spin_unlock_bh(&d->lock);
	}
	return ret;
}

/* A Write of @len into the peer's mbuf, then the notice (a Send). */
static int rt_cmd_write(struct rt_data *d, u32 len, u32 seed)
{
	struct ib_rdma_wr w;
	struct ib_send_wr s;
	struct ib_sge wsge, ssge;
	int ret;

	if (!d->peer)
		return -EAGAIN;
	if (len > d->peer_len)
		return -EMSGSIZE;
	rt_pat_fill(d->sbuf, len, seed);
	*(__be32 *)d->ctl = cpu_to_be32(seed);
	rt_rdma_wr(&w, &wsge, &d->op_cqe, IB_WR_RDMA_WRITE, d->sdma, len,
		   d->pd->local_dma_lkey, d->peer_addr, d->peer_rkey);
	rt_send_wr(&s, &ssge, &d->op_cqe, d->ctl_dma, RT_NOTICE_LEN,
		   d->pd->local_dma_lkey);
	w.wr.next = &s;
	ret = rt_op(d, &w.wr, 2);
	if (!ret) {
		spin_lock_bh(&d->lock);
		d->writes++;
		spin_unlock_bh(&d->lock);
	}
	return ret;
}

/* A Read of @len from the peer's mbuf into lbuf, checked against @seed. */
/*
 * A Read of @len from the peer's mbuf into lbuf, checked against @seed;
 * @bad asks for an access violation the peer must answer with a
 * Terminate (RFC 5040, 7.2): "stag", an STag it never gave out, or
 * "bounds", the first byte past its buffer.
 */
static int rt_cmd_read(struct rt_data *d, u32 len, u32 seed,
		       const char *bad)
{
	u64 raddr = d->peer_addr;
	u32 rkey = d->peer_rkey;
	struct ib_rdma_wr w;
	struct ib_sge sge;
	int ret, off;

	if (!d->peer)
		return -EAGAIN;
	if (len > d->peer_len)
		return -EMSGSIZE;
	if (bad && !strcmp(bad, "bad=stag"))
		rkey ^= 0x80000000U;
	else if (bad && !strcmp(bad, "bad=bounds"))
		raddr += d->peer_len;
	else if (bad)
		return -EINVAL;
	memset(d->lbuf, 0, len);
	rt_rdma_wr(&w, &sge, &d->op_cqe, IB_WR_RDMA_READ, d->ldma, len,
		   d->lkey, raddr, rkey);
	ret = rt_op(d, &w.wr, 1);
	if (ret)
		return ret;
	off = rt_pat_check(d->lbuf, len, seed);
	spin_lock_bh(&d->lock);
	d->reads++;
	if (off >= 0) {
		d->read_bad++;
		d->bad_off = off;
	}
	spin_unlock_bh(&d->lock);
	return off >= 0 ? -EBADMSG : 0;
}

static int rt_cmd_expect(struct rt_data *d, const char *what, u32 len,
			 u32 seed)
{
	struct rt_expect e = { .len = len, .seed = seed };
	int ret = 0;

	if (!strcmp(what, "send"))
		e.kind = RT_EXP_SEND;
	else if (!strcmp(what, "write"))
		e.kind = RT_EXP_WRITE;
	else
		return -EINVAL;
	spin_lock_bh(&d->lock);
	if (d->exp_tail - d->exp_head == RT_EXPECT_MAX)
		ret = -ENOSPC;
	else
		d->exp[d->exp_tail++ % RT_EXPECT_MAX] = e;
	spin_unlock_bh(&d->lock);
	return ret;
}

static bool rt_drained(struct rt_data *d)
{
	bool done;

	spin_lock_bh(&d->lock);
	done = d->exp_head == d->exp_tail || d->dead;
	spin_unlock_bh(&d->lock);
	return done;
}

static bool rt_has_peer(struct rt_data *d)
{
	bool done;

	spin_lock_bh(&d->lock);
	done = d->peer || d->adv_err || d->dead;
	spin_unlock_bh(&d->lock);
	return done;
}

/* Wait for the expectations to be met; -EBADMSG if one was not. */
static int rt_cmd_drain(struct rt_data *d)
{
	if (!wait_event_timeout(d->wq, rt_drained(d),
				msecs_to_jiffies(RT_OP_TIMEOUT_MS)))
		return -ETIMEDOUT;
	return d->recv_bad || d->write_bad ? -EBADMSG : 0;
}

/* Wait for the peer's advertisement; our own advert's error first. */
static int rt_cmd_ready(struct rt_data *d)
{
	if (!wait_event_timeout(d->wq, rt_has_peer(d),
				msecs_to_jiffies(RT_OP_TIMEOUT_MS)))
		return -ETIMEDOUT;
	if (d->adv_err)
		return d->adv_err;
	return d->peer ? 0 : -ENOTCONN;
}

/*
 * argv[0] is the command, argv[1] the connection's name (@c):
 *   ready CONN, expect CONN send|write LEN SEED, send CONN LEN SEED,
 *   write CONN LEN SEED, fill CONN LEN SEED,
 *   read CONN LEN SEED [bad=stag|bounds],
 *   drain CONN, echo CONN off|send|write [LEN],
 *   bench CONN lat_send|lat_write|bw LEN ITERS
 * Called under rt_mutex.
 */
int rt_data_cmd(struct rt_conn *c, char **argv, int argc)
{
	struct rt_data *d = c->data;
	const char *cmd = argv[0];
	u32 len = 0, seed = 0;

	if (!d || !d->live)
		return -ENOTCONN;
	if (d->rping)
		return -EBUSY;
	if (!strcmp(cmd, "ready") && argc == 2)
		return rt_cmd_ready(d);
	if (!strcmp(cmd, "drain") && argc == 2)
		return rt_cmd_drain(d);
	if (!strcmp(cmd, "echo") && argc >= 3)
		return rt_cmd_echo(d, argv + 2, argc - 2);
	if (!strcmp(cmd, "expect") && argc == 5) {
		if (kstrtou32(argv[3], 0, &len) || kstrtou32(argv[4], 0, &seed))
			return -EINVAL;
		return rt_cmd_expect(d, argv[2], len, seed);
	}
	if (!strcmp(cmd, "bench") && argc == 5) {
		if (kstrtou32(argv[3], 0, &len) || kstrtou32(argv[4], 0, &seed))
			return -EINVAL;
		return rt_cmd_bench(d, argv[2], len, seed);
	}
	if (!strcmp(cmd, "read") && argc == 5 && !kstrtou32(argv[2], 0, &len) &&
	    !kstrtou32(argv[3], 0, &seed) && len && len <= d->size)
		return rt_cmd_read(d, len, seed, argv[4]);
	if (argc != 4 || kstrtou32(argv[2], 0, &len) ||
	    kstrtou32(argv[3], 0, &seed) || !len || len > d->size)
		return -EINVAL;
	if (!strcmp(cmd, "send"))
		return rt_cmd_send(d, len, seed);
	if (!strcmp(cmd, "write"))
		return rt_cmd_write(d, len, seed);
	if (!strcmp(cmd, "read"))
		return rt_cmd_read(d, len, seed, NULL);
	if (!strcmp(cmd, "fill")) {
		rt_pat_fill(d->mbuf, len, seed);
		return 0;
	}
	return -EINVAL;
}

/* One line of the data file; rt_lock held. */
void rt_data_show(struct seq_file *m, struct rt_conn *c)
{
	struct rt_data *d = c->data;

	spin_lock_bh(&d->lock);
	seq_printf(m, "%s size=%u mr=%s live=%d adv_err=%d peer=%d peer_len=%u",
		   c->name, d->size, d->mr_mode == RT_MR_GLOBAL ? "global" :
		   "frmr", d->live, d->adv_err, d->peer, d->peer_len);
	seq_printf(m, " sends=%u writes=%u reads=%u recvs=%u pending=%u",
		   d->sends, d->writes, d->reads, d->recvs,
		   d->exp_tail - d->exp_head);
	seq_printf(m, " recv_bad=%u write_bad=%u read_bad=%u bad_off=%d unexpected=%u",
		   d->recv_bad, d->write_bad, d->read_bad, d->bad_off,
		   d->unexpected);
	seq_printf(m, " wc_err=%d wc_err_op=%d flushed=%u", d->wc_err,
		   d->wc_err_op, d->flushed);
	if (d->rping)
		seq_printf(m, " rping=%s pings=%u rp_state=%s rp_bad=%u",
			   d->rping == RT_RPING_CLIENT ? "client" : "server",
			   d->rp_done, rt_rping_state_name(d->rp_state), d->rp_bad);
	seq_printf(m, " bench_ns=%llu bench_iters=%u bench_bytes=%llu\n",
		   d->bench_ns, d->bench_iters, d->bench_bytes);
	spin_unlock_bh(&d->lock);
}
