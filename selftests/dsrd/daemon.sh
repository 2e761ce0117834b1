#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dsrd, the node daemon: a bad config is refused with its line and changes
# nothing; a start sets up dsr0, its slave, address, parameters and
# macfilter as the file says; SIGHUP applies only what changed (routes
# kept); the stats log stays within its bound; the systemd notify protocol
# (a listener socket stands in for systemd); SIGTERM leaves the node as it
# was; a missing module is a clear error (exit 3); a start with an [mcast]
# section joins its stream as the file says, and one with an [mcast.map]
# maps its group's sources; a reload without them leaves and unmaps.
#
#   1 --- 2 --- 3        hub; dsrd on 1 (eth0 enslaved to dsr0), 2 and 3
#                        set up by dsr_setup; 1 reaches 3 through 2
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl

DSRD=$AH_ROOT/userspace/dsrd/dsrd
T=/tmp/ah-dsrd.$$
# the notify listener runs in the root namespace: ah_cleanup does not see it
trap '[[ -f $T/listener.pid ]] && kill "$(cat "$T/listener.pid")" 2>/dev/null
	rm -rf "$T"; ah_cleanup' EXIT
mkdir -p "$T"

# conf FILE RTO_MIN [extra lines]: node 1's config
conf() {
	cat > "$1" <<-EOF
		# node 1
		[dsr]
		Interface = eth0
		Address = $(node_ip 1)/24
		[dsr.params]
		rto_min_ms = $2
		request_period_ms = 400
		[macfilter]
		Interface = eth0
		Mode = deny
		Entry = $(node_mac 3)		# 1 - 3 only through 2
		[log]
		StatsInterval = 1
		StatsFile = $T/stats.jsonl
		StatsMaxBytes = 16K
		StatsKeep = 2
		EventsFile = $T/events.jsonl
		${3:-}
	EOF
}

param() { dsr 1 -j param show dsr0 | jq -r ".$1"; }
# no_dev NODE DEV: the device does not exist there
no_dev() { ! nsexec "$1" ip link show "$2" >/dev/null 2>&1; }
dsrd_pid() { pgrep -f "dsrd -N $(ns 1)" | head -1; }

# notify listener: every datagram on $T/notify as a line of $T/notify.log
notify_listen() {
	# not on the script's stdout: run_guest.sh's tee would wait for it
	"$PYTHON" "$AH_ROOT/selftests/lib/sdnotify.py" "$T/notify" "$T/notify.log" > /dev/null 2>&1 &
	echo $! > "$T/listener.pid"
	busywait 10000 grep -qs ready "$T/notify.log"
}

setup() {
	hub_setup 3 || return 1
	# the missing-module case runs before anything is loaded
	[[ -x $DSRD ]] || { diag "no $DSRD: make userspace"; return 1; }
}

test_missing_module() {
	local err rc=0
	shared || return 1
	unload_module dsr
	lsmod | grep -q '^dsr ' && { diag "dsr is loaded and in use"; return "$ksft_skip"; }
	conf "$T/c0.conf" 50
	err=$(timeout 20 "$DSRD" -N "$(ns 1)" -f -c "$T/c0.conf" 2>&1) || rc=$?
	diag "without the modules: rc $rc: $(head -1 <<< "$err")"
	check "exit 3" test "$rc" -eq 3 &&
	check "names the module" grep -q "dsr" <<< "$err" &&
	check "no dsr0 left" no_dev 1 dsr0
}

test_bad_config() {
	local f=$T/bad.conf err rc=0
	shared || return 1
	conf "$f" 50 "Bogus = 1"
	err=$("$DSRD" --check -c "$f" 2>&1) || rc=$?
	diag "unknown key: rc $rc: $err"
	check "unknown key: exit 2" test "$rc" -eq 2 &&
	check "  with its line" grep -q "$f:18:" <<< "$err" || return 1
	conf "$f" 50
	sed -i 's/^Entry = .*/Entry = 02:00:00:00:00/' "$f"
	rc=0
	err=$("$DSRD" -N "$(ns 1)" -f -c "$f" 2>&1) || rc=$?
	diag "bad MAC at start: rc $rc: $err"
	check "bad MAC: exit 2" test "$rc" -eq 2 &&
	check "  with its line" grep -q "$f:11:" <<< "$err" &&
	check "  and nothing set up" no_dev 1 dsr0 &&
	check "  eth0 keeps its address" nsexec 1 ip -4 -o addr show dev eth0 | grep -q "$(node_ip 1)/"
}

test_start() {
	shared || return 1
	load_module sch_dsrprio && load_module dsr && load_module macfilter || return 1
	# 2 and 3 the usual way; 1 by dsrd
	dsr_setup 2 3 || return 1
	nsexec 1 ip address flush dev eth0
	conf "$T/c1.conf" 50
	notify_listen || return 1
	NOTIFY_SOCKET=$T/notify WATCHDOG_USEC=400000 \
		"$DSRD" -N "$(ns 1)" -f -c "$T/c1.conf" > /dev/null 2> "$T/dsrd.err" &
	busywait 20000 grep -q READY=1 "$T/notify.log" || { cat "$T/dsrd.err"; return 1; }
	diag "notify: $(head -3 "$T/notify.log" | tail -2 | xargs)"
	check "dsr0 up" nsexec 1 ip link show dsr0 up | grep -q UP &&
	check "eth0 its slave" nsexec 1 ip link show eth0 | grep -q "master dsr0" &&
	check "the address on dsr0" nsexec 1 ip -4 -o addr show dev dsr0 | grep -q "$(node_ip 1)/24" &&
	check "rto_min_ms as the file says" test "$(param rto_min_ms)" = 50 &&
	check "request_period_ms as the file says" test "$(param request_period_ms)" = 400 &&
	check "macfilter attached with the entry" \
		test "$(mf 1 -j show dev eth0 | jq -r '.[0].entries[0].mac')" = "$(node_mac 3)" &&
	check "1 reaches 3 through 2" busywait 10000 dsr_ping_ok 1 3 &&
	check "watchdog pings" busywait 5000 grep -q WATCHDOG=1 "$T/notify.log"
}

test_reload() {
	local routes0 routes1 mfev0 mfev1 p0 p1
	shared || return 1
	routes0=$(dsr 1 -j route show dsr0 | jq length)
	p0=$(param request_period_ms)
	mfev0=$(grep -c '"family":"macfilter"' "$T/events.jsonl")
	conf "$T/c1.conf" 80
	kill -HUP "$(dsrd_pid)"
	busywait 10000 test "$(param rto_min_ms)" = 80 || { diag "rto_min_ms $(param rto_min_ms)"; return 1; }
	sleep 1
	routes1=$(dsr 1 -j route show dsr0 | jq length)
	p1=$(param request_period_ms)
	mfev1=$(grep -c '"family":"macfilter"' "$T/events.jsonl")
	diag "reload: rto_min_ms 80, routes $routes0 -> $routes1," \
		"macfilter notifications $mfev0 -> $mfev1; notify: $(grep -c RELOADING=1 "$T/notify.log") RELOADING"
	check "routes kept" test "$routes1" -ge 1 -a "$routes1" -ge "$routes0" &&
	check "the other parameter untouched" test "$p1" = "$p0" &&
	check "macfilter not touched" test "$mfev1" -eq "$mfev0" &&
	check "RELOADING then READY" grep -q RELOADING=1 "$T/notify.log" &&
	check "still running" kill -0 "$(dsrd_pid)" &&
	check "still routing" dsr_ping_ok 1 3
}

test_bad_reload() {
	shared || return 1
	conf "$T/c1.conf" 80 "Nonsense"
	kill -HUP "$(dsrd_pid)"
	busywait 5000 grep -q "c1.conf:18" "$T/dsrd.err" || { tail -3 "$T/dsrd.err" | sed 's/^/# /'; return 1; }
	diag "bad reload: $(grep -m1 'c1.conf:18' "$T/dsrd.err")"
	check "still running" kill -0 "$(dsrd_pid)" &&
	check "config unchanged" test "$(param rto_min_ms)" = 80
}

test_stats_bound() {
	local total
	shared || return 1
	busywait 60000 test -f "$T/stats.jsonl.2" || { ls -l "$T" | sed 's/^/# /'; return 1; }
	total=$(cat "$T"/stats.jsonl* | wc -c)
	diag "stats files: $(ls "$T" | grep -c stats) ($total bytes); a line:" \
		"$(tail -1 "$T/stats.jsonl" | jq -c '{time, dsr: (.dsr | length), macfilter: (.macfilter | length)}')"
	check "rotated, at most stats.jsonl.2" not test -e "$T/stats.jsonl.3" &&
	check "within (keep + 1) x 16 KiB" test "$total" -le $((3 * 16384)) &&
	check "every line is JSON with the DSR counters" \
		jq -e -s 'all(.[]; .dsr.retransmissions != null)' "$T/stats.jsonl" >/dev/null
}

test_stop() {
	local pid
	shared || return 1
	pid=$(dsrd_pid)
	kill -TERM "$pid"
	busywait 10000 not kill -0 "$pid" 2>/dev/null || return 1
	check "STOPPING notified" grep -q STOPPING=1 "$T/notify.log" &&
	check "no dsr0 left" no_dev 1 dsr0 &&
	check "macfilter detached" not mf 1 show dev eth0 2>/dev/null &&
	check "eth0 up, no master" nsexec 1 ip link show eth0 up | not grep -q master
}

# mc_group GROUP: "LAYERS TAG ID TIDS GROUP-LAYERS" of node 1's group
# (3, GROUP), nothing if it has none; false if mcast show fails
mc_group() {
	local rows
	rows=$(dsr 1 -j mcast show dev dsr0) || return 1
	jq -r --arg s "$(node_ip 3)" --arg g "$1" '.[] | select(.mc_row == "group" and
		.mc_source == $s and .mc_group == $g) |
		"\(.mc_layers) \(.mc_tag_mode) \(.mc_tag_ext_id) \(.mc_tag_tids) \(.mc_tag_layers)"' \
		<<< "$rows"
}
mc_group_is() { local got; got=$(mc_group "$1") && [[ $got == "$2" ]]; }

# mc_map_is GROUP "SOURCE..." : node 1's source map has GROUP with these
# sources (sorted), and nothing else of GROUP ("": GROUP not mapped)
mc_map_is() {
	local rows
	rows=$(dsr 1 -j mcast show dev dsr0) || return 1
	[[ $(jq -r --arg g "$1" '[.[] | select(.mc_row == "map" and
		.mc_group == $g) | .mc_source] | sort | join(" ")' \
		<<< "$rows") == "$2" ]]
}

# dsrd again on 1 (stopped by test_stop), its file with an [mcast]
# section and an [mcast.map]: the join and the source map are there as
# configured once it is up; a reload without the sections leaves the
# group and unmaps the sources; then stopped again
test_mcast() {
	local g=239.5.5.5 m=239.5.5.6 srcs pid rc=0
	shared || return 1
	load_module sch_dsrprio && load_module dsr && load_module macfilter || return 1
	no_dev 1 dsr0 || { diag "dsr0 is still there"; return 1; }
	conf "$T/c3.conf" 50 "[mcast]
Source = $(node_ip 3)
Group = $g
Layers = 2
Tag = rtp
Id = 3
GroupLayers = 4
[mcast.map]
Group = $m
Source = $(node_ip 3)
Source = $(node_ip 2)"
	srcs="$(node_ip 2) $(node_ip 3)"
	# a grandchild, as test_start's: no zombie of ours for kill -0 to see
	("$DSRD" -N "$(ns 1)" -f -c "$T/c3.conf" > /dev/null 2> "$T/dsrd3.err" &)
	check "start: joined, layers 2, tag rtp id 3 tids 0, group-layers 4" \
		busywait 10000 mc_group_is "$g" "2 rtp 3 0 4" &&
	check "start: $m mapped to $srcs" mc_map_is "$m" "$srcs" || {
		diag "mcast show: $(dsr 1 -j mcast show dev dsr0 2>&1)"
		sed 's/^/# /' "$T/dsrd3.err"
		rc=1
	}
	pid=$(dsrd_pid)
	if ((!rc)); then
		conf "$T/c3.conf" 50
		kill -HUP "$pid"
		check "reload without the sections: the group is gone" \
			busywait 10000 mc_group_is "$g" "" &&
		check "  and the map of $m" mc_map_is "$m" "" &&
		check "  dsrd keeps running" kill -0 "$pid" || rc=1
	fi
	diag "dsrd: $(grep -h 'mcast' "$T/dsrd3.err" | paste -sd';')"
	[[ -n $pid ]] && kill -TERM "$pid"
	busywait 10000 not kill -0 "$pid" 2>/dev/null &&
	check "stopped: no dsr0 left" no_dev 1 dsr0 || rc=1
	return $rc
}

shared_setup setup
ktap_begin 8
run_case "a missing module: exit 3, named" test_missing_module
run_case "a bad config is refused with its line, nothing changes" test_bad_config
run_case "start: dsr0, slave, address, parameters, macfilter; READY" test_start
run_case "SIGHUP applies only the changed parameter" test_reload
run_case "a bad config on SIGHUP is refused, dsrd keeps running" test_bad_reload
run_case "the stats log rotates within its bound" test_stats_bound
run_case "SIGTERM leaves no device or attachment behind" test_stop
run_case "[mcast], [mcast.map]: joined and mapped at start as the file says, left and unmapped on a reload without them" test_mcast
ktap_end
