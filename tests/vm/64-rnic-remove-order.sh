# SPDX-License-Identifier: GPL-2.0
# Issue 30, item 11: removing a madcm RNIC does not depend on the order in
# which ib_uverbs, rdma_cm and rdma_ucm were loaded (Documentation/
# rnic.rst, "Removal"). ib_core removes its clients in the reverse order
# of their registration, so madcm's own ib_client runs first only for
# the clients loaded before madcm. On m0 (namespace a), with m1 its peer
# (namespace b): rnic_limits idle (tests/vm/rnic_limits.c) holds m0 open
# with a receive posted on a QP no connection flushes, waiting for its
# CQ's event; rnic_uverbs client runs an rdma_cm connection to its server
# on m1, and madcm_rdmacm_test.ko, an in-kernel rdma_cm ULP, one of its
# own. "rdma link delete m0" must end within 15 s, and both processes
# with it (the idle one's receive flushed, or told the device is gone);
# the ULP is told (DISCONNECTED, or DEVICE_REMOVAL when rdma_cm's client
# goes first) and its id goes.
# First with ib_uverbs, rdma_cm and rdma_ucm loaded before madcm, then
# with rdma_cm and rdma_ucm loaded after it (ib_uverbs cannot be: madcm
# needs its ib_umem_get(), so modprobe loads it first, as checked).
. /tests/common.sh
. /tests/rdmacm.sh

BIN=/bin/rnic_limits
UV=/bin/rnic_uverbs
PORT=7495

# wait_gone PID SECONDS: PID ended within SECONDS.
wait_gone() {
	local i=0
	while kill -0 $1 2>/dev/null && [ $i -lt $(($2 * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! kill -0 $1 2>/dev/null
}

# remove_with_processes ORDER: m0 with an idle process and a connection.
remove_with_processes() {
	local order=$1 idle ishell srv cli del
	check "$order: rdma link add m0" in_ns a /bin/rdma link add m0 type madcm netdev veth0
	check "$order: rdma link add m1" in_ns b /bin/rdma link add m1 type madcm netdev veth1
	in_ns a $BIN idle m0 >/tmp/idle-$order.log 2>&1 &
	ishell=$!
	check "$order: the idle process waits on its CQ" wait_for /tmp/idle-$order.log waiting 30
	idle=$(sed -n 's/^pid //p' /tmp/idle-$order.log)
	in_ns b $UV server 192.0.2.2 $PORT 1 >/tmp/srv-$order.log 2>&1 &
	srv=$!
	check "$order: the server listens" wait_for /tmp/srv-$order.log listening 10
	in_ns a $UV client 192.0.2.2 $PORT 1000000 >/tmp/cli-$order.log 2>&1 &
	cli=$!
	# and an in-kernel rdma_cm ULP's connection from m0
	check "$order: ULP listens on m1" rt ns:b listen L$order 192.0.2.2 $((PORT + 1)) mode=accept
	check "$order: ULP connects from m0" rt ns:a connect C$order 192.0.2.2 $((PORT + 1))
	check "$order: ULP connection established" rt_wait C$order.0 ESTABLISHED 30
	sleep 2
	check "$order: the user connection runs" kill -0 $cli
	/bin/rdma link delete m0 &
	del=$!
	if wait_gone $del 15; then
		ok "$order: rdma link delete m0 ended in 15 s"
	else
		fail "$order: rdma link delete m0 did not end in 15 s"
		cat /proc/$del/stack
		# let the removal go on: the processes close the device
		kill -9 $idle
	fi
	wait $del
	wait $ishell
	cat /tmp/idle-$order.log
	check "$order: the idle process saw its receive flushed or the device go" \
		grep -qE "flushed|device gone" /tmp/idle-$order.log
	check "$order: the client ended with m0" wait_gone $cli 5
	cat /tmp/cli-$order.log
	check "$order: m0 is gone" sh -c '! /bin/rdma link show m0/1 2>/dev/null | grep -q m0'
	# told its connection ended: DISCONNECTED when madcm's client reset
	# the stream first, DEVICE_REMOVAL when rdma_cm's went first
	check "$order: the ULP's id went" rt_wait_gone C$order.0 10
	check "$order: the ULP was told of the removal" \
		sh -c "grep '^C$order.0 ' $RT/conns | grep -qE 'ESTABLISHED/0,(DISCONNECTED|DEVICE_REMOVAL)/'"
	cat $RT/conns
	rt ns:b unlisten L$order
	check "$order: rdma link delete m1" /bin/rdma link delete m1
	check "$order: the server ended" wait_gone $srv 30
	kill $srv 2>/dev/null
	wait $srv
}

[ -x $BIN ] && [ -x $UV ] || skip "no $BIN or $UV"
[ -e /usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so ] ||
	skip "no libsiw in the guest"
setup_netns_pair

# This script's point is the load order, so it starts with no user of the
# RDMA devices, rdma_cm or ib_uverbs: an earlier script of the boot may
# have left one (in make test's vmtest boot, rdma_ucm on rdma_cm and
# rdma_rxe, which needs ib_uverbs' umem, from the MAD scripts on rxe;
# this script alone never saw them). Each one found is named.
for p in /proc/[0-9]*; do
	ls -l $p/fd 2>/dev/null | grep -q ' /dev/infiniband/' || continue
	echo "left by an earlier script: process ${p#/proc/} ($(cat $p/comm))"
	kill -9 ${p#/proc/}
done
for m in rdma_ucm rdma_cm ib_uverbs; do
	for h in /sys/module/$m/holders/*; do
		[ -e "$h" ] || continue
		echo "left by an earlier script: module ${h##*/} on $m"
		rmmod ${h##*/} || lsmod
	done
done

# unload M...: rmmod them; on failure, lsmod says who holds what.
unload() {
	rmmod "$@" && return 0
	lsmod
	return 1
}

# 1. ib_uverbs, rdma_cm and rdma_ucm before madcm.
load_modules ib_core iw_cm rdma_cm ib_uverbs rdma_ucm madcm_rdmacm_test
check "modprobe madcm" modprobe madcm
remove_with_processes before
check "rmmod madcm" rmmod madcm
check "rmmod madcm_rdmacm_test rdma_ucm ib_uverbs rdma_cm" \
	unload madcm_rdmacm_test rdma_ucm ib_uverbs rdma_cm

# 2. madcm first, then rdma_cm and rdma_ucm: their clients go first.
check "modprobe madcm" modprobe madcm
check "ib_uverbs came with madcm (a dependency)" [ -e /sys/module/ib_uverbs ]
check "rdma_cm did not" [ ! -e /sys/module/rdma_cm ]
load_modules rdma_cm rdma_ucm madcm_rdmacm_test
remove_with_processes after
check "rmmod madcm" rmmod madcm
check "rmmod madcm_rdmacm_test" rmmod madcm_rdmacm_test

check "no oops, BUG or WARNING" sh -c '! dmesg | grep -E "BUG|WARNING|Oops|general protection|KASAN"'
teardown_netns_pair
finish
