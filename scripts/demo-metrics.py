#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The classic MANET metrics of a `make demo SCENARIO=... NODES=N` run
(scripts/demo-scale-guest.sh), as Broch et al. (MobiCom 1998) and the
comparisons after it report them.

    demo-metrics.py pairs NODES FLOWS SEED
        FLOWS "SRC DST" node pairs (1-based) for CBR flows: distinct
        sources while there are enough nodes, a destination other than
        the source, seeded.
    demo-metrics.py report DIR [SIZE [SECS]]
        print the metrics of the run in DIR and write DIR/metrics.json;
        with SECS (the run's length), also how much of the run each
        flow's ends were connected at all (DIR/traces/links.tsv).

DIR holds:
  cbr.txt        selftests/lib/cbr.py's output ("S FLOW SENT ERRORS",
                 "R FLOW SEQ DELAY_US TTL")
  hub.pcap       every frame on the hub (tcpdump on the bridge)
  NODE.replay    `ahctl -j macfilter replay`'s JSON, one file per node
                 (or replay.json: `ahctl -j macfilter replay-all`'s,
                 {"nodes": [{"dev", "netns", "late_us": [...]}, ...]})
  cpu.before, cpu.after   /proc/stat's "cpu" line around the run
  flows.txt, traces/links.tsv   the flows ("NETNS_SRC NETNS_DST
                 DST_ADDR PORT SRC_NAME DST_NAME") and the links

Definitions:
  delivery ratio   CBR datagrams received (once each) / sent
  routing overhead DSR control bytes put on the medium / CBR payload
                   bytes delivered.  Control bytes: every transmission
                   (each hop counts) of a DSR packet with no payload
                   (requests, replies, errors, acknowledgements: next
                   header 59) whole, IP header included; of a DSR packet
                   that carries data, its DSR options header (source
                   route and piggybacked options), as Broch et al. count
                   source routes as overhead in bytes.
  routing load     DSR control packets transmitted / data delivered
                   (their "normalized routing load")
  delay            one-way, per delivered datagram: p50, p95, p99
  route length     hops a delivered datagram took: 1 + 64 - its TTL
  replay lateness  per trace step, from its due time to the kernel's
                   acknowledgement of the new list: mean, p95, max per
                   node and over every step of every node
"""
import glob
import json
import os
import random
import struct
import sys

SIZE = 512
TTL0 = 64
DSR_PROTO = 48
NO_NEXT_HEADER = 59


def pairs(nodes, flows, seed):
    """FLOWS (src, dst) pairs of nodes 1..NODES: sources distinct while
    there are enough nodes, destinations any other node"""
    if nodes < 2 or flows < 1:
        raise ValueError("need 2 nodes and 1 flow")
    rnd = random.Random(f"cbr:{seed}")
    out, srcs = [], []
    for _ in range(flows):
        if not srcs:
            srcs = list(range(1, nodes + 1))
            rnd.shuffle(srcs)
        s = srcs.pop()
        d = rnd.randrange(1, nodes)
        out.append((s, d if d < s else d + 1))
    return out


def percentile(values, p):
    """nearest rank: the smallest value with at least p % at or below"""
    if not values:
        return None
    v = sorted(values)
    k = max(1, -(-len(v) * p // 100))
    return v[int(k) - 1]


def parse_cbr(lines):
    """(sent, errors, [(flow, seq, delay_us, ttl)])"""
    sent = errors = 0
    got = []
    for ln in lines:
        w = ln.split()
        if not w:
            continue
        if w[0] == "S":
            sent += int(w[2])
            errors += int(w[3])
        elif w[0] == "R":
            got.append((int(w[1]), int(w[2]), int(w[3]), int(w[4])))
    return sent, errors, got


def pcap_frames(data):
    """(orig_len, captured bytes) of each frame of a classic pcap file"""
    if len(data) < 24:
        return
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        raise ValueError("not a pcap file")
    linktype = struct.unpack(e + "I", data[20:24])[0]
    if linktype != 1:
        raise ValueError(f"pcap link type {linktype}, not Ethernet")
    rec = struct.Struct(e + "IIII")
    off = 24
    while off + 16 <= len(data):
        _, _, incl, orig = rec.unpack_from(data, off)
        off += 16
        yield orig, data[off:off + incl]
        off += incl


def classify(frame):
    """('control', bytes) | ('data', DSR header bytes) | ('other', 0)"""
    if len(frame) < 14 + 20 + 4 or frame[12:14] != b"\x08\x00":
        return "other", 0
    ip = frame[14:]
    ihl = (ip[0] & 0x0f) * 4
    if ip[9] != DSR_PROTO or len(ip) < ihl + 4:
        return "other", 0
    tot = struct.unpack("!H", ip[2:4])[0]
    nh = ip[ihl]
    plen = struct.unpack("!H", ip[ihl + 2:ihl + 4])[0]
    if nh == NO_NEXT_HEADER:
        return "control", tot
    return "data", 4 + plen


def medium(data):
    """what the hub carried: counts and bytes by kind"""
    m = {"control_pkts": 0, "control_bytes": 0, "data_pkts": 0,
         "data_dsr_bytes": 0, "other_pkts": 0, "frames": 0}
    for _orig, frame in pcap_frames(data):
        m["frames"] += 1
        kind, n = classify(frame)
        if kind == "control":
            m["control_pkts"] += 1
            m["control_bytes"] += n
        elif kind == "data":
            m["data_pkts"] += 1
            m["data_dsr_bytes"] += n
        else:
            m["other_pkts"] += 1
    return m


def read_links(lines):
    """links.tsv (ah-scenario traces): [(time, a, b, loss)], header
    skipped"""
    out = []
    for ln in lines:
        w = ln.split()
        if len(w) == 4 and w[0] != "time":
            out.append((float(w[0]), w[1], w[2], int(w[3])))
    return out


def connected(links, flows, duration):
    """per flow (src name, dst name): the share of [0, duration) in
    which a path of links heard at all (loss < 100) joins them: what
    perfect routing could deliver, lossy links aside"""
    adj = {}
    share = [0.0] * len(flows)
    changes = sorted(links, key=lambda x: x[0])
    i, t = 0, 0.0
    while t < duration:
        while i < len(changes) and changes[i][0] <= t:
            _, a, b, loss = changes[i]
            for x, y in ((a, b), (b, a)):
                if loss < 100:
                    adj.setdefault(x, set()).add(y)
                else:
                    adj.get(x, set()).discard(y)
            i += 1
        nxt = min(changes[i][0] if i < len(changes) else duration, duration)
        for k, (src, dst) in enumerate(flows):
            seen, todo = {src}, [src]
            while todo and dst not in seen:
                for y in adj.get(todo.pop(), ()):
                    if y not in seen:
                        seen.add(y)
                        todo.append(y)
            if dst in seen:
                share[k] += nxt - t
        t = nxt
    return [x / duration for x in share] if duration > 0 else share


def lateness(late_us):
    """mean, p95, max (ms) of one node's steps"""
    if not late_us:
        return {"steps": 0, "mean_ms": None, "p95_ms": None, "max_ms": None}
    return {"steps": len(late_us),
            "mean_ms": sum(late_us) / len(late_us) / 1000,
            "p95_ms": percentile(late_us, 95) / 1000,
            "max_ms": max(late_us) / 1000}


def cpu_busy(before, after):
    """fraction of CPU time not idle or iowait between two /proc/stat
    "cpu" lines"""
    a = [int(x) for x in before.split()[1:]]
    b = [int(x) for x in after.split()[1:]]
    d = [y - x for x, y in zip(a, b)]
    total = sum(d[:8])	# guest time is counted in user already
    idle = d[3] + (d[4] if len(d) > 4 else 0)
    return (total - idle) / total if total else None


def metrics(cbr_lines, pcap, replays, cpu=None, size=SIZE, conn=None):
    """every metric of a run; replays: {node: [late_us, ...]}; conn: the
    flows' connected shares (connected())"""
    sent, errors, got = parse_cbr(cbr_lines)
    delays = [d for _, _, d, _ in got]
    hops = [1 + TTL0 - t for _, _, _, t in got if 0 <= t <= TTL0]
    med = medium(pcap) if pcap is not None else None
    data_bytes = len(got) * size
    r = {"sent": sent, "refused": errors, "delivered": len(got),
         "pdr": len(got) / sent if sent else None,
         "delay_ms": {p: (percentile(delays, int(p[1:])) / 1000
                          if delays else None)
                      for p in ("p50", "p95", "p99")},
         "hops_mean": sum(hops) / len(hops) if hops else None,
         "hops_max": max(hops) if hops else None,
         "medium": med}
    if med is not None:
        r["overhead"] = (med["control_bytes"] + med["data_dsr_bytes"]) \
            / data_bytes if data_bytes else None
        r["routing_load"] = med["control_pkts"] / len(got) if got else None
    if conn:
        r["connected"] = sum(conn) / len(conn)
    every = [x for v in replays.values() for x in v]
    r["replay"] = {n: lateness(v) for n, v in replays.items()}
    r["replay_all"] = lateness(every)
    if cpu:
        r["cpu_busy"] = cpu_busy(*cpu)
    return r


def fmt(v, f="%.1f"):
    return "-" if v is None else f % v


def print_report(r, out=None):
    w = (out or sys.stdout).write
    w(f"  CBR datagrams sent {r['sent']}, delivered {r['delivered']}: "
      f"packet delivery ratio {fmt(r['pdr'] and 100 * r['pdr'])} %"
      f" ({r['refused']} refused by the sender's stack)\n")
    if r.get("connected") is not None:
        w(f"  the flows' ends were joined by a path of links"
          f" {100 * r['connected']:.1f} % of the time (the most perfect"
          f" routing could deliver, lossy links aside)\n")
    d = r["delay_ms"]
    w(f"  end-to-end delay p50 {fmt(d['p50'])} ms, p95 {fmt(d['p95'])} ms,"
      f" p99 {fmt(d['p99'])} ms\n")
    w(f"  route length {fmt(r['hops_mean'], '%.2f')} hops mean,"
      f" {fmt(r['hops_max'], '%d')} max\n")
    m = r["medium"]
    if m is not None:
        w(f"  routing overhead {fmt(r['overhead'], '%.3f')} control bytes"
          f" per data byte delivered ({m['control_bytes']} bytes in"
          f" {m['control_pkts']} control packets + {m['data_dsr_bytes']}"
          f" bytes of DSR headers on {m['data_pkts']} data transmissions);"
          f" routing load {fmt(r['routing_load'], '%.2f')} control"
          f" packets per datagram delivered\n")
    a = r["replay_all"]
    w(f"  replay lateness, every step of every node: mean"
      f" {fmt(a['mean_ms'], '%.2f')} ms, p95 {fmt(a['p95_ms'], '%.2f')} ms,"
      f" max {fmt(a['max_ms'], '%.2f')} ms ({a['steps']} steps)\n")
    if r.get("cpu_busy") is not None:
        w(f"  guest CPU busy {100 * r['cpu_busy']:.0f} % of its vCPUs"
          f" over the run\n")
    w("  replay lateness per node (mean/p95/max ms, steps):\n")
    row = []
    for n, x in r["replay"].items():
        row.append(f"{n} {fmt(x['mean_ms'], '%.1f')}/"
                   f"{fmt(x['p95_ms'], '%.1f')}/{fmt(x['max_ms'], '%.0f')}"
                   f" {x['steps']}")
        if len(row) == 3:
            w("    " + "   ".join(f"{c:<28}" for c in row).rstrip() + "\n")
            row = []
    if row:
        w("    " + "   ".join(f"{c:<28}" for c in row).rstrip() + "\n")


def load_replays(d):
    """{node: late_us list} from DIR/replay.json or DIR/NODE.replay"""
    out = {}
    path = os.path.join(d, "replay.json")
    if os.path.exists(path):
        with open(path) as f:
            for n in json.load(f)["nodes"]:
                out[n["name"]] = n["late_us"]
        return out
    for p in sorted(glob.glob(os.path.join(d, "*.replay")),
                    key=lambda p: (len(p), p)):
        name = os.path.basename(p)[:-len(".replay")]
        try:
            with open(p) as f:
                out[name] = json.load(f)["late_us"]
        except (ValueError, KeyError):
            out[name] = []	# the replay failed: no steps
    return out


def report(d, size=SIZE, secs=None):
    with open(os.path.join(d, "cbr.txt")) as f:
        cbr = f.readlines()
    pcap = None
    if os.path.exists(os.path.join(d, "hub.pcap")):
        with open(os.path.join(d, "hub.pcap"), "rb") as f:
            pcap = f.read()
    cpu = None
    if os.path.exists(os.path.join(d, "cpu.after")):
        with open(os.path.join(d, "cpu.before")) as f:
            b = f.read()
        with open(os.path.join(d, "cpu.after")) as f:
            cpu = (b, f.read())
    conn = None
    links = os.path.join(d, "traces", "links.tsv")
    if secs and os.path.exists(links):
        with open(os.path.join(d, "flows.txt")) as f:
            flows = [(w[4], w[5]) for w in (ln.split() for ln in f)
                     if len(w) >= 6]
        with open(links) as f:
            conn = connected(read_links(f), flows, secs)
    r = metrics(cbr, pcap, load_replays(d), cpu, size, conn)
    with open(os.path.join(d, "metrics.json"), "w") as f:
        json.dump(r, f, indent=1)
    print_report(r)
    return r


def main(argv):
    if len(argv) == 5 and argv[1] == "pairs":
        for s, d in pairs(int(argv[2]), int(argv[3]), argv[4]):
            print(s, d)
    elif len(argv) in (3, 4, 5) and argv[1] == "report":
        report(argv[2], int(argv[3]) if len(argv) >= 4 else SIZE,
               float(argv[4]) if len(argv) == 5 else None)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
