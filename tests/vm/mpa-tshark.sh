#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mpa-tshark.sh [RAW_KUNIT_LOG]
#
# Hands the MPA frames that madcm built in KUnit (madcm_mpa_exchange,
# mpa_frames_for_tshark) to tshark's own MPA dissector. Host side; needs
# python3 and tshark (Debian 12: 4.0).
#
# The KUnit case prints each frame as hex in "madcm-mpa-frame:" lines,
# 64 octets a line. Each request/reply pair becomes one TCP connection in
# a pcap (Ethernet, IPv4, TCP with a three-way handshake, correct lengths
# and checksums), which tshark dissects with the iwarp_mpa heuristic on
# and checksum validation on. A frame passes when:
#  - tshark calls it an MPA Request or Reply Frame, with the key, the M,
#    C and R flags, revision, PD_Length and private data it carries;
#  - the reserved bits read 0x10 (RFC 6581's S bit) in a revision 2
#    frame and 0 in a revision 1 frame;
#  - nothing is malformed, and its expert entries are exactly the ones
#    RFC 5044 gives as tshark 4.0 implements it: in a request, "Rev field
#    is NOT set to one" when Rev is not 1 and "Res field is NOT set to
#    zero" when a reserved bit is set (so both, and only these, for a
#    revision 2 request); in a reply, "Reject bit set by Responder" when R
#    is set. 4.0 checks Rev and Res in requests only.
# Prints PASS/FAIL per frame and "mpa-tshark: N passed, M failed" last;
# exits non-zero on any failure. The pcap stays in $MADCM_CACHE/mpa-tshark.
set -euo pipefail

cache=${MADCM_CACHE:-$HOME/.cache/madcm}
log=${1:-$cache/kunit-out/raw.log}
out=$cache/mpa-tshark
mkdir -p "$out"

if ! command -v tshark >/dev/null; then
	echo "FAIL: tshark is not installed"
	echo "mpa-tshark: 0 passed, 1 failed"
	exit 1
fi

exec python3 - "$log" "$out" <<'PY'
import re
import struct
import subprocess
import sys

log_path, out_dir = sys.argv[1], sys.argv[2]
pcap_path = out_dir + "/mpa.pcap"

KEY_REQ = b"MPA ID Req Frame"
KEY_REP = b"MPA ID Rep Frame"
WARN_REV = "Rev field is NOT set to one as required by RFC 5044"
WARN_RES = "Res field is NOT set to zero as required by RFC 5044"
NOTE_REJ = "Reject bit set by Responder"

LINE = re.compile(r"madcm-mpa-frame: (\S+) (req|rep|rej) rev=(\d+) m=([01]) "
                  r"c=([01]) pd=(\d+) off=(\d+) ([0-9a-f]+)\s*$")

passed = failed = 0


def result(name, errors):
    global passed, failed
    if errors:
        failed += 1
        print("FAIL: %s: %s" % (name, "; ".join(errors)))
    else:
        passed += 1
        print("PASS: %s" % name)


def finish():
    print("mpa-tshark: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


# ---- the frames in the log ----
frames = {}     # (name, kind) -> dict
order = []
try:
    text = open(log_path, errors="replace").read()
except OSError as e:
    result("reading " + log_path, [str(e)])
    finish()
for line in text.splitlines():
    m = LINE.search(line)
    if not m:
        continue
    name, kind, rev, mk, ck, pd, off, hexa = m.groups()
    key = (name, kind)
    if key not in frames:
        frames[key] = dict(name=name, kind=kind, rev=int(rev), m=int(mk),
                           c=int(ck), pd=int(pd), chunks={})
        order.append(key)
    frames[key]["chunks"][int(off)] = bytes.fromhex(hexa)

if not frames:
    result("frames in " + log_path, ["no madcm-mpa-frame lines"])
    finish()

for f in frames.values():
    data, at = b"", 0
    while at in f["chunks"]:
        data += f["chunks"][at]
        at = len(data)
    f["data"] = data
    f["complete"] = len(data) == 20 + f["pd"] and at == len(data) and \
        sum(len(c) for c in f["chunks"].values()) == len(data)


# ---- the pcap: one TCP connection per request/reply pair ----
def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


IP_A, IP_B = bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2])
MAC_A, MAC_B = bytes.fromhex("020000000001"), bytes.fromhex("020000000002")
SYN, ACK, PSH = 0x02, 0x10, 0x08
SERVER_PORT = 49999


def segment(src, dst, sport, dport, seq, ack, flags, payload=b""):
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags,
                      65535, 0, 0)
    pseudo = struct.pack("!4s4sBBH", src, dst, 0, 6, len(tcp) + len(payload))
    tcp = tcp[:16] + struct.pack("!H", csum(pseudo + tcp + payload)) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp) + len(payload),
                     0, 0x4000, 64, 6, 0, src, dst)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    smac, dmac = (MAC_A, MAC_B) if src == IP_A else (MAC_B, MAC_A)
    return dmac + smac + b"\x08\x00" + ip + tcp + payload


packets = []            # (bytes)
where = {}              # (name, kind) -> packet number, from 1
names = []
for name, kind in order:
    if name not in names:
        names.append(name)
for i, name in enumerate(names):
    req = frames.get((name, "req"))
    rep = frames.get((name, "rep")) or frames.get((name, "rej"))
    if not req or not rep or not req["complete"] or not rep["complete"]:
        for f in (req, rep):
            if f:
                f["skip"] = "incomplete exchange in the log"
        continue
    cport, isn_a, isn_b = 50000 + i, 1000 * (i + 1), 7000 * (i + 1)
    packets.append(segment(IP_A, IP_B, cport, SERVER_PORT, isn_a, 0, SYN))
    packets.append(segment(IP_B, IP_A, SERVER_PORT, cport, isn_b, isn_a + 1,
                           SYN | ACK))
    packets.append(segment(IP_A, IP_B, cport, SERVER_PORT, isn_a + 1,
                           isn_b + 1, ACK))
    packets.append(segment(IP_A, IP_B, cport, SERVER_PORT, isn_a + 1,
                           isn_b + 1, PSH | ACK, req["data"]))
    where[(name, "req")] = len(packets)
    packets.append(segment(IP_B, IP_A, SERVER_PORT, cport, isn_b + 1,
                           isn_a + 1 + len(req["data"]), PSH | ACK,
                           rep["data"]))
    where[(name, rep["kind"])] = len(packets)

with open(pcap_path, "wb") as fp:
    fp.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for n, p in enumerate(packets):
        fp.write(struct.pack("<IIII", 1700000000 + n, 0, len(p), len(p)) + p)

TSHARK = ["tshark", "-n", "-r", pcap_path,
          "--enable-heuristic", "iwarp_mpa_tcp",
          "-o", "tcp.try_heuristic_first:TRUE",
          "-o", "tcp.check_checksum:TRUE",
          "-o", "ip.check_checksum:TRUE"]
FIELDS = ["frame.number", "_ws.col.Info", "_ws.malformed",
          "iwarp_mpa.key.req", "iwarp_mpa.key.rep", "iwarp_mpa.marker_flag",
          "iwarp_mpa.crc_flag", "iwarp_mpa.rej_flag", "iwarp_mpa.res",
          "iwarp_mpa.rev", "iwarp_mpa.pdlength", "iwarp_mpa.privatedata",
          "tcp.checksum.status", "ip.checksum.status"]


def tshark(args):
    p = subprocess.run(TSHARK + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode:
        result("tshark " + " ".join(args), [p.stderr.strip()])
        finish()
    return p.stdout


dissected = {}
fargs = ["-T", "fields", "-E", "separator=/t", "-E", "occurrence=a"]
for f in FIELDS:
    fargs += ["-e", f]
for row in tshark(fargs).splitlines():
    cols = row.split("\t")
    cols += [""] * (len(FIELDS) - len(cols))
    dissected[int(cols[0])] = dict(zip(FIELDS, cols))


def experts(num):
    """The expert entries tshark reports for packet @num, as a set."""
    found, sev = set(), None
    for line in tshark(["-q", "-z", "expert,frame.number==%d" % num]) \
            .splitlines():
        head = re.match(r"^(Errors|Warns|Notes|Chats|Comments) \(\d+\)", line)
        if head:
            sev = head.group(1)
            continue
        row = re.match(r"^\s+\d+\s+\S+\s+(\S+)\s+(.+?)\s*$", line)
        if sev and row and row.group(1) != "Protocol":
            found.add((sev, row.group(1), row.group(2)))
    return found


def flag(v):
    return {"1": 1, "True": 1, "0": 0, "False": 0}.get(v, v)


for key in order:
    f = frames[key]
    label = "%s %s rev%d" % (f["name"], f["kind"], f["rev"])
    err = []
    if not f["complete"]:
        result(label, ["frame incomplete in the log"])
        continue
    if "skip" in f:
        result(label, [f["skip"]])
        continue
    d = dissected.get(where[key], {})
    data, req = f["data"], f["kind"] == "req"

    # Independently of the dissector: the frame is what the line says.
    want_key = KEY_REQ if req else KEY_REP
    if data[:16] != want_key:
        err.append("key %r" % data[:16])

    info = d.get("_ws.col.Info", "")
    want_info = "MPA Request Frame" if req else "MPA Reply Frame"
    if want_info not in info:
        err.append("not dissected as %s (Info %r)" % (want_info, info))
    if d.get("_ws.malformed"):
        err.append("malformed packet")
    for st in ("tcp.checksum.status", "ip.checksum.status"):
        if d.get(st) != "1":    # 1: Good, 0: Bad, 2: Unverified
            err.append("%s %r" % (st, d.get(st)))
    kfield = "iwarp_mpa.key.req" if req else "iwarp_mpa.key.rep"
    if d.get(kfield) != want_key.hex():
        err.append("%s %r" % (kfield, d.get(kfield)))
    want = {
        "iwarp_mpa.marker_flag": f["m"],
        "iwarp_mpa.crc_flag": f["c"],
        "iwarp_mpa.rej_flag": 1 if f["kind"] == "rej" else 0,
    }
    for field, v in want.items():
        if flag(d.get(field)) != v:
            err.append("%s %r, want %d" % (field, d.get(field), v))
    want_res = 0x10 if f["rev"] == 2 else 0
    try:
        res = int(d.get("iwarp_mpa.res", ""), 0)
    except ValueError:
        res = None
    if res != want_res:
        err.append("res %r, want 0x%02x" % (d.get("iwarp_mpa.res"), want_res))
    if d.get("iwarp_mpa.rev") != str(f["rev"]):
        err.append("rev %r, want %d" % (d.get("iwarp_mpa.rev"), f["rev"]))
    if d.get("iwarp_mpa.pdlength") != str(f["pd"]):
        err.append("pdlength %r, want %d" % (d.get("iwarp_mpa.pdlength"),
                                             f["pd"]))
    if d.get("iwarp_mpa.privatedata", "") != data[20:].hex():
        err.append("private data differs")

    # Expert entries: RFC 5044's, as tshark 4.0 checks them.
    want_exp = set()
    if req and data[17] != 1:
        want_exp.add(("Warns", "IWARP_MPA", WARN_REV))
    if req and data[16] & 0x1F:
        want_exp.add(("Warns", "IWARP_MPA", WARN_RES))
    if not req and data[16] & 0x20:
        want_exp.add(("Notes", "IWARP_MPA", NOTE_REJ))
    if f["rev"] == 2 and req and len(want_exp) != 2:
        err.append("a revision 2 request must draw both RFC 5044 warnings")
    got_exp = experts(where[key])
    for e in sorted(got_exp - want_exp):
        err.append("unexpected expert entry %s/%s: %s" % e)
    for e in sorted(want_exp - got_exp):
        err.append("missing expert entry %s/%s: %s" % e)
    result(label, err)

finish()
PY
