// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm sample ULP: a vendor-class (range 2) service that answers Gets,
 * and a client that asks it once, across two ports of a loopback fabric.
 *
 * Load it after madcm.ko; the kernel log shows the request and the answer:
 *   madcm_sample_vendor: Get sent, TID 0x...
 *   madcm_sample_vendor: GetResp from LID 2, status 0x0000: "..."
 * The code is what a ULP written for ib_core looks like with the ib_
 * calls renamed; only the ports come from the test fabric's madcm_loop_*
 * (madcm_test_fabric.ko, loaded first) instead of an ib_device, so the
 * sample runs without RDMA hardware.
 */
#include <linux/completion.h>
#include <linux/module.h>
#include <linux/string.h>
#include <madcm/mad.h>
#include "tests/fabric/mad_loop.h"

#define SAMPLE_CLASS	0x30		/* vendor range 2: RMPP header, OUI */
#define SAMPLE_VERSION	1
#define SAMPLE_ATTR	0x0010
#define SERVER_LID	2
#define CLIENT_LID	1

static const u8 sample_oui[3] = { 0x00, 0x14, 0x05 };
static const char sample_answer[] = "hello from the madcm sample service";

static struct madcm_loop_fabric *fabric;
static struct madcm_port *server_port, *client_port;
static struct ib_mad_agent *server, *client;
static struct ib_ah *client_ah;
static DECLARE_COMPLETION(client_done);

/* The service: free each answer once it is sent. */
static void server_send_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_wc *wc)
{
	madcm_destroy_ah(wc->send_buf->ah);
	madcm_free_send_mad(wc->send_buf);
}

/* The service: answer each Get with the attribute's data. */
static void server_recv_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_buf *send_buf,
				struct ib_mad_recv_wc *wc)
{
	const struct ib_vendor_mad *req =
		(const struct ib_vendor_mad *)wc->recv_buf.mad;
	struct ib_mad_send_buf *sb;
	struct ib_vendor_mad *resp;
	struct ib_ah *ah;

	ah = madcm_create_ah_from_wc(server_port, wc->wc, wc->recv_buf.grh);
	if (IS_ERR(ah))
		goto out;
	sb = madcm_create_send_mad(agent, wc->wc->src_qp, wc->wc->pkey_index,
				   0, IB_MGMT_VENDOR_HDR, IB_MGMT_VENDOR_DATA,
				   GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		madcm_destroy_ah(ah);
		goto out;
	}
	resp = sb->mad;
	resp->mad_hdr = req->mad_hdr;
	resp->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	resp->mad_hdr.status = 0;
	memcpy(resp->oui, req->oui, sizeof(resp->oui));
	strscpy(resp->data, sample_answer, sizeof(resp->data));
	sb->ah = ah;
	if (madcm_post_send_mad(sb, NULL)) {
		madcm_free_send_mad(sb);
		madcm_destroy_ah(ah);
	}
out:
	madcm_free_recv_mad(wc);
}

static void client_send_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_wc *wc)
{
	if (wc->status != IB_WC_SUCCESS)
		pr_info("madcm_sample_vendor: Get failed, status %d\n",
			wc->status);
	madcm_free_send_mad(wc->send_buf);
	complete(&client_done);
}

static void client_recv_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_buf *send_buf,
				struct ib_mad_recv_wc *wc)
{
	const struct ib_vendor_mad *resp =
		(const struct ib_vendor_mad *)wc->recv_buf.mad;

	pr_info("madcm_sample_vendor: GetResp from LID %u, TID 0x%llx, status 0x%04x: \"%.*s\"\n",
		wc->wc->slid, be64_to_cpu(resp->mad_hdr.tid),
		be16_to_cpu(resp->mad_hdr.status),
		(int)strnlen(resp->data, sizeof(resp->data)), resp->data);
	madcm_free_recv_mad(wc);
}

static int sample_ask(void)
{
	struct rdma_ah_attr attr = { .type = RDMA_AH_ATTR_TYPE_IB };
	struct ib_mad_send_buf *sb;
	struct ib_vendor_mad *req;
	int ret;

	rdma_ah_set_dlid(&attr, SERVER_LID);
	client_ah = madcm_create_ah(client_port, &attr);
	if (IS_ERR(client_ah))
		return PTR_ERR(client_ah);
	sb = madcm_create_send_mad(client, 1, 0, 0, IB_MGMT_VENDOR_HDR,
				   IB_MGMT_VENDOR_DATA, GFP_KERNEL,
				   IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb))
		return PTR_ERR(sb);
	req = sb->mad;
	req->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	req->mad_hdr.mgmt_class = SAMPLE_CLASS;
	req->mad_hdr.class_version = SAMPLE_VERSION;
	req->mad_hdr.method = IB_MGMT_METHOD_GET;
	req->mad_hdr.tid = cpu_to_be64((u64)client->hi_tid << 32 | 1);
	req->mad_hdr.attr_id = cpu_to_be16(SAMPLE_ATTR);
	memcpy(req->oui, sample_oui, sizeof(req->oui));
	sb->ah = client_ah;
	sb->timeout_ms = 1000;
	sb->retries = 2;
	ret = madcm_post_send_mad(sb, NULL);
	if (ret) {
		madcm_free_send_mad(sb);
		return ret;
	}
	pr_info("madcm_sample_vendor: Get sent from LID %u to LID %u, TID 0x%llx\n",
		CLIENT_LID, SERVER_LID, be64_to_cpu(req->mad_hdr.tid));
	return 0;
}

static void sample_teardown(void)
{
	if (!IS_ERR_OR_NULL(client))
		madcm_unregister_mad_agent(client);
	if (!IS_ERR_OR_NULL(server))
		madcm_unregister_mad_agent(server);
	if (!IS_ERR_OR_NULL(client_ah))
		madcm_destroy_ah(client_ah);
	madcm_loop_port_destroy(client_port);
	madcm_loop_port_destroy(server_port);
	madcm_loop_fabric_destroy(fabric);
}

static int __init sample_init(void)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = SAMPLE_CLASS,
		.mgmt_class_version = SAMPLE_VERSION,
	};
	int ret;

	memcpy(req.oui, sample_oui, sizeof(req.oui));
	set_bit(IB_MGMT_METHOD_GET, req.method_mask);

	fabric = madcm_loop_fabric_create(1);
	if (IS_ERR(fabric))
		return PTR_ERR(fabric);
	server_port = madcm_loop_port_create(fabric, SERVER_LID, false);
	client_port = madcm_loop_port_create(fabric, CLIENT_LID, false);
	ret = PTR_ERR_OR_ZERO(server_port) ?: PTR_ERR_OR_ZERO(client_port);
	if (ret)
		goto err;
	server = madcm_register_mad_agent(server_port, IB_QPT_GSI, &req, 0,
					  server_send_handler,
					  server_recv_handler, NULL, 0);
	client = madcm_register_mad_agent(client_port, IB_QPT_GSI, NULL, 0,
					  client_send_handler,
					  client_recv_handler, NULL, 0);
	ret = PTR_ERR_OR_ZERO(server) ?: PTR_ERR_OR_ZERO(client);
	if (ret)
		goto err;
	ret = sample_ask();
	if (ret)
		goto err;
	wait_for_completion(&client_done);
	return 0;
err:
	sample_teardown();
	return ret;
}

static void __exit sample_exit(void)
{
	sample_teardown();
}

module_init(sample_init);
module_exit(sample_exit);

MODULE_DESCRIPTION("madcm sample ULP: a vendor class service answering Gets");
MODULE_LICENSE("GPL");
MODULE_SOFTDEP("pre: madcm");
