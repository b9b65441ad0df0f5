# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1500
# perftest's ib_send_bw, ib_write_bw, ib_read_bw and ib_send_lat between
# the two guests' RNICs (tests/vm/lib/apps.sh), connected with rdma_cm
# (-R), in both roles. The client ends with its results table: the header
# ("#bytes #iterations ...") and a row for SIZE bytes, ITERS iterations;
# both sides exit 0 (perftest exits non-zero on any failed completion).
# A client refused because perftest's server was not listening yet for
# its data connection (perftest's own race: apps_refused in
# tests/vm/lib/apps.sh) is run again, at most twice a run, with a RETRY
# line; nothing else is retried.
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh

SIZE=4096
ITERS=${APPS_PERF_ITERS:-500}
for p in ib_send_bw ib_write_bw ib_read_bw ib_send_lat; do
	check "$p is there" [ -x /bin/$p ]
done
apps_setup

# perf_run PROGRAM SERVER_ROLE PORT
perf_run() {
	local prog=$1 srole=$2 port=$3 srv opts
	srv=$(apps_ip "$srole")
	opts="-R -F -d $DEV -p $port -s $SIZE -n $ITERS"
	apps_run $prog-$srole "$srole" "$prog $opts" "$prog $opts $srv" retry
	if [ $SIDE = client ]; then
		apps_expect "$prog: the results header" '^ *#bytes +#iterations'
		apps_expect "$prog: the results row ($SIZE B, $ITERS iterations)" "^ *$SIZE +$ITERS +[0-9]"
	fi
}

port=7740
for p in ib_send_bw ib_write_bw ib_read_bw ib_send_lat; do
	perf_run $p a $port
	perf_run $p b $((port + 1))
	port=$((port + 2))
done

apps_teardown
finish
