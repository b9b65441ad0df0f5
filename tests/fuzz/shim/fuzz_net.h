/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's networking helpers the CM's segment parser uses, on top of
 * the uapi structures (struct ethhdr, iphdr, ipv6hdr, tcphdr, in6_addr).
 * The checksum routines are in shim.c.
 */
#ifndef _MADCM_FUZZ_NET_H
#define _MADCM_FUZZ_NET_H

#include "fuzz_kernel.h"
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>

/* linux/if_vlan.h */
#define VLAN_HLEN	4
#define VLAN_ETH_HLEN	18
#define VLAN_PRIO_SHIFT	13
#define VLAN_PRIO_MASK	0xe000
#define VLAN_VID_MASK	0x0fff
struct vlan_ethhdr {
	unsigned char h_dest[ETH_ALEN];
	unsigned char h_source[ETH_ALEN];
	__be16 h_vlan_proto;
	__be16 h_vlan_TCI;
	__be16 h_vlan_encapsulated_proto;
};

/* linux/in.h */
static inline bool ipv4_is_multicast(__be32 addr)
{
	return (addr & htonl(0xf0000000)) == htonl(0xe0000000);
}

static inline bool ipv4_is_lbcast(__be32 addr)
{
	return addr == htonl(0xffffffff);
}

static inline bool ipv4_is_zeronet(__be32 addr)
{
	return (addr == 0);
}

static inline bool ipv4_is_loopback(__be32 addr)
{
	return (addr & htonl(0xff000000)) == htonl(0x7f000000);
}

/* net/ip.h */
#define IP_CE		0x8000
#define IP_DF		0x4000
#define IP_MF		0x2000
#define IP_OFFSET	0x1FFF

/* net/ipv6.h */
#define NEXTHDR_HOP		0
#define NEXTHDR_TCP		6
#define NEXTHDR_UDP		17
#define NEXTHDR_IPV6		41
#define NEXTHDR_ROUTING		43
#define NEXTHDR_FRAGMENT	44
#define NEXTHDR_ESP		50
#define NEXTHDR_AUTH		51
#define NEXTHDR_ICMP		58
#define NEXTHDR_NONE		59
#define NEXTHDR_DEST		60
#define IPV6_TCLASS_MASK	(IPV6_FLOWINFO_MASK & ~IPV6_FLOWLABEL_MASK)
#define IPV6_TCLASS_SHIFT	20
#ifndef IPV6_FLOWINFO_MASK
#define IPV6_FLOWINFO_MASK	htonl(0x0FFFFFFF)
#endif
#ifndef IPV6_FLOWLABEL_MASK
#define IPV6_FLOWLABEL_MASK	htonl(0x000FFFFF)
#endif

static inline bool ipv6_addr_any(const struct in6_addr *a)
{
	return (a->s6_addr32[0] | a->s6_addr32[1] |
		a->s6_addr32[2] | a->s6_addr32[3]) == 0;
}

static inline bool ipv6_addr_is_multicast(const struct in6_addr *a)
{
	return a->s6_addr[0] == 0xff;
}

static inline bool ipv6_addr_v4mapped(const struct in6_addr *a)
{
	return (a->s6_addr32[0] | a->s6_addr32[1] |
		(a->s6_addr32[2] ^ htonl(0x0000ffff))) == 0;
}

static inline bool ipv6_addr_equal(const struct in6_addr *a,
				   const struct in6_addr *b)
{
	return !memcmp(a, b, sizeof(*a));
}

static inline void ipv6_addr_set(struct in6_addr *addr, __be32 w1, __be32 w2,
				 __be32 w3, __be32 w4)
{
	addr->s6_addr32[0] = w1;
	addr->s6_addr32[1] = w2;
	addr->s6_addr32[2] = w3;
	addr->s6_addr32[3] = w4;
}

static inline void ipv6_addr_set_v4mapped(const __be32 addr,
					  struct in6_addr *v4mapped)
{
	ipv6_addr_set(v4mapped, 0, 0, htonl(0x0000FFFF), addr);
}

/* linux/tcp.h and net/tcp.h */
#define tcp_flag_byte(th) (((u_int8_t *)th)[13])
#define TCPHDR_FIN	0x01
#define TCPHDR_SYN	0x02
#define TCPHDR_RST	0x04
#define TCPHDR_PSH	0x08
#define TCPHDR_ACK	0x10
#define TCPHDR_URG	0x20
#define TCPHDR_ECE	0x40
#define TCPHDR_CWR	0x80

/*
 * net/checksum.h, net/ip6_checksum.h: real one's complement sums (shim.c).
 * With fuzz_csum_ignore set, a frame's checksums count as right whatever
 * they hold, so that a harness reaches the code behind the checks.
 */
extern bool fuzz_csum_ignore;
__wsum csum_partial(const void *buf, int len, __wsum sum);
__sum16 csum_fold(__wsum sum);
__sum16 ip_fast_csum(const void *iph, unsigned int ihl);
__sum16 csum_tcpudp_magic(__be32 saddr, __be32 daddr, __u32 len, __u8 proto,
			  __wsum sum);
__sum16 csum_ipv6_magic(const struct in6_addr *saddr,
			const struct in6_addr *daddr, __u32 len, __u8 proto,
			__wsum sum);

#endif /* _MADCM_FUZZ_NET_H */
