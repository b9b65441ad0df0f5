// SPDX-License-Identifier: GPL-2.0-only
/*
 * MPA framing of FPDUs (RFC 5044 section 4): lengths, MULPDU, framing a
 * ULPDU built in place, and checking a whole FPDU's CRC. iwarp/fpdu.h
 * says who uses it.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include "madcm_compat.h"
#include "iwarp/fpdu.h"

/**
 * madcm_mpa_fpdu_len() - the length of the FPDU that carries a ULPDU
 * @ulpdu_len: the ULPDU's length (DDP header and payload)
 *
 * Return: ULPDU_Length field, ULPDU, PAD and CRC field, in octets.
 */
u32 madcm_mpa_fpdu_len(u32 ulpdu_len)
{
	return MPA_ULPDU_LEN_SIZE + ulpdu_len + madcm_mpa_pad(ulpdu_len) +
	       MPA_CRC_SIZE;
}

/**
 * madcm_mpa_mulpdu() - the largest ULPDU one FPDU of at most @emss takes
 * @emss: the most octets the FPDU may have (the stream's effective MSS,
 *	or less)
 *
 * RFC 5044 section 4.1 without markers: an FPDU fits one segment, so the
 * ULPDU is at most EMSS less ULPDU_Length, CRC, and the PAD that the
 * largest fitting multiple of four leaves.
 *
 * Return: MULPDU in octets, 0 when @emss is too small for any, at most
 * the largest ULPDU_Length.
 */
u32 madcm_mpa_mulpdu(u32 emss)
{
	u32 room;

	/* The smallest FPDU: ULPDU_Length, 2 octets of ULPDU, CRC. */
	if (emss < MPA_ULPDU_LEN_SIZE + 2 + MPA_CRC_SIZE)
		return 0;
	room = round_down(emss - MPA_CRC_SIZE, MPA_FPDU_ALIGN);
	return min_t(u32, room - MPA_ULPDU_LEN_SIZE, MPA_ULPDU_LEN_MAX);
}

/**
 * madcm_mpa_frame() - frame a ULPDU built in place as an MPA FPDU
 * @fpdu: the FPDU; the ULPDU is already at offset MPA_ULPDU_LEN_SIZE
 * @size: the room at @fpdu
 * @ulpdu_len: the ULPDU's length
 * @crc: CRCs were negotiated (either side set C in its MPA frame)
 *
 * Writes ULPDU_Length, the PAD (zeros) and the CRC field: CRC32c over
 * everything before it when @crc, else zero.
 *
 * Return: the FPDU's length; -EMSGSIZE when @ulpdu_len does not fit
 * ULPDU_Length, -ENOSPC when @size is too small. Nothing is written on
 * error.
 */
int madcm_mpa_frame(u8 *fpdu, u32 size, u32 ulpdu_len, bool crc)
{
	struct mpa_fpdu_hdr *hdr = (struct mpa_fpdu_hdr *)fpdu;
	u32 body = MPA_ULPDU_LEN_SIZE + ulpdu_len;
	u32 pad, check = 0;

	if (ulpdu_len > MPA_ULPDU_LEN_MAX)
		return -EMSGSIZE;
	if (size < madcm_mpa_fpdu_len(ulpdu_len))
		return -ENOSPC;
	pad = madcm_mpa_pad(ulpdu_len);
	hdr->ulpdu_len = cpu_to_be16(ulpdu_len);
	memset(fpdu + body, 0, pad);
	if (crc)
		check = ~madcm_mpa_crc(~0U, fpdu, body + pad);
	put_unaligned_le32(check, fpdu + body + pad);
	return body + pad + MPA_CRC_SIZE;
}

/**
 * madcm_mpa_fpdu_crc_ok() - whether a whole FPDU's CRC field is right
 * @fpdu: the FPDU, from its ULPDU_Length on
 * @len: its length, CRC field included (at least MPA_CRC_SIZE)
 *
 * Return: true when the last MPA_CRC_SIZE octets are the CRC of the
 * octets before them.
 */
bool madcm_mpa_fpdu_crc_ok(const u8 *fpdu, u32 len)
{
	if (len < MPA_CRC_SIZE)
		return false;
	return get_unaligned_le32(fpdu + len - MPA_CRC_SIZE) ==
	       ~madcm_mpa_crc(~0U, fpdu, len - MPA_CRC_SIZE);
}
