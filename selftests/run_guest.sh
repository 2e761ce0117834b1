#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test guest: every suite (a directory of selftests/ with
# test scripts), or only what $1 names (space-separated: SUITE for a whole
# suite, SUITE/NAME for one script of it), in this one boot.  Each test script prints KTAP; after each suite one more result
# says whether the kernel log stayed clean (no BUG, WARNING, Oops,
# refcount, leak or lockdep report).
#
# Results go to $AH_RESULTS/KVER/SUITE/*.ktap (default build/results) for the
# host to count.
#
# AH_BUDGET=S (check.sh, from CI's deadline): this guest has S seconds; a
# test script is not started with less than a minute of them left, and
# none runs past them.  A script left out for time is a failure ("not ok
# ... out of CI time"): the run must fit, not pass by skipping.
#
# $1 = @queue (check.sh's debug lane: two guests of one kernel side by
# side): the scripts come from the shared directory AH_QUEUE, one at a
# time, so that the two guests end together whatever each script takes.
# AH_QUEUE/todo holds a file per script (SUITE:NAME, after a number that
# orders them, longest first); a guest takes one by renaming it into
# AH_QUEUE/taken (a rename on the host's file system: only one guest can
# take a file), runs it, and takes the next until none is left.  Each
# script then gets its own kernel-log result (dmesg-NAME.ktap).  The
# scripts of AH_QUEUE/leak, if any, are taken first, the same way, with
# kmemleak on; after them the guest checks kmemleak and turns it off for
# the rest (selftests/debug-lane.sh, leak_phase_end).
#
# With AH_DEBUG_LANE=1 (make check-debug, a KASAN/KMEMLEAK/lockdep/UBSAN
# kernel) the run also ends with the checks of selftests/debug-lane.sh:
# every module unloads, kmemleak finds nothing after a final scan, and the
# object lifetime lines of each module balance.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KVER=$(uname -r)
OUT=${AH_RESULTS:-$ROOT/build/results}/$KVER
ONLY=${1:-}
source "$ROOT/selftests/lib/klog.sh"
BAD=$AH_KLOG_BAD

# AH_LOADED: load_module (lib.sh) notes every module of ours it loads there.
export AH_ROOT=$ROOT AH_KMOD=$ROOT/build/$KVER/kmod AH_LOADED=$OUT/loaded
rm -rf "$OUT"
mkdir -p "$OUT"
# The programs the suites start most run from the guest's memory (/run is
# a tmpfs): ahctl, in its static build (userspace/Makefile), and gojq.
# From the host's root over 9p each start reads the program again, and a
# dynamic one its loader and libraries too: ahctl took 130 ms a call under
# TCG and 12 from here, 600 and 100 ms on the debug kernel.  lib.sh puts
# AH_BIN first in PATH.
export AH_BIN=/run/ah-bin
mkdir -p "$AH_BIN"
[[ -x $ROOT/userspace/ahctl/ahctl-static ]] &&
	cp "$ROOT/userspace/ahctl/ahctl-static" "$AH_BIN/ahctl"
GOJQ=$(command -v gojq) && cp "$GOJQ" "$AH_BIN/gojq"
T_START=$(date +%s)
# the harness (scripts/vm.sh) takes a silent console for a hung guest;
# check.sh does not show these lines, and they are in no test's log
(while sleep 30; do echo "# ah: heartbeat"; done) &
HEARTBEAT=$!
if [[ ${AH_DEBUG_LANE:-0} == 1 ]]; then
	. "$ROOT/selftests/debug-lane.sh"
	debug_lane_begin
fi
# the boot's lines are in no suite's log
dmesg -C

# run_suite SUITE [NAME...]: its scripts (only those NAMEs if given); with
# KLOG_TAG set, its kernel-log result is dmesg-KLOG_TAG.ktap
run_suite() {
	local suite=$1 dir=$ROOT/selftests/$1 t name rc log bad
	local klog=$OUT/$suite/dmesg${KLOG_TAG:+-$KLOG_TAG}
	shift
	local only=" $* "
	echo "# suite $suite on $KVER"
	for t in "$dir"/*.sh; do
		[[ -x $t ]] || continue
		name=$(basename "$t" .sh)
		[[ $only == "  " || $only == *" $name "* ]] || continue
		log=$OUT/$suite/$name.ktap
		mkdir -p "$OUT/$suite"
		echo "# test $suite/$name"
		t0=$(date +%s)
		p0=$(awk '$1 == "processes" {print $2}' /proc/stat)
		limit=$((${AH_TEST_TIMEOUT:-900} * ${AH_TIME_SCALE:-1}))
		if [[ -n ${AH_BUDGET:-} ]]; then
			left=$((AH_BUDGET - (t0 - T_START)))
			if ((left < 60)); then
				echo "not ok 1 $name: not run, out of CI time" | tee "$log"
				continue
			fi
			((left < limit)) && limit=$left
		fi
		timeout -k 10 "$limit" "$t" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
		# the processes it started: under TCG each costs tens of
		# milliseconds (hundreds on the debug kernel)
		p1=$(awk '$1 == "processes" {print $2}' /proc/stat)
		echo "# test $suite/$name took $(($(date +%s) - t0)) s, $((p1 - p0 - 2)) processes"
		if [[ $rc == 4 ]] && ! grep -q '^ok\|^not ok' "$log"; then
			echo "ok 1 $name # SKIP" | tee -a "$log"
		elif [[ $rc != 0 ]] && ! grep -q '^not ok' "$log"; then
			echo "not ok 1 $name exited $rc" | tee -a "$log"
		fi
	done
	mkdir -p "$OUT/$suite"
	# read and cleared at once: what the kernel prints after this (a
	# namespace's deferred cleanup, its modules' "destroyed" lines) is
	# in the next log, never lost between two (the queue's first run
	# lost a macfilter net's "destroyed" line so: a script ended, then
	# the next began with a clear)
	dmesg -c > "$klog.log"
	bad=$(grep -E "$BAD" "$klog.log")
	if [[ -n $bad ]]; then
		echo "$bad" | sed 's/^/# dmesg: /'
		echo "not ok 1 $suite${KLOG_TAG:+/$KLOG_TAG} kernel log clean" | tee "$klog.ktap"
	else
		echo "ok 1 $suite${KLOG_TAG:+/$KLOG_TAG} kernel log clean" | tee "$klog.ktap"
	fi
}

# run_queue DIR: the scripts of DIR (AH_QUEUE/todo or AH_QUEUE/leak),
# taken one at a time (above) into AH_QUEUE/taken; QUEUE_RAN counts them
QUEUE_RAN=0
run_queue() {
	local q=$1 f item
	while true; do
		item=
		for f in $(ls "$q" 2>/dev/null | sort); do
			if mv "$q/$f" "$AH_QUEUE/taken/$f" 2>/dev/null; then
				item=${f#*-}
				break
			fi
		done
		[[ -n $item ]] || break
		QUEUE_RAN=$((QUEUE_RAN + 1))
		KLOG_TAG=${item#*:} run_suite "${item%%:*}" "${item#*:}"
	done
}

if [[ $ONLY == @queue ]]; then
	# AH_QUEUE/leak first, with kmemleak on; then its check, kmemleak
	# off (debug-lane.sh, leak_phase_end) and the rest at full speed
	if [[ -d $AH_QUEUE/leak ]]; then
		run_queue "$AH_QUEUE/leak"
		leak_phase_end "$OUT/leak" "$QUEUE_RAN"
	fi
	run_queue "$AH_QUEUE/todo"
fi
for d in "$ROOT"/selftests/*/; do
	[[ $ONLY == @queue ]] && break
	[[ $(basename "$d") == lib ]] && continue
	suite=$(basename "$d")
	if [[ -z $ONLY || " $ONLY " == *" $suite "* ]]; then
		run_suite "$suite"
		continue
	fi
	names=()
	for item in $ONLY; do
		[[ $item == "$suite"/* ]] && names+=("${item#*/}")
	done
	((${#names[@]})) && run_suite "$suite" "${names[@]}"
done
[[ ${AH_DEBUG_LANE:-0} == 1 ]] && debug_lane_end "$OUT/debug"
kill "$HEARTBEAT"
touch "$OUT/done"
