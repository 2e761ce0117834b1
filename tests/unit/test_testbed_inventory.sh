#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/testbed-host.sh refuses a bad inventory with its file and line
# (exit 1) before it sets anything up, and a bad command line with its
# usage (exit 2).  On the host, as any user: every case fails before the
# first namespace or module (the one valid inventory names an address no
# device here holds, or a node the scenario does not have).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TB=$ROOT/scripts/testbed-host.sh
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
export TESTBED_OUT=$D/out SCENARIO=$ROOT/selftests/lib/testbed/cut.ns \
	RANGE=250 EDGE=250
n=0
fail=0

# expect NAME RC PATTERN HOST [INVENTORY LINES...]: "up INV HOST" exits
# RC with PATTERN in its error, and makes no namespace
expect() {
	local name=$1 rc=$2 pat=$3 host=$4 out got
	shift 4
	printf '%s\n' "$@" > "$D/inv"
	n=$((n + 1))
	out=$(AH_PREFIX=tbunit$$- "$TB" up "$D/inv" "$host" 2>&1)
	got=$?
	if [[ $got == "$rc" ]] && grep -qF -- "$pat" <<< "$out" &&
	   ! ls /run/netns/tbunit$$-* >/dev/null 2>&1; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		echo "# exit $got (want $rc), output: $out"
		fail=1
	fi
}

echo "KTAP version 1"
echo "1..13"
expect "a line without its nodes" 1 "$D/inv:2: need NAME ADDRESS NODES" a \
	"a 10.9.9.1 1-3" "b 10.9.9.2"
expect "a line with a fourth field" 1 "$D/inv:1: need NAME ADDRESS NODES" a \
	"a 10.9.9.1 1-3 extra"
expect "an address that is not IPv4" 1 "$D/inv:2: 'fe80::1' is not an IPv4 address" a \
	"a 10.9.9.1 1-3" "b fe80::1 4-6"
expect "a node that is not a number" 1 "$D/inv:1: 'x' is not a node or a range" a \
	"a 10.9.9.1 1,x"
expect "an empty range" 1 "$D/inv:1: empty range '3-1'" a "a 10.9.9.1 3-1"
expect "node 0" 1 "$D/inv:1: node 0 (1 to 250)" a "a 10.9.9.1 0-2"
expect "a node on two hosts" 1 "$D/inv:3: node 3 is already a's" b \
	"# comment" "a 10.9.9.1 1-3   # a's" "b 10.9.9.2 3-6"
expect "a host twice" 1 "$D/inv:2: host a twice" a \
	"a 10.9.9.1 1-3" "a 10.9.9.2 4-6"
expect "a host not in it" 1 "$D/inv: no host 'c'" c "a 10.9.9.1 1-3"
expect "no host at all" 1 "$D/inv: no host" a "# nothing" ""
expect "an address no device here holds" 1 "no device of this host has 10.9.9.1" a \
	"a 10.9.9.1 1-3" "b 10.9.9.2 4-6"
expect "a node the scenario does not have" 1 "node 7, but the scenario has 6 nodes" a \
	"a 127.0.0.1 1-3" "b 10.9.9.2 4-7"
n=$((n + 1))
out=$("$TB" up "$D/inv" 2>&1)
if [[ $? == 2 ]] && grep -q "testbed-host.sh up INVENTORY HOST" <<< "$out"; then
	echo "ok $n a missing host: the usage"
else
	echo "not ok $n a missing host: the usage"
	echo "# $out"
	fail=1
fi
exit $fail
