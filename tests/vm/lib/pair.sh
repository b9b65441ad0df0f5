# SPDX-License-Identifier: GPL-2.0
# Helpers for the two-guest scripts (tests/vm/pair, run by run2.sh); source
# after common.sh and ib.sh. Sets ROLE (a or b), ME, PEER (IPv4 addresses),
# PEER_LL (the peer's IPv6 link-local address, from its MAC).

ROLE=$(sed -n 's/.*madcm_pair=\([ab]\).*/\1/p' /proc/cmdline)
case $ROLE in
a) ME=192.0.2.1 PEER=192.0.2.2 PEER_MAC_LAST=0b ;;
b) ME=192.0.2.2 PEER=192.0.2.1 PEER_MAC_LAST=0a ;;
*) echo "not in a guest pair"; exit 1 ;;
esac
PEER_LL=fe80::5054:ff:fe12:34$PEER_MAC_LAST
echo "guest $ROLE: $ME, peer $PEER ($PEER_LL)"

# The guest's kernel (run2.sh): "stock", Debian's, or "kasan", the KASAN
# test kernel, with madcm.ko (PAIR_MADCM=1); "siw", the KASAN test kernel
# with siw, or "siwko", Debian's with siw.ko: no madcm.ko.
PAIR_KERNEL=${MADCM_PAIR_KERNEL:-stock}
case $PAIR_KERNEL in
stock|kasan) PAIR_MADCM=1 ;;
*) PAIR_MADCM=0 ;;
esac

# The wire: virtio-net eth0 with the guest's addresses, rxe0 over it,
# madcm and madcm_ibtest (on the stock kernel), and the peer reachable.
# PAIR_RXE=0 leaves rxe0 out, for a script that puts another RDMA device
# on eth0 (two devices on one netdev would both claim its addresses in
# rdma_cm).
PAIR_RXE=${PAIR_RXE:-1}
pair_setup() {
	local i
	load_modules virtio_pci virtio_net ib_core crc32_generic rdma_rxe sch_netem
	/bin/ip link set eth0 up || fail "eth0"
	/bin/ip addr add $ME/24 dev eth0
	ib_wait_dad eth0
	if [ "$PAIR_RXE" = 1 ]; then
		/bin/rdma link add rxe0 type rxe netdev eth0 || fail "rdma link add rxe0"
	fi
	[ "$PAIR_MADCM" = 0 ] || load_modules madcm madcm_ibtest
	for i in $(seq 120); do
		ping -c 1 -W 1 $PEER >/dev/null 2>&1 && return 0
	done
	fail "peer $PEER not reachable"
}

# pair_barrier N [TRIES]: wait until the peer has reached barrier N too
# (TRIES pings of up to a second each, 300 by default). Each
# guest shows it is there with an extra address, 192.0.2.(100 + 2N + role),
# and stays a little longer than the peer's ping interval, so that a peer
# still pinging sees it before this guest moves on (or powers off).
pair_barrier() {
	local n=$1 tries=${2:-300} mine theirs i
	if [ $ROLE = a ]; then
		mine=$((100 + 2 * n)) theirs=$((101 + 2 * n))
	else
		mine=$((101 + 2 * n)) theirs=$((100 + 2 * n))
	fi
	/bin/ip addr add 192.0.2.$mine/24 dev eth0
	for i in $(seq "$tries"); do
		if ping -c 1 -W 1 192.0.2.$theirs >/dev/null 2>&1; then
			sleep 3
			return 0
		fi
	done
	fail "barrier $n: the peer never came"
	return 1
}

# pair_wire_report: this guest's side of the wire, for the reader of a
# failure: the peer pinged, eth0's qdisc (what netem dropped), counters
# and neighbours, and every nonzero IB CM message counter (rxe).
pair_wire_report() {
	local d f v
	echo "--- the wire, guest $ROLE"
	ping -c 3 -W 1 $PEER 2>&1 | tail -2
	/bin/tc -s qdisc show dev eth0
	/bin/ip -s link show dev eth0
	/bin/ip neigh show dev eth0
	for d in /sys/class/infiniband_cm/*/[0-9]*; do
		[ -d "$d" ] || continue
		for f in "$d"/cm_*/*; do
			v=$(cat "$f" 2>/dev/null)
			[ "${v:-0}" = 0 ] || echo "  ib_cm ${d#/sys/class/infiniband_cm/} ${f#"$d"/} $v"
		done
	done
}

# A script killed at its time limit (lib/init's timeout sends TERM) says
# so, with the wire's state, before it goes.
trap 'echo "--- TERM: the script ran out of its time"; pair_wire_report; exit 143' TERM

# netem on this guest's side of the wire; "off" removes it.
pair_netem() {
	/bin/tc qdisc del dev eth0 root 2>/dev/null
	[ "$1" = off ] || /bin/tc qdisc add dev eth0 root netem "$@"
}

pair_teardown() {
	[ "$PAIR_MADCM" = 0 ] || rmmod madcm_ibtest || fail "rmmod madcm_ibtest"
	if [ "$PAIR_RXE" = 1 ]; then
		/bin/rdma link delete rxe0 || fail "rdma link delete rxe0"
	fi
	[ "$PAIR_MADCM" = 0 ] || rmmod madcm || fail "rmmod madcm"
	# IPv4 only: the next script needs the link-local address still.
	/bin/ip -4 addr flush dev eth0
}
