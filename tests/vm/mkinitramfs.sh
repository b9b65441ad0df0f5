#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the test initramfs for Debian's stock kernel:
#   busybox; the host's ip, tc, rdma and kmod with their libraries; the
#   stock kernel's modules the tests need (dependencies resolved with
#   modprobe --show-depends); madcm.ko and any other .ko given; the VM
#   scripts; an /init that runs them.
# Usage: mkinitramfs.sh OUT.cpio.gz MODE SCRIPT... [-- EXTRA.ko...]
#   MODE "test" runs each script as a test, "run" runs them as a demo.
# Environment: MADCM_VM_MODS, more stock modules to add (as
# tests/vm/run-dkms.sh adds virtio_blk and ext4).
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"
. "$(kernel_env_file)"

out=$1 mode=$2
shift 2
scripts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do scripts+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
kos=("$@")

# Stock modules the VM scripts use.
MODS="ib_core ib_uverbs ib_umad ib_cm iw_cm rdma_cm rdma_ucm rdma_rxe
crc32_generic veth sch_netem virtio_pci virtio_net af_packet ipv6 8021q
nf_tables nft_ct crc32c_generic crc32c-intel libcrc32c nvmet nvmet-rdma nvme-rdma null_blk
inet_diag tcp_diag
${MADCM_VM_MODS:-}"
modroot=$STOCK_ROOT
if [ -n "${MADCM_VM_KERNEL_DIR:-}" ]; then
	# A custom test kernel (tests/vm/run.sh): most of what the scripts
	# use is built in (modprobe finds it in modules.builtin); its modules
	# are installed under modroot (scripts/build-test-kernel.sh). siw is
	# one of them, there to be loaded by the scripts that want it.
	KVER=$MADCM_VM_KVER modroot=$MADCM_VM_KERNEL_DIR/modroot
	MODS="$MODS siw"
fi
moddir=$modroot/lib/modules/$KVER

root=$(mktemp -d "$MADCM_CACHE/initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,root,lib64,tests,usr/lib} \
	"$root/lib/modules/$KVER/extra"

cp /bin/busybox "$root/bin/busybox"
for a in $(/bin/busybox --list); do
	[ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
done

# Host programs and every library they load.
copy_prog() {
	local src=$1 dst=$2 lib
	rm -f "$root$dst"
	cp -L "$src" "$root$dst"
	for lib in $(ldd "$src" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || { mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"; }
	done
}
copy_prog "$(command -v ip)" /bin/ip
copy_prog "$(command -v tc)" /bin/tc
copy_prog "$(command -v rdma)" /bin/rdma
# ss (iproute2): the RNIC's connections on the host's TCP.
command -v ss >/dev/null && copy_prog "$(command -v ss)" /bin/ss
copy_prog "$(command -v kmod)" /bin/kmod
# nft (nftables): a host firewall the CM's steering must obey (39).
command -v nft >/dev/null && copy_prog "$(command -v nft)" /bin/nft
# rdma-core's applications (rdmacm-utils, perftest, ibverbs-utils): rping,
# the data path's reference peer, and the programs tests/vm/pair/3x-apps-*
# run on the RNICs, and iperf3, the link's TCP limit in make bench.
# rping's threads end with pthread_exit, for which glibc loads libgcc_s.
for p in rping ucmatose rdma_server rdma_client cmtime \
	ib_send_bw ib_write_bw ib_read_bw ib_send_lat ibv_devinfo iperf3; do
	if command -v $p >/dev/null; then
		copy_prog "$(command -v $p)" /bin/$p
	fi
done
gcc_s=$(gcc -print-file-name=libgcc_s.so.1)
if [ -e "$gcc_s" ]; then
	cp -L "$gcc_s" "$root/lib/x86_64-linux-gnu/libgcc_s.so.1"
fi
# nvme-cli and fio for the NVMe-oF scripts only (fio's libraries are some
# 80 MB): a script that uses them says so in a line "# vm-progs: nvme fio".
for p in $(sed -n 's/^# vm-progs: //p' "${scripts[@]}" /dev/null | tr ' ' '\n' | sort -u); do
	command -v "$p" >/dev/null || die "$p is not installed (scripts/deps.sh vm)"
	copy_prog "$(command -v "$p")" "/bin/$p"
done
for b in "${MADCM_VM_BINDIR:-/nonexistent}"/*; do
	[ -x "$b" ] && copy_prog "$b" "/bin/$(basename "$b")"
done
# The libibverbs providers of the software RDMA devices (loaded with
# dlopen, so ldd does not see them) and their driver files.
for p in siw rxe; do
	for so in /usr/lib/x86_64-linux-gnu/libibverbs/lib$p-rdmav*.so; do
		[ -e "$so" ] || continue
		mkdir -p "$root$(dirname "$so")"
		copy_prog "$so" "$so"
	done
	[ -e "/etc/libibverbs.d/$p.driver" ] && mkdir -p "$root/etc/libibverbs.d" &&
		cp "/etc/libibverbs.d/$p.driver" "$root/etc/libibverbs.d/"
done
for t in modprobe insmod rmmod lsmod modinfo depmod; do
	rm -f "$root/bin/$t" "$root/sbin/$t"
	ln -s kmod "$root/bin/$t"
done
# The kernel's request_module() runs /sbin/modprobe (modprobe_path), as on
# a Debian host: libcrc32c's crypto_alloc_shash("crc32c") loads the best
# crc32c driver through it.
ln -s ../bin/kmod "$root/sbin/modprobe"
# tc's netem needs its delay distribution tables.
[ -d /usr/lib/x86_64-linux-gnu/tc ] &&
	cp -r /usr/lib/x86_64-linux-gnu/tc "$root/usr/lib/"
[ -d /usr/lib/tc ] && cp -r /usr/lib/tc "$root/usr/lib/"

# Stock modules with their dependencies.
for m in $MODS; do
	# A custom kernel may lack one (8021q): the script that needs it
	# says so when it loads it.
	modprobe -S "$KVER" -d "$modroot" --show-depends "$m" 2>/dev/null |
		awk '$1 == "insmod" { print $2 }' || true
done | sort -u | while read -r ko; do
	rel=${ko#"$modroot"}
	mkdir -p "$root$(dirname "$rel")"
	cp "$ko" "$root$rel"
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
	cp "$moddir/$f" "$root/lib/modules/$KVER/"
done
for ko in "${kos[@]}"; do
	cp "$ko" "$root/lib/modules/$KVER/extra/"
done
depmod -b "$root" "$KVER"

cp "$MADCM_ROOT"/tests/vm/lib/* "$root/tests/"
for s in "${scripts[@]}"; do
	cp "$s" "$root/tests/"
done
printf '%s\n' "${scripts[@]##*/}" >"$root/tests/list"
echo "$mode" >"$root/tests/mode"
cp "$MADCM_ROOT/tests/vm/lib/init" "$root/init"
chmod +x "$root/init"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
