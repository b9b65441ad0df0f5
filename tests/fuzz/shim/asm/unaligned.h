/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: fuzz_kernel.h has the unaligned access helpers. */
#include "../fuzz_kernel.h"
