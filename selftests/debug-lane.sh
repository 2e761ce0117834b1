# SPDX-License-Identifier: GPL-2.0
#
# Sourced by run_guest.sh in the debug-kernel lane (make check-debug).
#
# debug_lane_begin: forget what kmemleak suspects from boot, so that only
#   objects allocated by the suites can be reported.
# debug_lane_end DIR: after the last suite, writes DIR/debug.ktap with
#   - every module of ours that the suites loaded unloads (rmmod);
#   - kmemleak reports no unreferenced object after a final scan (unless
#     leak_phase_end, below, did that and turned kmemleak off);
#   - per module, the object lifetime lines (kmod/common/ah_debug.h) balance:
#     as many "created" as "destroyed" for each kind, and some at all.
# The per-suite "kernel log clean" results already fail on KASAN, UBSAN,
# lockdep and debugobjects reports; PANIC_ON_OOPS ends the run on an oops.

KMEMLEAK=/sys/kernel/debug/kmemleak
# kmemleak never reports an object younger than 5 s (its minimum age).
KMEMLEAK_MIN_AGE=5

debug_lane_begin() {
	echo "# debug lane: $(uname -r)"
	if [[ -w $KMEMLEAK ]]; then
		echo scan > "$KMEMLEAK"
		echo clear > "$KMEMLEAK"
	fi
}

# lifetimes FILE...: one KTAP-ready line per module, "MOD OK DETAIL"
lifetimes() {
	awk '
	match($0, /ah-obj: [^ ]+ [^ ]+ [^ ]+ (created|destroyed)$/) {
		split(substr($0, RSTART), f, " ")
		key = f[2] " " f[3]
		if (f[5] == "created") { made[key]++; live[key " " f[4]]++ }
		else { gone[key]++; live[key " " f[4]]-- }
		mods[f[2]] = 1; kinds[key] = 1
	}
	END {
		for (m in mods) {
			ok = 1; detail = ""
			for (k in kinds) {
				split(k, p, " ")
				if (p[1] != m)
					continue
				detail = detail sprintf(" %s %d/%d", p[2],
							made[k] + 0, gone[k] + 0)
				if (made[k] != gone[k])
					ok = 0
			}
			for (l in live) {
				split(l, p, " ")
				if (p[1] == m && live[l] != 0)
					detail = detail sprintf(" [%s %s: %+d]",
								p[2], p[3], live[l])
			}
			print m, ok, "created/destroyed:" detail
		}
	}' "$@"
}

# Of MODULES, unload those that other modules of MODULES use only after
# their users (whose own unload is then reported by debug_lane_end).
unload_users() {
	local m u users
	for m in "$@"; do
		grep -q "^$m " /proc/modules || continue
		users=$(awk -v m="$m" '$1 == m { print $4 }' /proc/modules | tr , ' ')
		[[ $users == - ]] && continue
		for u in $users; do
			[[ " $* " == *" $u "* ]] && rmmod "$u" 2>/dev/null
		done
	done
	return 0
}

# klog_result N LOG WHAT: result N (to fd 3), LOG (the kernel's lines since
# the last script's) has no BUG, WARNING, KASAN... report (klog.sh)
klog_result() {
	local bad
	bad=$(grep -E "$AH_KLOG_BAD" "$2")
	if [[ -z $bad ]]; then
		echo "ok $1 kernel log clean through $3" >&3
	else
		echo "$bad" | sed 's/^/# dmesg: /' >&3
		echo "not ok $1 kernel log clean through $3" >&3
	fi
}

# kmemleak_check N DIR WHAT: result N (to fd 3), no unreferenced object
# after WHAT; the report is kept in DIR/kmemleak.log
kmemleak_check() {
	local n=$1 dir=$2 what=$3 leaks
	if [[ ! -w $KMEMLEAK ]]; then
		echo "not ok $n kmemleak is not available in this kernel" >&3
		return
	fi
	# The scan is what is measured; the wait only lets the objects the
	# suites freed last pass kmemleak's minimum age.
	sleep $((KMEMLEAK_MIN_AGE + 1))
	echo scan > "$KMEMLEAK"
	echo scan > "$KMEMLEAK"
	cat "$KMEMLEAK" > "$dir/kmemleak.log"
	leaks=$(grep -c '^unreferenced object' "$dir/kmemleak.log")
	if [[ $leaks == 0 ]]; then
		echo "ok $n kmemleak: no unreferenced object after $what" >&3
	else
		sed -n 1,40p "$dir/kmemleak.log" | sed 's/^/# /' >&3
		echo "not ok $n kmemleak: $leaks unreferenced objects after $what (${dir#"$AH_ROOT"/}/kmemleak.log)" >&3
	fi
}

# leak_phase_end DIR N: after the N scripts (none: no check) this guest
# took from the leak queue (run_guest.sh, check.sh's debug lane),
# DIR/leak.ktap: every module of ours unloads and kmemleak finds no
# unreferenced object.  Then kmemleak goes off for the rest of the
# boot: it doubles what a process start, a namespace or a device costs
# this kernel (dsr/maint: 240 s with it, 129 s without), and the rest of
# the lane is for KASAN, lockdep, UBSAN, debugobjects and the refcount
# trackers, which stay on.  The modules' object lifetimes are counted
# over the whole run (debug_lane_end).
KMEMLEAK_OFF=0
leak_phase_end() {
	local dir=$1 ran=$2 n=0
	mkdir -p "$dir"
	if ((ran > 0)); then
		exec 3> "$dir/leak.ktap"
		echo "# leak phase: $ran scripts with kmemleak on, then off"
		unload_ours 0 "after the leak phase"
		n=$UNLOAD_N
		# the modules' "destroyed" lines, for the lifetimes at the end
		dmesg -c > "$dir/dmesg.log"
		n=$((n + 1))
		klog_result "$n" "$dir/dmesg.log" "the leak phase's unloads"
		n=$((n + 1))
		kmemleak_check "$n" "$dir" "the leak phase's scripts and rmmod"
		exec 3>&-
		sed -i "1i 1..$n" "$dir/leak.ktap"
		cat "$dir/leak.ktap"
	fi
	[[ -w $KMEMLEAK ]] && echo off > "$KMEMLEAK"
	KMEMLEAK_OFF=1
	# its "disabled" notice (and, had it found leaks, a note that it
	# keeps its data) is in no script's kernel log
	sleep 1
	dmesg -C
}

# unload_ours N WHEN: every module of ours the suites loaded is unloaded,
# results N+1... (to fd 3) "MOD unloads WHEN"; UNLOAD_N is the last.  The
# last loaded first: piosim before orinoco_transit, whose symbols it uses;
# a module still used by one loaded again later (macfilter by dsr) is
# tried again once its users are gone.
UNLOAD_N=0
unload_ours() {
	local n=$1 m rc loaded
	loaded=$(tac "$AH_LOADED" 2>/dev/null | awk '!seen[$0]++')
	unload_users $loaded
	for m in $loaded; do
		n=$((n + 1))
		rc=0
		if grep -q "^$m " /proc/modules; then
			rmmod "$m" 2>&1 | sed 's/^/# /' >&3
			rc=${PIPESTATUS[0]}
		fi
		if [[ $rc == 0 ]]; then
			echo "ok $n $m unloads $2" >&3
		else
			echo "not ok $n $m unloads $2" >&3
		fi
	done
	grep -q '^mac80211_hwsim ' /proc/modules && rmmod mac80211_hwsim
	UNLOAD_N=$n
}

debug_lane_end() {
	local dir=$1 n=0 m rc loaded objs leaks line logs
	mkdir -p "$dir"
	exec 3> "$dir/debug.ktap"
	loaded=$(tac "$AH_LOADED" 2>/dev/null | awk '!seen[$0]++')
	unload_ours 0 "at the end"
	n=$UNLOAD_N
	dmesg -c > "$dir/dmesg.log"
	n=$((n + 1))
	klog_result "$n" "$dir/dmesg.log" "the unloads at the end"

	if ((KMEMLEAK_OFF)); then
		echo "# kmemleak was off after the leak phase (leak/leak.ktap)" >&3
	else
		n=$((n + 1))
		kmemleak_check "$n" "$dir" rmmod
	fi

	mapfile -t logs < <(compgen -G "$OUT/*/dmesg*.log")
	objs=$(lifetimes "${logs[@]}")
	for m in $loaded; do
		n=$((n + 1))
		line=$(echo "$objs" | awk -v m="$m" '$1 == m')
		if [[ -z $line ]]; then
			echo "not ok $n $m object lifetimes: no ah-obj lines (module not built with AH_DEBUG=y?)" >&3
		elif [[ $(echo "$line" | cut -d' ' -f2) == 1 ]]; then
			echo "ok $n $m object lifetimes balance, ${line#* * }" >&3
		else
			echo "not ok $n $m object lifetimes balance, ${line#* * }" >&3
		fi
	done
	exec 3>&-
	sed -i "1i 1..$n" "$dir/debug.ktap"
	cat "$dir/debug.ktap"
}
