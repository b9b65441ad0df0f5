# SPDX-License-Identifier: GPL-2.0
# Steering takes only what is the host's (Documentation/irdma_cm_netdev.rst):
# three namespaces, a - r - c, r routing between 192.0.2.0/24 (veth0 in a,
# veth1 in r) and 198.51.100.0/24 (veth2 in r, veth3 in c).
#  1. madcm on r's veth1 with wildcard listeners: a plain TCP connection
#     from a to c crosses r untouched, and r's CM sees none of it.
#  2. r's firewall drops a port: a madcm listener on that port in r gets no
#     SYN, and a listener on another port still serves.
#  3. r fragments what c sends to a (veth1's MTU is 400, c sends without
#     DF): a madcm listener in a gets its MPA request whole, and the host
#     answers nothing (no RST).
#  4. IPv6 with a Destination Options header in every segment (c's
#     socket asks for it): a madcm listener in a serves it.
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
# libcrc32c (for nf_tables) asks the crypto API for crc32c: load it first.
load_modules veth crc32c_generic nf_tables
for n in a r c; do /bin/ip netns add $n || fail "netns $n"; done
/bin/ip link add veth0 netns a type veth peer name veth1 netns r || fail "veth0"
/bin/ip link add veth2 netns r type veth peer name veth3 netns c || fail "veth2"
for n in a r c; do /bin/ip -n $n link set lo up; done
/bin/ip -n a addr add 192.0.2.1/24 dev veth0
/bin/ip -n r addr add 192.0.2.2/24 dev veth1
/bin/ip -n r addr add 198.51.100.1/24 dev veth2
/bin/ip -n c addr add 198.51.100.2/24 dev veth3
/bin/ip -n a addr add fd00::1/64 dev veth0 nodad
/bin/ip -n r addr add fd00::2/64 dev veth1 nodad
/bin/ip -n r addr add fd01::1/64 dev veth2 nodad
/bin/ip -n c addr add fd01::2/64 dev veth3 nodad
/bin/ip -n a link set veth0 up
/bin/ip -n r link set veth1 up
/bin/ip -n r link set veth2 up
/bin/ip -n c link set veth3 up
/bin/ip -n a route add default via 192.0.2.2
/bin/ip -n c route add default via 198.51.100.1
/bin/ip -n a -6 route add default via fd00::2
/bin/ip -n c -6 route add default via fd01::1
in_ns r sysctl -qw net.ipv4.ip_forward=1
in_ns r sysctl -qw net.ipv6.conf.all.forwarding=1

# r_stat NAME: r's CM counter (only r's device is attached in 1 and 2).
r_stat() { cm_stat "$1"; }

# 1. A forwarding host: a wildcard listener takes no transit segment.
check "attach the CM to r's veth1" cm r attach veth1
# :: is the wildcard of both families with net.ipv6.bindv6only=0
# (Documentation/irdma_cm_netdev.rst).
check "listen R1 (any address) on 7000" cm r listen veth1 R1 :: 7000 policy=accept
seg0=$(r_stat rx_segs) syn0=$(r_stat syn_rcvd) rst0=$(r_stat rst_sent)
rm -f /tmp/s1.log
in_ns c mpa_peer server 7000 -r 2 -p 0c -t 15 >/tmp/s1.log 2>&1 &
peer_listening /tmp/s1.log
in_ns a mpa_peer client 198.51.100.2 7000 -r 2 -p 0a -c -t 15 >/tmp/c1.log 2>&1
wait
cat /tmp/c1.log
check "a's connection through r reached c" grep -q "accepted by responder" /tmp/c1.log
check "c got a's request" grep -q "pdata=0a" /tmp/s1.log
rm -f /tmp/s1b.log
in_ns c mpa_peer server 7000 -6 -r 2 -p 6c -t 15 >/tmp/s1b.log 2>&1 &
peer_listening /tmp/s1b.log
in_ns a mpa_peer client fd01::2 7000 -6 -r 2 -p 6a -c -t 15 >/tmp/c1b.log 2>&1
wait
check "the same over IPv6" grep -q "accepted by responder" /tmp/c1b.log
check "r's CM saw no segment of it" [ "$(r_stat rx_segs)" -eq "$seg0" ]
check "r's CM saw no SYN" [ "$(r_stat syn_rcvd)" -eq "$syn0" ]
check "r's CM sent no RST" [ "$(r_stat rst_sent)" -eq "$rst0" ]

# 2. r's firewall has its say: port 7001 dropped at input.
check "nft table" in_ns r nft add table inet madcm_test
check "nft input chain" in_ns r nft add chain inet madcm_test input \
	'{ type filter hook input priority 0; policy accept; }'
check "nft drops tcp 7001" in_ns r nft add rule inet madcm_test input tcp dport 7001 drop
check "listen F on 7001" cm r listen veth1 F 192.0.2.2 7001 policy=accept
syn0=$(r_stat syn_rcvd)
in_ns a sysctl -qw net.ipv4.tcp_syn_retries=1	# give up after ~3 s
in_ns a mpa_peer client 192.0.2.2 7001 -r 2 -t 3 >/tmp/c2.log 2>&1
in_ns a sysctl -qw net.ipv4.tcp_syn_retries=6
cat /tmp/c2.log
check "the dropped port is not served" sh -c '! grep -q "accepted by responder" /tmp/c2.log'
check "madcm saw no SYN on it" [ "$(r_stat syn_rcvd)" -eq "$syn0" ]
check "F has no connection" sh -c "! grep -q '^F\.0 ' $CM/conns"
in_ns a mpa_peer client 192.0.2.2 7000 -r 2 -c -t 15 >/tmp/c2b.log 2>&1
check "port 7000 (not dropped) is served" grep -q "accepted by responder" /tmp/c2b.log
check "R1.0 established" wait_event R1.0 ESTABLISHED
check "detach r" cm r detach veth1

# 3. Fragments: r's veth1 has an MTU of 400 and c sends without DF.
/bin/ip -n r link set veth1 mtu 400
in_ns c sysctl -qw net.ipv4.ip_no_pmtu_disc=1
check "attach the CM to a's veth0" cm a attach veth0
check "listen A on 7100" cm a listen veth0 A 0.0.0.0 7100 policy=accept pdata=a1
rst0=$(cm_stat rst_sent)
pd=$(printf '%0960d' 0 | tr 0 5)	# 480 octets: a 544-octet datagram
in_ns c mpa_peer client 192.0.2.1 7100 -r 2 -p "$pd" -c -t 15 >/tmp/c3.log 2>&1
cat /tmp/c3.log
check "c's fragmented request was served" grep -q "accepted by responder" /tmp/c3.log
check "A.0 got the fragmented private data" grep -q "^A\.0 .*pdata=5555" $CM/conns
check "A.0 established" wait_event A.0 ESTABLISHED
ipstat() { in_ns a cat /proc/net/snmp | awk -v k="$1" '$1 == "Ip:" && !h { split($0, n); h = 1; next } $1 == "Ip:" { for (i = 2; i <= NF; i++) if (n[i] == k) print $i }'; }
check "a reassembled fragments" [ "$(ipstat ReasmOKs)" -ge 1 ]
tcpstat() { in_ns a cat /proc/net/snmp | awk -v k="$1" '$1 == "Tcp:" && !h { split($0, n); h = 1; next } $1 == "Tcp:" { for (i = 2; i <= NF; i++) if (n[i] == k) print $i }'; }
check "a's host stack sent no RST" [ "$(tcpstat OutRsts)" -eq 0 ]

# 4. IPv6 with a Destination Options header in every segment. An MTU
# below IPv6's 1280 took r's IPv6 address on veth1 away: back to 1500.
/bin/ip -n r link set veth1 mtu 1500
/bin/ip -n r addr add fd00::2/64 dev veth1 nodad
check "listen A6 on 7101" cm a listen veth0 A6 :: 7101 policy=accept pdata=a6
in_ns c mpa_peer client fd00::1 7101 -6 -D -r 2 -p 6d -c -t 15 >/tmp/c4.log 2>&1
cat /tmp/c4.log
check "c's request behind Destination Options was served" \
	grep -q "accepted by responder" /tmp/c4.log
check "A6.0 got the private data" grep -q "^A6\.0 .*pdata=6d" $CM/conns
check "a's host stack still sent no RST" [ "$(tcpstat OutRsts)" -eq 0 ]
check "no segment refused for its extension headers" \
	sh -c "! grep -E '^seg_bad_ipv6_ext_header +[1-9]' $CM_STATS"

check "detach a" cm a detach veth0
for n in a r c; do /bin/ip netns del $n; done
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
