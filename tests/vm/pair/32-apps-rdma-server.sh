# SPDX-License-Identifier: GPL-2.0
# vm-timeout: 600
# rdma-core's rdma_server and rdma_client (rdmacm-utils, librdmacm's
# synchronous calls: rdma_getaddrinfo, rdma_create_ep, rdma_post_send/
# recv, rdma_get_send_comp/recv_comp) between the two guests' RNICs
# (tests/vm/lib/apps.sh), in both roles: a 16-byte message each way.
# Each ends with "rdma_server: end 0" / "rdma_client: end 0".
. /tests/common.sh
. /tests/ib.sh
. /tests/apps.sh

check "rdma_server is there" [ -x /bin/rdma_server ]
check "rdma_client is there" [ -x /bin/rdma_client ]
apps_setup

# server_run SERVER_ROLE PORT
server_run() {
	local srole=$1 port=$2 srv
	srv=$(apps_ip "$srole")
	apps_run rdma_server-$srole "$srole" \
		"rdma_server -s $srv -p $port" \
		"rdma_client -s $srv -p $port"
	apps_expect "rdma_$SIDE: end 0" "^rdma_$SIDE: end 0\$"
}

server_run a 7720
server_run b 7721
server_run a 7722

apps_teardown
finish
