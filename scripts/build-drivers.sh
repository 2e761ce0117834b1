#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-drivers.sh KDIR [RELEASE]: the Intersil PIO Wi-Fi drivers (orinoco,
# hostap; removed from Linux in 6.8) with the transit-drop hooks, for one
# kernel tree, into build/RELEASE/drivers/*.ko; after build-modules.sh,
# whose build/RELEASE/Module.symvers has the engine's ah_transit_* symbols.
#
# The sources are drivers/net/wireless/intersil/{orinoco,hostap} of Debian's
# linux-source-6.1 (/usr/src/linux-source-6.1.tar.xz), extracted once per
# package version into build/intersil-src/; each run patches a fresh copy
# with the patches in kmod/orinoco_transit/drivers (the repository holds
# no driver sources) and builds it with the Kbuild there.  Files the patches leave as they were keep their timestamps
# in build/RELEASE/drivers, so a rebuild compiles only what changed.
#
#   TRANSIT_SYMVERS=FILE  take the ah_transit_* symbols from FILE instead of
#                         build/RELEASE/Module.symvers, e.g. those of a stub
#                         module that exports them (name it orinoco_transit:
#                         modinfo's depends shows the exporter's name); the
#                         CRCs then are the stub's, so the .ko files load
#                         only with it.  "{KVER}" in FILE becomes RELEASE:
#     TRANSIT_SYMVERS=/tmp/stub/{KVER}/Module.symvers make drivers
#   DRIVERS_W=1           build with W=1 (foreign code: not by default)
#
# Skipped with a message, exit 0: a tree older than 6.1, and a kernel
# configured without what the drivers need (wireless extensions...).
# Fails: linux-source-6.1 missing, no ah_transit_* symbols, a patch that
# does not apply exactly, a build error.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KDIR=$1
# the release the modules' vermagic will carry: UTS_RELEASE (Debian's 6.1
# headers answer "make kernelrelease" with the upstream 6.1.N instead)
REL=${2:-}
[[ -n $REL ]] || REL=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
	"$KDIR/include/generated/utsrelease.h" 2>/dev/null || true)
[[ -n $REL ]] || REL=$(make -s -C "$KDIR" kernelrelease)
OUT=$ROOT/build/$REL/drivers
TARBALL=/usr/src/linux-source-6.1.tar.xz
PATCHDIR=$ROOT/kmod/orinoco_transit/drivers
# applied in this order, each must apply exactly (no fuzz)
PATCHES="orinoco-transit-hook.patch hostap-transit-hook.patch
	intersil-compat.patch"
SUB=drivers/net/wireless/intersil

say() { echo "  DRIVERS $REL: $*"; }
die() { echo "build-drivers.sh: $REL: $*" >&2; exit 1; }

# 1. what to build against
ver=${REL%%[!0-9.]*}
IFS=. read -r major minor _ <<< "$ver"
if (( ${major:-0} < 6 || (${major:-0} == 6 && ${minor:-0} < 1) )); then
	say "skipped: not a 6.1-or-later tree"
	exit 0
fi
conf=$KDIR/include/config/auto.conf
[[ -f $conf ]] || die "$conf missing: not a configured kernel tree"
missing=
for c in CFG80211 CFG80211_WEXT_EXPORT WIRELESS_EXT WEXT_SPY WEXT_PRIV \
	 CRYPTO_MICHAEL_MIC LIB80211 PCI; do
	grep -q "^CONFIG_$c=[ym]" "$conf" || missing+=" CONFIG_$c"
done
if [[ -n $missing ]]; then
	say "skipped: the kernel lacks$missing"
	exit 0
fi

if [[ ! -f $TARBALL ]]; then
	die "$TARBALL missing: install the Debian package linux-source-6.1 (scripts/setup.sh does)"
fi

SYMVERS=${TRANSIT_SYMVERS:-$ROOT/build/$REL/Module.symvers}
SYMVERS=${SYMVERS//\{KVER\}/$REL}
grep -qw ah_transit_rx "$SYMVERS" 2>/dev/null ||
	die "no ah_transit_* symbols in $SYMVERS (build orinoco_transit first: scripts/build-modules.sh)"

# 2. the sources, extracted once per linux-source-6.1 version
key=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
      stat -c '%s-%Y' "$TARBALL")
SRC=$ROOT/build/intersil-src/$key
mkdir -p "$ROOT/build/intersil-src"
exec 9> "$ROOT/build/intersil-src/.lock"
flock 9
if [[ ! -f $SRC/.done ]]; then
	say "extracting $SUB/{orinoco,hostap} from $TARBALL ($key)"
	rm -rf "$ROOT"/build/intersil-src/*	# other versions too
	mkdir -p "$SRC.tmp"
	tar -xJf "$TARBALL" -C "$SRC.tmp" --strip-components=1 --wildcards \
		"*/$SUB/orinoco/*" "*/$SUB/hostap/*"
	[[ -f $SRC.tmp/$SUB/orinoco/main.c && -f $SRC.tmp/$SUB/hostap/hostap_hw.c ]] ||
		die "$TARBALL has no $SUB/{orinoco,hostap}"
	mv "$SRC.tmp" "$SRC"
	touch "$SRC/.done"
fi
flock -u 9

# 3. a fresh copy, patched
mkdir -p "$OUT"
STAGE=$OUT/.stage
rm -rf "$STAGE"
mkdir -p "$STAGE/$SUB"
cp -a "$SRC/$SUB/orinoco" "$SRC/$SUB/hostap" "$STAGE/$SUB/"
for p in $PATCHES; do
	if ! out=$(patch -d "$STAGE" -p1 -N -F0 --no-backup-if-mismatch \
			-s < "$PATCHDIR/$p" 2>&1); then
		printf '%s\n' "$out" >&2
		die "$p does not apply to linux-source-6.1 $key"
	fi
done

# 4. into the build directory: changed files only, objects kept
for d in orinoco hostap; do
	rsync -r --checksum --delete --exclude='*.o' --exclude='*.ko' \
		--exclude='.*.cmd' --exclude='*.mod' --exclude='*.mod.c' \
		--exclude=modules.order "$STAGE/$SUB/$d/" "$OUT/$d/"
done
rm -rf "$STAGE"
cp "$PATCHDIR/Kbuild" "$OUT/Kbuild"

# 5. build
rm -f "$OUT"/*.ko
say "building"
rc=0
make -s -C "$KDIR" M="$OUT" W="${DRIVERS_W:-}" \
	AH_TRANSIT_INC="$ROOT/kmod/orinoco_transit" \
	KBUILD_EXTRA_SYMBOLS="$SYMVERS" modules > "$OUT/build.log" 2>&1 || rc=$?
grep -v 'Skipping BTF generation' "$OUT/build.log" || true
[[ $rc == 0 ]] || exit $rc
cp "$OUT"/orinoco/*.ko "$OUT"/hostap/*.ko "$OUT/"
say "$(cd "$OUT" && echo *.ko)"
