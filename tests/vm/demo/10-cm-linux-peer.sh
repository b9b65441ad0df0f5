# SPDX-License-Identifier: GPL-2.0
# make run: madcm's CM on veth0 (namespace a) connects to a Linux TCP
# program speaking MPA (namespace b), then a Linux client connects to a
# madcm listener.
. /tests/common.sh
modprobe madcm_cm_ctl
setup_netns_pair
echo "CM attached to veth0 in namespace a (192.0.2.1); Linux peer in b (192.0.2.2)"
cm a attach veth0
in_ns b mpa_peer server 5000 -r 2 -p 48656c6c6f -t 15 &
sleep 0.5
echo "madcm: connect c1 192.0.2.1 -> 192.0.2.2:5000, MPA rev 2, IRD 4, ORD 6"
cm a connect veth0 c1 192.0.2.1 192.0.2.2 5000 rev=2 ird=4 ord=6 pdata=6d6164636d
wait_event c1 ESTABLISHED >/dev/null
cm a close c1
wait_event c1 CLOSE >/dev/null
wait
echo "madcm: listen on 0.0.0.0:6000; a Linux client connects"
cm a listen veth0 L 0.0.0.0 6000 policy=accept pdata=776f726c64
in_ns b mpa_peer client 192.0.2.1 6000 -r 2 -p 6869 -c -t 15
wait_event L.0 CLOSE >/dev/null
echo "madcm's view ($CM/conns):"
cat $CM/conns
echo "counters of veth0's CM:"
grep -E "^ *(rx_stolen|tx_frames|established|active_opens|passive_opens|retrans) " $CM_STATS
cm a detach veth0
teardown_netns_pair
rmmod madcm_cm_ctl madcm
