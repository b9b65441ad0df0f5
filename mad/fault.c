// SPDX-License-Identifier: GPL-2.0-only
/*
 * Failure injection for the KUnit suites (built with them only): the nth
 * pass through an armed allocation site fails, once.
 */
#include <linux/atomic.h>
#include "fault.h"

static atomic_t madcm_fault_site_armed = ATOMIC_INIT(-1);
static atomic_t madcm_fault_countdown = ATOMIC_INIT(0);
static atomic_t madcm_fault_nr_hits = ATOMIC_INIT(0);

/*
 * madcm_fault() - whether this pass through @site must fail
 * @site: the allocation site
 */
bool madcm_fault(enum madcm_fault_site site)
{
	if (atomic_read(&madcm_fault_site_armed) != site)
		return false;
	if (atomic_dec_return(&madcm_fault_countdown) != 0)
		return false;
	atomic_inc(&madcm_fault_nr_hits);
	return true;
}

/*
 * madcm_fault_arm() - make the @nth pass (1 = the next) through @site fail
 * @site: the allocation site
 * @nth: which pass fails
 */
void madcm_fault_arm(enum madcm_fault_site site, unsigned int nth)
{
	atomic_set(&madcm_fault_site_armed, -1);
	atomic_set(&madcm_fault_nr_hits, 0);
	atomic_set(&madcm_fault_countdown, nth);
	atomic_set(&madcm_fault_site_armed, site);
}

/* madcm_fault_disarm() - no site fails any more */
void madcm_fault_disarm(void)
{
	atomic_set(&madcm_fault_site_armed, -1);
}

/* madcm_fault_hits() - how many failures were injected since arming */
unsigned int madcm_fault_hits(void)
{
	return atomic_read(&madcm_fault_nr_hits);
}

static atomic_t madcm_fault_misuse = ATOMIC_INIT(0);

/*
 * madcm_fault_expect_misuse() - a test provokes API misuse on purpose
 * @expect: whether refused calls are expected now
 *
 * While set, a refused call is still counted but not reported with a
 * warning, which would fail the KUnit run.
 */
void madcm_fault_expect_misuse(bool expect)
{
	atomic_set(&madcm_fault_misuse, expect);
}

/* madcm_fault_misuse_expected() - whether a test expects refused calls */
bool madcm_fault_misuse_expected(void)
{
	return atomic_read(&madcm_fault_misuse);
}
