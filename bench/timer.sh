#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it).  The CPU cost of DSR's
# timer service (issue 4): one timer per dsr0 runs every timer_ms while
# anything waits and walks the Maintenance Buffer, so its cost grows with
# the packets awaiting an acknowledgement and with 1 / timer_ms.
#
#   1 (A) ------ hub ------ 2 (B)      A's eth0: plug qdisc, held
#
# For each timer_ms and each N: A's queue is held, N UDP datagrams to B
# wait in it and in A's Maintenance Buffer (rto_min_ms 60 s: nothing
# expires during the measurement, the steady cost of waiting), and dsr0's
# timer_runs and timer_ns counters are read over TIMER_SECS seconds.  Then
# eth0 leaves dsr0 (which frees what waits on it) and comes back.  Prints
# runs per second, ns per run and the share of one CPU.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/selftests/lib.sh"
SECS=${TIMER_SECS:-5}

# udp_burst N: N 64-byte datagrams from 1 to 2 (a send buffer that holds
# them all: SO_SNDBUFFORCE)
udp_burst() {
	nsexec 1 python3 "$ROOT/selftests/lib/udpburst.py" "$(node_ip 2)" "$1"
}

maint_len() {
	dsr 1 -j buffer show dsr0 | jq '[.[] | select(.buffer == "maint")] | length'
}

maint_ge() { (($(maint_len) >= $1)); }
maint_empty() { (($(maint_len) == 0)); }

# point TIMER_MS N: prints "runs/s ns/run cpu%"
point() {
	local tm=$1 n=$2 r0 t0 r1 t1
	dsr 1 param set dsr0 timer_ms "$tm" || return 1
	dsr_ping_ok 1 2 2 || dsr_ping_ok 1 2 2
	nsexec 1 tc qdisc change dev eth0 root handle 1: plug block
	udp_burst "$n"
	busywait 10000 maint_ge "$n" || {
		echo "only $(maint_len) of $n in the Maintenance Buffer" >&2
		return 1
	}
	r0=$(dsr_stat 1 timer_runs) t0=$(dsr_stat 1 timer_ns)
	sleep "$SECS"
	r1=$(dsr_stat 1 timer_runs) t1=$(dsr_stat 1 timer_ns)
	# releasing the slave frees what waits on it (a burst of thousands
	# loses acknowledgements, which would then wait out the 60 s RTO)
	nsexec 1 ip link set eth0 nomaster
	nsexec 1 tc qdisc change dev eth0 root handle 1: plug release_indefinite
	nsexec 1 ip link set eth0 master dsr0
	maint_empty || echo "the Maintenance Buffer is not empty" >&2
	awk -v r=$((r1 - r0)) -v t=$((t1 - t0)) -v s="$SECS" 'BEGIN {
		printf "%.1f %d %.3f\n", r / s, r ? t / r : 0, t / (s * 1e9) * 100 }'
}

main() {
	local tm n r
	hub_setup 2 && dsr_setup || { echo "timer: set-up failed"; return 1; }
	dsr_ping_ok 1 2 3 || dsr_ping_ok 1 2 3
	# every datagram tracked (no MaintHoldoff trust), none expiring: the
	# cost of the walk over what waits, not of retransmitting it
	dsr 1 param set dsr0 rexmt_buffer_size 4096 maint_holdoff_ms 0 \
		queue_heuristic 0 rto_min_ms 60000 rto_max_ms 60000 || return 1
	nsexec 1 tc qdisc replace dev eth0 root handle 1: plug limit 100000 &&
	nsexec 1 tc qdisc change dev eth0 root handle 1: plug release_indefinite ||
		return 1
	echo "timer_ms is rounded up to whole jiffies: CONFIG_HZ=$(sed -n 's/^CONFIG_HZ=//p' "/boot/config-$(uname -r)" 2>/dev/null)"
	echo
	echo "| timer_ms | packets awaiting ack | timer runs/s | ns per run | % of one CPU |"
	echo "|---:|---:|---:|---:|---:|"
	for tm in 1 10 50; do
		for n in 10 1000 4000; do
			read -r -a r < <(point "$tm" "$n")
			echo "| $tm | $n | ${r[0]:--} | ${r[1]:--} | ${r[2]:--} |"
		done
	done
}

main
