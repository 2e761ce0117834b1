#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-modules.sh KDIR [RELEASE]: build every module for one kernel tree in
# build/RELEASE, a copy of the module sources of its own so that objects
# built for different kernels never mix.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KDIR=$1
# the release the modules' vermagic will carry: UTS_RELEASE (Debian's 6.1
# headers answer "make kernelrelease" with the upstream 6.1.N instead)
REL=${2:-}
[[ -n $REL ]] || REL=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
	"$KDIR/include/generated/utsrelease.h" 2>/dev/null || true)
[[ -n $REL ]] || REL=$(make -s -C "$KDIR" kernelrelease)
OUT=$ROOT/build/$REL
mkdir -p "$OUT"
cd "$ROOT"
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude=modules.order \
	--exclude=Module.symvers kmod include Kbuild "$OUT/"
echo "  MODULES $REL"
rc=0
make -s -C "$KDIR" M="$OUT" W="${W:-1}" modules > "$OUT/build.log" 2>&1 || rc=$?
grep -v 'Skipping BTF generation' "$OUT/build.log" || true
exit $rc
