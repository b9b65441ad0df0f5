# SPDX-License-Identifier: GPL-2.0
# make run: one 64 KiB RMPP transfer across two loopback ports, with each
# side's segment and ACK counts; then the RMPP benchmark (create+free and
# transfer times for 64 KiB and 1 MiB).
modprobe ib_core && modprobe madcm
echo "--- /sys/kernel/debug/madcm/rmpp_demo"
cat /sys/kernel/debug/madcm/rmpp_demo
echo "--- /sys/kernel/debug/madcm/rmpp_bench (a benchmark: figures, not a test)"
cat /sys/kernel/debug/madcm/rmpp_bench
rmmod madcm
