# SPDX-License-Identifier: GPL-2.0
#
# The transit topology, shared by selftests/transit and bench/fig3.sh: a
# sender S, a router R and a receiver D joined by two piosim pairs
# (simulated programmed-I/O cards, kmod/orinoco_transit/piosim.c).  R
# forwards; the engine is attached to R's card facing S.  Requires lib.sh.
#
#   S (1)                   R (2)                          D (3)
#   pio1p 10.1.0.1  ----  pio1 10.1.0.254
#                         pio2 10.2.0.254  ----  pio2p 10.2.0.2, 10.2.0.3
#
# R's nftables table "inet tr" has a forward (tfwd) and a prerouting (tpre)
# chain for the cases' rules.

TR_S=1 TR_R=2 TR_D=3
TR_SRC=10.1.0.1 TR_R1=10.1.0.254 TR_R2=10.2.0.254
TR_DST=10.2.0.2 TR_DST2=10.2.0.3

# tr NODE [-j] COMMAND...: ahctl transit in that node's namespace
tr() {
	local n=$1 g=()
	shift
	while [[ ${1:-} == -* ]]; do g+=("$1"); shift; done
	ahctl "${g[@]}" -n "$(ns "$n")" transit "$@"
}

transit_setup() {
	local i
	load_module orinoco_transit && load_module piosim || return 1
	echo "${TR_WORD_NS:-100}" > /sys/module/piosim/parameters/word_ns
	for i in $TR_S $TR_R $TR_D; do
		ip netns add "$(ns "$i")" || return 1
		quiet_ns "$(ns "$i")"
	done
	ip -n "$(ns $TR_R)" -b - <<-EOF || return 1
		link add pio1 type piosim
		link add pio2 type piosim
		link set pio1p netns $(ns $TR_S)
		link set pio2p netns $(ns $TR_D)
		addr add $TR_R1/24 dev pio1
		addr add $TR_R2/24 dev pio2
		link set pio1 up
		link set pio2 up
		link set lo up
	EOF
	ip -n "$(ns $TR_S)" -b - <<-EOF || return 1
		addr add $TR_SRC/24 dev pio1p
		link set pio1p up
		link set lo up
		route add default via $TR_R1
	EOF
	ip -n "$(ns $TR_D)" -b - <<-EOF || return 1
		addr add $TR_DST/24 dev pio2p
		addr add $TR_DST2/24 dev pio2p
		link set pio2p up
		link set lo up
		route add default via $TR_R2
	EOF
	nsenter --net="/run/netns/$(ns $TR_R)" sysctl -qw \
		net.ipv4.ip_forward=1 net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.pio1.rp_filter=0 || return 1
	nsexec $TR_R nft -f - <<-EOF || return 1
		table inet tr {
			chain tfwd { type filter hook forward priority 0; }
			chain tpre { type filter hook prerouting priority 0; }
		}
	EOF
	# neighbours resolved before any case counts frames
	nsexec $TR_S ping -c 1 -W 5 -q $TR_DST >/dev/null &&
	nsexec $TR_S ping -c 1 -W 5 -q $TR_DST2 >/dev/null
}

# tr_attach [NAME VALUE ...]: the engine on R's pio1, learning fast unless
# the arguments say otherwise
tr_attach() {
	local -A p=([mark_timeout_ms]=200 [probe_interval_ms]=1000)
	local a=() k

	while (($# >= 2)); do
		p[$1]=$2
		shift 2
	done
	for k in "${!p[@]}"; do
		a+=("$k" "${p[$k]}")
	done
	tr $TR_R attach dev pio1 "${a[@]}"
}

tr_detach() { tr $TR_R detach dev pio1 2>/dev/null; true; }

# tr_dev_field FIELD: one field of R's pio1 as ahctl transit show -j has it
tr_dev_field() {
	tr $TR_R -j show dev pio1 | jq -r ".[0].$1"
}

# tr_flow_field SADDR DADDR FIELD: one field of a flow of R's pio1
tr_flow_field() {
	tr $TR_R -j flows dev pio1 |
		jq -r --arg s "$1" --arg d "$2" \
			".[] | select(.saddr == \$s and .daddr == \$d) | .$3"
}

tr_flow_state_is() {	# SADDR DADDR STATE
	[[ $(tr_flow_field "$1" "$2" state) == "$3" ]]
}

# tr_send DST SIZE COUNT PPS [SRC]: UDP from S (port 5001)
tr_send() {
	nsexec $TR_S "$PYTHON" "$AH_ROOT/selftests/lib/udp.py" send "$1" 5001 \
		"$2" "$3" "$4" ${5:+"$5"}
}

# tr_recv_bg SECS IDLE OUT: count UDP at D (port 5001) in the background
# (wait for it); bound to its port when this returns
tr_recv_bg() {
	nsexec $TR_D "$PYTHON" "$AH_ROOT/selftests/lib/udp.py" recv 5001 \
		"$1" "$2" > "$3" &
	busywait 5000 udp_listening $TR_D 5001
}

# tr_fwd_rule [RULE]: R's forward chain holds only RULE (none without)
tr_fwd_rule() {
	nsexec $TR_R nft flush chain inet tr tfwd || return 1
	[[ $# == 0 ]] || nsexec $TR_R nft add rule inet tr tfwd "$@"
}

# piosim_stat NODE DEV NAME: one ethtool -S counter of a piosim card
piosim_stat() {
	nsexec "$1" ethtool -S "$2" | awk -v k="$3:" '$1 == k {print $2}'
}
