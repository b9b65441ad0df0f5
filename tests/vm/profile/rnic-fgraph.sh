# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1200
# What each FPDU costs on the RNIC's data path (issue 31, 9; not a test):
# madcm to madcm on one veth pair, as rnic-mm.sh, PROFILE_MIB (16) MiB of
# 1 MiB RDMA Writes, 16 in flight, under ftrace's function_graph tracer
# limited to the data path's functions (FGRAPH_FUNCS) and the TCP and
# veth functions they lead to. cpu-clock sampling cannot see inside the
# sections that run with interrupts off (the QP's and the MR table's
# locks); function_graph times every call of the traced functions from
# entry to return, wherever interrupts are.
#
# Prints, per function: calls, total time (its traced callees included),
# self time (without them) and both per call, and the same run untraced
# before it, so that the tracer's own cost shows. Times are the guest's
# clock under TCG: read the shares, not the microseconds.
#   MADCM_VM_APPEND=madcm.rnic_mpa_crc=0 MADCM_VM_DIR=... \
#	tests/vm/run.sh tests/vm/profile/rnic-fgraph.sh </dev/null
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

SIZE=1048576
BYTES=$((${PROFILE_MIB:-16} << 20))
T=/sys/kernel/tracing
FGRAPH_FUNCS=${FGRAPH_FUNCS:-"
	madcm_rnic_qp_tx_run madcm_rnic_qp_tx_room madcm_rnic_stream_send_built
	ks_build_buf ks_send_built ks_tx ks_work ks_room_work ks_write_space
	ks_data_ready ks_recv_actor madcm_rnic_qp_rx_data madcm_mpa_rx_step
	madcm_ddp_parse madcm_rnic_mr_copy_to
	tcp_sendmsg_locked do_tcp_sendpages tcp_write_xmit __tcp_transmit_skb
	veth_xmit tcp_v4_rcv tcp_ack tcp_read_sock skb_seq_read
	__napi_poll net_rx_action process_backlog"}

[ -d $T/options ] || mount -t tracefs tracefs $T 2>/dev/null ||
	T=/sys/kernel/debug/tracing
load_modules madcm madcm_rdmacm_test
rdmacm_siw_net
mm_pair bp Lp 7900
check "warm-up" rt bench bp.0 bw $SIZE 8
check "untraced run" rt bench bp.0 bw $SIZE $((BYTES / SIZE))
echo "untraced bench_ns $(rt_data_field bp.0 bench_ns)"

echo 0 >$T/tracing_on
echo nop >$T/current_tracer
: >$T/trace
: >$T/set_ftrace_filter
for f in $FGRAPH_FUNCS; do
	echo "$f" >>$T/set_ftrace_filter 2>/dev/null || echo "not traceable: $f"
done
echo "traced: $(wc -l <$T/set_ftrace_filter) functions"
echo 65536 >$T/buffer_size_kb
echo function_graph >$T/current_tracer
for o in funcgraph-cpu funcgraph-duration funcgraph-tail; do
	echo 1 >$T/options/$o
done
for o in funcgraph-proc funcgraph-overhead funcgraph-irqs; do
	echo 0 >$T/options/$o 2>/dev/null
done
echo 1 >$T/tracing_on
check "traced run" rt bench bp.0 bw $SIZE $((BYTES / SIZE))
echo 0 >$T/tracing_on
echo "traced bench_ns $(rt_data_field bp.0 bench_ns)"
grep -h . $T/per_cpu/cpu*/stats 2>/dev/null | grep -E '^(entries|overrun)'
# Calls, total and self time per function: a stack per CPU; a callee's
# time is its caller's but not its caller's own.
printf "%-30s %9s %12s %12s %9s %9s %6s\n" function calls "total_us" \
	"self_us" us/call self/call self%
awk '
function name(s) {
	if (match(s, /\/\* [^*]+ \*\//))
		s = substr(s, RSTART + 3, RLENGTH - 6)
	sub(/^[ }]*/, "", s)
	sub(/\(.*/, "", s)
	sub(/ \[[a-z0-9_]+\]$/, "", s)
	return s
}
function dur(s) {
	if (match(s, /[0-9]+\.[0-9]+ us/))
		return substr(s, RSTART, RLENGTH - 3) + 0
	return -1
}
index($0, "|") {
	l = substr($0, 1, index($0, "|") - 1)
	r = substr($0, index($0, "|") + 1)
	if (!match(l, /[0-9]+\)/))
		next
	c = substr(l, RSTART, RLENGTH - 1)
	d = dur(l)
	sub(/^ +/, "", r)
	sub(/ +$/, "", r)
	if (r ~ /\) \{$/) {
		sp[c]++
		st[c "," sp[c]] = name(r)
		ch[c "," sp[c]] = 0
		next
	}
	if (d < 0)
		next
	if (r ~ /^\}/) {
		n = name(r)
		if (sp[c] > 0) {
			self = d - ch[c "," sp[c]]
			sp[c]--
		} else {
			self = d
		}
	} else if (r ~ /\);$/) {
		n = name(r)
		self = d
	} else {
		next
	}
	calls[n]++
	tot[n] += d
	own[n] += self
	all += self
	if (sp[c] > 0)
		ch[c "," sp[c]] += d
}
END {
	for (n in calls)
		printf "%-30s %9d %12.0f %12.0f %9.2f %9.2f %6.1f\n", n,
			calls[n], tot[n], own[n], tot[n] / calls[n],
			own[n] / calls[n], 100 * own[n] / (all ? all : 1)
}' $T/trace | sort -k4 -n -r | head -40
echo nop >$T/current_tracer
: >$T/set_ftrace_filter
echo 1408 >$T/buffer_size_kb
check "disconnect" rt disconnect bp.0
check "gone" rt_wait_gone bp.0 60
finish
