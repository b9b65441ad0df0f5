# SPDX-License-Identifier: GPL-2.0
# irdma_cm on a real net_device against the Linux TCP stack: madcm in
# namespace a on veth0, mpa_peer (a plain socket program) in namespace b.
# Active and passive opens, MPA revisions 1 and 2, private data both ways,
# graceful close from either side, a reject, IPv4 and IPv6.
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
check "attach the CM to veth0" cm a attach veth0

# expect_peer LOG PATTERN: the peer's output holds PATTERN.
expect_peer() {
	if grep -q "$2" "$1"; then ok "peer: $2"; else fail "peer: $2"; cat "$1"; fi
}

# 1. madcm connects to a Linux server, revision 2, closes first.
rm -f /tmp/p1.log
in_ns b mpa_peer server 5000 -r 2 -p c0ffee -t 15 >/tmp/p1.log 2>&1 &
peer_listening /tmp/p1.log
check "connect c1 (rev 2)" cm a connect veth0 c1 192.0.2.1 192.0.2.2 5000 rev=2 ird=4 ord=6 pdata=0102030405
check "c1 established" wait_event c1 ESTABLISHED
conn_line c1
check "c1 got the server's private data" grep -q "^c1 .*pdata=c0ffee" $CM/conns
# RFC 6581: the responder lowers its ORD to our IRD (4), its IRD to our ORD (6).
check "c1 negotiated ird=4 ord=6" grep -q "^c1 .*ird=4 ord=6" $CM/conns
check "c1 close" cm a close c1
check "c1 closed" wait_event c1 CLOSE
wait
cat /tmp/p1.log
expect_peer /tmp/p1.log "frame key=Req  flags=0x10 rev=2 pd_len=9"
expect_peer /tmp/p1.log "ird=4 ord=6"
expect_peer /tmp/p1.log "pdata=0102030405"
expect_peer /tmp/p1.log "peer: eof"

# 2. The same in revision 1; the server closes first.
rm -f /tmp/p2.log
in_ns b mpa_peer server 5001 -r 1 -p 99 -c -t 15 >/tmp/p2.log 2>&1 &
peer_listening /tmp/p2.log
check "connect c2 (rev 1)" cm a connect veth0 c2 192.0.2.1 192.0.2.2 5001 rev=1 pdata=abcd
check "c2 established" wait_event c2 ESTABLISHED
check "c2 sees the peer's FIN" wait_event c2 DISCONNECT
# The CM answers the peer's FIN with its own: the close completes alone.
check "c2 closed" wait_event c2 CLOSE
check "c2 events in order" grep -q "^c2 .*events=CONNECT_REPLY,ESTABLISHED,DISCONNECT,CLOSE " $CM/conns
wait
cat /tmp/p2.log
expect_peer /tmp/p2.log "rev=1 pd_len=2"
expect_peer /tmp/p2.log "pdata=abcd"

# 3. The server rejects.
rm -f /tmp/p3.log
in_ns b mpa_peer server 5002 -r 2 -j -p dead -t 15 >/tmp/p3.log 2>&1 &
peer_listening /tmp/p3.log
check "connect c3" cm a connect veth0 c3 192.0.2.1 192.0.2.2 5002
check "c3 rejected" wait_event c3 REJECTED
conn_line c3
wait
cat /tmp/p3.log

# 4. A Linux client connects to a madcm listener, which accepts.
check "listen L1" cm a listen veth0 L1 0.0.0.0 6000 policy=accept pdata=5151
in_ns b mpa_peer client 192.0.2.1 6000 -r 2 -i 3 -o 2 -p 7777 -c -t 15 >/tmp/p4.log 2>&1
cat /tmp/p4.log
expect_peer /tmp/p4.log "accepted by responder"
expect_peer /tmp/p4.log "pdata=5151"
expect_peer /tmp/p4.log "peer: eof"
check "L1.0 established" wait_event L1.0 ESTABLISHED
check "L1.0 got the client's private data" grep -q "^L1.0 .*pdata=7777" $CM/conns
check "L1.0 closed" wait_event L1.0 CLOSE

# 5. ... and over IPv6, a listener that rejects.
check "listen L2 (IPv6, reject)" cm a listen veth0 L2 fd00::1 6001 policy=reject pdata=0bad
in_ns b mpa_peer client fd00::1 6001 -6 -r 2 -t 15 >/tmp/p5.log 2>&1
cat /tmp/p5.log
expect_peer /tmp/p5.log "peer: rejected"
expect_peer /tmp/p5.log "pdata=0bad"

# 6. IPv6 active open.
rm -f /tmp/p6.log
in_ns b mpa_peer server 5003 -6 -r 2 -p 66 -t 15 >/tmp/p6.log 2>&1 &
peer_listening /tmp/p6.log
check "connect c6 (IPv6)" cm a connect veth0 c6 fd00::1 fd00::2 5003
check "c6 established" wait_event c6 ESTABLISHED
check "c6 abort" cm a abort c6
check "c6 reset" wait_event c6 RESET
wait
cat /tmp/p6.log

# The host stack never answered for the CM: no RST from a's stack.
cat $CM/conns
cat $CM_STATS
check "detach" cm a detach veth0
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
