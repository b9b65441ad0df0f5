/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MAD test fabric (tests/fabric/mad_loop.c): an in-kernel transport
 * whose ports reach each other by LID, with fault injection. Built into
 * the KUnit build of madcm and, out of tree, into madcm_test_fabric.ko;
 * never into the production madcm.ko. It registers its ports through the
 * exported transport boundary, <madcm/mad_transport.h>.
 */
#ifndef _MADCM_TESTS_FABRIC_MAD_LOOP_H
#define _MADCM_TESTS_FABRIC_MAD_LOOP_H

#include <madcm/mad.h>

struct madcm_loop_fabric;

/**
 * struct madcm_loop_faults - what goes wrong on a loopback link
 * @drop: MADs lost, per thousand
 * @duplicate: MADs delivered twice, per thousand
 * @reorder: MADs overtaken by the next MAD on the link, per thousand
 * @delay: MADs delayed, per thousand
 * @delay_max_ms: the longest delay, in milliseconds
 */
struct madcm_loop_faults {
	u16 drop;
	u16 duplicate;
	u16 reorder;
	u16 delay;
	u32 delay_max_ms;
};

struct madcm_loop_fabric *madcm_loop_fabric_create(u64 seed);
void madcm_loop_fabric_destroy(struct madcm_loop_fabric *fab);
void madcm_loop_quiesce(struct madcm_loop_fabric *fab);
struct madcm_port *madcm_loop_port_create(struct madcm_loop_fabric *fab,
					  u32 lid, bool opa);
void madcm_loop_port_destroy(struct madcm_port *port);
int madcm_loop_set_faults(struct madcm_port *from, u32 to_lid,
			  const struct madcm_loop_faults *faults);

#endif /* _MADCM_TESTS_FABRIC_MAD_LOOP_H */
