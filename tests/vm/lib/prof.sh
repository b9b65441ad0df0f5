# SPDX-License-Identifier: GPL-2.0
# The A/B of the profile scripts (tests/vm/profile/): prof.ab=PARAM:V1,V2
# on the kernel command line sets madcm's module parameter PARAM to each
# value in turn before each run, in one boot.

# prof_ab_values AB: the values of AB (PARAM:V1,V2), one a line; "-"
# alone when AB is empty (no A/B).
prof_ab_values() {
	if [ -n "$1" ]; then
		echo "${1#*:}" | tr ',' '\n'
	else
		echo -
	fi
}

# prof_ab_set AB VAL: AB's parameter set to VAL ("-": nothing); PROF_TAG
# becomes what the run's lines name it by (" PARAM=VAL", or empty).
prof_ab_set() {
	local param=${1%%:*}

	PROF_TAG=
	[ "$2" != - ] || return 0
	echo "$2" >/sys/module/madcm/parameters/"$param" ||
		fail "set $param=$2"
	PROF_TAG=" $param=$2"
}

# prof_cmtime_rates N FILE: "connect C disconnect D cycle Y", connections
# per second of cmtime's run with N connections whose output is FILE
# (rows "STEP : total_ms max_ms min_us us_per_conn"): through the
# connect step, the disconnect step and all steps; "-" for a step FILE
# has no time for.
prof_cmtime_rates() {
	awk -v n="$1" 'function rate(t) { return t > 0 ? sprintf("%.1f", n * 1000 / t) : "-" }
		/^[a-z ]+: *[0-9.]+ / {
		split($0, f, ":"); split(f[2], v, " "); all += v[1]
		if ($1 == "connect") c = v[1]
		if ($1 == "disconnect") d = v[1] }
		END { printf "connect %s disconnect %s cycle %s", rate(c), rate(d), rate(all) }' "$2"
}

# ftrace's function_graph tracer on a list of functions, and what it
# saw per function (tests/vm/profile/*-fgraph.sh).
PROF_T=/sys/kernel/tracing

# prof_fgraph_on FUNCS...: trace each of FUNCS (and what it calls among
# them) with its duration, from now; one not traceable is named.
prof_fgraph_on() {
	local f T=$PROF_T

	[ -d $T/options ] || mount -t tracefs tracefs $T 2>/dev/null ||
		{ PROF_T=/sys/kernel/debug/tracing; T=$PROF_T; }
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	: >$T/trace
	: >$T/set_ftrace_filter
	for f in "$@"; do
		echo "$f" >>$T/set_ftrace_filter 2>/dev/null || echo "not traceable: $f"
	done
	echo "traced: $(wc -l <$T/set_ftrace_filter) functions"
	echo 65536 >$T/buffer_size_kb
	echo function_graph >$T/current_tracer
	for o in funcgraph-cpu funcgraph-duration funcgraph-tail; do
		echo 1 >$T/options/$o
	done
	for o in funcgraph-proc funcgraph-overhead funcgraph-irqs; do
		echo 0 >$T/options/$o 2>/dev/null
	done
	echo 1 >$T/tracing_on
}

# prof_fgraph_off: tracing stops; prof_fgraph_report reads what it kept.
prof_fgraph_off() {
	echo 0 >$PROF_T/tracing_on
}

# prof_fgraph_report [N]: the N (40) functions with the most self time:
# calls, total time (traced callees included), self time (without them),
# both per call, and the share of all self time; then the tracer is
# reset. A stack per CPU: a callee's time is its caller's, not its
# caller's own.
prof_fgraph_report() {
	local T=$PROF_T

	grep -h . $T/per_cpu/cpu*/stats 2>/dev/null | grep -E '^(entries|overrun)'
	# Calls, total and self time per function: a stack per CPU; a callee's
	# time is its caller's but not its caller's own.
	printf "%-30s %9s %12s %12s %9s %9s %6s\n" function calls "total_us" \
		"self_us" us/call self/call self%
	awk '
	function name(s) {
		if (match(s, /\/\* [^*]+ \*\//))
			s = substr(s, RSTART + 3, RLENGTH - 6)
		sub(/^[ }]*/, "", s)
		sub(/\(.*/, "", s)
		sub(/ \[[a-z0-9_]+\]$/, "", s)
		return s
	}
	function dur(s) {
		if (match(s, /[0-9]+\.[0-9]+ us/))
			return substr(s, RSTART, RLENGTH - 3) + 0
		return -1
	}
	index($0, "|") {
		l = substr($0, 1, index($0, "|") - 1)
		r = substr($0, index($0, "|") + 1)
		if (!match(l, /[0-9]+\)/))
			next
		c = substr(l, RSTART, RLENGTH - 1)
		d = dur(l)
		sub(/^ +/, "", r)
		sub(/ +$/, "", r)
		if (r ~ /\) \{$/) {
			sp[c]++
			st[c "," sp[c]] = name(r)
			ch[c "," sp[c]] = 0
			next
		}
		if (d < 0)
			next
		if (r ~ /^\}/) {
			n = name(r)
			if (sp[c] > 0) {
				self = d - ch[c "," sp[c]]
				sp[c]--
			} else {
				self = d
			}
		} else if (r ~ /\);$/) {
			n = name(r)
			self = d
		} else {
			next
		}
		calls[n]++
		tot[n] += d
		own[n] += self
		all += self
		if (sp[c] > 0)
			ch[c "," sp[c]] += d
	}
	END {
		for (n in calls)
			printf "%-30s %9d %12.0f %12.0f %9.2f %9.2f %6.1f\n", n,
				calls[n], tot[n], own[n], tot[n] / calls[n],
				own[n] / calls[n], 100 * own[n] / (all ? all : 1)
	}' $T/trace | sort -k4 -n -r | head -"${1:-40}"
	echo nop >$T/current_tracer
	: >$T/set_ftrace_filter
	echo 1408 >$T/buffer_size_kb
}
