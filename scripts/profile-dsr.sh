#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where the CPU goes when DSR (or static forwarding, or batman-adv) carries
# traffic over a line on the frames medium of bench/dsr.sh: `perf record`
# of the whole guest during an iperf3 run.  In the guest
# (docs/benchmarks.md):
#
#   scripts/vm.sh KVER "PROFILE_MODE=dsr PROFILE_HOPS=3 scripts/profile-dsr.sh"
#
# TCP (the default): the symbols that took the most samples, by symbol
# and by module.
#
# PROFILE_PER_PACKET=1: UDP at full rate from node 1 to the last node, each
# run of PROFILE_MODES in turn (a mode named twice runs twice, so the modes
# interleave), then the busy CPU per packet of every mode side by side,
# its runs pooled, by kind of work and by symbol (perf-per-packet.py).
# The sender's CPU carries the whole line (every hop's receive runs in
# the softirq its transmit raises), so its busy time per packet is what
# caps the line's packet rate.
#
# PROFILE_MODE   dsr (default), static or batman
# PROFILE_MODES  per packet: the runs, the first mode the reference
#                ("static dsr static dsr")
# PROFILE_HOPS   hops of the line (3)
# PROFILE_SECS   seconds of traffic under perf (8)
# PROFILE_HZ     samples a second per CPU (TCP 4000, per packet 1000:
#                under TCG every sample costs, and more distort more)
# PROFILE_TOP    symbols listed (40; per packet 25)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_LIB=1 source "$ROOT/bench/dsr.sh"
n=$((${PROFILE_HOPS:-3} + 1))
secs=${PROFILE_SECS:-8}
# perf's data in the guest's own memory: a write to the shared root is a
# 9p round trip in the middle of the measurement
data=$(mktemp -p /dev/shm)
trap 'rm -f "$data" "$data".*; ah_cleanup' EXIT

command -v perf >/dev/null || { echo "profile: no perf (Debian's linux-perf)" >&2; exit 2; }

per_packet() {
	local mode runs=() pkts i=0
	for mode in ${PROFILE_MODES:-static dsr static dsr}; do
		i=$((i + 1))
		(
			trap ah_cleanup EXIT
			path frames "$mode" "$n" >/dev/null ||
				{ echo "profile: $mode: set-up failed" >&2; exit 1; }
			iperf3_server "$n" 5201 || exit 1
			perf record -q -e cpu-clock -F "${PROFILE_HZ:-1000}" -a -g \
				-o "$data.$i" -- ip netns exec "$(ns 1)" iperf3 \
				-c "$(node_ip "$n")" -p 5201 -t "$secs" -u -b 0 \
				-l 1400 -J > "$data.$i.json" 2>/dev/null
		) || return 1
		pkts=$(jq '.end.sum.packets - .end.sum.lost_packets' \
			"$data.$i.json" 2>/dev/null)
		perf script -i "$data.$i" -F comm,ip,sym \
			> "$data.$i.txt" 2>/dev/null
		rm -f "$data.$i"
		echo "# $mode: ${pkts:-0} datagrams of 1400 bytes received in $secs s"
		runs+=("$mode:${pkts:-0}:$data.$i.txt")
	done
	echo "# frames medium, $((n - 1)) hops, UDP at full rate, kernel $(uname -r)"
	"$PYTHON" "$ROOT/scripts/perf-per-packet.py" --hz "${PROFILE_HZ:-1000}" \
		--top "${PROFILE_TOP:-25}" "${runs[@]}"
}

if [[ -n ${PROFILE_PER_PACKET:-} ]]; then
	per_packet
	exit
fi

mode=${PROFILE_MODE:-dsr}
path frames "$mode" "$n" >/dev/null || { echo "profile: set-up failed" >&2; exit 1; }
iperf3_server "$n" 5201 || exit 1
echo "# $mode, frames medium, $((n - 1)) hops, $secs s of TCP, kernel $(uname -r)"
perf record -q -e cpu-clock -F "${PROFILE_HZ:-4000}" -a -g -o "$data" -- \
	ip netns exec "$(ns 1)" iperf3 -c "$(node_ip "$n")" -p 5201 -t "$secs" \
	-J > "$data.json" 2>/dev/null
echo "# TCP: $(jq '.end.sum_received.bits_per_second / 1e6 | floor' "$data.json" 2>/dev/null) Mbit/s"
echo "# samples by symbol (self), top ${PROFILE_TOP:-40}"
perf report -i "$data" --stdio --no-children --sort sym -g none 2>/dev/null |
	grep -E '^ +[0-9]' | head -"${PROFILE_TOP:-40}"
echo "# by module"
perf report -i "$data" --stdio --no-children --sort dso -g none 2>/dev/null |
	grep -E '^ +[0-9]' | head -12
