// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_cm_ctl.ko: a text control interface to the CM, for tests and
 * people, on the consumer API only (<madcm/cm.h>), in debugfs under
 * /sys/kernel/debug/madcm_cm_ctl/:
 *
 *   ctl    write one command per write(2):
 *            attach DEV [rto_min_ms=N] [max_retrans=N] [time_wait_ms=N]
 *                   [mpa_timeout_ms=N] [backlog=N] [rtr_delay_ms=N]
 *                   [max_time_wait=N] [challenge_acks=N]
 *                   [rto_initial_ms=N] [oow_ack_ms=N]
 *            detach DEV
 *            listen DEV NAME ADDR PORT [opts]   (policy=accept|reject|manual)
 *            unlisten NAME
 *            connect DEV NAME LOCADDR REMADDR PORT [opts]
 *            accept NAME [pdata=HEX] [ird=N] [ord=N]
 *            reject NAME [pdata=HEX]
 *            close NAME | abort NAME | forget NAME
 *          opts: backlog=N rev=1|2 ird=N ord=N p2p=0|1 rtr=MASK crc=0|1
 *                vlan=N lport=N pdata=HEX policy=...
 *   conns  one line per connection: its events, state and parameters
 *   memory the connections established and not ended, on each side
 *          (active, passive): how many, and the octets the CM and the
 *          link's backend hold for them (madcm_cm_conn_memory(),
 *          madcm_cm_conn_backend_memory()), for make bench
 *
 * DEV is looked up in the writer's network namespace. The counters of
 * every attached device and its core are madcm's own, in
 * /sys/kernel/debug/madcm/cm/stats. Unloading this module detaches the
 * devices it attached. Documentation/irdma_cm.rst describes the grammar
 * and the output.
 */
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/nsproxy.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <madcm/cm.h>

#define CTL_NAME_LEN	32
#define CTL_CMD_MAX	2048
#define CTL_MAX_EVENTS	8

enum ctl_policy { CTL_ACCEPT, CTL_REJECT, CTL_MANUAL };

/* A device this module attached the CM to; a reference is held. */
struct ctl_dev {
	struct list_head list;
	struct net_device *dev;
	netdevice_tracker tracker;
};

struct ctl_listener {
	struct list_head list;
	char name[CTL_NAME_LEN];
	struct net_device *dev;		/* only compared */
	struct madcm_cm_core *core;	/* a reference */
	struct madcm_cm_listener *listener;
	enum ctl_policy policy;
	u8 pdata[MADCM_CM_MAX_PDATA];
	u16 pdata_len;
	unsigned int accepted;
};

/*
 * One connection as the control interface saw it.
 *
 * Ownership: the record is counted (@ref): one reference while it is on
 * ctl_conns (dropped by forget or at unload), one for each handler or
 * command working on it. The CM's handler context is the record's @id,
 * looked up under ctl_lock, never a pointer the CM could hand back after
 * forget freed it. Our handle on the connection (@conn) is released once,
 * at the terminal event or at forget; while a handler or command uses
 * @conn outside ctl_lock (@busy), that release is left to the last of
 * them (@release_due).
 */
struct ctl_conn {
	struct list_head list;
	struct kref ref;
	unsigned long id;
	/* A listener's name, a dot and its accept count. */
	char name[CTL_NAME_LEN + sizeof(".4294967295")];
	struct madcm_cm_conn *conn;	/* NULL once released */
	unsigned int busy;
	bool release_due;
	struct {
		u8 n;
		u8 type[CTL_MAX_EVENTS];
	} events;
	int status;
	bool terminal;
	bool established;
	u16 ird, ord;
	u8 mpa_rev;
	u8 rtr_type;
	u32 rcv_nxt;	/* RCV.NXT at ESTABLISHED */
	struct madcm_cm_addr loc, rem;
	u16 rx_pdata_len;
	u8 rx_pdata[MADCM_CM_MAX_PDATA];
};

/* ctl_mutex serialises commands; ctl_lock guards the lists' contents. */
static DEFINE_MUTEX(ctl_mutex);
static DEFINE_SPINLOCK(ctl_lock);
static LIST_HEAD(ctl_listeners);
static LIST_HEAD(ctl_conns);
static LIST_HEAD(ctl_devs);	/* under ctl_mutex */
static unsigned long ctl_next_id;	/* under ctl_lock */
static struct dentry *ctl_dir;

/*
 * Windows widened for the lifetime stress (tests/vm/siw/65-cm-ctl-stress.sh):
 * a command waits this long between taking a connection and acting on
 * it; a connection's handler waits this long before it records an event.
 */
static unsigned int cmd_delay_ms;
module_param(cmd_delay_ms, uint, 0644);
MODULE_PARM_DESC(cmd_delay_ms, "test only: delay inside accept/reject/close/abort (ms)");
static unsigned int event_delay_ms;
module_param(event_delay_ms, uint, 0644);
MODULE_PARM_DESC(event_delay_ms, "test only: delay before a connection's event is recorded (ms)");

static void ctl_delay(unsigned int ms)
{
	if (ms)
		msleep(ms);
}

static void conn_free(struct kref *ref)
{
	kfree(container_of(ref, struct ctl_conn, ref));
}

static void conn_put(struct ctl_conn *c)
{
	kref_put(&c->ref, conn_free);
}

/* A new record, counted once for the list and once for the caller. */
static struct ctl_conn *conn_alloc(void)
{
	struct ctl_conn *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	kref_init(&c->ref);
	kref_get(&c->ref);
	INIT_LIST_HEAD(&c->list);
	return c;
}

/* List @c under a new id, the CM's handler context for it. */
static void *conn_list(struct ctl_conn *c)
{
	spin_lock_bh(&ctl_lock);
	c->id = ++ctl_next_id;
	list_add_tail(&c->list, &ctl_conns);
	spin_unlock_bh(&ctl_lock);
	return (void *)c->id;
}

/* The listed record of handler context @ctx, counted; NULL once forgotten. */
static struct ctl_conn *conn_get_by_id(void *ctx)
{
	struct ctl_conn *c;

	spin_lock_bh(&ctl_lock);
	list_for_each_entry(c, &ctl_conns, list) {
		if (c->id == (unsigned long)ctx) {
			kref_get(&c->ref);
			spin_unlock_bh(&ctl_lock);
			return c;
		}
	}
	spin_unlock_bh(&ctl_lock);
	return NULL;
}

/* Done with @c->conn outside ctl_lock: release it if that fell to us. */
static void conn_unbusy(struct ctl_conn *c)
{
	struct madcm_cm_conn *release = NULL;

	spin_lock_bh(&ctl_lock);
	if (!--c->busy && c->release_due) {
		release = c->conn;
		c->conn = NULL;
		c->release_due = false;
	}
	spin_unlock_bh(&ctl_lock);
	if (release)
		madcm_cm_release(release);
}

/* Our handle on @c's connection is to go: now, or by the last user. */
static struct madcm_cm_conn *conn_take_locked(struct ctl_conn *c)
{
	struct madcm_cm_conn *release = NULL;

	lockdep_assert_held(&ctl_lock);
	if (c->busy) {
		/*
		 * Due even while @c->conn is still NULL: connect stores the
		 * handle after a terminal event that came before it returned.
		 */
		c->release_due = true;
	} else {
		release = c->conn;
		c->conn = NULL;
	}
	return release;
}

static struct ctl_conn *conn_find(const char *name)
{
	struct ctl_conn *c;

	list_for_each_entry(c, &ctl_conns, list)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static struct ctl_listener *listener_find(const char *name)
{
	struct ctl_listener *l;

	list_for_each_entry(l, &ctl_listeners, list)
		if (!strcmp(l->name, name))
			return l;
	return NULL;
}

static bool is_terminal(enum madcm_cm_event_type t)
{
	return t == MADCM_CM_EVENT_REJECTED || t == MADCM_CM_EVENT_RESET ||
	       t == MADCM_CM_EVENT_CLOSE;
}

/* Record an event; returns the connection to release, if terminal. */
static struct madcm_cm_conn *conn_record(struct ctl_conn *c,
					 const struct madcm_cm_event *ev)
{
	struct madcm_cm_conn *release = NULL;

	spin_lock_bh(&ctl_lock);
	if (c->events.n < CTL_MAX_EVENTS)
		c->events.type[c->events.n] = ev->type;
	c->events.n++;
	if (ev->private_data_len && ev->private_data_len <= MADCM_CM_MAX_PDATA) {
		memcpy(c->rx_pdata, ev->private_data, ev->private_data_len);
		c->rx_pdata_len = ev->private_data_len;
	}
	if (ev->type == MADCM_CM_EVENT_ESTABLISHED) {
		c->established = true;
		c->ird = ev->ird;
		c->ord = ev->ord;
		if (ev->tcp_ctx) {
			c->rtr_type = ev->tcp_ctx->rtr_type;
			c->rcv_nxt = ev->tcp_ctx->rcv_nxt;
		}
	}
	c->mpa_rev = ev->mpa_rev ?: c->mpa_rev;
	c->loc = ev->loc;
	c->rem = ev->rem;
	if (is_terminal(ev->type)) {
		c->terminal = true;
		c->status = ev->status;
		release = conn_take_locked(c);
	}
	spin_unlock_bh(&ctl_lock);
	return release;
}

/* An event of a counted record; gives the reference back. */
static void conn_handle_event(struct ctl_conn *c, const struct madcm_cm_event *ev)
{
	struct madcm_cm_conn *release;

	ctl_delay(READ_ONCE(event_delay_ms));
	release = conn_record(c, ev);

	if (release)
		madcm_cm_release(release);
	conn_put(c);
}

static void conn_event(const struct madcm_cm_event *ev, void *context)
{
	struct ctl_conn *c = conn_get_by_id(context);

	/* A forgotten record: forget (or its last user) releases the handle. */
	if (c)
		conn_handle_event(c, ev);
}

static void listener_event(const struct madcm_cm_event *ev, void *context)
{
	struct ctl_listener *l = context;
	struct madcm_cm_accept_attr aa = {};
	struct ctl_conn *c;

	if (ev->type != MADCM_CM_EVENT_CONNECT_REQUEST) {
		/*
		 * A connection not accepted (rejected, or waiting for a manual
		 * answer) keeps the listener's handler. Our handle, held until
		 * released, is unique to the live connection: the record that
		 * still holds it is this one's.
		 */
		spin_lock_bh(&ctl_lock);
		list_for_each_entry(c, &ctl_conns, list) {
			if (c->conn == ev->conn) {
				kref_get(&c->ref);
				spin_unlock_bh(&ctl_lock);
				conn_handle_event(c, ev);
				return;
			}
		}
		spin_unlock_bh(&ctl_lock);
		/* Forgotten: forget (or its last user) releases the handle. */
		return;
	}
	c = conn_alloc();
	if (!c) {
		madcm_cm_reject(ev->conn, NULL, 0);
		madcm_cm_release(ev->conn);
		return;
	}
	c->conn = ev->conn;
	c->busy = 1;	/* a forget meanwhile leaves the release to us */
	spin_lock_bh(&ctl_lock);
	snprintf(c->name, sizeof(c->name), "%s.%u", l->name, l->accepted++);
	spin_unlock_bh(&ctl_lock);
	aa.context = conn_list(c);
	conn_record(c, ev);

	switch (l->policy) {
	case CTL_ACCEPT:
		aa.private_data = l->pdata;
		aa.private_data_len = l->pdata_len;
		aa.handler = conn_event;
		if (madcm_cm_accept(ev->conn, &aa))
			pr_info("madcm: ctl: accept of %s failed\n", c->name);
		break;
	case CTL_REJECT:
		if (madcm_cm_reject(ev->conn, l->pdata, l->pdata_len))
			pr_info("madcm: ctl: reject of %s failed\n", c->name);
		break;
	case CTL_MANUAL:
		break;
	}
	conn_unbusy(c);
	conn_put(c);
}

/* ---- command parsing ---- */

struct ctl_opts {
	u32 backlog;
	u8 rev;
	u16 ird, ord;
	bool p2p;
	u8 rtr;
	bool crc;
	u16 vlan;
	u16 lport;
	enum ctl_policy policy;
	u8 pdata[MADCM_CM_MAX_PDATA];
	u16 pdata_len;
};

static int parse_addr(const char *s, struct in6_addr *a)
{
	__be32 v4;

	if (in4_pton(s, -1, (u8 *)&v4, -1, NULL)) {
		ipv6_addr_set_v4mapped(v4, a);
		return 0;
	}
	if (in6_pton(s, -1, a->s6_addr, -1, NULL))
		return 0;
	return -EINVAL;
}

static int parse_u32(const char *s, u32 max, u32 *v)
{
	if (kstrtou32(s, 0, v) || *v > max)
		return -EINVAL;
	return 0;
}

static int parse_opt(char *tok, struct ctl_opts *o)
{
	char *val = strchr(tok, '=');
	u32 v;

	if (!val)
		return -EINVAL;
	*val++ = '\0';
	if (!strcmp(tok, "pdata")) {
		size_t n = strlen(val);

		if (n % 2 || n / 2 > MADCM_CM_MAX_PDATA ||
		    hex2bin(o->pdata, val, n / 2))
			return -EINVAL;
		o->pdata_len = n / 2;
		return 0;
	}
	if (!strcmp(tok, "policy")) {
		if (!strcmp(val, "accept"))
			o->policy = CTL_ACCEPT;
		else if (!strcmp(val, "reject"))
			o->policy = CTL_REJECT;
		else if (!strcmp(val, "manual"))
			o->policy = CTL_MANUAL;
		else
			return -EINVAL;
		return 0;
	}
	if (parse_u32(val, U16_MAX, &v) && strcmp(tok, "backlog"))
		return -EINVAL;
	if (!strcmp(tok, "backlog"))
		return parse_u32(val, 1 << 20, &o->backlog);
	if (!strcmp(tok, "rev") && (v == 1 || v == 2))
		o->rev = v;
	else if (!strcmp(tok, "ird"))
		o->ird = v;
	else if (!strcmp(tok, "ord"))
		o->ord = v;
	else if (!strcmp(tok, "p2p") && v <= 1)
		o->p2p = v;
	else if (!strcmp(tok, "rtr") && v <= 7)
		o->rtr = v;
	else if (!strcmp(tok, "crc") && v <= 1)
		o->crc = v;
	else if (!strcmp(tok, "vlan") && v < 4095)
		o->vlan = v;
	else if (!strcmp(tok, "lport"))
		o->lport = v;
	else
		return -EINVAL;
	return 0;
}

/* Options start at argv[first]. */
static int parse_opts(char **argv, int argc, int first, struct ctl_opts *o)
{
	int i, ret;

	memset(o, 0, sizeof(*o));
	o->rev = 2;
	o->ird = 16;
	o->ord = 16;
	o->vlan = MADCM_CM_NO_VLAN;
	o->rtr = MADCM_CM_RTR_SEND | MADCM_CM_RTR_WRITE | MADCM_CM_RTR_READ;
	for (i = first; i < argc; i++) {
		ret = parse_opt(argv[i], o);
		if (ret)
			return ret;
	}
	return 0;
}

static bool valid_name(const char *name)
{
	size_t n = strlen(name);

	return n && n < CTL_NAME_LEN - 8 && !strchr(name, '.');
}

/* The core of device @ifname, counted; @devp: the device, only to compare. */
static struct madcm_cm_core *ctl_get_core(struct net *net, const char *ifname,
					  struct net_device **devp)
{
	struct madcm_cm_core *core;
	struct net_device *dev;

	dev = dev_get_by_name(net, ifname);
	if (!dev)
		return ERR_PTR(-ENODEV);
	core = madcm_cm_get_core(dev);
	if (devp)
		*devp = dev;
	dev_put(dev);
	return core;
}

/* Destroy a listener we no longer list, and give back its core. */
static void ctl_listener_free(struct ctl_listener *l)
{
	madcm_cm_destroy_listener(l->listener);
	madcm_cm_put_core(l->core);
	kfree(l);
}

static int cmd_listen(struct net *net, char **argv, int argc)
{
	struct madcm_cm_listen_attr la = {};
	struct madcm_cm_core *core;
	struct ctl_listener *l;
	struct ctl_opts *o;
	u32 port;
	int ret;

	if (argc < 5 || !valid_name(argv[2]) || parse_u32(argv[4], U16_MAX, &port))
		return -EINVAL;
	o = kmalloc(sizeof(*o), GFP_KERNEL);
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	ret = -ENOMEM;
	if (!o || !l)
		goto out;
	ret = parse_opts(argv, argc, 5, o);
	if (ret)
		goto out;
	ret = parse_addr(argv[3], &la.addr.ip);
	if (ret)
		goto out;
	ret = -EEXIST;
	if (listener_find(argv[2]))
		goto out;
	core = ctl_get_core(net, argv[1], &l->dev);
	if (IS_ERR(core)) {
		ret = PTR_ERR(core);
		goto out;
	}

	strscpy(l->name, argv[2], sizeof(l->name));
	l->core = core;
	l->policy = o->policy;
	memcpy(l->pdata, o->pdata, o->pdata_len);
	l->pdata_len = o->pdata_len;
	la.addr.port = port;
	la.vlan_id = o->vlan;
	la.backlog = o->backlog;
	la.ird = o->ird;
	la.ord = o->ord;
	la.mpa_rev = o->rev;
	la.peer_to_peer = o->p2p;
	la.rtr_caps = o->rtr;
	la.crc = o->crc;
	la.handler = listener_event;
	la.context = l;
	ret = madcm_cm_create_listener(core, &la, &l->listener);
	if (ret) {
		madcm_cm_put_core(core);
		goto out;
	}
	spin_lock_bh(&ctl_lock);
	list_add_tail(&l->list, &ctl_listeners);
	spin_unlock_bh(&ctl_lock);
	l = NULL;
out:
	kfree(l);
	kfree(o);
	return ret;
}

static int cmd_unlisten(char **argv, int argc)
{
	struct ctl_listener *l;

	if (argc != 2)
		return -EINVAL;
	l = listener_find(argv[1]);
	if (!l)
		return -ENOENT;
	spin_lock_bh(&ctl_lock);
	list_del(&l->list);
	spin_unlock_bh(&ctl_lock);
	ctl_listener_free(l);
	return 0;
}

static int cmd_connect(struct net *net, char **argv, int argc)
{
	struct madcm_cm_connect_attr ca = {};
	struct madcm_cm_core *core;
	struct madcm_cm_conn *conn;
	struct ctl_conn *c;
	struct ctl_opts *o;
	u32 port;
	int ret;

	if (argc < 6 || !valid_name(argv[2]) || parse_u32(argv[5], U16_MAX, &port))
		return -EINVAL;
	o = kmalloc(sizeof(*o), GFP_KERNEL);
	c = conn_alloc();
	ret = -ENOMEM;
	if (!o || !c)
		goto out;
	ret = parse_opts(argv, argc, 6, o);
	if (ret)
		goto out;
	ret = parse_addr(argv[3], &ca.loc.ip);
	if (!ret)
		ret = parse_addr(argv[4], &ca.rem.ip);
	if (ret)
		goto out;
	ret = -EEXIST;
	spin_lock_bh(&ctl_lock);
	if (conn_find(argv[2]))
		goto out_unlock;
	spin_unlock_bh(&ctl_lock);
	core = ctl_get_core(net, argv[1], NULL);
	if (IS_ERR(core)) {
		ret = PTR_ERR(core);
		goto out;
	}

	strscpy(c->name, argv[2], sizeof(c->name));
	ca.loc.port = o->lport;
	ca.rem.port = port;
	ca.vlan_id = o->vlan;
	ca.private_data = o->pdata;
	ca.private_data_len = o->pdata_len;
	ca.ird = o->ird;
	ca.ord = o->ord;
	ca.mpa_rev = o->rev;
	ca.peer_to_peer = o->p2p;
	ca.rtr_caps = o->rtr;
	ca.crc = o->crc;
	ca.handler = conn_event;
	/*
	 * Listed first, and busy: the terminal event may come before
	 * connect returns, and then leaves the release to us.
	 */
	c->busy = 1;
	ca.context = conn_list(c);
	ret = madcm_cm_connect(core, &ca, &conn);
	/* The connection does not need the core's reference. */
	madcm_cm_put_core(core);
	spin_lock_bh(&ctl_lock);
	if (ret) {
		list_del(&c->list);
		c->busy = 0;
		conn_put(c);	/* the list's */
	} else {
		c->conn = conn;
	}
	spin_unlock_bh(&ctl_lock);
	if (!ret)
		conn_unbusy(c);
	goto out;
out_unlock:
	spin_unlock_bh(&ctl_lock);
out:
	if (c)
		conn_put(c);
	kfree(o);
	return ret;
}

/*
 * Run @fn on a live connection, outside ctl_lock: busy, so a terminal
 * event meanwhile leaves the release of @conn to us.
 */
static int with_conn(const char *name, int (*fn)(struct madcm_cm_conn *conn,
						 struct ctl_conn *c, void *arg),
		     void *arg)
{
	struct madcm_cm_conn *conn = NULL;
	struct ctl_conn *c;
	int ret;

	spin_lock_bh(&ctl_lock);
	c = conn_find(name);
	if (c && c->conn && !c->release_due) {
		conn = c->conn;
		c->busy++;
		kref_get(&c->ref);
	}
	spin_unlock_bh(&ctl_lock);
	if (!c)
		return -ENOENT;
	if (!conn)
		return -ENOTCONN;
	ctl_delay(READ_ONCE(cmd_delay_ms));
	ret = fn(conn, c, arg);
	conn_unbusy(c);
	conn_put(c);
	return ret;
}

static int ctl_do_accept(struct madcm_cm_conn *conn, struct ctl_conn *c, void *arg)
{
	struct ctl_opts *o = arg;
	struct madcm_cm_accept_attr aa = {
		.private_data = o->pdata,
		.private_data_len = o->pdata_len,
		.ird = o->ird,
		.ord = o->ord,
		.handler = conn_event,
		.context = (void *)c->id,
	};

	return madcm_cm_accept(conn, &aa);
}

static int ctl_do_reject(struct madcm_cm_conn *conn, struct ctl_conn *c, void *arg)
{
	struct ctl_opts *o = arg;

	return madcm_cm_reject(conn, o->pdata, o->pdata_len);
}

static int ctl_do_close(struct madcm_cm_conn *conn, struct ctl_conn *c, void *arg)
{
	return madcm_cm_close(conn);
}

static int ctl_do_abort(struct madcm_cm_conn *conn, struct ctl_conn *c, void *arg)
{
	return madcm_cm_abort(conn);
}

static int cmd_on_conn(char **argv, int argc)
{
	struct ctl_opts *o;
	int ret;

	if (argc < 2)
		return -EINVAL;
	o = kmalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	ret = parse_opts(argv, argc, 2, o);
	if (!ret) {
		if (!strcmp(argv[0], "accept")) {
			/* No ird= or ord= given means "keep" (0). */
			bool ird_set = false, ord_set = false;
			int i;

			for (i = 2; i < argc; i++) {
				ird_set |= !strncmp(argv[i], "ird", 3);
				ord_set |= !strncmp(argv[i], "ord", 3);
			}
			if (!ird_set)
				o->ird = 0;
			if (!ord_set)
				o->ord = 0;
			ret = with_conn(argv[1], ctl_do_accept, o);
		} else if (!strcmp(argv[0], "reject")) {
			ret = with_conn(argv[1], ctl_do_reject, o);
		} else if (!strcmp(argv[0], "close")) {
			ret = with_conn(argv[1], ctl_do_close, o);
		} else {
			ret = with_conn(argv[1], ctl_do_abort, o);
		}
	}
	kfree(o);
	return ret;
}

static int cmd_forget(char **argv, int argc)
{
	struct ctl_conn *c;
	struct madcm_cm_conn *conn;

	if (argc != 2)
		return -EINVAL;
	spin_lock_bh(&ctl_lock);
	c = conn_find(argv[1]);
	if (c) {
		list_del_init(&c->list);
		conn = conn_take_locked(c);
	}
	spin_unlock_bh(&ctl_lock);
	if (!c)
		return -ENOENT;
	if (conn)
		madcm_cm_release(conn);
	conn_put(c);	/* the list's; a handler may hold another */
	return 0;
}

/* Destroy our listeners on @dev; ctl_mutex held. */
static void ctl_drop_listeners(struct net_device *dev)
{
	struct ctl_listener *l, *tmp;
	LIST_HEAD(gone);

	spin_lock_bh(&ctl_lock);
	list_for_each_entry_safe(l, tmp, &ctl_listeners, list)
		if (l->dev == dev)
			list_move(&l->list, &gone);
	spin_unlock_bh(&ctl_lock);
	list_for_each_entry_safe(l, tmp, &gone, list)
		ctl_listener_free(l);
}

static struct ctl_dev *ctl_dev_find(struct net_device *dev)
{
	struct ctl_dev *d;

	list_for_each_entry(d, &ctl_devs, list)
		if (d->dev == dev)
			return d;
	return NULL;
}

/* Forget a device: our listeners on it, our reference; ctl_mutex held. */
static void ctl_dev_forget(struct ctl_dev *d, bool detach)
{
	ctl_drop_listeners(d->dev);
	if (detach)
		madcm_cm_netdev_detach(d->dev);
	list_del(&d->list);
	netdev_put(d->dev, &d->tracker);
	kfree(d);
}

static int cmd_attach(struct net *net, char **argv, int argc)
{
	struct madcm_cm_config cfg = {};
	struct net_device *dev;
	struct ctl_dev *d;
	int i, ret;

	for (i = 2; i < argc; i++) {
		char *val = strchr(argv[i], '=');
		u32 *field = NULL;

		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(argv[i], "rto_min_ms"))
			field = &cfg.rto_min_ms;
		else if (!strcmp(argv[i], "max_retrans"))
			field = &cfg.max_retrans;
		else if (!strcmp(argv[i], "time_wait_ms"))
			field = &cfg.time_wait_ms;
		else if (!strcmp(argv[i], "mpa_timeout_ms"))
			field = &cfg.mpa_timeout_ms;
		else if (!strcmp(argv[i], "backlog"))
			field = &cfg.backlog;
		else if (!strcmp(argv[i], "rtr_delay_ms"))
			field = &cfg.rtr_delay_ms;
		else if (!strcmp(argv[i], "max_time_wait"))
			field = &cfg.max_time_wait;
		else if (!strcmp(argv[i], "challenge_acks"))
			field = &cfg.challenge_acks;
		else if (!strcmp(argv[i], "rto_initial_ms"))
			field = &cfg.rto_initial_ms;
		else if (!strcmp(argv[i], "oow_ack_ms"))
			field = &cfg.oow_ack_ms;
		if (!field || parse_u32(val, 3600 * 1000, field))
			return -EINVAL;
	}
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	dev = dev_get_by_name(net, argv[1]);
	if (!dev) {
		kfree(d);
		return -ENODEV;
	}
	netdev_tracker_alloc(dev, &d->tracker, GFP_KERNEL);
	ret = madcm_cm_netdev_attach(dev, &cfg);
	if (ret) {
		netdev_put(dev, &d->tracker);
		kfree(d);
		return ret;
	}
	d->dev = dev;
	list_add(&d->list, &ctl_devs);
	return 0;
}

static int cmd_detach(struct net *net, const char *ifname)
{
	struct net_device *dev;
	struct ctl_dev *d;
	int ret = -ENODEV;

	dev = dev_get_by_name(net, ifname);
	if (!dev)
		return -ENODEV;
	d = ctl_dev_find(dev);
	if (d) {
		ctl_dev_forget(d, true);
		ret = 0;
	}
	dev_put(dev);
	return ret;
}

static int ctl_exec(struct net *net, char *line)
{
	char *argv[24], *p = line, *tok;
	int argc = 0;

	while ((tok = strsep(&p, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		if (argc == ARRAY_SIZE(argv))
			return -E2BIG;
		argv[argc++] = tok;
	}
	if (!argc)
		return 0;
	if (!strcmp(argv[0], "attach") && argc >= 2)
		return cmd_attach(net, argv, argc);
	if (!strcmp(argv[0], "detach") && argc == 2)
		return cmd_detach(net, argv[1]);
	if (!strcmp(argv[0], "listen"))
		return cmd_listen(net, argv, argc);
	if (!strcmp(argv[0], "unlisten"))
		return cmd_unlisten(argv, argc);
	if (!strcmp(argv[0], "connect"))
		return cmd_connect(net, argv, argc);
	if (!strcmp(argv[0], "accept") || !strcmp(argv[0], "reject") ||
	    !strcmp(argv[0], "close") || !strcmp(argv[0], "abort"))
		return cmd_on_conn(argv, argc);
	if (!strcmp(argv[0], "forget"))
		return cmd_forget(argv, argc);
	return -EINVAL;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	char *line;
	int ret;

	if (count >= CTL_CMD_MAX)
		return -E2BIG;
	line = memdup_user_nul(ubuf, count);
	if (IS_ERR(line))
		return PTR_ERR(line);
	mutex_lock(&ctl_mutex);
	ret = ctl_exec(current->nsproxy->net_ns, line);
	mutex_unlock(&ctl_mutex);
	kfree(line);
	return ret ?: count;
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = ctl_write,
	.llseek = noop_llseek,
};

static void show_addr(struct seq_file *m, const char *what,
		      const struct madcm_cm_addr *a)
{
	if (ipv6_addr_v4mapped(&a->ip))
		seq_printf(m, " %s=%pI4:%u", what, &a->ip.s6_addr32[3], a->port);
	else
		seq_printf(m, " %s=[%pI6c]:%u", what, &a->ip, a->port);
}

static int conns_show(struct seq_file *m, void *v)
{
	struct ctl_conn *c;
	int i;

	mutex_lock(&ctl_mutex);
	spin_lock_bh(&ctl_lock);
	list_for_each_entry(c, &ctl_conns, list) {
		seq_printf(m, "%s", c->name);
		show_addr(m, "loc", &c->loc);
		show_addr(m, "rem", &c->rem);
		seq_puts(m, " events=");
		for (i = 0; i < min_t(int, c->events.n, CTL_MAX_EVENTS); i++)
			seq_printf(m, "%s%s", i ? "," : "",
				   madcm_cm_event_name(c->events.type[i]));
		if (c->events.n > CTL_MAX_EVENTS)
			seq_puts(m, ",...");
		seq_printf(m, " nevents=%u terminal=%d status=%d established=%d",
			   c->events.n, c->terminal, c->status, c->established);
		seq_printf(m, " rev=%u ird=%u ord=%u rtr=%u rcv_nxt=%u",
			   c->mpa_rev, c->ird, c->ord, c->rtr_type, c->rcv_nxt);
		seq_printf(m, " pdata=%*phN\n", c->rx_pdata_len, c->rx_pdata);
	}
	spin_unlock_bh(&ctl_lock);
	mutex_unlock(&ctl_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(conns);

/*
 * The memory of the live established connections, by side: a passive
 * connection's name is its listener's, a dot and a count. Handlers add
 * records meanwhile (under ctl_lock), in the order of their ids: each
 * round takes the next one past the last id seen, counted and held busy
 * while the CM and its backend are asked, which may sleep.
 */
static int memory_show(struct seq_file *m, void *v)
{
	size_t cm[2] = {}, backend[2] = {};
	unsigned int n[2] = {};
	unsigned long last = 0;
	struct madcm_cm_conn *conn;
	struct ctl_conn *c;
	int side;

	for (;;) {
		conn = NULL;
		spin_lock_bh(&ctl_lock);
		list_for_each_entry(c, &ctl_conns, list) {
			if (c->id <= last)
				continue;
			last = c->id;
			if (c->conn && c->established && !c->terminal) {
				conn = c->conn;
				c->busy++;
				kref_get(&c->ref);
				break;
			}
		}
		spin_unlock_bh(&ctl_lock);
		if (!conn)
			break;
		side = !!strchr(c->name, '.');
		n[side]++;
		cm[side] += madcm_cm_conn_memory(conn);
		backend[side] += madcm_cm_conn_backend_memory(conn);
		conn_unbusy(c);
		kref_put(&c->ref, conn_free);
	}
	for (side = 0; side < 2; side++)
		seq_printf(m, "%s: connections %u cm %zu backend %zu\n",
			   side ? "passive" : "active", n[side], cm[side],
			   backend[side]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(memory);

/* A device going away: forget it before madcm's own notifier detaches it. */
static int ctl_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct ctl_dev *d;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	mutex_lock(&ctl_mutex);
	/* Our listeners on it, also where someone else attached the CM. */
	ctl_drop_listeners(dev);
	d = ctl_dev_find(dev);
	if (d)
		ctl_dev_forget(d, false);
	mutex_unlock(&ctl_mutex);
	return NOTIFY_DONE;
}

/* Called before madcm's notifier, which has the default priority 0. */
static struct notifier_block ctl_netdev_nb = {
	.notifier_call = ctl_netdev_event,
	.priority = 1,
};

static int __init ctl_init(void)
{
	int ret = register_netdevice_notifier(&ctl_netdev_nb);

	if (ret)
		return ret;
	ctl_dir = debugfs_create_dir("madcm_cm_ctl", NULL);
	debugfs_create_file("ctl", 0200, ctl_dir, NULL, &ctl_fops);
	debugfs_create_file("conns", 0400, ctl_dir, NULL, &conns_fops);
	debugfs_create_file("memory", 0400, ctl_dir, NULL, &memory_fops);
	return 0;
}

/* Destroy our listeners, detach what we attached, release what is left. */
static void __exit ctl_exit(void)
{
	struct ctl_listener *l, *lt;
	struct ctl_conn *c, *ct;
	struct ctl_dev *d, *dt;

	debugfs_remove_recursive(ctl_dir);
	unregister_netdevice_notifier(&ctl_netdev_nb);
	mutex_lock(&ctl_mutex);
	list_for_each_entry_safe(l, lt, &ctl_listeners, list) {
		list_del(&l->list);
		ctl_listener_free(l);
	}
	/* Detaching resets every connection: their handlers release them. */
	list_for_each_entry_safe(d, dt, &ctl_devs, list)
		ctl_dev_forget(d, true);
	list_for_each_entry_safe(c, ct, &ctl_conns, list) {
		struct madcm_cm_conn *conn;

		spin_lock_bh(&ctl_lock);
		list_del_init(&c->list);
		conn = conn_take_locked(c);
		spin_unlock_bh(&ctl_lock);
		if (conn)
			madcm_cm_release(conn);
		conn_put(c);
	}
	mutex_unlock(&ctl_mutex);
}

module_init(ctl_init);
module_exit(ctl_exit);

MODULE_DESCRIPTION("madcm test tool: a text control interface to the CM");
MODULE_LICENSE("GPL");
