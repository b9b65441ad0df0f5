# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 300
# Issue 31, item 3: why the responder's hold and the initiator's nudge
# (Documentation/rnic_iw.rst) stay on the host's TCP. Each answers a
# window that soft-iWARP (6.1 and 6.12) opens right after the MPA
# exchange; mpa_peer (a plain TCP socket in namespace b, -w) opens the
# same window against the in-kernel ULP on m0 (veth0), whose side Sends
# its advertisement as soon as it is ESTABLISHED:
#   1. madcm responds, mpa_peer initiates and looks for octets behind the
#      MPA reply 300 ms after it, as siw_recv_mpa_rr() does once its
#      work runs ("peer sent extra data" fails siw's connect). With the
#      hold (1 s here, so that a slow guest cannot outlast it) there are
#      none; with the hold off the advertisement is there: the failure
#      the hold prevents.
#   2. madcm initiates, mpa_peer responds and reads nothing for 500 ms
#      after its reply, then waits edge-triggered for a segment, as
#      siw_accept() gives the socket's data_ready to its QP only after
#      the reply. The ULP's advertisement comes in that window and wakes
#      nobody; the nudge (1 s after the hand-off here, after the window
#      however slow the guest) is the segment that does. With the nudge
#      off nothing comes: the stall the nudge prevents.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh

P=/sys/module/madcm/parameters
load_modules ib_core iw_cm rdma_cm
load_modules madcm madcm_rdmacm_test
rdmacm_siw_net
check "rdma link add m0 type madcm netdev veth0" /bin/rdma link add m0 type madcm netdev veth0
hold0=$(cat $P/rnic_responder_hold_ms)
nudge0=$(cat $P/rnic_initiator_nudge_ms)

# responder_case NAME PORT HOLD_MS WANT_EXIT: the ULP listens on m0 with
# the hold at HOLD_MS; mpa_peer's window as siw's initiator.
responder_case() {
	local name=$1 port=$2 rc
	echo $3 > $P/rnic_responder_hold_ms
	check "$name: listen on m0" rt listen $name 192.0.2.1 $port mode=accept data=65536
	in_ns b mpa_peer client 192.0.2.1 $port -r 2 -w 300 -t 20 >/tmp/$name.log 2>&1
	rc=$?
	sed "s/^/$name: /" /tmp/$name.log
	check "$name: mpa_peer exits $4 (got $rc)" [ $rc -eq $4 ]
	check "$name: $name.0 gone" rt_wait_gone $name.0 60
	check "$name: unlisten" rt unlisten $name
}

# initiator_case NAME PORT NUDGE_MS WANT_EXIT: the ULP connects from m0
# with the nudge at NUDGE_MS; mpa_peer's window as siw's responder.
initiator_case() {
	local name=$1 port=$2 pid rc
	echo $3 > $P/rnic_initiator_nudge_ms
	rm -f /tmp/$name.log
	in_ns b mpa_peer server $port -r 2 -w 500 -t 4 >/tmp/$name.log 2>&1 &
	pid=$!
	peer_listening /tmp/$name.log
	check "$name: connect from m0" rt connect $name 192.0.2.2 $port data=65536
	wait $pid
	rc=$?
	sed "s/^/$name: /" /tmp/$name.log
	check "$name: mpa_peer exits $4 (got $rc)" [ $rc -eq $4 ]
	check "$name: its advertisement came in the window" \
		grep -q "^peer: [1-9][0-9]* octets came in the first 500 ms" /tmp/$name.log
	rt destroy $name.0 2>/dev/null
	check "$name: $name.0 gone" rt_wait_gone $name.0 60
}

h0=$(rnic_stat m0 tx_hold)
responder_case H1 7950 1000 0
check "H1: the responder held its first FPDU (tx_hold $h0 -> $(rnic_stat m0 tx_hold))" \
	[ "$(rnic_stat m0 tx_hold)" -gt "$h0" ]
responder_case H0 7951 0 5

n0=$(rnic_stat m0 tx_nudge)
initiator_case N1 7960 1000 0
check "N1: the initiator nudged (tx_nudge $n0 -> $(rnic_stat m0 tx_nudge))" \
	[ "$(rnic_stat m0 tx_nudge)" -gt "$n0" ]
n1=$(rnic_stat m0 tx_nudge)
initiator_case N0 7961 0 5
check "N0: no nudge with 0 ms" [ "$(rnic_stat m0 tx_nudge)" = "$n1" ]

echo $hold0 > $P/rnic_responder_hold_ms
echo $nudge0 > $P/rnic_initiator_nudge_ms
check "every id destroyed, no PD, CQ or QP left" rt_all_released 0
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip netns del b
check "rmmod madcm_rdmacm_test madcm" rmmod madcm_rdmacm_test madcm
finish
