# SPDX-License-Identifier: GPL-2.0
# The CM's tracepoints (trace system madcm_cm), read through tracefs the
# way Documentation/irdma_cm.rst describes. A connection to the Linux TCP
# stack, one the peer's stack refuses and one to a host that never
# answers must show up as state changes, MPA frames out and in, steering
# entries and decisions, a received reset and retransmissions.
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T || fail "mount tracefs"
check "trace system madcm_cm" test -d $T/events/madcm_cm
for e in state mpa_tx mpa_rx retransmit reset reply_rst steer qhash; do
	check "event madcm_cm_$e" test -d $T/events/madcm_cm/madcm_cm_$e
done
echo 0 > $T/tracing_on
echo > $T/trace
check "madcm_cm events on" trace_events madcm_cm 1
echo 1 > $T/tracing_on

setup_netns_pair
check "attach the CM to veth0" cm a attach veth0

# 1. madcm connects to a Linux server, revision 2, and closes first.
rm -f /tmp/p1.log
in_ns b mpa_peer server 5000 -r 2 -p c0ffee -t 15 >/tmp/p1.log 2>&1 &
peer_listening /tmp/p1.log
check "connect c1" cm a connect veth0 c1 192.0.2.1 192.0.2.2 5000 rev=2 ird=4 ord=6
check "c1 established" wait_event c1 ESTABLISHED
check "c1 close" cm a close c1
check "c1 closed" wait_event c1 CLOSE
wait

# 2. No server on the port: the peer's stack answers the SYN with a RST.
check "connect c2 (no server)" cm a connect veth0 c2 192.0.2.1 192.0.2.2 5999
check "c2 reset" wait_event c2 RESET

# 3. Nobody at 192.0.2.3: the SYN is retransmitted until we abort.
check "connect c3 (no host)" cm a connect veth0 c3 192.0.2.1 192.0.2.3 5000
check "c3 retransmits" wait_for $T/trace "madcm_cm_retransmit:" 10
check "c3 abort" cm a abort c3
check "c3 reset" wait_event c3 RESET

echo 0 > $T/tracing_on
cat $T/trace >/tmp/trace.txt
check "madcm_cm events off" trace_events madcm_cm 0
grep -c madcm_cm_ /tmp/trace.txt
grep madcm_cm_ /tmp/trace.txt | grep -v "madcm_cm_steer" | head -60

# expect_trace DESCRIPTION PATTERN: an event line matches PATTERN.
expect_trace() {
	if grep -q "$2" /tmp/trace.txt; then ok "trace: $1"; else fail "trace: $1 ($2)"; fi
}
expect_trace "c1 handshake done" "madcm_cm_state: .*:5000 SYN-SENT -> MPA-REQ-SENT"
expect_trace "c1 request out" "madcm_cm_mpa_tx: .*:5000 request rev=2 flags=0x10 pd_len=4 ird=0x.004 ord=0x.006 status=0"
expect_trace "c1 reply in" "madcm_cm_mpa_rx: .*:5000 reply rev=2 .*pd_len=7 .*status=0"
expect_trace "c1 established" "madcm_cm_state: .*:5000 MPA-REQ-SENT -> ESTABLISHED mpa=accepted"
expect_trace "c1 closes" "madcm_cm_state: .*:5000 ESTABLISHED -> FIN-WAIT-1"
expect_trace "c1 TIME-WAIT" "madcm_cm_state: .*:5000 [A-Z0-9-]* -> TIME-WAIT mpa=accepted"
expect_trace "c1 steering entry added" "madcm_cm_qhash: add conn .*192.0.2.1:[0-9]*-::ffff:192.0.2.2:5000 vlan=65535 ret=0"
expect_trace "c1 segments stolen" "madcm_cm_steer: .*192.0.2.1:[0-9]*-::ffff:192.0.2.2:5000 vlan=65535 cm:conn"
expect_trace "c2 refused" "madcm_cm_reset: .*:5999 SYN-SENT peer status=-111"
expect_trace "c3 retransmits its SYN" "madcm_cm_retransmit: .*192.0.2.3:5000 SYN-SENT retrans=1 "
expect_trace "c3 aborted" "madcm_cm_reset: .*192.0.2.3:5000 SYN-SENT local status=-103"

check "detach" cm a detach veth0
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
