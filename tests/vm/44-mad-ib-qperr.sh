# SPDX-License-Identifier: GPL-2.0
# madcm's UD QP on rxe forced into the error state, as a device fault
# would, without removing the device (issue 14, item 7). ib_core's MAD
# layer stops reposting receives on a QP in error; madcm must too, bring
# the QP back to RTS with its receive ring, and carry MADs again. Before
# the fix, every flushed receive was posted again into the QP in error
# (a loop of flushes) and no MAD ever left the port again.
. /tests/common.sh
. /tests/ib.sh

# ctr NAME: a counter of madcm's ib port.
ctr() {
	awk -v n="$1" '$1 == n { print $2 }' $port/ib
}

# reach NAME N: wait (up to 10 s) until counter NAME reaches N. madcm
# counts qp_error at the QP's first completion in error
# (madcm_ib_set_broken()), from the CQ's own context after "ibt qperr"
# has returned: read at once, a loaded host showed 0, then 1 a moment
# later (2026-12-06); qp_recovered comes from its work later still.
reach() {
	local i
	for i in $(seq 100); do
		[ "$(ctr "$1")" -ge "$2" ] 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

ib_setup_one
port=/sys/kernel/debug/madcm/ports/rxe0-1
check "madcm opened a port on rxe0" [ -f $port/ib ]
qpn=$(awk '$1 == "qpn" { print $2 }' $port/ib)
gid6=$(ib_gid rxe0 ll)
check "rxe0 has an IPv6 link-local GID" [ -n "$gid6" ]
check "open rxe0" ibt open rxe0
check "before: madcm Get to QP1, ib_core answers" ibt unsupported "$gid6"
check "before: no QP error" [ "$(ctr qp_error)" = 0 ]

for round in 1 2 3; do
	check "round $round: madcm's QP moved to the error state" ibt qperr "$gid6"
	check "round $round: the port saw the error" reach qp_error "$round"
	check "round $round: the QP is back in RTS" reach qp_recovered "$round"
	check "round $round: recovery never failed" [ "$(ctr qp_recover_failed)" = 0 ]
	# Flushed receives are not posted again: at most one flush per
	# receive buffer (2048) per error, and the count stands still.
	f1=$(ctr rx_flushed)
	sleep 1
	f2=$(ctr rx_flushed)
	echo "round $round: rx_flushed $f1, then $f2; qp_error $(ctr qp_error)"
	check "round $round: flushes stand still" [ "$f1" = "$f2" ]
	check "round $round: flushes bounded by the ring" [ "$f2" -le $((2048 * round)) ]
	check "round $round: madcm Get to QP1 after recovery" ibt unsupported "$gid6"
	check "round $round: madcm Get to the ib_core service" ibt kget "$gid6"
	check "round $round: madcm Get to the madcm service" ibt mget "$gid6" "$qpn"
	check "round $round: ib_core Get to the madcm service" ibt kreq "$gid6" "$qpn"
done
sed 's/^/  /' $port/ib
check "close" ibt close
check "no agent left" grep -q "^agents 0$" $port/counters
check "no received MAD left" grep -q "^live_recvs 0$" $port/counters
ib_teardown
finish
