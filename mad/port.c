// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm ports: the object a transport creates for each port it drives,
 * its address handles, and its counters in debugfs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/debugfs.h>
#include <linux/export.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <madcm/mad.h>
#include <madcm/mad_transport.h>

#include "fault.h"
#include "mad_priv.h"
#include "rmpp.h"
#include "madcm.h"

static struct dentry *madcm_ports_dir;

static const char *const madcm_counter_names[MADCM_CNT_MAX] = {
	[MADCM_CNT_RX] = "rx",
	[MADCM_CNT_RX_SHORT] = "rx_drop_short",
	[MADCM_CNT_RX_LONG] = "rx_drop_long",
	[MADCM_CNT_RX_BASE_VERSION] = "rx_drop_base_version",
	[MADCM_CNT_RX_CLASS_VERSION] = "rx_drop_class_version",
	[MADCM_CNT_RX_WRONG_QP] = "rx_drop_wrong_qp",
	[MADCM_CNT_RX_BAD_METHOD] = "rx_drop_bad_method",
	[MADCM_CNT_RX_NO_AGENT] = "rx_drop_no_agent",
	[MADCM_CNT_RX_UNMATCHED_RESP] = "rx_drop_unmatched_response",
	[MADCM_CNT_RX_RMPP] = "rx_rmpp",
	[MADCM_CNT_RX_NOMEM] = "rx_drop_nomem",
	[MADCM_CNT_RX_DISPATCHED] = "rx_dispatched",
	[MADCM_CNT_TX_UNSUPPORTED] = "tx_unsupported_reply",
	[MADCM_CNT_TX_REPLY_FAIL] = "tx_unsupported_reply_failed",
	[MADCM_CNT_TX] = "tx",
	[MADCM_CNT_TX_ERR] = "tx_error",
	[MADCM_CNT_TIMEOUT] = "tx_timeout",
	[MADCM_CNT_RETRY] = "tx_retry",
	[MADCM_CNT_RMPP_TX_SEG] = "rmpp_tx_segments",
	[MADCM_CNT_RMPP_TX_RESEG] = "rmpp_tx_resent_segments",
	[MADCM_CNT_RMPP_TX_ACK] = "rmpp_tx_acks",
	[MADCM_CNT_RMPP_TX_STOP] = "rmpp_tx_stops",
	[MADCM_CNT_RMPP_TX_ABORT] = "rmpp_tx_aborts",
	[MADCM_CNT_RMPP_TX_DONE] = "rmpp_tx_transfers",
	[MADCM_CNT_RMPP_RX_SEG] = "rmpp_rx_segments",
	[MADCM_CNT_RMPP_RX_DUP] = "rmpp_rx_drop_duplicate",
	[MADCM_CNT_RMPP_RX_WINDOW] = "rmpp_rx_drop_past_window",
	[MADCM_CNT_RMPP_RX_STRAY] = "rmpp_rx_drop_no_transfer",
	[MADCM_CNT_RMPP_RX_ACK] = "rmpp_rx_acks",
	[MADCM_CNT_RMPP_RX_STOP] = "rmpp_rx_stops",
	[MADCM_CNT_RMPP_RX_ABORT] = "rmpp_rx_aborts",
	[MADCM_CNT_RMPP_RX_UNMATCHED] = "rmpp_rx_drop_unmatched",
	[MADCM_CNT_RMPP_RX_BAD] = "rmpp_rx_refused_bad",
	[MADCM_CNT_RMPP_RX_LIMIT] = "rmpp_rx_refused_limit",
	[MADCM_CNT_RMPP_RX_SOURCE_LIMIT] = "rmpp_rx_refused_source_limit",
	[MADCM_CNT_RMPP_RX_UNSOLICITED] = "rmpp_rx_drop_unsolicited",
	[MADCM_CNT_RMPP_RX_TIMEOUT] = "rmpp_rx_timeouts",
	[MADCM_CNT_RMPP_RX_DONE] = "rmpp_rx_transfers",
	[MADCM_CNT_API_MISUSE] = "api_misuse",
	[MADCM_CNT_RMPP_CTL_DROP] = "rmpp_tx_ctl_dropped",
	[MADCM_CNT_RMPP_RX_EVICTED] = "rmpp_rx_evicted",
};

static int madcm_port_counters_show(struct seq_file *s, void *unused)
{
	struct madcm_port *port = s->private;
	int i;

	for (i = 0; i < MADCM_CNT_MAX; i++)
		seq_printf(s, "%s %ld\n", madcm_counter_names[i],
			   atomic_long_read(&port->counters[i]));
	seq_printf(s, "agents %d\n", atomic_read(&port->nr_agents));
	seq_printf(s, "live_recvs %d\n", atomic_read(&port->live_recvs));
	seq_printf(s, "live_ahs %d\n", atomic_read(&port->live_ahs));
	madcm_rmpp_port_show(s, port);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(madcm_port_counters);

/**
 * madcm_port_register() - register a transport's port with the MAD core
 * @ops: the transport's operations; ->post_send() is required, the others
 *	are optional. Must outlive the port.
 * @attr: what the port is; copied (@attr->name too), so it may go away on
 *	return
 * @priv: the transport's data, madcm_port_priv() returns it
 *
 * Creates a port that agents can then be registered on, with one reference
 * that madcm_port_unregister() drops, and its counters in debugfs
 * (ports/NAME/counters) when debugfs is there. A port without a name is
 * called "port"; a name too long is cut to fit. From this call on, the
 * transport hands the port's received MADs to madcm_port_deliver().
 *
 * Context: Process context; may sleep.
 * Return: the port, or an ERR_PTR(): -EINVAL when @ops or @attr is NULL
 * or @ops has no ->post_send(), -ENOMEM when out of memory.
 */
struct madcm_port *madcm_port_register(const struct madcm_port_ops *ops,
				       const struct madcm_port_attr *attr,
				       void *priv)
{
	struct madcm_port *port;

	if (!ops || !ops->post_send || !attr)
		return ERR_PTR(-EINVAL);
	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return ERR_PTR(-ENOMEM);
	port->ops = ops;
	port->priv = priv;
	port->attr = *attr;
	strscpy(port->name, attr->name ?: "port", sizeof(port->name));
	port->attr.name = port->name;
	refcount_set(&port->refs, 1);
	mutex_init(&port->reg_mutex);
	hash_init(port->reg_table);
	spin_lock_init(&port->rmpp_src_lock);
	hash_init(port->rmpp_src);
	INIT_LIST_HEAD(&port->rmpp_agents);
	if (madcm_ports_dir) {
		port->debugfs = debugfs_create_dir(port->name, madcm_ports_dir);
		debugfs_create_file("counters", 0400, port->debugfs, port,
				    &madcm_port_counters_fops);
	}
	return port;
}
EXPORT_SYMBOL_GPL(madcm_port_register);

void madcm_port_get(struct madcm_port *port)
{
	refcount_inc(&port->refs);
}

void madcm_port_put(struct madcm_port *port)
{
	if (!refcount_dec_and_test(&port->refs))
		return;
	if (port->ops->release)
		port->ops->release(port);
	mutex_destroy(&port->reg_mutex);
	kfree(port);
}

/**
 * madcm_port_unregister() - end a port nothing uses any more
 * @port: the port, from madcm_port_register()
 *
 * The caller has already unregistered every agent on @port, destroyed
 * every address handle on it and freed every MAD received on it, and its
 * transport holds no send any more; each of these still there is a bug
 * that this function warns about. Removes the port's debugfs directory and
 * drops the reference madcm_port_register() gave; when that was the last,
 * the transport's ->release() runs and the port is freed. @port must not
 * be used after this call.
 *
 * Context: Process context; may sleep.
 * Return: Nothing.
 */
void madcm_port_unregister(struct madcm_port *port)
{
	WARN_ON(atomic_read(&port->nr_agents));
	WARN_ON(atomic_read(&port->live_recvs));
	WARN_ON(atomic_read(&port->live_ahs));
	WARN_ON(atomic_read(&port->live_replies));
	debugfs_remove_recursive(port->debugfs);
	port->debugfs = NULL;
	madcm_port_put(port);
}
EXPORT_SYMBOL_GPL(madcm_port_unregister);

/**
 * madcm_port_remove() - the transport of a port is gone
 * @port: the port; its transport no longer takes sends
 *
 * For a port whose transport goes away under its users (an ib_core device
 * being removed). The caller has already completed every send it held and
 * made its ops refuse new ones; the sends of every agent still registered
 * are flushed through their send handlers (madcm_port_flush_agents()). The
 * port itself lives on, dead, until its last agent is unregistered, its
 * last address handle destroyed and its last received MAD freed; then the
 * transport's ->release() runs.
 *
 * Context: Process context; may sleep.
 */
void madcm_port_remove(struct madcm_port *port)
{
	madcm_port_flush_agents(port);
	debugfs_remove_recursive(port->debugfs);
	port->debugfs = NULL;
	madcm_port_put(port);
}

struct madcm_ah *madcm_port_ah_create(struct madcm_port *port,
				      const struct rdma_ah_attr *attr,
				      gfp_t gfp)
{
	struct madcm_ah *ah;
	int ret;

	if (madcm_fault(MADCM_FAULT_AH))
		return ERR_PTR(-ENOMEM);
	ah = kzalloc(sizeof(*ah), gfp);
	if (!ah)
		return ERR_PTR(-ENOMEM);
	ah->port = port;
	ah->attr = *attr;
	ah->ibah.type = attr->type;
	if (port->ops->create_ah) {
		ret = port->ops->create_ah(port, ah, gfp);
		if (ret) {
			kfree(ah);
			return ERR_PTR(ret);
		}
	}
	madcm_port_get(port);
	atomic_inc(&port->live_ahs);
	return ah;
}

void madcm_port_ah_destroy(struct madcm_ah *ah)
{
	struct madcm_port *port = ah->port;

	if (port->ops->destroy_ah)
		port->ops->destroy_ah(port, ah);
	atomic_dec(&port->live_ahs);
	kfree(ah);
	madcm_port_put(port);
}

/**
 * madcm_create_ah() - create an address handle for sending MADs
 * @port: the port the MADs leave from
 * @ah_attr: the destination: LID, SL and, when present, the GRH
 *
 * The madcm twin of rdma_create_ah() for MADs: the handle goes into
 * send_buf->ah. It belongs to @port and is released with madcm_destroy_ah().
 *
 * Context: Process context; may sleep.
 * Return: the handle, or an ERR_PTR(): -EINVAL for a NULL argument,
 * -ENOMEM when out of memory, or the transport's error.
 */
struct ib_ah *madcm_create_ah(struct madcm_port *port,
			      struct rdma_ah_attr *ah_attr)
{
	struct madcm_ah *ah;

	if (!port || !ah_attr)
		return ERR_PTR(-EINVAL);
	ah = madcm_port_ah_create(port, ah_attr, GFP_KERNEL);
	return IS_ERR(ah) ? ERR_CAST(ah) : &ah->ibah;
}
EXPORT_SYMBOL_GPL(madcm_create_ah);

/**
 * madcm_create_ah_from_wc() - create an address handle to answer a MAD
 * @port: the port the MAD came in on
 * @wc: the work completion of the received MAD
 * @grh: the GRH of the received MAD; used when @wc has IB_WC_GRH set
 *
 * The madcm twin of ib_create_ah_from_wc(): the handle addresses the
 * sender of the MAD, with its LID and SL (and its GID when the MAD came
 * with a GRH).
 *
 * Context: Process context; may sleep.
 * Return: the handle, or an ERR_PTR(): -EINVAL when @port or @wc is NULL,
 * otherwise as for madcm_create_ah().
 */
struct ib_ah *madcm_create_ah_from_wc(struct madcm_port *port,
				      const struct ib_wc *wc,
				      const struct ib_grh *grh)
{
	struct rdma_ah_attr attr = {};

	if (!port || !wc)
		return ERR_PTR(-EINVAL);
	attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&attr, wc->slid);
	rdma_ah_set_sl(&attr, wc->sl);
	rdma_ah_set_path_bits(&attr, wc->dlid_path_bits);
	if ((wc->wc_flags & IB_WC_GRH) && grh) {
		rdma_ah_set_ah_flags(&attr, IB_AH_GRH);
		attr.grh.dgid = grh->sgid;
		attr.grh.hop_limit = 0xff;
	}
	return madcm_create_ah(port, &attr);
}
EXPORT_SYMBOL_GPL(madcm_create_ah_from_wc);

/**
 * madcm_destroy_ah() - release an address handle
 * @ah: the handle, from madcm_create_ah() or madcm_create_ah_from_wc()
 *
 * No posted send may still use @ah.
 *
 * Context: Process context; may sleep.
 * Return: Nothing.
 */
void madcm_destroy_ah(struct ib_ah *ah)
{
	/* Even where this transport would not: the ib_core one sleeps. */
	might_sleep();
	if (!IS_ERR_OR_NULL(ah))
		madcm_port_ah_destroy(to_madcm_ah(ah));
}
EXPORT_SYMBOL_GPL(madcm_destroy_ah);

/**
 * madcm_port_qpn() - the QP number peers send a port's GMPs to
 * @port: the port
 *
 * A loopback port owns QP1, so this is 1. A port on an ib_core device has
 * a UD QP of its own next to ib_core's QP1: its number is what a peer
 * passes as remote_qpn to reach the agents on @port, and what to publish
 * to peers.
 *
 * Context: Any context.
 * Return: the QP number.
 */
u32 madcm_port_qpn(const struct madcm_port *port)
{
	return port->attr.qpn;
}
EXPORT_SYMBOL_GPL(madcm_port_qpn);

/**
 * madcm_port_lid() - the LID of a port
 * @port: the port
 *
 * The LID that peers address the port's MADs to: the LID given to
 * madcm_loop_port_create() on a loopback fabric; on an InfiniBand port of
 * an ib_core device, the port's LID as it was when madcm opened the port
 * (a later change of LID is not followed); 0 on RoCE, which addresses by
 * GID.
 *
 * Context: Any context.
 * Return: the port's LID.
 */
u32 madcm_port_lid(const struct madcm_port *port)
{
	return port->attr.lid;
}
EXPORT_SYMBOL_GPL(madcm_port_lid);

int madcm_ports_init(void)
{
	if (madcm_debugfs_root)
		madcm_ports_dir = debugfs_create_dir("ports",
						     madcm_debugfs_root);
	return 0;
}

void madcm_ports_exit(void)
{
	debugfs_remove_recursive(madcm_ports_dir);
	madcm_ports_dir = NULL;
}

/**
 * madcm_port_priv() - a transport's data of its port
 * @port: the port
 *
 * The pointer the transport registered @port with, for its ops to find
 * their own state. Only the transport that registered @port knows what it
 * points to (see madcm_port_is()).
 *
 * Context: Any context.
 * Return: what madcm_port_register() was given.
 */
void *madcm_port_priv(const struct madcm_port *port)
{
	return port->priv;
}
EXPORT_SYMBOL_GPL(madcm_port_priv);

/**
 * madcm_port_is() - whether a port is a given transport's
 * @port: the port
 * @ops: the transport's ops table
 *
 * Lets a transport that is handed a port (through an agent or an address
 * handle) tell whether it registered that port, before it trusts what
 * madcm_port_priv() returns.
 *
 * Context: Any context.
 * Return: true when @port was registered with @ops.
 */
bool madcm_port_is(const struct madcm_port *port,
		   const struct madcm_port_ops *ops)
{
	return port->ops == ops;
}
EXPORT_SYMBOL_GPL(madcm_port_is);

/**
 * madcm_port_name() - a port's name, as in logs and debugfs
 * @port: the port
 *
 * The name given in &madcm_port_attr.name at registration (cut to fit),
 * or "port"; it names the port's directory under debugfs ports/.
 *
 * Context: Any context.
 * Return: the name; it lives as long as the port.
 */
const char *madcm_port_name(const struct madcm_port *port)
{
	return port->name;
}
EXPORT_SYMBOL_GPL(madcm_port_name);

/**
 * madcm_port_counter() - read one of a port's counters by name
 * @port: the port
 * @name: the counter's name, as its line in the port's debugfs file
 *	"counters" says (rx, rx_dispatched, rmpp_tx_segments, ...)
 *
 * For tools and tests that report what a port did.
 *
 * Context: Any context.
 * Return: the counter's value, or -ENOENT for an unknown name.
 */
long madcm_port_counter(const struct madcm_port *port, const char *name)
{
	int i;

	for (i = 0; i < MADCM_CNT_MAX; i++)
		if (!strcmp(madcm_counter_names[i], name))
			return atomic_long_read(&port->counters[i]);
	return -ENOENT;
}
EXPORT_SYMBOL_GPL(madcm_port_counter);
