# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1200
# Issue 18, 6: hostile FPDUs over the wire to a madcm RNIC (m0 on veth0),
# on the stock kernel (make test) and under the siw kernel's KASAN and
# lockdep (make vmtest-siw-kasan; tests/vm/lib/init fails the
# script on any report). The ULP (madcm_rdmacm_test.ko, data=SIZE)
# listens on m0; fpdu_peer (tests/vm/fpdu_peer.c, a plain TCP socket in
# namespace b) connects, does the MPA exchange itself (revision 2, CRC),
# takes the ULP's advertisement, Sends its own and then one case of
# hostile FPDUs. For each: the Terminate's layer, error type and code
# (RFC 5040 section 7, RFC 5041 section 7, RFC 5044 section 8), the
# connection's end, the device's counter (rdma statistic) and the ULP's
# id gone. A well-formed Write read back byte-exact first shows that the
# injector's FPDUs are right. Then a peer that stops reading while the
# ULP sends: the device's memory stays bounded. At the end nothing is
# left: the ULP's PDs, CQs and QPs, the link, madcm's module count.
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

SIZE=1048576
# The counters and codes checked are madcm's.
[ "$RDMACM_DEV" = madcm ] || skip "60 is for a madcm RNIC (RDMACM_DEV=$RDMACM_DEV)"
rdmacm_siw_setup

# rnic_stat NAME: one of the device's counters (rdma statistic).
rnic_stat() {
	/bin/rdma statistic show link $DEV/1 | tr ' ' '\n' | grep -A1 -x "$1" | tail -1
}

port=7900
# hostile CASE LAYER ETYPE ECODE COUNTER: fpdu_peer's CASE is refused with
# a Terminate of LAYER/ETYPE/ECODE, counted in COUNTER; the connection
# ends on both sides.
hostile() {
	local c=$1 l=H$port log=/tmp/h-$1.log n0 t0
	n0=$(rnic_stat $5)
	t0=$(rnic_stat terminate_sent)
	check "$c: listen on $DEV" rt listen $l 192.0.2.1 $port mode=accept data=$SIZE
	in_ns b fpdu_peer 192.0.2.1 $port $c -t 30 >$log 2>&1
	cat $log
	check "$c: the advertisements went through" grep -q "^peer: adv " $log
	check "$c: Terminate, layer $2 type $3 code $4" \
		grep -q "^peer: terminate layer=$2 etype=$3 ecode=$4 qn=2$" $log
	check "$c: the connection ended" grep -Eq "^peer: end (eof|reset)$" $log
	check "$c: $5 counted" [ "$(rnic_stat $5)" = $((n0 + 1)) ]
	check "$c: one Terminate sent" [ "$(rnic_stat terminate_sent)" = $((t0 + 1)) ]
	check "$c: $l.0 gone" rt_wait_gone $l.0 60
	rt_line $l.0
	rt_data_line $l.0
	check "$c: unlisten" rt unlisten $l
	port=$((port + 1))
}

# The control: a Write, read back; no Terminate.
t0=$(rnic_stat terminate_sent)
check "good: listen on $DEV" rt listen Hg 192.0.2.1 $port mode=accept data=$SIZE
in_ns b fpdu_peer 192.0.2.1 $port good -t 30 >/tmp/h-good.log 2>&1
cat /tmp/h-good.log
check "good: the Write read back" grep -q "^peer: good: the Write read back$" /tmp/h-good.log
check "good: no Terminate" [ "$(rnic_stat terminate_sent)" = "$t0" ]
check "good: Hg.0 gone" rt_wait_gone Hg.0 60
rt_data_line Hg.0
check "good: unlisten" rt unlisten Hg
port=$((port + 1))

# RFC 5044 8 (LLP, MPA): 0x02 CRC error.
hostile crc 2 0 0x02 rx_crc_err
# RFC 5040 7.2 / RFC 5041 7.2 (DDP, tagged buffer): 0x00 invalid STag,
# 0x01 base or bounds violation, 0x03 tagged offset wrap.
hostile stag 1 1 0x00 rx_prot_err
hostile bounds 1 1 0x01 rx_prot_err
hostile wrap 1 1 0x03 rx_hdr_err
# RFC 5041 7.2 (DDP, untagged buffer): 0x01 invalid QN, 0x03 MSN out of
# range, 0x04 invalid MO, 0x06 invalid DDP version.
hostile qn 1 2 0x01 rx_hdr_err
hostile msn 1 2 0x03 rx_hdr_err
hostile mo 1 2 0x04 rx_hdr_err
hostile ddp_version 1 2 0x06 rx_hdr_err
# RFC 5040 7.2 (RDMAP, remote operation): 0x05 invalid RDMAP version,
# 0x06 unexpected opcode, 0x07 catastrophic, localized to the stream (a
# Read Request beyond IRD, RFC 5040 6.4); (RDMAP, remote protection):
# 0x00 invalid STag (a Read Request's data source).
hostile rdmap_version 0 2 0x05 rx_hdr_err
hostile opcode 0 2 0x06 rx_hdr_err
hostile rreq_stag 0 1 0x00 rx_prot_err
hostile ird 0 2 0x07 rx_ird_err

# Random input: any Terminate (or a plain close), counted, nothing else.
for c in random garbage; do
	t0=$(rnic_stat terminate_sent)
	check "$c: listen on $DEV" rt listen H$port 192.0.2.1 $port mode=accept data=$SIZE
	in_ns b fpdu_peer 192.0.2.1 $port $c -t 30 -s $port >/tmp/h-$c.log 2>&1
	cat /tmp/h-$c.log
	check "$c: the connection ended" grep -Eq "^peer: end (eof|reset)$" /tmp/h-$c.log
	check "$c: a Terminate sent" [ "$(rnic_stat terminate_sent)" -gt "$t0" ]
	check "$c: H$port.0 gone" rt_wait_gone H$port.0 60
	rt_data_line H$port.0
	check "$c: unlisten" rt unlisten H$port
	port=$((port + 1))
done

# A peer that stops reading (a closed window) while the ULP posts 16
# RDMA Writes of 1 MiB at once: the device holds no more than its
# queues' bounds (256 KiB a connection, Documentation/rnic_tcp.rst) and
# puts no more than the window on the wire; once the peer reads again,
# all 16 MiB arrive, and its close ends the connection.
mem_kib() {
	awk '/^MemAvailable:/ { print $2 }' /proc/meminfo
}
check "stall: listen on $DEV" rt listen Hs 192.0.2.1 $port mode=accept data=$SIZE
in_ns b fpdu_peer 192.0.2.1 $port stall -t 40 -q 120 >/tmp/h-stall.log 2>&1 &
peer=$!
check "stall: Hs.0 established" rt_wait Hs.0 ESTABLISHED 60
check "stall: the peer's advertisement" rt ready Hs.0
check "stall: the peer stalls" wait_for /tmp/h-stall.log "peer: stalled"
m0=$(mem_kib)
tx0=$(rnic_stat tx_bytes)
rt bench Hs.0 bw 1048576 16 >/tmp/bench.log 2>&1 &
bench=$!
sleep 15
m1=$(mem_kib)
tx1=$(rnic_stat tx_bytes)
echo "stall: MemAvailable $m0 kB before, $m1 kB while stalled; $((tx1 - tx0)) octets sent"
check "stall: the device holds less than 4 MiB of the 16 posted" [ $((m0 - m1)) -lt 4096 ]
check "stall: less than 1 MiB on the wire" [ $((tx1 - tx0)) -lt 1048576 ]
check "stall: the peer still connected" sh -c '! grep -q "peer: end" /tmp/h-stall.log'
wait $peer
cat /tmp/h-stall.log
check "stall: every Write's payload came after the stall" \
	grep -q "write bytes 16777216$" /tmp/h-stall.log
check "stall: Hs.0 gone" rt_wait_gone Hs.0 60
wait $bench
cat /tmp/bench.log
rt_data_line Hs.0
check "stall: unlisten" rt unlisten Hs

/bin/rdma statistic show link $DEV/1
echo "madcm refcnt $(cat /sys/module/madcm/refcnt)"
rdmacm_siw_finish
