# SPDX-License-Identifier: GPL-2.0
# Issue 31, item 3: the RNIC on the host's TCP gives its FPDUs to the
# socket by reference (tx_zc_bytes), the payload in the MR's own pages
# (tx_mr_zc_bytes), headers and trailers one after the other in pages of
# its own (so that TCP merges a trailer and the next header), many
# at a time (MSG_MORE while more are queued), so that TCP
# builds full segments and GSO packets from them instead of sending each
# FPDU alone: one IP packet per MSS-sized FPDU is what the code before
# batching did (checked: this script failed there, 1.0 MSS a packet).
# madcm to madcm on one veth pair (m0 on veth0, m1 on veth1 in namespace
# b), the in-kernel ULP's 16 MiB of 1 MiB Writes, 16 in flight. The
# sender's IP counters over the run give the bytes per packet handed to
# the device (a GSO packet counts once); required: at least 4 MSS.
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
mm_pair bg Lg 7910
p0=$(ipstat OutRequests)
o0=$(ipstat OutOctets)
check "$MIB MiB of 1 MiB Writes" rt bench bg.0 bw $SIZE $MIB
p1=$(ipstat OutRequests)
o1=$(ipstat OutOctets)
pkts=$((p1 - p0))
octets=$((o1 - o0))
mss=$(/bin/ss -tni "( dport = :7910 )" | sed -n 's/.*[ \t]mss:\([0-9]*\).*/\1/p' | head -1)
mss=${mss:-1448}
echo "sender: $pkts IP packets, $octets octets, $((octets / (pkts ? pkts : 1))) octets a packet (mss $mss)"
check "at least $MIB MiB left" [ $octets -ge $((MIB << 20)) ]
check "packets of at least 4 MSS on average" [ $((octets / (pkts ? pkts : 1))) -ge $((4 * mss)) ]
# Item 3: the FPDUs are built in place in pages and given to the socket
# by reference, not copied into its skbs.
txb=$(rnic_stat m0 tx_bytes)
zcb=$(rnic_stat m0 tx_zc_bytes)
echo "m0: tx_bytes $txb tx_zc_bytes $zcb"
check "m0: at least 9/10 of what it sent went by reference" \
	[ "${zcb:-0}" -ge $((${txb:-1} * 9 / 10)) ]
check "m0: and at least $MIB MiB" [ "${zcb:-0}" -ge $((MIB << 20)) ]
# The Writes' payload went in the MR's own pages (rnic/zc.h), each Write
# completing once TCP let them go: all of it, from pages of their own.
mrz=$(rnic_stat m0 tx_mr_zc_bytes)
mrc=$(rnic_stat m0 tx_mr_zc_copied)
echo "m0: tx_mr_zc_bytes $mrz tx_mr_zc_copied $mrc"
check "m0: the $MIB MiB of payload from the MR's pages" \
	[ "${mrz:-0}" -ge $((MIB << 20)) ]
check "m0: no FPDU of it copied" [ "${mrc:-1}" -eq 0 ]
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
