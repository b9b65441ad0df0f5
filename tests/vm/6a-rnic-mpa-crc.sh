# SPDX-License-Identifier: GPL-2.0
# MPA CRCs as rnic_mpa_crc says (rnic_iw.rst): madcm to madcm on one veth
# pair (m0 on veth0, m1 on veth1 in namespace b), the in-kernel ULP's
# Sends, Writes and Reads both ways, byte for byte, on two connections:
#   1. the default (Y): both ends ask, the connection has CRCs
#      (conn_no_crc stays 0 on both devices);
#   2. rnic_mpa_crc N: neither asks, so neither end sends or checks CRCs
#      (RFC 5044 7.1.2), conn_no_crc 1 on each device, and the data is
#      as intact.
# Whether the FPDUs then carry a zero CRC field, and the CRC32c otherwise,
# is checked octet by octet in KUnit (madcm_rnic_rdmap,
# fpdus_carry_the_crc_negotiated).
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

SIZE=1048576
CRC=/sys/module/madcm/parameters/rnic_mpa_crc

# no_crc_count DEV [NS]: DEV's conn_no_crc (namespace NS, if given).
no_crc_count() {
	if [ -n "${2:-}" ]; then
		in_ns "$2" /bin/rdma statistic show link "$1"/1
	else
		/bin/rdma statistic show link "$1"/1
	fi | awk '{ for (i = 1; i < NF; i++) if ($i == "conn_no_crc") print $(i + 1) }'
}

# conn TAG PORT: a connection cTAG to m1's listener lTAG, verified
# transfers both ways, then closed.
conn() {
	local c=c$1 l=l$1
	check "$1: listen" rt ns:b listen $l 192.0.2.2 $2 mode=accept data=$SIZE
	check "$1: connect" rt connect $c 192.0.2.2 $2 data=$SIZE
	check "$1: established" rt_wait $c.0 ESTABLISHED 60
	check "$1: ready" rt ready $c.0
	check "$1: peer ready" rt ready $l.0
	check "$1: Send, Write, Read both ways" xfer_both $c.0 $l.0 1 4096 9000 65536 $SIZE
	rt_data_line $c.0
	check "$1: no data error" rt_data_clean $c.0
	check "$1: no data error at the peer" rt_data_clean $l.0
	check "$1: disconnect" rt disconnect $c.0
	check "$1: gone" rt_wait_gone $c.0 60
	check "$1: peer gone" rt_wait_gone $l.0 60
	check "$1: unlisten" rt unlisten $l
}

load_modules madcm madcm_rdmacm_test
rdmacm_siw_net
check "rnic_mpa_crc Y by default" [ "$(cat $CRC)" = Y ]
check "rdma link add m0" /bin/rdma link add m0 type madcm netdev veth0
check "rdma link add m1" in_ns b /bin/rdma link add m1 type madcm netdev veth1

conn crc 7920
check "crc: m0 counts no connection without CRCs" [ "$(no_crc_count m0)" = 0 ]
check "crc: nor does m1" [ "$(no_crc_count m1 b)" = 0 ]

echo N >$CRC
conn nocrc 7921
echo Y >$CRC
check "nocrc: m0 counts its connection as without CRCs" [ "$(no_crc_count m0)" = 1 ]
check "nocrc: so does m1" [ "$(no_crc_count m1 b)" = 1 ]
check "no CRC error on m0" [ "$(rnic_stat m0 rx_crc_err)" = 0 ]

check "rdma link delete m1" in_ns b /bin/rdma link delete m1
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip netns del b
finish
