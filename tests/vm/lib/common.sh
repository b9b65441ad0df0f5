# SPDX-License-Identifier: GPL-2.0
# Helpers for the VM scripts; source it as ". /tests/common.sh".
# Every failed check prints why and makes the script exit non-zero.

set -u
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# check DESCRIPTION COMMAND...: run the command, report, count a failure.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}

# The end of every script.
finish() {
	[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
	exit 0
}

# Load stock modules by name; each one must load.
load_modules() {
	local m
	for m in "$@"; do
		modprobe "$m" || fail "modprobe $m"
	done
}

# Two rxe devices over the two ends of a veth pair in init_net.
setup_rxe_pair() {
	load_modules veth rdma_rxe
	/bin/ip link add veth0 type veth peer name veth1 || fail "veth pair"
	/bin/ip link set veth0 up && /bin/ip link set veth1 up
	/bin/ip addr add 192.0.2.1/24 dev veth0
	/bin/ip addr add 192.0.2.2/24 dev veth1
	/bin/rdma link add rxe0 type rxe netdev veth0 || fail "rdma link add rxe0"
	/bin/rdma link add rxe1 type rxe netdev veth1 || fail "rdma link add rxe1"
}

teardown_rxe_pair() {
	/bin/rdma link delete rxe0 2>/dev/null
	/bin/rdma link delete rxe1 2>/dev/null
	/bin/ip link del veth0 2>/dev/null
}
