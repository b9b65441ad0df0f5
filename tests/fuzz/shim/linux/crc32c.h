/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: fuzz_kernel.h has what the codecs use of <linux/crc32c.h>. */
#include "../fuzz_kernel.h"
