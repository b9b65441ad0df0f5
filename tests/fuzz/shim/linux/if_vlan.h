/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: fuzz_net.h has what the parsers use of <linux/if_vlan.h>. */
#include "../fuzz_net.h"
