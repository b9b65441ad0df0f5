/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's data structures and services that the MAD core's RMPP
 * receiver uses, for user-space fuzz builds: lists, hash tables, a
 * resizable hash table (a plain chain here: the same answers, none of
 * the speed), jiffies under the harness's control, delayed work that the
 * harness runs, pages, bitmaps and atomics. Locks are no-ops: the
 * harnesses are single-threaded.
 */
#ifndef _MADCM_FUZZ_DS_H
#define _MADCM_FUZZ_DS_H

#include "fuzz_kernel.h"

/* ---- linux/list.h ---- */
#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) \
	list_entry((ptr)->next, type, member)
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, typeof(*(pos)), member)
#define list_for_each_entry(pos, head, member)				\
	for (pos = list_first_entry(head, typeof(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_first_entry(head, typeof(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     &pos->member != (head);					\
	     pos = n, n = list_next_entry(n, member))

static inline void list_add_tail(struct list_head *item,
				 struct list_head *head)
{
	item->prev = head->prev;
	item->next = head;
	head->prev->next = item;
	head->prev = item;
}

static inline void list_del_init(struct list_head *item)
{
	list_del(item);
	INIT_LIST_HEAD(item);
}

static inline void list_move_tail(struct list_head *item,
				  struct list_head *head)
{
	list_del(item);
	list_add_tail(item, head);
}

static inline bool list_is_last(const struct list_head *item,
				const struct list_head *head)
{
	return item->next == head;
}

/* Turn the list so that @item is its first entry. */
static inline void list_rotate_to_front(struct list_head *item,
					struct list_head *head)
{
	list_del(head);
	list_add_tail(head, item);
}

/* ---- hlist and linux/hashtable.h ---- */
#define hlist_entry_safe(ptr, type, member) ({			\
	typeof(ptr) ____ptr = (ptr);				\
	____ptr ? container_of(____ptr, type, member) : NULL; })
#define hlist_for_each_entry(pos, head, member)				\
	for (pos = hlist_entry_safe((head)->first, typeof(*(pos)), member); \
	     pos;							\
	     pos = hlist_entry_safe((pos)->member.next, typeof(*(pos)), member))

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	n->next = h->first;
	if (h->first)
		h->first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}

static inline void hlist_del_init(struct hlist_node *n)
{
	if (!n->pprev)
		return;
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
	n->next = NULL;
	n->pprev = NULL;
}

#define HASH_SIZE(name) ARRAY_SIZE(name)
#define fuzz_hash_bkt(key, size) ((u32)((u64)(key) * 0x61C88647u) % (size))
#define hash_add(table, node, key) \
	hlist_add_head(node, &(table)[fuzz_hash_bkt(key, HASH_SIZE(table))])
#define hash_del(node) hlist_del_init(node)
#define hash_for_each_possible(table, obj, member, key) \
	hlist_for_each_entry(obj, &(table)[fuzz_hash_bkt(key, HASH_SIZE(table))], member)
#define hash_for_each(table, bkt, obj, member)			\
	for ((bkt) = 0; (bkt) < HASH_SIZE(table); (bkt)++)	\
		hlist_for_each_entry(obj, &(table)[bkt], member)

u32 jhash(const void *key, u32 length, u32 initval);

/* ---- linux/rhashtable.h: one chain ---- */
struct rhashtable_params {
	u16 nelem_hint;
	u16 key_len;
	u16 key_offset;
	u16 head_offset;
	unsigned int max_size;
	u16 min_size;
	bool automatic_shrinking;
};

int rhashtable_init(struct rhashtable *ht,
		    const struct rhashtable_params *params);
void *rhashtable_lookup_fast(struct rhashtable *ht, const void *key,
			     const struct rhashtable_params params);
void *rhashtable_lookup_get_insert_fast(struct rhashtable *ht,
					struct rhash_head *obj,
					const struct rhashtable_params params);
int rhashtable_remove_fast(struct rhashtable *ht, struct rhash_head *obj,
			   const struct rhashtable_params params);
void rhashtable_free_and_destroy(struct rhashtable *ht,
				 void (*free_fn)(void *ptr, void *arg),
				 void *arg);

/* ---- linux/jiffies.h: time is the harness's ---- */
#define HZ 1000
extern unsigned long jiffies;
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define msecs_to_jiffies(m)	((unsigned long)(m))
#define jiffies_to_msecs(j)	((unsigned int)(j))

/* ---- linux/workqueue.h: delayed work runs when the harness says ---- */
typedef void (*work_func_t)(struct work_struct *work);
#define to_delayed_work(w) container_of(w, struct delayed_work, work)
#define INIT_WORK(w, fn) do {						\
	memset(w, 0, sizeof(*(w)));					\
	(w)->func = (void *)(fn);					\
} while (0)
#define INIT_DELAYED_WORK(dw, fn) do {					\
	memset(dw, 0, sizeof(*(dw)));					\
	(dw)->work.func = (void *)(fn);					\
} while (0)
bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
			unsigned long delay);
bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
		      unsigned long delay);
bool cancel_delayed_work_sync(struct delayed_work *dw);
/* The harness keeps and runs what is queued. */
bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
/* Runs @dw if it is due; returns whether it ran. */
bool fuzz_run_delayed_work(struct delayed_work *dw);

/* ---- linux/mm.h, linux/slab.h ---- */
#define PAGE_SIZE	4096UL
#define __GFP_NOWARN	0x2000u
#define __GFP_ZERO	0x100u
struct page *alloc_page(gfp_t gfp);
void __free_page(struct page *page);
#define page_address(page)	((void *)(page))
#define kvzalloc(size, gfp)	calloc(1, size)
#define kvmalloc(size, gfp)	malloc(size)
#define kvfree(p)		free((void *)(p))

/* ---- linux/bitmap.h, linux/bitops.h ---- */
#define BITS_PER_LONG	64
#define BITS_TO_LONGS(n) DIV_ROUND_UP(n, BITS_PER_LONG)
static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

/* The atomic forms: the harnesses are single-threaded. */
static inline void set_bit(unsigned long nr, unsigned long *addr)
{
	__set_bit(nr, addr);
}

static inline void clear_bit(unsigned long nr, unsigned long *addr)
{
	__clear_bit(nr, addr);
}

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG) & 1;
}

static inline void bitmap_copy(unsigned long *dst, const unsigned long *src,
			       unsigned int nbits)
{
	memcpy(dst, src, BITS_TO_LONGS(nbits) * sizeof(long));
}

/* ---- atomics and locks ---- */
#define atomic_inc_return(a)	(++(a)->counter)
#define atomic_dec_return(a)	(--(a)->counter)
#define atomic_add(i, a)	((void)((a)->counter += (i)))
#define atomic_sub(i, a)	((void)((a)->counter -= (i)))
#define atomic_long_set(a, v)	((a)->counter = (v))
#define atomic_long_add(i, a)	((void)((a)->counter += (i)))
#define atomic_long_sub(i, a)	((void)((a)->counter -= (i)))
#define atomic_long_add_return(i, a) ((a)->counter += (i))
#define atomic_long_sub_return(i, a) ((a)->counter -= (i))
#define fuzz_try_cmpxchg(a, old, new) ({				\
	bool __ok = (a)->counter == *(old);				\
	if (__ok)							\
		(a)->counter = (new);					\
	else								\
		*(old) = (a)->counter;					\
	__ok; })
#define atomic_try_cmpxchg(a, old, new)		fuzz_try_cmpxchg(a, old, new)
#define atomic_long_try_cmpxchg(a, old, new)	fuzz_try_cmpxchg(a, old, new)
#define spin_lock_init(l)	((void)(l))
#define spin_lock(l)		((void)(l))
#define spin_unlock(l)		((void)(l))
#define spin_lock_bh(l)		((void)(l))
#define spin_unlock_bh(l)	((void)(l))
#define lockdep_assert_held(l)	((void)(l))
#define might_sleep()		do { } while (0)
#define local_bh_disable()	do { } while (0)
#define local_bh_enable()	do { } while (0)

/* ---- linux/moduleparam.h ---- */
#define module_param_named(name, var, type, perm) static_assert(1)
#define MODULE_PARM_DESC(name, desc) static_assert(1)

#endif /* _MADCM_FUZZ_DS_H */
