# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1500
# vm-progs: nvme fio
# 40-nvmeof.sh with the I/O on a lossy wire: netem drops 2% of the frames
# both ways, and duplicates and reorders some; TCP under the MPA stream
# recovers, fio's verify says nothing was lost or corrupted. A quarter of
# 40's I/O (15 MiB): each loss stalls the stream until it is resent. On
# the KASAN test kernel (vmpair-kasan, slow_factor) a quarter of that
# (3.75 MiB, every fio job still runs under loss): with half of it, 725
# and 735 s of its lane in the CIs of 2026-12-06 and 2026-12-07, the
# longest script of make test, about 650 s of it fio's.
NVMEOF_NETEM="loss 2% duplicate 1% delay 1ms reorder 10% 50%"
NVMEOF_UNIT_KB=1024
. /tests/common.sh
[ "$(slow_factor)" -gt 1 ] && NVMEOF_UNIT_KB=256
. /tests/nvmeof.sh
