/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CM's wire frames: Ethernet (with an optional 802.1Q tag), IPv4 or
 * IPv6, and TCP with the options the CM uses (RFC 9293, RFC 7323), read
 * and written through the kernel's struct ethhdr, vlan_ethhdr, iphdr,
 * ipv6hdr and tcphdr. Parsing validates a received frame completely
 * against its length; building writes a frame with correct lengths and
 * checksums.
 */
#ifndef _MADCM_IRDMA_CM_TCP_SEG_H
#define _MADCM_IRDMA_CM_TCP_SEG_H

#include <linux/atomic.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/types.h>

/* TCP flags: the octet tcp_flag_byte() reads (net/tcp.h's TCPHDR_*). */
#define IRDMA_TCP_FIN	0x01
#define IRDMA_TCP_SYN	0x02
#define IRDMA_TCP_RST	0x04
#define IRDMA_TCP_PSH	0x08
#define IRDMA_TCP_ACK	0x10
#define IRDMA_TCP_URG	0x20

/* TCP option kinds and lengths (RFC 9293 3.2, RFC 7323 2.2). */
#define IRDMA_TCPOPT_EOL	0
#define IRDMA_TCPOPT_NOP	1
#define IRDMA_TCPOPT_MSS	2
#define IRDMA_TCPOPT_WSCALE	3
#define IRDMA_TCPOPT_SACK_PERM	4	/* RFC 2018 2 */
#define IRDMA_TCPOPT_SACK	5	/* RFC 2018 3 */
#define IRDMA_TCPOPT_TS		8	/* RFC 7323 3.2 */
#define IRDMA_TCPOLEN_MSS	4
#define IRDMA_TCPOLEN_WSCALE	3
#define IRDMA_TCPOLEN_SACK_PERM	2
#define IRDMA_TCPOLEN_TS	10
/* A SACK option: kind, length, then 1 to 4 blocks of two 32-bit edges. */
#define IRDMA_TCPOLEN_SACK_BLOCK 8
/* Timestamps padded with two NOPs (RFC 7323 appendix A). */
#define IRDMA_TCPOLEN_TS_ALIGNED 12
/* RFC 7323 2.3: a larger shift count is used as 14. */
#define IRDMA_TCP_MAX_WSCALE	14

#define IRDMA_TCP_HDR_MIN	sizeof(struct tcphdr)
/* The 4-bit data offset counts 32-bit words. */
#define IRDMA_TCP_HDR_MAX	(15 * 4)
#define IRDMA_IPV4_HDR_MIN	sizeof(struct iphdr)
#define IRDMA_IPV6_HDR_LEN	sizeof(struct ipv6hdr)
#define IRDMA_VLAN_HDR_LEN	VLAN_HLEN

/* The longest header the CM builds: Ethernet, 802.1Q, IPv6, TCP + options. */
#define IRDMA_CM_MAX_HDR	(ETH_HLEN + IRDMA_VLAN_HDR_LEN + \
				 IRDMA_IPV6_HDR_LEN + IRDMA_TCP_HDR_MAX)

/**
 * enum irdma_cm_seg_err - why a received frame was refused
 * @IRDMA_SEG_OK: the frame is a well-formed TCP segment
 * @IRDMA_SEG_TRUNC_ETH: shorter than an Ethernet (and VLAN) header
 * @IRDMA_SEG_ETHERTYPE: neither IPv4 nor IPv6
 * @IRDMA_SEG_TRUNC_IP: shorter than the IP header it announces
 * @IRDMA_SEG_IP_VERSION: IP version field does not match the EtherType
 * @IRDMA_SEG_IP_HDR_LEN: IPv4 IHL below 5
 * @IRDMA_SEG_IP_LEN: IP total/payload length beyond the frame or below the
 *	headers
 * @IRDMA_SEG_IP_CSUM: bad IPv4 header checksum
 * @IRDMA_SEG_IP_FRAGMENT: an IPv4 or IPv6 fragment (the host reassembles
 *	IPv4 ones before the CM's hook sees them)
 * @IRDMA_SEG_NOT_TCP: not TCP
 * @IRDMA_SEG_TRUNC_TCP: shorter than the TCP header it announces
 * @IRDMA_SEG_TCP_DOFF: TCP data offset below 5
 * @IRDMA_SEG_TCP_CSUM: bad TCP checksum
 * @IRDMA_SEG_TCP_OPTION: a malformed TCP option
 * @IRDMA_SEG_BAD_ADDR: a multicast, broadcast or unspecified address
 * @IRDMA_SEG_IP6_EXTHDR: an IPv6 extension header chain this node does not
 *	take: Hop-by-Hop not first, or a Routing header with segments left
 * @IRDMA_SEG_ERR_MAX: number of reasons
 */
enum irdma_cm_seg_err {
	IRDMA_SEG_OK,
	IRDMA_SEG_TRUNC_ETH,
	IRDMA_SEG_ETHERTYPE,
	IRDMA_SEG_TRUNC_IP,
	IRDMA_SEG_IP_VERSION,
	IRDMA_SEG_IP_HDR_LEN,
	IRDMA_SEG_IP_LEN,
	IRDMA_SEG_IP_CSUM,
	IRDMA_SEG_IP_FRAGMENT,
	IRDMA_SEG_NOT_TCP,
	IRDMA_SEG_TRUNC_TCP,
	IRDMA_SEG_TCP_DOFF,
	IRDMA_SEG_TCP_CSUM,
	IRDMA_SEG_TCP_OPTION,
	IRDMA_SEG_BAD_ADDR,
	IRDMA_SEG_IP6_EXTHDR,
	IRDMA_SEG_ERR_MAX
};

/**
 * struct irdma_cm_addr - one end of a connection
 * @ip: IPv4 addresses are kept IPv4-mapped (::ffff:a.b.c.d)
 * @port: TCP port, host order
 */
struct irdma_cm_addr {
	struct in6_addr ip;
	u16 port;
};

/**
 * struct irdma_tcp_opts - the TCP options the CM reads and writes
 * @mss: maximum segment size, when @has_mss
 * @wscale: window shift count (at most 14), when @has_wscale
 * @has_mss: an MSS option is present
 * @has_wscale: a window scale option is present
 * @has_sack_perm: a SACK-permitted option is present (SYN only)
 * @has_ts: a timestamps option is present
 * @has_sack: a SACK option is present (read for its form only; the CM
 *	sends nothing that a SACK block could name but its own few bytes)
 * @tsval: the sender's timestamp value, when @has_ts
 * @tsecr: the timestamp echo reply, when @has_ts
 */
struct irdma_tcp_opts {
	u16 mss;
	u8 wscale;
	bool has_mss;
	bool has_wscale;
	bool has_sack_perm;
	bool has_ts;
	bool has_sack;
	u32 tsval;
	u32 tsecr;
};

/**
 * struct irdma_cm_seg - a TCP segment in a frame, as parsed or to build
 * @dst_mac: destination MAC address
 * @src_mac: source MAC address
 * @ipv4: IPv4 (else IPv6)
 * @vlan: an 802.1Q tag is present
 * @vlan_tci: the tag's TCI (priority and VLAN ID), when @vlan
 * @tos: IPv4 TOS or IPv6 traffic class
 * @ttl: IPv4 TTL or IPv6 hop limit
 * @flow_label: IPv6 flow label (20 bits)
 * @src: source address and port
 * @dst: destination address and port
 * @seq: sequence number
 * @ack: acknowledgment number (meaningful with IRDMA_TCP_ACK)
 * @flags: IRDMA_TCP_* flags
 * @window: the window field as sent (not scaled)
 * @opts: TCP options
 * @payload: the segment's data (points into the frame when parsed)
 * @payload_len: its length
 */
struct irdma_cm_seg {
	u8 dst_mac[ETH_ALEN];
	u8 src_mac[ETH_ALEN];
	bool ipv4;
	bool vlan;
	u16 vlan_tci;
	u8 tos;
	u8 ttl;
	u32 flow_label;
	struct irdma_cm_addr src;
	struct irdma_cm_addr dst;
	u32 seq;
	u32 ack;
	u8 flags;
	u16 window;
	struct irdma_tcp_opts opts;
	const u8 *payload;
	u32 payload_len;
};

/**
 * struct irdma_cm_seg_stats - refused frames, one counter per reason
 * @drops: indexed by enum irdma_cm_seg_err (IRDMA_SEG_OK counts accepted
 *	frames)
 */
struct irdma_cm_seg_stats {
	atomic64_t drops[IRDMA_SEG_ERR_MAX];
};

enum irdma_cm_seg_err irdma_cm_parse_seg(const u8 *frame, u32 len,
					 struct irdma_cm_seg *seg);
int irdma_cm_build_seg(const struct irdma_cm_seg *seg, u8 *buf, u32 size);
u32 irdma_cm_seg_hdr_len(const struct irdma_cm_seg *seg);
int irdma_process_options(const u8 *opt, u32 len, bool syn,
			  struct irdma_tcp_opts *opts);
const char *irdma_cm_seg_err_name(enum irdma_cm_seg_err err);
void irdma_cm_seg_count(struct irdma_cm_seg_stats *stats,
			enum irdma_cm_seg_err err);

#endif /* _MADCM_IRDMA_CM_TCP_SEG_H */
