#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The engine goes away cleanly while frames flow through a hooked driver:
# the card is deleted, the namespace exits, the modules are removed.  The
# harness then checks the kernel log for BUG, WARNING, refcount and leak
# reports.  Each case builds the topology anew, with S sending to D at
# full speed, half of it into a flow R drops early.
#
#   S (1)                   R (2)                          D (3)
#   pio1p 10.1.0.1  ----  pio1 10.1.0.254     (engine attached to pio1)
#                         pio2 10.2.0.254  ----  pio2p 10.2.0.2, 10.2.0.3
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../lib/transit.sh"

require_cmd jq ahctl nft

flowing() {
	transit_setup && tr_attach || return 1
	tr_fwd_rule ip daddr $TR_DST drop || return 1
	# killed with the namespaces at the end of the case
	tr_send $TR_DST 500 100000 0 >/dev/null &
	disown
	tr_send $TR_DST2 500 100000 0 >/dev/null &
	disown
	check "a flow in early drop" \
		busywait 10000 tr_flow_state_is $TR_SRC $TR_DST drop
}

test_dev_delete() {
	flowing || return 1
	ip -n "$(ns $TR_R)" link del pio1 || return 1
	check "detached" test "$(tr $TR_R -j show | jq length)" -eq 0
}

no_link() { ! ip -n "$(ns "$1")" link show "$2" >/dev/null 2>&1; }

test_netns_exit() {
	flowing || return 1
	ip netns pids "$(ns $TR_R)" | xargs -r kill
	ip netns del "$(ns $TR_R)" || return 1
	check "the cards of R went with it" busywait 10000 no_link $TR_S pio1p
}

test_rmmod() {
	flowing || return 1
	check "rmmod piosim" rmmod piosim &&
	check "rmmod orinoco_transit" rmmod orinoco_transit &&
	check "modules gone" not grep -qE "^(piosim|orinoco_transit) " /proc/modules
}

ktap_begin 3
run_test "card deleted while frames flow" test_dev_delete
run_test "namespace exits while frames flow" test_netns_exit
run_test "rmmod while frames flow" test_rmmod
ktap_end
