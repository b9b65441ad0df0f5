/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TCP sequence-space rules the CM applies to every received segment:
 * RFC 9293 3.10.7.4 (segment acceptability), RFC 5961 (blind RST, SYN and
 * data injection) and RFC 9293 3.10.7.4 "fifth, check the ACK field".
 */
#ifndef _MADCM_IRDMA_CM_TCP_SEQ_H
#define _MADCM_IRDMA_CM_TCP_SEQ_H

#include <linux/types.h>

/* Modulo 2^32 comparisons (RFC 9293 3.4). */
static inline bool irdma_seq_lt(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

static inline bool irdma_seq_le(u32 a, u32 b)
{
	return (s32)(a - b) <= 0;
}

/* lo <= x < lo + len, in sequence space. */
static inline bool irdma_seq_in(u32 x, u32 lo, u32 len)
{
	return x - lo < len;
}

/**
 * struct irdma_tcp_rcv_state - what a connection knows of its sequence space
 * @rcv_nxt: next sequence number expected from the peer
 * @rcv_wnd: our receive window, in bytes
 * @snd_una: oldest sequence number we sent that is not yet acknowledged
 * @snd_nxt: next sequence number we will send
 * @max_snd_wnd: the largest window the peer has offered us
 */
struct irdma_tcp_rcv_state {
	u32 rcv_nxt;
	u32 rcv_wnd;
	u32 snd_una;
	u32 snd_nxt;
	u32 max_snd_wnd;
};

/**
 * enum irdma_seq_verdict - what to do with a segment in a synchronized state
 * @IRDMA_SEQ_ACCEPT: process it
 * @IRDMA_SEQ_DROP_ACK: drop it and send an ACK (unacceptable sequence
 *	number, or an ACK of data not yet sent)
 * @IRDMA_SEQ_DROP: drop it silently (an old duplicate ACK, an
 *	out-of-window RST)
 * @IRDMA_SEQ_CHALLENGE_ACK: drop it and send a challenge ACK (RFC 5961: an
 *	in-window but inexact RST, any SYN, an ACK too far in the past)
 * @IRDMA_SEQ_RESET: an acceptable RST: tear the connection down
 */
enum irdma_seq_verdict {
	IRDMA_SEQ_ACCEPT,
	IRDMA_SEQ_DROP_ACK,
	IRDMA_SEQ_DROP,
	IRDMA_SEQ_CHALLENGE_ACK,
	IRDMA_SEQ_RESET,
};

bool irdma_seq_acceptable(u32 rcv_nxt, u32 rcv_wnd, u32 seq, u32 seg_len);
enum irdma_seq_verdict irdma_check_seq(const struct irdma_tcp_rcv_state *st,
				       u32 seq, u32 ack, u8 flags,
				       u32 seg_len);

#endif /* _MADCM_IRDMA_CM_TCP_SEQ_H */
