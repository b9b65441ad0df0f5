#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vmtest-siw: madcm against soft-iWARP (siw), which Debian's kernel
# lacks. Two kernels can carry siw (MADCM_SIW_KERNEL):
#
#   stock  (the default, make test's layer) Debian's stock 6.1 kernel with
#          siw.ko built out of tree from the same version's linux-source
#          (scripts/build-siw-ko.sh, about 30 s): the siw Debian would
#          have shipped, next to madcm.ko on the kernel users run;
#   kasan  (make vmtest-siw-kasan) the custom test kernel of
#          tests/vm/siw.config (scripts/build-test-kernel.sh, KASAN, KFENCE
#          and lockdep, siw.ko among its modules; 13 to 15 minutes to build
#          the first time).
#
# madcm.ko is built against the chosen kernel; the rdma_cm user space is in
# the initramfs. Three boots: scripts 0x-2x, where siw is an rdma_cm
# client; 3x-4x, where siw is a server taking RTR messages; 5x-9x, the
# in-kernel rdma_cm ULP on a madcm device against siw's rdma_cm. In one
# boot, siw's roles give lockdep a report about siw's own
# sk_callback_lock (taken for reading with softirqs on in its client's
# connect and in the state change of a server that rejects, for writing
# from softirq when its server takes the RTR), which would fail the script
# that happens to come second on the kasan kernel.
#
# Usage: tests/vm/run-siw.sh [SCRIPT...]
# Environment: MADCM_SIW_KERNEL (stock or kasan), VMTEST (script names in
# tests/vm/siw), MADCM_VM_DIR (default $MADCM_CACHE/vm-siw, vm-siw-kasan
# for kasan; each boot uses a directory below it), and those of run.sh.
# Ends with "vmtest-siw: N passed, M failed" (vmtest-siw-kasan: for kasan).
set -uo pipefail
. "$(dirname "$0")/../../scripts/common.sh"
# siw.ko and the siw test kernel are built from the 6.1 line's source (see
# Documentation/testing.rst, "Kernel lines").
export MADCM_KERNEL=6.1

siw_kernel=${MADCM_SIW_KERNEL:-stock}
case $siw_kernel in
stock)
	layer=vmtest-siw
	siw_ko=$("$MADCM_ROOT/scripts/build-siw-ko.sh") ||
		{ echo "$layer: 0 passed, 1 failed"; exit 1; }
	# siw.ko rides in the initramfs next to madcm.ko; vm_autoload=1 lets
	# the kernel's request_module reach modprobe (netem, nf_tables,
	# packet sockets, siw's own rdma-link alias), as on an installed host.
	export MADCM_VM_EXTRA_KOS=$siw_ko
	MADCM_VM_APPEND="vm_autoload=1${MADCM_VM_APPEND:+ $MADCM_VM_APPEND}"
	;;
kasan)
	layer=vmtest-siw-kasan
	kdir=$("$MADCM_ROOT/scripts/build-test-kernel.sh" siw "$MADCM_ROOT/tests/vm/siw.config") ||
		{ echo "$layer: 0 passed, 1 failed"; exit 1; }
	export MADCM_VM_KERNEL_DIR=$kdir
	MADCM_VM_APPEND="vm_autoload=1${MADCM_VM_APPEND:+ $MADCM_VM_APPEND}"
	;;
*)
	die "MADCM_SIW_KERNEL=$siw_kernel: stock or kasan"
	;;
esac
export MADCM_VM_LAYER=$layer
# madcm must not speak siw's user ABI next to siw (Documentation/
# rnic_uverbs.rst), so every modprobe of madcm in these boots takes
# rnic_uverbs=0 from the kernel command line (kmod reads module options
# there); setup_siw checks it.
export MADCM_VM_APPEND="madcm.rnic_uverbs=0${MADCM_VM_APPEND:+ $MADCM_VM_APPEND}"
base=${MADCM_VM_DIR:-$MADCM_CACHE/vm-${layer#vmtest-}}

scripts=("$@")
if [ ${#scripts[@]} -eq 0 ]; then
	if [ -n "${VMTEST:-}" ]; then
		for s in $VMTEST; do scripts+=("$MADCM_ROOT/tests/vm/siw/${s##*/}"); done
	else
		scripts=("$MADCM_ROOT"/tests/vm/siw/[0-9]*.sh)
	fi
fi
clients=() servers=() ulps=()
for s in "${scripts[@]}"; do
	case "${s##*/}" in
	[0-2]*) clients+=("$s") ;;
	[5-9]*) ulps+=("$s") ;;
	*) servers+=("$s") ;;
	esac
done

passed=0 failed=0 skipped=0
# boot NAME SCRIPT...: one boot; its closing line is added up.
boot() {
	local name=$1 out p f k
	shift
	[ $# -gt 0 ] || return 0
	out=$base/$name.out
	mkdir -p "$base"
	MADCM_VM_DIR=$base/$name "$MADCM_ROOT/tests/vm/run.sh" "$@" 2>&1 | tee "$out"
	read -r p f k < <(grep -aE "^$layer: [0-9]+ passed, [0-9]+ failed" "$out" |
		tail -1 | sed -E 's/^[a-z0-9-]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-1}))
	skipped=$((skipped + ${k:-0}))
}
boot clients "${clients[@]}"
boot servers "${servers[@]}"
boot ulps "${ulps[@]}"
if [ "$skipped" -gt 0 ]; then
	echo "$layer: $passed passed, $failed failed, $skipped skipped"
else
	echo "$layer: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
