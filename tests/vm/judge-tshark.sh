#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# judge-tshark.sh [IGNORED]
#
# The capture judge's own test (host side; python3 and tshark): captures
# made here, whose verdict is known, go to tests/vm/lib/check-capture.sh,
# and its "TCP analysis flags nothing on madcm's side" line must say what
# RFC 9293 says of madcm's frames in them:
#  - reorder: the peer's pure ACK and its MPA Reply at the same SEG.SEQ,
#    then madcm's ACK of the Reply twice. The second answers the pure ACK
#    taken after the Reply, no longer acceptable (3.10.7.4): PASS;
#  - plain: the same without the pure ACK, so nothing to answer: FAIL;
#  - twice: the pure ACK, and three ACKs of the Reply: one too many: FAIL.
# Prints PASS/FAIL per capture and "judge-tshark: N passed, M failed".
set -uo pipefail

cache=${MADCM_CACHE:-$HOME/.cache/madcm}
dir=$cache/judge-tshark
judge=$(dirname "$0")/lib/check-capture.sh
mkdir -p "$dir"
passed=0 failed=0

# mkcap FILE MODE: Ethernet, IPv4 and TCP frames with right checksums, a
# handshake, madcm's 20-octet MPA Request, the peer's Reply.
mkcap() {
	python3 - "$1" "$2" <<'PY'
import struct, sys


def csum(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def addr(a):
    return bytes(int(x) for x in a.split('.'))


def frame(src, dst, sport, dport, seq, ack, flags, data=b''):
    tcp = struct.pack('!HHIIBBHHH', sport, dport, seq, ack, 5 << 4, flags,
                      1000, 0, 0) + data
    ph = addr(src) + addr(dst) + struct.pack('!BBH', 0, 6, len(tcp))
    tcp = tcp[:16] + struct.pack('!H', csum(ph + tcp)) + tcp[18:]
    iph = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(tcp), 1, 0x4000,
                      64, 6, 0, addr(src), addr(dst))
    iph = iph[:10] + struct.pack('!H', csum(iph)) + iph[12:]
    return b'\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00' + iph + tcp


M, P = '192.0.2.1', '192.0.2.2'
SYN, ACK, PSH = 0x02, 0x10, 0x08
req = b'MPA ID Req Frame\0\0\0\0'
rep = b'MPA ID Rep Frame\0\0\0\0'
mi, pi, mode = 1000, 5000, sys.argv[2]
mp = (M, P, 40000, 5100)
pm = (P, M, 5100, 40000)
done = (mi + 1 + len(req), pi + 1 + len(rep))
fr = [frame(*mp, mi, 0, SYN),
      frame(*pm, pi, mi + 1, SYN | ACK),
      frame(*mp, mi + 1, pi + 1, ACK),
      frame(*mp, mi + 1, pi + 1, ACK | PSH, req)]
if mode != 'plain':
    fr.append(frame(*pm, pi + 1, mi + 1 + len(req), ACK))
fr.append(frame(*pm, pi + 1, mi + 1 + len(req), ACK | PSH, rep))
for _ in range(3 if mode == 'twice' else 2):
    fr.append(frame(*mp, *done, ACK))
with open(sys.argv[1], 'wb') as out:
    out.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for i, f in enumerate(fr):
        out.write(struct.pack('<IIII', 100 + i, 0, len(f), len(f)) + f)
PY
}

for c in reorder:PASS plain:FAIL twice:FAIL; do
	mode=${c%:*} want=${c#*:}
	mkcap "$dir/$mode.pcap" "$mode" || { echo "FAIL $mode: capture not made"; failed=$((failed + 1)); continue; }
	got=$("$judge" "$dir/$mode.pcap" "$mode" 2>"$dir/$mode.err" |
		grep "TCP analysis flags nothing on madcm's side" | cut -d' ' -f1)
	if [ "$got" = "$want" ]; then
		echo "PASS $mode: the judge says $want"
		passed=$((passed + 1))
	else
		echo "FAIL $mode: the judge says '${got:-nothing}', not $want"
		failed=$((failed + 1))
	fi
done
echo "judge-tshark: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
