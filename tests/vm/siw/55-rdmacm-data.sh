# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 900
# Issue 18, 5: Send, RDMA Write and RDMA Read in both directions, 1 B to
# 1 MiB, byte for byte, between the in-kernel ULP on $DEV (veth0,
# init_net: m0, a madcm RNIC, or siwa with RDMACM_DEV=siw) and the
# in-kernel ULP on soft-iWARP (siw0, veth1, namespace b). The ULP on $DEV
# connects; each side's data is checked where it lands: a receive against
# what was expected, a Write's target after the Send that follows it, a
# Read's sink on completion. Remote access through FRMRs (REG_MR), then
# through the PD's global rkey. rping: 56-rdmacm-rping.sh; the same under
# netem: 57-rdmacm-data-netem.sh.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

rdmacm_siw_setup

# 1. FRMRs, every size, both ways.
data_pair LD 7301 d1 data=1048576 mr=frmr
check "d1: Send, Write, Read both ways, 1 B to 1 MiB" xfer_both d1.0 LD.0 $DATA_SIZES
rt_data_line d1.0
rt_data_line LD.0
check "d1.0: no data error" rt_data_clean d1.0
check "LD.0: no data error" rt_data_clean LD.0
n=$(echo $DATA_SIZES | wc -w)
check "d1.0: $n Sends, Writes and Reads, $((2 * n)) receives" \
	[ "$(rt_data_field d1.0 sends)/$(rt_data_field d1.0 writes)/$(rt_data_field d1.0 reads)/$(rt_data_field d1.0 recvs)" = "$n/$n/$n/$((2 * n))" ]
check "LD.0: $n Sends, Writes and Reads, $((2 * n)) receives" \
	[ "$(rt_data_field LD.0 sends)/$(rt_data_field LD.0 writes)/$(rt_data_field LD.0 reads)/$(rt_data_field LD.0 recvs)" = "$n/$n/$n/$((2 * n))" ]
# A check that could fail: a Send whose receiver expects other data.
check "a wrong expectation is caught" rt expect LD.0 send 16 999
check "send 16 B with seed 998" rt send d1.0 16 998
check "drain reports the mismatch" sh -c "! echo drain LD.0 > $RT/ctl"
check "LD.0: recv_bad=1" [ "$(rt_data_field LD.0 recv_bad)" = 1 ]
data_close d1 LD

# 2. The PD's global rkey (ib_get_dma_mr style), a few sizes.
data_pair LG 7302 d2 data=1048576 mr=global
check "d2: global rkey, 1 B, 4 KiB, 1 MiB both ways" xfer_both d2.0 LG.0 1 4096 1048576
check "d2.0: no data error" rt_data_clean d2.0
check "LG.0: no data error" rt_data_clean LG.0
data_close d2 LG

rdmacm_siw_finish
