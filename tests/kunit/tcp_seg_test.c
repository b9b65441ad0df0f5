// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the CM's Ethernet/IP/TCP frames. Expected frames are written field
 * by field at the offsets of IEEE 802.3/802.1Q, RFC 791 (IPv4), RFC 8200
 * (IPv6) and RFC 9293 (TCP), with checksums computed by the RFC 1071
 * one's-complement sum below, never by the code under test.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include "irdma_cm/tcp_seg.h"

#define EXPECT_EXT_REFUSED(err) \
	KUNIT_EXPECT_STREQ(test, irdma_cm_seg_err_name(irdma_cm_parse_seg(f, len, &got)), \
			   irdma_cm_seg_err_name(err))

/* RFC 1071: the 16-bit one's-complement sum of a byte string. */
static u32 rfc1071_add(u32 sum, const u8 *p, u32 len)
{
	u32 i;

	for (i = 0; i + 1 < len; i += 2)
		sum += p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += p[len - 1] << 8;
	return sum;
}

static u16 rfc1071_fold(u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

static void put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(u8 *p, u32 v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static const u8 mac_a[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a };
static const u8 mac_b[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0b };
/* Documentation addresses: 192.0.2.0/24 (RFC 5737), 2001:db8::/32 (RFC 3849). */
static const u8 v4_a[4] = { 192, 0, 2, 1 }, v4_b[4] = { 192, 0, 2, 2 };
static const u8 v6_a[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x01 };
static const u8 v6_b[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x02 };

struct frame_case {
	const char *name;
	bool ipv4, vlan;
	u8 flags;
	bool mss, wscale;
	u32 payload_len;
};

static const struct frame_case frame_cases[] = {
	{ "v4 SYN mss+wscale", true, false, IRDMA_TCP_SYN, true, true, 0 },
	{ "v4 SYN-ACK mss", true, false, IRDMA_TCP_SYN | IRDMA_TCP_ACK, true, false, 0 },
	{ "v4 ACK", true, false, IRDMA_TCP_ACK, false, false, 0 },
	{ "v4 PSH-ACK 1 byte", true, false, IRDMA_TCP_ACK | IRDMA_TCP_PSH, false, false, 1 },
	{ "v4 ACK 7 bytes (odd csum)", true, false, IRDMA_TCP_ACK, false, false, 7 },
	{ "v4 ACK 1460 bytes", true, false, IRDMA_TCP_ACK, false, false, 1460 },
	{ "v4 vlan FIN-ACK", true, true, IRDMA_TCP_FIN | IRDMA_TCP_ACK, false, false, 0 },
	{ "v4 vlan RST", true, true, IRDMA_TCP_RST, false, false, 0 },
	{ "v6 SYN mss+wscale", false, false, IRDMA_TCP_SYN, true, true, 0 },
	{ "v6 ACK 100 bytes", false, false, IRDMA_TCP_ACK, false, false, 100 },
	{ "v6 vlan SYN-ACK wscale", false, true, IRDMA_TCP_SYN | IRDMA_TCP_ACK, false, true, 0 },
	{ "v6 vlan ACK 1439 bytes", false, true, IRDMA_TCP_ACK, false, false, 1439 },
};

static void frame_case_desc(const struct frame_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(frame_case, frame_cases, frame_case_desc);

#define T_SEQ		0xfedcba98
#define T_ACK		0x01234567
#define T_WIN		0x7210
#define T_MSS		1460
#define T_WSCALE	7
#define T_TOS		0x28
#define T_TTL		64
#define T_FLOW		0x9abcd
#define T_TCI		0x6064	/* priority 3, VLAN 100 */

static u8 payload_byte(u32 i)
{
	return i * 7 + 3;
}

/* The segment description handed to the code under test. */
static void case_seg(const struct frame_case *c, struct irdma_cm_seg *s, u8 *payload)
{
	u32 i;

	memset(s, 0, sizeof(*s));
	memcpy(s->dst_mac, mac_b, ETH_ALEN);
	memcpy(s->src_mac, mac_a, ETH_ALEN);
	s->ipv4 = c->ipv4;
	s->vlan = c->vlan;
	s->vlan_tci = T_TCI;
	s->tos = T_TOS;
	s->ttl = T_TTL;
	if (c->ipv4) {
		ipv6_addr_set_v4mapped(*(const __be32 *)v4_a, &s->src.ip);
		ipv6_addr_set_v4mapped(*(const __be32 *)v4_b, &s->dst.ip);
	} else {
		memcpy(&s->src.ip, v6_a, 16);
		memcpy(&s->dst.ip, v6_b, 16);
		s->flow_label = T_FLOW;
	}
	s->src.port = 49152;
	s->dst.port = 5000;
	s->seq = T_SEQ;
	s->ack = T_ACK;
	s->flags = c->flags;
	s->window = T_WIN;
	s->opts.has_mss = c->mss;
	s->opts.mss = T_MSS;
	s->opts.has_wscale = c->wscale;
	s->opts.wscale = T_WSCALE;
	for (i = 0; i < c->payload_len; i++)
		payload[i] = payload_byte(i);
	s->payload = payload;
	s->payload_len = c->payload_len;
}

/* The same frame, written from the standards. Returns its length. */
static u32 spec_frame(const struct frame_case *c, u8 *f)
{
	u32 off = 0, ip, tcp, optlen = 0, tcplen, i, sum;

	memcpy(f, mac_b, 6);
	memcpy(f + 6, mac_a, 6);
	off = 12;
	if (c->vlan) {
		put16(f + off, 0x8100);
		put16(f + off + 2, T_TCI);
		off += 4;
	}
	put16(f + off, c->ipv4 ? 0x0800 : 0x86dd);
	off += 2;
	ip = off;
	tcp = ip + (c->ipv4 ? 20 : 40);

	/* TCP options: MSS (kind 2, len 4); NOP then WS (kind 3, len 3). */
	if (c->mss) {
		f[tcp + 20 + optlen] = 2;
		f[tcp + 21 + optlen] = 4;
		put16(f + tcp + 22 + optlen, T_MSS);
		optlen += 4;
	}
	if (c->wscale) {
		f[tcp + 20 + optlen] = 1;
		f[tcp + 21 + optlen] = 3;
		f[tcp + 22 + optlen] = 3;
		f[tcp + 23 + optlen] = T_WSCALE;
		optlen += 4;
	}
	tcplen = 20 + optlen + c->payload_len;
	for (i = 0; i < c->payload_len; i++)
		f[tcp + 20 + optlen + i] = payload_byte(i);

	if (c->ipv4) {
		memset(f + ip, 0, 20);
		f[ip] = 4 << 4 | 5;		/* version, IHL */
		f[ip + 1] = T_TOS;
		put16(f + ip + 2, 20 + tcplen);	/* total length */
		put16(f + ip + 6, 0x4000);	/* DF, offset 0 */
		f[ip + 8] = T_TTL;
		f[ip + 9] = 6;			/* TCP */
		memcpy(f + ip + 12, v4_a, 4);
		memcpy(f + ip + 16, v4_b, 4);
		put16(f + ip + 10, rfc1071_fold(rfc1071_add(0, f + ip, 20)));
	} else {
		f[ip] = 6 << 4 | T_TOS >> 4;
		f[ip + 1] = (T_TOS & 15) << 4 | T_FLOW >> 16;
		put16(f + ip + 2, T_FLOW & 0xffff);
		put16(f + ip + 4, tcplen);	/* payload length */
		f[ip + 6] = 6;			/* next header: TCP */
		f[ip + 7] = T_TTL;
		memcpy(f + ip + 8, v6_a, 16);
		memcpy(f + ip + 24, v6_b, 16);
	}

	put16(f + tcp, 49152);
	put16(f + tcp + 2, 5000);
	put32(f + tcp + 4, T_SEQ);
	put32(f + tcp + 8, c->flags & IRDMA_TCP_ACK ? T_ACK : 0);
	f[tcp + 12] = (20 + optlen) / 4 << 4;
	f[tcp + 13] = c->flags;
	put16(f + tcp + 14, T_WIN);
	put16(f + tcp + 16, 0);
	put16(f + tcp + 18, 0);

	/* Pseudo-header (RFC 9293 3.1 / RFC 8200 8.1), then the segment. */
	if (c->ipv4) {
		sum = rfc1071_add(0, v4_a, 4);
		sum = rfc1071_add(sum, v4_b, 4);
		sum += 6 + tcplen;
	} else {
		sum = rfc1071_add(0, v6_a, 16);
		sum = rfc1071_add(sum, v6_b, 16);
		sum += (tcplen >> 16) + (tcplen & 0xffff) + 6;
	}
	sum = rfc1071_add(sum, f + tcp, tcplen);
	put16(f + tcp + 16, rfc1071_fold(sum));
	return tcp + tcplen;
}

#define FRAME_MAX 1600

static void build_matches_spec(struct kunit *test)
{
	const struct frame_case *c = test->param_value;
	u8 *got = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	u8 *want = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	u8 *payload = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	struct irdma_cm_seg s;
	u32 want_len, i;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, payload);
	case_seg(c, &s, payload);
	want_len = spec_frame(c, want);
	len = irdma_cm_build_seg(&s, got, FRAME_MAX);
	KUNIT_ASSERT_EQ(test, len, (int)want_len);
	KUNIT_EXPECT_EQ(test, irdma_cm_seg_hdr_len(&s), want_len - c->payload_len);
	for (i = 0; i < want_len; i++)
		if (got[i] != want[i]) {
			KUNIT_FAIL(test, "byte %u: got 0x%02x, want 0x%02x", i, got[i], want[i]);
			break;
		}
}

static void parse_reads_spec_frame(struct kunit *test)
{
	const struct frame_case *c = test->param_value;
	u8 *f = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	u8 *payload = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	struct irdma_cm_seg want, got;
	u32 len;

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, payload);
	case_seg(c, &want, payload);
	len = spec_frame(c, f);
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_seg(f, len, &got), IRDMA_SEG_OK);
	KUNIT_EXPECT_EQ(test, got.ipv4, c->ipv4);
	KUNIT_EXPECT_EQ(test, got.vlan, c->vlan);
	if (c->vlan)
		KUNIT_EXPECT_EQ(test, got.vlan_tci, T_TCI);
	KUNIT_EXPECT_EQ(test, memcmp(got.src_mac, mac_a, ETH_ALEN), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got.dst_mac, mac_b, ETH_ALEN), 0);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&got.src.ip, &want.src.ip));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&got.dst.ip, &want.dst.ip));
	KUNIT_EXPECT_EQ(test, got.src.port, 49152);
	KUNIT_EXPECT_EQ(test, got.dst.port, 5000);
	KUNIT_EXPECT_EQ(test, got.seq, T_SEQ);
	KUNIT_EXPECT_EQ(test, got.ack, c->flags & IRDMA_TCP_ACK ? T_ACK : 0);
	KUNIT_EXPECT_EQ(test, got.flags, c->flags);
	KUNIT_EXPECT_EQ(test, got.window, T_WIN);
	KUNIT_EXPECT_EQ(test, got.tos, T_TOS);
	KUNIT_EXPECT_EQ(test, got.ttl, T_TTL);
	KUNIT_EXPECT_EQ(test, got.flow_label, c->ipv4 ? 0 : T_FLOW);
	/* MSS and window scale only count in a SYN. */
	KUNIT_EXPECT_EQ(test, got.opts.has_mss, c->mss && (c->flags & IRDMA_TCP_SYN));
	KUNIT_EXPECT_EQ(test, got.opts.has_wscale, c->wscale && (c->flags & IRDMA_TCP_SYN));
	if (got.opts.has_mss)
		KUNIT_EXPECT_EQ(test, got.opts.mss, T_MSS);
	if (got.opts.has_wscale)
		KUNIT_EXPECT_EQ(test, got.opts.wscale, T_WSCALE);
	KUNIT_ASSERT_EQ(test, got.payload_len, c->payload_len);
	KUNIT_EXPECT_PTR_EQ(test, got.payload, (const u8 *)f + len - c->payload_len);
	KUNIT_EXPECT_EQ(test, memcmp(got.payload, payload, c->payload_len), 0);

	/* Ethernet padding after the datagram is not payload. */
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_seg(f, len + 6, &got), IRDMA_SEG_OK);
	KUNIT_EXPECT_EQ(test, got.payload_len, c->payload_len);
}

/*
 * Every prefix of a valid frame is refused, for the reason of the header
 * it cuts into, and nothing past the prefix is read (KASAN watches: the
 * prefix is copied into an allocation of exactly its size).
 */
static void parse_every_truncation(struct kunit *test)
{
	const struct frame_case *c = test->param_value;
	u8 *f = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	u32 len, cut, l2, l3, l4;
	struct irdma_cm_seg got;

	KUNIT_ASSERT_NOT_NULL(test, f);
	len = spec_frame(c, f);
	l2 = 14 + (c->vlan ? 4 : 0);
	l3 = l2 + (c->ipv4 ? 20 : 40);
	l4 = l3 + 20 + (c->mss ? 4 : 0) + (c->wscale ? 4 : 0);
	for (cut = 0; cut < len; cut++) {
		u8 *p = kmalloc(cut ?: 1, GFP_KERNEL);
		enum irdma_cm_seg_err want, err;

		KUNIT_ASSERT_NOT_NULL(test, p);
		memcpy(p, f, cut);
		if (cut < l2)
			want = IRDMA_SEG_TRUNC_ETH;
		else if (cut < l3)
			want = IRDMA_SEG_TRUNC_IP;
		else
			want = IRDMA_SEG_IP_LEN;	/* the IP length says more */
		err = irdma_cm_parse_seg(p, cut, &got);
		kfree(p);
		if (err != want) {
			KUNIT_FAIL(test, "cut at %u (headers end at %u): got %s, want %s",
				   cut, l4, irdma_cm_seg_err_name(err),
				   irdma_cm_seg_err_name(want));
			return;
		}
	}
}

/* Re-sum the IPv4 header after a mutation, so only the mutation shows. */
static void fix_ip_csum(u8 *f, u32 ip)
{
	u32 ihl = (f[ip] & 15) * 4;

	put16(f + ip + 10, 0);
	put16(f + ip + 10, rfc1071_fold(rfc1071_add(0, f + ip, ihl)));
}

static void parse_rejects_each_defect(struct kunit *test)
{
	static const struct frame_case v4 = { "v4", true, false, IRDMA_TCP_SYN, true, true, 0 };
	static const struct frame_case v6 = { "v6", false, false, IRDMA_TCP_ACK, false, false, 10 };
	u8 *f = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	struct irdma_cm_seg got;
	u32 len;

	KUNIT_ASSERT_NOT_NULL(test, f);
#define EXPECT_REFUSED(err, frame_len) \
	KUNIT_EXPECT_STREQ(test, irdma_cm_seg_err_name(irdma_cm_parse_seg(f, frame_len, &got)), \
			   irdma_cm_seg_err_name(err))

	/* EtherType ARP. */
	len = spec_frame(&v4, f);
	put16(f + 12, 0x0806);
	EXPECT_REFUSED(IRDMA_SEG_ETHERTYPE, len);

	/* IPv4 EtherType, version 6 header. */
	len = spec_frame(&v4, f);
	f[14] = 0x65;
	EXPECT_REFUSED(IRDMA_SEG_IP_VERSION, len);

	/* IHL 4. */
	len = spec_frame(&v4, f);
	f[14] = 0x44;
	EXPECT_REFUSED(IRDMA_SEG_IP_HDR_LEN, len);

	/* Total length below the header, and one byte past the frame. */
	len = spec_frame(&v4, f);
	put16(f + 16, 19);
	fix_ip_csum(f, 14);
	EXPECT_REFUSED(IRDMA_SEG_IP_LEN, len);
	len = spec_frame(&v4, f);
	put16(f + 16, len - 14 + 1);
	fix_ip_csum(f, 14);
	EXPECT_REFUSED(IRDMA_SEG_IP_LEN, len);

	/* One bit flipped in the IPv4 header. */
	len = spec_frame(&v4, f);
	f[14 + 8] ^= 1;
	EXPECT_REFUSED(IRDMA_SEG_IP_CSUM, len);

	/* More-fragments, then a fragment offset. */
	len = spec_frame(&v4, f);
	put16(f + 20, 0x2000);
	fix_ip_csum(f, 14);
	EXPECT_REFUSED(IRDMA_SEG_IP_FRAGMENT, len);
	len = spec_frame(&v4, f);
	put16(f + 20, 0x0001);
	fix_ip_csum(f, 14);
	EXPECT_REFUSED(IRDMA_SEG_IP_FRAGMENT, len);

	/* UDP. */
	len = spec_frame(&v4, f);
	f[14 + 9] = 17;
	fix_ip_csum(f, 14);
	EXPECT_REFUSED(IRDMA_SEG_NOT_TCP, len);

	/* Broadcast and multicast destinations, unspecified source. */
	len = spec_frame(&v4, f);
	memset(f + 14 + 16, 0xff, 4);
	fix_ip_csum(f, 14);
	EXPECT_REFUSED(IRDMA_SEG_BAD_ADDR, len);
	len = spec_frame(&v4, f);
	f[14 + 16] = 224;
	fix_ip_csum(f, 14);
	EXPECT_REFUSED(IRDMA_SEG_BAD_ADDR, len);
	len = spec_frame(&v4, f);
	memset(f + 14 + 12, 0, 4);
	fix_ip_csum(f, 14);
	EXPECT_REFUSED(IRDMA_SEG_BAD_ADDR, len);

	/* TCP data offset 4, and one beyond the datagram. */
	len = spec_frame(&v4, f);
	f[34 + 12] = 4 << 4;
	EXPECT_REFUSED(IRDMA_SEG_TCP_DOFF, len);
	len = spec_frame(&v4, f);
	f[34 + 12] = 15 << 4;
	EXPECT_REFUSED(IRDMA_SEG_TRUNC_TCP, len);

	/* One bit flipped in the TCP header. */
	len = spec_frame(&v4, f);
	f[34 + 4] ^= 0x80;
	EXPECT_REFUSED(IRDMA_SEG_TCP_CSUM, len);

	/* IPv6: version 4 header under the IPv6 EtherType. */
	len = spec_frame(&v6, f);
	f[14] = 0x45;
	EXPECT_REFUSED(IRDMA_SEG_IP_VERSION, len);
	/* Payload length one past the frame. */
	len = spec_frame(&v6, f);
	put16(f + 18, len - 54 + 1);
	EXPECT_REFUSED(IRDMA_SEG_IP_LEN, len);
	/* A hop-by-hop extension header. */
	len = spec_frame(&v6, f);
	f[20] = 0;
	EXPECT_REFUSED(IRDMA_SEG_NOT_TCP, len);
	/* Multicast destination. */
	len = spec_frame(&v6, f);
	f[38] = 0xff;
	EXPECT_REFUSED(IRDMA_SEG_BAD_ADDR, len);
	/* Payload corrupted. */
	len = spec_frame(&v6, f);
	f[len - 1] ^= 0x10;
	EXPECT_REFUSED(IRDMA_SEG_TCP_CSUM, len);
#undef EXPECT_REFUSED
}

/* Option lists (RFC 9293 3.2, RFC 7323 2.2) and their verdicts. */
struct opt_case {
	const char *name;
	u8 bytes[16];
	u8 len;
	bool syn;
	int ret;
	bool has_mss, has_wscale;
	u16 mss;
	u8 wscale;
};

static const struct opt_case opt_cases[] = {
	{ "empty", {}, 0, true, 0 },
	{ "NOP NOP EOL", { 1, 1, 0 }, 3, true, 0 },
	{ "MSS 1460", { 2, 4, 0x05, 0xb4 }, 4, true, 0, true, false, 1460 },
	{ "MSS ignored without SYN", { 2, 4, 0x05, 0xb4 }, 4, false, 0 },
	{ "MSS length 3", { 2, 3, 0x05, 0xb4 }, 4, true, -EINVAL },
	{ "MSS length 5", { 2, 5, 0x05, 0xb4, 0 }, 5, true, -EINVAL },
	{ "MSS 0", { 2, 4, 0, 0 }, 4, true, -EINVAL },
	{ "WS 7 after NOP", { 1, 3, 3, 7 }, 4, true, 0, false, true, 0, 7 },
	{ "WS 15 taken as 14", { 3, 3, 15, 0 }, 4, true, 0, false, true, 0, 14 },
	{ "WS length 4", { 3, 4, 7, 0 }, 4, true, -EINVAL },
	{ "unknown kind skipped", { 99, 6, 1, 2, 3, 4, 2, 4, 0x02, 0x18 }, 10, true, 0,
	  true, false, 536 },
	{ "timestamps skipped", { 1, 1, 8, 10, 1, 2, 3, 4, 5, 6, 7, 8 }, 12, true, 0 },
	{ "SACK permitted skipped", { 4, 2, 1, 1 }, 4, true, 0 },
	{ "length 0 (would loop)", { 99, 0, 1, 1 }, 4, true, -EINVAL },
	{ "length 1", { 99, 1, 1, 1 }, 4, true, -EINVAL },
	{ "length past the area", { 1, 1, 99, 3 }, 4, true, -EINVAL },
	{ "kind without length byte", { 1, 1, 1, 99 }, 4, true, -EINVAL },
	{ "garbage after EOL ignored", { 0, 99, 0, 0 }, 4, true, 0 },
	{ "MSS then WS", { 2, 4, 0x23, 0x28, 1, 3, 3, 2 }, 8, true, 0, true, true, 9000, 2 },
};

static void opt_case_desc(const struct opt_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(opt_case, opt_cases, opt_case_desc);

static void options_parse(struct kunit *test)
{
	const struct opt_case *c = test->param_value;
	struct irdma_tcp_opts o;
	u8 *buf = kunit_kzalloc(test, c->len ?: 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* An allocation of exactly the option length: KASAN sees over-reads. */
	memcpy(buf, c->bytes, c->len);
	KUNIT_ASSERT_EQ(test, irdma_process_options(buf, c->len, c->syn, &o), c->ret);
	if (c->ret)
		return;
	KUNIT_EXPECT_EQ(test, o.has_mss, c->has_mss);
	KUNIT_EXPECT_EQ(test, o.has_wscale, c->has_wscale);
	if (c->has_mss)
		KUNIT_EXPECT_EQ(test, o.mss, c->mss);
	if (c->has_wscale)
		KUNIT_EXPECT_EQ(test, o.wscale, c->wscale);
}

static void build_refuses_bad_requests(struct kunit *test)
{
	static const struct frame_case c = { "v4", true, false, IRDMA_TCP_ACK, false, false, 40 };
	u8 *f = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	u8 payload[40];
	struct irdma_cm_seg s;

	KUNIT_ASSERT_NOT_NULL(test, f);
	case_seg(&c, &s, payload);
	/* Exactly enough room, then one byte less. */
	KUNIT_EXPECT_EQ(test, irdma_cm_build_seg(&s, f, 14 + 20 + 20 + 40), 94);
	KUNIT_EXPECT_EQ(test, irdma_cm_build_seg(&s, f, 93), -EMSGSIZE);
	/* IPv4 wants IPv4-mapped addresses. */
	memcpy(&s.dst.ip, v6_b, 16);
	KUNIT_EXPECT_EQ(test, irdma_cm_build_seg(&s, f, FRAME_MAX), -EINVAL);
	case_seg(&c, &s, payload);
	s.opts.has_wscale = true;
	s.opts.wscale = 15;
	KUNIT_EXPECT_EQ(test, irdma_cm_build_seg(&s, f, FRAME_MAX), -EINVAL);
	/* An IPv4 datagram longer than 65535 bytes. */
	case_seg(&c, &s, payload);
	s.payload_len = 65535 - 40 + 1;
	KUNIT_EXPECT_EQ(test, irdma_cm_build_seg(&s, f, U32_MAX), -EMSGSIZE);
}

/* Random segments survive build then parse, from a fixed seed. */
static void build_parse_round_trip(struct kunit *test)
{
	u8 *f = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	u8 *payload = kunit_kzalloc(test, 1400, GFP_KERNEL);
	struct irdma_cm_seg s, got;
	struct rnd_state rnd;
	int i, len;

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, payload);
	prandom_seed_state(&rnd, 9293);
	for (i = 0; i < 500; i++) {
		memset(&s, 0, sizeof(s));
		prandom_bytes_state(&rnd, s.src_mac, ETH_ALEN);
		prandom_bytes_state(&rnd, s.dst_mac, ETH_ALEN);
		s.ipv4 = prandom_u32_state(&rnd) & 1;
		s.vlan = prandom_u32_state(&rnd) & 1;
		s.vlan_tci = s.vlan ? prandom_u32_state(&rnd) : 0;
		s.tos = prandom_u32_state(&rnd);
		s.ttl = prandom_u32_state(&rnd);
		if (s.ipv4) {
			u32 a = 0x0a000000 | (prandom_u32_state(&rnd) & 0xffffff);
			u32 b = 0x0a000000 | (prandom_u32_state(&rnd) & 0xffffff);

			ipv6_addr_set_v4mapped(htonl(a), &s.src.ip);
			ipv6_addr_set_v4mapped(htonl(b), &s.dst.ip);
		} else {
			prandom_bytes_state(&rnd, &s.src.ip, 16);
			prandom_bytes_state(&rnd, &s.dst.ip, 16);
			s.src.ip.s6_addr[0] = 0x20;
			s.dst.ip.s6_addr[0] = 0xfe;
			s.flow_label = prandom_u32_state(&rnd) & 0xfffff;
		}
		s.src.port = prandom_u32_state(&rnd);
		s.dst.port = prandom_u32_state(&rnd);
		s.seq = prandom_u32_state(&rnd);
		s.ack = prandom_u32_state(&rnd);
		s.flags = prandom_u32_state(&rnd) & 0x3f;
		s.window = prandom_u32_state(&rnd);
		s.opts.has_mss = prandom_u32_state(&rnd) & 1;
		s.opts.mss = (prandom_u32_state(&rnd) & 0x7fff) + 1;
		s.opts.has_wscale = prandom_u32_state(&rnd) & 1;
		s.opts.wscale = prandom_u32_state(&rnd) % 15;
		s.payload_len = prandom_u32_state(&rnd) % 1400;
		prandom_bytes_state(&rnd, payload, s.payload_len);
		s.payload = payload;

		len = irdma_cm_build_seg(&s, f, FRAME_MAX);
		KUNIT_ASSERT_GT(test, len, 0);
		KUNIT_ASSERT_EQ_MSG(test, irdma_cm_parse_seg(f, len, &got), IRDMA_SEG_OK,
				    "iteration %d", i);
		KUNIT_EXPECT_EQ(test, memcmp(got.src_mac, s.src_mac, ETH_ALEN), 0);
		KUNIT_EXPECT_EQ(test, got.ipv4, s.ipv4);
		KUNIT_EXPECT_EQ(test, got.vlan, s.vlan);
		KUNIT_EXPECT_EQ(test, got.vlan_tci, s.vlan_tci);
		KUNIT_EXPECT_EQ(test, got.tos, s.tos);
		KUNIT_EXPECT_EQ(test, got.ttl, s.ttl);
		KUNIT_EXPECT_EQ(test, got.flow_label, s.flow_label);
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&got.src.ip, &s.src.ip));
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&got.dst.ip, &s.dst.ip));
		KUNIT_EXPECT_EQ(test, got.src.port, s.src.port);
		KUNIT_EXPECT_EQ(test, got.dst.port, s.dst.port);
		KUNIT_EXPECT_EQ(test, got.seq, s.seq);
		KUNIT_EXPECT_EQ(test, got.ack, s.flags & IRDMA_TCP_ACK ? s.ack : 0);
		KUNIT_EXPECT_EQ(test, got.flags, s.flags);
		KUNIT_EXPECT_EQ(test, got.window, s.window);
		KUNIT_EXPECT_EQ(test, got.opts.has_mss,
				s.opts.has_mss && (s.flags & IRDMA_TCP_SYN));
		if (got.opts.has_mss)
			KUNIT_EXPECT_EQ(test, got.opts.mss, s.opts.mss);
		KUNIT_ASSERT_EQ(test, got.payload_len, s.payload_len);
		KUNIT_EXPECT_EQ(test, memcmp(got.payload, payload, s.payload_len), 0);
	}
}

/*
 * Insert @ext (a chain of IPv6 extension headers, @ext_len octets) between
 * the IPv6 header and the TCP header of the untagged IPv6 frame @f of
 * @len octets: Next Header becomes @first, Payload Length grows by
 * @ext_len. The TCP checksum stays valid: RFC 8200 8.1's pseudo-header
 * counts the upper-layer length only. Returns the new length.
 */
static u32 insert_ext(u8 *f, u32 len, u8 first, const u8 *ext, u32 ext_len)
{
	const u32 ip = 14, l4 = ip + 40;

	memmove(f + l4 + ext_len, f + l4, len - l4);
	memcpy(f + l4, ext, ext_len);
	put16(f + ip + 4, (f[ip + 4] << 8 | f[ip + 5]) + ext_len);
	f[ip + 6] = first;
	return len + ext_len;
}

/*
 * RFC 8200 4: a TCP segment behind Hop-by-Hop Options (0, first only),
 * Destination Options (60) or a Routing header (43) whose Segments Left is
 * 0 is still a TCP segment for this node; Hdr Ext Len counts 8-octet units
 * after the first 8. A Fragment header (44) is a fragment the host has
 * not reassembled; No Next Header (59) carries no TCP.
 */
static void parse_ipv6_extension_headers(struct kunit *test)
{
	static const struct frame_case v6 = {
		"v6", false, false, IRDMA_TCP_ACK, false, false, 100
	};
	/* Next Header TCP, Hdr Ext Len 0, PadN (1) of 4 octets. */
	static const u8 dst8[8] = { 6, 0, 1, 4, 0, 0, 0, 0 };
	/* Hop-by-Hop -> Destination Options (16 octets) -> TCP. */
	static const u8 hbh_dst[24] = { 60, 0, 1, 4, 0, 0, 0, 0,
					6, 1, 1, 12 };
	/* Routing type 2 (RFC 6275), Segments Left 0, one address. */
	static const u8 rh0[24] = { 6, 2, 2, 0 };
	static const u8 rh1[24] = { 6, 2, 2, 1 };
	/* Fragment: TCP, offset 0, M set. */
	static const u8 frag[8] = { 6, 0, 0, 1, 0, 0, 0, 42 };
	static const u8 none[8] = { 59, 0, 1, 4 };
	/* Hop-by-Hop after Destination Options: only first is allowed. */
	static const u8 dst_hbh[16] = { 0, 0, 1, 4, 0, 0, 0, 0,
					6, 0, 1, 4 };
	/* Destination Options announcing 16 octets more than there are. */
	static const u8 dst_long[8] = { 6, 2, 1, 4 };
	u8 *f = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	u8 *payload = kunit_kzalloc(test, FRAME_MAX, GFP_KERNEL);
	struct irdma_cm_seg want, got;
	u32 len, cut;

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, payload);
	case_seg(&v6, &want, payload);

	len = insert_ext(f, spec_frame(&v6, f), 60, dst8, sizeof(dst8));
	KUNIT_ASSERT_STREQ(test, irdma_cm_seg_err_name(irdma_cm_parse_seg(f, len, &got)),
			   irdma_cm_seg_err_name(IRDMA_SEG_OK));
	KUNIT_EXPECT_EQ(test, got.src.port, 49152);
	KUNIT_EXPECT_EQ(test, got.dst.port, 5000);
	KUNIT_EXPECT_EQ(test, got.seq, T_SEQ);
	KUNIT_ASSERT_EQ(test, got.payload_len, 100);
	KUNIT_EXPECT_EQ(test, memcmp(got.payload, payload, 100), 0);
	/* Every prefix cut into the chain or the segment is refused. */
	for (cut = 14 + 40; cut < len; cut++) {
		u8 *p = kunit_kmalloc(test, cut, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, p);
		memcpy(p, f, cut);
		KUNIT_EXPECT_NE_MSG(test, irdma_cm_parse_seg(p, cut, &got),
				    IRDMA_SEG_OK, "cut at %u", cut);
		kunit_kfree(test, p);
	}

	len = insert_ext(f, spec_frame(&v6, f), 0, hbh_dst, sizeof(hbh_dst));
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_seg(f, len, &got), IRDMA_SEG_OK);
	KUNIT_EXPECT_EQ(test, got.payload_len, 100);
	KUNIT_EXPECT_EQ(test, memcmp(got.payload, payload, 100), 0);

	len = insert_ext(f, spec_frame(&v6, f), 43, rh0, sizeof(rh0));
	KUNIT_ASSERT_EQ(test, irdma_cm_parse_seg(f, len, &got), IRDMA_SEG_OK);
	KUNIT_EXPECT_EQ(test, got.payload_len, 100);

	len = insert_ext(f, spec_frame(&v6, f), 43, rh1, sizeof(rh1));
	EXPECT_EXT_REFUSED(IRDMA_SEG_IP6_EXTHDR);
	len = insert_ext(f, spec_frame(&v6, f), 60, dst_hbh, sizeof(dst_hbh));
	EXPECT_EXT_REFUSED(IRDMA_SEG_IP6_EXTHDR);
	len = insert_ext(f, spec_frame(&v6, f), 44, frag, sizeof(frag));
	EXPECT_EXT_REFUSED(IRDMA_SEG_IP_FRAGMENT);
	len = insert_ext(f, spec_frame(&v6, f), 60, none, sizeof(none));
	EXPECT_EXT_REFUSED(IRDMA_SEG_NOT_TCP);
	/* 24 octets announced, 8 there: the TCP header read is not one. */
	len = insert_ext(f, spec_frame(&v6, f), 60, dst_long, sizeof(dst_long));
	KUNIT_EXPECT_NE(test, irdma_cm_parse_seg(f, len, &got), IRDMA_SEG_OK);
	/* Announced past the payload length. */
	len = insert_ext(f, spec_frame(&v6, f), 60, dst_long, sizeof(dst_long));
	put16(f + 14 + 4, 8);
	EXPECT_EXT_REFUSED(IRDMA_SEG_IP_LEN);
}

static void seg_counters(struct kunit *test)
{
	struct irdma_cm_seg_stats st = {};
	int i;

	for (i = 0; i < IRDMA_SEG_ERR_MAX; i++)
		KUNIT_EXPECT_STRNEQ(test, irdma_cm_seg_err_name(i), "unknown");
	irdma_cm_seg_count(&st, IRDMA_SEG_TCP_CSUM);
	irdma_cm_seg_count(&st, IRDMA_SEG_TCP_CSUM);
	irdma_cm_seg_count(&st, IRDMA_SEG_ERR_MAX);	/* out of range: ignored */
	KUNIT_EXPECT_EQ(test, atomic64_read(&st.drops[IRDMA_SEG_TCP_CSUM]), 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(&st.drops[IRDMA_SEG_OK]), 0);
}

static struct kunit_case tcp_seg_cases[] = {
	KUNIT_CASE_PARAM(build_matches_spec, frame_case_gen_params),
	KUNIT_CASE_PARAM(parse_reads_spec_frame, frame_case_gen_params),
	KUNIT_CASE_PARAM(parse_every_truncation, frame_case_gen_params),
	KUNIT_CASE(parse_rejects_each_defect),
	KUNIT_CASE_PARAM(options_parse, opt_case_gen_params),
	KUNIT_CASE(build_refuses_bad_requests),
	KUNIT_CASE(build_parse_round_trip),
	KUNIT_CASE(parse_ipv6_extension_headers),
	KUNIT_CASE(seg_counters),
	{}
};

static struct kunit_suite tcp_seg_suite = {
	.name = "madcm_cm_tcp_seg",
	.test_cases = tcp_seg_cases,
};

kunit_test_suite(tcp_seg_suite);
