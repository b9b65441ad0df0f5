#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: every benchmark in one boot of the stock kernel (QEMU, TCG):
# tests/vm/bench/*.sh (MAD against ib_core's MAD layer on rxe, RMPP, CM),
# then those of tests/vm/bench/siw/*.sh in a boot of the siw test kernel
# (tests/vm/run-siw.sh): the RNIC's data path against siw's
# (MADCM_BENCH_SIW=0 leaves that boot out); then tests/vm/bench/pair/*.sh
# on two guests of the stock kernel (tests/vm/run2.sh): NVMe-oF over
# madcm (MADCM_BENCH_PAIR=0 leaves them out).
# Prints one table and writes it, tab-separated with a header line, to
# $MADCM_CACHE/bench/results.tsv (or $MADCM_BENCH_OUT):
#   name  madcm  reference  ratio  unit
# "reference" is the kernel's own implementation measured in the same run,
# "ratio" madcm/reference; "-" where there is none. Figures, not tests.
set -euo pipefail
. "$(dirname "$0")/common.sh"

cd "$MADCM_ROOT"
vmdir=${MADCM_VM_DIR:-$MADCM_CACHE/vm-bench}
out=${MADCM_BENCH_OUT:-$MADCM_CACHE/bench/results.tsv}
mkdir -p "$(dirname "$out")"
set +e
MADCM_VM_DIR=$vmdir MADCM_VM_LAYER=bench tests/vm/run.sh tests/vm/bench/*.sh
rc=$?
logs=("$vmdir/test.log.txt")
if [ "${MADCM_BENCH_SIW:-1}" != 0 ]; then
	rm -f "$vmdir-siw"/*/test.log.txt
	MADCM_VM_DIR=$vmdir-siw tests/vm/run-siw.sh tests/vm/bench/siw/*.sh || rc=1
	logs+=("$vmdir-siw"/*/test.log.txt)
fi
if [ "${MADCM_BENCH_PAIR:-1}" != 0 ]; then
	rm -f "$vmdir-pair"/pair/*.log.txt
	MADCM_VM_DIR=$vmdir-pair tests/vm/run2.sh tests/vm/bench/pair/*.sh || rc=1
	logs+=("$vmdir-pair/pair/b.log.txt")
fi
set -e
{
	printf 'name\tmadcm\treference\tratio\tunit\n'
	sed -n 's/^=== BENCH //p' "${logs[@]}"
} >"$out.tmp"
mv "$out.tmp" "$out"
echo
column -t -s $'\t' "$out"
say "bench: $(($(wc -l <"$out") - 1)) figures in $out"
exit $rc
