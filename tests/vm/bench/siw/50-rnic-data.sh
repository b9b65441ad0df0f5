# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1500
# The RNIC data path's benchmark (issue 18, 7; not a test), on the siw
# test kernel: the in-kernel ULP on a device on veth0 (init_net) against
# the in-kernel ULP on siw0 (veth1, namespace b), measured by the ULP
# (madcm_rdmacm_test.ko's bench command):
#   Send latency: a Send of N bytes echoed by a Send of N bytes, half the
#     round trip;
#   Write latency: a Write of N bytes and a 4-octet Send, echoed the same
#     way, half the round trip;
#   Write bandwidth: 8 MiB in Writes of N bytes, 16 in flight, ended by
#     an echoed Send (so every byte is placed);
#   CPU per byte: the guest's busy time (/proc/stat, both ends, both
#     CPUs) over the bandwidth run, per byte moved.
# First on siwa (siw: the reference), then on m0 (madcm) in the same
# boot, veth pair and peer; rows of make bench's table, madcm/siw.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

LAT_SIZES="8 64 512"
LAT_ITERS=${BENCH_LAT_ITERS:-100}
BW_SIZES="4096 65536 1048576"
BW_BYTES=$((${BENCH_BW_MIB:-8} << 20))
SIZE=1048576

load_modules madcm madcm_rdmacm_test
rdmacm_siw_net
setup_siw

# busy: the guest's busy time so far, in USER_HZ ticks (all CPUs).
busy() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
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
		it=$((BW_BYTES / s))
		t0=$(busy)
		run_bench "$tag: Write bandwidth $s B" $c.0 bw $s $it
		t1=$(busy)
		figure $out bw_$s "the Write bandwidth bench" \
			"printf \"%.1f\", $BW_BYTES / n * 1000"
		# USER_HZ is 100: a tick is 10 ms.
		figure $out cpu_$s "the Write bandwidth bench" \
			"printf \"%.2f\", $((t1 - t0)) * 1e7 / $BW_BYTES"
	done
	rt_data_line $c.0
	check "$tag: no data error" rt_data_clean $c.0
	check "$tag: disconnect" rt disconnect $c.0
	check "$tag: gone" rt_wait_gone $c.0 60
	check "$tag: peer gone" rt_wait_gone $l.0 60
	check "$tag: unlisten" rt unlisten $l
	cat $out
}

check "rdma link add siwa (siw, the reference)" /bin/rdma link add siwa type siw netdev veth0
measure siwa siw 7801
/bin/rdma link delete siwa
check "rdma link add m0 (madcm)" /bin/rdma link add m0 type madcm netdev veth0
measure m0 madcm 7802
check "rdma link delete m0" /bin/rdma link delete m0

# row KEY NAME UNIT: madcm's figure, siw's and madcm/siw; "-" for a
# figure not measured (and why, bench_none), and for the ratio then.
row() {
	local m r t
	m=$(sed -n "s/^$1 //p" /tmp/bench.madcm 2>/dev/null)
	r=$(sed -n "s/^$1 //p" /tmp/bench.siw 2>/dev/null)
	for t in madcm siw; do
		if [ $t = madcm ] && [ -n "$m" ] && [ "$m" != - ]; then continue; fi
		if [ $t = siw ] && [ -n "$r" ] && [ "$r" != - ]; then continue; fi
		bench_none "rnic: $2" "$t: $(sed -n "s/^$1 //p" /tmp/bench.$t.why 2>/dev/null |
			head -1 | grep . || echo "its run did not get this far")"
	done
	m=${m:--} r=${r:--}
	bench_row "rnic: $2" "$m" "$r" \
		"$(awk -v m="$m" -v r="$r" 'BEGIN {
			if (m != "-" && r != "-" && r > 0) printf "%.2f", m / r; else print "-" }')" "$3"
}
for s in $LAT_SIZES; do
	row lat_send_$s "Send latency, $s B" us
	row lat_write_$s "RDMA Write latency, $s B" us
done
for s in $BW_SIZES; do
	row bw_$s "RDMA Write bandwidth, $s B" MB/s
	row cpu_$s "CPU per byte, RDMA Write $s B" ns/B
done

check "every id destroyed, no PD, CQ or QP left" rt_all_released 0
check "rmmod madcm_rdmacm_test" rmmod madcm_rdmacm_test
teardown_siw
/bin/ip netns del b
check "namespace b freed, veth0 gone" link_gone veth0 30
check "rmmod madcm" rmmod madcm
finish
