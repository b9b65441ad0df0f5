# SPDX-License-Identifier: GPL-2.0
# RMPP on the stock kernel (the test tool madcm_rmpp_bench.ko, on the test
# fabric's ports): a 64 KiB transfer across two loopback ports
# arrives whole, with the segment count the spec gives (65536 bytes of SA
# data, 200 a segment: 328 segments) and at least one ACK per window; the
# benchmark prints its figures; the module unloads clean.
. /tests/common.sh

load_modules ib_core
check "modprobe madcm_rmpp_bench" modprobe madcm_rmpp_bench
check "rmpp parameters exist" [ -f /sys/module/madcm/parameters/rmpp_window ]
demo=$(cat /sys/kernel/debug/madcm_rmpp_bench/demo)
echo "$demo"
check "the transfer was byte-exact" sh -c "echo '$demo' | grep -q 'byte-exact yes'"
check "328 segments sent" sh -c "echo '$demo' | grep -q '^sender .*: segments 328, resent 0'"
check "328 segments received" sh -c "echo '$demo' | grep -q '^receiver .*: segments 328, duplicates 0'"
check "one receive completion with 328 segments" sh -c "echo '$demo' | grep -q '328 segments on rmpp_list, mad_len 65592'"
acks=$(echo "$demo" | sed -n 's/^receiver .*acks sent \([0-9]*\),.*/\1/p')
check "at least one ACK per 64-segment window ($acks)" [ "${acks:-0}" -ge 6 ]
check "the send completed with success" sh -c "echo '$demo' | grep -q 'status success'"
bench=$(cat /sys/kernel/debug/madcm_rmpp_bench/bench)
echo "$bench"
check "the benchmark measured 64 KiB" sh -c "echo '$bench' | grep -q '^  65536 bytes: transfer [0-9]* us'"
check "the benchmark measured 1 MiB" sh -c "echo '$bench' | grep -q '^1048576 bytes: transfer [0-9]* us'"
check "no port left in debugfs" sh -c '[ -z "$(ls /sys/kernel/debug/madcm/ports)" ]'
check "rmmod madcm_rmpp_bench madcm_test_fabric madcm" rmmod madcm_rmpp_bench madcm_test_fabric madcm
finish
