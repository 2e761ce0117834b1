#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sch_dsrprio, the multi-level priority qdisc: "tc qdisc add ... dsrprio"
# with no options; strict priority between bands and FIFO inside each;
# DSR control packets in the top band; per-band statistics in tc; dsr0
# puts it on its slaves (slave_qdisc) and takes it off again.
#
#   1 ------ hub ------ 2     1's eth0: tbf 400 kbit at the root, dsrprio
#                             under it, so that a backlog builds up in
#                             dsrprio; 2 notes the order of arrival
source "$(dirname "$0")/../lib.sh"

require_cmd jq tc

CRAFT="$AH_ROOT/selftests/lib/dsrcraft.py"

setup() {
	load_module sch_dsrprio && hub_setup 2 && static_neighbours
}

# band_pkts HANDLE: packets sent by class HANDLE of 1's eth0 (text: tc
# of iproute2 6.1 prints no JSON for a qdisc kind it does not know)
band_pkts() {
	nsexec 1 tc -s class show dev eth0 |
		awk -v h="$1" '$1 == "class" { c = $3 } $1 == "Sent" && c == h { print $4; f = 1 }
			END { if (!f) print -1 }'
}

test_noopts() {
	shared || return 1
	check "tc qdisc add dev eth0 root dsrprio (no options)" \
		nsexec 1 tc qdisc replace dev eth0 root handle 1: dsrprio &&
	check "two bands, two classes" \
		test "$(nsexec 1 tc class show dev eth0 | grep -c '^class dsrprio')" -eq 2 &&
	check "deleted again" nsexec 1 tc qdisc del dev eth0 root
}

# root_kind NODE: the kind of the root qdisc of NODE's eth0
root_kind() {
	nsexec "$1" tc qdisc show dev eth0 root | awk '$1 == "qdisc" { print $2; exit }'
}

test_slave_qdisc() {
	local rc
	shared || return 1
	load_module dsr || return 1
	check "eth0 starts with the default qdisc" test "$(root_kind 1)" = noqueue &&
	check "enslaved to dsr0" nsexec 1 sh -c \
		'ip link add dsr0 type dsr && ip link set eth0 master dsr0' &&
	check "dsr0 put dsrprio at eth0's root" test "$(root_kind 1)" = dsrprio &&
	check "released: the default qdisc again" nsexec 1 ip link set eth0 nomaster &&
	check "  noqueue" test "$(root_kind 1)" = noqueue &&
	check "slave_qdisc 0" dsr 1 param set dsr0 slave_qdisc 0 &&
	check "enslaved again" nsexec 1 ip link set eth0 master dsr0 &&
	check "  no dsrprio" test "$(root_kind 1)" = noqueue &&
	check "a qdisc of the user's own is kept" nsexec 1 sh -c \
		'ip link set eth0 nomaster && tc qdisc add dev eth0 root handle 1: pfifo' &&
	check "slave_qdisc 1" dsr 1 param set dsr0 slave_qdisc 1 &&
	check "enslaved again" nsexec 1 ip link set eth0 master dsr0 &&
	check "  still pfifo" test "$(root_kind 1)" = pfifo &&
	check "  counted" test "$(dsr_stat 1 slave_qdisc_failed)" -eq 1 &&
	check "deleting dsr0 releases eth0" nsexec 1 ip link del dsr0 &&
	check "  the user's pfifo stays" test "$(root_kind 1)" = pfifo
	rc=$?
	nsexec 1 ip link del dsr0 2>/dev/null
	nsexec 1 tc qdisc del dev eth0 root 2>/dev/null
	return $rc
}

# recv N: on 2, print the payloads of N UDP datagrams in order of arrival
recv() {
	nsexec 2 "$PYTHON" "$AH_ROOT/selftests/lib/tosudp.py" recv "$1" "$((10 * ${AH_TIME_SCALE:-1}))"
}

# send LOW HIGH: from 1, LOW datagrams of TOS 0, then HIGH of TOS low-delay
send() {
	nsexec 1 "$PYTHON" "$AH_ROOT/selftests/lib/tosudp.py" send "$(node_ip 2)" "$1" "$2"
}

# in_order KIND FILE: the datagrams of KIND arrived 0, 1, 2, ...
in_order() {
	awk -v k="$1" '$1 == k { if ($2 != n++) bad = 1 } END { exit bad }' "$2"
}

test_strict_fifo() {
	local out low0 high0 after
	shared || return 1
	nsexec 1 tc qdisc replace dev eth0 root handle 1: tbf rate 400kbit \
		burst 1600 latency 10s &&
	nsexec 1 tc qdisc add dev eth0 parent 1:1 handle 10: dsrprio || return 1
	low0=$(band_pkts 10:2)
	high0=$(band_pkts 10:1)
	out=$(mktemp)
	recv 50 > "$out" &
	local pid=$!
	busywait 10000 grep -qs ready "$out" || return 1
	send 40 10 || return 1
	wait $pid
	sed -i 1d "$out"
	# low-priority datagrams that arrived after the first high one
	after=$(awk '$1 == "H" { h = 1 } h && $1 == "L" { n++ } END { print n + 0 }' "$out")
	diag "arrival order: $(awk '{ printf "%s%s", $1, $2 " " }' "$out")"
	diag "$after of 40 low-priority datagrams arrived after the first" \
		"high-priority one"
	check "all 50 arrived" test "$(wc -l < "$out")" -eq 50 &&
	check "low-priority ones in order (FIFO in a band)" in_order L "$out" &&
	check "high-priority ones in order" in_order H "$out" &&
	check "high-priority ones overtook the backlog (>= 20 low after)" \
		test "$after" -ge 20 &&
	check "band 1 (low-delay TOS) sent 10" \
		test $(($(band_pkts 10:1) - high0)) -eq 10 &&
	check "band 2 sent 40" test $(($(band_pkts 10:2) - low0)) -eq 40
	local rc=$?
	rm -f "$out"
	nsexec 1 tc qdisc del dev eth0 root
	return $rc
}

test_dsr_control() {
	shared || return 1
	nsexec 1 tc qdisc replace dev eth0 root handle 1: dsrprio || return 1
	nsexec 1 "$PYTHON" "$CRAFT" flood eth0 "$(node_mac 1)" 100 &&
	nsexec 1 "$PYTHON" "$CRAFT" bad eth0 "$(node_mac 1)" "$(node_mac 2)" \
		"$(node_ip 1)" "$(node_ip 2)" malformed_truncated,malformed_route_self 5 ||
		return 1
	diag "$(nsexec 1 tc -s class show dev eth0 | tr -s '\n ' ' ')"
	check "100 Route Requests in the top band" test "$(band_pkts 1:1)" -eq 100 &&
	check "10 malformed DSR packets counted as data" \
		test "$(band_pkts 1:2)" -eq 10
	local rc=$?
	nsexec 1 tc qdisc del dev eth0 root
	return $rc
}

shared_setup setup
ktap_begin 4
run_case "dsrprio with no options: two bands" test_noopts
run_case "dsr0 puts dsrprio on its slaves and takes it off" test_slave_qdisc
run_case "strict priority between bands, FIFO inside each" test_strict_fifo
run_case "DSR control packets in the top band" test_dsr_control
ktap_end
