# SPDX-License-Identifier: GPL-2.0
#
# Priority under load (issue 4), shared by selftests/dsr/prioload.sh and
# bench/prioload.sh: a saturating UDP flow crosses 3 hops while a Route
# Discovery and explicit acknowledgements have to get through the same
# interface queues, with dsrprio or pfifo_fast as the queue.
#
#   1 --- 2 --- 3 --- 4 --- 5     hub + macfilter line; every node's eth0:
#   UDP 1 -> 4, 20 Mbit/s       tbf at the root (the radio's rate: RATE,
#   offered                     BOTTLENECK for 2) with the qdisc under
#                               test under it
#
# 1 sends what its socket buffer lets it (a UDP sender's own queue stays
# short); 2 forwards at half the rate it receives, so its queue of
# forwarded data fills to the qdisc's limit (txqueuelen, 1000 packets:
# seconds of waiting), as at a congested relay.  Then
#
#   discovery  2 finds a route to 5 (never used before): the time of the
#              first echo (low-delay TOS: in the top band of either qdisc),
#              Route Request and Route Reply included; the request leaves
#              through 2's queue
#   ack delay  3 pings 2 with the low-delay TOS (echo and reply are in the
#              top band of either qdisc); 2's explicit Acknowledgements
#              wait in 2's queue of data unless the qdisc knows them for
#              control packets (dsr_ack tracepoint: explicit acks received
#              from 2, by 3 and by 1, time since the request was sent; an
#              ack that comes after the sender gave up on that request, or
#              on the link, matches nothing and is not counted)
# The selftest checks dsrprio against pfifo_fast once (and TCP order);
# the bench repeats the comparison PRIOLOAD_RUNS times as a table.  Both
# only call prioload_setup, prioload_prepare and prioload_run.
# Requires lib.sh.

PRIOLOAD_TRACEFS=/sys/kernel/tracing
# the debug lane's kernel forwards several times slower: rates scale down
PRIOLOAD_KBIT=$((4000 / ${AH_TIME_SCALE:-1}))
PRIOLOAD_RATE=${PRIOLOAD_RATE:-${PRIOLOAD_KBIT}kbit}
PRIOLOAD_BOTTLENECK=${PRIOLOAD_BOTTLENECK:-$((PRIOLOAD_KBIT / 2))kbit}
PRIOLOAD_OFFER=${PRIOLOAD_OFFER:-$((PRIOLOAD_KBIT * 5))K}

prioload_setup() {
	hub_setup 5 && mf_line && dsr_setup || return 1
	modprobe -q sch_tbf 2>/dev/null
	dsr_ping_ok 1 4 3 || dsr_ping_ok 1 4 3
}

# what node N's eth0 had when its qdiscs could not be set up (a failure
# seen twice in 30 soak rounds, not yet explained): for the next one
prioload_qdisc_failed() {
	diag "qdisc set-up failed on node $1; its eth0 now:"
	nsexec "$1" tc -d qdisc show dev eth0 | while read -r l; do diag "  $l"; done
	nsexec "$1" ip -d link show eth0 | while read -r l; do diag "  $l"; done
	dmesg | tail -5 | while read -r l; do diag "  $l"; done
}

# prioload_qdisc KIND: tbf at the root of every node's eth0, KIND under it
prioload_qdisc() {
	local i rate
	for ((i = 1; i <= AH_NODES; i++)); do
		rate=$PRIOLOAD_RATE
		((i == 2)) && rate=$PRIOLOAD_BOTTLENECK
		nsexec "$i" tc qdisc replace dev eth0 root handle 1: tbf \
			rate "$rate" burst 3000 latency 30s &&
		nsexec "$i" tc qdisc add dev eth0 parent 1:1 handle 10: "$1" ||
			{ prioload_qdisc_failed "$i"; return 1; }
	done
}

prioload_clear() {
	local i
	for ((i = 1; i <= AH_NODES; i++)); do
		nsexec "$i" tc qdisc del dev eth0 root 2>/dev/null
		dsr "$i" flush dsr0
	done
}

# prioload_prepare KIND: the shaping of prioload_qdisc with KIND on clean
# caches, and a route 1 -> 4 if one comes (fails only when the qdiscs do)
prioload_prepare() {
	prioload_clear
	prioload_qdisc "$1" || return 1
	dsr_ping_ok 1 4 3 || dsr_ping_ok 1 4 3
	return 0
}

# median of the numbers on stdin ("-" when none)
prioload_median() {
	sort -n | awk 'NF { v[++n] = $1 } END {
		if (!n) { print "-"; exit }
		print n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

# prioload_run KIND SECS: prints "discovery_ms ack_median_ms acks list";
# discovery_ms is "-" when 2 got no answer from 5, list the acks' times
# in ms, sorted, comma-separated ("-" when none)
prioload_run() {
	local kind=$1 secs=${2:-12} disc acks traced=0 udp
	prioload_prepare "$kind" || return 1
	if [[ -d $PRIOLOAD_TRACEFS/events ]] ||
	   mount -t tracefs nodev "$PRIOLOAD_TRACEFS" 2>/dev/null; then
		if [[ -d $PRIOLOAD_TRACEFS/events/dsr/dsr_ack ]]; then
			traced=1
			echo > "$PRIOLOAD_TRACEFS/trace"
			echo 1 > "$PRIOLOAD_TRACEFS/events/dsr/dsr_ack/enable"
		fi
	fi
	iperf3_server 4 5202
	udp=$(mktemp)
	nsexec 1 iperf3 -c "$(node_ip 4)" -p 5202 -u -b "$PRIOLOAD_OFFER" -l 1000 \
		-t "$secs" -J > "$udp" 2>/dev/null &
	local pid=$!
	sleep 4
	echo "# $kind: 2's queue when the discovery starts:" \
		"$(nsexec 2 tc -s qdisc show dev eth0 | grep -m1 -o 'backlog .*p')" >&2
	# low-delay TOS: the echo itself is in the top band of either qdisc
	disc=$(nsexec 2 ping -n -Q 0x10 -c 1 -W 20 "$(node_ip 5)" 2>/dev/null |
		awk -F'time=' '/time=/ { split($2, a, " "); print a[1] }')
	nsexec 3 ping -n -Q 0x10 -c 10 -i 0.2 -W 5 "$(node_ip 2)" >/dev/null 2>&1
	wait "$pid"
	if ((traced)); then
		echo 0 > "$PRIOLOAD_TRACEFS/events/dsr/dsr_ack/enable"
		acks=$(grep "dsr_ack: .* from $(node_ip 2) explicit" \
			"$PRIOLOAD_TRACEFS/trace" |
			sed -n 's/.* rtt \([0-9]*\)ms.*/\1/p')
	fi
	acks=$(sort -n <<< "$acks" | sed '/^$/d' | paste -sd,)
	echo "${disc:--} $(tr ',' '\n' <<< "$acks" | prioload_median)" \
		"$(tr ',' '\n' <<< "$acks" | grep -c .) ${acks:--}"
	rm -f "$udp"
	prioload_clear
}
