#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Attach macfilter (default mode: deny) to one device in many network
namespaces from one process: an "ahctl -n NETNS macfilter attach" per
node costs a process start each, most of a second under TCG.

    mf_attach.py DEV NETNS...

Each namespace gets its own generic netlink socket (made after a setns
into it; a netlink socket stays in the namespace it was made in).  Exits
1, naming the namespace and the kernel's message, on the first refusal.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from genl import Genl, attr  # noqa: E402
from netns_sysctl import setns  # noqa: E402

MACFILTER_CMD_ATTACH = 1
MACFILTER_A_IFNAME = 2


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    dev = argv[1]
    own = os.open("/proc/self/ns/net", os.O_RDONLY)
    try:
        for name in argv[2:]:
            fd = os.open(f"/run/netns/{name}", os.O_RDONLY)
            try:
                setns(fd)
            finally:
                os.close(fd)
            g = Genl("macfilter")
            err, _ = g.request(g.family, MACFILTER_CMD_ATTACH,
                               attr(MACFILTER_A_IFNAME, dev))
            g.sock.close()
            if err:
                sys.exit(f"mf_attach.py: {name}: {dev}: "
                         f"{os.strerror(-err)} {g.extack}")
    finally:
        setns(own)
        os.close(own)


if __name__ == "__main__":
    main(sys.argv)
