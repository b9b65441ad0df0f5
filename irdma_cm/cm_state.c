// SPDX-License-Identifier: GPL-2.0-only
/*
 * A connection's lifecycle (enum irdma_cm_state): its names, and the one
 * place it changes, which checks that the state and the MPA result agree
 * and records the change for tracing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/bug.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/cm_trace.h"

static const char * const irdma_cm_state_names[IRDMA_CM_STATE_NR] = {
	[IRDMA_CM_STATE_CLOSED] = "CLOSED",
	[IRDMA_CM_STATE_SYN_SENT] = "SYN-SENT",
	[IRDMA_CM_STATE_SYN_RCVD] = "SYN-RECEIVED",
	[IRDMA_CM_STATE_MPA_REQ_SENT] = "MPA-REQ-SENT",
	[IRDMA_CM_STATE_MPA_REQ_WAIT] = "MPA-REQ-WAIT",
	[IRDMA_CM_STATE_MPA_REQ_RCVD] = "MPA-REQ-RCVD",
	[IRDMA_CM_STATE_MPA_RTR_WAIT] = "MPA-RTR-WAIT",
	[IRDMA_CM_STATE_ESTABLISHED] = "ESTABLISHED",
	[IRDMA_CM_STATE_OFFLOADED] = "OFFLOADED",
	[IRDMA_CM_STATE_FIN_WAIT1] = "FIN-WAIT-1",
	[IRDMA_CM_STATE_FIN_WAIT2] = "FIN-WAIT-2",
	[IRDMA_CM_STATE_CLOSE_WAIT] = "CLOSE-WAIT",
	[IRDMA_CM_STATE_CLOSING] = "CLOSING",
	[IRDMA_CM_STATE_LAST_ACK] = "LAST-ACK",
	[IRDMA_CM_STATE_TIME_WAIT] = "TIME-WAIT",
};

/**
 * irdma_cm_state_name() - a state's name
 * @s: the state
 *
 * Return: RFC 9293's name, or the MPA phase within ESTABLISHED.
 */
const char *irdma_cm_state_name(enum irdma_cm_state s)
{
	return s < IRDMA_CM_STATE_NR ? irdma_cm_state_names[s] : "?";
}

/*
 * The MPA exchange runs within TCP ESTABLISHED: it has no result before
 * it, ESTABLISHED means it was accepted, and a connection only closes
 * gracefully once it has a result (a close in the middle of it is a
 * reset). CLOSED goes with anything.
 */
static bool irdma_cm_state_agrees(enum irdma_cm_state s,
				  enum irdma_cm_mpa_result r)
{
	switch (s) {
	case IRDMA_CM_STATE_CLOSED:
		return true;
	case IRDMA_CM_STATE_SYN_SENT:
	case IRDMA_CM_STATE_SYN_RCVD:
	case IRDMA_CM_STATE_MPA_REQ_SENT:
	case IRDMA_CM_STATE_MPA_REQ_WAIT:
	case IRDMA_CM_STATE_MPA_REQ_RCVD:
	case IRDMA_CM_STATE_MPA_RTR_WAIT:
		return r == IRDMA_MPA_PENDING;
	case IRDMA_CM_STATE_ESTABLISHED:
	case IRDMA_CM_STATE_OFFLOADED:
		return r == IRDMA_MPA_ACCEPTED;
	default:
		return r != IRDMA_MPA_PENDING;
	}
}

/**
 * irdma_cm_set_state() - move a connection to another state
 * @node: the node, locked (or not yet in the connection table)
 * @s: the new state
 *
 * Set the MPA result first when the move ends the exchange. Each change
 * is a madcm_cm_state trace event.
 */
void irdma_cm_set_state(struct irdma_cm_node *node, enum irdma_cm_state s)
{
	WARN_ON_ONCE(!irdma_cm_state_agrees(s, node->mpa_result));
	/* Past the MPA request (or closed), no longer one to evict. */
	if (s != IRDMA_CM_STATE_SYN_RCVD && s != IRDMA_CM_STATE_MPA_REQ_WAIT)
		irdma_cm_embryo_del(node);
	if (node->state == s)
		return;
	trace_madcm_cm_state(node, node->state, s);
	node->state = s;
}

/**
 * irdma_cm_mpa_failed() - the MPA exchange ends without a result
 * @node: the node, locked
 *
 * A connection that ends before its exchange was accepted or rejected
 * records that it failed; a result it has already stays.
 */
void irdma_cm_mpa_failed(struct irdma_cm_node *node)
{
	if (node->mpa_result == IRDMA_MPA_PENDING)
		node->mpa_result = IRDMA_MPA_FAILED;
}
