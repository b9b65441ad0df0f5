# SPDX-License-Identifier: GPL-2.0
# The benchmark (not a test) of madcm against ib_core's MAD layer on one
# rxe port, in one boot: create+free of send buffers (256 B, 64 KiB and
# 1 MiB RMPP buffers), random access to the segments of a 1 MiB RMPP
# buffer (madcm_get_rmpp_segment() against ib_get_rmpp_segment()), and
# 4000 request/response round trips posted at once and answered in random
# order; each figure for both, and the ratio madcm/ib_core, also as rows
# of make bench's table. make bench runs it; alone:
#   MADCM_VM_DIR=... tests/vm/run.sh tests/vm/bench/mad-ib-bench.sh
. /tests/common.sh
. /tests/ib.sh

ib_setup_one
gid6=$(ib_gid rxe0 ll)
check "open rxe0" ibt open rxe0
check "bench" ibt bench "$gid6" 4000
dmesg | sed -n 's/.*madcm_ibtest: bench /bench: /p'
# "WHAT: madcm M UNIT, ib_core K UNIT, madcm/ib_core R" -> a table row.
rows=0
dmesg | sed -n 's/.*madcm_ibtest: bench //p' | grep ': madcm [0-9]' >/tmp/bench.txt
while IFS= read -r l; do
	what=${l%%: madcm *}
	rest=${l#*: madcm }
	m=${rest%% *}
	rest=${rest#* }
	unit=${rest%%, ib_core *}
	rest=${rest#*, ib_core }
	k=${rest%% *}
	bench_row "mad vs ib_core: $what" "$m" "$k" "${l##*madcm/ib_core }" "$unit"
	rows=$((rows + 1))
done </tmp/bench.txt
check "the bench gave its figures ($rows)" [ "$rows" -ge 4 ]
echo "madcm's port counters (not zero):"
grep -v ' 0$' /sys/kernel/debug/madcm/ports/rxe0-1/counters /sys/kernel/debug/madcm/ports/rxe0-1/ib | sed 's/^/  /'
check "close" ibt close
ib_teardown
finish
