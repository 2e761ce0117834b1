#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Several slaves, each known by its own address (RFC 4728 section 8.4): a
# Route Request that leaves by another slave than it came in on records
# both slaves' addresses; a relay named twice in a row skips its own
# second address; acknowledgments and Route Errors name the address the
# route used, so the link a Route Error reports is the one in the caches;
# a next hop whose forwarding cannot be overheard is asked for explicit
# acknowledgments (section 8.3.2's table of next hops); a slave's address
# is a destination like the home address; without slave
# addresses a node is one address, as before.
#
#   1 --- 2 === 3 --- 4     hub line (macfilter) 1-2 and 3-4; 2 and 3 hear
#                           each other only over a veth pair of their own,
#                           eth1, which carries 10.0.1.2 and 10.0.1.3
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

A2=10.0.1.2
A3=10.0.1.3

setup() {
	local i
	hub_setup 4 && load_module macfilter &&
		mf_links 1 2 && mf_links 2 1 && mf_links 3 4 && mf_links 4 3 || return 1
	ip -n "$(ns 2)" link add eth1 type veth peer name eth1 netns "$(ns 3)" ||
		return 1
	dsr_setup || return 1
	for i in 2 3; do
		nsexec "$i" ip link set eth1 up &&
			nsexec "$i" ip link set eth1 master dsr0 || return 1
	done
	for i in 1 4; do
		nsexec "$i" ip route add 10.0.1.0/24 dev dsr0 || return 1
	done
	if_addrs add
}

# if_addrs add|del: the eth1 addresses of 2 and 3, and clean caches
if_addrs() {
	local i
	nsexec 2 ip addr "$1" "$A2/32" dev eth1 &&
		nsexec 3 ip addr "$1" "$A3/32" dev eth1 || return 1
	for i in 1 2 3 4; do
		dsr "$i" flush dsr0 || return 1
	done
}

# routes NODE DST: the paths NODE's cache holds to DST, one per line
routes() {
	dsr "$1" -j route show dsr0 |
		jq -r --arg d "$2" '.[] | select(.dst == $d) | .hops | join(" ")'
}

test_record() {
	local r1 r4 cap= bad n
	shared || return 1
	if ! skip_in_debug_lane "tshark decodes in the other lane" &&
	   command -v dumpcap >/dev/null; then
		cap=$(mktemp -u --suffix=.pcap)
		nsbg 3 dumpcap -q -i eth1 -w "$cap" -f "ip proto 48" >/dev/null 2>&1
		local pid=$!
		busywait 30000 test -s "$cap" || return 1
	fi
	busywait 15000 dsr_ping_ok 1 4 1
	dsr_ping_ok 1 4 3
	r1=$(routes 1 "$(node_ip 4)")
	r4=$(routes 4 "$(node_ip 1)")
	diag "1's routes to 4: $(tr '\n' ';' <<< "$r1")"
	diag "4's routes to 1: $(tr '\n' ';' <<< "$r4")"
	check "1 -> 4 through both of 2's and 3's addresses" \
		grep -qx "10.0.0.2 $A2 $A3 10.0.0.3 10.0.0.4" <<< "$r1" &&
	check "4 -> 1 learned from the request, the same way back" \
		grep -qx "10.0.0.3 $A3 $A2 10.0.0.2 10.0.0.1" <<< "$r4" || return 1
	[[ -n $cap ]] || return 0
	sleep 1
	kill "$pid"; wait "$pid" 2>/dev/null
	dsr_decode "$cap" "$cap.txt"
	rm -f "$cap"
	read -r n bad < <(dsr_decode_count "$cap.txt")
	rm -f "$cap.txt"
	diag "tshark on 3's eth1: $n DSR packets, $bad malformed or with errors"
	check "tshark decodes every DSR packet on the veth pair" \
		test "$n" -ge 5 -a "$bad" -eq 0
}

# explicit acknowledgments over the veth pair (nobody overhears there)
test_acks() {
	local lf a rx
	shared || return 1
	busywait 15000 dsr_ping_ok 1 4 1
	lf=$(dsr_stat 2 link_failures)
	a=$(dsr_stat 2 ack_received)
	rx=$(dsr_stat 2 retransmissions)
	check "20 echoes 1 -> 4 answered" dsr_ping_ok 1 4 20 || return 1
	dsr 2 -j neigh show dsr0 | jq -c '.[]' | while read -r l; do diag "2: $l"; done
	check "2 got acknowledgments from $A3" \
		test "$(dsr_stat 2 ack_received)" -gt "$a" &&
	check "  and no link of 2's broke" \
		test "$(dsr_stat 2 link_failures)" -eq "$lf" &&
	diag "2 got $(($(dsr_stat 2 ack_received) - a)) acknowledgments" &&
	rx=$(($(dsr_stat 2 retransmissions) - rx))
	diag "2 retransmitted $rx"
	# 3 forwards 1's packets on the hub, where 2 cannot overhear them:
	# after one passive ack waited for in vain, 2 asks explicitly
	check "  at most 2 of them (not one per hold-off)" test "$rx" -le 2 &&
	check "  and 2 asks $A3 for explicit acks" \
		test "$(dsr 2 -j neigh show dsr0 |
			jq -r --arg a "$A3" '.[] | select(.addr == $a) | .ack_explicit')" = true &&
	check "2's neighbour $A3 is on eth1" \
		test "$(dsr 2 -j neigh show dsr0 |
			jq -r --arg a "$A3" '.[] | select(.addr == $a) | .slave')" = \
		"$(nsexec 2 cat /sys/class/net/eth1/ifindex)"
}

test_if_dest() {
	local r i
	shared || return 1
	# (1's route to 4 passes 10.0.1.3: it would need no discovery)
	for i in 1 2 3 4; do
		dsr "$i" flush dsr0 || return 1
	done
	check "1 pings 3's slave address $A3" \
		busywait 15000 nsexec 1 ping -c 1 -W 2 -q "$A3" &>/dev/null &&
	r=$(routes 1 "$A3") &&
	diag "1's routes to $A3: $(tr '\n' ';' <<< "$r")" &&
	check "  over 2's two addresses" \
		grep -qx "10.0.0.2 $A2 $A3" <<< "$r" &&
	check "4 pings 2's slave address $A2" \
		busywait 15000 nsexec 4 ping -c 1 -W 2 -q "$A2" &>/dev/null
}

# the link A2 -> A3 breaks: 2's Route Error names it as the routes do
test_rerr() {
	local e rc=0
	shared || return 1
	busywait 15000 dsr_ping_ok 1 4 1 || return 1
	e=$(dsr_stat 1 rerr_received)
	mf 3 attach dev eth1 mode deny &&
		mf 3 add dev eth1 "$(nsexec 2 cat /sys/class/net/eth1/address)" ||
		return 1
	nsexec 1 ping -c 3 -i 0.3 -W 1 -q "$(node_ip 4)" >/dev/null 2>&1
	check "1 got a Route Error" \
		busywait 10000 dsr_stat_ge 1 rerr_received $((e + 1)) &&
	diag "1's routes to 4 now: $(routes 1 "$(node_ip 4)" | tr '\n' ';')" &&
	check "  and holds no route over $A2 -> $A3" \
		test -z "$(routes 1 "$(node_ip 4)" | grep "$A2 $A3")" || rc=1
	mf 3 detach dev eth1
	((rc == 0)) &&
	check "1 -> 4 again once the link is back" \
		busywait 20000 dsr_ping_ok 1 4 1
}

test_no_if_addrs() {
	local r rc=0
	shared || return 1
	if_addrs del || return 1
	check "1 -> 4 without slave addresses" busywait 15000 dsr_ping_ok 1 4 1 &&
	r=$(routes 1 "$(node_ip 4)") &&
	diag "1's routes to 4: $(tr '\n' ';' <<< "$r")" &&
	check "  one address per node" grep -qx "10.0.0.2 10.0.0.3 10.0.0.4" <<< "$r" ||
		rc=1
	if_addrs add || rc=1
	return $rc
}

shared_setup setup
ktap_begin 5
run_case "requests record both addresses where they change slaves" test_record
run_case "acknowledged over the slave addresses" test_acks
run_case "a slave's address is a destination" test_if_dest
run_case "a Route Error names the link as the route does" test_rerr
run_case "without slave addresses, one address per node" test_no_if_addrs
ktap_end
