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
# "ratio" madcm/reference; "-" where there is none, or for a figure that
# was not measured, and a ratio only from two measured figures. What was
# not measured, and why (the scripts' "=== BENCH-NONE" lines, and the
# scripts that failed or did not finish), is listed after the table and
# counted in the closing line. Figures, not tests.
#
# The guests run crc32c-generic, not crc32c-intel (modprobe.blacklist on
# their command line; MADCM_BENCH_CRC_HW=1 keeps crc32c-intel): QEMU's
# TCG emulates the CRC32 and PCLMULQDQ instructions that crc32c-intel
# runs far more slowly than it runs the table code (madcm's 1 MiB Writes
# at 52.3 MB/s with crc32c-intel, 97.5 with crc32c-generic, in two boots
# of 2026-12-05), which would measure the emulator, not the data path.
# madcm and siw both take the crypto API's crc32c, so both pay the same;
# on hardware the instruction is the faster one.
set -euo pipefail
. "$(dirname "$0")/common.sh"

cd "$MADCM_ROOT"
vmdir=${MADCM_VM_DIR:-$MADCM_CACHE/vm-bench}
out=${MADCM_BENCH_OUT:-$MADCM_CACHE/bench/results.tsv}
mkdir -p "$(dirname "$out")"
# boot_limit SCRIPT...: a boot's limit, its scripts' own ("# vm-timeout:",
# else the guest's default of 600 s) and 300 s for the boot, so that a
# loaded host's slow boot never cuts a script that is in its time
# (VM_TIMEOUT, when set, instead).
boot_limit() {
	local s t limit=300

	for s in "$@"; do
		t=$(sed -n 's/^# vm-timeout: \([0-9][0-9]*\)$/\1/p' "$s" | head -1)
		limit=$((limit + ${t:-600}))
	done
	echo "${VM_TIMEOUT:-$limit}"
}
if [ "${MADCM_BENCH_CRC_HW:-0}" = 0 ]; then
	export MADCM_VM_APPEND="modprobe.blacklist=crc32c_intel${MADCM_VM_APPEND:+ $MADCM_VM_APPEND}"
fi
set +e
rc=0 logs=()
if [ "${MADCM_BENCH_STOCK:-1}" != 0 ]; then
	VM_TIMEOUT=$(boot_limit tests/vm/bench/*.sh) MADCM_VM_DIR=$vmdir MADCM_VM_LAYER=bench \
		tests/vm/run.sh tests/vm/bench/*.sh
	rc=$?
	logs=("$vmdir/test.log.txt")
fi
if [ "${MADCM_BENCH_SIW:-1}" != 0 ]; then
	rm -f "$vmdir-siw"/*/test.log.txt
	VM_TIMEOUT=$(boot_limit tests/vm/bench/siw/*.sh) MADCM_VM_DIR=$vmdir-siw \
		tests/vm/run-siw.sh tests/vm/bench/siw/*.sh || rc=1
	for f in "$vmdir-siw"/*/test.log.txt; do
		[ -e "$f" ] && logs+=("$f")
	done
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
	# A ratio only from two measured figures, whatever a script printed.
	[ ${#logs[@]} -eq 0 ] || sed -n 's/^=== BENCH //p' "${logs[@]}" |
		awk -F '\t' -v OFS='\t' '{
			if ($2 == "-" || $3 == "-" || $3 ~ /^[0.]+$/)
				$4 = "-"
			print }'
	if [ ${#apps[@]} -gt 0 ]; then
		# One row per figure: madcm's (the stock pair's), siw's (the
		# siwko pair's), madcm/siw ("-" where a run gave none). A
		# line without a value ("=== APPS NAME UNIT", a figure the
		# guest could not compute) or with one that is not a number
		# above 0 is no figure; a ratio only from two figures.
		awk '{ f = FILENAME ~ /pair-siwko-siwko/ ? 2 : 1 }
		     /^=== APPS / {
			if (NF >= 5) { val = $4; un = $5 } else { val = "-"; un = $4 }
			if (val !~ /^[0-9]+(\.[0-9]+)?$/ || val + 0 <= 0)
				val = "-"
			if (val != "-" || !((f, $3) in v))
				v[f, $3] = val
			if (un != "") u[$3] = un
			if (!($3 in seen)) { seen[$3]; o[++n] = $3 }
		     }
		     END {
			for (i = 1; i <= n; i++) {
				k = o[i]; m = ((1, k) in v) ? v[1, k] : "-"; r = ((2, k) in v) ? v[2, k] : "-"
				ra = (m != "-" && r != "-") ? sprintf("%.2f", m / r) : "-"
				printf "%s (siw)\t%s\t%s\t%s\t%s\n", k, m, r, ra, u[k]
			}
		     }' "${apps[@]}"
	fi
} >"$out.tmp"
mv "$out.tmp" "$out"
# What was not measured, one "NAME<TAB>WHY" line each: the scripts'
# reasons, the scripts of each boot that failed or did not finish (some
# of their figures may be missing), and a boot that did not finish.
none=()
declare -A seen_log=()
if [ ${#logs[@]} -gt 0 ] || [ ${#apps[@]} -gt 0 ]; then
	mapfile -t none < <(
		for f in "${logs[@]}" "${apps[@]}"; do
			[ -z "${seen_log[$f]:-}" ] || continue
			seen_log[$f]=1
			sed -n 's/^=== BENCH-NONE //p' "$f"
			# A pair's guest log: its scripts named with the pair.
			tag=${f%/*}
			tag=${tag##*/}
			[[ $tag == pair* ]] && tag=$tag/ || tag=
			awk -v tag="$tag" '/^=== VMTEST START / { s = tag $4; st[s] = "did not finish"; o[++n] = s }
			     /^=== VMTEST (PASS|SKIP) / { delete st[tag $4] }
			     /^=== VMTEST FAIL / { st[tag $4] = "failed " substr($0, index($0, "(")) }
			     /^=== VMTEST DONE/ { done = 1 }
			     END {
				for (i = 1; i <= n; i++)
					if (o[i] in st)
						print o[i] "\t" st[o[i]] ": its figures may be missing"
				if (!done)
					print "the boot\tthe VM did not finish (log: " FILENAME ")"
			     }' "$f"
		done)
	# The pairs' figures one run gave none of (its log says why).
	if [ ${#apps[@]} -gt 0 ]; then
		while IFS=$'\t' read -r n m r _; do
			if [ "$m" = - ]; then
				none+=("$n"$'\t'"madcm's run (the stock pair) gave no figure: its log says why")
			fi
			if [ "$r" = - ]; then
				none+=("$n"$'\t'"siw's run (the siwko pair) gave no figure: its log says why")
			fi
		done < <(tail -n +2 "$out" | grep -P '^[^\t]* \(siw\)\t')
	fi
	# The stock boot's scripts that never started.
	if [ "${MADCM_BENCH_STOCK:-1}" != 0 ]; then
		for s in tests/vm/bench/*.sh; do
			grep -q "^=== VMTEST START ${s##*/}\$" "$vmdir/test.log.txt" 2>/dev/null ||
				none+=("${s##*/}"$'\t'"did not run: its figures are missing")
		done
	fi
fi
echo
column -t -s $'\t' "$out"
rows=$(($(wc -l <"$out") - 1))
if [ ${#none[@]} -eq 0 ]; then
	say "bench: $rows figures in $out, none left out"
else
	echo
	echo "not measured, or only in part (a bound):"
	printf '%s\n' "${none[@]}" | awk -F '\t' '{ print "  " $1 ": " $2 }'
	names=$(printf '%s\n' "${none[@]}" | cut -f1 | awk '!seen[$0]++' | paste -sd';' - | sed 's/;/; /g')
	say "bench: $rows figures in $out; not measured or only in part (why: above): $names"
fi
exit $rc
