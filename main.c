// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm: a MAD agent layer and an iWARP connection manager.
 * Module entry points and the debugfs root; each core starts itself, and
 * the software RNIC (rnic/) starts after the CM it runs on.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include "madcm.h"
#include "irdma_cm/cm_main.h"
#include "rnic/rnic.h"

struct dentry *madcm_debugfs_root;

static int __init madcm_init(void)
{
	int ret;

	madcm_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	ret = madcm_mad_init();
	if (ret)
		goto err_debugfs;
	ret = madcm_cm_init();
	if (ret)
		goto err_mad;
	ret = madcm_rnic_init();
	if (ret)
		goto err_cm;
	pr_info("madcm: loaded\n");
	return 0;

err_cm:
	madcm_cm_exit();
err_mad:
	madcm_mad_exit();
err_debugfs:
	debugfs_remove_recursive(madcm_debugfs_root);
	return ret;
}

static void __exit madcm_exit(void)
{
	madcm_rnic_exit();
	madcm_cm_exit();
	madcm_mad_exit();
	debugfs_remove_recursive(madcm_debugfs_root);
	madcm_debugfs_root = NULL;
	pr_info("madcm: unloaded\n");
}

module_init(madcm_init);
module_exit(madcm_exit);

MODULE_DESCRIPTION("MAD agent layer and iWARP connection manager");
MODULE_LICENSE("GPL");
MODULE_SOFTDEP("pre: ib_core");
