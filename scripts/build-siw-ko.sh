#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (or reuse) soft-iWARP as a module for Debian's stock 6.1 kernel:
# drivers/infiniband/sw/siw of the cached linux-source-6.1, built out of
# tree against the stock headers (Debian's config lacks CONFIG_RDMA_SIW).
# The source package must be the stock kernel's own version, so the
# module is the siw Debian would have built; anything else is refused.
# Cached in $MADCM_CACHE/siw-ko/KVER, keyed by the source version.
# Usage: build-siw-ko.sh   (prints the path of siw.ko)
set -euo pipefail
. "$(dirname "$0")/common.sh"

MADCM_KERNEL=6.1 "$MADCM_ROOT/scripts/fetch-kernel.sh" >&2
. "$MADCM_CACHE/kernel.env"

# The stock image's banner names its Debian version.
[ "$(strings "$STOCK_VMLINUZ" | grep -c "Debian $KSRC_VERSION ")" -gt 0 ] ||
	die "linux-source-6.1 $KSRC_VERSION is not the stock kernel's version ($KVER)"
out=$MADCM_CACHE/siw-ko/$KVER
# One build at a time (make test's two lanes may both need it).
mkdir -p "$MADCM_CACHE/siw-ko"
exec 9>"$MADCM_CACHE/siw-ko/.lock"
flock 9
if [ -f "$out/siw.ko" ] && [ "$(cat "$out/.madcm-version" 2>/dev/null)" = "$KSRC_VERSION" ]; then
	echo "$out/siw.ko"
	exit 0
fi
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
cp "$KSRC"/drivers/infiniband/sw/siw/* "$tmp/"
say "building siw.ko ($KSRC_VERSION) against $KVER"
make -s -C "$STOCK_KDIR" M="$tmp" CONFIG_RDMA_SIW=m CONFIG_DEBUG_INFO_BTF_MODULES= modules >"$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log" >&2; die "siw.ko did not build"; }
echo "$KSRC_VERSION" >"$tmp/.madcm-version"
rm -rf "$out"
mv "$tmp" "$out"
echo "$out/siw.ko"
