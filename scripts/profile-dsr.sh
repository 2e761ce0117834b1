#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where the CPU goes when DSR (or static forwarding, or batman-adv) carries
# TCP over a line on the frames medium of bench/dsr.sh: `perf record` of
# the whole guest during an iperf3 run, then the symbols that took the
# most samples, and the callers of the DSR functions among them.  In the
# guest (docs/benchmarks.md):
#
#   scripts/vm.sh KVER "PROFILE_MODE=dsr PROFILE_HOPS=3 scripts/profile-dsr.sh"
#
# PROFILE_MODE  dsr (default), static or batman
# PROFILE_HOPS  hops of the line (3)
# PROFILE_SECS  seconds of iperf3 under perf (8)
# PROFILE_TOP   symbols listed (40)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_LIB=1 source "$ROOT/bench/dsr.sh"
mode=${PROFILE_MODE:-dsr}
n=$((${PROFILE_HOPS:-3} + 1))
secs=${PROFILE_SECS:-8}
data=$(mktemp)
trap 'rm -f "$data"; ah_cleanup' EXIT

command -v perf >/dev/null || { echo "profile: no perf (Debian's linux-perf)" >&2; exit 2; }
path frames "$mode" "$n" >/dev/null || { echo "profile: set-up failed" >&2; exit 1; }
iperf3_server "$n" 5201 || exit 1
echo "# $mode, frames medium, $((n - 1)) hops, $secs s of TCP, kernel $(uname -r)"
perf record -q -e cpu-clock -F 4000 -a -g -o "$data" -- \
	ip netns exec "$(ns 1)" iperf3 -c "$(node_ip "$n")" -p 5201 -t "$secs" \
	-J > "$data.json" 2>/dev/null
echo "# TCP: $(jq '.end.sum_received.bits_per_second / 1e6 | floor' "$data.json" 2>/dev/null) Mbit/s"
rm -f "$data.json"
echo "# samples by symbol (self), top ${PROFILE_TOP:-40}"
perf report -i "$data" --stdio --no-children --sort sym -g none 2>/dev/null |
	grep -E '^ +[0-9]' | head -"${PROFILE_TOP:-40}"
echo "# by module"
perf report -i "$data" --stdio --no-children --sort dso -g none 2>/dev/null |
	grep -E '^ +[0-9]' | head -12
