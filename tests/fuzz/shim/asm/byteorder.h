/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: the uapi <asm/byteorder.h>; fuzz_kernel.h adds the kernel names. */
#include_next <asm/byteorder.h>
#include "../fuzz_kernel.h"
