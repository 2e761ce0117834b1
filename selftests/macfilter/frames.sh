#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Odd frames follow the rules: scapy crafts broadcast, multicast,
# VLAN-tagged (802.1Q and 802.1ad) and runt frames from a listed source (C)
# and an unlisted one (B); A's counters must account for every one.
#
#        A(1)      B(2)      C(3)
#          \         |         /
#           +------ ahhub -----+
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl

# craft SRC KIND...: scapy builds the frames once; prints "KIND HEX" lines
craft() {
	"$PYTHON_SITE" "$AH_ROOT/selftests/lib/framekinds.py" "$@"
}

KINDS="broadcast multicast vlan qinq runt"

# send_kind NODE KIND COUNT
send_kind() {
	local hex
	hex=$(awk -v k="$2" '$1 == k { print $2 }' "/tmp/ah-frames-$1.$$")
	nsexec "$1" "$PYTHON" "$AH_ROOT/selftests/lib/frames.py" sendhex eth0 \
		"$hex" "$3"
}

setup() {
	load_module macfilter || return 1
	hub_setup 3 || return 1
	# No IPv4 on the nodes: nothing but the test frames (no IGMP, no
	# replies to crafted packets) reaches A.
	for i in 1 2 3; do nsexec $i ip -4 addr flush dev eth0; done
	mf 1 attach dev eth0 && mf 1 add dev eth0 "$(node_mac 3)"
}

# KIND: 20 frames from C (listed) and 10 from B (unlisted), on the one
# topology all kinds share; counters are compared as deltas.
test_kind() {
	local kind=$1 seen0 passed0 dropped0 entry0
	seen0=$(mf_dev_field 1 seen)
	passed0=$(mf_dev_field 1 passed)
	dropped0=$(mf_dev_field 1 dropped)
	entry0=$(mf_entry_dropped 1 "$(node_mac 3)")
	send_kind 3 "$kind" 20 && send_kind 2 "$kind" 10 || return 1
	busywait 5000 mf_seen_ge 1 $((seen0 + 30))
	diag "$kind: $(mf 1 show dev eth0 | head -1)"
	check "seen 30" test "$(mf_dev_field 1 seen)" -eq $((seen0 + 30)) &&
	check "entry dropped 20 (all from C)" test \
		"$(mf_entry_dropped 1 "$(node_mac 3)")" -eq $((entry0 + 20)) &&
	check "device dropped 20" \
		test "$(mf_dev_field 1 dropped)" -eq $((dropped0 + 20)) &&
	check "passed 10 (all from B)" \
		test "$(mf_dev_field 1 passed)" -eq $((passed0 + 10))
}

require_cmd "$PYTHON_SITE"
"$PYTHON_SITE" -c 'import scapy' 2>/dev/null || { diag "SKIP: no scapy"; exit $ksft_skip; }
craft 02:00:00:00:00:02 $KINDS > "/tmp/ah-frames-2.$$" &&
	craft 02:00:00:00:00:03 $KINDS > "/tmp/ah-frames-3.$$" || exit 1
trap 'ah_cleanup; rm -f /tmp/ah-frames-?.$$' EXIT
ktap_begin 5
setup || exit 1
for k in $KINDS; do
	run_case "$k frames follow the list" test_kind "$k"
done
ktap_end
