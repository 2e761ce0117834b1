#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "ahctl slice" against a stand-in for the slice module (fake_slice.so,
# preloaded: see fake_slice.c), in KTAP: its usage errors and their exit
# status, the requests it builds (GRANT by namespace file and by pid, with
# mode, lease and the KEEP nest; REVOKE; GET and its dump), what it prints
# of the replies (show as text and JSON, the kernel's extack message,
# monitor's events, a map grant's addr and keep), and its message when the
# module is not loaded.  After a grant in move mode, and after a revoke,
# ahctl reads the grant back (GET): a wired interface's is ACTIVE (or
# gone), and nothing more is sent.
#
# A wireless interface in move mode (the stand-in's wlp1s0 and wlp2s0):
# after the GRANT, the GET says it waits for its phy, which ahctl finds in
# the node (NL80211_CMD_GET_INTERFACE) and moves into the slice by its
# file (NL80211_CMD_SET_WIPHY_NETNS, from a socket of the node), then the
# GET that sees it ACTIVE; if nl80211 refuses, the REVOKE and its reason.
# After a revoke of one the kernel holds (RETURNING), the phy is found and
# moved back from a socket of the namespace it is in, which ahctl finds by
# its inode (PHY_NETNS_INO: the slice's, or another one the slice moved it
# to; from a module without it, SLICE_NETNS_INO), with a file of the
# node's, then GETs until the grant is gone.  The phy is found by its
# interface's index there, or by its name (a GET_WIPHY dump, split) when
# the grant has no interface (the slice deleted it) or that index is not
# there.  revoke ... force sends FORCE, moves nothing and waits for the
# grant to go.  The stand-in sees the namespaces: for these the slice is
# a network namespace of the test's own (slice_netns_start), the other
# one another (other_netns_start), and the tests are skipped where there
# is none.  show and monitor print state, phy, slice_netns_ino and
# phy_netns_ino.
#
# After a map grant ahctl configures the slice's side over rtnetlink, for
# real: in a network namespace of the test's own (unshare -n), with a
# veth of the index the stand-in gives the slice's interface (the slice's
# namespace is ours there); what ahctl did is read back with ip.  A root
# that cannot unshare skips those tests: they would configure the host.
# (Not root, ahctl may configure nothing, and the tests of a configured
# side are skipped; the stand-in cannot answer either, though: sending to
# ahctl's generic netlink socket needs CAP_NET_ADMIN.)
#
# Needs the built ahctl (userspace/ahctl/ahctl, or $AHCTL): skipped
# without it.  Exits 1 if any test fails.
set -u

# shellcheck source=fake_run.sh
source "$(dirname "$0")/fake_run.sh"

fake_start fake_slice.so FAKE_SLICE=absent "$AHCTL" "make -C userspace" \
	slice show

# run ARGS...: ahctl under the stand-in (see capture)
run() {
	LD_PRELOAD=$FAKE FAKE_SLICE_LOG=$LOG FAKE_NETNS=red capture "$AHCTL" "$@"
}

USAGE="Usage: ahctl [-j [-p]] [-n NETNS] slice grant"

# where the slice's side of a map grant is configured (see the top)
if unshare -n true 2>/dev/null; then
	NETNS=unshare
elif (($(id -u) != 0)); then
	NETNS=unprivileged
else
	NETNS=
fi
export AHCTL FAKE LOG TMP

# nsrun SETUP ARGS...: as run, in a network namespace of its own (unshare
# -n) after the shell commands SETUP, "@PID@" in ARGS the pid of a process
# there; also $pid, that pid, and $ip, what the namespace has then:
# "ADDRESSES OF slmap0; up|down; DEFAULT ROUTES" (without "linkdown": the
# veth has no carrier).  Not root (NETNS=unprivileged), without SETUP or
# namespace: nothing can be configured.
nsrun() {
	local setup=$1
	shift
	: > "$LOG"
	rm -f "$TMP/ip" "$TMP/pid"
	if [[ $NETNS == unshare ]]; then
		unshare -n bash -c "$NSRUN" nsrun "$setup" "$@"
	else
		bash -c "$NSRUN" nsrun : "$@"
	fi
	rc=$(< "$TMP/rc")
	stdout=$(< "$TMP/out")
	stderr=$(< "$TMP/err")
	req=$(< "$LOG")
	pid=$(< "$TMP/pid")
	ip=$(cat "$TMP/ip" 2>/dev/null)
}
# shellcheck disable=SC2016
NSRUN='
	eval "$1" || exit 1
	shift
	echo $$ > "$TMP/pid"
	LD_PRELOAD=$FAKE FAKE_SLICE_LOG=$LOG FAKE_NETNS=red \
		"$AHCTL" "${@//@PID@/$$}" > "$TMP/out" 2> "$TMP/err"
	echo $? > "$TMP/rc"
	ip link show dev slmap0 > /dev/null 2>&1 || exit 0
	{
		ip -4 -o addr show dev slmap0 | awk "{ print \$4 }" | paste -sd" "
		ip -o link show dev slmap0 | grep -q "[<,]UP[,>]" && echo up || echo down
		ip route show default | sed "s/ linkdown//; s/ *$//" | paste -sd","
	} | paste -sd";" | sed "s/;/; /g" > "$TMP/ip"
'
# the slice's interface as the stand-in names it: index 99997
SLMAP='ip link add slmap0 index 99997 type veth peer name slpeer0'

# nsexpect DESC RC STDERR-PART REQUEST IP SETUP -- ARGS...: nsrun, then as
# expect, and the namespace's state IP; skipped where the namespace is
# needed (IP not empty) and cannot be had
nsexpect() {
	local desc=$1 want_rc=$2 want_err=$3 want_req=$4 want_ip=$5 setup=$6
	shift 7
	if [[ -z $NETNS || ( -n $want_ip && $NETNS != unshare ) ]]; then
		result 1 "$desc # SKIP no network namespace of our own (unshare -n as root)"
		return
	fi
	nsrun "$setup" "$@"
	req=${req//netns_pid=$pid /netns_pid=PID }
	if [[ $rc == "$want_rc" && $req == "$want_req" && $ip == "$want_ip" &&
	      ( -z $want_err && -z $stderr || -n $want_err && $stderr == *"$want_err"* ) ]]; then
		result 1 "$desc"
	else
		result 0 "$desc" "ahctl $*" "exit $rc (want $want_rc)" \
			"stderr: $stderr" "want in stderr: $want_err" \
			"requests: $req" "want requests: $want_req" \
			"ip: $ip" "want ip: $want_ip"
	fi
}

# ---- usage errors: exit 2, nothing sent -------------------------------------
expect "grant: dev is required" 2 "missing 'dev IFACE'" "" -- \
	slice grant netns red
expect "grant: netns is required" 2 \
	"missing 'netns SLICE' or 'netns pid PID'" "" -- slice grant dev eth1
expect "grant: the usage follows the error" 2 "$USAGE" "" -- slice grant dev eth1
expect "grant: netns pid needs a PID" 2 "'netns pid' needs a PID" "" -- \
	slice grant dev eth1 netns pid
expect "grant: pid 0" 2 "invalid pid '0'" "" -- \
	slice grant dev eth1 netns pid 0
expect "grant: lease 0" 2 "invalid lease '0' (seconds, 1..2592000, at most 30 days)" "" -- \
	slice grant dev eth1 netns red lease 0
expect "grant: lease above SLICE_LEASE_MAX" 2 "invalid lease '2592001'" "" -- \
	slice grant dev eth1 netns red lease 2592001
expect "grant: lease not a number" 2 "invalid lease '1h'" "" -- \
	slice grant dev eth1 netns red lease 1h
expect "grant: lease negative" 2 "invalid lease '-1'" "" -- \
	slice grant dev eth1 netns red lease -1
expect "grant: unknown mode" 2 "invalid mode 'copy' (move or map)" "" -- \
	slice grant dev eth1 netns red mode copy
expect "grant: keep without mode map" 2 \
	"'keep' needs 'mode map' (a moved interface keeps nothing for the node)" "" -- \
	slice grant dev eth1 netns red keep 22
expect "grant: keep with mode move" 2 "'keep' needs 'mode map'" "" -- \
	slice grant dev eth1 netns red keep 22 mode move
expect "grant: keep port 0" 2 \
	"invalid keep '22,0': port '0' is not 1..65535 (PORT[,PORT...], at most 16)" "" -- \
	slice grant dev eth1 netns red mode map keep 22,0
expect "grant: keep port 70000" 2 \
	"invalid keep '70000': port '70000' is not 1..65535" "" -- \
	slice grant dev eth1 netns red mode map keep 70000
expect "grant: keep more than SLICE_KEEP_MAX ports" 2 \
	"invalid keep '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17': more than 16 ports" "" -- \
	slice grant dev eth1 netns red mode map keep 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17
expect "grant: keep a port twice" 2 \
	"invalid keep '22,80,22': port 22 is listed twice" "" -- \
	slice grant dev eth1 netns red mode map keep 22,80,22
expect "grant: keep an empty item" 2 "invalid keep '22,': port '' is not 1..65535" "" -- \
	slice grant dev eth1 netns red mode map keep 22,
expect "grant: keep a word" 2 "invalid keep 'ssh': port 'ssh' is not 1..65535" "" -- \
	slice grant dev eth1 netns red mode map keep ssh
expect "revoke: no keep" 2 "'keep' is not an argument of this command" "" -- \
	slice revoke dev eth1 keep 22
expect "grant: a label longer than SLICE_NAME_MAX - 1" 2 \
	"is too long for a slice's label (at most 31 bytes)" "" -- \
	slice grant dev eth1 netns abcdefghijklmnopqrstuvwxyz012345
expect "grant: a namespace name with a /" 2 \
	"invalid network namespace name '../red'" "" -- \
	slice grant dev eth1 netns ../red
expect "grant: an interface name too long" 2 \
	"interface name 'abcdefghijklmnop' is too long (at most 15 bytes)" "" -- \
	slice grant dev abcdefghijklmnop netns red
expect "grant: a keyword given twice" 2 "'lease' given twice" "" -- \
	slice grant dev eth1 netns red lease 5 lease 6
expect "grant: -j is show's and monitor's" 2 "'-j' is not an argument" "" -- \
	slice grant dev eth1 netns red -j
expect "revoke: dev is required" 2 "missing 'dev IFACE'" "" -- slice revoke
expect "revoke: no netns" 2 "'netns' is not an argument of this command" "" -- \
	slice revoke dev eth1 netns red
expect "revoke: force given twice" 2 "'force' given twice" "" -- \
	slice revoke dev eth1 force force
expect "grant: no force" 2 "'force' is not an argument of this command" "" -- \
	slice grant dev eth1 netns red force
expect "revoke: force is a word alone" 2 "unexpected argument '1'" "" -- \
	slice revoke dev eth1 force 1
expect "show: an unexpected argument" 2 "unexpected argument 'eth1'" "" -- \
	slice show eth1
expect "monitor: no dev" 2 "'dev' is not an argument of this command" "" -- \
	slice monitor dev eth1
expect "an unknown command" 2 "slice: unknown command 'lease'" "" -- \
	slice lease dev eth1

# ---- requests ---------------------------------------------------------------
GET_ETH1="get flags=0 v1 ifname=eth1"
expect "grant by namespace: its file, its name as the label, mode, lease; a GET" \
	0 "" "grant flags=0 v1 ifname=eth1 netns_fd=net name=red mode=0 lease=60
$GET_ETH1" -- \
	slice grant dev eth1 netns red mode move lease 60
expect "grant: lease SLICE_LEASE_MAX" 0 "" \
	"grant flags=0 v1 ifname=eth1 netns_fd=net name=red lease=2592000
$GET_ETH1" -- \
	slice grant lease 2592000 netns red dev eth1
expect "grant by pid: no label" 0 "" "grant flags=0 v1 ifname=eth1 netns_pid=$$
$GET_ETH1" -- \
	slice grant dev eth1 netns pid $$
expect "grant: a namespace that is not there is not sent" 1 \
	"ahctl: cannot open network namespace \"blue\": No such file or directory" "" -- \
	slice grant dev eth1 netns blue
expect "revoke: a GET, which finds no grant" 0 "" "revoke flags=0 v1 ifname=eth1
$GET_ETH1" -- slice revoke dev eth1
expect "revoke force: the FORCE flag; a GET, which finds no grant" 0 "" \
	"revoke flags=0 v1 ifname=eth1 force
$GET_ETH1" -- slice revoke force dev eth1
expect "show: a dump" 0 "" "get flags=dump v1" -- slice show
expect "ahctl slice alone: show" 0 "" "get flags=dump v1" -- slice
expect "show dev: a GET of it" 0 "" "get flags=0 v1 ifname=wlan0" -- \
	slice show dev wlan0

# ---- map grants: the slice's side -------------------------------------------
MAPREQ="grant flags=0 v1 ifname=slmap0 netns_fd=net name=red mode=1 keep=22,51820
get flags=0 v1 ifname=slmap0"
nsexpect "grant map: the KEEP nest, a GET, the slice's side configured" 0 "" \
	"$MAPREQ" "192.0.2.7/32; up; default dev slmap0 scope link" "$SLMAP" -- \
	slice grant dev slmap0 netns red mode map keep 22,51820
FAKE_SLICE_ADDR=10.9.8.7 nsexpect \
	"grant map by pid, no keep: the address the kernel says" 0 "" \
	"grant flags=0 v1 ifname=slmap0 netns_pid=PID mode=1 lease=5
get flags=0 v1 ifname=slmap0" \
	"10.9.8.7/32; up; default dev slmap0 scope link" "$SLMAP" -- \
	slice grant dev slmap0 netns pid @PID@ mode map lease 5
nsexpect "grant map: the slice has a default route already: revoked, exit 1" 1 \
	"ahctl: cannot add a default route through slmap0 in the slice's namespace
ahctl: slice slmap0: the slice's side of the map grant could not be configured; the grant is revoked" \
	"$MAPREQ
revoke flags=0 v1 ifname=slmap0" "192.0.2.7/32; up; default dev other scope link" \
	"$SLMAP && ip link add other type veth peer name otherp &&
	 ip link set other up && ip route add default dev other" -- \
	slice grant dev slmap0 netns red mode map keep 22,51820
# no slmap0 here, or no right to configure it: the same requests
nsexpect "grant map: the slice's interface cannot be configured: revoked, exit 1" 1 \
	"ahctl: slice slmap0: the slice's side of the map grant could not be configured; the grant is revoked" \
	"$MAPREQ
revoke flags=0 v1 ifname=slmap0" "" : -- \
	slice grant dev slmap0 netns red mode map keep 22,51820
FAKE_SLICE_ERROR="99:the interface (or its master) has no IPv4 address to map" nsexpect \
	"grant map refused: nothing configured, nothing revoked" 1 \
	"ahctl: Cannot assign requested address: the interface (or its master) has no IPv4 address to map" \
	"grant flags=0 v1 ifname=slmap0 netns_fd=net name=red mode=1" "" : -- \
	slice grant dev slmap0 netns red mode map
nsexpect "grant map by pid: a process that is not there, nothing sent" 1 \
	"ahctl: cannot open the network namespace of process 2147483647: No such file or directory" \
	"" "" : -- slice grant dev slmap0 netns pid 2147483647 mode map

# ---- replies ----------------------------------------------------------------
run slice show
same "show: a line per grant, in ifindex order; lease none without one; addr and keep of a map grant" \
	"$stdout" \
"wlan0 netns red mode move slice_ifname wlan0 age 5012ms lease_left 3594988ms rx_packets 10 rx_bytes 1200 tx_packets 8 tx_bytes 900 spoofed 1
wlan1 mode move slice_ifname wlan1 age 42ms lease none rx_packets 0 rx_bytes 0 tx_packets 1 tx_bytes 90 spoofed 0
wlan2 netns blue mode map addr 10.1.0.5 keep 22,51820 slice_ifname wlan2 age 700ms lease none rx_packets 4 rx_bytes 336 tx_packets 3 tx_bytes 252 spoofed 2"

JSON='[{"ifindex":3,"ifname":"wlan0","name":"red","mode":"move","lease_left":3594988,"age":5012,"slice_ifindex":2,"slice_ifname":"wlan0","rx_packets":10,"rx_bytes":1200,"tx_packets":8,"tx_bytes":900,"spoofed":1},{"ifindex":5,"ifname":"wlan1","name":"","mode":"move","age":42,"slice_ifindex":2,"slice_ifname":"wlan1","rx_packets":0,"rx_bytes":0,"tx_packets":1,"tx_bytes":90,"spoofed":0},{"ifindex":7,"ifname":"wlan2","name":"blue","mode":"map","age":700,"slice_ifindex":99998,"slice_ifname":"wlan2","rx_packets":4,"rx_bytes":336,"tx_packets":3,"tx_bytes":252,"spoofed":2,"addr":"10.1.0.5","keep":[22,51820]}]'
run -j slice show
same "show -j: the attributes' names as keys; addr a string, keep an array" \
	"$stdout" "$JSON"
run slice show -j
same "show -j after the command: the same" "$stdout" "$JSON"
run slice show dev wlan0 -p
if python3 -c 'import json, sys; d = json.load(sys.stdin); assert d[0]["name"] == "red" and d[0]["age"] == 5012' \
	<<< "$stdout" 2>/dev/null && [[ $stdout == *$'\n  '* ]]; then
	result 1 "show dev -p: indented JSON of the one grant"
else
	result 0 "show dev -p: indented JSON of the one grant" "got: $stdout"
fi
expect "show dev: the kernel's extack message" 1 \
	"ahctl: No such file or directory: the interface is not granted" \
	"get flags=0 v1 ifname=eth9" -- slice show dev eth9
: > "$LOG"
FAKE_SLICE_ERROR="16:wlan0 is granted to slice red" expect \
	"grant refused: errno and extack message, exit 1" 1 \
	"ahctl: Device or resource busy: wlan0 is granted to slice red" \
	"grant flags=0 v1 ifname=wlan0 netns_fd=net name=red" -- \
	slice grant dev wlan0 netns red

# monitor ARGS...: what it printed of the three events (or $MON_LINES),
# and its exit status on SIGTERM.  The file is emptied before ahctl starts: the background
# child truncates it only once it runs, and until then the wait below
# would count the lines of the monitor before and kill this one early.
monitor() {
	local pid i
	: > "$TMP/mon"
	LD_PRELOAD=$FAKE "$AHCTL" "$@" > "$TMP/mon" 2>&1 &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		(($(wc -l < "$TMP/mon") >= ${MON_LINES:-3})) && break
		sleep 0.05
	done
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	stdout=$(< "$TMP/mon")
}
monitor slice monitor
same "monitor: grant, revoke with its reason, a map grant's new addr; exit 0 on SIGTERM" \
	"$stdout
exit $rc" \
"grant wlan0 netns red mode move lease_left 3594988ms age 5012ms slice_ifindex 2 slice_ifname wlan0 rx_packets 10 rx_bytes 1200 tx_packets 8 tx_bytes 900 spoofed 1
revoke wlan1 mode move age 42ms slice_ifindex 2 slice_ifname wlan1 rx_packets 0 rx_bytes 0 tx_packets 1 tx_bytes 90 reason expired spoofed 0
grant wlan2 netns blue mode map age 700ms slice_ifindex 99998 slice_ifname wlan2 rx_packets 4 rx_bytes 336 tx_packets 3 tx_bytes 252 spoofed 2 addr 10.1.0.9 keep 22,51820
exit 0"
monitor slice monitor -j
same "monitor -j: an object a line, event first" "$stdout
exit $rc" \
'{"event":"grant","ifindex":3,"ifname":"wlan0","name":"red","mode":"move","lease_left":3594988,"age":5012,"slice_ifindex":2,"slice_ifname":"wlan0","rx_packets":10,"rx_bytes":1200,"tx_packets":8,"tx_bytes":900,"spoofed":1}
{"event":"revoke","ifindex":5,"ifname":"wlan1","name":"","mode":"move","age":42,"slice_ifindex":2,"slice_ifname":"wlan1","rx_packets":0,"rx_bytes":0,"tx_packets":1,"tx_bytes":90,"reason":"expired","spoofed":0}
{"event":"grant","ifindex":7,"ifname":"wlan2","name":"blue","mode":"map","age":700,"slice_ifindex":99998,"slice_ifname":"wlan2","rx_packets":4,"rx_bytes":336,"tx_packets":3,"tx_bytes":252,"spoofed":2,"addr":"10.1.0.9","keep":[22,51820]}
exit 0'

# ---- wireless interfaces in move mode: the phy ------------------------------
# wlp1s0: index 11 in the node, 21 in a slice, wiphy 4 (phy4); wlp2s0: 12,
# 22, wiphy 5 (phy5).  "sk=" is the namespace of the socket that asked.
slice_netns_start
other_netns_start
GET_W1="get flags=0 v1 ifname=wlp1s0"
WGRANT="get_interface flags=0 v0 ifindex=11 sk=node
set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=slice sk=node"
WBACK="get_interface flags=0 v0 ifindex=21 sk=slice
set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=node sk=slice"
WDUMP="get_wiphy flags=dump v0 split_wiphy_dump sk=slice"
WHOME="set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=node sk=slice"
# wexpect: expect, the slice being $SLICE_NS, the other namespace
# $OTHER_NS; skipped without them
wexpect() {
	if [[ -z $SLICE_PID || -z $OTHER_PID ]]; then
		result 1 "$1 # SKIP no network namespace of our own (unshare -n as root)"
		return
	fi
	FAKE_NETNS_PATH=$SLICE_NS FAKE_PHY_NETNS_PATH=$OTHER_NS expect "$@"
}
wexpect "grant wireless: GET, the phy found in the node and moved into the slice by its file, ACTIVE" \
	0 "" "grant flags=0 v1 ifname=wlp1s0 netns_fd=net name=red
$GET_W1
$WGRANT
$GET_W1" -- slice grant dev wlp1s0 netns red
wexpect "grant wireless by pid: the phy moved into that process's namespace" \
	0 "" "grant flags=0 v1 ifname=wlp1s0 netns_pid=$SLICE_PID mode=0 lease=30
$GET_W1
$WGRANT
$GET_W1" -- slice grant dev wlp1s0 netns pid "$SLICE_PID" mode move lease 30
FAKE_NL80211_ERROR="1:no CAP_NET_ADMIN over the slice" wexpect \
	"grant wireless: nl80211 refuses the move: its reason, the grant revoked, exit 1" 1 \
	"ahctl: slice wlp1s0: cannot move phy4 into slice red: Operation not permitted: no CAP_NET_ADMIN over the slice
ahctl: slice wlp1s0: phy4 did not move into the slice; the grant is revoked" \
	"grant flags=0 v1 ifname=wlp1s0 netns_fd=net name=red
$GET_W1
$WGRANT
revoke flags=0 v1 ifname=wlp1s0" -- slice grant dev wlp1s0 netns red
FAKE_NL80211_ERROR="95" wexpect \
	"grant wireless: a refusal without a message: errno alone" 1 \
	"ahctl: slice wlp2s0: cannot move phy5 into slice red: Operation not supported
ahctl: slice wlp2s0: phy5 did not move into the slice; the grant is revoked" \
	"grant flags=0 v1 ifname=wlp2s0 netns_fd=net name=red
get flags=0 v1 ifname=wlp2s0
get_interface flags=0 v0 ifindex=12 sk=node
set_wiphy_netns flags=0 v0 wiphy=5 netns_fd=slice sk=node
revoke flags=0 v1 ifname=wlp2s0" -- slice grant dev wlp2s0 netns red
FAKE_SLICE_RADIOS=wlp1s0=returning wexpect \
	"grant wireless while its phy is on its way back: EBUSY, nothing moved" 1 \
	"ahctl: Device or resource busy: wlp1s0 is granted to slice red" \
	"grant flags=0 v1 ifname=wlp1s0 netns_fd=net name=red" -- \
	slice grant dev wlp1s0 netns red
FAKE_SLICE_RADIOS=wlp1s0=active wexpect \
	"revoke wireless: the phy moved back from inside the slice with the node's file; GET until gone" \
	0 "" "revoke flags=0 v1 ifname=wlp1s0
$GET_W1
$WBACK
$GET_W1
$GET_W1" -- slice revoke dev wlp1s0
FAKE_SLICE_RADIOS=wlp2s0=returning:green wexpect \
	"revoke again, the label not a namespace here: the slice's found by its inode in /proc" \
	0 "" "revoke flags=0 v1 ifname=wlp2s0
get flags=0 v1 ifname=wlp2s0
get_interface flags=0 v0 ifindex=22 sk=slice
set_wiphy_netns flags=0 v0 wiphy=5 netns_fd=node sk=slice
get flags=0 v1 ifname=wlp2s0
get flags=0 v1 ifname=wlp2s0" -- slice revoke dev wlp2s0
FAKE_SLICE_RADIOS=wlp1s0=orphan wexpect \
	"revoke wireless, the slice's namespace gone: said, the grant waited for, exit 0" 0 \
	"ahctl: slice wlp1s0: the slice's network namespace is gone: cfg80211 handed phy4 to the initial network namespace" \
	"revoke flags=0 v1 ifname=wlp1s0
$GET_W1
$GET_W1
$GET_W1" -- slice revoke dev wlp1s0
FAKE_SLICE_INO=1 FAKE_SLICE_RADIOS=wlp1s0=returning wexpect \
	"revoke wireless, no namespace of the slice's inode: said, exit 1" 1 \
	"ahctl: slice wlp1s0: the slice's network namespace (inode 1) is in neither /run/netns nor /proc: phy4 stays there
ahctl: slice wlp1s0: revoked, but phy4 is not back in the node: the interface stays down until it is (ahctl slice revoke dev wlp1s0 tries again; with force, ends the grant where it is)" \
	"revoke flags=0 v1 ifname=wlp1s0
$GET_W1" -- slice revoke dev wlp1s0
FAKE_SLICE_RADIOS=wlp1s0=moved wexpect \
	"revoke wireless, the phy moved on by the slice: back from the namespace it is in (phy_netns_ino)" \
	0 "" "revoke flags=0 v1 ifname=wlp1s0
$GET_W1
get_interface flags=0 v0 ifindex=21 sk=other
set_wiphy_netns flags=0 v0 wiphy=4 netns_fd=node sk=other
$GET_W1
$GET_W1" -- slice revoke dev wlp1s0
FAKE_SLICE_PHY_INO=absent FAKE_SLICE_RADIOS=wlp1s0=moved wexpect \
	"revoke wireless, moved on, a module without phy_netns_ino: not in the slice's namespace by index nor by name, said, exit 1" 1 \
	"ahctl: slice wlp1s0: cannot find phy4 in slice red's namespace (as interface 21, wlp1s0, nor by its name): No such device: no wiphy named phy4 there
ahctl: slice wlp1s0: revoked, but phy4 is not back in the node" \
	"revoke flags=0 v1 ifname=wlp1s0
$GET_W1
get_interface flags=0 v0 ifindex=21 sk=slice
$WDUMP
$GET_W1" -- slice revoke dev wlp1s0
FAKE_SLICE_PHY_INO=absent FAKE_SLICE_RADIOS=wlp1s0=returning wexpect \
	"revoke wireless, a module without phy_netns_ino: back from the slice's namespace" \
	0 "" "revoke flags=0 v1 ifname=wlp1s0
$GET_W1
$WBACK
$GET_W1
$GET_W1" -- slice revoke dev wlp1s0
FAKE_SLICE_RADIOS=wlp1s0=deleted wexpect \
	"revoke wireless, the slice deleted the interface: the phy found by its name (GET_WIPHY dump), moved back with the node's file" \
	0 "" "revoke flags=0 v1 ifname=wlp1s0
$GET_W1
$WDUMP
$WHOME
$GET_W1
$GET_W1" -- slice revoke dev wlp1s0
FAKE_SLICE_RADIOS=wlp1s0=vanished wexpect \
	"revoke wireless, the interface deleted after the GET: not there by its index, found by its name" \
	0 "" "revoke flags=0 v1 ifname=wlp1s0
$GET_W1
get_interface flags=0 v0 ifindex=21 sk=slice
$WDUMP
$WHOME
$GET_W1
$GET_W1" -- slice revoke dev wlp1s0
FAKE_NL80211_ERROR="1:no CAP_NET_ADMIN" FAKE_SLICE_RADIOS=wlp1s0=deleted wexpect \
	"revoke wireless, no interface, nl80211 refuses the move: its reason, exit 1" 1 \
	"ahctl: slice wlp1s0: cannot move phy4 back to the node from slice red's namespace: Operation not permitted: no CAP_NET_ADMIN
ahctl: slice wlp1s0: revoked, but phy4 is not back in the node" \
	"revoke flags=0 v1 ifname=wlp1s0
$GET_W1
$WDUMP
$WHOME
$GET_W1" -- slice revoke dev wlp1s0
FAKE_SLICE_RADIOS=wlp1s0=home wexpect \
	"revoke wireless, the phy back in the node already (phy_netns_ino): nothing moved, the grant waited for" \
	0 "" "revoke flags=0 v1 ifname=wlp1s0
$GET_W1
$GET_W1
$GET_W1" -- slice revoke dev wlp1s0
FAKE_SLICE_RADIOS=wlp1s0=nophy wexpect \
	"revoke, a returning grant without a phy: said, nothing moved, exit 1" 1 \
	"ahctl: slice wlp1s0: the grant is returning, but the kernel names no phy for it (no SLICE_A_PHY): nothing to move back" \
	"revoke flags=0 v1 ifname=wlp1s0
$GET_W1" -- slice revoke dev wlp1s0
FAKE_SLICE_RADIOS=wlp1s0=moved wexpect \
	"revoke force, the phy moved on: FORCE sent, nothing moved, the grant gone" \
	0 "" "revoke flags=0 v1 ifname=wlp1s0 force
$GET_W1" -- slice revoke dev wlp1s0 force
# the GETs of the bounded wait, as many as 3 s take, said once
D="revoke force of an active grant: revoked, held (force ends only a returning one): said after the wait, nothing moved, exit 1"
if [[ -z $SLICE_PID || -z $OTHER_PID ]]; then
	result 1 "$D # SKIP no network namespace of our own (unshare -n as root)"
else
	FAKE_NETNS_PATH=$SLICE_NS FAKE_SLICE_RADIOS=wlp1s0=active run \
		slice revoke dev wlp1s0 force
	same "$D" "exit $rc
$stderr
$(uniq <<< "$req")" "exit 1
ahctl: slice wlp1s0: revoked with force, but the grant is still returning after 3000 ms: force ends only a grant that was returning already, not an active one (ahctl slice revoke dev wlp1s0 moves phy4 back; with force, ends the grant where it is)
revoke flags=0 v1 ifname=wlp1s0 force
$GET_W1"
fi
FAKE_SLICE_RADIOS=wlp1s0=deleted wexpect \
	"revoke force, no interface: nothing looked for, the grant gone" \
	0 "" "revoke flags=0 v1 ifname=wlp1s0 force
$GET_W1" -- slice revoke dev wlp1s0 force

# show and monitor: the slice's namespace is ours here
INO=$(stat -L -c %i /proc/self/ns/net)
FAKE_SLICE_RADIOS=wlp1s0=phy-wait,wlp2s0=returning run slice show
same "show: a wireless grant's state (unless active), phy, slice_netns_ino and phy_netns_ino; in ifindex order" \
	"$(tail -n 2 <<< "$stdout")" \
"wlp1s0 netns red mode move state phy-wait phy phy4 slice_ifname wlp1s0 slice_netns_ino $INO phy_netns_ino $INO age 0ms lease none rx_packets 0 rx_bytes 0 tx_packets 0 tx_bytes 0 spoofed 0
wlp2s0 netns red mode move state returning phy phy5 slice_ifname wlp2s0 slice_netns_ino $INO phy_netns_ino $INO age 0ms lease none rx_packets 0 rx_bytes 0 tx_packets 0 tx_bytes 0 spoofed 0"
FAKE_SLICE_RADIOS=wlp1s0=active,wlp2s0=orphan run slice show
same "show: active is not said; the slice's namespace gone: no slice_netns_ino" \
	"$(tail -n 2 <<< "$stdout")" \
"wlp1s0 netns red mode move phy phy4 slice_ifname wlp1s0 slice_netns_ino $INO phy_netns_ino $INO age 0ms lease none rx_packets 0 rx_bytes 0 tx_packets 0 tx_bytes 0 spoofed 0
wlp2s0 netns red mode move state returning phy phy5 slice_ifname wlp2s0 phy_netns_ino 1 age 0ms lease none rx_packets 0 rx_bytes 0 tx_packets 0 tx_bytes 0 spoofed 0"
FAKE_SLICE_PHY_INO=absent FAKE_SLICE_INO=7 FAKE_SLICE_RADIOS=wlp1s0=deleted,wlp2s0=moved run slice show
same "show: no slice_ifname for a grant without interface; phy_netns_ino where the phy is, none from an older module" \
	"$(tail -n 2 <<< "$stdout")" \
"wlp1s0 netns red mode move state returning phy phy4 slice_netns_ino 7 age 0ms lease none rx_packets 0 rx_bytes 0 tx_packets 0 tx_bytes 0 spoofed 0
wlp2s0 netns red mode move state returning phy phy5 slice_ifname wlp2s0 slice_netns_ino 7 age 0ms lease none rx_packets 0 rx_bytes 0 tx_packets 0 tx_bytes 0 spoofed 0"
FAKE_SLICE_INO=7 FAKE_SLICE_RADIOS=wlp1s0=deleted,wlp2s0=moved run slice show
same "show: a returning grant without interface; one whose phy is elsewhere than the slice" \
	"$(tail -n 2 <<< "$stdout")" \
"wlp1s0 netns red mode move state returning phy phy4 slice_netns_ino 7 phy_netns_ino 7 age 0ms lease none rx_packets 0 rx_bytes 0 tx_packets 0 tx_bytes 0 spoofed 0
wlp2s0 netns red mode move state returning phy phy5 slice_ifname wlp2s0 slice_netns_ino 7 phy_netns_ino 2 age 0ms lease none rx_packets 0 rx_bytes 0 tx_packets 0 tx_bytes 0 spoofed 0"
FAKE_SLICE_RADIOS=wlp1s0=active run -j slice show dev wlp1s0
same "show -j: state, phy, slice_netns_ino and phy_netns_ino as keys" "$stdout" \
"[{\"ifindex\":11,\"ifname\":\"wlp1s0\",\"name\":\"red\",\"mode\":\"move\",\"age\":0,\"slice_ifindex\":21,\"slice_ifname\":\"wlp1s0\",\"rx_packets\":0,\"rx_bytes\":0,\"tx_packets\":0,\"tx_bytes\":0,\"spoofed\":0,\"state\":\"active\",\"phy\":\"phy4\",\"slice_netns_ino\":$INO,\"phy_netns_ino\":$INO}]"
FAKE_SLICE_INO=7 FAKE_SLICE_RADIOS=wlp1s0=deleted run -j slice show dev wlp1s0
same "show -j: a returning grant without interface: no slice_ifindex nor slice_ifname" "$stdout" \
'[{"ifindex":11,"ifname":"wlp1s0","name":"red","mode":"move","age":0,"rx_packets":0,"rx_bytes":0,"tx_packets":0,"tx_bytes":0,"spoofed":0,"state":"returning","phy":"phy4","slice_netns_ino":7,"phy_netns_ino":7}]'
FAKE_SLICE_RADIOS=wlp1s0=phy-wait,wlp2s0=returning run -j slice show
if python3 -c 'import json, sys
d = json.load(sys.stdin)
assert [(g["ifname"], g.get("state"), g.get("phy")) for g in d] == [
	("wlan0", None, None), ("wlan1", None, None), ("wlan2", None, None),
	("wlp1s0", "phy-wait", "phy4"), ("wlp2s0", "returning", "phy5")]' \
	<<< "$stdout" 2>/dev/null; then
	result 1 "show -j: \"phy-wait\" and \"returning\"; none of a module without STATE"
else
	result 0 "show -j: \"phy-wait\" and \"returning\"; none of a module without STATE" "got: $stdout"
fi
FAKE_SLICE_RADIOS=wlp1s0=active,wlp2s0=phy-wait MON_LINES=5 monitor slice monitor
same "monitor: a wireless lease's end (returning, expired), a phy that did not come (no-phy)" \
	"$(tail -n 2 <<< "$stdout")
exit $rc" \
"revoke wlp1s0 netns red mode move age 0ms slice_ifindex 21 slice_ifname wlp1s0 rx_packets 0 rx_bytes 0 tx_packets 0 tx_bytes 0 reason expired spoofed 0 state returning phy phy4 slice_netns_ino $INO phy_netns_ino $INO
revoke wlp2s0 netns red mode move age 0ms slice_ifindex 12 slice_ifname wlp2s0 rx_packets 0 rx_bytes 0 tx_packets 0 tx_bytes 0 reason no-phy spoofed 0 state phy-wait phy phy5 slice_netns_ino $INO phy_netns_ino $INO
exit 0"
FAKE_SLICE_RADIOS=wlp1s0=active MON_LINES=4 monitor slice monitor -j
same "monitor -j: the state and phy of a wireless grant's end" \
	"$(tail -n 1 <<< "$stdout")
exit $rc" \
"{\"event\":\"revoke\",\"ifindex\":11,\"ifname\":\"wlp1s0\",\"name\":\"red\",\"mode\":\"move\",\"age\":0,\"slice_ifindex\":21,\"slice_ifname\":\"wlp1s0\",\"rx_packets\":0,\"rx_bytes\":0,\"tx_packets\":0,\"tx_bytes\":0,\"reason\":\"expired\",\"spoofed\":0,\"state\":\"returning\",\"phy\":\"phy4\",\"slice_netns_ino\":$INO,\"phy_netns_ino\":$INO}
exit 0"

# ---- no module --------------------------------------------------------------
for args in "slice show" "slice grant dev eth1 netns red" "slice revoke dev eth1" \
	    "slice monitor"; do
	# shellcheck disable=SC2086
	FAKE_SLICE=absent expect "without the module: $args" 1 \
		"ahctl: slice: kernel module not loaded (modprobe slice)" "" -- $args
done

ktap_done
