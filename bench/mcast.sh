#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it).  Layered multicast over
# DSR (issue 19, docs/mcast.md) against what a network without it would
# do, on one shared channel (air_setup):
#
#   tree     1 --- 2 --- 3 --- 5, 6, 7      six receivers at mixed levels
#                   \--- 4 --- 8, 9, 10     (macfilter: only these links)
#
#   - airtime (bytes on the channel) and whole frames per receiver for
#     the multicast tree, for one unicast stream per receiver (the layers
#     it wants, as a server would send them without multicast) and for
#     plain flooding (every node broadcasts every new packet once:
#     stream.py flood-relay on each node);
#   - the fan-out's cost: the guest's busy time per packet the source
#     sends with 1, 8 and 64 children of one relay (copies, and one
#     broadcast), next to plain DSR unicast forwarding over that relay;
#   - join-to-first-packet time by hop count (a line 1 --- 2 --- ... ---
#     5; the source streams, a receiver k hops away joins).
#
# MC_AIR (4mbit), MC_FRAMES (150, at 15 frames/s), MC_REPS (3),
# MC_PARTS ("air fanout join"), MC_FANOUT ("1 8 64": a group has at most
# 64 children, DSR_MC_MAX_CHILDREN), MC_PPS (200).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/selftests/lib.sh"
BENCH_LIB=1 source "$ROOT/bench/dsr.sh"
STREAM="$ROOT/selftests/lib/stream.py"
AIR=${MC_AIR:-4mbit}
FRAMES=${MC_FRAMES:-150}
REPS=${MC_REPS:-3}
PARTS=${MC_PARTS:-air fanout join}
FANOUT=${MC_FANOUT:-1 8 64}
PPS=${MC_PPS:-200}
RATE=64000			# a layer's bit/s: one datagram a frame
LAYERS=4
G=239.2.0.1
declare -A LEVEL=([5]=1 [6]=2 [7]=4 [8]=2 [9]=3 [10]=4)
RECEIVERS="5 6 7 8 9 10"

# the channel's bytes so far (every station's frames that got on it)
air_bytes() {
	tc -n "$AH_HUB_NS" -s class show dev air classid 1:1 |
		sed -n 's/.*Sent \([0-9]*\) bytes.*/\1/p'
}

tree_setup() {
	hub_setup 10 >/dev/null && air_setup "$AIR" && load_module macfilter &&
		mf_links 1 2 && mf_links 2 1 3 4 && mf_links 3 2 5 6 7 &&
		mf_links 4 2 8 9 10 && mf_links 5 3 && mf_links 6 3 &&
		mf_links 7 3 && mf_links 8 4 && mf_links 9 4 && mf_links 10 4
}

# recv_bg NODE ADDR PORT OUT [ARGS...]: a layered receiver in the background
recv_bg() {
	local n=$1 a=$2 p=$3 o=$4
	shift 4
	nsexec "$n" "$PYTHON" "$STREAM" layered-recv "$a" "$p" 120 5 "$@" \
		> "$o" &
	PIDS+=($!)
}

# air_run MODE DIR: one run of the tree; prints "airtime_bytes" and
# writes each receiver's JSON to DIR/N.json
air_run() {
	local mode=$1 d=$2 n a0 a1 fp=() spids=()
	PIDS=()
	(
		trap ah_cleanup EXIT
		tree_setup || exit 1
		case $mode in
		mcast|unicast) dsr_setup >/dev/null || exit 1 ;;
		esac
		case $mode in
		mcast)
			for n in $RECEIVERS; do
				recv_bg "$n" "$G" 5000 "$d/$n.json" --dev dsr0
				dsr "$n" mcast join dev dsr0 source "$(node_ip 1)" \
					group "$G" layers "${LEVEL[$n]}" tag byte \
					offset 0 group-layers "$LAYERS" || exit 1
			done
			# the tree is up: each receiver's relay has it as a child
			busywait 20000 eval '[[ $(dsr 3 -j mcast show dev dsr0 |
				jq "[.[] | select(.mc_row == \"child\")] | length") -ge 3 &&
				$(dsr 4 -j mcast show dev dsr0 |
				jq "[.[] | select(.mc_row == \"child\")] | length") -ge 3 ]]' ||
				exit 1
			a0=$(air_bytes)
			nsexec 1 "$PYTHON" "$STREAM" layered-send "$G" 5000 "$FRAMES" \
				15 "$LAYERS" "$RATE" --dev dsr0 --ttl 16 >/dev/null ||
				exit 1
			;;
		unicast)
			for n in $RECEIVERS; do
				recv_bg "$n" "$(node_ip "$n")" 5000 "$d/$n.json"
				# the route is found before the stream (as a server's
				# first packet would find it)
				busywait 20000 nsexec 1 ping -c 1 -W 1 -q \
					"$(node_ip "$n")" >/dev/null || exit 1
			done
			a0=$(air_bytes)
			for n in $RECEIVERS; do
				nsexec 1 "$PYTHON" "$STREAM" layered-send \
					"$(node_ip "$n")" 5000 "$FRAMES" 15 \
					"${LEVEL[$n]}" "$RATE" >/dev/null &
				spids+=($!)
			done
			wait "${spids[@]}"
			;;
		flood)
			for n in $(seq 1 10); do
				fp=(--deliver 5000)
				((n == 1)) && fp=(--inject 5001)
				nsexec "$n" "$PYTHON" "$STREAM" flood-relay eth0 \
					$((FRAMES / 15 + 30)) "${fp[@]}" > "$d/flood$n.json" &
				spids+=($!)
			done
			for n in $RECEIVERS; do
				recv_bg "$n" 127.0.0.1 5000 "$d/$n.json"
			done
			nap 3		# the relays' sockets are up
			a0=$(air_bytes)
			nsexec 1 "$PYTHON" "$STREAM" layered-send 127.0.0.1 5001 \
				"$FRAMES" 15 "$LAYERS" "$RATE" >/dev/null || exit 1
			;;
		esac
		wait "${PIDS[@]}"
		a1=$(air_bytes)
		kill "${spids[@]}" 2>/dev/null
		wait
		echo $((a1 - a0))
	)
}

# whole N.json LEVEL: frames the receiver could show at its level or
# above (flooding and unicast deliver what it asked for or more)
whole() {
	jq -r --argjson l "$2" '[.levels | to_entries[] |
		select((.key | tonumber) >= 1) | .value] | add // 0' "$1"
}

part_air() {
	local mode r d air n line
	echo "Airtime and frames, six receivers at levels 1 2 4 2 3 4 of $LAYERS layers ($((RATE / 1000)) kbit/s each), $FRAMES frames at 15 frames/s, channel $AIR, $REPS runs each, modes interleaved; median [lowest-highest]"
	declare -A air=() fr=()
	for ((r = 1; r <= REPS; r++)); do
		for mode in mcast unicast flood; do
			d=$(mktemp -d)
			air=$(air_run "$mode" "$d") || { echo "# $mode: run $r failed"; rm -rf "$d"; continue; }
			line="$air"
			for n in $RECEIVERS; do
				line+=" $(whole "$d/$n.json" "${LEVEL[$n]}")"
			done
			echo "# $mode run $r: airtime bytes, then frames at 5..10: $line" >&2
			echo "$line" >> "$OUT/air-$mode"
			rm -rf "$d"
		done
	done
	echo "| mode | airtime KB | per receiver KB | frames shown at 5 (1) | 6 (2) | 7 (4) | 8 (2) | 9 (3) | 10 (4) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for mode in mcast unicast flood; do
		[[ -s $OUT/air-$mode ]] || continue
		line="| $mode | $(awk '{ print $1 / 1000 }' "$OUT/air-$mode" | stat3) | $(awk '{ print $1 / 6000 }' "$OUT/air-$mode" | stat3 | median)"
		for ((n = 2; n <= 7; n++)); do
			line+=" | $(awk -v c="$n" '{ print $c }' "$OUT/air-$mode" | stat3)"
		done
		echo "$line |"
	done
}

# udp_out NODE: the UDP datagrams NODE has sent (/proc/net/snmp)
udp_out() {
	nsexec "$1" awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $5 }' /proc/net/snmp
}

# fan_run KIND N: one layer at PPS packets/s of 1000 bytes from node 1
# through relay 2 to N children (KIND copies: a unicast copy each,
# mcast_bcast_min 0; bcast: one broadcast; unicast: N = 1, plain DSR
# unicast forwarding to node 3, no tree; none: N = 0, the source streams
# to a group nobody joined).  The sender is bench/mcsend.c (a Python
# sender's own cost per datagram, hundreds of us here, hid the
# forwarding's).  The guest's busy time is taken over 8 s in the middle of
# the stream; prints busy us per datagram sent then, and their number
fan_run() {
	local kind=$1 k=$2 n b0 b1 u0 u1 secs=8 dst spid kids
	(
		trap ah_cleanup EXIT
		hub_setup $((k + 2 > 3 ? k + 2 : 3)) >/dev/null &&
			load_module macfilter && mf_links 1 2 || exit 1
		kids=$(seq 3 $((k + 2 > 3 ? k + 2 : 3)))
		# shellcheck disable=SC2086
		mf_links 2 1 $kids || exit 1
		for n in $kids; do mf_links "$n" 2 || exit 1; done
		dsr_setup >/dev/null || exit 1
		dst=$G
		case $kind in
		unicast)
			busywait 20000 nsexec 1 ping -c 1 -W 1 -q "$(node_ip 3)" \
				>/dev/null || exit 1
			dst=$(node_ip 3)
			;;
		copies|bcast)
			if [[ $kind == copies ]]; then
				dsr 2 param set dsr0 mcast_bcast_min 0 || exit 1
			fi
			for n in $kids; do
				dsr "$n" mcast join dev dsr0 source "$(node_ip 1)" \
					group "$G" layers 1 || exit 1
			done
			# shellcheck disable=SC2016
			busywait $((20000 + 500 * k)) eval '[[ $(dsr 2 -j mcast show dev dsr0 |
				jq "[.[] | select(.mc_row == \"child\")] | length") -ge $k ]]' ||
				exit 1
			;;
		esac
		cpu_quiet
		nsexec 1 "$MCSEND" "$dst" 5000 "$PPS" $((secs + 4)) 1000 dsr0 \
			>/dev/null &
		spid=$!
		nap 2
		u0=$(udp_out 1)
		b0=$(busy_ms)
		nap "$secs"
		b1=$(busy_ms)
		u1=$(udp_out 1)
		wait "$spid"
		# per datagram the sender sent in the window (a slow guest may
		# not keep the nominal rate)
		echo $(((b1 - b0) * 1000 / (u1 - u0 > 0 ? u1 - u0 : 1))) $((u1 - u0))
	)
}

part_fanout() {
	local r k kind v
	echo "Fan-out cost: the guest's busy time per packet the source sends ($PPS packets/s of 1000 bytes, one layer, 8 s in the middle of the stream) through relay 2 to its children, leaves of it; less the same with no child (the source's own cost and the guest's background); $REPS runs each, interleaved; median [lowest-highest], us"
	for ((r = 1; r <= REPS; r++)); do
		for kind in none unicast; do
			v=$(fan_run "$kind" 1)
			echo "# $kind run $r: $v" >&2
			echo "$v" >> "$OUT/fan-$kind"
		done
		for k in $FANOUT; do
			for kind in copies bcast; do
				v=$(fan_run "$kind" "$k")
				echo "# $kind $k run $r: $v" >&2
				echo "$v" >> "$OUT/fan-$kind-$k"
			done
		done
	done
	local base
	base=$(stat3 < "$OUT/fan-none" | median)
	echo "no child (the source alone): $(stat3 < "$OUT/fan-none") us/packet"
	echo "| children | copies us/packet | per child | broadcast us/packet | per child |"
	echo "|---:|---:|---:|---:|---:|"
	echo "| plain DSR unicast over the relay to 1 node | $(awk -v b="$base" 'NF { print $1 - b }' "$OUT/fan-unicast" | stat3) | | | |"
	for k in $FANOUT; do
		echo "| $k | $(awk -v b="$base" 'NF { print $1 - b }' "$OUT/fan-copies-$k" | stat3) | $(awk -v b="$base" -v k="$k" 'NF { printf "%.1f\n", ($1 - b) / k }' "$OUT/fan-copies-$k" | stat3 | median) | $(awk -v b="$base" 'NF { print $1 - b }' "$OUT/fan-bcast-$k" | stat3) | $(awk -v b="$base" -v k="$k" 'NF { printf "%.1f\n", ($1 - b) / k }' "$OUT/fan-bcast-$k" | stat3 | median) |"
	done
}

# join_run HOPS: node 1 streams one layer at 100 packets/s; the receiver
# HOPS hops away joins; prints join-to-first-packet ms: from just before
# stream.py runs "ahctl dsr mcast join" (its start included) to the first
# packet's arrival (the kernel's receive time stamp)
join_run() {
	local h=$1 n=$(($1 + 1)) spid d t0
	(
		trap ah_cleanup EXIT
		hub_setup 5 >/dev/null && mf_line >/dev/null && dsr_setup >/dev/null ||
			exit 1
		# the route to the source is known (the join follows it)
		busywait 20000 nsexec "$n" ping -c 1 -W 1 -q "$(node_ip 1)" \
			>/dev/null || exit 1
		# 100 packets/s: the next packet after the join is at most 10 ms
		# away
		nsexec 1 "$PYTHON" "$STREAM" layered-send "$G" 5000 4000 100 1 \
			80000 --dev dsr0 --ttl 16 >/dev/null &
		spid=$!
		nap 1
		d=$(mktemp)
		nsexec "$n" "$PYTHON" "$STREAM" layered-recv "$G" 5000 20 3 \
			--dev dsr0 --join "ahctl dsr mcast join dev dsr0 source $(node_ip 1) group $G layers 1" \
			> "$d"
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		# what ahctl's start alone costs here: a request that changes
		# nothing, from the same namespace
		now_ms
		t0=$AH_NOW_MS
		ahctl -n "$AH_PREFIX$n" dsr mcast show dev dsr0 >/dev/null
		now_ms
		echo "$(jq -r '.join_to_first_ms // "-"' "$d") $((AH_NOW_MS - t0))"
		rm -f "$d"
	)
}

part_join() {
	local r h v
	echo "Join to first packet: the source streams 100 packets/s, a receiver HOPS hops away joins (its join goes hop by hop to the source); from the join command's start (ahctl's own start included) to the first packet; $REPS runs each; median [lowest-highest], ms"
	for ((r = 1; r <= REPS; r++)); do
		for h in 1 2 3 4; do
			v=$(join_run "$h")
			echo "# join $h hops run $r: $v" >&2
			echo "$v" >> "$OUT/join-$h"
		done
	done
	echo "| hops | join to first packet ms | an ahctl request alone ms |"
	echo "|---:|---:|---:|"
	for h in 1 2 3 4; do
		echo "| $h | $(stat3 < "$OUT/join-$h") | $(awk '{ print $2 }' "$OUT/join-$h" | stat3) |"
	done
}

OUT=$ROOT/build/bench-mcast
rm -rf "$OUT"
mkdir -p "$OUT"
require_cmd jq ahctl cc
MCSEND=$OUT/mcsend
cc -O2 -o "$MCSEND" "$ROOT/bench/mcsend.c" || exit 1
CPU_IDLE_MS=$(for i in 1 2 3 4 5; do busy_1s; done | sort -n | sed -n 3p)
for p in $PARTS; do
	"part_$p"
done
