#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The multi-interface mobile node of seed 003, emulated: node 1 carries a
# hub radio (veth), a mac80211_hwsim radio, a piosim card (all three
# slaves of one dsr0, each with its own neighbour) and a "cellular" link
# (a veth shaped to about 2 Mbit/s, 60 +- 20 ms) whose far end is an
# operator that hands it one address by DHCP.  The node forwards its ad
# hoc side to the cellular side (a DSR gateway, masquerading behind its
# one address), keeps a WireGuard control channel to a proxy over the
# cellular link that survives a new address, and maps the cellular link
# into a slice while keeping its DHCP lease and its control channel.
#
#   2 --hub-- +--------+ --hwsim-- 3          op (udhcpd, 100.64.0.1)
#             | node 1 | --piosim-- 4            |
#             |  dsr0  | --cell0 (DHCP) -- op -- px (proxy 198.51.100.1,
#             +--------+   2 Mbit/s, 60 ms         WireGuard 172.16.0.2)
source "$(dirname "$0")/../lib.sh"

require_cmd ahctl jq wg busybox nft
skip_in_debug_lane "hwsim, piosim, WireGuard and DHCP take long under KASAN;" \
	"grant.sh and map.sh run the slice module's paths, multiif.sh DSR's" \
	"over several slaves" && exit "$ksft_skip"

N1=$(ns 1)
OP=${AH_PREFIX}op
PX=${AH_PREFIX}px
CELL_NET=100.64.0
PROXY=198.51.100.1

cleanup() {
	[[ -n ${DHCPC:-} ]] && kill "$DHCPC" 2>/dev/null
	ah_cleanup
	unload_module mac80211_hwsim
	rm -rf "$AH_TMP"
}

# udhcpd in the operator's namespace, leasing exactly ADDR
dhcp_server() {
	local addr=$1 pid
	# the running server's pid is in a file: the cases are subshells,
	# and one case's server is the next one's to replace
	if [[ -f $AH_TMP/udhcpd.pid ]]; then
		read -r pid < "$AH_TMP/udhcpd.pid"
		kill "$pid" 2>/dev/null
		busywait 3000 not kill -0 "$pid" 2>/dev/null
	fi
	cat > "$AH_TMP/udhcpd.conf" <<-EOF
		start $addr
		end $addr
		interface opif
		lease_file $AH_TMP/leases
		option subnet 255.255.255.0
		option router $CELL_NET.1
		option lease 60
	EOF
	: > "$AH_TMP/leases"
	ip netns exec "$OP" busybox udhcpd -f "$AH_TMP/udhcpd.conf" >/dev/null 2>&1 &
	echo $! > "$AH_TMP/udhcpd.pid"
}

cell_addr() {
	ip -n "$N1" -4 -o addr show dev cell0 | awk '{print $4}'
}

cell_is() { [[ $(cell_addr) == "$1/24" ]]; }

# mapped_is ADDR: the map grant of cell0 maps ADDR
mapped_is() {
	[[ $(ahctl -n "$N1" -j slice show dev cell0 | jq -r '.[0].addr') == "$1" ]]
}

setup() {
	local k1 k2 phy i
	load_module slice && load_module orinoco_transit && load_module piosim &&
		hub_setup 2 || return 1
	for n in 3 4; do
		ip netns add "$(ns $n)" && quiet_ns "$(ns $n)" &&
			ip -n "$(ns $n)" link set lo up || return 1
	done
	ip netns add "$OP" && ip netns add "$PX" && quiet_ns "$OP" "$PX" || return 1
	# the hwsim radios: node 1 and node 3, an IBSS on 2437 MHz
	unload_module mac80211_hwsim
	modprobe mac80211_hwsim radios=2 || return 1
	for i in 0 1; do
		phy=$(basename "$(readlink -f /sys/class/net/wlan$i/phy80211)")
		iw phy "$phy" set netns name "$(ns $((i == 0 ? 1 : 3)))" || return 1
	done
	nsexec 3 ip link set wlan1 name wlan0 || return 1
	for n in 1 3; do
		nsexec $n iw dev wlan0 set type ibss &&
		nsexec $n ip link set wlan0 up &&
		nsexec $n iw dev wlan0 ibss join adhoc2 2437 fixed-freq \
			02:11:22:33:44:66 || return 1
	done
	# the piosim card: node 1's pio0, its far end node 4's
	echo 10 > /sys/module/piosim/parameters/word_ns
	ip -n "$N1" link add pio0 type piosim &&
		ip -n "$N1" link set pio0p netns "$(ns 4)" &&
		ip -n "$(ns 4)" link set pio0p name pio0 || return 1
	# DSR: node 1 over all three, each neighbour over its own
	load_module sch_dsrprio && load_module dsr || return 1
	ip -n "$N1" -b - <<-EOF || return 1
		address flush dev eth0
		link add dsr0 type dsr
		link set eth0 master dsr0
		link set wlan0 master dsr0
		link set pio0 master dsr0
		link set pio0 up
		addr add $(node_ip 1)/24 dev dsr0
		link set dsr0 up
	EOF
	for n in 2 3 4; do
		local dev=eth0
		((n == 3)) && dev=wlan0
		((n == 4)) && dev=pio0
		ip -n "$(ns $n)" -b - <<-EOF || return 1
			address flush dev $dev
			link add dsr0 type dsr
			link set $dev master dsr0
			link set $dev up
			addr add $(node_ip $n)/24 dev dsr0
			link set dsr0 up
		EOF
		if ((${AH_TIME_SCALE:-1} > 1)); then
			dsr "$n" param set dsr0 rto_min_ms $((50 * AH_TIME_SCALE)) ||
				return 1
		fi
	done
	# the cellular link and the operator, the proxy behind it
	modprobe -q sch_netem
	ip -n "$N1" link add cell0 type veth peer name opif netns "$OP" || return 1
	ip -n "$OP" -b - <<-EOF || return 1
		link set lo up
		addr add $CELL_NET.1/24 dev opif
		link set opif up
		link add pxif type veth peer name eth0 netns $PX
		addr add 198.51.100.254/24 dev pxif
		link set pxif up
	EOF
	ip -n "$PX" -b - <<-EOF || return 1
		link set lo up
		addr add $PROXY/24 dev eth0
		link set eth0 up
		route add default via 198.51.100.254
	EOF
	ip -n "$N1" link set cell0 up &&
	tc -n "$N1" qdisc add dev cell0 root netem delay 60ms 20ms rate 2mbit &&
	tc -n "$OP" qdisc add dev opif root netem delay 60ms 20ms rate 2mbit ||
		return 1
	nsenter --net="/run/netns/$OP" sysctl -qw net.ipv4.ip_forward=1 || return 1
	dhcp_server "$CELL_NET.10"
	UDHCPC_LOG=$AH_TMP/udhcpc.log nsbg 1 busybox udhcpc -f -i cell0 \
		-s "$AH_ROOT/selftests/lib/udhcpc.sh" -t 10 -T 1 >/dev/null 2>&1
	DHCPC=$!
	busywait 20000 cell_is "$CELL_NET.10" || return 1
	# the gateway: the ad hoc side leaves masqueraded behind cell0
	dsr 1 param set dsr0 gateway 1 subnet 10.0.0.0/24 || return 1
	nsenter --net="/run/netns/$N1" sysctl -qw net.ipv4.ip_forward=1 || return 1
	nsexec 1 nft -f - <<-EOF || return 1
		table ip ahnat {
			chain post {
				type nat hook postrouting priority 100;
				oifname "cell0" masquerade
			}
		}
	EOF
	# the control channel: WireGuard from node 1 to the proxy
	modprobe -q wireguard || return 1
	k1=$(wg genkey) && k2=$(wg genkey) || return 1
	ip -n "$N1" link add wg0 type wireguard &&
	ip -n "$PX" link add wg0 type wireguard || return 1
	nsexec 1 wg set wg0 private-key <(echo "$k1") listen-port 51820 \
		peer "$(wg pubkey <<< "$k2")" endpoint "$PROXY:51820" \
		allowed-ips 172.16.0.2/32 persistent-keepalive 1 &&
	nsexec px wg set wg0 private-key <(echo "$k2") listen-port 51820 \
		peer "$(wg pubkey <<< "$k1")" allowed-ips 172.16.0.1/32 || return 1
	ip -n "$N1" addr add 172.16.0.1/30 dev wg0 && ip -n "$N1" link set wg0 up &&
	ip -n "$PX" addr add 172.16.0.2/30 dev wg0 && ip -n "$PX" link set wg0 up
}

test_dhcp() {
	shared || return 1
	diag "udhcpc: $(tr '\n' ' ' < "$AH_TMP/udhcpc.log")"
	check "cell0 holds the operator's one address" cell_is "$CELL_NET.10" &&
	check "  and its default route" \
		ip -n "$N1" route show default | grep -q "via $CELL_NET.1 dev cell0"
}

test_dsr_mix() {
	shared || return 1
	check "2 reaches 3: hub, then hwsim" \
		busywait 20000 dsr_ping_ok 2 3 2 &&
	check "2 reaches 4: hub, then piosim" \
		busywait 20000 dsr_ping_ok 2 4 2 &&
	check "3 reaches 4: hwsim, then piosim" \
		busywait 20000 dsr_ping_ok 3 4 2 &&
	check "2's route to 3 has 2 hops" test "$(dsr_hops 2 3)" -eq 2 &&
	check "1's neighbours are on its three slaves" \
		test "$(dsr 1 -j neigh show dsr0 | jq '[.[].slave] | unique | length')" -eq 3
}

test_gateway() {
	shared || return 1
	nsexec 2 ip route add 198.51.100.0/24 dev dsr0 || return 1
	nsexec 2 ping -c 1 -W 3 -q "$PROXY" >/dev/null 2>&1
	check "2 reaches the proxy through node 1 and the operator" \
		nsexec 2 ping -c 3 -i 0.3 -W 3 -q "$PROXY" >/dev/null &&
	check "  node 1 answered as the gateway" \
		test "$(dsr_stat 1 rrep_gateway_sent)" -ge 1
}

# a new address: the operator restarts with another pool, and the node's
# client releases its lease and asks again, while a TCP transfer runs
# from the proxy to the node through the WireGuard tunnel
test_control_channel() {
	local sent recv rpid spid
	shared || return 1
	check "the tunnel is up" \
		busywait 15000 nsnet 1 ping -c 1 -W 2 -q 172.16.0.2 >/dev/null || return 1
	nsbg 1 timeout 120 "$PYTHON" "$AH_ROOT/selftests/lib/tcpsha.py" recv \
		> "$AH_TMP/cc.recv"
	rpid=$!
	busywait 5000 listening 1 5003 || return 1
	nsbg px timeout 120 "$PYTHON" "$AH_ROOT/selftests/lib/tcpsha.py" send \
		172.16.0.1 1048576 > "$AH_TMP/cc.sent"
	spid=$!
	nap 1.5
	kill -USR2 "$DHCPC"		# release
	dhcp_server "$CELL_NET.20"
	nap 0.5
	kill -USR1 "$DHCPC"		# and ask again
	check "cell0 gets the new address" \
		busywait 20000 cell_is "$CELL_NET.20" || return 1
	# (not a bare wait: the new udhcpd is this shell's child too)
	wait "$spid" "$rpid"
	sent=$(cat "$AH_TMP/cc.sent") recv=$(cat "$AH_TMP/cc.recv")
	diag "udhcpc: $(tr '\n' ' ' < "$AH_TMP/udhcpc.log")"
	diag "sent: $sent; received: $recv"
	check "the TCP session through the tunnel went on, whole" \
		test -n "$sent" -a "$sent" == "$recv" &&
	check "the proxy knows the node's new endpoint" \
		nsexec px wg show wg0 endpoints | grep -q "$CELL_NET.20:51820"
}

# map mode on the cellular link: the slice uses the node's one address;
# the node keeps DHCP (68) and the tunnel (51820)
test_slice_cell() {
	local renews
	shared || return 1
	ip netns add "${AH_PREFIX}s" && ip -n "${AH_PREFIX}s" link set lo up || return 1
	check "the cellular link mapped into the slice" \
		ahctl -n "$N1" slice grant dev cell0 netns "${AH_PREFIX}s" mode map \
			keep 51820 || return 1
	check "the slice reaches the proxy from the node's address" \
		nsnet s ping -c 3 -i 0.3 -W 3 -q "$PROXY" >/dev/null &&
	check "the proxy reaches the slice" \
		nsnet px ping -c 2 -i 0.3 -W 3 -q "$(cell_addr | cut -d/ -f1)" >/dev/null &&
	check "  whose interface got it ($(ip -n "${AH_PREFIX}s" -s -j link show cell0 | jq '.[0].stats64.rx.packets') in)" \
		test "$(ip -n "${AH_PREFIX}s" -s -j link show cell0 | jq '.[0].stats64.rx.packets')" -ge 2 &&
	check "the node's tunnel still works" \
		nsnet 1 ping -c 2 -i 0.3 -W 3 -q 172.16.0.2 >/dev/null || return 1
	renews=$(grep -c '^renew' "$AH_TMP/udhcpc.log")
	kill -USR1 "$DHCPC"
	busywait 10000 test "$(grep -c '^renew' "$AH_TMP/udhcpc.log")" -gt "$renews"
	diag "udhcpc: $(tr '\n' ' ' < "$AH_TMP/udhcpc.log")"
	check "the node still renews its lease" \
		test "$(grep -c '^renew' "$AH_TMP/udhcpc.log")" -gt "$renews" ||
		return 1
	# a new lease with another address: the mapping follows it
	kill -USR2 "$DHCPC"
	dhcp_server "$CELL_NET.30"
	nap 0.5
	kill -USR1 "$DHCPC"
	busywait 20000 cell_is "$CELL_NET.30"
	diag "udhcpc: $(tr '\n' ' ' < "$AH_TMP/udhcpc.log")"
	diag "cell0: $(cell_addr); mapped: $(ahctl -n "$N1" -j slice show dev cell0 | jq -r '.[0].addr')"
	check "cell0 gets another address" cell_is "$CELL_NET.30" &&
	check "the mapping follows it" busywait 3000 mapped_is "$CELL_NET.30" &&
	check "revoke" ahctl -n "$N1" slice revoke dev cell0
}

AH_TMP=$(mktemp -d)
trap cleanup EXIT
shared_setup setup
ktap_begin 5
run_case "DHCP from the operator gives the cellular link one address" test_dhcp
run_case "DSR across a hub, a hwsim radio and a piosim card" test_dsr_mix
run_case "the node is the ad hoc side's gateway to the cellular side" test_gateway
run_case "the control channel survives a new cellular address" test_control_channel
run_case "a slice maps the cellular link; the node keeps DHCP and its tunnel" test_slice_cell
ktap_end
