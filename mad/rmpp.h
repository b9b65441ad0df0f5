/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RMPP (IBTA vol. 1 13.6) for kernel-RMPP agents: the sender
 * (rmpp_send.c), the receiver (rmpp_recv.c) and the ACK, STOP and ABORT
 * MADs both sides send (rmpp_ctl.c). Everything here runs under the
 * agent's lock unless said otherwise.
 */
#ifndef _MADCM_RMPP_H
#define _MADCM_RMPP_H

#include <linux/types.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

struct madcm_agent;
struct madcm_send;
struct madcm_recv;
struct madcm_rmpp_map;
struct madcm_port;
struct madcm_tid_key;
struct list_head;
struct seq_file;

/* Limits and timers, module parameters (rmpp_recv.c). */
extern unsigned int madcm_rmpp_window;
extern unsigned int madcm_rmpp_max_reassemblies;
extern unsigned long madcm_rmpp_max_reassembly_bytes;
extern unsigned int madcm_rmpp_max_source_reassemblies;
extern unsigned long madcm_rmpp_max_source_bytes;
extern unsigned int madcm_rmpp_recv_timeout_ms;
extern unsigned int madcm_rmpp_ack_timeout_ms;

/*
 * Control MADs (ACK, STOP, ABORT) of one port that may wait for an address
 * handle the transport can only make in process context (rmpp_ctl.c).
 */
#define MADCM_RMPP_CTL_QUEUE_MAX	128

/* The RMPP header of a MAD. */
static inline struct ib_rmpp_hdr *madcm_rmpp_hdr(void *mad)
{
	return &((struct ib_rmpp_mad *)mad)->rmpp_hdr;
}

/* Bytes after the RMPP header in one segment: 220 (IB) or 2012 (OPA). */
static inline u32 madcm_rmpp_data_size(u32 mad_size)
{
	return mad_size - IB_MGMT_RMPP_HDR;
}

/* rmpp_ctl.c */

/**
 * struct madcm_rmpp_dest - where an ACK, STOP or ABORT goes
 * @attr: the address
 * @remote_qpn: the destination QP
 * @pkey_index: the P_Key index to send with
 * @src_qpn: the QP it leaves from
 */
struct madcm_rmpp_dest {
	struct rdma_ah_attr attr;
	u32 remote_qpn;
	u16 pkey_index;
	u32 src_qpn;
};

void madcm_rmpp_dest_from_recv(const struct madcm_recv *rv,
			       struct madcm_rmpp_dest *dest);
void madcm_rmpp_dest_from_send(const struct madcm_send *ms,
			       struct madcm_rmpp_dest *dest);
int madcm_rmpp_ctl_send(struct madcm_port *port,
			const struct madcm_rmpp_dest *dest,
			const void *tmpl, size_t tmpl_len, bool flip, u8 type,
			u8 status, u32 seg_num, u32 paylen_newwin);
void madcm_rmpp_nack(struct madcm_port *port, const struct madcm_recv *rv,
		     u8 type, u8 status);

/* rmpp_send.c */
int madcm_rmpp_send_start(struct madcm_agent *ag, struct madcm_send *ms);
int madcm_rmpp_send_next(struct madcm_agent *ag, struct madcm_send *ms);
void madcm_rmpp_send_completed(struct madcm_agent *ag, struct madcm_send *ms,
			       struct list_head *done);
void madcm_rmpp_send_timed_out(struct madcm_agent *ag, struct madcm_send *ms,
			       struct list_head *done);
bool madcm_rmpp_send_ctl(struct madcm_agent *ag, struct madcm_recv *rv);
void madcm_rmpp_send_cancelled(struct madcm_agent *ag, struct madcm_send *ms);

/* rmpp_recv.c */
int madcm_rmpp_agent_init(struct madcm_agent *ag);
void madcm_rmpp_agent_destroy(struct madcm_agent *ag);
void madcm_rmpp_recv(struct madcm_agent *ag, struct madcm_recv *rv);
u32 madcm_rmpp_repwin(struct madcm_agent *ag, const struct madcm_tid_key *key);
void madcm_rmpp_port_show(struct seq_file *s, struct madcm_port *port);
void madcm_rmpp_map_free(struct madcm_rmpp_map *map);

#endif /* _MADCM_RMPP_H */
