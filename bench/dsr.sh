#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it).  DSR against static IP
# forwarding on the same medium, in the same guest run, over 1 to 4 hops:
#
#   1 --- 2 --- ... --- k+1     hub (bridge) + macfilter line
#
#   static  eth0 addresses, ip_forward on the middle nodes, static routes
#   dsr     dsr0 over eth0, routes discovered
#
# Three media (BENCH_MEDIA, all by default):
#   veth     the hub as it is: veth offloads move 64 KB GSO packets
#   frames   offloads off: every frame at most the MTU, as on a radio link;
#            the guest's CPU is the bottleneck
#   rate20   frames, and every node sends at most 20 Mbit/s (netem rate):
#            the medium is the bottleneck, as a 802.11a/g link is
#
# iperf3 TCP goodput (BENCH_SECS s) and ping RTT (mean of 20) from node 1 to
# node k+1; for DSR also the first ping's RTT from empty caches (Route
# Discovery plus one round trip).  Ratios are DSR / static.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/selftests/lib.sh"
SECS=${BENCH_SECS:-5}
MEDIA=${BENCH_MEDIA:-veth frames rate20}

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

tcp_mbps() {	# DST
	iperf3_server "$1" 5201
	nsexec 1 iperf3 -c "$(node_ip "$1")" -p 5201 -t "$SECS" -J 2>/dev/null |
		jq '.end.sum_received.bits_per_second / 1e6 * 100 | floor / 100'
}

rtt_ms() {	# DST COUNT
	nsexec 1 ping -c "$2" -i 0.2 -W 5 -q "$(node_ip "$1")" 2>/dev/null |
		awk -F/ '/^rtt/ {print $5}'
}

run() {	# MEDIUM MODE HOPS
	local med=$1 mode=$2 k=$3 n=$(($3 + 1)) first=- tcp rtt
	(
		trap ah_cleanup EXIT
		hub_setup "$n" >/dev/null && mf_line >/dev/null || exit 1
		medium "$med" || exit 1
		if [[ $mode == dsr ]]; then
			dsr_setup || exit 1
			first=$(rtt_ms "$n" 1)
		else
			static_routes "$n"
			busywait 10000 nsexec 1 ping -c 1 -W 1 -q "$(node_ip "$n")" \
				>/dev/null 2>&1
		fi
		rtt=$(rtt_ms "$n" 20)
		tcp=$(tcp_mbps "$n")
		echo "$med $k $tcp $rtt $first"
	)
}

echo "# DSR vs static forwarding, kernel $(uname -r), ${SECS}s TCP per point"
rows=()
for med in $MEDIA; do
	for k in 1 2 3 4; do
		s=$(run "$med" static "$k")
		d=$(run "$med" dsr "$k")
		rows+=("$s|$d")
	done
done
echo
echo "| medium | hops | static Mbit/s | DSR Mbit/s | DSR/static | static RTT ms | DSR RTT ms | DSR/static RTT | first DSR ping (discovery) ms |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for r in "${rows[@]}"; do
	read -r med k st srtt _ <<< "${r%%|*}"
	read -r _ _ dt drtt first <<< "${r##*|}"
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$med" "$k" "$st" "$dt" \
		"$(awk -v a="$dt" -v b="$st" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')" \
		"$srtt" "$drtt" \
		"$(awk -v a="$drtt" -v b="$srtt" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')" \
		"$first"
done
