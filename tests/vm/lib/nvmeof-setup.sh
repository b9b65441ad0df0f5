# SPDX-License-Identifier: GPL-2.0
# NVMe over Fabrics on madcm, two guests (tests/vm/lib/pair.sh): source
# after common.sh, ib.sh and pair.sh (or, for target and host on one
# guest, 66-rnic-loopback.sh: nvmeof_target_up, nvmeof_host_up with PEER
# set to the target's address, nvmeof_disconnect, nvmeof_target_down). nvmeof_up makes m0 ("rdma link add
# m0 type madcm netdev eth0", or skips), meets the peer, and then on
# guest a exports a RAM-backed null_blk namespace with Debian's nvmet-rdma
# on $ME:4420 (configfs), on guest b connects to it with nvme-rdma
# (nvme-cli) and sets DEV to the namespace's block device. nvmeof_down
# undoes it all: disconnect, target down, rmmod, "rdma link delete",
# rmmod madcm, checking that nothing is left. NVMEOF_RDEV=rxe0 runs it on
# Debian's rxe (RoCE) over eth0 instead of m0, NVMEOF_RDEV=s0 on siw (the
# siwko guests of run2.sh, Debian's kernel with siw.ko): references for
# make bench.

NQN=nqn.2026-12.org.madcm:nvmeof-test
CFG=/sys/kernel/config/nvmet
DEV=
RDEV=${NVMEOF_RDEV:-m0}

# nvme_dev: the host's block device of the namespace, once it is there.
nvme_dev() {
	local n c
	for n in $(seq 60); do
		for c in /sys/class/nvme/nvme*; do
			grep -qs rdma "$c/transport" || continue
			[ -b "/dev/${c##*/}n1" ] && { echo "/dev/${c##*/}n1"; return 0; }
		done
		sleep 1
	done
	return 1
}

nvmeof_target_up() {
	# configfs is a module of its own, loaded with nvmet.
	load_modules nvmet nvmet-rdma
	grep -qs configfs /proc/mounts || mount -t configfs configfs /sys/kernel/config
	# RAM-backed (pages allocated as they are written), 1 GiB.
	check "modprobe null_blk memory_backed=1 gb=1" \
		modprobe null_blk nr_devices=1 memory_backed=1 gb=1
	mkdir $CFG/subsystems/$NQN
	echo 1 >$CFG/subsystems/$NQN/attr_allow_any_host
	mkdir $CFG/subsystems/$NQN/namespaces/1
	echo -n /dev/nullb0 >$CFG/subsystems/$NQN/namespaces/1/device_path
	check "namespace enabled" sh -c "echo 1 >$CFG/subsystems/$NQN/namespaces/1/enable"
	mkdir $CFG/ports/1
	echo ipv4 >$CFG/ports/1/addr_adrfam
	echo rdma >$CFG/ports/1/addr_trtype
	echo $ME >$CFG/ports/1/addr_traddr
	echo 4420 >$CFG/ports/1/addr_trsvcid
	check "port 1 on rdma $ME:4420" ln -s $CFG/subsystems/$NQN $CFG/ports/1/subsystems/$NQN
	dmesg | grep -i nvmet | tail -3
}

# nvmeof_target_down: the target's side of nvmeof_down: the port, the
# subsystem, and their modules.
nvmeof_target_down() {
	rm $CFG/ports/1/subsystems/$NQN
	rmdir $CFG/ports/1
	echo 0 >$CFG/subsystems/$NQN/namespaces/1/enable
	rmdir $CFG/subsystems/$NQN/namespaces/1
	rmdir $CFG/subsystems/$NQN
	check "rmmod nvmet_rdma" rmmod nvmet_rdma
	check "rmmod nvmet" rmmod nvmet
	check "rmmod null_blk" rmmod null_blk
}

nvmeof_host_up() {
	load_modules nvme-rdma
	# On the KASAN test kernel a 1 MiB write under netem's loss took
	# longer than nvme's 30 s I/O timeout once on a loaded host
	# (2026-12-05: fio's w1m saw EIO): give each I/O 120 s there. Read
	# when the queues are set up, at connect.
	if [ "$PAIR_KERNEL" = kasan ]; then
		echo 120 >/sys/module/nvme_core/parameters/io_timeout ||
			fail "nvme_core io_timeout"
	fi
	mkdir -p /etc/nvme
	# A host NQN and a host ID of one UUID: 6.12's nvme-fabrics refuses a
	# host ID it knows under another NQN (nvme-cli's guess may be one).
	HOSTID=$(cat /proc/sys/kernel/random/uuid)
	echo "$HOSTID" >/etc/nvme/hostid
	echo nqn.2014-08.org.nvmexpress:uuid:$HOSTID >/etc/nvme/hostnqn
	# The admin queue and one I/O queue per CPU (nvme-rdma's limit), each
	# a QP and a CQ on both sides.
	check "nvme connect -t rdma -a $PEER -s 4420" \
		nvme connect -t rdma -a $PEER -s 4420 -n $NQN -i 4 \
		--hostnqn=nqn.2014-08.org.nvmexpress:uuid:$HOSTID --hostid=$HOSTID
	DEV=$(nvme_dev) || { fail "no namespace block device"; DEV=; }
	nvme list 2>&1 | sed 's/^/  /'
	[ -n "$DEV" ] &&
		check "$DEV: 1 GiB" [ "$(cat /sys/block/${DEV#/dev/}/size)" = 2097152 ]
}

# nvmeof_up [BARRIER]: BARRIER (default 0) once the target is up.
nvmeof_up() {
	case $RDEV in
	m0)
		# Before pair_setup meets the peer: both guests skip, or neither.
		load_modules virtio_pci virtio_net ib_core madcm
		/bin/ip link set eth0 up
		/bin/rdma link add m0 type madcm netdev eth0 ||
			skip "no madcm RNIC: 'rdma link add m0 type madcm netdev eth0' failed"
		PAIR_RXE=0
		;;
	s0)
		PAIR_RXE=0
		;;
	*)
		PAIR_RXE=1
		;;
	esac
	pair_setup
	if [ "$RDEV" = s0 ]; then
		# libcrc32c finds its crc32c only when it is loaded already
		# (tests/vm/lib/apps.sh)
		[ -e /sys/module/siw ] || load_modules crc32c_generic siw
		check "rdma link add s0 type siw netdev eth0" \
			/bin/rdma link add s0 type siw netdev eth0
	fi
	/bin/rdma link show
	[ $ROLE = a ] && nvmeof_target_up
	pair_barrier "${1:-0}"
	[ $ROLE = b ] && nvmeof_host_up
}

# nvmeof_disconnect: the host's side of nvmeof_down, while the target is up.
nvmeof_disconnect() {
	[ -n "$DEV" ] || return 0
	check "nvme disconnect -n $NQN" nvme disconnect -n $NQN
	check "no nvme controller left" sh -c '! ls /sys/class/nvme/ 2>/dev/null | grep -q nvme'
	DEV=
}

# nvmeof_down BARRIER: the host disconnects first (call it on both guests).
nvmeof_down() {
	[ $ROLE = b ] && nvmeof_disconnect
	pair_barrier $1
	if [ $ROLE = a ]; then
		nvmeof_target_down
	else
		check "rmmod nvme_rdma" rmmod nvme_rdma
	fi
	/bin/rdma resource show | sed 's/^/  /'
	# CQs are not counted: ib_core keeps its CQ pool (ib_cq_pool_get,
	# which nvme-rdma and nvmet-rdma use) until the device goes. (On
	# rxe0, madcm's MAD layer holds QP0 and QP1 with their PD and CQs.)
	if [ "$RDEV" = m0 ] || [ "$RDEV" = s0 ]; then
		check "no PD, QP, MR, cm_id left on $RDEV" sh -c \
			"/bin/rdma resource show | awk '/ $RDEV: / { for (i = 3; i < NF; i += 2)
				if (\$i != \"cq\" && \$(i + 1) != 0) exit 1 }'"
		check "rdma link delete $RDEV" /bin/rdma link delete $RDEV
		check "$RDEV is gone" sh -c "! /bin/rdma link show | grep -q $RDEV"
	fi
	pair_teardown
	check "madcm unloaded" sh -c "! grep -q '^madcm ' /proc/modules"
}
