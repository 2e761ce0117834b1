#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DSR along a chain of 6 nodes, from node 1 to nodes 2, 3, 5 and 6 (1 to 5
# hops): Route Discovery, then every echo answered along the only path; the
# route cache holds the expected hop count; bulk TCP and UDP across 4 hops;
# TCP through dsr0's GSO and checksum offload across 3.
#
#   1 --- 2 --- 3 --- 4 --- 5 --- 6    (macfilter: each hears its neighbours)
#   eth0 of every node on one hub (bridge); dsr0 carries 10.0.0.i/24
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool iperf3

# chain N: node 1 reaches node N over the N - 1 hops of the line
chain() {
	local n=$1
	shared || return 1
	dsr_ping_ok 1 "$n" 1 || dsr_ping_ok 1 "$n" 1	# discovery may eat one
	check "1 -> $n: 10 echoes answered" dsr_ping_ok 1 "$n" 10 &&
	check "route 1 -> $n has $((n - 1)) hops" \
		test "$(dsr_hops 1 "$n")" -eq $((n - 1)) &&
	check "route $n -> 1 has $((n - 1)) hops" \
		test "$(dsr_hops "$n" 1)" -eq $((n - 1))
}

# tcp_exact N BYTES: BYTES of random data from 1 to N over TCP arrive
# complete and unchanged (the receiver reads to EOF and hashes)
tcp_exact() {
	local n=$1 bytes=$2 got sent f
	f=$(mktemp)
	nsexec "$n" "$PYTHON" "$AH_ROOT/selftests/lib/tcpsha.py" recv > "$f" &
	local pid=$!
	sent=$(nsexec 1 "$PYTHON" "$AH_ROOT/selftests/lib/tcpsha.py" send "$(node_ip "$n")" "$bytes") ||
		return 1
	wait "$pid"
	got=$(cat "$f")
	rm -f "$f"
	diag "TCP over $((n - 1)) hops: sent $sent; received $got"
	[[ -n $got && $got == "$sent" ]]
}

# an iperf3 TCP transfer, an exact TCP transfer and a UDP stream from 1 to
# N (not a benchmark: they must complete, and the stream must mostly arrive)
iperf() {
	local n=$1 out lost rc=0
	iperf3_server "$n" 5201 || return 1
	out=$(nsexec 1 iperf3 -c "$(node_ip "$n")" -p 5201 -n 1M -J) || rc=$?
	check "iperf3 TCP: the transfer completed" test "$rc" -eq 0 || return 1
	# (the server's byte count stops when the client has written 1 MiB,
	# with part of it still queued along the hops: not a delivery count)
	diag "iperf3 TCP 1 MiB over $((n - 1)) hops:" \
		"$(jq '.end.sum_received.bits_per_second / 1e6 | floor' <<< "$out") Mbit/s"
	check "TCP: 1 MiB arrived complete and unchanged" tcp_exact "$n" 1048576 ||
		return 1
	iperf3_server "$n" 5202 || return 1
	out=$(nsexec 1 iperf3 -c "$(node_ip "$n")" -p 5202 -u -b 1M -t 3 -J) ||
		return 1
	lost=$(jq '.end.sum.lost_percent | floor' <<< "$out")
	diag "UDP 1 Mbit/s for 3 s over $((n - 1)) hops: lost $lost %"
	check "UDP: the stream arrived (loss < 20 %)" test "$lost" -lt 20
}

# counters NODE NAME...: the dsr0 counters, on one line
counters() {
	local n=$1 k
	shift
	for k; do
		printf '%s ' "$(dsr_stat "$n" "$k")"
	done
	echo
}

# GSO and checksum offload: TCP from 1 to 4 (3 hops) reaches dsr0 in GSO
# units, which it cuts into packets that each carry a DSR header (tshark
# decodes them on the hub), with the checksum left to fill in: veth takes
# it across every hop; a relay whose slave cannot fill it in does so
# itself, and the receiver, which then verifies it, gets the data exact.
test_offload() {
	local a b cap bad n rc pid=
	shared || return 1
	dsr_ping_ok 1 4 1 || dsr_ping_ok 1 4 1
	read -r -a a < <(counters 1 tx_gso tx_gso_segs tx_csum_sw)
	cap=$(mktemp -u --suffix=.pcap)
	if [[ ${AH_DEBUG_LANE:-0} != 1 ]] && command -v dumpcap >/dev/null; then
		ip netns exec "$AH_HUB_NS" dumpcap -q -i ahhub -w "$cap" \
			-f "ip proto 48" -c 400 >/dev/null 2>&1 &
		pid=$!
		busywait 30000 test -s "$cap" || return 1
	fi
	check "TCP 1 MiB from 1 to 4, dsr0 offloads on: exact" \
		tcp_exact 4 1048576 || return 1
	read -r -a b < <(counters 1 tx_gso tx_gso_segs tx_csum_sw)
	diag "1 cut $((b[0] - a[0])) GSO units into $((b[1] - a[1])) packets," \
		"filled in $((b[2] - a[2])) checksums"
	check "GSO units reached dsr0 and were cut into packets" \
		test $((b[0] - a[0])) -gt 0 -a $((b[1] - a[1])) -gt $((b[0] - a[0])) &&
	check "no checksum filled in by DSR: veth takes them" \
		test $((b[2] - a[2])) -eq 0 || return 1
	if [[ -n $pid ]]; then
		kill "$pid" 2>/dev/null
		wait "$pid"
		tshark -r "$cap" -T fields -E occurrence=a -E 'separator=|' \
			-e frame.protocols -e _ws.malformed \
			-e _ws.expert.severity > "$cap.txt" 2>/dev/null
		rm -f "$cap"
		n=$(awk -F'|' '$1 ~ /:dsr:tcp/' "$cap.txt" | wc -l)
		bad=$(awk -F'|' '{ s = 0; split($3, v, ",")
			for (i in v) if (v[i] + 0 >= 8388608) s = 1 }
			$2 != "" || s' "$cap.txt" | wc -l)
		rm -f "$cap.txt"
		diag "tshark: $n TCP segments with a DSR header, $bad malformed or with errors"
		check "tshark decodes the segments' DSR headers" \
			test "$n" -ge 100 -a "$bad" -eq 0 || return 1
	fi
	read -r -a a < <(counters 2 tx_csum_sw forwarded)
	nsexec 2 ethtool -K eth0 tx off >/dev/null 2>&1
	tcp_exact 4 1048576
	rc=$?
	nsexec 2 ethtool -K eth0 tx on >/dev/null 2>&1
	read -r -a b < <(counters 2 tx_csum_sw forwarded)
	diag "relay 2 without checksum offload on eth0: forwarded" \
		"$((b[1] - a[1])), filled in $((b[0] - a[0])) checksums"
	check "relay 2, 'tx off' on its eth0: TCP exact at 4" test "$rc" -eq 0 &&
	check "  2 filled in the checksums" test $((b[0] - a[0])) -gt 100 || return 1
	read -r -a a < <(counters 1 tx_gso)
	nsexec 1 ethtool -K dsr0 gso off tso off >/dev/null 2>&1
	tcp_exact 4 1048576
	rc=$?
	nsexec 1 ethtool -K dsr0 gso on tso on >/dev/null 2>&1
	read -r -a b < <(counters 1 tx_gso)
	check "'ethtool -K dsr0 gso off tso off': TCP exact" test "$rc" -eq 0 &&
	check "  and no GSO unit reached dsr0" test "${b[0]}" -eq "${a[0]}"
}

test_chain2() { chain 2; }
test_chain3() { chain 3; }
test_chain5() { chain 5 && iperf 5; }
test_chain6() { chain 6; }

line6() { hub_setup 6 && mf_line && dsr_setup; }

shared_setup line6
ktap_begin 5
run_case "1 hop: 1 -> 2" test_chain2
run_case "2 hops: 1 -> 3" test_chain3
run_case "4 hops: 1 -> 5, iperf3 TCP and UDP" test_chain5
run_case "5 hops: 1 -> 6" test_chain6
run_case "GSO and checksum offload over 3 hops: 1 -> 4" test_offload
ktap_end
