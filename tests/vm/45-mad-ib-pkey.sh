# SPDX-License-Identifier: GPL-2.0
# The P_Key index of a GMP on an ib_core device (issue 14, item 12). A UD
# QP other than QP1 sends with the P_Key index its QP was set up with,
# whatever the work request says (IBTA vol. 1 11.4.1.1: pkey_index in a
# UD send is honoured for GSI QPs only), and madcm's QP on an ib port is
# set up on index 0. A send buffer for another index would leave on the
# wrong partition, silently; madcm must refuse it at creation instead.
# rxe has a one-entry P_Key table, so index 0 is the only valid one.
. /tests/common.sh
. /tests/ib.sh

# refused ARGS...: the ibtest command fails.
refused() {
	! ibt "$@" 2>/dev/null
}

ib_setup_one
check "rxe0 has one P_Key (index 0)" [ -r /sys/class/infiniband/rxe0/ports/1/pkeys/0 ]
check "open rxe0" ibt open rxe0
check "a send buffer for P_Key index 0 is made" ibt pkey 0
check "one for P_Key index 1 is refused" refused pkey 1
check "one for P_Key index 65535 is refused" refused pkey 65535
check "close" ibt close
ib_teardown
finish
