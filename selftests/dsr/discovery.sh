#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Route Discovery features: a non-propagating request answered from a
# neighbour's cache; a gateway's proxy reply; automatic route shortening;
# tshark decodes what we send.  One network for every case; each starts
# from empty route caches and request tables.
#
#   1 --- 2 --- 3 --- 4 --- 5    (macfilter line; captures on the hub
#          \_________/           bridge); 4 also hears 2, and overhears 2
#                                forward 1's packets to 3 (shortening);
#                                2 may be the gateway to 192.168.7.0/24
#                                (a dummy device on 2)
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

setup() {
	hub_setup 5 && mf_line && mf_link 2 4 && dsr_setup
}

# fresh: the shared network as if no node had routed yet
fresh() {
	local i
	shared || return 1
	for ((i = 1; i <= AH_NODES; i++)); do
		dsr "$i" flush dsr0 || return 1
	done
}

# dsr_fwd_after NODE CMD...: how many packets NODE forwarded while CMD ran
dsr_fwd_after() {
	local node=$1 a
	shift
	a=$(dsr_stat "$node" forwarded)
	"$@" >/dev/null 2>&1
	echo $(($(dsr_stat "$node" forwarded) - a))
}

test_nonprop_cache_reply() {
	fresh || return 1
	dsr_ping_ok 2 3 1 || dsr_ping_ok 2 3 1	# 2 learns 3
	local r3 c2
	r3=$(dsr_stat 3 rreq_received)
	c2=$(dsr_stat 2 rrep_from_cache_sent)
	dsr_ping_ok 1 3 1 || dsr_ping_ok 1 3 1
	check "2 answered from its cache" \
		test "$(dsr_stat 2 rrep_from_cache_sent)" -gt "$c2" &&
	check "the request did not go past 2" \
		test "$(dsr_stat 3 rreq_received)" -eq "$r3" &&
	check "1 -> 3 answered" dsr_ping_ok 1 3 3 &&
	check "route 1 -> 3 has 2 hops" test "$(dsr_hops 1 3)" -eq 2
}

test_gateway() {
	fresh || return 1
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

test_shorten() {
	local g4
	fresh || return 1
	g4=$(dsr_stat 4 grat_rrep_sent)
	# 1 starts with the long way, as if 2 -- 4 had just come into range
	dsr 1 route add dsr0 10.0.0.5 via 10.0.0.2 10.0.0.3 10.0.0.4 || return 1
	dsr 5 route add dsr0 10.0.0.1 via 10.0.0.4 10.0.0.3 10.0.0.2 || return 1
	check "route 1 -> 5 has 4 hops first" test "$(dsr_hops 1 5)" -eq 4 &&
	check "1 -> 5 answered" dsr_ping_ok 1 5 3 &&
	check "4 sent a gratuitous reply" \
		test "$(dsr_stat 4 grat_rrep_sent)" -gt "$g4" &&
	check "1 learned the route through 2 -- 4" \
		test "$(dsr_hops 1 5)" -eq 3 &&
	check "at most one per GratReplyHoldoff" \
		test "$(dsr_stat 4 grat_rrep_sent)" -le $((g4 + 2)) &&
	check "1 -> 5 answered over the short route" dsr_ping_ok 1 5 3 &&
	check "3 forwards no more for 1 -> 5" \
		test "$(dsr_fwd_after 3 dsr_ping_ok 1 5 3)" -eq 0
}

# Capture on the hub while 1 -> 3 discovers, acknowledges, forwards.
test_tshark() {
	require_cmd tshark dumpcap
	local cap bad n
	skip_in_debug_lane "tshark decodes the same packets in the other lane" &&
		return $ksft_skip
	fresh || return 1
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
	dsr_decode "$cap" "$cap.txt"
	rm -f "$cap"
	read -r n bad < <(dsr_decode_count "$cap.txt")
	diag "$n DSR packets captured, $bad malformed or with errors"
	cut -d'|' -f2 "$cap.txt" | tr ',' '\n' | sed '/^$/d' | sort | uniq -c |
		while read -r c t; do
			diag "  option type $t: $c"
		done
	check "DSR packets captured" test "$n" -ge 10 &&
	check "all of them decode cleanly" test "$bad" -eq 0 &&
	check "requests, replies, source routes, ack requests, acks seen" \
		test "$(cut -d'|' -f2 "$cap.txt" | tr ',' '\n' | sort -u |
			grep -cxE '1|2|32|96|160')" -eq 5
	local rc=$?
	rm -f "$cap.txt"
	return $rc
}

shared_setup setup
ktap_begin 4
run_case "tshark decodes every DSR packet" test_tshark
run_case "non-propagating request answered from a cache" test_nonprop_cache_reply
run_case "gateway proxy reply for an outside address" test_gateway
run_case "gratuitous reply shortens an overheard route" test_shorten
ktap_end
