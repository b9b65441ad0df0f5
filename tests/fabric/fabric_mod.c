// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm_test_fabric.ko: the in-kernel test fabrics as a module of their
 * own, for the test tools and the sample (tests/tools, samples). The KUnit
 * build links the same files into madcm instead, without this one.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("madcm test fabrics: MAD loopback ports and a CM wire");
MODULE_LICENSE("GPL");
