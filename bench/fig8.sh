#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it).  Seed 004 Figure 8: node A
# sends 300 Echo Requests at 10/s to its neighbour B over DSR while A's
# interface queue is held for 3 s and serviced for 10 s, alternately
# (selftests/lib/fig8.sh has the details).
#
#   1 (A) ------ hub ------ 2 (B)      A's eth0: plug qdisc at the root
#
# Four runs: the paper's node (hold_queued 0: a packet still in the queue
# is retransmitted when its timer expires) without and with the queue-length
# heuristic, then both again with hold_queued 1 (the default).  Prints each
# run's DSR retransmissions and lost echoes and the ratios; leaves the RTO
# of every packet A transmitted (seconds, try, RTO ms) in
# build/bench-fig8/NAME.rto for bench/plot/plot-fig8.py, which scripts/bench.sh
# runs on the host afterwards.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/selftests/lib.sh"
source "$ROOT/selftests/lib/fig8.sh"
OUT=$ROOT/build/bench-fig8
COUNT=${FIG8_COUNT:-300}

# fig8_row LABEL NAME HEURISTIC HOLD: one run, one table row
fig8_row() {
	local r
	read -r -a r < <(fig8_run "$3" "$4" "$COUNT" 3 10 "$OUT/$2")
	echo "${r[0]}" > "$OUT/$2.retx"
	echo "| $1 | $3 | $4 | ${r[0]} | ${r[3]} | ${r[4]} | ${r[1]} | ${r[2]} |" \
		"$(fig8_max_rto "$OUT/$2") |"
}

main() {
	rm -rf "$OUT"
	mkdir -p "$OUT"
	fig8_setup || { echo "fig8: set-up failed"; return 1; }
	echo "| run | queue_heuristic | hold_queued | DSR retransmissions | link failures | expiries held | echoes lost (of $COUNT) | duplicate replies | largest RTO ms |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	fig8_row "paper's node, no heuristic" without 0 0
	fig8_row "paper's node, queue heuristic" with 1 0
	fig8_row "hold_queued, no heuristic" hold-without 0 1
	fig8_row "hold_queued, queue heuristic (defaults)" hold-with 1 1
	awk -v a="$(cat "$OUT/with.retx")" -v b="$(cat "$OUT/without.retx")" \
	    -v c="$(cat "$OUT/hold-with.retx")" 'BEGIN {
		printf "\nretransmissions, hold_queued 0, with / without the heuristic: %s\n",
			b ? sprintf("%.2f", a / b) : "n/a"
		printf "retransmissions, defaults / hold_queued 0 without it: %s\n",
			b ? sprintf("%.2f", c / b) : "n/a" }'
	echo "(seed 004: 118 without, 16 with: 0.14)"
}

main
