# SPDX-License-Identifier: GPL-2.0
# Helpers for the scripts that drive madcm_rdmacm_test.ko, the in-kernel
# rdma_cm ULP (tests/tools/rdmacm_test.c); source after common.sh.
# Private data and event lines are as the module prints them in conns:
# "events=TYPE/STATUS[/HEX],...".

RT=/debug/madcm_rdmacm_test

# rt [NS] COMMAND...: one command to the ULP (from namespace NS if the
# first word is "ns:NAME"); fails when the command did.
rt() {
	case $1 in
	ns:*)
		local ns=${1#ns:}
		shift
		/bin/ip netns exec "$ns" sh -c "echo '$*' > $RT/ctl"
		;;
	*) echo "$*" >$RT/ctl ;;
	esac
}

# rt_line NAME: the connection's line in conns.
rt_line() {
	grep "^$1 " $RT/conns
}

# rt_field NAME FIELD: one field of a connection.
rt_field() {
	rt_line "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# rt_counter NAME: one of the module's counters.
rt_counter() {
	sed -n "s/^$1 //p" $RT/counters
}

# rt_requests LISTENER: how many requests the listener has had.
rt_requests() {
	grep "^$1 " $RT/listeners | tr ' ' '\n' | sed -n 's/^requests=//p'
}

# rt_wait NAME EVENT [SECONDS]: until the connection has seen EVENT.
rt_wait() {
	local i=0 max=${3:-60}
	while [ $i -lt $((max * 10)) ]; do
		rt_field "$1" events 2>/dev/null | tr ',' '\n' | grep -q "^$2/" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "no $2 on $1 in ${max} s: $(rt_line "$1")"
	return 1
}

# rt_wait_gone NAME [SECONDS]: until the connection's id was destroyed.
rt_wait_gone() {
	local i=0 max=${2:-60}
	while [ $i -lt $((max * 10)) ]; do
		[ "$(rt_field "$1" id 2>/dev/null)" = destroyed ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "$1 still live after ${max} s: $(rt_line "$1")"
	return 1
}

# rt_expect NAME EVENTS...: the connection's events are exactly one of
# EVENTS (each a whole events= value); prints the line otherwise.
rt_expect() {
	local name=$1 got
	shift
	got=$(rt_field "$name" events)
	for want in "$@"; do
		[ "$got" = "$want" ] && return 0
	done
	echo "$name: events=$got"
	for want in "$@"; do
		echo "$name: expected events=$want"
	done
	return 1
}

# rt_transport DEV: RT_TP=iw for an iWARP RNIC (node type 4), ib for a
# channel adapter (rxe), from sysfs; what rdma_cm's events carry differs.
rt_transport() {
	case $(cat /sys/class/infiniband/$1/node_type) in
	4:*) RT_TP=iw ;;
	*) RT_TP=ib ;;
	esac
	echo "$1: $(cat /sys/class/infiniband/$1/node_type), transport $RT_TP"
}

# rt_pd req|rep|rej HEX: the private data the peer sees when this side
# sends HEX. iWARP carries MPA private data as it is; IB CM messages have
# fixed private data fields that rdma_cm hands up whole, zero padded: the
# REQ's 92 octets less rdma_cm's 36-octet header, the REP's 196, the
# REJ's 148 (IBTA vol. 1, 12.6).
rt_pd() {
	local n=0 out=$2
	[ "$RT_TP" = ib ] || { echo "$2"; return; }
	case $1 in
	req) n=56 ;;
	rep) n=196 ;;
	rej) n=148 ;;
	esac
	while [ ${#out} -lt $((n * 2)) ]; do out=${out}00; done
	echo "$out"
}

# rt_reject_status: the status of REJECTED after a consumer's reject:
# IB's reason 28 (consumer defined), iw_cm's -ECONNREFUSED.
rt_reject_status() {
	if [ "$RT_TP" = ib ]; then echo 28; else echo -111; fi
}

# rt_all_released [LIVE_IDS]: no PD, CQ or QP left and LIVE_IDS ids
# (default 0) still live.
rt_all_released() {
	local ids=${1:-0}
	grep -vE ' 0$' $RT/counters | sed 's/^/  /'
	[ "$(rt_counter ids_live)" = "$ids" ] && [ "$(rt_counter pds)" = 0 ] &&
		[ "$(rt_counter cqs)" = 0 ] && [ "$(rt_counter qps)" = 0 ]
}

# rt_show [PATTERN]: the connections' lines (matching PATTERN), private
# data cut to its first 12 octets for the log.
rt_show() {
	grep "^${1:-}" $RT/conns | sed 's/\(\/[0-9a-f]\{24\}\)[0-9a-f][0-9a-f]*/\1.../g'
}
