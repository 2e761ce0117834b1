#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "ahctl slice" against a stand-in for the slice module (fake_slice.so,
# preloaded: see fake_slice.c), in KTAP: its usage errors and their exit
# status, the requests it builds (GRANT by namespace file and by pid, with
# mode and lease; REVOKE; GET and its dump), what it prints of the
# replies (show as text and JSON, the kernel's extack message, monitor's
# events), and its message when the module is not loaded.  Needs the
# built ahctl (userspace/ahctl/ahctl, or $AHCTL): skipped without it.
# Exits 1 if any test fails.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
AHCTL=${AHCTL:-$ROOT/userspace/ahctl/ahctl}
FAKE=$(cd "$(dirname "$0")" && pwd)/fake_slice.so

echo "KTAP version 1"
if [[ ! -x $AHCTL ]]; then
	echo "1..0 # SKIP $AHCTL is not built (make -C userspace)"
	exit 0
fi
if [[ ! -f $FAKE ]]; then
	echo "1..0 # SKIP $FAKE is not built (make -C tests/unit)"
	exit 0
fi
if ldd "$AHCTL" 2>/dev/null | grep -q libasan; then
	echo "1..0 # SKIP ahctl is built with ASan, which must be preloaded first"
	exit 0
fi

# ahctl's socket, and the stand-in's, are generic netlink ones
if LD_PRELOAD=$FAKE FAKE_SLICE=absent "$AHCTL" slice show 2>&1 |
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

# run ARGS...: ahctl under the stand-in; $rc, $stdout, $stderr, $req (the
# requests it sent, one a line)
run() {
	: > "$LOG"
	LD_PRELOAD=$FAKE FAKE_SLICE_LOG=$LOG FAKE_NETNS=red \
		"$AHCTL" "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	stdout=$(< "$TMP/out")
	stderr=$(< "$TMP/err")
	req=$(< "$LOG")
}

# expect DESC RC STDERR-PART REQUEST -- ARGS...: exit status RC, STDERR-PART
# in the error output ("" for none wanted), the requests exactly REQUEST
expect() {
	local desc=$1 want_rc=$2 want_err=$3 want_req=$4
	shift 5
	run "$@"
	if [[ $rc == "$want_rc" && $req == "$want_req" &&
	      ( -z $want_err && -z $stderr || -n $want_err && $stderr == *"$want_err"* ) ]]; then
		result 1 "$desc"
	else
		result 0 "$desc" "ahctl $*" "exit $rc (want $want_rc)" \
			"stderr: $stderr" "want in stderr: $want_err" \
			"requests: $req" "want requests: $want_req"
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

USAGE="Usage: ahctl [-j [-p]] [-n NETNS] slice grant"

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
expect "grant: unknown mode" 2 "invalid mode 'copy' (move)" "" -- \
	slice grant dev eth1 netns red mode copy
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
expect "show: an unexpected argument" 2 "unexpected argument 'eth1'" "" -- \
	slice show eth1
expect "monitor: no dev" 2 "'dev' is not an argument of this command" "" -- \
	slice monitor dev eth1
expect "an unknown command" 2 "slice: unknown command 'lease'" "" -- \
	slice lease dev eth1

# ---- requests ---------------------------------------------------------------
expect "grant by namespace: its file, its name as the label, mode, lease" \
	0 "" "grant flags=0 v1 ifname=eth1 netns_fd=net name=red mode=0 lease=60" -- \
	slice grant dev eth1 netns red mode move lease 60
expect "grant: lease SLICE_LEASE_MAX" 0 "" \
	"grant flags=0 v1 ifname=eth1 netns_fd=net name=red lease=2592000" -- \
	slice grant lease 2592000 netns red dev eth1
expect "grant by pid: no label" 0 "" "grant flags=0 v1 ifname=eth1 netns_pid=$$" -- \
	slice grant dev eth1 netns pid $$
expect "grant: a namespace that is not there is not sent" 1 \
	"ahctl: cannot open network namespace \"blue\": No such file or directory" "" -- \
	slice grant dev eth1 netns blue
expect "revoke" 0 "" "revoke flags=0 v1 ifname=eth1" -- slice revoke dev eth1
expect "show: a dump" 0 "" "get flags=dump v1" -- slice show
expect "ahctl slice alone: show" 0 "" "get flags=dump v1" -- slice
expect "show dev: a GET of it" 0 "" "get flags=0 v1 ifname=wlan0" -- \
	slice show dev wlan0

# ---- replies ----------------------------------------------------------------
run slice show
same "show: a line per grant, in ifindex order; lease none without one" \
	"$stdout" \
"wlan0 netns red mode move slice_ifname wlan0 age 5012ms lease_left 3594988ms rx_packets 10 rx_bytes 1200 tx_packets 8 tx_bytes 900 spoofed 1
wlan1 mode move slice_ifname wlan1 age 42ms lease none rx_packets 0 rx_bytes 0 tx_packets 1 tx_bytes 90 spoofed 0"

JSON='[{"ifindex":3,"ifname":"wlan0","name":"red","mode":"move","lease_left":3594988,"age":5012,"slice_ifindex":2,"slice_ifname":"wlan0","rx_packets":10,"rx_bytes":1200,"tx_packets":8,"tx_bytes":900,"spoofed":1},{"ifindex":5,"ifname":"wlan1","name":"","mode":"move","age":42,"slice_ifindex":2,"slice_ifname":"wlan1","rx_packets":0,"rx_bytes":0,"tx_packets":1,"tx_bytes":90,"spoofed":0}]'
run -j slice show
same "show -j: the attributes' names as keys" "$stdout" "$JSON"
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

# monitor ARGS...: what it printed of the two events, and its exit status
# on SIGTERM.  The file is emptied before ahctl starts: the background
# child truncates it only once it runs, and until then the wait below
# would count the lines of the monitor before and kill this one early.
monitor() {
	local pid i
	: > "$TMP/mon"
	LD_PRELOAD=$FAKE "$AHCTL" "$@" > "$TMP/mon" 2>&1 &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		(($(wc -l < "$TMP/mon") >= 2)) && break
		sleep 0.05
	done
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	stdout=$(< "$TMP/mon")
}
monitor slice monitor
same "monitor: grant and revoke with its reason; exit 0 on SIGTERM" \
	"$stdout
exit $rc" \
"grant wlan0 netns red mode move lease_left 3594988ms age 5012ms slice_ifindex 2 slice_ifname wlan0 rx_packets 10 rx_bytes 1200 tx_packets 8 tx_bytes 900 spoofed 1
revoke wlan1 mode move age 42ms slice_ifindex 2 slice_ifname wlan1 rx_packets 0 rx_bytes 0 tx_packets 1 tx_bytes 90 reason expired spoofed 0
exit 0"
monitor slice monitor -j
same "monitor -j: an object a line, event first" "$stdout
exit $rc" \
'{"event":"grant","ifindex":3,"ifname":"wlan0","name":"red","mode":"move","lease_left":3594988,"age":5012,"slice_ifindex":2,"slice_ifname":"wlan0","rx_packets":10,"rx_bytes":1200,"tx_packets":8,"tx_bytes":900,"spoofed":1}
{"event":"revoke","ifindex":5,"ifname":"wlan1","name":"","mode":"move","age":42,"slice_ifindex":2,"slice_ifname":"wlan1","rx_packets":0,"rx_bytes":0,"tx_packets":1,"tx_bytes":90,"reason":"expired","spoofed":0}
exit 0'

# ---- no module --------------------------------------------------------------
for args in "slice show" "slice grant dev eth1 netns red" "slice revoke dev eth1" \
	    "slice monitor"; do
	# shellcheck disable=SC2086
	FAKE_SLICE=absent expect "without the module: $args" 1 \
		"ahctl: slice: kernel module not loaded (modprobe slice)" "" -- $args
done

echo "1..$n"
printf '%s\n' "${out[@]}"
[[ $failed == 0 ]]
