# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 600
# Issue 17: the in-kernel rdma_cm ULP between the two guests on rxe0
# (RoCE), or on the device RDMACM_DEV names (rxe or madcm): connect with
# private data both ways, reject with private data, disconnect from
# either side, 20 connections in a row, then all of it again under 5%
# loss. The scenarios: tests/vm/lib/rdmacm-ulp-pair.sh.
RDMACM_DEV=${RDMACM_DEV:-rxe}
. /tests/rdmacm-ulp-pair.sh
