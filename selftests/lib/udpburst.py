#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A burst of UDP datagrams (bench/timer.sh).

    udpburst.py DST N   N datagrams of 64 bytes to DST port 9, from a
                        socket whose send buffer holds them all
                        (SO_SNDBUFFORCE)
"""
import socket, sys

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 32, 64 << 20)
for _ in range(int(sys.argv[2])):
    s.sendto(b"x" * 64, (sys.argv[1], 9))
