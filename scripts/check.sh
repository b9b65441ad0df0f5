#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: static analysis of all madcm sources, zero findings allowed.
#  - checkpatch.pl --strict (from the cached kernel tree)
#  - a W=1 build with sparse on every file (C=2), against the stock
#    headers of both kernel lines (6.1 and 6.12)
#  - kernel-doc with all its warnings over every source
#  - a manual page for every export, checked against the code
# Logs go to MADCM_CHECK_DIR (default $MADCM_CACHE/check).
# Prints one line per tool, "check: N passed, M failed" last.
set -uo pipefail
. "$(dirname "$0")/common.sh"

"$MADCM_ROOT/scripts/deps.sh" build check || exit 1
MADCM_KERNEL=6.1 "$MADCM_ROOT/scripts/fetch-kernel.sh" || exit 1
. "$MADCM_CACHE/kernel.env"

cd "$MADCM_ROOT"
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.c' '*.h' |
	grep -v -e '\.mod\.c$' -e '^tests/vm/.*\.c$' -e '^tests/fuzz/' | sort)
mapfile -t user_files < <(git ls-files -co --exclude-standard -- 'tests/vm/*.c' | sort)
mapfile -t fuzz_files < <(git ls-files -co --exclude-standard -- 'tests/fuzz/*.[ch]' |
	grep -v '^tests/fuzz/shim/.*\.h$' | sort)
mapfile -t shim_files < <(git ls-files -co --exclude-standard -- 'tests/fuzz/shim/*.h' | sort)
OUT=${MADCM_CHECK_DIR:-$MADCM_CACHE/check}
mkdir -p "$OUT"
passed=0 failed=0

result() {
	local name=$1 log=$2
	if [ -s "$log" ]; then
		say "FAIL: $name ($(wc -l <"$log") lines, $log):"
		head -30 "$log" >&2
		failed=$((failed + 1))
	else
		say "ok: $name"
		passed=$((passed + 1))
	fi
}

"$KSRC/scripts/checkpatch.pl" --strict --no-tree --quiet --show-types \
	--ignore FILE_PATH_CHANGES -f "${files[@]}" >"$OUT/checkpatch.log" 2>&1
grep -q . "$OUT/checkpatch.log" || : >"$OUT/checkpatch.log"
result "checkpatch --strict (${#files[@]} files)" "$OUT/checkpatch.log"

# Userspace test programs follow kernel style too, minus kernel-only rules
# (a signal handler's flag is volatile sig_atomic_t in userspace).
if [ ${#user_files[@]} -gt 0 ]; then
	"$KSRC/scripts/checkpatch.pl" --strict --no-tree --quiet --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,PREFER_KERNEL_TYPES,NEW_TYPEDEFS,SPLIT_STRING,VOLATILE \
		-f "${user_files[@]}" >"$OUT/checkpatch-user.log" 2>&1
	result "checkpatch (${#user_files[@]} userspace test programs)" "$OUT/checkpatch-user.log"
fi

# The fuzz harnesses are userspace too; libFuzzer names their entry point
# LLVMFuzzerTestOneInput. The shim headers define the kernel's own macros
# (min, get_unaligned, BUG, __packed, EXPORT_SYMBOL_GPL, smp_mb, ...) as the
# kernel does: the rules about using those macros do not apply to their
# definitions.
if [ ${#fuzz_files[@]} -gt 0 ]; then
	"$KSRC/scripts/checkpatch.pl" --strict --no-tree --quiet --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,PREFER_KERNEL_TYPES,NEW_TYPEDEFS,SPLIT_STRING,VOLATILE,CAMELCASE \
		-f "${fuzz_files[@]}" >"$OUT/checkpatch-fuzz.log" 2>&1
	"$KSRC/scripts/checkpatch.pl" --strict --no-tree --quiet --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,PREFER_KERNEL_TYPES,NEW_TYPEDEFS,SPLIT_STRING,VOLATILE,CAMELCASE,MACRO_ARG_REUSE,AVOID_BUG,PREFER_DEFINED_ATTRIBUTE_MACRO,CONST_STRUCT,EXPORT_SYMBOL,MACRO_ARG_PRECEDENCE,MEMORY_BARRIER \
		-f "${shim_files[@]}" >>"$OUT/checkpatch-fuzz.log" 2>&1
	result "checkpatch (${#fuzz_files[@]} fuzz harnesses, ${#shim_files[@]} shim headers)" "$OUT/checkpatch-fuzz.log"
fi

# copy_tree (scripts/common.sh), which copies the sources for the 6.12
# line's builds and the VMs' modules: a file changed in the source comes
# out newer than the object a build left in the copy, even when the
# source's file is the older (another tree's), and an unchanged file
# keeps its time. With rsync -a, a 6.12 guest could run a module whose
# objects came from another tree's version (issue 32, item 3).
copy_tree_check() {
	local t=$1 b0
	mkdir -p "$t/src" "$t/dst"
	git -C "$t/src" init -q . || return 1
	echo one >"$t/src/a.c"
	echo same >"$t/src/b.c"
	touch -d '2000-01-01 00:00' "$t/src/a.c" "$t/src/b.c"
	copy_tree "$t/src" "$t/dst" || return 1
	: >"$t/dst/a.o"
	b0=$(stat -c %Y "$t/dst/b.c")
	echo two >"$t/src/a.c"
	touch -d '2000-01-02 00:00' "$t/src/a.c"
	copy_tree "$t/src" "$t/dst" || return 1
	[ "$(cat "$t/dst/a.c")" = two ] || echo "a.c: the change was not copied"
	[ "$t/dst/a.c" -nt "$t/dst/a.o" ] ||
		echo "a.c: changed but older than the copy's a.o; make would keep the object"
	[ "$(stat -c %Y "$t/dst/b.c")" = "$b0" ] ||
		echo "b.c: unchanged but its time moved; every build would start over"
}
ct=$(mktemp -d)
copy_tree_check "$ct" >"$OUT/copy-tree.log" 2>&1 || echo "copy_tree failed" >>"$OUT/copy-tree.log"
rm -rf "$ct"
result "source copies rebuild what changed (copy_tree)" "$OUT/copy-tree.log"

# A fresh W=1 + sparse build of every object against the stock headers.
make -s -C "$STOCK_KDIR" M="$MADCM_ROOT" clean >/dev/null 2>&1
make -j"$(nproc)" -C "$STOCK_KDIR" M="$MADCM_ROOT" W=1 C=2 CONFIG_DEBUG_INFO_BTF_MODULES= \
	modules >"$OUT/build.log" 2>&1
build_rc=$?
grep -E 'warning:|error:' "$OUT/build.log" >"$OUT/w1-sparse.log"
[ $build_rc -eq 0 ] || echo "build failed (exit $build_rc)" >>"$OUT/w1-sparse.log"
result "W=1 build with sparse (C=2)" "$OUT/w1-sparse.log"

# The same on the 6.12 line's stock headers, in a copy of the sources (the
# work tree's objects stay 6.1's, for the checks below).
if MADCM_KERNEL=6.12 "$MADCM_ROOT/scripts/fetch-kernel.sh" >"$OUT/fetch-6.12.log" 2>&1; then
	(
		. "$(kernel_env_file 6.12)"
		src=$OUT/src-6.12
		mkdir -p "$src"
		copy_tree "$MADCM_ROOT" "$src"
		make -s -C "$STOCK_KDIR" M="$src" clean >/dev/null 2>&1
		make -j"$(nproc)" -C "$STOCK_KDIR" M="$src" W=1 C=2 CONFIG_DEBUG_INFO_BTF_MODULES= \
			modules >"$OUT/build-6.12.log" 2>&1
	)
	build_rc=$?
	grep -E 'warning:|error:' "$OUT/build-6.12.log" >"$OUT/w1-sparse-6.12.log"
	[ $build_rc -eq 0 ] || echo "build failed (exit $build_rc)" >>"$OUT/w1-sparse-6.12.log"
else
	cat "$OUT/fetch-6.12.log" >"$OUT/w1-sparse-6.12.log"
fi
result "W=1 build with sparse (C=2) on 6.12" "$OUT/w1-sparse-6.12.log"

# Every export is madcm_* and GPL-only: the module must load next to ib_core.
awk '$2 !~ /^madcm_/ || $4 != "EXPORT_SYMBOL_GPL"' "$MADCM_ROOT/Module.symvers" \
	>"$OUT/exports.log" 2>&1
[ -s "$MADCM_ROOT/Module.symvers" ] || echo "no Module.symvers" >>"$OUT/exports.log"
result "exports are madcm_* and EXPORT_SYMBOL_GPL ($(wc -l <"$MADCM_ROOT/Module.symvers" 2>/dev/null || echo 0))" "$OUT/exports.log"

# madcm.ko holds production code only: no symbol of a benchmark, demo, test
# fabric or control interface (they are modules of their own, tests/).
if [ -f "$MADCM_ROOT/madcm.ko" ]; then
	nm "$MADCM_ROOT/madcm.ko" |
		grep -iE 'bench|demo|fabric|madcm_loop_|wire_loop|cm_ctl|ctl_(exec|write|conn|listener)|ibtest|sample' \
		>"$OUT/nm.log"
else
	echo "no madcm.ko" >"$OUT/nm.log"
fi
result "nm madcm.ko: no bench, demo, fabric or ctl symbols" "$OUT/nm.log"

# The KUnit suites only compile where the kernel has KUnit: check them, with
# the rest of the module, in the KUnit tree that make kunit configured.
kbuild=$MADCM_CACHE/kunit-build
if [ -f "$kbuild/.config" ] && [ -d "$KSRC/drivers/infiniband/madcm" ]; then
	(
		flock 9
		sync_sources "$KSRC/drivers/infiniband/madcm"
		make -C "$KSRC" O="$kbuild" ARCH=x86_64 W=1 C=2 -j"$(nproc)" \
			drivers/infiniband/madcm/ >"$OUT/kunit-tree.log" 2>&1
	) 9>"$MADCM_CACHE/kunit.lock"
	kt_rc=$?
	grep -E 'warning:|error:' "$OUT/kunit-tree.log" >"$OUT/kunit-tree-findings.log"
	[ $kt_rc -eq 0 ] || echo "build failed (exit $kt_rc)" >>"$OUT/kunit-tree-findings.log"
	result "W=1 + sparse of the KUnit build (suites included)" "$OUT/kunit-tree-findings.log"
else
	say "note: no KUnit tree yet; its W=1/sparse check runs after make kunit"
fi

# 6.1's kernel-doc has no -Wall; -v turns on its extra warnings (a missing
# Return: description among them). Its own "warning:"/"error:" lines
# only: a function named *_error_* in an info line is no finding.
"$KSRC/scripts/kernel-doc" -v -none "${files[@]}" 2>&1 |
	grep -iE '(warning|error):' >"$OUT/kernel-doc.log"
result "kernel-doc -v (all warnings)" "$OUT/kernel-doc.log"

# Manual pages: one per export, made by the kernel's kernel-doc -man, with
# every section, and sections that agree with the code (scripts/man-check.py).
man_dir=$OUT/man
# A missing page is a finding of man-check.py too; the rest are checked.
"$MADCM_ROOT/scripts/man.sh" "$man_dir" >"$OUT/man-gen.log" 2>&1
"$MADCM_ROOT/scripts/man-check.py" "$man_dir" >"$OUT/man.log" 2>"$OUT/man-count.log"
result "man pages: $(ls "$man_dir"/*.9 2>/dev/null | wc -l) pages, $(cat "$OUT/man-count.log" 2>/dev/null)" \
	"$OUT/man.log"

# The page checker itself: errors planted in a copy of the pages must each
# be found.
planted() {
	local d=$OUT/man-planted want got
	rm -rf "$d"
	cp -r "$man_dir" "$d"
	sed -i 's/^\.IP "send_buf" 12/.IP "sendbuf" 12/' "$d/madcm_cancel_mad.9"
	sed -i '/^\.SH "CONTEXT"/,+1d' "$d/madcm_modify_mad.9"
	sed -i 's/^Nothing\.$/The buffer./' "$d/madcm_free_recv_mad.9"
	sed -i 's/-ENOMEM when out of memory/when out of memory/' "$d/madcm_create_send_mad.9"
	sed -i 's/Process context; may sleep\./Any context./' "$d/madcm_unregister_mad_agent.9"
	rm "$d/madcm_port_lid.9"
	want="madcm_cancel_mad: ARGUMENTS
madcm_create_send_mad: the body returns -ENOMEM
madcm_free_recv_mad: void function
madcm_modify_mad: page has no CONTEXT
madcm_port_lid: no manual page
madcm_unregister_mad_agent: the body sleeps"
	got=$("$MADCM_ROOT/scripts/man-check.py" "$d" 2>/dev/null)
	while read -r w; do
		grep -qF "$w" <<<"$got" || echo "planted error not found: $w"
	done <<<"$want"
}
planted >"$OUT/man-planted.log" 2>&1
result "man page checker finds planted errors" "$OUT/man-planted.log"

echo "check: $passed passed, $failed failed"
[ $failed -eq 0 ]
