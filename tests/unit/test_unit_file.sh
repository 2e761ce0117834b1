#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dist/dsrd.service passes "systemd-analyze verify" (the binary paths
# pointed at this tree's build, since nothing is installed here), and the
# notify settings dsrd's protocol code relies on are there.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
UNIT=$ROOT/dist/dsrd.service
echo "KTAP version 1"
if ! command -v systemd-analyze >/dev/null; then
	echo "1..0 # SKIP systemd-analyze not installed"
	exit 0
fi
echo "1..2"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
sed -e "s|/usr/sbin/dsrd|$ROOT/userspace/dsrd/dsrd|g" "$UNIT" > "$d/dsrd.service"
out=$(systemd-analyze verify --man=no "$d/dsrd.service" 2>&1)
rc=$?
[[ -n $out ]] && sed 's/^/# /' <<< "$out"
if [[ $rc == 0 && -z $(grep dsrd.service <<< "$out") ]]; then
	echo "ok 1 systemd-analyze verify: dsrd.service is clean"
else
	echo "not ok 1 systemd-analyze verify: dsrd.service is clean"
	fail=1
fi
if grep -qx 'Type=notify' "$UNIT" && grep -q '^WatchdogSec=' "$UNIT" &&
   grep -qx 'CapabilityBoundingSet=CAP_NET_ADMIN' "$UNIT" &&
   grep -q '^RestrictAddressFamilies=.*AF_NETLINK' "$UNIT"; then
	echo "ok 2 notify with watchdog, CAP_NET_ADMIN only, netlink allowed"
else
	echo "not ok 2 notify with watchdog, CAP_NET_ADMIN only, netlink allowed"
	fail=1
fi
exit "${fail:-0}"
