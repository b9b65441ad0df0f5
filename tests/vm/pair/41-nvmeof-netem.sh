# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1500
# vm-progs: nvme fio
# 40-nvmeof.sh with the I/O on a lossy wire: netem drops 2% of the frames
# both ways, and duplicates and reorders some; TCP under the MPA stream
# recovers, fio's verify says nothing was lost or corrupted. A quarter of
# 40's I/O (15 MiB): each loss stalls the stream until it is resent. On
# the KASAN test kernel (vmpair-kasan, slow_factor) half that: 725 s of
# its lane in the CI of 2026-12-06, the longest script of make test.
NVMEOF_NETEM="loss 2% duplicate 1% delay 1ms reorder 10% 50%"
NVMEOF_UNIT_KB=1024
. /tests/common.sh
[ "$(slow_factor)" -gt 1 ] && NVMEOF_UNIT_KB=512
. /tests/nvmeof.sh
