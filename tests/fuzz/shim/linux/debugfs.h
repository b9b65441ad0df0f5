/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: debugfs files are not created in a fuzz build. */
#ifndef _MADCM_FUZZ_DEBUGFS_H
#define _MADCM_FUZZ_DEBUGFS_H
#include "../fuzz_kernel.h"

struct dentry;
struct file_operations;

static inline struct dentry *
debugfs_create_file(const char *name, unsigned short mode,
		    struct dentry *parent, void *data,
		    const struct file_operations *fops)
{
	return NULL;
}

static inline void debugfs_remove(struct dentry *dentry)
{
}
#endif
