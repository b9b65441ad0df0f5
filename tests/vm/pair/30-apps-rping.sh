# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 900
# rdma-core's rping (rdmacm-utils) between the two guests' RNICs
# (tests/vm/lib/apps.sh: madcm on the stock kernel, siw on the siw
# kernel), in both roles, with -V: the server Reads the client's ping
# buffer and Writes it back, the client compares it with what it sent
# ("data mismatch" and a non-zero exit otherwise). Each side prints every
# ping (-v): the server "server ping data: rdma-ping-N: ...", the client
# "ping data: rdma-ping-N: ...", COUNT of them.
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh

check "rping is there" [ -x /bin/rping ]
apps_setup

# rping_run SERVER_ROLE PORT SIZE COUNT
rping_run() {
	local srole=$1 port=$2 size=$3 count=$4 srv
	srv=$(apps_ip "$srole")
	apps_run rping-$srole-$size "$srole" \
		"rping -s -v -V -a $srv -p $port -S $size -C $count" \
		"rping -c -v -V -a $srv -p $port -S $size -C $count"
	if [ $SIDE = server ]; then
		apps_expect "rping -s: $count pings served" '^server ping data: rdma-ping-' $count
	else
		apps_expect "rping -c: $count pings verified" '^ping data: rdma-ping-' $count
	fi
	apps_expect "no data mismatch" 'mismatch' 0
}

rping_run a 7700 64 10
rping_run b 7701 64 10
rping_run a 7702 4096 5
rping_run b 7703 4096 5

apps_teardown
finish
