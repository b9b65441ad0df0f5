// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the transition grid. Every synchronized state a connection can
 * be brought to, times every kind of segment that must not move it, with
 * the answer RFC 9293 3.10.7.4 and RFC 5961 require: a challenge ACK, an
 * ACK, a RST, or silence. The connection must survive each of them.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include "tests/kunit/cm_test_util.h"

#define LPORT	4400
#define RPORT	35000

enum probe {
	PROBE_SYN,		/* RFC 5961 4.2: challenge ACK */
	PROBE_RST_IN_WINDOW,	/* RFC 5961 3.2: challenge ACK */
	PROBE_RST_OUTSIDE,	/* RFC 5961 3.2: silently dropped */
	PROBE_ACK_UNSENT,	/* RFC 9293: ACK (RST in SYN-RECEIVED) */
	PROBE_OLD_DATA,		/* RFC 9293: unacceptable: ACK */
	PROBE_NO_ACK,		/* RFC 9293: no ACK bit: dropped */
	PROBE_NR
};

enum answer {
	ANS_ACK,
	ANS_RST,
	ANS_NONE,
};

static const char * const probe_names[PROBE_NR] = {
	"SYN", "RST in window", "RST outside window", "ACK of unsent data",
	"old duplicate data", "data without ACK",
};

static const char * const state_names[] = {
	[CM_RAW_SYN_RCVD] = "SYN-RECEIVED",
	[CM_RAW_WAIT_REQUEST] = "ESTABLISHED/MPA wait",
	[CM_RAW_REQ_RCVD] = "ESTABLISHED/consumer",
	[CM_RAW_ESTABLISHED] = "ESTABLISHED/MPA done",
	[CM_RAW_FIN_WAIT1] = "FIN-WAIT-1",
	[CM_RAW_FIN_WAIT2] = "FIN-WAIT-2",
	[CM_RAW_LAST_ACK] = "LAST-ACK",
	[CM_RAW_TIME_WAIT] = "TIME-WAIT",
};

#define NSTATES	(CM_RAW_TIME_WAIT - CM_RAW_SYN_RCVD + 1)

static enum answer expected(enum cm_raw_state st, enum probe p)
{
	switch (p) {
	case PROBE_SYN:
	case PROBE_RST_IN_WINDOW:
	case PROBE_OLD_DATA:
		return ANS_ACK;
	case PROBE_ACK_UNSENT:
		return st == CM_RAW_SYN_RCVD ? ANS_RST : ANS_ACK;
	default:
		return ANS_NONE;
	}
}

/* One element per grid point; a parameter is a pointer into it. */
static const u8 grid[NSTATES * PROBE_NR];

static const void *grid_gen(const void *prev, char *desc)
{
	int idx = prev ? (const u8 *)prev - grid + 1 : 0;

	if (idx >= ARRAY_SIZE(grid))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s x %s",
		 state_names[CM_RAW_SYN_RCVD + idx / PROBE_NR],
		 probe_names[idx % PROBE_NR]);
	return &grid[idx];
}

static void cm_transition_grid(struct kunit *test)
{
	int idx = (const u8 *)test->param_value - grid;
	enum cm_raw_state st = CM_RAW_SYN_RCVD + idx / PROBE_NR;
	enum probe p = idx % PROBE_NR;
	struct cm_fix *fix = cm_fix_create(test, 1, true, &cm_test_quiet_cfg, 2);
	struct irdma_cm_tuple key;
	struct irdma_cm_node *node;
	struct irdma_cm_seg seg;
	struct cm_raw raw;
	int events;

	fix->side[0].policy = st == CM_RAW_REQ_RCVD ? CM_TEST_HOLD :
						     CM_TEST_ACCEPT;
	cm_listen(test, fix, 0, NULL, LPORT, MADCM_CM_NO_VLAN, 1);
	cm_raw_drive(test, fix, &raw, st, RPORT, LPORT);
	/* Whatever the drive left on the wire is not the probe's answer. */
	while (!cm_raw_none(&raw))
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
	/* Nor are the events it caused (DISCONNECT, on a loaded machine late). */
	flush_workqueue(fix->core[0]->event_wq);
	events = READ_ONCE(fix->side[0].events);

	switch (p) {
	case PROBE_SYN:
		cm_raw_send(test, &raw, IRDMA_TCP_SYN, raw.snd_nxt + 5, 0, NULL,
			    0, true);
		break;
	case PROBE_RST_IN_WINDOW:
		cm_raw_send(test, &raw, IRDMA_TCP_RST, raw.snd_nxt + 5, 0, NULL,
			    0, false);
		break;
	case PROBE_RST_OUTSIDE:
		cm_raw_send(test, &raw, IRDMA_TCP_RST, raw.snd_nxt - 70000, 0,
			    NULL, 0, false);
		break;
	case PROBE_ACK_UNSENT:
		cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt,
			    raw.rcv_nxt + 5000, NULL, 0, false);
		break;
	case PROBE_OLD_DATA:
		cm_raw_send(test, &raw, IRDMA_TCP_ACK, raw.snd_nxt - 10,
			    raw.rcv_nxt, "0123456789", 10, false);
		break;
	default:
		cm_raw_send(test, &raw, IRDMA_TCP_PSH, raw.snd_nxt, 0, "abcd", 4,
			    false);
		break;
	}

	switch (expected(st, p)) {
	case ANS_ACK:
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
		KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_ACK);
		KUNIT_EXPECT_EQ(test, seg.ack, raw.snd_nxt);
		KUNIT_EXPECT_EQ(test, seg.payload_len, 0);
		break;
	case ANS_RST:
		KUNIT_ASSERT_TRUE(test, cm_raw_recv(test, &raw, &seg, NULL, 0));
		KUNIT_EXPECT_EQ(test, seg.flags, IRDMA_TCP_RST);
		KUNIT_EXPECT_EQ(test, seg.seq, raw.rcv_nxt + 5000);
		break;
	case ANS_NONE:
		break;
	}
	KUNIT_EXPECT_TRUE(test, cm_raw_none(&raw));

	/* Still there, and the consumer heard nothing new. */
	memset(&key, 0, sizeof(key));
	key.loc_ip = raw.tmpl.dst.ip;
	key.rem_ip = raw.tmpl.src.ip;
	key.loc_port = LPORT;
	key.rem_port = RPORT;
	key.vlan_id = IRDMA_NO_VLAN;
	node = irdma_find_node(fix->core[0], &key);
	KUNIT_EXPECT_NOT_NULL(test, node);
	if (node)
		irdma_cm_node_put(node);
	flush_workqueue(fix->core[0]->event_wq);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fix->side[0].events), events);
	cm_expect_drained(test, fix->core[0]);
}

static struct kunit_case cm_transition_cases[] = {
	KUNIT_CASE_PARAM(cm_transition_grid, grid_gen),
	{}
};

static struct kunit_suite cm_transition_suite = {
	.name = "madcm_cm_transitions",
	.test_cases = cm_transition_cases,
};

kunit_test_suite(cm_transition_suite);
