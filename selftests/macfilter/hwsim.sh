#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real 802.11 ad hoc frames: three mac80211_hwsim radios in one IBSS.
# Listing the middle radio's MAC on one end cuts that link only.
#
#        A(1) wlan0  ~~~  B(2) wlan0  ~~~  C(3) wlan0
#        IBSS "adhoc", 2412 MHz, BSSID 02:11:22:33:44:55
source "$(dirname "$0")/../lib.sh"

require_cmd iw ahctl

ping_ok() { nsexec "$1" ping -c 2 -W 3 -q "$(node_ip "$2")" >/dev/null 2>&1; }

test_hwsim_cut() {
	load_module macfilter || return 1
	hwsim_setup 3 || return 1
	check "A reaches B before" busywait 15000 ping_ok 1 2 &&
	check "A reaches C before" busywait 15000 ping_ok 1 3 &&
	mf 1 attach dev wlan0 && mf 1 add dev wlan0 "$(node_mac 2)" &&
	check "A no longer reaches B" not ping_ok 1 2 &&
	check "A still reaches C" ping_ok 1 3 &&
	check "B still reaches C" ping_ok 2 3 &&
	check "drops counted on A" test "$(mf_entry_dropped 1 "$(node_mac 2)")" -gt 0
}

ktap_begin 1
run_test "hwsim IBSS: middle radio cut on one end" test_hwsim_cut
ktap_end
