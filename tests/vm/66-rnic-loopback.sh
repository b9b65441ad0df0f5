# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 900
# vm-progs: nvme fio
# Issue 31, item 7: connections to the host itself. Both ends on one madcm
# device (m0 on veth0, 192.0.2.1 and fd00::1; veth1 idle in namespace b),
# as siw carries them and as a hardware RNIC loops them in the adapter:
#   1. rdma-core's rping, server and client on m0, to 192.0.2.1 and to
#      fd00::1 (-V: every ping checked), both exit 0;
#   2. the in-kernel ULP (madcm_rdmacm_test.ko), listener and client on
#      m0: Send, Write and Read both ways, 1 B to 1 MiB, byte for byte;
#   3. NVMe-oF: Debian's nvmet-rdma exports a RAM-backed namespace on
#      192.0.2.1:4420 and nvme-rdma on the same host connects to it; fio
#      writes and reads back with --verify=crc32c.
# The CM resolved its peer to this host (resolve_local), looped its
# frames back (tx_looped) and handed each stream to the host's TCP, whose
# loopback carried the data: veth1 saw none of it. Before, every connect
# failed with -113 (EHOSTUNREACH): the CM looked for a next hop on a
# route leaving veth0, and the kernel routes its own addresses through lo.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-data.sh
. /tests/nvmeof-setup.sh

ME=192.0.2.1
ME6=fd00::1

load_modules veth ib_core iw_cm rdma_cm ib_uverbs rdma_ucm
check "modprobe madcm" modprobe madcm
/bin/ip netns add b || fail "netns b"
/bin/ip link add veth0 type veth peer name veth1 netns b || fail "veth"
/bin/ip addr add $ME/24 dev veth0
/bin/ip addr add $ME6/64 dev veth0 nodad
/bin/ip link set veth0 up && /bin/ip -n b link set veth1 up
check "rdma link add m0 type madcm netdev veth0" /bin/rdma link add m0 type madcm netdev veth0
madcm_host_tcp_on || skip "rnic_host_tcp=0: the loopback rides the host's TCP"
rx1_0=$(/bin/ip netns exec b cat /sys/class/net/veth1/statistics/rx_packets)

# 1. rping both ways of addressing.
PORT=7910
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
	tail -3 /tmp/rping-c.out | sed "s/^/rping -c $a: /"
	tail -3 /tmp/rping-s.out | sed "s/^/rping -s $a: /"
	check "rping to $a on m0: the client exits 0 (got $crc)" [ $crc -eq 0 ]
	check "rping to $a on m0: the server exits 0 (got $src)" [ $src -eq 0 ]
	check "rping to $a: 10 pings checked" \
		[ "$(grep -c '^ping data' /tmp/rping-c.out)" -eq 10 ]
	PORT=$((PORT + 1))
done

# 2. The in-kernel ULP, both ends on m0.
load_modules madcm_rdmacm_test
check "listen LL on m0 ($ME)" rt listen LL $ME 7920 mode=accept data=1048576
check "connect l1 to $ME" rt connect l1 $ME 7920 data=1048576
check "l1.0 established" rt_wait l1.0 ESTABLISHED 60
check "LL.0: the peer's advertisement" rt ready LL.0
check "l1.0: the peer's advertisement" rt ready l1.0
check "l1.0 on m0" [ "$(rt_field l1.0 dev)" = m0 ]
check "LL.0 on m0" [ "$(rt_field LL.0 dev)" = m0 ]
check "l1: Send, Write, Read both ways, 1 B to 1 MiB" xfer_both l1.0 LL.0 $DATA_SIZES
check "l1.0: no data error" rt_data_clean l1.0
check "LL.0: no data error" rt_data_clean LL.0
check "l1.0: disconnect" rt disconnect l1.0
check "l1.0: id destroyed" rt_wait_gone l1.0 60
check "LL.0: id destroyed" rt_wait_gone LL.0 60
check "unlisten LL" rt unlisten LL
check "every id destroyed, no PD, CQ or QP left" rt_all_released 0
check "rmmod madcm_rdmacm_test" rmmod madcm_rdmacm_test

# 3. NVMe-oF, target and host on this host.
ME=$ME PEER=$ME PAIR_KERNEL=stock
nvmeof_target_up
nvmeof_host_up
if [ -n "$DEV" ]; then
	check "fio 4k randwrite qd16, read back, crc32c" \
		fio --name=lo4k --filename="$DEV" --ioengine=libaio --direct=1 \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --eta=never --rw=randwrite \
		--bs=4k --size=8M --iodepth=16 --output=/tmp/fio.lo4k
	check "fio 128k write qd4, read back, crc32c" \
		fio --name=lo128k --filename="$DEV" --ioengine=libaio --direct=1 \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --eta=never --rw=write \
		--bs=128k --offset=8M --size=16M --iodepth=4 --output=/tmp/fio.lo128k
	grep -h "WRITE:\|READ:" /tmp/fio.lo4k /tmp/fio.lo128k | sed 's/^/fio: /'
fi
nvmeof_disconnect
nvmeof_target_down
check "rmmod nvme_rdma" rmmod nvme_rdma

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
/bin/ip link del veth0
/bin/ip netns del b
check "rmmod madcm" rmmod madcm
finish
