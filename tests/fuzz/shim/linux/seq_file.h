/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: seq_file output is checked for its format and dropped. */
#ifndef _MADCM_FUZZ_SEQ_FILE_H
#define _MADCM_FUZZ_SEQ_FILE_H
#include "../fuzz_kernel.h"

struct seq_file;
struct file_operations {
	int (*show)(struct seq_file *m, void *v);
};

static inline __printf(2, 3) void seq_printf(struct seq_file *m,
					     const char *fmt, ...)
{
}

#define DEFINE_SHOW_ATTRIBUTE(name)					\
	static const struct file_operations name##_fops = {		\
		.show = name##_show,					\
	}
#endif
