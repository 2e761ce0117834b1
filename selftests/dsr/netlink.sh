#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The dsr generic netlink family's hygiene, with a raw client
# (selftests/lib/genl.py) where ahctl would not send the request: who may
# join the events group, parameter ranges in the policy (extack names the
# attribute and gives the range; nothing changes), strict validation,
# dumps that resume from a cursor (every row once, a bounded number per
# call), the route length limit that ahctl and the kernel share; and IPv4
# protocol 48 in namespaces without a dsr device: ICMP protocol
# unreachable, as without the module.
#
#   1 (dsr0 over eth0) --- ahhub --- 2 (plain eth0), 3 (plain eth0)
#
#   1: the family's cases, on dsr0
#   3 -> 2: protocol 48 over the hub; 1 and 2 also to themselves (lo)
source "$(dirname "$0")/../lib.sh"

require_cmd jq ahctl setpriv

SCALE=${AH_TIME_SCALE:-1}

setup() {
	hub_setup 3 && dsr_setup 1
}

test_events_group() {
	shared || return 1
	check "root joins the events group" nl 1 <<-'EOF' &&
		g.join("events")
	EOF
	check "nobody cannot join the events group (EPERM), may join config" \
		nl_nobody 1 <<-'EOF'
		try:
		    g.join("events")
		    fail("nobody joined the events group")
		except PermissionError as e:
		    print(f"# events: {e}")
		g.join("config")
	EOF
}

# each value one past its parameter's range (dsr_param_defs, params.c),
# sent with a valid change of another parameter (both in the DSR_A_PARAMS
# nest): -ERANGE, the extack points at the attribute inside the nest and
# carries the range, nothing changes; the bounds themselves are taken
test_param_ranges() {
	shared || return 1
	nl 1 <<-'EOF'
		SET = C["DSR_CMD_SET_PARAMS"]
		JITTER = P["DSR_A_P_BROADCAST_JITTER_MS"]
		cases = [("DISCOVERY_HOP_LIMIT", 1, 255),
		         ("ROUTE_CACHE_TIMEOUT_MS", 100, 86400000),
		         ("SEND_BUFFER_BYTES", 1500, 16777216),
		         ("REQUEST_TABLE_IDS", 1, 64),
		         ("RTO_MIN_MS", 1, 60000),
		         ("GATEWAY", 0, 1),
		         ("SUBNET_PREFIX", 0, 32),
		         ("QUEUE_THRESH", 0, 100000),
		         ("MAX_SALVAGE_COUNT", 0, 15)]
		before = params(g, dev)
		jitter = struct.unpack("I", before[JITTER])[0]
		for name, lo, hi in cases:
		    a = P["DSR_A_P_" + name]
		    for val in ([lo - 1] if lo else []) + [hi + 1]:
		        err, _ = g.do(SET, dev, pnest(u32(JITTER, jitter + 1), u32(a, val)))
		        rng = (g.extack_policy.get(PMIN), g.extack_policy.get(PMAX))
		        print(f"# {name.lower()} {val}: errno {-err}, '{g.extack}',"
		              f" attribute {g.extack_attr}, range {rng[0]}..{rng[1]}")
		        if err != -errno.ERANGE or not g.extack:
		            fail(f"{name.lower()} {val}: not ERANGE with a message")
		        if g.extack_attr != a:
		            fail(f"{name.lower()} {val}: extack names attribute"
		                 f" {g.extack_attr}, not {a}")
		        if rng != (lo, hi):
		            fail(f"{name.lower()} {val}: extack gives no range {lo}..{hi}")
		if params(g, dev) != before:
		    fail("a refused request changed parameters")
		for name, lo, hi in cases:
		    for val in (lo, hi):
		        # (rto_max_ms at its top: rto_min_ms may not exceed it)
		        err, _ = g.do(SET, dev, pnest(u32(P["DSR_A_P_" + name], val),
		                                      u32(P["DSR_A_P_RTO_MAX_MS"], 60000)))
		        if err:
		            fail(f"{name.lower()} {val} (a bound) refused: {g.extack}")
		# put everything back
		err, _ = g.do(SET, dev, pnest(*[attr(a, before[a]) for a in
		                                range(P["DSR_A_P_DISCOVERY_HOP_LIMIT"],
		                                      P["DSR_A_P_CONGESTION_DROP"] + 1)]))
		if err or params(g, dev) != before:
		    fail(f"parameters not restored: {g.extack}")
	EOF
}

test_rto_order() {
	shared || return 1
	nl 1 <<-'EOF'
		SET = C["DSR_CMD_SET_PARAMS"]
		MIN, MAX = P["DSR_A_P_RTO_MIN_MS"], P["DSR_A_P_RTO_MAX_MS"]
		before = params(g, dev)
		rmin = struct.unpack("I", before[MIN])[0]
		rmax = struct.unpack("I", before[MAX])[0]
		for a, val in ((MIN, rmax + 1), (MAX, rmin - 1)):
		    err, _ = g.do(SET, dev, pnest(u32(a, val)))
		    print(f"# attribute {a} = {val}: errno {-err}, '{g.extack}',"
		          f" attribute {g.extack_attr}")
		    if (err != -errno.EINVAL or g.extack_attr != a or
		            "rto_min_ms is above rto_max_ms" not in g.extack):
		        fail(f"attribute {a} = {val} not refused as crossing")
		if params(g, dev) != before:
		    fail("a refused request changed parameters")
	EOF
}

# unknown attributes are refused, at top level and inside the parameters'
# nest, and so are a parameter outside the nest (the layout before
# DSR_A_PARAMS: a parameter at the number it had then, or at its number
# in the nest) and a nest without NLA_F_NESTED; so (every command
# validated as a new one) are a reserved header field and netlink flags
# the core gives no meaning to.  Without the nest, or with an empty one,
# SET_PARAMS changes nothing.
test_strict() {
	shared || return 1
	nl 1 <<-'EOF'
		SET, GET = C["DSR_CMD_SET_PARAMS"], C["DSR_CMD_GET_PARAMS"]
		ROUTES = C["DSR_CMD_GET_ROUTE"]
		GW = P["DSR_A_P_GATEWAY"]
		# before DSR_A_PARAMS, the parameters followed DSR_A_EVENT
		GW_OLD = A["DSR_A_EVENT"] + GW
		before = params(g, dev)
		NLM_F_CREATE = 0x400
		for what, call in (
		        ("attribute above DSR_A_MAX", lambda: g.do(SET, dev, u32(A_MAX + 1, 1))),
		        ("HOPS to SET_PARAMS", lambda: g.do(SET, dev, attr(A["DSR_A_HOPS"], bytes(4)))),
		        ("a parameter to a route dump",
		         lambda: g.dump(ROUTES, dev, pnest(u32(GW, 1)))),
		        (f"a parameter at top level, its old number {GW_OLD}",
		         lambda: g.do(SET, dev, u32(GW_OLD, 1))),
		        (f"a parameter at top level, its number {GW} in the nest",
		         lambda: g.do(SET, dev, u32(GW, 1))),
		        ("attribute above DSR_A_P_MAX in the nest",
		         lambda: g.do(SET, dev, pnest(u32(GW, 1), u32(P_MAX + 1, 1)))),
		        ("attribute 0 in the nest",
		         lambda: g.do(SET, dev, pnest(u32(GW, 1), u32(0, 1)))),
		        ("the nest without NLA_F_NESTED",
		         lambda: g.do(SET, dev, attr(A["DSR_A_PARAMS"], u32(GW, 1)))),
		        ("genlmsghdr.reserved set", lambda: g.do(GET, dev, reserved=1)),
		        ("reserved set on a change",
		         lambda: g.do(SET, dev, pnest(u32(GW, 1)), reserved=1)),
		        ("reserved set on a dump", lambda: g.dump(ROUTES, dev, reserved=7)),
		        ("NLM_F_CREATE", lambda: g.do(SET, dev, pnest(u32(GW, 1)),
		                                      flags=NLM_F_CREATE))):
		    err, _ = call()
		    print(f"# {what}: errno {-err}, '{g.extack}'")
		    if err != -errno.EINVAL or not g.extack:
		        fail(f"{what}: not EINVAL with a message")
		if params(g, dev) != before:
		    fail("a refused request changed parameters")
		for what, extra in (("no nest", ()), ("an empty nest", (pnest(),))):
		    err, _ = g.do(SET, dev, *extra)
		    print(f"# SET_PARAMS with {what}: errno {-err}, '{g.extack}'")
		    if err:
		        fail(f"SET_PARAMS with {what} refused")
		if params(g, dev) != before:
		    fail("SET_PARAMS without parameters changed some")
	EOF
}

# ROUTES static routes to 10.1.x.y on node 1 (the cache made large enough)
add_routes() {
	nl 1 "$1" <<-'EOF'
		n = int(sys.argv[1])
		err, _ = g.do(C["DSR_CMD_SET_PARAMS"], dev,
		              pnest(u32(P["DSR_A_P_ROUTE_CACHE_SIZE"], 1024)))
		assert err == 0, g.extack
		for i in range(n):
		    err, _ = g.do(C["DSR_CMD_ADD_ROUTE"], dev,
		                  ip(f"10.1.{i // 250}.{i % 250 + 1}"))
		    if err:
		        fail(f"route {i}: {g.extack}")
		        break
	EOF
}

del_routes() {
	dsr 1 flush dsr0 routes &&
		dsr 1 param set dsr0 route_cache_size 256
}

# ahctl's dump, and the raw one: every row once, and no call of the
# kernel's dumpit put more than DSR_DUMP_BUDGET (256) rows, however large
# the receive buffer
test_route_dump() {
	local rows uniq
	shared || return 1
	add_routes 300 || return 1
	rows=$(dsr 1 -j route show dsr0 | jq length)
	uniq=$(dsr 1 -j route show dsr0 | jq '[.[].dst] | unique | length')
	diag "ahctl: $rows rows, $uniq destinations"
	check "ahctl: every route once" test "$rows" = 300 -a "$uniq" = 300 &&
	check "raw dump: every route once, at most 256 per call" nl 1 <<-'EOF'
		per_part, seen = [], 0

		def count(n, msgs):
		    global seen
		    per_part.append(len(msgs) - seen)
		    seen = len(msgs)

		err, msgs = g.dump(C["DSR_CMD_GET_ROUTE"], dev, on_part=count)
		dsts = [dict(m)[A["DSR_A_DST"]] for m in msgs]
		print(f"# {len(dsts)} rows, {len(set(dsts))} destinations,"
		      f" rows per datagram {per_part}")
		if err or len(dsts) != 300 or len(set(dsts)) != 300:
		    fail(f"rows {len(dsts)}, destinations {len(set(dsts))}, errno {-err}")
		if max(per_part) > 256:
		    fail("a call put more than 256 rows")
	EOF
	local rc=$?
	del_routes
	return $rc
}

# Small datagrams (a 4 KiB receive buffer): many calls.  After the first
# datagram the route of its first row goes; the dump resumes by slot, so
# no other row is skipped (resuming by row number would skip one).
test_route_dump_delete() {
	shared || return 1
	add_routes 300 || return 1
	nl 1 <<-'EOF'
		small = Genl("dsr", bufsize=4096)
		DST = A["DSR_A_DST"]

		def delete_first(n, msgs):
		    if n == 1:
		        err, _ = g.do(C["DSR_CMD_DEL_ROUTE"], dev,
		                      attr(DST, dict(msgs[0])[DST]))
		        assert err == 0, g.extack

		err, msgs = small.dump(C["DSR_CMD_GET_ROUTE"], dev, on_part=delete_first)
		dsts = [dict(m)[DST] for m in msgs]
		print(f"# {len(dsts)} rows, {len(set(dsts))} destinations,"
		      f" {small.parts} datagrams")
		if small.parts < 4:
		    fail("the dump did not take several calls")
		if err or len(dsts) != 300 or len(set(dsts)) != 300:
		    fail(f"rows {len(dsts)}, destinations {len(set(dsts))}, errno {-err}")
		err, msgs = g.dump(C["DSR_CMD_GET_ROUTE"], dev)
		if len(msgs) != 299:
		    fail(f"{len(msgs)} routes after the delete, not 299")
	EOF
	local rc=$?
	del_routes
	return $rc
}

# DSR_MAX_ADDRS (uapi, ahctl's limit) is DSR_MAX_PATH (the kernel's): a
# route of 32 addresses is taken, ahctl refuses 33 itself, the kernel too
test_route_length() {
	local out
	shared || return 1
	# shellcheck disable=SC2046 # one word per hop
	check "32 addresses (31 hops and DST) taken" \
		dsr 1 route add dsr0 10.2.1.1 via $(seq -f '10.2.0.%g' 1 31) &&
	check "as a route of 32 hops" \
		test "$(dsr 1 -j route show dsr0 | jq '.[] | select(.dst == "10.2.1.1") | .hopcount')" = 32 || return 1
	# shellcheck disable=SC2046
	out=$(dsr 1 route add dsr0 10.2.1.2 via $(seq -f '10.2.0.%g' 1 32) 2>&1)
	diag "33 addresses: $(head -1 <<< "$out")"
	check "ahctl refuses 33 addresses: at most 32" \
		grep -q "at most 32" <<< "$out" &&
	check "so does the kernel" nl 1 <<-'EOF'
		hops = b"".join(socket.inet_aton(f"10.2.2.{i}") for i in range(1, 34))
		err, _ = g.do(C["DSR_CMD_ADD_ROUTE"], dev, ip("10.2.2.33"),
		              attr(A["DSR_A_HOPS"], hops))
		print(f"# 33 addresses: errno {-err}, '{g.extack}', attribute {g.extack_attr}")
		if not err or g.extack_attr != A["DSR_A_HOPS"]:
		    fail("33 addresses not refused at DSR_A_HOPS")
	EOF
	local rc=$?
	dsr 1 flush dsr0 routes
	return $rc
}

# packets to 10.0.0.99 (nowhere) wait in the send buffer while a Route
# Discovery runs: the buffer dump (send buffer, then the maintenance
# buffer) and the request table dump (initiators, then discoveries) over
# many small calls
test_list_dumps() {
	shared || return 1
	dsr 1 param set dsr0 send_buffer_packets 1000 || return 1
	nsexec 1 "$PYTHON" "$AH_ROOT/selftests/lib/rawip.py" udp150
	nl 1 <<-'EOF'
		small = Genl("dsr", bufsize=4096)
		err, msgs = small.dump(C["DSR_CMD_GET_BUFFER"], dev)
		kinds = [dict(m)[A["DSR_A_BUFFER"]][0] for m in msgs]
		print(f"# buffer: {len(kinds)} rows in {small.parts} datagrams")
		if err or kinds.count(0) != 150 or small.parts < 3:
		    fail(f"{kinds.count(0)} send buffer rows, not 150 (errno {-err})")
		err, msgs = small.dump(C["DSR_CMD_GET_REQTABLE"], dev)
		disc = [m for m in map(dict, msgs) if A["DSR_A_DST"] in m]
		print(f"# request table: {len(msgs)} rows, {len(disc)} discoveries")
		if err or [socket.inet_ntoa(d[A["DSR_A_DST"]]) for d in disc] != ["10.0.0.99"]:
		    fail("the discovery of 10.0.0.99 is not in the request table dump")
	EOF
	local rc=$?
	dsr 1 flush dsr0 sendbuf reqtable
	dsr 1 param set dsr0 send_buffer_packets 64
	return $rc
}

# proto48 NODE SRC DST [raw]: from SRC to DST, one protocol 48 packet (an
# IPPROTO_RAW socket, which receives nothing); prints how many ICMP
# protocol unreachables for it NODE got in 2 s (sooner once one came) and,
# with "raw", how many copies a protocol 48 raw socket of NODE got
proto48() {
	nsexec "$1" "$PYTHON" "$AH_ROOT/selftests/lib/rawip.py" proto48 "$2" "$3" "$((2 * SCALE))" "${4:-}"
}

test_proto48_unreach() {
	local r
	shared || return 1
	r=$(proto48 3 "$(node_ip 3)" "$(node_ip 2)")
	diag "3 -> 2 (no dsr device): unreachables, copies: $r"
	check "from a neighbour: ICMP protocol unreachable" test "$r" = "1 0" || return 1
	r=$(proto48 2 127.0.0.1 127.0.0.1)
	diag "2 -> itself: $r"
	check "to itself: ICMP protocol unreachable" test "$r" = "1 0"
}

test_proto48_raw() {
	local r
	shared || return 1
	r=$(proto48 2 127.0.0.1 127.0.0.1 raw)
	diag "2 -> itself, a protocol 48 raw socket open: unreachables, copies: $r"
	check "the raw socket has its copy, no ICMP" test "$r" = "0 1"
}

test_proto48_dsr() {
	local r
	shared || return 1
	r=$(proto48 1 127.0.0.1 127.0.0.1)
	diag "1 (dsr0) -> itself: unreachables, copies: $r"
	check "a namespace with dsr0 stays silent" test "$r" = "0 0" || return 1
	nsexec 2 ip link add dsr9 type dsr || return 1
	r=$(proto48 2 127.0.0.1 127.0.0.1)
	diag "2, with dsr9 -> itself: $r"
	check "2 with a dsr device (no slave) stays silent" test "$r" = "0 0" &&
	check "dsr9 deleted" nsexec 2 ip link del dsr9 &&
	r=$(proto48 2 127.0.0.1 127.0.0.1) &&
	diag "2, dsr9 gone -> itself: $r" &&
	check "2 without it answers again" test "$r" = "1 0"
	local rc=$?
	nsexec 2 ip link del dsr9 2>/dev/null
	return $rc
}

shared_setup setup
ktap_begin 11
run_case "events group: CAP_NET_ADMIN only" test_events_group
run_case "parameters out of range: attribute and range in extack, nothing changed" test_param_ranges
run_case "rto_min_ms above rto_max_ms refused" test_rto_order
run_case "strict validation: attributes, reserved field, flags" test_strict
run_case "route dump: 300 rows, each once, bounded per call" test_route_dump
run_case "route dump resumes by slot: a deleted row skips no other" test_route_dump_delete
run_case "route length: ahctl's limit is the kernel's" test_route_length
run_case "protocol 48 without dsr0: ICMP protocol unreachable" test_proto48_unreach
run_case "protocol 48 to a raw socket: a copy, no ICMP" test_proto48_raw
run_case "protocol 48 with a dsr device: silent" test_proto48_dsr
# last: its Route Discovery goes on sending requests
run_case "buffer and request table dumps over many calls" test_list_dumps
ktap_end
