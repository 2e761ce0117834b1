#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it).  Seed 004 Figure 8: node A
# sends 300 Echo Requests at 10/s to its neighbour B over DSR while A's
# interface queue is held for 3 s and serviced for 10 s, alternately; once
# without and once with the queue-length heuristic of the adaptive
# retransmission timer (selftests/lib/fig8.sh has the details).
#
#   1 (A) ------ hub ------ 2 (B)      A's eth0: plug qdisc at the root
#
# Prints both runs' DSR retransmissions and lost echoes and their ratio;
# leaves the RTO of every packet A transmitted (seconds, try, RTO ms) in
# build/bench-fig8/{without,with}.rto for scripts/plot-fig8.py, which
# scripts/bench.sh runs on the host afterwards.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/selftests/lib.sh"
source "$ROOT/selftests/lib/fig8.sh"
OUT=$ROOT/build/bench-fig8
COUNT=${FIG8_COUNT:-300}

main() {
	local without with
	rm -rf "$OUT"
	mkdir -p "$OUT"
	fig8_setup || { echo "fig8: set-up failed"; return 1; }
	read -r -a without < <(fig8_run 0 "$COUNT" 3 10 "$OUT/without")
	read -r -a with < <(fig8_run 1 "$COUNT" 3 10 "$OUT/with")
	echo "| run | DSR retransmissions | echoes lost (of $COUNT) | duplicate replies | largest RTO ms |"
	echo "|---|---:|---:|---:|---:|"
	echo "| no heuristic | ${without[0]} | ${without[1]} | ${without[2]} | $(sort -k3 -n "$OUT/without.rto" 2>/dev/null | tail -1 | cut -d' ' -f3) |"
	echo "| queue heuristic | ${with[0]} | ${with[1]} | ${with[2]} | $(sort -k3 -n "$OUT/with.rto" 2>/dev/null | tail -1 | cut -d' ' -f3) |"
	awk -v a="${with[0]}" -v b="${without[0]}" 'BEGIN {
		printf "\nretransmissions with / without the heuristic: %s\n",
			b ? sprintf("%.2f", a / b) : "n/a" }'
	echo "(seed 004: 118 without, 16 with: 0.14)"
}

main
