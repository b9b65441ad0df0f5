# SPDX-License-Identifier: GPL-2.0
# Issue 31, item 3: the RNIC on the host's TCP gives its FPDUs to the
# socket by reference (tx_zc_bytes): built in pages (the default), or
# with rnic_tx_zcopy_min set the payload in the MR's own pages
# (tx_mr_zc_bytes: zero-copy, headers and trailers one after the other
# in pages of its own so that TCP merges a trailer and the next header);
# many at a time (MSG_MORE while more are queued), so that TCP
# builds full segments and GSO packets from them instead of sending each
# FPDU alone: one IP packet per MSS-sized FPDU is what the code before
# batching did (checked: this script failed there, 1.0 MSS a packet).
# madcm to madcm on one veth pair (m0 on veth0, m1 on veth1 in namespace
# b), the in-kernel ULP's 16 MiB of 1 MiB Writes, 16 in flight. The
# sender's IP counters over the run give the bytes per packet handed to
# the device (a GSO packet counts once); required: at least 4 MSS.
# tx_frames counts FPDUs, each of a run built in place (checked: with
# runs counted as one, this script failed, 5,908 against 11,748).
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

SIZE=1048576
MIB=16

# ipstat FIELD: init_net's "Ip:" or "IpExt:" counter of that name.
ipstat() {
	awk -v f="$1" '$1 == "Ip:" || $1 == "IpExt:" {
		if ($2 !~ /^[0-9]/) { split($0, k); next }
		for (i = 2; i <= NF; i++) if (k[1] == $1 && k[i] == f) print $i }' \
		/proc/net/snmp /proc/net/netstat
}

load_modules madcm madcm_rdmacm_test
rdmacm_siw_net
zcmin=/sys/module/madcm/parameters/rnic_tx_zcopy_min
runmax=/sys/module/madcm/parameters/rnic_tx_run_max
check "zero-copy transmit off by default" [ "$(cat $zcmin)" = 0 ]
mm_pair bg Lg 7910
mss=$(/bin/ss -tni "( dport = :7910 )" | sed -n 's/.*[ \t]mss:\([0-9]*\).*/\1/p' | head -1)
mss=${mss:-1448}

# run LABEL MIB: MIB MiB of 1 MiB Writes; the sender's octets a packet,
# and its device's counters over the run, in the variables below.
run() {
	local p0 o0 t0 z0 m0 c0 p1 o1 f0 fpdus least
	p0=$(ipstat OutRequests) o0=$(ipstat OutOctets)
	f0=$(rnic_stat m0 tx_frames)
	t0=$(rnic_stat m0 tx_bytes) z0=$(rnic_stat m0 tx_zc_bytes)
	m0=$(rnic_stat m0 tx_mr_zc_bytes) c0=$(rnic_stat m0 tx_mr_zc_copied)
	check "$1: $2 MiB of 1 MiB Writes" rt bench bg.0 bw $SIZE "$2"
	p1=$(ipstat OutRequests) o1=$(ipstat OutOctets)
	pkts=$((p1 - p0)) octets=$((o1 - o0))
	per=$((octets / (pkts ? pkts : 1)))
	txb=$(($(rnic_stat m0 tx_bytes) - t0))
	zcb=$(($(rnic_stat m0 tx_zc_bytes) - z0))
	mrz=$(($(rnic_stat m0 tx_mr_zc_bytes) - m0))
	mrc=$(($(rnic_stat m0 tx_mr_zc_copied) - c0))
	fpdus=$(($(rnic_stat m0 tx_frames) - f0))
	# An FPDU fills at most one segment (RFC 5044 5.2): ULPDU_Length 2,
	# the tagged DDP/RDMAP header 14 (RFC 5041 4.3, RFC 5040 4.2), the
	# CRC 4; so at least this many carried the Writes' payload.
	least=$((($2 << 20) / (mss - 20)))
	echo "$1: $pkts IP packets, $octets octets, $per octets a packet (mss $mss); m0: tx_bytes $txb tx_zc_bytes $zcb tx_mr_zc_bytes $mrz tx_mr_zc_copied $mrc"
	echo "$1: tx_frames $fpdus (rnic_tx_run_max $(cat $runmax))"
	# tx_frames counts FPDUs, also those that went to TCP in one run
	check "$1: tx_frames counts each FPDU: at least $least" \
		[ $fpdus -ge $least ]
	check "$1: at least $2 MiB left" [ $octets -ge $(($2 << 20)) ]
	check "$1: packets of at least 4 MSS on average" [ $per -ge $((4 * mss)) ]
	# Item 3: no copy into the socket's skbs: the FPDUs are given to it
	# by reference (built in pages, or the MR's own).
	check "$1: at least 9/10 of what m0 sent went by reference" \
		[ $zcb -ge $((txb * 9 / 10)) ]
}

# The default: each FPDU built in a page (the payload copied once).
run copy $MIB
check "copy: no payload from the MR's pages" [ $mrz -eq 0 ]
# Zero-copy (rnic/zc.h): the payload in the MR's own pages, all of it
# (the ULP's buffers are pages of their own), each Write completing once
# TCP let them go.
echo 4096 > $zcmin
run zero-copy $MIB
check "zero-copy: the $MIB MiB of payload from the MR's pages" \
	[ $mrz -ge $((MIB << 20)) ]
check "zero-copy: no FPDU of it copied" [ $mrc -eq 0 ]
echo 0 > $zcmin
rt_data_line bg.0
check "no data error" rt_data_clean bg.0
check "disconnect" rt disconnect bg.0
check "gone" rt_wait_gone bg.0 60
check "peer gone" rt_wait_gone Lg.0 60
check "unlisten" rt unlisten Lg
check "rdma link delete m1" in_ns b /bin/rdma link delete m1
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip netns del b
finish
