#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: boot the first test kernel (or KVERS) and run the demo in it
# (scripts/demo-guest.sh: the CMU ping test); DEMO_SECS=N shortens it.
# With SCENARIO= or NODES= (make demo SCENARIO=FILE_OR_SPEC NODES=N): that
# scenario with DSR and CBR flows on every node and the MANET metrics
# (scripts/demo-scale-guest.sh, whose header lists its variables:
# DEMO_SECS, TIME_SCALE, RANGE, EDGE, FLOWS, RATE, SIZE, FLOW_SEED, REPLAY).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
K=${KVERS:-$("$ROOT/scripts/kernels.sh" | sed -n 1p)}
K=${K%% *}
if [[ -n ${SCENARIO:-}${NODES:-} ]]; then
	vars=
	for v in SCENARIO NODES DEMO_SECS TIME_SCALE RANGE EDGE FLOWS RATE SIZE \
		 FLOW_SEED REPLAY; do
		[[ -n ${!v:-} ]] && vars+="$v=$(printf '%q' "${!v}") "
	done
	"$ROOT/scripts/vm.sh" "$K" "${vars}scripts/demo-scale-guest.sh" |
		grep --line-buffered -v '^\[ *[0-9.]*\] '
	rc=${PIPESTATUS[0]}
	((rc == 0)) || exit "$rc"
	# the guest wrote ah-scenario's arguments for the picture
	mapfile -t args < "$ROOT/build/demo-scale/draw.args"
	MPLCONFIGDIR=${MPLCONFIGDIR:-$(mktemp -d)} /usr/bin/python3 \
		"$ROOT/tools/ah-scenario" draw "${args[@]}"
	echo "== the scenario and its links over time: build/demo-scale/scenario.png"
	exit 0
fi
# the picture is drawn here: matplotlib takes minutes in a TCG guest
"$ROOT/scripts/vm.sh" "$K" "DEMO_DRAW=0 ${DEMO_SECS:+DEMO_SECS=$DEMO_SECS} scripts/demo-guest.sh" |
	grep --line-buffered -v '^\[ *[0-9.]*\] '
rc=${PIPESTATUS[0]}
((rc == 0)) || exit "$rc"
MPLCONFIGDIR=${MPLCONFIGDIR:-$(mktemp -d)} /usr/bin/python3 "$ROOT/tools/ah-scenario" \
	draw cmu "$ROOT/build/demo/course.png" --duration $((${DEMO_SECS:-100} * 10))
echo "== the course and its links over time: build/demo/course.png"
