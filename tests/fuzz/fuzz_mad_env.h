/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The stand-ins of the MAD harnesses for what mad/recv.c and
 * mad/rmpp_*.c call outside the files they compile: one port, four
 * agents, address handles, the transport, the agent tables and the
 * response matcher (fuzz_mad_env.c).
 */
#ifndef _MADCM_FUZZ_MAD_ENV_H
#define _MADCM_FUZZ_MAD_ENV_H

#include <linux/types.h>
#include "mad/mad_priv.h"
#include "mad/fault.h"
#include "mad/rmpp.h"

/* What the input makes of the environment (bits of fuzz_mad_env.ctl). */
#define FUZZ_MAD_OPA		0x01	/* an OPA port */
#define FUZZ_MAD_NO_RECV	0x02	/* the receive copy fails */
#define FUZZ_MAD_NO_REPLY	0x04	/* a reply's buffer fails */
#define FUZZ_MAD_POST_FAILS	0x08	/* the transport refuses sends */
#define FUZZ_MAD_NO_AH		0x10	/* no address handle */
#define FUZZ_MAD_AH_LATER	0x20	/* address handles need process context */
#define FUZZ_MAD_NO_RMPP_RX	0x40	/* RMPP reassembly memory fails */

/*
 * Agents: 0 none, 1 without RMPP, 2 kernel RMPP, 3 user RMPP. A request
 * finds pick & 3, a response (pick >> 2) & 3; pick bit 4: the response's
 * agent has no recv handler.
 */
struct fuzz_mad_env {
	u8 ctl;
	u8 pick;
	int port_refs;
	int agent_refs;
	int ahs;
	int posted;
	struct madcm_send *sends[256];
	unsigned int nr_sends;
	struct list_head works;
	void (*check_send)(const struct madcm_port_send *ps);
};

extern struct fuzz_mad_env fuzz_env;
extern struct madcm_port fuzz_port;
extern struct madcm_agent fuzz_agents[4];

void fuzz_check(bool ok, const char *what);
void fuzz_mad_setup(u8 ctl, u8 pick);
void fuzz_mad_complete_sends(void);
void fuzz_mad_run_works(void);
void fuzz_mad_check_end(void);

#endif /* _MADCM_FUZZ_MAD_ENV_H */
