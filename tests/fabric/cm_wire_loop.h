/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CM's test fabric: a software wire of a few ports joined in one
 * broadcast-free segment, each with a MAC address, IP addresses and,
 * usually, a CM core registered through the exported backend boundary
 * (<madcm/cm_backend.h>). Built only for KUnit and the test modules.
 * A frame sent on one port reaches the port owning its destination MAC
 * asynchronously (a workqueue), through per-port fault injection that is
 * deterministic from a seed: drop, duplicate, reorder, delay, corrupt.
 * A port without a core can capture what reaches it, so a test can play
 * the peer by hand.
 */
#ifndef _MADCM_TESTS_FABRIC_CM_WIRE_LOOP_H
#define _MADCM_TESTS_FABRIC_CM_WIRE_LOOP_H

#include <linux/completion.h>
#include <linux/in6.h>
#include <linux/types.h>

struct madcm_cm_core;
struct madcm_cm_config;
struct madcm_wire_loop;
struct madcm_wire_loop_port;

#define MADCM_WIRE_LOOP_PORTS	4
#define MADCM_WIRE_LOOP_ADDRS	4

/**
 * struct madcm_wire_faults - what happens to frames a port sends
 * @drop_pct: percent dropped
 * @dup_pct: percent delivered twice
 * @reorder_pct: percent held back by @reorder_ms, so later frames pass
 * @corrupt_pct: percent with one byte flipped
 * @delay_ms: every frame waits up to this long (uniform)
 * @reorder_ms: the extra wait of a reordered frame
 */
struct madcm_wire_faults {
	u32 drop_pct;
	u32 dup_pct;
	u32 reorder_pct;
	u32 corrupt_pct;
	u32 delay_ms;
	u32 reorder_ms;
};

/**
 * struct madcm_wire_loop_stats - what the wire did
 * @sent: frames handed to the wire
 * @delivered: frames given to a core or a capture queue
 * @dropped: dropped by fault injection
 * @duplicated: duplicated
 * @reordered: held back
 * @corrupted: corrupted
 * @unroutable: no port owns the destination MAC, or it has no core
 * @overflowed: dropped because the receiving port's queue was full
 */
struct madcm_wire_loop_stats {
	u64 sent;
	u64 delivered;
	u64 dropped;
	u64 duplicated;
	u64 reordered;
	u64 corrupted;
	u64 unroutable;
	u64 overflowed;
};

struct madcm_wire_loop *madcm_wire_loop_create(u64 seed);
void madcm_wire_loop_destroy(struct madcm_wire_loop *loop);
struct madcm_wire_loop_port *madcm_wire_loop_add_port(struct madcm_wire_loop *loop,
						      u32 mtu);
int madcm_wire_loop_add_addr(struct madcm_wire_loop_port *port,
			     const struct in6_addr *ip);
struct madcm_cm_core *
madcm_wire_loop_attach_core(struct madcm_wire_loop_port *port,
			    const struct madcm_cm_config *cfg);
void madcm_wire_loop_detach_core(struct madcm_wire_loop_port *port);
void madcm_wire_loop_set_faults(struct madcm_wire_loop_port *port,
				const struct madcm_wire_faults *faults);
void madcm_wire_loop_set_queue_len(struct madcm_wire_loop_port *port, u32 len);
void madcm_wire_loop_set_resolve_delay(struct madcm_wire_loop_port *port,
				       u32 eagain_calls);
void madcm_wire_loop_set_conn_steer_busy(struct madcm_wire_loop_port *port,
					 u32 calls);
void madcm_wire_loop_set_local_ports(struct madcm_wire_loop_port *port,
				     u16 lo, u16 hi, u16 reserved);
void madcm_wire_loop_block_conn_steer(struct madcm_wire_loop_port *port,
				      struct completion *entered,
				      struct completion *go);
void madcm_wire_loop_capture(struct madcm_wire_loop_port *port, bool on);
int madcm_wire_loop_take(struct madcm_wire_loop_port *port, u8 *buf,
			 u32 size, unsigned long timeout);
void madcm_wire_loop_mac(struct madcm_wire_loop_port *port, u8 *mac);
void madcm_wire_loop_quiesce(struct madcm_wire_loop *loop);
void madcm_wire_loop_stats(struct madcm_wire_loop *loop,
			   struct madcm_wire_loop_stats *stats);
u32 madcm_wire_loop_qhash_count(struct madcm_wire_loop_port *port);
u32 madcm_wire_loop_qhash_offloaded(struct madcm_wire_loop_port *port);

#endif /* _MADCM_TESTS_FABRIC_CM_WIRE_LOOP_H */
