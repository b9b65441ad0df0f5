# SPDX-License-Identifier: GPL-2.0
# Helpers for the VM scripts; source it as ". /tests/common.sh".
# Every failed check prints why and makes the script exit non-zero.

set -u
failures=0
# The failed checks' descriptions, repeated by finish() at the end of
# the log, where the runners' excerpt of a failed script shows them.
failed_checks=

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
	failed_checks="$failed_checks
	$*"
}
ok() { echo "ok: $*"; }

# check DESCRIPTION COMMAND...: run the command, report, count a failure.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}

# skip REASON: the script cannot run here (exit 77, "=== VMTEST SKIP");
# a skip is never a pass, and checks already failed still fail it.
skip() {
	[ "$failures" -eq 0 ] || finish
	echo "SKIP: $*"
	exit 77
}

# The end of every script.
finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed:$failed_checks"
		exit 1
	fi
	exit 0
}

# trace_events GROUP 0|1: disable or enable the trace events of GROUP
# (madcm_cm, madcm_mad), tracefs mounted if it is not. Enabling an event
# patches the kernel's text, and while it is being patched the emulator
# can run a stale copy of it on the other vCPU, looping on the int3 that
# text_poke_bp() put there with interrupts off, until the guest's soft
# lockup watchdog ends the boot (Documentation/testing.rst, Known failures:
# 37-cm-trace). The patched sites are the events' own (madcm's, idle
# when a script turns them on and off) and, with the record-cmd option,
# the scheduler's sched_switch and sched_wakeup, which every CPU runs all
# the time: so record-cmd goes off first (the trace names no tasks then:
# "<...>").
trace_events() {
	local t=/sys/kernel/tracing
	[ -d $t/events ] || mount -t tracefs nodev $t || return 1
	echo 0 >$t/options/record-cmd &&
		echo "$2" >$t/events/"$1"/enable
}

# Load stock modules by name; each one must load.
load_modules() {
	local m
	for m in "$@"; do
		modprobe "$m" || fail "modprobe $m"
	done
}

# Two rxe devices over the two ends of a veth pair in init_net.
setup_rxe_pair() {
	load_modules veth rdma_rxe
	/bin/ip link add veth0 type veth peer name veth1 || fail "veth pair"
	/bin/ip link set veth0 up && /bin/ip link set veth1 up
	/bin/ip addr add 192.0.2.1/24 dev veth0
	/bin/ip addr add 192.0.2.2/24 dev veth1
	/bin/rdma link add rxe0 type rxe netdev veth0 || fail "rdma link add rxe0"
	/bin/rdma link add rxe1 type rxe netdev veth1 || fail "rdma link add rxe1"
}

teardown_rxe_pair() {
	/bin/rdma link delete rxe0 2>/dev/null
	/bin/rdma link delete rxe1 2>/dev/null
	/bin/ip link del veth0 2>/dev/null
}

# The CM's control files (the test tool madcm_cm_ctl.ko, debugfs, also
# reachable inside "ip netns exec") and madcm's own CM counters.
CM=/debug/madcm_cm_ctl
CM_STATS=/debug/madcm/cm/stats

# Two namespaces, a and b, joined by veth0 (a) and veth1 (b).
setup_netns_pair() {
	load_modules veth
	/bin/ip netns add a && /bin/ip netns add b || fail "netns"
	/bin/ip link add veth0 netns a type veth peer name veth1 netns b || fail "veth"
	/bin/ip -n a link set lo up && /bin/ip -n b link set lo up
	/bin/ip -n a addr add 192.0.2.1/24 dev veth0
	/bin/ip -n b addr add 192.0.2.2/24 dev veth1
	/bin/ip -n a addr add fd00::1/64 dev veth0 nodad
	/bin/ip -n b addr add fd00::2/64 dev veth1 nodad
	/bin/ip -n a link set veth0 up && /bin/ip -n b link set veth1 up
}

teardown_netns_pair() {
	/bin/ip netns del a 2>/dev/null
	/bin/ip netns del b 2>/dev/null
}

# link_gone LINK SECONDS: LINK is unregistered within SECONDS. The end of
# a veth pair whose other end was in a namespace just deleted goes when
# that namespace is freed: if something still holds the namespace or
# either device (a process left in it, a leaked reference), it stays.
link_gone() {
	local i=0
	while /bin/ip link show "$1" >/dev/null 2>&1; do
		[ $i -lt $(($2 * 2)) ] || { echo "$1 still there after $2 s"; return 1; }
		sleep 0.5
		i=$((i + 1))
	done
}

# capture_start NS IFNAME SECONDS FILE: pcap_dump on IFNAME in NS, in the
# background, its log in /tmp/cap.log. "ip netns exec" execs pcap_dump
# and the subshell execs ip, so CAP is pcap_dump's own pid: a pid of a
# shell around it, killed, would leave pcap_dump in NS for SECONDS,
# holding the namespace (and its devices) after "ip netns del".
capture_start() {
	(exec /bin/ip netns exec "$1" pcap_dump "$2" "$3" "$4") >/tmp/cap.log 2>&1 &
	CAP=$!
}

# capture_stop: pcap_dump stops (it writes the file out on SIGTERM).
capture_stop() {
	[ -n "${CAP:-}" ] || return 0
	kill "$CAP" 2>/dev/null
	wait "$CAP" 2>/dev/null
	CAP=
	cat /tmp/cap.log
}

# in_ns NS CMD...: run a command in a namespace.
in_ns() {
	local ns=$1
	shift
	/bin/ip netns exec "$ns" "$@"
}

# cm NS COMMAND...: one command to the CM's control file, from NS.
cm() {
	local ns=$1
	shift
	in_ns "$ns" sh -c "echo '$*' > $CM/ctl"
}

# conn_line NAME: the connection's line in the CM's table.
conn_line() {
	grep "^$1 " $CM/conns
}

# conns_count PATTERN: the lines of the CM's table that match PATTERN.
conns_count() {
	grep -c "$1" $CM/conns
}

# conns_wait PATTERN N: wait up to 60 s until N lines of the CM's table
# match PATTERN.
conns_wait() {
	local i=0
	while [ $i -lt 600 ]; do
		[ "$(conns_count "$1")" -ge "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "only $(conns_count "$1") of $2 match '$1'"
	return 1
}

# wait_event NAME EVENT [SECONDS]: wait until the connection saw EVENT.
wait_event() {
	local i=0 max=${3:-20}
	while [ $i -lt $((max * 10)) ]; do
		conn_line "$1" | grep -q "events=[A-Z_,]*$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "no $2 on $1: $(conn_line "$1")"
	return 1
}

# Soft-iWARP on namespace b's end of the pair (setup_netns_pair first):
# siw0 on veth1, 192.0.2.2. siw.ko is one of the KASAN test kernel's
# modules (vmtest-siw-kasan) and rides next to madcm.ko on the stock kernel
# (vmtest-siw); rdma_cm's and the verbs' user interfaces are modules
# there. libcrc32c finds its crc32c only when that is loaded already.
setup_siw() {
	[ -e /sys/module/siw ] || load_modules crc32c_generic siw
	load_modules ib_uverbs rdma_ucm
	in_ns b /bin/rdma link add siw0 type siw netdev veth1 || fail "rdma link add siw0"
	# madcm next to siw: kernel verbs only (run-siw.sh), never siw's ABI
	if [ -e /sys/module/madcm/parameters/rnic_uverbs ]; then
		grep -qx N /sys/module/madcm/parameters/rnic_uverbs ||
			fail "madcm loaded next to siw with rnic_uverbs=Y"
	fi
}

teardown_siw() {
	in_ns b /bin/rdma link delete siw0 2>/dev/null
}

# expect_in LOG PATTERN: a peer's output holds PATTERN.
expect_in() {
	if grep -q "$2" "$1"; then ok "$1: $2"; else fail "$1: $2"; cat "$1"; fi
}

# conn_field NAME FIELD: one field (ird, ord, rtr, ...) of a connection.
conn_field() {
	conn_line "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# cm_stat NAME: a counter of the CM's stats file, summed over devices.
cm_stat() {
	awk -v n="$1" '$1 == n { s += $2 } END { print s + 0 }' $CM_STATS
}

# wait_for FILE PATTERN [SECONDS]: until FILE holds PATTERN.
wait_for() {
	local i=0 max=${3:-30}
	while [ $i -lt $((max * 10)) ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "no '$2' in $1"
	return 1
}

# peer_listening LOG: wait (up to 30 s) until the mpa_peer server whose
# output goes to LOG listens, so that a connect never comes before its
# socket does. A fixed half second was not enough on a loaded host: a
# connect met no listener and was refused (30-cm-linux-peer.sh, c3,
# RESET -111 before "peer: listening", 2026-12-06). Remove LOG before
# the server starts: its redirection truncates it in the child, maybe
# after this looks.
peer_listening() {
	wait_for "$1" "peer: listening" 30
}

# slow_factor: 3 on a KASAN kernel (vmtest-kasan: every instrumented
# access checked, beside another guest on two cores; 3b-cm-synflood.sh
# took 381 s there against 155 s alone, 2026-12-06), else 1. For a
# deadline that stands for "promptly", not for a protocol timer.
slow_factor() {
	if grep -q ' __kasan_check_read$' /proc/kallsyms 2>/dev/null; then
		echo 3
	else
		echo 1
	fi
}

# bench_row NAME MADCM REFERENCE RATIO UNIT: one row of make bench's table
# (scripts/bench.sh collects them); "-" where there is no reference, or
# for a figure that was not measured (then a bench_none line says why),
# and for a ratio unless both figures were measured.
bench_row() {
	printf '=== BENCH %s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5"
}

# bench_none NAME WHY: why a figure of row NAME was not measured
# (scripts/bench.sh lists them after its table).
bench_none() {
	printf '=== BENCH-NONE %s\t%s\n' "$1" "$2"
}

# tcp_ext NAME: a TcpExt counter of this guest's TCP (/proc/net/netstat).
tcp_ext() {
	awk -v n="$1" '$1 == "TcpExt:" {
		if (!h) { for (i = 2; i <= NF; i++) col[$i] = i; h = 1 }
		else if (n in col) print $(col[n]) }' /proc/net/netstat
}

# rnic_stat DEV NAME: one counter of an RNIC's port 1, from rdma statistic.
rnic_stat() {
	/bin/rdma statistic show link "$1"/1 |
		awk -v n="$2" '{ for (i = 1; i < NF; i++) if ($i == n) print $(i + 1) }'
}

# madcm_host_tcp_check DEV: the connections so far went to sockets of
# the host's TCP (host_tcp counted), and no hand-off failed.
madcm_host_tcp_check() {
	echo "$1: host_tcp $(rnic_stat "$1" host_tcp) host_tcp_fail $(rnic_stat "$1" host_tcp_fail) host_tcp_early $(rnic_stat "$1" host_tcp_early) host_tcp_early_drop $(rnic_stat "$1" host_tcp_early_drop) host_tcp_late $(rnic_stat "$1" host_tcp_late) host_tcp_late_drop $(rnic_stat "$1" host_tcp_late_drop)"
	check "$1: streams on the host's TCP" [ "$(rnic_stat "$1" host_tcp)" -gt 0 ]
	check "$1: no hand-off to the host's TCP failed" [ "$(rnic_stat "$1" host_tcp_fail)" = 0 ]
	check "$1: no stream's frames looped back to the CM" [ "$(rnic_stat "$1" host_tcp_late_drop)" = 0 ]
}

# uverbs_prereqs PROGRAM: skip without the user-verbs test program or
# libsiw, then load the RDMA stack and madcm for user verbs.
uverbs_prereqs() {
	[ -x "$1" ] || skip "no $1"
	[ -e /usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so ] ||
		skip "no libsiw in the guest"
	load_modules ib_core iw_cm rdma_cm ib_uverbs rdma_ucm
	check "modprobe madcm" modprobe madcm
}
