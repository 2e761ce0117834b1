#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Fill a dsr device's route cache (bench/dsr.sh's table sizes).

    routefill.py DEV N   N static two-hop routes, to 10.200.0.0/16 via
                         10.201.0.0/16 (addresses no node has), added
                         through the dsr generic netlink family in one
                         process; the cache must have room for them
                         (route_cache_size).  Exits 1 on a refusal.
"""
import os, re, socket, sys

LIB = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, LIB)
from genl import Genl, attr  # noqa: E402


def uapi_enum(name):
    """enum NAME of include/uapi/linux/ah_dsr.h, by name"""
    text = open(os.path.join(LIB, "../../include/uapi/linux/ah_dsr.h")).read()
    body = re.search(r"enum %s \{(.*?)\};" % name, text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names = [n.strip() for n in body.split(",") if n.strip()]
    return {n: i for i, n in enumerate(names)}


A, C = uapi_enum("dsr_attr"), uapi_enum("dsr_cmd")
dev, n = sys.argv[1], int(sys.argv[2])
g = Genl("dsr")
for i in range(n):
    hi, lo = (i >> 8) & 0xff, i & 0xff
    dst = socket.inet_aton("10.200.%d.%d" % (hi, lo))
    via = socket.inet_aton("10.201.%d.%d" % (hi, lo))
    err, _ = g.do(C["DSR_CMD_ADD_ROUTE"],
                  attr(A["DSR_A_IFNAME"], dev),
                  attr(A["DSR_A_DST"], dst), attr(A["DSR_A_HOPS"], via + dst))
    if err:
        sys.exit("routefill: route %d refused: %s %s"
                 % (i, os.strerror(-err), g.extack))
