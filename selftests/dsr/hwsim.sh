#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DSR over real 802.11 ad hoc frames: four mac80211_hwsim radios in one
# IBSS, macfilter makes them a line, 1 reaches 4 over 3 hops.
#
#   1 wlan0 ~~~ 2 wlan0 ~~~ 3 wlan0 ~~~ 4 wlan0
#   IBSS "adhoc", 2412 MHz, BSSID 02:11:22:33:44:55; dsr0 over each wlan0
source "$(dirname "$0")/../lib.sh"

require_cmd iw jq ahctl ethtool

test_hwsim_3hops() {
	skip_in_debug_lane "the hub suites run the same DSR code" &&
		return $ksft_skip
	hwsim_setup 4 || return 1
	mf_line && dsr_setup || return 1
	busywait 20000 dsr_ping_ok 1 4 1
	check "1 -> 4: 5 echoes answered" dsr_ping_ok 1 4 5 &&
	check "route 1 -> 4 has 3 hops" test "$(dsr_hops 1 4)" -eq 3
}

ktap_begin 1
run_test "hwsim IBSS: 3-hop ping over DSR" test_hwsim_3hops
ktap_end
