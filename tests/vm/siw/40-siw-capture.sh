# SPDX-License-Identifier: GPL-2.0
# Issue 8, 2: madcm's RTR messages on the wire, for tshark on the host
# (tests/vm/lib/check-siw-capture.sh): a zero-length RDMA Write with and
# without CRC and an RDMA Read Request with CRC to siw, a Send with CRC
# to a second madcm on veth1 (siw never chooses Send). Captured on veth1.
# (siw as a client is 20-siw-client.sh's, in another boot: see
# tests/vm/run-siw.sh.)
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
setup_siw
check "attach veth0" cm a attach veth0 time_wait_ms=500 rtr_delay_ms=50
check "attach veth1" cm b attach veth1 time_wait_ms=500
capture_start b veth1 300 /tmp/siw.pcap
sleep 2

# to_siw NAME PORT OPTS...: madcm connects to a siw server and closes.
to_siw() {
	local name=$1 port=$2
	shift 2
	in_ns b rdmacm_peer server "$port" -t 30 >"/tmp/$name.log" 2>&1 &
	check "$name: the server listens" wait_for "/tmp/$name.log" "rdmacm: listening"
	check "$name: connect" cm a connect veth0 "$name" 192.0.2.1 192.0.2.2 "$port" "$@"
	check "$name: established" wait_event "$name" ESTABLISHED
	check "$name: siw's rdma_cm established" \
		wait_for "/tmp/$name.log" "event RDMA_CM_EVENT_ESTABLISHED status 0"
	check "$name: close" cm a close "$name"
	check "$name: closed" wait_event "$name" CLOSE
	wait_for "/tmp/$name.log" "rdmacm: disconnected"
	cat "/tmp/$name.log"
}

to_siw k1 7100 rev=2 p2p=1 rtr=2 crc=1 pdata=01
to_siw k2 7101 rev=2 p2p=1 rtr=4 crc=1 pdata=02
to_siw k3 7102 rev=2 p2p=1 rtr=2 crc=0 pdata=03

# A Send RTR, to madcm on veth1 (namespace b).
check "listen M on veth1" cm b listen veth1 M 0.0.0.0 8000 policy=accept p2p=1 rtr=1 crc=1
check "k4: connect" cm a connect veth0 k4 192.0.2.1 192.0.2.2 8000 rev=2 p2p=1 rtr=1 crc=1 pdata=04
check "k4: established" wait_event k4 ESTABLISHED
check "k4: Send RTR chosen" [ "$(conn_field k4 rtr)" = 1 ]
check "M.0: established" wait_event M.0 ESTABLISHED
sleep 1
check "k4: close" cm a close k4
check "k4: closed" wait_event k4 CLOSE
sleep 1

capture_stop
check "capture written" [ -s /tmp/siw.pcap ]
echo "=== PCAP siw-capture"
od -An -v -tx1 /tmp/siw.pcap | tr -d ' \n' | fold -w 1024
echo
echo "=== PCAP END"
check "detach veth1" cm b detach veth1
check "detach veth0" cm a detach veth0
teardown_siw
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
