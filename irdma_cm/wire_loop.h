/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A software wire for the CM: a few ports joined in one broadcast-free
 * segment, each with a MAC address, IP addresses and, usually, a cm_core.
 * A frame sent on one port reaches the port owning its destination MAC
 * asynchronously (a workqueue), through per-port fault injection that is
 * deterministic from a seed: drop, duplicate, reorder, delay, corrupt.
 * A port without a core can capture what reaches it, so a test can play
 * the peer by hand.
 */
#ifndef _MADCM_IRDMA_CM_WIRE_LOOP_H
#define _MADCM_IRDMA_CM_WIRE_LOOP_H

#include <linux/in6.h>
#include <linux/types.h>

struct irdma_cm_core;
struct irdma_cm_config;
struct irdma_wire_loop;
struct irdma_wire_loop_port;

#define IRDMA_WIRE_LOOP_PORTS	4
#define IRDMA_WIRE_LOOP_ADDRS	4

/**
 * struct irdma_wire_faults - what happens to frames a port sends
 * @drop_pct: percent dropped
 * @dup_pct: percent delivered twice
 * @reorder_pct: percent held back by @reorder_ms, so later frames pass
 * @corrupt_pct: percent with one byte flipped
 * @delay_ms: every frame waits up to this long (uniform)
 * @reorder_ms: the extra wait of a reordered frame
 */
struct irdma_wire_faults {
	u32 drop_pct;
	u32 dup_pct;
	u32 reorder_pct;
	u32 corrupt_pct;
	u32 delay_ms;
	u32 reorder_ms;
};

/**
 * struct irdma_wire_loop_stats - what the wire did
 * @sent: frames handed to the wire
 * @delivered: frames given to a core or a capture queue
 * @dropped: dropped by fault injection
 * @duplicated: duplicated
 * @reordered: held back
 * @corrupted: corrupted
 * @unroutable: no port owns the destination MAC, or it has no core
 */
struct irdma_wire_loop_stats {
	u64 sent;
	u64 delivered;
	u64 dropped;
	u64 duplicated;
	u64 reordered;
	u64 corrupted;
	u64 unroutable;
};

struct irdma_wire_loop *irdma_wire_loop_create(u64 seed);
void irdma_wire_loop_destroy(struct irdma_wire_loop *loop);
struct irdma_wire_loop_port *irdma_wire_loop_add_port(struct irdma_wire_loop *loop,
						      u32 mtu);
int irdma_wire_loop_add_addr(struct irdma_wire_loop_port *port,
			     const struct in6_addr *ip);
struct irdma_cm_core *
irdma_wire_loop_attach_core(struct irdma_wire_loop_port *port,
			    const struct irdma_cm_config *cfg);
void irdma_wire_loop_detach_core(struct irdma_wire_loop_port *port);
void irdma_wire_loop_set_faults(struct irdma_wire_loop_port *port,
				const struct irdma_wire_faults *faults);
void irdma_wire_loop_set_resolve_delay(struct irdma_wire_loop_port *port,
				       u32 eagain_calls);
void irdma_wire_loop_capture(struct irdma_wire_loop_port *port, bool on);
int irdma_wire_loop_take(struct irdma_wire_loop_port *port, u8 *buf,
			 u32 size, unsigned long timeout);
void irdma_wire_loop_mac(struct irdma_wire_loop_port *port, u8 *mac);
void irdma_wire_loop_quiesce(struct irdma_wire_loop *loop);
void irdma_wire_loop_stats(struct irdma_wire_loop *loop,
			   struct irdma_wire_loop_stats *stats);
u32 irdma_wire_loop_qhash_count(struct irdma_wire_loop_port *port);

#endif /* _MADCM_IRDMA_CM_WIRE_LOOP_H */
