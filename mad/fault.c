// SPDX-License-Identifier: GPL-2.0-only
/*
 * Failure injection for the KUnit suites (built with them only), on the
 * kernel's fault-injection framework: each allocation site of the MAD core
 * has its own struct fault_attr, as failslab has one, so a site can be
 * driven from a test (madcm_fault_arm()) or by hand from debugfs
 * (/sys/kernel/debug/madcm_fault/<site>/, the attributes of
 * Documentation/fault-injection/fault-injection.rst). Each site also
 * counts the passes through it and the failures it injected, so that a
 * test can tell that the fault it asked for fired.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fault-inject.h>
#include "fault.h"

#ifndef CONFIG_FAULT_INJECTION
#error "madcm's KUnit suites need CONFIG_FAULT_INJECTION (see tests/kunit/.kunitconfig)"
#endif

static const char *const madcm_fault_names[MADCM_FAULT_NR] = {
	[MADCM_FAULT_AGENT] = "agent",
	[MADCM_FAULT_REG_REQ] = "reg_req",
	[MADCM_FAULT_HI_TID] = "hi_tid",
	[MADCM_FAULT_TID_TABLE] = "tid_table",
	[MADCM_FAULT_REG_SLOT] = "reg_slot",
	[MADCM_FAULT_SEND_BUF] = "send_buf",
	[MADCM_FAULT_AH] = "ah",
	[MADCM_FAULT_RECV] = "recv",
	[MADCM_FAULT_REPLY] = "reply",
	[MADCM_FAULT_LOOP_PKT] = "loop_pkt",
	[MADCM_FAULT_RMPP_RX] = "rmpp_rx",
	[MADCM_FAULT_IB_PORT_CONTIG] = "ib_port_contig",
	[MADCM_FAULT_RMPP_CTL] = "rmpp_ctl",
	[MADCM_FAULT_RMPP_REASM] = "rmpp_reasm",
	[MADCM_FAULT_IB_OVERFLOW] = "ib_overflow",
};

static struct fault_attr madcm_fault_attrs[MADCM_FAULT_NR] = {
	[0 ... MADCM_FAULT_NR - 1] = FAULT_ATTR_INITIALIZER,
};

static atomic_t madcm_fault_npasses[MADCM_FAULT_NR];
static atomic_t madcm_fault_nfired[MADCM_FAULT_NR];
static struct dentry *madcm_fault_dir;

/*
 * madcm_fault() - whether this pass through @site must fail
 * @site: the allocation site
 */
bool madcm_fault(enum madcm_fault_site site)
{
	atomic_inc(&madcm_fault_npasses[site]);
	if (!should_fail(&madcm_fault_attrs[site], 1))
		return false;
	atomic_inc(&madcm_fault_nfired[site]);
	return true;
}

/* No failure from @attr, whatever was asked of it before. */
static void madcm_fault_attr_off(struct fault_attr *attr)
{
	attr->probability = 0;
	atomic_set(&attr->times, 0);
}

/*
 * madcm_fault_arm() - make the @nth pass (1 = the next) through @site fail,
 * once; every other site stops failing
 * @site: the allocation site
 * @nth: which pass fails
 *
 * Also resets every site's counts of passes and failures.
 */
void madcm_fault_arm(enum madcm_fault_site site, unsigned int nth)
{
	struct fault_attr *attr = &madcm_fault_attrs[site];

	madcm_fault_disarm();
	madcm_fault_reset_counts();
	/* Every nth pass, with certainty, once; quietly (no stack dump). */
	attr->verbose = 1;
	attr->interval = max(nth, 1U);
	attr->count = 0;
	atomic_set(&attr->space, 0);
	atomic_set(&attr->times, 1);
	smp_wmb();	/* the fields above before the probability */
	WRITE_ONCE(attr->probability, 100);
}

/* madcm_fault_disarm() - no site fails any more */
void madcm_fault_disarm(void)
{
	int i;

	for (i = 0; i < MADCM_FAULT_NR; i++)
		madcm_fault_attr_off(&madcm_fault_attrs[i]);
}

/* madcm_fault_reset_counts() - every site's passes and failures back to 0 */
void madcm_fault_reset_counts(void)
{
	int i;

	for (i = 0; i < MADCM_FAULT_NR; i++) {
		atomic_set(&madcm_fault_npasses[i], 0);
		atomic_set(&madcm_fault_nfired[i], 0);
	}
}

/* madcm_fault_hits() - failures injected, all sites, since the last arm */
unsigned int madcm_fault_hits(void)
{
	unsigned int n = 0;
	int i;

	for (i = 0; i < MADCM_FAULT_NR; i++)
		n += atomic_read(&madcm_fault_nfired[i]);
	return n;
}

/* madcm_fault_fired() - failures @site injected since the counts were reset */
unsigned int madcm_fault_fired(enum madcm_fault_site site)
{
	return atomic_read(&madcm_fault_nfired[site]);
}

/* madcm_fault_passes() - passes through @site since the counts were reset */
unsigned int madcm_fault_passes(enum madcm_fault_site site)
{
	return atomic_read(&madcm_fault_npasses[site]);
}

/*
 * madcm_fault_init() - the sites' debugfs directories; nothing fails until
 * asked
 */
void madcm_fault_init(void)
{
	int i;

	madcm_fault_disarm();
	madcm_fault_dir = debugfs_create_dir("madcm_fault", NULL);
	for (i = 0; i < MADCM_FAULT_NR; i++)
		fault_create_debugfs_attr(madcm_fault_names[i],
					  madcm_fault_dir,
					  &madcm_fault_attrs[i]);
}

void madcm_fault_exit(void)
{
	madcm_fault_disarm();
	debugfs_remove_recursive(madcm_fault_dir);
	madcm_fault_dir = NULL;
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
