// SPDX-License-Identifier: GPL-2.0-only
/*
 * The iw_cm provider: the eight iw_cm_verbs mapped onto the CM's consumer
 * API (madcm_cm_*), and the CM's events mapped onto iw_cm's.
 *
 * One endpoint per connection holds the three objects a connection joins:
 * the iw_cm_id (a reference from cm_id->add_ref while linked), the CM's
 * connection (the consumer's reference until madcm_cm_release()) and the
 * QP (a reference until unlinked; another one the CM holds from connect
 * or accept until its detach). A listener endpoint holds its iw_cm_id and
 * the CM's listener, and finds the connections it created by their CM
 * handle until they are accepted.
 *
 * iw_cm's rules (drivers/infiniband/core/iwcm.c), which decide the
 * mapping:
 *  - an active cm_id gets exactly one CONNECT_REPLY; with a status it is
 *    terminal, with 0 it is followed by [DISCONNECT] and CLOSE;
 *  - a passive cm_id gets ESTABLISHED only after an accept that returned
 *    0, then [DISCONNECT] and CLOSE; nothing after a reject, and nothing
 *    after a failed accept (iw_cm BUG()s on a CLOSE outside ESTABLISHED,
 *    CLOSING or DESTROYING);
 *  - so iw_accept waits, as irdma's does, until the CM reports the
 *    connection ESTABLISHED (the QP then is in RTS) or gone: it returns 0
 *    only once the ESTABLISHED event is given, and an error only when no
 *    event was given or will be.
 *
 * CM event (ours)           iw_cm event
 * CONNECT_REQUEST           CONNECT_REQUEST (listener's cm_id)
 * CONNECT_REPLY             (kept: its private data and IRD/ORD)
 * ESTABLISHED, active       CONNECT_REPLY 0 (the QP is in RTS)
 * ESTABLISHED, passive      ESTABLISHED (accept returns 0)
 * REJECTED                  CONNECT_REPLY -ECONNREFUSED, reject's pdata
 * RESET, not established    CONNECT_REPLY -ECONNRESET, -ETIMEDOUT or
 *                           -ECONNREFUSED; passive: accept fails
 * DISCONNECT                DISCONNECT 0
 * RESET, established        DISCONNECT -ECONNRESET, CLOSE 0 (our own
 *                           abort: CLOSE only)
 * CLOSE                     CLOSE 0
 *
 * The CM's handler runs on its core's ordered workqueue, the iw_cm_verbs
 * in iw_cm's callers' process context. An endpoint's state changes under
 * its spinlock; calls into the CM on its connection are made under its
 * mutex, which also orders them against madcm_cm_release().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": rnic: " fmt

#include <linux/completion.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include "rnic/rnic.h"

/*
 * What the provider asks of the CM for every connection: MPA revision 2
 * with CRCs (unless rnic_mpa_crc says not to ask), as irdma does, without
 * RFC 6581's peer-to-peer model. The
 * CM's peer_to_peer is a requirement on the peer, on a listener too, and
 * siw (Linux 6.1) neither sends the peer-to-peer flag as initiator nor
 * can be told to; with it off both ends interoperate with siw and with
 * each other. The RTR types, for when it is on, are the two that need no
 * answer from the responder's QP (a zero-length Read does).
 */
#define MADCM_RNIC_MPA_REV	2
#define MADCM_RNIC_P2P		false
#define MADCM_RNIC_RTR_CAPS	(MADCM_CM_RTR_WRITE | MADCM_CM_RTR_SEND)

/*
 * Whether the device's connections ask for FPDU CRCs in the MPA exchange
 * (on by default, as irdma and cxgb4, its crc_enabled, ask; siw never
 * does). Either side asking is enough (RFC 5044 7.1.2): with this off a
 * connection still carries CRCs when its peer asks for them, and carries
 * none only when the peer does not ask either (siw, or madcm with this
 * off), which spares both ends a CRC32c pass over every octet where the
 * link below is trusted. Read at each connect and listen.
 */
bool madcm_rnic_mpa_crc = true;
module_param_named(rnic_mpa_crc, madcm_rnic_mpa_crc, bool, 0644);
MODULE_PARM_DESC(rnic_mpa_crc,
		 "ask for MPA CRCs on each connection (default Y; N: CRCs only when the peer asks)");

/*
 * The longest iw_accept waits for the CM's ESTABLISHED: the CM's own MPA
 * timeout (10 s by default) ends the wait with a RESET first; irdma
 * waits 12 s for its RTS event.
 */
#define MADCM_RNIC_ACCEPT_TIMEOUT_MS	15000

#define MADCM_RNIC_LISTEN_HASH_BITS	6

enum madcm_rnic_ep_kind {
	MADCM_RNIC_EP_CONN,
	MADCM_RNIC_EP_LISTEN,
};

/**
 * enum madcm_rnic_ep_state - a connection endpoint, as iw_cm sees it
 * @MADCM_RNIC_EP_CONNECTING: active: iw_connect returned, CONNECT_REPLY
 *	not given yet
 * @MADCM_RNIC_EP_REQUEST: passive: CONNECT_REQUEST given, neither accept
 *	nor reject called yet
 * @MADCM_RNIC_EP_ACCEPTING: passive: iw_accept waits for ESTABLISHED
 * @MADCM_RNIC_EP_CONNECTED: CONNECT_REPLY 0 or ESTABLISHED given
 * @MADCM_RNIC_EP_DONE: the cm_id gets nothing more (terminal event given,
 *	rejected, or accept failed)
 */
enum madcm_rnic_ep_state {
	MADCM_RNIC_EP_CONNECTING,
	MADCM_RNIC_EP_REQUEST,
	MADCM_RNIC_EP_ACCEPTING,
	MADCM_RNIC_EP_CONNECTED,
	MADCM_RNIC_EP_DONE,
};

struct madcm_rnic_listen_ep;

/**
 * struct madcm_rnic_ep - one connection
 * @kind: MADCM_RNIC_EP_CONN (first, as in a listener endpoint)
 * @ref: references: the cm_id side's and the CM side's (each dropped
 *	once), and the ones taken for a call
 * @lock: guards @state, @cm_id, @qp, @conn_gone
 * @conn_mutex: held around every call on @conn, and its release
 * @dev: the device
 * @state: what iw_cm has seen
 * @cm_id: the iw_cm_id, while it gets events (with add_ref)
 * @qp: the QP (with a reference), from connect or accept to the end
 * @conn: the CM's connection, until released
 * @conn_gone: the CM gave its terminal event (or the connection was
 *	released)
 * @local_close: the consumer closed or aborted (modify_qp to SQD or
 *	ERROR): a FIN from the peer is no DISCONNECT of the peer's
 * @accepted: iw_cm was given ESTABLISHED for this accept (iw_accept
 *	then returns 0)
 * @listener: the listener that created it (with a reference), or NULL
 * @hnode: in @listener's table of its connections
 * @accept_done: iw_accept's wait
 * @ird: the IRD of the reply (active) or request (passive)
 * @ord: the ORD
 * @pdata_len: the peer's private data kept from the CM's CONNECT_REPLY
 * @pdata: that data (iw_cm carries at most 255 octets)
 */
struct madcm_rnic_ep {
	enum madcm_rnic_ep_kind kind;
	struct kref ref;
	spinlock_t lock;		/* state, links */
	struct mutex conn_mutex;	/* calls on @conn */
	struct madcm_rnic_dev *dev;
	enum madcm_rnic_ep_state state;
	struct iw_cm_id *cm_id;
	struct madcm_rnic_qp *qp;
	struct madcm_cm_conn *conn;
	bool conn_gone;
	bool local_close;
	bool accepted;
	struct madcm_rnic_listen_ep *listener;
	struct hlist_node hnode;
	struct completion accept_done;
	u8 ird;
	u8 ord;
	u8 pdata_len;
	u8 pdata[U8_MAX];
};

/**
 * struct madcm_rnic_listen_ep - one listener
 * @kind: MADCM_RNIC_EP_LISTEN
 * @ref: the cm_id's and one per connection in @conns
 * @lock: guards @conns and @cm_id
 * @dev: the device
 * @cm_id: the listening iw_cm_id (with add_ref) until destroy_listen
 * @listener: the CM's listener
 * @vlan_listeners: on the unspecified address, one more CM listener per
 *	802.1Q device above the net_device at the time of the listen
 * @nr_vlan: how many
 * @conns: its connections, by CM handle, until their terminal event
 */
struct madcm_rnic_listen_ep {
	enum madcm_rnic_ep_kind kind;
	struct kref ref;
	spinlock_t lock;		/* @conns, @cm_id */
	struct madcm_rnic_dev *dev;
	struct iw_cm_id *cm_id;
	struct madcm_cm_listener *listener;
	struct madcm_cm_listener **vlan_listeners;
	unsigned int nr_vlan;
	DECLARE_HASHTABLE(conns, MADCM_RNIC_LISTEN_HASH_BITS);
};

static void madcm_rnic_lep_free(struct kref *ref)
{
	kfree(container_of(ref, struct madcm_rnic_listen_ep, ref));
}

static void madcm_rnic_lep_put(struct madcm_rnic_listen_ep *lep)
{
	kref_put(&lep->ref, madcm_rnic_lep_free);
}

static void madcm_rnic_ep_free(struct kref *ref)
{
	struct madcm_rnic_ep *ep = container_of(ref, struct madcm_rnic_ep, ref);

	if (ep->listener)
		madcm_rnic_lep_put(ep->listener);
	mutex_destroy(&ep->conn_mutex);
	kfree(ep);
}

static void madcm_rnic_ep_put(struct madcm_rnic_ep *ep)
{
	kref_put(&ep->ref, madcm_rnic_ep_free);
}

static struct madcm_rnic_ep *madcm_rnic_ep_alloc(struct madcm_rnic_dev *dev)
{
	struct madcm_rnic_ep *ep = kzalloc(sizeof(*ep), GFP_KERNEL);

	if (!ep)
		return NULL;
	ep->kind = MADCM_RNIC_EP_CONN;
	/* the cm_id side's reference and the CM side's */
	kref_init(&ep->ref);
	kref_get(&ep->ref);
	spin_lock_init(&ep->lock);
	mutex_init(&ep->conn_mutex);
	init_completion(&ep->accept_done);
	ep->dev = dev;
	return ep;
}

/* Addresses between iw_cm's sockaddrs and the CM's IPv4-mapped form. */

static int madcm_rnic_from_sockaddr(const struct sockaddr_storage *ss,
				    struct madcm_cm_addr *a)
{
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s = (const struct sockaddr_in *)ss;

		ipv6_addr_set_v4mapped(s->sin_addr.s_addr, &a->ip);
		a->port = ntohs(s->sin_port);
		return 0;
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)ss;

		a->ip = s->sin6_addr;
		a->port = ntohs(s->sin6_port);
		return 0;
	}
	return -EAFNOSUPPORT;
}

static void madcm_rnic_to_sockaddr(const struct madcm_cm_addr *a,
				   struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (ipv6_addr_v4mapped(&a->ip)) {
		struct sockaddr_in *s = (struct sockaddr_in *)ss;

		s->sin_family = AF_INET;
		s->sin_addr.s_addr = a->ip.s6_addr32[3];
		s->sin_port = htons(a->port);
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)ss;

		s->sin6_family = AF_INET6;
		s->sin6_addr = a->ip;
		s->sin6_port = htons(a->port);
	}
}

/* Is @ss's address one of @ndev's? Caller holds rcu_read_lock. */
static bool madcm_rnic_addr_on(struct net_device *ndev,
			       const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s = (const struct sockaddr_in *)ss;
		struct in_device *in = __in_dev_get_rcu(ndev);
		const struct in_ifaddr *ifa;

		if (!in)
			return false;
		in_dev_for_each_ifa_rcu(ifa, in)
			if (ifa->ifa_local == s->sin_addr.s_addr)
				return true;
		return false;
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)ss;

		/* A link-local address is on every link: its scope says which. */
		if (ipv6_addr_type(&s->sin6_addr) & IPV6_ADDR_LINKLOCAL &&
		    s->sin6_scope_id)
			return s->sin6_scope_id == ndev->ifindex;
		return ipv6_chk_addr(dev_net(ndev), &s->sin6_addr, ndev, 1);
	}
	return false;
}

/*
 * The CM's vlan_id for a connection or listener on local address @loc.
 *
 * rdma_cm picks an iWARP device by its GID, which is the MAC address of
 * the device's net_device (cma_acquire_dev_by_src_ip()), and an 802.1Q
 * device has its real device's MAC. So an address on a VLAN device above
 * the device's net_device comes to this device as readily as to a
 * device on the VLAN device itself, and to the first registered when
 * both exist. Such a connection runs on that VLAN through the device's
 * core, which tags its frames with the VLAN device, as irdma's one
 * device serves the VLANs of its port: vlan_id is the VLAN device's VID.
 *
 * Otherwise none: an address of the net_device itself, the unspecified
 * address, or a device on a VLAN net_device, whose core is attached to
 * that net_device, which adds and strips the tag itself (a vlan_id
 * would ask the core for a VLAN device above it, and tag twice).
 */
static u16 madcm_rnic_vlan(const struct madcm_rnic_dev *dev,
			   const struct sockaddr_storage *loc)
{
	struct net_device *upper;
	struct list_head *iter;
	u16 vid = MADCM_CM_NO_VLAN;

	rcu_read_lock();
	if (!madcm_rnic_addr_on(dev->netdev, loc)) {
		netdev_for_each_upper_dev_rcu(dev->netdev, upper, iter) {
			if (is_vlan_dev(upper) &&
			    vlan_dev_vlan_proto(upper) == htons(ETH_P_8021Q) &&
			    madcm_rnic_addr_on(upper, loc)) {
				vid = vlan_dev_vlan_id(upper);
				break;
			}
		}
	}
	rcu_read_unlock();
	return vid;
}

static u16 madcm_rnic_clamp_rd(u32 v, u32 max)
{
	return min_t(u32, v, max);
}

/* iw_cm's event for the endpoint's cm_id (ep->cm_id set). */
static void madcm_rnic_iw_event(struct iw_cm_id *cm_id,
				enum iw_cm_event_type type, int status,
				const struct madcm_cm_event *cev,
				const void *pdata, u8 pdata_len,
				u8 ird, u8 ord)
{
	struct iw_cm_event ev = {
		.event = type,
		.status = status,
		.private_data = (void *)pdata,
		.private_data_len = pdata_len,
		.ird = ird,
		.ord = ord,
	};

	if (cev) {
		madcm_rnic_to_sockaddr(&cev->loc, &ev.local_addr);
		madcm_rnic_to_sockaddr(&cev->rem, &ev.remote_addr);
	} else {
		ev.local_addr = cm_id->m_local_addr;
		ev.remote_addr = cm_id->m_remote_addr;
	}
	if (cm_id->event_handler(cm_id, &ev))
		pr_warn_ratelimited("iw_cm refused event %d (status %d)\n",
				    type, status);
}

/* Link an endpoint, its cm_id and its QP (the QP reference is given). */
static int madcm_rnic_ep_link(struct madcm_rnic_ep *ep,
			      struct iw_cm_id *cm_id,
			      struct madcm_rnic_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->ep) {
		spin_unlock_irqrestore(&qp->lock, flags);
		return -EBUSY;
	}
	qp->ep = ep;
	qp->cm_id = cm_id;
	spin_unlock_irqrestore(&qp->lock, flags);

	cm_id->add_ref(cm_id);
	cm_id->provider_data = ep;
	spin_lock_irqsave(&ep->lock, flags);
	ep->cm_id = cm_id;
	ep->qp = qp;
	spin_unlock_irqrestore(&ep->lock, flags);
	return 0;
}

/*
 * The cm_id gets nothing more: unlink it and the QP, drop their
 * references and the cm_id side's reference on the endpoint. Once only,
 * whoever comes first (the terminal event, a failed accept).
 */
static void madcm_rnic_ep_unlink(struct madcm_rnic_ep *ep)
{
	struct madcm_rnic_qp *qp;
	struct iw_cm_id *cm_id;
	unsigned long flags;

	spin_lock_irqsave(&ep->lock, flags);
	cm_id = ep->cm_id;
	qp = ep->qp;
	ep->cm_id = NULL;
	ep->qp = NULL;
	ep->state = MADCM_RNIC_EP_DONE;
	spin_unlock_irqrestore(&ep->lock, flags);

	if (qp) {
		spin_lock_irqsave(&qp->lock, flags);
		if (qp->ep == ep) {
			qp->ep = NULL;
			qp->cm_id = NULL;
		}
		spin_unlock_irqrestore(&qp->lock, flags);
		madcm_rnic_qp_put(qp);
	}
	if (cm_id) {
		cm_id->provider_data = NULL;
		cm_id->rem_ref(cm_id);
		madcm_rnic_ep_put(ep);
	}
}

/* The CM side is over: release the connection, leave the listener. */
static void madcm_rnic_ep_conn_done(struct madcm_rnic_ep *ep)
{
	struct madcm_rnic_listen_ep *lep = ep->listener;
	struct madcm_cm_conn *conn;
	unsigned long flags;
	bool was_gone;

	mutex_lock(&ep->conn_mutex);
	spin_lock_irqsave(&ep->lock, flags);
	was_gone = ep->conn_gone;
	ep->conn_gone = true;
	conn = ep->conn;
	spin_unlock_irqrestore(&ep->lock, flags);
	if (!was_gone && conn)
		madcm_cm_release(conn);
	mutex_unlock(&ep->conn_mutex);
	/* not stored yet: madcm_rnic_iw_connect() releases it on return */
	if (was_gone || !conn)
		return;

	if (lep) {
		spin_lock_irqsave(&lep->lock, flags);
		hash_del(&ep->hnode);
		spin_unlock_irqrestore(&lep->lock, flags);
	}
	madcm_rnic_ep_put(ep);
}

/* Call @fn on the endpoint's connection unless the CM is done with it. */
static int madcm_rnic_ep_conn_call(struct madcm_rnic_ep *ep,
				   int (*fn)(struct madcm_cm_conn *conn))
{
	int ret = -ENOTCONN;

	mutex_lock(&ep->conn_mutex);
	if (!READ_ONCE(ep->conn_gone) && ep->conn)
		ret = fn(ep->conn);
	mutex_unlock(&ep->conn_mutex);
	return ret;
}

static int madcm_rnic_reset_status(int status)
{
	switch (status) {
	case -ETIMEDOUT:
	case -ECONNREFUSED:
		return status;
	default:
		return -ECONNRESET;
	}
}

/* A connection's event from the CM; the handler's context, one at a time. */
static void madcm_rnic_ep_event(struct madcm_rnic_ep *ep,
				const struct madcm_cm_event *cev)
{
	enum madcm_rnic_ep_state state;
	struct iw_cm_id *cm_id;
	bool terminal = false;
	bool local_close;
	unsigned long flags;
	u8 len;

	spin_lock_irqsave(&ep->lock, flags);
	state = ep->state;
	cm_id = ep->cm_id;
	local_close = ep->local_close;
	switch (cev->type) {
	case MADCM_CM_EVENT_CONNECT_REPLY:
		len = min_t(u16, cev->private_data_len, sizeof(ep->pdata));
		if (len)
			memcpy(ep->pdata, cev->private_data, len);
		ep->pdata_len = len;
		ep->ird = min_t(u16, cev->ird, U8_MAX);
		ep->ord = min_t(u16, cev->ord, U8_MAX);
		spin_unlock_irqrestore(&ep->lock, flags);
		return;
	case MADCM_CM_EVENT_ESTABLISHED:
		if (state == MADCM_RNIC_EP_CONNECTING ||
		    state == MADCM_RNIC_EP_ACCEPTING)
			ep->state = MADCM_RNIC_EP_CONNECTED;
		/* iw_accept's answer, whatever comes after this event */
		if (state == MADCM_RNIC_EP_ACCEPTING)
			ep->accepted = true;
		break;
	default:
		break;
	}
	spin_unlock_irqrestore(&ep->lock, flags);

	switch (cev->type) {
	case MADCM_CM_EVENT_ESTABLISHED:
		if (state == MADCM_RNIC_EP_CONNECTING) {
			madcm_rnic_iw_event(cm_id, IW_CM_EVENT_CONNECT_REPLY, 0,
					    cev, ep->pdata, ep->pdata_len,
					    min_t(u16, cev->ird, U8_MAX),
					    min_t(u16, cev->ord, U8_MAX));
		} else if (state == MADCM_RNIC_EP_ACCEPTING) {
			madcm_rnic_iw_event(cm_id, IW_CM_EVENT_ESTABLISHED, 0,
					    cev, NULL, 0,
					    min_t(u16, cev->ird, U8_MAX),
					    min_t(u16, cev->ord, U8_MAX));
			complete(&ep->accept_done);
		}
		break;
	case MADCM_CM_EVENT_REJECTED:
		terminal = true;
		if (state == MADCM_RNIC_EP_CONNECTING)
			madcm_rnic_iw_event(cm_id, IW_CM_EVENT_CONNECT_REPLY,
					    -ECONNREFUSED, cev,
					    cev->private_data,
					    min_t(u16, cev->private_data_len,
						  U8_MAX), 0, 0);
		break;
	case MADCM_CM_EVENT_RESET:
		terminal = true;
		if (state == MADCM_RNIC_EP_CONNECTING) {
			madcm_rnic_iw_event(cm_id, IW_CM_EVENT_CONNECT_REPLY,
					    madcm_rnic_reset_status(cev->status),
					    cev, NULL, 0, 0, 0);
		} else if (state == MADCM_RNIC_EP_CONNECTED) {
			/* our own abort (SQD/ERR, destroy): CLOSE alone */
			if (cev->status != -ECONNABORTED)
				madcm_rnic_iw_event(cm_id,
						    IW_CM_EVENT_DISCONNECT,
						    -ECONNRESET, cev, NULL, 0,
						    0, 0);
			madcm_rnic_iw_event(cm_id, IW_CM_EVENT_CLOSE, 0, cev,
					    NULL, 0, 0, 0);
		}
		break;
	case MADCM_CM_EVENT_DISCONNECT:
		/* the peer closed first; not its answer to our FIN */
		if (state == MADCM_RNIC_EP_CONNECTED && !local_close)
			madcm_rnic_iw_event(cm_id, IW_CM_EVENT_DISCONNECT, 0,
					    cev, NULL, 0, 0, 0);
		break;
	case MADCM_CM_EVENT_CLOSE:
		terminal = true;
		if (state == MADCM_RNIC_EP_CONNECTED)
			madcm_rnic_iw_event(cm_id, IW_CM_EVENT_CLOSE, 0, cev,
					    NULL, 0, 0, 0);
		break;
	default:
		break;
	}
	if (!terminal)
		return;

	/*
	 * The CM is done. A cm_id that got its terminal event (or never
	 * will, after a reject) lets go; one still waiting for accept or
	 * reject keeps the endpoint: accept then fails with -ECONNRESET.
	 */
	madcm_rnic_ep_conn_done(ep);
	switch (state) {
	case MADCM_RNIC_EP_CONNECTING:
	case MADCM_RNIC_EP_CONNECTED:
		madcm_rnic_ep_unlink(ep);
		break;
	case MADCM_RNIC_EP_ACCEPTING:
		complete(&ep->accept_done);
		break;
	default:
		break;
	}
}

static struct madcm_rnic_ep *
madcm_rnic_lep_find(struct madcm_rnic_listen_ep *lep,
		    const struct madcm_cm_conn *conn)
{
	struct madcm_rnic_ep *ep, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&lep->lock, flags);
	hash_for_each_possible(lep->conns, ep, hnode, hash_ptr(conn, 32)) {
		if (ep->conn == conn) {
			kref_get(&ep->ref);
			found = ep;
			break;
		}
	}
	spin_unlock_irqrestore(&lep->lock, flags);
	return found;
}

/* A peer's MPA request on a listener: a new endpoint, CONNECT_REQUEST. */
static void madcm_rnic_lep_request(struct madcm_rnic_listen_ep *lep,
				   const struct madcm_cm_event *cev)
{
	struct iw_cm_id *listen_id;
	struct madcm_rnic_ep *ep;
	struct iw_cm_event ev = {
		.event = IW_CM_EVENT_CONNECT_REQUEST,
		.private_data = (void *)cev->private_data,
		.private_data_len = min_t(u16, cev->private_data_len, U8_MAX),
		.ird = min_t(u16, cev->ird, U8_MAX),
		.ord = min_t(u16, cev->ord, U8_MAX),
	};
	unsigned long flags;

	ep = madcm_rnic_ep_alloc(lep->dev);
	if (!ep) {
		madcm_cm_release(cev->conn);
		return;
	}
	ep->conn = cev->conn;
	ep->state = MADCM_RNIC_EP_REQUEST;
	kref_get(&lep->ref);
	ep->listener = lep;

	spin_lock_irqsave(&lep->lock, flags);
	listen_id = lep->cm_id;
	if (listen_id)
		hash_add(lep->conns, &ep->hnode, hash_ptr(cev->conn, 32));
	spin_unlock_irqrestore(&lep->lock, flags);
	if (!listen_id)
		goto refuse;

	ev.provider_data = ep;
	madcm_rnic_to_sockaddr(&cev->loc, &ev.local_addr);
	madcm_rnic_to_sockaddr(&cev->rem, &ev.remote_addr);
	if (!listen_id->event_handler(listen_id, &ev))
		return;

	/* iw_cm has no room for it: as if the request never came */
	spin_lock_irqsave(&lep->lock, flags);
	hash_del(&ep->hnode);
	spin_unlock_irqrestore(&lep->lock, flags);
refuse:
	madcm_cm_release(cev->conn);
	ep->conn_gone = true;
	madcm_rnic_ep_put(ep);
	madcm_rnic_ep_put(ep);
}

/* The CM's handler, for listeners and connections alike. */
static void madcm_rnic_cm_handler(const struct madcm_cm_event *cev,
				  void *context)
{
	enum madcm_rnic_ep_kind *kind = context;
	struct madcm_rnic_listen_ep *lep;
	struct madcm_rnic_ep *ep;

	if (*kind == MADCM_RNIC_EP_CONN) {
		ep = container_of(kind, struct madcm_rnic_ep, kind);
		kref_get(&ep->ref);
	} else {
		lep = container_of(kind, struct madcm_rnic_listen_ep, kind);
		if (cev->type == MADCM_CM_EVENT_CONNECT_REQUEST) {
			madcm_rnic_lep_request(lep, cev);
			return;
		}
		/* a connection not accepted yet: its events come here */
		ep = madcm_rnic_lep_find(lep, cev->conn);
		if (!ep) {
			WARN_ONCE(1, "event %s for an unknown connection\n",
				  madcm_cm_event_name(cev->type));
			return;
		}
	}
	madcm_rnic_ep_event(ep, cev);
	madcm_rnic_ep_put(ep);
}

/*
 * Whose QP a connection may take (issue 30). iw_cm resolves the QP
 * number a consumer names on the device (iw_get_qp), and ucma passes a
 * process's number as it is, so a process could name another process's
 * idle QP. What the provider can see of the consumer is the calling
 * task: ucma calls iw_connect and iw_accept from the process's own
 * write() to its rdma_cm file, and in-kernel ULPs from kernel threads
 * (rdma_cm's and iw_cm's work), or from the task of the system call that
 * created their QP (a mount, say). So a QP is given only to a task of the
 * thread group that created it, and a kernel QP to kernel threads too: a
 * user QP never goes to a kernel caller, another process's QP never to
 * a process. Refusals are counted (qp_not_owner) and answered as for a
 * QP number the device does not have.
 */
static bool madcm_rnic_qp_is_callers(const struct madcm_rnic_qp *qp)
{
	if (qp->owner && qp->owner == task_tgid(current))
		return true;
	return !qp->ibqp.uobject && (current->flags & PF_KTHREAD);
}

/* A QP by number, with an iw reference, if the caller may have it. */
static struct madcm_rnic_qp *madcm_rnic_iw_qp_get(struct madcm_rnic_dev *dev,
						  u32 qpn)
{
	struct madcm_rnic_qp *qp = madcm_rnic_qp_get(dev, qpn);

	if (qp && !madcm_rnic_qp_is_callers(qp)) {
		madcm_rnic_count(dev, MADCM_RNIC_CNT_QP_NOT_OWNER);
		madcm_rnic_qp_put(qp);
		return NULL;
	}
	return qp;
}

/*
 * iw_cm gives each QP it connects remote reads and writes
 * (iw_cm_init_qp_attr()), and rdma_cm sets them before every connect
 * and accept but one: librdmacm's active side initialises its QP through
 * rdma_init_qp_attr() before the iw_cm_id exists, is told "no rights",
 * and never modifies the QP again (an iWARP connect ends in ESTABLISHED,
 * with no CONNECT_RESPONSE that would move it to RTR). rping's client is
 * read from and written to by its server. So a user QP that connects
 * with no remote right at all gets iw_cm's; a kernel QP keeps what its
 * consumer set (rdma_cm's own setting ran just before iw_connect).
 */
static void madcm_rnic_iw_connect_rights(struct madcm_rnic_qp *qp)
{
	const int remote = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ;
	unsigned long flags;

	if (!qp->ibqp.uobject)
		return;
	spin_lock_irqsave(&qp->lock, flags);
	if (!(qp->access & remote))
		WRITE_ONCE(qp->access, qp->access | remote);
	spin_unlock_irqrestore(&qp->lock, flags);
}

/**
 * madcm_rnic_iw_connect() - iw_cm_verbs.iw_connect
 * @cm_id: the active cm_id; m_local_addr and m_remote_addr say where
 * @param: private data, IRD/ORD (clamped to the device's), the QP number
 *
 * Opens a connection through the device's CM with the QP as the stream's
 * owner once the MPA exchange is over. The result comes as one
 * CONNECT_REPLY event; on an error return there is none.
 *
 * Context: process context: the consumer's task, whose thread group must
 * have created the QP (or a kernel thread, for a kernel QP).
 * Return: 0, or a negative errno: -EINVAL (no such QP, not the caller's
 * QP, QP busy, family mismatch), -EAFNOSUPPORT, -ENOMEM, or the CM's.
 */
int madcm_rnic_iw_connect(struct iw_cm_id *cm_id,
			  struct iw_cm_conn_param *param)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(cm_id->device);
	struct madcm_cm_connect_attr attr = {
		.private_data = param->private_data,
		.private_data_len = param->private_data_len,
		.ird = madcm_rnic_clamp_rd(param->ird, MADCM_RNIC_MAX_IRD),
		.ord = madcm_rnic_clamp_rd(param->ord, MADCM_RNIC_MAX_ORD),
		.mpa_rev = MADCM_RNIC_MPA_REV,
		.peer_to_peer = MADCM_RNIC_P2P,
		.rtr_caps = MADCM_RNIC_RTR_CAPS,
		.crc = READ_ONCE(madcm_rnic_mpa_crc),
		.tcp_opts = MADCM_RNIC_TCP_OPTS,
		.handler = madcm_rnic_cm_handler,
	};
	struct madcm_cm_conn *conn;
	struct madcm_rnic_qp *qp;
	struct madcm_rnic_ep *ep;
	unsigned long flags;
	bool gone;
	int ret;

	ret = madcm_rnic_from_sockaddr(&cm_id->m_local_addr, &attr.loc);
	if (!ret)
		ret = madcm_rnic_from_sockaddr(&cm_id->m_remote_addr,
					       &attr.rem);
	if (ret)
		return ret;
	if (ipv6_addr_v4mapped(&attr.loc.ip) !=
	    ipv6_addr_v4mapped(&attr.rem.ip))
		return -EINVAL;
	attr.vlan_id = madcm_rnic_vlan(dev, &cm_id->m_local_addr);
	if (cm_id->tos_set)
		attr.tos = cm_id->tos;

	qp = madcm_rnic_iw_qp_get(dev, param->qpn);
	if (!qp)
		return -EINVAL;
	ep = madcm_rnic_ep_alloc(dev);
	if (!ep) {
		madcm_rnic_qp_put(qp);
		return -ENOMEM;
	}
	ep->state = MADCM_RNIC_EP_CONNECTING;
	ret = madcm_rnic_ep_link(ep, cm_id, qp);
	if (ret) {
		madcm_rnic_qp_put(qp);
		kfree(ep);
		return -EINVAL;
	}

	madcm_rnic_iw_connect_rights(qp);
	/* the QP reference the CM holds until its detach */
	refcount_inc(&qp->iw_ref);
	attr.offload_qp = &qp->oqp;
	attr.context = &ep->kind;
	kref_get(&ep->ref);		/* for this call */
	ret = madcm_cm_connect(dev->core, &attr, &conn);
	if (!ret) {
		/*
		 * Events may have come already, even the terminal one, which
		 * found no handle to release: then it is released here.
		 */
		mutex_lock(&ep->conn_mutex);
		spin_lock_irqsave(&ep->lock, flags);
		gone = ep->conn_gone;
		ep->conn = conn;
		spin_unlock_irqrestore(&ep->lock, flags);
		if (gone)
			madcm_cm_release(conn);
		mutex_unlock(&ep->conn_mutex);
		if (gone)
			madcm_rnic_ep_put(ep);	/* the CM side's */
	} else {
		madcm_rnic_qp_put(qp);		/* the CM's */
		spin_lock_irqsave(&ep->lock, flags);
		ep->conn_gone = true;
		spin_unlock_irqrestore(&ep->lock, flags);
		madcm_rnic_ep_unlink(ep);
		madcm_rnic_ep_put(ep);		/* the CM side's */
	}
	madcm_rnic_ep_put(ep);
	return ret;
}

#ifdef MADCM_FAULT_INJECTION
/*
 * KUnit's hook: the accepting thread, woken, holds here while the test
 * lets the connection's next events (a terminal one too) run.
 */
static void madcm_rnic_accept_woken(struct madcm_rnic_dev *dev,
				    struct iw_cm_id *cm_id)
{
	if (dev->iw_accept_woken)
		dev->iw_accept_woken(cm_id);
}
#else
static void madcm_rnic_accept_woken(struct madcm_rnic_dev *dev,
				    struct iw_cm_id *cm_id)
{
}
#endif

/**
 * madcm_rnic_iw_accept() - iw_cm_verbs.iw_accept
 * @cm_id: the cm_id of a CONNECT_REQUEST
 * @param: private data for the MPA reply, IRD/ORD, the QP number
 *
 * Accepts through the CM with the QP as the stream's owner and waits
 * until the CM reports the connection ESTABLISHED (the QP is then in RTS
 * and iw_cm has its ESTABLISHED event) or gone.
 *
 * Context: process context; sleeps.
 * Return: 0; -ECONNRESET when the peer is gone (before or during the
 * accept; no event follows); -EINVAL for an unknown QP, a QP that is not
 * the caller's (as for iw_connect) or a cm_id that is not waiting; or the
 * CM's error.
 */
int madcm_rnic_iw_accept(struct iw_cm_id *cm_id,
			 struct iw_cm_conn_param *param)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(cm_id->device);
	struct madcm_rnic_ep *ep = cm_id->provider_data;
	struct madcm_cm_accept_attr attr = {
		.private_data = param->private_data,
		.private_data_len = param->private_data_len,
		.ird = madcm_rnic_clamp_rd(param->ird, MADCM_RNIC_MAX_IRD),
		.ord = madcm_rnic_clamp_rd(param->ord, MADCM_RNIC_MAX_ORD),
		.handler = madcm_rnic_cm_handler,
	};
	struct madcm_rnic_qp *qp;
	unsigned long flags;
	bool gone, ok;
	int ret;

	if (!ep)
		return -EINVAL;
	spin_lock_irqsave(&ep->lock, flags);
	if (ep->state != MADCM_RNIC_EP_REQUEST) {
		spin_unlock_irqrestore(&ep->lock, flags);
		return -EINVAL;
	}
	ep->state = MADCM_RNIC_EP_ACCEPTING;
	gone = ep->conn_gone;
	spin_unlock_irqrestore(&ep->lock, flags);

	qp = madcm_rnic_iw_qp_get(dev, param->qpn);
	if (!qp) {
		ret = -EINVAL;
		goto fail_unlinked;
	}
	if (gone) {
		madcm_rnic_qp_put(qp);
		ret = -ECONNRESET;
		goto fail_unlinked;
	}
	/* provider_data's reference on the endpoint becomes the link's */
	ret = madcm_rnic_ep_link(ep, cm_id, qp);
	if (ret) {
		madcm_rnic_qp_put(qp);
		ret = -EINVAL;
		goto fail_unlinked;
	}

	refcount_inc(&qp->iw_ref);	/* the CM's, until its detach */
	attr.offload_qp = &qp->oqp;
	attr.context = &ep->kind;
	/*
	 * Ours, across the wait: the ESTABLISHED that wakes us may be
	 * followed at once by the terminal event, whose unlink drops the
	 * link's reference before this thread runs again.
	 */
	kref_get(&ep->ref);
	mutex_lock(&ep->conn_mutex);
	ret = ep->conn_gone ? -ECONNRESET : madcm_cm_accept(ep->conn, &attr);
	mutex_unlock(&ep->conn_mutex);
	if (ret) {
		madcm_rnic_qp_put(qp);	/* the CM never took it */
		goto fail;
	}

	wait_for_completion_timeout(&ep->accept_done,
				    msecs_to_jiffies(MADCM_RNIC_ACCEPT_TIMEOUT_MS));
	madcm_rnic_accept_woken(dev, cm_id);
	spin_lock_irqsave(&ep->lock, flags);
	/*
	 * Given ESTABLISHED, iw_cm must hear 0 even if the terminal event
	 * came too and unlinked us: it handles its queued ESTABLISHED only
	 * after we return, and a failed accept has put the cm_id to IDLE.
	 */
	ok = ep->accepted;
	if (!ok)
		ep->state = MADCM_RNIC_EP_DONE;	/* no event from now on */
	spin_unlock_irqrestore(&ep->lock, flags);
	if (ok) {
		madcm_rnic_ep_put(ep);
		return 0;
	}
	ret = -ECONNRESET;
fail:
	/* no event was given and none will be: the connection goes */
	madcm_rnic_ep_conn_call(ep, madcm_cm_abort);
	madcm_rnic_ep_unlink(ep);
	madcm_rnic_ep_put(ep);
	return ret;

fail_unlinked:
	/* iw_cm calls neither accept nor reject again for this cm_id */
	madcm_rnic_ep_conn_call(ep, madcm_cm_abort);
	spin_lock_irqsave(&ep->lock, flags);
	ep->state = MADCM_RNIC_EP_DONE;
	spin_unlock_irqrestore(&ep->lock, flags);
	cm_id->provider_data = NULL;
	madcm_rnic_ep_put(ep);
	return ret;
}

/**
 * madcm_rnic_iw_reject() - iw_cm_verbs.iw_reject
 * @cm_id: the cm_id of a CONNECT_REQUEST
 * @pdata: private data for the MPA reject, or NULL
 * @pdata_len: its length
 *
 * Sends the MPA reject (then FIN) through the CM; iw_cm gets no event
 * for this cm_id any more.
 *
 * Context: process context.
 * Return: 0; -EINVAL for private data the MPA frame cannot carry or a
 * cm_id that is not waiting for an answer.
 */
int madcm_rnic_iw_reject(struct iw_cm_id *cm_id, const void *pdata,
			 u8 pdata_len)
{
	struct madcm_rnic_ep *ep = cm_id->provider_data;
	unsigned long flags;
	int ret = 0;

	if (!ep)
		return -EINVAL;
	/* MPA revision 2 carries 512 octets, its IRD/ORD words among them */
	if (pdata_len > MADCM_CM_MAX_PDATA - 4 || (pdata_len && !pdata))
		return -EINVAL;

	spin_lock_irqsave(&ep->lock, flags);
	if (ep->state != MADCM_RNIC_EP_REQUEST)
		ret = -EINVAL;
	else
		ep->state = MADCM_RNIC_EP_DONE;
	spin_unlock_irqrestore(&ep->lock, flags);
	if (ret)
		return ret;

	mutex_lock(&ep->conn_mutex);
	if (!ep->conn_gone)
		ret = madcm_cm_reject(ep->conn, pdata, pdata_len);
	mutex_unlock(&ep->conn_mutex);
	if (ret == -ECONNRESET)
		ret = 0;	/* the peer went first: nothing to refuse */
	else if (ret)
		madcm_rnic_ep_conn_call(ep, madcm_cm_abort);

	/* provider_data's reference */
	cm_id->provider_data = NULL;
	madcm_rnic_ep_put(ep);
	return ret;
}

/* The VIDs of the 802.1Q devices above @ndev, set in a new bitmap. */
static unsigned long *madcm_rnic_vlan_ids(struct net_device *ndev)
{
	unsigned long *vids = bitmap_zalloc(VLAN_N_VID, GFP_KERNEL);
	struct net_device *upper;
	struct list_head *iter;

	if (!vids)
		return NULL;
	rcu_read_lock();
	netdev_for_each_upper_dev_rcu(ndev, upper, iter)
		if (is_vlan_dev(upper) &&
		    vlan_dev_vlan_proto(upper) == htons(ETH_P_8021Q))
			__set_bit(vlan_dev_vlan_id(upper), vids);
	rcu_read_unlock();
	return vids;
}

static void madcm_rnic_unlisten_vlans(struct madcm_rnic_listen_ep *lep)
{
	while (lep->nr_vlan)
		madcm_cm_destroy_listener(lep->vlan_listeners[--lep->nr_vlan]);
	kfree(lep->vlan_listeners);
	lep->vlan_listeners = NULL;
}

/*
 * A listen on the unspecified address takes connections to any address
 * of the device's net_device, and, as irdma's does, of the 802.1Q devices
 * above it (whose addresses rdma_cm brings to this device, see
 * madcm_rnic_vlan()): one CM listener per VLAN that exists now. A VLAN
 * device added later is not covered.
 */
static int madcm_rnic_listen_vlans(struct madcm_rnic_listen_ep *lep,
				   struct madcm_cm_listen_attr *attr)
{
	unsigned long *vids;
	unsigned int n, vid;
	int ret = 0;

	vids = madcm_rnic_vlan_ids(lep->dev->netdev);
	if (!vids)
		return -ENOMEM;
	n = bitmap_weight(vids, VLAN_N_VID);
	if (n) {
		lep->vlan_listeners = kcalloc(n, sizeof(*lep->vlan_listeners),
					      GFP_KERNEL);
		if (!lep->vlan_listeners)
			ret = -ENOMEM;
	}
	for_each_set_bit(vid, vids, VLAN_N_VID) {
		if (ret)
			break;
		attr->vlan_id = vid;
		ret = madcm_cm_create_listener(lep->dev->core, attr,
					       &lep->vlan_listeners[lep->nr_vlan]);
		if (!ret)
			lep->nr_vlan++;
	}
	bitmap_free(vids);
	if (ret)
		madcm_rnic_unlisten_vlans(lep);
	return ret;
}

static bool madcm_rnic_addr_any(const struct in6_addr *ip)
{
	return ipv6_addr_any(ip) ||
	       (ipv6_addr_v4mapped(ip) && !ip->s6_addr32[3]);
}

/**
 * madcm_rnic_iw_create_listen() - iw_cm_verbs.iw_create_listen
 * @cm_id: the listening cm_id; m_local_addr says where (the unspecified
 *	address: any IPv4 address for AF_INET, any address for AF_INET6)
 * @backlog: most connections pending at once (0: the CM's default)
 *
 * An address on an 802.1Q device above the device's net_device listens on
 * that VLAN; the unspecified address on the net_device and on each such
 * VLAN that exists now (a CM listener each, @backlog each).
 *
 * Context: process context.
 * Return: 0, or -EAFNOSUPPORT, -ENOMEM, or the CM's error (-EADDRINUSE).
 */
int madcm_rnic_iw_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(cm_id->device);
	struct madcm_rnic_listen_ep *lep;
	struct madcm_cm_listen_attr attr = {
		.backlog = max(backlog, 0),
		.ird = MADCM_RNIC_MAX_IRD,
		.ord = MADCM_RNIC_MAX_ORD,
		.mpa_rev = MADCM_RNIC_MPA_REV,
		.peer_to_peer = MADCM_RNIC_P2P,
		.rtr_caps = MADCM_RNIC_RTR_CAPS,
		.crc = READ_ONCE(madcm_rnic_mpa_crc),
		.tcp_opts = MADCM_RNIC_TCP_OPTS,
		.handler = madcm_rnic_cm_handler,
	};
	int ret;

	ret = madcm_rnic_from_sockaddr(&cm_id->m_local_addr, &attr.addr);
	if (ret)
		return ret;
	attr.vlan_id = madcm_rnic_vlan(dev, &cm_id->m_local_addr);
	lep = kzalloc(sizeof(*lep), GFP_KERNEL);
	if (!lep)
		return -ENOMEM;
	lep->kind = MADCM_RNIC_EP_LISTEN;
	kref_init(&lep->ref);
	spin_lock_init(&lep->lock);
	hash_init(lep->conns);
	lep->dev = dev;
	lep->cm_id = cm_id;
	attr.context = &lep->kind;

	cm_id->add_ref(cm_id);
	ret = madcm_cm_create_listener(dev->core, &attr, &lep->listener);
	if (ret)
		goto err;
	if (madcm_rnic_addr_any(&attr.addr.ip)) {
		ret = madcm_rnic_listen_vlans(lep, &attr);
		if (ret) {
			madcm_cm_destroy_listener(lep->listener);
			goto err;
		}
	}
	cm_id->provider_data = lep;
	return 0;
err:
	cm_id->rem_ref(cm_id);
	madcm_rnic_lep_put(lep);
	return ret;
}

/**
 * madcm_rnic_iw_destroy_listen() - iw_cm_verbs.iw_destroy_listen
 * @cm_id: the listening cm_id
 *
 * Destroys the CM's listeners: their pending connections are reset (an
 * accept on one of them then fails with -ECONNRESET); returns once its
 * events are delivered.
 *
 * Context: process context; sleeps.
 * Return: 0.
 */
int madcm_rnic_iw_destroy_listen(struct iw_cm_id *cm_id)
{
	struct madcm_rnic_listen_ep *lep = cm_id->provider_data;
	unsigned long flags;

	if (!lep)
		return 0;
	spin_lock_irqsave(&lep->lock, flags);
	lep->cm_id = NULL;
	spin_unlock_irqrestore(&lep->lock, flags);
	madcm_cm_destroy_listener(lep->listener);
	madcm_rnic_unlisten_vlans(lep);
	cm_id->provider_data = NULL;
	cm_id->rem_ref(cm_id);
	madcm_rnic_lep_put(lep);
	return 0;
}

/**
 * madcm_rnic_iw_add_ref() - iw_cm_verbs.iw_add_ref
 * @ibqp: the QP
 *
 * Context: any context.
 */
void madcm_rnic_iw_add_ref(struct ib_qp *ibqp)
{
	refcount_inc(&to_madcm_rnic_qp(ibqp)->iw_ref);
}

/**
 * madcm_rnic_iw_rem_ref() - iw_cm_verbs.iw_rem_ref
 * @ibqp: the QP
 *
 * The last reference lets a waiting destroy_qp go on.
 *
 * Context: any context.
 */
void madcm_rnic_iw_rem_ref(struct ib_qp *ibqp)
{
	madcm_rnic_qp_put(to_madcm_rnic_qp(ibqp));
}

/**
 * madcm_rnic_iw_get_qp() - iw_cm_verbs.iw_get_qp
 * @ibdev: the device
 * @qpn: a QP number
 *
 * iw_cm asks for the QP a connect or accept names, in the caller's task:
 * a QP that is not the caller's (madcm_rnic_qp_is_callers()) is not
 * found.
 *
 * Context: any context (iw_cm calls it under a spinlock).
 * Return: the QP, without a reference, or NULL.
 */
struct ib_qp *madcm_rnic_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	struct madcm_rnic_qp *qp;

	if (qpn < 0)
		return NULL;
	qp = madcm_rnic_iw_qp_get(to_madcm_rnic(ibdev), qpn);
	if (!qp)
		return NULL;
	madcm_rnic_qp_put(qp);
	return &qp->ibqp;
}

/**
 * madcm_rnic_iw_qp_disconnect() - the consumer ends a QP's connection
 * @qp: the QP, moved to SQD or ERROR by modify_qp
 * @abort: ERROR (RST) rather than SQD (FIN)
 *
 * What iw_cm_disconnect() and destroying a connected cm_id ask of the
 * provider: a graceful close through the CM (the QP sends its FIN, CLOSE
 * follows) or an abort (RST, CLOSE follows).
 *
 * Context: process context; not with @qp->lock held.
 */
void madcm_rnic_iw_qp_disconnect(struct madcm_rnic_qp *qp, bool abort)
{
	struct madcm_rnic_ep *ep;
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	ep = qp->ep;
	if (ep)
		kref_get(&ep->ref);
	spin_unlock_irqrestore(&qp->lock, flags);
	if (!ep)
		return;
	spin_lock_irqsave(&ep->lock, flags);
	ep->local_close = true;
	spin_unlock_irqrestore(&ep->lock, flags);
	madcm_rnic_ep_conn_call(ep, abort ? madcm_cm_abort : madcm_cm_close);
	madcm_rnic_ep_put(ep);
}
