/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: the kernel's uapi <linux/ip.h>, and fuzz_kernel.h. */
#include "../fuzz_kernel.h"
#include_next <linux/ip.h>
