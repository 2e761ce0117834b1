# SPDX-License-Identifier: GPL-2.0
#
# Sourced by run_guest.sh in the debug-kernel lane (make check-debug).
#
# debug_lane_begin: forget what kmemleak suspects from boot, so that only
#   objects allocated by the suites can be reported.
# debug_lane_end DIR: after the last suite, writes DIR/debug.ktap with
#   - every module of ours that the suites loaded unloads (rmmod);
#   - kmemleak reports no unreferenced object after a final scan;
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

debug_lane_end() {
	local dir=$1 n=0 m rc loaded objs leaks line logs
	mkdir -p "$dir"
	exec 3> "$dir/debug.ktap"
	dmesg -C
	# the last loaded first: piosim before orinoco_transit, whose
	# symbols it uses; a module still used by one loaded again later
	# (macfilter by dsr) is tried again once its users are gone
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
			echo "ok $n $m unloads at the end" >&3
		else
			echo "not ok $n $m unloads at the end" >&3
		fi
	done
	grep -q '^mac80211_hwsim ' /proc/modules && rmmod mac80211_hwsim
	dmesg > "$dir/dmesg.log"

	n=$((n + 1))
	if [[ ! -w $KMEMLEAK ]]; then
		echo "not ok $n kmemleak is not available in this kernel" >&3
	else
		# The scan is what is measured; the wait only lets the objects
		# the suites freed last pass kmemleak's minimum age.
		sleep $((KMEMLEAK_MIN_AGE + 1))
		echo scan > "$KMEMLEAK"
		echo scan > "$KMEMLEAK"
		cat "$KMEMLEAK" > "$dir/kmemleak.log"
		leaks=$(grep -c '^unreferenced object' "$dir/kmemleak.log")
		if [[ $leaks == 0 ]]; then
			echo "ok $n kmemleak: no unreferenced object after rmmod" >&3
		else
			sed -n 1,40p "$dir/kmemleak.log" | sed 's/^/# /' >&3
			echo "not ok $n kmemleak: $leaks unreferenced objects (build/results-debug/.../kmemleak.log)" >&3
		fi
	fi

	# the suites' (dmesg-NAME.log: a script's own, from run_guest.sh's
	# queue) and $dir's
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
