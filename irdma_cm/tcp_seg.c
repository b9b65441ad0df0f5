// SPDX-License-Identifier: GPL-2.0-only
/*
 * Build and parse the CM's Ethernet/IP/TCP frames.
 *
 * The parser trusts nothing in a frame: every length field is checked
 * against the bytes actually received before anything behind it is read,
 * both checksums are verified, and each refusal has its own reason so the
 * caller can count it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/if_vlan.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/tcp.h>
#include <net/checksum.h>
#include <net/ip6_checksum.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/tcp.h>
#include "irdma_cm/tcp_seg.h"
#include "madcm_compat.h"

/* The flags octet of the TCP header, as net/tcp.h names its bits. */
static_assert(IRDMA_TCP_FIN == TCPHDR_FIN);
static_assert(IRDMA_TCP_SYN == TCPHDR_SYN);
static_assert(IRDMA_TCP_RST == TCPHDR_RST);
static_assert(IRDMA_TCP_PSH == TCPHDR_PSH);
static_assert(IRDMA_TCP_ACK == TCPHDR_ACK);
static_assert(IRDMA_TCP_URG == TCPHDR_URG);

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
	[IRDMA_SEG_IP6_EXTHDR] = "bad_ipv6_ext_header",
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
 * is missing, below 2 or beyond the options area, or an MSS, window
 * scale, SACK-permitted or timestamps option of the wrong length, or a
 * SACK option that is not a whole number (1 to 4) of blocks, makes the
 * header malformed. A window shift above 14 is taken as 14 (RFC 7323
 * 2.3). SACK-permitted counts in a SYN only (RFC 2018 2), timestamps in
 * any segment (RFC 7323 3.2).
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
		case IRDMA_TCPOPT_SACK_PERM:
			if (olen != IRDMA_TCPOLEN_SACK_PERM)
				return -EINVAL;
			opts->has_sack_perm = syn;
			break;
		case IRDMA_TCPOPT_TS:
			if (olen != IRDMA_TCPOLEN_TS)
				return -EINVAL;
			opts->tsval = get_unaligned_be32(opt + off + 2);
			opts->tsecr = get_unaligned_be32(opt + off + 6);
			opts->has_ts = true;
			break;
		case IRDMA_TCPOPT_SACK:
			if ((olen - 2) % IRDMA_TCPOLEN_SACK_BLOCK || olen == 2)
				return -EINVAL;
			opts->has_sack = true;
			break;
		default:
			break;
		}
		off += olen;
	}
	return 0;
}

static bool bad_v4_addr(__be32 a)
{
	return ipv4_is_multicast(a) || ipv4_is_lbcast(a) || ipv4_is_zeronet(a);
}

static bool bad_v6_addr(const struct in6_addr *a)
{
	return ipv6_addr_is_multicast(a) || ipv6_addr_any(a);
}

static enum irdma_cm_seg_err parse_ipv4(const u8 *buf, u32 avail,
					struct irdma_cm_seg *seg,
					const u8 **l4, u32 *l4_len)
{
	const struct iphdr *iph = (const struct iphdr *)buf;
	u32 ihl, tot_len;
	__be32 saddr, daddr;

	if (avail < sizeof(*iph))
		return IRDMA_SEG_TRUNC_IP;
	if (iph->version != 4)
		return IRDMA_SEG_IP_VERSION;
	ihl = iph->ihl * 4;
	if (ihl < sizeof(*iph))
		return IRDMA_SEG_IP_HDR_LEN;
	if (avail < ihl)
		return IRDMA_SEG_TRUNC_IP;
	tot_len = be16_to_cpu(get_unaligned(&iph->tot_len));
	/* A frame may be longer than its datagram (Ethernet padding). */
	if (tot_len < ihl || tot_len > avail)
		return IRDMA_SEG_IP_LEN;
	if (ip_fast_csum(iph, iph->ihl))
		return IRDMA_SEG_IP_CSUM;
	if (get_unaligned(&iph->frag_off) & htons(IP_MF | IP_OFFSET))
		return IRDMA_SEG_IP_FRAGMENT;
	if (iph->protocol != IPPROTO_TCP)
		return IRDMA_SEG_NOT_TCP;

	saddr = get_unaligned(&iph->saddr);
	daddr = get_unaligned(&iph->daddr);
	if (bad_v4_addr(saddr) || bad_v4_addr(daddr))
		return IRDMA_SEG_BAD_ADDR;
	seg->ipv4 = true;
	seg->tos = iph->tos;
	seg->ttl = iph->ttl;
	seg->flow_label = 0;
	ipv6_addr_set_v4mapped(saddr, &seg->src.ip);
	ipv6_addr_set_v4mapped(daddr, &seg->dst.ip);
	*l4 = buf + ihl;
	*l4_len = tot_len - ihl;
	return IRDMA_SEG_OK;
}

/*
 * RFC 8200 4: walk the extension headers in the @plen octets after the
 * IPv6 header (@next names the first) up to TCP. Hop-by-Hop Options may
 * only come first; Destination Options and a Routing header with no
 * segments left are passed over (a Routing header with segments left
 * names another node); a Fragment header means a fragment the host did
 * not reassemble. Each header's length is checked against @plen before
 * it is used. On success *@ext is the chain's length.
 */
static enum irdma_cm_seg_err skip_ipv6_ext(const u8 *p, u32 plen, u8 next,
					   u32 *ext)
{
	u32 off = 0, len;
	bool first = true;

	for (;;) {
		switch (next) {
		case IPPROTO_TCP:
			*ext = off;
			return IRDMA_SEG_OK;
		case NEXTHDR_HOP:
			if (!first)
				return IRDMA_SEG_IP6_EXTHDR;
			break;
		case NEXTHDR_DEST:
		case NEXTHDR_ROUTING:
			break;
		case NEXTHDR_FRAGMENT:
			return IRDMA_SEG_IP_FRAGMENT;
		default:
			return IRDMA_SEG_NOT_TCP;
		}
		/* Next Header, Hdr Ext Len, and (Routing) Segments Left. */
		if (plen - off < 8)
			return IRDMA_SEG_IP_LEN;
		len = ((u32)p[off + 1] + 1) * 8;
		if (plen - off < len)
			return IRDMA_SEG_IP_LEN;
		if (next == NEXTHDR_ROUTING && p[off + 3])
			return IRDMA_SEG_IP6_EXTHDR;
		next = p[off];
		off += len;
		first = false;
	}
}

static enum irdma_cm_seg_err parse_ipv6(const u8 *buf, u32 avail,
					struct irdma_cm_seg *seg,
					const u8 **l4, u32 *l4_len)
{
	const struct ipv6hdr *ip6h = (const struct ipv6hdr *)buf;
	enum irdma_cm_seg_err err;
	__be32 flow;
	u32 plen, ext;

	if (avail < sizeof(*ip6h))
		return IRDMA_SEG_TRUNC_IP;
	if (ip6h->version != 6)
		return IRDMA_SEG_IP_VERSION;
	plen = be16_to_cpu(get_unaligned(&ip6h->payload_len));
	if (plen > avail - sizeof(*ip6h))
		return IRDMA_SEG_IP_LEN;
	err = skip_ipv6_ext(buf + sizeof(*ip6h), plen, ip6h->nexthdr, &ext);
	if (err != IRDMA_SEG_OK)
		return err;

	memcpy(&seg->src.ip, &ip6h->saddr, sizeof(seg->src.ip));
	memcpy(&seg->dst.ip, &ip6h->daddr, sizeof(seg->dst.ip));
	if (bad_v6_addr(&seg->src.ip) || bad_v6_addr(&seg->dst.ip))
		return IRDMA_SEG_BAD_ADDR;
	/* Version, traffic class and flow label share the first word. */
	flow = get_unaligned((const __be32 *)ip6h);
	seg->ipv4 = false;
	seg->tos = be32_to_cpu(flow & IPV6_TCLASS_MASK) >> IPV6_TCLASS_SHIFT;
	seg->flow_label = be32_to_cpu(flow & IPV6_FLOWLABEL_MASK);
	seg->ttl = ip6h->hop_limit;
	*l4 = buf + sizeof(*ip6h) + ext;
	*l4_len = plen - ext;
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
 * Accepts Ethernet II with at most one 802.1Q tag, IPv4 (not a fragment)
 * or IPv6 (Hop-by-Hop first, Destination Options and Routing headers with
 * no segments left are passed over; no fragments), and TCP with valid
 * checksums and well-formed options. No byte beyond @len is read.
 *
 * Context: Any context.
 * Return: IRDMA_SEG_OK, or the reason the frame is refused.
 */
enum irdma_cm_seg_err irdma_cm_parse_seg(const u8 *frame, u32 len,
					 struct irdma_cm_seg *seg)
{
	const struct ethhdr *eth = (const struct ethhdr *)frame;
	const struct tcphdr *th;
	enum irdma_cm_seg_err err;
	u32 off = sizeof(*eth), l4_len, doff;
	const u8 *l4;
	__be16 proto;

	if (len < sizeof(*eth))
		return IRDMA_SEG_TRUNC_ETH;
	memset(seg, 0, sizeof(*seg));
	memcpy(seg->dst_mac, eth->h_dest, ETH_ALEN);
	memcpy(seg->src_mac, eth->h_source, ETH_ALEN);
	proto = get_unaligned(&eth->h_proto);
	if (proto == htons(ETH_P_8021Q)) {
		const struct vlan_ethhdr *veth = (const struct vlan_ethhdr *)frame;

		if (len < sizeof(*veth))
			return IRDMA_SEG_TRUNC_ETH;
		seg->vlan = true;
		seg->vlan_tci = be16_to_cpu(get_unaligned(&veth->h_vlan_TCI));
		proto = get_unaligned(&veth->h_vlan_encapsulated_proto);
		off = sizeof(*veth);
	}

	if (proto == htons(ETH_P_IP))
		err = parse_ipv4(frame + off, len - off, seg, &l4, &l4_len);
	else if (proto == htons(ETH_P_IPV6))
		err = parse_ipv6(frame + off, len - off, seg, &l4, &l4_len);
	else
		err = IRDMA_SEG_ETHERTYPE;
	if (err)
		return err;

	th = (const struct tcphdr *)l4;
	if (l4_len < sizeof(*th))
		return IRDMA_SEG_TRUNC_TCP;
	doff = th->doff * 4;
	if (doff < sizeof(*th))
		return IRDMA_SEG_TCP_DOFF;
	if (doff > l4_len)
		return IRDMA_SEG_TRUNC_TCP;
	if (!tcp_csum_ok(seg, l4, l4_len))
		return IRDMA_SEG_TCP_CSUM;

	seg->src.port = be16_to_cpu(get_unaligned(&th->source));
	seg->dst.port = be16_to_cpu(get_unaligned(&th->dest));
	seg->seq = be32_to_cpu(get_unaligned(&th->seq));
	seg->ack = be32_to_cpu(get_unaligned(&th->ack_seq));
	seg->flags = tcp_flag_byte(th);
	seg->window = be16_to_cpu(get_unaligned(&th->window));
	if (irdma_process_options(l4 + sizeof(*th), doff - sizeof(*th),
				  seg->flags & IRDMA_TCP_SYN, &seg->opts))
		return IRDMA_SEG_TCP_OPTION;
	seg->payload = l4 + doff;
	seg->payload_len = l4_len - doff;
	return IRDMA_SEG_OK;
}

/*
 * MSS is 4 bytes; window scale is padded to 4 with a NOP; timestamps to
 * 12 with two NOPs, or with SACK-permitted in front of them instead; a
 * SACK-permitted alone to 4 with two NOPs. No option crosses a 32-bit
 * boundary it need not (RFC 7323 appendix A).
 */
static u32 tcp_opts_len(const struct irdma_tcp_opts *opts)
{
	return (opts->has_mss ? IRDMA_TCPOLEN_MSS : 0) +
	       (opts->has_ts ? IRDMA_TCPOLEN_TS_ALIGNED :
		opts->has_sack_perm ? IRDMA_TCPOLEN_SACK_PERM + 2 : 0) +
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
	if (opts->has_sack_perm) {
		if (!opts->has_ts) {
			*p++ = IRDMA_TCPOPT_NOP;
			*p++ = IRDMA_TCPOPT_NOP;
		}
		*p++ = IRDMA_TCPOPT_SACK_PERM;
		*p++ = IRDMA_TCPOLEN_SACK_PERM;
	} else if (opts->has_ts) {
		*p++ = IRDMA_TCPOPT_NOP;
		*p++ = IRDMA_TCPOPT_NOP;
	}
	if (opts->has_ts) {
		*p++ = IRDMA_TCPOPT_TS;
		*p++ = IRDMA_TCPOLEN_TS;
		put_unaligned_be32(opts->tsval, p);
		put_unaligned_be32(opts->tsecr, p + 4);
		p += 8;
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
	struct ethhdr *eth = (struct ethhdr *)buf;
	__be16 proto = htons(seg->ipv4 ? ETH_P_IP : ETH_P_IPV6);
	struct tcphdr *th;
	__sum16 check;
	u8 *p;

	if (seg->ipv4 && (!ipv6_addr_v4mapped(&seg->src.ip) ||
			  !ipv6_addr_v4mapped(&seg->dst.ip)))
		return -EINVAL;
	if ((seg->opts.has_wscale && seg->opts.wscale > IRDMA_TCP_MAX_WSCALE) ||
	    seg->flow_label >= BIT(20))
		return -EINVAL;
	if (seg->payload_len > size || hdr > size - seg->payload_len)
		return -EMSGSIZE;
	tcp_len = sizeof(*th) + tcp_opts_len(&seg->opts) + seg->payload_len;
	ip_len = tcp_len + (seg->ipv4 ? sizeof(struct iphdr) : 0);
	if (ip_len > U16_MAX)
		return -EMSGSIZE;

	memcpy(eth->h_dest, seg->dst_mac, ETH_ALEN);
	memcpy(eth->h_source, seg->src_mac, ETH_ALEN);
	if (seg->vlan) {
		struct vlan_ethhdr *veth = (struct vlan_ethhdr *)buf;

		put_unaligned(htons(ETH_P_8021Q), &veth->h_vlan_proto);
		put_unaligned(cpu_to_be16(seg->vlan_tci), &veth->h_vlan_TCI);
		put_unaligned(proto, &veth->h_vlan_encapsulated_proto);
		p = buf + sizeof(*veth);
	} else {
		put_unaligned(proto, &eth->h_proto);
		p = buf + sizeof(*eth);
	}

	if (seg->ipv4) {
		struct iphdr *iph = (struct iphdr *)p;

		memset(iph, 0, sizeof(*iph));
		iph->version = 4;
		iph->ihl = sizeof(*iph) / 4;
		iph->tos = seg->tos;
		put_unaligned(cpu_to_be16(ip_len), &iph->tot_len);
		put_unaligned(htons(IP_DF), &iph->frag_off);
		iph->ttl = seg->ttl;
		iph->protocol = IPPROTO_TCP;
		put_unaligned(seg->src.ip.s6_addr32[3], &iph->saddr);
		put_unaligned(seg->dst.ip.s6_addr32[3], &iph->daddr);
		put_unaligned(ip_fast_csum(iph, iph->ihl), &iph->check);
		p += sizeof(*iph);
	} else {
		struct ipv6hdr *ip6h = (struct ipv6hdr *)p;

		/* Traffic class and flow label, then the version nibble. */
		put_unaligned(cpu_to_be32((u32)seg->tos << IPV6_TCLASS_SHIFT |
					  seg->flow_label), (__be32 *)ip6h);
		ip6h->version = 6;
		put_unaligned(cpu_to_be16(tcp_len), &ip6h->payload_len);
		ip6h->nexthdr = IPPROTO_TCP;
		ip6h->hop_limit = seg->ttl;
		memcpy(&ip6h->saddr, &seg->src.ip, sizeof(ip6h->saddr));
		memcpy(&ip6h->daddr, &seg->dst.ip, sizeof(ip6h->daddr));
		p += sizeof(*ip6h);
	}

	th = (struct tcphdr *)p;
	memset(th, 0, sizeof(*th));
	put_unaligned(cpu_to_be16(seg->src.port), &th->source);
	put_unaligned(cpu_to_be16(seg->dst.port), &th->dest);
	put_unaligned(cpu_to_be32(seg->seq), &th->seq);
	if (seg->flags & IRDMA_TCP_ACK)
		put_unaligned(cpu_to_be32(seg->ack), &th->ack_seq);
	th->doff = (sizeof(*th) + tcp_opts_len(&seg->opts)) / 4;
	tcp_flag_byte(th) = seg->flags;
	put_unaligned(cpu_to_be16(seg->window), &th->window);
	p = build_tcp_opts((u8 *)(th + 1), &seg->opts);
	if (seg->payload_len)
		memcpy(p, seg->payload, seg->payload_len);

	if (seg->ipv4)
		check = csum_tcpudp_magic(seg->src.ip.s6_addr32[3],
					  seg->dst.ip.s6_addr32[3], tcp_len,
					  IPPROTO_TCP, csum_partial(th, tcp_len, 0));
	else
		check = csum_ipv6_magic(&seg->src.ip, &seg->dst.ip, tcp_len,
					IPPROTO_TCP, csum_partial(th, tcp_len, 0));
	put_unaligned(check, &th->check);
	return hdr + seg->payload_len;
}
