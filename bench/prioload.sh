#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it).  Priority under load:
# Route Discovery time and explicit acknowledgement delay while a UDP flow
# saturates a 3-hop path, with dsrprio and with pfifo_fast under a tbf of
# the radio's rate on every node (selftests/lib/prioload.sh has the
# details).  PRIOLOAD_RUNS runs of each (default 3), alternating.
#
#   1 --- 2 --- 3 --- 4 --- 5     UDP 1 -> 4; 2 (the congested relay)
#                                 discovers 5; 3 pings 2
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/selftests/lib.sh"
source "$ROOT/selftests/lib/prioload.sh"
RUNS=${PRIOLOAD_RUNS:-3}

main() {
	local i k r
	prioload_setup || { echo "prioload: set-up failed"; return 1; }
	echo "tbf $PRIOLOAD_RATE on every node ($PRIOLOAD_BOTTLENECK on 2), UDP offered 20 Mbit/s from 1 to 4"
	echo
	echo "| qdisc | run | discovery 2 -> 5 ms | explicit ack delay median ms | explicit acks in time |"
	echo "|---|---:|---:|---:|---:|"
	for ((i = 1; i <= RUNS; i++)); do
		for k in pfifo_fast dsrprio; do
			# (its qdiscs cleared before the next run starts)
			read -r -a r <<< "$(prioload_run "$k" 12)"
			echo "| $k | $i | ${r[0]:--} | ${r[1]:--} | ${r[2]:--} |"
		done
	done
}

main
