# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 1100
# 21-rdmacm-ulp-madcm.sh with both RNICs' streams on madcm's own TCP
# engine (rnic_host_tcp=0, rnic/qp_tcp.c) instead of the host's TCP, the
# default (rnic/qp_sock.c): the same scenarios, clean and under 5% netem
# loss, scenario 4b with the CM taking its own TIME-WAIT over, then the
# device deleted with a connection live. Kept while the engine is (issue
# 31 retires it).
RDMACM_DEV=madcm
MADCM_HOST_TCP=0
. /tests/rdmacm-ulp-pair.sh
