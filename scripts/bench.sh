#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the first test kernel (or KVERS) and run every benchmark
# in bench/, in one guest; results go to build/bench.md and are quoted in
# docs/benchmarks.md with this command to reproduce them.
# BENCH="streams dsr" runs only those of bench/*.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
K=${KVERS:-$("$ROOT/scripts/kernels.sh" | sed -n 1p)}
K=${K%% *}
OUT=$ROOT/build/bench-$K.md
LIST=
for b in ${BENCH:-}; do
	[[ -x $ROOT/bench/$b.sh ]] || { echo "bench: no bench/$b.sh" >&2; exit 2; }
	LIST+=" bench/$b.sh"
done
# each bench's heading says which of how many it is and how long the
# run has taken so far
"$ROOT/scripts/vm.sh" "$K" "set -- ${LIST:-bench/*.sh}; i=0; t0=\$(date +%s); for b; do i=\$((i + 1)); echo \"## \$b (\$i of \$#, \$((\$(date +%s) - t0)) s into the run)\"; \$b; done" |
	grep --line-buffered -v '^\[ *[0-9.]*\] ' | tee "$OUT"
if [[ -s $ROOT/build/bench-fig8/with.rto ]]; then
	/usr/bin/python3 "$ROOT/bench/plot/plot-fig8.py" "$ROOT/build/bench-fig8" \
		"$ROOT/docs/fig8-rto.png" && echo "bench: docs/fig8-rto.png"
fi
if [[ -s $ROOT/build/bench-fig3/points ]]; then
	/usr/bin/python3 "$ROOT/bench/plot/plot-fig3.py" "$ROOT/build/bench-fig3" \
		"$ROOT/docs/fig3-transit.png" && echo "bench: docs/fig3-transit.png"
fi
if [[ -s $ROOT/build/bench-streams/1k ]]; then
	/usr/bin/python3 "$ROOT/bench/plot/plot-streams.py" "$ROOT/build/bench-streams" \
		"$ROOT/docs" && echo "bench: docs/streams-*.png"
fi
echo "bench: results in $OUT"
