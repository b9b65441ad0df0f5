# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 900
# vm-progs: nvme fio
# make bench, two guests: fio over NVMe-oF on madcm (nvme-rdma on guest b,
# nvmet-rdma with a RAM-backed null_blk on guest a; tests/vm/lib/
# nvmeof-setup.sh): 4 KiB random IOPS and 128 KiB sequential bandwidth,
# each way. No reference column: siw, the other software iWARP RNIC, is
# not in Debian's kernel, and the siw test kernel (tests/vm/siw.config)
# has no NVMe-oF. Figures, not tests (TCG, one CPU per guest).
. /tests/common.sh
. /tests/ib.sh
PAIR_RXE=0
. /tests/pair.sh
. /tests/nvmeof-setup.sh

# bench_fio NAME UNIT FIO-ARGS...: one 10 s fio run; its IOPS or KiB/s.
bench_fio() {
	local name=$1 unit=$2 v
	shift 2
	fio --name=b --filename="$DEV" --ioengine=libaio --direct=1 \
		--time_based --runtime=10 --ramp_time=2 --size=256M \
		--output-format=terse --terse-version=3 "$@" >/tmp/fio.b 2>&1 ||
		{ fail "fio $name"; sed 's/^/  fio: /' /tmp/fio.b; return; }
	# terse v3: 7/8 read KiB/s and IOPS, 48/49 write's.
	case $unit in
	IOPS) v=$(awk -F';' '$1 == 3 { print $8 + $49 }' /tmp/fio.b) ;;
	MiB/s) v=$(awk -F';' '$1 == 3 { printf "%.1f", ($7 + $48) / 1024 }' /tmp/fio.b) ;;
	esac
	echo "  $name: $v $unit"
	bench_row "nvmeof $name" "$v" - - "$unit"
}

nvmeof_up
if [ $ROLE = b ] && [ -n "$DEV" ]; then
	bench_fio "4k randread qd32" IOPS --rw=randread --bs=4k --iodepth=32
	bench_fio "4k randwrite qd32" IOPS --rw=randwrite --bs=4k --iodepth=32
	bench_fio "4k randread qd1" IOPS --rw=randread --bs=4k --iodepth=1
	bench_fio "128k read qd16" MiB/s --rw=read --bs=128k --iodepth=16
	bench_fio "128k write qd16" MiB/s --rw=write --bs=128k --iodepth=16
fi
nvmeof_down 1
finish
