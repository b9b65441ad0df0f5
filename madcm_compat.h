/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What differs between the kernel lines madcm builds on.
 *
 * madcm builds from one source tree against Debian 12's two kernel lines,
 * 6.1 and 6.12. Every difference between them lives here, and each is
 * decided by probing the target kernel's headers for the feature, not by
 * comparing version numbers: Kbuild defines MADCM_HAVE_* (see Kbuild).
 * The socket and page calls of the RNIC's transmit are in
 * madcm_compat_net.h, so that the wire parsers, which include this file,
 * need no socket headers (tests/fuzz builds them in user space).
 */
#ifndef _MADCM_COMPAT_H
#define _MADCM_COMPAT_H

/* The unaligned access helpers moved from <asm/> to <linux/> in 6.12. */
#ifdef MADCM_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* skb_gso_segment() got a header of its own in 6.5. */
#ifdef MADCM_HAVE_NET_GSO_H
#include <net/gso.h>
#endif

/*
 * Since 6.10 a tracepoint's __assign_str() takes only the field and copies
 * the source named in __string(). Kbuild defines
 * MADCM_HAVE_ASSIGN_STR_ONE_ARG when the kernel's trace headers say so.
 * Use madcm_assign_str(field, src) with the same src as in __string().
 */
#ifdef MADCM_HAVE_ASSIGN_STR_ONE_ARG
#define madcm_assign_str(dst, src) __assign_str(dst)
#else
#define madcm_assign_str(dst, src) __assign_str(dst, src)
#endif

/*
 * Since 6.11 ib_device_ops.create_cq takes the uverbs_attr_bundle rather
 * than its udata (NULL for kernel CQs on both): Kbuild defines
 * MADCM_HAVE_CREATE_CQ_ATTRS, and rnic/verbs.c picks its signature.
 */

/*
 * Since 6.3 a VMA's flags change through vm_flags_set() only: Kbuild
 * defines MADCM_HAVE_VM_FLAGS_SET. madcm_vm_flags_set(vma, flags) sets
 * them on both lines (the mmap lock held for writing, as in an mmap
 * handler).
 */
#ifdef MADCM_HAVE_VM_FLAGS_SET
#define madcm_vm_flags_set(vma, flags) vm_flags_set(vma, flags)
#else
#define madcm_vm_flags_set(vma, flags) ((vma)->vm_flags |= (flags))
#endif

#endif /* _MADCM_COMPAT_H */
