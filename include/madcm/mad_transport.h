/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm MAD transports: the exported boundary below the MAD core.
 *
 * A transport (an ib_core UD QP in madcm.ko itself, a test fabric, a
 * driver) registers each of its ports with madcm_port_register() and an
 * ops table. The core calls ->post_send() for every MAD it sends; the
 * transport reports the outcome of each post exactly once, later, from
 * process context, through madcm_port_send_complete(). The transport
 * hands every received MAD to madcm_port_deliver(), from process context,
 * and ends the port with madcm_port_unregister(). CM backends register
 * cores the same way (<madcm/cm_backend.h>).
 */
#ifndef _MADCM_MAD_TRANSPORT_H
#define _MADCM_MAD_TRANSPORT_H

#include <linux/types.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <madcm/mad.h>

/* The core's handle of one send, opaque to transports. */
struct madcm_send;

/**
 * struct madcm_ah - an address handle
 * @ibah: what ULPs see (send_buf->ah); only its address is meaningful
 * @port: the port the handle belongs to
 * @attr: the address: destination LID, SL, and the GRH when there is one
 * @priv: the transport's own handle (an ib_core ib_ah, for instance)
 */
struct madcm_ah {
	struct ib_ah ibah;
	struct madcm_port *port;
	struct rdma_ah_attr attr;
	void *priv;
};

static inline struct madcm_ah *to_madcm_ah(struct ib_ah *ah)
{
	return container_of(ah, struct madcm_ah, ibah);
}

/**
 * struct madcm_port_send - one MAD handed to a transport
 * @send: the core's handle, passed back to madcm_port_send_complete()
 * @ah: where it goes
 * @remote_qpn: the destination QP
 * @remote_qkey: the destination Q_Key
 * @pkey_index: the P_Key index to send with
 * @src_qpn: the QP it leaves from: 0 (SMI) or 1 (GSI)
 * @hdr: the first part of the MAD (common, RMPP and class headers)
 * @hdr_len: its length
 * @payload: the rest of the MAD
 * @payload_len: its length
 *
 * @hdr and @payload stay valid and unchanged until the transport has
 * reported the send's completion.
 */
struct madcm_port_send {
	struct madcm_send *send;
	struct madcm_ah *ah;
	u32 remote_qpn;
	u32 remote_qkey;
	u16 pkey_index;
	u32 src_qpn;
	const void *hdr;
	size_t hdr_len;
	const void *payload;
	size_t payload_len;
};

/**
 * struct madcm_port_rx - one MAD a transport received
 * @mad: the MAD, without GRH
 * @len: its length in bytes
 * @grh: the GRH that came with it, or NULL
 * @qpn: the local QP it arrived on: 0 (SMI) or 1 (GSI)
 * @src_qp: the sender's QP
 * @slid: the sender's LID
 * @sl: the service level
 * @pkey_index: the P_Key index it arrived with
 * @dlid_path_bits: the path bits of the destination LID
 */
struct madcm_port_rx {
	const void *mad;
	size_t len;
	const struct ib_grh *grh;
	u32 qpn;
	u32 src_qp;
	u32 slid;
	u8 sl;
	u16 pkey_index;
	u8 dlid_path_bits;
};

/**
 * struct madcm_port_ops - what a transport does for the core
 * @create_ah: set up the transport side of @ah (@ah->attr is filled in);
 *	may sleep when @gfp allows
 * @destroy_ah: undo @create_ah
 * @post_send: send one MAD; 0 when it was taken, in which case the
 *	transport calls madcm_port_send_complete() for it exactly once, later
 *	and from process context; a negative errno when it was not. Called
 *	with a spinlock held and bottom halves off: must not sleep.
 * @release: optional; the port is about to be freed: nothing (agent,
 *	address handle, received MAD) refers to it any more. Any context.
 */
struct madcm_port_ops {
	int (*create_ah)(struct madcm_port *port, struct madcm_ah *ah,
			 gfp_t gfp);
	void (*destroy_ah)(struct madcm_port *port, struct madcm_ah *ah);
	int (*post_send)(struct madcm_port *port,
			 const struct madcm_port_send *ps);
	void (*release)(struct madcm_port *port);
};

/**
 * struct madcm_port_attr - what a transport tells the core about a port
 * @name: a name for logs and debugfs
 * @lid: the port's LID
 * @opa: the port carries OPA MADs (base version 0x80, 2048 bytes) too
 * @smi: the port has QP0 (subnet management)
 * @qpn: the QP that peers send GMPs to (1 for a port that owns QP1)
 * @max_solicited: requests an agent may have waiting for a response at
 *	once, more wait in its backlog; 0 for no limit. A transport sets it
 *	from its receive queue, so that the responses find room.
 * @nr_pkeys: the P_Key indices the port can send GMPs with are 0 to
 *	@nr_pkeys - 1; madcm_create_send_mad() refuses any other. 0 for no
 *	limit (a transport that honours every index it is given).
 */
struct madcm_port_attr {
	const char *name;
	u32 lid;
	bool opa;
	bool smi;
	u32 qpn;
	u32 max_solicited;
	u16 nr_pkeys;
};

struct madcm_port *madcm_port_register(const struct madcm_port_ops *ops,
				       const struct madcm_port_attr *attr,
				       void *priv);
void madcm_port_unregister(struct madcm_port *port);
void *madcm_port_priv(const struct madcm_port *port);
bool madcm_port_is(const struct madcm_port *port,
		   const struct madcm_port_ops *ops);
const char *madcm_port_name(const struct madcm_port *port);
long madcm_port_counter(const struct madcm_port *port, const char *name);
void madcm_port_send_complete(struct madcm_port *port,
			      struct madcm_send *send,
			      enum ib_wc_status status);
void madcm_port_deliver(struct madcm_port *port,
			const struct madcm_port_rx *rx);

#endif /* _MADCM_MAD_TRANSPORT_H */
