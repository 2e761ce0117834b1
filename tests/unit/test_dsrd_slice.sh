#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dsrd's [slice] leases against a stand-in for the slice module
# (fake_slice.so, preloaded into dsrd_slice_run, which is dsrd without
# its main(): see dsrd_slice_run.c), in KTAP: the requests its start and
# its reloads make (GRANT by the namespace's file with its name as the
# label, mode and lease; REVOKE of what it granted and no longer leases;
# nothing for an interface it does not lease, or a grant it did not
# make), a lease whose grant ended granted again on the next reload, a
# missing namespace logged and the other leases still granted; and
# "dsrd --check" on [slice] sections.
#
# A map lease (Mode = map, Keep): the GRANT with its KEEP nest, then the
# slice's side configured for real over rtnetlink, in a network namespace
# of the test's own (unshare -n; the slice's namespace is ours there),
# on a veth of the index the stand-in gives the slice's interface, read
# back with ip; the grant revoked when that fails; a changed Mode or Keep
# granted again; the slice's side re-addressed when the kernel announces
# a new address.  A root that cannot unshare skips what would configure
# the host.  After a grant in move mode dsrd reads it back (a GET).
#
# A wireless lease (the stand-in's wlp1s0: wiphy 4, phy4): after the
# GRANT, the GET says it waits for its phy, which dsrd finds in the node
# and moves into the slice (nl80211), then sees it ACTIVE; if nl80211
# refuses, the grant is revoked and the failure counted.  When the kernel
# announces that one of dsrd's wireless grants ended and is held until
# its phy is back (RETURNING), when a reload revokes one, or when a
# reload finds one of the config's held, dsrd moves the phy back from
# inside the namespace it is in (the slice's, or another one the slice
# moved it to), found by its interface or, if the slice deleted that, by
# its name, and waits for the grant to go.  These need network namespaces
# of the test's own for the slice and the other one (skipped without).
#
# The stand-in's kernel always holds three grants: wlan0 to slice "red",
# wlan1 to a slice without a label, and wlan2 to slice "blue" in map mode
# (10.1.0.5 on the slice's interface of index 99998, keeping 22 and
# 51820); /run/netns/$FAKE_NETNS opens our
# own namespace, any other name does not exist.  Needs the built dsrd
# (userspace/dsrd/dsrd, for --check; or $DSRD) and dsrd_slice_run and
# fake_slice.so (make -C tests/unit): skipped without them.  Exits 1 if
# any test fails.
set -u

# shellcheck source=fake_run.sh
source "$(dirname "$0")/fake_run.sh"

dsrd_start fake_slice.so FAKE_SLICE=absent dsrd_slice_run

# conf NAME [IFACE SLICE [LEASE]]...: $TMP/NAME, a [dsr] and a [slice]
# per triple (LEASE "-": none)
conf() {
	local f=$TMP/$1
	shift
	printf '[dsr]\nAddress = 10.0.0.1/24\n' > "$f"
	while (($# >= 3)); do
		printf '[slice]\nInterface = %s\nSlice = %s\n' "$1" "$2" >> "$f"
		[[ $3 == - ]] || printf 'Lease = %s\n' "$3" >> "$f"
		shift 3
	done
}

# run ARGS...: dsrd_slice_run under the stand-in (see capture; $req has
# "-- CONF" before each CONF's requests)
run() {
	LD_PRELOAD=$FAKE FAKE_SLICE_LOG=$LOG FAKE_NETNS=red capture "$RUN" "$@"
}

# ---- start, then reloads ----------------------------------------------------
# start: wlan0 to red is granted already (taken as dsrd's), eth1 is not
# (granted), blue does not exist (eth2 not granted), wlan1 is someone
# else's (left alone); 1: wlan0's Lease changes, eth1's grant has ended
# (the stand-in does not list it); 2: wlan0 taken out; 3: eth1 taken
# out, its grant ended already; 4: nothing leased, nothing granted
conf start wlan0 red 100 eth1 red 60 eth2 blue - wlan1 red -
conf 1 wlan0 red 200 eth1 red 60
conf 2 eth1 red 60
conf 3
run start 1 2 3 3
same "start, then reloads: what dsrd holds after each" "$stdout
exit $rc" \
"start: failed 2; granted by dsrd: wlan0=red/100 eth1=red/60
1: failed 0; granted by dsrd: wlan0=red/200 eth1=red/60
2: failed 0; granted by dsrd: eth1=red/60
3: failed 0; granted by dsrd:
3: failed 0; granted by dsrd:
exit 0"
same "start, then reloads: the requests" "$req" \
"-- start
get flags=dump v1
grant flags=0 v1 ifname=eth1 netns_fd=net name=red mode=0 lease=60
get flags=0 v1 ifname=eth1
-- 1
get flags=dump v1
grant flags=0 v1 ifname=eth1 netns_fd=net name=red mode=0 lease=60
get flags=0 v1 ifname=eth1
-- 2
get flags=dump v1
revoke flags=0 v1 ifname=wlan0
get flags=dump v1
grant flags=0 v1 ifname=eth1 netns_fd=net name=red mode=0 lease=60
get flags=0 v1 ifname=eth1
-- 3
get flags=dump v1
-- 3"
has "start: a grant as the config says is dsrd's; the others are logged" \
	"$stderr" \
	"dsrd: slice wlan0: granted to slice red already; dsrd's lease from now on" \
	"dsrd: slice eth1: granted to slice red for 60 s" \
	"dsrd: slice eth2: network namespace \"blue\" does not exist (no /run/netns/blue: ip netns add blue); not granted" \
	"dsrd: slice wlan1: granted to slice (no name), not by dsrd; not granted to slice red (ahctl slice revoke dev wlan1)"
has "reload: a new Lease waits for the next grant; an ended grant is granted again" \
	"$stderr" \
	"dsrd: slice wlan0: Lease 100 s -> 200 s takes effect when the grant to slice red ends" \
	"dsrd: slice eth1: the grant to slice red has ended; granting it again"
has "reload: a lease taken out is revoked, or forgotten if it ended" \
	"$stderr" "dsrd: slice wlan0: revoked from slice red" \
	"dsrd: slice eth1: the grant to slice red has ended already"
if [[ $req == *wlan1* ]]; then
	result 0 "a grant dsrd did not make is never revoked" "$req"
else
	result 1 "a grant dsrd did not make is never revoked"
fi

# ---- no leases: no requests -------------------------------------------------
run 3 3
same "no [slice]: the module is not asked anything" "$req" "-- 3
-- 3"

# ---- a lease moves to another slice -----------------------------------------
conf red wlan0 red -
conf blue wlan0 blue -
conf green wlan0 green 5
run red blue FAKE_NETNS=green green
same "another Slice: revoked and granted there, unless it does not exist" \
	"$stdout
$req" \
"red: failed 0; granted by dsrd: wlan0=red
blue: failed 1; granted by dsrd: wlan0=red
green: failed 0; granted by dsrd: wlan0=green/5
-- red
get flags=dump v1
-- blue
get flags=dump v1
-- green
get flags=dump v1
revoke flags=0 v1 ifname=wlan0
grant flags=0 v1 ifname=wlan0 netns_fd=net name=green mode=0 lease=5
get flags=0 v1 ifname=wlan0"
has "another Slice that does not exist: the grant stays" "$stderr" \
	"dsrd: slice wlan0: network namespace \"blue\" does not exist" \
	"dsrd: slice wlan0: stays granted to slice red"

# ---- the stats line ---------------------------------------------------------
run "stats:$TMP/stats.jsonl"
same "stats: every grant of the node, by interface, as ahctl slice show -j" \
	"$(sed 's/^{"time":"[^"]*",//' "$TMP/stats.jsonl")" \
'"slice":{"wlan1":{"ifindex":5,"name":"","mode":"move","age":42,"slice_ifindex":2,"slice_ifname":"wlan1","rx_packets":0,"rx_bytes":0,"tx_packets":1,"tx_bytes":90,"spoofed":0},"wlan0":{"ifindex":3,"name":"red","mode":"move","lease_left":3594988,"age":5012,"slice_ifindex":2,"slice_ifname":"wlan0","rx_packets":10,"rx_bytes":1200,"tx_packets":8,"tx_bytes":900,"spoofed":1},"wlan2":{"ifindex":7,"name":"blue","mode":"map","age":700,"slice_ifindex":99998,"slice_ifname":"wlan2","rx_packets":4,"rx_bytes":336,"tx_packets":3,"tx_bytes":252,"spoofed":2,"addr":"10.1.0.5","keep":[22,51820]}}}'

# ---- map leases: the slice's side -------------------------------------------
# where it is configured: a namespace of our own, or (not root) nowhere
if unshare -n true 2>/dev/null; then
	NETNS=unshare
elif (($(id -u) != 0)); then
	NETNS=unprivileged
else
	NETNS=
fi
export RUN FAKE LOG TMP

# mapconf NAME IFACE SLICE KEEP [LEASE]: $TMP/NAME, a [dsr] and a map
# [slice] (KEEP "-": none)
mapconf() {
	local f=$TMP/$1
	printf '[dsr]\nAddress = 10.0.0.1/24\n[slice]\nInterface = %s\nSlice = %s\nMode = map\n' \
		"$2" "$3" > "$f"
	[[ $4 == - ]] || printf 'Keep = %s\n' "$4" >> "$f"
	[[ -z ${5:-} ]] || printf 'Lease = %s\n' "$5" >> "$f"
}

# nsrun SETUP ARGS...: as run, in a network namespace of its own (unshare
# -n) after the shell commands SETUP; $ip: what the namespace has then,
# "ADDRESSES OF slmap0; up|down; DEFAULT ROUTES" (without "linkdown":
# the veth has no carrier).  Not root: here, without SETUP.
# shellcheck disable=SC2016
NSRUN='
	eval "$1" || exit 1
	shift
	cd "$TMP" && LD_PRELOAD=$FAKE FAKE_SLICE_LOG=$LOG FAKE_NETNS=red \
		"$RUN" "$@" > "$TMP/out" 2> "$TMP/err"
	echo $? > "$TMP/rc"
	ip link show dev slmap0 > /dev/null 2>&1 || exit 0
	{
		ip -4 -o addr show dev slmap0 | awk "{ print \$4 }" | paste -sd" "
		ip -o link show dev slmap0 | grep -q "[<,]UP[,>]" && echo up || echo down
		ip route show default | sed "s/ linkdown//; s/ *$//" | paste -sd","
	} | paste -sd";" | sed "s/;/; /g" > "$TMP/ip"
'
nsrun() {
	local setup=$1
	shift
	: > "$LOG"
	rm -f "$TMP/ip"
	if [[ $NETNS == unshare ]]; then
		unshare -n bash -c "$NSRUN" nsrun "$setup" "$@"
	else
		bash -c "$NSRUN" nsrun : "$@"
	fi
	rc=$(< "$TMP/rc")
	stdout=$(< "$TMP/out")
	stderr=$(< "$TMP/err")
	req=$(< "$LOG")
	ip=$(cat "$TMP/ip" 2>/dev/null)
}

# ns_skip DESC...: true (and each DESC skipped) where NEED (unshare, or
# any: also unprivileged) cannot be had
ns_skip() {
	local need=$1 d
	shift
	[[ -n $NETNS && ( $need == any || $NETNS == unshare ) ]] && return 1
	for d in "$@"; do
		result 1 "$d # SKIP no network namespace of our own (unshare -n as root)"
	done
	return 0
}

# the slice's interfaces as the stand-in names them: 99997 for the grants
# made, 99998 for its map grant of wlan2 (10.1.0.5, configured)
SLMAP='ip link add slmap0 index 99997 type veth peer name slpeer0'
SLMAP2='ip link add slmap0 index 99998 type veth peer name slpeer0 &&
	ip addr add 10.1.0.5/32 dev slmap0 && ip link set slmap0 up &&
	ip route add default dev slmap0 scope link'

mapconf map slmap0 red 22,51820 60
D1="map lease: GRANT with KEEP, a GET, the slice's side configured"
D2="map lease: what dsrd logs of it"
if ! ns_skip unshare "$D1" "$D2"; then
	nsrun "$SLMAP" map
	same "$D1" "$stdout
$req
$ip" "map: failed 0; granted by dsrd: slmap0=red/60+map:22,51820 192.0.2.7
-- map
get flags=dump v1
grant flags=0 v1 ifname=slmap0 netns_fd=net name=red mode=1 lease=60 keep=22,51820
get flags=0 v1 ifname=slmap0
192.0.2.7/32; up; default dev slmap0 scope link"
	has "$D2" "$stderr" \
		"dsrd: slice slmap0: granted to slice red in map mode for 60 s" \
		"dsrd: slice slmap0: slice red has 192.0.2.7/32 on slmap0, up, and its default route"
fi

D1="map lease: the slice's side cannot be configured: the grant revoked"
D2="map lease not configured: what dsrd logs of it"
if ! ns_skip any "$D1" "$D2"; then
	# no interface 99997 here, or no right to configure it
	nsrun : map
	same "$D1" "$stdout
$req" "map: failed 1; granted by dsrd:
-- map
get flags=dump v1
grant flags=0 v1 ifname=slmap0 netns_fd=net name=red mode=1 lease=60 keep=22,51820
get flags=0 v1 ifname=slmap0
revoke flags=0 v1 ifname=slmap0"
	has "$D2" "$stderr" \
		"dsrd: slice slmap0: the slice's side of the map grant could not be configured; revoking the grant" \
		"dsrd: slice slmap0: revoked from slice red"
fi

# wlan0 (red, move) to map; wlan2 (blue, map, keeping 22 and 51820) to
# keep 22 only, then as it is (taken as dsrd's, its slice's side as well).
# Each in a namespace of its own: the module would remove the slice's
# interface with the grant, the stand-in's is the same veth every time.
mapconf mode wlan0 red -
mapconf keep wlan2 blue 22
mapconf same wlan2 blue 51820,22
D1="a changed Mode or Keep: revoked and granted again, the slice's side configured"
D2="a changed Mode or Keep: what dsrd logs of it"
D3="a map grant as the config says: dsrd's, nothing sent"
if ! ns_skip unshare "$D1" "$D2" "$D3"; then
	nsrun "$SLMAP" mode
	all=$stdout$'\n'$req$'\n'$ip
	log=$stderr
	nsrun "$SLMAP" FAKE_NETNS=blue keep
	same "$D1" "$all
$stdout
$req
$ip" "mode: failed 0; granted by dsrd: wlan0=red+map 192.0.2.7
-- mode
get flags=dump v1
revoke flags=0 v1 ifname=wlan0
grant flags=0 v1 ifname=wlan0 netns_fd=net name=red mode=1
get flags=0 v1 ifname=wlan0
192.0.2.7/32; up; default dev slmap0 scope link
keep: failed 0; granted by dsrd: wlan2=blue+map:22 192.0.2.7
-- keep
get flags=dump v1
revoke flags=0 v1 ifname=wlan2
grant flags=0 v1 ifname=wlan2 netns_fd=net name=blue mode=1 keep=22
get flags=0 v1 ifname=wlan2
192.0.2.7/32; up; default dev slmap0 scope link"
	has "$D2" "$log$stderr" \
		"dsrd: slice wlan0: granted to slice red already; dsrd's lease from now on" \
		"dsrd: slice wlan0: Mode move -> map: granting it to slice red again" \
		"dsrd: slice wlan2: granted to slice blue already; dsrd's lease from now on" \
		"dsrd: slice wlan2: Keep changed: granting it to slice blue again"
	nsrun : FAKE_NETNS=blue same
	same "$D3" "$stdout
$req" "same: failed 0; granted by dsrd: wlan2=blue+map:22,51820 10.1.0.5
-- same
get flags=dump v1"
fi

# the kernel announces wlan2's new address, 10.1.0.9
D1="a new address announced: the slice's side of dsrd's map grant follows"
D2="a new address announced: logged as an event, then what dsrd did"
if ! ns_skip unshare "$D1" "$D2"; then
	nsrun "$SLMAP2" FAKE_NETNS=blue same events
	same "$D1" "$stdout
$req
$ip" "same: failed 0; granted by dsrd: wlan2=blue+map:22,51820 10.1.0.5
events: granted by dsrd: wlan2=blue+map:22,51820 10.1.0.9
-- same
get flags=dump v1
10.1.0.9/32; up; default dev slmap0 scope link"
	has "$D2" "$stderr" \
		'{"time":"' \
		'"family":"slice","cmd":"grant","event":"grant","ifindex":7,"ifname":"wlan2","name":"blue","mode":"map",' \
		'"addr":"10.1.0.9","keep":[22,51820]}' \
		"dsrd: slice wlan2: the mapped address is 10.1.0.9 now, on wlan2 in slice blue"
fi

# ---- wireless leases: the phy ----------------------------------------------
slice_netns_start
other_netns_start
conf wl wlp1s0 red -
conf none
GET_W1="get flags=0 v1 ifname=wlp1s0"
WGRANT="grant flags=0 v1 ifname=wlp1s0 netns_fd=net name=red mode=0
$GET_W1
get_interface flags=0 v0 ifindex=11 sk=node
set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=slice sk=node
$GET_W1"
WBACK="$GET_W1
get_interface flags=0 v0 ifindex=21 sk=slice
set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=node sk=slice
$GET_W1
$GET_W1"
# wrun ARGS...: run, the slice being $SLICE_NS, the other namespace
# $OTHER_NS
wrun() { FAKE_NETNS_PATH=$SLICE_NS FAKE_PHY_NETNS_PATH=$OTHER_NS run "$@"; }
# wskip DESC...: true (and each DESC skipped) without $SLICE_NS and
# $OTHER_NS
wskip() {
	local d
	[[ -z $SLICE_PID || -z $OTHER_PID ]] || return 1
	for d in "$@"; do
		result 1 "$d # SKIP no network namespace of our own (unshare -n as root)"
	done
}

D1="wireless lease: GRANT, GET, its phy moved into the slice from the node, ACTIVE"
D2="wireless lease: what dsrd logs of it"
if ! wskip "$D1" "$D2"; then
	wrun wl
	same "$D1" "$stdout
$req" "wl: failed 0; granted by dsrd: wlp1s0=red+phy4
-- wl
get flags=dump v1
$WGRANT"
	has "$D2" "$stderr" \
		"dsrd: slice wlp1s0: granted to slice red until revoked" \
		"dsrd: slice wlp1s0: phy4 moved into slice red; the grant is active"
fi

D1="wireless lease ended by the kernel (RETURNING announced): its phy back; granted again on the next reload"
D2="wireless lease ended: the event logged with its state and phy, then what dsrd did"
if ! wskip "$D1" "$D2"; then
	wrun wl events wl
	same "$D1" "$stdout
$req" "wl: failed 0; granted by dsrd: wlp1s0=red+phy4
events: granted by dsrd: wlp1s0=red+phy4
wl: failed 0; granted by dsrd: wlp1s0=red+phy4
-- wl
get flags=dump v1
$WGRANT
$WBACK
-- wl
get flags=dump v1
$WGRANT"
	has "$D2" "$stderr" \
		'"cmd":"revoke","event":"revoke","ifindex":11,"ifname":"wlp1s0","name":"red",' \
		'"reason":"expired","spoofed":0,"state":"returning","phy":"phy4","slice_netns_ino":'"$SLICE_INO,"'"phy_netns_ino":'"$SLICE_INO}" \
		"dsrd: slice wlp1s0: phy4 is back from slice red" \
		"dsrd: slice wlp1s0: the grant to slice red has ended; granting it again"
fi

D1="wireless lease taken out: revoked, its phy back from the slice"
if ! wskip "$D1"; then
	wrun wl none
	same "$D1" "$stdout
$req" "wl: failed 0; granted by dsrd: wlp1s0=red+phy4
none: failed 0; granted by dsrd:
-- wl
get flags=dump v1
$WGRANT
-- none
get flags=dump v1
revoke flags=0 v1 ifname=wlp1s0
$WBACK"
fi

D1="a held grant of the config's found: its phy back, then granted again"
if ! wskip "$D1"; then
	FAKE_SLICE_RADIOS=wlp1s0=returning wrun wl
	same "$D1" "$stdout
$req" "wl: failed 0; granted by dsrd: wlp1s0=red+phy4
-- wl
get flags=dump v1
$WBACK
$WGRANT"
fi

D1="a held grant of the config's, its phy moved on by the slice: back from where it is, then granted again"
if ! wskip "$D1"; then
	FAKE_SLICE_RADIOS=wlp1s0=moved wrun wl
	same "$D1" "$stdout
$req" "wl: failed 0; granted by dsrd: wlp1s0=red+phy4
-- wl
get flags=dump v1
$GET_W1
get_interface flags=0 v0 ifindex=21 sk=other
set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=node sk=other
$GET_W1
$GET_W1
$WGRANT"
fi

D1="a held grant of the config's without its interface: its phy back by its name; the grant again refused (no interface)"
D2="a held grant without its interface: what dsrd logs of it"
if ! wskip "$D1" "$D2"; then
	FAKE_SLICE_RADIOS=wlp1s0=deleted wrun wl
	same "$D1" "$stdout
$req" "wl: failed 1; granted by dsrd:
-- wl
get flags=dump v1
$GET_W1
get_wiphy flags=dump v0 split_wiphy_dump sk=slice
set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=node sk=slice
$GET_W1
$GET_W1
grant flags=0 v1 ifname=wlp1s0 netns_fd=net name=red mode=0"
	has "$D2" "$stderr" \
		"dsrd: slice wlp1s0: phy4 is back from slice red" \
		"dsrd: No such device: no device with this name" \
		"dsrd: slice wlp1s0: cannot grant it to slice red"
fi

D1="a held grant without its interface, taken out of the config: revoked, its phy back by its name"
if ! wskip "$D1"; then
	FAKE_SLICE_RADIOS=wlp1s0=active wrun wl FAKE_SLICE_RADIOS=wlp1s0=deleted none
	same "$D1" "$stdout
$req" "wl: failed 0; granted by dsrd: wlp1s0=red+phy4
none: failed 0; granted by dsrd:
-- wl
get flags=dump v1
-- none
get flags=dump v1
revoke flags=0 v1 ifname=wlp1s0
$GET_W1
get_wiphy flags=dump v0 split_wiphy_dump sk=slice
set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=node sk=slice
$GET_W1
$GET_W1"
fi

D1="the slice deletes the interface of a wireless lease (RETURNING, dev-gone, no interface announced): its phy back by its name"
D2="the slice deletes the interface: the event logged without slice_ifindex, then what dsrd did"
if ! wskip "$D1" "$D2"; then
	FAKE_SLICE_RADIOS=wlp1s0=dev-gone wrun wl events
	same "$D1" "$stdout
$req" "wl: failed 0; granted by dsrd: wlp1s0=red+phy4
events: granted by dsrd: wlp1s0=red+phy4
-- wl
get flags=dump v1
$GET_W1
get_wiphy flags=dump v0 split_wiphy_dump sk=slice
set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=node sk=slice
$GET_W1
$GET_W1"
	has "$D2" "$stderr" \
		'"cmd":"revoke","event":"revoke","ifindex":11,"ifname":"wlp1s0","name":"red","mode":"move","age":0,"rx_packets":0,' \
		'"reason":"dev-gone","spoofed":0,"state":"returning","phy":"phy4","slice_netns_ino":'"$SLICE_INO,"'"phy_netns_ino":'"$SLICE_INO}" \
		"dsrd: slice wlp1s0: phy4 is back from slice red"
fi

D1="a held grant of another slice's: left alone"
if ! wskip "$D1"; then
	FAKE_SLICE_RADIOS=wlp1s0=returning:blue wrun wl
	same "$D1" "$stdout
$req" "wl: failed 1; granted by dsrd:
-- wl
get flags=dump v1"
fi

D1="nl80211 refuses the phy's move: the grant revoked, counted; the next reload grants it"
D2="nl80211 refuses the phy's move: its reason logged"
if ! wskip "$D1" "$D2"; then
	wrun FAKE_NL80211_ERROR="95:no netns change for this phy" wl \
		FAKE_NL80211_ERROR= wl
	same "$D1" "$stdout
$req" "wl: failed 1; granted by dsrd:
wl: failed 0; granted by dsrd: wlp1s0=red+phy4
-- wl
get flags=dump v1
grant flags=0 v1 ifname=wlp1s0 netns_fd=net name=red mode=0
$GET_W1
get_interface flags=0 v0 ifindex=11 sk=node
set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=slice sk=node
revoke flags=0 v1 ifname=wlp1s0
-- wl
get flags=dump v1
$WGRANT"
	has "$D2" "$stderr" \
		"dsrd: slice wlp1s0: cannot move phy4 into slice red: Operation not supported: no netns change for this phy" \
		"dsrd: slice wlp1s0: phy4 did not move into slice red; the grant is revoked"
fi

# ---- the kernel refuses -----------------------------------------------------
run FAKE_SLICE_ERROR="1:no CAP_NET_ADMIN" start
same "the grants cannot be read: nothing else is sent" "$stdout
$req" "start: failed 1; granted by dsrd:
-- start
get flags=dump v1"
has "the grants cannot be read: the kernel's reason, and what it means" \
	"$stderr" "dsrd: Operation not permitted: no CAP_NET_ADMIN" \
	"dsrd: slice: cannot read the grants; no lease changed"

# ---- dsrd --check -----------------------------------------------------------
printf '[dsr]\nAddress = 10.0.0.1/24\n[slice]\nInterface = wlan1\nSlice = red\nLease = 3600\nMode = move\n' \
	> "$TMP/good.conf"
dsrd_check "a valid [slice]" "$TMP/good.conf" "0 "
printf '[dsr]\nAddress = 10.0.0.1/24\n[slice]\nInterface = wlan1\nSlice = red\nLease = 0\n' \
	> "$TMP/bad.conf"
dsrd_check "an invalid Lease, exit 2" "$TMP/bad.conf" \
	"2 dsrd: $TMP/bad.conf:6: invalid Lease '0' (seconds, 1..2592000, at most 30 days; without Lease: until revoked)"
printf '[dsr]\nInterface = wlan1\nAddress = 10.0.0.1/24\n[slice]\nInterface = wlan1\nSlice = red\nMode = map\nKeep = 22,51820\n' \
	> "$TMP/good.conf"
dsrd_check "a map [slice] of an Interface of [dsr]" "$TMP/good.conf" "0 "
printf '[dsr]\nAddress = 10.0.0.1/24\n[slice]\nInterface = wlan1\nSlice = red\nKeep = 22\n' \
	> "$TMP/bad.conf"
dsrd_check "Keep without Mode = map, exit 2" "$TMP/bad.conf" \
	"2 dsrd: $TMP/bad.conf:3: [slice] wlan1: Keep needs Mode = map (a moved interface keeps nothing for the node)"

ktap_done
