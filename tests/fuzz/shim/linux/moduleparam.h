/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: fuzz_ds.h has what the parsers use of <linux/moduleparam.h>. */
#include "../fuzz_kernel.h"
