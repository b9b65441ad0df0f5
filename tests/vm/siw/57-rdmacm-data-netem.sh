# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1200
# Issue 18, 5: 55-rdmacm-data.sh and 56-rdmacm-rping.sh under netem on
# both ends of the veth pair (2 ms delay, 1% loss, 1% duplication, 25%
# reordering): Send, Write and Read both ways from 1 B to 1 MiB, byte for
# byte, and rping -V in both roles, between the ULP on $DEV (m0, madcm, or
# siwa with RDMACM_DEV=siw) and siw0. The data path's TCP must recover:
# retransmission, the duplicates dropped, the reordered segments put back.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

rdmacm_siw_setup
netem_on
data_pair LN 7501 n1 data=1048576
check "n1: Send, Write, Read both ways under netem" \
	xfer_both n1.0 LN.0 1 3 64 1448 1449 4096 65537 262144 1048576
check "n1.0: no data error" rt_data_clean n1.0
check "LN.0: no data error" rt_data_clean LN.0
data_close n1 LN
kernel_rping_client nc1 7502 4096 5
kernel_rping_server ns1 7503 65535 3
netem_off
rdmacm_siw_finish
