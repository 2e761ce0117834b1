# SPDX-License-Identifier: GPL-2.0
#
#   make                  modules for every installed test kernel, the hooked
#                         orinoco/hostap drivers (build/KVER/drivers) + userspace
#   make KDIR=/path       modules (and drivers, for a 6.1-or-later tree) for that one tree
#   make check [T=suite] [KVERS="6.1.0-56-amd64 ..."]
#   make check-debug [T=suite]   the suites on a KASAN/KMEMLEAK/lockdep/UBSAN kernel
#   make demo | bench | setup | clean | checkpatch

ROOT     := $(CURDIR)
KVERS    ?= $(shell $(ROOT)/scripts/kernels.sh)
export W ?= 1

.PHONY: all modules drivers userspace check check-debug debug-kernel bench demo setup clean checkpatch \
	unit fuzz

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

unit:
	@$(MAKE) -s -C tests/unit check

fuzz:
	@$(MAKE) -s -C tests/unit fuzz-run

check: setup all
	@scripts/check.sh

# builds (once per machine, cached in ~/.cache/ah-stack/debug-kernel) the debug kernel and the
# modules against it with AH_DEBUG=y, then runs the suites in it
check-debug: setup userspace
	@scripts/check.sh --debug

debug-kernel: setup
	@scripts/debug-kernel.sh

demo: setup all
	@scripts/demo.sh

bench: setup all
	@scripts/bench.sh

checkpatch:
	@scripts/checkpatch.sh

clean:
	rm -rf build
	@$(MAKE) -s -C userspace clean
	@$(MAKE) -s -C tests/unit clean
