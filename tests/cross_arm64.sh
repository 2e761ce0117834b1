#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The arm64 cross build (scripts/cross-arm64.sh: Debian's 6.1 arm64
# headers, gcc-aarch64-linux-gnu), in KTAP: one result per module (the .ko
# is a 64-bit little-endian AArch64 relocatable whose vermagic is the arm64
# kernel's) and per tool (ahctl, dsrd: AArch64 executables).  Nothing runs
# on arm64: no boot, no load.
#
#     bash tests/cross_arm64.sh
#
# Exit status: 0 all passed, 1 a failure, 4 (one "# SKIP" result) when the
# toolchain or the headers cannot be had (scripts/setup.sh installs them).
# About 35 s with the headers cached and nothing built yet, 3 s when
# nothing changed, plus some seconds for the first download (~15 MB).
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOG=$ROOT/build/cross-arm64.log
MODULES="macfilter/macfilter dsr/dsr dsr/sch_dsrprio
	 orinoco_transit/orinoco_transit orinoco_transit/piosim"
TOOLS="ahctl/ahctl dsrd/dsrd"

mkdir -p "$ROOT/build"
t0=$(date +%s)
"$ROOT/scripts/cross-arm64.sh" > "$LOG" 2>&1
rc=$?
took=$(($(date +%s) - t0))

echo "KTAP version 1"
if [[ $rc == 4 ]]; then
	echo "1..1"
	echo "ok 1 arm64 cross build # SKIP $(grep '^cross-arm64:' "$LOG" | tail -1 |
		sed 's/^cross-arm64: //')"
	exit 4
fi
echo "1..$(($(wc -w <<< "$MODULES") + $(wc -w <<< "$TOOLS")))"
echo "# scripts/cross-arm64.sh: exit $rc in $took s"
if [[ $rc != 0 ]]; then
	tail -30 "$LOG" | sed 's/^/# /'
fi
KVER=$(awk '$1 == "MODULES" { print $2; exit }' "$LOG")
want="$KVER SMP mod_unload modversions aarch64"

n=0
failed=0
result() {	# result OK DESC [DIRECTIVE]
	n=$((n + 1))
	[[ $1 == 1 ]] || failed=$((failed + 1))
	echo "$([[ $1 == 1 ]] || echo "not ")ok $n $2${3:+ # $3}"
}

# elf FILE TYPE...: a 64-bit little-endian AArch64 ELF of one of TYPE
elf() {
	local h t
	h=$(LC_ALL=C readelf -h "$1" 2>/dev/null) || return 1
	grep -q 'Class: *ELF64' <<< "$h" &&
		grep -q "Data: *2's complement, little endian" <<< "$h" &&
		grep -q 'Machine: *AArch64' <<< "$h" || return 1
	shift
	for t in "$@"; do
		grep -q "Type: *$t " <<< "$h" && return 0
	done
	return 1
}

for m in $MODULES; do
	ko=$ROOT/build/$KVER/kmod/$m.ko
	name=${m#*/}.ko
	if [[ -z $KVER || ! -f $ko ]]; then
		echo "# ${ko#"$ROOT"/}: not built"
		result 0 "$name for arm64"
	elif ! elf "$ko" REL; then
		echo "# $(file -b "$ko" 2>/dev/null || readelf -h "$ko" | grep -E 'Class|Machine|Type')"
		result 0 "$name for arm64"
	elif [[ $(modinfo -F vermagic "$ko") != "$want" ]]; then
		echo "# vermagic '$(modinfo -F vermagic "$ko")', want '$want'"
		result 0 "$name for arm64"
	else
		result 1 "$name for arm64"
	fi
done

skipped=$(grep -o 'USERSPACE arm64: skipped: .*' "$LOG" | sed 's/^USERSPACE arm64: skipped: //')
for t in $TOOLS; do
	bin=$ROOT/build/arm64/userspace/$t
	name=${t#*/}
	if [[ -n $skipped ]]; then
		result 1 "$name for arm64" "SKIP $skipped"
	elif [[ -f $bin ]] && elf "$bin" DYN EXEC; then
		result 1 "$name for arm64"
	else
		echo "# ${bin#"$ROOT"/}: $( [[ -f $bin ]] && file -b "$bin" || echo not built)"
		result 0 "$name for arm64"
	fi
done
[[ $failed == 0 ]]
