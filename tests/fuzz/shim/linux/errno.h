/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: the uapi <linux/errno.h> (libc's <errno.h> includes it too). */
#include_next <linux/errno.h>
