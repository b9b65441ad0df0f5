// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MAD test fabric: an in-kernel transport whose ports reach each other
 * by LID, with QP0 and QP1 on every port. It behaves as hardware would:
 * sends complete asynchronously, from a workqueue, and MADs arrive the same
 * way. Each link (ordered pair of ports) can drop, duplicate, reorder and
 * delay MADs, decided by a pseudo-random sequence seeded from the fabric's
 * seed and the link: the same seed gives the same decisions.
 *
 * Each port has one FIFO of events (send completions for its own sends,
 * MADs arriving for it) drained by one work item, so a port sees its
 * events in order and its handlers never run concurrently with each other.
 */
#include <linux/export.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <madcm/mad.h>
#include <madcm/mad_transport.h>

#include "mad/fault.h"
#include "tests/fabric/mad_loop.h"

/* How long a held-back (reordered) MAD waits for a successor at most. */
#define MADCM_LOOP_HOLD_MS	10

struct madcm_loop_fabric {
	u64 seed;
	u32 id;
	struct xarray ports;
	struct workqueue_struct *wq;
	atomic_t in_flight;
	wait_queue_head_t idle;
};

struct madcm_loop_link;

struct madcm_loop_port {
	struct madcm_port *port;
	struct madcm_loop_fabric *fab;
	u32 lid;
	spinlock_t lock;	/* protects events and dead */
	struct list_head events;
	struct work_struct work;
	bool dead;
	struct xarray links;
	struct rcu_head rcu;
};

enum madcm_loop_ev_type {
	MADCM_LOOP_COMPLETE,
	MADCM_LOOP_DELIVER,
};

struct madcm_loop_ev {
	struct list_head node;
	enum madcm_loop_ev_type type;
	struct madcm_loop_fabric *fab;
	struct delayed_work delay;
	u32 dlid;
	struct madcm_send *send;
	struct madcm_port_rx rx;
	u8 mad[] __aligned(8);
};

struct madcm_loop_link {
	spinlock_t lock;	/* protects everything below */
	struct madcm_loop_faults faults;
	struct rnd_state rnd;
	struct madcm_loop_ev *held;
	struct delayed_work release;
};

static atomic_t madcm_loop_ids = ATOMIC_INIT(0);

static struct madcm_loop_port *madcm_loop_port(struct madcm_port *port)
{
	return madcm_port_priv(port);
}

static void madcm_loop_ev_free(struct madcm_loop_ev *ev)
{
	struct madcm_loop_fabric *fab = ev->fab;

	kfree(ev);
	if (atomic_dec_and_test(&fab->in_flight))
		wake_up_all(&fab->idle);
}

static struct madcm_loop_ev *madcm_loop_ev_alloc(struct madcm_loop_fabric *fab,
						 size_t len)
{
	struct madcm_loop_ev *ev;

	if (madcm_fault(MADCM_FAULT_LOOP_PKT))
		return NULL;
	ev = kzalloc(sizeof(*ev) + len, GFP_ATOMIC);
	if (!ev)
		return NULL;
	ev->fab = fab;
	atomic_inc(&fab->in_flight);
	return ev;
}

/* Queue an event on a port's FIFO, or drop it if the port is gone. */
static void madcm_loop_queue(struct madcm_loop_port *lp,
			     struct madcm_loop_ev *ev)
{
	unsigned long flags;
	bool queued = false;

	spin_lock_irqsave(&lp->lock, flags);
	if (!lp->dead) {
		list_add_tail(&ev->node, &lp->events);
		queue_work(lp->fab->wq, &lp->work);
		queued = true;
	}
	spin_unlock_irqrestore(&lp->lock, flags);
	if (!queued)
		madcm_loop_ev_free(ev);
}

/* Hand a MAD to the port with its destination LID, if there is one. */
static void madcm_loop_route(struct madcm_loop_ev *ev)
{
	struct madcm_loop_fabric *fab = ev->fab;
	struct madcm_loop_port *dst;

	rcu_read_lock();
	dst = xa_load(&fab->ports, ev->dlid);
	if (dst)
		madcm_loop_queue(dst, ev);
	rcu_read_unlock();
	if (!dst)
		madcm_loop_ev_free(ev);
}

static void madcm_loop_delay_fn(struct work_struct *work)
{
	madcm_loop_route(container_of(to_delayed_work(work),
				      struct madcm_loop_ev, delay));
}

static void madcm_loop_release_fn(struct work_struct *work)
{
	unsigned long flags;
	struct madcm_loop_link *link = container_of(to_delayed_work(work),
						    struct madcm_loop_link,
						    release);
	struct madcm_loop_ev *ev;

	spin_lock_irqsave(&link->lock, flags);
	ev = link->held;
	link->held = NULL;
	spin_unlock_irqrestore(&link->lock, flags);
	if (ev)
		madcm_loop_route(ev);
}

static bool madcm_loop_roll(struct madcm_loop_link *link, u16 permille)
{
	return permille && prandom_u32_state(&link->rnd) % 1000 < permille;
}

/*
 * Send a MAD over a link, applying its faults. Runs under the sender's
 * agent lock: no sleeping.
 */
static void madcm_loop_transmit(struct madcm_loop_port *lp,
				struct madcm_loop_ev *ev)
{
	unsigned long flags;
	struct madcm_loop_link *link = xa_load(&lp->links, ev->dlid);
	struct madcm_loop_ev *dup = NULL, *release = NULL;
	unsigned long delay = 0;

	if (!link) {
		madcm_loop_route(ev);
		return;
	}
	spin_lock_irqsave(&link->lock, flags);
	if (madcm_loop_roll(link, link->faults.drop)) {
		spin_unlock_irqrestore(&link->lock, flags);
		madcm_loop_ev_free(ev);
		return;
	}
	if (madcm_loop_roll(link, link->faults.duplicate)) {
		dup = madcm_loop_ev_alloc(lp->fab, ev->rx.len);
		if (dup) {
			dup->type = ev->type;
			dup->dlid = ev->dlid;
			dup->rx = ev->rx;
			memcpy(dup->mad, ev->mad, ev->rx.len);
			dup->rx.mad = dup->mad;
		}
	}
	if (madcm_loop_roll(link, link->faults.delay) &&
	    link->faults.delay_max_ms)
		delay = msecs_to_jiffies(1 + prandom_u32_state(&link->rnd) %
					 link->faults.delay_max_ms);
	if (!delay && !link->held &&
	    madcm_loop_roll(link, link->faults.reorder)) {
		/* Hold it back until the next MAD on the link has passed. */
		link->held = ev;
		ev = NULL;
		mod_delayed_work(lp->fab->wq, &link->release,
				 msecs_to_jiffies(MADCM_LOOP_HOLD_MS));
	} else if (!delay) {
		release = link->held;
		link->held = NULL;
	}
	spin_unlock_irqrestore(&link->lock, flags);

	if (ev && delay) {
		INIT_DELAYED_WORK(&ev->delay, madcm_loop_delay_fn);
		queue_delayed_work(lp->fab->wq, &ev->delay, delay);
	} else if (ev) {
		madcm_loop_route(ev);
	}
	if (release)
		madcm_loop_route(release);
	if (dup)
		madcm_loop_route(dup);
}

static int madcm_loop_post_send(struct madcm_port *port,
				const struct madcm_port_send *ps)
{
	unsigned long flags;
	struct madcm_loop_port *lp = madcm_loop_port(port);
	size_t len = ps->hdr_len + ps->payload_len;
	struct madcm_loop_ev *comp, *ev;

	if (len > sizeof(struct opa_mad))
		return -EINVAL;
	comp = madcm_loop_ev_alloc(lp->fab, 0);
	if (!comp)
		return -ENOMEM;
	ev = madcm_loop_ev_alloc(lp->fab, len);
	if (!ev) {
		madcm_loop_ev_free(comp);
		return -ENOMEM;
	}
	comp->type = MADCM_LOOP_COMPLETE;
	comp->send = ps->send;
	/*
	 * The completion is queued first, in one go with the check that the
	 * port lives: a post taken is a completion reported, also when the
	 * port is being destroyed (destroy reports what is still queued).
	 */
	spin_lock_irqsave(&lp->lock, flags);
	if (lp->dead) {
		spin_unlock_irqrestore(&lp->lock, flags);
		madcm_loop_ev_free(comp);
		madcm_loop_ev_free(ev);
		return -ENODEV;
	}
	list_add_tail(&comp->node, &lp->events);
	queue_work(lp->fab->wq, &lp->work);
	spin_unlock_irqrestore(&lp->lock, flags);

	ev->type = MADCM_LOOP_DELIVER;
	ev->dlid = rdma_ah_get_dlid(&ps->ah->attr);
	memcpy(ev->mad, ps->hdr, ps->hdr_len);
	memcpy(ev->mad + ps->hdr_len, ps->payload, ps->payload_len);
	ev->rx.mad = ev->mad;
	ev->rx.len = len;
	ev->rx.qpn = ps->remote_qpn;
	ev->rx.src_qp = ps->src_qpn;
	ev->rx.slid = lp->lid;
	ev->rx.sl = rdma_ah_get_sl(&ps->ah->attr);
	ev->rx.pkey_index = ps->pkey_index;

	/* Only QP0 and QP1 exist: a MAD to any other QP is lost. */
	if (ps->remote_qpn > 1)
		madcm_loop_ev_free(ev);
	else
		madcm_loop_transmit(lp, ev);
	return 0;
}

static const struct madcm_port_ops madcm_loop_ops = {
	.post_send = madcm_loop_post_send,
};

static void madcm_loop_work(struct work_struct *work)
{
	unsigned long flags;
	struct madcm_loop_port *lp = container_of(work, struct madcm_loop_port,
						  work);
	struct madcm_loop_ev *ev, *tmp;
	LIST_HEAD(events);

	spin_lock_irqsave(&lp->lock, flags);
	list_splice_init(&lp->events, &events);
	spin_unlock_irqrestore(&lp->lock, flags);

	list_for_each_entry_safe(ev, tmp, &events, node) {
		list_del(&ev->node);
		if (ev->type == MADCM_LOOP_COMPLETE)
			madcm_port_send_complete(lp->port, ev->send,
						 IB_WC_SUCCESS);
		else
			madcm_port_deliver(lp->port, &ev->rx);
		madcm_loop_ev_free(ev);
		cond_resched();
	}
}

/**
 * madcm_loop_fabric_create() - create a loopback fabric
 * @seed: the seed of every link's fault decisions
 *
 * An in-kernel fabric without hardware: MADs sent from one of its ports
 * (madcm_loop_port_create()) to the LID of another arrive there, through
 * links whose faults madcm_loop_set_faults() sets. The same @seed gives
 * the same fault decisions.
 *
 * Context: Process context; may sleep.
 * Return: the fabric, or an ERR_PTR(): -ENOMEM when out of memory.
 */
struct madcm_loop_fabric *madcm_loop_fabric_create(u64 seed)
{
	struct madcm_loop_fabric *fab;

	fab = kzalloc(sizeof(*fab), GFP_KERNEL);
	if (!fab)
		return ERR_PTR(-ENOMEM);
	fab->id = atomic_inc_return(&madcm_loop_ids);
	fab->wq = alloc_workqueue("madcm_loop%u", WQ_UNBOUND, 0, fab->id);
	if (!fab->wq) {
		kfree(fab);
		return ERR_PTR(-ENOMEM);
	}
	fab->seed = seed;
	xa_init(&fab->ports);
	atomic_set(&fab->in_flight, 0);
	init_waitqueue_head(&fab->idle);
	return fab;
}
EXPORT_SYMBOL_GPL(madcm_loop_fabric_create);

/**
 * madcm_loop_quiesce() - wait until nothing travels on a fabric
 * @fab: the fabric
 *
 * Waits until every MAD sent so far has arrived or been lost and every
 * send completion has been reported, including what their handlers sent
 * in turn. Response timeouts are not waited for.
 *
 * Context: Process context; may sleep. Not from a handler.
 * Return: Nothing.
 */
void madcm_loop_quiesce(struct madcm_loop_fabric *fab)
{
	wait_event(fab->idle, atomic_read(&fab->in_flight) == 0);
}
EXPORT_SYMBOL_GPL(madcm_loop_quiesce);

/**
 * madcm_loop_fabric_destroy() - destroy a loopback fabric
 * @fab: the fabric, whose ports are all destroyed already; NULL or an
 *	ERR_PTR() is ignored
 *
 * Waits until nothing travels on @fab, as madcm_loop_quiesce() does, then
 * frees it. Every port must have been destroyed first with
 * madcm_loop_port_destroy(); a port left on the fabric is a caller bug,
 * reported with a kernel warning.
 *
 * Context: Process context; may sleep.
 * Return: Nothing.
 */
void madcm_loop_fabric_destroy(struct madcm_loop_fabric *fab)
{
	if (IS_ERR_OR_NULL(fab))
		return;
	WARN_ON(!xa_empty(&fab->ports));
	madcm_loop_quiesce(fab);
	destroy_workqueue(fab->wq);
	xa_destroy(&fab->ports);
	kfree(fab);
}
EXPORT_SYMBOL_GPL(madcm_loop_fabric_destroy);

/**
 * madcm_loop_port_create() - add a port to a loopback fabric
 * @fab: the fabric
 * @lid: the port's LID, unique in the fabric, 1 to 0xbfff (unicast)
 * @opa: the port also carries OPA MADs
 *
 * The port has QP0 and QP1. MADs reach it when sent to @lid.
 *
 * Context: Process context; may sleep.
 * Return: the port, or an ERR_PTR(): -EINVAL for a LID out of range,
 * -EEXIST when the LID is taken, -ENOMEM when out of memory.
 */
struct madcm_port *madcm_loop_port_create(struct madcm_loop_fabric *fab,
					  u32 lid, bool opa)
{
	struct madcm_port_attr attr = {
		.lid = lid, .opa = opa, .smi = true, .qpn = 1,
	};
	struct madcm_loop_port *lp;
	struct madcm_port *port;
	char name[32];
	int ret;

	if (IS_ERR_OR_NULL(fab) || !lid || lid >= be16_to_cpu(IB_MULTICAST_LID_BASE))
		return ERR_PTR(-EINVAL);
	lp = kzalloc(sizeof(*lp), GFP_KERNEL);
	if (!lp)
		return ERR_PTR(-ENOMEM);
	lp->fab = fab;
	lp->lid = lid;
	spin_lock_init(&lp->lock);
	INIT_LIST_HEAD(&lp->events);
	INIT_WORK(&lp->work, madcm_loop_work);
	xa_init(&lp->links);

	snprintf(name, sizeof(name), "loop%u-%u", fab->id, lid);
	attr.name = name;
	port = madcm_port_register(&madcm_loop_ops, &attr, lp);
	if (IS_ERR(port)) {
		kfree(lp);
		return port;
	}
	lp->port = port;
	ret = xa_insert(&fab->ports, lid, lp, GFP_KERNEL);
	if (ret) {
		madcm_port_unregister(port);
		kfree(lp);
		return ERR_PTR(ret == -EBUSY ? -EEXIST : ret);
	}
	return port;
}
EXPORT_SYMBOL_GPL(madcm_loop_port_create);

/**
 * madcm_loop_port_destroy() - remove a port from its loopback fabric
 * @port: the port, from madcm_loop_port_create(); every agent on it is
 *	unregistered and every address handle of it destroyed
 *
 * MADs still on their way to the port are lost; the port's own replies
 * still queued are released. Later posts on the port get -ENODEV.
 *
 * Context: Process context; may sleep.
 * Return: Nothing.
 */
void madcm_loop_port_destroy(struct madcm_port *port)
{
	unsigned long flags;
	struct madcm_loop_port *lp;
	struct madcm_loop_link *link;
	struct madcm_loop_ev *ev, *tmp;
	unsigned long idx;
	LIST_HEAD(events);

	if (IS_ERR_OR_NULL(port))
		return;
	lp = madcm_loop_port(port);
	xa_erase(&lp->fab->ports, lp->lid);
	spin_lock_irqsave(&lp->lock, flags);
	lp->dead = true;
	spin_unlock_irqrestore(&lp->lock, flags);
	synchronize_rcu();
	cancel_work_sync(&lp->work);

	xa_for_each(&lp->links, idx, link) {
		cancel_delayed_work_sync(&link->release);
		if (link->held)
			madcm_loop_ev_free(link->held);
		kfree(link);
	}
	xa_destroy(&lp->links);

	spin_lock_irqsave(&lp->lock, flags);
	list_splice_init(&lp->events, &events);
	spin_unlock_irqrestore(&lp->lock, flags);
	list_for_each_entry_safe(ev, tmp, &events, node) {
		/*
		 * The port's agents are gone, but its own replies (to a
		 * request nobody takes, RMPP ACK, STOP, ABORT) may still wait
		 * for their completion: report it, which releases them.
		 */
		if (ev->type == MADCM_LOOP_COMPLETE)
			madcm_port_send_complete(port, ev->send,
						 IB_WC_WR_FLUSH_ERR);
		madcm_loop_ev_free(ev);
	}
	madcm_port_unregister(port);
	kfree_rcu(lp, rcu);
}
EXPORT_SYMBOL_GPL(madcm_loop_port_destroy);

/**
 * madcm_loop_set_faults() - set the faults of a link
 * @from: the sending port, from madcm_loop_port_create()
 * @to_lid: the LID of the receiving port
 * @faults: what goes wrong on the link, in MADs per thousand; NULL or all
 *	zero for a perfect link
 *
 * The decisions follow a pseudo-random sequence seeded from the fabric's
 * seed, @from's LID and @to_lid; setting a link's faults restarts it.
 * A duplicated MAD arrives twice; a reordered MAD arrives after the next
 * MAD on the link (or after 10 ms if none comes); a delayed MAD arrives
 * after 1 to @faults->delay_max_ms milliseconds. Send completions are
 * never affected: the sender cannot tell a lost MAD from a delivered one.
 *
 * Context: Process context; may sleep.
 * Return: 0, -EINVAL for an invalid argument, -ENOMEM when out of memory.
 */
int madcm_loop_set_faults(struct madcm_port *from, u32 to_lid,
			  const struct madcm_loop_faults *faults)
{
	unsigned long flags;
	struct madcm_loop_faults none = {};
	struct madcm_loop_link *link, *old;
	struct madcm_loop_port *lp;
	int ret;

	if (IS_ERR_OR_NULL(from) || !madcm_port_is(from, &madcm_loop_ops))
		return -EINVAL;
	if (!faults)
		faults = &none;
	if (faults->drop > 1000 || faults->duplicate > 1000 ||
	    faults->reorder > 1000 || faults->delay > 1000)
		return -EINVAL;
	lp = madcm_loop_port(from);
	link = xa_load(&lp->links, to_lid);
	if (!link) {
		link = kzalloc(sizeof(*link), GFP_KERNEL);
		if (!link)
			return -ENOMEM;
		spin_lock_init(&link->lock);
		INIT_DELAYED_WORK(&link->release, madcm_loop_release_fn);
		old = xa_cmpxchg(&lp->links, to_lid, NULL, link, GFP_KERNEL);
		if (old) {
			kfree(link);
			if (xa_is_err(old))
				return xa_err(old);
			link = old;
		}
	}
	ret = 0;
	spin_lock_irqsave(&link->lock, flags);
	link->faults = *faults;
	prandom_seed_state(&link->rnd, lp->fab->seed ^
			   ((u64)lp->lid << 32 | to_lid));
	spin_unlock_irqrestore(&link->lock, flags);
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_loop_set_faults);
