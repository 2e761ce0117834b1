#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Bad netlink requests to the slice family: each gets the right errno, an
extack message, and changes nothing (no grant comes or goes, eth0 stays).
Run by grant.sh inside node 1, whose vx is granted to the slice already.

usage: nl_errors.py SLICE_NETNS_FILE"""
import errno as E
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from genl import Genl, attr, u8, u32  # noqa: E402

GRANT, REVOKE, GET = 1, 2, 3
(A_IFINDEX, A_IFNAME, A_NETNS_FD, A_NETNS_PID, A_NAME, A_MODE,
 A_LEASE) = range(1, 8)
LEASE_MAX = 30 * 24 * 3600

slice_fd = os.open(sys.argv[1], os.O_RDONLY)
own_fd = os.open("/proc/self/ns/net", os.O_RDONLY)
file_fd = os.open("/proc/self/status", os.O_RDONLY)
g = Genl("slice")
num = failed = 0


def text(b):
    return b.rstrip(b"\0").decode()


def state():
    err, msgs = g.dump(GET)
    assert err == 0, err
    grants = sorted((text(dict(m)[A_IFNAME]), text(dict(m)[A_NAME]))
                    for m in msgs)
    return grants, os.path.exists("/sys/class/net/eth0")


def case(name, err_expected, cmd, *attrs, substr=""):
    global num, failed
    before = state()
    err, _ = g.do(cmd, *attrs)
    extack = g.extack
    after = state()
    want = err_expected if isinstance(err_expected, tuple) else (err_expected,)
    ok = -err in want and extack != "" and before == after and substr in extack
    num += 1
    if not ok:
        failed += 1
        print(f"# {name}: errno {-err} (want {err_expected}), "
              f"changed: {before != after}")
    print(f"# {name}: extack: {extack}")
    print(f"{'ok' if ok else 'not ok'} {num} {name}")


eth0 = attr(A_IFNAME, "eth0")
to_slice = u32(A_NETNS_FD, slice_fd)
print("KTAP version 1")
print("1..19")
assert "vx" in [i for i, _ in state()[0]], "vx is not granted"
case("grant of an unknown ifname", E.ENODEV, GRANT, attr(A_IFNAME, "nosuch"),
     to_slice)
case("grant of an unknown ifindex", E.ENODEV, GRANT, u32(A_IFINDEX, 999999),
     to_slice, substr="ifindex")
case("grant naming no device", E.EINVAL, GRANT, to_slice, substr="device")
case("a second grant", E.EBUSY, GRANT, attr(A_IFNAME, "vx"), to_slice,
     substr="granted")
case("grant without a namespace", E.EINVAL, GRANT, eth0, substr="netns")
case("grant with fd and pid", E.EINVAL, GRANT, eth0, to_slice,
     u32(A_NETNS_PID, os.getpid()), substr="netns")
case("grant to a file that is no namespace", E.EINVAL, GRANT, eth0,
     u32(A_NETNS_FD, file_fd), substr="namespace")
case("grant to a process that does not exist", E.ESRCH, GRANT, eth0,
     u32(A_NETNS_PID, 0x7FFFFFF0), substr="process")
case("grant to the node's own namespace", E.EINVAL, GRANT, eth0,
     u32(A_NETNS_FD, own_fd), substr="own")
case("grant of loopback", E.EINVAL, GRANT, attr(A_IFNAME, "lo"), to_slice)
case("lease of 0 s", E.ERANGE, GRANT, eth0, to_slice, u32(A_LEASE, 0))
case("lease beyond 30 days", E.ERANGE, GRANT, eth0, to_slice,
     u32(A_LEASE, LEASE_MAX + 1))
case("unknown mode", E.ERANGE, GRANT, eth0, to_slice, u8(A_MODE, 7))
case("slice name too long", (E.EINVAL, E.ERANGE), GRANT, eth0, to_slice,
     attr(A_NAME, "s" * 40))
case("unknown attribute (strict)", E.EINVAL, GRANT, eth0, to_slice,
     u32(200, 1))
case("revoke of what is not granted", E.ENOENT, REVOKE, eth0,
     substr="not granted")
case("revoke naming no device", E.EINVAL, REVOKE, substr="interface")
case("revoke of an unknown ifname", E.ENOENT, REVOKE, attr(A_IFNAME, "nosuch"))
case("get of what is not granted", E.ENOENT, GET, eth0)
print(f"# totals: pass:{num - failed} fail:{failed}")
sys.exit(1 if failed else 0)
