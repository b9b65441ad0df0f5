// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address handles of madcm's ports on ib_core devices. On InfiniBand (and
 * OPA) an address is a LID, with a GRH when given. On RoCE it is a GID:
 * ib_core's address handle needs a local GID of the right type and the
 * destination's MAC. The local GID is chosen by the destination's family
 * (IPv4-mapped or IPv6, link-local with link-local, RoCE v2 before v1);
 * ib_init_ah_attr_from_wc() then resolves the rest as it would for a reply
 * to a MAD that came from the destination to that GID.
 *
 * The ib_core handles are listed per port: when the device goes they are
 * destroyed with it, and the madcm handles that ULPs still hold are left
 * empty until the ULPs destroy them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/if_vlan.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "ib_port.h"

/* The IPv6 next header of a RoCE v1 GRH (IBTA annex A16). */
#define MADCM_IB_ROCE_V1_NEXT_HDR	0x1b

static bool madcm_ib_gid_is_v4(const union ib_gid *gid)
{
	return ipv6_addr_v4mapped((const struct in6_addr *)gid->raw);
}

static bool madcm_ib_gid_is_ll(const union ib_gid *gid)
{
	return ipv6_addr_type((const struct in6_addr *)gid->raw) &
	       IPV6_ADDR_LINKLOCAL;
}

/* How well a local GID suits a destination; negative: not at all. */
static int madcm_ib_sgid_score(const struct ib_gid_attr *a,
			       const union ib_gid *dgid)
{
	bool v4 = madcm_ib_gid_is_v4(dgid);
	int score = 0;

	if (a->gid_type != IB_GID_TYPE_ROCE &&
	    a->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -1;
	if (madcm_ib_gid_is_v4(&a->gid) != v4)
		return -1;
	/* IPv4 needs RoCE v2; otherwise v2 is preferred. */
	if (a->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP)
		score += 2;
	else if (v4)
		return -1;
	if (!v4 && madcm_ib_gid_is_ll(&a->gid) == madcm_ib_gid_is_ll(dgid))
		score += 1;
	return score;
}

/* The local GID to reach @dgid from, with a reference, or an ERR_PTR(). */
static const struct ib_gid_attr *
madcm_ib_pick_sgid(struct madcm_ib_port *ip, const union ib_gid *dgid)
{
	int len = ip->device->port_data[ip->port_num].immutable.gid_tbl_len;
	const struct ib_gid_attr *best = NULL, *a;
	int best_score = -1, score, i;

	for (i = 0; i < len; i++) {
		a = rdma_get_gid_attr(ip->device, ip->port_num, i);
		if (IS_ERR(a))
			continue;
		score = madcm_ib_sgid_score(a, dgid);
		if (score > best_score) {
			if (best)
				rdma_put_gid_attr(best);
			best = a;
			best_score = score;
		} else {
			rdma_put_gid_attr(a);
		}
	}
	return best ?: ERR_PTR(-EHOSTUNREACH);
}

/*
 * A RoCE address: pick the local GID, then let ib_core resolve the
 * destination MAC and hop limit as for a reply to a MAD the destination
 * sent to that GID.
 */
static int madcm_ib_roce_attr(struct madcm_ib_port *ip,
			      const struct rdma_ah_attr *in,
			      struct rdma_ah_attr *out)
{
	const struct ib_global_route *g;
	union rdma_network_hdr hdr = {};
	const struct ib_gid_attr *sgid;
	struct ib_wc wc = {};
	u16 vlan = 0xffff;

	if (!(rdma_ah_get_ah_flags(in) & IB_AH_GRH))
		return -EINVAL;
	g = rdma_ah_read_grh(in);
	sgid = madcm_ib_pick_sgid(ip, &g->dgid);
	if (IS_ERR(sgid))
		return PTR_ERR(sgid);
	wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc.sl = rdma_ah_get_sl(in);
	if (sgid->gid_type == IB_GID_TYPE_ROCE)
		wc.network_hdr_type = RDMA_NETWORK_ROCE_V1;
	else if (madcm_ib_gid_is_v4(&g->dgid))
		wc.network_hdr_type = RDMA_NETWORK_IPV4;
	else
		wc.network_hdr_type = RDMA_NETWORK_IPV6;
	if (!rdma_read_gid_l2_fields(sgid, &vlan, NULL) && vlan < VLAN_N_VID) {
		wc.wc_flags |= IB_WC_WITH_VLAN;
		wc.vlan_id = vlan;
	}
	if (wc.network_hdr_type == RDMA_NETWORK_IPV4) {
		hdr.roce4grh.version = 4;
		hdr.roce4grh.ihl = 5;
		memcpy(&hdr.roce4grh.saddr, &g->dgid.raw[12], 4);
		memcpy(&hdr.roce4grh.daddr, &sgid->gid.raw[12], 4);
	} else {
		hdr.ibgrh.version_tclass_flow =
			cpu_to_be32(6 << 28 | g->traffic_class << 20 |
				    (g->flow_label & 0xfffff));
		hdr.ibgrh.next_hdr =
			wc.network_hdr_type == RDMA_NETWORK_IPV6 ?
			IPPROTO_UDP : MADCM_IB_ROCE_V1_NEXT_HDR;
		hdr.ibgrh.sgid = g->dgid;
		hdr.ibgrh.dgid = sgid->gid;
	}
	rdma_put_gid_attr(sgid);
	return ib_init_ah_attr_from_wc(ip->device, ip->port_num, &wc,
				       &hdr.ibgrh, out);
}

/* An InfiniBand (or OPA) address: the LID, and the GRH when given. */
static void madcm_ib_lid_attr(struct madcm_ib_port *ip,
			      const struct rdma_ah_attr *in,
			      struct rdma_ah_attr *out)
{
	const struct ib_global_route *g;
	union ib_gid dgid;

	memset(out, 0, sizeof(*out));
	out->type = rdma_ah_find_type(ip->device, ip->port_num);
	rdma_ah_set_port_num(out, ip->port_num);
	rdma_ah_set_dlid(out, rdma_ah_get_dlid(in));
	rdma_ah_set_sl(out, rdma_ah_get_sl(in));
	rdma_ah_set_path_bits(out, rdma_ah_get_path_bits(in));
	if (rdma_ah_get_ah_flags(in) & IB_AH_GRH) {
		g = rdma_ah_read_grh(in);
		dgid = g->dgid;
		rdma_ah_set_grh(out, &dgid, g->flow_label, g->sgid_index,
				g->hop_limit ?: 0xff, g->traffic_class);
	}
}

int madcm_ib_create_ah(struct madcm_port *port, struct madcm_ah *ah,
		       gfp_t gfp)
{
	struct madcm_ib_port *ip = port->priv;
	struct rdma_ah_attr attr;
	struct madcm_ib_ah *iah;
	int ret = 0;

	/* Resolving a RoCE destination sleeps. */
	if (!gfpflags_allow_blocking(gfp))
		return -EAGAIN;
	iah = kzalloc(sizeof(*iah), gfp);
	if (!iah)
		return -ENOMEM;
	mutex_lock(&ip->ah_mutex);
	if (ip->ah_dead) {
		ret = -ENODEV;
		goto err;
	}
	if (rdma_protocol_roce(ip->device, ip->port_num))
		ret = madcm_ib_roce_attr(ip, &ah->attr, &attr);
	else
		madcm_ib_lid_attr(ip, &ah->attr, &attr);
	if (ret)
		goto err;
	iah->ah = rdma_create_ah(ip->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	rdma_destroy_ah_attr(&attr);
	if (IS_ERR(iah->ah)) {
		ret = PTR_ERR(iah->ah);
		goto err;
	}
	list_add(&iah->node, &ip->ahs);
	mutex_unlock(&ip->ah_mutex);
	ah->priv = iah;
	return 0;
err:
	mutex_unlock(&ip->ah_mutex);
	kfree(iah);
	return ret;
}

void madcm_ib_destroy_ah(struct madcm_port *port, struct madcm_ah *ah)
{
	struct madcm_ib_port *ip = port->priv;
	struct madcm_ib_ah *iah = ah->priv;

	if (!iah)
		return;
	mutex_lock(&ip->ah_mutex);
	if (iah->ah) {
		rdma_destroy_ah(iah->ah, RDMA_DESTROY_AH_SLEEPABLE);
		list_del(&iah->node);
	}
	mutex_unlock(&ip->ah_mutex);
	kfree(iah);
}

/* The device is going: destroy every ib_core handle of the port. */
void madcm_ib_ahs_release(struct madcm_ib_port *ip)
{
	struct madcm_ib_ah *iah, *tmp;

	mutex_lock(&ip->ah_mutex);
	ip->ah_dead = true;
	list_for_each_entry_safe(iah, tmp, &ip->ahs, node) {
		rdma_destroy_ah(iah->ah, RDMA_DESTROY_AH_SLEEPABLE);
		iah->ah = NULL;
		list_del_init(&iah->node);
	}
	mutex_unlock(&ip->ah_mutex);
}
