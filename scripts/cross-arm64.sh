#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make cross-arm64: the modules built for Debian 12's arm64 kernel of the
# installed 6.1 test kernel's ABI (6.1.0-56-amd64 -> 6.1.0-56-arm64), on
# this amd64 host, with gcc-aarch64-linux-gnu; and ahctl and dsrd against
# Debian's arm64 libnl.  Nothing is installed for arm64: the .debs
# (linux-headers-ABI-arm64 and -common, libnl-3/libnl-genl-3 and their
# -dev) are fetched with "apt-get download" (scripts/setup.sh adds the arm64
# architecture to apt) and unpacked once into DIR
# (~/.cache/ah-stack/arm64, or $AH_ARM64_DIR).  The arm64 headers' scripts
# and tools are the host's linux-kbuild (amd64 binaries; modpost reads any
# 64-bit little-endian ELF), as the amd64 headers' are.
#
#   scripts/cross-arm64.sh              modules and userspace
#   scripts/cross-arm64.sh --drivers    the hooked orinoco/hostap drivers too
#   scripts/cross-arm64.sh --modules    the modules only
#
#   ARM64_KVER=6.1.0-56-arm64   another arm64 kernel release (its headers
#                               must be in apt's lists)
#   CROSS_COMPILE=aarch64-linux-gnu-
#
# Output, as for the host's kernels: build/ARM64_KVER/kmod/**/*.ko (and
# build/ARM64_KVER/drivers with --drivers), build/arm64/userspace/ahctl/ahctl
# and build/arm64/userspace/dsrd/dsrd; "make install KVERS=6.1.0-56-arm64
# USERSPACE_DIR=build/arm64/userspace DESTDIR=/rootfs" stages them.
# Exit status: 0 built (userspace may be skipped, with a "skipped" line);
# 1 a build failed; 4 the toolchain or the headers cannot be had.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${AH_ARM64_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ah-stack/arm64}
export CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
export ARCH=arm64
DRIVERS=0
USERSPACE=1
case ${1:-} in
--drivers) DRIVERS=1 ;;
--modules) USERSPACE=0 ;;
"") ;;
*) echo "usage: $0 [--drivers|--modules]" >&2; exit 2 ;;
esac

log() { echo "cross-arm64: $*" >&2; }
unavailable() { log "$*"; exit 4; }

# apt-get download as root leaves the fetching to root (no _apt sandbox:
# the cache is root's own)
apt_download() {
	local sandbox=()
	[[ $(id -u) == 0 ]] && sandbox=(-o APT::Sandbox::User=root)
	apt-get download -q=2 "${sandbox[@]}" "$@" >&2
}

# debs DEST PKG...: download PKG... (NAME[:ARCH][=VERSION]) and unpack them
# into DEST; a PKG=VERSION no longer in the archive is taken at the
# candidate version instead
debs() {
	local dest=$1 tmp p d
	shift
	tmp=$(mktemp -d "$DIR/dl.XXXXXX")
	for p in "$@"; do
		(cd "$tmp" && apt_download "$p") ||
			{ [[ $p == *=* ]] && (cd "$tmp" && apt_download "${p%%=*}") &&
			  log "${p%%=*}: version ${p#*=} not in apt's lists, took the candidate"; } ||
			{ rm -rf "$tmp"; return 1; }
	done
	for d in "$tmp"/*.deb; do
		dpkg-deb -x "$d" "$dest"
	done
	rm -rf "$tmp"
}

command -v "${CROSS_COMPILE}gcc-12" >/dev/null ||
	unavailable "${CROSS_COMPILE}gcc-12 not found (package gcc-aarch64-linux-gnu: scripts/setup.sh)"

# the release: the ABI of the installed 6.1 test kernel, arm64 flavour
if [[ -z ${ARM64_KVER:-} ]]; then
	host=$("$ROOT/scripts/kernels.sh" | grep '^6\.1\.' | head -1 || true)
	[[ -n $host ]] || unavailable "no 6.1 test kernel installed (scripts/setup.sh) to take the ABI from; set ARM64_KVER"
	ARM64_KVER=${host%-amd64}-arm64
fi
KVER=$ARM64_KVER
ABI=${KVER%-arm64}

# the host's kbuild of that ABI, from its amd64 headers' scripts link
link=$(readlink "/usr/src/linux-headers-$ABI-amd64/scripts" 2>/dev/null || true)
KBUILD=${link%/scripts}
KBUILD=${KBUILD##*/}
[[ -n $KBUILD && -d /usr/lib/$KBUILD/scripts ]] ||
	unavailable "no host kbuild for $ABI (package linux-headers-$ABI-amd64)"
KBUILD_VER=$(dpkg-query -W -f='${Version}' "$KBUILD" 2>/dev/null || true)

mkdir -p "$DIR"
exec 9> "$DIR/.lock"
flock 9

# ---- headers ----------------------------------------------------------------
HDR=$DIR/$KVER/usr/src/linux-headers-$KVER
STAMP="linux-headers-$KVER $KBUILD $KBUILD_VER"
if [[ ! -f $DIR/$KVER/.stamp || $(cat "$DIR/$KVER/.stamp") != "$STAMP" ]]; then
	apt-cache show "linux-headers-$KVER:arm64" >/dev/null 2>&1 ||
		unavailable "linux-headers-$KVER:arm64 is not in apt's lists (scripts/setup.sh adds the arm64 architecture)"
	log "fetching linux-headers-$KVER (arm64) and linux-headers-$ABI-common $KBUILD_VER"
	rm -rf "$DIR/$KVER" "$DIR/$KVER.tmp"
	mkdir -p "$DIR/$KVER.tmp"
	v=${KBUILD_VER:+=$KBUILD_VER}
	debs "$DIR/$KVER.tmp" "linux-headers-$KVER:arm64$v" \
		"linux-headers-$ABI-common$v" ||
		unavailable "could not download the arm64 headers"
	# the flavour's Makefile includes the common one by absolute path
	sed -i "s|^include /usr/src/|include $DIR/$KVER/usr/src/|" \
		"$DIR/$KVER.tmp/usr/src/linux-headers-$KVER/Makefile"
	# scripts -> ../../lib/$KBUILD/scripts: the host's
	l=$(readlink "$DIR/$KVER.tmp/usr/src/linux-headers-$KVER/scripts")
	[[ $l == ../../lib/$KBUILD/scripts ]] ||
		unavailable "the arm64 headers want $l, the host has $KBUILD"
	mkdir -p "$DIR/$KVER.tmp/usr/lib"
	ln -s "/usr/lib/$KBUILD" "$DIR/$KVER.tmp/usr/lib/$KBUILD"
	mv "$DIR/$KVER.tmp" "$DIR/$KVER"
	echo "$STAMP" > "$DIR/$KVER/.stamp"
fi

# ---- modules ----------------------------------------------------------------
rc=0
"$ROOT/scripts/build-modules.sh" "$HDR" "$KVER" || rc=1
if [[ $rc == 0 && $DRIVERS == 1 ]]; then
	"$ROOT/scripts/build-drivers.sh" "$HDR" "$KVER" || rc=1
fi

# ---- userspace --------------------------------------------------------------
# a userspace that cannot be had is skipped, not failed: the modules are
# what needs the kernel's headers
userspace() {
	local sys=$DIR/sysroot out=$ROOT/build/arm64 pkgs v
	local -a pc
	command -v "${CROSS_COMPILE}gcc" >/dev/null &&
		[[ -f /usr/${CROSS_COMPILE%-}/include/stdio.h ]] || {
		echo "  USERSPACE arm64: skipped: no ${CROSS_COMPILE}gcc with its libc (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross)"
		return 0
	}
	pkgs="libnl-3-200 libnl-3-dev libnl-genl-3-200 libnl-genl-3-dev"
	v=$(apt-cache policy "libnl-3-dev:arm64" 2>/dev/null | awk '/Candidate:/ { print $2 }')
	if [[ ! -f $sys/.stamp || $(cat "$sys/.stamp") != "$pkgs $v" ]]; then
		if [[ -z $v || $v == "(none)" ]]; then
			echo "  USERSPACE arm64: skipped: libnl-3-dev:arm64 is not in apt's lists"
			return 0
		fi
		log "fetching libnl $v (arm64)"
		rm -rf "$sys"
		mkdir -p "$sys"
		# shellcheck disable=SC2046
		debs "$sys" $(printf '%s:arm64 ' $pkgs) || {
			echo "  USERSPACE arm64: skipped: could not download libnl for arm64"
			return 0
		}
		echo "$pkgs $v" > "$sys/.stamp"
	fi
	echo "  USERSPACE arm64"
	mkdir -p "$out"
	rsync -a --delete --exclude='*.o' --exclude='*.d' \
		--exclude=/userspace/ahctl/ahctl --exclude=/userspace/dsrd/dsrd \
		"$ROOT/userspace" "$ROOT/include" "$out/"
	# Debian's libnl is in /lib/aarch64-linux-gnu, its .pc files in /usr/lib
	pc=(PKG_CONFIG_SYSROOT_DIR="$sys"
	    PKG_CONFIG_LIBDIR="$sys/usr/lib/aarch64-linux-gnu/pkgconfig")
	env "${pc[@]}" make -s -C "$out/userspace" CC="${CROSS_COMPILE}gcc" \
		KMOD_DIR="$ROOT/kmod" \
		LDFLAGS="-L$sys/lib/aarch64-linux-gnu -Wl,-rpath-link,$sys/lib/aarch64-linux-gnu" \
		> "$out/build.log" 2>&1 || { cat "$out/build.log"; return 1; }
}
if [[ $rc == 0 && $USERSPACE == 1 ]]; then
	userspace || rc=1
fi
exit $rc
