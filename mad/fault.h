/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Failure injection for the KUnit suites: each allocation site of the MAD
 * core can be made to fail, through a struct fault_attr of the kernel's
 * fault-injection framework (CONFIG_FAULT_INJECTION, which the KUnit
 * configuration turns on). Compiled in only with the KUnit suites; in any
 * other build madcm_fault() is a constant false.
 */
#ifndef _MADCM_FAULT_H
#define _MADCM_FAULT_H

#include <linux/types.h>

/**
 * enum madcm_fault_site - the allocation sites that can be made to fail
 * @MADCM_FAULT_AGENT: the agent
 * @MADCM_FAULT_REG_REQ: the copy of the registration request
 * @MADCM_FAULT_HI_TID: the agent's hi_tid
 * @MADCM_FAULT_TID_TABLE: the agent's TID table
 * @MADCM_FAULT_REG_SLOT: a registration table slot
 * @MADCM_FAULT_SEND_BUF: a send buffer
 * @MADCM_FAULT_AH: an address handle
 * @MADCM_FAULT_RECV: a received MAD
 * @MADCM_FAULT_REPLY: an "unsupported method/attribute" reply
 * @MADCM_FAULT_LOOP_PKT: a packet of the loopback fabric
 * @MADCM_FAULT_RMPP_RX: an RMPP reassembly buffer
 * @MADCM_FAULT_IB_PORT_CONTIG: no contiguous memory for an ib_core port:
 *	its kvzalloc() falls back to vmalloc, as under fragmentation
 * @MADCM_FAULT_RMPP_CTL: an RMPP ACK, STOP or ABORT, or its work item
 * @MADCM_FAULT_RMPP_REASM: a new reassembly's control block, its
 *	sender's budget entry or its first map
 * @MADCM_FAULT_IB_OVERFLOW: a MAD waiting on an ib_core port's overflow
 *	list
 * @MADCM_FAULT_NR: the number of sites
 */
enum madcm_fault_site {
	MADCM_FAULT_AGENT,
	MADCM_FAULT_REG_REQ,
	MADCM_FAULT_HI_TID,
	MADCM_FAULT_TID_TABLE,
	MADCM_FAULT_REG_SLOT,
	MADCM_FAULT_SEND_BUF,
	MADCM_FAULT_AH,
	MADCM_FAULT_RECV,
	MADCM_FAULT_REPLY,
	MADCM_FAULT_LOOP_PKT,
	MADCM_FAULT_RMPP_RX,
	MADCM_FAULT_IB_PORT_CONTIG,
	MADCM_FAULT_RMPP_CTL,
	MADCM_FAULT_RMPP_REASM,
	MADCM_FAULT_IB_OVERFLOW,
	MADCM_FAULT_NR,
};

#ifdef MADCM_FAULT_INJECTION
bool madcm_fault(enum madcm_fault_site site);
void madcm_fault_arm(enum madcm_fault_site site, unsigned int nth);
void madcm_fault_disarm(void);
void madcm_fault_reset_counts(void);
unsigned int madcm_fault_hits(void);
unsigned int madcm_fault_fired(enum madcm_fault_site site);
unsigned int madcm_fault_passes(enum madcm_fault_site site);
void madcm_fault_init(void);
void madcm_fault_exit(void);
void madcm_fault_expect_misuse(bool expect);
bool madcm_fault_misuse_expected(void);
#else
static inline bool madcm_fault(enum madcm_fault_site site)
{
	return false;
}

static inline void madcm_fault_init(void)
{
}

static inline void madcm_fault_exit(void)
{
}

/* Outside the KUnit build, an API misuse is always reported. */
static inline bool madcm_fault_misuse_expected(void)
{
	return false;
}
#endif

#endif /* _MADCM_FAULT_H */
