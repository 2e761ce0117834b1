#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""CBR flows between the nodes of one guest, as the classic DSR studies
run them (Broch et al. 1998: constant bit rate UDP pairs), from one
process for every flow: a process per flow and node does not scale to
fifty nodes under TCG.  Each socket is opened in its node's network
namespace (setns, then back), so one loop sends and receives them all;
every node is a namespace of one kernel, so CLOCK_MONOTONIC is one clock
and a datagram's one-way delay is exact.

    cbr.py FLOWS SECS RATE SIZE OUT [START]

FLOWS  "NETNS_SRC NETNS_DST DST_ADDR PORT [...]" per line, one flow
       each (further words are ignored)
SECS   each flow sends for SECS seconds
RATE   datagrams per second per flow; SIZE: UDP payload bytes (>= 24)
START  flows start at random times in [0, START) s (default 2; seeded
       by the flows file's contents, so a run is repeatable)

Writes OUT: "S FLOW SENT ERRORS" per flow, then "R FLOW SEQ DELAY_US TTL"
per datagram received (a datagram received twice is written once: DSR
retransmits when an acknowledgement is lost).  TTL is the IP TTL the
receiver saw; the sender sets 64, and each DSR relay takes one off.
Prints a progress line every 15 s; waits 3 s after the last send for
datagrams still on their way (DSR's send buffer holds packets up to its
timeout; later arrivals count as lost, as in a simulator's run end).
"""
import os
import random
import select
import socket
import struct
import sys
import time

HDR = struct.Struct("!IIQ")	# flow, seq, send time (CLOCK_MONOTONIC ns)
TTL = 64
DRAIN = 3.0
IP_RECVTTL = 12

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from netns_sysctl import setns  # noqa: E402


def in_netns(name, make):
    """make() run in network namespace NAME; back to ours after it"""
    own = os.open("/proc/self/ns/net", os.O_RDONLY)
    try:
        fd = os.open(f"/run/netns/{name}", os.O_RDONLY)
        try:
            setns(fd)
            return make()
        finally:
            os.close(fd)
            setns(own)
    finally:
        os.close(own)


def read_flows(path):
    flows = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if w and not w[0].startswith("#"):
                flows.append((w[0], w[1], w[2], int(w[3])))
    return flows


def main(argv):
    if len(argv) not in (6, 7):
        sys.exit(__doc__)
    flows = read_flows(argv[1])
    secs, rate, size = float(argv[2]), float(argv[3]), int(argv[4])
    out = argv[5]
    start_max = float(argv[6]) if len(argv) == 7 else 2.0
    if size < HDR.size or rate <= 0 or secs <= 0:
        sys.exit("cbr.py: SIZE >= %d, RATE and SECS > 0" % HDR.size)
    with open(argv[1], "rb") as f:
        rnd = random.Random(f.read())

    rx, tx = {}, []
    for i, (src, dst, addr, port) in enumerate(flows):
        def rsock(addr=addr, port=port):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_IP, IP_RECVTTL, 1)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
            s.bind((addr, port))
            s.setblocking(False)
            return s

        def ssock(addr=addr, port=port):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_IP, socket.IP_TTL, TTL)
            s.connect((addr, port))
            s.setblocking(False)
            return s

        r = in_netns(dst, rsock)
        rx[r.fileno()] = r
        tx.append(in_netns(src, ssock))

    n = len(flows)
    period = 1.0 / rate
    pad = b"\0" * (size - HDR.size)
    t0 = time.monotonic() + 0.2
    nxt = [t0 + rnd.uniform(0, start_max) for _ in range(n)]
    end = [t + secs for t in nxt]
    seq, errs = [0] * n, [0] * n
    got = {}
    poll = select.epoll()
    for fd in rx:
        poll.register(fd, select.EPOLLIN)
    last_send = max(end)
    report = t0 + 15
    while True:
        now = time.monotonic()
        for i in range(n):
            while nxt[i] <= now and nxt[i] < end[i]:
                msg = HDR.pack(i, seq[i], time.monotonic_ns()) + pad
                try:
                    tx[i].send(msg)
                except OSError:
                    errs[i] += 1	# no route yet, a full queue: lost
                seq[i] += 1
                nxt[i] += period
        if now >= report:
            print(f"cbr: {now - t0:.0f} s: sent {sum(seq)}, "
                  f"received {len(got)}", flush=True)
            report += 15
        if now >= last_send + DRAIN:
            break
        wake = min([t for t, e in zip(nxt, end) if t < e] or
                   [last_send + DRAIN])
        for fd, _ in poll.poll(max(0.0, min(wake, report) - now)):
            s = rx[fd]
            while True:
                try:
                    data, anc, _, _ = s.recvmsg(size + 64, 64)
                except BlockingIOError:
                    break
                t = time.monotonic_ns()
                if len(data) < HDR.size:
                    continue
                flow, sq, ts = HDR.unpack_from(data)
                ttl = -1
                for lvl, typ, val in anc:
                    # IP_RECVTTL's control message is of type IP_TTL
                    if lvl == socket.SOL_IP and typ == socket.IP_TTL:
                        ttl = int.from_bytes(val[:4], sys.byteorder)
                if (flow, sq) not in got:
                    got[(flow, sq)] = ((t - ts) // 1000, ttl)
    with open(out, "w") as f:
        for i in range(n):
            f.write(f"S {i} {seq[i]} {errs[i]}\n")
        for (flow, sq), (d, ttl) in sorted(got.items()):
            f.write(f"R {flow} {sq} {d} {ttl}\n")
    print(f"cbr: {n} flows sent {sum(seq)} datagrams "
          f"({sum(errs)} refused by the stack), received {len(got)}")


if __name__ == "__main__":
    main(sys.argv)
