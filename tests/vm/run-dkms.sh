#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The DKMS VM layer (make vmtest-dkms): Debian's dkms builds and installs
# madcm inside a guest of the stock kernel, against that kernel's stock
# linux-headers package, and the guest loads what dkms installed.
#
# The guest's root for dkms is an ext4 image on a virtio-blk disk
# (tests/vm/mkdkmsimage.sh: dkms, gcc, make and their dependencies from
# the host's packages, Debian's linux-headers-KVER; cached by its inputs
# in $MADCM_CACHE/dkms-vm), opened with snapshot=on so the guest's writes
# never reach the cached image. madcm's sources, as scripts/dkms.sh
# copies them for /usr/src/madcm-VERSION, are a second small disk made
# for each run. The guest has two vCPUs on QEMU's multi-threaded TCG;
# dkms runs make with -j2. tests/vm/dkms/*.sh run in it.
#
# Usage: tests/vm/run-dkms.sh [SCRIPT...]
# Environment: as tests/vm/run.sh (MADCM_VM_DIR, VM_TIMEOUT, MADCM_KERNEL).
# Ends with "vmtest-dkms: N passed, M failed".
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

"$MADCM_ROOT/scripts/deps.sh" build vm dkms
load_kernel_env
scripts=("$@")
[ ${#scripts[@]} -gt 0 ] || scripts=("$MADCM_ROOT"/tests/vm/dkms/[0-9]*.sh)
if [ -z "${MADCM_VM_DIR:-}" ]; then
	MADCM_VM_DIR=$(vm_dir_default)-dkms
	export MADCM_VM_DIR
fi
mkdir -p "$MADCM_VM_DIR"

rootimg=$("$MADCM_ROOT/tests/vm/mkdkmsimage.sh")
# madcm's DKMS source tree on a disk of its own (a few MB, made each run).
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$MADCM_ROOT/dkms.conf")
srcimg=$MADCM_VM_DIR/madcm-src.img
srcdir=$(mktemp -d "$MADCM_VM_DIR/src.XXXXXX")
trap 'rm -rf "$srcdir"' EXIT
"$MADCM_ROOT/scripts/dkms.sh" source "$srcdir/madcm-$version"
rm -f "$srcimg"
mke2fs -q -t ext4 -O ^has_journal -L madcm-src -d "$srcdir" "$srcimg" 64M >/dev/null

export MADCM_VM_MODS="virtio_blk ext4"
# Split on blanks by run.sh: vda the root, vdb the sources.
qemu="-accel tcg,thread=multi"
qemu+=" -drive file=$rootimg,format=raw,if=virtio,snapshot=on"
qemu+=" -drive file=$srcimg,format=raw,if=virtio,readonly=on"
export MADCM_VM_QEMU_ARGS=$qemu
export MADCM_VM_APPEND="MADCM_DKMS_VERSION=$version${MADCM_VM_APPEND:+ $MADCM_VM_APPEND}"
export MADCM_VM_LAYER=vmtest-dkms
export VM_TIMEOUT=${VM_TIMEOUT:-3000}
start=$(date +%s)
rc=0
"$MADCM_ROOT/tests/vm/run.sh" "${scripts[@]}" || rc=$?
say "vmtest-dkms: the VM part took $(($(date +%s) - start)) s"
exit $rc
