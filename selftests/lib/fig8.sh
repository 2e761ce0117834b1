# SPDX-License-Identifier: GPL-2.0
#
# The experiment of seed 004 Figure 8, shared by selftests/dsr/fig8.sh and
# bench/fig8.sh: node 1 (A) sends ICMP Echo Requests at 10 per second to its
# neighbour 2 (B) over dsr0 while A's interface queue is alternately not
# serviced and serviced.
#
#   1 (A) ------ hub ------ 2 (B)      one DSR hop; A's eth0 has a "plug"
#                                      root qdisc: "block" holds every
#                                      frame queued (the driver does not
#                                      service the queue), "release_
#                                      indefinite" sends them and passes
#                                      everything again.
#
# sch_plug is the faithful stall: the frames stay in A's interface queue,
# where DSR's queue heuristic looks (the root qdisc's backlog), and leave in
# order when the queue is serviced again.  Requires lib.sh.
#
# The selftest checks what the paper found (shorter runs, on one kernel);
# the bench prints the paper's four runs as a table and leaves the RTOs
# for bench/plot/plot-fig8.py.  Both are only callers of fig8_setup,
# fig8_run and fig8_max_rto: the experiment itself is here.

FIG8_TRACEFS=/sys/kernel/tracing

fig8_setup() {
	hub_setup 2 && dsr_setup || return 1
	modprobe -q sch_plug 2>/dev/null
	dsr_ping_ok 1 2 3 || dsr_ping_ok 1 2 3
}

fig8_tracefs() {
	[[ -d $FIG8_TRACEFS/events ]] ||
		mount -t tracefs nodev "$FIG8_TRACEFS" 2>/dev/null || return 1
	[[ -d $FIG8_TRACEFS/events/dsr/dsr_xmit ]]
}

# fig8_run HEURISTIC HOLD COUNT OFF_S ON_S OUT: one run, queue_heuristic
# HEURISTIC (0/1) and hold_queued HOLD (0: retransmit a packet still in
# the queue, as the paper's node did), COUNT echoes at 10/s; the queue
# starts serviced for 5 s, then OFF_S s not serviced and ON_S s serviced,
# again and again.  Writes OUT.ping (ping's output), OUT.rto (A's
# transmissions: seconds, try, RTO in ms) when tracefs has the dsr events,
# and prints "retransmissions lost duplicates link_failures held", held:
# expiries that waited for the queue instead of retransmitting or breaking.
fig8_run() {
	local h=$1 hold=$2 count=$3 off=$4 on=$5 out=$6 pid t sent recv dup
	local traced=0 s0 s1
	dsr 1 param set dsr0 queue_heuristic "$h" hold_queued "$hold" || return 1
	nsexec 1 tc qdisc replace dev eth0 root handle 1: plug limit 100000 &&
	nsexec 1 tc qdisc change dev eth0 root handle 1: plug release_indefinite ||
		return 1
	# an estimate from samples of this run only
	dsr_ping_ok 1 2 5
	if fig8_tracefs; then
		traced=1
		echo 0 > "$FIG8_TRACEFS/tracing_on"
		echo > "$FIG8_TRACEFS/trace"
		echo "saddr == 0x$(printf '%02x' 1 0 0 10)" \
			> "$FIG8_TRACEFS/events/dsr/dsr_xmit/filter" 2>/dev/null
		echo 1 > "$FIG8_TRACEFS/events/dsr/dsr_xmit/enable"
		echo 1 > "$FIG8_TRACEFS/tracing_on"
	fi
	s0=$(fig8_stats)
	# -S: ping's own send buffer holds one or two packets, and echoes
	# waiting in the held queue count against it: without it ping stops
	# sending after about 8, where the paper's node kept queueing them
	nsexec 1 ping -n -c "$count" -i 0.1 -W 5 -S 1048576 "$(node_ip 2)" > "$out.ping" 2>&1 &
	pid=$!
	sleep 5
	while kill -0 "$pid" 2>/dev/null; do
		nsexec 1 tc qdisc change dev eth0 root handle 1: plug block
		sleep "$off"
		nsexec 1 tc qdisc change dev eth0 root handle 1: plug release_indefinite
		# by the clock: under TCG 100 rounds of "sleep 0.1" take 15 s
		t=$((${EPOCHREALTIME/./} + on * 1000000))
		while ((${EPOCHREALTIME/./} < t)) && kill -0 "$pid" 2>/dev/null; do
			sleep 0.1
		done
	done
	wait "$pid"
	# acknowledgements of the last echoes
	sleep 1
	s1=$(fig8_stats)
	if ((traced)); then
		echo 0 > "$FIG8_TRACEFS/events/dsr/dsr_xmit/enable"
		echo 0 > "$FIG8_TRACEFS/events/dsr/dsr_xmit/filter"
		# "... 123.456789: dsr_xmit: eth0 A -> B via B len N try T ack_req R rto Xms"
		awk '/dsr_xmit:/ {
			for (i = 1; i <= NF; i++) {
				if ($i == "dsr_xmit:") ts = $(i - 1)
				if ($i == "try") try = $(i + 1)
				if ($i == "rto") rto = $(i + 1)
			}
			sub(":$", "", ts); sub("ms$", "", rto)
			print ts, try, rto
		}' "$FIG8_TRACEFS/trace" > "$out.rto"
	fi
	nsexec 1 tc qdisc del dev eth0 root
	sent=$(awk '/packets transmitted/ {print $1}' "$out.ping")
	recv=$(awk '/packets transmitted/ {print $4}' "$out.ping")
	dup=$(awk '/packets transmitted/ { for (i = 1; i <= NF; i++) if ($i == "duplicates,") print substr($(i - 1), 2) }' "$out.ping")
	read -r -a s0 <<< "$s0"
	read -r -a s1 <<< "$s1"
	echo "$((s1[0] - s0[0])) $((${sent:-0} - ${recv:-0})) ${dup:-0}" \
		"$((s1[1] - s0[1])) $((s1[2] + s1[3] - s0[2] - s0[3]))"
}

# fig8_max_rto OUT: the largest RTO (ms) in OUT.rto, nothing when none
fig8_max_rto() {
	sort -k3 -n "$1.rto" 2>/dev/null | tail -1 | cut -d' ' -f3
}

# A's retransmissions link_failures rexmt_held_queued link_break_held_queued
fig8_stats() {
	nsexec 1 ethtool -S dsr0 | awk '
		$1 == "retransmissions:" { r = $2 } $1 == "link_failures:" { l = $2 }
		$1 == "rexmt_held_queued:" { h = $2 }
		$1 == "link_break_held_queued:" { b = $2 }
		END { print r + 0, l + 0, h + 0, b + 0 }'
}
