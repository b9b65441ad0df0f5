# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1800
# The RNIC data path's benchmark (issues 18, 7 and 31, 9; not a test), in
# one boot of the stock kernel with siw.ko, on one veth pair (veth0 in
# init_net, veth1 in namespace b): the in-kernel ULP on a device on veth0
# against the in-kernel ULP on a device on veth1, measured by the ULP
# (madcm_rdmacm_test.ko's bench command):
#   Send latency: a Send of N bytes echoed by a Send of N bytes, half the
#     round trip;
#   Write latency: a Write of N bytes and a 4-octet Send, echoed the same
#     way, half the round trip;
#   Write bandwidth: BENCH_BW_MIB (64) MiB in Writes of N bytes (8 MiB
#     for N under 64 KiB), 16 in flight, ended by an echoed Send (so
#     every byte is placed);
#   CPU per byte: the guest's busy time (/proc/stat, both ends, both
#     CPUs) over the bandwidth run, per byte moved.
# In this order, the same boot and wire:
#   tcp    the link's limit: the kernel's own TCP, iperf3 moving the same
#          BENCH_BW_MIB MiB in 1 MiB writes from veth0 to veth1; its busy
#          time per byte over two seconds of a second, longer run, once
#          its data flows (iperf3_window, lib/rdmacm-data.sh), so that
#          iperf3's own start, control connection and end, which no
#          RDMA figure pays, are left out;
#   siw    siw to siw (siwa on veth0, siw0 on veth1): the reference;
#   madcm  madcm to siw (m0 on veth0, siw0);
#   mm     madcm to madcm (m0 on veth0, m1 on veth1; siw0 deleted first,
#          so that rdma_cm finds m1 on veth1), with MPA CRCs (the default);
#   mmn    the same with rnic_mpa_crc off, so without CRCs, as siw to siw
#          always runs (siw never asks for them; rnic_iw.rst).
# Rows of make bench's table: madcm to siw against siw to siw, madcm to
# madcm against siw to siw, and madcm to madcm against the TCP limit
# (bandwidth and CPU per byte), each with its ratio; the same two rows
# for madcm to madcm without CRCs. Then the same 1 MiB
# Write bandwidth under tc netem's 1% loss both ways (BENCH_LOSS_MIB,
# 32, MiB), for TCP, siw to siw and madcm to madcm (issue 31, item 9).
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

LAT_SIZES="8 64 512"
LAT_ITERS=${BENCH_LAT_ITERS:-100}
BW_SIZES="4096 65536 1048576"
BW_BYTES=$((${BENCH_BW_MIB:-64} << 20))
LOSS_BYTES=$((${BENCH_LOSS_MIB:-32} << 20))
LOSS="loss 1%"
SIZE=1048576

load_modules madcm madcm_rdmacm_test
rdmacm_siw_net
setup_siw

# netem_on / netem_off: LOSS on both ends of the veth pair.
netem_on() {
	/bin/tc qdisc add dev veth0 root netem $LOSS &&
		in_ns b /bin/tc qdisc add dev veth1 root netem $LOSS
}
netem_off() {
	/bin/tc qdisc del dev veth0 root 2>/dev/null
	in_ns b /bin/tc qdisc del dev veth1 root 2>/dev/null
	return 0
}

# run_bench WHAT CONN ARG...: one bench command of CONN, a check; BNS its
# bench_ns, empty when the command failed or gave none (no figure then:
# never 0, never the last command's).
run_bench() {
	local what=$1 c=$2
	shift 2
	BNS=
	if rt bench "$c" "$@"; then
		ok "$what"
		BNS=$(rt_data_field "$c" bench_ns)
		[ "${BNS:-0}" -gt 0 ] 2>/dev/null || BNS=
	else
		fail "$what"
	fi
}

# figure OUT KEY WHAT AWK-PROGRAM: "KEY VALUE" into OUT, VALUE what the
# program prints from n (BNS); "KEY -" and the reason when there is no
# BNS.
figure() {
	if [ -n "$BNS" ]; then
		echo "$2 $(awk -v n="$BNS" "BEGIN { $4 }")" >>"$1"
	else
		echo "$2 -" >>"$1"
		echo "$2 $3 failed or gave no time" >>"$1.why"
	fi
}

# measure DEV TAG PORT: the figures on DEV (connection bTAG, listener
# LTAG) into /tmp/bench.TAG, lines "KEY VALUE".
measure() {
	local dev=$1 tag=$2 port=$3 c=b$2 l=L$2 s t0 t1 it out=/tmp/bench.$2
	: >$out
	: >$out.why
	check "$tag: listen on siw0" rt ns:b listen $l 192.0.2.2 $port mode=accept data=$SIZE
	check "$tag: connect from $dev" rt connect $c 192.0.2.2 $port data=$SIZE
	check "$tag: established" rt_wait $c.0 ESTABLISHED 60
	check "$tag: our advertisement" rt ready $c.0
	check "$tag: the peer's advertisement" rt ready $l.0
	check "$tag: on $dev" [ "$(rt_field $c.0 dev)" = $dev ]
	for s in $LAT_SIZES; do
		check "$tag: echo Sends" rt echo $l.0 send
		run_bench "$tag: Send latency $s B" $c.0 lat_send $s $LAT_ITERS
		figure $out lat_send_$s "the Send latency bench" \
			"printf \"%.1f\", n / $LAT_ITERS / 2 / 1000"
		check "$tag: echo Writes" rt echo $l.0 write $s
		run_bench "$tag: Write latency $s B" $c.0 lat_write $s $LAT_ITERS
		figure $out lat_write_$s "the Write latency bench" \
			"printf \"%.1f\", n / $LAT_ITERS / 2 / 1000"
	done
	check "$tag: echo Sends" rt echo $l.0 send
	for s in $BW_SIZES; do
		bytes=$BW_BYTES
		[ "$s" -ge 65536 ] || bytes=$((8 << 20))
		it=$((bytes / s))
		t0=$(busy)
		run_bench "$tag: Write bandwidth $s B" $c.0 bw $s $it
		t1=$(busy)
		figure $out bw_$s "the Write bandwidth bench" \
			"printf \"%.1f\", $bytes / n * 1000"
		# USER_HZ is 100: a tick is 10 ms.
		figure $out cpu_$s "the Write bandwidth bench" \
			"printf \"%.2f\", $((t1 - t0)) * 1e7 / $bytes"
	done
	if [ "$tag" != madcm ] && [ "$tag" != mmn ]; then
		if netem_on; then
			run_bench "$tag: Write bandwidth 1 MiB, $LOSS" $c.0 bw $SIZE \
				$((LOSS_BYTES / SIZE))
			figure $out bw_loss "the Write bandwidth bench under $LOSS" \
				"printf \"%.1f\", $LOSS_BYTES / n * 1000"
		else
			echo "bw_loss -" >>$out
			echo "bw_loss tc netem could not be set" >>$out.why
		fi
		netem_off
	fi
	rt_data_line $c.0
	check "$tag: no data error" rt_data_clean $c.0
	check "$tag: disconnect" rt disconnect $c.0
	check "$tag: gone" rt_wait_gone $c.0 60
	check "$tag: peer gone" rt_wait_gone $l.0 60
	check "$tag: unlisten" rt unlisten $l
	cat $out
}

# The link's limit: the kernel's TCP over the same veth pair.
: >/tmp/bench.tcp
: >/tmp/bench.tcp.why
# iperf3_run KEY BYTES WHAT: iperf3 moves BYTES in 1 MiB writes from
# veth0 to veth1; "KEY MB/s" into /tmp/bench.tcp.
iperf3_run() {
	local key=$1 bytes=$2 what=$3 ipid rc mbit

	in_ns b /bin/iperf3 -s -1 -B 192.0.2.2 -p 7800 >/tmp/iperf3-s.out 2>&1 &
	ipid=$!
	sleep 1
	timeout 300 /bin/iperf3 -c 192.0.2.2 -p 7800 -n $bytes -l 1M -f m >/tmp/iperf3.out 2>&1
	rc=$?
	wait $ipid
	sed "s/^/iperf3 ($what): /" /tmp/iperf3.out
	mbit=$(awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) ~ /^Mbits/) v = $i }
		END { if (v != "") print v }' /tmp/iperf3.out)
	if [ $rc -eq 0 ] && [ -n "$mbit" ]; then
		ok "tcp: iperf3 moved $bytes bytes ($what)"
		# Mbit/s to MB/s (10^6 bytes), as the ULP's figures
		echo "$key $(awk -v m="$mbit" 'BEGIN { printf "%.1f", m / 8 }')" >>/tmp/bench.tcp
	else
		fail "tcp: iperf3 ($what, exit $rc)"
		echo "$key iperf3 failed (exit $rc)" >>/tmp/bench.tcp.why
	fi
}

# iperf3_cpu: "cpu_1048576 ns/B" into /tmp/bench.tcp: the guest's busy
# time per octet acknowledged in iperf3_window's two seconds.
iperf3_cpu() {
	iperf3_window
	if [ -n "$TW_OCTETS" ]; then
		ok "tcp: busy time over $TW_OCTETS octets acknowledged in 2 s"
		echo "cpu_1048576 $(awk 'BEGIN { printf "%.2f", '$TW_TICKS' * 1e7 / '$TW_OCTETS' }')" >>/tmp/bench.tcp
	else
		fail "tcp: no octets acknowledged in iperf3's window"
		echo "cpu_1048576 iperf3's window run moved nothing" >>/tmp/bench.tcp.why
	fi
}

if [ -x /bin/iperf3 ]; then
	iperf3_run bw_1048576 $BW_BYTES "no loss"
	iperf3_cpu
	# ... and under loss
	if netem_on; then
		iperf3_run bw_loss $LOSS_BYTES "$LOSS"
	else
		echo "bw_loss tc netem could not be set" >>/tmp/bench.tcp.why
	fi
else
	echo "bw_1048576 no iperf3 in the guest" >>/tmp/bench.tcp.why
	echo "bw_loss no iperf3 in the guest" >>/tmp/bench.tcp.why
fi
netem_off
cat /tmp/bench.tcp

check "rdma link add siwa (siw, the reference)" /bin/rdma link add siwa type siw netdev veth0
measure siwa siw 7801
/bin/rdma link delete siwa
check "rdma link add m0 (madcm)" /bin/rdma link add m0 type madcm netdev veth0
measure m0 madcm 7802
# madcm on both ends: m1 takes veth1 from siw0.
teardown_siw
check "rdma link add m1 (madcm, namespace b)" in_ns b /bin/rdma link add m1 type madcm netdev veth1
measure m0 mm 7803
crc_param=/sys/module/madcm/parameters/rnic_mpa_crc
n0=$(rnic_stat m0 conn_no_crc)
check "mm: its connection had CRCs" [ "$n0" = 0 ]
echo N >$crc_param
measure m0 mmn 7804
echo Y >$crc_param
check "mmn: its connection had none (conn_no_crc)" [ "$(rnic_stat m0 conn_no_crc)" = $((n0 + 1)) ]
check "rdma link delete m1" in_ns b /bin/rdma link delete m1
check "rdma link delete m0" /bin/rdma link delete m0

# row A B KEY NAME UNIT: A's figure (/tmp/bench.A), B's and A/B; "-" for
# a figure not measured (and why, bench_none), and for the ratio then.
row() {
	local a=$1 b=$2 m r t
	shift 2
	m=$(sed -n "s/^$1 //p" /tmp/bench.$a 2>/dev/null)
	r=$(sed -n "s/^$1 //p" /tmp/bench.$b 2>/dev/null)
	for t in $a $b; do
		if [ $t = $a ] && [ -n "$m" ] && [ "$m" != - ]; then continue; fi
		if [ $t = $b ] && [ -n "$r" ] && [ "$r" != - ]; then continue; fi
		bench_none "rnic: $2" "$t: $(sed -n "s/^$1 //p" /tmp/bench.$t.why 2>/dev/null |
			head -1 | grep . || echo "its run did not get this far")"
	done
	m=${m:--} r=${r:--}
	bench_row "rnic: $2" "$m" "$r" \
		"$(awk -v m="$m" -v r="$r" 'BEGIN {
			if (m != "-" && r != "-" && r > 0) printf "%.2f", m / r; else print "-" }')" "$3"
}
# madcm to siw against siw to siw (the rows of issue 18)
for s in $LAT_SIZES; do
	row madcm siw lat_send_$s "Send latency, $s B" us
	row madcm siw lat_write_$s "RDMA Write latency, $s B" us
done
for s in $BW_SIZES; do
	row madcm siw bw_$s "RDMA Write bandwidth, $s B" MB/s
	row madcm siw cpu_$s "CPU per byte, RDMA Write $s B" ns/B
done
# madcm to madcm against siw to siw, and against the link's limit
row mm siw lat_send_64 "madcm-madcm/siw-siw: Send latency, 64 B" us
row mm siw lat_write_64 "madcm-madcm/siw-siw: RDMA Write latency, 64 B" us
for s in 65536 1048576; do
	row mm siw bw_$s "madcm-madcm/siw-siw: RDMA Write bandwidth, $s B" MB/s
	row mm siw cpu_$s "madcm-madcm/siw-siw: CPU per byte, RDMA Write $s B" ns/B
done
row mm tcp bw_1048576 "madcm-madcm/TCP limit: bandwidth, 1 MiB Writes" MB/s
row mm tcp cpu_1048576 "madcm-madcm/TCP limit: CPU per byte, 1 MiB Writes" ns/B
row mmn tcp bw_1048576 "madcm-madcm no CRC/TCP limit: bandwidth, 1 MiB Writes" MB/s
row mmn tcp cpu_1048576 "madcm-madcm no CRC/TCP limit: CPU per byte, 1 MiB Writes" ns/B
row mmn siw bw_1048576 "madcm-madcm no CRC/siw-siw: RDMA Write bandwidth, 1 MiB" MB/s
row mmn siw cpu_1048576 "madcm-madcm no CRC/siw-siw: CPU per byte, 1 MiB" ns/B
row mmn mm bw_1048576 "madcm-madcm no CRC/with CRC: bandwidth, 1 MiB Writes" MB/s
row siw tcp bw_1048576 "siw-siw/TCP limit: bandwidth, 1 MiB Writes" MB/s
row siw tcp cpu_1048576 "siw-siw/TCP limit: CPU per byte, 1 MiB Writes" ns/B
# under 1% loss both ways (issue 31, item 9: madcm at least siw)
row mm siw bw_loss "madcm-madcm/siw-siw: bandwidth, 1 MiB Writes, $LOSS" MB/s
row mm tcp bw_loss "madcm-madcm/TCP: bandwidth, 1 MiB Writes, $LOSS" MB/s
row siw tcp bw_loss "siw-siw/TCP: bandwidth, 1 MiB Writes, $LOSS" MB/s

check "every id destroyed, no PD, CQ or QP left" rt_all_released 0
check "rmmod madcm_rdmacm_test" rmmod madcm_rdmacm_test
teardown_siw
/bin/ip netns del b
check "namespace b freed, veth0 gone" link_gone veth0 30
check "rmmod madcm" rmmod madcm
finish
