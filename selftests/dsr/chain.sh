#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DSR over chains of 2 to 6 nodes: Route Discovery, then every echo answered
# along the only path; the route cache holds the expected hop count.
#
#   1 --- 2 --- 3 --- ... --- N        (macfilter: each hears its neighbours)
#   eth0 of every node on one hub (bridge); dsr0 carries 10.0.0.i/24
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

chain() {
	local n=$1
	hub_setup "$n" || return 1
	mf_line || return 1
	dsr_setup || return 1
	dsr_ping_ok 1 "$n" 1 || dsr_ping_ok 1 "$n" 1	# discovery may eat one
	check "1 -> $n: 10 echoes answered" dsr_ping_ok 1 "$n" 10 &&
	check "route 1 -> $n has $((n - 1)) hops" \
		test "$(dsr_hops 1 "$n")" -eq $((n - 1)) &&
	check "route $n -> 1 has $((n - 1)) hops" \
		test "$(dsr_hops "$n" 1)" -eq $((n - 1))
}

test_chain2() { chain 2; }
test_chain3() { chain 3; }
test_chain4() { chain 4; }
test_chain6() { chain 6; }

ktap_begin 4
run_test "chain of 2 nodes" test_chain2
run_test "chain of 3 nodes" test_chain3
run_test "chain of 4 nodes" test_chain4
run_test "chain of 6 nodes" test_chain6
ktap_end
