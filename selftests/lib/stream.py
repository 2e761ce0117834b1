#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Streams for the shared-medium experiments (bench/streams.sh and
selftests/dsr/medium.sh).  Every node is a namespace of one kernel, so
CLOCK_MONOTONIC is one clock: a datagram's one-way delay is exact.

    stream.py video-send DST PORT SECS RATE [SEED [TOS]]
        a VBR video-like stream of mean RATE bit/s for SECS seconds:
        25 frames/s in 12-frame groups IBBPBBPBBPBB, frame sizes I:P:B
        = 5:2.5:1 times a log-normal factor (sigma 0.25, seeded), each
        frame cut into datagrams of 7 MPEG-TS packets (1316 bytes) spread
        evenly over the frame's 40 ms, as a streaming server paces them.
        Prints JSON {"sent": datagrams, "bytes": payload bytes}.
    stream.py video-recv PORT SECS IDLE OUT
        receive for at most SECS s, or IDLE s after the last datagram;
        write "seq delay_us" per datagram to OUT; print JSON with the
        datagrams and bytes received, the delivered rate, the one-way
        delay (min/mean/p50/p95/p99/max), RFC 3550 interarrival jitter
        and the frames that arrived whole.  A datagram that arrives twice
        (DSR retransmits when an acknowledgement is lost) counts once.
    stream.py tcp-recv PORT
        accept one connection, read to EOF; print JSON {"bytes", "secs"}
        with secs from accept to EOF (the transfer time).
    stream.py tcp-send DST PORT BYTES
        connect, write BYTES, close.
"""
import json
import math
import random
import socket
import struct
import sys
import time

from udp import datagrams

HDR = struct.Struct("!IIQB")   # seq, frame, send time (ns), frames' datagrams
TS_DGRAM = 7 * 188
FPS = 25
GOP = "IBBPBBPBBPBB"
WEIGHT = {"I": 5.0, "P": 2.5, "B": 1.0}


def frame_sizes(rate, secs, seed):
    rnd = random.Random(seed)
    mean_w = sum(WEIGHT[t] for t in GOP) / len(GOP)
    unit = rate / 8 / FPS / mean_w           # bytes per weight unit
    out = []
    for i in range(int(secs * FPS)):
        w = WEIGHT[GOP[i % len(GOP)]]
        f = rnd.lognormvariate(-0.25 ** 2 / 2, 0.25)   # mean 1
        out.append(max(HDR.size, int(w * unit * f)))
    return out


def video_send(dst, port, secs, rate, seed, tos):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if tos:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    seq = sent = nbytes = 0
    t0 = time.monotonic()
    for fno, size in enumerate(frame_sizes(rate, secs, seed)):
        n = max(1, math.ceil(size / TS_DGRAM))
        for j in range(n):
            due = t0 + (fno + j / n) / FPS
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            plen = min(TS_DGRAM, size - j * TS_DGRAM)
            plen = max(plen, HDR.size)
            pkt = HDR.pack(seq, fno, time.monotonic_ns(), n)
            pkt += b"v" * (plen - HDR.size)
            seq += 1
            try:
                s.sendto(pkt, (dst, port))
                sent += 1
                nbytes += plen
            except OSError:
                pass    # never with a 1 MB buffer at these rates
    print(json.dumps({"sent": seq, "bytes": nbytes, "secs": secs}))


def pct(v, p):
    if not v:
        return 0
    return v[min(len(v) - 1, int(p / 100 * len(v)))]


def video_recv(port, secs, idle, out):
    rows = []
    seen = set()
    dups = 0
    frames = {}
    nbytes = 0
    first = last = None
    jitter = 0.0
    prev = None
    for data in datagrams(port, secs, idle):
        rx = time.monotonic_ns()
        last = time.monotonic()
        if len(data) < HDR.size:
            continue
        seq, fno, tx, n = HDR.unpack_from(data)
        if seq in seen:     # DSR may deliver a retransmitted copy
            dups += 1
            continue
        seen.add(seq)
        d = (rx - tx) / 1000.0
        if prev is not None:        # RFC 3550 6.4.1
            jitter += (abs(d - prev) - jitter) / 16
        prev = d
        rows.append((seq, d))
        got = frames.setdefault(fno, [n, 0])
        got[1] += 1
        nbytes += len(data)
        if first is None:
            first = last
    with open(out, "w") as f:
        for seq, d in rows:
            f.write(f"{seq} {d:.0f}\n")
    ds = sorted(d for _, d in rows)
    span = (last - first) if rows and last > first else 0
    print(json.dumps({
        "received": len(rows), "duplicates": dups, "bytes": nbytes,
        "mbps": round(nbytes * 8 / span / 1e6, 3) if span else 0,
        "delay_ms": {k: round(v / 1000, 2) for k, v in (
            ("min", ds[0] if ds else 0), ("mean", sum(ds) / len(ds) if ds else 0),
            ("p50", pct(ds, 50)), ("p95", pct(ds, 95)), ("p99", pct(ds, 99)),
            ("max", ds[-1] if ds else 0))},
        "jitter_ms": round(jitter / 1000, 3),
        "frames_whole": sum(1 for n, g in frames.values() if g >= n),
        "frames_seen": len(frames)}))


def tcp_recv(port):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", port))
    ls.listen(1)
    c, _ = ls.accept()
    t0 = time.monotonic()
    n = 0
    while True:
        b = c.recv(1 << 16)
        if not b:
            break
        n += len(b)
    secs = time.monotonic() - t0
    print(json.dumps({"bytes": n, "secs": round(secs, 4),
                      "mbps": round(n * 8 / secs / 1e6, 4) if secs else 0}))


def tcp_send(dst, port, count):
    s = socket.create_connection((dst, port), timeout=120)
    buf = b"t" * 65536
    left = count
    while left > 0:
        k = s.send(buf[:min(left, len(buf))])
        left -= k
    s.shutdown(socket.SHUT_WR)
    s.recv(1)       # the receiver's close: everything was read
    s.close()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == "video-send":
        video_send(a[0], int(a[1]), float(a[2]), float(a[3]),
                   int(a[4]) if len(a) > 4 else 1,
                   int(a[5], 0) if len(a) > 5 else 0)
    elif cmd == "video-recv":
        video_recv(int(a[0]), float(a[1]), float(a[2]), a[3])
    elif cmd == "tcp-recv":
        tcp_recv(int(a[0]))
    elif cmd == "tcp-send":
        tcp_send(a[0], int(a[1]), int(a[2]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
