#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the default KDIR: the running kernel's build tree when it exists,
# otherwise the cached headers of the Debian 12 stock kernel (fetched on
# first use).
set -euo pipefail
. "$(dirname "$0")/common.sh"

build=/lib/modules/$(uname -r)/build
if [ -e "$build/Makefile" ]; then
	echo "$build"
	exit 0
fi
"$MADCM_ROOT/scripts/deps.sh" build >&2
"$MADCM_ROOT/scripts/fetch-kernel.sh" >&2
. "$MADCM_CACHE/kernel.env"
echo "$STOCK_KDIR"
