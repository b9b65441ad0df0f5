# SPDX-License-Identifier: GPL-2.0
# Data over the in-kernel rdma_cm ULP (madcm_rdmacm_test.ko, data=SIZE:
# tests/tools/rdmacm_test_data.c), for tests/vm/siw/5x-*data*, rping and
# the RNIC bench; source after common.sh, rdmacm.sh and rdmacm-siw.sh.
# The ULP's device ($DEV: m0, madcm, or siwa, siw; RDMACM_DEV) is on veth0
# in init_net, where its connect commands run; the peer ULP listens on
# siw0 (veth1, namespace b), so both ends are in-kernel and each side's
# data is checked byte for byte by the side it lands on.

# rt_data_line NAME / rt_data_field NAME FIELD: the data file's view.
rt_data_line() {
	grep "^$1 " $RT/data
}
rt_data_field() {
	rt_data_line "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# rt_data_clean NAME: nothing went wrong on the connection's data.
rt_data_clean() {
	local f v bad=0
	for f in adv_err recv_bad write_bad read_bad unexpected wc_err; do
		v=$(rt_data_field "$1" $f)
		[ "$v" = 0 ] || { echo "$1: $f=$v"; bad=1; }
	done
	[ "$(rt_data_field "$1" pending)" = 0 ] || { echo "$1: expectations pending"; bad=1; }
	return $bad
}

# xfer FROM TO LEN SEED: FROM Sends LEN bytes to TO, Writes LEN bytes into
# TO's buffer (then its notice Send), Reads LEN bytes TO filled; TO checks
# what it received, FROM what it read. Prints one line; 0 when all held.
xfer() {
	local a=$1 b=$2 len=$3 seed=$4 r=""
	rt expect $b send $len $seed && rt send $a $len $seed && rt drain $b || r="$r send"
	rt expect $b write $len $((seed + 1)) && rt write $a $len $((seed + 1)) &&
		rt drain $b || r="$r write"
	rt fill $b $len $((seed + 2)) && rt read $a $len $((seed + 2)) || r="$r read"
	if [ -z "$r" ]; then
		echo "xfer $a -> $b $len B: ok"
	else
		echo "xfer $a -> $b $len B: FAILED:$r"
		rt_data_line $a
		rt_data_line $b
		return 1
	fi
}

# xfer_both A B SIZES...: xfer both ways for each size; counts failures.
xfer_both() {
	local a=$1 b=$2 n seed=1 bad=0
	shift 2
	for n in "$@"; do
		xfer $a $b $n $seed || bad=$((bad + 1))
		xfer $b $a $n $((seed + 3)) || bad=$((bad + 1))
		seed=$((seed + 6))
	done
	[ $bad -eq 0 ]
}

# The sizes: 1 B to 1 MiB, around word, page, MSS and FPDU edges.
DATA_SIZES="1 2 3 4 5 7 8 9 63 64 65 1024 1447 1448 1449 4095 4096 4097 65535 65536 65537 262144 1048575 1048576"

# netem_on / netem_off: loss, duplication and reordering both ways.
netem_on() {
	load_modules sch_netem
	/bin/tc qdisc add dev veth0 root netem delay 2ms loss 1% duplicate 1% reorder 25% 50% ||
		fail "netem on veth0"
	/bin/tc -n b qdisc add dev veth1 root netem delay 2ms loss 1% duplicate 1% reorder 25% 50% ||
		fail "netem on veth1"
}
netem_off() {
	/bin/tc -s qdisc show dev veth0
	/bin/tc -n b -s qdisc show dev veth1
	/bin/tc qdisc del dev veth0 root 2>/dev/null
	/bin/tc -n b qdisc del dev veth1 root 2>/dev/null
}

# data_pair LISTENER PORT CONN OPTS...: the peer ULP listens on siw0
# (192.0.2.2:PORT, from namespace b), the ULP on $DEV connects to it;
# both with OPTS (data=SIZE [mr=...]). Waits for both advertisements.
data_pair() {
	local l=$1 port=$2 c=$3
	shift 3
	check "listen $l on siw0 ($*)" rt ns:b listen $l 192.0.2.2 $port mode=accept "$@"
	check "connect $c ($*)" rt connect $c 192.0.2.2 $port "$@"
	check "$c.0 established" rt_wait $c.0 ESTABLISHED 60
	check "$l.0: the peer's advertisement" rt ready $l.0
	check "$c.0: the peer's advertisement" rt ready $c.0
	rt_data_line $c.0
	rt_data_line $l.0
	check "$c.0 on $DEV" [ "$(rt_field $c.0 dev)" = $DEV ]
	check "$l.0 on siw0" [ "$(rt_field $l.0 dev)" = siw0 ]
}

# data_close CONN LISTENER: the ULP disconnects; both ids go; unlisten.
data_close() {
	check "$1.0: disconnect" rt disconnect $1.0
	check "$1.0: id destroyed" rt_wait_gone $1.0 60
	check "$2.0: id destroyed" rt_wait_gone $2.0 60
	check "unlisten $2" rt unlisten $2
}

# listening_in NS PORT [SECONDS]: a TCP socket of namespace NS listens on
# PORT (siw's listener is one: rping -s has nothing to print until then).
listening_in() {
	local i=0 hex
	hex=$(printf '%04X' "$2")
	while [ $i -lt $((${3:-30} * 10)) ]; do
		in_ns "$1" cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
			grep -q "^ *[0-9]*: [0-9A-F]*:$hex [0-9A-F]*:0000 0A" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "nothing listens on port $2 in namespace $1"
	return 1
}

# rt_data_wait NAME FIELD VALUE [SECONDS]: until FIELD is VALUE, or the
# connection reports a post error (adv_err), whichever comes first. (An
# active connection has no data line until its route is resolved.)
rt_data_wait() {
	local i=0
	while [ $i -lt $((${4:-60} * 10)) ]; do
		[ "$(rt_data_field "$1" "$2")" = "$3" ] && return 0
		case $(rt_data_field "$1" adv_err) in
		"" | 0) ;;
		*) return 1 ;;
		esac
		sleep 0.1
		i=$((i + 1))
	done
	echo "$1: no $2=$3 in ${4:-60} s"
	rt_data_line "$1"
	return 1
}

# rping_pings LOG: how many "ping data" lines rping -v printed.
rping_pings() {
	grep -c "ping data: rdma-ping-[0-9]*: " "$1"
}

# kernel_rping_client NAME PORT SIZE PINGS: "rping -s -V" on siw0 serves,
# the ULP on $DEV is rping's client; both must see every ping.
kernel_rping_client() {
	local n=$1 port=$2 size=$3 pings=$4 log=/tmp/$1.rping pid
	in_ns b timeout 300 rping -s -V -v -a 192.0.2.2 -p $port -S $size >$log 2>&1 &
	pid=$!
	check "$n: rping -s listens on $port" listening_in b $port
	check "$n: connect (rping client, $size B, $pings pings)" \
		rt connect $n 192.0.2.2 $port data=$size rping=client pings=$pings
	rt_data_wait $n.0 pings $pings 240 || kill $pid 2>/dev/null
	wait $pid
	check "$n: rping -s exits 0" [ $? -eq 0 ]
	cat $log | cut -c1-100
	rt_data_line $n.0
	check "$n: rping -s saw $pings pings" [ "$(rping_pings $log)" = $pings ]
	check "$n.0: $pings pings, all alike" \
		[ "$(rt_data_field $n.0 pings)/$(rt_data_field $n.0 rp_bad)" = "$pings/0" ]
	check "$n.0: no data error" rt_data_clean $n.0
	ulp_conn_ok $n.0 "ADDR_RESOLVED/0,ROUTE_RESOLVED/0,ESTABLISHED/0,DISCONNECTED/0"
}

# kernel_rping_server NAME PORT SIZE PINGS: the ULP on $DEV serves rping's
# protocol, "rping -c -V" on siw0 connects and checks every ping.
kernel_rping_server() {
	local n=$1 port=$2 size=$3 pings=$4 log=/tmp/$1.rping pid
	check "$n: listen (rping server)" rt listen $n 192.0.2.1 $port mode=accept \
		data=65536 rping=server
	in_ns b timeout 300 rping -c -V -v -a 192.0.2.1 -p $port -S $size -C $pings >$log 2>&1 &
	pid=$!
	check "$n.0 established" rt_wait $n.0 ESTABLISHED 60
	rt_data_wait $n.0 pings $pings 240 || kill $pid 2>/dev/null
	wait $pid
	check "$n: rping -c -V exits 0" [ $? -eq 0 ]
	cat $log | cut -c1-100
	rt_data_line $n.0
	check "$n: rping -c saw $pings pings" [ "$(rping_pings $log)" = $pings ]
	check "$n: rping -c found no mismatch" sh -c "! grep -q 'data mismatch' $log"
	check "$n.0: $pings pings, each read as rping sends it" \
		[ "$(rt_data_field $n.0 pings)/$(rt_data_field $n.0 rp_bad)" = "$pings/0" ]
	check "$n.0: no data error" rt_data_clean $n.0
	ulp_conn_ok $n.0 "CONNECT_REQUEST/0,ESTABLISHED/0,DISCONNECTED/0"
	check "unlisten $n" rt unlisten $n
}

# mm_pair CONN LISTENER PORT: madcm on both ends of rdmacm_siw_net's veth
# pair (m0 on veth0, m1 on veth1 in namespace b); the ULP's LISTENER on
# m1 and its connection CONN from m0, established, each end's buffer of
# SIZE advertised, and the listener echoing Sends.
mm_pair() {
	check "rdma link add m0" /bin/rdma link add m0 type madcm netdev veth0
	check "rdma link add m1" in_ns b /bin/rdma link add m1 type madcm netdev veth1
	check "listen" rt ns:b listen $2 192.0.2.2 $3 mode=accept data=$SIZE
	check "connect" rt connect $1 192.0.2.2 $3 data=$SIZE
	check "established" rt_wait $1.0 ESTABLISHED 60
	check "ready" rt ready $1.0
	check "peer ready" rt ready $2.0
	check "echo Sends" rt echo $2.0 send
}

# busy: the guest's busy time so far, in USER_HZ ticks (all CPUs).
busy() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# busy_cpus: each CPU's busy ticks so far, on one line.
busy_cpus() {
	awk '$1 ~ /^cpu[0-9]/ { printf "%d ", $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# tcp_acked: the most octets any connection to iperf3's port 7800 has
# had acknowledged (its data connection's).
tcp_acked() {
	/bin/ss -tinH dst 192.0.2.2:7800 | tr ' ' '\n' |
		sed -n 's/^bytes_acked://p' | sort -n | tail -n 1
}

# iperf3_window: the link's limit in the steady state: iperf3 from veth0
# to 192.0.2.2 (veth1, namespace b) for eight seconds in 1 MiB writes,
# measured over two seconds from the first second its data connection
# had octets acknowledged (the client may take seconds to start on a
# loaded TCG host), so that iperf3's own start, control connection and
# end are not counted. Sets TW_TICKS (busy ticks, all CPUs), TW_OCTETS
# (octets acknowledged; empty when none), TW_CPUS0 and TW_CPUS1
# (busy_cpus at either end).
iperf3_window() {
	local ipid cpid a0= a1 t0 t1 i

	in_ns b /bin/iperf3 -s -1 -B 192.0.2.2 -p 7800 >/dev/null 2>&1 &
	ipid=$!
	sleep 1
	timeout 60 /bin/iperf3 -c 192.0.2.2 -p 7800 -t 8 -l 1M >/tmp/iperf3-window.out 2>&1 &
	cpid=$!
	for i in $(seq 12); do
		sleep 0.5
		a0=$(tcp_acked)
		[ "${a0:-0}" -gt 0 ] && break
	done
	sleep 1
	t0=$(busy)
	TW_CPUS0=$(busy_cpus)
	a0=$(tcp_acked)
	sleep 2
	a1=$(tcp_acked)
	TW_CPUS1=$(busy_cpus)
	t1=$(busy)
	wait $cpid
	wait $ipid
	TW_TICKS=$((t1 - t0))
	TW_OCTETS=
	if [ -n "$a0" ] && [ -n "$a1" ] && [ "$a1" -gt "$a0" ]; then
		TW_OCTETS=$((a1 - a0))
	fi
}
