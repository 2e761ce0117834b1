#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Motion traces (docs/trace.5): "ahctl macfilter replay" checks a whole
# trace before it applies anything, applies each step as one atomic list
# replacement at its time (the lateness it reports: from the step's time
# to the kernel's acknowledgment), and a cut in the trace is a cut on the
# medium for exactly its time.  "ahctl macfilter replay-all" plays the
# traces of several nodes from one process; drop counts survive a replace.
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

# replay-all: three nodes' traces from one process, one time line
test_replay_all() {
	local i k out list="$TR.list" scale=${AH_TIME_SCALE:-1}
	shared || return 1
	mf 2 attach dev eth0 && mf 3 attach dev eth0 || return 1
	for i in 1 2 3; do
		# node i: 10 steps 50 ms apart, each hiding another node
		for ((k = 0; k < 10; k++)); do
			printf '0.%02d %s\n' $((k * 5)) "$(node_mac $(((i + k) % 3 + 1)))"
		done > "$TR.all$i"
		echo "$(ns "$i") eth0 $TR.all$i node$i"
	done > "$list"
	out=$(ahctl -j macfilter replay-all "$list") || return 1
	diag "replay-all: $(jq -c '{steps, late_mean_us, late_max_us}' <<< "$out")"
	check "30 steps, 10 a node" test "$(jq -r '[.steps, (.nodes[] | .steps)] | join(" ")' <<< "$out")" = "30 10 10 10" &&
	check "named in list order" test "$(jq -r '[.nodes[].name] | join(" ")' <<< "$out")" = "node1 node2 node3" &&
	check "on time: mean lateness under 10 ms" \
		test "$(jq .late_mean_us <<< "$out")" -lt $((10000 * scale)) &&
	check "each node's list is its last step's" \
		test "$(entries 1) $(entries 2) $(entries 3)" = \
		"$(node_mac 2)/100 $(node_mac 3)/100 $(node_mac 1)/100" || return 1
	# a bad line: nothing applied, the file and line named
	printf '%s eth0 %s\n%s eth0\n' "$(ns 1)" "$TR.all2" "$(ns 2)" > "$list"
	out=$(ahctl macfilter replay-all "$list" 2>&1) && return 1
	diag "bad list: $out"
	check "a bad list is refused with its line" grep -q "$list:2: need NETNS DEV TRACE" <<< "$out" &&
	check "and nothing applied" test "$(entries 1)" = "$(node_mac 2)/100"
}

# start TIME: the trace's time 0 is a wall-clock time (replays on several
# hosts, docs/testbed.md): nothing before it, each step at start + its time;
# a start in the past applies what is due at once and says so
test_start() {
	local start out err end scale=${AH_TIME_SCALE:-1}
	shared || return 1
	mf 1 load dev eth0 - <<< "$(node_mac 3)" || return 1
	printf '0 %s\n0.5 %s %s\n' "$(node_mac 2)" "$(node_mac 2)" \
		"$(node_mac 3)" > "$TR.start"
	start=$(awk -v t="$(date +%s.%N)" -v s="$scale" \
		'BEGIN { printf "%.3f", t + 2 * s }')
	mf 1 -j replay dev eth0 "$TR.start" start "$start" > "$TR.out" &
	local pid=$!
	sleep "$scale"
	check "nothing applied before the start" \
		test "$(entries 1)" = "$(node_mac 3)/100" || { wait $pid; return 1; }
	wait "$pid" || return 1
	end=$(date +%s.%N)
	out=$(cat "$TR.out")
	diag "start $start, ended $end: $(jq -c '{steps, late_mean_us, late_max_us}' <<< "$out")"
	check "both steps applied" test "$(jq .steps <<< "$out")" -eq 2 &&
	check "the last one no earlier than start + 0.5 s" \
		awk -v e="$end" -v s="$start" 'BEGIN { exit !(e >= s + 0.5) }' &&
	check "on time against the start: mean lateness under 10 ms" \
		test "$(jq .late_mean_us <<< "$out")" -lt $((10000 * scale)) &&
	check "the list is the last step's" \
		test "$(entries 1)" = "$(node_mac 2)/100 $(node_mac 3)/100" || return 1
	# five seconds ago: both steps at once, each counted about 5 s late
	mf 1 load dev eth0 - <<< "$(node_mac 3)" || return 1
	start=$(awk -v t="$(date +%s.%N)" 'BEGIN { printf "%.3f", t - 5 }')
	out=$(mf 1 -j replay dev eth0 "$TR.start" start "$start" 2> "$TR.err") || return 1
	err=$(cat "$TR.err")
	diag "a start 5 s past: $(jq -c '{steps, late_mean_us}' <<< "$out"); $err"
	check "a past start is said" grep -q "in the past" <<< "$err" &&
	check "and its steps counted late" \
		test "$(jq '.late_us | min' <<< "$out")" -ge 4400000 &&
	check "the list is the last step's" \
		test "$(entries 1)" = "$(node_mac 2)/100 $(node_mac 3)/100" || return 1
	err=$(mf 1 replay dev eth0 "$TR.start" start 12 2>&1) && return 1
	check "a start far from now is refused" grep -q "invalid start '12'" <<< "$err"
}

# dropped_is NODE MAC N: the entry has counted N drops (for busywait)
dropped_is() { test "$(mf_entry_dropped "$1" "$2")" = "$3"; }

# no drop goes uncounted across a replace (the old table's counts reach
# the new one a grace period later)
test_counts_carried() {
	shared || return 1
	mf 1 load dev eth0 - <<< "$(node_mac 3)" || return 1
	send_frames 3 20 || return 1
	busywait 5000 dropped_is 1 "$(node_mac 3)" 20 || return 1
	mf 1 load dev eth0 - <<< "$(node_mac 3)
$(node_mac 2)" || return 1
	send_frames 3 10 || return 1
	busywait 5000 dropped_is 1 "$(node_mac 3)" 30
	check "30 drops counted over the replace (got $(mf_entry_dropped 1 "$(node_mac 3)"))" \
		test "$(mf_entry_dropped 1 "$(node_mac 3)")" = 30
}

shared_setup setup
ktap_begin 6
run_case "a bad trace is rejected whole, with its line" test_bad_trace
run_case "each step at its time, the list as the last step" test_on_time
run_case "a cut in the trace cuts the medium for its time" test_cut
run_case "replay-all: many nodes' traces from one process" test_replay_all
run_case "drops are counted across a replace" test_counts_carried
run_case "start: one wall-clock time 0 for replays on several hosts" test_start
ktap_end
