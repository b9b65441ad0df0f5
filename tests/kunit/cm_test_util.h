/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * KUnit helpers for the CM suites: cm_cores on a software wire, an event
 * recorder per side, and a hand-driven peer that builds and reads raw
 * segments.
 */
#ifndef _MADCM_TESTS_CM_TEST_UTIL_H
#define _MADCM_TESTS_CM_TEST_UTIL_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <madcm/cm.h>
#include "irdma_cm/cm_core.h"
#include "tests/fabric/cm_wire_loop.h"

#define CM_TEST_MAX_EV	8
#define CM_TEST_WAIT	(30 * HZ)

/* What a side does with a CONNECT_REQUEST. */
enum cm_test_policy {
	CM_TEST_ACCEPT,
	CM_TEST_REJECT,
	CM_TEST_HOLD,		/* answer later, by hand */
};

/**
 * struct cm_rec - one connection as a test sees it
 * @conn: the connection
 * @nev: events seen
 * @ev: their types, in order
 * @status: their statuses
 * @pdata: private data of the last event that carried some
 * @pdata_len: its length
 * @ird: IRD of the last event
 * @ord: ORD of the last event
 * @ctx: the TCP context of ESTABLISHED
 * @has_ctx: ESTABLISHED was seen
 * @terminal: terminal events seen (must end at 1)
 * @after_terminal: events seen after the terminal one (must stay 0)
 */
struct cm_rec {
	struct madcm_cm_conn *conn;
	int nev;
	enum madcm_cm_event_type ev[CM_TEST_MAX_EV];
	int status[CM_TEST_MAX_EV];
	u8 pdata[MADCM_CM_MAX_PDATA];
	u16 pdata_len;
	u16 ird;
	u16 ord;
	struct madcm_cm_tcp_ctx ctx;
	bool has_ctx;
	int terminal;
	int after_terminal;
};

/**
 * struct cm_side - the consumer on one core
 * @lock: guards the records
 * @wq: woken on every event
 * @recs: the connections
 * @nrecs: how many
 * @max: room in @recs
 * @policy: the answer to CONNECT_REQUEST
 * @reply_pdata: private data for accept or reject
 * @reply_len: its length
 * @accept_ird: IRD limit given at accept
 * @accept_ord: ORD limit given at accept
 * @keep: do not release connections at their terminal event
 * @terminals: terminal events seen
 * @events: events seen
 * @delay_ms: each terminal event's handler sleeps this long before it
 *	returns (a consumer that is slow, not stuck)
 * @hold_seen: when set, the next terminal event's handler completes it,
 *	then waits (on the core's event workqueue) for @hold_go; one shot
 * @hold_go: ... completed by the test
 */
struct cm_side {
	struct mutex lock;	/* see above */
	wait_queue_head_t wq;
	struct cm_rec *recs;
	int nrecs;
	int max;
	enum cm_test_policy policy;
	const void *reply_pdata;
	u16 reply_len;
	u16 accept_ird;
	u16 accept_ord;
	bool keep;
	int terminals;
	int events;
	unsigned int delay_ms;
	struct completion *hold_seen;
	struct completion *hold_go;
};

/**
 * struct cm_fix - a wire with up to three ports
 * @loop: the wire
 * @port: its ports
 * @core: their cores (NULL for a raw port)
 * @side: the consumer of each core
 * @v4: each port's IPv4 address, IPv4-mapped
 * @v6: each port's IPv6 address
 * @backlog: the backlog cm_listen() asks for (0: the core's default)
 */
struct cm_fix {
	struct madcm_wire_loop *loop;
	struct madcm_wire_loop_port *port[3];
	struct irdma_cm_core *core[3];
	struct cm_side side[3];
	struct in6_addr v4[3];
	struct in6_addr v6[3];
	u32 backlog;
};

/* Short timers, so that tests take well under a second each. */
extern const struct madcm_cm_config cm_test_fast_cfg;
/* Timers that never fire within a test: no retransmission surprises. */
extern const struct madcm_cm_config cm_test_quiet_cfg;
/* The same, but for an MPA timeout of 20 ms. */
extern const struct madcm_cm_config cm_test_mpa_timeout_cfg;

struct cm_fix *cm_fix_create(struct kunit *test, int ncores, bool raw,
			     const struct madcm_cm_config *cfg, int max_conns);
void cm_test_handler(const struct madcm_cm_event *ev, void *context);
struct madcm_cm_listener *cm_listen(struct kunit *test, struct cm_fix *fix,
				    int idx, const struct in6_addr *ip,
				    u16 port, u16 vlan, u8 rev);
struct cm_rec *cm_connect(struct kunit *test, struct cm_fix *fix, int from,
			  const struct madcm_cm_connect_attr *attr);
void cm_connect_attr(struct madcm_cm_connect_attr *attr,
		     const struct in6_addr *loc, const struct in6_addr *rem,
		     u16 port, u16 vlan, u8 rev, struct cm_side *side);
bool cm_wait_terminals(struct cm_side *side, int n);
bool cm_wait_events(struct cm_side *side, int n);
bool cm_wait_events_progress(struct cm_side *side, int n);
bool cm_wait_terminals_progress(struct cm_side *side, int n);
bool cm_wait_nrecs(struct cm_side *side, int n);
bool cm_rec_has(const struct cm_rec *rec, enum madcm_cm_event_type type);
void cm_expect_events(struct kunit *test, const struct cm_rec *rec,
		      const enum madcm_cm_event_type *want, int n);
u64 cm_cnt(struct irdma_cm_core *core, enum irdma_cm_counter c);
void cm_expect_drained(struct kunit *test, struct irdma_cm_core *core);
void cm_dump_core(struct kunit *test, struct irdma_cm_core *core, int max);
void cm_addr4(struct in6_addr *a, u8 last);

/**
 * struct cm_raw - a peer played by hand on the fixture's raw port
 * @fix: the fixture
 * @target: the core the peer talks to
 * @tmpl: addresses, MACs, ports and VLAN of what the peer sends
 * @iss: the peer's initial sequence number
 * @snd_nxt: the peer's next sequence number
 * @rcv_nxt: the next sequence number the peer expects
 */
struct cm_raw {
	struct cm_fix *fix;
	struct irdma_cm_core *target;
	struct irdma_cm_seg tmpl;
	u32 iss;
	u32 snd_nxt;
	u32 rcv_nxt;
};

/* States cm_raw_drive() brings a passive connection to. */
enum cm_raw_state {
	CM_RAW_SYN_SENT,
	CM_RAW_SYN_RCVD,
	CM_RAW_WAIT_REQUEST,
	CM_RAW_REQ_RCVD,
	CM_RAW_ESTABLISHED,
	CM_RAW_FIN_WAIT1,
	CM_RAW_FIN_WAIT2,
	CM_RAW_LAST_ACK,
	CM_RAW_TIME_WAIT,
};

void cm_raw_drive(struct kunit *test, struct cm_fix *fix, struct cm_raw *raw,
		  enum cm_raw_state st, u16 rport, u16 lport);
void cm_raw_init(struct cm_raw *raw, struct cm_fix *fix, int target,
		 bool ipv4, u16 loc_port, u16 rem_port, u16 vlan);
void cm_raw_send(struct kunit *test, struct cm_raw *raw, u8 flags, u32 seq,
		 u32 ack, const void *data, u32 len, bool opts);
bool cm_raw_recv(struct kunit *test, struct cm_raw *raw,
		 struct irdma_cm_seg *seg, u8 *payload, u32 size);
bool cm_raw_recv_data(struct kunit *test, struct cm_raw *raw,
		      struct irdma_cm_seg *seg, u8 *payload, u32 size);
bool cm_raw_none(struct cm_raw *raw);
void cm_raw_open(struct kunit *test, struct cm_raw *raw);
void cm_raw_established(struct kunit *test, struct cm_fix *fix,
			struct cm_raw *raw, u16 rport, u16 lport);
u32 cm_raw_mpa_frame(u8 *buf, bool request, bool reject, u8 rev,
		     const void *pdata, u16 len, u16 ird, u16 ord);

#endif /* _MADCM_TESTS_CM_TEST_UTIL_H */
