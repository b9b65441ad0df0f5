/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: fuzz_kernel.h has what the parsers use of <linux/atomic.h>. */
#include "../fuzz_kernel.h"
