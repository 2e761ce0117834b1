#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Raw Ethernet frames for the selftests, faster than scapy.

  frames.py send IFACE --src MAC [--dst MAC] [--count N] [--pps R]
                        [--duration S] [--len L]
  frames.py sendhex IFACE HEX COUNT      (a frame made elsewhere, e.g. scapy)
  frames.py recv IFACE --out FILE [--duration S]

Frames use the local experimental EtherType 0x88b5 and carry a sequence
number.  The receiver binds a packet socket to that EtherType only: such a
socket is served after the device's rx_handler, so it sees exactly the
frames macfilter let through (a tap on ETH_P_ALL would see them all).  It
writes one line per frame: kernel receive timestamp (ns), source MAC, seq.
"""
import argparse
import errno
import socket
import struct
import sys
import time

ETH_P_TEST = 0x88B5
SO_TIMESTAMPNS = 35


def mac_bytes(mac):
    return bytes(int(x, 16) for x in mac.split(":"))


def mac_str(b):
    return ":".join(f"{x:02x}" for x in b)


def send(args):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((args.iface, 0))
    hdr = mac_bytes(args.dst) + mac_bytes(args.src) + struct.pack("!H", ETH_P_TEST)
    pad = bytes(max(0, args.len - 14 - 8))
    gap = 1.0 / args.pps if args.pps else 0
    end = time.monotonic() + args.duration if args.duration else None
    seq = 0
    nxt = time.monotonic()
    while args.count is None or seq < args.count:
        if end is not None and time.monotonic() >= end:
            break
        try:
            s.send(hdr + struct.pack("!Q", seq) + pad)
        except OSError as e:
            # The device dropped it (a slow receiver, e.g. a debug kernel,
            # let the peer's backlog fill up): it was not sent, so back
            # off and send the same frame again.
            if e.errno != errno.ENOBUFS:
                raise
            time.sleep(0.001)
            continue
        seq += 1
        if gap:
            nxt += gap
            delay = nxt - time.monotonic()
            if delay > 0:
                time.sleep(delay)
    print(seq)


def sendhex(args):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((args.iface, 0))
    frame = bytes.fromhex(args.hex)
    for _ in range(args.count):
        s.send(frame)


def recv(args):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_TEST))
    s.bind((args.iface, ETH_P_TEST))
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.settimeout(0.2)
    end = time.monotonic() + args.duration
    with open(args.out, "w", buffering=1) as out:
        print("ready", file=out)
        while time.monotonic() < end:
            try:
                data, anc, _, _ = s.recvmsg(2048, socket.CMSG_SPACE(16))
            except socket.timeout:
                continue
            ts = 0
            for level, typ, val in anc:
                if level == socket.SOL_SOCKET and typ == SO_TIMESTAMPNS:
                    sec, nsec = struct.unpack("qq", val[:16])
                    ts = sec * 1000000000 + nsec
            seq = struct.unpack("!Q", data[14:22])[0] if len(data) >= 22 else -1
            print(ts, mac_str(data[6:12]), seq, file=out)


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    ps = sub.add_parser("send")
    ps.add_argument("iface")
    ps.add_argument("--src", required=True)
    ps.add_argument("--dst", default="ff:ff:ff:ff:ff:ff")
    ps.add_argument("--count", type=int)
    ps.add_argument("--pps", type=float, default=0)
    ps.add_argument("--duration", type=float)
    ps.add_argument("--len", type=int, default=64)
    ph = sub.add_parser("sendhex")
    ph.add_argument("iface")
    ph.add_argument("hex")
    ph.add_argument("count", type=int)
    pr = sub.add_parser("recv")
    pr.add_argument("iface")
    pr.add_argument("--out", required=True)
    pr.add_argument("--duration", type=float, default=30)
    args = p.parse_args()
    if args.cmd == "send":
        send(args)
    elif args.cmd == "sendhex":
        sendhex(args)
    else:
        recv(args)


if __name__ == "__main__":
    sys.exit(main())
