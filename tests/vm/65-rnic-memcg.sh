# SPDX-License-Identifier: GPL-2.0
# Issue 30, item 7: a process's CQ and QP rings on a madcm RNIC are charged
# to its memory cgroup (Documentation/rnic_uverbs.rst, "Tenants").
# rnic_memcg (tests/vm/rnic_memcg.c) runs in a cgroup v2 memory cgroup and
# creates N CQs of CQE entries, then N QPs of WR send and WR receive
# entries, through libibverbs and libsiw.
#  (a) Without a limit: all are created, and memory.current grows by at
#      least the bytes of their rings as the siw user ABI lays them out
#      (entry sizes from rdma-core's <rdma/siw-abi.h>: a CQ ring is CQE
#      siw_cqe and one siw_cq_ctrl, a QP's WR siw_sqe and WR siw_rqe),
#      less what the memory cgroup may have charged ahead of use: a batch
#      of MEMCG_CHARGE_BATCH (64) pages on each CPU.
#  (b) With memory.max 1 MiB above the process's baseline: the same
#      requests fail with ENOMEM once their rings no longer fit (no more
#      are created than 1 MiB plus those batches holds), and the
#      refusal is the memory cgroup's, not the tenant share's
#      (user_limit does not move). The process is exempt from the OOM
#      killer, so the memory cgroup's OOM report, which the kernel prints
#      for each refused charge, is expected here: the script takes it
#      from the log and checks that it holds nothing else.
. /tests/common.sh

BIN=/bin/rnic_memcg
CG=/sys/fs/cgroup
SUB=$CG/madcm-memcg
N=16
CQE=4096
WR=1024
HEADROOM=1048576

uverbs_prereqs $BIN
awk '$2 == "/sys/fs/cgroup" && $3 == "cgroup2" { f = 1 } END { exit !f }' /proc/mounts ||
	mount -t cgroup2 cgroup2 $CG
check "cgroup2 is mounted at $CG" \
	awk '$2 == "/sys/fs/cgroup" && $3 == "cgroup2" { f = 1 } END { exit !f }' /proc/mounts
grep -qw memory $CG/cgroup.controllers || skip "no memory controller in cgroup2"
echo +memory >$CG/cgroup.subtree_control
mkdir -p $SUB
check "the memory controller is on in $SUB" [ -e $SUB/memory.max ]

load_modules veth
/bin/ip link add mc0 type veth peer name mc1
check "rdma link add m0" /bin/rdma link add m0 type madcm netdev mc0

# The pages a memory cgroup may have charged before they are used.
PAGE=4096
SLACK=$((64 * PAGE * $(nproc)))

# run_memcg LOG [HEADROOM]: rnic_memcg in $SUB.
run_memcg() {
	local log=$1
	shift
	sh -c "echo \$\$ >$SUB/cgroup.procs && exec $BIN m0 $CG $N $CQE $WR $*" \
		>"$log" 2>&1
	local rc=$?
	cat "$log"
	check "rnic_memcg ran in $SUB (exit $rc)" [ $rc -eq 0 ]
}
# field LOG KIND NAME: the value after NAME on LOG's line starting KIND.
field() {
	awk -v k="$2" -v n="$3" '$1 == k { for (i = 2; i < NF; i++) if ($i == n) print $(i + 1) }' "$1"
}

check "no memory.max on $SUB" [ "$(cat $SUB/memory.max)" = max ]
run_memcg /tmp/grow.log
SZ_CQE=$(field /tmp/grow.log abi cqe)
SZ_CTRL=$(field /tmp/grow.log abi ctrl)
SZ_SQE=$(field /tmp/grow.log abi sqe)
SZ_RQE=$(field /tmp/grow.log abi rqe)
CQ_RING=$((CQE * SZ_CQE + SZ_CTRL))
QP_RING=$((WR * (SZ_SQE + SZ_RQE)))
echo "ring bytes: CQ $CQ_RING, QP $QP_RING; charge batches $SLACK"

for k in cq qp; do
	ring=$CQ_RING
	[ $k = qp ] && ring=$QP_RING
	created=$(field /tmp/grow.log $k created)
	err=$(field /tmp/grow.log $k errno)
	a=$(field /tmp/grow.log $k after)
	b=$(field /tmp/grow.log $k before)
	grew=$((${a:-0} - ${b:-0}))
	want=$((N * ring))
	check "(a) without a limit: $N of $N ${k}s created (got $created, errno $err)" \
		[ "$created" = $N ]
	check "(a) memory.current grew by $grew, at least their rings' $want less $SLACK" \
		[ $((grew + SLACK)) -ge $want ]
done

ul0=$(rnic_stat m0 user_limit)
dmesg -c >/dev/null
run_memcg /tmp/limit.log $HEADROOM
for k in cq qp; do
	ring=$CQ_RING
	[ $k = qp ] && ring=$QP_RING
	created=$(field /tmp/limit.log $k created)
	err=$(field /tmp/limit.log $k errno)
	room=$((HEADROOM + SLACK))
	check "(b) under memory.max: a $k is refused with ENOMEM (errno $err, after $created)" \
		[ "$err" = 12 ]
	check "(b) no more ${k}s created than $room bytes hold ($created of $ring each)" \
		[ $((${created:-$N} * ring)) -le $room ]
done
check "(b) the refusals were not the tenant share's (user_limit $ul0 -> $(rnic_stat m0 user_limit))" \
	[ "$(rnic_stat m0 user_limit)" = "$ul0" ]

# The memory cgroup's OOM reports of (b), and nothing else in the log.
dmesg -c >/tmp/oom.dmesg
grep -E 'invoked oom-killer|no killable processes|vmalloc error|page allocation failure' \
	/tmp/oom.dmesg | sed 's/^/dmesg (b): /'
ooms=$(grep -c 'rnic_memcg invoked oom-killer' /tmp/oom.dmesg)
dumps=$(grep -cE 'invoked oom-killer|vmalloc error|page allocation failure' /tmp/oom.dmesg)
traces=$(grep -c 'Call Trace' /tmp/oom.dmesg)
check "(b) the memory cgroup's OOM killer ran for rnic_memcg ($ooms times)" [ "$ooms" -ge 2 ]
check "(b) every Call Trace ($traces) is an OOM or allocation failure report ($dumps)" \
	[ "$traces" -le "$dumps" ]
check "(b) the log holds no other kernel report" \
	sh -c '! grep -E "BUG:|WARNING:|Oops|KASAN|UBSAN|refcount_t:|ODEBUG|corruption|general protection|locking" /tmp/oom.dmesg'

echo max >$SUB/memory.max
rmdir $SUB
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip link del mc0
check "rmmod madcm" rmmod madcm
finish
