#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make kunit: put madcm into the cached linux-source-6.1 tree as
# drivers/infiniband/madcm and run its KUnit suites with kunit.py on x86_64
# QEMU (TCG), sanitizers on. Fails when a test fails, when an expected suite
# did not run, or when the kernel log holds any sanitizer, lockdep, WARNING
# or BUG report. Last line: "kunit: N passed, M failed".
#
# Environment: MADCM_CACHE (cache root), KUNIT_FILTER (a kunit.py
# filter_glob, e.g. 'madcm_mpa*'), KUNIT_TIMEOUT (seconds, default 900).
set -euo pipefail
. "$(dirname "$0")/common.sh"

"$MADCM_ROOT/scripts/deps.sh" build kunit
MADCM_KERNEL=6.1 "$MADCM_ROOT/scripts/fetch-kernel.sh"
. "$MADCM_CACHE/kernel.env"

# One kunit.py run at a time per cache: the tree copy and the build dir
# are shared.
exec 9>"$MADCM_CACHE/kunit.lock"
flock 9

BUILD=$MADCM_CACHE/kunit-build
OUT=$MADCM_CACHE/kunit-out
mkdir -p "$BUILD" "$OUT"

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
expected=$(grep -ho 'name = "madcm_[a-z0-9_]*"' "$MADCM_ROOT"/tests/kunit/*.c |
	sed 's/.*"\(.*\)"/\1/' | sort -u)

raw=$OUT/raw.log
json=$OUT/results.json
cd "$KSRC"
say "kunit.py build+run (build dir $BUILD)"
set +e
python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
	--kunitconfig="$MADCM_ROOT/tests/kunit/.kunitconfig" \
	--build_dir="$BUILD" --jobs="$(nproc)" \
	--timeout="${KUNIT_TIMEOUT:-900}" --raw_output=all \
	${KUNIT_FILTER:+"$KUNIT_FILTER"} </dev/null >"$raw" 2>&1
rc=$?
python3 tools/testing/kunit/kunit.py parse --json="$json" "$raw" \
	</dev/null >"$OUT/parsed.log" 2>&1
set -e
# Suite summaries, failures and the totals (the full list: parsed.log).
sed 's/^\[[0-9:]*\] //' "$OUT/parsed.log" |
	grep -E '^=+ .*(madcm|PASSED|FAILED|CRASHED|SKIPPED)|\[(FAILED|CRASHED|SKIPPED)\]|^Testing complete|^ *# .*(fail|FAIL)|Expected' || true

fail=0
if [ $rc -ne 0 ] && ! grep -q 'KTAP version\|TAP version' "$raw"; then
	tail -40 "$raw" >&2
	die "kunit.py failed before running the tests (exit $rc)"
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

for s in $expected; do
	if [ -z "${KUNIT_FILTER:-}" ] && ! grep -q "# Subtest: $s\$" "$raw"; then
		say "FAIL: expected suite $s did not run"
		failed=$((failed + 1))
	fi
done

bad='BUG:|WARNING:|Oops|Call Trace|KASAN|UBSAN|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU|ODEBUG|list_add corruption|list_del corruption|refcount_t:|kmemleak|INFO: task .* blocked|Kernel panic'
if grep -E "$bad" "$raw" >"$OUT/reports.log"; then
	say "FAIL: the kernel log holds reports (full log: $raw):"
	head -40 "$OUT/reports.log" >&2
	failed=$((failed + 1))
fi

# A copy for the layers after this one, made while the lock is still held:
# another kunit run may replace raw.log as soon as it is released.
[ -n "${KUNIT_RAW_COPY:-}" ] && cp "$raw" "$KUNIT_RAW_COPY"
echo "kunit: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
