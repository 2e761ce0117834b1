#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a test kernel with virtme-ng (host root file system shared read-only,
# build/ writable) and run one command in it as root.
#
#   scripts/vm.sh KVER COMMAND...
#   scripts/vm.sh --accel   prints the accelerator guests use (kvm or tcg)
#   VM_CPUS=N VM_MEMORY=SIZE VM_APPEND="ARGS"  vCPUs, memory, kernel arguments
#   VM_QEMU_OPTS="ARGS"  more QEMU arguments (a NIC: selftests/twohost.sh)
#   VM_9P_CACHE=loose|none  the guest's cache of the host's root (9p): loose
#                (default) keeps what it read once; none is virtme-ng's own
#                mount, which reads every program start through 9p again
#
# KVM is used when it really boots a guest; nested KVM on these machines
# exposes /dev/kvm but a guest kernel never gets going, so a short real boot
# decides, and the answer is cached per host kernel in ~/.cache/ah-stack.
# ACCEL=kvm|tcg overrides.
#
# A guest that hangs must say where: a soft lockup, a hung task or an RCU
# stall panics it with every CPU's backtrace (the kernel command line
# below; Debian's kernels otherwise warn once and spin on), and a guest
# whose console has been silent for VM_STALL_SECS (default 240; the guest
# prints a heartbeat every 30 s, selftests/run_guest.sh)
# gets its vCPUs' registers printed from QEMU's monitor, then an NMI that
# makes the kernel panic with its own backtrace.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# scripts/vng/virtme-run: virtme-ng's, with the root mounted cache=loose
export PATH=$ROOT/scripts/vng:$ROOT/.venv/bin:$PATH
KVER=$1
shift
MEM=${VM_MEMORY:-2G}
CPUS=${VM_CPUS:-2}
STALL=${VM_STALL_SECS:-240}
# (loglevel 5: warnings, oopses and panics reach the console; vng's own
# loglevel=1 would keep all but the panic line in the kernel log)
# tsc=reliable: no clocksource watchdog on the TSC.  Under TCG the TSC
# skews against the HPET when the host is busy; the watchdog then marks it
# unstable at run time, which switches sched_clock's static key, and the
# live patch of that text oopsed a 6.12 guest ("Oops: int3" in
# sched_clock_cpu, 2026-11-26, short soak) as the other keys did before
# selftests/lib/keys.sh held them.  With the TSC trusted the key never moves.
CMDLINE="loglevel=5 softlockup_panic=1 softlockup_all_cpu_backtrace=1 hung_task_panic=1
	 sysctl.kernel.hung_task_timeout_secs=300 panic_on_rcu_stall=1
	 unknown_nmi_panic=1 panic_print=0x40 tsc=reliable"
# the root's 9p cache (VM_9P_CACHE, above): a kernel with 9p built in (the
# debug kernel) mounts the root itself, with the last rootflags= given;
# with an initramfs (Debian's kernels) scripts/vng/virtme-run does it
if [[ ${VM_9P_CACHE:-loose} != none ]]; then
	CMDLINE="$CMDLINE rootflags=version=9p2000.L,trans=virtio,access=any,msize=524288,cache=${VM_9P_CACHE:-loose}"
fi
CMDLINE="$CMDLINE ${VM_APPEND:-}"

# vng execs qemu, so a timeout on vng reaches qemu itself.
vng_cmd() {
	local accel=$1
	shift
	VNG=(vng -r "$KVER" --verbose --cpus "$CPUS" --memory "$MEM"
	     --rwdir="$ROOT/build" --cwd "$ROOT")
	[[ $accel == kvm ]] || VNG+=(--disable-kvm)
	VNG+=(--append "$(echo $CMDLINE)" --exec "$*")
}

# stall_watch QMP CONSOLE: while QEMU runs, dump its vCPUs when CONSOLE
# (a copy of the guest's output) has not grown for STALL seconds
stall_watch() {
	local qmp=$1 console=$2 last=-1 size idle=0
	while sleep 10; do
		[[ -S $qmp ]] || continue
		size=$(stat -c %s "$console" 2>/dev/null || echo 0)
		if [[ $size != "$last" ]]; then
			last=$size
			idle=0
			continue
		fi
		idle=$((idle + 10))
		((idle >= STALL)) || continue
		echo "# vm: stall: no guest output for $idle s; registers of every vCPU, then an NMI"
		python3 "$ROOT/scripts/qmp.py" "$qmp" "info registers -a" \
			"info cpus" 2>&1 | sed 's/^/# vm: /'
		python3 "$ROOT/scripts/qmp.py" "$qmp" nmi >/dev/null 2>&1
		idle=$((-STALL))	# the next dump at most twice as late
	done
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
[[ $KVER == --accel ]] && { echo "$ACCEL"; exit 0; }
echo "# vm: kernel $KVER, accel $ACCEL" >&2
# every guest command runs with the static keys held (selftests/lib/keys.sh)
vng_cmd "$ACCEL" ". selftests/lib/keys.sh && hold_static_keys &&" \
	"trap release_static_keys EXIT; $*"
WATCH=$(mktemp -d /tmp/ah-vm.XXXXXX)
VNG+=("--qemu-opts=-qmp unix:$WATCH/qmp,server=on,wait=off${VM_QEMU_OPTS:+ $VM_QEMU_OPTS}")
stall_watch "$WATCH/qmp" "$WATCH/console" &
watcher=$!
trap 'kill $watcher 2>/dev/null; rm -rf "$WATCH"' EXIT
# The guest console emits carriage returns and terminal escapes.
"${VNG[@]}" </dev/null 2>&1 |
	sed -u -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\r//g' | tee "$WATCH/console"
exit "${PIPESTATUS[0]}"
