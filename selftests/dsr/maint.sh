#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Route Maintenance: hop-by-hop acknowledgments (traced), and a link cut
# during a transfer in a diamond.
#
#          2
#        /   \
#       1     4        macfilter allow lists give these four links
#        \   /
#          3
#
# (the acknowledgment test uses a line 1 --- 2 --- 3)
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

links() {	# NODE NEIGHBOUR...
	local n=$1 m
	shift
	mf "$n" attach dev eth0 mode allow || return 1
	for m in "$@"; do
		mf "$n" add dev eth0 "$(node_mac "$m")" || return 1
	done
}

diamond() {
	hub_setup 4 && load_module macfilter &&
	links 1 2 3 && links 2 1 4 && links 3 1 4 && links 4 2 3 &&
	dsr_setup
}

# the middle node 1's route to 4 goes through
via() {
	dsr 1 -j route show dsr0 |
		jq -r --arg d "$(node_ip 4)" \
			'[.[] | select(.dst == $d)] | min_by(.hopcount) | .hops[0]'
}

sum_stat() {	# NAME: over all nodes
	local i s=0
	for ((i = 1; i <= AH_NODES; i++)); do
		s=$((s + $(dsr_stat "$i" "$1")))
	done
	echo "$s"
}

TRACEFS=/sys/kernel/tracing

tracefs() {
	[[ -d $TRACEFS/events ]] ||
		mount -t tracefs nodev "$TRACEFS" 2>/dev/null || return 1
	[[ -d $TRACEFS/events/dsr ]]
}

trace_has() {	# EVENT [PATTERN]
	grep "$1:" "$TRACEFS/trace" | grep -q -- "${2:-}"
}

# Acknowledgements, and the per-packet tracepoints while they happen.
test_acks() {
	local traced=0
	hub_setup 3 && mf_line && dsr_setup || return 1
	if tracefs; then
		traced=1
		echo > "$TRACEFS/trace"
		echo 1 > "$TRACEFS/events/dsr/enable"
	fi
	check "1 -> 3 answered" dsr_ping_ok 1 3 5 || return 1
	diag "passive acks $(sum_stat passive_acks), explicit acks" \
		"$(sum_stat ack_received), retransmissions $(sum_stat retransmissions)"
	check "2 acknowledged passively (1 overheard 2 forward)" \
		test "$(dsr_stat 1 passive_acks)" -ge 1 &&
	check "last hops acknowledged explicitly" \
		test "$(sum_stat ack_received)" -ge 1 &&
	check "nothing in the maintenance buffers at rest" \
		busywait 3000 test "$(dsr 1 -j buffer show dsr0 | jq length)" -eq 0 ||
		return 1
	# 3 stops hearing 2: 2 retransmits to 3, then gives up on the link
	mf 3 del dev eth0 "$(node_mac 2)" || return 1
	nsexec 1 ping -c 1 -W 3 -q "$(node_ip 3)" >/dev/null 2>&1
	check "2 retransmitted and found the link broken" \
		busywait 5000 test "$(dsr_stat 2 link_failures)" -ge 1 || return 1
	if ((!traced)); then
		diag "SKIP tracepoints: no dsr events in tracefs"
		return 0
	fi
	echo 0 > "$TRACEFS/events/dsr/enable"
	diag "$(grep -c ' dsr_' "$TRACEFS/trace") dsr trace events, e.g.:"
	grep -m1 'dsr_xmit:.*try 2' "$TRACEFS/trace" | sed 's/^ */# /'
	check "transmissions traced" trace_has dsr_xmit "via 10.0.0.2" &&
	check "a retransmission traced with its RTO" \
		trace_has dsr_xmit "try 2 .*rto [0-9]*ms" &&
	check "forwarding traced" trace_has dsr_recv forward &&
	check "deliveries traced" trace_has dsr_recv deliver &&
	check "passive acknowledgments traced" trace_has dsr_ack passive &&
	check "explicit acknowledgments traced" trace_has dsr_ack explicit &&
	check "route cache changes traced" trace_has dsr_route added &&
	check "the broken link traced" trace_has dsr_route link_broken
}

test_cut() {
	local mid other out
	local i
	diamond || return 1
	for ((i = 1; i <= 4; i++)); do
		dsr "$i" param set dsr0 link_holddown_ms 60000 || return 1
	done
	dsr_ping_ok 1 4 1 || dsr_ping_ok 1 4 1
	check "1 reaches 4" dsr_ping_ok 1 4 3 || return 1
	mid=$(via)
	[[ $mid == "$(node_ip 2)" ]] && other=3 || other=2
	mid=${mid##*.}
	diag "route 1 -> 4 goes through $mid; cutting $mid - 4"
	out=$(mktemp)
	nsexec 1 ping -c 60 -i 0.1 -W 3 "$(node_ip 4)" > "$out" 2>&1 &
	local pid=$!
	sleep 1.5
	mf_cut "$mid" 4 || return 1
	wait $pid
	local got
	got=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$out")
	diag "$got of 60 echoes answered across the cut"
	diag "link failures $(sum_stat link_failures), route errors sent" \
		"$(sum_stat rerr_sent), salvaged $(sum_stat salvaged)"
	check "the link failure was detected" test "$(sum_stat link_failures)" -ge 1 &&
	check "a route error reached 1 or the packet was salvaged" \
		test $(($(dsr_stat 1 rerr_received) + $(sum_stat salvaged))) -ge 1 &&
	check "the transfer went on (>= 40 of 60 answered)" test "$got" -ge 40 &&
	check "1 now routes through $other" test "$(via)" == "$(node_ip "$other")" &&
	check "the failed link is held down at $mid" \
		test "$(dsr "$mid" -j negcache show dsr0 | jq length)" -ge 1
}

neg_has() {	# NODE TO: NODE holds its link to TO down
	dsr "$1" -j negcache show dsr0 |
		jq -e --arg a "$(node_ip "$1")" --arg b "$(node_ip "$2")" \
			'any(.[]; .addr == $a and .nexthop == $b)' >/dev/null
}

neigh_tx() {	# NODE TO: frames NODE sent to its neighbour TO
	dsr "$1" -j neigh show dsr0 |
		jq --arg a "$(node_ip "$2")" '[.[] | select(.addr == $a) | .tx] | add // 0'
}

test_holddown() {
	local i mid tx rexmt
	diamond || return 1
	for ((i = 1; i <= 4; i++)); do
		dsr "$i" param set dsr0 link_holddown_ms 60000 || return 1
	done
	dsr_ping_ok 1 4 1 || dsr_ping_ok 1 4 1
	mid=$(via)
	mid=${mid##*.}
	mf_cut "$mid" 4 || return 1
	# 1 -> 4 through mid fails there: mid finds the link broken
	nsexec 1 ping -c 4 -i 0.5 -W 1 -q "$(node_ip 4)" >/dev/null 2>&1
	check "$mid holds its link to 4 down" busywait 5000 neg_has "$mid" 4 ||
		return 1
	# 4 hears mid again (mid does not hear 4, so it never acks 4), and
	# mid gets a static route over that link: it must not use it
	mf 4 add dev eth0 "$(node_mac "$mid")" || return 1
	dsr "$mid" route add dsr0 "$(node_ip 4)" || return 1
	tx=$(neigh_tx "$mid" 4)
	rexmt=$(dsr_stat "$mid" retransmissions)
	nsexec "$mid" ping -c 2 -W 1 -q "$(node_ip 4)" >/dev/null 2>&1
	check "$mid sent nothing over the held-down link" \
		test "$(neigh_tx "$mid" 4)" -eq "$tx" &&
	check "no retransmission at $mid" \
		test "$(dsr_stat "$mid" retransmissions)" -eq "$rexmt"
}

ktap_begin 3
run_test "acknowledgments, retransmission, tracepoints" test_acks
run_test "link cut during a transfer: error, salvage, other path" test_cut
run_test "hold-down: a failed link is not retried" test_holddown
ktap_end
