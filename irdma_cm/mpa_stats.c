// SPDX-License-Identifier: GPL-2.0-only
/*
 * MPA frame refusals: the errno of each kind and a module-wide counter per
 * kind, readable in /sys/kernel/debug/madcm/mpa_rejects as "name count"
 * lines.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include "madcm.h"
#include "irdma_cm/cm_main.h"
#include "irdma_cm/mpa.h"

static const struct {
	const char *name;
	int err;
} irdma_mpa_rejects[IRDMA_MPA_REJ_NR] = {
	[IRDMA_MPA_REJ_SHORT_HEADER] = { "short_header", -ENODATA },
	[IRDMA_MPA_REJ_BAD_KEY] = { "bad_key", -EBADMSG },
	[IRDMA_MPA_REJ_BAD_REV] = { "bad_revision", -EPROTONOSUPPORT },
	[IRDMA_MPA_REJ_REV_ABOVE_OFFER] = { "revision_above_offer", -EPROTO },
	[IRDMA_MPA_REJ_PDATA_TOO_LONG] = { "private_data_too_long", -EMSGSIZE },
	[IRDMA_MPA_REJ_TRUNCATED] = { "truncated", -EOVERFLOW },
	[IRDMA_MPA_REJ_NO_RTR_MSG] = { "no_ird_ord", -ENOMSG },
	[IRDMA_MPA_REJ_NO_PEER_TO_PEER] = { "no_peer_to_peer", -EOPNOTSUPP },
	[IRDMA_MPA_REJ_RTR_MISMATCH] = { "rtr_mismatch", -ENOPROTOOPT },
	[IRDMA_MPA_REJ_IRD_TOO_SMALL] = { "ird_too_small", -ENOBUFS },
	[IRDMA_MPA_REJ_MARKERS] = { "markers", -EOPNOTSUPP },
};

static atomic64_t irdma_mpa_reject_counts[IRDMA_MPA_REJ_NR];
static struct dentry *irdma_mpa_rejects_file;

/**
 * irdma_mpa_refuse - count a refused MPA frame
 * @why: the kind of refusal
 *
 * Return: the negative errno that stands for @why.
 */
int irdma_mpa_refuse(enum irdma_mpa_reject why)
{
	atomic64_inc(&irdma_mpa_reject_counts[why]);
	pr_debug("MPA frame refused: %s\n", irdma_mpa_rejects[why].name);
	return irdma_mpa_rejects[why].err;
}

/**
 * irdma_mpa_reject_count - read a refusal counter
 * @why: the kind of refusal
 *
 * Return: how many frames were refused for @why since the module loaded.
 */
u64 irdma_mpa_reject_count(enum irdma_mpa_reject why)
{
	return atomic64_read(&irdma_mpa_reject_counts[why]);
}

static int mpa_rejects_show(struct seq_file *m, void *unused)
{
	int i;

	for (i = 0; i < IRDMA_MPA_REJ_NR; i++)
		seq_printf(m, "%s %llu\n", irdma_mpa_rejects[i].name,
			   (unsigned long long)irdma_mpa_reject_count(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mpa_rejects);

/**
 * irdma_mpa_stats_init - publish the MPA refusal counters in debugfs
 *
 * Return: 0; a debugfs failure is not fatal to the module.
 */
int irdma_mpa_stats_init(void)
{
	irdma_mpa_rejects_file = debugfs_create_file("mpa_rejects", 0444,
						     madcm_debugfs_root, NULL,
						     &mpa_rejects_fops);
	return 0;
}

/**
 * irdma_mpa_stats_exit - remove what irdma_mpa_stats_init() published
 */
void irdma_mpa_stats_exit(void)
{
	debugfs_remove(irdma_mpa_rejects_file);
	irdma_mpa_rejects_file = NULL;
}
