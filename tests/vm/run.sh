#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vmtest / make run: build madcm.ko against the cached stock Debian
# headers, pack it with the test scripts into an initramfs, boot the stock
# kernel in QEMU (TCG, no KVM), report each script and any kernel report.
#
# Usage: tests/vm/run.sh [--run] [SCRIPT...]
#   default: every tests/vm/[0-9]*.sh as a test; "vmtest: N passed, M failed"
#   (", K skipped" added when a script skipped itself: not a pass).
#   --run:   tests/vm/demo/*.sh, output shown as is (make run).
# Environment: VMTEST (space-separated script names to run), VM_TIMEOUT
# (seconds for the whole boot, default 1500), MADCM_CACHE, MADCM_KERNEL
# (the stock kernel line: 6.1, the default, or 6.12), MADCM_VM_DIR
# (this run's initramfs, log, programs and captures; default
# $MADCM_CACHE/vm, vm-6.12 for 6.12: give each concurrent run its own),
# MADCM_VM_KERNEL_DIR
# (boot a custom test kernel's build tree instead of the stock kernel, as
# tests/vm/run-siw.sh does), MADCM_VM_LAYER (the closing line's name),
# MADCM_VM_APPEND (added to the kernel command line: a NAME=VALUE there
# that the kernel does not know reaches the scripts' environment, as
# RDMACM_DEV=siw does for tests/vm/siw/*rdmacm-ulp*), MADCM_VM_QEMU_ARGS
# (more QEMU arguments, split on blanks, as tests/vm/run-dkms.sh gives),
# MADCM_VM_MEM (the guest's memory in MiB, default 2048),
# MADCM_VM_EXTRA_KOS (more modules for the initramfs, space-separated, as
# run-siw.sh gives siw.ko), MADCM_VM_SRC_COPY (build madcm in a copy of
# the sources under MADCM_VM_DIR even on the 6.1 stock kernel).
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

mode=test
if [ "${1:-}" = --run ]; then mode=run; shift; fi

"$MADCM_ROOT/scripts/deps.sh" build vm
load_kernel_env
vmdir=${MADCM_VM_DIR:-$(vm_dir_default)}
mkdir -p "$vmdir"

cd "$MADCM_ROOT"
kdir=$STOCK_KDIR kernel=$STOCK_VMLINUZ src=$MADCM_ROOT
layer=vmtest
[ "$KERNEL_LINE" = 6.1 ] || layer=vmtest-$KERNEL_LINE
layer=${MADCM_VM_LAYER:-$layer}
if [ -n "${MADCM_VM_KERNEL_DIR:-}" ] || [ "$KERNEL_LINE" != 6.1 ] ||
   [ -n "${MADCM_VM_SRC_COPY:-}" ]; then
	# A custom kernel (everything the scripts need is built in), a
	# stock kernel of another line, or a run beside another that builds
	# in the work tree (MADCM_VM_SRC_COPY, make test's second lane):
	# madcm is built from a copy, apart from the work tree's objects,
	# which are the default line's.
	if [ -n "${MADCM_VM_KERNEL_DIR:-}" ]; then
		kdir=$MADCM_VM_KERNEL_DIR kernel=$MADCM_VM_KERNEL_DIR/arch/x86/boot/bzImage
		KVER=$(cat "$kdir/include/config/kernel.release")
	fi
	# The sources only (git's view), never the stock build's objects.
	src=$vmdir/src
	mkdir -p "$src"
	copy_tree "$MADCM_ROOT" "$src"
fi
say "building madcm.ko against $KVER"
make -j"$(nproc)" -s -C "$src" KDIR="$kdir" CONFIG_DEBUG_INFO_BTF_MODULES= >"$vmdir/build.log" 2>&1 ||
	{ cat "$vmdir/build.log" >&2; die "module build failed"; }
# Userspace test programs (peers nobody here wrote the CM for).
bindir=$vmdir/bin
mkdir -p "$bindir"
for c in tests/vm/*.c; do
	[ -e "$c" ] || continue
	# A program names the libraries it needs in an "LDLIBS:" comment line.
	libs=$(sed -n 's/^ \* LDLIBS: //p' "$c")
	gcc -O2 -Wall -Wextra -Werror -o "$bindir/$(basename "$c" .c)" "$c" $libs ||
		die "building $c failed"
done
export MADCM_VM_BINDIR=$bindir

kos=("$src/madcm.ko")
# The sample, the test fabric, tools and helpers: every other module built.
for k in "$src"/samples/*.ko "$src"/tests/*/*.ko; do
	[ -e "$k" ] || continue
	# The stand-in siw.ko of tests/tools (VM 60) would shadow the real
	# one of a custom kernel's modules.
	[ -n "${MADCM_VM_KERNEL_DIR:-}" ] && [ "${k##*/}" = siw.ko ] && continue
	kos+=("$k")
done
# Modules of other projects built for this kernel (run-siw.sh's siw.ko).
for k in ${MADCM_VM_EXTRA_KOS:-}; do kos+=("$k"); done

scripts=("$@")
if [ ${#scripts[@]} -eq 0 ]; then
	if [ $mode = run ]; then
		scripts=(tests/vm/demo/*.sh)
	elif [ -n "${VMTEST:-}" ]; then
		for s in $VMTEST; do scripts+=("tests/vm/${s##*/}"); done
	else
		scripts=(tests/vm/[0-9]*.sh)
	fi
fi

initrd=$vmdir/initramfs-$mode.cpio.gz
log=$vmdir/$mode.log
MADCM_VM_KVER=$KVER tests/vm/mkinitramfs.sh "$initrd" "$mode" "${scripts[@]}" -- "${kos[@]}"

say "booting $KVER in QEMU (TCG); log: $log"
read -r -a qemu_extra <<<"${MADCM_VM_QEMU_ARGS:-}"
# boot: one QEMU run into $log; its exit status in $qrc. A guest whose
# init has not spoken ("VM: Linux ...") MADCM_VM_BOOT_LIMIT seconds
# (default 240; the stock kernel takes about 5) after QEMU started is
# stopped: its kernel never got to user space, where madcm is loaded.
boot() {
	local pid i=0 limit=${MADCM_VM_BOOT_LIMIT:-240}

	booted=1
	: >"$log"
	rm -f "$log.cpus"
	timeout --foreground -k 10 "${VM_TIMEOUT:-1500}" \
		qemu-system-x86_64 -machine pc -cpu max -smp 2 -m "${MADCM_VM_MEM:-2048}" \
		-nographic -no-reboot -nodefaults -serial stdio \
		-monitor "unix:$vmdir/monitor.sock,server=on,wait=off" \
		-kernel "$kernel" -initrd "$initrd" "${qemu_extra[@]}" \
		-append "console=ttyS0 $VM_KERNEL_DIAG panic=-1 oops=panic panic_on_warn=0 rdinit=/init${MADCM_VM_APPEND:+ $MADCM_VM_APPEND}" \
		</dev/null >"$log" 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null && ! grep -aq 'VM: Linux' "$log"; do
		if [ $i -ge "$limit" ]; then
			booted=0
			qemu_cpus "$vmdir/monitor.sock" "$kernel" "$log.cpus"
			pkill -TERM -P $pid
			break
		fi
		sleep 1
		i=$((i + 1))
	done
	wait $pid
	qrc=$?
	grep -aq 'VM: Linux' "$log" || booted=0
}
set +e
boot
if [ $booted -eq 0 ] && { [ $mode = run ] || [ "${MADCM_VM_RETRY:-0}" -gt 0 ]; }; then
	# A boot that never reached init, seen once under TCG (2026-12-03):
	# the kernel spun after decompression. Once more, and said.
	cp "$log" "$log.noboot"
	say "FLAKY: $layer: the guest did not reach its init within ${MADCM_VM_BOOT_LIMIT:-240} s (qemu exit $qrc; log: $log.noboot, its vCPUs: $log.cpus); booting again"
	boot
fi
set -e
tr -d '\r' <"$log" >"$log.txt"

if [ $mode = run ]; then
	sed -n '/^=== VMTEST START/,/^=== VMTEST DONE/p' "$log.txt" |
		grep -v '^=== VMTEST DONE' | sed 's/^=== VMTEST START /\n### /'
	grep -q '^=== VMTEST DONE' "$log.txt" || die "the VM did not finish (qemu exit $qrc)"
	exit 0
fi

passed=$(grep -c '^=== VMTEST PASS' "$log.txt" || true)
failed=$(grep -c '^=== VMTEST FAIL' "$log.txt" || true)
skipped=$(grep -c '^=== VMTEST SKIP' "$log.txt" || true)
grep '^=== VMTEST \(PASS\|FAIL\|SKIP\)' "$log.txt" | sed 's/^=== VMTEST //' || true

# Captures the scripts printed go to tshark, on the host.
capdir=$vmdir/captures
rm -rf "$capdir"
mkdir -p "$capdir"
# Only the hex lines of a block: a kernel message the console prints in
# the middle of one (warnings reach it, VM_KERNEL_DIAG) is not capture.
for cap in $(sed -n 's/^=== PCAP \([a-z0-9-]*\)$/\1/p' "$log.txt"); do
	awk -v n="$cap" '$0 == "=== PCAP " n { f = 1; next } /^=== PCAP END/ { f = 0 } f && /^[0-9a-f]*\r?$/' \
		"$log.txt" | tr -d '\n' | xxd -r -p >"$capdir/$cap.pcap"
	# A capture may have its own judge, tests/vm/lib/check-NAME.sh.
	judge=tests/vm/lib/check-capture.sh
	[ -x "tests/vm/lib/check-$cap.sh" ] && judge=tests/vm/lib/check-$cap.sh
	"$judge" "$capdir/$cap.pcap" "$cap" >"$capdir/$cap.result"
	cat "$capdir/$cap.result"
	passed=$((passed + $(grep -c '^PASS' "$capdir/$cap.result" || true)))
	failed=$((failed + $(grep -c '^FAIL' "$capdir/$cap.result" || true)))
done
if grep -q '^=== VMTEST FAIL' "$log.txt"; then
	say "output of the failed scripts:"
	awk '/^=== VMTEST START/ { buf = ""; name = $4 }
	     { buf = buf "\n" $0 }
	     /^=== VMTEST FAIL/ { print buf }' "$log.txt" | tail -150 >&2
	# The failed checks again, last, for a reader of only the end.
	awk '/^=== VMTEST START/ { name = $4 } /^FAIL: / { print "[madcm] " name ": " $0 }' \
		"$log.txt" >&2
fi
if ! grep -q '^=== VMTEST DONE' "$log.txt"; then
	say "FAIL: the VM did not finish (qemu exit $qrc); last lines:"
	tail -30 "$log.txt" >&2
	failed=$((failed + 1))
fi
# The scripts a boot that ended early never reported, by name, as the
# others are (make soak's table counts them from these lines).
for s in "${scripts[@]}"; do
	n=${s##*/}
	grep -q "^=== VMTEST \(PASS\|FAIL\|SKIP\) $n\( \|\$\)" "$log.txt" ||
		echo "FAIL $n (no result: the boot ended before it reported)"
done
# A skip is neither a pass nor a failure, but the script did run.
ran=$((passed + failed + skipped))
if [ "$ran" -lt "${#scripts[@]}" ]; then
	failed=$((failed + ${#scripts[@]} - ran))
fi
# MADCM_VM_RETRY (make test sets 1): the scripts that failed, did not
# report, or printed a capture its judge failed, once more in a boot of
# their own. A script that passes there is reported FLAKY, with its first
# failure kept in this run's log; one that fails again fails the layer
# with its first boot's counts. A boot whose log holds a kernel report (a
# script's, or a panic) is never tried again: such a failure stands.
if [ "$failed" -gt 0 ] && [ "${MADCM_VM_RETRY:-0}" -gt 0 ] &&
   kernel_reported "$log.txt"; then
	say "a kernel report in the log: its failures stand, none is tried again"
elif [ "$failed" -gt 0 ] && [ "${MADCM_VM_RETRY:-0}" -gt 0 ]; then
	again=() notrun=0
	for s in "${scripts[@]}"; do
		n=${s##*/}
		grep -q "^=== VMTEST FAIL $n (not run)\$" "$log.txt" && notrun=$((notrun + 1))
		if grep -q "^=== VMTEST PASS $n\$" "$log.txt" ||
		   grep -q "^=== VMTEST SKIP $n\$" "$log.txt"; then
			for cap in $(awk -v n="$n" '$0 == "=== VMTEST START " n { f = 1; next }
			     /^=== VMTEST (PASS|FAIL|SKIP) / { f = 0 }
			     f && /^=== PCAP [a-z0-9-]+$/ { print $3 }' "$log.txt"); do
				grep -q '^FAIL' "$capdir/$cap.result" 2>/dev/null &&
					[[ " ${again[*]} " != *" $s "* ]] && again+=("$s")
			done
		else
			again+=("$s")
		fi
	done
	# A script not run (one before it ran out of its time, lib/init) is
	# not a failure of its own: it does not count against the maximum.
	max=$((${MADCM_VM_RETRY_MAX:-8} + notrun)) t=${MADCM_VM_RETRY_TIMEOUT:-900}
	# the emulator's fault ended the boot: every script it took, again
	[ "${MADCM_TCG_FAULT:-0}" != 1 ] || max=${#again[@]} t=${VM_TIMEOUT:-1500}
	if [ ${#again[@]} -gt 0 ] && [ ${#again[@]} -le "$max" ]; then
		say "retrying in a boot of their own: ${again[*]##*/}"
		if MADCM_VM_RETRY=0 MADCM_VM_DIR=$vmdir/retry MADCM_VM_LAYER=$layer-retry \
		   VM_TIMEOUT=$t \
		   "$MADCM_ROOT/tests/vm/run.sh" "${again[@]}" >"$vmdir/retry.out" 2>&1; then
			for s in "${again[@]}"; do
				say "FLAKY: $layer ${s##*/} failed, then passed in a boot of its own"
			done
			grep -aE '^(PASS|FAIL|SKIP)' "$vmdir/retry.out" | sed 's/^/retry: /'
			passed=$((passed + failed)) failed=0
		else
			say "the retry failed too:"
			tail -40 "$vmdir/retry.out" >&2
		fi
	fi
fi
if [ "$skipped" -gt 0 ]; then
	grep '^SKIP: ' "$log.txt" | sed 's/^/[madcm] /' >&2
	echo "$layer: $passed passed, $failed failed, $skipped skipped"
else
	echo "$layer: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
