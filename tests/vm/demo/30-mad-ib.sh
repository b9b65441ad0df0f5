# SPDX-License-Identifier: GPL-2.0
# make run: a madcm agent talks to the kernel's own MAD layer over rxe.
# madcm has a UD QP of its own on rxe0 next to ib_core's QP1; it asks QP1
# for a class nobody registered (ib_core answers "unsupported", 0x000C),
# asks an ib_core agent's service, and an ib_core agent asks madcm's.
. /tests/common.sh
. /tests/ib.sh

echo "One rxe device over a veth pair; madcm and its test helper loaded"
ib_setup_one
gid=$(ib_gid rxe0 ll)
cat /sys/kernel/debug/madcm/ports/rxe0-1/ib | head -3
qpn=$(awk '$1 == "qpn" { print $2 }' /sys/kernel/debug/madcm/ports/rxe0-1/ib)
ibt open rxe0
echo "madcm -> ib_core QP1 ($gid): Get of vendor class 0x09, nobody's"
ibt unsupported "$gid"
echo "madcm -> an ib_core agent's vendor-class service on QP1"
ibt kget "$gid"
echo "ib_core -> a madcm agent's service on madcm's QPN $qpn"
ibt kreq "$gid" "$qpn"
dmesg | sed -n 's/.*madcm_ibtest: /  /p'
ibt close
echo "madcm port counters (not zero):"
grep -v ' 0$' /sys/kernel/debug/madcm/ports/rxe0-1/counters | sed 's/^/  /'
ib_teardown
echo "madcm, rxe0 and the veth pair removed"
