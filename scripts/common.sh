# SPDX-License-Identifier: GPL-2.0
# Shared settings for madcm's scripts. Source it; do not run it.

MADCM_CACHE=${MADCM_CACHE:-$HOME/.cache/madcm}
MADCM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export MADCM_CACHE MADCM_ROOT

say() { printf '[madcm] %s\n' "$*" >&2; }
die() { printf '[madcm] error: %s\n' "$*" >&2; exit 1; }

# Run a step once: "$MADCM_CACHE/.stamp-NAME" records its completion, so an
# interrupted step is simply redone next time.
stamp_done() { [ -e "$MADCM_CACHE/.stamp-$1" ]; }
stamp_set() { touch "$MADCM_CACHE/.stamp-$1"; }

# Copy the module's kernel sources into a kernel tree directory (a copy, not
# a symlink: objects of an out-of-tree build in the work tree must never be
# found through the kernel build's VPATH).
#
# Files are compared by content and a changed file gets the current time,
# not its source's: trees of different ages (a work tree, a fresh clone)
# take turns in the same build directory, and an older mtime would leave
# an object built from the other tree's version looking up to date.
sync_sources() {
	rsync -r --links --checksum --delete --prune-empty-dirs \
		--exclude='*.mod.c' --exclude='/tests/vm/' --exclude='/.git/' \
		--include='*/' --include='*.[ch]' --include=Kbuild --include=Kconfig \
		--exclude='*' "$MADCM_ROOT/" "$1/"
}

# copy_tree SRC DEST: git's view of the work tree SRC (tracked and
# untracked files, not ignored ones) into DEST, for a build there (the
# 6.12 line's objects, a VM's module). As in sync_sources, files are
# compared by content and a changed one gets the current time: with its
# source's time kept (rsync -a), a clone's iw.c older than the iw.o that
# another tree's version left in DEST looks up to date to make, and the
# module is built with the other tree's code.
copy_tree() {
	(cd "$1" && git ls-files -co --exclude-standard) |
		rsync --links --perms --checksum --files-from=- "$1/" "$2/"
}

# The kernel line the scripts work on: MADCM_KERNEL (or make's KERNEL=),
# "6.1" (the default) or "6.12".
kernel_line() {
	local l=${MADCM_KERNEL:-6.1}
	case $l in
	6.1|6.12) echo "$l" ;;
	*) die "unknown kernel line '$l' (supported: 6.1, 6.12)" ;;
	esac
}

# The env file fetch-kernel.sh writes for a line (default: this run's).
# 6.1 keeps the historical name, so caches made before 6.12 stay valid.
kernel_env_file() {
	local l=${1:-$(kernel_line)}
	if [ "$l" = 6.1 ]; then
		echo "$MADCM_CACHE/kernel.env"
	else
		echo "$MADCM_CACHE/kernel-$l.env"
	fi
}

# The VM scripts' default work directory for this run's kernel line.
vm_dir_default() {
	local l
	l=$(kernel_line)
	if [ "$l" = 6.1 ]; then
		echo "$MADCM_CACHE/vm"
	else
		echo "$MADCM_CACHE/vm-$l"
	fi
}

# Fetch (when needed) and source the env of this run's kernel line.
load_kernel_env() {
	"$MADCM_ROOT/scripts/fetch-kernel.sh" >&2
	. "$(kernel_env_file)"
	# An env file written before there were two lines names none.
	KERNEL_LINE=${KERNEL_LINE:-$(kernel_line)}
}

# The kernel command line's console and watchdog part, for every guest
# (run.sh, run2.sh). The console prints warnings (loglevel 5), so that a
# report printed while a script hangs reaches the log before the VM's
# limit (the guest's init prints the rest of dmesg after each script):
# an RCU stall's or a soft lockup's backtraces, at their default level,
# are warnings. A soft lockup (a CPU that did not schedule for 20 s)
# prints every CPU's backtrace and panics: the boot ends at once with its
# report (a kernel report: its failures stand, none is tried again), and
# a hang costs a minute instead of the VM's whole limit. A 37-cm-trace.sh
# hang on 2026-12-05 showed only the lockup's first line, for 25 minutes.
# The early console (the decompressor's and the kernel's messages before
# the serial console is up) shows how far a boot that never reaches
# init got: the KASAN kernel's boots that stall showed nothing after
# SeaBIOS's "Booting from ROM". nokaslr: the kernel text where its
# System.map says, so that the vCPUs' RIPs of such a boot, read from
# QEMU's monitor (qemu_cpus below), name functions. unknown_nmi_panic=1
# and panic_print=0x9 (every task's stack, every lock held): the NMI
# qemu_cpus sends such a boot makes its kernel say what each task waits
# for (the KASAN kernel's early stall was found so, testing.rst), and
# any other panic says it too. no_timer_check: at boot the kernel checks
# that the 8254's ticks reach it through the IO-APIC by waiting a number
# of TSC cycles for four jiffies (io_apic.c, timer_irq_works()); a TCG
# guest on a loaded host can miss them in that window, and a stock 6.1
# guest of pair/22 panicked so at 0.04 s under a load of 12 ("IO-APIC +
# timer doesn't work!", 2026-12-06). QEMU's PIT is wired: the check
# tells nothing here.
VM_KERNEL_DIAG="loglevel=5 softlockup_all_cpu_backtrace=1 softlockup_panic=1 earlyprintk=serial,ttyS0,115200 nokaslr unknown_nmi_panic=1 panic_print=0x9 no_timer_check"

# qemu_cpus SOCKET KERNEL OUT: where the vCPUs of the guest whose QEMU
# monitor is SOCKET are (tests/vm/lib/qemu-cpus.py), into OUT, with RIPs
# named from the System.map beside KERNEL (a stock vmlinuz's, or a built
# tree's bzImage); then an NMI, whose panic report the guest prints to its
# log within QEMU_NMI_WAIT seconds (default 20), waited for here. For a
# guest that did not reach its init in time.
qemu_cpus() {
	local map
	case $2 in
	*/arch/x86/boot/bzImage) map=${2%/arch/x86/boot/bzImage}/System.map ;;
	*) map=$(dirname "$2")/System.map-$(basename "$2" | sed 's/^vmlinuz-//') ;;
	esac
	[ -e "$map" ] || map=
	python3 "$MADCM_ROOT/tests/vm/lib/qemu-cpus.py" --nmi "$1" $map >"$3" 2>&1 || true
	grep '^qemu-cpus: ' "$3" >&2 || true
	sleep "${QEMU_NMI_WAIT:-20}"
}

# kernel_reported LOG...: a guest's log holds a kernel report (run.sh and
# run2.sh: such a boot's failures are never tried again). A report that
# only shows the emulator's own fault (tests/vm/lib/tcg-fault.sh: RFLAGS
# with reserved bits set, or a vCPU looping on a stale int3) does not
# count; it is said. Nor does the Call
# Trace of an OOM killer's or an allocation failure's report, which a
# memory limit test provokes on purpose and judges itself (65-rnic-memcg:
# "every Call Trace is an OOM or allocation failure report"); a BUG,
# WARNING or panic in the same log still counts. When the emulator's
# fault is all there is, MADCM_TCG_FAULT is set to 1: such a fault ends
# the boot, not a script, so every script it took is tried again (no
# MADCM_VM_RETRY_MAX).
kernel_reported() {
	awk '
		/^VM: .*: kernel report in the log|Kernel panic|BUG: / { r = 1 }
		/cut here|WARNING: |BUG: / { oom = 0 }
		/invoked oom-killer|vmalloc error|page allocation failure/ { oom = 1 }
		/Call Trace/ { if (oom) oom = 0; else r = 1 }
		END { exit !r }' "$@" || return 1
	if "$MADCM_ROOT/tests/vm/lib/tcg-fault.sh" "$@" >"${TMPDIR:-/tmp}/tcg-fault.$$"; then
		say "every kernel report is the emulator's (RFLAGS with reserved bits set, or a vCPU looping on a stale int3: tests/vm/lib/tcg-fault.sh):"
		MADCM_TCG_FAULT=1
		sed 's/^/  /' "${TMPDIR:-/tmp}/tcg-fault.$$"
		rm -f "${TMPDIR:-/tmp}/tcg-fault.$$"
		return 1
	fi
	rm -f "${TMPDIR:-/tmp}/tcg-fault.$$"
	return 0
}
