#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test: every layer, fast to real: static checks, the module build,
# KUnit under kunit.py, the fuzz harnesses (60 s each), host-side
# protocol checks of frames the KUnit run printed, and the VM tests on
# Debian's stock kernel. The module build and
# the stock-kernel VM layers run on both of Debian 12's kernel lines, 6.1
# and 6.12; KUnit and the siw kernel are built from the 6.1 source only
# (Documentation/testing.rst, "Kernel lines"). Each layer prints its
# own "layer: N passed, M failed" line; the last line adds them all up.
#
# The VM layers run in two lanes at once (Documentation/testing.rst, "The
# time budget"): their guests wait on the wire and on timers far more
# than they compute (a pair's two guests used about a fifth of a core
# each), so two lanes on two cores take little more than the longer lane.
# A lane's layers run one after the other; each layer's output is printed
# in one block when it ends.
set -uo pipefail
. "$(dirname "$0")/common.sh"
cd "$MADCM_ROOT"

start=$(date +%s)
# This run's layer logs, apart from any other run sharing the cache.
mkdir -p "$MADCM_CACHE"
logdir=$(mktemp -d "$MADCM_CACHE/test-run.XXXXXX")

# Every package any layer needs, once, before the first layer.
scripts/deps.sh || exit 1

# layer_cpu NAME COMMAND...: run COMMAND in a subshell of its own and
# write the CPU time (user and system, seconds) it and every process it
# waited for used to $logdir/NAME.cpu: the guests' emulators among them.
# Beside the wall time it tells a layer that computes from one that waits
# (Documentation/testing.rst, "The time budget").
layer_cpu() (
	local name=$1 rc
	shift
	"$@"
	rc=$?
	# Fields 16 and 17 of stat: the children's user and system ticks.
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%d\n", ($16 + $17) / hz }' \
		"/proc/$BASHPID/stat" >"$logdir/$name.cpu"
	exit $rc
)

# run_layer NAME COMMAND...: run a layer, keep its closing counts in
# $logdir/NAME.count. With LANE set (a lane of VM layers), the output goes
# to the layer's log and is printed in one block when the layer ends.
run_layer() {
	local name=$1 log p f rc t0 cpu
	shift
	log=$logdir/$name.log
	t0=$(date +%s)
	if [ -n "${LANE:-}" ]; then
		say "=== $name (lane $LANE): started"
		layer_cpu "$name" "$@" >"$log" 2>&1
		rc=$?
	else
		say "=== $name"
		layer_cpu "$name" "$@" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
	fi
	cpu=$(cat "$logdir/$name.cpu" 2>/dev/null)
	# -a: a layer's log may hold a stray non-text byte (compiler output).
	read -r p f < <(grep -aE '^[a-z0-9.-]+: [0-9]+ passed, [0-9]+ failed' "$log" |
		tail -1 | sed -E 's/^[a-z0-9.-]+: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/')
	p=${p:-0} f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# a layer that broke before counting is one failure
	fi
	echo "$p $f" >"$logdir/$name.count"
	if [ -n "${LANE:-}" ]; then
		(
			flock 8
			say "=== $name (lane $LANE)"
			cat "$log"
			say "=== $name: $p passed, $f failed ($(($(date +%s) - t0)) s, CPU ${cpu:-?} s)"
		) 8>"$logdir/print.lock"
	else
		say "=== $name: $p passed, $f failed ($(($(date +%s) - t0)) s, CPU ${cpu:-?} s)"
	fi
}

# build_layer: madcm and every module of the project, W=1, against the
# stock headers of each kernel line; a warning fails. The 6.1 build is the
# work tree's own (KDIR as make's default picks it, and the VM layers use
# it); the 6.12 one is made in a copy of the sources.
build_layer() {
	local line log src p=0 f=0
	for line in 6.1 6.12; do
		log=$logdir/build-$line.log
		src=$MADCM_ROOT
		if [ "$line" != 6.1 ]; then
			src=$MADCM_CACHE/build-$line/src
			mkdir -p "$src"
			copy_tree "$MADCM_ROOT" "$src"
		fi
		if make -j"$(nproc)" -s -C "$src" KERNEL="$line" CONFIG_DEBUG_INFO_BTF_MODULES= >"$log" 2>&1 &&
		   ! grep -q 'warning:' "$log"; then
			say "build on $line: ok"
			p=$((p + 1))
		else
			cat "$log"
			say "build on $line: FAILED"
			f=$((f + 1))
		fi
	done
	echo "build: $p passed, $f failed"
	[ "$f" -eq 0 ]
}

run_layer build build_layer
# dkms beside kunit, at the lowest priority: kunit's guest computes on
# one core and its build is cached, so the other core sat idle for most
# of kunit's 400 s while dkms (380 s of CPU) waited for it. dkms builds in
# trees of its own and reads the kernels the build layer fetched. Its
# output is printed in one block when it ends, as a lane's layers are.
(
	LANE="beside kunit"
	run_layer dkms nice -n 19 scripts/dkms-test.sh
) &
dkms_lane=$!
# The KUnit log the host-side checks read: this run's own, not whatever
# a later kunit run leaves in the cache.
kunit_raw=$MADCM_CACHE/test-kunit-raw.$$.log
export KUNIT_RAW_COPY=$kunit_raw
run_layer kunit scripts/kunit.sh
unset KUNIT_RAW_COPY
wait "$dkms_lane"
# The KASAN test kernel of lane 1's last layer (vmtest-kasan), built at
# the lowest priority beside the layers that follow (13 to 15 minutes of
# both cores alone on an empty cache; nothing on a warm one). Its log:
# $logdir/kasan-kernel.log; vmtest-kasan fails if it did not build.
nice -n 19 scripts/build-test-kernel.sh siw tests/vm/siw.config \
	>"$logdir/kasan-kernel.log" 2>&1 &
# After kunit, so that the suites are checked in the KUnit tree as well.
run_layer check scripts/check.sh
# The fuzz smoke: every harness of tests/fuzz/ for a fixed 60 s, one per
# core at a time, before the VM lanes take both cores.
run_layer fuzz env FUZZ_SECONDS=60 scripts/fuzz.sh
for t in tests/vm/*-tshark.sh; do
	[ -x "$t" ] || continue
	n=$(basename "$t" .sh)
	run_layer "$n" "$t" "$kunit_raw"
done
rm -f "$kunit_raw"
# The test of the rule that lets a guest's report be the emulator's.
run_layer tcg-fault-judge tests/vm/tcg-fault-judge.sh
# A VM script that fails runs once more in a boot of its own; one that
# passes there is FLAKY (listed again before the last line), one that
# fails again fails its layer (Documentation/testing.rst, "Flaky scripts").
export MADCM_VM_RETRY=1
# The KASAN test kernel's guests compute far more than they wait (a
# KASAN boot alone reaches its init in 34 s, beside another KASAN guest in
# up to 150 s), the stock ones wait (a vmpair of two guests used 400 s of
# CPU in 800 s, 2026-12-07): so the two lanes run the KASAN layers at
# different times, each beside the other lane's stock layers. Until
# 2026-12-07 both lanes ended with theirs, and in that day's CI two
# KASAN layers ran at once for 20 minutes (vmtest-kasan-siw took 18
# minutes there, 10 in the rehearsal before).
# Lane 1: the KASAN test kernel first, its guest with madcm alone
# (hostile scripts against madcm's CM, MAD layer and uverbs), its
# NVMe-oF pair under netem (pair/41; a guest that stalls in early boot,
# testing.rst, is booted again), then siw.ko on the 6.1 stock kernel, its
# pair of guests, and the 6.1 stock kernel's guest.
# Lane 2: the 6.12 stock kernel, one guest then two, madcm against siw.ko
# in two guests, and at the end the KASAN test kernel's boot with siw.ko
# (60, 65), when lane 1 runs stock guests.
# vmtest ran in lane 2 before its KASAN layer until 2026-12-07 (lane 2
# then ended ten minutes after lane 1); at lane 1's end the lanes are
# about even. Lane 1 builds madcm for 6.1 in the work tree, except for
# the KASAN pair and vmtest (copies of the sources, MADCM_VM_SRC_COPY),
# lane 2 for 6.1 in a copy too (vmpair-mixed).
(
	LANE=1
	run_layer vmtest-kasan env KASAN_BOOTS=madcm tests/vm/run-kasan.sh
	run_layer vmpair-kasan env MADCM_VM_SRC_COPY=1 KASAN_BOOTS=pair \
		KASAN_LAYER=vmpair-kasan MADCM_VM_DIR="$MADCM_CACHE/vm-kasan-pair" \
		tests/vm/run-kasan.sh
	run_layer vmtest-siw tests/vm/run-siw.sh
	run_layer vmpair tests/vm/run2.sh
	run_layer vmtest env MADCM_VM_SRC_COPY=1 tests/vm/run.sh
) &
lane1=$!
(
	LANE=2
	run_layer vmtest-6.12 env MADCM_KERNEL=6.12 tests/vm/run.sh
	run_layer vmpair-6.12 env MADCM_KERNEL=6.12 tests/vm/run2.sh
	run_layer vmpair-mixed env MADCM_VM_SRC_COPY=1 \
		MADCM_VM_DIR="$MADCM_CACHE/vm-mixed" tests/vm/run-mixed.sh
	run_layer vmtest-kasan-siw env KASAN_BOOTS=siw \
		KASAN_LAYER=vmtest-kasan-siw tests/vm/run-kasan.sh
) &
lane2=$!
wait "$lane1" "$lane2"

total_p=0 total_f=0
for name in build kunit check dkms fuzz vmtest vmpair vmtest-siw vmtest-kasan \
	vmtest-6.12 vmpair-6.12 vmpair-mixed vmpair-kasan vmtest-kasan-siw; do
	# A layer whose lane died before it counted is one failure.
	[ -e "$logdir/$name.count" ] || { say "=== $name: no result"; echo "0 1" >"$logdir/$name.count"; }
done
for c in "$logdir"/*.count; do
	read -r p f <"$c"
	total_p=$((total_p + p))
	total_f=$((total_f + f))
done
if grep -qah '\[madcm\] FLAKY: ' "$logdir"/*.log; then
	say "scripts that failed once and passed in a boot of their own:"
	grep -ah '\[madcm\] FLAKY: ' "$logdir"/*.log | sort -u
fi
say "make test took $(($(date +%s) - start)) s; layer logs in $logdir"
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
