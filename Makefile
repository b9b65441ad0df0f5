# SPDX-License-Identifier: GPL-2.0-only
#
# madcm: the user-facing make targets. Kbuild itself reads ./Kbuild, in
# tree and out of tree alike; this file is only the wrapper.
#
#   make              build madcm.ko against KDIR
#   make install      modules_install (honours INSTALL_MOD_PATH)
#   make check        checkpatch --strict, sparse, W=1 and kernel-doc
#   make kunit        the KUnit suites under kunit.py, sanitizers on
#   make vmtest       tests/vm/*.sh on Debian's stock kernel in QEMU
#   make vmtest-siw   tests/vm/siw/*.sh on the custom siw test kernel
#   make test         all of the above, one "N passed, M failed" line
#   make run          boot the stock kernel, load madcm, show it working
#   make bench        every benchmark in one boot; one table, also in
#                     $(MADCM_CACHE)/bench/results.tsv
#
#   KERNEL=6.12       any target above on Debian's 6.12 line (default 6.1)

SHELL := /bin/bash
MADCM_CACHE ?= $(HOME)/.cache/madcm
export MADCM_CACHE

# The Debian 12 kernel line to build for and boot: KERNEL=6.1 (the default
# for the VM layers) or KERNEL=6.12. See README.md, "Supported kernels".
ifneq ($(KERNEL),)
MADCM_KERNEL := $(KERNEL)
export MADCM_KERNEL
endif

ifeq ($(origin KDIR),undefined)
KDIR := $(shell scripts/kdir.sh)
endif

# Sign at install time only when the kernel's signing key is at hand (a
# distribution's key never is); otherwise install unsigned.
sig_key := $(shell sed -n 's/^CONFIG_MODULE_SIG_KEY="\(.*\)"/\1/p' $(KDIR)/.config 2>/dev/null)
ifeq ($(sig_key),)
install_flags :=
else ifeq ($(wildcard $(KDIR)/$(sig_key) $(sig_key)),)
install_flags := CONFIG_MODULE_SIG_ALL=
endif

.PHONY: all modules install clean check kunit vmtest vmtest-siw test run bench deps

all modules: deps
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(install_flags) modules_install

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

deps:
	@scripts/deps.sh build

check:
	@scripts/check.sh

kunit:
	@scripts/kunit.sh

vmtest:
	@tests/vm/run.sh

vmtest-siw:
	@tests/vm/run-siw.sh

test:
	@scripts/test.sh

run:
	@scripts/run.sh

bench:
	@scripts/bench.sh
