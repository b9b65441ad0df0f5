# SPDX-License-Identifier: GPL-2.0
# RMPP between madcm and the kernel's own MAD layer (ib_mad, mad_rmpp.c),
# one guest, one rxe device, through rxe's loopback path. Each exchange is
# an RMPP Set from a client to a service (vendor class 0x32 of range 2,
# RMPP version 1, an OUI per service) answered by an RMPP GetResp of the
# same length, so every exchange is a transfer each way; madcm_ibtest
# checks both byte by byte and by CRC32 against the pattern the sender
# was given. madcm -> ib_core and ib_core -> madcm from one segment to
# 1 MiB over IPv6 link-local GIDs; over IPv4-mapped GIDs only a one-segment
# exchange with ib_core (6.1's ib_mad cannot match responses, nor the
# ACKs of its own multi-segment sends, that come over RoCE v2 IPv4);
# madcm -> madcm 1 MiB over both.
. /tests/common.sh
. /tests/ib.sh

ib_setup_one
port=/sys/kernel/debug/madcm/ports/rxe0-1
qpn=$(awk '$1 == "qpn" { print $2 }' $port/ib)
gid6=$(ib_gid rxe0 ll)
gid4=$(ib_gid rxe0 v4)
echo "GIDs: IPv6 link-local $gid6, IPv4-mapped $gid4, madcm QPN $qpn"
check "open rxe0" ibt open rxe0

# One segment holds 216 bytes of vendor data; 216 * 5 = 1080 is an exact
# multiple, 1 MiB = 4855 segments with the last one partly filled.
for len in 100 1080 65536 1048576; do
	check "madcm -> ib_core, $len bytes each way ($gid6)" ibt rmpp madcm kernel "$gid6" 1 $len
	check "ib_core -> madcm, $len bytes each way ($gid6)" ibt rmpp kernel madcm "$gid6" "$qpn" $len
done
# Over IPv4 ib_core cannot match the ACKs of its own answer (the IPv4
# header read as a GRH again), so only a one-segment answer gets through.
check "madcm -> ib_core, 100 bytes each way ($gid4)" ibt rmpp madcm kernel "$gid4" 1 100
for g in "$gid6" "$gid4"; do
	check "madcm -> madcm, 1 MiB each way ($g)" ibt rmpp madcm madcm "$g" "$qpn" 1048576
done
dmesg | grep "madcm_ibtest: rmpp" | sed 's/^/  /'
check "no transfer was found wrong" sh -c '! dmesg | grep -q "madcm_ibtest:.*\(WRONG\|FAIL\)"'
sed 's/^/  /' $port/counters | grep -E '^  rmpp_' | grep -vE ' 0$'
# madcm received 13 transfers: the answers to its 5 Sets to ib_core, the
# 4 Sets of ib_core, and both halves of the 2 madcm -> madcm exchanges.
check "madcm delivered 13 reassembled transfers" grep -q '^rmpp_rx_transfers 13$' $port/counters
check "madcm's transfers were acknowledged" sh -c "! grep -q '^rmpp_tx_transfers 0$' $port/counters"
for c in rmpp_rx_refused_bad rmpp_rx_refused_limit rmpp_rx_timeouts rmpp_tx_aborts rmpp_tx_stops rmpp_rx_aborts rmpp_rx_stops; do
	check "$c: none" grep -q "^$c 0$" $port/counters
done
check "close" ibt close
check "no agent, received MAD or address handle left" sh -c "grep -q '^agents 0$' $port/counters && grep -q '^live_recvs 0$' $port/counters && grep -q '^live_ahs 0$' $port/counters"
ib_teardown
finish
