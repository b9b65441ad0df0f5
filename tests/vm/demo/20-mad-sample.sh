# SPDX-License-Identifier: GPL-2.0
# make run: the sample ULP asks its vendor-class service a Get across two
# loopback ports; the kernel log shows the request and its response.
echo "Loading madcm and the sample ULP on $(uname -r)"
modprobe ib_core && modprobe madcm && modprobe madcm_sample_vendor
dmesg | grep madcm_sample_vendor
for f in /sys/kernel/debug/madcm/ports/*/counters; do
	echo "$f:"
	grep -v ' 0$' "$f" | sed 's/^/  /'
done
rmmod madcm_sample_vendor && rmmod madcm_test_fabric madcm && echo "sample and madcm removed"
