#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict over our kernel code, from Debian's linux-source-6.1.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CP=${CHECKPATCH:-}
if [[ -z $CP ]]; then
	SRC=$ROOT/build/linux-source-6.1
	if [[ ! -x $SRC/scripts/checkpatch.pl ]]; then
		tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -1)
		[[ -n $tarball ]] || { echo "install linux-source-6.1"; exit 1; }
		mkdir -p "$SRC"
		tar -xf "$tarball" -C "$SRC" --strip-components=1 \
			--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch'
	fi
	CP=$SRC/scripts/checkpatch.pl
fi
# Out of tree and built for several kernels: version checks are the point of
# compat.h; iterator macros reuse their arguments as the kernel's own do.
# CAMELCASE: with --no-tree checkpatch cannot see that the kernel's own
# type names (struct Qdisc, Qdisc_ops) are not ours to rename
IGNORE=FILE_PATH_CHANGES,LINUX_VERSION_CODE,CONSTANT_COMPARISON,MACRO_ARG_REUSE,CAMELCASE
find "$ROOT/kmod" "$ROOT/include" -name '*.[ch]' ! -name trace.h -print0 |
	xargs -0 "$CP" --strict --no-tree --terse --show-types \
		--ignore "$IGNORE" -f
# TRACE_EVENT() definitions are laid out as the kernel's own trace headers
# are (include/trace/events), which --strict's layout checks do not know.
find "$ROOT/kmod" -name trace.h -print0 |
	xargs -0 -r "$CP" --strict --no-tree --terse --show-types \
		--ignore "$IGNORE,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT" -f
