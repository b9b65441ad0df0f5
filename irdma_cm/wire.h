/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CM's wire: what a cm_core asks of the link below it. An RNIC does
 * these in hardware (irdma's ILQ/IEQ queues, its "quad hash" steering and
 * its ARP cache); the software backend does them with a net_device,
 * netfilter and the kernel's neighbour tables (irdma_cm/wire_netdev.c);
 * KUnit uses an in-kernel loopback wire. The connection state machine
 * sees only this interface, so a hardware driver can replace the backend
 * without touching it.
 */
#ifndef _MADCM_IRDMA_CM_WIRE_H
#define _MADCM_IRDMA_CM_WIRE_H

#include <linux/types.h>
#include <net/ipv6.h>
#include "irdma_cm/tcp_seg.h"

struct irdma_cm_core;
struct madcm_cm_offload_qp;

/* No 802.1Q tag. */
#define IRDMA_NO_VLAN	0xffff

/**
 * enum irdma_qhash_type - what a steering entry matches
 * @IRDMA_QHASH_LISTEN: segments to a local address (or any address of the
 *	device when the address is unspecified) and port: a listener
 * @IRDMA_QHASH_CONN: segments of one connection's 4-tuple
 * @IRDMA_QHASH_HOST: segments of one connection's 4-tuple that the
 *	host's own TCP carries (an offload QP on a host socket): NOT the
 *	CM's, whatever listener entry matches them too
 */
enum irdma_qhash_type {
	IRDMA_QHASH_LISTEN,
	IRDMA_QHASH_CONN,
	IRDMA_QHASH_HOST,
};

/**
 * struct irdma_cm_qhash - a steering entry, the role of irdma's qhash
 * @type: listener or connection
 * @loc: local address (IPv4-mapped for IPv4; ::ffff:0.0.0.0: any IPv4
 *	address; ::: any IPv6 address, and IPv4 too where the backend's
 *	port reservation is dual-stack) and port
 * @rem: remote address and port (connections only)
 * @vlan_id: VLAN ID, or IRDMA_NO_VLAN
 * @target: NULL: the CM; else the offload QP the connection was handed
 *	to (&struct madcm_cm_steer's @target)
 */
struct irdma_cm_qhash {
	enum irdma_qhash_type type;
	struct irdma_cm_addr loc;
	struct irdma_cm_addr rem;
	u16 vlan_id;
	struct madcm_cm_offload_qp *target;
};

/*
 * Whether two steering entries have the same key: type, VLAN and local
 * address, and for a connection's entry the remote address too.
 */
static inline bool irdma_cm_qhash_equal(const struct irdma_cm_qhash *a,
					const struct irdma_cm_qhash *b)
{
	return a->type == b->type && a->vlan_id == b->vlan_id &&
	       a->loc.port == b->loc.port &&
	       ipv6_addr_equal(&a->loc.ip, &b->loc.ip) &&
	       (a->type == IRDMA_QHASH_LISTEN ||
		(a->rem.port == b->rem.port &&
		 ipv6_addr_equal(&a->rem.ip, &b->rem.ip)));
}

/**
 * struct irdma_cm_wire_ops - the link operations a cm_core uses
 * @xmit: send one complete frame (from the Ethernet header on). Called
 *	from any context, including timers and softirq, with no CM lock
 *	held; must not sleep. The frame stays the caller's. Returns 0 or a
 *	negative errno (the CM's retransmission timer covers a lost frame).
 * @resolve: fill @mac with the next hop's MAC address for @rem (ARP or
 *	neighbour discovery); return 0, -EAGAIN while resolution is under
 *	way (the backend has started it; the CM retries from its timer), or
 *	another negative errno when @rem cannot be reached. Must not sleep.
 * @local_mac: the MAC address frames are sent from
 * @mtu: the link MTU, for the MSS the CM offers
 * @qhash_add: start steering the segments @qh matches to the CM (and away
 *	from the host stack); for a connection already steered, retarget
 *	its entry to @qh->target (-ENOENT when there is none). May sleep.
 *	Returns 0 or a negative errno.
 * @qhash_del: stop steering them. May sleep.
 * @qhash_host: optional; a connection's segments go to the host's stack
 *	from now on (its QP carries the stream on a host socket), even where
 *	a listener entry matches them: the connection entry becomes a
 *	pass entry, removed by @qhash_del with it. May sleep. Without it
 *	the CM removes the connection entry.
 * @local_ports: optional; set @lo and @hi to the range an active open
 *	without a local port picks from (the link namespace's
 *	ip_local_port_range); the CM's default stays when absent
 * @port_reserved: optional; whether @port must not be picked by such an
 *	active open (ip_local_reserved_ports)
 * @qhash_mem: optional; the octets the backend holds for a connection's
 *	entry @qh: the slab objects of its steering entries and of its
 *	record, and what the socket that reserves its port in the host
 *	stack takes, when it has one of its own. May sleep.
 */
struct irdma_cm_wire_ops {
	int (*xmit)(struct irdma_cm_core *core, const u8 *frame, u32 len);
	int (*resolve)(struct irdma_cm_core *core, const struct in6_addr *rem,
		       u16 vlan_id, u8 *mac);
	void (*local_mac)(struct irdma_cm_core *core, u8 *mac);
	u32 (*mtu)(struct irdma_cm_core *core);
	int (*qhash_add)(struct irdma_cm_core *core,
			 const struct irdma_cm_qhash *qh);
	void (*qhash_del)(struct irdma_cm_core *core,
			  const struct irdma_cm_qhash *qh);
	int (*qhash_host)(struct irdma_cm_core *core,
			  const struct irdma_cm_qhash *qh);
	void (*local_ports)(struct irdma_cm_core *core, u16 *lo, u16 *hi);
	bool (*port_reserved)(struct irdma_cm_core *core, u16 port);
	size_t (*qhash_mem)(struct irdma_cm_core *core,
			    const struct irdma_cm_qhash *qh);
};

/*
 * The other direction: the backend hands every frame it steered to the CM
 * with irdma_receive_ilq(core, frame, len), from softirq or process
 * context. The CM parses and validates it (irdma_cm_parse_seg()), counts
 * what it refuses, and never keeps a pointer into @frame after returning.
 */
void irdma_receive_ilq(struct irdma_cm_core *core, const u8 *frame, u32 len);

#endif /* _MADCM_IRDMA_CM_WIRE_H */
