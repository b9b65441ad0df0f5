#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Judge the capture of tests/vm/siw/40-siw-capture.sh with tshark (runs on
# the host): madcm (192.0.2.1) sends RTR messages to siw and to a second
# madcm (both 192.0.2.2). tshark's iwarp_mpa dissector frames the FPDUs
# and checks their CRC, iwarp_ddp_rdmap reads the DDP/RDMAP headers:
# neither was written here.
# Usage: check-siw-capture.sh FILE.pcap NAME
# Prints one "PASS NAME: what" or "FAIL NAME: what" line per check.
set -uo pipefail
pcap=$1 name=$2
# RPC-over-RDMA's heuristic in tshark 4.0 takes any Send's payload and
# throws on an empty one ("Malformed Packet: RPCoRDMA"): it stays off.
ts() {
	tshark -r "$pcap" --enable-heuristic iwarp_mpa_tcp --disable-protocol rpcordma \
		"$@" 2>/dev/null
}
result() { if [ "$2" = ok ]; then echo "PASS $name: $1"; else echo "FAIL $name: $1 ($2)"; fi; }
# count FILTER: frames that match.
count() { ts -Y "$1" | wc -l; }
# want WHAT N FILTER: exactly N frames match.
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
# RFC 5044's dissector warns about revision 2 requests (Rev, and Res
# holding RFC 6581's S bit), nothing else.
warn=$(ts -q -z expert,warn | awk '/^ +[0-9]+ /' |
	grep -v -e 'Rev field is NOT set to one' -e 'Res field is NOT set to zero' | wc -l)
result "no warning beyond the revision 2 Rev/Res pair" "$([ "$warn" -eq 0 ] && echo ok || echo "$warn kinds")"

madcm='ip.src == 192.0.2.1'
rtr="$madcm && iwarp_mpa.fpdu && iwarp_ddp.last_flag == 1 && iwarp_ddp.dv == 1 && iwarp_rdma.version == 1"
# Write: k1 (CRC) and k3 (no CRC), tagged, STag and offset 0, ULPDU 14.
want "madcm's zero-length RDMA Write RTRs" 2 \
	"$rtr && iwarp_ddp.tagged_flag == 1 && iwarp_rdma.opcode == 0 && iwarp_ddp.stag == 0 && iwarp_ddp.tagged_offset == 0 && iwarp_mpa.ulpdulength == 14 && !iwarp_mpa.pad"
# Read Request: k2, queue 1, MSN 1, MO 0, nothing to read, ULPDU 46.
want "madcm's zero-length RDMA Read Request RTR" 1 \
	"$rtr && iwarp_ddp.tagged_flag == 0 && iwarp_rdma.opcode == 1 && iwarp_ddp.qn == 1 && iwarp_ddp.msn == 1 && iwarp_ddp.mo == 0 && iwarp_rdma.rdmardsz == 0 && iwarp_rdma.sinkstag == 0 && iwarp_rdma.srcstag == 0 && iwarp_mpa.ulpdulength == 46"
# Send: k4, queue 0, MSN 1, MO 0, ULPDU 18.
want "madcm's zero-length Send RTR" 1 \
	"$rtr && iwarp_ddp.tagged_flag == 0 && iwarp_rdma.opcode == 3 && iwarp_ddp.qn == 0 && iwarp_ddp.msn == 1 && iwarp_ddp.mo == 0 && iwarp_mpa.ulpdulength == 18"
want "no other FPDU from madcm" 4 "$madcm && iwarp_mpa.fpdu"
# siw answers k2's Read Request with a zero-length Read Response.
want "siw's zero-length RDMA Read Response" 1 \
	"ip.src == 192.0.2.2 && iwarp_mpa.fpdu && iwarp_rdma.opcode == 2 && iwarp_ddp.last_flag == 1"

# CRCs: on a connection that negotiated them (k1, k2, k4, and siw's Read
# Response on k2) tshark computes its own over each FPDU and shows
# "CRC check: ... (Good CRC32)" when it matches; a CRC that does not
# match, or one on a connection without CRCs (k3, zero), stays a plain
# "CRC" field.
want "madcm's FPDUs whose CRC tshark checked" 3 "$madcm && iwarp_mpa.crc_check"
want "siw's FPDU whose CRC tshark checked" 1 "ip.src == 192.0.2.2 && iwarp_mpa.crc_check"
good=$(ts -Y 'iwarp_mpa.crc_check' -O iwarp_mpa | grep -c 'CRC check: 0x[0-9a-f]* (Good CRC32)')
result "tshark found every checked CRC good" "$([ "$good" -eq 4 ] && echo ok || echo "$good good, not 4")"
want "the FPDU without CRC carries zero" 1 "$madcm && iwarp_mpa.crc == 0"
