#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a test kernel with virtme-ng (host root file system shared read-only,
# build/ writable) and run one command in it as root.
#
#   scripts/vm.sh KVER COMMAND...
#
# KVM is used when it really boots a guest; nested KVM on these machines
# exposes /dev/kvm but a guest kernel never gets going, so a short real boot
# decides, and the answer is cached per host kernel in ~/.cache/ah-stack.
# ACCEL=kvm|tcg overrides.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PATH=$ROOT/.venv/bin:$PATH
KVER=$1
shift
MEM=${VM_MEMORY:-2G}
CPUS=${VM_CPUS:-2}

# vng execs qemu, so a timeout on vng reaches qemu itself.
vng_cmd() {
	local accel=$1
	shift
	VNG=(vng -r "$KVER" --cpus "$CPUS" --memory "$MEM"
	     --rwdir="$ROOT/build" --cwd "$ROOT")
	[[ $accel == kvm ]] || VNG+=(--disable-kvm)
	VNG+=(--exec "$*")
}

detect_accel() {
	local cache=${XDG_CACHE_HOME:-$HOME/.cache}/ah-stack/accel key
	key="$(uname -r) $(stat -c %i /dev/kvm 2>/dev/null || echo none)"
	if [[ -f $cache && "$(head -1 "$cache")" == "$key" ]]; then
		tail -1 "$cache"
		return
	fi
	local accel=tcg
	if [[ -w /dev/kvm ]] &&
	   timeout -s KILL 5 python3 "$ROOT/scripts/kvm-probe.py" &&
	   vng_cmd kvm echo AH_KVM_BOOTED &&
	   timeout -s KILL 25 "${VNG[@]}" </dev/null 2>/dev/null |
		grep -q AH_KVM_BOOTED; then
		accel=kvm
	fi
	mkdir -p "$(dirname "$cache")"
	printf '%s\n%s\n' "$key" "$accel" > "$cache"
	echo "$accel"
}

ACCEL=${ACCEL:-$(detect_accel)}
echo "# vm: kernel $KVER, accel $ACCEL" >&2
vng_cmd "$ACCEL" "$@"
# The guest console emits carriage returns and terminal escapes.
"${VNG[@]}" </dev/null 2>&1 | sed -u -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\r//g'
exit "${PIPESTATUS[0]}"
