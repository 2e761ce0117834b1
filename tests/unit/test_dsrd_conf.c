// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for userspace/dsrd/conf.c: good files, every class of error
 * with its line, and the parameter names of the family tables as keys.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/ah_macfilter.h>

#include "attrs.h"
#include "conf.h"
#include "ktap.h"

#define ERRLEN	512

/* ---- errors: each a file and the message it must give -------------------- */

static const struct err_case {
	const char *desc;
	const char *in;
	const char *err;	/* the whole message */
} err_cases[] = {
	{ "unknown section", "[dsr]\nAddress = 10.0.0.1/24\n[routes]\n",
	  "t:3: unknown section [routes] (dsr, dsr.params, macfilter, transit, slice, mcast, mcast.map or log)" },
	{ "unknown key",
	  "[dsr]\nAddress = 10.0.0.1/24\nColour = blue\n",
	  "t:3: unknown key 'Colour' in [dsr]" },
	{ "unknown key, other case: a hint",
	  "[dsr]\naddress = 10.0.0.1/24\n",
	  "t:2: unknown key 'address' in [dsr]; did you mean 'Address'?" },
	{ "unknown key in [log]",
	  "[dsr]\nAddress = 10.0.0.1/24\n\n[log]\nStatsEvery = 3\n",
	  "t:5: unknown key 'StatsEvery' in [log]" },
	{ "unknown DSR parameter",
	  "[dsr]\nAddress = 10.0.0.1/24\n[dsr.params]\nrto_min_ms = 40\nrto_mid_ms = 1\n",
	  "t:5: unknown DSR parameter 'rto_mid_ms' (the names of 'ahctl dsr help')" },
	{ "unknown transit key or parameter",
	  "[dsr]\nAddress = 10.0.0.1/24\n[transit]\nInterface = wlan0\nn_miss = 3\n",
	  "t:5: unknown key 'n_miss' in [transit] (Interface, Enable or a parameter of 'ahctl transit help')" },
	{ "duplicate key",
	  "[dsr]\nAddress = 10.0.0.1/24\n# x\nAddress = 10.0.0.2/24\n",
	  "t:4: Address given twice in this section (first at line 2)" },
	{ "duplicate parameter",
	  "[dsr]\nAddress = 10.0.0.1/24\n[dsr.params]\ntimer_ms = 10\ntimer_ms = 20\n",
	  "t:5: timer_ms given twice (first at line 4)" },
	{ "subnet/LEN and subnet_prefix",
	  "[dsr]\nAddress = 10.0.0.1/24\n[dsr.params]\nsubnet_prefix = 16\nsubnet = 10.0.0.0/24\n",
	  "t:5: subnet_prefix given twice (first at line 4; subnet A.B.C.D/LEN sets it)" },
	{ "duplicate section",
	  "[dsr]\nAddress = 10.0.0.1/24\n[log]\n[dsr]\n",
	  "t:4: section [dsr] given twice (first at line 1)" },
	{ "duplicate Interface",
	  "[dsr]\nInterface = eth0\nInterface = eth1\nInterface = eth0\n",
	  "t:4: Interface eth0 listed twice" },
	{ "two [macfilter] for one interface",
	  "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nInterface = eth0\n[macfilter]\nInterface = eth0\n",
	  "t:6: a [macfilter] for eth0 already exists (line 3)" },
	{ "bad MAC",
	  "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nInterface = eth0\nEntry = 02:00:00:00:00\n",
	  "t:5: invalid MAC address '02:00:00:00:00'" },
	{ "multicast MAC",
	  "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nInterface = eth0\nEntry = 01:00:5e:00:00:01\n",
	  "t:5: multicast MAC 01:00:5e:00:00:01 cannot be a source address" },
	{ "bad loss",
	  "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nInterface = eth0\nEntry = 02:00:00:00:00:01 101%\n",
	  "t:5: invalid loss '101' (0..100)" },
	{ "loss without %",
	  "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nInterface = eth0\nEntry = 02:00:00:00:00:01 30\n",
	  "t:5: invalid loss '30' (N% or loss N, N 0..100)" },
	{ "junk after the entry",
	  "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nInterface = eth0\nEntry = 02:00:00:00:00:01 loss 3 x\n",
	  "t:5: unexpected 'x' after the entry" },
	{ "duplicate MAC: the later line",
	  "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nInterface = eth0\n"
	  "Entry = 02:00:00:00:00:09\nEntry = 02:00:00:00:00:01\n"
	  "Entry = 02-00-00-00-00-09 10%\n[log]\n",
	  "t:7: MAC 02:00:00:00:00:09 listed twice (also at line 5)" },
	{ "bad Mode", "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nInterface = eth0\nMode = block\n",
	  "t:5: invalid Mode 'block' (deny or allow)" },
	{ "more entries than MaxEntries",
	  "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nInterface = eth0\nMaxEntries = 1\n"
	  "Entry = 02:00:00:00:00:01\nEntry = 02:00:00:00:00:02\n",
	  "t:3: [macfilter] eth0: 2 entries, more than MaxEntries (1)" },
	{ "[macfilter] without Interface",
	  "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nMode = allow\n[log]\n",
	  "t:3: [macfilter] without Interface" },
	{ "[transit] without Interface, at the end",
	  "[dsr]\nAddress = 10.0.0.1/24\n[transit]\nn_misses = 3\n",
	  "t:3: [transit] without Interface" },
	{ "bad address", "[dsr]\nAddress = 10.0.0.300/24\n",
	  "t:2: invalid Address '10.0.0.300/24' (A.B.C.D/LEN, LEN 1..32)" },
	{ "address without /LEN", "[dsr]\nAddress = 10.0.0.1\n",
	  "t:2: invalid Address '10.0.0.1' (A.B.C.D/LEN, LEN 1..32)" },
	{ "address is the subnet's", "[dsr]\nAddress = 10.0.0.0/24\n",
	  "t:2: Address 10.0.0.0/24 is not a host address of its subnet" },
	{ "multicast address", "[dsr]\nAddress = 224.0.0.1/24\n",
	  "t:2: Address 224.0.0.1/24 is not a host address of its subnet" },
	{ "bad Gateway", "[dsr]\nAddress = 10.0.0.1/24\nGateway = maybe\n",
	  "t:3: invalid Gateway 'maybe' (no, yes or the DSR subnet A.B.C.D/LEN, LEN 1..32)" },
	{ "Gateway and gateway",
	  "[dsr.params]\ngateway = 1\n[dsr]\nAddress = 10.0.0.1/24\nGateway = yes\n",
	  "t:5: gateway in [dsr.params] and Gateway in [dsr] (lines 2 and 5): use one" },
	{ "bad number",
	  "[dsr]\nAddress = 10.0.0.1/24\n[dsr.params]\nrto_min_ms = 5O\n",
	  "t:4: invalid rto_min_ms '5O' (an integer 0..4294967295)" },
	{ "negative number",
	  "[dsr]\nAddress = 10.0.0.1/24\n[transit]\nInterface = w0\npeek_len = -1\n",
	  "t:5: invalid peek_len '-1' (an integer 0..4294967295)" },
	{ "number too large",
	  "[dsr]\nAddress = 10.0.0.1/24\n[dsr.params]\ntimer_ms = 4294967296\n",
	  "t:4: invalid timer_ms '4294967296' (an integer 0..4294967295)" },
	{ "bad subnet",
	  "[dsr]\nAddress = 10.0.0.1/24\n[dsr.params]\nsubnet = 10.0.0.0/33\n",
	  "t:4: invalid subnet '10.0.0.0/33' (A.B.C.D[/LEN], LEN 0..32)" },
	{ "StatsInterval out of range",
	  "[dsr]\nAddress = 10.0.0.1/24\n[log]\nStatsInterval = 86401\n",
	  "t:4: invalid StatsInterval '86401' (an integer 0..86400)" },
	{ "StatsMaxBytes too small",
	  "[dsr]\nAddress = 10.0.0.1/24\n[log]\nStatsMaxBytes = 1K\n",
	  "t:4: invalid StatsMaxBytes '1K' (bytes, at least 16384; K, M, G: KiB, MiB, GiB)" },
	{ "StatsMaxBytes with a bad suffix",
	  "[dsr]\nAddress = 10.0.0.1/24\n[log]\nStatsMaxBytes = 1T\n",
	  "t:4: invalid StatsMaxBytes '1T' (bytes, at least 16384; K, M, G: KiB, MiB, GiB)" },
	{ "relative StatsFile",
	  "[dsr]\nAddress = 10.0.0.1/24\n[log]\nStatsFile = stats.jsonl\n",
	  "t:4: StatsFile 'stats.jsonl' is not an absolute path" },
	{ "bad Enable",
	  "[dsr]\nAddress = 10.0.0.1/24\n[transit]\nInterface = w0\nEnable = sometimes\n",
	  "t:5: invalid Enable 'sometimes' (yes or no)" },
	{ "interface name too long",
	  "[dsr]\nInterface = averyveryverylongname\n",
	  "t:2: Interface 'averyveryverylongname' is too long (at most 15 bytes)" },
	{ "interface name with a slash", "[dsr]\nDevice = a/b\n",
	  "t:2: invalid Device 'a/b'" },
	{ "key before any section", "# hello\nAddress = 10.0.0.1/24\n",
	  "t:2: 'Address' before any section" },
	{ "no '='", "[dsr]\nAddress 10.0.0.1/24\n",
	  "t:2: expected 'Key = value' or '[section]'" },
	{ "no value", "[dsr]\nAddress =   # nothing\n",
	  "t:2: Address without a value" },
	{ "no key", "[dsr]\n = 1\n", "t:2: missing key before '='" },
	{ "unterminated header", "[dsr\n", "t:1: missing ']' in section header" },
	{ "junk after the header", "[dsr] x\n",
	  "t:1: unexpected ' x' after the section header" },
	{ "[dsr] without Address",
	  "[dsr]\nInterface = eth0\n\n[log]\nStatsInterval = 0\n",
	  "t:1: [dsr] without Address" },
	{ "no [dsr] at all", "# empty\n[log]\n", "t: no [dsr] section" },
	{ "macfilter on the device",
	  "[dsr]\nAddress = 10.0.0.1/24\n[macfilter]\nInterface = dsr0\n",
	  "t:3: [macfilter] on the DSR device dsr0" },
	{ "NUL byte", "[dsr]\nAddress = 10.0.0.1/24\n#\0\n",
	  "t:3: NUL byte in the line" },

	/* [slice] */
#define SL	"[dsr]\nAddress = 10.0.0.1/24\n[slice]\nInterface = wlan1\n"
	{ "[slice]: unknown key", SL "Slice = red\nNetns = red\n",
	  "t:6: unknown key 'Netns' in [slice]" },
	{ "[slice]: unknown key, other case: a hint", SL "slice = red\n",
	  "t:5: unknown key 'slice' in [slice]; did you mean 'Slice'?" },
	{ "[slice]: Slice given twice", SL "Slice = red\nSlice = blue\n",
	  "t:6: Slice given twice in this section (first at line 5)" },
	{ "[slice]: Lease given twice",
	  SL "Slice = red\nLease = 60\nLease = 60\n",
	  "t:7: Lease given twice in this section (first at line 6)" },
	{ "two [slice] for one interface",
	  SL "Slice = red\n[slice]\nInterface = wlan1\nSlice = blue\n",
	  "t:7: a [slice] for wlan1 already exists (line 3)" },
	{ "[slice] without Interface",
	  "[dsr]\nAddress = 10.0.0.1/24\n[slice]\nSlice = red\n[log]\n",
	  "t:3: [slice] without Interface" },
	{ "[slice] without Slice, at the end", SL "Lease = 60\n",
	  "t:3: [slice] wlan1 without Slice" },
	{ "[slice] without Slice, at the next section",
	  SL "[slice]\nInterface = wlan2\nSlice = red\n",
	  "t:3: [slice] wlan1 without Slice" },
	{ "[slice]: interface name too long",
	  "[dsr]\nAddress = 10.0.0.1/24\n[slice]\nInterface = abcdefghijklmnop\n",
	  "t:4: Interface 'abcdefghijklmnop' is too long (at most 15 bytes)" },
	{ "[slice]: interface name with a ':'",
	  "[dsr]\nAddress = 10.0.0.1/24\n[slice]\nInterface = wlan1:0\n",
	  "t:4: invalid Interface 'wlan1:0'" },
	{ "[slice]: a namespace name with a /", SL "Slice = ../red\n",
	  "t:5: invalid Slice '../red' (the name of a network namespace, as 'ip netns' names it)" },
	{ "[slice]: namespace '..'", SL "Slice = ..\n",
	  "t:5: invalid Slice '..' (the name of a network namespace, as 'ip netns' names it)" },
	{ "[slice]: namespace '.'", SL "Slice = .\n",
	  "t:5: invalid Slice '.' (the name of a network namespace, as 'ip netns' names it)" },
	{ "[slice]: a blank in the name (ahctl's words)",
	  SL "Slice = red lease 60\n",
	  "t:5: invalid Slice 'red lease 60' (the name of a network namespace, as 'ip netns' names it)" },
	{ "[slice]: a name longer than SLICE_NAME_MAX - 1",
	  SL "Slice = abcdefghijklmnopqrstuvwxyz012345\n",
	  "t:5: Slice 'abcdefghijklmnopqrstuvwxyz012345' is too long (at most 31 bytes: the name is the slice's label)" },
	{ "[slice]: Lease 0", SL "Slice = red\nLease = 0\n",
	  "t:6: invalid Lease '0' (seconds, 1..2592000, at most 30 days; without Lease: until revoked)" },
	{ "[slice]: Lease above SLICE_LEASE_MAX",
	  SL "Slice = red\nLease = 2592001\n",
	  "t:6: invalid Lease '2592001' (seconds, 1..2592000, at most 30 days; without Lease: until revoked)" },
	{ "[slice]: Lease with a unit", SL "Slice = red\nLease = 1h\n",
	  "t:6: invalid Lease '1h' (seconds, 1..2592000, at most 30 days; without Lease: until revoked)" },
	{ "[slice]: Lease negative", SL "Slice = red\nLease = -1\n",
	  "t:6: invalid Lease '-1' (seconds, 1..2592000, at most 30 days; without Lease: until revoked)" },
	{ "[slice]: Lease beyond u32", SL "Slice = red\nLease = 4294967296\n",
	  "t:6: invalid Lease '4294967296' (seconds, 1..2592000, at most 30 days; without Lease: until revoked)" },
	{ "[slice]: Lease empty", SL "Slice = red\nLease =\n",
	  "t:6: Lease without a value" },
	{ "[slice]: unknown Mode", SL "Slice = red\nMode = copy\n",
	  "t:6: invalid Mode 'copy' (move or map)" },
	{ "[slice]: Mode is case-sensitive", SL "Slice = red\nMode = Move\n",
	  "t:6: invalid Mode 'Move' (move or map)" },
	{ "[slice]: Keep without Mode = map", SL "Slice = red\nKeep = 22\n",
	  "t:3: [slice] wlan1: Keep needs Mode = map (a moved interface keeps nothing for the node)" },
	{ "[slice]: Keep with Mode = move",
	  SL "Slice = red\nKeep = 22\nMode = move\n",
	  "t:3: [slice] wlan1: Keep needs Mode = map (a moved interface keeps nothing for the node)" },
	{ "[slice]: Keep port 0", SL "Slice = red\nMode = map\nKeep = 22,0\n",
	  "t:7: invalid Keep '22,0': port '0' is not 1..65535 (PORT[,PORT...], at most 16)" },
	{ "[slice]: Keep port above 65535",
	  SL "Slice = red\nMode = map\nKeep = 70000\n",
	  "t:7: invalid Keep '70000': port '70000' is not 1..65535 (PORT[,PORT...], at most 16)" },
	{ "[slice]: Keep with an empty item",
	  SL "Slice = red\nMode = map\nKeep = 22,,80\n",
	  "t:7: invalid Keep '22,,80': port '' is not 1..65535 (PORT[,PORT...], at most 16)" },
	{ "[slice]: Keep a port twice",
	  SL "Slice = red\nMode = map\nKeep = 22,80,22\n",
	  "t:7: invalid Keep '22,80,22': port 22 is listed twice (PORT[,PORT...], at most 16)" },
	{ "[slice]: Keep more than SLICE_KEEP_MAX ports",
	  SL "Slice = red\nMode = map\nKeep = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n",
	  "t:7: invalid Keep '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17': more than 16 ports (PORT[,PORT...], at most 16)" },
	{ "[slice]: Keep empty", SL "Slice = red\nMode = map\nKeep =\n",
	  "t:7: Keep without a value" },
	{ "[slice] on the DSR device",
	  "[dsr]\nAddress = 10.0.0.1/24\n[slice]\nInterface = dsr0\nSlice = red\n",
	  "t:3: [slice] on the DSR device dsr0" },
	{ "[slice] on an Interface of [dsr]",
	  "[dsr]\nInterface = eth0\nInterface = wlan1\nAddress = 10.0.0.1/24\n"
	  "[slice]\nInterface = wlan1\nSlice = red\n",
	  "t:5: [slice] wlan1: it is an Interface of [dsr] (line 1); a leased interface leaves the node" },
	{ "[slice] on an interface with a [macfilter]",
	  SL "Slice = red\n[macfilter]\nInterface = wlan1\n",
	  "t:3: [slice] wlan1: it has a [macfilter] (line 6); a leased interface leaves the node" },
	{ "[slice] on an interface with a [transit]",
	  "[dsr]\nAddress = 10.0.0.1/24\n[transit]\nInterface = wlan1\n"
	  "[slice]\nInterface = wlan1\nSlice = red\n",
	  "t:5: [slice] wlan1: it has a [transit] (line 3); a leased interface leaves the node" },
#undef SL

	/* [mcast]: what "ahctl dsr mcast join" refuses, with the line */
#define MC	"[dsr]\nAddress = 10.0.0.1/24\n[mcast]\n"
#define MCSG	MC "Source = 10.0.0.1\nGroup = 239.1.1.1\n"
#define SRC_RULE "(a unicast address: not 0.0.0.0/8, 127.0.0.0/8, nor 224.0.0.0 or above)"
#define GRP_RULE "(a multicast group, 224.0.1.0 to 239.255.255.255: 224.0.0.0/24 is link-local)"
	{ "[mcast]: unknown key", MCSG "Layers = 2\nPort = 5000\n",
	  "t:7: unknown key 'Port' in [mcast]" },
	{ "[mcast]: unknown key, other case: a hint", MC "group = 239.1.1.1\n",
	  "t:4: unknown key 'group' in [mcast]; did you mean 'Group'?" },
	{ "[mcast]: ahctl's keyword is not a key",
	  MCSG "Layers = 2\ngroup-layers = 4\n",
	  "t:7: unknown key 'group-layers' in [mcast]" },
	{ "[mcast]: Layers given twice", MCSG "Layers = 2\nLayers = 3\n",
	  "t:7: Layers given twice in this section (first at line 6)" },
	{ "[mcast]: Source given twice, the same",
	  MCSG "Source = 10.0.0.1\n",
	  "t:6: Source given twice in this section (first at line 4)" },
	{ "[mcast]: Tag given twice", MCSG "Layers = 2\nTag = byte\nTag = rtp\n",
	  "t:8: Tag given twice in this section (first at line 7)" },
	{ "[mcast] without Source, at the end",
	  MC "Group = 239.1.1.1\nLayers = 2\n",
	  "t:3: [mcast] without Source" },
	{ "[mcast] without Group, at the next section",
	  MC "Source = 10.0.0.1\nLayers = 2\n[log]\n",
	  "t:3: [mcast] without Group" },
	{ "[mcast] without Layers, at the next [mcast]",
	  MCSG "[mcast]\nSource = 10.0.0.1\nGroup = 239.1.1.2\nLayers = 1\n",
	  "t:3: [mcast] without Layers" },
	{ "[mcast] with no key at all", MC "[log]\n",
	  "t:3: [mcast] without Source" },
	{ "[mcast]: Offset without Tag", MCSG "Offset = 4\nLayers = 2\n",
	  "t:6: Offset needs Tag = byte" },
	{ "[mcast]: Offset with Tag = rtp",
	  MCSG "Layers = 2\nOffset = 4\nTag = rtp\n",
	  "t:7: Offset needs Tag = byte" },
	{ "[mcast]: Id without Tag", MCSG "Layers = 2\nId = 2\n",
	  "t:7: Id needs Tag = rtp" },
	{ "[mcast]: Id with Tag = byte",
	  MCSG "Tag = byte\nLayers = 2\nId = 2\n",
	  "t:8: Id needs Tag = rtp" },
	{ "[mcast]: Tids without Tag", MCSG "Layers = 2\nTids = 2\n",
	  "t:7: Tids needs Tag = rtp" },
	{ "[mcast]: Tids with Tag = byte",
	  MCSG "Layers = 2\nTids = 2\nTag = byte\n",
	  "t:7: Tids needs Tag = rtp" },
	{ "[mcast]: more Layers than GroupLayers",
	  MCSG "Layers = 9\nGroupLayers = 8\n",
	  "t:7: Layers 9 is more than GroupLayers 8 (lines 6 and 7)" },
	{ "[mcast]: more Layers than GroupLayers, GroupLayers first",
	  MCSG "GroupLayers = 8\nTag = byte\nLayers = 9\n",
	  "t:8: Layers 9 is more than GroupLayers 8 (lines 8 and 6)" },
	{ "[mcast]: a unicast Group", MC "Source = 10.0.0.1\nGroup = 10.0.0.2\n",
	  "t:5: invalid Group '10.0.0.2' " GRP_RULE },
	{ "[mcast]: a link-local Group (224.0.0.0/24)",
	  MC "Group = 224.0.0.251\n",
	  "t:4: invalid Group '224.0.0.251' " GRP_RULE },
	{ "[mcast]: a Group above 239/8", MC "Group = 240.0.0.1\n",
	  "t:4: invalid Group '240.0.0.1' " GRP_RULE },
	{ "[mcast]: a Group with /LEN", MC "Group = 239.1.1.1/32\n",
	  "t:4: invalid Group '239.1.1.1/32' (an IPv4 address A.B.C.D)" },
	{ "[mcast]: a multicast Source", MC "Source = 239.1.1.2\n",
	  "t:4: invalid Source '239.1.1.2' " SRC_RULE },
	{ "[mcast]: a loopback Source", MC "Source = 127.0.0.1\n",
	  "t:4: invalid Source '127.0.0.1' " SRC_RULE },
	{ "[mcast]: a Source in 0.0.0.0/8", MC "Source = 0.0.0.0\n",
	  "t:4: invalid Source '0.0.0.0' " SRC_RULE },
	{ "[mcast]: a Source in 240.0.0.0/4", MC "Source = 255.255.255.255\n",
	  "t:4: invalid Source '255.255.255.255' " SRC_RULE },
	{ "[mcast]: a Source that is not an address", MC "Source = 10.0.0\n",
	  "t:4: invalid Source '10.0.0' (an IPv4 address A.B.C.D)" },
	{ "[mcast]: a Source that is a name", MC "Source = node1\n",
	  "t:4: invalid Source 'node1' (an IPv4 address A.B.C.D)" },
	{ "[mcast]: Layers 0", MCSG "Layers = 0\n",
	  "t:6: invalid Layers '0' (the layers wanted, 1..128)" },
	{ "[mcast]: Layers 129", MCSG "Layers = 129\n",
	  "t:6: invalid Layers '129' (the layers wanted, 1..128)" },
	{ "[mcast]: Layers not a number", MCSG "Layers = all\n",
	  "t:6: invalid Layers 'all' (the layers wanted, 1..128)" },
	{ "[mcast]: Layers negative", MCSG "Layers = -1\n",
	  "t:6: invalid Layers '-1' (the layers wanted, 1..128)" },
	{ "[mcast]: Layers empty", MCSG "Layers =\n",
	  "t:6: Layers without a value" },
	{ "[mcast]: an unknown Tag", MCSG "Tag = h264\n",
	  "t:6: invalid Tag 'h264' (byte or rtp)" },
	{ "[mcast]: Tag is case-sensitive", MCSG "Tag = Byte\n",
	  "t:6: invalid Tag 'Byte' (byte or rtp)" },
	{ "[mcast]: Offset 65536", MCSG "Tag = byte\nOffset = 65536\n",
	  "t:7: invalid Offset '65536' (of the tag byte in the UDP payload, 0..65535)" },
	{ "[mcast]: Id 0 (padding)", MCSG "Tag = rtp\nId = 0\n",
	  "t:7: invalid Id '0' (the RTP header extension id of the frame marking element, 1..255)" },
	{ "[mcast]: Id 256", MCSG "Tag = rtp\nId = 256\n",
	  "t:7: invalid Id '256' (the RTP header extension id of the frame marking element, 1..255)" },
	{ "[mcast]: Tids 9", MCSG "Tag = rtp\nTids = 9\n",
	  "t:7: invalid Tids '9' (temporal layers a layer id, 0..8)" },
	{ "[mcast]: GroupLayers 0", MCSG "GroupLayers = 0\n",
	  "t:6: invalid GroupLayers '0' (the group's layers, 1..128)" },
	{ "[mcast]: GroupLayers 129", MCSG "GroupLayers = 129\n",
	  "t:6: invalid GroupLayers '129' (the group's layers, 1..128)" },
	{ "[mcast]: the same Source and Group twice",
	  MCSG "Layers = 2\n[mcast]\nGroup = 239.1.1.1\nLayers = 3\nSource = 10.0.0.1\n",
	  "t:10: a [mcast] for source 10.0.0.1 group 239.1.1.1 already exists (line 3)" },
	{ "[mcast]: the same pair again, after another",
	  MCSG "Layers = 2\n[mcast]\nSource = 10.0.0.1\nGroup = 239.1.1.2\nLayers = 2\n"
	  "[mcast]\nSource = 10.0.0.1\nGroup = 239.1.1.2\n",
	  "t:13: a [mcast] for source 10.0.0.1 group 239.1.1.2 already exists (line 7)" },
	/* Chain: what "ahctl dsr mcast chain" refuses, with the line */
#define MCL	MCSG "Layers = 2\n"
#define ELEMS	"(tag, dup, cap C, filter, fanout [bcast B])"
	{ "[mcast]: Chain, an unknown element",
	  MCL "Chain = tag dupe fanout\n",
	  "t:7: Chain: unknown element 'dupe' " ELEMS },
	{ "[mcast]: Chain, an element's case", MCL "Chain = Tag\n",
	  "t:7: Chain: unknown element 'Tag' " ELEMS },
	{ "[mcast]: Chain, cap 0", MCL "Chain = dup cap 0 fanout\n",
	  "t:7: Chain: invalid cap '0' (layers that go on, 1..128)" },
	{ "[mcast]: Chain, cap 129", MCL "Chain = cap 129\n",
	  "t:7: Chain: invalid cap '129' (layers that go on, 1..128)" },
	{ "[mcast]: Chain, cap without its value", MCL "Chain = dup cap\n",
	  "t:7: Chain: 'cap' needs a value" },
	{ "[mcast]: Chain, cap then an element", MCL "Chain = cap fanout\n",
	  "t:7: Chain: invalid cap 'fanout' (layers that go on, 1..128)" },
	{ "[mcast]: Chain, bcast 255", MCL "Chain = fanout bcast 255\n",
	  "t:7: Chain: invalid bcast '255' (children on one slave that get a broadcast, 0..254)" },
	{ "[mcast]: Chain, bcast without its value",
	  MCL "Chain = dup fanout bcast\n",
	  "t:7: Chain: 'bcast' needs a value" },
	{ "[mcast]: Chain, default with an element",
	  MCL "Chain = default fanout\n",
	  "t:7: Chain: 'default' is a whole chain: no element with it" },
	{ "[mcast]: Chain, default after an element",
	  MCL "Chain = tag default\n",
	  "t:7: Chain: 'default' is a whole chain: no element with it" },
	{ "[mcast]: Chain, tag not first", MCL "Chain = dup tag fanout\n",
	  "t:7: Chain: 'tag' must be the first element" },
	{ "[mcast]: Chain, fanout not last", MCL "Chain = tag fanout dup\n",
	  "t:7: Chain: 'fanout' must be the last element ('dup' after it)" },
	{ "[mcast]: Chain, an element twice", MCL "Chain = dup filter dup\n",
	  "t:7: Chain: 'dup' given twice (each element at most once)" },
	{ "[mcast]: Chain, cap twice", MCL "Chain = cap 1 cap 2\n",
	  "t:7: Chain: 'cap' given twice (each element at most once)" },
	{ "[mcast]: Chain, more than 8 elements",
	  MCL "Chain = tag dup cap 2 filter fanout tag dup cap 3 filter\n",
	  "t:7: Chain: too many elements (at most 8)" },
	{ "[mcast]: Chain given twice", MCL "Chain = dup\nChain = tag\n",
	  "t:8: Chain given twice in this section (first at line 7)" },
	{ "[mcast]: Chain empty", MCL "Chain = \t\n",
	  "t:7: Chain without a value" },
	{ "[mcast]: Chain, other case: a hint", MCL "chain = dup\n",
	  "t:7: unknown key 'chain' in [mcast]; did you mean 'Chain'?" },
	{ "[mcast]: a bad Chain before a missing Layers",
	  MCSG "Chain = filter tag\n",
	  "t:6: Chain: 'tag' must be the first element" },
	/* [mcast.map]: what "ahctl dsr mcast map" refuses, with the line */
#define MM	"[dsr]\nAddress = 10.0.0.1/24\n[mcast.map]\n"
	{ "[mcast.map] without Group", MM "Source = 10.0.0.1\n",
	  "t:3: [mcast.map] without Group" },
	{ "[mcast.map] without Source, at the next section",
	  MM "Group = 239.1.1.1\n[log]\n", "t:3: [mcast.map] without Source" },
	{ "[mcast.map] with no key at all", MM,
	  "t:3: [mcast.map] without Group" },
	{ "[mcast.map]: a link-local Group", MM "Group = 224.0.0.5\n",
	  "t:4: invalid Group '224.0.0.5' " GRP_RULE },
	{ "[mcast.map]: a unicast Group", MM "Group = 10.0.0.9\n",
	  "t:4: invalid Group '10.0.0.9' " GRP_RULE },
	{ "[mcast.map]: a multicast Source", MM "Source = 239.1.1.2\n",
	  "t:4: invalid Source '239.1.1.2' " SRC_RULE },
	{ "[mcast.map]: a Source that is a name", MM "Source = node1\n",
	  "t:4: invalid Source 'node1' (an IPv4 address A.B.C.D)" },
	{ "[mcast.map]: Group given twice",
	  MM "Group = 239.1.1.1\nGroup = 239.1.1.2\n",
	  "t:5: Group given twice in this section (first at line 4)" },
	{ "[mcast.map]: the same Source twice",
	  MM "Source = 10.0.0.1\nGroup = 239.1.1.1\nSource = 10.0.0.1\n",
	  "t:6: Source 10.0.0.1 given twice in this section (first at line 4)" },
	{ "[mcast.map]: a fifth Source",
	  MM "Group = 239.1.1.1\nSource = 10.0.0.1\nSource = 10.0.0.2\n"
	  "Source = 10.0.0.3\nSource = 10.0.0.4\nSource = 10.0.0.6\n",
	  "t:9: more than 4 Source lines (the sources a group of the map takes)" },
	{ "[mcast.map]: the same Group in two sections",
	  MM "Group = 239.1.1.1\nSource = 10.0.0.1\n"
	  "[mcast.map]\nSource = 10.0.0.2\nGroup = 239.1.1.1\n",
	  "t:8: a [mcast.map] for group 239.1.1.1 already exists (line 3)" },
	{ "[mcast.map]: a join's key", MM "Layers = 2\n",
	  "t:4: unknown key 'Layers' in [mcast.map]" },
	{ "[mcast.map]: other case: a hint", MM "source = 10.0.0.1\n",
	  "t:4: unknown key 'source' in [mcast.map]; did you mean 'Source'?" },
#undef MM
#undef ELEMS
#undef MCL
#undef GRP_RULE
#undef SRC_RULE
#undef MCSG
#undef MC
};

/* The input may hold a NUL: its length is that of the literal. */
static size_t case_len(const struct err_case *c)
{
	size_t n = strlen(c->in);

	if (strstr(c->desc, "NUL"))
		n += 2;	/* "\0\n" after the '#' */
	return n;
}

static void run_err_case(const struct err_case *c)
{
	char err[ERRLEN];
	struct conf *conf = malloc(sizeof(*conf));
	int r;

	if (!conf)
		abort();
	conf_init(conf);
	r = conf_parse_buf(conf, "t", c->in, case_len(c), NULL, err,
			   sizeof(err));
	if (r == 0)
		ktap_diag("accepted");
	else if (strcmp(err, c->err))
		ktap_diag("got '%s', expected '%s'", err, c->err);
	ktap_result(r != 0 && !strcmp(err, c->err), "error: %s", c->desc);
	conf_free(conf);
	free(conf);
}

/* ---- good files ---------------------------------------------------------- */

static const char full[] =
	"# a node\n"
	"[dsr]\n"
	"Device = dsr1            # not the default\n"
	"Interface = eth0\n"
	"Interface\t=\twlan0\r\n"
	"Address = 10.1.0.7/16\n"
	"Gateway = yes\n"
	"\n"
	"[dsr.params]\n"
	"rto_min_ms = 40\n"
	"timer_ms=20\n"
	"[macfilter]\n"
	"Interface = eth0\n"
	"Mode = allow\n"
	"MaxEntries = 100\n"
	"Entry = 02:00:00:00:00:09\n"
	"Entry = 02:00:00:00:00:02 30%\n"
	"Entry = 02-00-00-00-00-05 loss 0\n"
	"[macfilter]\n"
	"Interface = wlan0\n"
	"[transit]\n"
	"Interface = wlan0\n"
	"Enable = no\n"
	"mark_timeout_ms = 150\n"
	"idle_timeout_ms = 90000\n"
	"[log]\n"
	"StatsInterval = 5\n"
	"StatsFile = /tmp/s.jsonl\n"
	"StatsMaxBytes = 64K\n"
	"StatsKeep = 0\n"
	"EventsFile = /tmp/e.jsonl\n"
	"EventsMaxBytes = 2M\n";

static bool parse(struct conf *c, const char *in, char *err)
{
	conf_init(c);
	if (conf_parse_buf(c, "t", in, strlen(in), NULL, err, ERRLEN)) {
		ktap_diag("%s", err);
		return false;
	}
	return true;
}

static uint32_t ip(const char *s)
{
	struct in_addr in;

	if (inet_pton(AF_INET, s, &in) != 1)
		abort();
	return in.s_addr;
}

/* @in parses, and @check holds of what it gives */
static bool parses_to(const char *in, bool (*check)(const struct conf *c))
{
	char err[ERRLEN];
	struct conf *c = malloc(sizeof(*c));
	bool ok;

	if (!c)
		return false;
	ok = parse(c, in, err) && check(c);
	conf_free(c);
	free(c);
	return ok;
}

static bool check_full(const struct conf *c)
{
	const struct conf_macfilter *m = &c->mf[0];
	const struct conf_transit *t = &c->tr[0];
	int i = DSR_A_P_RTO_MIN_MS - DSR_A_P_FIRST;
	int k = TRANSIT_A_P_MARK_TIMEOUT_MS - TRANSIT_A_P_FIRST;

	CHECK(!strcmp(c->dsr.device, "dsr1"));
	CHECK_EQ(c->dsr.nslaves, 2);
	CHECK(!strcmp(c->dsr.slaves[1], "wlan0"));
	CHECK_EQ(c->dsr.addr, ip("10.1.0.7"));
	CHECK_EQ(c->dsr.prefix, 16);
	CHECK_EQ(c->dsr.gateway, CONF_GW_YES);
	CHECK(conf_param_has(&c->dsr.params, i));
	CHECK_EQ(c->dsr.params.val[i], 40);
	CHECK_EQ(c->dsr.params.line[i], 10);
	CHECK_EQ(c->nmf, 2);
	CHECK_EQ(m->mode, MACFILTER_MODE_ALLOW);
	CHECK_EQ(m->max_entries, 100);
	CHECK_EQ(m->nentries, 3);
	/* sorted by MAC */
	CHECK_EQ(m->entries[0].mac[5], 2);
	CHECK(m->entries[0].has_loss && m->entries[0].loss == 30);
	CHECK(m->entries[1].has_loss && m->entries[1].loss == 0);
	CHECK(!m->entries[2].has_loss);
	CHECK_EQ(c->mf[1].mode, MACFILTER_MODE_DENY);
	CHECK_EQ(c->mf[1].nentries, 0);
	CHECK_EQ(c->ntr, 1);
	CHECK(!t->enable);
	CHECK_EQ(t->params.val[k], 150);
	CHECK(!conf_param_has(&t->params, 0));
	CHECK_EQ(c->log.stats_interval, 5);
	CHECK(!strcmp(c->log.stats_file, "/tmp/s.jsonl"));
	CHECK_EQ(c->log.stats_max_bytes, 65536);
	CHECK_EQ(c->log.stats_keep, 0);
	CHECK_EQ(c->log.events_max_bytes, 2 << 20);
	CHECK_EQ(c->log.events_keep, CONF_KEEP);
	return true;
}

static bool check_defaults(const struct conf *c)
{
	CHECK(!strcmp(c->dsr.device, "dsr0"));
	CHECK_EQ(c->dsr.nslaves, 0);
	CHECK_EQ(c->dsr.gateway, CONF_GW_UNSET);
	CHECK_EQ(c->nmf + c->ntr + c->nsl + c->nmc, 0);
	CHECK_EQ(c->log.stats_interval, 0);
	CHECK(!strcmp(c->log.stats_file, CONF_STATS_FILE));
	CHECK_EQ(c->log.stats_max_bytes, CONF_MAX_BYTES);
	CHECK_EQ(c->log.stats_keep, CONF_KEEP);
	CHECK(!c->log.events_file[0]);
	return true;
}

/* What Gateway puts into the parameters sent. */
static bool t_gateway(void)
{
	static const struct {
		const char *in;
		uint32_t gw;
		const char *subnet;
		uint32_t plen;
		bool has;
	} cases[] = {
		{ "[dsr]\nAddress = 10.0.0.7/24\nGateway = yes\n", 1,
		  "10.0.0.0", 24, true },
		{ "[dsr]\nAddress = 10.0.0.7/24\nGateway = 10.9.0.0/16\n", 1,
		  "10.9.0.0", 16, true },
		{ "[dsr]\nAddress = 10.0.0.7/24\nGateway = no\n", 0, NULL, 0,
		  true },
		{ "[dsr]\nAddress = 10.0.0.7/24\n", 0, NULL, 0, false },
	};
	int g = DSR_A_P_GATEWAY - DSR_A_P_FIRST;
	int s = DSR_A_P_SUBNET - DSR_A_P_FIRST;
	int p = DSR_A_P_SUBNET_PREFIX - DSR_A_P_FIRST;
	struct conf_params w;
	char err[ERRLEN];
	struct conf *c = malloc(sizeof(*c));
	size_t i;
	bool ok = false;

	if (!c)
		return false;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!parse(c, cases[i].in, err))
			goto out;
		conf_dsr_wanted(c, &w);
		conf_free(c);
		CHECK_EQ(conf_param_has(&w, g), cases[i].has);
		if (!cases[i].has)
			continue;
		CHECK_EQ(w.val[g], cases[i].gw);
		if (!cases[i].gw)
			continue;
		CHECK_EQ(w.val[s], ip(cases[i].subnet));
		CHECK_EQ(w.val[p], cases[i].plen);
	}
	ok = true;
out:
	free(c);
	return ok;
}

/* subnet A.B.C.D/LEN in [dsr.params] sets both, as ahctl does. */
static bool check_subnet_param(const struct conf *c)
{
	int s = DSR_A_P_SUBNET - DSR_A_P_FIRST;
	int p = DSR_A_P_SUBNET_PREFIX - DSR_A_P_FIRST;

	CHECK_EQ(c->dsr.params.val[s], ip("10.0.0.0"));
	CHECK_EQ(c->dsr.params.val[p], 24);
	CHECK_EQ(c->dsr.params.line[p], 5);
	return true;
}

/* EntryFile: read relative to the config's directory, merged, checked. */
static bool t_entry_file(void)
{
	char dir[] = "/tmp/dsrd-conf-XXXXXX", path[256], err[ERRLEN];
	static const char list[] =
		"# two\n02:00:00:00:00:07 loss 20\n02:00:00:00:00:03\n";
	static const char in[] =
		"[dsr]\nAddress = 10.0.0.7/24\n[macfilter]\nInterface = e0\n"
		"EntryFile = macs\nEntry = 02:00:00:00:00:01\n";
	static const char dup[] =
		"[dsr]\nAddress = 10.0.0.7/24\n[macfilter]\nInterface = e0\n"
		"Entry = 02:00:00:00:00:03\nEntryFile = macs\n";
	static const char bad[] = "02:00:00:00:00:07\nnonsense\n";
	struct conf *c = malloc(sizeof(*c));
	bool ok = false;
	FILE *f;

	if (!c || !mkdtemp(dir))
		goto out;
	snprintf(path, sizeof(path), "%s/macs", dir);
	f = fopen(path, "w");
	if (!f)
		goto out;
	fputs(list, f);
	fclose(f);
	conf_init(c);
	CHECK(!conf_parse_buf(c, "t", in, strlen(in), dir, err, sizeof(err)));
	CHECK_EQ(c->mf[0].nentries, 3);
	CHECK_EQ(c->mf[0].entries[0].mac[5], 1);
	CHECK_EQ(c->mf[0].entries[2].loss, 20);
	conf_free(c);
	conf_init(c);
	CHECK(conf_parse_buf(c, "t", dup, strlen(dup), dir, err,
			     sizeof(err)));
	CHECK(!strcmp(err, "t:6: MAC 02:00:00:00:00:03 listed twice (also at line 5)"));
	conf_free(c);
	f = fopen(path, "w");
	if (!f)
		goto out;
	fputs(bad, f);
	fclose(f);
	conf_init(c);
	CHECK(conf_parse_buf(c, "t", in, strlen(in), dir, err, sizeof(err)));
	ktap_diag("%s", err);
	CHECK(!strncmp(err, "t:5: EntryFile macs:2: ", 23));
	conf_free(c);
	conf_init(c);
	CHECK(conf_parse_buf(c, "t", in, strlen(in), "/nonexistent", err,
			     sizeof(err)));
	CHECK(!strcmp(err, "t:5: EntryFile macs: No such file or directory"));
	ok = true;
out:
	if (c)
		conf_free(c);
	free(c);
	unlink(path);
	rmdir(dir);
	return ok;
}

/* conf_load(): "FILE:LINE:" and the directory for EntryFile. */
static bool t_load(void)
{
	char dir[] = "/tmp/dsrd-conf-XXXXXX", path[256], err[ERRLEN];
	struct conf *c = malloc(sizeof(*c));
	bool ok = false;
	FILE *f;

	if (!c || !mkdtemp(dir))
		goto out;
	snprintf(path, sizeof(path), "%s/dsrd.conf", dir);
	f = fopen(path, "w");
	if (!f)
		goto out;
	fputs("[dsr]\nAddress = 10.0.0.7/24\n[nope]\n", f);
	fclose(f);
	conf_init(c);
	CHECK(conf_load(c, path, err, sizeof(err)));
	CHECK(!strncmp(err, path, strlen(path)));
	CHECK(!strncmp(err + strlen(path), ":3: unknown section [nope]", 26));
	conf_free(c);
	conf_init(c);
	CHECK(conf_load(c, "/nonexistent/dsrd.conf", err, sizeof(err)));
	CHECK(!strcmp(err, "/nonexistent/dsrd.conf: No such file or directory"));
	ok = true;
out:
	if (c)
		conf_free(c);
	free(c);
	unlink(path);
	rmdir(dir);
	return ok;
}

/* ---- parameter names: those of the family tables ------------------------- */

/* "[SECTION]\n...NAME = VALUE\n" parses and sets parameter @id. */
static bool param_parses(const char *section, const char *name,
			 const char *value, int first, int id)
{
	char in[512], err[ERRLEN];
	struct conf *c = malloc(sizeof(*c));
	const struct conf_params *ps;
	bool ok = false;

	if (!c)
		return false;
	snprintf(in, sizeof(in),
		 "[dsr]\nAddress = 10.0.0.1/24\n[%s]\n%s%s = %s\n", section,
		 strcmp(section, "transit") ? "" : "Interface = wlan0\n", name,
		 value);
	if (!parse(c, in, err))
		goto out;
	ps = strcmp(section, "transit") ? &c->dsr.params : &c->tr[0].params;
	ok = conf_param_has(ps, id - first);
	if (!ok)
		ktap_diag("%s: not set", name);
out:
	conf_free(c);
	free(c);
	return ok;
}

static bool t_dsr_names(void)
{
	int id;

	CHECK_EQ(fam_nparams(&dsr_family), CONF_DSR_NPARAMS);
	for (id = DSR_A_P_FIRST; id <= DSR_A_P_LAST; id++)
		CHECK(param_parses("dsr.params", param_of(&dsr_family, id)->name,
				   id == DSR_A_P_SUBNET ? "10.0.0.0" : "1",
				   DSR_A_P_FIRST, id));
	return true;
}

static bool t_transit_names(void)
{
	int id;

	CHECK_EQ(fam_nparams(&transit_family), CONF_TR_NPARAMS);
	for (id = TRANSIT_A_P_FIRST; id <= TRANSIT_A_P_LAST; id++)
		CHECK(param_parses("transit", param_of(&transit_family, id)->name, "1",
				   TRANSIT_A_P_FIRST, id));
	return true;
}

/* ---- at most so many sections of a kind ---------------------------------- */

struct max_case {
	const char *name;		/* the section's */
	const char *head, *tail;	/* one, around its number (0, 1, ...) */
	int lines;			/* of one */
	int max, is;			/* the limit; it must be @is (0: any) */
	size_t count;			/* offsetof(struct conf, nSECTIONS) */
	const char *why;		/* after the message, or "" */
};

/* CONF_MAX_SECTIONS [slice], and CONF_MAX_MCAST [mcast], 64: the module's
 * groups (of a device) */
static const struct max_case slice_max = {
	"slice", "[slice]\nInterface = sl", "\nSlice = s\n", 3,
	CONF_MAX_SECTIONS, 0, offsetof(struct conf, nsl), ""
};
static const struct max_case mcast_max = {
	"mcast", "[mcast]\nSource = 10.0.0.1\nGroup = 239.1.1.",
	"\nLayers = 1\n", 4, CONF_MAX_MCAST, 64, offsetof(struct conf, nmc),
	" (the groups a DSR device has)"
};

static const struct max_case mcmap_max = {
	"mcast.map", "[mcast.map]\nSource = 10.0.0.1\nGroup = 239.1.1.",
	"\n", 3, CONF_MAX_MCMAP, 16, offsetof(struct conf, nmm),
	" (the groups of a DSR device's source map)"
};

/* [dsr] and @m->max sections (made in @in, of @cap bytes) parse into as
 * many (in @c); one more "[NAME]" is refused at its line: "more than MAX
 * [NAME] sections", then the why */
static bool max_refused(const struct max_case *m, struct conf *c, char *in,
			size_t cap)
{
	char err[ERRLEN], want[128];
	size_t n, i;

	if (m->is)
		CHECK_EQ(m->max, m->is);
	n = (size_t)snprintf(in, cap, "[dsr]\nAddress = 10.0.0.1/24\n");
	for (i = 0; i < (size_t)m->max; i++)
		n += (size_t)snprintf(in + n, cap - n, "%s%zu%s", m->head, i,
				      m->tail);
	CHECK(parse(c, in, err));
	CHECK_EQ(*(const size_t *)((const char *)c + m->count), m->max);
	conf_free(c);
	snprintf(in + n, cap - n, "[%s]\n", m->name);
	conf_init(c);
	CHECK(conf_parse_buf(c, "t", in, strlen(in), NULL, err, sizeof(err)));
	snprintf(want, sizeof(want), "t:%d: more than %d [%s] sections%s",
		 2 + m->lines * m->max + 1, m->max, m->name, m->why);
	if (strcmp(err, want))
		ktap_diag("got '%s', expected '%s'", err, want);
	CHECK(!strcmp(err, want));
	return true;
}

static bool sections_max(const struct max_case *m)
{
	size_t one = strlen(m->head) + strlen(m->tail) + 24;
	size_t cap = 64 + (size_t)(m->max + 1) * one;
	char *in = malloc(cap);
	struct conf *c = calloc(1, sizeof(*c));	/* conf_free()'s at any point */
	bool ok = in && c && max_refused(m, c, in, cap);

	if (c)
		conf_free(c);
	free(c);
	free(in);
	return ok;
}

/* ---- [slice] ------------------------------------------------------------ */

static const char slices[] =
	"[dsr]\nInterface = eth0\nAddress = 10.0.0.7/24\n"
	"[slice]\n"
	"Interface = wlan1\n"
	"Slice = red\t\t# /run/netns/red\n"
	"Lease = 2592000\n"
	"Mode = move\n"
	"[macfilter]\nInterface = eth0\n"
	"[slice]\n"
	"Slice = abcdefghijklmnopqrstuvwxyz01234\n"
	"Interface = wlan2\n"
	"[slice]\n"
	"Interface = eth1\n"
	"Slice = blue\n"
	"Lease = 1\n"
	/* map: an interface of [dsr], with a [macfilter], stays the node's */
	"[slice]\n"
	"Interface = eth0\n"
	"Mode = map\n"
	"Keep = 22, 51820,1,65535\n"
	"Slice = green\n"
	"[slice]\n"
	"Interface = dsr0\n"
	"Slice = green\n"
	"Mode = map\n"
	"Keep = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n";

static bool check_slices(const struct conf *c)
{
	CHECK_EQ(c->nsl, 5);
	CHECK(!strcmp(c->sl[0].ifname, "wlan1"));
	CHECK(!strcmp(c->sl[0].slice, "red"));
	CHECK_EQ(c->sl[0].lease, SLICE_LEASE_MAX);
	CHECK_EQ(c->sl[0].mode, SLICE_MODE_MOVE);
	CHECK_EQ(c->sl[0].line, 4);
	/* the longest label; no Lease: until revoked; Mode: move */
	CHECK(!strcmp(c->sl[1].ifname, "wlan2"));
	CHECK(!strcmp(c->sl[1].slice, "abcdefghijklmnopqrstuvwxyz01234"));
	CHECK_EQ(c->sl[1].lease, 0);
	CHECK_EQ(c->sl[1].mode, SLICE_MODE_MOVE);
	CHECK(!strcmp(c->sl[2].slice, "blue"));
	CHECK_EQ(c->sl[2].lease, 1);
	CHECK_EQ(c->sl[2].nkeep, 0);
	/* Keep: blanks around the ports, 1 and 65535, at most SLICE_KEEP_MAX */
	CHECK(!strcmp(c->sl[3].ifname, "eth0"));
	CHECK_EQ(c->sl[3].mode, SLICE_MODE_MAP);
	CHECK_EQ(c->sl[3].nkeep, 4);
	CHECK_EQ(c->sl[3].keep[0], 22);
	CHECK_EQ(c->sl[3].keep[1], 51820);
	CHECK_EQ(c->sl[3].keep[2], 1);
	CHECK_EQ(c->sl[3].keep[3], 65535);
	CHECK(!strcmp(c->sl[4].ifname, "dsr0"));
	CHECK_EQ(c->sl[4].nkeep, SLICE_KEEP_MAX);
	CHECK_EQ(c->sl[4].keep[SLICE_KEEP_MAX - 1], 16);
	CHECK_EQ(c->nmf, 1);
	return true;
}

/* ---- [mcast] ------------------------------------------------------------ */

static const char mcasts[] =
	"[mcast]\n"			/* before [dsr]: any order */
	"Source = 10.0.0.1\n"
	"Group = 239.1.1.1\n"
	"Layers = 2\n"
	"[dsr]\nAddress = 10.0.0.7/24\n"
	"[mcast]\n"
	"Layers = 3\t\t# the first three\n"
	"Tag = rtp\n"
	"Group = 239.1.1.2\n"
	"Chain = dup   fanout\t# blanks\n"
	"Source = 10.0.0.1\n"
	"[mcast]\n"
	"Source = 223.255.255.254\n"
	"Group = 224.0.1.0\n"
	"Layers = 128\n"
	"Tag = byte\n"
	"Offset = 65535\n"
	"GroupLayers = 128\n"
	"Chain = tag dup cap 128 filter fanout bcast 254\n"
	"[mcast]\n"
	"GroupLayers = 12\n"
	"Tids = 8\n"
	"Chain = default\n"
	"Id = 255\n"
	"Tag = rtp\n"
	"Layers = 12\n"
	"Group = 239.255.255.255\n"
	"Source = 1.0.0.1\n"
	/* the same group from another source: another stream */
	"[mcast]\n"
	"Source = 10.0.0.2\n"
	"Group = 239.1.1.1\n"
	"Layers = 1\n"
	"GroupLayers = 1\n"
	"Chain = cap 1\n"
	"[mcast]\n"
	"Source = 10.0.0.1\n"
	"Group = 239.1.1.3\n"
	"Layers = 4\n"
	"Chain = fanout bcast 0\n"
	"Tag = byte\n";

static uint32_t mc_val(const struct conf *c, size_t i, int id)
{
	return dsr_mc_get(&c->mc[i].req, id);
}

static bool mc_has(const struct conf *c, size_t i, int id)
{
	return dsr_mc_has(&c->mc[i].req, id);
}

/* Section @i's Chain is the @n elements @e ("default": none) */
static bool mc_chain_is(const struct conf *c, size_t i,
			const struct dsr_mc_elem_cfg *e, size_t n)
{
	const struct dsr_mc_chain *ch = &c->mc[i].chain;

	CHECK(c->mc[i].has_chain);
	CHECK_EQ(ch->n, n);
	CHECK(!n || !memcmp(ch->e, e, n * sizeof(*e)));
	return true;
}

static bool check_mc_chains(const struct conf *c)
{
	static const struct dsr_mc_elem_cfg dup_fanout[] = {
		{ DSR_MC_EL_DUP, 0 }, { DSR_MC_EL_FANOUT, DSR_MC_FANOUT_PARAM },
	}, all[] = {
		{ DSR_MC_EL_TAG, 0 }, { DSR_MC_EL_DUP, 0 },
		{ DSR_MC_EL_CAP, 128 }, { DSR_MC_EL_FILTER, 0 },
		{ DSR_MC_EL_FANOUT, 254 },
	}, cap1[] = { { DSR_MC_EL_CAP, 1 } },
	   bcast0[] = { { DSR_MC_EL_FANOUT, 0 } };

	/* none: none sent, the group keeps its own */
	CHECK(!c->mc[0].has_chain);
	CHECK(mc_chain_is(c, 1, dup_fanout, ARRAY_SIZE(dup_fanout)));
	CHECK(mc_chain_is(c, 2, all, ARRAY_SIZE(all)));
	CHECK(mc_chain_is(c, 3, NULL, 0));	/* default */
	CHECK(mc_chain_is(c, 4, cap1, ARRAY_SIZE(cap1)));
	CHECK(mc_chain_is(c, 5, bcast0, ARRAY_SIZE(bcast0)));
	return true;
}

static bool check_mcasts(const struct conf *c)
{
	CHECK_EQ(c->nmc, 6);
	/* no tag: none sent, the group's stays (the kernel's for a new one) */
	CHECK_EQ(c->mc[0].line, 1);
	CHECK_EQ(mc_val(c, 0, DSR_A_MC_SOURCE), ip("10.0.0.1"));
	CHECK_EQ(mc_val(c, 0, DSR_A_MC_GROUP), ip("239.1.1.1"));
	CHECK_EQ(mc_val(c, 0, DSR_A_MC_LAYERS), 2);
	CHECK(!dsr_mc_tagged(&c->mc[0].req));
	/* Tag = rtp: its defaults, id 1 and tids 0, as ahctl's */
	CHECK_EQ(c->mc[1].line, 7);
	CHECK_EQ(mc_val(c, 1, DSR_A_MC_LAYERS), 3);
	CHECK_EQ(mc_val(c, 1, DSR_A_MC_TAG_MODE), DSR_MC_TAG_RTP);
	CHECK_EQ(mc_val(c, 1, DSR_A_MC_TAG_EXT_ID), DSR_MC_DEF_EXT_ID);
	CHECK_EQ(mc_val(c, 1, DSR_A_MC_TAG_TIDS), DSR_MC_DEF_TIDS);
	CHECK(!mc_has(c, 1, DSR_A_MC_TAG_OFFSET));
	CHECK(!mc_has(c, 1, DSR_A_MC_TAG_LAYERS));
	/* the limits of each value */
	CHECK_EQ(mc_val(c, 2, DSR_A_MC_SOURCE), ip("223.255.255.254"));
	CHECK_EQ(mc_val(c, 2, DSR_A_MC_GROUP), ip("224.0.1.0"));
	CHECK_EQ(mc_val(c, 2, DSR_A_MC_LAYERS), 128);
	CHECK_EQ(mc_val(c, 2, DSR_A_MC_TAG_MODE), DSR_MC_TAG_BYTE);
	CHECK_EQ(mc_val(c, 2, DSR_A_MC_TAG_OFFSET), 65535);
	CHECK_EQ(mc_val(c, 2, DSR_A_MC_TAG_LAYERS), 128);
	CHECK(!mc_has(c, 2, DSR_A_MC_TAG_EXT_ID));
	CHECK_EQ(mc_val(c, 3, DSR_A_MC_SOURCE), ip("1.0.0.1"));
	CHECK_EQ(mc_val(c, 3, DSR_A_MC_GROUP), ip("239.255.255.255"));
	CHECK_EQ(mc_val(c, 3, DSR_A_MC_TAG_EXT_ID), 255);
	CHECK_EQ(mc_val(c, 3, DSR_A_MC_TAG_TIDS), 8);
	CHECK_EQ(mc_val(c, 3, DSR_A_MC_TAG_LAYERS), 12);
	/* GroupLayers alone: a tag, without a mode */
	CHECK(dsr_mc_tagged(&c->mc[4].req));
	CHECK(!mc_has(c, 4, DSR_A_MC_TAG_MODE));
	CHECK(!mc_has(c, 4, DSR_A_MC_TAG_OFFSET));
	CHECK_EQ(mc_val(c, 4, DSR_A_MC_TAG_LAYERS), 1);
	/* Tag = byte: offset 0 */
	CHECK_EQ(mc_val(c, 5, DSR_A_MC_TAG_OFFSET), DSR_MC_DEF_OFFSET);
	CHECK(!mc_has(c, 5, DSR_A_MC_TAG_EXT_ID));
	CHECK(!mc_has(c, 5, DSR_A_MC_TAG_TIDS));
	return check_mc_chains(c);
}

/* [mcast.map]: each group's sources, in the file's order */
static const char mcmaps[] =
	"[mcast.map]\n"
	"Group = 239.1.1.10\n"
	"Source = 10.0.0.1\n"
	"[dsr]\nAddress = 10.0.0.5/24\n"
	"[mcast.map]\n"
	"Source = 223.255.255.254\n"
	"Source = 1.0.0.1\t# the limits\n"
	"Group = 239.255.255.255\n"
	"Source = 10.0.0.2\n"
	"Source = 10.0.0.1\n"
	"[mcast]\nSource = 10.0.0.1\nGroup = 239.1.1.10\nLayers = 1\n";

static bool check_mcmaps(const struct conf *c)
{
	CHECK_EQ(c->nmm, 2);
	CHECK_EQ(c->nmc, 1);
	CHECK_EQ(c->mm[0].line, 1);
	CHECK_EQ(c->mm[0].group, ip("239.1.1.10"));
	CHECK_EQ(c->mm[0].nsource, 1);
	CHECK_EQ(c->mm[0].source[0], ip("10.0.0.1"));
	CHECK_EQ(c->mm[1].line, 6);
	CHECK_EQ(c->mm[1].group, ip("239.255.255.255"));
	CHECK_EQ(c->mm[1].nsource, 4);
	CHECK_EQ(c->mm[1].source[0], ip("223.255.255.254"));
	CHECK_EQ(c->mm[1].source[1], ip("1.0.0.1"));
	CHECK_EQ(c->mm[1].source[2], ip("10.0.0.2"));
	CHECK_EQ(c->mm[1].source[3], ip("10.0.0.1"));
	CHECK_EQ(c->mm[1].source_line[3], 11);
	return true;
}

/* ---- the other tests, in order ------------------------------------------ */

static const struct fn_case {
	const char *desc;
	bool (*fn)(void);			/* a function; or */
	const char *in;				/* a file that parses, */
	bool (*check)(const struct conf *c);	/* and what holds of it; or */
	const struct max_case *max;		/* a limit of sections */
} fn_cases[] = {
	{ "a full config", .in = full, .check = check_full },
	{ "the defaults", .in = "[dsr]\nAddress = 192.168.5.1/24",
	  .check = check_defaults },
	{ "Gateway becomes gateway, subnet, subnet_prefix", .fn = t_gateway },
	{ "subnet A.B.C.D/LEN sets subnet_prefix",
	  .in = "[dsr]\nAddress = 10.0.0.7/24\n[dsr.params]\n"
		"gateway = 1\nsubnet = 10.0.0.0/24\n",
	  .check = check_subnet_param },
	{ "EntryFile", .fn = t_entry_file },
	{ "conf_load", .fn = t_load },
	{ "every DSR parameter of the table is a key", .fn = t_dsr_names },
	{ "every transit parameter of the table is a key",
	  .fn = t_transit_names },
	{ "[slice]: leases, their defaults and limits", .in = slices,
	  .check = check_slices },
	{ "[slice]: at most CONF_MAX_SECTIONS", .max = &slice_max },
	{ "[mcast]: joins, ahctl's limits and tag defaults; Chains",
	  .in = mcasts,
	  .check = check_mcasts },
	{ "[mcast]: at most 64, the groups of a device", .max = &mcast_max },
	{ "[mcast.map]: groups and their sources", .in = mcmaps,
	  .check = check_mcmaps },
	{ "[mcast.map]: at most 16, the groups of the source map",
	  .max = &mcmap_max },
};

static bool run_fn_case(const struct fn_case *t)
{
	if (t->fn)
		return t->fn();
	if (t->max)
		return sections_max(t->max);
	return parses_to(t->in, t->check);
}

int main(void)
{
	size_t ne = ARRAY_SIZE(err_cases), nf = ARRAY_SIZE(fn_cases);
	size_t i;

	ktap_plan((unsigned int)(ne + nf));
	for (i = 0; i < ne; i++)
		run_err_case(&err_cases[i]);
	for (i = 0; i < nf; i++)
		ktap_result(run_fn_case(&fn_cases[i]), "%s", fn_cases[i].desc);
	return ktap_finish();
}
