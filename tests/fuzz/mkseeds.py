#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the seed corpora of tests/fuzz/corpus/ from the KUnit vectors.

Each seed is a frame or stream that a KUnit suite builds or checks, with
the harness's control octets in front (see each harness's header comment):
  fuzz_tcp_seg  tests/kunit/tcp_seg_test.c: frame_cases (payloads cut to at
                most 100 octets, to keep the corpus small), the IPv6
                extension header chains of parse_ipv6_extension_headers,
                and the option lists of the option cases;
  fuzz_mpa      tests/kunit/mpa_spec.h, mpa_test.c, cm_mpa_rfc_test.c:
                requests, replies and rejects of revision 1 and 2, with and
                without the RFC 6581 word, in both roles;
  fuzz_ddp_rx   tests/kunit/rnic_ddp_test.c, rnic_rdmap_test.c: FPDUs of
                each RDMAP opcode, with and without CRC, back to back;
  fuzz_mad_recv tests/kunit/mad_recv_test.c: the bad_mads grid, and Gets,
                Sets, responses, SMPs and an RMPP segment that agents take;
  fuzz_rmpp_recv tests/kunit/mad_rmpp_wire_test.c, mad_rmpp_util.h: a
                3-segment SA Set of 560 octets (in order, duplicated, out
                of window, from two senders, timed out), its response
                answering a request, the bad_params grid, ACK, STOP, ABORT;
  fuzz_uverbs   tests/kunit/rnic_uverbs_test.c: the SQEs and RQEs it
                converts (each good opcode, refused ones, Send with
                Invalidate, too many SGEs for the ABI and for the QP,
                inline data at and over SIW_MAX_INLINE, on a Read, lengths
                over 2^32, a slot not valid) and its fetch loop (a ring of
                4, with room for all, none, or two).
Run it again after changing it; it replaces the files it writes.
"""
import hashlib
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, 'corpus')


def write(harness, name, data):
    d = os.path.join(CORPUS, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


# ---- Internet checksum (RFC 1071) ----
def csum(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


# ---- tcp_seg_test.c ----
MAC_A = bytes([2, 0, 0, 0, 0, 0x0a])
MAC_B = bytes([2, 0, 0, 0, 0, 0x0b])
V4_A, V4_B = bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2])
V6_A = bytes([0x20, 0x01, 0x0d, 0xb8] + [0] * 11 + [1])
V6_B = bytes([0x20, 0x01, 0x0d, 0xb8] + [0] * 11 + [2])
T_SEQ, T_ACK, T_WIN, T_MSS, T_WSCALE = 0xfedcba98, 0x01234567, 0x7210, 1460, 7
T_TOS, T_TTL, T_FLOW, T_TCI = 0x28, 64, 0x9abcd, 0x6064
SYN, ACK, FIN, RST, PSH = 0x02, 0x10, 0x01, 0x04, 0x08

FRAME_CASES = [
    ('v4-syn-mss-wscale', True, False, SYN, True, True, 0),
    ('v4-synack-mss', True, False, SYN | ACK, True, False, 0),
    ('v4-ack', True, False, ACK, False, False, 0),
    ('v4-pshack-1', True, False, ACK | PSH, False, False, 1),
    ('v4-ack-7', True, False, ACK, False, False, 7),
    ('v4-ack-1460', True, False, ACK, False, False, 1460),
    ('v4-vlan-finack', True, True, FIN | ACK, False, False, 0),
    ('v4-vlan-rst', True, True, RST, False, False, 0),
    ('v6-syn-mss-wscale', False, False, SYN, True, True, 0),
    ('v6-ack-100', False, False, ACK, False, False, 100),
    ('v6-vlan-synack-wscale', False, True, SYN | ACK, False, True, 0),
    ('v6-vlan-ack-1439', False, True, ACK, False, False, 1439),
]


def tcp_opts(mss, wscale):
    o = b''
    if mss:
        o += struct.pack('!BBH', 2, 4, T_MSS)
    if wscale:
        o += bytes([1, 3, 3, T_WSCALE])
    return o


def frame(ipv4, vlan, flags, mss, wscale, plen, ext=None):
    payload = bytes((i * 7 + 3) & 0xff for i in range(min(plen, 100)))
    opts = tcp_opts(mss, wscale)
    doff = (20 + len(opts)) // 4
    th = struct.pack('!HHIIBBHHH', 49152, 5000, T_SEQ,
                     T_ACK if flags & ACK else 0, doff << 4, flags, T_WIN,
                     0, 0) + opts + payload
    if ipv4:
        pseudo = V4_A + V4_B + struct.pack('!BBH', 0, 6, len(th))
    else:
        pseudo = V6_A + V6_B + struct.pack('!IxxxB', len(th), 6)
    c = csum(pseudo + th)
    th = th[:16] + struct.pack('!H', c) + th[18:]
    if ipv4:
        ip = struct.pack('!BBHHHBBH4s4s', 0x45, T_TOS, 20 + len(th), 0,
                         0x4000, T_TTL, 6, 0, V4_A, V4_B)
        ip = ip[:10] + struct.pack('!H', csum(ip)) + ip[12:]
        l3, etype = ip + th, 0x0800
    else:
        nh, chain = 6, b''
        if ext:
            nh, chain = ext
        word = 6 << 28 | T_TOS << 20 | T_FLOW
        ip = struct.pack('!IHBB16s16s', word, len(chain) + len(th), nh,
                         T_TTL, V6_A, V6_B)
        l3, etype = ip + chain + th, 0x86dd
    if vlan:
        l2 = MAC_B + MAC_A + struct.pack('!HHH', 0x8100, T_TCI, etype)
    else:
        l2 = MAC_B + MAC_A + struct.pack('!H', etype)
    return l2 + l3


def ext(first, *hdrs):
    return first, b''.join(bytes(h) for h in hdrs)


def pad(b, n):
    return bytes(b) + bytes(n - len(b))


EXT_CASES = [
    ('v6-dst8', ext(60, [6, 0, 1, 4, 0, 0, 0, 0])),
    ('v6-hbh-dst', ext(0, pad([60, 0, 1, 4, 0, 0, 0, 0, 6, 1, 1, 12], 24))),
    ('v6-routing-sl0', ext(43, pad([6, 2, 2, 0], 24))),
    ('v6-routing-sl1', ext(43, pad([6, 2, 2, 1], 24))),
    ('v6-fragment', ext(44, [6, 0, 0, 1, 0, 0, 0, 42])),
    ('v6-no-next', ext(60, pad([59, 0, 1, 4], 8))),
    ('v6-dst-hbh', ext(60, pad([0, 0, 1, 4, 0, 0, 0, 0, 6, 0, 1, 4], 16))),
    ('v6-dst-long', ext(60, pad([6, 2, 1, 4], 8))),
]

OPT_CASES = [
    ('opt-mss-wscale', tcp_opts(True, True)),
    ('opt-nop-eol', bytes([1, 1, 0, 2, 4, 5, 0xb4])),
    ('opt-sack-ts', bytes([4, 2, 8, 10] + [0] * 8 + [1, 1])),
    ('opt-wscale-15', bytes([3, 3, 15, 0])),
    ('opt-mss-short', bytes([2, 3, 5])),
]


def tcp_seeds():
    for name, *c in FRAME_CASES:
        write('fuzz_tcp_seg', name, b'\0' + frame(*c))
    for name, e in EXT_CASES:
        write('fuzz_tcp_seg', name,
              b'\0' + frame(False, False, ACK, False, False, 100, e))
    for name, o in OPT_CASES:
        write('fuzz_tcp_seg', name, bytes([0x06]) + o)


# ---- mpa_spec.h, mpa_test.c, cm_mpa_rfc_test.c ----
KEY_REQ, KEY_REP = b'MPA ID Req Frame', b'MPA ID Rep Frame'
F_M, F_C, F_R, F_S = 0x80, 0x40, 0x20, 0x10


def mpa_frame(key, flags, rev, rtr=None, ulp=b''):
    pd = b''
    if rtr is not None:
        a, b, c, d, ird, ord_ = rtr
        pd = struct.pack('!HH', (a << 15) | (b << 14) | ird,
                         (c << 15) | (d << 14) | ord_)
    pd += ulp
    return key + bytes([flags, rev]) + struct.pack('!H', len(pd)) + pd


def mpa_cfg(responder, rev2, p2p, crc, rtr_caps, max_ird, max_ord, ird, ord_,
            no_ird_ord=False):
    ctl = (responder | rev2 << 1 | p2p << 2 | crc << 3 | no_ird_ord << 5 |
           (rtr_caps & 3) << 6)
    return (bytes([ctl]) + struct.pack('!H', max_ird << 1 | rtr_caps >> 2) +
            struct.pack('!HHH', max_ord, ird, ord_))


def mpa_seeds():
    ulp = bytes([0xde, 0xad, 0x01])
    resp_p2p = mpa_cfg(1, 1, 1, 1, 7, 127, 127, 16, 16)
    resp_v1 = mpa_cfg(1, 0, 0, 1, 0, 127, 127, 16, 16)
    init_p2p = mpa_cfg(0, 1, 1, 1, 7, 127, 127, 16, 16)
    init_v2 = mpa_cfg(0, 1, 0, 0, 0, 127, 127, 8, 8)
    seeds = [
        ('req-v2-p2p-read', resp_p2p,
         mpa_frame(KEY_REQ, F_C | F_S, 2, (1, 0, 0, 1, 16, 16), ulp)),
        ('req-v2-p2p-send', resp_p2p,
         mpa_frame(KEY_REQ, F_S, 2, (1, 1, 0, 0, 4, 0), b'hi\0')),
        ('req-v2-p2p-write-noird', resp_p2p,
         mpa_frame(KEY_REQ, F_S, 2, (1, 0, 1, 0, 0x3fff, 0x3fff))),
        ('req-v2-plain', resp_p2p, mpa_frame(KEY_REQ, F_C, 2, None, ulp)),
        ('req-v1', resp_v1, mpa_frame(KEY_REQ, F_C, 1, None, ulp)),
        ('req-v1-markers', resp_v1, mpa_frame(KEY_REQ, F_M, 1)),
        ('req-pd-512', resp_v1, mpa_frame(KEY_REQ, 0, 1, None, bytes(512))),
        ('rep-v2-p2p-read', init_p2p,
         mpa_frame(KEY_REP, F_C | F_S, 2, (1, 0, 0, 1, 16, 16), ulp)),
        ('rep-v2-p2p-write', init_p2p,
         mpa_frame(KEY_REP, F_S, 2, (1, 0, 1, 0, 8, 4))),
        ('rep-v2-enhanced', init_v2,
         mpa_frame(KEY_REP, F_S, 2, (0, 0, 0, 0, 8, 8))),
        ('rep-v2-reject', init_p2p,
         mpa_frame(KEY_REP, F_R | F_S, 2, (1, 0, 0, 1, 0, 0), b'no')),
        ('rep-v1-reject', mpa_cfg(0, 0, 0, 0, 0, 127, 127, 1, 1),
         mpa_frame(KEY_REP, F_R, 1, None, b'busy')),
    ]
    for name, cfg, f in seeds:
        write('fuzz_mpa', name, cfg + f)


# ---- rnic_ddp_test.c, rnic_rdmap_test.c ----
def crc32c(data):
    crc = 0xffffffff
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82f63b78 if crc & 1 else 0)
    return crc ^ 0xffffffff


DDP_T, DDP_L, DDP_V1, RDMAP_V1 = 0x80, 0x40, 0x01, 0x40
WRITE, RREQ, RRESP, SEND, SEND_INV, SEND_SE, SEND_SE_INV, TERM = range(8)


def untagged(op, last, qn, msn, mo, inv=0, extra=b''):
    return struct.pack('!BBIIII', (DDP_L if last else 0) | DDP_V1,
                       RDMAP_V1 | op, inv, qn, msn, mo) + extra


def tagged(op, last, stag, to):
    return struct.pack('!BBIQ', DDP_T | (DDP_L if last else 0) | DDP_V1,
                       RDMAP_V1 | op, stag, to)


def fpdu(ulpdu, crc):
    body = struct.pack('!H', len(ulpdu)) + ulpdu
    body += bytes(-len(body) % 4)
    return body + struct.pack('<I', crc32c(body) if crc else 0)


def ddp_seeds():
    pay = bytes(range(1, 21))
    rreq = struct.pack('!IQIIQ', 0x1234, 0x1000, 64, 0x5678, 0x2000)
    term = struct.pack('!I', 0x12345678)
    fpdus = [
        ('send', untagged(SEND, True, 0, 1, 0) + pay),
        ('send-2seg', untagged(SEND, False, 0, 1, 0) + pay[:8]),
        ('send-inv', untagged(SEND_INV, True, 0, 2, 0, inv=0xabcd) + pay[:3]),
        ('send-se', untagged(SEND_SE, True, 0, 3, 0)),
        ('write', tagged(WRITE, True, 0x100, 0x4000) + pay),
        ('write-zero', tagged(WRITE, True, 0, 0)),
        ('read-req', untagged(RREQ, True, 1, 1, 0, extra=rreq)),
        ('read-resp', tagged(RRESP, True, 0x1234, 0x1000) + pay[:13]),
        ('terminate', untagged(TERM, True, 2, 1, 0, extra=term)),
    ]
    for name, u in fpdus:
        write('fuzz_ddp_rx', name + '-crc', b'\x01\x05' + fpdu(u, True))
        write('fuzz_ddp_rx', name, b'\x00\x05' + fpdu(u, False))
    stream = b''.join(fpdu(u, True) for _, u in fpdus[:5])
    write('fuzz_ddp_rx', 'stream-crc', b'\x01\x2b' + stream)


# ---- mad_recv_test.c ----
def mad(base, cls, cver, method, length=256, attr_id=0x10, rmpp=None):
    hdr = struct.pack('!BBBBHHQHHI', base, cls, cver, method, 0, 0,
                      0x0000000100000002, attr_id, 0, 0)
    if rmpp is not None:
        hdr += struct.pack('!BBBBII', *rmpp)
    return (hdr + bytes(max(0, length - len(hdr))))[:length]


def mad_seeds():
    # (name, OPA port, QP, agents picked, MAD); control octets as in the
    # harness: octet 0 bit 0 OPA, bit 6 GRH; octet 1 bits 0-4 the agents,
    # bits 5-6 the QP.
    bad = [
        ('empty', False, 1, mad(1, 0x04, 1, 1, 0)),
        ('23-bytes', False, 1, mad(1, 0x04, 1, 1, 23)),
        ('ib-255', False, 1, mad(1, 0x04, 1, 1, 255)),
        ('ib-257', False, 1, mad(1, 0x04, 1, 1, 257)),
        ('base-0', False, 1, mad(0, 0x04, 1, 1)),
        ('base-2', False, 1, mad(2, 0x04, 1, 1)),
        ('opa-on-ib', False, 1, mad(0x80, 0x04, 1, 1)),
        ('cver-83', False, 1, mad(1, 0x04, 0x83, 1)),
        ('smp-on-qp1', False, 1, mad(1, 0x01, 1, 1)),
        ('gmp-on-qp0', False, 0, mad(1, 0x04, 1, 1)),
        ('cm-get', False, 1, mad(1, 0x07, 2, 1)),
        ('trap', False, 1, mad(1, 0x04, 1, 5)),
        ('getresp', False, 1, mad(1, 0x04, 1, 0x81)),
    ]
    good = [
        ('perf-get', False, 1, 0x01, mad(1, 0x04, 1, 1)),
        ('perf-get-unclaimed', False, 1, 0x00, mad(1, 0x04, 1, 1)),
        ('dr-smp-set-unclaimed', False, 0, 0x00, mad(1, 0x81, 1, 2)),
        ('smp-get', False, 0, 0x01, mad(1, 0x01, 1, 1)),
        ('cm-cpi-get', False, 1, 0x01, mad(1, 0x07, 2, 1, attr_id=1)),
        ('cm-send', False, 1, 0x01, mad(1, 0x07, 2, 3)),
        ('getresp-user-rmpp', False, 1, 0x0c,
         mad(1, 0x03, 2, 0x81, rmpp=(1, 1, 0x04, 0, 1, 0))),
        ('sa-rmpp-seg', False, 1, 0x02,
         mad(1, 0x03, 2, 0x12, rmpp=(1, 1, 0x06, 0, 1, 200))),
        ('opa-get', True, 1, 0x01, mad(0x80, 0x04, 0x80, 1, 300)),
        ('opa-get-unclaimed', True, 1, 0x00, mad(0x80, 0x04, 0x80, 1, 300)),
    ]
    for name, opa, qpn, m in bad:
        write('fuzz_mad_recv', name, bytes([opa, 0x05 | qpn << 5]) + m)
    for name, opa, qpn, pick, m in good:
        write('fuzz_mad_recv', name, bytes([opa, pick | qpn << 5]) + m)
    grh = struct.pack('!IHBB16s16s', 6 << 28, 256, 0x1b, 64, V6_A, V6_B)
    write('fuzz_mad_recv', 'perf-set-grh-unclaimed',
          bytes([0x40, 1 << 5]) + grh + mad(1, 0x04, 1, 2))


# ---- mad_rmpp_wire_test.c, mad_rmpp_util.h ----
RT_CLASS, RT_SET, RT_PAYLOAD = 0x03, 0x02, 220
R_ACTIVE, R_FIRST, R_LAST = 1, 2, 4
R_DATA, R_ACK, R_STOP, R_ABORT = 1, 2, 3, 4


def rmpp_step(seg, flags, paylen, rtype=R_DATA, status=0, version=1,
              method=RT_SET, tid=0x777700000009, sender=0, grh=False):
    hdr = struct.pack('!BBBBHHQHHI', 1, RT_CLASS, 2, method, 0, 0, tid,
                      0x10, 0, 0)
    hdr += struct.pack('!BBBBII', version, rtype, 0xf8 | flags, status, seg,
                       paylen)
    return bytes([sender << 3 | (4 if grh else 0)]) + hdr


def rmpp_seeds():
    total = 3 * RT_PAYLOAD - 100
    last = total - 2 * RT_PAYLOAD

    def seg(n, **kw):
        if n == 1:
            return rmpp_step(1, R_ACTIVE | R_FIRST, total, **kw)
        if n == 3:
            return rmpp_step(3, R_ACTIVE | R_LAST, last, **kw)
        return rmpp_step(n, R_ACTIVE, 0, **kw)

    ctl, pick = bytes([0x00, 0x0a])  # kernel-RMPP agent for both
    wait = bytes([0x07])             # a request waits
    time = lambda s: bytes([s << 2 | 1])
    env = lambda bits: bytes([2, bits])
    seeds = {
        'in-order': seg(1) + seg(2) + seg(3),
        'reordered-dup': seg(1) + seg(3) + seg(2) + seg(2) + seg(3),
        'two-senders': seg(1) + seg(1, sender=2, grh=True) + seg(2) +
        seg(2, sender=2, grh=True) + seg(3, sender=2, grh=True) + seg(3),
        'timed-out': seg(1) + seg(2) + time(45),
        'response': wait + seg(1, method=0x82) + seg(2, method=0x82) +
        seg(3, method=0x82),
        'unsolicited-response': seg(1, method=0x82),
        'abort-mid': seg(1) + rmpp_step(1, R_ACTIVE, 0, rtype=R_ABORT,
                                        status=118),
        'stop-mid': seg(1) + rmpp_step(1, R_ACTIVE, 0, rtype=R_STOP,
                                       status=1),
        'ack-turnaround': seg(1) + seg(2) + seg(3) +
        rmpp_step(3, R_ACTIVE, 64, rtype=R_ACK),
        'no-memory-mid': seg(1) + env(0x40) + seg(2) + seg(3),
        'ah-later': env(0x20) + seg(1) + seg(2) + seg(3),
        'opa-port': env(0x01) + seg(1) + seg(2),
        'bad-seg1-no-first': rmpp_step(1, R_ACTIVE, 560),
        'bad-first-on-2': rmpp_step(2, R_ACTIVE | R_FIRST, 560),
        'bad-seg-0': rmpp_step(0, R_ACTIVE | R_FIRST, 560),
        'bad-past-end': seg(1) + rmpp_step(5, R_ACTIVE, 0),
        'bad-paylen-0': rmpp_step(1, R_ACTIVE | R_FIRST, 0),
        'bad-last-paylen': seg(1) + rmpp_step(3, R_ACTIVE | R_LAST, 200),
        'bad-last-middle': seg(1) + rmpp_step(2, R_ACTIVE | R_LAST, 120),
        'bad-one-seg-long': rmpp_step(1, R_ACTIVE | R_FIRST | R_LAST, 300),
        'bad-version-2': rmpp_step(1, R_ACTIVE | R_FIRST, 560, version=2),
        'bad-type-5': rmpp_step(1, R_ACTIVE | R_FIRST, 560, rtype=5),
        'bad-data-status': rmpp_step(1, R_ACTIVE | R_FIRST, 560, status=5),
    }
    # The limits octet: 0, the module parameters' defaults; the last
    # seeds set a window of 1 and one reassembly per port and sender with
    # small byte budgets.
    small = {
        'small-limits-two-senders': seeds['two-senders'],
        'small-limits-in-order': seeds['in-order'],
    }
    for name, steps in seeds.items():
        write('fuzz_rmpp_recv', name, bytes([ctl, pick, 0]) + steps)
    for name, steps in small.items():
        write('fuzz_rmpp_recv', name, bytes([ctl, pick, 0x55]) + steps)


# ---- rnic_uverbs_test.c ----
# siw-abi.h (host byte order): struct siw_sqe is id, flags, num_sge,
# opcode, rkey, raddr, then 6 struct siw_sge (laddr, length, lkey);
# struct siw_rqe has a 32-bit unused word where the SQE has rkey and no
# raddr.
SIW_VALID, SIW_INLINE, SIW_SIGNALLED, SIW_SOLICITED, SIW_FENCE = 1, 2, 4, 8, 16
(SIW_WRITE, SIW_READ, SIW_READ_LOCAL_INV, SIW_SEND, SIW_SEND_IMM,
 SIW_SEND_INV) = range(6)
SIW_MAX_SGE, SIW_MAX_INLINE = 6, 80


def siw_sges(sges):
    sges = list(sges) + [(0, 0, 0)] * (SIW_MAX_SGE - len(sges))
    return b''.join(struct.pack('<QII', *g) for g in sges)


def sqe(ident=0xabcdef, flags=SIW_VALID | SIW_SIGNALLED, num_sge=1,
        opcode=SIW_WRITE, rkey=0x4200, raddr=0x10000,
        sges=((0x2000, 100, 0x300),), body=None):
    hdr = struct.pack('<QHBBIQ', ident, flags, num_sge, opcode, rkey, raddr)
    return hdr + (body if body is not None else siw_sges(sges))


def rqe(ident=77, flags=SIW_VALID, num_sge=2,
        sges=((0, 0, 0), (0x9000, 64, 0x500))):
    return struct.pack('<QHBBI', ident, flags, num_sge, 0, 0) + \
        siw_sges(sges)


def uverbs_ctl(rq, slots, max_sge=SIW_MAX_SGE, head=0, inflight=0):
    sz = slots.bit_length()
    return bytes([(1 if rq else 0) | sz << 1, max_sge, head, inflight])


def uverbs_seeds():
    inl = bytes(i ^ 0x5a for i in range(SIW_MAX_INLINE))
    big = siw_sges([(0x2000, 0xffffffff, 0x300)] * SIW_MAX_SGE)

    def inline(n, op=SIW_SEND):
        return sqe(flags=SIW_VALID | SIW_SIGNALLED | SIW_INLINE, num_sge=9,
                   opcode=op, body=struct.pack('<QII', 0, n, 0) + inl +
                   bytes(16 * SIW_MAX_SGE - 16 - SIW_MAX_INLINE))
    one = [
        ('sqe-write', sqe()),
        ('sqe-write-se-fence',
         sqe(flags=SIW_VALID | SIW_SIGNALLED | SIW_SOLICITED | SIW_FENCE)),
        ('sqe-read', sqe(opcode=SIW_READ)),
        ('sqe-send', sqe(opcode=SIW_SEND)),
        ('sqe-send-inv', sqe(opcode=SIW_SEND_INV, rkey=0x7711)),
        ('sqe-read-local-inv', sqe(opcode=SIW_READ_LOCAL_INV)),
        ('sqe-send-imm', sqe(opcode=SIW_SEND_IMM)),
        ('sqe-opcode-255', sqe(opcode=255)),
        ('sqe-7-sges', sqe(num_sge=SIW_MAX_SGE + 1)),
        ('sqe-255-sges', sqe(num_sge=255)),
        ('sqe-inline-80', inline(SIW_MAX_INLINE)),
        ('sqe-inline-81', inline(SIW_MAX_INLINE + 1)),
        ('sqe-inline-read', inline(8, SIW_READ)),
        ('sqe-len-overflow', sqe(num_sge=SIW_MAX_SGE, body=big)),
        ('sqe-not-valid', sqe(flags=SIW_SIGNALLED | SIW_INLINE)),
    ]
    for name, e in one:
        write('fuzz_uverbs', name, uverbs_ctl(False, 1) + e)
    write('fuzz_uverbs', 'sqe-3-sges-qp-2',
          uverbs_ctl(False, 1, max_sge=2) + sqe(num_sge=3))
    write('fuzz_uverbs', 'rqe-2-sges', uverbs_ctl(True, 1) + rqe())
    write('fuzz_uverbs', 'rqe-7-sges',
          uverbs_ctl(True, 1) + rqe(num_sge=SIW_MAX_SGE + 1))
    write('fuzz_uverbs', 'rqe-2-sges-qp-1',
          uverbs_ctl(True, 1, max_sge=1) + rqe())
    # the fetch loop: a ring of 4 the process filled, the counts wrapping
    ring = b''.join(sqe(ident=i) for i in range(4))
    write('fuzz_uverbs', 'sq-ring-4', uverbs_ctl(False, 4, head=62) + ring)
    write('fuzz_uverbs', 'sq-ring-4-full',
          uverbs_ctl(False, 4, inflight=4) + ring)
    write('fuzz_uverbs', 'sq-ring-4-room-2',
          uverbs_ctl(False, 4, head=63, inflight=2) + ring)
    write('fuzz_uverbs', 'rq-ring-4', uverbs_ctl(True, 4, head=61) +
          b''.join(rqe(ident=i) for i in range(4)))


def main():
    tcp_seeds()
    mpa_seeds()
    ddp_seeds()
    mad_seeds()
    rmpp_seeds()
    uverbs_seeds()
    return 0


if __name__ == '__main__':
    sys.exit(main())
