#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job, run inside the guest by `make demo`: five radios in one
# room (a hub), macfilter turns them into a line, static routes forward.
#
#   A(1) ---- B(2) ---- C(3) ---- D(4) ---- E(5)       each node hears only
#   10.0.0.1  10.0.0.2  10.0.0.3  10.0.0.4  10.0.0.5   its line neighbours
#
# Then one trace step cuts B--C (B stops hearing C and C stops hearing B)
# and A can no longer reach E.  Later issues replace the static routes
# with DSR, which finds the way around.
source "$(dirname "$0")/../selftests/lib.sh"
set -e

say() { printf '\n== %s\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

load_module macfilter
hub_setup 5
say "5 nodes on one hub: every radio hears every other"
for i in 1 2 3 4 5; do
	echo "node $i: $(ns $i) eth0 $(node_mac $i) $(node_ip $i)"
done

say "macfilter, allow-list mode: each node hears only its line neighbours"
for i in 1 2 3 4 5; do
	mf $i attach dev eth0 mode allow
	for j in $((i - 1)) $((i + 1)); do
		((j >= 1 && j <= 5)) && mf $i add dev eth0 "$(node_mac $j)"
	done
done
run ahctl -n "$(ns 3)" macfilter show

say "static routes along the line"
for i in 1 2 3 4 5; do
	nsexec $i sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.send_redirects=0 \
		net.ipv4.conf.eth0.send_redirects=0 net.ipv4.conf.all.accept_redirects=0 \
		net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.eth0.rp_filter=0
	for j in 1 2 3 4 5; do
		((j == i || j == i - 1 || j == i + 1)) && continue
		if ((j > i)); then via=$((i + 1)); else via=$((i - 1)); fi
		nsexec $i ip route add "$(node_ip $j)/32" via "$(node_ip $via)"
	done
done
run ip -n "$(ns 1)" route

say "A reaches E over four hops"
run ip netns exec "$(ns 1)" traceroute -n -q 1 -w 2 "$(node_ip 5)" |
	tee /tmp/demo-traceroute.txt
# the hop that answered from E's address, i.e. how many hops A-E took
hops=$(awk -v e="$(node_ip 5)" '$2 == e { print $1; exit }' /tmp/demo-traceroute.txt)
run ip netns exec "$(ns 1)" ping -c 3 -i 0.3 "$(node_ip 5)"
echo "A can not hear C directly:"
ip netns exec "$(ns 1)" ping -c 1 -W 1 -r "$(node_ip 3)" >/dev/null 2>&1 &&
	echo "  (direct ping to C works?!)" || echo "  ping -r (no routing) to C fails: ok"

say "trace step: B and C move apart (B stops hearing C, C stops hearing B)"
echo "$(node_mac 1)" > /tmp/demo-step-B.list
echo "$(node_mac 4)" > /tmp/demo-step-C.list
run ahctl -n "$(ns 2)" macfilter load dev eth0 /tmp/demo-step-B.list
run ahctl -n "$(ns 3)" macfilter load dev eth0 /tmp/demo-step-C.list
run ahctl -n "$(ns 2)" macfilter show
set +e
run ip netns exec "$(ns 1)" ping -c 3 -i 0.3 -W 1 "$(node_ip 5)"
lost=$?
set -e

say "result"
echo "traceroute A -> E: $hops hops"
if [[ $hops == 4 && $lost != 0 ]]; then
	echo "demo: OK: A reached E over 4 hops; after the B--C cut it cannot"
else
	echo "demo: FAILED (hops $hops, ping after cut exit $lost)"
	exit 1
fi
