#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One guest of the two-guest testbed test (selftests/twohost.sh): ROLE a
# or b of two.inv.  The guests are joined by QEMU's socket networking (a
# NIC with MAC 52:54:00:7b:00:01 in a, :02 in b: the underlay); each runs
# scripts/testbed-host.sh for its three nodes of cut.ns, both replay
# against the start agreed over the underlay, node 1 (a) pings node 6 (b)
# across the two hubs, and at 25 s the traces take node 3 away.
#
#   a: 1 - 2 - 3 ~~~~~~~~~~~ b: 5 - 6      before 26 s (3 to 5 crosses)
#          \ ~~~~~~~~~~~~~~~ b: 4 /        after (2 to 4 crosses)
#
# KTAP to stdout and to $AH_RESULTS/twohost/KVER/ROLE.ktap; ROLE.done
# when the guest got to its end.
export AH_PREFIX=tb-
source "$(dirname "$0")/../../lib.sh"
source "$AH_ROOT/selftests/lib/klog.sh"

ROLE=${1:-}
case $ROLE in
a) ME=1 PEER=2 ;;
b) ME=2 PEER=1 ;;
*) echo "usage: guest.sh a|b [capacity]" >&2; exit 2 ;;
esac
RES=${AH_RESULTS:-$AH_ROOT/build/results}/twohost/$(uname -r)
INV=$AH_ROOT/selftests/lib/testbed/two.inv
TB=$AH_ROOT/scripts/testbed-host.sh
export SCENARIO=$AH_ROOT/selftests/lib/testbed/cut.ns RANGE=250 EDGE=250
export TESTBED_OUT=/tmp/testbed-$ROLE TESTBED_DELAY=5
ADDR=192.168.77.$ME
PEER_ADDR=192.168.77.$PEER
START=

# at T: sleep until START + T seconds (this guest's clock)
at() {
	local d
	d=$(awk -v s="$START" -v t="$1" -v n="$(date +%s.%N)" \
		'BEGIN { d = s + t - n; printf "%.3f", d < 0 ? 0 : d }')
	sleep "$d"
}

underlay_up() {
	local dev
	dev=$(ip -o link | awk -v m="52:54:00:7b:00:0$ME" '$0 ~ m { sub(":$", "", $2); print $2; exit }')
	[[ -n $dev ]] || { diag "no NIC with MAC 52:54:00:7b:00:0$ME"; return 1; }
	ip link set "$dev" mtu 1550 up &&
	ip addr add "$ADDR/24" dev "$dev" || return 1
	diag "underlay: $dev, $ADDR, MTU 1550"
}

test_up() {
	underlay_up || return 1
	"$TB" up "$INV" "$ROLE" || return 1
	check "the overlay is a port of the hub" \
		test "$(ip -n tb-hub -j link show tbvx | jq -r '.[0].master')" = ahhub &&
	check "its nodes' MTU is 1500" \
		test "$(ip -n "tb-$((ME * 3 - 2))" -j link show eth0 | jq '.[0].mtu')" = 1500
}

test_sync() {
	local sync
	START=$("$TB" sync "$INV" "$ROLE") || return 1
	sync=$(cat "$TESTBED_OUT/sync.json")
	diag "start $START; $sync"
	echo "$START" > "$TESTBED_OUT/start"
	check "the start is ahead" \
		awk -v s="$START" -v n="$(date +%s.%N)" 'BEGIN { exit !(s > n) }'
}

# route1 DST: node 1's route to DST, its addresses joined by spaces
route1() {
	dsr 1 -j route show dsr0 |
		jq -r --arg d "$1" '[.[] | select(.dst == $d)] | min_by(.hopcount) | .hops // [] | join(" ")'
}

# answered FROM TO: echoes of the ping (seq k sent at 3 + 0.2 (k - 1) s)
# sent in [FROM, TO) s that were answered, "N of M"
answered() {
	awk -v f="$1" -v t="$2" '
		match($0, /icmp_seq=[0-9]+/) {
			k = substr($0, RSTART + 9, RLENGTH - 9); got[k] = 1 }
		END {
			for (k = 1; k <= 200; k++) {
				s = 3 + 0.2 * (k - 1)
				if (s < f || s >= t) continue
				m++; n += got[k]
			}
			print n + 0, m + 0
		}' "$TESTBED_OUT/ping.txt"
}

test_run() {
	local replay rc=0 before after b a late
	[[ -n $START ]] || return 1
	"$TB" replay "$INV" "$ROLE" "$START" > "$TESTBED_OUT/replay.txt" 2>&1 &
	replay=$!
	if [[ $ROLE == a ]]; then
		at 3
		nsexec 1 ping -n -i 0.2 -c 200 -W 1 "$(node_ip 6)" \
			> "$TESTBED_OUT/ping.txt" 2>&1 &
		local ping=$!
		at 20
		before=$(route1 "$(node_ip 6)")
		at 42
		after=$(route1 "$(node_ip 6)")
		wait "$ping" || true
	fi
	wait "$replay" || rc=1
	# (a replay ends with its last step: b's nodes stay until a's ping
	# is over)
	at 46
	cat "$TESTBED_OUT/replay.txt"
	# the clocks again, 46 s on: how far they drifted apart over the run
	cp "$TESTBED_OUT/sync.json" "$TESTBED_OUT/sync0.json"
	if TESTBED_PORT=47001 "$TB" sync "$INV" "$ROLE" > /dev/null &&
	   [[ $ROLE == b ]]; then
		diag "clock offset to a: $(jq .offset_ms "$TESTBED_OUT/sync0.json") ms at the start," \
			"$(jq .offset_ms "$TESTBED_OUT/sync.json") ms 46 s later" \
			"(round trips $(jq .rtt_ms "$TESTBED_OUT/sync0.json"), $(jq .rtt_ms "$TESTBED_OUT/sync.json") ms)"
	fi
	((rc == 0)) || return 1
	late=$(jq .late_mean_us "$TESTBED_OUT/replay.json")
	check "the replay on time against the start: mean lateness under 20 ms" \
		test "$late" -lt 20000 || return 1
	[[ $ROLE == a ]] || return 0
	read -r b bm < <(answered 6 24)
	read -r a am < <(answered 31 43)
	diag "node 1's route to 6 at 20 s: $before; at 42 s: $after"
	diag "echoes answered: $b of $bm sent in 6-24 s, $a of $am in 31-43 s;" \
		"$(tail -2 "$TESTBED_OUT/ping.txt" | head -1)"
	check "before the cut the route crossed from a to b between 3 and 5" \
		grep -q "10.0.0.3 10.0.0.5" <<< "$before" &&
	check "after it, between 2 and 4 (3 gone)" \
		grep -q "10.0.0.2 10.0.0.4" <<< "$after" &&
	check "and not through 3" not grep -q "10.0.0.3" <<< "$after" &&
	check "9 in 10 echoes answered before the cut" test $((b * 10)) -ge $((bm * 9)) &&
	check "and from 5 s after it" test $((a * 10)) -ge $((am * 9))
}

test_overlay() {
	local rx tx reps
	read -r rx tx < <(ip -n tb-hub -s -j link show tbvx |
		jq -r '.[0].stats64 | "\(.rx.packets) \(.tx.packets)"')
	diag "tbvx: $rx frames in from the other host, $tx out"
	check "frames crossed the overlay both ways" test "$rx" -gt 100 -a "$tx" -gt 100 ||
		return 1
	[[ $ROLE == b ]] || return 0
	reps=$(nsexec 6 awk '/^Icmp:/ {
		if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1 }
		else print $c["OutEchoReps"] }' /proc/net/snmp)
	diag "node 6 sent $reps echo replies"
	check "node 6 answered node 1's echoes" test "$reps" -ge 150
}

test_klog() {
	local bad
	bad=$(dmesg | grep -E "$AH_KLOG_BAD")
	[[ -z $bad ]] || sed 's/^/# dmesg: /' <<< "$bad"
	check "kernel log clean" test -z "$bad"
}

# iperf NS ADDR: TCP goodput in Mbit/s from NS ("-" the guest's own) to
# ADDR, CAP_SECS seconds
iperf() {
	local run=()
	[[ $1 == - ]] || run=(ip netns exec "$1")
	"${run[@]}" iperf3 -c "$2" -t "${CAP_SECS:-8}" -J 2>/dev/null |
		jq '.end.sum_received.bits_per_second / 1e6 | floor'
}

# rtt NS ADDR: mean ping RTT in ms (20 echoes)
rtt() {
	local run=()
	[[ $1 == - ]] || run=(ip netns exec "$1")
	"${run[@]}" ping -n -q -c 20 -i 0.05 "$2" | awk -F/ '/^rtt/ { print $5 }'
}

# capacity: what the overlay carries, against the underlay it runs over
# and the hub of one host (no replay: every node hears every node).  a
# measures, b serves; CAP_REPS rounds, the three paths interleaved.
capacity() {
	local r p out=$RES/capacity.txt
	ktap_begin 3
	run_case "$ROLE: the underlay, its nodes, the hub and the overlay" test_up
	if [[ $ROLE == b ]]; then
		iperf3 -s -D -B "$ADDR" &&
		nsexec 4 iperf3 -s -D || return 1
	fi
	START=$("$TB" sync "$INV" "$ROLE") &&
		ktap_pass "$ROLE: one start agreed over the underlay" ||
		ktap_fail "$ROLE: one start agreed over the underlay"
	if [[ $ROLE == a ]]; then
		nsexec 2 iperf3 -s -D
		at 0
		echo "path mbit_s rtt_ms" > "$out"
		for ((r = 1; r <= ${CAP_REPS:-3}; r++)); do
			for p in "underlay - $PEER_ADDR" "hub tb-1 10.0.0.2" \
				 "overlay tb-1 10.0.0.4"; do
				set -- $p
				echo "$1 $(iperf "$2" "$3") $(rtt "$2" "$3")" >> "$out"
			done
		done
		sed 's/^/# /' "$out"
		check "every path measured" \
			test "$(awk 'NR > 1 && $2 > 0 && $3 > 0' "$out" | wc -l)" -eq $((3 * ${CAP_REPS:-3})) &&
			ktap_pass "a: capacity measured" || ktap_fail "a: capacity measured"
		# b waits for this port to close
		TESTBED_PORT=47002 "$TB" sync "$INV" "$ROLE" > /dev/null
	else
		TESTBED_PORT=47002 "$TB" sync "$INV" "$ROLE" > /dev/null &&
			ktap_pass "b: served" || ktap_fail "b: served"
	fi
	"$TB" down
	pkill iperf3
	ktap_end
}

main() {
	[[ ${2:-} == capacity ]] && { capacity; return; }
	ktap_begin 5
	run_case "$ROLE: the underlay, its nodes, the hub and the overlay" test_up
	# (not in a subshell: START is needed by the next cases)
	local t0=$SECONDS
	test_sync && ktap_pass "$ROLE: one start agreed over the underlay" ||
		ktap_fail "$ROLE: one start agreed over the underlay"
	diag "case took $((SECONDS - t0)) s"
	run_case "$ROLE: the traces replayed, a route across the hosts survives the cut" test_run
	run_case "$ROLE: frames crossed between the hosts" test_overlay
	"$TB" down
	run_case "$ROLE: kernel log clean" test_klog
	ktap_end
}

mkdir -p "$RES" "$TESTBED_OUT"
dmesg -C
main "$@" 2>&1 | tee "$RES/$ROLE.ktap"
rc=${PIPESTATUS[0]}
touch "$RES/$ROLE.done"
exit "$rc"
