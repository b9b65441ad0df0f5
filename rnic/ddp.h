/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RNIC's MPA/DDP/RDMAP codec (rnic/ddp.c): pure functions on bytes,
 * no QP, no lock, no allocation.
 *
 * Send side: building a Terminate message. FPDU framing (lengths,
 * MULPDU, PAD and CRC) is iwarp/fpdu.h's, shared with the CM.
 *
 * Receive side: a streaming FPDU parser, fed stream bytes split anywhere,
 * that reports each FPDU's headers, its payload in pieces and its end
 * (with the CRC verdict); and the checks of a DDP/RDMAP header that need
 * no QP state, each failure named by the Terminate code RFC 5040, 5041
 * and 5044 give it.
 */
#ifndef _MADCM_RNIC_DDP_H
#define _MADCM_RNIC_DDP_H

#include <linux/types.h>
#include "iwarp/fpdu.h"
#include "rnic/iwarp.h"

/* ---- Send side ---- */

u32 madcm_ddp_term_build(struct madcm_ddp_term_msg *m, u32 msn, u8 layer,
			 u8 etype, u8 ecode, const void *hdrs, u32 hdrs_len);

/* ---- Receive side ---- */

/**
 * struct madcm_term_code - what a Terminate message reports
 * @layer: enum rdmap_term_layer
 * @etype: the error type of that layer
 * @ecode: the error code of that type
 */
struct madcm_term_code {
	u8 layer;
	u8 etype;
	u8 ecode;
};

/**
 * struct madcm_ddp_seg - a DDP segment's header fields, in host order
 * @opcode: enum rdmap_opcode
 * @tagged: T
 * @last: L
 * @hdr_len: octets of DDP and RDMAP header (the payload follows)
 * @pay_len: octets of payload (ULPDU_Length - @hdr_len)
 * @stag: tagged: Data Sink STag
 * @to: tagged: Data Sink Tagged Offset
 * @qn: untagged: queue number
 * @msn: untagged: message sequence number
 * @mo: untagged: message offset
 * @inval_stag: Send with Invalidate: the STag to invalidate
 * @sink_stag: Read Request: Data Sink STag
 * @sink_to: Read Request: Data Sink Tagged Offset
 * @read_size: Read Request: RDMA Read Message Size
 * @src_stag: Read Request: Data Source STag
 * @src_to: Read Request: Data Source Tagged Offset
 * @term_ctrl: Terminate: the Terminate Control word
 */
struct madcm_ddp_seg {
	u8 opcode;
	bool tagged;
	bool last;
	u32 hdr_len;
	u32 pay_len;
	u32 stag;
	u64 to;
	u32 qn;
	u32 msn;
	u32 mo;
	u32 inval_stag;
	u32 sink_stag;
	u64 sink_to;
	u32 read_size;
	u32 src_stag;
	u64 src_to;
	u32 term_ctrl;
};

u32 madcm_ddp_hdr_len(u8 ddp_ctrl, u8 rdmap_ctrl);
int madcm_ddp_parse(const struct madcm_ddp_term_hdrs *h, u32 got,
		    struct madcm_ddp_seg *seg, struct madcm_term_code *err);

/**
 * enum madcm_mpa_rx_ev - what madcm_mpa_rx_step() found
 * @MADCM_MPA_RX_MORE: it took every byte it was given; feed more
 * @MADCM_MPA_RX_HDR: an FPDU's headers are in @h of the parser
 *	(madcm_mpa_rx.got octets of them: all of them, or fewer when the
 *	ULPDU is shorter than its header)
 * @MADCM_MPA_RX_DATA: a piece of the current FPDU's payload
 * @MADCM_MPA_RX_END: the FPDU ended (PAD and CRC taken); see crc_ok
 */
enum madcm_mpa_rx_ev {
	MADCM_MPA_RX_MORE,
	MADCM_MPA_RX_HDR,
	MADCM_MPA_RX_DATA,
	MADCM_MPA_RX_END,
};

/**
 * struct madcm_mpa_rx - the streaming FPDU parser's state
 * @crc_on: CRCs were negotiated: check them
 * @part: which part of the FPDU comes next (internal)
 * @got: octets of @h taken (the ULPDU_Length field counts)
 * @want: octets of @h wanted before the headers are complete
 * @ulpdu_len: the current FPDU's ULPDU_Length
 * @pay_len: octets of payload in the current FPDU
 * @pay_off: payload octets taken so far
 * @pad: PAD octets still to take
 * @crc: the CRC32c so far (not yet inverted); without CRCs none is
 *	computed and it stays ~0
 * @crc_got: octets of the CRC field taken
 * @crc_rx: the CRC field as received
 * @crc_ok: at MADCM_MPA_RX_END: the CRC matched (or CRCs are off)
 * @h: the ULPDU_Length field and the DDP/RDMAP headers, as a Terminate
 *	message reports them
 */
struct madcm_mpa_rx {
	bool crc_on;
	u8 part;
	u32 got;
	u32 want;
	u32 ulpdu_len;
	u32 pay_len;
	u32 pay_off;
	u32 pad;
	u32 crc;
	u32 crc_got;
	u8 crc_rx[MPA_CRC_SIZE];
	bool crc_ok;
	struct madcm_ddp_term_hdrs h;
};

/**
 * struct madcm_mpa_rx_out - one step's result
 * @ev: enum madcm_mpa_rx_ev
 * @data: MADCM_MPA_RX_DATA: the piece (inside the caller's buffer)
 * @len: MADCM_MPA_RX_DATA: its length
 * @off: MADCM_MPA_RX_DATA: its offset in the FPDU's payload
 */
struct madcm_mpa_rx_out {
	enum madcm_mpa_rx_ev ev;
	const u8 *data;
	u32 len;
	u32 off;
};

void madcm_mpa_rx_init(struct madcm_mpa_rx *p, bool crc_on);
u32 madcm_mpa_rx_step(struct madcm_mpa_rx *p, const u8 *d, u32 len,
		      struct madcm_mpa_rx_out *out);

#endif /* _MADCM_RNIC_DDP_H */
