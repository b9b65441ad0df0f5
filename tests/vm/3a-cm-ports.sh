# SPDX-License-Identifier: GPL-2.0
# Ports the CM reserves in the host stack are the ones a socket with the
# listener's address, family and device would hold
# (Documentation/irdma_cm_netdev.rst, "Ports"); host sockets bind where
# madcm reserves nothing and get EADDRINUSE where it does, and the
# steering takes exactly what is reserved:
#  1. net.ipv6.bindv6only=1: a listener on :: is IPv6 only; a listener on
#     0.0.0.0 (::ffff:0.0.0.0) beside it takes IPv4; without it, IPv4 on
#     that port is the host's.
#  2. a listener on 0.0.0.0 is IPv4 only: an IPv6 host server on its port
#     gets its clients.
#  3. net.ipv6.bindv6only=0: a listener on :: holds both families.
#  4. a VLAN listener reserves its port on the VLAN device only, an
#     untagged one on its device only.
#  5. two attached devices listen on the same port, each serving its own.
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
load_modules 8021q
setup_netns_pair
/bin/ip link add veth2 netns a type veth peer name veth3 netns b || fail "veth2"
/bin/ip -n a addr add 203.0.113.1/24 dev veth2
/bin/ip -n b addr add 203.0.113.2/24 dev veth3
/bin/ip -n a link set veth2 up && /bin/ip -n b link set veth3 up
/bin/ip -n a link add link veth0 name veth0.100 type vlan id 100 || fail "vlan a"
/bin/ip -n b link add link veth1 name veth1.100 type vlan id 100 || fail "vlan b"
/bin/ip -n a addr add 198.51.100.1/24 dev veth0.100
/bin/ip -n b addr add 198.51.100.2/24 dev veth1.100
/bin/ip -n a link set veth0.100 up && /bin/ip -n b link set veth1.100 up

# bound NS ARGS...: a host socket binds; inuse NS ARGS...: EADDRINUSE.
bound() { local ns=$1; shift; in_ns "$ns" bind_probe "$@" | grep -qx bound; }
inuse() { local ns=$1; shift; in_ns "$ns" bind_probe "$@" | grep -qx EADDRINUSE; }
# refused NS COMMAND...: the CM's control file refuses the command.
refused() { ! cm "$@" 2>/dev/null; }
# host_gets PORT ADDR [-6]: a Linux server in a on PORT gets b's client.
host_gets() {
	rm -f /tmp/hs.log
	in_ns a mpa_peer server "$1" ${3:-} -r 2 -t 8 >/tmp/hs.log 2>&1 &
	peer_listening /tmp/hs.log
	in_ns b mpa_peer client "$2" "$1" ${3:-} -r 2 -c -t 8 >/tmp/hc.log 2>&1
	wait
	cat /tmp/hs.log
	grep -q "peer: sent reply" /tmp/hs.log
}
# cm_gets LISTENER PORT ADDR [-6]: b's client is LISTENER's first connection.
cm_gets() {
	in_ns b mpa_peer client "$3" "$2" ${4:-} -r 2 -c -t 8 >/tmp/mc.log 2>&1
	cat /tmp/mc.log
	grep -q "accepted by responder" /tmp/mc.log && wait_event "$1.0" ESTABLISHED
}

check "attach veth0" cm a attach veth0 time_wait_ms=200

# 1. bindv6only=1
in_ns a sysctl -qw net.ipv6.bindv6only=1
check "listen L6 on :: 7200 (v6only)" cm a listen veth0 L6 :: 7200 policy=accept
check "IPv6 7200 is reserved" inuse a :: 7200
check "IPv4 7200 is free" bound a 0.0.0.0 7200
check "an IPv4 host server on 7200 gets its client" host_gets 7200 192.0.2.1
check "L6 took no IPv4 connection" sh -c "! grep -q '^L6\.0 ' $CM/conns"
check "listen L4 on 0.0.0.0 7200 beside L6" cm a listen veth0 L4 0.0.0.0 7200 policy=accept
check "IPv4 7200 is reserved now" inuse a 0.0.0.0 7200
check "L4 serves IPv4" cm_gets L4 7200 192.0.2.1
check "L6 serves IPv6" cm_gets L6 7200 fd00::1 -6
check "unlisten L4" cm a unlisten L4
check "unlisten L6" cm a unlisten L6

# 2. 0.0.0.0 is IPv4 only (bindv6only still 1: the host server is v6only).
check "listen X on 0.0.0.0 7201" cm a listen veth0 X 0.0.0.0 7201 policy=accept
check "IPv4 7201 is reserved" inuse a 0.0.0.0 7201
check "IPv6-only 7201 is free" bound a :: 7201 -6 1
check "an IPv6 host server on 7201 gets its client" host_gets 7201 fd00::1 -6
check "X took no IPv6 connection" sh -c "! grep -q '^X\.0 ' $CM/conns"
check "unlisten X" cm a unlisten X

# 3. bindv6only=0: :: is both families, as a dual-stack socket.
in_ns a sysctl -qw net.ipv6.bindv6only=0
check "listen D on :: 7202 (dual)" cm a listen veth0 D :: 7202 policy=accept
check "IPv4 7202 is reserved" inuse a 0.0.0.0 7202
check "IPv6-only 7202 is reserved" inuse a :: 7202 -6 1
check "0.0.0.0 7202 beside a dual :: is refused" \
	refused a listen veth0 D4 0.0.0.0 7202
check "D serves IPv4" cm_gets D 7202 192.0.2.1
check "unlisten D" cm a unlisten D
check "7202 is free again" bound a :: 7202

# 4. Reservations are bound to the device, as SO_BINDTODEVICE.
check "listen V on VLAN 100, 7203" cm a listen veth0 V 0.0.0.0 7203 vlan=100 policy=accept
check "7203 is reserved on veth0.100" inuse a 0.0.0.0 7203 -d veth0.100
check "7203 is reserved for an unbound socket" inuse a 0.0.0.0 7203
check "7203 is free on veth0" bound a 0.0.0.0 7203 -d veth0
check "7203 is free on veth2" bound a 0.0.0.0 7203 -d veth2
check "listen N on veth0, 7204" cm a listen veth0 N 0.0.0.0 7204 policy=accept
check "7204 is reserved on veth0" inuse a 0.0.0.0 7204 -d veth0
check "7204 is free on veth2" bound a 0.0.0.0 7204 -d veth2
check "7204 is free on veth0.100" bound a 0.0.0.0 7204 -d veth0.100
check "unlisten V" cm a unlisten V
check "unlisten N" cm a unlisten N

# 5. Two devices, one port.
check "attach veth2" cm a attach veth2 time_wait_ms=200
check "listen P0 on veth0, 7205" cm a listen veth0 P0 0.0.0.0 7205 policy=accept
check "listen P2 on veth2, 7205" cm a listen veth2 P2 0.0.0.0 7205 policy=accept
check "P0 serves veth0" cm_gets P0 7205 192.0.2.1
check "P2 serves veth2" cm_gets P2 7205 203.0.113.1
check "P0 has only its own" sh -c "! grep -q '^P0\.1 ' $CM/conns"
check "unlisten P0" cm a unlisten P0
check "unlisten P2" cm a unlisten P2

check "detach veth2" cm a detach veth2
check "detach veth0" cm a detach veth0
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
