# SPDX-License-Identifier: GPL-2.0
# Issue 19: a hostile process on a madcm RNIC (Documentation/
# rnic_uverbs.rst, "Hostile processes"). Its rings are its own memory:
# rnic_uverbs hostile (tests/vm/rnic_uverbs.c) writes crafted SQEs into
# its mmapped SQ and rings the doorbell itself, puts bad RQEs in its RQ,
# fills its rings with garbage flipped during 20000 doorbells, sends a
# kernel work request through POST_SEND, deregisters (and unmaps) an MR a
# Read is landing in, fills its CQ with garbage, exits with Writes in
# flight, and names another process's idle QP in rdma_connect (issue
# 30). Each crafted entry must complete with its error status; then
# the kernel must be alive with no oops, BUG or WARNING, the counters
# moved, and rdma link delete and rmmod clean.
. /tests/common.sh

BIN=/bin/rnic_uverbs
PORT=7481

uverbs_prereqs $BIN
setup_netns_pair
check "rdma link add m0 (a)" in_ns a /bin/rdma link add m0 type madcm netdev veth0
check "rdma link add m1 (b)" in_ns b /bin/rdma link add m1 type madcm netdev veth1

# run_case LOG CMD...: a process of its own, which must end within 60 s
# (its exit included: the kernel tears its objects down); one that hangs
# fails, with its kernel stack and the blocked tasks in the log.
run_case() {
	local out=$1 pid i=0
	shift
	/bin/ip netns exec a "$@" >"$out" 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 $pid 2>/dev/null; then
		fail "$* did not end in 60 s"
		cat /proc/$pid/stack
		echo w >/proc/sysrq-trigger
		dmesg | tail -80
		return 124
	fi
	wait $pid
}

# One server (b) for every case; each case is a process and a connection.
CASES="0 1 2 3 4 5 9 7 6 8"
N=$(( $(echo $CASES | wc -w) + 1 ))
in_ns b $BIN server 192.0.2.2 $PORT $N >/tmp/uvh-server.log 2>&1 &
spid=$!
check "the server listens" wait_for /tmp/uvh-server.log listening 10
for c in $CASES; do
	out=/tmp/uvh-$c.log
	run_case $out $BIN hostile 192.0.2.2 $PORT $c
	rc=$?
	cat $out
	case $c in
	6|7|8)	# no status to expect: the kernel must only survive it
		check "hostile case $c ran" grep -q "hostile case $c" $out ;;
	*)	check "hostile case $c: the error status expected" [ $rc -eq 0 ] ;;
	esac
done
run_case /tmp/uvh-exit.log $BIN exit 192.0.2.2 $PORT
cat /tmp/uvh-exit.log
check "a process exited with Writes in flight" grep -q 'exit with Writes' /tmp/uvh-exit.log
# The server saw every connection end (flushed) and is done.
i=0
while kill -0 $spid 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
check "the server went through every connection" sh -c "! kill -0 $spid 2>/dev/null"
kill $spid 2>/dev/null
cat /tmp/uvh-server.log

# Issue 30, item 8: a process names another process's idle QP in its
# rdma_connect: refused (EINVAL), counted, nothing connects.
/bin/ip netns exec a $BIN victim 192.0.2.2 $PORT >/tmp/uvh-victim.log 2>&1 &
vpid=$!
check "a victim process made a QP" wait_for /tmp/uvh-victim.log qpn 10
qpn=$(sed -n 's/.*qpn \([0-9]*\).*/\1/p' /tmp/uvh-victim.log)
nots=$(rnic_stat m0 qp_not_owner)
run_case /tmp/uvh-steal.log $BIN steal 192.0.2.2 $PORT "${qpn:-0}"
rc=$?
cat /tmp/uvh-steal.log
check "another process's QP $qpn is refused (EINVAL)" [ $rc -eq 0 ]
check "m0 counted the refusal" [ "$(rnic_stat m0 qp_not_owner)" -gt "${nots:-0}" ]
kill $vpid 2>/dev/null
wait $vpid

/bin/rdma statistic show link m0/1
check "m0 counted work request errors" [ "$(rnic_stat m0 wr_error)" -ge 6 ]
check "m0 counted QPs in error" [ "$(rnic_stat m0 qp_error)" -ge 8 ]
check "m0 counted lost completions (a CQ of garbage)" [ "$(rnic_stat m0 cq_overflow)" -ge 1 ]

# Still working: a clean connection after all that.
in_ns b $BIN server 192.0.2.2 $((PORT + 1)) 1 >/tmp/uvh-server2.log 2>&1 &
spid=$!
check "a second server listens" wait_for /tmp/uvh-server2.log listening 10
check "a clean client afterwards" in_ns a $BIN client 192.0.2.2 $((PORT + 1)) 20
wait $spid

check "no oops, BUG or WARNING" sh -c '! dmesg | grep -E "BUG|WARNING|Oops|general protection|KASAN"'
check "rdma link delete m0" /bin/rdma link delete m0
check "rdma link delete m1" /bin/rdma link delete m1
teardown_netns_pair
check "rmmod madcm" rmmod madcm
check "no oops, BUG or WARNING after removal" sh -c '! dmesg | grep -E "BUG|WARNING|Oops|general protection|KASAN"'
finish
