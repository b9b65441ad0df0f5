# SPDX-License-Identifier: GPL-2.0
# The scenarios of tests/vm/pair/20-rdmacm-ulp.sh (RDMACM_DEV=rxe, the
# default) and 21-rdmacm-ulp-madcm.sh (RDMACM_DEV=madcm): an in-kernel
# rdma_cm ULP (madcm_rdmacm_test.ko) on both guests, guest a listening,
# guest b connecting, over the device RDMACM_DEV names: rxe (rxe0, RoCE,
# Debian's own) or madcm (m0, "rdma link add m0 type madcm netdev eth0",
# iWARP; rxe0 is then not created: both would claim eth0's addresses in
# rdma_cm). Each side checks its own events, in order, with their private
# data:
#   1. connect, private data both ways, the client disconnects;
#   2. a reject with private data;
#   3. the server disconnects;
#   4. 20 connections in a row, each closed by the client;
# then 1-4 again with netem dropping 5% of the frames both ways; with
# madcm, 4b. two connections from one source port (TIME-WAIT reuse) and
# 5. guest a deletes its device with a connection live. Every id
# is destroyed in the end, no PD, CQ or QP is left, rmmod is clean.
. /tests/common.sh
. /tests/ib.sh
. /tests/rdmacm.sh
case $RDMACM_DEV in
rxe) PAIR_RXE=1 DEV=rxe0 ;;
madcm) PAIR_RXE=0 DEV=m0 ;;
*) echo "RDMACM_DEV=$RDMACM_DEV: rxe or madcm"; exit 1 ;;
esac
. /tests/pair.sh

if [ "$RDMACM_DEV" = madcm ]; then
	# Before pair_setup meets the peer: both guests run the same kernel
	# and module, so both skip, or neither, without waiting for the other
	# (which may have skipped and powered off already).
	load_modules virtio_pci virtio_net ib_core madcm
	/bin/ip link set eth0 up
	/bin/rdma link add m0 type madcm netdev eth0 ||
		skip "no madcm RNIC: 'rdma link add m0 type madcm netdev eth0' failed"
fi
pair_setup
/bin/rdma link show
rt_transport $DEV
load_modules rdma_cm madcm_rdmacm_test

# Private data: the client's (REQ), the server's accept (REP), reject (REJ).
CPD=c1e47000010203040506070809
SPD=5e12ae00aabbccddeeff
RPD=4e1ec7ed0bad
PORT_A=7471 PORT_R=7472
REJ_STATUS=$(rt_reject_status)
CLIENT_OK="ADDR_RESOLVED/0,ROUTE_RESOLVED/0,ESTABLISHED/0/$(rt_pd rep $SPD),DISCONNECTED/0"
SERVER_OK="CONNECT_REQUEST/0/$(rt_pd req $CPD),ESTABLISHED/0,DISCONNECTED/0"
CLIENT_REJ="ADDR_RESOLVED/0,ROUTE_RESOLVED/0,REJECTED/$REJ_STATUS/$(rt_pd rej $RPD)"
SERVER_REJ="CONNECT_REQUEST/0/$(rt_pd req $CPD)"
# IB only, and only on a lossy wire: the RTU lost, the client's DREQ
# reaches the server in REP-sent state, before any ESTABLISHED.
SERVER_OK_NO_RTU="CONNECT_REQUEST/0/$(rt_pd req $CPD),DISCONNECTED/0"

if [ $ROLE = a ]; then
	# A specific address and the wildcard.
	check "listen LA $ME:$PORT_A (accept)" rt listen LA $ME $PORT_A mode=accept pdata=$SPD
	check "listen LR 0.0.0.0:$PORT_R (reject)" rt listen LR 0.0.0.0 $PORT_R mode=reject pdata=$RPD
	cat $RT/listeners
fi
pair_barrier 0

# conn_ok NAME EVENTS...: the connection ended with one of EVENTS, on DEV.
conn_ok() {
	local name=$1
	shift
	check "$name: id destroyed" rt_wait_gone "$name" 120
	rt_line "$name"
	check "$name: events" rt_expect "$name" "$@"
	check "$name: on $DEV" [ "$(rt_field "$name" dev)" = $DEV ]
}

# The server's next connection on each listener: LA's are counted here
# (the client may connect before the server could look), LR's counted
# again after each reject (a lost IB REJ brings a new request).
LA_NEXT=0 LR_NEXT=0

# scenarios TAG LOSSY BARRIER: 1-4 above; connections named TAG...
scenarios() {
	local t=$1 lossy=$2 bar=$3 base i n server_ok
	server_ok=$SERVER_OK
	[ "$lossy" = 1 ] && [ "$RT_TP" = ib ] && server_ok="$SERVER_OK $SERVER_OK_NO_RTU"

	# 1. Private data both ways; the client disconnects.
	if [ $ROLE = b ]; then
		check "connect ${t}c1" rt connect ${t}c1 $PEER $PORT_A pdata=$CPD
		check "${t}c1.0 established" rt_wait ${t}c1.0 ESTABLISHED 120
		check "${t}c1.0: disconnect (client)" rt disconnect ${t}c1.0
		conn_ok ${t}c1.0 "$CLIENT_OK"
		check "${t}c1.0: the client disconnected" [ "$(rt_field ${t}c1.0 local_disconnect)" = 1 ]
	else
		base=$LA_NEXT
		LA_NEXT=$((base + 1))
		# The client disconnects as soon as it is established: under
		# loss on IB its DREQ can reach us before a lost RTU's REP is
		# sent again (SERVER_OK_NO_RTU), as in 4.
		if [ "$server_ok" = "$SERVER_OK" ]; then
			check "LA.$base: established" rt_wait LA.$base ESTABLISHED 120
		fi
		conn_ok LA.$base $server_ok
		check "LA.$base: the client disconnected" [ "$(rt_field LA.$base local_disconnect)" = 0 ]
	fi
	pair_barrier $bar

	# 2. Reject with private data.
	if [ $ROLE = b ]; then
		check "connect ${t}r1" rt connect ${t}r1 $PEER $PORT_R pdata=$CPD
		conn_ok ${t}r1.0 "$CLIENT_REJ"
	else
		base=$LR_NEXT
		check "LR.$base: the request came" rt_wait LR.$base CONNECT_REQUEST 120
		conn_ok LR.$base "$SERVER_REJ"
	fi
	pair_barrier $((bar + 1))
	if [ $ROLE = a ]; then
		# An IB REJ that is lost brings the REQ again, as a new request.
		n=$(rt_requests LR)
		LR_NEXT=$n
		[ "$lossy" = 1 ] || check "LR: one request" [ $((n - base)) = 1 ]
		for i in $(seq $((base + 1)) $((n - 1))); do
			conn_ok LR.$i "$SERVER_REJ"
		done
	fi

	# 3. The server disconnects.
	if [ $ROLE = b ]; then
		check "connect ${t}c2" rt connect ${t}c2 $PEER $PORT_A pdata=$CPD
		conn_ok ${t}c2.0 "$CLIENT_OK"
		check "${t}c2.0: the server disconnected" [ "$(rt_field ${t}c2.0 local_disconnect)" = 0 ]
	else
		base=$LA_NEXT
		LA_NEXT=$((base + 1))
		check "LA.$base: established" rt_wait LA.$base ESTABLISHED 120
		check "LA.$base: disconnect (server)" rt disconnect LA.$base
		conn_ok LA.$base "$SERVER_OK"
	fi
	pair_barrier $((bar + 2))

	# 4. 20 connections in a row, each closed by the client.
	if [ $ROLE = b ]; then
		check "connect ${t}s x20 close=1" rt connect ${t}s $PEER $PORT_A pdata=$CPD count=20 close=1
		check "${t}s.19: id destroyed" rt_wait_gone ${t}s.19 600
		# Each one ends on its own: under loss a close may still wait for
		# a FIN or its ACK to be sent again after the last one is gone.
		n=0
		for i in $(seq 0 19); do
			rt_wait_gone ${t}s.$i 120 || n=$((n + 1))
		done
		check "${t}s: all 20 ids destroyed" [ $n = 0 ]
		n=0
		for i in $(seq 0 19); do
			rt_expect ${t}s.$i "$CLIENT_OK" || n=$((n + 1))
		done
		rt_show "${t}s\."
		check "${t}s: 20 connections, each as expected" [ $n = 0 ]
		pair_barrier $((bar + 3))
	else
		base=$LA_NEXT
		LA_NEXT=$((base + 20))
		# Wait for the client to be done with its 20, not for a 20th
		# request here: under loss a connection may end at the client
		# without one (every try of its MPA Request lost within the MPA
		# timeout; testing.rst, "Known failures"), and then the wait
		# for it would outlast the script.
		pair_barrier $((bar + 3)) 900
		n=0
		for i in $(seq $base $((base + 19))); do
			rt_wait_gone LA.$i 120 || n=$((n + 1))
		done
		check "LA.$base-$((base + 19)): all 20 ids destroyed" [ $n = 0 ]
		n=0
		for i in $(seq $base $((base + 19))); do
			rt_expect LA.$i $server_ok || n=$((n + 1))
		done
		for i in $(seq $base $((base + 19))); do rt_show "LA\.$i "; done
		check "LA.$base-$((base + 19)): 20 connections, each as expected" [ $n = 0 ]
		check "LA: every request counted, no more" [ "$(rt_requests LA)" = $LA_NEXT ]
		# The scenarios after go on from the requests there were.
		LA_NEXT=$(rt_requests LA)
	fi
	if [ $ROLE = a ]; then
		check "$t: only the two listeners' ids live" rt_all_released 2
	else
		check "$t: every id destroyed" rt_all_released 0
	fi
	# Before the client's next connect: the server counts its ids first
	# (a CI run saw the next scenario's request counted live here).
	pair_barrier $((bar + 12))
}

scenarios "" 0 1
echo "--- netem: 5% loss both ways"
pair_netem loss 5%
# madcm: its CM's tracepoints
# (Documentation/irdma_cm.rst, how to read them) record the lossy
# scenarios; a failure among them prints the record.
T=/sys/kernel/tracing
lossy_failures=$failures
if [ "$RDMACM_DEV" = madcm ]; then
	[ -d $T/events ] || mount -t tracefs nodev $T
	echo 0 >$T/tracing_on
	echo >$T/trace
	trace_events madcm_cm 1
	echo 1 >$T/tracing_on
fi
scenarios n 1 5
if [ "$RDMACM_DEV" = madcm ]; then
	echo 0 >$T/tracing_on
	trace_events madcm_cm 0
	if [ "$failures" -ne "$lossy_failures" ]; then
		echo "--- madcm_cm trace of the lossy scenarios (the last 600 events)"
		grep -v '^#' $T/trace | tail -600
	fi
	echo >$T/trace
fi
# What netem dropped on this side, and what the CM did about it; after a
# failure, the whole wire.
if [ "$failures" -ne "$lossy_failures" ]; then
	pair_wire_report
else
	/bin/tc -s qdisc show dev eth0
fi
pair_netem off
if [ "$RDMACM_DEV" = madcm ]; then
	grep -vE ' 0$' /sys/kernel/debug/madcm/cm/stats | sed 's/^/  cm: /'
fi
pair_barrier 9

if [ "$RDMACM_DEV" = madcm ]; then
	madcm_host_tcp_check m0
fi

# 4b. madcm only: two connections in a row from one source port, each
# closed by the client. The first leaves its 4-tuple in madcm's TIME-WAIT
# on b; rdma_cm, which picks ports without seeing madcm's TIME-WAITs, can
# pick that port again (here it is asked to): the second connect takes
# the TIME-WAIT over (time_wait_reused) instead of failing with
# EADDRINUSE, as it did before (a CI run lost 21 to it).
# On the host's TCP the host keeps that TIME-WAIT (madcm's CM has none
# to take over): the second connect's steering entry takes the first's
# over, and its segments bypass the host's TIME-WAIT.
if [ "$RDMACM_DEV" = madcm ]; then
	if [ $ROLE = b ]; then
		tw0=$(cm_stat time_wait_reused)
		for i in 1 2; do
			check "connect tw$i from $ME:45071" rt connect tw$i $PEER $PORT_A pdata=$CPD close=1 src=$ME sport=45071
			conn_ok tw$i.0 "$CLIENT_OK"
			check "tw$i.0: from port 45071" [ "$(rt_field tw$i.0 src)" = "$ME:45071" ]
		done
		check "tw2 came while the host kept tw1's TIME-WAIT" [ "$(cm_stat time_wait_reused)" = "$tw0" ]
	else
		for i in 1 2; do
			base=$LA_NEXT
			LA_NEXT=$((base + 1))
			conn_ok LA.$base "$SERVER_OK"
		done
	fi
	pair_barrier 12
fi

# 5. madcm only: guest a deletes its device with a connection and a
# listener on it (issue 17, item 2). Its QP is flushed and reset, the
# connection ends (DISCONNECTED or DEVICE_REMOVAL, whichever of madcm's
# flush and rdma_cm's removal comes first) and its id is destroyed; the
# listener on m0's address gets DEVICE_REMOVAL; the peer's connection is
# reset: DISCONNECTED. Nothing hangs and nothing is left.
if [ "$RDMACM_DEV" = madcm ]; then
	if [ $ROLE = b ]; then
		check "connect rm1" rt connect rm1 $PEER $PORT_A pdata=$CPD
		check "rm1.0 established" rt_wait rm1.0 ESTABLISHED 120
	else
		base=$LA_NEXT
		LA_NEXT=$((base + 1))
		check "LA.$base: established" rt_wait LA.$base ESTABLISHED 120
	fi
	# The live connection is a socket of the host's TCP: ss shows it,
	# with the host's congestion control.
	/bin/ss -tin "( sport = :$PORT_A or dport = :$PORT_A )" >/tmp/ss.out 2>&1
	cat /tmp/ss.out
	check "ss: the connection on port $PORT_A is the host's" grep -q "ESTAB.*:$PORT_A" /tmp/ss.out
	check "ss: with its cwnd" grep -q 'cwnd:' /tmp/ss.out
	pair_barrier 10
	if [ $ROLE = a ]; then
		check "rdma link delete m0, LA.$base live" /bin/rdma link delete m0
		check "m0 is gone" sh -c "! /bin/rdma link show | grep -q m0"
		check "LA.$base: id destroyed" rt_wait_gone LA.$base 60
		rt_line LA.$base
		# Both, too: the ULP destroys its id from a work after
		# DISCONNECTED, and rdma_cm's removal reaches an id not yet
		# destroyed with DEVICE_REMOVAL (cma_process_remove()); seen
		# once on 6.12 with the streams on the host's TCP.
		check "LA.$base: ended by the removal" rt_expect LA.$base \
			"CONNECT_REQUEST/0/$(rt_pd req $CPD),ESTABLISHED/0,DISCONNECTED/0" \
			"CONNECT_REQUEST/0/$(rt_pd req $CPD),ESTABLISHED/0,DEVICE_REMOVAL/0" \
			"CONNECT_REQUEST/0/$(rt_pd req $CPD),ESTABLISHED/0,DISCONNECTED/0,DEVICE_REMOVAL/0"
		grep "^LA " $RT/listeners
		check "LA: DEVICE_REMOVAL" sh -c "grep '^LA ' $RT/listeners | grep -q 'removed=1'"
	else
		check "rm1.0: id destroyed" rt_wait_gone rm1.0 60
		rt_line rm1.0
		check "rm1.0: reset by the peer's removal" rt_expect rm1.0 \
			"ADDR_RESOLVED/0,ROUTE_RESOLVED/0,ESTABLISHED/0/$(rt_pd rep $SPD),DISCONNECTED/0"
	fi
	pair_barrier 11
fi

if [ $ROLE = a ]; then
	check "unlisten LA" rt unlisten LA
	check "unlisten LR" rt unlisten LR
fi
cat $RT/counters
check "every id destroyed, no PD, CQ or QP left" rt_all_released 0
check "no local error" [ "$(rt_counter local_errors)" = 0 ]
check "rmmod madcm_rdmacm_test" rmmod madcm_rdmacm_test
if [ "$RDMACM_DEV" = madcm ] && [ $ROLE = b ]; then
	check "rdma link delete m0" /bin/rdma link delete m0
fi
pair_teardown
finish
