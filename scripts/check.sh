#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: userspace unit tests on the host, then every selftest suite in
# one QEMU guest per test kernel.  The last line is "N passed, N failed,
# N skipped", counted over both kernels; the exit status is non-zero on any
# failure.
#
#   T=SUITE      only that suite (and no unit tests unless T=unit)
#   KVERS="..."  only these kernels
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RES=$ROOT/build/results
T=${T:-}
KVERS=${KVERS:-$("$ROOT/scripts/kernels.sh")}
start=$(date +%s)

rm -rf "$RES"
mkdir -p "$RES"

if [[ -z $T || $T == unit ]]; then
	echo "# unit tests"
	make -s -C "$ROOT/tests/unit" check 2>&1 | tee "$RES/unit.ktap"
	[[ ${PIPESTATUS[0]} == 0 ]] || grep -q '^not ok' "$RES/unit.ktap" ||
		echo "not ok 1 unit tests did not build or run" >> "$RES/unit.ktap"
fi

if [[ $T != unit ]]; then
	for k in $KVERS; do
		t0=$(date +%s)
		echo "# kernel $k"
		"$ROOT/scripts/vm.sh" "$k" "selftests/run_guest.sh $T" \
			2>&1 | tee "$RES/console-$k.log" | grep -v '^\[ *[0-9.]*\] '
		if [[ ! -f $RES/$k/done ]]; then
			mkdir -p "$RES/$k"
			echo "not ok 1 $k: guest did not finish (see build/results/console-$k.log)" \
				> "$RES/$k/vm.ktap"
		fi
		echo "# kernel $k took $(( $(date +%s) - t0 )) s"
	done
fi

read -r pass fail skip < <(find "$RES" -name '*.ktap' -print0 |
	sort -z | xargs -0 -r awk -f "$ROOT/scripts/ktap-count.awk")
echo "# check took $(( $(date +%s) - start )) s"
echo "${pass:-0} passed, ${fail:-0} failed, ${skip:-0} skipped"
[[ ${fail:-0} == 0 && ${pass:-0} -gt 0 ]]
