# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1200
# Issue 15 item 2: the control tool madcm_cm_ctl.ko (tests/tools/cm_ctl.c)
# under the interleavings that freed memory still in use: on the stock
# kernel in make test, on the siw test kernel for its KASAN and lockdep in
# make vmtest-siw-kasan (tests/vm/lib/init fails the script on any
# report). madcm in namespace b connects to madcm in namespace a.
#  0. both windows below held open by the tool's test delays;
#  1. accept, reject, close and abort of a's connections race the peer's
#     aborts (their terminal events release the handle the command uses);
#  2. forget races the handlers of the connections it forgets, on both
#     sides;
#  3. a device goes away (its CM core detached and freed) while unlisten,
#     listen and connect commands on it run.
# Afterwards every core must hold no node, the detaches must finish and
# both modules unload.
. /tests/common.sh

N=${CTL_STRESS_N:-60}
R=${CTL_STRESS_ROUNDS:-12}
modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
opts="time_wait_ms=100 rto_min_ms=50 max_retrans=2 mpa_timeout_ms=1000"
check "attach a" cm a attach veth0 $opts
check "attach b" cm b attach veth1 $opts
check "listen M (manual)" cm a listen veth0 M 192.0.2.1 7300 policy=manual backlog=1024
check "listen A (accept)" cm a listen veth0 A 192.0.2.1 7301 policy=accept backlog=1024

# 0. The two windows held open by the tool's test delays (module
#    parameters), so that each is hit every time:
#    a. accept, reject, close and abort wait (cmd_delay_ms) holding the
#       connection while a Linux peer's RST ends it: its RESET releases
#       our handle under the command;
#    b. a connection's handler waits (event_delay_ms) before recording
#       ESTABLISHED while forget drops the record.
P=/sys/module/madcm_cm_ctl/parameters
check "listen W (manual)" cm a listen veth0 W 192.0.2.1 7302 policy=manual
echo 1500 > $P/cmd_delay_ms
w=0
for op in accept reject close abort; do
	in_ns b mpa_peer client 192.0.2.1 7302 -r 2 -x rst -t 5 >/tmp/w$w.log 2>&1 &
	check "W.$w requested" wait_event W.$w CONNECT_REQUEST
	cm a $op W.$w 2>/dev/null
	wait
	check "W.$w reset by the peer while $op waited" wait_event W.$w RESET
	w=$((w + 1))
done
echo 0 > $P/cmd_delay_ms
echo 1500 > $P/event_delay_ms
in_ns b mpa_peer client 192.0.2.1 7301 -r 2 -c -t 10 >/tmp/f.log 2>&1 &
check "A.0 listed" wait_for $CM/conns '^A\.0 ' 10
sleep 0.5	# its ESTABLISHED handler is waiting now
check "forget A.0 under its handler" cm a forget A.0
sleep 2
echo 0 > $P/event_delay_ms
wait
check "forgotten A.0 stays gone" sh -c "! grep -q '^A\.0 ' $CM/conns"

# 1 and 2: four writers at once, each a shell inside its namespace.
in_ns b sh -c "i=0; while [ \$i -lt $N ]; do
	echo connect veth1 m\$i 192.0.2.2 192.0.2.1 7300 > $CM/ctl
	[ \$((i % 3)) -eq 0 ] && echo abort m\$i > $CM/ctl
	[ \$((i % 2)) -eq 0 ] && echo forget m\$i > $CM/ctl
	i=\$((i + 1)); done" 2>/dev/null &
in_ns b sh -c "i=0; while [ \$i -lt $N ]; do
	echo connect veth1 k\$i 192.0.2.2 192.0.2.1 7301 > $CM/ctl
	echo close k\$i > $CM/ctl
	echo forget k\$i > $CM/ctl
	i=\$((i + 1)); done" 2>/dev/null &
in_ns a sh -c "j=0; while [ \$j -lt $N ]; do
	if [ \$((j % 2)) -eq 0 ]; then echo accept M.\$j > $CM/ctl
	else echo reject M.\$j pdata=0bad > $CM/ctl; fi
	echo close M.\$j > $CM/ctl
	[ \$((j % 4)) -eq 1 ] && echo forget M.\$j > $CM/ctl
	j=\$((j + 1)); done" 2>/dev/null &
in_ns a sh -c "j=0; while [ \$j -lt $N ]; do
	echo abort A.\$((j + 1)) > $CM/ctl
	echo forget A.\$((j + 1)) > $CM/ctl
	j=\$((j + 1)); done" 2>/dev/null &
wait
# What the answers missed (connections that came after their turn).
in_ns a sh -c "j=0; while [ \$j -lt $N ]; do
	echo abort M.\$j > $CM/ctl; echo abort A.\$((j + 1)) > $CM/ctl
	j=\$((j + 1)); done" 2>/dev/null
in_ns b sh -c "i=0; while [ \$i -lt $N ]; do
	echo abort m\$i > $CM/ctl; echo abort k\$i > $CM/ctl
	i=\$((i + 1)); done" 2>/dev/null

drained() {
	local i=0
	while [ $i -lt 100 ]; do
		[ "$(cm_stat live_nodes)" -eq 0 ] && return 0
		sleep 0.2
		i=$((i + 1))
	done
	cat $CM_STATS
	return 1
}
check "every node gone after 1 and 2" drained
check "unlisten M" cm a unlisten M
check "unlisten A" cm a unlisten A
check "unlisten W" cm a unlisten W

# 3: a device unregistered while commands on it run.
r=0
while [ $r -lt $R ]; do
	/bin/ip link add x0 netns a type veth peer name x1 netns b || fail "veth x$r"
	/bin/ip -n a addr add 10.99.0.1/24 dev x0
	/bin/ip -n b addr add 10.99.0.2/24 dev x1
	/bin/ip -n a link set x0 up && /bin/ip -n b link set x1 up
	cm a attach x0 $opts || fail "attach x0 ($r)"
	cm b attach x1 $opts || fail "attach x1 ($r)"
	cm a listen x0 X$r 10.99.0.1 7400 policy=accept || fail "listen X$r"
	cm b connect x1 x$r 10.99.0.2 10.99.0.1 7400 || fail "connect x$r"
	in_ns a sh -c "k=0; while [ \$k -lt 20 ]; do
		echo unlisten X$r > $CM/ctl
		echo listen x0 Y${r}_\$k 10.99.0.1 740\$((k % 10)) policy=accept > $CM/ctl
		echo connect x0 y${r}_\$k 10.99.0.1 10.99.0.2 7400 > $CM/ctl
		echo abort y${r}_\$k > $CM/ctl
		k=\$((k + 1)); done" 2>/dev/null &
	in_ns b sh -c "k=0; while [ \$k -lt 20 ]; do
		echo connect x1 z${r}_\$k 10.99.0.2 10.99.0.1 7400 > $CM/ctl
		echo forget z${r}_\$k > $CM/ctl
		k=\$((k + 1)); done" 2>/dev/null &
	sleep 0.$((r % 5))
	/bin/ip -n a link del x0
	wait
	r=$((r + 1))
done
check "x1 went with x0" sh -c "! /bin/ip -n b link show x1 2>/dev/null"

check "every node gone after 3" drained
check "detach a" cm a detach veth0
check "detach b" cm b detach veth1
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
