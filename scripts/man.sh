#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make man: a section-9 manual page for every exported function, made from
# its kernel-doc by the kernel tree's own scripts/kernel-doc -man.
# Usage: scripts/man.sh OUTDIR
#   OUTDIR/NAME.9        the module's exports (what make install installs)
#   OUTDIR/tests/NAME.9  exports of the test and sample modules, if any
# Each page gets a SEE ALSO section, as the kernel's own API pages have:
# the public header that declares the function, its ib_mad.h twin and the
# ib_mad.h helpers that work on madcm's MADs (MAD pages), and the other
# exports declared in the same header. KERNELDOC overrides the tool.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$1
if [ -z "${KERNELDOC:-}" ]; then
	# The 6.1 line's source tree, whichever line the build is for.
	MADCM_KERNEL=6.1 "$MADCM_ROOT/scripts/fetch-kernel.sh" >&2
	. "$MADCM_CACHE/kernel.env"
	KERNELDOC=$KSRC/scripts/kernel-doc
fi
KSRC=${KSRC:-}
VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$MADCM_ROOT/dkms.conf")

cd "$MADCM_ROOT"
# A page's date is the last commit's, so that a rebuild gives the same page.
if ts=$(git log -1 --format=%cI 2>/dev/null) && [ -n "$ts" ]; then
	export KBUILD_BUILD_TIMESTAMP=$ts
fi

mapfile -t sources < <(git ls-files -co --exclude-standard -- '*.c' |
	grep -v -e '\.mod\.c$' -e '^tests/vm/' | sort)
mapfile -t headers < <(git ls-files -co --exclude-standard -- 'include/*.h' | sort)

# name -> defining file, name -> declaring public header.
declare -A src hdr family
names=()
for f in "${sources[@]}"; do
	for n in $(sed -n 's/^EXPORT_SYMBOL_GPL(\([a-z0-9_]*\));.*/\1/p' "$f"); do
		names+=("$n")
		src[$n]=$f
		h=$(grep -lE "(^|[ *])$n\(" "${headers[@]}" /dev/null | head -1 || true)
		hdr[$n]=${h:-$f}
		family[${hdr[$n]}]+=" $n"
	done
done
[ ${#names[@]} -gt 0 ] || die "no exported functions found"

# The kernel's ib_mad.h: its functions with kernel-doc, each a page of the
# kernel's own manual (struct pages left out), in the header's order.
ib_pages=()
if [ -n "$KSRC" ] && [ -f "$KSRC/include/rdma/ib_mad.h" ]; then
	mapfile -t ib_pages < <("$KERNELDOC" -man "$KSRC/include/rdma/ib_mad.h" 2>/dev/null |
		sed -n 's/^\.TH "\([a-z0-9_]*\)" 9 "\1" .*/\1/p')
fi

# A header's family in the order of its declarations.
for h in "${!family[@]}"; do
	family[$h]=$(for m in ${family[$h]}; do
		echo "$(grep -nE "(^|[ *])$m\(" "$h" | head -1 | cut -d: -f1) $m"
	done | sort -n | cut -d' ' -f2 | tr '\n' ' ')
done

see_also() {
	local n=$1 h=${hdr[$1]} refs=() m k
	printf '.SH "SEE ALSO"\n'
	printf 'Kernel file \\fB%s\\fP' "$h"
	if [ "$h" = include/madcm/mad.h ]; then
		printf ', and the kernel'"'"'s \\fBinclude/rdma/ib_mad.h\\fP'
		# The twin first, then the helpers that have no madcm twin.
		for k in "${ib_pages[@]}"; do
			[ "$k" = "ib_${n#madcm_}" ] && refs+=("$k")
		done
		for k in "${ib_pages[@]}"; do
			[ -z "${src[madcm_${k#ib_}]+x}" ] && refs+=("$k")
		done
	fi
	printf '\n.PP\n'
	for m in ${family[$h]}; do
		[ "$m" != "$n" ] && refs+=("$m")
	done
	local i last=$((${#refs[@]} - 1))
	for i in "${!refs[@]}"; do
		printf '\\fB%s\\fP(9)%s\n' "${refs[$i]}" "$([ "$i" -lt "$last" ] && echo ,)"
	done
}

mkdir -p "$out"
rm -f "$out"/*.9 "$out"/tests/*.9
missing=0
for n in "${names[@]}"; do
	dir=$out
	case ${src[$n]} in tests/* | samples/*) dir=$out/tests ;; esac
	mkdir -p "$dir"
	page=$dir/$n.9
	# The kernel-doc is in the .c that defines the function or, as in the
	# kernel's ib_mad.h, in the header that declares it.
	"$KERNELDOC" -man -function "$n" "${src[$n]}" >"$page.tmp" 2>/dev/null
	if ! grep -q '^\.TH ' "$page.tmp" && [ "${hdr[$n]}" != "${src[$n]}" ]; then
		"$KERNELDOC" -man -function "$n" "${hdr[$n]}" >"$page.tmp" 2>/dev/null
	fi
	if ! grep -q '^\.TH ' "$page.tmp"; then
		say "error: no kernel-doc for $n (${src[$n]}), so no page"
		rm -f "$page.tmp"
		missing=$((missing + 1))
		continue
	fi
	# .TH title section date source manual
	sed -i -E "s/^\.TH \"([^\"]*)\" 9 \"[^\"]*\" (\"[^\"]*\") .*/.TH \"\1\" 9 \2 \"madcm $VERSION\" \"Kernel API Manual\"/" \
		"$page.tmp"
	# No hyphenation (function names are words with underscores), ragged right.
	sed -i '1a .nh\n.ad l' "$page.tmp"
	see_also "$n" >>"$page.tmp"
	mv "$page.tmp" "$page"
done
say "man: $((${#names[@]} - missing)) pages in $out, $missing exports without kernel-doc"
[ $missing -eq 0 ]
