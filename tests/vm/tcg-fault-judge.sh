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
#  - EFLAGS 003f0246 (bit 21, ID, the highest one that is defined): not.
# Prints PASS/FAIL per case and "tcg-fault-judge: N passed, M failed".
set -uo pipefail

here=$(dirname "$0")
judge=$here/lib/tcg-fault.sh
rec=$here/judge/tcg-fault-db-6.12.log
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
echo "tcg-fault-judge: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
