# SPDX-License-Identifier: GPL-2.0
# The RMPP benchmark (not a test), madcm_rmpp_bench.ko over the MAD test
# fabric's loopback ports: create+free of 64 KiB and 1 MiB RMPP send
# buffers and whole transfers, as rows of make bench's table. ib_core has
# no loopback to compare with here; mad-ib-bench.sh compares the buffers.
. /tests/common.sh

load_modules ib_core
check "modprobe madcm_rmpp_bench" modprobe madcm_rmpp_bench
cat /sys/kernel/debug/madcm_rmpp_bench/bench | tee /tmp/rmpp.txt
rows=0
while IFS= read -r l; do
	case "$l" in
	*"bytes: create+free "*" ns "*)
		set -- $l
		bench_row "rmpp: create+free, $1 bytes" "$4" - - ns
		rows=$((rows + 1)) ;;
	*"bytes: transfer "*" us "*)
		set -- $l
		bench_row "rmpp: transfer over loopback, $1 bytes" "$4" - - us
		rows=$((rows + 1)) ;;
	esac
done </tmp/rmpp.txt
check "the bench gave its figures ($rows)" [ "$rows" -eq 4 ]
check "rmmod madcm_rmpp_bench madcm_test_fabric madcm" \
	rmmod madcm_rmpp_bench madcm_test_fabric madcm
finish
