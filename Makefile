# SPDX-License-Identifier: GPL-2.0
#
#   make                  modules for every installed test kernel, the hooked
#                         orinoco/hostap drivers (build/KVER/drivers) + userspace
#   make KDIR=/path       modules (and drivers, for a 6.1-or-later tree) for that one tree
#   make check [T=suite] [KVERS="6.1.0-56-amd64 ..."]
#   make check-debug [T=suite]   the suites on a KASAN/KMEMLEAK/lockdep/UBSAN kernel
#   make soak [SOAK_N=30] [SOAK_MINUTES=M] [SOAK_SCRIPTS="dsr/fig8 ..."] [SOAK_DEBUG=0]
#                         the load and churn scripts in a loop on each test
#                         kernel, then on the debug kernel (docs/testing.md)
#   make demo | bench | setup | clean | checkpatch
#   make demo SCENARIO=FILE|rwp:... NODES=N [DEMO_SECS= FLOWS= RATE= SIZE=]
#                         any scenario with DSR, CBR flows and the MANET
#                         metrics (docs/scenario.md; scripts/demo-scale-guest.sh)
#   make install [DESTDIR=/stage] [PREFIX=/usr] [KVERS="..."|KDIR=/path]
#                         modules of build/KVER into /lib/modules/KVER/extra/ah-stack
#                         (depmod when DESTDIR is empty), ahctl and dsrd, the
#                         unit, the config (if none), ah-scenario and its
#                         scenarios (tools/), man pages, completion;
#                         INSTALL_MOD_STRIP=1 strips the modules' debug info;
#                         USERSPACE_DIR=build/arm64/userspace for cross-built tools
#   make uninstall        the same files, from every kernel; keeps /etc/dsrd
#   make cross-arm64      modules and tools for Debian's arm64 6.1 kernel
#                         (scripts/cross-arm64.sh, docs/embedded.md)
#   AH_WERROR=y           -Werror for the modules (set by check, check-debug,
#                         soak, demo, bench and cross-arm64)

ROOT     := $(CURDIR)
KVERS    ?= $(shell $(ROOT)/scripts/kernels.sh)
export W ?= 1

# The project's own builds, for its tests, stop at any warning (-Werror in
# kmod/common/Kbuild.flags); make, make install and DKMS on a user's kernel
# and compiler do not.  make AH_WERROR=y asks for it anywhere.
check check-debug soak demo bench cross-arm64: export AH_WERROR = y

.PHONY: all modules drivers userspace check check-debug soak debug-kernel bench demo setup clean checkpatch \
	unit fuzz install uninstall cross-arm64

all: modules drivers userspace

# drivers: orinoco and hostap from linux-source-6.1 with the transit-drop hooks
# (docs/transit-drivers.md), after the modules: they link against the engine's
# symbols in build/KVER/Module.symvers
ifdef KDIR
modules:
	@scripts/build-modules.sh $(KDIR)
drivers: modules
	+@scripts/build-drivers.sh $(KDIR)
else
modules:
	@test -n "$(KVERS)" || { echo "no test kernel installed: run scripts/setup.sh"; exit 1; }
	@for k in $(KVERS); do scripts/build-modules.sh /lib/modules/$$k/build $$k || exit 1; done
drivers: modules
	+@for k in $(KVERS); do scripts/build-drivers.sh /lib/modules/$$k/build $$k || exit 1; done
endif

userspace:
	@$(MAKE) -s -C userspace

setup:
	@scripts/setup.sh

unit: userspace
	@$(MAKE) -s -C tests/unit check

fuzz:
	@$(MAKE) -s -C tests/unit fuzz-run

check: setup all
	@scripts/check.sh

# builds (once per machine, cached in ~/.cache/ah-stack/debug-kernel) the debug kernel and the
# modules against it with AH_DEBUG=y, then runs the suites in it
check-debug: setup userspace
	@scripts/check.sh --debug

# both lanes run even if the first fails; the exit status is any failure
soak: setup all
	@rc=0; scripts/check.sh --soak || rc=1; \
	if [ "$(SOAK_DEBUG)" != 0 ]; then scripts/check.sh --soak --debug || rc=1; fi; \
	exit $$rc

debug-kernel: setup
	@scripts/debug-kernel.sh

demo: setup all
	@scripts/demo.sh

bench: setup all
	@scripts/bench.sh

checkpatch:
	@scripts/checkpatch.sh

cross-arm64:
	@scripts/cross-arm64.sh

# ---- install --------------------------------------------------------------
# Nothing is built here: run make (or make modules userspace KVERS=...) first,
# as the user who builds; make install then copies what is in build/KVER.
PREFIX        ?= /usr
SBINDIR       ?= $(PREFIX)/sbin
BINDIR        ?= $(PREFIX)/bin
DATADIR       ?= $(PREFIX)/share/ah-stack
MANDIR        ?= $(PREFIX)/share/man
BASHCOMPDIR   ?= $(PREFIX)/share/bash-completion/completions
UNITDIR       ?= /lib/systemd/system
USERSPACE_DIR ?= userspace
INSTALL       ?= install
DEPMOD        ?= /sbin/depmod
STRIP         ?= $(CROSS_COMPILE)strip
# the kernels to install for: KDIR's, else KVERS, else the running one
ifdef KDIR
# (UTS_RELEASE, as scripts/build-modules.sh names build/KVER)
INSTALL_KVERS = $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null), \
	$(shell $(MAKE) -s --no-print-directory -C $(KDIR) kernelrelease))
else
INSTALL_KVERS = $(or $(strip $(KVERS)),$(shell uname -r))
endif

install:
	@for f in $(USERSPACE_DIR)/ahctl/ahctl $(USERSPACE_DIR)/dsrd/dsrd; do \
		test -x $$f || { echo "$$f is not built: run make first"; exit 1; }; \
	done
	@for k in $(INSTALL_KVERS); do \
		kos=$$(find build/$$k/kmod -name '*.ko' 2>/dev/null | sort); \
		test -n "$$kos" || { echo "no modules in build/$$k: run make modules KVERS=$$k first"; exit 1; }; \
	done
	@set -e; for k in $(INSTALL_KVERS); do \
		d=$(DESTDIR)/lib/modules/$$k/extra/ah-stack; \
		echo "  INSTALL $$d"; \
		rm -rf $$d; $(INSTALL) -d $$d; \
		$(INSTALL) -m 0644 $$(find build/$$k/kmod -name '*.ko' | sort) $$d/; \
		if [ -n "$(INSTALL_MOD_STRIP)" ]; then $(STRIP) --strip-debug $$d/*.ko; fi; \
		if [ -z "$(DESTDIR)" ]; then echo "  DEPMOD  $$k"; $(DEPMOD) -a $$k; fi; \
	done
	$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)/etc/dsrd \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(DATADIR)/scenarios
	$(INSTALL) -m 0755 $(USERSPACE_DIR)/ahctl/ahctl $(USERSPACE_DIR)/dsrd/dsrd $(DESTDIR)$(SBINDIR)/
	$(INSTALL) -m 0755 tools/ah-scenario $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 0644 scenarios/*.toml $(DESTDIR)$(DATADIR)/scenarios/
	sed 's|/usr/sbin/dsrd|$(SBINDIR)/dsrd|g' dist/dsrd.service > $(DESTDIR)$(UNITDIR)/dsrd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/dsrd.service
	@if [ -e $(DESTDIR)/etc/dsrd/dsrd.conf ]; then \
		echo "  KEEP    $(DESTDIR)/etc/dsrd/dsrd.conf"; \
	else \
		$(INSTALL) -m 0640 dist/dsrd.conf.example $(DESTDIR)/etc/dsrd/dsrd.conf; \
		echo "  INSTALL $(DESTDIR)/etc/dsrd/dsrd.conf (edit it: man 5 dsrd.conf)"; \
	fi
	$(INSTALL) -m 0644 docs/ah-scenario.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 0644 docs/ahctl.8 docs/dsrd.8 $(DESTDIR)$(MANDIR)/man8/
	$(INSTALL) -m 0644 docs/dsrd.conf.5 docs/trace.5 $(DESTDIR)$(MANDIR)/man5/
	$(INSTALL) -m 0644 dist/ahctl.bash-completion $(DESTDIR)$(BASHCOMPDIR)/ahctl

# every kernel's copy goes, whatever KVERS says; the config stays
uninstall:
	@for d in $(DESTDIR)/lib/modules/*/extra/ah-stack; do \
		[ -d "$$d" ] || continue; \
		echo "  RM      $$d"; rm -rf "$$d"; rmdir --ignore-fail-on-non-empty "$${d%/ah-stack}"; \
		k=$${d%/extra/ah-stack}; k=$${k##*/}; \
		if [ -z "$(DESTDIR)" ]; then echo "  DEPMOD  $$k"; $(DEPMOD) -a $$k; fi; \
	done
	rm -f $(DESTDIR)$(SBINDIR)/ahctl $(DESTDIR)$(SBINDIR)/dsrd \
		$(DESTDIR)$(BINDIR)/ah-scenario \
		$(DESTDIR)$(UNITDIR)/dsrd.service \
		$(DESTDIR)$(MANDIR)/man1/ah-scenario.1 \
		$(DESTDIR)$(MANDIR)/man8/ahctl.8 $(DESTDIR)$(MANDIR)/man8/dsrd.8 \
		$(DESTDIR)$(MANDIR)/man5/dsrd.conf.5 $(DESTDIR)$(MANDIR)/man5/trace.5 \
		$(DESTDIR)$(BASHCOMPDIR)/ahctl
	rm -rf $(DESTDIR)$(DATADIR)
	@[ ! -e $(DESTDIR)/etc/dsrd/dsrd.conf ] || echo "  KEEP    $(DESTDIR)/etc/dsrd/dsrd.conf"

clean:
	rm -rf build
	@$(MAKE) -s -C userspace clean
	@$(MAKE) -s -C tests/unit clean
