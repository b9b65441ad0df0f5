#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fill the kernel cache for one Debian 12 kernel line: the newest stock
# image of the line with its headers and modules, unpacked (never
# installed), and the line's linux-source tree where a layer needs it.
#
#   scripts/fetch-kernel.sh            the line $MADCM_KERNEL (default 6.1)
#   MADCM_KERNEL=6.12 scripts/fetch-kernel.sh
#
# Lines: 6.1 (linux-image-6.1.0-N-amd64, source always: KUnit and the siw
# kernel are built from it) and 6.12 (linux-image-6.12.N+deb12-amd64;
# source only with MADCM_KERNEL_SOURCE=1). Idempotent; each piece is
# unpacked into a temporary directory and renamed into place, so an
# interrupted run leaves nothing half-made behind. Writes the line's env
# file (kernel_env_file in common.sh), which the other scripts source.
set -euo pipefail
. "$(dirname "$0")/common.sh"

line=$(kernel_line)
envf=$(kernel_env_file "$line")
want_src=${MADCM_KERNEL_SOURCE:-}
[ "$line" = 6.1 ] && want_src=1

mkdir -p "$MADCM_CACHE/debs"
cd "$MADCM_CACHE/debs"

# The newest ABI of the line in the package lists: "6.1.0-57" or
# "6.12.117+deb12".
newest_abi() {
	case $line in
	6.1)
		apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64(-unsigned)?$' 2>/dev/null |
			sed -n 's/^linux-image-\(6\.1\.0-[0-9]*\)-amd64.*/\1/p' ;;
	6.12)
		apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-amd64(-unsigned)?$' 2>/dev/null |
			sed -n 's/^linux-image-\(6\.12\.[0-9]*+deb12\)-amd64.*/\1/p' ;;
	esac | sort -uV | tail -1
}

if [ -e "$envf" ] && [ -z "${MADCM_REFRESH:-}" ]; then
	. "$envf"
	if [ -d "$STOCK_ROOT" ] && { [ -z "$want_src" ] || [ -d "${KSRC:-/nonexistent}" ]; }; then
		say "kernel cache ($line): stock $KVER${KSRC:+, source $KSRC}"
		exit 0
	fi
fi

abi=$(newest_abi)
if [ -z "$abi" ]; then
	apt-get update -q </dev/null >/dev/null
	abi=$(newest_abi)
fi
[ -n "$abi" ] || die "no stock kernel of line $line in the package lists"
KVER=$abi-amd64

case $line in
6.1)	kbuild=linux-kbuild-6.1 srcpkg=linux-source-6.1 ;;
6.12)	kbuild=linux-kbuild-$abi srcpkg=linux-source-6.12 ;;
esac

img=linux-image-$KVER
apt-cache show "$img" >/dev/null 2>&1 && apt-cache show "$img" | grep -q '^Filename' || img=$img-unsigned
pkgs=("$img" "linux-headers-$KVER" "linux-headers-$abi-common" "$kbuild")
[ -n "$want_src" ] && pkgs+=("$srcpkg")

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
	for p in "$img" "linux-headers-$KVER" "linux-headers-$abi-common" "$kbuild"; do
		dpkg-deb -x "${DEB[$p]}" "$tmp"
	done
	# The headers' Makefile includes the common tree by absolute path.
	sed -i "s|^include /usr/src/|include $STOCK_ROOT/usr/src/|" \
		"$tmp/usr/src/linux-headers-$KVER/Makefile"
	depmod -b "$tmp" "$KVER"
	mv "$tmp" "$STOCK_ROOT"
fi

# The full source tree, for kunit.py and the custom test kernels.
KSRC=
srcver=
if [ -n "$want_src" ]; then
	KSRC=$MADCM_CACHE/src/$srcpkg
	srcver=$(basename "${DEB[$srcpkg]}" | cut -d_ -f2)
	if [ ! -d "$KSRC" ] || [ "$(cat "$KSRC/.madcm-version" 2>/dev/null)" != "$srcver" ]; then
		say "unpacking $srcpkg $srcver (takes a minute)"
		tmp=$MADCM_CACHE/src/tmp-$line
		rm -rf "$tmp" "$KSRC"
		mkdir -p "$tmp"
		dpkg-deb --fsys-tarfile "${DEB[$srcpkg]}" |
			tar -xO "./usr/src/$srcpkg.tar.xz" | tar -xJ -C "$tmp"
		echo "$srcver" >"$tmp/$srcpkg/.madcm-version"
		mv "$tmp/$srcpkg" "$KSRC"
		rmdir "$tmp"
	fi
fi

cat >"$envf.tmp" <<EOT
KERNEL_LINE=$line
KVER=$KVER
STOCK_ROOT=$STOCK_ROOT
STOCK_KDIR=$STOCK_ROOT/usr/src/linux-headers-$KVER
STOCK_VMLINUZ=$STOCK_ROOT/boot/vmlinuz-$KVER
STOCK_MODDIR=$STOCK_ROOT/lib/modules/$KVER
KSRC=$KSRC
KSRC_VERSION=$srcver
EOT
mv "$envf.tmp" "$envf"
say "kernel cache ($line): stock $KVER${KSRC:+, source $KSRC ($srcver)}"
