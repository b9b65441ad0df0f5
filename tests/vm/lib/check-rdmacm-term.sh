#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Judge the capture of tests/vm/siw/59-rdmacm-terminate.sh with tshark
# (runs on the host): siw (192.0.2.2) answers a Read Request with an
# unknown source STag, and the device under test (192.0.2.1) one past the
# end of its buffer, each with one Terminate. RFC 5040 (4.8, 7.2) asks
# for layer 0 (RDMAP) in the high nibble of the control's first octet,
# error type 1 (Remote Protection Error) in the low one, then error code
# 0x00 (Invalid STag) or 0x01 (Base or Bounds Violation).
# siw (Linux 6.1, drivers/infiniband/sw/siw/iwarp.h, struct
# iwarp_terminate) declares layer and etype as __be32 bit-fields, which a
# little-endian build lays out low nibble first: its octet is 0x10, which
# tshark reads as layer 1 (DDP), error type 0. siw's own Terminates are
# checked as siw sends them (the error code is right); the device's
# against the RFC, unless the device is siw too (run.sh's capture
# rdmacm-term-siw, RDMACM_DEV=siw).
# Usage: check-rdmacm-term.sh FILE.pcap NAME
set -uo pipefail
pcap=$1 name=$2
ts() {
	tshark -r "$pcap" --enable-heuristic iwarp_mpa_tcp --disable-protocol rpcordma \
		"$@" 2>/dev/null
}
result() { if [ "$2" = ok ]; then echo "PASS $name: $1"; else echo "FAIL $name: $1 ($2)"; fi; }
count() { ts -Y "$1" | wc -l; }
want() {
	local n
	n=$(count "$3")
	result "$1" "$([ "$n" -eq "$2" ] && echo ok || echo "$n frames, not $2")"
}

mal=$(count '_ws.malformed || _ws.expert.severity >= 0x00800000')
result "no malformed frame, no expert error" "$([ "$mal" -eq 0 ] && echo ok || echo "$mal frames")"
term='iwarp_mpa.fpdu && iwarp_rdma.opcode == 7'
# RFC 5040's encoding, and siw's (nibbles swapped), of "RDMAP, Remote
# Protection Error" with error code $1.
rfc() { echo "iwarp_rdma.term_layer == 0 && iwarp_rdma.term_etype_rdma == 1 && (iwarp_rdma.term_errcode_rdma == $1 || iwarp_rdma.term_errcode == $1)"; }
siw() { echo "iwarp_rdma.term_layer == 1 && iwarp_rdma.term_etype_ddp == 0 && iwarp_rdma.term_errcode == $1"; }
want "siw's one Terminate" 1 "ip.src == 192.0.2.2 && $term"
want "siw's: RDMAP, Remote Protection Error, Invalid STag (siw's nibble order)" 1 \
	"ip.src == 192.0.2.2 && $term && $(siw 0x00)"
want "the device's one Terminate" 1 "ip.src == 192.0.2.1 && $term"
case $name in
*-siw)
	want "the device's: RDMAP, Remote Protection Error, Base or Bounds Violation (siw's nibble order)" 1 \
		"ip.src == 192.0.2.1 && $term && $(siw 0x01)" ;;
*)
	want "the device's: RDMAP, Remote Protection Error, Base or Bounds Violation" 1 \
		"ip.src == 192.0.2.1 && $term && $(rfc 0x01)" ;;
esac
# Nothing answered the bad Reads: no Read Response after a Terminate.
want "two Read Requests answered, two refused" 2 \
	"iwarp_mpa.fpdu && iwarp_rdma.opcode == 2 && iwarp_ddp.last_flag == 1"
