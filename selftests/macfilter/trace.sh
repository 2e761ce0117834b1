#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Motion traces (docs/trace.5): "ahctl macfilter replay" checks a whole
# trace before it applies anything, applies each step as one atomic list
# replacement at its time (the lateness it reports: from the step's time
# to the kernel's acknowledgment), and a cut in the trace is a cut on the
# medium for exactly its time.
#
#        1 (replays a trace)     2 (pings 1)     3
#          \                      |              /
#           +------------------ ahhub ----------+
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ping

TR=/tmp/ah-trace.$$
trap 'rm -f "$TR".*; ah_cleanup' EXIT

setup() {
	load_module macfilter && hub_setup 3 && mf 1 attach dev eth0
}

# entries NODE: its list as "mac/loss" words (loss 100: not heard), sorted
entries() {
	mf "$1" -j show dev eth0 |
		jq -r '.[0].entries[] | "\(.mac)/\(.loss // 100)"' | sort | xargs
}

test_bad_trace() {
	local err rc=0
	shared || return 1
	mf 1 load dev eth0 - <<< "$(node_mac 3)" || return 1
	printf '0 -\n1 %s\n0.5 -\n' "$(node_mac 2)" > "$TR.bad"
	err=$(mf 1 replay dev eth0 "$TR.bad" 2>&1) || rc=$?
	diag "replay of a bad trace: rc $rc: $err"
	check "rejected" test "$rc" -ne 0 &&
	check "with file and line" grep -q "$TR.bad:3: time 0.5 is before" <<< "$err" &&
	check "and the list unchanged" test "$(entries 1)" = "$(node_mac 3)/100"
}

test_on_time() {
	local i out n=30 last mean max scale=${AH_TIME_SCALE:-1}
	shared || return 1
	# 30 steps 100 ms apart: node 2 cut, node 3 lossy, both, neither
	for ((i = 0; i < n; i++)); do
		case $((i % 4)) in
		0) last="$(node_mac 2)" ;;
		1) last="$(node_mac 3)/40" ;;
		2) last="$(node_mac 2) $(node_mac 3)/40" ;;
		3) last="-" ;;
		esac
		printf '%d.%d %s\n' $((i / 10)) $((i % 10)) "$last"
	done > "$TR.time"
	out=$(mf 1 -j replay dev eth0 "$TR.time") || return 1
	read -r steps mean max < <(jq -r '"\(.steps) \(.late_mean_us) \(.late_max_us)"' <<< "$out")
	diag "$steps steps: lateness mean $mean us, max $max us;" \
		"90th percentile $(jq '.late_us | sort | .[(length * 9 / 10 | floor)]' <<< "$out") us"
	check "every step applied" test "$steps" -eq "$n" &&
	check "on time: mean lateness under 10 ms" test "$mean" -lt $((10000 * scale)) &&
	check "no step later than 50 ms" test "$max" -lt $((50000 * scale)) &&
	check "the list is the last step's" \
		test "$(entries 1)" = "$(tr ' ' '\n' <<< "$last" | grep -v '^-$' | sort | xargs)"
}

# 2 pings 1 every 100 ms for 4 s; the trace cuts 2 off from 1 s to 3 s
test_cut() {
	local sent recv lost pid
	shared || return 1
	mf 1 flush dev eth0 || return 1
	# the neighbours known before the cut
	dsr_ping_ok 2 1 2 || return 1
	printf '0 -\n1 %s\n3 -\n' "$(node_mac 2)" > "$TR.cut"
	mf 1 replay dev eth0 "$TR.cut" >/dev/null &
	pid=$!
	read -r sent recv < <(nsexec 2 ping -n -c 40 -i 0.1 -W 1 "$(node_ip 1)" |
		awk '/transmitted/ { print $1, $4 }')
	wait "$pid" || return 1
	lost=$((sent - recv))
	diag "40 echoes at 100 ms, a 2 s cut: $recv answered, $lost lost"
	check "about 20 echoes lost in the cut" test "$lost" -ge 12 -a "$lost" -le 28 &&
	check "echoes answered around it" test "$recv" -ge 8
}

shared_setup setup
ktap_begin 3
run_case "a bad trace is rejected whole, with its line" test_bad_trace
run_case "each step at its time, the list as the last step" test_on_time
run_case "a cut in the trace cuts the medium for its time" test_cut
ktap_end
