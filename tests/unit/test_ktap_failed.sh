#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/ktap-failed.awk, what make check prints last for CI's short log:
# each failure named, the first three with the lines their case printed.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
AWK=$ROOT/scripts/ktap-failed.awk
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
n=0
fail=0
echo "KTAP version 1"
echo "1..4"

expect() {
	local name=$1 want=$2 got=$3
	n=$((n + 1))
	if [[ $got == "$want" ]]; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		diff <(echo "$want") <(echo "$got") | sed 's/^/# /'
		fail=1
	fi
}

mkdir -p "$D/k/dsr"
cat > "$D/k/dsr/a.ktap" <<'K'
1..3
# setup
ok 1 first
# one
# case took 3 s
# ah: heartbeat
# two
not ok 2 second
# 1
# 2
# 3
# 4
# 5
# 6
# 7
  not ok 1 nested
ok 3 third
K
printf 'ok 1 all good\n# nothing\n' > "$D/k/dsr/b.ktap"
printf '# c1\nnot ok 1 c\n# d1\nnot ok 2 d\n' > "$D/k/c.ktap"

got=$(awk -v res="$D/k/" -f "$AWK" "$D/k/dsr/a.ktap" "$D/k/dsr/b.ktap" "$D/k/c.ktap")
want='# failed: dsr/a.ktap:not ok 2 second
#   # one
#   # two
# failed: dsr/a.ktap:  not ok 1 nested
#   # 2
#   # 3
#   # 4
#   # 5
#   # 6
#   # 7
# failed: c.ktap:not ok 1 c
#   # c1
# failed: c.ktap:not ok 2 d'
expect "failures named, three with their case's last lines" "$want" "$got"

got=$(awk -v res="$D/k/" -f "$AWK" "$D/k/dsr/b.ktap")
expect "no failure, no line" "" "$got"

long=$(printf 'x%.0s' $(seq 300))
printf '# %s\nnot ok 1 long\n' "$long" > "$D/k/long.ktap"
got=$(awk -f "$AWK" "$D/k/long.ktap" | sed -n 2p)
expect "a long line cut to 200 characters" "#   # ${long:0:198}" "$got"

printf '1..3\nok 1 a\n' > "$D/k/short.ktap"
got=$(awk -v res="$D/k/" -f "$AWK" "$D/k/short.ktap")
expect "a plan not kept is named" \
	"# failed: short.ktap: 2 of 3 results missing (the plan promised them)" "$got"

exit $fail
