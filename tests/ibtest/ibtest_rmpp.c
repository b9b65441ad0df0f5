// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_ibtest: RMPP transfers between madcm and ib_core agents, on one
 * device or across a wire. Each stack has a client and a service, all
 * four registered with RMPP version 1 for a vendor class of range 2 (an
 * RMPP class), the services for Set and Get with an OUI each.
 *
 * One exchange is an RMPP Set of LEN bytes from a client to a service,
 * answered by an RMPP GetResp of LEN bytes: a transfer each way. The
 * payloads are a pattern derived from the TID, so each side knows what
 * the other must have sent; the service answers status 0 only when the
 * request came whole and byte-exact (else 0x001C), and the client checks
 * the answer the same way. Both compare the CRC32 of what they got with
 * the CRC32 of the pattern. The payload is the RMPP data after the class
 * header (the OUI), concatenated over the segments, as ib_core's
 * ib_get_rmpp_segment() lays it out on the sending side.
 */
#include <linux/crc32.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <madcm/mad.h>

#include "madcm_ibtest.h"

#define IBT_RMPP_CLASS		0x32	/* vendor range 2: RMPP class */
#define IBT_RMPP_VERSION	1
#define IBT_RMPP_ATTR		0x0031
#define IBT_RMPP_MAX		(4U << 20)
/*
 * A client's ACK and response time. ib_core does not extend it while the
 * segments of a response come in, so it covers a 1 MiB answer in TCG.
 */
#define IBT_RMPP_TIMEOUT_MS	1000
#define IBT_RMPP_K_TIMEOUT_MS	20000
#define IBT_RMPP_RETRIES	20
#define IBT_RMPP_WAIT_MS	120000
#define IBT_STATUS_BAD		0x001c	/* invalid attribute value */

static const u8 ibt_roui_madcm[3] = { 0x00, 0x14, 0x07 };
static const u8 ibt_roui_kernel[3] = { 0x00, 0x14, 0x08 };

static struct ib_mad_agent *ibt_mr_client, *ibt_mr_server;
static struct ib_mad_agent *ibt_kr_client, *ibt_kr_server;

/* What the client's exchange got back. */
static struct {
	struct completion done;
	enum ib_wc_status wc_status;
	bool got;
	u8 method;
	u16 status;
	u32 len;
	u32 crc;
	u32 want_crc;
	bool exact;
} ibt_rw;

/* Byte @i of the payload with seed @seed. */
static u8 ibt_rmpp_byte(u32 seed, u32 i)
{
	u32 x = (seed ^ i) * 2654435761U;

	return (u8)(x >> 24) ^ (u8)(i >> 12);
}

static void ibt_rmpp_pattern(u8 *p, u32 off, u32 n, u32 seed)
{
	u32 i;

	for (i = 0; i < n; i++)
		p[i] = ibt_rmpp_byte(seed, off + i);
}

/* The CRC32 of the whole pattern of @len bytes. */
static u32 ibt_rmpp_pattern_crc(u32 len, u32 seed)
{
	u8 buf[256];
	u32 off, n, crc = ~0U;

	for (off = 0; off < len; off += n) {
		n = min_t(u32, len - off, sizeof(buf));
		ibt_rmpp_pattern(buf, off, n, seed);
		crc = crc32_le(crc, buf, n);
	}
	return ~crc;
}

/*
 * Check a received payload against the pattern: its length, each byte,
 * and the CRC32 of what came. Returns true when all agree.
 */
static bool ibt_rmpp_check(const struct ib_mad_recv_wc *wc, u32 want_len,
			   u32 seed, u32 *len_out, u32 *crc_out)
{
	const struct ib_mad_hdr *hdr = &wc->recv_buf.mad->mad_hdr;
	int hoff = ib_get_mad_data_offset(hdr->mgmt_class);
	u32 seg_data = wc->mad_seg_size - hoff;
	struct ib_mad_recv_buf *rb;
	u32 len, off = 0, n, crc = ~0U;
	bool exact = true;
	u8 want[256];

	len = wc->mad_len > hoff ? wc->mad_len - hoff : 0;
	*len_out = len;
	list_for_each_entry(rb, &wc->rmpp_list, list) {
		if (off >= len)
			break;
		n = min(len - off, seg_data);
		ibt_rmpp_pattern(want, off, n, seed);
		if (memcmp((u8 *)rb->mad + hoff, want, n))
			exact = false;
		crc = crc32_le(crc, (u8 *)rb->mad + hoff, n);
		off += n;
	}
	*crc_out = ~crc;
	return exact && off == len && len == want_len;
}

/* Fill the segments of an RMPP send buffer with the pattern. */
static void ibt_rmpp_fill(struct ib_mad_send_buf *sb, bool madcm, u32 len,
			  u32 seed)
{
	u32 off = 0, n;
	int i;
	u8 *p;

	for (i = 1; i <= sb->seg_count && off < len; i++) {
		p = madcm ? madcm_get_rmpp_segment(sb, i) :
			    ib_get_rmpp_segment(sb, i);
		n = min_t(u32, len - off, sb->seg_size);
		ibt_rmpp_pattern(p, off, n, seed);
		off += n;
	}
}

static void ibt_rmpp_hdr(struct ib_mad_send_buf *sb, u8 method, u64 tid,
			 u32 len, const u8 *oui)
{
	struct ib_vendor_mad *m = sb->mad;

	/* The RMPP header was set up by create_send_mad: leave it. */
	m->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	m->mad_hdr.mgmt_class = IBT_RMPP_CLASS;
	m->mad_hdr.class_version = IBT_RMPP_VERSION;
	m->mad_hdr.method = method;
	m->mad_hdr.tid = cpu_to_be64(tid);
	m->mad_hdr.attr_id = cpu_to_be16(IBT_RMPP_ATTR);
	m->mad_hdr.attr_mod = cpu_to_be32(len);
	memcpy(m->oui, oui, sizeof(m->oui));
}

/* The seed of a request's payload, and of its response's. */
static u32 ibt_rmpp_seed(const struct ib_mad_hdr *hdr, bool resp)
{
	u32 s = (u32)be64_to_cpu(hdr->tid);

	return resp ? ~s : s;
}

/* A client's answer came: check it against the pattern. */
static void ibt_rmpp_client_recv(const struct ib_mad_recv_wc *wc)
{
	const struct ib_mad_hdr *hdr = &wc->recv_buf.mad->mad_hdr;
	u32 len = be32_to_cpu(hdr->attr_mod);

	ibt_rw.got = true;
	ibt_rw.method = hdr->method;
	ibt_rw.status = be16_to_cpu(hdr->status);
	ibt_rw.want_crc = ibt_rmpp_pattern_crc(len, ibt_rmpp_seed(hdr, true));
	ibt_rw.exact = ibt_rmpp_check(wc, len, ibt_rmpp_seed(hdr, true),
				      &ibt_rw.len, &ibt_rw.crc);
}

/*
 * A service's request came: the answer, LEN bytes of the response
 * pattern, status 0 when the request was byte-exact.
 */
static void ibt_rmpp_answer(struct ib_mad_send_buf *sb,
			    const struct ib_mad_recv_wc *wc, bool madcm,
			    const char *who)
{
	const struct ib_mad_hdr *req = &wc->recv_buf.mad->mad_hdr;
	u32 want = be32_to_cpu(req->attr_mod);
	u32 len, crc, seed = ibt_rmpp_seed(req, false);
	bool exact;

	exact = ibt_rmpp_check(wc, want, seed, &len, &crc);
	pr_info("madcm_ibtest: %s service: RMPP Set of %u bytes, crc32 0x%08x (pattern 0x%08x): %s\n",
		who, len, crc, ibt_rmpp_pattern_crc(want, seed),
		exact ? "byte-exact" : "WRONG");
	ibt_rmpp_hdr(sb, IB_MGMT_METHOD_GET_RESP, be64_to_cpu(req->tid), want,
		     ((const struct ib_vendor_mad *)req)->oui);
	((struct ib_mad_hdr *)sb->mad)->status =
		exact ? 0 : cpu_to_be16(IBT_STATUS_BAD);
	ibt_rmpp_fill(sb, madcm, want, ibt_rmpp_seed(req, true));
}

/* The length a request asks for, when a service can take it. */
static bool ibt_rmpp_len_ok(const struct ib_mad_recv_wc *wc)
{
	u32 len = be32_to_cpu(wc->recv_buf.mad->mad_hdr.attr_mod);

	return len && len <= IBT_RMPP_MAX;
}

/* madcm client. */
static void ibt_mrc_send_handler(struct ib_mad_agent *agent,
				 struct ib_mad_send_wc *wc)
{
	ibt_rw.wc_status = wc->status;
	madcm_destroy_ah(wc->send_buf->ah);
	madcm_free_send_mad(wc->send_buf);
	complete(&ibt_rw.done);
}

static void ibt_mrc_recv_handler(struct ib_mad_agent *agent,
				 struct ib_mad_send_buf *send_buf,
				 struct ib_mad_recv_wc *wc)
{
	if (send_buf)
		ibt_rmpp_client_recv(wc);
	madcm_free_recv_mad(wc);
}

/* madcm service. */
static void ibt_mrs_send_handler(struct ib_mad_agent *agent,
				 struct ib_mad_send_wc *wc)
{
	if (wc->status != IB_WC_SUCCESS)
		pr_info("madcm_ibtest: madcm service: answer ended with status %d\n",
			wc->status);
	madcm_destroy_ah(wc->send_buf->ah);
	madcm_free_send_mad(wc->send_buf);
}

static void ibt_mrs_recv_handler(struct ib_mad_agent *agent,
				 struct ib_mad_send_buf *send_buf,
				 struct ib_mad_recv_wc *wc)
{
	u32 len = be32_to_cpu(wc->recv_buf.mad->mad_hdr.attr_mod);
	struct ib_mad_send_buf *sb;
	struct ib_ah *ah;

	if (!ibt_rmpp_len_ok(wc))
		goto out;
	ah = madcm_create_ah_from_wc(ibt.mport, wc->wc, wc->recv_buf.grh);
	if (IS_ERR(ah))
		goto out;
	sb = madcm_create_send_mad(agent, wc->wc->src_qp, wc->wc->pkey_index,
				   1, IB_MGMT_VENDOR_HDR, len, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		madcm_destroy_ah(ah);
		goto out;
	}
	ibt_rmpp_answer(sb, wc, true, "madcm");
	sb->ah = ah;
	/* A response: no timeout, the ACK time is the stack's default. */
	sb->retries = IBT_RMPP_RETRIES;
	if (madcm_post_send_mad(sb, NULL)) {
		madcm_free_send_mad(sb);
		madcm_destroy_ah(ah);
	}
out:
	madcm_free_recv_mad(wc);
}

/* ib_core client. */
static void ibt_krc_send_handler(struct ib_mad_agent *agent,
				 struct ib_mad_send_wc *wc)
{
	ibt_rw.wc_status = wc->status;
	rdma_destroy_ah(wc->send_buf->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(wc->send_buf);
	complete(&ibt_rw.done);
}

static void ibt_krc_recv_handler(struct ib_mad_agent *agent,
				 struct ib_mad_send_buf *send_buf,
				 struct ib_mad_recv_wc *wc)
{
	if (send_buf)
		ibt_rmpp_client_recv(wc);
	ib_free_recv_mad(wc);
}

/* ib_core service. */
static void ibt_krs_send_handler(struct ib_mad_agent *agent,
				 struct ib_mad_send_wc *wc)
{
	if (wc->status != IB_WC_SUCCESS)
		pr_info("madcm_ibtest: ib_core service: answer ended with status %d\n",
			wc->status);
	rdma_destroy_ah(wc->send_buf->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(wc->send_buf);
}

static void ibt_krs_recv_handler(struct ib_mad_agent *agent,
				 struct ib_mad_send_buf *send_buf,
				 struct ib_mad_recv_wc *wc)
{
	u32 len = be32_to_cpu(wc->recv_buf.mad->mad_hdr.attr_mod);
	struct ib_mad_send_buf *sb;
	struct ib_ah *ah;

	if (!ibt_rmpp_len_ok(wc))
		goto out;
	ah = ib_create_ah_from_wc(agent->qp->pd, wc->wc, wc->recv_buf.grh,
				  agent->port_num);
	if (IS_ERR(ah))
		goto out;
	sb = ib_create_send_mad(agent, wc->wc->src_qp, wc->wc->pkey_index, 1,
				IB_MGMT_VENDOR_HDR, len, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		goto out;
	}
	ibt_rmpp_answer(sb, wc, false, "ib_core");
	sb->ah = ah;
	/* A response: no timeout, the ACK time is the stack's default. */
	sb->retries = IBT_RMPP_RETRIES;
	if (ib_post_send_mad(sb, NULL)) {
		ib_free_send_mad(sb);
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	}
out:
	ib_free_recv_mad(wc);
}

/**
 * ibt_rmpp_open() - register the four RMPP agents on the open device
 *
 * Return: 0 or a negative errno (nothing is left registered then).
 */
int ibt_rmpp_open(void)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = IBT_RMPP_CLASS,
		.mgmt_class_version = IBT_RMPP_VERSION,
	};
	int ret;

	set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	/*
	 * The requester ACKs a GetResp's segments with the response bit
	 * flipped (13.6.2.2), so with method Get: ib_core, like madcm, routes
	 * that as a request, by registration. Without Get the services would
	 * never see the ACKs of their answers.
	 */
	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	memcpy(req.oui, ibt_roui_madcm, sizeof(req.oui));
	ibt_mr_server = madcm_register_mad_agent(ibt.mport, IB_QPT_GSI, &req,
						 IB_MGMT_RMPP_VERSION,
						 ibt_mrs_send_handler,
						 ibt_mrs_recv_handler, NULL, 0);
	ibt_mr_client = madcm_register_mad_agent(ibt.mport, IB_QPT_GSI, NULL,
						 IB_MGMT_RMPP_VERSION,
						 ibt_mrc_send_handler,
						 ibt_mrc_recv_handler, NULL, 0);
	memcpy(req.oui, ibt_roui_kernel, sizeof(req.oui));
	ibt_kr_server = ib_register_mad_agent(ibt.dev, 1, IB_QPT_GSI, &req,
					      IB_MGMT_RMPP_VERSION,
					      ibt_krs_send_handler,
					      ibt_krs_recv_handler, NULL, 0);
	ibt_kr_client = ib_register_mad_agent(ibt.dev, 1, IB_QPT_GSI, NULL,
					      IB_MGMT_RMPP_VERSION,
					      ibt_krc_send_handler,
					      ibt_krc_recv_handler, NULL, 0);
	ret = PTR_ERR_OR_ZERO(ibt_mr_server) ?:
	      PTR_ERR_OR_ZERO(ibt_mr_client) ?:
	      PTR_ERR_OR_ZERO(ibt_kr_server) ?: PTR_ERR_OR_ZERO(ibt_kr_client);
	if (ret) {
		ibt_rmpp_close_kernel();
		ibt_rmpp_close();
	}
	return ret;
}

/* Unregister the ib_core RMPP agents (the device may be going). */
void ibt_rmpp_close_kernel(void)
{
	if (!IS_ERR_OR_NULL(ibt_kr_client))
		ib_unregister_mad_agent(ibt_kr_client);
	if (!IS_ERR_OR_NULL(ibt_kr_server))
		ib_unregister_mad_agent(ibt_kr_server);
	ibt_kr_client = NULL;
	ibt_kr_server = NULL;
}

/* Unregister every RMPP agent. */
void ibt_rmpp_close(void)
{
	ibt_rmpp_close_kernel();
	if (!IS_ERR_OR_NULL(ibt_mr_client))
		madcm_unregister_mad_agent(ibt_mr_client);
	if (!IS_ERR_OR_NULL(ibt_mr_server))
		madcm_unregister_mad_agent(ibt_mr_server);
	ibt_mr_client = NULL;
	ibt_mr_server = NULL;
}

/* A madcm client's RMPP Set of @len bytes to @qpn at @gid. */
static int ibt_rmpp_madcm_set(const union ib_gid *gid, u32 qpn, u32 len,
			      const u8 *oui, u32 timeout_ms)
{
	struct ib_mad_send_buf *sb;
	struct ib_ah *ah;
	u64 tid;
	int ret;

	ah = ibt_madcm_ah(gid);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	sb = madcm_create_send_mad(ibt_mr_client, qpn, 0, 1,
				   IB_MGMT_VENDOR_HDR, len, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		madcm_destroy_ah(ah);
		return PTR_ERR(sb);
	}
	tid = (u64)ibt_mr_client->hi_tid << 32 | ++ibt.tid;
	ibt_rmpp_hdr(sb, IB_MGMT_METHOD_SET, tid, len, oui);
	ibt_rmpp_fill(sb, true, len, (u32)tid);
	sb->ah = ah;
	sb->timeout_ms = timeout_ms;
	sb->retries = IBT_RMPP_RETRIES;
	ret = madcm_post_send_mad(sb, NULL);
	if (ret) {
		madcm_free_send_mad(sb);
		madcm_destroy_ah(ah);
	}
	return ret;
}

/* An ib_core client's RMPP Set of @len bytes to @qpn at @gid. */
static int ibt_rmpp_kernel_set(const union ib_gid *gid, u32 qpn, u32 len,
			       const u8 *oui)
{
	struct ib_mad_send_buf *sb;
	struct ib_ah *ah;
	u64 tid;
	int ret;

	ah = ibt_kernel_ah_pd(ibt_kr_client->qp->pd, gid);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	sb = ib_create_send_mad(ibt_kr_client, qpn, 0, 1, IB_MGMT_VENDOR_HDR,
				len, GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return PTR_ERR(sb);
	}
	tid = (u64)ibt_kr_client->hi_tid << 32 | ++ibt.tid;
	ibt_rmpp_hdr(sb, IB_MGMT_METHOD_SET, tid, len, oui);
	ibt_rmpp_fill(sb, false, len, (u32)tid);
	sb->ah = ah;
	sb->timeout_ms = IBT_RMPP_K_TIMEOUT_MS;
	sb->retries = IBT_RMPP_RETRIES;
	ret = ib_post_send_mad(sb, NULL);
	if (ret) {
		ib_free_send_mad(sb);
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	}
	return ret;
}

/**
 * ibt_rmpp() - one RMPP exchange: "rmpp FROM TO GID QPN LEN [MS]"
 * @argc: the number of words
 * @argv: the words: FROM and TO are "madcm" or "kernel" (the client's
 *	and the service's stack), QPN the service's QP (1 for ib_core), MS
 *	the madcm client's ACK and response time (default 1000)
 *
 * Return: 0 when both transfers were whole and byte-exact, -EIO when not,
 * another negative errno when the exchange could not run.
 */
int ibt_rmpp(int argc, char **argv)
{
	unsigned long t0 = jiffies;
	bool from_madcm, to_madcm, pass;
	union ib_gid gid;
	u32 qpn, len, tmo = IBT_RMPP_TIMEOUT_MS;
	int ret;

	if (argc < 6 || argc > 7 || ibt_parse_gid(argv[3], &gid) ||
	    kstrtou32(argv[4], 0, &qpn) || kstrtou32(argv[5], 0, &len) ||
	    !len || len > IBT_RMPP_MAX ||
	    (argc == 7 && (kstrtou32(argv[6], 0, &tmo) || !tmo)))
		return -EINVAL;
	from_madcm = !strcmp(argv[1], "madcm");
	to_madcm = !strcmp(argv[2], "madcm");
	if ((!from_madcm && strcmp(argv[1], "kernel")) ||
	    (!to_madcm && strcmp(argv[2], "kernel")))
		return -EINVAL;
	if (!ibt_mr_client || !ibt_kr_client)
		return -ENODEV;

	memset(&ibt_rw, 0, sizeof(ibt_rw));
	init_completion(&ibt_rw.done);
	if (from_madcm)
		ret = ibt_rmpp_madcm_set(&gid, qpn, len, to_madcm ?
					 ibt_roui_madcm : ibt_roui_kernel, tmo);
	else
		ret = ibt_rmpp_kernel_set(&gid, qpn, len, to_madcm ?
					  ibt_roui_madcm : ibt_roui_kernel);
	if (ret)
		return ret;
	if (!wait_for_completion_timeout(&ibt_rw.done,
					 msecs_to_jiffies(IBT_RMPP_WAIT_MS)))
		ret = -ETIMEDOUT;
	pass = !ret && ibt_rw.wc_status == IB_WC_SUCCESS && ibt_rw.got &&
	       ibt_rw.method == IB_MGMT_METHOD_GET_RESP && !ibt_rw.status &&
	       ibt_rw.exact && ibt_rw.crc == ibt_rw.want_crc;
	pr_info("madcm_ibtest: rmpp %s -> %s %s: %s (ret %d, wc status %d, response %s, method 0x%02x, status 0x%04x, %u bytes back, crc32 0x%08x, pattern 0x%08x, %u ms)\n",
		argv[1], argv[2], argv[3], pass ? "PASS" : "FAIL", ret,
		ibt_rw.wc_status, ibt_rw.got ? "yes" : "no", ibt_rw.method,
		ibt_rw.status, ibt_rw.len, ibt_rw.crc, ibt_rw.want_crc,
		jiffies_to_msecs(jiffies - t0));
	if (ret == -ETIMEDOUT)
		return ret;
	return pass ? 0 : -EIO;
}
