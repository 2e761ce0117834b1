#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job, run inside the guest by `make demo`: the CMU testbed's ping
# test (seed 004 section 8) in one room.  Seven radios on one hub; macfilter
# replays, on every node, the trace of the built-in CMU course
# (tools/ah-scenario, scenarios/cmu.toml: 5 cars looping a 700 m x 300 m
# course, 250 m range, time-scaled); dsrd sets up each node's DSR; E1 pings
# E2 every 300 ms for the run; then the paper's tables are printed from the
# DSR tracepoints of all nodes and captures at E1 and E2.
#
#     E1(1) . . . T1(3)  T2(4)  T3(5)  T4(6)  T5(7) . . . E2(2)
#       \          |      |      |      |      |          /
#        +---------------------- ahhub ------------------+
#                  who hears whom: the trace's step of the moment
#
# DEMO_DRAW=0: no picture of the course (the selftest's reduced run).
# DEMO_SECS (default 100, the whole 1000 s course at the scenario's time
# scale 10): length of the run, trace time.  DEMO_OUT:
# where the run's files go (default build/demo).
source "$(dirname "$0")/../selftests/lib.sh"
set -e

DEMO_SECS=${DEMO_SECS:-100}
OUT=${DEMO_OUT:-$AH_ROOT/build/demo}
TRACEFS=/sys/kernel/tracing
NAMES=(E1 E2 T1 T2 T3 T4 T5)
PATH=$AH_ROOT/userspace/dsrd:$PATH
# matplotlib's cache: the guest's home is read-only
export MPLCONFIGDIR=${MPLCONFIGDIR:-$(mktemp -d)}

say() { printf '\n== [%3d s] %s\n' "$SECONDS" "$*"; }

rm -rf "$OUT"
mkdir -p "$OUT/traces"
say "the course: 5 cars, 2 fixed end nodes, ${DEMO_SECS} s of trace"
/usr/bin/python3 "$AH_ROOT/tools/ah-scenario" traces cmu "$OUT/traces" \
	--duration $((DEMO_SECS * 10))
/usr/bin/python3 "$AH_ROOT/tools/ah-scenario" summary cmu \
	--duration $((DEMO_SECS * 10)) | sed 's/^/  /'

load_module sch_dsrprio
load_module dsr
load_module macfilter
hub_setup 7
: > "$OUT/nodes.txt"
for i in "${!NAMES[@]}"; do
	n=$((i + 1)) name=${NAMES[$i]}
	echo "$name $(node_ip $n)" >> "$OUT/nodes.txt"
	ip -n "$(ns $n)" address flush dev eth0
	cat > "$OUT/$name.conf" <<-EOF
		# dsrd on $name ($(node_mac $n)), written by scripts/demo-guest.sh
		[dsr]
		Interface = eth0
		Address = $(node_ip $n)/24
		[macfilter]
		Interface = eth0
		Mode = deny
		[log]
		StatsInterval = 5
		StatsFile = $OUT/$name.stats.jsonl
		EventsFile = $OUT/$name.events.jsonl
	EOF
	dsrd -N "$(ns $n)" -f -c "$OUT/$name.conf" > /dev/null 2> "$OUT/$name.dsrd.log" &
done
for i in "${!NAMES[@]}"; do
	busywait 20000 nsexec $((i + 1)) ip link show dsr0 up >/dev/null ||
		{ echo "dsrd on ${NAMES[$i]} did not come up:"; cat "$OUT/${NAMES[$i]}.dsrd.log"; exit 1; }
done
say "dsrd runs on every node:"
ahctl -n "$(ns 1)" dsr param show dsr0 | head -3

mountpoint -q "$TRACEFS" || mount -t tracefs nodev "$TRACEFS"
echo 16384 > "$TRACEFS/buffer_size_kb"
echo > "$TRACEFS/trace"
for e in dsr_xmit dsr_recv dsr_ack; do
	echo 1 > "$TRACEFS/events/dsr/$e/enable"
done
nsexec 1 tcpdump -i eth0 --immediate-mode -w "$OUT/e1.pcap" -U -Q out 'ip proto 48 or icmp' > /dev/null 2>&1 &
nsexec 2 tcpdump -i eth0 --immediate-mode -w "$OUT/e2.pcap" -U -Q out 'ip proto 48 or icmp' > /dev/null 2>&1 &
# tcpdump writes the file's header once it captures
busywait 10000 test -s "$OUT/e1.pcap" -a -s "$OUT/e2.pcap" || true

say "the cars drive; E1 pings E2 every 300 ms for $DEMO_SECS s"
# where the drive is, every 15 s (the tables take a few seconds after it)
(
	t0=$SECONDS
	while sleep 15; do
		say "driving: $((SECONDS - t0)) of $DEMO_SECS s," \
			"about $((DEMO_SECS - (SECONDS - t0) + 10)) s left"
	done
) &
ticker=$!
for i in "${!NAMES[@]}"; do
	mf $((i + 1)) replay dev eth0 "$OUT/traces/${NAMES[$i]}.trace" \
		> "$OUT/${NAMES[$i]}.replay" &
done
nsexec 1 ping -n -q -i 0.3 -c $((DEMO_SECS * 10 / 3)) -W 2 "$(node_ip 2)" \
	> "$OUT/ping.txt" || true
kill "$ticker" 2>/dev/null || true
tail -2 "$OUT/ping.txt" | sed 's/^/  /'
wait_replays() { ! pgrep -f 'macfilter replay' >/dev/null; }
busywait 10000 wait_replays || true

for e in dsr_xmit dsr_recv dsr_ack; do
	echo 0 > "$TRACEFS/events/dsr/$e/enable"
done
cp "$TRACEFS/trace" "$OUT/dsr.trace"
pkill -f "tcpdump -i eth0 --immediate-mode -w $OUT" || true
say "replay lateness per node:"
for name in "${NAMES[@]}"; do
	echo "  $name: $(cat "$OUT/$name.replay")"
done
say "dsrd's last stats line of E1 (of $(wc -l < "$OUT/E1.stats.jsonl")):"
tail -1 "$OUT/E1.stats.jsonl" | jq -c '{time, dsr: (.dsr | {retransmissions, passive_acks, link_failures})}' 2>/dev/null | sed 's/^/  /' || true

pkill -TERM -x dsrd || true
busywait 10000 not pgrep -x dsrd || true

say "the paper's tables, from this run (the paper's numbers under each)"
/usr/bin/python3 "$AH_ROOT/scripts/demo-tables.py" "$OUT"
if [[ ${DEMO_DRAW:-1} == 1 ]]; then
	/usr/bin/python3 "$AH_ROOT/tools/ah-scenario" draw cmu "$OUT/course.png" \
		--duration $((DEMO_SECS * 10))
	say "the course: $OUT/course.png"
fi
say "every file of the run: $OUT"
