/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel API the wire parsers use, for user-space libFuzzer builds.
 *
 * Every header under tests/fuzz/shim/ that a parser includes comes down to
 * this one (and, for the networking structures, to the kernel's own uapi
 * headers in /usr/include). Only what the parsers need is here. A WARN
 * aborts: in a fuzz run a kernel warning is a finding, as in the VM tests.
 */
#ifndef _MADCM_FUZZ_KERNEL_H
#define _MADCM_FUZZ_KERNEL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <asm/byteorder.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#ifndef __force
#define __force
#endif
#define __packed	__attribute__((__packed__))
#define __aligned(x)	__attribute__((__aligned__(x)))
#define __maybe_unused	__attribute__((__unused__))
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#define __must_check	__attribute__((__warn_unused_result__))
#define fallthrough	__attribute__((__fallthrough__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)
#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define BIT(n)		(1UL << (n))
#define BIT_ULL(n)	(1ULL << (n))
#define GENMASK(h, l)	(((~0UL) << (l)) & (~0UL >> (63 - (h))))
#define __ALIGN_MASK(x, m)	(((x) + (m)) & ~(m))
#define ALIGN(x, a)	__ALIGN_MASK(x, (typeof(x))(a) - 1)
#define IS_ALIGNED(x, a) (((x) & ((typeof(x))(a) - 1)) == 0)
#define round_down(x, y) ((x) & ~((typeof(x))((y) - 1)))
#define round_up(x, y)	((((x) - 1) | ((typeof(x))((y) - 1))) + 1)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* Type-checked like the kernel's: mixing signedness is a build error. */
#define min(x, y) ({					\
	typeof(x) __x = (x);					\
	typeof(y) __y = (y);					\
	(void)(&__x == &__y);					\
	__x < __y ? __x : __y; })
#define max(x, y) ({					\
	typeof(x) __x = (x);					\
	typeof(y) __y = (y);					\
	(void)(&__x == &__y);					\
	__x > __y ? __x : __y; })
#define min_t(t, x, y)	({ t __a = (x); t __b = (y); __a < __b ? __a : __b; })
#define max_t(t, x, y)	({ t __a = (x); t __b = (y); __a > __b ? __a : __b; })
#define min3(x, y, z)	min(min(x, y), z)
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define swap(a, b) do { typeof(a) __t = (a); (a) = (b); (b) = __t; } while (0)

void fuzz_warn(const char *file, int line, const char *cond);
#define WARN_ON(c) ({ bool __c = !!(c);					\
	if (unlikely(__c))						\
		fuzz_warn(__FILE__, __LINE__, #c);			\
	unlikely(__c); })
#define WARN_ON_ONCE(c)	WARN_ON(c)
#define WARN(c, ...)	WARN_ON(c)
#define WARN_ONCE(c, ...) WARN_ON(c)
#define BUG_ON(c)	((void)WARN_ON(c))
#define BUG()		fuzz_warn(__FILE__, __LINE__, "BUG")

/* printk: formats are checked, nothing is printed. */
static inline __printf(1, 2) void fuzz_no_printk(const char *fmt, ...) { }
#define pr_debug(fmt, ...)	fuzz_no_printk(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	fuzz_no_printk(fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...)	fuzz_no_printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	fuzz_no_printk(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	fuzz_no_printk(fmt, ##__VA_ARGS__)
#define pr_warn_ratelimited	pr_warn
#define pr_err_ratelimited	pr_err
#define pr_debug_ratelimited	pr_debug

/* Byte order (linux/byteorder/generic.h). */
#define cpu_to_be16	__cpu_to_be16
#define cpu_to_be32	__cpu_to_be32
#define cpu_to_be64	__cpu_to_be64
#define be16_to_cpu	__be16_to_cpu
#define be32_to_cpu	__be32_to_cpu
#define be64_to_cpu	__be64_to_cpu
#define cpu_to_le16	__cpu_to_le16
#define cpu_to_le32	__cpu_to_le32
#define cpu_to_le64	__cpu_to_le64
#define le16_to_cpu	__le16_to_cpu
#define le32_to_cpu	__le32_to_cpu
#define le64_to_cpu	__le64_to_cpu
#define be16_add_cpu(p, v) (*(p) = cpu_to_be16(be16_to_cpu(*(p)) + (v)))
#define be32_add_cpu(p, v) (*(p) = cpu_to_be32(be32_to_cpu(*(p)) + (v)))
#define htons(x)	__cpu_to_be16(x)
#define ntohs(x)	__be16_to_cpu(x)
#define htonl(x)	__cpu_to_be32(x)
#define ntohl(x)	__be32_to_cpu(x)

/* Unaligned access (linux/unaligned.h). */
#define get_unaligned(p)					\
	(((const struct { typeof(*(p)) x; } __packed *)(p))->x)
#define put_unaligned(v, p)					\
	(((struct { typeof(*(p)) x; } __packed *)(p))->x = (v))
#define get_unaligned_be16(p) be16_to_cpu(get_unaligned((const __be16 *)(p)))
#define get_unaligned_be32(p) be32_to_cpu(get_unaligned((const __be32 *)(p)))
#define get_unaligned_be64(p) be64_to_cpu(get_unaligned((const __be64 *)(p)))
#define get_unaligned_le16(p) le16_to_cpu(get_unaligned((const __le16 *)(p)))
#define get_unaligned_le32(p) le32_to_cpu(get_unaligned((const __le32 *)(p)))
#define get_unaligned_le64(p) le64_to_cpu(get_unaligned((const __le64 *)(p)))
#define put_unaligned_be16(v, p) put_unaligned(cpu_to_be16(v), (__be16 *)(p))
#define put_unaligned_be32(v, p) put_unaligned(cpu_to_be32(v), (__be32 *)(p))
#define put_unaligned_be64(v, p) put_unaligned(cpu_to_be64(v), (__be64 *)(p))
#define put_unaligned_le16(v, p) put_unaligned(cpu_to_le16(v), (__le16 *)(p))
#define put_unaligned_le32(v, p) put_unaligned(cpu_to_le32(v), (__le32 *)(p))
#define put_unaligned_le64(v, p) put_unaligned(cpu_to_le64(v), (__le64 *)(p))

/* Bit counting. */
#define hweight8(w)	((unsigned int)__builtin_popcount((u8)(w)))
#define hweight16(w)	((unsigned int)__builtin_popcount((u16)(w)))
#define hweight32(w)	((unsigned int)__builtin_popcount((u32)(w)))
#define hweight64(w)	((unsigned int)__builtin_popcountll((u64)(w)))

/* Atomics: the harnesses are single-threaded. */
typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;
#define atomic_read(a)		((a)->counter)
#define atomic_set(a, v)	((a)->counter = (v))
#define atomic_inc(a)		((void)((a)->counter++))
#define atomic_dec(a)		((void)((a)->counter--))
#define atomic64_read(a)	((a)->counter)
#define atomic64_set(a, v)	((a)->counter = (v))
#define atomic64_inc(a)		((void)((a)->counter++))
#define atomic64_add(v, a)	((void)((a)->counter += (v)))

/*
 * Kernel objects that structures embed but the parsers never touch: only
 * their size matters here.
 */
struct list_head { struct list_head *next, *prev; };
struct hlist_node { struct hlist_node *next, **pprev; };
struct rhash_head { struct rhash_head *next; };
struct rcu_head { void *next; void (*func)(struct rcu_head *head); };
typedef struct { atomic_t refs; } refcount_t;
typedef struct { int lock; } spinlock_t;
struct timer_list { void *entry[2]; unsigned long expires; void *fn; u32 flags; };
struct work_struct { long data; struct list_head entry; void *func; };
/* delayed_work.timer.flags: queued; .expires: when it is due. */
struct delayed_work { struct work_struct work; struct timer_list timer; void *wq; int cpu; };
struct kvec { void *iov_base; size_t iov_len; };
struct hlist_head { struct hlist_node *first; };
struct rhlist_head { struct rhash_head rhead; struct rhlist_head *next; };
struct rhashtable {
	struct rhash_head *chain;
	unsigned int nelems;
	u16 key_len, key_offset, head_offset;
};

struct rhltable { struct rhashtable ht; };
struct rb_node { unsigned long parent; struct rb_node *right, *left; };
struct rb_root_cached { struct rb_node *root, *leftmost; };
struct completion { unsigned int done; struct list_head wait; };
struct mutex { long owner; struct list_head wait; };
typedef struct { long counter; } atomic_long_t;
struct page;
struct dentry;
struct workqueue_struct;
typedef unsigned int gfp_t;
#define GFP_KERNEL	0x0cc0u
#define GFP_ATOMIC	0x0a20u
#define DECLARE_HASHTABLE(name, bits) struct hlist_head name[1 << (bits)]
#define DECLARE_BITMAP(name, bits) \
	unsigned long name[DIV_ROUND_UP(bits, 8 * sizeof(long))]

#define atomic_long_read(a)	((a)->counter)
#define atomic_long_inc(a)	((void)((a)->counter++))
#define atomic_long_dec(a)	((void)((a)->counter--))

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void list_add(struct list_head *item, struct list_head *head)
{
	item->next = head->next;
	item->prev = head;
	head->next->prev = item;
	head->next = item;
}

static inline void list_del(struct list_head *item)
{
	item->next->prev = item->prev;
	item->prev->next = item->next;
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

/* Allocations: the harness's allocator is ASan's. */
#define kmalloc(size, gfp)	malloc(size)
#define kzalloc(size, gfp)	calloc(1, size)
#define kcalloc(n, size, gfp)	calloc(n, size)
#define kfree(p)		free((void *)(p))

#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

/* CRC32c (linux/crc32.h), in shim.c. */
u32 __crc32c_le(u32 crc, const void *p, size_t len);
u32 crc32_le(u32 crc, const void *p, size_t len);
#define crc32c(crc, p, len) __crc32c_le(crc, p, len)

#include "fuzz_ds.h"

#endif /* _MADCM_FUZZ_KERNEL_H */
