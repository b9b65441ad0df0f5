// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pure MAD helpers: what a management class and a method say about a MAD.
 * IBTA vol. 1 ch. 13.4 (MAD formats) and 13.6 (RMPP).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": mad: " fmt

#include <linux/export.h>
#include <madcm/mad.h>

/*
 * Classes whose MADs carry an RMPP header after the common MAD header, and
 * the length of everything before their data area (common header, RMPP
 * header, class header).
 */
static int madcm_class_hdr_len(u8 mgmt_class)
{
	switch (mgmt_class) {
	case IB_MGMT_CLASS_SUBN_ADM:
		return IB_MGMT_SA_HDR;
	case IB_MGMT_CLASS_DEVICE_MGMT:
	case IB_MGMT_CLASS_DEVICE_ADM:
	case IB_MGMT_CLASS_BIS:
		return IB_MGMT_DEVICE_HDR;
	case IB_MGMT_CLASS_VENDOR_RANGE2_START ... IB_MGMT_CLASS_VENDOR_RANGE2_END:
		return IB_MGMT_VENDOR_HDR;
	default:
		return 0;
	}
}

/**
 * madcm_response_mad() - tell whether a MAD is a response
 * @hdr: the common MAD header of the MAD
 *
 * A MAD is a response when its method has the R bit set (bit 7, IBTA vol. 1
 * 13.4.5), when its method is TrapRepress (which answers a Trap), or when it
 * is a Baseboard Management MAD whose attribute modifier has the BM response
 * bit set. Same semantics as ib_response_mad().
 *
 * Context: Any context.
 * Return: 1 when @hdr is a response, 0 when it is not.
 */
int madcm_response_mad(const struct ib_mad_hdr *hdr)
{
	if (hdr->method & IB_MGMT_METHOD_RESP)
		return 1;
	if (hdr->method == IB_MGMT_METHOD_TRAP_REPRESS)
		return 1;
	return hdr->mgmt_class == IB_MGMT_CLASS_BM &&
	       (hdr->attr_mod & IB_BM_ATTR_MOD_RESP) != 0;
}
EXPORT_SYMBOL_GPL(madcm_response_mad);

/**
 * madcm_is_mad_class_rmpp() - tell whether a management class uses RMPP
 * @mgmt_class: the management class
 *
 * The classes whose MAD format has an RMPP header: Subnet Administration,
 * Device Management, Device Administration, BIS and the vendor classes of
 * range 2 (0x30 to 0x4F). Same semantics as ib_is_mad_class_rmpp().
 *
 * Context: Any context.
 * Return: 1 for an RMPP class, 0 for any other class.
 */
int madcm_is_mad_class_rmpp(u8 mgmt_class)
{
	return madcm_class_hdr_len(mgmt_class) != 0;
}
EXPORT_SYMBOL_GPL(madcm_is_mad_class_rmpp);

/**
 * madcm_get_mad_data_offset() - offset of the data area in a MAD of a class
 * @mgmt_class: the management class
 *
 * The data area starts after the common MAD header and, for the classes
 * that have them, the RMPP header and the class header: 56 bytes for Subnet
 * Administration, 64 for Device Management, Device Administration and BIS,
 * 40 for vendor range 2 and 24 for every other class. Same semantics as
 * ib_get_mad_data_offset().
 *
 * Context: Any context.
 * Return: the offset in bytes from the start of the MAD.
 */
int madcm_get_mad_data_offset(u8 mgmt_class)
{
	return madcm_class_hdr_len(mgmt_class) ?: IB_MGMT_MAD_HDR;
}
EXPORT_SYMBOL_GPL(madcm_get_mad_data_offset);
