# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1200
# Where a 64 B Send's round trip spends the guests' kernel time (issue
# 31, 9: "64 B latency <= siw"; not a test): between the two guests of
# run2.sh, perftest's ib_send_lat -R on the pair's RNIC (madcm's m0 on
# stock guests, siw's s0 on siwko guests), prof.iters= (1,000)
# iterations untraced, then the same under ftrace's function_graph
# tracer in both guests, limited to the send and receive paths of both
# RNICs and the kernel calls between them (FUNCS: a name a guest does
# not have is reported and left out). Each guest prints both runs'
# latency ("=== PROF", the client's) and, per function, calls, total
# and self time, both per call (tests/vm/lib/prof.sh): per iteration
# each guest rings one doorbell (a system call that writes the Send to
# TCP) and receives one Send (the NET_RX softirq that places it). Times
# are the guest's clock under TCG: read the shares and the ratios
# between the two RNICs' runs, not the microseconds. Over the untraced
# run each guest also prints how many segments its TCP took in on the
# fast path (TcpExt TCPHPHits: header prediction, the common case of
# RFC 9293 3.10.7.4's checks) against all it received.
#   MADCM_VM_DIR=/tmp/f MADCM_PAIR_KERNEL_A=stock MADCM_PAIR_KERNEL_B=stock \
#   tests/vm/run2.sh tests/vm/profile/lat-fgraph.sh </dev/null
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh
. /tests/prof.sh

ITERS=1000
for arg in $(cat /proc/cmdline); do
	case $arg in
	prof.iters=*) ITERS=${arg#*=} ;;
	esac
done
FUNCS=${FGRAPH_FUNCS:-"
	ib_uverbs_write ib_uverbs_post_send ib_uverbs_post_recv
	madcm_rnic_post_send madcm_rnic_post_recv madcm_rnic_stream_push
	ks_push ks_tx ks_work ks_data_ready ks_read ks_recv_actor
	madcm_rnic_qp_rx_data madcm_rnic_mr_copy_to irdma_cm_nd_hook
	siw_post_send siw_post_receive siw_qp_sq_process siw_sq_start
	siw_qp_llp_data_ready siw_tcp_rx_data siw_proc_send siw_rqe_complete
	siw_sqe_complete siw_tx_hdt
	kernel_sendmsg sock_sendmsg tcp_sendmsg tcp_sendpage
	__tcp_push_pending_frames tcp_write_xmit __tcp_transmit_skb
	ip_queue_xmit ip_finish_output2 __dev_queue_xmit start_xmit
	net_rx_action virtnet_poll napi_gro_receive netif_receive_skb_list_internal
	__netif_receive_skb_list_core ip_list_rcv ip_local_deliver
	nf_hook_slow tcp_v4_rcv tcp_rcv_established tcp_ack tcp_data_queue
	tcp_read_sock sock_def_readable tcp_event_data_recv
	crc32c crypto_shash_update"}
apps_setup

# lat_run PORT TAG: one ib_send_lat run; the client prints its figures.
lat_run() {
	local tag=$2

	apps_run ib_send_lat a "ib_send_lat -R -F -d $DEV -p $1 -s 64 -n $ITERS" \
		"ib_send_lat -R -F -d $DEV -p $1 -s 64 -n $ITERS 192.0.2.1"
	if [ $SIDE = client ] && [ $RC -eq 0 ]; then
		# bytes iterations t_min t_max t_typical t_avg ...
		row=$(grep -E "^ *64 +$ITERS +[0-9]" $OUT | tail -1)
		# shellcheck disable=SC2086
		set -- $row
		echo "=== PROF $DEV ib_send_lat-64B $tag: typical $5 avg $6 us"
	fi
}

# tcp_counts: received segments, header-predicted ones, pure ACKs
tcp_counts() {
	echo "$(awk '$1 == "Tcp:" && $2 ~ /^[0-9]/ { print $11 }' /proc/net/snmp) $(tcp_ext TCPHPHits) $(tcp_ext TCPPureAcks)"
}

c0=$(tcp_counts)
lat_run 7870 untraced
# shellcheck disable=SC2046,SC2086 # two rows of three numbers
set -- $c0 $(tcp_counts)
echo "=== PROF $DEV tcp $ROLE untraced: in $(($4 - $1)) segments, fast path $(($5 - $2)), pure acks $(($6 - $3))"
# shellcheck disable=SC2086
prof_fgraph_on $FUNCS
lat_run 7871 traced
prof_fgraph_off
echo "profile of guest $ROLE ($SIDE), $ITERS iterations:"
prof_fgraph_report 45

apps_teardown
finish
