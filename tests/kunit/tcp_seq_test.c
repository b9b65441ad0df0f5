// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: sequence-space checks. The cases are RFC 9293 3.10.7.4's
 * acceptability table and the rules of RFC 5961 sections 3.2, 4.2 and 5.2,
 * each written out with concrete numbers, including windows that wrap
 * around 2^32.
 */
#include <kunit/test.h>
#include "irdma_cm/tcp_seg.h"
#include "irdma_cm/tcp_seq.h"

struct accept_case {
	const char *name;
	u32 rcv_nxt, rcv_wnd, seq, len;
	bool ok;
};

static const struct accept_case accept_cases[] = {
	/* Zero length, zero window: only SEG.SEQ = RCV.NXT. */
	{ "len0 wnd0 at rcv_nxt", 1000, 0, 1000, 0, true },
	{ "len0 wnd0 one after", 1000, 0, 1001, 0, false },
	{ "len0 wnd0 one before", 1000, 0, 999, 0, false },
	/* Zero length, open window: RCV.NXT =< SEG.SEQ < RCV.NXT+RCV.WND. */
	{ "len0 at window start", 1000, 100, 1000, 0, true },
	{ "len0 at window end-1", 1000, 100, 1099, 0, true },
	{ "len0 at window end", 1000, 100, 1100, 0, false },
	{ "len0 before window", 1000, 100, 999, 0, false },
	/* Data, zero window: never. */
	{ "data wnd0 at rcv_nxt", 1000, 0, 1000, 1, false },
	/* Data, open window: first or last octet inside. */
	{ "data inside", 1000, 100, 1010, 10, true },
	{ "data starts before, ends inside", 1000, 100, 990, 11, true },
	{ "data ends just before", 1000, 100, 990, 10, false },
	{ "data starts at last octet", 1000, 100, 1099, 50, true },
	{ "data starts at window end", 1000, 100, 1100, 5, false },
	{ "old duplicate", 1000, 100, 500, 100, false },
	/* Windows across the wrap of the sequence space. */
	{ "wrap: len0 just below 2^32", 0xffffff00, 0x200, 0xffffffff, 0, true },
	{ "wrap: len0 past zero", 0xffffff00, 0x200, 0x00000050, 0, true },
	{ "wrap: len0 past window", 0xffffff00, 0x200, 0x00000100, 0, false },
	{ "wrap: data ending past zero", 0xfffffff0, 0x100, 0xffffffe0, 0x20, true },
	{ "wrap: data before window", 0xfffffff0, 0x100, 0xffffffe0, 0x10, false },
};

static void accept_case_desc(const struct accept_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(accept_case, accept_cases, accept_case_desc);

static void seq_acceptability(struct kunit *test)
{
	const struct accept_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, irdma_seq_acceptable(c->rcv_nxt, c->rcv_wnd, c->seq, c->len), c->ok);
}

static void seq_compare_wraps(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, irdma_seq_lt(1, 2));
	KUNIT_EXPECT_FALSE(test, irdma_seq_lt(2, 2));
	KUNIT_EXPECT_TRUE(test, irdma_seq_le(2, 2));
	KUNIT_EXPECT_TRUE(test, irdma_seq_lt(0xffffffff, 0));
	KUNIT_EXPECT_TRUE(test, irdma_seq_lt(0xfffffff0, 0x10));
	KUNIT_EXPECT_FALSE(test, irdma_seq_lt(0x10, 0xfffffff0));
	/* Half the space apart is the limit of "before". */
	KUNIT_EXPECT_TRUE(test, irdma_seq_lt(0, 0x7fffffff));
	KUNIT_EXPECT_FALSE(test, irdma_seq_lt(0, 0x80000001));
}

/* One connection: RCV.NXT 5000, RCV.WND 1000, SND.UNA 9000, SND.NXT 9500,
 * the peer's largest window 2000.
 */
static const struct irdma_tcp_rcv_state conn = {
	.rcv_nxt = 5000, .rcv_wnd = 1000,
	.snd_una = 9000, .snd_nxt = 9500, .max_snd_wnd = 2000,
};

struct verdict_case {
	const char *name;
	u32 seq, ack;
	u8 flags;
	u32 len;
	enum irdma_seq_verdict want;
};

#define A IRDMA_TCP_ACK
static const struct verdict_case verdict_cases[] = {
	{ "in-order data", 5000, 9500, A, 100, IRDMA_SEQ_ACCEPT },
	{ "pure ACK of everything", 5000, 9500, A, 0, IRDMA_SEQ_ACCEPT },
	{ "duplicate ACK at SND.UNA", 5000, 9000, A, 0, IRDMA_SEQ_ACCEPT },
	{ "old ACK within MAX.SND.WND", 5000, 7000, A, 0, IRDMA_SEQ_ACCEPT },
	{ "ACK older than MAX.SND.WND (5961 5.2)", 5000, 6999, A, 0, IRDMA_SEQ_CHALLENGE_ACK },
	{ "ACK of unsent data", 5000, 9501, A, 0, IRDMA_SEQ_DROP_ACK },
	{ "data beyond the window", 6000, 9500, A, 10, IRDMA_SEQ_DROP_ACK },
	{ "retransmitted old data", 4000, 9500, A, 100, IRDMA_SEQ_DROP_ACK },
	{ "no ACK flag", 5000, 0, 0, 10, IRDMA_SEQ_DROP },
	{ "FIN counts as an octet", 5999, 9500, A | IRDMA_TCP_FIN, 0, IRDMA_SEQ_ACCEPT },
	{ "RST exactly at RCV.NXT (5961 3.2)", 5000, 0, IRDMA_TCP_RST, 0, IRDMA_SEQ_RESET },
	{ "RST with ACK at RCV.NXT", 5000, 9500, IRDMA_TCP_RST | A, 0, IRDMA_SEQ_RESET },
	{ "RST inside the window", 5001, 0, IRDMA_TCP_RST, 0, IRDMA_SEQ_CHALLENGE_ACK },
	{ "RST at the window's last octet", 5999, 0, IRDMA_TCP_RST, 0,
	  IRDMA_SEQ_CHALLENGE_ACK },
	{ "RST past the window", 6000, 0, IRDMA_TCP_RST, 0, IRDMA_SEQ_DROP },
	{ "RST before RCV.NXT", 4999, 0, IRDMA_TCP_RST, 0, IRDMA_SEQ_DROP },
	{ "SYN in the window (5961 4.2)", 5000, 0, IRDMA_TCP_SYN, 0, IRDMA_SEQ_CHALLENGE_ACK },
	{ "SYN-ACK in the window", 5500, 9500, IRDMA_TCP_SYN | A, 0, IRDMA_SEQ_CHALLENGE_ACK },
	{ "SYN outside the window", 100, 0, IRDMA_TCP_SYN, 0, IRDMA_SEQ_DROP_ACK },
};

#undef A

static void verdict_case_desc(const struct verdict_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(verdict_case, verdict_cases, verdict_case_desc);

static void check_seq_verdict(struct kunit *test)
{
	const struct verdict_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, irdma_check_seq(&conn, c->seq, c->ack, c->flags, c->len), c->want);
}

static void check_seq_zero_window_rst(struct kunit *test)
{
	struct irdma_tcp_rcv_state st = conn;

	st.rcv_wnd = 0;
	KUNIT_EXPECT_EQ(test, irdma_check_seq(&st, 5000, 0, IRDMA_TCP_RST, 0), IRDMA_SEQ_RESET);
	KUNIT_EXPECT_EQ(test, irdma_check_seq(&st, 5001, 0, IRDMA_TCP_RST, 0), IRDMA_SEQ_DROP);
	KUNIT_EXPECT_EQ(test, irdma_check_seq(&st, 5000, 9500, IRDMA_TCP_ACK, 0),
			IRDMA_SEQ_ACCEPT);
	KUNIT_EXPECT_EQ(test, irdma_check_seq(&st, 5000, 9500, IRDMA_TCP_ACK, 1),
			IRDMA_SEQ_DROP_ACK);
}

static struct kunit_case tcp_seq_cases[] = {
	KUNIT_CASE_PARAM(seq_acceptability, accept_case_gen_params),
	KUNIT_CASE(seq_compare_wraps),
	KUNIT_CASE_PARAM(check_seq_verdict, verdict_case_gen_params),
	KUNIT_CASE(check_seq_zero_window_rst),
	{}
};

static struct kunit_suite tcp_seq_suite = {
	.name = "madcm_cm_tcp_seq",
	.test_cases = tcp_seq_cases,
};

kunit_test_suite(tcp_seq_suite);
