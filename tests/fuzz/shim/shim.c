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
