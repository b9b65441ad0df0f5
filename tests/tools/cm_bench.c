// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_cm_bench.ko: the CM over the test fabric's software wire, outside
 * KUnit, for people, on exported API only (<madcm/cm.h>, the fabric's
 * madcm_wire_loop_*):
 *
 *   /sys/kernel/debug/madcm_cm_bench/loopdemo  reading it runs one
 *	connection between two CM cores joined by the software wire and
 *	prints its events, states, negotiated IRD/ORD, private data and TCP
 *	context;
 *   /sys/kernel/debug/madcm_cm_bench/bench  reading it measures
 *	connections set up and torn down per second over the software wire,
 *	and the memory each idle established connection holds on either
 *	side (madcm_cm_conn_memory(): the slab objects really allocated).
 *	A benchmark, not a test: it prints figures and judges nothing.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <net/ipv6.h>
#include <linux/module.h>
#include <madcm/cm.h>
#include "tests/fabric/cm_wire_loop.h"

#define BENCH_CONNS	256
#define BENCH_ROUNDS	4
#define BENCH_PORT	4791

struct bench_side {
	const char *name;
	atomic_t established;
	atomic_t terminal;
	atomic_t bad;
	wait_queue_head_t wq;
	struct seq_file *log;	/* loopdemo only, under log_lock */
	struct mutex *log_lock;
	struct madcm_cm_conn *conns[BENCH_CONNS];
	atomic_t nconns;
	u8 pdata[8];
};

static void bench_log(struct bench_side *s, const struct madcm_cm_event *ev)
{
	const struct madcm_cm_tcp_ctx *t = ev->tcp_ctx;

	mutex_lock(s->log_lock);
	if (!s->log)
		goto out;
	seq_printf(s->log, "%-7s %-15s status=%d ird=%u ord=%u rev=%u pdata=%*phN\n",
		   s->name, madcm_cm_event_name(ev->type), ev->status, ev->ird,
		   ev->ord, ev->mpa_rev, ev->private_data_len, ev->private_data);
	if (t)
		seq_printf(s->log,
			   "        tcp: snd_nxt=%u rcv_nxt=%u snd_wnd=%u rcv_wnd=%u mss=%u wscale=%u/%u rtr=%u crc=%d\n",
			   t->snd_nxt, t->rcv_nxt, t->snd_wnd, t->rcv_wnd,
			   t->snd_mss, t->snd_wscale, t->rcv_wscale,
			   t->rtr_type, t->crc);
out:
	mutex_unlock(s->log_lock);
}

static void bench_handler(const struct madcm_cm_event *ev, void *context)
{
	struct bench_side *s = context;
	struct madcm_cm_accept_attr aa = {
		.private_data = s->pdata,
		.private_data_len = sizeof(s->pdata),
		.handler = bench_handler,
		.context = s,
	};
	int n;

	bench_log(s, ev);
	switch (ev->type) {
	case MADCM_CM_EVENT_CONNECT_REQUEST:
		n = atomic_inc_return(&s->nconns) - 1;
		if (n < BENCH_CONNS)
			s->conns[n] = ev->conn;
		if (madcm_cm_accept(ev->conn, &aa))
			atomic_inc(&s->bad);
		break;
	case MADCM_CM_EVENT_ESTABLISHED:
		atomic_inc(&s->established);
		wake_up(&s->wq);
		break;
	case MADCM_CM_EVENT_REJECTED:
	case MADCM_CM_EVENT_RESET:
		atomic_inc(&s->bad);
		fallthrough;
	case MADCM_CM_EVENT_CLOSE:
		atomic_inc(&s->terminal);
		madcm_cm_release(ev->conn);
		wake_up(&s->wq);
		break;
	default:
		break;
	}
}

struct bench_env {
	struct madcm_wire_loop *loop;
	struct madcm_wire_loop_port *port[2];
	struct madcm_cm_core *core[2];
	struct in6_addr ip[2];
	struct madcm_cm_listener *listener;
	struct bench_side side[2];
	struct mutex log_lock;	/* serialises the loopdemo's log lines */
};

static void bench_env_free(struct bench_env *e)
{
	int i;

	if (e->listener)
		madcm_cm_destroy_listener(e->listener);
	for (i = 0; i < 2; i++)
		if (e->core[i])
			madcm_wire_loop_detach_core(e->port[i]);
	if (e->loop)
		madcm_wire_loop_destroy(e->loop);
	mutex_destroy(&e->log_lock);
	kfree(e);
}

static struct bench_env *bench_env_new(struct seq_file *log)
{
	struct madcm_cm_config cfg = { .time_wait_ms = 100, .backlog = BENCH_CONNS };
	struct madcm_cm_listen_attr la = {};
	struct bench_env *e;
	int i;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return NULL;
	mutex_init(&e->log_lock);
	e->loop = madcm_wire_loop_create(0x6d61);
	if (!e->loop)
		goto err;
	for (i = 0; i < 2; i++) {
		struct bench_side *s = &e->side[i];

		s->name = i ? "passive" : "active";
		init_waitqueue_head(&s->wq);
		s->log = log;
		s->log_lock = &e->log_lock;
		memcpy(s->pdata, i ? "passive!" : "active!!", sizeof(s->pdata));
		ipv6_addr_set_v4mapped(htonl(0xc0000201 + i), &e->ip[i]);
		e->port[i] = madcm_wire_loop_add_port(e->loop, 1500);
		if (!e->port[i] || madcm_wire_loop_add_addr(e->port[i], &e->ip[i]))
			goto err;
		e->core[i] = madcm_wire_loop_attach_core(e->port[i], &cfg);
		if (IS_ERR(e->core[i])) {
			e->core[i] = NULL;
			goto err;
		}
	}
	la.addr.ip = e->ip[1];
	la.addr.port = BENCH_PORT;
	la.vlan_id = MADCM_CM_NO_VLAN;
	la.backlog = BENCH_CONNS;
	la.ird = 8;
	la.ord = 8;
	la.mpa_rev = 2;
	la.rtr_caps = MADCM_CM_RTR_SEND | MADCM_CM_RTR_WRITE | MADCM_CM_RTR_READ;
	la.handler = bench_handler;
	la.context = &e->side[1];
	if (madcm_cm_create_listener(e->core[1], &la, &e->listener)) {
		e->listener = NULL;
		goto err;
	}
	return e;
err:
	bench_env_free(e);
	return NULL;
}

static int bench_connect(struct bench_env *e, struct madcm_cm_conn **conn)
{
	struct madcm_cm_connect_attr ca = {};

	ca.loc.ip = e->ip[0];
	ca.rem.ip = e->ip[1];
	ca.rem.port = BENCH_PORT;
	ca.vlan_id = MADCM_CM_NO_VLAN;
	ca.private_data = e->side[0].pdata;
	ca.private_data_len = sizeof(e->side[0].pdata);
	ca.ird = 4;
	ca.ord = 6;
	ca.mpa_rev = 2;
	ca.rtr_caps = MADCM_CM_RTR_SEND | MADCM_CM_RTR_WRITE | MADCM_CM_RTR_READ;
	ca.handler = bench_handler;
	ca.context = &e->side[0];
	return madcm_cm_connect(e->core[0], &ca, conn);
}

static bool bench_wait(struct bench_side *s, atomic_t *what, int n)
{
	return wait_event_timeout(s->wq, atomic_read(what) >= n, 30 * HZ) > 0;
}

static int loopdemo_show(struct seq_file *m, void *v)
{
	struct madcm_cm_conn *conn;
	struct bench_env *e;

	e = bench_env_new(m);
	if (!e)
		return -ENOMEM;
	seq_puts(m, "two cm_cores on the software wire: 192.0.2.1 (active) -> 192.0.2.2:4791 (listener)\n");
	seq_puts(m, "connect: MPA rev 2, IRD 4, ORD 6; the listener offers IRD 8, ORD 8\n");
	if (bench_connect(e, &conn)) {
		seq_puts(m, "connect failed\n");
		goto out;
	}
	if (!bench_wait(&e->side[0], &e->side[0].established, 1) ||
	    !bench_wait(&e->side[1], &e->side[1].established, 1)) {
		seq_puts(m, "not established\n");
		goto out;
	}
	mutex_lock(&e->log_lock);
	seq_puts(m, "both sides ESTABLISHED; the active side closes\n");
	mutex_unlock(&e->log_lock);
	madcm_cm_close(conn);
	bench_wait(&e->side[0], &e->side[0].terminal, 1);
	bench_wait(&e->side[1], &e->side[1].terminal, 1);
out:
	/* The teardown's events still print: @m lives until we return. */
	bench_env_free(e);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(loopdemo);

/* Octets the CM holds for @n connections. */
static size_t bench_mem(struct madcm_cm_conn **conns, int n)
{
	size_t sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += madcm_cm_conn_memory(conns[i]);
	return sum;
}

/*
 * The memory per idle connection on each side, once the connections are
 * idle: the last acknowledgments of the setup may still be on the wire
 * when both sides are ESTABLISHED, so the sums are taken until they stop
 * changing.
 */
static void bench_idle_mem(struct bench_env *e, struct madcm_cm_conn **conns,
			   size_t mem[2])
{
	size_t last[2] = { 0, 0 };
	int tries;

	for (tries = 0; tries < 100; tries++) {
		mem[0] = bench_mem(conns, BENCH_CONNS);
		mem[1] = bench_mem(e->side[1].conns, BENCH_CONNS);
		if (mem[0] == last[0] && mem[1] == last[1])
			break;
		last[0] = mem[0];
		last[1] = mem[1];
		msleep(20);
	}
}

static int bench_show(struct seq_file *m, void *v)
{
	struct madcm_cm_conn **conns;
	u64 setup_ns = 0, down_ns = 0;
	size_t mem[2] = { 0, 0 }, max_mem[2] = { 0, 0 };
	struct bench_env *e;
	int r, i;

	conns = kcalloc(BENCH_CONNS, sizeof(*conns), GFP_KERNEL);
	if (!conns)
		return -ENOMEM;
	for (r = 0; r < BENCH_ROUNDS; r++) {
		ktime_t t0, t1, t2, t3;

		e = bench_env_new(NULL);
		if (!e)
			goto out;
		t0 = ktime_get();
		for (i = 0; i < BENCH_CONNS; i++)
			if (bench_connect(e, &conns[i]))
				break;
		if (i < BENCH_CONNS ||
		    !bench_wait(&e->side[0], &e->side[0].established, BENCH_CONNS) ||
		    !bench_wait(&e->side[1], &e->side[1].established, BENCH_CONNS)) {
			seq_printf(m, "round %d: only %d connections set up\n", r,
				   atomic_read(&e->side[0].established));
			bench_env_free(e);
			goto out;
		}
		t1 = ktime_get();
		bench_idle_mem(e, conns, mem);
		max_mem[0] = max(max_mem[0], mem[0]);
		max_mem[1] = max(max_mem[1], mem[1]);
		t2 = ktime_get();
		for (i = 0; i < BENCH_CONNS; i++)
			madcm_cm_close(conns[i]);
		bench_wait(&e->side[0], &e->side[0].terminal, BENCH_CONNS);
		bench_wait(&e->side[1], &e->side[1].terminal, BENCH_CONNS);
		t3 = ktime_get();
		setup_ns += ktime_to_ns(ktime_sub(t1, t0));
		down_ns += ktime_to_ns(ktime_sub(t3, t2));
		if (atomic_read(&e->side[0].bad) || atomic_read(&e->side[1].bad))
			seq_printf(m, "round %d: %d/%d connections failed\n", r,
				   atomic_read(&e->side[0].bad),
				   atomic_read(&e->side[1].bad));
		bench_env_free(e);
	}
	seq_printf(m, "connections: %d x %d rounds over the software wire (MPA rev 2, 8 bytes of private data each way)\n",
		   BENCH_CONNS, BENCH_ROUNDS);
	seq_printf(m, "setup (SYN to ESTABLISHED on both sides): %llu connections/s\n",
		   div64_u64((u64)BENCH_CONNS * BENCH_ROUNDS * NSEC_PER_SEC, setup_ns ?: 1));
	seq_printf(m, "teardown (close to CLOSE on both sides):  %llu connections/s\n",
		   div64_u64((u64)BENCH_CONNS * BENCH_ROUNDS * NSEC_PER_SEC, down_ns ?: 1));
	/* The larger round's figure: every connection is counted. */
	seq_printf(m, "memory per idle connection (active side): %zu bytes\n",
		   DIV_ROUND_UP(max_mem[0], BENCH_CONNS));
	seq_printf(m, "memory per idle connection (passive side): %zu bytes\n",
		   DIV_ROUND_UP(max_mem[1], BENCH_CONNS));
out:
	kfree(conns);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bench);

static struct dentry *bench_dir;

static int __init bench_init(void)
{
	bench_dir = debugfs_create_dir("madcm_cm_bench", NULL);
	debugfs_create_file("loopdemo", 0400, bench_dir, NULL, &loopdemo_fops);
	debugfs_create_file("bench", 0400, bench_dir, NULL, &bench_fops);
	return 0;
}

static void __exit bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
}

module_init(bench_init);
module_exit(bench_exit);

MODULE_DESCRIPTION("madcm test tool: CM demo and benchmark over the test wire");
MODULE_LICENSE("GPL");
