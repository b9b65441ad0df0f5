// SPDX-License-Identifier: GPL-2.0-only
/*
 * Build and parse the CM's Ethernet/IP/TCP frames.
 *
 * The parser trusts nothing in a frame: every length field is checked
 * against the bytes actually received before anything behind it is read,
 * both checksums are verified, and each refusal has its own reason so the
 * caller can count it.
 */
#include <linux/if_vlan.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <net/checksum.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include "irdma_cm/tcp_seg.h"
#include "madcm_compat.h"

#define IPV4_FLAG_DF		0x4000
#define IPV4_FLAG_MF		0x2000
#define IPV4_FRAG_OFF_MASK	0x1fff

static const char * const seg_err_names[IRDMA_SEG_ERR_MAX] = {
	[IRDMA_SEG_OK] = "accepted",
	[IRDMA_SEG_TRUNC_ETH] = "truncated_eth",
	[IRDMA_SEG_ETHERTYPE] = "bad_ethertype",
	[IRDMA_SEG_TRUNC_IP] = "truncated_ip",
	[IRDMA_SEG_IP_VERSION] = "bad_ip_version",
	[IRDMA_SEG_IP_HDR_LEN] = "bad_ip_hdr_len",
	[IRDMA_SEG_IP_LEN] = "bad_ip_len",
	[IRDMA_SEG_IP_CSUM] = "bad_ip_csum",
	[IRDMA_SEG_IP_FRAGMENT] = "ip_fragment",
	[IRDMA_SEG_NOT_TCP] = "not_tcp",
	[IRDMA_SEG_TRUNC_TCP] = "truncated_tcp",
	[IRDMA_SEG_TCP_DOFF] = "bad_tcp_doff",
	[IRDMA_SEG_TCP_CSUM] = "bad_tcp_csum",
	[IRDMA_SEG_TCP_OPTION] = "bad_tcp_option",
	[IRDMA_SEG_BAD_ADDR] = "bad_address",
};

/**
 * irdma_cm_seg_err_name() - the counter name of a refusal reason
 * @err: the reason
 *
 * Return: a short name for debugfs and logs.
 */
const char *irdma_cm_seg_err_name(enum irdma_cm_seg_err err)
{
	if (err >= IRDMA_SEG_ERR_MAX)
		return "unknown";
	return seg_err_names[err];
}

/**
 * irdma_cm_seg_count() - count a parsed frame by its outcome
 * @stats: the counters
 * @err: what irdma_cm_parse_seg() returned
 */
void irdma_cm_seg_count(struct irdma_cm_seg_stats *stats,
			enum irdma_cm_seg_err err)
{
	if (err < IRDMA_SEG_ERR_MAX)
		atomic64_inc(&stats->drops[err]);
}

/**
 * irdma_process_options() - read the options of a TCP header
 * @opt: the first option byte
 * @len: bytes of options (data offset * 4 - 20)
 * @syn: the segment carries SYN; MSS and window scale count only then
 * @opts: filled with what was found
 *
 * Unknown options are skipped by their length. An option whose length byte
 * is missing, below 2 or beyond the options area, or an MSS or window
 * scale option of the wrong length, makes the header malformed. A window
 * shift above 14 is taken as 14 (RFC 7323 2.3).
 *
 * Return: 0, or -EINVAL for a malformed option list.
 */
int irdma_process_options(const u8 *opt, u32 len, bool syn,
			  struct irdma_tcp_opts *opts)
{
	u32 off = 0;

	memset(opts, 0, sizeof(*opts));
	while (off < len) {
		u8 kind = opt[off], olen;

		if (kind == IRDMA_TCPOPT_EOL)
			break;
		if (kind == IRDMA_TCPOPT_NOP) {
			off++;
			continue;
		}
		if (len - off < 2)
			return -EINVAL;
		olen = opt[off + 1];
		if (olen < 2 || olen > len - off)
			return -EINVAL;

		switch (kind) {
		case IRDMA_TCPOPT_MSS:
			if (olen != IRDMA_TCPOLEN_MSS)
				return -EINVAL;
			if (syn) {
				opts->mss = get_unaligned_be16(opt + off + 2);
				if (!opts->mss)
					return -EINVAL;
				opts->has_mss = true;
			}
			break;
		case IRDMA_TCPOPT_WSCALE:
			if (olen != IRDMA_TCPOLEN_WSCALE)
				return -EINVAL;
			if (syn) {
				opts->wscale = min_t(u8, opt[off + 2],
						     IRDMA_TCP_MAX_WSCALE);
				opts->has_wscale = true;
			}
			break;
		default:
			break;
		}
		off += olen;
	}
	return 0;
}

static void addr_from_v4(struct in6_addr *a, const u8 *v4)
{
	ipv6_addr_set_v4mapped(get_unaligned((const __be32 *)v4), a);
}

static bool bad_v4_addr(__be32 a)
{
	return ipv4_is_multicast(a) || ipv4_is_lbcast(a) || ipv4_is_zeronet(a);
}

static bool bad_v6_addr(const struct in6_addr *a)
{
	return ipv6_addr_is_multicast(a) || ipv6_addr_any(a);
}

static enum irdma_cm_seg_err parse_ipv4(const u8 *ip, u32 avail,
					struct irdma_cm_seg *seg,
					const u8 **l4, u32 *l4_len)
{
	u32 ihl, tot_len;
	__be32 saddr, daddr;

	if (avail < IRDMA_IPV4_HDR_MIN)
		return IRDMA_SEG_TRUNC_IP;
	if (ip[0] >> 4 != 4)
		return IRDMA_SEG_IP_VERSION;
	ihl = (ip[0] & 0x0f) * 4;
	if (ihl < IRDMA_IPV4_HDR_MIN)
		return IRDMA_SEG_IP_HDR_LEN;
	if (avail < ihl)
		return IRDMA_SEG_TRUNC_IP;
	tot_len = get_unaligned_be16(ip + 2);
	/* A frame may be longer than its datagram (Ethernet padding). */
	if (tot_len < ihl || tot_len > avail)
		return IRDMA_SEG_IP_LEN;
	if (ip_fast_csum(ip, ihl / 4))
		return IRDMA_SEG_IP_CSUM;
	if (get_unaligned_be16(ip + 6) & (IPV4_FLAG_MF | IPV4_FRAG_OFF_MASK))
		return IRDMA_SEG_IP_FRAGMENT;
	if (ip[9] != IPPROTO_TCP)
		return IRDMA_SEG_NOT_TCP;

	saddr = get_unaligned((const __be32 *)(ip + 12));
	daddr = get_unaligned((const __be32 *)(ip + 16));
	if (bad_v4_addr(saddr) || bad_v4_addr(daddr))
		return IRDMA_SEG_BAD_ADDR;
	seg->ipv4 = true;
	seg->tos = ip[1];
	seg->ttl = ip[8];
	seg->flow_label = 0;
	addr_from_v4(&seg->src.ip, ip + 12);
	addr_from_v4(&seg->dst.ip, ip + 16);
	*l4 = ip + ihl;
	*l4_len = tot_len - ihl;
	return IRDMA_SEG_OK;
}

static enum irdma_cm_seg_err parse_ipv6(const u8 *ip, u32 avail,
					struct irdma_cm_seg *seg,
					const u8 **l4, u32 *l4_len)
{
	u32 plen;

	if (avail < IRDMA_IPV6_HDR_LEN)
		return IRDMA_SEG_TRUNC_IP;
	if (ip[0] >> 4 != 6)
		return IRDMA_SEG_IP_VERSION;
	plen = get_unaligned_be16(ip + 4);
	if (plen > avail - IRDMA_IPV6_HDR_LEN)
		return IRDMA_SEG_IP_LEN;
	/* Extension headers are not followed: the CM never sends any. */
	if (ip[6] != IPPROTO_TCP)
		return IRDMA_SEG_NOT_TCP;

	memcpy(&seg->src.ip, ip + 8, sizeof(struct in6_addr));
	memcpy(&seg->dst.ip, ip + 24, sizeof(struct in6_addr));
	if (bad_v6_addr(&seg->src.ip) || bad_v6_addr(&seg->dst.ip))
		return IRDMA_SEG_BAD_ADDR;
	seg->ipv4 = false;
	seg->tos = (ip[0] & 0x0f) << 4 | ip[1] >> 4;
	seg->flow_label = (ip[1] & 0x0f) << 16 | ip[2] << 8 | ip[3];
	seg->ttl = ip[7];
	*l4 = ip + IRDMA_IPV6_HDR_LEN;
	*l4_len = plen;
	return IRDMA_SEG_OK;
}

static bool tcp_csum_ok(const struct irdma_cm_seg *seg, const u8 *tcp,
			u32 len)
{
	__wsum sum = csum_partial(tcp, len, 0);

	if (seg->ipv4)
		return !csum_tcpudp_magic(seg->src.ip.s6_addr32[3],
					  seg->dst.ip.s6_addr32[3], len,
					  IPPROTO_TCP, sum);
	return !csum_ipv6_magic(&seg->src.ip, &seg->dst.ip, len, IPPROTO_TCP,
				sum);
}

/**
 * irdma_cm_parse_seg() - validate a received frame and read its segment
 * @frame: the frame, from the Ethernet header on
 * @len: bytes in @frame
 * @seg: filled in when the frame is accepted; @seg->payload then points
 *	into @frame
 *
 * Accepts Ethernet II with at most one 802.1Q tag, IPv4 without options
 * or fragments or IPv6 without extension headers, and TCP with valid
 * checksums and well-formed options. No byte beyond @len is read.
 *
 * Context: Any context.
 * Return: IRDMA_SEG_OK, or the reason the frame is refused.
 */
enum irdma_cm_seg_err irdma_cm_parse_seg(const u8 *frame, u32 len,
					 struct irdma_cm_seg *seg)
{
	enum irdma_cm_seg_err err;
	u32 off = ETH_HLEN, l4_len, doff;
	const u8 *l4;
	u16 proto;

	if (len < ETH_HLEN)
		return IRDMA_SEG_TRUNC_ETH;
	memset(seg, 0, sizeof(*seg));
	memcpy(seg->dst_mac, frame, ETH_ALEN);
	memcpy(seg->src_mac, frame + ETH_ALEN, ETH_ALEN);
	proto = get_unaligned_be16(frame + 2 * ETH_ALEN);
	if (proto == ETH_P_8021Q) {
		if (len < ETH_HLEN + IRDMA_VLAN_HDR_LEN)
			return IRDMA_SEG_TRUNC_ETH;
		seg->vlan = true;
		seg->vlan_tci = get_unaligned_be16(frame + ETH_HLEN);
		proto = get_unaligned_be16(frame + ETH_HLEN + 2);
		off += IRDMA_VLAN_HDR_LEN;
	}

	if (proto == ETH_P_IP)
		err = parse_ipv4(frame + off, len - off, seg, &l4, &l4_len);
	else if (proto == ETH_P_IPV6)
		err = parse_ipv6(frame + off, len - off, seg, &l4, &l4_len);
	else
		err = IRDMA_SEG_ETHERTYPE;
	if (err)
		return err;

	if (l4_len < IRDMA_TCP_HDR_MIN)
		return IRDMA_SEG_TRUNC_TCP;
	doff = (l4[12] >> 4) * 4;
	if (doff < IRDMA_TCP_HDR_MIN)
		return IRDMA_SEG_TCP_DOFF;
	if (doff > l4_len)
		return IRDMA_SEG_TRUNC_TCP;
	if (!tcp_csum_ok(seg, l4, l4_len))
		return IRDMA_SEG_TCP_CSUM;

	seg->src.port = get_unaligned_be16(l4);
	seg->dst.port = get_unaligned_be16(l4 + 2);
	seg->seq = get_unaligned_be32(l4 + 4);
	seg->ack = get_unaligned_be32(l4 + 8);
	seg->flags = l4[13];
	seg->window = get_unaligned_be16(l4 + 14);
	if (irdma_process_options(l4 + IRDMA_TCP_HDR_MIN,
				  doff - IRDMA_TCP_HDR_MIN,
				  seg->flags & IRDMA_TCP_SYN, &seg->opts))
		return IRDMA_SEG_TCP_OPTION;
	seg->payload = l4 + doff;
	seg->payload_len = l4_len - doff;
	return IRDMA_SEG_OK;
}

static u32 tcp_opts_len(const struct irdma_tcp_opts *opts)
{
	/* MSS is 4 bytes; window scale is padded to 4 with a NOP. */
	return (opts->has_mss ? IRDMA_TCPOLEN_MSS : 0) +
	       (opts->has_wscale ? IRDMA_TCPOLEN_WSCALE + 1 : 0);
}

/**
 * irdma_cm_seg_hdr_len() - length of the headers irdma_cm_build_seg() writes
 * @seg: the segment to build
 *
 * Return: bytes from the Ethernet header to the end of the TCP options.
 */
u32 irdma_cm_seg_hdr_len(const struct irdma_cm_seg *seg)
{
	return ETH_HLEN + (seg->vlan ? IRDMA_VLAN_HDR_LEN : 0) +
	       (seg->ipv4 ? IRDMA_IPV4_HDR_MIN : IRDMA_IPV6_HDR_LEN) +
	       IRDMA_TCP_HDR_MIN + tcp_opts_len(&seg->opts);
}

static u8 *build_tcp_opts(u8 *p, const struct irdma_tcp_opts *opts)
{
	if (opts->has_mss) {
		*p++ = IRDMA_TCPOPT_MSS;
		*p++ = IRDMA_TCPOLEN_MSS;
		put_unaligned_be16(opts->mss, p);
		p += 2;
	}
	if (opts->has_wscale) {
		*p++ = IRDMA_TCPOPT_NOP;
		*p++ = IRDMA_TCPOPT_WSCALE;
		*p++ = IRDMA_TCPOLEN_WSCALE;
		*p++ = opts->wscale;
	}
	return p;
}

/**
 * irdma_cm_build_seg() - write a frame carrying a TCP segment
 * @seg: what to send; @seg->payload and @seg->payload_len give the data
 * @buf: where to write the frame
 * @size: bytes available at @buf
 *
 * Writes the Ethernet header (and 802.1Q tag), an IPv4 header (DF set,
 * no options) or an IPv6 header, and the TCP header with the options
 * @seg->opts asks for, then the payload, with both checksums computed. The
 * ACK number is written only when IRDMA_TCP_ACK is set. IPv4 addresses are
 * given IPv4-mapped.
 *
 * Context: Any context.
 * Return: the frame length, -EINVAL for an IPv4 segment whose addresses
 * are not IPv4-mapped or an out-of-range field, or -EMSGSIZE when @size or
 * the IP length field cannot hold the frame.
 */
int irdma_cm_build_seg(const struct irdma_cm_seg *seg, u8 *buf, u32 size)
{
	u32 hdr = irdma_cm_seg_hdr_len(seg), tcp_len, ip_len;
	u8 *p = buf, *ip, *tcp;
	__wsum sum;

	if (seg->ipv4 && (!ipv6_addr_v4mapped(&seg->src.ip) ||
			  !ipv6_addr_v4mapped(&seg->dst.ip)))
		return -EINVAL;
	if ((seg->opts.has_wscale && seg->opts.wscale > IRDMA_TCP_MAX_WSCALE) ||
	    seg->flow_label >= BIT(20))
		return -EINVAL;
	if (seg->payload_len > size || hdr > size - seg->payload_len)
		return -EMSGSIZE;
	tcp_len = IRDMA_TCP_HDR_MIN + tcp_opts_len(&seg->opts) + seg->payload_len;
	ip_len = tcp_len + (seg->ipv4 ? IRDMA_IPV4_HDR_MIN : 0);
	if (ip_len > U16_MAX)
		return -EMSGSIZE;

	memcpy(p, seg->dst_mac, ETH_ALEN);
	memcpy(p + ETH_ALEN, seg->src_mac, ETH_ALEN);
	p += 2 * ETH_ALEN;
	if (seg->vlan) {
		put_unaligned_be16(ETH_P_8021Q, p);
		put_unaligned_be16(seg->vlan_tci, p + 2);
		p += IRDMA_VLAN_HDR_LEN;
	}
	put_unaligned_be16(seg->ipv4 ? ETH_P_IP : ETH_P_IPV6, p);
	p += 2;

	ip = p;
	if (seg->ipv4) {
		memset(ip, 0, IRDMA_IPV4_HDR_MIN);
		ip[0] = 0x45;
		ip[1] = seg->tos;
		put_unaligned_be16(ip_len, ip + 2);
		put_unaligned_be16(IPV4_FLAG_DF, ip + 6);
		ip[8] = seg->ttl;
		ip[9] = IPPROTO_TCP;
		memcpy(ip + 12, &seg->src.ip.s6_addr32[3], 4);
		memcpy(ip + 16, &seg->dst.ip.s6_addr32[3], 4);
		put_unaligned(ip_fast_csum(ip, 5), (__sum16 *)(ip + 10));
		p += IRDMA_IPV4_HDR_MIN;
	} else {
		ip[0] = 0x60 | seg->tos >> 4;
		ip[1] = (seg->tos & 0x0f) << 4 | seg->flow_label >> 16;
		ip[2] = seg->flow_label >> 8;
		ip[3] = seg->flow_label;
		put_unaligned_be16(tcp_len, ip + 4);
		ip[6] = IPPROTO_TCP;
		ip[7] = seg->ttl;
		memcpy(ip + 8, &seg->src.ip, sizeof(struct in6_addr));
		memcpy(ip + 24, &seg->dst.ip, sizeof(struct in6_addr));
		p += IRDMA_IPV6_HDR_LEN;
	}

	tcp = p;
	put_unaligned_be16(seg->src.port, tcp);
	put_unaligned_be16(seg->dst.port, tcp + 2);
	put_unaligned_be32(seg->seq, tcp + 4);
	put_unaligned_be32(seg->flags & IRDMA_TCP_ACK ? seg->ack : 0, tcp + 8);
	tcp[12] = (IRDMA_TCP_HDR_MIN + tcp_opts_len(&seg->opts)) / 4 << 4;
	tcp[13] = seg->flags;
	put_unaligned_be16(seg->window, tcp + 14);
	memset(tcp + 16, 0, 4);		/* checksum, urgent pointer */
	p = build_tcp_opts(tcp + IRDMA_TCP_HDR_MIN, &seg->opts);
	if (seg->payload_len)
		memcpy(p, seg->payload, seg->payload_len);

	sum = csum_partial(tcp, tcp_len, 0);
	if (seg->ipv4)
		put_unaligned(csum_tcpudp_magic(seg->src.ip.s6_addr32[3],
						seg->dst.ip.s6_addr32[3],
						tcp_len, IPPROTO_TCP, sum),
			      (__sum16 *)(tcp + 16));
	else
		put_unaligned(csum_ipv6_magic(&seg->src.ip, &seg->dst.ip,
					      tcp_len, IPPROTO_TCP, sum),
			      (__sum16 *)(tcp + 16));
	return hdr + seg->payload_len;
}
