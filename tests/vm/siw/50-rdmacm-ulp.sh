# SPDX-License-Identifier: GPL-2.0
# Issue 17: the in-kernel rdma_cm ULP on a madcm RNIC (m0 on veth0,
# init_net) connects to rdma_cm servers on soft-iWARP (rdmacm_peer on siw0,
# namespace b): private data both ways, then the ULP disconnects; siw
# disconnects first; siw rejects with private data. The ULP's events,
# in order, and the peer's view are checked. RDMACM_DEV=siw runs the same
# with a second siw device in place of madcm's (tests/vm/lib/rdmacm-siw.sh).
# siw is the server here, as in 30-siw-server.sh: the other role is
# 25-rdmacm-ulp-accept.sh, in the other boot (tests/vm/run-siw.sh).
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh

rdmacm_siw_setup
CLIENT_OK="ADDR_RESOLVED/0,ROUTE_RESOLVED/0,ESTABLISHED/0/$PEER_PD,DISCONNECTED/0"

# serve NAME PORT OPTS...: rdmacm_peer accepts one connection on
# 192.0.2.2:PORT. Not on the wildcard: that would reach the ULP's device
# too, and a second siw device (RDMACM_DEV=siw) would make its socket in
# namespace b bound to veth0's index, which may be veth1's there.
serve() {
	local log=/tmp/$1.log port=$2
	shift 2
	in_ns b rdmacm_peer server $port -b 192.0.2.2 -t 30 "$@" >$log 2>&1 &
	check "$log: the server listens" wait_for $log "rdmacm: listening"
}

# 1. Private data both ways; the ULP disconnects.
serve u1 7101 -p $PEER_PD
check "connect u1" rt connect u1 192.0.2.2 7101 pdata=$ULP_PD
check "u1.0 established" rt_wait u1.0 ESTABLISHED 30
check "u1.0: disconnect (ULP)" rt disconnect u1.0
ulp_conn_ok u1.0 "$CLIENT_OK"
wait $!
check "u1: rdmacm_peer exits 0" [ $? -eq 0 ]
cat /tmp/u1.log
expect_in /tmp/u1.log "rdmacm: device siw0"
expect_in /tmp/u1.log "^rdmacm: pdata=$ULP_PD\$"
expect_in /tmp/u1.log "event RDMA_CM_EVENT_ESTABLISHED status 0"
expect_in /tmp/u1.log "event RDMA_CM_EVENT_DISCONNECTED status 0"

# 2. siw disconnects first.
serve u2 7102 -p $PEER_PD -c
check "connect u2" rt connect u2 192.0.2.2 7102 pdata=$ULP_PD
ulp_conn_ok u2.0 "$CLIENT_OK"
check "u2.0: siw disconnected" [ "$(rt_field u2.0 local_disconnect)" = 0 ]
wait $!
check "u2: rdmacm_peer exits 0" [ $? -eq 0 ]
cat /tmp/u2.log
expect_in /tmp/u2.log "^rdmacm: pdata=$ULP_PD\$"
expect_in /tmp/u2.log "rdmacm: disconnecting"

# 3. siw rejects, with private data.
serve u3 7103 -p $REJ_PD -r
check "connect u3" rt connect u3 192.0.2.2 7103 pdata=$ULP_PD
ulp_conn_ok u3.0 "ADDR_RESOLVED/0,ROUTE_RESOLVED/0,REJECTED/$ULP_REJ_STATUS/$REJ_PD"
wait $!
check "u3: rdmacm_peer exits 0" [ $? -eq 0 ]
cat /tmp/u3.log
expect_in /tmp/u3.log "^rdmacm: pdata=$ULP_PD\$"
expect_in /tmp/u3.log "rdmacm: rejected with pd_len=6"

rdmacm_siw_finish
