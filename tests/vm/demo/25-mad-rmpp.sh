# SPDX-License-Identifier: GPL-2.0
# make run: one 64 KiB RMPP transfer across two ports of the test fabric
# (the test tool madcm_rmpp_bench.ko), with each side's segment and ACK
# counts; then the RMPP benchmark (create+free and transfer times for
# 64 KiB and 1 MiB).
modprobe ib_core && modprobe madcm_rmpp_bench
echo "--- /sys/kernel/debug/madcm_rmpp_bench/demo"
cat /sys/kernel/debug/madcm_rmpp_bench/demo
echo "--- /sys/kernel/debug/madcm_rmpp_bench/bench (a benchmark: figures, not a test)"
cat /sys/kernel/debug/madcm_rmpp_bench/bench
rmmod madcm_rmpp_bench madcm_test_fabric madcm
