#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it; BENCH=scale alone).  How
# far one guest goes: `make demo NODES=N`'s run (scripts/demo-scale-guest.sh)
# for N = 10, 25, 50 nodes on the hub, each replaying its trace of a
# random waypoint scenario (1500 m x 300 m, 1-20 m/s, pauses 0-30 s,
# 250 m range, lossy from 200 m: the classic DSR studies' field) with DSR
# on every node and 10 CBR flows of 4 x 512-byte datagrams/s.  Per N: the
# replay lateness over every trace step of every node (mean, p95, max),
# for a replay per node the spread of their starts (each counts its
# lateness from its own start, so the spread is a skew between nodes
# that their lateness does not show), the guest's CPU (busy share of its vCPUs over the run) and the MANET
# metrics of the run (scripts/demo-metrics.py).
#
#   SCALE_NODES   the node counts (default "10 25 50")
#   SCALE_SECS    seconds per run (default 60)
#   SCALE_REPLAY  "one" (ahctl macfilter replay-all, the default), "each"
#                 (an ahctl macfilter replay per node) or both, "one each"
#
# The files of each run stay in build/bench-scale/REPLAY-N/.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/bench-scale
SECS=${SCALE_SECS:-60}

rm -rf "$OUT"
mkdir -p "$OUT"
echo "# kernel $(uname -r), $(nproc) vCPUs, $SECS s per run;" \
	"rwp:nodes=N,area=1500x300,speed=1-20,pause=0-30,duration=$SECS,seed=1"
for replay in ${SCALE_REPLAY:-one}; do
	for n in ${SCALE_NODES:-10 25 50}; do
		d=$OUT/$replay-$n
		echo "# $n nodes, replay $replay: $(date +%T)"
		# its own progress lines keep the console alive (vm.sh's watchdog)
		if ! DEMO_OUT=$d NODES=$n DEMO_SECS=$SECS REPLAY=$replay \
			"$ROOT/scripts/demo-scale-guest.sh" > "$OUT/$replay-$n.log" 2>&1 ||
		   [[ ! -s $d/metrics.json ]]; then
			echo "# $n nodes, replay $replay: the run failed:"
			tail -5 "$OUT/$replay-$n.log" | sed 's/^/#   /'
			continue
		fi
		# one replay-all: one start for all; a replay per node: their
		# starts spread over this many ms
		spread=$(cat "$d/replay-spread.txt" 2>/dev/null || echo 0)
		jq -r --arg n "$n" --arg r "$replay" --arg s "$spread" '[$n, $r,
			.replay_all.steps, .replay_all.mean_ms, .replay_all.p95_ms,
			.replay_all.max_ms, 100 * .cpu_busy, 100 * .pdr,
			100 * .connected, .overhead, .delay_ms.p50, .delay_ms.p95,
			.hops_mean, $s] | @tsv' "$d/metrics.json" >> "$OUT/table.tsv"
	done
done
echo
echo "| nodes | replay | steps | lateness mean ms | p95 ms | max ms | starts spread ms | guest CPU % | delivery % | connected % | overhead B/B | delay p50 ms | delay p95 ms | hops |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
[[ -s $OUT/table.tsv ]] && awk -F'\t' '{
	printf "| %s | %s | %d | %.1f | %.1f | %.0f | %d | %.0f | %.1f | %.1f | %.2f | %.1f | %.0f | %.2f |\n",
		$1, $2, $3, $4, $5, $6, $14, $7, $8, $9, $10, $11, $12, $13 }' "$OUT/table.tsv"
exit 0
