#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vmpair-mixed: rdma-core's applications (tests/vm/pair/3x-apps-*)
# between a madcm RNIC and soft-iWARP, each on its own kernel: two pairs
# of run2.sh, guest a on Debian's stock kernel (madcm, m0) and guest b on
# the stock kernel with siw.ko built from Debian's source (siw, s0; run2.sh's
# "siwko"), then the other way round. madcm with its user ABI never shares
# a kernel with siw, hence two guests. MADCM_MIXED_SIW=siw takes the siw
# test kernel (KASAN, lockdep) for siw's guest instead.
#
# Usage: tests/vm/run-mixed.sh [SCRIPT...]
# Environment: VMPAIR (script names in tests/vm/pair; default the apps
# scripts), MADCM_VM_DIR and those of run2.sh. Ends with
# "vmpair-mixed: N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

scripts=("$@")
if [ ${#scripts[@]} -eq 0 ]; then
	if [ -n "${VMPAIR:-}" ]; then
		for s in $VMPAIR; do scripts+=("$MADCM_ROOT/tests/vm/pair/${s##*/}"); done
	else
		scripts=("$MADCM_ROOT"/tests/vm/pair/3[0-9]-apps-*.sh)
	fi
fi
base=${MADCM_VM_DIR:-$(vm_dir_default)}
mkdir -p "$base"
passed=0 failed=0 skipped=0
siwk=${MADCM_MIXED_SIW:-siwko}
for kernels in "stock $siwk" "$siwk stock"; do
	set -- $kernels
	out=$base/mixed-$1-$2.out
	MADCM_PAIR_KERNEL_A=$1 MADCM_PAIR_KERNEL_B=$2 \
		"$MADCM_ROOT/tests/vm/run2.sh" "${scripts[@]}" 2>&1 | tee "$out"
	read -r p f k < <(grep -aE '^vmpair[a-z0-9.-]*: [0-9]+ passed, [0-9]+ failed' "$out" |
		tail -1 | sed -E 's/^[a-z0-9.-]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-1}))
	skipped=$((skipped + ${k:-0}))
done
layer=vmpair-mixed
[ "$(kernel_line)" = 6.1 ] || layer=vmpair-mixed-$(kernel_line)
if [ "$skipped" -gt 0 ]; then
	echo "$layer: $passed passed, $failed failed, $skipped skipped"
else
	echo "$layer: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
