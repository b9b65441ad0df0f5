# SPDX-License-Identifier: GPL-2.0
# Issue 8, 1a: madcm (namespace a, veth0, 192.0.2.1) connects to an
# rdma_cm server listening on soft-iWARP (siw0 on veth1, namespace b)
# with MPA revision 2. The server's rdma_cm reports the connection
# established and the IRD/ORD of both sides agree. Then peer-to-peer:
# siw chooses the RTR type (a zero-length RDMA Write when offered, else a
# Read), waits for the RTR message before it reports ESTABLISHED, and
# drops the connection instead if the FPDU is bad (with CRC on, it checks
# the CRC too). So ESTABLISHED on the server means siw took madcm's RTR.
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
setup_siw
# rtr_delay_ms: siw arms its wait for the RTR only after its reply is
# sent; an RTR in that window is never read (Documentation/irdma_cm.rst).
check "attach" cm a attach veth0 time_wait_ms=500 rtr_delay_ms=50

# one NAME PORT OPTS...: madcm connects to a fresh server, both sides
# must report ESTABLISHED with agreeing IRD/ORD, then madcm closes.
one() {
	local name=$1 port=$2 log=/tmp/$1.log sird sord
	shift 2
	in_ns b rdmacm_peer server "$port" -p c0ffee -t 30 >"$log" 2>&1 &
	check "$name: the server listens" wait_for "$log" "rdmacm: listening"
	check "$name: connect" cm a connect veth0 "$name" 192.0.2.1 192.0.2.2 "$port" "$@"
	check "$name: madcm established" wait_event "$name" ESTABLISHED
	conn_line "$name"
	check "$name: the server's private data" grep -q "^$name .*pdata=c0ffee" $CM/conns
	check "$name: siw's rdma_cm established" \
		wait_for "$log" "event RDMA_CM_EVENT_ESTABLISHED status 0"
	sird=$(sed -n 's/^rdmacm: established ird=\([0-9]*\) .*/\1/p' "$log")
	sord=$(sed -n 's/^rdmacm: established ird=[0-9]* ord=\([0-9]*\) .*/\1/p' "$log")
	echo "$name: madcm ird=$(conn_field "$name" ird) ord=$(conn_field "$name" ord); siw ird=$sird ord=$sord"
	check "$name: madcm's IRD is siw's ORD" [ "$(conn_field "$name" ird)" = "$sord" ]
	check "$name: madcm's ORD is siw's IRD" [ "$(conn_field "$name" ord)" = "$sird" ]
	check "$name: close" cm a close "$name"
	check "$name: closed" wait_event "$name" CLOSE
	wait
	cat "$log"
	expect_in "$log" "rdmacm: device siw0"
	expect_in "$log" "pdata=0102"
	expect_in "$log" "rdmacm: disconnected"
}

# Client-server model, no RTR message.
one s1 7000 rev=2 ird=4 ord=6 pdata=0102
check "s1: no RTR" [ "$(conn_field s1 rtr)" = 0 ]
sent0=$(cm_stat rtr_sent)

# Peer-to-peer, zero-length RDMA Write RTR, no CRC.
one s2 7001 rev=2 ird=4 ord=6 p2p=1 rtr=2 pdata=0102
check "s2: Write RTR chosen" [ "$(conn_field s2 rtr)" = 2 ]
# Peer-to-peer, zero-length RDMA Read RTR, CRC on: siw answers the Read.
drop0=$(cm_stat ulp_bytes_dropped)
one s3 7002 rev=2 ird=4 ord=6 p2p=1 rtr=4 crc=1 pdata=0102
check "s3: Read RTR chosen" [ "$(conn_field s3 rtr)" = 4 ]
# siw's zero-length Read Response: a 20-octet FPDU after the reply.
check "s3: siw answered the Read" [ "$(cm_stat ulp_bytes_dropped)" -ge $((drop0 + 20)) ]
# Peer-to-peer, every type offered, CRC on: siw picks the Write.
one s4 7003 rev=2 ird=2 ord=2 p2p=1 rtr=7 crc=1 pdata=0102
check "s4: Write RTR chosen" [ "$(conn_field s4 rtr)" = 2 ]
check "three RTR messages sent" [ "$(cm_stat rtr_sent)" -eq $((sent0 + 3)) ]
check "no RTR failed" [ "$(cm_stat rtr_fail)" -eq 0 ]

cat $CM_STATS
check "detach" cm a detach veth0
teardown_siw
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
