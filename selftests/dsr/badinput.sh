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

craft() {	# CLASS[,CLASS...] COUNT: from 1 to 2
	nsexec 1 "$PYTHON" "$CRAFT" bad eth0 "$(node_mac 1)" "$(node_mac 2)" \
		"$(node_ip 1)" "$(node_ip 2)" "$1" "$2"
}

counter_is() {	# NODE NAME VALUE
	[[ $(dsr_stat "$1" "$2") == "$3" ]]
}

# WANT[counter]=value for node 2: all reached (for busywait); else, with
# "report", say which did not
counters_reached() {
	local k v bad=0
	declare -A now
	while read -r k v; do now[$k]=$v; done < <(dsr_stats 2)
	for k in "${!WANT[@]}"; do
		[[ ${now[$k]:-} == "${WANT[$k]}" ]] && continue
		bad=1
		[[ ${1:-} == report ]] && diag "$k is ${now[$k]:-missing}, not ${WANT[$k]}"
	done
	return $bad
}

# every kind 5 times, in one burst; each counter rises by exactly 5 per
# kind that it counts
test_malformed() {
	local c name k v list=
	declare -A before WANT
	shared || return 1
	check "routing works before" dsr_ping_ok 1 3 3 || return 1
	while read -r k v; do before[$k]=$v; done < <(dsr_stats 2)
	for c in $("$PYTHON" "$CRAFT" classes); do
		name=$c
		case $c in
		malformed_route_*) name=malformed_route ;;
		unknown_*) continue ;;
		esac
		list+=${list:+,}$c
		WANT[$name]=$((${WANT[$name]:-${before[$name]:-0}} + 5))
	done
	craft "$list" 5 || return 1
	busywait 3000 counters_reached
	check "every malformed kind counted" counters_reached report &&
	check "routing works after" dsr_ping_ok 1 3 3
}

test_unknown_options() {
	local unknown dropped
	shared || return 1
	unknown=$(dsr_stat 2 unknown_option)
	dropped=$(dsr_stat 2 malformed_unknown_drop)
	craft unknown_ignore,unknown_remove 3 || return 1
	check "unknown options of the ignore and remove classes counted" \
		busywait 3000 counter_is 2 unknown_option $((unknown + 6)) &&
	check "and not counted as malformed" \
		counter_is 2 malformed_unknown_drop "$dropped"
}

slab_kb() { nsexec 2 awk '/^Slab:/ {print $2}' /proc/meminfo; }

test_rreq_flood() {
	local before after rows
	shared || return 1
	before=$(slab_kb)
	nsexec 1 "$PYTHON" "$CRAFT" flood eth0 "$(node_mac 1)" 5000 || return 1
	busywait 5000 dsr_stat_ge 2 rreq_received 5000
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
	nsexec 1 "$PYTHON" "$AH_ROOT/selftests/lib/rawip.py" udp "$(node_ip 1)" "$@"
}

sendbuf_len() {
	dsr 1 -j buffer show dsr0 | jq '[.[] | select(.buffer == "send")] | length'
}

test_sendbuf() {
	local dup full
	shared || return 1
	dup=$(dsr_stat 1 sendbuf_drop_duplicate)
	full=$(dsr_stat 1 sendbuf_drop_full)
	dsr 1 param set dsr0 send_buffer_packets 10 || return 1
	raw_send 10.0.0.99 7 7 || return 1
	check "the same packet twice: one waits" \
		test "$(sendbuf_len)" -eq 1 &&
	check "the other is a counted duplicate" \
		counter_is 1 sendbuf_drop_duplicate $((dup + 1)) &&
	raw_send 10.0.0.99 $(seq 100 199) &&
	check "at most send_buffer_packets wait" \
		test "$(sendbuf_len)" -eq 10 &&
	check "the rest are counted" \
		counter_is 1 sendbuf_drop_full $((full + 91)) &&
	check "in the device's tx_dropped too" \
		test "$(nsexec 1 ip -j -s link show dsr0 | jq '.[0].stats64.tx.dropped')" -ge 92 &&
	check "routing works meanwhile" dsr_ping_ok 1 3 3
}

source "$(dirname "$0")/../lib/klog.sh"
klog_bad() { dmesg | grep -cE "$AH_KLOG_BAD"; }

# links_mtu MTU: of 1's and 2's hub links, both ends
links_mtu() {
	ip -n "$AH_HUB_NS" link set port1 mtu "$1" &&
		ip -n "$AH_HUB_NS" link set port2 mtu "$1" &&
		nsexec 1 ip link set eth0 mtu "$1" &&
		nsexec 2 ip link set eth0 mtu "$1"
}

# A fragment that dsr_encap_frag() put in IP-in-IP, with bytes after the
# inner packet, in a frame whose tail is in page fragments (a driver's
# paged receive buffers; here a packet socket's PACKET_VNET_HDR over a
# 9000-byte link): taken out, and the tail trimmed, without a warning
# (skb_trim() of a paged skb warns and trims nothing)
test_padded_frag() {
	local n0 bad0 rc=0
	shared || return 1
	n0=$(dsr_stat 2 frag_decapsulated)
	bad0=$(klog_bad)
	links_mtu 9000 || return 1
	nsexec 1 "$PYTHON" "$CRAFT" paddedfrag eth0 "$(node_mac 1)" \
		"$(node_mac 2)" "$(node_ip 1)" "$(node_ip 2)" 6000 || rc=1
	if ((rc == 0)); then
		check "the fragment was taken out" \
			busywait 5000 dsr_stat_ge 2 frag_decapsulated $((n0 + 1)) &&
		check "no warning in the kernel log" \
			test "$(klog_bad)" -eq "$bad0" || rc=1
	fi
	links_mtu 1500 || return 1
	((rc == 0)) && check "routing works after" dsr_ping_ok 1 3 3
}

# one line of three nodes for every case (each leaves it routing)
shared_setup setup
ktap_begin 5
run_case "malformed packets dropped and counted by kind" test_malformed
run_case "unknown options of the skip classes" test_unknown_options
run_case "Route Request flood: bounded memory" test_rreq_flood
run_case "send buffer: bounded, duplicates dropped" test_sendbuf
run_case "a padded fragment in a paged frame" test_padded_frag
ktap_end
