#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dsrd's [mcast] joins against a stand-in for the dsr module's family
# (fake_dsr.so, preloaded into dsrd_mcast_run, which is dsrd without its
# main(): see dsrd_mcast_run.c), in KTAP: the requests its start makes
# (one MCAST_JOIN a section, on the device's ifindex, with the attributes
# "ahctl dsr mcast join" sends for the same words: each of its ABI width,
# the tag's defaults) and its reloads (nothing for an unchanged file; one
# LEAVE for a section taken out and one JOIN for a changed one; a tag
# taken out sent as the kernel's default tag); a join the kernel refuses
# counted, not kept, and tried again on the next reload; a leave refused
# kept and tried again, unless the kernel has no such group; a start that
# stops at a refused join; each Chain as one MCAST_CHAIN after its join,
# "ahctl dsr mcast chain"'s for the same words (sent again only when the
# join is or the Chain changed, "default" for a Chain taken out; one
# refused counted and sent again, one of a group the kernel has not
# forgetting the join); the source map of [mcast.map] (one MCAST_MAP a
# new (group, source), before the joins, one MCAST_UNMAP a pair taken
# out, ahctl's attributes; a map the kernel has already kept, one refused
# not kept and sent again, an unmap of a pair the kernel has not
# forgotten, one refused kept and sent again, a start that stops at a
# refused map); and "dsrd --check" on [mcast] and [mcast.map] sections.
#
# Needs the built dsrd (userspace/dsrd/dsrd, for --check; or $DSRD) and
# dsrd_mcast_run and fake_dsr.so (make -C tests/unit): skipped without
# them.  The stand-in answers from a netlink socket of its own, which
# needs CAP_NET_ADMIN: skipped without it.  Exits 1 if any test fails.
set -u

# shellcheck source=fake_run.sh
source "$(dirname "$0")/fake_run.sh"

dsrd_start fake_dsr.so FAKE_DSR=absent dsrd_mcast_run

# conf NAME [SECTION]...: $TMP/NAME, a [dsr] and an [mcast] per SECTION,
# "SOURCE GROUP LAYERS [Key=Value]..." (a comma in a Value is a blank:
# Chain=dup,cap,2)
conf() {
	local f=$TMP/$1 sec s g l rest kv
	shift
	printf '[dsr]\nAddress = 10.0.0.5/24\n' > "$f"
	for sec in "$@"; do
		read -r s g l rest <<< "$sec"
		printf '[mcast]\nSource = %s\nGroup = %s\nLayers = %s\n' \
			"$s" "$g" "$l" >> "$f"
		for kv in $rest; do
			kv=${kv//,/ }
			printf '%s = %s\n' "${kv%%=*}" "${kv#*=}" >> "$f"
		done
	done
}

# run ARGS...: dsrd_mcast_run under the stand-in (see capture; $req has
# "-- CONF" before each CONF's requests)
run() {
	LD_PRELOAD=$FAKE FAKE_DSR_LOG=$LOG capture "$RUN" "$@"
}

conf one "10.0.0.1 239.1.1.1 2"
run one
if [[ $rc != 0 || $stdout != "one: failed 0;"* ]]; then
	ktap_skip_all "the stand-in cannot answer (sending to dsrd's socket needs CAP_NET_ADMIN)"
fi

J="mcast_join flags=0 v2 ifindex=7"
L="mcast_leave flags=0 v2 ifindex=7"
C="mcast_chain flags=0 v2 ifindex=7"

# ---- start, then reloads ----------------------------------------------------
# start: a group without a tag, one with "Tag = rtp" (its defaults), one
# with every byte field; 1: the same file; 2: the first taken out, the
# second's Layers changed; 3: the third's tag taken out
conf start "10.0.0.1 239.1.1.1 2" "10.0.0.1 239.1.1.2 3 Tag=rtp" \
	"10.0.0.9 239.1.1.3 4 GroupLayers=8 Offset=65535 Tag=byte"
cp "$TMP/start" "$TMP/1"
conf 2 "10.0.0.1 239.1.1.2 1 Tag=rtp" \
	"10.0.0.9 239.1.1.3 4 GroupLayers=8 Offset=65535 Tag=byte"
conf 3 "10.0.0.1 239.1.1.2 1 Tag=rtp" "10.0.0.9 239.1.1.3 4"
run start 1 2 3 3
same "start, then reloads: what dsrd holds after each" "$stdout
exit $rc" \
"start: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2; source 10.0.0.1 group 239.1.1.2 layers 3 tag rtp id 1 tids 0; source 10.0.0.9 group 239.1.1.3 layers 4 tag byte offset 65535 group-layers 8
1: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2; source 10.0.0.1 group 239.1.1.2 layers 3 tag rtp id 1 tids 0; source 10.0.0.9 group 239.1.1.3 layers 4 tag byte offset 65535 group-layers 8
2: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.2 layers 1 tag rtp id 1 tids 0; source 10.0.0.9 group 239.1.1.3 layers 4 tag byte offset 65535 group-layers 8
3: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.2 layers 1 tag rtp id 1 tids 0; source 10.0.0.9 group 239.1.1.3 layers 4
3: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.2 layers 1 tag rtp id 1 tids 0; source 10.0.0.9 group 239.1.1.3 layers 4
exit 0"
same "start: a JOIN a section, each attribute of its width, the tag's defaults" \
	"$(sed -n '/^-- start$/,/^-- 1$/p' <<< "$req")" \
"-- start
$J mc_source=10.0.0.1 mc_group=239.1.1.1 mc_layers=2
$J mc_source=10.0.0.1 mc_group=239.1.1.2 mc_layers=3 mc_tag_mode=1 mc_tag_ext_id=1 mc_tag_tids=0
$J mc_source=10.0.0.9 mc_group=239.1.1.3 mc_layers=4 mc_tag_mode=0 mc_tag_layers=8 mc_tag_offset=65535
-- 1"
same "reload: nothing for an unchanged file; a LEAVE for the section taken out, a JOIN for the changed one" \
	"$(sed -n '/^-- 1$/,/^-- 3$/p' <<< "$req")" \
"-- 1
-- 2
$L mc_source=10.0.0.1 mc_group=239.1.1.1
$J mc_source=10.0.0.1 mc_group=239.1.1.2 mc_layers=1 mc_tag_mode=1 mc_tag_ext_id=1 mc_tag_tids=0
-- 3"
same "reload: a tag taken out is sent as a new group's (byte, offset 0, 128 layers), once" \
	"$(sed -n '/^-- 3$/,$p' <<< "$req")" \
"-- 3
$J mc_source=10.0.0.9 mc_group=239.1.1.3 mc_layers=4 mc_tag_mode=0 mc_tag_layers=128 mc_tag_offset=0
-- 3"
has "start and reloads: what dsrd logs" "$stderr" \
	"dsrd: dsr0: mcast source 10.0.0.1 group 239.1.1.1 layers 2: joined" \
	"dsrd: dsr0: mcast source 10.0.0.1 group 239.1.1.1: left" \
	"dsrd: dsr0: mcast source 10.0.0.1 group 239.1.1.2 layers 1 tag rtp id 1 tids 0: joined again (was layers 3 tag rtp id 1 tids 0)"

# ---- the same joins as ahctl's ----------------------------------------------
# each section against "ahctl dsr mcast join" with the same words, under
# the same stand-in: the same attributes (after the device's)
if [[ -x $AHCTL ]] && ! ldd "$AHCTL" 2>/dev/null | grep -q libasan; then
	conf words "10.0.0.1 239.1.1.1 2 Tag=rtp Id=255 Tids=8 GroupLayers=12" \
		"223.255.255.254 224.0.1.0 128" \
		"1.0.0.1 239.255.255.255 1 GroupLayers=128" \
		"10.0.0.1 239.1.1.4 3 Tag=byte"
	run words
	dsrd_req=$(grep -v '^--' <<< "$req" | sed 's/ ifindex=7//')
	: > "$LOG"
	for a in "source 10.0.0.1 group 239.1.1.1 layers 2 tag rtp id 255 tids 8 group-layers 12" \
		 "source 223.255.255.254 group 224.0.1.0 layers 128" \
		 "source 1.0.0.1 group 239.255.255.255 layers 1 group-layers 128" \
		 "source 10.0.0.1 group 239.1.1.4 layers 3 tag byte"; do
		# shellcheck disable=SC2086
		LD_PRELOAD=$FAKE FAKE_DSR_LOG=$LOG "$AHCTL" dsr mcast join dsr0 $a
	done
	same "each JOIN is ahctl's for the same words" "$dsrd_req" \
		"$(sed 's/ ifname=dsr0//' "$LOG")"
else
	result 1 "each JOIN is ahctl's for the same words # SKIP no ahctl without ASan"
fi

# ---- element chains ----------------------------------------------------------
# start: a Chain of every element, a section without one, "Chain =
# default"; c1: the same file; c2: the first's Chain changed, the second
# given one; c3: the first's Chain taken out, the second's Layers changed,
# the third's "default" taken out; c3 again
conf cstart "10.0.0.1 239.1.1.1 2 Chain=tag,dup,cap,2,filter,fanout,bcast,0" \
	"10.0.0.1 239.1.1.2 3" "10.0.0.1 239.1.1.3 1 Chain=default"
cp "$TMP/cstart" "$TMP/c1"
conf c2 "10.0.0.1 239.1.1.1 2 Chain=dup,fanout" \
	"10.0.0.1 239.1.1.2 3 Chain=filter,fanout" \
	"10.0.0.1 239.1.1.3 1 Chain=default"
conf c3 "10.0.0.1 239.1.1.1 2" "10.0.0.1 239.1.1.2 4 Chain=filter,fanout" \
	"10.0.0.1 239.1.1.3 1"
run cstart c1 c2 c3 c3
same "chains: the joins dsrd holds, nothing failed" "$stdout
exit $rc" \
"cstart: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2; source 10.0.0.1 group 239.1.1.2 layers 3; source 10.0.0.1 group 239.1.1.3 layers 1
c1: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2; source 10.0.0.1 group 239.1.1.2 layers 3; source 10.0.0.1 group 239.1.1.3 layers 1
c2: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2; source 10.0.0.1 group 239.1.1.2 layers 3; source 10.0.0.1 group 239.1.1.3 layers 1
c3: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2; source 10.0.0.1 group 239.1.1.2 layers 4; source 10.0.0.1 group 239.1.1.3 layers 1
c3: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2; source 10.0.0.1 group 239.1.1.2 layers 4; source 10.0.0.1 group 239.1.1.3 layers 1
exit 0"
same "start: a Chain's MCAST_CHAIN right after its join; \"default\" without MC_CHAIN" \
	"$(sed -n '/^-- cstart$/,/^-- c1$/p' <<< "$req")" \
"-- cstart
$J mc_source=10.0.0.1 mc_group=239.1.1.1 mc_layers=2
$C mc_source=10.0.0.1 mc_group=239.1.1.1 mc_chain=1:0,2:0,3:2,4:0,5:0
$J mc_source=10.0.0.1 mc_group=239.1.1.2 mc_layers=3
$J mc_source=10.0.0.1 mc_group=239.1.1.3 mc_layers=1
$C mc_source=10.0.0.1 mc_group=239.1.1.3
-- c1"
same "reload: only Chain changed (or given): only the MCAST_CHAIN" \
	"$(sed -n '/^-- c1$/,/^-- c3$/p' <<< "$req" | head -n -1)" \
"-- c1
-- c2
$C mc_source=10.0.0.1 mc_group=239.1.1.1 mc_chain=2:0,5:255
$C mc_source=10.0.0.1 mc_group=239.1.1.2 mc_chain=4:0,5:255"
same "reload: a Chain taken out sends default, once; a changed join, its Chain again" \
	"$(sed -n '/^-- c3$/,$p' <<< "$req")" \
"-- c3
$C mc_source=10.0.0.1 mc_group=239.1.1.1
$J mc_source=10.0.0.1 mc_group=239.1.1.2 mc_layers=4
$C mc_source=10.0.0.1 mc_group=239.1.1.2 mc_chain=4:0,5:255
$C mc_source=10.0.0.1 mc_group=239.1.1.3
-- c3"
has "chains: what dsrd logs, in ahctl's words" "$stderr" \
	"dsrd: dsr0: mcast chain source 10.0.0.1 group 239.1.1.1 tag dup cap 2 filter fanout bcast 0: set" \
	"dsrd: dsr0: mcast chain source 10.0.0.1 group 239.1.1.1 dup fanout: set" \
	"dsrd: dsr0: mcast chain source 10.0.0.1 group 239.1.1.1 default: set"

# each Chain against "ahctl dsr mcast chain" with the same words, under
# the same stand-in: the same attributes (after the device's)
chains=("tag dup cap 2 filter fanout bcast 0" "default" "fanout"
	"cap 128 fanout bcast 254" "dup filter" "tag cap 1")
if [[ -x $AHCTL ]] && ! ldd "$AHCTL" 2>/dev/null | grep -q libasan; then
	secs=()
	for i in "${!chains[@]}"; do
		secs+=("10.0.0.1 239.1.2.$((i + 1)) 1 Chain=${chains[i]// /,}")
	done
	conf cwords "${secs[@]}"
	run cwords
	dsrd_req=$(grep '^mcast_chain' <<< "$req" | sed 's/ ifindex=7//')
	: > "$LOG"
	for i in "${!chains[@]}"; do
		# shellcheck disable=SC2086
		LD_PRELOAD=$FAKE FAKE_DSR_LOG=$LOG "$AHCTL" dsr mcast chain dsr0 \
			source 10.0.0.1 group "239.1.2.$((i + 1))" ${chains[i]}
	done
	same "each MCAST_CHAIN is ahctl's for the same words" "$dsrd_req" \
		"$(sed 's/ ifname=dsr0//' "$LOG")"
else
	result 1 "each MCAST_CHAIN is ahctl's for the same words # SKIP no ahctl without ASan"
fi

# a chain refused: counted, the join kept; the next reload sends the
# chain again, and only it; refused as of no such group (ENOENT): the
# join forgotten as well, and the next reload joins and sends both
conf cj "10.0.0.1 239.1.1.1 2"
conf cc "10.0.0.1 239.1.1.1 2 Chain=dup,fanout"
run cj FAKE_DSR_ERROR="22:tag must be the first element" cc \
	FAKE_DSR_ERROR= cc cc
same "a refused chain: counted, the join kept; sent again on the next reload" \
	"$stdout
$(grep -v '^--' <<< "$req")" \
"cj: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
cc: failed 1; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
cc: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
cc: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
$J mc_source=10.0.0.1 mc_group=239.1.1.1 mc_layers=2
$C mc_source=10.0.0.1 mc_group=239.1.1.1 mc_chain=2:0,5:255
$C mc_source=10.0.0.1 mc_group=239.1.1.1 mc_chain=2:0,5:255"
run cj FAKE_DSR_ERROR="2:no local receivers of this source and group" cc \
	FAKE_DSR_ERROR= cc
same "a chain of a group the kernel has not: the join forgotten; the next reload joins again" \
	"$stdout
$(grep -v '^--' <<< "$req")" \
"cj: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
cc: failed 1; joined by dsrd:
cc: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
$J mc_source=10.0.0.1 mc_group=239.1.1.1 mc_layers=2
$C mc_source=10.0.0.1 mc_group=239.1.1.1 mc_chain=2:0,5:255
$J mc_source=10.0.0.1 mc_group=239.1.1.1 mc_layers=2
$C mc_source=10.0.0.1 mc_group=239.1.1.1 mc_chain=2:0,5:255"

# ---- the kernel refuses -----------------------------------------------------
# 239.1.1.4 is refused on reload 4: the others still go, it is not kept;
# on reload 5 (no error) it is sent again, and only it
conf 4a "10.0.0.1 239.1.1.1 2"
conf 4 "10.0.0.1 239.1.1.1 3" "10.0.0.1 239.1.1.4 2" "10.0.0.1 239.1.1.5 2"
run 4a FAKE_DSR_ERROR="28:the multicast table is full" \
	FAKE_DSR_ERROR_GROUP=239.1.1.4 4 FAKE_DSR_ERROR= 4
same "a refused join: counted, not kept; the next reload sends it again" \
	"$stdout
$req" \
"4a: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
4: failed 1; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 3; source 10.0.0.1 group 239.1.1.5 layers 2
4: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 3; source 10.0.0.1 group 239.1.1.5 layers 2; source 10.0.0.1 group 239.1.1.4 layers 2
-- 4a
$J mc_source=10.0.0.1 mc_group=239.1.1.1 mc_layers=2
-- 4
$J mc_source=10.0.0.1 mc_group=239.1.1.1 mc_layers=3
$J mc_source=10.0.0.1 mc_group=239.1.1.4 mc_layers=2
$J mc_source=10.0.0.1 mc_group=239.1.1.5 mc_layers=2
-- 4
$J mc_source=10.0.0.1 mc_group=239.1.1.4 mc_layers=2"
has "a refused join: the kernel's reason, and what it means" "$stderr" \
	"dsrd: No space left on device: the multicast table is full" \
	"dsrd: dsr0: mcast source 10.0.0.1 group 239.1.1.4 layers 2: cannot join"

# a changed join refused: the join as it was stays dsrd's
run 4a FAKE_DSR_ERROR="22:layers must be 1..128" 4
same "a refused change: counted; the join as it was stays" "$stdout" \
"4a: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
4: failed 3; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2"

# leaves: refused (kept, left on the next reload), or of a group the
# kernel does not have (forgotten, not a failure)
conf none
run 4a FAKE_DSR_ERROR="1:no" none FAKE_DSR_ERROR= none
same "a refused leave: counted, kept; the next reload leaves again" \
	"$stdout
$(grep -c mcast_leave <<< "$req")" \
"4a: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
none: failed 1; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
none: failed 0; joined by dsrd:
2"
run 4a FAKE_DSR_ERROR="2:no local receivers of this source and group" none none
same "a leave of a group the kernel has not: forgotten, not a failure" \
	"$stdout
$(grep -c mcast_leave <<< "$req")" \
"4a: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2
none: failed 0; joined by dsrd:
none: failed 0; joined by dsrd:
1"
has "a leave of a group the kernel has not: logged" "$stderr" \
	"dsrd: dsr0: mcast source 10.0.0.1 group 239.1.1.1: no local receivers in the kernel (left meanwhile); forgotten"

# a start stops at the first join refused (dsrd then undoes everything)
run FAKE_DSR_ERROR="95:nope" FAKE_DSR_ERROR_GROUP=239.1.1.4 4
same "start: a refused join stops it, no join after it" "$stdout
$(grep -c mcast_join <<< "$req")" \
"4: failed 1; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 3
2"

# ---- the source map, [mcast.map] -------------------------------------------
# mconf NAME [GROUP SOURCE...]...: $TMP/NAME, a [dsr] and an [mcast.map]
# per argument; MC=1 adds an [mcast] after them
mconf() {
	local f=$TMP/$1 sec g s
	shift
	printf '[dsr]\nAddress = 10.0.0.5/24\n' > "$f"
	for sec in "$@"; do
		read -r g s <<< "$sec"
		printf '[mcast.map]\nGroup = %s\n' "$g" >> "$f"
		for s in $s; do
			printf 'Source = %s\n' "$s" >> "$f"
		done
	done
	if [[ ${MC:-0} == 1 ]]; then
		printf '[mcast]\nSource = 10.0.0.1\nGroup = 239.1.1.1\nLayers = 2\n' >> "$f"
	fi
}

M="mcast_map flags=0 v2 ifindex=7"
U="mcast_unmap flags=0 v2 ifindex=7"

# mstart: two groups, two sources and one; m1: the first's second source
# replaced, the second group taken out; m1 again: nothing
MC=1 mconf mstart "239.1.1.10 10.0.0.1 10.0.0.2" "239.1.1.11 10.0.0.3"
mconf m1 "239.1.1.10 10.0.0.1 10.0.0.4"
run mstart m1 m1
same "map: what dsrd holds after a start and reloads" "$stdout
exit $rc" \
"mstart: failed 0; joined by dsrd: source 10.0.0.1 group 239.1.1.1 layers 2; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.10 source 10.0.0.2; group 239.1.1.11 source 10.0.0.3
m1: failed 0; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.10 source 10.0.0.4
m1: failed 0; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.10 source 10.0.0.4
exit 0"
same "map: a MAP a pair, before the joins; an UNMAP a pair taken out, a MAP a new one, before the leaves; nothing for the same file" \
	"$req" \
"-- mstart
$M mc_source=10.0.0.1 mc_group=239.1.1.10
$M mc_source=10.0.0.2 mc_group=239.1.1.10
$M mc_source=10.0.0.3 mc_group=239.1.1.11
$J mc_source=10.0.0.1 mc_group=239.1.1.1 mc_layers=2
-- m1
$U mc_source=10.0.0.3 mc_group=239.1.1.11
$U mc_source=10.0.0.2 mc_group=239.1.1.10
$M mc_source=10.0.0.4 mc_group=239.1.1.10
$L mc_source=10.0.0.1 mc_group=239.1.1.1
-- m1"
has "map: what dsrd logs" "$stderr" \
	"dsrd: dsr0: mcast map group 239.1.1.10 source 10.0.0.2: mapped" \
	"dsrd: dsr0: mcast map group 239.1.1.11 source 10.0.0.3: unmapped"

if [[ -x $AHCTL ]] && ! ldd "$AHCTL" 2>/dev/null | grep -q libasan; then
	dsrd_req=$(sed -n '/^-- m1$/,$p' <<< "$req" | grep '^mcast_' |
		sed 's/ ifindex=7//' | grep -v mcast_leave)
	: > "$LOG"
	LD_PRELOAD=$FAKE FAKE_DSR_LOG=$LOG "$AHCTL" dsr mcast unmap dsr0 \
		group 239.1.1.11 source 10.0.0.3
	LD_PRELOAD=$FAKE FAKE_DSR_LOG=$LOG "$AHCTL" dsr mcast unmap dsr0 \
		source 10.0.0.2 group 239.1.1.10
	LD_PRELOAD=$FAKE FAKE_DSR_LOG=$LOG "$AHCTL" dsr mcast map dsr0 \
		group 239.1.1.10 source 10.0.0.4
	same "each MAP and UNMAP is ahctl's for the same words" "$dsrd_req" \
		"$(sed 's/ ifname=dsr0//' "$LOG")"
else
	result 1 "each MAP and UNMAP is ahctl's for the same words # SKIP no ahctl without ASan"
fi

# refused (the map full): counted, not kept, sent again on the next
# reload; already in the kernel's map (made with ahctl): kept, no failure
mconf m2 "239.1.1.10 10.0.0.1" "239.1.1.11 10.0.0.3"
run m1 FAKE_DSR_ERROR="28:the source map is full (16 groups)" \
	FAKE_DSR_ERROR_GROUP=239.1.1.11 m2 FAKE_DSR_ERROR= m2 m2
same "a refused map: counted, not kept; the next reload maps it" "$stdout
$(grep -v '^--' <<< "$req" | grep -c "$M mc_source=10.0.0.3")" \
"m1: failed 0; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.10 source 10.0.0.4
m2: failed 1; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1
m2: failed 0; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.11 source 10.0.0.3
m2: failed 0; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.11 source 10.0.0.3
2"
has "a refused map: the kernel's reason, and what it means" "$stderr" \
	"dsrd: No space left on device: the source map is full (16 groups)" \
	"dsrd: dsr0: mcast map group 239.1.1.11 source 10.0.0.3: cannot map (the kernel's map is full)"
run m1 FAKE_DSR_ERROR="17:the group has that source already" \
	FAKE_DSR_ERROR_GROUP=239.1.1.11 m2 FAKE_DSR_ERROR= m2
same "a map the kernel has already: kept as dsrd's, not a failure" "$stdout
$(grep -c "$M" <<< "$req")" \
"m1: failed 0; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.10 source 10.0.0.4
m2: failed 0; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.11 source 10.0.0.3
m2: failed 0; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.11 source 10.0.0.3
3"

# unmaps: refused (kept, sent again), or of a pair the kernel has not
# (unmapped with ahctl: forgotten, not a failure)
run m1 FAKE_DSR_ERROR="1:no" none FAKE_DSR_ERROR= none
same "a refused unmap: counted, kept; the next reload unmaps again" \
	"$stdout
$(grep -c "$U" <<< "$req")" \
"m1: failed 0; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.10 source 10.0.0.4
none: failed 2; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.10 source 10.0.0.4
none: failed 0; joined by dsrd:
4"
run m1 FAKE_DSR_ERROR="2:the group has no such source in the map" none none
same "an unmap of a pair the kernel has not: forgotten, not a failure" \
	"$stdout
$(grep -c "$U" <<< "$req")" \
"m1: failed 0; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.10 source 10.0.0.4
none: failed 0; joined by dsrd:
none: failed 0; joined by dsrd:
2"
has "an unmap of a pair the kernel has not: logged" "$stderr" \
	"dsrd: dsr0: mcast map group 239.1.1.10 source 10.0.0.4: not in the kernel's map (unmapped meanwhile); forgotten"

# a start stops at the first map refused, before any join
run FAKE_DSR_ERROR="22:group must be multicast, not 224.0.0.0/24" \
	FAKE_DSR_ERROR_GROUP=239.1.1.11 mstart
same "start: a refused map stops it, nothing after it" "$stdout
$(grep -v '^--' <<< "$req")" \
"mstart: failed 1; joined by dsrd:; mapped by dsrd: group 239.1.1.10 source 10.0.0.1; group 239.1.1.10 source 10.0.0.2
$M mc_source=10.0.0.1 mc_group=239.1.1.10
$M mc_source=10.0.0.2 mc_group=239.1.1.10
$M mc_source=10.0.0.3 mc_group=239.1.1.11"

# ---- no [mcast]: no requests ------------------------------------------------
run none none
same "no [mcast]: the module is not asked anything" "$req" "-- none
-- none"

# ---- dsrd --check -----------------------------------------------------------
conf good "10.0.0.1 239.1.1.1 2 Tag=rtp Id=3 Tids=2 GroupLayers=4" \
	"10.0.0.1 239.1.1.2 128"
dsrd_check "valid [mcast] sections" "$TMP/good" "0 "
conf bad "10.0.0.1 239.1.1.1 2 Offset=3"
dsrd_check "Offset without Tag = byte, exit 2" "$TMP/bad" \
	"2 dsrd: $TMP/bad:7: Offset needs Tag = byte"
conf bad "10.0.0.1 224.0.0.251 2"
dsrd_check "a link-local Group, exit 2" "$TMP/bad" \
	"2 dsrd: $TMP/bad:5: invalid Group '224.0.0.251' (a multicast group, 224.0.1.0 to 239.255.255.255: 224.0.0.0/24 is link-local)"
conf good "10.0.0.1 239.1.1.1 2 Chain=tag,dup,cap,2,filter,fanout,bcast,0" \
	"10.0.0.1 239.1.1.2 1 Chain=default"
dsrd_check "valid Chains" "$TMP/good" "0 "
conf bad "10.0.0.1 239.1.1.1 2" "10.0.0.1 239.1.1.2 1 Chain=dup,cap,0,fanout"
dsrd_check "a Chain with cap 0, exit 2" "$TMP/bad" \
	"2 dsrd: $TMP/bad:11: Chain: invalid cap '0' (layers that go on, 1..128)"
mconf good "239.1.1.10 10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4" "239.1.1.11 10.0.0.1"
dsrd_check "valid [mcast.map] sections" "$TMP/good" "0 "
mconf bad "239.1.1.10 10.0.0.1" "239.1.1.10 10.0.0.2"
dsrd_check "a group mapped in two sections, exit 2" "$TMP/bad" \
	"2 dsrd: $TMP/bad:7: a [mcast.map] for group 239.1.1.10 already exists (line 3)"

ktap_done
