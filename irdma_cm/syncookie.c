// SPDX-License-Identifier: GPL-2.0-only
/*
 * SYN cookies: see syncookie.h and Documentation/irdma_cm_netdev.rst.
 */
#include <linux/bitfield.h>
#include <linux/build_bug.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include "irdma_cm/syncookie.h"

static_assert(sizeof(struct irdma_syncookie_in) == 48);

/*
 * The MSS values a cookie can carry, ascending: the minimum the CM takes,
 * the defaults of RFC 9293 3.7.1 (IPv4) and RFC 8200 5 (IPv6), the usual
 * Ethernet values behind tunnels and without, and a jumbo frame's.
 */
const u16 irdma_syncookie_mss[IRDMA_SYNCOOKIE_NR_MSS] = {
	64, 536, 1220, 1360, 1400, 1440, 1460, 8960,
};

/**
 * irdma_syncookie_mss_idx() - the largest MSS of the table the peer takes
 * @peer_mss: the MSS of the peer's SYN (its default when it sent none)
 *
 * Return: an index into irdma_syncookie_mss[]; 0 below the table.
 */
u8 irdma_syncookie_mss_idx(u16 peer_mss)
{
	u8 i;

	for (i = IRDMA_SYNCOOKIE_NR_MSS - 1; i > 0; i--)
		if (irdma_syncookie_mss[i] <= peer_mss)
			break;
	return i;
}

/**
 * irdma_syncookie_count() - the time counter now
 *
 * Return: seconds of the monotonic clock divided by
 * IRDMA_SYNCOOKIE_PERIOD_S.
 */
u32 irdma_syncookie_count(void)
{
	return (u32)(ktime_get_seconds() / IRDMA_SYNCOOKIE_PERIOD_S);
}

static u32 irdma_syncookie_hash(const siphash_key_t *key,
				const struct irdma_cm_tuple *t, u32 peer_isn,
				u32 count, u8 mss_idx)
{
	struct irdma_syncookie_in in;

	memset(&in, 0, sizeof(in));
	in.loc_ip = t->loc_ip;
	in.rem_ip = t->rem_ip;
	in.loc_port = t->loc_port;
	in.rem_port = t->rem_port;
	in.vlan_id = t->vlan_id;
	in.mss_idx = mss_idx;
	in.peer_isn = peer_isn;
	in.count = count;
	return (u32)siphash(&in, sizeof(in), key);
}

/**
 * irdma_syncookie_make() - the ISN of a cookie SYN-ACK
 * @key: the core's secret
 * @t: the connection's tuple, from our side
 * @peer_isn: the sequence number of the peer's SYN
 * @count: the time counter (irdma_syncookie_count())
 * @mss_idx: the MSS index (irdma_syncookie_mss_idx())
 *
 * Return: the hash's bits 31..8, then @count modulo 32 in bits 7..3 and
 * @mss_idx in bits 2..0.
 */
u32 irdma_syncookie_make(const siphash_key_t *key,
			 const struct irdma_cm_tuple *t, u32 peer_isn,
			 u32 count, u8 mss_idx)
{
	mss_idx &= IRDMA_SYNCOOKIE_MSS_MASK;
	return (irdma_syncookie_hash(key, t, peer_isn, count, mss_idx) &
		IRDMA_SYNCOOKIE_HASH_MASK) |
	       FIELD_PREP(IRDMA_SYNCOOKIE_COUNT_MASK, count) |
	       FIELD_PREP(IRDMA_SYNCOOKIE_MSS_MASK, mss_idx);
}

/**
 * irdma_syncookie_check() - does an ACK bring back a cookie of ours
 * @key: the core's secret
 * @t: the tuple of the ACK, from our side
 * @peer_isn: the ACK's sequence number minus one
 * @cookie: the ACK's acknowledgment number minus one
 * @now: the time counter now
 * @mss_idx: set to the cookie's MSS index when it is good
 *
 * The counter in the cookie must be @now or at most
 * IRDMA_SYNCOOKIE_MAX_AGE behind it, and the hash must match the tuple,
 * the peer's ISN, that counter and the MSS index.
 *
 * Return: true for a good cookie.
 */
bool irdma_syncookie_check(const siphash_key_t *key,
			   const struct irdma_cm_tuple *t, u32 peer_isn,
			   u32 cookie, u32 now, u8 *mss_idx)
{
	u32 low = FIELD_GET(IRDMA_SYNCOOKIE_COUNT_MASK, cookie);
	u32 age = (now - low) & (BIT(IRDMA_SYNCOOKIE_COUNT_BITS) - 1);
	u8 idx = FIELD_GET(IRDMA_SYNCOOKIE_MSS_MASK, cookie);

	if (age > IRDMA_SYNCOOKIE_MAX_AGE)
		return false;
	if (irdma_syncookie_make(key, t, peer_isn, now - age, idx) != cookie)
		return false;
	*mss_idx = idx;
	return true;
}
