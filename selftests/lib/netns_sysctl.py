#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Set net sysctls in many network namespaces from one process: a
"sysctl" run per namespace (ip netns exec or nsenter) costs a process
start each, a second or more for fifty nodes under TCG.

    netns_sysctl.py KEY=VALUE... -- NETNS...

KEY as sysctl names it (net.ipv6.conf.all.disable_ipv6).  /proc/sys/net
shows the namespace of the process that opens the file, so each file is
opened after a setns into NETNS.
"""
import ctypes
import os
import sys

CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)


def setns(fd):
    if libc.setns(fd, CLONE_NEWNET):
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))


def main(argv):
    if "--" not in argv:
        sys.exit(__doc__)
    k = argv.index("--")
    sets = [a.split("=", 1) for a in argv[1:k]]
    if not sets or any(len(x) != 2 for x in sets):
        sys.exit(__doc__)
    own = os.open("/proc/self/ns/net", os.O_RDONLY)
    try:
        for name in argv[k + 1:]:
            fd = os.open(f"/run/netns/{name}", os.O_RDONLY)
            try:
                setns(fd)
            finally:
                os.close(fd)
            for key, val in sets:
                with open("/proc/sys/" + key.replace(".", "/"), "w") as f:
                    f.write(val)
    finally:
        setns(own)
        os.close(own)


if __name__ == "__main__":
    main(sys.argv)
