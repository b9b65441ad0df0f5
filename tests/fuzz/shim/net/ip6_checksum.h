/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: fuzz_net.h has what the parsers use of <net/ip6_checksum.h>. */
#include "../fuzz_net.h"
