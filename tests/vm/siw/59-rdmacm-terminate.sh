# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 600
# Issue 18, 5: a Terminate, from either side, on an access violation.
# 1. The ULP on $DEV (veth0: m0, a madcm RNIC, or siwa with
#    RDMACM_DEV=siw) Reads from siw0's ULP with an STag siw never gave
#    out: siw must refuse the Read Request with a Terminate (RFC 5040,
#    7.2: RDMAP, Remote Protection Error, Invalid STag).
# 2. siw0's ULP Reads from the first byte past $DEV's buffer: $DEV must
#    refuse it with a Terminate (RDMAP, Remote Protection Error, Base or
#    Bounds Violation) and place nothing.
# Either way the Read fails at its initiator and the connection ends on
# both sides. Captured on veth1; tests/vm/lib/check-rdmacm-term.sh has
# tshark judge the Terminates (siw 6.1 swaps the layer and error type
# nibbles: see there).
. /tests/common.sh
. /tests/rdmacm.sh
. /tests/rdmacm-siw.sh
. /tests/rdmacm-data.sh

rdmacm_siw_setup
capture_start b veth1 600 /tmp/term.pcap
trap capture_stop EXIT
sleep 2

# violate NAME READER PEER BAD: READER's Read with BAD fails, both end.
violate() {
	check "$1: a good Read first" sh -c "echo fill $3 4096 7 > $RT/ctl && echo read $2 4096 7 > $RT/ctl"
	check "$1: a Read with $4 fails" sh -c "! echo read $2 4096 8 $4 > $RT/ctl"
	check "$2 ends" rt_wait_gone $2 60
	check "$3 ends" rt_wait_gone $3 60
	rt_line $2
	rt_line $3
	rt_data_line $2
	rt_data_line $3
	check "$2: the Read completed in error" \
		[ "$(rt_data_field $2 wc_err)" != 0 -o "$(rt_data_field $2 flushed)" != 0 ]
	check "$2: only the good Read counted" [ "$(rt_data_field $2 reads)" = 1 ]
}

data_pair LT 7701 t1 data=65536
violate "siw terminates" t1.0 LT.0 bad=stag
check "unlisten LT" rt unlisten LT
data_pair LU 7702 t2 data=65536
violate "$DEV terminates" LU.0 t2.0 bad=bounds
check "unlisten LU" rt unlisten LU

sleep 1
capture_stop
check "capture written" [ -s /tmp/term.pcap ]
# The judge (check-rdmacm-term-$RDMACM_DEV.sh) knows siw's encoding.
echo "=== PCAP rdmacm-term-$RDMACM_DEV"
od -An -v -tx1 /tmp/term.pcap | tr -d ' \n' | fold -w 1024
echo
echo "=== PCAP END"
rdmacm_siw_finish
