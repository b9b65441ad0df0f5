/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm MAD API: the kernel's ib_mad API (include/rdma/ib_mad.h) one to one,
 * with the ib_ prefix swapped for madcm_. The structures are the kernel's own
 * (struct ib_mad_hdr, ib_mad_send_buf, ib_mad_agent, ib_mad_recv_wc, ...), so
 * a ULP written for ib_core moves over by renaming its calls. Where ib_core
 * takes (device, port_num), madcm takes a struct madcm_port.
 *
 * Every function here is documented with kernel-doc at its definition.
 */
#ifndef _MADCM_MAD_H
#define _MADCM_MAD_H

#include <linux/types.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

/*
 * A port MADs are sent and received on. Transports register ports
 * (<madcm/mad_transport.h>): madcm.ko's own on ib_core devices, below;
 * the test fabric's (tests/fabric).
 */
struct madcm_port;

u32 madcm_port_lid(const struct madcm_port *port);
u32 madcm_port_qpn(const struct madcm_port *port);

/*
 * Ports on ib_core devices (mad/ib_port.c): one per port of every device
 * that has MADs, each with a UD QP of madcm's own next to ib_core's QP1.
 */
struct ib_device;
struct madcm_port *madcm_ib_get_port(struct ib_device *device, u32 port_num);

/* Address handles for send_buf->ah. */
struct ib_ah *madcm_create_ah(struct madcm_port *port,
			      struct rdma_ah_attr *ah_attr);
struct ib_ah *madcm_create_ah_from_wc(struct madcm_port *port,
				      const struct ib_wc *wc,
				      const struct ib_grh *grh);
void madcm_destroy_ah(struct ib_ah *ah);

/* Pure helpers (mad/helpers.c). */
int madcm_response_mad(const struct ib_mad_hdr *hdr);
int madcm_is_mad_class_rmpp(u8 mgmt_class);
int madcm_get_mad_data_offset(u8 mgmt_class);

/* Agents. */
struct ib_mad_agent *
madcm_register_mad_agent(struct madcm_port *port, enum ib_qp_type qp_type,
			 struct ib_mad_reg_req *mad_reg_req, u8 rmpp_version,
			 ib_mad_send_handler send_handler,
			 ib_mad_recv_handler recv_handler, void *context,
			 u32 registration_flags);
void madcm_unregister_mad_agent(struct ib_mad_agent *mad_agent);
int madcm_mad_kernel_rmpp_agent(const struct ib_mad_agent *agent);

/* Send buffers and the send path. */
struct ib_mad_send_buf *
madcm_create_send_mad(struct ib_mad_agent *mad_agent, u32 remote_qpn,
		      u16 pkey_index, int rmpp_active, int hdr_len,
		      int data_len, gfp_t gfp_mask, u8 base_version);
void *madcm_get_rmpp_segment(struct ib_mad_send_buf *send_buf, int seg_num);
void madcm_free_send_mad(struct ib_mad_send_buf *send_buf);
int madcm_post_send_mad(struct ib_mad_send_buf *send_buf,
			struct ib_mad_send_buf **bad_send_buf);
int madcm_modify_mad(struct ib_mad_send_buf *send_buf, u32 timeout_ms);
void madcm_cancel_mad(struct ib_mad_send_buf *send_buf);

/* The receive path. */
void madcm_free_recv_mad(struct ib_mad_recv_wc *mad_recv_wc);

#endif /* _MADCM_MAD_H */
