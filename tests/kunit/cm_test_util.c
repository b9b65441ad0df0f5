// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit helpers for the CM suites (cm_test_util.h).
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "irdma_cm/tcp_seg.h"
#include "tests/kunit/cm_test_util.h"
#include "tests/kunit/mpa_spec.h"

const struct madcm_cm_config cm_test_fast_cfg = {
	.rto_min_ms = 20,
	.rto_max_ms = 160,
	.max_retrans = 12,
	.time_wait_ms = 50,
	.fin_wait2_ms = 5000,
	.mpa_timeout_ms = 8000,
};

const struct madcm_cm_config cm_test_quiet_cfg = {
	.rto_min_ms = 600000,
	.rto_max_ms = 600000,
	.time_wait_ms = 600000,
	.fin_wait2_ms = 600000,
	.mpa_timeout_ms = 600000,
};

const struct madcm_cm_config cm_test_mpa_timeout_cfg = {
	.rto_min_ms = 600000,
	.rto_max_ms = 600000,
	.time_wait_ms = 600000,
	.fin_wait2_ms = 600000,
	.mpa_timeout_ms = 20,
};

/**
 * cm_addr4() - 10.0.0.@last, IPv4-mapped
 * @a: filled in
 * @last: the last octet
 */
void cm_addr4(struct in6_addr *a, u8 last)
{
	ipv6_addr_set_v4mapped(htonl(0x0a000000 | last), a);
}

static void cm_addr6(struct in6_addr *a, u8 last)
{
	memset(a, 0, sizeof(*a));
	a->s6_addr[0] = 0xfd;
	a->s6_addr[15] = last;
}

static void cm_fix_free(struct kunit_resource *res)
{
	struct cm_fix *fix = res->data;

	madcm_wire_loop_destroy(fix->loop);
}

static int cm_fix_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

/**
 * cm_fix_create() - a wire with @ncores cores and maybe a raw port
 * @test: the test
 * @ncores: ports with a core (1 or 2)
 * @raw: add a port without a core that captures (the last port)
 * @cfg: the cores' tunables
 * @max_conns: room for connection records per side
 *
 * Port i has 10.0.0.(i+1) and fd00::(i+1). Everything is torn down when
 * the test ends.
 *
 * Return: the fixture (the test is aborted on failure).
 */
struct cm_fix *cm_fix_create(struct kunit *test, int ncores, bool raw,
			     const struct madcm_cm_config *cfg, int max_conns)
{
	struct cm_fix *fix = kunit_kzalloc(test, sizeof(*fix), GFP_KERNEL);
	int i, n = ncores + raw;

	KUNIT_ASSERT_NOT_NULL(test, fix);
	/* Allocated first so that they outlive the wire and its cores. */
	for (i = 0; i < n; i++) {
		struct cm_side *side = &fix->side[i];

		mutex_init(&side->lock);
		init_waitqueue_head(&side->wq);
		side->max = max_conns;
		side->recs = kunit_kcalloc(test, max_conns, sizeof(*side->recs),
					   GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, side->recs);
	}
	fix->loop = madcm_wire_loop_create(0x5eed + test->param_index);
	KUNIT_ASSERT_NOT_NULL(test, fix->loop);
	KUNIT_ASSERT_NOT_NULL(test, kunit_alloc_resource(test, cm_fix_init,
							 cm_fix_free,
							 GFP_KERNEL, fix));
	for (i = 0; i < n; i++) {
		fix->port[i] = madcm_wire_loop_add_port(fix->loop, 1500);
		KUNIT_ASSERT_NOT_NULL(test, fix->port[i]);
		cm_addr4(&fix->v4[i], i + 1);
		cm_addr6(&fix->v6[i], i + 1);
		madcm_wire_loop_add_addr(fix->port[i], &fix->v4[i]);
		madcm_wire_loop_add_addr(fix->port[i], &fix->v6[i]);
		if (i < ncores) {
			struct madcm_cm_core *core;

			core = madcm_wire_loop_attach_core(fix->port[i], cfg);
			KUNIT_ASSERT_FALSE(test, IS_ERR(core));
			fix->core[i] = irdma_cm_core_of(core);
		} else {
			madcm_wire_loop_capture(fix->port[i], true);
		}
	}
	return fix;
}

/*
 * The record of @conn: the newest with that pointer. A connection
 * released at its terminal event is freed, and a new one may get the same
 * memory (at once without KASAN's quarantine: seen on the KCSAN kernel,
 * where a second connection's events went to the first one's record), so
 * a new connection (@create) never takes a record that has ended.
 */
static struct cm_rec *cm_find_rec(struct cm_side *side,
				  struct madcm_cm_conn *conn, bool create)
{
	int i;

	for (i = side->nrecs - 1; i >= 0; i--)
		if (side->recs[i].conn == conn &&
		    !(create && side->recs[i].terminal))
			return &side->recs[i];
	if (!create || side->nrecs == side->max)
		return NULL;
	side->recs[side->nrecs].conn = conn;
	return &side->recs[side->nrecs++];
}

static bool cm_terminal(enum madcm_cm_event_type t)
{
	return t == MADCM_CM_EVENT_REJECTED || t == MADCM_CM_EVENT_RESET ||
	       t == MADCM_CM_EVENT_CLOSE;
}

/**
 * cm_test_handler() - record an event; answer CONNECT_REQUEST; release
 *	at the terminal event
 * @ev: the event
 * @context: the struct cm_side
 */
void cm_test_handler(const struct madcm_cm_event *ev, void *context)
{
	struct cm_side *side = context;
	struct madcm_cm_accept_attr acc = {};
	struct completion *seen = NULL, *go = NULL;
	bool release = false;
	struct cm_rec *rec;
	int ret = 0;

	mutex_lock(&side->lock);
	rec = cm_find_rec(side, ev->conn,
			  ev->type == MADCM_CM_EVENT_CONNECT_REQUEST);
	if (!rec) {
		/* A connection the test did not record: release it. */
		mutex_unlock(&side->lock);
		if (cm_terminal(ev->type))
			madcm_cm_release(ev->conn);
		return;
	}
	if (rec->terminal)
		rec->after_terminal++;
	if (rec->nev < CM_TEST_MAX_EV) {
		rec->ev[rec->nev] = ev->type;
		rec->status[rec->nev] = ev->status;
	}
	rec->nev++;
	if (ev->private_data_len) {
		memcpy(rec->pdata, ev->private_data, ev->private_data_len);
		rec->pdata_len = ev->private_data_len;
	}
	rec->ird = ev->ird;
	rec->ord = ev->ord;
	if (ev->tcp_ctx) {
		rec->ctx = *ev->tcp_ctx;
		rec->has_ctx = true;
	}
	if (cm_terminal(ev->type)) {
		rec->terminal++;
		side->terminals++;
		release = !side->keep;
		seen = side->hold_seen;
		go = side->hold_go;
		side->hold_seen = NULL;
		side->hold_go = NULL;
	}
	side->events++;
	mutex_unlock(&side->lock);

	if (ev->type == MADCM_CM_EVENT_CONNECT_REQUEST) {
		acc.private_data = side->reply_pdata;
		acc.private_data_len = side->reply_len;
		acc.ird = side->accept_ird;
		acc.ord = side->accept_ord;
		if (side->policy == CM_TEST_ACCEPT)
			ret = madcm_cm_accept(ev->conn, &acc);
		else if (side->policy == CM_TEST_REJECT)
			ret = madcm_cm_reject(ev->conn, side->reply_pdata,
					      side->reply_len);
		/* Gone, or its core stopping (a test that failed ends). */
		WARN_ON(ret && ret != -ECONNRESET && ret != -ESHUTDOWN);
	}
	if (cm_terminal(ev->type) && READ_ONCE(side->delay_ms))
		msleep(READ_ONCE(side->delay_ms));
	if (release)
		madcm_cm_release(ev->conn);
	wake_up(&side->wq);
	if (seen) {
		/* What the core queued behind this event waits with us. */
		complete(seen);
		wait_for_completion_timeout(go, CM_TEST_WAIT);
	}
}

/**
 * cm_listen() - a listener on core @idx, events to side @idx
 * @test: the test
 * @fix: the fixture
 * @idx: the core
 * @ip: the address (NULL: any)
 * @port: the port
 * @vlan: VLAN ID or MADCM_CM_NO_VLAN
 * @rev: highest MPA revision
 *
 * Return: the listener (the test is aborted on failure).
 */
struct madcm_cm_listener *cm_listen(struct kunit *test, struct cm_fix *fix,
				    int idx, const struct in6_addr *ip,
				    u16 port, u16 vlan, u8 rev)
{
	struct madcm_cm_listen_attr attr = {
		.addr = { .ip = ip ? *ip : in6addr_any, .port = port },
		.vlan_id = vlan,
		.backlog = fix->backlog,
		.ird = 16,
		.ord = 16,
		.mpa_rev = rev,
		.handler = cm_test_handler,
		.context = &fix->side[idx],
	};
	struct madcm_cm_listener *l = NULL;

	KUNIT_ASSERT_EQ(test, madcm_cm_create_listener(&fix->core[idx]->handle, &attr,
						       &l), 0);
	return l;
}

/**
 * cm_connect_attr() - a connect's attributes with the test's defaults
 * @attr: filled in
 * @loc: local address
 * @rem: remote address
 * @port: remote port
 * @vlan: VLAN ID or MADCM_CM_NO_VLAN
 * @rev: MPA revision
 * @side: the recorder
 */
void cm_connect_attr(struct madcm_cm_connect_attr *attr,
		     const struct in6_addr *loc, const struct in6_addr *rem,
		     u16 port, u16 vlan, u8 rev, struct cm_side *side)
{
	memset(attr, 0, sizeof(*attr));
	attr->loc.ip = *loc;
	attr->rem.ip = *rem;
	attr->rem.port = port;
	attr->vlan_id = vlan;
	attr->ird = 8;
	attr->ord = 8;
	attr->mpa_rev = rev;
	attr->handler = cm_test_handler;
	attr->context = side;
}

/**
 * cm_connect() - connect from core @from and record the connection
 * @test: the test
 * @fix: the fixture
 * @from: the core
 * @attr: the attributes (handler and context are the side's)
 *
 * Return: the record (the test is aborted on failure).
 */
struct cm_rec *cm_connect(struct kunit *test, struct cm_fix *fix, int from,
			  const struct madcm_cm_connect_attr *attr)
{
	struct cm_side *side = &fix->side[from];
	struct madcm_cm_conn *conn = NULL;
	struct cm_rec *rec;
	int ret;

	/* Hold the lock so that no event finds the record missing. */
	mutex_lock(&side->lock);
	ret = madcm_cm_connect(&fix->core[from]->handle, attr, &conn);
	rec = ret ? NULL : cm_find_rec(side, conn, true);
	mutex_unlock(&side->lock);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	return rec;
}

/**
 * cm_wait_terminals() - wait until @side saw @n terminal events
 * @side: the side
 * @n: how many
 *
 * Return: true when they came before the (generous) guard timeout.
 */
bool cm_wait_terminals(struct cm_side *side, int n)
{
	return wait_event_timeout(side->wq, READ_ONCE(side->terminals) >= n,
				  CM_TEST_WAIT) > 0;
}

/**
 * cm_wait_events() - wait until @side saw @n events
 * @side: the side
 * @n: how many
 *
 * Return: true when they came before the guard timeout.
 */
bool cm_wait_events(struct cm_side *side, int n)
{
	return wait_event_timeout(side->wq, READ_ONCE(side->events) >= n,
				  CM_TEST_WAIT) > 0;
}

/*
 * Wait until *@count reaches @n, as long as it keeps moving: the guard
 * timeout restarts whenever the count grows, so a large run on a slow
 * (emulated, sanitized) machine is not cut short while it progresses,
 * and a stuck one still fails after one guard period.
 */
static bool cm_wait_progress(struct cm_side *side, const int *count, int n)
{
	int seen = -1, now;

	for (;;) {
		now = READ_ONCE(*count);
		if (now >= n)
			return true;
		if (now == seen)
			return false;
		seen = now;
		wait_event_timeout(side->wq, READ_ONCE(*count) != seen,
				   CM_TEST_WAIT);
	}
}

/**
 * cm_wait_events_progress() - wait for @n events while they keep coming
 * @side: the side
 * @n: how many
 *
 * Return: true when @n came; false after a guard period without any.
 */
bool cm_wait_events_progress(struct cm_side *side, int n)
{
	return cm_wait_progress(side, &side->events, n);
}

/**
 * cm_wait_terminals_progress() - wait for @n terminal events while they
 *	keep coming
 * @side: the side
 * @n: how many
 *
 * Return: true when @n came; false after a guard period without any.
 */
bool cm_wait_terminals_progress(struct cm_side *side, int n)
{
	return cm_wait_progress(side, &side->terminals, n);
}

/**
 * cm_wait_nrecs() - wait until @side knows @n connections
 * @side: the side
 * @n: how many
 *
 * Return: true when they came before the guard timeout.
 */
bool cm_wait_nrecs(struct cm_side *side, int n)
{
	return wait_event_timeout(side->wq, READ_ONCE(side->nrecs) >= n,
				  CM_TEST_WAIT) > 0;
}

/**
 * cm_rec_has() - did a connection see an event
 * @rec: the connection
 * @type: the event
 *
 * Return: true if it did.
 */
bool cm_rec_has(const struct cm_rec *rec, enum madcm_cm_event_type type)
{
	int i;

	for (i = 0; i < min(rec->nev, CM_TEST_MAX_EV); i++)
		if (rec->ev[i] == type)
			return true;
	return false;
}

/**
 * cm_expect_events() - a connection saw exactly these events, in order
 * @test: the test
 * @rec: the connection
 * @want: the events
 * @n: how many
 */
void cm_expect_events(struct kunit *test, const struct cm_rec *rec,
		      const enum madcm_cm_event_type *want, int n)
{
	int i;

	KUNIT_EXPECT_EQ(test, rec->nev, n);
	for (i = 0; i < min(n, rec->nev); i++)
		KUNIT_EXPECT_STREQ_MSG(test, madcm_cm_event_name(rec->ev[i]),
				       madcm_cm_event_name(want[i]),
				       "event %d", i);
	KUNIT_EXPECT_EQ(test, rec->terminal, 1);
	KUNIT_EXPECT_EQ(test, rec->after_terminal, 0);
}

/**
 * cm_cnt() - read a core counter
 * @core: the core
 * @c: the counter
 *
 * Return: its value.
 */
u64 cm_cnt(struct irdma_cm_core *core, enum irdma_cm_counter c)
{
	return irdma_cm_counter_read(core, c);
}

/**
 * cm_dump_core() - what a test that timed out needs to know of a core
 * @test: the test
 * @core: the core
 * @max: at most this many connections are shown
 *
 * Logs the core's counters that are not 0 and its connections that are
 * neither ESTABLISHED nor handed off: state, sequence numbers, RTO,
 * retransmissions and armed timers.
 */
void cm_dump_core(struct kunit *test, struct irdma_cm_core *core, int max)
{
	struct irdma_cm_node *node;
	u64 v;
	int i, n = 0;

	for (i = 0; i < IRDMA_CM_CNT_NR; i++) {
		v = irdma_cm_counter_read(core, i);
		if (v)
			kunit_info(test, "core %p: %s %llu\n", core,
				   irdma_cm_counter_name(i), v);
	}
	spin_lock_bh(&core->lock);
	list_for_each_entry(node, &core->all_nodes, all) {
		if (node->state == IRDMA_CM_STATE_ESTABLISHED ||
		    node->state == IRDMA_CM_STATE_OFFLOADED)
			continue;
		if (n++ >= max)
			break;
		kunit_info(test,
			   "core %p: :%u-:%u %s una %u nxt %u high %u rcv_nxt %u wnd %u rto %u ms retrans %u armed %#x flags %#lx rexmit in %d ms mpa in %d ms\n",
			   core, node->key.loc_port, node->key.rem_port,
			   irdma_cm_state_name(node->state),
			   node->snd_una - node->iss, node->snd_nxt - node->iss,
			   node->snd_high - node->iss,
			   node->rcv_nxt - node->irs, node->snd_wnd,
			   jiffies_to_msecs(node->rto), node->retrans,
			   node->armed, node->flags,
			   (int)jiffies_to_msecs(node->rexmit_at - jiffies),
			   (int)jiffies_to_msecs(node->mpa_at - jiffies));
	}
	spin_unlock_bh(&core->lock);
	kunit_info(test, "core %p: %d connections not established (%d live)\n",
		   core, n, atomic_read(&core->live_nodes));
}

/**
 * cm_expect_drained() - stop a core; nothing may be left
 * @test: the test
 * @core: the core
 *
 * Neither nodes nor listeners, nor any setup context or MPA buffer: a
 * node frees its buffers on every path that ends it.
 */
void cm_expect_drained(struct kunit *test, struct irdma_cm_core *core)
{
	irdma_cm_core_stop(core);
	KUNIT_EXPECT_EQ(test, atomic_read(&core->live_nodes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&core->live_listeners), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&core->setup_bufs), 0);
}

/**
 * cm_raw_init() - a hand-driven peer on the fixture's raw (last) port
 * @raw: filled in
 * @fix: the fixture; the raw port follows the cores
 * @target: the core it talks to
 * @ipv4: IPv4, else IPv6
 * @loc_port: the peer's port
 * @rem_port: the core's port
 * @vlan: VLAN ID or MADCM_CM_NO_VLAN
 */
void cm_raw_init(struct cm_raw *raw, struct cm_fix *fix, int target,
		 bool ipv4, u16 loc_port, u16 rem_port, u16 vlan)
{
	int me = target + 1;

	while (fix->core[me])
		me++;
	memset(raw, 0, sizeof(*raw));
	raw->fix = fix;
	raw->target = fix->core[target];
	madcm_wire_loop_mac(fix->port[target], raw->tmpl.dst_mac);
	madcm_wire_loop_mac(fix->port[me], raw->tmpl.src_mac);
	raw->tmpl.ipv4 = ipv4;
	raw->tmpl.vlan = vlan != MADCM_CM_NO_VLAN;
	raw->tmpl.vlan_tci = raw->tmpl.vlan ? vlan : 0;
	raw->tmpl.ttl = 64;
	raw->tmpl.src.ip = ipv4 ? fix->v4[me] : fix->v6[me];
	raw->tmpl.dst.ip = ipv4 ? fix->v4[target] : fix->v6[target];
	raw->tmpl.src.port = loc_port;
	raw->tmpl.dst.port = rem_port;
	raw->tmpl.window = 8192;
	raw->iss = 1000000;
	raw->snd_nxt = raw->iss;
}

/**
 * cm_raw_send() - inject a segment into the target core
 * @test: the test
 * @raw: the peer
 * @flags: TCP flags
 * @seq: sequence number
 * @ack: acknowledgment number
 * @data: payload
 * @len: its length
 * @opts: add MSS 1460 and window scale 7
 */
void cm_raw_send(struct kunit *test, struct cm_raw *raw, u8 flags, u32 seq,
		 u32 ack, const void *data, u32 len, bool opts)
{
	struct irdma_cm_seg seg = raw->tmpl;
	u8 *frame;
	int n;

	seg.flags = flags;
	seg.seq = seq;
	seg.ack = ack;
	seg.payload = data;
	seg.payload_len = len;
	if (opts) {
		seg.opts.has_mss = true;
		seg.opts.mss = 1460;
		seg.opts.has_wscale = true;
		seg.opts.wscale = 7;
	}
	frame = kunit_kzalloc(test, IRDMA_CM_MAX_HDR + len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	n = irdma_cm_build_seg(&seg, frame, IRDMA_CM_MAX_HDR + len);
	KUNIT_ASSERT_GT(test, n, 0);
	irdma_receive_ilq(raw->target, frame, n);
	kunit_kfree(test, frame);
}

/**
 * cm_raw_recv() - the next segment the target core sent the peer
 * @test: the test
 * @raw: the peer
 * @seg: filled in (its payload copied to @payload)
 * @payload: room for the payload, or NULL
 * @size: its size
 *
 * Return: true when a valid segment came before the guard timeout.
 */
bool cm_raw_recv(struct kunit *test, struct cm_raw *raw,
		 struct irdma_cm_seg *seg, u8 *payload, u32 size)
{
	int me = 0;
	u8 *frame;
	int n;

	while (raw->fix->core[me])
		me++;
	frame = kunit_kzalloc(test, 2048, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	n = madcm_wire_loop_take(raw->fix->port[me], frame, 2048,
				 CM_TEST_WAIT);
	if (n < 0 || irdma_cm_parse_seg(frame, n, seg) != IRDMA_SEG_OK) {
		kunit_kfree(test, frame);
		return false;
	}
	if (payload && seg->payload_len)
		memcpy(payload, seg->payload, min(size, seg->payload_len));
	seg->payload = NULL;
	kunit_kfree(test, frame);
	return true;
}

/**
 * cm_raw_recv_data() - the next segment that is more than a bare ACK
 * @test: the test
 * @raw: the peer
 * @seg: filled in
 * @payload: room for the payload, or NULL
 * @size: its size
 *
 * Return: true when one came before the guard timeout.
 */
bool cm_raw_recv_data(struct kunit *test, struct cm_raw *raw,
		      struct irdma_cm_seg *seg, u8 *payload, u32 size)
{
	while (cm_raw_recv(test, raw, seg, payload, size))
		if (seg->payload_len || seg->flags != IRDMA_TCP_ACK)
			return true;
	return false;
}

/**
 * cm_raw_none() - the core sent the peer nothing (more)
 * @raw: the peer
 *
 * Waits until the wire is idle first.
 *
 * Return: true when nothing is queued for the peer.
 */
bool cm_raw_none(struct cm_raw *raw)
{
	u8 buf[64];
	int me = 0;

	while (raw->fix->core[me])
		me++;
	madcm_wire_loop_quiesce(raw->fix->loop);
	return madcm_wire_loop_take(raw->fix->port[me], buf, sizeof(buf),
				    0) == -ETIMEDOUT;
}

/**
 * cm_raw_open() - the peer opens a connection to the target's listener
 * @test: the test
 * @raw: the peer
 *
 * SYN, the core's SYN-ACK (checked against RFC 9293), ACK. Afterwards
 * @raw->snd_nxt and @raw->rcv_nxt are set.
 */
void cm_raw_open(struct kunit *test, struct cm_raw *raw)
{
	struct irdma_cm_seg seg;

	cm_raw_send(test, raw, IRDMA_TCP_SYN, raw->iss, 0, NULL, 0, true);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_ASSERT_EQ(test, seg.ack, raw->iss + 1);
	raw->snd_nxt = raw->iss + 1;
	raw->rcv_nxt = seg.seq + 1;
	cm_raw_send(test, raw, IRDMA_TCP_ACK, raw->snd_nxt, raw->rcv_nxt,
		    NULL, 0, false);
}

/**
 * cm_raw_established() - a raw peer connected to core 0's listener
 * @test: the test
 * @fix: the fixture; core 0 listens on @lport with MPA revision 1 and
 *	accepts
 * @raw: the peer, set up here
 * @rport: the peer's port
 * @lport: the listener's port
 *
 * Handshake, a revision 1 request with two bytes of private data, the
 * reply read and acknowledged, CONNECT_REQUEST and ESTABLISHED seen.
 */
void cm_raw_established(struct kunit *test, struct cm_fix *fix,
			struct cm_raw *raw, u16 rport, u16 lport)
{
	struct irdma_cm_seg seg;
	u8 frame[64];
	u32 n;

	cm_raw_init(raw, fix, 0, true, rport, lport, MADCM_CM_NO_VLAN);
	cm_raw_open(test, raw);
	n = cm_raw_mpa_frame(frame, true, false, 1, "hi", 2, 0, 0);
	cm_raw_send(test, raw, IRDMA_TCP_ACK | IRDMA_TCP_PSH, raw->snd_nxt,
		    raw->rcv_nxt, frame, n, false);
	raw->snd_nxt += n;
	/* The reply, after the ACK of the request. */
	KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, NULL, 0));
	KUNIT_ASSERT_EQ(test, seg.payload_len, SPEC_HDR_LEN);
	KUNIT_ASSERT_EQ(test, seg.ack, raw->snd_nxt);
	raw->rcv_nxt += seg.payload_len;
	cm_raw_send(test, raw, IRDMA_TCP_ACK, raw->snd_nxt, raw->rcv_nxt,
		    NULL, 0, false);
	KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 2));
}

/**
 * cm_raw_drive() - bring a passive connection with the raw peer to @st
 * @test: the test
 * @fix: the fixture; core 0 listens on @lport (revision 1, accepting)
 * @raw: the peer, set up here
 * @st: the state (not CM_RAW_SYN_SENT, an active open)
 * @rport: the peer's port
 * @lport: the listener's port
 *
 * Afterwards @raw->snd_nxt is the core's RCV.NXT.
 */
void cm_raw_drive(struct kunit *test, struct cm_fix *fix, struct cm_raw *raw,
		  enum cm_raw_state st, u16 rport, u16 lport)
{
	struct irdma_cm_seg seg;
	struct cm_rec *p;
	u8 frame[64];
	u32 n, fin;

	cm_raw_init(raw, fix, 0, true, rport, lport, MADCM_CM_NO_VLAN);
	if (st == CM_RAW_SYN_RCVD) {
		cm_raw_send(test, raw, IRDMA_TCP_SYN, raw->iss, 0, NULL, 0, true);
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, raw, &seg, NULL, 0));
		raw->snd_nxt = raw->iss + 1;
		raw->rcv_nxt = seg.seq + 1;
		return;
	}
	if (st == CM_RAW_WAIT_REQUEST) {
		cm_raw_open(test, raw);
		return;
	}
	if (st == CM_RAW_REQ_RCVD) {
		fix->side[0].policy = CM_TEST_HOLD;
		cm_raw_open(test, raw);
		n = cm_raw_mpa_frame(frame, true, false, 1, NULL, 0, 0, 0);
		cm_raw_send(test, raw, IRDMA_TCP_ACK, raw->snd_nxt,
			    raw->rcv_nxt, frame, n, false);
		raw->snd_nxt += n;
		KUNIT_ASSERT_TRUE(test, cm_wait_events(&fix->side[0], 1));
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, raw, &seg, NULL, 0));
		return;
	}
	cm_raw_established(test, fix, raw, rport, lport);
	if (st == CM_RAW_ESTABLISHED)
		return;
	p = &fix->side[0].recs[0];
	if (st == CM_RAW_LAST_ACK) {
		cm_raw_send(test, raw, IRDMA_TCP_FIN | IRDMA_TCP_ACK,
			    raw->snd_nxt, raw->rcv_nxt, NULL, 0, false);
		raw->snd_nxt++;
		KUNIT_ASSERT_TRUE(test, cm_raw_recv_data(test, raw, &seg, NULL,
							 0));
		KUNIT_ASSERT_TRUE(test, seg.flags & IRDMA_TCP_FIN);
		return;
	}
	KUNIT_ASSERT_EQ(test, madcm_cm_close(p->conn), 0);
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, raw, &seg, NULL, 0));
	KUNIT_ASSERT_TRUE(test, seg.flags & IRDMA_TCP_FIN);
	fin = seg.seq;
	if (st == CM_RAW_FIN_WAIT1)
		return;
	cm_raw_send(test, raw, IRDMA_TCP_ACK, raw->snd_nxt, fin + 1, NULL, 0,
		    false);
	raw->rcv_nxt = fin + 1;
	if (st == CM_RAW_FIN_WAIT2)
		return;
	cm_raw_send(test, raw, IRDMA_TCP_FIN | IRDMA_TCP_ACK, raw->snd_nxt,
		    raw->rcv_nxt, NULL, 0, false);
	raw->snd_nxt++;
	KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, raw, &seg, NULL, 0));
	KUNIT_ASSERT_TRUE(test, cm_wait_terminals(&fix->side[0], 1));
}

/**
 * cm_raw_mpa_frame() - an MPA frame as RFC 5044/6581 draw it
 * @buf: room for header, IRD/ORD word and @len bytes
 * @request: the request key, else the reply key
 * @reject: set R
 * @rev: the revision; 2 adds S and the IRD/ORD word
 * @pdata: private data
 * @len: its length
 * @ird: IRD for revision 2
 * @ord: ORD for revision 2
 *
 * Return: the frame's length.
 */
u32 cm_raw_mpa_frame(u8 *buf, bool request, bool reject, u8 rev,
		     const void *pdata, u16 len, u16 ird, u16 ord)
{
	struct spec_frame f = {
		.request = request,
		.r = reject,
		.s = rev == 2,
		.rev = rev,
		.pd_len = len + (rev == 2 ? SPEC_RTR_LEN : 0),
		.rtr_words = rev == 2,
		.ird = ird,
		.ord = ord,
		.ulp = pdata,
		.ulp_len = len,
	};

	return spec_write(buf, &f);
}
