#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make kunit: put madcm into the cached linux-source-6.1 tree as
# drivers/infiniband/madcm and run its KUnit suites with kunit.py on x86_64
# QEMU (TCG), sanitizers on; then the MAD suites (madcm_mad*) again on an
# i386 kernel, so that 32-bit arithmetic is tested too (KASAN does not
# exist on i386: that run has every other sanitizer of .kunitconfig).
# Fails when a test fails, when an expected suite did not run, or when the
# kernel log holds any sanitizer, lockdep, WARNING or BUG report. Last
# line: "kunit: N passed, M failed", both runs added up.
#
# Environment: MADCM_CACHE (cache root), KUNIT_FILTER (a kunit.py
# filter_glob, e.g. 'madcm_mpa*'; the i386 run happens only when the
# filter is unset or names MAD suites, madcm_mad...), KUNIT_I386=0 to skip
# the i386 run, KUNIT_TIMEOUT (seconds, default 900).
set -euo pipefail
. "$(dirname "$0")/common.sh"

"$MADCM_ROOT/scripts/deps.sh" build kunit
MADCM_KERNEL=6.1 "$MADCM_ROOT/scripts/fetch-kernel.sh"
. "$MADCM_CACHE/kernel.env"

# One kunit.py run at a time per cache: the tree copy and the build dir
# are shared.
exec 9>"$MADCM_CACHE/kunit.lock"
flock 9

# A copy of the sources, not a symlink: objects of an out-of-tree build in
# the work tree must never be found through the kernel build's VPATH.
dst=$KSRC/drivers/infiniband/madcm
[ -L "$dst" ] && rm -f "$dst"
mkdir -p "$dst"
sync_sources "$dst"

grep -q 'drivers/infiniband/madcm/Kconfig' "$KSRC/drivers/infiniband/Kconfig" ||
	sed -i 's|^source "drivers/infiniband/ulp/ipoib/Kconfig"|source "drivers/infiniband/madcm/Kconfig"\n&|' \
		"$KSRC/drivers/infiniband/Kconfig"
grep -q 'drivers/infiniband/madcm/Kconfig' "$KSRC/drivers/infiniband/Kconfig" ||
	die "could not hook madcm into drivers/infiniband/Kconfig"
grep -q '^obj-$(CONFIG_MADCM)' "$KSRC/drivers/infiniband/Makefile" ||
	echo 'obj-$(CONFIG_MADCM)		+= madcm/' >>"$KSRC/drivers/infiniband/Makefile"

# The suites every run must show; a suite that silently vanished fails.
all_suites=$(grep -ho 'name = "madcm_[a-z0-9_]*"' "$MADCM_ROOT"/tests/kunit/*.c |
	sed 's/.*"\(.*\)"/\1/' | sort -u)

bad='BUG:|WARNING:|Oops|Call Trace|KASAN|UBSAN|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU|ODEBUG|list_add corruption|list_del corruption|refcount_t:|kmemleak|INFO: task .* blocked|Kernel panic'
total_passed=0
total_failed=0

# run_kunit ARCH BUILD_DIR KUNITCONFIG FILTER EXPECTED_SUITES
# One kunit.py build+run; adds its counts to total_passed/total_failed.
run_kunit() {
	local arch=$1 build=$2 kconfig=$3 filter=$4 expected=$5
	local out=$MADCM_CACHE/kunit-out
	local raw json rc passed failed skipped s t0

	# x86_64 keeps the historical names kunit-out/ (read by later layers).
	[ "$arch" = x86_64 ] || out=$MADCM_CACHE/kunit-out-$arch
	raw=$out/raw.log
	json=$out/results.json
	mkdir -p "$build" "$out"
	say "kunit.py build+run, $arch (build dir $build)"
	t0=$(date +%s)
	set +e
	python3 tools/testing/kunit/kunit.py run --arch="$arch" \
		--kunitconfig="$kconfig" \
		--build_dir="$build" --jobs="$(nproc)" \
		--timeout="${KUNIT_TIMEOUT:-900}" --raw_output=all \
		${filter:+"$filter"} </dev/null >"$raw" 2>&1
	rc=$?
	python3 tools/testing/kunit/kunit.py parse --json="$json" "$raw" \
		</dev/null >"$out/parsed.log" 2>&1
	set -e
	say "kunit.py $arch took $(($(date +%s) - t0)) s"
	# Suite summaries, failures and the totals (the full list: parsed.log).
	sed 's/^\[[0-9:]*\] //' "$out/parsed.log" |
		grep -E '^=+ .*(madcm|PASSED|FAILED|CRASHED|SKIPPED)|\[(FAILED|CRASHED|SKIPPED)\]|^Testing complete|^ *# .*(fail|FAIL)|Expected' || true

	if [ $rc -ne 0 ] && ! grep -q 'KTAP version\|TAP version' "$raw"; then
		tail -40 "$raw" >&2
		say "FAIL: kunit.py ($arch) failed before running the tests (exit $rc)"
		total_failed=$((total_failed + 1))
		return 0
	fi

	read -r passed failed skipped < <(python3 - "$json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = f = s = 0
def walk(t):
    global p, f, s
    subs = t.get("sub_groups") or []
    cases = t.get("test_cases") or []
    for c in cases:
        st = c.get("status")
        if st == "PASS": p += 1
        elif st == "SKIP": s += 1
        else: f += 1
    for g in subs:
        walk(g)
walk(d)
print(p, f, s)
PY
)
	passed=${passed:-0}
	failed=${failed:-0}

	for s in $expected; do
		if ! grep -q "# Subtest: $s\$" "$raw"; then
			say "FAIL: expected suite $s did not run ($arch)"
			failed=$((failed + 1))
		fi
	done

	if grep -E "$bad" "$raw" >"$out/reports.log"; then
		say "FAIL: the kernel log holds reports (full log: $raw):"
		head -40 "$out/reports.log" >&2
		failed=$((failed + 1))
	fi
	say "kunit $arch: $passed passed, $failed failed"
	total_passed=$((total_passed + passed))
	total_failed=$((total_failed + failed))
}

cd "$KSRC"
expected=
[ -z "${KUNIT_FILTER:-}" ] && expected=$all_suites
run_kunit x86_64 "$MADCM_CACHE/kunit-build" \
	"$MADCM_ROOT/tests/kunit/.kunitconfig" "${KUNIT_FILTER:-}" "$expected"
# A copy for the layers after this one, made while the lock is still held:
# another kunit run may replace raw.log as soon as it is released.
[ -n "${KUNIT_RAW_COPY:-}" ] && cp "$MADCM_CACHE/kunit-out/raw.log" "$KUNIT_RAW_COPY"

# i386: the MAD suites, with .kunitconfig less KASAN (x86_64 only).
i386_filter=
case "${KUNIT_FILTER:-}" in
'') i386_filter='madcm_mad*' ;;
madcm_mad*) i386_filter=$KUNIT_FILTER ;;
esac
if [ "${KUNIT_I386:-1}" != 0 ] && [ -n "$i386_filter" ]; then
	build32=$MADCM_CACHE/kunit-build-i386
	mkdir -p "$build32"
	grep -v '^CONFIG_KASAN' "$MADCM_ROOT/tests/kunit/.kunitconfig" \
		>"$build32/madcm-i386.kunitconfig"
	expected=
	[ -z "${KUNIT_FILTER:-}" ] && expected=$(grep '^madcm_mad' <<<"$all_suites" || true)
	run_kunit i386 "$build32" "$build32/madcm-i386.kunitconfig" \
		"$i386_filter" "$expected"
fi

echo "kunit: $total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ] && [ "$total_passed" -gt 0 ]
