// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the receive path. Malformed MADs from the wire are dropped and
 * counted by reason; requests go to the agent registered for their class,
 * version, OUI and method; a Get or Set nobody takes is answered with
 * status "unsupported method/attribute" (IBTA vol. 1 13.4.7, MAD status
 * bits 2-4 = 3: value 0x000C); other unclaimed MADs are counted.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "mad_test_util.h"

#define LID_PEER	2

/* IBTA 13.4.7: status field, "unsupported method/attribute". */
#define SPEC_STATUS_UNSUP_METHOD_ATTR	0x000c
#define SPEC_METHOD_GET			0x01
#define SPEC_METHOD_SET			0x02
#define SPEC_METHOD_GET_RESP		0x81
#define SPEC_METHOD_TRAP		0x05

struct bad_mad {
	const char *name;
	size_t len;
	u8 base_version;
	u8 mgmt_class;
	u8 class_version;
	u8 method;
	u32 qpn;
	bool opa_port;
	enum madcm_port_counter counter;
};

static const struct bad_mad bad_mads[] = {
	{ "empty", 0, 1, 0x04, 1, 1, 1, false, MADCM_CNT_RX_SHORT },
	{ "23 bytes", 23, 1, 0x04, 1, 1, 1, false, MADCM_CNT_RX_SHORT },
	{ "IB MAD of 255 bytes", 255, 1, 0x04, 1, 1, 1, false,
	  MADCM_CNT_RX_SHORT },
	{ "IB MAD of 257 bytes", 257, 1, 0x04, 1, 1, 1, false,
	  MADCM_CNT_RX_LONG },
	{ "OPA MAD of 2049 bytes", 2049, 0x80, 0x04, 1, 1, 1, true,
	  MADCM_CNT_RX_LONG },
	{ "base version 0", 256, 0, 0x04, 1, 1, 1, false,
	  MADCM_CNT_RX_BASE_VERSION },
	{ "base version 2", 256, 2, 0x04, 1, 1, 1, false,
	  MADCM_CNT_RX_BASE_VERSION },
	{ "OPA base version on IB port", 256, 0x80, 0x04, 1, 1, 1, false,
	  MADCM_CNT_RX_BASE_VERSION },
	{ "class version 0x83", 256, 1, 0x04, 0x83, 1, 1, false,
	  MADCM_CNT_RX_CLASS_VERSION },
	{ "class version 0xff", 256, 1, 0x04, 0xff, 1, 1, false,
	  MADCM_CNT_RX_CLASS_VERSION },
	{ "SMP on QP1", 256, 1, 0x01, 1, 1, 1, false, MADCM_CNT_RX_WRONG_QP },
	{ "GMP on QP0", 256, 1, 0x04, 1, 1, 0, false, MADCM_CNT_RX_WRONG_QP },
	{ "MAD on QP 7", 256, 1, 0x04, 1, 1, 7, false,
	  MADCM_CNT_RX_WRONG_QP },
	{ "CM Get of non-ClassPortInfo", 256, 1, 0x07, 2, 1, 1, false,
	  MADCM_CNT_RX_BAD_METHOD },
	{ "unclaimed Trap", 256, 1, 0x04, 1, SPEC_METHOD_TRAP, 1, false,
	  MADCM_CNT_RX_NO_AGENT },
	{ "unclaimed GetResp", 256, 1, 0x04, 1, SPEC_METHOD_GET_RESP, 1,
	  false, MADCM_CNT_RX_UNMATCHED_RESP },
};

static void bad_mad_desc(const struct bad_mad *b, char *desc)
{
	strscpy(desc, b->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_mad, bad_mads, bad_mad_desc);

static void nop_send(struct ib_mad_agent *a, struct ib_mad_send_wc *wc)
{
}

/* A catch-all agent that must never see any of the bad MADs. */
static void malformed_mad_dropped_and_counted(struct kunit *test)
{
	const struct bad_mad *b = test->param_value;
	struct mt_manual *mm = mt_manual_port(test, 1, b->opa_port);
	static const u8 methods[] = { SPEC_METHOD_GET, SPEC_METHOD_TRAP };
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct ib_mad_reg_req req;
	struct ib_mad_hdr *hdr;
	u8 *mad;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	mt_counts_init(c, 0);
	mt_reg_req(&req, 0x07, 2, methods, 1);
	mt_register(test, mm->port, IB_QPT_GSI, &req, 0, nop_send,
		    mt_count_recv_handler, c);
	mad = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mad);
	hdr = (struct ib_mad_hdr *)mad;
	hdr->base_version = b->base_version;
	hdr->mgmt_class = b->mgmt_class;
	hdr->class_version = b->class_version;
	hdr->method = b->method;
	hdr->attr_id = cpu_to_be16(0x10);
	mt_manual_deliver(mm, mad, b->len, b->qpn, LID_PEER, 1);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, b->counter), 1);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX), 1);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX_DISPATCHED),
			0);
	for (i = MADCM_CNT_RX_SHORT; i < MADCM_CNT_RX_DISPATCHED; i++)
		if (i != b->counter)
			KUNIT_EXPECT_EQ_MSG(test, mt_counter(mm->port, i), 0,
					    "counter %d", i);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->recvs), 0);
	KUNIT_EXPECT_EQ(test, mm->nr_posts, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mm->port->live_recvs), 0);
}

struct unsup_case {
	const char *name;
	u8 mgmt_class;
	u8 method;
	u32 qpn;
	bool reply;
	u16 status;
};

static const struct unsup_case unsup_cases[] = {
	{ "Get of unclaimed GS class", 0x04, SPEC_METHOD_GET, 1, true,
	  SPEC_STATUS_UNSUP_METHOD_ATTR },
	{ "Set of unclaimed GS class", 0x04, SPEC_METHOD_SET, 1, true,
	  SPEC_STATUS_UNSUP_METHOD_ATTR },
	{ "Get of unclaimed LID routed SMP", 0x01, SPEC_METHOD_GET, 0, true,
	  SPEC_STATUS_UNSUP_METHOD_ATTR },
	/* Directed route: the D bit (status bit 15) set in the reply. */
	{ "Get of unclaimed DR SMP", 0x81, SPEC_METHOD_GET, 0, true,
	  0x8000 | SPEC_STATUS_UNSUP_METHOD_ATTR },
	{ "Trap of unclaimed class", 0x04, SPEC_METHOD_TRAP, 1, false, 0 },
	{ "Get of unclaimed method", 0x04, 0x14, 1, false, 0 },
};

static void unsup_desc(const struct unsup_case *u, char *desc)
{
	strscpy(desc, u->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(unsup, unsup_cases, unsup_desc);

static void unclaimed_get_set_answered_unsupported(struct kunit *test)
{
	const struct unsup_case *u = test->param_value;
	struct mt_manual *mm = mt_manual_port(test, 1, false);
	u8 mad[256] = {};
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)mad;
	struct ib_mad_hdr *rhdr;
	struct mt_post *p;

	hdr->base_version = 1;
	hdr->mgmt_class = u->mgmt_class;
	hdr->class_version = 1;
	hdr->method = u->method;
	hdr->tid = cpu_to_be64(0x1122334455667788ULL);
	hdr->attr_id = cpu_to_be16(0x15);
	memset(mad + 64, 0x77, 64);
	mt_manual_deliver(mm, mad, sizeof(mad), u->qpn, LID_PEER, 33);
	p = mt_manual_pop(mm);
	if (!u->reply) {
		KUNIT_EXPECT_NULL(test, p);
		KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX_NO_AGENT),
				1);
		mt_manual_complete(mm, p, IB_WC_SUCCESS);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, p);
	rhdr = (struct ib_mad_hdr *)p->mad;
	/* Back to the sender, from the QP it came to. */
	KUNIT_EXPECT_EQ(test, p->dlid, LID_PEER);
	KUNIT_EXPECT_EQ(test, p->remote_qpn, 33);
	KUNIT_EXPECT_EQ(test, p->src_qpn, u->qpn);
	KUNIT_EXPECT_EQ(test, p->len, 256);
	KUNIT_EXPECT_EQ(test, rhdr->method, SPEC_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rhdr->status), u->status);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rhdr->tid), 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rhdr->attr_id), 0x15);
	KUNIT_EXPECT_EQ(test, rhdr->mgmt_class, u->mgmt_class);
	KUNIT_EXPECT_EQ(test, p->mad[64], 0x77);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_TX_UNSUPPORTED), 1);
	mt_manual_complete(mm, p, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&mm->port->live_replies), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mm->port->live_ahs), 0);
}

/* Requests go to the agent of their method; vendor MADs by OUI too. */
static void requests_routed_by_method_and_oui(struct kunit *test)
{
	struct mt_manual *mm = mt_manual_port(test, 1, false);
	struct mt_counts *cs = kunit_kcalloc(test, 4, sizeof(*cs), GFP_KERNEL);
	static const u8 get[] = { SPEC_METHOD_GET }, set[] = { SPEC_METHOD_SET };
	struct mt_counts *get_c = &cs[0], *set_c = &cs[1], *v1_c = &cs[2];
	struct mt_counts *v2_c = &cs[3];
	struct ib_mad_reg_req req;
	u8 mad[256] = {};
	struct ib_vendor_mad *vmad = (struct ib_vendor_mad *)mad;

	KUNIT_ASSERT_NOT_NULL(test, cs);
	mt_counts_init(get_c, 0);
	mt_counts_init(set_c, 0);
	mt_counts_init(v1_c, 0);
	mt_counts_init(v2_c, 0);
	mt_reg_req(&req, 0x04, 1, get, 1);
	mt_register(test, mm->port, IB_QPT_GSI, &req, 0, nop_send,
		    mt_count_recv_handler, get_c);
	mt_reg_req(&req, 0x04, 1, set, 1);
	mt_register(test, mm->port, IB_QPT_GSI, &req, 0, nop_send,
		    mt_count_recv_handler, set_c);
	mt_reg_req(&req, 0x30, 1, get, 1);
	req.oui[2] = 1;
	mt_register(test, mm->port, IB_QPT_GSI, &req, 0, nop_send,
		    mt_count_recv_handler, v1_c);
	req.oui[2] = 2;
	mt_register(test, mm->port, IB_QPT_GSI, &req, 0, nop_send,
		    mt_count_recv_handler, v2_c);

	vmad->mad_hdr.base_version = 1;
	vmad->mad_hdr.mgmt_class = 0x04;
	vmad->mad_hdr.class_version = 1;
	vmad->mad_hdr.method = SPEC_METHOD_SET;
	mt_manual_deliver(mm, mad, sizeof(mad), 1, LID_PEER, 1);
	vmad->mad_hdr.method = SPEC_METHOD_GET;
	mt_manual_deliver(mm, mad, sizeof(mad), 1, LID_PEER, 1);
	mt_manual_deliver(mm, mad, sizeof(mad), 1, LID_PEER, 1);
	vmad->mad_hdr.mgmt_class = 0x30;
	vmad->oui[2] = 2;
	mt_manual_deliver(mm, mad, sizeof(mad), 1, LID_PEER, 1);
	/* An OUI nobody registered: a Get answered as unsupported. */
	vmad->oui[2] = 3;
	mt_manual_deliver(mm, mad, sizeof(mad), 1, LID_PEER, 1);

	KUNIT_EXPECT_EQ(test, atomic_read(&set_c->recvs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&get_c->recvs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&v1_c->recvs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v2_c->recvs), 1);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_TX_UNSUPPORTED), 1);
	mt_manual_complete(mm, mt_manual_pop(mm), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&mm->port->live_recvs), 0);
}

/* Every allocation of the receive path failing: a counter, no leak. */
static void receive_allocation_failures(struct kunit *test)
{
	static const enum madcm_fault_site sites[] = {
		MADCM_FAULT_RECV, MADCM_FAULT_REPLY, MADCM_FAULT_AH,
	};
	struct mt_manual *mm = mt_manual_port(test, 1, false);
	u8 mad[256] = {};
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)mad;
	int i;

	hdr->base_version = 1;
	hdr->mgmt_class = 0x04;
	hdr->class_version = 1;
	hdr->method = SPEC_METHOD_GET;
	for (i = 0; i < ARRAY_SIZE(sites); i++) {
		madcm_fault_arm(sites[i], 1);
		mt_manual_deliver(mm, mad, sizeof(mad), 1, LID_PEER, 1);
		KUNIT_EXPECT_EQ_MSG(test, madcm_fault_hits(), 1U, "site %d",
				    sites[i]);
		madcm_fault_disarm();
		KUNIT_EXPECT_EQ(test, mm->nr_posts, 0);
	}
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX_NOMEM), 1);
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_TX_REPLY_FAIL), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&mm->port->live_recvs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mm->port->live_ahs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mm->port->live_replies), 0);
}

/*
 * Random MADs from the wire, biased towards plausible headers: none may
 * crash or leak, and each ends in exactly one counter.
 */
static void random_mads_each_end_in_one_counter(struct kunit *test)
{
	static const u8 classes[] = { 0x01, 0x03, 0x04, 0x07, 0x30, 0x81,
				      0x09 };
	static const u8 methods[] = { 0x01, 0x02, 0x03, 0x05, 0x06, 0x07,
				      0x81, 0x86 };
	static const enum madcm_port_counter ends[] = {
		MADCM_CNT_RX_SHORT, MADCM_CNT_RX_LONG,
		MADCM_CNT_RX_BASE_VERSION, MADCM_CNT_RX_CLASS_VERSION,
		MADCM_CNT_RX_WRONG_QP, MADCM_CNT_RX_BAD_METHOD,
		MADCM_CNT_RX_NO_AGENT, MADCM_CNT_RX_UNMATCHED_RESP,
		MADCM_CNT_RX_RMPP, MADCM_CNT_RX_NOMEM, MADCM_CNT_RX_DISPATCHED,
		MADCM_CNT_TX_UNSUPPORTED, MADCM_CNT_TX_REPLY_FAIL,
	};
	struct mt_manual *mm = mt_manual_port(test, 1, true);
	struct mt_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	static const u8 get[] = { SPEC_METHOD_GET, SPEC_METHOD_SET };
	struct ib_mad_reg_req req;
	struct ib_mad_hdr *hdr;
	struct rnd_state rnd;
	long sum = 0;
	u32 qpn;
	u8 *mad;
	int i;

	mad = kunit_kzalloc(test, 3000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mad);
	KUNIT_ASSERT_NOT_NULL(test, c);
	mt_counts_init(c, 0);
	mt_reg_req(&req, 0x04, 1, get, 2);
	mt_register(test, mm->port, IB_QPT_GSI, &req, 0, nop_send,
		    mt_count_recv_handler, c);
	mt_reg_req(&req, 0x03, 2, get, 2);
	mt_register(test, mm->port, IB_QPT_GSI, &req, 1, nop_send,
		    mt_count_recv_handler, c);
	hdr = (struct ib_mad_hdr *)mad;
	prandom_seed_state(&rnd, 31337);
	for (i = 0; i < 3000; i++) {
		u32 r = prandom_u32_state(&rnd);
		size_t len;

		prandom_bytes_state(&rnd, mad, 2100);
		len = r % 8 == 0 ? prandom_u32_state(&rnd) % 2100 :
		      r % 8 == 1 ? 100 + prandom_u32_state(&rnd) % 1900 : 256;
		qpn = (r >> 24) % 3;
		if (r & 0x100)
			hdr->base_version = r & 0x200 ? 1 : 0x80;
		if (r & 0x400)
			hdr->mgmt_class = classes[(r >> 12) % ARRAY_SIZE(classes)];
		if (r & 0x800)
			hdr->method = methods[(r >> 16) % ARRAY_SIZE(methods)];
		if (r & 0x1000)
			hdr->class_version = (r >> 20) % 4;
		/* Half of them: a plausible GMP header, random contents. */
		if (r & 0x2000) {
			len = 256;
			qpn = 1;
			hdr->base_version = 1;
			hdr->mgmt_class = r & 0x4000 ? 0x04 : 0x03;
			hdr->class_version = r & 0x4000 ? 1 : 2;
			hdr->method = methods[(r >> 16) % ARRAY_SIZE(methods)];
		}
		mt_manual_deliver(mm, mad, len, qpn, 2, 1);
		/* The port's replies complete as they would on a wire. */
		mt_manual_complete(mm, mt_manual_pop(mm), IB_WC_SUCCESS);
		if (!(i % 256))
			cond_resched();
	}
	for (i = 0; i < ARRAY_SIZE(ends); i++)
		sum += mt_counter(mm->port, ends[i]);
	KUNIT_EXPECT_EQ(test, sum, mt_counter(mm->port, MADCM_CNT_RX));
	KUNIT_EXPECT_EQ(test, mt_counter(mm->port, MADCM_CNT_RX), 3000);
	KUNIT_EXPECT_GT(test, mt_counter(mm->port, MADCM_CNT_RX_DISPATCHED), 0);
	KUNIT_EXPECT_GT(test, mt_counter(mm->port, MADCM_CNT_TX_UNSUPPORTED), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mm->port->live_recvs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mm->port->live_replies), 0);
}

static struct kunit_case mad_recv_cases[] = {
	KUNIT_CASE_PARAM(malformed_mad_dropped_and_counted, bad_mad_gen_params),
	KUNIT_CASE_PARAM(unclaimed_get_set_answered_unsupported,
			 unsup_gen_params),
	KUNIT_CASE(requests_routed_by_method_and_oui),
	KUNIT_CASE(receive_allocation_failures),
	KUNIT_CASE(random_mads_each_end_in_one_counter),
	{}
};

static struct kunit_suite mad_recv_suite = {
	.name = "madcm_mad_recv",
	.test_cases = mad_recv_cases,
};

kunit_test_suite(mad_recv_suite);
