# SPDX-License-Identifier: GPL-2.0
# The RMPP benchmark (not a test), madcm_rmpp_bench.ko over the MAD test
# fabric's loopback ports: create+free of 64 KiB and 1 MiB RMPP send
# buffers and whole transfers, as rows of make bench's table. ib_core has
# no loopback to compare with here; mad-ib-bench.sh compares the buffers.
# It takes seconds; the limit is for a loaded host.
# vm-timeout: 300
. /tests/common.sh

load_modules ib_core
check "modprobe madcm_rmpp_bench" modprobe madcm_rmpp_bench
cat /sys/kernel/debug/madcm_rmpp_bench/bench | tee /tmp/rmpp.txt
# Both sizes' create+free and transfer; a figure the bench did not give
# is "-", with its reason (the bench's "failed" line).
rows=0
for len in 65536 1048576; do
	why=$(sed -n "s/^ *$len bytes: \(.*failed.*\)/\1/p" /tmp/rmpp.txt | head -1)
	why=${why:-"no figure in the bench's output"}
	ns=$(sed -n "s/^ *$len bytes: create+free \([0-9]*\) ns .*/\1/p" /tmp/rmpp.txt | head -1)
	if [ -n "$ns" ]; then
		rows=$((rows + 1))
	else
		ns=-
		bench_none "rmpp: create+free, $len bytes" "$why"
	fi
	bench_row "rmpp: create+free, $len bytes" "$ns" - - ns
	us=$(sed -n "s/^ *$len bytes: transfer \([0-9]*\) us .*/\1/p" /tmp/rmpp.txt | head -1)
	if [ -n "$us" ]; then
		rows=$((rows + 1))
	else
		us=-
		bench_none "rmpp: transfer over loopback, $len bytes" "$why"
	fi
	bench_row "rmpp: transfer over loopback, $len bytes" "$us" - - us
done
check "the bench gave its figures ($rows)" [ "$rows" -eq 4 ]
check "rmmod madcm_rmpp_bench madcm_test_fabric madcm" \
	rmmod madcm_rmpp_bench madcm_test_fabric madcm
finish
