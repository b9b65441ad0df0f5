/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm's iWARP connection manager: the backend boundary.
 *
 * A backend is the link below a CM core: it sends the core's frames,
 * resolves next hops and steers the segments the core owns to it. An RNIC
 * does these in hardware (irdma's ILQ/IEQ queues, its "quad hash" and its
 * ARP cache). madcm.ko has one backend of its own, on any Ethernet
 * net_device (madcm_cm_netdev_attach() in <madcm/cm.h>); another one, a
 * test wire or a driver, registers a core with an ops table here. The
 * connection state machine sees only the ops, so a backend can be replaced
 * without touching it. MAD transports register ports the same way
 * (<madcm/mad_transport.h>).
 */
#ifndef _MADCM_CM_BACKEND_H
#define _MADCM_CM_BACKEND_H

#include <madcm/cm.h>

/**
 * enum madcm_cm_steer_type - what a steering entry matches
 * @MADCM_CM_STEER_LISTEN: segments to a local address (any address of the
 *	link when it is unspecified) and port: a listener
 * @MADCM_CM_STEER_CONN: the segments of one connection's 4-tuple
 */
enum madcm_cm_steer_type {
	MADCM_CM_STEER_LISTEN,
	MADCM_CM_STEER_CONN,
};

/**
 * struct madcm_cm_steer - a steering entry, the role of irdma's qhash
 * @type: listener or connection
 * @loc: local address (IPv4-mapped for IPv4; unspecified: any) and port
 * @rem: remote address and port (connections only)
 * @vlan_id: VLAN ID, or MADCM_CM_NO_VLAN
 * @target: where the segments go: NULL for the core (its receive path,
 *	madcm_cm_backend_receive()), or the offload QP a connection was
 *	handed to (connections only, <madcm/cm_offload.h>)
 *
 * A connection's entry is added with target NULL before its handshake
 * (active side) or once it is accepted (passive side). At hand-off the
 * core calls @steer_add again for the same 4-tuple with the QP as target,
 * and once more with NULL if it takes the tuple back for TIME-WAIT: the
 * backend retargets the entry it has (it never holds two entries for one
 * tuple) and returns -ENOENT when it has none. A hardware backend points
 * its quad hash at the QP there; a backend that can only steer to the
 * core may keep doing so, since the core passes every frame of an
 * offloaded connection to the QP's ->rx().
 */
struct madcm_cm_steer {
	enum madcm_cm_steer_type type;
	struct madcm_cm_addr loc;
	struct madcm_cm_addr rem;
	u16 vlan_id;
	struct madcm_cm_offload_qp *target;
};

/**
 * struct madcm_cm_backend_ops - what a core asks of its backend
 * @xmit: send one complete frame (from the Ethernet header on). Called
 *	from any context, including timers and softirq, with no CM lock
 *	held; must not sleep. The frame stays the caller's. Returns 0 or a
 *	negative errno (the CM's retransmission timer covers a lost frame).
 * @resolve: fill @mac with the next hop's MAC address for @rem; return 0,
 *	-EAGAIN while resolution is under way (the CM retries from its
 *	timer), or another negative errno when @rem cannot be reached. Must
 *	not sleep.
 * @local_mac: the MAC address frames are sent from
 * @mtu: the link MTU, for the MSS the CM offers
 * @steer_add: optional; start steering the segments @st matches to
 *	@st->target (and away from the host stack), or retarget the entry
 *	of a connection already steered. May sleep. Returns 0 or a negative
 *	errno.
 * @steer_del: optional; stop steering them. May sleep.
 * @local_ports: optional; the range an active open without a local port
 *	picks its port from (the link's namespace's ip_local_port_range);
 *	49152 to 65535 when absent. Process context.
 * @port_reserved: optional; @port must not be picked by an active open
 *	(ip_local_reserved_ports). Process context.
 */
struct madcm_cm_backend_ops {
	int (*xmit)(struct madcm_cm_core *core, const u8 *frame, u32 len);
	int (*resolve)(struct madcm_cm_core *core, const struct in6_addr *rem,
		       u16 vlan_id, u8 *mac);
	void (*local_mac)(struct madcm_cm_core *core, u8 *mac);
	u32 (*mtu)(struct madcm_cm_core *core);
	int (*steer_add)(struct madcm_cm_core *core,
			 const struct madcm_cm_steer *st);
	void (*steer_del)(struct madcm_cm_core *core,
			  const struct madcm_cm_steer *st);
	void (*local_ports)(struct madcm_cm_core *core, u16 *lo, u16 *hi);
	bool (*port_reserved)(struct madcm_cm_core *core, u16 port);
};

struct madcm_cm_core *
madcm_cm_backend_register(const struct madcm_cm_backend_ops *ops, void *priv,
			  const struct madcm_cm_config *cfg);
void madcm_cm_backend_unregister(struct madcm_cm_core *core);
void *madcm_cm_backend_priv(struct madcm_cm_core *core);
void madcm_cm_backend_receive(struct madcm_cm_core *core, const u8 *frame,
			      u32 len);

#endif /* _MADCM_CM_BACKEND_H */
