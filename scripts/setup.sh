#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything the project needs on a Debian 12 machine, as root.
# Idempotent and quick when everything is already there.
#
#   scripts/setup.sh          install what is missing
#   scripts/setup.sh --check  exit 0 if nothing is missing, 1 otherwise
#   scripts/setup.sh --backports-source
#                             print the bookworm-backports source it would
#                             write (nothing when another source has it)
#   scripts/setup.sh --backports
#                             only write that source (or remove ours when
#                             another source has it); no apt-get update
#
# bookworm-backports (the 6.12 kernel) comes from the archive the machine's
# own bookworm source names (sources.list, sources.list.d/*.list and
# *.sources): a mirror, a proxy or mirror+file: keeps working.  Only
# Debian's address when no bookworm source is found.  AH_APT_DIR (default
# /etc/apt) is the directory read and written, for testing.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=$ROOT/.venv
VIRTME_NG_VERSION=1.42
APT_DIR=${AH_APT_DIR:-/etc/apt}
BPO=$APT_DIR/sources.list.d/ah-bookworm-backports.sources
DEBIAN_URI=http://deb.debian.org/debian
DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

PKGS=(build-essential bc bison flex libelf-dev pkg-config libnl-3-dev
      libnl-genl-3-dev iproute2 ethtool iw kmod nftables iputils-ping
      traceroute iperf3 tcpdump tshark python3 python3-venv python3-scapy
      qemu-system-x86 busybox-static jq gojq rsync clang llvm libclang-rt-14-dev udev
      linux-image-amd64 linux-headers-amd64 linux-source-6.1 libssl-dev
      python3-matplotlib gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      wireguard-tools)
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

# apt_entries: every enabled "deb" source of APT_DIR, one line per suite
# and URI: "SUITE<tab>URI<tab>SIGNED_BY<tab>TRUSTED<tab>FILE" (SIGNED_BY
# "-" when none or an inline key, TRUSTED "-" or the value)
apt_entries() {
	local f
	for f in "$APT_DIR/sources.list" "$APT_DIR"/sources.list.d/*.list; do
		[[ -f $f ]] || continue
		# deb [ opt=value ... ] URI SUITE COMPONENT...
		awk -v file="$f" '
		{ sub(/#.*/, "") }
		$1 != "deb" { next }
		{
			line = $0
			sub(/^[ \t]*deb[ \t]+/, "", line)
			signed = "-"; trusted = "-"
			if (substr(line, 1, 1) == "[") {
				i = index(line, "]")
				if (!i)
					next
				n = split(substr(line, 2, i - 2), o)
				for (k = 1; k <= n; k++) {
					if (o[k] ~ /^signed-by=/)
						signed = substr(o[k], 11)
					if (o[k] ~ /^trusted=/)
						trusted = substr(o[k], 9)
				}
				line = substr(line, i + 1)
			}
			if (split(line, w) >= 2)
				printf "%s\t%s\t%s\t%s\t%s\n", w[2], w[1], signed, trusted, file
		}' "$f"
	done
	for f in "$APT_DIR"/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		# deb822 stanzas, separated by empty lines; "#" lines are
		# comments, lines that start with a blank continue a field
		awk -v file="$f" '
		function reset() {
			types = uris = suites = enabled = key = ""
			signed = trusted = "-"
		}
		function flush(  i, j, k, nt, nu, ns, t, u, s) {
			nt = split(types, t)
			for (k = 1; k <= nt; k++)
				if (t[k] == "deb" && tolower(enabled) != "no") {
					nu = split(uris, u)
					ns = split(suites, s)
					for (i = 1; i <= nu; i++)
						for (j = 1; j <= ns; j++)
							printf "%s\t%s\t%s\t%s\t%s\n", s[j], u[i], signed, trusted, file
					break
				}
			reset()
		}
		BEGIN { reset() }
		/^#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^[ \t]/ { if (key == "signed-by") signed = "-"; next }
		{
			i = index($0, ":")
			if (!i)
				next
			key = tolower(substr($0, 1, i - 1))
			val = substr($0, i + 1)
			gsub(/^[ \t]+|[ \t]+$/, "", val)
			if (key == "types") types = val
			else if (key == "uris") uris = val
			else if (key == "suites") suites = val
			else if (key == "enabled") enabled = val
			else if (key == "trusted") trusted = val
			else if (key == "signed-by") signed = val == "" ? "-" : val
		}
		END { flush() }' "$f"
	done
}

# other_backports: a source other than ours has bookworm-backports
other_backports() {
	apt_entries | awk -F'\t' -v ours="$BPO" \
		'$1 == "bookworm-backports" && $5 != ours { found = 1 } END { exit !found }'
}

# backports_source: the deb822 source of bookworm-backports from the
# archive of the first bookworm source (not a CD), with its key
backports_source() {
	local suite uri signed trusted file
	IFS=$'\t' read -r suite uri signed trusted file < <(apt_entries |
		awk -F'\t' -v ours="$BPO" '$1 == "bookworm" && $2 !~ /^cdrom:/ &&
			$5 != ours { print; exit }') || true
	if [[ -z ${uri:-} ]]; then
		log "no bookworm source in $APT_DIR: bookworm-backports from $DEBIAN_URI"
		uri=$DEBIAN_URI
	fi
	[[ ${signed:--} != - ]] || signed=$DEBIAN_KEYRING
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: %s\n' \
		"$uri" "$signed"
	[[ ${trusted:--} == - ]] || printf 'Trusted: %s\n' "$trusted"
}

# backports_ok: nothing to write (another source has it, or ours is current)
backports_ok() {
	other_backports ||
		{ [[ -f $BPO ]] && [[ "$(cat "$BPO")" == "$(backports_source 2>/dev/null)" ]]; }
}

# ensure_backports: write (or rewrite) our source when it is missing or
# stale; remove it when another source has bookworm-backports
ensure_backports() {
	local src
	if other_backports; then
		[[ ! -f $BPO ]] || {
			log "removing $BPO (another source has bookworm-backports)"
			rm -f "$BPO"
		}
	elif ! backports_ok; then
		src=$(backports_source)
		log "bookworm-backports from $(sed -n 's/^URIs: //p' <<< "$src") ($BPO)"
		mkdir -p "${BPO%/*}"
		printf '%s\n' "$src" > "$BPO.tmp"
		mv "$BPO.tmp" "$BPO"
	fi
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

case ${1:-} in
--backports-source)
	other_backports || backports_source
	exit 0 ;;
--backports)
	ensure_backports
	exit 0 ;;
esac

need_apt=0
backports_ok || need_apt=1
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
	ensure_backports
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
