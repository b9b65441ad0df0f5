/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the MAD core's KUnit suites: test-managed fabrics,
 * ports, agents and address handles, a "manual" transport whose sends the
 * test completes by hand, and a responder agent that answers requests.
 */
#ifndef _MADCM_MAD_TEST_UTIL_H
#define _MADCM_MAD_TEST_UTIL_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <madcm/mad.h>
#include "tests/fabric/mad_loop.h"

#include "mad/fault.h"
#include "mad/mad_priv.h"

/* A GS class without RMPP header, and its version, for most tests. */
#define MT_CLASS	IB_MGMT_CLASS_PERF_MGMT
#define MT_VERSION	1

struct mt_manual;

/* A test-managed agent; @mm, when set, is drained before unregistering. */
struct mt_agent {
	struct ib_mad_agent *agent;
	struct mt_manual *mm;
};

struct madcm_loop_fabric *mt_fabric(struct kunit *test, u64 seed);
struct madcm_port *mt_loop_port(struct kunit *test,
				struct madcm_loop_fabric *fab, u32 lid,
				bool opa);
struct mt_agent *mt_register(struct kunit *test, struct madcm_port *port,
			     enum ib_qp_type qp_type,
			     struct ib_mad_reg_req *req, u8 rmpp_version,
			     ib_mad_send_handler sh, ib_mad_recv_handler rh,
			     void *context);
struct mt_agent *mt_register_flags(struct kunit *test,
				   struct madcm_port *port,
				   enum ib_qp_type qp_type,
				   struct ib_mad_reg_req *req, u8 rmpp_version,
				   ib_mad_send_handler sh,
				   ib_mad_recv_handler rh, void *context,
				   u32 flags);
void mt_unregister(struct mt_agent *ma);
struct ib_ah *mt_ah(struct kunit *test, struct madcm_port *port, u32 dlid);
void mt_reg_req(struct ib_mad_reg_req *req, u8 mgmt_class, u8 version,
		const u8 *methods, int nr_methods);

/* A MAD ready to post: a Get of MT_CLASS with TID lo of the agent. */
struct ib_mad_send_buf *mt_get_mad(struct kunit *test,
				   struct ib_mad_agent *agent,
				   struct ib_ah *ah, u32 tid_lo,
				   int timeout_ms, int retries);

/* The manual transport: the test sees every post and completes it. */
struct mt_post {
	struct list_head node;
	struct madcm_send *send;
	u32 dlid;
	u32 remote_qpn;
	u32 src_qpn;
	u16 pkey_index;
	size_t len;
	u8 mad[sizeof(struct opa_mad)];
};

struct mt_manual {
	struct madcm_port *port;
	spinlock_t lock;	/* protects posts and nr_posts */
	struct list_head posts;
	int nr_posts;
	int fail_posts;
	bool ah_sleeps;
	/* With ah_sleeps: blocking AH creation waits for this, if set. */
	struct completion *ah_gate;
};

struct mt_manual *mt_manual_port(struct kunit *test, u32 lid, bool opa);
/* A manual port that sends with P_Key indices 0 .. @nr_pkeys - 1 only. */
struct mt_manual *mt_manual_port_pkeys(struct kunit *test, u32 lid, bool opa,
				       u16 nr_pkeys);
struct mt_post *mt_manual_pop(struct mt_manual *mm);
void mt_manual_complete(struct mt_manual *mm, struct mt_post *p,
			enum ib_wc_status status);
void mt_manual_deliver(struct mt_manual *mm, const void *mad, size_t len,
		       u32 qpn, u32 slid, u32 src_qp);

/* Counts handler calls; an optional completion fires at a count. */
struct mt_counts {
	atomic_t sends;
	atomic_t recvs;
	atomic_t resp_with_send;
	atomic_t status[IB_WC_GENERAL_ERR + 1];
	atomic_t order_errors;
	atomic_t last_retries;
	atomic_t target;
	struct completion reached;
	bool free_on_send;
};

void mt_counts_init(struct mt_counts *c, int target);
void mt_count_send_handler(struct ib_mad_agent *agent,
			   struct ib_mad_send_wc *wc);
void mt_count_recv_handler(struct ib_mad_agent *agent,
			   struct ib_mad_send_buf *send_buf,
			   struct ib_mad_recv_wc *wc);
bool mt_wait(struct mt_counts *c, unsigned long secs);
/* Wait (bounded) until the manual port has seen @n posts. */
bool mt_wait_posts(struct mt_manual *mm, int n);
/* A response to the MAD @req, as its receiver would send it. */
void mt_make_response(const void *req, u8 *resp);

/* A responder: answers every request with a GetResp of the same TID. */
struct mt_agent *mt_responder(struct kunit *test, struct madcm_port *port,
			      atomic_t *answered);

long mt_counter(struct madcm_port *port, enum madcm_port_counter c);

#endif /* _MADCM_MAD_TEST_UTIL_H */
