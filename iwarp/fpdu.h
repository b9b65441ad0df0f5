/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MPA framing of FPDUs (RFC 5044 section 4), the one codec of both cores:
 * the CM frames its RTR message with it, the RNIC's data path every FPDU
 * it sends, and its receive side takes the PAD and CRC rules from here.
 * Pure functions on bytes: no state, no lock, no allocation.
 *
 * The CRC field is CRC32c (as iSCSI uses it) over ULPDU_Length, ULPDU
 * and PAD, complemented, least significant octet first on the wire; zero
 * when neither side asked for CRCs. It is computed with libcrc32c's
 * crc32c(), which runs the fastest implementation the crypto API has
 * (crc32c-intel's CRC32 instruction and PCLMULQDQ on x86), as siw's
 * crc32c transform does, not the table code of __crc32c_le().
 */
#ifndef _MADCM_IWARP_FPDU_H
#define _MADCM_IWARP_FPDU_H

#include <linux/crc32c.h>
#include <linux/types.h>
#include "iwarp/iwarp.h"

/**
 * madcm_mpa_pad() - the PAD an FPDU carries behind its ULPDU
 * @ulpdu_len: the ULPDU's length
 *
 * Return: the zero octets (0 to 3) that bring ULPDU_Length and ULPDU to
 * a multiple of four octets.
 */
static inline u32 madcm_mpa_pad(u32 ulpdu_len)
{
	return (MPA_FPDU_ALIGN - (MPA_ULPDU_LEN_SIZE + ulpdu_len) %
		MPA_FPDU_ALIGN) % MPA_FPDU_ALIGN;
}

/**
 * madcm_mpa_crc() - extend a CRC32c over more octets
 * @crc: the CRC so far (~0 to start)
 * @data: the octets
 * @len: how many
 *
 * Return: the CRC so far; the field sent is its complement.
 */
static inline u32 madcm_mpa_crc(u32 crc, const void *data, u32 len)
{
	return crc32c(crc, data, len);
}

u32 madcm_mpa_fpdu_len(u32 ulpdu_len);
u32 madcm_mpa_mulpdu(u32 emss);
int madcm_mpa_frame(u8 *fpdu, u32 size, u32 ulpdu_len, bool crc);
bool madcm_mpa_fpdu_crc_ok(const u8 *fpdu, u32 len);

#endif /* _MADCM_IWARP_FPDU_H */
