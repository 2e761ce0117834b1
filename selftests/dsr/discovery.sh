#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Route Discovery features: a non-propagating request answered from a
# neighbour's cache; a gateway's proxy reply; tshark decodes what we send.
#
#   1 --- 2 --- 3        (macfilter line; captures on the hub bridge);
#                         2 may be the gateway to
#                         192.168.7.0/24 (a dummy device on 2)
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

setup() {
	hub_setup 3 && mf_line && dsr_setup
}

test_nonprop_cache_reply() {
	setup || return 1
	dsr_ping_ok 2 3 1 || dsr_ping_ok 2 3 1	# 2 learns 3
	local r3
	r3=$(dsr_stat 3 rreq_received)
	dsr_ping_ok 1 3 1 || dsr_ping_ok 1 3 1
	check "2 answered from its cache" \
		test "$(dsr_stat 2 rrep_from_cache_sent)" -ge 1 &&
	check "the request did not go past 2" \
		test "$(dsr_stat 3 rreq_received)" -eq "$r3" &&
	check "1 -> 3 answered" dsr_ping_ok 1 3 3 &&
	check "route 1 -> 3 has 2 hops" test "$(dsr_hops 1 3)" -eq 2
}

test_gateway() {
	setup || return 1
	nsexec 2 ip link add gw0 type dummy &&
	nsexec 2 ip addr add 192.168.7.1/24 dev gw0 &&
	nsexec 2 ip link set gw0 up || return 1
	dsr 2 param set dsr0 gateway 1 subnet 10.0.0.0/24 || return 1
	nsexec 1 ip route add 192.168.7.0/24 dev dsr0 || return 1
	nsexec 1 ping -c 1 -W 3 -q 192.168.7.1 >/dev/null 2>&1
	check "1 reaches 192.168.7.1 through gateway 2" \
		nsexec 1 ping -c 3 -i 0.2 -W 2 -q 192.168.7.1 &&
	check "2 sent a gateway reply" \
		test "$(dsr_stat 2 rrep_gateway_sent)" -ge 1 &&
	check "1 cached it as external" \
		test "$(dsr 1 -j route show dsr0 | jq '[.[] | select(.dst == "192.168.7.1" and .external)] | length')" -ge 1
}

# Capture on the hub while the chain discovers, acknowledges, forwards.
test_tshark() {
	require_cmd tshark dumpcap
	local cap bad n
	setup || return 1
	cap=$(mktemp -u --suffix=.pcap)
	# dumpcap: tshark itself takes too long to start under TCG
	ip netns exec "$AH_HUB_NS" dumpcap -q -i ahhub -w "$cap" \
		-f "ip proto 48" >/dev/null 2>&1 &
	local pid=$!
	busywait 30000 test -s "$cap" || return 1
	dsr_ping_ok 1 3 1 || dsr_ping_ok 1 3 1
	dsr_ping_ok 1 3 5
	sleep 1
	kill $pid; wait $pid 2>/dev/null
	n=$(tshark -r "$cap" -Y dsr 2>/dev/null | wc -l)
	bad=$(tshark -r "$cap" -Y '_ws.malformed || _ws.expert.severity >= "error"' \
		2>/dev/null | wc -l)
	diag "$n DSR packets captured, $bad malformed or with errors"
	tshark -r "$cap" -T fields -e dsr.option.type 2>/dev/null |
		tr ',' '\n' | sort | uniq -c | while read -r c t; do
			diag "  option type $t: $c"
		done
	check "DSR packets captured" test "$n" -ge 10 &&
	check "all of them decode cleanly" test "$bad" -eq 0 &&
	check "requests, replies, source routes, ack requests, acks seen" \
		test "$(tshark -r "$cap" -T fields -e dsr.option.type 2>/dev/null |
			tr ',' '\n' | sort -u | grep -cxE '1|2|32|96|160')" -eq 5
}

ktap_begin 3
run_test "non-propagating request answered from a cache" test_nonprop_cache_reply
run_test "gateway proxy reply for an outside address" test_gateway
run_test "tshark decodes every DSR packet" test_tshark
ktap_end
