// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: two QPs' streams back to back (tests/kunit/rnic_pipe.h).
 *
 * Everything the pipe reports (bytes, FIN_RCVD, CLOSED, RESET, the QP's
 * ERROR) goes through the stream's own out table, from one ordered work
 * item, as the host socket's work reports them: never from the caller's
 * context, so the upper layer and the CM may call the stream with their
 * locks held.
 */
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "tests/kunit/rnic_pipe.h"

/*
 * Bytes one side may have on the pipe, not yet delivered: a window, so
 * that a side sending much waits (-EAGAIN, then tx_room) as it does on a
 * socket, and the other side meanwhile takes what came before.
 */
#define PIPE_WINDOW	(64 * 1024)

enum pipe_kind {
	PIPE_DATA,	/* a record for @to */
	PIPE_FIN,	/* the other side's FIN, for @to */
	PIPE_RST,	/* the other side's RST, for @to */
	PIPE_ABORTED,	/* @to aborted: its own RESET to report */
};

struct pipe_msg {
	struct list_head list;
	int to;
	enum pipe_kind kind;
	int status;
	struct madcm_rnic_zc *zc;	/* a zero-copy FPDU's ticket */
	u32 len;
	u8 data[];
};

struct pipe_end {
	struct madcm_rnic_stream *s;
	bool fin_sent;		/* our FIN queued */
	bool fin_acked;		/* ... and taken by the other side */
	bool fin_rcvd;		/* the other side's FIN taken */
	bool ended;		/* CLOSED or RESET: nothing more */
	bool detached;
	bool room;		/* tx_room is due once the window opens */
	u32 queued;		/* bytes sent and not yet delivered */
	u32 records;
	u32 pushes;		/* madcm_rnic_stream_push() calls */
	u32 pushes_atomic;	/* ... where the caller could not sleep */
	u32 pushes_locked;	/* ... with the QP's lock held */
};

struct rnic_pipe {
	struct pipe_end end[2];
	struct workqueue_struct *wq;
	struct work_struct work;
	spinlock_t lock;	/* everything above and below */
	struct list_head msgs;
	struct list_head held;	/* delivered, their tickets kept */
	bool hold_zc;
	bool live;
	bool dead;
	rnic_pipe_tap_fn tap;
	void *tap_arg;
};

/* The pipe of the running case (cases run one at a time). */
static struct rnic_pipe *pipe_cur;

static int pipe_side(struct rnic_pipe *p, struct madcm_rnic_stream *s)
{
	return p->end[0].s == s ? 0 : 1;
}

static void pipe_kick(struct rnic_pipe *p)
{
	queue_work(p->wq, &p->work);
}

/* Queue @m, @p->lock held. */
static void pipe_queue(struct rnic_pipe *p, struct pipe_msg *m)
{
	lockdep_assert_held(&p->lock);
	list_add_tail(&m->list, &p->msgs);
}

static struct pipe_msg *pipe_msg(int to, enum pipe_kind kind, u32 len)
{
	struct pipe_msg *m = kzalloc(struct_size(m, data, len), GFP_ATOMIC);

	if (m) {
		m->to = to;
		m->kind = kind;
		m->len = len;
	}
	return m;
}

/* Our FIN after what is queued, once; @p->lock held. */
static void pipe_fin(struct rnic_pipe *p, int from)
{
	struct pipe_end *e = &p->end[from];
	struct pipe_msg *m;

	if (e->fin_sent || e->ended || e->detached)
		return;
	m = pipe_msg(!from, PIPE_FIN, 0);
	if (!m)
		return;
	e->fin_sent = true;
	WRITE_ONCE(e->s->snd_nxt, e->s->snd_nxt + 1);
	pipe_queue(p, m);
}

/* An end whose FINs are both done is CLOSED; @p->lock held. */
static bool pipe_closes(struct pipe_end *e)
{
	if (e->ended || e->detached || !e->fin_sent || !e->fin_acked ||
	    !e->fin_rcvd)
		return false;
	e->ended = true;
	return true;
}

static void pipe_report(struct madcm_rnic_stream *s,
			enum madcm_cm_offload_event ev, int status)
{
	s->out->qp_state(s, IB_QPS_ERR);
	s->out->event(s, ev, status);
}

static void pipe_deliver(struct rnic_pipe *p, struct pipe_msg *m)
{
	struct pipe_end *e = &p->end[m->to], *o = &p->end[!m->to];
	struct madcm_rnic_stream *s = e->s;
	bool fin_rcvd = false, closed[2] = {};
	int i;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	if (e->detached || (e->ended && m->kind != PIPE_ABORTED)) {
		spin_unlock_irqrestore(&p->lock, flags);
		return;
	}
	switch (m->kind) {
	case PIPE_DATA:
		spin_unlock_irqrestore(&p->lock, flags);
		if (p->tap)
			p->tap(p->tap_arg, !m->to, m->data, m->len);
		spin_lock_bh(&s->rx_lock);
		WRITE_ONCE(s->rcv_nxt, s->rcv_nxt + m->len);
		if (s->out->rx_data)
			s->out->rx_data(s, m->data, m->len);
		spin_unlock_bh(&s->rx_lock);
		return;
	case PIPE_FIN:
		o->fin_acked = true;
		if (!e->fin_rcvd) {
			e->fin_rcvd = true;
			fin_rcvd = true;
			WRITE_ONCE(s->rcv_nxt, s->rcv_nxt + 1);
			/* CLOSE-WAIT: ours follows what is queued */
			pipe_fin(p, m->to);
		}
		closed[m->to] = pipe_closes(e);
		closed[!m->to] = pipe_closes(o);
		spin_unlock_irqrestore(&p->lock, flags);
		if (fin_rcvd)
			s->out->event(s, MADCM_CM_OFFLOAD_EV_FIN_RCVD, 0);
		for (i = 0; i < 2; i++)
			if (closed[i])
				pipe_report(p->end[i].s,
					    MADCM_CM_OFFLOAD_EV_CLOSED, 0);
		pipe_kick(p);
		return;
	case PIPE_RST:
		e->ended = true;
		spin_unlock_irqrestore(&p->lock, flags);
		pipe_report(s, MADCM_CM_OFFLOAD_EV_RESET, -ECONNRESET);
		return;
	case PIPE_ABORTED:
		spin_unlock_irqrestore(&p->lock, flags);
		pipe_report(s, MADCM_CM_OFFLOAD_EV_RESET, m->status);
		return;
	}
	spin_unlock_irqrestore(&p->lock, flags);
}

/* @len bytes of side @from left the pipe: its window opens again. */
static void pipe_sent(struct rnic_pipe *p, int from, u32 len)
{
	struct pipe_end *e = &p->end[from];
	unsigned long flags;
	bool room = false;

	spin_lock_irqsave(&p->lock, flags);
	e->queued -= len;
	if (e->room && e->queued <= PIPE_WINDOW / 2 && !e->ended &&
	    !e->detached) {
		e->room = false;
		room = true;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	if (room && e->s->out->tx_room)
		e->s->out->tx_room(e->s);
}

static void pipe_work(struct work_struct *work)
{
	struct rnic_pipe *p = container_of(work, struct rnic_pipe, work);
	struct pipe_msg *m;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&p->lock, flags);
		m = p->live && !p->dead ?
			list_first_entry_or_null(&p->msgs, struct pipe_msg,
						 list) : NULL;
		/* a side not handed its stream yet: the rest waits for it */
		if (m && !p->end[m->to].detached &&
		    !READ_ONCE(p->end[m->to].s->carried))
			m = NULL;
		if (m)
			list_del(&m->list);
		spin_unlock_irqrestore(&p->lock, flags);
		if (!m)
			return;
		pipe_deliver(p, m);
		if (m->kind == PIPE_DATA)
			pipe_sent(p, !m->to, m->len);
		/* the bytes are the peer's: the sender's pages are free */
		if (m->zc) {
			spin_lock_irqsave(&p->lock, flags);
			if (p->hold_zc) {
				list_add_tail(&m->list, &p->held);
				m = NULL;
			}
			spin_unlock_irqrestore(&p->lock, flags);
			if (m)
				madcm_rnic_zc_put(m->zc);
		}
		kfree(m);
	}
}

static int pipe_offload(struct madcm_rnic_stream *s,
			const struct madcm_cm_offload_ctx *ctx)
{
	struct rnic_pipe *p = pipe_cur;
	struct pipe_end *e = &p->end[pipe_side(p, s)];
	int ret;
	unsigned long flags;

	ret = s->out->rx_start ? s->out->rx_start(s, ctx) : 0;
	if (!ret)
		ret = s->out->qp_state(s, IB_QPS_RTS);
	if (ret)
		return ret;
	spin_lock_irqsave(&p->lock, flags);
	e->fin_sent = false;
	e->fin_acked = false;
	e->fin_rcvd = false;
	e->ended = false;
	e->detached = false;
	e->room = false;
	spin_unlock_irqrestore(&p->lock, flags);
	spin_lock_bh(&s->rx_lock);
	/* the CM's unacknowledged bytes reached the peer's CM already */
	madcm_rnic_stream_take(s, ctx);
	if (s->out->tx_start)
		s->out->tx_start(s, ctx);
	if (ctx->rcvd_len && s->out->rx_data)
		s->out->rx_data(s, ctx->rcvd, ctx->rcvd_len);
	spin_unlock_bh(&s->rx_lock);
	/* what the other side sent meanwhile */
	pipe_kick(p);
	return 0;
}

/* The CM's loop wire carries no segment of a piped stream: none to take. */
static void pipe_rx(struct madcm_rnic_stream *s, const u8 *frame, u32 len)
{
}

static void pipe_close(struct madcm_rnic_stream *s,
		       enum madcm_cm_offload_close how)
{
	struct rnic_pipe *p = pipe_cur;
	int i = pipe_side(p, s);
	struct pipe_end *e = &p->end[i];
	struct pipe_msg *m = NULL;
	unsigned long flags;

	if (how == MADCM_CM_OFFLOAD_CLOSE_RST)
		m = pipe_msg(!i, PIPE_RST, 0);
	spin_lock_irqsave(&p->lock, flags);
	if (how != MADCM_CM_OFFLOAD_CLOSE_RST) {
		pipe_fin(p, i);
	} else if (!e->ended && !e->detached) {
		/* the CM ended it: nothing more is reported to it */
		e->ended = true;
		if (m)
			pipe_queue(p, m);
		m = NULL;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	kfree(m);
	pipe_kick(p);
}

static void pipe_detach(struct madcm_rnic_stream *s)
{
	struct rnic_pipe *p = pipe_cur;
	unsigned long flags;

	if (!p)
		return;
	spin_lock_irqsave(&p->lock, flags);
	p->end[pipe_side(p, s)].detached = true;
	spin_unlock_irqrestore(&p->lock, flags);
	/* a delivery that began before runs to its end */
	flush_work(&p->work);
}

static int pipe_send(struct madcm_rnic_stream *s, const struct kvec *vec,
		     unsigned int nvec, u32 len)
{
	struct rnic_pipe *p = pipe_cur;
	int i = pipe_side(p, s);
	struct pipe_end *e = &p->end[i];
	struct pipe_msg *m;
	unsigned int k;
	u32 off = 0;
	int ret = 0;
	unsigned long flags;

	if (!len || len > READ_ONCE(s->mss))
		return -EINVAL;
	m = pipe_msg(!i, PIPE_DATA, len);
	if (!m)
		return -ENOMEM;
	for (k = 0; k < nvec && off < len; k++) {
		u32 n = min_t(size_t, vec[k].iov_len, len - off);

		memcpy(m->data + off, vec[k].iov_base, n);
		off += n;
	}
	if (off != len) {
		kfree(m);
		return -EINVAL;
	}
	spin_lock_irqsave(&p->lock, flags);
	if (e->fin_sent || e->ended || e->detached) {
		ret = -ENOTCONN;
	} else if (e->queued && e->queued + len > PIPE_WINDOW) {
		e->room = true;
		ret = -EAGAIN;
	} else {
		e->queued += len;
		e->records++;
		WRITE_ONCE(s->snd_nxt, s->snd_nxt + len);
		pipe_queue(p, m);
		m = NULL;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	kfree(m);
	if (!ret)
		pipe_kick(p);
	return ret;
}

/*
 * An FPDU whose payload is in pages: copied here (the pages' references
 * go at once), its ticket kept until the peer took the bytes, as a
 * socket keeps it until they are acknowledged.
 */
static int pipe_send_zc(struct madcm_rnic_stream *s,
			struct madcm_rnic_zc_fpdu *f)
{
	struct rnic_pipe *p = pipe_cur;
	int i = pipe_side(p, s);
	struct pipe_end *e = &p->end[i];
	struct pipe_msg *m;
	unsigned long flags;
	u32 k, off;
	int ret = 0;

	if (f->len > READ_ONCE(s->mss))
		return -EINVAL;
	m = pipe_msg(!i, PIPE_DATA, f->len);
	if (!m)
		return -ENOMEM;
	memcpy(m->data, f->head, f->head_len);
	off = f->head_len;
	for (k = 0; k < f->nbv; k++) {
		u8 *va = kmap_local_page(f->bv[k].bv_page);

		memcpy(m->data + off, va + f->bv[k].bv_offset, f->bv[k].bv_len);
		kunmap_local(va);
		off += f->bv[k].bv_len;
	}
	memcpy(m->data + off, f->tail, f->tail_len);
	spin_lock_irqsave(&p->lock, flags);
	if (e->fin_sent || e->ended || e->detached) {
		ret = -ENOTCONN;
	} else if (e->queued && e->queued + f->len > PIPE_WINDOW) {
		e->room = true;
		ret = -EAGAIN;
	} else {
		e->queued += f->len;
		e->records++;
		WRITE_ONCE(s->snd_nxt, s->snd_nxt + f->len);
		madcm_rnic_zc_get(f->zc);
		m->zc = f->zc;
		pipe_queue(p, m);
		m = NULL;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	kfree(m);
	if (!ret) {
		madcm_rnic_zc_fpdu_release(f);
		pipe_kick(p);
	}
	return ret;
}

static u32 pipe_max_record(struct madcm_rnic_stream *s)
{
	return READ_ONCE(s->mss);
}

static u32 pipe_send_room(struct madcm_rnic_stream *s)
{
	struct rnic_pipe *p = pipe_cur;
	struct pipe_end *e = &p->end[pipe_side(p, s)];
	unsigned long flags;
	u32 room;

	spin_lock_irqsave(&p->lock, flags);
	if (!e->queued) {
		room = U32_MAX;
	} else {
		room = e->queued < PIPE_WINDOW ? PIPE_WINDOW - e->queued : 0;
		/* whoever asks may wait: tell it when the window opens */
		e->room = true;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	return room;
}

static void pipe_close_after_queue(struct madcm_rnic_stream *s)
{
	pipe_close(s, MADCM_CM_OFFLOAD_CLOSE_FIN);
}

/*
 * The pipe writes every record from its work already: a push is only
 * counted, with whether its caller could sleep and held the QP's lock.
 */
static void pipe_push(struct madcm_rnic_stream *s)
{
	struct rnic_pipe *p = pipe_cur;
	struct madcm_rnic_qp *qp = container_of(s, struct madcm_rnic_qp,
						stream);
	struct pipe_end *e = &p->end[pipe_side(p, s)];
	bool atomic = !preemptible();
	int locked = 0;
	unsigned long flags;

#ifdef CONFIG_LOCKDEP
	locked = lockdep_is_held(&qp->lock);
#endif
	spin_lock_irqsave(&p->lock, flags);
	e->pushes++;
	e->pushes_atomic += atomic;
	e->pushes_locked += locked != 0;
	spin_unlock_irqrestore(&p->lock, flags);
}

static void pipe_abort(struct madcm_rnic_stream *s, int status)
{
	struct rnic_pipe *p = pipe_cur;
	int i = pipe_side(p, s);
	struct pipe_end *e = &p->end[i];
	struct pipe_msg *rst, *self;
	unsigned long flags;

	rst = pipe_msg(!i, PIPE_RST, 0);
	self = pipe_msg(i, PIPE_ABORTED, 0);
	spin_lock_irqsave(&p->lock, flags);
	if (rst && self && !e->ended && !e->detached) {
		e->ended = true;
		self->status = status ?: -ECONNABORTED;
		/* the RST goes before anything still queued for the peer */
		list_add(&rst->list, &p->msgs);
		pipe_queue(p, self);
		rst = NULL;
		self = NULL;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	kfree(rst);
	kfree(self);
	pipe_kick(p);
}

static const struct madcm_rnic_stream_ops pipe_ops = {
	.offload = pipe_offload,
	.rx = pipe_rx,
	.close = pipe_close,
	.detach = pipe_detach,
	.send = pipe_send,
	.send_zc = pipe_send_zc,
	.max_record = pipe_max_record,
	.send_room = pipe_send_room,
	.close_after_queue = pipe_close_after_queue,
	.abort = pipe_abort,
	.push = pipe_push,
};

static void pipe_free(struct kunit_resource *res)
{
	struct rnic_pipe *p = res->data;
	struct pipe_msg *m, *n;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	p->dead = true;
	spin_unlock_irqrestore(&p->lock, flags);
	destroy_workqueue(p->wq);
	list_splice_init(&p->held, &p->msgs);
	list_for_each_entry_safe(m, n, &p->msgs, list) {
		if (m->zc)
			madcm_rnic_zc_put(m->zc);
		kfree(m);
	}
	kfree(p);
	pipe_cur = NULL;
}

static int pipe_init(struct kunit_resource *res, void *context)
{
	struct rnic_pipe *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	p->wq = alloc_ordered_workqueue("madcm_rnic_pipe", WQ_MEM_RECLAIM);
	if (!p->wq) {
		kfree(p);
		return -ENOMEM;
	}
	spin_lock_init(&p->lock);
	INIT_LIST_HEAD(&p->msgs);
	INIT_LIST_HEAD(&p->held);
	INIT_WORK(&p->work, pipe_work);
	p->live = true;
	res->data = p;
	pipe_cur = p;
	return 0;
}

/**
 * rnic_pipe_create() - a pipe for the running case
 * @test: the case; the pipe goes with it, after what was made later
 *
 * Return: the pipe (the case fails if none).
 */
struct rnic_pipe *rnic_pipe_create(struct kunit *test)
{
	struct rnic_pipe *p = kunit_alloc_resource(test, pipe_init, pipe_free,
						  GFP_KERNEL, NULL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

/**
 * rnic_pipe_join() - carry two streams on the pipe, back to back
 * @p: the pipe
 * @a: one QP's stream, not carried
 * @b: the other's
 */
void rnic_pipe_join(struct rnic_pipe *p, struct madcm_rnic_stream *a,
		    struct madcm_rnic_stream *b)
{
	p->end[0].s = a;
	p->end[1].s = b;
	a->ops = &pipe_ops;
	b->ops = &pipe_ops;
}

/**
 * rnic_pipe_live() - let what is queued go (@live), or hold it
 * @p: the pipe
 * @live: whether to deliver
 */
void rnic_pipe_live(struct rnic_pipe *p, bool live)
{
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	p->live = live;
	spin_unlock_irqrestore(&p->lock, flags);
	if (live)
		pipe_kick(p);
}

/**
 * rnic_pipe_flush() - wait until what is queued now was delivered
 * @p: the pipe, live
 */
void rnic_pipe_flush(struct rnic_pipe *p)
{
	flush_workqueue(p->wq);
}

/**
 * rnic_pipe_records() - records one side sent
 * @p: the pipe
 * @from: 0 for the stream given first to rnic_pipe_join(), 1 for the other
 *
 * Return: how many records madcm_rnic_stream_send() took from that side.
 */
u32 rnic_pipe_records(struct rnic_pipe *p, int from)
{
	u32 n;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	n = p->end[from].records;
	spin_unlock_irqrestore(&p->lock, flags);
	return n;
}

/**
 * rnic_pipe_pushes() - how one side's pushes were called
 * @p: the pipe
 * @from: the side, as for rnic_pipe_records()
 * @atomic: set to how many came where the caller could not sleep
 * @locked: set to how many came with the QP's lock held (lockdep only)
 *
 * Return: the side's madcm_rnic_stream_push() calls.
 */
u32 rnic_pipe_pushes(struct rnic_pipe *p, int from, u32 *atomic, u32 *locked)
{
	u32 n;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	n = p->end[from].pushes;
	*atomic = p->end[from].pushes_atomic;
	*locked = p->end[from].pushes_locked;
	spin_unlock_irqrestore(&p->lock, flags);
	return n;
}

/**
 * rnic_pipe_hold_zc() - keep zero-copy tickets after delivery, or give
 *	back those kept
 * @p: the pipe
 * @hold: keep from now on (a socket whose peer has the bytes but whose
 *	ACK has not come); false gives every kept ticket back
 */
void rnic_pipe_hold_zc(struct rnic_pipe *p, bool hold)
{
	struct pipe_msg *m, *n;
	unsigned long flags;
	LIST_HEAD(held);

	spin_lock_irqsave(&p->lock, flags);
	p->hold_zc = hold;
	if (!hold)
		list_splice_init(&p->held, &held);
	spin_unlock_irqrestore(&p->lock, flags);
	list_for_each_entry_safe(m, n, &held, list) {
		madcm_rnic_zc_put(m->zc);
		kfree(m);
	}
}

/**
 * rnic_pipe_tap() - show every octet the pipe delivers to @fn
 * @p: the pipe
 * @fn: called with each piece of a stream, in order, before the other
 *	side takes it: @from the side that sent it (0 or 1); NULL: no tap
 * @arg: its first argument
 *
 * Set before the pipe is live; @fn runs on the pipe's worker.
 */
void rnic_pipe_tap(struct rnic_pipe *p, rnic_pipe_tap_fn fn, void *arg)
{
	p->tap_arg = arg;
	p->tap = fn;
}
