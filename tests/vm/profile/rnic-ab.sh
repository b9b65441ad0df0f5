# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1200
# A/B of an RNIC module parameter in one boot (issue 31, 9; not a test):
# madcm to madcm on one veth pair (as rnic-mm.sh), AB_MIB (64) MiB of
# 1 MiB RDMA Writes, 16 in flight, then 200 Send round trips of 64 B,
# AB_ROUNDS (5) times for each value of AB_PARAM (a madcm parameter
# writable at run time) in AB_VALUES, the values taking turns, so that
# a loaded host's ups and downs fall on all of them alike. Prints each
# run, then each value's median. A value may also set several
# parameters: NAME=VALUE pairs joined by +. The settings come from the kernel's
# command line (ab.param=, ab.values= comma-separated, ab.rounds=, ab.mib=;
# ab.tcp adds kernel TCP's own run, ab.ss the sending socket's TCP_INFO
# busy and window- and buffer-limited times over each run):
#   MADCM_VM_DIR=... MADCM_VM_APPEND="ab.param=rnic_tx_zcopy_min \
#	ab.values=0,4096" tests/vm/run.sh tests/vm/profile/rnic-ab.sh </dev/null
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

SIZE=1048576
AB_TCP=
for a in $(cat /proc/cmdline); do
	case $a in
	ab.param=*) AB_PARAM=${a#*=} ;;
	ab.values=*) AB_VALUES=$(echo "${a#*=}" | tr , ' ') ;;
	ab.rounds=*) AB_ROUNDS=${a#*=} ;;
	ab.mib=*) AB_MIB=${a#*=} ;;
	ab.tcp) AB_TCP=1 ;;
	ab.ss) AB_SS=1 ;;
	esac
done
P=/sys/module/madcm/parameters/${AB_PARAM:-rnic_tx_zcopy_min}
MIB=${AB_MIB:-64}

# the busy share of each CPU between two busy_cpus lines, over TICKS
cpu_share() {
	echo "$1|$2" | awk -F'|' -v t="$3" '{ n = split($1, a, " "); split($2, b, " ")
		for (i = 1; i <= n; i++) printf " %d%%", t ? (b[i] - a[i]) * 100 / t : 0 }'
}

# The link's limit over the same veth: iperf3_window's two seconds.
tcp_run() {
	iperf3_window
	[ -n "$TW_OCTETS" ] || { echo "tcp: nothing acknowledged"; return; }
	awk -v o=$TW_OCTETS -v t=$TW_TICKS -v hz="$hz" \
		-v c="$(cpu_share "$TW_CPUS0" "$TW_CPUS1" $((2 * hz)))" 'BEGIN {
		printf "AB tcp bw %.1f MB/s cpu %.2f ns/B lat - us cpus%s\n",
			o / 2 / 1e6, t * 1e9 / hz / o, c }'
}

# The sending socket's TCP_INFO times (ab.ss): busy, limited by the
# peer's window, limited by the send buffer (ms), as "B R S"; and its cwnd.
tcp_limits() {
	/bin/ss -tin "( dport = :7900 )" | awk '
		{ for (i = 1; i <= NF; i++) {
			split($i, kv, ":"); v = kv[2] + 0
			if (kv[1] == "busy") b = v
			if (kv[1] == "rwnd_limited") r = v
			if (kv[1] == "sndbuf_limited") s = v
			if (kv[1] == "cwnd") c = v } }
		END { printf "%d %d %d %d\n", b, r, s, c }'
}

# set_value V: V is AB_PARAM's value, or NAME=VALUE pairs joined by +
set_value() {
	local kv
	case $1 in
	*=*)
		for kv in $(echo "$1" | tr + ' '); do
			echo "${kv#*=}" >/sys/module/madcm/parameters/${kv%%=*} ||
				fail "set $kv"
		done
		;;
	*) echo "$1" >"$P" ;;
	esac
}

load_modules madcm madcm_rdmacm_test
rdmacm_siw_net
mm_pair bp Lp 7900
check "warm-up" rt bench bp.0 bw $SIZE 8
case "${AB_VALUES:-}" in
*=*) ;;
*) check "parameter $P" test -w "$P" ;;
esac
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
for r in $(seq ${AB_ROUNDS:-5}); do
	[ -n "${AB_TCP:-}" ] && tcp_run
	for v in ${AB_VALUES:-0 4096}; do
		set_value "$v"
		[ -n "${AB_SS:-}" ] && l0=$(tcp_limits)
		t0=$(busy)
		c0=$(busy_cpus)
		rt bench bp.0 bw $SIZE $MIB || { echo "bw failed"; continue; }
		t1=$(busy)
		c1=$(busy_cpus)
		[ -n "${AB_SS:-}" ] && echo "$l0 $(tcp_limits)" | awk -v v="$v" '{
			printf "AB-ss %s busy %d ms rwnd_limited %d ms sndbuf_limited %d ms cwnd %d\n",
				v, $5 - $1, $6 - $2, $7 - $3, $8 }' 
		bns=$(rt_data_field bp.0 bench_ns)
		rt bench bp.0 lat_send 64 200 || { echo "lat failed"; continue; }
		lns=$(rt_data_field bp.0 bench_ns)
		awk -v v="$v" -v b="$bns" -v l="$lns" -v t=$((t1 - t0)) \
			-v hz="$hz" -v m="$MIB" \
			-v c="$(cpu_share "$c0" "$c1" $((bns * hz / 1000000000)))" 'BEGIN {
			printf "AB %s bw %.1f MB/s cpu %.2f ns/B lat %.1f us cpus%s\n", v,
				m * 1048576 * 1000 / b, t * 1e9 / hz / (m * 1048576),
				l / 200 / 1000, c }'
	done
done | tee /tmp/ab.out
check "every run measured" grep -q "^AB " /tmp/ab.out
for v in ${AB_TCP:+tcp} ${AB_VALUES:-0 4096}; do
	for f in 4 7 10; do
		awk -v v="$v" '$1 == "AB" && $2 == v { print $'$f' }' /tmp/ab.out |
			sort -n | awk -v v="$v" -v f=$f '{ a[NR] = $1 } END {
				printf "AB-median %s %s %s\n", v,
					f == 4 ? "bw" : f == 7 ? "cpu" : "lat",
					a[int((NR + 1) / 2)] }'
	done
done
check "disconnect" rt disconnect bp.0
check "gone" rt_wait_gone bp.0 60
finish
