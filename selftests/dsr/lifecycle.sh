#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dsr0 in several namespaces at once; slaves come and go; deleting a
# namespace and unloading the module while traffic flows is clean (the
# harness checks the kernel log after the suite).
#
#   1 --- 2 --- 3 --- 4 --- 5    (macfilter line), one network for all
#                                cases: ping floods 5 -> 3 while 4's and
#                                5's namespaces go, then 1 -> 3 while
#                                the module goes
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

setup() {
	hub_setup 5 && mf_line && dsr_setup
}

flood() {	# SRC DST S: background traffic for S seconds
	nsexec "$1" ping -f -w "$3" -q "$(node_ip "$2")" >/dev/null 2>&1 &
}

test_netlink_errors() {
	shared || return 1
	check "unknown parameter value refused" \
		not dsr 1 param set dsr0 discovery_hop_limit 0 &&
	check "refused change left the parameter" \
		test "$(dsr 1 -j param show dsr0 | jq .discovery_hop_limit)" -eq 255 &&
	check "a route with a loop is refused" \
		not dsr 1 route add dsr0 10.0.0.3 via 10.0.0.2 10.0.0.2 &&
	check "a route through ourselves is refused" \
		not dsr 1 route add dsr0 10.0.0.3 via 10.0.0.1 &&
	check "not a dsr device" not dsr 1 param show eth0 &&
	check "unprivileged change gets EPERM" \
		not setpriv --reuid=nobody --inh-caps=-all --bounding-set=-all \
			ahctl -n "$(ns 1)" dsr param set dsr0 gateway 1 2>/dev/null
}

promisc() { nsexec "$1" ip -d -j link show eth0 | jq '.[0].promiscuity'; }

test_enslave() {
	shared || return 1
	check "an enslaved device is promiscuous" test "$(promisc 2)" -eq 1 ||
		return 1
	check "a dsr device cannot be a slave" \
		not nsexec 1 sh -c 'ip link add dsr1 type dsr && ip link set dsr1 master dsr0' ||
		{ nsexec 1 ip link del dsr1 2>/dev/null; return 1; }
	nsexec 1 ip link del dsr1 2>/dev/null
	dsr_ping_ok 1 3 1 || dsr_ping_ok 1 3 1
	check "2 releases its slave" nsexec 2 ip link set eth0 nomaster &&
	check "eth0 left promiscuous mode" test "$(promisc 2)" -eq 0 &&
	check "no route through 2 without its slave" not dsr_ping_ok 1 3 1 &&
	check "enslaved again" nsexec 2 ip link set eth0 master dsr0 &&
	check "routing again" busywait 10000 dsr_ping_ok 1 3 1
}

# what NODE's DSR took from its slave: the counters of every frame it
# received or overheard
dsr_rx_sum() {
	nsnet "$1" ethtool -S dsr0 | awk '$1 ~ /^(overheard|forwarded|delivered|not_for_us|rreq_received|rrep_received|rerr_received|ack_received|malformed_.*):$/ { n += $2 } END { print n + 0 }'
}

# DSR receives behind macfilter (kmod/common/macfilter_next.h): a user's
# filter on a slave can be detached and attached again while DSR routes,
# and what it drops never reaches DSR.
test_macfilter_behind() {
	local a b d
	shared || return 1
	dsr_ping_ok 1 3 1 || dsr_ping_ok 1 3 1
	check "macfilter detached from 2's slave" mf 2 detach dev eth0 &&
	check "  and shows as detached" not mf 2 show dev eth0 2>/dev/null &&
	check "  DSR still routes through 2" busywait 10000 dsr_ping_ok 1 3 1 &&
	check "  100 echoes through 2 unfiltered" dsr_ping_ok 1 3 100 &&
	check "attached again (allow mode, empty list)" \
		mf 2 attach dev eth0 mode allow &&
	check "  its counters start at 0" \
		test "$(mf_dev_field 2 seen)" -lt 50 || return 1
	a=$(dsr_rx_sum 2)
	nsexec 1 ping -c 20 -i 0.05 -W 1 "$(node_ip 3)" >/dev/null 2>&1
	b=$(dsr_rx_sum 2)
	d=$(mf_dev_field 2 dropped)
	diag "2's macfilter dropped $d frames; DSR took $((b - a))"
	check "  what macfilter drops never reaches DSR" \
		test "$d" -ge 10 -a "$b" -eq "$a" &&
	check "  2 hears 1 and 3 again" \
		mf 2 add dev eth0 "$(node_mac 1)" &&
		mf 2 add dev eth0 "$(node_mac 3)" &&
	check "  and routes again" busywait 15000 dsr_ping_ok 1 3 1
}

test_netns_delete_under_traffic() {
	shared || return 1
	dsr_ping_ok 5 3 1 || dsr_ping_ok 5 3 1
	flood 5 3 5
	sleep 1
	check "delete the middle node's namespace under traffic" \
		ip netns del "$(ns 4)" &&
	sleep 1 &&
	check "delete the sender's namespace under traffic" \
		ip netns del "$(ns 5)"
}

test_rmmod_under_traffic() {
	shared || return 1
	dsr_ping_ok 1 3 1 || dsr_ping_ok 1 3 1
	flood 1 3 8
	sleep 2
	check "rmmod dsr under traffic" rmmod dsr &&
	check "no dsr device left" not nsexec 1 ip link show dsr0 &&
	check "load again" load_module dsr
}

shared_setup setup
ktap_begin 5
run_case "bad requests refused, nothing changed" test_netlink_errors
run_case "slaves released and enslaved again" test_enslave
run_case "macfilter's filter on a slave, detached and attached again" \
	test_macfilter_behind
run_case "namespace deleted under traffic" test_netns_delete_under_traffic
run_case "rmmod under traffic" test_rmmod_under_traffic
ktap_end
