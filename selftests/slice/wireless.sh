#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmod/slice, move mode with a wireless interface (seed 003's node leases
# its WiFi radio to a slice).  A cfg80211 interface moves with its phy,
# which only nl80211 moves: the kernel keeps the grant waiting for the phy
# (ahctl moves it), and when the grant ends it takes the interface down at
# once and keeps it down until the phy is back in the node (ahctl moves it
# back on revoke; cfg80211 does when the slice's namespace exits).  dsrd
# does what ahctl does for a [slice] lease of its config.
#
#   node 1: wlan0 (a mac80211_hwsim radio, phy P) --grant--> slice s1
#   traffic: the slice sends broadcast pings into an IBSS of its own
source "$(dirname "$0")/../lib.sh"

require_cmd ahctl jq iw

N1=$(ns 1)
PHY=
BSSID=02:00:00:5e:00:01

setup() {
	load_module slice || return 1
	unload_module mac80211_hwsim
	modprobe mac80211_hwsim radios=1 || return 1
	PHY=$(basename "$(readlink -f /sys/class/net/wlan0/phy80211)") &&
		ip netns add "$N1" && quiet_ns "$N1" &&
		iw phy "$PHY" set netns name "$N1"
}

slice() { ip netns add "$AH_PREFIX$1" && quiet_ns "$AH_PREFIX$1"; }

grant() {	# grant SLICE [ahctl options]: node 1's wlan0 to SLICE
	local s=$1
	shift
	ahctl -n "$N1" slice grant dev wlan0 netns "$AH_PREFIX$s" "$@"
}

revoke() { ahctl -n "$N1" slice revoke dev wlan0; }
grants() { ahctl -n "$N1" -j slice show | jq length; }
granted() { ahctl -n "$N1" slice show dev wlan0 >/dev/null 2>&1; }
field() { ahctl -n "$N1" -j slice show dev wlan0 | jq -r ".[0].$1"; }
state_is() { [[ $(field state) == "$1" ]]; }

# where NS: the phy's namespace lists it (NS "-": the initial one)
phy_in() {
	if [[ $1 == - ]]; then
		iw phy "$PHY" info >/dev/null 2>&1
	else
		ip netns exec "$AH_PREFIX$1" iw phy "$PHY" info >/dev/null 2>&1
	fi
}

has_dev() { ip -n "$AH_PREFIX$1" link show dev wlan0 >/dev/null 2>&1; }
is_up() { ip -n "$AH_PREFIX$1" link show dev wlan0 | grep -q '[<,]UP[,>]'; }
tx_packets() {
	ip -n "$AH_PREFIX$1" -j -s link show dev wlan0 |
		jq '.[0].stats64.tx.packets'
}
tx_more_than() { (($(tx_packets "$1") > $2)); }

# up_fails NS TEXT [dev IFACE]: bringing wlan0 (or IFACE) up in NS is
# refused, saying TEXT
up_fails() {
	local out dev=${4:-wlan0}
	out=$(ip -n "$AH_PREFIX$1" link set "$dev" up 2>&1) && return 1
	diag "ip link set $dev up: $out"
	[[ $out == *"$2"* ]]
}

# on_air SLICE: wlan0 up in an IBSS of its own, sending broadcast pings
on_air() {
	local n=$AH_PREFIX$1
	ip -n "$n" addr add 10.9.0.1/24 dev wlan0 &&
		ip netns exec "$n" iw dev wlan0 set type ibss &&
		ip -n "$n" link set wlan0 up &&
		ip netns exec "$n" iw dev wlan0 ibss join ahslice 2412 \
			fixed-freq "$BSSID" || return 1
	nsbg "$1" ping -b -i 0.05 -q -w 60 10.9.0.255 >/dev/null 2>&1
	busywait 5000 tx_more_than "$1" 10
}

# fresh: wlan0 in node 1, up, no grant, no slice, no monitor interface
fresh() {
	shared || return 1
	kill $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	! granted || revoke || return 1
	ip netns exec "$N1" iw dev mon0 del 2>/dev/null
	ip netns exec "$N1" iw dev mon1 del 2>/dev/null
	ip netns del "$AH_PREFIX"s1 2>/dev/null
	ip netns del "$AH_PREFIX"s2 2>/dev/null
	phy_in 1 || iw phy "$PHY" set netns name "$N1" || return 1
	busywait 3000 has_dev 1 && ip -n "$N1" link set wlan0 up
}

test_move_and_back() {
	local out
	fresh && slice s1 || return 1
	check "grant" grant s1 || return 1
	check "wlan0 is in the slice" has_dev s1 &&
	check "  with its phy" phy_in s1 &&
	check "  and no longer in the node" not has_dev 1 &&
	check "shown active, with its phy" \
		test "$(field state)/$(field phy)" == "active/$PHY" &&
	check "  and its slice's namespace" \
		test "$(field slice_netns_ino)" == \
		"$(stat -L -c %i "/run/netns/${AH_PREFIX}s1")" || return 1
	out=$(grant s1 2>&1)
	check "a second grant: EBUSY" test $? -ne 0 &&
	diag "$out" && check "  saying it is granted" grep -q granted <<< "$out" &&
	check "the slice sends on it" on_air s1 || return 1
	check "revoke" revoke &&
	check "wlan0 is back in the node" has_dev 1 &&
	check "  with its phy" phy_in 1 &&
	check "  up, as it was" is_up 1 &&
	check "  and the grant is gone" test "$(grants)" -eq 0
}

test_phy_wait() {
	local out
	fresh && slice s1 || return 1
	ip netns exec "$N1" iw dev wlan0 interface add mon0 type monitor ||
		return 1
	out=$(nsexec 1 "$PYTHON" "$AH_ROOT/selftests/slice/phy_grant.py" \
		"/run/netns/${AH_PREFIX}s1" wlan0)
	diag "$out"
	# (6.1's netlink has no formatted extack: it cannot name mon0)
	check "a phy with a second interface: EBUSY, saying why" \
		grep -q 'errno 16: .*\(mon0\|another interface\)' <<< "$out" &&
	check "  and nothing granted" test "$(grants)" -eq 0 || return 1
	ip netns exec "$N1" iw dev mon0 del || return 1
	ip -n "$N1" link set wlan0 down || return 1
	# granted, but nobody moves the phy
	out=$(nsexec 1 "$PYTHON" "$AH_ROOT/selftests/slice/phy_grant.py" \
		"/run/netns/${AH_PREFIX}s1" wlan0)
	check "a grant without moving the phy" test $? -eq 0 || return 1
	check "  waits for the phy" state_is phy-wait &&
	check "  the interface stays in the node" has_dev 1 &&
	check "  and cannot come up there" up_fails 1 "waits for its phy" &&
	check "it ends when no phy comes" busywait 15000 not granted &&
	check "  and wlan0 comes up again" ip -n "$N1" link set wlan0 up
}

test_lease_expiry() {
	local ev pid tx
	fresh && slice s1 || return 1
	ev=$AH_TMP/events
	ahctl -n "$N1" -j slice monitor > "$ev" 2>&1 &
	pid=$!
	nap 0.5
	# long enough to get on the air first (the debug lane is slower)
	grant s1 lease $((3 * ${AH_TIME_SCALE:-1})) && on_air s1 || return 1
	check "  on the air before the lease ends" state_is active &&
	check "the lease ends: held down in the slice" \
		busywait 8000 state_is returning &&
	check "  wlan0 is down there" not is_up s1 || return 1
	tx=$(tx_packets s1)
	nap 1
	check "  not one frame more" test "$(tx_packets s1)" -eq "$tx" &&
	check "  and it cannot come up" up_fails s1 "stays down" &&
	check "  still in the slice" has_dev s1 &&
	check "  and not granted again" not grant s1 &&
	check "monitor: its expiry" busywait 3000 grep -q expired "$ev" ||
		return 1
	check "revoke brings the phy home" revoke &&
	check "  wlan0 is back" has_dev 1 &&
	check "  up, as it was" is_up 1 &&
	check "  and the grant is gone" test "$(grants)" -eq 0
	kill "$pid" 2>/dev/null
}

test_phy_moved_on() {
	fresh && slice s1 && slice s2 || return 1
	grant s1 && on_air s1 || return 1
	ip netns exec "$AH_PREFIX"s1 iw phy "$PHY" set netns \
		name "$AH_PREFIX"s2 || return 1
	check "the slice moved its phy on: the grant ended" \
		busywait 3000 state_is returning &&
	check "  wlan0 is down where it went" not is_up s2 &&
	check "  and cannot come up there" up_fails s2 "stays down" ||
		return 1
	ip netns exec "$AH_PREFIX"s2 iw phy "$PHY" set netns name "$N1" ||
		return 1
	check "the phy back in the node: the grant is gone" \
		busywait 3000 not granted &&
	check "  wlan0 up again" is_up 1
}

test_phy_kept() {
	fresh && slice s1 || return 1
	grant s1 && on_air s1 || return 1
	ip netns exec "$AH_PREFIX"s1 iw phy "$PHY" interface add mon1 \
		type monitor || return 1
	check "a second interface on the granted phy cannot come up" \
		up_fails s1 "another interface" dev mon1 || return 1
	ip netns exec "$AH_PREFIX"s1 iw dev wlan0 del || return 1
	check "the slice deletes wlan0: the grant keeps its phy" \
		busywait 3000 state_is returning &&
	check "  shown without an interface" \
		test "$(field phy)/$(field slice_ifname)" == "$PHY/null" &&
	check "  the phy stays in the slice" phy_in s1 &&
	check "  and mon1 still cannot come up" \
		up_fails s1 "another interface" dev mon1 || return 1
	check "revoke brings the phy home" revoke &&
	check "  with mon1" ip -n "$N1" link show dev mon1 &&
	check "  and the grant is gone" test "$(grants)" -eq 0 || return 1
	ip netns exec "$N1" iw dev mon1 del &&
		ip netns exec "$N1" iw phy "$PHY" interface add wlan0 \
			type managed
}

test_force() {
	fresh && slice s1 && slice s2 || return 1
	grant s1 || return 1
	ip netns exec "$AH_PREFIX"s1 iw phy "$PHY" set netns \
		name "$AH_PREFIX"s2 || return 1
	check "held where the slice moved it" busywait 3000 state_is returning &&
	check "revoke force ends the grant where it is" \
		ahctl -n "$N1" slice revoke dev wlan0 force &&
	check "  the grant is gone" test "$(grants)" -eq 0 &&
	check "  and the phy stays where it is" phy_in s2 &&
	check "  its wlan0 free to come up" \
		ip -n "$AH_PREFIX"s2 link set wlan0 up || return 1
	ip netns exec "$AH_PREFIX"s2 iw phy "$PHY" set netns name "$N1"
}

# dsrd on node 1 leases wlan0 to s1 ([slice], move mode): it moves the
# phy in and the grant is active; a reload without the lease revokes it
# and brings the phy back; dsrd stops and leaves no dsr0
test_dsrd() {
	local dsrd=$AH_ROOT/userspace/dsrd/dsrd conf=$AH_TMP/dsrd.conf pid rc=0
	fresh && slice s1 || return 1
	[[ -x $dsrd ]] || { diag "no $dsrd: make userspace"; return 1; }
	load_module dsr || return 1
	printf '[dsr]\nAddress = 10.8.0.1/24\n[slice]\nInterface = wlan0\nSlice = %s\nMode = move\n' \
		"${AH_PREFIX}s1" > "$conf"
	# a grandchild: no zombie of ours for kill -0 to see
	("$dsrd" -N "$N1" -f -c "$conf" > /dev/null 2> "$AH_TMP/dsrd.err" &)
	check "dsrd's lease: active in the slice" \
		busywait 15000 state_is active &&
	check "  wlan0 in the slice" has_dev s1 &&
	check "  with its phy" phy_in s1 || rc=1
	pid=$(pgrep -f "dsrd -N $N1" | head -1)
	if ((!rc)); then
		printf '[dsr]\nAddress = 10.8.0.1/24\n' > "$conf"
		kill -HUP "$pid"
		check "reload without the lease: wlan0 back in the node" \
			busywait 10000 has_dev 1 &&
		check "  with its phy" busywait 3000 phy_in 1 &&
		check "  and no grant" busywait 3000 not granted &&
		check "  dsrd keeps running" kill -0 "$pid" || rc=1
	fi
	diag "$(grep -h '^dsrd: slice' "$AH_TMP/dsrd.err" | paste -sd';')"
	[[ -n $pid ]] && kill -TERM "$pid"
	busywait 10000 not kill -0 "$pid" 2>/dev/null &&
	check "stopped: no dsr0 left" \
		not ip -n "$N1" link show dsr0 2>/dev/null || rc=1
	return $rc
}

test_slice_exit() {
	fresh && slice s1 || return 1
	grant s1 && on_air s1 || return 1
	kill $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	ip netns del "$AH_PREFIX"s1 || return 1
	check "the slice exits: cfg80211 gives the phy to the initial namespace" \
		busywait 5000 phy_in - &&
	check "  and the grant is gone" busywait 3000 not granted
}

test_radio_gone() {
	fresh && slice s1 || return 1
	grant s1 && on_air s1 || return 1
	unload_module mac80211_hwsim
	check "the radio goes away: the grant with it" \
		busywait 3000 not granted &&
	check "  and the slice has no wlan0" not has_dev s1
}

AH_TMP=$(mktemp -d)
trap 'ah_cleanup; unload_module mac80211_hwsim; rm -rf "$AH_TMP"' EXIT
shared_setup setup
ktap_begin 9
run_case "a wireless interface moves into its slice with its phy, and back" \
	test_move_and_back
run_case "a grant waits for its phy, held down, and ends if none comes" \
	test_phy_wait
run_case "a lease ends under traffic: down at once, held until the phy is back" \
	test_lease_expiry
run_case "the slice moves the phy on: the grant ends, held where it went" \
	test_phy_moved_on
run_case "the slice deletes the interface: the grant keeps its phy" \
	test_phy_kept
run_case "a forced revoke ends a grant whose phy is elsewhere" test_force
run_case "dsrd leases wlan0 to a slice with its phy, and takes it back on reload" \
	test_dsrd
run_case "the slice's namespace exits under traffic" test_slice_exit
run_case "the radio goes away under traffic" test_radio_gone
ktap_end
