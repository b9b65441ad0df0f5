# SPDX-License-Identifier: GPL-2.0
# NVMe over Fabrics on two madcm RNICs (tests/vm/pair/40-nvmeof.sh and
# 41-nvmeof-netem.sh): Debian's own nvmet-rdma (the target, guest a, a
# RAM-backed null_blk namespace) and nvme-rdma (the host, guest b,
# nvme-cli's "nvme connect"), on m0 over each guest's eth0
# (tests/vm/lib/nvmeof-setup.sh); fio with --verify=crc32c writes the
# namespace and reads it back over the fabric. NVMEOF_NETEM, when set, is
# a tc netem specification put on both sides of the wire for the I/O
# (the connection is made on a clean wire); NVMEOF_UNIT_MB scales the
# I/O (15 units of data, 4 MiB each by default), NVMEOF_UNIT_KB in KiB
# when set. Then disconnect, "rdma link
# delete", rmmod: nothing hangs, nothing is left, no kernel report (the
# VM's /init fails the script on one).
. /tests/common.sh
. /tests/ib.sh
. /tests/pair.sh
. /tests/nvmeof-setup.sh

NETEM=${NVMEOF_NETEM:-}
# The I/O's unit in KiB: 15 units in all, each written and read back.
U=${NVMEOF_UNIT_KB:-$((${NVMEOF_UNIT_MB:-4} * 1024))}

# verify_io NAME FIO-ARGS...: one fio job that writes, then reads back and
# checks every block (a crc32c in each block's header); a verify error or
# an I/O error makes fio exit non-zero.
verify_io() {
	local name=$1 rc
	shift
	fio --name="$name" --filename="$DEV" --ioengine=libaio --direct=1 \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse --terse-version=3 "$@" >/tmp/fio.$name 2>&1
	rc=$?
	# terse v3: 3 job, 5 error, 7/8 read KiB/s and IOPS, 48/49 write's.
	awk -F';' '$1 == 3 { printf "  %s: write %s KiB/s %s IOPS, read %s KiB/s %s IOPS, errors %s\n",
		$3, $48, $49, $7, $8, $5 }' /tmp/fio.$name
	[ $rc -eq 0 ] || sed 's/^/  fio: /' /tmp/fio.$name
	return $rc
}

nvmeof_up
# Before any loss: the loss recoveries of the RNIC's streams on the host's
# TCP (the only TCP of these guests during the I/O) are counted after.
sack0=$(tcp_ext TCPSackRecovery) reno0=$(tcp_ext TCPRenoRecovery)
[ -n "$NETEM" ] && [ $ROLE = a ] && pair_netem $NETEM
if [ $ROLE = b ] && [ -n "$DEV" ]; then
	if [ -n "$NETEM" ]; then
		echo "--- netem on the I/O, both ways: $NETEM"
		pair_netem $NETEM
	fi
	# Small blocks (one page MRs), large ones (several pages: larger
	# fast-registration MRs, the target's RDMA READ of the write data in
	# several Reads), several queue depths, 4 jobs at once. Each job has
	# a region of its own, so that the last one reads a whole earlier one
	# back.
	check "fio 4k randwrite qd1 verify" verify_io r4k1 --rw=randwrite --bs=4k \
		--offset=0 --size=${U}k --iodepth=1
	check "fio 4k randwrite qd32 verify" verify_io r4k32 --rw=randwrite --bs=4k \
		--offset=${U}k --size=$((2 * U))k --iodepth=32
	check "fio 128k randwrite qd8 verify" verify_io r128k --rw=randwrite --bs=128k \
		--offset=$((3 * U))k --size=$((4 * U))k --iodepth=8
	check "fio 1m write qd4 verify" verify_io w1m --rw=write --bs=1m \
		--offset=$((7 * U))k --size=$((4 * U))k --iodepth=4
	check "fio 512-256k randwrite, 4 jobs qd16 verify" verify_io mix --rw=randwrite \
		--bsrange=512-256k --offset=$((11 * U))k --size=${U}k --offset_increment=${U}k \
		--iodepth=16 --numjobs=4
	check "fio 128k read-back verify" verify_io r128k --rw=randwrite --bs=128k \
		--offset=$((3 * U))k --size=$((4 * U))k --iodepth=8 --verify_only
fi
# Guest a waits out the host's I/O: up to 15 minutes on a lossy wire.
pair_barrier 1 900
if [ -n "$NETEM" ]; then
	/bin/tc -s qdisc show dev eth0 | sed 's/^/  /'
	pair_netem off
	grep -vE ' 0$' /sys/kernel/debug/madcm/cm/stats | sed 's/^/  cm: /'
fi
# Issue 31, item 2: both SYNs offered SACK-permitted, so the streams
# repair losses from the peer's SACK blocks (RFC 2018, RFC 6675), never
# with NewReno's recovery alone, which Linux counts apart.
if [ -n "$NETEM" ] && [ "$RDEV" = m0 ]; then
	sack=$(($(tcp_ext TCPSackRecovery) - sack0))
	reno=$(($(tcp_ext TCPRenoRecovery) - reno0))
	echo "TCP under netem: TCPSackRecovery +$sack, TCPRenoRecovery +$reno"
	check "the RNIC's streams recovered losses with SACK (TCPSackRecovery +$sack)" \
		[ $sack -gt 0 ]
	check "never without it (TCPRenoRecovery +$reno)" [ $reno -eq 0 ]
fi
nvmeof_down 2
finish
