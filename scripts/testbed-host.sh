#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One host's share of a testbed that spans several hosts (docs/testbed.md):
# the hub medium of every host joined into one broadcast medium by VXLAN
# over the hosts' own network (the underlay), this host's nodes on it with
# DSR and macfilter, and their traces replayed against one start time
# agreed by all hosts.
#
#   host a                                host b
#   n1  n2  n3                            n4  n5  n6
#    +---+---+-- ahhub -- tbvx ~~ UDP 4789 ~~ tbvx -- ahhub --+---+---+
#                 (bridge, ageing 0: every frame to every port, so every
#                  node of every host hears every frame; macfilter decides)
#
#   scripts/testbed-host.sh up INVENTORY HOST      nodes, hub, overlay
#   scripts/testbed-host.sh sync INVENTORY HOST    wait for every host;
#                                       print the start (this host's clock)
#   scripts/testbed-host.sh replay INVENTORY HOST START   this host's traces
#   scripts/testbed-host.sh run INVENTORY HOST     up, sync, replay
#   scripts/testbed-host.sh down                   every namespace removed
#
# INVENTORY: one host a line, "NAME ADDRESS NODES" ('#' comments): ADDRESS
# is the host's IPv4 address on the underlay (the device holding it
# carries the overlay), NODES its nodes as 1-based indices of the
# scenario ("1-3", "4,6-8"); the first host leads the start.  Every host
# runs the same scenario and inventory.
#
# Environment:
#   SCENARIO    what ah-scenario reads (a TOML file, a movement file, an
#               rwp: spec; required by up); RANGE, EDGE (a movement's
#               radio model, default 250 and 200), TIME_SCALE, DURATION
#               (seconds of scenario time, default the scenario's)
#   TESTBED_OUT this host's files (default build/testbed/HOST)
#   TESTBED_PORT  the leader's TCP port for the start (default 47000)
#   TESTBED_DELAY seconds from the agreement to the start (default 5)
#   TESTBED_CLOCK correct (default): each host starts at the leader's start
#               less its measured clock offset; trust: at the leader's
#               start on its own clock (hosts kept in step by NTP or PTP)
#   VXLAN_ID    the overlay's VNI (default 4242)
#   AH_PREFIX   namespace prefix (default tb-): node i is ${AH_PREFIX}i
set -euo pipefail

export AH_PREFIX=${AH_PREFIX:-tb-}
source "$(dirname "$0")/../selftests/lib.sh"
# the namespaces outlive this command (down removes them)
trap - EXIT

usage() {
	sed -n '/^#   scripts\/testbed-host.sh up/,/^#   scripts\/testbed-host.sh down/p' \
		"$0" | sed 's/^#   //' >&2
	exit 2
}
die() { echo "testbed-host: $*" >&2; exit 1; }

CMD=${1:-}
[[ -n $CMD ]] || usage
shift

# inventory_read FILE HOST: HOSTS, ADDRS, NODES_OF (arrays, file order),
# ME (this host's index)
inventory_read() {
	local file=$1 host=$2 ln=0 name addr spec rest idx
	local -A owner=()
	HOSTS=() ADDRS=() NODES_OF=() ME=-1
	[[ -r $file ]] || die "$file: cannot read"
	while IFS= read -r line || [[ -n $line ]]; do
		ln=$((ln + 1))
		line=${line%%#*}
		read -r name addr spec rest <<< "$line" || true
		[[ -z ${name:-} ]] && continue
		[[ -n ${spec:-} && -z ${rest:-} ]] ||
			die "$file:$ln: need NAME ADDRESS NODES"
		[[ $addr =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
			die "$file:$ln: '$addr' is not an IPv4 address"
		local list=()
		for part in ${spec//,/ }; do
			if [[ $part =~ ^([0-9]+)-([0-9]+)$ ]]; then
				((BASH_REMATCH[1] <= BASH_REMATCH[2])) ||
					die "$file:$ln: empty range '$part'"
				list+=($(seq "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"))
			elif [[ $part =~ ^[0-9]+$ ]]; then
				list+=("$part")
			else
				die "$file:$ln: '$part' is not a node or a range"
			fi
		done
		for idx in "${list[@]}"; do
			((idx >= 1 && idx <= 250)) ||
				die "$file:$ln: node $idx (1 to 250)"
			[[ -z ${owner[$idx]:-} ]] ||
				die "$file:$ln: node $idx is already ${owner[$idx]}'s"
			owner[$idx]=$name
		done
		for h in "${HOSTS[@]}"; do
			[[ $h != "$name" ]] || die "$file:$ln: host $name twice"
		done
		[[ $name == "$host" ]] && ME=${#HOSTS[@]}
		HOSTS+=("$name") ADDRS+=("$addr") NODES_OF+=("${list[*]}")
	done < "$file"
	((${#HOSTS[@]})) || die "$file: no host"
	((ME >= 0)) || die "$file: no host '$host'"
}

OUT_DIR() { echo "${TESTBED_OUT:-$AH_ROOT/build/testbed/$1}"; }

# underlay_dev ADDR: the device that holds ADDR on this host
underlay_dev() {
	ip -o -4 addr show | awk -v a="$1" '{ split($4, p, "/") } p[1] == a { print $2; exit }'
}

cmd_up() {
	local inv=$1 host=$2 out dev mtu i names radio=() scale
	inventory_read "$inv" "$host"
	[[ -n ${SCENARIO:-} ]] || die "up: SCENARIO is not set"
	out=$(OUT_DIR "$host")
	dev=$(underlay_dev "${ADDRS[ME]}")
	[[ -n $dev ]] || die "no device of this host has ${ADDRS[ME]} ($host's address)"
	case $SCENARIO in
	rwp:* | *.ns | *.ns2 | *.tcl | *.movements | *.movements.gz)
		radio=(--range "${RANGE:-250}" --edge "${EDGE:-200}") ;;
	esac
	scale=(--time-scale "${TIME_SCALE:-1}")
	[[ -n ${DURATION:-} ]] && scale+=(--duration "$DURATION")
	rm -rf "$out"
	mkdir -p "$out"
	# every host computes every trace: the same input gives the same bytes
	/usr/bin/python3 "$AH_ROOT/tools/ah-scenario" traces "$SCENARIO" \
		"$out/traces" "${radio[@]}" --mac-base 02:00:00:00:00:00 \
		"${scale[@]}" > "$out/scenario.log" ||
		die "ah-scenario: $(cat "$out/scenario.log")"
	mapfile -t names < <(awk '{ print $1 }' "$out/traces/nodes.txt")
	read -r -a MINE <<< "${NODES_OF[ME]}"
	for i in ${NODES_OF[*]}; do
		((i <= ${#names[@]})) ||
			die "$inv: node $i, but the scenario has ${#names[@]} nodes"
	done
	# the overlay costs 50 bytes of the underlay's MTU; the nodes' frames
	# must fit whole (a bridge drops what does not fit its port)
	mtu=$(($(cat "/sys/class/net/$dev/mtu") - 50))
	((mtu >= 1280)) || die "$dev's MTU leaves $mtu bytes to the nodes"
	((mtu > 1500)) && mtu=1500
	((mtu < 1500)) &&
		echo "  the underlay's MTU leaves $mtu bytes: the nodes' MTU is $mtu"
	AH_NODE_MTU=$mtu hub_dsr_nodes "${MINE[@]}"
	# VXLAN: made here (its socket is the underlay's), moved into the hub;
	# no learning, so that every frame goes to every other host, as the
	# bridge's ageing 0 sends it to every local port
	ip link add tbvx type vxlan id "${VXLAN_ID:-4242}" dstport 4789 \
		local "${ADDRS[ME]}" dev "$dev" nolearning
	ip link set tbvx mtu "$mtu" netns "$AH_HUB_NS"
	for i in "${!HOSTS[@]}"; do
		((i == ME)) && continue
		bridge -n "$AH_HUB_NS" fdb append 00:00:00:00:00:00 dev tbvx \
			dst "${ADDRS[i]}"
	done
	ip -n "$AH_HUB_NS" link set tbvx master ahhub up
	for i in "${MINE[@]}"; do
		echo "$(ns "$i") eth0 $out/traces/${names[$((i - 1))]}.trace ${names[$((i - 1))]}"
	done > "$out/replay.list"
	echo "  $host: nodes ${MINE[*]} up; overlay tbvx over $dev to ${#HOSTS[@]} hosts"
}

cmd_sync() {
	local inv=$1 host=$2 out res start
	inventory_read "$inv" "$host"
	out=$(OUT_DIR "$host")
	mkdir -p "$out"
	if ((ME == 0)); then
		res=$(/usr/bin/python3 "$AH_ROOT/selftests/lib/tbsync.py" lead \
			"${ADDRS[0]}" "${TESTBED_PORT:-47000}" \
			$((${#HOSTS[@]} - 1)) "${TESTBED_DELAY:-5}") || return 1
	else
		res=$(/usr/bin/python3 "$AH_ROOT/selftests/lib/tbsync.py" follow \
			"${ADDRS[0]}" "${TESTBED_PORT:-47000}" "$host") || return 1
		if [[ ${TESTBED_CLOCK:-correct} == trust ]]; then
			res=$(jq -c '.start = .start_leader' <<< "$res")
		fi
	fi
	echo "$res" > "$out/sync.json"
	jq -r .start <<< "$res"
}

cmd_replay() {
	local inv=$1 host=$2 start=$3 out
	inventory_read "$inv" "$host"
	out=$(OUT_DIR "$host")
	[[ -r $out/replay.list ]] || die "no $out/replay.list: run up first"
	ahctl -j macfilter replay-all "$out/replay.list" start "$start" \
		> "$out/replay.json"
	jq -r '"  replayed \(.steps) steps: lateness mean \(.late_mean_us / 1000) ms, max \(.late_max_us / 1000) ms"' \
		"$out/replay.json"
}

case $CMD in
up)	(($# == 2)) || usage; cmd_up "$@" ;;
sync)	(($# == 2)) || usage; cmd_sync "$@" ;;
replay)	(($# == 3)) || usage; cmd_replay "$@" ;;
run)	(($# == 2)) || usage
	cmd_up "$@"
	start=$(cmd_sync "$@")
	echo "  start at $start ($(date -d "@${start%.*}" +%T))"
	cmd_replay "$@" "$start" ;;
down)	(($# == 0)) || usage; ah_cleanup ;;
*)	usage ;;
esac
