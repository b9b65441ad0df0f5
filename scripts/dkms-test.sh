#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The DKMS layer: the DKMS package of madcm (dkms.conf, scripts/dkms.sh)
# is added, built, installed and removed with Debian's dkms against the
# stock headers of each cached kernel line, all inside a temporary DKMS
# tree, source tree and install tree: nothing lands in the host's
# /lib/modules, /usr/src or /var/lib/dkms. The build's module is signed
# with a throw-away key made for the run (dkms' own signing step).
#
# Then, as root, make dkms and make dkms-remove run with dkms' default
# trees in a private mount namespace whose /usr/lib, /usr/src and
# /var/lib/dkms are overlays, thrown away with it.
#
# Usage: scripts/dkms-test.sh [KVER KDIR]...
#   Without arguments: every line in the cache ($MADCM_CACHE/kernel.env
#   and kernel-*.env, as scripts/fetch-kernel.sh writes them).
# Prints "ok:"/"FAIL:" per check and "dkms: N passed, M failed" last; one
# log per kernel in $MADCM_DKMS_DIR (default $MADCM_CACHE/dkms-test).
set -uo pipefail
. "$(dirname "$0")/common.sh"

"$MADCM_ROOT/scripts/deps.sh" build dkms || exit 1

lines=()
if [ $# -eq 0 ]; then
	"$MADCM_ROOT/scripts/fetch-kernel.sh" || exit 1
	declare -A seen
	for env in "$MADCM_CACHE"/kernel.env "$MADCM_CACHE"/kernel-*.env; do
		[ -f "$env" ] || continue
		# shellcheck disable=SC1090
		kver=$(. "$env" && echo "$KVER") kdir=$(. "$env" && echo "$STOCK_KDIR")
		if [ -z "$kver" ] || [ -n "${seen[$kver]+x}" ]; then
			continue
		fi
		seen[$kver]=1
		lines+=("$kver" "$kdir")
	done
else
	[ $(($# % 2)) -eq 0 ] || die "usage: $0 [KVER KDIR]..."
	lines=("$@")
fi
[ ${#lines[@]} -gt 0 ] || die "no cached kernel line"

VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$MADCM_ROOT/dkms.conf")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/madcm-dkms.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Logs outlive the run; the trees do not.
logdir=${MADCM_DKMS_DIR:-$MADCM_CACHE/dkms-test}
mkdir -p "$logdir"
passed=0 failed=0

check() {
	local name=$1
	shift
	if "$@" >>"$log" 2>&1; then
		say "ok: $name"
		passed=$((passed + 1))
	else
		say "FAIL: $name (log: $log)"
		tail -25 "$log" >&2
		failed=$((failed + 1))
		return 1
	fi
}

# dkms with every tree of its own under $t. The signing variables are read
# from the environment when /etc/dkms/framework.conf leaves them unset.
dk() {
	sign_file=$sign_file mok_signing_key=$t/mok.key mok_certificate=$t/mok.pub \
		dkms "$@" -m madcm -v "$VERSION" --dkmstree "$t/dkms" \
		--sourcetree "$t/src" --installtree "$t/lib/modules"
}

vermagic_is() { [ "$(modinfo -F vermagic "$1" | cut -d' ' -f1)" = "$2" ]; }
is_signed() { modinfo -F signer "$1" | grep -q 'DKMS module signing key'; }
# The build linked madcm.ko and no other module (kbuild's "LD [M]" lines).
only_madcm() {
	[ "$(sed -n 's|^ *LD \[M\] *.*/||p' "$1" | grep '\.ko$')" = madcm.ko ]
}
# Another out-of-tree module built on madcm as a user would: the public
# headers from make install-headers (in a DESTDIR), madcm's symbols from the
# Module.symvers that the dkms build kept. The module is a small consumer of
# both cores' consumer APIs (the sample ULP runs on the test fabric, whose
# header is not installed), written here; it is built, not loaded.
consumer() {
	local kdir=$1 symvers=$2 c=$t/consumer
	make -s -C "$MADCM_ROOT" KDIR="$kdir" DESTDIR="$t/root" PREFIX=/usr \
		install-headers || return 1
	mkdir -p "$c"
	cat >"$c/madcm_consumer.c" <<'EOC'
// SPDX-License-Identifier: GPL-2.0-only
/* A module on madcm's installed headers: a MAD agent on port 1 of each
 * RDMA device madcm serves, and the CM core of the loopback device. */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <madcm/mad.h>
#include <madcm/cm.h>

static struct ib_mad_agent *agent;

static int consumer_add(struct ib_device *device)
{
	struct madcm_port *port = madcm_ib_get_port(device, 1);

	if (!port || agent)
		return 0;
	agent = madcm_register_mad_agent(port, IB_QPT_GSI, NULL, 0, NULL,
					 NULL, NULL, 0);
	if (IS_ERR(agent))
		agent = NULL;
	return 0;
}

static void consumer_remove(struct ib_device *device, void *data)
{
	if (agent)
		madcm_unregister_mad_agent(agent);
	agent = NULL;
}

static struct ib_client consumer_client = {
	.name = "madcm_consumer",
	.add = consumer_add,
	.remove = consumer_remove,
};

static int __init consumer_init(void)
{
	struct net_device *lo = dev_get_by_name(&init_net, "lo");
	struct madcm_cm_core *core;

	if (lo) {
		core = madcm_cm_get_core(lo);
		if (!IS_ERR_OR_NULL(core))
			madcm_cm_put_core(core);
		dev_put(lo);
	}
	return ib_register_client(&consumer_client);
}

static void __exit consumer_exit(void)
{
	ib_unregister_client(&consumer_client);
}

module_init(consumer_init);
module_exit(consumer_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("builds on madcm's installed headers and symbols");
EOC
	printf 'obj-m := madcm_consumer.o\nccflags-y := -I%s\n' \
		"$t/root/usr/include" >"$c/Kbuild"
	make -C "$kdir" M="$c" KBUILD_EXTRA_SYMBOLS="$symvers" W=1 modules \
		>"$c/build.log" 2>&1 || { cat "$c/build.log"; return 1; }
	cat "$c/build.log"
	! grep -E 'WARNING|warning:|error:' "$c/build.log" &&
		modinfo -F depends "$c/madcm_consumer.ko" | grep -qw madcm
}
# make dkms and make dkms-remove as a user runs them, with dkms' default
# trees (/usr/src, /var/lib/dkms, /lib/modules/KVER), in a private mount
# namespace where those are overlays over the host's: every write goes to
# $t/ns and vanishes with the namespace. /lib/modules/KVER/build points to
# the stock headers, as Debian's linux-headers-KVER makes it. Prints
# "step ok|FAIL NAME" lines.
make_dkms_in_ns() {
	local kver=$1 kdir=$2 ns=$t/ns d
	for d in usr-lib usr-src var-lib-dkms; do
		mkdir -p "$ns/$d/up" "$ns/$d/work"
	done
	mkdir -p /var/lib/dkms
	unshare -m --propagation private bash -s "$kver" "$kdir" "$ns" \
		"$MADCM_ROOT" "$VERSION" <<'EOS'
kver=$1 kdir=$2 ns=$3 root=$4 version=$5
step() {
	local name=$1
	shift
	if "$@" >>"$ns/steps.log" 2>&1; then
		echo "step ok $name"
	else
		echo "step FAIL $name"
		tail -15 "$ns/steps.log"
	fi
}
ov() { mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/up,workdir=$2/work" "$1"; }
ov /usr/lib "$ns/usr-lib" && ov /usr/src "$ns/usr-src" &&
	ov /var/lib/dkms "$ns/var-lib-dkms" || { echo "step FAIL overlays"; exit; }
mkdir -p "/lib/modules/$kver"
ln -sfn "$kdir" "/lib/modules/$kver/build"
installed() { dkms status -m madcm -v "$version" -k "$kver" | grep -q ': installed'; }
in_dep() { grep -q 'updates/dkms/madcm.ko' "/lib/modules/$kver/modules.dep"; }
gone() {
	[ ! -e "/lib/modules/$kver/updates/dkms/madcm.ko" ] &&
	[ ! -e "/usr/src/madcm-$version" ] &&
	! dkms status -m madcm | grep -q .
}
step "make dkms KVER=$kver" make -C "$root" dkms KVER="$kver" KDIR="$kdir"
step "dkms status: installed" installed
step "depmod lists updates/dkms/madcm.ko" in_dep
step "make dkms again (sources replaced)" make -C "$root" dkms KVER="$kver" KDIR="$kdir"
step "make dkms-remove" make -C "$root" dkms-remove KDIR="$kdir"
step "module, sources and registration gone" gone
EOS
}

not_registered() { ! dk status -k "$kver" | grep -q .; }

set -- "${lines[@]}"
while [ $# -gt 0 ]; do
	kver=$1 kdir=$2
	shift 2
	t=$tmp/$kver
	log=$logdir/$kver.log
	: >"$log"
	mkdir -p "$t/dkms" "$t/src" "$t/lib/modules/$kver"
	say "=== dkms, madcm/$VERSION on $kver ($kdir)"
	[ -f "$kdir/Makefile" ] || { check "headers of $kver at $kdir" false; continue; }
	# The kernel's own sign-file: Debian ships it in linux-kbuild-X.Y, which
	# the stock headers' scripts/ link to.
	sign_file=$(readlink -f "$kdir/scripts/sign-file")

	"$MADCM_ROOT/scripts/dkms.sh" source "$t/src/madcm-$VERSION" >>"$log" 2>&1
	check "$kver: dkms add" dk add || continue
	if ! check "$kver: dkms build" dk build -k "$kver" --kernelsourcedir "$kdir"; then
		# dkms leaves the failed build's make.log in its build directory.
		cat "$t/dkms/madcm/$VERSION/build/make.log" >>"$log" 2>/dev/null
		grep -E 'error|Error' "$log" | head -20 >&2
		continue
	fi
	mod=$t/dkms/madcm/$VERSION/$kver/$(uname -m)/module
	check "$kver: only madcm.ko is built" only_madcm "$mod/../log/make.log"
	check "$kver: vermagic is $kver" vermagic_is "$mod/madcm.ko" "$kver"
	check "$kver: signed by dkms' key" is_signed "$mod/madcm.ko"
	check "$kver: Module.symvers kept, madcm_* exports in it" \
		grep -q '	madcm_create_send_mad	' "$mod/../Module.symvers"
	check "$kver: a module built on the installed headers and symbols" \
		consumer "$kdir" "$mod/../Module.symvers"
	check "$kver: dkms install (no depmod)" \
		dk install -k "$kver" --kernelsourcedir "$kdir" --no-depmod
	inst=$t/lib/modules/$kver/updates/dkms/madcm.ko
	check "$kver: installed as updates/dkms/madcm.ko" test -f "$inst"
	check "$kver: dkms remove" dk remove -k "$kver" --no-depmod
	check "$kver: removed from the install tree" test ! -e "$inst"
	check "$kver: no longer registered" not_registered

	if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
		say "note: $kver: make dkms not tried (needs root and unshare -m)"
		continue
	fi
	while read -r tag res name; do
		case $tag:$res in
		step:ok) say "ok: $kver: $name"; passed=$((passed + 1)) ;;
		step:FAIL) say "FAIL: $kver: $name (log: $log)"; failed=$((failed + 1)) ;;
		*) echo "$tag $res $name" >&2 ;;
		esac
	done < <(make_dkms_in_ns "$kver" "$kdir" 2>>"$log" | tee -a "$log")
	cat "$t/ns/steps.log" >>"$log" 2>/dev/null
done

echo "dkms: $passed passed, $failed failed"
[ $failed -eq 0 ]
