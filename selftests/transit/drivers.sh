#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The real PIO drivers with the transit hooks: orinoco and hostap from
# Debian's linux-source-6.1, patched at build time (make drivers,
# docs/transit-drivers.md), load into this kernel after the engine, link
# to its three symbols, and unload.  There is no Hermes or Prism card in
# the guest, so nothing probes: what is tested is that the modules build
# for this kernel, resolve their symbols and come and go cleanly.
#
#   orinoco_transit.ko <- orinoco.ko <- orinoco_{pci,plx,tmd,nortel,cs,usb}.ko,
#                         spectrum_cs.ko
#                      <- hostap.ko  <- hostap_{pci,plx,cs}.ko
source "$(dirname "$0")/../lib.sh"

DRV=$AH_ROOT/build/$(uname -r)/drivers
# core first: each bus module depends on its core
MODS="orinoco orinoco_pci orinoco_plx orinoco_tmd orinoco_nortel orinoco_cs
      spectrum_cs orinoco_usb hostap hostap_pci hostap_plx hostap_cs"

# load_driver NAME: its kernel dependencies by modprobe, then ours by path
load_driver() {
	local ko=$DRV/$1.ko d
	[[ -f $ko ]] || { diag "$1.ko not built"; return 1; }
	for d in $(modinfo -F depends "$ko" | tr , ' '); do
		grep -q "^$d " /proc/modules && continue
		modprobe "$d" || { diag "cannot load $d for $1"; return 1; }
	done
	insmod "$ko"
}

test_load() {
	local m loaded=() rc=0
	# the engine alone, so that its users are the drivers
	unload_module piosim || return 1
	load_module orinoco_transit || return 1
	for m in $MODS; do
		if load_driver "$m"; then
			loaded=("$m" "${loaded[@]}")
		else
			diag "FAILED: insmod $m"
			rc=1
		fi
	done
	diag "loaded: ${loaded[*]}"
	for m in orinoco hostap orinoco_usb hostap_pci; do
		check "$m uses the engine's symbols" \
			test -e /sys/module/orinoco_transit/holders/$m || rc=1
	done
	check "the engine cannot go while they use it" \
		not rmmod orinoco_transit 2>/dev/null || rc=1
	for m in "${loaded[@]}"; do
		rmmod "$m" || { diag "FAILED: rmmod $m"; rc=1; }
	done
	check "the engine unloads after them" rmmod orinoco_transit || rc=1
	return $rc
}

# the debug kernel has no PCI, PCMCIA, USB or wireless extensions:
# build-drivers.sh skips it
if [[ ! -d $DRV ]] && skip_in_debug_lane "no hooked drivers for this kernel"; then
	ktap_begin 1
	ktap_skip "hooked orinoco and hostap load, link to the engine, unload" \
		"debug lane"
	ktap_end
	exit 0
fi
ktap_begin 1
run_case "hooked orinoco and hostap load, link to the engine, unload" test_load
ktap_end
