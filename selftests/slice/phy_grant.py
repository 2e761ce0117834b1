#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A move-mode GRANT of IFNAME to the slice of SLICE_NETNS_FILE, and
nothing else: no phy is moved (wireless.sh's check of the kernel's wait
for it).  Prints the errno and the extack message; exits 0 if the kernel
took the grant.  Runs in the node's namespace.

usage: phy_grant.py SLICE_NETNS_FILE IFNAME [LABEL]"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from genl import Genl, attr, u32  # noqa: E402

GRANT = 1
A_IFNAME, A_NETNS_FD, A_NAME = 2, 3, 5

fd = os.open(sys.argv[1], os.O_RDONLY)
g = Genl("slice")
extra = [attr(A_NAME, sys.argv[3])] if len(sys.argv) > 3 else []
err, _ = g.do(GRANT, attr(A_IFNAME, sys.argv[2]), u32(A_NETNS_FD, fd), *extra)
print(f"errno {-err}: {g.extack or os.strerror(-err)}")
sys.exit(1 if err else 0)
