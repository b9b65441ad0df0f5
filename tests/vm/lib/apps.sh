# SPDX-License-Identifier: GPL-2.0
# rdma-core's applications between the two guests of run2.sh, for
# tests/vm/pair/3x-apps-*.sh; source after common.sh and ib.sh (it
# sources pair.sh). Each guest puts one iWARP RNIC on its eth0, the one
# its kernel has (run2.sh's MADCM_PAIR_KERNEL_A/B):
#   stock kernel: a madcm device, "rdma link add m0 type madcm netdev
#                 eth0", which libibverbs sees through siw's user ABI
#                 (madcm's rnic_uverbs; Documentation/rnic_uverbs.rst);
#   siw kernel (or stock with siw.ko, run2.sh's siwko): a soft-iWARP
#                 device, "rdma link add s0 type siw netdev eth0".
# APPS_DEV (madcm, siw or rxe) overrides the choice.
#
# The programs are rdma-core's and perftest's, unmodified: a run passes
# when the program exits 0 and printed its own success output, on both
# guests. Every program runs in both roles: the server on guest a and the
# client on guest b, then the other way round.

PAIR_RXE=0
. /tests/pair.sh
if [ "$PAIR_MADCM" = 1 ]; then
	APPS_DEV=${APPS_DEV:-madcm}
else
	APPS_DEV=${APPS_DEV:-siw}
fi
# The last barrier number used (pair_barrier takes 0 to 76; two a run).
APPS_N=0
APPS_TIMEOUT=${APPS_TIMEOUT:-120}

# apps_setup: the wire, the RNIC (DEV), and both guests' RNICs usable by
# libibverbs; when one is not, the script fails here, naming the guest
# and the device, rather than running programs that cannot start (their
# peers would wait out every timeout).
apps_setup() {
	local mine theirs
	pair_setup
	# User verbs and rdma_cm's user interface (built in on the siw
	# kernel, where modprobe finds them in modules.builtin).
	load_modules ib_uverbs rdma_ucm
	case $APPS_DEV in
	madcm)
		DEV=m0
		/bin/rdma link add m0 type madcm netdev eth0 ||
			fail "rdma link add m0 type madcm netdev eth0"
		;;
	siw)
		DEV=s0
		# Debian's kernel with siw.ko (run2.sh's siwko). libcrc32c
		# finds its crc32c only when it is loaded already: the
		# kernel's own request_module has no /sbin/modprobe here.
		[ -e /sys/module/siw ] || load_modules crc32c_generic siw
		/bin/rdma link add s0 type siw netdev eth0 ||
			fail "rdma link add s0 type siw netdev eth0"
		;;
	rxe)
		DEV=rxe0
		load_modules rdma_rxe
		/bin/rdma link add rxe0 type rxe netdev eth0 ||
			fail "rdma link add rxe0 type rxe netdev eth0"
		;;
	*)
		fail "APPS_DEV=$APPS_DEV: madcm, siw or rxe"
		finish
		;;
	esac
	echo "guest $ROLE ($PAIR_KERNEL kernel): $APPS_DEV device $DEV"
	/bin/rdma link show
	# The peer learns this guest's verdict from an address of its own.
	if [ $ROLE = a ]; then mine=91 theirs=92; else mine=92 theirs=91; fi
	if ibv_devinfo -d $DEV >/tmp/devinfo 2>&1; then
		ok "libibverbs opens $DEV"
		/bin/ip addr add 192.0.2.$mine/24 dev eth0
	else
		cat /tmp/devinfo
		fail "libibverbs does not open $DEV ($APPS_DEV, guest $ROLE): no user verbs on it"
	fi
	grep -E 'hca_id|transport|state|active_mtu' /tmp/devinfo
	pair_barrier 0
	# A slow guest (the siw kernel's KASAN under TCG, a loaded host)
	# may take more than a second or two to answer: five tries.
	local try seen=no
	for try in 1 2 3 4 5; do
		if ping -c 1 -W 3 192.0.2.$theirs >/dev/null 2>&1; then
			seen=yes
			break
		fi
	done
	[ $seen = yes ] ||
		fail "the peer's RNIC is not usable by libibverbs (see its log)"

	if [ "$failures" -ne 0 ]; then
		apps_teardown
		finish
	fi
}

apps_teardown() {
	[ $APPS_RETRIES -eq 0 ] ||
		echo "apps: $APPS_RETRIES run(s) retried after perftest's refused data connection"
	[ "$DEV" != m0 ] || madcm_host_tcp_check $DEV
	/bin/rdma link delete $DEV || fail "rdma link delete $DEV"
	pair_teardown
}

# apps_wait_listen COMMAND PID: wait (up to 60 s) until the server PID,
# started with COMMAND, has its rdma_cm id listening on the port COMMAND
# names ("-p PORT"), as "rdma resource show cm_id" shows it, so that the
# client never comes before the listener.
apps_wait_listen() {
	local port i
	port=$(echo "$1" | sed -n 's/.* -p \([0-9][0-9]*\).*/\1/p')
	[ -n "$port" ] || return 0
	for i in $(seq 600); do
		/bin/rdma resource show cm_id 2>/dev/null |
			grep -qE "state LISTEN .*:$port( |\$)" && return 0
		kill -0 "$2" 2>/dev/null || return 0
		sleep 0.1
	done
	echo "no rdma_cm id listening on port $port after 60 s:"
	/bin/rdma resource show cm_id
}

# The retries of runs refused as apps_refused() describes: how many in
# this script, how many of the current run, and the last signal address
# used (192.0.2.3 to .90; one per verdict).
APPS_RETRIES=0
APPS_RUN_RETRIES=0
APPS_SIGNAL=2
APPS_MAX_RETRIES=${APPS_MAX_RETRIES:-2}

# apps_refused: the client's last run (OUT) ended in perftest's
# rdma_cm connect being refused: its SYN was answered with a RST because
# nothing listened on the port. With -R, perftest's server accepts its
# control connection, destroys that listener, and only after exchanging
# versions binds and listens again for the data connection; the client
# connects its data QP right after the same exchange, without waiting for
# the server. On slow guests its SYN can arrive in that gap, and any
# host's TCP (siw's, madcm's, a hardware RNIC's) refuses it. perftest
# retries then, but Debian's 4.5-0.17 crashes in that retry (fixed
# upstream). How the refusal shows depends on the client's RNIC:
#   madcm: its CM connects in the background, and rdma_cm reports
#          RDMA_CM_EVENT_REJECTED with -111 (ECONNREFUSED);
#   siw:   its iw_connect connects a kernel TCP socket there and then,
#          so rdma_connect() itself fails (perftest prints only "Failed
#          to connect through RDMA CM"); the kernel's TCP counted the
#          refused SYN in AttemptFails (APPS_ATTEMPT_FAILS, read by
#          apps_run before the client started).
apps_refused() {
	grep -q 'Failed to connect RDMA CM events' $OUT || return 1
	grep -q 'RDMA_CM_EVENT_REJECTED; error: -111' $OUT && return 0
	[ "$APPS_DEV" = siw ] &&
		grep -q 'Failed to connect through RDMA CM' $OUT &&
		[ "$(apps_attempt_fails)" -gt "$APPS_ATTEMPT_FAILS" ]
}

# apps_attempt_fails: this guest's TCP AttemptFails (RFC 4022's
# tcpAttemptFails: connects that ended in SYN-SENT or SYN-RECEIVED, a
# refused one among them).
apps_attempt_fails() {
	awk '$1 == "Tcp:" && !h { split($0, n); h = 1; next }
	     $1 == "Tcp:" { for (i = 2; i <= NF; i++) if (n[i] == "AttemptFails") print $i }' \
		/proc/net/snmp
}
APPS_ATTEMPT_FAILS=0

# apps_run NAME SERVER_ROLE SERVER_COMMAND CLIENT_COMMAND [stays|retry]:
# one run of a program pair: SERVER_COMMAND on guest SERVER_ROLE,
# listening before both guests meet at a barrier, CLIENT_COMMAND on the
# other after it. Sets SIDE (server or client), RC (the exit status; 124
# when it timed out) and OUT (the program's output, also printed). With
# "stays" the server is one that serves until it is stopped (cmtime's):
# the client tells it at a second barrier when it is done, and the
# server passes (RC 0) when it is still serving then; it is stopped.
# With "retry" a run the client saw refused (apps_refused) is run again,
# both programs afresh, up to APPS_MAX_RETRIES times a run, as a user would;
# each retry is printed ("RETRY") and counted in APPS_RETRIES, and only
# the last run is judged. A refused connect is retried for perftest's
# race alone: every other failure is judged as it is.
apps_run() {
	local name=$1 srole=$2 scmd=$3 ccmd=$4 stays=${5:-} pid again
	OUT=/tmp/$name.out
	APPS_N=$((APPS_N + 2))
	if [ $ROLE = "$srole" ]; then
		SIDE=server
		echo "$name: server on $DEV: $scmd"
		timeout "$APPS_TIMEOUT" sh -c "exec $scmd" >$OUT 2>&1 &
		pid=$!
		apps_wait_listen "$scmd" $pid
		pair_barrier $((APPS_N - 1))
		if [ "$stays" = retry ]; then
			# the client's signal: its run was refused; this
			# server then waits for a connection that will not come
			while kill -0 $pid 2>/dev/null; do
				if ping -c 1 -W 1 192.0.2.$((APPS_SIGNAL + 1)) >/dev/null 2>&1; then
					kill $pid
					break
				fi
			done
			wait $pid
			RC=$?
		elif [ "$stays" = stays ]; then
			pair_barrier $APPS_N
			if kill -0 $pid 2>/dev/null; then
				kill $pid
				wait $pid
				RC=0
			else
				wait $pid
				RC=$?
				echo "$name: the server ended before the client was done"
				[ $RC -ne 0 ] || RC=1
			fi
		else
			wait $pid
			RC=$?
		fi
	else
		SIDE=client
		pair_barrier $((APPS_N - 1))
		echo "$name: client on $DEV: $ccmd"
		APPS_ATTEMPT_FAILS=$(apps_attempt_fails)
		timeout "$APPS_TIMEOUT" sh -c "exec $ccmd" >$OUT 2>&1
		RC=$?
		[ "$stays" = stays ] && pair_barrier $APPS_N
	fi
	sed "s/^/$name $SIDE: /" $OUT
	if [ "$stays" = retry ]; then
		# the verdict: the client shows its signal address before
		# the barrier, the server looks for it after
		APPS_SIGNAL=$((APPS_SIGNAL + 1))
		again=0
		if [ $SIDE = client ] && [ $RC -ne 0 ] && apps_refused &&
		   [ $APPS_RUN_RETRIES -lt $APPS_MAX_RETRIES ]; then
			/bin/ip addr add 192.0.2.$APPS_SIGNAL/24 dev eth0
			again=1
		fi
		pair_barrier $APPS_N
		if [ $SIDE = server ] &&
		   ping -c 1 -W 2 192.0.2.$APPS_SIGNAL >/dev/null 2>&1; then
			again=1
		fi
		if [ $again = 1 ]; then
			APPS_RETRIES=$((APPS_RETRIES + 1))
			APPS_RUN_RETRIES=$((APPS_RUN_RETRIES + 1))
			echo "RETRY $name $SIDE: the client's connect was refused (perftest's server was not listening yet); run again ($APPS_RETRIES retries in this script)"
			apps_run "$@"
			return
		fi
		APPS_RUN_RETRIES=0
	fi
	check "$name $SIDE on $APPS_DEV: exit status 0 (got $RC)" [ $RC -eq 0 ]
}

# apps_ip ROLE: the address of guest ROLE (a or b).
apps_ip() {
	[ "$1" = a ] && echo 192.0.2.1 || echo 192.0.2.2
}

# apps_expect DESCRIPTION EXTENDED_REGEX [COUNT]: this side's output of
# the last run has a line matching (COUNT of them, when given).
apps_expect() {
	local n
	n=$(grep -cE "$2" $OUT)
	if [ -n "${3:-}" ]; then
		check "$1 ($n lines, want $3)" [ "$n" -eq "$3" ]
	else
		check "$1" [ "$n" -gt 0 ]
	fi
}
