#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the default KDIR: the running kernel's build tree when it exists,
# otherwise the cached headers of the Debian 12 stock kernel (fetched on
# first use). With MADCM_KERNEL (make KERNEL=6.1|6.12), the cached stock
# headers of that line.
set -euo pipefail
. "$(dirname "$0")/common.sh"

build=/lib/modules/$(uname -r)/build
# An explicit line (make KERNEL=6.12) always means the cached stock kernel.
if [ -z "${MADCM_KERNEL:-}" ] && [ -e "$build/Makefile" ]; then
	echo "$build"
	exit 0
fi
"$MADCM_ROOT/scripts/deps.sh" build >&2
load_kernel_env
echo "$STOCK_KDIR"
