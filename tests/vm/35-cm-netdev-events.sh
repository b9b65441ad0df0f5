# SPDX-License-Identifier: GPL-2.0
# The CM follows its device: link down resets its connections (listeners
# stay, and serve again once the link is up), removing an address resets
# the connections on it, and a device that goes away takes its CM with it.
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
check "attach" cm a attach veth0 time_wait_ms=500 rto_min_ms=200 max_retrans=2
check "listen" cm a listen veth0 E 0.0.0.0 6400 policy=accept

# Link down with a connection up.
in_ns b mpa_peer client 192.0.2.1 6400 -t 30 >/tmp/e1.log 2>&1 &
check "E.0 established" wait_event E.0 ESTABLISHED
check "link down" /bin/ip -n a link set veth0 down
check "E.0 reset by link down" wait_event E.0 RESET
check "E.0 status ECONNABORTED" grep -q "^E.0 .*status=-103" $CM/conns
check "link up" /bin/ip -n a link set veth0 up
sleep 1
kill %1 2>/dev/null
in_ns b mpa_peer client 192.0.2.1 6400 -c -t 20 >/tmp/e2.log 2>&1
check "the listener serves again after link up" grep -q "accepted by responder" /tmp/e2.log

# Address removal.
in_ns b mpa_peer client 192.0.2.1 6400 -t 30 >/tmp/e3.log 2>&1 &
check "E.2 established" wait_event E.2 ESTABLISHED
check "remove 192.0.2.1" /bin/ip -n a addr del 192.0.2.1/24 dev veth0
check "E.2 reset by address removal" wait_event E.2 RESET
kill %1 2>/dev/null
grep -E "^ *(dev_down|addr_removed) " $CM_STATS

# The device goes away with the CM attached and a listener up.
check "delete namespace a (and veth0)" /bin/ip netns del a
sleep 1
check "CM detached with its device" sh -c "! grep -q '^dev veth0' $CM_STATS"
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
