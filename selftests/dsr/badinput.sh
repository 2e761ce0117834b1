#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Malformed DSR packets are dropped and counted, one counter per kind, and
# the node keeps routing; a Route Request flood keeps memory bounded; the
# send buffer is bounded and drops duplicates.
#
#   1 --- 2 --- 3        1 crafts packets (scapy-free raw sockets) to 2
#                        1 sends to 10.0.0.99, which is nowhere
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

# raw IPv4/UDP packets from 1 to DST with IP ids ID...: duplicates when
# an id repeats
raw_send() {	# DST ID...
	nsexec 1 "$PYTHON" - "$(node_ip 1)" "$@" <<-'EOF'
		import socket, struct, sys
		src, dst, ids = sys.argv[1], sys.argv[2], sys.argv[3:]
		s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
		for i in ids:
		    udp = struct.pack("!HHHH", 9, 9, 8 + 100, 0) + bytes(100)
		    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp),
		                     int(i), 0, 64, 17, 0, socket.inet_aton(src),
		                     socket.inet_aton(dst))
		    s.sendto(ip + udp, (dst, 0))
	EOF
}

sendbuf_len() {
	dsr 1 -j buffer show dsr0 | jq '[.[] | select(.buffer == "send")] | length'
}

test_sendbuf() {
	setup || return 1
	dsr 1 param set dsr0 send_buffer_packets 10 || return 1
	raw_send 10.0.0.99 7 7 || return 1
	check "the same packet twice: one waits" \
		test "$(sendbuf_len)" -eq 1 &&
	check "the other is a counted duplicate" \
		counter_is 1 sendbuf_drop_duplicate 1 &&
	raw_send 10.0.0.99 $(seq 100 199) &&
	check "at most send_buffer_packets wait" \
		test "$(sendbuf_len)" -eq 10 &&
	check "the rest are counted" counter_is 1 sendbuf_drop_full 91 &&
	check "in the device's tx_dropped too" \
		test "$(nsexec 1 ip -j -s link show dsr0 | jq '.[0].stats64.tx.dropped')" -ge 92 &&
	check "routing works meanwhile" dsr_ping_ok 1 3 3
}

ktap_begin 4
run_test "malformed packets dropped and counted by kind" test_malformed
run_test "unknown options of the skip classes" test_unknown_options
run_test "Route Request flood: bounded memory" test_rreq_flood
run_test "send buffer: bounded, duplicates dropped" test_sendbuf
ktap_end
