#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The learned early drop (seed 000 section 4) on simulated PIO cards: R
# learns that its firewall drops a transit flow and drops its frames after
# reading 34 bytes; forwarding resumes within a probe interval of the rule
# going; frames for R itself, broadcast, multicast, other flows and parts
# of fragmented datagrams are never dropped early.
#
#   S (1)                   R (2)                          D (3)
#   pio1p 10.1.0.1  ----  pio1 10.1.0.254     (engine attached to pio1)
#                         pio2 10.2.0.254  ----  pio2p 10.2.0.2, 10.2.0.3
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../lib/transit.sh"

require_cmd jq ahctl ethtool nft

FRAME=1000			# bytes on the card: 14 + 20 + 8 + 958
PAYLOAD=$((FRAME - 42))

# a flow S -> D in early drop, the way every case that needs one gets it
drop_flow() {	# DST
	tr_fwd_rule ip saddr $TR_SRC ip daddr "$1" counter drop &&
	tr_send "$1" $PAYLOAD 12 20 >/dev/null &&
	busywait 2000 tr_flow_state_is $TR_SRC "$1" drop
}

test_learn() {
	local d0 p0 d1 p1 e0 e1 misses
	shared || return 1
	tr_attach || return 1
	tr_fwd_rule ip saddr $TR_SRC ip daddr $TR_DST counter drop || return 1
	# n x mark timeout = 600 ms: 12 datagrams at 20/s take that long
	tr_send $TR_DST $PAYLOAD 12 20 >/dev/null
	check "in early drop after n x mark timeout" \
		tr_flow_state_is $TR_SRC $TR_DST drop || return 1
	misses=$(tr_flow_field $TR_SRC $TR_DST misses)
	diag "flow: $(tr $TR_R flows dev pio1)"
	check "n_misses (3) misses counted" test "$misses" -ge 3 || return 1
	d0=$(tr_dev_field early_drops) p0=$(tr_dev_field pio_bytes_saved)
	e0=$(piosim_stat $TR_R pio1 rx_early_drops)
	tr_send $TR_DST $PAYLOAD 20 50 >/dev/null
	d1=$(tr_dev_field early_drops) p1=$(tr_dev_field pio_bytes_saved)
	e1=$(piosim_stat $TR_R pio1 rx_early_drops)
	diag "early drops +$((d1 - d0)), PIO bytes saved +$((p1 - p0))"
	check "the next frames dropped early (a probe may pass)" \
		test $((d1 - d0)) -ge 19 &&
	check "PIO bytes saved grew by (frame - peek) per dropped frame" \
		test $((p1 - p0)) -eq $(((d1 - d0) * (FRAME - 34))) &&
	check "the card counted the same drops" test $((e1 - e0)) -eq $((d1 - d0))
}

test_resume() {
	local out got fp
	shared || return 1
	out=$(mktemp)
	drop_flow $TR_DST || return 1
	tr_fwd_rule || return 1
	tr_recv_bg 15 2 "$out"
	# 3 s at 50/s; the rule is gone, the next probe (1 s) finds out
	tr_send $TR_DST $PAYLOAD 150 50 >/dev/null
	wait
	read -r got _ < "$out"
	rm -f "$out"
	fp=$(tr_dev_field false_positives)
	diag "received $got of 150, false positives $fp"
	check "forwarding resumed within one probe interval (1 s)" \
		test "$got" -ge $((150 - 60)) &&
	check "the flow is forwarded again" \
		tr_flow_state_is $TR_SRC $TR_DST forward &&
	check "its probe counted as a false positive" test "$fp" -ge 1
}

test_other_flows() {
	local out got
	shared || return 1
	out=$(mktemp)
	drop_flow $TR_DST || return 1
	tr_recv_bg 15 2 "$out"
	tr_send $TR_DST2 $PAYLOAD 100 50 >/dev/null
	wait
	read -r got _ < "$out"
	rm -f "$out"
	diag "to $TR_DST2: received $got of 100"
	check "another flow through R passes whole" test "$got" -eq 100 &&
	check "and is forwarded" tr_flow_state_is $TR_SRC $TR_DST2 forward &&
	check "while the dropped one stays dropped" \
		tr_flow_state_is $TR_SRC $TR_DST drop
}

# every frame reached R's IP layer: the prerouting rule that drops it counted it
nft_count() {	# COMMENT
	nsexec $TR_R nft -j list chain inet tr tpre |
		jq --arg c "$1" '[.nftables[] | select(.rule.comment == $c) |
			.rule.expr[] | select(.counter) | .counter.packets] | add'
}

test_never_dropped() {
	local d0 d1 n0 n1 p what
	shared || return 1
	tr_detach
	# the most eager parameters: one miss drops
	tr_attach n_misses 1 mark_timeout_ms 1 || return 1
	tr_fwd_rule || return 1
	nsexec $TR_R nft -f - <<-EOF || return 1
		flush chain inet tr tpre
		add rule inet tr tpre ip daddr $TR_R1 udp dport 5001 counter drop comment "local"
		add rule inet tr tpre ip daddr 10.1.0.255 counter drop comment "bcast"
		add rule inet tr tpre ip daddr 255.255.255.255 counter drop comment "lbcast"
		add rule inet tr tpre ip daddr 224.0.0.0/4 counter drop comment "mcast"
	EOF
	nsexec $TR_S ip route add 224.0.0.0/4 dev pio1p
	d0=$(tr_dev_field early_drops) n0=$(tr_dev_field false_negatives)
	for p in $TR_R1 10.1.0.255 255.255.255.255 224.1.2.3; do
		tr_send $p 100 40 40 >/dev/null
	done
	d1=$(tr_dev_field early_drops) n1=$(tr_dev_field false_negatives)
	nsexec $TR_S ip route del 224.0.0.0/4 dev pio1p
	for what in local bcast lbcast mcast; do
		diag "$what: $(nft_count $what) of 40 reached R's kernel"
	done
	diag "false negatives +$((n1 - n0)) (read whole, dropped by netfilter)"
	local rc=0
	check "nothing for R was dropped early" test "$d1" -eq "$d0" &&
	check "the 160 frames netfilter dropped: false negatives" \
		test $((n1 - n0)) -eq 160 || rc=1
	for what in local bcast lbcast mcast; do
		check "every $what frame reached R's kernel" \
			test "$(nft_count $what)" -eq 40 || rc=1
	done
	nsexec $TR_R nft flush chain inet tr tpre
	tr_detach
	tr_attach
	return $rc
}

# Datagrams of 3 fragments each, through drop, probe and forward again:
# a fragment is dropped early only with the rest of its datagram.
test_fragments() {
	local out got d0 d1 flows
	shared || return 1
	out=$(mktemp)
	drop_flow $TR_DST || return 1
	# drop_flow's 12 single-frame datagrams: some were dropped early
	d0=$(tr_dev_field early_drops)
	tr_send $TR_DST 3000 40 20 >/dev/null
	tr_fwd_rule || return 1
	tr_recv_bg 15 2 "$out"
	tr_send $TR_DST 3000 60 20 >/dev/null
	wait
	read -r got _ < "$out"
	rm -f "$out"
	d1=$(tr_dev_field early_drops)
	flows=$(tr $TR_R -j flows dev pio1 | jq length)
	diag "early drops $((d1 - d0)) frames, received $got of 60 after the rule went"
	check "fragments dropped early: whole datagrams only" \
		test $(((d1 - d0) % 3)) -eq 0 -a $((d1 - d0)) -gt 0 &&
	check "forwarding resumed (1 s probe)" test "$got" -ge 35 &&
	check "non-first fragments make no flows" test "$flows" -le 2
}

shared_setup transit_setup
ktap_begin 5
run_case "a dropped transit flow is learned and dropped after 34 bytes" test_learn
run_case "rule removed: forwarding resumes within a probe interval" test_resume
run_case "other flows pass while one is dropped" test_other_flows
run_case "local, broadcast and multicast frames are never dropped early" test_never_dropped
run_case "fragmented datagrams are never cut in half" test_fragments
ktap_end
