#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: userspace unit tests on the host, then every selftest suite in
# one QEMU guest per test kernel.  The last line is "N passed, N failed,
# N skipped", counted over both kernels; the exit status is non-zero on any
# failure.
#
#   T=SUITE      only that suite (and no unit tests unless T=unit; T=twohost:
#                only the two-guest testbed test, selftests/twohost.sh)
#   KVERS="..."  only these kernels
#   VM_TIMEOUT=S  a guest still running after S seconds (default 2700, 3300
#                in the debug lane) is killed and its kernel counts as failed
#   AH_CI_DEADLINE=EPOCH  (.ci/run sets it) the time by which the whole run
#                must be over: each guest gets what is left as its budget,
#                and a test script that would start with less than a minute
#                of it is reported failed ("out of CI time") instead of
#                being killed half-way; the guest timeout shrinks to match
#
# check.sh --debug (make check-debug): the same suites on the debug kernel
# (scripts/debug-kernel.sh: KASAN, KMEMLEAK, lockdep, UBSAN), modules
# built with AH_DEBUG=y, plus the end-of-run checks of
# selftests/debug-lane.sh in each guest; results in build/results-debug.
# Two guests of one vCPU run side by side, taking the scripts from one
# queue, longest first: those of DEBUG_LEAK with kmemleak on, then the
# rest with it off (DEBUG_QUEUE=0: the dsr suite in one, the others in
# the other, kmemleak on throughout); T=SUITE or DEBUG_SPLIT=0: one guest
# of two vCPUs, kmemleak on throughout.
#
# check.sh --soak [--debug] (make soak): instead of the suites, the load and
# churn scripts in a loop (selftests/soak.sh: SOAK_N rounds, default 30, or
# SOAK_MINUTES, SOAK_SCRIPTS), one guest per kernel; results in
# build/soak (build/soak-debug), one result per kernel.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=${T:-}
start=$(date +%s)
GUEST_ENV=
DEBUG=0
SOAK=0
RUNNER=selftests/run_guest.sh

for arg in "$@"; do
	case $arg in
	--debug) DEBUG=1 ;;
	--soak) SOAK=1 ;;
	*) echo "usage: check.sh [--debug] [--soak]" >&2; exit 2 ;;
	esac
done
RES=$ROOT/build/results
((SOAK)) && RES=$ROOT/build/soak
((DEBUG)) && RES=$RES-debug
if ((SOAK)); then
	RUNNER=selftests/soak.sh
	T=
	# a round of the default scripts takes about 7 minutes (the debug
	# kernel's, 2.5 times that): the guest's limit follows the soak's own
	GUEST_ENV="SOAK_N=${SOAK_N:-30} SOAK_MINUTES=${SOAK_MINUTES:-0} AH_RESULTS=$RES"
	[[ -n ${SOAK_SCRIPTS:-} ]] && GUEST_ENV="$GUEST_ENV SOAK_SCRIPTS='$SOAK_SCRIPTS'"
	if [[ -n ${SOAK_MINUTES:-} ]]; then
		VM_TIMEOUT=${VM_TIMEOUT:-$((SOAK_MINUTES * 60 + 1800))}
	else
		VM_TIMEOUT=${VM_TIMEOUT:-$((${SOAK_N:-30} * 1200 + 600))}
	fi
fi
rm -rf "$RES"
mkdir -p "$RES"

# The guest's output as it comes, less the kernel's own lines and the
# heartbeats; after each test script, the results so far (of every guest
# running) and the time the run has taken (also into a file or a pipe: a
# line at a time).  progress TAG: with guests side by side, each line of
# a guest starts with its TAG.
progress() {
	local tag=$1 line ok=0 bad=0 t f o b all_ok all_bad
	while IFS= read -r line; do
		[[ $line =~ ^\[\ *[0-9.]*\]\  || $line == '# ah: heartbeat' ]] &&
			continue
		printf '%s%s\n' "$tag" "$line"
		case $line in
		'ok '*) ok=$((ok + 1)) ;;
		'not ok '*) bad=$((bad + 1)) ;;
		'# test '*' took '*)
			echo "$ok $bad" > "$RES/.count-${tag//[^0-9a-z.]/}"
			all_ok=0 all_bad=0
			for f in "$RES"/.count-*; do
				read -r o b < "$f" || continue
				all_ok=$((all_ok + o)) all_bad=$((all_bad + b))
			done
			t=$(($(date +%s) - start))
			printf '%s# so far: %d ok, %d not ok; %d:%02d elapsed\n' \
				"$tag" "$all_ok" "$all_bad" $((t / 60)) $((t % 60)) ;;
		esac
	done
}

if [[ $DEBUG == 1 ]]; then
	KERNELS=()
	if kdir=$("$ROOT/scripts/debug-kernel.sh") &&
	   rel=$(cat "$kdir/include/config/kernel.release") &&
	   AH_DEBUG=y "$ROOT/scripts/build-modules.sh" "$kdir" "$rel"; then
		KERNELS=("$kdir")
	else
		echo "not ok 1 debug kernel or modules did not build" > "$RES/build.ktap"
	fi
	export VM_MEMORY=${VM_MEMORY:-4G}
	# the debug guest runs about 2.5 times as long as a Debian kernel's;
	# CI: make check (~20 min), this kernel's build (~10), at most 55 here
	VM_TIMEOUT=${VM_TIMEOUT:-3300}
	# the debug lane's kmemleak phase (make_queue, run_guest.sh): the
	# scripts that make and end our modules' objects under churn, bad
	# input and netlink misuse, one or more of each module.  Not
	# macfilter/lifecycle: with kmemleak on, its rmmod-under-a-flood
	# case took 487 s of the script's 956 (95 s without kmemleak), and
	# the lane no longer fitted CI's time (docs/testing.md)
	DEBUG_LEAK=${DEBUG_LEAK:-"dsr/lifecycle dsr/netlink dsr/badinput macfilter/netlink transit/lifecycle slice/grant"}
	# timeouts of busywait and of whole test scripts stretch by this
	GUEST_ENV="$GUEST_ENV AH_DEBUG_LANE=1 AH_TIME_SCALE=${AH_TIME_SCALE:-4} AH_RESULTS=$RES"
else
	# KVERS is space-separated, kernels.sh prints one per line
	mapfile -t KERNELS < <(tr -s ' ' '\n' <<< "${KVERS:-$("$ROOT/scripts/kernels.sh")}" |
		sed '/^$/d')
fi

# the host's unit tests do not depend on the kernel: not in the debug
# lane.  Beside them, on the other core, the arm64 cross build (modules
# against Debian's arm64 headers, the tools against its arm64 libnl):
# built, not run; skipped when unavailable.  Each is a serial make, so
# side by side they take the time of the longer (about a minute).
if [[ $DEBUG == 0 && $SOAK == 0 && ( -z $T || $T == unit ) ]]; then
	bash "$ROOT/tests/cross_arm64.sh" > "$RES/cross-arm64.ktap" 2>&1 &
	cross=$!
	echo "# unit tests"
	make -s -C "$ROOT/tests/unit" check 2>&1 | tee "$RES/unit.ktap"
	[[ ${PIPESTATUS[0]} == 0 ]] || grep -q '^not ok' "$RES/unit.ktap" ||
		echo "not ok 1 unit tests did not build or run" >> "$RES/unit.ktap"
	wait "$cross"
	echo "# arm64 cross build"
	cat "$RES/cross-arm64.ktap"
fi

# run_kernel K [TAG [SUITES PART]]: the suites (all, or T's, or SUITES)
# in one guest of kernel K (an installed version or a kernel build
# directory); with PART, its results go to RES/PART and its console to
# console-KVER-PART.log, so that two guests of one kernel can run at once
run_kernel() {
	local k=$1 tag=${2:-} suites=${3:-$T} part=${4:-} t0 rel vm_timeout genv
	local left done_file out name
	t0=$(date +%s)
	rel=$k
	[[ -d $k ]] && rel=$(cat "$k/include/config/kernel.release")
	out=$RES${part:+/$part}
	name=$rel${part:+-$part}
	echo "$tag# kernel $rel${part:+ ($suites)}"
	vm_timeout=${VM_TIMEOUT:-2700}
	genv=$GUEST_ENV
	[[ -n $part ]] && genv="$genv AH_RESULTS=$out"
	if [[ -n ${AH_CI_DEADLINE:-} ]] && ((SOAK)) &&
	   ((AH_CI_DEADLINE - $(date +%s) < 600)); then
		# not even one round fits: skipped, and the count says so
		mkdir -p "$RES/$rel/soak"
		echo "ok 1 soak on $rel # SKIP out of CI time" > "$RES/$rel/soak/soak.ktap"
		return
	fi
	if [[ -n ${AH_CI_DEADLINE:-} ]]; then
		left=$((AH_CI_DEADLINE - $(date +%s)))
		((left < vm_timeout)) && vm_timeout=$((left > 60 ? left : 60))
		# the guest's own budget leaves time to boot (~2 min for the debug
		# kernel), for the end-of-run checks and to power off
		genv="$genv AH_BUDGET=$((vm_timeout - 300))"
	fi
	timeout -k 30 "$vm_timeout" \
		"$ROOT/scripts/vm.sh" "$k" "$genv $RUNNER '$suites'" \
		2>&1 | tee "$RES/console-$name.log" | progress "$tag"
	done_file=$out/$rel/done
	((SOAK)) && done_file=$RES/$rel/soak/done
	if [[ ! -f $done_file ]]; then
		mkdir -p "$out/$rel"
		echo "not ok 1 $name: guest did not finish (see ${RES#"$ROOT"/}/console-$name.log)" \
			> "$out/$rel/vm.ktap"
		# the kernel's last words (a panic, the OOM killer, the
		# backtraces of a lockup) are filtered from the output
		# above: show them here, from a stall's dump on if any
		echo "$tag# last lines of the guest console:"
		if grep -q '^# vm: stall' "$RES/console-$name.log"; then
			sed -n '/^# vm: stall/,$p' "$RES/console-$name.log" | tail -n 400
		else
			tail -n 150 "$RES/console-$name.log"
		fi | sed "s/^/$tag# console: /"
	fi
	echo "$tag# kernel $name took $(( $(date +%s) - t0 )) s"
}

# make_queue DIR [LEAK_DIR]: a file per test script in DIR (run_guest.sh's
# @queue), named N-SUITE:NAME with N ordering them by the longer of the
# two times docs/testing.md's table gives (make check's, a proxy for the
# debug lane's), the longest first; a script the table does not have yet
# first of all.  The scripts of DEBUG_LEAK go to LEAK_DIR instead.
make_queue() {
	local dir=$1 leak=${2:-} t n=0 to
	for t in $(cd "$ROOT/selftests" && ls -d */*.sh | sed 's/\.sh$//'); do
		[[ $t == lib/* || ! -x $ROOT/selftests/$t.sh ]] && continue
		awk -F'|' -v t="$t" '
			{ gsub(/ /, "", $2) }
			$2 == t { a = $3 + 0; b = $4 + 0; m = a > b ? a : b; found = 1 }
			END { print (found ? m : 1000000), t }' "$ROOT/docs/testing.md"
	done | sort -k1,1nr -k2 | while read -r _ t; do
		printf -v n '%03d' "$n"
		to=$dir
		[[ -n $leak && " $DEBUG_LEAK " == *" $t "* ]] && to=$leak
		: > "$to/$n-${t/\//:}"
		n=$((10#$n + 1))
	done
}

# The kernels' guests run side by side (CHECK_SERIAL=1: one after the
# other), one vCPU each unless VM_CPUS says otherwise: a guest of two
# vCPUs keeps only about one of the two cores busy (its tests wait on
# timers and on the networks they built), and one vCPU runs the suites
# 5 % slower; but two guests of two vCPUs each on two cores took three
# to four times as long (a vCPU that holds a lock in the guest is
# descheduled while the other spins on it).  The debug lane and the soak
# keep one guest at a time, with two vCPUs: they are where races between
# CPUs are hunted.
if [[ $T != unit && $T != twohost ]]; then
	# (not the soak: its debug kernel runs soak.sh in one guest below)
	if ((DEBUG && !SOAK)) && [[ -z $T && ${DEBUG_SPLIT:-1} == 1 ]] &&
	   ((${#KERNELS[@]})); then
		# The debug lane in two guests side by side, one vCPU each, as
		# make check's.  Races between CPUs are the soak's to hunt (two
		# vCPUs, CI's short soak, make soak SOAK_DEBUG=1).  A guest given
		# fewer cycles than the other (nice) misses its own timers: a
		# 1-vCPU debug guest at nice 10 beside a 2-vCPU one dropped
		# frames of a 2,000-frame burst at the backlog (docs/testing.md).
		#
		# The two guests take the scripts from one queue (run_guest.sh's
		# @queue), the longest first, so that both end together: first
		# the scripts of DEBUG_LEAK, with kmemleak on, then (each guest
		# checks kmemleak and turns it off) all the others.  kmemleak
		# doubles the cost of what the tests do most (a process, a
		# namespace, a device: dsr/maint took 240 s with it and 129 s
		# without), which no longer fitted CI's time; DEBUG_LEAK holds
		# the scripts that make and end our modules' objects under
		# churn and bad input.  DEBUG_QUEUE=0: the old fixed split (the
		# dsr suite in one guest, the rest in the other), kmemleak on
		# throughout.
		ACCEL=$("$ROOT/scripts/vm.sh" --accel) && export ACCEL
		export VM_CPUS=${VM_CPUS:-1}
		if [[ ${DEBUG_QUEUE:-1} == 1 ]]; then
			queue=$RES/queue
			mkdir -p "$queue/todo" "$queue/leak" "$queue/taken"
			make_queue "$queue/todo" "$queue/leak"
			GUEST_ENV="$GUEST_ENV AH_QUEUE=$queue"
			run_kernel "${KERNELS[0]}" "[a] " @queue a &
			p1=$!
			run_kernel "${KERNELS[0]}" "[b] " @queue b &
			p2=$!
			wait "$p1" "$p2"
			# a script neither guest took (neither finished): failed
			for f in "$queue"/leak/* "$queue"/todo/*; do
				[[ -e $f ]] || continue
				f=${f##*/}
				f=${f#*-}
				mkdir -p "$RES/queue-left"
				echo "not ok 1 ${f/://}: not run (no guest took it from the queue)" \
					> "$RES/queue-left/${f/:/-}.ktap"
			done
		else
			moved="dsr/netlink dsr/multiif"
			others=$(cd "$ROOT/selftests" && for d in */; do
				d=${d%/}
				[[ $d == lib || $d == dsr ]] || printf '%s ' "$d"
			done)
			others="$others$moved"
			dsr=$(cd "$ROOT/selftests" && for t in dsr/*.sh; do
				t=${t%.sh}
				[[ " $moved " == *" $t "* ]] || printf '%s ' "$t"
			done)
			run_kernel "${KERNELS[0]}" "[dsr] " "${dsr% }" dsr &
			p1=$!
			run_kernel "${KERNELS[0]}" "[rest] " "$others" rest &
			p2=$!
			wait "$p1" "$p2"
		fi
	elif ((DEBUG || SOAK)) || [[ ${CHECK_SERIAL:-0} == 1 ]] ||
	   ((${#KERNELS[@]} < 2)); then
		for k in "${KERNELS[@]}"; do
			run_kernel "$k"
		done
	else
		# the accelerator is probed once, not by both guests at a time
		ACCEL=$("$ROOT/scripts/vm.sh" --accel) && export ACCEL
		export VM_CPUS=${VM_CPUS:-1}
		pids=()
		for k in "${KERNELS[@]}"; do
			tag=$k
			[[ -d $k ]] || tag=${k%%[-+]*}
			run_kernel "$k" "[$tag] " &
			pids+=($!)
		done
		wait "${pids[@]}"
	fi
fi

# the testbed across two hosts (selftests/twohost.sh): two guests of the
# first kernel, one vCPU each, after the suites (about 2 minutes)
if ((!DEBUG && !SOAK)) && [[ -z $T || $T == twohost ]] && ((${#KERNELS[@]})); then
	tw_timeout=900
	if [[ -n ${AH_CI_DEADLINE:-} ]]; then
		left=$((AH_CI_DEADLINE - $(date +%s)))
		((left < tw_timeout)) && tw_timeout=$((left > 60 ? left : 60))
	fi
	echo "# two hosts: ${KERNELS[0]}"
	TWOHOST_TIMEOUT=$tw_timeout AH_RESULTS=$RES \
		"$ROOT/selftests/twohost.sh" "${KERNELS[0]}" 2>&1 | progress "[twohost] "
fi

# where the time went: build/results/times.md; a full run of the
# suites (every kernel, every suite) also keeps docs/testing.md's table
if ((!SOAK)) && [[ $T != unit ]] && ls "$RES"/console-*.log >/dev/null 2>&1; then
	"$ROOT/scripts/test-times.sh" "$RES" > "$RES/times.md" || true
	if ((!DEBUG)) && [[ -z $T && -z ${KVERS:-} ]]; then
		"$ROOT/scripts/test-times.sh" "$RES" "$ROOT/docs/testing.md" || true
	fi
fi

read -r pass fail skip < <(find "$RES" -name '*.ktap' -print0 |
	sort -z | xargs -0 -r awk -f "$ROOT/scripts/ktap-count.awk")
# CI keeps only the end of the output: name each failure there too, the
# first three with the last lines their case printed before it
find "$RES" -name '*.ktap' -print0 | sort -z |
	xargs -0 -r awk -v res="$RES/" -f "$ROOT/scripts/ktap-failed.awk" |
	head -n 60
echo "# check took $(( $(date +%s) - start )) s"
echo "${pass:-0} passed, ${fail:-0} failed, ${skip:-0} skipped"
# (a soak that CI had no time for passes nothing and fails nothing)
[[ ${fail:-0} == 0 && ( ${pass:-0} -gt 0 || $SOAK == 1 ) ]]
