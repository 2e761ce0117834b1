#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "ahctl dsr mcast" against a stand-in for the dsr module's family
# (fake_dsr.so, preloaded: see fake_dsr.c), in KTAP: its usage errors and
# their exit status (nothing sent), the requests it builds (MCAST_JOIN
# with each attribute of the width the ABI gives it and the tag's
# defaults, MCAST_LEAVE, MCAST_CHAIN with its elements as the ABI has
# them, the GET_MCAST dump), what it prints of the dump (text and JSON),
# the kernel's extack message, and its message when the module is not
# loaded.
#
# Needs the built ahctl (userspace/ahctl/ahctl, or $AHCTL): skipped
# without it.  The stand-in answers from a netlink socket of its own,
# which needs CAP_NET_ADMIN: skipped without it.  Exits 1 if any test
# fails.
set -u

# shellcheck source=fake_run.sh
source "$(dirname "$0")/fake_run.sh"

fake_start fake_dsr.so FAKE_DSR=absent "$AHCTL" "make -C userspace" \
	dsr mcast show dsr0
if ! LD_PRELOAD=$FAKE FAKE_DSR_LOG=/dev/null "$AHCTL" dsr mcast show dsr0 \
	>/dev/null 2>&1; then
	ktap_skip_all "the stand-in cannot answer (sending to ahctl's socket needs CAP_NET_ADMIN)"
fi

# run ARGS...: ahctl under the stand-in (see capture)
run() {
	LD_PRELOAD=$FAKE FAKE_DSR_LOG=$LOG capture "$AHCTL" "$@"
}

J="dsr mcast join dsr0"
SG="source 10.0.0.1 group 239.1.1.1"
USAGE="Usage: ahctl [-j [-p]] [-n NETNS] dsr mcast join DEV source ADDR group GROUP layers N"

# ---- usage errors: exit 2, nothing sent -------------------------------------
expect "join: DEV is required" 2 "dsr mcast join: missing DEV" "" -- \
	dsr mcast join
expect "join: source is required" 2 "missing 'source ADDR'" "" -- \
	$J group 239.1.1.1 layers 3
expect "join: group is required" 2 "missing 'group GROUP'" "" -- \
	$J source 10.0.0.1 layers 3
expect "join: layers is required" 2 "missing 'layers N'" "" -- $J $SG
expect "join: the usage follows the error" 2 "$USAGE" "" -- $J $SG
# bad_addr DESC STDERR-PART SOURCE GROUP: as expect, "join: DESC", of a
# join of SOURCE and GROUP, layers 3: a usage error, nothing sent
bad_addr() {
	expect "join: $1" 2 "$2" "" -- $J source "$3" group "$4" layers 3
}
bad_addr "a source that is not an address" \
	"invalid IPv4 address '10.0.0' (A.B.C.D)" 10.0.0 239.1.1.1
bad_addr "a multicast source" \
	"invalid source '239.1.1.2' (a unicast address: not 0.0.0.0/8, 127.0.0.0/8, nor 224.0.0.0 or above)" \
	239.1.1.2 239.1.1.1
bad_addr "a loopback source" "invalid source '127.0.0.1'" 127.0.0.1 239.1.1.1
bad_addr "a source in 0.0.0.0/8" "invalid source '0.0.0.0'" 0.0.0.0 239.1.1.1
bad_addr "a source in 240.0.0.0/4" "invalid source '255.255.255.255'" \
	255.255.255.255 239.1.1.1
bad_addr "a unicast group" \
	"invalid group '10.0.0.2' (a multicast group, 224.0.1.0 to 239.255.255.255: 224.0.0.0/24 is link-local)" \
	10.0.0.1 10.0.0.2
bad_addr "a link-local group (224.0.0.0/24)" "invalid group '224.0.0.251'" \
	10.0.0.1 224.0.0.251
bad_addr "a group above 239/8" "invalid group '240.0.0.1'" 10.0.0.1 240.0.0.1
expect "join: layers 0" 2 "invalid layers '0' (the layers wanted, 1..128)" "" -- \
	$J $SG layers 0
expect "join: layers 129" 2 "invalid layers '129'" "" -- $J $SG layers 129
expect "join: layers not a number" 2 "invalid layers 'all'" "" -- $J $SG layers all
expect "join: layers negative" 2 "invalid layers '-1'" "" -- $J $SG layers -1
expect "join: an unknown tag mode" 2 "invalid tag 'h264' (byte or rtp)" "" -- \
	$J $SG layers 3 tag h264
expect "join: offset without a tag" 2 "'offset' needs 'tag byte'" "" -- \
	$J $SG layers 3 offset 4
expect "join: offset with tag rtp" 2 "'offset' needs 'tag byte'" "" -- \
	$J $SG layers 3 tag rtp offset 4
expect "join: id with tag byte" 2 "'id' needs 'tag rtp'" "" -- \
	$J $SG layers 3 tag byte id 2
expect "join: tids without a tag" 2 "'tids' needs 'tag rtp'" "" -- \
	$J $SG layers 3 tids 2
expect "join: offset 65536" 2 \
	"invalid offset '65536' (of the tag byte in the UDP payload, 0..65535)" "" -- \
	$J $SG layers 3 tag byte offset 65536
expect "join: id 0 (padding)" 2 \
	"invalid id '0' (the RTP header extension id of the frame marking element, 1..255)" "" -- \
	$J $SG layers 3 tag rtp id 0
expect "join: id 256" 2 "invalid id '256'" "" -- $J $SG layers 3 tag rtp id 256
expect "join: tids 9" 2 "invalid tids '9' (temporal layers a layer id, 0..8)" "" -- \
	$J $SG layers 3 tag rtp tids 9
expect "join: group-layers 0" 2 "invalid group-layers '0' (the group's layers, 1..128)" "" -- \
	$J $SG layers 3 group-layers 0
expect "join: group-layers 129" 2 "invalid group-layers '129'" "" -- \
	$J $SG layers 3 group-layers 129
expect "join: more layers than group-layers" 2 \
	"layers 9 is more than group-layers 8" "" -- \
	$J $SG layers 9 group-layers 8
expect "join: a keyword given twice" 2 "'layers' given twice" "" -- \
	$J $SG layers 3 layers 4
expect "join: a keyword without its value" 2 "'group-layers' needs a value" "" -- \
	$J $SG layers 3 group-layers
expect "join: an unexpected argument" 2 "unexpected argument 'via'" "" -- \
	$J $SG layers 3 via 10.0.0.2
expect "join: -j is show's" 2 "unexpected argument '-j'" "" -- $J $SG layers 3 -j
expect "join: dev with nothing after it" 2 "missing 'source ADDR'" "" -- \
	dsr mcast join dev
expect "join: an interface name too long" 2 \
	"device name 'abcdefghijklmnop' is too long (at most 15 bytes)" "" -- \
	dsr mcast join abcdefghijklmnop $SG layers 3
expect "leave: layers is join's" 2 \
	"dsr mcast leave: 'layers' is not an argument of this command" "" -- \
	dsr mcast leave dsr0 $SG layers 3
expect "leave: tag is join's" 2 "'tag' is not an argument of this command" "" -- \
	dsr mcast leave dsr0 $SG tag byte
expect "leave: group is required" 2 "missing 'group GROUP'" "" -- \
	dsr mcast leave dsr0 source 10.0.0.1
expect "leave: a link-local group" 2 "invalid group '224.0.0.1'" "" -- \
	dsr mcast leave dsr0 source 10.0.0.1 group 224.0.0.1
expect "show: an unexpected argument" 2 \
	"dsr mcast show: unexpected argument '239.1.1.1'" "" -- \
	dsr mcast show dsr0 239.1.1.1
expect "show: DEV is required" 2 "dsr mcast show: missing DEV" "" -- \
	dsr mcast show
expect "mcast: an unknown command" 2 "dsr mcast: unknown command 'list'" "" -- \
	dsr mcast list dsr0

# chain: source and group first, then the elements in order
C="dsr mcast chain dsr0"
CUSAGE="Usage: ahctl [-j [-p]] [-n NETNS] dsr mcast chain DEV source ADDR group GROUP ELEMENT... | default"
ELEMS="(tag, dup, cap C, filter, fanout [bcast B])"
expect "chain: DEV is required" 2 "dsr mcast chain: missing DEV" "" -- \
	dsr mcast chain
expect "chain: no element" 2 "missing ELEMENT... $ELEMS, or 'default'" "" -- \
	$C $SG
expect "chain: the usage follows the error" 2 "$CUSAGE" "" -- $C $SG
expect "chain: source is required" 2 "missing 'source ADDR'" "" -- \
	$C group 239.1.1.1 tag dup
expect "chain: group is required" 2 "missing 'group GROUP'" "" -- \
	$C source 10.0.0.1 fanout
expect "chain: source and group before the elements" 2 \
	"'source' comes before the elements" "" -- \
	$C group 239.1.1.1 dup source 10.0.0.1
expect "chain: group given twice, after an element" 2 "'group' given twice" "" -- \
	$C $SG dup group 239.1.1.2
expect "chain: a link-local group" 2 "invalid group '224.0.0.1'" "" -- \
	$C source 10.0.0.1 group 224.0.0.1 dup
expect "chain: a join's keyword is no element" 2 \
	"unknown element 'layers' $ELEMS" "" -- $C $SG layers 3
expect "chain: an unknown element" 2 "unknown element 'drop' $ELEMS" "" -- \
	$C $SG tag drop fanout
expect "chain: bcast without fanout" 2 "unknown element 'bcast'" "" -- \
	$C $SG dup bcast 2
expect "chain: cap 0" 2 "invalid cap '0' (layers that go on, 1..128)" "" -- \
	$C $SG tag cap 0
expect "chain: cap 129" 2 "invalid cap '129' (layers that go on, 1..128)" "" -- \
	$C $SG cap 129 fanout
expect "chain: cap without its N, last" 2 "'cap' needs a value" "" -- \
	$C $SG tag dup cap
expect "chain: cap without its N, an element after it" 2 \
	"invalid cap 'filter' (layers that go on, 1..128)" "" -- $C $SG cap filter
expect "chain: fanout bcast without its N" 2 "'bcast' needs a value" "" -- \
	$C $SG dup fanout bcast
expect "chain: fanout bcast 255 (the device's: fanout alone)" 2 \
	"invalid bcast '255' (children on one slave that get a broadcast, 0..254)" "" -- \
	$C $SG fanout bcast 255
expect "chain: tag not first" 2 "'tag' must be the first element" "" -- \
	$C $SG dup tag fanout
expect "chain: fanout not last" 2 \
	"'fanout' must be the last element ('filter' after it)" "" -- \
	$C $SG tag fanout filter
expect "chain: fanout bcast N not last" 2 \
	"'fanout' must be the last element ('dup' after it)" "" -- \
	$C $SG fanout bcast 2 dup
expect "chain: an element twice" 2 "'dup' given twice (each element at most once)" "" -- \
	$C $SG dup cap 2 dup
expect "chain: cap twice, of other values" 2 "'cap' given twice" "" -- \
	$C $SG cap 2 cap 3
expect "chain: fanout twice (twice before last, as the module)" 2 \
	"'fanout' given twice" "" -- $C $SG fanout fanout
expect "chain: 8 elements: the count is right, the kinds are not" 2 \
	"'dup' given twice" "" -- $C $SG dup dup dup dup dup dup dup dup
expect "chain: more than 8 elements" 2 "too many elements (at most 8)" "" -- \
	$C $SG tag dup cap 2 filter dup dup dup dup fanout
expect "chain: default with an element" 2 \
	"'default' is a whole chain: no element with it" "" -- $C $SG default fanout
expect "chain: -j is show's" 2 "unknown element '-j'" "" -- $C $SG dup -j

# ---- requests: each attribute of its type's width ---------------------------
R="mcast_join flags=0 v2 ifname=dsr0 mc_source=10.0.0.1 mc_group=239.1.1.1"
expect "join: source, group, layers (u8); no tag" 0 "" "$R mc_layers=3" -- \
	$J $SG layers 3
expect "join: 'dev DEV' as well" 0 "" "$R mc_layers=3" -- \
	dsr mcast join dev dsr0 $SG layers 3
expect "join: keywords in any order" 0 "" "$R mc_layers=3" -- \
	$J layers 3 group 239.1.1.1 source 10.0.0.1
expect "join: tag byte: mode 0, offset (u16) 0 by default" 0 "" \
	"$R mc_layers=3 mc_tag_mode=0 mc_tag_offset=0" -- $J $SG layers 3 tag byte
expect "join: tag byte offset, group-layers" 0 "" \
	"$R mc_layers=8 mc_tag_mode=0 mc_tag_layers=8 mc_tag_offset=65535" -- \
	$J $SG layers 8 tag byte offset 65535 group-layers 8
expect "join: tag rtp: mode 1, id 1 and tids 0 by default" 0 "" \
	"$R mc_layers=2 mc_tag_mode=1 mc_tag_ext_id=1 mc_tag_tids=0" -- \
	$J $SG layers 2 tag rtp
expect "join: tag rtp id tids group-layers, before the tag" 0 "" \
	"$R mc_layers=12 mc_tag_mode=1 mc_tag_layers=12 mc_tag_ext_id=255 mc_tag_tids=8" -- \
	$J $SG layers 12 tids 8 id 255 group-layers 12 tag rtp
expect "join: group-layers alone" 0 "" "$R mc_layers=1 mc_tag_layers=128" -- \
	$J $SG layers 1 group-layers 128
expect "join: layers 128, group 224.0.1.0, source 223.255.255.254" 0 "" \
	"mcast_join flags=0 v2 ifname=dsr0 mc_source=223.255.255.254 mc_group=224.0.1.0 mc_layers=128" -- \
	$J source 223.255.255.254 group 224.0.1.0 layers 128
expect "join: group 239.255.255.255, source 1.0.0.1" 0 "" \
	"mcast_join flags=0 v2 ifname=dsr0 mc_source=1.0.0.1 mc_group=239.255.255.255 mc_layers=1" -- \
	$J source 1.0.0.1 group 239.255.255.255 layers 1
expect "leave: source and group" 0 "" \
	"mcast_leave flags=0 v2 ifname=dsr0 mc_source=10.0.0.1 mc_group=239.1.1.1" -- \
	dsr mcast leave dev dsr0 group 239.1.1.1 source 10.0.0.1
RC="mcast_chain flags=0 v2 ifname=dsr0 mc_source=10.0.0.1 mc_group=239.1.1.1"
expect "chain: each element as the ABI has it (kind:arg), fanout alone 255" 0 "" \
	"$RC mc_chain=1:0,2:0,3:2,4:0,5:255" -- $C $SG tag dup cap 2 filter fanout
expect "chain: in the order given" 0 "" "$RC mc_chain=1:0,4:0,3:4,2:0,5:255" -- \
	$C $SG tag filter cap 4 dup fanout
expect "chain: fanout bcast N" 0 "" "$RC mc_chain=2:0,5:3" -- \
	$C $SG dup fanout bcast 3
expect "chain: fanout bcast 0, a copy each" 0 "" "$RC mc_chain=5:0" -- \
	$C $SG fanout bcast 0
expect "chain: fanout bcast 254" 0 "" "$RC mc_chain=1:0,5:254" -- \
	$C $SG tag fanout bcast 254
expect "chain: cap 1" 0 "" "$RC mc_chain=3:1" -- $C $SG cap 1
expect "chain: cap 128, after tag" 0 "" "$RC mc_chain=1:0,3:128" -- \
	$C $SG tag cap 128
expect "chain: filter alone" 0 "" "$RC mc_chain=4:0" -- $C $SG filter
expect "chain: without fanout (nothing forwarded)" 0 "" "$RC mc_chain=1:0,2:0" -- \
	$C $SG tag dup
expect "chain: default: no MC_CHAIN" 0 "" "$RC" -- $C $SG default
expect "chain: 'dev DEV', group before source" 0 "" "$RC mc_chain=2:0" -- \
	dsr mcast chain dev dsr0 group 239.1.1.1 source 10.0.0.1 dup
expect "map: group and source" 0 "" \
	"mcast_map flags=0 v2 ifname=dsr0 mc_source=10.0.0.1 mc_group=239.1.1.1" -- \
	dsr mcast map dsr0 group 239.1.1.1 source 10.0.0.1
expect "unmap: a source" 0 "" \
	"mcast_unmap flags=0 v2 ifname=dsr0 mc_source=10.0.0.1 mc_group=239.1.1.1" -- \
	dsr mcast unmap dev dsr0 source 10.0.0.1 group 239.1.1.1
expect "unmap: the group alone" 0 "" \
	"mcast_unmap flags=0 v2 ifname=dsr0 mc_group=239.1.1.1" -- \
	dsr mcast unmap dsr0 group 239.1.1.1
expect "map: source is required" 2 "missing 'source ADDR'" "" -- \
	dsr mcast map dsr0 group 239.1.1.1
expect "map: a join's keywords are not its" 2 "unexpected argument 'layers'" "" -- \
	dsr mcast map dsr0 group 239.1.1.1 source 10.0.0.1 layers 2
expect "map: a group checked as a join's" 2 "invalid group '224.0.0.5'" "" -- \
	dsr mcast map dsr0 group 224.0.0.5 source 10.0.0.1
expect "unmap: group is required" 2 "missing 'group GROUP'" "" -- \
	dsr mcast unmap dsr0 source 10.0.0.1
expect "show: a dump" 0 "" "get_mcast flags=dump v2 ifname=dsr0" -- \
	dsr mcast show dsr0
expect "show: -j after DEV" 0 "" "get_mcast flags=dump v2 ifname=dsr0" -- \
	dsr mcast show dev dsr0 -j

# ---- replies ----------------------------------------------------------------
TEXT=$'source 10.0.0.1 group 239.1.1.1 upstream 10.0.0.2 layers 3 asked 5 tag byte offset 0 group-layers 8 chain tag dup filter fanout
\tchild 10.0.0.4 layers 2 dev lo expires 2310ms
\tchild 10.0.0.5 layers 5 dev lo expires 900ms
\tlayer 0 fwd_packets 300 fwd_bytes 390000 filtered_packets 0 filtered_bytes 0 local_packets 300 local_bytes 390000 capped_packets 0
\tlayer 4 fwd_packets 150 fwd_bytes 195000 filtered_packets 150 filtered_bytes 195000 local_packets 0 local_bytes 0 capped_packets 0
source 10.0.0.9 group 239.2.2.2 upstream none layers 1 igmp mapped asked 0 tag rtp id 3 tids 2 group-layers 6 chain dup cap 2 unknown-9 1 fanout bcast 0
\tlayer 0 fwd_packets 0 fwd_bytes 0 filtered_packets 0 filtered_bytes 0 local_packets 7 local_bytes 9100 capped_packets 0
\tlayer 3 fwd_packets 0 fwd_bytes 0 filtered_packets 0 filtered_bytes 0 local_packets 0 local_bytes 0 capped_packets 40
source 10.0.0.7 group 239.3.3.3
\tchild 10.0.0.8 layers 1 dev lo expires 50ms
map group 239.2.2.2 source 10.0.0.9
map group 239.2.2.2 source 10.0.0.1'
run dsr mcast show dsr0
same "show: a line per group, its children and layers under it; upstream none; the tag's fields of its mode; the source map's lines; a row of a kind unknown left out" \
	"$stdout" "$TEXT"
same "show: the chain last on its group's line, in mcast chain's words (fanout alone: the device's; a kind unknown as unknown-KIND ARG); capped_packets last on a layer's" \
	"$(grep -o 'chain .*' <<< "$stdout"; grep -o 'capped_packets [0-9]*$' <<< "$stdout" | paste -sd' ')" \
	$'chain tag dup filter fanout\nchain dup cap 2 unknown-9 1 fanout bcast 0\ncapped_packets 0 capped_packets 0 capped_packets 0 capped_packets 40'

JSON='[{"mc_row":"group","mc_source":"10.0.0.1","mc_group":"239.1.1.1","mc_upstream":"10.0.0.2","mc_layers":3,"mc_local_igmp":false,"mc_mapped":false,"mc_asked":5,"mc_tag_mode":"byte","mc_tag_offset":0,"mc_tag_layers":8,"mc_chain":["tag","dup","filter","fanout"]},{"mc_row":"child","mc_source":"10.0.0.1","mc_group":"239.1.1.1","addr":"10.0.0.4","mc_layers":2,"slave":1,"expires_ms":2310},{"mc_row":"child","mc_source":"10.0.0.1","mc_group":"239.1.1.1","addr":"10.0.0.5","mc_layers":5,"slave":1,"expires_ms":900},{"mc_row":"layer","mc_source":"10.0.0.1","mc_group":"239.1.1.1","mc_layer":0,"mc_fwd_packets":300,"mc_fwd_bytes":390000,"mc_filt_packets":0,"mc_filt_bytes":0,"mc_local_packets":300,"mc_local_bytes":390000,"mc_capped_packets":0},{"mc_row":"layer","mc_source":"10.0.0.1","mc_group":"239.1.1.1","mc_layer":4,"mc_fwd_packets":150,"mc_fwd_bytes":195000,"mc_filt_packets":150,"mc_filt_bytes":195000,"mc_local_packets":0,"mc_local_bytes":0,"mc_capped_packets":0},{"mc_row":"group","mc_source":"10.0.0.9","mc_group":"239.2.2.2","mc_upstream":"0.0.0.0","mc_layers":1,"mc_local_igmp":true,"mc_mapped":true,"mc_asked":0,"mc_tag_mode":"rtp","mc_tag_ext_id":3,"mc_tag_tids":2,"mc_tag_layers":6,"mc_chain":["dup","cap 2","unknown-9 1","fanout bcast 0"]},{"mc_row":"layer","mc_source":"10.0.0.9","mc_group":"239.2.2.2","mc_layer":0,"mc_fwd_packets":0,"mc_fwd_bytes":0,"mc_filt_packets":0,"mc_filt_bytes":0,"mc_local_packets":7,"mc_local_bytes":9100,"mc_capped_packets":0},{"mc_row":"layer","mc_source":"10.0.0.9","mc_group":"239.2.2.2","mc_layer":3,"mc_fwd_packets":0,"mc_fwd_bytes":0,"mc_filt_packets":0,"mc_filt_bytes":0,"mc_local_packets":0,"mc_local_bytes":0,"mc_capped_packets":40},{"mc_row":"child","mc_source":"10.0.0.7","mc_group":"239.3.3.3","addr":"10.0.0.8","mc_layers":1,"slave":1,"expires_ms":50},{"mc_row":"map","mc_group":"239.2.2.2","mc_source":"10.0.0.9"},{"mc_row":"map","mc_group":"239.2.2.2","mc_source":"10.0.0.1"},{"mc_row":"unknown","mc_source":"10.0.0.7","mc_group":"239.3.3.3"}]'
run -j dsr mcast show dsr0
same "show -j: an array of every row, the attributes' names as keys" \
	"$stdout" "$JSON"
run dsr mcast show dsr0 -j
same "show -j after DEV: the same" "$stdout" "$JSON"
run dsr mcast show dsr0 -p
if python3 -c 'import json, sys
d = json.load(sys.stdin)
assert [r["mc_row"] for r in d][:3] == ["group", "child", "child"]
assert d[5]["mc_tag_mode"] == "rtp" and d[5]["mc_upstream"] == "0.0.0.0"
assert d[0]["mc_chain"] == ["tag", "dup", "filter", "fanout"]
assert d[7]["mc_capped_packets"] == 40' \
	<<< "$stdout" 2>/dev/null && [[ $stdout == *$'\n  '* ]]; then
	result 1 "show -p after DEV: indented JSON"
else
	result 0 "show -p after DEV: indented JSON" "got: $stdout"
fi

FAKE_DSR_ERROR="22:layers above the group's layer count" expect \
	"join refused: errno and the kernel's extack message, exit 1" 1 \
	"ahctl: Invalid argument: layers above the group's layer count" \
	"$R mc_layers=3" -- $J $SG layers 3
FAKE_DSR_ERROR="2:no such group" expect \
	"leave refused: the kernel's message" 1 "ahctl: No such file or directory: no such group" \
	"mcast_leave flags=0 v2 ifname=dsr0 mc_source=10.0.0.1 mc_group=239.1.1.1" -- \
	dsr mcast leave dsr0 $SG
FAKE_DSR_ERROR="2:no such group" expect \
	"chain refused: errno and the kernel's extack message, exit 1" 1 \
	"ahctl: No such file or directory: no such group" \
	"$RC mc_chain=2:0,5:0" -- $C $SG dup fanout bcast 0
FAKE_DSR_ERROR="95" expect \
	"chain default refused by a module without the command, no extack" 1 \
	"ahctl: Operation not supported" "$RC" -- $C $SG default
FAKE_DSR_ERROR="19:not a dsr device" expect "show refused: the kernel's message" 1 \
	"ahctl: No such device: not a dsr device" \
	"get_mcast flags=dump v2 ifname=eth0" -- dsr mcast show eth0

# ---- no module --------------------------------------------------------------
for args in "dsr mcast show dsr0" "$J $SG layers 3" "dsr mcast leave dsr0 $SG" \
	"$C $SG tag cap 2 fanout"; do
	# shellcheck disable=SC2086
	FAKE_DSR=absent expect "without the module: ${args%% source*}" 1 \
		"ahctl: dsr: kernel module not loaded (modprobe dsr)" "" -- $args
done

ktap_done
