#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The two-guest VM layer: two QEMU guests (TCG) on Debian's stock kernel,
# joined by a QEMU socket netdev over host loopback (virtio-net, one UDP
# socket each way), each with an rxe device over its eth0: madcm's MADs
# cross a real wire, where tc netem can drop, duplicate and reorder them.
#
# Every script of tests/vm/pair runs in both guests at once, as role "a"
# (192.0.2.1) or "b" (192.0.2.2), read from the kernel command line
# (madcm_pair=a|b); the scripts meet over the network (tests/vm/lib/pair.sh).
# Each guest reports each script as run.sh's guests do; a script passes
# when it passes in both, and is skipped when both skip it (not a pass).
#
# Each guest's kernel: MADCM_PAIR_KERNEL_A and MADCM_PAIR_KERNEL_B, one of
#   stock  the default: Debian's kernel, madcm.ko and the test modules in
#          the initramfs;
#   siw    the custom test kernel of tests/vm/siw.config (KASAN, KFENCE,
#          lockdep; rxe built in, siw.ko loaded by the scripts), no
#          madcm.ko;
#   kasan  the same kernel with madcm.ko and the test modules, no siw:
#          madcm under KASAN (make test's vmtest-kasan layer);
#   siwko  Debian's 6.1 kernel with siw.ko built out of tree from the same
#          version's linux-source (scripts/build-siw-ko.sh), no madcm.ko:
#          siw on the very kernel madcm runs on, for fair benchmarks.
# A madcm device with the user ABI never shares a kernel with siw, hence
# no madcm.ko beside siw. A guest's scripts find its kernel's name in
# MADCM_PAIR_KERNEL, and the other guest's in MADCM_PAIR_PEER_KERNEL. A pair with a siw guest is named after its kernels
# (vmpair-stock-siw for a stock guest a and a siw guest b).
#
# Usage: tests/vm/run2.sh [--run] [SCRIPT...]
#   --run: tests/vm/demo/pair/*.sh, each guest's output shown as is, one
#          after the other (make run).
# Without SCRIPT, every tests/vm/pair script but those marked "# vmpair:
# opt-in". Environment: VMPAIR (space-separated script names), VM_TIMEOUT (seconds,
# default the sum of the scripts' vm-timeout lines and 120), MADCM_VM_DIR (this run's files; default $MADCM_CACHE/vm),
# MADCM_PAIR_KERNEL_A, MADCM_PAIR_KERNEL_B, MADCM_VM_SRC_COPY and
# MADCM_VM_APPEND (both guests' command line, as in run.sh),
# MADCM_VM_BOOTS (boots in all while a guest never reaches its init,
# with MADCM_VM_RETRY or MADCM_VM_REBOOT=1; default 3),
# MADCM_VM_LAYER (the closing
# line's name). Ends with "vmpair: N passed, M failed" (", K skipped" when
# some were).
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"

mode=test
if [ "${1:-}" = --run ]; then mode=run; shift; fi

"$MADCM_ROOT/scripts/deps.sh" build vm
load_kernel_env
kern_a=${MADCM_PAIR_KERNEL_A:-stock} kern_b=${MADCM_PAIR_KERNEL_B:-stock}
pairname=pair
for k in $kern_a $kern_b; do
	case $k in
	stock|siw|siwko|kasan) ;;
	*) die "MADCM_PAIR_KERNEL_A/B: '$k' is not stock, siw, siwko or kasan" ;;
	esac
done
[ "$kern_a$kern_b" = stockstock ] || pairname=pair-$kern_a-$kern_b
vmdir=${MADCM_VM_DIR:-$(vm_dir_default)}/$pairname
mkdir -p "$vmdir"

cd "$MADCM_ROOT"
src=$MADCM_ROOT
if [ "$KERNEL_LINE" != 6.1 ] || [ -n "${MADCM_VM_SRC_COPY:-}" ]; then
	# Another line's objects, or a run beside another that builds in the
	# work tree (make test's second lane), are built in a copy.
	src=$vmdir/src
	mkdir -p "$src"
	copy_tree "$MADCM_ROOT" "$src"
fi
kos=()
if [ "$kern_a" = stock ] || [ "$kern_b" = stock ]; then
	say "building madcm.ko against $KVER"
	make -j"$(nproc)" -s -C "$src" KDIR="$STOCK_KDIR" CONFIG_DEBUG_INFO_BTF_MODULES= >"$vmdir/build.log" 2>&1 ||
		{ cat "$vmdir/build.log" >&2; die "module build failed"; }
	kos=("$src/madcm.ko")
	for k in "$src"/samples/*.ko "$src"/tests/*/*.ko; do [ -e "$k" ] && kos+=("$k"); done
fi

scripts=("$@")
if [ ${#scripts[@]} -eq 0 ]; then
	if [ $mode = run ]; then
		scripts=(tests/vm/demo/pair/*.sh)
	elif [ -n "${VMPAIR:-}" ]; then
		for s in $VMPAIR; do scripts+=("tests/vm/pair/${s##*/}"); done
	else
		# A script with a line "# vmpair: opt-in" runs only when named
		# (its known failures keep it out of make test).
		for s in tests/vm/pair/[0-9]*.sh; do
			grep -q '^# vmpair: opt-in' "$s" || scripts+=("$s")
		done
	fi
fi
# The boot's time limit: what the scripts may take ("# vm-timeout:",
# else the guest's 600 s), and two minutes to boot and power off.
if [ -z "${VM_TIMEOUT:-}" ]; then
	VM_TIMEOUT=120
	for s in "${scripts[@]}"; do
		t=$(sed -n 's/^# vm-timeout: \([0-9][0-9]*\)$/\1/p' "$s" | head -1)
		VM_TIMEOUT=$((VM_TIMEOUT + ${t:-600}))
	done
fi
initrd_stock=$vmdir/initramfs-$mode.cpio.gz
if [ "$kern_a" = stock ] || [ "$kern_b" = stock ]; then
	tests/vm/mkinitramfs.sh "$initrd_stock" $mode "${scripts[@]}" -- "${kos[@]}"
fi
if [ "$kern_a" = siwko ] || [ "$kern_b" = siwko ]; then
	[ "$KERNEL_LINE" = 6.1 ] || die "siwko: siw.ko is built for the 6.1 line only"
	siw_ko=$(scripts/build-siw-ko.sh) || die "siw.ko did not build"
	initrd_siwko=$vmdir/initramfs-siwko.cpio.gz
	tests/vm/mkinitramfs.sh "$initrd_siwko" $mode "${scripts[@]}" -- "$siw_ko"
fi
case "$kern_a $kern_b" in
*siw*|*kasan*)
	# The KASAN test kernel is built from the 6.1 source; what the
	# scripts need is built in or among its modules.
	siw_kdir=$(MADCM_KERNEL=6.1 scripts/build-test-kernel.sh siw tests/vm/siw.config) ||
		die "the KASAN test kernel did not build"
	siw_vmlinuz=$siw_kdir/arch/x86/boot/bzImage
	siw_kver=$(cat "$siw_kdir/include/config/kernel.release")
	;;
esac
if [ "$kern_a" = siw ] || [ "$kern_b" = siw ]; then
	# madcm stays out of siw's guest.
	initrd_siw=$vmdir/initramfs-siw.cpio.gz
	MADCM_VM_KERNEL_DIR=$siw_kdir MADCM_VM_KVER=$siw_kver \
		tests/vm/mkinitramfs.sh "$initrd_siw" $mode "${scripts[@]}"
fi
if [ "$kern_a" = kasan ] || [ "$kern_b" = kasan ]; then
	# madcm built against the KASAN kernel, in a copy of the sources.
	ksrc=$vmdir/src-kasan
	mkdir -p "$ksrc"
	copy_tree "$MADCM_ROOT" "$ksrc"
	say "building madcm.ko against $siw_kver (KASAN)"
	make -j"$(nproc)" -s -C "$ksrc" KDIR="$siw_kdir" CONFIG_DEBUG_INFO_BTF_MODULES= \
		>"$vmdir/build-kasan.log" 2>&1 ||
		{ cat "$vmdir/build-kasan.log" >&2; die "module build failed"; }
	kkos=("$ksrc/madcm.ko")
	# Not the stand-in siw.ko of tests/tools: the kernel has the real one.
	for k in "$ksrc"/samples/*.ko "$ksrc"/tests/*/*.ko; do
		[ -e "$k" ] && [ "${k##*/}" != siw.ko ] && kkos+=("$k")
	done
	initrd_kasan=$vmdir/initramfs-kasan.cpio.gz
	MADCM_VM_KERNEL_DIR=$siw_kdir MADCM_VM_KVER=$siw_kver \
		tests/vm/mkinitramfs.sh "$initrd_kasan" $mode "${scripts[@]}" -- "${kkos[@]}"
fi

# Two UDP ports on host loopback, one per guest.
# An even base from the PID: pairs running at once (make test's two lanes)
# never share a port.
base=$((20000 + ($$ % 10000) * 2))
port_a=$base port_b=$((base + 1))
guest() {
	local role=$1 kern=$2 mac=$3 lport=$4 rport=$5 kernel=$STOCK_VMLINUZ peer=$kern_a
	[ "$role" = b ] || peer=$kern_b
	local initrd=$initrd_stock mem=1024 smp=1
	# The KASAN kernel: its shadow needs the room, and with one CPU its
	# boot stopped in lockdep's RCU-tasks self-test ("Running RCU-tasks
	# wait API self tests", nothing more in 4 minutes; 2026-12-05).
	case $kern in
	siw) kernel=$siw_vmlinuz initrd=$initrd_siw mem=1536 smp=2 ;;
	kasan) kernel=$siw_vmlinuz initrd=$initrd_kasan mem=1536 smp=2 ;;
	siwko) initrd=$initrd_siwko ;;
	esac
	# for qemu_cpus, should this guest not reach its init
	echo "$kernel" >"$vmdir/$role.kernel"
	timeout --foreground -k 10 "$VM_TIMEOUT" \
		qemu-system-x86_64 -machine pc -cpu max -smp $smp -m $mem \
		-nographic -no-reboot -nodefaults -serial stdio \
		-netdev "socket,id=n0,udp=127.0.0.1:$rport,localaddr=127.0.0.1:$lport" \
		-device "virtio-net-pci,netdev=n0,mac=$mac" \
		-monitor "unix:$vmdir/$role.monitor,server=on,wait=off" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 $VM_KERNEL_DIAG panic=-1 oops=panic rdinit=/init madcm_pair=$role MADCM_PAIR_KERNEL=$kern MADCM_PAIR_PEER_KERNEL=$peer${MADCM_VM_APPEND:+ $MADCM_VM_APPEND}" \
		</dev/null >"$vmdir/$role.log" 2>&1
}
say "booting two guests (TCG), a: $kern_a, b: $kern_b ($KVER for stock), UDP $port_a <-> $port_b; logs: $vmdir/{a,b}.log"
# stop_guest PID: stop a guest's QEMU (PID: its guest() subshell).
stop_guest() {
	local t

	for t in $(pgrep -P "$1"); do
		pkill -TERM -P "$t"
		kill -TERM "$t"
	done 2>/dev/null
}
# pair_boot: both guests, to their end; rc_a, rc_b their QEMU exit
# statuses. A guest whose init has not spoken ("VM: Linux ...")
# MADCM_VM_BOOT_LIMIT seconds (default 240; the stock kernel takes about
# 5) after QEMU started has its kernel stuck before user space, where
# madcm is loaded: both are stopped, and booted=0.
pair_boot() {
	local first rc_first grace i=0 p


	booted=1
	: >"$vmdir/a.log"
	: >"$vmdir/b.log"
	rm -f "$vmdir/a.log.cpus" "$vmdir/b.log.cpus"
	guest a "$kern_a" 52:54:00:12:34:0a $port_a $port_b &
	pid_a=$!
	guest b "$kern_b" 52:54:00:12:34:0b $port_b $port_a &
	pid_b=$!
	while ! { grep -aq 'VM: Linux' "$vmdir/a.log" 2>/dev/null &&
		  grep -aq 'VM: Linux' "$vmdir/b.log" 2>/dev/null; }; do
		if [ $i -ge "$limit" ] ||
		   ! kill -0 $pid_a 2>/dev/null || ! kill -0 $pid_b 2>/dev/null; then
			booted=0
			break
		fi
		sleep 1
		i=$((i + 1))
	done
	if [ $booted -eq 0 ] && [ $i -ge "$limit" ]; then
		# where the vCPUs of a guest stuck before its init are
		for p in a b; do
			grep -aq 'VM: Linux' "$vmdir/$p.log" 2>/dev/null && continue
			qemu_cpus "$vmdir/$p.monitor" "$(cat "$vmdir/$p.kernel")" "$vmdir/$p.log.cpus"
		done
		stop_guest $pid_a
		stop_guest $pid_b
	fi
	booted=1
	# When one guest ends, by its last script or by a panic, the other's
	# remaining barriers can never be met: it gets MADCM_PAIR_GRACE
	# seconds (default 300) to end by itself, then it is stopped, rather
	# than wait out every script's timeout (a panic on 6.12 once left
	# guest a waiting for hours). Its scripts that did not finish count
	# as failures.
	first=
	wait -n -p first $pid_a $pid_b
	rc_first=$?
	grace=${MADCM_PAIR_GRACE:-300}
	i=0
	while { kill -0 $pid_a 2>/dev/null || kill -0 $pid_b 2>/dev/null; } && [ $i -lt "$grace" ]; do
		sleep 1
		i=$((i + 1))
	done
	for p in $pid_a $pid_b; do
		kill -0 $p 2>/dev/null || continue
		say "a guest is still running $grace s after the other ended: stopping it"
		stop_guest $p
	done
	if [ "$first" = $pid_a ]; then
		rc_a=$rc_first
		wait $pid_b
		rc_b=$?
	else
		rc_b=$rc_first
		wait $pid_a
		rc_a=$?
	fi
	for p in a b; do
		grep -aq 'VM: Linux' "$vmdir/$p.log" || booted=0
	done
}
# The KASAN kernel boots slower, two of them at once slower still
# beside another lane (240 s ran out once in make test, 2026-12-05).
limit=${MADCM_VM_BOOT_LIMIT:-240}
for p in $kern_a $kern_b; do
	case $p in
	siw|kasan) limit=${MADCM_VM_BOOT_LIMIT:-600} ;;
	esac
done
set +e
pair_boot
# Seen under TCG (2026-12-03, one guest of run.sh: the kernel spun after
# decompression; 2026-12-06, a KASAN guest of a pair three boots in a row
# on a loaded host, each time before user space, where madcm is loaded):
# both again, and said, up to MADCM_VM_BOOTS boots in all (default 3).
boots=1
while [ $booted -eq 0 ] && [ $boots -lt "${MADCM_VM_BOOTS:-3}" ] &&
      { [ $mode = run ] || [ "${MADCM_VM_RETRY:-0}" -gt 0 ] ||
	[ "${MADCM_VM_REBOOT:-0}" = 1 ]; }; do
	for p in a b; do cp "$vmdir/$p.log" "$vmdir/$p.log.noboot$boots"; done
	for p in a b; do
		[ -e "$vmdir/$p.log.cpus" ] && mv "$vmdir/$p.log.cpus" "$vmdir/$p.log.noboot$boots.cpus"
	done
	say "FLAKY: a guest did not reach its init within $limit s (boot $boots; qemu exit a $rc_a, b $rc_b; logs: $vmdir/{a,b}.log.noboot$boots, their vCPUs: *.cpus); booting both again"
	pair_boot
	boots=$((boots + 1))
done
set -e

passed=0 failed=0 skipped=0
for r in a b; do
	tr -d '\r' <"$vmdir/$r.log" >"$vmdir/$r.log.txt"
done
if [ $mode = run ]; then
	for r in a b; do
		sed -n '/^=== VMTEST START/,/^=== VMTEST DONE/p' "$vmdir/$r.log.txt" |
			grep -v '^=== VMTEST DONE' |
			sed "s/^=== VMTEST START \(.*\)/\n### \1, guest $r/"
	done
	for r in a b; do
		grep -q '^=== VMTEST DONE' "$vmdir/$r.log.txt" ||
			die "guest $r did not finish (qemu exit $([ $r = a ] && echo $rc_a || echo $rc_b))"
	done
	exit 0
fi
for s in "${scripts[@]}"; do
	n=${s##*/} ok=1 skip=1
	for r in a b; do
		grep -q "^=== VMTEST PASS $n\$" "$vmdir/$r.log.txt" || ok=0
		grep -q "^=== VMTEST SKIP $n\$" "$vmdir/$r.log.txt" || skip=0
	done
	if [ $ok -eq 1 ]; then
		echo "PASS $n"
		passed=$((passed + 1))
	elif [ $skip -eq 1 ]; then
		# Both guests skipped it: neither a pass nor a failure.
		echo "SKIP $n"
		skipped=$((skipped + 1))
		awk -v n="$n" '$0 == "=== VMTEST START " n { f = 1 } f && /^SKIP: / { print; exit }' \
			"$vmdir/a.log.txt" | sed 's/^/[madcm] /' >&2
	else
		echo "FAIL $n"
		failed=$((failed + 1))
		for r in a b; do
			say "guest $r, $n:"
			awk -v n="$n" '$0 == "=== VMTEST START " n { f = 1 } f { print } /^=== VMTEST (PASS|FAIL) / { f = 0 }' \
				"$vmdir/$r.log.txt" | tail -80 >&2
		done
		# Both guests' failed checks again, last, where a reader of
		# only the end of the output sees them.
		for r in a b; do
			awk -v n="$n" '$0 == "=== VMTEST START " n { f = 1 } f && /^FAIL: / { print } /^=== VMTEST (PASS|FAIL) / { f = 0 }' \
				"$vmdir/$r.log.txt" | sed "s/^/[madcm] guest $r, $n: /" >&2
		done
	fi
done
for r in a b; do
	if ! grep -q '^=== VMTEST DONE' "$vmdir/$r.log.txt"; then
		say "FAIL: guest $r did not finish (qemu exit $([ $r = a ] && echo $rc_a || echo $rc_b)); last lines:"
		tail -30 "$vmdir/$r.log.txt" >&2
	fi
done
layer=vmpair
[ "$KERNEL_LINE" = 6.1 ] || layer=vmpair-$KERNEL_LINE
[ "$kern_a$kern_b" = stockstock ] || layer=$layer-$kern_a-$kern_b
layer=${MADCM_VM_LAYER:-$layer}
# MADCM_VM_RETRY (make test sets 1): as in run.sh, the scripts that did
# not pass in both guests run once more, in a pair of boots of their own;
# one that passes there is reported FLAKY, one that fails again fails
# the layer with the first boots' counts; a kernel report in either
# guest's log is never tried again.
if [ "$failed" -gt 0 ] && [ "${MADCM_VM_RETRY:-0}" -gt 0 ] &&
   kernel_reported "$vmdir/a.log.txt" "$vmdir/b.log.txt"; then
	say "a kernel report in the log: its failures stand, none is tried again"
elif [ "$failed" -gt 0 ] && [ "${MADCM_VM_RETRY:-0}" -gt 0 ]; then
	again=() notrun=0
	for s in "${scripts[@]}"; do
		n=${s##*/} ok=1 skip=1 nr=0
		for r in a b; do
			grep -q "^=== VMTEST PASS $n\$" "$vmdir/$r.log.txt" || ok=0
			grep -q "^=== VMTEST SKIP $n\$" "$vmdir/$r.log.txt" || skip=0
			grep -q "^=== VMTEST FAIL $n (not run)\$" "$vmdir/$r.log.txt" && nr=1
		done
		[ $ok -eq 1 ] || [ $skip -eq 1 ] || { again+=("$s"); notrun=$((notrun + nr)); }
	done
	# A script a guest did not run (one before it ran out of its time,
	# lib/init) is not a failure of its own: it does not count against
	# MADCM_VM_RETRY_MAX.
	max=$((${MADCM_VM_RETRY_MAX:-8} + notrun)) cap=${MADCM_VM_RETRY_TIMEOUT:-900}
	# the emulator's fault ended a boot: every script it took, again,
	# within the layer's own limit
	[ "${MADCM_TCG_FAULT:-0}" != 1 ] || max=${#again[@]} cap=$VM_TIMEOUT
	if [ ${#again[@]} -gt 0 ] && [ ${#again[@]} -le "$max" ]; then
		say "retrying in a pair of boots of their own: ${again[*]##*/}"
		# Their own limits, as above, but never past the cap.
		t=120
		for s in "${again[@]}"; do
			v=$(sed -n 's/^# vm-timeout: \([0-9][0-9]*\)$/\1/p' "$s" | head -1)
			t=$((t + ${v:-600}))
		done
		[ "$t" -le "$cap" ] || t=$cap
		# a guest stuck before user space is booted again there too
		if MADCM_VM_RETRY=0 MADCM_VM_REBOOT=1 MADCM_VM_DIR=$vmdir/retry \
		   MADCM_VM_LAYER=$layer-retry \
		   VM_TIMEOUT=$t \
		   "$MADCM_ROOT/tests/vm/run2.sh" "${again[@]}" >"$vmdir/retry.out" 2>&1; then
			for s in "${again[@]}"; do
				say "FLAKY: $layer ${s##*/} failed, then passed in a pair of boots of its own"
			done
			grep -aE '^(PASS|FAIL|SKIP) ' "$vmdir/retry.out" | sed 's/^/retry: /'
			passed=$((passed + failed)) failed=0
		else
			say "the retry failed too:"
			tail -40 "$vmdir/retry.out" >&2
		fi
	fi
fi
if [ "$skipped" -gt 0 ]; then
	echo "$layer: $passed passed, $failed failed, $skipped skipped"
else
	echo "$layer: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
