# SPDX-License-Identifier: GPL-2.0
# 200 connects to a port nobody listens on (issue 15, item 1). The peer's
# stack answers each SYN with a RST (RFC 9293 3.10.7.1), so each connect
# ends with RESET, often before madcm_cm_connect() has returned: the
# event runs on the core's workqueue. Every connection must still be
# released, the core must hold no node afterwards, and the detach (the
# core's stop, which waits for its nodes) must finish. Before the fix, a
# connection whose terminal event came first was never released, and the
# detach hung for good with RTNL held.
. /tests/common.sh

N=200
modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
check "attach a" cm a attach veth0

in_ns a sh -c "i=0; while [ \$i -lt $N ]; do
	echo connect veth0 r\$i 192.0.2.1 192.0.2.2 5999 > $CM/ctl || echo connect r\$i failed
	i=\$((i + 1)); done"

check "$N connects refused with RESET" conns_wait '^r[0-9]* .*RESET' $N
check "each one refused by the peer (ECONNREFUSED or ECONNRESET)" \
	sh -c "! grep '^r[0-9]* ' $CM/conns | grep -v -q 'status=-\(111\|104\)'"
grep -E "^(live_nodes|active_opens|rst_rcvd) " $CM_STATS
check "no node left in the core" wait_for $CM_STATS '^live_nodes 0$' 10
# The detach waits for the core's nodes: bounded here by timeout(1).
check "detach finishes" timeout 20 /bin/ip netns exec a sh -c "echo detach veth0 > $CM/ctl"
check "the core is gone" sh -c "! grep -q '^dev veth0 ' $CM_STATS"
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
