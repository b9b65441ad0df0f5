// SPDX-License-Identifier: GPL-2.0-only
/*
 * MAD agents: registration for a management class, class version and
 * methods (IBTA vol. 1 13.4.5), the hi_tid that routes responses back to
 * their agent, and unregistration.
 *
 * Requests are routed by (class, class version, OUI for vendor range 2,
 * method) through a per-port hash of registration slots, each with a
 * method table: O(1), read under RCU. Responses are routed by the upper
 * 32 bits of their TID, the agent's hi_tid, through an xarray: O(1), read
 * under RCU. Changes to either are serialised per port (registration is
 * not a hot path).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <madcm/mad.h>

#include "fault.h"
#include "mad_priv.h"
#include "rmpp.h"

/* hi_tid -> agent. 24 bits, like ib_core (mlx4 keeps the top byte). */
static DEFINE_XARRAY_ALLOC(madcm_agents);
static u32 madcm_agents_next;

/**
 * struct madcm_reg_slot - the method table of a (class, version, OUI)
 * @node: in the port's registration hash
 * @key: class, class version and OUI, see madcm_reg_key()
 * @users: agents holding at least one method here
 * @rcu: to free the slot after readers are done
 * @methods: the agent registered for each method, or NULL
 */
struct madcm_reg_slot {
	struct hlist_node node;
	u64 key;
	unsigned int users;
	struct rcu_head rcu;
	struct madcm_agent __rcu *methods[IB_MGMT_MAX_METHODS];
};

static bool madcm_is_vendor_class2(u8 mgmt_class)
{
	return mgmt_class >= IB_MGMT_CLASS_VENDOR_RANGE2_START &&
	       mgmt_class <= IB_MGMT_CLASS_VENDOR_RANGE2_END;
}

static u64 madcm_reg_key(u8 mgmt_class, u8 class_version, const u8 *oui)
{
	u64 key = mgmt_class | (u64)class_version << 8;

	if (madcm_is_vendor_class2(mgmt_class))
		key |= (u64)oui[0] << 16 | (u64)oui[1] << 24 |
		       (u64)oui[2] << 32;
	return key;
}

static struct madcm_reg_slot *madcm_reg_find(struct madcm_port *port,
					     u64 key)
{
	struct madcm_reg_slot *slot;

	hash_for_each_possible_rcu(port->reg_table, slot, node, key)
		if (slot->key == key)
			return slot;
	return NULL;
}

bool madcm_agent_get(struct madcm_agent *ag)
{
	return refcount_inc_not_zero(&ag->refs);
}

void madcm_agent_put(struct madcm_agent *ag)
{
	if (refcount_dec_and_test(&ag->refs))
		complete(&ag->comp);
}

/*
 * The agent registered for a request, with a reference, or NULL. Called
 * from the receive path; takes no lock.
 */
struct madcm_agent *madcm_agent_find_request(struct madcm_port *port,
					     const struct ib_mad_hdr *hdr)
{
	const struct ib_vendor_mad *vmad = (const struct ib_vendor_mad *)hdr;
	struct madcm_agent *ag = NULL;
	struct madcm_reg_slot *slot;
	u64 key;

	key = madcm_reg_key(hdr->mgmt_class, hdr->class_version, vmad->oui);
	rcu_read_lock();
	slot = madcm_reg_find(port, key);
	if (slot)
		ag = rcu_dereference(slot->methods[hdr->method &
						   ~IB_MGMT_METHOD_RESP]);
	if (ag && !madcm_agent_get(ag))
		ag = NULL;
	rcu_read_unlock();
	return ag;
}

/*
 * The agent whose hi_tid a response carries, with a reference, or NULL.
 * Called from the receive path; takes no lock.
 */
struct madcm_agent *madcm_agent_find_response(struct madcm_port *port,
					      const struct ib_mad_hdr *hdr)
{
	struct madcm_agent *ag;
	u32 hi_tid = be64_to_cpu(hdr->tid) >> 32;

	rcu_read_lock();
	ag = xa_load(&madcm_agents, hi_tid);
	if (ag && (ag->port != port || !madcm_agent_get(ag)))
		ag = NULL;
	rcu_read_unlock();
	return ag;
}

static int madcm_reg_check(const struct ib_mad_reg_req *req, u8 rmpp_version,
			   enum ib_qp_type qp_type,
			   ib_mad_recv_handler recv_handler)
{
	bool qp_type_smi = qp_type == IB_QPT_SMI;
	u8 cls = req->mgmt_class;
	bool smp;

	if (req->mgmt_class_version >= MADCM_MAX_CLASS_VERSION)
		return -EINVAL;
	if (!recv_handler)
		return -EINVAL;
	/* Above the plain classes only the directed route SMP class. */
	if (cls >= MADCM_MAX_MGMT_CLASS &&
	    cls != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return -EINVAL;
	/* Class 0 is reserved. */
	if (cls == 0)
		return -EINVAL;
	/* Vendor range 2 classes are told apart by their OUI. */
	if (madcm_is_vendor_class2(cls) &&
	    !(req->oui[0] | req->oui[1] | req->oui[2]))
		return -EINVAL;
	if (rmpp_version && !madcm_is_mad_class_rmpp(cls))
		return -EINVAL;
	/* SMPs go to QP0 only, every other class to QP1 only. */
	smp = cls == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
	      cls == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	if (smp != qp_type_smi)
		return -EINVAL;
	return 0;
}

/* Claim the agent's methods; the port's reg_mutex is held. */
static int madcm_reg_add(struct madcm_agent *ag)
{
	const struct ib_mad_reg_req *req = ag->reg_req;
	struct madcm_port *port = ag->port;
	struct madcm_reg_slot *slot;
	unsigned int m;
	u64 key;

	if (bitmap_empty(req->method_mask, IB_MGMT_MAX_METHODS))
		return 0;
	key = madcm_reg_key(req->mgmt_class, req->mgmt_class_version,
			    req->oui);
	slot = madcm_reg_find(port, key);
	if (slot) {
		for_each_set_bit(m, req->method_mask, IB_MGMT_MAX_METHODS)
			if (rcu_access_pointer(slot->methods[m]))
				return -EINVAL;
	} else {
		if (madcm_fault(MADCM_FAULT_REG_SLOT))
			return -ENOMEM;
		slot = kzalloc(sizeof(*slot), GFP_KERNEL);
		if (!slot)
			return -ENOMEM;
		slot->key = key;
		hash_add_rcu(port->reg_table, &slot->node, key);
	}
	for_each_set_bit(m, req->method_mask, IB_MGMT_MAX_METHODS)
		rcu_assign_pointer(slot->methods[m], ag);
	slot->users++;
	return 0;
}

/* Give the agent's methods back; the port's reg_mutex is held. */
static void madcm_reg_del(struct madcm_agent *ag)
{
	const struct ib_mad_reg_req *req = ag->reg_req;
	struct madcm_reg_slot *slot;
	unsigned int m;

	if (!req || bitmap_empty(req->method_mask, IB_MGMT_MAX_METHODS))
		return;
	slot = madcm_reg_find(ag->port,
			      madcm_reg_key(req->mgmt_class,
					    req->mgmt_class_version, req->oui));
	if (WARN_ON(!slot))
		return;
	for_each_set_bit(m, req->method_mask, IB_MGMT_MAX_METHODS)
		RCU_INIT_POINTER(slot->methods[m], NULL);
	if (--slot->users == 0) {
		hash_del_rcu(&slot->node);
		kfree_rcu(slot, rcu);
	}
}

static void madcm_agent_free(struct madcm_agent *ag)
{
	if (madcm_mad_kernel_rmpp_agent(&ag->agent))
		madcm_rmpp_agent_destroy(ag);
	madcm_send_tids_destroy(ag);
	kfree(ag->reg_req);
	kfree(ag);
}

/*
 * Take a registered agent's methods back and wait until no receive holds
 * it any more; its registration reference is dropped.
 */
static void madcm_agent_withdraw(struct madcm_agent *ag)
{
	struct madcm_port *port = ag->port;

	mutex_lock(&port->reg_mutex);
	madcm_reg_del(ag);
	mutex_unlock(&port->reg_mutex);
	synchronize_rcu();
	madcm_agent_put(ag);
	wait_for_completion(&ag->comp);
}

/**
 * madcm_register_mad_agent() - register to send and receive MADs
 * @port: the port to register on
 * @qp_type: IB_QPT_SMI (QP0, subnet management) or IB_QPT_GSI (QP1)
 * @mad_reg_req: the class, class version, methods (and OUI for vendor
 *	range 2 classes) of the requests to receive; NULL to only send and
 *	receive responses to what the agent sent
 * @rmpp_version: 0, or IB_MGMT_RMPP_VERSION to have RMPP transfers made
 *	for the agent (or by it, with IB_MAD_USER_RMPP)
 * @send_handler: called once for every posted send when it is done
 * @recv_handler: called for every MAD received for the agent
 * @context: kept in the agent for the handlers
 * @registration_flags: IB_MAD_USER_RMPP or 0
 *
 * The madcm twin of ib_register_mad_agent(), with the same rules: the
 * class version must be below 0x83; the class must not be 0 and must be
 * below 0x50 unless it is the directed route SMP class; a vendor range 2
 * class needs a non-zero OUI; @rmpp_version is allowed for RMPP classes
 * only; SMP classes go with IB_QPT_SMI and every other class with
 * IB_QPT_GSI; a registration needs a @recv_handler, no registration needs
 * a @send_handler. A method already registered by another agent for the
 * same class, version (and OUI) makes the registration fail. Each agent
 * gets its own hi_tid, the upper 32 bits of its TIDs, by which responses
 * find their way back to it. The returned agent has no ib_device and no
 * ib_qp: its @device and @qp are NULL.
 *
 * Context: Process context; may sleep.
 * Return: the agent, or an ERR_PTR(): -EINVAL for invalid arguments or a
 * conflicting registration, -EPROTONOSUPPORT for IB_QPT_SMI on a port
 * without QP0, -ENOMEM when out of memory, -EBUSY when no hi_tid is left.
 */
struct ib_mad_agent *
madcm_register_mad_agent(struct madcm_port *port, enum ib_qp_type qp_type,
			 struct ib_mad_reg_req *mad_reg_req, u8 rmpp_version,
			 ib_mad_send_handler send_handler,
			 ib_mad_recv_handler recv_handler, void *context,
			 u32 registration_flags)
{
	struct madcm_agent *ag;
	int ret;

	if (!port)
		return ERR_PTR(-EINVAL);
	if (qp_type != IB_QPT_SMI && qp_type != IB_QPT_GSI)
		return ERR_PTR(-EINVAL);
	if (qp_type == IB_QPT_SMI && !port->attr.smi)
		return ERR_PTR(-EPROTONOSUPPORT);
	if (rmpp_version && rmpp_version != IB_MGMT_RMPP_VERSION)
		return ERR_PTR(-EINVAL);
	if (registration_flags & ~IB_MAD_USER_RMPP)
		return ERR_PTR(-EINVAL);
	if (mad_reg_req) {
		ret = madcm_reg_check(mad_reg_req, rmpp_version, qp_type,
				      recv_handler);
		if (ret)
			return ERR_PTR(ret);
	} else if (!send_handler || (registration_flags & IB_MAD_USER_RMPP)) {
		return ERR_PTR(-EINVAL);
	}

	if (madcm_fault(MADCM_FAULT_AGENT))
		return ERR_PTR(-ENOMEM);
	ag = kzalloc(sizeof(*ag), GFP_KERNEL);
	if (!ag)
		return ERR_PTR(-ENOMEM);
	if (mad_reg_req) {
		ag->reg_req = madcm_fault(MADCM_FAULT_REG_REQ) ? NULL :
			kmemdup(mad_reg_req, sizeof(*mad_reg_req), GFP_KERNEL);
		if (!ag->reg_req) {
			kfree(ag);
			return ERR_PTR(-ENOMEM);
		}
	}
	ag->port = port;
	ag->qpn = qp_type == IB_QPT_SMI ? 0 : 1;
	ag->agent.rmpp_version = rmpp_version;
	ag->agent.recv_handler = recv_handler;
	ag->agent.send_handler = send_handler;
	ag->agent.context = context;
	ag->agent.port_num = 1;
	ag->agent.flags = registration_flags;
	ag->agent.smp_allowed = qp_type == IB_QPT_SMI;
	refcount_set(&ag->refs, 1);
	init_completion(&ag->comp);
	spin_lock_init(&ag->lock);
	INIT_LIST_HEAD(&ag->sends);
	INIT_LIST_HEAD(&ag->backlog);
	ag->sol_max = port->attr.max_solicited;
	madcm_timeout_init(ag);

	ret = madcm_send_tids_init(ag);
	if (ret)
		goto err_free;
	if (madcm_mad_kernel_rmpp_agent(&ag->agent)) {
		ret = madcm_rmpp_agent_init(ag);
		if (ret)
			goto err_tids;
	}

	/*
	 * The agent becomes visible only once nothing can fail any more: its
	 * hi_tid is reserved first (a reserved index reads as empty, so no
	 * response and no port flush finds the agent), its methods are
	 * claimed, and only then is it published under its hi_tid. A
	 * conflicting registration thus frees an agent nobody ever saw.
	 */
	if (madcm_fault(MADCM_FAULT_HI_TID))
		ret = -ENOMEM;
	else
		ret = xa_alloc_cyclic(&madcm_agents, &ag->agent.hi_tid, NULL,
				      XA_LIMIT(0, (1 << 24) - 1),
				      &madcm_agents_next, GFP_KERNEL);
	if (ret < 0)
		goto err_rmpp;

	if (ag->reg_req) {
		mutex_lock(&port->reg_mutex);
		ret = madcm_reg_add(ag);
		mutex_unlock(&port->reg_mutex);
		if (ret)
			goto err_xa;
	}
	madcm_port_get(port);
	atomic_inc(&port->nr_agents);
	ret = xa_err(xa_store(&madcm_agents, ag->agent.hi_tid, ag,
			      GFP_KERNEL));
	if (ret) {
		/* Requests may have found it by its methods meanwhile. */
		madcm_agent_withdraw(ag);
		atomic_dec(&port->nr_agents);
		madcm_port_put(port);
		goto err_xa;
	}
	return &ag->agent;

err_xa:
	xa_erase(&madcm_agents, ag->agent.hi_tid);
err_rmpp:
	if (madcm_mad_kernel_rmpp_agent(&ag->agent))
		madcm_rmpp_agent_destroy(ag);
err_tids:
	madcm_send_tids_destroy(ag);
	kfree(ag->reg_req);
	kfree(ag);
	return ERR_PTR(ret);
err_free:
	kfree(ag->reg_req);
	kfree(ag);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(madcm_register_mad_agent);

/**
 * madcm_unregister_mad_agent() - unregister an agent
 * @mad_agent: the agent; NULL or an ERR_PTR() is ignored
 *
 * The madcm twin of ib_unregister_mad_agent(). The agent stops receiving
 * MADs; every send it posted that is not done yet is cancelled and comes
 * back through the send handler with IB_WC_WR_FLUSH_ERR (a send the
 * transport still holds comes back when the transport gives it up). The
 * call then waits for every handler in progress and for every send buffer
 * of the agent to be freed. When it returns, no handler of the agent runs
 * or will run, and nothing of the agent is left allocated.
 *
 * Context: Process context; may sleep. Not from the agent's own handlers.
 * Return: Nothing.
 */
void madcm_unregister_mad_agent(struct ib_mad_agent *mad_agent)
{
	struct madcm_agent *ag;
	struct madcm_port *port;

	if (IS_ERR_OR_NULL(mad_agent))
		return;
	ag = to_madcm_agent(mad_agent);
	port = ag->port;
	spin_lock_bh(&ag->lock);
	ag->dying = true;
	spin_unlock_bh(&ag->lock);

	/* No new MAD finds the agent once readers are past. */
	xa_erase(&madcm_agents, ag->agent.hi_tid);
	mutex_lock(&port->reg_mutex);
	madcm_reg_del(ag);
	mutex_unlock(&port->reg_mutex);
	synchronize_rcu();

	madcm_send_flush_agent(ag);
	madcm_agent_put(ag);
	wait_for_completion(&ag->comp);
	madcm_timeout_stop(ag);
	atomic_dec(&port->nr_agents);
	madcm_agent_free(ag);
	madcm_port_put(port);
}
EXPORT_SYMBOL_GPL(madcm_unregister_mad_agent);

/*
 * madcm_port_flush_agents() - cancel every send of every agent on a port
 * @port: the port, whose transport is gone
 *
 * Each send not done yet comes back through its send handler with
 * IB_WC_WR_FLUSH_ERR; the agents stay registered (their owners unregister
 * them). Walks every agent: for device removal, not a hot path.
 * Context: Process context; may sleep.
 */
void madcm_port_flush_agents(struct madcm_port *port)
{
	struct madcm_agent *ag;
	unsigned long idx = 0;

	for (;;) {
		rcu_read_lock();
		for (ag = xa_find(&madcm_agents, &idx, ULONG_MAX, XA_PRESENT); ag;
		     ag = xa_find_after(&madcm_agents, &idx, ULONG_MAX,
					XA_PRESENT))
			if (ag->port == port && madcm_agent_get(ag))
				break;
		rcu_read_unlock();
		if (!ag)
			return;
		madcm_send_flush_agent(ag);
		madcm_agent_put(ag);
		idx++;
	}
}

/**
 * madcm_mad_kernel_rmpp_agent() - tell whether madcm does RMPP for an agent
 * @agent: the agent
 *
 * The madcm twin of ib_mad_kernel_rmpp_agent().
 *
 * Context: Any context.
 * Return: 1 when the agent registered with an RMPP version and without
 * IB_MAD_USER_RMPP, 0 otherwise.
 */
int madcm_mad_kernel_rmpp_agent(const struct ib_mad_agent *agent)
{
	return agent->rmpp_version && !(agent->flags & IB_MAD_USER_RMPP);
}
EXPORT_SYMBOL_GPL(madcm_mad_kernel_rmpp_agent);

/*
 * madcm_agent_live_bufs() - send buffers of an agent not yet freed
 * @mad_agent: the agent
 */
int madcm_agent_live_bufs(struct ib_mad_agent *mad_agent)
{
	return atomic_read(&to_madcm_agent(mad_agent)->live_bufs);
}

int madcm_agents_init(void)
{
	return 0;
}

void madcm_agents_exit(void)
{
	WARN_ON(!xa_empty(&madcm_agents));
	xa_destroy(&madcm_agents);
}
