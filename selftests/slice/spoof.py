#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Frames a slice sends on its interface through a packet socket, some
with a source that is not its own (grant.sh).

    spoof.py IFACE SRC_IP DST_MAC DST_IP PORT

sends four UDP datagrams to DST_IP:PORT: one from the interface's own MAC
and SRC_IP, one from another MAC, one from another IPv4 source, and that
last again through a PACKET_QDISC_BYPASS socket (which skips the qdisc
layer).  Only the first is the slice's own."""
import socket
import struct
import sys

SOL_PACKET = 263
PACKET_QDISC_BYPASS = 20
ETH_P_IP = 0x0800


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def frame(src_mac, dst_mac, src_ip, dst_ip, port, tag):
    payload = tag.encode()
    udp = struct.pack("!HHHH", 40000, port, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0, 64, 17, 0,
                     socket.inet_aton(src_ip), socket.inet_aton(dst_ip))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return dst_mac + src_mac + struct.pack("!H", ETH_P_IP) + ip + udp


def main():
    iface, src_ip, dst_mac, dst_ip, port = sys.argv[1:6]
    port = int(port)
    dst_mac = bytes.fromhex(dst_mac.replace(":", ""))
    with open(f"/sys/class/net/{iface}/address") as f:
        own = bytes.fromhex(f.read().strip().replace(":", ""))
    other_mac = bytes.fromhex("020000000077")
    other_ip = "10.0.0.77"
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    b = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    b.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
    b.bind((iface, 0))
    for sock, mac, ip, tag in ((s, own, src_ip, "own"),
                               (s, other_mac, src_ip, "other mac"),
                               (s, own, other_ip, "other ip"),
                               (b, own, other_ip, "other ip, bypass")):
        # a dropped frame's send fails (ENOBUFS: the hook dropped it)
        try:
            sock.send(frame(mac, dst_mac, ip, dst_ip, port, tag))
            print(f"# {tag}: sent")
        except OSError as e:
            print(f"# {tag}: {e.strerror}")


main()
