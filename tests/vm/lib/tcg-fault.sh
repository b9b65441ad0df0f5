#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tcg-fault.sh LOG...: exit 0 when every kernel report in the guest logs
# is the emulator's own fault, and print what shows it; exit 1 when any
# report is something else, or when there is none. Two faults are known:
#
# 1. A register dump whose RFLAGS has reserved bits set. Bits 22 to 31 of
#    RFLAGS are reserved: an x86 CPU never sets them, and the kernel
#    cannot (POPF and IRET ignore them). A dump that shows them set comes
#    from the emulator's own state, not from the guest: QEMU's TCG
#    computes the arithmetic flags lazily, from the last flag-setting
#    operation it recorded and its operands, and once that record is
#    wrong the flags pushed on an interrupt are a register's bits.
#    Documentation/testing.rst ("Recorded failures") holds the case that
#    made this check: EFLAGS bf08cb02 in kmem_cache_alloc_node_noprof()
#    on 6.12, the low half of RDI (ff3e6aa2bf08cb00) with bit 1, and TF
#    among them, so a #DB.
# 2. A vCPU looping on an int3 that is no longer in memory: an NMI
#    backtrace in the int3 entry (asm_exc_int3) whose interrupted kernel
#    RIP's Code line shows no int3 (cc) at the trap's address, the marked
#    octet or the one before it. The kernel's handler runs such an
#    instruction again (another CPU removed the int3), the emulator runs
#    its stale translation with the int3 again, with interrupts off, so
#    an IPI (text_poke_bp()'s sync) is never answered: the writer's soft
#    lockup and RCU stall, the soft lockup's panic and what the panic
#    prints are then all that fault's (testing.rst, Known failures:
#    37-cm-trace). Any other report in such a log (a WARNING, a BUG other
#    than the soft lockup, an oops) still counts.
#
# run.sh and run2.sh let such a boot's failures be tried again (a kernel
# report otherwise forbids it), and say why.

# stale_int3 LOG: 0 when LOG shows fault 2's signature.
stale_int3() {
	awk '
		# each dump starts with its CPU line and ends with </TASK>
		/NMI backtrace for cpu|CPU: [0-9]+ PID: |<\/TASK>/ { inint3 = 0; want = 0; next }
		/RIP: 0010:asm_exc_int3\+0x0\// || / asm_exc_int3\+0x/ { inint3 = 1; next }
		inint3 && /RIP: 0010:/ { want = 1; rip = $0; next }
		want && /Code: / {
			want = 0
			n = split($0, w, " ")
			for (i = 1; i <= n; i++) {
				if (w[i] !~ /^<[0-9a-f][0-9a-f]>$/)
					continue
				if (w[i] != "<cc>" && w[i - 1] != "cc") {
					print FILENAME ": stale int3 at " rip
					found = 1
				}
				break
			}
		}
		END { exit !found }' "$1"
}

stale=
for f in "$@"; do
	if stale_int3 "$f"; then
		stale="$stale $f"
	fi
done

awk -v stale="$stale" '
	# A report: a trace, a BUG or a panic line. A register dump belongs
	# to the report that follows it (the RIP/EFLAGS lines come first).
	/EFLAGS: [0-9a-f]+/ {
		v = $0
		sub(/.*EFLAGS: /, "", v)
		sub(/[^0-9a-f].*/, "", v)
		sub(/^0+/, "", v)
		if (length(v) > 6 || (length(v) == 6 && substr(v, 1, 1) ~ /[4-9a-f]/)) {
			bad = 1
			print FILENAME ": " rip
			print FILENAME ": " $0
		}
		next
	}
	/RIP: / { rip = $0; next }
	# Fault 2: what the loop makes the kernel print, in a log that shows
	# the loop; anything else ends that context.
	FNR == 1 { bad = 0; lock = 0; st = index(" " stale " ", " " FILENAME " ") > 0 }
	/cut here|WARNING: |Oops|general protection|BUG: / { lock = 0 }
	/rcu: INFO: .*detected stalls|rcu_.* kthread starved|Stack dump where RCU GP kthread|NMI backtrace for cpu|watchdog: BUG: soft lockup|Kernel panic - not syncing: softlockup/ { lock = st }
	/Call Trace|Kernel panic|BUG: / {
		reports++
		if (!bad && !lock)
			other++
		next
	}
	/---\[ end trace/ { bad = 0 }
	END { exit !(reports > 0 && other == 0) }
' "$@"
