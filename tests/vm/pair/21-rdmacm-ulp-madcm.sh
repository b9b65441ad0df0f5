# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 600
# 20-rdmacm-ulp.sh on two madcm RNICs (iWARP), m0 on each guest's eth0:
# the ULP's connections run through iw_cm and madcm's CM. Skips while
# "rdma link add ... type madcm" is not there.
RDMACM_DEV=madcm
. /tests/rdmacm-ulp-pair.sh
