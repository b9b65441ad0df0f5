#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make fuzz: build the libFuzzer harnesses of tests/fuzz/ (the wire parsers
# compiled unchanged, beside a shim of kernel headers) and run each for
# FUZZ_SECONDS (default 60), FUZZ_JOBS at once (default: one per core).
# Per harness: executions, coverage (libFuzzer's cov: and ft: of its final
# line) and crashes; the last line is "fuzz: N passed, M failed". A
# harness fails on any crash, leak, timeout, out-of-memory or sanitizer
# report; what it found is kept in $FUZZ_DIR/artifacts/
# (tests/fuzz/crashes/ holds the ones reported).
# The corpora in tests/fuzz/corpus/ are read, never written: new inputs go
# to $FUZZ_DIR/corpus/. The MAD harnesses compile against the kernel's own
# <rdma/ib_mad.h>, the uverbs one (fuzz_uverbs, the SQE/RQE to WQE
# conversion of rnic/uwqe.c) against its uapi <rdma/siw-abi.h>, both from
# the cached kernel source (fetch-kernel.sh).
#
# Usage: scripts/fuzz.sh [harness...]     (default: all)
# Environment: FUZZ_SECONDS, FUZZ_JOBS, FUZZ_TIMEOUT (seconds one input
# may take, 10), FUZZ_DIR (builds, logs, corpora and findings; $MADCM_CACHE/fuzz)
set -uo pipefail
. "$(dirname "$0")/common.sh"
cd "$MADCM_ROOT"

# fuzz_one HARNESS: run it for $secs into $out (main's variables); its
# exit status goes to $out/logs/HARNESS.rc.
fuzz_one() {
	local h=$1 bin=$build/$1 log=$out/logs/$1.log art=$out/artifacts/$1
	local work=$out/corpus/$1 dict=()

	rm -rf "$art" "$out/logs/$h.rc"
	mkdir -p "$art" "$work" "tests/fuzz/corpus/$h"
	[ -f "tests/fuzz/dict/$h.dict" ] && dict=(-dict="tests/fuzz/dict/$h.dict")
	# The first corpus directory takes the new inputs: the cache's.
	"$bin" -max_total_time="$secs" -timeout="$per_input" -rss_limit_mb=2048 \
		-print_final_stats=1 -close_fd_mask=1 "${dict[@]}" \
		-artifact_prefix="$art/" "$work" "tests/fuzz/corpus/$h" \
		</dev/null >"$log" 2>&1
	echo $? >"$out/logs/$h.rc"
}

# All in a function, so that bash has read it all before it runs: an edit
# of this file during a long run cannot change what the run does.
main() {
	secs=${FUZZ_SECONDS:-60}
	per_input=${FUZZ_TIMEOUT:-10}
	case $secs in ''|*[!0-9]*) die "FUZZ_SECONDS must be a number of seconds" ;; esac

	scripts/deps.sh fuzz || exit 1
	MADCM_KERNEL=6.1 scripts/fetch-kernel.sh || exit 1
	. "$MADCM_CACHE/kernel.env"

	out=${FUZZ_DIR:-$MADCM_CACHE/fuzz}
	build=$out/build
	mkdir -p "$build" "$out/artifacts" "$out/corpus" "$out/logs"
	if ! make -s -C tests/fuzz O="$build" KSRC="$KSRC" >"$out/logs/build.log" 2>&1; then
		cat "$out/logs/build.log" >&2
		say "fuzz: the harnesses do not build"
		echo "fuzz: 0 passed, 1 failed"
		exit 1
	fi

	harnesses=("$@")
	[ ${#harnesses[@]} -gt 0 ] || read -ra harnesses < <(make -s -C tests/fuzz list)

	jobs=${FUZZ_JOBS:-$(nproc)}
	case $jobs in ''|*[!0-9]*|0) die "FUZZ_JOBS must be a number above 0" ;; esac
	for h in "${harnesses[@]}"; do
		[ -x "$build/$h" ] || die "no harness '$h' (make -C tests/fuzz list)"
	done
	# FUZZ_JOBS harnesses at once (default: one per core), each on a
	# core of its own for its FUZZ_SECONDS; results in the listed order.
	running=0
	for h in "${harnesses[@]}"; do
		if [ "$running" -ge "$jobs" ]; then
			wait -n
			running=$((running - 1))
		fi
		fuzz_one "$h" &
		running=$((running + 1))
	done
	wait
	passed=0 failed=0
	printf '%-14s %10s %6s %7s %7s  %s\n' harness execs cov ft crashes result
	for h in "${harnesses[@]}"; do
		log=$out/logs/$h.log
		art=$out/artifacts/$h
		rc=$(cat "$out/logs/$h.rc" 2>/dev/null || echo 1)
		final=$(grep -aE '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$final")
		ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$final")
		found=$(find "$art" -type f | wc -l)
		if [ "$rc" -eq 0 ] && [ "$found" -eq 0 ] && [ -n "$final" ] &&
		   ! grep -qaE 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' "$log"; then
			result=ok
			passed=$((passed + 1))
		else
			result="FAILED (exit $rc, $log)"
			failed=$((failed + 1))
		fi
		printf '%-14s %10s %6s %7s %7s  %s\n' "$h" "${execs:--}" "${cov:--}" \
			"${ft:--}" "$found" "$result"
		if [ "$result" != ok ]; then
			grep -aE -A 12 'ERROR: |runtime error:|WARNING: |fuzz_[a-z_]+: ' "$log" | head -40 >&2
			find "$art" -type f -printf '[madcm]   input: %p\n' >&2
		fi
	done
	echo "fuzz: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

main "$@"
exit
