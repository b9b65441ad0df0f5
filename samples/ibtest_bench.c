// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_ibtest: the benchmark of madcm against ib_core's MAD layer on the
 * same port.
 */
#include <madcm/mad.h>

#include "madcm_ibtest.h"

int ibt_bench(int argc, char **argv)
{
	return -EOPNOTSUPP;
}

void ibt_bench_close(void)
{
}
