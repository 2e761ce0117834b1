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
# The stand-in's kernel always holds three grants: wlan0 to slice "red",
# wlan1 to a slice without a label, and wlan2 to slice "blue" in map mode
# (10.1.0.5 on the slice's interface of index 99998, keeping 22 and
# 51820); /run/netns/$FAKE_NETNS opens our
# own namespace, any other name does not exist.  Needs the built dsrd
# (userspace/dsrd/dsrd, for --check; or $DSRD) and dsrd_slice_run and
# fake_slice.so (make -C tests/unit): skipped without them.  Exits 1 if
# any test fails.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
DSRD=${DSRD:-$ROOT/userspace/dsrd/dsrd}
RUN=$HERE/dsrd_slice_run
FAKE=$HERE/fake_slice.so

echo "KTAP version 1"
for f in "$RUN" "$FAKE"; do
	if [[ ! -f $f ]]; then
		echo "1..0 # SKIP $f is not built (make -C tests/unit)"
		exit 0
	fi
done
if LD_PRELOAD=$FAKE FAKE_SLICE=absent "$RUN" 2>&1 |
	grep -q "cannot open a generic netlink socket"; then
	echo "1..0 # SKIP no generic netlink socket here"
	exit 0
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
LOG=$TMP/requests

n=0
failed=0
out=()

result() {	# result OK DESC [DIAG...]
	local ok=$1 desc=$2 d
	shift 2
	n=$((n + 1))
	if [[ $ok == 1 ]]; then
		out+=("ok $n $desc")
	else
		failed=$((failed + 1))
		for d in "$@"; do
			out+=("# $d")
		done
		out+=("not ok $n $desc")
	fi
}

# same DESC GOT WANT
same() {
	if [[ $2 == "$3" ]]; then
		result 1 "$1"
	else
		result 0 "$1" "got:" "$2" "want:" "$3"
	fi
}

# has DESC TEXT PART...: every PART is in TEXT
has() {
	local desc=$1 text=$2 p
	shift 2
	for p in "$@"; do
		if [[ $text != *"$p"* ]]; then
			result 0 "$desc" "missing: $p" "in: $text"
			return
		fi
	done
	result 1 "$desc"
}

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

# run ARGS...: dsrd_slice_run under the stand-in, in $TMP; $rc, $stdout,
# $stderr, $req (the requests, "-- CONF" before each CONF's)
run() {
	: > "$LOG"
	(cd "$TMP" && LD_PRELOAD=$FAKE FAKE_SLICE_LOG=$LOG FAKE_NETNS=red \
		"$RUN" "$@" > "$TMP/out" 2> "$TMP/err")
	rc=$?
	stdout=$(< "$TMP/out")
	stderr=$(< "$TMP/err")
	req=$(< "$LOG")
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
-- 1
get flags=dump v1
grant flags=0 v1 ifname=eth1 netns_fd=net name=red mode=0 lease=60
-- 2
get flags=dump v1
revoke flags=0 v1 ifname=wlan0
get flags=dump v1
grant flags=0 v1 ifname=eth1 netns_fd=net name=red mode=0 lease=60
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
grant flags=0 v1 ifname=wlan0 netns_fd=net name=green mode=0 lease=5"
has "another Slice that does not exist: the grant stays" "$stderr" \
	"dsrd: slice wlan0: network namespace \"blue\" does not exist" \
	"dsrd: slice wlan0: stays granted to slice red"

# ---- the stats line ---------------------------------------------------------
run "stats:$TMP/stats.jsonl"
same "stats: every grant of the node, by interface, as ahctl slice show -j" \
	"$(sed 's/^{"time":"[^"]*",//' "$TMP/stats.jsonl")" \
'"slice":{"wlan1":{"ifindex":5,"name":"","mode":"move","age":42,"slice_ifindex":2,"slice_ifname":"wlan1","rx_packets":0,"rx_bytes":0,"tx_packets":1,"tx_bytes":90,"spoofed":0},"wlan0":{"ifindex":3,"name":"red","mode":"move","lease_left":3594988,"age":5012,"slice_ifindex":2,"slice_ifname":"wlan0","rx_packets":10,"rx_bytes":1200,"tx_packets":8,"tx_bytes":900,"spoofed":1},"wlan2":{"ifindex":7,"name":"blue","mode":"map","age":700,"slice_ifindex":99998,"slice_ifname":"wlan2","rx_packets":4,"rx_bytes":336,"tx_packets":3,"tx_bytes":252,"spoofed":2,"addr":"10.1.0.5","keep":[22,51820]}}}'

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
if [[ -x $DSRD ]]; then
	printf '[dsr]\nAddress = 10.0.0.1/24\n[slice]\nInterface = wlan1\nSlice = red\nLease = 3600\nMode = move\n' \
		> "$TMP/good.conf"
	"$DSRD" --check -c "$TMP/good.conf" > "$TMP/out" 2>&1
	rc=$?
	same "dsrd --check: a valid [slice]" "$rc $(< "$TMP/out")" "0 "
	printf '[dsr]\nAddress = 10.0.0.1/24\n[slice]\nInterface = wlan1\nSlice = red\nLease = 0\n' \
		> "$TMP/bad.conf"
	"$DSRD" --check -c "$TMP/bad.conf" > "$TMP/out" 2>&1
	rc=$?
	same "dsrd --check: an invalid Lease, exit 2" "$rc $(< "$TMP/out")" \
		"2 dsrd: $TMP/bad.conf:6: invalid Lease '0' (seconds, 1..2592000, at most 30 days; without Lease: until revoked)"
else
	result 1 "dsrd --check: a valid [slice] # SKIP $DSRD is not built"
	result 1 "dsrd --check: an invalid Lease, exit 2 # SKIP $DSRD is not built"
fi

echo "1..$n"
printf '%s\n' "${out[@]}"
[[ $failed == 0 ]]
