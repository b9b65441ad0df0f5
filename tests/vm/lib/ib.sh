# SPDX-License-Identifier: GPL-2.0
# Helpers for the scripts that run madcm on rxe; source after common.sh.

IBT_CTL=/sys/kernel/debug/madcm_ibtest/ctl

# ibt COMMAND...: one command to madcm_ibtest; fails when the exchange did.
ibt() {
	echo "$*" >$IBT_CTL
}

# ib_gid DEV ll|v4: a RoCE v2 GID of port 1 of DEV, link-local IPv6 or
# IPv4-mapped; waits up to 10 s for it to appear.
ib_gid() {
	local dev=$1 kind=$2 i f g pat
	case $kind in
	ll) pat='^fe80:' ;;
	v4) pat='^0000:0000:0000:0000:0000:ffff:' ;;
	esac
	for i in $(seq 100); do
		for f in /sys/class/infiniband/$dev/ports/1/gids/*; do
			g=$(cat "$f" 2>/dev/null) || continue
			echo "$g" | grep -q "$pat" || continue
			grep -q "RoCE v2" "/sys/class/infiniband/$dev/ports/1/gid_attrs/types/${f##*/}" 2>/dev/null || continue
			echo "$g"
			return 0
		done
		sleep 0.1
	done
	return 1
}

# One rxe device, rxe0, over veth0 (192.0.2.1, a link-local IPv6 address),
# madcm and madcm_ibtest loaded.
ib_setup_one() {
	load_modules ib_core crc32_generic rdma_rxe veth
	/bin/ip link add veth0 type veth peer name veth1 || fail "veth pair"
	/bin/ip addr add 192.0.2.1/24 dev veth0
	/bin/ip link set veth0 up && /bin/ip link set veth1 up
	/bin/rdma link add rxe0 type rxe netdev veth0 || fail "rdma link add rxe0"
	ib_wait_dad veth0
	load_modules madcm madcm_ibtest
}

# ib_wait_dad DEV: wait (up to 10 s) until DEV has a link-local IPv6
# address that is no longer tentative: a route to it exists only then.
ib_wait_dad() {
	local i
	for i in $(seq 100); do
		/bin/ip -6 addr show dev "$1" scope link | grep -q inet6 &&
			! /bin/ip -6 addr show dev "$1" | grep -q tentative && return 0
		sleep 0.1
	done
	fail "$1: no usable IPv6 link-local address"
}

ib_teardown() {
	rmmod madcm_ibtest 2>/dev/null
	/bin/rdma link delete rxe0 2>/dev/null
	/bin/ip link del veth0 2>/dev/null
	rmmod madcm || fail "rmmod madcm"
}
