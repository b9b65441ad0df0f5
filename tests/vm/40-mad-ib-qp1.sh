# SPDX-License-Identifier: GPL-2.0
# madcm on a real ib_core device, one guest, one rxe device: madcm's own UD
# QP and ib_core's QP1 on the same device talk through rxe's loopback path.
# madcm asks QP1 for a class nobody registered and gets ib_core's own
# GetResp with status 0x000C; a madcm agent and an ib_core agent answer
# each other's Gets; over IPv6 link-local and IPv4-mapped GIDs.
. /tests/common.sh
. /tests/ib.sh

ib_setup_one
ctl=$IBT_CTL
port=/sys/kernel/debug/madcm/ports/rxe0-1
check "madcm opened a port on rxe0" [ -f $port/ib ]
cat $port/ib
qpn=$(awk '$1 == "qpn" { print $2 }' $port/ib)
check "madcm's QP is not QP0 or QP1" [ "${qpn:-0}" -gt 1 ]
gid6=$(ib_gid rxe0 ll)
gid4=$(ib_gid rxe0 v4)
echo "GIDs: IPv6 link-local $gid6, IPv4-mapped $gid4, madcm QPN $qpn"
check "rxe0 has an IPv6 link-local GID" [ -n "$gid6" ]
check "rxe0 has an IPv4-mapped GID" [ -n "$gid4" ]

check "open rxe0" ibt open rxe0
for g in "$gid6" "$gid4"; do
	check "madcm Get to QP1 ($g): ib_core answers 0x000C" ibt unsupported "$g"
	check "madcm Get to the ib_core service ($g)" ibt kget "$g"
	check "madcm Get to the madcm service on QPN $qpn ($g)" ibt mget "$g" "$qpn"
done
# ib_core as the requester: IPv6 only (6.1's ib_mad cannot match
# responses that come over RoCE v2 IPv4).
check "ib_core Get to the madcm service ($gid6)" ibt kreq "$gid6" "$qpn"
check "the kernel log shows status 0x000c" sh -c 'dmesg | grep -q "unsupported class to QP1: PASS.*method 0x81, status 0x000c"'
sed 's/^/  /' $port/counters
check "madcm answered nothing itself" grep -q "^tx_unsupported_reply 0$" $port/counters
check "close" ibt close
check "no agent left" grep -q "^agents 0$" $port/counters
check "no received MAD left" grep -q "^live_recvs 0$" $port/counters
check "no address handle left" grep -q "^live_ahs 0$" $port/counters
check "bad network headers: none" grep -q "^rx_drop_bad_network_header 0$" $port/ib
ib_teardown
finish
