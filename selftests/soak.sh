#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside a test guest (scripts/soak.sh boots it): the load and churn
# scripts again and again, until SOAK_N rounds are done or SOAK_MINUTES
# have passed, whichever comes first.  A round runs every script once, in
# order; after each script the kernel log is read (the same patterns as
# run_guest.sh's "kernel log clean").  A failing script is counted and the
# soak goes on (its output is kept); a dirty kernel log ends it, and an
# oops or a lockup panics the guest (vm.sh's command line), whose console
# the host keeps.  Any failure makes the verdict "not ok".
#
#   SOAK_N=N          rounds at most (default 30)
#   SOAK_MINUTES=M    minutes at most (default: none)
#   SOAK_SCRIPTS="suite/name ..."   what a round runs (default below)
#   AH_BUDGET=S       (check.sh, from CI's deadline) no round starts that
#                     would not end within S seconds of the start, by the
#                     slowest round so far
#
# Writes $AH_RESULTS/KVER/soak/{report.txt,soak.ktap,dmesg.log} and the
# output of each script's last run; prints per script: rounds, failures,
# the slowest and the median run.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KVER=$(uname -r)
OUT=${AH_RESULTS:-$ROOT/build/soak}/$KVER/soak
SOAK_N=${SOAK_N:-30}
SOAK_MINUTES=${SOAK_MINUTES:-0}
SOAK_SCRIPTS=${SOAK_SCRIPTS:-dsr/fig8 dsr/prioload dsr/medium dsr/lifecycle
	dsr/churn transit/bounds transit/lifecycle macfilter/replace}
source "$ROOT/selftests/lib/klog.sh"
BAD=$AH_KLOG_BAD

export AH_ROOT=$ROOT AH_KMOD=$ROOT/build/$KVER/kmod AH_ALL_KERNELS=1
# churn.sh: more cycles a round than make check runs
export CHURN_N=${CHURN_N:-20}
rm -rf "$OUT"
mkdir -p "$OUT"
read -r -a scripts <<< "$(echo $SOAK_SCRIPTS)"
declare -A runs fails slowest times
deadline=0
((SOAK_MINUTES > 0)) && deadline=$(($(date +%s) + SOAK_MINUTES * 60))
budget_end=0
[[ -n ${AH_BUDGET:-} ]] && budget_end=$(($(date +%s) + AH_BUDGET))
slowest_round=0
(while sleep 30; do echo "# ah: heartbeat"; done) &
heartbeat=$!

verdict=ok
why=
round=0
t_start=$(date +%s)
while ((round < SOAK_N)); do
	((deadline && $(date +%s) >= deadline)) && break
	if ((budget_end && $(date +%s) + slowest_round > budget_end)); then
		echo "# soak: no time for another round within the budget"
		break
	fi
	round=$((round + 1))
	r0=$(date +%s)
	for s in "${scripts[@]}"; do
		name=${s//\//-}
		dmesg -C
		t0=$(date +%s)
		timeout -k 10 $((900 * ${AH_TIME_SCALE:-1})) \
			"$ROOT/selftests/$s.sh" > "$OUT/$name.log" 2>&1
		rc=$?
		t=$(($(date +%s) - t0))
		runs[$s]=$((${runs[$s]:-0} + 1))
		times[$s]="${times[$s]:-} $t"
		((t > ${slowest[$s]:-0})) && slowest[$s]=$t
		bad=$(dmesg | grep -E "$BAD")
		# exit 4: skipped (a missing tool); any "not ok" or other exit fails
		failed=
		if [[ $rc != 0 && $rc != 4 ]] || grep -q '^not ok' "$OUT/$name.log"; then
			failed="failed (exit $rc)"
			cp "$OUT/$name.log" "$OUT/$name.round$round.log"
		elif [[ -n $bad ]]; then
			failed="left a dirty kernel log"
		fi
		echo "# soak round $round $s: rc $rc, $t s${failed:+, $failed}"
		if [[ -n $failed ]]; then
			fails[$s]=$((${fails[$s]:-0} + 1))
			verdict="not ok"
			why="${why:+$why; }$s $failed in round $round"
			grep -E '^not ok|FAILED' "$OUT/$name.log" | sed 's/^/# /'
		fi
		if [[ -n $bad ]]; then
			dmesg > "$OUT/dmesg.log"
			echo "$bad" | head -40 | sed 's/^/# dmesg: /'
			break 2
		fi
	done
	(($(date +%s) - r0 > slowest_round)) && slowest_round=$(($(date +%s) - r0))
done
kill "$heartbeat"

median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[++n] = $1 } END { print n ? v[int((n + 1) / 2)] : 0 }'; }
{
	echo "soak on $KVER: $round rounds in $(( ($(date +%s) - t_start) / 60 )) min, verdict: $verdict${why:+ ($why)}"
	printf '%-22s %6s %8s %9s %9s\n' script runs failures "median s" "slowest s"
	for s in "${scripts[@]}"; do
		printf '%-22s %6d %8d %9d %9d\n' "$s" "${runs[$s]:-0}" \
			"${fails[$s]:-0}" "$(median <<< "${times[$s]:-}")" "${slowest[$s]:-0}"
	done
} | tee "$OUT/report.txt"
echo "KTAP version 1" > "$OUT/soak.ktap"
echo "1..1" >> "$OUT/soak.ktap"
echo "$verdict 1 soak: $round rounds of ${#scripts[@]} scripts${why:+: $why}" >> "$OUT/soak.ktap"
touch "$OUT/done"
