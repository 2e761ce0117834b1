#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo NODES=N` in a reduced form: 10 nodes of a random waypoint
# scenario (600 m x 300 m, 1-20 m/s, 250 m range) for 15 s on the hub, DSR
# on every node, every node's macfilter replaying its trace from one
# `ahctl macfilter replay-all`, 10 CBR flows of 4 x 512-byte datagrams/s
# (scripts/demo-scale-guest.sh), then the MANET metrics
# (scripts/demo-metrics.py):
#
#   n0 .. n9  (DSR)          10 flows between random pairs
#     \  |  /                who hears whom: each node's trace, replayed
#      ahhub                 every frame captured once on the bridge
#
# The checks hold the metrics to what the run's own records say: every
# datagram the senders counted is accounted for, what was delivered
# crossed the medium, DSR spent control packets to find the routes, a
# route is no longer than the nodes allow, the replay kept time.
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl tcpdump /usr/bin/python3

OUT=$AH_ROOT/build/selftest-scale.$$
NODES=10 SECS=15 FLOWS=10 RATE=4
trap 'rm -rf "$OUT"; ah_cleanup' EXIT


test_scale() {
	local rc out sent delivered data ctrl over pdr conn late p50 p95 p99 hops hmax
	SCENARIO=rwp:nodes=$NODES,area=600x300,speed=1-20,pause=0-10,duration=$SECS,seed=3 \
		NODES=$NODES DEMO_SECS=$SECS FLOWS=$FLOWS RATE=$RATE DEMO_OUT=$OUT \
		"$AH_ROOT/scripts/demo-scale-guest.sh" \
		> "$OUT.txt" 2>&1
	rc=$?
	if ((rc)) || [[ ! -s $OUT/metrics.json ]]; then
		tail -20 "$OUT.txt" | sed 's/^/# /'
		rm -f "$OUT.txt"
		return 1
	fi
	mv "$OUT.txt" "$OUT/out.txt"
	grep -E '^== \[' "$OUT/out.txt" | sed 's/^/# /'
	sed -n '/the metrics of the run/,/replay lateness per node/p' \
		"$OUT/out.txt" | sed '1d; s/^ */# /'
	# one jq for all: a process start costs most of a second under TCG
	out=$(jq -r '[.sent, .delivered, .pdr, .connected, .replay_all.mean_ms,
		.medium.data_pkts, .medium.control_pkts, .overhead, .delay_ms.p50,
		.delay_ms.p95, .delay_ms.p99, .hops_mean, .hops_max] | @tsv' \
		"$OUT/metrics.json")
	read -r sent delivered pdr conn late data ctrl over p50 p95 p99 hops hmax <<< "$out"
	check "every flow sent for the whole run ($sent = $FLOWS x $RATE/s x $SECS s)" \
		test "$sent" -eq $((FLOWS * RATE * SECS)) &&
	check "every node replayed its trace" \
		test "$(jq '[.nodes[] | select(.steps >= 1)] | length' "$OUT/replay.json")" -eq "$NODES" &&
	check "  on time (mean lateness $late ms < 20)" \
		awk -v l="$late" -v s="${AH_TIME_SCALE:-1}" 'BEGIN { exit !(l < 20 * s) }' &&
	check "the lateness of each node printed" \
		test "$(grep -cE '^    n[0-9]' "$OUT/out.txt")" -ge $((NODES / 3)) &&
	check "the flows' ends were joined most of the run ($conn)" \
		awk -v c="$conn" 'BEGIN { exit !(c >= 0.5) }' &&
	check "delivery ratio $pdr >= half the connected share" \
		awk -v p="$pdr" -v c="$conn" 'BEGIN { exit !(p > 0 && p >= c / 2 && p <= 1) }' &&
	check "each datagram delivered crossed the medium ($data data frames >= $delivered)" \
		test "$data" -ge "$delivered" &&
	check "DSR sent control packets ($ctrl), overhead $over > 0" \
		awk -v c="$ctrl" -v o="$over" 'BEGIN { exit !(c > 0 && o > 0) }' &&
	check "delay percentiles ordered ($p50 <= $p95 <= $p99 ms)" \
		awk -v a="$p50" -v b="$p95" -v c="$p99" 'BEGIN { exit !(a > 0 && a <= b && b <= c) }' &&
	check "route lengths 1..$((NODES - 1)) hops (mean $hops, max $hmax)" \
		awk -v h="$hops" -v x="$hmax" -v n="$NODES" 'BEGIN { exit !(h >= 1 && x <= n - 1) }'
}

skip_in_debug_lane "a timed run; dsr/ and macfilter/trace.sh cover its paths" &&
	exit "$ksft_skip"
not_on_this_kernel 6.12. "one kernel is enough for the demo's metrics" &&
	exit "$ksft_skip"
ktap_begin 1
run_case "$NODES nodes, $FLOWS CBR flows, $SECS s: the MANET metrics" test_scale
ktap_end
