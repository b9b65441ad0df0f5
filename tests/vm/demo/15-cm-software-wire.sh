# SPDX-License-Identifier: GPL-2.0
# make run: one connection over the CM's test wire (the test tool
# madcm_cm_bench.ko), with its events, IRD/ORD, private data and TCP
# context; then the CM benchmark (connections per second, memory per idle
# connection).
modprobe madcm_cm_bench
echo "--- /sys/kernel/debug/madcm_cm_bench/loopdemo"
cat /debug/madcm_cm_bench/loopdemo
echo "--- /sys/kernel/debug/madcm_cm_bench/bench (a benchmark: figures, not a test)"
cat /debug/madcm_cm_bench/bench
rmmod madcm_cm_bench madcm_test_fabric madcm
