#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmod/slice, move mode (seed 003): a node leases its interface to one
# slice (a network namespace) with exclusive access, and gets it back on
# revoke, at the lease's end, when the slice's namespace exits, and at
# rmmod; the slice cannot pass it on, change its MAC or send from another
# source; a slice that owns its user namespace runs its own dsr0 over the
# interface but cannot touch macfilter; bad requests change nothing.
#
#        node 1 (the mobile node)   node 2      node 3
#        eth0 -> slice s1 / u         eth0        eth0
#             \                        |           /
#              +------------------ ahhub ---------+
source "$(dirname "$0")/../lib.sh"

require_cmd ahctl jq unshare nsenter

N1=$(ns 1)

setup() {
	load_module slice && hub_setup 3
}

# slice NAME: an empty namespace for a slice (lo up, no IPv6 chatter)
slice() {
	ip netns add "$AH_PREFIX$1" && quiet_ns "$AH_PREFIX$1" &&
		ip -n "$AH_PREFIX$1" link set lo up
}

grant() {	# grant IFACE SLICE [ahctl options]: node 1's IFACE to SLICE
	local dev=$1 s=$2
	shift 2
	ahctl -n "$N1" slice grant dev "$dev" netns "$AH_PREFIX$s" "$@"
}

revoke() { ahctl -n "$N1" slice revoke dev "$1"; }

# has_dev NODE IFACE: the interface is in that namespace
has_dev() { ip -n "$AH_PREFIX$1" link show dev "$2" >/dev/null 2>&1; }

# grants: how many grants node 1 shows
grants() { ahctl -n "$N1" -j slice show | jq length; }

# granted IFACE: node 1 shows a grant of IFACE
granted() { ahctl -n "$N1" slice show dev "$1" >/dev/null 2>&1; }

# field IFACE KEY: a key of node 1's grant of IFACE
field() {
	ahctl -n "$N1" -j slice show dev "$1" | jq -r ".[0].$2"
}

# slice_up SLICE: the slice's eth0 carries node 1's address
slice_up() {
	ip -n "$AH_PREFIX$1" -b - <<-EOF
		addr add $(node_ip 1)/24 dev eth0
		link set eth0 up
	EOF
}

# node1_back: eth0 is node 1's again, up, with its address
node1_back() {
	has_dev 1 eth0 && ip -n "$N1" link show eth0 | grep -q '[<,]UP[,>]' &&
		ip -n "$N1" addr replace "$(node_ip 1)/24" dev eth0
}

# fresh: what an earlier case left granted comes back to node 1
fresh() {
	shared || return 1
	! granted eth0 || revoke eth0 || return 1
	node1_back
}

test_move_and_back() {
	fresh && slice s1 || return 1
	check "grant" grant eth0 s1 || return 1
	check "eth0 is in the slice" has_dev s1 eth0 &&
	check "  and no longer in the node" not has_dev 1 eth0 &&
	check "shown with its slice" \
		test "$(field eth0 name)/$(field eth0 mode)" == "${AH_PREFIX}s1/move" &&
	slice_up s1 &&
	check "the slice reaches node 2" \
		nsnet s1 ping -c 3 -i 0.2 -W 2 -q "$(node_ip 2)" >/dev/null &&
	check "its packets are counted (tx $(field eth0 tx_packets))" \
		test "$(field eth0 tx_packets)" -ge 3 &&
	check "  both ways (rx $(field eth0 rx_packets))" \
		test "$(field eth0 rx_packets)" -ge 3 &&
	check "revoke" revoke eth0 &&
	check "eth0 is back in the node, up" node1_back &&
	check "  and gone from the slice" not has_dev s1 eth0 &&
	check "no grant left" test "$(grants)" -eq 0 &&
	check "node 1 reaches node 2 again" dsr_ping_ok 1 2 3
}

test_exclusive() {
	local err rc
	fresh && slice s2 && slice s3 || return 1
	grant eth0 s2 || return 1
	err=$(grant eth0 s3 2>&1)
	rc=$?
	diag "second grant: $err"
	check "a second grant is refused" test $rc -ne 0 &&
	check "  and says the interface is granted" grep -q granted <<< "$err" &&
	check "  eth0 stays in the first slice" has_dev s2 eth0 &&
	check "the slice cannot move it on" \
		not ip -n "$AH_PREFIX"s2 link set eth0 netns "$AH_PREFIX"s3 2>/dev/null &&
	check "  nor change its MAC" \
		not ip -n "$AH_PREFIX"s2 link set eth0 address 02:00:00:00:00:66 2>/dev/null &&
	check "  which is still node 1's" test "$(ip -n "$AH_PREFIX"s2 -j link show eth0 |
		jq -r '.[0].address')" == "$(node_mac 1)" &&
	check "revoke" revoke eth0 && node1_back
}

test_spoof() {
	local out n
	fresh && slice s4 || return 1
	grant eth0 s4 && slice_up s4 || return 1
	out=$AH_TMP/spoof.out
	nsbg 2 "$PYTHON" "$AH_ROOT/selftests/lib/udp.py" recv 9999 10 2 > "$out"
	busywait 5000 udp_listening 2 9999 || return 1
	nsexec s4 "$PYTHON" "$AH_ROOT/selftests/slice/spoof.py" eth0 \
		"$(node_ip 1)" "$(node_mac 2)" "$(node_ip 2)" 9999 || return 1
	wait
	read -r n _ < "$out"
	diag "node 2 received $n of 4; spoofed: $(field eth0 spoofed)"
	check "only the slice's own datagram arrives" test "$n" == 1 &&
	check "the other three were dropped and counted" \
		test "$(field eth0 spoofed)" == 3 &&
	check "revoke" revoke eth0 && node1_back
}

# is_node1_eth0: eth0 is back in node 1 (for busywait)
is_node1_eth0() { has_dev 1 eth0; }

test_lease_expiry() {
	# 2 s, longer where the kernel is slower (the debug lane's leak
	# phase: there slice_up's commands took longer than 2 s, and the
	# lease had ended before it was shown)
	local lease=$((2000 * ${AH_TIME_SCALE:-1}))
	local t0 took pid ev rc=0
	fresh && slice s5 || return 1
	ev=$AH_TMP/events
	ahctl -n "$N1" -j slice monitor > "$ev" 2>&1 &
	pid=$!
	nap 0.5
	now_ms
	t0=$AH_NOW_MS
	grant eth0 s5 lease $((lease / 1000)) && slice_up s5 || return 1
	check "lease shown" test "$(field eth0 lease_left)" -le "$lease" ||
		return 1
	nsbg s5 ping -i 0.05 -q -w 20 "$(node_ip 2)" >/dev/null 2>&1
	check "eth0 comes back at the lease's end" \
		busywait 8000 is_node1_eth0 || return 1
	now_ms
	took=$((AH_NOW_MS - t0))
	diag "back after $took ms (lease $lease ms)"
	check "  not before it" test "$took" -ge $((lease - 100)) &&
	check "  and the grant is gone" test "$(grants)" -eq 0 &&
	check "the slice has no interface left" not has_dev s5 eth0 || rc=1
	busywait 3000 grep -q expired "$ev"
	kill "$pid" $(jobs -p) 2>/dev/null
	diag "events: $(tr '\n' ' ' < "$ev")"
	check "monitor: a grant, then its expiry" \
		grep -q expired "$ev" && grep -q '"grant"\|grant' "$ev" &&
	node1_back && return $rc
}

test_slice_exit() {
	local rc
	fresh && slice s6 || return 1
	grant eth0 s6 && slice_up s6 || return 1
	# the traffic comes from node 2; a namespace exits with its last
	# process (and its name)
	nsbg 2 ping -i 0.05 -q -w 20 "$(node_ip 1)" >/dev/null 2>&1
	nap 0.5
	ip netns del "$AH_PREFIX"s6 || return 1
	check "eth0 comes back when the slice exits" \
		busywait 5000 is_node1_eth0 &&
	check "  and the grant is gone" test "$(grants)" -eq 0 &&
	node1_back && check "node 1 reaches node 2" dsr_ping_ok 1 2 3
	rc=$?
	kill $(jobs -p) 2>/dev/null
	return $rc
}

test_rmmod() {
	local rc
	fresh && slice s7 || return 1
	grant eth0 s7 lease 600 && slice_up s7 || return 1
	nsbg s7 ping -i 0.05 -q -w 20 "$(node_ip 2)" >/dev/null 2>&1
	nap 0.5
	check "rmmod while a slice sends" rmmod slice &&
	check "eth0 comes back" is_node1_eth0 && node1_back &&
	check "node 1 reaches node 2" dsr_ping_ok 1 2 3
	rc=$?
	kill $(jobs -p) 2>/dev/null
	load_module slice || return 1
	return $rc
}

# A slice in a user namespace of its own (as an unprivileged slice is):
# its root configures its own dsr0 over the granted interface (dsr's
# operations take the namespace's admin), and is refused by macfilter and
# by slice itself.  2 and 3 run DSR; macfilter keeps 1 and 3 apart, so
# the slice reaches 3 over 2.
#
#   slice u (node 1's eth0, dsr0 10.0.0.1) --- 2 (dsr0) --- 3 (dsr0)
# as_slice CMD...: CMD as the slice's root (its user namespace's when it
# has one)
as_slice() {
	if [[ -n $UPID ]]; then
		nsenter -t "$UPID" -U -n "$@"
	else
		nsenter --net="/run/netns/${AH_PREFIX}u" "$@"
	fi
}

test_userns_dsr() {
	local un=/run/netns/${AH_PREFIX}u err hops
	fresh || return 1
	UPID=
	if unshare --user --map-root-user true 2>/dev/null; then
		unshare --user --map-root-user --net sleep 600 &
		UPID=$!
		busywait 3000 not test /proc/$UPID/ns/net -ef /proc/self/ns/net ||
			return 1
		# ip netns and ah_cleanup know it by a name
		touch "$un" && mount --bind "/proc/$UPID/ns/net" "$un" || return 1
		check "grant to the slice's process" \
			ahctl -n "$N1" slice grant dev eth0 netns pid "$UPID" ||
			return 1
	else
		# the debug kernel has no CONFIG_USER_NS: the same data path
		# in a slice whose root is the node's
		diag "no user namespaces in this kernel: the slice's root is the node's, its refusals are not checked"
		slice u && grant eth0 u || return 1
	fi
	# the node's admin (not the slice's) puts macfilter on it: 1 and 3
	# do not hear each other
	load_module macfilter &&
	nsenter --net="$un" ahctl macfilter attach dev eth0 &&
	nsenter --net="$un" ahctl macfilter add dev eth0 "$(node_mac 3)" &&
	mf 3 attach dev eth0 && mf 3 add dev eth0 "$(node_mac 1)" || return 1
	dsr_setup 2 3 || return 1
	as_slice ip -b - <<-EOF || return 1
		link set lo up
		link add dsr0 type dsr
		link set eth0 master dsr0
		addr add $(node_ip 1)/24 dev dsr0
		link set eth0 up
		link set dsr0 up
	EOF
	check "the slice's root sets its dsr0's parameters" \
		as_slice ahctl dsr param set dsr0 rto_min_ms \
			$((50 * ${AH_TIME_SCALE:-1})) &&
	check "the slice reaches 3" \
		as_slice ping -c 3 -i 0.3 -W 3 -q "$(node_ip 3)" >/dev/null ||
		as_slice ping -c 3 -i 0.3 -W 3 -q "$(node_ip 3)" >/dev/null ||
		return 1
	hops=$(as_slice ahctl -j dsr route show dsr0 |
		jq -r --arg d "$(node_ip 3)" '[.[] | select(.dst == $d) | .hopcount] | min // 0')
	check "  over 2 (hops: $hops)" test "$hops" == 2 || return 1
	if [[ -n $UPID ]]; then
		err=$(as_slice ahctl macfilter detach dev eth0 2>&1)
		diag "macfilter from the slice: $err"
		check "macfilter refuses the slice's root" \
			grep -qi "not permitted" <<< "$err" &&
		check "  and its list stays" \
			nsenter --net="$un" ahctl macfilter show dev eth0 >/dev/null &&
		err=$(as_slice ahctl slice grant dev dsr0 netns pid "$UPID" 2>&1)
		check "slice refuses the slice's root" \
			grep -qi "not permitted" <<< "$err" || return 1
	fi
	check "revoke" revoke eth0 && node1_back
}

test_dev_gone() {
	fresh && slice s8 || return 1
	ip -n "$N1" link add vx type veth peer name vy || return 1
	grant vx s8 || return 1
	ip -n "$N1" link del vy || return 1
	check "the grant ends with its device" busywait 3000 not granted vx &&
	check "  which the slice no longer has" not has_dev s8 vx
}

test_bad_requests() {
	fresh && slice s9 || return 1
	ip -n "$N1" link add vx type veth peer name vy && grant vx s9 || return 1
	# its KTAP is a subtest of this case: indented, as KTAP nests
	nsexec 1 "$PYTHON" "$AH_ROOT/selftests/slice/nl_errors.py" \
		"/run/netns/${AH_PREFIX}s9" | sed 's/^/    /'
	((PIPESTATUS[0] == 0)) || return 1
	check "revoke" revoke vx
}

AH_TMP=$(mktemp -d)
trap 'ah_cleanup; rm -rf "$AH_TMP"' EXIT
shared_setup setup
ktap_begin 9
run_case "an interface moves into its slice and back" test_move_and_back
run_case "one slice per interface, which cannot pass it on" test_exclusive
run_case "a frame from another source is dropped and counted" test_spoof
run_case "a lease ends under traffic, announced" test_lease_expiry
run_case "the slice's namespace exits under traffic" test_slice_exit
run_case "rmmod under traffic gives the interface back" test_rmmod
run_case "a userns slice runs dsr0; macfilter and slice refuse it" test_userns_dsr
run_case "the device goes away" test_dev_gone
run_case "bad requests are refused and change nothing" test_bad_requests
ktap_end
