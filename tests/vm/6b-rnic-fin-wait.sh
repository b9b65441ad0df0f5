# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 200
# Issue 31, item 5: a stream on the host's TCP ends in bounded time when
# the peer acknowledges our FIN and never sends its own. The QP's socket
# is not orphaned, so the host's tcp_fin_timeout, which bounds an
# orphaned socket's FIN-WAIT-2, would not end it: the RNIC puts the same
# bound on it (rnic/qp_sock.c, ks_fin_wait_timeout). The in-kernel ULP
# on m0 (veth0) accepts mpa_peer (a plain TCP socket in namespace b) and
# disconnects; mpa_peer takes the FIN and holds its half of the
# connection open (-H). Within tcp_fin_timeout (3 s here) the RNIC resets
# the stream: the ULP has its DISCONNECTED, mpa_peer sees the RST, and
# host_tcp_fin_wait_timeout counts it.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh

load_modules ib_core iw_cm rdma_cm
load_modules madcm madcm_rdmacm_test
rdmacm_siw_net
check "rdma link add m0 type madcm netdev veth0" /bin/rdma link add m0 type madcm netdev veth0
fin0=$(cat /proc/sys/net/ipv4/tcp_fin_timeout)
echo 3 > /proc/sys/net/ipv4/tcp_fin_timeout
f0=$(rnic_stat m0 host_tcp_fin_wait_timeout)

check "listen on m0" rt listen F 192.0.2.1 7970 mode=accept
in_ns b mpa_peer client 192.0.2.1 7970 -r 2 -H -t 60 >/tmp/F.log 2>&1 &
pid=$!
check "F.0 established" rt_wait F.0 ESTABLISHED 60
madcm_host_tcp_check m0
check "disconnect F.0" rt disconnect F.0
# well before mpa_peer gives up (60 s) and sends its FIN after all
check "F.0 disconnected with the peer's half still open" rt_wait F.0 DISCONNECTED 30
wait $pid
rc=$?
sed 's/^/F: /' /tmp/F.log
check "mpa_peer took the FIN, sent none, and was reset (exit $rc)" [ $rc -eq 0 ]
check "host_tcp_fin_wait_timeout counted it ($f0 -> $(rnic_stat m0 host_tcp_fin_wait_timeout))" \
	[ "$(rnic_stat m0 host_tcp_fin_wait_timeout)" -eq $((f0 + 1)) ]
rt destroy F.0 2>/dev/null
check "F.0 gone" rt_wait_gone F.0 60
check "unlisten" rt unlisten F

echo "$fin0" > /proc/sys/net/ipv4/tcp_fin_timeout
check "every id destroyed, no PD, CQ or QP left" rt_all_released 0
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip netns del b
check "rmmod madcm_rdmacm_test madcm" rmmod madcm_rdmacm_test madcm
finish
