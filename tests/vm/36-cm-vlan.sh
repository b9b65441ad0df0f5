# SPDX-License-Identifier: GPL-2.0
# The CM over 802.1Q: madcm attached to veth0 serves VLAN 100 (a VLAN
# device above veth0 carries the addresses) against Linux TCP peers on a
# VLAN device in the other namespace; frames leave with the tag inline.
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
load_modules 8021q
setup_netns_pair
/bin/ip -n a link add link veth0 name veth0.100 type vlan id 100 || fail "vlan a"
/bin/ip -n b link add link veth1 name veth1.100 type vlan id 100 || fail "vlan b"
/bin/ip -n a addr add 198.51.100.1/24 dev veth0.100
/bin/ip -n b addr add 198.51.100.2/24 dev veth1.100
/bin/ip -n a link set veth0.100 up && /bin/ip -n b link set veth1.100 up
check "attach to veth0" cm a attach veth0 time_wait_ms=500
ao0=$(cm_stat active_opens) po0=$(cm_stat passive_opens)

rm -f /tmp/v1.log

in_ns b mpa_peer server 5200 -r 2 -p 7601 -t 15 >/tmp/v1.log 2>&1 &
peer_listening /tmp/v1.log
check "connect on VLAN 100" cm a connect veth0 v1 198.51.100.1 198.51.100.2 5200 vlan=100 pdata=7602
check "v1 established" wait_event v1 ESTABLISHED
check "v1 got the reply's private data" grep -q "^v1 .*pdata=7601" $CM/conns
check "madcm made the active open (active_opens)" \
	[ $(( $(cm_stat active_opens) - ao0 )) -eq 1 ]
check "v1 close" cm a close v1
check "v1 closed" wait_event v1 CLOSE
wait
cat /tmp/v1.log
check "the server got the request over the VLAN" grep -q "pdata=7602" /tmp/v1.log

check "listen on VLAN 100" cm a listen veth0 V 0.0.0.0 6500 vlan=100 policy=accept pdata=7603
in_ns b mpa_peer client 198.51.100.1 6500 -r 2 -c -t 15 >/tmp/v2.log 2>&1
cat /tmp/v2.log
check "a Linux client on VLAN 100 accepted" grep -q "accepted by responder" /tmp/v2.log
check "V.0 closed" wait_event V.0 CLOSE
check "madcm took the tagged connection (passive_opens)" \
	[ $(( $(cm_stat passive_opens) - po0 )) -eq 1 ]
sleep 1	# V.0's TIME-WAIT (500 ms) is over: nothing of madcm's on the wire
# Untagged traffic to the same port is not the VLAN listener's: the host
# stack answers (no listener there: connection refused), and madcm sees
# none of it: not a segment, not a SYN, no RST of its own.
grep -E "^(rx_segs|rx_no_conn|syn_rcvd|rst_sent) " $CM_STATS
rx0=$(cm_stat rx_segs) syn0=$(cm_stat syn_rcvd) rst0=$(cm_stat rst_sent)
in_ns b mpa_peer client 192.0.2.1 6500 -r 2 -t 5 >/tmp/v3.log 2>&1
cat /tmp/v3.log
grep -E "^(rx_segs|rx_no_conn|syn_rcvd|rst_sent) " $CM_STATS
check "untagged SYN to the VLAN listener's port refused" grep -q "error connect" /tmp/v3.log
check "madcm saw no untagged segment (rx_segs)" [ "$(cm_stat rx_segs)" -eq "$rx0" ]
check "madcm took no untagged SYN (syn_rcvd)" [ "$(cm_stat syn_rcvd)" -eq "$syn0" ]
check "the RST was the host's, not madcm's (rst_sent)" [ "$(cm_stat rst_sent)" -eq "$rst0" ]
check "detach" cm a detach veth0
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
