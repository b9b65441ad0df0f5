# SPDX-License-Identifier: GPL-2.0
# The CM benchmark (not a test), madcm_cm_bench.ko over the CM's test
# wire: connections set up and torn down per second, and the memory the
# CM holds per idle established connection on either side (slab objects
# really allocated), as rows of make bench's table. The stock kernel has
# no iWARP CM to compare with. It takes seconds; the limit is for a
# loaded host.
# vm-timeout: 300
. /tests/common.sh

check "modprobe madcm_cm_bench" modprobe madcm_cm_bench
cat /debug/madcm_cm_bench/bench | tee /tmp/cm.txt
# Each figure, or "-" and why (the bench's "round N: ..." line) when the
# bench did not give it.
why=$(sed -n 's/^\(round [0-9]*: .*\)/\1/p' /tmp/cm.txt | head -1)
why=${why:-"no figure in the bench's output"}
rows=0
for f in setup teardown; do
	n=$(sed -n "s/^$f (\([^)]*\)): *\([0-9]*\) connections\/s$/\2/p" /tmp/cm.txt | head -1)
	if [ -n "$n" ]; then
		rows=$((rows + 1))
	else
		n=-
		bench_none "cm: $f over the test wire" "$why"
	fi
	bench_row "cm: $f over the test wire" "$n" - - connections/s
done
for side in active passive; do
	n=$(sed -n "s/^memory per idle connection ($side side): \([0-9]*\) bytes$/\1/p" /tmp/cm.txt | head -1)
	if [ -n "$n" ]; then
		rows=$((rows + 1))
	else
		n=-
		bench_none "cm: memory per idle connection ($side side)" "$why"
	fi
	bench_row "cm: memory per idle connection ($side side)" "$n" - - bytes
done
check "the bench gave its figures ($rows)" [ "$rows" -eq 4 ]
check "rmmod madcm_cm_bench madcm_test_fabric madcm" \
	rmmod madcm_cm_bench madcm_test_fabric madcm
finish
