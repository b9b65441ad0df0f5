# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 600
# A madcm RNIC's streams on the host's own TCP are the host's
# connections for its firewall too (issue 31, item 8). rping -V
# runs for good, a madcm guest serving (guest a, or b when a is siw's),
# the other the client (madcm in make vmpair, siw in make vmpair-mixed).
# On the server, once pings flow:
#   - conntrack sees the connection, both directions: nftables chains
#     on input and output count its segments as "ct state established"
#     (which conntrack gives a connection once it saw both directions).
#     It picks the connection up in mid-stream: the CM's handshake never
#     reached it, so its "original" direction is whichever segment it
#     saw first after the hand-off, not the SYN's;
#   - a rule added now that drops the peer's segments stops the data
#     path: after 2 s for what was in flight, the RNIC receives nothing
#     more for 10 s (rx_bytes). Whether a side also times out depends
#     on which one had bytes unacknowledged at that moment (a peer that
#     stops acknowledging ends within rnic_host_tcp_user_timeout_ms: the
#     first run of this script saw rping end 11 s after the rule with 10
#     s set; a later one on 6.12 found the server idle, waiting);
#   - ss (with tcp_diag) shows that the stream uses timestamps and SACK,
#     which both SYNs offered (issue 31, item 2).
# Then the server takes the rule away and stops its rping: its QP's
# socket is reset, and the client's rping ends too. (madcm's own TCP
# engine, retired since, failed the second check: its frames never
# reached the host's filter after the CM's steering hook.)
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh

check "rping is there" [ -x /bin/rping ]
check "nft is there" [ -x /bin/nft ]
apps_setup
PORT=7720
APPS_N=$((APPS_N + 2))
# The server: guest a, unless a runs siw (its peer's kernel, or its own).
SROLE=a
case $ROLE:$MADCM_PAIR_KERNEL:${MADCM_PAIR_PEER_KERNEL:-stock} in
a:siw*:* | b:*:siw*) SROLE=b ;;
esac
SRV=$(apps_ip $SROLE)

# nft_count CHAIN COMMENT: the packets of the rule with that comment.
nft_count() {
	/bin/nft list chain inet madcm_ht "$1" |
		sed -n "s/.*counter packets \([0-9]*\) .*comment \"$2\".*/\1/p"
}

if [ $ROLE = $SROLE ]; then
	SIDE=server
	# nft's ct expression: its module, and conntrack with it (no
	# request_module in these guests)
	load_modules crc32c_generic nft_ct
	check "nft: table and chains with conntrack" sh -c '
		/bin/nft add table inet madcm_ht &&
		/bin/nft add chain inet madcm_ht in "{ type filter hook input priority 0; }" &&
		/bin/nft add chain inet madcm_ht out "{ type filter hook output priority 0; }" &&
		/bin/nft add rule inet madcm_ht in tcp dport '$PORT' ct state established counter comment \"in-est\" &&
		/bin/nft add rule inet madcm_ht out tcp sport '$PORT' ct state established counter comment \"out-est\"'
	timeout 300 rping -s -v -V -a $SRV -p $PORT -S 64 -C 1000000 >/tmp/rping.out 2>&1 &
	pid=$!
	apps_wait_listen "rping -p $PORT" $pid
	pair_barrier $((APPS_N - 1))
	for i in $(seq 120); do
		[ "$(grep -c '^server ping data' /tmp/rping.out)" -ge 20 ] && break
		sleep 0.5
	done
	check "pings flow" [ "$(grep -c '^server ping data' /tmp/rping.out)" -ge 20 ]
	# With tcp_diag, ss -o prints the TCP_INFO options: both SYNs offered
	# SACK-permitted and timestamps (madcm's CM for its host-TCP
	# streams, Linux's by default), so the repaired socket uses both.
	load_modules inet_diag tcp_diag
	/bin/ss -tino "( sport = :$PORT )" >/tmp/ss.out 2>&1
	sed 's/^/ss: /' /tmp/ss.out
	check "ss: the stream has timestamps (RFC 7323)" grep -qw ts /tmp/ss.out
	check "ss: and SACK (RFC 2018)" grep -qw sack /tmp/ss.out
	/bin/nft list table inet madcm_ht | sed 's/^/nft: /'
	check "conntrack: the peer's segments, established" [ "$(nft_count in in-est)" -gt 0 ]
	check "conntrack: ours, established" [ "$(nft_count out out-est)" -gt 0 ]
	check "nft: drop the peer's segments" /bin/nft add rule inet madcm_ht in tcp dport $PORT drop
	# What is in flight settles; then nothing more may arrive.
	sleep 2
	rx0=$(rnic_stat m0 rx_bytes)
	sleep 10
	rx1=$(rnic_stat m0 rx_bytes)
	echo "m0 rx_bytes: $rx0 two seconds after the rule, $rx1 ten seconds later"
	check "the rule stopped the data path: nothing received for 10 s" [ "$rx1" = "$rx0" ]
	if kill -0 $pid 2>/dev/null; then
		echo "rping -s still waits (no byte of its own unacknowledged)"
	fi
	check "nft: table gone" /bin/nft delete table inet madcm_ht
	# The server's end: its QP's socket is reset, which the client,
	# reachable again, hears.
	kill $pid 2>/dev/null
	wait $pid
	pair_barrier $APPS_N
else
	SIDE=client
	pair_barrier $((APPS_N - 1))
	timeout 300 rping -c -v -V -a $SRV -p $PORT -S 64 -C 1000000 >/tmp/rping.out 2>&1 &
	pid=$!
	pair_barrier $APPS_N
	for i in $(seq 400); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.5
	done
	if kill -0 $pid 2>/dev/null; then
		kill $pid
		RC=running
	else
		wait $pid
		RC=$?
	fi
	tail -5 /tmp/rping.out | sed 's/^/rping -c: /'
	check "rping -c ended once the server's stream was gone" [ "$RC" != running ]
	check "rping -c pinged first" [ "$(grep -c '^ping data' /tmp/rping.out)" -ge 20 ]
fi
if [ "$APPS_DEV" = madcm ]; then
	madcm_host_tcp_check m0
fi

apps_teardown
finish
