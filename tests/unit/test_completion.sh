#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of dist/ahctl.bash-completion, in KTAP:
#
#     bash tests/unit/test_completion.sh
#
# The completion function is called as readline would call it (COMP_WORDS
# split at blanks and at ':' and '=', COMP_CWORD, COMP_LINE, COMP_POINT),
# with "ip" replaced by a stub that knows a few links and namespaces; one
# test asks the real "ip" for "lo".  The word lists are compared with the
# help of the built ahctl (userspace/ahctl/ahctl, or $AHCTL): skipped when
# it is not built.  Runs in a plain bash, without the bash-completion
# package.  Exits 1 if any test fails.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
AHCTL=${AHCTL:-$ROOT/userspace/ahctl/ahctl}
# shellcheck source=../../dist/ahctl.bash-completion
source "$ROOT/dist/ahctl.bash-completion"
# shellcheck source=ktap.sh
source "$(dirname "$0")/ktap.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# the stub: links "lo eth0 wlan0 dsr0" (dsr0 of type dsr), in namespace
# "red" "lo veth-r" and no dsr link; namespaces "red" and "blue"
ip() {
	local ns=
	if [[ $1 == -n ]]; then
		ns=$2
		shift 2
	fi
	case "$*" in
	"netns list")
		printf 'red (id: 0)\nblue\n' ;;
	"-o link show type dsr")
		[[ -n $ns ]] ||
			echo "7: dsr0: <NOARP,UP,LOWER_UP> mtu 1500 qdisc noqueue" ;;
	"-o link show")
		if [[ $ns == red ]]; then
			echo "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536"
			echo "2: veth-r@if3: <BROADCAST,MULTICAST> mtu 1500"
		else
			echo "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536"
			echo "2: eth0: <BROADCAST,MULTICAST,UP> mtu 1500"
			echo "3: wlan0: <BROADCAST,MULTICAST> mtu 1500"
			echo "7: dsr0: <NOARP,UP,LOWER_UP> mtu 1500"
		fi ;;
	esac
}

# comp LINE: the completions at the end of LINE, sorted, on one line.
# LINE is split as readline splits it: at blanks, and ':' and '=' are
# words of their own (COMP_WORDBREAKS).
comp() {
	local line=$1
	mapfile -t COMP_WORDS < <(grep -oE '[^[:blank:]:=]+|[:=]+' <<< "$line")
	[[ -z $line || $line == *[[:blank:]] ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	_ahctl ahctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]:-}"
	((${#COMPREPLY[@]})) || { echo; return; }
	printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | paste -sd' '
}

# sorted words on one line
words() {
	tr -s ' \t\n' '\n' <<< "$*" | sed '/^$/d' | LC_ALL=C sort -u | paste -sd' '
}

# expect DESC LINE WANTED: the completions at the end of LINE are WANTED
expect() {
	local got
	got=$(comp "$2")
	if [[ $got == "$(words "$3")" ]]; then
		result 1 "$1"
	else
		result 0 "$1" "line: '$2'" "want: '$(words "$3")'" "got:  '$got'"
	fi
}

# ---- the grammar ------------------------------------------------------------
expect "objects" "ahctl " "macfilter dsr transit slice help"
expect "object prefix" "ahctl ma" "macfilter"
expect "options" "ahctl -" "-j --json -p --pretty -n --netns -V --version -h --help"
expect "namespaces after -n" "ahctl -n " "red blue"
expect "namespaces after -jn" "ahctl -jn b" "blue"
expect "namespaces after --netns=" "ahctl --netns=r" "red"
expect "objects after options" "ahctl -j -n red " "macfilter dsr transit slice help"
expect "help OBJECT" "ahctl help " "macfilter dsr transit slice"
expect "macfilter: dev first" "ahctl macfilter attach " "dev"
expect "macfilter: interfaces after dev" "ahctl macfilter attach dev " \
	"lo eth0 wlan0 dsr0"
expect "macfilter: interface prefix" "ahctl macfilter flush dev w" "wlan0"
expect "macfilter attach: keywords" "ahctl macfilter attach dev eth0 " \
	"mode max_entries"
expect "macfilter: mode values" "ahctl macfilter set dev eth0 mode " \
	"deny allow"
expect "macfilter attach: keywords not repeated" \
	"ahctl macfilter attach dev eth0 mode deny " "max_entries"
expect "macfilter: no value for max_entries" \
	"ahctl macfilter attach dev eth0 max_entries " ""
expect "macfilter add: nothing for MAC" "ahctl macfilter add dev eth0 " ""
expect "macfilter add: loss after a MAC (split at ':')" \
	"ahctl macfilter add dev eth0 02:00:00:00:00:02 " "loss"
expect "macfilter del: nothing after the MAC" \
	"ahctl macfilter del dev eth0 02:00:00:00:00:02 " ""
expect "macfilter show: dev" "ahctl macfilter show " "dev"
expect "macfilter monitor: nothing" "ahctl macfilter monitor " ""
expect "interfaces of the -n namespace" "ahctl -n red macfilter show dev " \
	"lo veth-r"
expect "interfaces of --netns=NS" "ahctl --netns=red macfilter show dev " \
	"lo veth-r"

mkdir -p "$TMP/files/sub"
touch "$TMP/files/a.macs" "$TMP/files/b.macs" "$TMP/files/course.trace"
pushd "$TMP/files" >/dev/null || exit 1
expect "macfilter load: files and '-'" "ahctl macfilter load dev eth0 " \
	"- a.macs b.macs course.trace sub"
expect "macfilter load: file prefix" "ahctl macfilter load dev eth0 a" \
	"a.macs"
expect "macfilter load: mode after FILE" \
	"ahctl macfilter load dev eth0 a.macs " "mode"
expect "macfilter replay: files" "ahctl macfilter replay dev eth0 c" \
	"course.trace"
expect "macfilter replay: speed and start after TRACE" \
	"ahctl macfilter replay dev eth0 course.trace " "speed start"
expect "macfilter replay: start once" \
	"ahctl macfilter replay dev eth0 course.trace start 1795000000 " "speed"
expect "macfilter replay-all: speed and start after LIST" \
	"ahctl macfilter replay-all nodes.list " "speed start"
popd >/dev/null || exit 1

expect "dsr param: show set" "ahctl dsr param " "show set"
expect "dsr route: show add del" "ahctl dsr route " "show add del"
expect "dsr neigh: show" "ahctl dsr neigh " "show"
expect "dsr: dsr links first" "ahctl dsr param show " "dsr0"
expect "dsr: every link when none is a dsr one" "ahctl -n red dsr neigh show " \
	"lo veth-r"
expect "dsr param set: no name for a value" "ahctl dsr param set dsr0 rto_min_ms " ""
got=$(comp "ahctl dsr param set dsr0 rto_min_ms 50 ")
if [[ " $got " != *" rto_max_ms "* || " $got " == *" rto_min_ms "* ]]; then
	result 0 "dsr param set: the names not given yet" "got: '$got'"
else
	result 1 "dsr param set: the names not given yet"
fi
expect "dsr gateway: on off" "ahctl dsr gateway dsr0 " "on off"
expect "dsr gateway: DEV" "ahctl dsr gateway " "dsr0"
expect "dsr route add: via after DST" "ahctl dsr route add dsr0 10.0.0.5 " "via"
expect "dsr route add: nothing for a HOP" \
	"ahctl dsr route add dsr0 10.0.0.5 via " ""
expect "dsr flush: what" "ahctl dsr flush dsr0 routes " \
	"negcache sendbuf reqtable all"
expect "dsr: dsr links after the keyword dev" "ahctl dsr route show dev " "dsr0"
expect "dsr: the keyword dev left out" "ahctl dsr route add dev dsr0 10.0.0.5 " "via"
expect "dsr show: -j and -p after DEV" "ahctl dsr neigh show dsr0 -" \
	"-j --json -p --pretty"
expect "dsr show: nothing else after DEV" "ahctl dsr neigh show dsr0 " ""
expect "dsr mcast: join leave chain map unmap show" "ahctl dsr mcast " "chain join leave map show unmap"
expect "dsr mcast join: DEV" "ahctl dsr mcast join " "dsr0"
expect "dsr mcast join: DEV after dev" "ahctl dsr mcast join dev " "dsr0"
expect "dsr mcast join: keywords" "ahctl dsr mcast join dev dsr0 " \
	"source group layers tag group-layers"
expect "dsr mcast join: nothing for an address" \
	"ahctl dsr mcast join dsr0 source " ""
expect "dsr mcast join: keywords not repeated" \
	"ahctl dsr mcast join dsr0 source 10.0.0.1 group 239.1.1.1 " \
	"layers tag group-layers"
expect "dsr mcast join: tag modes" "ahctl dsr mcast join dsr0 layers 3 tag " \
	"byte rtp"
expect "dsr mcast join: offset after tag byte" \
	"ahctl dsr mcast join dsr0 layers 3 tag byte " \
	"source group offset group-layers"
expect "dsr mcast join: id and tids after tag rtp" \
	"ahctl dsr mcast join dsr0 layers 3 tag rtp id 2 " \
	"source group tids group-layers"
expect "dsr mcast join: nothing for a number" \
	"ahctl dsr mcast join dsr0 layers 3 group-layers " ""
expect "dsr mcast leave: source and group only" "ahctl dsr mcast leave dsr0 " \
	"source group"
expect "dsr mcast show: -j and -p after DEV" "ahctl dsr mcast show dsr0 -" \
	"-j --json -p --pretty"
expect "dsr mcast chain: DEV" "ahctl dsr mcast chain " "dsr0"
expect "dsr mcast chain: source and group first" "ahctl dsr mcast chain dev dsr0 " \
	"source group"
expect "dsr mcast chain: nothing for an address" \
	"ahctl dsr mcast chain dsr0 group " ""
expect "dsr mcast chain: then the elements, or default" \
	"ahctl dsr mcast chain dsr0 group 239.1.1.1 source 10.0.0.1 " \
	"tag dup cap filter fanout default"
expect "dsr mcast chain: tag first only, each once" \
	"ahctl dsr mcast chain dsr0 source 10.0.0.1 group 239.1.1.1 tag cap 2 " \
	"dup filter fanout"
expect "dsr mcast chain: nothing for cap's number" \
	"ahctl dsr mcast chain dsr0 source 10.0.0.1 group 239.1.1.1 dup cap " ""
expect "dsr mcast chain: bcast after fanout" \
	"ahctl dsr mcast chain dsr0 source 10.0.0.1 group 239.1.1.1 dup fanout " \
	"bcast"
expect "dsr mcast chain: nothing after fanout bcast N" \
	"ahctl dsr mcast chain dsr0 source 10.0.0.1 group 239.1.1.1 fanout bcast 0 " ""
expect "dsr mcast chain: nothing after default" \
	"ahctl dsr mcast chain dsr0 source 10.0.0.1 group 239.1.1.1 default " ""
expect "transit: dev" "ahctl transit flows " "dev"
expect "transit set: enable values" "ahctl transit set dev wlan0 enable " "0 1"
expect "transit flush: what" "ahctl transit flush dev wlan0 " \
	"flows counters all"
expect "transit: no name for a value" \
	"ahctl transit attach dev wlan0 peek_len " ""

expect "slice grant: keywords" "ahctl slice grant " "dev netns mode lease"
expect "slice grant: interfaces of the node after dev" "ahctl slice grant dev " \
	"lo eth0 wlan0 dsr0"
expect "slice grant: namespaces and pid after netns" \
	"ahctl slice grant dev eth0 netns " "red blue pid"
expect "slice grant: nothing for a PID" "ahctl slice grant dev eth0 netns pid " ""
expect "slice grant: keywords after netns pid PID" \
	"ahctl slice grant dev eth0 netns pid 42 " "mode lease"
expect "slice grant: keywords not repeated" \
	"ahctl slice grant dev eth0 netns red lease 60 " "mode"
expect "slice grant: mode values" "ahctl slice grant dev eth0 netns red mode " \
	"move map"
expect "slice grant: no value for lease" \
	"ahctl slice grant dev eth0 netns red lease " ""
expect "slice grant: keep after mode map" \
	"ahctl slice grant dev eth0 netns red mode map " "lease keep"
expect "slice grant: no keep after mode move" \
	"ahctl slice grant dev eth0 netns red mode move " "lease"
expect "slice grant: no value for keep" \
	"ahctl slice grant dev eth0 netns red mode map keep " ""
expect "slice grant: keep not repeated" \
	"ahctl slice grant dev eth0 netns red mode map keep 22 " "lease"
expect "slice revoke: dev and force" "ahctl slice revoke " "dev force"
expect "slice revoke: force after dev IFACE" "ahctl slice revoke dev wlan1 " "force"
expect "slice revoke: dev after force" "ahctl slice revoke force " "dev"
expect "slice revoke: nothing after dev IFACE force" \
	"ahctl slice revoke dev wlan1 force " ""
expect "slice show: dev" "ahctl slice show " "dev"
expect "slice show: -j and -p" "ahctl slice show -" "-j --json -p --pretty"
expect "slice monitor: nothing" "ahctl slice monitor " ""
expect "slice monitor: -j and -p" "ahctl slice monitor -" "-j --json -p --pretty"
# the interfaces granted are gone from the node: "ahctl slice show" has them
ahctl() {
	[[ "$*" == "slice show" ]] &&
		echo "wlan1 netns red mode move slice_ifname wlan1 age 42ms lease none"
	[[ "$*" == "-n red slice show" ]] &&
		echo "veth-g netns blue mode move slice_ifname veth-g age 42ms lease none"
	return 0
}
expect "slice revoke: the interfaces granted after dev" \
	"ahctl slice revoke dev " "wlan1"
expect "slice show: the interfaces granted in the -n namespace" \
	"ahctl -n red slice show dev " "veth-g"
unset -f ahctl

# the real ip
unset -f ip
if command -v ip >/dev/null; then
	got=$(comp "ahctl macfilter show dev l")
	if [[ " $got " == *" lo "* ]]; then
		result 1 "interfaces from the real ip: lo"
	else
		result 0 "interfaces from the real ip: lo" "got: '$got'"
	fi
else
	skip "interfaces from the real ip: lo" "no ip command"
fi

if complete -p ahctl 2>/dev/null | grep -q -- '-F _ahctl'; then
	result 1 "registered for ahctl"
else
	result 0 "registered for ahctl"
fi

# ---- the word lists against the tool's own help -----------------------------
# the DESCs, the same for the skip and the run
as_help() {	# as_help DESC LINE WANTED-WORDS (not empty)
	local got want
	got=$(comp "$2")
	want=$(words "$3")
	if [[ -n $want && $got == "$want" ]]; then
		result 1 "$1"
	else
		result 0 "$1" "help: '$want'" "completion: '$got'"
	fi
}

HELP_TESTS=("objects as in 'ahctl help'" "options as in 'ahctl -h'"
	"macfilter commands as in its help" "dsr commands as in its help"
	"transit commands as in its help" "slice commands as in its help"
	"dsr parameters as in its help"
	"transit parameters as in its help")
if [[ -x $AHCTL ]]; then
	as_help "${HELP_TESTS[0]}" "ahctl " "$("$AHCTL" help |
		awk '/^Objects:/ { f = 1; next } f && /^  [a-z]/ { print $1 }') help"
	as_help "${HELP_TESTS[1]}" "ahctl -" "$("$AHCTL" -h |
		grep -oE '^  -[a-zA-Z], --[a-z]+' | tr -d ',')"
	as_help "${HELP_TESTS[2]}" "ahctl macfilter " "$("$AHCTL" macfilter help |
		awk '$1 == "macfilter" { print $2 }')"
	as_help "${HELP_TESTS[3]}" "ahctl dsr " "$("$AHCTL" dsr help |
		awk '$1 == "dsr" { print $2 }')"
	as_help "${HELP_TESTS[4]}" "ahctl transit " "$("$AHCTL" transit help |
		awk '$1 == "transit" { print $2 }')"
	as_help "${HELP_TESTS[5]}" "ahctl slice " "$("$AHCTL" slice help |
		awk '$1 == "slice" { print $2 }')"
	as_help "${HELP_TESTS[6]}" "ahctl dsr param set dsr0 " "$("$AHCTL" dsr help |
		awk '/^NAME .*protocol parameter/ { f = 1; next }
		     /subnet takes/ { f = 0 } f' | tr -d ',')"
	# the table's rows: NAME DEFAULT RANGE
	as_help "${HELP_TESTS[7]}" "ahctl transit attach dev wlan0 " "$("$AHCTL" transit help |
		awk '$1 ~ /^[a-z_]+$/ && $2 ~ /^[0-9]+$/ { print $1 }') enable"
else
	for t in "${HELP_TESTS[@]}"; do
		skip "$t" "$AHCTL is not built (make userspace)"
	done
fi

echo "KTAP version 1"
ktap_done
