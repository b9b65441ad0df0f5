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
. /tests/rnic-loopback.sh

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
rx1_0=$(lb_veth1_rx)

# 1. rping both ways of addressing.
lb_rping 7910 $ME $ME6

# 2. The in-kernel ULP, both ends on m0.
lb_ulp m0 $ME 7920

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

lb_carried m0 $rx1_0
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip link del veth0
/bin/ip netns del b
check "rmmod madcm" rmmod madcm
finish
