/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * KUnit: a test transport for two QPs' streams (rnic/stream.h), joined
 * back to back. It carries what a connection's TCP would: the records
 * each side sends reach the other whole, once, in order, within a window
 * (a side with 64 KiB undelivered gets -EAGAIN, then tx_room); FIN and
 * RST as RFC 9293 gives them (a FIN taken is answered with ours after
 * what is queued; CLOSED once both FINs are in and acknowledged; a RST
 * ends the other side with -ECONNRESET). The suites that test what rides a stream
 * (RDMAP, the iw_cm provider) use it where no host socket can be loaded.
 */
#ifndef _MADCM_TESTS_KUNIT_RNIC_PIPE_H
#define _MADCM_TESTS_KUNIT_RNIC_PIPE_H

#include <kunit/test.h>
#include "rnic/rnic.h"

struct rnic_pipe;

typedef void (*rnic_pipe_tap_fn)(void *arg, int from, const u8 *d, u32 len);

struct rnic_pipe *rnic_pipe_create(struct kunit *test);
void rnic_pipe_join(struct rnic_pipe *p, struct madcm_rnic_stream *a,
		    struct madcm_rnic_stream *b);
void rnic_pipe_live(struct rnic_pipe *p, bool live);
void rnic_pipe_flush(struct rnic_pipe *p);
u32 rnic_pipe_records(struct rnic_pipe *p, int from);
u32 rnic_pipe_pushes(struct rnic_pipe *p, int from, u32 *atomic, u32 *locked);
void rnic_pipe_hold_zc(struct rnic_pipe *p, bool hold);
void rnic_pipe_tap(struct rnic_pipe *p, rnic_pipe_tap_fn fn, void *arg);

#endif /* _MADCM_TESTS_KUNIT_RNIC_PIPE_H */
