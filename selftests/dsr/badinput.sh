#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Malformed DSR packets are dropped and counted, one counter per kind, and
# the node keeps routing; a Route Request flood keeps memory bounded.
#
#   1 --- 2 --- 3        1 crafts packets (scapy-free raw sockets) to 2
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

CRAFT="$AH_ROOT/selftests/lib/dsrcraft.py"

setup() {
	hub_setup 3 && mf_line && dsr_setup
}

craft() {	# CLASS COUNT: from 1 to 2
	nsexec 1 "$PYTHON" "$CRAFT" bad eth0 "$(node_mac 1)" "$(node_mac 2)" \
		"$(node_ip 1)" "$(node_ip 2)" "$1" "$2"
}

counter_is() {	# NODE NAME VALUE
	[[ $(dsr_stat "$1" "$2") == "$3" ]]
}

test_malformed() {
	local c name fails=0
	setup || return 1
	check "routing works before" dsr_ping_ok 1 3 3 || return 1
	for c in $("$PYTHON" "$CRAFT" classes); do
		name=$c
		case $c in
		malformed_route_*) name=malformed_route ;;
		unknown_*) continue ;;
		esac
		local before
		before=$(dsr_stat 2 "$name")
		craft "$c" 5 || return 1
		if ! busywait 3000 counter_is 2 "$name" $((before + 5)); then
			diag "$c: $name went from $before to $(dsr_stat 2 "$name")"
			fails=$((fails + 1))
		fi
	done
	check "every malformed kind counted" test "$fails" -eq 0 &&
	check "routing works after" dsr_ping_ok 1 3 3
}

test_unknown_options() {
	setup || return 1
	dsr_ping_ok 1 2 1
	craft unknown_ignore 3 && craft unknown_remove 3 || return 1
	check "unknown options of the ignore and remove classes counted" \
		busywait 3000 counter_is 2 unknown_option 6 &&
	check "and not counted as malformed" \
		test "$(dsr_stat 2 malformed_unknown_drop)" -eq 0
}

slab_kb() { nsexec 2 awk '/^Slab:/ {print $2}' /proc/meminfo; }

test_rreq_flood() {
	local before after rows
	setup || return 1
	before=$(slab_kb)
	nsexec 1 "$PYTHON" "$CRAFT" flood eth0 "$(node_mac 1)" 5000 || return 1
	busywait 5000 test "$(dsr_stat 2 rreq_received)" -ge 5000
	after=$(slab_kb)
	rows=$(dsr 2 -j reqtable show dsr0 | jq length)
	diag "Route Requests received $(dsr_stat 2 rreq_received)," \
		"forwarded $(dsr_stat 2 rreq_forwarded), queue full" \
		"$(dsr_stat 2 rreq_jitter_queue_full); request table rows $rows;" \
		"slab ${before} -> ${after} kB"
	# KASAN's quarantine keeps freed objects in the slab counters for a
	# while: on the debug kernel only a much larger growth means anything
	# (kmemleak and the lifetime lines catch what is really kept).
	local limit=4096
	[[ ${AH_DEBUG_LANE:-0} == 1 ]] && limit=65536
	check "request table bounded (64 initiators)" test "$rows" -le 64 &&
	check "slab grew less than $((limit / 1024)) MB" \
		test $((after - before)) -lt "$limit" &&
	check "routing works after the flood" dsr_ping_ok 1 3 3
}

ktap_begin 3
run_test "malformed packets dropped and counted by kind" test_malformed
run_test "unknown options of the skip classes" test_unknown_options
run_test "Route Request flood: bounded memory" test_rreq_flood
ktap_end
