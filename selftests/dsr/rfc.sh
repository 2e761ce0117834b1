#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# RFC 4728 rules that only odd links or other implementations exercise:
# the Blacklist of a unidirectional link (section 4.6), a Route Request
# that carries a payload (8.2.2), an Acknowledgement Request that comes
# with an Acknowledgement (8.3.3), the Route Error for a salvaged packet
# (8.3.4).  Node 1 crafts what our own nodes never send
# (selftests/lib/dsrcraft.py).
#
#          2
#        /   \
#       1     4        macfilter allow lists give these four links
#        \   /
#          3
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool tcpdump

CRAFT="$AH_ROOT/selftests/lib/dsrcraft.py"

diamond() {
	hub_setup 4 && load_module macfilter &&
	mf_links 1 2 3 && mf_links 2 1 4 && mf_links 3 1 4 && mf_links 4 2 3 &&
	dsr_setup
}

# every link of the diamond heard both ways, every table empty
fresh() {
	local i a b
	shared || return 1
	for a in 1 2 3 4; do
		for b in 1 2 3 4; do
			((a == b || a + b == 5)) && continue
			# (an entry already there is refused, and stays)
			mf "$a" add dev eth0 "$(node_mac "$b")" 2>/dev/null
		done
	done
	# every last hop tracked (no maint_holdoff_ms)
	for ((i = 1; i <= AH_NODES; i++)); do
		dsr "$i" flush dsr0 all &&
		dsr "$i" param set dsr0 maint_holdoff_ms 0 ||
			return 1
	done
}

craft() {	# NODE MODE ARG...: dsrcraft.py in NODE's namespace
	local n=$1
	shift
	nsexec "$n" "$PYTHON" "$CRAFT" "$@"
}

# the middle node 1's route to 4 goes through
via() {
	dsr 1 -j route show dsr0 |
		jq -r --arg d "$(node_ip 4)" \
			'[.[] | select(.dst == $d)] | min_by(.hopcount) | .hops[0]'
}

# NODE's Blacklist entry for NEIGHBOUR: none, questionable or probable
bl_state() {
	dsr "$1" -j neigh show dsr0 |
		jq -r --arg a "$(node_ip "$2")" \
			'[.[] | select(.addr == $a) | .blacklist // "none"][0] // "none"'
}

bl_is() { [[ $(bl_state "$1" "$2") == "$3" ]]; }

# a new Route Discovery 1 -> 4: every route and request forgotten
rediscover() {
	local i
	for ((i = 1; i <= AH_NODES; i++)); do
		dsr "$i" flush dsr0 routes reqtable || return 1
	done
	dsr_ping_ok 1 4 1 || dsr_ping_ok 1 4 1
}

# 2 stops hearing 4; 4 still hears 2.  4's replies to requests that 2
# forwards never arrive: 4 blacklists 2 and takes no request from it while
# that is "probable"; when it is "questionable" 4 probes 2 with a Route
# Request of TTL 1, and the answer, once 2 hears 4 again, clears it.
test_blacklist() {
	local bl fail pr
	fresh || return 1
	mf 2 del dev eth0 "$(node_mac 4)" || return 1
	dsr_ping_ok 1 4 1 || dsr_ping_ok 1 4 1
	check "1 reaches 4" dsr_ping_ok 1 4 2 || return 1
	check "4 blacklisted 2 (its reply over 4 -> 2 was never acknowledged)" \
		busywait 10000 bl_is 4 2 probable &&
	check "1's route to 4 goes through 3" test "$(via)" == "$(node_ip 3)" ||
		return 1
	bl=$(dsr_stat 4 rreq_blacklisted)
	fail=$(dsr_stat 4 link_failures)
	check "a new discovery works" rediscover &&
	check "4 discarded the request 2 forwarded" \
		dsr_stat_ge 4 rreq_blacklisted $((bl + 1)) &&
	check "and tried no reply over the link" \
		test "$(dsr_stat 4 link_failures)" -eq "$fail" &&
	check "1's route goes through 3 again" test "$(via)" == "$(node_ip 3)" ||
		return 1
	# after 5 s "questionable": the next request from 2 is probed
	check "the entry turned questionable" busywait 15000 bl_is 4 2 questionable ||
		return 1
	pr=$(dsr_stat 4 blacklist_probes)
	check "a discovery after that works" rediscover &&
	check "4 probed 2" busywait 3000 dsr_stat_ge 4 blacklist_probes $((pr + 1)) &&
	check "2, deaf to 4, did not answer: still listed" \
		bl_is 4 2 questionable || return 1
	mf 2 add dev eth0 "$(node_mac 4)" || return 1
	sleep 1.2	# the probe interval (DSR_BL_PROBE_MS)
	check "a discovery once 2 hears 4 again" rediscover &&
	check "2 answered the probe: the entry is gone" \
		busywait 5000 bl_is 4 2 none &&
	check "4 counted it cleared" test "$(dsr_stat 4 blacklist_cleared)" -ge 1
}

# A request from 1 for 4 that carries a datagram: 2 and 3 forward it with
# the datagram, 4 delivers it once and answers the request.
test_rreq_payload() {
	local out pid got f2 f3 dup rrep
	fresh || return 1
	f2=$(dsr_stat 2 rreq_forwarded)
	f3=$(dsr_stat 3 rreq_forwarded)
	dup=$(dsr_stat 4 rx_duplicate)
	rrep=$(dsr_stat 4 rrep_sent)
	out=$(mktemp)
	nsexec 4 "$PYTHON" "$AH_ROOT/selftests/lib/udp.py" recv 5301 8 2 \
		> "$out" &
	pid=$!
	busywait 5000 udp_listening 4 5301 || { kill $pid; return 1; }
	craft 1 rreqdata eth0 "$(node_mac 1)" "$(node_ip 1)" "$(node_ip 4)" \
		900 5301 "carried by a route request" || { kill $pid; return 1; }
	wait $pid
	got=$(cat "$out")
	rm -f "$out"
	diag "4 received (datagrams bytes): ${got:-nothing}"
	check "2 and 3 forwarded the request" \
		test $(($(dsr_stat 2 rreq_forwarded) - f2)) -ge 1 -a \
			$(($(dsr_stat 3 rreq_forwarded) - f3)) -ge 1 &&
	check "4 delivered the datagram exactly once" \
		test "$got" == "1 26" &&
	check "the second copy counted as a duplicate" \
		busywait 3000 dsr_stat_ge 4 rx_duplicate $((dup + 1)) &&
	check "4 answered the request" \
		busywait 3000 dsr_stat_ge 4 rrep_sent $((rrep + 1))
}

# 1 sends 2 an Acknowledgement with an Acknowledgement Request: 2, the
# Acknowledgement's destination, answers the request.
test_ack_with_request() {
	local sent
	fresh || return 1
	dsr_ping_ok 1 2 1 || return 1
	sent=$(dsr_stat 2 ack_sent)
	craft 1 ackreq eth0 "$(node_mac 1)" "$(node_mac 2)" "$(node_ip 1)" \
		"$(node_ip 2)" || return 1
	check "2 acknowledged" busywait 3000 dsr_stat_ge 2 ack_sent $((sent + 1))
}

# A packet from 10.0.0.50 to 4 that 1 salvaged (Address[1] = 1, Salvage
# 1) reaches 2, whose link to 4 is gone: 2's Route Error goes to 1, the
# salvaging node, with Salvage 1 -- not to the packet's source.
test_rerr_salvaged() {
	local cap pid fail lines rerr
	fresh || return 1
	rerr=$(dsr_stat 1 rerr_received)
	dsr_ping_ok 2 4 1 || dsr_ping_ok 2 4 1 || return 1
	mf 4 del dev eth0 "$(node_mac 2)" || return 1
	fail=$(dsr_stat 2 link_failures)
	cap=$(mktemp -u --suffix=.pcap)
	nsexec 1 tcpdump -i eth0 -U -w "$cap" 'ip proto 48' >/dev/null 2>&1 &
	pid=$!
	busywait 10000 test -s "$cap" || { kill $pid; return 1; }
	craft 1 salvaged eth0 "$(node_mac 1)" "$(node_mac 2)" 10.0.0.50 \
		"$(node_ip 4)" 1 "$(node_ip 1)" "$(node_ip 2)" || return 1
	busywait 10000 dsr_stat_ge 2 link_failures $((fail + 1))
	busywait 5000 dsr_stat_ge 1 rerr_received $((rerr + 1))
	sleep 0.5
	kill $pid
	wait $pid 2>/dev/null
	lines=$("$PYTHON" "$CRAFT" rerrs "$cap")
	rm -f "$cap"
	diag "route errors 1 saw (source destination salvage unreachable):"
	diag "${lines:-none}"
	check "2 found its link to 4 broken" \
		dsr_stat_ge 2 link_failures $((fail + 1)) &&
	check "2's route error went to 1 with the packet's Salvage" \
		grep -qx "$(node_ip 2) $(node_ip 1) 1 $(node_ip 4)" <<< "$lines" &&
	check "1 received it" dsr_stat_ge 1 rerr_received $((rerr + 1))
}

shared_setup diamond
ktap_begin 4
run_case "a unidirectional link: blacklisted, probed, cleared" test_blacklist
run_case "a route request's payload reaches its target once" test_rreq_payload
run_case "an ack request that comes with an ack is answered" test_ack_with_request
run_case "the route error of a salvaged packet goes to its salvager" test_rerr_salvaged
ktap_end
