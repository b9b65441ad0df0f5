# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 900
# rdma-core's cmtime (rdmacm-utils) between the two guests' RNICs
# (tests/vm/lib/apps.sh), in both roles: CONNS connections set up at
# once (resolve address and route, create QP, connect) and torn down
# (disconnect, destroy), each step timed. The client exits 0 and prints
# its table of steps, and no line of a failed step (rdma-core 44's cmtime
# prints "failure creating qp" and the like, and goes on); the server
# (Debian's cmtime serves until it is stopped) is still serving when the
# client is done.
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh

CONNS=${APPS_CMTIME_CONNS:-50}
check "cmtime is there" [ -x /bin/cmtime ]
apps_setup

# cmtime_run SERVER_ROLE PORT
cmtime_run() {
	local srole=$1 port=$2 srv
	srv=$(apps_ip "$srole")
	apps_run cmtime-$srole "$srole" \
		"cmtime -b $srv -p $port -c $CONNS" \
		"cmtime -s $srv -p $port -c $CONNS" stays
	# cmtime reports a failed step of a connection and goes on.
	apps_expect "cmtime $SIDE: no step failed" 'fail|error' 0
	if [ $SIDE = client ]; then
		apps_expect "cmtime: the connect step timed" '^connect +: +[0-9.]+ '
		apps_expect "cmtime: the disconnect step timed" '^disconnect +: +[0-9.]+ '
	fi
}

cmtime_run a 7730
cmtime_run b 7731

apps_teardown
finish
