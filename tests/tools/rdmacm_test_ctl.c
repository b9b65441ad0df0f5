// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_rdmacm_test.ko's control: the commands written to
 * /sys/kernel/debug/madcm_rdmacm_test/ctl and the conns, listeners and
 * counters files (the grammar is in rdmacm_test.c and
 * Documentation/testing.rst).
 */
#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/nsproxy.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "rdmacm_test.h"

static struct dentry *rt_dir;

/* ---- commands ---- */

struct rt_opts {
	bool reject;
	bool close;
	u32 backlog;
	u32 count;
	u8 pdata_len;
	u8 pdata[RT_PDATA_MAX];
	const char *src;
	const char *sport;
	struct rt_dopts dopts;
};

static int rt_parse_opts(char **argv, int argc, struct rt_opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->backlog = 16;
	o->count = 1;
	o->dopts.pings = 1;
	for (i = 0; i < argc; i++) {
		char *val = strchr(argv[i], '=');

		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(argv[i], "pdata")) {
			size_t n = strlen(val);

			if (n % 2 || n / 2 > RT_PDATA_MAX ||
			    hex2bin(o->pdata, val, n / 2))
				return -EINVAL;
			o->pdata_len = n / 2;
		} else if (!strcmp(argv[i], "mode")) {
			if (!strcmp(val, "reject"))
				o->reject = true;
			else if (strcmp(val, "accept"))
				return -EINVAL;
		} else if (!strcmp(argv[i], "close")) {
			if (kstrtobool(val, &o->close))
				return -EINVAL;
		} else if (!strcmp(argv[i], "backlog")) {
			if (kstrtou32(val, 0, &o->backlog))
				return -EINVAL;
		} else if (!strcmp(argv[i], "count")) {
			if (kstrtou32(val, 0, &o->count) || !o->count ||
			    o->count > RT_MAX_COUNT)
				return -EINVAL;
		} else if (!strcmp(argv[i], "src")) {
			o->src = val;
		} else if (!strcmp(argv[i], "sport")) {
			o->sport = val;
		} else if (!strcmp(argv[i], "data")) {
			if (kstrtou32(val, 0, &o->dopts.size) ||
			    o->dopts.size > RT_DATA_MAX)
				return -EINVAL;
		} else if (!strcmp(argv[i], "mr")) {
			if (!strcmp(val, "global"))
				o->dopts.mr = RT_MR_GLOBAL;
			else if (strcmp(val, "frmr"))
				return -EINVAL;
		} else if (!strcmp(argv[i], "rping")) {
			if (!strcmp(val, "client"))
				o->dopts.rping = RT_RPING_CLIENT;
			else if (!strcmp(val, "server"))
				o->dopts.rping = RT_RPING_SERVER;
			else
				return -EINVAL;
		} else if (!strcmp(argv[i], "pings")) {
			if (kstrtou32(val, 0, &o->dopts.pings) ||
			    !o->dopts.pings)
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	/* rping and the data commands need buffers. */
	if (o->dopts.rping && !o->dopts.size)
		return -EINVAL;
	return 0;
}

static bool rt_valid_name(const char *name)
{
	size_t n = strlen(name);

	return n && n < RT_NAME_LEN && !strchr(name, '.');
}

/* ADDR (IPv4, or IPv6 with an optional %scope) and PORT. */
static int rt_parse_addr(struct net *net, const char *addr, const char *port,
			 struct sockaddr_storage *ss)
{
	return inet_pton_with_scope(net, AF_UNSPEC, addr, port, ss);
}

static struct rt_listener *rt_listener_find(const char *name)
{
	struct rt_listener *l;

	list_for_each_entry(l, &rt_listeners, list)
		if (!strcmp(l->name, name))
			return l;
	return NULL;
}

static struct rt_batch *rt_batch_find(const char *name)
{
	struct rt_batch *b;

	list_for_each_entry(b, &rt_batches, list)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

/* Under rt_mutex: connections leave the list only at unload. */
static struct rt_conn *rt_conn_find(const char *name)
{
	struct rt_conn *c, *found = NULL;

	spin_lock_bh(&rt_lock);
	list_for_each_entry(c, &rt_conns, list)
		if (!strcmp(c->name, name)) {
			found = c;
			break;
		}
	spin_unlock_bh(&rt_lock);
	return found;
}

static int cmd_listen(struct net *net, char **argv, int argc)
{
	struct rdma_cm_id *id;
	struct rt_listener *l;
	struct rt_opts *o;
	int ret;

	if (argc < 4 || !rt_valid_name(argv[1]))
		return -EINVAL;
	if (rt_listener_find(argv[1]))
		return -EEXIST;
	o = kmalloc(sizeof(*o), GFP_KERNEL);
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	ret = -ENOMEM;
	if (!o || !l)
		goto out;
	ret = rt_parse_opts(argv + 4, argc - 4, o);
	if (!ret)
		ret = rt_parse_addr(net, argv[2], argv[3], &l->addr);
	if (ret)
		goto out;
	l->ctx.kind = RT_LISTENER;
	strscpy(l->name, argv[1], sizeof(l->name));
	l->reject = o->reject;
	l->pdata_len = o->pdata_len;
	memcpy(l->pdata, o->pdata, o->pdata_len);
	l->dopts = o->dopts;

	id = rdma_create_id(net, rt_cm_handler, &l->ctx, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id);
		goto out;
	}
	atomic_inc(&rt_cnt.ids_created);
	ret = rdma_bind_addr(id, (struct sockaddr *)&l->addr);
	if (!ret)
		ret = rdma_listen(id, o->backlog);
	if (ret) {
		rdma_destroy_id(id);
		atomic_inc(&rt_cnt.ids_destroyed);
		goto out;
	}
	l->id = id;
	spin_lock_bh(&rt_lock);
	list_add_tail(&l->list, &rt_listeners);
	spin_unlock_bh(&rt_lock);
	l = NULL;
out:
	kfree(l);
	kfree(o);
	return ret;
}

static int cmd_unlisten(char **argv, int argc)
{
	struct rt_listener *l;

	if (argc != 2)
		return -EINVAL;
	l = rt_listener_find(argv[1]);
	if (!l)
		return -ENOENT;
	spin_lock_bh(&rt_lock);
	list_del(&l->list);
	spin_unlock_bh(&rt_lock);
	rt_listener_free(l);
	return 0;
}

static int cmd_connect(struct net *net, char **argv, int argc)
{
	struct rt_batch *b;
	struct rt_opts *o;
	int ret;

	if (argc < 4 || !rt_valid_name(argv[1]))
		return -EINVAL;
	if (rt_batch_find(argv[1]))
		return -EEXIST;
	o = kmalloc(sizeof(*o), GFP_KERNEL);
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	ret = -ENOMEM;
	if (!o || !b)
		goto out;
	ret = rt_parse_opts(argv + 4, argc - 4, o);
	if (!ret)
		ret = rt_parse_addr(net, argv[2], argv[3], &b->dst);
	if (!ret && o->sport && !o->src)
		ret = -EINVAL;
	if (!ret && o->src) {
		ret = rt_parse_addr(net, o->src, o->sport ?: "0", &b->src);
		b->has_src = true;
	}
	if (ret)
		goto out;
	strscpy(b->name, argv[1], sizeof(b->name));
	b->net = get_net(net);
	b->close = o->close;
	b->count = o->count;
	b->pdata_len = o->pdata_len;
	memcpy(b->pdata, o->pdata, o->pdata_len);
	b->dopts = o->dopts;
	INIT_WORK(&b->work, rt_batch_work);
	spin_lock_bh(&rt_lock);
	list_add_tail(&b->list, &rt_batches);
	if (!rt_stopping)
		queue_work(system_wq, &b->work);
	spin_unlock_bh(&rt_lock);
	b = NULL;
out:
	kfree(b);
	kfree(o);
	return ret;
}

static int cmd_disconnect(char **argv, int argc)
{
	struct rt_conn *c;
	int ret;

	if (argc != 2)
		return -EINVAL;
	c = rt_conn_find(argv[1]);
	if (!c)
		return -ENOENT;
	mutex_lock(&c->lock);
	if (c->id) {
		c->local_disconnect = true;
		ret = rdma_disconnect(c->id);
	} else {
		ret = -ENOTCONN;
	}
	mutex_unlock(&c->lock);
	return ret;
}

static int cmd_destroy(char **argv, int argc)
{
	struct rt_conn *c;

	if (argc != 2)
		return -EINVAL;
	c = rt_conn_find(argv[1]);
	if (!c)
		return -ENOENT;
	rt_conn_destroy(c);
	rt_batch_kick(c);
	return 0;
}

/* The data commands (rdmacm_test_data.c): "VERB CONN ARGS...". */
static int cmd_data(char **argv, int argc)
{
	struct rt_conn *c;

	if (argc < 2)
		return -EINVAL;
	c = rt_conn_find(argv[1]);
	if (!c)
		return -ENOENT;
	return rt_data_cmd(c, argv, argc);
}

static const char *const rt_data_verbs[] = {
	"ready", "expect", "send", "write", "read", "fill", "drain", "echo",
	"bench",
};

static int rt_exec(struct net *net, char *line)
{
	char *argv[16], *p = line, *tok;
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
	if (!strcmp(argv[0], "listen"))
		return cmd_listen(net, argv, argc);
	if (!strcmp(argv[0], "unlisten"))
		return cmd_unlisten(argv, argc);
	if (!strcmp(argv[0], "connect"))
		return cmd_connect(net, argv, argc);
	if (!strcmp(argv[0], "disconnect"))
		return cmd_disconnect(argv, argc);
	if (!strcmp(argv[0], "destroy"))
		return cmd_destroy(argv, argc);
	if (match_string(rt_data_verbs, ARRAY_SIZE(rt_data_verbs),
			 argv[0]) >= 0)
		return cmd_data(argv, argc);
	return -EINVAL;
}

static ssize_t rt_ctl_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char *line;
	int ret;

	if (count >= RT_CMD_MAX)
		return -E2BIG;
	line = memdup_user_nul(ubuf, count);
	if (IS_ERR(line))
		return PTR_ERR(line);
	mutex_lock(&rt_mutex);
	ret = rt_exec(current->nsproxy->net_ns, line);
	mutex_unlock(&rt_mutex);
	kfree(line);
	return ret ?: count;
}

static const struct file_operations rt_ctl_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = rt_ctl_write,
	.llseek = noop_llseek,
};

/* ---- output ---- */

/* %*ph prints at most 64 bytes at a time. */
static void rt_seq_hex(struct seq_file *m, const u8 *data, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i += 64)
		seq_printf(m, "%*phN", min(len - i, 64U), data + i);
}

static void rt_seq_addr(struct seq_file *m, const char *what,
			const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET || ss->ss_family == AF_INET6)
		seq_printf(m, " %s=%pISpc", what, ss);
	else
		seq_printf(m, " %s=-", what);
}

static int conns_show(struct seq_file *m, void *v)
{
	const struct rt_event *e;
	struct rt_conn *c;
	unsigned int i;

	spin_lock_bh(&rt_lock);
	list_for_each_entry(c, &rt_conns, list) {
		seq_printf(m, "%s role=%s dev=%s id=%s", c->name,
			   c->active ? "active" : "passive",
			   c->dev[0] ? c->dev : "-",
			   c->destroyed ? "destroyed" : "live");
		rt_seq_addr(m, "src", &c->src);
		rt_seq_addr(m, "dst", &c->dst);
		seq_puts(m, " events=");
		for (i = 0; i < min_t(unsigned int, c->nevents, RT_MAX_EVENTS);
		     i++) {
			e = &c->events[i];
			seq_printf(m, "%s%s/%d", i ? "," : "",
				   rt_event_name(e->type), e->status);
			if (e->pdata_len) {
				seq_putc(m, '/');
				rt_seq_hex(m, e->pdata, e->pdata_len);
			}
		}
		if (c->nevents > RT_MAX_EVENTS)
			seq_puts(m, ",...");
		seq_printf(m, " nevents=%u established=%d ird=%u ord=%u",
			   c->nevents, c->established, c->ird, c->ord);
		seq_printf(m, " local_disconnect=%d err=%s:%d\n",
			   c->local_disconnect, c->err_step ?: "-", c->err);
	}
	spin_unlock_bh(&rt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(conns);

static int listeners_show(struct seq_file *m, void *v)
{
	struct rt_listener *l;

	spin_lock_bh(&rt_lock);
	list_for_each_entry(l, &rt_listeners, list) {
		seq_puts(m, l->name);
		rt_seq_addr(m, "addr", &l->addr);
		seq_printf(m, " mode=%s pdata=", l->reject ? "reject" : "accept");
		rt_seq_hex(m, l->pdata, l->pdata_len);
		seq_printf(m, " requests=%u id=%s removed=%u\n", l->requests,
			   l->id ? "live" : "destroyed", l->removed);
	}
	spin_unlock_bh(&rt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(listeners);

/* One line per connection opened with data=. */
static int data_show(struct seq_file *m, void *v)
{
	struct rt_conn *c;

	spin_lock_bh(&rt_lock);
	list_for_each_entry(c, &rt_conns, list)
		if (c->data)
			rt_data_show(m, c);
	spin_unlock_bh(&rt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(data);

static int counters_show(struct seq_file *m, void *v)
{
	int created = atomic_read(&rt_cnt.ids_created);
	int destroyed = atomic_read(&rt_cnt.ids_destroyed);

#define RT_SHOW(f) seq_printf(m, "%s %d\n", #f, atomic_read(&rt_cnt.f))
	RT_SHOW(ids_created);
	RT_SHOW(ids_destroyed);
	seq_printf(m, "ids_live %d\n", created - destroyed);
	RT_SHOW(pds);
	RT_SHOW(cqs);
	RT_SHOW(qps);
	RT_SHOW(requests);
	RT_SHOW(accepts);
	RT_SHOW(rejects_sent);
	RT_SHOW(established);
	RT_SHOW(rejected);
	RT_SHOW(disconnected);
	RT_SHOW(unreachable);
	RT_SHOW(other_terminal);
	RT_SHOW(local_errors);
	RT_SHOW(device_removals);
#undef RT_SHOW
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(counters);

void rt_debugfs_create(void)
{
	rt_dir = debugfs_create_dir("madcm_rdmacm_test", NULL);
	debugfs_create_file("ctl", 0200, rt_dir, NULL, &rt_ctl_fops);
	debugfs_create_file("conns", 0400, rt_dir, NULL, &conns_fops);
	debugfs_create_file("listeners", 0400, rt_dir, NULL, &listeners_fops);
	debugfs_create_file("counters", 0400, rt_dir, NULL, &counters_fops);
	debugfs_create_file("data", 0400, rt_dir, NULL, &data_fops);
}

void rt_debugfs_remove(void)
{
	debugfs_remove_recursive(rt_dir);
}
