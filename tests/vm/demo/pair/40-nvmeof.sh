# SPDX-License-Identifier: GPL-2.0
# vm-progs: nvme
# make run, two guests: NVMe over Fabrics on madcm. Guest a exports a
# RAM-backed namespace with Debian's nvmet-rdma on its madcm RNIC m0;
# guest b connects with nvme-rdma (nvme-cli), writes 4 MiB to it and reads
# them back over the fabric. tests/vm/pair/40-nvmeof.sh is the test.
. /tests/common.sh
. /tests/ib.sh
PAIR_RXE=0
. /tests/pair.sh

NQN=nqn.2026-12.org.madcm:demo
CFG=/sys/kernel/config/nvmet
modprobe -a virtio_pci virtio_net ib_core madcm
/bin/ip link set eth0 up
echo "--- rdma link add m0 type madcm netdev eth0"
/bin/rdma link add m0 type madcm netdev eth0
pair_setup
/bin/rdma link show m0/1
if [ $ROLE = a ]; then
	echo "--- the target: nvmet-rdma, a RAM-backed null_blk namespace, $ME:4420"
	modprobe nvmet-rdma
	modprobe null_blk nr_devices=1 memory_backed=1 gb=1
	mount -t configfs configfs /sys/kernel/config
	mkdir $CFG/subsystems/$NQN
	echo 1 >$CFG/subsystems/$NQN/attr_allow_any_host
	mkdir $CFG/subsystems/$NQN/namespaces/1
	echo -n /dev/nullb0 >$CFG/subsystems/$NQN/namespaces/1/device_path
	echo 1 >$CFG/subsystems/$NQN/namespaces/1/enable
	mkdir $CFG/ports/1
	echo ipv4 >$CFG/ports/1/addr_adrfam
	echo rdma >$CFG/ports/1/addr_trtype
	echo $ME >$CFG/ports/1/addr_traddr
	echo 4420 >$CFG/ports/1/addr_trsvcid
	ln -s $CFG/subsystems/$NQN $CFG/ports/1/subsystems/$NQN
	dmesg | grep nvmet
fi
pair_barrier 0
if [ $ROLE = b ]; then
	modprobe nvme-rdma
	mkdir -p /etc/nvme
	# A host NQN and a host ID of one UUID: 6.12's nvme-fabrics refuses a
	# host ID it knows under another NQN (nvme-cli's guess may be one).
	HOSTID=$(cat /proc/sys/kernel/random/uuid)
	echo "$HOSTID" >/etc/nvme/hostid
	echo nqn.2014-08.org.nvmexpress:uuid:$HOSTID >/etc/nvme/hostnqn
	echo "--- nvme connect -t rdma -a $PEER -s 4420 -n $NQN"
	nvme connect -t rdma -a $PEER -s 4420 -n $NQN
	for i in $(seq 30); do [ -b /dev/nvme0n1 ] && break; sleep 1; done
	nvme list
	/bin/rdma resource show qp link m0
	echo "--- 4 MiB of random data written to /dev/nvme0n1, read back, compared"
	dd if=/dev/urandom of=/tmp/data bs=1M count=4 status=none
	dd if=/tmp/data of=/dev/nvme0n1 bs=1M oflag=direct status=none
	dd if=/dev/nvme0n1 of=/tmp/back bs=1M count=4 iflag=direct status=none
	sha256sum /tmp/data /tmp/back
	cmp /tmp/data /tmp/back && echo "read back: the same 4 MiB"
	/bin/rdma statistic show link m0/1
	echo "--- nvme disconnect -n $NQN"
	nvme disconnect -n $NQN
	rmmod nvme_rdma
fi
pair_barrier 1
if [ $ROLE = a ]; then
	rm $CFG/ports/1/subsystems/$NQN
	rmdir $CFG/ports/1 $CFG/subsystems/$NQN/namespaces/1 $CFG/subsystems/$NQN
	rmmod nvmet_rdma nvmet null_blk
fi
/bin/rdma link delete m0
pair_teardown
echo "m0 deleted, madcm unloaded"
