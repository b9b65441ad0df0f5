#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Judge the capture of tests/vm/siw/58-rdmacm-data-capture.sh with tshark
# (runs on the host): the ULP on $DEV (192.0.2.1) and the ULP on siw
# (192.0.2.2) exchange Sends, RDMA Writes and RDMA Reads both ways, then
# rping's protocol both ways. tshark's iwarp_mpa dissector frames the
# FPDUs (and checks CRCs where negotiated), iwarp_ddp_rdmap reads their
# DDP/RDMAP headers; neither was written here.
# Usage: check-rdmacm-data.sh FILE.pcap NAME
# Prints one "PASS NAME: what" or "FAIL NAME: what" line per check.
set -uo pipefail
pcap=$1 name=$2
# RPC-over-RDMA's heuristic in tshark 4.0 claims Sends it cannot parse
# ("Malformed Packet: RPCoRDMA"): these are not RPC, so it stays off.
ts() {
	tshark -r "$pcap" --enable-heuristic iwarp_mpa_tcp --disable-protocol rpcordma \
		"$@" 2>/dev/null
}
result() { if [ "$2" = ok ]; then echo "PASS $name: $1"; else echo "FAIL $name: $1 ($2)"; fi; }
count() { ts -Y "$1" | wc -l; }
# atleast WHAT N FILTER: N frames or more match.
atleast() {
	local n
	n=$(count "$3")
	result "$1" "$([ "$n" -ge "$2" ] && echo ok || echo "$n frames, not $2 or more")"
}
want() {
	local n
	n=$(count "$3")
	result "$1" "$([ "$n" -eq "$2" ] && echo ok || echo "$n frames, not $2")"
}

if tshark -r "$pcap" >/dev/null 2>"$pcap.err" &&
   ! grep -v '^Running as user' "$pcap.err" | grep -q .; then
	result "tshark reads the whole capture" ok
else
	result "tshark reads the whole capture" "$(grep -v '^Running as user' "$pcap.err" | head -1)"
fi
mal=$(count '_ws.malformed || _ws.expert.severity >= 0x00800000')
result "no malformed frame, no expert error" "$([ "$mal" -eq 0 ] && echo ok || echo "$mal frames")"
atleast "tshark frames FPDUs" 20 'iwarp_mpa.fpdu'

for src in 192.0.2.1 192.0.2.2; do
	f="ip.src == $src && iwarp_mpa.fpdu"
	# RDMAP opcodes (RFC 5040, 4.2): 0 Write, 1 Read Request, 2 Read
	# Response, 3 Send, 7 Terminate.
	atleast "$src: RDMA Writes (tagged)" 8 "$f && iwarp_rdma.opcode == 0 && iwarp_ddp.tagged_flag == 1"
	atleast "$src: RDMA Read Requests (queue 1)" 4 "$f && iwarp_rdma.opcode == 1 && iwarp_ddp.qn == 1"
	atleast "$src: RDMA Read Responses (tagged)" 4 "$f && iwarp_rdma.opcode == 2 && iwarp_ddp.tagged_flag == 1"
	atleast "$src: Sends (queue 0)" 8 "$f && iwarp_rdma.opcode == 3 && iwarp_ddp.qn == 0"
	want "$src: no Terminate" 0 "$f && iwarp_rdma.opcode == 7"
	# The last segment of every message has the L bit: as many as the
	# messages, never none.
	atleast "$src: last segments" 24 "$f && iwarp_ddp.last_flag == 1"
done
