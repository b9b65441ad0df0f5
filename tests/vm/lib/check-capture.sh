#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Judge a capture of madcm's CM traffic with tshark (runs on the host).
# madcm is 192.0.2.1 / fd00::1 in the captures the VM scripts make.
# Usage: check-capture.sh FILE.pcap NAME
# Prints one "PASS NAME: what" or "FAIL NAME: what" line per check.
set -uo pipefail
pcap=$1 name=$2
# The Linux peer's own frames are captured before their checksums are
# filled in (veth offload), so checksums are validated only where asked.
ts() { tshark -r "$pcap" --enable-heuristic iwarp_mpa_tcp "$@" 2>/dev/null; }
tsc() { ts -o tcp.check_checksum:TRUE -o ip.check_checksum:TRUE "$@"; }
madcm='(ip.src == 192.0.2.1 || ipv6.src == fd00::1)'
result() { if [ "$2" = ok ]; then echo "PASS $name: $1"; else echo "FAIL $name: $1 ($2)"; fi; }

if tshark -r "$pcap" >/dev/null 2>"$pcap.err" &&
   ! grep -v '^Running as user' "$pcap.err" | grep -q .; then
	result "tshark reads the whole capture" ok
else
	result "tshark reads the whole capture" "$(grep -v '^Running as user' "$pcap.err" | head -1)"
fi

req=$(ts -Y 'iwarp_mpa.key.req' | wc -l)
rep=$(ts -Y 'iwarp_mpa.key.rep' | wc -l)
result "MPA requests and replies dissected" \
	"$([ "$req" -ge 4 ] && [ "$rep" -ge 4 ] && echo ok || echo "req=$req rep=$rep")"

mal=$(ts -Y '_ws.malformed || _ws.expert.severity >= 0x00800000' | wc -l)
result "no malformed frame, no expert error" "$([ "$mal" -eq 0 ] && echo ok || echo "$mal frames")"

# The only warnings RFC 5044's dissector may give madcm's frames: Rev and
# Res in a revision 2 request.
warn=$(ts -q -z expert,warn | awk '/^ +[0-9]+ /' |
	grep -v -e 'Rev field is NOT set to one' -e 'Res field is NOT set to zero' | wc -l)
result "no warning beyond the revision 2 Rev/Res pair" "$([ "$warn" -eq 0 ] && echo ok || echo "$warn kinds")"

bad=$(tsc -Y "$madcm && tcp && (tcp.checksum.status == 2 || ip.checksum.status == 2)" | wc -l)
result "madcm's checksums are right" "$([ "$bad" -eq 0 ] && echo ok || echo "$bad frames")"

flags=$(ts -Y "$madcm && tcp.analysis.flags && !tcp.analysis.window_update" | wc -l)
if [ "$flags" -eq 0 ]; then
	result "TCP analysis flags nothing on madcm's side" ok
else
	ts -Y "$madcm && tcp.analysis.flags && !tcp.analysis.window_update" >&2
	result "TCP analysis flags nothing on madcm's side" "$flags frames"
fi
