#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The CMU ping test's tables (seed 004 section 8, Tables I-V) from a run
of `make demo`: the DSR tracepoints of every node (one kernel, one trace
buffer: each event names its node with "self") and the ICMP ids of the
echo requests E1 sent and the echo replies E2 sent (from captures).

    scripts/demo-tables.py DIR

DIR/dsr.trace  /sys/kernel/tracing/trace with dsr_xmit, dsr_recv, dsr_ack
DIR/nodes.txt  "NAME ADDRESS" per line (E1 and E2 first)
DIR/e1.pcap    E1's eth0 (tcpdump -w): its ICMP echo requests, in DSR
DIR/e2.pcap    E2's eth0: its ICMP echo replies
DIR/ping.txt   the output of E1's ping

A packet is (source, destination, IP id).  Its first hop is the next hop
of its first transmission by E1.  It was received by a hop when that node
traced dsr_recv for it from E1 (not overheard); a transmission was
received when such a reception follows it before E1's next transmission
of the packet.  This is the paper's accounting, done per packet instead
of from per-node logs merged by hand."""
import re
import struct
import sys
from collections import defaultdict

EV = re.compile(r"\s(\d+\.\d+): (dsr_xmit|dsr_recv|dsr_ack): (.*)$")
XMIT = re.compile(r"\S+ (\S+) -> (\S+) via (\S+) len \d+ try (\d+) "
                  r"ack_req \d rto \d+ms self (\S+) id (\d+) segs (\d+)")
RECV = re.compile(r"\S+ (\S+) -> (\S+) from (\S+) len \d+ (overheard )?"
                  r"(\w+) self (\S+) id (\d+)")
ACK = re.compile(r"\S+ from (\S+) (passive|explicit) rtt \d+ms tries (\d+) "
                 r"since_first \d+ms self (\S+) pkt (\S+) -> (\S+) id (\d+)")

PAPER = {
    "I": ("T1 730 635 13.01", "T2 525 459 12.57", "T3 658 604 8.21",
          "T4 472 414 12.29", "T5 947 844 10.88", "Total 3332 2956 11.28"),
    "II": ("T1 730 681 6.71", "T2 525 489 6.86", "T3 658 631 4.10",
           "T4 472 448 5.08", "T5 947 907 4.22", "Total 3332 3156 5.28"),
    "III": ("T1 730 613 117", "T2 525 445 80", "T3 658 601 57",
            "T4 472 410 62", "T5 947 842 105", "Total 3332 2911 421"),
    "IV": ("T1 254 94 17 143", "T2 102 63 6 33", "T3 75 35 2 38",
           "T4 82 34 2 46", "T5 189 81 23 85", "Total 702 307 50 345"),
}


def load_events(path):
    """xmits[(s,d,id)] = [(t, try, nexthop, segs)] by the packet's source;
    recvs[(s,d,id)] = [(t, self, prev)]; acks[(s,d,id)] = [(t, kind, from)]
    at the packet's source."""
    xmits, recvs, acks = defaultdict(list), defaultdict(list), defaultdict(list)
    with open(path, errors="replace") as f:
        for line in f:
            m = EV.search(line)
            if not m:
                continue
            t, ev, rest = float(m[1]), m[2], m[3]
            if ev == "dsr_xmit" and (x := XMIT.match(rest)):
                s, d, via, tr, self, pid, segs = x.groups()
                if self == s:
                    xmits[(s, d, int(pid))].append((t, int(tr), via, int(segs)))
            elif ev == "dsr_recv" and (x := RECV.match(rest)):
                s, d, prev, ovh, _verdict, self, pid = x.groups()
                if not ovh:
                    recvs[(s, d, int(pid))].append((t, self, prev))
            elif ev == "dsr_ack" and (x := ACK.match(rest)):
                frm, kind, _tries, self, s, d, pid = x.groups()
                if self == s:
                    acks[(s, d, int(pid))].append((t, kind, frm))
    return xmits, recvs, acks


def received(recvs, key, hop, src, t0, t1):
    """hop traced a reception of the packet from src in [t0, t1)"""
    return any(node == hop and prev == src and t0 <= t < t1
               for t, node, prev in recvs.get(key, ()))


def acked(acks, key, hop, kind, t0, t1):
    return any(k == kind and frm == hop and t0 <= t < t1
               for t, k, frm in acks.get(key, ()))


def first_hop_stats(xmits, recvs, acks, keys, src):
    """Per first hop: sent, recv without / with retransmissions, passive
    acks, retransmissions, retransmissions lost, explicit acks lost."""
    st = defaultdict(lambda: defaultdict(int))
    for key in keys:
        tx = sorted(xmits.get(key, ()))
        if not tx or tx[0][1] != 1:
            continue
        hop = tx[0][2]
        s = st[hop]
        s["sent"] += 1
        ends = [t for t, *_ in tx[1:]] + [float("inf")]
        if received(recvs, key, hop, src, tx[0][0], ends[0]):
            s["recv1"] += 1
        if any(via == hop and received(recvs, key, hop, src, t, e)
               for (t, _, via, _), e in zip(tx, ends)):
            s["recv"] += 1
        if acked(acks, key, hop, "passive", tx[0][0], float("inf")):
            s["passive"] += 1
        for (t, tr, via, _), e in zip(tx, ends):
            if tr == 1 or via != hop:
                continue
            s["rxmt"] += 1
            if not received(recvs, key, hop, src, t, e):
                s["rxmt_lost"] += 1
            elif not acked(acks, key, hop, "explicit", t, float("inf")) \
                    and e != float("inf"):
                s["ack_lost"] += 1
    return st


def route_lengths(xmits, keys):
    """hops of each packet's first transmission: Segments Left + 1"""
    hist = defaultdict(int)
    for key in keys:
        tx = sorted(xmits.get(key, ()))
        if tx:
            segs = tx[0][3]
            hist[1 if segs == 255 else segs + 1] += 1
    return hist


def pcap_icmp_ids(path, src, icmp_type):
    """IP ids of the ICMP messages of icmp_type from src in a pcap file of
    Ethernet frames, inside a DSR header (protocol 48) or not"""
    ids = set()
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return ids
    endian = "<" if data[:4] == b"\xd4\xc3\xb2\xa1" else ">"
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack(endian + "IIII", data[off:off + 16])[2]
        frame = data[off + 16:off + 16 + incl]
        off += 16 + incl
        if len(frame) < 34 or frame[12:14] != b"\x08\x00":
            continue
        ip = frame[14:]
        ihl = (ip[0] & 15) * 4
        proto, pid = ip[9], struct.unpack(">H", ip[4:6])[0]
        if ".".join(map(str, ip[12:16])) != src:
            continue
        l4 = ip[ihl:]
        if proto == 48 and len(l4) >= 4:	# DSR: next header, len
            proto = l4[0]
            l4 = l4[4 + struct.unpack(">H", l4[2:4])[0]:]
        if proto == 1 and l4 and l4[0] == icmp_type:
            ids.add(pid)
    return ids


def ping_counts(path):
    """(transmitted, received) from ping's summary line"""
    text = open(path).read()
    m = re.search(r"(\d+) packets transmitted, (\d+) received", text)
    return (int(m[1]), int(m[2])) if m else (0, 0)


def pct(a, b):
    return f"{100.0 * a / b:6.2f}%" if b else "     -"


def table(title, head, rows, paper):
    print(f"\n{title}")
    print("       " + "".join(f"{h:>16}" for h in head))
    for name, vals in rows:
        print(f"  {name:<5}" + "".join(f"{v:>16}" for v in vals))
    if paper:
        print("  paper: " + "; ".join(paper))


def main():
    d = sys.argv[1]
    nodes = [line.split() for line in open(f"{d}/nodes.txt") if line.strip()]
    name = {addr: n for n, addr in nodes}
    e1, e2 = nodes[0][1], nodes[1][1]
    req = [(e1, e2, i) for i in sorted(pcap_icmp_ids(f"{d}/e1.pcap", e1, 8))]
    rep = [(e2, e1, i) for i in sorted(pcap_icmp_ids(f"{d}/e2.pcap", e2, 0))]
    sent, got = ping_counts(f"{d}/ping.txt")
    xmits, recvs, acks = load_events(f"{d}/dsr.trace")
    st = first_hop_stats(xmits, recvs, acks, req, e1)
    hops = sorted(st, key=lambda a: name.get(a, a))
    tot = defaultdict(int)
    for h in hops:
        for k, v in st[h].items():
            tot[k] += v

    def rows(fn):
        return [(name.get(h, h), fn(st[h])) for h in hops] + \
            [("Total", fn(tot))]

    print(f"E1 ({e1}) pinged E2 ({e2}): {sent} echo requests, {got} replies:"
          f" end-to-end loss {pct(sent - got, sent).strip()}"
          f" (paper: 3343 requests, 3013 replies, 10%)")
    print(f"traced: {len(req)} requests by E1, "
          f"{sum(1 for k in req if k in xmits)} with a DSR transmission")
    table("Table I: E1 to each first hop, without DSR retransmissions",
          ("Packets Sent", "Packets Recv", "Loss Rate"),
          rows(lambda s: (s["sent"], s["recv1"],
                          pct(s["sent"] - s["recv1"], s["sent"]))),
          PAPER["I"])
    table("Table II: E1 to each first hop, with DSR retransmissions",
          ("Packets Sent", "Packets Recv", "Loss Rate"),
          rows(lambda s: (s["sent"], s["recv"],
                          pct(s["sent"] - s["recv"], s["sent"]))),
          PAPER["II"])
    table("Table III: originated and passively acknowledged",
          ("Packets Sent", "Passive Acks", "Expected Rxmts"),
          rows(lambda s: (s["sent"], s["passive"],
                          s["sent"] - s["passive"])), PAPER["III"])
    table("Table IV: retransmissions",
          ("Rxmts", "Rxmts Lost", "Acks Lost", "Successful"),
          rows(lambda s: (s["rxmt"], s["rxmt_lost"], s["ack_lost"],
                          s["rxmt"] - s["rxmt_lost"] - s["ack_lost"])),
          PAPER["IV"])
    hq, hp = route_lengths(xmits, req), route_lengths(xmits, rep)
    top = max([4] + list(hq) + list(hp))
    table("Table V: route lengths (hops of the first transmission)",
          [str(i) for i in range(1, top + 1)],
          [("Req", [hq.get(i, 0) for i in range(1, top + 1)]),
           ("Reply", [hp.get(i, 0) for i in range(1, top + 1)])],
          ("Echo Request 57 2405 547 1", "Echo Reply 188 2395 422 5"))


if __name__ == "__main__":
    main()
