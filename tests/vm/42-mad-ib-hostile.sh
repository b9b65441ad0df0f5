# SPDX-License-Identifier: GPL-2.0
# Malformed MADs on a real wire: a raw UD QP of madcm_ibtest sends madcm's
# QP one datagram of each kind a MAD layer must reject. Each is counted
# under its reason, the one request that deserves it gets the
# "unsupported" reply, nothing is left allocated, and madcm still serves.
. /tests/common.sh
. /tests/ib.sh

ib_setup_one
port=/sys/kernel/debug/madcm/ports/rxe0-1
gid6=$(ib_gid rxe0 ll)
qpn=$(awk '$1 == "qpn" { print $2 }' $port/ib)
check "open rxe0" ibt open rxe0
cp $port/counters /tmp/before
check "raw UD QP sent every malformed MAD" ibt raw "$gid6" "$qpn"
sleep 1
dmesg | grep "madcm_ibtest: raw"
sed 's/^/  /' $port/counters
# delta NAME: how much counter NAME grew.
delta() {
	echo $(($(awk -v k="$1" '$1 == k { print $2 }' $port/counters) -
		$(awk -v k="$1" '$1 == k { print $2 }' /tmp/before)))
}
check "10 MADs arrived" [ "$(delta rx)" -eq 10 ]
check "short: 100 and 0 bytes" [ "$(delta rx_drop_short)" -eq 2 ]
check "long: 300 bytes" [ "$(delta rx_drop_long)" -eq 1 ]
check "no receive error (the QP survives an oversized datagram)" grep -q "^rx_error_completion 0$" $port/ib
check "unknown base version" [ "$(delta rx_drop_base_version)" -eq 1 ]
check "class version 0x90" [ "$(delta rx_drop_class_version)" -eq 1 ]
check "an SMP on the GSI" [ "$(delta rx_drop_wrong_qp)" -eq 1 ]
check "a CM Get" [ "$(delta rx_drop_bad_method)" -eq 1 ]
check "a response nobody asked for" [ "$(delta rx_drop_unmatched_response)" -eq 1 ]
check "a Send nobody takes" [ "$(delta rx_drop_no_agent)" -eq 1 ]
check "a Get nobody takes: answered unsupported" [ "$(delta tx_unsupported_reply)" -eq 1 ]
check "nothing dispatched to an agent" [ "$(delta rx_dispatched)" -eq 0 ]
check "no received MAD left" grep -q "^live_recvs 0$" $port/counters
check "madcm still serves: Get to the madcm service" ibt mget "$gid6" "$qpn"
check "close" ibt close
check "no address handle left" grep -q "^live_ahs 0$" $port/counters
ib_teardown
finish
