#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run: build madcm.ko, boot Debian's stock kernel in QEMU, load the
# module next to the RDMA stack and show what it does (tests/vm/demo/*.sh);
# then two guests on a virtual wire (tests/vm/demo/pair/*.sh): rdma-core's
# rping between their madcm RNICs, and NVMe over Fabrics through them.
# Scripts given as arguments run alone, on one guest.
set -euo pipefail
"$(dirname "$0")/../tests/vm/run.sh" --run "$@"
[ $# -eq 0 ] || exit 0
exec "$(dirname "$0")/../tests/vm/run2.sh" --run
