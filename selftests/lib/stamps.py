#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Send and receive latency of a ping-like UDP exchange (bench/slice.sh,
seed 003's Table 3 and 4), from the kernel's software timestamps.

    stamps.py echo PORT SECS
        answer every datagram to PORT with the same bytes, for SECS s
    stamps.py ping DST PORT SECS INTERVAL_MS [--tap NETNS IFACE]
                   [--hogs K,K...] [--raw FILE]
        one 64-byte datagram every INTERVAL_MS ms to DST:PORT (an echo)
        for SECS s, waiting for each answer (at most 200 ms); prints one
        JSON object (below).  --tap: also watch the datagrams pass IFACE
        in the network namespace NETNS (a file, /run/netns/NAME), with a
        packet socket opened there before the UDP socket is opened here.
        --hogs: SECS with each number K of busy loops (sh -c 'while :; do
        :; done', on any CPU, whatever this process is pinned to) running,
        one after the other, one JSON line each (with "hogs": K).
        --raw FILE: one line per datagram, "seq" and the five times in ns.

Four latencies per datagram, in microseconds (CLOCK_REALTIME throughout,
the clock the kernel stamps with):

  send      the first software transmit timestamp (SO_TIMESTAMPING
            TX_SOFTWARE: skb_tx_timestamp() in the first driver the
            packet passes, OPT_ID matching it to its send) less the time
            read just before send()
  recv      the time read just after recvmsg() returned less the software
            receive timestamp (RX_SOFTWARE: skb->tstamp, set when the skb
            was queued by netif_rx() or received by NAPI, unless a device
            on the way cleared it and the next one stamped it again)
  tap_send  the packet socket's timestamp of the datagram leaving IFACE
            (dev_queue_xmit_nit(), just before IFACE's driver) less the
            time read before send()
  tap_recv  the time read after recvmsg() less the packet socket's
            timestamp of the answer arriving on IFACE

The JSON object: "sent", "answered", and for each latency that was
measured {"n", "median", "mean", "p90"} (p90: nearest rank); "tx_stamps":
transmit timestamps per datagram (one per driver that stamped it: a veth
stamps, and so does every veth after it while the skb keeps its socket);
"rx_vs_tap": median of (receive timestamp - tap's arrival timestamp) in
us, where the receive timestamp was taken relative to IFACE.  The first
WARMUP datagrams (ARP, first calls) of each run are not counted.  The
times read here include the interpreter's few steps between the clock and
the system call, the same in every configuration.
"""
import ctypes
import json
import os
import socket
import struct
import subprocess
import sys
import time

SO_TIMESTAMPNS = 35
SO_TIMESTAMPING = 37
SO_ATTACH_FILTER = 26
SOF_TX_SOFTWARE = 1 << 1
SOF_RX_SOFTWARE = 1 << 3
SOF_SOFTWARE = 1 << 4
SOF_OPT_ID = 1 << 7
SOF_OPT_TSONLY = 1 << 11
IP_RECVERR = 11
SO_EE_ORIGIN_TIMESTAMPING = 4
SCM_TSTAMP_SND = 0
MSG_ERRQUEUE = 0x2000
ETH_P_ALL = 3
CLONE_NEWNET = 0x40000000
MAGIC = b"STMP"
SIZE = 64
WARMUP = 5
WAIT = 0.2	# seconds for an answer

now = time.clock_gettime_ns
RT = time.CLOCK_REALTIME


def echo(port, secs):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    s.settimeout(0.5)
    end = time.monotonic() + secs
    while time.monotonic() < end:
        try:
            data, addr = s.recvfrom(2048)
        except socket.timeout:
            continue
        s.sendto(data, addr)


def bpf_udp_port(port):
    """classic BPF: IPv4, UDP, first fragment, either port PORT"""
    ins = [
        (0x28, 0, 0, 12),		# ldh [12]
        (0x15, 0, 10, 0x0800),		# jeq IPv4 ? next : drop
        (0x30, 0, 0, 23),		# ldb [23]
        (0x15, 0, 8, 17),		# jeq UDP
        (0x28, 0, 0, 20),		# ldh [20]
        (0x45, 6, 0, 0x1FFF),		# jset fragment offset: drop
        (0xB1, 0, 0, 14),		# ldxb 4*([14]&0xf)
        (0x48, 0, 0, 14),		# ldh [x+14] (source port)
        (0x15, 2, 0, port),		# jeq: accept
        (0x48, 0, 0, 16),		# ldh [x+16] (destination port)
        (0x15, 0, 1, port),		# jeq: accept : drop
        (0x06, 0, 0, 0x40000),		# accept
        (0x06, 0, 0, 0),		# drop
    ]
    return b"".join(struct.pack("HBBI", *i) for i in ins)


def open_tap(netns, iface, port):
    """a packet socket on IFACE in NETNS, filtered to UDP port PORT"""
    libc = ctypes.CDLL(None, use_errno=True)
    own = os.open("/proc/self/ns/net", os.O_RDONLY)
    there = os.open(netns, os.O_RDONLY)
    if libc.setns(there, CLONE_NEWNET):
        raise OSError(ctypes.get_errno(), "setns " + netns)
    try:
        t = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                          socket.htons(ETH_P_ALL))
        prog = bpf_udp_port(port)
        buf = ctypes.create_string_buffer(prog)
        fprog = struct.pack("HL", len(prog) // 8, ctypes.addressof(buf))
        t.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, fprog)
        t.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        t.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        t.bind((iface, ETH_P_ALL))
    finally:
        if libc.setns(own, CLONE_NEWNET):
            raise OSError(ctypes.get_errno(), "setns back")
        os.close(own)
        os.close(there)
    t.setblocking(False)
    # what came before the filter was attached
    while True:
        try:
            t.recv(2048)
        except BlockingIOError:
            break
    return t, buf


def seq_of(payload):
    if len(payload) >= 8 and payload[:4] == MAGIC:
        return struct.unpack_from("!I", payload, 4)[0]
    return None


def drain_tap(t, port, out_at, in_at):
    while True:
        try:
            data, anc, _, _ = t.recvmsg(2048, 256)
        except BlockingIOError:
            return
        ts = None
        for level, typ, d in anc:
            if level == socket.SOL_SOCKET and typ == SO_TIMESTAMPNS:
                sec, nsec = struct.unpack_from("qq", d)
                ts = sec * 1000000000 + nsec
        if ts is None or len(data) < 34 or data[12:14] != b"\x08\x00":
            continue
        ihl = (data[14] & 15) * 4
        u = 14 + ihl
        sport, dport = struct.unpack_from("!HH", data, u)
        seq = seq_of(data[u + 8:])
        if seq is None:
            continue
        if dport == port:
            out_at.setdefault(seq, ts)
        elif sport == port:
            in_at.setdefault(seq, ts)


def drain_errqueue(s, tx):
    while True:
        try:
            _, anc, _, _ = s.recvmsg(64, 512, MSG_ERRQUEUE | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return
        ts = key = kind = None
        for level, typ, d in anc:
            if level == socket.SOL_SOCKET and typ == SO_TIMESTAMPING:
                sec, nsec = struct.unpack_from("qq", d)
                ts = sec * 1000000000 + nsec
            elif level == socket.SOL_IP and typ == IP_RECVERR:
                _, origin, _, _, _, info, data = struct.unpack_from("IBBBBII", d)
                if origin == SO_EE_ORIGIN_TIMESTAMPING:
                    key, kind = data, info
        if ts and key is not None and kind == SCM_TSTAMP_SND:
            tx.setdefault(key, []).append(ts)


def stats(v):
    if not v:
        return None
    v = sorted(v)
    n = len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    p90 = v[max(0, -(-9 * n // 10) - 1)]
    return {"n": n, "median": round(med, 1), "mean": round(sum(v) / n, 1),
            "p90": round(p90, 1)}


class Exchange:
    """the sockets, and what was measured of each datagram (by seq)"""

    def __init__(self, dst, port, tap):
        self.port = port
        self.t = self.keep = None
        if tap:
            self.t, self.keep = open_tap(tap[0], tap[1], port)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPING,
                     SOF_TX_SOFTWARE | SOF_RX_SOFTWARE | SOF_SOFTWARE |
                     SOF_OPT_ID | SOF_OPT_TSONLY)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO,
                     struct.pack("ll", 0, int(WAIT * 1e6)))
        s.connect((dst, port))
        self.s = s
        self.seq = 0	# the next datagram's, and its OPT_ID key
        self.sent_at, self.read_at, self.rx_at, self.tx = {}, {}, {}, {}
        self.out_at, self.in_at = {}, {}

    def drain(self):
        drain_errqueue(self.s, self.tx)
        if self.t:
            drain_tap(self.t, self.port, self.out_at, self.in_at)

    def run(self, secs, interval_ms):
        """one datagram every INTERVAL_MS for SECS; the seqs sent"""
        s = self.s
        pad = bytes(SIZE - 8)
        count = max(1, int(secs * 1000 / interval_ms))
        first = self.seq
        t0 = time.monotonic()
        for i in range(count):
            delay = t0 + i * interval_ms / 1000 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            seq = self.seq
            msg = MAGIC + struct.pack("!I", seq) + pad
            ts = now(RT)
            try:
                s.send(msg)
            except OSError:
                continue
            self.seq += 1
            self.sent_at[seq] = ts
            while True:
                try:
                    data, anc, _, _ = s.recvmsg(2048, 256)
                except (BlockingIOError, InterruptedError):
                    break		# no answer in WAIT
                except ConnectionRefusedError:
                    break
                tr = now(RT)
                got = seq_of(data)
                if got is None:
                    continue
                self.read_at[got] = tr
                for level, typ, d in anc:
                    if level == socket.SOL_SOCKET and typ == SO_TIMESTAMPING:
                        sec, nsec = struct.unpack_from("qq", d)
                        if sec or nsec:
                            self.rx_at[got] = sec * 1000000000 + nsec
                if got >= seq:
                    break
            self.drain()
        time.sleep(WAIT)
        self.drain()
        return range(first, self.seq)

    def summary(self, seqs):
        lat = {"send": [], "recv": [], "tap_send": [], "tap_recv": []}
        nstamps, rx_vs_tap = [], []
        for seq in seqs[WARMUP:]:
            ts = self.sent_at[seq]
            if seq in self.tx:
                lat["send"].append((min(self.tx[seq]) - ts) / 1000)
                nstamps.append(len(self.tx[seq]))
            if seq in self.out_at:
                lat["tap_send"].append((self.out_at[seq] - ts) / 1000)
            if seq not in self.read_at:
                continue
            rd = self.read_at[seq]
            if seq in self.rx_at:
                lat["recv"].append((rd - self.rx_at[seq]) / 1000)
            if seq in self.in_at:
                lat["tap_recv"].append((rd - self.in_at[seq]) / 1000)
                if seq in self.rx_at:
                    rx_vs_tap.append((self.rx_at[seq] - self.in_at[seq]) / 1000)
        out = {"sent": len(seqs),
               "answered": sum(1 for q in seqs if q in self.read_at)}
        for k, v in lat.items():
            out[k] = stats(v)
        out["tx_stamps"] = round(sum(nstamps) / len(nstamps), 2) if nstamps else 0
        r = stats(rx_vs_tap)
        out["rx_vs_tap"] = r["median"] if r else None
        return out

    def write_raw(self, path):
        with open(path, "w") as f:
            for seq in sorted(self.sent_at):
                f.write("%d %d %s %s %s %s %s\n" % (
                    seq, self.sent_at[seq],
                    min(self.tx[seq]) if seq in self.tx else "-",
                    self.out_at.get(seq, "-"), self.in_at.get(seq, "-"),
                    self.rx_at.get(seq, "-"), self.read_at.get(seq, "-")))


def start_hogs(k):
    """K busy loops, on any CPU (not this process's affinity)"""
    cpus = range(os.cpu_count() or 1)
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"],
                             preexec_fn=lambda: os.sched_setaffinity(0, cpus))
            for _ in range(k)]


def stop_hogs(hogs):
    for h in hogs:
        h.kill()
    for h in hogs:
        h.wait()


def ping(dst, port, secs, interval_ms, tap=None, raw=None, hogs=None):
    x = Exchange(dst, port, tap)
    for k in hogs if hogs is not None else [None]:
        running = start_hogs(k) if k else []
        try:
            if running:
                time.sleep(0.2)
            seqs = x.run(secs, interval_ms)
        finally:
            stop_hogs(running)
        out = x.summary(seqs)
        if k is not None:
            out["hogs"] = k
        print(json.dumps(out, separators=(",", ":")), flush=True)
    if raw:
        x.write_raw(raw)


def main():
    a = sys.argv[1:]
    if a[:1] == ["echo"] and len(a) == 3:
        echo(int(a[1]), float(a[2]))
        return 0
    if a[:1] == ["ping"] and len(a) >= 5:
        tap = raw = hogs = None
        rest = a[5:]
        while rest:
            if rest[0] == "--tap" and len(rest) >= 3:
                tap, rest = (rest[1], rest[2]), rest[3:]
            elif rest[0] == "--raw" and len(rest) >= 2:
                raw, rest = rest[1], rest[2:]
            elif rest[0] == "--hogs" and len(rest) >= 2:
                hogs, rest = [int(k) for k in rest[1].split(",")], rest[2:]
            else:
                break
        if not rest:
            ping(a[1], int(a[2]), float(a[3]), float(a[4]), tap, raw, hogs)
            return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
