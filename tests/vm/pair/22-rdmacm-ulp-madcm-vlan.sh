# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 600
# The in-kernel rdma_cm ULP over madcm RNICs on 802.1Q VLAN devices
# (issue 17, item 4: "VLAN, as in the CM"): m1 on each guest's eth0.100
# (VLAN 100, 198.51.100.0/24). A connection with private data both ways,
# then a disconnect from the client. The peer's eth0.100 takes a frame
# only with exactly one tag of VID 100 (IEEE 802.1Q), so a connection
# that establishes shows the frames were tagged once, not twice or never.
. /tests/common.sh
. /tests/ib.sh
. /tests/rdmacm.sh
PAIR_RXE=0
. /tests/pair.sh

case $ROLE in
a) VME=198.51.100.1 VPEER=198.51.100.2 VME6=fd01::1 VPEER6=fd01::2 ;;
b) VME=198.51.100.2 VPEER=198.51.100.1 VME6=fd01::2 VPEER6=fd01::1 ;;
esac
CPD=c1e47000aa55
SPD=5e12ae0055aa
PORT=7480

pair_setup
load_modules 8021q
/bin/ip link add link eth0 name eth0.100 type vlan id 100 || fail "eth0.100"
/bin/ip link set eth0.100 up
/bin/ip addr add $VME/24 dev eth0.100
check "rdma link add m1 type madcm netdev eth0.100" \
	/bin/rdma link add m1 type madcm netdev eth0.100
/bin/rdma link show
rt_transport m1
peer_up() {
	local i
	for i in $(seq 60); do
		ping -c 1 -W 1 $VPEER >/dev/null 2>&1 && return 0
	done
	return 1
}
check "the peer answers on VLAN 100" peer_up

# What the client saw of VLAN 100 when its connect failed (issue 32,
# item 3: a connect ended -113, EHOSTUNREACH, once on 6.12, and its logs
# were lost): the VLAN device, its address and neighbours, the route
# rdma_cm's resolution takes, the RNIC, the ULP's events and the CM's
# counters, then the wire under it.
vlan_report() {
	echo "--- VLAN 100, guest $ROLE"
	/bin/ip -d link show dev eth0.100
	/bin/ip addr show dev eth0.100
	/bin/ip route get $VPEER
	/bin/ip neigh show dev eth0.100
	ping -c 2 -W 1 $VPEER 2>&1 | tail -2
	/bin/rdma link show
	rt_line v1.0 2>/dev/null || true
	cat $CM_STATS 2>/dev/null || true
	pair_wire_report
}
load_modules rdma_cm madcm_rdmacm_test

if [ $ROLE = a ]; then
	check "listen LV $VME:$PORT (accept)" rt listen LV $VME $PORT mode=accept pdata=$SPD
fi
pair_barrier 0
if [ $ROLE = b ]; then
	if rt connect v1 $VPEER $PORT pdata=$CPD &&
		rt_wait v1.0 ESTABLISHED 120; then
		ok "connect v1: established"
	else
		fail "connect v1: established"
		vlan_report
	fi
	check "v1.0: disconnect (client)" rt disconnect v1.0
	check "v1.0: id destroyed" rt_wait_gone v1.0 120
	rt_line v1.0
	# the CM core's counters (resolve_fail, resolve_pending) if it failed
	cat $CM_STATS 2>/dev/null || true
	check "v1.0: events" rt_expect v1.0 \
		"ADDR_RESOLVED/0,ROUTE_RESOLVED/0,ESTABLISHED/0/$SPD,DISCONNECTED/0"
	check "v1.0: on m1" [ "$(rt_field v1.0 dev)" = m1 ]
else
	check "LV.0: established" rt_wait LV.0 ESTABLISHED 120
	check "LV.0: id destroyed" rt_wait_gone LV.0 120
	rt_line LV.0
	check "LV.0: events" rt_expect LV.0 \
		"CONNECT_REQUEST/0/$CPD,ESTABLISHED/0,DISCONNECTED/0"
	check "LV.0: on m1" [ "$(rt_field LV.0 dev)" = m1 ]
fi
pair_barrier 1
[ $ROLE = a ] && check "unlisten LV" rt unlisten LV
check "rdma link delete m1" /bin/rdma link delete m1

# A madcm device on eth0 carries the connections of eth0's VLANs on
# their VLAN. rdma_cm picks an iWARP device by its GID, the MAC address
# of its net_device (cma_acquire_dev_by_src_ip), and eth0.100 has eth0's
# MAC: an address on eth0.100 goes to m0 on eth0, and to whichever device
# registered first when m0 and m1 both exist. m0 must then run the
# connection on VLAN 100 through its core, as irdma's one device serves
# its port's VLANs. Before (2026-12-06), m0 ran it untagged through eth0
# with the VLAN's addresses, which these guests' flat network answers
# and a real VLAN does not: established, but nothing through eth0.100.
# vlan_pass NAME LISTENER PORT DEVS N [LADDR [SERVER]]: one connection
# over VLAN 100, private data both ways, on one of DEVS ("m0" or
# "m0|m1"), to a listener on LADDR (default the server's VLAN address)
# at SERVER (default the same IPv4 address); barriers N and N + 1.
vlan_count() {
	cat /sys/class/net/eth0.100/statistics/$1_packets
}
vlan_pass() {
	local c=$1 l=$2 port=$3 devs=$4 n=$5 laddr=${6:-$VME} dev tx rx
	local server=${7:-$VPEER}
	if [ $ROLE = a ]; then
		check "listen $l $laddr:$port (accept)" rt listen $l $laddr $port mode=accept pdata=$SPD
	fi
	# Before the barrier: the peer may connect as soon as it is past it.
	tx=$(vlan_count tx) rx=$(vlan_count rx)
	pair_barrier $n
	if [ $ROLE = b ]; then
		if rt connect $c $server $port pdata=$CPD &&
			rt_wait $c.0 ESTABLISHED 120; then
			ok "connect $c: established"
		else
			fail "connect $c: established"
			vlan_report
		fi
		check "$c.0: disconnect (client)" rt disconnect $c.0
		check "$c.0: id destroyed" rt_wait_gone $c.0 120
		rt_line $c.0
		check "$c.0: events" rt_expect $c.0 \
			"ADDR_RESOLVED/0,ROUTE_RESOLVED/0,ESTABLISHED/0/$SPD,DISCONNECTED/0"
		dev=$(rt_field $c.0 dev)
	else
		check "$l.0: established" rt_wait $l.0 ESTABLISHED 120
		check "$l.0: id destroyed" rt_wait_gone $l.0 120
		rt_line $l.0
		check "$l.0: events" rt_expect $l.0 \
			"CONNECT_REQUEST/0/$CPD,ESTABLISHED/0,DISCONNECTED/0"
		dev=$(rt_field $l.0 dev)
	fi
	case "|$devs|" in
	*"|$dev|"*) ok "$c: on $dev ($devs)" ;;
	*) fail "$c: on '$dev', not $devs" ;;
	esac
	# Tagged: the peer's frames of the connection came in through
	# eth0.100 (at least SYN or SYN-ACK, ACK, MPA frame and FIN), not
	# untagged through eth0, whose ARP answers for the VLAN's addresses
	# too. eth0.100's own sends count the socket's after the hand-off
	# only: the CM tags its frames itself and sends them on eth0.
	tx=$(($(vlan_count tx) - tx)) rx=$(($(vlan_count rx) - rx))
	echo "$c: eth0.100 sent $tx and took $rx packets"
	check "$c: tagged, through eth0.100 (took $rx)" [ $rx -ge 4 ]
	pair_barrier $((n + 1))
	[ $ROLE = a ] && check "unlisten $l" rt unlisten $l
}
/bin/ip -6 addr add $VME6/64 dev eth0.100
ib_wait_dad eth0.100
check "rdma link add m0 type madcm netdev eth0" \
	/bin/rdma link add m0 type madcm netdev eth0
vlan_pass v2 LV2 $((PORT + 1)) m0 2
# m1 on eth0.100 beside m0: either may take the connection.
check "rdma link add m1 type madcm netdev eth0.100 (beside m0)" \
	/bin/rdma link add m1 type madcm netdev eth0.100
vlan_pass v3 LV3 $((PORT + 2)) "m0|m1" 4
# m0 alone, listening on any address: its listen covers VLAN 100. (With
# m1 beside it, rdma_cm 6.1 may give the request's id to the other device
# than the one that took it: Documentation/rnic_iw.rst, "VLANs".)
check "rdma link delete m1 (m0 stays)" /bin/rdma link delete m1
vlan_pass v4 LV4 $((PORT + 3)) m0 6 0.0.0.0
# The same over IPv6 (fd01::/64 on eth0.100), to its address.
vlan_pass v5 LV5 $((PORT + 4)) m0 8 $VME6 $VPEER6
cat $CM_STATS 2>/dev/null || true

cat $RT/counters
check "every id destroyed, no PD, CQ or QP left" rt_all_released 0
check "rmmod madcm_rdmacm_test" rmmod madcm_rdmacm_test
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip link del eth0.100
pair_teardown
finish
