# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 2700
# Issue 13, item 7: Debian's dkms builds madcm in a guest of the stock
# kernel against that kernel's stock linux-headers package, installs it
# where dkms installs modules, and "modprobe madcm" loads that build next
# to the stock ib_core (the kernel itself checks vermagic and symbol
# versions). The dkms root is an ext4 disk (vda, tests/vm/mkdkmsimage.sh),
# madcm's DKMS sources a second one (vdb); tests/vm/run-dkms.sh.
. /tests/common.sh

stop_if_failed() { [ "$failures" -eq 0 ] || finish; }
KVER=$(uname -r)
V=${MADCM_DKMS_VERSION:?not on the kernel command line}
R=/dkmsroot
MOD=/lib/modules/$KVER/updates/dkms/madcm.ko

load_modules virtio_pci virtio_blk crc32c_generic ext4
stop_if_failed
# The disks appear once virtio-pci has probed them.
n=0
while { [ ! -b /dev/vda ] || [ ! -b /dev/vdb ]; } && [ $n -lt 50 ]; do
	sleep 0.2
	n=$((n + 1))
done
mkdir -p $R /madcm-src
check "mount the dkms root (vda, ext4)" mount -t ext4 /dev/vda $R
check "mount madcm's sources (vdb, ext4)" mount -t ext4 -o ro /dev/vdb /madcm-src
stop_if_failed
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -o bind /dev $R/dev
# bash's <(...), which dkms uses, needs /dev/fd (udev's link, absent here).
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
mount -t tmpfs tmpfs $R/tmp
# The running kernel's modules (ib_core and the rest) from the initramfs;
# depmod in the root sees them beside what dkms installs.
mkdir -p $R/lib/modules/$KVER/kernel
mount -o bind /lib/modules/$KVER/kernel $R/lib/modules/$KVER/kernel

# in_root CMD: a shell command in the dkms root.
in_root() {
	chroot $R /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 /bin/bash -c "$*"
}

check "sources at /usr/src/madcm-$V" cp -a /madcm-src/madcm-$V $R/usr/src/
check "dkms add madcm/$V" in_root "dkms add madcm/$V"
stop_if_failed
t0=$(date +%s)
if ! in_root "dkms build madcm/$V -k $KVER -j 2 >/tmp/build.out 2>&1"; then
	fail "dkms build madcm/$V -k $KVER -j 2"
	tail -30 $R/tmp/build.out
	tail -40 $R/var/lib/dkms/madcm/$V/build/make.log
	finish
fi
ok "dkms build madcm/$V -k $KVER -j 2"
echo "dkms build took $(($(date +%s) - t0)) s"
# dkms prints the make command it runs (make.log does not hold it).
grep '^make ' $R/tmp/build.out
check "dkms ran make -j2" grep -q '^make -j2 ' $R/tmp/build.out
check "dkms install madcm/$V -k $KVER" in_root "dkms install madcm/$V -k $KVER"
check "installed as updates/dkms/madcm.ko" [ -f $R$MOD ]
stop_if_failed
check "dkms status: installed" in_root "dkms status madcm/$V -k $KVER | grep -q ': installed'"
vm=$(in_root "modinfo -F vermagic $MOD" | cut -d' ' -f1)
check "its vermagic ($vm) is the running kernel's ($KVER)" [ "$vm" = "$KVER" ]
check "modprobe resolves madcm to updates/dkms" \
	in_root "modprobe -n -v madcm | grep -q 'insmod $MOD'"

check "modprobe madcm (in the dkms root)" in_root "modprobe madcm"
stop_if_failed
# The loaded module's GNU build ID (the note's last 20 bytes) against
# the installed file's.
bid=$(in_root "readelf -n $MOD" | sed -n 's/.*Build ID: *//p')
loaded=$(od -An -v -tx1 /sys/module/madcm/notes/.note.gnu.build-id | tr -d ' \n')
check "the loaded madcm is the dkms build (build ID $bid)" \
	[ -n "$bid" ] && [ "${loaded%"$bid"}" != "$loaded" ]
check "next to the stock ib_core" [ -d /sys/module/ib_core ]
modprobe veth
/bin/ip link add veth0 type veth peer name veth1 || fail "veth pair"
/bin/ip link set veth0 up && /bin/ip link set veth1 up
check "rdma link add m0 type madcm netdev veth0" \
	/bin/rdma link add m0 type madcm netdev veth0
check "m0 is an iWARP RNIC" grep -q RNIC /sys/class/infiniband/m0/node_type
check "rdma link delete m0" /bin/rdma link delete m0
/bin/ip link del veth0
check "modprobe -r madcm" in_root "modprobe -r madcm"
check "madcm is unloaded" [ ! -e /sys/module/madcm ]
check "dkms remove madcm/$V --all" in_root "dkms remove madcm/$V --all"
check "gone from updates/dkms" [ ! -e $R$MOD ]

umount $R/lib/modules/$KVER/kernel $R/tmp $R/dev $R/sys $R/proc
umount $R /madcm-src
finish
