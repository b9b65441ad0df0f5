/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: nothing is exported from a fuzz build. */
#include "../fuzz_kernel.h"

#define EXPORT_SYMBOL_GPL(sym)	static_assert(1)
