// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the pure MAD helpers and the ib_mad.h inline helpers madcm relies
 * on. Every expectation here comes from the layouts and tables of IBTA
 * vol. 1 ch. 13 written out below, never from the code under test.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <madcm/mad.h>

/*
 * IBTA vol. 1 ch. 13.4.2, the common MAD header, byte offsets:
 * BaseVersion 0, MgmtClass 1, ClassVersion 2, R|Method 3, Status 4-5,
 * ClassSpecific 6-7, TransactionID 8-15, AttributeID 16-17, Reserved 18-19,
 * AttributeModifier 20-23. Then, in RMPP classes, the RMPP header
 * (13.6.2.1): RMPPVersion 24, RMPPType 25, RRespTime|RMPPFlags 26,
 * RMPPStatus 27, Data1 28-31, Data2 32-35.
 */
enum {
	SPEC_BASE_VERSION = 0,
	SPEC_MGMT_CLASS = 1,
	SPEC_CLASS_VERSION = 2,
	SPEC_METHOD = 3,
	SPEC_STATUS = 4,
	SPEC_CLASS_SPECIFIC = 6,
	SPEC_TID = 8,
	SPEC_ATTR_ID = 16,
	SPEC_ATTR_MOD = 20,
	SPEC_COMMON_HDR_LEN = 24,
	SPEC_RMPP_VERSION = 24,
	SPEC_RMPP_TYPE = 25,
	SPEC_RMPP_RTIME_FLAGS = 26,
	SPEC_RMPP_STATUS = 27,
	SPEC_RMPP_DATA1 = 28,
	SPEC_RMPP_DATA2 = 32,
	SPEC_RMPP_HDR_LEN = 12,
};

static void mad_hdr_layout_matches_spec(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_mad_hdr, base_version), SPEC_BASE_VERSION);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_mad_hdr, mgmt_class), SPEC_MGMT_CLASS);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_mad_hdr, class_version), SPEC_CLASS_VERSION);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_mad_hdr, method), SPEC_METHOD);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_mad_hdr, status), SPEC_STATUS);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_mad_hdr, class_specific), SPEC_CLASS_SPECIFIC);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_mad_hdr, tid), SPEC_TID);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_mad_hdr, attr_id), SPEC_ATTR_ID);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_mad_hdr, attr_mod), SPEC_ATTR_MOD);
	KUNIT_EXPECT_EQ(test, sizeof(struct ib_mad_hdr), SPEC_COMMON_HDR_LEN);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_rmpp_mad, rmpp_hdr.rmpp_version),
			SPEC_RMPP_VERSION);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_rmpp_mad, rmpp_hdr.rmpp_type), SPEC_RMPP_TYPE);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_rmpp_mad, rmpp_hdr.rmpp_rtime_flags),
			SPEC_RMPP_RTIME_FLAGS);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_rmpp_mad, rmpp_hdr.rmpp_status), SPEC_RMPP_STATUS);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_rmpp_mad, rmpp_hdr.seg_num), SPEC_RMPP_DATA1);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_rmpp_mad, rmpp_hdr.paylen_newwin),
			SPEC_RMPP_DATA2);
	KUNIT_EXPECT_EQ(test, sizeof(struct ib_rmpp_hdr), SPEC_RMPP_HDR_LEN);
}

/*
 * Management classes (IBTA vol. 1 table 118 and the annexes that define the
 * device, boot and BIS classes), with what their MAD format puts before the
 * data area. RMPP classes have the 12-byte RMPP header after the 24-byte
 * common header, then a class header:
 *  - Subnet Administration (15.2.1): SM_Key 8, AttributeOffset 2,
 *    Reserved 2, ComponentMask 8 = 20 bytes;
 *  - Device Management (16.3), Device Administration and BIS: 28 bytes;
 *  - vendor range 2 (13.4.5): Reserved 1, OUI 3 = 4 bytes.
 * Every range not listed has no RMPP header and its data at byte 24.
 */
struct class_range {
	u8 first, last;
	bool rmpp;
	int class_hdr;
	const char *name;
};

static const struct class_range class_ranges[] = {
	{ 0x00, 0x02, false, 0, "0x00-0x02 (SubnMgt LID routed at 0x01)" },
	{ 0x03, 0x03, true, 20, "0x03 SubnAdm" },
	{ 0x04, 0x05, false, 0, "0x04 PerfMgt, 0x05 BM" },
	{ 0x06, 0x06, true, 28, "0x06 DevMgt" },
	{ 0x07, 0x0f, false, 0, "0x07 CM, 0x08 SNMP, vendor range 1" },
	{ 0x10, 0x10, true, 28, "0x10 DevAdm" },
	{ 0x11, 0x11, false, 0, "0x11 BootMgt" },
	{ 0x12, 0x12, true, 28, "0x12 BIS" },
	{ 0x13, 0x2f, false, 0, "0x13-0x2f (CongMgt at 0x21)" },
	{ 0x30, 0x4f, true, 4, "0x30-0x4f vendor range 2" },
	{ 0x50, 0x80, false, 0, "0x50-0x80" },
	{ 0x81, 0x81, false, 0, "0x81 SubnMgt directed route" },
	{ 0x82, 0xff, false, 0, "0x82-0xff" },
};

static void class_range_desc(const struct class_range *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(class_range, class_ranges, class_range_desc);

static void class_ranges_cover_all_classes(struct kunit *test)
{
	unsigned int next = 0, i;

	for (i = 0; i < ARRAY_SIZE(class_ranges); i++) {
		KUNIT_ASSERT_EQ(test, class_ranges[i].first, next);
		KUNIT_ASSERT_GE(test, class_ranges[i].last, class_ranges[i].first);
		next = class_ranges[i].last + 1;
	}
	KUNIT_EXPECT_EQ(test, next, 0x100);
}

static void class_rmpp_and_data_offset(struct kunit *test)
{
	const struct class_range *r = test->param_value;
	unsigned int c;

	for (c = r->first; c <= r->last; c++) {
		int want_off = SPEC_COMMON_HDR_LEN;

		if (r->rmpp)
			want_off += SPEC_RMPP_HDR_LEN + r->class_hdr;
		KUNIT_EXPECT_EQ_MSG(test, madcm_is_mad_class_rmpp(c), r->rmpp ? 1 : 0,
				    "class 0x%02x", c);
		KUNIT_EXPECT_EQ_MSG(test, madcm_get_mad_data_offset(c), want_off,
				    "class 0x%02x", c);
	}
}

/* Build a common MAD header byte by byte at the spec's offsets. */
static void spec_mad_hdr(u8 *buf, u8 mgmt_class, u8 method, u32 attr_mod)
{
	memset(buf, 0, SPEC_COMMON_HDR_LEN);
	buf[SPEC_BASE_VERSION] = 1;
	buf[SPEC_MGMT_CLASS] = mgmt_class;
	buf[SPEC_CLASS_VERSION] = 1;
	buf[SPEC_METHOD] = method;
	buf[SPEC_ATTR_MOD + 0] = attr_mod >> 24;
	buf[SPEC_ATTR_MOD + 1] = attr_mod >> 16;
	buf[SPEC_ATTR_MOD + 2] = attr_mod >> 8;
	buf[SPEC_ATTR_MOD + 3] = attr_mod;
}

/*
 * 13.4.5: the high bit of the Method byte is the R (response) bit;
 * TrapRepress (0x07) is the response to Trap (0x05) although its R bit is
 * clear. Baseboard Management (class 0x05) MADs use Send both ways and mark
 * responses with bit 0 of the AttributeModifier.
 */
static bool spec_is_response(u8 mgmt_class, u8 method, u32 attr_mod)
{
	if (method >= 0x80)
		return true;
	if (method == 0x07)
		return true;
	return mgmt_class == 0x05 && (attr_mod & 1);
}

static void response_mad_every_class_and_method(struct kunit *test)
{
	static const u32 attr_mods[] = { 0, 1, 0xfffffffe, 0x80000000, 0xffffffff };
	u8 buf[SPEC_COMMON_HDR_LEN] __aligned(8);
	unsigned int c, m, a, mismatches = 0;

	for (c = 0; c < 256; c++) {
		for (m = 0; m < 256; m++) {
			for (a = 0; a < ARRAY_SIZE(attr_mods); a++) {
				bool want = spec_is_response(c, m, attr_mods[a]);
				int got;

				spec_mad_hdr(buf, c, m, attr_mods[a]);
				got = madcm_response_mad((struct ib_mad_hdr *)buf);
				if (got != (want ? 1 : 0) && mismatches++ < 8)
					KUNIT_FAIL(test,
						   "class 0x%02x method 0x%02x attr_mod 0x%08x: got %d",
						   c, m, attr_mods[a], got);
			}
		}
	}
	KUNIT_EXPECT_EQ(test, mismatches, 0);
}

/* The methods named in IBTA vol. 1 table 119 and in SA (15.4). */
struct named_method {
	u8 method;
	bool response;
	const char *name;
};

static const struct named_method named_methods[] = {
	{ 0x01, false, "Get" },
	{ 0x02, false, "Set" },
	{ 0x03, false, "Send" },
	{ 0x05, false, "Trap" },
	{ 0x06, false, "Report" },
	{ 0x07, true, "TrapRepress" },
	{ 0x12, false, "GetTable" },
	{ 0x13, false, "GetTraceTable" },
	{ 0x14, false, "GetMulti" },
	{ 0x15, false, "Delete" },
	{ 0x81, true, "GetResp" },
	{ 0x86, true, "ReportResp" },
	{ 0x92, true, "GetTableResp" },
	{ 0x94, true, "GetMultiResp" },
	{ 0x95, true, "DeleteResp" },
};

static void named_method_desc(const struct named_method *m, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s (0x%02x)", m->name, m->method);
}

KUNIT_ARRAY_PARAM(named_method, named_methods, named_method_desc);

static void response_mad_named_method(struct kunit *test)
{
	const struct named_method *m = test->param_value;
	u8 buf[SPEC_COMMON_HDR_LEN] __aligned(8);

	/* SubnAdm: a class with no special response rule. */
	spec_mad_hdr(buf, 0x03, m->method, 0);
	KUNIT_EXPECT_EQ(test, madcm_response_mad((struct ib_mad_hdr *)buf),
			m->response ? 1 : 0);
}

/*
 * ClassPortInfo (13.4.8.1): BaseVersion 0, ClassVersion 1, CapabilityMask
 * 2-3, then one 32-bit word at byte 4 holding CapabilityMask2 in its upper
 * 27 bits and RespTimeValue in its lower 5 bits, big-endian on the wire.
 */
static void spec_cpi_word(const void *cpi, u32 *capmask2, u8 *resp_time)
{
	const u8 *b = cpi;
	u32 word = (u32)b[4] << 24 | (u32)b[5] << 16 | (u32)b[6] << 8 | b[7];

	*capmask2 = word / 32;
	*resp_time = word % 32;
}

static void cpi_resp_time_and_capmask2_bits(struct kunit *test)
{
	struct ib_class_port_info cpi;
	struct rnd_state rnd;
	u32 capmask2, cm;
	u8 rt, r;
	int i;

	KUNIT_EXPECT_EQ(test, offsetof(struct ib_class_port_info, cap_mask2_resp_time), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct opa_class_port_info, cap_mask2_resp_time), 4);

	prandom_seed_state(&rnd, 0x6d6164636d);
	for (i = 0; i < 2000; i++) {
		u8 before[sizeof(cpi)];

		prandom_bytes_state(&rnd, &cpi, sizeof(cpi));
		capmask2 = prandom_u32_state(&rnd) & (BIT(27) - 1);
		rt = prandom_u32_state(&rnd) & 31;

		ib_set_cpi_resp_time(&cpi, rt);
		spec_cpi_word(&cpi, &cm, &r);
		KUNIT_EXPECT_EQ(test, r, rt);
		KUNIT_EXPECT_EQ(test, ib_get_cpi_resp_time(&cpi), rt);

		memcpy(before, &cpi, sizeof(cpi));
		ib_set_cpi_capmask2(&cpi, capmask2);
		spec_cpi_word(&cpi, &cm, &r);
		KUNIT_EXPECT_EQ(test, cm, capmask2);
		/* Setting CapabilityMask2 leaves RespTimeValue alone. */
		KUNIT_EXPECT_EQ(test, r, rt);
		KUNIT_EXPECT_EQ(test, ib_get_cpi_capmask2(&cpi), capmask2);
		KUNIT_EXPECT_EQ(test, opa_get_cpi_capmask2((struct opa_class_port_info *)&cpi),
				capmask2);
		/* No other byte of ClassPortInfo moves. */
		KUNIT_EXPECT_EQ(test, memcmp(&cpi, before, 4), 0);
		KUNIT_EXPECT_EQ(test, memcmp((u8 *)&cpi + 8, before + 8, sizeof(cpi) - 8), 0);

		/* And the other way round: RespTimeValue keeps CapabilityMask2. */
		ib_set_cpi_resp_time(&cpi, 31 - rt);
		spec_cpi_word(&cpi, &cm, &r);
		KUNIT_EXPECT_EQ(test, cm, capmask2);
		KUNIT_EXPECT_EQ(test, r, 31 - rt);
	}
}

/*
 * RMPP header byte 26 (13.6.2.1): RRespTime in bits 7-3, RMPPFlags in
 * bits 2-0 with Active = bit 0, First = bit 1, Last = bit 2.
 */
static void rmpp_flags_and_resptime_bits(struct kunit *test)
{
	struct ib_rmpp_mad mad;
	u8 *raw = (u8 *)&mad;
	unsigned int rt, fl;

	KUNIT_EXPECT_EQ(test, IB_MGMT_RMPP_FLAG_ACTIVE, 1 << 0);
	KUNIT_EXPECT_EQ(test, IB_MGMT_RMPP_FLAG_FIRST, 1 << 1);
	KUNIT_EXPECT_EQ(test, IB_MGMT_RMPP_FLAG_LAST, 1 << 2);
	KUNIT_EXPECT_EQ(test, IB_MGMT_RMPP_NO_RESPTIME, 31);

	for (rt = 0; rt < 32; rt++) {
		for (fl = 0; fl < 8; fl++) {
			memset(&mad, 0xa5, sizeof(mad));
			ib_set_rmpp_flags(&mad.rmpp_hdr, fl);
			ib_set_rmpp_resptime(&mad.rmpp_hdr, rt);
			KUNIT_EXPECT_EQ(test, raw[SPEC_RMPP_RTIME_FLAGS], rt * 8 + fl);
			KUNIT_EXPECT_EQ(test, ib_get_rmpp_flags(&mad.rmpp_hdr), fl);
			KUNIT_EXPECT_EQ(test, ib_get_rmpp_resptime(&mad.rmpp_hdr), rt);
			/* The neighbouring header bytes are untouched. */
			KUNIT_EXPECT_EQ(test, raw[SPEC_RMPP_TYPE], 0xa5);
			KUNIT_EXPECT_EQ(test, raw[SPEC_RMPP_STATUS], 0xa5);

			/* Flags set last keep the response time. */
			memset(&mad, 0, sizeof(mad));
			ib_set_rmpp_resptime(&mad.rmpp_hdr, rt);
			ib_set_rmpp_flags(&mad.rmpp_hdr, fl);
			KUNIT_EXPECT_EQ(test, raw[SPEC_RMPP_RTIME_FLAGS], rt * 8 + fl);
		}
	}
	/* Only three flag bits exist: higher bits of @flags are dropped. */
	memset(&mad, 0, sizeof(mad));
	ib_set_rmpp_resptime(&mad.rmpp_hdr, 0x15);
	ib_set_rmpp_flags(&mad.rmpp_hdr, 0xff);
	KUNIT_EXPECT_EQ(test, raw[SPEC_RMPP_RTIME_FLAGS], 0x15 * 8 + 7);
}

static struct kunit_case mad_helpers_cases[] = {
	KUNIT_CASE(mad_hdr_layout_matches_spec),
	KUNIT_CASE(class_ranges_cover_all_classes),
	KUNIT_CASE_PARAM(class_rmpp_and_data_offset, class_range_gen_params),
	KUNIT_CASE(response_mad_every_class_and_method),
	KUNIT_CASE_PARAM(response_mad_named_method, named_method_gen_params),
	KUNIT_CASE(cpi_resp_time_and_capmask2_bits),
	KUNIT_CASE(rmpp_flags_and_resptime_bits),
	{}
};

static struct kunit_suite mad_helpers_suite = {
	.name = "madcm_mad_helpers",
	.test_cases = mad_helpers_cases,
};

kunit_test_suite(mad_helpers_suite);
