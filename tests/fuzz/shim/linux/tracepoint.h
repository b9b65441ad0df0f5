/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: every tracepoint becomes an empty inline of the same prototype. */
#ifndef _MADCM_FUZZ_TRACEPOINT_H
#define _MADCM_FUZZ_TRACEPOINT_H
#include "../fuzz_kernel.h"

#define TP_PROTO(args...)	args
#define TP_ARGS(args...)	args
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(class, name, proto, args)			\
	static inline void trace_##name(proto) { }
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)	\
	static inline void trace_##name(proto) { }
#endif
