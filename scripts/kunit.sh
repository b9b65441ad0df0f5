#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make kunit: put madcm into the cached linux-source-6.1 tree as
# drivers/infiniband/madcm and run its KUnit suites with kunit.py on x86_64
# QEMU (TCG), sanitizers on; then the MAD suites (madcm_mad*) again on an
# i386 kernel, so that 32-bit arithmetic is tested too (KASAN does not
# exist on i386: that run has every other sanitizer of .kunitconfig).
# The i386 kernel has siw built in (tests/kunit/i386.config), and a
# second boot of it runs madcm_rnic_uverbs, whose siw guard case asserts
# the opposite there of what it asserts on x86_64 (issue 30, item 6).
# The x86_64 suites run in two boots at once on two cores or more (the
# MAD and MPA suites, madcm_m*, and the rest; KUNIT_SPLIT=0: one boot),
# each on one virtual CPU. The i386 kernel builds at the lowest priority
# meanwhile, so a first run on an empty cache spends what the runs leave
# rather than the wall clock.
# Fails when a test fails, when an expected suite did not run, or when the
# kernel log holds any sanitizer, lockdep, WARNING or BUG report. Last
# line: "kunit: N passed, M failed", both runs added up.
#
# Environment: MADCM_CACHE (cache root), KUNIT_FILTER (a kunit.py
# filter_glob, e.g. 'madcm_mpa*'; the i386 run happens only when the
# filter is unset or names MAD suites, madcm_mad..., or its suite glob
# matches madcm_rnic_uverbs), KUNIT_I386=0 to skip the i386 runs, KUNIT_TIMEOUT (seconds, default 900), KUNIT_RETRY=0 to
# keep a failed case from running once more alone (KUNIT_RETRY_TIMEOUT,
# default 300 s, bounds that run).
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

# kunit_build ARCH BUILD_DIR KUNITCONFIG: configure and build one kernel
# (kunit.py build), its log in BUILD_DIR/madcm-build.log; MADCM_KUNIT_NICE
# runs it at the lowest priority (beside the other architecture's run).
kunit_build() {
	local arch=$1 build=$2 kconfig=$3 t0 rc
	local nice=()

	[ -n "${MADCM_KUNIT_NICE:-}" ] && nice=(nice -n 19)
	mkdir -p "$build"
	t0=$(date +%s)
	set +e
	"${nice[@]}" python3 tools/testing/kunit/kunit.py build --arch="$arch" \
		--kunitconfig="$kconfig" --build_dir="$build" --jobs="$(nproc)" \
		</dev/null >"$build/madcm-build.log" 2>&1
	rc=$?
	set -e
	say "kunit.py build, $arch: $(($(date +%s) - t0)) s (exit $rc)"
	return $rc
}

# run_kunit ARCH BUILD_DIR KUNITCONFIG FILTER EXPECTED_SUITES [BUILD_RC]
# Run a kernel kunit_build made (kunit.py exec); adds its counts to
# total_passed/total_failed. BUILD_RC: that build's exit status.
# KUNIT_OUT_TAG: a suffix for the output directory, for a second run of
# the same kernel.
run_kunit() {
	local arch=$1 build=$2 kconfig=$3 filter=$4 expected=$5 build_rc=${6:-0}
	local out=$MADCM_CACHE/kunit-out
	local raw json rc passed failed skipped s t0

	# x86_64 keeps the historical names kunit-out/ (read by later layers).
	[ "$arch" = x86_64 ] || out=$MADCM_CACHE/kunit-out-$arch
	out=$out${KUNIT_OUT_TAG:-}
	raw=$out/raw.log
	json=$out/results.json
	mkdir -p "$build" "$out"
	if [ "$build_rc" -ne 0 ]; then
		tail -40 "$build/madcm-build.log" >&2
		say "FAIL: the KUnit kernel ($arch) did not build (exit $build_rc)"
		total_failed=$((total_failed + 1))
		return 0
	fi
	say "kunit.py exec, $arch (build dir $build)"
	t0=$(date +%s)
	set +e
	python3 tools/testing/kunit/kunit.py exec --arch="$arch" \
		--kunitconfig="$kconfig" --build_dir="$build" \
		--timeout="${KUNIT_TIMEOUT:-900}" --raw_output=all \
		${filter:+"$filter"} </dev/null >"$raw" 2>&1
	rc=$?
	python3 tools/testing/kunit/kunit.py parse --json="$json" "$raw" \
		</dev/null >"$out/parsed.log" 2>&1
	set -e
	say "kunit.py exec, $arch: $(($(date +%s) - t0)) s"
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

	# A failed case (an expectation, not a report: those fail below
	# whatever happens) runs once more, alone, at most three of them; one
	# that passes there is FLAKY (scripts/test.sh lists it again at the
	# end), and its first failure stays in $raw.
	if [ "$failed" -gt 0 ] && [ "${KUNIT_RETRY:-1}" -gt 0 ] && ! grep -qE "$bad" "$raw"; then
		kunit_retry "$arch" "$build" "$kconfig" "$json" "$out"
	fi

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

# kunit_retry ARCH BUILD KCONFIG JSON OUT: run each failed case of JSON
# alone (kunit.py exec with its suite.case glob); a case that passes,
# with a kernel log free of reports, is taken off $failed and added to
# $passed (run_kunit's locals) and reported FLAKY.
kunit_retry() {
	local arch=$1 build=$2 kconfig=$3 json=$4 out=$5 c n i=0 rraw rjson st
	local cases first

	cases=$(python3 - "$json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
seen = {}
def walk(t, suite, case):
    name = t.get("name", "")
    if suite is None and name.startswith("madcm_"):
        suite = name
    elif suite is not None and case is None:
        case = name
    for c in t.get("test_cases") or []:
        if c.get("status") not in ("PASS", "SKIP") and suite is not None:
            # A suite that crashed or timed out has a case with no
            # name: the whole suite goes again ("suite." matches none).
            name = case or c.get("name")
            glob = suite + "." + name if name else suite
            seen[glob] = seen.get(glob, 0) + 1
    for g in t.get("sub_groups") or []:
        walk(g, suite, case)
walk(d, None, None)
print(" ".join("%s:%d" % kv for kv in seen.items()))
PY
) || return 0
	[ -n "$cases" ] || return 0
	# The first run's raw log, kept beside this run's own copy: a later
	# kunit run in the same cache overwrites kunit-out/.
	first=${KUNIT_RAW_COPY:-$out/raw}.first-$arch${KUNIT_OUT_TAG:-}.log
	cp "$raw" "$first"
	set -- $cases
	if [ $# -gt 3 ]; then
		say "$# failed cases: too many to try again"
		return 0
	fi
	for c in "$@"; do
		n=${c##*:} c=${c%:*}
		i=$((i + 1))
		rraw=$out/retry-$i.log rjson=$out/retry-$i.json
		say "kunit.py exec, $arch: $c once more, alone"
		python3 tools/testing/kunit/kunit.py exec --arch="$arch" \
			--kunitconfig="$kconfig" --build_dir="$build" \
			--timeout="${KUNIT_RETRY_TIMEOUT:-300}" --raw_output=all "$c" \
			</dev/null >"$rraw" 2>&1 || true
		python3 tools/testing/kunit/kunit.py parse --json="$rjson" "$rraw" \
			</dev/null >/dev/null 2>&1 || true
		st=$(python3 - "$rjson" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("none"); sys.exit()
p = f = 0
def walk(t):
    global p, f
    for c in t.get("test_cases") or []:
        if c.get("status") == "PASS": p += 1
        elif c.get("status") != "SKIP": f += 1
    for g in t.get("sub_groups") or []:
        walk(g)
walk(d)
print("pass" if p > 0 and f == 0 else "fail")
PY
) || st=fail
		if [ "$st" = pass ] && ! grep -qE "$bad" "$rraw"; then
			say "FLAKY: kunit $arch $c failed, then passed alone (first log: $first, second: $rraw)"
			failed=$((failed - n))
			passed=$((passed + n))
		else
			say "$c failed again (logs: $first, $rraw)"
		fi
	done
}

# run_split ARCH BUILD_DIR KUNITCONFIG BUILD_RC GLOB...: run_kunit once
# per GLOB, all at once, each expecting the suites of all_suites its glob
# matches (a suite no glob matches fails); then each run's output in
# turn, their counts added to the totals, and their raw logs, one after
# the other, as kunit-out/raw.log (what later layers read).
run_split() {
	local arch=$1 build=$2 kconfig=$3 rc=$4 tmp g s i n p f
	local -a pids=()

	shift 4
	tmp=$(mktemp -d)
	for s in $all_suites; do
		n=0
		for g in "$@"; do
			# shellcheck disable=SC2053 # a glob, as kunit.py's
			[[ $s == $g ]] && n=$((n + 1))
		done
		if [ "$n" -ne 1 ]; then
			say "FAIL: suite $s is in $n of the split's globs ($*)"
			total_failed=$((total_failed + 1))
		fi
	done
	i=0
	for g in "$@"; do
		i=$((i + 1))
		(
			exp=
			for s in $all_suites; do
				# shellcheck disable=SC2053
				[[ $s == $g ]] && exp="$exp $s"
			done
			total_passed=0 total_failed=0
			KUNIT_OUT_TAG=-part$i run_kunit "$arch" "$build" "$kconfig" \
				"$g" "$exp" "$rc"
			echo "$total_passed $total_failed" >"$tmp/$i.count"
		) >"$tmp/$i.out" 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}" || true
	mkdir -p "$MADCM_CACHE/kunit-out"
	: >"$MADCM_CACHE/kunit-out/raw.log"
	for i in $(seq 1 $#); do
		say "kunit $arch, boot $i of $#: ${!i}"
		cat "$tmp/$i.out"
		p=0 f=1
		[ -s "$tmp/$i.count" ] && read -r p f <"$tmp/$i.count"
		total_passed=$((total_passed + p))
		total_failed=$((total_failed + f))
		cat "$MADCM_CACHE/kunit-out-part$i/raw.log" \
			>>"$MADCM_CACHE/kunit-out/raw.log" 2>/dev/null || true
	done
	rm -rf "$tmp"
}

cd "$KSRC"
kconfig64=$MADCM_ROOT/tests/kunit/.kunitconfig
build64=$MADCM_CACHE/kunit-build

# make kunit-kcsan (KUNIT_KCSAN=1): the MAD suites, then the CM suites
# (kunit.py takes one glob: two boots), on an x86_64 kernel with KCSAN
# instead of KASAN (the two exclude each other), every other sanitizer
# of .kunitconfig kept (tests/kunit/kcsan.config). Any KCSAN report
# fails it, as any other report does. Opt-in: not part of make test.
if [ "${KUNIT_KCSAN:-0}" = 1 ]; then
	buildk=$MADCM_CACHE/kunit-build-kcsan
	kconfigk=$buildk/madcm-kcsan.kunitconfig
	mkdir -p "$buildk"
	{
		grep -v '^CONFIG_KASAN' "$kconfig64"
		cat "$MADCM_ROOT/tests/kunit/kcsan.config"
	} >"$kconfigk"
	rck=0
	kunit_build x86_64 "$buildk" "$kconfigk" || rck=$?
	filters=('madcm_mad*' 'madcm_cm*')
	[ -n "${KUNIT_FILTER:-}" ] && filters=("$KUNIT_FILTER")
	for f in "${filters[@]}"; do
		expected=$(grep "^${f%\*}" <<<"$all_suites" || true)
		[ "$f" = "${f%\*}" ] && expected=
		KUNIT_OUT_TAG=-kcsan-${f%\*} KUNIT_TIMEOUT=${KUNIT_TIMEOUT:-3600} \
			run_kunit x86_64 "$buildk" "$kconfigk" "$f" "$expected" "$rck"
		grep -c 'BUG: KCSAN' "$MADCM_CACHE/kunit-out-kcsan-${f%\*}/raw.log" |
			sed "s/^/kunit-kcsan $f: KCSAN reports: /" || true
	done
	echo "kunit: $total_passed passed, $total_failed failed"
	[ "$total_failed" -eq 0 ] && [ "$total_passed" -gt 0 ]
	exit
fi

# i386: the MAD suites, with .kunitconfig less KASAN (x86_64 only) plus
# tests/kunit/i386.config (siw built in); then, on the same kernel,
# madcm_rnic_uverbs (kunit.py's filter takes one glob: a second boot).
i386_filter=
case "${KUNIT_FILTER:-}" in
'') i386_filter='madcm_mad*' ;;
madcm_mad*) i386_filter=$KUNIT_FILTER ;;
esac
siw_suite=madcm_rnic_uverbs
siw_filter=
# shellcheck disable=SC2053 # the filter's suite part is a glob
if [ -z "${KUNIT_FILTER:-}" ]; then
	siw_filter=$siw_suite
elif [[ $siw_suite == ${KUNIT_FILTER%%.*} ]]; then
	siw_filter=$KUNIT_FILTER
	[[ $KUNIT_FILTER == *.* ]] || siw_filter=$siw_suite
fi
if [ "${KUNIT_I386:-1}" = 0 ]; then
	i386_filter=
	siw_filter=
fi
# A build directory of its own since siw came in (2026-12-05): trees
# from before it configure kunit-build-i386 without siw, and sharing one
# directory would rebuild the whole kernel at every switch.
build32=$MADCM_CACHE/kunit-build-i386-siw
kconfig32=$build32/madcm-i386.kunitconfig
if [ -n "$i386_filter$siw_filter" ]; then
	mkdir -p "$build32"
	{
		grep -v '^CONFIG_KASAN' "$kconfig64"
		cat "$MADCM_ROOT/tests/kunit/i386.config"
	} >"$kconfig32"
fi

# The x86_64 kernel first, on every core. Its run boots one virtual CPU,
# so the i386 kernel builds meanwhile at the lowest priority: the run
# keeps its core, the build takes what the run leaves.
rc64=0
kunit_build x86_64 "$build64" "$kconfig64" || rc64=$?
pid32=
if [ -n "$i386_filter$siw_filter" ]; then
	MADCM_KUNIT_NICE=1 kunit_build i386 "$build32" "$kconfig32" &
	pid32=$!
fi
if [ -z "${KUNIT_FILTER:-}" ] && [ "${KUNIT_SPLIT:-1}" != 0 ] &&
   [ "$(nproc)" -ge 2 ]; then
	# The MAD and MPA suites in one boot, the CM and RNIC suites in
	# another, both at once: each boots one virtual CPU, and one boot
	# of them all left the second core idle for ten minutes.
	run_split x86_64 "$build64" "$kconfig64" "$rc64" 'madcm_m*' 'madcm_[!m]*'
else
	expected=
	[ -z "${KUNIT_FILTER:-}" ] && expected=$all_suites
	run_kunit x86_64 "$build64" "$kconfig64" "${KUNIT_FILTER:-}" "$expected" "$rc64"
fi
# A copy for the layers after this one, made while the lock is still held:
# another kunit run may replace raw.log as soon as it is released.
[ -n "${KUNIT_RAW_COPY:-}" ] && cp "$MADCM_CACHE/kunit-out/raw.log" "$KUNIT_RAW_COPY"

if [ -n "$pid32" ]; then
	rc32=0
	wait "$pid32" || rc32=$?
	expected=
	[ -z "${KUNIT_FILTER:-}" ] && expected=$(grep '^madcm_mad' <<<"$all_suites" || true)
	if [ -n "$i386_filter" ]; then
		run_kunit i386 "$build32" "$kconfig32" "$i386_filter" "$expected" "$rc32"
	fi
	# A kernel that did not build counts as one failure, not two.
	if [ -n "$siw_filter" ] && { [ -z "$i386_filter" ] || [ "$rc32" -eq 0 ]; }; then
		KUNIT_OUT_TAG=-siw run_kunit i386 "$build32" "$kconfig32" \
			"$siw_filter" "$siw_suite" "$rc32"
	fi
fi

echo "kunit: $total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ] && [ "$total_passed" -gt 0 ]
