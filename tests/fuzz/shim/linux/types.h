/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: the uapi <linux/types.h>, then the kernel's names (fuzz_kernel.h). */
#ifndef _MADCM_FUZZ_LINUX_TYPES_H
#define _MADCM_FUZZ_LINUX_TYPES_H
#include_next <linux/types.h>
#include "../fuzz_kernel.h"
#endif
