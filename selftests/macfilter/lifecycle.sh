#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# macfilter goes away cleanly while frames flow: the list is detached, the
# module is removed, the device is deleted, the namespace exits.  The
# harness then checks the kernel log for BUG, WARNING, refcount and leak
# reports.  One hub and one flood for every case, in that order.
#
#        A(1)      B(2)      C(3)      D(4)
#        list      flood     flood     list (the namespace that exits)
#          \         |         |         /
#           +----------- ahhub ---------+
source "$(dirname "$0")/../lib.sh"

require_cmd ahctl

# B and C flood the hub until the script ends (ah_cleanup kills them)
setup() {
	# dsr.ko receives behind macfilter: it goes first, or rmmod fails
	unload_module dsr || return 1
	load_module macfilter && hub_setup 4 || return 1
	send_frames 2 100000000 --duration 900 &
	send_frames 3 100000000 --duration 900 &
}

# attached NODE: NODE lists C with 50 % loss, and sees the flood
attached() {
	load_module macfilter && mf "$1" attach dev eth0 &&
		mf "$1" add dev eth0 "$(node_mac 3)" loss 50 || return 1
	check "flood reaches $1" busywait 10000 mf_seen_ge "$1" 100
}

test_detach_flood() {
	shared && attached 1 || return 1
	mf 1 detach dev eth0 &&
	check "not attached" not mf 1 show dev eth0 2>/dev/null &&
	check "reattach" mf 1 attach dev eth0 &&
	mf 1 detach dev eth0
}

test_rmmod_flood() {
	local i
	shared && attached 1 || return 1
	for ((i = 0; i < 3; i++)); do
		rmmod macfilter || return 1
		check "module gone" not grep -q "^macfilter " /proc/modules || return 1
		attached 1 || return 1
	done
	rmmod macfilter
}

test_dev_delete_flood() {
	shared && attached 1 || return 1
	ip -n "$AH_HUB_NS" link del port1 || return 1	# deletes A's eth0 too
	check "device list empty" test "$(ahctl -n "$(ns 1)" -j macfilter show | jq length)" -eq 0
}

test_netns_exit_flood() {
	shared && attached 4 || return 1
	ip netns del "$(ns 4)" || return 1
	sleep 1
	check "module still unloads" rmmod macfilter
}

shared_setup setup
ktap_begin 4
run_case "detach while frames flow" test_detach_flood
run_case "rmmod while frames flow" test_rmmod_flood
run_case "device deleted while frames flow" test_dev_delete_flood
run_case "namespace exits while frames flow" test_netns_exit_flood
ktap_end
