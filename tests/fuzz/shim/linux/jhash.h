/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: fuzz_ds.h has what the parsers use of <linux/jhash.h>. */
#include "../fuzz_kernel.h"
