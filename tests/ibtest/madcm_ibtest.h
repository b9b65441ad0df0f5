/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm_ibtest: what its files share (ibtest_main.c: agents and the
 * exchanges, ibtest_flood.c: sends kept in flight, ibtest_bench.c: the
 * benchmark against ib_core, ibtest_rmpp.c: RMPP transfers,
 * ibtest_qperr.c: madcm's QP forced into the error state).
 */
#ifndef _MADCM_IBTEST_H
#define _MADCM_IBTEST_H

#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

/**
 * struct ibt_state - the device under test and the agents on it
 * @dev: the device (a reference is held unless @dev_gone)
 * @dev_gone: ib_core removed the device; only the madcm agents are left
 * @mport: madcm's port on port 1 of @dev
 * @m_client: madcm agent sending requests
 * @m_server: madcm agent answering Gets of the test class
 * @k_client: ib_core agent sending requests
 * @k_server: ib_core agent answering Gets of the test class
 * @tid: low 32 bits of the next TID
 */
struct ibt_state {
	struct ib_device *dev;
	bool dev_gone;
	struct madcm_port *mport;
	struct ib_mad_agent *m_client;
	struct ib_mad_agent *m_server;
	struct ib_mad_agent *k_client;
	struct ib_mad_agent *k_server;
	u32 tid;
};

extern struct ibt_state ibt;

int ibt_parse_gid(const char *s, union ib_gid *gid);
struct ib_ah *ibt_madcm_ah(const union ib_gid *gid);
struct ib_ah *ibt_kernel_ah(const union ib_gid *gid);
struct ib_ah *ibt_kernel_ah_pd(struct ib_pd *pd, const union ib_gid *gid);
void ibt_fill_get(struct ib_mad_send_buf *sb, u8 mgmt_class, u16 attr,
		  const u8 *oui, u64 tid);

int ibt_flood_start(const union ib_gid *gid, u32 n);
int ibt_flood_finish(void);
void ibt_flood_stop(void);
void ibt_flood_done(struct ib_mad_send_wc *wc);
void ibt_flood_resp(void);

int ibt_raw(const union ib_gid *gid, u32 qpn);

int ibt_bench(int argc, char **argv);
void ibt_bench_close(void);

int ibt_qperr_arm(void);
int ibt_qperr_fire(int sent);

int ibt_rmpp_open(void);
void ibt_rmpp_close_kernel(void);
void ibt_rmpp_close(void);
int ibt_rmpp(int argc, char **argv);

#endif /* _MADCM_IBTEST_H */
