# SPDX-License-Identifier: GPL-2.0
# The kernel of vmtest-siw boots with what the other scripts need: soft-iWARP
# on a veth end in a network namespace, the rdma_cm user space (librdmacm,
# libibverbs and the siw provider), and madcm.
. /tests/common.sh

# One of the KASAN test kernel's modules, or siw.ko beside madcm.ko
# (stock, in extra/).
check "siw is in this kernel" sh -c "find /lib/modules/$(uname -r) -name siw.ko | grep -q ."
modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
setup_siw
in_ns b /bin/rdma link show
check "siw0 is on veth1" sh -c "/bin/ip netns exec b /bin/rdma link show | grep -q 'siw0/1 .*netdev veth1'"
check "siw0 is active" sh -c "/bin/ip netns exec b /bin/rdma link show | grep -q 'siw0/1 state ACTIVE'"
check "the siw provider is there" [ -e /etc/libibverbs.d/siw.driver ]
check "rdma_cm device node" [ -c /dev/infiniband/rdma_cm ]
check "attach madcm to veth0" cm a attach veth0
check "detach" cm a detach veth0
teardown_siw
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
