# SPDX-License-Identifier: GPL-2.0
#
# hold_static_keys: keep on, for the whole guest run, the kernel's static
# branches that the tests would otherwise switch on and off again and
# again: packet timestamps (every ping, iperf3 and stream.py socket),
# ingress and egress classification (tc clsact, air_setup's redirects),
# the netfilter hooks (dsr0's own, nftables tables) and the dsr
# tracepoints (traced tests).  Sourced by run_guest.sh and soak.sh.
#
# Why: switching a static branch live-patches kernel text (text_poke_bp:
# an int3 first, then the new instruction, with a sync on every CPU in
# between).  Under QEMU 7.2's multi-threaded TCG the other vCPU can still
# execute the int3 after the patch is complete, and the kernel, which
# finds no patch in progress, oopses ("Oops: int3" in netif_rx_internal or
# __netif_receive_skb_core: net_timestamp_check()'s branch), which no CPU
# can do.  docs/testing.md has the crash and how it was found.  With the
# keys held, their branches are never patched while the tests run.

AH_KEYS_HOLDER=
AH_ROOT=${AH_ROOT:-$(pwd)}
PYTHON=${PYTHON:-/usr/bin/python3}

hold_static_keys() {
	local tracefs=/sys/kernel/tracing
	# lib.sh's load_module holds each module's tracepoints then
	export AH_HOLD_KEYS=1
	# net_enable_timestamp(): one socket asking for receive timestamps
	"$PYTHON" "$AH_ROOT/selftests/lib/holdkeys.py" &
	AH_KEYS_HOLDER=$!
	# ingress_needed_key, egress_needed_key (tcx on 6.12): a clsact on lo
	tc qdisc add dev lo clsact 2>/dev/null
	# nf_hooks_needed[ipv4, ipv6][every hook], and the netdev ingress and
	# egress hooks (kmod/slice hooks a granted interface's egress)
	nft -f - <<-'NFT' 2>/dev/null
		table inet ah_keys {
			chain prerouting { type filter hook prerouting priority 0; }
			chain input { type filter hook input priority 0; }
			chain forward { type filter hook forward priority 0; }
			chain output { type filter hook output priority 0; }
			chain postrouting { type filter hook postrouting priority 0; }
		}
		table netdev ah_keys {
			chain ingress { type filter hook ingress device lo priority 0; }
		}
	NFT
	# (a table of its own: an nft without the egress hook keeps the rest)
	nft -f - <<-'NFT' 2>/dev/null
		table netdev ah_keys_egress {
			chain egress { type filter hook egress device lo priority 0; }
		}
	NFT
	[ -d "$tracefs/events" ] || mount -t tracefs nodev "$tracefs" 2>/dev/null
	# Every enabled trace event starts the recording of task names, which
	# hooks sched_switch and sched_wakeup (a static call patched into
	# __schedule()) on the first event and unhooks them after the last:
	# an rmmod that removes a module's enabled events, or a test that
	# traces for a while, patched __schedule() under the other vCPU (the
	# 6.1 lockup: rmmod in text_poke_bp(), the other CPU spinning on its
	# int3 in __schedule()).  One event of the kernel's own that fires
	# only at module loads keeps the recording on for the whole run.
	hold_tracepoints module/module_load
}

# hold_tracepoints MODULE|SYSTEM/EVENT: those trace events stay enabled in
# an instance of their own whose buffer is off (load_module calls it after
# each load of one of ours)
hold_tracepoints() {
	local inst=/sys/kernel/tracing/instances/ah-keys
	[ -d "/sys/kernel/tracing/events/$1" ] || return 0
	[ -d "$inst" ] || mkdir "$inst" 2>/dev/null || return 0
	echo 0 > "$inst/tracing_on"
	echo 1 > "$inst/events/$1/enable" 2>/dev/null
	return 0
}

release_static_keys() {
	[ -n "$AH_KEYS_HOLDER" ] && kill "$AH_KEYS_HOLDER" 2>/dev/null
	nft delete table inet ah_keys 2>/dev/null
	nft delete table netdev ah_keys 2>/dev/null
	nft delete table netdev ah_keys_egress 2>/dev/null
	tc qdisc del dev lo clsact 2>/dev/null
	return 0
}
