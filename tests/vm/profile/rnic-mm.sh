# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1200
# vm-progs: perf
# Where the RNIC's data path spends its time (issue 31, 9; not a test):
# madcm to madcm on one veth pair (m0 on veth0, m1 on veth1 in namespace
# b), PROFILE_MIB (256) MiB of 1 MiB RDMA Writes, 16 in flight, while
# perf samples every CPU (cpu-clock: TCG has no PMU). Prints the
# heaviest symbols, both ends together (one guest).
#   MADCM_VM_DIR=... tests/vm/run.sh tests/vm/profile/rnic-mm.sh </dev/null
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

sysctl net.ipv4.tcp_wmem net.ipv4.tcp_rmem 2>/dev/null || cat /proc/sys/net/ipv4/tcp_[wr]mem

SIZE=1048576
BYTES=$((${PROFILE_MIB:-256} << 20))

load_modules madcm madcm_rdmacm_test
rdmacm_siw_net
mm_pair bp Lp 7900
# warm up, then the profiled run
check "warm-up" rt bench bp.0 bw $SIZE 8
/bin/perf record -q -e cpu-clock -F 499 -a -g -o /tmp/perf.data >/tmp/perf.out 2>&1 &
ppid=$!
sleep 1
cp /proc/net/netstat /tmp/netstat.0
rt bench bp.0 bw $SIZE $((BYTES / SIZE)) >/tmp/bw.out 2>&1 &
bpid=$!
sleep 1
/bin/ss -tinoem
in_ns b /bin/ss -tinoem
check "Write bandwidth under perf" wait $bpid
awk 'NR % 2 == 1 { split($0, k) } NR % 2 == 0 { for (i = 2; i <= NF; i++) v[k[1] k[i]] = $i }
	END { while ((getline l < "/proc/net/netstat") > 0) { n = split(l, a); if (a[2] !~ /^[0-9]/) { split(l, kk); continue }
		for (i = 2; i <= n; i++) if (a[i] - v[kk[1] kk[i]] != 0) printf "%s%s +%d\n", kk[1], kk[i], a[i] - v[kk[1] kk[i]] } }' /tmp/netstat.0
kill -INT $ppid
wait $ppid
echo "bench_ns $(rt_data_field bp.0 bench_ns)"
cat /tmp/perf.out
/bin/perf report -i /tmp/perf.data --stdio --no-children --sort sym \
	-g none --percent-limit 0.3 2>/dev/null | grep -v '^$' | grep -v '^#' | head -60
/bin/perf report -i /tmp/perf.data --stdio --no-children --sort dso \
	-g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -12
/bin/perf report -i /tmp/perf.data --stdio --children --sort sym \
	-g none --percent-limit 4 2>/dev/null | grep -v '^$' | head -60
check "disconnect" rt disconnect bp.0
check "gone" rt_wait_gone bp.0 60
finish
