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
#   make test         all of the above, one "N passed, M failed" line
#   make run          boot the stock kernel, load madcm, show it working

SHELL := /bin/bash
MADCM_CACHE ?= $(HOME)/.cache/madcm
export MADCM_CACHE

ifeq ($(origin KDIR),undefined)
KDIR := $(shell scripts/kdir.sh)
endif

.PHONY: all modules install clean check kunit vmtest test run deps

all modules: deps
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

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

test:
	@scripts/test.sh

run:
	@scripts/run.sh
