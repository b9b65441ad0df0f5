# SPDX-License-Identifier: GPL-2.0
# make run: load madcm next to the RDMA stack and show what it does.
echo "Loading ib_core, rdma_rxe and madcm on $(uname -r)"
modprobe ib_core && modprobe crc32_generic && modprobe rdma_rxe && modprobe veth
/bin/ip link add veth0 type veth peer name veth1
/bin/ip link set veth0 up && /bin/ip link set veth1 up
/bin/rdma link add rxe0 type rxe netdev veth0
/bin/rdma link show
modprobe madcm
lsmod | grep -E '^(madcm|ib_core|rdma_rxe) '
echo "madcm exports:"
awk '$4 == "[madcm]" && $3 ~ /^__crc_/ { sub(/^__crc_/, "", $3); print "  " $3 }' /proc/kallsyms | sort
echo "debugfs:"
find /sys/kernel/debug/madcm | sed 's/^/  /'
dmesg | grep madcm
rmmod madcm && echo "madcm removed"
/bin/rdma link delete rxe0
/bin/ip link del veth0
