# SPDX-License-Identifier: GPL-2.0
# The benchmark (not a test) of madcm against ib_core's MAD layer on one
# rxe port, in one boot (samples/ibtest_bench.c says what each figure
# measures): create+free of send buffers (256 B, 64 KiB and 1 MiB RMPP),
# random access to the segments of a 1 MiB RMPP buffer, round trips with
# 1,000 to 100,000 requests outstanding answered in random order, 1 MiB
# RMPP throughput on rxe and on madcm's loopback fabric, memory per
# outstanding request and per RMPP reassembly. Each figure is one line
#   bench: NAME MADCM IB_CORE RATIO UNIT
# (RATIO = MADCM/IB_CORE), each also a row of make bench's table
# (bench_row), other output "bench-info: ...". A figure not measured is
# "-", with a line "bench-none: NAME STACK: WHY" (bench_none), and its
# ratio "-". make bench runs it; alone:
#   MADCM_VM_DIR=... tests/vm/run.sh tests/vm/bench/mad-ib-bench.sh
# The bench command's arguments after the GID cap the outstanding
# requests and give the whole command a time budget in seconds
# (MADCM_BENCH_BUDGET on the kernel command line, default 900): a round
# that would run past it is cut short or not run, and says so, so that
# the script ends within its limit below (300 s to spare for the rest)
# however loaded the host is. It takes 8 to 12 minutes under TCG; ib_core
# alone may take 6 at 100,000.
# vm-timeout: 1200
. /tests/common.sh
. /tests/ib.sh

ib_setup_one
# An agent's window on the wire is half madcm's receive ring: raise the
# ring from its default (2048) to the most madcm takes; the device bounds
# it too (rxe: its largest CQ, 32,767 entries, less the send slots).
rmmod madcm_ibtest madcm || fail "rmmod"
modprobe madcm ib_recv_queue_size=262144 || fail "modprobe madcm"
modprobe madcm_ibtest || fail "modprobe madcm_ibtest"
echo "bench-info: madcm ib_recv_queue_size $(cat /sys/module/madcm/parameters/ib_recv_queue_size)"
sed -En 's/^(recv_queue_size|max_solicited|overflow_max) /bench-info: madcm rxe0 port \1 /p' \
	/sys/kernel/debug/madcm/ports/rxe0-1/ib
gid6=$(ib_gid rxe0 ll)
check "open rxe0" ibt open rxe0
budget=${MADCM_BENCH_BUDGET:-900}
check "bench (a budget of $budget s)" ibt bench "$gid6" 100000 "$budget"
dmesg | sed -n 's/.*madcm_ibtest: bench /bench: /p; s/.*madcm_ibtest: bench-info /bench-info: /p
	s/.*madcm_ibtest: bench-none /bench-none: /p' >/tmp/bench.out
cat /tmp/bench.out

# madcm on its loopback fabric (two ports in one kernel, no device): the
# 1 MiB transfer of the RMPP bench file, against ib_core's 1 MiB on rxe
# (ib_core has no loopback fabric of its own).
modprobe madcm_rmpp_bench || fail "modprobe madcm_rmpp_bench"
rb=/sys/kernel/debug/madcm_rmpp_bench/bench
if [ -r $rb ]; then
	# Each read runs the bench once.
	cat $rb >/tmp/rb.out
	sed 's/^/bench-info: loopback /' /tmp/rb.out
	us=$(sed -n 's/^ *1048576 bytes: transfer \([0-9]*\) us.*/\1/p' /tmp/rb.out | head -1)
	ref=$(sed -n 's/^bench-info: ib_core rxe 1 MiB RMPP rate \([0-9.]*\) MB\/s/\1/p' /tmp/bench.out)
	# A figure not measured is "-", and so is the ratio then.
	if [ -z "$us" ] || [ "$us" -le 0 ]; then
		us=-
		why=$(sed -n 's/^ *1048576 bytes: \(.*failed.*\)/\1/p' /tmp/rb.out | head -1)
		echo "bench-none: rmpp-1MiB-loopback madcm: ${why:-no 1 MiB transfer time from $rb}" |
			tee -a /tmp/bench.out
	fi
	if [ -z "$ref" ] || [ "$ref" = 0 ] || [ "$ref" = 0.0 ]; then
		ref=-
		echo "bench-none: rmpp-1MiB-loopback ib_core: its 1 MiB RMPP on rxe was not measured" |
			tee -a /tmp/bench.out
	fi
	awk -v us="$us" -v ref="$ref" 'BEGIN {
		m = us == "-" ? "-" : sprintf("%.1f", 1048576 / us)
		r = m == "-" || ref == "-" ? "-" : sprintf("%.3f", m / ref)
		printf "bench: rmpp-1MiB-loopback %s %s %s MB/s\n", m, ref, r }' |
		tee -a /tmp/bench.out
else
	echo "bench-none: rmpp-1MiB-loopback both: $rb absent" | tee -a /tmp/bench.out
	echo "bench: rmpp-1MiB-loopback - - - MB/s" | tee -a /tmp/bench.out
fi
# Each figure as a row of make bench's table.
rows=0
while read -r tag name m k r unit; do
	case $tag in
	bench:)
		bench_row "mad vs ib_core: $name" "$m" "$k" "$r" "$unit"
		rows=$((rows + 1)) ;;
	bench-none:)
		# "NAME STACK: WHY": m holds STACK:, the rest WHY.
		bench_none "mad vs ib_core: $name" "$(echo "$m $k $r $unit" | sed 's/ *$//')" ;;
	esac
done </tmp/bench.out
check "the bench gave its figures ($rows)" [ "$rows" -ge 4 ]
echo "madcm's port counters (not zero):"
grep -v ' 0$' /sys/kernel/debug/madcm/ports/rxe0-1/counters /sys/kernel/debug/madcm/ports/rxe0-1/ib | sed 's/^/  /'
check "close" ibt close
rmmod madcm_rmpp_bench madcm_test_fabric 2>/dev/null
ib_teardown
finish
