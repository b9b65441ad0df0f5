# SPDX-License-Identifier: GPL-2.0
# A SYN in two IP fragments to a madcm listener (tests/vm/frag_peer.c), in
# both families. The host must never answer on a 4-tuple the CM owns:
#  - IPv4: the host reassembles before LOCAL_IN, where the steering hook
#    hands the whole SYN to the CM, which answers SYN-ACK;
#  - IPv6: the host reassembles after LOCAL_IN and would hand the whole
#    SYN to its own TCP, which answers RST (the port is only reserved
#    there); the hook drops the first fragment, counted (rx_drop_frag6),
#    and nothing answers;
#  - a fragmented SYN to a port the CM does not own still reaches the
#    host, which resets it: the fragments themselves are good.
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
check "attach" cm a attach veth0 rto_min_ms=200 max_retrans=3
check "listen L4 on 6600" cm a listen veth0 L4 0.0.0.0 6600 policy=accept
check "listen L6 on 6601" cm a listen veth0 L6 fd00::1 6601 policy=accept
tcpstat() { in_ns a cat /proc/net/snmp | awk -v k="$1" '$1 == "Tcp:" && !h { split($0, n); h = 1; next } $1 == "Tcp:" { for (i = 2; i <= NF; i++) if (n[i] == k) print $i }'; }
rst0=$(tcpstat OutRsts)

r=$(in_ns b frag_peer 192.0.2.1 6600 192.0.2.2 41000)
echo "IPv4, CM's port: $r"
check "IPv4: the CM answered the reassembled SYN" [ "$r" = "reply SYN-ACK" ]

r=$(in_ns b frag_peer fd00::1 6601 fd00::2 41001)
echo "IPv6, CM's port: $r"
check "IPv6: nothing answered" [ "$r" = "reply none" ]
check "IPv6: the first fragment dropped and counted" [ "$(cm_stat rx_drop_frag6)" -eq 1 ]
check "a's host stack sent no RST on the CM's ports" [ "$(tcpstat OutRsts)" -eq "$rst0" ]

r=$(in_ns b frag_peer fd00::1 6699 fd00::2 41002)
echo "IPv6, a port of the host's: $r"
check "IPv6: the host answered on its own port" [ "$r" = "reply RST" ]
check "only the CM's fragment was dropped" [ "$(cm_stat rx_drop_frag6)" -eq 1 ]

check "detach" cm a detach veth0
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
