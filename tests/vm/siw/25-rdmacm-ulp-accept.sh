# SPDX-License-Identifier: GPL-2.0
# Issue 17: rdma_cm clients on soft-iWARP (rdmacm_peer on siw0, namespace
# b) connect to the in-kernel rdma_cm ULP listening on a madcm RNIC
# (m0 on veth0, init_net): private data both ways, then siw
# disconnects first; the ULP disconnects; the ULP rejects with private
# data. The ULP's events, in order, and the
# peer's view are checked. RDMACM_DEV=siw runs the same with a second siw
# device in place of madcm's (tests/vm/lib/rdmacm-siw.sh). siw is the
# client here, as in 20-siw-client.sh: the other role is 50-rdmacm-ulp.sh.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh

rdmacm_siw_setup
SERVER_OK="CONNECT_REQUEST/0/$PEER_PD,ESTABLISHED/0,DISCONNECTED/0"
check "listen LA 192.0.2.1:7201 (accept)" rt listen LA 192.0.2.1 7201 mode=accept pdata=$ULP_PD
# Specific addresses only: a wildcard listen reaches siw0 too, whose
# socket siw makes in the caller's namespace (init_net) bound to the
# index of veth1 (namespace b), which may be another device's there.
# tests/vm/pair/20-rdmacm-ulp.sh has the wildcard.
check "listen LR 192.0.2.1:7202 (reject)" rt listen LR 192.0.2.1 7202 mode=reject pdata=$REJ_PD
cat $RT/listeners

# 1. Private data both ways; siw disconnects first.
in_ns b rdmacm_peer client 192.0.2.1 7201 -p $PEER_PD -c -t 30 >/tmp/a1.log 2>&1
check "a1: rdmacm_peer exits 0" [ $? -eq 0 ]
cat /tmp/a1.log
expect_in /tmp/a1.log "rdmacm: device siw0"
expect_in /tmp/a1.log "event RDMA_CM_EVENT_ESTABLISHED status 0"
expect_in /tmp/a1.log "^rdmacm: pdata=$ULP_PD\$"
ulp_conn_ok LA.0 "$SERVER_OK"
check "LA.0: siw disconnected" [ "$(rt_field LA.0 local_disconnect)" = 0 ]

# 2. The ULP disconnects.
in_ns b rdmacm_peer client 192.0.2.1 7201 -p $PEER_PD -t 30 >/tmp/a2.log 2>&1 &
check "LA.1 established" rt_wait LA.1 ESTABLISHED 30
check "LA.1: disconnect (ULP)" rt disconnect LA.1
ulp_conn_ok LA.1 "$SERVER_OK"
wait $!
check "a2: rdmacm_peer exits 0" [ $? -eq 0 ]
cat /tmp/a2.log
expect_in /tmp/a2.log "^rdmacm: pdata=$ULP_PD\$"
expect_in /tmp/a2.log "event RDMA_CM_EVENT_DISCONNECTED status 0"

# 3. The ULP rejects, with private data.
in_ns b rdmacm_peer client 192.0.2.1 7202 -p $PEER_PD -t 30 >/tmp/a3.log 2>&1
check "a3: rdmacm_peer is rejected (exit 5)" [ $? -eq 5 ]
cat /tmp/a3.log
expect_in /tmp/a3.log "event RDMA_CM_EVENT_REJECTED status $PEER_REJ_STATUS"
expect_in /tmp/a3.log "^rdmacm: pdata=$REJ_PD\$"
ulp_conn_ok LR.0 "CONNECT_REQUEST/0/$PEER_PD"

check "unlisten LA" rt unlisten LA
check "unlisten LR" rt unlisten LR
rdmacm_siw_finish
