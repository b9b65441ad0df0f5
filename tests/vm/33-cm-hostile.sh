# SPDX-License-Identifier: GPL-2.0
# Hostile peers on plain sockets against a madcm listener: malformed MPA
# frames, private data over 512 bytes, data instead of an MPA request, a
# connection that stalls mid-frame, a SYN flood and a RST flood. The CM
# ends each bad connection, counts it, keeps its good connections, and
# its memory returns to the baseline (no node left).
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
check "attach" cm a attach veth0 rto_min_ms=200 max_retrans=3 mpa_timeout_ms=2000 time_wait_ms=500
check "listen" cm a listen veth0 L 0.0.0.0 6200 policy=accept backlog=16

for mode in badkey bigpd rev3 garbage stall; do
	in_ns b mpa_peer client 192.0.2.1 6200 -x $mode -t 15 >/tmp/h.log 2>&1
	rc=$?
	cat /tmp/h.log
	check "hostile $mode: the CM ended the connection" [ $rc -eq 0 ]
done
cat /debug/madcm/mpa_rejects
grep -E "^(mpa_bad|mpa_timeout|rst_sent) " $CM_STATS
stat() { awk -v k="$1" '$1 == k { print $2 }' $CM_STATS; }
rej() { awk -v k="$1" '$1 == k { print $2 }' /debug/madcm/mpa_rejects; }
# badkey, bigpd, rev3 and garbage (its length field reads 0x7878) are
# refused as soon as their header is in; only the stall waits for the
# MPA timer.
check "four malformed frames refused" [ "$(stat mpa_bad)" -eq 4 ]
check "one stall timed out" [ "$(stat mpa_timeout)" -eq 1 ]
# The key is judged first: garbage counts as a bad key.
check "bad keys counted (badkey, garbage)" [ "$(rej bad_key)" -eq 2 ]
check "bad revision counted" [ "$(rej bad_revision)" -eq 1 ]
check "private data over 512 counted" [ "$(rej private_data_too_long)" -eq 1 ]

# SYN flood from random ports: b's own stack resets the SYN-ACKs, the
# backlog bounds what is pending.
check "SYN flood" in_ns b tcp_flood syn 192.0.2.2 192.0.2.1 6200 2000
sleep 3
grep -E "^(syn_rcvd|backlog_drop|rst_rcvd|live_nodes) " $CM_STATS

# A good client still gets in and stays up through a RST flood with
# random sequence numbers.
in_ns b mpa_peer client 192.0.2.1 6200 -r 2 -t 60 >/tmp/good.log 2>&1 &
good=$!
i=0
until grep -q "^L\.[0-9]* .*ESTABLISHED" $CM/conns || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
line=$(grep "^L\.[0-9]* .*ESTABLISHED" $CM/conns | tail -1)
name=${line%% *}
port=$(echo "$line" | sed 's/.*rem=192.0.2.2:\([0-9]*\).*/\1/')
echo "good connection: $name from port $port"
check "good client established" [ -n "$port" ]
check "RST flood" in_ns b tcp_flood rst 192.0.2.2 192.0.2.1 6200 3000 "$port"
sleep 1
check "the good connection survived the RST flood" sh -c "! grep -q '^$name .*RESET' $CM/conns"
grep -E "^(seq_drop|challenge_ack|rst_rcvd) " $CM_STATS
check "close the good connection" cm a close "$name"
wait $good
cat /tmp/good.log
check "the good client saw a clean close" grep -q "peer: eof" /tmp/good.log

sleep 3	# embryonic connections time out, TIME-WAIT ends
grep -E "^live_nodes " $CM_STATS
check "no node left" grep -q '^live_nodes 0' $CM_STATS
check "detach" cm a detach veth0
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
