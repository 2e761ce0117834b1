#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The testbed across two hosts (docs/testbed.md), on the host: two guests
# of KVER joined by QEMU's socket networking (UDP on the host's loopback:
# each guest's second NIC sends to the other's port), each running
# selftests/lib/testbed/guest.sh for its half of two.inv.  make check runs
# it once, with the first test kernel (scripts/check.sh).
#
#   selftests/twohost.sh KVER
#   TWOHOST_MODE=capacity selftests/twohost.sh KVER   the overlay's capacity
#       against the underlay and one host's hub (docs/testbed.md; not a test)
#
# Results: $AH_RESULTS/twohost/KVER/{a,b}.ktap (written by the guests),
# console-{a,b}.log; a guest that did not get to its end is a failure.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KVER=${1:?usage: twohost.sh KVER}
RES=${AH_RESULTS:-$ROOT/build/results}/twohost/$KVER
TIMEOUT=${TWOHOST_TIMEOUT:-900}

rm -rf "$RES"
mkdir -p "$RES"
# two free UDP ports on the loopback (QEMU binds them a moment later)
read -r PA PB < <(python3 -c '
import socket
s = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')

t0=$(date +%s)
pids=()
for role in a b; do
	if [[ $role == a ]]; then mine=$PA peer=$PB n=1; else mine=$PB peer=$PA n=2; fi
	VM_CPUS=${VM_CPUS:-1} VM_MEMORY=${VM_MEMORY:-1G} \
	VM_QEMU_OPTS="-netdev socket,id=ul,udp=127.0.0.1:$peer,localaddr=127.0.0.1:$mine -device virtio-net-pci,netdev=ul,mac=52:54:00:7b:00:0$n" \
		timeout -k 30 "$TIMEOUT" "$ROOT/scripts/vm.sh" "$KVER" \
		"AH_RESULTS=${AH_RESULTS:-$ROOT/build/results} selftests/lib/testbed/guest.sh $role ${TWOHOST_MODE:-}" \
		> "$RES/console-$role.log" 2>&1 &
	pids+=($!)
done
wait "${pids[@]}"
for role in a b; do
	if [[ -f $RES/$role.done ]]; then
		cat "$RES/$role.ktap"
		continue
	fi
	echo "not ok 1 twohost $role: guest did not finish (see ${RES#"$ROOT"/}/console-$role.log)" |
		tee "$RES/$role-vm.ktap"
	tail -n 60 "$RES/console-$role.log" | sed 's/^/# console: /'
done
echo "# test twohost took $(($(date +%s) - t0)) s"
