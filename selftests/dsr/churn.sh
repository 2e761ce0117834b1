#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A relay's slave goes away while frames cross it: released (nomaster),
# moved to another namespace and back, deleted and made again, many times
# under two ping floods.  A frame that found the slave just before it went
# must not leave a neighbour (or a Maintenance Buffer entry) behind that
# points at it: every neighbour names a slave that exists, routing works
# after each kind of churn, and the kernel log stays clean (the debug lane
# runs this under KASAN).  dsr0 itself never changes namespace.  A
# relay scrubs what the previous hop left on a packet (its priority).  One
# forged frame does not move a neighbour to another MAC.
#
#   1 --- 2 --- 3     (macfilter line), floods 1 -> 3 and 3 -> 1 over 2;
#         |           2's eth0 is the slave that comes and goes
#      (tmp ns)
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

# cycles of each kind: enough for the receive path to meet the release
# many times (a few hundred ms each under TCG; make soak runs 20, the
# debug lane, several times slower, 3)
if [[ ${AH_DEBUG_LANE:-0} == 1 ]]; then
	CHURN_N=${CHURN_N:-3}
else
	CHURN_N=${CHURN_N:-6}
fi

setup() {
	hub_setup 3 && mf_line && dsr_setup
}

# SRC DST S: 500 echoes a second for S seconds in the background (a
# flood without -i would take both vCPUs and slow the churn, not the race)
flood() {
	nsbg "$1" ping -i 0.002 -w "$3" -q "$(node_ip "$2")" >/dev/null 2>&1
}

floods() {	# S: both ways, with routes found first
	busywait 10000 dsr_ping_ok 1 3 1 || return 1
	flood 1 3 "$1"
	flood 3 1 "$1"
}

# neighbours_on_slaves NODE: every neighbour of NODE's dsr0 is reached
# through a device that is a slave of dsr0 now
neighbours_on_slaves() {
	local slaves bad
	slaves=$(nsexec "$1" ip -j link show master dsr0 | jq -c '[.[].ifindex]')
	bad=$(dsr "$1" -j neigh show dsr0 |
		jq --argjson s "$slaves" '[.[] | select(.slave as $x | $s | index($x) | not)] | length')
	[[ $bad == 0 ]] || { diag "node $1: $bad neighbours on a released slave"; return 1; }
}

enslave() {	# 2's eth0 back under dsr0
	nsexec 2 ip link set eth0 up &&
		nsexec 2 ip link set eth0 master dsr0
}

cycle_nomaster() {
	nsexec 2 ip link set eth0 nomaster && enslave
}

cycle_netns() {
	local tmp
	tmp=$(ns tmp)
	ip netns add "$tmp" &&
		ip -n "$(ns 2)" link set eth0 netns "$tmp" &&
		ip -n "$tmp" link set eth0 netns "$(ns 2)" &&
		ip netns del "$tmp" &&
		enslave
}

# the veth pair goes (2's eth0 and its hub port), and is made again
cycle_delete() {
	ip -n "$(ns 2)" link del eth0 &&
		ip -n "$AH_HUB_NS" -b - <<-EOF && enslave
			link add port2 type veth peer name eth0 address $(hub_mac 2) netns $(ns 2)
			link set port2 master ahhub up
		EOF
}

# The floods' packets cross 2 mostly by the fast path (fastpath.c), which
# reads the neighbours and the slave without the device lock: the churn
# must meet it, not only the general path.
churn() {	# KIND: CHURN_N cycles under the floods, the tables read between
	local i fast f0 f1
	floods $((CHURN_N * 4 * ${AH_TIME_SCALE:-1})) || return 1
	f0=$(dsr_stat 2 fwd_fast)
	for ((i = 0; i < CHURN_N; i++)); do
		"cycle_$1" || { diag "cycle $i of $1 failed"; return 1; }
		dsr 2 neigh show dsr0 >/dev/null
		dsr 2 buffer show dsr0 >/dev/null
	done
	f1=$(dsr_stat 2 fwd_fast)
	fast=$((${f1:-0} - ${f0:-0}))
	kill $(jobs -p) 2>/dev/null
	wait
	diag "relay 2 forwarded $fast packets by the fast path during the churn"
	check "2's neighbours are on its slaves after $CHURN_N cycles ($1)" \
		neighbours_on_slaves 2 &&
	check "  the churn met the fast path ($1)" test "$fast" -gt 0 &&
	check "routing through 2 after the churn ($1)" \
		busywait 15000 dsr_ping_ok 1 3 1
}

test_nomaster() { shared || return 1; churn nomaster; }
test_netns() { shared || return 1; churn netns; }
test_delete() { shared || return 1; churn delete; }

test_dsr0_stays() {
	local tmp
	shared || return 1
	tmp=$(ns tmp)
	ip netns add "$tmp" || return 1
	check "dsr0 refuses to change namespace" \
		not nsexec 1 ip link set dsr0 netns "$tmp" 2>/dev/null &&
	check "dsr0 is still in its namespace" nsexec 1 ip link show dsr0 >/dev/null &&
	check "nothing arrived in the other one" \
		not ip -n "$tmp" link show dsr0 2>/dev/null &&
	check "routing in the old namespace" busywait 10000 dsr_ping_ok 1 3 1
	local rc=$?
	ip netns del "$tmp"
	return $rc
}

# band_pkts NODE N: packets band N (0 the top) of NODE's dsrprio has sent
# (text: iproute2 6.1 prints no JSON for an out-of-tree qdisc's classes)
band_pkts() {
	nsexec "$1" tc -s class show dev eth0 |
		awk -v n="$2" '$1 == "class" { c++ } $1 == "Sent" && c == n + 1 { print $4; f = 1 }
			END { if (!f) print -1 }'
}

band_grew() { (($(band_pkts "$1" "$2") - $3 >= $4)); }	# NODE N FROM BY

# own_control NODE: what NODE's DSR sent in dsrprio's top band itself:
# retransmissions, acknowledgments, requests, replies, errors
own_control() {
	dsr_stats "$1" | awk '$1 ~ /^(retransmissions|ack_sent|rreq_sent|rreq_forwarded|rrep_sent|rerr_sent|grat_rrep_sent|blacklist_probes)$/ { s += $2 }
		END { print s + 0 }'
}

# Datagrams sent with SO_PRIORITY 7 (TC_PRIO_CONTROL) keep it across the
# veth to the relay; forwarded, they must be classified on their TOS like
# any forwarded packet, not ride in the top band meant for DSR's control.
# bands_still NODE: its dsrprio sent nothing for a second (what earlier
# cases sent is through)
bands_still() {
	local a b
	a="$(band_pkts "$1" 0) $(band_pkts "$1" 1)"
	sleep 1
	b="$(band_pkts "$1" 0) $(band_pkts "$1" 1)"
	[[ $a == "$b" ]]
}

test_scrub_priority() {
	local top0 data0 ctrl0 top data ctrl
	shared || return 1
	busywait 10000 dsr_ping_ok 1 3 1 || return 1
	check "the relay is quiet before" busywait 30000 bands_still 2 ||
		return 1
	top0=$(band_pkts 2 0)
	data0=$(band_pkts 2 1)
	ctrl0=$(own_control 2)
	nsexec 1 "$PYTHON" "$AH_ROOT/selftests/lib/udp.py" send \
		"$(node_ip 3)" 9 100 200 200 "" 7 >/dev/null
	busywait 5000 band_grew 2 1 "$data0" 190
	top=$(($(band_pkts 2 0) - top0))
	data=$(($(band_pkts 2 1) - data0))
	ctrl=$(($(own_control 2) - ctrl0))
	diag "relay's bands: top +$top (its own control packets +$ctrl), data +$data"
	check "the relay sent them in its data band" test "$data" -ge 190 &&
	check "not in its control band (beside its own control packets)" \
		test $((top - ctrl)) -le 10
}

# neigh_mac NODE PEER: the MAC NODE's dsr0 sends PEER's frames to
neigh_mac() {
	dsr "$1" -j neigh show dsr0 |
		jq -r --arg a "$(node_ip "$2")" '.[] | select(.addr == $a) | .mac'
}

# A station in range (its MAC allowed at 1) sends 1 frames that claim to
# come from 2: 1 keeps 2's MAC, counts the refusals, and still routes.
test_forged_mac() {
	local forger=02:00:00:00:00:66 mac0 r0 rc
	shared || return 1
	busywait 15000 dsr_ping_ok 1 3 1 || return 1
	mac0=$(neigh_mac 1 2)
	r0=$(dsr_stat 1 neigh_mac_refused)
	mf 1 add dev eth0 "$forger" || return 1
	nsexec 3 "$PYTHON" "$AH_ROOT/selftests/lib/dsrcraft.py" forge eth0 \
		"$forger" "$(hub_mac 1)" "$(node_ip 2)" "$(node_ip 1)" 5
	busywait 5000 dsr_stat_ge 1 neigh_mac_refused $((r0 + 5))
	check "1 keeps 2's MAC ($mac0)" test "$(neigh_mac 1 2)" == "$mac0" &&
	check "the forged frames were refused and counted" \
		dsr_stat_ge 1 neigh_mac_refused $((r0 + 5)) &&
	check "1 still reaches 3 through 2" dsr_ping_ok 1 3 2
	rc=$?
	mf 1 del dev eth0 "$forger"
	return $rc
}

shared_setup setup
ktap_begin 6
run_case "slave released and enslaved under traffic" test_nomaster
run_case "slave moved to another namespace and back under traffic" test_netns
run_case "slave deleted and made again under traffic" test_delete
run_case "dsr0 stays in its namespace" test_dsr0_stays
run_case "a relay scrubs the previous hop's priority" test_scrub_priority
run_case "a forged frame does not move a neighbour's MAC" test_forged_mac
ktap_end
