# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1100
# vm-progs: nvme fio
# NVMe over Fabrics on madcm: Debian's nvmet-rdma target on guest a,
# nvme-rdma host on guest b, fio writes and verifies the namespace over
# the fabric (tests/vm/lib/nvmeof.sh). Skips while "rdma link add ... type
# madcm" is not there.
. /tests/nvmeof.sh
