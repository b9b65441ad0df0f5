# SPDX-License-Identifier: GPL-2.0-only
#
# madcm: the user-facing make targets. Kbuild itself reads ./Kbuild, in
# tree and out of tree alike; this file is only the wrapper.
#
#   make              build madcm.ko against KDIR
#   make install      madcm.ko (modules_install, honours INSTALL_MOD_PATH),
#                     its public headers, Module.symvers and manual pages
#                     (honour DESTDIR and PREFIX)
#   make man          section-9 manual pages of the exports, in man/
#   make dkms         register, build and install madcm with DKMS for KVER
#   make dkms-remove  remove it from DKMS again
#   make check        checkpatch --strict, sparse, W=1, kernel-doc, man pages
#   make kunit        the KUnit suites under kunit.py, sanitizers on
#   make vmtest       tests/vm/*.sh on Debian's stock kernel in QEMU
#   make vmtest-siw   tests/vm/siw/*.sh against soft-iWARP: the stock
#                     kernel with siw.ko built from Debian's source
#   make vmtest-siw-kasan  the same on the KASAN test kernel (KASAN,
#                     KFENCE, lockdep; not in make test: testing.rst)
#   make vmtest-kasan the hostile and stress scripts and the NVMe-oF pair
#                     under netem, madcm on the KASAN test kernel
#   make vmpair       tests/vm/pair/*.sh on two guests of the stock kernel
#   make vmpair-apps  rdma-core's applications (tests/vm/pair/3?-apps-*),
#                     perftest included, madcm against madcm (all of
#                     them run in make vmpair too)
#   make vmpair-mixed rdma-core's applications, madcm (stock kernel)
#                     against siw (siw.ko on the stock kernel), both ways
#                     round
#   make vmtest-dkms  dkms builds and installs madcm inside a guest of the
#                     stock kernel, which loads it (not in make test: the
#                     build under TCG takes too long; Documentation/testing.rst)
#   make kunit-kcsan  the MAD and CM KUnit suites on a kernel with KCSAN
#                     (instead of KASAN); opt-in, not in make test
#   make fuzz         the libFuzzer harnesses of tests/fuzz/ (wire parsers
#                     compiled unchanged in user space, ASan and UBSan on),
#                     FUZZ_SECONDS each (default 60): executions, coverage
#                     and crashes per harness
#   make test         the layers above but vmtest-siw-kasan, vmtest-dkms;
#                     one "N passed, M failed" line
#   make soak N=5     the VM layers of make test N rounds, in its two lanes
#                     (SOAK_LAYERS: these in one lane): per script, its
#                     failures and FLAKYs
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
KDIR := $(shell MADCM_KERNEL=$(MADCM_KERNEL) scripts/kdir.sh)
endif

# Sign at install time only when the kernel's signing key is at hand (a
# distribution's key never is); otherwise install unsigned.
sig_key := $(shell sed -n 's/^CONFIG_MODULE_SIG_KEY="\(.*\)"/\1/p' $(KDIR)/.config 2>/dev/null)
ifeq ($(sig_key),)
install_flags :=
else ifeq ($(wildcard $(KDIR)/$(sig_key) $(sig_key)),)
install_flags := CONFIG_MODULE_SIG_ALL=
endif

# Where make install puts what other out-of-tree modules build against.
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf)
PREFIX ?= /usr/local
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
KRELEASE = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
		   $(KDIR)/include/generated/utsrelease.h)
SYMVERSDIR ?= $(PREFIX)/lib/madcm/$(KRELEASE)
# The kernel make dkms builds for: an installed one, the running by default.
KVER ?= $(shell uname -r)

.PHONY: all modules install clean check fuzz kunit kunit-kcsan vmtest vmtest-siw vmtest-siw-kasan vmtest-kasan soak vmpair vmpair-apps vmpair-mixed vmtest-dkms test run bench deps
.PHONY: install-module install-headers install-man man dkms dkms-remove

all modules: deps
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

install: install-module install-headers install-man

# madcm.ko only: the test and sample modules are not installed.
# modules_install installs what modules.order lists (madcm.ko on 6.1,
# madcm.o on 6.12), so it gets a list of madcm alone for the time.
install-module: all
	@[ -n "$(KRELEASE)" ] || { echo "no kernel release in $(KDIR)" >&2; exit 1; }
	mv modules.order modules.order.all
	grep -E '(^|/)madcm\.k?o$$' modules.order.all >modules.order
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(install_flags) modules_install; \
		rc=$$?; mv modules.order.all modules.order; exit $$rc
	install -d $(DESTDIR)$(SYMVERSDIR)
	install -m 0644 Module.symvers $(DESTDIR)$(SYMVERSDIR)/

install-headers:
	install -d $(DESTDIR)$(INCLUDEDIR)/madcm
	install -m 0644 include/madcm/*.h $(DESTDIR)$(INCLUDEDIR)/madcm/

install-man: man
	install -d $(DESTDIR)$(MANDIR)/man9
	install -m 0644 man/*.9 $(DESTDIR)$(MANDIR)/man9/

man:
	@scripts/man.sh man

dkms:
	@scripts/dkms.sh install $(KVER)

dkms-remove:
	@scripts/dkms.sh remove

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf man

deps:
	@scripts/deps.sh build

check:
	@scripts/check.sh

kunit:
	@scripts/kunit.sh

kunit-kcsan:
	@KUNIT_KCSAN=1 scripts/kunit.sh

# FUZZ_SECONDS=N: how long each harness runs (make's variable or the
# environment's).
fuzz:
	@FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60) scripts/fuzz.sh

vmtest:
	@tests/vm/run.sh

vmtest-siw:
	@tests/vm/run-siw.sh

vmtest-siw-kasan:
	@MADCM_SIW_KERNEL=kasan tests/vm/run-siw.sh

vmtest-kasan:
	@tests/vm/run-kasan.sh

vmpair:
	@tests/vm/run2.sh

vmpair-apps:
	@tests/vm/run2.sh tests/vm/pair/3?-apps-*.sh

vmpair-mixed:
	@tests/vm/run-mixed.sh

vmtest-dkms:
	@tests/vm/run-dkms.sh

test:
	@scripts/test.sh

# N=rounds (make's variable or the environment's).
soak:
	@N=$(or $(N),1) scripts/soak.sh

run:
	@scripts/run.sh

bench:
	@scripts/bench.sh
