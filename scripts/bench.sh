#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: every benchmark in one boot of the stock kernel (QEMU, TCG):
# tests/vm/bench/*.sh (MAD against ib_core's MAD layer on rxe, RMPP, CM),
# then those of tests/vm/bench/siw/*.sh in a boot of the stock kernel with
# siw.ko (tests/vm/run-siw.sh; MADCM_SIW_KERNEL=kasan for the siw test
# kernel): the RNIC's data path against siw's
# (MADCM_BENCH_SIW=0 leaves that boot out); then rdma-core's applications
# (tests/vm/bench/pair/apps-bench.sh: cmtime, ib_send_lat, ib_write_bw)
# on two guests of run2.sh, madcm against madcm on Debian's kernel, and
# siw against siw on the same kernel with siw.ko (MADCM_BENCH_APPS=0
# leaves those out; MADCM_BENCH_STOCK=0 the first boot); then NVMe-oF
# (tests/vm/bench/pair/40-nvmeof-bench.sh) over madcm and over rxe on two
# stock guests, and over siw on two siwko guests (MADCM_BENCH_PAIR=0
# leaves them out).
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
rc=0 logs=()
if [ "${MADCM_BENCH_STOCK:-1}" != 0 ]; then
	MADCM_VM_DIR=$vmdir MADCM_VM_LAYER=bench tests/vm/run.sh tests/vm/bench/*.sh
	rc=$?
	logs=("$vmdir/test.log.txt")
fi
if [ "${MADCM_BENCH_SIW:-1}" != 0 ]; then
	rm -f "$vmdir-siw"/*/test.log.txt
	MADCM_VM_DIR=$vmdir-siw tests/vm/run-siw.sh tests/vm/bench/siw/*.sh || rc=1
	logs+=("$vmdir-siw"/*/test.log.txt)
fi
apps=()
if [ "${MADCM_BENCH_APPS:-1}" != 0 ]; then
	# "=== APPS NAME VALUE UNIT" from the client (guest b) of each pair.
	rm -f "$vmdir-apps"/pair*/b.log.txt
	for kern in stock siwko; do
		MADCM_VM_DIR=$vmdir-apps MADCM_PAIR_KERNEL_A=$kern MADCM_PAIR_KERNEL_B=$kern \
			MADCM_VM_LAYER=bench-apps-$kern tests/vm/run2.sh tests/vm/bench/pair/apps-bench.sh || rc=1
	done
	for f in "$vmdir-apps/pair/b.log.txt" "$vmdir-apps/pair-siwko-siwko/b.log.txt"; do
		[ -e "$f" ] && apps+=("$f")
	done
fi
if [ "${MADCM_BENCH_PAIR:-1}" != 0 ]; then
	rm -f "$vmdir-pair"/pair*/*.log.txt
	for kern in stock siwko; do
		MADCM_VM_DIR=$vmdir-pair MADCM_PAIR_KERNEL_A=$kern MADCM_PAIR_KERNEL_B=$kern \
			MADCM_VM_LAYER=bench-nvmeof-$kern tests/vm/run2.sh tests/vm/bench/pair/40-nvmeof-bench.sh || rc=1
	done
	[ -e "$vmdir-pair/pair/b.log.txt" ] && logs+=("$vmdir-pair/pair/b.log.txt")
	for f in "$vmdir-pair/pair/b.log.txt" "$vmdir-pair/pair-siwko-siwko/b.log.txt"; do
		[ -e "$f" ] && apps+=("$f")
	done
fi
set -e
{
	printf 'name\tmadcm\treference\tratio\tunit\n'
	[ ${#logs[@]} -eq 0 ] || sed -n 's/^=== BENCH //p' "${logs[@]}"
	if [ ${#apps[@]} -gt 0 ]; then
		# One row per figure: madcm's (the stock pair's), siw's (the
		# siwko pair's), madcm/siw ("-" where a run gave none).
		awk '{ f = FILENAME ~ /pair-siwko-siwko/ ? 2 : 1 }
		     /^=== APPS / { v[f, $3] = $4; u[$3] = $5; if (!($3 in seen)) { seen[$3]; o[++n] = $3 } }
		     END {
			for (i = 1; i <= n; i++) {
				k = o[i]; m = ((1, k) in v) ? v[1, k] : "-"; r = ((2, k) in v) ? v[2, k] : "-"
				ra = (m != "-" && r != "-" && r + 0 != 0) ? sprintf("%.2f", m / r) : "-"
				printf "%s (siw)\t%s\t%s\t%s\t%s\n", k, m, r, ra, u[k]
			}
		     }' "${apps[@]}"
	fi
} >"$out.tmp"
mv "$out.tmp" "$out"
echo
column -t -s $'\t' "$out"
say "bench: $(($(wc -l <"$out") - 1)) figures in $out"
exit $rc
