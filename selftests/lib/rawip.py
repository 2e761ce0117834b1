#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""IPv4 packets built by hand on an IPPROTO_RAW socket (selftests/dsr).

    rawip.py udp SRC DST ID...   one UDP datagram of 100 zero bytes from SRC
                                 to DST (port 9) per IP id ID: duplicates
                                 when an id repeats (badinput.sh)
    rawip.py udp150              150 datagrams of 20 bytes 10.0.0.1 ->
                                 10.0.0.99, ids 1000..1149 (netlink.sh)
    rawip.py proto48 SRC DST WAIT [raw]
                                 one protocol 48 packet SRC -> DST; prints
                                 how many ICMP protocol unreachables for it
                                 came within WAIT s (sooner once one came)
                                 and, with "raw", how many copies a
                                 protocol 48 raw socket got (netlink.sh)
"""
import os
import select
import socket
import struct
import sys
import time


def udp():
    """UDP datagrams with the IP ids given."""
    src, dst, ids = sys.argv[1], sys.argv[2], sys.argv[3:]
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    for i in ids:
        udp = struct.pack("!HHHH", 9, 9, 8 + 100, 0) + bytes(100)
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp),
                         int(i), 0, 64, 17, 0, socket.inet_aton(src),
                         socket.inet_aton(dst))
        s.sendto(ip + udp, (dst, 0))


def udp150():
    """150 datagrams to 10.0.0.99, nowhere."""
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    for i in range(150):
        udp = struct.pack("!HHHH", 9, 9, 8 + 20, 0) + bytes(20)
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1000 + i,
                         0, 64, 17, 0, socket.inet_aton("10.0.0.1"),
                         socket.inet_aton("10.0.0.99"))
        s.sendto(ip + udp, ("10.0.0.99", 0))


def proto48():
    """A protocol 48 packet; the unreachables and copies."""
    src, dst, wait, mode = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    ident = os.getpid() & 0xffff
    icmp = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    r48 = socket.socket(socket.AF_INET, socket.SOCK_RAW, 48) if mode else None
    tx = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    body = bytes(range(16))
    tx.sendto(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(body), ident,
                          0, 64, 48, 0, socket.inet_aton(src),
                          socket.inet_aton(dst)) + body, (dst, 0))
    end, unreach, copies = time.time() + wait, 0, 0
    socks = [s for s in (icmp, r48) if s]
    while time.time() < end and not unreach:
        ready, _, _ = select.select(socks, [], [], max(0, end - time.time()))
        for s in ready:
            pkt = s.recv(2048)
            ihl = (pkt[0] & 15) * 4
            if s is r48:
                copies += struct.unpack("!H", pkt[4:6])[0] == ident
                continue
            inner = pkt[ihl + 8:]
            if (pkt[ihl:ihl + 2] == b"\x03\x02" and len(inner) >= 20 and
                    inner[9] == 48 and struct.unpack("!H", inner[4:6])[0] == ident):
                unreach += 1
    print(unreach, copies)


if __name__ == "__main__":
    # the arguments after the command keep the places they had when
    # this was inline Python (sys.argv[1] is the first)
    {"udp": udp, "udp150": udp150, "proto48": proto48}[sys.argv.pop(1)]()
