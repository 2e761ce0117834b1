#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared test library, in the spirit of tools/testing/selftests/net/lib.sh:
# KTAP output, namespaces cleaned up by a trap, busywait instead of sleep,
# and the two media a test builds its nodes on:
#
#   hub medium (default)                hwsim medium
#
#   nsA    nsB    nsC   ...             nsA      nsB      nsC
#   eth0   eth0   eth0                  wlan0    wlan0    wlan0
#    |      |      |                      \        |        /
#   +----------------------+               mac80211_hwsim radios,
#   | ahhub: bridge in its |               IBSS "adhoc" on 2412 MHz,
#   | own netns, ageing 0  |               BSSID 02:11:22:33:44:55
#   | = a hub: every node  |
#   | hears every frame    |
#   +----------------------+
#
# Node i (1-based) is namespace ${AH_PREFIX}$i with MAC 02:00:00:00:00:0i
# on the hub (hwsim radios keep their own MACs: use node_mac) and IPv4
# 10.0.0.i/24.  Topology between nodes is imposed with macfilter.

set -u

AH_ROOT=${AH_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
AH_KMOD=${AH_KMOD:-$AH_ROOT/build/$(uname -r)/kmod}
AH_PREFIX=${AH_PREFIX:-ah$$-}
PATH=$AH_ROOT/userspace/ahctl:$PATH
# (run_guest.sh's copies in the guest's memory, first)
[[ -n ${AH_BIN:-} && -d $AH_BIN ]] && PATH=$AH_BIN:$PATH
# Python helpers start in a venv without the system's site-packages: at
# each start Debian's python3 reads every .pth file of its dist-packages
# directories, and one on these machines (a CA injection) imports certifi,
# pathlib and zipfile: 0.6 s of a 1 s start in a TCG guest, paid by some
# hundred helper starts per kernel.  The venv is a pyvenv.cfg beside a
# link to python3 (the guest's /tmp; Python finds the file by the path it
# was started as); the helpers need only the standard library.
# PYTHON_SITE is Debian's own, with its packages (scapy).
PYTHON_SITE=/usr/bin/python3
AH_PYVENV=${AH_PYVENV:-/tmp/ah-python}
PYTHON=$AH_PYVENV/bin/python3
if [[ ! -e $AH_PYVENV/pyvenv.cfg ]]; then
	mkdir -p "$AH_PYVENV/bin" && ln -sfn "$PYTHON_SITE" "$PYTHON" &&
		printf 'home = %s\ninclude-system-site-packages = false\n' \
			"${PYTHON_SITE%/*}" > "$AH_PYVENV/pyvenv.cfg.$$" &&
		mv "$AH_PYVENV/pyvenv.cfg.$$" "$AH_PYVENV/pyvenv.cfg" ||
		PYTHON=$PYTHON_SITE
fi
# jq: gojq where it is installed (scripts/setup.sh installs it), the same
# language for what the suites ask of it.  jq 1.6 compiles its builtins at
# every start: in a TCG guest a call takes about 0.4 s, gojq's 0.05-0.15
# s, and the suites call it some hundreds of times per kernel.  (gojq
# prints an object's keys sorted: compare JSON by value, not as text of
# jq's order.)  Not for commands run in a namespace (nsexec N jq): those
# find jq itself.
if command -v gojq >/dev/null; then
	jq() { gojq "$@"; }
fi
# hold_tracepoints (load_module): see keys.sh
source "$AH_ROOT/selftests/lib/keys.sh"

ksft_skip=4
AH_NODES=0
AH_MEDIUM=
AH_HUB_NS=
KTAP_NUM=0
KTAP_FAIL=0
KTAP_PLAN=0

# ---- KTAP ----------------------------------------------------------------

ktap_begin() {
	KTAP_PLAN=$1
	echo "KTAP version 1"
	echo "1..$KTAP_PLAN"
}

ktap_result() {	# "ok"|"not ok" description [directive]
	KTAP_NUM=$((KTAP_NUM + 1))
	echo "$1 $KTAP_NUM $2${3:+ # $3}"
}

ktap_pass() { ktap_result ok "$1"; }
ktap_fail() { KTAP_FAIL=$((KTAP_FAIL + 1)); ktap_result "not ok" "$1"; }
ktap_skip() { ktap_result ok "$1" "SKIP ${2:-}"; }
diag() { echo "# $*"; }

# Run one test case: a function returning 0 (pass), $ksft_skip or failure,
# in a subshell whose exit deletes the namespaces the case made.
run_test() {
	local name=$1
	shift
	run_case "$name" with_cleanup "$@"
}

with_cleanup() {
	trap ah_cleanup EXIT
	"$@"
}

# run_case NAME FUNCTION...: like run_test, on a topology the cases share
# (nothing is torn down after the case).
run_case() {
	local name=$1 rc t0=$SECONDS
	shift
	("$@")
	rc=$?
	diag "case took $((SECONDS - t0)) s"
	case $rc in
	0) ktap_pass "$name" ;;
	"$ksft_skip") ktap_skip "$name" ;;
	*) ktap_fail "$name" ;;
	esac
}

# shared_setup CMD...: in the script's own shell, build the topology that
# the following run_case cases share (ah_cleanup removes it at exit).  A
# case starts with "shared || return 1": if the set-up failed, it fails.
AH_SHARED=
shared_setup() {
	if "$@"; then
		AH_SHARED=ok
	else
		diag "FAILED: set-up: $*"
		AH_SHARED=failed
	fi
}

shared() { [[ $AH_SHARED == ok ]]; }

ktap_end() {
	while [[ $KTAP_NUM -lt $KTAP_PLAN ]]; do
		ktap_fail "missing result"
	done
	echo "# totals: pass:$((KTAP_NUM - KTAP_FAIL)) fail:$KTAP_FAIL"
	[[ $KTAP_FAIL == 0 ]]
}

# ---- helpers -------------------------------------------------------------

# Helpers start as few processes as they can: a process start costs about
# 45 ms under TCG and 300 ms on the debug kernel (KASAN and kmemleak record
# a stack trace for each allocation), which made process starts most of
# what a test script's time went to (run_guest.sh counts them).

# nap SECONDS: sleep without a process (a read that times out on a pipe
# that never gets data)
exec {AH_NAP_FD}<> <(:)
nap() { read -rt "$1" -u "$AH_NAP_FD" _; return 0; }

# now_ms: the time in milliseconds, in AH_NOW_MS (no process)
now_ms() {
	local t=${EPOCHREALTIME/[.,]/}
	AH_NOW_MS=$((10#$t / 1000))
}

# busywait MS CMD...: until CMD succeeds, at most MS milliseconds times
# AH_TIME_SCALE (the debug-kernel lane runs several times slower).
busywait() {
	local timeout_ms=$(($1 * ${AH_TIME_SCALE:-1})) start
	shift
	now_ms
	start=$AH_NOW_MS
	while true; do
		"$@" && return 0
		now_ms
		((AH_NOW_MS - start >= timeout_ms)) && return 1
		nap 0.05
	done
}

check() {	# check DESCRIPTION CMD...: fail the test case loudly
	local what=$1
	shift
	"$@" && return 0
	diag "FAILED: $what"
	return 1
}

not() { ! "$@"; }

# Readiness conditions for busywait instead of a sleep after starting a
# server: listening NODE PORT (a TCP socket listens on PORT in NODE, IPv4
# or IPv6), udp_listening NODE PORT (a UDP socket is bound to it, not
# connected).  Read from the namespace's /proc/net by awk: ss took about
# 0.5 s a call in a TCG guest, a quarter of map.sh's time in its polls.
# sock_state NODE STATE PORT FILE...: a socket of that state (hex, as
# /proc/net has it) on that local port in NODE's namespace
sock_state() {
	local n=$1 st=$2 p
	printf -v p ':%04X' "$3"
	shift 3
	nsnet "$n" awk -v st="$st" -v p="$p" '
		FNR > 1 && $4 == st && substr($2, length($2) - 4) == p {
			f = 1; exit }
		END { exit !f }' "$@"
}
listening() { sock_state "$1" 0A "$2" /proc/net/tcp /proc/net/tcp6; }
udp_listening() { sock_state "$1" 07 "$2" /proc/net/udp /proc/net/udp6; }

# iperf3_server NODE PORT: an iperf3 server in NODE for one test, listening
# when this returns (1 if it never does)
iperf3_server() {
	nsexec "$1" iperf3 -s -1 -D -p "$2" >/dev/null 2>&1 &&
		busywait 5000 listening "$1" "$2"
}
ns() { echo "${AH_PREFIX}$1"; }
nsexec() { local n=$1; shift; ip netns exec "$AH_PREFIX$n" "$@"; }
# nsnet NODE CMD...: CMD in NODE's network namespace only: no mount
# namespace with the node's /sys as nsexec makes (slow on the debug
# kernel), for commands that talk netlink or ioctl and read no /sys
nsnet() { local n=$1; shift; nsenter "--net=/run/netns/$AH_PREFIX$n" "$@"; }
# nsbg NODE CMD...: CMD in NODE's namespace in the background, with $! (and
# jobs -p) naming CMD itself.  "nsexec ... &" backgrounds a subshell that
# runs CMD as its child: a kill of $! ends the subshell and CMD runs on.
nsbg() { local n=$1; shift; ip netns exec "$AH_PREFIX$n" "$@" & }
node_ip() { echo "10.0.0.$1"; }
node_if() { [[ $AH_MEDIUM == hwsim ]] && echo wlan0 || echo eth0; }
node_mac() {	# hwsim radios keep their own MACs
	[[ $AH_MEDIUM == hub ]] && { hub_mac "$1"; return; }
	nsexec "$1" cat "/sys/class/net/$(node_if)/address"
}
# mf NODE [-j] COMMAND...: ahctl macfilter in that node's namespace
mf() {
	local n=$1 g=()
	shift
	while [[ ${1:-} == -* ]]; do g+=("$1"); shift; done
	ahctl "${g[@]}" -n "$AH_PREFIX$n" macfilter "$@"
}

load_module() {	# load_module NAME: one of ours, from build/KVER/kmod
	local name=$1 ko dep
	grep -q "^$name " /proc/modules && return 0
	ko=$(find "$AH_KMOD" -name "$name.ko" | head -1)
	[[ -n $ko ]] || { diag "$name.ko not built for $(uname -r)"; return 1; }
	# what it needs first (dsr.ko: macfilter.ko, which it receives behind)
	for dep in $(modinfo -F depends "$ko" | tr , ' '); do
		if [[ -n $(find "$AH_KMOD" -name "$dep.ko") ]]; then
			load_module "$dep" || return
		else
			modprobe -q "$dep" || return
		fi
	done
	insmod "$ko" || return
	[[ -z ${AH_LOADED:-} ]] || echo "$name" >> "$AH_LOADED"
	[[ -z ${AH_HOLD_KEYS:-} ]] || hold_tracepoints "$name"
}

unload_module() {
	grep -q "^$1 " /proc/modules || return 0
	rmmod "$1"
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null && continue
		diag "SKIP: $c not installed"
		exit $ksft_skip
	done
}

# ---- media ---------------------------------------------------------------

# quiet_ns NETNS...: no IPv6 chatter (DAD, router solicitations) there:
# counters see only test frames.  (One process for all of them.)
quiet_ns() {
	"$PYTHON" "$AH_ROOT/selftests/lib/netns_sysctl.py" \
		net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 -- "$@"
}

# hub_mac I: the MAC of node I on the hub
hub_mac() { printf '02:00:00:00:00:%02x\n' "$1"; }

# hub_setup N: N nodes on one bridge behaving as a hub.
hub_setup() {
	local n=$1 i
	AH_MEDIUM=hub
	AH_NODES=$n
	AH_HUB_NS=${AH_PREFIX}hub
	local names=("$AH_HUB_NS") hub
	for ((i = 1; i <= n; i++)); do names+=("$AH_PREFIX$i"); done
	printf 'netns add %s\n' "${names[@]}" | ip -b - || return 1
	# the bridge itself must not talk either (IPv6 DAD, MLD)
	quiet_ns "${names[@]}" || return 1
	hub="link add ahhub type bridge ageing_time 0 stp_state 0 mcast_snooping 0 forward_delay 0
link set ahhub up"
	for ((i = 1; i <= n; i++)); do
		hub+="
link add port$i type veth peer name eth0 address $(printf '02:00:00:00:00:%02x' "$i") netns $AH_PREFIX$i
link set port$i master ahhub up"
	done
	ip -n "$AH_HUB_NS" -b - <<< "$hub" || return 1
	for ((i = 1; i <= n; i++)); do
		ip -n "$AH_PREFIX$i" -b - <<-EOF || return 1
			link set lo up
			link set eth0 up
			addr add 10.0.0.$i/24 dev eth0
		EOF
	done
	busywait 5000 hub_ports_forwarding
}

# hub_quiet: wait (at most 6 s) until no node has sent anything for 1 s, so
# that start-up chatter (IGMP reports) is over before a test counts frames.
hub_quiet() {
	local a b i
	for ((i = 0; i < 6; i++)); do
		a=$(ip -n "$AH_HUB_NS" -s -j link show master ahhub |
			jq '[.[].stats64.rx.packets] | add')
		nap 1
		b=$(ip -n "$AH_HUB_NS" -s -j link show master ahhub |
			jq '[.[].stats64.rx.packets] | add')
		[[ $a == "$b" ]] && return 0
	done
	return 0
}

hub_ports_forwarding() {
	! bridge -n "$AH_HUB_NS" link show | grep -qv "state forwarding"
}

# hub_netem NODE "netem options": shape what NODE sends onto the medium.
hub_netem() {
	local n=$1
	shift
	modprobe -q sch_netem
	nsexec "$n" tc qdisc replace dev eth0 root netem "$@"
}

# air_setup RATE [LIMIT [QDISC]]: make the hub one shared radio channel of RATE
# (tc units: 2mbit, 22mbit), after hub_setup.  Every frame any node sends
# costs airtime on the same channel, whoever it is for and whoever can
# decode it (macfilter decides that at the receivers), so the k hops of a
# chain share RATE.  See docs/medium.md for the model and its limits.
#
#   node i eth0 -> hub port$i ingress: mark i, redirect to "air" (ifb)
#   air: htb, class 1:1 at RATE; per node a class 1:(10+i) guaranteed
#        RATE/N, may borrow up to RATE (contending stations get equal
#        shares, a lone one the whole channel), and under it QDISC
#        (dsrprio: DSR's own, or pfifo) with LIMIT packets per band: the
#        station's transmit queue, here because only here does it fill
#        (veth never pushes back on the node's own qdisc)
#   then the bridge delivers the frame to the other ports as before.
#
# Offloads are off everywhere, so every frame is at most the MTU.
AIR_LIMIT=50
air_setup() {
	local rate=$1 qd=${3:-dsrprio} i share
	AIR_LIMIT=${2:-50}
	modprobe -q ifb numifbs=0 && modprobe -q sch_htb && modprobe -q cls_fw &&
		modprobe -q act_mirred && modprobe -q act_skbedit || return 1
	if [[ $qd == dsrprio ]]; then
		load_module sch_dsrprio || return 1
	else
		qd="$qd limit $AIR_LIMIT"
	fi
	share=$(($(tc_rate_bits "$rate") / AH_NODES))
	# dsrprio's bands hold the device's txqueuelen each
	ip -n "$AH_HUB_NS" link add air txqueuelen "$AIR_LIMIT" type ifb ||
		return 1
	ip -n "$AH_HUB_NS" link set air up
	{
		echo "qdisc add dev air root handle 1: htb"
		echo "class add dev air parent 1: classid 1:1 htb rate $rate ceil $rate quantum 1514"
		for ((i = 1; i <= AH_NODES; i++)); do
			echo "class add dev air parent 1:1 classid 1:$((10 + i)) htb rate ${share}bit ceil $rate quantum 1514"
			echo "qdisc add dev air parent 1:$((10 + i)) handle $((10 + i)): $qd"
			echo "filter add dev air parent 1: protocol all prio 1 handle $i fw classid 1:$((10 + i))"
			echo "qdisc add dev port$i clsact"
			echo "filter add dev port$i ingress protocol all prio 1 matchall action skbedit mark $i pipe action mirred egress redirect dev air"
		done
	} | tc -n "$AH_HUB_NS" -b - || return 1
	for ((i = 1; i <= AH_NODES; i++)); do
		nsexec "$i" ethtool -K eth0 tso off gso off gro off >/dev/null 2>&1
		ip netns exec "$AH_HUB_NS" ethtool -K "port$i" tso off gso off \
			gro off >/dev/null 2>&1
	done
	return 0
}

# tc_rate_bits RATE: "22mbit" -> 22000000
tc_rate_bits() {
	local r=${1,,} m=1
	case $r in
	*gbit) m=1000000000 r=${r%gbit} ;;
	*mbit) m=1000000 r=${r%mbit} ;;
	*kbit) m=1000 r=${r%kbit} ;;
	*bit) r=${r%bit} ;;
	esac
	awk -v r="$r" -v m="$m" 'BEGIN { printf "%d\n", r * m }'
}

# air_drops NODE: frames dropped from NODE's transmit queue (text: tc's
# JSON has no dsrprio options printer)
air_drops() {
	tc -n "$AH_HUB_NS" -s class show dev air classid "1:$((10 + $1))" |
		sed -n 's/.* pkt (dropped \([0-9]*\),.*/\1/p'
}

# air_sent NODE: frames NODE got onto the channel
air_sent() {
	tc -n "$AH_HUB_NS" -s class show dev air classid "1:$((10 + $1))" |
		sed -n 's/.* bytes \([0-9]*\) pkt .*/\1/p'
}

# hwsim_setup N: N mac80211_hwsim radios, one per namespace, in one IBSS.
hwsim_setup() {
	local n=$1 i phy
	AH_MEDIUM=hwsim
	AH_NODES=$n
	unload_module mac80211_hwsim
	modprobe mac80211_hwsim radios="$n" || return $ksft_skip
	for ((i = 1; i <= n; i++)); do
		ip netns add "$(ns "$i")" || return 1
		quiet_ns "$(ns "$i")"
		phy=$(basename "$(readlink -f /sys/class/net/wlan$((i - 1))/phy80211)")
		iw phy "$phy" set netns name "$(ns "$i")" || return 1
		nsexec "$i" ip link set "wlan$((i - 1))" name wlan0
		nsexec "$i" ip link set lo up
		nsexec "$i" iw dev wlan0 set type ibss
		nsexec "$i" ip link set wlan0 up
		nsexec "$i" iw dev wlan0 ibss join adhoc 2412 fixed-freq \
			02:11:22:33:44:55 || return 1
		nsexec "$i" ip addr add "$(node_ip "$i")/24" dev wlan0
	done
	for ((i = 1; i <= n; i++)); do
		busywait 10000 hwsim_joined "$i" || return 1
	done
}

hwsim_joined() {
	nsexec "$1" iw dev wlan0 link | grep -q "Joined IBSS"
}

# Static neighbour entries everywhere: with one-way links ARP cannot work.
static_neighbours() {
	local i j
	for ((i = 1; i <= AH_NODES; i++)); do
		for ((j = 1; j <= AH_NODES; j++)); do
			[[ $i == "$j" ]] && continue
			echo "neigh replace $(node_ip "$j") lladdr $(node_mac "$j")" \
				"dev $(node_if) nud permanent"
		done | ip -n "$(ns "$i")" -b - || return 1
	done
}

# (The processes in the namespaces are found by comparing namespace
# files, -ef: the same device and inode; and one ip deletes them all.)
ah_cleanup() {
	local n p pids=() del=
	for n in /run/netns/"$AH_PREFIX"*; do
		[[ -e $n ]] || continue
		for p in /proc/[0-9]*; do
			[[ $p/ns/net -ef $n ]] && pids+=("${p#/proc/}")
		done
		del+="netns del ${n#/run/netns/}"$'\n'
	done
	((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
	[[ -z $del ]] || ip -force -b - <<< "$del"
	[[ $AH_MEDIUM == hwsim ]] && unload_module mac80211_hwsim
	AH_MEDIUM=
	return 0
}

trap ah_cleanup EXIT

# ---- macfilter state, read through ahctl's JSON --------------------------

mf_dev_field() {	# NODE FIELD
	mf "$1" -j show dev "$(node_if)" 2>/dev/null | jq -r ".[0].$2"
}

# mf_seen_ge NODE N: the device has seen at least N frames (for busywait)
mf_seen_ge() {
	local v
	v=$(mf_dev_field "$1" seen)
	[[ $v =~ ^[0-9]+$ ]] && ((v >= $2))
}

# lines_ge FILE N: FILE has at least N lines (for busywait)
lines_ge() {
	[[ -f $1 ]] && (($(wc -l < "$1") >= $2))
}

mf_entry_dropped() {	# NODE MAC
	mf "$1" -j show dev "$(node_if)" 2>/dev/null |
		jq -r ".[0].entries[] | select(.mac == \"$2\") | .dropped"
}

# send_frames NODE COUNT [frames.py send options]: exactly COUNT test frames
send_frames() {
	local n=$1 c=$2
	shift 2
	nsexec "$n" "$PYTHON" "$AH_ROOT/selftests/lib/frames.py" send "$(node_if)" \
		--src "$(node_mac "$n")" --count "$c" "$@" >/dev/null
}

# ---- DSR -----------------------------------------------------------------

# dsr NODE [-j] COMMAND...: ahctl dsr in that node's namespace
dsr() {
	local n=$1 g=()
	shift
	while [[ ${1:-} == -* ]]; do g+=("$1"); shift; done
	ahctl "${g[@]}" -n "$AH_PREFIX$n" dsr "$@"
}

# dsr_setup [NODE...]: every node (or those given) gets dsr0 over its
# medium interface, which gives up its own address; dsr0 carries the
# node's address and the subnet route.
dsr_setup() {
	local i nodes=("$@")
	((${#nodes[@]})) || mapfile -t nodes < <(seq 1 "$AH_NODES")
	# first, so that dsr0 puts the dsrprio qdisc on every slave (the default)
	load_module sch_dsrprio && load_module dsr || return 1
	for i in "${nodes[@]}"; do
		ip -n "$(ns "$i")" -b - <<-EOF || return 1
			address flush dev $(node_if)
			link add dsr0 type dsr
			link set $(node_if) master dsr0
			addr add $(node_ip "$i")/24 dev dsr0
			link set dsr0 up
		EOF
		# The debug lane's kernel runs several times slower, and so do
		# its round trips under load: the RTO's floor scales as the
		# lane's other timeouts do (rto_min_ms 50 is for real radios).
		if ((${AH_TIME_SCALE:-1} > 1)); then
			dsr "$i" param set dsr0 rto_min_ms $((50 * AH_TIME_SCALE)) ||
				return 1
		fi
	done
}

# hub_dsr_nodes I...: nodes I... (any indices) on the hub, DSR on each
# (dsr0 over eth0, the node's address on dsr0), macfilter attached to
# every eth0 in deny mode: hub_setup, dsr_setup and a macfilter attach, in
# one process start per node instead of about seven (at 50 nodes under
# TCG, hub_setup and dsr_setup alone took minutes).  The namespaces in one
# batch, their sysctls from one process, every hub port in one batch, one
# batch per node for eth0 and dsr0, macfilter from one process.
# AH_NODE_MTU: the MTU of every eth0 and hub port (default the veth's).
hub_dsr_nodes() {
	local i mtu=
	[[ -n ${AH_NODE_MTU:-} ]] && mtu=" mtu $AH_NODE_MTU"
	AH_MEDIUM=hub
	AH_NODES=0
	for i; do ((i > AH_NODES)) && AH_NODES=$i; done
	AH_HUB_NS=$(ns hub)
	load_module sch_dsrprio && load_module dsr && load_module macfilter ||
		return 1
	{
		echo "netns add $AH_HUB_NS"
		for i; do echo "netns add $(ns "$i")"; done
	} | ip -b - || return 1
	quiet_ns "$AH_HUB_NS" $(for i; do ns "$i"; done) || return 1
	{
		echo "link add ahhub type bridge ageing_time 0 stp_state 0 mcast_snooping 0 forward_delay 0"
		echo "link set ahhub up"
		for i; do
			echo "link add port$i$mtu type veth peer name eth0$mtu address $(hub_mac "$i") netns $(ns "$i")"
			echo "link set port$i master ahhub up"
		done
	} | ip -n "$AH_HUB_NS" -b - || return 1
	for i; do
		ip -n "$(ns "$i")" -b - <<-EOF || return 1
			link set lo up
			link set eth0 up
			link add dsr0 type dsr
			link set eth0 master dsr0
			addr add $(node_ip "$i")/24 dev dsr0
			link set dsr0 up
		EOF
		((i % 10)) || echo "  $i nodes up"
	done
	# macfilter on every eth0 (mode deny) from one process
	$PYTHON "$AH_ROOT/selftests/lib/mf_attach.py" eth0 \
		$(for i; do ns "$i"; done) || return 1
	busywait 5000 hub_ports_forwarding
}

# mf_line: macfilter makes the nodes a chain 1 - 2 - ... - N (allow mode:
# each node hears only its neighbours on the line).
mf_line() {
	local i
	load_module macfilter || return 1
	for ((i = 1; i <= AH_NODES; i++)); do
		mf "$i" attach dev "$(node_if)" mode allow || return 1
		((i > 1)) && { mf "$i" add dev "$(node_if)" "$(node_mac $((i - 1)))" || return 1; }
		((i < AH_NODES)) && { mf "$i" add dev "$(node_if)" "$(node_mac $((i + 1)))" || return 1; }
	done
	return 0
}

# mf_links NODE NEIGHBOUR...: NODE hears only these nodes (macfilter allow
# list on its medium interface)
mf_links() {
	local n=$1 m
	shift
	mf "$n" attach dev "$(node_if)" mode allow || return 1
	for m in "$@"; do
		mf "$n" add dev "$(node_if)" "$(node_mac "$m")" || return 1
	done
}

# mf_cut A B: A and B no longer hear each other (allow-mode lists)
mf_cut() {
	mf "$1" del dev "$(node_if)" "$(node_mac "$2")" &&
		mf "$2" del dev "$(node_if)" "$(node_mac "$1")"
}

# mf_link A B: A and B hear each other
mf_link() {
	mf "$1" add dev "$(node_if)" "$(node_mac "$2")" &&
		mf "$2" add dev "$(node_if)" "$(node_mac "$1")"
}

# nl NODE [ARG...] <<EOF: a Python program run in NODE's namespace after a
# prelude (selftests/lib/dsr_nl_prelude.py): genl.py, A, P and C (the
# uapi's attributes, the parameters' attributes in the DSR_A_PARAMS nest,
# and commands by name), pnest() (that nest), params() (dsr0's, by P),
# g (a client of the dsr family), dev (the dsr0 attribute), fail().
# Requests ahctl would not send: its checks are not the kernel's.
nl() {
	local n=$1
	shift
	{ cat "$AH_ROOT/selftests/lib/dsr_nl_prelude.py"; cat
	  printf '\nsys.exit(1 if failed else 0)\n'; } |
		AH_ROOT=$AH_ROOT nsexec "$n" "$PYTHON" - "$@"
}

# nl_nobody NODE [ARG...] <<EOF: as nl, as nobody, without capabilities
nl_nobody() {
	local n=$1
	shift
	{ cat "$AH_ROOT/selftests/lib/dsr_nl_prelude.py"; cat
	  printf '\nsys.exit(1 if failed else 0)\n'; } |
		AH_ROOT=$AH_ROOT nsexec "$n" setpriv --reuid=nobody \
			--inh-caps=-all --bounding-set=-all "$PYTHON" - "$@"
}

# dsr_stat NODE NAME: one ethtool -S counter of dsr0
dsr_stat() {
	local s
	s=$(nsnet "$1" ethtool -S dsr0) || return
	[[ $s == *$'\n'"     $2: "* ]] || return 0
	s=${s#*$'\n'"     $2: "}
	echo "${s%%$'\n'*}"
}

# dsr_stat_ge NODE NAME N: the counter has reached N (for busywait, which
# must run the command, not a value read once)
dsr_stat_ge() { (($(dsr_stat "$1" "$2") >= $3)); }

# dsr_stats NODE: every ethtool -S counter of dsr0, "name value" per line
dsr_stats() {
	nsexec "$1" ethtool -S dsr0 | awk 'NR > 1 {sub(":$", "", $1); print $1, $2}'
}

# dsr_decode PCAP OUT: tshark's view of each packet of PCAP into OUT, a
# line "protocols|DSR option types|malformed mark|expert severities"
# (one tshark run: each start takes long under TCG)
dsr_decode() {
	tshark -r "$1" -T fields -E occurrence=a -E 'separator=|' \
		-e frame.protocols -e dsr.option.type -e _ws.malformed \
		-e _ws.expert.severity > "$2" 2>/dev/null
}

# dsr_decode_count OUT: "N BAD", the DSR packets of dsr_decode's OUT and
# those malformed or with an error (_ws.expert.severity "error" is
# 0x800000)
dsr_decode_count() {
	awk -F'|' '$1 ~ /:dsr/ { n++ }
		{ s = 0; split($4, v, ","); for (i in v) if (v[i] + 0 >= 8388608) s = 1 }
		$3 != "" || s { b++ }
		END { print n + 0, b + 0 }' "$1"
}

# dsr_hops NODE DST: hop count of the route dsr0 uses to DST (shortest)
dsr_hops() {
	dsr "$1" -j route show dsr0 |
		jq -r --arg d "$(node_ip "$2")" \
			'[.[] | select(.dst == $d) | .hopcount] | min // 0'
}

dsr_ping_ok() {	# SRC DST [count]: every echo answered
	nsnet "$1" ping -c "${3:-1}" -i 0.2 -W 2 -q "10.0.0.$2" >/dev/null 2>&1
}

# not_on_this_kernel PREFIX REASON: true (after a diag) unless this kernel's
# release starts with PREFIX.  The longest load runs (Figure 8, prioload,
# the dsrd demo) run on one test kernel each, not both, to keep make check
# within CI's 25 minutes; AH_ALL_KERNELS=1 runs them everywhere, and so
# does the debug lane (one kernel).
not_on_this_kernel() {
	[[ ${AH_ALL_KERNELS:-0} == 1 || ${AH_DEBUG_LANE:-0} == 1 ||
	   $(uname -r) == "$1"* ]] && return 1
	diag "SKIP on $(uname -r): runs on $1* ($2)"
	return 0
}

# skip_in_debug_lane REASON: a case whose kernel paths other cases already
# cover, too slow under KASAN to fit the CI budget twice
skip_in_debug_lane() {
	[[ ${AH_DEBUG_LANE:-0} == 1 ]] || return 1
	diag "SKIP in the debug lane: $*"
	return 0
}
