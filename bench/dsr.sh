#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it).  DSR against static IP
# forwarding and against batman-adv, the kernel's own mesh routing, on the
# same medium, in the same guest run, over 1 to 4 hops:
#
#   1 --- 2 --- ... --- k+1     hub (bridge) cut to a line
#
#   static  eth0 addresses, ip_forward on the middle nodes, static routes
#   dsr     dsr0 over eth0, routes discovered
#   batman  bat0 over eth0 (batman_adv.ko, BATMAN_IV), the address on bat0
#
# The line: for static and DSR macfilter's allow lists, as in the tests;
# batman-adv takes eth0's rx_handler, which macfilter owns, so for it the
# hub's bridge forwards only between neighbouring ports (nftables, bridge
# family).  Both drop a frame from a non-neighbour before IP sees it.
#
# Three media (BENCH_MEDIA, all by default):
#   veth     the hub as it is: veth offloads move 64 KB GSO packets
#   frames   offloads off: every frame at most the MTU, as on a radio link;
#            the guest's CPU is the bottleneck (GSO off on dsr0 too; tx
#            checksum offload stays on, on eth0 and dsr0)
#   rate20   frames, and every node sends at most 20 Mbit/s (netem rate):
#            the medium is the bottleneck, as a 802.11a/g link is
#
# iperf3 TCP goodput (BENCH_SECS s) and ping RTT (mean of 20) from node 1 to
# node k+1; for DSR also the first ping's RTT from empty caches (Route
# Discovery plus one round trip), for batman-adv the time from bat0 up to
# the first answered ping (its originator messages must cross every hop).
# Each point is run BENCH_REPS times (3), the modes interleaved, since one
# TCG run varies by 15 %: the tables give the median and, in brackets, the
# lowest and highest.  Ratios are of medians.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/selftests/lib.sh"
SECS=${BENCH_SECS:-5}
MEDIA=${BENCH_MEDIA:-veth frames rate20}
REPS=${BENCH_REPS:-3}
CPU_PPS=${BENCH_CPU_PPS:-3000}
# CPU per relay (off by default, it takes 2 x 3 x modes runs):
# BENCH_CPU_HOPS="1 3"
CPU_HOPS=${BENCH_CPU_HOPS-}
HOPS=${BENCH_HOPS-1 2 3 4}
MODES=${BENCH_MODES:-static dsr batman}
# table sizes (off by default): BENCH_ROUTES="0 1000" runs DSR on the frames
# medium over BENCH_TABLE_HOPS hops (4) with that many routes more in every
# node's route cache (static, to addresses no node has), to show that what a
# packet costs does not grow with the cache
ROUTES=${BENCH_ROUTES-}
TABLE_HOPS=${BENCH_TABLE_HOPS:-4}
# and BENCH_NEIGHS="0 100": that many neighbours more at every node (made-up
# stations that each sent one frame), the same way
NEIGHS=${BENCH_NEIGHS-}
FILL=0
NFILL=0

medium() {	# MEDIUM: shape the hub's links
	local i
	[[ $1 == veth ]] && return 0
	for ((i = 1; i <= AH_NODES; i++)); do
		nsexec "$i" ethtool -K eth0 tso off gso off gro off >/dev/null 2>&1
		ip netns exec "$AH_HUB_NS" ethtool -K "port$i" tso off gso off \
			gro off >/dev/null 2>&1
		[[ $1 == rate20 ]] &&
			nsexec "$i" tc qdisc replace dev eth0 root netem rate 20mbit \
				limit 100
	done
	return 0
}

# dsr_offloads MEDIUM: dsr0's GSO follows eth0's (off but on veth), so
# that DSR and IP forwarding both send MTU-sized packets on those media;
# checksum offload stays on, as it does on eth0 for IP
dsr_offloads() {
	local i
	[[ $1 == veth ]] && return 0
	for ((i = 1; i <= AH_NODES; i++)); do
		nsexec "$i" ethtool -K dsr0 tso off gso off >/dev/null 2>&1
	done
}

static_routes() {
	local n=$1 i j
	for ((i = 1; i <= n; i++)); do
		nsexec "$i" sysctl -qw net.ipv4.ip_forward=1
		for ((j = 1; j <= n; j++)); do
			((j == i || j == i - 1 || j == i + 1)) && continue
			if ((j > i)); then
				nsexec "$i" ip route add "$(node_ip "$j")/32" via "$(node_ip $((i + 1)))"
			else
				nsexec "$i" ip route add "$(node_ip "$j")/32" via "$(node_ip $((i - 1)))"
			fi
		done
	done
}

# the hub's bridge forwards only between ports i and i+1
bridge_line() {
	local i rules=
	for ((i = 1; i < AH_NODES; i++)); do
		rules+="add rule bridge line hops iifname port$i oifname port$((i + 1)) accept
add rule bridge line hops iifname port$((i + 1)) oifname port$i accept
"
	done
	ip netns exec "$AH_HUB_NS" nft -f - <<-EOF
		add table bridge line
		add chain bridge line hops { type filter hook forward priority 0; policy drop; }
		$rules
	EOF
}

# batman-adv on every node; prints the ms from bat0 up to node 1's first
# answered ping to the last node.  bat0's MTU leaves room for batman-adv's
# header (32 bytes, its documentation's figure) in eth0's 1500, so that
# no frame is fragmented (dsr0 likewise leaves 64 bytes for DSR's)
batman_setup() {
	local i t0
	modprobe batman_adv || return 1
	for ((i = 1; i <= AH_NODES; i++)); do
		ip -n "$(ns "$i")" -b - <<-EOF || return 1
			address flush dev eth0
			link add bat0 type batadv
			link set eth0 master bat0
			link set bat0 mtu 1468
			addr add $(node_ip "$i")/24 dev bat0
		EOF
	done
	t0=$(date +%s%N)
	for ((i = 1; i <= AH_NODES; i++)); do
		nsexec "$i" ip link set bat0 up || return 1
	done
	busywait 60000 nsexec 1 ping -c 1 -W 1 -q "$(node_ip "$AH_NODES")" \
		>/dev/null 2>&1 || return 1
	echo $((($(date +%s%N) - t0) / 1000000))
}

tcp_mbps() {	# DST
	iperf3_server "$1" 5201
	nsexec 1 iperf3 -c "$(node_ip "$1")" -p 5201 -t "$SECS" -J 2>/dev/null |
		jq '.end.sum_received.bits_per_second / 1e6 * 100 | floor / 100'
}

rtt_ms() {	# DST COUNT
	nsexec 1 ping -c "$2" -i 0.2 -W 5 -q "$(node_ip "$1")" 2>/dev/null |
		awk -F/ '/^rtt/ {print $5}'
}

# path MEDIUM MODE N: the line of N nodes routed by MODE; prints DSR's
# first ping or batman-adv's time to its first route ("-" for static)
path() {
	local med=$1 mode=$2 n=$3
	hub_setup "$n" >/dev/null || return 1
	if [[ $mode == batman ]]; then
		bridge_line || return 1
	else
		mf_line >/dev/null || return 1
	fi
	medium "$med" || return 1
	case $mode in
	dsr)
		dsr_setup || return 1
		fill_routes "$FILL" || return 1
		fill_neighs "$NFILL" || return 1
		dsr_offloads "$med"
		rtt_ms "$n" 1 ;;
	batman)
		batman_setup ;;
	*)
		static_routes "$n"
		busywait 10000 nsexec 1 ping -c 1 -W 1 -q "$(node_ip "$n")" \
			>/dev/null 2>&1
		echo - ;;
	esac
}

# fill_routes K: K static routes more in every node's route cache (its
# size raised to hold them and the line's), before any traffic
fill_routes() {
	local i
	(($1)) || return 0
	for ((i = 1; i <= AH_NODES; i++)); do
		dsr "$i" param set dsr0 route_cache_size $(($1 + 256)) &&
			nsexec "$i" "$PYTHON" "$ROOT/selftests/lib/routefill.py" \
				dsr0 "$1" || return 1
	done
}

# neigh_mac J: the J-th (from 0) made-up station of fill_neighs
neigh_mac() { printf '02:00:01:00:%02x:%02x\n' $(($1 >> 8)) $(($1 & 255)); }

# fill_neighs K: every node hears K neighbours more (made-up stations its
# macfilter list lets through, one DSR frame from each, sent by a node on
# the line), before any traffic; DSR keeps them until it has to evict
fill_neighs() {
	local i j from got
	(($1)) || return 0
	for ((i = 1; i <= AH_NODES; i++)); do
		from=$((i > 1 ? i - 1 : i + 1))
		{
			((i > 1)) && node_mac $((i - 1))
			((i < AH_NODES)) && node_mac $((i + 1))
			for ((j = 0; j < $1; j++)); do neigh_mac "$j"; done
		} | mf "$i" load dev eth0 - || return 1
		nsexec "$from" "$PYTHON" "$ROOT/selftests/lib/dsrcraft.py" neighs \
			eth0 "$(node_mac "$i")" "$(node_ip "$i")" "$1" || return 1
		got=$(dsr "$i" -j neigh show dsr0 | jq length)
		((got >= $1)) || { echo "node $i heard $got neighbours" >&2; return 1; }
	done
}

run() {	# MEDIUM MODE HOPS: "TCP RTT FIRST"
	local med=$1 mode=$2 n=$(($3 + 1)) first tcp rtt
	(
		trap ah_cleanup EXIT
		first=$(path "$med" "$mode" "$n") || exit 1
		rtt=$(rtt_ms "$n" 20)
		tcp=$(tcp_mbps "$n")
		echo "${tcp:--} ${rtt:--} ${first:--}"
	)
}

# busy_ms: the guest's CPU time so far that was not idle, in ms, summed
# over its CPUs: wall time times CPUs less /proc/uptime's idle time.  The
# idle time is measured at each idle entry and exit (NO_HZ), not sampled
# at the tick like /proc/stat's system and softirq figures, which swing
# by more than a relay costs in a TCG guest (the first try of this
# table).  What is not idle includes iperf3 at both ends, the same for
# every hop count and mode at one packet rate.
NCPU=$(nproc)
busy_ms() {
	local up idle
	read -r up idle < /proc/uptime
	awk -v u="$up" -v i="$idle" -v n="$NCPU" 'BEGIN { printf "%d\n", (u * n - i) * 1000 }'
}

# busy_1s: the busy ms of the next second
busy_1s() {
	local a
	a=$(busy_ms)
	sleep 1
	echo $(($(busy_ms) - a))
}

# cpu_quiet: wait (at most 30 s) until a second is as busy as an idle
# second of this guest (CPU_IDLE_MS, measured before the first run; the
# tools that read the clock and the guest's own housekeeping keep it
# above 0): the previous run's namespaces are torn down by a kworker
# after it ends, and that work would be counted in the next run's
# measurement (it made 3 hops look cheaper than 1)
cpu_quiet() {
	local i
	for ((i = 0; i < 30; i++)); do
		(($(busy_1s) <= CPU_IDLE_MS * 13 / 10 + 20)) && return 0
	done
	echo "# CPU: the guest did not get quiet" >&2
}

# cpu_run MODE HOPS: on the frames medium, UDP from node 1 to the last at
# CPU_PPS datagrams of 1400 bytes a second for BENCH_SECS (iperf3, which
# paces by a 1 ms timer); prints the guest's busy microseconds per
# datagram received and "received/sent" (a point that lost many is not a
# measurement of forwarding them)
cpu_run() {
	local mode=$1 n=$(($2 + 1)) b0 b1 out
	(
		trap ah_cleanup EXIT
		path frames "$mode" "$n" >/dev/null || exit 1
		cpu_quiet
		iperf3_server "$n" 5201 || exit 1
		b0=$(busy_ms)
		out=$(nsexec 1 iperf3 -u -c "$(node_ip "$n")" -p 5201 -l 1400 \
			-b $((CPU_PPS * 1400 * 8)) -t "$SECS" -J 2>/dev/null)
		b1=$(busy_ms)
		# (as medium.sh reads iperf3 3.12's UDP summary)
		jq -r --argjson t $((b1 - b0)) '(.end.sum_received // .end.sum) as $r |
			((.end.sum_sent // .end.sum).packets // 0) as $sent |
			(($r.packets // 0) - ($r.lost_packets // 0)) as $got |
			if $got > 0 then "\($t * 1000 / $got | . * 10 | round / 10) \($got)/\($sent)"
			else "-" end' <<< "$out"
	)
}

# median [lowest-highest] of the numbers on stdin ("-" if none)
stat3() {
	sort -g | awk 'NF && $1 != "-" { v[n++] = $1 }
		END { if (!n) { print "-"; exit }
		      printf "%s [%s-%s]\n", v[int((n - 1) / 2)], v[0], v[n - 1] }'
}

median() { sed 's/ .*//'; }

ratio() {	# A B: A / B to 2 decimals
	awk -v a="$1" -v b="$2" 'BEGIN { if (a != "-" && b > 0) printf "%.2f", a / b; else print "-" }'
}

# (scripts/profile-dsr.sh takes the functions above and runs its own)
[[ ${BENCH_LIB:-0} == 1 ]] && return 0

declare -A per
echo "# DSR vs static forwarding vs batman-adv, kernel $(uname -r), ${SECS}s TCP per point, $REPS runs each"
declare -A res
for med in $MEDIA; do
	for k in $HOPS; do
		for ((r = 1; r <= REPS; r++)); do
			for mode in $MODES; do
				res[$med,$k,$mode]+="$(run "$med" "$mode" "$k")
"
				echo "# $med, $k hops, run $r of $REPS, $mode: $(tail -2 <<< "${res[$med,$k,$mode]}" | head -1)" >&2
			done
		done
	done
done
col() {	# MEDIUM HOPS MODE FIELD(1 tcp, 2 rtt, 3 first)
	awk -v f="$4" 'NF { print $f }' <<< "${res[$1,$2,$3]:-}" | stat3
}
echo
echo "| medium | hops | static Mbit/s | DSR Mbit/s | batman-adv Mbit/s | DSR/static | DSR/batman-adv | static RTT ms | DSR RTT ms | batman-adv RTT ms | DSR/static RTT | first DSR ping (discovery) ms | batman-adv first route ms |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for med in $MEDIA; do
	for k in $HOPS; do
		st=$(col "$med" "$k" static 1) dt=$(col "$med" "$k" dsr 1)
		bt=$(col "$med" "$k" batman 1)
		sr=$(col "$med" "$k" static 2) dr=$(col "$med" "$k" dsr 2)
		br=$(col "$med" "$k" batman 2)
		printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
			"$med" "$k" "$st" "$dt" "$bt" \
			"$(ratio "$(median <<< "$dt")" "$(median <<< "$st")")" \
			"$(ratio "$(median <<< "$dt")" "$(median <<< "$bt")")" \
			"$sr" "$dr" "$br" \
			"$(ratio "$(median <<< "$dr")" "$(median <<< "$sr")")" \
			"$(col "$med" "$k" dsr 3)" "$(col "$med" "$k" batman 3)"
	done
done

# CPU per forwarded packet: what 3 hops cost the guest more than 1 hop, per
# packet and per relay added (the sender, the receiver and iperf3 are the
# same in both): two relays' forwarding and two more links' delivery
if [[ -n $CPU_HOPS ]]; then
	declare -A cpu
	CPU_IDLE_MS=$(for i in 1 2 3 4 5; do busy_1s; done | sort -n | sed -n 3p)
	echo "# CPU: an idle second of this guest is $CPU_IDLE_MS ms busy" >&2
	for ((r = 1; r <= REPS; r++)); do
		for k in $CPU_HOPS; do
			for mode in $MODES; do
				# (not "< <(cpu_run)": the next run would start
				# while this one's namespaces are still torn down)
				out=$(cpu_run "$mode" "$k")
				read -r v got <<< "$out"
				cpu[$k,$mode]+="${v:--} "
				echo "# CPU, $k hops, run $r of $REPS, $mode: ${v:--} µs/packet, received ${got:-none}" >&2
			done
		done
	done
	read -r lo hi _ <<< "$CPU_HOPS"
	echo
	echo "CPU per packet received (the guest's busy time, from its idle time), frames medium, UDP at $CPU_PPS packets/s of 1400 bytes for $SECS s, $REPS runs; per relay: (cost over $hi hops - over $lo) / $((hi - lo)), of the medians"
	echo
	echo "| mode | $lo hops µs/packet | $hi hops µs/packet | per relay µs | per relay / static's |"
	echo "|---|---:|---:|---:|---:|"
	for mode in $MODES; do
		a=$(tr ' ' '\n' <<< "${cpu[$lo,$mode]}" | stat3)
		b=$(tr ' ' '\n' <<< "${cpu[$hi,$mode]}" | stat3)
		per[$mode]=$(awk -v a="$(median <<< "$a")" -v b="$(median <<< "$b")" -v d=$((hi - lo)) \
			'BEGIN { if (a != "-" && b != "-") printf "%.1f", (b - a) / d; else print "-" }')
		printf '| %s | %s | %s | %s | %s |\n' "$mode" "$a" "$b" "${per[$mode]}" \
			"$(ratio "${per[$mode]}" "${per[static]:-}")"
	done
fi

# What a packet costs with K routes more in every cache (or K neighbours
# more at every node), against none.
tables() {	# routes|neighbours "K..."
	local what=$1 list=$2 k k0 r t t0
	local -A tab
	for ((r = 1; r <= REPS; r++)); do
		for k in $list; do
			if [[ $what == routes ]]; then FILL=$k; else NFILL=$k; fi
			tab[$k]+="$(run frames dsr "$TABLE_HOPS")
"
			echo "# tables, $k $what more, run $r of $REPS: $(tail -2 <<< "${tab[$k]}" | head -1)" >&2
		done
	done
	FILL=0 NFILL=0
	read -r k0 _ <<< "$list"
	t0=$(awk 'NF { print $1 }' <<< "${tab[$k0]}" | stat3 | median)
	echo
	if [[ $what == routes ]]; then
		echo "DSR over $TABLE_HOPS hops of the frames medium with routes added to every node's route cache ($REPS runs, median [range]; the ratio is to $k0 routes)"
	else
		echo "DSR over $TABLE_HOPS hops of the frames medium with neighbours added at every node ($REPS runs, median [range]; the ratio is to $k0 neighbours)"
	fi
	echo
	echo "| $what added | DSR Mbit/s | DSR RTT ms | Mbit/s ratio |"
	echo "|---:|---:|---:|---:|"
	for k in $list; do
		t=$(awk 'NF { print $1 }' <<< "${tab[$k]}" | stat3)
		printf '| %s | %s | %s | %s |\n' "$k" "$t" \
			"$(awk 'NF { print $2 }' <<< "${tab[$k]}" | stat3)" \
			"$(ratio "$(median <<< "$t")" "$t0")"
	done
}
if [[ -n $ROUTES ]]; then tables routes "$ROUTES"; fi
if [[ -n $NEIGHS ]]; then tables neighbours "$NEIGHS"; fi
