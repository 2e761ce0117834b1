#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DSR along a chain of 6 nodes, from node 1 to nodes 2, 3, 5 and 6 (1 to 5
# hops): Route Discovery, then every echo answered along the only path; the
# route cache holds the expected hop count; bulk TCP and UDP across 4 hops.
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

test_chain2() { chain 2; }
test_chain3() { chain 3; }
test_chain5() { chain 5 && iperf 5; }
test_chain6() { chain 6; }

line6() { hub_setup 6 && mf_line && dsr_setup; }

shared_setup line6
ktap_begin 4
run_case "1 hop: 1 -> 2" test_chain2
run_case "2 hops: 1 -> 3" test_chain3
run_case "4 hops: 1 -> 5, iperf3 TCP and UDP" test_chain5
run_case "5 hops: 1 -> 6" test_chain6
ktap_end
