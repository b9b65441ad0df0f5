# SPDX-License-Identifier: GPL-2.0
# The P_Key index of a GMP on an ib_core device (issue 14, item 12). A UD
# QP other than QP1 sends with the P_Key index its QP was set up with,
# whatever the work request says (IBTA vol. 1 11.4.1.1: pkey_index in a
# UD send is honoured for GSI QPs only), so madcm sends on index N from a
# QP of its own set up on N, for every index of the device's P_Key table.
# rxe (6.1) has a one-entry table (index 0, 0xffff): any other index must
# be refused at creation, never sent on the wrong partition. The QPs on
# other indices are tested in KUnit, madcm_mad_ib, on a mock device with
# a larger table.
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
