# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1200
# Where cmtime's connection setup spends its time (issue 31, 9: "cmtime
# setup stays >= 1.3x siw"; not a test): between the two guests of
# run2.sh (stock: madcm's m0), cmtime with prof.cmtime= (50) connections
# at once, one run untraced, then one under ftrace's function_graph
# tracer in both guests, limited to the CM's and the RNIC's entry points
# and work items and the kernel calls they make (FUNCS). Each guest
# prints the rates of both runs ("=== PROF") and, per function, calls,
# total and self time and both per call (tests/vm/lib/prof.sh): guest b
# is the active side (rdma_connect), guest a the passive one. Times are
# the guest's clock under TCG: read the shares, not the microseconds.
#   MADCM_VM_DIR=/tmp/c MADCM_PAIR_KERNEL_A=stock MADCM_PAIR_KERNEL_B=stock \
#   tests/vm/run2.sh tests/vm/profile/cm-fgraph.sh </dev/null
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh
. /tests/prof.sh

CONNS=50
for arg in $(cat /proc/cmdline); do
	case $arg in
	prof.cmtime=*) CONNS=${arg#*=} ;;
	esac
done
FUNCS=${FGRAPH_FUNCS:-"
	madcm_rnic_iw_connect madcm_rnic_iw_accept madcm_rnic_iw_reject
	madcm_rnic_iw_event madcm_cm_connect madcm_cm_accept madcm_cm_release
	madcm_cm_backend_receive irdma_cm_event_work irdma_cm_reap
	irdma_cm_steer_work irdma_cm_detach_work irdma_cm_qp_ev_work
	irdma_cm_qhash_del_work irdma_cm_rtr_work irdma_cm_nd_hook
	madcm_rnic_ks_repair madcm_rnic_qp_ev_work ks_work ks_data_ready
	ks_state_change
	sock_create_kern sock_release __inet_bind __inet_stream_connect
	do_tcp_setsockopt tcp_v4_connect inet_csk_accept tcp_v4_rcv
	synchronize_rcu synchronize_net rdma_connect rdma_accept
	iw_cm_connect iw_cm_accept
	irdma_cm_conn_qhash_add nd_qhash_add nd_reserve nd_resolve
	irdma_send_mpa_reply irdma_cm_offload_attach ks_load ks_handoff
	ks_offload wait_for_completion_timeout"}
apps_setup

# cmtime_rates TAG: the connect, disconnect and whole-cycle rates of
# the client's last cmtime run (rows "STEP : total_ms ..."), and its
# steps' times.
cmtime_rates() {
	[ $SIDE = client ] && [ $RC -eq 0 ] || return 0
	grep -qE 'fail|error' $OUT && { echo "cmtime: a step failed"; return 0; }
	sed -n 's/^/cmtime: /p' $OUT
	echo "=== PROF $DEV cmtime-$CONNS $1: $(prof_cmtime_rates "$CONNS" $OUT) conn/s"
}

apps_run cmtime a "cmtime -b 192.0.2.1 -p 7860 -c $CONNS" \
	"cmtime -s 192.0.2.1 -p 7860 -c $CONNS" stays
cmtime_rates untraced
# shellcheck disable=SC2086
prof_fgraph_on $FUNCS
apps_run cmtime a "cmtime -b 192.0.2.1 -p 7861 -c $CONNS" \
	"cmtime -s 192.0.2.1 -p 7861 -c $CONNS" stays
prof_fgraph_off
cmtime_rates traced
echo "profile of guest $ROLE ($SIDE):"
prof_fgraph_report 45

apps_teardown
finish
