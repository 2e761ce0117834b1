#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""One start time for the hosts of a testbed, and the clock offsets.

  tbsync.py lead ADDR PORT NPEERS DELAY [TIMEOUT]
  tbsync.py follow ADDR PORT NAME [TIMEOUT]

The leader (the first host of the inventory, scripts/testbed-host.sh)
listens on ADDR:PORT of the underlay until NPEERS followers have said
they are ready, measures each one's clock against its own (PROBES
exchanges, the one of least round trip kept, as NTP's clock filter
does), then gives every follower the start: its own wall clock now plus
DELAY seconds.  A follower prints that start in its own clock (the
leader's start less the offset it measured), so that replays started by
"ahctl macfilter replay-all ... start TIME" on every host play one time
line even when the hosts' clocks disagree.

Each prints one JSON object: the leader {"start", "peers": [{"name",
"offset_ms", "rtt_ms"}]}, a follower {"start", "start_leader",
"offset_ms", "rtt_ms"}.  offset_ms is the follower's clock minus the
leader's; the start it prints is off by at most rtt_ms / 2.

TIMEOUT (seconds, default 300): how long the leader waits for the
followers, and a follower for the leader (it retries its connection).
"""
import json
import socket
import sys
import time

PROBES = 16


def now():
    return time.clock_gettime(time.CLOCK_REALTIME)


def lines(sock):
    buf = b""
    while True:
        data = sock.recv(4096)
        if not data:
            raise ConnectionError("peer closed the connection")
        buf += data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield line.decode()


def lead(addr, port, npeers, delay, timeout):
    srv = socket.create_server((addr, port), reuse_port=False)
    srv.settimeout(timeout)
    peers = []
    deadline = time.monotonic() + timeout
    while len(peers) < npeers:
        srv.settimeout(max(1.0, deadline - time.monotonic()))
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            print(f"tbsync: {len(peers)} of {npeers} followers ready after {timeout} s",
                  file=sys.stderr)
            return 1
        conn.settimeout(timeout)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        rd = lines(conn)
        hello = next(rd).split()
        if len(hello) != 2 or hello[0] != "ready":
            conn.close()
            continue
        # the follower's probes: "probe T1" answered "T2 T3"
        for _ in range(PROBES):
            msg = next(rd).split()
            t2 = now()
            if msg[0] != "probe":
                break
            conn.sendall(f"{t2:.9f} {now():.9f}\n".encode())
        res = next(rd).split()  # "offset MS RTT_MS"
        peers.append({"name": hello[1], "conn": conn,
                      "offset_ms": float(res[1]), "rtt_ms": float(res[2])})
    start = now() + delay
    for p in peers:
        p["conn"].sendall(f"start {start:.9f}\n".encode())
        p["conn"].close()
    print(json.dumps({"start": round(start, 6),
                      "peers": [{k: p[k] for k in ("name", "offset_ms", "rtt_ms")}
                                for p in peers]}))
    return 0


def follow(addr, port, name, timeout):
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn = socket.create_connection((addr, port), timeout=5)
            break
        except OSError:
            if time.monotonic() > deadline:
                print(f"tbsync: no leader at {addr}:{port} after {timeout} s",
                      file=sys.stderr)
                return 1
            time.sleep(0.5)
    conn.settimeout(timeout)
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    rd = lines(conn)
    conn.sendall(f"ready {name}\n".encode())
    best = None
    for _ in range(PROBES):
        t1 = now()
        conn.sendall(f"probe {t1:.9f}\n".encode())
        t2, t3 = map(float, next(rd).split())
        t4 = now()
        rtt = (t4 - t1) - (t3 - t2)
        # the leader's clock minus ours, as NTP computes it
        theta = ((t2 - t1) + (t3 - t4)) / 2
        if best is None or rtt < best[0]:
            best = (rtt, theta)
    rtt, theta = best
    offset_ms = -theta * 1000
    conn.sendall(f"offset {offset_ms:.3f} {rtt * 1000:.3f}\n".encode())
    msg = next(rd).split()
    if msg[0] != "start":
        print(f"tbsync: unexpected '{' '.join(msg)}'", file=sys.stderr)
        return 1
    start_leader = float(msg[1])
    print(json.dumps({"start": round(start_leader - theta, 6),
                      "start_leader": round(start_leader, 6),
                      "offset_ms": round(offset_ms, 3),
                      "rtt_ms": round(rtt * 1000, 3)}))
    return 0


def main(argv):
    try:
        if len(argv) in (6, 7) and argv[1] == "lead":
            return lead(argv[2], int(argv[3]), int(argv[4]), float(argv[5]),
                        float(argv[6]) if len(argv) == 7 else 300)
        if len(argv) in (5, 6) and argv[1] == "follow":
            return follow(argv[2], int(argv[3]), argv[4],
                          float(argv[5]) if len(argv) == 6 else 300)
    except (OSError, ConnectionError, StopIteration, ValueError, IndexError) as e:
        print(f"tbsync: {e}", file=sys.stderr)
        return 1
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
