// SPDX-License-Identifier: GPL-2.0-only
/*
 * Steering entries. A segment belongs to the CM when its 4-tuple is a
 * connection entry, or else when its destination address and port (or
 * the wildcard address of its family and that port) are a listener
 * entry; the VLAN must match in both cases. The two wildcards are
 * distinct: ::ffff:0.0.0.0 is any IPv4 address, :: any IPv6 address. A
 * listener on both families is two entries, as a dual-stack socket
 * holds the port in both.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "irdma_cm/qhash.h"

/* Compared with memcmp: no implicit padding, always fully initialised. */
struct irdma_qhash_key {
	struct in6_addr loc_ip;
	struct in6_addr rem_ip;
	u16 loc_port;
	u16 rem_port;
	u16 vlan_id;
	u8 type;
	u8 zero;
};

struct irdma_qhash_entry {
	struct rhash_head node;
	struct irdma_qhash_key key;
	struct rcu_head rcu;
};

static const struct rhashtable_params qhash_params = {
	.key_len = sizeof(struct irdma_qhash_key),
	.key_offset = offsetof(struct irdma_qhash_entry, key),
	.head_offset = offsetof(struct irdma_qhash_entry, node),
	.automatic_shrinking = true,
};

static void qhash_key(struct irdma_qhash_key *k, enum irdma_qhash_type type,
		      const struct irdma_cm_addr *loc,
		      const struct irdma_cm_addr *rem, u16 vlan_id)
{
	memset(k, 0, sizeof(*k));
	k->type = type;
	k->loc_ip = loc->ip;
	k->loc_port = loc->port;
	k->vlan_id = vlan_id;
	if (type != IRDMA_QHASH_LISTEN) {
		k->rem_ip = rem->ip;
		k->rem_port = rem->port;
	}
}

/**
 * irdma_qhash_init() - set up an empty steering table
 * @tbl: the table
 * @max: the most entries it may hold
 *
 * Return: 0 or a negative errno.
 */
int irdma_qhash_init(struct irdma_qhash_table *tbl, u32 max)
{
	atomic_set(&tbl->count, 0);
	tbl->max = max;
	return rhashtable_init(&tbl->ht, &qhash_params);
}

static void qhash_free_entry(void *ptr, void *arg)
{
	kfree(ptr);
}

/**
 * irdma_qhash_destroy() - free a steering table and every entry left in it
 * @tbl: the table; no lookup may run any more
 */
void irdma_qhash_destroy(struct irdma_qhash_table *tbl)
{
	rhashtable_free_and_destroy(&tbl->ht, qhash_free_entry, NULL);
}

/**
 * irdma_qhash_insert() - add a steering entry
 * @tbl: the table
 * @qh: what to steer; for a listener, the local address ::ffff:0.0.0.0
 *	means every IPv4 address, :: every IPv6 address
 * @gfp: allocation flags
 *
 * Return: 0, -EEXIST when the same entry is already there, -ENOSPC when
 * the table is full, -EINVAL for a port 0, -ENOMEM.
 */
int irdma_qhash_insert(struct irdma_qhash_table *tbl,
		       const struct irdma_cm_qhash *qh, gfp_t gfp)
{
	struct irdma_qhash_entry *e;
	int ret;

	if (!qh->loc.port || (qh->type != IRDMA_QHASH_LISTEN && !qh->rem.port))
		return -EINVAL;
	if (atomic_inc_return(&tbl->count) > tbl->max) {
		atomic_dec(&tbl->count);
		return -ENOSPC;
	}
	e = kzalloc(sizeof(*e), gfp);
	if (!e) {
		atomic_dec(&tbl->count);
		return -ENOMEM;
	}
	qhash_key(&e->key, qh->type, &qh->loc, &qh->rem, qh->vlan_id);
	ret = rhashtable_lookup_insert_fast(&tbl->ht, &e->node, qhash_params);
	if (ret) {
		kfree(e);
		atomic_dec(&tbl->count);
	}
	return ret;
}

/**
 * irdma_qhash_remove() - remove a steering entry
 * @tbl: the table
 * @qh: the entry, as it was inserted
 *
 * Return: 0 or -ENOENT.
 */
int irdma_qhash_remove(struct irdma_qhash_table *tbl,
		       const struct irdma_cm_qhash *qh)
{
	struct irdma_qhash_entry *e;
	struct irdma_qhash_key k;
	int ret = -ENOENT;

	qhash_key(&k, qh->type, &qh->loc, &qh->rem, qh->vlan_id);
	rcu_read_lock();
	e = rhashtable_lookup_fast(&tbl->ht, &k, qhash_params);
	if (e && !rhashtable_remove_fast(&tbl->ht, &e->node, qhash_params)) {
		atomic_dec(&tbl->count);
		kfree_rcu(e, rcu);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

static bool qhash_has(struct irdma_qhash_table *tbl,
		      const struct irdma_qhash_key *k)
{
	return rhashtable_lookup(&tbl->ht, k, qhash_params);
}

/**
 * irdma_qhash_has() - is this steering entry in the table?
 * @tbl: the table
 * @qh: the entry, as it would be inserted
 *
 * Context: Any context; takes the RCU read lock.
 * Return: true when it is.
 */
bool irdma_qhash_has(struct irdma_qhash_table *tbl,
		     const struct irdma_cm_qhash *qh)
{
	struct irdma_qhash_key k;
	bool hit;

	qhash_key(&k, qh->type, &qh->loc, &qh->rem, qh->vlan_id);
	rcu_read_lock();
	hit = qhash_has(tbl, &k);
	rcu_read_unlock();
	return hit;
}

/**
 * irdma_qhash_mem() - the memory a steering entry takes
 * @tbl: the table
 * @qh: the entry, as it was inserted
 *
 * Context: Any context; takes the RCU read lock.
 * Return: the octets of its slab object, or 0 when it is not in @tbl.
 */
size_t irdma_qhash_mem(struct irdma_qhash_table *tbl,
		       const struct irdma_cm_qhash *qh)
{
	struct irdma_qhash_entry *e;
	struct irdma_qhash_key k;
	size_t n = 0;

	qhash_key(&k, qh->type, &qh->loc, &qh->rem, qh->vlan_id);
	rcu_read_lock();
	e = rhashtable_lookup(&tbl->ht, &k, qhash_params);
	if (e)
		n = ksize(e);
	rcu_read_unlock();
	return n;
}

/**
 * irdma_qhash_match() - does a received segment belong to the CM?
 * @tbl: the table
 * @loc: the segment's destination (our side)
 * @rem: its source (the peer)
 * @vlan_id: its VLAN ID, or IRDMA_NO_VLAN
 * @type: set to the kind of entry that matched
 *
 * Four O(1) lookups at most: the connection, the connection the host's
 * TCP carries (not the CM's then: *@type IRDMA_QHASH_HOST), the listener
 * on @loc's address, the listener on the wildcard address of @loc's
 * family.
 *
 * Context: Any context; takes the RCU read lock.
 * Return: true when the segment is the CM's.
 */
bool irdma_qhash_match(struct irdma_qhash_table *tbl,
		       const struct irdma_cm_addr *loc,
		       const struct irdma_cm_addr *rem, u16 vlan_id,
		       enum irdma_qhash_type *type)
{
	struct irdma_cm_addr any = { .port = loc->port };
	struct irdma_qhash_key k;
	bool hit;

	if (ipv6_addr_v4mapped(&loc->ip))
		ipv6_addr_set_v4mapped(htonl(INADDR_ANY), &any.ip);
	rcu_read_lock();
	qhash_key(&k, IRDMA_QHASH_CONN, loc, rem, vlan_id);
	hit = qhash_has(tbl, &k);
	*type = IRDMA_QHASH_CONN;
	if (!hit) {
		k.type = IRDMA_QHASH_HOST;
		if (qhash_has(tbl, &k)) {
			*type = IRDMA_QHASH_HOST;
			rcu_read_unlock();
			return false;
		}
		*type = IRDMA_QHASH_LISTEN;
		qhash_key(&k, IRDMA_QHASH_LISTEN, loc, NULL, vlan_id);
		hit = qhash_has(tbl, &k);
	}
	if (!hit) {
		qhash_key(&k, IRDMA_QHASH_LISTEN, &any, NULL, vlan_id);
		hit = qhash_has(tbl, &k);
	}
	rcu_read_unlock();
	return hit;
}
