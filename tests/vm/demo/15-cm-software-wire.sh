# SPDX-License-Identifier: GPL-2.0
# make run: one connection over the CM's in-kernel software wire, with its
# events, IRD/ORD, private data and TCP context; then the CM benchmark
# (connections per second, memory per idle connection).
modprobe madcm
echo "--- /sys/kernel/debug/madcm/cm/loopdemo"
cat /debug/madcm/cm/loopdemo
echo "--- /sys/kernel/debug/madcm/cm/bench (a benchmark: figures, not a test)"
cat /debug/madcm/cm/bench
rmmod madcm
