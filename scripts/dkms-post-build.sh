#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dkms.conf's POST_BUILD, run by dkms in its build directory once madcm.ko
# is built: keep the build's Module.symvers beside the built module
# (/var/lib/dkms/madcm/<version>/<kernel>/<arch>/), where other
# out-of-tree modules find madcm's symbols (KBUILD_EXTRA_SYMBOLS).
set -e
[ $# -eq 1 ] || { echo "usage: $0 DKMS_MODULE_DIR" >&2; exit 1; }
cp Module.symvers "$1/Module.symvers"
