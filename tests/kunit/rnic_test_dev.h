/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * KUnit: a madcm RNIC over an Ethernet device of the test's own, which
 * drops whatever it is asked to send, for the RNIC suites.
 */
#ifndef _MADCM_TESTS_KUNIT_RNIC_TEST_DEV_H
#define _MADCM_TESTS_KUNIT_RNIC_TEST_DEV_H

#include <kunit/test.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

void rnic_test_dev_create(struct kunit *test, const char *name,
			  struct net_device **ndp, struct ib_device **ibdevp);

#endif /* _MADCM_TESTS_KUNIT_RNIC_TEST_DEV_H */
