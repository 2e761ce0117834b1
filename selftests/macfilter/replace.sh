#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Atomic replace under a flood.  C and D flood A; A's list alternates
# between {C} and {D} with one replace call each time.  A receiver on A
# (a packet socket served after the rx_handler) logs every frame that got
# through with its kernel receive timestamp: no frame from a source that is
# listed may carry a timestamp after the call that listed it returned.
#
#        A(1)      B(2)      C(3)      D(4)
#        recv                flood     flood
#          \         |         |         /
#           +------------ ahhub ---------+
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl

ROUNDS=20

# from_both LOG: frames.py recv logged frames of C and of D
from_both() {
	grep -qs " $(node_mac 3) " "$1" && grep -qs " $(node_mac 4) " "$1"
}

# A frame's receive timestamp is taken where it passes macfilter: at the
# start of __netif_receive_skb_core(), just before the rx_handler
# (netdev_tstamp_prequeue 0), not when it was queued to the CPU's backlog
# (the default).  In the debug lane the two floods kept that backlog about
# a second deep: a frame queued before a replace started and filtered after
# it had returned was timestamped inside the step before, where its source
# was listed, and counted as passing a replace it never met (CI,
# 2026-11-28, once ahctl took 100 ms a start there instead of 600 and the
# next replace came that much sooner).
test_atomic_replace() {
	local prequeue=/proc/sys/net/core/netdev_tstamp_prequeue was rc
	was=$(<"$prequeue") || return 1
	echo 0 > "$prequeue" || return 1
	atomic_replace
	rc=$?
	echo "$was" > "$prequeue"
	return $rc
}

atomic_replace() {
	local log=/tmp/ah-replace.$$ steps=/tmp/ah-steps.$$ i who t0 t1
	load_module macfilter || return 1
	hub_setup 4 || return 1
	mf 1 attach dev eth0 || return 1
	nsexec 1 "$PYTHON" "$AH_ROOT/selftests/lib/frames.py" recv eth0 \
		--out "$log" --duration 120 &
	busywait 20000 grep -qs ready "$log" || return 1
	# 2,000 frames a second each, fewer where the kernel is slower (the
	# debug lane: there the two floods took the one vCPU, and each of the
	# rounds' commands waited seconds for it)
	local pps=$((2000 / ${AH_TIME_SCALE:-1}))
	send_frames 3 1000000 --duration 40 --pps "$pps" &
	send_frames 4 1000000 --duration 40 --pps "$pps" &
	# both floods reach A (its list is still empty) before the first replace
	busywait 10000 from_both "$log"
	: > "$steps"
	for ((i = 0; i < ROUNDS; i++)); do
		who=$(( i % 2 ? 3 : 4 ))
		t0=$(date +%s%N)
		node_mac "$who" | mf 1 load dev eth0 - || return 1
		t1=$(date +%s%N)
		echo "$t0 $t1 $(node_mac "$who")" >> "$steps"
		sleep 0.3
	done
	echo "$(date +%s%N) 0 end" >> "$steps"
	for i in 3 4 1; do
		ip netns pids "$(ns $i)" | xargs -r kill
	done
	wait
	diag "A: $(mf 1 show dev eth0 | head -1)"
	"$PYTHON" "$AH_ROOT/selftests/lib/replace_check.py" "$log" "$steps"
	local rc=$?
	rm -f "$log" "$steps"
	return $rc
}

ktap_begin 1
run_test "no listed frame passes after replace returned" test_atomic_replace
ktap_end
