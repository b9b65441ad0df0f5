/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the RMPP suites: the wire format as IBTA vol. 1 13.6.2 and
 * 15.2.1.1 give it (numbers written out here, not taken from the code
 * under test), transfers filled with a known pattern and checked byte by
 * byte, and agents that record what they received.
 */
#ifndef _MADCM_MAD_RMPP_UTIL_H
#define _MADCM_MAD_RMPP_UTIL_H

#include <kunit/test.h>
#include <linux/completion.h>
#include "mad_test_util.h"

/* Subnet Administration: an RMPP class, and its class version. */
#define RT_CLASS	0x03
#define RT_VERSION	2
/* MAD header 24 + RMPP header 12 + SA header 20 (15.2.1.1). */
#define RT_HDR		56
#define RT_MAD		256
/* Data bytes of one segment after all headers. */
#define RT_DATA		(RT_MAD - RT_HDR)
/* Bytes after the RMPP header in one IB MAD: what PayloadLength counts. */
#define RT_PAYLOAD	(RT_MAD - 36)

/* Methods (13.4.5 and 15.2.2). */
#define RT_SET		0x02
#define RT_GET_MULTI	0x14
#define RT_RESP		0x80

/* RMPP types, flags and statuses (13.6.2.1, 13.6.2.2). */
#define RT_TYPE_DATA	1
#define RT_TYPE_ACK	2
#define RT_TYPE_STOP	3
#define RT_TYPE_ABORT	4
#define RT_FLAG_ACTIVE	0x1
#define RT_FLAG_FIRST	0x2
#define RT_FLAG_LAST	0x4
#define RT_ST_RESX	1
#define RT_ST_T2L	118
#define RT_ST_BAD_LEN	119
#define RT_ST_BAD_SEG	120
#define RT_ST_BADT	121
#define RT_ST_W2S	122
#define RT_ST_S2B	123
#define RT_ST_BAD_STATUS 124
#define RT_ST_UNV	125
#define RT_ST_TMR	126

/* Byte offsets of the RMPP header fields in a MAD (13.6.2.1). */
#define RT_OFF_VERSION	24
#define RT_OFF_TYPE	25
#define RT_OFF_FLAGS	26
#define RT_OFF_STATUS	27
#define RT_OFF_SEG	28
#define RT_OFF_PAYLEN	32

/* Segments of a transfer of @len data bytes, and its padding. */
static inline u32 rt_nseg(size_t len)
{
	return len ? DIV_ROUND_UP(len, RT_DATA) : 1;
}

static inline u32 rt_pad(size_t len)
{
	return rt_nseg(len) * RT_DATA - len;
}

u8 rt_pattern(size_t off, u8 seed);
u32 rt_get32(const u8 *mad, int off);

/* A MAD of the SA class with an RMPP header; data pattern from @seed. */
void rt_mad(u8 *mad, u8 method, u64 tid, u8 type, u8 flags, u8 status,
	    u32 seg, u32 paylen_newwin);
void rt_data_seg(u8 *mad, u8 method, u64 tid, u32 seg, u32 nseg,
		 size_t len, u8 seed);

/* What an agent received and sent; lives in test-managed memory. */
struct rt_agent_log {
	spinlock_t lock;	/* protects the fields below */
	int transfers;
	int with_send;
	int bad;
	u32 nseg;
	size_t mad_len;
	size_t expect_len;
	u8 seed;
	int sends;
	int status[IB_WC_GENERAL_ERR + 1];
	int last_retries;
	struct completion received;
	struct completion sent;
	/* Optional: answer each request with a response of this size. */
	size_t respond_len;
	u8 respond_seed;
	int respond_retries;
	int respond_err;
};

void rt_log_init(struct rt_agent_log *log, size_t expect_len, u8 seed);
struct rt_agent_log *rt_log(struct kunit *test, size_t expect_len, u8 seed);
int rt_check_recv(const struct ib_mad_recv_wc *wc, size_t len, u8 seed);
void rt_recv_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *wc);
void rt_send_handler(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc);
bool rt_wait(struct completion *c, unsigned long secs);

/* A kernel-RMPP SA agent (methods may be NULL) or a user-RMPP one. */
struct mt_agent *rt_agent(struct kunit *test, struct madcm_port *port,
			  const u8 *methods, int nr, u32 flags,
			  struct rt_agent_log *log);

/* An RMPP send buffer of @len data bytes, filled, ready to post. */
struct ib_mad_send_buf *rt_send(struct kunit *test, struct ib_mad_agent *ag,
				struct ib_ah *ah, u8 method, u32 tid_lo,
				size_t len, u8 seed, int timeout_ms,
				int retries);

/* The RMPP parameters a case changes, put back after it. */
struct rt_params {
	unsigned int window;
	unsigned int max_reassemblies;
	unsigned long max_bytes;
	unsigned int max_source_reassemblies;
	unsigned long max_source_bytes;
	unsigned int recv_timeout_ms;
	unsigned int ack_timeout_ms;
};

void rt_params_save(struct rt_params *p);
void rt_params_restore(const struct rt_params *p);
int rt_params_init(struct kunit *test, unsigned int window,
		   unsigned int ack_timeout_ms);
void rt_params_exit(struct kunit *test);

#endif /* _MADCM_MAD_RMPP_UTIL_H */
