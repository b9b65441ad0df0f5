# SPDX-License-Identifier: GPL-2.0
# Connections to the host itself on one madcm device (66-rnic-loopback.sh
# on veth0, 68-rnic-loopback-vlan.sh on a VLAN device above it): both
# ends on the device, looped by the CM and carried by the host's TCP.
# Sourced after common.sh, rdmacm.sh and rdmacm-data.sh; the wire's far
# end is veth1 in namespace b.

# lb_veth1_rx: the frames veth1 (namespace b) received so far.
lb_veth1_rx() {
	/bin/ip netns exec b cat /sys/class/net/veth1/statistics/rx_packets
}

# tcp_resets: TCP's EstabResets (established connections that a RST
# ended) from /proc/net/snmp.
tcp_resets() {
	awk '$1 == "Tcp:" && $2 ~ /^[0-9]+$/ { print $9 }' /proc/net/snmp
}

# lb_rping PORT ADDR...: rdma-core's rping, server and client on this
# host, to each ADDR in turn (PORT, PORT + 1, ...), every ping checked,
# and no RST from the host's TCP on the way: both ends of each stream
# are this host's sockets, so a reset means a segment met no socket.
lb_rping() {
	local port=$1 a crc src spid r0
	shift
	for a in "$@"; do
		r0=$(tcp_resets)
		rping -s -a $a -p $port -C 10 -S 4096 -V -v >/tmp/rping-s.out 2>&1 &
		spid=$!
		sleep 1
		timeout 120 rping -c -a $a -p $port -C 10 -S 4096 -V -v >/tmp/rping-c.out 2>&1
		crc=$?
		timeout 30 sh -c "while kill -0 $spid 2>/dev/null; do sleep 0.2; done"
		kill $spid 2>/dev/null
		wait $spid
		src=$?
		tail -1 /tmp/rping-c.out | cut -c1-120 | sed "s/^/rping -c $a: /"
		tail -1 /tmp/rping-s.out | cut -c1-120 | sed "s/^/rping -s $a: /"
		# A failed run: how far each side got and everything else it
		# printed (its cause), TCP's resets, the device's counters and
		# the kernel's last messages.
		if [ $crc -ne 0 ] || [ $src -ne 0 ] ||
		   [ "$(grep -c '^ping data' /tmp/rping-c.out)" -ne 10 ]; then
			echo "rping $a: the client checked $(grep -c '^ping data' /tmp/rping-c.out) pings"
			grep -v '^ping data' /tmp/rping-c.out | head -20 |
				sed "s/^/rping -c $a (all): /"
			grep -v '^ping data' /tmp/rping-s.out | head -20 |
				sed "s/^/rping -s $a (all): /"
			grep '^Tcp:' /proc/net/snmp | sed 's/^/snmp: /'
			grep '^TcpExt:' /proc/net/netstat | sed 's/^/netstat: /'
			rdma statistic show link m0/1 2>/dev/null | sed 's/^/m0: /'
			dmesg | tail -20 | sed 's/^/dmesg: /'
		fi
		check "rping to $a: the client exits 0 (got $crc)" [ $crc -eq 0 ]
		check "rping to $a: the server exits 0 (got $src)" [ $src -eq 0 ]
		check "rping to $a: 10 pings checked" \
			[ "$(grep -c '^ping data' /tmp/rping-c.out)" -eq 10 ]
		check "rping to $a: the host's TCP reset no stream ($r0 -> $(tcp_resets))" \
			[ "$(tcp_resets)" -eq "$r0" ]
		port=$((port + 1))
	done
}

# lb_ulp DEV ADDR PORT: the in-kernel ULP (madcm_rdmacm_test.ko), listener
# and client on DEV at ADDR: Send, Write and Read both ways, 1 B to 1 MiB.
lb_ulp() {
	local dev=$1 addr=$2 port=$3
	load_modules madcm_rdmacm_test
	check "listen LL on $dev ($addr)" rt listen LL $addr $port mode=accept data=1048576
	check "connect l1 to $addr" rt connect l1 $addr $port data=1048576
	check "l1.0 established" rt_wait l1.0 ESTABLISHED 60
	check "LL.0: the peer's advertisement" rt ready LL.0
	check "l1.0: the peer's advertisement" rt ready l1.0
	check "l1.0 on $dev" [ "$(rt_field l1.0 dev)" = $dev ]
	check "LL.0 on $dev" [ "$(rt_field LL.0 dev)" = $dev ]
	check "l1: Send, Write, Read both ways, 1 B to 1 MiB" xfer_both l1.0 LL.0 $DATA_SIZES
	check "l1.0: no data error" rt_data_clean l1.0
	check "LL.0: no data error" rt_data_clean LL.0
	check "l1.0: disconnect" rt disconnect l1.0
	check "l1.0: id destroyed" rt_wait_gone l1.0 60
	check "LL.0: id destroyed" rt_wait_gone LL.0 60
	check "unlisten LL" rt unlisten LL
	check "every id destroyed, no PD, CQ or QP left" rt_all_released 0
	check "rmmod madcm_rdmacm_test" rmmod madcm_rdmacm_test
}

# lb_carried DEV RX0: what carried it all: the CM resolved its peer to
# this host and looped its frames, the streams were the host's TCP's,
# veth1 (RX0 frames before) took none of it, and DEV holds nothing more.
lb_carried() {
	local dev=$1 rx0=$2 rx1 looped local_r
	grep -E '^dev |^ *(resolve_|tx_looped|tx_frames)' $CM_STATS | sed 's/^/  cm: /'
	looped=$(awk '$1 == "tx_looped" { n += $2 } END { print n + 0 }' $CM_STATS)
	local_r=$(awk '$1 == "resolve_local" { n += $2 } END { print n + 0 }' $CM_STATS)
	check "the CM resolved its peer to this host (resolve_local ${local_r:-none})" \
		[ "${local_r:-0}" -gt 0 ]
	check "and looped its frames back (tx_looped ${looped:-none})" [ "${looped:-0}" -gt 0 ]
	madcm_host_tcp_check $dev
	rx1=$(lb_veth1_rx)
	echo "veth1 rx_packets: $rx0 before, $rx1 after"
	check "the wire carried none of it (veth1 took $((rx1 - rx0)) frames, fewer than 50)" \
		[ $((rx1 - rx0)) -lt 50 ]
	check "no PD, QP, MR, cm_id left on $dev" sh -c \
		"/bin/rdma resource show | awk '/ $dev: / { for (i = 3; i < NF; i += 2)
			if (\$i != \"cq\" && \$(i + 1) != 0) exit 1 }'"
}
