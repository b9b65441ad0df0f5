# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1200
# vm-progs: nvme fio
# make bench, two guests: fio over NVMe-oF (nvme-rdma on guest b,
# nvmet-rdma with a RAM-backed null_blk on guest a; tests/vm/lib/
# nvmeof-setup.sh), 4 KiB random IOPS and 128 KiB sequential bandwidth,
# each way. On two stock guests: on madcm's m0, then on Debian's rxe
# (RoCE, rxe0) over the same eth0, each job's figures madcm/rxe ("===
# BENCH" rows: above 1, madcm faster). On two siwko guests (Debian's
# kernel with siw.ko, run2.sh): on siw's s0. Guest b prints the figures
# of m0 and of s0 as "=== APPS nvmeof-JOB VALUE UNIT", which
# scripts/bench.sh puts side by side, madcm/siw. Figures, not tests (TCG,
# one CPU per guest).
. /tests/common.sh
. /tests/ib.sh
. /tests/pair.sh
. /tests/nvmeof-setup.sh

JOBS="4k-randread-qd32 4k-randwrite-qd32 4k-randread-qd1 128k-read-qd16 128k-write-qd16"

# fio_args JOB: the job's fio options.
fio_args() {
	case $1 in
	4k-randread-qd32) echo --rw=randread --bs=4k --iodepth=32 ;;
	4k-randwrite-qd32) echo --rw=randwrite --bs=4k --iodepth=32 ;;
	4k-randread-qd1) echo --rw=randread --bs=4k --iodepth=1 ;;
	128k-read-qd16) echo --rw=read --bs=128k --iodepth=16 ;;
	128k-write-qd16) echo --rw=write --bs=128k --iodepth=16 ;;
	esac
}

unit() { case $1 in 4k*) echo IOPS ;; *) echo MiB/s ;; esac; }

# bench_dev TAG: each job for 10 s on $DEV; its figure in /tmp/fig.TAG.JOB.
bench_dev() {
	local tag=$1 j v
	for j in $JOBS; do
		# shellcheck disable=SC2046
		fio --name=b --filename="$DEV" --ioengine=libaio --direct=1 \
			--time_based --runtime=10 --ramp_time=2 --size=256M \
			--output-format=terse --terse-version=3 $(fio_args $j) >/tmp/fio.b 2>&1 ||
			{ fail "fio $j on $RDEV"; sed 's/^/  fio: /' /tmp/fio.b; continue; }
		# terse v3: 7/8 read KiB/s and IOPS, 48/49 write's.
		if [ "$(unit $j)" = IOPS ]; then
			v=$(awk -F';' '$1 == 3 { print $8 + $49 }' /tmp/fio.b)
		else
			v=$(awk -F';' '$1 == 3 { printf "%.2f", ($7 + $48) / 1024 }' /tmp/fio.b)
		fi
		echo "  $RDEV $j: $v $(unit $j)"
		echo "$v" >/tmp/fig.$tag.$j
	done
}

if [ "$PAIR_KERNEL" = stock ]; then RDEVS="m0 rxe0"; else RDEVS=s0; fi
b=0
for RDEV in $RDEVS; do
	nvmeof_up $b
	[ $ROLE = b ] && [ -n "$DEV" ] && bench_dev $RDEV
	nvmeof_down $((b + 1))
	b=$((b + 2))
done
if [ $ROLE = b ]; then
	for j in $JOBS; do
		for RDEV in m0 s0; do
			[ -e /tmp/fig.$RDEV.$j ] &&
				echo "=== APPS nvmeof-$j $(cat /tmp/fig.$RDEV.$j) $(unit $j)"
		done
		[ "$PAIR_KERNEL" = stock ] || continue
		m=$(cat /tmp/fig.m0.$j 2>/dev/null || echo -)
		r=$(cat /tmp/fig.rxe0.$j 2>/dev/null || echo -)
		ratio=$(awk -v m="$m" -v r="$r" 'BEGIN { if (m + 0 > 0 && r + 0 > 0) printf "%.3f", m / r; else print "-" }')
		bench_row "nvmeof $(echo $j | tr - ' ') (rxe)" "$m" "$r" "$ratio" "$(unit $j)"
	done
fi
finish
