# SPDX-License-Identifier: GPL-2.0
# RMPP across the wire between two guests, madcm to madcm, both guests at
# once: each guest's madcm client sends an RMPP Set of 1 MiB (4855
# segments) to the peer's madcm service, which answers with an RMPP
# GetResp of 1 MiB; both transfers are checked byte by byte and by CRC32
# against the pattern the sender was given (madcm_ibtest "rmpp"). Over
# IPv6 link-local and IPv4-mapped GIDs, on a clean wire and again with
# netem dropping 1%, duplicating 1% and reordering 10% of the frames both
# ways. Every transfer must be delivered exactly once (IBTA vol. 1
# 13.6.4: duplicates are dropped, a lost segment is sent again after the
# ACK time), none refused or aborted, nothing left.
. /tests/common.sh
. /tests/ib.sh
. /tests/pair.sh

pair_setup
port=/sys/kernel/debug/madcm/ports/rxe0-1
param=/sys/module/madcm/parameters/rmpp_ack_timeout_ms
check "open rxe0" ibt open rxe0
# The ACK time of the services' answers (sent without a timeout).
ack_ms=$(cat $param)
echo 300 >$param
pair_barrier 0
peer6=$PEER_LL
peer4=::ffff:$PEER
check "the peer's ib_core service names its madcm QPN" ibt peerqpn "$peer6"
pqpn=$(dmesg | sed -n "s/.*madcm_ibtest: peer $peer6: madcm qpn \([0-9]*\).*/\1/p" | tail -1)
check "the peer's madcm QPN is known" [ "${pqpn:-0}" -gt 1 ]

for g in "$peer6" "$peer4"; do
	check "madcm -> the peer's madcm, 1 MiB each way ($g)" ibt rmpp madcm madcm "$g" "$pqpn" 1048576
done
pair_barrier 1

pair_netem loss 1% duplicate 1% delay 1ms reorder 10% 50%
for g in "$peer6" "$peer4"; do
	check "the same over the lossy wire ($g)" ibt rmpp madcm madcm "$g" "$pqpn" 1048576 500
done
pair_barrier 2
pair_netem off
dmesg | grep "madcm_ibtest: rmpp" | sed 's/^/  /'
sed 's/^/  /' $port/counters | grep -E '^  (rmpp_|tx_retry)' | grep -vE ' 0$'
# 2 answers to this guest's Sets and 2 Sets of the peer, twice.
check "8 transfers delivered, each once" grep -q '^rmpp_rx_transfers 8$' $port/counters
check "lost segments were sent again" sh -c "! grep -q '^rmpp_tx_resent_segments 0$' $port/counters"
check "duplicated segments were dropped" sh -c "! grep -q '^rmpp_rx_drop_duplicate 0$' $port/counters"
for c in rmpp_rx_refused_bad rmpp_rx_refused_limit rmpp_rx_timeouts rmpp_tx_aborts rmpp_tx_stops rmpp_rx_aborts rmpp_rx_stops; do
	check "$c: none" grep -q "^$c 0$" $port/counters
done
check "bad network headers: none" grep -q "^rx_drop_bad_network_header 0$" $port/ib
echo "$ack_ms" >$param
pair_barrier 3
check "close" ibt close
check "no agent, received MAD or address handle left" sh -c "grep -q '^agents 0$' $port/counters && grep -q '^live_recvs 0$' $port/counters && grep -q '^live_ahs 0$' $port/counters"
pair_teardown
finish
