# SPDX-License-Identifier: GPL-2.0
# madcm.ko loads next to ib_core and rdma_rxe on the stock kernel, with two
# rxe devices up, and leaves nothing behind when removed.
. /tests/common.sh

load_modules ib_core crc32_generic rdma_rxe ib_uverbs ib_umad iw_cm rdma_cm
setup_rxe_pair
/bin/rdma link show
check "two rxe devices" [ "$(/bin/rdma link show | grep -c 'rxe[01]/1')" -eq 2 ]

check "modprobe madcm" modprobe madcm
lsmod | grep -E '^(madcm|ib_core|rdma_rxe) '
for m in madcm ib_core rdma_rxe; do
	check "$m is loaded" grep -q "^$m " /proc/modules
done
check "madcm's debugfs directory" [ -d /sys/kernel/debug/madcm ]
# Production code only: no benchmark, demo or control file in its debugfs,
# and reading every file there is quick and harmless.
find /sys/kernel/debug/madcm | sed 's/^/  /'
check "no bench, demo or ctl file" sh -c '! find /sys/kernel/debug/madcm | grep -E "bench|demo|ctl|conns"'
check "every madcm debugfs file reads" sh -c 'for f in $(find /sys/kernel/debug/madcm -type f -perm -0400); do timeout 5 cat $f >/dev/null || exit 1; done'
# Exported symbols show in kallsyms through their modversions CRCs.
exports=$(awk '$4 == "[madcm]" && $3 ~ /^__crc_/ { sub(/^__crc_/, "", $3); print $3 }' /proc/kallsyms)
echo "madcm exports $(echo "$exports" | wc -l) symbols"
check "madcm exports symbols" [ -n "$exports" ]
check "every export is madcm_*" sh -c "! echo '$exports' | grep -v '^madcm_'"

# Only the out-of-tree (O, bit 12) and unsigned-module (E, bit 13) taints.
taint=$(cat /proc/sys/kernel/tainted)
echo "tainted=$taint"
check "taint is only O and E" [ $((taint & ~(4096 | 8192))) -eq 0 ]
check "taint has O" [ $((taint & 4096)) -ne 0 ]

check "rmmod madcm" rmmod madcm
check "madcm is gone from /proc/modules" sh -c '! grep -q "^madcm " /proc/modules'
check "no /sys/module/madcm" [ ! -e /sys/module/madcm ]
check "no debugfs directory left" [ ! -e /sys/kernel/debug/madcm ]
check "madcm symbols gone" sh -c '! grep -q "\[madcm\]" /proc/kallsyms'

# Load and unload again: nothing of the first load is left in the way.
check "second load" modprobe madcm
check "second unload" rmmod madcm

teardown_rxe_pair

# The harness's watchdog (scripts/common.sh, VM_KERNEL_DIAG): a soft
# lockup ends the boot with every CPU's backtrace instead of hanging it.
check "a soft lockup panics the guest" \
	[ "$(cat /proc/sys/kernel/softlockup_panic)" = 1 ]
check "a soft lockup prints every CPU's backtrace" \
	[ "$(cat /proc/sys/kernel/softlockup_all_cpu_backtrace)" = 1 ]
check "the console prints warnings" \
	[ "$(cut -f1 /proc/sys/kernel/printk)" -ge 5 ]
finish
