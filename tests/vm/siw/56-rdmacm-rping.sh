# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 900
# Issue 18, 5: rdma-core's rping on soft-iWARP (siw0, veth1, namespace b)
# against the in-kernel ULP's rping protocol on $DEV (veth0, init_net: m0,
# a madcm RNIC, or siwa with RDMACM_DEV=siw), in both roles, with -V:
#   "rping -s -V" serves, the ULP is the client: the server Reads the
#   ULP's ping data, Writes it back; the ULP compares (as rping -c -V);
#   the ULP serves, "rping -c -V" connects: the ULP Reads rping's data,
#   checks it against rping's pattern, Writes it back; rping compares.
# Sizes: rping's smallest (26), 64 (its default), 4 KiB, 65535 (its
# largest).
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

check "rdma-core's rping is there" [ -x /bin/rping ]
rdmacm_siw_setup

kernel_rping_client rc1 7401 64 10
kernel_rping_client rc2 7402 26 3
kernel_rping_client rc3 7403 4096 5
kernel_rping_client rc4 7404 65535 3
kernel_rping_server rs1 7411 64 10
kernel_rping_server rs2 7412 26 3
kernel_rping_server rs3 7413 4096 5
kernel_rping_server rs4 7414 65535 3

rdmacm_siw_finish
