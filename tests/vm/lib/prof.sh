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
