#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it).  Per-frame cost of dropping
# by source MAC on a veth's receive path, three ways, for lists of 1, 100
# and 10,000 source MACs (the sending MAC is one of them):
#   macfilter  our rx_handler
#   nft        netdev ingress chain, rule "ether saddr @set drop"
#   flower     tc clsact ingress, one flower src_mac filter per MAC, action drop
# pktgen pushes N frames into vA; its peer vB receives and drops them.  The
# time pktgen reports covers transmit and the receive softirq it runs; the
# three drops happen at nearly the same point of the receive path, so the
# differences between them are the differences of the filters.  Each point
# is the median of 3 runs.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KO=$(find "$ROOT/build/$(uname -r)/kmod" -name macfilter.ko)
PATH=$ROOT/userspace/ahctl:$PATH
N=${BENCH_FRAMES:-200000}
SRC=02:be:00:00:00:01
PG=/proc/net/pktgen

pg() { echo "$2" > "$PG/$1"; }

setup() {
	modprobe pktgen veth || exit 1
	insmod "$KO" 2>/dev/null
	ip link add vA type veth peer name vB
	ip link set vA up
	ip link set vB up
	ip link set vB promisc on
	pg kpktgend_0 "rem_device_all"
	pg kpktgend_0 "add_device vA"
	pg vA "count $N"
	pg vA "pkt_size 60"
	pg vA "delay 0"
	pg vA "clone_skb 0"
	pg vA "src_mac $SRC"
	pg vA "dst_mac $(cat /sys/class/net/vB/address)"
	pg vA "dst 10.9.9.9"
}

# run_pg: prints ns per frame of one pktgen run
run_pg() {
	pg pgctrl start
	awk '/^Result: OK:/ { sub(/\(.*/, "", $3); us = $3 + 0 }
	     END { printf "%.1f\n", us * 1000 / '"$N"' }' "$PG/vA"
}

median3() { printf '%s\n' "$(run_pg)" "$(run_pg)" "$(run_pg)" | sort -g | sed -n 2p; }

# macs N: N MACs, the last one being the sender's
macs() {
	local n=$1 i
	for ((i = 1; i < n; i++)); do
		printf '02:aa:%02x:%02x:%02x:00\n' $((i >> 16)) $(((i >> 8) & 255)) $((i & 255))
	done
	echo "$SRC"
}

clear_all() {
	ahctl macfilter detach dev vB 2>/dev/null
	nft delete table netdev bench 2>/dev/null
	tc qdisc del dev vB clsact 2>/dev/null
}

with_macfilter() {
	ahctl macfilter attach dev vB max_entries 16384 &&
	macs "$1" | ahctl macfilter load dev vB -
}

with_nft() {
	{
		echo "table netdev bench {"
		echo "  set s { type ether_addr; size 65536; elements = {"
		macs "$1" | sed 's/$/,/' | sed '$ s/,$//'
		echo "  } }"
		echo "  chain in { type filter hook ingress device vB priority 0;"
		echo "    ether saddr @s drop; }"
		echo "}"
	} > /tmp/bench.nft
	nft -f /tmp/bench.nft
}

with_flower() {
	tc qdisc add dev vB clsact || return 1
	macs "$1" | awk '{ print "filter add dev vB ingress protocol all pref 1 flower skip_hw src_mac " $1 " action drop" }' \
		> /tmp/bench.tc
	tc -batch /tmp/bench.tc
}

setup
echo "# frames per run: $N, kernel $(uname -r)"
clear_all
base=$(median3)
for size in 1 100 10000; do
	for m in macfilter nft flower; do
		clear_all
		"with_$m" "$size" >/dev/null || { echo "$m $size setup failed"; continue; }
		echo "$m $size $(median3)"
		case $m in
		macfilter) d=$(ahctl -j macfilter show dev vB | jq '.[0].dropped') ;;
		nft) d=$(nft list ruleset | grep -c 'ether saddr') ;;
		flower) d=$(tc -s filter show dev vB ingress | grep -c 'Sent') ;;
		esac
		echo "#   $m $size check: $d"
	done
done | awk -v base="$base" '
	/^#/ { print; next }
	/failed/ { print "# " $0; next }
	{ v[$1, $2] = $3; sizes[$2] = 1 }
	END {
		print ""
		print "| list size | macfilter ns/frame | nft ns/frame | flower ns/frame | nft / macfilter | flower / macfilter |"
		print "|---:|---:|---:|---:|---:|---:|"
		split("1 100 10000", s, " ")
		for (i = 1; i <= 3; i++) {
			z = s[i]; mf = v["macfilter", z]; nf = v["nft", z]; fl = v["flower", z]
			printf "| %s | %.0f | %.0f | %.0f | %.2f | %.2f |\n", z, mf, nf, fl,
				nf / mf, fl / mf
		}
		printf "\nbaseline (no filter, frames reach the IPv4 stack): %.0f ns/frame\n", base
	}'
clear_all
