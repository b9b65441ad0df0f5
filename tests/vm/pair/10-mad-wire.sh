# SPDX-License-Identifier: GPL-2.0
# madcm across a wire between two guests, both at once: each guest's madcm
# asks the other's ib_core QP1 (a class nobody has: GetResp 0x000C), the
# other's ib_core service and the other's madcm service, over IPv6
# link-local and IPv4-mapped GIDs; the other's ib_core asks this madcm
# service (IPv6); then madcm to madcm, and madcm to the peer's QP1, again
# with netem dropping 20%, duplicating 5% and reordering 25% of the frames
# both ways.
. /tests/common.sh
. /tests/ib.sh
. /tests/pair.sh

pair_setup
port=/sys/kernel/debug/madcm/ports/rxe0-1
check "open rxe0" ibt open rxe0
# Both services are registered before either side asks.
pair_barrier 0
peer6=$PEER_LL
peer4=::ffff:$PEER
check "the peer's ib_core service names its madcm QPN" ibt peerqpn "$peer6"
pqpn=$(dmesg | sed -n "s/.*madcm_ibtest: peer $peer6: madcm qpn \([0-9]*\).*/\1/p" | tail -1)
echo "peer's madcm QPN: $pqpn"
check "the peer's madcm QPN is known" [ "${pqpn:-0}" -gt 1 ]

for g in "$peer6" "$peer4"; do
	check "madcm Get to the peer's QP1 ($g): ib_core answers 0x000C" ibt unsupported "$g"
	check "madcm Get to the peer's ib_core service ($g)" ibt kget "$g"
	check "madcm Get to the peer's madcm service ($g)" ibt mget "$g" "$pqpn"
done
check "ib_core Get to the peer's madcm service ($peer6)" ibt kreq "$peer6" "$pqpn"
check "the kernel log shows the peer's status 0x000c" sh -c 'dmesg | grep -q "unsupported class to QP1: PASS.*status 0x000c"'
pair_barrier 1

pair_netem loss 20% duplicate 5% delay 2ms reorder 25% 50%
lossy=0 unsup=0
for i in $(seq 10); do
	for g in "$peer6" "$peer4"; do
		ibt mget "$g" "$pqpn" || lossy=$((lossy + 1))
	done
done
for i in $(seq 3); do
	for g in "$peer6" "$peer4"; do
		ibt unsupported "$g" || unsup=$((unsup + 1))
	done
done
check "20 madcm requests over the lossy wire all answered" [ $lossy -eq 0 ]
check "6 Gets to the peer's QP1 over the lossy wire: 0x000C each" [ $unsup -eq 0 ]
pair_barrier 2
pair_netem off
sed 's/^/  /' $port/counters | grep -vE ' 0$'
check "lost MADs were sent again" sh -c "! grep -q '^tx_retry 0$' $port/counters"
check "bad network headers: none" grep -q "^rx_drop_bad_network_header 0$" $port/ib
pair_barrier 3
check "close" ibt close
check "no agent, received MAD or address handle left" sh -c "grep -q '^agents 0$' $port/counters && grep -q '^live_recvs 0$' $port/counters && grep -q '^live_ahs 0$' $port/counters"
pair_teardown
finish
