#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it: BENCH=slice make bench;
# alone: scripts/vm.sh 6.1.0-56-amd64 bench/slice.sh after make all).
# kmod/slice against the node itself and two baselines, next to seed 003's
# Tables 2, 3 and 4 (the Mobile PlanetLab node: a VMware VM per slice, the
# "virtual mapper" between a modem and the VM's virtual NIC).
#
# Node 1 ("the node") talks to node 2 (the peer) over the hub; the
# application runs
#
#   native  in node 1's namespace, on eth0 (10.0.0.1): no slice
#   map     in slice s1, given node 1's eth0 by `ahctl slice grant ... mode
#           map`: the node keeps eth0 and 10.0.0.1, s1 gets a layer-3 eth0
#           carrying 10.0.0.1/32 and a default route (the mapper)
#   move    in slice s1, given eth0 itself (`... mode move`); s1
#           configures 10.0.0.1/24 on it
#   ipvlan  in s1, on an ipvlan (l3) device of node 1's eth0 moved there,
#           with 10.0.0.11 (node 2 has a static neighbour entry for it:
#           nothing answers ARP for an l3 slave)
#   bridge  in s1, on a veth pair to a bridge br0 in node 1 that eth0 is a
#           port of (node 1's 10.0.0.1 moves to br0), with 10.0.0.11: the
#           analogue of the seed's VMware bridged virtual switch
#
# Table 2, throughput (iperf3, BENCH_SECS (2) s, Mbit/s of payload
# received), points (BENCH_SLICE_POINTS, default "tcp-tx tcp-rx udp-tx
# rate-tcp-tx"): tcp|udp, tx (the application sends to the peer) or rx
# (iperf3 -R), on the frames medium (TSO, GSO and GRO off on every
# interface, bench/dsr.sh's "frames": the guest's CPU is the limit; UDP
# unlimited, 1400-byte datagrams); rate-*: the same with the hub's ports
# to both nodes at BENCH_SLICE_RATE (netem rate 20mbit): the medium is the
# limit (rate-udp-* offers 1.25 times that).  CPU: the guest's busy time
# over the run (both ends; 200 % is both vCPUs), from /proc/uptime.
#
# Table 3, latency under CPU load: selftests/lib/stamps.py sends a
# datagram every BENCH_SLICE_INTERVAL_MS (10) ms for BENCH_SLICE_LAT_SECS
# (2) s to an echo on the peer, with 0, 1, 3, 5 busy loops running in the
# guest (BENCH_SLICE_HOGS), and per datagram takes the send latency (the
# first SO_TIMESTAMPING software transmit stamp less the time before
# send()) and the receive latency (the time after recvmsg() less the
# software receive stamp), and the same against a packet socket on node
# 1's eth0 (when the datagram left, or arrived on, the node's interface:
# where the seed's mapper stamped; BENCH_SLICE_TAP=0 leaves it out);
# median, mean and 90th percentile of each run.  The two ends of the
# exchange share vCPU 0 (BENCH_SLICE_PIN; see PINNED below).
#
# Table 4, latency under another slice's load: node 1 gets a second
# interface, eth1, on a second hub (its own link to node 2, 10.0.1.0/24,
# capacity BENCH_SLICE_LOAD_RATE (50mbit) by netem on the hub's port to
# node 1): a second slice s2 holds it as s1 holds eth0 (map: mapped;
# BENCH_SLICE_LOAD_CONFIGS="native map" adds node 1 itself as the
# reference) while node 2 sends it 0, 25, 50, 75, 100 % of that capacity
# of UDP (iperf3 -u -b; BENCH_SLICE_LOADS), and s1's latency over eth0 is
# measured as for Table 3.  A link of its own, not a second port on the
# same hub: the hub floods every frame to every port, so eth0 would
# receive the other slice's load too, which makes one shared radio
# channel, not two radios; here the slices share only the node (its CPU
# and stack), which is what the isolation target is about.
#
# Every configuration is set up anew for each run, the configurations
# interleaved (the load levels in alternating order), BENCH_REPS (3) runs:
# the tables give the median and [lowest-highest] of the runs; ratios are
# of medians of this run.  Raw results in build/bench-slice/, the tables
# by bench/slice-tables.py (which also says which targets were met).
# The defaults take about 10 minutes of TCG guest time on an idle host.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$ROOT/selftests/lib.sh"

SECS=${BENCH_SECS:-2}
REPS=${BENCH_REPS:-3}
CONFIGS=${BENCH_SLICE_CONFIGS:-native map move ipvlan bridge}
POINTS=${BENCH_SLICE_POINTS:-tcp-tx tcp-rx udp-tx rate-tcp-tx}
HOGS=${BENCH_SLICE_HOGS-0 1 3 5}
LOAD_CONFIGS=${BENCH_SLICE_LOAD_CONFIGS-map}
LOADS=${BENCH_SLICE_LOADS:-0 25 50 75 100}
RATE=${BENCH_SLICE_RATE:-20mbit}
LOAD_RATE=${BENCH_SLICE_LOAD_RATE:-50mbit}
LAT_SECS=${BENCH_SLICE_LAT_SECS:-2}
IVAL=${BENCH_SLICE_INTERVAL_MS:-10}
PIN=${BENCH_SLICE_PIN-0}
TAP=${BENCH_SLICE_TAP:-1}
STAMPS=$ROOT/selftests/lib/stamps.py
EPORT=7007
PEER=10.0.0.2
OUT=$ROOT/build/bench-slice
T0=$SECONDS

require_cmd iperf3 jq ethtool tc ahctl
ahctl slice help 2>&1 | grep -q '\bmap\b' ||
	echo "# this ahctl has no map mode: map will fail (make all)" >&2

# ---- the guest's CPU time (as bench/dsr.sh) ----------------------------

NCPU=$(nproc)
busy_ms() {
	local up idle
	read -r up idle < /proc/uptime
	awk -v u="$up" -v i="$idle" -v n="$NCPU" 'BEGIN { printf "%d\n", (u * n - i) * 1000 }'
}

# ---- configurations ----------------------------------------------------

new_ns() {	# NAME: an empty namespace $AH_PREFIX$NAME, lo up
	ip netns add "$AH_PREFIX$1" && quiet_ns "$AH_PREFIX$1" &&
		ip -n "$AH_PREFIX$1" link set lo up
}

grant_map() {	# IFACE SLICE: node 1's IFACE mapped into SLICE (ahctl
	# configures the address on the slice's interface, and its route)
	ahctl -n "$(ns 1)" slice grant dev "$1" netns "$AH_PREFIX$2" mode map \
		>/dev/null
}

grant_move() {	# IFACE SLICE ADDR/LEN
	ahctl -n "$(ns 1)" slice grant dev "$1" netns "$AH_PREFIX$2" \
		mode move >/dev/null &&
	ip -n "$AH_PREFIX$2" -b - <<-EOF
		addr add $3 dev $1
		link set $1 up
	EOF
}

# setup CONFIG: after hub_setup, the application's side of CONFIG; sets
# APP (the namespace the application runs in, as nsnet names it) and
# ETH_NS (the one node 1's eth0 is in)
setup() {
	local n1 n2
	n1=$(ns 1) n2=$(ns 2)
	APP=s1 ETH_NS=1
	case $1 in
	native)
		APP=1 ;;
	map)
		new_ns s1 && grant_map eth0 s1 || return 1 ;;
	move)
		new_ns s1 && grant_move eth0 s1 10.0.0.1/24 || return 1
		ETH_NS=s1 ;;
	ipvlan)
		modprobe -q ipvlan && new_ns s1 || return 1
		ip -n "$n1" link add ipv0 link eth0 type ipvlan mode l3 &&
		ip -n "$n1" link set ipv0 netns "$AH_PREFIX"s1 &&
		ip -n "$AH_PREFIX"s1 -b - <<-EOF &&
			addr add 10.0.0.11/24 dev ipv0
			link set ipv0 up
		EOF
		ip -n "$n2" neigh replace 10.0.0.11 lladdr "$(hub_mac 1)" \
			dev eth0 nud permanent || return 1 ;;
	bridge)
		new_ns s1 || return 1
		ip -n "$n1" -b - <<-EOF &&
			link add br0 type bridge forward_delay 0 stp_state 0
			address flush dev eth0
			link set eth0 master br0
			addr add 10.0.0.1/24 dev br0
			link add vb0 type veth peer name eth0 netns $AH_PREFIX$APP
			link set vb0 master br0
			link set vb0 up
			link set br0 up
		EOF
		ip -n "$AH_PREFIX"s1 -b - <<-EOF || return 1
			addr add 10.0.0.11/24 dev eth0
			link set eth0 up
		EOF
		;;
	*)
		echo "# no configuration $1" >&2
		return 1 ;;
	esac
}

# hub2_setup: eth1 of node 1 and node 2 on a second hub, 10.0.1.0/24,
# the port to node 1 at LOAD_RATE
hub2_setup() {
	local i
	ip -n "$AH_HUB_NS" -b - <<-EOF || return 1
		link add ahhub2 type bridge ageing_time 0 stp_state 0 mcast_snooping 0 forward_delay 0
		link set ahhub2 up
		link add p1b type veth peer name eth1 address 02:00:00:00:01:01 netns $(ns 1)
		link add p2b type veth peer name eth1 address 02:00:00:00:01:02 netns $(ns 2)
		link set p1b master ahhub2 up
		link set p2b master ahhub2 up
	EOF
	for i in 1 2; do
		ip -n "$(ns "$i")" -b - <<-EOF || return 1
			link set eth1 up
			addr add 10.0.1.$i/24 dev eth1
		EOF
	done
	tc -n "$AH_HUB_NS" qdisc replace dev p1b root netem rate "$LOAD_RATE" \
		limit 100
}

# load_setup CONFIG: the other slice, s2, holding eth1 as CONFIG holds
# eth0; sets LOAD_NS (where the load's receiver runs)
load_setup() {
	case $1 in
	native) LOAD_NS=1 ;;
	map) LOAD_NS=s2; new_ns s2 && grant_map eth1 s2 ;;
	move) LOAD_NS=s2; new_ns s2 && grant_move eth1 s2 10.0.1.1/24 ;;
	*) echo "# no load configuration $1" >&2; return 1 ;;
	esac
}

# frames: TSO, GSO and GRO off on every interface of every namespace
# (bench/dsr.sh's frames medium; checksum offload stays)
frames() {
	local n d
	for n in /run/netns/"$AH_PREFIX"*; do
		for d in $(nsenter --net="$n" ip -j link show | jq -r '.[].ifname'); do
			[[ $d == lo ]] && continue
			nsenter --net="$n" ethtool -K "$d" tso off gso off gro off \
				>/dev/null 2>&1
		done
	done
	return 0
}

reaches() {	# the application reaches the peer (ARP done)
	busywait 10000 nsnet "$APP" ping -c 1 -W 1 -q "$PEER" >/dev/null 2>&1
}

# ---- measurements -------------------------------------------------------

rate_bits=$(tc_rate_bits "$RATE")
load_bits=$(tc_rate_bits "$LOAD_RATE")

shape() {	# on|off: the hub's ports to nodes 1 and 2 at RATE
	local p
	for p in port1 port2; do
		if [[ $1 == on ]]; then
			tc -n "$AH_HUB_NS" qdisc replace dev "$p" root netem \
				rate "$RATE" limit 100 || return 1
		else
			tc -n "$AH_HUB_NS" qdisc del dev "$p" root 2>/dev/null
		fi
	done
	return 0
}

# point NAME: "Mbit/s CPU%" of one iperf3 run (payload received)
point() {
	local p=$1 args=() b0 b1 t0 t1 out
	[[ $p == *udp* ]] && args+=(-u -l 1400 -b 0)
	[[ $p == rate-*udp* ]] && args=(-u -l 1400 -b $((rate_bits * 5 / 4)))
	[[ $p == *-rx ]] && args+=(-R)
	if [[ $p == rate-* ]] && ! shape on; then
		shape off
		echo "- -"
		return
	fi
	t0=$(date +%s%N) b0=$(busy_ms)
	out=$(nsnet "$APP" iperf3 -c "$PEER" -p 5201 -t "$SECS" -J "${args[@]}" 2>/dev/null)
	b1=$(busy_ms) t1=$(date +%s%N)
	shape off
	[[ -n $out ]] || { echo "- -"; return; }
	jq -r --argjson b $((b1 - b0)) --argjson t $(((t1 - t0) / 1000000)) '
		(if (.start.test_start.protocol // "") == "UDP" then
			(.end.sum_received // .end.sum) as $r |
			(($r.packets // 0) - ($r.lost_packets // 0)) * 1400 * 8 /
				($r.seconds // 1) / 1e6
		else .end.sum_received.bits_per_second / 1e6 end) as $m |
		"\($m * 100 | round / 100) \($b * 100 / $t | round)"' \
		<<< "$out" 2>/dev/null || echo "- -"
}

# The two ends of the exchange run on one vCPU (PIN): under TCG a halted
# vCPU takes milliseconds to wake (the host's scheduler runs its thread),
# and a reply processed on the other vCPU would wake the application's;
# on one vCPU the reply's softirq runs in the echo's send and wakes the
# application there.  BENCH_SLICE_PIN= (empty) pins nothing.
PINNED=()
[[ -n $PIN ]] && PINNED=(taskset -c "$PIN")

echo_server() {	# on the peer, for the rest of the run
	nsbg 2 "${PINNED[@]}" "$PYTHON" "$STAMPS" echo "$EPORT" 3600
	busywait 10000 udp_listening 2 "$EPORT"
}

# latency [--hogs K,K...]: stamps.py's JSON line (one per K; it runs
# the busy loops itself, unpinned, saving a start of Python per K)
latency() {
	local tap=()
	((TAP)) && tap=(--tap "/run/netns/$AH_PREFIX$ETH_NS" eth0)
	nsnet "$APP" "${PINNED[@]}" "$PYTHON" "$STAMPS" ping "$PEER" "$EPORT" \
		"$LAT_SECS" "$IVAL" "${tap[@]}" "$@" 2>/dev/null
}

# run CONFIG REP: Table 2's points and Table 3's latencies in one set-up
run() {
	local cfg=$1 r=$2 p k v
	(
		trap ah_cleanup EXIT
		hub_setup 2 >/dev/null && setup "$cfg" && frames && reaches &&
			nsexec 2 iperf3 -s -D -p 5201 >/dev/null 2>&1 &&
			busywait 5000 listening 2 5201 || {
			echo "# $cfg: set-up failed" >&2
			exit 1
		}
		for p in $POINTS; do
			v=$(point "$p")
			echo "$r $cfg $p $v" >> "$OUT/t2"
			echo "# $((SECONDS - T0)) s: run $r of $REPS, $cfg, $p: $v (Mbit/s CPU%)" >&2
		done
		[[ -n $HOGS ]] || exit 0
		echo_server || exit 1
		latency --hogs "$(echo $HOGS | tr ' ' ,)" | while read -r v; do
			k=$(jq -r .hogs <<< "$v")
			echo "$r $cfg $k $v" >> "$OUT/t3"
			echo "# $((SECONDS - T0)) s: run $r of $REPS, $cfg, $k hogs: $(jq -c '[.answered, .tap_recv.median, .recv.median, .tap_send.median, .send.median]' <<< "$v") (answered, µs: tap recv, recv, tap send, send)" >&2
		done
	)
	nap 1	# the namespaces' teardown is a kworker's, after the run
}

# load_run CONFIG REP: Table 4, every load level in one set-up
load_run() {
	local cfg=$1 r=$2 l v bps got tmp client order=$LOADS
	((r % 2)) || order=$(tr ' ' '\n' <<< "$LOADS" | tac | tr '\n' ' ')
	(
		trap ah_cleanup EXIT
		tmp=$(mktemp)
		hub_setup 2 >/dev/null && hub2_setup && setup "$cfg" &&
			load_setup "$cfg" && frames && reaches &&
			busywait 10000 nsnet 2 ping -c 1 -W 1 -q 10.0.1.1 \
				>/dev/null 2>&1 && echo_server &&
			nsexec "$LOAD_NS" iperf3 -s -D -p 5202 >/dev/null 2>&1 &&
			busywait 5000 listening "$LOAD_NS" 5202 || {
			echo "# load, $cfg: set-up failed" >&2
			exit 1
		}
		for l in $order; do
			got=0
			if ((l > 0)); then
				bps=$((load_bits * l / 100))
				nsbg 2 iperf3 -u -c 10.0.1.1 -p 5202 -l 1400 -b "$bps" \
					-t $((${LAT_SECS%.*} + 2)) -J > "$tmp" 2>/dev/null
				client=$!
				nap 1
			fi
			v=$(latency)
			[[ -n $v ]] || v='{}'
			if ((l > 0)); then
				wait "$client"
				got=$(jq -r '(.end.sum_received // .end.sum) as $r |
					(($r.packets // 0) - ($r.lost_packets // 0)) * 1400 * 8 /
					($r.seconds // 1) / 1e6 * 100 | round / 100' "$tmp" 2>/dev/null)
			fi
			echo "$r $cfg $l ${got:--} $v" >> "$OUT/t4"
			echo "# $((SECONDS - T0)) s: load run $r of $REPS, $cfg, $l % ($got Mbit/s): $(jq -c '[.answered, .tap_recv.p90, .recv.p90]' <<< "$v" 2>/dev/null) (answered, p90 µs: tap recv, recv)" >&2
		done
		rm -f "$tmp"
	)
	nap 1
}

# ---- main ---------------------------------------------------------------

# (BENCH_LIB=1: only the functions above, for experiments)
[[ ${BENCH_LIB:-0} == 1 ]] && return 0

load_module slice || echo "# slice.ko not loaded: map and move will fail" >&2
mkdir -p "$OUT"
: > "$OUT/t2"
: > "$OUT/t3"
: > "$OUT/t4"
cat > "$OUT/meta" <<-EOF
	kernel $(uname -r)
	ncpu $NCPU
	secs $SECS
	reps $REPS
	configs $CONFIGS
	points $POINTS
	hogs $HOGS
	load_configs $LOAD_CONFIGS
	loads $LOADS
	rate $RATE
	load_rate $LOAD_RATE
	lat_secs $LAT_SECS
	interval_ms $IVAL
	pin ${PIN:-none}
	tap $TAP
EOF
echo "# slices vs native, ipvlan, veth+bridge; kernel $(uname -r)" >&2
for ((r = 1; r <= REPS; r++)); do
	for cfg in $CONFIGS; do
		run "$cfg" "$r"
	done
	[[ -n $LOADS ]] || continue
	for cfg in $LOAD_CONFIGS; do
		load_run "$cfg" "$r"
	done
done
echo "elapsed $((SECONDS - T0))" >> "$OUT/meta"
"$PYTHON" "$ROOT/bench/slice-tables.py" "$OUT"
