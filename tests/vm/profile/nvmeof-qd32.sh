# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1500
# vm-progs: nvme fio perf
# NVMe-oF 4 KiB random I/O at depth 32 (issue 31, 9; not a test): the
# job of tests/vm/bench/pair/40-nvmeof-bench.sh that measured madcm
# below siw (4 KiB random writes, 0.79 and 0.95 of siw in two runs), run
# prof.rounds= (5) times for 10 s each on the pair's RNIC, madcm's m0 on
# two stock guests or siw's s0 on two siwko guests, every round's IOPS
# printed ("=== PROF"). With prof.perf=1, one more round while perf
# samples each guest (cpu-clock: TCG has no PMU), then each guest's
# heaviest symbols, and the call chains (callee first) of the symbols
# prof.chains= names (comma-separated; where the time spent with
# interrupts off is counted). prof.rw= picks fio's --rw (randwrite).
#   MADCM_VM_DIR=/tmp/p MADCM_PAIR_KERNEL_A=stock MADCM_PAIR_KERNEL_B=stock \
#   MADCM_VM_APPEND="prof.rounds=5 prof.perf=1" \
#   tests/vm/run2.sh tests/vm/profile/nvmeof-qd32.sh </dev/null
# (siwko for siw; the guests' logs: $MADCM_VM_DIR/pair*/{a,b}.log.txt)
. /tests/common.sh
. /tests/ib.sh
. /tests/pair.sh
. /tests/nvmeof-setup.sh

ROUNDS=5 PERF=0 RW=randwrite CHAINS=
for arg in $(cat /proc/cmdline); do
	case $arg in
	prof.rounds=*) ROUNDS=${arg#*=} ;;
	prof.perf=*) PERF=${arg#*=} ;;
	prof.rw=*) RW=${arg#*=} ;;
	prof.chains=*) CHAINS=${arg#*=} ;;
	esac
done
if [ "$PAIR_KERNEL" = stock ]; then RDEV=m0; else RDEV=s0; fi

# fio_round: one 10 s round; prints its IOPS.
fio_round() {
	fio --name=p --filename="$DEV" --ioengine=libaio --direct=1 \
		--time_based --runtime=10 --ramp_time=2 --size=256M \
		--output-format=terse --terse-version=3 --rw="$RW" --bs=4k \
		--iodepth=32 >/tmp/fio.p 2>&1 || return 1
	# terse v3: 8 is the reads' IOPS, 49 the writes'.
	awk -F';' '$1 == 3 { print $8 + $49 }' /tmp/fio.p
}

nvmeof_up 0
if [ $ROLE = b ] && [ -n "$DEV" ]; then
	for i in $(seq "$ROUNDS"); do
		v=$(fio_round) || { fail "fio round $i"; sed 's/^/  fio: /' /tmp/fio.p; continue; }
		echo "=== PROF $RDEV 4k-$RW-qd32 round $i: $v IOPS"
	done
fi
if [ "$PERF" = 1 ]; then
	pair_barrier 1
	/bin/perf record -q -e cpu-clock -F 499 -a -g -o /tmp/perf.data \
		>/tmp/perf.out 2>&1 &
	ppid=$!
	sleep 1
	if [ $ROLE = b ] && [ -n "$DEV" ]; then
		v=$(fio_round) || fail "fio under perf"
		echo "=== PROF $RDEV 4k-$RW-qd32 under perf: $v IOPS"
	fi
	# Guest a samples the target until the host's round is over.
	pair_barrier 2
	kill -INT $ppid
	wait $ppid
	cat /tmp/perf.out
	/bin/perf report -i /tmp/perf.data --stdio --no-children --sort sym \
		-g none --percent-limit 0.5 2>/dev/null | grep -v '^$' |
		grep -v '^#' | head -50 | sed "s/^/  perf $ROLE: /"
	/bin/perf report -i /tmp/perf.data --stdio --no-children --sort comm \
		-g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -12 |
		sed "s/^/  perf $ROLE comm: /"
	for sym in $(echo "$CHAINS" | tr ',' ' '); do
		/bin/perf report -i /tmp/perf.data --stdio --no-children \
			--symbols="$sym" -g callee,1 2>/dev/null | grep -v '^$' |
			grep -v '^#' | head -70 | sed "s/^/  perf $ROLE $sym: /"
	done
fi
nvmeof_down 3
finish
