# SPDX-License-Identifier: GPL-2.0
# The CM benchmark (not a test), madcm_cm_bench.ko over the CM's test
# wire: connections set up and torn down per second, and the memory the
# CM holds per idle established connection on either side (slab objects
# really allocated), as rows of make bench's table. The stock kernel has
# no iWARP CM to compare with.
. /tests/common.sh

check "modprobe madcm_cm_bench" modprobe madcm_cm_bench
cat /debug/madcm_cm_bench/bench | tee /tmp/cm.txt
rows=0
while IFS= read -r l; do
	case "$l" in
	setup*"connections/s"|teardown*"connections/s")
		n=${l%% connections/s}
		n=${n##* }
		bench_row "cm: ${l%% (*} over the test wire" "$n" - - connections/s
		rows=$((rows + 1)) ;;
	"memory per idle connection ("*" bytes")
		n=${l%% bytes}
		n=${n##* }
		side=${l#*(}
		side=${side%%)*}
		bench_row "cm: memory per idle connection ($side)" "$n" - - bytes
		rows=$((rows + 1)) ;;
	esac
done </tmp/cm.txt
check "the bench gave its figures ($rows)" [ "$rows" -eq 4 ]
check "rmmod madcm_cm_bench madcm_test_fabric madcm" \
	rmmod madcm_cm_bench madcm_test_fabric madcm
finish
