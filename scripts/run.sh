#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run: build madcm.ko, boot Debian's stock kernel in QEMU, load the
# module next to the RDMA stack and show what it does (tests/vm/demo/*.sh).
set -euo pipefail
exec "$(dirname "$0")/../tests/vm/run.sh" --run "$@"
