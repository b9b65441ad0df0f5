#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where a guest's vCPUs are: ask QEMU's monitor (HMP on a unix socket)
for "info cpus", "info registers -a", the first two vCPUs' "info lapic"
and "info pic", print them, then each vCPU's RIP named from the guest
kernel's System.map (the guests boot with nokaslr).

usage: qemu-cpus.py [--nmi] SOCKET [SYSTEM.MAP]

--nmi: after the dump, send the guest an NMI. The guests boot with
unknown_nmi_panic=1 panic_print=0x9, so their kernel panics and prints
every task's stack and every lock held: the caller waits a little for
that to reach the log before it stops the guest.

run.sh and run2.sh call it for a guest that did not reach its init in
time, before they stop it (Documentation/testing.rst, "Failures that do
not repeat"); it never fails the caller.
"""
import bisect
import re
import socket
import sys
import time


def ask(path, commands):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(path)
    s.settimeout(1)
    out = b""

    # what the monitor says until it is quiet for a second (10 s at most)
    def drain():
        nonlocal out
        end = time.time() + 10
        while time.time() < end:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                return
            if not chunk:
                return
            out += chunk

    drain()
    for c in commands:
        s.sendall(c.encode() + b"\n")
        drain()
    s.close()
    text = out.decode(errors="replace")
    # the monitor echoes with terminal escapes; keep the plain lines
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
    return text.replace("\r", "")


def symbols(path):
    addrs, names = [], []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 3 and p[1] in "tTwW":
                addrs.append(int(p[0], 16))
                names.append(p[2])
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def main():
    args = sys.argv[1:]
    nmi = bool(args) and args[0] == "--nmi"
    if nmi:
        args = args[1:]
    if not args:
        print(__doc__)
        return
    # each vCPU's local APIC (its timer: mode, counts, TSC deadline) and
    # the PIC: a vCPU halted with interrupts on waits for one
    commands = ["info cpus", "info registers -a", "cpu 0", "info lapic",
                "cpu 1", "info lapic", "info pic"]
    if nmi:
        commands.append("nmi")
    try:
        text = ask(args[0], commands)
    except OSError as e:
        print(f"qemu-cpus: no monitor at {args[0]}: {e}")
        return
    print(text)
    if nmi:
        print("qemu-cpus: NMI sent (the guest's panic report follows in its log)")
    if len(args) < 2:
        return
    try:
        addrs, names = symbols(args[1])
    except OSError as e:
        print(f"qemu-cpus: {e}")
        return
    if not addrs:
        # Debian's stock System.map is a one-line placeholder; the
        # symbols are in the -dbg package
        print(f"qemu-cpus: {args[1]} names no text symbol")
        return
    cpu = 0
    for line in text.splitlines():
        m = re.match(r"CPU#(\d+)", line)
        if m:
            cpu = int(m.group(1))
        m = re.match(r"RIP=([0-9a-f]{16})", line)
        if not m:
            continue
        rip = int(m.group(1), 16)
        i = bisect.bisect_right(addrs, rip) - 1
        where = f"{names[i]}+{rip - addrs[i]:#x}" if i >= 0 and rip >= 0xffffffff80000000 else "(not kernel text)"
        print(f"qemu-cpus: CPU#{cpu} RIP {rip:#018x} {where}")


if __name__ == "__main__":
    main()
