#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Route Maintenance: hop-by-hop acknowledgments (traced), a link cut during
# a transfer, the hold-down of a failed link, and MaintHoldoffTime, on one
# diamond.  Each
# case finds the middle node its route 1 -> 4 uses ("mid") and breaks that
# node's link to 4; the next case starts with every link back and empty
# caches.
#
#          2
#        /   \
#       1     4        macfilter allow lists give these four links
#        \   /
#          3
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

diamond() {
	hub_setup 4 && load_module macfilter &&
	mf_links 1 2 3 && mf_links 2 1 4 && mf_links 3 1 4 && mf_links 4 2 3 &&
	dsr_setup
}

# fresh: every link of the diamond heard both ways, caches empty, defaults
fresh() {
	local i m
	shared || return 1
	for m in 2 3; do
		# (an entry already there is refused, and stays)
		mf 4 add dev eth0 "$(node_mac "$m")" 2>/dev/null
		mf "$m" add dev eth0 "$(node_mac 4)" 2>/dev/null
	done
	for ((i = 1; i <= AH_NODES; i++)); do
		dsr "$i" flush dsr0 &&
		dsr "$i" param set dsr0 link_holddown_ms 60000 || return 1
	done
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

# mid_route: 1 reaches 4; print the middle node its route uses
mid_route() {
	local mid
	dsr_ping_ok 1 4 1 || dsr_ping_ok 1 4 1
	mid=$(via)
	[[ $mid == 10.0.0.[23] ]] || return 1
	echo "${mid##*.}"
}

# buffers_empty NODE: nothing in its send and maintenance buffers
buffers_empty() { (($(dsr "$1" -j buffer show dsr0 | jq length) == 0)); }

# Acknowledgements, and the per-packet tracepoints while they happen.
test_acks() {
	local traced=0 mid fail
	fresh || return 1
	if tracefs; then
		traced=1
		echo > "$TRACEFS/trace"
		echo 1 > "$TRACEFS/events/dsr/enable"
	fi
	mid=$(mid_route) || return 1
	check "1 -> 4 answered" dsr_ping_ok 1 4 5 || return 1
	diag "passive acks $(sum_stat passive_acks), explicit acks" \
		"$(sum_stat ack_received), retransmissions $(sum_stat retransmissions)"
	check "$mid acknowledged passively (1 overheard $mid forward)" \
		test "$(dsr_stat 1 passive_acks)" -ge 1 &&
	check "last hops acknowledged explicitly" \
		test "$(sum_stat ack_received)" -ge 1 &&
	check "nothing in the maintenance buffers at rest" \
		busywait 3000 buffers_empty 1 ||
		return 1
	# 4 stops hearing mid: mid retransmits to 4, then gives up on the link
	fail=$(dsr_stat "$mid" link_failures)
	mf 4 del dev eth0 "$(node_mac "$mid")" || return 1
	nsexec 1 ping -c 1 -W 3 -q "$(node_ip 4)" >/dev/null 2>&1
	check "$mid retransmitted and found the link broken" \
		busywait 5000 dsr_stat_ge "$mid" link_failures $((fail + 1)) ||
		return 1
	if ((!traced)); then
		diag "SKIP tracepoints: no dsr events in tracefs"
		return 0
	fi
	echo 0 > "$TRACEFS/events/dsr/enable"
	diag "$(grep -c ' dsr_' "$TRACEFS/trace") dsr trace events, e.g.:"
	grep -m1 'dsr_xmit:.*try 2' "$TRACEFS/trace" | sed 's/^ */# /'
	check "transmissions traced" trace_has dsr_xmit "via $(node_ip "$mid")" &&
	check "a retransmission traced with its RTO" \
		trace_has dsr_xmit "try 2 .*rto [0-9]*ms" &&
	check "forwarding traced" trace_has dsr_recv forward &&
	check "deliveries traced" trace_has dsr_recv deliver &&
	check "passive acknowledgments traced" trace_has dsr_ack passive &&
	check "explicit acknowledgments traced" trace_has dsr_ack explicit &&
	check "route cache changes traced" trace_has dsr_route added &&
	check "the broken link traced" trace_has dsr_route link_broken &&
	check "the verdict on the packet that broke it traced" \
		trace_has dsr_maint_verdict "broken to $(node_ip 4) tries"
}

test_cut() {
	local mid other out pid got fail rerr salv
	fresh || return 1
	mid=$(mid_route) || return 1
	check "1 reaches 4" dsr_ping_ok 1 4 3 || return 1
	((mid == 2)) && other=3 || other=2
	diag "route 1 -> 4 goes through $mid; cutting $mid - 4"
	fail=$(sum_stat link_failures)
	rerr=$(dsr_stat 1 rerr_received)
	salv=$(sum_stat salvaged)
	out=$(mktemp)
	nsexec 1 ping -c 60 -i 0.1 -W 3 "$(node_ip 4)" > "$out" 2>&1 &
	pid=$!
	sleep 1.5
	mf_cut "$mid" 4 || return 1
	wait $pid
	got=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$out")
	rm -f "$out"
	diag "$got of 60 echoes answered across the cut"
	diag "link failures $(($(sum_stat link_failures) - fail)), route errors" \
		"received by 1 $(($(dsr_stat 1 rerr_received) - rerr)), salvaged" \
		"$(($(sum_stat salvaged) - salv))"
	check "the link failure was detected" \
		test "$(sum_stat link_failures)" -gt "$fail" &&
	check "a route error reached 1 or the packet was salvaged" \
		test $(($(dsr_stat 1 rerr_received) + $(sum_stat salvaged))) -gt \
			$((rerr + salv)) &&
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
	local mid tx rexmt
	fresh || return 1
	mid=$(mid_route) || return 1
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

# MaintHoldoffTime on every hop (RFC 4728 8.3): a next hop that confirmed
# its link within maint_holdoff_ms (250) is trusted, so a flow keeps about
# one packet per hold-off and hop in the Maintenance Buffer; with 0 every
# packet is tracked
test_holdoff() {
	local mid h1 hm fm t i rc=0
	fresh || return 1
	mid=$(mid_route) || return 1
	h1=$(dsr_stat 1 maint_held_off) hm=$(dsr_stat "$mid" maint_held_off)
	fm=$(dsr_stat "$mid" forwarded)
	t=$(nsexec 1 ping -c 200 -i 0.01 -q "$(node_ip 4)" 2>/dev/null |
		awk '/received/ { print $4 }')
	h1=$(($(dsr_stat 1 maint_held_off) - h1))
	hm=$(($(dsr_stat "$mid" maint_held_off) - hm))
	fm=$(($(dsr_stat "$mid" forwarded) - fm))
	diag "200 pings, ${t:-0} answered; held off (sent untracked): 1 $h1," \
		"$mid $hm of $fm forwarded"
	check "at least 190 of 200 answered" test "${t:-0}" -ge 190 &&
	check "1 sent most of them untracked (>= 100)" test "$h1" -ge 100 &&
	check "$mid, a middle hop, forwarded most of them untracked" \
		test "$hm" -ge $((fm / 2)) -a "$fm" -ge 190 || return 1
	for i in 1 "$mid"; do
		dsr "$i" param set dsr0 maint_holdoff_ms 0 || return 1
	done
	h1=$(dsr_stat 1 maint_held_off) hm=$(dsr_stat "$mid" maint_held_off)
	nsexec 1 ping -c 50 -i 0.01 -q "$(node_ip 4)" >/dev/null 2>&1
	check "with maint_holdoff_ms 0, every packet tracked at 1 and $mid" \
		test "$(dsr_stat 1 maint_held_off)" -eq "$h1" -a \
		"$(dsr_stat "$mid" maint_held_off)" -eq "$hm" || rc=1
	for i in 1 "$mid"; do
		dsr "$i" param set dsr0 maint_holdoff_ms 250 || return 1
	done
	return $rc
}

shared_setup diamond
ktap_begin 4
run_case "acknowledgments, retransmission, tracepoints" test_acks
run_case "link cut during a transfer: error, salvage, other path" test_cut
run_case "hold-down: a failed link is not retried" test_holddown
run_case "MaintHoldoffTime: one packet per hold-off and hop tracked" test_holdoff
ktap_end
