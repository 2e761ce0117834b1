#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ICMP errors through DSR (kmod/dsr/icmp.c): relays answer a packet whose
# TTL runs out (traceroute through dsr0 names every hop), a DF packet too
# big for the next hop gets Fragmentation Needed with the MTU that fits
# (path-MTU discovery through dsr0 works), a Segments Left past the
# addresses gets a Parameter Problem; errors are rate-limited per
# destination as IP's own are.
#
#   1 --- 2 === 3 --- 4     hub line (macfilter) 1-2 and 3-4; 2 and 3 hear
#                           each other only over a veth pair of their own,
#                           eth1, MTU 1200, a second slave of each dsr0
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool traceroute iperf3 nstat ss

CRAFT="$AH_ROOT/selftests/lib/dsrcraft.py"

setup() {
	hub_setup 4 && load_module macfilter &&
		mf_links 1 2 && mf_links 2 1 && mf_links 3 4 && mf_links 4 3 || return 1
	ip -n "$(ns 2)" link add eth1 mtu 1200 type veth peer name eth1 \
		mtu 1200 netns "$(ns 3)" || return 1
	dsr_setup || return 1
	for i in 2 3; do
		nsexec "$i" ip link set eth1 up &&
			nsexec "$i" ip link set eth1 master dsr0 || return 1
	done
	busywait 15000 dsr_ping_ok 1 4 1
}

test_traceroute() {
	local out hops
	shared || return 1
	out=$(nsexec 1 traceroute -n -q 1 -w 3 -m 6 "$(node_ip 4)" 2>&1)
	diag "$(tr '\n' ';' <<< "$out")"
	hops=$(awk 'NR > 1 { printf "%s ", $2 }' <<< "$out")
	check "traceroute names 2, 3 and 4" \
		test "$hops" == "$(node_ip 2) $(node_ip 3) $(node_ip 4) "
}

test_ttl() {
	local out
	shared || return 1
	out=$(nsexec 1 ping -n -c 1 -t 1 -W 3 "$(node_ip 4)" 2>&1)
	check "TTL 1: Time Exceeded from 2" \
		grep -q "From $(node_ip 2) .*Time to live exceeded" <<< "$out"
}

# path MTU of 1's route to 4, as its kernel cached it (0: none)
pmtu() {
	nsexec 1 ip route get "$(node_ip 4)" |
		awk '{ for (i = 1; i < NF; i++) if ($i == "mtu") m = $(i + 1) }
			END { print m + 0 }'
}

ping_df() {	# SIZE: one DF echo of SIZE bytes from 1 to 4 answered
	nsexec 1 ping -n -c 1 -M do -s "$1" -W 3 "$(node_ip 4)" >/dev/null 2>&1
}

test_pmtu() {
	local m out rc
	shared || return 1
	nsexec 1 ip route flush cache
	check "1's dsr0 allows 1300-byte packets" \
		test "$(nsexec 1 cat /sys/class/net/dsr0/mtu)" -ge 1328 || return 1
	# the first is dropped at 2 with Fragmentation Needed
	nsexec 1 ping -n -c 2 -i 0.5 -M do -s 1300 -W 3 "$(node_ip 4)" >/dev/null 2>&1
	m=$(pmtu)
	diag "1's path MTU to 4: $m"
	check "1 learned a path MTU under 2's eth1 MTU" \
		test "$m" -gt 0 -a "$m" -lt 1200 &&
	check "a packet of that size crosses" \
		busywait 10000 ping_df "$((m - 28))" || return 1
	# TCP finds the path MTU on its own
	nsexec 1 ip route flush cache
	iperf3_server 4 5301
	out=$(nsexec 1 timeout 30 iperf3 -c "$(node_ip 4)" -p 5301 -n 300K -J)
	rc=$?
	# (the server's count can stop short of what the client sent when a
	# transfer of a given size ends: the client's count, and its verdict)
	diag "iperf3: exit $rc, $(jq -c '[.end.sum_sent.bytes, .end.sum_received.bytes, .error]' <<< "$out" 2>/dev/null)"
	check "a TCP transfer of 300 KB completes" \
		test "$rc" -eq 0 -a "$(jq '.end.sum_sent.bytes // 0' <<< "$out")" -ge 300000 &&
	check "with the path MTU learned again" test "$(pmtu)" -lt 1200
}

# ICMP Parameter Problem messages NODE's stack received
parmprobs() {
	nsexec "$1" nstat -az IcmpInParmProbs | awk '$1 == "IcmpInParmProbs" { print $2 }'
}

test_param_problem() {
	local p0
	shared || return 1
	p0=$(parmprobs 1)
	nsexec 1 "$PYTHON" "$CRAFT" bad eth0 "$(node_mac 1)" "$(node_mac 2)" \
		"$(node_ip 1)" "$(node_ip 2)" malformed_segs_left 1
	check "1's stack got a Parameter Problem from 2" \
		busywait 5000 parmprobs_ge 1 $((p0 + 1))
}

parmprobs_ge() { (($(parmprobs "$1") >= $2)); }

test_ratelimit() {
	local l0 s0 t0 f0 sent
	shared || return 1
	l0=$(dsr_stat 2 icmp_rate_limited)
	s0=$(dsr_stat 2 icmp_sent)
	t0=$(dsr_stat 2 fwd_ttl_exceeded)
	f0=$(dsr_stat 1 maint_buffer_full)
	nsexec 1 ping -n -c 40 -i 0.01 -t 1 -W 1 "$(node_ip 4)" >/dev/null 2>&1
	sent=$(($(dsr_stat 2 icmp_sent) - s0))
	diag "2 sent $sent Time Exceeded for 40 echoes; it had" \
		"$(($(dsr_stat 2 fwd_ttl_exceeded) - t0)) to drop, 1 found its" \
		"maintenance buffer full $(($(dsr_stat 1 maint_buffer_full) - f0)) times"
	check "at most a burst of 6 and one a second more" test "$sent" -le 9 &&
	check "the rest counted" \
		test $(($(dsr_stat 2 icmp_rate_limited) - l0)) -ge $((40 - sent))
}

shared_setup setup
ktap_begin 5
run_case "traceroute through dsr0" test_traceroute
run_case "Time Exceeded from a relay" test_ttl
# (before path-MTU discovery, whose Fragmentation Needed messages spend
# the per-destination ICMP budget that this one error needs)
run_case "Parameter Problem for Segments Left past the addresses" test_param_problem
run_case "path-MTU discovery through dsr0" test_pmtu
run_case "ICMP errors rate-limited per destination" test_ratelimit
ktap_end
