// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exported backend boundary (<madcm/cm_backend.h>): a backend outside
 * madcm.ko registers a core with a struct madcm_cm_backend_ops, and the
 * state machine reaches it through the wire ops below, which translate
 * the CM's own types (struct irdma_cm_qhash) into the public ones.
 */
#include <linux/module.h>
#include <madcm/cm_backend.h>
#include "irdma_cm/cm_core.h"

static struct madcm_cm_core *irdma_backend_of(struct irdma_cm_core *core)
{
	return &core->handle;
}

static int irdma_backend_xmit(struct irdma_cm_core *core, const u8 *frame,
			      u32 len)
{
	return core->handle.bops->xmit(irdma_backend_of(core), frame, len);
}

static int irdma_backend_resolve(struct irdma_cm_core *core,
				 const struct in6_addr *rem, u16 vlan_id,
				 u8 *mac)
{
	return core->handle.bops->resolve(irdma_backend_of(core), rem, vlan_id,
					  mac);
}

static void irdma_backend_local_mac(struct irdma_cm_core *core, u8 *mac)
{
	core->handle.bops->local_mac(irdma_backend_of(core), mac);
}

static u32 irdma_backend_mtu(struct irdma_cm_core *core)
{
	return core->handle.bops->mtu(irdma_backend_of(core));
}

static void irdma_backend_steer(const struct irdma_cm_qhash *qh,
				struct madcm_cm_steer *st)
{
	st->type = qh->type == IRDMA_QHASH_LISTEN ? MADCM_CM_STEER_LISTEN :
						    MADCM_CM_STEER_CONN;
	st->loc.ip = qh->loc.ip;
	st->loc.port = qh->loc.port;
	st->rem.ip = qh->rem.ip;
	st->rem.port = qh->rem.port;
	st->vlan_id = qh->vlan_id;
	st->target = qh->target;
}

static int irdma_backend_qhash_add(struct irdma_cm_core *core,
				   const struct irdma_cm_qhash *qh)
{
	struct madcm_cm_steer st;

	if (!core->handle.bops->steer_add)
		return 0;
	irdma_backend_steer(qh, &st);
	return core->handle.bops->steer_add(irdma_backend_of(core), &st);
}

static void irdma_backend_qhash_del(struct irdma_cm_core *core,
				    const struct irdma_cm_qhash *qh)
{
	struct madcm_cm_steer st;

	if (!core->handle.bops->steer_del)
		return;
	irdma_backend_steer(qh, &st);
	core->handle.bops->steer_del(irdma_backend_of(core), &st);
}

/* The core's default range stays when the backend has no opinion. */
static void irdma_backend_local_ports(struct irdma_cm_core *core, u16 *lo,
				      u16 *hi)
{
	if (core->handle.bops->local_ports)
		core->handle.bops->local_ports(irdma_backend_of(core), lo, hi);
}

static bool irdma_backend_port_reserved(struct irdma_cm_core *core, u16 port)
{
	return core->handle.bops->port_reserved &&
	       core->handle.bops->port_reserved(irdma_backend_of(core), port);
}

static const struct irdma_cm_wire_ops irdma_backend_wire_ops = {
	.xmit = irdma_backend_xmit,
	.resolve = irdma_backend_resolve,
	.local_mac = irdma_backend_local_mac,
	.mtu = irdma_backend_mtu,
	.qhash_add = irdma_backend_qhash_add,
	.qhash_del = irdma_backend_qhash_del,
	.local_ports = irdma_backend_local_ports,
	.port_reserved = irdma_backend_port_reserved,
};

/**
 * madcm_cm_backend_register() - create the CM core of a backend's link
 * @ops: the backend's operations; @ops->xmit, @ops->resolve,
 *	@ops->local_mac and @ops->mtu are required
 * @priv: the backend's data, madcm_cm_backend_priv() returns it
 * @cfg: the core's tunables, or NULL for the defaults
 *
 * The backend hands the core every frame it steered to it with
 * madcm_cm_backend_receive(), and ends the core with
 * madcm_cm_backend_unregister().
 *
 * Context: Process context; may sleep.
 * Return: the core, or an ERR_PTR(): -EINVAL when @ops or one of its
 * required operations is missing, -ENOMEM when out of memory.
 */
struct madcm_cm_core *
madcm_cm_backend_register(const struct madcm_cm_backend_ops *ops, void *priv,
			  const struct madcm_cm_config *cfg)
{
	struct irdma_cm_core *core;

	if (!ops || !ops->xmit || !ops->resolve || !ops->local_mac ||
	    !ops->mtu)
		return ERR_PTR(-EINVAL);
	core = irdma_setup_cm_core(&irdma_backend_wire_ops, NULL, cfg);
	if (IS_ERR(core))
		return ERR_CAST(core);
	core->handle.bops = ops;
	core->handle.bpriv = priv;
	return &core->handle;
}
EXPORT_SYMBOL_GPL(madcm_cm_backend_register);

/**
 * madcm_cm_backend_unregister() - stop and release a backend's core
 * @core: the core from madcm_cm_backend_register(), or NULL
 *
 * Destroys the core's listeners and resets its connections (their
 * consumers get their terminal events); no op of the backend is called
 * after this returns. Holders of the core keep a stopped handle until
 * they put it.
 *
 * Context: Process context; sleeps. Not from a CM event handler.
 * Return: Nothing.
 */
void madcm_cm_backend_unregister(struct madcm_cm_core *core)
{
	if (core)
		irdma_cleanup_cm_core(irdma_cm_core_of(core));
}
EXPORT_SYMBOL_GPL(madcm_cm_backend_unregister);

/**
 * madcm_cm_backend_priv() - a backend's data of its core
 * @core: the core, from madcm_cm_backend_register()
 *
 * The pointer the backend registered @core with, for its operations to
 * find their own state. Only meaningful on a core of that backend.
 *
 * Context: Any context.
 * Return: what madcm_cm_backend_register() was given.
 */
void *madcm_cm_backend_priv(struct madcm_cm_core *core)
{
	return core->bpriv;
}
EXPORT_SYMBOL_GPL(madcm_cm_backend_priv);

/**
 * madcm_cm_backend_receive() - hand the core a frame steered to it
 * @core: the core
 * @frame: the whole frame, from the Ethernet header on
 * @len: its length
 *
 * The core parses and validates the frame (Ethernet, IPv4 or IPv6, TCP)
 * and counts what it refuses, by reason, in its debugfs statistics; a
 * frame that arrives while the core is stopping is counted and dropped. A
 * segment of a known connection drives that connection's state machine, a
 * SYN for a listener starts a new connection. What the core sends in
 * answer goes to the backend's ->xmit(), from this call (with no CM lock
 * held) or later from the core's timers. The core keeps no pointer into
 * @frame after returning.
 *
 * Context: Softirq or process context.
 * Return: Nothing.
 */
void madcm_cm_backend_receive(struct madcm_cm_core *core, const u8 *frame,
			      u32 len)
{
	irdma_receive_ilq(irdma_cm_core_of(core), frame, len);
}
EXPORT_SYMBOL_GPL(madcm_cm_backend_receive);
