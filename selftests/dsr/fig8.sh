#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The adaptive retransmission timer under transient congestion, after seed
# 004 Figure 8: A sends Echo Requests at 10/s to its neighbour B while A's
# interface queue is held (sch_plug "block") for 3 s and serviced,
# alternately.  The paper: 300 echoes, serviced for 10 s; here 200 and 7 s,
# the same two stalls of 30 echoes in two thirds of the time (the bench,
# bench/fig8.sh, runs the paper's).  The paper counted 118 DSR
# retransmissions without and 16 with its queue-length heuristic, and a
# largest RTO of 240 ms without and 810 ms with it.  Three runs: the paper's node (hold_queued 0: a
# packet still in A's queue is retransmitted when its timer expires)
# without and with the heuristic, then the defaults (heuristic and
# hold_queued).  The heuristic must raise the RTO (at least 2x) and save
# retransmissions; the defaults must retransmit at most a quarter of the
# paper's node without the heuristic, and lose no echo.  (The heuristic
# alone saves about half here, not the paper's 6/7: docs/dsr.md.)
#
#   1 (A) ------ hub ------ 2 (B)      A's eth0: plug qdisc at the root
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../lib/fig8.sh"

require_cmd jq ahctl ethtool tc

test_fig8() {
	local dir without with dflt max0 max1
	shared || return 1
	dir=$(mktemp -d)
	read -r -a without < <(fig8_run 0 0 200 3 7 "$dir/without") &&
	read -r -a with < <(fig8_run 1 0 200 3 7 "$dir/with") &&
	read -r -a dflt < <(fig8_run 1 1 200 3 7 "$dir/dflt") || return 1
	diag "hold_queued 0, no heuristic: ${without[0]} retransmissions," \
		"${without[1]} echoes lost, ${without[3]} link failures"
	diag "hold_queued 0, heuristic:    ${with[0]} retransmissions," \
		"${with[1]} echoes lost, ${with[3]} link failures"
	diag "defaults:                    ${dflt[0]} retransmissions," \
		"${dflt[1]} echoes lost, ${dflt[4]} expiries held"
	max0=$(fig8_max_rto "$dir/without")
	max1=$(fig8_max_rto "$dir/with")
	diag "largest RTO used: without ${max0:-?} ms, with ${max1:-?} ms"
	rm -rf "$dir"
	check "the stalls cost retransmissions without the heuristic" \
		test "${without[0]}" -ge 20 &&
	check "RTOs traced" test -n "$max0" -a -n "$max1" &&
	check "the heuristic raised the RTO in the stalls (at least 2x)" \
		test "$max1" -ge $((2 * max0)) &&
	check "the heuristic saved retransmissions" \
		test "${with[0]}" -lt "${without[0]}" &&
	check "the defaults retransmit at most 1/4 of the paper's node" \
		test $((4 * dflt[0])) -le "${without[0]}" &&
	check "the defaults lose no echo to the stalls" test "${dflt[1]}" -eq 0
}

test_neigh_rto() {
	local j
	shared || return 1
	dsr_ping_ok 1 2 5 || return 1
	j=$(dsr 1 -j neigh show dsr0)
	diag "$j"
	check "B has RTT samples at A" \
		test "$(jq --arg b "$(node_ip 2)" '.[] | select(.addr == $b) | .rtt_samples' <<< "$j")" -ge 1 &&
	check "and an RTO within [rto_min_ms, rto_max_ms]" \
		jq -e --arg b "$(node_ip 2)" \
			'.[] | select(.addr == $b) | .rto_ms >= 50 and .rto_ms <= 2000' <<< "$j" >/dev/null
}

# The debug lane: the same stalls (the load and teardown paths it drives:
# retransmissions of queued frames, held expiries, link failures, under
# KASAN and lockdep), with the paper's node and with the defaults; the
# counts and the echoes lost depend on the guest's speed (ping gives up on
# a reply after twice the largest round trip, and this kernel is several
# times slower under the same 3 s stalls), so only that both runs end and
# that the link works afterwards; the other lane checks the counts.
test_fig8_debug() {
	local dir paper dflt
	shared || return 1
	dir=$(mktemp -d)
	read -r -a paper < <(fig8_run 0 0 100 3 7 "$dir/paper") &&
	read -r -a dflt < <(fig8_run 1 1 100 3 7 "$dir/dflt") || return 1
	rm -rf "$dir"
	diag "hold_queued 0, no heuristic: ${paper[0]} retransmissions," \
		"${paper[1]} echoes lost, ${paper[3]} link failures"
	diag "defaults:                    ${dflt[0]} retransmissions," \
		"${dflt[1]} echoes lost, ${dflt[4]} expiries held"
	check "both runs sent their echoes" \
		test "${paper[1]}" -lt 100 -a "${dflt[1]}" -lt 100 &&
	check "the link works after the stalls" busywait 10000 dsr_ping_ok 1 2 1
}

shared_setup fig8_setup
ktap_begin 2
run_case "per-next-hop SRTT, RTTVAR and RTO in neigh show" test_neigh_rto
if [[ ${AH_DEBUG_LANE:-0} == 1 ]]; then
	run_case "Figure 8 stalls on the debug kernel" test_fig8_debug
elif not_on_this_kernel 6.1. "70 s of stalls; the timer code is the same"; then
	ktap_skip "Figure 8: queue heuristic against transient congestion" "other kernel"
else
	run_case "Figure 8: queue heuristic against transient congestion" test_fig8
fi
ktap_end
