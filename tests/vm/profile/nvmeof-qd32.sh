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
# interrupts off is counted). prof.rw= picks fio's --rw (randwrite),
# prof.qd= its --iodepth (32).
# prof.ab=PARAM:V1,V2 sets madcm's module parameter PARAM to each value
# in turn before each round (A/B within one boot; the host guest b is
# the one that posts), every round printed with its value.
# prof.count=1: one more round (no ramp) with each guest's counters
# before and after, printed per I/O: context switches, interrupts,
# NET_RX softirqs, TCP segments in and out, and (madcm) the FPDUs
# sent: how many of each one 4 KiB write costs.
#   MADCM_VM_DIR=/tmp/p MADCM_PAIR_KERNEL_A=stock MADCM_PAIR_KERNEL_B=stock \
#   MADCM_VM_APPEND="prof.rounds=5 prof.perf=1" \
#   tests/vm/run2.sh tests/vm/profile/nvmeof-qd32.sh </dev/null
# (siwko for siw; the guests' logs: $MADCM_VM_DIR/pair*/{a,b}.log.txt)
. /tests/common.sh
. /tests/ib.sh
. /tests/pair.sh
. /tests/nvmeof-setup.sh
. /tests/prof.sh

ROUNDS=5 PERF=0 RW=randwrite CHAINS= AB= COUNT=0 RAMP=2 QD=32
for arg in $(cat /proc/cmdline); do
	case $arg in
	prof.rounds=*) ROUNDS=${arg#*=} ;;
	prof.perf=*) PERF=${arg#*=} ;;
	prof.rw=*) RW=${arg#*=} ;;
	prof.chains=*) CHAINS=${arg#*=} ;;
	prof.ab=*) AB=${arg#*=} ;;
	prof.count=*) COUNT=${arg#*=} ;;
	prof.qd=*) QD=${arg#*=} ;;
	esac
done
if [ "$PAIR_KERNEL" = stock ]; then RDEV=m0; else RDEV=s0; fi

# fio_round: one 10 s round; prints its IOPS.
fio_round() {
	fio --name=p --filename="$DEV" --ioengine=libaio --direct=1 \
		--time_based --runtime=10 --ramp_time=$RAMP --size=256M \
		--output-format=terse --terse-version=3 --rw="$RW" --bs=4k \
		--iodepth="$QD" >/tmp/fio.p 2>&1 || return 1
	# terse v3: 8 is the reads' IOPS, 49 the writes'.
	awk -F';' '$1 == 3 { print $8 + $49 }' /tmp/fio.p
}

# counters: one line of name=value, this guest's totals now.
counters() {
	awk '$1 == "ctxt" { c = $2 } $1 == "intr" { i = $2 }
		END { printf "ctxt=%d intr=%d ", c, i }' /proc/stat
	awk '$1 == "NET_RX:" { n = 0; for (f = 2; f <= NF; f++) n += $f;
		printf "net_rx=%d ", n }' /proc/softirqs
	awk '$1 == "Tcp:" && $2 ~ /^[0-9]/ { printf "tcp_in=%d tcp_out=%d ", $11, $12 }' \
		/proc/net/snmp
	if [ "$RDEV" = m0 ]; then
		printf "fpdu_out=%d " "$(rnic_stat "$RDEV" tx_frames)"
	fi
	echo
}

# per_io BEFORE AFTER IOS: each counter's growth divided by IOS.
per_io() {
	echo "$1" | tr ' ' '\n' >/tmp/c.before
	echo "$2" | tr ' ' '\n' | awk -F= -v ios="$3" '
		NR == FNR { if ($1 != "") b[$1] = $2; next }
		$1 != "" && ($1 in b) { printf "%s %.2f  ", $1, ($2 - b[$1]) / ios }
		END { print "" }' /tmp/c.before -
}

nvmeof_up 0
if [ $ROLE = b ] && [ -n "$DEV" ]; then
	for i in $(seq "$ROUNDS"); do
		for val in $(prof_ab_values "$AB"); do
			prof_ab_set "$AB" "$val"
			tag=$PROF_TAG
			v=$(fio_round) || { fail "fio round $i$tag"; sed 's/^/  fio: /' /tmp/fio.p; continue; }
			echo "=== PROF $RDEV 4k-$RW-qd$QD$tag round $i: $v IOPS"
		done
	done
fi
if [ "$COUNT" = 1 ]; then
	pair_barrier 4
	before=$(counters)
	if [ $ROLE = b ] && [ -n "$DEV" ]; then
		RAMP=0
		fio_round >/dev/null || fail "fio counting round"
		# terse v3: 6 and 47 are the KiB read and written
		ios=$(awk -F';' '$1 == 3 { print int(($6 + $47) / 4) }' /tmp/fio.p)
		echo "$ios" >/tmp/ios
		RAMP=2
	fi
	pair_barrier 5
	after=$(counters)
	# the target (a) does not know the count: per 1 of its own, which
	# the reader divides by the host's
	ios=1
	[ $ROLE = b ] && [ -s /tmp/ios ] && ios=$(cat /tmp/ios)
	echo "=== PROF $RDEV 4k-$RW-qd$QD counted $ROLE, $ios I/Os, per I/O: $(per_io "$before" "$after" "$ios")"
fi
if [ "$PERF" = 1 ]; then
	pair_barrier 1
	/bin/perf record -q -e cpu-clock -F 499 -a -g -o /tmp/perf.data \
		>/tmp/perf.out 2>&1 &
	ppid=$!
	sleep 1
	if [ $ROLE = b ] && [ -n "$DEV" ]; then
		v=$(fio_round) || fail "fio under perf"
		echo "=== PROF $RDEV 4k-$RW-qd$QD under perf: $v IOPS"
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
