#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Route Request flood does not make a node an amplifier: a station in
# range (4) sends 2000 forged requests a second for 10 s (a new initiator
# and id each); 2 answers and forwards no more of them than its rate
# limits allow (ratelimit.h: 50 a second from one neighbour), counts the
# rest, and a discovery from 1 to 3 through 2 succeeds while the flood
# goes on.
#
#   1 --- 2 --- 3     (macfilter), DSR on 1, 2, 3
#         |
#         4           no DSR: raw frames (selftests/lib/dsrcraft.py flood)
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

# 2000 forged requests a second for 10 s: 40 times what one neighbour may
# get through, and no more than the receiving guest takes in, so that the
# rate limit, not a full receive backlog, is what drops them (checked:
# the guest's softnet drops).  The debug lane's kernel takes in far less.
# There each request 2 lets through costs three broadcasts (2's, then 1's
# and 3's), and in a one-vCPU guest of it floods of 125, 250 and 500 a
# second filled the backlog (thousands dropped, the discovery's frames
# among them; CI's debug lane failed so at 500); 60 did not.  With an IP
# TTL of 2, 1 and 3 do not take 2's copies further: 125 a second dropped
# nothing, 250 dropped 243 frames.  So there the flood is 125 a second,
# 2.5 times one neighbour's rate, for 20 s, with TTL 2.
if [[ ${AH_DEBUG_LANE:-0} == 1 ]]; then
	FLOOD_PPS=${FLOOD_PPS:-125}
	FLOOD_TTL=${FLOOD_TTL:-2}
	FLOOD_N=${FLOOD_N:-$((FLOOD_PPS * 20))}
else
	FLOOD_PPS=${FLOOD_PPS:-2000}
	FLOOD_TTL=${FLOOD_TTL:-255}
	FLOOD_N=${FLOOD_N:-$((FLOOD_PPS * 10))}
fi
RATE_NEIGH=50		# DSR_RREQ_RATE_NEIGH, a second and at once

setup() {
	hub_setup 4 && load_module macfilter &&
		mf_links 1 2 && mf_links 2 1 3 4 && mf_links 3 2 && dsr_setup 1 2 3
}

# admitted NODE: Route Requests NODE took further than validation
sent_for() {
	echo $(($(dsr_stat "$1" rreq_forwarded) + $(dsr_stat "$1" rrep_sent) +
		$(dsr_stat "$1" rreq_jitter_queue_full)))
}

# backlog_drops: frames the guest's CPUs dropped at a full receive backlog
# (netdev_max_backlog), all namespaces together
backlog_drops() {
	local n=0 d
	for d in $(awk '{ print $2 }' /proc/net/softnet_stat); do
		n=$((n + 16#$d))
	done
	echo "$n"
}

test_flood() {
	local pid t0 tp secs a0 l0 r0 d0 admitted limited received running rc
	shared || return 1
	busywait 10000 dsr_ping_ok 1 3 1 || return 1
	for i in 1 2 3; do dsr "$i" flush dsr0; done
	a0=$(sent_for 2)
	l0=$(dsr_stat 2 rreq_rate_limited)
	r0=$(dsr_stat 2 rreq_received)
	d0=$(backlog_drops)
	t0=$(date +%s%3N)
	nsexec 4 "$PYTHON" "$AH_ROOT/selftests/lib/dsrcraft.py" flood eth0 \
		"$(hub_mac 4)" "$FLOOD_N" "$FLOOD_PPS" "$FLOOD_TTL" &
	pid=$!
	busywait 20000 dsr_stat_ge 2 rreq_received $((r0 + FLOOD_PPS))
	# a discovery through the flooded node, while the flood goes on
	tp=$(date +%s%3N)
	nsexec 1 ping -c 1 -W 20 -q "$(node_ip 3)" >/dev/null 2>&1
	rc=$?
	kill -0 "$pid" 2>/dev/null && running=1 || running=0
	diag "the ping from 1 to 3 began at $(( (tp - t0) / 1000 )) s of the" \
		"flood, ended $(( ($(date +%s%3N) - tp) / 1000 )) s later with" \
		"exit $rc; the flood still going: $running"
	wait "$pid"
	secs=$(( ($(date +%s%3N) - t0 + 999) / 1000 ))
	# until 2 has taken every request in
	while :; do
		received=$(dsr_stat 2 rreq_received)
		sleep 1
		[[ $(dsr_stat 2 rreq_received) == "$received" ]] && break
	done
	admitted=$(($(sent_for 2) - a0))
	limited=$(($(dsr_stat 2 rreq_rate_limited) - l0))
	received=$(($(dsr_stat 2 rreq_received) - r0))
	diag "$secs s: 2 received $received requests, rate-limited $limited," \
		"answered or forwarded $admitted; receive backlog drops" \
		"$(($(backlog_drops) - d0))"
	# 2 may still be working through its backlog when the sender is
	# done: a few seconds more of its rate, and 1's and 3's own requests
	check "the guest took the flood in (no receive backlog drops)" \
		test "$(backlog_drops)" -eq "$d0" &&
	check "the discovery through 2 succeeded during the flood" \
		test "$rc" -eq 0 -a "$running" -eq 1 &&
	check "2 answered or forwarded at most its rate of them" \
		test "$admitted" -le $((RATE_NEIGH * (secs + 3) + 40)) &&
	check "the rest of the flood was counted" \
		test "$limited" -ge $((FLOOD_N - RATE_NEIGH * (secs + 3) - 40)) &&
	check "routing works after the flood" dsr_ping_ok 1 3 2
}

shared_setup setup
ktap_begin 1
run_case "a Route Request flood is rate-limited; discovery goes on" test_flood
ktap_end
