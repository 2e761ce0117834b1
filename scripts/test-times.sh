#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-times.sh RESULTS [DOC]: the time each test script took in each
# guest of a check run (the "# test SUITE/NAME took N s" lines of
# RESULTS/console-KVER.log), as a Markdown table sorted by the longest,
# with each kernel's total; with DOC, the table replaces what stands
# between "<!-- test-times begin -->" and "<!-- test-times end -->" there.
set -euo pipefail

res=$1
doc=${2:-}
shopt -s nullglob
logs=("$res"/console-*.log)
((${#logs[@]})) || { echo "test-times.sh: no console log in $res" >&2; exit 1; }

# "KVER SUITE/NAME SECONDS" per script run
runs=$(for f in "${logs[@]}"; do
	k=${f##*/console-}
	k=${k%.log}
	sed -n "s/^# test \([^ ]*\) took \([0-9]*\) s\(, [0-9]* processes\)\{0,1\}$/$k \1 \2/p" "$f"
done)
mapfile -t kvers < <(awk '{ print $1 }' <<< "$runs" | sort -u)
table=$(
	printf '| test |'
	printf ' %s (s) |' "${kvers[@]}"
	printf '\n|---|'
	printf -- '---:|%.0s' "${kvers[@]}"
	printf '\n'
	# one row per script, the longest (summed over kernels) first
	awk -v kv="${kvers[*]}" '
		BEGIN { nk = split(kv, ks, " ") }
		{ s[$2, $1] = $3; row[$2] += $3; tot[$1] += $3 }
		END {
			for (x in row) {
				line = "| " x " |"
				for (i = 1; i <= nk; i++)
					line = line " " ((x, ks[i]) in s ? s[x, ks[i]] : "-") " |"
				print row[x] "\t" line
			}
			line = "| **all scripts** |"
			for (i = 1; i <= nk; i++) line = line " **" tot[ks[i]] + 0 "** |"
			print -1 "\t" line
		}' <<< "$runs" | sort -t"$(printf '\t')" -k1,1nr | cut -f2-
)

if [[ -z $doc ]]; then
	echo "$table"
	exit 0
fi
grep -q '^<!-- test-times begin -->$' "$doc" || exit 0
tmp=$(mktemp)
awk -v table="$table" '
	/^<!-- test-times begin -->$/ { print; print table; skip = 1; next }
	/^<!-- test-times end -->$/ { skip = 0 }
	!skip' "$doc" > "$tmp"
cat "$tmp" > "$doc"
rm -f "$tmp"
