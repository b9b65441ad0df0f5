# SPDX-License-Identifier: GPL-2.0
# Issue 19: user verbs on madcm RNICs through unmodified rdma-core
# (libibverbs and its libsiw provider, librdmacm). madcm devices speak
# soft-iWARP's user ABI (Documentation/rnic_uverbs.rst): m0 on veth0
# (namespace a) and m1 on veth1 (namespace b); rnic_uverbs (tests/vm)
# connects over rdma_cm and runs RDMA Write, RDMA Read back, Send and an
# inline Send back, every byte checked on both sides, then rping -V runs
# between the two. siw.ko and such a device exclude each other (checked
# with tests/tools/siw.ko, a module of that name: the stock kernel has no
# siw); rnic_uverbs=0 gives a kernel-verbs-only device, next to siw.
. /tests/common.sh

BIN=/bin/rnic_uverbs
PORT=7471
ROUNDS=300

uverbs_prereqs $BIN
check "rnic_uverbs is Y by default" \
	grep -q Y /sys/module/madcm/parameters/rnic_uverbs
setup_netns_pair
check "rdma link add m0 (a)" in_ns a /bin/rdma link add m0 type madcm netdev veth0
check "rdma link add m1 (b)" in_ns b /bin/rdma link add m1 type madcm netdev veth1
/bin/rdma link show
check "m0 reports ABI 1" sh -c 'for d in /sys/class/infiniband_verbs/uverbs*; do
	[ "$(cat $d/ibdev)" = m0 ] && grep -qx 1 $d/abi_version && exit 0; done; exit 1'

# Data: rnic_uverbs client (a) against its server (b).
in_ns b $BIN server 192.0.2.2 $PORT 2 >/tmp/uv-server.log 2>&1 &
spid=$!
check "the server listens" wait_for /tmp/uv-server.log listening 10
check "client: $ROUNDS rounds of Write, Read, Send, inline Send" \
	in_ns a $BIN client 192.0.2.2 $PORT $ROUNDS
# As perftest's ib_write_bw: 128 Writes outstanding, one in 50 signaled.
check "client: 500 Writes of 4 KiB, 128 outstanding, mostly unsignaled" \
	in_ns a env RNIC_UVERBS_BURST=500 $BIN client 192.0.2.2 $PORT 5
wait $spid
src=$?
cat /tmp/uv-server.log
check "server: every Write and Send checked" [ $src -eq 0 ]
tx=$(rnic_stat m0 tx_bytes)
echo "m0 tx_bytes $tx"
check "m0 sent the data" [ "${tx:-0}" -gt 1000000 ]

# rping -V (rdma-core's own test), both ends on madcm.
if [ -x /bin/rping ]; then
	in_ns b /bin/rping -s -a 192.0.2.2 -p 7472 -V -C 50 >/tmp/uv-rping-s.log 2>&1 &
	rpid=$!
	sleep 1
	check "rping -V -C 50 client" in_ns a /bin/rping -c -a 192.0.2.2 -p 7472 -V -C 50
	wait $rpid
	check "rping -V server" [ $? -eq 0 ]
	tail -3 /tmp/uv-rping-s.log
fi

# siw.ko and a device speaking its ABI exclude each other. The stock
# kernel has no siw: tests/tools/siw.ko is a module of that name.
check "siw refused while m0 and m1 speak its ABI" sh -c '! modprobe siw'
check "madcm said why (siw)" sh -c 'dmesg | grep -q "madcm: siw refused"'
check "rdma link delete m0" /bin/rdma link delete m0
check "rdma link delete m1" /bin/rdma link delete m1
check "siw loads once no device speaks its ABI" modprobe siw
check "rdma link add refused while siw is loaded" \
	sh -c '! /bin/ip netns exec a /bin/rdma link add m0 type madcm netdev veth0'
check "madcm said why (link add)" sh -c 'dmesg | grep -q "madcm: siw.ko is loaded"'
check "rmmod siw" rmmod siw
check "rdma link add m0 once siw is gone" \
	in_ns a /bin/rdma link add m0 type madcm netdev veth0
check "rdma link delete m0 again" /bin/rdma link delete m0
check "no oops, BUG or WARNING" sh -c '! dmesg | grep -E "BUG|WARNING|Oops|general protection|KASAN"'
teardown_netns_pair
check "rmmod madcm" rmmod madcm

# rnic_uverbs=0: kernel verbs only, no uverbs device.
check "modprobe madcm rnic_uverbs=0" modprobe madcm rnic_uverbs=0
/bin/ip link add veth8 type veth peer name veth9
check "rdma link add m0 (rnic_uverbs=0)" /bin/rdma link add m0 type madcm netdev veth8
check "no uverbs device for m0" sh -c 'for d in /sys/class/infiniband_verbs/uverbs*; do
	[ -e $d/ibdev ] && [ "$(cat $d/ibdev)" = m0 ] && exit 1; done; exit 0'
check "siw loads next to a kernel-verbs-only device" modprobe siw
check "rmmod siw" rmmod siw
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip link del veth8
check "rmmod madcm" rmmod madcm
finish
