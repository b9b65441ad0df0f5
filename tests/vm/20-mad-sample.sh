# SPDX-License-Identifier: GPL-2.0
# The sample ULP (samples/madcm_sample_vendor.ko) on the stock kernel: it
# sends a vendor-class Get across two ports of the test fabric
# (madcm_test_fabric.ko, which modprobe loads with it) and its service
# answers it; the per-port counters show the exchange; it unloads clean.
. /tests/common.sh

load_modules ib_core
check "modprobe madcm" modprobe madcm
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr || fail "mount tracefs"
check "madcm_mad tracepoints exist" [ -d $tr/events/madcm_mad ]
check "madcm_mad events on" trace_events madcm_mad 1
check "modprobe madcm_sample_vendor" modprobe madcm_sample_vendor
check "madcm_mad events off" trace_events madcm_mad 0
grep madcm_mad $tr/trace
for ev in madcm_mad_post madcm_mad_recv madcm_mad_send_done; do
	check "trace shows $ev" grep -q "$ev:" $tr/trace
done
dmesg | grep madcm_sample_vendor
check "the Get went out" sh -c 'dmesg | grep -q "madcm_sample_vendor: Get sent"'
check "the GetResp came back" sh -c 'dmesg | grep -q "madcm_sample_vendor: GetResp from LID 2.*status 0x0000.*hello from the madcm sample service"'
for f in /sys/kernel/debug/madcm/ports/*/counters; do
	echo "$f:"
	sed 's/^/  /' "$f"
done
check "the server dispatched one request" sh -c 'grep -q "^rx_dispatched 1$" /sys/kernel/debug/madcm/ports/loop*-2/counters'
check "rmmod madcm_sample_vendor" rmmod madcm_sample_vendor
check "no port left in debugfs" sh -c '[ -z "$(ls /sys/kernel/debug/madcm/ports)" ]'
check "rmmod madcm_test_fabric madcm" rmmod madcm_test_fabric madcm
finish
