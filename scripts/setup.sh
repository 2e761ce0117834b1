#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything the project needs on a Debian 12 machine, as root.
# Idempotent and quick when everything is already there.
#
#   scripts/setup.sh          install what is missing
#   scripts/setup.sh --check  exit 0 if nothing is missing, 1 otherwise
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=$ROOT/.venv
VIRTME_NG_VERSION=1.42
BPO=/etc/apt/sources.list.d/ah-bookworm-backports.sources

PKGS=(build-essential bc bison flex libelf-dev pkg-config libnl-3-dev
      libnl-genl-3-dev iproute2 ethtool iw kmod nftables iputils-ping
      traceroute iperf3 tcpdump tshark python3 python3-venv python3-scapy
      qemu-system-x86 busybox-static jq rsync clang llvm libclang-rt-14-dev udev
      linux-image-amd64 linux-headers-amd64 linux-source-6.1 libssl-dev
      python3-matplotlib gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
# apt knows arm64 packages: scripts/cross-arm64.sh downloads (never installs)
# the arm64 kernel headers and libnl
FOREIGN_ARCH=arm64

log() { echo "setup: $*" >&2; }

missing_pkgs() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

# The newest 6.12 backports kernel whose image and headers both exist.
pick_612() {
	local v
	v=$(ls /boot/vmlinuz-6.12.*+deb12-amd64 2>/dev/null | sort -V | tail -1)
	if [[ -n "$v" && -d /lib/modules/${v#/boot/vmlinuz-}/build ]]; then
		echo "${v#/boot/vmlinuz-}"
		return
	fi
	apt-cache search --names-only '^linux-headers-6\.12\..*\+deb12-amd64$' |
		awk '{print $1}' | sed 's/^linux-headers-//' | sort -V |
		while read -r v; do
			apt-cache show "linux-image-$v" >/dev/null 2>&1 && echo "$v"
		done | tail -1
}

need_apt=0
[[ -f $BPO ]] || grep -rqs bookworm-backports /etc/apt/sources.list \
	/etc/apt/sources.list.d/ || need_apt=1
[[ -z "$(missing_pkgs "${PKGS[@]}")" ]] || need_apt=1
ls /boot/vmlinuz-6.12.*+deb12-amd64 >/dev/null 2>&1 || need_apt=1
dpkg --print-foreign-architectures | grep -qx "$FOREIGN_ARCH" || need_apt=1
[[ -x $VENV/bin/vng ]] && "$VENV/bin/vng" --version 2>/dev/null |
	grep -q "$VIRTME_NG_VERSION" || need_venv=1

if [[ "${1:-}" == --check ]]; then
	[[ $need_apt == 0 && -z "${need_venv:-}" ]]
	exit
fi
if [[ $(id -u) != 0 && ( $need_apt == 1 ) ]]; then
	log "packages are missing and installing them needs root"
	exit 1
fi

if [[ $need_apt == 1 ]]; then
	export DEBIAN_FRONTEND=noninteractive
	if ! grep -rqs bookworm-backports /etc/apt/sources.list \
	     /etc/apt/sources.list.d/; then
		log "adding the bookworm-backports apt source"
		cat > "$BPO" <<-EOS
		Types: deb
		URIs: http://deb.debian.org/debian
		Suites: bookworm-backports
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
		EOS
	fi
	if ! dpkg --print-foreign-architectures | grep -qx "$FOREIGN_ARCH"; then
		log "adding the $FOREIGN_ARCH architecture to apt"
		dpkg --add-architecture "$FOREIGN_ARCH"
	fi
	log "apt-get update"
	apt-get update -qq
	k612=$(pick_612)
	[[ -n "$k612" ]] || { log "no 6.12 backports kernel found"; exit 1; }
	todo=$(missing_pkgs "${PKGS[@]}" "linux-image-$k612" "linux-headers-$k612")
	if [[ -n "$todo" ]]; then
		log "installing: $(echo $todo)"
		# initramfs images are not needed: virtme-ng boots without them
		apt-get install -y -qq --no-install-recommends \
			$(missing_pkgs "${PKGS[@]}") >&2
		apt-get install -y -qq --no-install-recommends \
			-t bookworm-backports \
			"linux-image-$k612" "linux-headers-$k612" >&2
	fi
fi

if [[ -n "${need_venv:-}" ]]; then
	log "installing virtme-ng $VIRTME_NG_VERSION into $VENV"
	/usr/bin/python3 -m venv "$VENV"
	"$VENV/bin/pip" install -q --disable-pip-version-check \
		"virtme-ng==$VIRTME_NG_VERSION" >&2
fi
log "ready: kernels $("$ROOT/scripts/kernels.sh" | tr '\n' ' ')"
