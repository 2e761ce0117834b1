#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo` in a reduced form: the CMU ping test (scripts/demo-guest.sh)
# over 15 s of the course instead of 100.  Seven nodes on the hub, dsrd on
# each, every node's macfilter replaying its trace of the course:
#
#     E1 . . . T1  T2  T3  T4  T5 . . . E2     (a 200 m convoy of cars
#       \       \   |   |   |   /       /       looping past two fixed
#        +------------ ahhub ----------+        end nodes 300 m apart)
#
# Loose checks that still fail when something is wrong: the replays keep
# time; E1 reaches E2 through the cars and never directly (they are out
# of range); the tables come out; dsrd logged stats on every node and
# left nothing behind.
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl tcpdump /usr/bin/python3

OUT=/tmp/ah-demo.$$
trap 'rm -rf "$OUT"; ah_cleanup' EXIT

# value TITLE_PREFIX ROW COLUMN: a number from the demo's tables
value() {
	awk -v t="$1" -v r="$2" -v c="$3" '
		index($0, t) == 1 { on = 1; next }
		on && /^$/ { on = 0 }
		on && $1 == r { print $(c + 1); exit }' "$OUT/out.txt"
}

test_demo() {
	local sent got late n1 n2 n3 name lines
	DEMO_SECS=15 DEMO_DRAW=0 DEMO_OUT=$OUT "$AH_ROOT/scripts/demo-guest.sh" \
		> "$OUT.txt" 2>&1
	local rc=$?
	mkdir -p "$OUT" && mv "$OUT.txt" "$OUT/out.txt"
	if ((rc)); then
		tail -20 "$OUT/out.txt" | sed 's/^/# /'
		return 1
	fi
	grep -E "^== \[|packets transmitted|replayed|^  (Total|Req|Reply) " "$OUT/out.txt" |
		sed 's/^ */# /'
	read -r sent got < <(awk '/packets transmitted/ { print $1, $4 }' "$OUT/out.txt")
	late=$(awk '/replayed/ { for (i = 1; i <= NF; i++) if ($i == "mean") m = $(i + 1);
		if (m > max) max = m } END { print max + 0 }' "$OUT/out.txt")
	n1=$(value "Table V" Req 1)
	n2=$(value "Table V" Req 2)
	n3=$(value "Table V" Req 3)
	check "every node replayed its trace" \
		test "$(grep -c 'replayed' "$OUT/out.txt")" -eq 7 &&
	check "  on time (worst mean lateness ${late} ms < 10)" \
		awk -v l="$late" -v s="${AH_TIME_SCALE:-1}" 'BEGIN { exit !(l < 10 * s) }' &&
	check "E1 reached E2 through the cars ($got of $sent replies)" \
		test "$got" -ge $((sent / 4)) &&
	check "never directly: they are out of range" test "${n1:-x}" = 0 &&
	check "over 2 and 3 hops ($n2, $n3)" test "$((n2 + n3))" -gt 0 &&
	check "Tables I to IV printed" \
		test "$(grep -c '^  Total ' "$OUT/out.txt")" -eq 4 || return 1
	for name in E1 E2 T1 T2 T3 T4 T5; do
		lines=$(wc -l < "$OUT/$name.stats.jsonl")
		check "dsrd on $name logged stats ($lines lines)" test "$lines" -ge 3 ||
			return 1
	done
	check "dsrd stopped, no dsr0 left" not pgrep -x dsrd
}

skip_in_debug_lane "a timed run; selftests/dsrd/daemon.sh covers dsrd" &&
	exit "$ksft_skip"
not_on_this_kernel 6.1. "make demo's kernel; daemon.sh covers dsrd on both" &&
	exit "$ksft_skip"
ktap_begin 1
run_case "the CMU ping test over 15 s of the course" test_demo
ktap_end
