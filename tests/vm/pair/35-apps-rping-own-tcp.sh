# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 600
# 30-apps-rping.sh with madcm's streams on its own TCP engine
# (rnic_host_tcp=0, rnic/qp_tcp.c) instead of the host's TCP, the
# default: rping -V in both roles, against madcm (make vmpair) or siw
# (make vmpair-mixed). Kept while the engine is (issue 31 retires it).
. /tests/common.sh
. /tests/ib.sh
MADCM_HOST_TCP=0
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

rping_run a 7712 64 10
rping_run b 7713 32768 5
if [ "$APPS_DEV" = madcm ]; then
	check "m0: no stream went to the host's TCP" [ "$(rnic_stat m0 host_tcp)" = 0 ]
fi

apps_teardown
finish
