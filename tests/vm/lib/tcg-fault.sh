#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tcg-fault.sh LOG...: exit 0 when every kernel report in the guest logs
# is a register dump whose RFLAGS has reserved bits set, and print each
# such dump's RIP and EFLAGS lines; exit 1 when any report is something
# else, or when there is none.
#
# Bits 22 to 31 of RFLAGS are reserved: an x86 CPU never sets them, and
# the kernel cannot (POPF and IRET ignore them). A dump that shows them
# set comes from the emulator's own state, not from the guest: QEMU's TCG
# computes the arithmetic flags lazily, from the last flag-setting
# operation it recorded and its operands, and once that record is wrong
# the flags pushed on an interrupt are a register's bits. Documentation/
# testing.rst ("Recorded failures") holds the case that made this check:
# EFLAGS bf08cb02 in kmem_cache_alloc_node_noprof() on 6.12, the low half
# of RDI (ff3e6aa2bf08cb00) with bit 1, and TF among them, so a #DB.
#
# run.sh and run2.sh let such a boot's failures be tried again (a kernel
# report otherwise forbids it), and say why.
awk '
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
	/Call Trace|Kernel panic|BUG: / {
		reports++
		if (!bad)
			other++
		next
	}
	/---\[ end trace/ { bad = 0 }
	FNR == 1 { bad = 0 }
	END { exit !(reports > 0 && other == 0) }
' "$@"
