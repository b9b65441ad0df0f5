# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1500
# rdma-core's applications as benchmarks (figures, not tests) between the
# two guests of run2.sh, each on the RNIC its kernel has
# (tests/vm/lib/apps.sh). scripts/bench.sh runs it on two stock guests
# (madcm against madcm) and on two siwko guests (siw against siw on the
# same Debian kernel, siw.ko built from its source), the same wire, and
# puts the figures side by side, madcm/siw:
#   cmtime, CONNS (50) connections at once: connections per second through
#     the connect step and through the disconnect step (CONNS over the
#     step's total time), and through the whole cycle (every step, from
#     create id to destroy);
#   ib_send_lat -R, 64 B Sends: perftest's typical and average latency;
#   ib_write_bw -R, 64 KiB Writes: perftest's average bandwidth;
#   tcp-limit-1MiB: the kernel's TCP on the same wire (iperf3), the
#     link's limit, in each pair's boot.
# Guest a serves, guest b is the client and prints each figure as
#   === APPS NAME VALUE UNIT
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh
. /tests/prof.sh

CONNS=${BENCH_CMTIME_CONNS:-50}
LAT_ITERS=${BENCH_LAT_ITERS:-2000}
BW_ITERS=${BENCH_BW_ITERS:-2000}
apps_setup

# figure NAME VALUE UNIT: one figure of the client; "-" when VALUE is
# not a number (the program's output had none), and that said.
figure() {
	[ $SIDE = client ] || return 0
	case $2 in
	'' | . | *[!0-9.]*)
		echo "apps: no figure for $1 (got \"$2\"): see the output above"
		echo "=== APPS $1 - $3" ;;
	*) echo "=== APPS $1 $2 $3" ;;
	esac | tee -a /tmp/apps-figures
}

# The link's limit: the kernel's own TCP between the same two guests,
# iperf3 moving 64 MiB in 1 MiB writes from guest b to guest a (its
# receiver's rate, Mbit/s over 8: MB/s).
if [ -x /bin/iperf3 ]; then
	APPS_N=$((APPS_N + 2))
	if [ $ROLE = a ]; then
		SIDE=server
		timeout 300 /bin/iperf3 -s -1 -p 7840 >/tmp/iperf3.out 2>&1 &
		sleep 1
		pair_barrier $((APPS_N - 1))
		wait
	else
		SIDE=client
		pair_barrier $((APPS_N - 1))
		timeout 300 /bin/iperf3 -c 192.0.2.1 -p 7840 -n 64M -l 1M -f m >/tmp/iperf3.out 2>&1
		sed 's/^/iperf3: /' /tmp/iperf3.out
		figure tcp-limit-1MiB "$(awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) ~ /^Mbits/) v = $i }
			END { if (v != "") printf "%.2f", v / 8 }' /tmp/iperf3.out)" MB/s
	fi
else
	echo "=== APPS tcp-limit-1MiB MB/s"
fi

# cmtime: rows "STEP : total_ms max_ms min_us us_per_conn".
apps_run cmtime a "cmtime -b 192.0.2.1 -p 7830 -c $CONNS" "cmtime -s 192.0.2.1 -p 7830 -c $CONNS" stays
# A connection whose step failed would make the rates up: no figures then.
apps_expect "cmtime $SIDE: no step failed" 'fail|error' 0
if [ $SIDE = client ] && [ $RC -eq 0 ] && ! grep -qE 'fail|error' $OUT; then
	# "connect C disconnect D cycle Y" (tests/vm/lib/prof.sh)
	set -- $(prof_cmtime_rates $CONNS $OUT)
	figure "cmtime-connect-rate" "$2" conn/s
	figure "cmtime-disconnect-rate" "$4" conn/s
	figure "cmtime-cycle-rate" "$6" conn/s
fi

# perftest: the results row follows the "#bytes #iterations" header.
# perftest TAG PORT: ib_send_lat -R, 64 B, and ib_write_bw -R, 64 KiB;
# figures named with TAG appended.
perftest() {
	local tag=$1 port=$2 row

	apps_run ib_send_lat$tag a "ib_send_lat -R -F -d $DEV -p $port -s 64 -n $LAT_ITERS" \
		"ib_send_lat -R -F -d $DEV -p $port -s 64 -n $LAT_ITERS 192.0.2.1"
	if [ $SIDE = client ] && [ $RC -eq 0 ]; then
		# bytes iterations t_min t_max t_typical t_avg ...
		row=$(grep -E "^ *64 +$LAT_ITERS +[0-9]" $OUT | tail -1)
		figure ib_send_lat-64B-typical$tag "$(echo "$row" | awk '{ print $5 }')" us
		figure ib_send_lat-64B-avg$tag "$(echo "$row" | awk '{ print $6 }')" us
	fi
	apps_run ib_write_bw$tag a "ib_write_bw -R -F -d $DEV -p $((port + 1)) -s 65536 -n $BW_ITERS" \
		"ib_write_bw -R -F -d $DEV -p $((port + 1)) -s 65536 -n $BW_ITERS 192.0.2.1"
	if [ $SIDE = client ] && [ $RC -eq 0 ]; then
		# bytes iterations BW_peak BW_average MsgRate
		row=$(grep -E "^ *65536 +$BW_ITERS +[0-9]" $OUT | tail -1)
		figure ib_write_bw-64KiB$tag "$(echo "$row" | awk '{ print $4 }')" MB/s
	fi
}
perftest "" 7831

apps_teardown
finish
