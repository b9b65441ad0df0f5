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
madcm_host_tcp_on || skip "rnic_host_tcp=0: the loopback rides the host's TCP"
rx1_0=$(/bin/ip netns exec b cat /sys/class/net/veth1/statistics/rx_packets)

# 1. rping both ways of addressing.
PORT=7930
for a in $ME $ME6; do
	rping -s -a $a -p $PORT -C 10 -S 4096 -V -v >/tmp/rping-s.out 2>&1 &
	spid=$!
	sleep 1
	timeout 120 rping -c -a $a -p $PORT -C 10 -S 4096 -V -v >/tmp/rping-c.out 2>&1
	crc=$?
	timeout 30 sh -c "while kill -0 $spid 2>/dev/null; do sleep 0.2; done"
	kill $spid 2>/dev/null
	wait $spid
	src=$?
	tail -1 /tmp/rping-c.out | cut -c1-120 | sed "s/^/rping -c $a: /"
	tail -1 /tmp/rping-s.out | cut -c1-120 | sed "s/^/rping -s $a: /"
	check "rping to $a on m0: the client exits 0 (got $crc)" [ $crc -eq 0 ]
	check "rping to $a on m0: the server exits 0 (got $src)" [ $src -eq 0 ]
	check "rping to $a: 10 pings checked" \
		[ "$(grep -c '^ping data' /tmp/rping-c.out)" -eq 10 ]
	PORT=$((PORT + 1))
done

# 2. The in-kernel ULP, both ends on m0.
load_modules madcm_rdmacm_test
check "listen LV on m0 ($ME)" rt listen LV $ME 7940 mode=accept data=1048576
check "connect v1 to $ME" rt connect v1 $ME 7940 data=1048576
check "v1.0 established" rt_wait v1.0 ESTABLISHED 60
check "LV.0: the peer's advertisement" rt ready LV.0
check "v1.0: the peer's advertisement" rt ready v1.0
check "v1.0 on m0" [ "$(rt_field v1.0 dev)" = m0 ]
check "LV.0 on m0" [ "$(rt_field LV.0 dev)" = m0 ]
check "v1: Send, Write, Read both ways, 1 B to 1 MiB" xfer_both v1.0 LV.0 $DATA_SIZES
check "v1.0: no data error" rt_data_clean v1.0
check "LV.0: no data error" rt_data_clean LV.0
check "v1.0: disconnect" rt disconnect v1.0
check "v1.0: id destroyed" rt_wait_gone v1.0 60
check "LV.0: id destroyed" rt_wait_gone LV.0 60
check "unlisten LV" rt unlisten LV
check "every id destroyed, no PD, CQ or QP left" rt_all_released 0
check "rmmod madcm_rdmacm_test" rmmod madcm_rdmacm_test

# What carried it all.
grep -E '^dev |^ *(resolve_|tx_looped|tx_frames)' $CM_STATS | sed 's/^/  cm: /'
looped=$(awk '$1 == "tx_looped" { n += $2 } END { print n + 0 }' $CM_STATS)
local_r=$(awk '$1 == "resolve_local" { n += $2 } END { print n + 0 }' $CM_STATS)
check "the CM resolved its peer to this host (resolve_local ${local_r:-none})" [ "${local_r:-0}" -gt 0 ]
check "and looped its frames back (tx_looped ${looped:-none})" [ "${looped:-0}" -gt 0 ]
madcm_host_tcp_check m0
rx1_1=$(/bin/ip netns exec b cat /sys/class/net/veth1/statistics/rx_packets)
echo "veth1 rx_packets: $rx1_0 before, $rx1_1 after"
check "the wire carried none of it (veth1 took $((rx1_1 - rx1_0)) frames, fewer than 50)" \
	[ $((rx1_1 - rx1_0)) -lt 50 ]
check "no PD, QP, MR, cm_id left on m0" sh -c \
	"/bin/rdma resource show | awk '/ m0: / { for (i = 3; i < NF; i += 2)
		if (\$i != \"cq\" && \$(i + 1) != 0) exit 1 }'"
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip link del veth0.100
/bin/ip link del veth0
/bin/ip netns del b
check "rmmod madcm" rmmod madcm
finish
