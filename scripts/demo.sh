#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: boot the first test kernel (or KVERS) and run the demo in it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
K=${KVERS:-$("$ROOT/scripts/kernels.sh" | sed -n 1p)}
K=${K%% *}
"$ROOT/scripts/vm.sh" "$K" scripts/demo-guest.sh | grep -v '^\[ *[0-9.]*\] '
exit "${PIPESTATUS[0]}"
