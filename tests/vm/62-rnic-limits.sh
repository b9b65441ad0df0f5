# SPDX-License-Identifier: GPL-2.0
# Issue 30, item 12: the device attributes a madcm RNIC states are what
# it enforces (Documentation/rnic.rst, "Device attributes"). ibv_devinfo
# -v shows madcm's own vendor id and part id, and rnic_limits check
# (tests/vm/rnic_limits.c) creates each per-object limit ibv_devinfo
# prints (max_qp_wr, max_sge, max_cqe, max_qp_rd_atom,
# max_qp_init_rd_atom, max_mr_size) and is refused one above it; what the
# device says it lacks (atomics, memory windows, SRQs) is refused too.
. /tests/common.sh

BIN=/bin/rnic_limits

uverbs_prereqs $BIN
setup_netns_pair
check "rdma link add m0 (a)" in_ns a /bin/rdma link add m0 type madcm netdev veth0

ibv_devinfo -v -d m0 >/tmp/devinfo 2>&1
cat /tmp/devinfo
# devinfo NAME: the value ibv_devinfo -v printed for NAME.
devinfo() {
	sed -n "s/^[[:space:]]*$1:[[:space:]]*\([^[:space:]]*\).*/\1/p" /tmp/devinfo | head -1
}
check "ibv_devinfo: a vendor_id of madcm's own" \
	sh -c "[ \$(($(devinfo vendor_id))) -ne 0 ]"
check "ibv_devinfo: a vendor_part_id of madcm's own" \
	sh -c "[ \$(($(devinfo vendor_part_id))) -ne 0 ]"

in_ns a $BIN check m0 >/tmp/limits.log 2>&1
rc=$?
cat /tmp/limits.log
check "every stated limit is enforced (rnic_limits check)" [ $rc -eq 0 ]
# The limits the program checked are the ones ibv_devinfo prints.
for a in vendor_id vendor_part_id max_mr_size page_size_cap max_qp_wr \
	 max_sge max_cqe max_qp_rd_atom max_qp_init_rd_atom max_mw max_srq; do
	got=$(sed -n "s/^$a //p" /tmp/limits.log)
	want=$(devinfo $a)
	check "ibv_devinfo's $a ($want) is the one checked ($got)" \
		[ -n "$got" ] && [ -n "$want" ] && [ "$((got))" = "$((want))" ]
done

check "no oops, BUG or WARNING" sh -c '! dmesg | grep -E "BUG|WARNING|Oops|general protection|KASAN"'
check "rdma link delete m0" /bin/rdma link delete m0
teardown_netns_pair
check "rmmod madcm" rmmod madcm
finish
