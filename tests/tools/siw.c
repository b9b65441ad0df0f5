// SPDX-License-Identifier: GPL-2.0-only
/*
 * A module named "siw" that does nothing: Debian's stock kernels have no
 * soft-iWARP (siw.ko), and VM 60 checks with this one that madcm refuses
 * a module of that name while a madcm RNIC speaks siw's user ABI, and
 * refuses such a device while it is loaded (rnic/uverbs.c). Built out of
 * tree only, for the VM tests; never installed.
 */
#include <linux/module.h>

static int __init fake_siw_init(void)
{
	return 0;
}

static void __exit fake_siw_exit(void)
{
}

module_init(fake_siw_init);
module_exit(fake_siw_exit);
MODULE_DESCRIPTION("madcm VM tests: a module named siw that does nothing");
MODULE_LICENSE("GPL");
