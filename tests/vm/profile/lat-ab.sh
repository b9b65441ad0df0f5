# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1500
# 64 B Send latency A/B in one boot (not a test): perftest's ib_send_lat
# -R between the two guests of run2.sh, on the RNIC the kernel has
# (madcm's m0 on stock guests, siw's s0 on siwko guests), prof.rounds=
# (4) rounds; with prof.ab=PARAM:V1,V2 madcm's module parameter PARAM is
# set to each value in turn, on both guests, before each run, and every
# run is printed with its value ("=== PROF"): the boot-to-boot spread
# of latency under TCG (296 to 488 us for siw's typical in two boots,
# 2026-12-07) is larger than most effects, alternating runs in one boot
# are not. prof.iters= sets the iterations (2,000); prof.bw=1 adds an
# ib_write_bw -R of 64 KiB Writes (prof.bw_iters=, 2,000) to each run.
# prof.cmtime=N adds cmtime with N connections at once to each run (its
# connect, disconnect and whole-cycle rates, as apps-bench.sh computes
# them: one boot's cmtime spread too far to read, 2026-12-07);
# prof.lat=0 leaves ib_send_lat out.
#   MADCM_VM_DIR=/tmp/l MADCM_PAIR_KERNEL_A=stock MADCM_PAIR_KERNEL_B=stock \
#   MADCM_VM_APPEND="prof.rounds=4 prof.ab=rnic_tx_push:0,1" \
#   tests/vm/run2.sh tests/vm/profile/lat-ab.sh </dev/null
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh
. /tests/prof.sh

ROUNDS=4 AB= ITERS=2000 BW=0 BW_ITERS=2000 CMTIME=0 LAT=1
for arg in $(cat /proc/cmdline); do
	case $arg in
	prof.rounds=*) ROUNDS=${arg#*=} ;;
	prof.ab=*) AB=${arg#*=} ;;
	prof.iters=*) ITERS=${arg#*=} ;;
	prof.bw=*) BW=${arg#*=} ;;
	prof.bw_iters=*) BW_ITERS=${arg#*=} ;;
	prof.cmtime=*) CMTIME=${arg#*=} ;;
	prof.lat=*) LAT=${arg#*=} ;;
	esac
done
apps_setup

port=7850
for i in $(seq "$ROUNDS"); do
	for val in $(prof_ab_values "$AB"); do
		prof_ab_set "$AB" "$val"
		tag=$PROF_TAG
		if [ "$CMTIME" -gt 0 ]; then
			apps_run cmtime a "cmtime -b 192.0.2.1 -p $port -c $CMTIME" \
				"cmtime -s 192.0.2.1 -p $port -c $CMTIME" stays
			# rows "STEP : total_ms max_ms min_us us_per_conn"; a
			# failed step would make the rates up
			if [ $SIDE = client ] && [ $RC -eq 0 ] && ! grep -qE 'fail|error' $OUT; then
				rates=$(prof_cmtime_rates "$CMTIME" $OUT)
				echo "=== PROF $DEV cmtime-$CMTIME$tag round $i: $rates conn/s"
			fi
			port=$((port + 1))
		fi
		if [ "$LAT" = 1 ]; then
			apps_run ib_send_lat a "ib_send_lat -R -F -d $DEV -p $port -s 64 -n $ITERS" \
				"ib_send_lat -R -F -d $DEV -p $port -s 64 -n $ITERS 192.0.2.1"
			if [ $SIDE = client ] && [ $RC -eq 0 ]; then
				# bytes iterations t_min t_max t_typical t_avg ...
				row=$(grep -E "^ *64 +$ITERS +[0-9]" $OUT | tail -1)
				echo "=== PROF $DEV ib_send_lat-64B$tag round $i: typical $(echo "$row" | awk '{ print $5 }') avg $(echo "$row" | awk '{ print $6 }') us"
			fi
			port=$((port + 1))
		fi
		[ "$BW" = 1 ] || continue
		apps_run ib_write_bw a "ib_write_bw -R -F -d $DEV -p $port -s 65536 -n $BW_ITERS" \
			"ib_write_bw -R -F -d $DEV -p $port -s 65536 -n $BW_ITERS 192.0.2.1"
		if [ $SIDE = client ] && [ $RC -eq 0 ]; then
			# bytes iterations BW_peak BW_average MsgRate
			row=$(grep -E "^ *65536 +$BW_ITERS +[0-9]" $OUT | tail -1)
			echo "=== PROF $DEV ib_write_bw-64KiB$tag round $i: $(echo "$row" | awk '{ print $4 }') MB/s"
		fi
		port=$((port + 1))
	done
done

apps_teardown
finish
