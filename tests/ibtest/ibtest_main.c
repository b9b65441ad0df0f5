// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_ibtest: the VM tests' helper for madcm on ib_core devices. It puts
 * two agents on madcm's port of a device (a client, and a vendor-class
 * service answering Gets) and two on ib_core's own MAD layer of the same
 * port (likewise), and runs one exchange per command written to
 * /sys/kernel/debug/madcm_ibtest/ctl; the write fails with -EIO when the
 * exchange did not give what IBTA says it must. The kernel log tells what
 * happened:
 *
 *   open DEV               agents on port 1 of DEV, both stacks
 *   unsupported GID        madcm Get of a class nobody has, to QP1 at GID:
 *                          expects ib_core's GetResp, status 0x000C
 *   mget GID QPN           madcm client to a madcm service at GID, QPN
 *   kget GID               madcm client to the ib_core service at GID
 *   peerqpn GID            ask the ib_core service at GID for its madcm
 *                          QPN: "madcm_ibtest: peer GID: madcm qpn N"
 *   kreq GID QPN           ib_core client to a madcm service at GID, QPN
 *   raw GID QPN            malformed MADs from a raw UD QP to GID, QPN
 *   flood GID N            N madcm Gets to QP1 at GID kept in flight, each
 *                          posted again when its send handler returns
 *   flooddone              stop; every send must come back exactly once
 *   qperr GID              an unsupported-class Get to QP1 at GID, and
 *                          madcm's QP on DEV seen in its send completion
 *                          moved to the error state (ibtest_qperr.c)
 *   rmpp FROM TO GID QPN LEN [MS]
 *                          an RMPP Set of LEN bytes from the FROM client
 *                          (madcm or kernel) to the TO service at GID,
 *                          QPN, answered by an RMPP GetResp of LEN bytes;
 *                          both byte-exact (ibtest_rmpp.c)
 *   close                  unregister everything
 *
 * It is an ib_client registered after madcm, so ib_core removes it from a
 * device first: it then drops its ib_core agents and leaves its madcm
 * agents to madcm's own removal, which must flush them.
 */
#include <linux/debugfs.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <madcm/mad.h>

#include "madcm_ibtest.h"

#define IBT_CLASS		0x30	/* vendor range 2 */
#define IBT_VERSION		1
#define IBT_ATTR		0x0021
#define IBT_ATTR_QPN		0x0022	/* the answer names madcm's QPN */
#define IBT_UNSUP_CLASS		0x09	/* vendor range 1, nobody's */
#define IBT_UNSUP_ATTR		0xff01
#define IBT_TIMEOUT_MS		300
#define IBT_RETRIES		15

static const u8 ibt_oui_madcm[3] = { 0x00, 0x14, 0x05 };
static const u8 ibt_oui_kernel[3] = { 0x00, 0x14, 0x06 };
static const char ibt_madcm_answer[] = "hello from a madcm service";
static const char ibt_kernel_answer[] = "hello from an ib_core service";

struct ibt_state ibt;

/* What one request got back. */
static struct {
	struct completion done;
	enum ib_wc_status wc_status;
	bool got;
	u8 method;
	u16 status;
	char data[64];
} ibt_w;

static void ibt_record(const struct ib_mad_recv_wc *wc)
{
	const struct ib_vendor_mad *m = (const void *)wc->recv_buf.mad;

	ibt_w.got = true;
	ibt_w.method = m->mad_hdr.method;
	ibt_w.status = be16_to_cpu(m->mad_hdr.status);
	strscpy(ibt_w.data, m->data, sizeof(ibt_w.data));
}

/* Fill a vendor-class Get. */
void ibt_fill_get(struct ib_mad_send_buf *sb, u8 mgmt_class, u16 attr,
		  const u8 *oui, u64 tid)
{
	struct ib_vendor_mad *m = sb->mad;

	m->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	m->mad_hdr.mgmt_class = mgmt_class;
	m->mad_hdr.class_version = IBT_VERSION;
	m->mad_hdr.method = IB_MGMT_METHOD_GET;
	m->mad_hdr.tid = cpu_to_be64(tid);
	m->mad_hdr.attr_id = cpu_to_be16(attr);
	if (oui)
		memcpy(m->oui, oui, sizeof(m->oui));
}

/* The answer of a service: the request back as a GetResp with @text. */
static void ibt_fill_answer(struct ib_mad_send_buf *sb,
			    const struct ib_mad_recv_wc *wc, const char *text)
{
	const struct ib_vendor_mad *req = (const void *)wc->recv_buf.mad;
	struct ib_vendor_mad *resp = sb->mad;

	resp->mad_hdr = req->mad_hdr;
	resp->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	resp->mad_hdr.status = 0;
	memcpy(resp->oui, req->oui, sizeof(resp->oui));
	strscpy(resp->data, text, sizeof(resp->data));
}

/* madcm client. */
static void ibt_m_send_handler(struct ib_mad_agent *agent,
			       struct ib_mad_send_wc *wc)
{
	if (wc->send_buf->context[0]) {
		ibt_flood_done(wc);
		return;
	}
	ibt_w.wc_status = wc->status;
	madcm_free_send_mad(wc->send_buf);
	complete(&ibt_w.done);
}

static void ibt_m_recv_handler(struct ib_mad_agent *agent,
			       struct ib_mad_send_buf *send_buf,
			       struct ib_mad_recv_wc *wc)
{
	if (send_buf && send_buf->context[0])
		ibt_flood_resp();
	else if (send_buf)
		ibt_record(wc);
	madcm_free_recv_mad(wc);
}

/* madcm service. */
static void ibt_ms_send_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_wc *wc)
{
	madcm_destroy_ah(wc->send_buf->ah);
	madcm_free_send_mad(wc->send_buf);
}

static void ibt_ms_recv_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_buf *send_buf,
				struct ib_mad_recv_wc *wc)
{
	struct ib_mad_send_buf *sb;
	struct ib_ah *ah;

	ah = madcm_create_ah_from_wc(ibt.mport, wc->wc, wc->recv_buf.grh);
	if (IS_ERR(ah))
		goto out;
	sb = madcm_create_send_mad(agent, wc->wc->src_qp, wc->wc->pkey_index,
				   0, IB_MGMT_VENDOR_HDR, IB_MGMT_VENDOR_DATA,
				   GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		madcm_destroy_ah(ah);
		goto out;
	}
	ibt_fill_answer(sb, wc, ibt_madcm_answer);
	sb->ah = ah;
	if (madcm_post_send_mad(sb, NULL)) {
		madcm_free_send_mad(sb);
		madcm_destroy_ah(ah);
	}
out:
	madcm_free_recv_mad(wc);
}

/* ib_core client. */
static void ibt_k_send_handler(struct ib_mad_agent *agent,
			       struct ib_mad_send_wc *wc)
{
	ibt_w.wc_status = wc->status;
	rdma_destroy_ah(wc->send_buf->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(wc->send_buf);
	complete(&ibt_w.done);
}

static void ibt_k_recv_handler(struct ib_mad_agent *agent,
			       struct ib_mad_send_buf *send_buf,
			       struct ib_mad_recv_wc *wc)
{
	if (send_buf)
		ibt_record(wc);
	ib_free_recv_mad(wc);
}

/* ib_core service. */
static void ibt_ks_send_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_wc *wc)
{
	rdma_destroy_ah(wc->send_buf->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(wc->send_buf);
}

static void ibt_ks_recv_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_buf *send_buf,
				struct ib_mad_recv_wc *wc)
{
	struct ib_mad_send_buf *sb;
	struct ib_ah *ah;

	ah = ib_create_ah_from_wc(agent->qp->pd, wc->wc, wc->recv_buf.grh,
				  agent->port_num);
	if (IS_ERR(ah))
		goto out;
	sb = ib_create_send_mad(agent, wc->wc->src_qp, wc->wc->pkey_index, 0,
				IB_MGMT_VENDOR_HDR, IB_MGMT_VENDOR_DATA,
				GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		goto out;
	}
	ibt_fill_answer(sb, wc, ibt_kernel_answer);
	if (((struct ib_mad_hdr *)sb->mad)->attr_id ==
	    cpu_to_be16(IBT_ATTR_QPN))
		snprintf(((struct ib_vendor_mad *)sb->mad)->data,
			 IB_MGMT_VENDOR_DATA, "qpn %u",
			 madcm_port_qpn(ibt.mport));
	sb->ah = ah;
	if (ib_post_send_mad(sb, NULL)) {
		ib_free_send_mad(sb);
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	}
out:
	ib_free_recv_mad(wc);
}

int ibt_parse_gid(const char *s, union ib_gid *gid)
{
	return in6_pton(s, -1, gid->raw, -1, NULL) ? 0 : -EINVAL;
}

/* A madcm address handle for a GID. */
struct ib_ah *ibt_madcm_ah(const union ib_gid *gid)
{
	struct rdma_ah_attr attr = { .type = RDMA_AH_ATTR_TYPE_ROCE };

	rdma_ah_set_ah_flags(&attr, IB_AH_GRH);
	attr.grh.dgid = *gid;
	attr.grh.hop_limit = 0xff;
	return madcm_create_ah(ibt.mport, &attr);
}

/*
 * An ib_core address handle for a GID: as for a reply to a MAD from @gid
 * to a local GID of the same family (ib_core resolves the MAC).
 */
struct ib_ah *ibt_kernel_ah(const union ib_gid *gid)
{
	return ibt_kernel_ah_pd(ibt.k_client->qp->pd, gid);
}

/* The same in a protection domain of the caller's. */
struct ib_ah *ibt_kernel_ah_pd(struct ib_pd *pd, const union ib_gid *gid)
{
	bool v4 = ipv6_addr_v4mapped((const struct in6_addr *)gid->raw);
	const struct ib_gid_attr *a, *best = NULL;
	union rdma_network_hdr hdr = {};
	struct ib_wc wc = {};
	struct ib_ah *ah;
	int i, len;

	len = ibt.dev->port_data[1].immutable.gid_tbl_len;
	for (i = 0; i < len && !best; i++) {
		a = rdma_get_gid_attr(ibt.dev, 1, i);
		if (IS_ERR(a))
			continue;
		if (a->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		    ipv6_addr_v4mapped((const struct in6_addr *)a->gid.raw) == v4)
			best = a;
		else
			rdma_put_gid_attr(a);
	}
	if (!best)
		return ERR_PTR(-EHOSTUNREACH);
	wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	if (v4) {
		wc.network_hdr_type = RDMA_NETWORK_IPV4;
		hdr.roce4grh.version = 4;
		hdr.roce4grh.ihl = 5;
		memcpy(&hdr.roce4grh.saddr, &gid->raw[12], 4);
		memcpy(&hdr.roce4grh.daddr, &best->gid.raw[12], 4);
	} else {
		wc.network_hdr_type = RDMA_NETWORK_IPV6;
		hdr.ibgrh.version_tclass_flow = cpu_to_be32(6 << 28);
		hdr.ibgrh.next_hdr = IPPROTO_UDP;
		hdr.ibgrh.sgid = *gid;
		hdr.ibgrh.dgid = best->gid;
	}
	rdma_put_gid_attr(best);
	ah = ib_create_ah_from_wc(pd, &wc, &hdr.ibgrh, 1);
	return ah;
}

/* Wait for a synchronous request's send handler; 0 or -ETIMEDOUT. */
static int ibt_wait(void)
{
	if (!wait_for_completion_timeout(&ibt_w.done,
					 msecs_to_jiffies(IBT_TIMEOUT_MS *
							  (IBT_RETRIES + 2))))
		return -ETIMEDOUT;
	return 0;
}

/* A madcm Get to @qpn at @gid; the answer lands in ibt_w. */
static int ibt_madcm_get(const union ib_gid *gid, u32 qpn, u8 mgmt_class,
			 u16 attr, const u8 *oui)
{
	struct ib_mad_send_buf *sb;
	struct ib_ah *ah;
	int ret;

	ah = ibt_madcm_ah(gid);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	sb = madcm_create_send_mad(ibt.m_client, qpn, 0, 0,
				   IB_MGMT_VENDOR_HDR, IB_MGMT_VENDOR_DATA,
				   GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		madcm_destroy_ah(ah);
		return PTR_ERR(sb);
	}
	ibt_fill_get(sb, mgmt_class, attr, oui,
		     (u64)ibt.m_client->hi_tid << 32 | ++ibt.tid);
	sb->ah = ah;
	sb->timeout_ms = IBT_TIMEOUT_MS;
	sb->retries = IBT_RETRIES;
	memset(&ibt_w, 0, sizeof(ibt_w));
	init_completion(&ibt_w.done);
	ret = madcm_post_send_mad(sb, NULL);
	if (ret)
		madcm_free_send_mad(sb);
	else
		ret = ibt_wait();
	madcm_destroy_ah(ah);
	return ret;
}

/* An ib_core Get to @qpn at @gid; the answer lands in ibt_w. */
static int ibt_kernel_get(const union ib_gid *gid, u32 qpn)
{
	struct ib_mad_send_buf *sb;
	struct ib_ah *ah;
	int ret;

	ah = ibt_kernel_ah(gid);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	sb = ib_create_send_mad(ibt.k_client, qpn, 0, 0, IB_MGMT_VENDOR_HDR,
				IB_MGMT_VENDOR_DATA, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return PTR_ERR(sb);
	}
	ibt_fill_get(sb, IBT_CLASS, IBT_ATTR, ibt_oui_madcm,
		     (u64)ibt.k_client->hi_tid << 32 | ++ibt.tid);
	sb->ah = ah;
	sb->timeout_ms = IBT_TIMEOUT_MS;
	sb->retries = IBT_RETRIES;
	memset(&ibt_w, 0, sizeof(ibt_w));
	init_completion(&ibt_w.done);
	ret = ib_post_send_mad(sb, NULL);
	if (ret) {
		ib_free_send_mad(sb);
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return ret;
	}
	return ibt_wait();
}

/* Judge ibt_w: a GetResp with @status (and @text when given). */
static int ibt_judge(const char *what, int ret, u16 status, const char *text)
{
	bool pass = !ret && ibt_w.wc_status == IB_WC_SUCCESS && ibt_w.got &&
		    ibt_w.method == IB_MGMT_METHOD_GET_RESP &&
		    ibt_w.status == status &&
		    (!text || !strcmp(ibt_w.data, text));

	pr_info("madcm_ibtest: %s: %s (ret %d, wc status %d, response %s, method 0x%02x, status 0x%04x, data \"%s\")\n",
		what, pass ? "PASS" : "FAIL", ret, ibt_w.wc_status,
		ibt_w.got ? "yes" : "no", ibt_w.method, ibt_w.status,
		ibt_w.data);
	return pass ? 0 : -EIO;
}

static void ibt_put_kernel_agents(void)
{
	ibt_rmpp_close_kernel();
	if (!IS_ERR_OR_NULL(ibt.k_client))
		ib_unregister_mad_agent(ibt.k_client);
	if (!IS_ERR_OR_NULL(ibt.k_server))
		ib_unregister_mad_agent(ibt.k_server);
	ibt.k_client = NULL;
	ibt.k_server = NULL;
}

static void ibt_close(void)
{
	ibt_flood_stop();
	ibt_bench_close();
	ibt_put_kernel_agents();
	ibt_rmpp_close();
	if (!IS_ERR_OR_NULL(ibt.m_client))
		madcm_unregister_mad_agent(ibt.m_client);
	if (!IS_ERR_OR_NULL(ibt.m_server))
		madcm_unregister_mad_agent(ibt.m_server);
	ibt.m_client = NULL;
	ibt.m_server = NULL;
	ibt.mport = NULL;
	if (ibt.dev && !ibt.dev_gone)
		ib_device_put(ibt.dev);
	ibt.dev = NULL;
	ibt.dev_gone = false;
}

static int ibt_open(const char *name)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = IBT_CLASS,
		.mgmt_class_version = IBT_VERSION,
	};
	int ret;

	if (ibt.dev || ibt.mport)
		return -EBUSY;
	ibt.dev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (!ibt.dev)
		return -ENODEV;
	ibt.mport = madcm_ib_get_port(ibt.dev, 1);
	if (!ibt.mport) {
		ret = -ENODEV;
		goto err;
	}
	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	memcpy(req.oui, ibt_oui_madcm, sizeof(req.oui));
	ibt.m_server = madcm_register_mad_agent(ibt.mport, IB_QPT_GSI, &req, 0,
						ibt_ms_send_handler,
						ibt_ms_recv_handler, NULL, 0);
	ibt.m_client = madcm_register_mad_agent(ibt.mport, IB_QPT_GSI, NULL, 0,
						ibt_m_send_handler,
						ibt_m_recv_handler, NULL, 0);
	memcpy(req.oui, ibt_oui_kernel, sizeof(req.oui));
	ibt.k_server = ib_register_mad_agent(ibt.dev, 1, IB_QPT_GSI, &req, 0,
					     ibt_ks_send_handler,
					     ibt_ks_recv_handler, NULL, 0);
	ibt.k_client = ib_register_mad_agent(ibt.dev, 1, IB_QPT_GSI, NULL, 0,
					     ibt_k_send_handler,
					     ibt_k_recv_handler, NULL, 0);
	ret = PTR_ERR_OR_ZERO(ibt.m_server) ?: PTR_ERR_OR_ZERO(ibt.m_client) ?:
	      PTR_ERR_OR_ZERO(ibt.k_server) ?: PTR_ERR_OR_ZERO(ibt.k_client) ?:
	      ibt_rmpp_open();
	if (ret)
		goto err;
	pr_info("madcm_ibtest: open %s: madcm QPN %u\n", name,
		madcm_port_qpn(ibt.mport));
	return 0;
err:
	ibt_close();
	return ret;
}

/*
 * "pkey INDEX": create (and free) a GMP send buffer for P_Key index INDEX
 * on madcm's port. The write fails with the error madcm refuses it with.
 */
static int ibt_pkey(const char *arg)
{
	struct ib_mad_send_buf *sb;
	u16 index;

	if (kstrtou16(arg, 0, &index))
		return -EINVAL;
	sb = madcm_create_send_mad(ibt.m_client, 1, index, 0,
				   IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA,
				   GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		pr_info("madcm_ibtest: P_Key index %u refused: %ld\n", index,
			PTR_ERR(sb));
		return PTR_ERR(sb);
	}
	pr_info("madcm_ibtest: P_Key index %u taken\n", index);
	madcm_free_send_mad(sb);
	return 0;
}

/* The ctl file: one command per write. */
static int ibt_command(char *cmd)
{
	char *argv[7] = {};
	union ib_gid gid;
	int argc = 0, ret;
	u32 num = 0;

	while (argc < ARRAY_SIZE(argv) && (argv[argc] = strsep(&cmd, "\n\t ")))
		if (*argv[argc])
			argc++;
	if (!argc)
		return -EINVAL;
	if (!strcmp(argv[0], "open") && argc == 2)
		return ibt_open(argv[1]);
	if (!strcmp(argv[0], "close")) {
		ibt_close();
		return 0;
	}
	if (!ibt.mport)
		return -ENODEV;
	if (!strcmp(argv[0], "flooddone"))
		return ibt_flood_finish();
	if (ibt.dev_gone)
		return -ENODEV;
	if (!strncmp(argv[0], "bench", 5))
		return ibt_bench(argc, argv);
	if (!strcmp(argv[0], "rmpp"))
		return ibt_rmpp(argc, argv);
	if (!strcmp(argv[0], "pkey") && argc == 2)
		return ibt_pkey(argv[1]);
	if (argc < 2 || ibt_parse_gid(argv[1], &gid))
		return -EINVAL;
	if (argc > 2 && kstrtou32(argv[2], 0, &num))
		return -EINVAL;

	if (!strcmp(argv[0], "unsupported")) {
		ret = ibt_madcm_get(&gid, 1, IBT_UNSUP_CLASS, IBT_UNSUP_ATTR,
				    NULL);
		return ibt_judge("madcm Get of an unsupported class to QP1", ret,
				 IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB,
				 NULL);
	}
	if (!strcmp(argv[0], "qperr")) {
		/* The Get's send completion shows madcm's QP. */
		ret = ibt_qperr_arm();
		if (ret)
			return ret;
		ret = ibt_madcm_get(&gid, 1, IBT_UNSUP_CLASS, IBT_UNSUP_ATTR,
				    NULL);
		return ibt_qperr_fire(ret);
	}
	if (!strcmp(argv[0], "kget")) {
		ret = ibt_madcm_get(&gid, 1, IBT_CLASS, IBT_ATTR,
				    ibt_oui_kernel);
		return ibt_judge("madcm Get to the ib_core service", ret, 0,
				 ibt_kernel_answer);
	}
	if (!strcmp(argv[0], "peerqpn")) {
		ret = ibt_madcm_get(&gid, 1, IBT_CLASS, IBT_ATTR_QPN,
				    ibt_oui_kernel);
		if (!ret && ibt_w.got)
			pr_info("madcm_ibtest: peer %s: madcm %s\n", argv[1],
				ibt_w.data);
		return ret ?: ibt_w.got ? 0 : -EIO;
	}
	if (!strcmp(argv[0], "mget") && argc == 3) {
		ret = ibt_madcm_get(&gid, num, IBT_CLASS, IBT_ATTR,
				    ibt_oui_madcm);
		return ibt_judge("madcm Get to a madcm service", ret, 0,
				 ibt_madcm_answer);
	}
	if (!strcmp(argv[0], "kreq") && argc == 3) {
		ret = ibt_kernel_get(&gid, num);
		return ibt_judge("ib_core Get to a madcm service", ret, 0,
				 ibt_madcm_answer);
	}
	if (!strcmp(argv[0], "raw") && argc == 3)
		return ibt_raw(&gid, num);
	if (!strcmp(argv[0], "flood") && argc == 3)
		return ibt_flood_start(&gid, num);
	return -EINVAL;
}

static DEFINE_MUTEX(ibt_mutex);

static ssize_t ibt_ctl_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char *cmd;
	int ret;

	if (count > 256)
		return -EINVAL;
	cmd = memdup_user_nul(ubuf, count);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	mutex_lock(&ibt_mutex);
	ret = ibt_command(cmd);
	mutex_unlock(&ibt_mutex);
	kfree(cmd);
	return ret ?: count;
}

static const struct file_operations ibt_ctl_fops = {
	.owner = THIS_MODULE,
	.write = ibt_ctl_write,
	.llseek = noop_llseek,
};

/* ib_core removes us from a device before madcm. */
static int ibt_add_one(struct ib_device *device)
{
	return 0;
}

static void ibt_remove_one(struct ib_device *device, void *data)
{
	mutex_lock(&ibt_mutex);
	if (ibt.dev == device) {
		pr_info("madcm_ibtest: %s is going: ib_core agents dropped, madcm agents left to madcm\n",
			dev_name(&device->dev));
		ibt_put_kernel_agents();
		ibt_bench_close();
		ib_device_put(device);
		ibt.dev_gone = true;
	}
	mutex_unlock(&ibt_mutex);
}

static struct ib_client ibt_client = {
	.name = "madcm_ibtest",
	.add = ibt_add_one,
	.remove = ibt_remove_one,
};

static struct dentry *ibt_dir;

static int __init ibt_init(void)
{
	int ret;

	ret = ib_register_client(&ibt_client);
	if (ret)
		return ret;
	ibt_dir = debugfs_create_dir("madcm_ibtest", NULL);
	debugfs_create_file("ctl", 0200, ibt_dir, NULL, &ibt_ctl_fops);
	return 0;
}

static void __exit ibt_exit(void)
{
	debugfs_remove_recursive(ibt_dir);
	mutex_lock(&ibt_mutex);
	ibt_close();
	mutex_unlock(&ibt_mutex);
	ib_unregister_client(&ibt_client);
}

module_init(ibt_init);
module_exit(ibt_exit);

MODULE_DESCRIPTION("madcm VM test helper: madcm and ib_core MAD agents on one port");
MODULE_LICENSE("GPL");
MODULE_SOFTDEP("pre: madcm ib_core");
