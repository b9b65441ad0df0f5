# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1100
# vm-progs: nvme fio
# 40-nvmeof.sh with the I/O on a lossy wire: netem drops 2% of the frames
# both ways, and duplicates and reorders some; TCP under the MPA stream
# recovers, fio's verify says nothing was lost or corrupted.
NVMEOF_NETEM="loss 2% duplicate 1% delay 1ms reorder 10% 50%"
. /tests/nvmeof.sh
