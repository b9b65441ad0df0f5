# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 600
# Issue 31: a peer that stops acknowledging ends a madcm RNIC stream on
# the host's TCP within rnic_host_tcp_user_timeout_ms (TCP_USER_TIMEOUT,
# RFC 5482; rnic/qp_sock.c sets it at the hand-off). Without it, the
# host's retransmission limits alone (tcp_retries2, 15) keep a stream with
# unacknowledged data for about 15 minutes.
#
# The in-kernel ULP on m0 (veth0) connects to the ULP on siw0 (veth1,
# namespace b), with the parameter at 3 s. After a Send that completes,
# netem on veth1 drops everything siw sends: no ACK of madcm's comes
# back. madcm's next RDMA Read (4 KiB of what siw's side filled) cannot
# complete: its Read Request stays unacknowledged, and the Read must fail
# when the stream is ended, with the QP in error, not before 3 s (less
# the tick the timer may round to) and well within 60 s (the ULP's own
# wait); the id ends. (A Send would not do: on iWARP it completes once
# TCP took its bytes, RFC 5040 5.1, before any ACK.) A socket that timed
# out closes without a RST (RFC 9293 3.10.8: the user is told, nothing is
# sent), so siw learns of it when it sends again once its frames pass:
# madcm's host has no socket for the 4-tuple and answers with a RST, and
# siw's id ends too.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

UT_MS=3000
PARAM=/sys/module/madcm/parameters/rnic_host_tcp_user_timeout_ms

rdmacm_siw_setup
[ "$DEV" = m0 ] || skip "RDMACM_DEV=$RDMACM_DEV: the user timeout is madcm's"
ut0=$(cat $PARAM)
check "rnic_host_tcp_user_timeout_ms=$UT_MS (was $ut0)" sh -c "echo $UT_MS >$PARAM"

data_pair LU 7601 u1 data=262144
check "u1.0: a Send of 4 KiB arrives while siw acknowledges" \
	sh -c "echo expect LU.0 send 4096 1 >$RT/ctl && echo send u1.0 4096 1 >$RT/ctl && echo drain LU.0 >$RT/ctl"

check "LU.0: fill 4 KiB for madcm to Read" rt fill LU.0 4096 3
load_modules sch_netem
check "netem on veth1: every frame of siw's dropped" \
	/bin/tc -n b qdisc add dev veth1 root netem loss 100%
# The guest's clock in hundredths of a second.
t0=$(tr -d . </proc/uptime | cut -d' ' -f1)
rt read u1.0 4096 3
rc=$?
t1=$(tr -d . </proc/uptime | cut -d' ' -f1)
el=$((t1 - t0))
echo "u1.0: the Read returned $rc after $el hundredths of a second"
rt_data_line u1.0
check "u1.0: the Read failed, no Read Response having come" [ $rc -ne 0 ]
# TCP_USER_TIMEOUT counts from the oldest unacknowledged byte, the Read
# Request, sent after t0; the timer fires on a jiffy, not before.
check "u1.0: not before the user timeout (${el}0 ms >= $((UT_MS - 100)) ms)" \
	[ $((el * 10)) -ge $((UT_MS - 100)) ]
check "u1.0: well before the host's own limits (${el}0 ms < 60000 ms)" \
	[ $((el * 10)) -lt 60000 ]
check "u1.0: id destroyed" rt_wait_gone u1.0 60
rt_line u1.0
check "u1.0: the stream's end reached rdma_cm (DISCONNECTED)" rt_wait u1.0 DISCONNECTED 1
/bin/tc -n b -s qdisc show dev veth1
/bin/tc -n b qdisc del dev veth1 root
check "LU.0: siw's side is still there, idle" [ "$(rt_field LU.0 id)" = live ]
check "LU.0: siw sends again (its TCP takes the bytes)" rt send LU.0 16 4
check "LU.0: and is reset: its id ends" rt_wait_gone LU.0 60
rt_line LU.0
check "unlisten LU" rt unlisten LU
check "rnic_host_tcp_user_timeout_ms back to $ut0" sh -c "echo $ut0 >$PARAM"
madcm_host_tcp_check m0
rdmacm_siw_finish
