#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo SCENARIO=... NODES=N`, inside the guest: any scenario with N
# nodes on the hub, DSR on every node, every node's macfilter replaying
# its trace, CBR flows between random pairs, and the classic MANET
# metrics at the end (scripts/demo-metrics.py).
#
#   n1    n2    n3   ...  nN        DSR (dsr0) on every node
#   eth0  eth0  eth0      eth0      macfilter: who hears whom, replayed
#    +-----+--- ahhub ----+         tcpdump on the hub: every frame once
#
# Environment (all optional):
#   SCENARIO   a scenario ah-scenario reads: FILE.toml, a built-in name,
#              an ns-2 or BonnMotion movement file, an rwp: spec
#              (default rwp:nodes=NODES,area=1500x300,speed=1-20,
#              pause=0-30,duration=DEMO_SECS,seed=1)
#   NODES      nodes (default: the scenario's, 50 for the default spec);
#              fewer than the scenario has: its first NODES
#   DEMO_SECS  seconds of the run (trace time, default 60)
#   TIME_SCALE trace time = scenario time / TIME_SCALE (default 1)
#   RANGE, EDGE  the radio model of movement files (default 250, 200)
#   FLOWS, RATE, SIZE  CBR: flows, datagrams/s each, UDP payload bytes
#              (default 10, 4, 512); FLOW_SEED (default 1) picks the pairs
#   REPLAY     one: one `ahctl macfilter replay-all` for every node (the
#              default); each: one `ahctl macfilter replay` per node
#   DEMO_OUT   where the run's files go (default build/demo-scale)
source "$(dirname "$0")/../selftests/lib.sh"
set -e

DEMO_SECS=${DEMO_SECS:-60}
TIME_SCALE=${TIME_SCALE:-1}
FLOWS=${FLOWS:-10}
RATE=${RATE:-4}
SIZE=${SIZE:-512}
FLOW_SEED=${FLOW_SEED:-1}
REPLAY=${REPLAY:-one}
OUT=${DEMO_OUT:-$AH_ROOT/build/demo-scale}
if [[ -z ${SCENARIO:-} ]]; then
	SCENARIO=rwp:nodes=${NODES:-50},area=1500x300,speed=1-20,pause=0-30,duration=$((DEMO_SECS * TIME_SCALE)),seed=1
fi
# a movement carries no radio model; a TOML file has its own (the options
# would override it)
RADIO=()
case $SCENARIO in
rwp:* | *.ns | *.ns2 | *.tcl | *.movements | *.movements.gz)
	RADIO=(--range "${RANGE:-250}" --edge "${EDGE:-200}") ;;
esac
PYTHON=/usr/bin/python3

say() { printf '\n== [%3d s] %s\n' "$SECONDS" "$*"; }

rm -rf "$OUT"
mkdir -p "$OUT/traces"
say "the scenario: $SCENARIO, $DEMO_SECS s of trace"
$PYTHON "$AH_ROOT/tools/ah-scenario" traces "$SCENARIO" "$OUT/traces" \
	"${RADIO[@]}" --mac-base 02:00:00:00:00:00 \
	--time-scale "$TIME_SCALE" --duration $((DEMO_SECS * TIME_SCALE))
# ah-scenario's arguments for the picture, drawn on the host (scripts/demo.sh)
printf '%s\n' "$SCENARIO" "$OUT/scenario.png" "${RADIO[@]}" \
	--mac-base 02:00:00:00:00:00 --time-scale "$TIME_SCALE" \
	--duration $((DEMO_SECS * TIME_SCALE)) > "$OUT/draw.args"
mapfile -t NAMES < <(awk '{ print $1 }' "$OUT/traces/nodes.txt")
N=${NODES:-${#NAMES[@]}}
if ((N > ${#NAMES[@]} || N < 2 || N > 250)); then
	echo "NODES=$N: the scenario has ${#NAMES[@]} nodes (2 to 250 run)"
	exit 1
fi
NAMES=("${NAMES[@]:0:N}")
echo "  $N nodes: ${NAMES[*]:0:8}${NAMES[8]:+ ...}"

say "$N nodes on the hub, DSR and macfilter on every node"
hub_dsr_nodes $(seq 1 "$N")
for ((i = 1; i <= N; i++)); do
	echo "${NAMES[$((i - 1))]} $(node_ip "$i")"
done > "$OUT/nodes.txt"

# the flows: "NETNS_SRC NETNS_DST DST_ADDR PORT SRC_NAME DST_NAME"
out=$($PYTHON "$AH_ROOT/scripts/demo-metrics.py" pairs "$N" "$FLOWS" "$FLOW_SEED")
f=0
while read -r s d; do
	echo "$(ns "$s") $(ns "$d") $(node_ip "$d") $((5001 + f))" \
		"${NAMES[$((s - 1))]} ${NAMES[$((d - 1))]}"
	f=$((f + 1))
done <<< "$out" > "$OUT/flows.txt"
say "$FLOWS CBR flows of $RATE x $SIZE-byte datagrams/s:"
awk '{ printf "%s -> %s   ", $5, $6 } END { print "" }' "$OUT/flows.txt" |
	fold -w 76 -s | sed 's/^/  /'

ip netns exec "$AH_HUB_NS" tcpdump -i ahhub --immediate-mode -s 96 -w "$OUT/hub.pcap" -U \
	'ip proto 48' > /dev/null 2>&1 &
capture=$!
busywait 10000 test -s "$OUT/hub.pcap" || true

say "the nodes move and talk for $DEMO_SECS s"
head -1 /proc/stat > "$OUT/cpu.before"
(
	t0=$SECONDS
	while sleep 15; do
		say "running: $((SECONDS - t0)) of $DEMO_SECS s"
	done
) &
ticker=$!
replays=()
if [[ $REPLAY == each ]]; then
	# each replay counts its steps from its own start: the spread of
	# the starts is a skew between the nodes their lateness does not show
	t0=$(date +%s%3N)
	for ((i = 1; i <= N; i++)); do
		ahctl -j -n "$(ns "$i")" macfilter replay dev eth0 \
			"$OUT/traces/${NAMES[$((i - 1))]}.trace" \
			> "$OUT/${NAMES[$((i - 1))]}.replay" &
		replays+=($!)
	done
	echo "$(($(date +%s%3N) - t0))" > "$OUT/replay-spread.txt"
	echo "  $N replay processes started over $(cat "$OUT/replay-spread.txt") ms"
else
	for ((i = 1; i <= N; i++)); do
		echo "$(ns "$i") eth0 $OUT/traces/${NAMES[$((i - 1))]}.trace ${NAMES[$((i - 1))]}"
	done > "$OUT/replay.list"
	ahctl -j macfilter replay-all "$OUT/replay.list" > "$OUT/replay.json" &
	replays+=($!)
fi
$PYTHON "$AH_ROOT/selftests/lib/cbr.py" "$OUT/flows.txt" "$DEMO_SECS" \
	"$RATE" "$SIZE" "$OUT/cbr.txt" > "$OUT/cbr.log" &
cbr=$!
rc=0
wait "$cbr" || rc=$?
for p in "${replays[@]}"; do
	wait "$p" || rc=$?
done
head -1 /proc/stat > "$OUT/cpu.after"
kill "$ticker" 2>/dev/null || true
kill "$capture" 2>/dev/null || true
wait "$capture" 2>/dev/null || true
tail -1 "$OUT/cbr.log" | sed 's/^/  /'
if ((rc)); then
	echo "a replay or the traffic failed (status $rc)"
	exit 1
fi

say "dsr0 counters summed over the nodes (ethtool -S):"
# (nsenter: "ip netns exec" makes a mount namespace per call, slow under TCG)
for ((i = 1; i <= N; i++)); do
	nsenter --net="/run/netns/$(ns "$i")" ethtool -S dsr0 |
		awk 'NR > 1 { sub(":$", "", $1); print $1, $2 }'
done | awk '{ s[$1] += $2 }
	END { printf "  rreq_sent %d, rrep_sent %d, rerr_sent %d, salvaged %d, link_failures %d, retransmissions %d\n",
		s["rreq_sent"], s["rrep_sent"], s["rerr_sent"], s["salvaged"],
		s["link_failures"], s["retransmissions"] }' | tee "$OUT/dsr-counters.txt"

say "the metrics of the run"
$PYTHON "$AH_ROOT/scripts/demo-metrics.py" report "$OUT" "$SIZE" "$DEMO_SECS" | tee "$OUT/metrics.txt"
say "every file of the run: $OUT"
# the namespaces in one batch: ah_cleanup (lib.sh) takes two process
# starts a node, most of a second each under TCG; it finds none left
for ((i = 0; i <= N; i++)); do
	((i)) && echo "netns del $(ns "$i")" || echo "netns del $AH_HUB_NS"
done | ip -b - || true
