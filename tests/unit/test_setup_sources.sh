#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/setup.sh takes bookworm-backports from the archive of the
# machine's own bookworm source (one-line and deb822 files, a mirror, a
# proxy, mirror+file:), writes it once, and leaves it alone when another
# source has it.  Runs setup.sh on fake apt directories (AH_APT_DIR): no
# root, no apt.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SETUP=$ROOT/scripts/setup.sh
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
n=0
fail=0

# apt_dir NAME: a fresh fake /etc/apt
apt_dir() {
	rm -rf "${D:?}/$1"
	mkdir -p "$D/$1/sources.list.d"
	echo "$D/$1"
}

# expect NAME DIR URI [SIGNED_BY [TRUSTED]]: setup.sh would write a source
# of bookworm-backports at URI ("" for none at all)
expect() {
	local name=$1 dir=$2 uri=$3 signed=${4:-/usr/share/keyrings/debian-archive-keyring.gpg}
	local want got
	if [[ -n $uri ]]; then
		want=$(printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: %s\n' \
			"$uri" "$signed")
		[[ -z ${5:-} ]] || want+=$'\n'"Trusted: $5"
	else
		want=
	fi
	got=$(AH_APT_DIR=$dir "$SETUP" --backports-source 2>/dev/null)
	n=$((n + 1))
	if [[ $got == "$want" ]]; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		sed 's/^/# want: /' <<< "$want"
		sed 's/^/# got:  /' <<< "$got"
		fail=1
	fi
}

# ok NAME CMD...: one more result
ok() {
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		fail=1
	fi
}

not_there() { [[ ! -e $1 ]]; }

echo "KTAP version 1"
echo "1..13"

a=$(apt_dir deb822)
cat > "$a/sources.list.d/debian.sources" <<'EOF'
Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
expect "deb822: Debian's own archive" "$a" http://deb.debian.org/debian

a=$(apt_dir mirror)
cat > "$a/sources.list" <<'EOF'
# a local mirror
deb-src http://src.example/debian bookworm main
deb [ arch=amd64 signed-by=/etc/apt/keyrings/mirror.gpg ] http://mirror.example.org/debian/ bookworm main contrib
deb http://security.debian.org/debian-security bookworm-security main
EOF
expect "sources.list: a mirror, with its key" "$a" http://mirror.example.org/debian/ \
	/etc/apt/keyrings/mirror.gpg

a=$(apt_dir proxy)
echo "deb http://127.0.0.1:3142/deb.debian.org/debian bookworm main" > "$a/sources.list.d/proxy.list"
expect "*.list: an apt-cacher proxy" "$a" http://127.0.0.1:3142/deb.debian.org/debian

a=$(apt_dir cloud)
cat > "$a/sources.list.d/debian.sources" <<'EOF'
Types: deb deb-src
URIs: mirror+file:///etc/apt/mirrors/debian.list
Suites: bookworm bookworm-updates
Components: main
EOF
expect "deb822: mirror+file (a cloud image)" "$a" mirror+file:///etc/apt/mirrors/debian.list

a=$(apt_dir disabled)
cat > "$a/sources.list.d/a.sources" <<'EOF'
Enabled: no
Types: deb
URIs: http://disabled.example/debian
Suites: bookworm

Types: deb-src
URIs: http://src-only.example/debian
Suites: bookworm

Types: deb
URIs: http://on.example/debian
Suites: bookworm
Trusted: yes
EOF
expect "disabled and deb-src stanzas are not archives; Trusted carries over" "$a" \
	http://on.example/debian /usr/share/keyrings/debian-archive-keyring.gpg yes

a=$(apt_dir inline)
cat > "$a/sources.list.d/a.sources" <<'EOF'
Types: deb
URIs: http://inline.example/debian
Suites: bookworm
Signed-By:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 xyz
 -----END PGP PUBLIC KEY BLOCK-----
EOF
expect "an inline key: Debian's keyring instead" "$a" http://inline.example/debian

a=$(apt_dir none)
echo "deb cdrom:[Debian GNU/Linux 12]/ bookworm main" > "$a/sources.list"
expect "no bookworm archive (a CD only): Debian's address" "$a" http://deb.debian.org/debian

a=$(apt_dir have)
printf 'deb http://m.example/debian bookworm main\ndeb http://m.example/debian bookworm-backports main\n' \
	> "$a/sources.list"
expect "another source has bookworm-backports: nothing to write" "$a" ""

a=$(apt_dir commented)
printf 'deb http://m.example/debian bookworm main\n# deb http://m.example/debian bookworm-backports main\n' \
	> "$a/sources.list"
expect "a commented-out bookworm-backports does not count" "$a" http://m.example/debian

# writing it: once, then never again; our own file is neither the
# bookworm source nor "another source"
a=$(apt_dir write)
echo "deb http://w.example/debian bookworm main" > "$a/sources.list"
AH_APT_DIR=$a "$SETUP" --backports 2>/dev/null
bpo=$a/sources.list.d/ah-bookworm-backports.sources
ok "--backports writes the source" grep -qx 'URIs: http://w.example/debian' "$bpo"
touch -d '2000-01-01' "$bpo"
AH_APT_DIR=$a "$SETUP" --backports 2>/dev/null
ok "a second run leaves it alone (idempotent)" \
	test "$(stat -c %Y "$bpo")" == "$(date -d 2000-01-01 +%s)"
echo "deb http://new.example/debian bookworm main" > "$a/sources.list"
AH_APT_DIR=$a "$SETUP" --backports 2>/dev/null
ok "the bookworm source moved to another mirror: rewritten to follow it" \
	grep -qx 'URIs: http://new.example/debian' "$bpo"
echo "deb http://new.example/debian bookworm-backports main" > "$a/sources.list.d/mine.list"
AH_APT_DIR=$a "$SETUP" --backports 2>/dev/null
ok "the admin added bookworm-backports: ours, now a duplicate, goes" not_there "$bpo"
exit "$fail"
