# SPDX-License-Identifier: GPL-2.0
# make run, two guests: rdma-core's rping, unmodified, between the two
# guests' madcm RNICs; libibverbs opens them through soft-iWARP's user ABI
# (Documentation/rnic_uverbs.rst). Guest a serves, guest b pings five
# times with -V: the server Reads the client's buffer and Writes it back,
# the client checks every byte. tests/vm/pair/30-apps-rping.sh is the test.
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh

apps_setup
apps_run demo-rping a "rping -s -v -V -a 192.0.2.1 -p 7700 -C 5" \
	"rping -c -v -V -a 192.0.2.1 -p 7700 -C 5"
apps_teardown
finish
