# SPDX-License-Identifier: GPL-2.0
# The memory of an idle CM connection on a real link (not a test): 256
# connections between the CMs of veth0 (namespace a, active) and veth1
# (b, passive), established and idle, then madcm_cm_ctl's memory file:
# per side, what the CM holds (madcm_cm_conn_memory()) and what the
# netdev backend holds (madcm_cm_conn_backend_memory(): the steering
# entry and its record, and on the active side the socket that reserves
# the connection's port in the host stack; a passive connection's port is
# its listener's). Rows of make bench's table, per connection.
# vm-timeout: 300
. /tests/common.sh

N=256
check "modprobe madcm_cm_ctl" modprobe madcm_cm_ctl
setup_netns_pair
check "attach a" cm a attach veth0
check "attach b" cm b attach veth1
check "listen on b" cm b listen veth1 L 192.0.2.2 7100 policy=accept backlog=512
in_ns a sh -c "i=0; while [ \$i -lt $N ]; do
	echo connect veth0 m\$i 192.0.2.1 192.0.2.2 7100 rev=2 ird=2 ord=2 > $CM/ctl || echo connect m\$i failed
	i=\$((i + 1)); done"
check "$N active connections established" conns_wait '^m[0-9]* .*ESTABLISHED' $N
check "$N passive connections established" conns_wait '^L\.[0-9]* .*ESTABLISHED' $N
sleep 1	# the last ACKs of the setup: idle from here
cat $CM/memory | tee /tmp/mem.txt
rows=0
for side in active passive; do
	set -- $(sed -n "s/^$side: connections \([0-9]*\) cm \([0-9]*\) backend \([0-9]*\)$/\1 \2 \3/p" /tmp/mem.txt)
	if [ "${1:-0}" -gt 0 ]; then
		rows=$((rows + 1))
		bench_row "cm over veth: memory per idle connection, $side side, CM" \
			$(($2 / $1)) - - bytes
		bench_row "cm over veth: memory per idle connection, $side side, backend" \
			$(($3 / $1)) - - bytes
		bench_row "cm over veth: memory per idle connection, $side side, in all" \
			$((($2 + $3) / $1)) - - bytes
	else
		for what in CM backend "in all"; do
			bench_none "cm over veth: memory per idle connection, $side side, $what" \
				"no established $side connection to measure"
		done
	fi
done
check "both sides measured ($rows)" [ "$rows" -eq 2 ]
in_ns a sh -c "i=0; while [ \$i -lt $N ]; do echo abort m\$i > $CM/ctl; i=\$((i + 1)); done"
check "detach a" cm a detach veth0
check "detach b" cm b detach veth1
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
