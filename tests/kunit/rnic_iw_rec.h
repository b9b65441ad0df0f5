/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * KUnit: the test's part of iw_cm, for the suites that drive the iw_cm
 * provider (rnic/iw.c) themselves: a cm_id that records the events the
 * provider gives it (up to IW_MAX_EV, with their status, private data,
 * IRD/ORD and addresses) and counts add_ref/rem_ref.
 */
#ifndef _MADCM_TESTS_KUNIT_RNIC_IW_REC_H
#define _MADCM_TESTS_KUNIT_RNIC_IW_REC_H

#include <kunit/test.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <rdma/iw_cm.h>

#define IW_MAX_EV	8
#define IW_PDATA	64
#define IW_WAIT		(30 * HZ)

struct iw_rec {
	struct iw_cm_id id;
	spinlock_t lock;		/* the records */
	wait_queue_head_t wq;
	int nev;
	int ev[IW_MAX_EV];
	int status[IW_MAX_EV];
	void *provider_data[IW_MAX_EV];
	u8 pdata[IW_MAX_EV][IW_PDATA];
	u8 pdata_len[IW_MAX_EV];
	u8 ird[IW_MAX_EV];
	u8 ord[IW_MAX_EV];
	struct sockaddr_storage local[IW_MAX_EV];
	struct sockaddr_storage remote[IW_MAX_EV];
	atomic_t refs;
	void *priv;			/* the case's own */
};

struct iw_rec *iw_rec_new(struct kunit *test, struct ib_device *ibdev);
bool iw_wait(struct iw_rec *r, int n);
void iw_sin(struct sockaddr_storage *ss, const struct in6_addr *ip, u16 port);

#endif /* _MADCM_TESTS_KUNIT_RNIC_IW_REC_H */
