// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the CM's steering table. A segment is the CM's when its 4-tuple
 * is a connection entry, or its destination address and port (or the
 * wildcard address of its family and that port) is a listener, on the
 * same VLAN.
 */
#include <kunit/test.h>
#include <net/ipv6.h>
#include "irdma_cm/qhash.h"

static struct irdma_cm_addr v4(u32 host_order_ip, u16 port)
{
	struct irdma_cm_addr a = { .port = port };

	ipv6_addr_set_v4mapped(htonl(host_order_ip), &a.ip);
	return a;
}

static struct irdma_cm_addr v6(u8 last, u16 port)
{
	struct irdma_cm_addr a = { .port = port };

	a.ip.s6_addr[0] = 0x20;
	a.ip.s6_addr[1] = 0x01;
	a.ip.s6_addr[2] = 0x0d;
	a.ip.s6_addr[3] = 0xb8;
	a.ip.s6_addr[15] = last;
	return a;
}

struct table_ctx {
	u32 max;
	int ret;
};

static int table_init(struct kunit_resource *res, void *context)
{
	struct table_ctx *ctx = context;
	struct irdma_qhash_table *tbl = kzalloc(sizeof(*tbl), GFP_KERNEL);

	if (!tbl)
		return -ENOMEM;
	ctx->ret = irdma_qhash_init(tbl, ctx->max);
	if (ctx->ret) {
		kfree(tbl);
		return ctx->ret;
	}
	res->data = tbl;
	return 0;
}

static void table_free(struct kunit_resource *res)
{
	irdma_qhash_destroy(res->data);
	kfree(res->data);
}

/* A table destroyed when the test ends, however it ends. */
static struct irdma_qhash_table *new_table(struct kunit *test, u32 max)
{
	struct table_ctx ctx = { .max = max };
	struct irdma_qhash_table *tbl;

	tbl = kunit_alloc_resource(test, table_init, table_free, GFP_KERNEL, &ctx);
	KUNIT_ASSERT_NOT_NULL(test, tbl);
	return tbl;
}

static bool match(struct irdma_qhash_table *tbl, struct irdma_cm_addr loc,
		  struct irdma_cm_addr rem, u16 vlan, enum irdma_qhash_type *type)
{
	enum irdma_qhash_type t;

	return irdma_qhash_match(tbl, &loc, &rem, vlan, type ?: &t);
}

#define PEER v4(0xc0000202, 40000)	/* 192.0.2.2:40000 */

static void listener_on_address(struct kunit *test)
{
	struct irdma_qhash_table *tbl = new_table(test, 16);
	struct irdma_cm_qhash l = { IRDMA_QHASH_LISTEN, v4(0xc0000201, 5000), {}, IRDMA_NO_VLAN };
	enum irdma_qhash_type type;

	KUNIT_ASSERT_EQ(test, irdma_qhash_insert(tbl, &l, GFP_KERNEL), 0);
	KUNIT_EXPECT_TRUE(test, match(tbl, v4(0xc0000201, 5000), PEER, IRDMA_NO_VLAN, &type));
	KUNIT_EXPECT_EQ(test, type, IRDMA_QHASH_LISTEN);
	/* Another port, another address, a VLAN, the same port over IPv6. */
	KUNIT_EXPECT_FALSE(test, match(tbl, v4(0xc0000201, 5001), PEER, IRDMA_NO_VLAN, NULL));
	KUNIT_EXPECT_FALSE(test, match(tbl, v4(0xc0000203, 5000), PEER, IRDMA_NO_VLAN, NULL));
	KUNIT_EXPECT_FALSE(test, match(tbl, v4(0xc0000201, 5000), PEER, 100, NULL));
	KUNIT_EXPECT_FALSE(test, match(tbl, v6(1, 5000), v6(2, 40000), IRDMA_NO_VLAN, NULL));
}

/*
 * The IPv4 wildcard ::ffff:0.0.0.0 is any IPv4 address and nothing else,
 * as a socket bound to 0.0.0.0 takes no IPv6 segment.
 */
static void ipv4_wildcard_takes_ipv4_only(struct kunit *test)
{
	struct irdma_qhash_table *tbl = new_table(test, 16);
	struct irdma_cm_qhash any4 = { IRDMA_QHASH_LISTEN, v4(0, 6000), {}, 7 };

	KUNIT_ASSERT_EQ(test, irdma_qhash_insert(tbl, &any4, GFP_KERNEL), 0);
	KUNIT_EXPECT_TRUE(test, match(tbl, v4(0xc0000201, 6000), PEER, 7, NULL));
	KUNIT_EXPECT_TRUE(test, match(tbl, v4(0x0a000001, 6000), PEER, 7, NULL));
	KUNIT_EXPECT_FALSE(test, match(tbl, v6(9, 6000), v6(2, 1), 7, NULL));
	KUNIT_EXPECT_FALSE(test, match(tbl, v4(0xc0000201, 6001), PEER, 7, NULL));
	KUNIT_EXPECT_FALSE(test, match(tbl, v4(0xc0000201, 6000), PEER,
				       IRDMA_NO_VLAN, NULL));
}

/*
 * The IPv6 wildcard :: alone is any IPv6 address (an IPV6_V6ONLY socket
 * on [::]); the backend adds the IPv4 wildcard for a dual-stack one.
 */
static void ipv6_wildcard_takes_ipv6_only(struct kunit *test)
{
	struct irdma_qhash_table *tbl = new_table(test, 16);
	struct irdma_cm_qhash any6 = { IRDMA_QHASH_LISTEN, { .port = 6000 }, {}, 7 };

	KUNIT_ASSERT_EQ(test, irdma_qhash_insert(tbl, &any6, GFP_KERNEL), 0);
	KUNIT_EXPECT_TRUE(test, match(tbl, v6(9, 6000), v6(2, 1), 7, NULL));
	KUNIT_EXPECT_FALSE(test, match(tbl, v4(0xc0000201, 6000), PEER, 7, NULL));
	KUNIT_EXPECT_FALSE(test, match(tbl, v6(9, 6001), v6(2, 1), 7, NULL));
	KUNIT_EXPECT_FALSE(test, match(tbl, v6(9, 6000), v6(2, 1),
				       IRDMA_NO_VLAN, NULL));
}

/* Both wildcards on one port are two entries, each removed on its own. */
static void both_wildcards_are_distinct(struct kunit *test)
{
	struct irdma_qhash_table *tbl = new_table(test, 16);
	struct irdma_cm_qhash any6 = { IRDMA_QHASH_LISTEN, { .port = 6000 }, {}, 7 };
	struct irdma_cm_qhash any4 = { IRDMA_QHASH_LISTEN, v4(0, 6000), {}, 7 };

	KUNIT_ASSERT_EQ(test, irdma_qhash_insert(tbl, &any6, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, irdma_qhash_insert(tbl, &any4, GFP_KERNEL), 0);
	KUNIT_EXPECT_TRUE(test, match(tbl, v4(0xc0000201, 6000), PEER, 7, NULL));
	KUNIT_EXPECT_TRUE(test, match(tbl, v6(9, 6000), v6(2, 1), 7, NULL));
	KUNIT_EXPECT_EQ(test, irdma_qhash_remove(tbl, &any4), 0);
	KUNIT_EXPECT_FALSE(test, match(tbl, v4(0xc0000201, 6000), PEER, 7, NULL));
	KUNIT_EXPECT_TRUE(test, match(tbl, v6(9, 6000), v6(2, 1), 7, NULL));
}

static void connection_exact_tuple(struct kunit *test)
{
	struct irdma_qhash_table *tbl = new_table(test, 16);
	struct irdma_cm_qhash c = { IRDMA_QHASH_CONN, v4(0xc0000201, 33000), PEER, IRDMA_NO_VLAN };
	struct irdma_cm_qhash l = { IRDMA_QHASH_LISTEN, v4(0xc0000201, 33000), {}, IRDMA_NO_VLAN };
	enum irdma_qhash_type type;

	KUNIT_ASSERT_EQ(test, irdma_qhash_insert(tbl, &c, GFP_KERNEL), 0);
	KUNIT_EXPECT_TRUE(test, match(tbl, c.loc, PEER, IRDMA_NO_VLAN, &type));
	KUNIT_EXPECT_EQ(test, type, IRDMA_QHASH_CONN);
	/* Same local end, another peer port or address: not this connection. */
	KUNIT_EXPECT_FALSE(test, match(tbl, c.loc, v4(0xc0000202, 40001), IRDMA_NO_VLAN, NULL));
	KUNIT_EXPECT_FALSE(test, match(tbl, c.loc, v4(0xc0000204, 40000), IRDMA_NO_VLAN, NULL));
	/* With a listener on the same local end, the connection wins. */
	KUNIT_ASSERT_EQ(test, irdma_qhash_insert(tbl, &l, GFP_KERNEL), 0);
	KUNIT_EXPECT_TRUE(test, match(tbl, c.loc, PEER, IRDMA_NO_VLAN, &type));
	KUNIT_EXPECT_EQ(test, type, IRDMA_QHASH_CONN);
	KUNIT_EXPECT_TRUE(test, match(tbl, c.loc, v4(0xc0000209, 1), IRDMA_NO_VLAN, &type));
	KUNIT_EXPECT_EQ(test, type, IRDMA_QHASH_LISTEN);
}

static void insert_remove_errors(struct kunit *test)
{
	struct irdma_qhash_table *tbl = new_table(test, 2);
	struct irdma_cm_qhash a = { IRDMA_QHASH_LISTEN, v6(1, 1), {}, IRDMA_NO_VLAN };
	struct irdma_cm_qhash b = { IRDMA_QHASH_LISTEN, v6(1, 2), {}, IRDMA_NO_VLAN };
	struct irdma_cm_qhash c = { IRDMA_QHASH_LISTEN, v6(1, 3), {}, IRDMA_NO_VLAN };
	struct irdma_cm_qhash port0 = { IRDMA_QHASH_LISTEN, v6(1, 0), {}, IRDMA_NO_VLAN };
	struct irdma_cm_qhash rport0 = { IRDMA_QHASH_CONN, v6(1, 9), v6(2, 0), IRDMA_NO_VLAN };

	KUNIT_EXPECT_EQ(test, irdma_qhash_insert(tbl, &port0, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_qhash_insert(tbl, &rport0, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_qhash_insert(tbl, &a, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, irdma_qhash_insert(tbl, &a, GFP_KERNEL), -EEXIST);
	KUNIT_EXPECT_EQ(test, irdma_qhash_insert(tbl, &b, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, irdma_qhash_insert(tbl, &c, GFP_KERNEL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&tbl->count), 2);
	KUNIT_EXPECT_EQ(test, irdma_qhash_remove(tbl, &a), 0);
	KUNIT_EXPECT_EQ(test, irdma_qhash_remove(tbl, &a), -ENOENT);
	KUNIT_EXPECT_FALSE(test, match(tbl, a.loc, v6(2, 1), IRDMA_NO_VLAN, NULL));
	/* Room again for the third. */
	KUNIT_EXPECT_EQ(test, irdma_qhash_insert(tbl, &c, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tbl->count), 2);
}

/* Ten thousand connections on one listener port: each one found. */
static void many_connections(struct kunit *test)
{
	const int n = 10000;
	struct irdma_qhash_table *tbl = new_table(test, n);
	struct irdma_cm_qhash c = { IRDMA_QHASH_CONN, v4(0xc0000201, 5000), {}, IRDMA_NO_VLAN };
	enum irdma_qhash_type type;
	int i, missing = 0;

	for (i = 0; i < n; i++) {
		c.rem = v4(0x0a000000 + i / 1000, 10000 + i % 1000);
		KUNIT_ASSERT_EQ(test, irdma_qhash_insert(tbl, &c, GFP_KERNEL), 0);
	}
	for (i = 0; i < n; i++) {
		c.rem = v4(0x0a000000 + i / 1000, 10000 + i % 1000);
		if (!match(tbl, c.loc, c.rem, IRDMA_NO_VLAN, &type) || type != IRDMA_QHASH_CONN)
			missing++;
	}
	KUNIT_EXPECT_EQ(test, missing, 0);
	KUNIT_EXPECT_FALSE(test, match(tbl, c.loc, v4(0x0a000000, 11000), IRDMA_NO_VLAN, NULL));
	/* Half removed; the other half stays; the rest is freed by destroy. */
	for (i = 0; i < n; i += 2) {
		c.rem = v4(0x0a000000 + i / 1000, 10000 + i % 1000);
		KUNIT_ASSERT_EQ(test, irdma_qhash_remove(tbl, &c), 0);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&tbl->count), n / 2);
	c.rem = v4(0x0a000000, 10001);
	KUNIT_EXPECT_TRUE(test, match(tbl, c.loc, c.rem, IRDMA_NO_VLAN, NULL));
	c.rem = v4(0x0a000000, 10000);
	KUNIT_EXPECT_FALSE(test, match(tbl, c.loc, c.rem, IRDMA_NO_VLAN, NULL));
}

static struct kunit_case cm_qhash_cases[] = {
	KUNIT_CASE(listener_on_address),
	KUNIT_CASE(ipv4_wildcard_takes_ipv4_only),
	KUNIT_CASE(ipv6_wildcard_takes_ipv6_only),
	KUNIT_CASE(both_wildcards_are_distinct),
	KUNIT_CASE(connection_exact_tuple),
	KUNIT_CASE(insert_remove_errors),
	KUNIT_CASE(many_connections),
	{}
};

static struct kunit_suite cm_qhash_suite = {
	.name = "madcm_cm_qhash",
	.test_cases = cm_qhash_cases,
};

kunit_test_suite(cm_qhash_suite);
