#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""UDP traffic for the transit tests and bench, bounded in count and time.

    udp.py send DST PORT SIZE COUNT PPS [SRC [PRIO]]
        COUNT datagrams of SIZE payload bytes at PPS per second (0: as
        fast as the socket takes them), from SRC if given ("" for any),
        with socket priority PRIO (SO_PRIORITY) if given.
    udp.py recv PORT SECS [IDLE]
        count datagrams arriving on PORT for at most SECS seconds, or
        until none came for IDLE seconds after the first; prints
        "datagrams bytes".
    udp.py flood DST PORT COUNT SEED [PPS]
        COUNT 64-byte datagrams, each from another spoofed source in
        10.1.0.0/16 (raw socket, IP_HDRINCL), as fast as possible.
"""
import random
import socket
import struct
import sys
import time


def send(dst, port, size, count, pps, src=None, prio=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    if prio is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, prio)
    if src:
        s.bind((src, 0))
    payload = b"x" * size
    gap = 1.0 / pps if pps else 0
    t0 = time.monotonic()
    sent = 0
    for i in range(count):
        if gap:
            delay = t0 + i * gap - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        try:
            s.sendto(payload, (dst, port))
            sent += 1
        except OSError:
            pass        # a full queue: counted by what arrives
    print(sent)


def datagrams(port, secs, idle):
    """Datagrams arriving on PORT for at most SECS seconds, or until none
    came for IDLE seconds (0: no such limit) after the first."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind(("0.0.0.0", port))
    end = time.monotonic() + secs
    last = None
    while True:
        now = time.monotonic()
        left = end - now
        if last is not None and idle:
            left = min(left, last + idle - now)
        if left <= 0:
            return
        s.settimeout(left)
        try:
            data = s.recv(65535)
        except socket.timeout:
            return
        last = time.monotonic()
        yield data


def recv(port, secs, idle):
    n = nbytes = 0
    for data in datagrams(port, secs, idle):
        n += 1
        nbytes += len(data)
    print(n, nbytes)


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack(f"!{len(b) // 2}H", b))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff


def flood(dst, port, count, seed, pps=0):
    rnd = random.Random(seed)
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    d = socket.inet_aton(dst)
    payload = b"f" * 64
    t0 = time.monotonic()
    for i in range(count):
        if pps and i % 50 == 0:
            delay = t0 + i / pps - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        src = bytes([10, 1, rnd.randrange(1, 255), rnd.randrange(1, 255)])
        udp = struct.pack("!HHHH", 1024 + i % 50000, port,
                          8 + len(payload), 0) + payload
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i & 0xffff,
                         0, 64, 17, 0, src, d)
        ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
        # every datagram is sent: a full queue (ENOBUFS) is waited out
        while True:
            try:
                s.sendto(ip + udp, (dst, 0))
                break
            except OSError as e:
                if e.errno != 105:
                    raise
                time.sleep(0.001)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "send":
        send(args[0], int(args[1]), int(args[2]), int(args[3]),
             float(args[4]), args[5] if len(args) > 5 else None,
             int(args[6]) if len(args) > 6 else None)
    elif cmd == "recv":
        recv(int(args[0]), float(args[1]),
             float(args[2]) if len(args) > 2 else 0)
    elif cmd == "flood":
        flood(args[0], int(args[1]), int(args[2]), int(args[3]),
              float(args[4]) if len(args) > 4 else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
