#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# madcm under DKMS. Usage:
#   scripts/dkms.sh source DIR    copy the module's sources into DIR (a DKMS
#                                 source tree: dkms.conf, Kbuild, *.[ch] and
#                                 dkms.conf's POST_BUILD script)
#   scripts/dkms.sh install KVER  as root: register madcm/<version> with
#                                 dkms (sources in /usr/src/madcm-<version>),
#                                 build it and install it for kernel KVER
#   scripts/dkms.sh remove        as root: remove madcm/<version> from dkms
#                                 for every kernel, and its sources
# The version is PACKAGE_VERSION of dkms.conf.
set -euo pipefail
. "$(dirname "$0")/common.sh"

VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$MADCM_ROOT/dkms.conf")
[ -n "$VERSION" ] || die "no PACKAGE_VERSION in dkms.conf"

# What kbuild needs for madcm.ko in any configuration (the KUnit suites
# are compiled into it where the kernel has CONFIG_KUNIT): the kernel
# sources, never the VM tests' userspace programs or the scripts.
copy_source() {
	local dest=$1 f
	mkdir -p "$dest"
	cd "$MADCM_ROOT"
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -co --exclude-standard -- '*.c' '*.h' Kbuild Kconfig dkms.conf
	else
		find . -name '*.[ch]' -o -name Kbuild -o -name Kconfig -o -name dkms.conf |
			sed 's|^\./||'
	fi | grep -v -e '\.mod\.c$' -e '^tests/vm/' -e '^\.ci/' | sort |
	while read -r f; do
		install -D -m 0644 "$f" "$dest/$f"
	done
	install -D -m 0755 scripts/dkms-post-build.sh "$dest/scripts/dkms-post-build.sh"
	[ -f "$dest/dkms.conf" ] || die "dkms.conf not copied to $dest"
}

need_dkms() {
	command -v dkms >/dev/null || die "dkms is not installed (apt-get install dkms)"
	[ "$(id -u)" -eq 0 ] || die "dkms $1 needs root"
}

case "${1:-}" in
source)
	[ $# -eq 2 ] || die "usage: $0 source DIR"
	copy_source "$2"
	;;
install)
	kver=${2:-$(uname -r)}
	need_dkms install
	# A re-run replaces the registered sources with the current ones.
	if dkms status -m madcm -v "$VERSION" | grep -q .; then
		dkms remove -m madcm -v "$VERSION" --all
	fi
	rm -rf "/usr/src/madcm-$VERSION"
	copy_source "/usr/src/madcm-$VERSION"
	dkms add -m madcm -v "$VERSION"
	dkms build -m madcm -v "$VERSION" -k "$kver"
	dkms install -m madcm -v "$VERSION" -k "$kver"
	;;
remove)
	need_dkms remove
	if dkms status -m madcm -v "$VERSION" | grep -q .; then
		dkms remove -m madcm -v "$VERSION" --all
	fi
	rm -rf "/usr/src/madcm-$VERSION"
	;;
*)
	die "usage: $0 source DIR | install [KVER] | remove"
	;;
esac
