#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcg-fault-judge.sh [IGNORED]
#
# The test of tests/vm/lib/tcg-fault.sh (host side), which lets a guest's
# kernel report be called the emulator's only when RFLAGS shows bits an
# x86 CPU never sets (22 to 31). Fed:
#  - the #DB warning recorded on 6.12 (judge/tcg-fault-db-6.12.log, EFLAGS
#    bf088002 and bf08cb02): the emulator's;
#  - the same report with the EFLAGS values a CPU can hold (00010246,
#    00000246): not the emulator's;
#  - the recorded report followed by that one: not (one report is real);
#  - a log without any report: not;
#  - EFLAGS 003f0246 (bit 21, ID, the highest one that is defined): not;
#  - the soft lockup recorded on 6.1 (judge/tcg-stale-int3-6.1.log: a vCPU
#    in the int3 entry, trapped at __schedule+0x1bc, where memory holds a
#    NOP and no int3): the emulator's;
#  - the same with an int3 (cc) in memory at the trap: not;
#  - the same without the int3 entry in the NMI backtrace: not;
#  - the same followed by a WARNING with a CPU's EFLAGS: not.
# Prints PASS/FAIL per case and "tcg-fault-judge: N passed, M failed".
set -uo pipefail

here=$(dirname "$0")
judge=$here/lib/tcg-fault.sh
rec=$here/judge/tcg-fault-db-6.12.log
stale=$here/judge/tcg-stale-int3-6.1.log
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# expect NAME WANT FILE...: the judge's exit status on FILE is WANT.
expect() {
	local name=$1 want=$2 got
	shift 2
	"$judge" "$@" >/dev/null
	got=$?
	if [ "$got" -eq "$want" ]; then
		echo "PASS tcg-fault: $name (exit $got)"
		passed=$((passed + 1))
	else
		echo "FAIL tcg-fault: $name (exit $got, want $want)"
		failed=$((failed + 1))
	fi
}

sed -e 's/EFLAGS: bf088002/EFLAGS: 00010246/' \
    -e 's/EFLAGS: bf08cb02/EFLAGS: 00000246/' "$rec" >"$tmp/real.log"
sed -e 's/EFLAGS: bf088002/EFLAGS: 003f0246/' \
    -e 's/EFLAGS: bf08cb02/EFLAGS: 003f0246/' "$rec" >"$tmp/id.log"
cat "$rec" "$tmp/real.log" >"$tmp/both.log"
grep -v 'Call Trace\|cut here\|WARNING\|EFLAGS\|RIP' "$rec" >"$tmp/none.log"

expect "the recorded #DB with EFLAGS bf08cb02 is the emulator's" 0 "$rec"
expect "the same report with a CPU's EFLAGS is not" 1 "$tmp/real.log"
expect "EFLAGS with ID (bit 21), no reserved bit, is not" 1 "$tmp/id.log"
expect "the recorded one and a real one in a log: not" 1 "$tmp/both.log"
expect "the recorded one and a real one in two logs: not" 1 "$rec" "$tmp/real.log"
expect "a log without a report: not" 1 "$tmp/none.log"

# The int3 loop: the trap's octet (before the marked one) made an int3;
# the int3 entry's frames taken out; a real report after it.
sed 's/ 0f <1f> 44 00 00/ cc <1f> 44 00 00/' "$stale" >"$tmp/int3.log"
grep -v 'asm_exc_int3' "$stale" >"$tmp/noentry.log"
cat "$stale" "$tmp/real.log" >"$tmp/stale-real.log"
expect "the recorded stale int3 loop on 6.1 is the emulator's" 0 "$stale"
expect "the same with the int3 in memory is not" 1 "$tmp/int3.log"
expect "the same soft lockup without the int3 entry is not" 1 "$tmp/noentry.log"
expect "the stale int3 loop and a real report in a log: not" 1 "$tmp/stale-real.log"
expect "the stale int3 loop and the recorded #DB: the emulator's" 0 "$stale" "$rec"
echo "tcg-fault-judge: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
