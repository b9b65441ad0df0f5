#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fill the kernel cache: Debian's linux-source-6.1 and the newest stock
# linux-image-6.1.0-N-amd64 with its headers, unpacked (never installed).
# Idempotent; each piece is unpacked into a temporary directory and renamed
# into place, so an interrupted run leaves nothing half-made behind.
# Writes $MADCM_CACHE/kernel.env, which the other scripts source.
set -euo pipefail
. "$(dirname "$0")/common.sh"

mkdir -p "$MADCM_CACHE/debs"
cd "$MADCM_CACHE/debs"

newest_abi() {
	apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64(-unsigned)?$' 2>/dev/null |
		sed -n 's/^linux-image-\(6\.1\.0-[0-9]*\)-amd64.*/\1/p' | sort -V | tail -1
}

if [ -e "$MADCM_CACHE/kernel.env" ] && [ -z "${MADCM_REFRESH:-}" ]; then
	. "$MADCM_CACHE/kernel.env"
	if [ -d "$KSRC" ] && [ -d "$STOCK_ROOT" ]; then
		say "kernel cache: stock $KVER, source $KSRC"
		exit 0
	fi
fi

abi=$(newest_abi)
if [ -z "$abi" ]; then
	apt-get update -q </dev/null >/dev/null
	abi=$(newest_abi)
fi
[ -n "$abi" ] || die "no linux-image-6.1.0-N-amd64 in the package lists"
KVER=$abi-amd64

img=linux-image-$KVER
apt-cache show "$img" >/dev/null 2>&1 && apt-cache show "$img" | grep -q '^Filename' || img=$img-unsigned
pkgs=("$img" "linux-headers-$KVER" "linux-headers-$abi-common" linux-kbuild-6.1 linux-source-6.1)

fetch() {
	local p=$1 ver
	ver=$(apt-cache policy "$p" | sed -n 's/^  Candidate: //p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "package $p not available"
	if ! ls "${p}_${ver//:/%3a}"_*.deb >/dev/null 2>&1; then
		say "downloading $p $ver"
		apt-get download -q -o APT::Sandbox::User=root "$p=$ver" </dev/null >/dev/null
	fi
	ls "$MADCM_CACHE/debs/${p}_${ver//:/%3a}"_*.deb
}

declare -A DEB
for p in "${pkgs[@]}"; do
	DEB[$p]=$(fetch "$p")
done

# The stock kernel, its modules and headers, unpacked into one root.
STOCK_ROOT=$MADCM_CACHE/stock/$KVER
if [ ! -d "$STOCK_ROOT" ]; then
	say "unpacking stock kernel $KVER"
	tmp=$STOCK_ROOT.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	for p in "$img" "linux-headers-$KVER" "linux-headers-$abi-common" linux-kbuild-6.1; do
		dpkg-deb -x "${DEB[$p]}" "$tmp"
	done
	# The headers' Makefile includes the common tree by absolute path.
	sed -i "s|^include /usr/src/|include $STOCK_ROOT/usr/src/|" \
		"$tmp/usr/src/linux-headers-$KVER/Makefile"
	depmod -b "$tmp" "$KVER"
	mv "$tmp" "$STOCK_ROOT"
fi

# The full source tree, for kunit.py and the custom test kernels.
KSRC=$MADCM_CACHE/src/linux-source-6.1
srcver=$(basename "${DEB[linux-source-6.1]}" | cut -d_ -f2)
if [ ! -d "$KSRC" ] || [ "$(cat "$KSRC/.madcm-version" 2>/dev/null)" != "$srcver" ]; then
	say "unpacking linux-source-6.1 $srcver (takes a minute)"
	tmp=$MADCM_CACHE/src/tmp
	rm -rf "$tmp" "$KSRC"
	mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "${DEB[linux-source-6.1]}" |
		tar -xO ./usr/src/linux-source-6.1.tar.xz | tar -xJ -C "$tmp"
	echo "$srcver" >"$tmp/linux-source-6.1/.madcm-version"
	mv "$tmp/linux-source-6.1" "$KSRC"
	rmdir "$tmp"
fi

cat >"$MADCM_CACHE/kernel.env.tmp" <<EOT
KVER=$KVER
STOCK_ROOT=$STOCK_ROOT
STOCK_KDIR=$STOCK_ROOT/usr/src/linux-headers-$KVER
STOCK_VMLINUZ=$STOCK_ROOT/boot/vmlinuz-$KVER
STOCK_MODDIR=$STOCK_ROOT/lib/modules/$KVER
KSRC=$KSRC
KSRC_VERSION=$srcver
EOT
mv "$MADCM_CACHE/kernel.env.tmp" "$MADCM_CACHE/kernel.env"
say "kernel cache: stock $KVER, source $KSRC ($srcver)"
