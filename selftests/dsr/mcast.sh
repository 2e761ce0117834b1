#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Layered multicast over DSR (issue 19, docs/mcast.md): a tree built from
# receivers' joins; each receiver gets exactly the layers it asked for,
# each relay copies a packet only to the children that asked for its
# layer, and asks upstream for the most its subtree needs; bad joins and
# tags are refused and counted, changing nothing else; a receiver whose
# relay moves away joins along its new route.
#
#   1 --- 2 --- 3 --- 4       (macfilter: each hears only these links)
#         |\
#         5 6
#   1 sends; 2 relays to 3, 5 and 6; 3 relays to 4 (in the last case, 3
#   moves away and 4 hears 5)
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl ethtool

STREAM="$AH_ROOT/selftests/lib/stream.py"
CRAFT="$AH_ROOT/selftests/lib/dsrcraft.py"
FRAMES=45	# 3 s at 15 frames/s
RATE=64000	# a layer's bit/s at 15 frames/s: one datagram a frame
# The debug lane's streams go AH_TIME_SCALE times slower, frames a second
# and bits a second alike, so that each frame keeps its datagrams and its
# sizes (as flood.sh's rate and the RTO's floor scale there).  Its kernel
# runs several times slower, one vCPU carries every node and the lane's
# other guest shares the host: at 15 frames/s, the shared case's copies
# (240 a second) or the adaptation case's relays took longer to
# acknowledge than their peers waited, and copies were retransmitted and
# links broken that work (the ack, retransmission and link-failure counts
# in those cases' diagnostics).
SLOW=${AH_TIME_SCALE:-1}
FPS=$(awk -v s="$SLOW" 'BEGIN { print 15 / s }')
# bps RATE: RATE bit/s at 15 frames/s, at FPS
bps() { echo $(($1 / SLOW)); }

setup() {
	hub_setup 6 && load_module macfilter &&
		mf_links 1 2 && mf_links 2 1 3 5 6 && mf_links 3 2 4 &&
		mf_links 4 3 && mf_links 5 2 && mf_links 6 2 && dsr_setup
}

# mjoin NODE GROUP LAYERS [ARGS...]: NODE's local receivers of (1, GROUP)
mjoin() {
	local n=$1 g=$2 l=$3
	shift 3
	dsr "$n" mcast join dev dsr0 source "$(node_ip 1)" group "$g" \
		layers "$l" "$@"
}

# mshow NODE: the rows of NODE's trees, JSON
mshow() { dsr "$1" -j mcast show dev dsr0; }

# child_layers NODE GROUP CHILD: the layers CHILD asked NODE for (0: none)
child_layers() {
	mshow "$1" | jq -r --arg g "$2" --arg c "$(node_ip "$3")" \
		'[.[] | select(.mc_row == "child" and .mc_group == $g and
			.addr == $c) | .mc_layers] | max // 0'
}

child_is() { [[ $(child_layers "$1" "$2" "$3") == "$4" ]]; }

# layer_stat NODE GROUP LAYER KEY: a per-layer counter of NODE's group
layer_stat() {
	mshow "$1" | jq -r --arg g "$2" --argjson l "$3" --arg k "$4" \
		'[.[] | select(.mc_row == "layer" and .mc_group == $g and
			.mc_layer == $l) | .[$k]] | add // 0'
}

# recv NODE GROUP OUT [IDLE [ARGS...]]: a receiver on NODE's dsr0, in the
# background, until IDLE s (3) pass without a datagram
recv() {
	nsexec "$1" "$PYTHON" "$STREAM" layered-recv "$2" 5000 \
		$((60 * ${AH_TIME_SCALE:-1})) "${4:-3}" \
		--dev dsr0 "${@:5}" > "$3" &
	RECV_PIDS+=($!)
}

# send GROUP LAYERS: node 1 sends FRAMES frames of LAYERS layers, RATE
# bit/s each (at 15 frames/s: both slower in the debug lane)
send() {
	nsexec 1 "$PYTHON" "$STREAM" layered-send "$1" 5000 "$FRAMES" "$FPS" \
		"$2" "$(bps "$RATE")" --dev dsr0 --ttl 16
}

# got OUT LAYER: the datagrams of LAYER a receiver got
got() {
	jq -r --argjson l "$2" \
		'[.per_layer[] | select(.layer == $l) | .packets] | add // 0' "$1"
}

# got_all NODE OUT LAYERS: NODE's receiver (its JSON at OUT) got all FRAMES
# datagrams of each of layers 0..LAYERS-1
got_all() {
	local l
	diag "$1: $(jq -c '{received, duplicates, frames_decodable}' "$2")"
	for ((l = 0; l < $3; l++)); do
		check "$1 got all $FRAMES datagrams of layer $l" \
			test "$(got "$2" "$l")" -eq "$FRAMES" || return 1
	done
}

# Source -> relay -> three receivers at different levels (1, 2 and 4 of
# the group's 4 layers; the sender also sends a fifth, which the group's
# tag refuses at the source): each gets exactly its layers, once; the
# relay copied each layer to as many children as asked for it.
test_levels() {
	local g=239.1.1.1 d sent n l want got2 fwd filt
	local -A level=([3]=1 [5]=2 [6]=4)
	shared || return 1
	# a copy for each child (the shared radio's broadcast: test_shared)
	dsr 2 param set dsr0 mcast_bcast_min 0 || return 1
	d=$(mktemp -d)
	RECV_PIDS=()
	for n in 3 5 6; do
		recv "$n" "$g" "$d/$n.json"
		mjoin "$n" "$g" "${level[$n]}" tag byte offset 0 group-layers 4 ||
			return 1
	done
	check "1 has relay 2 as its child, for 4 layers" \
		busywait 10000 child_is 1 "$g" 2 4 &&
	check "2 has 3, 5 and 6 for 1, 2 and 4 layers" \
		busywait 5000 eval 'child_is 2 "$g" 3 1 && child_is 2 "$g" 5 2 &&
			child_is 2 "$g" 6 4' || return 1
	# the first 200 DSR packets through relay 2's port (joins, copies,
	# acknowledgements) decode clean in tshark (not in the debug lane,
	# whose guest has no time for it: the other lane decodes the same)
	local cpid= ndec bad
	if [[ ${AH_DEBUG_LANE:-0} != 1 ]] && command -v dumpcap >/dev/null; then
		ip netns exec "$AH_HUB_NS" dumpcap -q -i port2 -w "$d/mc.pcap" \
			-f "ip proto 48" -c 200 >/dev/null 2>&1 &
		cpid=$!
		busywait 30000 test -s "$d/mc.pcap" || return 1
	fi
	sent=$(send "$g" 5) || return 1
	diag "sent: $sent"
	wait "${RECV_PIDS[@]}"
	if [[ -n $cpid ]]; then
		kill -INT "$cpid" 2>/dev/null
		wait "$cpid"
		dsr_decode "$d/mc.pcap" "$d/dec"
		read -r ndec bad < <(dsr_decode_count "$d/dec")
		diag "tshark: $ndec DSR packets through port2, $bad malformed"
		check "tshark decodes every DSR packet clean" \
			test "$ndec" -eq 200 -a "$bad" -eq 0 || return 1
	fi
	for n in 3 5 6; do
		diag "$n (${level[$n]} layers): $(jq -c '{received, duplicates,
			per_layer: [.per_layer[] | [.layer, .packets]],
			frames_decodable}' "$d/$n.json")"
		for l in 0 1 2 3 4; do
			want=0
			((l < level[$n])) && want=$FRAMES
			check "$n got $want datagrams of layer $l" \
				test "$(got "$d/$n.json" "$l")" -eq "$want" || return 1
		done
		check "$n got no duplicate" \
			test "$(jq .duplicates "$d/$n.json")" -eq 0 &&
		check "$n decoded all $FRAMES frames" \
			test "$(jq .frames_decodable "$d/$n.json")" -eq "$FRAMES" ||
			return 1
	done
	check "1 refused layer 4 ($FRAMES tags above the group's 4 layers)" \
		test "$(dsr_stat 1 mcast_tag_above)" -eq "$FRAMES" || return 1
	# relay 2: layer l goes to the children with more than l layers
	for l in 0 1 2 3; do
		want=0
		for n in 3 5 6; do ((l < level[$n])) && want=$((want + 1)); done
		fwd=$(layer_stat 2 "$g" "$l" mc_fwd_packets)
		filt=$(layer_stat 2 "$g" "$l" mc_filt_packets)
		diag "relay 2, layer $l: forwarded $fwd, filtered $filt"
		check "2 forwarded layer $l to $want children" \
			test "$fwd" -eq $((want * FRAMES)) &&
		check "2 filtered layer $l for $((3 - want))" \
			test "$filt" -eq $(((3 - want) * FRAMES)) || return 1
	done
	dsr 2 param set dsr0 mcast_bcast_min 2 || return 1
	rm -rf "$d"
}

# tx_bytes NODE: what NODE's eth0 sent, bytes
tx_bytes() {
	nsexec "$1" ip -j -s link show eth0 | jq '.[0].stats64.tx.bytes'
}

# The shared-radio case's layers: 256 kbit/s each, a 1 Mbit/s video (2
# datagrams a frame and layer).  What the nodes send includes the tree's
# control traffic (each group's refresh every second, the
# acknowledgments), a constant rate whatever the stream's: with 64 kbit/s
# layers it was 2-4 % of the stream, and 6 % in the debug lane, whose
# slower guest stretched the stream's 3 s.
SHARED_RATE=256000

# shared_run BCAST_MIN GROUP: receivers 5 and 6 of all 4 layers, both
# children of 2 on its one radio; sets RATIO (what 2 sent / what 1 sent,
# x100) and checks that each got the whole stream
shared_run() {
	local g=$2 d n a1 a2 b1 b2
	dsr 2 param set dsr0 mcast_bcast_min "$1" || return 1
	d=$(mktemp -d)
	RECV_PIDS=()
	for n in 5 6; do
		recv "$n" "$g" "$d/$n.json"
		mjoin "$n" "$g" 4 tag byte offset 0 group-layers 4 || return 1
	done
	busywait 10000 child_is 1 "$g" 2 4 &&
		busywait 5000 eval 'child_is 2 "$g" 5 4 && child_is 2 "$g" 6 4' ||
		return 1
	local -A s1 s2 e1 e2
	snap_of 1 s1
	snap_of 2 s2
	a1=$(tx_bytes 1)
	a2=$(tx_bytes 2)
	RATE=$SHARED_RATE send "$g" 4 >/dev/null || return 1
	# the stream's window: until its last packet crossed both hops, not
	# the receivers' idle wait after it, when only the tree's refreshes
	# and their acknowledgments go
	nap 1
	b1=$(tx_bytes 1)
	b2=$(tx_bytes 2)
	snap_of 1 e1
	snap_of 2 e2
	wait "${RECV_PIDS[@]}"
	RATIO=$((100 * (b2 - a2) / (b1 - a1)))
	diag "  what 1 and 2 sent meanwhile: $(for k in ack_req_sent ack_sent \
		retransmissions link_failures rreq_sent rrep_sent \
		mcast_copies mcast_broadcasts mcast_join_sent; do
		echo -n "$k $((${e1[$k]:-0} - ${s1[$k]:-0}))/$((${e2[$k]:-0} - ${s2[$k]:-0})) "
		done)"
	diag "mcast_bcast_min $1: 1 sent $((b1 - a1)) bytes, 2 sent" \
		"$((b2 - a2)) (x$RATIO/100); 5: $(jq -c '{received,
		duplicates}' "$d/5.json"), 6: $(jq -c '{received, duplicates}' \
		"$d/6.json")"
	for n in 5 6; do
		check "$n got every frame whole, all 4 layers" \
			test "$(jq '.levels["4"] // 0' "$d/$n.json")" -eq "$FRAMES" &&
		check "$n got no duplicate" \
			test "$(jq .duplicates "$d/$n.json")" -eq 0 || return 1
	done
	for n in 5 6; do
		dsr "$n" mcast leave dev dsr0 source "$(node_ip 1)" group "$g" ||
			return 1
	done
}

# Two receivers of the whole stream share 2's radio: with the broadcast
# (mcast_bcast_min 2, the default) 2 sends one copy of each packet, so
# the shared hop carries at most 1.05 times what the hop from 1 does;
# with a copy each (0), about twice.
test_shared() {
	local rc=0
	shared || return 1
	shared_run 2 239.1.1.5 || return 1
	check "2 -> {5, 6} carried <= 1.05 x 1 -> 2" test "$RATIO" -le 105 &&
	check "2 sent broadcasts" dsr_stat_ge 2 mcast_broadcasts $((8 * FRAMES)) ||
		rc=1
	# a copy each: test_levels runs that path (mcast_bcast_min 0)
	if ((rc == 0)) && ! skip_in_debug_lane "the copies' ratio:" \
		"test_levels sends a copy each"; then
		shared_run 0 239.1.1.6 &&
		check "  with a copy each, >= 1.8 x" test "$RATIO" -ge 180 ||
			rc=1
	fi
	dsr 2 param set dsr0 mcast_bcast_min 2
	return $rc
}

# Two relays in a row: 1's child 2 asks for the most of its subtree (4's
# 3 layers through relay 3, 5's 1); after 4 leaves, what 2 asks falls to
# 5's level within three refresh periods (3 s), and the higher layers
# stop crossing 1 -> 2.
test_subtree() {
	local g=239.1.1.2 t0 dt fwd0 fwd1
	shared || return 1
	mjoin 4 "$g" 3 tag byte offset 0 group-layers 4 &&
		mjoin 5 "$g" 1 tag byte offset 0 group-layers 4 || return 1
	check "3 asks 2 for 4's 3 layers" \
		busywait 10000 child_is 2 "$g" 3 3 &&
	check "2 asks 1 for the most of its subtree, 3" \
		busywait 5000 child_is 1 "$g" 2 3 || return 1
	dsr 4 mcast leave dev dsr0 source "$(node_ip 1)" group "$g" || return 1
	now_ms
	t0=$AH_NOW_MS
	check "2 asks 1 for 5's 1 layer within 3 refresh periods" \
		busywait 3000 child_is 1 "$g" 2 1 || return 1
	now_ms
	dt=$((AH_NOW_MS - t0))
	diag "1 saw 2's level fall 3 -> 1 after $dt ms"
	check "3 left the tree (no child of 2 for it within 4 s)" \
		busywait 4000 child_is 2 "$g" 3 0 || return 1
	# the stream: 1 sends layers 0..3, only layer 0 crosses to 2
	send "$g" 4 >/dev/null || return 1
	fwd0=$(layer_stat 1 "$g" 0 mc_fwd_packets)
	fwd1=$(($(layer_stat 1 "$g" 1 mc_fwd_packets) +
		$(layer_stat 1 "$g" 2 mc_fwd_packets) +
		$(layer_stat 1 "$g" 3 mc_fwd_packets)))
	diag "1 forwarded layer 0: $fwd0, layers 1-3: $fwd1"
	check "1 sent 2 layer 0 only" \
		test "$fwd0" -eq "$FRAMES" -a "$fwd1" -eq 0
}

# tree_of NODE GROUP: NODE's rows of GROUP but its counters, JSON
tree_of() {
	mshow "$1" | jq -c --arg g "$2" '[.[] | select(.mc_row != "layer" and
		.mc_group == $g) | del(.expires_ms)]'
}

# groups_of NODE: the groups NODE has a tree of, one a line, sorted
groups_of() {
	mshow "$1" | jq -r '.[] | select(.mc_row == "group") | .mc_group' | sort
}

# snap_of NODE ARRAY: NODE's counters into the array named ARRAY
snap_of() {
	local -n snap_into=$2
	local k v
	while read -r k v; do snap_into[$k]=$v; done < <(dsr_stats "$1")
}

# counters of node 2 into the array named $1
snap() { snap_of 2 "$1"; }

# Bad input: joins that ahctl refuses (with a reason), bad
# joins on the wire (each counted by class), a join flood (limited to 20
# at once and 20 a second); node 2's trees stay as they were.
test_bad() {
	local g=239.1.1.3 before groups_before k out
	local -A b a
	shared || return 1
	mjoin 5 "$g" 2 || return 1
	check "2 has 5 for 2 layers" busywait 5000 child_is 2 "$g" 5 2 ||
		return 1
	for k in "10.1.1.1 layers 2" "224.0.0.5 layers 2" "$g layers 0" \
		 "$g layers 200"; do
		# shellcheck disable=SC2086
		out=$(dsr 5 mcast join dev dsr0 source "$(node_ip 1)" group $k 2>&1) &&
			{ diag "accepted: group $k"; return 1; }
		diag "refused: group $k: $out"
	done
	out=$(dsr 5 mcast leave dev dsr0 source "$(node_ip 1)" group 239.9.9.9 2>&1) &&
		return 1
	diag "refused: leave of a group not joined: $out"
	check "the refusal says why" grep -qi "no local receivers" <<< "$out" ||
		return 1
	before=$(tree_of 2 "$g")
	groups_before=$(groups_of 2)
	snap b
	# from 10.0.0.9 (a made-up neighbour behind 5's MAC): its joins
	# have a rate-limit bucket of their own, which 5's refreshes do not
	# touch
	local c="nsexec 5 $PYTHON $CRAFT mjoin eth0 $(node_mac 5) $(node_mac 2)"
	c+=" 10.0.0.9 $(node_ip 2) $(node_ip 1)"
	$c 239.1.1.3 2 short 3 && $c 239.1.1.3 2 version 3 &&
		$c 239.1.1.3 2 tag 3 && $c 10.1.1.1 2 ok 3 &&
		$c 224.0.0.9 2 ok 3 && $c 239.1.1.3 200 ok 3 || return 1
	nap 1.1		# the rate limit's bucket refills: 20 joins at once
	local t0 dt made limited full
	now_ms
	t0=$AH_NOW_MS
	$c 239.7.0.1 2 many 100 || return 1
	now_ms
	dt=$((AH_NOW_MS - t0))
	nap 0.5
	# the groups the burst made, counted first: nobody refreshes them,
	# so they end three refresh periods (3 s) after it, and in the debug
	# lane the counters' read took that long (26 of 28 had ended)
	made=$(mshow 2 | jq '[.[] | select(.mc_row == "group" and
		(.mc_group | startswith("239.7.")))] | length')
	snap a
	for k in mcast_join_malformed:9 mcast_join_bad_group:6 \
		 mcast_join_bad_layers:3; do
		check "2 counted ${k%%:*} +${k##*:}" \
			test $((${a[${k%%:*}]:-0} - ${b[${k%%:*}]:-0})) -eq "${k##*:}" ||
			return 1
	done
	# 20 at once, then 20 a second: as many as the burst's time allows
	limited=$((a[mcast_join_rate_limited] - ${b[mcast_join_rate_limited]:-0}))
	full=$((a[mcast_join_groups_full] - ${b[mcast_join_groups_full]:-0}))
	diag "100 joins in $dt ms: $made admitted (groups made), $limited" \
		"limited, $full refused as the table was full"
	diag "  2's counters that moved: $(for k in "${!a[@]}"; do
		((${a[$k]:-0} != ${b[$k]:-0})) &&
			echo -n "$k +$((a[$k] - ${b[$k]:-0})) "; done)"
	check "each of the 100 joins admitted or counted" \
		test $((made + limited + full)) -eq 100 &&
	check "  no more admitted than 20 + 20 a second" \
		test "$made" -le $((20 + (20 * dt + 999) / 1000)) || return 1
	# (the earlier cases' groups may end meanwhile: their receivers left)
	check "2's tree of $g is as it was" test "$before" == "$(tree_of 2 "$g")" &&
	check "  and no group came but those of the joins admitted" \
		test -z "$(comm -13 <(echo "$groups_before") <(groups_of 2) |
			grep -v '^239\.7\.')"
}

# kmod/dsr/dsr.h: DSR_MC_GROUPS, DSR_MC_CHILDREN (ah_dsr.h's
# DSR_MC_MAX_CHILDREN)
MC_GROUPS=64
MC_CHILDREN=64

# mc_rows PREFIX ROW: how many ROW rows ("group", "child") of groups
# starting with PREFIX a dump (mshow's, on stdin) has
mc_rows() {
	jq --arg p "$1" --arg r "$2" '[.[] | select(.mc_row == $r
		and (.mc_group | startswith($p)))] | length'
}

# mc_count NODE PREFIX ROW: mc_rows of NODE's dump now
mc_count() { mshow "$1" | mc_rows "$2" "$3"; }

# Join floods from many neighbours at once (made-up ones behind 5's MAC,
# taking turns): each neighbour has a rate-limit bucket of its own, a
# group takes at most MC_CHILDREN children and the node MC_GROUPS groups,
# each refusal counted; the tree there before stays; once the flood's
# groups have ended (nobody refreshes them) a real receiver joins anew
test_flood() {
	local g=239.1.1.3 g2=239.1.1.12 before made kids total limited full
	local t0 dt k rows one
	local -A b a
	shared || return 1
	mjoin 5 "$g" 2 || return 1
	check "2 has 5 for 2 layers" busywait 5000 child_is 2 "$g" 5 2 ||
		return 1
	before=$(tree_of 2 "$g")
	local c="nsexec 5 $PYTHON $CRAFT mjoin eth0 $(node_mac 5) $(node_mac 2)"
	local to="$(node_ip 2) $(node_ip 1)"
	nap 1.1		# the buckets test_bad's flood emptied refill
	# MC_CHILDREN + 8 neighbours, one join each, to one group
	snap b
	$c "10.0.0.100*$((MC_CHILDREN + 8))" $to 239.7.2.1 2 ok 1 || return 1
	nap 0.5
	kids=$(mc_count 2 239.7.2.1 child)
	snap a
	full=$((a[mcast_join_children_full] - ${b[mcast_join_children_full]:-0}))
	limited=$((a[mcast_join_rate_limited] - ${b[mcast_join_rate_limited]:-0}))
	diag "$((MC_CHILDREN + 8)) neighbours join one group: $kids children, $full refused" \
		"as the group was full, $limited limited"
	check "  the group took $MC_CHILDREN" test "$kids" -eq $MC_CHILDREN &&
	check "  the other 8 counted" test "$full" -eq 8 &&
	check "  none limited: the limit is each neighbour's" \
		test "$limited" -eq 0 || return 1
	# 5 neighbours, 30 joins each, each to groups of its own: 150 groups
	snap b
	now_ms
	t0=$AH_NOW_MS
	$c "10.0.0.200*5" $to 239.7.3.0 2 many 30 || return 1
	now_ms
	dt=$((AH_NOW_MS - t0))
	nap 0.5
	# one dump for both: on a slow kernel the burst's first groups may
	# end (3 s after their join) between two
	rows=$(mshow 2)
	made=$(mc_rows 239.7.3. group <<< "$rows")
	total=$(mc_rows "" group <<< "$rows")
	snap a
	full=$((a[mcast_join_groups_full] - ${b[mcast_join_groups_full]:-0}))
	limited=$((a[mcast_join_rate_limited] - ${b[mcast_join_rate_limited]:-0}))
	diag "5 x 30 joins in $dt ms: $made admitted (groups made), $limited" \
		"limited, $full refused as the table was full; 2 has $total groups"
	check "  each of the 150 joins admitted or counted" \
		test $((made + limited + full)) -eq 150 &&
	check "  the node holds at most $MC_GROUPS groups, and was full" \
		test "$total" -le $MC_GROUPS -a "$full" -gt 0 &&
	one=$((20 + (20 * dt + 999) / 1000))
	# Where the node takes the joins no faster than one bucket refills
	# (20 a second: the debug lane's one vCPU took 6.4 s for the 150,
	# processing each at 2 and its join upstream at 1), one bucket would
	# have passed them all: buckets of their own cannot be told from one
	# by the clock.  The debug lane says so and leaves this check to the
	# other lane, where the burst takes 1-2 s; there it fails as before.
	if ((one >= 140)) && [[ ${AH_DEBUG_LANE:-0} == 1 ]]; then
		diag "  (one bucket would have passed $one of 150 in $dt ms: too" \
			"slow to tell buckets apart; the other lane checks it)"
	else
		check "  more passed the limit than one bucket lets through ($one)" \
			test $((made + full)) -gt "$one" || return 1
	fi
	# (within a refresh: where the burst held the CPU for seconds, as in
	# the debug lane, 5's refresh may have come late and its entry lapsed
	# until the next; a tree the flood took would not come back)
	check "2's tree of $g is as it was" \
		busywait 2000 eval 'test "$before" == "$(tree_of 2 "$g")"' ||
		{ diag "before: $before"; diag "now: $(tree_of 2 "$g")"; return 1; }
	# nobody refreshes the flood's groups: they end (3 refresh periods)
	check "the flood's groups end" \
		busywait 15000 eval 'test "$(mc_count 2 239.7. group)" -eq 0' &&
	mjoin 5 "$g2" 2 &&
	check "  then 5 joins $g2 through 2" busywait 5000 child_is 2 "$g2" 5 2 ||
		return 1
	dsr 5 mcast leave dev dsr0 source "$(node_ip 1)" group "$g2"
}

# What ahctl would not send, the kernel refuses too, each with errno and
# extack; nobody (without CAP_NET_ADMIN) may not join; nothing changes
test_netlink() {
	local before t1
	shared || return 1
	before=$(groups_of 5)
	t1=$(tree_of 5 239.1.1.1)
	check "each bad request refused with errno and reason" nl 5 <<-'EOF' &&
		J, L = C["DSR_CMD_MCAST_JOIN"], C["DSR_CMD_MCAST_LEAVE"]
		def a4(n, v): return attr(A["DSR_A_MC_" + n], socket.inet_aton(v))
		def b1(n, v): return attr(A["DSR_A_MC_" + n], bytes([v]))
		S, G, N = a4("SOURCE", "10.0.0.1"), a4("GROUP", "239.1.1.9"), b1("LAYERS", 2)
		CH, G1 = C["DSR_CMD_MCAST_CHAIN"], a4("GROUP", "239.1.1.1")
		MAP, UNMAP = C["DSR_CMD_MCAST_MAP"], C["DSR_CMD_MCAST_UNMAP"]
		def ch(*b): return attr(A["DSR_A_MC_CHAIN"], bytes(b))
		cases = [
		    ("group 10.1.1.1", J, [S, a4("GROUP", "10.1.1.1"), N], errno.EINVAL, "group must be multicast"),
		    ("group 224.0.0.5", J, [S, a4("GROUP", "224.0.0.5"), N], errno.EINVAL, "group must be multicast"),
		    ("source 127.0.0.1", J, [a4("SOURCE", "127.0.0.1"), G, N], errno.EINVAL, "source must be"),
		    ("layers 0", J, [S, G, b1("LAYERS", 0)], errno.ERANGE, ""),
		    ("layers 129", J, [S, G, b1("LAYERS", 129)], errno.ERANGE, ""),
		    ("tag mode 2", J, [S, G, N, b1("TAG_MODE", 2)], errno.ERANGE, ""),
		    ("rtp element id 0", J, [S, G, N, b1("TAG_MODE", 1), b1("TAG_EXT_ID", 0)], errno.ERANGE, ""),
		    ("tids 9", J, [S, G, N, b1("TAG_MODE", 1), b1("TAG_TIDS", 9)], errno.ERANGE, ""),
		    ("no layers", J, [S, G], errno.EINVAL, ""),
		    ("no group", J, [S, N], errno.EINVAL, ""),
		    ("leave with layers", L, [S, G, N], errno.EINVAL, "leave takes only"),
		    ("leave, not joined", L, [S, G], errno.ENOENT, "no local receivers"),
		    ("chain of no tree", CH, [S, G, ch(1, 0)], errno.ENOENT, "no tree"),
		    ("chain, no group", CH, [S, ch(1, 0)], errno.EINVAL, "needs source and group"),
		    ("chain empty", CH, [S, G1, ch()], errno.EINVAL, "needs an element"),
		    ("chain of 3 bytes", CH, [S, G1, attr(A["DSR_A_MC_CHAIN"], bytes([1, 0, 2]))], errno.EINVAL, "elements of 2 bytes"),
		    ("chain of 9", CH, [S, G1, ch(*([2, 0] * 9))], errno.ERANGE, ""),
		    ("element 9", CH, [S, G1, ch(9, 0)], errno.EINVAL, "unknown element"),
		    ("element 0", CH, [S, G1, ch(0, 0)], errno.EINVAL, "unknown element"),
		    ("dup twice", CH, [S, G1, ch(2, 0, 2, 0)], errno.EINVAL, "twice"),
		    ("tag second", CH, [S, G1, ch(2, 0, 1, 0)], errno.EINVAL, "tag must be the first"),
		    ("dup after fanout", CH, [S, G1, ch(5, 255, 2, 0)], errno.EINVAL, "fanout must be the last"),
		    ("cap 0", CH, [S, G1, ch(3, 0)], errno.EINVAL, "cap takes 1..128"),
		    ("cap 129", CH, [S, G1, ch(3, 129)], errno.EINVAL, "cap takes 1..128"),
		    ("dup with an argument", CH, [S, G1, ch(2, 1)], errno.EINVAL, "no argument"),
		    ("map, no source", MAP, [G], errno.EINVAL, "needs group and source"),
		    ("map, no group", MAP, [S], errno.EINVAL, "needs group and source"),
		    ("map group 10.1.1.1", MAP, [S, a4("GROUP", "10.1.1.1")], errno.EINVAL, "group must be multicast"),
		    ("map source 0.0.0.0", MAP, [a4("SOURCE", "0.0.0.0"), G], errno.EINVAL, "source must be"),
		    ("map source 127.0.0.1", MAP, [a4("SOURCE", "127.0.0.1"), G], errno.EINVAL, "source must be"),
		    ("unmap, no group", UNMAP, [S], errno.EINVAL, "needs the group"),
		    ("unmap, not mapped", UNMAP, [G], errno.ENOENT, "not in the source map"),
		]
		for name, cmd, attrs, want, text in cases:
		    err, _ = g.do(cmd, dev, *attrs)
		    print(f"# {name}: errno {-err}, '{g.extack}'")
		    if err != -want or not g.extack or text not in g.extack:
		        fail(f"{name}: errno {-err}, '{g.extack}'")
		# the source map: 16 groups of 4 sources, then ENOSPC each way
		def mp(cmd, grp, src=None):
		    at = [a4("GROUP", grp)] + ([a4("SOURCE", src)] if src else [])
		    return g.do(cmd, dev, *at)[0]
		errs = [mp(MAP, "239.5.0.%d" % i, "10.0.0.1") for i in range(1, 17)]
		errs += [mp(MAP, "239.5.0.1", "10.0.0.%d" % i) for i in range(2, 5)]
		full_g, full_s = mp(MAP, "239.5.0.17", "10.0.0.1"), mp(MAP, "239.5.0.1", "10.0.0.5")
		dup = mp(MAP, "239.5.0.1", "10.0.0.3")
		print(f"# 16 groups, 4 sources: {set(errs)}; a 17th group: errno {-full_g}; a 5th source: errno {-full_s}; again: errno {-dup}")
		if set(errs) != {0} or full_g != -errno.ENOSPC or full_s != -errno.ENOSPC or dup != -errno.EEXIST:
		    fail("the source map's bounds")
		undo = [mp(UNMAP, "239.5.0.1", "10.0.0.2")] + [mp(UNMAP, "239.5.0.%d" % i) for i in range(1, 17)]
		if set(undo) != {0} or mp(UNMAP, "239.5.0.1", "10.0.0.3") != -errno.ENOENT:
		    fail(f"unmap: {undo}")
	EOF
	check "nobody may not join, chain or map (EPERM)" nl_nobody 5 <<-'EOF' &&
		S = attr(A["DSR_A_MC_SOURCE"], socket.inet_aton("10.0.0.1"))
		G = attr(A["DSR_A_MC_GROUP"], socket.inet_aton("239.1.1.9"))
		err, _ = g.do(C["DSR_CMD_MCAST_JOIN"], dev, S, G,
		              attr(A["DSR_A_MC_LAYERS"], bytes([1])))
		print(f"# nobody: errno {-err}")
		if err != -errno.EPERM:
		    fail(f"nobody's join: errno {-err}")
		err, _ = g.do(C["DSR_CMD_MCAST_CHAIN"], dev, S,
		              attr(A["DSR_A_MC_GROUP"], socket.inet_aton("239.1.1.1")),
		              attr(A["DSR_A_MC_CHAIN"], bytes([4, 0])))
		print(f"# nobody's chain: errno {-err}")
		if err != -errno.EPERM:
		    fail(f"nobody's chain: errno {-err}")
		for c in ("MAP", "UNMAP"):
		    err, _ = g.do(C["DSR_CMD_MCAST_" + c], dev, S,
		                  attr(A["DSR_A_MC_GROUP"], socket.inet_aton("239.1.1.9")))
		    print(f"# nobody's {c.lower()}: errno {-err}")
		    if err != -errno.EPERM:
		        fail(f"nobody's {c.lower()}: errno {-err}")
	EOF
	check "  nor map" test -z "$(mshow 5 | jq '.[] | select(.mc_row == "map")')" &&
	check "5 has no tree of the group the requests named" \
		test "$(tree_of 5 239.1.1.9)" == "[]" &&
	check "  nor any other new one" \
		test -z "$(comm -13 <(echo "$before") <(groups_of 5))" &&
	check "  and the bad chains changed nothing of 239.1.1.1" \
		test "$(tree_of 5 239.1.1.1)" == "$t1"
}

# chain_is NODE GROUP JSON: NODE's chain of GROUP is JSON (mcast show's)
chain_is() {
	mshow "$1" | jq -e --arg g "$2" --argjson c "$3" 'any(.[];
		.mc_row == "group" and .mc_group == $g and .mc_chain == $c)' >/dev/null
}

# mchain NODE GROUP ELEMENT...: NODE's chain of (1, GROUP)
mchain() {
	local n=$1 g=$2
	shift 2
	dsr "$n" mcast chain dev dsr0 source "$(node_ip 1)" group "$g" "$@"
}

# An element chain replaced under a stream: relay 2's chain of the group
# becomes one that caps it at 2 layers (while at least 10 frames pass),
# then the default again (while at least 10 more pass), while receiver 5
# takes all 4 layers.  The stream runs until then, however fast the guest
# is (a stream of fixed length ended before the cap, once, on a loaded
# host).  Layers 0 and 1 arrive whole, once; layers 2 and 3 stop while
# the cap is there (relay 2 counts what it capped) and come back after;
# nothing arrives twice.
test_chain() {
	local g=239.1.1.7 d spid l got2 fwd cap frames fwd3 rc
	shared || return 1
	d=$(mktemp -d)
	RECV_PIDS=()
	recv 5 "$g" "$d/5.json"
	mjoin 5 "$g" 4 tag byte offset 0 group-layers 4 || return 1
	check "2 relays to 5 for 4 layers" busywait 10000 child_is 2 "$g" 5 4 ||
		return 1
	# at most 40 s (more where slower: FPS); SIGTERM ends it sooner (to
	# the sender itself: nsbg, not send's subshell)
	nsbg 1 "$PYTHON" "$STREAM" layered-send "$g" 5000 600 "$FPS" 4 \
		"$(bps "$RATE")" --dev dsr0 --ttl 16 > "$d/sent"
	spid=$!
	# each chain while at least 10 frames pass
	if ! busywait 20000 eval \
		'test "$(layer_stat 2 "$g" 3 mc_fwd_packets)" -ge 10'; then
		for l in 1 2; do
			diag "$l: $(mshow "$l" | jq -c --arg g "$g" '[.[] | select(.mc_group == $g) | del(.mc_source, .mc_group)]')"
		done
		diag "1: $(nsnet 1 ethtool -S dsr0 | grep -E 'mcast_(tx|no_tree|copies|join)' | tr -s ' \n' ' ')"
	fi
	check "the stream crosses 2" eval \
		'test "$(layer_stat 2 "$g" 3 mc_fwd_packets)" -ge 10' &&
	check "2's chain replaced: cap 2" \
		mchain 2 "$g" tag dup cap 2 filter fanout &&
	check "  2 shows it" \
		chain_is 2 "$g" '["tag","dup","cap 2","filter","fanout"]' &&
	check "  2 caps layers 2 and 3" busywait 10000 eval \
		'test "$(layer_stat 2 "$g" 3 mc_capped_packets)" -ge 10' &&
	check "2's chain back to the default" mchain 2 "$g" default &&
	check "  2 shows it" \
		chain_is 2 "$g" '["tag","dup","filter","fanout"]' || {
		kill "$spid"; return 1; }
	fwd3=$(layer_stat 2 "$g" 3 mc_fwd_packets)
	check "  2 forwards layers 2 and 3 again" busywait 10000 eval \
		'test "$(layer_stat 2 "$g" 3 mc_fwd_packets)" -ge $((fwd3 + 10))'
	rc=$?
	kill -TERM "$spid"
	wait "$spid"
	wait "${RECV_PIDS[@]}"
	((rc == 0)) || return 1
	frames=$(jq .frames "$d/sent") || return 1
	diag "5: $(jq -c '{received, duplicates, per_layer: [.per_layer[] |
		[.layer, .packets]]}' "$d/5.json") of $frames frames"
	for l in 0 1; do
		check "5 got all $frames datagrams of layer $l" \
			test "$(got "$d/5.json" "$l")" -eq "$frames" || return 1
	done
	check "5 got no duplicate" test "$(jq .duplicates "$d/5.json")" -eq 0 ||
		return 1
	for l in 2 3; do
		got2=$(got "$d/5.json" "$l")
		fwd=$(layer_stat 2 "$g" "$l" mc_fwd_packets)
		cap=$(layer_stat 2 "$g" "$l" mc_capped_packets)
		diag "layer $l: 5 got $got2; relay 2 forwarded $fwd, capped $cap"
		check "layer $l: capped for a while, forwarded before and after" \
			test "$cap" -gt 0 -a "$got2" -gt 0 -a "$got2" -lt "$frames" &&
		check "  relay 2 forwarded or capped each, once" \
			test $((fwd + cap)) -eq "$frames" -a "$got2" -eq "$fwd" ||
			return 1
	done
	rm -rf "$d"
}

# Mobility: relay 3 leaves the range of 2 and 4 (macfilter) while 4
# receives, and 4 comes in range of 5: 4 joins again along 4-5-2-1 and
# the stream goes on, no datagram delivered twice.
test_mobility() {
	local g=239.1.1.4 d t0 dt spid
	# 15 s: the move must be over before the stream ends (it took 4.3 s
	# in the debug lane, where FPS makes 150 frames last 40 s)
	local frames=225
	[[ ${AH_DEBUG_LANE:-0} == 1 ]] && frames=150
	shared || return 1
	d=$(mktemp -d)
	RECV_PIDS=()
	# (it waits out the move's silence: at most 12 s, more where slower;
	# after the last frame, 3 s)
	recv 4 "$g" "$d/4.json" $((12 * ${AH_TIME_SCALE:-1})) \
		--last-frame $((frames - 1))
	mjoin 4 "$g" 2 tag byte offset 0 group-layers 2 || return 1
	check "3 relays to 4" busywait 10000 child_is 3 "$g" 4 2 &&
	check "2 relays to 3" busywait 5000 child_is 2 "$g" 3 2 || return 1
	FRAMES=$frames send "$g" 2 > "$d/sent" &
	spid=$!
	nap 4
	mf_link 4 5 && mf_cut 3 2 && mf_cut 3 4 || return 1
	now_ms
	t0=$AH_NOW_MS
	check "4 joined again through 5" busywait 15000 child_is 5 "$g" 4 2 &&
	check "  and 5 through 2" busywait 5000 child_is 2 "$g" 5 2 || return 1
	now_ms
	dt=$((AH_NOW_MS - t0))
	wait "$spid"
	wait "${RECV_PIDS[@]}"
	mf_link 3 2 && mf_link 3 4 && mf_cut 4 5 || return 1
	diag "4's tree moved to 5 after $dt ms; 4: $(jq -c '{received,
		duplicates, frames_decodable, last_frame}' "$d/4.json") of $frames frames"
	check "4 got no duplicate" test "$(jq .duplicates "$d/4.json")" -eq 0 &&
	check "the stream's end reached 4 by the new route" \
		test "$(jq .last_frame "$d/4.json")" -eq $((frames - 1))
}

# igmp_member NODE GROUP: NODE's dsr0 is a member of GROUP (a socket joined)
igmp_member() {
	local hex
	# /proc/net/igmp: the group as the kernel prints it, hex in host order
	hex=$(printf '%02X%02X%02X%02X' $(tr '.' ' ' <<< "$2" | awk '{ print $4, $3, $2, $1 }'))
	nsnet "$1" awk -v h="$hex" '$2 == "dsr0" { d = 1; next }
		/^[0-9]/ { d = 0 } d && $1 == h { f = 1 } END { exit !f }' /proc/net/igmp
}

# group_igmp NODE GROUP: whether a local socket's join is on NODE's group
group_igmp() {
	mshow "$1" | jq -e --arg g "$2" 'any(.[]; .mc_row == "group" and
		.mc_group == $g and .mc_local_igmp == true and
		.mc_layers == 128)' >/dev/null
}

# A local socket's source-specific join (IP_ADD_SOURCE_MEMBERSHIP, no
# ahctl) joins the tree through its IGMP report, for all layers; its end
# leaves it.  An any-source join has no tree to join: counted, no tree.
test_igmp() {
	local g=239.1.1.5 d sent pid any rc=0
	shared || return 1
	d=$(mktemp -d)
	nsexec 4 "$PYTHON" "$STREAM" layered-recv "$g" 5000 \
		$((60 * ${AH_TIME_SCALE:-1})) 3 --dev dsr0 \
		--source "$(node_ip 1)" --ssm > "$d/4.json" &
	pid=$!
	if ! busywait 10000 group_igmp 4 "$g"; then
		diag "4: $(nsnet 4 ethtool -S dsr0 | grep -E 'igmp|broadcast|mcast_join' | tr -s ' \n' ' ')"
		diag "4: $(mshow 4 | jq -c '.[] | select(.mc_row == "group")')"
		diag "4: $(nsnet 4 cat /proc/net/igmp | tr -s ' \n\t' ' ')"
	fi
	check "4's socket joined: its group wants all layers" group_igmp 4 "$g" &&
	check "  3 relays to 4 and 2 to 3, for all 128" \
		busywait 10000 eval 'child_is 3 "$g" 4 128 && child_is 2 "$g" 3 128' &&
	check "  4 counted the join" test "$(dsr_stat 4 mcast_igmp_joins)" -ge 1 ||
		return 1
	sent=$(send "$g" 4) || return 1
	wait "$pid"
	got_all 4 "$d/4.json" 4 || return 1
	# the socket closed: its leave ends the join; 3 stops relaying to 4
	check "4's socket left: no socket's join on its group" \
		busywait 5000 eval '! group_igmp 4 "$g"' &&
	check "  3 no longer relays to 4 (within 3 refresh periods)" \
		busywait $((5000 * ${AH_TIME_SCALE:-1})) child_is 3 "$g" 4 0 &&
	check "  4 counted the leave" test "$(dsr_stat 4 mcast_igmp_leaves)" -ge 1 ||
		return 1
	# any-source: the report is counted, and no tree starts (the
	# receiver's start is waited for: the kernel's membership on dsr0)
	any=$(dsr_stat 5 mcast_igmp_any_source)
	nsbg 5 "$PYTHON" "$STREAM" layered-recv "$g" 5000 60 60 --dev dsr0 \
		> /dev/null
	pid=$!
	check "5's socket is a member on dsr0" \
		busywait 20000 igmp_member 5 "$g" &&
	check "  its any-source join counted" \
		busywait 5000 eval 'test "$(dsr_stat 5 mcast_igmp_any_source)" -gt "$any"' &&
	check "  and it joined no tree" eval '! groups_of 5 | grep -qx "$g"' ||
		return 1
	kill "$pid"
	wait "$pid"
	# a socket that leaves while dsr0 is down sends no report: the
	# refresh finds the group gone from dsr0's memberships
	nsbg 6 "$PYTHON" "$STREAM" layered-recv "$g" 5000 \
		$((60 * ${AH_TIME_SCALE:-1})) 60 --dev dsr0 \
		--source "$(node_ip 1)" --ssm > /dev/null
	pid=$!
	check "6's socket joined" busywait 10000 group_igmp 6 "$g" || return 1
	nsexec 6 ip link set dsr0 down || return 1
	kill "$pid"
	wait "$pid"
	check "  it closed while dsr0 was down: the join ends" \
		busywait $((5000 * ${AH_TIME_SCALE:-1})) eval '! group_igmp 6 "$g"' ||
		rc=1
	nsexec 6 ip link set dsr0 up || return 1
	rm -rf "$d"
	return $rc
}

# group_mapped NODE GROUP: NODE's group has a socket's join that came by
# the source map
group_mapped() {
	mshow "$1" | jq -e --arg g "$2" 'any(.[]; .mc_row == "group" and
		.mc_group == $g and .mc_local_igmp == true and
		.mc_mapped == true)' >/dev/null
}

# map_is NODE GROUP SOURCE: NODE's source map maps GROUP to SOURCE
map_is() {
	mshow "$1" | jq -e --arg g "$2" --arg s "$3" 'any(.[];
		.mc_row == "map" and .mc_group == $g and .mc_source == $s)' \
		>/dev/null
}

# The source map: an any-source join (a socket's IP_ADD_MEMBERSHIP, no
# source) joins the trees of the sources the user mapped its group to.
# Node 6 maps 239.1.1.10 to 1, then a socket joins it: its report is the
# map's join, for all layers, and the stream reaches it whole; the
# socket's end ends the join.  A socket already on 239.1.1.11 (counted as
# any-source, no tree) joins 1's tree when the map comes, at once; the
# unmap ends that join at once and relay 2's child within 3 refresh
# periods.
test_map() {
	local g=239.1.1.10 g2=239.1.1.11 s d pid any rc=0
	shared || return 1
	s=$(node_ip 1)
	d=$(mktemp -d)
	dsr 6 mcast map dev dsr0 group "$g" source "$s" || return 1
	check "6 shows the mapping" map_is 6 "$g" "$s" || return 1
	nsbg 6 "$PYTHON" "$STREAM" layered-recv "$g" 5000 \
		$((60 * ${AH_TIME_SCALE:-1})) 3 --dev dsr0 > "$d/6.json"
	pid=$!
	check "6's any-source socket joined 1's tree by the map" \
		busywait 10000 group_mapped 6 "$g" &&
	check "  2 relays to 6, all 128 layers" \
		busywait 10000 child_is 2 "$g" 6 128 &&
	send "$g" 4 >/dev/null || { kill "$pid"; return 1; }
	wait "$pid"
	got_all 6 "$d/6.json" 4 || return 1
	check "the socket's end ended the join (within a refresh period)" \
		busywait $((3000 * ${AH_TIME_SCALE:-1})) eval '! group_mapped 6 "$g"' ||
		return 1
	# a member first, then the map
	any=$(dsr_stat 6 mcast_igmp_any_source)
	nsbg 6 "$PYTHON" "$STREAM" layered-recv "$g2" 5000 60 60 --dev dsr0 \
		> /dev/null
	pid=$!
	check "6's socket is a member of $g2" busywait 20000 igmp_member 6 "$g2" &&
	check "  its any-source join counted, no map: no tree" busywait 5000 eval \
		'test "$(dsr_stat 6 mcast_igmp_any_source)" -gt "$any"' &&
	check "  (no tree)" eval '! groups_of 6 | grep -qx "$g2"' &&
	dsr 6 mcast map dev dsr0 group "$g2" source "$s" &&
	check "the map joined it at once" group_mapped 6 "$g2" &&
	check "  2 relays to 6" busywait 10000 child_is 2 "$g2" 6 128 &&
	dsr 6 mcast unmap dev dsr0 group "$g2" &&
	check "the unmap ended the map's join at once" \
		eval '! group_mapped 6 "$g2"' &&
	check "  2 stops relaying to 6 (within 3 refresh periods)" \
		busywait $((5000 * ${AH_TIME_SCALE:-1})) child_is 2 "$g2" 6 0 &&
	check "  6 shows no mapping of $g2" eval '! map_is 6 "$g2" "$s"' || rc=1
	kill "$pid"
	wait "$pid"
	dsr 6 mcast unmap dev dsr0 group "$g" || rc=1
	rm -rf "$d"
	return $rc
}

# The seed's Fig. 4: node 4's link is cut to 100 kbit/s (relay 3's
# frames to 4's MAC, picked by flower, through a tbf of that rate whose
# queue is a dsrprio of 8 packets a band: DSR's acknowledgments to 4 pass
# the data there, as they would on a radio of that rate; the root is a
# prio whose other band takes the rest) and the source sends 300 frames
# at 15 frames/s of 4 layers, 48, 96, 192 and 384 kbit/s (720 in all;
# the base layer alone fits).  (prio, tbf and flower: the debug kernel
# has them, not htb or u32.)
ADAPT_FRAMES=300
ADAPT_RATES=$(bps 48000),$(bps 96000),$(bps 192000),$(bps 384000)
DSRPRIO_LIMIT=/sys/module/sch_dsrprio/parameters/limit

# adapt_cut NODE PEER / adapt_uncut NODE: NODE's frames to PEER at 100
# kbit/s, and back to the dsrprio root that DSR gave NODE's eth0
adapt_cut() {
	local rc
	modprobe -q sch_prio && modprobe -q sch_tbf &&
		modprobe -q cls_flower || return 1
	nsexec "$1" tc qdisc add dev eth0 root handle 1: prio bands 2 \
		priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 &&
	nsexec "$1" tc qdisc add dev eth0 parent 1:1 handle 10: tbf \
		rate "$(bps 100000)bit" burst 1600 limit 20000 &&
	echo 8 > "$DSRPRIO_LIMIT" || return 1
	nsexec "$1" tc qdisc add dev eth0 parent 10:1 handle 20: dsrprio
	rc=$?
	echo 0 > "$DSRPRIO_LIMIT"
	((rc == 0)) &&
	nsexec "$1" tc filter add dev eth0 parent 1: protocol ip prio 1 \
		flower dst_mac "$(node_mac "$2")" classid 1:1
}
adapt_uncut() {
	nsexec "$1" tc qdisc del dev eth0 root 2>/dev/null
	nsexec "$1" tc qdisc add dev eth0 root dsrprio
}

# adapt_run GROUP OUT [adapt]: 4 receives GROUP's 4 layers through the cut
# link, its level fixed at 4 or (adapt) changed by stream.py's
# algorithm_adapt, which joins again with each new level
adapt_run() {
	local g=$1 out=$2 src pid
	local args=(layered-recv "$g" 5000 $((90 * SLOW))
		$((3 * SLOW)) --dev dsr0)
	src=$(node_ip 1)
	[[ ${3:-} == adapt ]] && args+=(--layers 4 --max-layers 4 --adapt
		"ahctl dsr mcast join dev dsr0 source $src group $g layers {layers} tag byte offset 0 group-layers 4")
	nsexec 4 "$PYTHON" "$STREAM" "${args[@]}" > "$out" &
	pid=$!
	mjoin 4 "$g" 4 tag byte offset 0 group-layers 4 || return 1
	check "3 relays $g to 4 and 2 to 3, 4 layers" \
		busywait 10000 eval 'child_is 3 "$g" 4 4 && child_is 2 "$g" 3 4' ||
		return 1
	local -A b3 b4 a3 a4
	snap_of 3 b3
	snap_of 4 b4
	nsexec 1 "$PYTHON" "$STREAM" layered-send "$g" 5000 "$ADAPT_FRAMES" \
		"$FPS" 4 "$ADAPT_RATES" --dev dsr0 --ttl 16 > "$out.sent" ||
		return 1
	wait "$pid"
	snap_of 3 a3
	snap_of 4 a4
	dsr 4 mcast leave dev dsr0 source "$src" group "$g" || return 1
	diag "${3:-fixed}: $(jq -c '{received, duplicates, frames_seen,
		frames_decodable, levels, adapt}' "$out"); sent $(jq -c '{sent,
		errors}' "$out.sent")"
	diag "  3's counters that moved: $(moved a3 b3)"
	diag "  4's: $(moved a4 b4)"
}

# moved AFTER BEFORE: "name +delta" of each counter that moved between two
# snapshots (arrays named AFTER and BEFORE), the timer's cost left out
moved() {
	local -n m_a=$1 m_b=$2
	local k
	for k in "${!m_a[@]}"; do
		[[ $k == timer_ns || $k == timer_runs ]] && continue
		((${m_a[$k]:-0} != ${m_b[$k]:-0})) &&
			echo -n "$k +$((m_a[$k] - ${m_b[$k]:-0})) "
	done
}

test_adapt() {
	local d fixed adapt lo
	shared || return 1
	d=$(mktemp -d)
	adapt_cut 3 4 || return 1
	# the fixed run is the comparison's baseline: its kernel paths (the
	# cut link's dsrprio, full) are the adaptive run's first seconds, so
	# the debug lane, with no time for both, runs the adaptive one only
	if ! skip_in_debug_lane "the run without adaptation (the baseline)"; then
		adapt_run 239.1.1.8 "$d/fixed.json" ||
			{ adapt_uncut 3; return 1; }
	fi
	adapt_run 239.1.1.9 "$d/adapt.json" adapt || { adapt_uncut 3; return 1; }
	diag "3's cut link: $(nsexec 3 tc -s qdisc show dev eth0 | grep -A1 -E '^qdisc (tbf|dsrprio) (10|20):' |
		tr -s ' \n' ' ')"
	diag "3: $(dsr_stats 3 | grep -E 'link_failures|maint_queue|congestion|rexmt|sendbuf_drop' |
		tr -s ' \n' ' ')"
	adapt_uncut 3
	adapt=$(jq .frames_decodable "$d/adapt.json")
	lo=$(jq '[.adapt[][1]] | min // 4' "$d/adapt.json")
	if [[ -f $d/fixed.json ]]; then
		fixed=$(jq .frames_decodable "$d/fixed.json")
		check "without adaptation few frames decodable ($fixed of $ADAPT_FRAMES)" \
			test "$fixed" -le $((ADAPT_FRAMES / 4)) || return 1
	fi
	check "with it, half or more ($adapt)" \
		test "$adapt" -ge $((ADAPT_FRAMES / 2)) || return 1
	if [[ -f $d/fixed.json ]]; then
		check "  and at least twice as many" test "$adapt" -ge $((2 * fixed)) &&
		check "  no duplicate without adaptation" \
			test "$(jq .duplicates "$d/fixed.json")" -eq 0 || return 1
	fi
	check "  the receiver fell to the base layer" test "$lo" -eq 1 &&
	check "no duplicate with adaptation" \
		test "$(jq .duplicates "$d/adapt.json")" -eq 0 || return 1
	rm -rf "$d"
}

shared_setup setup
ktap_begin 11
run_case "three receivers at 1, 2 and 4 layers through one relay" test_levels
run_case "two relays: upstream asks the most of its subtree, and falls" test_subtree
run_case "two receivers share a radio: one broadcast, <= 1.05 x one stream" test_shared
run_case "bad joins and tags refused and counted" test_bad
run_case "join floods from many neighbours: bounded per neighbour, per group and per node" test_flood
run_case "bad requests refused by the kernel, with a reason" test_netlink
run_case "a local socket's source-specific join joins the tree (IGMP)" test_igmp
run_case "an any-source join joins the trees of its group's mapped sources" test_map
run_case "an element chain replaced under a stream loses and duplicates nothing" test_chain
run_case "the receiver's link cut to 100 kbit/s: adaptation keeps frames decodable (Fig. 4)" test_adapt
run_case "a relay moves away: the receiver joins along the new route" test_mobility
ktap_end
