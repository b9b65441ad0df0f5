/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shim: <asm/barrier.h>'s SMP barriers, as C11 fences. The harnesses are
 * single-threaded, so what they order is only the compiler's view; they
 * are fences all the same, so that a parser compiles as it is.
 */
#ifndef _MADCM_FUZZ_ASM_BARRIER_H
#define _MADCM_FUZZ_ASM_BARRIER_H

#include "../fuzz_kernel.h"

#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_store_mb(var, value) \
	do { WRITE_ONCE(var, value); smp_mb(); } while (0)

#endif /* _MADCM_FUZZ_ASM_BARRIER_H */
