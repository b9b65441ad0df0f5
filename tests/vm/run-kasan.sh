#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vmtest-kasan (a layer of make test): the scripts that feed madcm
# hostile or heavy input, on the KASAN test kernel of tests/vm/siw.config
# (KASAN with vmalloc shadow, KFENCE, lockdep, atomic-sleep checks; built
# once, 13 to 15 minutes, by scripts/build-test-kernel.sh). Three boots:
#
#   madcm   one guest, madcm.ko built against that kernel: the CM's
#           hostile segments (33) and SYN flood (3b), hostile MADs on rxe
#           (42), a hostile user process on the siw ABI (61), a peer that
#           never sends its FIN (6b: the stream's FIN-WAIT-2 timer);
#   siw     run-siw.sh's boots on it (siw.ko loaded beside madcm): hostile
#           FPDUs from a siw peer (60) and the CM control-socket stress (65);
#   pair    two guests of that kernel with madcm: NVMe-oF under netem
#           (pair/41), fio verifying every block.
#
# A report of any sanitizer fails the script that was running, as on the
# stock kernel (tests/vm/lib/init). Ends with "LAYER: N passed, M
# failed". Environment: KASAN_BOOTS (which of the three, default "madcm
# siw pair"; make test runs the pair in its other lane, as vmpair-kasan), KASAN_LAYER (the
# closing line's name, default vmtest-kasan), MADCM_VM_DIR (default
# $MADCM_CACHE/vm-kasan), and those of run.sh, run-siw.sh and run2.sh.
set -uo pipefail
. "$(dirname "$0")/../../scripts/common.sh"
export MADCM_KERNEL=6.1
layer=${KASAN_LAYER:-vmtest-kasan}
boots=${KASAN_BOOTS:-madcm siw pair}
base=${MADCM_VM_DIR:-$MADCM_CACHE/vm-kasan}
mkdir -p "$base"

kdir=$("$MADCM_ROOT/scripts/build-test-kernel.sh" siw "$MADCM_ROOT/tests/vm/siw.config") ||
	{ echo "$layer: 0 passed, 1 failed"; exit 1; }

passed=0 failed=0
# count NAME LAYER: add the closing counts of LAYER in $base/NAME.out.
count() {
	local p f
	read -r p f < <(grep -aE "^$2: [0-9]+ passed, [0-9]+ failed" "$base/$1.out" |
		tail -1 | sed -E 's/^[a-z0-9.-]+: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-1}))
}

for b in $boots; do
	case $b in
	madcm)
		MADCM_VM_KERNEL_DIR=$kdir MADCM_VM_LAYER=kasan-madcm \
			MADCM_VM_DIR=$base/madcm "$MADCM_ROOT/tests/vm/run.sh" \
			tests/vm/33-cm-hostile.sh tests/vm/3b-cm-synflood.sh \
			tests/vm/42-mad-ib-hostile.sh \
			tests/vm/61-rnic-uverbs-hostile.sh \
			tests/vm/6b-rnic-fin-wait.sh 2>&1 | tee "$base/madcm.out"
		count madcm kasan-madcm
		;;
	siw)
		MADCM_SIW_KERNEL=kasan MADCM_VM_DIR=$base/siw \
			"$MADCM_ROOT/tests/vm/run-siw.sh" \
			"$MADCM_ROOT/tests/vm/siw/60-rnic-hostile.sh" \
			"$MADCM_ROOT/tests/vm/siw/65-cm-ctl-stress.sh" 2>&1 |
			tee "$base/siw.out"
		count siw vmtest-siw-kasan
		;;
	pair)
		MADCM_PAIR_KERNEL_A=kasan MADCM_PAIR_KERNEL_B=kasan \
			MADCM_VM_DIR=$base MADCM_VM_LAYER=kasan-pair \
			"$MADCM_ROOT/tests/vm/run2.sh" \
			tests/vm/pair/41-nvmeof-netem.sh 2>&1 | tee "$base/pair.out"
		count pair kasan-pair
		;;
	*)
		say "KASAN_BOOTS: no boot '$b' (madcm, siw, pair)"
		failed=$((failed + 1))
		;;
	esac
done

echo "$layer: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
