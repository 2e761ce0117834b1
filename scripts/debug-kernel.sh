#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug kernel of `make check-debug` (KASAN, KMEMLEAK, lockdep,
# UBSAN...) from Debian's linux-source-6.1, once per machine: the tree is
# extracted to DIR/src and built in DIR/obj, and a rebuild happens only when
# selftests/config-debug, this script or the source package changes (make's
# own dependency tracking does the rest).  DIR is outside the work tree
# (~/.cache/ah-stack/debug-kernel, or $AH_DEBUG_KERNEL_DIR) so that a fresh
# clone on the same machine, as CI's is, reuses the ~8 minute build.
#
#   scripts/debug-kernel.sh          build if needed; print the build dir
#   scripts/debug-kernel.sh --config only (re)generate and check the .config
#
# AH_DEBUG_SERIES=6.12 builds the same configuration from linux-source-6.12
# instead (in debug-kernel-6.12 beside the default cache): the lane's kernel
# is 6.1, and this one is for hunting, under KASAN, what only 6.12 shows.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SERIES=${AH_DEBUG_SERIES:-6.1}
PKG=linux-source-$SERIES
TARBALL=/usr/src/$PKG.tar.xz
FRAG=$ROOT/selftests/config-debug
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/ah-stack/debug-kernel
[[ $SERIES == 6.1 ]] || CACHE=$CACHE-$SERIES
DIR=${AH_DEBUG_KERNEL_DIR:-$CACHE}
SRC=$DIR/src
OBJ=$DIR/obj
JOBS=${JOBS:-$(nproc)}

log() { echo "debug-kernel: $*" >&2; }

[[ -f $TARBALL ]] || { log "$TARBALL missing (package $PKG)"; exit 1; }
# one builder at a time per cache (two clones checking at once)
mkdir -p "$DIR"
exec 9> "$DIR/.lock"
flock 9
pkgver=$(dpkg-query -W -f='${Version}' "$PKG")

# 1. the source tree, once per package version
if [[ "$(cat "$SRC/.ah-version" 2>/dev/null)" != "$pkgver" ]]; then
	log "extracting $PKG $pkgver"
	rm -rf "$SRC" "$OBJ"
	mkdir -p "$SRC"
	tar -xJf "$TARBALL" -C "$SRC" --strip-components=1
	echo "$pkgver" > "$SRC/.ah-version"
fi

# 2. the config, regenerated when its inputs change
key=$( (echo "$pkgver"; cat "$FRAG" "$0") | sha256sum | cut -d' ' -f1)
if [[ "$(cat "$OBJ/.ah-config-key" 2>/dev/null)" != "$key" ]]; then
	log "configuring (allnoconfig + selftests/config-debug)"
	mkdir -p "$OBJ"
	make -s -C "$SRC" O="$OBJ" ARCH=x86_64 allnoconfig >/dev/null
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" \
		"$FRAG" >/dev/null
	make -s -C "$SRC" O="$OBJ" ARCH=x86_64 olddefconfig >/dev/null
	# Every line of the fragment must have survived (a dependency not met
	# silently drops an option otherwise).
	missing=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) want=$line ;;
		"# CONFIG_"*" is not set") want=$line ;;
		*) continue ;;
		esac
		name=${want#\# }
		name=${name%%[= ]*}
		have=$(grep -E "^($name=|# $name is not set)" "$OBJ/.config" || true)
		if [[ $want == "# "* && -z $have ]]; then
			continue	# not set and not even visible: fine
		fi
		if [[ $have != "$want" ]]; then
			log "config: wanted '$want', got '${have:-nothing}'"
			missing=1
		fi
	done < "$FRAG"
	[[ $missing == 0 ]] || exit 1
	echo "$key" > "$OBJ/.ah-config-key"
fi
[[ ${1:-} == --config ]] && { echo "$OBJ"; exit 0; }

# 3. the build (incremental; a no-op when nothing changed)
if [[ ! -f $OBJ/.ah-built || $OBJ/.config -nt $OBJ/.ah-built ]]; then
	log "building $(make -s -C "$SRC" O="$OBJ" kernelrelease) with $JOBS jobs"
	t0=$(date +%s)
	make -s -C "$SRC" O="$OBJ" ARCH=x86_64 -j"$JOBS" bzImage modules \
		> "$DIR/build.log" 2>&1 || {
		tail -40 "$DIR/build.log" >&2
		exit 1
	}
	log "built in $(( $(date +%s) - t0 )) s"
	touch "$OBJ/.ah-built"
fi
echo "$OBJ"
