# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 900
# rdma-core's ucmatose (rdmacm-utils) between the two guests' RNICs
# (tests/vm/lib/apps.sh), in both roles: 4 connections, 10 Sends of
# SIZE bytes each way on each, disconnect. Both sides end with "test
# complete" and "return status 0".
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh

check "ucmatose is there" [ -x /bin/ucmatose ]
apps_setup

# ucmatose_run SERVER_ROLE PORT SIZE
ucmatose_run() {
	local srole=$1 port=$2 size=$3 srv
	srv=$(apps_ip "$srole")
	apps_run ucmatose-$srole-$size "$srole" \
		"ucmatose -b $srv -p $port -c 4 -C 10 -S $size" \
		"ucmatose -s $srv -p $port -c 4 -C 10 -S $size"
	apps_expect "ucmatose $SIDE: data transfers complete" '^data transfers complete'
	apps_expect "ucmatose $SIDE: test complete" '^test complete'
	apps_expect "ucmatose $SIDE: return status 0" '^return status 0$'
}

ucmatose_run a 7710 100
ucmatose_run b 7711 100
ucmatose_run a 7712 4096
ucmatose_run b 7713 4096

apps_teardown
finish
