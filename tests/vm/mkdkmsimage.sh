#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The root file system of the DKMS VM layer (tests/vm/run-dkms.sh): an
# ext4 image that the guest mounts from a virtio-blk disk and works in
# with chroot. It holds what "dkms build" and "dkms install" need and
# nothing of madcm:
#   - the files of the host's installed Debian packages dkms, gcc, make,
#     kmod and openssl (signing) and of everything they depend on, as
#     dpkg lists them (apt-cache depends --recurse --installed);
#   - the stock kernel's headers as Debian's linux-headers-KVER installs
#     them (that package, its -common and its linux-kbuild unpacked from
#     $MADCM_CACHE/debs, with the /lib/modules/KVER/build link they ship),
#     and the kernel's modules.order and modules.builtin for depmod.
# The image is cached as $MADCM_CACHE/dkms-vm/root-KVER-KEY.img, KEY a
# hash of the inputs (the packages and their versions, the debs, this
# script), so an unchanged host reuses it; an older image of the same
# kernel is deleted when a new one is made. madcm's sources reach the
# guest on a disk of their own, made for each run by run-dkms.sh.
#
# Usage: tests/vm/mkdkmsimage.sh     prints the image's path
# Environment: MADCM_CACHE, MADCM_KERNEL (the kernel line).
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"
. "$(kernel_env_file)"

debs=$MADCM_CACHE/debs
hdr=$(ls "$debs/linux-headers-${KVER}_"*.deb 2>/dev/null | sort -V | tail -1)
[ -n "$hdr" ] || die "no linux-headers-$KVER deb in $debs (scripts/fetch-kernel.sh)"
# The headers' own dependencies name their -common and linux-kbuild.
hdrdebs=("$hdr")
for p in $(dpkg-deb -f "$hdr" Depends | tr ',' '\n' | sed -n 's/^ *\(linux-[^ ]*\).*/\1/p'); do
	case $p in
	linux-headers-*|linux-kbuild-*)
		d=$(ls "$debs/${p}_"*.deb 2>/dev/null | sort -V | tail -1)
		[ -n "$d" ] || die "no $p deb in $debs"
		hdrdebs+=("$d") ;;
	esac
done

# The userland: dkms and its tools, with every installed dependency.
roots="dkms gcc gcc-12 make kmod openssl dash bash coreutils util-linux
findutils sed grep gawk mawk diffutils tar gzip xz-utils libelf1 libssl3
perl-base libc-bin ncurses-bin hostname"
pkgs=$(apt-cache depends --recurse --installed --no-recommends --no-suggests \
	--no-conflicts --no-breaks --no-replaces --no-enhances $roots 2>/dev/null |
	grep -v '^[ <]' | sort -u)
list=$(for p in $pkgs; do
	dpkg-query -W -f='${db:Status-Status} ${Package} ${Version}\n' "$p" 2>/dev/null
done | awk '$1 == "installed" { print $2 "=" $3 }' | sort -u)

key=$( { echo "$list"; for d in "${hdrdebs[@]}"; do basename "$d"; done
	cat "$0"; } | sha256sum | cut -c1-16)
dir=$MADCM_CACHE/dkms-vm
img=$dir/root-$KVER-$key.img
if [ -e "$img" ]; then
	echo "$img"
	exit 0
fi
mkdir -p "$dir"
say "making the DKMS guest's root image ($(echo "$list" | wc -l) packages, $KVER headers)"
root=$(mktemp -d "$dir/root.XXXXXX")
trap 'rm -rf "$root" "$img.tmp"' EXIT

# Merged /usr, as on the host (Debian 12).
mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib" "$root/usr/lib64"
for d in bin sbin lib lib64; do ln -s "usr/$d" "$root/$d"; done
mkdir -p "$root"/{etc,proc,sys,dev,tmp,run,root,var/lib/dkms,var/tmp,usr/src}
chmod 1777 "$root/tmp" "$root/var/tmp"

for p in $list; do dpkg -L "${p%%=*}"; done | sort -u | while read -r f; do
	# Files and links only; their directories come with them.
	if [ -L "$f" ] || [ -f "$f" ]; then echo "${f#/}"; fi
done >"$root/.files"
tar -C / -cf - --no-recursion -T "$root/.files" |
	tar -C "$root" -xf - --keep-directory-symlink
rm "$root/.files"
# What no package lists: the alternatives' links (cc, awk, ...), who root
# is, which system this is.
cp -a /etc/alternatives "$root/etc/"
for l in $(find /usr/bin /usr/sbin -maxdepth 1 -lname '/etc/alternatives/*'); do
	cp -a "$l" "$root$l"
done
for f in passwd group os-release ld.so.conf; do cp -L "/etc/$f" "$root/etc/"; done
[ -d /etc/ld.so.conf.d ] && cp -a /etc/ld.so.conf.d "$root/etc/"

# Unpacked as dpkg would, through the merged /usr links (dpkg-deb -x
# would replace /lib by a directory).
for d in "${hdrdebs[@]}"; do
	dpkg-deb --fsys-tarfile "$d" | tar -C "$root" -xf - --keep-directory-symlink
done
[ -L "$root/lib/modules/$KVER/build" ] || die "$hdr has no /lib/modules/$KVER/build"
for f in modules.order modules.builtin modules.builtin.modinfo; do
	cp "$STOCK_MODDIR/$f" "$root/lib/modules/$KVER/"
done
ldconfig -r "$root"

size=$(du -sm "$root" | cut -f1)
mke2fs -q -t ext4 -O ^has_journal -L madcm-dkms -d "$root" "$img.tmp" "$((size * 3 / 2 + 512))M" >&2
rm -f "$dir/root-$KVER-"*.img
mv "$img.tmp" "$img"
say "DKMS root image: $img (${size} MiB of files)"
echo "$img"
