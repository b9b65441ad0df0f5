# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 600
# Issue 31, item 7 on a VLAN: connections to the host itself over a
# madcm device on an 802.1Q VLAN device (m0 on veth0.100, 198.51.100.1
# and fd01::1; veth1 idle in namespace b), as 66-rnic-loopback.sh does
# on veth0 itself:
#   1. rdma-core's rping, server and client on m0, to 198.51.100.1 and to
#      fd01::1 (-V: every ping checked), both exit 0;
#   2. the in-kernel ULP (madcm_rdmacm_test.ko), listener and client on
#      m0: Send, Write and Read both ways, 1 B to 1 MiB, byte for byte.
# The CM resolved its peer to this host (resolve_local), looped its
# frames back (tx_looped) and handed each stream to the host's TCP; the
# wire (veth1) carried none of it.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-data.sh
. /tests/rnic-loopback.sh

ME=198.51.100.1
ME6=fd01::1

load_modules veth 8021q ib_core iw_cm rdma_cm ib_uverbs rdma_ucm
check "modprobe madcm" modprobe madcm
/bin/ip netns add b || fail "netns b"
/bin/ip link add veth0 type veth peer name veth1 netns b || fail "veth"
/bin/ip link set veth0 up && /bin/ip -n b link set veth1 up
/bin/ip link add link veth0 name veth0.100 type vlan id 100 || fail "veth0.100"
/bin/ip addr add $ME/24 dev veth0.100
/bin/ip addr add $ME6/64 dev veth0.100 nodad
/bin/ip link set veth0.100 up
check "rdma link add m0 type madcm netdev veth0.100" \
	/bin/rdma link add m0 type madcm netdev veth0.100
rx1_0=$(lb_veth1_rx)
lb_rping 7930 $ME $ME6
lb_ulp m0 $ME 7940
lb_carried m0 $rx1_0
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip link del veth0.100
/bin/ip link del veth0
/bin/ip netns del b
check "rmmod madcm" rmmod madcm
finish
