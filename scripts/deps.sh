#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages madcm's make targets need, only the missing ones.
# Usage: scripts/deps.sh [group...]   groups: build kunit vm check dkms fuzz
# (default: all)
set -euo pipefail
. "$(dirname "$0")/common.sh"

declare -A GROUP=(
	[build]="make gcc gcc-12 libelf-dev libssl-dev bc flex bison kmod xz-utils dwarves"
	[kunit]="python3 qemu-system-x86 flex bison bc libelf-dev libssl-dev rsync patch"
	[vm]="qemu-system-x86 python3 busybox-static cpio iproute2 rdma-core ibverbs-utils kmod tshark xxd gcc libc6-dev rsync libibverbs1 librdmacm1 ibverbs-providers libibverbs-dev librdmacm-dev rdmacm-utils perftest nftables nvme-cli fio iperf3"
	[check]="sparse perl python3 man-db rsync"
	[dkms]="dkms kmod openssl"
	[fuzz]="clang libclang-rt-14-dev make"
)

groups=${*:-build kunit vm check dkms fuzz}
want=()
for g in $groups; do
	[ -n "${GROUP[$g]+x}" ] || die "unknown package group '$g'"
	want+=(${GROUP[$g]})
done

missing=()
for p in $(printf '%s\n' "${want[@]}" | sort -u); do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

mkdir -p "$MADCM_CACHE"
[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}); run as root or install them"
say "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer for it.
echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null >"$MADCM_CACHE/apt.log" 2>&1; then
	apt-get update -q </dev/null >>"$MADCM_CACHE/apt.log" 2>&1
	apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null >>"$MADCM_CACHE/apt.log" 2>&1 ||
		{ tail -20 "$MADCM_CACHE/apt.log" >&2; die "apt-get install failed"; }
fi
