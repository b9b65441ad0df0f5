// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checking a received MPA request, reply or reject frame (RFC 5044 section
 * 7.1, RFC 6581). The frame comes from the wire: every field is checked
 * against the buffer length before it is read, every refusal is counted.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include "irdma_cm/cm_node.h"
#include "irdma_cm/mpa.h"

/**
 * irdma_parse_mpa - check a received MPA frame and take in its parameters
 * @cm_node: the connection; its role says which key is expected
 * @buf: the received bytes, starting at the frame's key
 * @type: set to IRDMA_MPA_REQUEST_ACCEPT or IRDMA_MPA_REQUEST_REJECT
 * @len: how many bytes @buf holds
 *
 * A responder expects the request key, an initiator the reply key. The
 * revision must be 1 or 2 and not above @cm_node->mpa_frame_rev (what we
 * offered, or the most we speak); R is refused in a request; the private
 * data length must be at most 512 and within @len; a revision 2 frame with
 * S set must carry the 4 bytes of IRD/ORD at the start of its private
 * data. Bytes of @buf after the frame are not looked at.
 *
 * A well-formed reply with R set is a reject: its private data is taken,
 * no IRD/ORD is negotiated. Otherwise, with RFC 6581 data present,
 * irdma_negotiate_mpa_v2_ird_ord() runs; without it (revision 1, or
 * revision 2 with S clear) no RTR message is used and IRD/ORD are not
 * exchanged.
 *
 * On success @cm_node takes the frame's revision, the peer's private data
 * (the IRD/ORD words excluded), its M and C flags and the negotiated
 * IRD/ORD and RTR type. On error neither @cm_node nor @type is changed.
 *
 * Return: 0, or the error of the first check that failed (each is also
 * counted, see enum irdma_mpa_reject): -ENODATA when @len is shorter
 * than the header; -EBADMSG for a key not expected in our role;
 * -EPROTONOSUPPORT for a revision other than 1 or 2; -EPROTO for a
 * revision above @cm_node->mpa_frame_rev; -EBADRQC for R set in a
 * request; -EMSGSIZE for a private data length above 512; -EOVERFLOW for
 * a private data length beyond @len; -ENOMSG for a revision 2 frame with
 * S set and less than 4 bytes of private data; or the errors of
 * irdma_negotiate_mpa_v2_ird_ord().
 */
int irdma_parse_mpa(struct irdma_cm_node *cm_node, const u8 *buf, u32 *type,
		    u32 len)
{
	const struct ietf_mpa_v1 *mpa_frame = (const struct ietf_mpa_v1 *)buf;
	const u32 hdr_len = sizeof(*mpa_frame);
	bool responder = cm_node->role == IRDMA_CM_ROLE_RESPONDER;
	u32 priv_data_len, ulp_off;
	bool enhanced, rejected;
	int ret;

	if (len < hdr_len)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_SHORT_HEADER);

	if (memcmp(mpa_frame->key, responder ? IETF_MPA_KEY_REQ :
					       IETF_MPA_KEY_REP,
		   IETF_MPA_KEY_SIZE))
		return irdma_mpa_refuse(IRDMA_MPA_REJ_BAD_KEY);

	if (mpa_frame->rev != IETF_MPA_V1 && mpa_frame->rev != IETF_MPA_V2)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_BAD_REV);
	if (mpa_frame->rev > cm_node->mpa_frame_rev)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_REV_ABOVE_OFFER);

	rejected = mpa_frame->flags & IETF_MPA_FLAGS_REJECT;
	if (responder && rejected)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_REJECT_IN_REQUEST);

	priv_data_len = be16_to_cpu(mpa_frame->priv_data_len);
	if (priv_data_len > IETF_MAX_PRIV_DATA_LEN)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_PDATA_TOO_LONG);
	if (priv_data_len > len - hdr_len)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_TRUNCATED);

	enhanced = mpa_frame->rev == IETF_MPA_V2 &&
		   (mpa_frame->flags & IETF_MPA_FLAGS_ENHANCED);
	if (enhanced && priv_data_len < IETF_RTR_MSG_SIZE)
		return irdma_mpa_refuse(IRDMA_MPA_REJ_NO_RTR_MSG);

	/* The last check that can fail; it changes @cm_node only on success. */
	if (!rejected) {
		if (enhanced) {
			const struct ietf_mpa_v2 *v2 =
				(const struct ietf_mpa_v2 *)buf;

			ret = irdma_negotiate_mpa_v2_ird_ord(cm_node,
							     &v2->rtr_msg);
			if (ret)
				return ret;
		} else {
			cm_node->send_rdma0_op = IRDMA_RTR_NONE;
			cm_node->mpav2_ird_ord = IETF_NO_IRD_ORD;
		}
	}

	/* The IRD/ORD words belong to the CM, the rest to the consumer. */
	ulp_off = enhanced ? IETF_RTR_MSG_SIZE : 0;
	cm_node->rcvd_pdata_len = priv_data_len - ulp_off;
	memcpy(cm_node->rcvd_pdata, mpa_frame->priv_data + ulp_off,
	       cm_node->rcvd_pdata_len);

	cm_node->mpa_frame_rev = mpa_frame->rev;
	cm_node->peer_crc = mpa_frame->flags & IETF_MPA_FLAGS_CRC;
	cm_node->snd_mark_en = mpa_frame->flags & IETF_MPA_FLAGS_MARKERS;
	*type = rejected ? IRDMA_MPA_REQUEST_REJECT : IRDMA_MPA_REQUEST_ACCEPT;
	return 0;
}
