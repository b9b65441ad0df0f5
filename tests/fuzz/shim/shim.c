// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel library routines the wire parsers call, for user-space fuzz
 * builds: Internet checksums (RFC 1071), CRC32c (RFC 3385's polynomial, as
 * lib/crc32.c computes it) and WARN.
 */
#include "fuzz_net.h"

bool fuzz_csum_ignore;

void fuzz_warn(const char *file, int line, const char *cond)
{
	fprintf(stderr, "WARNING: %s:%d: %s\n", file, line, cond);
	abort();
}

/* The one's complement sum of @len octets, as native 16-bit words. */
static u64 csum_add_bytes(u64 sum, const u8 *p, int len)
{
	u16 w;

	for (; len > 1; len -= 2, p += 2) {
		memcpy(&w, p, 2);
		sum += w;
	}
	if (len > 0) {
		w = 0;
		memcpy(&w, p, 1);
		sum += w;
	}
	return sum;
}

static u32 csum_fold32(u64 sum)
{
	while (sum >> 32)
		sum = (sum & 0xffffffff) + (sum >> 32);
	return (u32)sum;
}

static u16 csum_fold16(u64 sum)
{
	u32 s = csum_fold32(sum);

	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (u16)~s;
}

__wsum csum_partial(const void *buf, int len, __wsum sum)
{
	return (__force __wsum)csum_fold32(csum_add_bytes((__force u32)sum,
							  buf, len));
}

__sum16 csum_fold(__wsum sum)
{
	return (__force __sum16)csum_fold16((__force u32)sum);
}

__sum16 ip_fast_csum(const void *iph, unsigned int ihl)
{
	if (fuzz_csum_ignore)
		return 0;
	return (__force __sum16)csum_fold16(csum_add_bytes(0, iph, ihl * 4));
}

static u64 csum_add32(u64 sum, __be32 w)
{
	return sum + ((__force u32)w & 0xffff) + ((__force u32)w >> 16);
}

__sum16 csum_tcpudp_magic(__be32 saddr, __be32 daddr, __u32 len, __u8 proto,
			  __wsum sum)
{
	u64 s = (__force u32)sum;

	if (fuzz_csum_ignore)
		return 0;
	s = csum_add32(s, saddr);
	s = csum_add32(s, daddr);
	s = csum_add32(s, htonl(len));
	s = csum_add32(s, htonl(proto));
	return (__force __sum16)csum_fold16(s);
}

__sum16 csum_ipv6_magic(const struct in6_addr *saddr,
			const struct in6_addr *daddr, __u32 len, __u8 proto,
			__wsum sum)
{
	u64 s = (__force u32)sum;
	int i;

	if (fuzz_csum_ignore)
		return 0;
	for (i = 0; i < 4; i++) {
		s = csum_add32(s, saddr->s6_addr32[i]);
		s = csum_add32(s, daddr->s6_addr32[i]);
	}
	s = csum_add32(s, htonl(len));
	s = csum_add32(s, htonl(proto));
	return (__force __sum16)csum_fold16(s);
}

/* Reflected CRC32 with polynomial @poly, bit by bit through a table. */
static u32 crc32_table(u32 crc, const void *p, size_t len, u32 poly,
		       u32 *table, bool *ready)
{
	const u8 *b = p;
	u32 c;
	int i, k;

	if (!*ready) {
		for (i = 0; i < 256; i++) {
			c = i;
			for (k = 0; k < 8; k++)
				c = c & 1 ? (c >> 1) ^ poly : c >> 1;
			table[i] = c;
		}
		*ready = true;
	}
	while (len--)
		crc = table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return crc;
}

u32 __crc32c_le(u32 crc, const void *p, size_t len)
{
	static u32 table[256];
	static bool ready;

	return crc32_table(crc, p, len, 0x82f63b78, table, &ready);
}

u32 crc32_le(u32 crc, const void *p, size_t len)
{
	static u32 table[256];
	static bool ready;

	return crc32_table(crc, p, len, 0xedb88320, table, &ready);
}

/* madcm.h: the module's debugfs directory (none in a fuzz build). */
struct dentry;
struct dentry *madcm_debugfs_root;

/* ---- fuzz_ds.h ---- */

unsigned long jiffies = 1000000;

u32 jhash(const void *key, u32 length, u32 initval)
{
	const u8 *p = key;
	u32 h = 2166136261u ^ initval;

	while (length--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

int rhashtable_init(struct rhashtable *ht,
		    const struct rhashtable_params *params)
{
	memset(ht, 0, sizeof(*ht));
	ht->key_len = params->key_len;
	ht->key_offset = params->key_offset;
	ht->head_offset = params->head_offset;
	return 0;
}

static void *rht_obj(const struct rhashtable *ht, struct rhash_head *h)
{
	return (char *)h - ht->head_offset;
}

void *rhashtable_lookup_fast(struct rhashtable *ht, const void *key,
			     const struct rhashtable_params params)
{
	struct rhash_head *h;

	for (h = ht->chain; h; h = h->next)
		if (!memcmp((char *)rht_obj(ht, h) + ht->key_offset, key,
			    ht->key_len))
			return rht_obj(ht, h);
	return NULL;
}

void *rhashtable_lookup_get_insert_fast(struct rhashtable *ht,
					struct rhash_head *obj,
					const struct rhashtable_params params)
{
	void *old = rhashtable_lookup_fast(ht, (char *)rht_obj(ht, obj) +
					   ht->key_offset, params);

	if (old)
		return old;
	obj->next = ht->chain;
	ht->chain = obj;
	ht->nelems++;
	return NULL;
}

int rhashtable_remove_fast(struct rhashtable *ht, struct rhash_head *obj,
			   const struct rhashtable_params params)
{
	struct rhash_head **pp;

	for (pp = &ht->chain; *pp; pp = &(*pp)->next) {
		if (*pp == obj) {
			*pp = obj->next;
			ht->nelems--;
			return 0;
		}
	}
	return -ENOENT;
}

void rhashtable_free_and_destroy(struct rhashtable *ht,
				 void (*free_fn)(void *ptr, void *arg),
				 void *arg)
{
	struct rhash_head *h, *next;

	for (h = ht->chain; h; h = next) {
		next = h->next;
		free_fn(rht_obj(ht, h), arg);
	}
	ht->chain = NULL;
	ht->nelems = 0;
}

bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
			unsigned long delay)
{
	if (dw->timer.flags)
		return false;
	dw->timer.flags = 1;
	dw->timer.expires = jiffies + delay;
	return true;
}

bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
		      unsigned long delay)
{
	bool was = dw->timer.flags;

	dw->timer.flags = 1;
	dw->timer.expires = jiffies + delay;
	return was;
}

bool cancel_delayed_work_sync(struct delayed_work *dw)
{
	bool was = dw->timer.flags;

	dw->timer.flags = 0;
	return was;
}

bool fuzz_run_delayed_work(struct delayed_work *dw)
{
	work_func_t fn = (work_func_t)dw->work.func;

	if (!dw->timer.flags || time_before(jiffies, dw->timer.expires))
		return false;
	dw->timer.flags = 0;
	fn(&dw->work);
	return true;
}

struct page *alloc_page(gfp_t gfp)
{
	void *p = aligned_alloc(PAGE_SIZE, PAGE_SIZE);

	if (p && (gfp & __GFP_ZERO))
		memset(p, 0, PAGE_SIZE);
	return p;
}

void __free_page(struct page *page)
{
	free(page);
}
