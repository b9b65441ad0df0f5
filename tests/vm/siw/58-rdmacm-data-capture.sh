# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 900
# Issue 18, 5: the data path's FPDUs on the wire, for tshark on the host
# (tests/vm/lib/check-rdmacm-data.sh): Sends, RDMA Writes, RDMA Read
# Requests and Responses both ways between the ULP on $DEV (veth0: m0, a
# madcm RNIC, or siwa with RDMACM_DEV=siw) and the ULP on siw0, then
# rping's protocol both ways; captured on veth1. tshark's iwarp_mpa and
# iwarp_ddp_rdmap dissectors, written elsewhere, judge every FPDU.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

rdmacm_siw_setup
capture_start b veth1 600 /tmp/data.pcap
# A skip (madcm without a data path) must not leave it running.
trap capture_stop EXIT
sleep 2
data_pair LC 7601 c1 data=65536
check "c1: Send, Write, Read both ways" xfer_both c1.0 LC.0 1 4096 9000 65536
check "c1.0: no data error" rt_data_clean c1.0
check "LC.0: no data error" rt_data_clean LC.0
data_close c1 LC
kernel_rping_client cr1 7602 64 3
kernel_rping_server cs1 7603 1000 3
sleep 1
capture_stop
check "capture written" [ -s /tmp/data.pcap ]
echo "=== PCAP rdmacm-data"
od -An -v -tx1 /tmp/data.pcap | tr -d ' \n' | fold -w 1024
echo
echo "=== PCAP END"
rdmacm_siw_finish
