# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 600
# 30-apps-rping.sh with madcm's streams on the host's own TCP
# (rnic_host_tcp=1, rnic/qp_sock.c): rping -V in both roles, against
# madcm (make vmpair) or siw (make vmpair-mixed), each ping's Read and
# Write carried by a repaired kernel socket. A madcm guest then shows
# that its streams went to the host's TCP (host_tcp) and that no
# hand-off failed.
. /tests/common.sh
. /tests/ib.sh
MADCM_HOST_TCP=1
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

rping_run a 7710 64 10
rping_run b 7711 32768 5
[ "$APPS_DEV" = madcm ] && madcm_host_tcp_check m0

apps_teardown
finish
