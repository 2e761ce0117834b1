#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""UDP datagrams of two TOS classes (selftests/dsr/prio.sh: strict priority
and FIFO order within a band of dsrprio).

    tosudp.py recv N TIMEOUT   bind port 5000, print "ready", then the first
                               8 bytes of each of N datagrams (stops after
                               TIMEOUT s without one)
    tosudp.py send DST LOW HIGH
                               LOW datagrams "L i" of TOS 0, then HIGH
                               datagrams "H i" of TOS 0x10 (low delay),
                               500 bytes each, to DST port 5000
"""
import socket
import sys


def recv():
    """Print the payload heads of N datagrams on port 5000."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("", 5000))
    # the sender starts after "ready": slow on the debug kernel
    s.settimeout(int(sys.argv[2]))
    print("ready", flush=True)
    for _ in range(int(sys.argv[1])):
        try:
            print(s.recv(2000)[:8].decode().strip(), flush=True)
        except socket.timeout:
            break


def send():
    """LOW datagrams of TOS 0, then HIGH of TOS 0x10."""
    dst, low, high = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for tos, kind, n in ((0, "L", low), (0x10, "H", high)):
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
        for i in range(n):
            s.sendto(("%s %-6d" % (kind, i)).encode() + bytes(492),
                     (dst, 5000))


if __name__ == "__main__":
    # the arguments after the command keep the places they had when
    # this was inline Python (sys.argv[1] is the first)
    {"recv": recv, "send": send}[sys.argv.pop(1)]()
