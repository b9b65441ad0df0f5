# SPDX-License-Identifier: GPL-2.0
# Issue 8, 1b: an rdma_cm client on soft-iWARP connects to a madcm
# listener. madcm (namespace a, veth0, 192.0.2.1) accepts; the client's
# rdma_cm (siw0 on veth1, namespace b) reports the connection
# established, with IRD/ORD that agree with madcm's.
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
setup_siw
check "attach" cm a attach veth0 time_wait_ms=500
check "listen L1 (rev 2, accept)" cm a listen veth0 L1 0.0.0.0 6000 policy=accept pdata=5151
in_ns b rdmacm_peer client 192.0.2.1 6000 -i 3 -o 2 -p 7777 -c -t 20 >/tmp/c1.log 2>&1
rc=$?
cat /tmp/c1.log
check "the client exits 0" [ $rc -eq 0 ]
expect_in /tmp/c1.log "rdmacm: device siw0"
expect_in /tmp/c1.log "event RDMA_CM_EVENT_ESTABLISHED status 0"
expect_in /tmp/c1.log "pdata=5151"
expect_in /tmp/c1.log "rdmacm: disconnected"
check "L1.0 established" wait_event L1.0 ESTABLISHED
conn_line L1.0
check "L1.0 got the client's private data" grep -q "^L1.0 .*pdata=7777" $CM/conns
check "L1.0 revision 2" [ "$(conn_field L1.0 rev)" = 2 ]
# Both sides' view: madcm's IRD is siw's ORD and madcm's ORD siw's IRD.
sird=$(sed -n 's/^rdmacm: established ird=\([0-9]*\) .*/\1/p' /tmp/c1.log)
sord=$(sed -n 's/^rdmacm: established ird=[0-9]* ord=\([0-9]*\) .*/\1/p' /tmp/c1.log)
echo "madcm ird=$(conn_field L1.0 ird) ord=$(conn_field L1.0 ord); siw ird=$sird ord=$sord"
check "madcm's IRD is siw's ORD" [ "$(conn_field L1.0 ird)" = "$sord" ]
check "madcm's ORD is siw's IRD" [ "$(conn_field L1.0 ord)" = "$sird" ]
check "L1.0 closed" wait_event L1.0 CLOSE
check "L1.0 closed cleanly" grep -q "^L1.0 .*status=0 " $CM/conns
cat $CM_STATS
check "unlisten" cm a unlisten L1
check "detach" cm a detach veth0
teardown_siw
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
