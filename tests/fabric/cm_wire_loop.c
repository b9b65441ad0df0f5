// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software wire (wire_loop.h): cm_cores joined in memory, with
 * deterministic fault injection, for KUnit and demonstrations.
 */
#include <linux/completion.h>
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <madcm/cm_backend.h>
#include "tests/fabric/cm_wire_loop.h"

/* Captured frames a port keeps before it drops the newest. */
#define MADCM_WIRE_LOOP_CAPTURE_MAX	256
/*
 * Frames on their way to one port before the wire drops the newest: the
 * transmit queue of a Linux net_device by default (txqueuelen 1000). The
 * frames wait for one worker that runs at the speed of the machine, so
 * an unbounded queue on a slow (emulated, sanitized, loaded) machine
 * grows past every retransmission timeout, and the retransmissions feed
 * it: seen as a thousand connections that never completed.
 */
#define MADCM_WIRE_LOOP_QUEUE_LEN	1000

struct madcm_wire_loop_qh {
	struct list_head list;
	struct madcm_cm_steer qh;
};

struct madcm_wire_loop_port {
	struct madcm_wire_loop *loop;
	u8 mac[ETH_ALEN];
	u32 mtu;
	struct in6_addr addrs[MADCM_WIRE_LOOP_ADDRS];
	int naddrs;
	struct madcm_cm_core *core;
	struct madcm_wire_faults faults;
	u32 resolve_eagain;
	bool capture;
	struct list_head captured;
	u32 ncaptured;
	wait_queue_head_t capq;
	struct list_head qhash;
	u32 nqhash;
	u32 conn_steer_busy;
	struct completion *steer_entered;
	struct completion *steer_go;
	u16 ports_lo;
	u16 ports_hi;
	u16 port_reserved;
	u32 queued;
	u32 queue_len;
};

/*
 * @lock guards the ports' addresses, faults, captures and steering
 * entries, the PRNG and the stats; @deliver_lock serialises delivery
 * with the attaching and detaching of cores.
 */
struct madcm_wire_loop {
	spinlock_t lock;		/* see above */
	struct rnd_state rnd;
	struct mutex deliver_lock;	/* see above */
	struct workqueue_struct *wq;
	atomic_t inflight;
	wait_queue_head_t idle;
	bool dead;
	int nports;
	struct madcm_wire_loop_port ports[MADCM_WIRE_LOOP_PORTS];
	struct madcm_wire_loop_stats stats;
};

struct madcm_wire_loop_frame {
	struct delayed_work dw;
	struct list_head list;
	struct madcm_wire_loop *loop;
	struct madcm_wire_loop_port *dst;
	u32 len;
	u8 data[];
};

static u32 loop_rand(struct madcm_wire_loop *loop, u32 n)
{
	return n ? prandom_u32_state(&loop->rnd) % n : 0;
}

static bool loop_chance(struct madcm_wire_loop *loop, u32 pct)
{
	return pct && loop_rand(loop, 100) < pct;
}

static void loop_deliver(struct work_struct *work)
{
	struct madcm_wire_loop_frame *f =
		container_of(to_delayed_work(work), struct madcm_wire_loop_frame,
			     dw);
	struct madcm_wire_loop *loop = f->loop;
	struct madcm_wire_loop_port *dst = f->dst;
	bool kept = false;

	mutex_lock(&loop->deliver_lock);
	if (!loop->dead && dst->core) {
		madcm_cm_backend_receive(dst->core, f->data, f->len);
		spin_lock_bh(&loop->lock);
		loop->stats.delivered++;
		dst->queued--;
		spin_unlock_bh(&loop->lock);
	} else {
		spin_lock_bh(&loop->lock);
		dst->queued--;
		if (!loop->dead && dst->capture &&
		    dst->ncaptured < MADCM_WIRE_LOOP_CAPTURE_MAX) {
			list_add_tail(&f->list, &dst->captured);
			dst->ncaptured++;
			loop->stats.delivered++;
			kept = true;
		} else {
			loop->stats.unroutable++;
		}
		spin_unlock_bh(&loop->lock);
		if (kept)
			wake_up(&dst->capq);
	}
	mutex_unlock(&loop->deliver_lock);
	if (!kept)
		kfree(f);
	if (atomic_dec_and_test(&loop->inflight))
		wake_up(&loop->idle);
}

static void loop_queue(struct madcm_wire_loop *loop,
		       struct madcm_wire_loop_port *dst, const u8 *frame,
		       u32 len, u32 delay_ms, s32 corrupt_at)
{
	struct madcm_wire_loop_frame *f;
	unsigned long flags;

	f = kmalloc(struct_size(f, data, len), GFP_ATOMIC);
	if (!f) {
		spin_lock_irqsave(&loop->lock, flags);
		dst->queued--;
		spin_unlock_irqrestore(&loop->lock, flags);
		return;
	}
	INIT_DELAYED_WORK(&f->dw, loop_deliver);
	INIT_LIST_HEAD(&f->list);
	f->loop = loop;
	f->dst = dst;
	f->len = len;
	memcpy(f->data, frame, len);
	if (corrupt_at >= 0)
		f->data[corrupt_at] ^= 0x5a;
	atomic_inc(&loop->inflight);
	queue_delayed_work(loop->wq, &f->dw, msecs_to_jiffies(delay_ms));
}

static int loop_xmit(struct madcm_cm_core *core, const u8 *frame, u32 len)
{
	struct madcm_wire_loop_port *port = madcm_cm_backend_priv(core);
	struct madcm_wire_loop *loop = port->loop;
	const struct madcm_wire_faults *fl = &port->faults;
	struct madcm_wire_loop_port *dst = NULL;
	s32 corrupt[2] = { -1, -1 };
	u32 delay[2] = {}, copies = 0, i;
	unsigned long flags;

	if (len < ETH_HLEN)
		return -EINVAL;
	spin_lock_irqsave(&loop->lock, flags);
	loop->stats.sent++;
	for (i = 0; i < loop->nports; i++)
		if (ether_addr_equal(loop->ports[i].mac, frame))
			dst = &loop->ports[i];
	if (!dst) {
		loop->stats.unroutable++;
	} else if (loop_chance(loop, fl->drop_pct)) {
		loop->stats.dropped++;
	} else {
		copies = 1;
		if (loop_chance(loop, fl->dup_pct)) {
			loop->stats.duplicated++;
			copies = 2;
		}
	}
	for (i = 0; i < copies; i++) {
		/* Tail drop: a full queue takes no more frames. */
		if (dst->queued >= dst->queue_len) {
			loop->stats.overflowed++;
			copies = i;
			break;
		}
		dst->queued++;
		delay[i] = loop_rand(loop, fl->delay_ms + 1);
		if (loop_chance(loop, fl->reorder_pct)) {
			loop->stats.reordered++;
			delay[i] += fl->reorder_ms;
		}
		/* Past the MAC addresses, so the frame still arrives. */
		if (len > 2 * ETH_ALEN && loop_chance(loop, fl->corrupt_pct)) {
			loop->stats.corrupted++;
			corrupt[i] = 2 * ETH_ALEN +
				     loop_rand(loop, len - 2 * ETH_ALEN);
		}
	}
	spin_unlock_irqrestore(&loop->lock, flags);
	for (i = 0; i < copies; i++)
		loop_queue(loop, dst, frame, len, delay[i], corrupt[i]);
	return 0;
}

static int loop_resolve(struct madcm_cm_core *core, const struct in6_addr *rem,
			u16 vlan_id, u8 *mac)
{
	struct madcm_wire_loop_port *port = madcm_cm_backend_priv(core);
	struct madcm_wire_loop *loop = port->loop;
	int i, j, ret = -EHOSTUNREACH;

	spin_lock_bh(&loop->lock);
	if (port->resolve_eagain) {
		port->resolve_eagain--;
		ret = -EAGAIN;
		goto out;
	}
	for (i = 0; i < loop->nports; i++) {
		struct madcm_wire_loop_port *p = &loop->ports[i];

		for (j = 0; j < p->naddrs; j++) {
			if (ipv6_addr_equal(&p->addrs[j], rem)) {
				ether_addr_copy(mac, p->mac);
				ret = 0;
				goto out;
			}
		}
	}
out:
	spin_unlock_bh(&loop->lock);
	return ret;
}

static void loop_local_mac(struct madcm_cm_core *core, u8 *mac)
{
	struct madcm_wire_loop_port *port = madcm_cm_backend_priv(core);

	ether_addr_copy(mac, port->mac);
}

static u32 loop_mtu(struct madcm_cm_core *core)
{
	struct madcm_wire_loop_port *port = madcm_cm_backend_priv(core);

	return port->mtu;
}

static bool loop_qh_equal(const struct madcm_cm_steer *a,
			  const struct madcm_cm_steer *b)
{
	return a->type == b->type && a->vlan_id == b->vlan_id &&
	       ipv6_addr_equal(&a->loc.ip, &b->loc.ip) &&
	       a->loc.port == b->loc.port &&
	       (a->type == MADCM_CM_STEER_LISTEN ||
		(ipv6_addr_equal(&a->rem.ip, &b->rem.ip) &&
		 a->rem.port == b->rem.port));
}

static int loop_qhash_add(struct madcm_cm_core *core,
			  const struct madcm_cm_steer *qh)
{
	struct madcm_wire_loop_port *port = madcm_cm_backend_priv(core);
	struct madcm_wire_loop_qh *e = kmalloc(sizeof(*e), GFP_KERNEL);
	struct completion *entered = NULL, *go = NULL;
	struct madcm_wire_loop_qh *old;

	might_sleep();
	if (!e)
		return -ENOMEM;
	e->qh = *qh;
	if (qh->type == MADCM_CM_STEER_CONN) {
		spin_lock_bh(&port->loop->lock);
		swap(entered, port->steer_entered);
		swap(go, port->steer_go);
		spin_unlock_bh(&port->loop->lock);
	}
	/* Sleep as a backend may (the netdev one binds a socket). */
	if (go) {
		complete(entered);
		wait_for_completion(go);
	}
	spin_lock_bh(&port->loop->lock);
	/* A connection's entry is retargeted, never doubled. */
	list_for_each_entry(old, &port->qhash, list) {
		if (qh->type == MADCM_CM_STEER_CONN &&
		    loop_qh_equal(&old->qh, qh)) {
			old->qh.target = qh->target;
			spin_unlock_bh(&port->loop->lock);
			kfree(e);
			return 0;
		}
	}
	if (qh->target) {
		spin_unlock_bh(&port->loop->lock);
		kfree(e);
		return -ENOENT;
	}
	if (qh->type == MADCM_CM_STEER_CONN && port->conn_steer_busy) {
		port->conn_steer_busy--;
		spin_unlock_bh(&port->loop->lock);
		kfree(e);
		return -EADDRINUSE;
	}
	list_add_tail(&e->list, &port->qhash);
	port->nqhash++;
	spin_unlock_bh(&port->loop->lock);
	return 0;
}

static void loop_qhash_del(struct madcm_cm_core *core,
			   const struct madcm_cm_steer *qh)
{
	struct madcm_wire_loop_port *port = madcm_cm_backend_priv(core);
	struct madcm_wire_loop_qh *e, *found = NULL;

	might_sleep();
	spin_lock_bh(&port->loop->lock);
	list_for_each_entry(e, &port->qhash, list) {
		if (loop_qh_equal(&e->qh, qh)) {
			found = e;
			list_del(&e->list);
			port->nqhash--;
			break;
		}
	}
	spin_unlock_bh(&port->loop->lock);
	WARN_ON_ONCE(!found);
	kfree(found);
}

static void loop_local_ports(struct madcm_cm_core *core, u16 *lo, u16 *hi)
{
	struct madcm_wire_loop_port *port = madcm_cm_backend_priv(core);

	spin_lock_bh(&port->loop->lock);
	if (port->ports_lo) {
		*lo = port->ports_lo;
		*hi = port->ports_hi;
	}
	spin_unlock_bh(&port->loop->lock);
}

static bool loop_port_reserved(struct madcm_cm_core *core, u16 nr)
{
	struct madcm_wire_loop_port *port = madcm_cm_backend_priv(core);
	bool reserved;

	spin_lock_bh(&port->loop->lock);
	reserved = port->port_reserved && nr == port->port_reserved;
	spin_unlock_bh(&port->loop->lock);
	return reserved;
}

static const struct madcm_cm_backend_ops madcm_wire_loop_ops = {
	.xmit = loop_xmit,
	.resolve = loop_resolve,
	.local_mac = loop_local_mac,
	.mtu = loop_mtu,
	.steer_add = loop_qhash_add,
	.steer_del = loop_qhash_del,
	.local_ports = loop_local_ports,
	.port_reserved = loop_port_reserved,
};

/**
 * madcm_wire_loop_create() - a new software wire
 * @seed: the seed of every fault injection decision
 *
 * Creates an empty wire: no port, no fault, with an ordered workqueue of
 * its own that delivers the frames sent on it. The same @seed and the same
 * sequence of sends give the same faults. Ends with
 * madcm_wire_loop_destroy().
 *
 * Context: Process context; may sleep.
 * Return: the wire, or NULL when out of memory.
 */
struct madcm_wire_loop *madcm_wire_loop_create(u64 seed)
{
	struct madcm_wire_loop *loop = kzalloc(sizeof(*loop), GFP_KERNEL);

	if (!loop)
		return NULL;
	loop->wq = alloc_ordered_workqueue("madcm_wire_loop", 0);
	if (!loop->wq) {
		kfree(loop);
		return NULL;
	}
	spin_lock_init(&loop->lock);
	mutex_init(&loop->deliver_lock);
	init_waitqueue_head(&loop->idle);
	prandom_seed_state(&loop->rnd, seed);
	return loop;
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_create);

/**
 * madcm_wire_loop_add_port() - plug a port into the wire
 * @loop: the wire
 * @mtu: its MTU (0: 1500)
 *
 * Adds a port with no address, no core and no fault; its MAC address is
 * 02:00:00:00:00:<n>, n counting from 1. A wire has at most
 * MADCM_WIRE_LOOP_PORTS ports, which live until the wire is destroyed.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: the port, or NULL when all are taken.
 */
struct madcm_wire_loop_port *madcm_wire_loop_add_port(struct madcm_wire_loop *loop,
						      u32 mtu)
{
	struct madcm_wire_loop_port *port;

	spin_lock_bh(&loop->lock);
	if (loop->nports == MADCM_WIRE_LOOP_PORTS) {
		spin_unlock_bh(&loop->lock);
		return NULL;
	}
	port = &loop->ports[loop->nports];
	port->loop = loop;
	port->mac[0] = 0x02;
	port->mac[5] = ++loop->nports;
	port->mtu = mtu ? mtu : ETH_DATA_LEN;
	port->queue_len = MADCM_WIRE_LOOP_QUEUE_LEN;
	INIT_LIST_HEAD(&port->captured);
	INIT_LIST_HEAD(&port->qhash);
	init_waitqueue_head(&port->capq);
	spin_unlock_bh(&loop->lock);
	return port;
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_add_port);

/**
 * madcm_wire_loop_add_addr() - give a port an IP address
 * @port: the port
 * @ip: the address (IPv4-mapped for IPv4)
 *
 * A core on the wire that resolves @ip gets @port's MAC address. A port
 * has at most MADCM_WIRE_LOOP_ADDRS addresses; none is ever removed.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: 0, or -ENOSPC when @port has all its addresses already.
 */
int madcm_wire_loop_add_addr(struct madcm_wire_loop_port *port,
			     const struct in6_addr *ip)
{
	int ret = -ENOSPC;

	spin_lock_bh(&port->loop->lock);
	if (port->naddrs < MADCM_WIRE_LOOP_ADDRS) {
		port->addrs[port->naddrs++] = *ip;
		ret = 0;
	}
	spin_unlock_bh(&port->loop->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_add_addr);

/**
 * madcm_wire_loop_attach_core() - run a cm_core on a port
 * @port: the port; it must have no core
 * @cfg: the core's tunables, or NULL for the defaults
 *
 * Registers a CM core with the wire as its backend
 * (madcm_cm_backend_register()): its frames leave through @port, with
 * @port's faults, and the frames that reach @port go to the core rather
 * than to a capture. Its next hops resolve through the addresses of the
 * wire's ports.
 *
 * Context: Process context; may sleep.
 * Return: the core, or an ERR_PTR() from madcm_cm_backend_register().
 */
struct madcm_cm_core *
madcm_wire_loop_attach_core(struct madcm_wire_loop_port *port,
			    const struct madcm_cm_config *cfg)
{
	struct madcm_cm_core *core;

	core = madcm_cm_backend_register(&madcm_wire_loop_ops, port, cfg);
	if (IS_ERR(core))
		return core;
	mutex_lock(&port->loop->deliver_lock);
	port->core = core;
	mutex_unlock(&port->loop->deliver_lock);
	return core;
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_attach_core);

/**
 * madcm_wire_loop_detach_core() - stop and free a port's cm_core
 * @port: the port; nothing happens when it has no core
 *
 * Stops the core with madcm_cm_backend_unregister() (its listeners are
 * destroyed, its connections reset, with their events). Frames still on
 * their way to the port find no core: they are captured when the port
 * captures, else counted unroutable and dropped.
 *
 * Context: Process context; sleeps. Not from a CM event handler.
 * Return: Nothing.
 */
void madcm_wire_loop_detach_core(struct madcm_wire_loop_port *port)
{
	struct madcm_cm_core *core;

	mutex_lock(&port->loop->deliver_lock);
	core = port->core;
	port->core = NULL;
	mutex_unlock(&port->loop->deliver_lock);
	madcm_cm_backend_unregister(core);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_detach_core);

/**
 * madcm_wire_loop_set_faults() - what happens to frames a port sends
 * @port: the port
 * @faults: the fault rates (copied)
 *
 * Applies to every frame @port sends from now on; frames already on the
 * wire keep their fate. All zero (the default) is a perfect wire.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: Nothing.
 */
void madcm_wire_loop_set_faults(struct madcm_wire_loop_port *port,
				const struct madcm_wire_faults *faults)
{
	spin_lock_bh(&port->loop->lock);
	port->faults = *faults;
	spin_unlock_bh(&port->loop->lock);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_set_faults);

/**
 * madcm_wire_loop_set_queue_len() - bound the frames on their way to a port
 * @port: the receiving port
 * @len: how many frames may wait for delivery to @port (0: the default,
 *	1000, a net_device's txqueuelen)
 *
 * A frame sent to @port while @len frames wait for delivery to it is
 * dropped (counted as overflowed), as a full transmit queue drops it.
 * Frames already queued keep their place.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: Nothing.
 */
void madcm_wire_loop_set_queue_len(struct madcm_wire_loop_port *port, u32 len)
{
	spin_lock_bh(&port->loop->lock);
	port->queue_len = len ? len : MADCM_WIRE_LOOP_QUEUE_LEN;
	spin_unlock_bh(&port->loop->lock);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_set_queue_len);

/**
 * madcm_wire_loop_set_resolve_delay() - make resolution take a while
 * @port: the port whose core resolves
 * @eagain_calls: how many resolve calls answer -EAGAIN first
 *
 * The next @eagain_calls next-hop resolutions of @port's core answer
 * -EAGAIN, as a neighbour still being resolved does; later ones resolve.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: Nothing.
 */
void madcm_wire_loop_set_resolve_delay(struct madcm_wire_loop_port *port,
				       u32 eagain_calls)
{
	spin_lock_bh(&port->loop->lock);
	port->resolve_eagain = eagain_calls;
	spin_unlock_bh(&port->loop->lock);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_set_resolve_delay);

/**
 * madcm_wire_loop_set_conn_steer_busy() - make the link hold local ports
 * @port: the port whose core adds steering entries
 * @calls: how many connection entries to refuse
 *
 * The next @calls connection steering entries of @port's core fail with
 * -EADDRINUSE, as the netdev backend's do while the host stack (or the
 * entry of a connection just closed) still holds the local port.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: Nothing.
 */
void madcm_wire_loop_set_conn_steer_busy(struct madcm_wire_loop_port *port,
					 u32 calls)
{
	spin_lock_bh(&port->loop->lock);
	port->conn_steer_busy = calls;
	spin_unlock_bh(&port->loop->lock);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_set_conn_steer_busy);

/**
 * madcm_wire_loop_set_local_ports() - the link's ephemeral port range
 * @port: the port whose core makes active opens
 * @lo: the first port of the range (0: the core's default range)
 * @hi: the last
 * @reserved: a port of the range not to be picked (0: none)
 *
 * What the netdev backend reads from the namespace's
 * ip_local_port_range and ip_local_reserved_ports.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: Nothing.
 */
void madcm_wire_loop_set_local_ports(struct madcm_wire_loop_port *port,
				     u16 lo, u16 hi, u16 reserved)
{
	spin_lock_bh(&port->loop->lock);
	port->ports_lo = lo;
	port->ports_hi = hi;
	port->port_reserved = reserved;
	spin_unlock_bh(&port->loop->lock);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_set_local_ports);

/**
 * madcm_wire_loop_block_conn_steer() - make the next connection entry sleep
 * @port: the port whose core adds steering entries
 * @entered: completed when the add has begun
 * @go: what the add then waits for before it goes on
 *
 * One shot: the next connection steering entry of @port's core completes
 * @entered, then sleeps until @go is completed, as the netdev backend's
 * add may sleep (it binds a reservation socket).
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: Nothing.
 */
void madcm_wire_loop_block_conn_steer(struct madcm_wire_loop_port *port,
				      struct completion *entered,
				      struct completion *go)
{
	spin_lock_bh(&port->loop->lock);
	port->steer_entered = entered;
	port->steer_go = go;
	spin_unlock_bh(&port->loop->lock);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_block_conn_steer);

/**
 * madcm_wire_loop_capture() - keep frames reaching a port without a core
 * @port: the port
 * @on: start or stop capturing
 *
 * While @port has no core and captures, the frames that reach it are
 * queued, up to 256, for madcm_wire_loop_take(); past that they are
 * counted unroutable and dropped. Frames already captured stay queued
 * when capturing stops.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: Nothing.
 */
void madcm_wire_loop_capture(struct madcm_wire_loop_port *port, bool on)
{
	spin_lock_bh(&port->loop->lock);
	port->capture = on;
	spin_unlock_bh(&port->loop->lock);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_capture);

static struct madcm_wire_loop_frame *
loop_pop_captured(struct madcm_wire_loop_port *port)
{
	struct madcm_wire_loop_frame *f;

	spin_lock_bh(&port->loop->lock);
	f = list_first_entry_or_null(&port->captured,
				     struct madcm_wire_loop_frame, list);
	if (f) {
		list_del(&f->list);
		port->ncaptured--;
	}
	spin_unlock_bh(&port->loop->lock);
	return f;
}

/**
 * madcm_wire_loop_take() - the next frame a capturing port received
 * @port: the port
 * @buf: where to copy it
 * @size: room at @buf
 * @timeout: jiffies to wait for one
 *
 * Takes the oldest captured frame off @port's queue, waiting up to
 * @timeout for one, and copies as much of it as fits in @size bytes.
 *
 * Context: Process context; sleeps.
 * Return: the frame's whole length (which may exceed @size), or
 * -ETIMEDOUT when no frame came within @timeout.
 */
int madcm_wire_loop_take(struct madcm_wire_loop_port *port, u8 *buf,
			 u32 size, unsigned long timeout)
{
	struct madcm_wire_loop_frame *f = NULL;
	int len;

	wait_event_timeout(port->capq, (f = loop_pop_captured(port)), timeout);
	if (!f)
		return -ETIMEDOUT;
	len = f->len;
	memcpy(buf, f->data, min(size, f->len));
	kfree(f);
	return len;
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_take);

/**
 * madcm_wire_loop_mac() - a port's MAC address
 * @port: the port
 * @mac: filled in, ETH_ALEN bytes
 *
 * Frames reach @port when their destination MAC address is this one; a
 * test that plays the peer by hand builds its frames with it.
 *
 * Context: Any context.
 * Return: Nothing.
 */
void madcm_wire_loop_mac(struct madcm_wire_loop_port *port, u8 *mac)
{
	ether_addr_copy(mac, port->mac);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_mac);

/**
 * madcm_wire_loop_quiesce() - wait until no frame is in flight
 * @loop: the wire
 *
 * Returns once no frame is on the wire: every frame sent before and
 * while it waits has been delivered, captured or dropped. Delayed frames
 * are waited for, not cut short.
 *
 * Context: Process context; sleeps.
 * Return: Nothing.
 */
void madcm_wire_loop_quiesce(struct madcm_wire_loop *loop)
{
	wait_event(loop->idle, !atomic_read(&loop->inflight));
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_quiesce);

/**
 * madcm_wire_loop_stats() - read the wire's counters
 * @loop: the wire
 * @stats: filled in, with one consistent snapshot of every counter
 *
 * The counters count from the wire's creation (see
 * struct madcm_wire_loop_stats); they are never reset.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: Nothing.
 */
void madcm_wire_loop_stats(struct madcm_wire_loop *loop,
			   struct madcm_wire_loop_stats *stats)
{
	spin_lock_bh(&loop->lock);
	*stats = loop->stats;
	spin_unlock_bh(&loop->lock);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_stats);

/**
 * madcm_wire_loop_qhash_count() - steering entries a port's core holds
 * @port: the port
 *
 * The core asks its backend to steer the segments of each listener and
 * connection to it; the wire keeps the entries to let tests check that
 * every one the core added it also deleted.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: entries added and not yet deleted.
 */
u32 madcm_wire_loop_qhash_count(struct madcm_wire_loop_port *port)
{
	u32 n;

	spin_lock_bh(&port->loop->lock);
	n = port->nqhash;
	spin_unlock_bh(&port->loop->lock);
	return n;
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_qhash_count);

/**
 * madcm_wire_loop_qhash_offloaded() - connection entries aimed at a QP
 * @port: the port
 *
 * At hand-off the core retargets a connection's entry at the offload QP
 * (and back at itself for a TIME-WAIT it takes back); the wire records
 * the target, and still delivers to the core, so that tests can check
 * where the core aimed each entry.
 *
 * Context: Process or softirq context; takes a spinlock.
 * Return: the entries whose target is an offload QP, not the core.
 */
u32 madcm_wire_loop_qhash_offloaded(struct madcm_wire_loop_port *port)
{
	struct madcm_wire_loop_qh *e;
	u32 n = 0;

	spin_lock_bh(&port->loop->lock);
	list_for_each_entry(e, &port->qhash, list)
		n += !!e->qh.target;
	spin_unlock_bh(&port->loop->lock);
	return n;
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_qhash_offloaded);

/**
 * madcm_wire_loop_destroy() - take the wire down
 * @loop: the wire, or NULL
 *
 * Stops and frees every core still attached, waits for the frames in
 * flight (they are dropped) and frees the wire, its ports and what they
 * captured. Nothing of the wire may be used after this.
 *
 * Context: Process context; sleeps. Not from a CM event handler.
 * Return: Nothing.
 */
void madcm_wire_loop_destroy(struct madcm_wire_loop *loop)
{
	struct madcm_wire_loop_frame *f;
	struct madcm_wire_loop_qh *e, *tmp;
	int i;

	if (!loop)
		return;
	for (i = 0; i < loop->nports; i++)
		if (loop->ports[i].core)
			madcm_wire_loop_detach_core(&loop->ports[i]);
	mutex_lock(&loop->deliver_lock);
	loop->dead = true;
	mutex_unlock(&loop->deliver_lock);
	madcm_wire_loop_quiesce(loop);
	destroy_workqueue(loop->wq);
	for (i = 0; i < loop->nports; i++) {
		struct madcm_wire_loop_port *port = &loop->ports[i];

		while ((f = loop_pop_captured(port)))
			kfree(f);
		list_for_each_entry_safe(e, tmp, &port->qhash, list)
			kfree(e);
	}
	kfree(loop);
}
EXPORT_SYMBOL_GPL(madcm_wire_loop_destroy);
