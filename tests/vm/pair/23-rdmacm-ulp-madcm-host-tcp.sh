# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1100
# 21-rdmacm-ulp-madcm.sh with both RNICs' streams on the host's own TCP
# (rnic_host_tcp=1, rnic/qp_sock.c): at the CM's hand-off each connection
# is loaded into a kernel TCP socket in repair mode, and the CM's steering
# entry goes once the socket is hashed. The same scenarios, clean and
# under 5% netem loss, then the device deleted with a connection live;
# host_tcp counts the streams the host's TCP carried, host_tcp_fail
# stays 0. In scenario 4b the host keeps the first connection's
# TIME-WAIT; the second connection from the same port takes its steering
# entry over.
RDMACM_DEV=madcm
MADCM_HOST_TCP=1
. /tests/rdmacm-ulp-pair.sh
