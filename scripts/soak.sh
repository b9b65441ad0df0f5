#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make soak N=5: the VM layers of make test, N rounds one after the other,
# each layer as make test runs it (a failed script once more in a boot of
# its own: FLAKY when it passes there). Prints, per script, the rounds it
# ran in, its failures and its FLAKYs, and keeps every layer's log. A
# FLAKY is a defect report (Documentation/testing.rst, "Flaky scripts"):
# the table is what the known-failure list is checked against.
#
# By default a round is make test's two VM lanes at once, each lane's
# layers one after the other, as scripts/test.sh runs them: lane 1
# vmtest-kasan vmpair-kasan vmtest-siw vmpair, lane 2 vmtest-6.12
# vmpair-6.12 vmpair-mixed vmtest vmtest-kasan-siw. A round ends when both
# lanes have.
#
# Environment: N (rounds, default 1); SOAK_LAYERS (space-separated: these
# layers in one lane instead, one after the other). Logs in
# $MADCM_CACHE/soak-DATE/ROUND-LAYER.log. Last line: "soak: R rounds,
# S script runs, F failed, K flaky".
set -uo pipefail
. "$(dirname "$0")/common.sh"
cd "$MADCM_ROOT" || exit 1

rounds=${N:-1}
lane1="vmtest-kasan vmpair-kasan vmtest-siw vmpair vmtest"
lane2="vmtest-6.12 vmpair-6.12 vmpair-mixed vmtest-kasan-siw"
if [ -n "${SOAK_LAYERS:-}" ]; then
	lane1=$SOAK_LAYERS
	lane2=
fi
case $rounds in
'' | *[!0-9]*) die "N=$rounds: a number of rounds" ;;
esac
logdir=$MADCM_CACHE/soak-$(date +%Y%m%d-%H%M%S)
mkdir -p "$logdir"
scripts/deps.sh || exit 1
# Both lanes' KASAN layers boot the same test kernel: build it (nothing to
# do on a warm cache) before they could both start to.
case " $lane1 $lane2 " in
*-kasan*)
	scripts/build-test-kernel.sh siw tests/vm/siw.config >"$logdir/kasan-kernel.log" 2>&1 ||
		die "the KASAN test kernel did not build ($logdir/kasan-kernel.log)"
	;;
esac

# run_layer NAME: one layer, as scripts/test.sh runs it.
run_layer() {
	case $1 in
	vmtest) MADCM_VM_SRC_COPY=1 tests/vm/run.sh ;;
	vmpair) tests/vm/run2.sh ;;
	vmtest-siw) tests/vm/run-siw.sh ;;
	vmtest-kasan) KASAN_BOOTS=madcm tests/vm/run-kasan.sh ;;
	vmtest-kasan-siw)
		KASAN_BOOTS=siw KASAN_LAYER=vmtest-kasan-siw tests/vm/run-kasan.sh
		;;
	vmtest-6.12) MADCM_KERNEL=6.12 tests/vm/run.sh ;;
	vmpair-6.12) MADCM_KERNEL=6.12 tests/vm/run2.sh ;;
	vmpair-mixed)
		MADCM_VM_SRC_COPY=1 MADCM_VM_DIR=$MADCM_CACHE/vm-mixed \
			tests/vm/run-mixed.sh
		;;
	vmpair-kasan)
		MADCM_VM_SRC_COPY=1 KASAN_BOOTS=pair KASAN_LAYER=vmpair-kasan \
			MADCM_VM_DIR=$MADCM_CACHE/vm-kasan-pair tests/vm/run-kasan.sh
		;;
	*) say "no VM layer $1"; return 1 ;;
	esac
}

# run_lane ROUND LAYERS...: one lane of a round, its layers in turn.
run_lane() {
	local i=$1 l t0
	shift
	for l in "$@"; do
		t0=$(date +%s)
		run_layer "$l" </dev/null >"$logdir/$i-$l.log" 2>&1
		say "round $i/$rounds, $l: $(grep -aE '^[a-z0-9.-]+: [0-9]+ passed, [0-9]+ failed' \
			"$logdir/$i-$l.log" | tail -1) ($(($(date +%s) - t0)) s)"
	done
}

export MADCM_VM_RETRY=1
for ((i = 1; i <= rounds; i++)); do
	t0=$(date +%s)
	# shellcheck disable=SC2086 # the lanes are word lists
	run_lane "$i" $lane1 &
	p1=$!
	p2=
	if [ -n "$lane2" ]; then
		# shellcheck disable=SC2086
		run_lane "$i" $lane2 &
		p2=$!
	fi
	wait $p1 $p2
	say "round $i/$rounds: $(($(date +%s) - t0)) s"
done

# One line per script run: LAYER SCRIPT RESULT (PASS, FAIL, FLAKY). A
# layer that boots a script more than once (vmtest-siw's boots, the two
# pairings of vmpair-mixed) has a line for each. A FLAKY script printed
# its first FAIL (the retry prints no PASS line of its own): that FAIL
# counts as FLAKY only.
for f in "$logdir"/*.log; do
	l=${f##*/}
	l=${l#*-}
	l=${l%.log}
	awk -v l="$l" '
		/^(PASS|FAIL) [^ ]+\.sh( |$)/ {
			c[$2 " " $1]++
			if (!($2 in seen)) { seen[$2]; o[++n] = $2 }
		}
		/\[madcm\] FLAKY: / {
			for (i = 1; i <= NF; i++)
				if ($i == "failed," && i > 1) flaky[$(i - 1)]++
		}
		END {
			for (i = 1; i <= n; i++) {
				s = o[i]
				k = flaky[s] + 0
				fl = c[s " FAIL"] - k
				for (j = 0; j < c[s " PASS"]; j++) print l, s, "PASS"
				for (j = 0; j < fl; j++) print l, s, "FAIL"
				for (j = 0; j < k; j++) print l, s, "FLAKY"
			}
		}' "$f"
done >"$logdir/results"

printf '%-14s %-34s %5s %6s %6s\n' layer script runs failed flaky
sort "$logdir/results" | awk '
	{ k = $1 " " $2; runs[k]++; if ($3 == "FAIL") f[k]++; if ($3 == "FLAKY") y[k]++
	  if (!(k in seen)) { seen[k]; o[++n] = k } }
	END {
		for (i = 1; i <= n; i++) {
			split(o[i], p, " ")
			printf "%-14s %-34s %5d %6d %6d\n", p[1], p[2], runs[o[i]], f[o[i]], y[o[i]]
			tr += runs[o[i]]; tf += f[o[i]]; ty += y[o[i]]
		}
		printf "soak: %d rounds, %d script runs, %d failed, %d flaky\n", '"$rounds"', tr, tf, ty
	}' | tee "$logdir/table"
say "logs in $logdir"
