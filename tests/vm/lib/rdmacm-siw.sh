# SPDX-License-Identifier: GPL-2.0
# The in-kernel rdma_cm ULP (madcm_rdmacm_test.ko) in init_net against
# soft-iWARP in namespace b, for tests/vm/siw/25-rdmacm-ulp-accept.sh and
# 50-rdmacm-ulp.sh; source after common.sh and rdmacm.sh. The ULP's
# device is on veth0 (192.0.2.1, init_net), as RDMACM_DEV says:
#   madcm (default): m0, "rdma link add m0 type madcm netdev veth0"; the
#         script skips when there is no such link type;
#   siw:  siwa, a second siw device: the same scenarios between two siw
#         devices, which shows the scripts right where madcm is not there
#         (MADCM_VM_APPEND=RDMACM_DEV=siw tests/vm/run-siw.sh ...).
# The peer is rdmacm_peer (librdmacm) on siw0 on veth1 (192.0.2.2,
# namespace b). The ULP stays in init_net: siw makes its sockets in the
# namespace of the task that calls it, and the ULP's rdma_connect runs in
# rdma_cm's worker (a ULP in namespace a got EADDRNOTAVAIL from siw).

RDMACM_DEV=${RDMACM_DEV:-madcm}
# Private data: the ULP's, the siw peer's, a reject's.
ULP_PD=c1e47000010203040506070809
PEER_PD=5e12ae00aabbccddeeff
REJ_PD=4e1ec7ed0bad
# REJECTED's status where an active side's device was rejected: iw_cm
# has no rule for it and the drivers differ: irdma and cxgb4 report
# -ECONNREFUSED (what issue 17 asks of madcm), siw -ECONNRESET.
PEER_REJ_STATUS=-104

# veth0 in init_net, veth1 in namespace b.
rdmacm_siw_net() {
	load_modules veth
	# A namespace deleted by a script before (after a failure, without
	# rdmacm_siw_finish's wait) is freed in the background.
	link_gone veth0 10
	/bin/ip netns add b || fail "netns b"
	/bin/ip link add veth0 type veth peer name veth1 netns b || fail "veth"
	/bin/ip -n b link set lo up
	/bin/ip addr add 192.0.2.1/24 dev veth0
	/bin/ip -n b addr add 192.0.2.2/24 dev veth1
	/bin/ip link set veth0 up && /bin/ip -n b link set veth1 up
}

rdmacm_siw_teardown() {
	[ -n "${DEV:-}" ] && /bin/rdma link delete $DEV 2>/dev/null
	teardown_siw
	/bin/ip netns del b 2>/dev/null
	rmmod madcm_rdmacm_test 2>/dev/null
	rmmod madcm 2>/dev/null
}

rdmacm_siw_setup() {
	load_modules madcm madcm_rdmacm_test
	rdmacm_siw_net
	setup_siw
	case $RDMACM_DEV in
	madcm)
		if ! /bin/rdma link add m0 type madcm netdev veth0; then
			rdmacm_siw_teardown
			skip "no madcm RNIC: 'rdma link add m0 type madcm netdev veth0' failed"
		fi
		DEV=m0 ULP_REJ_STATUS=-111
		;;
	siw)
		/bin/rdma link add siwa type siw netdev veth0 ||
			fail "rdma link add siwa"
		DEV=siwa ULP_REJ_STATUS=$PEER_REJ_STATUS
		;;
	*)
		fail "RDMACM_DEV=$RDMACM_DEV: madcm or siw"
		finish
		;;
	esac
	/bin/rdma link show
	rt_transport $DEV
	check "$DEV is an iWARP RNIC" [ "$RT_TP" = iw ]
}

# ulp_conn_ok NAME EVENTS: the ULP's connection ended with exactly EVENTS,
# on the ULP's device.
ulp_conn_ok() {
	check "$1: id destroyed" rt_wait_gone "$1" 60
	rt_line "$1"
	check "$1: events" rt_expect "$1" "$2"
	check "$1: on $DEV" [ "$(rt_field "$1" dev)" = $DEV ]
}

# rdmacm_siw_finish: everything released, torn down, clean rmmod.
rdmacm_siw_finish() {
	cat $RT/counters
	check "every id destroyed, no PD, CQ or QP left" rt_all_released 0
	check "no local error" [ "$(rt_counter local_errors)" = 0 ]
	check "rmmod madcm_rdmacm_test" rmmod madcm_rdmacm_test
	check "rdma link delete $DEV" /bin/rdma link delete $DEV
	teardown_siw
	/bin/ip netns del b
	check "namespace b freed, veth0 gone" link_gone veth0 30
	check "rmmod madcm" rmmod madcm
	finish
}
