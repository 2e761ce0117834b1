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

Layered video multicast (issue 19, docs/mcast.md; the generalized video
multicast of seed 002, whose routers forward only the layers each
receiver asked for, read from a 7-bit tag in each packet):

    stream.py layered-send GROUP PORT FRAMES FPS LAYERS RATES
              [--ttl T] [--dev IFNAME] [--seed S]
        FRAMES frames at FPS frames/s of a video of LAYERS layers (1..128)
        to the multicast GROUP.  RATES is each layer's bit rate, bit/s,
        as a comma list of LAYERS values or one value for every layer.
        Each frame of each layer is cut into datagrams of at most 1200
        payload bytes; a frame's datagrams, every layer's interleaved,
        are spread evenly over the frame's 1/FPS s.  A payload starts
        with the tag byte, the layer in its low 7 bits (DSR_MTAG_BYTE at
        offset 0), then the header: frame, layer, the datagram's index
        in its (frame, layer) and how many datagrams that (frame, layer)
        has, send time (CLOCK_MONOTONIC ns), in network order (LHDR).
        --dev sends out of IFNAME (IP_MULTICAST_IF by its ifindex and
        address: no route to the group needed); --ttl the multicast TTL
        (default 16); loopback off.  GROUP may be a unicast address too
        (one stream per receiver, or 127.0.0.1 to a local flood-relay's
        --inject): sent as the routing table says, with the default TTL;
        --dev and --ttl, multicast's, change nothing then.  --seed S
        varies each frame's size, every layer's alike, by a log-normal
        factor (sigma 0.25, mean 1) as video-send; without it every frame
        of a layer has the same size.
        SIGTERM ends the stream after the frame being sent (every layer
        of a frame goes, or none).  Prints JSON {"sent": datagrams,
        "bytes": payload bytes, "errors": sends refused, "per_layer":
        [{"layer", "packets", "bytes"}, ...], "frames": frames sent}.
    stream.py layered-recv GROUP PORT SECS IDLE [--dev IFNAME]
              [--source S [--ssm]] [--adapt CMD] [--layers N]
              [--max-layers M] [--join CMD] [--last-frame N]
        join GROUP (IP_ADD_MEMBERSHIP on IFNAME, or the default
        interface; any-source: --source S drops other senders' datagrams
        here; with --ssm the join is source-specific instead,
        IP_ADD_SOURCE_MEMBERSHIP of S) and receive for at most SECS s, or IDLE s after the last
        datagram.  A unicast GROUP (not in 224.0.0.0/4) is bound to and
        nothing joined: the node's own address, or 127.0.0.1 for what a
        local flood-relay delivers; --dev changes nothing then, and --ssm
        is refused.  --join CMD runs CMD once, split as --adapt's below
        with "{layers}" replaced by N, right after the socket is bound and
        has joined; SECS counts from just before it ran.  Its output goes
        to stderr; its failure (an exit status not 0, or 30 s) ends the
        receiver, exit 1.  A datagram that arrives twice (same frame, layer,
        index) counts once, and in "duplicates".  A frame's level is the
        number of its layers, from layer 0 up, that arrived whole (the
        header gives each layer's datagrams): a gap in a layer leaves the
        layers above it useless.  A frame is decodable at level 1 or
        more.  With --adapt CMD, the seed's algorithm_adapt on loss: the
        receiver asks for N layers (--layers, 1) at first and the caller
        has joined so; each second the loss over the layers asked for is
        measured on the frames since the last period (each frame's
        datagrams as its headers say; a (frame, layer) not seen at all
        as many as that layer's last one had; a frame judged once three
        later frames arrived); loss above 5 % drops one layer (not below
        1), no loss in 3 periods in a row adds one (up to M, --max-layers,
        N by default; not above the sender's layers, whose missing layer
        would read as loss).  The period after a change is not judged
        (the join propagates, the queues drain).  Each change runs CMD,
        split as by a shell (shlex, no shell), with "{layers}" replaced
        by the new count, e.g. --adapt "ahctl dsr mcast join dev dsr0
        source 10.0.0.1 group 239.1.1.1 layers {layers}".  Prints JSON
        {"received": datagrams (each once), "bytes", "duplicates",
        "ignored": short, malformed or other sources' datagrams,
        "per_layer": [{"layer", "packets", "bytes"}, ...] for layers
        0..highest, "frames_seen", "frames_decodable", "levels": {level:
        frames seen at it, "0" undecodable}, "adapt": [[s since start,
        layers], ...] one row per change, "highest_layer": -1 if none,
        "last_frame": the highest frame number seen, -1 if none}; with
        --join also "join_to_first_ms": ms from just before CMD ran to the
        arrival (the kernel's receive time stamp) of the first datagram
        counted, not "ignored"; 0 if it was waiting already, null if none
        came (without --join the key is absent).  With --last-frame N the
        idle wait after frame N (the sender's last: frames - 1) is at
        most 3 s, whatever IDLE (a long IDLE waits out a route's change
        mid-stream, not the stream's end).

Plain flooding, the baseline of bench/mcast.sh:

    stream.py flood-relay IFNAME SECS [--inject PORT] [--deliver PORT]
              [--ethertype T]
        for SECS s, every layered-send datagram not seen before, once:
        rebroadcast on IFNAME (to ff:ff:ff:ff:ff:ff, from IFNAME's own
        MAC) in a frame of ethertype T (default 0x88b5, IEEE local
        experimental) whose payload, after the 14-byte Ethernet header,
        is the datagram's UDP payload.  An AF_PACKET socket bound to
        IFNAME and T, not to every protocol, sees frames after the
        device's rx_handler: a MAC filter there still applies.  Frames
        from IFNAME's own MAC are ignored.  A datagram is told from
        another by its header (LHDR: tag, frame, layer, index, count,
        send time), a payload shorter than that or not of the layered
        stream by its digest; the last 65536 are remembered.  --deliver
        sends each new one to 127.0.0.1:PORT (a local "layered-recv
        127.0.0.1 PORT" counts them); --inject takes datagrams on UDP
        127.0.0.1:PORT ("layered-send 127.0.0.1 PORT" on the source
        node) and broadcasts each as the source's, seen from then on.
        A payload over IFNAME's MTU is not broadcast.  SIGTERM ends it
        before SECS, the JSON printed all the same.  Prints JSON
        {"received": frames from others, "new": first copies,
        "duplicates", "delivered", "injected", "sent": frames broadcast,
        "bytes_sent": their payload bytes, "too_big": payloads over the
        MTU, "errors": sends refused, "ignored": frames from our MAC}.
"""
# (hashlib, shlex and subprocess are imported where used: a Python start
# in a TCG guest costs about 0.3 s before any import, and these three
# cost another 0.5 s that only flood-relay, --adapt and --join need)
import argparse
import collections
import fcntl
import json
import math
import random
import select
import signal
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


# ---- layered video multicast ------------------------------------------------

# tag byte (layer in its low 7 bits), frame, layer, index of the datagram in
# its (frame, layer), datagrams of that (frame, layer), send time (ns)
LHDR = struct.Struct("!BIBHHQ")
LAYER_DGRAM = 1200          # payload bytes at most
MAX_LAYERS = 128            # the 7-bit tag
LOSS_DROP = 0.05            # a period's loss above this drops a layer
CLEAN_RAISE = 3             # clean periods in a row that add one
PERIOD = 1.0                # s, the seed's sample_rate window
EVAL_LAG = 3                # a frame is judged once this many later came
END_IDLE = 3.0              # s, --last-frame: the idle wait after it


def layer_rates(spec, layers):
    """RATES: a comma list of one bit rate per layer, or one for all"""
    rates = [float(x) for x in spec.split(",")]
    if len(rates) == 1:
        rates *= layers
    if len(rates) != layers or min(rates) <= 0:
        raise ValueError(f"RATES {spec!r}: {layers} positive rates, or one")
    return rates


def layer_frame_sizes(rates, fps, frames, seed=None):
    """bytes of each frame of each layer: [frame][layer]; with a seed each
    frame scaled, every layer alike, by a log-normal factor of mean 1"""
    rnd = random.Random(seed) if seed is not None else None
    out = []
    for _ in range(frames):
        f = rnd.lognormvariate(-0.25 ** 2 / 2, 0.25) if rnd else 1.0
        out.append([max(LHDR.size, round(r / 8 / fps * f)) for r in rates])
    return out


def packetise(size):
    """a (frame, layer) of size bytes as datagram payload sizes: full ones
    of LAYER_DGRAM, then the rest (not shorter than the header)"""
    n = max(1, math.ceil(size / LAYER_DGRAM))
    out = [LAYER_DGRAM] * (n - 1)
    out.append(max(LHDR.size, size - (n - 1) * LAYER_DGRAM))
    return out


def frame_schedule(sizes):
    """one frame's datagrams, [(layer, index, count, size)], in send order:
    each layer's spread evenly over the frame, lower layers first on ties"""
    rows = []
    for layer, size in enumerate(sizes):
        dg = packetise(size)
        for i, plen in enumerate(dg):
            rows.append((i / len(dg), layer, i, len(dg), plen))
    rows.sort()
    return [r[1:] for r in rows]


def layer_packet(fno, layer, idx, count, plen, t_ns):
    hdr = LHDR.pack(layer & 0x7f, fno, layer, idx, count, t_ns)
    return hdr + b"L" * (plen - LHDR.size)


def layer_header(data):
    """(frame, layer, index, count, send ns) of a datagram, or None when it
    is short or malformed"""
    if len(data) < LHDR.size:
        return None
    tag, fno, layer, idx, count, t_ns = LHDR.unpack_from(data)
    if tag & 0x7f != layer or idx >= count:
        return None
    return fno, layer, idx, count, t_ns


def frame_level(layers):
    """a frame's level, {layer: (count, indices)}: its layers from 0 up
    that are whole"""
    level = 0
    while level in layers and len(layers[level][1]) >= layers[level][0]:
        level += 1
    return level


def frame_loss(layers, req, known):
    """(expected, received) datagrams of a frame, {layer: (count,
    indices)} (empty for a frame never seen), over layers 0..req-1; a
    layer not seen is expected with known[layer] datagrams (1 if none)"""
    exp = got = 0
    for layer in range(req):
        if layer in layers:
            exp += layers[layer][0]
            got += len(layers[layer][1])
        else:
            exp += known.get(layer, 1)
    return exp, got


def adapt_step(level, loss, clean, lo=1, hi=MAX_LAYERS,
               drop=LOSS_DROP, after=CLEAN_RAISE):
    """algorithm_adapt on one period's loss: (new level, clean periods in
    a row).  Loss above drop lowers one layer (not below lo); no loss in
    after periods in a row raises one (not above hi)."""
    if loss > drop:
        return max(lo, level - 1), 0
    if loss > 0:
        return level, 0
    clean += 1
    if clean >= after and level < hi:
        return level + 1, 0
    return level, clean


class FrameBook:
    """The datagrams of a layered stream, by frame and layer; no sockets,
    no clock."""

    def __init__(self):
        self.frames = {}        # frame -> {layer: (count, set of indices)}
        self.packets = {}       # layer -> datagrams, each once
        self.bytes = {}         # layer -> their bytes
        self.known = {}         # layer -> the datagrams of its last frame
        self.dups = 0
        self.newest = None
        self.judged = None      # frames up to this one are judged

    def add(self, fno, layer, idx, count, nbytes):
        """False for a duplicate"""
        frame = self.frames.setdefault(fno, {})
        got = frame.setdefault(layer, (count, set()))
        if idx in got[1]:
            self.dups += 1
            return False
        got[1].add(idx)
        self.packets[layer] = self.packets.get(layer, 0) + 1
        self.bytes[layer] = self.bytes.get(layer, 0) + nbytes
        self.known[layer] = count
        if self.newest is None or fno > self.newest:
            self.newest = fno
        if self.judged is None:
            self.judged = fno - 1
        return True

    def period(self, req, lag=EVAL_LAG):
        """(expected, received) over layers 0..req-1 of the frames not yet
        judged that lag later frames followed; they are judged so"""
        exp = got = 0
        if self.newest is None:
            return 0, 0
        while self.judged < self.newest - lag:
            self.judged += 1
            e, g = frame_loss(self.frames.get(self.judged, {}), req,
                              self.known)
            exp += e
            got += g
        return exp, got

    def levels(self):
        hist = {}
        for layers in self.frames.values():
            lv = frame_level(layers)
            hist[lv] = hist.get(lv, 0) + 1
        return dict(sorted(hist.items()))

    def summary(self):
        hi = max(self.packets, default=-1)
        hist = self.levels()
        return {
            "received": sum(self.packets.values()),
            "bytes": sum(self.bytes.values()),
            "duplicates": self.dups,
            "per_layer": [{"layer": lv, "packets": self.packets.get(lv, 0),
                           "bytes": self.bytes.get(lv, 0)}
                          for lv in range(hi + 1)],
            "frames_seen": len(self.frames),
            "frames_decodable": sum(n for lv, n in hist.items() if lv >= 1),
            "levels": {str(lv): n for lv, n in hist.items()},
            "highest_layer": hi,
            "last_frame": max(self.frames, default=-1)}


class Adapter:
    """The receiver's level, one period at a time; the period after a
    change is not judged."""

    def __init__(self, level, hi, lo=1):
        self.lo, self.hi = lo, max(lo, hi)
        self.level = min(max(level, self.lo), self.hi)
        self.clean = 0
        self.settle = 0

    def period(self, exp, got):
        """the new level after a period of exp datagrams expected and got
        received, or None if unchanged"""
        if self.settle:
            self.settle -= 1
            return None
        if exp <= 0:
            return None         # nothing to judge: no decision
        loss = max(0.0, 1 - got / exp)
        level, self.clean = adapt_step(self.level, loss, self.clean,
                                       self.lo, self.hi)
        if level == self.level:
            return None
        self.level = level
        self.settle = 1
        return level


def if_addr(dev):
    """IFNAME's IPv4 address (packed), or None"""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        req = struct.pack("16s16x", dev.encode()[:15])
        res = fcntl.ioctl(s.fileno(), 0x8915, req)     # SIOCGIFADDR
        return res[20:24]
    except OSError:
        return None
    finally:
        s.close()


def if_mtu(dev):
    """IFNAME's MTU"""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        req = struct.pack("16s16x", dev.encode()[:15])
        res = fcntl.ioctl(s.fileno(), 0x8921, req)     # SIOCGIFMTU
        return struct.unpack_from("=i", res, 16)[0]
    finally:
        s.close()


def is_multicast(addr):
    """whether GROUP, a dotted IPv4 address, is a multicast group (a
    unicast one is bound to and joined to nothing); ValueError if it is
    no address"""
    try:
        b = socket.inet_aton(addr)
    except OSError:
        b = b""
    if addr.count(".") != 3 or len(b) != 4:
        raise ValueError(f"'{addr}' does not appear to be an IPv4 address")
    return 224 <= b[0] <= 239


IP_ADD_SOURCE_MEMBERSHIP = 39     # linux/in.h (socket module: not always)


def mreqn(group, dev):
    """struct ip_mreqn: group, IFNAME's address and ifindex (any if None)"""
    grp = socket.inet_aton(group) if group else bytes(4)
    if not dev:
        return grp + bytes(4) + struct.pack("=i", 0)
    return grp + (if_addr(dev) or bytes(4)) + \
        struct.pack("=i", socket.if_nametoindex(dev))


def layered_send(group, port, frames, fps, layers, rates, ttl=16, dev=None,
                 seed=None):
    if not 1 <= layers <= MAX_LAYERS:
        sys.exit(f"LAYERS {layers}: 1..{MAX_LAYERS}")
    try:
        rates = layer_rates(rates, layers)
    except ValueError as e:
        sys.exit(str(e))
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, ttl)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 0)
    if dev:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF,
                     mreqn(None, dev))
    packets = [0] * layers
    nbytes = [0] * layers
    errors = 0
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    t0 = time.monotonic()
    sent_frames = 0
    for fno, sizes in enumerate(layer_frame_sizes(rates, fps, frames, seed)):
        if stop:
            break
        sched = frame_schedule(sizes)
        for k, (layer, idx, count, plen) in enumerate(sched):
            delay = t0 + (fno + k / len(sched)) / fps - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            pkt = layer_packet(fno, layer, idx, count, plen,
                               time.monotonic_ns())
            try:
                s.sendto(pkt, (group, port))
                packets[layer] += 1
                nbytes[layer] += plen
            except OSError:
                errors += 1     # a full queue: counted by what arrives
        sent_frames += 1
    print(json.dumps({
        "sent": sum(packets), "bytes": sum(nbytes), "errors": errors,
        "per_layer": [{"layer": i, "packets": packets[i], "bytes": nbytes[i]}
                      for i in range(layers)],
        "frames": sent_frames}))


def run_adapt(cmd, layers):
    import shlex
    import subprocess
    argv = shlex.split(cmd.replace("{layers}", str(layers)))
    try:
        r = subprocess.run(argv, stdin=subprocess.DEVNULL, timeout=30,
                           check=False)
        if r.returncode:
            print(f"stream.py: {argv[0]}: exit {r.returncode}",
                  file=sys.stderr)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"stream.py: {argv[0]}: {e}", file=sys.stderr)


def run_join(cmd, layers):
    """--join CMD, once; its failure ends the receiver.  Its output goes
    to stderr: stdout is the JSON."""
    import shlex
    import subprocess
    try:
        argv = shlex.split(cmd.replace("{layers}", str(layers)))
    except ValueError as e:
        sys.exit(f"stream.py: --join: {e}")
    if not argv:
        sys.exit("stream.py: --join: no command")
    try:
        r = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=sys.stderr,
                           timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        sys.exit(f"stream.py: --join {argv[0]}: {e}")
    if r.returncode:
        sys.exit(f"stream.py: --join {argv[0]}: exit {r.returncode}")


SO_TIMESTAMPNS = 35     # asm-generic/socket.h (socket module: not always)
TIMESPEC = struct.Struct("@ll")
TS_SPACE = socket.CMSG_SPACE(TIMESPEC.size)


def arrival(ancdata, off_ns, fallback):
    """a datagram's arrival, monotonic s: the kernel's SO_TIMESTAMPNS
    stamp in ancdata (CLOCK_REALTIME) less off_ns, realtime - monotonic;
    fallback, when recvmsg returned, if there is none, and at most that
    (the realtime clock stepped)"""
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and \
                len(data) >= TIMESPEC.size:
            sec, nsec = TIMESPEC.unpack_from(data)
            return min(fallback, (sec * 1_000_000_000 + nsec - off_ns) / 1e9)
    return fallback


def join_ms(t_join, t_first):
    """join_to_first_ms: t_join to t_first (monotonic s) in ms, 3
    decimals; 0 for a datagram that was there first; None if none came"""
    if t_join is None or t_first is None:
        return None
    return round(max(0.0, t_first - t_join) * 1000, 3)


def recv_socket(group, port, dev=None, source=None, ssm=False, stamps=False):
    """a socket bound to (GROUP, PORT) that joined GROUP if multicast"""
    try:
        mcast = is_multicast(group)
    except ValueError:
        sys.exit(f"GROUP {group!r}: not an IPv4 address")
    if ssm and not source:
        sys.exit("--ssm needs --source")
    if ssm and not mcast:
        sys.exit(f"--ssm: GROUP {group} is unicast: no source to join")
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    if stamps:      # now: the kernel turns stamping on a little later
        s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    s.bind((group, port))
    if not mcast:
        return s        # a unicast receiver: nothing to join
    if ssm:
        # struct ip_mreq_source: group, the interface's address, source
        s.setsockopt(socket.IPPROTO_IP, IP_ADD_SOURCE_MEMBERSHIP,
                     socket.inet_aton(group) +
                     ((if_addr(dev) if dev else None) or bytes(4)) +
                     socket.inet_aton(source))
    else:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                     mreqn(group, dev))
    return s


def layered_recv(group, port, secs, idle, dev=None, source=None, adapt=None,
                 layers=1, max_layers=None, ssm=False, join=None,
                 last_frame=None):
    # --join: the first datagram's arrival is the kernel's stamp, not when
    # it was read (CMD may still be running when it comes)
    stamps = join is not None
    s = recv_socket(group, port, dev, source, ssm, stamps)
    book = FrameBook()
    ad = Adapter(layers, max_layers or layers) if adapt else None
    changes = []
    ignored = 0
    first = None
    t0 = time.monotonic()
    if join is not None:
        off_ns = time.time_ns() - time.monotonic_ns()
        run_join(join, layers)
    end = t0 + secs
    last = tick = None
    while True:
        now = time.monotonic()
        if tick is not None and now >= tick:
            tick += PERIOD
            if tick <= now:     # CMD took long: no empty periods
                tick = now + PERIOD
            if ad:
                lv = ad.period(*book.period(ad.level))
                if lv is not None:
                    changes.append([round(now - t0, 3), lv])
                    run_adapt(adapt, lv)
                    # the time CMD took is not the stream's silence
                    # (what came meanwhile waits in the socket): the
                    # idle limit counts from its end
                    if last is not None:
                        last = max(last, time.monotonic())
            continue
        left = end - now
        if last is not None and idle:
            left = min(left, last + idle - now)
        if left <= 0:
            break
        s.settimeout(max(0.001, min(left, tick - now) if tick else left))
        try:
            if stamps:
                data, anc, _, (addr, _) = s.recvmsg(65535, TS_SPACE)
            else:
                data, (addr, _) = s.recvfrom(65535)
        except socket.timeout:
            continue
        last = time.monotonic()
        if tick is None:
            tick = last + PERIOD
        h = layer_header(data)
        if h is None or (source and addr != source):
            ignored += 1
            continue
        book.add(h[0], h[1], h[2], h[3], len(data))
        # --last-frame: the stream's last frame came; the rest of its
        # layers follow within the short idle the other receivers use
        if last_frame is not None and h[0] >= last_frame:
            idle = min(idle, END_IDLE) if idle else END_IDLE
        if stamps:      # the first counted: no more stamps needed
            first = arrival(anc, off_ns, last)
            stamps = False
            s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 0)
    out = book.summary()
    out["ignored"] = ignored
    out["adapt"] = changes
    if join is not None:
        out["join_to_first_ms"] = join_ms(t0, first)
    print(json.dumps(out))


# ---- plain flooding ---------------------------------------------------------

ETH_P_FLOOD = 0x88B5        # IEEE 802 local experimental ethertype 1
ETH_HLEN = 14
SEEN_MAX = 65536            # datagrams remembered, the oldest forgotten
BURST = 64                  # frames read from one socket per wakeup
FLOOD_COUNTS = ("received", "new", "duplicates", "delivered", "injected",
                "sent", "bytes_sent", "too_big", "errors", "ignored")


def flood_key(payload):
    """what tells a datagram from another: its header (tag, frame, layer,
    index, count, send time), alike in every copy, and the send time tells
    another run's (frame, layer, index) apart; a payload shorter than the
    header or not of the layered stream (the tag is not the layer): its
    digest, of another length, so never the same as a header"""
    if len(payload) >= LHDR.size and payload[0] & 0x7f == payload[5]:
        return payload[:LHDR.size]
    import hashlib
    return hashlib.blake2b(payload, digest_size=16).digest()


class SeenSet:
    """the keys of the last cap datagrams, the oldest forgotten first; no
    sockets"""

    def __init__(self, cap=SEEN_MAX):
        self.cap = cap
        self.keys = collections.OrderedDict()

    def add(self, key):
        """True if key is new (and now remembered), False if seen"""
        if key in self.keys:
            return False
        self.keys[key] = None
        if len(self.keys) > self.cap:
            self.keys.popitem(last=False)
        return True

    def __contains__(self, key):
        return key in self.keys

    def __len__(self):
        return len(self.keys)


class FloodRelay:
    """flood-relay's sockets and counts"""

    def __init__(self, ifname, inject=None, deliver=None,
                 ethertype=ETH_P_FLOOD):
        # protocol 0 until bound: nothing queued from other devices
        # meanwhile; bound to one ethertype, not ETH_P_ALL, it sees frames
        # after the rx_handler (the MAC filter)
        self.raw = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        self.raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self.raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
        self.raw.bind((ifname, ethertype))
        self.mac = self.raw.getsockname()[4]
        if len(self.mac) != 6:
            sys.exit(f"{ifname}: not an Ethernet device")
        self.mtu = if_mtu(ifname)
        self.hdr = b"\xff" * 6 + self.mac + struct.pack("!H", ethertype)
        self.socks = [self.raw]
        if inject:
            inj = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            inj.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
            inj.bind(("127.0.0.1", inject))
            self.socks.append(inj)
        self.out = None
        if deliver:
            self.out = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            self.dst = ("127.0.0.1", deliver)
        self.seen = SeenSet()
        self.n = dict.fromkeys(FLOOD_COUNTS, 0)

    def broadcast(self, payload):
        if len(payload) > self.mtu:
            self.n["too_big"] += 1
            return
        try:
            self.raw.send(self.hdr + payload)
            self.n["sent"] += 1
            self.n["bytes_sent"] += len(payload)
        except OSError:
            self.n["errors"] += 1       # a full queue

    def injected(self, payload):
        """the source's own datagram"""
        self.n["injected"] += 1
        self.seen.add(flood_key(payload))
        self.broadcast(payload)

    def frame(self, data):
        if data[6:12] == self.mac:
            self.n["ignored"] += 1
            return
        self.n["received"] += 1
        payload = data[ETH_HLEN:]
        if not self.seen.add(flood_key(payload)):
            self.n["duplicates"] += 1
            return
        self.n["new"] += 1
        if self.out:
            try:
                self.out.sendto(payload, self.dst)
                self.n["delivered"] += 1
            except OSError:
                self.n["errors"] += 1
        self.broadcast(payload)

    def run(self, secs):
        end = time.monotonic() + secs
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select(self.socks, [], [], left)
            for sk in ready:
                take = self.frame if sk is self.raw else self.injected
                # a few at a time, without blocking: fewer selects, and
                # neither socket starves the other
                for _ in range(BURST):
                    try:
                        data = sk.recv(65535, socket.MSG_DONTWAIT)
                    except BlockingIOError:
                        break
                    take(data)


class RelayStop(Exception):
    pass


def stop_relay(signum, frame):
    raise RelayStop


def flood_relay(ifname, secs, inject=None, deliver=None,
                ethertype=ETH_P_FLOOD):
    if not 0x600 <= ethertype <= 0xffff:
        sys.exit(f"--ethertype {ethertype:#x}: 0x600..0xffff")
    relay = FloodRelay(ifname, inject, deliver, ethertype)
    # a caller may stop it before SECS (kill): the counts all the same
    signal.signal(signal.SIGTERM, stop_relay)
    try:
        relay.run(secs)
    except (RelayStop, KeyboardInterrupt):
        pass
    print(json.dumps(relay.n))


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
    elif cmd == "layered-send":
        p = argparse.ArgumentParser(prog="stream.py layered-send")
        p.add_argument("group")
        p.add_argument("port", type=int)
        p.add_argument("frames", type=int)
        p.add_argument("fps", type=float)
        p.add_argument("layers", type=int)
        p.add_argument("rates")
        p.add_argument("--ttl", type=int, default=16)
        p.add_argument("--dev")
        p.add_argument("--seed", type=int)
        o = p.parse_args(a)
        layered_send(o.group, o.port, o.frames, o.fps, o.layers, o.rates,
                     o.ttl, o.dev, o.seed)
    elif cmd == "layered-recv":
        p = argparse.ArgumentParser(prog="stream.py layered-recv")
        p.add_argument("group")
        p.add_argument("port", type=int)
        p.add_argument("secs", type=float)
        p.add_argument("idle", type=float)
        p.add_argument("--dev")
        p.add_argument("--source")
        p.add_argument("--adapt")
        p.add_argument("--layers", type=int, default=1)
        p.add_argument("--max-layers", type=int)
        p.add_argument("--ssm", action="store_true")
        p.add_argument("--join")
        p.add_argument("--last-frame", type=int)
        o = p.parse_args(a)
        layered_recv(o.group, o.port, o.secs, o.idle, o.dev, o.source,
                     o.adapt, o.layers, o.max_layers, o.ssm, o.join,
                     o.last_frame)
    elif cmd == "flood-relay":
        p = argparse.ArgumentParser(prog="stream.py flood-relay")
        p.add_argument("ifname")
        p.add_argument("secs", type=float)
        p.add_argument("--inject", type=int)
        p.add_argument("--deliver", type=int)
        p.add_argument("--ethertype", type=lambda x: int(x, 0),
                       default=ETH_P_FLOOD)
        o = p.parse_args(a)
        flood_relay(o.ifname, o.secs, o.inject, o.deliver, o.ethertype)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
