# SPDX-License-Identifier: GPL-2.0
# Issue 30, item 7: one process cannot shut kernel consumers out of a
# madcm RNIC (Documentation/rnic_uverbs.rst, "Tenants"). rnic_limits hog
# (tests/vm/rnic_limits.c) takes every PD, CQ, QP and MR of m0 it can get
# and holds them: it must get exactly the share rnic_user_share allows of
# each limit ibv_devinfo states, each refusal counted (user_limit). Then
# madcm_rdmacm_test.ko, an in-kernel rdma_cm ULP, connects from m0 to m1
# all the same, as NVMe-oF's host would.
. /tests/common.sh
. /tests/rdmacm.sh

BIN=/bin/rnic_limits
PORT=7491

uverbs_prereqs $BIN
setup_netns_pair
check "rdma link add m0 (a)" in_ns a /bin/rdma link add m0 type madcm netdev veth0
check "rdma link add m1 (b)" in_ns b /bin/rdma link add m1 type madcm netdev veth1
load_modules madcm_rdmacm_test

SHARE=$(cat /sys/module/madcm/parameters/rnic_user_share 2>/dev/null)
check "the module parameter rnic_user_share exists" [ -n "$SHARE" ]
ibv_devinfo -v -d m0 >/tmp/devinfo 2>&1
devinfo() {
	sed -n "s/^[[:space:]]*$1:[[:space:]]*\([^[:space:]]*\).*/\1/p" /tmp/devinfo | head -1
}

# The hog holds what it got until it is killed.
sleep 600 | in_ns a $BIN hog m0 >/tmp/hog.log 2>&1 &
check "the hog holds what it could take" wait_for /tmp/hog.log holding 120
hog=$(sed -n 's/^pid //p' /tmp/hog.log)
cat /tmp/hog.log
for o in pd cq qp mr; do
	got=$(sed -n "s/^hog .*$o \([0-9]*\).*/\1/p" /tmp/hog.log)
	max=$(devinfo max_$o)
	want=$(( max * ${SHARE:-100} / 100 ))
	check "the hog got $got of max_$o $max: its share, $want" [ "$got" = "$want" ]
done
/bin/rdma statistic show link m0/1
check "m0 counted the refusals (user_limit)" \
	[ "$(rnic_stat m0 user_limit)" -ge 4 ]

# A kernel ULP still connects from m0, the hog holding its share.
check "ULP listens on m1" rt ns:b listen L 192.0.2.2 $PORT mode=accept
check "ULP connects from m0" rt ns:a connect C 192.0.2.2 $PORT
check "ULP connection C.0 is established" rt_wait C.0 ESTABLISHED 30
cat $RT/conns
rt ns:a disconnect C.0
rt_wait_gone C.0 30
rt ns:b unlisten L

kill $hog
i=0
while kill -0 $hog 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
check "the hog is gone" sh -c "! kill -0 $hog 2>/dev/null"
check "rmmod madcm_rdmacm_test" rmmod madcm_rdmacm_test
check "no oops, BUG or WARNING" sh -c '! dmesg | grep -E "BUG|WARNING|Oops|general protection|KASAN"'
check "rdma link delete m0" /bin/rdma link delete m0
check "rdma link delete m1" /bin/rdma link delete m1
teardown_netns_pair
check "rmmod madcm" rmmod madcm
finish
