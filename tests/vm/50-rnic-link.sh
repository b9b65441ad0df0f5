# SPDX-License-Identifier: GPL-2.0
# The software RNIC's device: `rdma link add NAME type madcm netdev DEV`
# makes an iWARP RNIC whose port follows its net_device (state, MTU,
# speed), with counters for `rdma statistic`, one per net_device, only on
# Ethernet; `rdma link delete`, removing the net_device, or unloading
# madcm removes it, and removal flushes the work requests of a live QP
# exactly once. The kernel verbs are checked from a consumer,
# madcm_rnic_verbs.ko (ib_core API only).
. /tests/common.sh

VERBS=/debug/madcm_rnic_verbs
PORT=/sys/class/infiniband/m0/ports/1

# mtu: the port's active MTU, as ib_query_port() reports it.
mtu() { sed -n 's/.*active_mtu \([0-9]*\).*/\1/p' $VERBS/port; }

load_modules ib_core iw_cm rdma_cm veth
# Loaded before madcm, so its ib_client is removed after madcm's and sees
# what the device's removal did to its QP.
check "modprobe madcm_rnic_verbs" modprobe madcm_rnic_verbs dev=m0 netdev=veth0
check "modprobe madcm" modprobe madcm
/bin/ip link add veth0 type veth peer name veth1 || fail "veth pair"
/bin/ip link set veth0 up && /bin/ip link set veth1 up
/bin/ip addr add 192.0.2.1/24 dev veth0

check "rdma link add m0 type madcm netdev veth0" \
	/bin/rdma link add m0 type madcm netdev veth0
/bin/rdma link show
check "rdma link shows m0 over veth0" \
	sh -c "/bin/rdma link show m0/1 | grep -q 'netdev veth0'"
check "node type RNIC" grep -q RNIC /sys/class/infiniband/m0/node_type
# The data path's CRC32c (iwarp/fpdu.h, libcrc32c) is the CPU's CRC32
# instruction where the CPU has one (the guest's -cpu max has SSE 4.2),
# not the table code; the device's creation names it.
crc=$(dmesg | sed -n 's/.*RNIC m0 created (crc32c: \([^)]*\)).*/\1/p' | tail -1)
if grep -qw sse4_2 /proc/cpuinfo; then
	check "the data path's crc32c is crc32c-intel (got ${crc:-none})" \
		[ "$crc" = crc32c-intel ]
else
	check "the device names its crc32c (${crc:-none})" [ -n "$crc" ]
fi
check "link layer Ethernet" grep -q Ethernet $PORT/link_layer
check "the CM runs on veth0" grep -q '^dev veth0' $CM_STATS
check "a second device on veth0 is refused" \
	sh -c '! /bin/rdma link add m1 type madcm netdev veth0'
check "no device over a loopback (not Ethernet)" \
	sh -c '! /bin/rdma link add m1 type madcm netdev lo'
check "no m1" [ ! -e /sys/class/infiniband/m1 ]

# The port follows the net_device.
cat $PORT/state $PORT/rate
check "port ACTIVE" grep -q ACTIVE $PORT/state
# veth reports 10000 Mb/s: one lane at 10 Gb/s.
check "rate 10 Gb/sec from ethtool" grep -q '^10 Gb/sec' $PORT/rate
check "ip link set veth0 down" /bin/ip link set veth0 down
check "port DOWN" grep -q DOWN $PORT/state
check "rdma link says DOWN" sh -c "/bin/rdma link show m0/1 | grep -q 'state DOWN'"
check "ip link set veth0 up" /bin/ip link set veth0 up
check "port ACTIVE again" grep -q ACTIVE $PORT/state
# The peer going down takes the carrier away (NETDEV_CHANGE).
check "ip link set veth1 down" /bin/ip link set veth1 down
check "no carrier: port DOWN" grep -q DOWN $PORT/state
/bin/ip link set veth1 up
check "carrier back: port ACTIVE" wait_for $PORT/state ACTIVE 5

# The MTU: what one frame carries after IPv6, TCP, MPA and the untagged
# DDP/RDMAP header (40 + 20 + 6 + 18 bytes), as an IB MTU (256..4096).
cat $VERBS/port
check "MTU 1500: active_mtu 1024" [ "$(mtu)" = 1024 ]
/bin/ip link set veth0 mtu 9000
check "MTU 9000: active_mtu 4096" [ "$(mtu)" = 4096 ]
/bin/ip link set veth0 mtu 1100
check "MTU 1100: active_mtu 512" [ "$(mtu)" = 512 ]
/bin/ip link set veth0 mtu 1500
check "max_mtu 4096" grep -q 'max_mtu 4096' $VERBS/port

# The verbs, from the consumer that ran when m0 appeared.
cat $VERBS/log
check "verbs: no failed check" sh -c "! grep -q FAIL $VERBS/log"
check "verbs: the checks ran" [ "$(grep -c '^ok:' $VERBS/log)" -ge 30 ]

# Counters: the consumer's checks flushed 6 + 2 WRs, then 4 into a CQ of 2.
/bin/rdma statistic show link m0/1
check "rdma statistic lists conn_offloaded" [ -n "$(rnic_stat m0 conn_offloaded)" ]
check "wr_flushed 12" [ "$(rnic_stat m0 wr_flushed)" = 12 ]
check "cq_overflow 2" [ "$(rnic_stat m0 cq_overflow)" = 2 ]
check "qp_error 2" [ "$(rnic_stat m0 qp_error)" = 2 ]

# rdma link delete, with the consumer's QP live.
check "rdma link delete m0" /bin/rdma link delete m0
check "m0 gone" [ ! -e /sys/class/infiniband/m0 ]
cat $VERBS/log | tail -3
check "removal flushed each live WR once" \
	grep -q "^ok: removal flushed each" $VERBS/log
check "removal called the CQ's handler" \
	grep -q "^ok: removal called" $VERBS/log
check "the CM left veth0 with the device" \
	sh -c "! grep -q '^dev veth0' $CM_STATS"

# The net_device going away takes the device with it.
check "rdma link add m0 again" /bin/rdma link add m0 type madcm netdev veth0
check "verbs pass again on the new m0" sh -c "! grep -q FAIL $VERBS/log"
check "delete veth0" /bin/ip link del veth0
check "m0 goes with veth0" \
	sh -c 'for i in $(seq 50); do [ -e /sys/class/infiniband/m0 ] || exit 0; sleep 0.1; done; exit 1'
check "removal flushed each live WR once (netdev gone)" \
	grep -q "^ok: removal flushed each" $VERBS/log
check "rdma link show has no m0" sh -c '! /bin/rdma link show | grep -q m0'

# A CM that runs on the net_device already serves the device too, and
# stays when the device goes.
/bin/ip link add veth2 type veth peer name veth3
/bin/ip link set veth2 up && /bin/ip link set veth3 up
check "modprobe madcm_cm_ctl" modprobe madcm_cm_ctl
check "the CM attached to veth2 first" sh -c "echo 'attach veth2' > $CM/ctl"
check "rdma link add m2 on veth2" /bin/rdma link add m2 type madcm netdev veth2
check "one CM on veth2" [ "$(grep -c '^dev veth2' $CM_STATS)" -eq 1 ]
check "rdma link delete m2" /bin/rdma link delete m2
check "the CM stays on veth2" grep -q '^dev veth2' $CM_STATS
check "madcm_cm_ctl detaches it" sh -c "echo 'detach veth2' > $CM/ctl"
check "the CM left veth2" sh -c "! grep -q '^dev veth2' $CM_STATS"
check "rmmod madcm_cm_ctl" rmmod madcm_cm_ctl

# Unloading madcm removes the devices it still has.
check "rdma link add m2 again" /bin/rdma link add m2 type madcm netdev veth2
check "rmmod madcm with m2 present" rmmod madcm
check "m2 gone with madcm" [ ! -e /sys/class/infiniband/m2 ]
check "rmmod madcm_rnic_verbs" rmmod madcm_rnic_verbs
/bin/ip link del veth2
finish
