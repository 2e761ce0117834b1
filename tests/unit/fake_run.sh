# SPDX-License-Identifier: GPL-2.0
#
# A program against a stand-in for a module's generic netlink family
# (fake_slice.so, fake_dsr.so; see fake_genl.c), for test_ahctl_slice.sh,
# test_ahctl_dsr_mcast.sh, test_dsrd_slice.sh and test_dsrd_mcast.sh,
# which source it (it sources ktap.sh), call fake_start (the dsrd tests:
# dsrd_start), and define run ARGS... (the program under the stand-in,
# through capture; the ahctl tests' for expect).
#
# $AHCTL: the ahctl the ahctl tests test (default: userspace/ahctl/ahctl);
# $DSRD: the dsrd of the dsrd tests' "dsrd --check" (default:
# userspace/dsrd/dsrd).

FAKE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FAKE_ROOT=$(cd "$FAKE_DIR/../.." && pwd)
AHCTL=${AHCTL:-$FAKE_ROOT/userspace/ahctl/ahctl}
DSRD=${DSRD:-$FAKE_ROOT/userspace/dsrd/dsrd}
# shellcheck source=ktap.sh
source "$FAKE_DIR/ktap.sh"

# fake_start SO ABSENT PROG MAKE ARGS...: "KTAP version 1"; $FAKE, the
# stand-in SO (fake_dsr.so) built here; every test skipped (exit) unless
# PROG is built (by MAKE, "make -C userspace"), the stand-in too, PROG can
# have it preloaded (no ASan), and "PROG ARGS" under it, with ABSENT
# ("FAKE_DSR=absent": no family) in its environment, opens its socket
# (PROG's socket, and the stand-in's, are generic netlink ones).  Then
# $TMP, a directory of the test's own, and $LOG, the file in it the
# stand-in logs the requests to.
fake_start() {
	local absent=$2 prog=$3 make=$4
	FAKE=$FAKE_DIR/$1
	shift 4
	echo "KTAP version 1"
	[[ -x $prog ]] || ktap_skip_all "$prog is not built ($make)"
	[[ -f $FAKE ]] || ktap_skip_all "$FAKE is not built (make -C tests/unit)"
	if ldd "$prog" 2>/dev/null | grep -q libasan; then
		ktap_skip_all "${prog##*/} is built with ASan, which must be preloaded first"
	fi
	if env LD_PRELOAD="$FAKE" "$absent" "$prog" "$@" 2>&1 |
		grep -q "cannot open a generic netlink socket"; then
		ktap_skip_all "no generic netlink socket here"
	fi
	TMP=$(mktemp -d)
	# The main shell's only: a child that the test kills before it has
	# exec'd (or reset its traps; test_ahctl_slice.sh's monitor()) runs
	# the EXIT trap too, and took $TMP away under every test after it
	# (their output had nowhere to go).  It ends slice_netns_start's
	# and other_netns_start's processes too.
	SLICE_PID= OTHER_PID=
	trap '[[ $BASHPID == "$$" ]] && { [[ -z $SLICE_PID ]] ||
		kill "$SLICE_PID" 2>/dev/null; [[ -z $OTHER_PID ]] ||
		kill "$OTHER_PID" 2>/dev/null; rm -rf "$TMP"; }' EXIT
	LOG=$TMP/requests
}

# netns_proc_start: a network namespace of its own, that of a process
# (unshare -n sleep): $NS_PID, its pid, $NS_PATH, its /proc/PID/ns/net,
# $NS_INO, its inode.  Where there is none (not root), $NS_PID is empty.
netns_proc_start() {
	local own i
	NS_PID= NS_PATH= NS_INO=
	unshare -n true 2>/dev/null || return 0
	own=$(stat -L -c %i /proc/self/ns/net)
	unshare -n sleep 600 < /dev/null > /dev/null 2>&1 &
	NS_PID=$!
	# until unshare has made it and exec'd
	for ((i = 0; i < 100; i++)); do
		NS_INO=$(stat -L -c %i "/proc/$NS_PID/ns/net" 2>/dev/null)
		if [[ -n $NS_INO && $NS_INO != "$own" ]]; then
			NS_PATH=/proc/$NS_PID/ns/net
			return 0
		fi
		sleep 0.02
	done
	kill "$NS_PID" 2>/dev/null
	NS_PID= NS_INO=
}

# slice_netns_start: a network namespace of its own for the slice of the
# wireless tests (netns_proc_start): $SLICE_PID, its pid, $SLICE_NS, its
# /proc/PID/ns/net (the stand-in's $FAKE_NETNS_PATH: /run/netns/$FAKE_NETNS
# opens it), $SLICE_INO, its inode.  Where there is none (not root),
# $SLICE_PID is empty.
slice_netns_start() {
	netns_proc_start
	SLICE_PID=$NS_PID SLICE_NS=$NS_PATH SLICE_INO=$NS_INO
}

# other_netns_start: another one, where the slice moves a phy on (the
# stand-in's $FAKE_PHY_NETNS_PATH): $OTHER_PID, $OTHER_NS, $OTHER_INO
other_netns_start() {
	netns_proc_start
	OTHER_PID=$NS_PID OTHER_NS=$NS_PATH OTHER_INO=$NS_INO
}

# dsrd_start SO ABSENT RUNNER: fake_start of $RUN, the RUNNER built here
# (dsrd_slice_run: dsrd without its main(); see dsrd_run.h), with the
# stand-in SO; then into $TMP, where the runner's CONF files are, by the
# names it prints.
dsrd_start() {
	RUN=$FAKE_DIR/$3
	fake_start "$1" "$2" "$RUN" "make -C tests/unit"
	cd "$TMP" || ktap_skip_all "cannot enter $TMP"
}

# dsrd_check DESC CONF WANT: "dsrd --check -c CONF" gives WANT, "STATUS
# OUTPUT"; the test "dsrd --check: DESC", skipped if $DSRD is not built
dsrd_check() {
	local said rc	# not out: ktap.sh's
	if [[ ! -x $DSRD ]]; then
		result 1 "dsrd --check: $1 # SKIP $DSRD is not built"
		return
	fi
	said=$("$DSRD" --check -c "$2" 2>&1)
	rc=$?
	same "dsrd --check: $1" "$rc $said" "$3"
}

# capture CMD...: CMD, $LOG emptied first; $rc, $stdout, $stderr, $req
# (the requests it sent, one a line)
capture() {
	: > "$LOG"
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	stdout=$(< "$TMP/out")
	stderr=$(< "$TMP/err")
	req=$(< "$LOG")
}

# expect DESC RC STDERR-PART REQUEST -- ARGS...: exit status RC, STDERR-PART
# in the error output ("" for none wanted), the requests exactly REQUEST
expect() {
	local desc=$1 want_rc=$2 want_err=$3 want_req=$4
	shift 5
	run "$@"
	if [[ $rc == "$want_rc" && $req == "$want_req" &&
	      ( -z $want_err && -z $stderr || -n $want_err && $stderr == *"$want_err"* ) ]]; then
		result 1 "$desc"
	else
		result 0 "$desc" "ahctl $*" "exit $rc (want $want_rc)" \
			"stderr: $stderr" "want in stderr: $want_err" \
			"requests: $req" "want requests: $want_req"
	fi
}
