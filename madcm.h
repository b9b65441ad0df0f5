/* SPDX-License-Identifier: GPL-2.0-only */
/* madcm: what the module's parts share with each other. */
#ifndef _MADCM_INTERNAL_H
#define _MADCM_INTERNAL_H

struct dentry;

/* The module's debugfs directory, /sys/kernel/debug/madcm. */
extern struct dentry *madcm_debugfs_root;

/* mad/core.c: the MAD core's workqueue and debugfs directory. */
int madcm_mad_init(void);
void madcm_mad_exit(void);

#endif /* _MADCM_INTERNAL_H */
