#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmod/slice, map mode (seed 003's virtual mapper): node 1 keeps eth0, its
# address, and the ports it keeps (DHCP's, and 5001 here); slice m gets an
# eth0 of its own that carries 10.0.0.1: what node 2 sends to 10.0.0.1
# lands in the slice (TCP, UDP, ping), what the slice sends from it leaves
# through node 1's eth0, and from any other source is dropped and
# counted; the node's own connections from the address (TCP it opened, UDP
# it connected) stay the node's; after a revoke nothing reaches the slice.  The same over DSR
# (the mapped interface a slave of dsr0), and the slice's namespace
# exiting and rmmod while node 2 sends to the slice.
#
#        node 1: eth0 10.0.0.1 (stays)      node 2: eth0 10.0.0.2
#          | the mapper: to 10.0.0.1 -> slice m's eth0 (10.0.0.1/32)
#          +---------------- ahhub ----------------+
source "$(dirname "$0")/../lib.sh"

require_cmd ahctl jq ethtool

N1=$(ns 1)
UDP=$AH_ROOT/selftests/lib/udp.py

setup() {
	load_module slice && hub_setup 2
}

slice() {
	ip netns add "$AH_PREFIX$1" && quiet_ns "$AH_PREFIX$1" &&
		ip -n "$AH_PREFIX$1" link set lo up
}

map() {	# map SLICE [ahctl options]: node 1's eth0, mapped into SLICE
	local s=$1
	shift
	ahctl -n "$N1" slice grant dev eth0 netns "$AH_PREFIX$s" mode map "$@"
}

revoke() { ahctl -n "$N1" slice revoke dev eth0; }
granted() { ahctl -n "$N1" slice show dev eth0 >/dev/null 2>&1; }
field() { ahctl -n "$N1" -j slice show dev eth0 | jq -r ".[0].$1"; }
has_dev() { ip -n "$AH_PREFIX$1" link show dev "$2" >/dev/null 2>&1; }

# vstat SLICE rx|tx: packets of the slice's eth0
vstat() {
	ip -n "$AH_PREFIX$1" -s -j link show eth0 |
		jq -r ".[0].stats64.$2.packets"
}

fresh() {
	shared || return 1
	! granted || revoke
}

# udp_to PORT COUNT: node 2 sends COUNT datagrams to 10.0.0.1:PORT
udp_to() {
	nsexec 2 "$PYTHON" "$UDP" send "$(node_ip 1)" "$1" 100 "$2" 0 >/dev/null
}

# udp_count NODE PORT COUNT: how many of COUNT datagrams from node 2 to
# 10.0.0.1:PORT a socket on PORT in NODE gets
udp_count() {
	local f=$AH_TMP/udp.$1.$2 pid n
	nsbg "$1" "$PYTHON" "$UDP" recv "$2" 10 1 > "$f"
	pid=$!
	busywait 5000 udp_listening "$1" "$2" || { kill "$pid"; return 1; }
	udp_to "$2" "$3"
	wait "$pid"
	read -r n _ < "$f"
	echo "${n:-0}"
}

# listen NODE PORT FILE [SECS]: count datagrams to PORT in NODE into FILE
# (for SECS, default 10, or until none came for 2 s after the first)
# listen NODE PORT FILE [SECS]: count datagrams for SECS (10; the debug
# lane's kernel is AH_TIME_SCALE times slower: so is the window)
listen() {
	nsbg "$1" "$PYTHON" "$UDP" recv "$2" "${4:-$((10 * ${AH_TIME_SCALE:-1}))}" 2 > "$3"
	busywait 5000 udp_listening "$1" "$2"
}

test_map() {
	local n k d
	fresh && slice m1 || return 1
	check "map grant" map m1 keep 5001 || return 1
	diag "$(ahctl -n "$N1" slice show)"
	check "node 1 keeps eth0 and its address" \
		ip -n "$N1" -br addr show dev eth0 | grep -q "$(node_ip 1)/24" &&
	check "the slice's eth0 carries 10.0.0.1" \
		ip -n "$AH_PREFIX"m1 -br addr show dev eth0 | grep -q "$(node_ip 1)/32" &&
	check "shown: mode map, addr $(field addr)" \
		test "$(field mode)/$(field addr)" == "map/$(node_ip 1)" &&
	check "node 2 pings the slice" dsr_ping_ok 2 1 3 &&
	check "  answered by the slice (rx $(vstat m1 rx))" \
		test "$(vstat m1 rx)" -ge 3 || return 1
	# UDP to 9999: the slice's; to 5001 (kept) and 68 (DHCP): the node's
	n=$(udp_count m1 9999 5) && k=$(udp_count 1 5001 4) &&
		d=$(udp_count 1 68 2) || return 1
	diag "slice got $n of 5 to 9999; node got $k of 4 to 5001, $d of 2 to 68"
	check "UDP to the address lands in the slice" test "$n" == 5 &&
	check "  to a kept port in the node" test "$k" == 4 &&
	check "  and DHCP's port in the node" test "$d" == 2 || return 1
	# TCP both ways through the mapper
	nsbg m1 "$PYTHON" "$AH_ROOT/selftests/lib/tcpsha.py" recv > "$AH_TMP/tcp.recv"
	busywait 5000 listening m1 5003 || return 1
	nsexec 2 "$PYTHON" "$AH_ROOT/selftests/lib/tcpsha.py" send "$(node_ip 1)" 262144 \
		> "$AH_TMP/tcp.sent" || return 1
	wait
	diag "TCP: sent $(cat "$AH_TMP/tcp.sent"); the slice received $(cat "$AH_TMP/tcp.recv")"
	check "TCP to the address lands in the slice, whole" \
		cmp -s "$AH_TMP/tcp.sent" "$AH_TMP/tcp.recv" &&
	check "the slice reaches node 2 from the address" \
		nsnet m1 ping -c 3 -i 0.2 -W 2 -q "$(node_ip 2)" >/dev/null
}

test_spoof() {
	local n t0
	fresh && slice m2 || return 1
	map m2 || return 1
	ip -n "$AH_PREFIX"m2 addr add 10.0.0.77/32 dev eth0 || return 1
	listen 2 9999 "$AH_TMP/spoof.udp" || return 1
	now_ms
	t0=$AH_NOW_MS
	nsexec m2 "$PYTHON" "$UDP" send "$(node_ip 2)" 9999 100 3 0 10.0.0.77 >/dev/null
	nsexec m2 "$PYTHON" "$UDP" send "$(node_ip 2)" 9999 100 2 0 "$(node_ip 1)" >/dev/null
	now_ms
	wait
	read -r n _ < "$AH_TMP/spoof.udp"
	diag "node 2 got $n of 5; spoofed: $(field spoofed); sent in $((AH_NOW_MS - t0)) ms"
	check "only the slice's own datagrams leave" test "$n" == 2 &&
	check "  the others are dropped and counted" test "$(field spoofed)" == 3
}

test_revoke() {
	local n
	fresh && slice m3 || return 1
	map m3 && check "node 2 pings the slice" dsr_ping_ok 2 1 2 || return 1
	check "revoke" revoke &&
	check "the slice's eth0 is gone" not has_dev m3 eth0 || return 1
	listen m3 9999 "$AH_TMP/after.udp" 3 || return 1
	udp_to 9999 5
	wait
	read -r n _ < "$AH_TMP/after.udp"
	check "nothing reaches the slice after it (${n:-0})" test "${n:-0}" == 0 &&
	check "node 2 pings node 1 itself" dsr_ping_ok 2 1 2
}

# the mapped interface is a slave of dsr0: the address is dsr0's, and
# packets reach the slice after DSR took its header off
test_map_dsr() {
	fresh && slice m4 || return 1
	dsr_setup 1 2 || return 1
	check "map grant of a DSR slave" map m4 || return 1
	check "  mapping dsr0's address" test "$(field addr)" == "$(node_ip 1)" &&
	check "node 2 pings the slice over DSR" \
		busywait 10000 dsr_ping_ok 2 1 2 &&
	check "  answered by the slice (rx $(vstat m4 rx))" \
		test "$(vstat m4 rx)" -ge 2 &&
	check "the slice reaches node 2 over DSR" \
		nsnet m4 ping -c 3 -i 0.2 -W 2 -q "$(node_ip 2)" >/dev/null &&
	diag "the slice's eth0 over dsr0: tx-checksumming $(feature m4 tx-checksumming), GSO $(feature m4 generic-segmentation-offload)" &&
	check "TCP from the slice over DSR arrives whole" tcp_from_slice m4 &&
	check "revoke" revoke
}

test_exit_and_rmmod() {
	local rc
	fresh && slice m5 && slice m6 || return 1
	map m5 || return 1
	nsbg 2 ping -i 0.02 -q -w 30 "$(node_ip 1)" >/dev/null 2>&1
	nap 0.5
	ip netns del "$AH_PREFIX"m5 || return 1
	check "the grant ends with the slice's namespace" busywait 5000 not granted &&
	map m6 && nap 0.5 &&
	check "rmmod while node 2 sends to the slice" rmmod slice &&
	check "the slice's eth0 went with it" not has_dev m6 eth0
	rc=$?
	kill $(jobs -p) 2>/dev/null
	load_module slice || return 1
	return $rc
}

# the mapped interface disappears: the grant and the slice's device go
test_dev_gone() {
	fresh && slice m7 || return 1
	ip -n "$N1" link add vx type veth peer name vy &&
	ip -n "$N1" addr add 10.0.1.1/24 dev vx &&
	ip -n "$N1" link set vx up || return 1
	ahctl -n "$N1" slice grant dev vx netns "$AH_PREFIX"m7 mode map || return 1
	check "the slice has its vx" has_dev m7 vx || return 1
	ip -n "$N1" link del vy || return 1
	check "the grant ends with the device" \
		busywait 3000 not ahctl -n "$N1" slice show dev vx &&
	check "  and the slice's vx with it" not has_dev m7 vx
}

# feature SLICE NAME: on or off, as ethtool -k shows it for the slice's eth0
feature() {
	nsexec "$1" ethtool -k eth0 | awk -v f="$2:" '$1 == f { print $2 }'
}

# tcp_from_slice SLICE: 1 MB from the slice to node 2, compared whole
tcp_from_slice() {
	nsbg 2 "$PYTHON" "$AH_ROOT/selftests/lib/tcpsha.py" recv > "$AH_TMP/otcp.recv"
	local pid=$!
	busywait 5000 listening 2 5003 || return 1
	nsexec "$1" "$PYTHON" "$AH_ROOT/selftests/lib/tcpsha.py" send "$(node_ip 2)" \
		1048576 > "$AH_TMP/otcp.sent" || return 1
	wait "$pid"
	cmp -s "$AH_TMP/otcp.sent" "$AH_TMP/otcp.recv"
}

# the slice's device offers what the mapped interface offers (checksum,
# scatter-gather, segmentation) and follows it when the node turns them off
test_offloads() {
	local f
	fresh && slice m8 || return 1
	map m8 || return 1
	f="$(feature m8 tx-checksumming) $(feature m8 scatter-gather) $(feature m8 generic-segmentation-offload)"
	diag "the slice's eth0: tx-checksumming, scatter-gather, GSO: $f"
	check "the slice's eth0 offers the veth's checksum, SG and GSO" \
		test "$f" == "on on on" &&
	check "  and TCP from the slice arrives whole" tcp_from_slice m8 || return 1
	ip netns exec "$N1" ethtool -K eth0 tx off sg off gso off tso off >/dev/null ||
		return 1
	f="$(feature m8 tx-checksumming) $(feature m8 scatter-gather) $(feature m8 generic-segmentation-offload)"
	diag "node 1's eth0 without them; the slice's eth0: $f"
	check "the slice's eth0 follows the interface" test "$f" == "off off off" &&
	check "  and TCP from the slice arrives whole" tcp_from_slice m8
	local rc=$?
	ip netns exec "$N1" ethtool -K eth0 tx on sg on gso on tso on >/dev/null
	check "and back on with it" test "$(feature m8 tx-checksumming)" == on ||
		return 1
	return $rc
}

# the node's own connections from the mapped address stay the node's: TCP
# it opens, UDP it connects (answers to them are not the slice's)
test_node_conn() {
	local pid reply
	fresh && slice m9 || return 1
	map m9 || return 1
	nsbg 2 "$PYTHON" "$AH_ROOT/selftests/lib/tcpsha.py" recv > "$AH_TMP/ntcp.recv"
	pid=$!
	busywait 5000 listening 2 5003 || return 1
	timeout 30 ip netns exec "$N1" "$PYTHON" "$AH_ROOT/selftests/lib/tcpsha.py" \
		send "$(node_ip 2)" 262144 > "$AH_TMP/ntcp.sent"
	kill "$pid" 2>/dev/null
	wait "$pid"
	diag "the node's TCP: sent $(cat "$AH_TMP/ntcp.sent"); node 2 received $(cat "$AH_TMP/ntcp.recv")"
	check "the node's own TCP from the address works while mapped" \
		cmp -s "$AH_TMP/ntcp.sent" "$AH_TMP/ntcp.recv" || return 1
	nsbg 2 "$PYTHON" -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 9996)); s.settimeout(10)
d, a = s.recvfrom(100); s.sendto(b"re:" + d, a)'
	pid=$!
	busywait 5000 udp_listening 2 9996 || return 1
	reply=$(ip netns exec "$N1" "$PYTHON" -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect((sys.argv[1], 9996)); s.settimeout(3); s.send(b"ping")
print(s.recv(100).decode())' "$(node_ip 2)" 2>&1)
	wait "$pid"
	diag "the node's connected UDP: '$reply'; the slice received $(vstat m9 rx) packets"
	check "the node's connected UDP gets its answer" test "$reply" == "re:ping" &&
	check "the slice got none of it" test "$(vstat m9 rx)" == 0
}

AH_TMP=$(mktemp -d)
trap 'ah_cleanup; rm -rf "$AH_TMP"' EXIT
shared_setup setup
ktap_begin 8
run_case "map: the slice gets the address, the node keeps its ports" test_map
run_case "map: the slice's device offers the interface's offloads" test_offloads
run_case "map: the node's own connections stay the node's" test_node_conn
run_case "map: another source is dropped and counted" test_spoof
run_case "map: nothing reaches the slice after a revoke" test_revoke
run_case "map over DSR: the slice behind dsr0's address" test_map_dsr
run_case "map: the device goes away" test_dev_gone
run_case "map: namespace exit and rmmod under traffic" test_exit_and_rmmod
ktap_end
