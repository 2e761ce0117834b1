#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Bad netlink requests to the macfilter family: each gets the right errno,
an extack message, and changes nothing.  Run by netlink.sh inside node 1.

usage: nl_errors.py DEV BRIDGE_PORT"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from genl import Genl, attr, u8, u32, nest  # noqa: E402

(ATTACH, DETACH, SET, GET_DEV, ADD, DEL, FLUSH, REPLACE, GET_ENTRY) = range(1, 10)
(A_IFINDEX, A_IFNAME, A_MODE, A_MAX_ENTRIES, A_COUNT, A_MAC, A_LOSS,
 A_ENTRY, A_DROPPED, A_SEEN, A_PASSED) = range(1, 12)

dev, brport = sys.argv[1], sys.argv[2]
g = Genl("macfilter")
MAC_A = bytes.fromhex("020000000003")
MAC_B = bytes.fromhex("020000000004")
num = 0
failed = 0


def entries():
    err, msgs = g.dump(GET_ENTRY, attr(A_IFNAME, dev))
    assert err == 0, err
    return sorted(dict(m)[A_MAC] for m in msgs)


def case(name, err_expected, cmd, *attrs, substr=""):
    global num, failed
    before = entries()
    err, _ = g.do(cmd, *attrs)
    extack = g.extack
    after = entries()
    want = err_expected if isinstance(err_expected, tuple) else (err_expected,)
    ok = (-err in want and extack != "" and before == after and
          substr in extack)
    num += 1
    if not ok:
        failed += 1
        print(f"# {name}: errno {-err} (want {err_expected}), "
              f"list changed: {before != after}")
    print(f"# {name}: extack: {extack}")
    print(f"{'ok' if ok else 'not ok'} {num} {name}")


E = __import__("errno")
print("KTAP version 1")
print("1..17")
dv = attr(A_IFNAME, dev)
assert g.do(ATTACH, dv, u32(A_MAX_ENTRIES, 4))[0] == 0, g.extack
assert g.do(ADD, dv, attr(A_MAC, MAC_A))[0] == 0, g.extack
case("unknown ifindex", E.ENODEV, ATTACH, u32(A_IFINDEX, 999999), substr="ifindex")
case("unknown ifname", E.ENODEV, ADD, attr(A_IFNAME, "nosuchdev"), attr(A_MAC, MAC_B))
case("no device named", E.EINVAL, ADD, attr(A_MAC, MAC_B), substr="device")
case("short MAC", (E.EINVAL, E.ERANGE), ADD, dv, attr(A_MAC, MAC_B[:5]))
case("long MAC", (E.EINVAL, E.ERANGE), ADD, dv, attr(A_MAC, MAC_B + b"\0"))
case("multicast MAC", E.EINVAL, ADD, dv, attr(A_MAC, bytes.fromhex("010000000004")),
     substr="multicast")
case("loss above 100", E.ERANGE, ADD, dv, attr(A_MAC, MAC_B), u8(A_LOSS, 101))
case("unknown attribute (strict)", E.EINVAL, ADD, dv, attr(A_MAC, MAC_B), u32(200, 1))
case("duplicate add", E.EEXIST, ADD, dv, attr(A_MAC, MAC_A))
case("del of absent MAC", E.ENOENT, DEL, dv, attr(A_MAC, MAC_B))
case("replace with duplicate", E.EINVAL, REPLACE, dv,
     nest(A_ENTRY, attr(A_MAC, MAC_B)), nest(A_ENTRY, attr(A_MAC, MAC_B)),
     substr="twice")
case("replace beyond max_entries", E.ENOSPC, REPLACE, dv,
     *[nest(A_ENTRY, attr(A_MAC, bytes([2, 0, 0, 0, 1, i]))) for i in range(5)])
case("replace entry loss 255", E.ERANGE, REPLACE, dv,
     nest(A_ENTRY, attr(A_MAC, MAC_B), u8(A_LOSS, 255)))
case("max_entries out of range", E.ERANGE, SET, dv, u32(A_MAX_ENTRIES, 70000))
assert g.do(ADD, dv, attr(A_MAC, MAC_B))[0] == 0, g.extack
case("max_entries below count", E.ENOSPC, SET, dv, u32(A_MAX_ENTRIES, 1),
     substr="max_entries")
case("rx_handler taken (bridge port)", E.EBUSY, ATTACH, attr(A_IFNAME, brport),
     substr="rx_handler")
case("loopback refused", E.EOPNOTSUPP, ATTACH, attr(A_IFNAME, "lo"))
g.do(DETACH, dv)
print(f"# totals: pass:{num - failed} fail:{failed}")
sys.exit(1 if failed else 0)
