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

# One flag is madcm's due: a duplicate ACK answering a segment of the
# peer that arrived behind a later one. The peer's pure ACK and the data
# right after it (same SEG.SEQ) leave from two CPUs of its host, reach two
# backlogs of madcm's and may be taken in the other order; the pure ACK
# then lies before RCV.NXT, is not acceptable, and RFC 9293 3.10.7.4 has
# it answered with an ACK (Linux's tcp_sequence() and tcp_send_dupack()
# do the same). Such a duplicate ACK passes when the capture shows that
# pair just before madcm's first ACK of the same number, once per pair.
# Fields: frame, stream, madcm's (1) or not, seq, len, ack, the flags,
# duplicate ACK, window update; sequence numbers relative per stream.
tcp_flagged() {
	ts -Y tcp -T fields -E "separator=|" -e frame.number -e tcp.stream \
		-e ip.src -e ipv6.src -e tcp.seq -e tcp.len -e tcp.ack \
		-e tcp.analysis.flags -e tcp.analysis.duplicate_ack \
		-e tcp.analysis.window_update |
	awk -F"|" '{
		mine = ($3 == "192.0.2.1" || $4 == "fd00::1")
		st = $2; seq = $5 + 0; len = $6 + 0; ack = $7 + 0
		if (!mine) {
			# the peer: remember a pure ACK followed by data at its SEQ
			if (len == 0) { pure[st] = seq; havep[st] = 1 }
			else {
				if (havep[st] && pure[st] == seq) pair[st, seq + len] = 1
				havep[st] = 0
			}
			next
		}
		if ($8 == "" || $10 != "") next
		if ($9 != "" && len == 0 && pair[st, ack]) {
			pair[st, ack] = 0
			print "reordered " $1
			next
		}
		print "flagged " $1
	}'
}
flagged=$(tcp_flagged)
flags=$(grep -c '^flagged ' <<<"$flagged")
if [ "$flags" -eq 0 ]; then
	for f in $(sed -n 's/^reordered //p' <<<"$flagged"); do
		echo "[madcm] $name: frame $f, madcm's duplicate ACK of a pure ACK taken behind the data after it" >&2
	done
	result "TCP analysis flags nothing on madcm's side" ok
else
	ts -Y "$madcm && tcp.analysis.flags && !tcp.analysis.window_update" >&2
	result "TCP analysis flags nothing on madcm's side" "$flags frames"
fi
