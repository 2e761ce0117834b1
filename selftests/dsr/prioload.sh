#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dsrprio under load: with a saturating UDP flow across 3 hops, a Route
# Discovery and explicit acknowledgements get through dsrprio's top band
# much faster than through pfifo_fast, where they wait behind the data;
# and a TCP transfer through dsrprio sees no reordering that the qdisc
# made: data of one flow shares one FIFO band, so only a DSR
# retransmission (top band, or a late copy after a loss) may arrive out of
# order, and every out-of-order segment must be matched by one.
#
#   1 --- 2 --- 3 --- 4 --- 5     hub + macfilter line, tbf (the radio
#                                 rate) at each eth0's root, the qdisc
#                                 under test under it
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../lib/prioload.sh"

require_cmd jq ahctl ethtool iperf3 tc

test_control_first() {
	local p d lucky out
	shared || return 1
	# (not "read < <(prioload_run)": read returns at its output line,
	# and the next run's qdisc set-up raced the previous run's
	# prioload_clear, "Failed to find specified qdisc" in two soak rounds)
	out=$(prioload_run pfifo_fast 12) && read -r -a p <<< "$out" &&
	out=$(prioload_run dsrprio 12) && read -r -a d <<< "$out" || return 1
	diag "pfifo_fast: discovery ${p[0]} ms, explicit ack median ${p[1]} ms" \
		"(${p[2]} acks in time)"
	diag "dsrprio:    discovery ${d[0]} ms, explicit ack median ${d[1]} ms" \
		"(${d[2]} acks in time)"
	check "dsrprio: the discovery under load succeeded" test "${d[0]}" != - &&
	check "dsrprio: explicit acks came back in time" test "${d[2]}" -ge 5 &&
	check "  more of them than with pfifo_fast" test "${d[2]}" -gt "${p[2]}" &&
	check "discovery at most half as long as with pfifo_fast" \
		awk -v d="${d[0]}" -v p="${p[0]}" 'BEGIN { exit !(p == "-" || 2 * d <= p) }' &&
	# The few acks that beat the RTO under pfifo_fast are the lucky ones,
	# that left while its queue was short; like with like: as many of
	# dsrprio's fastest (its median over hundreds is longer when the
	# guest's CPU is shared).
	lucky=$(tr ',' '\n' <<< "${d[3]}" | head -n "${p[2]}" | prioload_median)
	diag "dsrprio's ${p[2]} fastest acks: median $lucky ms"
	check "as many acks as pfifo_fast got in time, no later" \
		awk -v d="$lucky" -v p="${p[1]}" 'BEGIN { exit !(p == "-" || d <= p) }'
}

# TcpExtTCPOFOQueue of NODE: segments its TCP put in the out-of-order queue
ofo() {
	nsexec "$1" nstat -az TcpExtTCPOFOQueue | awk '$1 == "TcpExtTCPOFOQueue" { print $2 }'
}

# rexmt_path: DSR retransmissions of the forwarders 1, 2 and 3
rexmt_path() {
	echo $(($(dsr_stat 1 retransmissions) + $(dsr_stat 2 retransmissions) +
		$(dsr_stat 3 retransmissions)))
}

test_tcp_order() {
	local o0 r0 ofo rex out rc=0
	shared || return 1
	prioload_prepare dsrprio || return 1
	o0=$(ofo 4)
	r0=$(rexmt_path)
	iperf3_server 4 5203
	out=$(nsexec 1 iperf3 -c "$(node_ip 4)" -p 5203 -n 512K -J) || rc=$?
	ofo=$(($(ofo 4) - o0))
	rex=$(($(rexmt_path) - r0))
	diag "TCP 512 KiB over 3 hops through dsrprio:" \
		"$(jq '.end.sum_received.bits_per_second / 1e6 * 100 | floor / 100' <<< "$out") Mbit/s," \
		"out-of-order segments at 4: $ofo, DSR retransmissions on the path: $rex"
	check "the transfer completed" test "$rc" -eq 0 &&
	check "no out-of-order segment without a DSR retransmission" \
		test "$ofo" -le "$rex"
	rc=$?
	prioload_clear
	return $rc
}

# The debug lane drives the same load at rates scaled to its kernel's
# speed, for KASAN and lockdep on the paths it takes (full queues, link
# failures, salvage, dsrprio under tbf); the timing comparison with
# pfifo_fast needs the guest's full speed and runs in the other lane.
test_control_debug() {
	local d out
	shared || return 1
	out=$(prioload_run dsrprio 12) && read -r -a d <<< "$out" || return 1
	diag "dsrprio: discovery ${d[0]} ms, explicit ack median ${d[1]} ms" \
		"(${d[2]} acks in time)"
	check "dsrprio: the discovery under load succeeded" test "${d[0]}" != -
}

not_on_this_kernel 6.12. "prio.sh covers the qdisc on both" && exit "$ksft_skip"
shared_setup prioload_setup
ktap_begin 2
if [[ ${AH_DEBUG_LANE:-0} == 1 ]]; then
	run_case "control packets first under load (debug kernel)" test_control_debug
else
	run_case "control packets first under load" test_control_first
fi
run_case "TCP through dsrprio: no reordering by the qdisc" test_tcp_order
ktap_end
