#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Each packet delivered and forwarded once.  Acknowledgements get lost:
# 1 misses half of what 2 sends (so it misses 2 forwarding its packets,
# its passive acknowledgements, and retransmits), and 2 misses a third of
# what 3 sends (3's explicit acknowledgements).  A retransmitted copy whose
# first copy got through is acknowledged again but neither forwarded nor
# delivered a second time: ping sees no duplicate reply, and the nodes
# count the copies they held back.
#
#   1 --- 2 --- 3     (macfilter line; 1 hears 2 with loss 50, 2 hears 3
#                      with loss 30)
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

setup() {
	local i
	hub_setup 3 && mf_line && dsr_setup || return 1
	busywait 10000 dsr_ping_ok 1 3 1 || return 1
	# every hop tracked: within maint_holdoff_ms (250 ms) of an
	# acknowledgment a last hop is trusted untracked (RFC 4728 8.3), and
	# half of 2's replies to 1 sent so were lost for good
	for i in 1 2 3; do
		dsr "$i" param set dsr0 maint_holdoff_ms 0 || return 1
	done
	mf 1 del dev eth0 "$(node_mac 2)" &&
		mf 1 add dev eth0 "$(node_mac 2)" loss 50 &&
		mf 2 del dev eth0 "$(node_mac 3)" &&
		mf 2 add dev eth0 "$(node_mac 3)" loss 30
}

sum_stat() {	# NAME: over the three nodes
	echo $(($(dsr_stat 1 "$1") + $(dsr_stat 2 "$1") + $(dsr_stat 3 "$1")))
}

held_back() {	# the copies every node held back
	local i n=0
	for i in 1 2 3; do
		n=$((n + $(dsr_stat "$i" rx_duplicate) + $(dsr_stat "$i" fwd_duplicate)))
	done
	echo "$n"
}

test_once() {
	local out dup h0 h
	shared || return 1
	h0=$(held_back)
	out=$(nsexec 1 ping -n -c 100 -i 0.05 -W 3 "$(node_ip 3)" 2>&1 | tail -3)
	h=$(($(held_back) - h0))
	dup=$(awk '/packets transmitted/ { for (i = 1; i <= NF; i++) if ($i == "duplicates,") print substr($(i - 1), 2) }' <<< "$out")
	diag "$(grep "packets transmitted" <<< "$out")"
	diag "copies held back: $h; maintenance buffer full" \
		"$(sum_stat maint_buffer_full) times, blacklisted" \
		"$(sum_stat blacklist_added), links broken $(sum_stat link_failures)"
	check "ping saw no duplicate reply" test "${dup:-0}" -eq 0 &&
	check "lost acknowledgements made copies, and they were held back" \
		test "$h" -gt 0 &&
	# each hop tries three times: 2's replies reach 1 seven times in eight
	check "at least 75 echoes answered" \
		test "$(awk '/packets transmitted/ { print $4 }' <<< "$out")" -ge 75
}

shared_setup setup
ktap_begin 1
run_case "each packet delivered and forwarded once" test_once
ktap_end
