# SPDX-License-Identifier: GPL-2.0
# An rxe device removed ("rdma link delete") under madcm with 200 Gets in
# flight, each posted again from its own send handler: every send comes
# back through its send handler exactly once (flushed or answered), later
# posts are refused, the agents outlive the device until unregistered,
# nothing leaks and the kernel log stays clean.
. /tests/common.sh
. /tests/ib.sh

ib_setup_one
port=/sys/kernel/debug/madcm/ports/rxe0-1
gid6=$(ib_gid rxe0 ll)
check "open rxe0" ibt open rxe0
check "flood: 200 Gets to QP1 in flight" ibt flood "$gid6" 200
sleep 1
sed 's/^/  /' $port/counters | grep -E ' (tx|rx|rx_dispatched|tx_timeout) '
check "rdma link delete rxe0 under traffic" /bin/rdma link delete rxe0
check "madcm's port left debugfs with the device" [ ! -e $port ]
check "every send came back exactly once" ibt flooddone
dmesg | grep "madcm_ibtest: flood"
check "some sends were flushed by the removal" sh -c 'dmesg | grep -q "flood: posted.* flushed [1-9]"'
check "some sends were answered before it" sh -c 'dmesg | grep -q "flood: posted.* ok [1-9]"'
check "posts after the removal were refused" sh -c 'dmesg | grep -q "flood: posted.* refused [1-9]"'
check "close: agents unregistered on the dead port" ibt close
check "rmmod madcm_ibtest" rmmod madcm_ibtest
check "rmmod madcm" rmmod madcm
/bin/ip link del veth0 2>/dev/null

# madcm unloaded while a device is up, then loaded again on it.
load_modules madcm
/bin/ip link add veth0 type veth peer name veth1
/bin/ip link set veth0 up && /bin/ip link set veth1 up
check "rdma link add rxe0 with madcm loaded" /bin/rdma link add rxe0 type rxe netdev veth0
check "madcm opened a port on the new device" [ -f $port/ib ]
check "rmmod madcm with the device up" rmmod madcm
check "the device is still there" sh -c '/bin/rdma link show | grep -q rxe0'
/bin/rdma link delete rxe0
/bin/ip link del veth0
finish
