#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# macfilter goes away cleanly while frames flow: the device is deleted, the
# namespace exits, the module is removed.  The harness then checks the
# kernel log for BUG, WARNING, refcount and leak reports.
#
#        A(1)      B(2)      C(3)
#        list      flood     flood
#          \         |         /
#           +------ ahhub -----+
source "$(dirname "$0")/../lib.sh"

require_cmd ahctl

flood_setup() {
	load_module macfilter || return 1
	hub_setup 3 || return 1
	mf 1 attach dev eth0 && mf 1 add dev eth0 "$(node_mac 3)" loss 50 || return 1
	send_frames 2 100000000 --duration 30 &
	send_frames 3 100000000 --duration 30 &
	check "flood reaches A" busywait 10000 mf_seen_ge 1 100
}

test_rmmod_flood() {
	flood_setup || return 1
	local i
	for ((i = 0; i < 3; i++)); do
		rmmod macfilter || return 1
		check "module gone" not grep -q "^macfilter " /proc/modules || return 1
		load_module macfilter && mf 1 attach dev eth0 &&
			mf 1 add dev eth0 "$(node_mac 3)" || return 1
		sleep 0.5
	done
	rmmod macfilter
}

test_dev_delete_flood() {
	flood_setup || return 1
	ip -n "$AH_HUB_NS" link del port1 || return 1	# deletes A's eth0 too
	check "device list empty" test "$(ahctl -n "$(ns 1)" -j macfilter show | jq length)" -eq 0
}

test_netns_exit_flood() {
	flood_setup || return 1
	ip netns del "$(ns 1)" || return 1
	sleep 1
	check "module still unloads" rmmod macfilter
}

test_detach_flood() {
	flood_setup || return 1
	mf 1 detach dev eth0 &&
	check "not attached" not mf 1 show dev eth0 2>/dev/null &&
	check "reattach" mf 1 attach dev eth0
}

ktap_begin 4
run_test "rmmod while frames flow" test_rmmod_flood
run_test "device deleted while frames flow" test_dev_delete_flood
run_test "namespace exits while frames flow" test_netns_exit_flood
run_test "detach while frames flow" test_detach_flood
ktap_end
