# SPDX-License-Identifier: GPL-2.0
# madcm to madcm across two namespaces: a CM on each end of the veth pair,
# 200 connections opened at once, all established, all closed, nothing
# left behind.
. /tests/common.sh

N=200
modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
check "attach a" cm a attach veth0 time_wait_ms=1000
check "attach b" cm b attach veth1 time_wait_ms=1000
check "listen on b" cm b listen veth1 L 192.0.2.2 7000 policy=accept backlog=256 pdata=b0b0

# One shell in a, one write per connection.
in_ns a sh -c "i=0; while [ \$i -lt $N ]; do
	echo connect veth0 c\$i 192.0.2.1 192.0.2.2 7000 rev=2 ird=2 ord=2 pdata=\$(printf %04x \$i) > $CM/ctl || echo connect c\$i failed
	i=\$((i + 1)); done"

check "$N active connections established" conns_wait '^c[0-9]* .*ESTABLISHED' $N
check "$N passive connections established" conns_wait '^L\.[0-9]* .*ESTABLISHED' $N
check "every passive side got its request's private data" \
	sh -c "[ \$(grep '^L\\.' $CM/conns | sed 's/.*pdata=//' | sort -u | wc -l) -eq $N ]"
check "every active side got the reply's private data" \
	sh -c "[ \$(grep -c '^c[0-9]* .*pdata=b0b0' $CM/conns) -eq $N ]"

in_ns a sh -c "i=0; while [ \$i -lt $N ]; do echo close c\$i > $CM/ctl; i=\$((i + 1)); done"
check "$N active sides closed" conns_wait '^c[0-9]* .*CLOSE nevents.*status=0' $N
check "$N passive sides closed" conns_wait '^L\.[0-9]* .*CLOSE nevents.*status=0' $N
check "no connection reset" sh -c "! grep -q RESET $CM/conns"
sleep 2	# TIME-WAIT (1 s here) ends
grep -E "^(live_nodes|established|passive_opens|active_opens|backlog_drop) " $CM_STATS
check "no connection left on either side" sh -c "[ \$(grep -c '^live_nodes 0' $CM_STATS) -eq 2 ]"
check "detach a" cm a detach veth0
check "detach b" cm b detach veth1
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
