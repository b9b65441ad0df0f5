# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1200
# What each FPDU costs on the RNIC's data path (issue 31, 9; not a test):
# madcm to madcm on one veth pair, as rnic-mm.sh, PROFILE_MIB (16) MiB of
# 1 MiB RDMA Writes, 16 in flight, under ftrace's function_graph tracer
# limited to the data path's functions (FGRAPH_FUNCS) and the TCP and
# veth functions they lead to. cpu-clock sampling cannot see inside the
# sections that run with interrupts off (the QP's and the MR table's
# locks); function_graph times every call of the traced functions from
# entry to return, wherever interrupts are.
#
# Prints, per function: calls, total time (its traced callees included),
# self time (without them) and both per call, and the same run untraced
# before it, so that the tracer's own cost shows. Times are the guest's
# clock under TCG: read the shares, not the microseconds.
#   MADCM_VM_APPEND=madcm.rnic_mpa_crc=0 MADCM_VM_DIR=... \
#	tests/vm/run.sh tests/vm/profile/rnic-fgraph.sh </dev/null
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh
. /tests/prof.sh

SIZE=1048576
BYTES=$((${PROFILE_MIB:-16} << 20))
FGRAPH_FUNCS=${FGRAPH_FUNCS:-"
	madcm_rnic_qp_tx_run madcm_rnic_qp_tx_room madcm_rnic_stream_send_built
	ks_build_buf ks_send_built ks_tx ks_work ks_room_work ks_write_space
	ks_data_ready ks_recv_actor madcm_rnic_qp_rx_data madcm_mpa_rx_step
	madcm_ddp_parse madcm_rnic_mr_copy_to
	tcp_sendmsg_locked do_tcp_sendpages tcp_write_xmit __tcp_transmit_skb
	veth_xmit tcp_v4_rcv tcp_ack tcp_read_sock skb_seq_read
	__napi_poll net_rx_action process_backlog"}

load_modules madcm madcm_rdmacm_test
rdmacm_siw_net
mm_pair bp Lp 7900
check "warm-up" rt bench bp.0 bw $SIZE 8
check "untraced run" rt bench bp.0 bw $SIZE $((BYTES / SIZE))
echo "untraced bench_ns $(rt_data_field bp.0 bench_ns)"

prof_fgraph_on $FGRAPH_FUNCS
check "traced run" rt bench bp.0 bw $SIZE $((BYTES / SIZE))
prof_fgraph_off
echo "traced bench_ns $(rt_data_field bp.0 bench_ns)"
prof_fgraph_report
check "disconnect" rt disconnect bp.0
check "gone" rt_wait_gone bp.0 60
finish
