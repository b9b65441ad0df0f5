// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sequence and acknowledgment checks for segments received on a
 * synchronized connection (ESTABLISHED and the closing states).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": cm: " fmt

#include "irdma_cm/tcp_seg.h"
#include "irdma_cm/tcp_seq.h"

/**
 * irdma_seq_acceptable() - RFC 9293's segment acceptability test
 * @rcv_nxt: RCV.NXT
 * @rcv_wnd: RCV.WND
 * @seq: SEG.SEQ
 * @seg_len: SEG.LEN, counting SYN and FIN
 *
 * With an empty segment, SEG.SEQ must equal RCV.NXT when the window is
 * zero and lie in [RCV.NXT, RCV.NXT + RCV.WND) otherwise. A segment with
 * data is never acceptable in a zero window; otherwise its first or its
 * last octet must lie in the window.
 *
 * Return: true when the segment is acceptable.
 */
bool irdma_seq_acceptable(u32 rcv_nxt, u32 rcv_wnd, u32 seq, u32 seg_len)
{
	if (!seg_len)
		return rcv_wnd ? irdma_seq_in(seq, rcv_nxt, rcv_wnd) :
				 seq == rcv_nxt;
	if (!rcv_wnd)
		return false;
	return irdma_seq_in(seq, rcv_nxt, rcv_wnd) ||
	       irdma_seq_in(seq + seg_len - 1, rcv_nxt, rcv_wnd);
}

/**
 * irdma_check_seq() - judge a segment on a synchronized connection
 * @st: the connection's sequence state
 * @seq: SEG.SEQ
 * @ack: SEG.ACK
 * @flags: the segment's IRDMA_TCP_* flags
 * @seg_len: its payload length (SYN and FIN are counted here)
 *
 * Applies, in RFC 9293's order, the acceptability test (an unacceptable
 * non-RST segment is answered with an ACK), the RST checks of RFC 5961 3.2
 * (reset only on an exact RCV.NXT match, challenge ACK when in the window,
 * silent drop otherwise), the SYN rule of RFC 5961 4.2 (always a challenge
 * ACK) and the ACK checks of RFC 9293 and RFC 5961 5.2 (an ACK of data not
 * yet sent is answered with an ACK; one older than SND.UNA minus the
 * largest window the peer offered gets a challenge ACK; a duplicate within
 * that range is accepted but moves nothing). A segment without ACK is
 * dropped.
 *
 * Return: the verdict.
 */
enum irdma_seq_verdict irdma_check_seq(const struct irdma_tcp_rcv_state *st,
				       u32 seq, u32 ack, u8 flags,
				       u32 seg_len)
{
	u32 len = seg_len + !!(flags & IRDMA_TCP_SYN) + !!(flags & IRDMA_TCP_FIN);

	if (flags & IRDMA_TCP_RST) {
		if (seq == st->rcv_nxt)
			return IRDMA_SEQ_RESET;
		if (irdma_seq_in(seq, st->rcv_nxt, st->rcv_wnd))
			return IRDMA_SEQ_CHALLENGE_ACK;
		return IRDMA_SEQ_DROP;
	}
	if (!irdma_seq_acceptable(st->rcv_nxt, st->rcv_wnd, seq, len))
		return IRDMA_SEQ_DROP_ACK;
	if (flags & IRDMA_TCP_SYN)
		return IRDMA_SEQ_CHALLENGE_ACK;
	if (!(flags & IRDMA_TCP_ACK))
		return IRDMA_SEQ_DROP;
	if (irdma_seq_lt(st->snd_nxt, ack))
		return IRDMA_SEQ_DROP_ACK;
	if (irdma_seq_lt(ack, st->snd_una - st->max_snd_wnd))
		return IRDMA_SEQ_CHALLENGE_ACK;
	return IRDMA_SEQ_ACCEPT;
}
