#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (or reuse) a custom test kernel from the cached linux-source-6.1:
# x86_64_defconfig + kvm_guest.config + a fragment kept in tests/vm.
# Cached in $MADCM_CACHE/kernels/NAME, keyed by the fragment's hash, so a
# rebuild happens only when the fragment or the source changes. The
# fragment's modules are installed under BUILD_DIR/modroot, where
# tests/vm/mkinitramfs.sh resolves them as it does the stock kernel's.
# Usage: build-test-kernel.sh NAME FRAGMENT   (prints the build dir)
set -euo pipefail
. "$(dirname "$0")/common.sh"

name=$1
frag=$(realpath "$2")
"$MADCM_ROOT/scripts/deps.sh" build kunit >&2
MADCM_KERNEL=6.1 "$MADCM_ROOT/scripts/fetch-kernel.sh" >&2
. "$MADCM_CACHE/kernel.env"

out=$MADCM_CACHE/kernels/$name
# The fixes our 6.1 test kernels carry (tests/vm/kernel-patches/6.1-*,
# each one's header says why): in the key, and applied to the source
# below, once (the source is shared: KUnit's 6.1 kernels carry them too).
patches=("$MADCM_ROOT"/tests/vm/kernel-patches/6.1-*.patch)
key=$( (cat "$frag" "${patches[@]}"; echo "$KSRC_VERSION") | sha256sum | cut -c1-16)
# cached: the build of this key is complete.
cached() {
	[ -f "$out/.madcm-key" ] && [ "$(cat "$out/.madcm-key")" = "$key" ] &&
		[ -f "$out/arch/x86/boot/bzImage" ] && [ -d "$out/modroot/lib/modules" ]
}
if cached; then
	say "test kernel $name: cached ($out)"
	echo "$out"
	exit 0
fi

mkdir -p "$out"
# One build at a time per kernel: the directory is shared.
exec 8>"$out.lock"
flock 8
# Another run may have built it while this one waited (make test builds
# it in the background while other layers run).
if cached; then
	say "test kernel $name: built meanwhile ($out)"
	echo "$out"
	exit 0
fi
say "building test kernel $name in $out (a first build takes a while)"
start=$(date +%s)
for p in "${patches[@]}"; do
	if patch -d "$KSRC" -p1 -R --dry-run -s -f <"$p" >/dev/null 2>&1; then
		say "source already carries ${p##*/}"
	else
		patch -d "$KSRC" -p1 -s -f --no-backup-if-mismatch <"$p" >&2 ||
			die "${p##*/} does not apply to $KSRC"
		say "applied ${p##*/} to $KSRC"
	fi
done
rm -f "$out/.madcm-key"
make -s -C "$KSRC" O="$out" ARCH=x86_64 x86_64_defconfig >&2
cd "$out"
"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$out" .config \
	"$KSRC/kernel/configs/kvm_guest.config" "$frag" >/dev/null
make -s -C "$KSRC" O="$out" ARCH=x86_64 olddefconfig >&2
# Every option of the fragment must have survived olddefconfig.
missing=0
while read -r line; do
	case "$line" in
	CONFIG_*=n) opt=${line%%=*}
		grep -q "^$opt=" .config && { say "$opt is still set"; missing=1; } ;;
	CONFIG_*) grep -qx "$line" .config || { say "not set: $line"; missing=1; } ;;
	esac
done < <(grep '^CONFIG_' "$frag")
[ $missing -eq 0 ] || die "the fragment did not apply"
make -s -C "$KSRC" O="$out" ARCH=x86_64 -j"$(nproc)" bzImage modules >&2
rm -rf "$out/modroot"
make -s -C "$KSRC" O="$out" ARCH=x86_64 INSTALL_MOD_PATH="$out/modroot" \
	INSTALL_MOD_STRIP=1 modules_install >&2
echo "$key" >"$out/.madcm-key"
say "test kernel $name built in $(($(date +%s) - start)) s"
echo "$out"
